/*
 * Calls that are not answered when their handler returns: an update
 * that waits for the API tick, and a long call (a batch run) that works
 * over several turns of the loop.  Their session holds its input
 * meanwhile.  The clock completes the waiting calls with pending_tick().
 */
#ifndef HXD_PENDING_H
#define HXD_PENDING_H

#include <stddef.h>
#include <stdint.h>

#include "reply.h"

struct daemon;
struct pendings;
struct session;

/* The waiting calls' state (d->pending); pending_free takes NULL. */
struct pendings *pending_create(void);
void pending_free(struct pendings *pd);

/* Request id of s is answered with fill at the next API tick. */
void pending_wait_tick(struct session *s, uint64_t id, reply_fill_fn fill);

/* s is busy with a long call; pending_finish() answers it. */
void pending_busy(struct session *s);

/* Answer the long call (request id) of s, and read its input again. */
void pending_finish(
    struct session *s, uint64_t id, int code, const char *err, Response *resp);

/* The API tick (or a pause, or a new model): answer every waiting call. */
void pending_tick(struct daemon *d);

/* s left: it waits for nothing any more. */
void pending_session_left(struct session *s);

/* Number of calls waiting for the tick. */
size_t pending_waiting(const struct daemon *d);

#endif
