/*
 * The server's status: what HAPTIX's info box showed, and the
 * daemon's counters.
 */
#include "config.h"

#include <stdio.h>

#include "haptixd.h"
#include "hxctl_common.h"

static void status_print(const hxd_status *);
static void status_print_server(const hxd_status *);

/* Show what HAPTIX's info box showed, and the daemon's counters. */
int
cmd_status(struct ctl *ctl)
{
	hxd_status st;
	int rc;

	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_status_get(ctl->conn, &st) != HXD_OK)
		return ctl_fail(ctl);
	if (ctl->json)
		status_json(&st);
	else
		status_print(&st);
	return CTL_OK;
}

/* Write the status as one JSON object. */
void
status_json(const hxd_status *st)
{
	js_open('{');
	js_key("model");
	model_json(&st->model);
	js_kb("loaded", st->model.nbody > 0);
	js_kn("time", st->time);
	js_ku("steps", st->steps);
	js_kb("paused", st->paused);
	js_kn("speed", st->speed);
	js_kb("speed_max", st->speed_max);
	js_kn("realtime_factor", st->realtime_factor);
	js_kn("cpu_per_step", st->cpu_per_step);
	js_ki("nefc", st->nefc);
	js_ki("ncon", st->ncon);
	js_kn("energy_potential", st->energy_potential);
	js_kn("energy_kinetic", st->energy_kinetic);
	js_ku("instability_resets", st->instability_resets);
	js_ku("sim_errors", st->sim_errors);
	js_ku("overruns", st->overruns);
	js_key("pacing");
	js_open('{');
	js_ku("ticks", st->pacing.ticks);
	js_kn("lateness_p50", st->pacing.lateness_p50);
	js_kn("lateness_p99", st->pacing.lateness_p99);
	js_kn("lateness_max", st->pacing.lateness_max);
	js_close('}');
	js_ki("clients", st->clients);
	js_ks("message", st->message);
	js_kn("uptime", st->uptime);
	js_kb("lagging", st->lagging);
	js_ku("lease_holder", st->lease_holder);
	js_ks("lease_holder_name", st->lease_holder_name);
	js_ku("batch_session", st->batch_session);
	js_ks("steps_refused", st->steps_refused);
	js_ku("model_edits", st->model_edits);
	js_key("recording");
	js_open('{');
	recording_json(&st->recording);
	js_close('}');
	js_key("limits");
	js_open('{');
	js_ki("max_clients", st->limits.max_clients);
	js_ku("max_frame", st->limits.max_frame);
	js_ku("max_queued", st->limits.max_queued);
	js_ki("max_subscriptions", st->limits.max_subscriptions);
	js_kn("load_timeout", st->limits.load_timeout);
	js_ku("load_memory", st->limits.load_memory);
	js_ku("model_max_bodies", st->limits.model_max_bodies);
	js_ku("model_max_keys", st->limits.model_max_keys);
	js_ku("model_max_hfield", st->limits.model_max_hfield);
	js_ku("model_max_texture", st->limits.model_max_texture);
	js_ku("model_max_mesh_vertices", st->limits.model_max_mesh_vertices);
	js_ki("max_handshakes", st->limits.max_handshakes);
	js_close('}');
	drivers_status_json(st);
	js_close('}');
}

/* Print the status, a quantity per line. */
static void
status_print(const hxd_status *st)
{
	if (st->model.nbody > 0)
		printf("%-12s %s%s%s%s\n", "model", st->model.name,
		    st->model.path[0] != '\0' ? " (" : "", st->model.path,
		    st->model.path[0] != '\0' ? ")" : "");
	else
		printf("%-12s %s\n", "model", "none loaded");
	printf("%-12s %s\n", "simulation", st->paused ? "paused" : "running");
	if (st->steps_refused[0] != '\0')
		printf("%-12s %s\n", "steps", st->steps_refused);
	if (st->speed_max)
		printf("%-12s max\n", "speed");
	else
		printf("%-12s %gx\n", "speed", st->speed);
	printf("%-12s %.10g s, %llu steps\n", "time", st->time, st->steps);
	printf("%-12s %.3gx%s\n", "real time", st->realtime_factor,
	    st->lagging ? ", lagging: the CPU cannot keep up" : "");
	printf("%-12s %.3g ms\n", "CPU/step", st->cpu_per_step * 1e3);
	printf("%-12s %d, of which %d contacts\n", "constraints", st->nefc,
	    st->ncon);
	printf("%-12s potential %.6g, kinetic %.6g\n", "energy",
	    st->energy_potential, st->energy_kinetic);
	printf("%-12s %llu instability, %llu MuJoCo errors\n", "resets",
	    st->instability_resets, st->sim_errors);
	printf("%-12s %llu\n", "overruns", st->overruns);
	/* Since the schedule's anchor: run, a speed change, a model load. */
	if (st->pacing.ticks != 0)
		printf("%-12s median %.3g ms, p99 %.3g ms, max %.3g ms "
		       "(%llu wakeups)\n",
		    "lateness", st->pacing.lateness_p50 * 1e3,
		    st->pacing.lateness_p99 * 1e3,
		    st->pacing.lateness_max * 1e3, st->pacing.ticks);
	else
		printf("%-12s %s\n", "lateness", "none measured");
	status_print_server(st);
	drivers_status_print(st);
}

/* The status table's rows about the server: its clients, the message,
 * uptime, lease, batch run, recording and limits. */
static void
status_print_server(const hxd_status *st)
{
	printf("%-12s %d\n", "clients", st->clients);
	printf("%-12s %s\n", "message",
	    st->message[0] != '\0' ? st->message : "(none)");
	printf("%-12s %.1f s\n", "uptime", st->uptime);
	if (st->lease_holder != 0)
		printf("%-12s client %llu (%s) holds it\n", "lease",
		    st->lease_holder, st->lease_holder_name);
	else
		printf("%-12s %s\n", "lease", "free");
	if (st->batch_session != 0)
		printf("%-12s client %llu is running one\n", "batch",
		    st->batch_session);
	else
		printf("%-12s %s\n", "batch", "none");
	if (st->recording.active)
		printf("%-12s %s: %llu records, %llu bytes\n", "recording",
		    st->recording.path, st->recording.records,
		    st->recording.bytes);
	else if (st->recording.ended[0] != '\0')
		printf("%-12s none; %s ended: %s\n", "recording",
		    st->recording.path, st->recording.ended);
	else
		printf("%-12s %s\n", "recording", "none");
	printf("%-12s %d clients, %d handshakes, %llu-byte frames, "
	       "%llu bytes queued, %d subscriptions per client\n",
	    "limits", st->limits.max_clients, st->limits.max_handshakes,
	    st->limits.max_frame, st->limits.max_queued,
	    st->limits.max_subscriptions);
	printf("%-12s %g s, %llu MiB; models up to %llu bodies, %llu keys, "
	       "%llu-cell height fields, %llu-pixel textures, %llu mesh "
	       "vertices\n",
	    "loads", st->limits.load_timeout, st->limits.load_memory >> 20,
	    st->limits.model_max_bodies, st->limits.model_max_keys,
	    st->limits.model_max_hfield, st->limits.model_max_texture,
	    st->limits.model_max_mesh_vertices);
}
