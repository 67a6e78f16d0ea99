/*
 * The loader's answer in shared memory (loader.h): a memfd the daemon
 * makes and gives the loader, which writes its answer there and seals
 * it; the daemon reads only an answer sealed against writes, growing and
 * shrinking, so that what it checks is what stays, and no loader can
 * truncate the memory under the daemon's reading (a SIGBUS there).
 */
#ifndef HXD_ANSWERMEM_H
#define HXD_ANSWERMEM_H

#include <stddef.h>

/*
 * A memfd of size bytes, the answer's room (which the loader faults in
 * ahead), sealed against growing: what a loader can make the daemon
 * hold in it is bounded by that (a loader could otherwise write
 * gigabytes into it a window at a time, beyond its address-space limit);
 * an answer that does not fit goes by the pipe.  Close-on-exec.  Returns
 * it, or -1 with errno.
 */
int answermem_create(size_t size);

/*
 * Seal fd against writes and shrinking too: once no writable mapping of
 * it is left.  Returns 0, or -1 with errno (EBUSY: a mapping is left).
 */
int answermem_seal(int fd);

/*
 * The sealed answer in fd, mapped read-only, and its size in *len; NULL
 * when fd is not sealed so, is empty, or holds more than max bytes.
 * answermem_unmap() lets it go.
 */
const void *answermem_map(int fd, size_t max, size_t *len);
void answermem_unmap(const void *p, size_t len);

#endif
