/*
 * The simulation's life: loading models, stepping, resetting, and
 * keeping MuJoCo's errors and warnings inside the daemon.
 */
#include "config.h"

#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <mujoco/mjxmacro.h>
#include <mujoco/mujoco.h>

#include "log.h"
#include "monotonic.h"
#include "sim.h"
#include "sim_internal.h"
#include "sim_history.h"
#include "sim_rollback.h"

/*
 * MuJoCo reports errors through one global hook; it jumps to the
 * innermost recovery point of sim_guard(), which may be nested.
 */
static jmp_buf *sim_recover;

/*
 * What MuJoCo allocates while a model is being built.  An mju_error in
 * the middle of mj_loadModel or mj_makeData jumps over the code that
 * would free it; the recovery point frees it instead.
 */
static struct {
	void **p;
	size_t n, cap;
} sim_tracked;

static char sim_error_text[1024];
static char sim_warning_text[1024];

/*
 * MuJoCo 2.2's mj_loadXML holds a lock while it parses: a jump out of it
 * leaves the lock held, and the next XML load in the process would wait
 * for it forever (found by fuzzing).  The daemon parses no XML: each
 * load is parsed in a loader process of its own (loader.h), which ends
 * after it.  The VFS's complaints about a name (an include of "dir/" or
 * "") are safe to return from: the name is then not in the VFS, and the
 * parser reports the file as missing.
 */
static int sim_in_xml;

/* MuJoCo's warnings and errors are logged at most this often a second. */
#define SIM_LOGS_PER_SECOND 5

static void sim_error_hook(const char *);
static void sim_warning_hook(const char *);
static void sim_log_limited(enum log_level, const char *, ...)
    __attribute__((format(printf, 2, 3)));
static int sim_install(
    struct sim *, mjModel *, const char *, const char *, char *, size_t);
static void sim_refresh(struct sim *);
static void sim_count_instability(struct sim *, const char *);
static void sim_scratch_free(struct sim *);

/*
 * mju_user_error: MuJoCo expects this never to return.  Jump back to the
 * recovery point of sim_protect(); an error outside one is a bug in the
 * daemon, and continuing would run on corrupt data.
 */
static void
sim_error_hook(const char *msg)
{
	snprintf(sim_error_text, sizeof(sim_error_text), "%s", msg);
	if (sim_in_xml &&
	    (strcmp(msg, "Empty filename in VFS") == 0 ||
		strcmp(msg, "Filename too long in VFS") == 0))
		return;
	sim_in_xml = 0;
	if (sim_recover != NULL)
		longjmp(*sim_recover, 1);
	log_error("MuJoCo error outside a protected call: %s", msg);
	abort();
}

/*
 * Log MuJoCo's complaints at most SIM_LOGS_PER_SECOND times a second: an
 * unstable or broken model repeats them at every step.
 */
static void
sim_log_limited(enum log_level level, const char *fmt, ...)
{
	static time_t window;
	static int count, suppressed;
	time_t now = time(NULL);
	char line[1200];
	va_list ap;

	if (now != window) {
		if (suppressed > 0)
			log_warn(
			    "MuJoCo: %d more messages suppressed", suppressed);
		window = now;
		count = 0;
		suppressed = 0;
	}
	if (++count > SIM_LOGS_PER_SECOND) {
		suppressed++;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (level == LOG_LEVEL_ERROR)
		log_error("%s", line);
	else
		log_warn("%s", line);
}

/* mju_user_warning: keep the text for load errors, and log it. */
static void
sim_warning_hook(const char *msg)
{
	snprintf(sim_warning_text, sizeof(sim_warning_text), "%s", msg);
	sim_log_limited(LOG_LEVEL_WARNING, "MuJoCo: %s", msg);
}

struct sim *
sim_create(void)
{
	struct sim *s;

	s = calloc(1, sizeof(*s));
	if (s == NULL)
		fatal("out of memory");
	s->api_rate_override = -1;
	mju_user_error = sim_error_hook;
	mju_user_warning = sim_warning_hook;
	return s;
}

void
sim_free(struct sim *s)
{
	if (s == NULL)
		return;
	if (s->d != NULL)
		mj_deleteData(s->d);
	if (s->m != NULL)
		mj_deleteModel(s->m);
	sim_robot_free(s->robot);
	sim_keys_free(s);
	sim_scratch_free(s);
	sim_pristine_free(s);
	sim_rollback_free(s);
	sim_history_free(s);
	sim_undo_free(s);
	free(sim_tracked.p);
	sim_tracked.p = NULL;
	sim_tracked.cap = 0;
	free(s);
}

/* mju_user_malloc while tracking: MuJoCo's alignment, remembered. */
static void *
sim_track_malloc(size_t size)
{
	void *p, **np;

	if (sim_tracked.n == sim_tracked.cap) {
		np = realloc(
		    sim_tracked.p, (sim_tracked.cap + 64) * sizeof(*np));
		if (np == NULL)
			return NULL;
		sim_tracked.p = np;
		sim_tracked.cap += 64;
	}
	if (posix_memalign(&p, 64, size) != 0)
		return NULL;
	sim_tracked.p[sim_tracked.n++] = p;
	return p;
}

/* mju_user_free while tracking: forget, then free. */
static void
sim_track_free(void *p)
{
	size_t i;

	for (i = sim_tracked.n; i > 0; i--) {
		if (sim_tracked.p[i - 1] == p) {
			sim_tracked.p[i - 1] = sim_tracked.p[--sim_tracked.n];
			break;
		}
	}
	free(p);
}

/* Start or stop tracking; stopping after a failure frees what is left. */
static void
sim_track(int on, int failed)
{
	size_t i;

	if (!on && failed) {
		for (i = 0; i < sim_tracked.n; i++)
			free(sim_tracked.p[i]);
	}
	sim_tracked.n = 0;
	mju_user_malloc = on ? sim_track_malloc : NULL;
	mju_user_free = on ? sim_track_free : NULL;
}

/*
 * Run fn(arg) with a recovery point for mju_error; with track, free what
 * MuJoCo allocated if it fails.  Returns 0, or -1 with MuJoCo's message in
 * err; the caller decides what to repair.
 */
static int
sim_guard(void (*fn)(void *), void *arg, int track, char *err, size_t len)
{
	jmp_buf here;
	jmp_buf *outer = sim_recover;

	if (setjmp(here) != 0) {
		sim_recover = outer;
		if (track)
			sim_track(0, 1);
		snprintf(err, len, "MuJoCo error: %s", sim_error_text);
		return -1;
	}
	sim_recover = &here;
	if (track)
		sim_track(1, 0);
	fn(arg);
	if (track)
		sim_track(0, 0);
	sim_recover = outer;
	return 0;
}

/* The computations' data was made for the model that goes. */
static void
sim_scratch_free(struct sim *s)
{
	if (s->scratch != NULL)
		mj_deleteData(s->scratch);
	s->scratch = NULL;
	s->scratch_probed = 0;
}

int
sim_guarded(void (*fn)(void *), void *arg, char *err, size_t len)
{
	return sim_guard(fn, arg, 0, err, len);
}

int
sim_protect(struct sim *s, void (*fn)(void *), void *arg, char *err, size_t len)
{
	if (sim_guard(fn, arg, 0, err, len) == 0)
		return 0;
	s->counters.errors++;
	sim_log_limited(LOG_LEVEL_ERROR, "%s; the simulation was reset", err);
	/* mju_error may leave the stack marked and the data half-computed. */
	if (s->d != NULL) {
		mj_resetData(s->m, s->d);
		sim_robot_reset(s);
	}
	return -1;
}

/* Recompute sizes and array views after a load. */
static void
sim_refresh(struct sim *s)
{
	const mjModel *m = s->m;
	const mjData *d = s->d;
	struct sim_sizes *z = &s->sizes;
	struct sim_arrays *a = &s->arrays;

	z->nq = m->nq;
	z->nv = m->nv;
	z->na = m->na;
	z->nu = m->nu;
	z->nbody = m->nbody;
	z->njnt = m->njnt;
	z->ngeom = m->ngeom;
	z->nsite = m->nsite;
	z->ntendon = m->ntendon;
	z->neq = m->neq;
	z->nkey = m->nkey;
	z->nmocap = m->nmocap;
	z->nsensor = m->nsensor;
	z->nsensordata = m->nsensordata;
	z->nmat = m->nmat;
	z->timestep = m->opt.timestep;
	z->apirate = s->api_rate_override >= 0 ? s->api_rate_override :
						 m->opt.apirate;

	a->qpos = d->qpos;
	a->qvel = d->qvel;
	a->act = d->act;
	a->ctrl = d->ctrl;
	a->qacc = d->qacc;
	a->qacc_warmstart = d->qacc_warmstart;
	a->act_dot = d->act_dot;
	a->qfrc_applied = d->qfrc_applied;
	a->xfrc_applied = d->xfrc_applied;
	a->mocap_pos = d->mocap_pos;
	a->mocap_quat = d->mocap_quat;
	a->sensordata = d->sensordata;
	a->xpos = d->xpos;
	a->xmat = d->xmat;
	a->geom_xpos = d->geom_xpos;
	a->geom_xmat = d->geom_xmat;
	a->site_xpos = d->site_xpos;
	a->site_xmat = d->site_xmat;
	a->ten_length = d->ten_length;
	a->ten_velocity = d->ten_velocity;
	a->actuator_length = d->actuator_length;
	a->actuator_velocity = d->actuator_velocity;
	a->actuator_force = d->actuator_force;
	a->qfrc_passive = d->qfrc_passive;
	a->qfrc_bias = d->qfrc_bias;
	a->qfrc_actuator = d->qfrc_actuator;
	a->qfrc_constraint = d->qfrc_constraint;
	a->qfrc_smooth = d->qfrc_smooth;
}

void
sim_set_api_rate(struct sim *s, double hz)
{
	s->api_rate_override = hz;
	if (s->m != NULL)
		s->sizes.apirate = hz >= 0 ? hz : s->m->opt.apirate;
}

/* The loader's: no pristine copy (sim.h). */
int sim_lean;

struct sim_make_args {
	struct sim *s;
	mjModel *m;
	mjData *d; /* the data to reset, or NULL: make it */
};

/*
 * Data for a new model, and its first forward pass.  Data of the same
 * sizes is reset rather than made: mj_makeData is an allocation and
 * mj_resetData, which clears the whole buffer, so the result is the
 * same, without allocating (and faulting in) megabytes again.
 */
static void
sim_make_data(void *arg)
{
	struct sim_make_args *a = arg;

	if (a->d != NULL)
		mj_resetData(a->m, a->d);
	else
		a->d = mj_makeData(a->m);
	if (a->d != NULL)
		mj_forward(a->m, a->d);
}

/*
 * Return 1 if data made for a fits b: every size of mjModel that
 * mjData's layout follows (those from nq to nbuffer) is the same.
 */
static int
sim_same_data_layout(const mjModel *a, const mjModel *b)
{
	size_t from = offsetof(mjModel, nq), to = offsetof(mjModel, nbuffer);

	return memcmp((const char *)a + from, (const char *)b + from,
		   to - from) == 0;
}

/*
 * Make m the running model (name and path for logs and status), or
 * free it and keep the old one when its data cannot be made.
 */
static int
sim_install(struct sim *s, mjModel *m, const char *name, const char *path,
    char *err, size_t len)
{
	struct sim_make_args a = { s, m, NULL };
	mjData *old_d = s->d;
	mjModel *old_m = s->m;
	int reuse;

	if (sim_check_model(m, err, len) != 0) {
		mj_deleteModel(m);
		return -1;
	}
	reuse = old_d != NULL && sim_same_data_layout(old_m, m);
	if (reuse)
		a.d = old_d;
	/* An error here concerns the new model only: the old one runs on. */
	if (sim_guard(sim_make_data, &a, 1, err, len) != 0) {
		/* What mj_makeData allocated was freed with the guard. */
		mj_deleteModel(m);
		/* Data reset for it runs on from the old model's defaults. */
		if (reuse)
			sim_guard(sim_make_data,
			    &(struct sim_make_args){ s, old_m, old_d }, 1, NULL,
			    0);
		return -1;
	}
	if (a.d == NULL) {
		snprintf(err, len, "could not allocate mjData");
		mj_deleteModel(m);
		return -1;
	}
	if (reuse)
		log_debug("the new model's data: the old one's, reset");
	if (old_d != NULL && !reuse)
		mj_deleteData(old_d);
	if (old_m != NULL && old_m == s->lent)
		s->lent = NULL; /* the carry's now */
	else if (old_m != NULL)
		mj_deleteModel(old_m);
	sim_robot_free(s->robot);
	sim_keys_free(s);
	sim_scratch_free(s);
	s->m = m;
	s->d = a.d;
	s->generation++;
	s->robot = sim_robot_create(m, a.d);
	if (!sim_lean)
		sim_pristine_take(s);
	/* MuJoCo names unnamed models "MuJoCo Model": use the file's name. */
	if (m->names[0] != '\0' && strcmp(m->names, "MuJoCo Model") != 0)
		snprintf(s->name, sizeof(s->name), "%s", m->names);
	else
		snprintf(s->name, sizeof(s->name), "%s", name);
	snprintf(s->path, sizeof(s->path), "%s", path);
	memset(&s->counters, 0, sizeof(s->counters));
	sim_refresh(s);
	sim_good(s);
	return 0;
}

struct sim_load_args {
	const char *file;
	const mjVFS *vfs;
	int mjb;
	mjModel *m;
	char error[1024];
};

/* Parse and compile (or read) a model. */
static void
sim_load_fn(void *arg)
{
	struct sim_load_args *a = arg;

	if (a->mjb)
		a->m = mj_loadModel(a->file, a->vfs);
	else {
		sim_in_xml = 1;
		a->m = mj_loadXML(a->file, a->vfs, a->error, sizeof(a->error));
		sim_in_xml = 0;
	}
}

/* Run a load and install its model; err gets MuJoCo's message. */
static int
sim_load(struct sim *s, struct sim_load_args *a, const char *name,
    const char *path, char *err, size_t len)
{
	err[0] = '\0';
	a->error[0] = '\0';
	sim_warning_text[0] = '\0';
	if (sim_guard(sim_load_fn, a, 1, err, len) != 0)
		return -1;
	if (a->m == NULL) {
		if (a->error[0] != '\0')
			snprintf(err, len, "%s", a->error);
		else if (sim_warning_text[0] != '\0')
			snprintf(err, len, "%s", sim_warning_text);
		else
			snprintf(err, len, "MuJoCo could not load the model");
		return -1;
	}
	return sim_install(s, a->m, name, path, err, len);
}

/* Return 1 if path ends with suffix, ignoring case. */
static int
sim_has_suffix(const char *path, const char *suffix)
{
	size_t n = strlen(path), k = strlen(suffix);

	return n >= k && strcasecmp(path + n - k, suffix) == 0;
}

/* The model name a file gives: its base name without the suffix. */
static void
sim_file_name(const char *path, char *name, size_t len)
{
	const char *base, *dot;

	base = strrchr(path, '/');
	base = base != NULL ? base + 1 : path;
	dot = strrchr(base, '.');
	snprintf(name, len, "%.*s",
	    dot != NULL ? (int)(dot - base) : (int)strlen(base), base);
}

int
sim_load_file(struct sim *s, const char *path, char *err, size_t len)
{
	struct sim_load_args a = { 0 };
	char name[256];

	a.file = path;
	a.mjb = sim_has_suffix(path, ".mjb");
	sim_file_name(path, name, sizeof(name));
	return sim_load(s, &a, name, path, err, len);
}

int
sim_is_mjb(enum sim_format fmt, const void *data, size_t size)
{
	static const char mjb_magic[4] = { 0x31, (char)0xd4, 0, 0 };

	if (fmt == SIM_FORMAT_AUTO)
		return size >= 4 && memcmp(data, mjb_magic, 4) == 0;
	return fmt == SIM_FORMAT_MJB;
}

/*
 * Put data in vfs's next file under file's name as MuJoCo's own calls
 * store it (the base name, in lower case), and check that MuJoCo finds
 * it there and not before it.  0, or -1 for a name MuJoCo could not
 * store, an empty file or one of a name already in.
 */
static int
sim_vfs_add(mjVFS *vfs, const char *file, const void *data, size_t size)
{
	static const char none = 0;
	const char *base = file, *p;
	size_t i, n;
	int k = vfs->nfile;

	for (p = file; *p != '\0'; p++)
		if (*p == '/' || *p == '\\')
			base = p + 1;
	if ((n = strlen(base)) == 0 || n >= mjMAXVFSNAME || size == 0 ||
	    size > INT_MAX || k >= mjMAXVFS - 1)
		return -1;
	for (i = 0; i < n; i++)
		vfs->filename[k][i] = base[i] >= 'A' && base[i] <= 'Z' ?
		    (char)(base[i] - 'A' + 'a') :
		    base[i];
	vfs->filename[k][n] = '\0';
	/* Never NULL: MuJoCo takes a file without data for none, and reads
	 * the disk. */
	vfs->filedata[k] = (void *)(uintptr_t)(data != NULL ? data : &none);
	vfs->filesize[k] = (int)size;
	vfs->nfile = k + 1;
	if (mj_findFileVFS(vfs, file) != k) {
		vfs->nfile = k;
		return -1;
	}
	return 0;
}

/*
 * A VFS of data under file's name, then nfiles files: filled here rather
 * than by mj_defaultVFS and mj_makeEmptyFileVFS, which clear the VFS's
 * 2 MB of names and copy the data (2 MB of MJB for the MPL scene: 2.7 ms
 * of an edit's install); calloc's fresh pages stay untouched.  MuJoCo
 * only reads the data, which stays the caller's: free the VFS with
 * free(), not mj_deleteVFS.  NULL with err for a file MuJoCo could not
 * store, or two of one name.
 */
static mjVFS *
sim_vfs_of(const char *file, const void *data, size_t size,
    const struct sim_file *files, size_t nfiles, char *err, size_t len)
{
	mjVFS *vfs;
	size_t i;

	if ((vfs = calloc(1, sizeof(*vfs))) == NULL)
		fatal("out of memory");
	if (sim_vfs_add(vfs, file, data, size) != 0) {
		snprintf(err, len, "cannot stage the model in memory");
		free(vfs);
		return NULL;
	}
	for (i = 0; i < nfiles; i++)
		if (sim_vfs_add(vfs, files[i].name, files[i].data,
			files[i].size) != 0) {
			snprintf(err, len,
			    "cannot stage the file \"%.200s\" in memory: an "
			    "empty file, a name MuJoCo cannot keep, or one it "
			    "has already",
			    files[i].name);
			free(vfs);
			return NULL;
		}
	return vfs;
}

int
sim_load_buffer(struct sim *s, enum sim_format fmt, const void *data,
    size_t size, const char *name, const char *path, char *err, size_t len)
{
	return sim_load_buffer_with(
	    s, fmt, data, size, name, path, NULL, 0, err, len);
}

int
sim_load_buffer_with(struct sim *s, enum sim_format fmt, const void *data,
    size_t size, const char *name, const char *path,
    const struct sim_file *files, size_t nfiles, char *err, size_t len)
{
	struct sim_load_args a = { 0 };
	char base[256];
	const char *file;
	mjVFS *vfs;
	int rc;

	if (size == 0 || size > INT_MAX) {
		snprintf(err, len, "model of %zu bytes cannot be loaded", size);
		return -1;
	}
	a.mjb = sim_is_mjb(fmt, data, size);
	if (path != NULL) {
		/* The VFS knows files by base name; MuJoCo keeps the directory.
		 */
		file = path;
		sim_file_name(path, base, sizeof(base));
		name = base;
	} else if (fmt == SIM_FORMAT_MJB)
		file = "inline.mjb";
	else if (fmt == SIM_FORMAT_URDF)
		file = "inline.urdf";
	else
		file = "inline.xml";
	if ((vfs = sim_vfs_of(file, data, size, files, a.mjb ? 0 : nfiles, err,
		 len)) == NULL)
		return -1;
	a.file = file;
	a.vfs = vfs;
	rc = sim_load(s, &a, name != NULL && *name != '\0' ? name : "inline",
	    path != NULL ? path : "", err, len);
	free(vfs);
	return rc;
}

int
sim_loaded(const struct sim *s)
{
	return s->m != NULL;
}

const struct sim_sizes *
sim_sizes(const struct sim *s)
{
	return &s->sizes;
}

const struct sim_arrays *
sim_arrays(const struct sim *s)
{
	return &s->arrays;
}

const char *
sim_model_name(const struct sim *s)
{
	return s->name;
}

const char *
sim_model_path(const struct sim *s)
{
	return s->path;
}

/*
 * mj_sizeModel() is only a bound: MuJoCo 2.2 counts the alignment padding
 * of the model's buffer (nbuffer), which mj_saveModel() does not write,
 * and the bytes after the model, sent as they are, made mj_loadModel()
 * refuse the MJB ("Model file is too large").  What it writes is the
 * bound less the buffer, plus each array of the model without padding:
 * the model's own list of arrays (mjxmacro.h) counts them.
 */
size_t
sim_mjb_size(const struct sim *s)
{
	const mjModel *m = s->m;
	size_t n = (size_t)mj_sizeModel(m) - (size_t)m->nbuffer;

	MJMODEL_POINTERS_PREAMBLE(m)
#define X(type, name, nr, nc) \
	n += sizeof(type) * (size_t)(m->nr) * (size_t)(nc);
	MJMODEL_POINTERS
#undef X
	return n;
}

size_t
sim_mjb_save(const struct sim *s, void *buf, size_t size)
{
	size_t n = sim_mjb_size(s);

	if (n > size || size > INT_MAX)
		return 0;
	mj_saveModel(s->m, NULL, buf, (int)size);
	return n;
}

int
sim_mujoco_version(void)
{
	return mj_version();
}

double
sim_time(const struct sim *s)
{
	return s->d != NULL ? s->d->time : 0;
}

const struct sim_counters *
sim_counters(const struct sim *s)
{
	return &s->counters;
}

/*
 * A step went bad: MuJoCo found qpos, qvel or qacc bad (and reset the
 * data), or the state is not finite.  Count it, as what for the event;
 * sim_rollback or sim_settle_unstable settles it.
 */
static void
sim_count_instability(struct sim *s, const char *why)
{
	static const char *const names[] = { "qpos", "qvel", "qacc" };
	const char *what = "state";
	size_t i;

	for (i = 0; i < 3; i++)
		if (strstr(why, names[i]) != NULL)
			what = names[i];
	s->counters.instability_resets++;
	s->counters.instability_what = what;
}

/* One step under protection. */
static void
sim_step_fn(void *arg)
{
	struct sim *s = arg;

	mj_step(s->m, s->d);
}

void
sim_before_step(struct sim *s)
{
	sim_robot_before_step(s);
}

int
sim_step(struct sim *s, char *err, size_t len)
{
	double t0, dt;

	t0 = monotonic_s();
	if (sim_protect(s, sim_step_fn, s, err, len) != 0)
		return -1;
	dt = monotonic_s() - t0;
	s->counters.cpu_per_step = s->counters.steps == 0 ?
	    dt :
	    0.99 * s->counters.cpu_per_step + 0.01 * dt;
	s->counters.steps++;
	if (sim_step_bad(s, err, len)) {
		sim_count_instability(s, err);
		return 1;
	}
	return 0;
}
