/*
 * A connection's shared-memory transport, the client's side
 * (protocol.md, "Shared memory"): after the Welcome, requests go into
 * the request ring and answers come from the answer ring, in chunks of
 * the byte stream the socket would carry.  A wait spins a little (the
 * daemon usually answers within microseconds), yielding the CPU to the
 * daemon should it share it, then sleeps on the wake pipe and the
 * socket, whose end says the daemon has gone.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conn.h"
#include "program.h"
#include "shmlink.h"

/* How long a wait spins before it sleeps, by default (microseconds). */
#define CONN_SHM_SPIN_US 50

/*
 * A call whose answers have lately taken up to this long (a step of a
 * large model) is waited for spinning twice as long as they took: the
 * wakeup of a sleeping client costs tens of microseconds on a virtual
 * machine, a large part of a lock-step.  Longer waits (many steps in one
 * request, a call paced by the API's clock) sleep at once: the wakeup is
 * a small part of them, and a spin that cannot meet its answer only
 * takes a CPU from the daemons stepping (a vector of environments on as
 * many cores, measured in docs/benchmarks.md).
 */
#define CONN_SHM_SPIN_LONG_NS 500000L

/*
 * Turns of a spin that only look before it yields: an answer from a
 * daemon on another CPU is seen within a microsecond.
 */
#define CONN_SHM_LOOKS 64

/*
 * A yield that took this long gave the CPU to another process that
 * wanted it: the machine has more work than CPUs, and a spin would take
 * from it.  The wait sleeps instead.
 */
#define CONN_SHM_YIELD_TAKEN_NS 50000L

/* The spin of this process: $HAPTIX_SHM_SPIN_US, or the default. */
static long
conn_shm_spin_ns(void)
{
	static long ns = -1;
	const char *v;
	char *end;
	long us;

	if (ns >= 0)
		return ns;
	ns = CONN_SHM_SPIN_US * 1000L;
	if ((v = getenv("HAPTIX_SHM_SPIN_US")) != NULL && *v != '\0') {
		us = strtol(v, &end, 10);
		if (*end == '\0' && us >= 0 && us <= 1000000)
			ns = us * 1000L;
	}
	return ns;
}

/* A spinning CPU's pause: kinder to its sibling thread and the bus. */
static inline void
conn_shm_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

/* The monotonic clock in nanoseconds (program_now's). */
static long
conn_shm_now_ns(void)
{
	return (long)(program_now() * 1e9);
}

int
conn_shm_start(hxd_conn *c, uint32_t request_ring, uint32_t answer_ring)
{
	char why[256];
	int i;

	if (c->nfds != SHMLINK_NFDS) {
		for (i = 0; i < c->nfds; i++)
			close(c->fds[i]);
		c->nfds = 0;
		return conn_fail(c, HXD_BADPROTOCOL,
		    "the server offered shared memory without its %d "
		    "descriptors",
		    SHMLINK_NFDS);
	}
	c->nfds = 0;
	if ((c->shm = malloc(sizeof(*c->shm))) == NULL) {
		for (i = 0; i < SHMLINK_NFDS; i++)
			close(c->fds[i]);
		return conn_fail(c, HXD_NOCONNECTION, "out of memory");
	}
	if (shmlink_attach(c->shm, c->fds, request_ring, answer_ring, why,
		sizeof(why)) != 0) {
		free(c->shm);
		c->shm = NULL;
		return conn_fail(c, HXD_BADPROTOCOL,
		    "cannot take the shared memory offered: %s", why);
	}
	return HXD_OK;
}

void
conn_shm_free_fds(hxd_conn *c)
{
	int i;

	for (i = 0; i < c->nfds; i++)
		close(c->fds[i]);
	c->nfds = 0;
}

void
conn_shm_free(hxd_conn *c)
{
	conn_shm_free_fds(c);
	if (c->shm == NULL)
		return;
	shmlink_free(c->shm);
	free(c->shm);
	c->shm = NULL;
}

/*
 * How long to spin for what comes next: an answer, from how long the
 * last ones took (nothing when they took long); an event, the ordinary
 * spin; nothing when the deadline has passed (a look for events without
 * waiting).
 */
static long
conn_shm_budget(const hxd_conn *c, int64_t deadline)
{
	long spin = conn_shm_spin_ns();

	if (deadline >= 0 && deadline <= conn_now_ms())
		return 0;
	if (spin == 0 || c->shm_sent_ns == 0)
		return spin;
	if (c->shm_wait_ns > CONN_SHM_SPIN_LONG_NS)
		return 0;
	return 2 * c->shm_wait_ns > spin ? 2 * c->shm_wait_ns : spin;
}

/*
 * Spin until ready() says so or the spin (ns) is over: 1 when ready,
 * else 0.  The first turns only look, unless the daemon last read on
 * this CPU: a look takes the CPU the answer needs (one CPU: 5.4 against
 * 6.9 µs a round trip); later ones yield, so that a daemon on the same
 * CPU gets it at once.
 */
static int
conn_shm_spin(hxd_conn *c, int (*ready)(hxd_conn *), long spin)
{
	long until = -1, now, before;
	int i, looks = CONN_SHM_LOOKS;

	if (shmring_consumer_cpu(&c->shm->out) == sched_getcpu())
		looks = 0;
	for (i = 0;; i++) {
		if (ready(c))
			return 1;
		if (spin == 0)
			return 0;
		if (i < looks) {
			conn_shm_relax();
			continue;
		}
		now = conn_shm_now_ns();
		if (until < 0)
			until = now + spin;
		else if (now >= until)
			return 0;
		sched_yield();
		before = now;
		if (conn_shm_now_ns() - before > CONN_SHM_YIELD_TAKEN_NS)
			return ready(c);
	}
}

/*
 * Sleep until the daemon wakes us, the socket shows it gone, or the
 * deadline (ms, -1: none).  1 when woken, 0 at the deadline, -1 when
 * the daemon has gone (or poll failed: errno).
 */
static int
conn_shm_sleep(hxd_conn *c, int64_t deadline)
{
	struct pollfd pfd[2] = {
		{ .fd = c->shm->wake_in, .events = POLLIN },
		{ .fd = c->fd, .events = POLLIN },
	};
	int n = conn_poll(pfd, 2, deadline);

	if (n <= 0)
		return n;
	if (pfd[0].revents != 0)
		shmlink_drain(c->shm);
	if (pfd[1].revents != 0) {
		errno = 0;
		return -1;
	}
	return 1;
}

/* Keep how long the answer to the last request took (a moving mean). */
static void
conn_shm_answered(hxd_conn *c)
{
	long took;

	if (c->shm_sent_ns == 0)
		return;
	took = conn_shm_now_ns() - c->shm_sent_ns;
	c->shm_sent_ns = 0;
	c->shm_wait_ns = (3 * c->shm_wait_ns + took) / 4;
}

static int
conn_shm_readable(hxd_conn *c)
{
	return shmring_ready(&c->shm->in);
}

ssize_t
conn_shm_recv(hxd_conn *c, uint8_t *p, size_t room, int64_t deadline)
{
	ssize_t n;
	int rc;

	for (;;) {
		n = shmlink_read(c->shm, p, room);
		if (n != 0) {
			if (n > 0 && shmring_room_wake_needed(&c->shm->in))
				shmlink_kick(c->shm);
			conn_shm_answered(c);
			if (n < 0)
				errno = EPROTO;
			return n;
		}
		if (conn_shm_spin(
			c, conn_shm_readable, conn_shm_budget(c, deadline)))
			continue;
		if (shmring_sleep(&c->shm->in) == 1)
			continue;
		rc = conn_shm_sleep(c, deadline);
		shmring_awake(&c->shm->in);
		if (rc == 1)
			continue;
		/* What the daemon wrote before it went is still read. */
		if ((n = shmlink_read(c->shm, p, room)) != 0)
			return n < 0 ? -1 : n;
		if (rc == 0)
			return -2;
		return errno == 0 ? 0 : -1;
	}
}

static int
conn_shm_roomy(hxd_conn *c)
{
	return shmring_room(&c->shm->out) >= SHMLINK_CHUNK_MAX;
}

int
conn_shm_send(hxd_conn *c, const uint8_t *p, size_t len, int64_t deadline)
{
	ssize_t n;
	int rc;

	while (len > 0) {
		n = shmlink_write(c->shm, p, len);
		if (n < 0)
			return conn_fail(c, HXD_CANNOTSEND,
			    "cannot send to the server: its request ring is "
			    "broken");
		if (n > 0 && shmring_wake_needed(&c->shm->out))
			shmlink_kick(c->shm);
		p += n;
		len -= (size_t)n;
		if (len == 0) {
			c->shm_sent_ns = conn_shm_now_ns();
			break;
		}
		if (conn_shm_spin(c, conn_shm_roomy, conn_shm_spin_ns()))
			continue;
		if (shmring_wait_room(&c->shm->out, SHMLINK_CHUNK_MAX) == 1) {
			shmring_awake_room(&c->shm->out);
			continue;
		}
		rc = conn_shm_sleep(c, deadline);
		shmring_awake_room(&c->shm->out);
		if (rc == 1)
			continue;
		if (rc == 0)
			return conn_fail(
			    c, HXD_TIMEOUT, "timed out sending to the server");
		return conn_fail(c, HXD_CANNOTSEND,
		    "cannot send to the server: it closed the connection");
	}
	return HXD_OK;
}
