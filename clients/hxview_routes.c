/*
 * hxview serve: the routes, a table of paths and methods with a handler
 * each, and the handlers: the workbench's files (a table of their own),
 * the scene for the page, the picture, the state, and the controls
 * (whose table is hxview_control.c's).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/queue.h>
#include <sys/stat.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include "hxview_control.h"
#include "hxview_http.h"
#include "program.h"

/* The methods a page's GET routes take. */
#define ROUTE_GET (EVHTTP_REQ_GET | EVHTTP_REQ_HEAD)

/*
 * Files of the workbench, and the page's name for each: one row a
 * file, { URL path, file, content type }.
 */
static const struct route_asset {
	const char *path; /* the URL */
	const char *file; /* in the assets directory, or libjs-three's */
	const char *type;
	int three; /* libjs-three's: three.js (file NULL), or beside it */
} route_assets[] = {
	{ "/", "index.html", "text/html; charset=utf-8", 0 },
	{ "/index.html", "index.html", "text/html; charset=utf-8", 0 },
	{ "/workbench.js", "workbench.js", "text/javascript; charset=utf-8",
	    0 },
	{ "/state.js", "state.js", "text/javascript; charset=utf-8", 0 },
	{ "/net.js", "net.js", "text/javascript; charset=utf-8", 0 },
	{ "/shapes.js", "shapes.js", "text/javascript; charset=utf-8", 0 },
	{ "/scene.js", "scene.js", "text/javascript; charset=utf-8", 0 },
	{ "/view.js", "view.js", "text/javascript; charset=utf-8", 0 },
	{ "/input.js", "input.js", "text/javascript; charset=utf-8", 0 },
	{ "/panels.js", "panels.js", "text/javascript; charset=utf-8", 0 },
	{ "/sliders.js", "sliders.js", "text/javascript; charset=utf-8", 0 },
	{ "/plot.js", "plot.js", "text/javascript; charset=utf-8", 0 },
	{ "/watch.js", "watch.js", "text/javascript; charset=utf-8", 0 },
	{ "/physics.js", "physics.js", "text/javascript; charset=utf-8", 0 },
	{ "/upload.js", "upload.js", "text/javascript; charset=utf-8", 0 },
	{ "/render.js", "render.js", "text/javascript; charset=utf-8", 0 },
	{ "/timeline.js", "timeline.js", "text/javascript; charset=utf-8", 0 },
	{ "/replay.js", "replay.js", "text/javascript; charset=utf-8", 0 },
	{ "/workbench.css", "workbench.css", "text/css; charset=utf-8", 0 },
	{ "/three.min.js", NULL, "text/javascript; charset=utf-8", 1 },
	/* Reflections (render.js loads it when a model has them). */
	{ "/Reflector.js", "examples/js/objects/Reflector.js",
	    "text/javascript; charset=utf-8", 1 },
};

/*
 * The page of /picture, a printf format: width, height, and " hidden"
 * when read-only.
 */
#define ROUTE_PICTURE_PAGE \
	"<!DOCTYPE html>\n" \
	"<html lang=\"en\"><head><meta charset=\"utf-8\">\n" \
	"<title>hxview</title>\n" \
	"<style>\n" \
	"body{background:#1d1f21;color:#ddd;font:14px sans-serif;margin:1em}\n" \
	"img{display:block;max-width:100%%;background:#000}\n" \
	"button{font:inherit;margin:.5em .5em .5em 0;padding:.3em 1em}\n" \
	"#status{font-family:monospace}\n" \
	"</style></head><body>\n" \
	"<img id=\"view\" src=\"/stream.mjpg\" width=\"%d\" height=\"%d\" " \
	"alt=\"the simulation\">\n" \
	"<div id=\"controls\"%s>\n" \
	"<button id=\"pause\" onclick=\"control('pause')\">Pause</button>\n" \
	"<button id=\"run\" onclick=\"control('run')\">Run</button>\n" \
	"<button id=\"reset\" onclick=\"control('reset')\">Reset</button>\n" \
	"</div>\n" \
	"<div id=\"status\">connecting</div>\n" \
	"<script>\n" \
	"function show(s){document.getElementById('status').textContent=s;}\n" \
	"function control(what){\n" \
	" fetch('/control/'+what,{method:'POST',headers:{'X-Hxview':'1'}})\n" \
	"  .then(r=>r.json()).then(j=>{if(j.error)show(what+': '+j.error);})\n" \
	"  .catch(e=>show(what+': '+e));}\n" \
	"function poll(){fetch('/status.json').then(r=>r.json()).then(j=>{\n" \
	" show('time '+j.time.toFixed(3)+' s, step '+j.step+\n" \
	"  (j.paused?', paused':', running')+\n" \
	"  (j.message?', message: '+j.message:''));})\n" \
	" .catch(e=>show('no answer: '+e));}\n" \
	"setInterval(poll,500);poll();\n" \
	"</script></body></html>\n"

/* GET /frame.jpg or /frame.png: the EGL picture of now. */
static void
route_frame(struct http_server *srv, struct evhttp_request *req, int png)
{
	struct evbuffer *b;
	char *data = NULL;
	size_t len = 0;
	FILE *f;

	if (streams_render(srv) != 0) {
		reply_error(req, HTTP_INTERNAL, "Internal Server Error",
		    "cannot encode the frame");
		return;
	}
	if ((b = evbuffer_new()) == NULL) {
		evhttp_send_error(req, HTTP_INTERNAL, NULL);
		return;
	}
	if (png) {
		if ((f = open_memstream(&data, &len)) == NULL ||
		    image_png_write(
			f, srv->rgb, srv->o->width, srv->o->height) != 0) {
			if (f != NULL)
				fclose(f);
			free(data);
			evbuffer_free(b);
			reply_error(req, HTTP_INTERNAL, "Internal Server Error",
			    "cannot encode the frame");
			return;
		}
		fclose(f);
		evbuffer_add(b, data, len);
		free(data);
		reply_send(req, HTTP_OK, "OK", "image/png", b);
	} else {
		evbuffer_add(b, srv->jpeg, srv->jpeg_len);
		reply_send(req, HTTP_OK, "OK", "image/jpeg", b);
	}
	evbuffer_free(b);
}

/* GET /status.json: the simulation's state and the streams. */
static void
route_status(
    struct http_server *srv, struct evhttp_request *req, const char *path)
{
	struct evbuffer *b = evbuffer_new();
	struct http_stream *s;
	hxd_status st;

	if (b == NULL) {
		evhttp_send_error(req, HTTP_INTERNAL, NULL);
		return;
	}
	if (hxd_status_get(view_conn(srv->v), &st) != HXD_OK) {
		evbuffer_free(b);
		reply_error(req, HTTP_SERVUNAVAIL, "Service Unavailable",
		    hxd_error(view_conn(srv->v)));
		return;
	}
	evbuffer_add_printf(b,
	    "{\"time\":%.17g,\"step\":%llu,\"paused\":%s,"
	    "\"realtime_factor\":%.6g,\"frames\":%llu,\"message\":\"",
	    st.time, st.steps, st.paused ? "true" : "false",
	    isfinite(st.realtime_factor) ? st.realtime_factor : 0, srv->frames);
	reply_json_string(b, st.message);
	evbuffer_add_printf(b, "\",\"streams\":[");
	TAILQ_FOREACH(s, &srv->streams, entry)
	{
		evbuffer_add_printf(b,
		    "%s{\"kind\":\"%s\",\"id\":%u,\"seconds\":%.3f,"
		    "\"bytes\":%llu,\"frames\":%llu,\"skipped\":%llu}",
		    s == TAILQ_FIRST(&srv->streams) ? "" : ",",
		    s->events ? "events" : "mjpeg", s->id,
		    program_now() - s->started, s->bytes, s->frames,
		    s->skipped);
	}
	evbuffer_add_printf(b, "]}\n");
	reply_send(req, HTTP_OK, "OK", "application/json", b);
	evbuffer_free(b);
}

/* A request's argument, from its query or its form body. */
static const char *
route_arg(void *args, const char *name)
{
	return evhttp_find_header(args, name);
}

/*
 * Read a control's arguments into args: the query's, else the form's in
 * the body.  0, or -1 having answered 400.
 */
static int
route_control_args(struct evhttp_request *req, struct evkeyvalq *args)
{
	struct evbuffer *body = evhttp_request_get_input_buffer(req);
	const char *query;
	char form[HTTP_MAX_BODY + 1];
	size_t n = evbuffer_get_length(body);
	int rc;

	TAILQ_INIT(args);
	query = evhttp_uri_get_query(evhttp_request_get_evhttp_uri(req));
	if (query != NULL && query[0] != '\0') {
		rc = evhttp_parse_query_str(query, args);
	} else {
		n = evbuffer_remove(
		    body, form, n < HTTP_MAX_BODY ? n : HTTP_MAX_BODY);
		form[n > 0 ? n : 0] = '\0';
		rc = evhttp_parse_query_str(form, args);
	}
	if (rc == 0)
		return 0;
	evhttp_clear_headers(args);
	reply_error(req, HTTP_BADREQUEST, "Bad Request",
	    "the arguments are not a query string");
	return -1;
}

/*
 * GET /physics.json: every mjOption field the server offers as an array
 * (opt.*, list_arrays), read in one compute request: the Physics panel's
 * values, with whether each may be written and why not.
 */
static void
route_physics(
    struct http_server *srv, struct evhttp_request *req, const char *path)
{
	hxd_conn *c = view_conn(srv->v);
	hxd_array *list = NULL;
	hxd_query *q = NULL;
	hxd_qresult *r = NULL;
	const char **names = NULL;
	struct evbuffer *b = NULL;
	int n, i, k = 0;
	size_t j;

	(void)path;
	if (hxd_list_arrays(c, &list, &n) != HXD_OK) {
		reply_error(
		    req, HTTP_SERVUNAVAIL, "Service Unavailable", hxd_error(c));
		return;
	}
	q = calloc((size_t)n + 1, sizeof(*q));
	names = calloc((size_t)n + 1, sizeof(*names));
	if (q == NULL || names == NULL || (b = evbuffer_new()) == NULL)
		goto fail;
	for (i = 0; i < n; i++) {
		if (strncmp(list[i].name, "opt.", 4) != 0)
			continue;
		names[k] = list[i].name;
		q[k].kind = HXD_COMPUTE_ARRAY;
		q[k].names = &names[k];
		q[k].nnames = 1;
		k++;
	}
	if (k > 0 && hxd_compute(c, q, k, NULL, 0, 1, &r) != HXD_OK) {
		reply_error(
		    req, HTTP_SERVUNAVAIL, "Service Unavailable", hxd_error(c));
		goto out;
	}
	evbuffer_add_printf(b, "{\"fields\":[");
	for (i = 0, k = 0; i < n; i++) {
		if (strncmp(list[i].name, "opt.", 4) != 0)
			continue;
		evbuffer_add_printf(b, "%s{\"name\":\"", k ? "," : "");
		reply_json_string(b, list[i].name);
		evbuffer_add_printf(b,
		    "\",\"type\":%d,\"writable\":%s,\"refusal\":\"",
		    list[i].type, list[i].writable ? "true" : "false");
		reply_json_string(b, list[i].refusal);
		evbuffer_add_printf(b, "\",\"values\":[");
		for (j = 0; j < r[k].nvalues; j++)
			evbuffer_add_printf(
			    b, "%s%.17g", j ? "," : "", r[k].values[j]);
		evbuffer_add_printf(b, "]}");
		k++;
	}
	evbuffer_add_printf(b, "]}\n");
	reply_send(req, HTTP_OK, "OK", "application/json", b);
	goto out;
fail:
	evhttp_send_error(req, HTTP_INTERNAL, NULL);
out:
	if (b != NULL)
		evbuffer_free(b);
	hxd_qresults_free(r, k);
	free(q);
	free(names);
	free(list);
}

/* The most values /watch.json sends of a whole array. */
#define WATCH_MAX_VALUES 4096

/* Answer a watch of field (index i, or every value if i < 0) from r. */
static void
watch_reply(
    struct evhttp_request *req, const char *field, long i, const hxd_qresult *r)
{
	struct evbuffer *b;
	size_t k;

	if (r->ndim != 2 || (i >= 0 && (size_t)i >= r->nvalues)) {
		reply_error(req, HTTP_NOTFOUND, "Not Found",
		    r->ndim == 2 ? "index beyond the array" : "not an array");
		return;
	}
	if ((b = evbuffer_new()) == NULL) {
		evhttp_send_error(req, HTTP_INTERNAL, NULL);
		return;
	}
	evbuffer_add_printf(b, "{\"field\":\"");
	reply_json_string(b, field);
	evbuffer_add_printf(
	    b, "\",\"rows\":%d,\"cols\":%d", r->shape[0], r->shape[1]);
	if (i >= 0)
		evbuffer_add_printf(b, ",\"index\":%ld,\"value\":%.17g", i,
		    isfinite(r->values[i]) ? r->values[i] : 0);
	else {
		evbuffer_add_printf(b, ",\"values\":[");
		for (k = 0; k < r->nvalues && k < WATCH_MAX_VALUES; k++)
			evbuffer_add_printf(b, "%s%.17g", k ? "," : "",
			    isfinite(r->values[k]) ? r->values[k] : 0);
		evbuffer_add_printf(b, "]");
	}
	evbuffer_add_printf(b, "}\n");
	reply_send(req, HTTP_OK, "OK", "application/json", b);
	evbuffer_free(b);
}

/*
 * GET /watch.json?field=NAME[&index=I]: an mjData (or mjModel) array as
 * the last step left it, read through the daemon's compute call as
 * simulate's Watch reads its mjData: the array's shape, and its value at
 * index I (row-major) or its values.
 */
static void
route_watch(
    struct http_server *srv, struct evhttp_request *req, const char *path)
{
	hxd_conn *c = view_conn(srv->v);
	const char *field, *index, *names[1];
	struct evkeyvalq args;
	hxd_query q = { .kind = HXD_COMPUTE_ARRAY, .nnames = 1 };
	hxd_qresult *r = NULL;
	char *end;
	long i = -1;

	(void)path;
	if (route_control_args(req, &args) != 0)
		return;
	field = route_arg(&args, "field");
	index = route_arg(&args, "index");
	if (field == NULL || field[0] == '\0') {
		evhttp_clear_headers(&args);
		reply_error(req, HTTP_BADREQUEST, "Bad Request",
		    "give field=NAME: an mjData array by MuJoCo's name");
		return;
	}
	if (index != NULL && index[0] != '\0') {
		i = strtol(index, &end, 10);
		if (*end != '\0' || i < 0) {
			evhttp_clear_headers(&args);
			reply_error(req, HTTP_BADREQUEST, "Bad Request",
			    "index is a number from 0");
			return;
		}
	}
	names[0] = field;
	q.names = names;
	if (hxd_compute(c, &q, 1, NULL, 0, 1, &r) != HXD_OK) {
		evhttp_clear_headers(&args);
		reply_call_failed(req, c, HXD_BADTYPE);
		return;
	}
	watch_reply(req, field, i, r);
	evhttp_clear_headers(&args);
	hxd_qresults_free(r, 1);
}

/*
 * Find the control NAME's row; -1 having answered 404 (with the
 * controls' names) or 403 (a write on a read-only viewer).
 */
static int
route_control_find(
    struct http_server *srv, struct evhttp_request *req, const char *what)
{
	char *names = NULL;
	size_t len = 0;
	int row, writes;
	FILE *f;

	if ((row = control_find(what, &writes)) < 0) {
		if ((f = open_memstream(&names, &len)) != NULL) {
			fputs("no such control: ", f);
			control_names(f);
			fclose(f);
		}
		reply_error(req, HTTP_NOTFOUND, "Not Found",
		    names != NULL ? names : "no such control");
		free(names);
		return -1;
	}
	if (srv->h->read_only && writes) {
		reply_error(req, 403, "Forbidden",
		    "this viewer is read-only (hxview serve --read-only)");
		return -1;
	}
	return row;
}

/* Answer a control's call: its result's members, or its error. */
static void
route_control_answer(struct evhttp_request *req, int rc,
    const struct control_req *r, const char *extra)
{
	struct evbuffer *b;

	if (rc == CONTROL_BAD)
		reply_error(req, HTTP_BADREQUEST, "Bad Request", r->err);
	else if (rc == CONTROL_DENIED)
		reply_error(req, 403, "Forbidden", r->err);
	else if (rc != CONTROL_OK)
		reply_error(req, 409, "Conflict", r->err);
	else if ((b = evbuffer_new()) == NULL)
		evhttp_send_error(req, HTTP_INTERNAL, NULL);
	else {
		evbuffer_add_printf(
		    b, "{\"ok\":true%s}\n", extra != NULL ? extra : "");
		reply_send(req, HTTP_OK, "OK", "application/json", b);
		evbuffer_free(b);
	}
}

/*
 * POST /control/NAME from the workbench: every one must carry the
 * page's header (X-Hxview: 1), a Host of ours (checked for every
 * request) and an Origin of ours when a browser sends one; beyond
 * loopback, the daemon's token too (hxview_guard.c).  Arguments come
 * in the query or as a form in the body; a page names its event stream
 * (id), whose perturbation the control works on.
 */
static void
route_control(
    struct http_server *srv, struct evhttp_request *req, const char *what)
{
	struct evkeyvalq args;
	struct control_req r;
	struct http_stream *st;
	char *extra = NULL;
	size_t elen = 0;
	int row, rc;

	if (guard_control(req) ||
	    (row = route_control_find(srv, req, what)) < 0 ||
	    guard_token(srv, req) || route_control_args(req, &args) != 0)
		return;
	memset(&r, 0, sizeof(r));
	r.v = srv->v;
	r.c = view_conn(srv->v);
	r.arg = route_arg;
	r.args = &args;
	st = streams_by_id(srv, evhttp_find_header(&args, "id"));
	r.pert = st != NULL ? st->pert : NULL;
	if ((r.out = open_memstream(&extra, &elen)) == NULL) {
		evhttp_clear_headers(&args);
		evhttp_send_error(req, HTTP_INTERNAL, NULL);
		return;
	}
	rc = control_call(row, &r);
	fclose(r.out);
	if (rc == CONTROL_OK && r.reframe) {
		/* The pages' next frames show it, paused or not. */
		srv->fresh = 0;
		srv->seq++;
	}
	evhttp_clear_headers(&args);
	route_control_answer(req, rc, &r, extra);
	free(extra);
}

/* Answer with what f's writer wrote, or an error. */
static void
route_made(struct evhttp_request *req, const char *type,
    int (*make)(struct view *, FILE *), struct view *v)
{
	struct evbuffer *b;
	char *data = NULL;
	size_t len = 0;
	FILE *f;
	int rc;

	if ((f = open_memstream(&data, &len)) == NULL) {
		evhttp_send_error(req, HTTP_INTERNAL, NULL);
		return;
	}
	rc = make(v, f);
	if (fclose(f) != 0 || rc != 0 || (b = evbuffer_new()) == NULL) {
		free(data);
		reply_error(req, HTTP_INTERNAL, "Internal Server Error",
		    "cannot describe the scene");
		return;
	}
	evbuffer_add(b, data, len);
	free(data);
	reply_send(req, HTTP_OK, "OK", type, b);
	evbuffer_free(b);
}

/* GET /texture/N.png: a texture of the model, for the page's materials. */
static void
route_texture(
    struct http_server *srv, struct evhttp_request *req, const char *name)
{
	struct evbuffer *b;
	char *data = NULL, *end;
	size_t len = 0;
	long id;
	FILE *f;
	int rc;

	id = strtol(name, &end, 10);
	if (end == name || strcmp(end, ".png") != 0 ||
	    (f = open_memstream(&data, &len)) == NULL) {
		reply_error(req, HTTP_NOTFOUND, "Not Found", "no such texture");
		return;
	}
	rc = web_texture(srv->v, (int)id, f);
	if (fclose(f) != 0 || rc != 0 || (b = evbuffer_new()) == NULL) {
		free(data);
		reply_error(req, HTTP_NOTFOUND, "Not Found", "no such texture");
		return;
	}
	evbuffer_add(b, data, len);
	free(data);
	reply_send(req, HTTP_OK, "OK", "image/png", b);
	evbuffer_free(b);
}

/* Is name a model file the server could load (by its extension)? */
static int
route_model_file(const char *name)
{
	const char *dot = strrchr(name, '.');

	return name[0] != '.' && dot != NULL &&
	    (strcasecmp(dot, ".xml") == 0 || strcasecmp(dot, ".mjb") == 0 ||
		strcasecmp(dot, ".urdf") == 0);
}

/*
 * GET /models.json: the server's model directories and, where hxview
 * can read them (it runs on the server's machine), their model files.
 */
static void
route_models(
    struct http_server *srv, struct evhttp_request *req, const char *path)
{
	hxd_conn *c = view_conn(srv->v);
	struct dirent *e;
	struct evbuffer *b;
	char **dirs = NULL, *text = NULL;
	size_t len = 0;
	int i, n;
	FILE *f;
	DIR *d;

	if (hxd_model_dirs(c, NULL, &dirs, NULL) != HXD_OK) {
		reply_error(
		    req, HTTP_SERVUNAVAIL, "Service Unavailable", hxd_error(c));
		return;
	}
	if ((f = open_memstream(&text, &len)) == NULL) {
		free(dirs);
		evhttp_send_error(req, HTTP_INTERNAL, NULL);
		return;
	}
	fputs("{\"dirs\":[", f);
	for (i = 0; dirs[i] != NULL; i++) {
		fprintf(f, "%s{\"dir\":", i > 0 ? "," : "");
		json_string(f, dirs[i]);
		fputs(",\"files\":[", f);
		n = 0;
		if ((d = opendir(dirs[i])) != NULL) {
			while ((e = readdir(d)) != NULL && n < 1000) {
				if (!route_model_file(e->d_name))
					continue;
				if (n++ > 0)
					fputc(',', f);
				json_string(f, e->d_name);
			}
			closedir(d);
		}
		fputs("]}", f);
	}
	fputs("]}\n", f);
	free(dirs);
	if (fclose(f) != 0 || (b = evbuffer_new()) == NULL) {
		free(text);
		evhttp_send_error(req, HTTP_INTERNAL, NULL);
		return;
	}
	evbuffer_add(b, text, len);
	free(text);
	reply_send(req, HTTP_OK, "OK", "application/json", b);
	evbuffer_free(b);
}

/* GET a file of the workbench, or three.js, from disk. */
static void
route_asset(struct http_server *srv, struct evhttp_request *req,
    const struct route_asset *a)
{
	const char *three = srv->three;
	const char *slash = strrchr(three, '/');
	char path[2048], text[2300];
	struct evbuffer *b;
	struct stat st;
	int fd;

	if (!a->three)
		snprintf(path, sizeof(path), "%s/%s", srv->assets, a->file);
	else if (a->file == NULL)
		snprintf(path, sizeof(path), "%s", three);
	else
		snprintf(path, sizeof(path), "%.*s/%s",
		    slash != NULL ? (int)(slash - three) : 1,
		    slash != NULL ? three : ".", a->file);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1 ||
	    fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		snprintf(text, sizeof(text), "cannot read %s: %s%s", path,
		    strerror(errno),
		    a->three ? " (Debian package libjs-three)" : "");
		if (fd != -1)
			close(fd);
		program_warn("serve: %s", text);
		reply_error(req, HTTP_NOTFOUND, "Not Found", text);
		return;
	}
	if ((b = evbuffer_new()) == NULL ||
	    evbuffer_add_file(b, fd, 0, st.st_size) != 0) {
		if (b != NULL)
			evbuffer_free(b);
		else
			close(fd);
		evhttp_send_error(req, HTTP_INTERNAL, NULL);
		return;
	}
	reply_send(req, HTTP_OK, "OK", a->type, b);
	evbuffer_free(b);
}

/* GET /picture: the MJPEG stream's page, with its buttons. */
static void
route_picture(
    struct http_server *srv, struct evhttp_request *req, const char *path)
{
	struct evbuffer *b = evbuffer_new();

	if (b == NULL) {
		evhttp_send_error(req, HTTP_INTERNAL, NULL);
		return;
	}
	evbuffer_add_printf(b, ROUTE_PICTURE_PAGE, srv->o->width,
	    srv->o->height, srv->h->read_only ? " hidden" : "");
	reply_send(req, HTTP_OK, "OK", "text/html; charset=utf-8", b);
	evbuffer_free(b);
}

/* GET /events: the page's event stream. */
static void
route_events(
    struct http_server *srv, struct evhttp_request *req, const char *path)
{
	streams_start(srv, req, 1);
}

/* GET /stream.mjpg: the EGL picture as an MJPEG stream. */
static void
route_mjpeg(
    struct http_server *srv, struct evhttp_request *req, const char *path)
{
	streams_start(srv, req, 0);
}

/* GET /scene.json: the model, described for the page. */
static void
route_scene(
    struct http_server *srv, struct evhttp_request *req, const char *path)
{
	route_made(req, "application/json", web_describe, srv->v);
}

/* GET /meshes.bin: the model's meshes. */
static void
route_meshes(
    struct http_server *srv, struct evhttp_request *req, const char *path)
{
	route_made(req, "application/octet-stream", web_meshes, srv->v);
}

/* GET /frame.jpg. */
static void
route_frame_jpeg(
    struct http_server *srv, struct evhttp_request *req, const char *path)
{
	route_frame(srv, req, 0);
}

/* GET /frame.png. */
static void
route_frame_png(
    struct http_server *srv, struct evhttp_request *req, const char *path)
{
	route_frame(srv, req, 1);
}

/*
 * The routes: a path, or the start of one when it ends in '/', the
 * methods it takes and what another method is told, and its handler,
 * given what follows a start (else the whole path).
 */
static const struct route {
	const char *path;
	int methods; /* EVHTTP_REQ_* */
	const char *other;
	void (*handler)(
	    struct http_server *, struct evhttp_request *, const char *);
	int asks; /* asks the server: 503 while it is gone */
} routes[] = {
	{ "/control/", EVHTTP_REQ_POST, "controls take POST", route_control,
	    1 },
	{ "/upload", EVHTTP_REQ_POST, "uploads take POST", upload_route, 1 },
	{ "/picture", ROUTE_GET, "use GET", route_picture, 0 },
	{ "/events", ROUTE_GET, "use GET", route_events, 0 },
	{ "/scene.json", ROUTE_GET, "use GET", route_scene, 0 },
	{ "/meshes.bin", ROUTE_GET, "use GET", route_meshes, 0 },
	{ "/texture/", ROUTE_GET, "use GET", route_texture, 0 },
	{ "/models.json", ROUTE_GET, "use GET", route_models, 1 },
	{ "/stream.mjpg", ROUTE_GET, "use GET", route_mjpeg, 0 },
	{ "/frame.jpg", ROUTE_GET, "use GET", route_frame_jpeg, 0 },
	{ "/frame.png", ROUTE_GET, "use GET", route_frame_png, 0 },
	{ "/status.json", ROUTE_GET, "use GET", route_status, 1 },
	{ "/watch.json", ROUTE_GET, "use GET", route_watch, 1 },
	{ "/physics.json", ROUTE_GET, "use GET", route_physics, 1 },
	{ "/history.json", ROUTE_GET, "use GET", history_route, 1 },
	{ "/recordings.json", ROUTE_GET, "use GET", replay_list_route, 0 },
	{ "/recording.json", ROUTE_GET, "use GET", replay_route, 0 },
	{ "/recording-upload", EVHTTP_REQ_POST, "uploads take POST",
	    replay_upload_route, 0 },
	{ "/export.html", ROUTE_GET, "use GET", export_route, 0 },
};

/* Answer 503 for a route that asks the server while it is gone. */
static int
route_server_gone(struct http_server *srv, struct evhttp_request *req)
{
	char text[900];

	if (!srv->gone)
		return 0;
	snprintf(text, sizeof(text),
	    "the server %s went away (%s); hxview connects again by itself",
	    view_server(srv->v), srv->why);
	reply_error(req, HTTP_SERVUNAVAIL, "Service Unavailable", text);
	return 1;
}

/* The route of path, and in *rest what follows its start; NULL if none. */
static const struct route *
route_find(const char *path, const char **rest)
{
	size_t i, n;
	int start;

	for (i = 0; i < sizeof(routes) / sizeof(routes[0]); i++) {
		n = strlen(routes[i].path);
		start = routes[i].path[n - 1] == '/';
		if (start ? strncmp(path, routes[i].path, n) == 0 :
			    strcmp(path, routes[i].path) == 0) {
			*rest = start ? path + n : path;
			return &routes[i];
		}
	}
	return NULL;
}

/* The workbench's file at path, or NULL. */
static const struct route_asset *
route_asset_find(const char *path)
{
	size_t i;

	for (i = 0; i < sizeof(route_assets) / sizeof(route_assets[0]); i++)
		if (strcmp(path, route_assets[i].path) == 0)
			return &route_assets[i];
	return NULL;
}

/*
 * Every request: refused if it comes from another site, else answered
 * by its route, or with a file of the workbench.
 */
void
route_request(struct evhttp_request *req, void *arg)
{
	struct http_server *srv = arg;
	struct evhttp_uri *u = evhttp_uri_parse(evhttp_request_get_uri(req));
	const char *path = u != NULL ? evhttp_uri_get_path(u) : NULL, *rest;
	enum evhttp_cmd_type cmd = evhttp_request_get_command(req);
	const struct route_asset *a;
	const struct route *r;

	if (path == NULL || path[0] == '\0')
		path = "/";
	r = route_find(path, &rest);
	if (guard_stranger(srv, req)) {
		/* answered */
	} else if (!(r != NULL &&
		       (r->handler == upload_route ||
			   r->handler == replay_upload_route)) &&
	    evbuffer_get_length(evhttp_request_get_input_buffer(req)) >
		HTTP_MAX_BODY) {
		/* evhttp's limit is an upload's when uploads are taken. */
		reply_error(req, 413, "Payload Too Large",
		    "a request's body is at most 4096 bytes (an upload's: "
		    "POST /upload or /recording-upload)");
	} else if (r != NULL) {
		if ((cmd & r->methods) == 0)
			reply_error(req, 405, "Method Not Allowed", r->other);
		else if (!(r->asks && route_server_gone(srv, req)))
			r->handler(srv, req, rest);
	} else if ((cmd & ROUTE_GET) == 0) {
		reply_error(req, 405, "Method Not Allowed", "use GET");
	} else if ((a = route_asset_find(path)) != NULL) {
		route_asset(srv, req, a);
	} else {
		reply_error(req, HTTP_NOTFOUND, "Not Found",
		    "no such page: /, /events, /scene.json, /meshes.bin, "
		    "/texture/N.png, /models.json, /picture, /stream.mjpg, "
		    "/frame.jpg, /frame.png, /status.json, /watch.json or "
		    "/physics.json");
	}
	if (u != NULL)
		evhttp_uri_free(u);
}
