/*
 * Listeners: the Unix socket and TCP, accepting clients up to the limit.
 */
#ifndef HXD_SERVER_H
#define HXD_SERVER_H

#include <stddef.h>

struct daemon;
struct options;
struct server;

struct server *server_create(struct daemon *d);

/*
 * Listen on a Unix socket at path, mode 0660, replacing a stale socket
 * but never a live server or another kind of file.
 */
int server_listen_unix(
    struct server *sv, const char *path, char *err, size_t len);

/*
 * Listen on TCP at spec ([tls:][HOST:]PORT), on every address HOST
 * resolves to (localhost: 127.0.0.1 and ::1), logging each.  A
 * non-loopback address needs a token (have_token), and TLS unless the
 * settings allow a token in the clear; TLS needs the settings'
 * certificate.  bound receives "tcp:HOST:PORT" (or tls:) of the first
 * address, with the real port.
 */
int server_listen_tcp(struct server *sv, const char *spec, int have_token,
    char *bound, size_t boundlen, char *err, size_t len);

/*
 * Serve a listening socket that systemd handed over: a Unix or TCP
 * stream socket, told apart by its address, held to the same rules as
 * server_listen_tcp(); a TCP socket serves TLS when the settings name a
 * certificate.  bound receives "unix:PATH", "tcp:HOST:PORT" or tls:.
 * An inherited Unix socket is systemd's: it is never removed.
 */
int server_adopt(struct server *sv, int fd, int have_token, char *bound,
    size_t boundlen, char *err, size_t len);

/*
 * SIGHUP: read the TLS certificate, key and client CA of o again, for
 * the connections to come.  0, or -1 with a reason (the old ones stay).
 */
int server_tls_reload(
    struct server *sv, const struct options *o, char *err, size_t len);

/* Return 1 if a TCP listener is not on loopback (it needs the token). */
int server_public(const struct server *sv);

/* Close the listeners and remove the Unix socket; NULL is fine. */
void server_free(struct server *sv);

#endif
