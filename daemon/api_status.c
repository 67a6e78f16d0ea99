/* status: what the server runs and how, for the client that asks. */
#include "config.h"

#include "api.h"
#include "snapshot.h"

int
api_status(struct call *c)
{
	PAYLOAD(c, status, STATUS, snapshot_status(c->d, c->arena));
	return RESULT_OK;
}
