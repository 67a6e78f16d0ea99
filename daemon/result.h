/*
 * Result codes as the daemon's modules use them: the values of HAPTIX's
 * mjtResult and of the protocol's Result enum (dispatch.c checks that
 * they agree), without the generated header.
 */
#ifndef HXD_RESULT_H
#define HXD_RESULT_H

enum result {
	RESULT_OK = 0,
	RESULT_BADSIZE = -1,
	RESULT_BADINDEX = -2,
	RESULT_BADTYPE = -3,
	RESULT_BADCOMMAND = -4,
	RESULT_NOMODEL = -5,
	RESULT_BADVALUE = -11,
	RESULT_DENIED = -12,
	RESULT_LOADFAILED = -13,
	RESULT_BADPROTOCOL = -14,
	RESULT_SIMERROR = -15,
};

#endif
