/* The extension API's status call (haptixd.h): the server as it runs. */
#include "config.h"

#include <string.h>

#include "request.h"

int
hxd_status_get(hxd_conn *c, hxd_status *out)
{
	Response *r;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = request_call(c, HAPTIX__V1__REQUEST__CALL_STATUS, NULL,
	    HAPTIX__V1__RESPONSE__PAYLOAD_STATUS, &r);
	if (rc != HXD_OK)
		return rc;
	conn_status_from_wire(out, r->status);
	conn_free_response(r);
	return rc;
}
