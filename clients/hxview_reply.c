/*
 * hxview serve's answers (hxview_http.h): a body not to be cached, a JSON
 * error object, text escaped into a JSON string.  Below every part of the
 * server that answers a request.
 */
#include "config.h"

#include <event2/buffer.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include "hxview_http.h"

/* Add text to b as the inside of a JSON string. */
void
reply_json_string(struct evbuffer *b, const char *text)
{
	const char *p;

	for (p = text; *p != '\0'; p++) {
		if (*p == '"' || *p == '\\')
			evbuffer_add_printf(b, "\\%c", *p);
		else if ((unsigned char)*p < 0x20)
			evbuffer_add_printf(b, "\\u%04x", (unsigned char)*p);
		else
			evbuffer_add(b, p, 1);
	}
}

/* Answer with body, not to be cached. */
void
reply_send(struct evhttp_request *req, int code, const char *reason,
    const char *type, struct evbuffer *body)
{
	struct evkeyvalq *out = evhttp_request_get_output_headers(req);

	evhttp_add_header(out, "Content-Type", type);
	evhttp_add_header(out, "Cache-Control", "no-store");
	evhttp_send_reply(req, code, reason, body);
}

/* Answer with a JSON error object. */
void
reply_error(
    struct evhttp_request *req, int code, const char *reason, const char *text)
{
	struct evbuffer *b = evbuffer_new();

	if (b == NULL) {
		evhttp_send_error(req, HTTP_INTERNAL, NULL);
		return;
	}
	evbuffer_add_printf(b, "{\"error\":\"");
	reply_json_string(b, text);
	evbuffer_add_printf(b, "\"}\n");
	reply_send(req, code, reason, "application/json", b);
	evbuffer_free(b);
}

void
reply_call_failed(struct evhttp_request *req, hxd_conn *c, int missing)
{
	int found = hxd_result(c) != missing;

	reply_error(req, found ? HTTP_SERVUNAVAIL : HTTP_NOTFOUND,
	    found ? "Service Unavailable" : "Not Found", hxd_error(c));
}
