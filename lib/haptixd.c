/*
 * The haptixd extension API (haptixd.h), what its areas share: the
 * names of result codes and object types.  Each call lives in the file
 * of its area (haptixd_view.c, haptixd_set.c, haptixd_run.c...), which
 * builds one request with request_call() and turns the answer into the
 * public double-precision structs.
 */
#include "config.h"

#include <string.h>

#include "request.h"

_Static_assert(HXD_DEFAULT_PORT == ADDRESS_DEFAULT_PORT,
    "haptixd.h and address.h disagree on the default port");

static const char *const result_names[] = {
	"mjCOM_OK",
	"mjCOM_BADSIZE",
	"mjCOM_BADINDEX",
	"mjCOM_BADTYPE",
	"mjCOM_BADCOMMAND",
	"mjCOM_NOMODEL",
	"mjCOM_CANNOTSEND",
	"mjCOM_CANNOTRECV",
	"mjCOM_TIMEOUT",
	"mjCOM_NOCONNECTION",
	"mjCOM_CONNECTED",
	"mjCOM_BADVALUE",
	"mjCOM_DENIED",
	"mjCOM_LOADFAILED",
	"mjCOM_BADPROTOCOL",
	"mjCOM_SIMERROR",
};

static const char *const result_texts[] = {
	"success",
	"data has invalid size",
	"object has invalid index",
	"invalid object type",
	"unknown command",
	"model has not been loaded",
	"could not send data",
	"could not receive data",
	"receive timeout",
	"connection not established",
	"already connected",
	"invalid value (NaN, Inf or out of range)",
	"permission denied",
	"model failed to load",
	"protocol error",
	"simulation error",
};

static const char *const obj_names[] = {
	"unknown",
	"body",
	"xbody",
	"joint",
	"dof",
	"geom",
	"site",
	"camera",
	"light",
	"mesh",
	"skin",
	"hfield",
	"texture",
	"material",
	"pair",
	"exclude",
	"equality",
	"tendon",
	"actuator",
	"sensor",
	"numeric",
	"text",
	"tuple",
	"key",
};

const char *
hxd_result_name(int result)
{
	if (result > 0 || (size_t)-result >= NELEM(result_names))
		return "mjCOM_UNKNOWN";
	return result_names[-result];
}

const char *
hxd_result_text(int result)
{
	if (result > 0 || (size_t)-result >= NELEM(result_texts))
		return "unknown result";
	return result_texts[-result];
}

int
hxd_obj_parse(const char *s)
{
	size_t i;

	if (s == NULL)
		return HXD_OBJ_UNKNOWN;
	for (i = 1; i < NELEM(obj_names); i++) {
		if (strcmp(s, obj_names[i]) == 0)
			return (int)i;
	}
	if (strcmp(s, "keyframe") == 0)
		return HXD_OBJ_KEY;
	return HXD_OBJ_UNKNOWN;
}

const char *
hxd_obj_name(int type)
{
	if (type < 0 || (size_t)type >= NELEM(obj_names))
		return "unknown";
	return obj_names[type];
}
