/* The shared memory of one connection: see shmlink.h. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "shmlink.h"

static int
shmlink_ring_ok(uint32_t cap)
{
	return cap >= 2 * SHMLINK_CHUNK_MAX && cap <= SHMLINK_RING_MAX &&
	    (cap & (cap - 1)) == 0;
}

size_t
shmlink_size(uint32_t request_ring, uint32_t answer_ring)
{
	return SHMRING_SIZE(request_ring) + SHMRING_SIZE(answer_ring);
}

void
shmlink_clear(struct shmlink *l)
{
	memset(l, 0, sizeof(*l));
	l->region.fd = -1;
	l->wake_out = -1;
	l->wake_in = -1;
}

void
shmlink_free(struct shmlink *l)
{
	shmregion_free(&l->region);
	if (l->wake_out != -1)
		close(l->wake_out);
	if (l->wake_in != -1)
		close(l->wake_in);
	shmlink_clear(l);
}

int
shmlink_create(struct shmlink *l, uint32_t request_ring, uint32_t answer_ring,
    int *fds, char *why, size_t len)
{
	int daemon_pipe[2], client_pipe[2];
	uint8_t *base;

	shmlink_clear(l);
	if (!shmlink_ring_ok(request_ring) || !shmlink_ring_ok(answer_ring)) {
		snprintf(why, len,
		    "ring sizes %u and %u: not powers of two "
		    "between %u and %u",
		    request_ring, answer_ring, 2 * SHMLINK_CHUNK_MAX,
		    SHMLINK_RING_MAX);
		return -1;
	}
	if (shmregion_create(&l->region,
		shmlink_size(request_ring, answer_ring), "haptixd-shm", why,
		len) != 0)
		return -1;
	base = l->region.base;
	if (shmring_init(&l->in, base, request_ring) != 0 ||
	    shmring_init(
		&l->out, base + SHMRING_SIZE(request_ring), answer_ring) != 0) {
		snprintf(why, len, "cannot lay the rings out");
		shmlink_free(l);
		return -1;
	}
	if (pipe2(daemon_pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
		snprintf(why, len, "pipe: %s", strerror(errno));
		shmlink_free(l);
		return -1;
	}
	if (pipe2(client_pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
		snprintf(why, len, "pipe: %s", strerror(errno));
		close(daemon_pipe[0]);
		close(daemon_pipe[1]);
		shmlink_free(l);
		return -1;
	}
	l->wake_in = daemon_pipe[0];
	l->wake_out = client_pipe[1];
	fds[SHMLINK_FD_MEMORY] = l->region.fd;
	fds[SHMLINK_FD_WAKE_DAEMON] = daemon_pipe[1];
	fds[SHMLINK_FD_WAKE_CLIENT] = client_pipe[0];
	return 0;
}

int
shmlink_attach(struct shmlink *l, const int *fds, uint32_t request_ring,
    uint32_t answer_ring, char *why, size_t len)
{
	uint8_t *base;

	shmlink_clear(l);
	l->wake_out = fds[SHMLINK_FD_WAKE_DAEMON];
	l->wake_in = fds[SHMLINK_FD_WAKE_CLIENT];
	if (!shmlink_ring_ok(request_ring) || !shmlink_ring_ok(answer_ring)) {
		snprintf(why, len,
		    "the server offered rings of %u and %u "
		    "bytes",
		    request_ring, answer_ring);
		close(fds[SHMLINK_FD_MEMORY]);
		shmlink_free(l);
		return -1;
	}
	if (shmregion_map(&l->region, fds[SHMLINK_FD_MEMORY],
		shmlink_size(request_ring, answer_ring), why, len) != 0) {
		shmlink_free(l);
		return -1;
	}
	base = l->region.base;
	if (shmring_attach(&l->out, base, request_ring) != 0 ||
	    shmring_attach(
		&l->in, base + SHMRING_SIZE(request_ring), answer_ring) != 0) {
		snprintf(why, len, "the shared memory offered is not new");
		shmlink_free(l);
		return -1;
	}
	return 0;
}

ssize_t
shmlink_write(struct shmlink *l, const void *p, size_t len)
{
	const uint8_t *b = p;
	size_t done = 0, n;
	int rc;

	while (done < len) {
		n = len - done < SHMLINK_CHUNK_MAX ? len - done :
						     SHMLINK_CHUNK_MAX;
		rc = shmring_put(&l->out, b + done, n);
		if (rc == SHMRING_FULL && n > 1024) {
			/* Fill what room there is with a smaller chunk. */
			n = shmring_room(&l->out);
			if (n == 0)
				break;
			rc = shmring_put(&l->out, b + done, n);
		}
		if (rc == SHMRING_FULL)
			break;
		if (rc != SHMRING_OK)
			return -1;
		done += n;
	}
	return (ssize_t)done;
}

ssize_t
shmlink_read(struct shmlink *l, uint8_t *buf, size_t room)
{
	size_t done = 0, n;
	int rc, chunks;

	/* Bounded: a writer of empty chunks cannot keep the reader here. */
	for (chunks = 0; chunks < 64 && room - done >= SHMLINK_CHUNK_MAX;
	     chunks++) {
		rc = shmring_get(&l->in, buf + done, SHMLINK_CHUNK_MAX, &n);
		if (rc == SHMRING_EMPTY)
			break;
		if (rc != SHMRING_OK)
			return -1;
		done += n;
	}
	return (ssize_t)done;
}

/* 1 if SIGPIPE is ignored here (the daemon, most clients): asked once. */
static int
shmlink_sigpipe_ignored(void)
{
	static int ignored = -1;
	struct sigaction sa;

	if (ignored == -1)
		ignored = sigaction(SIGPIPE, NULL, &sa) == 0 &&
		    sa.sa_handler == SIG_IGN;
	return ignored;
}

void
shmlink_kick(struct shmlink *l)
{
	static const struct timespec now = { 0, 0 };
	sigset_t pipe, old, pending;
	int had, guard = !shmlink_sigpipe_ignored();
	ssize_t n;

	/*
	 * The other side gone, the write would raise SIGPIPE, which ends a
	 * client program that did not ask for it (over the socket libhaptix
	 * sends with MSG_NOSIGNAL): where it is not ignored, hold it back for
	 * this thread, and take the one this write raised, not one that was
	 * pending already.
	 */
	if (guard) {
		sigemptyset(&pipe);
		sigaddset(&pipe, SIGPIPE);
		pthread_sigmask(SIG_BLOCK, &pipe, &old);
		sigpending(&pending);
		had = sigismember(&pending, SIGPIPE);
	}
	/* A full pipe has woken the other side already. */
	do
		n = write(l->wake_out, "", 1);
	while (n == -1 && errno == EINTR);
	if (!guard)
		return;
	if (n == -1 && errno == EPIPE && !had)
		while (sigtimedwait(&pipe, NULL, &now) == -1 && errno == EINTR)
			;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

int
shmlink_drain(struct shmlink *l)
{
	char buf[64];
	ssize_t n;

	/*
	 * A read short of the buffer has emptied the pipe: the second read
	 * that said so (EAGAIN) was a system call a round trip.
	 */
	while ((n = read(l->wake_in, buf, sizeof(buf))) == (ssize_t)sizeof(buf))
		;
	return n == 0 ? -1 : 0;
}
