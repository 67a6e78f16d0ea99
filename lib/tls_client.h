/*
 * The client side of TLS on a connected TCP socket (tls:HOST[:PORT]),
 * with OpenSSL.  Internal to libhaptix: conn.c drives it and does the
 * waiting, so every call here returns at once and says what it wants.
 *
 * The server is verified, by the settings of the environment:
 *
 *   $HAPTIX_TLS_CA    a PEM file of the CAs to trust (else the system's)
 *   $HAPTIX_TLS_PIN   the SHA-256 fingerprint of the server's certificate:
 *                     that certificate and no other, whatever its issuer,
 *                     names and dates (an SSH host key's trust)
 *   $HAPTIX_TLS_CERT  a client certificate to present, and its key in
 *   $HAPTIX_TLS_KEY   (else in the certificate's file)
 *
 * Without a pin, the chain must lead to a trusted CA, the dates hold, and
 * the certificate must name the address's host (its DNS name or its IP
 * address).  TLS 1.2 or later.
 */
#ifndef HX_TLS_CLIENT_H
#define HX_TLS_CLIENT_H

#include <stddef.h>
#include <sys/types.h>

/* What a call wants before it can go on: the socket to be readable or
 * writable; or it failed (tls_client_error() says why). */
#define TLS_CLIENT_ERROR (-1)
#define TLS_CLIENT_WANT_READ (-2)
#define TLS_CLIENT_WANT_WRITE (-3)

struct tls_client;

/*
 * A TLS client on fd (connected, any blocking mode) for host, with the
 * environment's settings.  NULL with a reason in err when the settings
 * cannot be used (an unreadable file, a malformed pin).
 */
struct tls_client *tls_client_new(
    int fd, const char *host, char *err, size_t errlen);

/*
 * Go on with the handshake: 0 once done and the server verified, a
 * TLS_CLIENT_WANT_*, or TLS_CLIENT_ERROR.
 */
int tls_client_handshake(struct tls_client *t);

/* Read or write as recv()/send() would: bytes, 0 at the end (read), or a
 * TLS_CLIENT_* code.  Never raises SIGPIPE. */
ssize_t tls_client_read(struct tls_client *t, void *buf, size_t len);
ssize_t tls_client_write(struct tls_client *t, const void *buf, size_t len);

/* Why the last call failed. */
const char *tls_client_error(const struct tls_client *t);

/* Say goodbye (without waiting) and free t; the socket stays open. */
void tls_client_free(struct tls_client *t);

/*
 * Parse a SHA-256 fingerprint as users write it: 64 hex digits, colons
 * between pairs optional, any case, an optional "sha256:" prefix.
 * Returns 0 and the 32 bytes in out, or -1.
 */
int tls_fingerprint_parse(const char *text, unsigned char out[32]);

#endif
