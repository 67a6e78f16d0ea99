/*
 * The call table: one row per line of api_calls.h, indexed by the call's
 * field number in the Request oneof, handed to dispatch.
 */
#include "config.h"

#include "api.h"
#include "api_table.h"
#include "dispatch.h"

#define M DISPATCH_MODEL
#define W DISPATCH_WRITE

static const struct dispatch_entry api_table[] = {
#define CALL(CASE, fn, needs) \
	[HAPTIX__V1__REQUEST__CALL_##CASE] = { #fn, api_##fn, needs, NULL },
#define CALL_SOMETIMES(CASE, fn, needs) \
	[HAPTIX__V1__REQUEST__CALL_## \
	    CASE] = { #fn, api_##fn, needs, api_##fn##_writes },
#include "api_calls.h"
#undef CALL
#undef CALL_SOMETIMES
};

void
api_table_serve(void)
{
	dispatch_init(api_table, sizeof(api_table) / sizeof(api_table[0]));
}
