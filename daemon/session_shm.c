/* A session's shared-memory link: see session_shm.h. */
#include "config.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <event2/event.h>

#include "fdpass.h"
#include "monotonic.h"
#include "session_shm.h"
#include "shmlink.h"

/* How long the daemon waits for a lock-step client's next request. */
#define SESSION_SHM_LINGER_NS 50000L

/*
 * A wake this soon after going idle says the client is in lock-step:
 * the linger's time, and the daemon's own wakeup (tens of microseconds
 * on a virtual machine), which the linger would save.
 */
#define SESSION_SHM_LOCKSTEP_NS 150000L

/* Wakes that cannot start lingering after a linger that waited in vain. */
#define SESSION_SHM_COOLDOWN 8

struct session_shm {
	struct shmlink link;
	int lingering;           /* session_shm_linger waits (else idles) */
	int cooldown;            /* wakes until lingering may start again */
	long idle_since;         /* ns: when it last went idle, 0: not */
	int fds[SHMLINK_NFDS];   /* to hand over; -1 once gone */
	int live;                /* handed over */
	int deaf;                /* the client closed its end of our pipe */
	struct event *wake_ev;   /* the client woke us */
	struct event *linger_ev; /* a turn of the loop while lingering */
	int64_t linger_until;    /* ns: the end of the linger */
	void (*cb)(void *);
	void *arg;
};

static void session_shm_linger_cb(evutil_socket_t, short, void *);

static void
session_shm_wake_cb(evutil_socket_t fd, short events, void *arg)
{
	struct session_shm *sh = arg;

	/* Woken soon after going idle: the next wait is worth it. */
	if (sh->cooldown > 0)
		sh->cooldown--;
	else if (sh->idle_since != 0 &&
	    monotonic_ns() - sh->idle_since < SESSION_SHM_LOCKSTEP_NS)
		sh->lingering = 1;
	sh->idle_since = 0;
	if (shmlink_drain(&sh->link) != 0) {
		/* At its end the pipe is always readable: the loop would spin. */
		event_del(sh->wake_ev);
		sh->deaf = 1;
	}
	sh->cb(sh->arg);
}

/* Close the client's ends not yet handed over (the memfd is the link's). */
static void
session_shm_close_fds(struct session_shm *sh)
{
	int i;

	for (i = 0; i < SHMLINK_NFDS; i++) {
		if (i != SHMLINK_FD_MEMORY && sh->fds[i] != -1)
			close(sh->fds[i]);
		sh->fds[i] = -1;
	}
}

struct session_shm *
session_shm_new(struct event_base *base, void (*cb)(void *), void *arg,
    uint32_t *request_ring, uint32_t *answer_ring, char *why, size_t len)
{
	struct session_shm *sh;

	if ((sh = calloc(1, sizeof(*sh))) == NULL) {
		snprintf(why, len, "out of memory");
		return NULL;
	}
	if (shmlink_create(&sh->link, SHMLINK_REQUEST_RING, SHMLINK_ANSWER_RING,
		sh->fds, why, len) != 0) {
		free(sh);
		return NULL;
	}
	sh->wake_ev = event_new(base, sh->link.wake_in, EV_READ | EV_PERSIST,
	    session_shm_wake_cb, sh);
	sh->linger_ev = evtimer_new(base, session_shm_linger_cb, sh);
	if (sh->wake_ev == NULL || sh->linger_ev == NULL) {
		if (sh->wake_ev != NULL)
			event_free(sh->wake_ev);
		if (sh->linger_ev != NULL)
			event_free(sh->linger_ev);
		snprintf(why, len, "out of memory");
		session_shm_close_fds(sh);
		shmlink_free(&sh->link);
		free(sh);
		return NULL;
	}
	sh->cb = cb;
	sh->arg = arg;
	*request_ring = SHMLINK_REQUEST_RING;
	*answer_ring = SHMLINK_ANSWER_RING;
	return sh;
}

void
session_shm_free(struct session_shm *sh)
{
	if (sh == NULL)
		return;
	event_free(sh->wake_ev);
	event_free(sh->linger_ev);
	session_shm_close_fds(sh);
	shmlink_free(&sh->link);
	free(sh);
}

int
session_shm_live(const struct session_shm *sh)
{
	return sh != NULL && sh->live;
}

int
session_shm_deaf(const struct session_shm *sh)
{
	return sh->deaf;
}

int
session_shm_handover(struct session_shm *sh, int sock, const uint8_t *frame,
    size_t total, char *why, size_t len)
{
	ssize_t n;

	n = fdpass_send(sock, frame, total, sh->fds, SHMLINK_NFDS);
	session_shm_close_fds(sh);
	if (n != (ssize_t)total) {
		/* An empty socket takes a Welcome whole, or the peer is gone. */
		snprintf(why, len, "cannot hand the shared memory over (%s)",
		    n < 0 ? "the socket refused it" : "the Welcome was cut");
		return -1;
	}
	sh->live = 1;
	shmring_sleep(&sh->link.in); /* the first request wakes us */
	event_add(sh->wake_ev, NULL);
	return 0;
}

ssize_t
session_shm_write(struct session_shm *sh, const void *p, size_t len)
{
	ssize_t n = shmlink_write(&sh->link, p, len);

	if (n > 0 && shmring_wake_needed(&sh->link.out))
		shmlink_kick(&sh->link);
	return n;
}

int
session_shm_want_room(struct session_shm *sh, size_t unread)
{
	size_t len = SHMLINK_CHUNK_MAX, cap = sh->link.out.cap;

	/* Room for len bytes and a chunk's header leaves unread or less. */
	if (unread != SESSION_SHM_ROOM)
		len = unread + 4 >= cap ? 0 : cap - 4 - unread;
	if (shmring_wait_room(&sh->link.out, len) == 0)
		return 0;
	shmring_awake_room(&sh->link.out);
	return 1;
}

ssize_t
session_shm_read(struct session_shm *sh, uint8_t *buf, size_t room)
{
	ssize_t n = shmlink_read(&sh->link, buf, room);

	if (n > 0)
		shmring_say_cpu(&sh->link.in);
	if (n > 0 && shmring_room_wake_needed(&sh->link.in))
		shmlink_kick(&sh->link);
	return n;
}

int
session_shm_idle(struct session_shm *sh)
{
	if (shmring_sleep(&sh->link.in))
		return 1;
	sh->idle_since = monotonic_ns();
	return 0;
}

int
session_shm_linger(struct session_shm *sh)
{
	struct timeval now = { 0, 0 };

	if (!sh->lingering)
		return 0;
	/* Awake while it waits: the client need not write the pipe. */
	shmring_awake(&sh->link.in);
	sh->linger_until = monotonic_ns() + SESSION_SHM_LINGER_NS;
	evtimer_add(sh->linger_ev, &now);
	return 1;
}

/*
 * A turn of the loop while lingering: a request came (handle it), or
 * the wait goes on (yield to a client sharing the CPU, and look again on
 * the next turn), or it is over (idle: the client's next request wakes
 * us; not again for a while, for a client just slower than the wait).
 */
static void
session_shm_linger_cb(evutil_socket_t fd, short events, void *arg)
{
	struct session_shm *sh = arg;
	struct timeval now = { 0, 0 };

	if (shmring_ready(&sh->link.in)) {
		sh->cb(sh->arg);
		return;
	}
	if (monotonic_ns() < sh->linger_until) {
		sched_yield();
		evtimer_add(sh->linger_ev, &now);
		return;
	}
	sh->lingering = 0;
	sh->cooldown = SESSION_SHM_COOLDOWN;
	if (session_shm_idle(sh))
		sh->cb(sh->arg); /* it came meanwhile */
}
void
session_shm_busy(struct session_shm *sh)
{
	shmring_awake(&sh->link.in);
}

size_t
session_shm_unread(const struct session_shm *sh)
{
	return shmring_used(&sh->link.out);
}
