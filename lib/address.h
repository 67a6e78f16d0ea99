/*
 * Server addresses, in the forms that hxctl --server, $HAPTIX_SERVER,
 * mj_connect() and haptixd --tcp accept.  Shared by the daemon and the
 * client library; knows nothing of MuJoCo or of haptix.h.
 */
#ifndef HX_ADDRESS_H
#define HX_ADDRESS_H

#include <stddef.h>
#include <sys/socket.h>
#include <sys/un.h>

/* The fixed TCP port of haptixd, documented in haptixd(8). */
#define ADDRESS_DEFAULT_PORT 5790

/* The socket name inside $XDG_RUNTIME_DIR, and the system-wide socket. */
#define ADDRESS_UNIX_NAME "haptixd.sock"
#define ADDRESS_UNIX_SYSTEM "/run/haptixd/haptixd.sock"

enum address_kind {
	ADDRESS_UNIX,
	ADDRESS_TCP,
};

/*
 * One address grammar for every client and listener; docs/protocol.md
 * ("Addresses") is its user's description:
 *
 *   unix:PATH, /PATH    a Unix socket
 *   shm:PATH            the Unix socket PATH, shared memory required
 *   tcp:HOST[:PORT]     TCP in the clear (HOST[:PORT] alone, the same)
 *   tls:HOST[:PORT]     TLS over TCP
 *
 * HOST may be [V6ADDR]; PORT defaults to ADDRESS_DEFAULT_PORT.
 */
struct address {
	enum address_kind kind;
	int tls; /* tcp: TLS (tls:) */
	int shm; /* unix: the shared-memory transport required (shm:) */
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)]; /* unix */
	char host[256];                                         /* tcp */
	char port[8];                                           /* tcp */
};

/*
 * Parse a server address as a client names it, in the grammar above;
 * NULL or "" is the default server: $HAPTIX_SERVER when set, else the
 * default Unix socket.  Returns 0, or -1 with a reason in err.
 */
int address_parse_server(
    const char *spec, struct address *out, char *err, size_t errlen);

/*
 * Parse a listening address for haptixd --tcp: "PORT", "HOST:PORT",
 * "HOST" or "[V6ADDR]:PORT", after "tls:" for TLS or an optional "tcp:";
 * the host defaults to 127.0.0.1.
 */
int address_parse_listen(
    const char *spec, struct address *out, char *err, size_t errlen);

/*
 * Parse a listening address whose port is always given, as hxview
 * serve --http and hx-foxglove --listen take it: ADDR:PORT,
 * [V6ADDR]:PORT or V6ADDR:PORT (the last colon ends the address), after
 * "tls:" or an optional "tcp:".  0, or -1 if it is not one.
 */
int address_parse_endpoint(const char *spec, struct address *a);

/*
 * The Unix socket the daemon creates by default:
 * $XDG_RUNTIME_DIR/haptixd.sock when that variable is set, else
 * /run/haptixd/haptixd.sock.
 */
void address_default_listen_unix(char *buf, size_t len);

/*
 * The Unix socket a client tries by default: the per-user socket when it
 * exists, else the system-wide one.
 */
void address_default_server_unix(char *buf, size_t len);

/* Format an address in the grammar above ("tcp:[V6]:PORT") into buf. */
const char *address_format(const struct address *a, char *buf, size_t len);

/* Return 1 if sa is a loopback address (127.0.0.0/8 or ::1). */
int address_is_loopback(const struct sockaddr *sa);

/*
 * Return 1 if host, as written in an address, names loopback:
 * "localhost", or a numeric address that address_is_loopback() accepts.
 * No name is looked up.
 */
int address_host_is_loopback(const char *host);

#endif
