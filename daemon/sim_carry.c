/*
 * The state carried across an edit's recompile, by name: time; qpos and
 * qvel of every joint (a named one by its name, an unnamed one by its
 * body's name and its place among the body's joints); ctrl and act of
 * every named actuator; the pose of every named mocap body; the applied
 * force of every named body; the colour a client gave a geom (a named one
 * by its name, an unnamed one by its body's name and its place among the
 * body's geoms), unless the edit gave that geom another.  What the new
 * model has and the old had not starts as a new model starts (qpos0,
 * zero, its own colours).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "sim_carry.h"
#include "sim_internal.h"
#include "sim_state.h"

/*
 * A copy of the old model, for its names and layout, and of the arrays
 * carried (not of its whole mjData: the arena and the stack, some tens of
 * MiB with a large njmax, are most of an edit's time to copy).
 */
struct sim_carry {
	struct sim *s;
	mjModel *m; /* the model taken from: s's, lent, until replaced */
	mjtNum time;
	uint64_t steps; /* counted from the origin of time: both go on */
	mjtNum *qpos, *qvel, *act, *ctrl, *mpos, *mquat, *xfrc;
	float *rgba0; /* the old model's geom colours as it was loaded */
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

/* The key a geom is matched by: its name, or its body's and place. */
static void
carry_geom_key(const mjModel *m, int g, char *key, size_t len)
{
	const char *name = m->names + m->name_geomadr[g];
	int b = m->geom_bodyid[g];

	if (name[0] != '\0')
		snprintf(key, len, "g:%s", name);
	else
		snprintf(key, len, "b:%s:%d", m->names + m->name_bodyadr[b],
		    g - m->body_geomadr[b]);
}

/* The geom of m with key, or -1. */
static int
carry_find_geom(const mjModel *m, const char *key)
{
	char k[600];
	int g;

	if (strncmp(key, "g:", 2) == 0)
		return mj_name2id(m, mjOBJ_GEOM, key + 2);
	for (g = 0; g < m->ngeom; g++) {
		carry_geom_key(m, g, k, sizeof(k));
		if (strcmp(k, key) == 0)
			return g;
	}
	return -1;
}

/*
 * The colours written into the old model since it was loaded (set_rgba,
 * set_array, the World API's hxs_set_model_color) go to the same geoms
 * of the new one, as gravity and collide modes do (gazebo_world.c), unless the
 * edit itself gave the geom another colour: what the edit says wins.
 */
static void
carry_colours(struct sim *s, const struct sim_carry *c)
{
	const mjModel *om = c->m, *p = s->pristine;
	mjModel *m = s->m;
	char key[600];
	int g, j, n = 0;

	for (g = 0; g < om->ngeom; g++) {
		if (memcmp(om->geom_rgba + 4 * g, c->rgba0 + 4 * g,
			4 * sizeof(float)) == 0)
			continue;
		carry_geom_key(om, g, key, sizeof(key));
		if ((j = carry_find_geom(m, key)) < 0 ||
		    (p != NULL &&
			memcmp(p->geom_rgba + 4 * j, c->rgba0 + 4 * g,
			    4 * sizeof(float)) != 0))
			continue;
		memcpy(m->geom_rgba + 4 * j, om->geom_rgba + 4 * g,
		    4 * sizeof(float));
		n++;
	}
	/* A write into the model: the journal and the viewers must see it. */
	if (n > 0)
		s->counters.model_edits++;
}

/* One state's arrays, as mjData holds them or as a keyframe does. */
struct carry_arrays {
	mjtNum *qpos, *qvel, *act, *ctrl, *mpos, *mquat;
};

/*
 * Copy from om's arrays into m's what the two models share by names:
 * joints of the same type, named actuators (ctrl, and act for those with
 * activation, which MuJoCo 2.2 keeps last), named mocap bodies.
 */
static void
carry_arrays_copy(const mjModel *om, const struct carry_arrays *from,
    const mjModel *m, const struct carry_arrays *to)
{
	static const int nq[] = { 7, 4, 1, 1 }, nv[] = { 6, 3, 1, 1 };
	char key[600];
	const char *name;
	int i, j, t, oa, na;

	for (i = 0; i < om->njnt; i++) {
		carry_joint_key(om, i, key, sizeof(key));
		if ((j = carry_find_joint(m, key)) < 0 ||
		    m->jnt_type[j] != om->jnt_type[i])
			continue;
		t = m->jnt_type[j];
		mju_copy(to->qpos + m->jnt_qposadr[j],
		    from->qpos + om->jnt_qposadr[i], nq[t]);
		mju_copy(to->qvel + m->jnt_dofadr[j],
		    from->qvel + om->jnt_dofadr[i], nv[t]);
	}
	for (i = 0; i < om->nu; i++) {
		name = om->names + om->name_actuatoradr[i];
		if (name[0] == '\0' ||
		    (j = mj_name2id(m, mjOBJ_ACTUATOR, name)) < 0)
			continue;
		to->ctrl[j] = from->ctrl[i];
		oa = i - (om->nu - om->na);
		na = j - (m->nu - m->na);
		if (oa >= 0 && na >= 0)
			to->act[na] = from->act[oa];
	}
	for (i = 1; i < om->nbody; i++) {
		name = om->names + om->name_bodyadr[i];
		if (om->body_mocapid[i] < 0 || name[0] == '\0' ||
		    (j = mj_name2id(m, mjOBJ_BODY, name)) < 0 ||
		    m->body_mocapid[j] < 0)
			continue;
		mju_copy3(to->mpos + 3 * m->body_mocapid[j],
		    from->mpos + 3 * om->body_mocapid[i]);
		mju_copy4(to->mquat + 4 * m->body_mocapid[j],
		    from->mquat + 4 * om->body_mocapid[i]);
	}
}

/* Copy n values of from to *v and advance it; returns where they went. */
static mjtNum *
carry_save(mjtNum **v, const mjtNum *from, int n)
{
	mjtNum *to = *v;

	if (n > 0)
		memcpy(to, from, (size_t)n * sizeof(mjtNum));
	*v += n;
	return to;
}

struct sim_carry *
sim_carry_take(struct sim *s)
{
	struct sim_carry *c;

	if (s->m == NULL)
		return NULL;
	const mjModel *m = s->m;
	const mjData *d = s->d;
	size_t n = (size_t)(m->nq + m->nv + m->na + m->nu + 7 * m->nmocap +
	    6 * m->nbody);
	mjtNum *v;

	if ((c = calloc(1, sizeof(*c) + n * sizeof(mjtNum))) == NULL ||
	    (c->rgba0 = malloc(4 * (size_t)m->ngeom * sizeof(float) + 1)) ==
		NULL)
		fatal("out of memory");
	/*
	 * The model itself, not a copy (2 MB of the MPL scene's, faulted in
	 * on each edit): the install that replaces it leaves it here.
	 */
	c->s = s;
	c->m = s->lent = s->m;
	/* Without the model as loaded, no colour counts as a client's. */
	memcpy(c->rgba0,
	    s->pristine != NULL ? s->pristine->geom_rgba : m->geom_rgba,
	    4 * (size_t)m->ngeom * sizeof(float));
	c->time = d->time;
	c->steps = s->counters.steps;
	v = (mjtNum *)(c + 1);
	c->qpos = carry_save(&v, d->qpos, m->nq);
	c->qvel = carry_save(&v, d->qvel, m->nv);
	c->act = carry_save(&v, d->act, m->na);
	c->ctrl = carry_save(&v, d->ctrl, m->nu);
	c->mpos = carry_save(&v, d->mocap_pos, 3 * m->nmocap);
	c->mquat = carry_save(&v, d->mocap_quat, 4 * m->nmocap);
	c->xfrc = carry_save(&v, d->xfrc_applied, 6 * m->nbody);
	return c;
}

void
sim_carry_give(struct sim *s, const struct sim_carry *c)
{
	const mjModel *om, *m = s->m;
	mjData *d = s->d;
	const char *name;
	int i, j;

	if (c == NULL || m == NULL)
		return;
	om = c->m;
	d->time = c->time;
	s->counters.steps = c->steps;
	carry_arrays_copy(om,
	    &(struct carry_arrays){
		c->qpos, c->qvel, c->act, c->ctrl, c->mpos, c->mquat },
	    m,
	    &(struct carry_arrays){ d->qpos, d->qvel, d->act, d->ctrl,
		d->mocap_pos, d->mocap_quat });
	for (i = 1; i < om->nbody; i++) {
		name = om->names + om->name_bodyadr[i];
		if (name[0] != '\0' &&
		    (j = mj_name2id(m, mjOBJ_BODY, name)) >= 0)
			mju_copy(d->xfrc_applied + 6 * j, c->xfrc + 6 * i, 6);
	}
	carry_colours(s, c);
	sim_forward(s);
}

void
sim_carry_free(struct sim_carry *c)
{
	if (c == NULL)
		return;
	if (c->s->lent == c->m)
		c->s->lent = NULL; /* not replaced: it runs on */
	else
		mj_deleteModel(c->m);
	free(c->rgba0);
	free(c);
}

/* Write n values as MJCF does, into buf; returns buf. */
static char *
carry_values(const mjtNum *v, int n, char *buf, size_t len)
{
	size_t off = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < n && off < len; i++)
		off += (size_t)snprintf(
		    buf + off, len - off, i == 0 ? "%.17g" : " %.17g", v[i]);
	return buf;
}

int
sim_carry_keys(struct sim *to, const struct sim *from,
    void (*set)(void *arg, int key, const char *attr, const char *value),
    void *arg)
{
	const mjModel *om = from->m;
	mjModel *m = to->m;
	char *buf;
	size_t len;
	int k, i;

	if (om == NULL || m == NULL)
		return 0;
	len = 32 * (size_t)(m->nq + m->nv + m->na + m->nu + 7 * m->nmocap) + 64;
	if ((buf = malloc(len)) == NULL)
		fatal("out of memory");
	for (k = 0; k < m->nkey && k < om->nkey; k++) {
		/* What is not carried starts as a new model starts. */
		mju_copy(m->key_qpos + k * m->nq, m->qpos0, m->nq);
		mju_zero(m->key_qvel + k * m->nv, m->nv);
		mju_zero(m->key_act + k * m->na, m->na);
		mju_zero(m->key_ctrl + k * m->nu, m->nu);
		for (i = 0; i < m->nbody; i++)
			if (m->body_mocapid[i] >= 0) {
				mju_copy3(m->key_mpos + k * 3 * m->nmocap +
					3 * m->body_mocapid[i],
				    m->body_pos + 3 * i);
				mju_copy4(m->key_mquat + k * 4 * m->nmocap +
					4 * m->body_mocapid[i],
				    m->body_quat + 4 * i);
			}
		m->key_time[k] = om->key_time[k];
		carry_arrays_copy(om,
		    &(struct carry_arrays){ om->key_qpos + k * om->nq,
			om->key_qvel + k * om->nv, om->key_act + k * om->na,
			om->key_ctrl + k * om->nu,
			om->key_mpos + k * 3 * om->nmocap,
			om->key_mquat + k * 4 * om->nmocap },
		    m,
		    &(struct carry_arrays){ m->key_qpos + k * m->nq,
			m->key_qvel + k * m->nv, m->key_act + k * m->na,
			m->key_ctrl + k * m->nu,
			m->key_mpos + k * 3 * m->nmocap,
			m->key_mquat + k * 4 * m->nmocap });
		if (set == NULL)
			continue;
		set(arg, k, "qpos",
		    carry_values(m->key_qpos + k * m->nq, m->nq, buf, len));
		set(arg, k, "qvel",
		    carry_values(m->key_qvel + k * m->nv, m->nv, buf, len));
		set(arg, k, "act",
		    carry_values(m->key_act + k * m->na, m->na, buf, len));
		set(arg, k, "ctrl",
		    carry_values(m->key_ctrl + k * m->nu, m->nu, buf, len));
		set(arg, k, "mpos",
		    carry_values(m->key_mpos + k * 3 * m->nmocap, 3 * m->nmocap,
			buf, len));
		set(arg, k, "mquat",
		    carry_values(m->key_mquat + k * 4 * m->nmocap,
			4 * m->nmocap, buf, len));
	}
	free(buf);
	return m->nkey;
}
