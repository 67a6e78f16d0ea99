/*
 * Integration tests of hxctl (clients/hxctl.c): run the real binary
 * against a real haptixd on models/test/fixture.xml and check what it
 * prints, its JSON and its exit status, over the Unix socket and TCP.
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

static void cleanup(void);

TestSuite(hxctl, .timeout = 60, .fini = cleanup);

#define RUN_MAX_ARGS 40

/* The fixture's time step, and its reference qpos (see fixture.xml). */
#define FIXTURE_DT 0.002
static const double fixture_qpos0[9] = { 0, 0, 0.6, 0, 0.1, 1, 0, 0, 0 };
static const char *const fixture_args[] = { "-m", "fixture.xml", "--paused",
	NULL };

/* The daemon a test started, and hxctls it left in the background. */
static struct hx_server test_server;
static pid_t holder, watcher;

/* What one run of hxctl did. */
/* Start haptixd with args; return its Unix socket address. */
static const char *
start(const char *const *args)
{
	hx_server_start(&test_server, args);
	return hx_server_addr(&test_server, 0);
}

/* After every test, even a failed one: stop what it left running. */
static void
cleanup(void)
{
	if (holder > 0) {
		kill(holder, SIGKILL);
		waitpid(holder, NULL, 0);
		holder = 0;
	}
	if (watcher > 0) {
		kill(watcher, SIGKILL);
		waitpid(watcher, NULL, 0);
		watcher = 0;
	}
	hx_server_cleanup();
}

/* Build hxctl's argument vector: [--server S] [--json] args... NULL. */
static void
build_argv(const char **argv, const char *server, int json, va_list ap)
{
	const char *a;
	int n = 0;

	argv[n++] = hx_hxctl_path();
	if (server != NULL) {
		argv[n++] = "--server";
		argv[n++] = server;
	}
	if (json)
		argv[n++] = "--json";
	while ((a = va_arg(ap, const char *)) != NULL) {
		cr_assert_lt(n, RUN_MAX_ARGS - 1, "too many arguments");
		argv[n++] = a;
	}
	argv[n] = NULL;
}

/* Run hxctl to completion, capturing its output and exit status. */
static void
run_va(struct hx_run *r, const char *server, int json, va_list ap)
{
	const char *argv[RUN_MAX_ARGS];

	build_argv(argv, server, json, ap);
	hx_run(r, argv);
}

/* Run hxctl with the arguments that follow server, up to NULL. */
static void
hxctl(struct hx_run *r, const char *server, ...)
{
	va_list ap;

	va_start(ap, server);
	run_va(r, server, 0, ap);
	va_end(ap);
}

/* Skip JSON white space. */
static const char *
js_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

/* Parse a JSON string at p; return its end, or NULL if malformed. */
static const char *
js_string(const char *p)
{
	int i;

	if (*p++ != '"')
		return NULL;
	for (;;) {
		if ((unsigned char)*p < 0x20)
			return NULL;
		if (*p == '"')
			return p + 1;
		if (*p++ != '\\')
			continue;
		if (*p == 'u') {
			for (i = 1; i <= 4; i++) {
				if (strchr("0123456789abcdefABCDEF", p[i]) ==
					NULL ||
				    p[i] == '\0')
					return NULL;
			}
			p += 5;
		} else if (*p != '\0' && strchr("\"\\/bfnrt", *p) != NULL)
			p++;
		else
			return NULL;
	}
}

/* Parse a JSON number at p, by the grammar; return its end or NULL. */
static const char *
js_number(const char *p)
{
	const char *d;

	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9') {
		while (*p >= '0' && *p <= '9')
			p++;
	} else
		return NULL;
	if (*p == '.') {
		d = ++p;
		while (*p >= '0' && *p <= '9')
			p++;
		if (p == d)
			return NULL;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		d = p;
		while (*p >= '0' && *p <= '9')
			p++;
		if (p == d)
			return NULL;
	}
	return p;
}

/* Parse one JSON value at p; return its end, or NULL if malformed. */
static const char *
js_value(const char *p)
{
	int end;

	p = js_ws(p);
	switch (*p) {
	case '{':
	case '[':
		end = *p == '{' ? '}' : ']';
		p = js_ws(p + 1);
		if (*p == end)
			return p + 1;
		for (;;) {
			if (end == '}') {
				if ((p = js_string(js_ws(p))) == NULL)
					return NULL;
				p = js_ws(p);
				if (*p++ != ':')
					return NULL;
			}
			if ((p = js_value(p)) == NULL)
				return NULL;
			p = js_ws(p);
			if (*p == ',') {
				p++;
				continue;
			}
			return *p == end ? p + 1 : NULL;
		}
	case '"':
		return js_string(p);
	case 't':
		return strncmp(p, "true", 4) == 0 ? p + 4 : NULL;
	case 'f':
		return strncmp(p, "false", 5) == 0 ? p + 5 : NULL;
	case 'n':
		return strncmp(p, "null", 4) == 0 ? p + 4 : NULL;
	default:
		return js_number(p);
	}
}

/* Expect exactly one JSON object on one line. */
static void
expect_json_object(const char *s)
{
	const char *end;

	cr_assert_eq(s[0], '{', "not a JSON object: %s", s);
	end = js_value(s);
	cr_assert_not_null(end, "malformed JSON: %s", s);
	cr_assert_str_eq(end, "\n", "more than one object on one line: %s", s);
}

/* Run hxctl --json; expect success and one well-formed JSON object. */
static void
hxctl_json(struct hx_run *r, const char *server, ...)
{
	va_list ap;

	va_start(ap, server);
	run_va(r, server, 1, ap);
	va_end(ap);
	cr_assert_eq(
	    r->status, 0, "hxctl --json failed (%d): %s", r->status, r->err);
	cr_assert_str_empty(r->err, "stderr: %s", r->err);
	expect_json_object(r->out);
}

/* Start hxctl in the background, its stdout and stderr on out and err. */
static pid_t
spawn_va(int out, int err, const char *server, va_list ap)
{
	const char *argv[RUN_MAX_ARGS];
	pid_t pid;
	int fd;

	build_argv(argv, server, 0, ap);
	pid = fork();
	cr_assert_neq(pid, -1, "fork: %s", strerror(errno));
	if (pid == 0) {
		fd = open("/dev/null", O_WRONLY);
		dup2(out >= 0 ? out : fd, 1);
		dup2(err >= 0 ? err : fd, 2);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	return pid;
}

/* Start hxctl in the background, its output thrown away. */
static pid_t
hxctl_spawn(const char *server, ...)
{
	va_list ap;
	pid_t pid;

	va_start(ap, server);
	pid = spawn_va(-1, -1, server, ap);
	va_end(ap);
	return pid;
}

/* Start hxctl in the background, its stdout and stderr on out and err. */
static pid_t
hxctl_spawn_to(int out, int err, const char *server, ...)
{
	va_list ap;
	pid_t pid;

	va_start(ap, server);
	pid = spawn_va(out, err, server, ap);
	va_end(ap);
	return pid;
}

/* A new unlinked temporary file, open for reading and writing. */
static int
temp_file(void)
{
	char path[] = "/tmp/hxctl-bg.XXXXXX";
	int fd = mkstemp(path);

	cr_assert_neq(fd, -1, "mkstemp: %s", strerror(errno));
	unlink(path);
	return fd;
}

/*
 * Wait up to seconds for pid to exit; return its exit status, or 128 +
 * the signal that killed it.  Fails the test if it does not exit.
 */
static int
wait_exit(pid_t pid, double seconds)
{
	int i, status;

	for (i = 0; i < seconds * 100; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) :
						   128 + WTERMSIG(status);
		hx_sleep_ms(10);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	cr_assert_fail("hxctl did not exit within %g s", seconds);
	return -1;
}

/* Wait up to 5 s until the other clients of c have n subscriptions. */
static void
wait_subscribed(hxd_conn *c, int n)
{
	unsigned long long you;
	hxd_client *list;
	int i, k, count, got = 0;

	for (i = 0; i < 250 && got < n; i++) {
		cr_assert_eq(hxd_clients(c, &list, &count, &you), HXD_OK, "%s",
		    hxd_error(c));
		for (got = 0, k = 0; k < count; k++)
			got += list[k].id != you ? list[k].subscriptions : 0;
		free(list);
		if (got < n)
			hx_sleep_ms(20);
	}
	cr_assert_geq(got, n, "hxctl never subscribed");
}

/*
 * Copy the innermost JSON object around the first fragment of json into
 * buf; the objects searched hold no others.
 */
static void
json_object_with(const char *json, const char *fragment, char *buf, size_t len)
{
	const char *p = strstr(json, fragment), *a, *b;

	cr_assert_not_null(p, "no %s in %s", fragment, json);
	for (a = p; a > json && *a != '{'; a--)
		;
	b = strchr(p, '}');
	cr_assert(
	    *a == '{' && b != NULL, "%s is in no object: %s", fragment, json);
	cr_assert_lt((size_t)(b - a + 1), len);
	memcpy(buf, a, (size_t)(b - a + 1));
	buf[b - a + 1] = '\0';
}

/* Split text into its lines (modified in place); returns their number. */
static int
split_lines(char *text, char **lines, int max)
{
	char *p = text, *nl;
	int n = 0;

	while (*p != '\0' && (nl = strchr(p, '\n')) != NULL) {
		cr_assert_lt(n, max, "more than %d lines", max);
		*nl = '\0';
		lines[n++] = p;
		p = nl + 1;
	}
	cr_assert_str_empty(p, "a line without its newline: %s", p);
	return n;
}

/* Expect each of n lines to be one JSON object (as from JSON Lines). */
static void
expect_json_lines(char **lines, int n)
{
	char buf[1 << 14];
	int i;

	for (i = 0; i < n; i++) {
		snprintf(buf, sizeof(buf), "%s\n", lines[i]);
		expect_json_object(buf);
	}
}

/* Expect success, with nothing on standard error. */
static void
expect_ok(const struct hx_run *r)
{
	cr_assert_eq(r->status, 0, "exit status %d (want 0); stderr: %s",
	    r->status, r->err);
	cr_assert_str_empty(r->err, "stderr: %s", r->err);
}

/*
 * Expect exit status 1 with nothing on stdout and one line on stderr,
 * "hxctl: CMD: RESULT: ..." containing text (unless NULL).
 */
static void
expect_fail(const struct hx_run *r, const char *cmd, const char *result,
    const char *text)
{
	char prefix[128];
	size_t n = strlen(r->err);

	snprintf(prefix, sizeof(prefix), "hxctl: %s: %s: ", cmd, result);
	cr_assert_eq(r->status, 1,
	    "exit status %d (want 1); stdout: %s; "
	    "stderr: %s",
	    r->status, r->out, r->err);
	cr_assert_str_empty(r->out, "stdout on failure: %s", r->out);
	cr_assert(strncmp(r->err, prefix, strlen(prefix)) == 0,
	    "stderr \"%s\" does not start with \"%s\"", r->err, prefix);
	cr_assert(n > 0 && strchr(r->err, '\n') == r->err + n - 1,
	    "stderr is not one line: \"%s\"", r->err);
	if (text != NULL)
		cr_assert_not_null(strstr(r->err, text),
		    "stderr \"%s\" does "
		    "not mention \"%s\"",
		    r->err, text);
}

/* Expect a usage error: exit status 2, a hint on stderr, no stdout. */
static void
expect_usage(const struct hx_run *r, const char *what)
{
	cr_assert_eq(r->status, 2, "%s: exit status %d (want 2); stderr: %s",
	    what, r->status, r->err);
	cr_assert_str_empty(r->out, "%s: stdout: %s", what, r->out);
	cr_assert_not_null(strstr(r->err, "hxctl --help"),
	    "%s: no hint in "
	    "stderr: %s",
	    what, r->err);
}

/* The number after "key": in a JSON text; fails the test if absent. */
static double
json_num(const char *json, const char *key)
{
	char pat[128], *end;
	const char *p;
	double v;

	snprintf(pat, sizeof(pat), "\"%s\":", key);
	p = strstr(json, pat);
	cr_assert_not_null(p, "no \"%s\" in %s", key, json);
	p += strlen(pat);
	v = strtod(p, &end);
	cr_assert_neq(end, p, "\"%s\" is not a number in %s", key, json);
	return v;
}

/* The numbers of the array "key": [...] in a JSON text; returns the count. */
static int
json_nums(const char *json, const char *key, double *v, int max)
{
	char pat[128], *end;
	const char *p;
	int n = 0;

	snprintf(pat, sizeof(pat), "\"%s\":[", key);
	p = strstr(json, pat);
	cr_assert_not_null(p, "no array \"%s\" in %s", key, json);
	p += strlen(pat);
	if (*p == ']')
		return 0;
	for (;;) {
		cr_assert_lt(
		    n, max, "\"%s\" has more than %d values", key, max);
		v[n++] = strtod(p, &end);
		cr_assert_neq(end, p, "bad number in \"%s\": %s", key, json);
		p = end;
		if (*p == ']')
			return n;
		cr_assert_eq(*p, ',', "bad array \"%s\": %s", key, json);
		p++;
	}
}

/* Expect the array "key" to hold exactly want[0..n). */
static void
expect_nums(const char *json, const char *key, const double *want, int n)
{
	double v[256];
	int i, got;

	got = json_nums(json, key, v, 256);
	cr_assert_eq(
	    got, n, "\"%s\" has %d values, want %d: %s", key, got, n, json);
	for (i = 0; i < n; i++)
		cr_assert_float_eq(v[i], want[i], 1e-12,
		    "%s[%d] is %.17g, "
		    "want %.17g",
		    key, i, v[i], want[i]);
}

/* The simulation time the server reports. */
static double
status_time(const char *addr)
{
	struct hx_run r = { 0 };
	double t;

	hxctl_json(&r, addr, "status", NULL);
	t = json_num(r.out, "time");
	hx_run_free(&r);
	return t;
}

/* Wait up to 5 s for the status to contain fragment; return 1 if it did. */
static int
status_eventually_has(const char *addr, const char *fragment)
{
	struct hx_run r = { 0 };
	int i, found = 0;

	for (i = 0; i < 100 && !found; i++) {
		hxctl_json(&r, addr, "status", NULL);
		found = strstr(r.out, fragment) != NULL;
		if (!found)
			hx_sleep_ms(50);
	}
	hx_run_free(&r);
	return found;
}

/*-------------------------------------------------------- transports */

HX_TRANSPORT_TEST(
    hxctl, status_readable_and_json, "-m", "fixture.xml", "--paused", NULL)
{
	struct hx_run r = { 0 };

	hxctl(&r, addr, "status", NULL);
	expect_ok(&r);
	cr_assert_not_null(strstr(r.out, "fixture"), "%s", r.out);
	cr_assert_not_null(strstr(r.out, "paused"), "%s", r.out);
	cr_assert_not_null(strstr(r.out, "message      (none)"), "%s", r.out);

	hxctl_json(&r, addr, "status", NULL);
	cr_assert_not_null(strstr(r.out, "\"paused\":true"), "%s", r.out);
	cr_assert_not_null(strstr(r.out, "\"loaded\":true"), "%s", r.out);
	cr_assert_not_null(strstr(r.out, "\"name\":\"fixture\""), "%s", r.out);
	cr_assert_eq(json_num(r.out, "nq"), 9);
	cr_assert_eq(json_num(r.out, "nu"), 2);
	cr_assert_eq(json_num(r.out, "time"), 0);
	cr_assert_eq(json_num(r.out, "steps"), 0);
	cr_assert_eq(json_num(r.out, "clients"), 1, "%s", r.out);
	cr_assert_float_eq(json_num(r.out, "timestep"), FIXTURE_DT, 1e-15);
	cr_assert_not_null(
	    strstr(r.out,
		"\"lagging\":false,\"lease_holder\":0,"
		"\"lease_holder_name\":\"\",\"batch_session\":0,"),
	    "%s", r.out);
	hxctl(&r, addr, "status", NULL);
	cr_assert_not_null(
	    strstr(r.out, "\nlease        free\nbatch        none\n"), "%s",
	    r.out);
	hx_run_free(&r);
}

HX_TRANSPORT_TEST(
    hxctl, info_names_every_object, "-m", "fixture.xml", "--paused", NULL)
{
	static const char *const names[] = {
		"link1",
		"marker",
		"hinge1",
		"terrain",
		"site1",
		"sum",
		"servo2",
		"tip_pos",
		"couple",
		"dropped",
		"green",
	};
	struct hx_run r = { 0 };
	size_t i;

	hxctl(&r, addr, "info", NULL);
	expect_ok(&r);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		cr_assert_not_null(
		    strstr(r.out, names[i]), "no %s in:\n%s", names[i], r.out);
	cr_assert_not_null(strstr(r.out, "nq 9, nv 8"), "%s", r.out);

	hxctl_json(&r, addr, "info", NULL);
	cr_assert_eq(json_num(r.out, "nbody"), 5);
	cr_assert_not_null(strstr(r.out,
			       "{\"name\":\"box\",\"type\":\"free\","
			       "\"body\":3,\"qposadr\":2,\"dofadr\":2,"),
	    "%s", r.out);
	cr_assert_not_null(
	    strstr(r.out,
		"{\"name\":\"tip_pos\",\"type\":"
		"\"framepos\",\"datatype\":\"real\",\"objtype\":\"site\","
		"\"objid\":1,\"dim\":3,\"adr\":4,"),
	    "%s", r.out);
	cr_assert_not_null(strstr(r.out,
			       "\"keyframes\":[{\"name\":\"raised\"},"
			       "{\"name\":\"dropped\"}]"),
	    "%s", r.out);
	hx_run_free(&r);
}

HX_TRANSPORT_TEST(
    hxctl, state_readable_and_json, "-m", "fixture.xml", "--paused", NULL)
{
	struct hx_run r = { 0 };

	hxctl_json(&r, addr, "state", NULL);
	cr_assert_eq(json_num(r.out, "nq"), 9, "%s", r.out);
	cr_assert_eq(json_num(r.out, "nv"), 8, "%s", r.out);
	cr_assert_eq(json_num(r.out, "na"), 0, "%s", r.out);
	expect_nums(r.out, "qpos", fixture_qpos0, 9);
	expect_nums(r.out, "act", NULL, 0);

	hxctl(&r, addr, "state", NULL);
	expect_ok(&r);
	cr_assert(strncmp(r.out, "time 0\nqpos\n", 12) == 0, "%s", r.out);
	cr_assert_not_null(strstr(r.out, "hinge2  hinge"), "%s", r.out);
	cr_assert_not_null(strstr(r.out, "box     free "), "%s", r.out);
	cr_assert_not_null(strstr(r.out, "\nqvel\n"), "%s", r.out);
	hx_run_free(&r);
}

HX_TRANSPORT_TEST(hxctl, step_advances_time_while_paused, "-m", "fixture.xml",
    "--paused", NULL)
{
	struct hx_run r = { 0 };
	double t0, t1;

	t0 = status_time(addr);
	hxctl(&r, addr, "step", "5", NULL);
	expect_ok(&r);
	cr_assert_str_eq(r.out, "5 steps, time 0.01\n");
	t1 = status_time(addr);
	cr_assert_float_eq(t1 - t0, 5 * FIXTURE_DT, 1e-12,
	    "time went from "
	    "%.17g to %.17g",
	    t0, t1);

	hxctl_json(&r, addr, "step", NULL);
	cr_assert_eq(json_num(r.out, "steps"), 1, "%s", r.out);
	cr_assert_float_eq(json_num(r.out, "time"), 6 * FIXTURE_DT, 1e-12);
	cr_assert_not_null(strstr(r.out, "\"paused\":true"), "%s", r.out);
	hxctl_json(&r, addr, "status", NULL);
	cr_assert_eq(json_num(r.out, "steps"), 6, "%s", r.out);
	hx_run_free(&r);
}

HX_TRANSPORT_TEST(hxctl, set_ctrl_then_ctrl_round_trips, "-m", "fixture.xml",
    "--paused", NULL)
{
	static const double both[2] = { 0.25, -0.5 }, named[2] = { 0.25, 1.5 };
	struct hx_run r = { 0 };
	double v[2];

	hxctl(&r, addr, "set-ctrl", "0.25", "-0.5", NULL);
	expect_ok(&r);
	cr_assert_str_empty(r.out, "a setter printed: %s", r.out);
	hxctl_json(&r, addr, "ctrl", NULL);
	expect_nums(r.out, "ctrl", both, 2);

	hxctl(&r, addr, "set-ctrl", "servo2=1.5", NULL);
	expect_ok(&r);
	hxctl_json(&r, addr, "ctrl", NULL);
	expect_nums(r.out, "ctrl", named, 2);

	hxctl(&r, addr, "ctrl", NULL);
	expect_ok(&r);
	cr_assert_not_null(
	    strstr(r.out, "servo1         0.25  [-1, 1]"), "%s", r.out);
	cr_assert_not_null(
	    strstr(r.out, "servo2          1.5  [-2, 2]"), "%s", r.out);

	hxctl_json(&r, addr, "set-ctrl", "0", "0", NULL);
	cr_assert_str_eq(r.out, "{\"ok\":true}\n");

	/* Numbers go both ways without losing a bit. */
	hxctl(&r, addr, "set-ctrl", "0.1", "-0.12345678901234567", NULL);
	expect_ok(&r);
	hxctl_json(&r, addr, "ctrl", NULL);
	cr_assert_eq(json_nums(r.out, "ctrl", v, 2), 2);
	cr_assert(v[0] == 0.1 && v[1] == -0.12345678901234567,
	    "not exact: "
	    "%s",
	    r.out);
	hx_run_free(&r);
}

HX_TRANSPORT_TEST(hxctl, reset_to_keyframes_by_name_and_index, "-m",
    "fixture.xml", "--paused", NULL)
{
	struct hx_run r = { 0 };
	double q[16];

	hxctl(&r, addr, "reset", "raised", NULL);
	expect_ok(&r);
	hxctl_json(&r, addr, "state", NULL);
	cr_assert_eq(json_nums(r.out, "qpos", q, 16), 9);
	cr_assert_float_eq(q[0], 0.5, 1e-15, "%s", r.out);
	cr_assert_float_eq(q[1], -0.5, 1e-15, "%s", r.out);

	hxctl(&r, addr, "reset", "1", NULL);
	expect_ok(&r);
	hxctl_json(&r, addr, "state", NULL);
	json_nums(r.out, "qpos", q, 16);
	cr_assert_float_eq(q[4], 1.0, 1e-15, "keyframe 1 (dropped): %s", r.out);
	cr_assert_float_eq(json_num(r.out, "time"), 1.0, 1e-15, "%s", r.out);

	hxctl(&r, addr, "reset", NULL);
	expect_ok(&r);
	hxctl_json(&r, addr, "state", NULL);
	expect_nums(r.out, "qpos", fixture_qpos0, 9);
	cr_assert_eq(json_num(r.out, "time"), 0, "%s", r.out);
	hx_run_free(&r);
}

HX_TRANSPORT_TEST(hxctl, reset_restores_parameters_unless_kept, "-m",
    "fixture.xml", "--paused", NULL)
{
	static const double changed[8] = { 2, 2, 0, 0, 0, 0, 0, 0 };
	static const double model[8] = { 0.1, 0.1, 0, 0, 0, 0, 0, 0 };
	struct hx_run r = { 0 };

	hxctl(&r, addr, "set", "dof_damping", "2", "2", NULL);
	expect_ok(&r);
	hxctl(&r, addr, "reset", "raised", "--keep-params", NULL);
	expect_ok(&r);
	hxctl_json(&r, addr, "get", "dof_damping", NULL);
	expect_nums(r.out, "values", changed, 8);
	hxctl(&r, addr, "reset", "--keep-params", NULL);
	expect_ok(&r);
	hxctl_json(&r, addr, "get", "dof_damping", NULL);
	expect_nums(r.out, "values", changed, 8);
	hxctl(&r, addr, "reset", NULL);
	expect_ok(&r);
	hxctl_json(&r, addr, "get", "dof_damping", NULL);
	expect_nums(r.out, "values", model, 8);
	hx_run_free(&r);
}

HX_TRANSPORT_TEST(hxctl, names_and_ids, "-m", "fixture.xml", "--paused", NULL)
{
	struct hx_run r = { 0 };

	hxctl(&r, addr, "name2id", "body", "box", NULL);
	expect_ok(&r);
	cr_assert_str_eq(r.out, "3\n");
	hxctl(&r, addr, "name2id", "joint", "hinge2", NULL);
	cr_assert_str_eq(r.out, "1\n");
	hxctl(&r, addr, "id2name", "body", "3", NULL);
	expect_ok(&r);
	cr_assert_str_eq(r.out, "box\n");
	hxctl_json(&r, addr, "name2id", "geom", "terrain", NULL);
	cr_assert_str_eq(r.out,
	    "{\"type\":\"geom\",\"name\":\"terrain\","
	    "\"id\":1}\n");
	hxctl_json(&r, addr, "id2name", "keyframe", "1", NULL);
	cr_assert_str_eq(r.out,
	    "{\"type\":\"key\",\"id\":1,\"name\":"
	    "\"dropped\"}\n");
	/* One joint by name or id, as a table and as JSON. */
	hxctl(&r, addr, "set-joint", "hinge2", "--qpos", "0.25", NULL);
	expect_ok(&r);
	hxctl(&r, addr, "joint", "hinge2", NULL);
	expect_ok(&r);
	cr_expect_not_null(
	    strstr(r.out, "joint        1 hinge2 (hinge)\n"), "%s", r.out);
	cr_expect_not_null(
	    strstr(r.out, "body         2 link2\n"), "%s", r.out);
	cr_expect_not_null(
	    strstr(r.out, "range        not limited\n"), "%s", r.out);
	hxctl_json(&r, addr, "joint", "1", NULL);
	cr_expect_not_null(strstr(r.out,
			       "{\"name\":\"hinge2\",\"id\":1,\"type\":"
			       "\"hinge\",\"body\":\"link2\",\"body_id\":2,"
			       "\"qpos_adr\":1,\"dof_adr\":1,"),
	    "%s", r.out);
	cr_expect_not_null(strstr(r.out, "\"qpos\":[0.25]"), "%s", r.out);
	hxctl(&r, addr, "joint", "nosuch", NULL);
	expect_fail(&r, "joint", "mjCOM_BADINDEX", "nosuch");
	/* The model's MJCF text, to standard output. */
	hxctl(&r, addr, "model", "save", "-", NULL);
	expect_ok(&r);
	cr_expect(
	    strncmp(r.out, "<mujoco model=\"fixture\">", 24) == 0, "%s", r.out);
	cr_expect_not_null(
	    strstr(r.out, "<joint name=\"hinge2\""), "%s", r.out);
	hxctl(&r, addr, "model", "keep", "-", NULL);
	cr_expect_neq(r.status, 0, "model keep: %s", r.err);
	/* Edits, one operation each; a bad one fails, saying which. */
	hxctl(&r, addr, "edit", "add", "body", "extra", "--in", "worldbody",
	    "pos=0 0 2", NULL);
	expect_ok(&r);
	cr_expect_not_null(strstr(r.out, "nbody 6"), "%s", r.out);
	hxctl(&r, addr, "edit", "add", "geom", "--in", "body:extra", "size=0.1",
	    NULL);
	expect_ok(&r);
	hxctl(&r, addr, "edit", "remove", "body", "extra", NULL);
	expect_ok(&r);
	cr_expect_not_null(strstr(r.out, "removed\nbody extra\n"), "%s", r.out);
	hxctl(&r, addr, "edit", "set", "geom", "nosuch", "size=1", NULL);
	expect_fail(&r, "edit", "mjCOM_BADVALUE", "operation 1");
	/* A default class's settings: the top class's joints damped. */
	hxctl(&r, addr, "edit", "set", "joint", "--class", "main",
	    "damping=0.25", NULL);
	expect_ok(&r);
	hxctl(&r, addr, "model", "save", "-", NULL);
	cr_expect_not_null(
	    strstr(r.out, "<joint damping=\"0.25\""), "%s", r.out);
	hxctl(&r, addr, "edit", "remove", "joint", "--class", "main", NULL);
	expect_usage(&r, "--class goes with set and unset");
	hx_run_free(&r);
}

HX_TRANSPORT_TEST(
    hxctl, errors_exit_1_with_the_reason, "-m", "fixture.xml", "--paused", NULL)
{
	struct hx_run r = { 0 };

	hxctl(&r, addr, "body", "99", NULL);
	expect_fail(&r, "body", "mjCOM_BADINDEX", "99");
	hxctl(&r, addr, "body", "nosuch", NULL);
	expect_fail(&r, "body", "mjCOM_BADINDEX", "\"nosuch\"");
	hxctl(&r, addr, "--json", "name2id", "body", "nosuch", NULL);
	expect_fail(&r, "name2id", "mjCOM_BADINDEX",
	    "no body named "
	    "\"nosuch\"");
	hxctl(&r, addr, "set-ctrl", "1", "2", "3", NULL);
	expect_fail(&r, "set-ctrl", "mjCOM_BADSIZE", "nu = 2");
	hxctl(&r, addr, "set-ctrl", "1", NULL);
	expect_fail(&r, "set-ctrl", "mjCOM_BADSIZE", "nu = 2");
	hxctl(&r, addr, "set-ctrl", "nosuch=1", NULL);
	expect_fail(&r, "set-ctrl", "mjCOM_BADINDEX", "nosuch");
	hxctl(&r, addr, "reset", "nokey", NULL);
	expect_fail(&r, "reset", "mjCOM_BADINDEX", "nokey");
	hxctl(&r, addr, "reset", "7", NULL);
	expect_fail(&r, "reset", "mjCOM_BADINDEX", "7");
	hxctl(&r, addr, "speed", "0", NULL);
	expect_fail(&r, "speed", "mjCOM_BADVALUE", NULL);
	hx_run_free(&r);
}

/*------------------------------------------------------------- usage */

Test(hxctl, no_server_exits_1)
{
	struct hx_run r = { 0 };

	hxctl(&r, "unix:/nonexistent/hxctl-test.sock", "status", NULL);
	expect_fail(
	    &r, "status", "mjCOM_NOCONNECTION", "/nonexistent/hxctl-test.sock");
	hxctl(&r, "unix:/nonexistent/hxctl-test.sock", "--json", "state", NULL);
	expect_fail(&r, "state", "mjCOM_NOCONNECTION", NULL);
	hxctl(&r, "127.0.0.1:1", "status", NULL);
	expect_fail(&r, "status", "mjCOM_NOCONNECTION", "127.0.0.1");
	hxctl(&r, "host:", "status", NULL);
	expect_fail(&r, "status", "mjCOM_NOCONNECTION", "bad server address");
	hx_run_free(&r);
}

Test(hxctl, usage_errors_exit_2_before_connecting)
{
	/* With no server there, exit status 2 proves nothing was sent. */
	static const char *const cases[][8] = {
		{ NULL },
		{ "bogus", NULL },
		{ "--bogus", "status", NULL },
		{ "--timeout", "soon", "status", NULL },
		{ "status", "extra", NULL },
		{ "state", "--json", NULL },
		{ "step", "abc", NULL },
		{ "step", "0", NULL },
		{ "step", "1", "2", NULL },
		{ "body", NULL },
		{ "set-ctrl", NULL },
		{ "set-ctrl", "1", "x", NULL },
		{ "set-ctrl", "1", "servo1=2", NULL },
		{ "set-ctrl", "nan", "1", NULL },
		{ "set-ctrl", "1e999", "1", NULL },
		{ "set-ctrl", "servo1=1x", NULL },
		{ "update", "0.5", "inf", NULL },
		{ "set-state", "--qpos", "1,,2", NULL },
		{ "set-state", "--qpos", NULL },
		{ "set-state", "hinge1", NULL },
		{ "set-state", "--qpos", "1", "--qpos", "2", NULL },
		{ "set-body", "box", NULL },
		{ "set-body", "box", "--pos", "1,2", NULL },
		{ "set-body", "box", "--quat", "1,0,0", NULL },
		{ "set-body", "--pos", "1,2,3", NULL },
		{ "set-body", "box", "--spin", "1,2,3", NULL },
		{ "set-mocap", "marker", NULL },
		{ "set-applied", "box=1,2,3", NULL },
		{ "set-applied", "--clear=yes", NULL },
		{ "rgba", "thing", "1", NULL },
		{ "rgba", "geom", "1", "0.5", NULL },
		{ "rgba", "geom", "1", "1", "0", "0", "x", NULL },
		{ "geomsize", "box", "1", "nan", "1", NULL },
		{ "equality", "couple", "maybe", NULL },
		{ "id2name", "body", "box", NULL },
		{ "name2id", "widget", "box", NULL },
		{ "speed", "fast", NULL },
		{ "message", "--hold", "-1", "hi", NULL },
		{ "load", NULL },
		{ "load", "--format", "urdf", "x.xml", NULL },
		{ "load", "--inline", "--format", "obj", "x.obj", NULL },
		{ "help", "bogus", NULL },
		{ "robot", "extra", NULL },
		{ "hx-update", "0.5", "1", NULL },
		{ "hx-update", "--ref-pos", NULL },
		{ "hx-update", "--ref-pos", "1,,2", NULL },
		{ "hx-update", "--gain-vel", "servo1=1", NULL },
		{ "hx-update", "--ref-vel", "1", "--ref-vel", "2", NULL },
		{ "hx-update", "--no-wait=yes", NULL },
		{ "hx-update", "--ref-acc", "1", NULL },
		{ "clients", "extra", NULL },
		{ "lease", "grab", NULL },
		{ "lease", "take", NULL },
		{ "lease", "--hold", "5", NULL },
		{ "lease", "take", "--hold", "-1", NULL },
		{ "lease", "take", "release", NULL },
		{ "subscribe", "bogus", NULL },
		{ "subscribe", "qpos,", NULL },
		{ "subscribe", "--every", "5", NULL },
		{ "subscribe", "qpos", "--every", "5", "--wall-hz", "3", NULL },
		{ "subscribe", "qpos", "--every", "0", NULL },
		{ "subscribe", "qpos", "--sim-hz", "-1", NULL },
		{ "subscribe", "qpos", "--wall-hz", "nan", NULL },
		{ "subscribe", "--count", "0", NULL },
		{ "subscribe", "--duration", "0", NULL },
		{ "subscribe", "--events=yes", NULL },
		{ "step", "5", "--record", "nosuch", NULL },
		{ "step", "5", "--record-every", "2", NULL },
		{ "step", "5", "--record", "qpos", "--record-every", "0",
		    NULL },
		{ "step", "5", "--ctrl", "1,,2", NULL },
		{ "step", "5", "servo1=x", NULL },
		{ "step", "5", "--until", "1", NULL },
		{ "run", "--until", "x", NULL },
		{ "run", "--until", "-1", NULL },
		{ "run", "--until", "0", NULL },
		{ "run", "--ctrl", "1,2", NULL },
		{ "run", "5", NULL },
		{ "run", "--until", "1", "--sensors", NULL },
		{ "reset", "1", "2", NULL },
		{ "reset", "--keep", NULL },
		{ "capture", NULL },
		{ "capture", "", NULL },
		{ "capture", "a", "b", NULL },
		{ "set-joint", "hinge1", NULL },
		{ "set-joint", "--qpos", "1", NULL },
		{ "set-joint", "hinge1", "--qpos", "a", NULL },
		{ "set-joint", "box", "--qpos", "1,2,3,4,5,6,7,8", NULL },
		{ "arrays", "x", NULL },
		{ "get", NULL },
		{ "get", "qpos", "qvel", NULL },
		{ "set", "qpos", NULL },
		{ "set", "qpos", "x", NULL },
		{ "set", "qpos", "nan", NULL },
		{ "set", "qpos", "--offset", "-1", "1", NULL },
		{ "set", "qpos", "--offset", "1", NULL },
	};
	const char *argv[RUN_MAX_ARGS];
	struct hx_run r = { 0 };
	char what[256];
	size_t i, n;
	int k;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(argv, 0, sizeof(argv));
		n = 0;
		what[0] = '\0';
		for (k = 0; cases[i][k] != NULL; k++) {
			argv[k] = cases[i][k];
			n += (size_t)snprintf(
			    what + n, sizeof(what) - n, "%s ", cases[i][k]);
		}
		argv[k] = NULL;
		hxctl(&r, "unix:/nonexistent/hxctl-test.sock", argv[0], argv[1],
		    argv[2], argv[3], argv[4], argv[5], argv[6], argv[7], NULL);
		expect_usage(&r, what);
	}
	hx_run_free(&r);
}

Test(hxctl, help_tells_of_every_command)
{
	static const char *const commands[] = {
		"info",
		"status",
		"state",
		"ctrl",
		"applied",
		"body",
		"mocap",
		"dynamics",
		"sensor",
		"bodies",
		"geoms",
		"sites",
		"tendons",
		"actuators",
		"forces",
		"contacts",
		"rgba",
		"name2id",
		"id2name",
		"set-state",
		"set-ctrl",
		"set-applied",
		"set-body",
		"set-mocap",
		"geomsize",
		"equality",
		"message",
		"step",
		"update",
		"reset",
		"pause",
		"run",
		"speed",
		"load",
		"robot",
		"hx-update",
		"reload",
		"help",
		"set-joint",
		"capture",
		"clients",
		"lease",
		"subscribe",
		"events",
		"arrays",
		"get",
		"set",
	};
	struct hx_run r = { 0 };
	char pat[64];
	size_t i;

	hxctl(&r, NULL, "--help", NULL);
	expect_ok(&r);
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		snprintf(pat, sizeof(pat), "\n  %s ", commands[i]);
		cr_assert_not_null(strstr(r.out, pat),
		    "--help does not list "
		    "%s",
		    commands[i]);
	}
	cr_assert_not_null(strstr(r.out, "\nSimple API:\n"), "%s", r.out);
	cr_assert_not_null(strstr(r.out, "HAPTIX_SERVER"));
	cr_assert_not_null(strstr(r.out, "[V6ADDR]:PORT"));
	hxctl(&r, NULL, "-h", NULL);
	expect_ok(&r);
	cr_assert(strncmp(r.out, "usage: hxctl ", 13) == 0, "%s", r.out);
	hxctl(&r, NULL, "help", "step", NULL);
	expect_ok(&r);
	cr_assert(strncmp(r.out, "usage: hxctl [options] step [N] [--sensors]",
		      43) == 0,
	    "%s", r.out);
	cr_assert_not_null(
	    strstr(r.out, "while running, do nothing"), "%s", r.out);
	cr_assert_not_null(strstr(r.out, "chunks"), "%s", r.out);
	hxctl(&r, NULL, "help", "subscribe", NULL);
	expect_ok(&r);
	cr_assert_not_null(strstr(r.out, "--wall-hz 30"), "%s", r.out);
	hxctl(&r, NULL, "help", "lease", NULL);
	expect_ok(&r);
	cr_assert_not_null(strstr(r.out, "--hold"), "%s", r.out);
	hxctl(&r, NULL, "--version", NULL);
	expect_ok(&r);
	cr_assert_str_eq(r.out, "hxctl (haptixd) " PACKAGE_VERSION "\n");
	hx_run_free(&r);
}

/*---------------------------------------------------------- commands */

/*
 * The words and the behaviour agree: a command that only sets something
 * prints nothing; those whose answer says more print it, and the help
 * names each of them.  The help said that every command changing
 * something printed nothing, while hold and edit printed tables.
 */
static void
expect_quiet(struct hx_run *r, const char *what)
{
	cr_expect_eq(r->status, 0, "%s: %d %s", what, r->status, r->err);
	cr_expect_str_empty(r->out, "%s printed: %s", what, r->out);
}

static void
expect_says(struct hx_run *r, const char *what)
{
	cr_expect_eq(r->status, 0, "%s: %d %s", what, r->status, r->err);
	cr_expect_str_not_empty(r->out, "%s printed nothing", what);
}

Test(hxctl, what_prints_and_what_does_not)
{
	static const char *const scene[] = { "-m", "mpl_scene.xml", "--paused",
		NULL };
	static const char *const talkers[] = { "step", "run --until", "hold",
		"edit", "load", "reload", "record", "world-force", "camera",
		"collide-mode" };
	struct hx_run r = { 0 };
	const char *a = start(scene), *said, *end;
	size_t i;

	hxctl(&r, a, "set-ctrl", "A_index_MCP=1", NULL);
	expect_quiet(&r, "set-ctrl");
	hxctl(&r, a, "speed", "2", NULL);
	expect_quiet(&r, "speed");
	hxctl(&r, a, "message", "hi", NULL);
	expect_quiet(&r, "message");
	hxctl(&r, a, "capture", "k", NULL);
	expect_quiet(&r, "capture");
	hxctl(&r, a, "reset", NULL);
	expect_quiet(&r, "reset");
	hxctl(&r, a, "set-mocap", "mocap", "--pos", "0,0,1", NULL);
	expect_quiet(&r, "set-mocap");
	hxctl(&r, a, "step", "3", NULL);
	expect_says(&r, "step");
	hxctl(&r, a, "hold", "index_MCP", "0.5", "--for", "0.1", NULL);
	expect_says(&r, "hold");
	hxctl(&r, a, "edit", "add", "site", "s1", "--in", "worldbody", NULL);
	expect_says(&r, "edit");
	hxctl(&r, a, "collide-mode", "cube", "none", NULL);
	expect_says(&r, "collide-mode");
	hxctl(&r, NULL, "--help", NULL);
	said = strstr(r.out, "print nothing");
	cr_assert_not_null(said, "%s", r.out);
	end = strstr(said, "\nExit status");
	cr_assert_not_null(end);
	for (i = 0; i < sizeof(talkers) / sizeof(talkers[0]); i++)
		cr_expect(memmem(said, (size_t)(end - said), talkers[i],
			      strlen(talkers[i])) != NULL,
		    "the help does not say that %s prints: %.*s", talkers[i],
		    (int)(end - said), said);
	hx_run_free(&r);
	hx_server_stop(&test_server);
}

Test(hxctl, default_server_comes_from_the_environment)
{
	struct hx_run r = { 0 };

	setenv("HAPTIX_SERVER", start(fixture_args), 1);
	hxctl(&r, NULL, "status", NULL);
	expect_ok(&r);
	cr_assert_not_null(strstr(r.out, "fixture"), "%s", r.out);
	setenv("HAPTIX_SERVER", hx_server_addr(&test_server, 1), 1);
	hxctl(&r, NULL, "--timeout", "5000", "name2id", "body", "box", NULL);
	expect_ok(&r);
	cr_assert_str_eq(r.out, "3\n");
	unsetenv("HAPTIX_SERVER");
	hx_run_free(&r);
}

Test(hxctl, every_reading_command_prints_one_json_object)
{
	struct hx_run r = { 0 };
	const char *a;
	double ncon;

	a = start(fixture_args);
	hxctl_json(&r, a, "status", NULL);
	ncon = json_num(r.out, "ncon");
	hxctl_json(&r, a, "applied", NULL);
	cr_assert_eq(json_num(r.out, "nbody"), 5);
	hxctl_json(&r, a, "body", "box", NULL);
	cr_assert_not_null(strstr(r.out, "\"is_floating\":true"), "%s", r.out);
	expect_nums(r.out, "pos", (const double[]){ 0.6, 0, 0.1 }, 3);
	hxctl_json(&r, a, "mocap", NULL);
	expect_nums(r.out, "pos", (const double[]){ 0, 1, 1 }, 3);
	hxctl_json(&r, a, "dynamics", NULL);
	cr_assert_eq(json_num(r.out, "nv"), 8);
	hxctl_json(&r, a, "sensor", NULL);
	cr_assert_eq(json_num(r.out, "nsensordata"), 11);
	hxctl_json(&r, a, "bodies", NULL);
	cr_assert_eq(json_num(r.out, "count"), 5);
	hxctl_json(&r, a, "geoms", NULL);
	cr_assert_eq(json_num(r.out, "count"), 7);
	hxctl_json(&r, a, "sites", NULL);
	cr_assert_eq(json_num(r.out, "count"), 2);
	hxctl_json(&r, a, "tendons", NULL);
	cr_assert_eq(json_num(r.out, "ntendon"), 1);
	hxctl_json(&r, a, "actuators", NULL);
	cr_assert_eq(json_num(r.out, "nu"), 2);
	hxctl_json(&r, a, "forces", NULL);
	cr_assert_eq(json_num(r.out, "nv"), 8);
	hxctl_json(&r, a, "contacts", NULL);
	cr_assert_eq(json_num(r.out, "ncon"), ncon);
	hxctl_json(&r, a, "robot", NULL);
	cr_assert_eq(json_num(r.out, "motor_count"), 2);
	hxctl_json(&r, a, "hx-update", NULL);
	cr_assert_eq(json_num(r.out, "imu_count"), 1);
	hxctl_json(&r, a, "rgba", "site", "site1", NULL);
	expect_nums(r.out, "rgba", (const double[]){ 0, 0, 1, 1 }, 4);
	hx_run_free(&r);
}

Test(hxctl, tables_are_labelled_with_names)
{
	static const char *const cases[][3] = {
		{ "sensor", "tip_pos  framepos", "accelerometer" },
		{ "tendons", "sum", "velocity" },
		{ "actuators", "servo2", "force" },
		{ "forces", "box[5]", "nonconstraint" },
		{ "geoms", "terrain", "mat (row-major)" },
		{ "sites", "tip", "site1" },
		{ "bodies", "marker", "link2" },
		{ "mocap", "marker", "quat" },
		{ "applied", "xfrc_applied", "link1" },
		{ "dynamics", "qacc", "hinge1" },
		{ "contacts", "floor", "box" },
		{ "robot", "servo2", "q2" },
		{ "hx-update", "servo1", "acc" },
		{ "body", "floating", "contactforce" },
	};
	struct hx_run r = { 0 };
	const char *a;
	size_t i;

	a = start(fixture_args);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (strcmp(cases[i][0], "body") == 0)
			hxctl(&r, a, "body", "3", NULL);
		else
			hxctl(&r, a, cases[i][0], NULL);
		expect_ok(&r);
		cr_assert_not_null(strstr(r.out, cases[i][1]),
		    "%s: no %s in:\n"
		    "%s",
		    cases[i][0], cases[i][1], r.out);
		cr_assert_not_null(strstr(r.out, cases[i][2]),
		    "%s: no %s in:\n"
		    "%s",
		    cases[i][0], cases[i][2], r.out);
	}
	hx_run_free(&r);
}

Test(hxctl, set_state_keeps_what_is_not_given)
{
	static const double qvel[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct hx_run r = { 0 };
	double q[9];
	const char *a;

	a = start(fixture_args);
	memcpy(q, fixture_qpos0, sizeof(q));
	q[0] = 0.3;
	hxctl(&r, a, "set-state", "hinge1=0.3", NULL);
	expect_ok(&r);
	hxctl_json(&r, a, "state", NULL);
	expect_nums(r.out, "qpos", q, 9);

	hxctl(&r, a, "set-state", "--qvel", "1,2,3,4,5,6,7,8", NULL);
	expect_ok(&r);
	hxctl_json(&r, a, "state", NULL);
	expect_nums(r.out, "qpos", q, 9);
	expect_nums(r.out, "qvel", qvel, 8);

	q[2] = -1;
	q[3] = 2.5;
	q[4] = 0.25;
	hxctl(&r, a, "set-state", "--qpos=0,0,0,0,0,1,0,0,0", "hinge1=0.3",
	    "box=-1,2.5,0.25,1,0,0,0", NULL);
	expect_ok(&r);
	hxctl_json(&r, a, "state", NULL);
	expect_nums(r.out, "qpos", q, 9);

	hxctl(&r, a, "set-state", "box=1,2,3", NULL);
	expect_fail(&r, "set-state", "mjCOM_BADSIZE", "7");
	hxctl(&r, a, "set-state", "--qpos", "1,2", NULL);
	expect_fail(&r, "set-state", "mjCOM_BADSIZE", "nq = 9");
	hxctl(&r, a, "set-state", "nosuch=1", NULL);
	expect_fail(&r, "set-state", "mjCOM_BADINDEX", "nosuch");
	hx_run_free(&r);
}

Test(hxctl, set_body_mocap_and_applied)
{
	double x[30];
	struct hx_run r = { 0 };
	const char *a;
	int i;

	a = start(fixture_args);
	hxctl(
	    &r, a, "set-body", "box", "--pos", "1,2,3", "--linvel=0,0,1", NULL);
	expect_ok(&r);
	hxctl_json(&r, a, "body", "box", NULL);
	expect_nums(r.out, "pos", (const double[]){ 1, 2, 3 }, 3);
	expect_nums(r.out, "linvel", (const double[]){ 0, 0, 1 }, 3);

	hxctl(&r, a, "set-body", "1", "--force", "1,2,3", "--torque", "0,0,-1",
	    NULL);
	expect_ok(&r);
	hxctl_json(&r, a, "body", "link1", NULL);
	cr_assert_not_null(strstr(r.out, "\"is_floating\":false"), "%s", r.out);
	expect_nums(r.out, "force", (const double[]){ 1, 2, 3 }, 3);
	expect_nums(r.out, "torque", (const double[]){ 0, 0, -1 }, 3);
	hxctl(&r, a, "set-body", "link1", "--pos", "5,5,5", NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_not_null(
	    strstr(r.err, "not floating"), "no warning: %s", r.err);

	hxctl(&r, a, "set-mocap", "marker", "--pos", "0,2,1", NULL);
	expect_ok(&r);
	hxctl_json(&r, a, "mocap", NULL);
	expect_nums(r.out, "pos", (const double[]){ 0, 2, 1 }, 3);
	expect_nums(r.out, "quat", (const double[]){ 1, 0, 0, 0 }, 4);
	hxctl(&r, a, "set-mocap", "box", "--pos", "0,2,1", NULL);
	expect_fail(&r, "set-mocap", "mjCOM_BADINDEX", "not a mocap body");

	hxctl(&r, a, "set-applied", "--clear", "box=1,2,3,4,5,6", "--qfrc",
	    "7,0,0,0,0,0,0,0", NULL);
	expect_ok(&r);
	hxctl_json(&r, a, "applied", NULL);
	cr_assert_eq(json_nums(r.out, "xfrc_applied", x, 30), 30);
	for (i = 0; i < 30; i++)
		cr_assert_eq(x[i], i >= 18 && i < 24 ? i - 17 : 0,
		    "xfrc_applied[%d] is %g", i, x[i]);
	cr_assert_eq(json_nums(r.out, "qfrc_applied", x, 30), 8);
	cr_assert_eq(x[0], 7);
	hxctl(&r, a, "set-applied", "--clear", NULL);
	expect_ok(&r);
	hxctl_json(&r, a, "applied", NULL);
	json_nums(r.out, "xfrc_applied", x, 30);
	for (i = 0; i < 30; i++)
		cr_assert_eq(x[i], 0, "xfrc_applied[%d] is %g", i, x[i]);
	hxctl(&r, a, "set-applied", "--xfrc", "1,2", NULL);
	expect_fail(&r, "set-applied", "mjCOM_BADSIZE", "nbody");
	hx_run_free(&r);
}

/* The World API's calls: world-force, camera and collide-mode. */
Test(hxctl, world_forces_camera_and_collide_modes)
{
	struct hx_run r = { 0 };
	const char *a;

	a = start(fixture_args);
	hxctl(&r, a, "world-force", NULL);
	expect_ok(&r);
	cr_assert_str_eq(r.out, "gravity off: none\nwrenches: 0\n");
	hxctl(&r, a, "world-force", "box", "--gravity", "off", "--force",
	    "0,0,1", "--duration", "0.5", NULL);
	expect_ok(&r);
	cr_assert_str_eq(r.out, "gravity off: box\nwrenches: 1\n");
	hxctl_json(&r, a, "world-force", "--clear", NULL);
	cr_assert_not_null(strstr(r.out, "\"name\":\"box\""), "%s", r.out);
	cr_assert_not_null(strstr(r.out, "\"wrenches\":0"), "%s", r.out);
	hxctl(&r, a, "world-force", "box", "--gravity", "on", NULL);
	cr_assert_str_eq(r.out, "gravity off: none\nwrenches: 0\n");
	hxctl(&r, a, "world-force", "box", NULL);
	expect_usage(&r, "nothing to apply");
	hxctl(&r, a, "world-force", "box", "--gravity", "maybe", NULL);
	expect_usage(&r, "on or off");
	hxctl(&r, a, "world-force", "0", "--gravity", "off", NULL);
	expect_fail(&r, "world-force", "mjCOM_BADINDEX", "world body");
	hxctl(&r, a, "world-force", "nobody", "--gravity", "off", NULL);
	expect_fail(&r, "world-force", "mjCOM_BADINDEX", "nobody");

	hxctl_json(&r, a, "camera", NULL);
	cr_assert_not_null(strstr(r.out, "\"default\":true"), "%s", r.out);
	hxctl(&r, a, "camera", "--pos", "1,2,3", "--quat", "0,0,0,2", NULL);
	expect_ok(&r);
	cr_assert_str_eq(r.out, "pos 1 2 3\nquat 0 0 0 1\nset by a client\n");
	hxctl_json(&r, a, "camera", NULL);
	expect_nums(r.out, "pos", (const double[]){ 1, 2, 3 }, 3);
	cr_assert_not_null(strstr(r.out, "\"default\":false"), "%s", r.out);
	hxctl(&r, a, "camera", "--pos", "1,2,3", NULL);
	expect_usage(&r, "both");
	hxctl(&r, a, "camera", "--pos", "1,2,3", "--quat", "0,0,0,0", NULL);
	expect_fail(&r, "camera", "mjCOM_BADVALUE", NULL);

	hxctl(&r, a, "collide-mode", "box", NULL);
	expect_ok(&r);
	cr_assert_str_eq(r.out, "collide\n");
	hxctl(&r, a, "collide-mode", "box", "detect", NULL);
	cr_assert_str_eq(r.out, "detect\n");
	hxctl_json(&r, a, "collide-mode", "box", "none", NULL);
	cr_assert_not_null(strstr(r.out, "\"mode\":\"none\""), "%s", r.out);
	hxctl(&r, a, "collide-mode", "box", "sometimes", NULL);
	expect_usage(&r, "none, detect or collide");
	hxctl(&r, a, "collide-mode", "0", NULL);
	expect_fail(&r, "collide-mode", "mjCOM_BADINDEX", NULL);
	hx_run_free(&r);
}

Test(hxctl, colours_sizes_and_equalities)
{
	struct hx_run r = { 0 };
	const char *a;

	a = start(fixture_args);
	hxctl(&r, a, "rgba", "geom", "box", NULL);
	expect_ok(&r);
	cr_assert_str_eq(r.out, "0.2 0.5 0.9 1\n");
	hxctl(&r, a, "rgba", "geom", "box", "1", "0", "0", "0.5", NULL);
	expect_ok(&r);
	cr_assert_str_empty(r.out);
	hxctl(&r, a, "rgba", "geom", "5", NULL);
	cr_assert_str_eq(r.out, "1 0 0 0.5\n");
	hxctl(&r, a, "rgba", "material", "green", "2", "-1", "0", "1", NULL);
	expect_ok(&r);
	hxctl_json(&r, a, "rgba", "material", "green", NULL);
	expect_nums(r.out, "rgba", (const double[]){ 1, 0, 0, 1 }, 4);
	hxctl(&r, a, "rgba", "body", "1", NULL);
	expect_fail(&r, "rgba", "mjCOM_BADTYPE", NULL);
	hxctl(&r, a, "rgba", "geom", "99", NULL);
	expect_fail(&r, "rgba", "mjCOM_BADINDEX", NULL);

	hxctl(&r, a, "geomsize", "box", "0.2", "0.2", "0.2", NULL);
	expect_ok(&r);
	hxctl(&r, a, "geomsize", "tetra", "1", "1", "1", NULL);
	expect_fail(&r, "geomsize", "mjCOM_BADTYPE", "mesh");
	hxctl(&r, a, "geomsize", "box", "0", "1", "1", NULL);
	expect_fail(&r, "geomsize", "mjCOM_BADVALUE", NULL);

	hxctl(&r, a, "equality", "couple", "on", NULL);
	expect_ok(&r);
	hxctl(&r, a, "equality", "0", "off", NULL);
	expect_ok(&r);
	hxctl(&r, a, "equality", "5", "on", NULL);
	expect_fail(&r, "equality", "mjCOM_BADINDEX", NULL);
	hx_run_free(&r);
}

Test(hxctl, update_sets_controls_then_steps)
{
	struct hx_run r = { 0 };
	double v[16];
	const char *a;

	a = start(fixture_args);
	hxctl_json(&r, a, "update", "0.1", "0.2", NULL);
	cr_assert_float_eq(json_num(r.out, "time"), FIXTURE_DT, 1e-15);
	cr_assert_eq(json_nums(r.out, "sensordata", v, 16), 11);
	/* f1 = kp (ctrl - q) = 50 (0.1 - 0) */
	cr_assert_float_eq(v[3], 5, 1e-9, "actuator force %g", v[3]);
	hxctl_json(&r, a, "ctrl", NULL);
	expect_nums(r.out, "ctrl", (const double[]){ 0.1, 0.2 }, 2);
	hxctl(&r, a, "update", "servo1=-0.1", NULL);
	expect_ok(&r);
	cr_assert(strncmp(r.out, "time 0.004\n", 11) == 0, "%s", r.out);
	cr_assert_not_null(strstr(r.out, "tip_pos"), "%s", r.out);
	hxctl_json(&r, a, "ctrl", NULL);
	expect_nums(r.out, "ctrl", (const double[]){ -0.1, 0.2 }, 2);
	hxctl_json(&r, a, "update", NULL);
	cr_assert_float_eq(json_num(r.out, "time"), 3 * FIXTURE_DT, 1e-15);
	hx_run_free(&r);
}

Test(hxctl, robot_is_the_model_as_the_simple_api_sees_it)
{
	struct hx_run r = { 0 };
	const char *a;

	a = start(fixture_args);
	hxctl_json(&r, a, "robot", NULL);
	cr_assert_eq(json_num(r.out, "motor_count"), 2, "%s", r.out);
	cr_assert_eq(json_num(r.out, "joint_count"), 2, "%s", r.out);
	cr_assert_eq(json_num(r.out, "contact_sensor_count"), 0, "%s", r.out);
	cr_assert_eq(json_num(r.out, "imu_count"), 1, "%s", r.out);
	cr_assert_eq(json_num(r.out, "update_rate"), 50, "%s", r.out);
	cr_assert_not_null(
	    strstr(r.out, "\"servo\":\"position\""), "%s", r.out);
	expect_nums(r.out, "motor_limit", (const double[]){ -1, 1, -2, 2 }, 4);
	/* hinge2, which q2 senses, is not limited: 0 and 0. */
	expect_nums(
	    r.out, "joint_limit", (const double[]){ -1.5, 1.5, 0, 0 }, 4);

	hxctl(&r, a, "robot", NULL);
	expect_ok(&r);
	cr_assert(strncmp(r.out, "motors       2, position servos\n", 32) == 0,
	    "%s", r.out);
	cr_assert_not_null(strstr(r.out, "update rate  50 Hz\n"), "%s", r.out);
	cr_assert_not_null(
	    strstr(r.out, "   1  servo2           -2            2\n"), "%s",
	    r.out);
	cr_assert_not_null(
	    strstr(r.out, "   0  q1             -1.5          1.5\n"), "%s",
	    r.out);

	/* One jointpos and two jointvel sensors, all unnamed: joint 1 is
	 * the second jointvel sensor, sensor 2, on slide2. */
	hxctl(&r, a, "load", "velservo.xml", NULL);
	expect_ok(&r);
	hxctl_json(&r, a, "robot", NULL);
	cr_assert_not_null(
	    strstr(r.out, "\"servo\":\"velocity\""), "%s", r.out);
	expect_nums(r.out, "motor_limit", (const double[]){ -2, 2, 0, 0 }, 4);
	expect_nums(r.out, "joint_limit", (const double[]){ 0, 0, -1, 1 }, 4);
	hxctl(&r, a, "robot", NULL);
	expect_ok(&r);
	cr_assert_not_null(
	    strstr(r.out, "   1  #2               -1            1\n"), "%s",
	    r.out);
	hx_run_free(&r);
}

Test(hxctl, hx_update_commands_the_servos_and_reads_the_sensors)
{
	struct hx_run r = { 0 };
	const char *a;
	double v[4];

	a = start(fixture_args);
	hxctl(&r, a, "hx-update", "--ref-pos", "0.5,-1", NULL);
	expect_ok(&r);
	/* Paused: no step. */
	cr_assert(strncmp(r.out, "time 0\nmotors\n", 14) == 0, "%s", r.out);
	cr_assert_not_null(strstr(r.out, "   0  servo1 "), "%s", r.out);
	cr_assert_not_null(strstr(r.out, "   1  servo2 "), "%s", r.out);
	cr_assert_not_null(strstr(r.out, "   1  q2 "), "%s", r.out);
	cr_assert_not_null(strstr(r.out, "   0  acc "), "%s", r.out);
	hxctl_json(&r, a, "ctrl", NULL);
	expect_nums(r.out, "ctrl", (const double[]){ 0.5, -1 }, 2);

	/* References are clamped to the control range. */
	hxctl(&r, a, "hx-update", "--ref-pos=5,0", NULL);
	expect_ok(&r);
	hxctl_json(&r, a, "ctrl", NULL);
	expect_nums(r.out, "ctrl", (const double[]){ 1, 0 }, 2);

	/* The position gain reaches the servo: f1 = kp (ctrl - q). */
	hxctl(&r, a, "hx-update", "--ref-pos", "0.1,0", "--gain-pos", "100,20",
	    "--gain-vel", "0,0", NULL);
	expect_ok(&r);
	hxctl(&r, a, "step", NULL);
	expect_ok(&r);
	hxctl_json(&r, a, "hx-update", NULL);
	cr_assert_float_eq(json_num(r.out, "time"), FIXTURE_DT, 1e-15);
	cr_assert_eq(json_num(r.out, "motor_count"), 2, "%s", r.out);
	cr_assert_eq(json_num(r.out, "contact_sensor_count"), 0, "%s", r.out);
	cr_assert_eq(json_nums(r.out, "motor_torque", v, 4), 2, "%s", r.out);
	cr_assert_float_eq(v[0], 10, 1e-9, "%s", r.out);
	expect_nums(r.out, "contact", NULL, 0);
	expect_nums(r.out, "imu_angular_vel", (const double[]){ 0, 0, 0 }, 3);

	/* A wrong count fails before the command is sent, as in set-ctrl. */
	hxctl(&r, a, "hx-update", "--ref-pos", "1", NULL);
	expect_fail(&r, "hx-update", "mjCOM_BADSIZE", "motor_count = 2");
	hxctl(&r, a, "hx-update", "--ref-pos", "0,0", "--gain-vel", "1,2,3",
	    NULL);
	expect_fail(&r, "hx-update", "mjCOM_BADSIZE", "--gain-vel");
	/* The server refuses the whole command. */
	hxctl(&r, a, "hx-update", "--ref-pos", "0.2,0.2", "--gain-pos", "-1,0",
	    NULL);
	expect_fail(&r, "hx-update", "mjCOM_BADVALUE", "gain_pos");
	hxctl_json(&r, a, "ctrl", NULL);
	expect_nums(r.out, "ctrl", (const double[]){ 0.1, 0 }, 2);
	hx_run_free(&r);
}

/*
 * At speed 0.001 the fixture steps every 2 s and reaches its first API
 * tick 20 s after it starts: hx-update waits for it, --no-wait does not.
 */
Test(hxctl, hx_update_waits_for_the_tick_unless_no_wait)
{
	struct hx_run r = { 0 };
	const char *a;

	a = start(
	    (const char *[]){ "-m", "fixture.xml", "--speed", "0.001", NULL });
	hxctl(&r, a, "--timeout", "1000", "hx-update", "--no-wait", NULL);
	expect_ok(&r);
	cr_assert(strncmp(r.out, "time ", 5) == 0, "%s", r.out);
	hxctl(&r, a, "--timeout", "1000", "hx-update", NULL);
	expect_fail(&r, "hx-update", "mjCOM_TIMEOUT", NULL);
	hxctl(&r, a, "--timeout", "1000", "hx-update", "--ref-pos", "0.5,0.5",
	    "--no-wait", NULL);
	expect_ok(&r);
	hxctl_json(&r, a, "ctrl", NULL);
	expect_nums(r.out, "ctrl", (const double[]){ 0.5, 0.5 }, 2);
	hx_run_free(&r);
}

Test(hxctl, pause_run_and_speed)
{
	struct hx_run r = { 0 };
	const char *a;

	a = start(fixture_args);
	hxctl(&r, a, "run", NULL);
	expect_ok(&r);
	hxctl_json(&r, a, "status", NULL);
	cr_assert_not_null(strstr(r.out, "\"paused\":false"), "%s", r.out);
	hxctl(&r, a, "step", "3", NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strncmp(r.out, "0 steps, time ", 14) == 0, "%s", r.out);
	cr_assert_not_null(strstr(r.err, "running"), "%s", r.err);
	hxctl_json(&r, a, "update", NULL);
	cr_assert_gt(json_num(r.out, "time"), 0, "%s", r.out);

	hxctl(&r, a, "pause", NULL);
	expect_ok(&r);
	hxctl_json(&r, a, "status", NULL);
	cr_assert_not_null(strstr(r.out, "\"paused\":true"), "%s", r.out);
	hxctl(&r, a, "speed", "max", NULL);
	expect_ok(&r);
	hxctl_json(&r, a, "status", NULL);
	cr_assert_not_null(strstr(r.out, "\"speed_max\":true"), "%s", r.out);
	hxctl(&r, a, "speed", "2.5", NULL);
	expect_ok(&r);
	hxctl_json(&r, a, "status", NULL);
	cr_assert_not_null(strstr(r.out, "\"speed_max\":false"), "%s", r.out);
	cr_assert_eq(json_num(r.out, "speed"), 2.5, "%s", r.out);
	hx_run_free(&r);
}

/*
 * edit attach: from a file in the model directories, from the model
 * itself (.), from a local file (--inline); a name taken fails, naming
 * it.
 */
Test(hxctl, edit_attach)
{
	static const char
	    ball[] = "<mujoco><compiler angle=\"radian\"/><worldbody><body "
		     "name=\"ball\" pos=\"0 0 3\"><freejoint/><geom size=\"0.1\"/>"
		     "</body></worldbody></mujoco>\n";
	char path[] = "/tmp/hxctl-ball.XXXXXX.xml";
	struct hx_run r = { 0 };
	const char *a;
	int fd;

	a = start(fixture_args);
	hxctl(&r, a, "edit", "attach", "attach/gripper.xml", "gripper", "--to",
	    "worldbody", "--prefix", "g_", NULL);
	expect_ok(&r);
	cr_expect_not_null(strstr(r.out, "nbody 8, nq 18, nu 3"), "%s", r.out);
	hxctl(&r, a, "edit", "attach", ".", "link1", "--to", "body:g_gripper",
	    "--suffix", "_copy", NULL);
	expect_ok(&r);
	cr_expect_not_null(strstr(r.out, "nbody 10, nq 20, nu 5"), "%s", r.out);
	fd = mkstemps(path, 4);
	cr_assert_neq(fd, -1, "mkstemps: %s", strerror(errno));
	cr_assert_eq(
	    write(fd, ball, sizeof(ball) - 1), (ssize_t)sizeof(ball) - 1);
	close(fd);
	hxctl_json(&r, a, "edit", "attach", "--inline", path, "ball", "--to",
	    "worldbody", "--prefix", "i_", NULL);
	unlink(path);
	cr_assert_eq(json_num(r.out, "nbody"), 11, "%s", r.out);
	hxctl(&r, a, "edit", "attach", "attach/gripper.xml", "gripper", "--to",
	    "worldbody", "--prefix", "g_", NULL);
	expect_fail(&r, "edit", "mjCOM_BADVALUE",
	    "the model already has a body named \"g_gripper\"");
	hxctl(&r, a, "edit", "attach", "attach/gripper.xml", "gripper", NULL);
	expect_usage(&r, "edit attach without --to");
	hx_run_free(&r);
}

Test(hxctl, load_reload_and_inline_models)
{
	static const char
	    tiny[] = "<mujoco model=\"tiny\"><worldbody><body "
		     "name=\"ball\"><freejoint/><geom size=\"0.1\"/></body>"
		     "</worldbody></mujoco>\n";
	char path[] = "/tmp/hxctl-tiny.XXXXXX.xml";
	struct hx_run r = { 0 };
	const char *a;
	int fd;

	a = start(fixture_args);
	hxctl(&r, a, "load", "arm.urdf", NULL);
	expect_ok(&r);
	cr_assert(strncmp(r.out, "loaded ", 7) == 0, "%s", r.out);
	hxctl_json(&r, a, "load", "fixture.xml", NULL);
	cr_assert_not_null(strstr(r.out, "\"name\":\"fixture\""), "%s", r.out);
	cr_assert_eq(json_num(r.out, "nq"), 9);
	hxctl(&r, a, "load", "broken.xml", NULL);
	expect_fail(&r, "load", "mjCOM_LOADFAILED", "stiffnes");
	hxctl(&r, a, "load", "/etc/passwd", NULL);
	expect_fail(&r, "load", "mjCOM_DENIED", NULL);
	hxctl(&r, a, "load", "--inline", "/nonexistent/model.xml", NULL);
	expect_fail(&r, "load", "mjCOM_LOADFAILED", "/nonexistent/model.xml");

	fd = mkstemps(path, 4);
	cr_assert_neq(fd, -1, "mkstemps: %s", strerror(errno));
	cr_assert_eq(
	    write(fd, tiny, sizeof(tiny) - 1), (ssize_t)sizeof(tiny) - 1);
	close(fd);
	hxctl_json(&r, a, "load", "--inline", path, NULL);
	unlink(path);
	cr_assert_not_null(
	    strstr(r.out, "\"name\":\"tiny\",\"path\":\"\""), "%s", r.out);
	cr_assert_eq(json_num(r.out, "nq"), 7);
	hxctl(&r, a, "reload", NULL);
	expect_fail(&r, "reload", "mjCOM_BADVALUE", NULL);

	hxctl(&r, a, "load", "fixture.xml", NULL);
	expect_ok(&r);
	hxctl(&r, a, "set-ctrl", "0.5", "0.5", NULL);
	expect_ok(&r);
	hxctl_json(&r, a, "reload", NULL);
	cr_assert_eq(json_num(r.out, "nu"), 2, "%s", r.out);
	hxctl_json(&r, a, "ctrl", NULL);
	expect_nums(r.out, "ctrl", (const double[]){ 0, 0 }, 2);
	hx_run_free(&r);
}

Test(hxctl, without_a_model)
{
	struct hx_run r = { 0 };
	const char *a;

	a = start((const char *[]){ "--no-model", NULL });
	hxctl(&r, a, "status", NULL);
	expect_ok(&r);
	cr_assert_not_null(strstr(r.out, "none loaded"), "%s", r.out);
	hxctl_json(&r, a, "status", NULL);
	cr_assert_not_null(strstr(r.out, "\"loaded\":false"), "%s", r.out);
	hxctl(&r, a, "state", NULL);
	expect_fail(&r, "state", "mjCOM_NOMODEL", NULL);
	hxctl(&r, a, "body", "box", NULL);
	expect_fail(&r, "body", "mjCOM_NOMODEL", NULL);
	hxctl(&r, a, "load", "fixture.xml", NULL);
	expect_ok(&r);
	hxctl_json(&r, a, "state", NULL);
	expect_nums(r.out, "qpos", fixture_qpos0, 9);
	hx_run_free(&r);
}

Test(hxctl, message_lasts_while_hxctl_holds_it)
{
	struct hx_run r = { 0 };
	const char *a;
	int status;

	a = start(fixture_args);
	holder = hxctl_spawn(
	    a, "message", "--hold", "0", "say", "\"hi\"\\\n\t\x01", NULL);
	cr_assert(status_eventually_has(a,
		      "\"message\":\"say \\\"hi\\\"\\\\"
		      "\\n\\t\\u0001\""),
	    "the message never showed");
	hxctl(&r, a, "status", NULL);
	expect_ok(&r);
	cr_assert_not_null(strstr(r.out, "say \"hi\"\\"), "%s", r.out);
	kill(holder, SIGTERM);
	cr_assert_eq(waitpid(holder, &status, 0), holder);
	holder = 0;
	cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM,
	    "hxctl message --hold 0 did not hold until killed: %d", status);
	cr_assert(status_eventually_has(a, "\"message\":\"\""),
	    "the message outlived its client");

	holder = hxctl_spawn(a, "message", "--hold", "30", "again", NULL);
	cr_assert(status_eventually_has(a, "\"message\":\"again\""));
	hxctl(&r, a, "message", NULL);
	expect_ok(&r);
	cr_assert(status_eventually_has(a, "\"message\":\"\""),
	    "message with no text did not clear");
	hx_run_free(&r);
}

/* Read exactly len bytes, or fail the test. */
static void
read_full(int fd, void *buf, size_t len)
{
	size_t got = 0;
	ssize_t n;

	while (got < len) {
		n = read(fd, (char *)buf + got, len - got);
		if (n <= 0)
			_exit(3);
		got += (size_t)n;
	}
}

/*
 * A server that answers Hello and then never answers again, listening
 * on the Unix socket path.  Returns its pid.
 */
static pid_t
silent_server(const char *path)
{
	Haptix__V1__Response resp = HAPTIX__V1__RESPONSE__INIT;
	Haptix__V1__Welcome w = HAPTIX__V1__WELCOME__INIT;
	Haptix__V1__Request *req;
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	uint8_t hdr[FRAME_HEADER_SIZE], buf[4096];
	uint32_t len;
	int lfd, fd;
	pid_t pid;

	lfd = socket(AF_UNIX, SOCK_STREAM, 0);
	cr_assert_neq(lfd, -1);
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", path);
	cr_assert_eq(bind(lfd, (struct sockaddr *)&sun, sizeof(sun)), 0,
	    "bind: %s", strerror(errno));
	cr_assert_eq(listen(lfd, 4), 0);
	pid = fork();
	cr_assert_neq(pid, -1);
	if (pid != 0) {
		close(lfd);
		return pid;
	}
	alarm(20);
	fd = accept(lfd, NULL, NULL);
	read_full(fd, hdr, sizeof(hdr));
	len = frame_get_length(hdr);
	if (len > sizeof(buf))
		_exit(4);
	read_full(fd, buf, len);
	req = haptix__v1__request__unpack(NULL, len, buf);
	if (req == NULL)
		_exit(5);
	w.protocol_version = HAPTIX__V1__PROTOCOL_VERSION__PROTOCOL_VERSION_CURRENT;
	w.server_version = (char *)"silent";
	resp.id = req->id;
	resp.payload_case = HAPTIX__V1__RESPONSE__PAYLOAD_WELCOME;
	resp.welcome = &w;
	len = (uint32_t)haptix__v1__response__get_packed_size(&resp);
	frame_put_header(buf, len);
	haptix__v1__response__pack(&resp, buf + FRAME_HEADER_SIZE);
	if (write(fd, buf, FRAME_HEADER_SIZE + len) < 0)
		_exit(6);
	for (;;)
		pause();
}

Test(hxctl, timeout_bounds_the_wait_for_an_answer)
{
	char dir[] = "/tmp/hxctl-silent.XXXXXX", path[128], addr[140];
	struct hx_run r = { 0 };
	double t0, dt;
	pid_t pid;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/s.sock", dir);
	snprintf(addr, sizeof(addr), "unix:%s", path);
	pid = silent_server(path);
	t0 = hx_wall_now();
	hxctl(&r, addr, "--timeout", "300", "status", NULL);
	dt = hx_wall_now() - t0;
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	unlink(path);
	rmdir(dir);
	expect_fail(&r, "status", "mjCOM_TIMEOUT", "300 ms");
	cr_assert_lt(dt, 5.0, "hxctl waited %.1f s, not 0.3", dt);
	hx_run_free(&r);
}

/*--------------------------------------------- clients, lease, events */

Test(hxctl, clients_lists_hxctl_and_the_others)
{
	char obj[1024], pat[64];
	struct hx_run r = { 0 };
	unsigned long long probe_id;
	hxd_client *list;
	hxd_conn *c;
	const char *a, *p;
	double you;
	int n;

	a = start(fixture_args);
	c = hx_connect_ok(a, "probe");
	cr_assert_eq(hxd_clients(c, &list, &n, &probe_id), HXD_OK);
	free(list);
	cr_assert_eq(
	    hxd_lease(c, HXD_LEASE_TAKE, NULL), HXD_OK, "%s", hxd_error(c));

	hxctl_json(&r, a, "clients", NULL);
	you = json_num(r.out, "you");
	cr_assert_neq(you, (double)probe_id, "%s", r.out);
	json_object_with(r.out, "\"name\":\"probe\"", obj, sizeof(obj));
	cr_assert_eq(json_num(obj, "id"), (double)probe_id, "%s", obj);
	cr_assert_not_null(
	    strstr(obj, "\"lease\":true,\"you\":false"), "%s", obj);
	/* Hello, clients and lease. */
	cr_assert_eq(json_num(obj, "requests"), 3, "%s", obj);
	cr_assert_eq(json_num(obj, "errors"), 0, "%s", obj);
	cr_assert_eq(json_num(obj, "subscriptions"), 0, "%s", obj);
	cr_assert_gt(json_num(obj, "bytes_in"), 0, "%s", obj);
	snprintf(pat, sizeof(pat), "{\"id\":%.0f,", you);
	json_object_with(r.out, pat, obj, sizeof(obj));
	cr_assert_not_null(strstr(obj, "\"name\":\"hxctl\""), "%s", obj);
	cr_assert_not_null(
	    strstr(obj, "\"lease\":false,\"you\":true"), "%s", obj);
	/* Hello and clients: this very call. */
	cr_assert_eq(json_num(obj, "requests"), 2, "%s", obj);
	for (p = r.out, n = 0; (p = strstr(p, "\"peer\":")) != NULL; p++)
		n++;
	cr_assert_eq(n, 2, "not two clients: %s", r.out);

	hxctl(&r, a, "clients", NULL);
	expect_ok(&r);
	cr_assert(strncmp(r.out, "  id  name   peer", 17) == 0, "%s", r.out);
	cr_assert_not_null(strstr(r.out, "  probe  "), "%s", r.out);
	cr_assert_not_null(strstr(r.out, "  lease  "), "%s", r.out);
	cr_assert_not_null(strstr(r.out, "  this  "), "%s", r.out);
	cr_assert_not_null(strstr(r.out, "unix uid "), "%s", r.out);
	hxd_close(c);
	hx_run_free(&r);
}

/*
 * The daemon runs, and the lease's on-loss policy is to pause: a holder
 * that releases the lease as it should leaves it running.
 */
Test(hxctl, lease_shows_takes_and_releases)
{
	char want[128];
	struct hx_run r = { 0 };
	hxd_control ctl = { 2, 0, (double[]){ 0.5, 0.5 } };
	hxd_conn *c;
	const char *a;
	double id;

	a = start((const char *[]){ "-m", "fixture.xml", NULL });
	hxctl(&r, a, "lease", NULL);
	expect_ok(&r);
	cr_assert_str_eq(r.out, "holder       none\non loss      pause\n");
	hxctl_json(&r, a, "lease", NULL);
	cr_assert_str_eq(r.out,
	    "{\"holder\":0,\"holder_name\":\"\",\"on_loss\":\"pause\"}\n");

	holder = hxctl_spawn(a, "lease", "take", "--hold", "0", NULL);
	cr_assert(status_eventually_has(a, "\"lease_holder_name\":\"hxctl\""),
	    "hxctl lease take --hold never held the lease");
	hxctl_json(&r, a, "lease", NULL);
	id = json_num(r.out, "holder");
	cr_assert_gt(id, 0, "%s", r.out);
	snprintf(want, sizeof(want),
	    "{\"holder\":%.0f,\"holder_name\":\"hxctl\",\"on_loss\":\"pause\"}\n",
	    id);
	cr_assert_str_eq(r.out, want);
	hxctl(&r, a, "status", NULL);
	expect_ok(&r);
	snprintf(want, sizeof(want),
	    "lease        client %.0f (hxctl) holds it\n", id);
	cr_assert_not_null(strstr(r.out, want), "%s", r.out);

	/* Others may read, not write. */
	c = hx_connect_ok(a, "probe");
	cr_assert_eq(hxd_set_control(c, &ctl), HXD_DENIED);
	cr_assert_not_null(strstr(hxd_error(c), "holds the control lease"),
	    "%s", hxd_error(c));
	hxctl(&r, a, "set-ctrl", "0.5", "0.5", NULL);
	expect_fail(&r, "set-ctrl", "mjCOM_DENIED", "holds the control lease");
	hxctl(&r, a, "lease", "release", NULL);
	expect_fail(&r, "lease", "mjCOM_DENIED", "does not hold");
	hxctl(&r, a, "lease", "take", "--hold", "1", NULL);
	expect_fail(&r, "lease", "mjCOM_DENIED", "holds the control lease");
	hxctl_json(&r, a, "ctrl", NULL);
	expect_nums(r.out, "ctrl", (const double[]){ 0, 0 }, 2);

	/* SIGTERM ends the hold: released, not lost. */
	kill(holder, SIGTERM);
	cr_assert_eq(wait_exit(holder, 5), 0, "lease take --hold 0 on SIGTERM");
	holder = 0;
	hxctl_json(&r, a, "status", NULL);
	cr_assert_not_null(strstr(r.out, "\"lease_holder\":0,"), "%s", r.out);
	cr_assert_not_null(strstr(r.out, "\"paused\":false"),
	    "the lease was lost, not released: %s", r.out);
	cr_assert_eq(hxd_set_control(c, &ctl), HXD_OK, "%s", hxd_error(c));

	/* A hold of S seconds ends by itself. */
	hxctl(&r, a, "lease", "take", "--hold", "0.3", NULL);
	expect_ok(&r);
	cr_assert_str_empty(r.out);
	hxctl_json(&r, a, "lease", NULL);
	cr_assert_eq(json_num(r.out, "holder"), 0, "%s", r.out);
	hxd_close(c);
	hx_run_free(&r);
}

/*
 * lease run: the lease held while a command runs, the hxctl calls in it
 * sharing it ($HAPTIX_LEASE), the others refused meanwhile, released at
 * the end (the simulation runs on: not lost), the command's exit status
 * passed on.  The README's block took the lease with a background hxctl
 * lease take --hold 0, and each later hxctl was refused.
 */
Test(hxctl, lease_run_shares_the_lease_with_what_it_runs)
{
	struct hx_run r = { 0 };
	char script[2048], ready[300], go[300];
	const char *a;
	pid_t run;
	int fd, status = 0;

	a = start((const char *[]){ "-m", "fixture.xml", NULL });
	snprintf(ready, sizeof(ready), "%s/ready", test_server.dir);
	snprintf(go, sizeof(go), "%s/go", test_server.dir);
	snprintf(script, sizeof(script),
	    "h='%s'; a='%s'\n"
	    "\"$h\" -s \"$a\" set-ctrl 0.5 0.25 || exit 10\n"
	    "\"$h\" -s \"$a\" --json clients | grep -q "
	    "'\"lease_shared\":true}' || exit 11\n"
	    "\"$h\" -s \"$a\" clients | grep -q ' shares,this ' || exit 13\n"
	    "\"$h\" -s \"$a\" lease release 2>/dev/null && exit 12\n"
	    "touch '%s'\n"
	    "i=0; while [ ! -e '%s' ] && [ $i -lt 600 ]; do\n"
	    "  sleep 0.05; i=$((i + 1)); done\n"
	    "exit 7\n",
	    hx_hxctl_path(), a, ready, go);
	run = hxctl_spawn(a, "lease", "run", "--", "sh", "-c", script, NULL);
	holder = run;
	while (access(ready, F_OK) != 0) {
		cr_assert_eq(waitpid(run, &status, WNOHANG), 0,
		    "lease run ended early: status %d",
		    WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		hx_sleep_ms(20);
	}
	/* Meanwhile the others may read, not write. */
	hxctl_json(&r, a, "ctrl", NULL);
	expect_nums(r.out, "ctrl", (const double[]){ 0.5, 0.25 }, 2);
	hxctl(&r, a, "set-ctrl", "1", "1", NULL);
	expect_fail(&r, "set-ctrl", "mjCOM_DENIED", "holds the control lease");
	hxctl(&r, a, "clients", NULL);
	expect_ok(&r);
	cr_assert_not_null(strstr(r.out, "  lease  "), "%s", r.out);
	cr_assert((fd = open(go, O_CREAT | O_WRONLY, 0600)) >= 0);
	close(fd);
	cr_assert_eq(wait_exit(run, 10), 7, "lease run passes on the status");
	holder = 0;
	hxctl_json(&r, a, "status", NULL);
	cr_assert_not_null(strstr(r.out, "\"lease_holder\":0,"), "%s", r.out);
	cr_assert_not_null(strstr(r.out, "\"paused\":false"),
	    "the lease was lost, not released: %s", r.out);
	hxctl(&r, a, "set-ctrl", "1", "1", NULL);
	expect_ok(&r);

	/* A command that is not there: 127, as the shell says. */
	hxctl(&r, a, "lease", "run", "/nonexistent/command", NULL);
	cr_assert_eq(r.status, 127, "%d %s", r.status, r.err);
	cr_assert_not_null(strstr(r.err, "/nonexistent/command"), "%s", r.err);
	hxctl(&r, a, "lease", "run", NULL);
	cr_assert_eq(r.status, 2, "no command is a usage error: %s", r.err);
	hxctl_json(&r, a, "lease", NULL);
	cr_assert_eq(json_num(r.out, "holder"), 0, "%s", r.out);
	hx_run_free(&r);
}

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

Test(hxctl, subscribe_prints_events_and_ends_with_the_server)
{
	char want[256], *out = NULL, *err, *lines[8];
	unsigned long long you;
	hxd_client *list;
	hxd_conn *c;
	const char *a;
	int fd, fe, n, i;

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

/*------------------------------------------------------------ batches */

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

/*------------------------------------------------- keyframes, joints */

Test(hxctl, capture_and_reset_by_name)
{
	static const double here[2] = { 0.4, -0.3 };
	struct hx_run r = { 0 };
	hxd_state *s0, *s1;
	hxd_conn *c;
	const char *a;
	int i;

	a = start(fixture_args);
	c = hx_connect_ok(a, "checker");
	cr_assert_eq(hxd_set_joint(c, "hinge1", here, 1, NULL, 0), HXD_OK);
	cr_assert_eq(hxd_set_joint(c, "hinge2", here + 1, 1, here, 1), HXD_OK);
	cr_assert_eq(hxd_step(c, 7, NULL), HXD_OK);
	cr_assert_eq(hxd_get_state(c, &s0), HXD_OK);

	hxctl(&r, a, "capture", "here", NULL);
	expect_ok(&r);
	cr_assert_str_empty(r.out);
	hxctl(&r, a, "step", "20", NULL);
	expect_ok(&r);
	hxctl(&r, a, "reset", NULL);
	expect_ok(&r);
	hxctl(&r, a, "reset", "here", NULL);
	expect_ok(&r);
	cr_assert_eq(hxd_get_state(c, &s1), HXD_OK);
	cr_assert_eq(s1->time, s0->time);
	for (i = 0; i < 9; i++)
		cr_assert_eq(s1->qpos[i], s0->qpos[i],
		    "qpos[%d]: %.17g, not %.17g", i, s1->qpos[i], s0->qpos[i]);
	for (i = 0; i < 8; i++)
		cr_assert_eq(s1->qvel[i], s0->qvel[i], "qvel[%d]", i);
	free(s1);

	/* Into a keyframe of the model, by name and by index. */
	hxctl(&r, a, "capture", "dropped", NULL);
	expect_ok(&r);
	hxctl(&r, a, "reset", NULL);
	expect_ok(&r);
	hxctl(&r, a, "reset", "1", NULL);
	expect_ok(&r);
	cr_assert_eq(hxd_get_state(c, &s1), HXD_OK);
	cr_assert_eq(s1->qpos[0], s0->qpos[0]);
	cr_assert_eq(s1->time, s0->time, "keyframe 1 kept its time 1");
	free(s1);
	hxctl(&r, a, "capture", "0", NULL);
	expect_ok(&r);
	hxctl(&r, a, "reset", "raised", NULL);
	expect_ok(&r);
	hxctl_json(&r, a, "state", NULL);
	cr_assert_float_eq(json_num(r.out, "time"), s0->time, 1e-15);

	hxctl(&r, a, "reset", "nosuch", NULL);
	expect_fail(&r, "reset", "mjCOM_BADINDEX", "\"nosuch\"");
	hxctl(&r, a, "capture", "5", NULL);
	expect_fail(&r, "capture", "mjCOM_BADINDEX", NULL);
	/* Captured states go with the model. */
	hxctl(&r, a, "reload", NULL);
	expect_ok(&r);
	hxctl(&r, a, "reset", "here", NULL);
	expect_fail(&r, "reset", "mjCOM_BADINDEX", "here");
	free(s0);
	hxd_close(c);
	hx_run_free(&r);
}

Test(hxctl, set_joint_changes_that_joint_only)
{
	struct hx_run r = { 0 };
	hxd_state *s0, *s1;
	hxd_conn *c;
	const char *a;
	int i;

	a = start(fixture_args);
	c = hx_connect_ok(a, "checker");
	cr_assert_eq(hxd_step(c, 3, NULL), HXD_OK);
	cr_assert_eq(hxd_get_state(c, &s0), HXD_OK);
	hxctl(&r, a, "set-joint", "hinge2", "--qpos", "0.7", "--qvel", "-1.5",
	    NULL);
	expect_ok(&r);
	cr_assert_str_empty(r.out);
	cr_assert_eq(hxd_get_state(c, &s1), HXD_OK);
	for (i = 0; i < 9; i++)
		cr_assert_eq(s1->qpos[i], i == 1 ? 0.7 : s0->qpos[i],
		    "qpos[%d] is %.17g", i, s1->qpos[i]);
	for (i = 0; i < 8; i++)
		cr_assert_eq(s1->qvel[i], i == 1 ? -1.5 : s0->qvel[i],
		    "qvel[%d] is %.17g", i, s1->qvel[i]);
	free(s1);

	/* A free joint: 7 values, the quaternion normalized; by id too. */
	hxctl(&r, a, "set-joint", "box", "--qpos", "1,2,3,0,0,0,2", NULL);
	expect_ok(&r);
	hxctl(&r, a, "set-joint", "0", "--qpos", "0.25", NULL);
	expect_ok(&r);
	hxctl_json(&r, a, "state", NULL);
	expect_nums(r.out, "qpos",
	    (const double[]){ 0.25, 0.7, 1, 2, 3, 0, 0, 0, 1 }, 9);

	hxctl(&r, a, "set-joint", "hinge1", "--qpos", "1,2", NULL);
	expect_fail(&r, "set-joint", "mjCOM_BADSIZE", "hinge");
	hxctl(&r, a, "set-joint", "box", "--qpos", "1,2,3,0,0,0,0", NULL);
	expect_fail(&r, "set-joint", "mjCOM_BADVALUE", "quaternion");
	hxctl(&r, a, "set-joint", "nosuch", "--qvel", "1", NULL);
	expect_fail(&r, "set-joint", "mjCOM_BADINDEX", "nosuch");
	free(s0);
	hxd_close(c);
	hx_run_free(&r);
}

/*------------------------------------------------------------- arrays */

Test(hxctl, arrays_by_name_round_trip)
{
	struct hx_run r = { 0 };
	hxd_applied *ap;
	hxd_conn *c;
	const char *a;
	double v[64];
	int i;

	a = start(fixture_args);
	hxctl_json(&r, a, "arrays", NULL);
	cr_assert_not_null(strstr(r.out,
			       "{\"name\":\"ctrl\",\"owner\":\"data\",\"type\":"
			       "\"double\",\"rows\":2,\"cols\":1,\"writable\":"
			       "true}"),
	    "%s", r.out);
	cr_assert_not_null(strstr(r.out,
			       "{\"name\":\"geom_rgba\",\"owner\":\"model\","
			       "\"type\":\"float\",\"rows\":7,\"cols\":4,"
			       "\"writable\":true}"),
	    "%s", r.out);
	cr_assert_not_null(strstr(r.out,
			       "\"name\":\"qacc\",\"owner\":\"data\","
			       "\"type\":\"double\",\"rows\":8,"
			       "\"cols\":1,\"writable\":false}"),
	    "%s", r.out);
	hxctl(&r, a, "arrays", NULL);
	expect_ok(&r);
	cr_assert(strncmp(r.out, "name ", 5) == 0, "%s", r.out);
	cr_assert_not_null(strstr(r.out, "\nxfrc_applied "), "%s", r.out);
	cr_assert_not_null(
	    strstr(r.out, "  data   double          5 x 6  yes\n"), "%s",
	    r.out);

	hxctl(&r, a, "set", "qfrc_applied", "--offset", "2", "1.5", "-2.25",
	    NULL);
	expect_ok(&r);
	cr_assert_str_empty(r.out);
	c = hx_connect_ok(a, "checker");
	cr_assert_eq(hxd_get_applied(c, &ap), HXD_OK);
	for (i = 0; i < 8; i++)
		cr_assert_eq(ap->qfrc_applied[i],
		    i == 2     ? 1.5 :
			i == 3 ? -2.25 :
				 0,
		    "qfrc_applied[%d] is %g", i, ap->qfrc_applied[i]);
	free(ap);
	hxctl_json(&r, a, "get", "qfrc_applied", NULL);
	cr_assert(strncmp(r.out,
		      "{\"name\":\"qfrc_applied\",\"owner\":\"data\",\"type\":"
		      "\"double\",\"rows\":8,\"cols\":1,\"writable\":true,",
		      88) == 0,
	    "%s", r.out);
	expect_nums(r.out, "values",
	    (const double[]){ 0, 0, 1.5, -2.25, 0, 0, 0, 0 }, 8);

	hxctl(&r, a, "get", "geom_rgba", NULL);
	expect_ok(&r);
	cr_assert(strncmp(r.out, "geom_rgba (model, float, 7 x 4, writable)\n",
		      42) == 0,
	    "%s", r.out);
	cr_assert_not_null(
	    strstr(r.out,
		"\n   5  box              0.2          0.5          "
		"0.9            1\n"),
	    "%s", r.out);
	hxctl(&r, a, "set", "model.geom_rgba", "--offset", "20", "1", "0", "0",
	    NULL);
	expect_ok(&r);
	hxctl(&r, a, "rgba", "geom", "box", NULL);
	cr_assert_str_eq(r.out, "1 0 0 1\n");
	hxctl_json(&r, a, "get", "geom_rgba", NULL);
	cr_assert_eq(json_nums(r.out, "values", v, 64), 28);

	hxctl(&r, a, "set", "qacc", "0", NULL);
	expect_fail(
	    &r, "set", "mjCOM_DENIED", "qacc is not writable: computed");
	hxctl(&r, a, "set", "ctrl", "--offset", "2", "1", NULL);
	expect_fail(&r, "set", "mjCOM_BADSIZE", "ctrl");
	hxctl(&r, a, "get", "nosuch", NULL);
	expect_fail(&r, "get", "mjCOM_BADTYPE", "nosuch");
	hxd_close(c);
	hx_run_free(&r);
}

/*-------------------------------------------------------- known bugs */

/*
 * The status shows HAPTIX's energies.  With gravity on and the box and
 * links above the floor the potential energy is positive, and once the
 * box moves the kinetic energy is too.
 */
Test(hxctl, status_reports_energy)
{
	struct hx_run r = { 0 };
	const char *a;

	a = start(fixture_args);
	hxctl(&r, a, "set-state", "--qvel", "0,0,1,0,0,0,0,0", NULL);
	expect_ok(&r);
	hxctl_json(&r, a, "status", NULL);
	cr_assert_gt(json_num(r.out, "energy_potential"), 1, "%s", r.out);
	cr_assert_float_eq(json_num(r.out, "energy_kinetic"), 0.5, 1e-9,
	    "a 1 kg box at 1 m/s: %s", r.out);
	hx_run_free(&r);
}

/*
 * fixture.xml gives joint ranges in radians (its keyframe "raised" puts
 * hinge1 at 0.5, well inside range="-1.5 1.5"), so the description must
 * say [-1.5, 1.5].
 */
Test(hxctl, info_reports_joint_ranges_as_written)
{
	struct hx_run r = { 0 };
	const char *a;

	a = start(fixture_args);
	hxctl_json(&r, a, "info", NULL);
	cr_assert_not_null(
	    strstr(r.out,
		"{\"name\":\"hinge1\",\"type\":"
		"\"hinge\",\"body\":1,\"qposadr\":0,\"dofadr\":0,\"limited\":true,"
		"\"range\":[-1.5,1.5]}"),
	    "%s", r.out);
	hx_run_free(&r);
}

HX_TRANSPORT_TEST(hxctl, sensor_json_is_keyed_by_sensor_name, "-m",
    "fixture.xml", "--paused", NULL)
{
	static const double raised_q2[1] = { -0.5 };
	struct hx_run r = { 0 };
	double v[16];
	const char *p;

	hxctl(&r, addr, "reset", "raised", NULL);
	expect_ok(&r);
	/* sensor, update and step --sensors: the array and the names. */
	hxctl_json(&r, addr, "sensor", NULL);
	cr_assert_eq(json_nums(r.out, "sensordata", v, 16), 11, "%s", r.out);
	cr_assert_not_null(p = strstr(r.out, "\"sensors\":{"), "%s", r.out);
	expect_nums(p, "q1", (const double[]){ 0.5 }, 1);
	expect_nums(p, "q2", raised_q2, 1);
	cr_expect_eq(json_nums(p, "tip_pos", v, 16), 3, "%s", r.out);
	cr_expect_eq(json_nums(p, "acc", v, 16), 3, "%s", r.out);
	cr_expect_eq(json_nums(p, "sum_len", v, 16), 1, "%s", r.out);
	hxctl_json(&r, addr, "update", NULL);
	cr_assert_not_null(p = strstr(r.out, "\"sensors\":{"), "%s", r.out);
	cr_expect_eq(json_nums(p, "v1", v, 16), 1, "%s", r.out);
	hxctl_json(&r, addr, "step", "2", "--sensors", NULL);
	cr_assert_not_null(p = strstr(r.out, "\"sensors\":{"), "%s", r.out);
	cr_expect_eq(json_nums(p, "f1", v, 16), 1, "%s", r.out);
	hx_run_free(&r);
}

HX_TRANSPORT_TEST(
    hxctl, reset_run_resets_then_runs, "-m", "fixture.xml", "--paused", NULL)
{
	struct hx_run r = { 0 };
	hxd_conn *c;
	hxd_status st;

	hxctl(&r, addr, "step", "50", NULL);
	expect_ok(&r);
	cr_assert_gt(status_time(addr), 0.09);
	hxctl(&r, addr, "reset", "dropped", "--run", NULL);
	expect_ok(&r);
	c = hx_connect_ok(addr, "test_hxctl");
	st = hx_status_ok(c);
	cr_expect_eq(st.paused, 0, "running after reset --run");
	/* Keyframe "dropped" starts at time 1: the reset came first. */
	cr_expect(st.time >= 1 && st.time < 1.09, "time %g", st.time);
	cr_assert_eq(hxd_pause(c), HXD_OK, "%s", hxd_error(c));
	hxd_close(c);
	/* A failed reset does not run. */
	hxctl(&r, addr, "reset", "nosuchkey", "--run", NULL);
	cr_expect_eq(r.status, 1, "%s", r.err);
	c = hx_connect_ok(addr, "test_hxctl");
	st = hx_status_ok(c);
	cr_expect_eq(st.paused, 1, "a failed reset leaves it paused");
	hxd_close(c);
	hx_run_free(&r);
}

/*
 * A TCP server on 127.0.0.1 that is not haptixd: with wait, it reads
 * until the end of an HTTP request's head, as an HTTP server does, then
 * answers 400; without, it answers 200 at once.  One connection, in a
 * child; *port gets its port.
 */
static pid_t
http_peer(int wait, int *port)
{
	struct sockaddr_in sin;
	socklen_t len = sizeof(sin);
	char buf[4096];
	size_t n = 0;
	ssize_t r;
	pid_t pid;
	int ls, fd;

	ls = socket(AF_INET, SOCK_STREAM, 0);
	cr_assert_neq(ls, -1);
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	cr_assert_eq(bind(ls, (struct sockaddr *)&sin, sizeof(sin)), 0);
	cr_assert_eq(listen(ls, 1), 0);
	cr_assert_eq(getsockname(ls, (struct sockaddr *)&sin, &len), 0);
	*port = ntohs(sin.sin_port);
	pid = fork();
	cr_assert_neq(pid, -1);
	if (pid != 0) {
		close(ls);
		return pid;
	}
	alarm(30);
	if ((fd = accept(ls, NULL, NULL)) == -1)
		_exit(1);
	while (wait && n < sizeof(buf) - 1 &&
	    (r = read(fd, buf + n, sizeof(buf) - 1 - n)) > 0) {
		n += (size_t)r;
		buf[n] = '\0';
		if (memmem(buf, n, "\r\n\r\n", 4) != NULL)
			break;
	}
	if (wait)
		dprintf(fd,
		    "HTTP/1.1 400 Bad Request\r\nContent-Length: "
		    "0\r\nConnection: close\r\n\r\n");
	else
		dprintf(fd, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
	shutdown(fd, SHUT_WR);
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	_exit(0);
}

Test(hxctl, a_peer_that_is_not_haptixd_is_named)
{
	struct hx_run r = { 0 };
	char server[64];
	int port, status;
	pid_t pid;

	/* The Hello makes an HTTP server answer at once, and it is named. */
	pid = http_peer(1, &port);
	snprintf(server, sizeof(server), "127.0.0.1:%d", port);
	hxctl(&r, server, "status", NULL);
	expect_fail(&r, "status", "mjCOM_BADPROTOCOL",
	    "does not speak the haptixd protocol: it sent \"HTTP/1.1 400 Bad "
	    "Request\" (an HTTP server");
	cr_assert_eq(waitpid(pid, &status, 0), pid);

	/* One that speaks first: not "a 1213486160-byte frame". */
	pid = http_peer(0, &port);
	snprintf(server, sizeof(server), "127.0.0.1:%d", port);
	hxctl(&r, server, "status", NULL);
	expect_fail(
	    &r, "status", "mjCOM_BADPROTOCOL", "it sent \"HTTP/1.1 200 OK\"");
	cr_assert_eq(waitpid(pid, &status, 0), pid);

	/* haptixd itself, over TCP, takes the same Hello. */
	start(fixture_args);
	hxctl(&r, hx_server_addr(&test_server, 1), "status", NULL);
	expect_ok(&r);
	hx_run_free(&r);
}

Test(hxctl, mistyped_names_get_a_suggestion)
{
	struct hx_run r = { 0 };
	const char *a = start(fixture_args);

	hxctl(&r, a, "stauts", NULL);
	cr_expect_eq(r.status, 2);
	cr_expect_not_null(
	    strstr(r.err, "did you mean \"status\"?"), "%s", r.err);
	hxctl(&r, a, "reset", "--keep-param", NULL);
	expect_usage(&r, "reset --keep-param");
	cr_expect_not_null(
	    strstr(r.err, "did you mean \"--keep-params\"?"), "%s", r.err);
	hxctl(&r, a, "get", "geom_rbga", NULL);
	expect_fail(&r, "get", "mjCOM_BADTYPE", "did you mean \"geom_rgba\"?");
	hxctl(&r, a, "set", "data.qpso", "1", NULL);
	expect_fail(&r, "set", "mjCOM_BADTYPE", "did you mean \"qpos\"?");
	hxctl(&r, a, "set-ctrl", "Servo2=1", NULL);
	expect_fail(
	    &r, "set-ctrl", "mjCOM_BADINDEX", "did you mean \"servo2\"?");
	hxctl(&r, a, "reset", "rasied", NULL);
	expect_fail(&r, "reset", "mjCOM_BADINDEX", "did you mean \"raised\"?");
	hxctl(&r, a, "set-joint", "hinge3", "--qpos", "1", NULL);
	expect_fail(
	    &r, "set-joint", "mjCOM_BADINDEX", "did you mean \"hinge1\"?");
	hxctl(&r, a, "subscribe", "qpso", NULL);
	expect_usage(&r, "subscribe qpso");
	cr_expect_not_null(
	    strstr(r.err, "did you mean \"qpos\"?"), "%s", r.err);
	hxctl(&r, a, "subscribe", "--kinds", "rest", NULL);
	expect_usage(&r, "subscribe --kinds rest");
	cr_expect_not_null(
	    strstr(r.err, "did you mean \"reset\"?"), "%s", r.err);
	/* Nothing near: no guess. */
	hxctl(&r, a, "get", "nosuchthingatall", NULL);
	expect_fail(&r, "get", "mjCOM_BADTYPE", NULL);
	cr_expect_null(strstr(r.err, "did you mean"), "%s", r.err);
	hx_run_free(&r);
}

Test(hxctl, subscribe_kinds_and_pauses)
{
	char *out, *lines[16];
	hxd_conn *c;
	const char *a = start(fixture_args);
	int fd, fk, fx, n, i;
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
	close(fd);
	close(fk);
	close(fx);
	hxd_close(c);
}

/* Wait up to 10 s for hxctl holds to say text; return 1 if it did. */
static int
holds_eventually_say(const char *addr, const char *text)
{
	struct hx_run r = { 0 };
	int i, found = 0;

	for (i = 0; i < 100 && !found; i++) {
		hxctl(&r, addr, "holds", NULL);
		found = r.status == 0 && strstr(r.out, text) != NULL;
		if (!found)
			usleep(100000);
	}
	hx_run_free(&r);
	return found;
}

/*
 * hxctl hold keeps its connection, which its holds live on: along a
 * --path file and then --for its seconds; stopped, its holds go.
 */
HX_TRANSPORT_TEST(hxctl, hold_lasts_as_long_as_its_hxctl, "-m", "fixture.xml",
    "--paused", NULL)
{
	static const char path_text[] = "# a path\n"
					"0 hinge1 0.3\n"
					"0.1 hinge1 0.4 hinge2 0.1\n";
	char path[] = "/tmp/hxctl-hold-XXXXXX";
	struct hx_run r = { 0 };
	int fd, status;

	hxctl(&r, addr, "hold", "hinge1", NULL);
	cr_expect_eq(r.status, 2, "hold with no value: %d", r.status);
	hxctl(&r, addr, "hold", "box", "0", NULL);
	expect_fail(&r, "hold", "mjCOM_BADVALUE", "free joint");
	hxctl(&r, addr, "holds", NULL);
	expect_ok(&r);
	cr_expect_str_eq(r.out, "no joints held\n");

	fd = mkstemp(path);
	cr_assert_neq(fd, -1, "mkstemp: %s", strerror(errno));
	cr_assert_eq(write(fd, path_text, strlen(path_text)),
	    (ssize_t)strlen(path_text));
	close(fd);
	holder = hxctl_spawn(addr, "hold", "--path", path, "--for", "30", NULL);
	cr_assert(holds_eventually_say(addr, "hinge2"),
	    "the path's second line was never held");
	hxctl_json(&r, addr, "holds", NULL);
	cr_expect_not_null(
	    strstr(r.out, "\"joint\":\"hinge1\",\"target\":0.4"), "%s", r.out);
	kill(holder, SIGTERM);
	cr_assert_eq(waitpid(holder, &status, 0), holder);
	holder = 0;
	cr_assert(holds_eventually_say(addr, "no joints held"),
	    "the holds outlived their hxctl");
	unlink(path);
	hx_run_free(&r);
}
