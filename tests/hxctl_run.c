/*
 * What the hxctl tests (tests/test_hxctl_*.c) share: the daemon a test
 * starts and the hxctls it leaves running, running hxctl and checking
 * its exit status, its output and its JSON.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "check.h"
#include "harness.h"
#include "haptixd.h"
#include "hxctl_run.h"

/* The fixture's reference qpos (see fixture.xml), and its arguments. */
const double fixture_qpos0[9] = { 0, 0, 0.6, 0, 0.1, 1, 0, 0, 0 };
const char *const fixture_args[] = { "-m", "fixture.xml", "--paused", NULL };

/* The daemon a test started, and hxctls it left in the background. */
struct hx_server test_server;
pid_t holder, watcher;

/* Start haptixd with args; return its Unix socket address. */
const char *
start(const char *const *args)
{
	hx_server_start(&test_server, args);
	return hx_server_addr(&test_server, 0);
}

/* After every test, even a failed one: stop what it left running. */
void
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
void
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
void
expect_json_object(const char *s)
{
	const char *end;

	cr_assert_eq(s[0], '{', "not a JSON object: %s", s);
	end = js_value(s);
	cr_assert_not_null(end, "malformed JSON: %s", s);
	cr_assert_str_eq(end, "\n", "more than one object on one line: %s", s);
}

/* Run hxctl --json; expect success and one well-formed JSON object. */
void
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
pid_t
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
pid_t
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
int
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
int
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
void
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
void
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
int
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
void
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
void
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
void
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
void
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
double
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
int
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
void
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
double
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
int
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
