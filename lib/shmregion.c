/* The shared memory of one connection: see shmregion.h. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shmregion.h"

/* What the region must keep: its size, and these seals themselves. */
#define SHMREGION_SEALS (F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL)

/* Map r's memfd whole, shared; on failure free r.  0, or -1 with why. */
static int
shmregion_mmap(struct shmregion *r, char *why, size_t len)
{
	r->base = mmap(
	    NULL, r->size, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0);
	if (r->base == MAP_FAILED) {
		r->base = NULL;
		snprintf(
		    why, len, "mmap %zu bytes: %s", r->size, strerror(errno));
		shmregion_free(r);
		return -1;
	}
	return 0;
}

int
shmregion_create(
    struct shmregion *r, size_t size, const char *name, char *why, size_t len)
{
	r->fd = -1;
	r->base = NULL;
	r->size = size;
	if ((r->fd = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING)) ==
	    -1) {
		snprintf(why, len, "memfd_create: %s", strerror(errno));
		return -1;
	}
	if (ftruncate(r->fd, (off_t)size) == -1 ||
	    fcntl(r->fd, F_ADD_SEALS, SHMREGION_SEALS) == -1) {
		snprintf(
		    why, len, "sealing %zu bytes: %s", size, strerror(errno));
		shmregion_free(r);
		return -1;
	}
	return shmregion_mmap(r, why, len);
}

int
shmregion_map(struct shmregion *r, int fd, size_t size, char *why, size_t len)
{
	struct stat st;
	int seals;

	r->fd = fd;
	r->base = NULL;
	r->size = size;
	seals = fcntl(fd, F_GET_SEALS);
	if (seals == -1 || (seals & SHMREGION_SEALS) != SHMREGION_SEALS) {
		snprintf(why, len,
		    "the shared memory offered is not sealed at its size");
		shmregion_free(r);
		return -1;
	}
	if (fstat(fd, &st) == -1 || (size_t)st.st_size != size) {
		snprintf(why, len,
		    "the shared memory offered is not of the size announced "
		    "(%zu bytes)",
		    size);
		shmregion_free(r);
		return -1;
	}
	return shmregion_mmap(r, why, len);
}

void
shmregion_free(struct shmregion *r)
{
	if (r->base != NULL)
		munmap(r->base, r->size);
	if (r->fd != -1)
		close(r->fd);
	r->base = NULL;
	r->fd = -1;
}
