/*
 * Sessions against a real haptixd: the list of clients and the client
 * limit, the control lease and each --lease-loss policy, every kind of
 * event, stream rates, fields and their checks, and sixteen clients at
 * once (readers, subscribers, one that never reads, a lock-step writer
 * and the API tick) without anyone stalling or the physics changing.
 * The numbers come from models/test/fixture.xml: keep them in step.
 */
#include "config.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <criterion/logging.h>

#include "check.h"
#include "harness.h"
#include "haptixd.h"
#include "rawclient.h"

TestSuite(sessions, .timeout = 90, .fini = hx_server_cleanup);

/* Sizes of fixture.xml. */
#define NQ 9
#define NV 8
#define NU 2
#define NBODY 5
#define NGEOM 7
#define NSITE 2
#define NMOCAP 1
#define NSENSORDATA 11
#define TIMESTEP 0.002

/* Events held for a congested client (STREAM_HELD_EVENTS, stream.h). */
#define STREAM_HELD 256

/* The geom of the box in fixture.xml. */
#define GEOM_BOX 5

/*------------------------------------------------------------ helpers */

/* This connection's session id, as the server tells it. */
static unsigned long long
session_id(hxd_conn *c)
{
	unsigned long long you = 0;
	hxd_client *list;
	int n;

	list = hx_clients_ok(c, &n, &you);
	free(list);
	cr_assert_neq(you, 0, "the server did not say who we are");
	return you;
}

/* The entry of a client by name, or NULL. */
static const hxd_client *
client_named(const hxd_client *list, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++) {
		if (strcmp(list[i].name, name) == 0)
			return &list[i];
	}
	return NULL;
}

/* The VmRSS of a process, in KiB. */
static long
rss_kib(pid_t pid)
{
	char path[64], line[256];
	long kib = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	cr_assert_not_null(f, "%s", path);
	while (fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, "VmRSS: %ld", &kib) == 1)
			break;
	}
	fclose(f);
	cr_assert_gt(kib, 0, "no VmRSS in %s", path);
	return kib;
}

/* The name of an event kind, for messages. */
static const char *
kind_name(int kind)
{
	static const char *const names[] = { "unknown", "frame", "model",
		"reset", "run", "speed", "instability", "message", "lease",
		"client_joined", "client_left" };

	if (kind < 0 || kind >= (int)(sizeof(names) / sizeof(names[0])))
		return "?";
	return names[kind];
}

/*
 * Reading a connection's events: frames are counted and skipped, one
 * event may be put back.
 */
struct evreader {
	hxd_conn *c;
	hxd_event *pending;
	unsigned frames;
	unsigned long long last_step;
	int nq; /* the size every frame's qpos must have */
};

/* The next event that is not a frame, within timeout_ms, or NULL. */
static hxd_event *
next_nonframe(struct evreader *r, int timeout_ms)
{
	double end = hx_wall_now() + timeout_ms / 1000.0;
	hxd_event *ev = r->pending;
	int rc, left;

	r->pending = NULL;
	while (ev == NULL) {
		left = (int)((end - hx_wall_now()) * 1000);
		rc = hxd_next_event(r->c, left > 0 ? left : 0, &ev);
		if (rc == HXD_TIMEOUT)
			return NULL;
		cr_assert_eq(rc, HXD_OK, "hxd_next_event: %s", hxd_error(r->c));
		if (ev->kind != HXD_EVENT_FRAME)
			break;
		cr_assert_not_null(ev->frame);
		cr_assert_eq(ev->frame->nq, r->nq, "a frame with nq %d, not %d",
		    ev->frame->nq, r->nq);
		r->frames++;
		r->last_step = ev->frame->step;
		hxd_event_free(ev);
		ev = NULL;
	}
	return ev;
}

/* The next event that is not a frame; fail unless it is of kind. */
static hxd_event *
expect_event(struct evreader *r, int kind)
{
	hxd_event *ev = next_nonframe(r, 5000);

	cr_assert_not_null(
	    ev, "no %s event within 5 s: %s", kind_name(kind), hxd_error(r->c));
	cr_assert_eq(ev->kind, kind, "expected a %s event, got %s",
	    kind_name(kind), kind_name(ev->kind));
	return ev;
}

/* Fail if any event other than a frame comes within ms. */
static void
expect_no_event(struct evreader *r, int ms)
{
	hxd_event *ev = next_nonframe(r, ms);

	cr_assert_null(ev, "an unexpected %s event",
	    ev != NULL ? kind_name(ev->kind) : "");
}

/* The next frame of c within timeout_ms, or NULL; other events fail. */
static hxd_frame *
next_frame(hxd_conn *c, int timeout_ms)
{
	hxd_event *ev = NULL;
	hxd_frame *f;
	int rc;

	rc = hxd_next_event(c, timeout_ms, &ev);
	if (rc == HXD_TIMEOUT)
		return NULL;
	cr_assert_eq(rc, HXD_OK, "hxd_next_event: %s", hxd_error(c));
	cr_assert_eq(ev->kind, HXD_EVENT_FRAME, "a %s event, not a frame",
	    kind_name(ev->kind));
	f = ev->frame;
	ev->frame = NULL;
	hxd_event_free(ev);
	return f;
}

/* Subscribe or fail the test; return the subscription's id. */
static unsigned
subscribe_ok(hxd_conn *c, unsigned fields, unsigned every_steps, double sim_hz,
    double wall_hz, int events)
{
	hxd_subscription sub = { fields, every_steps, sim_hz, wall_hz, events };
	unsigned id = 0;

	HX_OK(c, hxd_subscribe(c, &sub, &id));
	cr_assert_gt(id, 0, "subscription ids start at 1");
	return id;
}

/*------------------------------------------------------------ clients */

Test(sessions, clients_are_listed_with_names_peers_and_counters)
{
	const char *args[] = { "-m", "fixture.xml", "--paused", NULL };
	const hxd_client *a, *b, *g;
	unsigned long long you_a = 0, you_b = 0, requests, bytes_in, bytes_out;
	hxd_conn *alpha, *beta, *gamma;
	struct hx_server s;
	hxd_client *list;
	char peer[128];
	unsigned port = 0;
	int n, i, end = 0;

	hx_server_start(&s, args);
	alpha = hx_connect_ok(s.unix_addr, "alpha");
	beta = hx_connect_ok(s.tcp_addr, "beta");
	gamma = hx_connect_ok(s.unix_addr, "gamma");

	list = hx_clients_ok(alpha, &n, &you_a);
	cr_assert_eq(n, 3, "three clients, not %d", n);
	a = client_named(list, n, "alpha");
	b = client_named(list, n, "beta");
	g = client_named(list, n, "gamma");
	cr_assert(a != NULL && b != NULL && g != NULL, "every name is listed");
	cr_expect(a->id != b->id && b->id != g->id && a->id != g->id);
	cr_expect_eq(you_a, a->id, "you is the asking session's id");
	snprintf(peer, sizeof(peer), "unix uid %u pid %d", (unsigned)getuid(),
	    (int)getpid());
	cr_expect_str_eq(a->peer, peer, "Unix peers by SO_PEERCRED");
	cr_expect_str_eq(g->peer, peer);
	cr_expect_eq(strncmp(b->peer, "tcp 127.0.0.1:", 14), 0, "%s", b->peer);
	cr_expect(sscanf(b->peer, "tcp 127.0.0.1:%u%n", &port, &end) == 1 &&
		b->peer[end] == '\0' && port > 0 && port < 65536,
	    "a TCP peer ends in its port: %s", b->peer);
	cr_expect_neq(port, (unsigned)atoi(strchr(s.tcp_addr, ':') + 1),
	    "the client's port, not the server's (%s)", b->peer);
	for (i = 0; i < n; i++) {
		cr_expect_eq(list[i].lease, 0);
		cr_expect_eq(list[i].subscriptions, 0);
		cr_expect_eq(list[i].frames_sent, 0);
		cr_expect_eq(list[i].frames_dropped, 0);
		cr_expect_eq(list[i].events_dropped, 0);
		cr_expect_geq(list[i].requests, 1, "Hello is a request");
		cr_expect_gt(list[i].bytes_in, 0);
		cr_expect_gt(list[i].bytes_out, 0);
		cr_expect(list[i].connected >= 0 && list[i].connected < 60,
		    "connected %g s ago", list[i].connected);
	}
	cr_expect_eq(a->queued, 0, "alpha read all its answers");
	cr_expect_eq(a->errors, 0);
	requests = a->requests;
	bytes_in = a->bytes_in;
	bytes_out = a->bytes_out;
	free(list);

	/* beta sees itself as you. */
	list = hx_clients_ok(beta, &n, &you_b);
	b = client_named(list, n, "beta");
	cr_assert_not_null(b);
	cr_expect_eq(you_b, b->id);
	cr_expect_neq(you_b, you_a);
	free(list);

	/* Five requests and a failed one, then the list: all counted. */
	for (i = 0; i < 5; i++)
		hx_status_ok(alpha);
	cr_assert_eq(hxd_reset(alpha, 99), HXD_BADINDEX);
	list = hx_clients_ok(alpha, &n, NULL);
	a = client_named(list, n, "alpha");
	cr_assert_not_null(a);
	cr_expect_eq(a->requests, requests + 7,
	    "5 status, 1 reset and this clients call: %llu -> %llu", requests,
	    a->requests);
	cr_expect_eq(a->errors, 1, "the bad reset counts as an error");
	cr_expect_gt(a->bytes_in, bytes_in);
	cr_expect_gt(a->bytes_out, bytes_out);
	free(list);
	cr_expect_eq(hx_status_ok(beta).clients, 3);

	/* A client that leaves leaves the list. */
	hxd_close(gamma);
	cr_expect_eq(hx_wait_clients(alpha, 2, 2000), 2);
	list = hx_clients_ok(alpha, &n, NULL);
	cr_expect_null(client_named(list, n, "gamma"));
	free(list);
	hxd_close(beta);
	hxd_close(alpha);
	hx_server_stop(&s);
}

Test(sessions, a_client_beyond_max_clients_is_refused)
{
	const char *args[] = { "-m", "fixture.xml", "--paused", "--max-clients",
		"3", NULL };
	hxd_conn *a, *b, *g, *extra;
	struct evreader r = { 0 };
	struct hx_server s;
	hxd_client *list;
	hxd_event *ev;
	int n, tcp;

	hx_server_start(&s, args);
	a = hx_connect_ok(s.unix_addr, "alpha");
	b = hx_connect_ok(s.tcp_addr, "beta");
	g = hx_connect_ok(s.unix_addr, "gamma");
	subscribe_ok(a, 0, 0, 0, 0, 1);
	r.c = a;
	r.nq = NQ;

	for (tcp = 0; tcp < 2; tcp++) {
		extra = hxd_connect(hx_server_addr(&s, tcp), "delta");
		cr_assert_not_null(extra);
		cr_expect_eq(hxd_result(extra), HXD_DENIED,
		    "over %s: %s (%d): %s", tcp ? "TCP" : "Unix",
		    hxd_result_name(hxd_result(extra)), hxd_result(extra),
		    hxd_error(extra));
		cr_expect_not_null(strstr(hxd_error(extra), "too many clients"),
		    "%s", hxd_error(extra));
		cr_expect_not_null(strstr(hxd_error(extra), "limit 3"), "%s",
		    hxd_error(extra));
		cr_expect_not(
		    hxd_connected(extra), "the refused one is closed");
		hxd_close(extra);
	}
	/* Nobody joined; the three are served and alone on the list. */
	expect_no_event(&r, 300);
	cr_expect_eq(hx_wait_clients(a, 3, 2000), 3);
	list = hx_clients_ok(b, &n, NULL);
	cr_expect_eq(n, 3);
	cr_expect_null(client_named(list, n, "delta"));
	free(list);
	cr_expect_eq(hx_status_ok(g).clients, 3);

	/* A place frees when a client leaves. */
	hxd_close(g);
	ev = expect_event(&r, HXD_EVENT_CLIENT_LEFT);
	cr_expect_str_eq(ev->client.name, "gamma");
	hxd_event_free(ev);
	extra = hx_connect_ok(s.tcp_addr, "delta");
	ev = expect_event(&r, HXD_EVENT_CLIENT_JOINED);
	cr_expect_str_eq(ev->client.name, "delta");
	hxd_event_free(ev);
	hxd_close(extra);
	hxd_close(b);
	hxd_close(a);
	hx_server_stop(&s);
}

/*
 * A refused connection that its peer has not closed yet is not a
 * client: it is neither listed nor counted, and takes no place that a
 * client leaving frees.
 */
Test(sessions, a_refused_connection_takes_no_place)
{
	const char *args[] = { "-m", "fixture.xml", "--paused", "--max-clients",
		"2", NULL };
	struct evreader r = { 0 };
	Haptix__V1__Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__Hello hello = HAPTIX__V1__HELLO__INIT;
	Haptix__V1__Response *resp;
	struct hx_server s;
	hxd_conn *a, *b, *c;
	hxd_client *list;
	int fd, n;

	hx_server_start(&s, args);
	a = hx_connect_ok(s.unix_addr, "alpha");
	b = hx_connect_ok(s.unix_addr, "beta");
	subscribe_ok(a, 0, 0, 0, 0, 1);
	r.c = a;
	r.nq = NQ;

	/* What a client over the limit sees: its Hello refused. */
	fd = raw_connect(s.unix_addr);
	hello.protocol_version = 1;
	hello.client_name = (char *)"over";
	req.id = 1;
	req.call_case = HAPTIX__V1__REQUEST__CALL_HELLO;
	req.hello = &hello;
	raw_send_request(fd, &req);
	resp = raw_recv(fd, 5000);
	cr_assert_not_null(resp, "no refusal");
	cr_expect_eq(resp->id, 1);
	cr_expect_eq(resp->result, HAPTIX__V1__RESULT__RESULT_DENIED);
	cr_expect_not_null(strstr(resp->error, "too many clients (limit 2"),
	    "%s", resp->error);
	haptix__v1__response__free_unpacked(resp, NULL);

	/* It has not closed its end yet. */
	list = hx_clients_ok(a, &n, NULL);
	free(list);
	cr_expect_eq(n, 2, "%d clients listed with a limit of 2", n);
	cr_expect_eq(hx_status_ok(a).clients, 2);

	/* beta leaves: its place is free for the next client. */
	hxd_close(b);
	hxd_event_free(expect_event(&r, HXD_EVENT_CLIENT_LEFT));
	c = hxd_connect(s.unix_addr, "gamma");
	cr_expect_eq(hxd_result(c), HXD_OK,
	    "one client of two, yet refused: %s", hxd_error(c));
	hxd_close(c);
	close(fd);
	hxd_close(a);
	hx_server_stop(&s);
}

/*
 * A connection that never says Hello holds no client place, and is told
 * why and closed after a while.
 */
Test(sessions, a_silent_connection_is_closed_after_a_while, .timeout = 40)
{
	const char *args[] = { "-m", "fixture.xml", "--paused", "--max-clients",
		"1", NULL };
	Haptix__V1__Response *resp;
	struct hx_server s;
	hxd_conn *c;
	int fd;

	hx_server_start(&s, args);
	fd = raw_connect(s.unix_addr);
	/* The only place is not its. */
	c = hxd_connect(s.unix_addr, "early");
	cr_expect_eq(hxd_result(c), HXD_OK, "%s", hxd_error(c));
	hxd_close(c);
	resp = raw_recv(fd, 20000);
	cr_assert_not_null(resp, "no word from the server in 20 s");
	cr_expect_eq(resp->id, 0);
	cr_expect_eq(resp->result, HAPTIX__V1__RESULT__RESULT_BADPROTOCOL);
	cr_expect_not_null(
	    strstr(resp->error, "no Hello within"), "%s", resp->error);
	haptix__v1__response__free_unpacked(resp, NULL);
	cr_expect(raw_closed(fd, 5000), "the silent connection stays open");
	close(fd);
	c = hxd_connect(s.unix_addr, "later");
	cr_expect_eq(hxd_result(c), HXD_OK, "%s", hxd_error(c));
	hxd_close(c);
	hx_server_stop(&s);
}

/*-------------------------------------------------------------- lease */

/* Assert that a write by c is refused because of the lease's holder. */
#define DENIED(c, call) \
	do { \
		HX_FAILS_WITH(c, call, HXD_DENIED, "holds the control lease"); \
		cr_assert_not_null(strstr(hxd_error(c), "(holder)"), \
		    "%s: the reason does not name the holder: %s", #call, \
		    hxd_error(c)); \
	} while (0)

HX_TRANSPORT_TEST(sessions, lease_lets_one_client_write, "-m", "fixture.xml",
    "--paused", NULL)
{
	hxd_conn *holder = hx_connect_ok(addr, "holder");
	hxd_conn *other = hx_connect_ok(addr, "other");
	unsigned long long hid = session_id(holder), oid = session_id(other);
	double ctrl[NU] = { 0.25, -0.5 }, rgba[4] = { 1, 1, 0, 1 };
	double size[3] = { 0.2, 0.2, 0.2 }, q = 0.3, vals[NU] = { 0.1, 0.1 };
	hxd_control ctl = { NU, 0, ctrl }, *got = NULL;
	hxd_robot_command cmd = { .motor_count = NU, .ref_pos = ctrl };
	hxd_batch batch = { .control = &ctl, .steps = 5 };
	hxd_batch_result *res = NULL;
	hxd_onebody body = { .body_id = 3 };
	hxd_robot_sensor *rs = NULL;
	hxd_state *st0 = NULL, *st1 = NULL;
	struct evreader r = { 0 };
	hxd_applied *app = NULL;
	hxd_mocap *mocap = NULL;
	hxd_sensor *sen = NULL;
	hxd_lease_info li;
	const hxd_client *e;
	hxd_client *list;
	hxd_event *ev;
	hxd_status s;
	unsigned taken = 0;
	char who[64];
	hxd_model m;
	int n;

	HX_OK(other, hxd_lease(other, HXD_LEASE_QUERY, &li));
	cr_expect_eq(li.holder, 0, "nobody holds it at first");
	cr_expect_str_eq(li.holder_name, "");
	cr_expect_str_eq(li.on_loss, "pause", "the default policy");
	HX_OK(holder, hxd_lease(holder, HXD_LEASE_TAKE, &li));
	cr_expect_eq(li.holder, hid, "the lease names its holder's id");
	cr_expect_str_eq(li.holder_name, "holder");
	HX_OK(holder, hxd_lease(holder, HXD_LEASE_TAKE, &li));
	cr_expect_eq(li.holder, hid, "taking it again is harmless");

	/* The other cannot take it, and is told who has it. */
	HX_FAILS_WITH(other, hxd_lease(other, HXD_LEASE_TAKE, &li), HXD_DENIED,
	    "(holder) holds the control lease");
	snprintf(who, sizeof(who), "client %llu ", hid);
	cr_expect_not_null(
	    strstr(hxd_error(other), who), "%s", hxd_error(other));
	HX_FAILS_WITH(other, hxd_lease(other, HXD_LEASE_RELEASE, &li),
	    HXD_DENIED, "does not hold");

	/* Every kind of write by the other is refused. */
	HX_OK(other, hxd_get_state(other, &st0));
	HX_OK(other, hxd_get_applied(other, &app));
	HX_OK(other, hxd_get_mocap(other, &mocap));
	DENIED(other, hxd_set_control(other, &ctl));
	DENIED(other, hxd_set_state(other, st0));
	DENIED(other, hxd_step(other, 1, &taken));
	DENIED(other, hxd_update(other, &ctl, &sen));
	DENIED(other, hxd_update(other, NULL, &sen));
	DENIED(other, hxd_pause(other));
	DENIED(other, hxd_run(other));
	DENIED(other, hxd_reset(other, -1));
	DENIED(other, hxd_reset_name(other, "raised"));
	DENIED(other, hxd_capture_key(other, "mine", 0));
	DENIED(other, hxd_load_file(other, "fixture.xml", &m));
	DENIED(other, hxd_reload(other, &m));
	DENIED(other, hxd_set_speed(other, 2, 0));
	DENIED(other, hxd_batch_run(other, &batch, &res));
	DENIED(other, hxd_set_applied(other, app));
	DENIED(other, hxd_set_mocap(other, mocap));
	DENIED(other, hxd_set_onebody(other, &body, HXD_ONEBODY_FORCE));
	DENIED(other, hxd_set_joint(other, "hinge1", &q, 1, NULL, 0));
	DENIED(other, hxd_equality(other, 0, 1));
	DENIED(other, hxd_set_rgba(other, HXD_OBJ_GEOM, GEOM_BOX, rgba));
	DENIED(other, hxd_set_geomsize(other, GEOM_BOX, size));
	DENIED(other, hxd_set_array(other, "ctrl", 0, NU, vals));
	DENIED(other, hxd_robot_update(other, &cmd, &rs));
	free(app);
	free(mocap);

	/* Reads work, and nothing changed. */
	HX_OK(other, hxd_get_state(other, &st1));
	cr_expect_eq(st1->time, st0->time);
	cr_expect_eq(memcmp(st1->qpos, st0->qpos, NQ * sizeof(double)), 0);
	free(st1);
	HX_OK(other, hxd_get_control(other, &got));
	cr_expect(got->ctrl[0] == 0 && got->ctrl[1] == 0, "controls untouched");
	free(got);
	HX_OK(other, hxd_get_sensor(other, &sen));
	cr_expect_eq(sen->nsensordata, NSENSORDATA);
	free(sen);
	HX_OK(other, hxd_robot_update(other, NULL, &rs));
	free(rs);
	s = hx_status_ok(other);
	cr_expect(s.paused);
	cr_expect_eq(s.steps, 0);
	cr_expect_eq(s.speed, 1);
	cr_expect_str_eq(s.model.name, "fixture");
	cr_expect_eq(s.lease_holder, hid);
	cr_expect_str_eq(s.lease_holder_name, "holder");
	list = hx_clients_ok(other, &n, NULL);
	e = client_named(list, n, "holder");
	cr_assert_not_null(e);
	cr_expect_eq(e->lease, 1);
	e = client_named(list, n, "other");
	cr_assert_not_null(e);
	cr_expect_eq(e->lease, 0);
	cr_expect_geq(e->errors, 25, "each refusal is an error");
	free(list);

	/* The holder writes. */
	HX_OK(holder, hxd_set_control(holder, &ctl));
	HX_OK(holder, hxd_step(holder, 3, &taken));
	cr_expect_eq(taken, 3);
	HX_OK(holder, hxd_batch_run(holder, &batch, &res));
	cr_expect_eq(res->steps, 5);
	hxd_batch_result_free(res);
	HX_OK(other, hxd_get_control(other, &got));
	cr_expect(got->ctrl[0] == 0.25 && got->ctrl[1] == -0.5,
	    "the holder's controls: %g %g", got->ctrl[0], got->ctrl[1]);
	free(got);
	cr_expect_eq(hx_status_ok(other).steps, 8);

	/* Released, anyone may write, and take it. */
	HX_OK(holder, hxd_lease(holder, HXD_LEASE_RELEASE, &li));
	cr_expect_eq(li.holder, 0);
	HX_OK(other, hxd_lease(other, HXD_LEASE_QUERY, &li));
	cr_expect_eq(li.holder, 0);
	cr_expect_eq(hx_status_ok(other).lease_holder, 0);
	HX_OK(other, hxd_step(other, 1, &taken));
	HX_OK(other, hxd_lease(other, HXD_LEASE_TAKE, &li));
	cr_expect_eq(li.holder, oid);
	HX_FAILS_WITH(holder, hxd_step(holder, 1, &taken), HXD_DENIED,
	    "(other) holds the control lease");

	/* A holder that disconnects gives it up at once. */
	subscribe_ok(holder, 0, 0, 0, 0, 1);
	r.c = holder;
	r.nq = NQ;
	hxd_close(other);
	ev = expect_event(&r, HXD_EVENT_CLIENT_LEFT);
	cr_expect_eq(ev->client.id, oid);
	hxd_event_free(ev);
	ev = expect_event(&r, HXD_EVENT_LEASE);
	cr_expect_eq(ev->lease.holder, 0, "the lease went with its holder");
	hxd_event_free(ev);
	HX_OK(holder, hxd_lease(holder, HXD_LEASE_TAKE, &li));
	cr_expect_eq(li.holder, hid);
	HX_OK(holder, hxd_step(holder, 1, &taken));
	free(st0);
	hxd_close(holder);
}

/*
 * The lease's token, told to its holder alone, lets the connections that
 * present it ($HAPTIX_LEASE) write while that lease lasts: hxctl lease
 * run hands it to what it runs.  Without it the only shell-usable lease
 * was a background hxctl holding it, and every later hxctl was refused.
 */
HX_TRANSPORT_TEST(sessions, the_lease_token_shares_the_lease, "-m",
    "fixture.xml", "--paused", NULL)
{
	hxd_conn *holder = hx_connect_ok(addr, "holder");
	hxd_conn *other = hx_connect_ok(addr, "other");
	hxd_conn *sharer, *late;
	double ctrl[NU] = { 0.25, -0.5 };
	hxd_control ctl = { NU, 0, ctrl };
	const hxd_client *e;
	hxd_lease_info li, seen;
	hxd_client *list;
	hxd_event *ev;
	char token[40];
	int n;

	subscribe_ok(other, 0, 0, 0, 0, 1);
	HX_OK(holder, hxd_lease(holder, HXD_LEASE_TAKE, &li));
	cr_assert_eq(strlen(li.token), 32, "a 128-bit token: '%s'", li.token);
	snprintf(token, sizeof(token), "%s", li.token);
	HX_OK(holder, hxd_lease(holder, HXD_LEASE_QUERY, &li));
	cr_expect_str_eq(li.token, token, "the holder may ask again");
	HX_OK(other, hxd_lease(other, HXD_LEASE_QUERY, &li));
	cr_expect_str_empty(li.token, "nobody else learns it");
	ev = hx_event_within(other, HXD_EVENT_LEASE, 2000);
	cr_assert_not_null(ev);
	cr_expect_str_empty(ev->lease.token, "nor from the event");
	hxd_event_free(ev);

	/* A connection that presents it shares the lease. */
	cr_assert_eq(setenv("HAPTIX_LEASE", token, 1), 0);
	sharer = hx_connect_ok(addr, "sharer");
	cr_assert_eq(unsetenv("HAPTIX_LEASE"), 0);
	HX_OK(sharer, hxd_set_control(sharer, &ctl));
	DENIED(other, hxd_set_control(other, &ctl));
	list = hx_clients_ok(other, &n, NULL);
	e = client_named(list, n, "sharer");
	cr_assert_not_null(e);
	cr_expect(e->lease_shared && !e->lease, "listed as sharing");
	e = client_named(list, n, "other");
	cr_assert_not_null(e);
	cr_expect(!e->lease_shared);
	free(list);
	/* It may not take the lease as its own, nor release it. */
	HX_FAILS_WITH(sharer, hxd_lease(sharer, HXD_LEASE_TAKE, &seen),
	    HXD_DENIED, "shares it");
	HX_FAILS_WITH(sharer, hxd_lease(sharer, HXD_LEASE_RELEASE, &seen),
	    HXD_DENIED, "does not hold");

	/* The lease ends: its token is worth nothing, even when taken anew. */
	HX_OK(holder, hxd_lease(holder, HXD_LEASE_RELEASE, NULL));
	HX_OK(other, hxd_lease(other, HXD_LEASE_TAKE, &li));
	cr_expect_str_neq(li.token, token, "a new lease, a new token");
	HX_FAILS_WITH(sharer, hxd_set_control(sharer, &ctl), HXD_DENIED,
	    "(other) holds the control lease");
	cr_assert_eq(setenv("HAPTIX_LEASE", token, 1), 0);
	late = hxd_connect(addr, "late");
	cr_assert_eq(unsetenv("HAPTIX_LEASE"), 0);
	cr_expect_eq(hxd_result(late), HXD_DENIED, "%s", hxd_error(late));
	cr_expect_not_null(
	    strstr(hxd_error(late), "HAPTIX_LEASE"), "%s", hxd_error(late));
	hxd_close(late);
	hxd_close(sharer);
	hxd_close(other);
	hxd_close(holder);
}

HX_TRANSPORT_TEST(sessions, lease_allows_reads_while_running, "-m",
    "fixture.xml", "--paused", NULL)
{
	hxd_conn *holder = hx_connect_ok(addr, "holder");
	hxd_conn *other = hx_connect_ok(addr, "other");
	double ctrl[NU] = { 0.1, 0.1 };
	hxd_control ctl = { NU, 0, ctrl };
	hxd_robot_command cmd = { .motor_count = NU, .ref_pos = ctrl };
	hxd_robot_sensor *rs = NULL;
	hxd_sensor *sen = NULL;

	HX_OK(holder, hxd_lease(holder, HXD_LEASE_TAKE, NULL));
	HX_OK(holder, hxd_run(holder));
	/* Waiting for the tick reads; sending controls writes. */
	HX_OK(other, hxd_update(other, NULL, &sen));
	cr_expect_eq(sen->nsensordata, NSENSORDATA);
	free(sen);
	HX_OK(other, hxd_robot_update(other, NULL, &rs));
	free(rs);
	DENIED(other, hxd_update(other, &ctl, &sen));
	DENIED(other, hxd_robot_update(other, &cmd, &rs));
	HX_OK(holder, hxd_update(holder, &ctl, &sen));
	free(sen);
	HX_OK(holder, hxd_pause(holder));
	hxd_close(other);
	hxd_close(holder);
}

/* A holder that leaves in the middle of a long batch stops it. */
HX_TRANSPORT_TEST(sessions, a_holder_leaving_mid_batch_stops_it, "-m",
    "fixture.xml", "--paused", NULL)
{
	hxd_conn *obs = hx_connect_ok(addr, "observer");
	Haptix__V1__Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__Lease lease = HAPTIX__V1__LEASE__INIT;
	Haptix__V1__Batch batch = HAPTIX__V1__BATCH__INIT;
	struct evreader r = { obs, NULL, 0, 0, NQ };
	Haptix__V1__Response *resp;
	unsigned long long steps;
	unsigned taken;
	hxd_status s;
	hxd_event *ev;
	int fd, i;

	fd = raw_connect(addr);
	cr_assert_eq(raw_hello(fd, "batcher"), HAPTIX__V1__RESULT__RESULT_OK);
	lease.op = HAPTIX__V1__LEASE__OP__TAKE;
	req.id = 2;
	req.call_case = HAPTIX__V1__REQUEST__CALL_LEASE;
	req.lease = &lease;
	raw_send_request(fd, &req);
	resp = raw_recv(fd, 5000);
	cr_assert_not_null(resp);
	cr_assert_eq(resp->result, HAPTIX__V1__RESULT__RESULT_OK);
	haptix__v1__response__free_unpacked(resp, NULL);
	batch.steps = 10000000;
	req.id = 3;
	req.call_case = HAPTIX__V1__REQUEST__CALL_BATCH;
	req.batch = &batch;
	raw_send_request(fd, &req);
	for (i = 0; i < 100 && hx_status_ok(obs).batch_session == 0; i++)
		hx_sleep_ms(10);
	s = hx_status_ok(obs);
	cr_assert_neq(s.batch_session, 0, "the batch did not start");
	cr_expect_eq(s.batch_session, s.lease_holder);
	subscribe_ok(obs, 0, 0, 0, 0, 1);
	close(fd);

	ev = expect_event(&r, HXD_EVENT_CLIENT_LEFT);
	cr_expect_str_eq(ev->client.name, "batcher");
	hxd_event_free(ev);
	ev = expect_event(&r, HXD_EVENT_LEASE);
	cr_expect_eq(ev->lease.holder, 0);
	hxd_event_free(ev);
	s = hx_status_ok(obs);
	cr_expect_eq(s.batch_session, 0, "the batch went with its client");
	cr_expect_eq(s.lease_holder, 0);
	cr_expect(s.paused);
	steps = s.steps;
	cr_expect_lt(steps, 10000000);
	hx_sleep_ms(200);
	cr_expect_eq(hx_status_ok(obs).steps, steps, "it stepped on");
	HX_OK(obs, hxd_step(obs, 1, &taken));
	cr_expect_eq(taken, 1);
	hxd_close(obs);
}

/*
 * The holder leaves a running simulation (at a crawl, so the state
 * stays put) with hinge1 beyond servo1's control range, hinge2 at -0.4
 * and the controls at (0.9, 1.5); check what the policy did.
 */
static void
lease_loss_check(const char *addr, const char *policy)
{
	hxd_conn *holder = hx_connect_ok(addr, "holder");
	hxd_conn *obs = hx_connect_ok(addr, "observer");
	double ctrl[NU] = { 0.9, 1.5 };
	hxd_control ctl = { NU, 0, ctrl }, *got = NULL;
	struct evreader r = { obs, NULL, 0, 0, NQ };
	hxd_state *st = NULL;
	hxd_lease_info li;
	hxd_event *ev;
	hxd_status s;

	HX_OK(holder, hxd_lease(holder, HXD_LEASE_TAKE, &li));
	cr_expect_str_eq(li.on_loss, policy);
	HX_OK(holder, hxd_get_state(holder, &st));
	st->qpos[0] = 1.2;
	st->qpos[1] = -0.4;
	memset(st->qvel, 0, NV * sizeof(double));
	HX_OK(holder, hxd_set_state(holder, st));
	free(st);
	HX_OK(holder, hxd_set_control(holder, &ctl));
	HX_OK(holder, hxd_set_speed(holder, 1e-4, 0));
	HX_OK(holder, hxd_run(holder));
	cr_assert_not(hx_status_ok(obs).paused);
	subscribe_ok(obs, 0, 0, 0, 0, 1);

	hxd_close(holder);
	ev = expect_event(&r, HXD_EVENT_CLIENT_LEFT);
	cr_expect_str_eq(ev->client.name, "holder");
	hxd_event_free(ev);
	if (strcmp(policy, "pause") == 0) {
		ev = expect_event(&r, HXD_EVENT_RUN);
		cr_expect_eq(ev->paused, 1, "the loss paused the simulation");
		hxd_event_free(ev);
	}
	ev = expect_event(&r, HXD_EVENT_LEASE);
	cr_expect_eq(ev->lease.holder, 0);
	cr_expect_str_eq(ev->lease.on_loss, policy);
	hxd_event_free(ev);
	expect_no_event(&r, 200);

	s = hx_status_ok(obs);
	cr_expect_eq(s.paused, strcmp(policy, "pause") == 0, "%s: paused is %d",
	    policy, s.paused);
	cr_expect_eq(s.lease_holder, 0);
	HX_OK(obs, hxd_get_control(obs, &got));
	if (strcmp(policy, "zero") == 0) {
		cr_expect(got->ctrl[0] == 0 && got->ctrl[1] == 0, "zero: %g %g",
		    got->ctrl[0], got->ctrl[1]);
	} else if (strcmp(policy, "hold") == 0) {
		cr_expect_eq(got->ctrl[0], 1.0,
		    "hold: servo1 at hinge1's 1.2, clamped to its range: %.17g",
		    got->ctrl[0]);
		HX_NEAR(got->ctrl[1], -0.4, 0.01);
	} else {
		cr_expect(got->ctrl[0] == 0.9 && got->ctrl[1] == 1.5,
		    "%s: controls as the holder left them: %g %g", policy,
		    got->ctrl[0], got->ctrl[1]);
	}
	free(got);
	/* Free for the next one. */
	HX_OK(obs, hxd_lease(obs, HXD_LEASE_TAKE, &li));
	HX_OK(obs, hxd_pause(obs));
	hxd_close(obs);
}

HX_TRANSPORT_TEST(sessions, lease_loss_pause, "-m", "fixture.xml", "--paused",
    "--lease-loss", "pause", NULL)
{
	lease_loss_check(addr, "pause");
}

HX_TRANSPORT_TEST(sessions, lease_loss_keep, "-m", "fixture.xml", "--paused",
    "--lease-loss", "keep", NULL)
{
	lease_loss_check(addr, "keep");
}

HX_TRANSPORT_TEST(sessions, lease_loss_hold, "-m", "fixture.xml", "--paused",
    "--lease-loss", "hold", NULL)
{
	lease_loss_check(addr, "hold");
}

HX_TRANSPORT_TEST(sessions, lease_loss_zero, "-m", "fixture.xml", "--paused",
    "--lease-loss", "zero", NULL)
{
	lease_loss_check(addr, "zero");
}

HX_TRANSPORT_TEST(sessions, lease_loss_hold_zeroes_velocity_servos, "-m",
    "velservo.xml", "--paused", "--lease-loss", "hold", NULL)
{
	hxd_conn *holder = hx_connect_ok(addr, "holder");
	hxd_conn *obs = hx_connect_ok(addr, "observer");
	double ctrl[NU] = { 1.0, -0.5 };
	hxd_control ctl = { NU, 0, ctrl }, *got = NULL;
	struct evreader r = { obs, NULL, 0, 0, 2 };

	HX_OK(holder, hxd_lease(holder, HXD_LEASE_TAKE, NULL));
	HX_OK(holder, hxd_set_control(holder, &ctl));
	subscribe_ok(obs, 0, 0, 0, 0, 1);
	hxd_close(holder);
	hxd_event_free(expect_event(&r, HXD_EVENT_CLIENT_LEFT));
	hxd_event_free(expect_event(&r, HXD_EVENT_LEASE));
	HX_OK(obs, hxd_get_control(obs, &got));
	cr_expect(got->ctrl[0] == 0 && got->ctrl[1] == 0,
	    "velocity servos hold still at 0, not %g %g", got->ctrl[0],
	    got->ctrl[1]);
	free(got);
	cr_expect(hx_status_ok(obs).paused, "it was paused and stays so");
	hxd_close(obs);
}

/*------------------------------------------------------------- events */

HX_TRANSPORT_TEST(sessions, every_kind_of_event_reaches_a_subscriber, "-m",
    "fixture.xml", "--paused", NULL)
{
	hxd_conn *obs = hx_connect_ok(addr, "observer"), *actor;
	struct evreader r = { obs, NULL, 0, 0, NQ };
	unsigned long long aid, seen = 0;
	unsigned frames, taken;
	hxd_frame *f;
	hxd_event *ev;
	hxd_status s;
	hxd_model m;
	unsigned id;

	/* A frame of the state as it is when subscribing. */
	id = subscribe_ok(obs, HXD_FIELDS(HXD_FIELD_QPOS), 1, 0, 0, 1);
	f = next_frame(obs, 2000);
	cr_assert_not_null(f, "the first frame comes at once");
	cr_expect_eq(f->subscription, id);
	cr_expect_eq(f->step, 0);
	cr_expect_eq(f->nq, NQ);
	hxd_frame_free(f);

	actor = hx_connect_ok(addr, "actor");
	aid = session_id(actor);
	ev = expect_event(&r, HXD_EVENT_CLIENT_JOINED);
	cr_expect_eq(ev->client.id, aid);
	cr_expect_str_eq(ev->client.name, "actor");
	cr_expect_eq(strncmp(ev->client.peer, addr[0] == 'u' ? "unix" : "tcp",
			 addr[0] == 'u' ? 4 : 3),
	    0, "%s", ev->client.peer);
	hxd_event_free(ev);

	HX_OK(actor, hxd_load_file(actor, "fixture.xml", &m));
	ev = expect_event(&r, HXD_EVENT_MODEL);
	cr_expect_eq(ev->reload, 0, "a load is not a reload");
	cr_expect_str_eq(ev->model.name, "fixture");
	cr_expect_eq(ev->model.nq, NQ);
	cr_expect_eq(ev->model.nsensordata, NSENSORDATA);
	hxd_event_free(ev);
	HX_OK(actor, hxd_reload(actor, &m));
	ev = expect_event(&r, HXD_EVENT_MODEL);
	cr_expect_eq(ev->reload, 1, "a reload says so");
	cr_expect_str_eq(ev->model.name, "fixture");
	cr_expect_neq(ev->model.path[0], '\0');
	hxd_event_free(ev);

	HX_OK(actor, hxd_reset(actor, 1));
	ev = expect_event(&r, HXD_EVENT_RESET);
	cr_expect_eq(ev->keyframe, 1);
	cr_expect_str_eq(ev->key_name, "");
	hxd_event_free(ev);
	HX_OK(actor, hxd_reset(actor, -1));
	ev = expect_event(&r, HXD_EVENT_RESET);
	cr_expect_eq(ev->keyframe, -1);
	hxd_event_free(ev);
	HX_OK(actor, hxd_reset_name(actor, "raised"));
	ev = expect_event(&r, HXD_EVENT_RESET);
	cr_expect_eq(ev->keyframe, 0, "\"raised\" is keyframe 0");
	cr_expect_str_eq(ev->key_name, "raised");
	hxd_event_free(ev);

	/* Three steps, three frames, before the next event. */
	frames = r.frames;
	HX_OK(actor, hxd_step(actor, 3, &taken));
	HX_OK(actor, hxd_run(actor));
	ev = expect_event(&r, HXD_EVENT_RUN);
	cr_expect_eq(ev->paused, 0);
	cr_expect_eq(r.frames - frames, 3, "%u frames", r.frames - frames);
	hxd_event_free(ev);
	HX_OK(actor, hxd_pause(actor));
	ev = expect_event(&r, HXD_EVENT_RUN);
	cr_expect_eq(ev->paused, 1);
	hxd_event_free(ev);

	HX_OK(actor, hxd_set_speed(actor, 2, 0));
	ev = expect_event(&r, HXD_EVENT_SPEED);
	cr_expect_eq(ev->speed, 2);
	cr_expect_eq(ev->speed_max, 0);
	hxd_event_free(ev);
	HX_OK(actor, hxd_set_speed(actor, 1, 1));
	ev = expect_event(&r, HXD_EVENT_SPEED);
	cr_expect_eq(ev->speed_max, 1);
	hxd_event_free(ev);

	HX_OK(actor, hxd_message(actor, "hello from the actor"));
	ev = expect_event(&r, HXD_EVENT_MESSAGE);
	cr_expect_str_eq(ev->text, "hello from the actor");
	cr_expect_eq(ev->from, aid);
	hxd_event_free(ev);

	HX_OK(actor, hxd_lease(actor, HXD_LEASE_TAKE, NULL));
	ev = expect_event(&r, HXD_EVENT_LEASE);
	cr_expect_eq(ev->lease.holder, aid);
	cr_expect_str_eq(ev->lease.holder_name, "actor");
	cr_expect_str_eq(ev->lease.on_loss, "pause");
	hxd_event_free(ev);
	HX_OK(actor, hxd_lease(actor, HXD_LEASE_RELEASE, NULL));
	ev = expect_event(&r, HXD_EVENT_LEASE);
	cr_expect_eq(ev->lease.holder, 0);
	hxd_event_free(ev);

	/* The unstable model blows up and MuJoCo resets it: one event each. */
	HX_OK(actor, hxd_load_file(actor, "unstable.xml", &m));
	ev = expect_event(&r, HXD_EVENT_MODEL);
	cr_expect_str_eq(ev->model.name, "unstable");
	cr_expect_eq(ev->model.nq, 1);
	r.nq = 1;
	hxd_event_free(ev);
	HX_OK(actor, hxd_step(actor, 10, &taken));
	s = hx_status_ok(actor);
	cr_assert_geq(s.instability_resets, 1, "unstable.xml did not blow up");
	for (;;) {
		ev = next_nonframe(&r, 2000);
		cr_assert_not_null(ev,
		    "instability events stopped at %llu of "
		    "%llu",
		    seen, s.instability_resets + s.sim_errors);
		if (ev->kind != HXD_EVENT_INSTABILITY) {
			r.pending = ev;
			break;
		}
		cr_expect_eq(ev->resets, seen + 1, "counted from the load");
		cr_expect(strcmp(ev->what, "qpos") == 0 ||
			strcmp(ev->what, "qvel") == 0 ||
			strcmp(ev->what, "qacc") == 0,
		    "what: \"%s\"", ev->what);
		seen = ev->resets;
		hxd_event_free(ev);
		if (seen == s.instability_resets + s.sim_errors)
			break;
	}
	cr_expect_eq(
	    seen, s.instability_resets + s.sim_errors, "one event per reset");

	/* A new model counts from zero: no instability carried over. */
	HX_OK(actor, hxd_load_file(actor, "fixture.xml", &m));
	ev = expect_event(&r, HXD_EVENT_MODEL);
	cr_expect_eq(ev->model.nq, NQ);
	r.nq = NQ;
	hxd_event_free(ev);
	cr_expect_eq(hx_status_ok(actor).instability_resets, 0);
	frames = r.frames;
	HX_OK(actor, hxd_step(actor, 5, &taken));
	HX_OK(actor, hxd_pause(actor));
	expect_no_event(&r, 300);
	cr_expect_eq(r.frames - frames, 5, "%u frames", r.frames - frames);

	/* The actor leaves: the others hear it, and its message goes. */
	hxd_close(actor);
	ev = expect_event(&r, HXD_EVENT_CLIENT_LEFT);
	cr_expect_eq(ev->client.id, aid);
	cr_expect_str_eq(ev->client.name, "actor");
	cr_expect_geq(ev->client.requests, 17, "with its counters");
	hxd_event_free(ev);
	ev = expect_event(&r, HXD_EVENT_MESSAGE);
	cr_expect_str_eq(ev->text, "", "cleared when its owner left");
	cr_expect_eq(ev->from, 0);
	hxd_event_free(ev);
	expect_no_event(&r, 300);
	cr_expect_str_eq(hx_status_ok(obs).message, "");
	cr_expect_eq(hxd_events_lost(obs), 0);
	hxd_close(obs);
}

HX_TRANSPORT_TEST(sessions, a_message_of_a_client_that_stays_is_kept, "-m",
    "fixture.xml", "--paused", NULL)
{
	hxd_conn *a = hx_connect_ok(addr, "a"), *b = hx_connect_ok(addr, "b");
	struct evreader r = { a, NULL, 0, 0, NQ };
	hxd_event *ev;

	subscribe_ok(a, 0, 0, 0, 0, 1);
	HX_OK(a, hxd_message(a, "mine"));
	ev = expect_event(&r, HXD_EVENT_MESSAGE);
	hxd_event_free(ev);
	/* Someone else leaving does not clear it. */
	hxd_close(b);
	ev = expect_event(&r, HXD_EVENT_CLIENT_LEFT);
	hxd_event_free(ev);
	expect_no_event(&r, 300);
	cr_expect_str_eq(hx_status_ok(a).message, "mine");
	hxd_close(a);
}

HX_TRANSPORT_TEST(sessions, a_message_belongs_to_whoever_set_it_last, "-m",
    "fixture.xml", "--paused", NULL)
{
	hxd_conn *obs = hx_connect_ok(addr, "observer");
	hxd_conn *a = hx_connect_ok(addr, "a"), *b = hx_connect_ok(addr, "b");
	struct evreader r = { obs, NULL, 0, 0, NQ };
	unsigned long long bid = session_id(b);
	hxd_event *ev;

	subscribe_ok(obs, 0, 0, 0, 0, 1);
	HX_OK(a, hxd_message(a, "from a"));
	hxd_event_free(expect_event(&r, HXD_EVENT_MESSAGE));
	HX_OK(b, hxd_message(b, "from b"));
	ev = expect_event(&r, HXD_EVENT_MESSAGE);
	cr_expect_eq(ev->from, bid);
	hxd_event_free(ev);
	/* a's message was replaced: a leaving does not clear b's. */
	hxd_close(a);
	ev = expect_event(&r, HXD_EVENT_CLIENT_LEFT);
	cr_expect_str_eq(ev->client.name, "a");
	hxd_event_free(ev);
	expect_no_event(&r, 300);
	cr_expect_str_eq(hx_status_ok(obs).message, "from b");
	/* b leaving does. */
	hxd_close(b);
	hxd_event_free(expect_event(&r, HXD_EVENT_CLIENT_LEFT));
	ev = expect_event(&r, HXD_EVENT_MESSAGE);
	cr_expect_str_eq(ev->text, "");
	hxd_event_free(ev);
	cr_expect_str_eq(hx_status_ok(obs).message, "");
	hxd_close(obs);
}

HX_TRANSPORT_TEST(sessions, two_event_subscriptions_get_each_event_once, "-m",
    "fixture.xml", "--paused", NULL)
{
	hxd_conn *obs = hx_connect_ok(addr, "observer");
	struct evreader r = { obs, NULL, 0, 0, NQ };
	unsigned id1, id2;
	hxd_event *ev;

	id1 = subscribe_ok(obs, 0, 0, 0, 0, 1);
	id2 = subscribe_ok(obs, 0, 0, 0, 0, 1);
	cr_expect_neq(id1, id2);
	HX_OK(obs, hxd_message(obs, "once"));
	ev = expect_event(&r, HXD_EVENT_MESSAGE);
	cr_expect_str_eq(ev->text, "once");
	hxd_event_free(ev);
	expect_no_event(&r, 300);
	/* With one of them left, events still come; with none, not. */
	HX_OK(obs, hxd_unsubscribe(obs, id1));
	HX_OK(obs, hxd_message(obs, "still"));
	ev = expect_event(&r, HXD_EVENT_MESSAGE);
	cr_expect_str_eq(ev->text, "still");
	hxd_event_free(ev);
	HX_OK(obs, hxd_unsubscribe(obs, id2));
	HX_OK(obs, hxd_message(obs, "unheard"));
	expect_no_event(&r, 300);
	hxd_close(obs);
}

/*
 * Events come in the order of their times: a client joins after a state
 * was captured, then resets to it and leaves.  The reset was stamped
 * with the time it went to, the captured one, and so came after a join
 * stamped later ('reset' at 5.632 after 'client_joined' at 5.646); it is
 * stamped with the time it left, and says where it went.
 */
HX_TRANSPORT_TEST(sessions, events_come_in_the_order_of_their_times, "-m",
    "fixture.xml", "--paused", NULL)
{
	hxd_conn *obs = hx_connect_ok(addr, "observer"), *actor, *late;
	struct evreader r = { obs, NULL, 0, 0, NQ };
	double captured, after = -1;
	hxd_event *ev, *prev = NULL;
	int resets = 0, left = 0;

	subscribe_ok(obs, 0, 0, 0, 0, 1);
	actor = hx_connect_ok(addr, "actor");
	HX_OK(actor, hxd_step(actor, 100, NULL));
	captured = hx_status_ok(actor).time;
	HX_OK(actor, hxd_capture_key(actor, "start", -1));
	HX_OK(actor, hxd_step(actor, 50, NULL));
	late = hx_connect_ok(addr, "late");
	HX_OK(late, hxd_reset_name(late, "start"));
	hxd_close(late);
	while (!left) {
		ev = next_nonframe(&r, 5000);
		cr_assert_not_null(ev, "the late client's leaving never came");
		if (prev != NULL) {
			after = prev->kind == HXD_EVENT_RESET ? prev->reset_to :
								prev->time;
			cr_expect_geq(ev->time, after,
			    "a %s event at %.17g after a %s event at %.17g "
			    "(went to %.17g)",
			    kind_name(ev->kind), ev->time,
			    kind_name(prev->kind), prev->time, after);
		}
		if (ev->kind == HXD_EVENT_RESET) {
			resets++;
			cr_expect_eq(ev->reset_to, captured,
			    "went to %.17g, not the captured %.17g",
			    ev->reset_to, captured);
			cr_expect_gt(
			    ev->time, captured, "stamped %.17g", ev->time);
		}
		left = ev->kind == HXD_EVENT_CLIENT_LEFT &&
		    strcmp(ev->client.name, "late") == 0;
		hxd_event_free(prev);
		prev = ev;
	}
	hxd_event_free(prev);
	cr_expect_eq(resets, 1);
	hxd_close(actor);
	hxd_close(obs);
}

HX_TRANSPORT_TEST(sessions, a_subscription_gets_only_the_kinds_it_names, "-m",
    "fixture.xml", "--paused", NULL)
{
	hxd_conn *obs = hx_connect_ok(addr, "observer");
	hxd_conn *w = hx_connect_ok(addr, "writer");
	struct evreader r = { obs, NULL, 0, 0, NQ };
	hxd_subscription bad = { 0, 0, 0, 0, (int)HXD_EVENTS(20) };
	hxd_event *ev;

	subscribe_ok(obs, 0, 0, 0, 0,
	    (int)(HXD_EVENTS(HXD_EVENT_RESET) | HXD_EVENTS(HXD_EVENT_MESSAGE)));
	/* Joins, leaves, runs and pauses are not wanted. */
	hxd_close(hx_connect_ok(addr, "passer-by"));
	HX_OK(w, hxd_run(w));
	HX_OK(w, hxd_pause(w));
	HX_OK(w, hxd_reset(w, -1));
	HX_OK(w, hxd_message(w, "wanted"));
	ev = expect_event(&r, HXD_EVENT_RESET);
	hxd_event_free(ev);
	ev = expect_event(&r, HXD_EVENT_MESSAGE);
	cr_expect_str_eq(ev->text, "wanted");
	hxd_event_free(ev);
	expect_no_event(&r, 300);
	/* A second subscription adds its kinds; events 1 is every kind. */
	subscribe_ok(obs, 0, 0, 0, 0, 1);
	HX_OK(w, hxd_run(w));
	ev = expect_event(&r, HXD_EVENT_RUN);
	hxd_event_free(ev);
	HX_OK(w, hxd_pause(w));
	ev = expect_event(&r, HXD_EVENT_RUN);
	hxd_event_free(ev);
	/* 20 is Event.time, no kind of event. */
	HX_FAILS_WITH(obs, hxd_subscribe(obs, &bad, NULL), HXD_BADVALUE,
	    "not a kind of event");
	hxd_close(w);
	hxd_close(obs);
}

/* Wait until the passers-by have left srv: one client, the one asking. */
static void
wait_alone(struct hx_server *srv)
{
	hxd_conn *c = hx_connect_ok(srv->unix_addr, "waiter");

	cr_assert_eq(hx_wait_clients(c, 1, 5000), 1, "the others stayed");
	hxd_close(c);
}

Test(sessions, joins_and_leaves_are_logged_at_debug_level)
{
	const char *verbose[] = { "-m", "fixture.xml", NULL };
	char sock[320];
	const char *quiet[] = { hx_haptixd_path(), "--config", "none", "--unix",
		sock, "--tcp", "none", "-M", getenv("HX_TEST_MODELS"), "-m",
		"fixture.xml", NULL };
	struct hx_server srv;
	int i;

	/* At the default level (the harness adds -v): not a word of them. */
	hx_server_prepare(&srv);
	snprintf(sock, sizeof(sock), "%.300s", srv.unix_addr + 5);
	hx_server_launch(&srv, quiet, NULL, 0);
	for (i = 0; i < 500 && !hx_server_log_has(&srv, "ready"); i++)
		hx_sleep_ms(20);
	cr_assert(
	    hx_server_log_has(&srv, "ready"), "%s", hx_server_log_text(&srv));
	for (i = 0; i < 3; i++)
		hxd_close(hx_connect_ok(srv.unix_addr, "passer-by"));
	wait_alone(&srv);
	cr_expect(!hx_server_log_has(&srv, "connected (unix"), "%s",
	    hx_server_log_text(&srv));
	cr_expect(!hx_server_log_has(&srv, "is \"passer-by\""), "%s",
	    hx_server_log_text(&srv));
	cr_expect(!hx_server_log_has(&srv, "closed by the client"), "%s",
	    hx_server_log_text(&srv));
	hx_server_stop(&srv);
	/* With -v they are there: the words above are the right ones. */
	hx_server_start(&srv, verbose);
	hxd_close(hx_connect_ok(srv.unix_addr, "passer-by"));
	wait_alone(&srv);
	cr_expect(hx_server_log_has(&srv, "connected (unix"), "%s",
	    hx_server_log_text(&srv));
	cr_expect(hx_server_log_has(&srv, "is \"passer-by\""), "%s",
	    hx_server_log_text(&srv));
	cr_expect(hx_server_log_has(&srv, "disconnected: closed by the client"),
	    "%s", hx_server_log_text(&srv));
	hx_server_stop(&srv);
}

HX_TRANSPORT_TEST(sessions, a_mujoco_error_is_an_instability_event, "-m",
    "overflow.xml", "--paused", NULL)
{
	hxd_conn *obs = hx_connect_ok(addr, "observer");
	hxd_conn *actor = hx_connect_ok(addr, "actor");
	struct evreader r = { obs, NULL, 0, 0, 7 };
	unsigned taken;
	hxd_event *ev;
	int i, rc = HXD_OK;

	subscribe_ok(obs, 0, 0, 0, 0, 1);
	for (i = 0; i < 40 && rc == HXD_OK; i++)
		rc = hxd_step(actor, 10, &taken);
	cr_assert_eq(rc, HXD_SIMERROR, "%s", hxd_error(actor));
	ev = expect_event(&r, HXD_EVENT_INSTABILITY);
	cr_expect_str_eq(ev->what, "error", "a MuJoCo error, not bad numbers");
	cr_expect_eq(ev->resets, 1);
	hxd_event_free(ev);
	expect_no_event(&r, 200);
	cr_expect_eq(hx_status_ok(obs).sim_errors, 1);
	hxd_close(actor);
	hxd_close(obs);
}

/*------------------------------------------------------ stream rates */

/* Send a Subscribe with the given raw field values; read nothing. */
static void
raw_subscribe(int fd, const Haptix__V1__StreamField *fields, size_t n,
    unsigned every_steps, double wall_hz, int events, uint64_t id)
{
	Haptix__V1__Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__Subscribe sub = HAPTIX__V1__SUBSCRIBE__INIT;

	sub.n_fields = n;
	sub.fields = (Haptix__V1__StreamField *)fields;
	sub.every_steps = every_steps;
	sub.wall_hz = wall_hz;
	sub.events = events;
	req.id = id;
	req.call_case = HAPTIX__V1__REQUEST__CALL_SUBSCRIBE;
	req.subscribe = &sub;
	raw_send_request(fd, &req);
}

HX_TRANSPORT_TEST(sessions, every_steps_frames_follow_the_steps, "-m",
    "fixture.xml", "--paused", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "stepper");
	hxd_state *st = NULL;
	hxd_sensor *sen = NULL;
	unsigned id, taken, k;
	hxd_frame *f;
	int i;

	cr_assert_eq(hx_status_ok(c).steps, 0);
	id = subscribe_ok(c,
	    HXD_FIELDS(HXD_FIELD_QPOS) | HXD_FIELDS(HXD_FIELD_SENSORDATA), 5, 0,
	    0, 0);
	f = next_frame(c, 2000);
	cr_assert_not_null(f, "a frame at once");
	cr_expect_eq(f->subscription, id);
	cr_expect_eq(f->step, 0);
	cr_expect_eq(f->time, 0);
	HX_OK(c, hxd_get_state(c, &st));
	cr_expect_eq(memcmp(f->qpos, st->qpos, NQ * sizeof(double)), 0,
	    "the frame holds the state");
	free(st);
	hxd_frame_free(f);

	HX_OK(c, hxd_step(c, 23, &taken));
	for (k = 5; k <= 20; k += 5) {
		f = next_frame(c, 2000);
		cr_assert_not_null(f, "no frame for step %u", k);
		cr_expect_eq(f->subscription, id);
		cr_expect_eq(
		    f->step, k, "frame at step %llu, expected %u", f->step, k);
		HX_NEAR(f->time, k * TIMESTEP, 1e-12);
		cr_expect_eq(f->nsensordata, NSENSORDATA);
		hxd_frame_free(f);
	}
	f = next_frame(c, 200);
	cr_expect_null(f, "no frame between multiples of 5 (step %llu)",
	    f != NULL ? f->step : 0);
	hxd_frame_free(f);
	HX_OK(c, hxd_step(c, 2, &taken));
	f = next_frame(c, 2000);
	cr_assert_not_null(f);
	cr_expect_eq(f->step, 25);
	hxd_frame_free(f);
	/* Steps taken by updates count the same. */
	for (i = 0; i < 5; i++) {
		HX_OK(c, hxd_update(c, NULL, &sen));
		free(sen);
	}
	f = next_frame(c, 2000);
	cr_assert_not_null(f);
	cr_expect_eq(f->step, 30);
	HX_OK(c, hxd_get_state(c, &st));
	cr_expect_eq(memcmp(f->qpos, st->qpos, NQ * sizeof(double)), 0);
	free(st);
	hxd_frame_free(f);

	/* Unsubscribed, no more frames. */
	HX_OK(c, hxd_unsubscribe(c, id));
	HX_OK(c, hxd_step(c, 20, &taken));
	f = next_frame(c, 300);
	cr_expect_null(f, "a frame after unsubscribing");
	hxd_frame_free(f);
	HX_FAILS_WITH(
	    c, hxd_unsubscribe(c, id), HXD_BADINDEX, "no subscription");
	hxd_close(c);
}

HX_TRANSPORT_TEST(sessions, sim_hz_becomes_steps_of_the_timestep, "-m",
    "fixture.xml", "--paused", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "simhz");
	unsigned long long a[8], b[8];
	unsigned ida, idb, taken;
	int na = 0, nb = 0, i;
	hxd_frame *f;

	/* 100 Hz of simulated time is every 5 steps of 2 ms; 125 Hz every 4. */
	ida = subscribe_ok(c, HXD_FIELDS(HXD_FIELD_QPOS), 0, 100, 0, 0);
	idb = subscribe_ok(c, HXD_FIELDS(HXD_FIELD_QVEL), 0, 125, 0, 0);
	HX_OK(c, hxd_step(c, 20, &taken));
	while ((f = next_frame(c, 300)) != NULL) {
		if (f->subscription == ida) {
			cr_assert_lt(na, 8);
			cr_expect_eq(f->nq, NQ);
			cr_expect_null(f->qvel);
			a[na++] = f->step;
		} else {
			cr_assert_eq(f->subscription, idb);
			cr_assert_lt(nb, 8);
			cr_expect_eq(f->nv, NV);
			cr_expect_null(f->qpos);
			b[nb++] = f->step;
		}
		hxd_frame_free(f);
	}
	cr_assert_eq(na, 5, "100 Hz: the first frame and 4 more, not %d", na);
	cr_assert_eq(nb, 6, "125 Hz: the first frame and 5 more, not %d", nb);
	for (i = 0; i < na; i++)
		cr_expect_eq(a[i], 5u * (unsigned)i,
		    "100 Hz frame %d at step %llu", i, a[i]);
	for (i = 0; i < nb; i++)
		cr_expect_eq(b[i], 4u * (unsigned)i,
		    "125 Hz frame %d at step %llu", i, b[i]);

	/* A new model's timestep: 100 Hz of unstable.xml's 10 ms is every step.
	 */
	HX_OK(c, hxd_unsubscribe(c, idb));
	HX_OK(c, hxd_load_file(c, "unstable.xml", NULL));
	HX_OK(c, hxd_step(c, 3, &taken));
	for (i = 1; i <= 3; i++) {
		f = next_frame(c, 2000);
		cr_assert_not_null(
		    f, "100 Hz at 10 ms: no frame for step %d", i);
		cr_expect_eq(f->subscription, ida);
		cr_expect_eq(f->nq, 1, "the new model's size");
		cr_expect_eq(
		    f->step, (unsigned)i, "frame at step %llu", f->step);
		hxd_frame_free(f);
	}
	f = next_frame(c, 200);
	cr_expect_null(f, "more frames than steps");
	hxd_frame_free(f);
	hxd_close(c);
}

HX_TRANSPORT_TEST(sessions, wall_hz_paces_frames_in_wall_time, "-m",
    "fixture.xml", "--paused", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "wallhz");
	unsigned ida, idb;
	int na = 0, nb = 0;
	double end;
	hxd_frame *f;

	ida = subscribe_ok(c, HXD_FIELDS(HXD_FIELD_QPOS), 0, 0, 50, 0);
	idb = subscribe_ok(c, HXD_FIELDS(HXD_FIELD_STATUS), 0, 0, 10, 0);
	end = hx_wall_now() + 1.0;
	while (hx_wall_now() < end) {
		f = next_frame(c, 50);
		if (f == NULL)
			continue;
		if (f->subscription == ida) {
			na++;
			cr_expect_eq(f->step, 0, "paused: the same state");
		} else {
			cr_expect_eq(f->subscription, idb);
			cr_expect_not_null(f->status);
			nb++;
		}
		hxd_frame_free(f);
	}
	HX_OK(c, hxd_unsubscribe(c, 0));
	cr_log_info("wall_hz 50 gave %d frames in 1 s, 10 Hz gave %d", na, nb);
	/* Generous: the machines are shared. */
	cr_expect(na >= 15 && na <= 80, "50 Hz for 1 s gave %d frames", na);
	cr_expect(nb >= 3 && nb <= 20, "10 Hz for 1 s gave %d frames", nb);
	/* What came before the answer waits in the library; then nothing. */
	while ((f = next_frame(c, 0)) != NULL)
		hxd_frame_free(f);
	f = next_frame(c, 300);
	cr_expect_null(f, "frames after unsubscribing from all");
	hxd_frame_free(f);
	hxd_close(c);
}

HX_TRANSPORT_TEST(sessions, frames_carry_only_the_requested_fields, "-m",
    "fixture.xml", "--paused", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "fields");
	unsigned ida, idb, taken;
	hxd_contacts *con = NULL;
	hxd_control *ctl = NULL;
	hxd_sensor *sen = NULL;
	hxd_poses *bodies = NULL;
	hxd_state *st = NULL;
	hxd_frame *fa = NULL, *fb = NULL, *f;
	const hxd_client *me;
	hxd_client *list;
	int i, n;

	/* Step once so that contacts and sensors are there. */
	HX_OK(c, hxd_step(c, 1, &taken));
	ida = subscribe_ok(c,
	    HXD_FIELDS(HXD_FIELD_QPOS) | HXD_FIELDS(HXD_FIELD_CTRL) |
		HXD_FIELDS(HXD_FIELD_SENSORDATA) | HXD_FIELDS(HXD_FIELD_BODY),
	    1, 0, 0, 0);
	idb = subscribe_ok(c,
	    HXD_FIELDS(HXD_FIELD_QVEL) | HXD_FIELDS(HXD_FIELD_ACT) |
		HXD_FIELDS(HXD_FIELD_MOCAP) | HXD_FIELDS(HXD_FIELD_GEOM) |
		HXD_FIELDS(HXD_FIELD_SITE) | HXD_FIELDS(HXD_FIELD_CONTACTS) |
		HXD_FIELDS(HXD_FIELD_STATUS) |
		HXD_FIELDS(HXD_FIELD_QFRC_APPLIED) |
		HXD_FIELDS(HXD_FIELD_XFRC_APPLIED),
	    1, 0, 0, 0);
	for (i = 0; i < 2; i++) {
		f = next_frame(c, 2000);
		cr_assert_not_null(f);
		if (f->subscription == ida)
			fa = f;
		else if (f->subscription == idb)
			fb = f;
		else
			cr_assert_fail("subscription %u", f->subscription);
	}
	cr_assert(fa != NULL && fb != NULL, "one frame of each");

	HX_OK(c, hxd_get_state(c, &st));
	HX_OK(c, hxd_get_control(c, &ctl));
	HX_OK(c, hxd_get_sensor(c, &sen));
	HX_OK(c, hxd_get_body(c, &bodies));
	HX_OK(c, hxd_get_contact(c, &con));
	cr_expect_eq(fa->step, 1);
	cr_expect_eq(fa->nq, NQ);
	cr_expect_eq(fa->nu, NU);
	cr_expect_eq(fa->nsensordata, NSENSORDATA);
	cr_assert_not_null(fa->body);
	cr_expect_eq(fa->body->count, NBODY);
	cr_expect_eq(memcmp(fa->qpos, st->qpos, NQ * sizeof(double)), 0);
	cr_expect_eq(memcmp(fa->ctrl, ctl->ctrl, NU * sizeof(double)), 0);
	cr_expect_eq(memcmp(fa->sensordata, sen->sensordata,
			 NSENSORDATA * sizeof(double)),
	    0);
	cr_expect_eq(
	    memcmp(fa->body->pos, bodies->pos, 3 * NBODY * sizeof(double)), 0);
	cr_expect_eq(
	    memcmp(fa->body->mat, bodies->mat, 9 * NBODY * sizeof(double)), 0);
	cr_expect(fa->qvel == NULL && fa->nv == 0 && fa->act == NULL &&
		fa->mocap_pos == NULL && fa->mocap_quat == NULL &&
		fa->nmocap == 0 && fa->qfrc_applied == NULL &&
		fa->xfrc_applied == NULL && fa->nbody == 0 &&
		fa->geom == NULL && fa->site == NULL && fa->contacts == NULL &&
		fa->status == NULL,
	    "only qpos, ctrl, sensordata and body poses");
	cr_expect_eq(fa->dropped, 0);

	cr_expect_eq(fb->nv, NV);
	cr_assert_not_null(fb->qvel);
	cr_expect_eq(memcmp(fb->qvel, st->qvel, NV * sizeof(double)), 0);
	cr_expect_eq(fb->na, 0, "the fixture has no activations");
	cr_expect_eq(fb->nmocap, NMOCAP);
	cr_assert_not_null(fb->mocap_pos);
	cr_expect(fb->mocap_pos[0] == 0 && fb->mocap_pos[1] == 1 &&
		fb->mocap_pos[2] == 1,
	    "the marker at (0, 1, 1)");
	cr_assert_not_null(fb->mocap_quat);
	cr_expect_eq(fb->mocap_quat[0], 1);
	cr_assert(fb->geom != NULL && fb->site != NULL);
	cr_expect_eq(fb->geom->count, NGEOM);
	cr_expect_eq(fb->site->count, NSITE);
	cr_assert_not_null(fb->contacts);
	cr_expect_eq(fb->contacts->ncon, con->ncon);
	cr_expect_gt(con->ncon, 0, "the box rests on the floor");
	cr_assert_not_null(fb->status);
	cr_expect_eq(fb->status->model.nq, NQ);
	cr_expect_eq(fb->status->steps, 1);
	cr_expect(fb->status->paused);
	cr_assert_not_null(fb->qfrc_applied);
	cr_assert_not_null(fb->xfrc_applied);
	cr_expect_eq(fb->nbody, NBODY);
	cr_expect(fb->qpos == NULL && fb->nq == 0 && fb->ctrl == NULL &&
		fb->nu == 0 && fb->sensordata == NULL && fb->nsensordata == 0 &&
		fb->body == NULL,
	    "none of the first subscription's fields");
	free(st);
	free(ctl);
	free(sen);
	free(bodies);
	free(con);
	hxd_frame_free(fa);
	hxd_frame_free(fb);

	list = hx_clients_ok(c, &n, NULL);
	me = client_named(list, n, "fields");
	cr_assert_not_null(me);
	cr_expect_eq(me->subscriptions, 2);
	cr_expect_eq(me->frames_sent, 2);
	cr_expect_eq(me->frames_dropped, 0);
	free(list);
	HX_OK(c, hxd_unsubscribe(c, 0));
	list = hx_clients_ok(c, &n, NULL);
	me = client_named(list, n, "fields");
	cr_assert_not_null(me);
	cr_expect_eq(me->subscriptions, 0, "unsubscribe 0 ends them all");
	free(list);
	HX_OK(c, hxd_step(c, 3, &taken));
	f = next_frame(c, 300);
	cr_expect_null(f, "a frame after unsubscribing from all");
	hxd_frame_free(f);
	hxd_close(c);
}

HX_TRANSPORT_TEST(sessions, subscriptions_belong_to_their_client, "-m",
    "fixture.xml", "--paused", NULL)
{
	hxd_conn *a = hx_connect_ok(addr, "a"), *b = hx_connect_ok(addr, "b");
	unsigned ida, idb, taken;
	hxd_frame *f;

	ida = subscribe_ok(a, HXD_FIELDS(HXD_FIELD_QPOS), 1, 0, 0, 0);
	idb = subscribe_ok(b, HXD_FIELDS(HXD_FIELD_QVEL), 1, 0, 0, 0);
	cr_expect_eq(ida, idb, "ids count per client");
	hxd_frame_free(next_frame(a, 2000));
	hxd_frame_free(next_frame(b, 2000));
	/* b ends its own, not a's. */
	HX_OK(b, hxd_unsubscribe(b, idb));
	HX_OK(b, hxd_step(b, 1, &taken));
	f = next_frame(a, 2000);
	cr_assert_not_null(f, "a's subscription was ended by b");
	cr_expect_eq(f->step, 1);
	cr_expect_eq(f->nq, NQ);
	hxd_frame_free(f);
	f = next_frame(b, 300);
	cr_expect_null(f, "b still gets frames");
	hxd_frame_free(f);
	hxd_close(b);
	hxd_close(a);
}

HX_TRANSPORT_TEST(sessions, streams_wait_for_a_model, "--no-model", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "early");
	struct evreader r = { c, NULL, 0, 0, NQ };
	unsigned id, taken;
	hxd_event *ev;
	hxd_frame *f;

	id = subscribe_ok(c, HXD_FIELDS(HXD_FIELD_QPOS), 0, 100, 0, 1);
	ev = next_nonframe(&r, 300);
	cr_expect_null(ev, "an event with no model");
	cr_expect_eq(r.frames, 0, "a frame with no model");
	HX_OK(c, hxd_load_file(c, "fixture.xml", NULL));
	ev = expect_event(&r, HXD_EVENT_MODEL);
	cr_expect_eq(ev->model.nq, NQ);
	hxd_event_free(ev);
	/* 100 Hz of the loaded model's 2 ms: every 5 steps. */
	HX_OK(c, hxd_step(c, 10, &taken));
	f = next_frame(c, 2000);
	cr_assert_not_null(f);
	cr_expect_eq(f->subscription, id);
	cr_expect_eq(f->step, 5, "the first frame at step %llu", f->step);
	hxd_frame_free(f);
	f = next_frame(c, 2000);
	cr_assert_not_null(f);
	cr_expect_eq(f->step, 10);
	hxd_frame_free(f);
	f = next_frame(c, 200);
	cr_expect_null(f, "frames between multiples of 5");
	hxd_frame_free(f);
	hxd_close(c);
}

Test(sessions, a_frame_beyond_the_limits_is_refused)
{
	const char *args[] = { "-m", "fixture.xml", "--paused", "--max-frame",
		"2048", NULL };
	hxd_subscription all = { 0, 1, 0, 0, 0 };
	struct hx_server s;
	unsigned id;
	hxd_conn *c;
	int f;

	for (f = 1; f <= HXD_FIELD_MAX; f++)
		all.fields |= HXD_FIELDS(f);
	hx_server_start(&s, args);
	c = hx_connect_ok(s.unix_addr, "big");
	HX_FAILS_WITH(
	    c, hxd_subscribe(c, &all, &id), HXD_BADSIZE, "more than 2048");
	subscribe_ok(c, HXD_FIELDS(HXD_FIELD_QPOS), 1, 0, 0, 0);
	hxd_close(c);
	hx_server_stop(&s);
}

/*
 * A reader that stops reading: once it reads again, it gets what was
 * queued, then the newest events held for it (the oldest dropped), then
 * one frame of the state as it is then.  Over the Unix socket only:
 * TCP's kernel buffers grow with the flood and would absorb an unknown
 * part of it.
 */
Test(sessions, a_slow_reader_gets_held_events_then_the_newest_frame)
{
	const char *args[] = { "-m", "fixture.xml", "--paused", NULL };
	Haptix__V1__StreamField all[HXD_FIELD_MAX];
	struct hx_server srv;
	hxd_conn *driver;
	unsigned long long final, last_step = 0, dropped = 0;
	int fd, i, n, k = 0, answered = 0, phase = 0;
	int first_msg = -1, next_msg = -1, frames = 0, frames_after = 0;
	Haptix__V1__Response *resp;
	Haptix__V1__StreamFrame *f;
	const hxd_client *e;
	hxd_client *list, slow;
	unsigned taken;
	char text[32];

	hx_server_start(&srv, args);
	driver = hx_connect_ok(srv.unix_addr, "driver");
	for (i = 0; i < HXD_FIELD_MAX; i++)
		all[i] = (Haptix__V1__StreamField)(i + 1);
	fd = raw_connect(srv.unix_addr);
	cr_assert_eq(raw_hello(fd, "slow"), HAPTIX__V1__RESULT__RESULT_OK);
	raw_subscribe(fd, all, HXD_FIELD_MAX, 1, 0, 1, 2);
	for (i = 0; i < 100; i++) {
		list = hx_clients_ok(driver, &n, NULL);
		e = client_named(list, n, "slow");
		k = e != NULL && e->subscriptions == 1;
		free(list);
		if (k)
			break;
		hx_sleep_ms(10);
	}
	cr_assert(k, "the subscription was not made");

	/* Far more frames than any buffer holds, and too many events. */
	for (i = 0; i < 40; i++)
		HX_OK(driver, hxd_step(driver, 100, &taken));
	for (i = 0; i < STREAM_HELD + 44; i++) {
		snprintf(text, sizeof(text), "m %d", i);
		HX_OK(driver, hxd_message(driver, text));
	}
	final = hx_status_ok(driver).steps;
	cr_assert_eq(final, 4000);
	list = hx_clients_ok(driver, &n, NULL);
	e = client_named(list, n, "slow");
	cr_assert_not_null(e);
	slow = *e;
	free(list);
	cr_log_info("slow reader: %llu frames sent, %llu dropped, %llu events "
		    "dropped, %llu bytes queued",
	    slow.frames_sent, slow.frames_dropped, slow.events_dropped,
	    slow.queued);
	cr_expect_gt(slow.frames_dropped, 0);
	cr_expect_leq(slow.frames_sent + slow.frames_dropped, 4001,
	    "one frame per step at most");
	cr_expect_eq(slow.events_dropped, 44,
	    "%d events held, the oldest 44 dropped", STREAM_HELD);
	cr_expect_lt(slow.queued, (1u << 20) + (64u << 10));

	/* Now read it all. */
	while ((resp = raw_recv(fd, 1000)) != NULL) {
		if (resp->id == 2) {
			cr_expect_eq(
			    resp->result, HAPTIX__V1__RESULT__RESULT_OK);
			answered++;
			haptix__v1__response__free_unpacked(resp, NULL);
			continue;
		}
		cr_assert_eq(resp->id, 0);
		cr_assert_eq(
		    resp->payload_case, HAPTIX__V1__RESPONSE__PAYLOAD_EVENT);
		switch (resp->event->kind_case) {
		case HAPTIX__V1__EVENT__KIND_FRAME:
			f = resp->event->frame;
			cr_expect(frames == 0 || f->step > last_step,
			    "frame of step %llu after %llu",
			    (unsigned long long)f->step, last_step);
			cr_expect_eq(f->n_qpos, NQ);
			last_step = f->step;
			dropped = f->dropped;
			frames++;
			if (phase == 1)
				phase = 2;
			if (phase == 2) {
				frames_after++;
				cr_expect_eq(f->step, final,
				    "the owed frame is of the state now");
			}
			break;
		case HAPTIX__V1__EVENT__KIND_MESSAGE:
			cr_assert_eq(
			    sscanf(resp->event->message->text, "m %d", &k), 1,
			    "%s", resp->event->message->text);
			cr_expect_neq(
			    phase, 2, "message %d after the owed frame", k);
			if (phase == 0) {
				phase = 1;
				first_msg = next_msg = k;
			}
			cr_expect_eq(k, next_msg, "message %d, expected %d", k,
			    next_msg);
			next_msg = k + 1;
			break;
		default:
			cr_assert_fail(
			    "an event of kind %d", (int)resp->event->kind_case);
		}
		haptix__v1__response__free_unpacked(resp, NULL);
	}
	cr_expect_eq(answered, 1, "the subscription's answer came first");
	cr_expect_eq(first_msg, 44, "the oldest 44 were dropped");
	cr_expect_eq(next_msg, STREAM_HELD + 44, "the newest are all there");
	cr_expect_eq(frames_after, 1, "one owed frame, not %d", frames_after);
	cr_expect_eq(dropped, slow.frames_dropped,
	    "frames carry the count of dropped frames");

	/* And frames flow as before. */
	HX_OK(driver, hxd_step(driver, 1, &taken));
	resp = raw_recv(fd, 2000);
	cr_assert_not_null(resp, "no frame after catching up");
	cr_assert_eq(resp->payload_case, HAPTIX__V1__RESPONSE__PAYLOAD_EVENT);
	cr_assert_eq(resp->event->kind_case, HAPTIX__V1__EVENT__KIND_FRAME);
	cr_expect_eq(resp->event->frame->step, final + 1);
	haptix__v1__response__free_unpacked(resp, NULL);
	list = hx_clients_ok(driver, &n, NULL);
	e = client_named(list, n, "slow");
	cr_assert_not_null(e);
	cr_expect_eq(e->frames_dropped, slow.frames_dropped,
	    "nothing more dropped once it reads");
	cr_expect_eq(e->events_dropped, 44);
	free(list);
	close(fd);
	hxd_close(driver);
	hx_server_stop(&srv);
}

HX_TRANSPORT_TEST(sessions, bad_subscriptions_are_refused, "-m", "fixture.xml",
    "--paused", NULL)
{
	const unsigned Q = HXD_FIELDS(HXD_FIELD_QPOS);
	hxd_conn *c = hx_connect_ok(addr, "checker");
	hxd_subscription sub;
	const hxd_client *me;
	hxd_client *list;
	Haptix__V1__Response *resp;
	Haptix__V1__StreamField bad[2] = {
		HAPTIX__V1__STREAM_FIELD__STREAM_QPOS,
		(Haptix__V1__StreamField)99
	};
	Haptix__V1__StreamField none = HAPTIX__V1__STREAM_FIELD__STREAM_NONE;
	unsigned id;
	int i, n, fd;

#define SUB(f, e, s, w, ev) \
	(sub = (hxd_subscription){ (f), (e), (s), (w), (ev) }, \
	    hxd_subscribe(c, &sub, &id))
	HX_FAILS_WITH(
	    c, SUB(0, 0, 0, 0, 0), HXD_BADVALUE, "nothing to subscribe");
	HX_FAILS_WITH(c, SUB(Q, 1, 0, 10, 0), HXD_BADVALUE, "exactly one rate");
	HX_FAILS_WITH(
	    c, SUB(Q, 1, 100, 0, 0), HXD_BADVALUE, "exactly one rate");
	HX_FAILS_WITH(
	    c, SUB(Q, 0, 100, 10, 1), HXD_BADVALUE, "exactly one rate");
	HX_FAILS_WITH(c, SUB(Q, 0, 0, 0, 0), HXD_BADVALUE, "exactly one rate");
	HX_FAILS_WITH(
	    c, SUB(0, 1, 0, 0, 1), HXD_BADVALUE, "a rate without fields");
	HX_FAILS_WITH(c, SUB(Q, 0, 0, 1001, 0), HXD_BADVALUE, "wall_hz 1001");
	HX_FAILS_WITH(c, SUB(Q, 0, 0, -5, 0), HXD_BADVALUE, "wall_hz");
	HX_FAILS_WITH(c, SUB(Q, 0, 0, INFINITY, 0), HXD_BADVALUE, "wall_hz");
	HX_FAILS_WITH(c, SUB(Q, 0, -1, 0, 0), HXD_BADVALUE, "sim_hz");
	HX_FAILS_WITH(c, SUB(Q, 0, NAN, 0, 0), HXD_BADVALUE, "sim_hz");
	HX_FAILS_WITH(c, SUB(HXD_FIELDS(HXD_FIELD_MAX + 1), 1, 0, 0, 0),
	    HXD_BADVALUE, "no field");
	HX_FAILS_WITH(c, SUB(1u, 1, 0, 0, 0), HXD_BADVALUE, "no field");

	/* The server's own check of fields the library would not send. */
	fd = raw_connect(addr);
	cr_assert_eq(raw_hello(fd, "raw"), HAPTIX__V1__RESULT__RESULT_OK);
	raw_subscribe(fd, bad, 2, 1, 0, 0, 7);
	resp = raw_recv(fd, 5000);
	cr_assert_not_null(resp);
	cr_expect_eq(resp->id, 7);
	cr_expect_eq(resp->result, HAPTIX__V1__RESULT__RESULT_BADVALUE);
	cr_expect_not_null(
	    strstr(resp->error, "fields[1] is 99"), "%s", resp->error);
	haptix__v1__response__free_unpacked(resp, NULL);
	raw_subscribe(fd, &none, 1, 1, 0, 0, 8);
	resp = raw_recv(fd, 5000);
	cr_assert_not_null(resp);
	cr_expect_eq(resp->result, HAPTIX__V1__RESULT__RESULT_BADVALUE);
	cr_expect_not_null(
	    strstr(resp->error, "fields[0] is 0"), "%s", resp->error);
	haptix__v1__response__free_unpacked(resp, NULL);
	close(fd);

	/* The fastest wall rate is fine; the limit of subscriptions holds. */
	HX_OK(c, SUB(Q, 0, 0, 1000, 0));
	for (i = 1; i < 16; i++)
		HX_OK(c, SUB(Q, 1, 0, 0, i % 2));
	HX_FAILS_WITH(c, SUB(Q, 1, 0, 0, 0), HXD_BADSIZE, "16 subscriptions");
	HX_FAILS_WITH(c, SUB(0, 0, 0, 0, 1), HXD_BADSIZE, "16 subscriptions");
	list = hx_clients_ok(c, &n, NULL);
	me = client_named(list, n, "checker");
	cr_assert_not_null(me);
	cr_expect_eq(me->subscriptions, 16, "refused ones are not counted");
	cr_expect_eq(me->errors, 13, "each refusal by the server is an error");
	free(list);
	HX_OK(c, hxd_unsubscribe(c, 0));
	HX_FAILS_WITH(c, hxd_unsubscribe(c, 12345), HXD_BADINDEX, "12345");
	HX_OK(c, SUB(Q, 1, 0, 0, 0));
	cr_expect_gt(id, 16, "ids are not reused");
#undef SUB
	hxd_close(c);
}

/*------------------------------------------------------------ stress */

#define STRESS_READERS 6
#define STRESS_SUBSCRIBERS 6
#define STRESS_BATCHES 200
#define STRESS_BATCH_STEPS 5
#define STRESS_READS 300
#define STRESS_MESSAGES 300
#define STRESS_TICKS 50

/* What every thread shares: the daemon and the phases. */
struct stress {
	const struct hx_server *srv;
	pthread_barrier_t ready; /* every client connected */
	atomic_int running;      /* the ticker may start */
	atomic_int stop;         /* the subscribers may finish */
};

/* Record the first failure of a thread (threads may not assert). */
#define JOB_FAIL(j, ...) \
	do { \
		if (!(j)->failed) \
			snprintf((j)->err, sizeof((j)->err), __VA_ARGS__); \
		(j)->failed = 1; \
	} while (0)

struct writer_job {
	struct stress *st; /* NULL: alone, no barrier */
	const char *addr;
	double traj[STRESS_BATCHES][NSENSORDATA];
	double qpos[NQ], qvel[NV], sensordata[NSENSORDATA];
	double seconds;
	int failed;
	char err[512];
};

struct reader_job {
	struct stress *st;
	const char *addr;
	int use_status;
	int done;
	double worst; /* the slowest answer, seconds */
	int failed;
	char err[512];
};

struct subscriber_job {
	struct stress *st;
	const char *addr;
	char name[32];
	unsigned long long frames, last_step, dropped;
	int messages;
	int failed;
	char err[512];
};

struct ticker_job {
	struct stress *st;
	const char *addr;
	double mean, worst, sim_mean; /* seconds between answers */
	int failed;
	char err[512];
};

/* The lock-step controller: controls from the last batch's sensors. */
static void
writer_controls(int k, const double *sens, double *u)
{
	u[0] = 0.6 * sin(0.07 * k) - 0.5 * sens[0];
	u[1] = 1.2 * cos(0.05 * k) - 0.3 * sens[1] - 0.05 * sens[2];
	u[0] = fmax(-1, fmin(1, u[0]));
	u[1] = fmax(-2, fmin(2, u[1]));
}

/* Hold the lease and run the batches; the same with or without others. */
static void *
writer_main(void *arg)
{
	struct writer_job *w = arg;
	hxd_conn *c = hxd_connect(w->addr, "writer");
	double u[NU], sens[NSENSORDATA], t0;
	hxd_control ctl = { NU, 0, u };
	hxd_batch b = { .control = &ctl, .steps = STRESS_BATCH_STEPS };
	hxd_batch_result *res = NULL;
	hxd_sensor *sen = NULL;
	hxd_state *s = NULL;
	int k, rc;

	if (c == NULL || hxd_result(c) != HXD_OK)
		JOB_FAIL(w, "connect: %s", c ? hxd_error(c) : "no memory");
	else if (hxd_lease(c, HXD_LEASE_TAKE, NULL) != HXD_OK)
		JOB_FAIL(w, "take the lease: %s", hxd_error(c));
	if (w->st != NULL)
		pthread_barrier_wait(&w->st->ready);
	if (w->failed)
		goto out;
	t0 = hx_wall_now();
	if (hxd_get_sensor(c, &sen) != HXD_OK ||
	    sen->nsensordata != NSENSORDATA) {
		JOB_FAIL(w, "get_sensor: %s", hxd_error(c));
		goto out;
	}
	memcpy(sens, sen->sensordata, sizeof(sens));
	free(sen);
	for (k = 0; k < STRESS_BATCHES; k++) {
		writer_controls(k, sens, u);
		rc = hxd_batch_run(c, &b, &res);
		if (rc != HXD_OK) {
			JOB_FAIL(w, "batch %d: %s", k, hxd_error(c));
			goto out;
		}
		if (res->steps != STRESS_BATCH_STEPS ||
		    res->sensor->nsensordata != NSENSORDATA) {
			JOB_FAIL(w, "batch %d: %llu steps, %d sensor values", k,
			    res->steps, res->sensor->nsensordata);
			hxd_batch_result_free(res);
			goto out;
		}
		memcpy(sens, res->sensor->sensordata, sizeof(sens));
		memcpy(w->traj[k], sens, sizeof(sens));
		hxd_batch_result_free(res);
	}
	if (hxd_get_state(c, &s) != HXD_OK || s->nq != NQ || s->nv != NV) {
		JOB_FAIL(w, "get_state: %s", hxd_error(c));
		free(s);
		goto out;
	}
	memcpy(w->qpos, s->qpos, sizeof(w->qpos));
	memcpy(w->qvel, s->qvel, sizeof(w->qvel));
	free(s);
	if (hxd_get_sensor(c, &sen) != HXD_OK) {
		JOB_FAIL(w, "get_sensor: %s", hxd_error(c));
		goto out;
	}
	memcpy(w->sensordata, sen->sensordata, sizeof(w->sensordata));
	free(sen);
	if (hxd_lease(c, HXD_LEASE_RELEASE, NULL) != HXD_OK)
		JOB_FAIL(w, "release the lease: %s", hxd_error(c));
	w->seconds = hx_wall_now() - t0;
out:
	hxd_close(c);
	return NULL;
}

/* Read the state or the status in a loop, timing every answer. */
static void *
reader_main(void *arg)
{
	struct reader_job *r = arg;
	hxd_conn *c = hxd_connect(r->addr, "reader");
	hxd_state *s = NULL;
	hxd_status status;
	double t;
	int i, rc;

	if (c == NULL || hxd_result(c) != HXD_OK)
		JOB_FAIL(r, "connect: %s", c ? hxd_error(c) : "no memory");
	pthread_barrier_wait(&r->st->ready);
	for (i = 0;
	     !r->failed && (i < STRESS_READS || !atomic_load(&r->st->stop));
	     i++) {
		t = hx_wall_now();
		if (r->use_status) {
			rc = hxd_status_get(c, &status);
			if (rc == HXD_OK && status.model.nq != NQ)
				JOB_FAIL(r, "status of nq %d", status.model.nq);
		} else {
			rc = hxd_get_state(c, &s);
			if (rc == HXD_OK && s->nq != NQ)
				JOB_FAIL(r, "state of nq %d", s->nq);
			free(s);
			s = NULL;
		}
		if (rc != HXD_OK)
			JOB_FAIL(r, "read %d: %s", i, hxd_error(c));
		t = hx_wall_now() - t;
		if (t > r->worst)
			r->worst = t;
		r->done += rc == HXD_OK;
	}
	hxd_close(c);
	return NULL;
}

/* Read frames of every step and events until told to stop. */
static void *
subscriber_main(void *arg)
{
	struct subscriber_job *j = arg;
	hxd_conn *c = hxd_connect(j->addr, j->name);
	hxd_subscription sub = { HXD_FIELDS(HXD_FIELD_QPOS) |
		    HXD_FIELDS(HXD_FIELD_SENSORDATA),
		1, 0, 0, 1 };
	hxd_event *ev;
	int rc, first = 1;

	if (c == NULL || hxd_result(c) != HXD_OK)
		JOB_FAIL(j, "connect: %s", c ? hxd_error(c) : "no memory");
	else if (hxd_subscribe(c, &sub, NULL) != HXD_OK)
		JOB_FAIL(j, "subscribe: %s", hxd_error(c));
	pthread_barrier_wait(&j->st->ready);
	while (!j->failed) {
		rc = hxd_next_event(c, 300, &ev);
		if (rc == HXD_TIMEOUT) {
			if (atomic_load(&j->st->stop))
				break;
			continue;
		}
		if (rc != HXD_OK) {
			JOB_FAIL(j, "next_event: %s", hxd_error(c));
			break;
		}
		if (ev->kind == HXD_EVENT_FRAME) {
			if (ev->frame->nq != NQ ||
			    ev->frame->nsensordata != NSENSORDATA)
				JOB_FAIL(j, "a frame of nq %d, nsensordata %d",
				    ev->frame->nq, ev->frame->nsensordata);
			if (!first && ev->frame->step <= j->last_step)
				JOB_FAIL(j, "frame of step %llu after %llu",
				    ev->frame->step, j->last_step);
			first = 0;
			j->last_step = ev->frame->step;
			j->dropped = ev->frame->dropped;
			j->frames++;
		} else if (ev->kind == HXD_EVENT_MESSAGE &&
		    strncmp(ev->text, "stress ", 7) == 0)
			j->messages++;
		hxd_event_free(ev);
	}
	if (hxd_events_lost(c) != 0)
		JOB_FAIL(j, "the library lost %llu events", hxd_events_lost(c));
	hxd_close(c);
	return NULL;
}

/* Once running, time hxd_update's answers at the API tick. */
static void *
ticker_main(void *arg)
{
	struct ticker_job *j = arg;
	hxd_conn *c = hxd_connect(j->addr, "ticker");
	hxd_sensor *sen = NULL;
	double t0, t, last, d, s0 = 0;
	int i, waited;

	if (c == NULL || hxd_result(c) != HXD_OK)
		JOB_FAIL(j, "connect: %s", c ? hxd_error(c) : "no memory");
	pthread_barrier_wait(&j->st->ready);
	for (waited = 0; !atomic_load(&j->st->running) && waited < 60000;
	     waited += 2)
		hx_sleep_ms(2);
	if (j->failed || !atomic_load(&j->st->running))
		goto out;
	/* Align with the tick. */
	if (hxd_update(c, NULL, &sen) != HXD_OK) {
		JOB_FAIL(j, "update: %s", hxd_error(c));
		goto out;
	}
	s0 = sen->time;
	free(sen);
	t0 = last = hx_wall_now();
	for (i = 0; i < STRESS_TICKS; i++) {
		if (hxd_update(c, NULL, &sen) != HXD_OK) {
			JOB_FAIL(j, "update %d: %s", i, hxd_error(c));
			goto out;
		}
		t = hx_wall_now();
		d = t - last;
		if (d > j->worst)
			j->worst = d;
		last = t;
		if (i == STRESS_TICKS - 1)
			j->sim_mean = (sen->time - s0) / STRESS_TICKS;
		free(sen);
	}
	j->mean = (last - t0) / STRESS_TICKS;
out:
	hxd_close(c);
	return NULL;
}

/* Subscribe the non-reader to every field 16 times, and never read. */
static int
nonreader_start(const char *addr)
{
	Haptix__V1__StreamField all[HXD_FIELD_MAX];
	int fd, i, small = 4096;

	for (i = 0; i < HXD_FIELD_MAX; i++)
		all[i] = (Haptix__V1__StreamField)(i + 1);
	fd = raw_connect(addr);
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof(small));
	cr_assert_eq(raw_hello(fd, "nonreader"), HAPTIX__V1__RESULT__RESULT_OK);
	/* Half at every step, half at the fastest wall rate; events too. */
	for (i = 0; i < 16; i++)
		raw_subscribe(fd, all, HXD_FIELD_MAX, i < 8 ? 1 : 0,
		    i < 8 ? 0 : 1000, i == 0, (uint64_t)(i + 2));
	return fd;
}

/* The non-reader's entry in the list, checked to be bounded. */
static hxd_client
nonreader_check(hxd_conn *c, const char *when)
{
	const hxd_client *e;
	hxd_client *list, out;
	int n;

	list = hx_clients_ok(c, &n, NULL);
	e = client_named(list, n, "nonreader");
	cr_assert_not_null(e, "%s: the non-reader was dropped", when);
	out = *e;
	free(list);
	cr_expect_eq(out.subscriptions, 16, "%s", when);
	cr_expect_gt(out.frames_dropped, 0, "%s: no frame was dropped", when);
	cr_expect_lt(out.queued, (1u << 20) + (64u << 10),
	    "%s: %llu bytes queued for the non-reader", when, out.queued);
	return out;
}

/*
 * Under AddressSanitizer freed memory waits in a quarantine (256 MiB by
 * default) and shows in the RSS: keep the daemon's small, so that the
 * bound measures the daemon and not the sanitizer.
 */
static void
stress_limit_quarantine(void)
{
#if defined(__SANITIZE_ADDRESS__)
	const char *old = getenv("ASAN_OPTIONS");
	char opts[1024];

	snprintf(opts, sizeof(opts), "%s%squarantine_size_mb=16",
	    old != NULL ? old : "", old != NULL && *old != '\0' ? ":" : "");
	setenv("ASAN_OPTIONS", opts, 1);
#endif
}

/*
 * The acceptance test of sessions: sixteen clients on one paused daemon.
 * Six readers loop on get_state and status, six subscribers read frames
 * of every step and events, one client subscribes to every field 16
 * times and never reads, a writer holds the lease and runs lock-step
 * batches, a ticker waits for the API tick once the monitor (this
 * thread) lets the simulation run.  Nobody stalls, the daemon's memory
 * and the non-reader's queue stay bounded, and the writer's trajectory
 * is bit for bit that of the same writer alone on a fresh daemon.
 */
Test(sessions, sixteen_clients_one_never_reads, .timeout = 150)
{
	const char *args[] = { "-m", "fixture.xml", "--paused", NULL };
	static struct writer_job w, alone;
	struct reader_job readers[STRESS_READERS];
	struct subscriber_job subs[STRESS_SUBSCRIBERS];
	struct ticker_job tick;
	pthread_t tw, tt, tr[STRESS_READERS], ts[STRESS_SUBSCRIBERS];
	struct stress st;
	struct hx_server srv;
	hxd_client nr1, nr2;
	hxd_conn *mon;
	long rss0, rss1, rss2;
	double t0, t_writer, t_all;
	char text[32];
	int i, fd;

	stress_limit_quarantine();
	hx_server_start(&srv, args);
	mon = hx_connect_ok(srv.unix_addr, "monitor");
	rss0 = rss_kib(srv.pid);
	fd = nonreader_start(srv.unix_addr);

	memset(&st, 0, sizeof(st));
	st.srv = &srv;
	atomic_init(&st.running, 0);
	atomic_init(&st.stop, 0);
	/* 14 threads and this one. */
	cr_assert_eq(pthread_barrier_init(&st.ready, NULL,
			 2 + STRESS_READERS + STRESS_SUBSCRIBERS + 1),
	    0);
	memset(&w, 0, sizeof(w));
	w.st = &st;
	w.addr = srv.unix_addr;
	memset(&tick, 0, sizeof(tick));
	tick.st = &st;
	tick.addr = srv.tcp_addr;
	cr_assert_eq(pthread_create(&tw, NULL, writer_main, &w), 0);
	cr_assert_eq(pthread_create(&tt, NULL, ticker_main, &tick), 0);
	for (i = 0; i < STRESS_READERS; i++) {
		memset(&readers[i], 0, sizeof(readers[i]));
		readers[i].st = &st;
		readers[i].addr = hx_server_addr(&srv, i % 2);
		readers[i].use_status = i / 2 % 2;
		cr_assert_eq(
		    pthread_create(&tr[i], NULL, reader_main, &readers[i]), 0);
	}
	for (i = 0; i < STRESS_SUBSCRIBERS; i++) {
		memset(&subs[i], 0, sizeof(subs[i]));
		subs[i].st = &st;
		subs[i].addr = hx_server_addr(&srv, i % 2);
		snprintf(subs[i].name, sizeof(subs[i].name), "subscriber%d", i);
		cr_assert_eq(
		    pthread_create(&ts[i], NULL, subscriber_main, &subs[i]), 0);
	}
	pthread_barrier_wait(&st.ready);
	t0 = hx_wall_now();
	cr_expect_eq(hx_wait_clients(mon, 16, 2000), 16, "sixteen clients");

	/* Phase 1: lock-step under load. */
	pthread_join(tw, NULL);
	t_writer = hx_wall_now() - t0;
	cr_assert_not(w.failed, "writer: %s", w.err);
	rss1 = rss_kib(srv.pid);
	nr1 = nonreader_check(mon, "after the lock-step run");

	/* Phase 2: more events than a slow reader may hold. */
	for (i = 0; i < STRESS_MESSAGES; i++) {
		snprintf(text, sizeof(text), "stress %d", i);
		HX_OK(mon, hxd_message(mon, text));
	}

	/* Phase 3: running, the API tick under load. */
	cr_assert(hx_status_ok(mon).paused, "still paused");
	HX_OK(mon, hxd_run(mon));
	atomic_store(&st.running, 1);
	pthread_join(tt, NULL);
	rss2 = rss_kib(srv.pid);
	HX_OK(mon, hxd_pause(mon));
	atomic_store(&st.stop, 1);
	for (i = 0; i < STRESS_READERS; i++)
		pthread_join(tr[i], NULL);
	for (i = 0; i < STRESS_SUBSCRIBERS; i++)
		pthread_join(ts[i], NULL);
	t_all = hx_wall_now() - t0;
	nr2 = nonreader_check(mon, "at the end");
	cr_expect_eq(hx_wait_clients(mon, 2, 2000), 2,
	    "the monitor and the non-reader are left");
	pthread_barrier_destroy(&st.ready);

	cr_log_info("stress: writer %.2f s, all %.2f s; daemon RSS %ld -> %ld "
		    "-> %ld KiB; non-reader: %llu frames sent, %llu dropped "
		    "(%llu after lock-step), %llu events dropped, %llu bytes "
		    "queued; API tick mean %.1f ms (sim %.1f ms), worst "
		    "%.1f ms",
	    t_writer, t_all, rss0, rss1, rss2, nr2.frames_sent,
	    nr2.frames_dropped, nr1.frames_dropped, nr2.events_dropped,
	    nr2.queued, tick.mean * 1e3, tick.sim_mean * 1e3, tick.worst * 1e3);
	for (i = 0; i < STRESS_READERS; i++) {
		cr_expect_not(
		    readers[i].failed, "reader %d: %s", i, readers[i].err);
		cr_expect_geq(readers[i].done, STRESS_READS,
		    "reader %d finished %d of its reads", i, readers[i].done);
		cr_log_info("reader %d: %d reads, the slowest %.1f ms", i,
		    readers[i].done, readers[i].worst * 1e3);
		cr_expect_lt(readers[i].worst, 5.0,
		    "reader %d waited %.2f s for an answer", i,
		    readers[i].worst);
	}
	for (i = 0; i < STRESS_SUBSCRIBERS; i++) {
		cr_log_info("%s: %llu frames, last step %llu, %llu dropped, "
			    "%d messages",
		    subs[i].name, subs[i].frames, subs[i].last_step,
		    subs[i].dropped, subs[i].messages);
		cr_expect_not(
		    subs[i].failed, "%s: %s", subs[i].name, subs[i].err);
		cr_expect_geq(subs[i].last_step,
		    STRESS_BATCHES * STRESS_BATCH_STEPS,
		    "%s saw steps up to %llu", subs[i].name, subs[i].last_step);
		cr_expect_geq(subs[i].frames + subs[i].dropped,
		    STRESS_BATCHES * STRESS_BATCH_STEPS, "%s", subs[i].name);
		cr_expect_eq(subs[i].messages, STRESS_MESSAGES,
		    "%s got %d of the messages", subs[i].name,
		    subs[i].messages);
	}
	cr_expect_not(tick.failed, "ticker: %s", tick.err);
	cr_expect(tick.mean >= 0.5 / 50 && tick.mean <= 3.0 / 50,
	    "hxd_update answered every %.1f ms at 50 Hz", tick.mean * 1e3);
	cr_expect_lt(tick.worst, 1.0, "an update waited %.2f s", tick.worst);
	cr_expect_gt(nr2.frames_dropped, nr1.frames_dropped,
	    "the non-reader's frames are still dropped");
	cr_expect_geq(nr2.events_dropped, STRESS_MESSAGES - STREAM_HELD,
	    "the non-reader's held events are bounded");
	cr_expect_lt(
	    rss1 - rss0, 64 * 1024, "the daemon grew by %ld KiB", rss1 - rss0);
	cr_expect_lt(
	    rss2 - rss0, 64 * 1024, "the daemon grew by %ld KiB", rss2 - rss0);
	cr_expect_lt(t_all, 60, "the whole run took %.1f s", t_all);
	close(fd);
	hxd_close(mon);
	hx_server_stop(&srv);

	/* The same writer alone on a fresh daemon: bit for bit the same. */
	hx_server_start(&srv, args);
	memset(&alone, 0, sizeof(alone));
	alone.addr = srv.unix_addr;
	writer_main(&alone);
	cr_assert_not(alone.failed, "writer alone: %s", alone.err);
	hx_server_stop(&srv);
	for (i = 0; i < STRESS_BATCHES; i++) {
		cr_expect_eq(
		    memcmp(w.traj[i], alone.traj[i], sizeof(w.traj[i])), 0,
		    "the sensors after batch %d differ", i);
		if (memcmp(w.traj[i], alone.traj[i], sizeof(w.traj[i])) != 0)
			break;
	}
	cr_expect_eq(memcmp(w.qpos, alone.qpos, sizeof(w.qpos)), 0,
	    "final qpos differs");
	cr_expect_eq(memcmp(w.qvel, alone.qvel, sizeof(w.qvel)), 0,
	    "final qvel differs");
	cr_expect_eq(
	    memcmp(w.sensordata, alone.sensordata, sizeof(w.sensordata)), 0,
	    "final sensordata differs");
	cr_expect_neq(
	    memcmp(w.traj[0], w.traj[STRESS_BATCHES - 1], sizeof(w.traj[0])), 0,
	    "the run moved the arm");
	cr_expect_neq(w.qpos[0], 0, "the run moved hinge1");
}
