/*
 * GET /export.html: a stretch of a recording or of the live run's
 * history as one self-contained page that plays and scrubs with no
 * server, from file:// too (docs/recording.md): Debian's three.min.js,
 * the model's description, meshes and textures, the frames (as the
 * event stream carries them, computed here from each record or kept
 * state) and the workbench's own scene code, made one classic script
 * (file:// pages may not load ES modules): state.js, net.js, shapes.js,
 * view.js and scene.js with their import lines and export words taken
 * out, and player.js.  The answer's X-Export-Frames and Content-Length
 * say what it holds.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include "hxview_http.h"

/* The workbench's modules the player takes, in the order they need. */
static const char *const export_modules[] = { "state.js", "net.js", "shapes.js",
	"view.js", "scene.js" };

/* The most textures a page carries. */
#define EXPORT_MAX_TEXTURES 1000

/* Copy the file path into out; 0, or -1 with errno. */
static int
export_file(FILE *out, const char *path)
{
	char buf[65536];
	size_t n;
	FILE *f;

	if ((f = fopen(path, "r")) == NULL)
		return -1;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, n, out);
	n = (size_t)ferror(f);
	fclose(f);
	return n ? -1 : 0;
}

/*
 * A module as plain script: its import statements (to their ';') out,
 * and the word export before a declaration.  0, or -1 with errno.
 */
static int
export_module(FILE *out, const char *path)
{
	char *line = NULL;
	size_t cap = 0;
	int importing = 0, rc;
	FILE *f;

	if ((f = fopen(path, "r")) == NULL)
		return -1;
	while (getline(&line, &cap, f) > 0) {
		if (importing || strncmp(line, "import ", 7) == 0) {
			importing = strchr(line, ';') == NULL;
			continue;
		}
		fputs(strncmp(line, "export ", 7) == 0 ? line + 7 : line, out);
	}
	rc = ferror(f) ? -1 : 0;
	free(line);
	fclose(f);
	return rc;
}

/* JSON text into out with "</" as "<\/", so that no script ends early. */
static void
export_json(FILE *out, const char *text, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (text[i] == '/' && i > 0 && text[i - 1] == '<')
			fputc('\\', out);
		fputc(text[i], out);
	}
}

/* What fn writes of the view, as JSON, into out; 0, or -1. */
static int
export_made(FILE *out, int (*fn)(struct view *, FILE *), struct view *v)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int rc;

	if ((f = open_memstream(&text, &len)) == NULL)
		return -1;
	rc = fn(v, f);
	fclose(f);
	if (rc == 0)
		export_json(out, text, len);
	free(text);
	return rc;
}

/* The meshes (base64) and the textures (PNG data URLs by id). */
static int
export_assets(FILE *out, struct view *v)
{
	char *bin = NULL;
	size_t len = 0;
	FILE *f;
	int id, rc, n = 0;

	if ((f = open_memstream(&bin, &len)) == NULL)
		return -1;
	rc = web_meshes(v, f);
	fclose(f);
	if (rc == 0) {
		fputs(",\"meshes\":\"", out);
		web_base64(out, bin, len);
		fputs("\",\"textures\":{", out);
	}
	free(bin);
	for (id = 0; rc == 0 && id < EXPORT_MAX_TEXTURES; id++) {
		bin = NULL;
		len = 0;
		if ((f = open_memstream(&bin, &len)) == NULL)
			return -1;
		if (web_texture(v, id, f) != 0) {
			fclose(f);
			free(bin);
			break;
		}
		fclose(f);
		fprintf(out, "%s\"%d\":\"data:image/png;base64,",
		    n++ ? "," : "", id);
		web_base64(out, bin, len);
		fputc('"', out);
		free(bin);
	}
	if (rc == 0)
		fputc('}', out);
	return rc;
}

/* The page, around frames (n of them, JSON objects with commas). */
static int
export_page(struct http_server *srv, FILE *out, const struct export_range *rg,
    const char *frames, size_t flen, int n)
{
	char path[2048];
	size_t i;

	fputs(
	    "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	    "\n<title>",
	    out);
	for (i = 0; rg->title[i] != '\0'; i++)
		if (rg->title[i] == '<' || rg->title[i] == '&')
			fprintf(out, "&#%d;", rg->title[i]);
		else
			fputc(rg->title[i], out);
	fputs("</title>\n<style>\n"
	      "body{margin:0;background:#1d1f21;color:#ddd;font:12px "
	      "sans-serif;overflow:hidden}\n"
	      "#view{position:absolute;left:0;top:0;width:100%;height:100%}\n"
	      "#bar{position:absolute;left:8px;right:8px;bottom:8px;display:"
	      "flex;gap:6px;align-items:center;background:rgba(20,22,26,.85);"
	      "padding:4px 6px;font:11px monospace}\n"
	      "#range{flex:1}\n#status{position:absolute;top:4px;left:8px;"
	      "font:11px monospace;color:#aaa}\n"
	      "</style></head><body>\n<canvas id=\"view\"></canvas>\n"
	      "<div id=\"status\"></div>\n<div id=\"bar\"><button id=\"play\">"
	      "Play</button><input id=\"range\" type=\"range\" min=\"0\" "
	      "max=\"0\" step=\"1\" value=\"0\"><span id=\"time\"></span>"
	      "<select id=\"speed\"><option value=\"0.25\">x1/4</option>"
	      "<option value=\"0.5\">x1/2</option><option value=\"1\" "
	      "selected>x1</option><option value=\"2\">x2</option><option "
	      "value=\"4\">x4</option></select></div>\n<script>\n",
	    out);
	if (export_file(out, srv->three) != 0)
		return -1;
	fputs("\n</script>\n<script>\nwindow.HXEXPORT = {\"title\":", out);
	json_string(out, rg->title);
	fputs(",\"model\":", out);
	if (export_made(out, web_describe, srv->v) != 0 ||
	    export_assets(out, srv->v) != 0)
		return -1;
	fprintf(out, ",\"nframes\":%d,\"frames\":[", n);
	export_json(out, frames, flen);
	fputs("]};\n</script>\n<script>\n(function () {\n'use strict';\n", out);
	for (i = 0; i < sizeof(export_modules) / sizeof(export_modules[0]);
	     i++) {
		snprintf(path, sizeof(path), "%s/%s", srv->assets,
		    export_modules[i]);
		if (export_module(out, path) != 0)
			return -1;
	}
	snprintf(path, sizeof(path), "%s/player.js", srv->assets);
	if (export_file(out, path) != 0)
		return -1;
	fputs("})();\n</script>\n</body></html>\n", out);
	return ferror(out) ? -1 : 0;
}

/* A whole number argument, or dflt when absent; -1 when bad. */
static int
export_number(struct evkeyvalq *args, const char *key, double dflt, double max,
    double *out)
{
	const char *v = evhttp_find_header(args, key);
	char *end;

	*out = dflt;
	if (v == NULL)
		return 0;
	*out = strtod(v, &end);
	return v[0] >= '0' && v[0] <= '9' && *end == '\0' && *out <= max ? 0 :
									   -1;
}

void
export_route(
    struct http_server *srv, struct evhttp_request *req, const char *path)
{
	const char *q = evhttp_uri_get_query(
	    evhttp_request_get_evhttp_uri(req));
	struct export_range rg = { 0, 0, 30, "" };
	struct evkeyvalq args;
	struct evbuffer *b;
	char *frames = NULL, *page = NULL, err[512] = "", count[32];
	size_t flen = 0, plen = 0;
	double from, to, fps;
	const char *file;
	FILE *f;
	int n, code = HTTP_INTERNAL;

	(void)path;
	if (q == NULL || evhttp_parse_query_str(q, &args) != 0) {
		reply_error(req, HTTP_BADREQUEST, "Bad Request",
		    "give file=NAME (a recording) or history=1");
		return;
	}
	file = evhttp_find_header(&args, "file");
	if ((file == NULL && evhttp_find_header(&args, "history") == NULL) ||
	    export_number(&args, "from", 0, 4e9, &from) != 0 ||
	    export_number(&args, "to", 4e9, 4e9, &to) != 0 ||
	    export_number(&args, "fps", 30, 1000, &fps) != 0) {
		evhttp_clear_headers(&args);
		reply_error(req, HTTP_BADREQUEST, "Bad Request",
		    "give file=NAME (a recording) or history=1, and from, to "
		    "(records or kept states, from 0) and fps (at most 1000; "
		    "0: every one) as numbers");
		return;
	}
	rg.from = (unsigned long)from;
	rg.to = (unsigned long)to;
	rg.fps = fps;
	if ((f = open_memstream(&frames, &flen)) == NULL) {
		evhttp_clear_headers(&args);
		evhttp_send_error(req, HTTP_INTERNAL, NULL);
		return;
	}
	n = file != NULL ?
	    replay_export(srv->v, file, &rg, f, &code, err, sizeof(err)) :
	    history_export(srv->v, &rg, f, &code, err, sizeof(err));
	fclose(f);
	evhttp_clear_headers(&args);
	if (n >= 0 && (f = open_memstream(&page, &plen)) != NULL) {
		if (export_page(srv, f, &rg, frames, flen, n) != 0) {
			snprintf(err, sizeof(err), "cannot write the page: %s",
			    strerror(errno));
			n = -1;
		}
		fclose(f);
	}
	free(frames);
	if (n < 0 || page == NULL) {
		free(page);
		reply_error(req, code,
		    code == HTTP_NOTFOUND       ? "Not Found" :
			code == HTTP_BADREQUEST ? "Bad Request" :
			code == 409             ? "Conflict" :
						  "Internal Server Error",
		    err[0] != '\0' ? err : "out of memory");
		return;
	}
	if ((b = evbuffer_new()) == NULL) {
		free(page);
		evhttp_send_error(req, HTTP_INTERNAL, NULL);
		return;
	}
	snprintf(count, sizeof(count), "%d", n);
	evhttp_add_header(
	    evhttp_request_get_output_headers(req), "X-Export-Frames", count);
	evbuffer_add(b, page, plen);
	free(page);
	reply_send(req, HTTP_OK, "OK", "text/html; charset=utf-8", b);
	evbuffer_free(b);
}
