/*
 * The wire protocol against a real haptixd, byte by byte: framing edge
 * cases, the handshake, malformed input, limits and the token.  Every
 * abuse must get its documented answer on that connection only, while a
 * client on the side keeps being served.
 */
#include "config.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "frame.h"
#include "check.h"
#include "harness.h"
#include "haptixd.h"
#include "rawclient.h"

TestSuite(protocol, .timeout = 60, .fini = hx_server_cleanup);

#define CALL(x) HAPTIX__V1__REQUEST__CALL_##x
#define PAYLOAD(x) HAPTIX__V1__RESPONSE__PAYLOAD_##x

/* Connect and say Hello; fail the test unless it is accepted. */
static int
connect_ready(const char *addr)
{
	int fd = raw_connect(addr);

	cr_assert_eq(raw_hello(fd, "test"), 0, "Hello refused");
	return fd;
}

/* Expect an answer with the given id, result and (optional) error text. */
static void
expect_answer(int fd, uint64_t id, int result, const char *text)
{
	Haptix__V1__Response *r = raw_recv(fd, 5000);

	cr_assert_not_null(r, "no answer (expected id %llu, result %d)",
	    (unsigned long long)id, result);
	cr_expect_eq(r->id, id, "answer id");
	cr_expect_eq(r->result, result, "result %d (%s), expected %d",
	    r->result, r->error, result);
	if (text != NULL)
		cr_expect_not_null(strstr(r->error, text),
		    "error \"%s\" lacks "
		    "\"%s\"",
		    r->error, text);
	haptix__v1__response__free_unpacked(r, NULL);
}

/* Check that a separate, well-behaved client is served correctly. */
static void
expect_bystander_served(const char *addr)
{
	hxd_conn *c = hx_connect_ok(addr, "bystander");
	hxd_state *st = NULL;

	HX_OK(c, hxd_get_state(c, &st));
	cr_expect_eq(st->nq, 9, "the fixture model has nq 9");
	free(st);
	hxd_close(c);
}

HX_TRANSPORT_TEST(protocol, split_frames_are_reassembled, "-m", "fixture.xml",
    "--paused", NULL)
{
	Haptix__V1__Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__Empty empty = HAPTIX__V1__EMPTY__INIT;
	Haptix__V1__Response *r;
	uint8_t buf[256];
	size_t len, i;
	int fd = connect_ready(addr);

	req.id = 7;
	req.call_case = CALL(GET_STATE);
	req.get_state = &empty;
	len = haptix__v1__request__get_packed_size(&req);
	frame_put_header(buf, (uint32_t)len);
	haptix__v1__request__pack(&req, buf + FRAME_HEADER_SIZE);
	/* One byte at a time, with pauses so that each arrives alone. */
	for (i = 0; i < len + FRAME_HEADER_SIZE; i++) {
		raw_send(fd, buf + i, 1);
		hx_sleep_ms(2);
	}
	r = raw_recv(fd, 5000);
	cr_assert_not_null(r);
	cr_expect_eq(r->id, 7);
	cr_expect_eq(r->result, 0);
	cr_assert_eq(r->payload_case, PAYLOAD(STATE));
	cr_expect_eq(r->state->nq, 9);
	cr_expect_eq(r->state->n_qpos, 9);
	haptix__v1__response__free_unpacked(r, NULL);
	close(fd);
}

HX_TRANSPORT_TEST(protocol, coalesced_frames_answer_in_order, "-m",
    "fixture.xml", "--paused", NULL)
{
	Haptix__V1__Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__Hello hello = HAPTIX__V1__HELLO__INIT;
	Haptix__V1__Empty empty = HAPTIX__V1__EMPTY__INIT;
	Haptix__V1__Response *r;
	static const Haptix__V1__Request__CallCase calls[] = { CALL(GET_STATE),
		CALL(GET_CONTROL), CALL(GET_SENSOR), CALL(STATUS) };
	static const Haptix__V1__Response__PayloadCase want[] = { PAYLOAD(
								      STATE),
		PAYLOAD(CONTROL), PAYLOAD(SENSOR), PAYLOAD(STATUS) };
	uint8_t buf[1024];
	size_t off = 0, len, i;
	int fd = raw_connect(addr);

	/* Hello and four calls in a single write. */
	hello.protocol_version = 1;
	req.id = 100;
	req.call_case = CALL(HELLO);
	req.hello = &hello;
	len = haptix__v1__request__get_packed_size(&req);
	frame_put_header(buf + off, (uint32_t)len);
	haptix__v1__request__pack(&req, buf + off + FRAME_HEADER_SIZE);
	off += FRAME_HEADER_SIZE + len;
	for (i = 0; i < 4; i++) {
		req.id = 101 + i;
		req.call_case = calls[i];
		req.info = &empty;
		len = haptix__v1__request__get_packed_size(&req);
		frame_put_header(buf + off, (uint32_t)len);
		haptix__v1__request__pack(&req, buf + off + FRAME_HEADER_SIZE);
		off += FRAME_HEADER_SIZE + len;
	}
	raw_send(fd, buf, off);
	r = raw_recv(fd, 5000);
	cr_assert_not_null(r);
	cr_expect_eq(r->id, 100);
	cr_expect_eq(r->payload_case, PAYLOAD(WELCOME));
	haptix__v1__response__free_unpacked(r, NULL);
	for (i = 0; i < 4; i++) {
		r = raw_recv(fd, 5000);
		cr_assert_not_null(r, "answer %zu missing", i);
		cr_expect_eq(r->id, 101 + i, "answers come in request order");
		cr_expect_eq(r->payload_case, want[i]);
		haptix__v1__response__free_unpacked(r, NULL);
	}
	close(fd);
}

HX_TRANSPORT_TEST(protocol, oversize_frame_is_refused_and_closed, "-m",
    "fixture.xml", "--paused", "--max-frame", "4096", NULL)
{
	uint8_t hdr[FRAME_HEADER_SIZE];
	int fd = connect_ready(addr);

	/* Only the header: the daemon must not wait for 5000 bytes. */
	frame_put_header(hdr, 5000);
	raw_send(fd, hdr, sizeof(hdr));
	expect_answer(fd, 0, HXD_BADPROTOCOL, "exceeds the limit of 4096");
	cr_expect(raw_closed(fd, 5000), "the connection is closed");
	close(fd);
	expect_bystander_served(addr);
}

/*
 * Before Hello nobody is trusted with a large frame: a first frame
 * beyond what a Hello can be is refused at its header, however large
 * --max-frame is (issue 16).  Before, the daemon waited for its body.
 */
HX_TRANSPORT_TEST(protocol, a_large_first_frame_is_refused_at_once, "-m",
    "fixture.xml", "--paused", NULL)
{
	uint8_t hdr[FRAME_HEADER_SIZE];
	int fd = raw_connect(addr);

	frame_put_header(hdr, 1000000);
	raw_send(fd, hdr, sizeof(hdr));
	expect_answer(fd, 0, HXD_BADPROTOCOL, "a Hello takes at most");
	cr_expect(raw_closed(fd, 5000), "the connection is closed");
	close(fd);
	expect_bystander_served(addr);
}

/*
 * A frame begun that goes no further holds its connection no longer
 * than 10 s after its last byte (issue 16); before, forever.
 */
HX_TRANSPORT_TEST(protocol, a_stalled_frame_is_closed_after_a_deadline, "-m",
    "fixture.xml", "--paused", NULL)
{
	uint8_t part[FRAME_HEADER_SIZE + 10] = { 0 };
	int fd = connect_ready(addr);
	double t0;

	frame_put_header(part, 100);
	raw_send(fd, part, sizeof(part));
	t0 = hx_wall_now();
	{
		Haptix__V1__Response *r = raw_recv(fd, 15000);

		cr_assert_not_null(r, "no answer within 15 s of the stall");
		cr_expect_eq(r->result, HXD_BADPROTOCOL);
		cr_expect(
		    strstr(r->error, "no byte more") != NULL, "%s", r->error);
		haptix__v1__response__free_unpacked(r, NULL);
	}
	cr_expect_geq(hx_wall_now() - t0, 9.0, "closed before the deadline");
	cr_expect(raw_closed(fd, 5000), "the connection is closed");
	close(fd);
	expect_bystander_served(addr);
}

HX_TRANSPORT_TEST(protocol, zero_length_frame_is_an_empty_request, "-m",
    "fixture.xml", "--paused", NULL)
{
	int fd = connect_ready(addr);
	Haptix__V1__Response *r;

	raw_send_frame(fd, "", 0);
	expect_answer(fd, 0, HXD_BADCOMMAND, "empty request");
	r = raw_call_empty(fd, CALL(GET_STATE), 9);
	cr_assert_not_null(r, "the connection still works");
	cr_expect_eq(r->id, 9);
	cr_expect_eq(r->result, 0);
	haptix__v1__response__free_unpacked(r, NULL);
	close(fd);
}

/*
 * Request id 0 is refused: its answer would carry id 0, which clients
 * take for an event (issue 16).  Before, it was served.
 */
HX_TRANSPORT_TEST(
    protocol, request_id_0_is_refused, "-m", "fixture.xml", "--paused", NULL)
{
	int fd = connect_ready(addr);
	Haptix__V1__Response *r;

	r = raw_call_empty(fd, CALL(GET_STATE), 0);
	cr_assert_not_null(r, "no answer to a request of id 0");
	cr_expect_eq(r->id, 0);
	cr_expect_eq(r->result, HXD_BADPROTOCOL, "result %d", r->result);
	cr_expect_eq(r->payload_case, 0, "a request of id 0 was served");
	cr_expect(strstr(r->error, "id 0") != NULL, "%s", r->error);
	haptix__v1__response__free_unpacked(r, NULL);
	r = raw_call_empty(fd, CALL(GET_STATE), 5);
	cr_assert_not_null(r, "the connection still works");
	cr_expect_eq(r->id, 5);
	cr_expect_eq(r->result, 0);
	haptix__v1__response__free_unpacked(r, NULL);
	close(fd);
}

HX_TRANSPORT_TEST(protocol, garbage_frame_gets_an_error_and_service_goes_on,
    "-m", "fixture.xml", "--paused", NULL)
{
	/* A truncated varint and a wrong wire type: not a Request. */
	static const uint8_t garbage[] = { 0x08, 0xff, 0xff, 0xff, 0x0f, 0x12,
		0x80 };
	Haptix__V1__Response *r;
	int fd = connect_ready(addr);

	raw_send_frame(fd, garbage, sizeof(garbage));
	expect_answer(fd, 0, HXD_BADPROTOCOL, "does not decode");
	r = raw_call_empty(fd, CALL(GET_CONTROL), 11);
	cr_assert_not_null(r);
	cr_expect_eq(r->id, 11);
	cr_expect_eq(r->payload_case, PAYLOAD(CONTROL));
	haptix__v1__response__free_unpacked(r, NULL);
	close(fd);
	expect_bystander_served(addr);
}

HX_TRANSPORT_TEST(protocol, garbage_before_hello_closes, "-m", "fixture.xml",
    "--paused", NULL)
{
	static const uint8_t garbage[] = { 0xff, 0xff, 0xff };
	int fd = raw_connect(addr);

	raw_send_frame(fd, garbage, sizeof(garbage));
	expect_answer(fd, 0, HXD_BADPROTOCOL, "does not decode");
	cr_expect(raw_closed(fd, 5000));
	close(fd);
	expect_bystander_served(addr);
}

HX_TRANSPORT_TEST(protocol, request_before_hello_closes, "-m", "fixture.xml",
    "--paused", NULL)
{
	int fd = raw_connect(addr);
	Haptix__V1__Response *r;

	r = raw_call_empty(fd, CALL(GET_STATE), 3);
	cr_assert_not_null(r);
	cr_expect_eq(r->id, 3);
	cr_expect_eq(r->result, HXD_BADPROTOCOL);
	cr_expect_not_null(strstr(r->error, "must be Hello"), "%s", r->error);
	cr_expect_eq(r->payload_case, HAPTIX__V1__RESPONSE__PAYLOAD__NOT_SET,
	    "no state leaks before the handshake");
	haptix__v1__response__free_unpacked(r, NULL);
	cr_expect(raw_closed(fd, 5000));
	close(fd);
}

HX_TRANSPORT_TEST(
    protocol, wrong_version_closes, "-m", "fixture.xml", "--paused", NULL)
{
	Haptix__V1__Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__Hello hello = HAPTIX__V1__HELLO__INIT;
	int fd = raw_connect(addr);

	hello.protocol_version = 99;
	req.id = 1;
	req.call_case = CALL(HELLO);
	req.hello = &hello;
	raw_send_request(fd, &req);
	expect_answer(fd, 1, HXD_BADPROTOCOL, "version 99");
	cr_expect(raw_closed(fd, 5000));
	close(fd);
}

HX_TRANSPORT_TEST(
    protocol, second_hello_is_refused, "-m", "fixture.xml", "--paused", NULL)
{
	Haptix__V1__Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__Hello hello = HAPTIX__V1__HELLO__INIT;
	Haptix__V1__Response *r;
	int fd = connect_ready(addr);

	hello.protocol_version = 1;
	req.id = 2;
	req.call_case = CALL(HELLO);
	req.hello = &hello;
	raw_send_request(fd, &req);
	expect_answer(fd, 2, HXD_BADPROTOCOL, "already");
	r = raw_call_empty(fd, CALL(GET_STATE), 3);
	cr_assert_not_null(r, "the connection stays open");
	cr_expect_eq(r->result, 0);
	haptix__v1__response__free_unpacked(r, NULL);
	close(fd);
}

HX_TRANSPORT_TEST(
    protocol, unknown_call_is_badcommand, "-m", "fixture.xml", "--paused", NULL)
{
	/* id = 5, then field 99 (a call from the future) with no bytes. */
	static const uint8_t future[] = { 0x08, 0x05, 0x9a, 0x06, 0x00 };
	Haptix__V1__Response *r;
	int fd = connect_ready(addr);

	raw_send_frame(fd, future, sizeof(future));
	expect_answer(fd, 5, HXD_BADCOMMAND, "field 99");
	r = raw_call_empty(fd, CALL(GET_STATE), 6);
	cr_assert_not_null(r);
	cr_expect_eq(r->result, 0);
	haptix__v1__response__free_unpacked(r, NULL);
	close(fd);
}

HX_TRANSPORT_TEST(
    protocol, client_vanishing_mid_frame, "-m", "fixture.xml", "--paused", NULL)
{
	uint8_t buf[FRAME_HEADER_SIZE + 10];
	int fd = connect_ready(addr), i;

	frame_put_header(buf, 100);
	memset(buf + FRAME_HEADER_SIZE, 0x08, 10);
	raw_send(fd, buf, sizeof(buf));
	close(fd);
	/* Also vanish right after connecting and during the handshake. */
	for (i = 0; i < 20; i++) {
		fd = raw_connect(addr);
		if (i % 2)
			raw_send(fd, buf, 3);
		close(fd);
	}
	expect_bystander_served(addr);
	cr_expect(hx_server_log_has(srv, "closed by the client"));
}

Test(protocol, token_is_required_on_tcp)
{
	struct hx_server s;
	char tokfile[400], env[sizeof(tokfile) + 8];
	const char *args[] = { "-m", "fixture.xml", "--paused", "--token-file",
		tokfile, NULL };
	Haptix__V1__Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__Hello hello = HAPTIX__V1__HELLO__INIT;
	hxd_conn *c;
	FILE *f;
	int fd;

	snprintf(tokfile, sizeof(tokfile), "/tmp/hxtoken.%d", (int)getpid());
	f = fopen(tokfile, "w");
	cr_assert_not_null(f);
	fputs("s3cret-token\n", f);
	fclose(f);
	chmod(tokfile, 0600);
	hx_server_start(&s, args);

	/* No token on TCP: refused and closed. */
	fd = raw_connect(s.tcp_addr);
	hello.protocol_version = 1;
	req.id = 1;
	req.call_case = CALL(HELLO);
	req.hello = &hello;
	raw_send_request(fd, &req);
	expect_answer(fd, 1, HXD_DENIED, "requires a token");
	cr_expect(raw_closed(fd, 5000));
	close(fd);

	/* A wrong token, through the library. */
	snprintf(env, sizeof(env), "%.390s.wrong", tokfile);
	f = fopen(env, "w");
	fputs("s3cret-tokem", f);
	fclose(f);
	setenv("HAPTIX_TOKEN_FILE", env, 1);
	c = hxd_connect(s.tcp_addr, "test");
	cr_expect_eq(hxd_result(c), HXD_DENIED, "%s", hxd_error(c));
	cr_expect_not_null(strstr(hxd_error(c), "wrong token"));
	hxd_close(c);
	unlink(env);

	/* The right token (trailing newline ignored). */
	setenv("HAPTIX_TOKEN_FILE", tokfile, 1);
	c = hxd_connect(s.tcp_addr, "test");
	cr_expect_eq(hxd_result(c), HXD_OK, "%s", hxd_error(c));
	hxd_close(c);

	/* The Unix socket relies on its file mode instead. */
	unsetenv("HAPTIX_TOKEN_FILE");
	c = hxd_connect(s.unix_addr, "test");
	cr_expect_eq(hxd_result(c), HXD_OK, "%s", hxd_error(c));
	hxd_close(c);

	hx_server_stop(&s);
	unlink(tokfile);
}

Test(protocol, non_loopback_needs_a_token)
{
	struct hx_server s;
	const char *args[] = { "-m", "fixture.xml", "--tcp", "0.0.0.0:0",
		NULL };
	int status;

	status = hx_server_try_start(&s, args);
	cr_assert_neq(status, -1, "haptixd must refuse to start");
	cr_expect(WIFEXITED(status) && WEXITSTATUS(status) != 0);
	cr_expect(hx_server_log_has(&s, "without --token-file"));
	hx_server_stop(&s);
}

/*
 * A TCP port already taken stops haptixd, and its Unix socket file goes
 * with it (it was left behind).
 */
Test(protocol, a_taken_port_leaves_no_socket_file)
{
	struct hx_server s;
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t salen = sizeof(sa);
	char taken[32];
	const char *args[] = { "-m", "fixture.xml", "--tcp", taken, NULL };
	int fd, status;

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	cr_assert(fd != -1 && bind(fd, (struct sockaddr *)&sa, salen) == 0 &&
	    listen(fd, 1) == 0 &&
	    getsockname(fd, (struct sockaddr *)&sa, &salen) == 0);
	snprintf(taken, sizeof(taken), "127.0.0.1:%d", ntohs(sa.sin_port));
	status = hx_server_try_start(&s, args);
	close(fd);
	cr_assert_neq(status, -1, "haptixd must not start");
	cr_expect(WIFEXITED(status) && WEXITSTATUS(status) != 0);
	cr_expect(hx_server_log_has(&s, "Address already in use"), "%s",
	    hx_server_log_text(&s));
	cr_expect(access(s.unix_addr + strlen("unix:"), F_OK) != 0,
	    "%s is left behind", s.unix_addr + strlen("unix:"));
	hx_server_stop(&s);
}

/*
 * --tcp localhost:0 listens on every address localhost resolves to, one
 * port for all, and logs each: under Debian's /etc/hosts, 127.0.0.1 and
 * ::1 (it listened on the first the resolver gave alone).
 */
Test(protocol, a_name_listens_on_each_of_its_addresses)
{
	struct hx_server s;
	const char *args[] = { "-m", "fixture.xml", "--tcp", "localhost:0",
		NULL };
	struct addrinfo hints = { 0 }, *res, *ai;
	char host[NI_MAXHOST], addr[NI_MAXHOST + 16], line[NI_MAXHOST + 40];
	const char *port;
	int fd;

	hx_server_start(&s, args);
	port = strrchr(hx_server_addr(&s, 1), ':') + 1;
	hints.ai_socktype = SOCK_STREAM;
	cr_assert_eq(getaddrinfo("localhost", port, &hints, &res), 0);
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		cr_assert_eq(getnameinfo(ai->ai_addr, ai->ai_addrlen, host,
				 sizeof(host), NULL, 0, NI_NUMERICHOST),
		    0);
		snprintf(addr, sizeof(addr),
		    ai->ai_family == AF_INET6 ? "[%s]:%s" : "%s:%s", host,
		    port);
		snprintf(line, sizeof(line), "listening on tcp:%s\n", addr);
		cr_expect(hx_server_log_has(&s, line),
		    "localhost is %s, not in the log:\n%s", host,
		    hx_server_log_text(&s));
		fd = raw_connect(addr);
		cr_expect_eq(raw_hello(fd, "test"), 0, "Hello at %s", addr);
		close(fd);
	}
	freeaddrinfo(res);
	hx_server_stop(&s);
}

Test(protocol, unix_socket_is_mode_0660)
{
	struct hx_server s;
	const char *args[] = { "-m", "fixture.xml", "--paused", NULL };
	struct stat st;

	hx_server_start(&s, args);
	cr_assert_eq(stat(s.unix_addr + 5, &st), 0);
	cr_expect(S_ISSOCK(st.st_mode));
	cr_expect_eq(st.st_mode & 0777, 0660, "mode %o", st.st_mode & 0777);
	hx_server_stop(&s);
}

Test(protocol, live_socket_is_not_stolen)
{
	struct hx_server a, b;
	const char *args[] = { "-m", "fixture.xml", "--paused", NULL };
	char path[sizeof(a.unix_addr)];
	const char *args2[] = { "-m", "fixture.xml", "--unix", path, NULL };
	int status;

	hx_server_start(&a, args);
	snprintf(path, sizeof(path), "%.300s", a.unix_addr + 5);
	status = hx_server_try_start(&b, args2);
	cr_expect_neq(status, -1, "a second daemon must not take the socket");
	cr_expect(hx_server_log_has(&b, "another server is listening"));
	hx_server_stop(&b);
	expect_bystander_served(a.unix_addr);
	hx_server_stop(&a);
}

Test(protocol, client_limit)
{
	struct hx_server s;
	const char *args[] = { "-m", "fixture.xml", "--paused", "--max-clients",
		"2", NULL };
	hxd_conn *c1, *c2, *c3;

	hx_server_start(&s, args);
	c1 = hxd_connect(s.unix_addr, "one");
	c2 = hxd_connect(s.tcp_addr, "two");
	cr_expect_eq(hxd_result(c1), HXD_OK);
	cr_expect_eq(hxd_result(c2), HXD_OK);
	c3 = hxd_connect(s.unix_addr, "three");
	cr_expect_neq(hxd_result(c3), HXD_OK, "a third client is refused");
	cr_expect_not_null(
	    strstr(hxd_error(c3), "too many clients"), "%s", hxd_error(c3));
	hxd_close(c3);
	hxd_close(c1);
	/* A place is free again once a client leaves. */
	hx_sleep_ms(200);
	c3 = hxd_connect(s.unix_addr, "three again");
	cr_expect_eq(hxd_result(c3), HXD_OK, "%s", hxd_error(c3));
	hxd_close(c3);
	hxd_close(c2);
	hx_server_stop(&s);
}

/*------------------------------------------------- before the Hello */

/* The default of --max-handshakes (haptixd(8)). */
#define DEFAULT_MAX_HANDSHAKES 32

/* Write a token file for this process; its path goes to path. */
static void
write_token(char *path, size_t len)
{
	FILE *f;

	snprintf(path, len, "/tmp/hxtoken.%d", (int)getpid());
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs("s3cret-token\n", f);
	fclose(f);
	chmod(path, 0600);
}

/*
 * Connections that never say Hello take no client place (issue 16): with
 * --max-clients 8 and a token on TCP, eight strangers connected and
 * silent keep neither a token holder on TCP nor a client on the Unix
 * socket out, any of twenty times; --max-clients still holds for those
 * welcomed.  Before, the eight strangers held every place.
 */
Test(protocol, strangers_before_hello_take_no_client_place)
{
	struct hx_server s;
	char tok[64];
	const char *args[] = { "-m", "fixture.xml", "--paused", "--max-clients",
		"8", "--token-file", tok, NULL };
	hxd_conn *c, *u, *in[8];
	int fds[8], i, n;

	write_token(tok, sizeof(tok));
	hx_server_start(&s, args);
	for (i = 0; i < 8; i++)
		fds[i] = raw_connect(s.tcp_addr);
	hx_sleep_ms(200); /* all accepted */
	for (i = 0; i < 20; i++) {
		setenv("HAPTIX_TOKEN_FILE", tok, 1);
		c = hxd_connect(s.tcp_addr, "holder");
		unsetenv("HAPTIX_TOKEN_FILE");
		cr_expect_eq(hxd_result(c), HXD_OK,
		    "round %d, the token holder: %s", i, hxd_error(c));
		u = hxd_connect(s.unix_addr, "local");
		cr_expect_eq(hxd_result(u), HXD_OK, "round %d, on Unix: %s", i,
		    hxd_error(u));
		hxd_close(c);
		hxd_close(u);
	}
	for (i = 0; i < 8; i++)
		cr_expect(!raw_closed(fds[i], 0), "stranger %d was closed", i);

	/* Eight welcomed fill the places; a ninth is refused at its Hello. */
	in[0] = hx_connect_ok(s.unix_addr, "first");
	n = hx_wait_clients(in[0], 1, 5000);
	cr_assert_eq(n, 1, "%d clients", n);
	for (i = 1; i < 8; i++)
		in[i] = hx_connect_ok(s.unix_addr, "more");
	u = hxd_connect(s.unix_addr, "ninth");
	cr_expect_eq(hxd_result(u), HXD_DENIED, "%s", hxd_error(u));
	cr_expect(strstr(hxd_error(u), "too many clients (limit 8") != NULL,
	    "%s", hxd_error(u));
	hxd_close(u);
	for (i = 0; i < 8; i++) {
		hxd_close(in[i]);
		close(fds[i]);
	}
	hx_server_stop(&s);
	unlink(tok);
}

/*
 * Past --max-handshakes connections yet to say Hello on one transport,
 * each newcomer pushes the oldest out, told why; the newer ones stay, a
 * silent one on the Unix socket is no TCP stranger's to push out, and a
 * client is welcomed (issue 16).  Before, all were kept until their
 * Hello deadline, taking client places.
 */
Test(protocol, past_max_handshakes_the_oldest_goes)
{
	static const char *const args[] = { "-m", "fixture.xml", "--paused",
		NULL };
	int fds[DEFAULT_MAX_HANDSHAKES + 5], local, i;
	const int n = DEFAULT_MAX_HANDSHAKES + 5;
	Haptix__V1__Response *r;
	struct hx_server s;
	hxd_conn *side;
	hxd_status st;

	hx_server_start(&s, args);
	side = hx_connect_ok(s.unix_addr, "side");
	st = hx_status_ok(side);
	cr_expect_eq(st.limits.max_handshakes, DEFAULT_MAX_HANDSHAKES);
	local = raw_connect(s.unix_addr); /* the oldest of all */
	for (i = 0; i < n; i++)
		fds[i] = raw_connect(s.tcp_addr);
	for (i = 0; i < 5; i++) {
		r = raw_recv(fds[i], 5000);
		cr_assert_not_null(r, "stranger %d was not told", i);
		cr_expect_eq(
		    r->result, HXD_DENIED, "%d: %s", r->result, r->error);
		cr_expect(strstr(r->error, "--max-handshakes") != NULL, "%s",
		    r->error);
		haptix__v1__response__free_unpacked(r, NULL);
		cr_expect(
		    raw_closed(fds[i], 5000), "stranger %d still open", i);
	}
	for (i = 5; i < n; i++)
		cr_expect(!raw_closed(fds[i], i == 5 ? 200 : 0),
		    "stranger %d, one of the newest, was closed", i);
	cr_expect(!raw_closed(local, 0), "the Unix one was closed");
	cr_expect_eq(raw_hello(local, "late"), 0, "the Unix one is welcomed");
	/* A newcomer on TCP pushes one more out and is served. */
	expect_bystander_served(s.tcp_addr);
	cr_expect(raw_closed(fds[5], 5000), "the oldest left was not pushed");
	for (i = 0; i < n; i++)
		close(fds[i]);
	close(local);
	hxd_close(side);
	hx_server_stop(&s);
}

/*
 * A connection that says nothing is closed after a short deadline, 3 s,
 * told why (issue 16); before, it held its place for 10 s.
 */
HX_TRANSPORT_TEST(protocol, a_silent_connection_is_closed_soon, "-m",
    "fixture.xml", "--paused", NULL)
{
	Haptix__V1__Response *r;
	int fd = raw_connect(addr);
	double t0 = hx_wall_now();

	r = raw_recv(fd, 7000);
	cr_assert_not_null(r, "no word within 7 s of a silent connect");
	cr_expect_eq(r->result, HXD_BADPROTOCOL);
	cr_expect(strstr(r->error, "no Hello within 3 seconds") != NULL, "%s",
	    r->error);
	haptix__v1__response__free_unpacked(r, NULL);
	cr_expect_geq(hx_wall_now() - t0, 2.0, "closed before the deadline");
	cr_expect(raw_closed(fd, 5000), "the connection is closed");
	close(fd);
	expect_bystander_served(addr);
}
