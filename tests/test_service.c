/*
 * haptixd as a systemd service, with no systemd running: the settings
 * file, the notifications read from a NOTIFY_SOCKET the test creates,
 * the watchdog, SIGHUP reloads with clients connected, a clean SIGTERM,
 * socket activation through systemd-socket-activate, and the journal's
 * priority prefixes.
 */
#include "config.h"

#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "check.h"
#include "harness.h"
#include "haptixd.h"
#include "rawclient.h"

TestSuite(service, .fini = hx_server_cleanup);

/*---------------------------------------------------------- notify socket */

struct notify {
	int fd;
	char dir[64];
	char path[96];
	char env[128];       /* "NOTIFY_SOCKET=PATH" */
	const char *envp[2]; /* env, NULL: for the daemon */
};

/* A datagram socket standing in for systemd's notification socket. */
static void
notify_open(struct notify *n)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };

	snprintf(n->dir, sizeof(n->dir), "/tmp/hxnotify.XXXXXX");
	cr_assert_not_null(mkdtemp(n->dir));
	snprintf(n->path, sizeof(n->path), "%s/notify", n->dir);
	snprintf(n->env, sizeof(n->env), "NOTIFY_SOCKET=%s", n->path);
	n->envp[0] = n->env;
	n->envp[1] = NULL;
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", n->path);
	n->fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	cr_assert_neq(n->fd, -1);
	cr_assert_eq(bind(n->fd, (struct sockaddr *)&sun, sizeof(sun)), 0,
	    "bind %s: %s", n->path, strerror(errno));
}

static void
notify_close(struct notify *n)
{
	close(n->fd);
	unlink(n->path);
	rmdir(n->dir);
}

/* The next notification within ms, into buf; 0 if none came. */
static int
notify_recv(struct notify *n, char *buf, size_t len, int ms)
{
	struct pollfd p = { .fd = n->fd, .events = POLLIN };
	ssize_t r;

	if (poll(&p, 1, ms) <= 0)
		return 0;
	r = recv(n->fd, buf, len - 1, 0);
	cr_assert_gt(r, 0, "recv: %s", strerror(errno));
	buf[r] = '\0';
	return 1;
}

/*
 * Wait up to ms for a notification containing text; keep it in buf.
 * Every notification read on the way is appended to seen (may be NULL).
 */
static int
notify_wait(struct notify *n, const char *text, char *buf, size_t len, int ms,
    char *seen, size_t seenlen)
{
	double end = hx_wall_now() + ms / 1000.0;
	int left;

	while ((left = (int)((end - hx_wall_now()) * 1000)) > 0) {
		if (!notify_recv(n, buf, len, left))
			break;
		if (seen != NULL)
			snprintf(seen + strlen(seen), seenlen - strlen(seen),
			    "[%s]", buf);
		if (strstr(buf, text) != NULL)
			return 1;
	}
	return 0;
}

/* Count the notifications containing text over ms. */
static int
notify_count(struct notify *n, const char *text, int ms)
{
	double end = hx_wall_now() + ms / 1000.0;
	char buf[2048];
	int left, count = 0;

	while ((left = (int)((end - hx_wall_now()) * 1000)) > 0) {
		if (notify_recv(n, buf, sizeof(buf), left) &&
		    strstr(buf, text) != NULL)
			count++;
	}
	return count;
}

/*------------------------------------------------------ daemons by hand */

/* Wait up to ms for the log to contain text. */
static int
log_wait(const struct hx_server *s, const char *text, int ms)
{
	double end = hx_wall_now() + ms / 1000.0;

	while (hx_wall_now() < end) {
		if (hx_server_log_has(s, text))
			return 1;
		hx_sleep_ms(10);
	}
	return 0;
}

/* Wait up to ms for the daemon to exit; its status, or -1. */
static int
exit_wait(struct hx_server *s, int ms)
{
	double end = hx_wall_now() + ms / 1000.0;
	int status;

	while (hx_wall_now() < end) {
		if (waitpid(s->pid, &status, WNOHANG) == s->pid) {
			s->pid = 0;
			return status;
		}
		hx_sleep_ms(10);
	}
	return -1;
}

/* A TCP port free right now on loopback. */
static int
free_port(void)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	socklen_t len = sizeof(sin);
	int fd = socket(AF_INET, SOCK_STREAM, 0), port;

	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	cr_assert_eq(bind(fd, (struct sockaddr *)&sin, sizeof(sin)), 0);
	cr_assert_eq(getsockname(fd, (struct sockaddr *)&sin, &len), 0);
	port = ntohs(sin.sin_port);
	close(fd);
	return port;
}

/* Write a settings file. */
static void
write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	cr_assert_not_null(f, "%s: %s", path, strerror(errno));
	fputs(text, f);
	fclose(f);
}

/* The path of systemd-socket-activate, or NULL when it is missing. */
static const char *
socket_activate_path(void)
{
	static const char *const paths[] = { "/usr/bin/systemd-socket-activate",
		"/bin/systemd-socket-activate", NULL };
	int i;

	for (i = 0; paths[i] != NULL; i++) {
		if (access(paths[i], X_OK) == 0)
			return paths[i];
	}
	return NULL;
}

/*------------------------------------------------------- notifications */

/*
 * READY=1 comes only once the model is loaded and both listeners accept:
 * a client connecting the moment it arrives is served.  The status line
 * names the model.
 */
Test(service, ready_only_once_listeners_accept, .timeout = 60)
{
	struct notify n;
	struct hx_server s;
	const char *argv[] = { hx_haptixd_path(), "--config", "none", "-M",
		getenv("HX_TEST_MODELS"), "-m", "fixture.xml", "--unix", NULL,
		"--tcp", NULL, NULL };
	char buf[2048], seen[8192] = "", tcp[64], sock[300];
	hxd_conn *c;
	hxd_status st;

	notify_open(&n);
	hx_server_prepare(&s);
	snprintf(sock, sizeof(sock), "%s/hx.sock", s.dir);
	snprintf(tcp, sizeof(tcp), "127.0.0.1:%d", free_port());
	argv[8] = sock;
	argv[10] = tcp;
	hx_server_launch(&s, argv, n.envp, 0);
	cr_assert(notify_wait(&n, "READY=1", buf, sizeof(buf), 20000, seen,
		      sizeof(seen)),
	    "no READY=1; got %s; log:\n%s", seen, hx_server_log_text(&s));
	/* The first thing said is READY: nothing before it. */
	cr_expect(strncmp(seen, "[READY=1", 8) == 0, "before READY: %s", seen);
	c = hxd_connect(s.unix_addr, "at-ready");
	cr_expect_eq(hxd_result(c), HXD_OK, "the Unix socket at READY: %s",
	    hxd_error(c));
	hxd_close(c);
	c = hxd_connect(tcp, "at-ready");
	cr_expect_eq(hxd_result(c), HXD_OK, "TCP at READY: %s", hxd_error(c));
	st = hx_status_ok(c);
	hxd_close(c);
	cr_expect_str_eq(st.model.name, "fixture");
	cr_expect(strstr(buf, "STATUS=model \"fixture\"") != NULL,
	    "READY's status line: %s", buf);
	cr_expect(strstr(buf, "clients") != NULL, "READY's status: %s", buf);
	hx_server_stop(&s);
	notify_close(&n);
}

/*
 * WATCHDOG=1 comes from the daemon's own loop at half of WATCHDOG_USEC,
 * and keeps coming while a long batch run works (it yields to the loop
 * between slices); without WATCHDOG_USEC, none comes.
 */
Test(service, watchdog_pings_at_half_the_interval, .timeout = 60)
{
	static const char *const args[] = { "-m", "fixture.xml", "--paused",
		NULL };
	struct notify n;
	struct hx_server s;
	Haptix__V1__Batch w = HAPTIX__V1__BATCH__INIT;
	const char *env[3];
	hxd_status st;
	hxd_conn *c;
	int pings, during, fd;

	notify_open(&n);
	env[0] = n.env;
	env[1] = "WATCHDOG_USEC=400000";
	env[2] = NULL;
	cr_assert_eq(hx_server_try_start_env(&s, args, env), -1);
	/* 200 ms apart: about 10 in 2 s; generous for a shared machine. */
	pings = notify_count(&n, "WATCHDOG=1", 2000);
	cr_expect(pings >= 5 && pings <= 14, "%d pings in 2 s", pings);

	/* A batch of 50 million steps: minutes of work, in slices. */
	w.steps = 50000000;
	fd = raw_batch_client(s.unix_addr, "batch", &w, 2);
	during = notify_count(&n, "WATCHDOG=1", 1500);
	c = hx_connect_ok(s.unix_addr, "watcher");
	st = hx_status_ok(c);
	cr_expect_neq(st.batch_session, 0, "the batch was not running");
	cr_expect(during >= 3, "%d pings in 1.5 s of a batch run", during);
	hxd_close(c);
	close(fd);
	hx_server_stop(&s);
	/* What the first daemon sent last is not the second's. */
	(void)notify_count(&n, "WATCHDOG=1", 100);

	cr_assert_eq(
	    hx_server_try_start_env(&s, args, (const char *[]){ n.env, NULL }),
	    -1);
	pings = notify_count(&n, "WATCHDOG=1", 1000);
	cr_expect_eq(pings, 0, "%d pings without WATCHDOG_USEC", pings);
	hx_server_stop(&s);
	notify_close(&n);
}

/*
 * SIGTERM with clients connected: STOPPING=1, a call waiting for the API
 * tick is answered, every client sees the end, and the daemon exits with
 * status 0 within a few seconds though no client closes its end.
 */
Test(service, sigterm_with_clients_ends_cleanly_and_in_time, .timeout = 60)
{
	/* One API tick per 100 s of wall time: the update waits. */
	static const char *const args[] = { "-m", "fixture.xml", "--speed",
		"0.01", "--api-rate", "1", NULL };
	Haptix__V1__Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__Update u = HAPTIX__V1__UPDATE__INIT;
	Haptix__V1__Response *resp;
	hxd_subscription sub = { .fields = HXD_FIELDS(HXD_FIELD_QPOS),
		.every_steps = 1,
		.events = 1 };
	struct notify n;
	struct hx_server s;
	char buf[2048];
	hxd_conn *idle, *streamer;
	hxd_status st;
	hxd_event *ev;
	double t0, took;
	int fd, status, rc;

	notify_open(&n);
	cr_assert_eq(hx_server_try_start_env(&s, args, n.envp), -1);
	idle = hx_connect_ok(s.tcp_addr, "idle");
	streamer = hx_connect_ok(s.unix_addr, "streamer");
	HX_OK(streamer, hxd_subscribe(streamer, &sub, NULL));
	fd = raw_connect(s.unix_addr);
	cr_assert_eq(raw_hello(fd, "waiting"), 0);
	req.id = 7;
	req.call_case = HAPTIX__V1__REQUEST__CALL_UPDATE;
	req.update = &u;
	raw_send_request(fd, &req);
	cr_assert_null(raw_recv(fd, 300), "the update did not wait");
	cr_assert(notify_wait(&n, "READY=1", buf, sizeof(buf), 5000, NULL, 0));

	t0 = hx_wall_now();
	kill(s.pid, SIGTERM);
	cr_expect(
	    notify_wait(&n, "STOPPING=1", buf, sizeof(buf), 5000, NULL, 0),
	    "no STOPPING=1");
	resp = raw_recv(fd, 5000);
	cr_assert_not_null(resp, "the waiting update got no answer");
	cr_expect_eq(resp->id, 7);
	cr_expect_eq(resp->result, 0, "%s", resp->error);
	cr_expect_eq(resp->payload_case, HAPTIX__V1__RESPONSE__PAYLOAD_SENSOR);
	haptix__v1__response__free_unpacked(resp, NULL);
	cr_expect(raw_closed(fd, 5000), "the waiting client was not closed");
	status = exit_wait(&s, 10000);
	took = hx_wall_now() - t0;
	cr_assert_neq(status, -1, "haptixd still runs 10 s after SIGTERM");
	cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "exit status %d; log:\n%s", status, hx_server_log_text(&s));
	cr_expect_lt(took, 5.0, "stopping took %.2f s", took);
	cr_log_info("SIGTERM with 3 clients: exited in %.3f s", took);
	cr_expect(hx_server_log_has(&s, "stopped"));

	/* The others see the end: the streamer's next read fails. */
	do {
		rc = hxd_next_event(streamer, 2000, &ev);
		if (rc == HXD_OK)
			hxd_event_free(ev);
	} while (rc == HXD_OK);
	cr_expect_neq(rc, HXD_TIMEOUT, "the streamer was not told");
	cr_expect_eq(hxd_connected(streamer), 0);
	cr_expect_neq(hxd_status_get(idle, &st), HXD_OK,
	    "the idle client still gets answers");
	hxd_close(idle);
	hxd_close(streamer);
	close(fd);
	hx_server_stop(&s);
	notify_close(&n);
}

/*------------------------------------------------------------- reload */

/* The next MODEL event on c within ms, or fail. */
static hxd_event *
model_event(hxd_conn *c, int ms)
{
	double end = hx_wall_now() + ms / 1000.0;
	hxd_event *ev;
	int left;

	while ((left = (int)((end - hx_wall_now()) * 1000)) > 0) {
		if (hxd_next_event(c, left, &ev) != HXD_OK)
			break;
		if (ev->kind == HXD_EVENT_MODEL)
			return ev;
		hxd_event_free(ev);
	}
	cr_assert_fail("no model event within %d ms: %s", ms, hxd_error(c));
	return NULL;
}

/*
 * SIGHUP reads the file again and loads its model, between RELOADING=1
 * and READY=1; a connected client stays connected, gets the model event
 * (reload when the file is the same) and sees the new settings.
 */
Test(service, sighup_reloads_settings_and_model_keeping_clients, .timeout = 60)
{
	struct notify n;
	struct hx_server s;
	hxd_subscription sub = { .events = 1 };
	char conf[256], text[512], buf[2048], seen[8192] = "";
	const char *args[] = { "--config", conf, NULL };
	hxd_conn *c;
	hxd_event *ev;
	hxd_status st;

	notify_open(&n);
	snprintf(conf, sizeof(conf), "%s/haptixd.conf", n.dir);
	write_file(conf,
	    "# the fixture, paused\n"
	    "model = fixture.xml\n"
	    "paused = yes\n"
	    "speed = 2\n");
	cr_assert_eq(hx_server_try_start_env(&s, args, n.envp), -1,
	    "haptixd did not start: %s", hx_server_log_text(&s));
	cr_assert(notify_wait(&n, "READY=1", buf, sizeof(buf), 5000, NULL, 0));
	c = hx_connect_ok(s.unix_addr, "stays");
	HX_OK(c, hxd_subscribe(c, &sub, NULL));
	st = hx_status_ok(c);
	cr_expect_str_eq(st.model.name, "fixture");
	cr_expect_eq(st.speed, 2);

	/* Another model and speed: a new model (not a reload). */
	snprintf(text, sizeof(text),
	    "model = velservo.xml\npaused = yes\nspeed = 0.5\n");
	write_file(conf, text);
	kill(s.pid, SIGHUP);
	cr_expect(notify_wait(&n, "RELOADING=1", buf, sizeof(buf), 5000, seen,
		      sizeof(seen)),
	    "no RELOADING=1: %s", seen);
	cr_expect(notify_wait(&n, "READY=1", buf, sizeof(buf), 5000, seen,
		      sizeof(seen)),
	    "no READY=1 after the reload: %s", seen);
	ev = model_event(c, 5000);
	cr_expect_eq(ev->reload, 0);
	cr_expect_str_eq(ev->model.name, "velservo");
	hxd_event_free(ev);
	st = hx_status_ok(c);
	cr_expect_str_eq(st.model.name, "velservo");
	cr_expect_eq(st.speed, 0.5, "the new speed: %g", st.speed);
	cr_expect(strstr(buf, "STATUS=model \"velservo\"") != NULL, "%s", buf);

	/* The same file again: the event says reload. */
	kill(s.pid, SIGHUP);
	ev = model_event(c, 5000);
	cr_expect_eq(ev->reload, 1);
	hxd_event_free(ev);
	cr_expect(hxd_connected(c));
	hxd_close(c);
	hx_server_stop(&s);
	notify_close(&n);
}

/*
 * A reload whose model fails keeps the old model (and says so in the
 * status line); one whose file is wrong keeps the old settings too.
 * Either way the daemon goes on serving the connected client.
 */
Test(service, failed_reloads_keep_what_works, .timeout = 60)
{
	struct notify n;
	struct hx_server s;
	char conf[256], buf[2048], seen[8192] = "";
	const char *args[] = { "--config", conf, NULL };
	hxd_conn *c;
	hxd_status st;

	notify_open(&n);
	snprintf(conf, sizeof(conf), "%s/haptixd.conf", n.dir);
	write_file(conf, "model = fixture.xml\npaused = yes\nspeed = 2\n");
	cr_assert_eq(hx_server_try_start_env(&s, args, n.envp), -1,
	    "haptixd did not start: %s", hx_server_log_text(&s));
	c = hx_connect_ok(s.tcp_addr, "stays");

	/* A model that does not load: MuJoCo's error, the old model. */
	write_file(conf, "model = broken.xml\npaused = yes\nspeed = 3\n");
	kill(s.pid, SIGHUP);
	cr_assert(notify_wait(&n, "kept the old model", buf, sizeof(buf), 5000,
		      seen, sizeof(seen)),
	    "no note in the status: %s", seen);
	cr_expect(strstr(buf, "READY=1") != NULL, "%s", buf);
	st = hx_status_ok(c);
	cr_expect_str_eq(st.model.name, "fixture");
	cr_expect_eq(st.speed, 3, "the settings apply: speed %g", st.speed);
	cr_expect(hx_server_log_has(&s, "keeping model \"fixture\""));

	/* A bad line: nothing changes, and the line is named. */
	write_file(conf, "model = velservo.xml\nspeed = 4\nsped = 5\n");
	seen[0] = '\0';
	kill(s.pid, SIGHUP);
	cr_assert(notify_wait(&n, "the last reload failed", buf, sizeof(buf),
		      5000, seen, sizeof(seen)),
	    "no note in the status: %s", seen);
	cr_expect(strstr(buf, "haptixd.conf:3: unknown setting 'sped'") != NULL,
	    "%s", buf);
	st = hx_status_ok(c);
	cr_expect_str_eq(st.model.name, "fixture");
	cr_expect_eq(st.speed, 3, "speed %g", st.speed);

	/* Fixed again: the note goes. */
	write_file(conf, "model = fixture.xml\nspeed = 1\n");
	kill(s.pid, SIGHUP);
	cr_assert(notify_wait(&n, "READY=1", buf, sizeof(buf), 5000, NULL, 0));
	cr_expect(strstr(buf, "reload") == NULL, "a stale note: %s", buf);
	cr_expect(hxd_connected(c));
	hxd_close(c);
	hx_server_stop(&s);
	notify_close(&n);
}

/*------------------------------------------------- socket activation */

/*
 * systemd-socket-activate binds a Unix socket and a TCP port and starts
 * haptixd at the first connection: the daemon serves both sockets it was
 * given, binds none of its own, and leaves the Unix socket, which is
 * systemd's, in place when it stops.
 */
Test(service, socket_activation_serves_the_sockets_passed, .timeout = 60)
{
	const char *activate = socket_activate_path();
	char sock[300], tcp[64], unix_arg[320], tcp_arg[80];
	const char *argv[] = { activate, "-l", unix_arg, "-l", tcp_arg,
		"--fdname=haptixd", hx_haptixd_path(), "--config", "none", "-M",
		getenv("HX_TEST_MODELS"), "-m", "fixture.xml", NULL };
	struct hx_server s;
	hxd_conn *c;

	if (activate == NULL)
		cr_skip_test("systemd-socket-activate is missing (package "
			     "systemd)");
	hx_server_prepare(&s);
	snprintf(sock, sizeof(sock), "%s/hx.sock", s.dir);
	snprintf(unix_arg, sizeof(unix_arg), "%s", sock);
	snprintf(tcp, sizeof(tcp), "127.0.0.1:%d", free_port());
	snprintf(tcp_arg, sizeof(tcp_arg), "%s", tcp);
	hx_server_launch(&s, argv, NULL, 0);
	cr_assert(log_wait(&s, "Listening on 127.0.0.1", 10000),
	    "systemd-socket-activate did not listen: %s",
	    hx_server_log_text(&s));

	/* The first connection starts haptixd; it waits in the backlog. */
	c = hxd_connect_timeout(s.unix_addr, "first", 20000);
	cr_assert_eq(hxd_result(c), HXD_OK, "%s; log:\n%s", hxd_error(c),
	    hx_server_log_text(&s));
	cr_expect_str_eq(hx_status_ok(c).model.name, "fixture");
	hxd_close(c);
	c = hx_connect_ok(tcp, "tcp");
	hxd_close(c);
	cr_expect(hx_server_log_has(&s, "listening on unix:"));
	cr_expect(hx_server_log_has(&s, "(socket \"haptixd\" from systemd)"),
	    "%s", hx_server_log_text(&s));
	/* Its default listeners stay unbound: no port 5790, no own socket. */
	cr_expect(
	    !hx_server_log_has(&s, ":5790"), "%s", hx_server_log_text(&s));
	hx_server_stop(&s);
}

/* The Unix socket handed over survives the daemon: systemd owns it. */
Test(service, socket_activation_leaves_systemds_socket, .timeout = 60)
{
	const char *activate = socket_activate_path();
	char sock[300];
	const char *argv[] = { activate, "-l", sock, hx_haptixd_path(),
		"--config", "none", "-M", getenv("HX_TEST_MODELS"), "-m",
		"fixture.xml", NULL };
	struct hx_server s;
	struct stat st;
	hxd_conn *c;
	int status;

	if (activate == NULL)
		cr_skip_test("systemd-socket-activate is missing (package "
			     "systemd)");
	hx_server_prepare(&s);
	snprintf(sock, sizeof(sock), "%s/hx.sock", s.dir);
	hx_server_launch(&s, argv, NULL, 0);
	cr_assert(
	    log_wait(&s, "Listening on", 10000), "%s", hx_server_log_text(&s));
	c = hxd_connect_timeout(s.unix_addr, "first", 20000);
	cr_assert_eq(hxd_result(c), HXD_OK, "%s", hxd_error(c));
	hxd_close(c);
	kill(s.pid, SIGTERM);
	status = exit_wait(&s, 10000);
	cr_expect(
	    WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %d", status);
	cr_expect_eq(lstat(sock, &st), 0, "the socket was removed");
	/* Only the TCP default would have shown a port: none was bound. */
	cr_expect(!hx_server_log_has(&s, "listening on tcp:"), "%s",
	    hx_server_log_text(&s));
	hx_server_stop(&s);
}

/*
 * A TCP socket beyond loopback, handed over without a token, is refused
 * as haptixd's own --tcp would be: it exits with the reason.
 */
Test(service, socket_activation_refuses_public_tcp_without_token, .timeout = 60)
{
	const char *activate = socket_activate_path();
	char any[64], tcp[64];
	const char *argv[] = { activate, "-l", any, hx_haptixd_path(),
		"--config", "none", "-M", getenv("HX_TEST_MODELS"), "-m",
		"fixture.xml", NULL };
	struct hx_server s;
	int port, fd, status;

	if (activate == NULL)
		cr_skip_test("systemd-socket-activate is missing (package "
			     "systemd)");
	port = free_port();
	snprintf(any, sizeof(any), "0.0.0.0:%d", port);
	snprintf(tcp, sizeof(tcp), "127.0.0.1:%d", port);
	hx_server_prepare(&s);
	hx_server_launch(&s, argv, NULL, 0);
	cr_assert(
	    log_wait(&s, "Listening on", 10000), "%s", hx_server_log_text(&s));
	fd = raw_connect(tcp);
	status = exit_wait(&s, 20000);
	close(fd);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 1,
	    "status %d; log:\n%s", status, hx_server_log_text(&s));
	cr_expect(hx_server_log_has(&s, "(not loopback) without --token-file"),
	    "%s", hx_server_log_text(&s));
	hx_server_stop(&s);
}

/*------------------------------------------------------------ journal */

/*
 * When stderr is the stream systemd named in JOURNAL_STREAM, each line
 * starts with its priority; otherwise lines are plain.
 */
Test(service, journal_lines_carry_priorities, .timeout = 60)
{
	const char *argv[] = { hx_haptixd_path(), "--config", "none", "-M",
		getenv("HX_TEST_MODELS"), "-m", "broken.xml", NULL };
	struct hx_server s;
	int status;

	hx_server_prepare(&s);
	hx_server_launch(&s, argv, NULL, 1);
	status = exit_wait(&s, 20000);
	cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 1);
	cr_expect(strncmp(hx_server_log_text(&s), "<3>cannot load the model",
		      24) == 0,
	    "%s", hx_server_log_text(&s));
	cr_expect(!hx_server_log_has(&s, "haptixd: error:"));
	hx_server_stop(&s);

	/* Another stream (a pipe, a file) named: plain lines. */
	hx_server_prepare(&s);
	hx_server_launch(
	    &s, argv, (const char *[]){ "JOURNAL_STREAM=1:1", NULL }, 0);
	status = exit_wait(&s, 20000);
	cr_expect(hx_server_log_has(&s,
		      "haptixd: error: cannot load the "
		      "model"),
	    "%s", hx_server_log_text(&s));
	cr_expect(!hx_server_log_has(&s, "<3>"));
	hx_server_stop(&s);

	/* Info lines get <6>. */
	hx_server_prepare(&s);
	hx_server_launch(&s,
	    (const char *[]){ hx_haptixd_path(), "--config", "none", "-M",
		getenv("HX_TEST_MODELS"), "-m", "fixture.xml", "--unix", "none",
		"--tcp", "127.0.0.1:0", NULL },
	    NULL, 1);
	cr_assert(log_wait(&s, "<6>ready (running)", 20000), "%s",
	    hx_server_log_text(&s));
	hx_server_stop(&s);
}

/*------------------------------------------------------ settings file */

/*
 * The file sets anything the command line can; the command line wins,
 * and its model directories replace the file's.
 */
Test(service, settings_file_and_command_line, .timeout = 60)
{
	struct hx_server s;
	char dir[64] = "/tmp/hxconf.XXXXXX", conf[128], text[1024];
	const char *args[] = { "--config", conf, "--speed", "3", NULL };
	hxd_conn *c, *more[5];
	hxd_status st;
	int i;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(conf, sizeof(conf), "%s/haptixd.conf", dir);
	snprintf(text, sizeof(text),
	    "# a comment, and a blank line\n"
	    "\n"
	    "   model =  fixture.xml  \n"
	    "paused = yes\n"
	    "speed = 2\n"
	    "max-clients = 5\n"
	    "lease-loss = hold\n"
	    "model-dir = %s\n",
	    dir);
	write_file(conf, text);
	cr_assert_eq(
	    hx_server_try_start(&s, args), -1, "%s", hx_server_log_text(&s));
	c = hx_connect_ok(s.unix_addr, "conf");
	st = hx_status_ok(c);
	cr_expect_str_eq(st.model.name, "fixture");
	cr_expect_eq(st.paused, 1);
	cr_expect_eq(st.speed, 3, "the command line wins: %g", st.speed);
	cr_expect(hx_server_log_has(&s, "settings from "));
	/* max-clients = 5: the sixth is turned away. */
	for (i = 0; i < 4; i++)
		more[i] = hx_connect_ok(s.unix_addr, "more");
	more[4] = hxd_connect(s.unix_addr, "one too many");
	cr_expect_neq(hxd_result(more[4]), HXD_OK, "a sixth client was served");
	cr_expect(strstr(hxd_error(more[4]), "limit 5") != NULL, "%s",
	    hxd_error(more[4]));
	for (i = 0; i < 5; i++)
		hxd_close(more[i]);
	/* The file's directory was replaced by the command line's -M. */
	cr_expect_neq(hxd_load_file(c, conf, NULL), HXD_OK);
	cr_expect(strstr(hxd_error(c), "outside") != NULL, "%s", hxd_error(c));
	hxd_close(c);
	hx_server_stop(&s);
	unlink(conf);
	rmdir(dir);
}

/* Each wrong file stops the start with exit 2 and names file and line. */
Test(service, settings_file_errors_name_the_line, .timeout = 60)
{
	static const struct {
		const char *text, *error;
	} cases[] = {
		{ "speed = 2\nsped = 3\n",
		    "haptixd.conf:2: unknown setting 'sped'" },
		{ "\n\nspeed = fast\n",
		    "haptixd.conf:3: speed: 'fast' is not a number" },
		{ "paused = maybe\n",
		    "haptixd.conf:1: paused: 'maybe' is not yes or no" },
		{ "speed 2\n", "haptixd.conf:1: expected \"name = value\"" },
		{ "speed = 2\nspeed = 3\n",
		    "haptixd.conf:2: speed is set twice (first on line 1)" },
		{ "model =\n", "haptixd.conf:1: model has no value" },
		{ "lease-loss = never\n",
		    "haptixd.conf:1: lease-loss: 'never' is not pause" },
		{ "tcp = 127.0.0.1:99999\n", "haptixd.conf:1: tcp:" },
		{ "config = other.conf\n",
		    "haptixd.conf:1: unknown setting 'config'" },
	};
	char dir[64] = "/tmp/hxconf.XXXXXX", conf[128];
	const char *args[] = { "--config", conf, NULL };
	struct hx_server s;
	size_t i;
	int status;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(conf, sizeof(conf), "%s/haptixd.conf", dir);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		write_file(conf, cases[i].text);
		status = hx_server_try_start(&s, args);
		cr_expect(status != -1 && WIFEXITED(status) &&
			WEXITSTATUS(status) == 2,
		    "case %zu: status %d", i, status);
		cr_expect(hx_server_log_has(&s, cases[i].error),
		    "case %zu: wanted '%s' in:\n%s", i, cases[i].error,
		    hx_server_log_text(&s));
		hx_server_stop(&s);
	}
	/* A file named on the command line must exist. */
	unlink(conf);
	status = hx_server_try_start(&s, args);
	cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 2);
	cr_expect(hx_server_log_has(&s, "haptixd.conf: No such file"), "%s",
	    hx_server_log_text(&s));
	hx_server_stop(&s);
	rmdir(dir);
}

/*
 * The example file that `make install` puts beside haptixd.conf names
 * every setting of haptixd --help, and is valid with all of them
 * uncommented (--check reads the settings and exits).
 */
Test(service, example_settings_file_names_every_setting, .timeout = 60)
{
	char example[1024], conf[] = "/tmp/hxexample.XXXXXX", cmd[2200],
			    line[512], want[80], *text, *p, *q;
	FILE *in, *out, *help;
	int fd, status, names = 0;

	snprintf(example, sizeof(example), "%s/../systemd/haptixd.conf.example",
	    getenv("HX_MODELS"));
	in = fopen(example, "r");
	cr_assert_not_null(in, "%s: %s", example, strerror(errno));
	fd = mkstemp(conf);
	cr_assert_neq(fd, -1);
	out = fdopen(fd, "w");
	/* "# name = value" becomes "name = value". */
	while (fgets(line, sizeof(line), in) != NULL) {
		p = line;
		if (strncmp(p, "# ", 2) == 0 && p[2] >= 'a' && p[2] <= 'z' &&
		    strstr(p, " = ") != NULL)
			p += 2;
		fputs(p, out);
	}
	fclose(in);
	fclose(out);
	in = fopen(conf, "r");
	text = hx_slurp_fd(fileno(in), NULL);
	fclose(in);

	snprintf(cmd, sizeof(cmd), "'%s' --config '%s' --check 2>&1",
	    hx_haptixd_path(), conf);
	out = popen(cmd, "r");
	while (fgets(line, sizeof(line), out) != NULL)
		cr_log_info("%s", line);
	status = pclose(out);
	cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "the example with every line uncommented is refused");

	/* Every long option of --help but these is a setting. */
	snprintf(cmd, sizeof(cmd), "'%s' --help", hx_haptixd_path());
	help = popen(cmd, "r");
	while (fgets(line, sizeof(line), help) != NULL) {
		/* "  -m, --model FILE" or "      --no-model": an option. */
		p = strstr(line, "--");
		if (line[0] != ' ' || p == NULL || p - line > 10)
			continue;
		p += 2;
		q = p + strcspn(p, " \n");
		*q = '\0';
		if (strcmp(p, "config") == 0 || strcmp(p, "check") == 0 ||
		    strcmp(p, "help") == 0 || strcmp(p, "version") == 0)
			continue;
		snprintf(want, sizeof(want), "\n%s = ", p);
		cr_expect(strstr(text, want) != NULL,
		    "--%s is not in the example file", p);
		names++;
	}
	pclose(help);
	cr_expect_geq(names, 15, "only %d settings in --help", names);
	free(text);
	unlink(conf);
}
