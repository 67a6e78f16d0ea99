/*
 * The HAPTIX simple API (the hx_ calls of haptix.h), sharing the
 * native flavour's connection and last result.
 */
#include "config.h"

#include "haptix_compat.h"

hxResult
hx_connect(const char *host, int port)
{
	(void)port; /* fixed by the server address, as in MuJoCo HAPTIX */
	return compat_connect(host) == mjCOM_OK ? hxOK : hxERROR;
}

hxResult
hx_close(void)
{
	return compat_close() == mjCOM_OK ? hxOK : hxERROR;
}
