/* Calls answered later: see pending.h. */
#include "config.h"

#include <stdlib.h>
#include <sys/queue.h>

#include "daemon.h"
#include "log.h"
#include "pending.h"
#include "session.h"

struct pending {
	TAILQ_ENTRY(pending) entry;
	struct session *s;
	uint64_t id;
	reply_fill_fn fill;
};

/* The calls waiting for the API tick (d->pending). */
struct pendings {
	TAILQ_HEAD(, pending) waiting;
	size_t n;
};

struct pendings *
pending_create(void)
{
	struct pendings *pd;

	if ((pd = calloc(1, sizeof(*pd))) == NULL)
		fatal("out of memory");
	TAILQ_INIT(&pd->waiting);
	return pd;
}

void
pending_free(struct pendings *pd)
{
	struct pending *p;

	if (pd == NULL)
		return;
	while ((p = TAILQ_FIRST(&pd->waiting)) != NULL) {
		TAILQ_REMOVE(&pd->waiting, p, entry);
		free(p);
	}
	free(pd);
}

void
pending_wait_tick(struct session *s, uint64_t id, reply_fill_fn fill)
{
	struct pendings *pd = s->d->pending;
	struct pending *p;

	if ((p = malloc(sizeof(*p))) == NULL)
		fatal("out of memory");
	p->s = s;
	p->id = id;
	p->fill = fill;
	TAILQ_INSERT_TAIL(&pd->waiting, p, entry);
	pd->n++;
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
pending_tick(struct daemon *d)
{
	struct pendings *pd = d->pending;
	struct pending *p;

	/* An answer may close a session: each is taken off first. */
	while ((p = TAILQ_FIRST(&pd->waiting)) != NULL) {
		TAILQ_REMOVE(&pd->waiting, p, entry);
		pd->n--;
		reply_fill(p->s, p->id, p->fill);
		if (p->s->state == SESSION_WAITING)
			session_set_state(p->s, SESSION_READY);
		free(p);
	}
}

void
pending_session_left(struct session *s)
{
	struct pendings *pd = s->d->pending;
	struct pending *p, *next;

	for (p = TAILQ_FIRST(&pd->waiting); p != NULL; p = next) {
		next = TAILQ_NEXT(p, entry);
		if (p->s != s)
			continue;
		TAILQ_REMOVE(&pd->waiting, p, entry);
		pd->n--;
		free(p);
	}
}

size_t
pending_waiting(const struct daemon *d)
{
	return d->pending->n;
}
