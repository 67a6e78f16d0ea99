/*
 * The server side of TLS (haptixd --tcp tls:...): one OpenSSL context
 * made from --tls-cert, --tls-key and --tls-client-ca, made again on
 * SIGHUP.  TLS 1.2 or later, no renegotiation, no compression; with a
 * client CA, a client must show a certificate of it (in addition to the
 * token).  The sessions' bufferevents (session.c) carry the records.
 */
#ifndef HX_TLS_SERVER_H
#define HX_TLS_SERVER_H

#include <stddef.h>

#include <openssl/ssl.h>

struct options;

struct tls_server;

/* The context of o's settings; NULL with a reason when they do not work. */
struct tls_server *tls_server_create(
    const struct options *o, char *err, size_t len);

/*
 * Read o's certificate, key and client CA again.  New connections get
 * them; those open keep theirs.  On failure the old ones stay: -1 with
 * a reason.
 */
int tls_server_reload(
    struct tls_server *t, const struct options *o, char *err, size_t len);

/* A new TLS connection's state, for its bufferevent; NULL if out of memory. */
SSL *tls_server_new_ssl(struct tls_server *t);

/* Why a TLS connection failed: its OpenSSL error as text. */
void tls_server_reason(unsigned long e, char *buf, size_t len);

void tls_server_free(struct tls_server *t);

#endif
