/*
 * TLS against a real haptixd, with a CA and certificates made for the
 * test (hx-test-certs): libhaptix verifies the server (and refuses a
 * wrong name, an expired or self-signed certificate, a wrong pin), a
 * client certificate is required in addition to the token, the token
 * never travels in the clear beyond loopback, a stalled handshake counts
 * against the pre-Hello limits, SIGHUP swaps the certificate, and the
 * fuzzer's seed corpus, replayed over TLS, leaves the daemon serving.
 */
#include "config.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <openssl/err.h>
#include <openssl/ssl.h>

#include "frame.h"
#include "harness.h"
#include "haptix.pb-c.h"
#include "haptix.h"
#include "haptixd.h"
#include "rawclient.h"

TestSuite(tls, .timeout = 120, .fini = hx_server_cleanup);

#define FUZZ_HELLO 0x01 /* as fuzz/fuzz_session.c reads its seeds */
#define FUZZ_TCP 0x02
#define FUZZ_TOKEN "fuzz-token"

/* The client's TLS settings: each NULL is unset. */
static void
client_env(const char *ca, const char *pin, const char *cert)
{
	const char *names[] = { "HAPTIX_TLS_CA", "HAPTIX_TLS_PIN",
		"HAPTIX_TLS_CERT" };
	const char *values[] = { ca, pin, cert };
	int i;

	unsetenv("HAPTIX_TLS_KEY");
	for (i = 0; i < 3; i++) {
		if (values[i] != NULL)
			setenv(names[i], values[i], 1);
		else
			unsetenv(names[i]);
	}
}

/* A certificate's fingerprint as hx-test-certs wrote it. */
static const char *
fingerprint(const char *name)
{
	static char fp[8][128];
	static int next;
	char file[64], *p = fp[next++ % 8];
	FILE *f;

	snprintf(file, sizeof(file), "%s.sha256", name);
	f = fopen(hx_test_cert(file), "r");
	cr_assert_not_null(f);
	cr_assert_not_null(fgets(p, sizeof(fp[0]), f));
	fclose(f);
	p[strcspn(p, "\n")] = '\0';
	return p;
}

/*
 * haptixd with a TLS listener serving certificate name (name.pem and
 * name.key) and the arguments of more (NULL-terminated, may be NULL).
 */
static void
start_tls(struct hx_server *s, const char *name, const char *const *more)
{
	char pem[64], key[64];
	const char *args[24] = { "-m", "fixture.xml", "--paused", "--tcp",
		"tls:127.0.0.1:0", "--tls-cert", pem, "--tls-key", key };
	int n = 9, i;

	snprintf(pem, sizeof(pem), "%s.pem", name);
	snprintf(key, sizeof(key), "%s.key", name);
	args[6] = hx_test_cert(pem);
	args[8] = hx_test_cert(key);
	for (i = 0; more != NULL && more[i] != NULL; i++)
		args[n++] = more[i];
	args[n] = NULL;
	hx_server_start(s, args);
	cr_assert_eq(
	    strncmp(s->tcp_addr, "tls:127.0.0.1:", 14), 0, "%s", s->tcp_addr);
}

/*
 * Connect with libhaptix and make one call; the result, with the error
 * text in err.
 */
static int
try_connect(const char *addr, char *err, size_t len)
{
	hxd_status st;
	hxd_conn *c = hxd_connect_timeout(addr, "test_tls", 5000);
	int rc;

	rc = hxd_result(c);
	if (rc == HXD_OK)
		rc = hxd_status_get(c, &st);
	snprintf(err, len, "%s", hxd_error(c));
	hxd_close(c);
	return rc;
}

/* Expect addr refused at connect, with an error saying what. */
static void
expect_refused(const char *addr, const char *what)
{
	char err[1024];
	int rc = try_connect(addr, err, sizeof(err));

	cr_expect_neq(rc, HXD_OK, "%s: connected, though %s", addr, what);
	cr_expect(strstr(err, what) != NULL, "%s: error \"%s\", not \"%s\"",
	    addr, err, what);
}

static void
expect_served(const char *addr)
{
	char err[1024];
	int rc = try_connect(addr, err, sizeof(err));

	cr_expect_eq(rc, HXD_OK, "%s: %s", addr, err);
}

/* "tls:localhost:PORT" for s, whose address is tls:127.0.0.1:PORT. */
static const char *
by_name(const struct hx_server *s)
{
	static char a[80];

	snprintf(
	    a, sizeof(a), "tls:localhost:%s", strrchr(s->tcp_addr, ':') + 1);
	return a;
}

Test(tls, libhaptix_verifies_the_server)
{
	struct hx_server good, wrong, expired, self, plain;
	char addr[400];

	start_tls(&good, "server", NULL);
	client_env(hx_test_cert("ca.pem"), NULL, NULL);
	expect_served(good.tcp_addr);  /* by its IP address */
	expect_served(by_name(&good)); /* by its DNS name */
	client_env(NULL, NULL, NULL);
	expect_refused(good.tcp_addr, "not signed by a CA we trust");
	client_env(NULL, fingerprint("server"), NULL);
	expect_served(good.tcp_addr);
	/* hx_connect joins its port to a tls: host that names none. */
	cr_expect_eq(
	    hx_connect("tls:127.0.0.1", atoi(strrchr(good.tcp_addr, ':') + 1)),
	    hxOK, "%s", hx_last_result());
	hx_close();
	client_env(NULL, fingerprint("selfsigned"), NULL);
	expect_refused(good.tcp_addr, "not the pinned one ($HAPTIX_TLS_PIN)");
	client_env(NULL, "sha256:12:34", NULL);
	expect_refused(good.tcp_addr, "$HAPTIX_TLS_PIN is not a SHA-256");

	/* Plain TCP to the TLS port: a hint, and the daemon logs why. */
	client_env(NULL, NULL, NULL);
	snprintf(addr, sizeof(addr), "tcp:%s", good.tcp_addr + 4);
	expect_refused(addr, "(or a TLS port: then use tls:HOST:PORT)");
	hx_sleep_ms(200);
	cr_expect(hx_server_log_has(&good, "TLS handshake failed"), "%s",
	    hx_server_log_text(&good));
	hx_server_stop(&good);

	client_env(hx_test_cert("ca.pem"), NULL, NULL);
	start_tls(&wrong, "wrongname", NULL);
	expect_refused(
	    wrong.tcp_addr, "the server's certificate does not name 127.0.0.1");
	expect_refused(by_name(&wrong),
	    "the server's certificate does not name localhost");
	hx_server_stop(&wrong);

	start_tls(&expired, "expired", NULL);
	expect_refused(
	    expired.tcp_addr, "the server's certificate has expired");
	cr_expect(hx_server_log_has(&expired, "has expired: clients will"));
	hx_server_stop(&expired);

	start_tls(&self, "selfsigned", NULL);
	expect_refused(
	    self.tcp_addr, "the server's certificate is self-signed");
	client_env(NULL, fingerprint("selfsigned"), NULL);
	expect_served(self.tcp_addr); /* pinned: trusted as itself */
	hx_server_stop(&self);

	/* TLS to a port in the clear. */
	hx_server_start(&plain,
	    (const char *const[]){ "-m", "fixture.xml", "--paused", NULL });
	snprintf(addr, sizeof(addr), "tls:%s", plain.tcp_addr);
	expect_refused(addr, "is this a TLS port?");
	hx_server_stop(&plain);
}

/* Write text into path, replacing what it held. */
static void
put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	cr_assert_not_null(f, "%s", path);
	fputs(text, f);
	cr_assert_eq(fclose(f), 0);
}

/* Write the token file of these tests; its path. */
static const char *
token_file(const char *dir, const char *token)
{
	static char path[300];
	char text[128];

	snprintf(path, sizeof(path), "%s/token", dir);
	snprintf(text, sizeof(text), "%s\n", token);
	put_file(path, text);
	chmod(path, 0600);
	return path;
}

Test(tls, a_client_certificate_besides_the_token)
{
	struct hx_server s;
	char dir[] = "/tmp/hx-tls-token.XXXXXX";
	const char *tok;
	const char *more[] = { "--tls-client-ca", hx_test_cert("ca.pem"),
		"--token-file", NULL, NULL };

	cr_assert_not_null(mkdtemp(dir));
	tok = token_file(dir, "s3cret");
	more[3] = tok;
	start_tls(&s, "server", more);
	setenv("HAPTIX_TOKEN_FILE", tok, 1);

	client_env(hx_test_cert("ca.pem"), NULL, NULL);
	expect_refused(s.tcp_addr,
	    "the server requires a client certificate: set $HAPTIX_TLS_CERT");
	client_env(hx_test_cert("ca.pem"), NULL, hx_test_cert("stranger.pem"));
	setenv("HAPTIX_TLS_KEY", hx_test_cert("stranger.key"), 1);
	expect_refused(
	    s.tcp_addr, "the server does not take our client certificate");
	client_env(hx_test_cert("ca.pem"), NULL, hx_test_cert("client.pem"));
	setenv("HAPTIX_TLS_KEY", hx_test_cert("client.key"), 1);
	expect_served(s.tcp_addr);
	/* The certificate does not replace the token. */
	unsetenv("HAPTIX_TOKEN_FILE");
	expect_refused(s.tcp_addr, "requires a token");
	cr_expect(hx_server_log_has(&s,
		      "TLS handshake failed: peer did not "
		      "return a certificate") &&
		hx_server_log_has(
		    &s, "TLS handshake failed: certificate verify failed"),
	    "the refusals are logged: %s", hx_server_log_text(&s));
	hx_server_stop(&s);
	client_env(NULL, NULL, NULL);
	hx_remove_tree(dir);
}

/* An IPv4 address of this machine that is not loopback, or fail. */
static void
outside_address(char *buf, size_t len)
{
	struct ifaddrs *ifs, *i;
	const struct sockaddr_in *sin;

	cr_assert_eq(getifaddrs(&ifs), 0);
	buf[0] = '\0';
	for (i = ifs; i != NULL && buf[0] == '\0'; i = i->ifa_next) {
		if (i->ifa_addr == NULL || i->ifa_addr->sa_family != AF_INET ||
		    (i->ifa_flags & IFF_LOOPBACK) || !(i->ifa_flags & IFF_UP))
			continue;
		sin = (const struct sockaddr_in *)(const void *)i->ifa_addr;
		inet_ntop(AF_INET, &sin->sin_addr, buf, (socklen_t)len);
	}
	freeifaddrs(ifs);
	cr_assert(buf[0] != '\0',
	    "this machine has no IPv4 address beyond loopback to test the "
	    "token's rule with");
}

/* Wait for the count-th occurrence of text in s's log. */
static void
wait_log_count(const struct hx_server *s, const char *text, int count)
{
	double end = hx_wall_now() + 20;
	const char *log, *p;
	int n;

	for (;;) {
		log = hx_server_log_text(s);
		for (n = 0, p = log; (p = strstr(p, text)) != NULL; p++)
			n++;
		if (n >= count)
			return;
		cr_assert(hx_wall_now() < end, "no \"%s\" (%d) in the log: %s",
		    text, count, log);
		hx_sleep_ms(50);
	}
}

Test(tls, the_token_never_in_the_clear_beyond_loopback)
{
	struct hx_server s;
	char dir[] = "/tmp/hx-tls-clear.XXXXXX", outside[64], addr[128];
	char conf[300], loop[128];
	const char *tok;
	const char *args[] = { "-m", "fixture.xml", "--paused", "--tcp",
		"0.0.0.0:0", "--token-file", NULL, NULL, NULL, NULL };
	int status;

	outside_address(outside, sizeof(outside));
	cr_assert_not_null(mkdtemp(dir));
	tok = token_file(dir, "s3cret");
	args[6] = tok;

	/* A listener in the clear beyond loopback: haptixd will not. */
	status = hx_server_try_start(&s, args);
	cr_assert_neq(status, -1, "haptixd must refuse to start");
	cr_expect(hx_server_log_has(&s,
		      "refusing to take the token in the "
		      "clear beyond loopback"),
	    "%s", hx_server_log_text(&s));
	hx_server_stop(&s);

	/* Told to (in its settings file), it does. */
	snprintf(conf, sizeof(conf), "%s/haptixd.conf", dir);
	put_file(conf, "allow-cleartext-token = yes\n");
	args[7] = "--config";
	args[8] = conf;
	hx_server_start(&s, args);
	snprintf(addr, sizeof(addr), "tcp:%s:%s", outside,
	    strrchr(s.tcp_addr, ':') + 1);
	snprintf(loop, sizeof(loop), "tcp:127.0.0.1:%s",
	    strrchr(s.tcp_addr, ':') + 1);
	setenv("HAPTIX_TOKEN_FILE", tok, 1);
	client_env(NULL, NULL, NULL);

	/* The client will not send it, unless told to. */
	unsetenv("HAPTIX_ALLOW_CLEARTEXT_TOKEN");
	expect_refused(addr, "refusing to send the token in the clear");
	expect_served(loop); /* loopback is fine */
	setenv("HAPTIX_ALLOW_CLEARTEXT_TOKEN", "1", 1);
	expect_served(addr);

	/* The daemon no longer told to: it refuses the token it got. */
	put_file(conf, "allow-cleartext-token = no\n");
	kill(s.pid, SIGHUP);
	wait_log_count(&s, "reloaded", 1);
	expect_refused(addr, "the token came in the clear over TCP");
	expect_served(loop);
	unsetenv("HAPTIX_ALLOW_CLEARTEXT_TOKEN");
	unsetenv("HAPTIX_TOKEN_FILE");
	hx_server_stop(&s);
	hx_remove_tree(dir);
}

/* A TCP connection to s's TLS port that says nothing. */
static int
silent(const struct hx_server *s)
{
	return raw_connect(s->tcp_addr + 4);
}

Test(tls, a_stalled_handshake_is_a_stalled_hello)
{
	struct hx_server s;
	const char *more[] = { "--max-handshakes", "4", NULL };
	int fd[6], i, junk;

	start_tls(&s, "server", more);
	client_env(hx_test_cert("ca.pem"), NULL, NULL);
	for (i = 0; i < 6; i++) {
		fd[i] = silent(&s);
		hx_sleep_ms(20);
	}
	/* Past the limit, the oldest go; the newest wait. */
	cr_expect(
	    raw_closed(fd[0], hx_wait_ms(2000)), "the oldest handshake stays");
	cr_expect(
	    raw_closed(fd[1], hx_wait_ms(2000)), "the second oldest stays");
	expect_served(s.tcp_addr); /* and a real client is served */
	/* No handshake within the Hello's time: closed. */
	cr_expect(
	    raw_closed(fd[5], hx_wait_ms(6000)), "a stalled handshake stays");
	for (i = 0; i < 6; i++)
		close(fd[i]);

	/* Not TLS at all: an HTTP request, a haptixd frame. */
	junk = silent(&s);
	raw_send(junk, "GET / HTTP/1.1\r\nHost: x\r\n\r\n", 27);
	cr_expect(
	    raw_closed(junk, hx_wait_ms(3000)), "HTTP on the TLS port stays");
	close(junk);
	junk = silent(&s);
	raw_send_frame(junk, "\x08\x01", 2);
	cr_expect(raw_closed(junk, hx_wait_ms(3000)),
	    "a plain frame on the TLS port");
	close(junk);
	expect_served(s.tcp_addr);
	hx_server_stop(&s);
}

Test(tls, sighup_swaps_the_certificate)
{
	struct hx_server s;
	char dir[] = "/tmp/hx-tls-reload.XXXXXX", pem[300], key[300];
	char cmd[1200];
	const char *args[] = { "-m", "fixture.xml", "--paused", "--tcp",
		"tls:127.0.0.1:0", "--tls-cert", pem, "--tls-key", key, NULL };
	hxd_status st;
	hxd_conn *before;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(pem, sizeof(pem), "%s/cert.pem", dir);
	snprintf(key, sizeof(key), "%s/key.pem", dir);
	snprintf(cmd, sizeof(cmd), "cp %s %s && cp %s %s",
	    hx_test_cert("server.pem"), pem, hx_test_cert("server.key"), key);
	cr_assert_eq(system(cmd), 0);
	hx_server_start(&s, args);
	client_env(NULL, fingerprint("server"), NULL);
	before = hxd_connect(s.tcp_addr, "before");
	cr_assert_eq(hxd_result(before), HXD_OK, "%s", hxd_error(before));

	snprintf(cmd, sizeof(cmd), "cp %s %s && cp %s %s",
	    hx_test_cert("selfsigned.pem"), pem, hx_test_cert("selfsigned.key"),
	    key);
	cr_assert_eq(system(cmd), 0);
	kill(s.pid, SIGHUP);
	wait_log_count(&s, "reloaded", 1);
	expect_refused(s.tcp_addr, "not the pinned one");
	client_env(NULL, fingerprint("selfsigned"), NULL);
	expect_served(s.tcp_addr);
	/* A connection made before keeps going. */
	cr_expect_eq(
	    hxd_status_get(before, &st), HXD_OK, "%s", hxd_error(before));

	/* A broken certificate: the reload fails, the last one stays. */
	put_file(pem, "not a certificate\n");
	kill(s.pid, SIGHUP);
	wait_log_count(&s, "keeping the current settings", 1);
	cr_expect(
	    hx_server_log_has(&s, "--tls-cert"), "%s", hx_server_log_text(&s));
	expect_served(s.tcp_addr);
	hxd_close(before);
	client_env(NULL, NULL, NULL);
	hx_server_stop(&s);
	hx_remove_tree(dir);
}

/* A test-side TLS client that trusts anything: for raw bytes. */
struct rawtls {
	int fd;
	SSL_CTX *ctx;
	SSL *ssl;
};

static void
rawtls_open(struct rawtls *t, const struct hx_server *s)
{
	struct timeval tv = { 2, 0 };

	t->fd = silent(s);
	t->ctx = SSL_CTX_new(TLS_client_method());
	cr_assert_not_null(t->ctx);
	SSL_CTX_set_verify(t->ctx, SSL_VERIFY_NONE, NULL);
	t->ssl = SSL_new(t->ctx);
	SSL_set_fd(t->ssl, t->fd);
	cr_assert_eq(SSL_connect(t->ssl), 1, "the TLS handshake failed");
	setsockopt(t->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
}

/* Write len bytes; 0, or -1 once the daemon has closed. */
static int
rawtls_write(struct rawtls *t, const void *p, size_t len)
{
	return len == 0 || SSL_write(t->ssl, p, (int)len) == (int)len ? 0 : -1;
}

/* Read until the daemon closes or stays silent for SO_RCVTIMEO. */
static void
rawtls_drain(struct rawtls *t)
{
	char buf[4096];

	while (SSL_read(t->ssl, buf, sizeof(buf)) > 0)
		;
	ERR_clear_error();
}

static void
rawtls_close(struct rawtls *t)
{
	SSL_free(t->ssl);
	SSL_CTX_free(t->ctx);
	close(t->fd);
}

/* A Hello frame with the fuzzer's token. */
static size_t
hello_frame(uint8_t *buf, size_t cap)
{
	Haptix__V1__Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__Hello hello = HAPTIX__V1__HELLO__INIT;
	size_t len;

	hello.protocol_version = 1;
	hello.client_name = (char *)"corpus";
	hello.token.data = (uint8_t *)FUZZ_TOKEN;
	hello.token.len = strlen(FUZZ_TOKEN);
	req.id = 1;
	req.call_case = HAPTIX__V1__REQUEST__CALL_HELLO;
	req.hello = &hello;
	len = haptix__v1__request__get_packed_size(&req);
	cr_assert_leq(len + FRAME_HEADER_SIZE, cap);
	frame_put_header(buf, (uint32_t)len);
	haptix__v1__request__pack(&req, buf + FRAME_HEADER_SIZE);
	return len + FRAME_HEADER_SIZE;
}

/*
 * The fuzzer's seeds (make_corpus), each sent over its own TLS connection
 * as fuzz_session.c sends it: a Hello first when its flags say so, then
 * the stream, in pieces of the size its second byte gives.  The daemon
 * must go on serving a bystander throughout, and stop cleanly.
 */
Test(tls, the_fuzz_corpus_over_tls, .timeout = 300)
{
	struct hx_server s;
	char dir[] = "/tmp/hx-tls-corpus.XXXXXX", prog[4500], path[4096];
	const char *more[] = { "--token-file", NULL, NULL };
	uint8_t *seed, hello[256];
	struct rawtls t;
	struct dirent *e;
	size_t len, off, chunk, n;
	int seeds = 0;
	DIR *dp;
	FILE *f;

	cr_assert_not_null(mkdtemp(dir));
	more[1] = token_file(dir, FUZZ_TOKEN);
	snprintf(path, sizeof(path), "%s/corpus", dir);
	cr_assert_eq(mkdir(path, 0700), 0);
	snprintf(prog, sizeof(prog), "%s/fuzz/make_corpus", getenv("HX_BUILD"));
	{
		struct hx_run r = { 0 };

		hx_run_args(&r, prog, path, NULL);
		cr_assert_eq(r.status, 0, "make_corpus: %s", r.err);
		hx_run_free(&r);
	}
	start_tls(&s, "server", more);
	client_env(hx_test_cert("ca.pem"), NULL, NULL);
	setenv("HAPTIX_TOKEN_FILE", more[1], 1);
	dp = opendir(path);
	cr_assert_not_null(dp);
	seed = malloc(1 << 20);
	while ((e = readdir(dp)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(prog, sizeof(prog), "%s/%s", path, e->d_name);
		f = fopen(prog, "rb");
		cr_assert_not_null(f);
		len = fread(seed, 1, 1 << 20, f);
		fclose(f);
		if (len < 2)
			continue;
		rawtls_open(&t, &s);
		if (seed[0] & FUZZ_HELLO)
			rawtls_write(
			    &t, hello, hello_frame(hello, sizeof(hello)));
		chunk = seed[1] != 0 ? seed[1] : len;
		for (off = 2; off < len; off += n) {
			n = len - off < chunk ? len - off : chunk;
			if (rawtls_write(&t, seed + off, n) != 0)
				break;
		}
		shutdown(t.fd, SHUT_WR);
		rawtls_drain(&t);
		rawtls_close(&t);
		if (++seeds % 16 == 0)
			expect_served(s.tcp_addr);
	}
	closedir(dp);
	free(seed);
	cr_assert_gt(seeds, 50, "only %d seeds", seeds);
	cr_log_info("%d seeds over TLS", seeds);
	expect_served(s.tcp_addr);
	unsetenv("HAPTIX_TOKEN_FILE");
	client_env(NULL, NULL, NULL);
	hx_server_stop(&s);
	hx_remove_tree(dir);
}

/*
 * A frame of megabytes comes through OpenSSL's bufferevent in pieces
 * (it keeps 64 KiB at most) and is whole when handled: an inline model
 * of 4 MiB, most of it a comment, loads over TLS as over a Unix socket.
 */
Test(tls, a_large_frame_over_tls)
{
	struct hx_server s;
	const char *
	    head = "<mujoco><!-- ",
	   *tail = " --><worldbody><body><freejoint/><geom size=\"0.1\"/></body>"
		   "</worldbody></mujoco>";
	size_t pad = 4u << 20, len = strlen(head) + pad + strlen(tail);
	char *xml = malloc(len + 1);
	hxd_model m;
	hxd_conn *c;

	cr_assert_not_null(xml);
	strcpy(xml, head);
	memset(xml + strlen(head), 'x', pad);
	strcpy(xml + strlen(head) + pad, tail);
	start_tls(&s, "server", NULL);
	client_env(hx_test_cert("ca.pem"), NULL, NULL);
	c = hxd_connect_timeout(s.tcp_addr, "large", 60000);
	cr_assert_eq(hxd_result(c), HXD_OK, "%s", hxd_error(c));
	cr_assert_eq(hxd_load_data(c, HXD_FORMAT_AUTO, xml, len, "large", &m),
	    HXD_OK, "%s", hxd_error(c));
	cr_expect_eq(m.nq, 7, "the model sent is the one loaded");
	hxd_close(c);
	free(xml);
	client_env(NULL, NULL, NULL);
	hx_server_stop(&s);
}

/*
 * A TLS client that asks and never reads is dropped at --max-queued, as
 * one in the clear is, and the others are served meanwhile.  It asks for
 * the MPL scene's description, tens of kilobytes an answer, so that the
 * kernel's buffers fill soon.
 */
Test(tls, a_client_that_does_not_read_is_dropped)
{
	struct hx_server s;
	const char *more[] = { "--max-queued", "262144", "--max-frame",
		"131072", "-m", "mpl_scene.xml", NULL };
	uint8_t frame[64], hello[256];
	Haptix__V1__Empty empty = HAPTIX__V1__EMPTY__INIT;
	struct rawtls t;
	size_t n;
	int i, gone = 0;
	double end;

	start_tls(&s, "server", more);
	client_env(hx_test_cert("ca.pem"), NULL, NULL);
	rawtls_open(&t, &s);
	n = hello_frame(hello, sizeof(hello));
	cr_assert_eq(rawtls_write(&t, hello, n), 0);
	end = hx_wall_now() + 30;
	for (i = 2; !gone && hx_wall_now() < end; i++) {
		Haptix__V1__Request req = HAPTIX__V1__REQUEST__INIT;

		req.id = (uint64_t)i;
		req.call_case = HAPTIX__V1__REQUEST__CALL_INFO;
		req.info = &empty;
		n = haptix__v1__request__get_packed_size(&req);
		frame_put_header(frame, (uint32_t)n);
		haptix__v1__request__pack(&req, frame + FRAME_HEADER_SIZE);
		gone = rawtls_write(&t, frame, n + FRAME_HEADER_SIZE) != 0 ||
		    (i % 100 == 0 &&
			hx_server_log_has(&s, "not reading its answers"));
		if (i % 1000 == 0)
			expect_served(s.tcp_addr);
	}
	cr_expect(gone, "a TLS client that never reads stays: %s",
	    hx_server_log_text(&s));
	wait_log_count(&s, "not reading its answers", 1);
	expect_served(s.tcp_addr);
	rawtls_close(&t);
	client_env(NULL, NULL, NULL);
	hx_server_stop(&s);
}
