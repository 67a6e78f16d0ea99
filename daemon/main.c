/*
 * haptixd: load a MuJoCo model, step it in real time, serve it over the
 * HAPTIX protocol on a Unix socket and TCP.  This file starts, reloads
 * and stops the daemon; the modules it composes do the work.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <event2/event.h>

#include "api_table.h"
#include "clock.h"
#include "core.h"
#include "daemon.h"
#include "hold.h"
#include "lifecycle.h"
#include "loader.h"
#include "loadjob.h"
#include "log.h"
#include "modeldir.h"
#include "modeltext.h"
#include "monotonic.h"
#include "options.h"
#include "perturb.h"
#include "record.h"
#include "result.h"
#include "server.h"
#include "service.h"
#include "session.h"
#include "sim.h"
#include "sim_history.h"
#include "stepguard.h"
#include "token.h"

/* How long clients get to take their last answers at shutdown. */
#define MAIN_STOP_SECONDS 2.0

static struct options_cmdline main_cmdline;
static int main_stopping;

static void main_signal_cb(evutil_socket_t, short, void *);
static void main_reload(struct daemon *);

/* SIGINT and SIGTERM: leave the loop; main() stops.  SIGHUP: reload. */
static void
main_signal_cb(evutil_socket_t sig, short events, void *arg)
{
	struct daemon *d = arg;

	if (sig == SIGHUP) {
		main_reload(d);
		return;
	}
	if (main_stopping) {
		log_info("%s again: stopping now", strsignal((int)sig));
		main_stopping = 2;
	} else
		log_info("%s: shutting down", strsignal((int)sig));
	event_base_loopbreak(d->base);
}

/* Read the TCP token into buf; refuse an empty one. */
static int
main_read_token(
    const char *path, uint8_t *buf, size_t *lenp, char *err, size_t errlen)
{
	struct stat st;
	ssize_t n;

	if ((n = token_read(path, buf, DAEMON_TOKEN_MAX)) < 0) {
		snprintf(
		    err, errlen, "token-file %s: %s", path, strerror(errno));
		return -1;
	}
	if (stat(path, &st) == 0 && (st.st_mode & 0004))
		log_warn("token-file %s is readable by everyone", path);
	if (n == 0) {
		snprintf(err, errlen, "token-file %s is empty", path);
		return -1;
	}
	*lenp = (size_t)n;
	return 0;
}

/*
 * The load the settings ask for: their model (the bundled scene by
 * default), or with no-model the file a client loaded, if any.  Returns
 * 1 with r filled (path is its buffer), 0 when there is nothing to load,
 * -1 with the reason in err.
 */
static int
main_model_request(struct daemon *d, const struct options *o,
    struct loadjob_request *r, char *path, size_t pathlen, int *same, char *err,
    size_t len)
{
	const char *name = o->model != NULL ? o->model : OPTIONS_DEFAULT_MODEL;

	memset(r, 0, sizeof(*r));
	r->source = LOADER_FILE;
	r->path = path;
	r->legacy = o->legacy;
	*same = 0;
	if (o->no_model) {
		if (!sim_loaded(d->sim) || sim_model_path(d->sim)[0] == '\0')
			return 0;
		*same = 1;
		snprintf(path, pathlen, "%s", sim_model_path(d->sim));
		r->legacy = d->model->legacy;
		return 1;
	}
	if (modeldir_find(name, path, pathlen) != 0) {
		snprintf(err, len, "model %s not found (model directories: %s)",
		    name, modeldir_list());
		return -1;
	}
	*same = sim_loaded(d->sim) && strcmp(path, sim_model_path(d->sim)) == 0;
	return 1;
}

/* Log what was loaded. */
static void
main_log_model(struct daemon *d)
{
	const struct sim_sizes *z = sim_sizes(d->sim);

	log_info("model \"%s\" from %s: nq %d, nv %d, nu %d, nbody %d, "
		 "timestep %g s, API rate %g Hz",
	    sim_model_name(d->sim), sim_model_path(d->sim), z->nq, z->nv, z->nu,
	    z->nbody, z->timestep, z->apirate);
}

/* The model of a reload is loaded, or not: the reload is over. */
static void
main_reloaded(struct daemon *d, void *arg, int code, const char *err)
{
	int same = arg != NULL;
	char note[600];

	if (code == LOADJOB_CANCELLED)
		return;
	if (code != RESULT_OK) {
		log_error("reload: %s; keeping model \"%s\"", err,
		    sim_loaded(d->sim) ? sim_model_name(d->sim) : "(none)");
		snprintf(note, sizeof(note),
		    "the last reload kept the old model: %.500s", err);
		service_note(d, note);
		service_ready(d);
		return;
	}
	main_log_model(d);
	lifecycle_model_changed(d, same, "the model was reloaded");
	log_info("reloaded");
	service_note(d, NULL);
	service_ready(d);
}

/* Return 1 if two optional strings differ. */
static int
main_differ(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return a != b;
	return strcmp(a, b) != 0;
}

/*
 * SIGHUP: read the settings again, apply them, and load the model again,
 * keeping the listeners and the clients.  Settings that cannot be right
 * keep the old ones; a model that fails to load keeps the old model.
 */
static void
main_reload(struct daemon *d)
{
	struct options *next, *old = (struct options *)d->opts;
	uint8_t token[DAEMON_TOKEN_MAX];
	size_t token_len = 0;
	struct loadjob_request r;
	char err[4200], note[600], path[4096];
	int same, rc;

	log_info("SIGHUP: reloading the settings%s%s and the model",
	    old->config != NULL ? " from " : "",
	    old->config != NULL ? old->config : "");
	service_reloading(d);
	if ((next = calloc(1, sizeof(*next))) == NULL)
		fatal("out of memory");
	if (options_build(next, &main_cmdline, err, sizeof(err)) != 0 ||
	    (next->token_file != NULL &&
		main_read_token(next->token_file, token, &token_len, err,
		    sizeof(err)) != 0)) {
		free(next);
		goto failed;
	}
	if (next->token_file == NULL && server_public(d->server)) {
		snprintf(err, sizeof(err),
		    "a listener beyond loopback needs token-file");
		options_free(next);
		free(next);
		goto failed;
	}
	if (server_tls_reload(d->server, next, err, sizeof(err)) != 0) {
		options_free(next);
		free(next);
		goto failed;
	}
	if (main_differ(next->unix_path, old->unix_path) ||
	    main_differ(next->tcp, old->tcp))
		log_warn("reload: changes to unix and tcp take effect when "
			 "haptixd restarts");

	/* The settings are good: they apply from here on. */
	memcpy(d->token, token, token_len);
	d->token_len = token_len;
	log_init(next->verbosity);
	modeldir_init((const char *const *)next->model_dirs, next->nmodel_dirs);
	if (next->speed != old->speed || next->speed_max != old->speed_max)
		clock_set_speed(d->clock, next->speed, next->speed_max);
	sim_set_api_rate(d->sim, next->api_rate);
	d->opts = next;
	options_free(old);
	free(old);

	rc = main_model_request(
	    d, next, &r, path, sizeof(path), &same, err, sizeof(err));
	if (rc == 1)
		rc = loadjob_start(d, &r, NULL, main_reloaded,
		    same ? (void *)d : NULL, err, sizeof(err));
	else if (rc == 0) {
		log_info("reloaded");
		service_note(d, NULL);
		service_ready(d);
		return;
	}
	if (rc != RESULT_OK)
		main_reloaded(d, NULL, RESULT_LOADFAILED, err);
	return;

failed:
	log_error("reload: %s; keeping the current settings and model", err);
	snprintf(note, sizeof(note), "the last reload failed: %.500s", err);
	service_note(d, note);
	service_ready(d);
}

/* Listen where the settings say, unless systemd passed the sockets. */
static void
main_listen(struct daemon *d, int adopted, char *first, size_t len)
{
	const struct options *o = d->opts;
	char err[512], bound[300];

	if (o->unix_path != NULL && (adopted == 0 || o->unix_set)) {
		if (server_listen_unix(
			d->server, o->unix_path, err, sizeof(err)) != 0)
			fatal("%s", err);
		log_info("listening on unix:%s", o->unix_path);
		if (first[0] == '\0')
			snprintf(first, len, "unix:%s", o->unix_path);
	}
	if (o->tcp != NULL && (adopted == 0 || o->tcp_set)) {
		if (server_listen_tcp(d->server, o->tcp, d->token_len != 0,
			bound, sizeof(bound), err, sizeof(err)) != 0) {
			/* Its Unix socket file goes with it. */
			server_free(d->server);
			d->server = NULL;
			fatal("%s", err);
		}
		if (first[0] == '\0')
			snprintf(first, len, "%s", bound + 4);
	}
	if (adopted == 0 && first[0] == '\0')
		fatal("no listeners: unix and tcp are both none");
}

/* Wakes the shutdown loop to look at the clock. */
static void
main_wake_cb(evutil_socket_t fd, short events, void *arg)
{
}

/*
 * Stop: tell systemd, stop stepping, let the clients take their last
 * answers for a moment, then close whatever is left.
 */
static void
main_stop(struct daemon *d)
{
	double deadline = monotonic_s() + MAIN_STOP_SECONDS;
	struct timeval tick = { 0, 50000 };
	struct event *wake;

	main_stopping = 1;
	service_stopping(d);
	clock_pause(d->clock); /* which answers the calls waiting for a tick */
	record_stop(d, "haptixd stopped");
	loadjob_shutdown(d);
	hold_shutdown(d); /* no edits to release them now */
	server_free(d->server);
	d->server = NULL;
	sessions_shutdown(d);
	wake = event_new(d->base, -1, EV_PERSIST, main_wake_cb, NULL);
	event_add(wake, &tick);
	while (
	    sessions_open(d) && main_stopping == 1 && monotonic_s() < deadline)
		event_base_loop(d->base, EVLOOP_ONCE);
	event_free(wake);
	sessions_close_all(d);
	perturb_shutdown(d);
	/* Let the deferred frees run. */
	event_base_loop(d->base, EVLOOP_NONBLOCK);
}

int
main(int argc, char **argv)
{
	struct options *opts;
	struct daemon d;
	struct event_config *cfg;
	struct event *sigs[3];
	const int signums[3] = { SIGINT, SIGTERM, SIGHUP };
	struct loadjob_request r;
	char err[4200], first[400] = "", path[4096];
	int rc, i, adopted, same;

	/* haptixd runs itself as the loader of each model (loader.h). */
	if (argc == 2 && strcmp(argv[1], LOADER_ARG) == 0) {
		log_init(0);
		return loader_main();
	}
	rc = options_parse_cmdline(&main_cmdline, argc, argv);
	if (rc != 0)
		return rc > 0 ? 0 : 2;
	log_init(0);
	if ((opts = calloc(1, sizeof(*opts))) == NULL)
		fatal("out of memory");
	if (options_build(opts, &main_cmdline, err, sizeof(err)) != 0) {
		log_error("%s", err);
		free(opts);
		return 2;
	}
	if (main_cmdline.check) {
		printf("haptixd: the settings are good (%s)\n",
		    opts->config != NULL ? opts->config : "no settings file");
		options_free(opts);
		free(opts);
		return 0;
	}
	log_init(opts->verbosity);
	if (opts->config != NULL)
		log_info("settings from %s", opts->config);
	signal(SIGPIPE, SIG_IGN);

	memset(&d, 0, sizeof(d));
	d.opts = opts;
	d.started = monotonic_s();
	/*
	 * No EVENT_BASE_FLAG_PRECISE_TIMER: with it, libevent's epoll loop
	 * sets its timerfd on every pass, one system call more per request.
	 * The pacing has a timerfd of its own (clock.c); the other timers
	 * (frames at a wall-clock rate, time-outs) keep libevent's coarse
	 * clock, good to a kernel tick.
	 */
	cfg = event_config_new();
	d.base = event_base_new_with_config(cfg);
	event_config_free(cfg);
	if (d.base == NULL)
		fatal("cannot create the event loop");

	if (opts->token_file != NULL &&
	    main_read_token(
		opts->token_file, d.token, &d.token_len, err, sizeof(err)) != 0)
		fatal("%s", err);
	modeldir_init((const char *const *)opts->model_dirs, opts->nmodel_dirs);
	core_init(&d);
	d.sim = sim_create();
	sim_set_api_rate(d.sim, opts->api_rate);
	sim_history_set(
	    d.sim, (double)opts->history, (size_t)opts->history_memory << 20);
	rc = main_model_request(
	    &d, opts, &r, path, sizeof(path), &same, err, sizeof(err));
	if (rc == 1 && loadjob_run(&d, &r, err, sizeof(err)) != RESULT_OK)
		rc = -1;
	if (rc < 0)
		fatal("cannot load the model: %s", err);
	if (rc == 1)
		main_log_model(&d);
	stepguard_model_changed(&d);
	if (opts->no_model)
		log_info("no model loaded: clients load one (model "
			 "directories: %s)",
		    modeldir_list());
	core_start(&d);
	api_table_serve();
	clock_set_speed(d.clock, opts->speed, opts->speed_max);
	if (sim_loaded(d.sim))
		clock_model_changed(d.clock);

	d.server = server_create(&d);
	adopted = service_adopt_sockets(&d, first, sizeof(first));
	main_listen(&d, adopted, first, sizeof(first));

	for (i = 0; i < 3; i++) {
		sigs[i] = evsignal_new(d.base, signums[i], main_signal_cb, &d);
		evsignal_add(sigs[i], NULL);
	}

	if (!opts->paused && sim_loaded(d.sim))
		clock_run(d.clock);
	if (first[0] != '\0')
		log_info("ready (%s); try: hxctl --server %s status",
		    clock_running(d.clock) ? "running" : "paused", first);
	else
		log_info("ready (%s)",
		    clock_running(d.clock) ? "running" : "paused");
	service_ready(&d);

	event_base_dispatch(d.base);

	main_stop(&d);
	clock_free(d.clock);
	sim_free(d.sim);
	for (i = 0; i < 3; i++)
		event_free(sigs[i]);
	event_base_free(d.base);
	options_free((struct options *)d.opts);
	free((void *)d.opts);
	core_free(&d);
	log_info("stopped");
	return 0;
}
