/*
 * hxview serve over HTTPS (hxview_tls.c): the server's TLS context, made
 * once from --tls-cert and --tls-key, and the bufferevent of each
 * connection evhttp accepts.  Only hxview_tls.c includes OpenSSL.
 */
#ifndef HXVIEW_TLS_H
#define HXVIEW_TLS_H

#include <stddef.h>

struct bufferevent;
struct event_base;
struct ssl_ctx_st;

/*
 * The server's context: the certificate chain of cert, the key of key
 * (NULL: cert's file holds it too), TLS 1.2 or later, no renegotiation.
 * NULL with the reason in err: a file missing or unreadable, no
 * certificate or key in it, or a key that is not the certificate's.
 */
struct ssl_ctx_st *tls_context_new(
    const char *cert, const char *key, char *err, size_t len);
/* Free a context; NULL is fine. */
void tls_context_free(struct ssl_ctx_st *ctx);
/*
 * The certificate's subject, end of validity and SHA-256 fingerprint
 * (AB:CD:..., as "openssl x509 -fingerprint -sha256" prints it), on
 * one line for the log; an expired certificate says so.
 */
void tls_describe(struct ssl_ctx_st *ctx, char *out, size_t len);
/*
 * A bufferevent that accepts a TLS connection on the socket evhttp
 * will give it, and closes the socket when freed; NULL when out of
 * memory.
 */
struct bufferevent *tls_bev_new(
    struct event_base *base, struct ssl_ctx_st *ctx);

#endif
