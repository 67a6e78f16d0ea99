/*
 * hx-test-certs DIR: a certificate authority and the certificates the TLS
 * tests need, made with OpenSSL into DIR (PEM, EC P-256 keys):
 *
 *   ca.pem              the test CA
 *   server.pem/.key     localhost, 127.0.0.1 and ::1, signed by the CA
 *   wrongname.pem/.key  elsewhere.invalid only, signed by the CA
 *   expired.pem/.key    localhost, expired yesterday, signed by the CA
 *   selfsigned.pem/.key localhost, signed by itself
 *   client.pem/.key     a client certificate signed by the CA
 *   stranger.pem/.key   a client certificate of another CA (other-ca.pem)
 *   NAME.sha256         each certificate's SHA-256 fingerprint, as
 *                       "openssl x509 -noout -fingerprint -sha256" prints
 *                       it after its '=' (AB:CD:...)
 *
 * Made at test time, never kept in the tree: nothing here is a secret.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#define DAY (24L * 3600)

struct issued {
	EVP_PKEY *key;
	X509 *cert;
};

static const char *dir;

static void
die(const char *what)
{
	fprintf(stderr, "hx-test-certs: %s failed\n", what);
	exit(1);
}

static EVP_PKEY *
make_key(void)
{
	EVP_PKEY *k = EVP_EC_gen("P-256");

	if (k == NULL)
		die("EVP_EC_gen");
	return k;
}

static void
add_ext(X509 *cert, X509 *issuer, int nid, const char *value)
{
	X509V3_CTX ctx;
	X509_EXTENSION *ext;

	X509V3_set_ctx(&ctx, issuer, cert, NULL, NULL, 0);
	ext = X509V3_EXT_conf_nid(NULL, &ctx, nid, value);
	if (ext == NULL || !X509_add_ext(cert, ext, -1))
		die(value);
	X509_EXTENSION_free(ext);
}

/*
 * A certificate for cn (and san, when not NULL), valid from `from` to
 * `to` seconds from now, signed by issuer (itself when NULL).
 */
static struct issued
issue(const char *cn, const char *san, const struct issued *issuer, int ca,
    int client, long from, long to)
{
	static long serial = 1;
	struct issued it = { make_key(), X509_new() };
	X509_NAME *name;

	if (it.cert == NULL)
		die("X509_new");
	X509_set_version(it.cert, 2);
	ASN1_INTEGER_set(X509_get_serialNumber(it.cert), serial++);
	X509_gmtime_adj(X509_getm_notBefore(it.cert), from);
	X509_gmtime_adj(X509_getm_notAfter(it.cert), to);
	X509_set_pubkey(it.cert, it.key);
	name = X509_get_subject_name(it.cert);
	X509_NAME_add_entry_by_txt(name, "O", MBSTRING_ASC,
	    (const unsigned char *)"haptixd tests", -1, -1, 0);
	X509_NAME_add_entry_by_txt(
	    name, "CN", MBSTRING_ASC, (const unsigned char *)cn, -1, -1, 0);
	X509_set_issuer_name(it.cert,
	    issuer != NULL ? X509_get_subject_name(issuer->cert) : name);
	add_ext(it.cert, issuer != NULL ? issuer->cert : it.cert,
	    NID_basic_constraints, ca ? "critical,CA:TRUE" : "CA:FALSE");
	add_ext(it.cert, issuer != NULL ? issuer->cert : it.cert,
	    NID_subject_key_identifier, "hash");
	if (issuer != NULL)
		add_ext(it.cert, issuer->cert, NID_authority_key_identifier,
		    "keyid:always");
	if (ca)
		add_ext(it.cert, it.cert, NID_key_usage,
		    "critical,keyCertSign,cRLSign");
	else
		add_ext(it.cert, it.cert, NID_ext_key_usage,
		    client ? "clientAuth" : "serverAuth");
	if (san != NULL)
		add_ext(it.cert, it.cert, NID_subject_alt_name, san);
	if (!X509_sign(
		it.cert, issuer != NULL ? issuer->key : it.key, EVP_sha256()))
		die("X509_sign");
	return it;
}

static FILE *
create(const char *name, const char *ext)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.%s", dir, name, ext);
	if ((f = fopen(path, "w")) == NULL) {
		fprintf(
		    stderr, "hx-test-certs: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	return f;
}

/* Write name.pem, name.key (unless no_key) and name.sha256. */
static void
save(const char *name, const struct issued *it, int no_key)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n, i;
	FILE *f;

	f = create(name, "pem");
	if (!PEM_write_X509(f, it->cert) || fclose(f) != 0)
		die("PEM_write_X509");
	if (!no_key) {
		f = create(name, "key");
		if (!PEM_write_PrivateKey(
			f, it->key, NULL, NULL, 0, NULL, NULL) ||
		    fclose(f) != 0)
			die("PEM_write_PrivateKey");
	}
	if (!X509_digest(it->cert, EVP_sha256(), md, &n))
		die("X509_digest");
	f = create(name, "sha256");
	for (i = 0; i < n; i++)
		fprintf(f, "%s%02X", i == 0 ? "" : ":", md[i]);
	fprintf(f, "\n");
	if (fclose(f) != 0)
		die("fclose");
}

static void
release(struct issued *it)
{
	X509_free(it->cert);
	EVP_PKEY_free(it->key);
}

int
main(int argc, char **argv)
{
	const char *here = "DNS:localhost,IP:127.0.0.1,IP:::1";
	struct issued ca, other, it;

	if (argc != 2) {
		fprintf(stderr, "usage: hx-test-certs DIR\n");
		return 2;
	}
	dir = argv[1];
	if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
		fprintf(
		    stderr, "hx-test-certs: %s: %s\n", dir, strerror(errno));
		return 1;
	}
	ca = issue("haptixd test CA", NULL, NULL, 1, 0, -DAY, 30 * DAY);
	save("ca", &ca, 1);
	other = issue("another CA", NULL, NULL, 1, 0, -DAY, 30 * DAY);
	save("other-ca", &other, 1);

	it = issue("localhost", here, &ca, 0, 0, -3600, 30 * DAY);
	save("server", &it, 0);
	release(&it);
	it = issue("elsewhere.invalid", "DNS:elsewhere.invalid", &ca, 0, 0,
	    -3600, 30 * DAY);
	save("wrongname", &it, 0);
	release(&it);
	it = issue("localhost", here, &ca, 0, 0, -2 * DAY, -DAY);
	save("expired", &it, 0);
	release(&it);
	it = issue("localhost", here, NULL, 0, 0, -3600, 30 * DAY);
	save("selfsigned", &it, 0);
	release(&it);
	it = issue("haptix test client", NULL, &ca, 0, 1, -3600, 30 * DAY);
	save("client", &it, 0);
	release(&it);
	it = issue("a stranger", NULL, &other, 0, 1, -3600, 30 * DAY);
	save("stranger", &it, 0);
	release(&it);
	release(&ca);
	release(&other);
	return 0;
}
