/* Motion-capture tracking: see tracking.h. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "daemon.h"
#include "monotonic.h"
#include "log.h"
#include "session.h"
#include "sim.h"
#include "sim_state.h"
#include "tracking.h"

struct tracked {
	int connected;
	int offset_set;
	double phys_pos[3], phys_quat[4]; /* the physical pose at capture */
	double virt_pos[3], virt_quat[4]; /* the mocap pose at capture */
	uint64_t driver;
	char driver_name[64];
	uint64_t poses;
	int64_t sample_us; /* the newest pose's */
	double source_time;
	double received;     /* monotonic seconds */
	int pending;         /* applied, not yet stepped */
	double latency;      /* < 0: none yet */
	double window_start; /* for the rate */
	uint64_t window_poses;
	double rate;
};

/* Until tracking_set_notify(), nobody is told. */
static void
tracking_notify_none(struct daemon *d, const struct tracking_info *t,
    const char *why, uint64_t by)
{
}

/* Tells the layers above of a connection or disconnection. */
static tracking_notify_fn tracking_notify = tracking_notify_none;

/* The mocap bodies' tracking (d->tracking). */
struct tracking {
	struct tracked *tracked; /* one per mocap body of the model */
	int ntracked;
};

static void tracking_ensure(struct daemon *);
static int64_t tracking_wall_us(void);
static void tracking_apply(
    struct daemon *, int, const double *, const double *);

struct tracking *
tracking_create(void)
{
	struct tracking *tk;

	if ((tk = calloc(1, sizeof(*tk))) == NULL)
		fatal("out of memory");
	return tk;
}

void
tracking_free(struct tracking *tk)
{
	if (tk == NULL)
		return;
	free(tk->tracked);
	free(tk);
}

/* Size the table for the loaded model. */
static void
tracking_ensure(struct daemon *d)
{
	struct tracking *tk = d->tracking;
	int n = sim_loaded(d->sim) ? sim_sizes(d->sim)->nmocap : 0;
	int i;

	if (n == tk->ntracked)
		return;
	free(tk->tracked);
	tk->tracked = NULL;
	tk->ntracked = 0;
	if (n == 0)
		return;
	if ((tk->tracked = calloc((size_t)n, sizeof(*tk->tracked))) == NULL)
		fatal("out of memory");
	tk->ntracked = n;
	for (i = 0; i < n; i++)
		tk->tracked[i].latency = -1;
}

/* Microseconds of the Unix epoch, the clock drivers stamp poses with. */
static int64_t
tracking_wall_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/*
 * Move mocap body i after the physical pose: the virtual pose at capture
 * moved by the physical motion since, in world axes.  A physical pose
 * equal to the one captured gives back the captured virtual pose bit for
 * bit: the differences are exact zeros and the rotation exactly none.
 */
static void
tracking_apply(struct daemon *d, int i, const double *pos, const double *quat)
{
	struct tracking *tk = d->tracking;
	struct tracked *t = &tk->tracked[i];
	double conj[4], delta[4], q[4], p[3], norm;
	int k;

	for (k = 0; k < 3; k++)
		p[k] = t->virt_pos[k] + (pos[k] - t->phys_pos[k]);
	conj[0] = t->phys_quat[0];
	for (k = 1; k < 4; k++)
		conj[k] = -t->phys_quat[k];
	sim_quat_mul(quat, conj, delta);
	if (delta[1] == 0 && delta[2] == 0 && delta[3] == 0) {
		memcpy(q, t->virt_quat, sizeof(q));
	} else {
		norm = 0;
		for (k = 0; k < 4; k++)
			norm += delta[k] * delta[k];
		norm = sqrt(norm);
		for (k = 0; k < 4; k++)
			delta[k] /= norm;
		sim_quat_mul(delta, t->virt_quat, q);
	}
	sim_mocap_set_one(d->sim, i, p, q);
	t->pending = 1;
}

void
tracking_pose(struct daemon *d, struct session *s, int i, const double pos[3],
    const double quat[4], int64_t sample_us, double source_time)
{
	struct tracking *tk = d->tracking;
	const struct sim_arrays *a;
	struct tracked *t;
	double now = monotonic_s();

	tracking_ensure(d);
	if (i < 0 || i >= tk->ntracked)
		return;
	t = &tk->tracked[i];
	/* Another driver's body is another mouse: put it down afresh. */
	if (t->driver != s->id)
		t->offset_set = 0;
	t->driver = s->id;
	snprintf(t->driver_name, sizeof(t->driver_name), "%s", s->name);
	t->poses++;
	t->sample_us = sample_us != 0 ? sample_us : tracking_wall_us();
	t->source_time = source_time;
	t->received = now;
	/* The rate: intervals over the last whole second. */
	if (t->window_start == 0)
		t->window_start = now;
	else
		t->window_poses++;
	if (now - t->window_start >= 1) {
		t->rate = (double)t->window_poses / (now - t->window_start);
		t->window_start = now;
		t->window_poses = 0;
	}
	if (!t->connected)
		return;
	if (!t->offset_set) {
		a = sim_arrays(d->sim);
		memcpy(t->phys_pos, pos, sizeof(t->phys_pos));
		memcpy(t->phys_quat, quat, sizeof(t->phys_quat));
		memcpy(t->virt_pos, a->mocap_pos + 3 * i, sizeof(t->virt_pos));
		memcpy(
		    t->virt_quat, a->mocap_quat + 4 * i, sizeof(t->virt_quat));
		t->offset_set = 1;
		log_info("tracking of mocap body %d: offset captured from "
			 "client %llu",
		    i, (unsigned long long)s->id);
	}
	tracking_apply(d, i, pos, quat);
}

int
tracking_connect(
    struct daemon *d, int i, int connect, uint64_t by, const char *why)
{
	struct tracking *tk = d->tracking;
	struct tracking_info info;
	struct tracked *t;

	tracking_ensure(d);
	if (i < 0 || i >= tk->ntracked)
		return 0;
	t = &tk->tracked[i];
	if (!t->connected == !connect)
		return 0;
	t->connected = connect != 0;
	t->offset_set = 0;
	t->pending = 0;
	log_info("tracking of mocap body %d %s (%s)", i,
	    connect ? "connected" : "disconnected", why);
	tracking_get(d, i, &info);
	tracking_notify(d, &info, why, by);
	return 1;
}

int
tracking_reported(struct daemon *d, int *out, int max)
{
	struct tracking *tk = d->tracking;
	int i, n = 0;

	tracking_ensure(d);
	for (i = 0; i < tk->ntracked && n < max; i++)
		if (tk->tracked[i].poses > 0 || tk->tracked[i].connected)
			out[n++] = i;
	return n;
}

void
tracking_get(struct daemon *d, int i, struct tracking_info *out)
{
	struct tracking *tk = d->tracking;
	const struct tracked *t;
	double now = monotonic_s();

	tracking_ensure(d);
	memset(out, 0, sizeof(*out));
	out->mocap = i;
	out->body = sim_mocap_body(d->sim, i);
	out->latency = -1;
	if (i < 0 || i >= tk->ntracked)
		return;
	t = &tk->tracked[i];
	out->connected = t->connected;
	out->offset_set = t->offset_set;
	out->driver = t->driver;
	memcpy(out->driver_name, t->driver_name, sizeof(out->driver_name));
	out->poses = t->poses;
	/* Over the last whole second, or the part of the first one; none
	 * once a second passed without a pose. */
	if (t->poses > 0 && now - t->received < 1) {
		if (t->rate > 0)
			out->rate = t->rate;
		else if (t->window_poses > 0 && t->received > t->window_start)
			out->rate = (double)t->window_poses /
			    (t->received - t->window_start);
	}
	out->age = t->poses > 0 ?
	    (double)(tracking_wall_us() - t->sample_us) / 1e6 :
	    0;
	out->latency = t->latency;
	out->source_time = t->source_time;
}

void
tracking_after_step(struct daemon *d)
{
	struct tracking *tk = d->tracking;
	int64_t now;
	int i;

	for (i = 0; i < tk->ntracked; i++) {
		if (!tk->tracked[i].pending)
			continue;
		now = tracking_wall_us();
		tk->tracked[i].latency = (double)(now -
					     tk->tracked[i].sample_us) /
		    1e6;
		tk->tracked[i].pending = 0;
	}
}

void
tracking_model_changed(struct daemon *d)
{
	struct tracking *tk = d->tracking;
	struct tracking_info info;
	int i;

	/* Announce the bodies of the old model that were connected (their
	 * ids may mean nothing in the new one), then start afresh. */
	for (i = 0; i < tk->ntracked; i++) {
		if (!tk->tracked[i].connected)
			continue;
		log_info("tracking of mocap body %d disconnected (model "
			 "loaded)",
		    i);
		memset(&info, 0, sizeof(info));
		info.mocap = i;
		info.body = -1;
		info.latency = -1;
		tracking_notify(d, &info, "model loaded", 0);
	}
	free(tk->tracked);
	tk->tracked = NULL;
	tk->ntracked = 0;
	tracking_ensure(d);
}

void
tracking_session_closed(struct daemon *d, struct session *s)
{
	struct tracking *tk = d->tracking;
	int i;

	for (i = 0; i < tk->ntracked; i++) {
		if (tk->tracked[i].driver != s->id)
			continue;
		tracking_connect(d, i, 0, 0, "driver left");
	}
}

void
tracking_set_notify(tracking_notify_fn fn)
{
	tracking_notify = fn;
}
