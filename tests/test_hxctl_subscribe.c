/*
 * Integration tests of hxctl (clients/hxctl.c) against a real haptixd on
 * models/test/fixture.xml, over the Unix socket and TCP: subscribe:
 * frames every n steps, events until the server ends, stopping on --for,
 * signals and a closed stdout, --kinds and the pause so named.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pty.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <criterion/criterion.h>

#include "frame.h"
#include "haptix.pb-c.h"
#include "check.h"
#include "harness.h"
#include "haptixd.h"
#include "hxctl_run.h"

TestSuite(hxctl, .timeout = 60, .fini = cleanup);

Test(hxctl, subscribe_prints_a_frame_every_n_steps)
{
	char *out, *lines[8];
	hxd_conn *c;
	const char *a;
	unsigned taken;
	double q[16];
	int fd, n, i;

	a = start(fixture_args);
	c = hx_connect_ok(a, "stepper");
	fd = temp_file();
	watcher = hxctl_spawn_to(fd, -1, a, "subscribe", "qpos,sensordata",
	    "--every", "5", "--count", "3", NULL);
	wait_subscribed(c, 1);
	for (i = 0; i < 2; i++) {
		cr_assert_eq(
		    hxd_step(c, 5, &taken), HXD_OK, "%s", hxd_error(c));
		cr_assert_eq(taken, 5);
	}
	cr_assert_eq(wait_exit(watcher, 10), 0);
	watcher = 0;
	out = hx_slurp_fd(fd, NULL);
	close(fd);
	n = split_lines(out, lines, 8);
	cr_assert_eq(n, 3, "%d lines, not 3", n);
	expect_json_lines(lines, n);
	for (i = 0; i < n; i++) {
		cr_assert(strncmp(lines[i],
			      "{\"event\":\"frame\",\"time\":", 24) == 0,
		    "%s", lines[i]);
		cr_assert_eq(json_num(lines[i], "step"), 5 * i, "%s", lines[i]);
		cr_assert_float_eq(json_num(lines[i], "time"),
		    5 * i * FIXTURE_DT, 1e-12, "%s", lines[i]);
		cr_assert_eq(json_num(lines[i], "subscription"), 1);
		cr_assert_eq(json_num(lines[i], "dropped"), 0);
		cr_assert_eq(json_nums(lines[i], "qpos", q, 16), 9);
		cr_assert_eq(json_nums(lines[i], "sensordata", q, 16), 11);
		cr_assert_null(strstr(lines[i], "\"qvel\""), "%s", lines[i]);
	}
	expect_nums(lines[0], "qpos", fixture_qpos0, 9);
	free(out);
	hxd_close(c);
}

/*
 * c (client you) leaving the daemon at a is an event for hxctl
 * subscribe --events, which closes c; the daemon going away ends it.
 */
static void
expect_leaving_then_the_end(const char *a, hxd_conn *c, unsigned long long you)
{
	char want[256], *out = NULL, *err;
	int fd, fe, i;

	/* Another client leaving is an event; the server going away, the end. */
	cr_assert_eq(hx_wait_clients(c, 1, 5000), 1,
	    "the first hxctl did not leave: its subscription would count");
	fd = temp_file();
	fe = temp_file();
	watcher = hxctl_spawn_to(fd, fe, a, "subscribe", "--events", NULL);
	wait_subscribed(c, 1);
	hxd_close(c);
	for (i = 0; i < 250; i++) {
		out = hx_slurp_fd(fd, NULL);
		if (strstr(out, "\"event\":\"client_left\",") != NULL)
			break;
		free(out);
		out = NULL;
		hx_sleep_ms(20);
	}
	cr_assert_not_null(out, "no client_left event");
	snprintf(want, sizeof(want),
	    "\"event\":\"client_left\",\"time\":0,"
	    "\"id\":%llu,\"name\":\"speaker\",",
	    you);
	cr_assert_not_null(strstr(out, want), "%s", out);
	hx_server_stop(&test_server);
	cr_assert_eq(wait_exit(watcher, 10), 1);
	watcher = 0;
	err = hx_slurp_fd(fe, NULL);
	cr_assert(strncmp(err, "hxctl: subscribe: mjCOM_CANNOTRECV: ", 36) == 0,
	    "%s", err);
	free(out);
	free(err);
	close(fd);
	close(fe);
}

Test(hxctl, subscribe_prints_events_and_ends_with_the_server)
{
	char want[256], *out = NULL, *lines[8];
	unsigned long long you;
	hxd_client *list;
	hxd_conn *c;
	const char *a;
	int fd, n;

	a = start(fixture_args);
	c = hx_connect_ok(a, "speaker");
	cr_assert_eq(hxd_clients(c, &list, &n, &you), HXD_OK);
	free(list);

	/* No fields: events. */
	fd = temp_file();
	watcher = hxctl_spawn_to(fd, -1, a, "subscribe", "--count", "2", NULL);
	wait_subscribed(c, 1);
	cr_assert_eq(hxd_message(c, "hello \"there\""), HXD_OK);
	cr_assert_eq(hxd_reset_name(c, "raised"), HXD_OK, "%s", hxd_error(c));
	cr_assert_eq(wait_exit(watcher, 10), 0);
	watcher = 0;
	out = hx_slurp_fd(fd, NULL);
	close(fd);
	cr_assert_eq(split_lines(out, lines, 8), 2, "%s", out);
	expect_json_lines(lines, 2);
	snprintf(want, sizeof(want),
	    "{\"event\":\"message\",\"time\":0,\"text\":\"hello \\\"there\\\"\","
	    "\"from\":%llu}",
	    you);
	cr_assert_str_eq(lines[0], want);
	cr_assert_str_eq(lines[1],
	    "{\"event\":\"reset\",\"time\":0,\"keyframe\":0,\"name\":\"raised\",\"to_time\":0}");
	free(out);

	expect_leaving_then_the_end(a, c, you);
}

Test(hxctl, subscribe_stops_on_time_signals_and_a_closed_stdout)
{
	char buf[256];
	struct hx_run r = { 0 };
	const char *a;
	int p[2], fd;
	double t0, dt;

	a = start(fixture_args);
	t0 = hx_wall_now();
	hxctl(&r, a, "subscribe", "--events", "--duration", "0.5", NULL);
	dt = hx_wall_now() - t0;
	expect_ok(&r);
	cr_assert_str_empty(r.out);
	cr_assert(dt >= 0.5 && dt < 5, "--duration 0.5 took %g s", dt);

	/* A field without a rate: 30 Hz of wall time. */
	fd = temp_file();
	watcher = hxctl_spawn_to(fd, -1, a, "subscribe", "ctrl", NULL);
	hx_sleep_ms(1000);
	kill(watcher, SIGINT);
	cr_assert_eq(wait_exit(watcher, 5), 0, "SIGINT");
	watcher = 0;
	r.out = hx_slurp_fd(fd, NULL);
	close(fd);
	cr_assert_gt(strlen(r.out), 10 * 60, "few frames in 1 s: %s", r.out);
	cr_assert_not_null(strstr(r.out, "\"ctrl\":[0,0]}\n"), "%s", r.out);
	free(r.out);
	r.out = NULL;

	/* The reader goes: hxctl goes too, quietly. */
	/* Only hxctl may hold the pipe's ends, or it never breaks. */
	cr_assert_eq(pipe2(p, O_CLOEXEC), 0);
	fd = temp_file();
	watcher = hxctl_spawn_to(
	    p[1], fd, a, "subscribe", "qpos", "--wall-hz", "50", NULL);
	close(p[1]);
	cr_assert_gt(read(p[0], buf, sizeof(buf)), 0);
	close(p[0]);
	cr_assert_eq(wait_exit(watcher, 5), 0);
	watcher = 0;
	r.err = hx_slurp_fd(fd, NULL);
	close(fd);
	cr_assert_str_empty(r.err, "stderr: %s", r.err);
	hx_run_free(&r);
}

/*
 * What the three hxctls of subscribe_kinds_and_pauses wrote: every event
 * to fd, --kinds pause,reset to fk, all but joins, leaves and runs to fx.
 */
static void
expect_kinds_written(int fd, int fk, int fx)
{
	char *out, *lines[16];
	int n, i;

	/* Every event: the passer-by joining and leaving, the run so named. */
	out = hx_slurp_fd(fd, NULL);
	n = split_lines(out, lines, 16);
	cr_assert_eq(n, 3, "%s", out);
	cr_expect_not_null(
	    strstr(lines[0], "\"event\":\"client_joined\""), "%s", lines[0]);
	cr_expect_not_null(strstr(lines[0], "passer-by"), "%s", lines[0]);
	/* The leave is told on the loop's next pass: before or after. */
	i = strncmp(lines[1], "{\"event\":\"run\",", 15) == 0 ? 1 : 2;
	cr_expect(strncmp(lines[i], "{\"event\":\"run\",", 15) == 0, "%s", out);
	cr_expect_not_null(strstr(lines[i], "\"paused\":false"), "%s", out);
	free(out);
	/* Only the pause (so named) and the reset. */
	out = hx_slurp_fd(fk, NULL);
	n = split_lines(out, lines, 16);
	cr_assert_eq(n, 2, "%s", out);
	cr_expect(strncmp(lines[0], "{\"event\":\"pause\",",
		      strlen("{\"event\":\"pause\",")) == 0,
	    "%s", lines[0]);
	cr_expect_not_null(strstr(lines[0], "\"paused\":true"), "%s", lines[0]);
	cr_expect(strncmp(lines[1], "{\"event\":\"reset\",",
		      strlen("{\"event\":\"reset\",")) == 0,
	    "%s", lines[1]);
	free(out);
	/* All but joins, leaves and runs: the pause, the reset, the message. */
	out = hx_slurp_fd(fx, NULL);
	n = split_lines(out, lines, 16);
	cr_assert_eq(n, 3, "%s", out);
	cr_expect(strncmp(lines[0], "{\"event\":\"pause\",",
		      strlen("{\"event\":\"pause\",")) == 0,
	    "%s", lines[0]);
	cr_expect(strncmp(lines[2], "{\"event\":\"message\",",
		      strlen("{\"event\":\"message\",")) == 0,
	    "%s", lines[2]);
	free(out);
}

Test(hxctl, subscribe_kinds_and_pauses)
{
	hxd_conn *c;
	const char *a = start(fixture_args);
	int fd, fk, fx;
	pid_t kinds, except;

	c = hx_connect_ok(a, "speaker");
	fd = temp_file();
	fk = temp_file();
	fx = temp_file();
	kinds = hxctl_spawn_to(fk, -1, a, "events", "--kinds", "pause,reset",
	    "--count", "2", NULL);
	except = hxctl_spawn_to(fx, -1, a, "subscribe", "--kinds",
	    "-client_joined,-client_left,-run", "--count", "3", NULL);
	wait_subscribed(c, 2);
	watcher = hxctl_spawn_to(fd, -1, a, "subscribe", "--count", "3", NULL);
	wait_subscribed(c, 3);
	/* A client joining and leaving, a run, a pause, a reset, a message. */
	hxd_close(hx_connect_ok(a, "passer-by"));
	cr_assert_eq(hxd_run(c), HXD_OK, "%s", hxd_error(c));
	cr_assert_eq(hxd_pause(c), HXD_OK, "%s", hxd_error(c));
	cr_assert_eq(hxd_reset(c, -1), HXD_OK, "%s", hxd_error(c));
	cr_assert_eq(hxd_message(c, "done"), HXD_OK, "%s", hxd_error(c));
	cr_assert_eq(wait_exit(watcher, 10), 0);
	watcher = 0;
	cr_expect_eq(wait_exit(kinds, 10), 0);
	cr_expect_eq(wait_exit(except, 10), 0);

	expect_kinds_written(fd, fk, fx);
	close(fd);
	close(fk);
	close(fx);
	hxd_close(c);
}
