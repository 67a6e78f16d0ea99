/* Recording the state into .hxr files: see record.h. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <event2/event.h>

#include "daemon.h"
#include "journal.h"
#include "log.h"
#include "options.h"
#include "record.h"
#include "recording.h"
#include "result.h"
#include "sim.h"

/* A kill -9 loses at most this much wall time of records. */
#define RECORD_FLUSH_MS 250

/* The recording under way, if any (d->record). */
struct recorder {
	struct rec_writer *w;
	struct journal *journal; /* NULL: a recording without */
	struct event *timer;
	char path[4096 + 96];
	char ended[256];
	unsigned every;
	uint64_t records;
	uint64_t entries;
	int with_journal;
	uint64_t quota; /* the running one's */
	int broken;     /* it failed: record_stop() follows */
	uint64_t bytes;
	/*
	 * The recording's step index is the sim's count plus base: an
	 * edit starts the sim's count again, the recording's goes on.
	 */
	uint64_t base;
	uint64_t at; /* the recording's index of the last step */
};

struct recorder *
record_create(void)
{
	struct recorder *rec;

	if ((rec = calloc(1, sizeof(*rec))) == NULL)
		fatal("out of memory");
	return rec;
}

void
record_free(struct recorder *rec)
{
	char err[512];

	if (rec == NULL)
		return;
	if (rec->w != NULL)
		(void)rec_writer_close(rec->w, err, sizeof(err));
	journal_free(rec->journal);
	if (rec->timer != NULL)
		event_free(rec->timer);
	free(rec);
}

/* Until record_set_notify(), nobody is told. */
static void
record_notify_none(struct daemon *d)
{
	(void)d;
}

static record_notify_fn record_notify = record_notify_none;

static void record_failed(struct daemon *);

const char *
record_state_dir(const struct daemon *d, char *buf, size_t len)
{
	const char *v;

	if (d->opts->state_dir != NULL)
		snprintf(buf, len, "%s", d->opts->state_dir);
	else if ((v = getenv("STATE_DIRECTORY")) != NULL && *v == '/')
		snprintf(buf, len, "%.*s", (int)strcspn(v, ":"), v);
	else if ((v = getenv("XDG_STATE_HOME")) != NULL && *v == '/')
		snprintf(buf, len, "%s/haptixd", v);
	else if ((v = getenv("HOME")) != NULL && *v == '/')
		snprintf(buf, len, "%s/.local/state/haptixd", v);
	else
		snprintf(buf, len, "/var/lib/haptixd");
	return buf;
}

/* Write what is buffered, every RECORD_FLUSH_MS; a failure ends it. */
static void
record_flush(struct daemon *d)
{
	struct recorder *rec = d->record;
	struct rec_writer_stats st;

	if (rec->w == NULL)
		return;
	if (rec_writer_flush(rec->w) != 0) {
		record_failed(d);
		return;
	}
	rec_writer_stats(rec->w, &st);
	rec->bytes = st.bytes_written;
}

static void
record_timer_cb(evutil_socket_t fd, short events, void *arg)
{
	record_flush(arg);
}

/* Make dir and any parent missing, as mkdir -p does. */
static int
record_mkdirs(char *dir)
{
	char *p;

	for (p = dir + 1; *p != '\0'; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0750) == -1 && errno != EEXIST) {
			*p = '/';
			return -1;
		}
		*p = '/';
	}
	return mkdir(dir, 0750) == -1 && errno != EEXIST ? -1 : 0;
}

/* The largest N of the directory's NAME_N.hxr files, or 0. */
static unsigned
record_last_number(const char *dir, const char *name)
{
	size_t n = strlen(name);
	unsigned last = 0, k;
	struct dirent *e;
	char tail[8];
	DIR *dp;

	if ((dp = opendir(dir)) == NULL)
		return 0;
	while ((e = readdir(dp)) != NULL) {
		if (strncmp(e->d_name, name, n) != 0 || e->d_name[n] != '_')
			continue;
		if (sscanf(e->d_name + n + 1, "%u%7s", &k, tail) == 2 &&
		    strcmp(tail, ".hxr") == 0 && k > last)
			last = k;
	}
	closedir(dp);
	return last;
}

/* The model's name as a file name: letters, digits, '-', '_', '.'. */
static void
record_file_name(const char *model, char *out, size_t len)
{
	size_t i, n = 0;

	for (i = 0; model[i] != '\0' && n + 1 < len && n < 64; i++) {
		char ch = model[i];

		if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		    (ch >= '0' && ch <= '9') || ch == '-' || ch == '.')
			out[n++] = ch;
		else
			out[n++] = '_';
	}
	out[n] = '\0';
	if (n == 0)
		snprintf(out, len, "model");
	else if (out[0] == '.')
		out[0] = '_'; /* no hidden files */
}

/*
 * The file reached the quota, or a write failed (a full disk, a file
 * size limit): end the recording, which keeps what was written, and say
 * why to the log, the status and the clients.
 */
static void
record_failed(struct daemon *d)
{
	struct recorder *rec = d->record;
	char why[sizeof(rec->ended)];

	if (rec_writer_full(rec->w)) {
		snprintf(why, sizeof(why),
		    "quota reached: the next frame would pass %llu bytes "
		    "(--record-quota)",
		    (unsigned long long)d->opts->record_quota);
		log_warn("recording %s: %s", rec->path, why);
	} else {
		snprintf(why, sizeof(why), "write failed: %s",
		    rec_writer_error(rec->w));
		log_error("recording %s: %s", rec->path, why);
	}
	rec->broken = 1;
	record_stop(d, why);
	record_notify(d);
}

/* The recording's index of the sim's step count now. */
static uint64_t
record_step(const struct daemon *d)
{
	struct recorder *rec = d->record;

	return rec->base + sim_counters(d->sim)->steps;
}

/*
 * The running model's sizes, timestep and name into h, and its MJB
 * (caller frees) with its hash; NULL when memory runs out.
 */
static void *
record_model(const struct daemon *d, struct rec_header *h, size_t *size)
{
	const struct sim_sizes *z = sim_sizes(d->sim);
	void *mjb;

	h->nq = (uint32_t)z->nq;
	h->nv = (uint32_t)z->nv;
	h->na = (uint32_t)z->na;
	h->nu = (uint32_t)z->nu;
	h->nmocap = (uint32_t)z->nmocap;
	h->nsensordata = (uint32_t)z->nsensordata;
	h->nbody = (uint32_t)z->nbody;
	h->timestep = z->timestep;
	snprintf(h->name, sizeof(h->name), "%s", sim_model_name(d->sim));
	/* The model as MJB identifies it, edits included. */
	*size = sim_mjb_size(d->sim);
	if ((mjb = malloc(*size)) == NULL ||
	    (*size = sim_mjb_save(d->sim, mjb, *size)) == 0) {
		free(mjb);
		return NULL;
	}
	h->model_hash = rec_hash64(mjb, *size, REC_HASH_SEED);
	return mjb;
}

int
record_start(struct daemon *d, unsigned fields, unsigned every, int journal,
    char *err, size_t len)
{
	struct recorder *rec = d->record;
	struct rec_header h;
	char dir[3900], base[80], why[512], *real;
	unsigned n;
	size_t size = 0;
	void *mjb;

	if (rec->w != NULL) {
		snprintf(err, len, "a recording runs already: %s", rec->path);
		return RESULT_DENIED;
	}
	memset(&h, 0, sizeof(h));
	h.version = REC_VERSION;
	h.fields = fields;
	h.every = every;
	if ((mjb = record_model(d, &h, &size)) == NULL) {
		snprintf(err, len, "out of memory for the model");
		return RESULT_DENIED;
	}
	if (journal && (rec->journal = journal_create(d->sim)) == NULL) {
		free(mjb);
		snprintf(err, len, "out of memory for the journal");
		return RESULT_DENIED;
	}

	record_state_dir(d, dir, sizeof(dir));
	/* The full path, told to the client: --state-dir may be relative. */
	if (record_mkdirs(dir) != 0 || (real = realpath(dir, NULL)) == NULL) {
		snprintf(
		    err, len, "state directory %s: %s", dir, strerror(errno));
		free(mjb);
		journal_free(rec->journal);
		rec->journal = NULL;
		return RESULT_DENIED;
	}
	snprintf(dir, sizeof(dir), "%s", real);
	free(real);
	record_file_name(h.name, base, sizeof(base));
	/* The next number; O_EXCL keeps what another process made since. */
	n = record_last_number(dir, base);
	do
		snprintf(rec->path, sizeof(rec->path), "%s/%s_%u.hxr", dir,
		    base, ++n);
	while (access(rec->path, F_OK) == 0);
	rec->w = rec_writer_open(
	    rec->path, &h, REC_LEVEL_DEFAULT, why, sizeof(why));
	if (rec->w != NULL)
		rec_writer_limit(rec->w, d->opts->record_quota);
	if (rec->w != NULL && rec->journal != NULL &&
	    rec_writer_journal(rec->w, sim_counters(d->sim)->steps,
		REC_JOURNAL_MODEL, mjb, size) != 0) {
		snprintf(why, sizeof(why), "%s", rec_writer_error(rec->w));
		rec_writer_close(rec->w, NULL, 0);
		unlink(rec->path);
		rec->w = NULL;
	}
	free(mjb);
	if (rec->w == NULL) {
		snprintf(err, len, "cannot record: %s", why);
		rec->path[0] = '\0';
		journal_free(rec->journal);
		rec->journal = NULL;
		return RESULT_DENIED;
	}
	rec->timer = event_new(d->base, -1, EV_PERSIST, record_timer_cb, d);
	if (rec->timer == NULL)
		fatal("out of memory");
	event_add(rec->timer, &(struct timeval){ 0, RECORD_FLUSH_MS * 1000 });
	rec->every = every;
	rec->base = 0;
	rec->at = sim_counters(d->sim)->steps;
	rec->with_journal = journal;
	rec->quota = d->opts->record_quota;
	rec->records = rec->bytes = rec->entries = 0;
	rec->ended[0] = '\0';
	log_info("recording to %s (one step in %u%s)", rec->path, every,
	    journal ? ", with a journal" : "");
	return RESULT_OK;
}

void
record_stop(struct daemon *d, const char *why)
{
	struct recorder *rec = d->record;
	struct stat st;
	char err[512];

	if (rec->w == NULL)
		return;
	/* A failure that ended it was logged already. */
	if (rec_writer_close(rec->w, err, sizeof(err)) != 0 && !rec->broken)
		log_warn("recording %s: %s", rec->path, err);
	rec->broken = 0;
	if (stat(rec->path, &st) == 0)
		rec->bytes = (uint64_t)st.st_size;
	rec->w = NULL;
	journal_free(rec->journal);
	rec->journal = NULL;
	event_free(rec->timer);
	rec->timer = NULL;
	snprintf(rec->ended, sizeof(rec->ended), "%s", why);
	log_info("recording %s ended (%s): %llu records", rec->path, why,
	    (unsigned long long)rec->records);
	(void)d;
}

void
record_model_edited(
    struct daemon *d, const char *operations, const char *removed)
{
	struct recorder *rec = d->record;
	struct rec_header h;
	size_t size;
	void *mjb;

	if (rec->w == NULL)
		return;
	/* The edited model's count starts again: the recording's goes on. */
	rec->base = rec->at - sim_counters(d->sim)->steps;
	memset(&h, 0, sizeof(h));
	if ((mjb = record_model(d, &h, &size)) == NULL)
		fatal("out of memory");
	if (rec_writer_model(rec->w, record_step(d), sim_time(d->sim), &h,
		operations, removed != NULL ? removed : "", mjb, size) != 0) {
		free(mjb);
		record_failed(d);
		return;
	}
	free(mjb);
	rec->entries++;
	if (rec->journal == NULL)
		return;
	/* The journal starts again: all of the data before the next step. */
	journal_free(rec->journal);
	if ((rec->journal = journal_create(d->sim)) == NULL)
		fatal("out of memory");
}

void
record_steps_restart(struct daemon *d)
{
	struct recorder *rec = d->record;

	/* The sim's count starts again at a reset: the recording's goes on. */
	rec->base = record_step(d);
}

void
record_before_step(struct daemon *d)
{
	struct recorder *rec = d->record;
	int n;

	if (rec->journal == NULL)
		return;
	n = journal_before_step(rec->journal, d->sim, rec->w, record_step(d));
	if (n < 0)
		record_failed(d);
	else
		rec->entries += (uint64_t)n;
}

uint64_t
record_state_hash(const struct daemon *d)
{
	return journal_state_hash(d->sim);
}

void
record_after_step(struct daemon *d)
{
	struct recorder *rec = d->record;
	const struct sim_arrays *a;
	const double *f[REC_NFIELD];
	uint64_t step;

	if (rec->w == NULL)
		return;
	step = rec->at = record_step(d);
	if (rec->journal != NULL) {
		journal_after_step(rec->journal, d->sim);
		if (rec_writer_hash(rec->w, step, journal_state_hash(d->sim))) {
			record_failed(d);
			return;
		}
	}
	if (!rec_writer_due(rec->w, step))
		return;
	a = sim_arrays(d->sim);
	f[REC_QPOS] = a->qpos;
	f[REC_QVEL] = a->qvel;
	f[REC_ACT] = a->act;
	f[REC_CTRL] = a->ctrl;
	f[REC_MOCAP_POS] = a->mocap_pos;
	f[REC_MOCAP_QUAT] = a->mocap_quat;
	f[REC_SENSORDATA] = a->sensordata;
	f[REC_QFRC_APPLIED] = a->qfrc_applied;
	f[REC_XFRC_APPLIED] = a->xfrc_applied;
	if (rec_writer_state(rec->w, step, sim_time(d->sim), f) != 0) {
		record_failed(d);
		return;
	}
	rec->records++;
}

void
record_info(const struct daemon *d, struct record_info *out)
{
	const struct recorder *rec = d->record;

	out->active = rec->w != NULL;
	out->path = rec->path;
	out->every = rec->every;
	out->journal = rec->with_journal;
	out->journal_entries = rec->entries;
	out->records = rec->records;
	out->bytes = rec->bytes;
	out->ended = rec->ended;
	out->quota = rec->quota;
}

void
record_set_notify(record_notify_fn fn)
{
	record_notify = fn;
}
