/*
 * What a call handler sees, and the handlers dispatch.c's table lists.
 * Handlers decode their request's arguments, check them, call the sim
 * and fill the response; they never touch a socket.
 */
#ifndef HXD_API_H
#define HXD_API_H

#include <stddef.h>
#include <stdint.h>

#include "haptix.pb-c.h"
#include "result.h"

struct arena;
struct daemon;
struct session;

typedef Haptix__V1__Request Request;
typedef Haptix__V1__Response Response;

/* One call in progress. */
struct call {
	struct daemon *d;
	struct session *s;
	const Request *req;
	Response *resp;      /* the handler sets the payload */
	struct arena *arena; /* scratch freed after the response is sent */
	char err[1024];      /* what was wrong, when the result is not OK */
};

/* A handler returns a result code, or CALL_DEFERRED when it will answer later. */
#define CALL_DEFERRED 1

typedef int (*api_handler)(struct call *c);

/* Fill c->err and return code. */
int call_fail(struct call *c, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Send a response to request id of session s (for deferred answers). */
void dispatch_send(
    struct session *s, uint64_t id, int code, const char *err, Response *resp);

/* Scratch for answers sent outside a call (deferred answers). */
struct arena *dispatch_arena(void);

/* HAPTIX native API (api_native.c). */
int api_info(struct call *);
int api_get_state(struct call *);
int api_set_state(struct call *);
int api_get_control(struct call *);
int api_set_control(struct call *);
int api_get_applied(struct call *);
int api_set_applied(struct call *);
int api_get_onebody(struct call *);
int api_set_onebody(struct call *);
int api_get_mocap(struct call *);
int api_set_mocap(struct call *);
int api_get_dynamics(struct call *);
int api_get_sensor(struct call *);
int api_get_body(struct call *);
int api_get_geom(struct call *);
int api_get_site(struct call *);
int api_get_tendon(struct call *);
int api_get_actuator(struct call *);
int api_get_force(struct call *);
int api_get_contact(struct call *);
int api_set_geomsize(struct call *);
int api_get_rgba(struct call *);
int api_set_rgba(struct call *);
int api_step(struct call *);
int api_update(struct call *);
int api_reset(struct call *);
int api_equality(struct call *);
int api_message(struct call *);
int api_name2id(struct call *);
int api_id2name(struct call *);

/* Administration (api_admin.c). */
int api_hello(struct call *);
int api_load_model(struct call *);
int api_pause(struct call *);
int api_run(struct call *);
int api_set_speed(struct call *);
int api_status(struct call *);

#endif
