/*
 * What the World API (gazebo_world.c, Gazebo HAPTIX's haptix_sim.h) needs of
 * MuJoCo: a body's weight, the forces added for a step and taken out
 * after it, the collide mode of a body's subtree, and the model's own
 * view camera.
 */
#include "config.h"

#include <math.h>

#include "sim_internal.h"
#include "sim_world.h"

/* The gap that keeps every contact of a geom out of the solver. */
#define WORLD_DETECT_GAP 1e6

/* 1 if body b is root or below it. */
static int
sim_world_in_subtree(const mjModel *m, int b, int root)
{
	while (b > 0 && b != root)
		b = m->body_parentid[b];
	return b == root;
}

void
sim_body_weight(const struct sim *s, int body, double f[3])
{
	const mjModel *m = s->m;

	/* What cancels the body's weight: -m g, at its centre of mass. */
	mju_scl3(f, m->opt.gravity, -m->body_mass[body]);
}

void
sim_xfrc_push(struct sim *s, const double *add, double *saved)
{
	mjData *d = s->d;
	int n = 6 * s->m->nbody;

	mju_copy(saved, d->xfrc_applied, n);
	mju_addTo(d->xfrc_applied, add, n);
}

void
sim_xfrc_pop(struct sim *s, const double *saved)
{
	mju_copy(s->d->xfrc_applied, saved, 6 * s->m->nbody);
}

int
sim_collide_get(const struct sim *s, int body)
{
	const mjModel *m = s->m;
	int g, detect = 0, collide = 0;

	/* A model collides if one geom does; detects if every one that
	 * can collide is kept out of the solver. */
	for (g = 0; g < m->ngeom; g++) {
		if (!sim_world_in_subtree(m, m->geom_bodyid[g], body) ||
		    (m->geom_contype[g] == 0 && m->geom_conaffinity[g] == 0))
			continue;
		if (m->geom_gap[g] >= WORLD_DETECT_GAP)
			detect++;
		else
			collide++;
	}
	if (collide > 0)
		return SIM_COLLIDE;
	return detect > 0 ? SIM_DETECT : SIM_NOCOLLIDE;
}

void
sim_collide_set(struct sim *s, int body, int mode)
{
	mjModel *m = s->m;
	const mjModel *p = s->pristine;
	int g, type, aff;
	double gap;

	for (g = 0; g < m->ngeom; g++) {
		if (!sim_world_in_subtree(m, m->geom_bodyid[g], body))
			continue;
		/* The model as loaded says how it collides. */
		type = p != NULL ? p->geom_contype[g] : 1;
		aff = p != NULL ? p->geom_conaffinity[g] : 1;
		gap = p != NULL ? p->geom_gap[g] : 0;
		if (mode == SIM_NOCOLLIDE)
			type = aff = 0;
		else if (mode == SIM_DETECT)
			gap = WORLD_DETECT_GAP;
		if (m->geom_contype[g] != type ||
		    m->geom_conaffinity[g] != aff || m->geom_gap[g] != gap) {
			sim_undo_note(s, m->geom_contype + g,
			    sizeof(*m->geom_contype), 0);
			sim_undo_note(s, m->geom_conaffinity + g,
			    sizeof(*m->geom_conaffinity), 0);
			sim_undo_note(s, m->geom_gap + g, sizeof(mjtNum), 0);
			m->geom_contype[g] = type;
			m->geom_conaffinity[g] = aff;
			m->geom_gap[g] = gap;
			s->counters.model_edits++;
		}
	}
}

void
sim_camera_default(const struct sim *s, double pos[3], double quat[4])
{
	const mjModel *m = s->m;
	double az = m->vis.global.azimuth * M_PI / 180;
	double el = m->vis.global.elevation * M_PI / 180;
	double dist = 1.5 * m->stat.extent, fwd[3], qz[4], qy[4];

	/* MuJoCo's free camera (mjv_defaultFreeCamera), looking along x. */
	fwd[0] = cos(el) * cos(az);
	fwd[1] = cos(el) * sin(az);
	fwd[2] = sin(el);
	mju_addScl3(pos, m->stat.center, fwd, -dist);
	qz[0] = cos(az / 2), qz[1] = 0, qz[2] = 0, qz[3] = sin(az / 2);
	qy[0] = cos(-el / 2), qy[1] = 0, qy[2] = sin(-el / 2), qy[3] = 0;
	mju_mulQuat(quat, qz, qy);
}
