/*
 * hxview serve: who may ask what.  A page of another site must not
 * reach the server through its own name (DNS rebinding) nor call it from
 * its scripts: every request's Host must be one of the server's names,
 * and its Origin, when a browser sends one, the server's too: the
 * server's scheme (https:// over TLS, else http://), name and port.  A
 * page of http://NAME:PORT is another origin than https://NAME:PORT (a
 * page served in the clear, by whoever can answer there, must not drive
 * what the TLS server guards).  A control
 * also needs the page's own header and, beyond loopback, the daemon's
 * token.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include "address.h"
#include "hxview_http.h"
#include "token.h"

static int guard_name_ours(const struct http_server *, const char *);

/*
 * The names this server answers to, with the port it listens on: its
 * address and, on loopback, localhost's names.  Bound to every address
 * (read-only), it answers to any name.
 */
void
guard_names(struct http_server *srv, const char *host, int port)
{
	int v6 = strchr(host, ':') != NULL;

	srv->nhosts = 0;
	if (strcmp(host, "0.0.0.0") == 0 || strcmp(host, "::") == 0)
		return;
	snprintf(srv->hosts[srv->nhosts++], sizeof(srv->hosts[0]),
	    v6 ? "[%s]:%d" : "%s:%d", host, port);
	if (!address_host_is_loopback(host))
		return;
	snprintf(srv->hosts[srv->nhosts++], sizeof(srv->hosts[0]),
	    "localhost:%d", port);
	snprintf(srv->hosts[srv->nhosts++], sizeof(srv->hosts[0]),
	    "127.0.0.1:%d", port);
	snprintf(
	    srv->hosts[srv->nhosts++], sizeof(srv->hosts[0]), "[::1]:%d", port);
}

/*
 * Return 1 if name (host:port, or host alone for the scheme's port: 443
 * over TLS, else 80) is ours.
 */
static int
guard_name_ours(const struct http_server *srv, const char *name)
{
	const char *port = srv->tls != NULL ? ":443" : ":80";
	char with[300];
	int i;

	if (srv->nhosts == 0)
		return 1;
	snprintf(with, sizeof(with), "%s%s", name,
	    strrchr(name, ']') == NULL && strchr(name, ':') == NULL ? port :
								      "");
	for (i = 0; i < srv->nhosts; i++)
		if (strcasecmp(with, srv->hosts[i]) == 0)
			return 1;
	return 0;
}

/*
 * A page of another site must not reach us through its own name (DNS
 * rebinding) nor call us from its scripts: the Host must be one of our
 * names, and an Origin, when a browser sends one, ours: our scheme, one
 * of our names.  Returns 1 when the request was refused.
 */
int
guard_stranger(struct http_server *srv, struct evhttp_request *req)
{
	struct evkeyvalq *in = evhttp_request_get_input_headers(req);
	const char *host = evhttp_find_header(in, "Host");
	const char *origin = evhttp_find_header(in, "Origin");
	const char *scheme = srv->tls != NULL ? "https://" : "http://";
	size_t slen = strlen(scheme);
	char text[400];

	if (host != NULL && !guard_name_ours(srv, host)) {
		snprintf(text, sizeof(text),
		    "Host '%.200s' is not this server's name", host);
		reply_error(req, 403, "Forbidden", text);
		return 1;
	}
	if (origin != NULL &&
	    (strncasecmp(origin, scheme, slen) != 0 ||
		!guard_name_ours(srv, origin + slen))) {
		snprintf(text, sizeof(text), "Origin '%.200s' is another site",
		    origin);
		reply_error(req, 403, "Forbidden", text);
		return 1;
	}
	return 0;
}

/*
 * A control must carry the page's header (X-Hxview: 1) and a Host.
 * Only the page's own script sets this header: a form or image on
 * another site cannot, and a cross-site script that tries is stopped
 * by the browser's preflight, which we never approve.  Returns 1 when
 * the request was refused.
 */
int
guard_control(struct evhttp_request *req)
{
	struct evkeyvalq *in = evhttp_request_get_input_headers(req);
	const char *mark = evhttp_find_header(in, "X-Hxview");

	if (mark == NULL || strcmp(mark, "1") != 0) {
		reply_error(req, HTTP_BADREQUEST, "Bad Request",
		    "controls need the header X-Hxview: 1");
		return 1;
	}
	if (evhttp_find_header(in, "Host") == NULL) {
		reply_error(req, HTTP_BADREQUEST, "Bad Request",
		    "controls need a Host header");
		return 1;
	}
	return 0;
}

/*
 * Beyond loopback a control must carry the daemon's token
 * (X-Hxview-Token).  Returns 1 when the request was refused.
 */
int
guard_token(struct http_server *srv, struct evhttp_request *req)
{
	const char *token = evhttp_find_header(
	    evhttp_request_get_input_headers(req), "X-Hxview-Token");

	if (srv->h->token[0] == '\0' ||
	    (token != NULL &&
		token_equal(token, strlen(token), srv->h->token,
		    strlen(srv->h->token))))
		return 0;
	reply_error(req, 401, "Unauthorized",
	    "this viewer is not on loopback: controls need the "
	    "daemon's token (X-Hxview-Token)");
	return 1;
}

/*
 * Read the daemon's token from $HAPTIX_TOKEN_FILE into h->token; 0, or
 * -1 (no such file, or an empty one).
 */
int
guard_token_read(struct http_options *h)
{
	const char *path = getenv("HAPTIX_TOKEN_FILE");
	ssize_t n;

	if (path == NULL || path[0] == '\0' ||
	    (n = token_read(path, h->token, sizeof(h->token) - 1)) <= 0)
		return -1;
	h->token[n] = '\0';
	return 0;
}
