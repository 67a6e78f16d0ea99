/* Loads in the background, each by a loader process: see loadjob.h. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/pidfd.h>
#include <sys/queue.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <event2/event.h>

#include "answermem.h"
#include "daemon.h"
#include "fdpass.h"
#include "loadjob.h"
#include "log.h"
#include "modeldir.h"
#include "modeltext.h"
#include "monotonic.h"
#include "options.h"
#include "result.h"
#include "sim_carry.h"

/*
 * A load that ends within this long of the one before is in a burst (of
 * edits, mostly): the daemon gives its freed heap back when the burst
 * is over, not after each, since the next edit's model, its copies and
 * its answer would fault the same pages in again (some 2 ms of an edit
 * each).  A load alone gives it back at once.
 */
#define LOADJOB_TRIM_SECONDS 1

/* Room for the loader's answer besides the model: its header and reason. */
#define LOADJOB_SLACK (sizeof(struct loader_result) + 8192)

/*
 * Room for the next answer beyond the last one's size: an edit's answer
 * a few bytes longer would find its memory short, and fault 2 MB in.
 */
#define LOADJOB_ROOM 65536

/* The answer pipe's size: Linux's most for a user (pipe-max-size). */
#define LOADJOB_PIPE_SIZE (1 << 20)

/* A peer with loads waiting or running, and when it last started one. */
struct loadjob_peer {
	LIST_ENTRY(loadjob_peer) entry;
	char key[64];
	uint64_t started; /* the turn when its last load started; 0 */
	unsigned queued;  /* its loads waiting or running */
};

struct loadjob {
	TAILQ_ENTRY(loadjob) entry;
	struct daemon *d;
	const void *owner;
	struct loadjob_peer *peer;
	loadjob_done_fn done;
	void *arg;
	int request_fd; /* the request, for the loader's stdin */
	char *path;     /* the file, or NULL */
	char *name;     /* an inline model's name, or NULL */
	void *assets;   /* the files an inline model carries (packed) */
	size_t assets_len, nassets;
	int edit;       /* an edit: keep the state, the name and the file */
	void *edit_msg; /* an edit's operations, until its loader starts */
	size_t edit_len;
	double seconds; /* the time limit */
	size_t max;     /* most bytes the answer may have */

	pid_t pid;  /* the loader, once started */
	int out;    /* its standard output */
	int answer; /* the shared memory it answers in (loader.h) */
	struct event *read_ev, *timer;
	int timed_out;
	double started;
	char *buf; /* what it answered so far on its output */
	size_t len, cap;
	size_t got; /* the size of the answer taken */
};

/*
 * A loader whose whole answer is in, killed and not yet reaped: its end
 * (letting go of a heap of 64 MiB and more) takes milliseconds that the
 * install and the answer need not wait for.  Reaped when its pidfd says
 * it has ended.
 */
struct loadjob_ending {
	LIST_ENTRY(loadjob_ending) entry;
	pid_t pid;
	struct event *ev; /* on its pidfd */
};

/*
 * The loads (d->loadjob): the running one first, if one runs; then those
 * waiting, as asked; the peers they belong to; and the loaders ending.
 */
struct loadjobs {
	TAILQ_HEAD(, loadjob) jobs;
	size_t n;
	LIST_HEAD(, loadjob_peer) peers;
	LIST_HEAD(, loadjob_ending) ending;
	struct event *trim_ev; /* the heap given back after a burst */
	double finished;       /* when the last load ended (monotonic_s) */
	uint64_t turn;         /* loads started */
	size_t answer_hint;    /* room for the next answer: the last one's
				  size and LOADJOB_ROOM */
};
static loadjob_peer_fn loadjob_peer_of;
static int loadjob_here; /* loads run in this process (loadjob_inprocess) */

/*
 * This executable, opened once: the loader runs it again.  A descriptor
 * rather than the path "/proc/self/exe": it is the same file after an
 * upgrade replaced the one on disk, and under valgrind it is haptixd,
 * not valgrind's tool.
 */
static int loadjob_exe = -1;

/*
 * The loader kept ready for the next load: started (posix_spawn, exec,
 * the dynamic linking of MuJoCo: some 10 ms) as the last load's job is
 * handed to its loader (loadjob_spawn),
 * it waits on a socket, having read nothing, for its job's request file;
 * only then does it read, enter the sandbox and compile, as one started
 * for its job does.  pid 0: none.
 */
static struct {
	pid_t pid;
	int ctl;    /* our end of its socket: the request file goes here */
	int out;    /* its standard output */
	int answer; /* its answer's shared memory */
} loadjob_spare = { 0, -1, -1, -1 };

static pid_t loadjob_exec(int, size_t, int *, int *, char *, size_t);
static void loadjob_spare_arm(size_t);
static void loadjob_spare_free(void);
static pid_t loadjob_spare_take(int, int *, int *);

static int loadjob_request_fd(
    const struct daemon *, const struct loadjob_request *, char *, size_t);
static int loadjob_spawn(struct loadjob *, char *, size_t);
static void loadjob_next(struct daemon *);
static void loadjob_finish(struct loadjob *);
static void loadjob_job_free(struct loadjob *);
static void loadjob_kill(struct loadjob *);
static void loadjob_let_go(struct loadjob *);
static void loadjob_ended_cb(evutil_socket_t, short, void *);
static void loadjob_ending_free(struct loadjob_ending *, int);
static void loadjob_trim_cb(evutil_socket_t, short, void *);
static void loadjob_events_free(struct loadjobs *);
static void loadjob_read_cb(evutil_socket_t, short, void *);
static void loadjob_timeout_cb(evutil_socket_t, short, void *);
static int loadjob_take(struct loadjob *, const char *, size_t, char *, size_t);
static int loadjob_answer(struct loadjob *, char *, size_t);
static int loadjob_failure(struct loadjob *, int, char *, size_t);

struct loadjobs *
loadjob_create(void)
{
	struct loadjobs *lj;

	if ((lj = calloc(1, sizeof(*lj))) == NULL)
		fatal("out of memory");
	TAILQ_INIT(&lj->jobs);
	LIST_INIT(&lj->peers);
	LIST_INIT(&lj->ending);
	return lj;
}

/*
 * The loaders ending, reaped (they were killed: soon), and the trim's
 * timer: before the event base goes.
 */
static void
loadjob_events_free(struct loadjobs *lj)
{
	struct loadjob_ending *e;

	while ((e = LIST_FIRST(&lj->ending)) != NULL)
		loadjob_ending_free(e, 1);
	if (lj->trim_ev != NULL)
		event_free(lj->trim_ev);
	lj->trim_ev = NULL;
}

void
loadjob_free(struct loadjobs *lj)
{
	struct loadjob_peer *p;
	struct loadjob *j;

	loadjob_spare_free();
	if (lj == NULL)
		return;
	/* Loads left (the daemon stops without loadjob_shutdown): no answer. */
	while ((j = TAILQ_FIRST(&lj->jobs)) != NULL) {
		loadjob_kill(j);
		TAILQ_REMOVE(&lj->jobs, j, entry);
		loadjob_job_free(j);
	}
	while ((p = LIST_FIRST(&lj->peers)) != NULL) {
		LIST_REMOVE(p, entry);
		free(p);
	}
	loadjob_events_free(lj);
	free(lj);
}

void
loadjob_limits(const struct daemon *d, struct loader_limits *l)
{
	const struct options *o = d->opts;

	memset(l, 0, sizeof(*l));
	l->seconds = o->load_timeout;
	l->memory = (uint64_t)o->load_memory << 20;
	l->model.bodies = o->model_max_bodies;
	l->model.keys = o->model_max_keys;
	l->model.hfield_cells = o->model_max_hfield;
	l->model.texture_pixels = o->model_max_texture;
	l->model.mesh_vertices = o->model_max_mesh_vertices;
}

/*
 * Write the loader's request into an anonymous file, which becomes its
 * standard input: the loader reads it at its own pace, and the daemon
 * never blocks on a pipe.  Returns the descriptor, or -1 with err set.
 */
static int
loadjob_request_fd(const struct daemon *d, const struct loadjob_request *r,
    char *err, size_t len)
{
	struct loader_request q;
	int fd, i;

	memset(&q, 0, sizeof(q));
	q.magic = LOADER_MAGIC;
	q.source = r->source;
	q.format = r->format;
	q.legacy = (uint32_t)r->legacy;
	loadjob_limits(d, &q.limits);
	q.path_len = r->source != LOADER_INLINE ? (uint32_t)strlen(r->path) : 0;
	/* modeldir's: the settings' and those clients added. */
	for (i = 0; i < modeldir_count(); i++)
		q.dirs_len += (uint32_t)strlen(modeldir_get(i)) + 1;
	q.data_len = r->source != LOADER_FILE ? r->len : 0;
	q.edit_len = r->source == LOADER_EDIT ? r->edit_len : 0;
	q.assets_len = r->source != LOADER_FILE ? r->assets_len : 0;
	q.nassets = r->source != LOADER_FILE ? (uint32_t)r->nassets : 0;
	if ((fd = memfd_create("haptixd-load", MFD_CLOEXEC)) == -1) {
		snprintf(err, len, "cannot start a load: memfd_create: %s",
		    strerror(errno));
		return -1;
	}
	if (loader_write_all(fd, &q, sizeof(q)) != 0 ||
	    loader_write_all(fd, r->path, q.path_len) != 0)
		goto fail;
	for (i = 0; i < modeldir_count(); i++)
		if (loader_write_all(
			fd, modeldir_get(i), strlen(modeldir_get(i)) + 1) != 0)
			goto fail;
	if (loader_write_all(fd, r->data, q.data_len) != 0 ||
	    loader_write_all(fd, r->edit, q.edit_len) != 0 ||
	    loader_write_all(fd, r->assets, q.assets_len) != 0 ||
	    lseek(fd, 0, SEEK_SET) != 0)
		goto fail;
	return fd;
fail:
	snprintf(err, len, "cannot start a load: %s", strerror(errno));
	close(fd);
	return -1;
}

void
loadjob_inprocess(int on)
{
	loadjob_here = on;
}

/* Run j's load here, as loadjob_inprocess() asks, on the next turn. */
static void
loadjob_here_cb(evutil_socket_t fd, short events, void *arg)
{
	struct loadjob *j = arg;
	struct loader_request r;
	char err[512], *path, *dirs, *data, *assets;

	if (loader_read_request(j->request_fd, &r, &path, &dirs, &data, &assets,
		err, sizeof(err)) == 0)
		j->buf = loader_work(&r, path, data, assets, &j->len);
	j->cap = j->len;
	free(path);
	free(dirs);
	free(data);
	free(assets);
	j->pid = -1;
	loadjob_finish(j);
}

/*
 * An edit's request, made when its loader starts rather than when it was
 * asked for: the edit applies to the model's text as the loads and edits
 * queued before it left it, so that an edit waiting behind another keeps
 * the other's changes.  Returns the descriptor, or -1 with err set.
 */
static int
loadjob_edit_fd(struct loadjob *j, char *err, size_t len)
{
	struct loadjob_request r = { 0 };
	struct daemon *d = j->d;
	const char *path = sim_model_path(d->sim), *base;
	char standin[4200];

	if (d->model->xml == NULL) {
		snprintf(err, len,
		    "the model \"%s\" has no MJCF text to edit: it was "
		    "loaded from MJB or URDF",
		    sim_model_name(d->sim));
		return -1;
	}
	/* The text stands where the model's file does, or inline.xml. */
	base = strrchr(path, '/');
	snprintf(standin, sizeof(standin), "%s/%s", d->model->dir,
	    base != NULL ? base + 1 : "inline.xml");
	r.source = LOADER_EDIT;
	r.path = standin;
	r.data = d->model->xml;
	r.len = d->model->len;
	r.edit = j->edit_msg;
	r.edit_len = j->edit_len;
	/* The files the model carries, if it came inline with them. */
	r.assets = d->model->assets;
	r.assets_len = d->model->assets_len;
	r.nassets = d->model->nassets;
	return loadjob_request_fd(d, &r, err, len);
}

/* Start j's loader: this executable again, as the loader. */
static int
loadjob_spawn(struct loadjob *j, char *err, size_t len)
{
	struct timeval tv;
	pid_t pid;
	int out;

	if (j->request_fd == -1 &&
	    (j->request_fd = loadjob_edit_fd(j, err, len)) == -1)
		return -1;
	if (loadjob_here) {
		struct timeval zero = { 0, 0 };

		j->pid = -2; /* running, in this process */
		j->started = monotonic_s();
		j->timer = evtimer_new(j->d->base, loadjob_here_cb, j);
		evtimer_add(j->timer, &zero);
		return 0;
	}
	if ((pid = loadjob_spare_take(j->request_fd, &out, &j->answer)) <= 0 &&
	    (pid = loadjob_exec(j->request_fd, j->d->loadjob->answer_hint, &out,
		 &j->answer, err, len)) <= 0)
		return -1;
	close(j->request_fd);
	j->request_fd = -1;
	/*
	 * The next job's loader starts now, beside this one's compile, and
	 * is ready (its heap warm) when the next edit comes, even at once:
	 * started when this job was over, it was still starting then (an
	 * edit right after an edit: 51 ms, against 36 ms).
	 */
	loadjob_spare_arm(j->d->loadjob->answer_hint);
	j->pid = pid;
	j->out = out;
	j->started = monotonic_s();
	evutil_make_socket_nonblocking(j->out);
	j->read_ev = event_new(
	    j->d->base, j->out, EV_READ | EV_PERSIST, loadjob_read_cb, j);
	j->timer = evtimer_new(j->d->base, loadjob_timeout_cb, j);
	event_add(j->read_ev, NULL);
	tv.tv_sec = (time_t)j->seconds;
	tv.tv_usec = (suseconds_t)((j->seconds - (double)tv.tv_sec) * 1e6);
	evtimer_add(j->timer, &tv);
	log_debug("loader %ld started", (long)pid);
	return 0;
}

/*
 * Run this executable as the loader, its standard input in (a request
 * file, or a spare's socket): its pid, its standard output in *out and
 * the shared memory it answers in (LOADER_ANSWER_FD, sized hint bytes
 * for it to fault in ahead) in *answer; or -1 with err set.
 */
static pid_t
loadjob_exec(int in, size_t hint, int *out, int *answer, char *err, size_t len)
{
	static char name[] = "haptixd", arg[] = LOADER_ARG;
	char *const argv[] = { name, arg, NULL };
	posix_spawn_file_actions_t fa;
	char exe[64];
	int pipefd[2], rc, mem;
	pid_t pid;

	if (loadjob_exe == -1 &&
	    (loadjob_exe = open("/proc/self/exe", O_RDONLY | O_CLOEXEC)) ==
		-1) {
		snprintf(err, len,
		    "cannot start the loader: /proc/self/exe: %s",
		    strerror(errno));
		return -1;
	}
	if ((mem = answermem_create(hint)) == -1) {
		snprintf(err, len,
		    "cannot start the loader: its answer's "
		    "memory: %s",
		    strerror(errno));
		return -1;
	}
	if (pipe2(pipefd, O_CLOEXEC) == -1) {
		snprintf(
		    err, len, "cannot start the loader: %s", strerror(errno));
		close(mem);
		return -1;
	}
	/*
	 * Room in the pipe for the answer in few writes (the MPL scene's is
	 * 2 MB: 32 wakes of the loop at the pipe's 64 KiB); where the
	 * system allows less, the pipe stays as it is.
	 */
	(void)fcntl(pipefd[0], F_SETPIPE_SZ, LOADJOB_PIPE_SIZE);
	/*
	 * posix_spawn, not fork: glibc's shares the daemon's memory with the
	 * child until the exec (CLONE_VM), where fork marked every page of
	 * the daemon copy-on-write, and the daemon's next write to each
	 * (the next edit's mj_resetData: 13 MB of the MPL scene's data)
	 * took a fault.
	 */
	snprintf(exe, sizeof(exe), "/proc/self/fd/%d", loadjob_exe);
	if ((rc = posix_spawn_file_actions_init(&fa)) == 0) {
		if ((rc = posix_spawn_file_actions_adddup2(&fa, in, 0)) == 0 &&
		    (rc = posix_spawn_file_actions_adddup2(
			 &fa, pipefd[1], 1)) == 0 &&
		    (rc = posix_spawn_file_actions_adddup2(
			 &fa, mem, LOADER_ANSWER_FD)) == 0)
			rc = posix_spawn(&pid, exe, &fa, NULL, argv, environ);
		posix_spawn_file_actions_destroy(&fa);
	}
	if (rc != 0) {
		snprintf(err, len, "cannot start the loader: %s", strerror(rc));
		close(pipefd[0]);
		close(pipefd[1]);
		close(mem);
		return -1;
	}
	close(pipefd[1]);
	*out = pipefd[0];
	*answer = mem;
	return pid;
}

/* Start the spare loader, unless one waits (hint: loadjob_exec). */
static void
loadjob_spare_arm(size_t hint)
{
	char err[256];
	int sp[2];

	if (loadjob_spare.pid != 0)
		return;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp) != 0) {
		log_debug("no spare loader: socketpair: %s", strerror(errno));
		return;
	}
	loadjob_spare.pid = loadjob_exec(sp[1], hint, &loadjob_spare.out,
	    &loadjob_spare.answer, err, sizeof(err));
	close(sp[1]);
	if (loadjob_spare.pid <= 0) {
		log_debug("no spare loader: %s", err);
		loadjob_spare.pid = 0;
		close(sp[0]);
		return;
	}
	loadjob_spare.ctl = sp[0];
}

/*
 * Let the spare go: close our ends of it (its output and answer too,
 * unless kept).
 */
static void
loadjob_spare_forget(int keep_out)
{
	close(loadjob_spare.ctl);
	if (!keep_out) {
		close(loadjob_spare.out);
		close(loadjob_spare.answer);
	}
	loadjob_spare.pid = 0;
	loadjob_spare.ctl = loadjob_spare.out = loadjob_spare.answer = -1;
}

/* Kill the spare, if one waits, and reap it. */
static void
loadjob_spare_free(void)
{
	if (loadjob_spare.pid == 0)
		return;
	kill(loadjob_spare.pid, SIGKILL);
	while (waitpid(loadjob_spare.pid, NULL, 0) == -1 && errno == EINTR)
		;
	loadjob_spare_forget(0);
}

/*
 * Give the spare its job's request file: its pid, standard output and
 * answer's memory, or 0 when none waits alive (then the load starts a
 * loader of its own).
 */
static pid_t
loadjob_spare_take(int request_fd, int *out, int *answer)
{
	pid_t pid = loadjob_spare.pid;

	if (pid == 0)
		return 0;
	if (waitpid(pid, NULL, WNOHANG) == pid) {
		log_info("the spare loader %ld had ended: the load starts "
			 "its own",
		    (long)pid);
		loadjob_spare_forget(0); /* reaped */
		return 0;
	}
	if (fdpass_send(loadjob_spare.ctl, "j", 1, &request_fd, 1) != 1) {
		loadjob_spare_free();
		return 0;
	}
	*out = loadjob_spare.out;
	*answer = loadjob_spare.answer;
	loadjob_spare_forget(1);
	return pid;
}

void
loadjob_set_peer(loadjob_peer_fn fn)
{
	loadjob_peer_of = fn;
}

/* The peer of key, made if new; NULL if it has no loads and make is 0. */
static struct loadjob_peer *
loadjob_peer_find(struct daemon *d, const char *key, int make)
{
	struct loadjobs *lj = d->loadjob;
	struct loadjob_peer *p;

	LIST_FOREACH(p, &lj->peers, entry)
	if (strcmp(p->key, key) == 0)
		return p;
	if (!make)
		return NULL;
	if ((p = calloc(1, sizeof(*p))) == NULL)
		fatal("out of memory");
	snprintf(p->key, sizeof(p->key), "%s", key);
	LIST_INSERT_HEAD(&lj->peers, p, entry);
	return p;
}

/* Whether j's owner comes before every peer: the daemon, or the hook says. */
static int
loadjob_first(const struct loadjob *j)
{
	char key[64];

	return j->owner == NULL || loadjob_peer_of == NULL ||
	    loadjob_peer_of(j->d, j->owner, key, sizeof(key));
}

/*
 * The waiting load to start next: the oldest of an owner that comes
 * first, else the oldest of the peer that started a load least
 * recently (never, for a new peer).  NULL if none waits.
 */
static struct loadjob *
loadjob_pick(struct loadjobs *lj)
{
	struct loadjob *j, *best = NULL;

	TAILQ_FOREACH(j, &lj->jobs, entry)
	{
		if (j->pid != 0)
			continue;
		if (loadjob_first(j))
			return j;
		if (best == NULL || j->peer->started < best->peer->started)
			best = j;
	}
	return best;
}

int
loadjob_start(struct daemon *d, const struct loadjob_request *r,
    const void *owner, loadjob_done_fn done, void *arg, char *err, size_t len)
{
	struct loadjobs *lj = d->loadjob;
	struct loadjob_peer *p;
	struct loadjob *j;
	char key[64] = "haptixd";
	int fd;

	if (owner != NULL && loadjob_peer_of != NULL)
		loadjob_peer_of(d, owner, key, sizeof(key));
	p = loadjob_peer_find(d, key, 0);
	if (owner != NULL && p != NULL && p->queued >= LOADJOB_PEER_MAX) {
		snprintf(err, len,
		    "%u loads and edits of %s already wait or run (at most "
		    "%d a peer, every connection of it together): ask again "
		    "when one is answered",
		    p->queued, key, LOADJOB_PEER_MAX);
		return RESULT_DENIED;
	}
	if (owner != NULL && lj->n >= LOADJOB_MAX) {
		snprintf(err, len,
		    "%zu loads and edits already wait or run (at most %d in "
		    "all): ask again later",
		    lj->n, LOADJOB_MAX);
		return RESULT_DENIED;
	}
	if (r->source == LOADER_EDIT)
		fd = -1; /* made when its loader starts */
	else if ((fd = loadjob_request_fd(d, r, err, len)) == -1)
		return RESULT_LOADFAILED;
	if ((j = calloc(1, sizeof(*j))) == NULL)
		fatal("out of memory");
	j->d = d;
	j->owner = owner;
	j->done = done;
	j->arg = arg;
	j->request_fd = fd;
	j->out = j->answer = -1;
	j->seconds = d->opts->load_timeout;
	j->max = ((size_t)d->opts->load_memory << 20) + LOADJOB_SLACK;
	if (r->source == LOADER_FILE && (j->path = strdup(r->path)) == NULL)
		fatal("out of memory");
	j->edit = r->source == LOADER_EDIT;
	if (j->edit) {
		if ((j->edit_msg = malloc(r->edit_len + 1)) == NULL)
			fatal("out of memory");
		memcpy(j->edit_msg, r->edit, r->edit_len);
		j->edit_len = r->edit_len;
	}
	if (r->source == LOADER_INLINE &&
	    (j->name = strdup(r->name != NULL ? r->name : "")) == NULL)
		fatal("out of memory");
	if (r->source == LOADER_INLINE && r->nassets > 0) {
		if ((j->assets = malloc(r->assets_len + 1)) == NULL)
			fatal("out of memory");
		memcpy(j->assets, r->assets, r->assets_len);
		j->assets_len = r->assets_len;
		j->nassets = r->nassets;
	}
	j->peer = loadjob_peer_find(d, key, 1);
	j->peer->queued++;
	TAILQ_INSERT_TAIL(&lj->jobs, j, entry);
	lj->n++;
	loadjob_next(d);
	return RESULT_OK;
}

/* Start the first load that is waiting; answer those that cannot start. */
static void
loadjob_next(struct daemon *d)
{
	struct loadjobs *lj = d->loadjob;
	struct loadjob *j;
	char err[512];

	j = TAILQ_FIRST(&lj->jobs);
	if (j != NULL && j->pid != 0)
		return; /* one runs */
	while ((j = loadjob_pick(lj)) != NULL) {
		/* The running load stands first in the queue. */
		if (j != TAILQ_FIRST(&lj->jobs)) {
			TAILQ_REMOVE(&lj->jobs, j, entry);
			TAILQ_INSERT_HEAD(&lj->jobs, j, entry);
		}
		j->peer->started = ++lj->turn;
		if (loadjob_spawn(j, err, sizeof(err)) == 0)
			return;
		log_error("%s", err);
		TAILQ_REMOVE(&lj->jobs, j, entry);
		lj->n--;
		if (j->done != NULL)
			j->done(j->d, j->arg, RESULT_LOADFAILED, err);
		loadjob_job_free(j);
	}
}

static void
loadjob_job_free(struct loadjob *j)
{
	if (j->peer != NULL && --j->peer->queued == 0) {
		LIST_REMOVE(j->peer, entry);
		free(j->peer);
	}
	if (j->read_ev != NULL)
		event_free(j->read_ev);
	if (j->timer != NULL)
		event_free(j->timer);
	if (j->out != -1)
		close(j->out);
	if (j->answer != -1)
		close(j->answer);
	if (j->request_fd != -1)
		close(j->request_fd);
	free(j->buf);
	free(j->path);
	free(j->name);
	free(j->assets);
	free(j->edit_msg);
	free(j);
}

/* Kill j's loader, if it runs, and reap it. */
static void
loadjob_kill(struct loadjob *j)
{
	if (j->pid == -2)
		j->pid = -1; /* in this process: nothing ran yet */
	if (j->pid <= 0)
		return;
	kill(j->pid, SIGKILL);
	while (waitpid(j->pid, NULL, 0) == -1 && errno == EINTR)
		;
	j->pid = -1;
}

/*
 * j's loader has answered whole: kill it, since it has nothing left to
 * do, and reap it once it has ended (loadjob_ending), without waiting;
 * where no pidfd can be had, wait.  (It ends in the idle class, which it
 * entered as it answered.)
 */
static void
loadjob_let_go(struct loadjob *j)
{
	struct loadjob_ending *e;
	int fd;

	if (j->pid <= 0)
		return;
	kill(j->pid, SIGKILL);
	if ((fd = pidfd_open(j->pid, 0)) == -1 ||
	    (e = calloc(1, sizeof(*e))) == NULL) {
		if (fd != -1)
			close(fd);
		loadjob_kill(j);
		return;
	}
	e->pid = j->pid;
	e->ev = event_new(j->d->base, fd, EV_READ, loadjob_ended_cb, e);
	if (e->ev == NULL)
		fatal("out of memory");
	event_add(e->ev, NULL);
	LIST_INSERT_HEAD(&j->d->loadjob->ending, e, entry);
	j->pid = -1;
}

/* An ending loader has ended: reap it. */
static void
loadjob_ended_cb(evutil_socket_t fd, short events, void *arg)
{
	loadjob_ending_free(arg, 0);
}

/* Reap an ending loader (waiting for its end if wait) and forget it. */
static void
loadjob_ending_free(struct loadjob_ending *e, int wait)
{
	int fd = event_get_fd(e->ev);

	while (
	    waitpid(e->pid, NULL, wait ? 0 : WNOHANG) == -1 && errno == EINTR)
		;
	event_free(e->ev);
	close(fd);
	LIST_REMOVE(e, entry);
	free(e);
}

/* Read what the loader says; at its end, finish the load. */
static void
loadjob_read_cb(evutil_socket_t fd, short events, void *arg)
{
	struct loadjob *j = arg;
	size_t want;
	ssize_t n;
	char *nb;

	for (;;) {
		if (j->len == j->cap) {
			if (j->cap >= j->max) {
				loadjob_kill(j);
				loadjob_finish(j);
				return;
			}
			/*
			 * Room for an answer the size of the last one at
			 * once: grown from 64 KiB by doubling, an edit's
			 * 2 MB were copied again and again.
			 */
			want = j->cap > 0 ? j->cap * 2 :
			    j->d->loadjob->answer_hint > 0 ?
					    j->d->loadjob->answer_hint :
					    LOADJOB_ROOM;
			if (want > j->max)
				want = j->max;
			if ((nb = realloc(j->buf, want)) == NULL)
				fatal("out of memory");
			j->buf = nb;
			j->cap = want;
		}
		n = read(fd, j->buf + j->len, j->cap - j->len);
		if (n > 0) {
			j->len += (size_t)n;
			continue;
		}
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		break; /* the end, or an error: the loader is done */
	}
	loadjob_finish(j);
}

/* The loader took too long: kill it, and fail the load. */
static void
loadjob_timeout_cb(evutil_socket_t fd, short events, void *arg)
{
	struct loadjob *j = arg;

	j->timed_out = 1;
	loadjob_kill(j);
	loadjob_finish(j);
}

/* The loader's refusal, as one of the codes it may give. */
static int
loadjob_code(int code)
{
	switch (code) {
	case RESULT_DENIED:
	case RESULT_BADVALUE:
	case RESULT_BADPROTOCOL:
		return code;
	default:
		return RESULT_LOADFAILED;
	}
}

/*
 * Make the MJB the running model: a load's under its name and file; an
 * edit's keeps the running model's name, file and state.
 */
static int
loadjob_install(
    struct loadjob *j, const void *mjb, size_t n, char *err, size_t len)
{
	struct sim *sim = j->d->sim;
	struct sim_carry *carry;
	char name[256], path[4096];
	int rc;

	if (!j->edit)
		return sim_load_buffer(
		    sim, SIM_FORMAT_MJB, mjb, n, j->name, j->path, err, len);
	snprintf(name, sizeof(name), "%s", sim_model_name(sim));
	snprintf(path, sizeof(path), "%s", sim_model_path(sim));
	carry = sim_carry_take(sim);
	rc = sim_load_buffer(sim, SIM_FORMAT_MJB, mjb, n, name,
	    path[0] != '\0' ? path : NULL, err, len);
	if (rc == 0)
		sim_carry_give(sim, carry);
	sim_carry_free(carry);
	return rc;
}

/*
 * The loader's answer (n bytes at buf): install the model it sent, or
 * say why it did not load; a result code.  -1 when it is not a whole
 * answer.
 */
static int
loadjob_take(
    struct loadjob *j, const char *buf, size_t n, char *err, size_t len)
{
	struct loader_result r;
	const char *mjb;
	size_t need;

	if (n < sizeof(r))
		return -1;
	memcpy(&r, buf, sizeof(r));
	need = sizeof(r) + r.err_len + r.mjb_len + r.xml_len + r.dir_len +
	    r.info_len;
	if (r.magic != LOADER_MAGIC || r.err_len >= 8192 ||
	    r.mjb_len > j->max || r.xml_len > j->max || r.dir_len >= 4096 ||
	    r.info_len > j->max || need != n)
		return -1;
	j->got = n;
	if (r.code != RESULT_OK) {
		snprintf(err, len, "%.*s", (int)r.err_len, buf + sizeof(r));
		return loadjob_code(r.code);
	}
	mjb = buf + sizeof(r) + r.err_len;
	if (loadjob_install(j, mjb, r.mjb_len, err, len) != 0)
		return RESULT_LOADFAILED;
	j->d->model->legacy = (int)r.legacy;
	modeltext_set(j->d->model, mjb + r.mjb_len, r.xml_len,
	    mjb + r.mjb_len + r.xml_len, r.dir_len);
	/*
	 * An edit's model carries what the edited one did; a load's, what it
	 * was sent with, kept while it has text to edit.
	 */
	if (!j->edit) {
		modeltext_set_assets(j->d->model,
		    r.xml_len > 0 ? j->assets : NULL, j->assets_len,
		    j->nassets);
		if (r.xml_len > 0)
			j->assets = NULL;
	}
	snprintf(err, len, "%.*s", (int)r.info_len,
	    mjb + r.mjb_len + r.xml_len + r.dir_len);
	return RESULT_OK;
}

/*
 * What the loader answered: on its output (an answer it could not put in
 * its shared memory, or one run in this process), or else in the shared
 * memory, taken only sealed, so that what the daemon checks and reads
 * is what stays there.  A result code, or -1 when there is no whole
 * answer.
 */
static int
loadjob_answer(struct loadjob *j, char *err, size_t len)
{
	const void *p;
	size_t n;
	int code;

	if (j->timed_out)
		return -1;
	if (j->len > 0 || j->answer == -1)
		return loadjob_take(j, j->buf, j->len, err, len);
	if ((p = answermem_map(j->answer, j->max, &n)) == NULL)
		return -1;
	code = loadjob_take(j, p, n, err, len);
	answermem_unmap(p, n);
	return code;
}

/*
 * Why the loader gave no answer, from how it ended (status, as from
 * waitpid); a result code.
 */
static int
loadjob_failure(struct loadjob *j, int status, char *err, size_t len)
{
	if (j->timed_out)
		snprintf(err, len,
		    "the loader took longer than %g s and was stopped "
		    "(load-timeout)",
		    j->seconds);
	else if (j->len >= j->max)
		snprintf(err, len,
		    "the loader's model is larger than load-memory allows");
	else if (WIFSIGNALED(status) &&
	    (WTERMSIG(status) == SIGXCPU || WTERMSIG(status) == SIGKILL))
		snprintf(err, len,
		    "the loader ran out of CPU time (load-timeout %g s)",
		    j->seconds);
	else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT)
		snprintf(err, len,
		    "the loader gave up on the model (signal %d, %s), as a "
		    "program does when it runs out of memory (load-memory "
		    "%lu MiB)",
		    WTERMSIG(status), strsignal(WTERMSIG(status)),
		    (unsigned long)j->d->opts->load_memory);
	else if (WIFSIGNALED(status))
		snprintf(err, len,
		    "MuJoCo crashed on the model in the loader (signal %d, %s)",
		    WTERMSIG(status), strsignal(WTERMSIG(status)));
	else if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		snprintf(err, len, "the loader could not start");
	else
		snprintf(err, len, "the loader ended without an answer");
	return RESULT_LOADFAILED;
}

/*
 * The loader is done (or was killed): install, reap it, answer.  A whole
 * answer is installed and answered while the loader ends beside it (it
 * closes its end of the pipe before it lets its memory go; it is reaped
 * later, loadjob_let_go); without one, how it ended says why.
 */
static void
loadjob_finish(struct loadjob *j)
{
	struct daemon *d = j->d;
	struct loadjobs *lj = d->loadjob;
	struct timeval quiet = { LOADJOB_TRIM_SECONDS, 0 };
	char err[4200];
	int status = 0, code;
	double now;

	if (j->read_ev != NULL)
		event_del(j->read_ev);
	event_del(j->timer);
	err[0] = '\0';
	code = loadjob_answer(j, err, sizeof(err));
	/* A model's answer sizes the next one's room; a refusal's does not. */
	if (code == RESULT_OK)
		lj->answer_hint = j->got + LOADJOB_ROOM;
	else if (code == -1) {
		if (j->pid > 0) {
			while (
			    waitpid(j->pid, &status, 0) == -1 && errno == EINTR)
				;
			j->pid = -1;
		}
		code = loadjob_failure(j, status, err, sizeof(err));
	}
	log_debug("loader finished in %.3f s: %d, %zu bytes %s",
	    monotonic_s() - j->started, code, j->got,
	    j->got == 0    ? "of answer" :
		j->len > 0 ? "on its output" :
			     "in shared memory");
	TAILQ_REMOVE(&lj->jobs, j, entry);
	lj->n--;
	if (j->done != NULL)
		j->done(d, j->arg, code, err);
	/* Answered first: its end took the daemon's CPU for milliseconds. */
	loadjob_let_go(j);
	loadjob_job_free(j);
	/*
	 * The old model's memory and the answer's, freed but resident in the
	 * heap: give them back, since the daemon runs for long and allocates
	 * nothing per step; at once, or when a burst of loads is over.
	 */
	now = monotonic_s();
	if (now - lj->finished >= LOADJOB_TRIM_SECONDS)
		malloc_trim(0);
	else {
		if (lj->trim_ev == NULL &&
		    (lj->trim_ev = evtimer_new(
			 d->base, loadjob_trim_cb, NULL)) == NULL)
			fatal("out of memory");
		evtimer_add(lj->trim_ev, &quiet);
	}
	lj->finished = now;
	loadjob_next(d);
}

/* A burst of loads is over: give the freed heap back. */
static void
loadjob_trim_cb(evutil_socket_t fd, short events, void *arg)
{
	malloc_trim(0);
}

/* loadjob_run's answer. */
struct loadjob_wait {
	int done, code;
	char *err;
	size_t len;
};

/* Keep the answer of a load waited for. */
static void
loadjob_run_done(struct daemon *d, void *arg, int code, const char *err)
{
	struct loadjob_wait *w = arg;

	if (code == LOADJOB_CANCELLED)
		code = RESULT_LOADFAILED;
	w->done = 1;
	w->code = code;
	snprintf(w->err, w->len, "%s", err);
}

int
loadjob_run(
    struct daemon *d, const struct loadjob_request *r, char *err, size_t len)
{
	struct loadjob_wait w = { 0, 0, err, len };

	if (loadjob_start(d, r, NULL, loadjob_run_done, &w, err, len) != 0)
		return RESULT_LOADFAILED;
	while (!w.done)
		event_base_loop(d->base, EVLOOP_ONCE);
	return w.code;
}

void
loadjob_owner_left(struct daemon *d, const void *owner)
{
	struct loadjobs *lj = d->loadjob;
	struct loadjob *j, *next;
	int restart = 0;

	for (j = TAILQ_FIRST(&lj->jobs); j != NULL; j = next) {
		next = TAILQ_NEXT(j, entry);
		if (owner == NULL || j->owner != owner)
			continue;
		if (j == TAILQ_FIRST(&lj->jobs))
			restart = 1;
		log_info("load of %s stopped: its client left",
		    j->path != NULL ? j->path : "an inline model");
		loadjob_kill(j);
		TAILQ_REMOVE(&lj->jobs, j, entry);
		lj->n--;
		if (j->done != NULL)
			j->done(j->d, j->arg, LOADJOB_CANCELLED, "");
		loadjob_job_free(j);
	}
	if (restart)
		loadjob_next(d);
}

void
loadjob_shutdown(struct daemon *d)
{
	struct loadjobs *lj = d->loadjob;
	struct loadjob *j;

	loadjob_events_free(lj);

	while ((j = TAILQ_FIRST(&lj->jobs)) != NULL) {
		loadjob_kill(j);
		TAILQ_REMOVE(&lj->jobs, j, entry);
		lj->n--;
		if (j->done != NULL)
			j->done(j->d, j->arg, LOADJOB_CANCELLED, "");
		loadjob_job_free(j);
	}
}

size_t
loadjob_count(const struct daemon *d)
{
	const struct loadjobs *lj = d->loadjob;

	return lj->n;
}
