/* Drivers' perturbations: see perturb.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

#include "daemon.h"
#include "monotonic.h"
#include "log.h"
#include "options.h"
#include "perturb.h"
#include "session.h"
#include "sim.h"
#include "sim_state.h"

struct perturbation {
	int body;
	double f[6]; /* what the driver wrote */
	uint64_t driver;
	char driver_name[64];
	double sent; /* monotonic seconds of the driver's last word */
	int fresh;   /* sent since the last good step (perturb_good) */
};

/* Until perturb_set_notify(), nobody is told. */
/* The drivers' forces in effect (d->perturb). */
struct perturbs {
	struct perturbation perturbs[PERTURB_MAX];
	int nperturbs;
	struct event *perturb_timer;
};

struct perturbs *
perturb_create(void)
{
	struct perturbs *x;

	if ((x = calloc(1, sizeof(*x))) == NULL)
		fatal("out of memory");
	return x;
}

void
perturb_free(struct perturbs *pt)
{
	if (pt == NULL)
		return;
	if (pt->perturb_timer != NULL)
		event_free(pt->perturb_timer);
	free(pt);
}

static void
perturb_notify_none(
    struct daemon *d, const struct perturb_info *p, const char *why)
{
}

/* Tells the layers above that a perturbation was dropped. */
static perturb_notify_fn perturb_notify = perturb_notify_none;

static void perturb_info(
    struct daemon *, const struct perturbation *, struct perturb_info *);
static void perturb_drop(struct daemon *, int, const char *);
static void perturb_arm(struct daemon *);
static void perturb_check(evutil_socket_t, short, void *);

/* The public view of one perturbation. */
static void
perturb_info(
    struct daemon *d, const struct perturbation *p, struct perturb_info *out)
{
	memset(out, 0, sizeof(*out));
	out->body = p->body;
	memcpy(out->f, p->f, sizeof(out->f));
	out->driver = p->driver;
	memcpy(out->driver_name, p->driver_name, sizeof(out->driver_name));
	out->age = monotonic_s() - p->sent;
	out->timeout = d->opts->perturb_timeout;
}

/*
 * Drop perturbation k: zero its row of xfrc_applied if it still holds
 * what the driver wrote (someone else's write wins), say why if why is
 * not NULL, and forget it.
 */
static void
perturb_drop(struct daemon *d, int k, const char *why)
{
	struct perturbs *pt = d->perturb;
	static const double zero[6];
	struct perturbation *p = &pt->perturbs[k];
	struct perturb_info info;
	const double *row;

	row = sim_arrays(d->sim)->xfrc_applied + 6 * p->body;
	if (memcmp(row, p->f, sizeof(p->f)) == 0)
		sim_xfrc_set_one(d->sim, p->body, zero);
	if (why != NULL) {
		perturb_info(d, p, &info);
		log_info("the force of client %llu (%s) on body %d dropped: %s",
		    (unsigned long long)p->driver, p->driver_name, p->body,
		    why);
		perturb_notify(d, &info, why);
	}
	pt->perturbs[k] = pt->perturbs[--pt->nperturbs];
}

/* Wake up when the oldest perturbation would fall silent. */
static void
perturb_arm(struct daemon *d)
{
	struct perturbs *pt = d->perturb;
	double oldest, wait;
	struct timeval tv;
	int k;

	if (pt->perturb_timer == NULL &&
	    (pt->perturb_timer = evtimer_new(d->base, perturb_check, d)) ==
		NULL)
		fatal("out of memory");
	if (pt->nperturbs == 0) {
		evtimer_del(pt->perturb_timer);
		return;
	}
	oldest = pt->perturbs[0].sent;
	for (k = 1; k < pt->nperturbs; k++)
		if (pt->perturbs[k].sent < oldest)
			oldest = pt->perturbs[k].sent;
	wait = oldest + d->opts->perturb_timeout - monotonic_s();
	if (wait < 0.001)
		wait = 0.001;
	tv.tv_sec = (long)wait;
	tv.tv_usec = (long)((wait - (double)tv.tv_sec) * 1e6);
	evtimer_add(pt->perturb_timer, &tv);
}

/* The timer: drop what fell silent. */
static void
perturb_check(evutil_socket_t fd, short what, void *arg)
{
	struct daemon *d = arg;
	struct perturbs *pt = d->perturb;
	double now = monotonic_s();
	char why[64];
	int k;

	(void)fd;
	(void)what;
	snprintf(why, sizeof(why), "silence (nothing for %g ms)",
	    d->opts->perturb_timeout * 1000);
	for (k = 0; k < pt->nperturbs;) {
		if (now - pt->perturbs[k].sent >= d->opts->perturb_timeout)
			perturb_drop(d, k, why);
		else
			k++;
	}
	perturb_arm(d);
}

int
perturb_set(struct daemon *d, struct session *s, int body, const double f[6],
    char *err, size_t len)
{
	struct perturbs *pt = d->perturb;
	static const double zero[6];
	struct perturbation *p = NULL;
	int k;

	for (k = 0; k < pt->nperturbs; k++)
		if (pt->perturbs[k].body == body)
			p = &pt->perturbs[k];
	if (memcmp(f, zero, sizeof(zero)) == 0) {
		/* A release: the driver lets go (another's write stays). */
		if (p != NULL && p->driver == s->id)
			perturb_drop(d, (int)(p - pt->perturbs), NULL);
		perturb_arm(d);
		return 0;
	}
	if (p == NULL) {
		if (pt->nperturbs == PERTURB_MAX) {
			snprintf(err, len,
			    "%d bodies are perturbed already, the most at once",
			    PERTURB_MAX);
			return -1;
		}
		p = &pt->perturbs[pt->nperturbs++];
		memset(p, 0, sizeof(*p));
		p->body = body;
	}
	if (p->driver != s->id) {
		p->driver = s->id;
		snprintf(p->driver_name, sizeof(p->driver_name), "%s", s->name);
		log_info("client %llu (%s) pt->perturbs body %d",
		    (unsigned long long)s->id, s->name, body);
	}
	memcpy(p->f, f, sizeof(p->f));
	p->sent = monotonic_s();
	p->fresh = 1;
	sim_xfrc_set_one(d->sim, body, f);
	perturb_arm(d);
	return 0;
}

int
perturb_find(struct daemon *d, int body, struct perturb_info *out)
{
	struct perturbs *pt = d->perturb;
	int k;

	for (k = 0; k < pt->nperturbs; k++)
		if (pt->perturbs[k].body == body) {
			perturb_info(d, &pt->perturbs[k], out);
			return 1;
		}
	memset(out, 0, sizeof(*out));
	out->body = body;
	out->timeout = d->opts->perturb_timeout;
	return 0;
}

int
perturb_list(struct daemon *d, struct perturb_info *out, int max)
{
	struct perturbs *pt = d->perturb;
	int k;

	for (k = 0; k < pt->nperturbs && k < max; k++)
		perturb_info(d, &pt->perturbs[k], &out[k]);
	return k;
}

void
perturb_session_closed(struct daemon *d, struct session *s)
{
	struct perturbs *pt = d->perturb;
	int k;

	for (k = 0; k < pt->nperturbs;) {
		if (pt->perturbs[k].driver == s->id)
			perturb_drop(d, k, "driver left");
		else
			k++;
	}
	if (pt->perturb_timer != NULL)
		perturb_arm(d);
}

void
perturb_good(struct daemon *d)
{
	struct perturbs *pt = d->perturb;
	int k;

	for (k = 0; k < pt->nperturbs; k++)
		pt->perturbs[k].fresh = 0;
}

int
perturb_undo(struct daemon *d, int all, const char *why)
{
	struct perturbs *pt = d->perturb;
	int k, n = 0;

	for (k = 0; k < pt->nperturbs;) {
		if (all || pt->perturbs[k].fresh) {
			perturb_drop(d, k, why);
			n++;
		} else
			k++;
	}
	if (pt->perturb_timer != NULL)
		perturb_arm(d);
	return n;
}

void
perturb_model_changed(struct daemon *d)
{
	struct perturbs *pt = d->perturb;
	struct perturb_info info;
	int k;

	for (k = 0; k < pt->nperturbs; k++) {
		perturb_info(d, &pt->perturbs[k], &info);
		info.stale = 1;
		perturb_notify(d, &info, "model loaded");
	}
	pt->nperturbs = 0;
	if (pt->perturb_timer != NULL)
		evtimer_del(pt->perturb_timer);
}

void
perturb_shutdown(struct daemon *d)
{
	struct perturbs *pt = d->perturb;

	if (pt->perturb_timer != NULL)
		event_free(pt->perturb_timer);
	pt->perturb_timer = NULL;
	pt->nperturbs = 0;
}

void
perturb_set_notify(perturb_notify_fn fn)
{
	perturb_notify = fn;
}
