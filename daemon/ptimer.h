/*
 * Precise timers: callbacks at absolute times on the monotonic clock, to
 * the kernel's timer precision, for the pacing and the frames at a
 * wall-clock rate.  They share one timerfd in the loop, set only when
 * the earliest time changes.  libevent's own precise timer
 * (EVENT_BASE_FLAG_PRECISE_TIMER) sets its timerfd on every pass of the
 * loop, one system call more for every request served; without it,
 * libevent's timers keep a coarse clock, good to a kernel tick (4 ms at
 * 250 Hz), which the time-outs need and no more.
 */
#ifndef HXD_PTIMER_H
#define HXD_PTIMER_H

#include <stdint.h>

struct event_base;
struct ptimer;

typedef void (*ptimer_fn)(struct ptimer *t, void *arg);

/* A timer of the loop base, not armed. */
struct ptimer *ptimer_new(struct event_base *base, ptimer_fn fn, void *arg);

/* Stop and free t; NULL is fine.  Safe inside any timer's callback. */
void ptimer_free(struct ptimer *t);

/*
 * Arm t for due (ns on the monotonic clock, as monotonic_ns()), or move
 * it.  A time gone fires once the loop has polled the sockets.
 */
void ptimer_at(struct ptimer *t, int64_t due);

/* Disarm t; harmless when it is not armed. */
void ptimer_stop(struct ptimer *t);

#endif
