/* Precise timers on one timerfd: see ptimer.h. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>

#include "log.h"
#include "monotonic.h"
#include "ptimer.h"

#define PTIMER_IDLE ((size_t)-1)

struct ptimer {
	ptimer_fn fn;
	void *arg;
	int64_t due;
	uint64_t seq; /* when armed: a pass fires only what it found armed */
	size_t slot;  /* in the heap, or PTIMER_IDLE */
};

/*
 * The timers armed, earliest first (a binary heap), and the timerfd,
 * which lives while any timer does.
 */
static struct {
	int fd;
	struct event *ev;
	struct ptimer **heap;
	size_t n, cap, live;
	int64_t set; /* the timerfd's time; 0: disarmed, -1: fired */
	uint64_t seq;
	int firing; /* the timerfd is set once, after the pass */
} pt = { .fd = -1 };

static void ptimer_fire_cb(evutil_socket_t, short, void *);

static void
ptimer_place(struct ptimer *t, size_t i)
{
	pt.heap[i] = t;
	t->slot = i;
}

static void
ptimer_up(size_t i)
{
	struct ptimer *t = pt.heap[i];

	while (i > 0 && pt.heap[(i - 1) / 2]->due > t->due) {
		ptimer_place(pt.heap[(i - 1) / 2], i);
		i = (i - 1) / 2;
	}
	ptimer_place(t, i);
}

static void
ptimer_down(size_t i)
{
	struct ptimer *t = pt.heap[i];
	size_t c;

	while ((c = 2 * i + 1) < pt.n) {
		if (c + 1 < pt.n && pt.heap[c + 1]->due < pt.heap[c]->due)
			c++;
		if (pt.heap[c]->due >= t->due)
			break;
		ptimer_place(pt.heap[c], i);
		i = c;
	}
	ptimer_place(t, i);
}

static void
ptimer_remove(struct ptimer *t)
{
	size_t i = t->slot;
	struct ptimer *last;

	t->slot = PTIMER_IDLE;
	last = pt.heap[--pt.n];
	if (last == t)
		return;
	ptimer_place(last, i);
	ptimer_up(i);
	ptimer_down(last->slot);
}

/* Set the timerfd to the earliest time, if that changed. */
static void
ptimer_sync(void)
{
	int64_t due = pt.n != 0 ? pt.heap[0]->due : 0;
	struct itimerspec its;

	if (pt.fd == -1 || pt.firing || due == pt.set)
		return;
	memset(&its, 0, sizeof(its));
	its.it_value.tv_sec = (time_t)(due / 1000000000LL);
	its.it_value.tv_nsec = (long)(due % 1000000000LL);
	if (timerfd_settime(pt.fd, TFD_TIMER_ABSTIME, &its, NULL) != 0)
		fatal("cannot set the precise timer: %s", strerror(errno));
	pt.set = due;
}

/*
 * The earliest time came: fire what is due and was armed before this
 * pass (a callback that arms again for a time gone waits for the next
 * pass, after the sockets), then set the timerfd again, which also
 * clears it: it is never read.
 */
static void
ptimer_fire_cb(evutil_socket_t fd, short events, void *arg)
{
	int64_t now = monotonic_ns();
	uint64_t pass = pt.seq;
	struct ptimer *t;

	pt.set = -1;
	pt.firing = 1;
	while (pt.n != 0 && pt.heap[0]->due <= now && pt.heap[0]->seq <= pass) {
		t = pt.heap[0];
		ptimer_remove(t);
		t->fn(t, t->arg); /* may arm or free any timer, t too */
	}
	pt.firing = 0;
	ptimer_sync();
}

struct ptimer *
ptimer_new(struct event_base *base, ptimer_fn fn, void *arg)
{
	struct ptimer *t = calloc(1, sizeof(*t));

	if (t == NULL)
		fatal("out of memory");
	if (pt.fd == -1) {
		pt.fd = timerfd_create(
		    CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
		if (pt.fd == -1)
			fatal("cannot create the precise timer: %s",
			    strerror(errno));
		pt.ev = event_new(
		    base, pt.fd, EV_READ | EV_PERSIST, ptimer_fire_cb, NULL);
		if (pt.ev == NULL || event_add(pt.ev, NULL) != 0)
			fatal("cannot watch the precise timer");
		pt.set = 0;
	}
	pt.live++;
	t->fn = fn;
	t->arg = arg;
	t->slot = PTIMER_IDLE;
	return t;
}

void
ptimer_free(struct ptimer *t)
{
	if (t == NULL)
		return;
	ptimer_stop(t);
	free(t);
	if (--pt.live != 0)
		return;
	event_free(pt.ev);
	close(pt.fd);
	free(pt.heap);
	memset(&pt, 0, sizeof(pt));
	pt.fd = -1;
}

void
ptimer_at(struct ptimer *t, int64_t due)
{
	struct ptimer **h;
	size_t cap;

	if (due < 1)
		due = 1; /* 0 would disarm the timerfd */
	t->seq = ++pt.seq;
	if (t->slot != PTIMER_IDLE) {
		t->due = due;
		ptimer_up(t->slot);
		ptimer_down(t->slot);
	} else {
		if (pt.n == pt.cap) {
			cap = pt.cap == 0 ? 16 : 2 * pt.cap;
			if ((h = realloc(pt.heap, cap * sizeof(*h))) == NULL)
				fatal("out of memory");
			pt.heap = h;
			pt.cap = cap;
		}
		t->due = due;
		ptimer_place(t, pt.n++);
		ptimer_up(t->slot);
	}
	ptimer_sync();
}

void
ptimer_stop(struct ptimer *t)
{
	if (t->slot == PTIMER_IDLE)
		return;
	ptimer_remove(t);
	ptimer_sync();
}
