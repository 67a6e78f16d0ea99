/* The server side of TLS: see tls_server.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/x509.h>

#include "log.h"
#include "options.h"
#include "tls_server.h"

struct tls_server {
	SSL_CTX *ctx;
};

void
tls_server_reason(unsigned long e, char *buf, size_t len)
{
	const char *reason = ERR_reason_error_string(e);

	if (reason != NULL)
		snprintf(buf, len, "%s", reason);
	else
		ERR_error_string_n(e, buf, len);
}

/* The last error of OpenSSL's queue as text, and the queue emptied. */
static void
tls_server_last_error(char *buf, size_t len)
{
	unsigned long e = ERR_peek_last_error();

	if (e != 0)
		tls_server_reason(e, buf, len);
	else
		snprintf(buf, len, "unknown error");
	ERR_clear_error();
}

/*
 * Log what the certificate is: its subject, until when, and the SHA-256
 * fingerprint a client pins ($HAPTIX_TLS_PIN).
 */
static void
tls_server_describe(SSL_CTX *ctx, const char *path)
{
	X509 *cert = SSL_CTX_get0_certificate(ctx);
	unsigned char md[EVP_MAX_MD_SIZE];
	char subject[256] = "?", until[64] = "?", fp[100] = "";
	unsigned int n = 0, i;
	size_t off = 0;
	BIO *b;
	int got;

	if (cert == NULL)
		return;
	X509_NAME_oneline(
	    X509_get_subject_name(cert), subject, sizeof(subject));
	if ((b = BIO_new(BIO_s_mem())) != NULL) {
		ASN1_TIME_print(b, X509_get0_notAfter(cert));
		got = BIO_read(b, until, (int)sizeof(until) - 1);
		until[got > 0 ? got : 0] = '\0';
		BIO_free(b);
	}
	if (X509_digest(cert, EVP_sha256(), md, &n))
		for (i = 0; i < n && off + 3 < sizeof(fp); i++)
			off += (size_t)snprintf(fp + off, sizeof(fp) - off,
			    "%s%02X", i ? ":" : "", md[i]);
	log_info("TLS certificate %s: %s, until %s, SHA-256 %s", path, subject,
	    until, fp);
	if (X509_cmp_current_time(X509_get0_notAfter(cert)) <= 0)
		log_warn("TLS certificate %s has expired: clients will refuse "
			 "it",
		    path);
}

/* A context from o's files, or NULL with a reason. */
static SSL_CTX *
tls_server_context(const struct options *o, char *err, size_t len)
{
	const char *key = o->tls_key != NULL ? o->tls_key : o->tls_cert;
	STACK_OF(X509_NAME) * names;
	char why[256];
	SSL_CTX *ctx;

	if (o->tls_cert == NULL) {
		snprintf(err, len, "a tls: listener needs --tls-cert");
		return NULL;
	}
	if ((ctx = SSL_CTX_new(TLS_server_method())) == NULL) {
		tls_server_last_error(why, sizeof(why));
		snprintf(err, len, "cannot set up TLS: %s", why);
		return NULL;
	}
	SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
	SSL_CTX_set_options(ctx,
	    SSL_OP_NO_RENEGOTIATION | SSL_OP_NO_COMPRESSION |
		SSL_OP_CIPHER_SERVER_PREFERENCE);
	if (SSL_CTX_use_certificate_chain_file(ctx, o->tls_cert) != 1) {
		tls_server_last_error(why, sizeof(why));
		snprintf(err, len, "--tls-cert %s: %s", o->tls_cert, why);
		goto fail;
	}
	if (SSL_CTX_use_PrivateKey_file(ctx, key, SSL_FILETYPE_PEM) != 1 &&
	    ERR_GET_REASON(ERR_peek_last_error()) !=
		X509_R_KEY_VALUES_MISMATCH) {
		tls_server_last_error(why, sizeof(why));
		snprintf(err, len, "--tls-key %s: %s", key, why);
		goto fail;
	}
	if (SSL_CTX_check_private_key(ctx) != 1) {
		tls_server_last_error(why, sizeof(why));
		snprintf(err, len,
		    "--tls-key %s does not match --tls-cert %s: %s", key,
		    o->tls_cert, why);
		goto fail;
	}
	if (o->tls_client_ca != NULL) {
		if (SSL_CTX_load_verify_locations(
			ctx, o->tls_client_ca, NULL) != 1 ||
		    (names = SSL_load_client_CA_file(o->tls_client_ca)) ==
			NULL) {
			tls_server_last_error(why, sizeof(why));
			snprintf(err, len, "--tls-client-ca %s: %s",
			    o->tls_client_ca, why);
			goto fail;
		}
		SSL_CTX_set_client_CA_list(ctx, names);
		SSL_CTX_set_verify(ctx,
		    SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, NULL);
	}
	tls_server_describe(ctx, o->tls_cert);
	return ctx;
fail:
	SSL_CTX_free(ctx);
	return NULL;
}

struct tls_server *
tls_server_create(const struct options *o, char *err, size_t len)
{
	struct tls_server *t;
	SSL_CTX *ctx;

	if ((ctx = tls_server_context(o, err, len)) == NULL)
		return NULL;
	if ((t = calloc(1, sizeof(*t))) == NULL)
		fatal("out of memory");
	t->ctx = ctx;
	return t;
}

int
tls_server_reload(
    struct tls_server *t, const struct options *o, char *err, size_t len)
{
	SSL_CTX *ctx;

	if ((ctx = tls_server_context(o, err, len)) == NULL)
		return -1;
	/* Each connection holds a reference to the context it began with. */
	SSL_CTX_free(t->ctx);
	t->ctx = ctx;
	return 0;
}

SSL *
tls_server_new_ssl(struct tls_server *t)
{
	return SSL_new(t->ctx);
}

void
tls_server_free(struct tls_server *t)
{
	if (t == NULL)
		return;
	SSL_CTX_free(t->ctx);
	free(t);
}
