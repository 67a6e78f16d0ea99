/*
 * Unit tests of the precise timers (daemon/ptimer.c): callbacks at
 * absolute monotonic times on one timerfd, in the order of their times,
 * never early, and safe to stop, move or free from any callback.
 */
#include "config.h"

#include <stdint.h>

#include <criterion/criterion.h>
#include <event2/event.h>

#include "monotonic.h"
#include "ptimer.h"

TestSuite(ptimer, .timeout = 10);

#define MS 1000000LL

struct fired {
	int order[8];
	int n;
	int64_t when[8], due[8];
	struct ptimer *self[8]; /* freed in its own callback when set */
	struct ptimer *other;   /* stopped by timer 0 when set */
};

static struct fired got;

/* Record which timer fired, when, and do what the test asked of it. */
static void
fired_cb(struct ptimer *t, void *arg)
{
	int id = (int)(intptr_t)arg;

	got.when[got.n] = monotonic_ns();
	got.order[got.n++] = id;
	if (id == 0 && got.other != NULL)
		ptimer_stop(got.other);
	if (got.self[id] == t) {
		ptimer_free(t);
		got.self[id] = NULL;
	}
}

/* Run the loop until n timers fired or ms passed. */
static void
run_until(struct event_base *base, int n, int ms)
{
	int64_t end = monotonic_ns() + ms * MS;

	while (got.n < n && monotonic_ns() < end)
		event_base_loop(base, EVLOOP_ONCE | EVLOOP_NONBLOCK);
}

Test(ptimer, timers_fire_in_the_order_of_their_times_never_early)
{
	struct event_base *base = event_base_new();
	struct ptimer *t[3];
	int64_t now = monotonic_ns();
	int i;

	got = (struct fired){ 0 };
	for (i = 0; i < 3; i++)
		t[i] = ptimer_new(base, fired_cb, (void *)(intptr_t)i);
	got.due[0] = now + 30 * MS;
	got.due[1] = now + 10 * MS;
	got.due[2] = now + 20 * MS;
	for (i = 0; i < 3; i++)
		ptimer_at(t[i], got.due[i]);
	run_until(base, 3, 1000);
	cr_assert_eq(got.n, 3, "%d of 3 fired", got.n);
	cr_expect_eq(got.order[0], 1);
	cr_expect_eq(got.order[1], 2);
	cr_expect_eq(got.order[2], 0);
	for (i = 0; i < 3; i++)
		cr_expect_geq(got.when[i], got.due[got.order[i]],
		    "timer %d fired %lld ns early", got.order[i],
		    (long long)(got.due[got.order[i]] - got.when[i]));
	/* Each fires once. */
	run_until(base, 4, 50);
	cr_expect_eq(got.n, 3);
	for (i = 0; i < 3; i++)
		ptimer_free(t[i]);
	event_base_free(base);
}

Test(ptimer, stopped_and_moved_timers)
{
	struct event_base *base = event_base_new();
	struct ptimer *a = ptimer_new(base, fired_cb, (void *)(intptr_t)1);
	struct ptimer *b = ptimer_new(base, fired_cb, (void *)(intptr_t)2);
	int64_t now = monotonic_ns();

	got = (struct fired){ 0 };
	ptimer_at(a, now + 10 * MS);
	ptimer_stop(a);
	ptimer_stop(a); /* harmless twice */
	ptimer_at(b, now + 500 * MS);
	ptimer_at(b, now + 15 * MS); /* moved earlier */
	run_until(base, 1, 300);
	cr_assert_eq(got.n, 1, "the moved timer did not fire in time");
	cr_expect_eq(got.order[0], 2);
	cr_expect_lt(got.when[0], now + 500 * MS);
	run_until(base, 2, 50);
	cr_expect_eq(got.n, 1, "the stopped timer fired");
	ptimer_free(a);
	ptimer_free(b);
	ptimer_free(NULL);
	event_base_free(base);
}

Test(ptimer, a_time_gone_fires_after_the_loop_polls_not_at_once)
{
	struct event_base *base = event_base_new();
	struct ptimer *t = ptimer_new(base, fired_cb, (void *)(intptr_t)0);

	got = (struct fired){ 0 };
	ptimer_at(t, monotonic_ns() - 5 * MS);
	cr_expect_eq(got.n, 0, "fired inside ptimer_at");
	run_until(base, 1, 100);
	cr_expect_eq(got.n, 1);
	ptimer_free(t);
	event_base_free(base);
}

Test(ptimer, callbacks_may_free_themselves_and_stop_others)
{
	struct event_base *base = event_base_new();
	struct ptimer *first = ptimer_new(base, fired_cb, (void *)(intptr_t)0);
	struct ptimer *later = ptimer_new(base, fired_cb, (void *)(intptr_t)1);
	struct ptimer *own = ptimer_new(base, fired_cb, (void *)(intptr_t)2);
	int64_t now = monotonic_ns();

	got = (struct fired){ 0 };
	got.other = later;
	got.self[2] = own;
	/* first and later are due together: first stops later. */
	ptimer_at(first, now + 5 * MS);
	ptimer_at(later, now + 5 * MS + 1);
	ptimer_at(own, now + 2 * MS);
	run_until(base, 3, 100);
	cr_expect_eq(got.n, 2, "%d fired", got.n);
	cr_expect_eq(got.order[0], 2);
	cr_expect_eq(got.order[1], 0);
	cr_expect_null(got.self[2], "own did not free itself");
	ptimer_free(first);
	ptimer_free(later);
	event_base_free(base);
}
