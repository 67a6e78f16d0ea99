/*
 * The workbench's control requests (hxview_control.c), between the HTTP
 * server, which checks who asks, and the protocol's calls.
 */
#ifndef HXVIEW_CONTROL_H
#define HXVIEW_CONTROL_H

#include <stdio.h>

#include "hxview_common.h"

/* What a control answers: the HTTP status follows from it. */
enum control_result {
	CONTROL_OK = 0,       /* 200 */
	CONTROL_BAD = -1,     /* 400: the request's arguments */
	CONTROL_REFUSED = -2, /* 409: the server refused the call */
	CONTROL_DENIED = -3,  /* 403: the server denied it (the lease) */
};

/* One request: its arguments, its answer's extra JSON members. */
struct control_req {
	struct view *v;
	hxd_conn *c;
	struct web_pert *pert; /* the browser's (by id), or NULL */
	const char *(*arg)(void *args, const char *name);
	void *args;
	FILE *out;     /* members after "ok":true */
	char err[512]; /* why it failed */
	int reframe;   /* what the frames carry changed: make them anew */
};

/* An argument of the request, or NULL. */
static inline const char *
control_arg(struct control_req *r, const char *name)
{
	return r->arg(r->args, name);
}

/* The row of a control by name, or -1; *writes: refused read-only. */
int control_find(const char *name, int *writes);
/* Run a row; an enum control_result. */
int control_call(int row, struct control_req *r);
/* The controls' names, separated by commas. */
void control_names(FILE *f);

#endif
