/* The loader's answer in shared memory: see answermem.h. */
#include "config.h"

#include <fcntl.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "answermem.h"

/* What makes an answer one nobody changes any more. */
#define ANSWERMEM_SEALS (F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE)

int
answermem_create(size_t size)
{
	int fd;

	if ((fd = memfd_create(
		 "haptixd-answer", MFD_CLOEXEC | MFD_ALLOW_SEALING)) == -1)
		return -1;
	if (ftruncate(fd, (off_t)size) != 0 ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_GROW) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

int
answermem_seal(int fd)
{
	return fcntl(fd, F_ADD_SEALS, ANSWERMEM_SEALS | F_SEAL_SEAL);
}

const void *
answermem_map(int fd, size_t max, size_t *len)
{
	struct stat st;
	void *p;
	int seals;

	if ((seals = fcntl(fd, F_GET_SEALS)) == -1 ||
	    (seals & ANSWERMEM_SEALS) != ANSWERMEM_SEALS ||
	    fstat(fd, &st) != 0 || st.st_size <= 0 ||
	    (uint64_t)st.st_size > max)
		return NULL;
	/* The pages are the loader's, faulted in: mapped all at once. */
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED | MAP_POPULATE,
	    fd, 0);
	if (p == MAP_FAILED)
		return NULL;
	*len = (size_t)st.st_size;
	return p;
}

void
answermem_unmap(const void *p, size_t len)
{
	if (p != NULL)
		munmap((void *)p, len);
}
