/*
 * What the tests of hxview serve in a real browser share: headless
 * Chromium driven by chromedriver over the WebDriver protocol (a minimal
 * HTTP/1.1 client), hxview serve started and stopped, the checks of what
 * the tests need (browser_main() exits 77, skipped with the reason, or
 * 1 when $CI is set: a CI run must not pass without them), and the
 * sweep of what a test that died left behind.
 *
 * Nothing is left running: chromedriver and Chromium share a process
 * group, which the tests kill whatever happens (their suite's .fini),
 * and which browser_main() kills if a test process itself died (a
 * crash, the timeout): stop_driver() writes the group's id to a file in
 * the run's directory (HX_BROWSER_DIR) and removes it once the group is
 * gone.  hxview and haptixd die with the test process
 * (PR_SET_PDEATHSIG).
 */
#include "config.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "browser.h"
#include "check.h"
#include "harness.h"
#include "haptixd.h"

/* Generous bounds for a loaded machine. */
#define START_SECONDS 30.0 /* hxview, chromedriver, Chromium */
#define CALL_SECONDS 60.0  /* one WebDriver call */

/* The run's directory (HX_BROWSER_DIR): logs, profiles. */
char run_dir[512];
pid_t hxview_pid;
char hxview_host[64]; /* where hxview said it serves, e.g. 127.0.0.1 */
int hxview_out = -1;  /* hxview's stdout */
pid_t driver_pid;     /* chromedriver, leader of its group */
int driver_port;
char session[128]; /* the WebDriver session in use, if any */

/* A file of the run's directory (static buffer, one per slot). */
const char *
run_file(int slot, const char *name)
{
	static char path[4][768];
	static pid_t made;
	char dir[600];

	/*
	 * Each test process (Criterion runs one a test, which does not
	 * inherit run_dir: it finds the directory in HX_BROWSER_DIR) a
	 * directory.
	 */
	if (run_dir[0] == '\0' && getenv("HX_BROWSER_DIR") != NULL)
		snprintf(
		    run_dir, sizeof(run_dir), "%s", getenv("HX_BROWSER_DIR"));
	snprintf(dir, sizeof(dir), "%s/%d", run_dir, (int)getpid());
	if (made != getpid()) {
		mkdir(dir, 0700);
		made = getpid();
	}
	snprintf(path[slot], sizeof(path[slot]), "%s/%s", dir, name);
	return path[slot];
}

/* The end of a log file, for failure messages (static buffer). */
const char *
log_tail(const char *path)
{
	static char buf[4096];
	FILE *f = fopen(path, "r");
	long size;
	size_t n;

	if (f == NULL) {
		snprintf(
		    buf, sizeof(buf), "(no %s: %s)", path, strerror(errno));
		return buf;
	}
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	if (size > (long)sizeof(buf) - 1)
		fseek(f, size - (long)sizeof(buf) + 1, SEEK_SET);
	else
		fseek(f, 0, SEEK_SET);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/*
 * Start argv[0] with stdout on out (or /dev/null if -1) and stderr in
 * the file err; in a process group of its own if group, and with
 * XDG_CONFIG_HOME set to config if not NULL.  It dies with the test.
 */
pid_t
spawn(const char *const *argv, int out, const char *err, int group,
    const char *config)
{
	pid_t pid = fork();
	int fd;

	cr_assert_neq(pid, -1, "fork: %s", strerror(errno));
	if (pid > 0) {
		if (group)
			setpgid(pid, pid); /* also here: no race with kill */
		return pid;
	}
	if (group)
		setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	fd = open("/dev/null", O_RDWR);
	dup2(fd, 0);
	dup2(out != -1 ? out : fd, 1);
	close(fd);
	fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd == -1)
		_exit(126);
	dup2(fd, 2);
	close(fd);
	if (config != NULL)
		setenv("XDG_CONFIG_HOME", config, 1);
	execv(argv[0], (char *const *)argv);
	_exit(127);
}

/* A free TCP port on the loopback address, for chromedriver. */
int
free_port(void)
{
	struct sockaddr_in a;
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), port;

	cr_assert_neq(fd, -1, "socket: %s", strerror(errno));
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	cr_assert_eq(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0, "bind: %s",
	    strerror(errno));
	cr_assert_eq(getsockname(fd, (struct sockaddr *)&a, &len), 0,
	    "getsockname: %s", strerror(errno));
	port = ntohs(a.sin_port);
	close(fd);
	return port;
}

/* The value of a header in the header block head, or NULL. */
static const char *
http_header(const char *head, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = strstr(head, "\r\n"); p != NULL; p = strstr(p, "\r\n")) {
		p += 2;
		if (strncasecmp(p, name, n) == 0 && p[n] == ':') {
			p += n + 1;
			while (*p == ' ' || *p == '\t')
				p++;
			return p;
		}
	}
	return NULL;
}

/* Undo chunked transfer coding in place; 0, or -1 if malformed. */
static int
http_dechunk(char *body)
{
	char *in = body, *out = body, *end;
	unsigned long n;

	for (;;) {
		n = strtoul(in, &end, 16);
		if (end == in || (end = strstr(end, "\r\n")) == NULL)
			return -1;
		in = end + 2;
		if (n == 0)
			break;
		if (strlen(in) < n + 2)
			return -1;
		memmove(out, in, n);
		out += n;
		in += n + 2;
	}
	*out = '\0';
	return 0;
}

/*
 * One HTTP/1.1 request to 127.0.0.1:port, with a JSON body or none.
 * Return the status code with the body in *body (the caller frees it),
 * or -1 with why filled in if it could not be sent or no whole answer
 * came within timeout seconds.
 */
int
http_call(int port, const char *method, const char *path, const char *json,
    double timeout, char **body, char *why, size_t wlen)
{
	double end = hx_wall_now() + timeout;
	struct sockaddr_in a;
	struct pollfd pfd;
	char *req = NULL, *buf = NULL, *head_end, *p;
	size_t len = 0, cap = 0, sent = 0, rlen;
	const char *v;
	int fd, code = -1, left;
	ssize_t n;

	*body = NULL;
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd == -1) {
		snprintf(why, wlen, "socket: %s", strerror(errno));
		return -1;
	}
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_port = htons((unsigned short)port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) != 0) {
		snprintf(
		    why, wlen, "connect to port %d: %s", port, strerror(errno));
		goto out;
	}
	if (asprintf(&req,
		"%s %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
		"Connection: close\r\nAccept: application/json\r\n"
		"Content-Type: application/json; charset=utf-8\r\n"
		"Content-Length: %zu\r\n\r\n%s",
		method, path, port, json != NULL ? strlen(json) : 0,
		json != NULL ? json : "") < 0) {
		req = NULL;
		snprintf(why, wlen, "out of memory");
		goto out;
	}
	rlen = strlen(req);
	pfd.fd = fd;
	while (sent < rlen) {
		pfd.events = POLLOUT;
		left = (int)((end - hx_wall_now()) * 1e3);
		if (left <= 0 || poll(&pfd, 1, left) <= 0) {
			snprintf(
			    why, wlen, "cannot send within %.0f s", timeout);
			goto out;
		}
		n = send(fd, req + sent, rlen - sent, MSG_NOSIGNAL);
		if (n < 0 && errno != EINTR && errno != EAGAIN) {
			snprintf(why, wlen, "send: %s", strerror(errno));
			goto out;
		}
		if (n > 0)
			sent += (size_t)n;
	}
	/* To the end of the connection, or of the body's length. */
	for (;;) {
		if (cap - len < 4096) {
			cap = cap * 2 + 8192;
			if ((p = realloc(buf, cap)) == NULL) {
				snprintf(why, wlen, "out of memory");
				goto out;
			}
			buf = p;
		}
		buf[len] = '\0';
		head_end = strstr(buf, "\r\n\r\n");
		if (head_end != NULL &&
		    (v = http_header(buf, "Content-Length")) != NULL &&
		    (size_t)(head_end + 4 - buf) + strtoul(v, NULL, 10) <= len)
			break;
		pfd.events = POLLIN;
		left = (int)((end - hx_wall_now()) * 1e3);
		if (left <= 0 || poll(&pfd, 1, left) <= 0) {
			snprintf(why, wlen, "no whole answer within %.0f s",
			    timeout);
			goto out;
		}
		n = recv(fd, buf + len, cap - len - 1, 0);
		if (n == 0)
			break;
		if (n < 0 && errno != EINTR && errno != EAGAIN) {
			snprintf(why, wlen, "recv: %s", strerror(errno));
			goto out;
		}
		if (n > 0)
			len += (size_t)n;
	}
	if (sscanf(buf, "HTTP/1.%*c %d", &code) != 1 ||
	    (head_end = strstr(buf, "\r\n\r\n")) == NULL) {
		snprintf(why, wlen, "not an HTTP answer: %.200s", buf);
		code = -1;
		goto out;
	}
	*head_end = '\0';
	v = http_header(buf, "Transfer-Encoding");
	if (v != NULL && strncasecmp(v, "chunked", 7) == 0 &&
	    http_dechunk(head_end + 4) != 0) {
		snprintf(why, wlen, "malformed chunked answer");
		code = -1;
		goto out;
	}
	*body = strdup(head_end + 4);
	if (*body == NULL) {
		snprintf(why, wlen, "out of memory");
		code = -1;
	}
out:
	free(req);
	free(buf);
	close(fd);
	return code;
}

/* s as a JSON string, quoted (the caller frees it). */
char *
json_quote(const char *s)
{
	char *out = malloc(strlen(s) * 6 + 3), *o = out;

	cr_assert_not_null(out);
	*o++ = '"';
	for (; *s != '\0'; s++) {
		if (*s == '"' || *s == '\\') {
			*o++ = '\\';
			*o++ = *s;
		} else if (*s == '\n') {
			*o++ = '\\';
			*o++ = 'n';
		} else if ((unsigned char)*s < 0x20) {
			o += sprintf(o, "\\u%04x", (unsigned char)*s);
		} else {
			*o++ = *s;
		}
	}
	*o++ = '"';
	*o = '\0';
	return out;
}

/*
 * The string that key has (the first such key) in json, into out;
 * 0, or -1 if there is none.  \n and \t are unescaped, and any other
 * escaped character is kept as it is (\u0041 is "u0041"): enough for
 * what this test reads.
 */
int
json_string(const char *json, const char *key, char *out, size_t len)
{
	char pat[128];
	const char *p;
	size_t n = 0;

	snprintf(pat, sizeof(pat), "\"%s\"", key);
	if ((p = strstr(json, pat)) == NULL)
		return -1;
	p += strlen(pat);
	while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
		p++;
	if (*p++ != ':')
		return -1;
	while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
		p++;
	if (*p++ != '"')
		return -1;
	for (; *p != '"'; p++) {
		if (*p == '\0')
			return -1;
		if (*p == '\\' && p[1] != '\0') {
			p++;
			out[n] = *p == 'n' ? '\n' : *p == 't' ? '\t' : *p;
		} else {
			out[n] = *p;
		}
		if (n < len - 1)
			n++;
	}
	out[n] = '\0';
	return 0;
}

/* A WebDriver call that must answer 200 OK; the body (caller frees). */
char *
wd(const char *method, const char *path, const char *json)
{
	char why[512], *body;
	int code;

	code = http_call(driver_port, method, path, json, CALL_SECONDS, &body,
	    why, sizeof(why));
	cr_assert_neq(code, -1, "WebDriver %s %s: %s", method, path, why);
	cr_assert_eq(code, 200, "WebDriver %s %s: HTTP %d: %.2000s", method,
	    path, code, body);
	return body;
}

/* Run script in the page; what it returns (a string) into out. */
void
run_script(const char *script, char *out, size_t len)
{
	char path[256], *req, *quoted = json_quote(script), *body;

	cr_assert(asprintf(&req, "{\"script\":%s,\"args\":[]}", quoted) > 0);
	snprintf(path, sizeof(path), "/session/%s/execute/sync", session);
	body = wd("POST", path, req);
	cr_assert(json_string(body, "value", out, len) == 0,
	    "the script returned no string: %.2000s", body);
	free(body);
	free(req);
	free(quoted);
}

/*
 * Start hxview serve as argv says (--http ADDRESS:0); return the port
 * it says it listens on, the address in hxview_host.
 */
int
start_hxview_argv(const char *const *argv)
{
	const char *log = run_file(0, "hxview.log");
	char buf[4096], *line, *p;
	double end = hx_wall_now() + START_SECONDS;
	size_t len = 0;
	struct pollfd pfd;
	int fds[2], port;
	ssize_t n;

	cr_assert_eq(pipe2(fds, O_CLOEXEC), 0, "pipe: %s", strerror(errno));
	hxview_pid = spawn(argv, fds[1], log, 0, NULL);
	close(fds[1]);
	hxview_out = fds[0];
	buf[0] = '\0';
	while ((line = strstr(buf, "hxview: serving http")) == NULL ||
	    strchr(line, '\n') == NULL) {
		cr_assert(
		    len < sizeof(buf) - 1, "hxview said too much:\n%s", buf);
		pfd.fd = hxview_out;
		pfd.events = POLLIN;
		cr_assert(hx_wall_now() < end &&
			poll(&pfd, 1, (int)((end - hx_wall_now()) * 1e3)) > 0,
		    "hxview serve did not say where it serves within %.0f s; "
		    "stdout:\n%s\nstderr:\n%s",
		    START_SECONDS, buf, log_tail(log));
		n = read(hxview_out, buf + len, sizeof(buf) - 1 - len);
		cr_assert(n > 0,
		    "hxview serve stopped before it served; stdout:\n%s\n"
		    "stderr:\n%s",
		    buf, log_tail(log));
		len += (size_t)n;
		buf[len] = '\0';
	}
	/* http:// or, over TLS, https:// */
	line += strlen("hxview: serving http");
	line += strncmp(line, "s://", 4) == 0 ? 4 : 3;
	p = strchr(line, '/');
	while (p != NULL && p > line && p[-1] != ':')
		p--;
	cr_assert(p != NULL && p > line + 1 &&
		(size_t)(p - 1 - line) < sizeof(hxview_host),
	    "hxview did not say where it serves: %s", line);
	memcpy(hxview_host, line, (size_t)(p - 1 - line));
	hxview_host[p - 1 - line] = '\0';
	line = p;
	port = (int)strtol(line, &p, 10);
	cr_assert(port > 0 && port < 65536 && *p == '/',
	    "hxview did not say its real port: %s", line);
	return port;
}

/* Stop hxview (SIGTERM, then SIGKILL); its wait status, or -1. */
int
stop_hxview(void)
{
	int status = -1, i;
	pid_t r = 0;

	if (hxview_pid > 0) {
		kill(hxview_pid, SIGTERM);
		for (i = 0; i < 1000; i++) {
			r = waitpid(hxview_pid, &status, WNOHANG);
			if (r == hxview_pid)
				break;
			hx_sleep_ms(10);
		}
		if (r != hxview_pid) {
			kill(hxview_pid, SIGKILL);
			waitpid(hxview_pid, &status, 0);
			status = -1;
		}
		hxview_pid = 0;
	}
	if (hxview_out != -1) {
		close(hxview_out);
		hxview_out = -1;
	}
	return status;
}

/* Start chromedriver on a free port; wait until it is ready. */
void
start_driver(void)
{
	const char *exe = getenv("CHROMEDRIVER");
	const char *log = run_file(0, "chromedriver.log");
	const char *err = run_file(1, "chromedriver.err");
	char port_arg[32], log_arg[800], config[800], why[256], *body;
	const char *argv[] = { exe, port_arg, log_arg, NULL };
	double end;
	int attempt, code, ready, status = 0;
	FILE *f;

	cr_assert(exe != NULL && exe[0] != '\0',
	    "CHROMEDRIVER is not set: run this test through its main()");
	snprintf(log_arg, sizeof(log_arg), "--log-path=%s", log);
	/* Chromium's crash reports: in the run's directory, not ~/.config. */
	snprintf(config, sizeof(config), "%s", run_file(2, "config"));
	/* Another program may take the port first: then try another. */
	for (attempt = 0; attempt < 3; attempt++) {
		driver_port = free_port();
		snprintf(port_arg, sizeof(port_arg), "--port=%d", driver_port);
		driver_pid = spawn(argv, -1, err, 1, config);
		f = fopen(run_file(3, "driver.pgid"), "w");
		cr_assert_not_null(
		    f, "%s: %s", run_file(3, "driver.pgid"), strerror(errno));
		fprintf(f, "%d\n", (int)driver_pid);
		fclose(f);
		end = hx_wall_now() + START_SECONDS;
		ready = 0;
		while (!ready && hx_wall_now() < end) {
			if (waitpid(driver_pid, &status, WNOHANG) ==
			    driver_pid) {
				driver_pid = 0; /* it started no browser */
				unlink(run_file(3, "driver.pgid"));
				break;
			}
			code = http_call(driver_port, "GET", "/status", NULL, 5,
			    &body, why, sizeof(why));
			ready = code == 200 &&
			    strstr(body, "\"ready\":true") != NULL;
			free(body);
			if (!ready)
				hx_sleep_ms(100);
		}
		if (ready)
			return;
		cr_assert_eq(driver_pid, 0,
		    "chromedriver was not ready within %.0f s; its log:\n%s",
		    START_SECONDS, log_tail(log));
	}
	cr_assert_fail("chromedriver exited before it was ready, three "
		       "times (last status %d); its stderr:\n%s",
	    status, log_tail(err));
}

/*
 * End the session, politely if it can, and kill what is left of
 * chromedriver's group: chromedriver, and Chromium's processes.
 */
void
stop_driver(void)
{
	char path[256], why[256], *body;
	siginfo_t si;
	int i;

	if (driver_pid <= 0)
		return;
	if (session[0] != '\0') {
		snprintf(path, sizeof(path), "/session/%s", session);
		session[0] = '\0';
		http_call(driver_port, "DELETE", path, NULL, 20, &body, why,
		    sizeof(why));
		free(body);
	}
	kill(-driver_pid, SIGTERM);
	for (i = 0; i < 500; i++) {
		memset(&si, 0, sizeof(si));
		if (waitid(P_PID, (id_t)driver_pid, &si,
			WEXITED | WNOHANG | WNOWAIT) != 0 ||
		    si.si_pid == driver_pid)
			break;
		hx_sleep_ms(10);
	}
	/* Before the reaping: the group's id cannot be anyone else's. */
	kill(-driver_pid, SIGKILL);
	waitpid(driver_pid, NULL, 0);
	driver_pid = 0;
	unlink(run_file(3, "driver.pgid"));
}

/* A new session of headless Chromium. */
void
open_session(void)
{
	open_session_with(NULL);
}

/* The same, with more of Chromium's arguments (JSON strings, comma
 * separated), or NULL. */
void
open_session_with(const char *more)
{
	static int profiles;
	const char *exe = getenv("CHROMIUM");
	char arg[800], name[32], *binary, *profile, *req, *body;

	cr_assert(exe != NULL && exe[0] != '\0',
	    "CHROMIUM is not set: run this test through its main()");
	/* A profile of its own: two browsers at once cannot share one. */
	snprintf(name, sizeof(name), "profile-%d", profiles++);
	snprintf(arg, sizeof(arg), "--user-data-dir=%s", run_file(0, name));
	binary = json_quote(exe);
	profile = json_quote(arg);
	/*
	 * Root needs --no-sandbox.  Eager: a navigation returns once the
	 * document is parsed, not waiting for an image that never ends.
	 */
	cr_assert(asprintf(&req,
		      "{\"capabilities\":{\"alwaysMatch\":{"
		      "\"pageLoadStrategy\":\"eager\","
		      "\"goog:chromeOptions\":{\"binary\":%s,\"args\":["
		      "\"--headless\",\"--no-sandbox\",\"--disable-gpu\","
		      "\"--disable-dev-shm-usage\",%s%s%s]}}}}",
		      binary, profile, more != NULL ? "," : "",
		      more != NULL ? more : "") > 0);
	body = wd("POST", "/session", req);
	cr_assert(
	    json_string(body, "sessionId", session, sizeof(session)) == 0 &&
		session[0] != '\0',
	    "no session in: %.2000s", body);
	free(body);
	free(req);
	free(binary);
	free(profile);
}

/* Close the session (Chromium quits), asserting that it could. */
void
close_session(void)
{
	char path[256];

	snprintf(path, sizeof(path), "/session/%s", session);
	free(wd("DELETE", path, NULL));
	session[0] = '\0';
}

/* The path of an executable program: name, or found in PATH. */
static int
find_program(const char *name, char *out, size_t len)
{
	const char *path = getenv("PATH"), *p, *colon;
	struct stat st;
	size_t n;

	if (strchr(name, '/') != NULL) {
		snprintf(out, len, "%s", name);
		return stat(out, &st) == 0 && S_ISREG(st.st_mode) &&
			access(out, X_OK) == 0 ?
		    0 :
		    -1;
	}
	for (p = path != NULL ? path : "/usr/bin:/bin"; *p != '\0';
	     p = *colon != '\0' ? colon + 1 : colon) {
		colon = strchrnul(p, ':');
		n = (size_t)(colon - p);
		snprintf(out, len, "%.*s/%s", (int)n, n > 0 ? p : ".", name);
		if (stat(out, &st) == 0 && S_ISREG(st.st_mode) &&
		    access(out, X_OK) == 0)
			return 0;
	}
	return -1;
}

/*
 * Run argv to its end (at most timeout seconds), its stdout in out and
 * stderr in err; return its exit status, or -1 if it could not run or
 * did not end.
 */
static int
run_capture(const char *const *argv, double timeout, char *out, size_t olen,
    char *err, size_t elen)
{
	FILE *fo = tmpfile(), *fe = tmpfile();
	double end = hx_wall_now() + timeout;
	int status = -1;
	pid_t pid, r;
	size_t n;

	out[0] = err[0] = '\0';
	if (fo == NULL || fe == NULL)
		goto out;
	pid = fork();
	if (pid == -1) {
		snprintf(err, elen, "fork: %s", strerror(errno));
		goto out;
	}
	if (pid == 0) {
		dup2(fileno(fo), 1);
		dup2(fileno(fe), 2);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	while ((r = waitpid(pid, &status, WNOHANG)) == 0 && hx_wall_now() < end)
		hx_sleep_ms(10);
	if (r != pid) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		snprintf(err, elen, "it did not end within %.0f s", timeout);
		status = -1;
		goto out;
	}
	status = WIFEXITED(status) ? WEXITSTATUS(status) :
				     128 + WTERMSIG(status);
	rewind(fo);
	n = fread(out, 1, olen - 1, fo);
	out[n] = '\0';
	rewind(fe);
	n = fread(err, 1, elen - 1, fe);
	err[n] = '\0';
	out[strcspn(out, "\n")] = '\0';
	err[strcspn(err, "\n")] = '\0';
out:
	if (fo != NULL)
		fclose(fo);
	if (fe != NULL)
		fclose(fe);
	return status;
}

/*
 * The major version in "Chromium 120.0.6099.224 ..." or "ChromeDriver
 * 120.0.6099.224 (...)", or -1 if the text is not such.
 */
static int
major_version(const char *text)
{
	const char *p;

	if (strstr(text, "Chrom") == NULL)
		return -1;
	for (p = text; *p != '\0'; p++) {
		if ((p == text || p[-1] == ' ') && *p >= '1' && *p <= '9' &&
		    strchr(p, '.') == p + strspn(p, "0123456789"))
			return atoi(p);
	}
	return -1;
}

/*
 * Find a browser program, from $env or the names in PATH; set $env to
 * its path.  0, or -1 with why filled in.
 */
static int
find_browser_program(const char *env, const char *const *names,
    const char *package, char *why, size_t len)
{
	const char *given = getenv(env);
	char path[4096];
	int i;

	if (given != NULL && given[0] != '\0') {
		if (find_program(given, path, sizeof(path)) != 0) {
			snprintf(why, len,
			    "$%s (%s) is not an executable program (Debian "
			    "package %s)",
			    env, given, package);
			return -1;
		}
	} else {
		for (i = 0; names[i] != NULL; i++) {
			if (find_program(names[i], path, sizeof(path)) == 0)
				break;
		}
		if (names[i] == NULL) {
			snprintf(why, len,
			    "no %s in PATH: install the Debian package %s, or "
			    "name the program in $%s",
			    names[0], package, env);
			return -1;
		}
	}
	setenv(env, path, 1);
	return 0;
}

/* 0 if everything the test needs is here, else -1 with why filled in. */
int
prerequisites(char *why, size_t len)
{
	static const char *const chromium[] = { "chromium", "chromium-browser",
		NULL };
	static const char *const driver[] = { "chromedriver", NULL };
	const char *argv[3];
	char out[512], err[512], dout[512];
	int rc, mb, md;

	argv[0] = getenv("HXVIEW");
	argv[1] = "egl";
	argv[2] = NULL;
	rc = run_capture(argv, 60, out, sizeof(out), err, sizeof(err));
	if (rc != 0) {
		out[0] = '\0';
		if (rc != -1)
			snprintf(out, sizeof(out), "exit status %d: ", rc);
		snprintf(why, len,
		    "hxview cannot render here (%s egl: %s%s): it needs an "
		    "EGL driver, e.g. Mesa's with its software renderer "
		    "(Debian packages libegl1, libegl-mesa0 and "
		    "libgl1-mesa-dri)",
		    argv[0], out, err[0] != '\0' ? err : "no reason given");
		return -1;
	}
	if (find_browser_program("CHROMIUM", chromium, "chromium", why, len) !=
		0 ||
	    find_browser_program(
		"CHROMEDRIVER", driver, "chromium-driver", why, len) != 0)
		return -1;
	/* chromedriver drives one major version of the browser. */
	argv[1] = "--version";
	argv[0] = getenv("CHROMIUM");
	mb = run_capture(argv, 30, out, sizeof(out), err, sizeof(err)) == 0 ?
	    major_version(out) :
	    -1;
	argv[0] = getenv("CHROMEDRIVER");
	md = run_capture(argv, 30, dout, sizeof(dout), err, sizeof(err)) == 0 ?
	    major_version(dout) :
	    -1;
	if (mb > 0 && md > 0 && mb != md) {
		snprintf(why, len,
		    "%s drives version %d of the browser, but %s is version "
		    "%d: install the Debian packages chromium and "
		    "chromium-driver of the same version",
		    getenv("CHROMEDRIVER"), md, getenv("CHROMIUM"), mb);
		return -1;
	}
	return 0;
}

/* nftw callback: remove one entry of the run's directory. */
static int
remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	remove(path);
	return 0;
}

/* After the tests: kill a browser a dead test left, remove the files. */
static void
sweep(const char *dir)
{
	char path[1200];
	struct dirent *e;
	DIR *d;
	FILE *f;
	int pgid;

	/* A test process's directory each. */
	if ((d = opendir(dir)) != NULL) {
		while ((e = readdir(d)) != NULL) {
			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s/driver.pgid", dir,
			    e->d_name);
			if ((f = fopen(path, "r")) == NULL)
				continue;
			if (fscanf(f, "%d", &pgid) == 1 && pgid > 1) {
				kill(-pgid, SIGKILL);
				fprintf(stderr,
				    "killed chromedriver and Chromium "
				    "(process group %d), left by a test "
				    "that died\n",
				    pgid);
				hx_sleep_ms(500); /* before the files go */
			}
			fclose(f);
		}
		closedir(d);
	}
	nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int
browser_main(int argc, char *argv[], const char *name)
{
	struct criterion_test_set *tests = criterion_initialize();
	char why[2048], dir[] = "/tmp/hxbrowser.XXXXXX";
	const char *ci = getenv("CI");
	int rc = 0;

	if (!criterion_handle_args(argc, argv, true)) {
		criterion_finalize(tests);
		return 0;
	}
	if (getenv("HXVIEW") == NULL || getenv("HXVIEW")[0] == '\0') {
		fprintf(stderr,
		    "%s: HXVIEW is not set: run the tests with make check\n",
		    name);
		criterion_finalize(tests);
		return 99;
	}
	if (prerequisites(why, sizeof(why)) != 0) {
		criterion_finalize(tests);
		/* CI installs everything (quickstart check): a skip there
		 * would hide that the browser tests never ran. */
		if (ci != NULL && ci[0] != '\0' && strcmp(ci, "false") != 0) {
			fprintf(stderr, "%s: FAIL: $CI is set, and %s\n", name,
			    why);
			return 1;
		}
		fprintf(stderr, "SKIP: %s\n", why);
		return 77;
	}
	if (mkdtemp(dir) == NULL) {
		fprintf(stderr, "%s: mkdtemp: %s\n", name, strerror(errno));
		criterion_finalize(tests);
		return 99;
	}
	setenv("HX_BROWSER_DIR", dir, 1);
	snprintf(run_dir, sizeof(run_dir), "%s", dir);
	rc = criterion_run_all_tests(tests) ? 0 : 1;
	criterion_finalize(tests);
	sweep(dir);
	return rc;
}

void
browser_cleanup(hxd_conn **watch)
{
	if (*watch != NULL) {
		hxd_close(*watch);
		*watch = NULL;
	}
	stop_driver();
	stop_hxview();
	hx_server_cleanup();
}

const char *
js(const char *script)
{
	static char out[8192];

	run_script(script, out, sizeof(out));
	return out;
}

void
wait_for(const char *script, double seconds, const char *what)
{
	double end = hx_wall_now() + seconds;
	const char *r;

	for (;;) {
		r = js(script);
		if (strcmp(r, "yes") == 0)
			return;
		cr_assert(hx_wall_now() < end,
		    "%s: not within %.0f s (%s); hxview's log:\n%s", what,
		    seconds, r, log_tail(run_file(0, "hxview.log")));
		hx_sleep_ms(100);
	}
}

int
http_post_page(int port, const char *path, const void *body, size_t blen,
    char *out, size_t len)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	char req[1024];
	ssize_t n;
	size_t got = 0;
	int fd, code = -1;

	a.sin_port = htons((uint16_t)port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	cr_assert(fd >= 0);
	cr_assert_eq(connect(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	snprintf(req, sizeof(req),
	    "POST %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nX-Hxview: 1\r\n"
	    "Content-Type: application/octet-stream\r\n"
	    "Content-Length: %zu\r\nConnection: close\r\n\r\n",
	    path, port, blen);
	cr_assert_eq(write(fd, req, strlen(req)), (ssize_t)strlen(req));
	if (blen > 0)
		(void)!send(fd, body, blen, MSG_NOSIGNAL);
	while (got + 1 < len && (n = read(fd, out + got, len - 1 - got)) > 0)
		got += (size_t)n;
	out[got] = '\0';
	close(fd);
	cr_assert_eq(sscanf(out, "HTTP/1.%*d %d", &code), 1, "%s", out);
	return code;
}

/* The WebDriver id of the page's element matching css. */
static void
element(const char *css, char *id, size_t len)
{
	char path[256], *req, *body, *quoted = json_quote(css);

	cr_assert(asprintf(&req, "{\"using\":\"css selector\",\"value\":%s}",
		      quoted) > 0);
	snprintf(path, sizeof(path), "/session/%s/element", session);
	body = wd("POST", path, req);
	cr_assert(json_string(body, "element-6066-11e4-a52e-4f735466cecf", id,
		      len) == 0,
	    "no element %s: %.500s", css, body);
	free(body);
	free(req);
	free(quoted);
}

void
choose_file(const char *css, const char *file)
{
	char id[128], path[512], *req, *quoted;

	element(css, id, sizeof(id));
	quoted = json_quote(file);
	cr_assert(asprintf(&req, "{\"text\":%s}", quoted) > 0);
	snprintf(
	    path, sizeof(path), "/session/%s/element/%s/value", session, id);
	free(wd("POST", path, req));
	free(req);
	free(quoted);
}

void
open_url(const char *url)
{
	char path[256], *req, *quoted = json_quote(url);

	cr_assert(asprintf(&req, "{\"url\":%s}", quoted) > 0);
	snprintf(path, sizeof(path), "/session/%s/url", session);
	free(wd("POST", path, req));
	free(req);
	free(quoted);
}
