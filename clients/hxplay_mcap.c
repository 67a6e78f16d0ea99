/*
 * hxplay export FILE --mcap OUT [--model FILE] [--force]: the recording
 * as MCAP (mcap.h), for Foxglove and Lichtblick.  docs/recording.md
 * ("MCAP") gives the topics, schemas and times.
 *
 * A recording holds the state (qpos, ...) but not what MuJoCo computes
 * from it: the bodies' poses and the contacts.  This file therefore
 * links MuJoCo, as hxview does, and is with foxglove_msg.c the only
 * part of hxplay that does: it loads the model the recording holds (the
 * journal's model entry, then each edit's), puts each record's state
 * into mjData and runs mj_forward.  A recording made without --journal
 * holds no model until its first edit: --model names the one it was
 * made with.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hxplay_common.h"
#include "foxglove_msg.h"
#include "foxglove_schema.h"
#include "mcap.h"
#include "mjb_memory.h"
#include "program.h"
#include "recording.h"

/* The field each topic needs, or -1: a topic whose field was not
 * recorded is left out. */
static const int mx_needs[FOX_NTOPIC] = {
	[FOX_TF] = -1,
	[FOX_SCENE] = -1,
	[FOX_JOINTS] = -1,
	[FOX_CONTROLS] = REC_CTRL,
	[FOX_SENSORS] = REC_SENSORDATA,
	[FOX_CONTACTS] = -1,
	[FOX_EVENTS] = -1,
};

struct mx {
	const char *file, *out;
	struct rec_reader *r;
	const struct rec_header *h;
	FILE *fp;
	int made; /* out was created: removed if the export fails */
	struct mcap_writer *w;
	int ch[FOX_NTOPIC]; /* channel ids; -1: not written */
	struct mmsg j;

	mjModel *given; /* --model */
	mjModel *m;
	mjData *d;

	/*
	 * The timeline: a segment's records at base + their simulated
	 * time, the first at the file's creation time, each later segment
	 * one record's interval after the one before.
	 */
	uint64_t segment, last;
	int64_t base;
	int started;

	int changed; /* a model change since the last segment began */
	uint64_t records, edits;
	struct rec_reader_stats st;
	int read_failed;
	char why[512]; /* why the export failed, when it did */
};

/* MuJoCo's errors come back here instead of ending hxplay. */
static jmp_buf mx_jump;
static char mx_mujoco_error[512];

static void
mx_on_error(const char *msg)
{
	snprintf(mx_mujoco_error, sizeof(mx_mujoco_error), "%s", msg);
	longjmp(mx_jump, 1);
}

static void
mx_on_warning(const char *msg)
{
	program_warn("MuJoCo: %s", msg);
}

static int mx_fail(struct mx *x, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int
mx_fail(struct mx *x, const char *fmt, ...)
{
	va_list ap;

	if (x->why[0] == '\0') {
		va_start(ap, fmt);
		vsnprintf(x->why, sizeof(x->why), fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* Load an MJB from memory, or a file (MJCF or MJB) when mjb is NULL. */
static mjModel *
mx_load(const void *mjb, size_t len, const char *path, char *err, size_t n)
{
	mjModel *volatile m = NULL;

	err[0] = '\0';
	if (setjmp(mx_jump) != 0) {
		snprintf(err, n, "%s", mx_mujoco_error);
	} else if (mjb == NULL) {
		m = strlen(path) > 4 &&
			strcmp(path + strlen(path) - 4, ".mjb") == 0 ?
		    mj_loadModel(path, NULL) :
		    mj_loadXML(path, NULL, err, (int)n);
	} else
		m = mjb_memory_load(mjb, len);
	if (m == NULL && err[0] == '\0')
		snprintf(err, n, "MuJoCo cannot load it");
	return m;
}

/* Make m the model of the records that follow. */
static int
mx_use(struct mx *x, mjModel *m)
{
	mjData *d;

	if ((d = mj_makeData(m)) == NULL)
		return mx_fail(x, "out of memory");
	if (x->m != x->given)
		mj_deleteModel(x->m);
	mj_deleteData(x->d);
	x->m = m;
	x->d = d;
	return 0;
}

/* A message of topic t from x->j, at ns. */
static int
mx_send(struct mx *x, enum fox_topic t, uint64_t ns)
{
	if (mmsg_done(&x->j) != 0)
		return mx_fail(x, "out of memory");
	if (mcap_message(x->w, x->ch[t], ns, ns, x->j.p, x->j.len) != 0)
		return mx_fail(x, "%s: %s", x->out, mcap_error(x->w));
	return mmsg_reset(&x->j) == 0 ? 0 : mx_fail(x, "out of memory");
}

static int
mx_event(struct mx *x, uint64_t ns, int level, const char *text)
{
	mmsg_log(&x->j, ns, level, text);
	return mx_send(x, FOX_EVENTS, ns);
}

/* A time in seconds as ns, rounded; 0 for what is not a time. */
static int64_t
mx_ns(double s)
{
	return isfinite(s) && fabs(s) < 9e9 ? (int64_t)llround(s * 1e9) : 0;
}

/* The log time of a record, moving the timeline to a new segment. */
static uint64_t
mx_time(struct mx *x, const struct rec_item *it)
{
	int64_t t, interval;

	if (it->segment != x->segment) {
		if (!x->started)
			x->base = (x->h->created > 0 ? x->h->created : 0) -
			    mx_ns(it->time);
		else {
			interval = mx_ns(
			    it->model->every * it->model->timestep);
			x->base = (int64_t)x->last +
			    (interval > 0 ? interval : 1) - mx_ns(it->time);
		}
		x->segment = it->segment;
	}
	t = x->base + mx_ns(it->time);
	if (!x->started || (t >= 0 && (uint64_t)t > x->last))
		x->last = t > 0 ? (uint64_t)t : 0;
	x->started = 1;
	return x->last;
}

/* Whether the record's sizes are the model's: 0, or -1 saying why. */
static int
mx_fits(struct mx *x, const struct rec_item *it)
{
	const struct rec_header *s = it->model;
	const mjModel *m = x->m;

	if ((int)s->nq == m->nq && (int)s->nv == m->nv && (int)s->na == m->na &&
	    (int)s->nu == m->nu && (int)s->nmocap == m->nmocap &&
	    (int)s->nsensordata == m->nsensordata && (int)s->nbody == m->nbody)
		return 0;
	return mx_fail(x,
	    "the model has nq %d nv %d nu %d nbody %d where the record at "
	    "step %" PRIu64 " has nq %u nv %u nu %u nbody %u: not the "
	    "recorded model",
	    m->nq, m->nv, m->nu, m->nbody, it->step, s->nq, s->nv, s->nu,
	    s->nbody);
}

/* Where field f of a record goes in MuJoCo's data. */
static mjtNum *
mx_field(mjData *d, enum rec_field f)
{
	switch (f) {
	case REC_QPOS:
		return d->qpos;
	case REC_QVEL:
		return d->qvel;
	case REC_ACT:
		return d->act;
	case REC_CTRL:
		return d->ctrl;
	case REC_MOCAP_POS:
		return d->mocap_pos;
	case REC_MOCAP_QUAT:
		return d->mocap_quat;
	case REC_SENSORDATA:
		return d->sensordata;
	case REC_QFRC_APPLIED:
		return d->qfrc_applied;
	case REC_XFRC_APPLIED:
		return d->xfrc_applied;
	default:
		return NULL;
	}
}

/*
 * The record's state into mjData, and what MuJoCo computes from it; the
 * sensors stay as recorded, not as computed without the run's warm start.
 */
static int
mx_forward(struct mx *x, const struct rec_item *it)
{
	size_t n;
	int f;

	if (setjmp(mx_jump) != 0)
		return mx_fail(x, "MuJoCo at step %" PRIu64 ": %s", it->step,
		    mx_mujoco_error);
	mj_resetData(x->m, x->d);
	x->d->time = it->time;
	for (f = 0; f < REC_NFIELD; f++) {
		if (it->field[f] == NULL || f == REC_SENSORDATA)
			continue;
		n = rec_field_size(it->model, (enum rec_field)f);
		memcpy(mx_field(x->d, (enum rec_field)f), it->field[f],
		    n * sizeof(double));
	}
	mj_forward(x->m, x->d);
	if (it->field[REC_SENSORDATA] != NULL)
		memcpy(x->d->sensordata, it->field[REC_SENSORDATA],
		    (size_t)x->m->nsensordata * sizeof(double));
	return 0;
}

/* The scene and an event where a segment begins. */
static int
mx_segment(struct mx *x, const struct rec_item *it, uint64_t ns)
{
	char text[256];

	snprintf(text, sizeof(text),
	    "segment %" PRIu64 " begins at step %" PRIu64 ", time %.17g%s",
	    it->segment, it->step, it->time,
	    it->segment == 1 ? "" :
		x->changed   ? " (after an edit)" :
			       " (a reset)");
	x->changed = 0;
	mmsg_scene(&x->j, x->m, ns);
	if (mx_send(x, FOX_SCENE, ns) != 0)
		return -1;
	return mx_event(x, ns, 2, text);
}

/* One state record: its messages on each topic. */
static int
mx_record(struct mx *x, const struct rec_item *it)
{
	struct mmsg_record r;
	uint64_t segment = x->segment;

	if (x->m == NULL && x->given != NULL && mx_use(x, x->given) != 0)
		return -1;
	if (x->m == NULL)
		return mx_fail(x,
		    "%s holds no model before step %" PRIu64
		    " (recorded without --journal): give --model FILE, the "
		    "model it was recorded with",
		    x->file, it->step);
	if (mx_fits(x, it) != 0 || mx_forward(x, it) != 0)
		return -1;
	r.step = it->step;
	r.time = it->time;
	r.segment = it->segment;
	r.ns = mx_time(x, it);
	if (it->segment != segment && mx_segment(x, it, r.ns) != 0)
		return -1;
	mmsg_tf(&x->j, x->m, x->d, &r);
	if (mx_send(x, FOX_TF, r.ns) != 0)
		return -1;
	mmsg_joints(&x->j, x->m, x->d, &r, it->field[REC_QVEL] != NULL);
	if (mx_send(x, FOX_JOINTS, r.ns) != 0)
		return -1;
	if (x->ch[FOX_CONTROLS] >= 0) {
		mmsg_controls(&x->j, x->m, x->d, &r);
		if (mx_send(x, FOX_CONTROLS, r.ns) != 0)
			return -1;
	}
	if (x->ch[FOX_SENSORS] >= 0) {
		mmsg_sensors(&x->j, x->m, x->d, &r);
		if (mx_send(x, FOX_SENSORS, r.ns) != 0)
			return -1;
	}
	mmsg_contacts(&x->j, x->m, x->d, &r);
	x->records++;
	return mx_send(x, FOX_CONTACTS, r.ns);
}

/* A model change (an edit): its model from here on, and an event. */
static int
mx_model(struct mx *x, const struct rec_item *it)
{
	char err[512], *text;
	size_t n = it->operations_len + 128;
	mjModel *m;
	int rc;

	if ((m = mx_load(it->data, it->len, NULL, err, sizeof(err))) == NULL)
		return mx_fail(x,
		    "the model of the edit at step %" PRIu64 ": %s", it->step,
		    err);
	if (mx_use(x, m) != 0) {
		mj_deleteModel(m);
		return -1;
	}
	x->edits++;
	x->changed = 1;
	if ((text = malloc(n)) == NULL)
		return mx_fail(x, "out of memory");
	snprintf(text, n,
	    "the model was edited at step %" PRIu64 ", time %.17g: %.*s",
	    it->step, it->time, (int)it->operations_len, it->operations);
	/* One operation a line, each ending in a newline: "; " between. */
	for (n = strlen(text); n > 0 && text[n - 1] == '\n'; n--)
		text[n - 1] = '\0';
	for (n = 0; text[n] != '\0'; n++) {
		if (text[n] == '\n')
			text[n] = ';';
	}
	rc = mx_event(x, x->last, 2, text);
	free(text);
	return rc;
}

/* The journal's model entry: the model the recording starts with. */
static int
mx_journal(struct mx *x, const struct rec_item *it)
{
	char err[512];
	mjModel *m;

	if (it->kind != REC_JOURNAL_MODEL || x->m != NULL || x->records > 0)
		return 0;
	if ((m = mx_load(it->data, it->len, NULL, err, sizeof(err))) == NULL)
		return mx_fail(x, "the recorded model: %s", err);
	if (mx_use(x, m) != 0) {
		mj_deleteModel(m);
		return -1;
	}
	return 0;
}

/* Every item; reading stops at damage, with the records before it. */
static int
mx_items(struct mx *x)
{
	struct rec_item it;
	int rc;

	while ((rc = rec_reader_next(x->r, &it)) == 1) {
		if ((it.tag == REC_TAG_STATE && mx_record(x, &it) != 0) ||
		    (it.tag == REC_TAG_MODEL && mx_model(x, &it) != 0) ||
		    (it.tag == REC_TAG_JOURNAL && mx_journal(x, &it) != 0))
			return -1;
	}
	rec_reader_stats(x->r, &x->st);
	x->read_failed = rc < 0;
	return 0;
}

/*
 * Make way for out: never over a file unless --force, and then only
 * over a file (not a directory).  Created with O_EXCL all the same.
 */
static int
mx_create(struct mx *x, int force)
{
	struct stat sb;
	int fd;

	if (lstat(x->out, &sb) == 0) {
		if (!force || !S_ISREG(sb.st_mode)) {
			program_warn("%s exists: %s", x->out,
			    S_ISREG(sb.st_mode) ?
				"an earlier export? (--force replaces it)" :
				"not a file");
			return -1;
		}
		if (unlink(x->out) != 0) {
			program_warn("%s: %s", x->out, strerror(errno));
			return -1;
		}
	}
	fd = open(x->out, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		program_warn("%s: %s", x->out, strerror(errno));
		return -1;
	}
	x->made = 1;
	if ((x->fp = fdopen(fd, "w")) == NULL) {
		program_warn("%s: %s", x->out, strerror(errno));
		close(fd);
		return -1;
	}
	setvbuf(x->fp, NULL, _IOFBF, 1 << 16);
	return 0;
}

/* The header, a schema and a channel for each topic exported. */
static int
mx_start(struct mx *x)
{
	const struct foxglove_schema *s;
	int t, id;

	if ((x->w = mcap_open(x->fp, "", "hxplay " PACKAGE_VERSION)) == NULL)
		return mx_fail(x, "out of memory");
	for (t = 0; t < FOX_NTOPIC; t++) {
		x->ch[t] = -1;
		if (mx_needs[t] >= 0 &&
		    !(x->h->fields & REC_FIELD_BIT(mx_needs[t])))
			continue;
		s = foxglove_schema_find(fox_topics[t].schema);
		id = mcap_schema(
		    x->w, s->name, "jsonschema", s->schema, strlen(s->schema));
		if (id < 0 ||
		    (x->ch[t] = mcap_channel(
			 x->w, id, fox_topics[t].topic, "json")) < 0)
			return mx_fail(x, "%s: %s", x->out, mcap_error(x->w));
	}
	return 0;
}

/* The recording's header and how it ended, as a Metadata record. */
static int
mx_metadata(struct mx *x)
{
	char hash[24], created[96], every[16], records[24], segments[24],
	    edits[24], dropped[24];
	const char *keys[] = { "file", "name", "model_hash", "created", "every",
		"records", "segments", "edits", "truncated", "dropped_bytes",
		"error" };
	const char *values[11];

	snprintf(hash, sizeof(hash), "%016" PRIx64, x->h->model_hash);
	if (play_iso8601(x->h->created, created, sizeof(created)) == NULL)
		created[0] = '\0';
	snprintf(every, sizeof(every), "%u", x->h->every);
	snprintf(records, sizeof(records), "%" PRIu64, x->records);
	snprintf(segments, sizeof(segments), "%" PRIu64, x->segment);
	snprintf(edits, sizeof(edits), "%" PRIu64, x->edits);
	snprintf(dropped, sizeof(dropped), "%" PRIu64, x->st.dropped);
	values[0] = x->file;
	values[1] = x->h->name;
	values[2] = hash;
	values[3] = created;
	values[4] = every;
	values[5] = records;
	values[6] = segments;
	values[7] = edits;
	values[8] = x->st.truncated ? "true" : "false";
	values[9] = dropped;
	values[10] = x->read_failed ? rec_reader_error(x->r) : "";
	if (mcap_metadata(x->w, "haptixd.recording", keys, values, 11) != 0)
		return mx_fail(x, "%s: %s", x->out, mcap_error(x->w));
	return 0;
}

/* How the reading ended, as an event, then the summary and the footer. */
static int
mx_finish(struct mx *x)
{
	char text[600];

	if (x->read_failed) {
		snprintf(text, sizeof(text), "%s", rec_reader_error(x->r));
		if (mx_event(x, x->last, 4, text) != 0)
			return -1;
	} else if (x->st.truncated) {
		snprintf(text, sizeof(text),
		    "the file ends inside a frame: %" PRIu64 " bytes dropped",
		    x->st.dropped);
		if (mx_event(x, x->last, 3, text) != 0)
			return -1;
	}
	if (mx_metadata(x) != 0)
		return -1;
	if (mcap_finish(x->w) != 0)
		return mx_fail(x, "%s: %s", x->out, mcap_error(x->w));
	return 0;
}

/* The export's end: the file closed, and removed unless it finished. */
static int
mx_close(struct mx *x, int ok)
{
	if (x->fp != NULL && fclose(x->fp) != 0 && ok) {
		program_warn("%s: %s", x->out, strerror(errno));
		ok = 0;
	}
	x->fp = NULL;
	if (!ok && x->made)
		unlink(x->out);
	mcap_free(x->w);
	mmsg_free(&x->j);
	mj_deleteData(x->d);
	if (x->m != x->given)
		mj_deleteModel(x->m);
	mj_deleteModel(x->given);
	return ok;
}

/*
 * The hash of m's MJB as the daemon records it, or 0 if it cannot be
 * had.  mj_sizeModel() is only a bound (MuJoCo 2.2 counts the padding of
 * the model's buffer, which mj_saveModel() does not write; see the
 * daemon's sim_mjb_written()), so the bytes are MuJoCo's own file.
 */
static uint64_t
mx_mjb_hash(const mjModel *m)
{
	char path[] = "/tmp/hxplay-mjb.XXXXXX";
	uint64_t hash = 0;
	size_t n;
	void *mjb;
	int fd;

	struct stat st;

	if ((fd = mkstemp(path)) == -1)
		return 0;
	close(fd);
	mj_saveModel(m, path, NULL, 0);
	if ((fd = open(path, O_RDONLY)) != -1 && fstat(fd, &st) == 0 &&
	    st.st_size > 0 && (mjb = malloc((size_t)st.st_size)) != NULL) {
		n = (size_t)st.st_size;
		if (read(fd, mjb, n) == (ssize_t)n)
			hash = rec_hash64(mjb, n, REC_HASH_SEED);
		free(mjb);
	}
	if (fd != -1)
		close(fd);
	unlink(path);
	return hash;
}

/* --model: loaded, and said when it is not the recorded one. */
static int
mx_given(struct mx *x, const char *path)
{
	char err[512];
	uint64_t hash;

	if ((x->given = mx_load(NULL, 0, path, err, sizeof(err))) == NULL) {
		program_warn("--model %s: %s", path, err);
		return -1;
	}
	if (x->h->model_hash != 0 && (hash = mx_mjb_hash(x->given)) != 0 &&
	    hash != x->h->model_hash)
		program_warn("--model %s: not the recorded model (its hash "
			     "differs): the poses are its own",
		    path);
	return 0;
}

int
play_export_mcap(
    const char *file, const char *out, const char *model, int force)
{
	struct mx x;
	char err[512];
	int ok;

	memset(&x, 0, sizeof(x));
	x.file = file;
	x.out = out;
	mju_user_error = mx_on_error;
	mju_user_warning = mx_on_warning;
	if ((x.r = rec_reader_open(file, err, sizeof(err))) == NULL) {
		program_warn("%s", err);
		return PLAY_FAIL;
	}
	x.h = rec_reader_header(x.r);
	if (!(x.h->fields & REC_FIELD_BIT(REC_QPOS))) {
		program_warn(
		    "%s: qpos was not recorded: the poses need it", file);
		rec_reader_close(x.r);
		return PLAY_FAIL;
	}
	if (mmsg_reset(&x.j) != 0)
		program_warn("out of memory");
	if (x.j.f == NULL || (model != NULL && mx_given(&x, model) != 0) ||
	    mx_create(&x, force) != 0) {
		mx_close(&x, 0);
		rec_reader_close(x.r);
		return PLAY_FAIL;
	}
	ok = mx_start(&x) == 0 && mx_items(&x) == 0 && mx_finish(&x) == 0;
	if (!ok)
		program_warn("%s; %s not written", x.why, out);
	ok = mx_close(&x, ok);
	if (ok && x.read_failed)
		program_warn("%s: %s; exported the %" PRIu64
			     " records before it",
		    file, rec_reader_error(x.r), x.records);
	else if (ok && x.st.truncated)
		program_warn("%s: cut inside a frame: %" PRIu64
			     " bytes dropped; exported the %" PRIu64
			     " whole records",
		    file, x.st.dropped, x.records);
	rec_reader_close(x.r);
	return ok && !x.read_failed ? PLAY_OK : PLAY_FAIL;
}
