/* Calls answered later: see pending.h. */
#include "config.h"

#include <stdlib.h>
#include <sys/queue.h>

#include "log.h"
#include "pending.h"
#include "session.h"

struct pending {
	TAILQ_ENTRY(pending) entry;
	struct session *s;
	uint64_t id;
	reply_fill_fn fill;
};

static TAILQ_HEAD(, pending) waiting = TAILQ_HEAD_INITIALIZER(waiting);
static size_t nwaiting;

void
pending_wait_tick(struct session *s, uint64_t id, reply_fill_fn fill)
{
	struct pending *p;

	if ((p = malloc(sizeof(*p))) == NULL)
		fatal("out of memory");
	p->s = s;
	p->id = id;
	p->fill = fill;
	TAILQ_INSERT_TAIL(&waiting, p, entry);
	nwaiting++;
	session_set_state(s, SESSION_WAITING);
}

void
pending_busy(struct session *s)
{
	session_set_state(s, SESSION_BUSY);
}

void
pending_finish(
    struct session *s, uint64_t id, int code, const char *err, Response *resp)
{
	reply_send(s, id, code, err, resp);
	if (s->state == SESSION_BUSY)
		session_set_state(s, SESSION_READY);
}

void
pending_tick(void)
{
	struct pending *p;

	/* An answer may close a session: each is taken off first. */
	while ((p = TAILQ_FIRST(&waiting)) != NULL) {
		TAILQ_REMOVE(&waiting, p, entry);
		nwaiting--;
		reply_fill(p->s, p->id, p->fill);
		if (p->s->state == SESSION_WAITING)
			session_set_state(p->s, SESSION_READY);
		free(p);
	}
}

void
pending_session_left(struct session *s)
{
	struct pending *p, *next;

	for (p = TAILQ_FIRST(&waiting); p != NULL; p = next) {
		next = TAILQ_NEXT(p, entry);
		if (p->s != s)
			continue;
		TAILQ_REMOVE(&waiting, p, entry);
		nwaiting--;
		free(p);
	}
}

size_t
pending_waiting(void)
{
	return nwaiting;
}
