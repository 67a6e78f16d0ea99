/*
 * Integration tests of hxctl (clients/hxctl.c) against a real haptixd on
 * models/test/fixture.xml, over the Unix socket and TCP: batches: step
 * with sensors, run --until, and run on a terminal going in chunks.
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

Test(hxctl, step_with_sensors_runs_a_batch)
{
	char *lines[8];
	struct hx_run r = { 0 };
	const char *a;
	double v[16];
	int n;

	a = start(fixture_args);
	hxctl(&r, a, "step", "50", "--sensors", NULL);
	expect_ok(&r);
	cr_assert(strncmp(r.out, "50 steps, time 0.1\n   0  q1 ", 28) == 0,
	    "%s", r.out);
	cr_assert_not_null(strstr(r.out, "tip_pos  framepos"), "%s", r.out);

	/* The controls are set before the first step: f1 = kp (ctrl - q1). */
	hxctl_json(&r, a, "step", "10", "servo1=0.5", NULL);
	cr_assert_eq(json_num(r.out, "steps"), 10, "%s", r.out);
	cr_assert_float_eq(json_num(r.out, "time"), 60 * FIXTURE_DT, 1e-12);
	cr_assert_eq(json_nums(r.out, "sensordata", v, 16), 11);
	cr_assert_gt(v[3], 1, "%s", r.out);
	cr_assert_float_eq(v[3], 50 * (0.5 - v[0]), 1e-9, "%s", r.out);
	hxctl_json(&r, a, "ctrl", NULL);
	expect_nums(r.out, "ctrl", (const double[]){ 0.5, 0 }, 2);
	hxctl_json(&r, a, "step", "--ctrl", "-0.25,1", NULL);
	cr_assert_eq(json_num(r.out, "steps"), 1, "%s", r.out);
	hxctl_json(&r, a, "ctrl", NULL);
	expect_nums(r.out, "ctrl", (const double[]){ -0.25, 1 }, 2);
	hxctl(&r, a, "step", "5", "--ctrl", "1,2,3", NULL);
	expect_fail(&r, "step", "mjCOM_BADSIZE", "nu = 2");

	/* A trajectory, then the end. */
	hxctl(&r, a, "step", "10", "--record", "qpos,ctrl", "--record-every",
	    "5", NULL);
	expect_ok(&r);
	n = split_lines(r.out, lines, 8);
	cr_assert_eq(n, 3, "%d lines", n);
	expect_json_lines(lines, n);
	cr_assert(strncmp(lines[0], "{\"event\":\"frame\",", 17) == 0);
	cr_assert_eq(json_num(lines[0], "step"), 66, "%s", lines[0]);
	cr_assert_eq(json_num(lines[1], "step"), 71, "%s", lines[1]);
	cr_assert_float_eq(json_num(lines[1], "time"), 71 * FIXTURE_DT, 1e-12);
	cr_assert_eq(json_nums(lines[1], "qpos", v, 16), 9);
	expect_nums(lines[1], "ctrl", (const double[]){ -0.25, 1 }, 2);
	cr_assert(
	    strncmp(lines[2], "{\"event\":\"batch\",\"steps\":10,", 28) == 0,
	    "%s", lines[2]);
	cr_assert_float_eq(json_num(lines[2], "time"), 71 * FIXTURE_DT, 1e-12);

	/* Running: the server says no; plain step still does nothing. */
	hxctl(&r, a, "run", NULL);
	expect_ok(&r);
	hxctl(&r, a, "step", "5", "--sensors", NULL);
	expect_fail(&r, "step", "mjCOM_DENIED", "running");
	hxctl(&r, a, "step", "5", NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strncmp(r.out, "0 steps, time ", 14) == 0, "%s", r.out);
	hx_run_free(&r);
}

Test(hxctl, run_until_stops_at_the_time)
{
	char *lines[8];
	struct hx_run r = { 0 };
	const char *a;
	double v[16];
	int n;

	a = start(fixture_args);
	hxctl(&r, a, "run", "--until", "0.5", NULL);
	expect_ok(&r);
	cr_assert(
	    strncmp(r.out, "250 steps, time 0.5\n", 20) == 0, "%s", r.out);
	cr_assert_not_null(
	    strstr(r.out, "acc      accelerometer"), "%s", r.out);
	cr_assert_float_eq(status_time(a), 0.5, 1e-9);

	hxctl_json(&r, a, "run", "--until", "0.7", "servo2=1", NULL);
	cr_assert_eq(json_num(r.out, "steps"), 100, "%s", r.out);
	cr_assert_float_eq(json_num(r.out, "time"), 0.7, 1e-9, "%s", r.out);
	hxctl_json(&r, a, "ctrl", NULL);
	expect_nums(r.out, "ctrl", (const double[]){ 0, 1 }, 2);
	/* In the past: nothing to do. */
	hxctl_json(&r, a, "run", "--until", "0.2", NULL);
	cr_assert_eq(json_num(r.out, "steps"), 0, "%s", r.out);
	cr_assert_float_eq(json_num(r.out, "time"), 0.7, 1e-9, "%s", r.out);

	hxctl(&r, a, "run", "--until", "1", "--record", "sensordata",
	    "--record-every", "60", NULL);
	expect_ok(&r);
	n = split_lines(r.out, lines, 8);
	cr_assert_eq(n, 3, "%d lines:\n%s", n, r.out);
	expect_json_lines(lines, n);
	cr_assert_float_eq(
	    json_num(lines[0], "time"), 0.82, 1e-9, "%s", lines[0]);
	cr_assert_eq(json_num(lines[0], "step"), 410, "%s", lines[0]);
	cr_assert_eq(json_nums(lines[0], "sensordata", v, 16), 11);
	cr_assert_float_eq(
	    json_num(lines[1], "time"), 0.94, 1e-9, "%s", lines[1]);
	cr_assert_eq(json_num(lines[1], "step"), 470, "%s", lines[1]);
	cr_assert(
	    strncmp(lines[2], "{\"event\":\"batch\",\"steps\":150,", 29) == 0,
	    "%s", lines[2]);
	cr_assert_float_eq(json_num(lines[2], "time"), 1, 1e-9, "%s", lines[2]);
	hx_run_free(&r);
}

/*
 * On a terminal a long run goes in several batch requests, with its
 * progress on stderr, and records the steps one request would.
 */
Test(hxctl, run_on_a_terminal_goes_in_chunks)
{
	static char out[1 << 16];
	const char *argv[] = { hx_hxctl_path(), "--server", NULL, "run",
		"--until", "1000", "--record", "qpos", "--record-every", "9973",
		NULL };
	char line[256];
	const char *p;
	size_t len = 0;
	ssize_t n;
	FILE *log;
	pid_t pid;
	int master, status, frames = 0, chunks = 0;
	double step;

	argv[2] = start(fixture_args);
	pid = forkpty(&master, NULL, NULL, NULL);
	cr_assert_neq(pid, -1, "forkpty: %s", strerror(errno));
	if (pid == 0) {
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	while (len < sizeof(out) - 1 &&
	    ((n = read(master, out + len, sizeof(out) - 1 - len)) > 0 ||
		(n == -1 && errno == EINTR)))
		len += n > 0 ? (size_t)n : 0;
	out[len] = '\0';
	close(master);
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "status %d: %s", status, out);

	cr_assert_not_null(
	    strstr(out, "\rhxctl: run: time "), "no progress line: %s", out);
	for (p = out; (p = strstr(p, "{\"event\":\"frame\"")) != NULL; p++) {
		step = json_num(p, "step");
		cr_assert_eq(
		    step, 9973.0 * ++frames, "frame %d: %s", frames, p);
	}
	cr_assert_eq(frames, 50, "%s", out);
	p = strstr(out, "{\"event\":\"batch\",\"steps\":500000,");
	cr_assert_not_null(p, "%s", out);
	cr_assert_float_eq(json_num(p, "time"), 1000, 1e-6);

	log = fopen(test_server.log, "r");
	cr_assert_not_null(log);
	while (fgets(line, sizeof(line), log) != NULL)
		chunks += strstr(line, " batch run from time ") != NULL;
	fclose(log);
	cr_assert_geq(chunks, 3, "%d batch requests", chunks);
}
