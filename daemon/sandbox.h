/*
 * The loader's sandbox: what a process may still do once a model it has
 * not read yet may take it over.
 */
#ifndef HXD_SANDBOX_H
#define HXD_SANDBOX_H

#include <stddef.h>
#include <stdint.h>

/*
 * Close every descriptor above keep (at least standard error), set
 * resource limits (seconds of CPU, memory bytes of address space, no
 * core) and install a system-call filter that refuses sockets, new
 * processes and programs, signals, and opening, creating or changing
 * files to write them: what is left to write to is the answer's pipe and
 * shared memory (the descriptors kept) and the log (standard error, which
 * may be a file, so no file-size limit).  Returns 0, or -1 with err saying
 * what could not be set up.
 */
int sandbox_enter(
    int keep, double seconds, uint64_t memory, char *err, size_t len);

/*
 * 1 if sandbox_enter limits the memory; 0 in an AddressSanitizer build,
 * whose shadow memory an address-space limit refuses.
 */
int sandbox_memory_limited(void);

#endif
