/*
 * The shared-memory transport of one connection (issue 36; protocol.md,
 * "Shared memory"): a sealed region holding two rings, the request ring
 * (client to daemon) and the answer ring (daemon to client), and two
 * pipes that wake a side sleeping on its ring.
 *
 * Each ring carries its direction's byte stream, the frames exactly as
 * the socket would, cut into chunks of at most SHMLINK_CHUNK_MAX bytes:
 * a frame may span chunks, so that no frame is too big for a ring.  The
 * reader copies chunks out into its input and parses frames there, as
 * from a socket: what the other side wrote is never used in place.
 *
 * Pipes, not eventfds, wake: an eventfd is one open file for both sides,
 * whose O_NONBLOCK a client could clear and whose counter it could fill,
 * so that the daemon's next write blocked; a pipe's ends are open files
 * of their own, and the daemon's never leave it.
 *
 * Shared by the daemon and the client library; knows nothing of either.
 */
#ifndef HX_SHMLINK_H
#define HX_SHMLINK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "shmregion.h"
#include "shmring.h"

/* The largest chunk of a byte stream in a ring. */
#define SHMLINK_CHUNK_MAX 65536u

/* The rings the daemon offers (bytes of data each). */
#define SHMLINK_REQUEST_RING (256u * 1024)
#define SHMLINK_ANSWER_RING (1024u * 1024)

/* The largest ring a client maps. */
#define SHMLINK_RING_MAX (64u * 1024 * 1024)

/* The descriptors passed beside the Welcome, in this order. */
enum {
	SHMLINK_FD_MEMORY,      /* the region (a sealed memfd) */
	SHMLINK_FD_WAKE_DAEMON, /* the write end of the daemon's pipe */
	SHMLINK_FD_WAKE_CLIENT, /* the read end of the client's pipe */
	SHMLINK_NFDS,
};

/* One side's view of a connection's shared memory. */
struct shmlink {
	struct shmregion region;
	struct shmring out; /* this side writes: requests or answers */
	struct shmring in;  /* this side reads */
	int wake_out;       /* a byte here wakes the other side */
	int wake_in;        /* readable when the other side woke us */
};

/* The bytes a region with these rings takes. */
size_t shmlink_size(uint32_t request_ring, uint32_t answer_ring);

/*
 * The daemon: make the region and the pipes; fds gets the descriptors to
 * pass (SHMLINK_NFDS), which the caller closes once sent.  0, or -1
 * with why.
 */
int shmlink_create(struct shmlink *l, uint32_t request_ring,
    uint32_t answer_ring, int *fds, char *why, size_t len);

/*
 * The client: take the descriptors received (SHMLINK_NFDS; all taken,
 * closed on failure) for rings of the sizes the Welcome gave.  0, or -1
 * with why.
 */
int shmlink_attach(struct shmlink *l, const int *fds, uint32_t request_ring,
    uint32_t answer_ring, char *why, size_t len);

/* Unmap and close; a link never made (all zero, fds -1) is fine. */
void shmlink_free(struct shmlink *l);

/* Mark l as holding nothing, for shmlink_free. */
void shmlink_clear(struct shmlink *l);

/*
 * Write what fits of len bytes into the out ring, in chunks: the bytes
 * written (0 when full), or -1 when the ring is broken.
 */
ssize_t shmlink_write(struct shmlink *l, const void *p, size_t len);

/*
 * Read chunks from the in ring into buf while room stays for one more
 * (room must be at least SHMLINK_CHUNK_MAX to read anything): the bytes
 * read (0 when empty), or -1 when the ring is broken or a chunk is
 * larger than SHMLINK_CHUNK_MAX.
 */
ssize_t shmlink_read(struct shmlink *l, uint8_t *buf, size_t room);

/*
 * Wake the other side: one byte into its pipe, never blocking, and never
 * raising SIGPIPE when the other side has gone.
 */
void shmlink_kick(struct shmlink *l);

/*
 * Empty our wake pipe without blocking: 0, or -1 when the other side
 * closed its end (the pipe then stays readable: stop watching it).
 */
int shmlink_drain(struct shmlink *l);

#endif
