/*
 * Unit tests of the transport (daemon/session.c), in-process: sessions
 * on socketpairs, a real event loop, and hooks that record what the
 * transport hands upward.  The test writes and reads the far ends.
 */
#include "config.h"

#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <event2/event.h>

#include "daemon.h"
#include "frame.h"
#include "inproc.h"
#include "monotonic.h"
#include "options.h"
#include "result.h"
#include "session.h"

TestSuite(session, .timeout = 10);

/* What the hooks saw. */
struct seen_frame {
	uint64_t session;
	enum session_state state;
	size_t len;
	uint8_t data[64];
};

static struct seen_frame seen[512];
static int nseen;
static int nrefused, refused_code;
static char refused_why[256];
static int ndrained;
static size_t drained_queued; /* output left at the first drained hook */
static int nleft;
static uint64_t left_id[16];
static enum session_state left_state[16];
static int in_frame;    /* the frame hook is running */
static int left_inside; /* the left hook ran inside the frame hook */

/* What a test does with each frame, besides recording it. */
static void (*on_frame)(struct session *, const uint8_t *, size_t);

static struct daemon d;

static void
hook_frame(struct session *s, const uint8_t *p, size_t len)
{
	struct seen_frame *f;

	cr_assert_lt(nseen, 512);
	f = &seen[nseen++];
	f->session = s->id;
	f->state = s->state;
	f->len = len;
	memcpy(f->data, p, len < sizeof(f->data) ? len : sizeof(f->data));
	in_frame = 1;
	if (on_frame != NULL)
		on_frame(s, p, len);
	in_frame = 0;
}

/* Like reply_refuse: the reason goes out as a last frame. */
static void
hook_refuse(struct session *s, int code, const char *why)
{
	nrefused++;
	refused_code = code;
	snprintf(refused_why, sizeof(refused_why), "%s", why);
	session_send_frame(s, "refused", 7);
}

static void
hook_drained(struct session *s)
{
	if (ndrained++ == 0)
		drained_queued = session_queued(s);
}

static void
hook_left(struct session *s)
{
	if (nleft < 16) {
		left_id[nleft] = s->id;
		left_state[nleft] = s->state;
	}
	nleft++;
	if (in_frame)
		left_inside = 1;
}

static const struct session_hooks test_hooks = {
	.frame = hook_frame,
	.refuse = hook_refuse,
	.drained = hook_drained,
	.left = hook_left,
};

/* A daemon with the settings of args, and the recording hooks. */
static void
start(const char *const *args)
{
	inproc_start(&d, args);
	sessions_init(&test_hooks);
}

static void
setup(void)
{
	start(NULL);
}

/* After a failed assertion: each test stops its daemon itself. */
static void
teardown(void)
{
	inproc_stop(&d);
}

/* Frames the hook saw from session id. */
static int
seen_from(uint64_t id)
{
	int i, n = 0;

	for (i = 0; i < nseen; i++)
		n += seen[i].session == id;
	return n;
}

/* Turn the loop until the hook has seen n frames, or a second passed. */
static void
turn_until_seen(int n)
{
	double end = monotonic_s() + 1;

	while (nseen < n && monotonic_s() < end)
		inproc_run_for(&d, 0.001);
}

/* Turn the loop until the left hook ran n times, or a second passed. */
static void
turn_until_left(int n)
{
	double end = monotonic_s() + 1;

	while (nleft < n && monotonic_s() < end)
		inproc_run_for(&d, 0.001);
}

/* Turn the loop until no session is left, or two seconds passed. */
static void
turn_until_freed(void)
{
	double end = monotonic_s() + 2;

	while (sessions_open(&d) && monotonic_s() < end)
		inproc_run_for(&d, 0.001);
}

/* Read one frame from peer and check its payload. */
static void
expect_frame(struct inproc_rx *rx, int peer, const char *want)
{
	const uint8_t *p;
	long n = inproc_rx_frame(&d, rx, peer, &p, 1);

	cr_assert_eq(n, (long)strlen(want), "a frame of %zu bytes (got %ld)",
	    strlen(want), n);
	cr_assert(memcmp(p, want, strlen(want)) == 0, "the frame \"%s\"", want);
}

Test(session, whole_frame_reaches_the_frame_hook, .init = setup,
    .fini = teardown)
{
	int peer;
	struct session *s = inproc_session(&d, &peer, 0);

	cr_assert_eq(s->state, SESSION_HELLO);
	inproc_write_frame(peer, "hello", 5);
	turn_until_seen(1);
	cr_assert_eq(nseen, 1);
	cr_assert_eq(seen[0].session, s->id);
	cr_assert_eq(seen[0].len, 5);
	cr_assert(memcmp(seen[0].data, "hello", 5) == 0);
	cr_assert_eq(seen[0].state, SESSION_HELLO);
	cr_assert_eq(s->bytes_in, 9, "header and payload counted");

	/* Two frames in one write, and an empty one: each, in order. */
	inproc_write(peer, "\0\0\0\2ab\0\0\0\0\0\0\0\3xyz", 17);
	turn_until_seen(4);
	cr_assert_eq(nseen, 4);
	cr_assert_eq(seen[1].len, 2);
	cr_assert(memcmp(seen[1].data, "ab", 2) == 0);
	cr_assert_eq(seen[2].len, 0, "an empty frame is a frame");
	cr_assert_eq(seen[3].len, 3);
	cr_assert(memcmp(seen[3].data, "xyz", 3) == 0);
	cr_assert_eq(s->bytes_in, 26);
	inproc_run_for(&d, 0.01);
	cr_assert_eq(nseen, 4, "nothing more");
	close(peer);
	inproc_stop(&d);
}

Test(session, split_frames_arrive_whole, .init = setup, .fini = teardown)
{
	static const uint8_t bytes[] = { 0, 0, 0, 10, '0', '1', '2', '3', '4',
		'5', '6', '7', '8', '9', 0, 0, 0, 1, 'z' };
	size_t i;
	int peer;

	inproc_session(&d, &peer, 0);
	for (i = 0; i < sizeof(bytes); i++) {
		inproc_write(peer, &bytes[i], 1);
		inproc_run_for(&d, 0.001);
		inproc_turn(&d);
		if (i < 13)
			cr_assert_eq(
			    nseen, 0, "a frame after %zu bytes", i + 1);
		else if (i < 18)
			cr_assert_eq(nseen, 1, "%d frames after %zu bytes",
			    nseen, i + 1);
	}
	turn_until_seen(2);
	cr_assert_eq(nseen, 2);
	cr_assert_eq(seen[0].len, 10);
	cr_assert(memcmp(seen[0].data, "0123456789", 10) == 0);
	cr_assert_eq(seen[1].len, 1);
	cr_assert_eq(seen[1].data[0], 'z');
	close(peer);
	inproc_stop(&d);
}

/* Write n one-byte frames numbered from 1 at once. */
static void
write_numbered(int peer, int n)
{
	uint8_t buf[5 * 512];
	int i;

	cr_assert_leq(n, 512);
	for (i = 0; i < n; i++) {
		frame_put_header(buf + 5 * i, 1);
		buf[5 * i + 4] = (uint8_t)(i + 1);
	}
	inproc_write(peer, buf, 5 * (size_t)n);
}

/*
 * How many frames of a queue of left a turn of the loop should serve:
 * 32, unless fewer are left, or the turn took more than the 2 ms a
 * session may spend (slow machines, valgrind).
 */
static void
check_turn(const char *who, int got, int left, double took)
{
	int want = left < 32 ? left : 32;

	cr_assert_leq(
	    got, want, "%s: %d frames in one turn, %d left", who, got, left);
	if (left > 0)
		cr_assert_geq(got, 1, "%s: no turn", who);
	if (got < want)
		cr_assert_gt(took, 0.002,
		    "%s: %d frames in a turn of %g s, %d left", who, got, took,
		    left);
}

Test(session, at_most_32_frames_per_wakeup, .init = setup, .fini = teardown)
{
	struct session *a, *b;
	int pa, pb, i, na = 0, nb = 0, turns = 0, was_a, was_b;
	double t0;

	a = inproc_session(&d, &pa, 0);
	b = inproc_session(&d, &pb, 0);
	write_numbered(pa, 100);
	write_numbered(pb, 40);
	/*
	 * Both are readable: each turn serves both, 32 frames of each at
	 * most, the rest later (the resume timer).
	 */
	while (nseen < 140 && turns++ < 100) {
		was_a = seen_from(a->id);
		was_b = seen_from(b->id);
		t0 = monotonic_s();
		inproc_turn(&d);
		check_turn("a", seen_from(a->id) - was_a, 100 - was_a,
		    monotonic_s() - t0);
		check_turn("b", seen_from(b->id) - was_b, 40 - was_b,
		    monotonic_s() - t0);
	}
	cr_assert_geq(turns, 4, "100 frames take 4 turns at least");
	inproc_run_for(&d, 0.01);
	cr_assert_eq(nseen, 140, "every frame, once");
	for (i = 0; i < nseen; i++) {
		if (seen[i].session == a->id)
			cr_assert_eq(seen[i].data[0], ++na, "in order");
		else
			cr_assert_eq(seen[i].data[0], ++nb, "in order");
	}
	close(pa);
	close(pb);
	inproc_stop(&d);
}

/* Frame 'W' makes the session wait for the tick, 'B' busy. */
static void
hold_on_frame(struct session *s, const uint8_t *p, size_t len)
{
	if (len == 1 && p[0] == 'W')
		session_set_state(s, SESSION_WAITING);
	else if (len == 1 && p[0] == 'B')
		session_set_state(s, SESSION_BUSY);
}

/* Input stops after the frame that holds it, and resumes on READY. */
static void
check_held(char hold, enum session_state held)
{
	struct session *s;
	int peer;

	on_frame = hold_on_frame;
	s = inproc_session(&d, &peer, 0);
	session_set_state(s, SESSION_READY);
	inproc_write_frame(peer, &hold, 1);
	inproc_write_frame(peer, "a", 1);
	inproc_write_frame(peer, "b", 1);
	turn_until_seen(1);
	inproc_run_for(&d, 0.02);
	cr_assert_eq(s->state, held);
	cr_assert_eq(nseen, 1, "input held: %d frames", nseen);
	inproc_write_frame(peer, "c", 1);
	inproc_run_for(&d, 0.02);
	cr_assert_eq(nseen, 1, "new input held too");
	cr_assert(session_served(s));

	session_set_state(s, SESSION_READY);
	turn_until_seen(4);
	cr_assert_eq(nseen, 4);
	cr_assert_eq(seen[1].data[0], 'a');
	cr_assert_eq(seen[2].data[0], 'b');
	cr_assert_eq(seen[3].data[0], 'c');
	cr_assert_eq(seen[3].state, SESSION_READY);
	close(peer);
}

Test(session, input_held_while_waiting, .init = setup, .fini = teardown)
{
	check_held('W', SESSION_WAITING);
	inproc_stop(&d);
}

Test(session, input_held_while_busy, .init = setup, .fini = teardown)
{
	check_held('B', SESSION_BUSY);
	inproc_stop(&d);
}

Test(session, oversize_frame_is_refused_then_closes, .fini = teardown)
{
	static const char *const args[] = { "--max-frame", "1024", NULL };
	struct inproc_rx rx = { 0 };
	struct session *s;
	uint8_t hdr[FRAME_HEADER_SIZE];
	double end;
	int peer;

	start(args);
	s = inproc_session(&d, &peer, 0);
	session_set_state(s, SESSION_READY);
	inproc_write_frame(peer, "ok", 2);
	frame_put_header(hdr, 1025);
	inproc_write(peer, hdr, sizeof(hdr));
	inproc_write_frame(peer, "after", 5);
	end = monotonic_s() + 1;
	while (nrefused == 0 && monotonic_s() < end)
		inproc_run_for(&d, 0.001);
	inproc_run_for(&d, 0.01);
	cr_assert_eq(nseen, 1, "the frame before is served, none after");
	cr_assert_eq(nrefused, 1);
	cr_assert_eq(refused_code, RESULT_BADPROTOCOL);
	cr_assert(strstr(refused_why, "1025") != NULL &&
		strstr(refused_why, "1024") != NULL,
	    "why: %s", refused_why);
	cr_assert_eq(s->state, SESSION_CLOSING);
	cr_assert(!session_served(s));
	cr_assert_eq(sessions_count(&d), 0);
	cr_assert_eq(sessions_open(&d), 1, "closing, not yet freed");

	/* The reason, then the end of the stream. */
	expect_frame(&rx, peer, "refused");
	cr_assert(inproc_rx_eof(&d, &rx, peer, 1), "our side shut down");
	cr_assert_eq(nleft, 1, "left once closing");
	cr_assert_eq(sessions_open(&d), 1, "until the client's end");
	shutdown(peer, SHUT_WR);
	turn_until_freed();
	cr_assert_eq(sessions_open(&d), 0);
	cr_assert_eq(nleft, 1, "left once only");
	cr_assert_eq(nrefused, 1);
	inproc_rx_free(&rx);
	close(peer);
	inproc_stop(&d);
}

Test(session, closing_flushes_then_shuts_down, .init = setup, .fini = teardown)
{
	static uint8_t big[200000];
	struct inproc_rx rx = { 0 };
	struct session *s;
	const uint8_t *p;
	size_t queued;
	long n;
	int peer, i;

	s = inproc_session(&d, &peer, 4096);
	session_set_state(s, SESSION_READY);
	for (i = 0; i < (int)sizeof(big); i++)
		big[i] = (uint8_t)(i * 7);
	session_send_frame(s, "first", 5);
	session_send_frame(s, big, sizeof(big));
	session_send_frame(s, "last", 4);
	queued = session_queued(s);
	cr_assert_gt(queued, 100000, "the peer reads nothing yet");
	session_close_after_flush(s, "the test is done");
	cr_assert_eq(s->state, SESSION_CLOSING);
	inproc_run_for(&d, 0.02);
	cr_assert_eq(session_queued(s), queued, "still waiting for the peer");
	cr_assert_eq(sessions_open(&d), 1);

	expect_frame(&rx, peer, "first");
	n = inproc_rx_frame(&d, &rx, peer, &p, 2);
	cr_assert_eq(n, (long)sizeof(big));
	cr_assert(memcmp(p, big, sizeof(big)) == 0, "every byte");
	expect_frame(&rx, peer, "last");
	cr_assert(inproc_rx_eof(&d, &rx, peer, 1), "the end after the data");
	cr_assert_eq(rx.len - rx.pos, 0, "nothing after the last frame");
	turn_until_left(1);
	cr_assert_eq(nleft, 1);
	cr_assert_eq(left_state[0], SESSION_CLOSING);

	/* It waits for the client's end, then goes. */
	inproc_run_for(&d, 0.02);
	cr_assert_eq(sessions_open(&d), 1);
	close(peer);
	turn_until_freed();
	cr_assert_eq(sessions_open(&d), 0);
	cr_assert_eq(nleft, 1);
	inproc_rx_free(&rx);
	inproc_stop(&d);
}

/* Frame 'X': answer with more than --max-queued, from inside the hook. */
static int close_state_inside, close_left_inside, close_open_inside;

static void
flood_on_frame(struct session *s, const uint8_t *p, size_t len)
{
	static uint8_t big[100000];

	if (len != 1 || p[0] != 'X')
		return;
	session_send_frame(s, big, sizeof(big));
	close_state_inside = (int)s->state;
	close_left_inside = nleft;
	close_open_inside = sessions_open(&d);
	/* What a caller up the stack may still do with it. */
	session_send_frame(s, "more", 4);
}

Test(session, close_inside_a_send_leaves_from_the_loop, .fini = teardown)
{
	struct session *s;
	uint64_t id;
	int peer;

	start(NULL);
	inproc_max_queued(&d, 65536);
	on_frame = flood_on_frame;
	s = inproc_session(&d, &peer, 4096);
	id = s->id;
	session_set_state(s, SESSION_READY);
	/* Frames after X are never served: the session is dead. */
	inproc_write_frame(peer, "X", 1);
	inproc_write_frame(peer, "Y", 1);
	turn_until_seen(1);
	cr_assert_eq(close_state_inside, SESSION_DEAD, "closed by the send");
	cr_assert_eq(close_left_inside, 0, "not left inside the send");
	cr_assert_eq(close_open_inside, 1, "not freed inside the send");
	cr_assert_eq(left_inside, 0, "not left inside the frame hook");
	turn_until_left(1);
	cr_assert_eq(nleft, 1);
	cr_assert_eq(left_id[0], id);
	cr_assert_eq(left_state[0], SESSION_DEAD);
	turn_until_freed();
	cr_assert_eq(sessions_open(&d), 0);
	inproc_run_for(&d, 0.02);
	cr_assert_eq(nleft, 1, "left exactly once");
	cr_assert_eq(nseen, 1, "nothing served after the close");
	close(peer);
	inproc_stop(&d);
}

Test(session, left_once_for_closing_then_dead, .init = setup, .fini = teardown)
{
	struct session *s;
	int peer;

	s = inproc_session(&d, &peer, 0);
	session_set_state(s, SESSION_READY);
	session_close_after_flush(s, "first");
	session_close_after_flush(s, "again");
	turn_until_left(1);
	cr_assert_eq(nleft, 1);
	cr_assert_eq(left_state[0], SESSION_CLOSING);
	session_close(s, "now");
	session_close(s, "and again");
	cr_assert_eq(s->state, SESSION_DEAD);
	turn_until_freed();
	cr_assert_eq(sessions_open(&d), 0);
	inproc_run_for(&d, 0.02);
	cr_assert_eq(nleft, 1, "left %d times", nleft);
	close(peer);
	inproc_stop(&d);
}

Test(session, eof_from_the_client_frees_the_session, .init = setup,
    .fini = teardown)
{
	struct session *s;
	uint64_t id;
	int peer;

	s = inproc_session(&d, &peer, 0);
	id = s->id;
	session_set_state(s, SESSION_READY);
	cr_assert_eq(sessions_count(&d), 1);
	close(peer);
	turn_until_freed();
	cr_assert_eq(sessions_open(&d), 0);
	cr_assert_eq(sessions_count(&d), 0);
	cr_assert_eq(nleft, 1);
	cr_assert_eq(left_id[0], id);
	cr_assert_eq(left_state[0], SESSION_DEAD);
	inproc_stop(&d);
}

Test(session, frames_committed_after_closing_are_dropped, .init = setup,
    .fini = teardown)
{
	struct inproc_rx rx = { 0 };
	struct session *s;
	uint64_t out;
	size_t queued;
	uint8_t *p;
	int peer;

	s = inproc_session(&d, &peer, 0);
	session_set_state(s, SESSION_READY);
	session_send_frame(s, "one", 3);
	session_close_after_flush(s, "closing");
	out = s->bytes_out;
	queued = session_queued(s);
	session_send_frame(s, "two", 3);
	p = session_reserve_frame(s, 5);
	memcpy(p, "three", 5);
	session_commit_frame(s, 5);
	cr_assert_eq(s->bytes_out, out, "nothing more counted");
	cr_assert_eq(session_queued(s), queued, "nothing more queued");
	cr_assert_eq(out, 7);
	expect_frame(&rx, peer, "one");
	cr_assert(inproc_rx_eof(&d, &rx, peer, 1));
	cr_assert_eq(rx.len - rx.pos, 0, "no frame after the close");
	inproc_rx_free(&rx);
	close(peer);
	inproc_stop(&d);
}

Test(session, served_until_closing, .init = setup, .fini = teardown)
{
	static const enum session_state served[] = { SESSION_HELLO,
		SESSION_READY, SESSION_WAITING, SESSION_READY, SESSION_BUSY,
		SESSION_READY };
	struct session *s;
	size_t i;
	int peer;

	s = inproc_session(&d, &peer, 0);
	for (i = 0; i < sizeof(served) / sizeof(served[0]); i++) {
		session_set_state(s, served[i]);
		cr_assert_eq(s->state, served[i]);
		cr_assert(session_served(s), "served in state %d", served[i]);
		cr_assert_eq(sessions_count(&d), 1);
	}
	session_set_state(s, SESSION_CLOSING);
	cr_assert(!session_served(s));
	/* Closing leads only to dead. */
	session_set_state(s, SESSION_READY);
	cr_assert_eq(s->state, SESSION_CLOSING, "no way back from closing");
	session_set_state(s, SESSION_DEAD);
	cr_assert(!session_served(s));
	session_set_state(s, SESSION_READY);
	session_set_state(s, SESSION_CLOSING);
	cr_assert_eq(s->state, SESSION_DEAD, "no way back from dead");
	cr_assert_eq(sessions_count(&d), 0);
	close(peer);
	inproc_stop(&d);
}

/* Queue 1000-byte frames until s is congested; check the mark each time. */
static void
congest(struct session *s, size_t mark)
{
	static uint8_t chunk[1000 - FRAME_HEADER_SIZE];
	int i;

	for (i = 0; i < 1000 && session_queued(s) < mark; i++) {
		cr_assert_eq(session_congested(s), 0, "congested at %zu",
		    session_queued(s));
		session_send_frame(s, chunk, sizeof(chunk));
		cr_assert_eq(session_congested(s), session_queued(s) >= mark,
		    "mark %zu, queued %zu", mark, session_queued(s));
	}
	cr_assert(session_congested(s));
	cr_assert_lt(session_queued(s), mark + 1000);
}

Test(session, congestion_mark_and_drained_hook, .fini = teardown)
{
	struct inproc_rx rx = { 0 };
	struct session *s;
	double end;
	int peer;

	start(NULL);
	inproc_max_queued(&d, 65536);
	s = inproc_session(&d, &peer, 4096);
	session_set_state(s, SESSION_READY);
	/* Half of --max-queued, below 256 KiB. */
	congest(s, 32768);
	inproc_run_for(&d, 0.02);
	cr_assert_eq(ndrained, 0, "nothing drained: the peer reads nothing");
	cr_assert(session_congested(s));
	cr_assert(session_served(s), "below --max-queued: still served");

	end = monotonic_s() + 2;
	while (session_queued(s) != 0 && monotonic_s() < end) {
		inproc_rx_read(&rx, peer);
		inproc_run_for(&d, 0.001);
	}
	cr_assert_eq(session_queued(s), 0);
	cr_assert_geq(ndrained, 1, "the drained hook ran");
	cr_assert_leq(drained_queued, 16384,
	    "first drained at %zu bytes, the mark is 32768", drained_queued);
	cr_assert(!session_congested(s));
	inproc_rx_free(&rx);
	close(peer);
	inproc_stop(&d);
}

Test(session, congestion_mark_is_at_most_256k, .init = setup, .fini = teardown)
{
	struct session *s;
	int peer;

	/* --max-queued is 64 MiB: 256 KiB is the lower. */
	cr_assert_eq(d.opts->max_queued, 64u * 1024 * 1024);
	s = inproc_session(&d, &peer, 4096);
	session_set_state(s, SESSION_READY);
	congest(s, 256u * 1024);
	close(peer);
	inproc_stop(&d);
}

Test(session, count_drops_at_close, .init = setup, .fini = teardown)
{
	struct session *a, *b, *c;
	int pa, pb, pc;

	a = inproc_session(&d, &pa, 0);
	b = inproc_session(&d, &pb, 0);
	c = inproc_session(&d, &pc, 0);
	session_set_state(c, SESSION_READY);
	cr_assert_eq(sessions_count(&d), 3);
	session_close_after_flush(a, "one");
	cr_assert_eq(sessions_count(&d), 2, "a closing one has no place");
	session_close(b, "two");
	cr_assert_eq(sessions_count(&d), 1);
	cr_assert_eq(sessions_open(&d), 1);
	close(pa);
	close(pb);
	turn_until_left(2);
	inproc_run_for(&d, 0.02);
	cr_assert_eq(nleft, 2);
	cr_assert_eq(sessions_count(&d), 1);
	cr_assert(session_served(c));
	close(pc);
	turn_until_freed();
	cr_assert_eq(sessions_count(&d), 0);
	cr_assert_eq(sessions_open(&d), 0);
	inproc_stop(&d);
}

/*
 * Sessions yet to say Hello are counted by transport, apart from the
 * welcomed ones that --max-clients counts; the oldest of them is found
 * first, and one dropped is closed at once, not after a linger.
 */
Test(session, handshakes_counted_apart, .init = setup, .fini = teardown)
{
	struct session *a, *b, *c;
	int pa, pb, pc;

	a = inproc_session(&d, &pa, 0);
	b = inproc_session(&d, &pb, 0);
	c = inproc_session(&d, &pc, 0);
	cr_assert_eq(sessions_handshaking(&d, SESSION_UNIX), 3);
	cr_assert_eq(sessions_handshaking(&d, SESSION_TCP), 0);
	cr_assert_eq(sessions_welcomed(&d), 0);
	cr_assert_eq(sessions_oldest_handshaking(&d, SESSION_UNIX), a);
	cr_assert_null(sessions_oldest_handshaking(&d, SESSION_TCP));
	session_set_state(a, SESSION_READY);
	cr_assert_eq(sessions_handshaking(&d, SESSION_UNIX), 2);
	cr_assert_eq(sessions_welcomed(&d), 1);
	cr_assert_eq(sessions_oldest_handshaking(&d, SESSION_UNIX), b);
	session_drop(b, RESULT_DENIED, "dropped");
	cr_assert_eq(b->state, SESSION_DEAD, "no linger");
	cr_assert_eq(nrefused, 1, "told why");
	cr_assert_eq(sessions_handshaking(&d, SESSION_UNIX), 1);
	session_close_after_flush(c, "closing");
	session_close(a, "gone");
	cr_assert_eq(sessions_handshaking(&d, SESSION_UNIX), 0);
	cr_assert_eq(sessions_welcomed(&d), 0);
	cr_assert_eq(sessions_count(&d), 0);
	close(pa);
	close(pb);
	close(pc);
	turn_until_freed();
	inproc_stop(&d);
}

/* Seconds until ev is due, or -1 if it is not pending. */
static double
due_in(struct event *ev)
{
	struct timeval tv, now;

	if (!event_pending(ev, EV_TIMEOUT, &tv))
		return -1;
	gettimeofday(&now, NULL);
	return (double)(tv.tv_sec - now.tv_sec) +
	    (double)(tv.tv_usec - now.tv_usec) * 1e-6;
}

/*
 * The Hello deadline is 3 s, too long to wait for here: the test checks
 * that the timer is armed for 3 s, then fires it early.
 */
Test(session, hello_deadline, .init = setup, .fini = teardown)
{
	struct inproc_rx rx = { 0 };
	struct session *s, *ready;
	double due;
	int peer, peer2;

	s = inproc_session(&d, &peer, 0);
	ready = inproc_session(&d, &peer2, 0);
	due = due_in(s->hello_ev);
	cr_assert(due > 2 && due <= 3.01, "due in %g s", due);
	session_set_state(ready, SESSION_READY);
	cr_assert_eq(due_in(ready->hello_ev), -1, "disarmed by READY");

	event_active(s->hello_ev, EV_TIMEOUT, 0);
	event_active(ready->hello_ev, EV_TIMEOUT, 0);
	inproc_turn(&d);
	cr_assert_eq(nrefused, 1, "only the one in HELLO");
	cr_assert_eq(refused_code, RESULT_BADPROTOCOL);
	cr_assert_str_eq(refused_why, "no Hello within 3 seconds");
	cr_assert_eq(s->state, SESSION_CLOSING);
	cr_assert_eq(ready->state, SESSION_READY);
	expect_frame(&rx, peer, "refused");
	cr_assert(inproc_rx_eof(&d, &rx, peer, 1));
	inproc_rx_free(&rx);
	close(peer);
	close(peer2);
	inproc_stop(&d);
}

/* The linger bound (5 s) likewise: armed on CLOSING, fired early. */
Test(session, linger_bound_closes, .init = setup, .fini = teardown)
{
	struct session *s;
	double due;
	int peer;

	s = inproc_session(&d, &peer, 0);
	session_set_state(s, SESSION_READY);
	cr_assert_eq(due_in(s->linger_ev), -1);
	session_close_after_flush(s, "linger");
	due = due_in(s->linger_ev);
	cr_assert(due > 4 && due <= 5.01, "due in %g s", due);
	turn_until_left(1);
	inproc_run_for(&d, 0.02);
	cr_assert_eq(sessions_open(&d), 1, "the peer has not closed");
	event_active(s->linger_ev, EV_TIMEOUT, 0);
	turn_until_freed();
	cr_assert_eq(sessions_open(&d), 0, "closed without the peer's end");
	cr_assert_eq(nleft, 1);
	close(peer);
	inproc_stop(&d);
}
