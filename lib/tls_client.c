/* The client side of TLS: see tls_client.h. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include <arpa/inet.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include "tls_client.h"

struct tls_client {
	SSL_CTX *ctx;
	SSL *ssl;
	int pinned;
	unsigned char pin[32];
	char host[256];
	char ca[400]; /* where trust comes from, for the errors */
	char error[640];
};

static BIO_METHOD *tls_bio_method;
static pthread_once_t tls_bio_once = PTHREAD_ONCE_INIT;

/*
 * The socket under the TLS records, read and written without waiting and
 * without SIGPIPE (OpenSSL's own socket BIO write()s, which raises it in
 * the program that linked us when the server has gone).
 */
static int
tls_bio_write(BIO *b, const char *p, int len)
{
	int fd = (int)(intptr_t)BIO_get_data(b);
	ssize_t n;

	BIO_clear_retry_flags(b);
	n = send(fd, p, (size_t)len, MSG_NOSIGNAL | MSG_DONTWAIT);
	if (n < 0 &&
	    (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
		BIO_set_retry_write(b);
	return (int)n;
}

static int
tls_bio_read(BIO *b, char *p, int len)
{
	int fd = (int)(intptr_t)BIO_get_data(b);
	ssize_t n;

	BIO_clear_retry_flags(b);
	n = recv(fd, p, (size_t)len, MSG_DONTWAIT);
	if (n < 0 &&
	    (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
		BIO_set_retry_read(b);
	return (int)n;
}

static long
tls_bio_ctrl(BIO *b, int cmd, long num, void *ptr)
{
	(void)b;
	(void)num;
	(void)ptr;
	return cmd == BIO_CTRL_FLUSH;
}

static int
tls_bio_create(BIO *b)
{
	BIO_set_init(b, 1);
	return 1;
}

static void
tls_bio_init(void)
{
	BIO_METHOD *m;

	m = BIO_meth_new(
	    BIO_get_new_index() | BIO_TYPE_SOURCE_SINK, "haptix socket");
	if (m == NULL || !BIO_meth_set_write(m, tls_bio_write) ||
	    !BIO_meth_set_read(m, tls_bio_read) ||
	    !BIO_meth_set_ctrl(m, tls_bio_ctrl) ||
	    !BIO_meth_set_create(m, tls_bio_create)) {
		BIO_meth_free(m);
		return;
	}
	tls_bio_method = m;
}

int
tls_fingerprint_parse(const char *text, unsigned char out[32])
{
	size_t n = 0;
	int hi = -1, v;
	char ch;

	if (strncasecmp(text, "sha256:", 7) == 0)
		text += 7;
	for (; *text != '\0'; text++) {
		ch = *text;
		if (ch == ':' && hi == -1)
			continue;
		if (ch >= '0' && ch <= '9')
			v = ch - '0';
		else if (ch >= 'a' && ch <= 'f')
			v = ch - 'a' + 10;
		else if (ch >= 'A' && ch <= 'F')
			v = ch - 'A' + 10;
		else
			return -1;
		if (hi == -1) {
			hi = v;
			continue;
		}
		if (n == 32)
			return -1;
		out[n++] = (unsigned char)(hi << 4 | v);
		hi = -1;
	}
	return n == 32 && hi == -1 ? 0 : -1;
}

/* The last OpenSSL error of this thread, as text ("" when none). */
static void
tls_openssl_reason(char *buf, size_t len)
{
	unsigned long e = ERR_peek_last_error();
	const char *reason;

	buf[0] = '\0';
	if (e == 0)
		return;
	reason = ERR_reason_error_string(e);
	if (reason != NULL)
		snprintf(buf, len, "%s", reason);
	else
		ERR_error_string_n(e, buf, len);
	ERR_clear_error();
}

/* Load the environment's settings into t's context. */
static int
tls_client_settings(struct tls_client *t, char *err, size_t errlen)
{
	const char *ca = getenv("HAPTIX_TLS_CA");
	const char *pin = getenv("HAPTIX_TLS_PIN");
	const char *cert = getenv("HAPTIX_TLS_CERT");
	const char *key = getenv("HAPTIX_TLS_KEY");
	char why[256];

	if (pin != NULL && *pin != '\0') {
		if (tls_fingerprint_parse(pin, t->pin) != 0) {
			snprintf(err, errlen,
			    "$HAPTIX_TLS_PIN is not a SHA-256 fingerprint "
			    "(64 hex digits, as openssl x509 -noout "
			    "-fingerprint -sha256 prints): %.100s",
			    pin);
			return -1;
		}
		t->pinned = 1;
		/* Checked after the handshake: that certificate, no other. */
		SSL_CTX_set_verify(t->ctx, SSL_VERIFY_NONE, NULL);
	} else if (ca != NULL && *ca != '\0') {
		if (!SSL_CTX_load_verify_locations(t->ctx, ca, NULL)) {
			tls_openssl_reason(why, sizeof(why));
			snprintf(err, errlen,
			    "cannot read the CAs of $HAPTIX_TLS_CA (%s): %s",
			    ca, why);
			return -1;
		}
		snprintf(
		    t->ca, sizeof(t->ca), "the CAs of %s ($HAPTIX_TLS_CA)", ca);
	} else {
		SSL_CTX_set_default_verify_paths(t->ctx);
		snprintf(t->ca, sizeof(t->ca),
		    "the system's CAs; set $HAPTIX_TLS_CA or $HAPTIX_TLS_PIN");
	}
	if (cert != NULL && *cert != '\0') {
		if (key == NULL || *key == '\0')
			key = cert;
		if (!SSL_CTX_use_certificate_chain_file(t->ctx, cert) ||
		    !SSL_CTX_use_PrivateKey_file(
			t->ctx, key, SSL_FILETYPE_PEM) ||
		    !SSL_CTX_check_private_key(t->ctx)) {
			tls_openssl_reason(why, sizeof(why));
			snprintf(err, errlen,
			    "cannot use the client certificate %s and key %s "
			    "($HAPTIX_TLS_CERT, $HAPTIX_TLS_KEY): %s",
			    cert, key, why);
			return -1;
		}
	}
	return 0;
}

struct tls_client *
tls_client_new(int fd, const char *host, char *err, size_t errlen)
{
	struct tls_client *t;
	unsigned char ip[16];
	int is_ip;
	BIO *bio;

	pthread_once(&tls_bio_once, tls_bio_init);
	if (tls_bio_method == NULL) {
		snprintf(err, errlen, "cannot set up OpenSSL");
		return NULL;
	}
	if ((t = calloc(1, sizeof(*t))) == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	snprintf(t->host, sizeof(t->host), "%s", host);
	t->ctx = SSL_CTX_new(TLS_client_method());
	if (t->ctx == NULL) {
		snprintf(err, errlen, "cannot set up OpenSSL");
		goto fail;
	}
	SSL_CTX_set_min_proto_version(t->ctx, TLS1_2_VERSION);
	SSL_CTX_set_options(t->ctx,
	    SSL_OP_NO_RENEGOTIATION | SSL_OP_NO_COMPRESSION
#ifdef SSL_OP_IGNORE_UNEXPECTED_EOF
		| SSL_OP_IGNORE_UNEXPECTED_EOF
#endif
	);
	SSL_CTX_set_verify(t->ctx, SSL_VERIFY_PEER, NULL);
	if (tls_client_settings(t, err, errlen) != 0)
		goto fail;
	if ((t->ssl = SSL_new(t->ctx)) == NULL ||
	    (bio = BIO_new(tls_bio_method)) == NULL) {
		snprintf(err, errlen, "cannot set up OpenSSL");
		goto fail;
	}
	BIO_set_data(bio, (void *)(intptr_t)fd);
	SSL_set_bio(t->ssl, bio, bio);
	is_ip = inet_pton(AF_INET, host, ip) == 1 ||
	    inet_pton(AF_INET6, host, ip) == 1;
	if (!t->pinned) {
		if (is_ip ? !X509_VERIFY_PARAM_set1_ip_asc(
				SSL_get0_param(t->ssl), host) :
			    !SSL_set1_host(t->ssl, host)) {
			snprintf(err, errlen, "cannot check the name %s", host);
			goto fail;
		}
	}
	if (!is_ip)
		SSL_set_tlsext_host_name(t->ssl, host);
	SSL_set_connect_state(t->ssl);
	return t;
fail:
	tls_client_free(t);
	return NULL;
}

/* Say why the server's certificate was refused. */
static void
tls_client_verify_failed(struct tls_client *t, long v)
{
	switch (v) {
	case X509_V_ERR_HOSTNAME_MISMATCH:
	case X509_V_ERR_IP_ADDRESS_MISMATCH:
		snprintf(t->error, sizeof(t->error),
		    "the server's certificate does not name %s", t->host);
		break;
	case X509_V_ERR_CERT_HAS_EXPIRED:
		snprintf(t->error, sizeof(t->error),
		    "the server's certificate has expired");
		break;
	case X509_V_ERR_CERT_NOT_YET_VALID:
		snprintf(t->error, sizeof(t->error),
		    "the server's certificate is not valid yet");
		break;
	case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
		snprintf(t->error, sizeof(t->error),
		    "the server's certificate is self-signed, not by a CA "
		    "we trust (%s)",
		    t->ca);
		break;
	case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT:
	case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
	case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
		snprintf(t->error, sizeof(t->error),
		    "the server's certificate is not signed by a CA we trust "
		    "(%s)",
		    t->ca);
		break;
	default:
		snprintf(t->error, sizeof(t->error),
		    "cannot verify the server's certificate: %s",
		    X509_verify_cert_error_string(v));
	}
}

/* With a pin: the server's certificate must be that one. */
static int
tls_client_check_pin(struct tls_client *t)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0, i;
	size_t off = 0;
	X509 *cert;
	char seen[100];

	cert = SSL_get1_peer_certificate(t->ssl);
	if (cert == NULL) {
		snprintf(t->error, sizeof(t->error),
		    "the server showed no certificate");
		return TLS_CLIENT_ERROR;
	}
	if (!X509_digest(cert, EVP_sha256(), md, &n) || n != 32)
		n = 0;
	X509_free(cert);
	if (n == 32 && memcmp(md, t->pin, 32) == 0)
		return 0;
	for (i = 0; i < n && off + 3 < sizeof(seen); i++)
		off += (size_t)snprintf(seen + off, sizeof(seen) - off,
		    "%s%02X", i ? ":" : "", md[i]);
	snprintf(t->error, sizeof(t->error),
	    "the server's certificate is not the pinned one "
	    "($HAPTIX_TLS_PIN): its SHA-256 is %s",
	    seen);
	return TLS_CLIENT_ERROR;
}

/* Map an OpenSSL result to a TLS_CLIENT_* code, a count or 0 (the end). */
static int
tls_client_result(struct tls_client *t, int rc, const char *what)
{
	int e = SSL_get_error(t->ssl, rc), saved = errno;
	char why[256];

	switch (e) {
	case SSL_ERROR_WANT_READ:
		return TLS_CLIENT_WANT_READ;
	case SSL_ERROR_WANT_WRITE:
		return TLS_CLIENT_WANT_WRITE;
	case SSL_ERROR_ZERO_RETURN:
		return 0;
	case SSL_ERROR_SYSCALL:
		ERR_clear_error();
		if (saved == 0)
			return 0; /* the end, without TLS's goodbye */
		snprintf(t->error, sizeof(t->error), "%s", strerror(saved));
		errno = saved;
		return TLS_CLIENT_ERROR;
	default:
		tls_openssl_reason(why, sizeof(why));
		if (strstr(why, "certificate required") != NULL)
			snprintf(t->error, sizeof(t->error),
			    "the server requires a client certificate: set "
			    "$HAPTIX_TLS_CERT (and $HAPTIX_TLS_KEY)");
		else if (strstr(why, "unknown ca") != NULL ||
		    strstr(why, "bad certificate") != NULL)
			snprintf(t->error, sizeof(t->error),
			    "the server does not take our client certificate "
			    "($HAPTIX_TLS_CERT): %s",
			    why);
		else
			snprintf(t->error, sizeof(t->error), "TLS %s: %s", what,
			    why[0] != '\0' ? why : "failed");
		errno = EPROTO;
		return TLS_CLIENT_ERROR;
	}
}

int
tls_client_handshake(struct tls_client *t)
{
	long v;
	int rc;

	ERR_clear_error();
	errno = 0;
	rc = SSL_do_handshake(t->ssl);
	if (rc == 1)
		return t->pinned ? tls_client_check_pin(t) : 0;
	v = SSL_get_verify_result(t->ssl);
	if (!t->pinned && v != X509_V_OK) {
		ERR_clear_error();
		tls_client_verify_failed(t, v);
		return TLS_CLIENT_ERROR;
	}
	rc = tls_client_result(t, rc, "handshake");
	if (rc == TLS_CLIENT_ERROR &&
	    (strstr(t->error, "wrong version number") != NULL ||
		strstr(t->error, "packet length too long") != NULL ||
		strstr(t->error, "record layer failure") != NULL))
		snprintf(t->error + strlen(t->error),
		    sizeof(t->error) - strlen(t->error),
		    " (is this a TLS port?)");
	if (rc == 0) {
		snprintf(t->error, sizeof(t->error),
		    "the server closed the connection during the TLS "
		    "handshake: is this a TLS port?");
		return TLS_CLIENT_ERROR;
	}
	return rc;
}

ssize_t
tls_client_read(struct tls_client *t, void *buf, size_t len)
{
	int rc;

	ERR_clear_error();
	errno = 0;
	rc = SSL_read(t->ssl, buf, len > INT32_MAX ? INT32_MAX : (int)len);
	if (rc > 0)
		return rc;
	return tls_client_result(t, rc, "read");
}

ssize_t
tls_client_write(struct tls_client *t, const void *buf, size_t len)
{
	int rc;

	ERR_clear_error();
	errno = 0;
	rc = SSL_write(t->ssl, buf, len > INT32_MAX ? INT32_MAX : (int)len);
	if (rc > 0)
		return rc;
	rc = tls_client_result(t, rc, "write");
	if (rc == 0) {
		snprintf(t->error, sizeof(t->error), "the server has gone");
		errno = EPIPE;
		return TLS_CLIENT_ERROR;
	}
	return rc;
}

const char *
tls_client_error(const struct tls_client *t)
{
	return t->error;
}

void
tls_client_free(struct tls_client *t)
{
	if (t == NULL)
		return;
	if (t->ssl != NULL) {
		if (SSL_is_init_finished(t->ssl))
			SSL_shutdown(t->ssl); /* one try: never waits */
		SSL_free(t->ssl);
	}
	SSL_CTX_free(t->ctx);
	ERR_clear_error();
	free(t);
}
