/*
 * TCP listeners on a name: every address the name resolves to, on one
 * port.  Shared by haptixd --tcp and hxview serve --http, so that a user
 * who types "localhost" is served on 127.0.0.1 and on ::1 alike.
 */
#ifndef HX_LISTEN_H
#define HX_LISTEN_H

#include <stddef.h>

/* At most this many addresses of one name are listened on. */
#define LISTEN_MAX 8

/* listen_name()'s flags: refuse a name with any address off loopback. */
#define LISTEN_LOOPBACK_ONLY 0x1

/* What listen_name() returns for such a name under LISTEN_LOOPBACK_ONLY. */
#define LISTEN_NOT_LOOPBACK (-2)

struct listen_set {
	int n;
	int fds[LISTEN_MAX];        /* listening, non-blocking, close-on-exec */
	char names[LISTEN_MAX][64]; /* "127.0.0.1:5790", "[::1]:5790" */
	int loopback[LISTEN_MAX];   /* 1 if that address is loopback */
};

/*
 * Listen on every address host resolves to (a name, a numeric address,
 * or NULL for every address of the machine), all on port; port "0" lets
 * the kernel choose one for the first address and the others take the
 * same.  An address of a family the kernel lacks (IPv6 turned off) is
 * skipped while another is served.  With LISTEN_LOOPBACK_ONLY, a name
 * with any address off loopback is refused before anything is bound
 * (LISTEN_NOT_LOOPBACK).  Returns 0, or -1 or LISTEN_NOT_LOOPBACK with a
 * reason in err and nothing left open.
 */
int listen_name(const char *host, const char *port, int backlog, int flags,
    struct listen_set *set, char *err, size_t errlen);

/* Close every socket of the set; an empty set is fine. */
void listen_close(struct listen_set *set);

#endif
