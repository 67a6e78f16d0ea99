/*
 * Answers: a Response packed straight into a session's output, within
 * the frame limit.
 */
#ifndef HXD_REPLY_H
#define HXD_REPLY_H

#include <stddef.h>
#include <stdint.h>

#include "haptix.pb-c.h"

struct arena;
struct daemon;
struct session;

typedef Haptix__V1__Response Response;

/* Fills an answer's payload from the simulation as it is now. */
typedef void (*reply_fill_fn)(
    struct daemon *d, struct arena *a, Response *resp);

/*
 * Send resp as the answer to request id of s with result code (err says
 * why when it is not OK).  An answer over --max-frame becomes BADSIZE.
 */
void reply_send(
    struct session *s, uint64_t id, int code, const char *err, Response *resp);

/*
 * Answer request id of s now with a payload from fill.  It has its own
 * scratch memory: it may run inside another call (pause answers waiters).
 */
void reply_fill(struct session *s, uint64_t id, reply_fill_fn fill);

/* Send an error that answers no particular request (id 0). */
void reply_refuse(struct session *s, int code, const char *why);

#endif
