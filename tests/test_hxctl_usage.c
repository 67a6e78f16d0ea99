/*
 * Integration tests of hxctl (clients/hxctl.c) against a real haptixd on
 * models/test/fixture.xml, over the Unix socket and TCP: the command
 * line itself: exit status 1 without a server and for a failed call with
 * its reason, usage errors (exit status 2) before connecting, the help
 * and the version, the server from the environment, --timeout against a
 * silent server, a peer that is not haptixd named at once, "did you
 * mean" for mistyped names.
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

/*
 * Command lines that are usage errors.  With no server there, exit
 * status 2 proves nothing was sent.
 */
static const char *const usage_cases[][8] = {
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
	{ "step", "5", "--record", "qpos", "--record-every", "0", NULL },
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

Test(hxctl, usage_errors_exit_2_before_connecting)
{
	const char *argv[RUN_MAX_ARGS];
	struct hx_run r = { 0 };
	char what[256];
	size_t i, n;
	int k;

	for (i = 0; i < sizeof(usage_cases) / sizeof(usage_cases[0]); i++) {
		memset(argv, 0, sizeof(argv));
		n = 0;
		what[0] = '\0';
		for (k = 0; usage_cases[i][k] != NULL; k++) {
			argv[k] = usage_cases[i][k];
			n += (size_t)snprintf(what + n, sizeof(what) - n, "%s ",
			    usage_cases[i][k]);
		}
		argv[k] = NULL;
		hxctl(&r, "unix:/nonexistent/hxctl-test.sock", argv[0], argv[1],
		    argv[2], argv[3], argv[4], argv[5], argv[6], argv[7], NULL);
		expect_usage(&r, what);
	}
	hx_run_free(&r);
}

/* The commands the help must name. */
static const char *const help_commands[] = {
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

Test(hxctl, help_tells_of_every_command)
{
	struct hx_run r = { 0 };
	char pat[64];
	size_t i;

	hxctl(&r, NULL, "--help", NULL);
	expect_ok(&r);
	for (i = 0; i < sizeof(help_commands) / sizeof(help_commands[0]); i++) {
		snprintf(pat, sizeof(pat), "\n  %s ", help_commands[i]);
		cr_assert_not_null(strstr(r.out, pat),
		    "--help does not list "
		    "%s",
		    help_commands[i]);
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
