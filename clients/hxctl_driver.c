/*
 * The input drivers as hxctl sees them: connecting and disconnecting the
 * tracking of a mocap body, and the tracking and perturbations in the
 * status and in events.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "haptixd.h"
#include "hxctl_common.h"

static void tracking_print(const hxd_tracking *);

/* Print one mocap body's tracking on one line. */
static void
tracking_print(const hxd_tracking *t)
{
	printf("%-12s mocap %d (%s): %s", "tracking", t->mocap, t->body,
	    !t->connected     ? "disconnected" :
		t->offset_set ? "connected" :
				"connected, waiting for a pose");
	if (t->poses > 0) {
		printf(", %llu poses from client %llu (%s), %.4g Hz, newest "
		       "%.3g ms old",
		    t->poses, t->driver, t->driver_name, t->rate, t->age * 1e3);
		if (t->latency >= 0)
			printf(", %.3g ms to the physics", t->latency * 1e3);
	}
	printf("\n");
}

/*
 * tracking [connect|disconnect] [BODY]: connect or disconnect the
 * tracking of a mocap body (the first one by default), or show it.
 */
int
cmd_tracking(struct ctl *ctl)
{
	const char *op, *body;
	hxd_status st;
	hxd_tracking t;
	int rc, k;

	if ((rc = ctl_options(ctl, NULL, 0)) != 0)
		return rc;
	op = ctl->npos > 0 ? ctl->pos[0] : "show";
	body = ctl->npos > 1 ? ctl->pos[1] : NULL;
	if (strcmp(op, "connect") != 0 && strcmp(op, "disconnect") != 0 &&
	    strcmp(op, "show") != 0)
		return ctl_usage_error(
		    ctl, "'%s': say connect, disconnect or show", op);
	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (strcmp(op, "show") == 0) {
		if (body != NULL)
			return ctl_usage_error(ctl, "show takes no body");
		if (hxd_status_get(ctl->conn, &st) != HXD_OK)
			return ctl_fail(ctl);
		if (ctl->json) {
			js_open('[');
			for (k = 0; k < st.ntracking; k++)
				tracking_json(&st.tracking[k]);
			js_close(']');
			return CTL_OK;
		}
		for (k = 0; k < st.ntracking; k++)
			tracking_print(&st.tracking[k]);
		if (st.ntracking == 0)
			printf("%-12s %s\n", "tracking",
			    "no mocap body is fed or connected");
		return CTL_OK;
	}
	if (hxd_mocap_connect(
		ctl->conn, 0, body, strcmp(op, "connect") == 0, &t) != HXD_OK)
		return ctl_fail(ctl);
	if (ctl->json)
		tracking_json(&t);
	else
		tracking_print(&t);
	return CTL_OK;
}

/* Write one mocap body's tracking as a JSON object. */
void
tracking_json(const hxd_tracking *t)
{
	js_open('{');
	js_ki("mocap", t->mocap);
	js_ks("body", t->body);
	js_kb("connected", t->connected);
	js_kb("offset_set", t->offset_set);
	js_ku("driver", t->driver);
	js_ks("driver_name", t->driver_name);
	js_ku("poses", t->poses);
	js_kn("rate", t->rate);
	js_kn("age", t->age);
	if (t->latency >= 0)
		js_kn("latency", t->latency);
	else
		js_knull("latency");
	js_kn("source_time", t->source_time);
	js_close('}');
}

/* Write a driver's perturbation as a JSON object. */
void
perturbation_json(const hxd_perturbation *p)
{
	js_open('{');
	js_ki("body", p->body);
	js_ks("name", p->name);
	js_kv("force", p->force, 3);
	js_kv("torque", p->torque, 3);
	js_ku("driver", p->driver);
	js_ks("driver_name", p->driver_name);
	js_kn("age", p->age);
	js_kn("timeout", p->timeout);
	js_close('}');
}

/* The drivers' part of the status, as JSON members. */
void
drivers_status_json(const hxd_status *st)
{
	int k;

	js_key("tracking");
	js_open('[');
	for (k = 0; k < st->ntracking; k++)
		tracking_json(&st->tracking[k]);
	js_close(']');
	js_key("perturbations");
	js_open('[');
	for (k = 0; k < st->nperturbations; k++)
		perturbation_json(&st->perturbations[k]);
	js_close(']');
	js_kn("perturb_timeout", st->perturb_timeout);
}

/* The drivers' part of the status, a line each. */
void
drivers_status_print(const hxd_status *st)
{
	const hxd_perturbation *p;
	int k;

	for (k = 0; k < st->ntracking; k++)
		tracking_print(&st->tracking[k]);
	for (k = 0; k < st->nperturbations; k++) {
		p = &st->perturbations[k];
		printf("%-12s body %d (%s) by client %llu (%s): force %g %g "
		       "%g, torque %g %g %g, %.3g ms ago\n",
		    "perturbation", p->body, p->name, p->driver, p->driver_name,
		    p->force[0], p->force[1], p->force[2], p->torque[0],
		    p->torque[1], p->torque[2], p->age * 1e3);
	}
	printf("%-12s %.4g ms of a driver's silence drops its force\n",
	    "perturb", st->perturb_timeout * 1e3);
}
