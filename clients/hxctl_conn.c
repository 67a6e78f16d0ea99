/*
 * hxctl's connection: made on a command's first need, and the model's
 * description fetched on first need.
 */
#include "config.h"

#include <stddef.h>

#include "haptixd.h"
#include "hxctl_common.h"

/* Connect unless connected; 0, or CTL_FAIL after reporting why not. */
int
ctl_connect(struct ctl *ctl)
{
	if (ctl->conn != NULL)
		return CTL_OK;
	ctl->conn = hxd_connect_timeout(ctl->server, "hxctl",
	    ctl->timeout_ms >= 0 ? ctl->timeout_ms : HXD_DEFAULT_TIMEOUT_MS);
	if (ctl->conn == NULL)
		return ctl_error(ctl, HXD_NOCONNECTION, "out of memory");
	if (hxd_result(ctl->conn) != HXD_OK)
		return ctl_fail(ctl);
	return CTL_OK;
}

/* Fetch the model's description unless fetched; 0 or CTL_FAIL. */
int
ctl_get_info(struct ctl *ctl)
{
	int rc;

	if (ctl->info != NULL)
		return CTL_OK;
	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_info_get(ctl->conn, &ctl->info) != HXD_OK)
		return ctl_fail(ctl);
	return CTL_OK;
}
