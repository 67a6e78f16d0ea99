/*
 * hxview serve over HTTPS: the TLS context made from --tls-cert and
 * --tls-key, and a libevent OpenSSL bufferevent for each connection.
 * TLS 1.2 is the oldest offered, and a client may not renegotiate (a
 * cheap way to make the server work).  The certificate's fingerprint
 * goes to the log, so that a user can pin it or compare it with what
 * the browser shows.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>
#include <event2/event.h>

#include "hxview_tls.h"

static int tls_no_passphrase(char *, int, int, void *);
static const char *tls_reason(void);
static int tls_key_load(SSL_CTX *, const char *, char *, size_t);

/* Never ask for a key's passphrase: hxview has no one to ask. */
static int
tls_no_passphrase(char *buf, int size, int rwflag, void *arg)
{
	return 0;
}

/* OpenSSL's reason for the last failure, and its queue emptied. */
static const char *
tls_reason(void)
{
	static char why[256];
	unsigned long e = ERR_peek_last_error();

	if (e == 0)
		snprintf(why, sizeof(why), "no reason given");
	else
		ERR_error_string_n(e, why, sizeof(why));
	ERR_clear_error();
	return why;
}

/*
 * Load the private key of path into ctx, and check that it is the
 * certificate's; 0, or -1 with the reason.
 */
static int
tls_key_load(SSL_CTX *ctx, const char *path, char *err, size_t len)
{
	EVP_PKEY *key;
	FILE *f;

	if ((f = fopen(path, "r")) == NULL) {
		snprintf(err, len, "--tls-key %s: %s", path, strerror(errno));
		return -1;
	}
	key = PEM_read_PrivateKey(f, NULL, tls_no_passphrase, NULL);
	fclose(f);
	if (key == NULL) {
		snprintf(err, len,
		    "--tls-key %s: no private key in it (PEM, without a "
		    "passphrase): %s",
		    path, tls_reason());
		return -1;
	}
	if (SSL_CTX_use_PrivateKey(ctx, key) != 1 ||
	    SSL_CTX_check_private_key(ctx) != 1) {
		EVP_PKEY_free(key);
		snprintf(err, len,
		    "--tls-key %s is not the key of the certificate in "
		    "--tls-cert: %s",
		    path, tls_reason());
		return -1;
	}
	EVP_PKEY_free(key);
	return 0;
}

struct ssl_ctx_st *
tls_context_new(const char *cert, const char *key, char *err, size_t len)
{
	SSL_CTX *ctx;
	FILE *f;

	/* Say why a file cannot be read before OpenSSL says less. */
	if ((f = fopen(cert, "r")) == NULL) {
		snprintf(err, len, "--tls-cert %s: %s", cert, strerror(errno));
		return NULL;
	}
	fclose(f);
	if ((ctx = SSL_CTX_new(TLS_server_method())) == NULL) {
		snprintf(err, len, "TLS: %s", tls_reason());
		return NULL;
	}
	SSL_CTX_set_default_passwd_cb(ctx, tls_no_passphrase);
	SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
	SSL_CTX_set_options(ctx,
	    SSL_OP_NO_RENEGOTIATION | SSL_OP_NO_COMPRESSION |
		SSL_OP_CIPHER_SERVER_PREFERENCE);
	/* libevent writes again from where its buffer then is. */
	SSL_CTX_set_mode(ctx, SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
	if (SSL_CTX_use_certificate_chain_file(ctx, cert) != 1) {
		snprintf(err, len,
		    "--tls-cert %s: no certificate in it (PEM): %s", cert,
		    tls_reason());
		SSL_CTX_free(ctx);
		return NULL;
	}
	if (tls_key_load(ctx, key != NULL ? key : cert, err, len) != 0) {
		SSL_CTX_free(ctx);
		return NULL;
	}
	return ctx;
}

void
tls_context_free(struct ssl_ctx_st *ctx)
{
	SSL_CTX_free(ctx);
}

void
tls_describe(struct ssl_ctx_st *ctx, char *out, size_t len)
{
	X509 *x = SSL_CTX_get0_certificate(ctx);
	unsigned char md[EVP_MAX_MD_SIZE];
	char subject[256], until[64] = "?", fp[3 * EVP_MAX_MD_SIZE];
	unsigned int n = 0, i;
	BIO *b;
	int got;

	if (x == NULL || X509_digest(x, EVP_sha256(), md, &n) != 1) {
		snprintf(out, len, "no certificate");
		return;
	}
	for (i = 0; i < n; i++)
		snprintf(fp + (i > 0 ? 3 * i - 1 : 0), sizeof(fp) - 3 * i,
		    "%s%02X", i > 0 ? ":" : "", md[i]);
	X509_NAME_oneline(X509_get_subject_name(x), subject, sizeof(subject));
	if ((b = BIO_new(BIO_s_mem())) != NULL) {
		if (ASN1_TIME_print(b, X509_get0_notAfter(x)) == 1 &&
		    (got = BIO_read(b, until, sizeof(until) - 1)) > 0)
			until[got] = '\0';
		BIO_free(b);
	}
	snprintf(out, len, "certificate %s, %s %s, SHA-256 %s", subject,
	    X509_cmp_current_time(X509_get0_notAfter(x)) < 0 ? "EXPIRED on" :
							       "valid until",
	    until, fp);
}

struct bufferevent *
tls_bev_new(struct event_base *base, struct ssl_ctx_st *ctx)
{
	struct bufferevent *bev;
	SSL *ssl;

	if ((ssl = SSL_new(ctx)) == NULL)
		return NULL;
	/* The socket comes later: evhttp sets it (bufferevent_setfd). */
	bev = bufferevent_openssl_socket_new(
	    base, -1, ssl, BUFFEREVENT_SSL_ACCEPTING, BEV_OPT_CLOSE_ON_FREE);
	if (bev == NULL) {
		SSL_free(ssl);
		return NULL;
	}
	/* A browser may close without TLS's goodbye: an end, not an error. */
	bufferevent_openssl_set_allow_dirty_shutdown(bev, 1);
	return bev;
}
