/*
 * The pacing clock's own measure of its step-start lateness, through a
 * real haptixd: the status carries it, it grows while the clock runs
 * on its schedule, its percentiles are ordered, and it starts again
 * whenever the schedule is anchored again (run, speed); hxctl shows it.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "check.h"
#include "harness.h"
#include "haptixd.h"

TestSuite(pacing, .timeout = 60, .fini = hx_server_cleanup);

static const char *const fixture_args[] = { "-m", "fixture.xml", "--paused",
	NULL };

/* The lateness figures make sense together. */
static void
expect_ordered(const hxd_status *st, const char *when)
{
	cr_expect_geq(st->pacing.lateness_p50, 0, "%s: p50 %g", when,
	    st->pacing.lateness_p50);
	cr_expect_leq(st->pacing.lateness_p50, st->pacing.lateness_p99,
	    "%s: p50 %g > p99 %g", when, st->pacing.lateness_p50,
	    st->pacing.lateness_p99);
	cr_expect_leq(st->pacing.lateness_p99, st->pacing.lateness_max,
	    "%s: p99 %g > max %g", when, st->pacing.lateness_p99,
	    st->pacing.lateness_max);
	/* Far behind, the schedule is dropped (an overrun): < 1 s. */
	cr_expect_lt(st->pacing.lateness_max, 1, "%s: max %g s", when,
	    st->pacing.lateness_max);
}

Test(pacing, stats_grow_and_reset)
{
	struct hx_server srv;
	hxd_conn *c;
	hxd_status s0, s1, s2, s3;

	hx_server_start(&srv, fixture_args);
	c = hx_connect_ok(hx_server_addr(&srv, 0), "test_pacing");

	s0 = hx_status_ok(c);
	cr_expect_eq(
	    s0.pacing.ticks, 0, "never ran: %llu ticks", s0.pacing.ticks);
	cr_expect_eq(s0.pacing.lateness_max, 0);

	/* 500 Hz: some 150 ticks in 300 ms; a loaded machine gets fewer. */
	HX_OK(c, hxd_run(c));
	hx_sleep_ms(300);
	s1 = hx_status_ok(c);
	cr_expect_gt(
	    s1.pacing.ticks, 20, "%llu ticks in 300 ms", s1.pacing.ticks);
	cr_expect_leq(s1.pacing.ticks, s1.steps,
	    "a tick takes at least one step: %llu ticks, %llu steps",
	    s1.pacing.ticks, s1.steps);
	cr_expect_gt(s1.pacing.lateness_max, 0);
	expect_ordered(&s1, "running");

	hx_sleep_ms(300);
	s2 = hx_status_ok(c);
	cr_expect_gt(s2.pacing.ticks, s1.pacing.ticks + 20,
	    "the ticks grow: %llu, then %llu", s1.pacing.ticks,
	    s2.pacing.ticks);
	expect_ordered(&s2, "running on");

	/* A speed change anchors a new schedule: the count starts again. */
	HX_OK(c, hxd_set_speed(c, 0.5, 0));
	s3 = hx_status_ok(c);
	cr_expect_lt(s3.pacing.ticks, s2.pacing.ticks / 2,
	    "after a speed change: %llu ticks, before %llu", s3.pacing.ticks,
	    s2.pacing.ticks);
	hx_sleep_ms(300);
	s3 = hx_status_ok(c);
	cr_expect_gt(s3.pacing.ticks, 10, "at 250 Hz: %llu ticks in 300 ms",
	    s3.pacing.ticks);
	expect_ordered(&s3, "at half speed");

	/* Paused, the figures of the last run stay. */
	HX_OK(c, hxd_pause(c));
	s1 = hx_status_ok(c);
	hx_sleep_ms(100);
	s2 = hx_status_ok(c);
	cr_expect_eq(s2.pacing.ticks, s1.pacing.ticks,
	    "paused: %llu ticks, then %llu", s1.pacing.ticks, s2.pacing.ticks);
	cr_expect_eq(s2.pacing.lateness_max, s1.pacing.lateness_max);

	/* At --speed max there is no schedule to be late for. */
	HX_OK(c, hxd_set_speed(c, 1, 1));
	HX_OK(c, hxd_run(c));
	hx_sleep_ms(100);
	s1 = hx_status_ok(c);
	cr_expect_gt(s1.steps, s2.steps + 50);
	cr_expect_eq(
	    s1.pacing.ticks, 0, "speed max: %llu ticks", s1.pacing.ticks);
	cr_expect_eq(s1.pacing.lateness_p99, 0);

	hxd_close(c);
	hx_server_stop(&srv);
}

Test(pacing, hxctl_shows_lateness)
{
	struct hx_server srv;
	char cmd[1024], *out;
	hxd_conn *c;
	FILE *f;

	hx_server_start(&srv, fixture_args);
	c = hx_connect_ok(hx_server_addr(&srv, 0), "test_pacing");
	HX_OK(c, hxd_run(c));
	hx_sleep_ms(200);

	snprintf(cmd, sizeof(cmd), "'%s' --server '%s' status", hx_hxctl_path(),
	    hx_server_addr(&srv, 0));
	f = popen(cmd, "r");
	cr_assert_not_null(f);
	out = hx_slurp_fd(fileno(f), NULL);
	cr_expect_eq(pclose(f), 0);
	cr_expect(strstr(out, "lateness     median ") != NULL &&
		strstr(out, " wakeups)") != NULL,
	    "no lateness line in:\n%s", out);
	free(out);

	snprintf(cmd, sizeof(cmd), "'%s' --server '%s' --json status",
	    hx_hxctl_path(), hx_server_addr(&srv, 0));
	f = popen(cmd, "r");
	cr_assert_not_null(f);
	out = hx_slurp_fd(fileno(f), NULL);
	cr_expect_eq(pclose(f), 0);
	cr_expect(strstr(out, "\"pacing\":{\"ticks\":") != NULL &&
		strstr(out, "\"lateness_p50\":") != NULL &&
		strstr(out, "\"lateness_p99\":") != NULL &&
		strstr(out, "\"lateness_max\":") != NULL,
	    "no pacing object in:\n%s", out);
	free(out);

	hxd_close(c);
	hx_server_stop(&srv);
}
