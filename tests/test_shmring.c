/*
 * Unit tests of the shared-memory ring (lib/shmring.c): frames through
 * it in order, wrapping at its end, FULL and TOO_BIG at their bounds; a
 * hostile other side (impossible positions, a length scribbled on,
 * bytes changed after they were put) breaks nothing but the ring; and a
 * producer and a consumer in two threads, sleeping on eventfds, pass a
 * hundred thousand frames of every size intact.
 */
#include "config.h"

#include <sched.h>

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "shmring.h"

TestSuite(shmring, .timeout = 60);

/* A ring of cap bytes in memory of its own; both sides of it. */
struct pair {
	void *mem;
	struct shmring put, get;
};

static void
pair_make(struct pair *p, uint32_t cap)
{
	cr_assert_eq(posix_memalign(&p->mem, 64, SHMRING_SIZE(cap)), 0);
	memset(p->mem, 0xa5, SHMRING_SIZE(cap));
	cr_assert_eq(shmring_init(&p->put, p->mem, cap), 0);
	cr_assert_eq(shmring_attach(&p->get, p->mem, cap), 0);
}

/* Frame i's bytes: its length and content follow from i. */
static size_t
frame_fill(uint8_t *buf, size_t max, unsigned i)
{
	size_t n = (i * 7919u) % (max + 1), k;

	for (k = 0; k < n; k++)
		buf[k] = (uint8_t)(i * 31u + k);
	return n;
}

Test(shmring, frames_in_order_across_the_end)
{
	struct pair p;
	uint8_t in[100], out[100];
	size_t n, got;
	unsigned i;

	pair_make(&p, 128);
	cr_assert_eq(
	    shmring_get(&p.get, out, sizeof(out), &got), SHMRING_EMPTY);
	for (i = 0; i < 5000; i++) {
		n = frame_fill(in, 60, i);
		cr_assert_eq(
		    shmring_put(&p.put, in, n), SHMRING_OK, "frame %u", i);
		cr_assert_eq(shmring_used(&p.put), 4 + n);
		cr_assert_eq(shmring_get(&p.get, out, sizeof(out), &got),
		    SHMRING_OK, "frame %u", i);
		cr_assert_eq(got, n);
		cr_assert(memcmp(in, out, n) == 0, "frame %u changed", i);
	}
	cr_assert_eq(shmring_used(&p.get), 0);
	free(p.mem);
}

Test(shmring, full_and_too_big)
{
	struct pair p;
	uint8_t buf[256] = { 0 };
	size_t got;

	pair_make(&p, 64);
	cr_assert_eq(shmring_put(&p.put, buf, 61), SHMRING_TOO_BIG,
	    "a frame larger than the ring can never fit");
	cr_assert_eq(shmring_put(&p.put, buf, 60), SHMRING_OK, "it just fits");
	cr_assert_eq(shmring_put(&p.put, buf, 0), SHMRING_FULL);
	cr_assert_eq(shmring_get(&p.get, buf, 59, &got), SHMRING_TOO_BIG,
	    "a frame past the reader's limit");
	cr_assert_eq(shmring_get(&p.get, buf, 60, &got), SHMRING_OK);
	cr_assert_eq(shmring_put(&p.put, buf, 0), SHMRING_OK, "room again");
	cr_assert_eq(shmring_init(&p.put, p.mem, 100), -1, "not a power of 2");
	cr_assert_eq(shmring_init(&p.put, p.mem, 32), -1, "too small");
	free(p.mem);
}

Test(shmring, a_hostile_side_breaks_only_the_ring)
{
	struct pair p;
	uint8_t buf[64] = { 1, 2, 3 };
	size_t got;

	/* A head too far ahead, or behind: the consumer stops. */
	pair_make(&p, 64);
	p.get.ctl->head = 65;
	cr_assert_eq(shmring_get(&p.get, buf, 64, &got), SHMRING_BROKEN);
	p.get.ctl->head = (uint32_t)-1;
	cr_assert_eq(shmring_get(&p.get, buf, 64, &got), SHMRING_BROKEN);

	/* A tail ahead of the head: the producer stops. */
	pair_make(&p, 64);
	p.put.ctl->tail = 8;
	cr_assert_eq(shmring_put(&p.put, buf, 3), SHMRING_BROKEN);

	/* A length scribbled on after the put: refused, never trusted. */
	pair_make(&p, 64);
	cr_assert_eq(shmring_put(&p.put, buf, 3), SHMRING_OK);
	p.get.data[0] = 0x7f;
	cr_assert_eq(shmring_get(&p.get, buf, 64, &got), SHMRING_TOO_BIG);
	p.get.data[0] = 0;
	p.get.data[3] = 40; /* longer than what was put: not yet whole */
	cr_assert_eq(shmring_get(&p.get, buf, 64, &got), SHMRING_EMPTY);
	p.get.data[3] = 3;
	p.get.data[4] = 9; /* content changed: delivered as it is now */
	cr_assert_eq(shmring_get(&p.get, buf, 64, &got), SHMRING_OK);
	cr_assert_eq(got, 3);
	cr_assert_eq(buf[0], 9);

	/* A new ring must start empty to be taken. */
	p.get.ctl->head = 4;
	cr_assert_eq(shmring_attach(&p.get, p.mem, 64), -1);
	free(p.mem);
}

Test(shmring, the_sleep_handshake)
{
	struct pair p;
	uint8_t buf[8] = { 0 };

	pair_make(&p, 64);
	cr_assert_eq(shmring_wake_needed(&p.put), 0, "nobody sleeps yet");
	cr_assert_eq(shmring_sleep(&p.get), 0, "empty: sleep");
	cr_assert_eq(shmring_put(&p.put, buf, 1), SHMRING_OK);
	cr_assert_eq(shmring_wake_needed(&p.put), 1, "the sleeper is woken");
	cr_assert_eq(shmring_wake_needed(&p.put), 0, "once");
	cr_assert_eq(shmring_sleep(&p.get), 1, "a frame waits: no sleep");
	shmring_awake(&p.get);
	free(p.mem);
}

/*
 * The consumer says on which CPU it reads, for the producer's wait (a
 * spin that only looks takes the CPU from a consumer sharing it); not
 * said, or scribbled past any CPU, is no CPU.
 */
Test(shmring, the_consumer_says_its_cpu)
{
	struct pair p;

	pair_make(&p, 64);
	cr_assert_eq(shmring_consumer_cpu(&p.put), -1, "nothing said yet");
	shmring_say_cpu(&p.get);
	cr_assert_eq(shmring_consumer_cpu(&p.put), sched_getcpu(),
	    "the consumer's CPU, as the producer reads it");
	p.put.ctl->cpu = 0xffffffffu;
	cr_assert_eq(shmring_consumer_cpu(&p.put), -1, "a scribble");
	free(p.mem);
}

Test(shmring, the_room_handshake)
{
	struct pair p;
	uint8_t buf[64] = { 0 };
	size_t got;

	pair_make(&p, 64);
	cr_assert_eq(shmring_wait_room(&p.put, 60), 1, "empty: room");
	cr_assert_eq(shmring_room_wake_needed(&p.get), 0, "nobody waits");
	cr_assert_eq(shmring_put(&p.put, buf, 30), SHMRING_OK);
	cr_assert_eq(shmring_wait_room(&p.put, 40), 0, "full for 40: sleep");
	cr_assert_eq(shmring_get(&p.get, buf, sizeof(buf), &got), SHMRING_OK);
	cr_assert_eq(
	    shmring_room_wake_needed(&p.get), 1, "the waiter is woken");
	cr_assert_eq(shmring_room_wake_needed(&p.get), 0, "once");
	cr_assert_eq(shmring_wait_room(&p.put, 40), 1, "room now: no sleep");
	shmring_awake_room(&p.put);
	cr_assert_eq(shmring_room_wake_needed(&p.get), 0, "the flag is down");
	free(p.mem);
}

#define THREAD_FRAMES 100000u
#define THREAD_MAX 3000u

struct side {
	struct shmring *r;
	int wake_me, wake_other; /* eventfds */
	int result;
};

static void
side_wait(int fd)
{
	uint64_t v;

	cr_assert_eq(read(fd, &v, sizeof(v)), (ssize_t)sizeof(v));
}

static void
side_wake(int fd)
{
	uint64_t one = 1;

	cr_assert_eq(write(fd, &one, sizeof(one)), (ssize_t)sizeof(one));
}

static void *
producer(void *arg)
{
	struct side *s = arg;
	uint8_t buf[THREAD_MAX];
	unsigned i;
	size_t n;
	int rc;

	for (i = 0; i < THREAD_FRAMES; i++) {
		n = frame_fill(buf, THREAD_MAX, i);
		while ((rc = shmring_put(s->r, buf, n)) == SHMRING_FULL) {
			if (shmring_wait_room(s->r, n) == 0)
				side_wait(s->wake_me); /* until some is read */
			shmring_awake_room(s->r);
		}
		if (rc != SHMRING_OK) {
			s->result = rc;
			return NULL;
		}
		if (shmring_wake_needed(s->r))
			side_wake(s->wake_other);
	}
	return NULL;
}

Test(shmring, two_threads_pass_every_frame_intact)
{
	struct pair p;
	struct side prod = { 0 };
	uint8_t want[THREAD_MAX], got[THREAD_MAX];
	int to_consumer = eventfd(0, 0), to_producer = eventfd(0, 0);
	pthread_t t;
	size_t n, len;
	unsigned i;
	int rc;

	pair_make(&p, 8192);
	prod.r = &p.put;
	prod.wake_me = to_producer;
	prod.wake_other = to_consumer;
	cr_assert_eq(pthread_create(&t, NULL, producer, &prod), 0);
	for (i = 0; i < THREAD_FRAMES; i++) {
		while ((rc = shmring_get(&p.get, got, sizeof(got), &len)) ==
		    SHMRING_EMPTY) {
			if (shmring_sleep(&p.get) == 0)
				side_wait(to_consumer);
			shmring_awake(&p.get);
		}
		cr_assert_eq(rc, SHMRING_OK, "frame %u", i);
		n = frame_fill(want, THREAD_MAX, i);
		cr_assert_eq(len, n, "frame %u: %zu bytes, not %zu", i, len, n);
		cr_assert(memcmp(want, got, n) == 0, "frame %u changed", i);
		/* The producer may wait for room: tell it there is some. */
		if (shmring_room_wake_needed(&p.get))
			side_wake(to_producer);
	}
	pthread_join(t, NULL);
	cr_assert_eq(prod.result, 0);
	close(to_consumer);
	close(to_producer);
	free(p.mem);
}
