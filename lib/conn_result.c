/*
 * What a call on a connection left: the result code and its words,
 * recorded by every part of libhaptix (conn.h) and read by the program
 * through hxd_result() and hxd_error().
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>

#include "conn.h"

int
conn_fail(hxd_conn *c, int code, const char *fmt, ...)
{
	va_list ap;

	c->result = code;
	va_start(ap, fmt);
	vsnprintf(c->error, sizeof(c->error), fmt, ap);
	va_end(ap);
	return code;
}

int
conn_ok(hxd_conn *c)
{
	c->result = HXD_OK;
	c->error[0] = '\0';
	return HXD_OK;
}

int
hxd_result(const hxd_conn *c)
{
	return c != NULL ? c->result : HXD_NOCONNECTION;
}

const char *
hxd_error(const hxd_conn *c)
{
	return c != NULL ? c->error : "no connection";
}
