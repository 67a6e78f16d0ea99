/*
 * The memory of the shared-memory transport (issue 36): a memfd that
 * the daemon makes and seals at its size, so that no client can shrink
 * it under the daemon (whose reads would then fault) nor grow it, and
 * that a client maps after checking that size and those seals.
 *
 * Shared by the daemon and the client library; knows nothing of either.
 */
#ifndef HX_SHMREGION_H
#define HX_SHMREGION_H

#include <stddef.h>

struct shmregion {
	int fd;     /* the memfd; -1 when none */
	void *base; /* mapped, shared, read and write */
	size_t size;
};

/*
 * Make a sealed region of size bytes (zeroed), named name for
 * /proc/PID/maps.  0, or -1 with why.
 */
int shmregion_create(
    struct shmregion *r, size_t size, const char *name, char *why, size_t len);

/*
 * Map a region received as fd: it must be a memfd of exactly size bytes
 * that can neither shrink nor grow.  Takes fd (closed on failure).  0,
 * or -1 with why.
 */
int shmregion_map(
    struct shmregion *r, int fd, size_t size, char *why, size_t len);

/* Unmap and close; a region never made is fine. */
void shmregion_free(struct shmregion *r);

#endif
