/*
 * Sessions against a real haptixd: the list of clients with their names,
 * peers and counters, the client limit (a refused connection taking no
 * place), a silent connection closed after a while, joins and leaves
 * logged at debug level only.
 */
#include "config.h"

#include <math.h>
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
#include "sessions_check.h"

TestSuite(sessions, .timeout = 90, .fini = hx_server_cleanup);

/*
 * The peers of alpha and gamma (over the Unix socket, this process) and
 * of beta (over TCP to tcp_addr, from a port of its own).
 */
static void
expect_peers(const hxd_client *a, const hxd_client *b, const hxd_client *g,
    const char *tcp_addr)
{
	char peer[128];
	unsigned port = 0;
	int end = 0;

	/* Their frames travel in shared memory, libhaptix's default. */
	snprintf(peer, sizeof(peer), "unix uid %u pid %d, shm",
	    (unsigned)getuid(), (int)getpid());
	cr_expect_str_eq(a->peer, peer, "Unix peers by SO_PEERCRED");
	cr_expect_str_eq(g->peer, peer);
	cr_expect_eq(strncmp(b->peer, "tcp 127.0.0.1:", 14), 0, "%s", b->peer);
	cr_expect(sscanf(b->peer, "tcp 127.0.0.1:%u%n", &port, &end) == 1 &&
		b->peer[end] == '\0' && port > 0 && port < 65536,
	    "a TCP peer ends in its port: %s", b->peer);
	cr_expect_neq(port, (unsigned)atoi(strchr(tcp_addr, ':') + 1),
	    "the client's port, not the server's (%s)", b->peer);
}

/* The counters of n clients that have only said Hello and listed. */
static void
expect_fresh_counters(const hxd_client *list, int n)
{
	int i;

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
}

/* A client that leaves (gamma) leaves the list alpha gets. */
static void
expect_gone(hxd_conn *alpha, hxd_conn *gamma)
{
	hxd_client *list;
	int n;

	hxd_close(gamma);
	cr_expect_eq(hx_wait_clients(alpha, 2, 2000), 2);
	list = hx_clients_ok(alpha, &n, NULL);
	cr_expect_null(client_named(list, n, "gamma"));
	free(list);
}

Test(sessions, clients_are_listed_with_names_peers_and_counters)
{
	const char *args[] = { "-m", "fixture.xml", "--paused", NULL };
	const hxd_client *a, *b, *g;
	unsigned long long you_a = 0, you_b = 0, requests, bytes_in, bytes_out;
	hxd_conn *alpha, *beta, *gamma;
	struct hx_server s;
	hxd_client *list;
	int n, i;

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
	expect_peers(a, b, g, s.tcp_addr);
	expect_fresh_counters(list, n);
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

	expect_gone(alpha, gamma);
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
