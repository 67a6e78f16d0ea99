/*
 * hxview frames: a picture on request, for a learning environment that
 * steps the paused simulation itself.  Each line on standard input asks
 * for one.  The state is fetched by calls at that moment, not taken from
 * the stream, whose frames lag behind a step; the picture goes to
 * standard output as binary PPM.  No overlays: an agent learns from the
 * scene alone.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hxview_mujoco.h"
#include "program.h"

/* A model changing under the calls is fetched again this many times. */
#define FRAMES_TRIES 3

/* A call failed: say which, and what the library said; -1. */
static int
frames_fail(char *err, size_t len, const char *what, hxd_conn *c)
{
	snprintf(err, len, "cannot fetch the %s: %s", what, hxd_error(c));
	return -1;
}

/*
 * Does the picture draw what the velocities, controls and applied
 * forces make (actuators, perturbation forces, contact forces)?  Poses
 * need only the positions and the mocap bodies.
 */
static int
frames_draws_forces(const mjvOption *opt)
{
	return opt->flags[mjVIS_ACTUATOR] || opt->flags[mjVIS_ACTIVATION] ||
	    opt->flags[mjVIS_PERTFORCE] || opt->flags[mjVIS_CONTACTFORCE] ||
	    opt->flags[mjVIS_CONTACTSPLIT];
}

/*
 * The model as the server has it now: the status first, so that the
 * event of a model loaded before it has come with it; then the events
 * (a new model, the daemon's camera); then writes into the model the
 * copy lacks, unless a new one was fetched after the status.  0, or -1.
 */
static int
frames_model(struct view *v, char *err, size_t len)
{
	hxd_conn *c = view_conn(v);
	unsigned gen = v->gen, looks = v->looks;
	hxd_status st;

	if (hxd_status_get(c, &st) != HXD_OK)
		return frames_fail(err, len, "status", c);
	if (view_pump(v, 0, err, len) < 0)
		return -1;
	if (v->gen != gen || v->looks != looks)
		return 0;
	return view_edits(v, st.model_edits, err, len);
}

/* qpos, qvel and act into d: 0, 1 if not of the model's sizes, or -1. */
static int
frames_qpos(struct view *v, hxd_conn *c, char *err, size_t len)
{
	const mjModel *m = v->m;
	hxd_state *s;
	int fits;

	if (hxd_get_state(c, &s) != HXD_OK)
		return frames_fail(err, len, "state", c);
	fits = s->nq == m->nq && s->nv == m->nv && s->na == m->na;
	if (fits) {
		v->d->time = s->time;
		mju_copy(v->d->qpos, s->qpos, m->nq);
		mju_copy(v->d->qvel, s->qvel, m->nv);
		mju_copy(v->d->act, s->act, m->na);
	}
	free(s);
	return fits ? 0 : 1;
}

/* The mocap bodies' poses into d: as frames_qpos(). */
static int
frames_mocap(struct view *v, hxd_conn *c, char *err, size_t len)
{
	hxd_mocap *mc;
	int fits;

	if (v->m->nmocap == 0)
		return 0;
	if (hxd_get_mocap(c, &mc) != HXD_OK)
		return frames_fail(err, len, "mocap poses", c);
	fits = mc->nmocap == v->m->nmocap;
	if (fits) {
		mju_copy(v->d->mocap_pos, mc->pos, 3 * mc->nmocap);
		mju_copy(v->d->mocap_quat, mc->quat, 4 * mc->nmocap);
	}
	free(mc);
	return fits ? 0 : 1;
}

/* The controls and applied forces into d: as frames_qpos(). */
static int
frames_forces(struct view *v, hxd_conn *c, char *err, size_t len)
{
	const mjModel *m = v->m;
	hxd_applied *ap;
	hxd_control *ct;
	int fits;

	if (m->nu > 0) {
		if (hxd_get_control(c, &ct) != HXD_OK)
			return frames_fail(err, len, "controls", c);
		if ((fits = ct->nu == m->nu))
			mju_copy(v->d->ctrl, ct->ctrl, m->nu);
		free(ct);
		if (!fits)
			return 1;
	}
	if (hxd_get_applied(c, &ap) != HXD_OK)
		return frames_fail(err, len, "applied forces", c);
	fits = ap->nv == m->nv && ap->nbody == m->nbody;
	if (fits) {
		mju_copy(v->d->qfrc_applied, ap->qfrc_applied, m->nv);
		mju_copy(v->d->xfrc_applied, ap->xfrc_applied, 6 * m->nbody);
	}
	free(ap);
	return fits ? 0 : 1;
}

/*
 * The server's state now into the view's data, through mj_forward():
 * the model first, then what the picture needs of the state.  Arrays
 * not of the model's sizes mean that another model came meanwhile: its
 * event is then here, and the state is fetched again.  0, or -1.
 */
static int
frames_fetch(struct view *v, char *err, size_t len)
{
	hxd_conn *c = view_conn(v);
	int i, rc;

	for (i = 0; i < FRAMES_TRIES; i++) {
		if (frames_model(v, err, len) != 0)
			return -1;
		if ((rc = frames_qpos(v, c, err, len)) == 0 &&
		    (rc = frames_mocap(v, c, err, len)) == 0 &&
		    frames_draws_forces(&v->opt))
			rc = frames_forces(v, c, err, len);
		if (rc < 0)
			return -1;
		if (rc == 0) {
			mj_forward(v->m, v->d);
			return 0;
		}
	}
	snprintf(err, len,
	    "the server's state is not of its model's sizes (%d tries)",
	    FRAMES_TRIES);
	return -1;
}

int
frames_run(struct view *v, volatile sig_atomic_t *stopped)
{
	const struct view_options *o = &v->o;
	unsigned char *rgb = malloc((size_t)o->width * (size_t)o->height * 3);
	char *line = NULL, err[1024];
	size_t cap = 0;
	int rc = VIEW_FAIL;

	if (rgb == NULL) {
		program_warn("out of memory");
		return VIEW_FAIL;
	}
	while (!*stopped) {
		if (getline(&line, &cap, stdin) < 0) {
			/* The end, or a signal (SIGINT, SIGTERM) while read. */
			if (ferror(stdin) && !*stopped) {
				program_warn("frames: cannot read standard "
					     "input: %s",
				    strerror(errno));
				goto out;
			}
			break;
		}
		if (frames_fetch(v, err, sizeof(err)) != 0) {
			program_warn("frames: %s", err);
			goto out;
		}
		view_render(v, rgb);
		if (image_ppm_write(stdout, rgb, o->width, o->height) != 0) {
			/* The reader went away: it wants no more. */
			if (errno == EPIPE)
				break;
			program_warn("frames: cannot write the picture: %s",
			    strerror(errno));
			goto out;
		}
	}
	rc = VIEW_OK;
out:
	free(line);
	free(rgb);
	return rc;
}
