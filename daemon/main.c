/*
 * haptixd: load a MuJoCo model, step it in real time, serve it over the
 * HAPTIX protocol on a Unix socket and TCP.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <event2/event.h>

#include "clock.h"
#include "daemon.h"
#include "loader.h"
#include "log.h"
#include "modeldir.h"
#include "options.h"
#include "server.h"
#include "session.h"
#include "sim.h"

static void main_signal_cb(evutil_socket_t, short, void *);
static void main_read_token(struct daemon *, const char *);
static void main_load_model(struct daemon *, const struct options *);

double
daemon_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* SIGINT and SIGTERM: leave the loop; main() cleans up. */
static void
main_signal_cb(evutil_socket_t sig, short events, void *arg)
{
	struct daemon *d = arg;

	log_info("%s: shutting down", strsignal((int)sig));
	event_base_loopbreak(d->base);
}

/* Read the TCP token; refuse an empty one. */
static void
main_read_token(struct daemon *d, const char *path)
{
	struct stat st;
	FILE *f;
	size_t n;

	f = fopen(path, "re");
	if (f == NULL)
		fatal("--token-file %s: %s", path, strerror(errno));
	if (fstat(fileno(f), &st) == 0 && (st.st_mode & 0004))
		log_warn("--token-file %s is readable by everyone", path);
	n = fread(d->token, 1, sizeof(d->token), f);
	fclose(f);
	while (n > 0 &&
	    (d->token[n - 1] == '\n' || d->token[n - 1] == '\r' ||
		d->token[n - 1] == ' ' || d->token[n - 1] == '\t'))
		n--;
	if (n == 0)
		fatal("--token-file %s is empty", path);
	d->token_len = n;
}

/* Load the command line's model, or the bundled default scene. */
static void
main_load_model(struct daemon *d, const struct options *o)
{
	const char *name = o->model != NULL ? o->model : OPTIONS_DEFAULT_MODEL;
	char path[4096], err[2048];
	const struct sim_sizes *z;

	if (modeldir_find(name, path, sizeof(path)) != 0)
		fatal("model %s not found (model directories: %s)", name,
		    modeldir_list());
	if (loader_load_file(d, path, o->legacy, err, sizeof(err)) != 0)
		fatal("cannot load %s: %s", path, err);
	z = sim_sizes(d->sim);
	log_info("model \"%s\" from %s: nq %d, nv %d, nu %d, nbody %d, "
		 "timestep %g s, API rate %g Hz",
	    sim_model_name(d->sim), path, z->nq, z->nv, z->nu, z->nbody,
	    z->timestep, z->apirate);
}

int
main(int argc, char **argv)
{
	struct options opts;
	struct daemon d;
	struct event_config *cfg;
	struct event *sigint, *sigterm;
	char err[512], bound[300], first[400] = "";
	int rc;

	rc = options_parse(&opts, argc, argv);
	if (rc != 0)
		return rc > 0 ? 0 : 2;
	log_init(opts.verbosity);
	signal(SIGPIPE, SIG_IGN);

	memset(&d, 0, sizeof(d));
	d.opts = &opts;
	d.started = daemon_now();
	cfg = event_config_new();
	event_config_set_flag(cfg, EVENT_BASE_FLAG_PRECISE_TIMER);
	d.base = event_base_new_with_config(cfg);
	event_config_free(cfg);
	if (d.base == NULL)
		fatal("cannot create the event loop");

	if (opts.token_file != NULL)
		main_read_token(&d, opts.token_file);
	modeldir_init(opts.model_dirs, opts.nmodel_dirs);
	d.sim = sim_create();
	sim_set_api_rate(d.sim, opts.api_rate);
	if (!opts.no_model)
		main_load_model(&d, &opts);
	else
		log_info("no model loaded: clients load one (model "
			 "directories: %s)",
		    modeldir_list());
	d.clock = clock_create(&d);
	clock_set_speed(d.clock, opts.speed, opts.speed_max);
	if (sim_loaded(d.sim))
		clock_model_changed(d.clock);

	d.server = server_create(&d);
	if (opts.unix_path != NULL) {
		if (server_listen_unix(
			d.server, opts.unix_path, err, sizeof(err)) != 0)
			fatal("%s", err);
		log_info("listening on unix:%s", opts.unix_path);
		snprintf(first, sizeof(first), "unix:%s", opts.unix_path);
	}
	if (opts.tcp != NULL) {
		if (server_listen_tcp(d.server, opts.tcp, d.token_len != 0,
			bound, sizeof(bound), err, sizeof(err)) != 0)
			fatal("%s", err);
		log_info("listening on %s%s", bound,
		    d.token_len != 0 ? " (token required)" : "");
		if (first[0] == '\0')
			snprintf(first, sizeof(first), "%s", bound + 4);
	}

	sigint = evsignal_new(d.base, SIGINT, main_signal_cb, &d);
	sigterm = evsignal_new(d.base, SIGTERM, main_signal_cb, &d);
	evsignal_add(sigint, NULL);
	evsignal_add(sigterm, NULL);

	if (!opts.paused && sim_loaded(d.sim))
		clock_run(d.clock);
	log_info("ready (%s); try: hxctl --server %s status",
	    clock_running(d.clock) ? "running" : "paused", first);

	event_base_dispatch(d.base);

	/* Stop stepping first: the loop below runs until nothing is active. */
	clock_pause(d.clock);
	sessions_close_all();
	/* Let the deferred frees run. */
	event_base_loop(d.base, EVLOOP_NONBLOCK);
	server_free(d.server);
	clock_free(d.clock);
	sim_free(d.sim);
	event_free(sigint);
	event_free(sigterm);
	event_base_free(d.base);
	return 0;
}
