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

static struct rec_writer *record_w;
static struct journal *record_journal; /* NULL: a recording without */
static struct event *record_timer;
static char record_path[4096 + 96];
static char record_ended[256];
static unsigned record_every;
static uint64_t record_records;
static uint64_t record_entries;
static int record_with_journal;
static uint64_t record_quota; /* the running one's */
static int record_broken;     /* it failed: record_stop() follows */
static uint64_t record_bytes;
/*
 * The recording's step index is the sim's count plus record_base: an
 * edit starts the sim's count again, the recording's goes on.
 */
static uint64_t record_base;
static uint64_t record_at; /* the recording's index of the last step */

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
	struct rec_writer_stats st;

	if (record_w == NULL)
		return;
	if (rec_writer_flush(record_w) != 0) {
		record_failed(d);
		return;
	}
	rec_writer_stats(record_w, &st);
	record_bytes = st.bytes_written;
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
	char why[sizeof(record_ended)];

	if (rec_writer_full(record_w)) {
		snprintf(why, sizeof(why),
		    "quota reached: the next frame would pass %llu bytes "
		    "(--record-quota)",
		    (unsigned long long)d->opts->record_quota);
		log_warn("recording %s: %s", record_path, why);
	} else {
		snprintf(why, sizeof(why), "write failed: %s",
		    rec_writer_error(record_w));
		log_error("recording %s: %s", record_path, why);
	}
	record_broken = 1;
	record_stop(d, why);
	record_notify(d);
}

/* The recording's index of the sim's step count now. */
static uint64_t
record_step(const struct daemon *d)
{
	return record_base + sim_counters(d->sim)->steps;
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
	struct rec_header h;
	char dir[3900], base[80], why[512], *real;
	unsigned n;
	size_t size = 0;
	void *mjb;

	if (record_w != NULL) {
		snprintf(err, len, "a recording runs already: %s", record_path);
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
	if (journal && (record_journal = journal_create(d->sim)) == NULL) {
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
		journal_free(record_journal);
		record_journal = NULL;
		return RESULT_DENIED;
	}
	snprintf(dir, sizeof(dir), "%s", real);
	free(real);
	record_file_name(h.name, base, sizeof(base));
	/* The next number; O_EXCL keeps what another process made since. */
	n = record_last_number(dir, base);
	do
		snprintf(record_path, sizeof(record_path), "%s/%s_%u.hxr", dir,
		    base, ++n);
	while (access(record_path, F_OK) == 0);
	record_w = rec_writer_open(
	    record_path, &h, REC_LEVEL_DEFAULT, why, sizeof(why));
	if (record_w != NULL)
		rec_writer_limit(record_w, d->opts->record_quota);
	if (record_w != NULL && record_journal != NULL &&
	    rec_writer_journal(record_w, sim_counters(d->sim)->steps,
		REC_JOURNAL_MODEL, mjb, size) != 0) {
		snprintf(why, sizeof(why), "%s", rec_writer_error(record_w));
		rec_writer_close(record_w, NULL, 0);
		unlink(record_path);
		record_w = NULL;
	}
	free(mjb);
	if (record_w == NULL) {
		snprintf(err, len, "cannot record: %s", why);
		record_path[0] = '\0';
		journal_free(record_journal);
		record_journal = NULL;
		return RESULT_DENIED;
	}
	record_timer = event_new(d->base, -1, EV_PERSIST, record_timer_cb, d);
	if (record_timer == NULL)
		fatal("out of memory");
	event_add(record_timer, &(struct timeval){ 0, RECORD_FLUSH_MS * 1000 });
	record_every = every;
	record_base = 0;
	record_at = sim_counters(d->sim)->steps;
	record_with_journal = journal;
	record_quota = d->opts->record_quota;
	record_records = record_bytes = record_entries = 0;
	record_ended[0] = '\0';
	log_info("recording to %s (one step in %u%s)", record_path, every,
	    journal ? ", with a journal" : "");
	return RESULT_OK;
}

void
record_stop(struct daemon *d, const char *why)
{
	struct stat st;
	char err[512];

	if (record_w == NULL)
		return;
	/* A failure that ended it was logged already. */
	if (rec_writer_close(record_w, err, sizeof(err)) != 0 && !record_broken)
		log_warn("recording %s: %s", record_path, err);
	record_broken = 0;
	if (stat(record_path, &st) == 0)
		record_bytes = (uint64_t)st.st_size;
	record_w = NULL;
	journal_free(record_journal);
	record_journal = NULL;
	event_free(record_timer);
	record_timer = NULL;
	snprintf(record_ended, sizeof(record_ended), "%s", why);
	log_info("recording %s ended (%s): %llu records", record_path, why,
	    (unsigned long long)record_records);
	(void)d;
}

void
record_model_edited(
    struct daemon *d, const char *operations, const char *removed)
{
	struct rec_header h;
	size_t size;
	void *mjb;

	if (record_w == NULL)
		return;
	/* The edited model's count starts again: the recording's goes on. */
	record_base = record_at - sim_counters(d->sim)->steps;
	memset(&h, 0, sizeof(h));
	if ((mjb = record_model(d, &h, &size)) == NULL)
		fatal("out of memory");
	if (rec_writer_model(record_w, record_step(d), sim_time(d->sim), &h,
		operations, removed != NULL ? removed : "", mjb, size) != 0) {
		free(mjb);
		record_failed(d);
		return;
	}
	free(mjb);
	record_entries++;
	if (record_journal == NULL)
		return;
	/* The journal starts again: all of the data before the next step. */
	journal_free(record_journal);
	if ((record_journal = journal_create(d->sim)) == NULL)
		fatal("out of memory");
}

void
record_steps_restart(struct daemon *d)
{
	/* The sim's count starts again at a reset: the recording's goes on. */
	record_base = record_step(d);
}

void
record_before_step(struct daemon *d)
{
	int n;

	if (record_journal == NULL)
		return;
	n = journal_before_step(
	    record_journal, d->sim, record_w, record_step(d));
	if (n < 0)
		record_failed(d);
	else
		record_entries += (uint64_t)n;
}

uint64_t
record_state_hash(const struct daemon *d)
{
	return journal_state_hash(d->sim);
}

void
record_after_step(struct daemon *d)
{
	const struct sim_arrays *a;
	const double *f[REC_NFIELD];
	uint64_t step;

	if (record_w == NULL)
		return;
	step = record_at = record_step(d);
	if (record_journal != NULL) {
		journal_after_step(record_journal, d->sim);
		if (rec_writer_hash(
			record_w, step, journal_state_hash(d->sim))) {
			record_failed(d);
			return;
		}
	}
	if (!rec_writer_due(record_w, step))
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
	if (rec_writer_state(record_w, step, sim_time(d->sim), f) != 0) {
		record_failed(d);
		return;
	}
	record_records++;
}

void
record_info(struct record_info *out)
{
	out->active = record_w != NULL;
	out->path = record_path;
	out->every = record_every;
	out->journal = record_with_journal;
	out->journal_entries = record_entries;
	out->records = record_records;
	out->bytes = record_bytes;
	out->ended = record_ended;
	out->quota = record_quota;
}

void
record_set_notify(record_notify_fn fn)
{
	record_notify = fn;
}
