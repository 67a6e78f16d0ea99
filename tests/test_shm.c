/*
 * The shared-memory transport against a hostile client (issue 36,
 * protocol.md "Shared memory"), through real daemons: a client written
 * here takes the region and the pipes as libhaptix would, then breaks
 * them in one way per test, while an honest libhaptix client on shared
 * memory keeps calling.  Each test asserts both halves: the hostile
 * connection alone is closed (its socket sees the end, the daemon's log
 * says why) and the honest one is served throughout, promptly.
 *
 * Then a soak: sixteen clients doing the same calls at once over shared
 * memory and over the socket, their results compared byte for byte.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "check.h"
#include "fdpass.h"
#include "frame.h"
#include "harness.h"
#include "haptix.pb-c.h"
#include "haptixd.h"
#include "rawclient.h"
#include "shmlink.h"

TestSuite(shm, .timeout = 120, .fini = hx_server_cleanup);

/* The answers a hostile client holds before it parses them. */
#define HOSTILE_INPUT (4u << 20)

/* A client of the test's own on shared memory: the daemon's peer. */
struct hostile {
	int sock;
	struct shmlink link;
	uint64_t id;   /* the last request's */
	uint8_t *in;   /* answers copied out of the ring */
	size_t in_len; /* bytes in */
};

/*
 * Connect to srv's Unix socket, say Hello with shm, take the Welcome
 * and the descriptors beside it, and map the region.
 */
static void
hostile_open(struct hostile *h, const struct hx_server *srv)
{
	Haptix__V1__Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__Hello hello = HAPTIX__V1__HELLO__INIT;
	Haptix__V1__Response *r;
	int fds[FDPASS_MAX], more[FDPASS_MAX], nfds = 0, nmore;
	struct pollfd pfd;
	uint8_t buf[65536];
	size_t have = 0;
	char why[256];
	ssize_t n;

	/* Our kicks may find the daemon's end gone: we dropped, not died. */
	signal(SIGPIPE, SIG_IGN);
	memset(h, 0, sizeof(*h));
	shmlink_clear(&h->link);
	h->sock = raw_connect(srv->unix_addr);
	hello.protocol_version =
	    HAPTIX__V1__PROTOCOL_VERSION__PROTOCOL_VERSION_CURRENT;
	hello.client_name = (char *)"hostile";
	hello.shm = 1;
	req.id = 1;
	req.call_case = HAPTIX__V1__REQUEST__CALL_HELLO;
	req.hello = &hello;
	raw_send_request(h->sock, &req);
	/* The descriptors come beside the Welcome's first byte. */
	while (have < FRAME_HEADER_SIZE ||
	    have < FRAME_HEADER_SIZE + frame_get_length(buf)) {
		pfd.fd = h->sock;
		pfd.events = POLLIN;
		cr_assert_eq(poll(&pfd, 1, hx_wait_ms(5000)), 1, "no Welcome");
		n = fdpass_recv(h->sock, buf + have, sizeof(buf) - have,
		    have == 0 ? fds : more, have == 0 ? &nfds : &nmore);
		cr_assert_gt(n, 0, "the Welcome was cut: %s", strerror(errno));
		if (have != 0)
			cr_assert_eq(
			    nmore, 0, "descriptors past the first byte");
		have += (size_t)n;
	}
	r = haptix__v1__response__unpack(
	    NULL, have - FRAME_HEADER_SIZE, buf + FRAME_HEADER_SIZE);
	cr_assert_not_null(r);
	cr_assert_eq(r->result, HAPTIX__V1__RESULT__RESULT_OK);
	cr_assert_eq(r->payload_case, HAPTIX__V1__RESPONSE__PAYLOAD_WELCOME);
	cr_assert_not_null(r->welcome->shm, "shared memory not offered");
	cr_assert_eq(nfds, SHMLINK_NFDS);
	cr_assert_eq(
	    shmlink_attach(&h->link, fds, r->welcome->shm->request_ring,
		r->welcome->shm->answer_ring, why, sizeof(why)),
	    0, "%s", why);
	haptix__v1__response__free_unpacked(r, NULL);
	h->in = malloc(HOSTILE_INPUT);
	cr_assert_not_null(h->in);
	h->id = 1;
}

/* Unmap, close and forget the hostile client's link and socket. */
static void
hostile_free(struct hostile *h)
{
	shmlink_free(&h->link);
	if (h->sock != -1)
		close(h->sock);
	h->sock = -1;
	free(h->in);
	h->in = NULL;
}

/* Wake the daemon whether or not it said it sleeps. */
static void
hostile_kick(struct hostile *h)
{
	ssize_t n;

	n = write(h->link.wake_out, "", 1);
	(void)n;
}

/* Put a frame of len bytes (the header added) into the request ring. */
static void
hostile_put_frame(struct hostile *h, const uint8_t *payload, size_t len)
{
	uint8_t *frame = malloc(FRAME_HEADER_SIZE + len);

	cr_assert_not_null(frame);
	frame_put_header(frame, (uint32_t)len);
	memcpy(frame + FRAME_HEADER_SIZE, payload, len);
	cr_assert_eq(shmlink_write(&h->link, frame, FRAME_HEADER_SIZE + len),
	    (ssize_t)(FRAME_HEADER_SIZE + len), "the request ring is full");
	free(frame);
	if (shmring_wake_needed(&h->link.out))
		shmlink_kick(&h->link);
}

/* Send a request through the ring; returns its id. */
static uint64_t
hostile_send(struct hostile *h, Haptix__V1__Request *req)
{
	size_t len;
	uint8_t *buf;

	req->id = ++h->id;
	len = haptix__v1__request__get_packed_size(req);
	buf = malloc(len + 1);
	cr_assert_not_null(buf);
	haptix__v1__request__pack(req, buf);
	hostile_put_frame(h, buf, len);
	free(buf);
	return req->id;
}

/* Send a request with an Empty call (get_state, info). */
static uint64_t
hostile_send_empty(struct hostile *h, Haptix__V1__Request__CallCase call)
{
	Haptix__V1__Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__Empty empty = HAPTIX__V1__EMPTY__INIT;

	req.call_case = call;
	req.info = &empty; /* every Empty call shares the oneof's place */
	return hostile_send(h, &req);
}

/*
 * The next answer from the answer ring, or NULL when none came within
 * timeout_ms (or the ring broke).  Free with
 * haptix__v1__response__free_unpacked.
 */
static Haptix__V1__Response *
hostile_recv(struct hostile *h, int timeout_ms)
{
	double until = hx_wall_now() + timeout_ms / 1000.0;
	Haptix__V1__Response *r;
	uint32_t len;
	ssize_t n;

	for (;;) {
		if (h->in_len >= FRAME_HEADER_SIZE) {
			len = frame_get_length(h->in);
			cr_assert_lt(len, HOSTILE_INPUT / 2);
			if (h->in_len >= FRAME_HEADER_SIZE + len) {
				r = haptix__v1__response__unpack(
				    NULL, len, h->in + FRAME_HEADER_SIZE);
				cr_assert_not_null(r,
				    "an answer that does "
				    "not decode");
				h->in_len -= FRAME_HEADER_SIZE + len;
				memmove(h->in, h->in + FRAME_HEADER_SIZE + len,
				    h->in_len);
				return r;
			}
		}
		if (HOSTILE_INPUT - h->in_len >= SHMLINK_CHUNK_MAX) {
			n = shmlink_read(&h->link, h->in + h->in_len,
			    HOSTILE_INPUT - h->in_len);
			if (n < 0)
				return NULL;
			if (n > 0) {
				if (shmring_room_wake_needed(&h->link.in))
					shmlink_kick(&h->link);
				h->in_len += (size_t)n;
				continue;
			}
		}
		if (hx_wall_now() > until)
			return NULL;
		hx_sleep_ms(1);
	}
}

/* A get_state through the ring, answered OK: the link works. */
static void
hostile_works(struct hostile *h)
{
	Haptix__V1__Response *r;
	uint64_t id;

	id = hostile_send_empty(h, HAPTIX__V1__REQUEST__CALL_GET_STATE);
	r = hostile_recv(h, hx_wait_ms(5000));
	cr_assert_not_null(r, "the hostile client's call was not answered");
	cr_assert_eq(r->id, id);
	cr_assert_eq(r->result, HAPTIX__V1__RESULT__RESULT_OK, "%s",
	    r->error != NULL ? r->error : "");
	haptix__v1__response__free_unpacked(r, NULL);
}

/* 1 if the daemon closed the hostile connection within ms. */
static int
hostile_closed(struct hostile *h, int ms)
{
	return raw_closed(h->sock, hx_wait_ms(ms));
}

/* An honest client, on shared memory as libhaptix chooses by itself. */
static hxd_conn *
honest_open(const struct hx_server *srv)
{
	hxd_client *cl;
	unsigned long long you;
	hxd_conn *c = hx_connect_ok(srv->unix_addr, "honest");
	int i, n, shm = 0;

	cr_assert_eq(hxd_clients(c, &cl, &n, &you), HXD_OK);
	for (i = 0; i < n; i++)
		if (cl[i].id == you)
			shm = strstr(cl[i].peer, "shm") != NULL;
	free(cl);
	cr_assert(shm, "the honest client is not on shared memory");
	return c;
}

/*
 * calls get_state and step calls, each answered OK and within a
 * generous bound (the daemon never waits on a hostile ring or pipe).
 */
static void
honest_served(hxd_conn *c, int calls)
{
	double t, worst = 0, bound = hx_wait_ms(1000) / 1000.0;
	unsigned taken;
	hxd_state *st;
	int i;

	for (i = 0; i < calls; i++) {
		t = hx_wall_now();
		cr_assert_eq(hxd_get_state(c, &st), HXD_OK, "%s", hxd_error(c));
		free(st);
		cr_assert_eq(
		    hxd_step(c, 1, &taken), HXD_OK, "%s", hxd_error(c));
		t = hx_wall_now() - t;
		if (t > worst)
			worst = t;
	}
	cr_assert_lt(worst, bound,
	    "the honest client waited %.3f s for an answer", worst);
}

/* The number of clients the daemon lists. */
static int
clients_count(hxd_conn *c)
{
	hxd_client *cl;
	int n;

	cr_assert_eq(hxd_clients(c, &cl, &n, NULL), HXD_OK);
	free(cl);
	return n;
}

/* Wait until the daemon lists want clients; 1 if it did within ms. */
static int
clients_become(hxd_conn *c, int want, int ms)
{
	double until = hx_wall_now() + hx_wait_ms(ms) / 1000.0;

	while (clients_count(c) != want) {
		if (hx_wall_now() > until)
			return 0;
		hx_sleep_ms(10);
	}
	return 1;
}

/* The hostile connection closed, the honest one served after it. */
static void
only_hostile_dropped(
    struct hx_server *srv, struct hostile *h, hxd_conn *c, const char *logged)
{
	cr_assert(hostile_closed(h, 5000),
	    "the daemon did not close the hostile connection");
	cr_assert(clients_become(c, 1, 5000), "the hostile client is listed");
	honest_served(c, 50);
	cr_assert(hxd_connected(c));
	if (logged != NULL)
		cr_assert(hx_server_log_has(srv, logged), "no \"%s\" in: %s",
		    logged, hx_server_log_text(srv));
}

static const char *const shm_args[] = { "-m", "fixture.xml", "--paused", NULL };

/* Random bytes over the whole region, positions and all. */
Test(shm, scribbles_over_the_region)
{
	struct hx_server srv;
	struct hostile h;
	unsigned seed = 36;
	uint8_t *p;
	hxd_conn *c;
	size_t i;
	int round;

	hx_server_start(&srv, shm_args);
	c = honest_open(&srv);
	for (round = 0; round < 3; round++) {
		hostile_open(&h, &srv);
		hostile_works(&h);
		p = h.link.region.base;
		for (i = 0; i < h.link.region.size; i++)
			p[i] = (uint8_t)rand_r(&seed);
		hostile_kick(&h);
		only_hostile_dropped(
		    &srv, &h, c, "it broke its shared-memory ring");
		hostile_free(&h);
	}
	hxd_close(c);
	hx_server_stop(&srv);
}

/*
 * The daemon says in the request ring on which CPU it read the request
 * (protocol.md, "Waking"): libhaptix's wait for the answer yields at once
 * where it shares that CPU.  The daemon placed on each CPU in turn.
 */
Test(shm, the_daemon_says_its_cpu)
{
	struct hx_server srv;
	struct hostile h;
	cpu_set_t mine, one;
	int cpu, said;

	cr_assert_eq(sched_getaffinity(0, sizeof(mine), &mine), 0);
	hx_server_start(&srv, shm_args);
	hostile_open(&h, &srv);
	for (cpu = 0; cpu < 64; cpu++) {
		if (!CPU_ISSET(cpu, &mine))
			continue;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		cr_assert_eq(sched_setaffinity(srv.pid, sizeof(one), &one), 0,
		    "sched_setaffinity: %s", strerror(errno));
		hostile_works(&h);
		said = (int)__atomic_load_n(
			   &h.link.out.ctl->cpu, __ATOMIC_RELAXED) -
		    1;
		cr_assert_eq(said, cpu,
		    "the daemon, on CPU %d, said %d in the request ring", cpu,
		    said);
	}
	hostile_free(&h);
	hx_server_stop(&srv);
}

/* A head more than the ring's size ahead of what the daemon read. */
Test(shm, impossible_head)
{
	struct hx_server srv;
	struct hostile h;
	hxd_conn *c;

	hx_server_start(&srv, shm_args);
	c = honest_open(&srv);
	hostile_open(&h, &srv);
	hostile_works(&h);
	__atomic_store_n(&h.link.out.ctl->head,
	    h.link.out.ctl->tail + h.link.out.cap + 1, __ATOMIC_RELEASE);
	hostile_kick(&h);
	only_hostile_dropped(&srv, &h, c,
	    "it broke its shared-memory ring (positions or a chunk's size)");
	hostile_free(&h);
	hxd_close(c);
	hx_server_stop(&srv);
}

/* A head behind what the daemon read. */
Test(shm, head_going_back)
{
	struct hx_server srv;
	struct hostile h;
	hxd_conn *c;

	hx_server_start(&srv, shm_args);
	c = honest_open(&srv);
	hostile_open(&h, &srv);
	hostile_works(&h);
	__atomic_store_n(
	    &h.link.out.ctl->head, h.link.out.ctl->tail - 1, __ATOMIC_RELEASE);
	hostile_kick(&h);
	only_hostile_dropped(&srv, &h, c, "it broke its shared-memory ring");
	hostile_free(&h);
	hxd_close(c);
	hx_server_stop(&srv);
}

/* Lay a chunk header of length len at the client's position. */
static void
hostile_chunk_header(struct hostile *h, uint32_t len)
{
	uint8_t hdr[4];
	uint32_t off = h->link.out.pos & (h->link.out.cap - 1);
	int i;

	frame_put_header(hdr, len);
	for (i = 0; i < 4; i++)
		h->link.out
		    .data[(off + (uint32_t)i) & (h->link.out.cap - 1)] = hdr[i];
}

/* A chunk longer than SHMLINK_CHUNK_MAX, whole in the ring. */
Test(shm, chunk_too_long)
{
	struct hx_server srv;
	struct hostile h;
	hxd_conn *c;

	hx_server_start(&srv, shm_args);
	c = honest_open(&srv);
	hostile_open(&h, &srv);
	hostile_works(&h);
	hostile_chunk_header(&h, SHMLINK_CHUNK_MAX + 1);
	__atomic_store_n(&h.link.out.ctl->head,
	    h.link.out.pos + 4 + SHMLINK_CHUNK_MAX + 1, __ATOMIC_RELEASE);
	hostile_kick(&h);
	only_hostile_dropped(&srv, &h, c,
	    "it broke its shared-memory ring (positions or a chunk's size)");
	hostile_free(&h);
	hxd_close(c);
	hx_server_stop(&srv);
}

/*
 * A torn write: a chunk whose length points past the head.  The daemon
 * takes nothing of it (its tail stays) and waits, as for a frame half
 * sent on a socket; once the rest is written and published it takes
 * the chunk whole and answers it.  Then the chunk's length is changed
 * under it after the head was published past it: the longest chunk
 * allowed with a head short of it is still only waited for, and a
 * length past the limit drops the client.
 */
Test(shm, torn_write)
{
	Haptix__V1__Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__Empty empty = HAPTIX__V1__EMPTY__INIT;
	Haptix__V1__Response *r;
	struct hx_server srv;
	struct hostile h;
	uint8_t payload[256], *frame;
	uint32_t start, tail, i, off, flen;
	size_t len;
	hxd_conn *c;

	hx_server_start(&srv, shm_args);
	c = honest_open(&srv);
	hostile_open(&h, &srv);
	hostile_works(&h);

	/* The chunk: a whole get_state frame. */
	req.id = ++h.id;
	req.call_case = HAPTIX__V1__REQUEST__CALL_GET_STATE;
	req.get_state = &empty;
	len = haptix__v1__request__pack(&req, payload);
	flen = FRAME_HEADER_SIZE + (uint32_t)len;
	frame = malloc(flen);
	frame_put_header(frame, (uint32_t)len);
	memcpy(frame + FRAME_HEADER_SIZE, payload, len);
	start = h.link.out.pos;
	tail = __atomic_load_n(&h.link.out.ctl->tail, __ATOMIC_ACQUIRE);
	cr_assert_eq(tail, start);
	hostile_chunk_header(&h, flen);
	for (i = 0; i < flen; i++) {
		off = (start + 4 + i) & (h.link.out.cap - 1);
		h.link.out.data[off] = frame[i];
	}
	/* Published short of the chunk's end: half of it. */
	__atomic_store_n(
	    &h.link.out.ctl->head, start + 4 + flen / 2, __ATOMIC_RELEASE);
	hostile_kick(&h);
	honest_served(c, 20);
	cr_assert_eq(__atomic_load_n(&h.link.out.ctl->tail, __ATOMIC_ACQUIRE),
	    start, "the daemon took a chunk that was not all written");
	cr_assert(!hostile_closed(&h, 100), "a torn write dropped the client");
	cr_assert_null(hostile_recv(&h, 100), "an answer to half a frame");

	/* The rest: taken whole and answered. */
	h.link.out.pos = start + 4 + flen;
	__atomic_store_n(
	    &h.link.out.ctl->head, h.link.out.pos, __ATOMIC_RELEASE);
	hostile_kick(&h);
	r = hostile_recv(&h, hx_wait_ms(5000));
	cr_assert_not_null(r, "the completed chunk was not answered");
	cr_assert_eq(r->id, req.id);
	cr_assert_eq(r->result, HAPTIX__V1__RESULT__RESULT_OK);
	haptix__v1__response__free_unpacked(r, NULL);
	free(frame);

	/* The longest chunk, its head short: still only waited for. */
	start = h.link.out.pos;
	hostile_chunk_header(&h, SHMLINK_CHUNK_MAX);
	__atomic_store_n(
	    &h.link.out.ctl->head, start + 4 + 100, __ATOMIC_RELEASE);
	hostile_kick(&h);
	honest_served(c, 10);
	cr_assert(!hostile_closed(&h, 100));
	cr_assert_eq(
	    __atomic_load_n(&h.link.out.ctl->tail, __ATOMIC_ACQUIRE), start);
	/* Its length rewritten past the limit under the same head. */
	hostile_chunk_header(&h, 0xffffffffu);
	hostile_kick(&h);
	only_hostile_dropped(&srv, &h, c,
	    "it broke its shared-memory ring (positions or a chunk's size)");
	hostile_free(&h);
	hxd_close(c);
	hx_server_stop(&srv);
}

/* An impossible tail of the answer ring: the daemon's next answer. */
Test(shm, impossible_answer_tail)
{
	struct hx_server srv;
	struct hostile h;
	hxd_conn *c;

	hx_server_start(&srv, shm_args);
	c = honest_open(&srv);
	hostile_open(&h, &srv);
	hostile_works(&h);
	__atomic_store_n(
	    &h.link.in.ctl->tail, h.link.in.pos + 12345, __ATOMIC_RELEASE);
	hostile_send_empty(&h, HAPTIX__V1__REQUEST__CALL_GET_STATE);
	hostile_kick(&h);
	only_hostile_dropped(&srv, &h, c, "it broke its shared-memory ring");
	hostile_free(&h);
	hxd_close(c);
	hx_server_stop(&srv);
}

/*
 * The region is sealed: it can neither shrink nor grow, nor take more
 * seals.  The client keeps working after trying.  Punching a hole (not
 * sealed: it keeps the size) zeroes the client's own positions under
 * the daemon, which drops it.
 */
Test(shm, truncate_and_fallocate)
{
	struct hx_server srv;
	struct hostile h;
	hxd_conn *c;
	int fd, seals;
	off_t size;

	hx_server_start(&srv, shm_args);
	c = honest_open(&srv);
	hostile_open(&h, &srv);
	hostile_works(&h);
	fd = h.link.region.fd;
	size = (off_t)h.link.region.size;
	seals = fcntl(fd, F_GET_SEALS);
	cr_assert_eq(seals, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL);
	cr_assert_eq(ftruncate(fd, 0), -1, "the region shrank");
	cr_assert_eq(errno, EPERM);
	cr_assert_eq(ftruncate(fd, size / 2), -1, "the region shrank");
	cr_assert_eq(ftruncate(fd, size * 2), -1, "the region grew");
	cr_assert_eq(fallocate(fd, 0, 0, size * 2), -1, "the region grew");
	cr_assert_eq(errno, EPERM);
	cr_assert_eq(fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE), -1,
	    "a seal added to the daemon's region");
	cr_assert_eq(lseek(fd, 0, SEEK_END), size);
	honest_served(c, 20);
	hostile_works(&h);
	hostile_works(&h);

	/* A hole: the size stays, the daemon reads zeros where it was. */
	cr_assert_eq(
	    fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, size),
	    0, "%s", strerror(errno));
	cr_assert_eq(lseek(fd, 0, SEEK_END), size);
	hostile_kick(&h);
	only_hostile_dropped(&srv, &h, c, "it broke its shared-memory ring");
	hostile_free(&h);
	hxd_close(c);
	hx_server_stop(&srv);
}

/* Half of a get_state frame in the request ring, published and woken. */
static void
hostile_half_frame(struct hostile *h)
{
	Haptix__V1__Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__Empty empty = HAPTIX__V1__EMPTY__INIT;
	uint8_t payload[256], frame[260];
	size_t len;

	req.id = ++h->id;
	req.call_case = HAPTIX__V1__REQUEST__CALL_GET_STATE;
	req.get_state = &empty;
	len = haptix__v1__request__pack(&req, payload);
	frame_put_header(frame, (uint32_t)len);
	memcpy(frame + FRAME_HEADER_SIZE, payload, len);
	/* A whole chunk holding the first half of the frame. */
	cr_assert_eq(
	    shmring_put(&h->link.out, frame, (FRAME_HEADER_SIZE + len) / 2),
	    SHMRING_OK);
	hostile_kick(h);
}

/*
 * A client that dies mid-call: half a frame in the ring, then it closes
 * everything; a forked one exits; another is killed with SIGKILL while
 * a step it asked for is answered into a ring no one reads.
 */
Test(shm, dies_mid_call)
{
	struct hx_server srv;
	struct hostile h;
	hxd_conn *c;
	int ready[2], status, how;
	char b;
	pid_t pid;

	hx_server_start(&srv, shm_args);
	c = honest_open(&srv);

	hostile_open(&h, &srv);
	hostile_works(&h);
	hostile_half_frame(&h);
	cr_assert(clients_become(c, 2, 2000));
	hostile_free(&h);
	cr_assert(clients_become(c, 1, 5000),
	    "a client that closed mid-frame is still listed");
	honest_served(c, 20);

	for (how = 0; how < 2; how++) {
		cr_assert_eq(pipe(ready), 0);
		pid = fork();
		cr_assert_neq(pid, -1);
		if (pid == 0) {
			close(ready[0]);
			hostile_open(&h, &srv);
			hostile_works(&h);
			if (how == 0)
				hostile_half_frame(&h);
			else {
				Haptix__V1__Request
				    req = HAPTIX__V1__REQUEST__INIT;
				Haptix__V1__Step step = HAPTIX__V1__STEP__INIT;

				step.count = 200;
				req.call_case = HAPTIX__V1__REQUEST__CALL_STEP;
				req.step = &step;
				hostile_send(&h, &req);
				hostile_half_frame(&h);
			}
			b = 'r';
			if (write(ready[1], &b, 1) != 1)
				_exit(2);
			if (how == 0)
				_exit(0); /* mid-frame, no goodbye */
			for (;;)
				pause(); /* killed */
		}
		close(ready[1]);
		cr_assert_eq(read(ready[0], &b, 1), 1, "the child failed");
		close(ready[0]);
		if (how == 1)
			kill(pid, SIGKILL);
		cr_assert_eq(waitpid(pid, &status, 0), pid);
		cr_assert(clients_become(c, 1, 5000),
		    "a client that died mid-call is still listed");
		honest_served(c, 20);
	}
	cr_assert(hxd_connected(c));
	hxd_close(c);
	hx_server_stop(&srv);
}

/*
 * A client that never reads its answers: requests pile answers up in
 * its ring and past it; at --max-queued it is dropped, and the honest
 * client is served all the while.
 */
Test(shm, stops_reading)
{
	const char *const args[] = { "-m", "fixture.xml", "--paused",
		"--max-frame", "65536", "--max-queued", "65536", NULL };
	struct hx_server srv;
	struct hostile h;
	hxd_conn *c;
	int i, j;

	hx_server_start(&srv, args);
	c = honest_open(&srv);
	hostile_open(&h, &srv);
	hostile_works(&h);
	/* Its answer ring (1 MiB) fills first, then the daemon's buffer. */
	for (i = 0; i < 400 && !hostile_closed(&h, 0); i++) {
		for (j = 0; j < 20; j++)
			hostile_send_empty(&h, HAPTIX__V1__REQUEST__CALL_INFO);
		hostile_kick(&h);
		honest_served(c, 2);
	}
	only_hostile_dropped(&srv, &h, c, "not reading its answers");
	hostile_free(&h);
	hxd_close(c);
	hx_server_stop(&srv);
}

/* What the daemon's process has spent on the CPU, in seconds. */
static double
cpu_seconds(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long ut, st;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	cr_assert_not_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	cr_assert_not_null(p);
	cr_assert_eq(
	    sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu",
		&ut, &st),
	    2);
	return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

/*
 * The wake pipes abused.  The daemon's pipe written in a tight loop
 * (by a child) while the honest client calls; the client's pipe filled
 * to the brim (its read end made blocking, never read) while the daemon
 * goes on answering and waking it; then both of the client's ends
 * closed: the daemon must not spin on a pipe whose writer went.
 */
Test(shm, wake_pipe_abuse)
{
	struct hx_server srv;
	struct hostile h;
	Haptix__V1__Response *r;
	hxd_conn *c;
	double cpu, t;
	pid_t pid;
	int i, flags, queued = 0, status;

	hx_skip_if_valgrind();
	hx_server_start(&srv, shm_args);
	c = honest_open(&srv);
	hostile_open(&h, &srv);
	hostile_works(&h);

	/* A child writes the daemon's wake pipe as fast as it can. */
	pid = fork();
	cr_assert_neq(pid, -1);
	if (pid == 0) {
		flags = fcntl(h.link.wake_out, F_GETFL);
		fcntl(h.link.wake_out, F_SETFL, flags | O_NONBLOCK);
		for (;;) {
			if (write(h.link.wake_out, "xxxxxxxx", 8) < 0 &&
			    errno != EAGAIN)
				_exit(0);
		}
	}
	honest_served(c, 200);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	hostile_works(&h);

	/* Our own ends blocking: only we would block on them. */
	flags = fcntl(h.link.wake_in, F_GETFL);
	cr_assert_eq(fcntl(h.link.wake_in, F_SETFL, flags & ~O_NONBLOCK), 0);
	flags = fcntl(h.link.wake_out, F_GETFL);
	cr_assert_eq(fcntl(h.link.wake_out, F_SETFL, flags & ~O_NONBLOCK), 0);
	/* One page of pipe: filled by a few thousand wakes. */
	cr_assert_gt(fcntl(h.link.wake_in, F_SETPIPE_SZ, 4096), 0);
	for (i = 0; i < 6000; i++) {
		/* Say we sleep, so that each answer writes the pipe. */
		__atomic_store_n(&h.link.in.ctl->waiting, 1, __ATOMIC_SEQ_CST);
		hostile_send_empty(&h, HAPTIX__V1__REQUEST__CALL_GET_STATE);
		r = hostile_recv(&h, hx_wait_ms(5000));
		cr_assert_not_null(r, "answer %d did not come", i);
		haptix__v1__response__free_unpacked(r, NULL);
		if (i % 1000 == 999)
			honest_served(c, 5);
	}
	cr_assert_eq(ioctl(h.link.wake_in, FIONREAD, &queued), 0);
	cr_assert_eq(queued, 4096, "the client's pipe holds %d bytes", queued);
	honest_served(c, 50);
	hostile_works(&h);

	/*
	 * Both of our ends closed: the daemon's pipe at its end (always
	 * readable: it spun on it, the loop's CPU all taken), ours broken.
	 * It can no longer be woken: it drops the client, and idles.
	 */
	close(h.link.wake_in);
	close(h.link.wake_out);
	h.link.wake_in = h.link.wake_out = -1;
	only_hostile_dropped(&srv, &h, c, "it closed its end of the wake pipe");
	cpu = cpu_seconds(srv.pid);
	t = hx_wall_now();
	hx_sleep_ms(1000);
	cpu = cpu_seconds(srv.pid) - cpu;
	t = hx_wall_now() - t;
	cr_assert_lt(cpu, 0.5 * t,
	    "the daemon spent %.2f s of CPU in %.2f s after a closed wake "
	    "pipe",
	    cpu, t);
	honest_served(c, 20);
	hostile_free(&h);
	hxd_close(c);
	hx_server_stop(&srv);
}

/* Bytes on the socket after the Welcome: refused and closed. */
Test(shm, bytes_on_the_socket)
{
	struct hx_server srv;
	struct hostile h;
	hxd_conn *c;

	hx_server_start(&srv, shm_args);
	c = honest_open(&srv);
	hostile_open(&h, &srv);
	hostile_works(&h);
	raw_send(h.sock, "\0\0\0\0", 4);
	only_hostile_dropped(
	    &srv, &h, c, "bytes on the socket of a shared-memory session");
	hostile_free(&h);
	hxd_close(c);
	hx_server_stop(&srv);
}

/*
 * A second Hello asking for shared memory on a session that has it:
 * refused (no second region), and the client's link stays as it was.
 */
Test(shm, second_hello)
{
	Haptix__V1__Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__Hello hello = HAPTIX__V1__HELLO__INIT;
	Haptix__V1__Response *r;
	struct hx_server srv;
	struct hostile h;
	struct pollfd pfd;
	hxd_conn *c;
	uint64_t id;

	hx_server_start(&srv, shm_args);
	c = honest_open(&srv);
	hostile_open(&h, &srv);
	hostile_works(&h);
	hello.protocol_version =
	    HAPTIX__V1__PROTOCOL_VERSION__PROTOCOL_VERSION_CURRENT;
	hello.client_name = (char *)"again";
	hello.shm = 1;
	req.call_case = HAPTIX__V1__REQUEST__CALL_HELLO;
	req.hello = &hello;
	id = hostile_send(&h, &req);
	r = hostile_recv(&h, hx_wait_ms(5000));
	cr_assert_not_null(r, "the second Hello was not answered");
	cr_assert_eq(r->id, id);
	cr_assert_eq(r->result, HAPTIX__V1__RESULT__RESULT_BADPROTOCOL);
	cr_assert_neq(r->payload_case, HAPTIX__V1__RESPONSE__PAYLOAD_WELCOME);
	cr_assert_str_eq(
	    r->error, "Hello was already received on this connection");
	haptix__v1__response__free_unpacked(r, NULL);
	/* Nothing on the socket: no second region handed over. */
	pfd.fd = h.sock;
	pfd.events = POLLIN;
	cr_assert_eq(poll(&pfd, 1, 200), 0, "the socket has more to say");
	hostile_works(&h);
	honest_served(c, 20);
	hostile_free(&h);
	cr_assert(clients_become(c, 1, 5000));
	hxd_close(c);
	hx_server_stop(&srv);
}

/* Hello.shm over TCP: never offered; the socket carries the frames. */
Test(shm, not_over_tcp)
{
	Haptix__V1__Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__Hello hello = HAPTIX__V1__HELLO__INIT;
	Haptix__V1__Response *r;
	struct hx_server srv;
	int fd;

	hx_server_start(&srv, shm_args);
	fd = raw_connect(srv.tcp_addr);
	hello.protocol_version =
	    HAPTIX__V1__PROTOCOL_VERSION__PROTOCOL_VERSION_CURRENT;
	hello.client_name = (char *)"tcp";
	hello.shm = 1;
	req.id = 1;
	req.call_case = HAPTIX__V1__REQUEST__CALL_HELLO;
	req.hello = &hello;
	raw_send_request(fd, &req);
	r = raw_recv(fd, hx_wait_ms(5000));
	cr_assert_not_null(r);
	cr_assert_eq(r->result, HAPTIX__V1__RESULT__RESULT_OK);
	cr_assert_eq(r->payload_case, HAPTIX__V1__RESPONSE__PAYLOAD_WELCOME);
	cr_assert_null(r->welcome->shm, "shared memory offered over TCP");
	haptix__v1__response__free_unpacked(r, NULL);
	r = raw_call_empty(fd, HAPTIX__V1__REQUEST__CALL_GET_STATE, 2);
	cr_assert_not_null(r);
	cr_assert_eq(r->result, HAPTIX__V1__RESULT__RESULT_OK);
	haptix__v1__response__free_unpacked(r, NULL);
	close(fd);
	hx_server_stop(&srv);
}

/*
 * A libhaptix client whose daemon is gone (killed, its pipe's read end
 * closed with it) gets an error from its next call, not SIGPIPE: over
 * the socket libhaptix never raises it, and its wake of the daemon must
 * not either.  Run in a child with SIGPIPE's default action, which ends
 * a process.
 */
Test(shm, client_outlives_daemon)
{
	struct hx_server srv;
	hxd_state *st;
	hxd_conn *c;
	int status;
	pid_t pid;

	hx_server_start(&srv, shm_args);
	pid = fork();
	cr_assert_neq(pid, -1);
	if (pid == 0) {
		signal(SIGPIPE, SIG_DFL);
		c = hxd_connect(srv.unix_addr, "orphan");
		if (hxd_result(c) != HXD_OK || hxd_get_state(c, &st) != HXD_OK)
			_exit(2);
		free(st);
		/* The daemon sleeps on its ring: the next request wakes it. */
		hx_sleep_ms(100);
		kill(srv.pid, SIGKILL);
		while (kill(srv.pid, 0) == 0 &&
		    waitpid(srv.pid, NULL, WNOHANG) == 0)
			hx_sleep_ms(10);
		hx_sleep_ms(100);
		if (hxd_get_state(c, &st) == HXD_OK)
			_exit(3);
		hxd_close(c);
		_exit(0);
	}
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	waitpid(srv.pid, NULL, 0);
	cr_assert(!WIFSIGNALED(status), "the client died of signal %d",
	    WTERMSIG(status));
	cr_assert_eq(WEXITSTATUS(status), 0);
	hx_remove_tree(srv.dir);
}

/*------------------------------------------------------------ the soak */

#define SOAK_CLIENTS 16
#define SOAK_ROUNDS 20
#define SOAK_STEPS 100

/* One soak client: its connection and everything it read, as bytes. */
struct soak_job {
	const char *addr;
	int index;
	pthread_barrier_t *start;
	uint8_t *rec; /* the results, appended */
	size_t len, cap;
	char err[256];
};

/* Append n bytes to a soak client's record. */
static void
soak_put(struct soak_job *j, const void *p, size_t n)
{
	if (j->len + n > j->cap) {
		j->cap = (j->len + n) * 2;
		j->rec = realloc(j->rec, j->cap);
		if (j->rec == NULL)
			abort();
	}
	memcpy(j->rec + j->len, p, n);
	j->len += n;
}

/* Append a state's bytes: time, qpos, qvel, act. */
static void
soak_state(struct soak_job *j, const hxd_state *st)
{
	soak_put(j, &st->time, sizeof(st->time));
	soak_put(j, st->qpos, sizeof(double) * (size_t)st->nq);
	soak_put(j, st->qvel, sizeof(double) * (size_t)st->nv);
	soak_put(j, st->act, sizeof(double) * (size_t)st->na);
}

/*
 * The same calls on every client: under the lease (so that the
 * simulation is this client's from the reset to the last read), a
 * reset, controls that depend on the round, steps, the state and two
 * arrays; outside it, a model array every client reads alike.
 */
static void *
soak_run(void *arg)
{
	struct soak_job *j = arg;
	hxd_control *ctl = NULL;
	hxd_array *a = NULL;
	hxd_state *st = NULL;
	unsigned taken;
	hxd_conn *c;
	int round, rc, k;

	c = hxd_connect(j->addr, "soak");
	if (hxd_result(c) != HXD_OK) {
		snprintf(j->err, sizeof(j->err), "connect: %s", hxd_error(c));
		hxd_close(c);
		pthread_barrier_wait(j->start);
		return NULL;
	}
	pthread_barrier_wait(j->start);
	for (round = 0; round < SOAK_ROUNDS; round++) {
		while ((rc = hxd_lease(c, HXD_LEASE_TAKE, NULL)) == HXD_DENIED)
			hx_sleep_ms(1);
		if (rc != HXD_OK)
			goto fail;
		if (hxd_reset(c, -1) != HXD_OK ||
		    hxd_get_control(c, &ctl) != HXD_OK)
			goto fail;
		for (k = 0; k < ctl->nu; k++)
			ctl->ctrl[k] = 0.1 * (round + 1) * (k % 2 ? -1 : 1);
		if (hxd_set_control(c, ctl) != HXD_OK ||
		    hxd_step(c, SOAK_STEPS, &taken) != HXD_OK ||
		    taken != SOAK_STEPS || hxd_get_state(c, &st) != HXD_OK)
			goto fail;
		soak_state(j, st);
		free(st);
		st = NULL;
		free(ctl);
		ctl = NULL;
		if (hxd_get_array(c, "data.xpos", &a) != HXD_OK)
			goto fail;
		soak_put(j, a->values, sizeof(double) * a->rows * a->cols);
		free(a);
		if (hxd_get_array(c, "data.qfrc_actuator", &a) != HXD_OK)
			goto fail;
		soak_put(j, a->values, sizeof(double) * a->rows * a->cols);
		free(a);
		if (hxd_lease(c, HXD_LEASE_RELEASE, NULL) != HXD_OK)
			goto fail;
		if (hxd_get_array(c, "model.body_mass", &a) != HXD_OK)
			goto fail;
		soak_put(j, a->values, sizeof(double) * a->rows * a->cols);
		free(a);
	}
	hxd_close(c);
	return NULL;
fail:
	snprintf(j->err, sizeof(j->err), "client %d, round %d: %s", j->index,
	    round, hxd_error(c));
	free(ctl);
	free(st);
	hxd_close(c);
	return NULL;
}

/*
 * Run the soak's clients at once on srv; with shm, check that they all
 * came on shared memory (else that none did).  jobs get the records.
 */
static void
soak(struct hx_server *srv, int shm, struct soak_job *jobs)
{
	pthread_t th[SOAK_CLIENTS];
	pthread_barrier_t start;
	hxd_client *cl;
	hxd_conn *mon;
	int i, n, on = 0;

	pthread_barrier_init(&start, NULL, SOAK_CLIENTS + 1);
	mon = hx_connect_ok(srv->tcp_addr, "monitor");
	for (i = 0; i < SOAK_CLIENTS; i++) {
		memset(&jobs[i], 0, sizeof(jobs[i]));
		jobs[i].addr = srv->unix_addr;
		jobs[i].index = i;
		jobs[i].start = &start;
		cr_assert_eq(
		    pthread_create(&th[i], NULL, soak_run, &jobs[i]), 0);
	}
	pthread_barrier_wait(&start);
	cr_assert_eq(hxd_clients(mon, &cl, &n, NULL), HXD_OK);
	for (i = 0; i < n; i++)
		if (strstr(cl[i].peer, "shm") != NULL)
			on++;
	free(cl);
	hxd_close(mon);
	for (i = 0; i < SOAK_CLIENTS; i++)
		pthread_join(th[i], NULL);
	pthread_barrier_destroy(&start);
	for (i = 0; i < SOAK_CLIENTS; i++)
		cr_assert_str_eq(jobs[i].err, "", "%s", jobs[i].err);
	/* Those that finished before the count are not in it. */
	if (shm)
		cr_assert_gt(on, 0, "no soak client on shared memory");
	else
		cr_assert_eq(on, 0, "%d soak clients on shared memory", on);
}

/*
 * Sixteen clients doing the same calls at once, all over shared memory,
 * then all over the socket (HAPTIX_SHM=0): every client's results are
 * the same bytes, and the same on both transports.
 */
Test(shm, soak_same_as_socket, .timeout = 180)
{
	static struct soak_job viashm[SOAK_CLIENTS], viasock[SOAK_CLIENTS];
	struct hx_server srv;
	int i;

	hx_server_start(&srv, shm_args);
	unsetenv("HAPTIX_SHM");
	soak(&srv, 1, viashm);
	setenv("HAPTIX_SHM", "0", 1);
	soak(&srv, 0, viasock);
	unsetenv("HAPTIX_SHM");
	cr_assert_gt(viashm[0].len, 0);
	for (i = 0; i < SOAK_CLIENTS; i++) {
		cr_assert_eq(viashm[i].len, viashm[0].len);
		cr_assert_eq(
		    memcmp(viashm[i].rec, viashm[0].rec, viashm[0].len), 0,
		    "client %d over shm differs from client 0", i);
		cr_assert_eq(viasock[i].len, viashm[0].len);
		cr_assert_eq(
		    memcmp(viasock[i].rec, viashm[0].rec, viashm[0].len), 0,
		    "client %d over the socket differs from shm", i);
	}
	for (i = 0; i < SOAK_CLIENTS; i++) {
		free(viashm[i].rec);
		free(viasock[i].rec);
	}
	hx_server_stop(&srv);
}
