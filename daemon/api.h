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
	Response *resp;          /* the handler sets the payload */
	struct arena *arena;     /* scratch freed after the response is sent */
	char err[1024];          /* what was wrong, when the result is not OK */
	void (*cleanup)(void *); /* if set, called after the answer is sent */
	void *cleanup_arg;
};

/* A handler returns a result code, or CALL_DEFERRED when it will answer later. */
#define CALL_DEFERRED 1

typedef int (*api_handler)(struct call *c);

/* Fill c->err and return code. */
int call_fail(struct call *c, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Send a response to request id of session s. */
void dispatch_send(
    struct session *s, uint64_t id, int code, const char *err, Response *resp);

/* Fills a deferred answer's payload from the simulation as it is now. */
typedef void (*api_fill)(struct daemon *d, struct arena *a, Response *resp);

/*
 * Answer request id of s now with a payload from fill.  It has its own
 * scratch memory: it may run inside another call (pause answers waiters).
 */
void dispatch_answer(struct session *s, uint64_t id, api_fill fill);

/*------------------------------------------------- shared by handlers */

/* Allocate a message of a generated type in the call's arena. */
#define NEW(c, type, init) \
	((type *)api_new((c), sizeof(type), (void (*)(void *))(init)))

/* Set the response's payload member and case. */
#define PAYLOAD(c, member, CASE, value) \
	do { \
		(c)->resp->payload_case = HAPTIX__V1__RESPONSE__PAYLOAD_##CASE; \
		(c)->resp->member = (value); \
	} while (0)

/* Allocate and initialise a message in the call's arena. */
void *api_new(struct call *c, size_t size, void (*init)(void *));

/* Copy n values into a new arena array. */
double *api_copy(struct call *c, const double *src, size_t n);

/*
 * Argument checks.  Each returns 0, or the result code after describing
 * the problem in c->err, so that checks chain with ||.
 */

/* A declared count must equal the model's (BADSIZE). */
int check_count(struct call *c, const char *what, uint32_t n, int want);

/* An array must have exactly want values (BADSIZE). */
int check_len(struct call *c, const char *what, size_t n, size_t want);

/* No NaN or infinity (BADVALUE). */
int check_finite(struct call *c, const char *what, const double *v, size_t n);

/* 0 <= id < n (BADINDEX). */
int check_id(struct call *c, const char *what, int id, int n);

/* Every quaternion (count of them) must have a direction (BADVALUE). */
int check_quats(
    struct call *c, const char *what, const double *q, size_t count);

/* An array that is either absent or has exactly n finite values. */
int check_optional(
    struct call *c, const char *what, const double *v, size_t len, size_t n);

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

/* HAPTIX simple API (api_simple.c). */
int api_robot_info(struct call *);
int api_robot_update(struct call *);

/* Arrays by name (api_array.c). */
int api_get_array(struct call *);
int api_set_array(struct call *);
int api_list_arrays(struct call *);

/* Sessions, the lease and streams (api_session.c). */
int api_clients(struct call *);
int api_lease(struct call *);
int api_subscribe(struct call *);
int api_unsubscribe(struct call *);

/* Batch runs (batch.c), keyframes and joints by name (api_native.c). */
int api_batch(struct call *);
int api_capture_key(struct call *);
int api_set_joint(struct call *);

/* Check a Control from the client and apply it (api_native.c). */
int api_control_apply(struct call *c, const Haptix__V1__Control *w);

/*
 * Return 0 if the calling client may change the simulation, else
 * RESULT_DENIED with the reason: another client holds the lease or runs
 * a batch.  Dispatch checks this for every writing call; calls that
 * write only sometimes check it themselves.
 */
int api_may_write(struct call *c);

/* Administration (api_admin.c). */
int api_hello(struct call *);
int api_load_model(struct call *);
int api_pause(struct call *);
int api_run(struct call *);
int api_set_speed(struct call *);
int api_status(struct call *);
int api_record_start(struct call *);
int api_record_stop(struct call *);
int api_state_hash(struct call *);

/* Input drivers: tracking and perturbations (api_driver.c). */
int api_mocap_pose(struct call *);
int api_mocap_connect(struct call *);
int api_perturb(struct call *);

/* The model for viewers (api_model.c). */
int api_get_model(struct call *);

#endif
