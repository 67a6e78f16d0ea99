/* status: what the server runs and how, for the client that asks. */
#include "config.h"

#include "api.h"
#include "protomsg.h"

int
api_status(struct call *c)
{
	PAYLOAD(c, status, STATUS, protomsg_status(c->d, c->arena));
	return RESULT_OK;
}
