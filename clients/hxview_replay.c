/*
 * Recordings in the workbench (docs/recording.md): GET /recordings.json
 * lists the .hxr files of the daemon's state directories (state_dirs.h);
 * GET /recording.json?file=NAME reads one with the project's recording
 * reader (lib/recording.h) into memory and says what it holds (its
 * model, fields, records, times, and markers where it was reset or the
 * model edited); &record=I answers that record as a frame of the event
 * stream, computed here from its state as for a live one, for the
 * asking browser alone; &sensor=K, the K-th sensor value over the
 * recording's time.  The live simulation is not touched.  The last
 * recordings read stay in memory, within a bound.
 */
#include "config.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include "hxview_http.h"
#include "recording.h"
#include "state_dirs.h"

/* The recordings kept read, and the doubles they may hold together. */
#define REPLAY_KEPT 2
#define REPLAY_MAX_VALUES (32u << 20) /* 256 MiB */
/* The most points of a sensor's series sent. */
#define REPLAY_SERIES_MAX 4000
/* The most markers listed. */
#define REPLAY_MARKERS_MAX 1000

/* One record: its time, step, segment and where its values start. */
struct replay_record {
	double time;
	unsigned long long step;
	unsigned long long segment;
	size_t at;      /* in values */
	unsigned model; /* 0: the file's header's sizes; k: the k-th edit */
};

struct replay_marker {
	size_t record; /* the first record after it */
	double time;
	int edit; /* an edit of the model; else a reset */
};

/* A recording read whole. */
struct replay {
	char file[256];
	struct rec_header head;
	unsigned long long used; /* for keeping the last used */
	struct replay_record *rec;
	size_t nrec, caprec;
	double *values;
	size_t nvalues, capvalues;
	struct rec_header *models; /* the sizes after each edit */
	unsigned nmodels;
	struct replay_marker marks[REPLAY_MARKERS_MAX];
	size_t nmarks;
	int truncated;
};

static struct replay *replay_kept[REPLAY_KEPT];
static unsigned long long replay_clock;

static void
replay_free(struct replay *r)
{
	if (r == NULL)
		return;
	free(r->rec);
	free(r->values);
	free(r->models);
	free(r);
}

/* Whether name is a recording's bare file name. */
static int
replay_name_ok(const char *name)
{
	size_t n = strlen(name);

	return n > 4 && n < sizeof(((struct replay *)0)->file) &&
	    strchr(name, '/') == NULL && name[0] != '.' &&
	    (strcmp(name + n - 4, ".hxr") == 0 ||
		strcmp(name + n - 4, ".mjl") == 0);
}

struct replay_list {
	struct evbuffer *b;
	int ndirs;
};

/* One directory's recordings, as a JSON object of the list. */
static int
replay_list_dir(const char *dir, void *arg)
{
	struct replay_list *l = arg;
	struct dirent *e;
	struct stat st;
	char path[4096];
	DIR *d;
	int n = 0;

	if ((d = opendir(dir)) == NULL)
		return 0;
	evbuffer_add_printf(l->b, "%s{\"dir\":\"", l->ndirs++ ? "," : "");
	reply_json_string(l->b, dir);
	evbuffer_add_printf(l->b, "\",\"files\":[");
	while ((e = readdir(d)) != NULL) {
		if (!replay_name_ok(e->d_name) ||
		    (size_t)snprintf(path, sizeof(path), "%s/%s", dir,
			e->d_name) >= sizeof(path) ||
		    stat(path, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		evbuffer_add_printf(l->b, "%s{\"name\":\"", n++ ? "," : "");
		reply_json_string(l->b, e->d_name);
		evbuffer_add_printf(l->b, "\",\"bytes\":%lld,\"mtime\":%lld}",
		    (long long)st.st_size, (long long)st.st_mtime);
	}
	closedir(d);
	evbuffer_add_printf(l->b, "]}");
	return 0;
}

void
replay_list_route(
    struct http_server *srv, struct evhttp_request *req, const char *path)
{
	struct replay_list l = { NULL, 0 };

	(void)srv;
	(void)path;
	if ((l.b = evbuffer_new()) == NULL) {
		evhttp_send_error(req, HTTP_INTERNAL, NULL);
		return;
	}
	evbuffer_add_printf(l.b, "{\"dirs\":[");
	state_dirs_each(NULL, replay_list_dir, &l);
	evbuffer_add_printf(l.b, "]}\n");
	reply_send(req, HTTP_OK, "OK", "application/json", l.b);
	evbuffer_free(l.b);
}

struct replay_find {
	const char *name;
	char path[4096];
};

static int
replay_find_in(const char *dir, void *arg)
{
	struct replay_find *f = arg;
	struct stat st;

	if ((size_t)snprintf(f->path, sizeof(f->path), "%s/%s", dir, f->name) >=
	    sizeof(f->path))
		return 0;
	return stat(f->path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Room for one more record of n values; 0, or -1 past the bound. */
static int
replay_grow(struct replay *r, size_t n)
{
	void *p;
	size_t cap;

	if (r->nvalues + n > REPLAY_MAX_VALUES)
		return -1;
	if (r->nrec == r->caprec) {
		cap = r->caprec ? 2 * r->caprec : 1024;
		if ((p = realloc(r->rec, cap * sizeof(*r->rec))) == NULL)
			return -1;
		r->rec = p;
		r->caprec = cap;
	}
	if (r->nvalues + n > r->capvalues) {
		cap = r->capvalues ? 2 * r->capvalues : 65536;
		while (cap < r->nvalues + n)
			cap *= 2;
		if ((p = realloc(r->values, cap * sizeof(double))) == NULL)
			return -1;
		r->values = p;
		r->capvalues = cap;
	}
	return 0;
}

/* A model change: its sizes kept, a marker; 0, or -1 out of memory. */
static int
replay_edit(struct replay *r, const struct rec_item *it)
{
	struct rec_header *p;

	if ((p = realloc(r->models, (r->nmodels + 1) * sizeof(*p))) == NULL)
		return -1;
	r->models = p;
	r->models[r->nmodels++] = *it->model;
	if (r->nmarks < REPLAY_MARKERS_MAX)
		r->marks[r->nmarks++] = (struct replay_marker){ r->nrec,
			it->time, 1 };
	return 0;
}

/* The sizes of model k (0: the file's). */
static const struct rec_header *
replay_model(const struct replay *r, unsigned k)
{
	return k == 0 ? &r->head : &r->models[k - 1];
}

/* Keep a state record; 0, or -1 with why. */
static int
replay_state(struct replay *r, const struct rec_item *it, char *err, size_t len)
{
	const struct rec_header *h = replay_model(r, r->nmodels);
	struct replay_record *rec;
	size_t n = 0, k;
	int f;

	for (f = 0; f < REC_NFIELD; f++)
		if (it->field[f] != NULL)
			n += rec_field_size(h, (enum rec_field)f);
	if (replay_grow(r, n) != 0) {
		snprintf(err, len,
		    "the recording holds more than hxview keeps in memory "
		    "(%u values); hxplay export cuts a part of it",
		    REPLAY_MAX_VALUES);
		return -1;
	}
	if (r->nrec > 0 && it->segment != r->rec[r->nrec - 1].segment &&
	    r->nmarks < REPLAY_MARKERS_MAX)
		r->marks[r->nmarks++] = (struct replay_marker){ r->nrec,
			it->time, 0 };
	rec = &r->rec[r->nrec++];
	rec->time = it->time;
	rec->step = it->step;
	rec->segment = it->segment;
	rec->at = r->nvalues;
	rec->model = r->nmodels;
	for (f = 0; f < REC_NFIELD; f++) {
		if (it->field[f] == NULL)
			continue;
		k = rec_field_size(h, (enum rec_field)f);
		memcpy(
		    r->values + r->nvalues, it->field[f], k * sizeof(double));
		r->nvalues += k;
	}
	return 0;
}

/* Read path whole; NULL with why. */
static struct replay *
replay_read(const char *name, const char *path, char *err, size_t len)
{
	struct rec_reader_stats st;
	struct rec_reader *rd;
	struct rec_item it;
	struct replay *r;
	int rc;

	if ((rd = rec_reader_open(path, err, len)) == NULL)
		return NULL;
	if ((r = calloc(1, sizeof(*r))) == NULL) {
		rec_reader_close(rd);
		snprintf(err, len, "out of memory");
		return NULL;
	}
	snprintf(r->file, sizeof(r->file), "%s", name);
	r->head = *rec_reader_header(rd);
	while ((rc = rec_reader_next(rd, &it)) == 1) {
		if (it.tag == REC_TAG_MODEL && replay_edit(r, &it) != 0) {
			snprintf(err, len, "out of memory");
			rc = -2;
			break;
		}
		if (it.tag == REC_TAG_STATE &&
		    replay_state(r, &it, err, len) != 0) {
			rc = -2;
			break;
		}
	}
	if (rc == -1)
		snprintf(err, len, "%s", rec_reader_error(rd));
	rec_reader_stats(rd, &st);
	r->truncated = st.truncated;
	rec_reader_close(rd);
	if (rc < 0) {
		replay_free(r);
		return NULL;
	}
	return r;
}

/* Keep r among the recordings read, in place of the least used. */
static void
replay_keep(struct replay *r)
{
	size_t i, oldest = 0;

	for (i = 1; i < REPLAY_KEPT; i++)
		if (replay_kept[i] == NULL ||
		    (replay_kept[oldest] != NULL &&
			replay_kept[i]->used < replay_kept[oldest]->used))
			oldest = i;
	replay_free(replay_kept[oldest]);
	replay_kept[oldest] = r;
	r->used = ++replay_clock;
}

/* The recording named, read now or kept; NULL with the HTTP code. */
static struct replay *
replay_get(const char *name, int *code, char *err, size_t len)
{
	struct replay_find f = { name, "" };
	struct replay *r;
	size_t i;

	if (!replay_name_ok(name)) {
		*code = HTTP_BADREQUEST;
		snprintf(err, len,
		    "file: a recording's name (NAME.hxr or NAME.mjl) in the "
		    "state directory, as /recordings.json lists them");
		return NULL;
	}
	for (i = 0; i < REPLAY_KEPT; i++)
		if (replay_kept[i] != NULL &&
		    strcmp(replay_kept[i]->file, name) == 0) {
			replay_kept[i]->used = ++replay_clock;
			return replay_kept[i];
		}
	if (!state_dirs_each(NULL, replay_find_in, &f)) {
		*code = HTTP_NOTFOUND;
		snprintf(
		    err, len, "no recording %s in the state directories", name);
		return NULL;
	}
	if ((r = replay_read(name, f.path, err, len)) == NULL) {
		*code = 422;
		return NULL;
	}
	replay_keep(r);
	return r;
}

/* What the recording holds. */
static void
replay_summary(struct evbuffer *b, const struct replay *r)
{
	const char *sep = "";
	size_t i;
	int f;

	evbuffer_add_printf(b, "{\"file\":\"");
	reply_json_string(b, r->file);
	evbuffer_add_printf(b, "\",\"model\":\"");
	reply_json_string(b, r->head.name);
	evbuffer_add_printf(b,
	    "\",\"format\":\"%s\",\"nq\":%u,\"nsensordata\":%u,"
	    "\"records\":%zu,\"every\":%u,\"timestep\":%.9g,"
	    "\"truncated\":%d,\"fields\":[",
	    r->head.format == REC_FORMAT_MJL ? "mjl" : "hxr", r->head.nq,
	    r->head.nsensordata, r->nrec, r->head.every, r->head.timestep,
	    r->truncated);
	for (f = 0; f < REC_NFIELD; f++)
		if (r->head.fields & REC_FIELD_BIT(f)) {
			evbuffer_add_printf(b, "%s\"%s\"", sep,
			    rec_field_name((enum rec_field)f));
			sep = ",";
		}
	evbuffer_add_printf(b, "],\"time0\":%.9g,\"time1\":%.9g,\"markers\":[",
	    r->nrec ? r->rec[0].time : 0,
	    r->nrec ? r->rec[r->nrec - 1].time : 0);
	for (i = 0; i < r->nmarks; i++)
		evbuffer_add_printf(b,
		    "%s{\"record\":%zu,\"time\":%.9g,\"kind\":\"%s\"}",
		    i ? "," : "", r->marks[i].record, r->marks[i].time,
		    r->marks[i].edit ? "edit" : "reset");
	evbuffer_add_printf(b, "]}\n");
}

/* The field f of record i, or NULL when it was not recorded. */
static double *
replay_field(const struct replay *r, size_t i, enum rec_field want)
{
	const struct replay_record *rec = &r->rec[i];
	const struct rec_header *h = replay_model(r, rec->model);
	double *p = r->values + rec->at;
	int f;

	for (f = 0; f < REC_NFIELD; f++) {
		if (!(h->fields & REC_FIELD_BIT(f)))
			continue;
		if (f == (int)want)
			return p;
		p += rec_field_size(h, (enum rec_field)f);
	}
	return NULL;
}

/* The sensor value k over the recording's time, at most SERIES_MAX. */
static int
replay_series(struct evbuffer *b, const struct replay *r, unsigned long k)
{
	size_t i, step = r->nrec / REPLAY_SERIES_MAX + 1;
	const double *s;
	const char *sep = "";

	evbuffer_add_printf(b, "{\"sensor\":%lu,\"time\":[", k);
	for (i = 0; i < r->nrec; i += step) {
		evbuffer_add_printf(b, "%s%.9g", sep, r->rec[i].time);
		sep = ",";
	}
	evbuffer_add_printf(b, "],\"values\":[");
	sep = "";
	for (i = 0; i < r->nrec; i += step) {
		s = replay_field(r, i, REC_SENSORDATA);
		if (s == NULL ||
		    k >= replay_model(r, r->rec[i].model)->nsensordata)
			return -1;
		evbuffer_add_printf(b, "%s%.9g", sep, s[k]);
		sep = ",";
	}
	evbuffer_add_printf(b, "]}\n");
	return 0;
}

/* Record i as a frame; 0, or -1 when the model shown is not its. */
static int
replay_frame(struct view *v, const struct replay *r, size_t i, FILE *out)
{
	const struct rec_header *h = replay_model(r, r->rec[i].model);
	hxd_frame f;

	memset(&f, 0, sizeof(f));
	f.time = r->rec[i].time;
	f.step = r->rec[i].step;
	f.nq = (int)h->nq;
	f.nv = (int)h->nv;
	f.na = (int)h->na;
	f.nu = (int)h->nu;
	f.nmocap = (int)h->nmocap;
	f.nsensordata = (int)h->nsensordata;
	f.nbody = (int)h->nbody;
	f.qpos = replay_field(r, i, REC_QPOS);
	f.qvel = replay_field(r, i, REC_QVEL);
	f.act = replay_field(r, i, REC_ACT);
	f.ctrl = replay_field(r, i, REC_CTRL);
	f.mocap_pos = replay_field(r, i, REC_MOCAP_POS);
	f.mocap_quat = replay_field(r, i, REC_MOCAP_QUAT);
	f.qfrc_applied = replay_field(r, i, REC_QFRC_APPLIED);
	f.xfrc_applied = replay_field(r, i, REC_XFRC_APPLIED);
	if (f.qpos == NULL || (f.mocap_pos == NULL) != (f.mocap_quat == NULL))
		return -1;
	fprintf(out, "{\"record\":%zu,\"records\":%zu,", i, r->nrec);
	if (web_frame_of(v, &f, out) != 0)
		return -1;
	fputs("}\n", out);
	return 0;
}

/* A whole number argument into *n; 1 when absent, -1 when bad. */
static int
replay_number(struct evkeyvalq *args, const char *key, unsigned long *n)
{
	const char *v = evhttp_find_header(args, key);
	char *end;

	if (v == NULL)
		return 1;
	*n = strtoul(v, &end, 10);
	return v[0] >= '0' && v[0] <= '9' && *end == '\0' ? 0 : -1;
}

/* Answer one recording's request from r. */
static void
replay_answer(struct evhttp_request *req, struct view *v,
    const struct replay *r, struct evkeyvalq *args)
{
	unsigned long record = 0, sensor = 0;
	int has_record, has_sensor;
	struct evbuffer *b;
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	if ((has_record = replay_number(args, "record", &record)) < 0 ||
	    (has_sensor = replay_number(args, "sensor", &sensor)) < 0) {
		reply_error(req, HTTP_BADREQUEST, "Bad Request",
		    "record and sensor are numbers from 0");
		return;
	}
	if (has_record == 0 && record >= r->nrec) {
		reply_error(req, HTTP_NOTFOUND, "Not Found",
		    "no such record: the recording holds fewer");
		return;
	}
	if ((b = evbuffer_new()) == NULL) {
		evhttp_send_error(req, HTTP_INTERNAL, NULL);
		return;
	}
	if (has_record == 0) {
		if ((out = open_memstream(&text, &len)) == NULL ||
		    replay_frame(v, r, record, out) != 0) {
			if (out != NULL)
				fclose(out);
			free(text);
			evbuffer_free(b);
			reply_error(req, 409, "Conflict",
			    "the recording is of another model than the "
			    "server's, or holds no qpos: load its model to "
			    "replay it");
			return;
		}
		fclose(out);
		evbuffer_add(b, text, len);
		free(text);
	} else if (has_sensor == 0) {
		if (replay_series(b, r, sensor) != 0) {
			evbuffer_free(b);
			reply_error(req, HTTP_NOTFOUND, "Not Found",
			    "the recording holds no such sensor value (record "
			    "sensordata to plot it)");
			return;
		}
	} else
		replay_summary(b, r);
	reply_send(req, HTTP_OK, "OK", "application/json", b);
	evbuffer_free(b);
}

void
replay_route(
    struct http_server *srv, struct evhttp_request *req, const char *path)
{
	const char *q = evhttp_uri_get_query(
	    evhttp_request_get_evhttp_uri(req));
	struct evkeyvalq args;
	struct replay *r;
	const char *file;
	char err[512];
	int code = 0;

	(void)path;
	if (q == NULL || evhttp_parse_query_str(q, &args) != 0) {
		reply_error(req, HTTP_BADREQUEST, "Bad Request",
		    "give file=NAME, a recording /recordings.json lists");
		return;
	}
	file = evhttp_find_header(&args, "file");
	if ((r = replay_get(
		 file != NULL ? file : "", &code, err, sizeof(err))) == NULL) {
		evhttp_clear_headers(&args);
		reply_error(req, code,
		    code == HTTP_NOTFOUND ? "Not Found" :
			code == 422       ? "Unprocessable Content" :
					    "Bad Request",
		    err);
		return;
	}
	replay_answer(req, srv->v, r, &args);
	evhttp_clear_headers(&args);
}

int
replay_export(struct view *v, const char *file, struct export_range *rg,
    FILE *out, int *code, char *err, size_t len)
{
	struct replay *r;
	unsigned long i, to;
	double last = NAN, t;
	int count = 0;

	if ((r = replay_get(file, code, err, len)) == NULL)
		return -1;
	to = rg->to < r->nrec ? rg->to : r->nrec - 1;
	if (r->nrec == 0 || rg->from > to) {
		*code = HTTP_NOTFOUND;
		snprintf(err, len, "the recording holds %zu records", r->nrec);
		return -1;
	}
	for (i = rg->from; i <= to && count < EXPORT_MAX_FRAMES; i++) {
		t = r->rec[i].time;
		if (!export_due(t, last, rg->fps))
			continue;
		if (count > 0)
			fputc(',', out);
		if (replay_frame(v, r, i, out) != 0) {
			*code = 409;
			snprintf(err, len,
			    "the recording is of another model than the "
			    "server's: load its model to export it");
			return -1;
		}
		count++;
		last = t;
	}
	snprintf(rg->title, sizeof(rg->title),
	    "%.64s: %.160s, %.3f s to %.3f s", r->head.name, r->file,
	    r->rec[rg->from].time, r->rec[to].time);
	return count;
}

void
replay_upload_route(
    struct http_server *srv, struct evhttp_request *req, const char *path)
{
	struct evbuffer *in = evhttp_request_get_input_buffer(req), *b;
	const char *q = evhttp_uri_get_query(
	    evhttp_request_get_evhttp_uri(req));
	size_t len = evbuffer_get_length(in);
	char tmp[4096], kept[300], err[512];
	const unsigned char *body;
	struct evkeyvalq args;
	const char *name, *dir = getenv("TMPDIR");
	struct replay *r;
	int fd, ok;

	(void)path;
	if (upload_allowed(srv, req, len) != 0)
		return;
	if (q == NULL || evhttp_parse_query_str(q, &args) != 0)
		name = NULL;
	else
		name = evhttp_find_header(&args, "name");
	ok = name != NULL && replay_name_ok(name) && strlen(name) < 200;
	if (ok)
		snprintf(kept, sizeof(kept), "upload:%s", name);
	if (q != NULL)
		evhttp_clear_headers(&args);
	if (!ok) {
		reply_error(req, HTTP_BADREQUEST, "Bad Request",
		    "name=NAME.hxr or NAME.mjl, the file's name, no slash");
		return;
	}
	if ((body = evbuffer_pullup(in, -1)) == NULL && len > 0) {
		evhttp_send_error(req, HTTP_INTERNAL, NULL);
		return;
	}
	/* The reader reads files: a private one, gone once read. */
	snprintf(tmp, sizeof(tmp), "%.4000s/hxview-replay-XXXXXX",
	    dir != NULL && dir[0] == '/' ? dir : "/tmp");
	if ((fd = mkstemp(tmp)) < 0) {
		reply_error(req, HTTP_INTERNAL, "Internal Server Error",
		    "cannot make a file to read the recording from");
		return;
	}
	ok = len == 0 || write(fd, body, len) == (ssize_t)len;
	close(fd);
	r = ok ? replay_read(kept, tmp, err, sizeof(err)) : NULL;
	unlink(tmp);
	if (r == NULL) {
		reply_error(req, 422, "Unprocessable Content",
		    ok ? err : "cannot write the recording to read it");
		return;
	}
	replay_keep(r);
	if ((b = evbuffer_new()) == NULL) {
		evhttp_send_error(req, HTTP_INTERNAL, NULL);
		return;
	}
	replay_summary(b, r);
	reply_send(req, HTTP_OK, "OK", "application/json", b);
	evbuffer_free(b);
}
