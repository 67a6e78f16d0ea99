/*
 * hxview serve: POST /upload, a model dropped on the workbench with the
 * files it names, loaded through hxview's connection as any client's
 * inline model (hxd_load_inline_assets): the daemon's loader, its
 * limits, the lease and the fair queue of loads apply as they do to
 * every client.  It is a control: the page's header, a Host of ours, an
 * Origin of ours, the token beyond loopback, and refused read-only.
 *
 * The body is the page's own small format, built with a DataView and a
 * Blob, no library: every length is given before what it measures, so
 * that reading it is a walk that checks each against what is left, with
 * no boundary to search for in binary data and no header to unquote (as
 * multipart/form-data would need, whose file names browsers escape each
 * their own way).  All integers little-endian:
 *
 *	"HXU1"                       4 bytes
 *	count                        uint32: files, the model first
 *	count times:
 *	  name length, data length   uint32 each
 *	  name                       UTF-8, no NUL: the model's file name,
 *	                             then each file as the model names it
 *	  data
 *
 * The model's format follows its name's suffix (.xml MJCF, .urdf URDF,
 * .mjb MJB, else told by the daemon from the bytes); its name without
 * the suffix names it where the model does not.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <event2/buffer.h>
#include <event2/http.h>

#include "hxview_http.h"
#include "program.h"

/* The body's first bytes. */
#define UPLOAD_MAGIC "HXU1"

/* The model and at most 1000 files: the daemon's limit (modelassets.h). */
#define UPLOAD_FILES_MAX 1001

/* What the protocol adds around each file, generously, and around all. */
#define UPLOAD_FRAME_PER_FILE 32
#define UPLOAD_FRAME_OVERHEAD 1024

int
http_takes_uploads(const struct http_options *h)
{
	return !h->read_only && h->max_upload > 0;
}

/* A little-endian uint32 at p. */
static uint32_t
upload_u32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

/* One file of the body: its name (NUL-ended, a copy) and bytes. */
struct upload_file {
	char *name;
	const unsigned char *data;
	size_t len;
};

/*
 * Read the body (len bytes at b) into *files (caller frees each name and
 * the array) and *n.  0, or -1 with why.
 */
static int
upload_parse(const unsigned char *b, size_t len, struct upload_file **files,
    size_t *n, char *why, size_t wlen)
{
	const unsigned char *p = b, *end = b + len;
	struct upload_file *f;
	uint32_t count, nl, dl;
	size_t i;

	*files = NULL;
	*n = 0;
	if (len < 8 || memcmp(b, UPLOAD_MAGIC, 4) != 0) {
		snprintf(why, wlen,
		    "not an upload: the body begins \"HXU1\", then the count "
		    "of files, then each one's name and data with their "
		    "lengths (hxview(1))");
		return -1;
	}
	count = upload_u32(b + 4);
	p += 8;
	/* Each file takes 8 bytes at least: no count past what came. */
	if (count == 0 || count > (size_t)(end - p) / 8) {
		snprintf(why, wlen,
		    "the body says %u files, which %zu bytes cannot hold",
		    count, len);
		return -1;
	}
	if (count > UPLOAD_FILES_MAX) {
		snprintf(why, wlen, "%u files: a model carries at most %d",
		    count - 1, UPLOAD_FILES_MAX - 1);
		return -1;
	}
	if ((f = calloc(count, sizeof(*f))) == NULL) {
		snprintf(why, wlen, "out of memory");
		return -1;
	}
	for (i = 0; i < count; i++) {
		if ((size_t)(end - p) < 8)
			goto short_body;
		nl = upload_u32(p);
		dl = upload_u32(p + 4);
		p += 8;
		if (nl > (size_t)(end - p) || dl > (size_t)(end - p) - nl)
			goto short_body;
		if (nl == 0 || memchr(p, '\0', nl) != NULL) {
			snprintf(why, wlen, "file %zu: %s", i + 1,
			    nl == 0 ? "no name" : "a NUL in its name");
			goto fail;
		}
		if ((f[i].name = malloc((size_t)nl + 1)) == NULL) {
			snprintf(why, wlen, "out of memory");
			goto fail;
		}
		memcpy(f[i].name, p, nl);
		f[i].name[nl] = '\0';
		f[i].data = p + nl;
		f[i].len = dl;
		p += (size_t)nl + dl;
	}
	if (p != end) {
		snprintf(why, wlen, "%zu bytes after the last file",
		    (size_t)(end - p));
		goto fail;
	}
	*files = f;
	*n = count;
	return 0;
short_body:
	snprintf(why, wlen, "the body ends inside file %zu", i + 1);
fail:
	for (i = 0; i < count; i++)
		free(f[i].name); /* calloc'd: NULL past those read */
	free(f);
	return -1;
}

/* The model's format by its name's suffix. */
static int
upload_format(const char *name)
{
	const char *dot = strrchr(name, '.');

	if (dot == NULL || strchr(dot, '/') != NULL)
		return HXD_FORMAT_AUTO;
	if (strcasecmp(dot, ".xml") == 0)
		return HXD_FORMAT_MJCF;
	if (strcasecmp(dot, ".urdf") == 0)
		return HXD_FORMAT_URDF;
	if (strcasecmp(dot, ".mjb") == 0)
		return HXD_FORMAT_MJB;
	return HXD_FORMAT_AUTO;
}

/* The model's name: its file's, without the directory and the suffix. */
static void
upload_model_name(const char *file, char *name, size_t len)
{
	const char *base = strrchr(file, '/'), *dot;

	base = base != NULL ? base + 1 : file;
	dot = strrchr(base, '.');
	snprintf(name, len, "%.*s",
	    dot != NULL && dot != base ? (int)(dot - base) : (int)strlen(base),
	    base);
}

/* The HTTP answer to a load the daemon refused, by its result. */
static void
upload_refused(struct evhttp_request *req, int rc, const char *text)
{
	if (rc == HXD_DENIED)
		reply_error(req, 403, "Forbidden", text);
	else if (rc == HXD_BADVALUE || rc == HXD_BADSIZE)
		reply_error(req, HTTP_BADREQUEST, "Bad Request", text);
	else
		reply_error(req, 409, "Conflict", text);
}

/*
 * Load the parsed files: the first the model, the others its assets.
 * Answers the request.
 */
static void
upload_load(struct http_server *srv, struct evhttp_request *req,
    const struct upload_file *f, size_t n, size_t body)
{
	hxd_conn *c = view_conn(srv->v);
	hxd_asset *assets = NULL;
	struct evbuffer *b;
	char name[256], text[600];
	hxd_status st;
	size_t i, frame;
	hxd_model m;
	int rc;

	/*
	 * A frame past the daemon's limit would end hxview's connection:
	 * refuse it here, in the daemon's words of its limit.
	 */
	frame = body + UPLOAD_FRAME_PER_FILE * n + UPLOAD_FRAME_OVERHEAD;
	if (hxd_status_get(c, &st) != HXD_OK) {
		reply_error(
		    req, HTTP_SERVUNAVAIL, "Service Unavailable", hxd_error(c));
		return;
	}
	if (st.limits.max_frame > 0 && frame > st.limits.max_frame) {
		snprintf(text, sizeof(text),
		    "the model and its %zu files make a request of about %zu "
		    "bytes; the server takes at most %llu (haptixd "
		    "--max-frame)",
		    n - 1, frame, st.limits.max_frame);
		reply_error(req, 413, "Payload Too Large", text);
		return;
	}
	if (n > 1 && (assets = calloc(n - 1, sizeof(*assets))) == NULL) {
		evhttp_send_error(req, HTTP_INTERNAL, NULL);
		return;
	}
	for (i = 1; i < n; i++) {
		assets[i - 1].name = f[i].name;
		assets[i - 1].data = f[i].data;
		assets[i - 1].len = f[i].len;
	}
	upload_model_name(f[0].name, name, sizeof(name));
	rc = hxd_load_inline_assets(c, upload_format(f[0].name), f[0].data,
	    f[0].len, name, assets, (int)(n - 1), &m);
	free(assets);
	if (rc != HXD_OK) {
		program_warn("serve: the upload of %s (%zu bytes, %zu file%s) "
			     "did not load: %s",
		    f[0].name, body, n - 1, n == 2 ? "" : "s", hxd_error(c));
		upload_refused(req, rc, hxd_error(c));
		return;
	}
	program_warn("serve: loaded %s (%zu bytes, %zu file%s) as \"%s\"",
	    f[0].name, body, n - 1, n == 2 ? "" : "s", m.name);
	if ((b = evbuffer_new()) == NULL) {
		evhttp_send_error(req, HTTP_INTERNAL, NULL);
		return;
	}
	evbuffer_add_printf(b, "{\"ok\":true,\"name\":\"");
	reply_json_string(b, m.name);
	evbuffer_add_printf(
	    b, "\",\"files\":%zu,\"bytes\":%zu}\n", n - 1, body);
	reply_send(req, HTTP_OK, "OK", "application/json", b);
	evbuffer_free(b);
}

int
upload_allowed(struct http_server *srv, struct evhttp_request *req, size_t len)
{
	char why[300];

	if (guard_control(req))
		return -1;
	if (srv->h->read_only) {
		reply_error(req, 403, "Forbidden",
		    "this viewer is read-only (hxview serve --read-only)");
		return -1;
	}
	if (guard_token(srv, req))
		return -1;
	if (!http_takes_uploads(srv->h)) {
		reply_error(req, 403, "Forbidden",
		    "this viewer takes no uploads (hxview serve --max-upload "
		    "0)");
		return -1;
	}
	if (len > srv->h->max_upload) {
		snprintf(why, sizeof(why),
		    "an upload is at most %zu bytes (hxview serve "
		    "--max-upload)",
		    srv->h->max_upload);
		reply_error(req, 413, "Payload Too Large", why);
		return -1;
	}
	return 0;
}

void
upload_route(
    struct http_server *srv, struct evhttp_request *req, const char *path)
{
	struct evbuffer *in = evhttp_request_get_input_buffer(req);
	size_t len = evbuffer_get_length(in), n = 0, i;
	struct upload_file *files = NULL;
	const unsigned char *body;
	char why[300];

	(void)path;
	if (upload_allowed(srv, req, len) != 0)
		return;
	if ((body = evbuffer_pullup(in, -1)) == NULL && len > 0) {
		evhttp_send_error(req, HTTP_INTERNAL, NULL);
		return;
	}
	if (upload_parse(body, len, &files, &n, why, sizeof(why)) != 0) {
		reply_error(req, HTTP_BADREQUEST, "Bad Request", why);
		return;
	}
	upload_load(srv, req, files, n, len);
	for (i = 0; i < n; i++)
		free(files[i].name);
	free(files);
}
