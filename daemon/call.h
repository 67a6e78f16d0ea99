/*
 * One call in progress, as its handler sees it: the request, the response
 * to fill, scratch memory, the error text, and the checks that every
 * argument from the network goes through.
 */
#ifndef HXD_CALL_H
#define HXD_CALL_H

#include <stddef.h>
#include <stdint.h>

#include "haptix.pb-c.h"
#include "reply.h"
#include "result.h"

struct arena;
struct daemon;
struct session;

typedef Haptix__V1__Request Request;

struct call {
	struct daemon *d;
	struct session *s;
	const Request *req;
	Response *resp;          /* the handler sets the payload */
	struct arena *arena;     /* scratch freed after the response is sent */
	char err[1024];          /* what was wrong, when the result is not OK */
	reply_fill_fn fill;      /* with CALL_WAIT_TICK: fills the answer */
	void (*cleanup)(void *); /* if set, called after the answer is sent */
	void *cleanup_arg;
};

/*
 * Besides a result code (<= 0), a handler may return that its answer
 * comes later.  Waiting is a result: dispatch hands the call to the
 * pending calls (pending.h), never the handler.
 */
#define CALL_WAIT_TICK 1 /* answer with c->fill at the next API tick */
#define CALL_BUSY 2      /* working; pending_finish() answers */

typedef int (*call_handler)(struct call *c);

/* Fill c->err and return code. */
int call_fail(struct call *c, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * Return 0 if the calling client may change the simulation, else
 * RESULT_DENIED with the reason: another client holds the lease or runs
 * a batch.  Dispatch checks this for every writing call; calls that
 * write only sometimes check it themselves.
 */
int call_may_write(struct call *c);

/* Allocate a message of a generated type in the call's arena. */
#define NEW(c, type, init) \
	((type *)call_new((c), sizeof(type), (void (*)(void *))(init)))

/* Set the response's payload member and case. */
#define PAYLOAD(c, member, CASE, value) \
	do { \
		(c)->resp->payload_case = HAPTIX__V1__RESPONSE__PAYLOAD_##CASE; \
		(c)->resp->member = (value); \
	} while (0)

/* Allocate and initialise a message in the call's arena. */
void *call_new(struct call *c, size_t size, void (*init)(void *));

/* Copy n values into a new arena array. */
double *call_copy(struct call *c, const double *src, size_t n);

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

#endif
