/*
 * The state carried across an edit's recompile, by name: time; qpos and
 * qvel of every joint (a named one by its name, an unnamed one by its
 * body's name and its place among the body's joints); ctrl and act of
 * every named actuator; the pose of every named mocap body; the applied
 * force of every named body.  What the new model has and the old had not
 * starts as a new model starts (qpos0, zero).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "sim_internal.h"

struct sim_carry {
	mjModel *m; /* a copy of the old model, for its names and layout */
	mjData *d;  /* a copy of its data */
};

/* The key a joint is matched by: its name, or its body's and place. */
static void
carry_joint_key(const mjModel *m, int j, char *key, size_t len)
{
	const char *name = m->names + m->name_jntadr[j];
	int b = m->jnt_bodyid[j];

	if (name[0] != '\0')
		snprintf(key, len, "j:%s", name);
	else
		snprintf(key, len, "b:%s:%d", m->names + m->name_bodyadr[b],
		    j - m->body_jntadr[b]);
}

/* The joint of m with key, or -1. */
static int
carry_find_joint(const mjModel *m, const char *key)
{
	char k[600];
	int j;

	if (strncmp(key, "j:", 2) == 0)
		return mj_name2id(m, mjOBJ_JOINT, key + 2);
	for (j = 0; j < m->njnt; j++) {
		carry_joint_key(m, j, k, sizeof(k));
		if (strcmp(k, key) == 0)
			return j;
	}
	return -1;
}

struct sim_carry *
sim_carry_take(const struct sim *s)
{
	struct sim_carry *c;

	if (s->m == NULL)
		return NULL;
	if ((c = calloc(1, sizeof(*c))) == NULL)
		fatal("out of memory");
	c->m = mj_copyModel(NULL, s->m);
	c->d = c->m != NULL ? mj_copyData(NULL, s->m, s->d) : NULL;
	if (c->m == NULL || c->d == NULL)
		fatal("out of memory");
	return c;
}

void
sim_carry_give(struct sim *s, const struct sim_carry *c)
{
	static const int nq[] = { 7, 4, 1, 1 }, nv[] = { 6, 3, 1, 1 };
	const mjModel *om, *m = s->m;
	const mjData *od;
	mjData *d = s->d;
	char key[600];
	const char *name;
	int i, j, t, oa, na;

	if (c == NULL || m == NULL)
		return;
	om = c->m;
	od = c->d;
	d->time = od->time;
	for (i = 0; i < om->njnt; i++) {
		carry_joint_key(om, i, key, sizeof(key));
		if ((j = carry_find_joint(m, key)) < 0 ||
		    m->jnt_type[j] != om->jnt_type[i])
			continue;
		t = m->jnt_type[j];
		memcpy(d->qpos + m->jnt_qposadr[j],
		    od->qpos + om->jnt_qposadr[i], nq[t] * sizeof(mjtNum));
		memcpy(d->qvel + m->jnt_dofadr[j], od->qvel + om->jnt_dofadr[i],
		    nv[t] * sizeof(mjtNum));
	}
	for (i = 0; i < om->nu; i++) {
		name = om->names + om->name_actuatoradr[i];
		if (name[0] == '\0' ||
		    (j = mj_name2id(m, mjOBJ_ACTUATOR, name)) < 0)
			continue;
		d->ctrl[j] = od->ctrl[i];
		/* MuJoCo 2.2 keeps the actuators with activation last. */
		oa = i - (om->nu - om->na);
		na = j - (m->nu - m->na);
		if (oa >= 0 && na >= 0)
			d->act[na] = od->act[oa];
	}
	for (i = 1; i < om->nbody; i++) {
		name = om->names + om->name_bodyadr[i];
		if (name[0] == '\0' ||
		    (j = mj_name2id(m, mjOBJ_BODY, name)) < 0)
			continue;
		memcpy(d->xfrc_applied + 6 * j, od->xfrc_applied + 6 * i,
		    6 * sizeof(mjtNum));
		if (om->body_mocapid[i] >= 0 && m->body_mocapid[j] >= 0) {
			memcpy(d->mocap_pos + 3 * m->body_mocapid[j],
			    od->mocap_pos + 3 * om->body_mocapid[i],
			    3 * sizeof(mjtNum));
			memcpy(d->mocap_quat + 4 * m->body_mocapid[j],
			    od->mocap_quat + 4 * om->body_mocapid[i],
			    4 * sizeof(mjtNum));
		}
	}
	sim_forward(s);
}

void
sim_carry_free(struct sim_carry *c)
{
	if (c == NULL)
		return;
	mj_deleteData(c->d);
	mj_deleteModel(c->m);
	free(c);
}
