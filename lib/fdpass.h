/*
 * File descriptors over a Unix socket (SCM_RIGHTS), with the bytes they
 * travel beside: how the daemon hands a client the shared memory of the
 * shared-memory transport and its eventfds (issue 36).
 *
 * Shared by the daemon and the client library; knows nothing of either.
 */
#ifndef HX_FDPASS_H
#define HX_FDPASS_H

#include <stddef.h>
#include <sys/types.h>

/* The most descriptors one message carries. */
#define FDPASS_MAX 4

/*
 * Send len bytes (at least one) with n descriptors, without waiting and
 * without SIGPIPE: the bytes sent, or -1 (errno).
 */
ssize_t fdpass_send(
    int sock, const void *buf, size_t len, const int *fds, int n);

/*
 * Receive up to len bytes and the descriptors beside them, close-on-exec,
 * into fds (room for FDPASS_MAX), their count into *n: the bytes
 * received, 0 at the end, -1 (errno).  Descriptors past FDPASS_MAX, or
 * cut off, are closed and the call fails with EMSGSIZE: the caller never
 * holds what it did not expect.
 */
ssize_t fdpass_recv(int sock, void *buf, size_t len, int *fds, int *n);

#endif
