/*
 * hxview serve over HTTPS (--http tls:...), in real headless Chromium
 * and through OpenSSL, against a running haptixd with
 * models/test/workbench.xml.  The certificates come from hx-test-certs.
 *
 * Chromium verifies the certificate: it is told to trust one public key
 * (--ignore-certificate-errors-spki-list, the SHA-256 of server.pem's
 * SubjectPublicKeyInfo, which the test computes), not to ignore errors.
 * With it, the workbench loads over https://, draws the model and its
 * Pause button pauses the daemon; the same browser refuses a server
 * that shows another certificate (selfsigned.pem).  Through OpenSSL,
 * trusting the test CA: the server's Origin (https://) is served, the
 * same name with http:// is another site and is refused; plain HTTP on
 * the TLS port gets no page.  hxview logs the certificate's SHA-256
 * fingerprint, the one hx-test-certs wrote.  TLS connections count
 * against --max-connections: a stalled handshake gives way to a
 * newcomer.  SIGHUP reads the certificate again; one that does not load
 * leaves the last.
 *
 * browser_main() skips (77, with the reason) without Chromium, and
 * fails instead under $CI.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/sha.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include "browser.h"
#include "check.h"
#include "harness.h"
#include "haptixd.h"

/* The browser's window, and WebGL on Chromium's software renderer. */
#define WINDOW_ARGS \
	"\"--window-size=1000,700\",\"--enable-unsafe-swiftshader\"," \
	"\"--use-angle=swiftshader\""

/* Generous bounds for a loaded machine. */
#define READY_SECONDS 40.0 /* the page drawing the model */
#define WAIT_SECONDS 15.0  /* a change showing */
#define IO_SECONDS 10      /* one request of the test's own */

static void cleanup(void);

TestSuite(https, .timeout = 240, .fini = cleanup);

static struct hx_server server;
static hxd_conn *watch;

static void
cleanup(void)
{
	browser_cleanup(&watch);
}

/*
 * The base64 SHA-256 of the certificate's SubjectPublicKeyInfo, as
 * Chromium's --ignore-certificate-errors-spki-list takes it.
 */
static void
spki_hash(const char *pem, char *out, size_t len)
{
	unsigned char *der = NULL, md[SHA256_DIGEST_LENGTH];
	FILE *f = fopen(pem, "r");
	X509 *x;
	int n;

	cr_assert(f != NULL, "%s: %s", pem, strerror(errno));
	x = PEM_read_X509(f, NULL, NULL, NULL);
	fclose(f);
	cr_assert(x != NULL, "%s: no certificate", pem);
	n = i2d_X509_PUBKEY(X509_get_X509_PUBKEY(x), &der);
	cr_assert(n > 0);
	SHA256(der, (size_t)n, md);
	cr_assert(len > 4 * ((sizeof(md) + 2) / 3));
	EVP_EncodeBlock((unsigned char *)out, md, sizeof(md));
	OPENSSL_free(der);
	X509_free(x);
}

/* What a file says, its last newline removed (static buffer). */
static const char *
file_text(const char *path)
{
	static char text[512];
	FILE *f = fopen(path, "r");
	size_t n;

	cr_assert(f != NULL, "%s: %s", path, strerror(errno));
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == '\r'))
		n--;
	text[n] = '\0';
	return text;
}

/* A TCP connection to 127.0.0.1:port that gives up after IO_SECONDS. */
static int
connect_loopback(int port)
{
	struct sockaddr_in sin;
	struct timeval tv = { IO_SECONDS, 0 };
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	cr_assert(fd >= 0, "socket: %s", strerror(errno));
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons((unsigned short)port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	cr_assert(connect(fd, (struct sockaddr *)&sin, sizeof(sin)) == 0,
	    "connect to port %d: %s", port, strerror(errno));
	return fd;
}

/*
 * GET path over TLS from 127.0.0.1:port with the Origin header given
 * (NULL: none), trusting the test CA and checking the name localhost;
 * the status of the answer.
 */
static int
https_get(int port, const char *path, const char *origin)
{
	char req[512], answer[256], o[300] = "";
	SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
	size_t got = 0;
	int fd, n, status = -1;
	SSL *ssl;

	cr_assert(ctx != NULL);
	cr_assert(SSL_CTX_load_verify_locations(
		      ctx, hx_test_cert("ca.pem"), NULL) == 1);
	SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, NULL);
	fd = connect_loopback(port);
	ssl = SSL_new(ctx);
	cr_assert(ssl != NULL && SSL_set1_host(ssl, "localhost") == 1);
	SSL_set_fd(ssl, fd);
	cr_assert(SSL_connect(ssl) == 1,
	    "no TLS to port %d, or its certificate is not verified "
	    "(verify result %ld)",
	    port, SSL_get_verify_result(ssl));
	if (origin != NULL)
		snprintf(o, sizeof(o), "Origin: %s\r\n", origin);
	snprintf(req, sizeof(req),
	    "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n%s"
	    "Connection: close\r\n\r\n",
	    path, port, o);
	cr_assert(SSL_write(ssl, req, (int)strlen(req)) == (int)strlen(req));
	while (got < sizeof(answer) - 1 &&
	    (n = SSL_read(ssl, answer + got, (int)(sizeof(answer) - 1 - got))) >
		0)
		got += (size_t)n;
	answer[got] = '\0';
	if (sscanf(answer, "HTTP/1.1 %d", &status) != 1)
		status = -1;
	SSL_free(ssl);
	SSL_CTX_free(ctx);
	close(fd);
	return status;
}

/*
 * Did the TLS handshake on fd succeed?  The certificate is not
 * verified: this asks only whether the server took the connection.
 */
static int
tls_handshake(int fd)
{
	SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
	SSL *ssl;
	int ok;

	cr_assert(ctx != NULL && (ssl = SSL_new(ctx)) != NULL);
	SSL_set_fd(ssl, fd);
	ok = SSL_connect(ssl) == 1;
	SSL_free(ssl);
	SSL_CTX_free(ctx);
	return ok;
}

/* Did the server close fd (EOF or reset) within seconds? */
static int
closed_within(int fd, int seconds)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char c;

	if (poll(&pfd, 1, seconds * 1000) != 1)
		return 0;
	return recv(fd, &c, 1, 0) <= 0;
}

/*
 * The SHA-256 fingerprint (AB:CD:...) of the certificate the server on
 * port shows, unverified.
 */
static void
served_fingerprint(int port, char *out, size_t len)
{
	SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0, i;
	size_t off = 0;
	X509 *x;
	SSL *ssl;
	int fd;

	cr_assert(ctx != NULL && (ssl = SSL_new(ctx)) != NULL);
	fd = connect_loopback(port);
	SSL_set_fd(ssl, fd);
	cr_assert(SSL_connect(ssl) == 1, "no TLS on port %d", port);
	x = SSL_get1_peer_certificate(ssl);
	cr_assert(x != NULL && X509_digest(x, EVP_sha256(), md, &n) == 1);
	for (i = 0; i < n && off + 3 < len; i++)
		off += (size_t)snprintf(
		    out + off, len - off, "%s%02X", i ? ":" : "", md[i]);
	X509_free(x);
	SSL_free(ssl);
	SSL_CTX_free(ctx);
	close(fd);
}

/* Copy the certificate name.pem and its key to cert and key. */
static void
copy_cert(const char *name, const char *cert, const char *key)
{
	char cmd[3000];

	snprintf(cmd, sizeof(cmd), "cp '%s/%s.pem' '%s' && cp '%s/%s.key' '%s'",
	    hx_test_certs(), name, cert, hx_test_certs(), name, key);
	cr_assert_eq(system(cmd), 0, "%s", cmd);
}

/*
 * hxview serve on the daemon over HTTPS with cert and its key, and
 * --max-connections max unless NULL; the port.
 */
static int
start_view(const char *cert, const char *key, const char *max)
{
	char c[700], k[700];
	const char *argv[] = { hx_hxview_path(), "-s",
		hx_server_addr(&server, 0), "serve", "--http",
		"tls:127.0.0.1:0", "--tls-cert", c, "--tls-key", k,
		max != NULL ? "--max-connections" : NULL, max, NULL };

	snprintf(
	    c, sizeof(c), "%s", cert[0] == '/' ? cert : hx_test_cert(cert));
	snprintf(k, sizeof(k), "%s", key[0] == '/' ? key : hx_test_cert(key));
	return start_hxview_argv(argv);
}

/*
 * Navigate the session to url; the WebDriver status, its body in *body
 * (a page that cannot be loaded may answer 200, with an error page).
 */
static int
go(const char *url, char **body)
{
	char path[256], *req, *quoted = json_quote(url), why[256];
	int code;

	cr_assert(asprintf(&req, "{\"url\":%s}", quoted) > 0);
	snprintf(path, sizeof(path), "/session/%s/url", session);
	code = http_call(
	    driver_port, "POST", path, req, 60.0, body, why, sizeof(why));
	cr_assert(code != -1, "WebDriver POST %s: %s", path, why);
	free(req);
	free(quoted);
	return code;
}

/* Wait until hxview's log holds text count times. */
static void
wait_log(const char *text, int count)
{
	double end = hx_wall_now() + 20;
	const char *p;
	int n;

	for (;;) {
		p = log_tail(run_file(0, "hxview.log"));
		for (n = 0; (p = strstr(p, text)) != NULL; p++)
			n++;
		if (n >= count)
			return;
		cr_assert(hx_wall_now() < end, "no \"%s\" in hxview's log:\n%s",
		    text, log_tail(run_file(0, "hxview.log")));
		hx_sleep_ms(50);
	}
}

Test(https, sighup_reads_the_certificate_again)
{
	static const char *const args[] = { "-m", "workbench.xml", NULL };
	char cert[300], key[300], fp[128];
	FILE *f;
	int port;

	snprintf(cert, sizeof(cert), "%s", run_file(0, "cert.pem"));
	snprintf(key, sizeof(key), "%s", run_file(0, "key.pem"));
	copy_cert("server", cert, key);
	hx_server_start(&server, args);
	port = start_view(cert, key, NULL);
	served_fingerprint(port, fp, sizeof(fp));
	cr_assert_str_eq(fp, file_text(hx_test_cert("server.sha256")));

	copy_cert("selfsigned", cert, key);
	kill(hxview_pid, SIGHUP);
	wait_log("serve: SIGHUP: HTTPS with the", 1);
	served_fingerprint(port, fp, sizeof(fp));
	cr_assert_str_eq(fp, file_text(hx_test_cert("selfsigned.sha256")),
	    "the certificate read again is not the one served");

	f = fopen(cert, "w");
	cr_assert_not_null(f);
	fputs("not a certificate\n", f);
	fclose(f);
	kill(hxview_pid, SIGHUP);
	wait_log("keeping the certificate", 1);
	served_fingerprint(port, fp, sizeof(fp));
	cr_assert_str_eq(fp, file_text(hx_test_cert("selfsigned.sha256")),
	    "a certificate that does not load replaced the last one");
	cr_assert_eq(stop_hxview(), 0, "hxview serve did not stop cleanly");
	hx_server_stop(&server);
}

Test(https, the_workbench_over_https_and_what_is_refused)
{
	static const char *const args[] = { "-m", "workbench.xml", NULL };
	char spki[64], chrome[256], url[128], origin[128], *body = NULL;
	char why[256];
	const char *fp, *r;
	double end;
	int port, code, stalled[2], third;

	spki_hash(hx_test_cert("server.pem"), spki, sizeof(spki));
	hx_server_start(&server, args);
	watch = hx_connect_ok(hx_server_addr(&server, 0), "test_https");
	port = start_view("server.pem", "server.key", NULL);

	/* The log shows the fingerprint of the certificate served. */
	fp = file_text(hx_test_cert("server.sha256"));
	cr_assert(strstr(log_tail(run_file(0, "hxview.log")), fp) != NULL,
	    "hxview's log does not give the fingerprint %s:\n%s", fp,
	    log_tail(run_file(0, "hxview.log")));

	/* Its own Origin is served; http:// with the same name is not. */
	snprintf(origin, sizeof(origin), "https://127.0.0.1:%d", port);
	code = https_get(port, "/status.json", origin);
	cr_assert_eq(code, 200, "Origin %s: HTTP %d", origin, code);
	snprintf(origin, sizeof(origin), "http://127.0.0.1:%d", port);
	code = https_get(port, "/status.json", origin);
	cr_assert_eq(
	    code, 403, "Origin %s: HTTP %d, not refused", origin, code);

	/* Plain HTTP on the TLS port: no page. */
	code = http_call(
	    port, "GET", "/", NULL, IO_SECONDS, &body, why, sizeof(why));
	cr_assert(code == -1 && body == NULL,
	    "plain HTTP on the TLS port got HTTP %d: %.200s", code,
	    body != NULL ? body : "");

	/* Chromium trusting server.pem's key: the workbench works. */
	start_driver();
	snprintf(chrome, sizeof(chrome),
	    WINDOW_ARGS ",\"--ignore-certificate-errors-spki-list=%s\"", spki);
	open_session_with(chrome);
	snprintf(url, sizeof(url), "https://127.0.0.1:%d/", port);
	code = go(url, &body);
	cr_assert_eq(
	    code, 200, "WebDriver could not open %s: %.2000s", url, body);
	free(body);
	wait_for("var w = window.hxwb;"
		 "return location.protocol === 'https:' && w && w.model &&"
		 " w.drawn > 3 && w.frames > 3 ? 'yes' : location.protocol +"
		 " ' model ' + !!(w && w.model) + ' drawn ' + (w && w.drawn) +"
		 " ' frames ' + (w && w.frames);",
	    READY_SECONDS, "the workbench over HTTPS drawing the model");
	cr_assert(!hx_status_ok(watch).paused);
	cr_assert_str_eq(js("var b = document.getElementById('pause');"
			    "if (!b || b.disabled) return 'no Pause button';"
			    "b.click(); return 'ok';"),
	    "ok");
	end = hx_wall_now() + WAIT_SECONDS;
	while (!hx_status_ok(watch).paused) {
		cr_assert(hx_wall_now() < end,
		    "the Pause button did not pause the daemon; hxview's "
		    "log:\n%s",
		    log_tail(run_file(0, "hxview.log")));
		hx_sleep_ms(50);
	}

	/* Another certificate (self-signed, another key): refused. */
	cr_assert_eq(stop_hxview() != -1, 1);
	port = start_view("selfsigned.pem", "selfsigned.key", "2");
	snprintf(url, sizeof(url), "https://127.0.0.1:%d/", port);
	code = go(url, &body);
	free(body);
	/* The error page instead: nothing of hxview's was loaded. */
	r = js("return location.protocol !== 'https:' &&"
	       " typeof window.hxwb === 'undefined' &&"
	       " /ERR_CERT_/.test(document.body.innerText) ? 'refused' :"
	       " location.href + ' ' + typeof window.hxwb + ' ' +"
	       " document.body.innerText.slice(0, 300);");
	cr_assert_str_eq(r, "refused",
	    "Chromium opened %s, whose certificate it does not trust: %s", url,
	    r);
	close_session();

	/*
	 * TLS connections count against --max-connections from their
	 * accept: two that never begin their handshake fill the two
	 * places, and a third closes the older (idle) one and is served.
	 */
	stalled[0] = connect_loopback(port);
	stalled[1] = connect_loopback(port);
	hx_sleep_ms(300);
	third = connect_loopback(port);
	cr_assert(tls_handshake(third),
	    "a newcomer past --max-connections 2 was refused, the two "
	    "stalled ones idle");
	cr_assert(closed_within(stalled[0], IO_SECONDS),
	    "the older stalled handshake was not closed for the newcomer "
	    "(--max-connections 2)");
	close(third);
	close(stalled[0]);
	close(stalled[1]);
}

/* Before the tests: what they need, and where it is. */
int
main(int argc, char *argv[])
{
	return browser_main(argc, argv, "test_https");
}
