/*
 * Keyframes by name, HAPTIX's Sim=>Key, and one joint's state by name.
 *
 * Capturing writes the current state into the model's keyframe of that
 * name when it has one (as HAPTIX's Sim=>Key does with the selected
 * keyframe); any other name is kept by the sim as a captured state until
 * the next model load, since a compiled model cannot grow keyframes.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_internal.h"
#include "sim_key.h"
#include "sim_state.h"

/* The most states captured under names the model does not have. */
#define SIM_KEYS_MAX 256

struct sim_key {
	struct sim_key *next;
	char name[SIM_KEY_NAME_MAX + 1];
	double time;
	double *qpos, *qvel, *act, *mpos, *mquat, *ctrl; /* in one block */
};

/* The captured state named name, or NULL. */
static struct sim_key *
sim_key_find(const struct sim *s, const char *name)
{
	struct sim_key *k;

	for (k = s->keys; k != NULL; k = k->next) {
		if (strcmp(k->name, name) == 0)
			return k;
	}
	return NULL;
}

void
sim_keys_free(struct sim *s)
{
	struct sim_key *k;

	while ((k = s->keys) != NULL) {
		s->keys = k->next;
		free(k->qpos);
		free(k);
	}
	s->nkeys = 0;
}

/* Copy the current state into keyframe key of the model. */
static void
sim_key_store_model(struct sim *s, int key)
{
	const mjModel *m = s->m;
	const mjData *d = s->d;

	s->counters.model_edits++;
	s->m->key_time[key] = d->time;
	mju_copy(s->m->key_qpos + key * m->nq, d->qpos, m->nq);
	mju_copy(s->m->key_qvel + key * m->nv, d->qvel, m->nv);
	mju_copy(s->m->key_act + key * m->na, d->act, m->na);
	mju_copy(
	    s->m->key_mpos + key * 3 * m->nmocap, d->mocap_pos, 3 * m->nmocap);
	mju_copy(s->m->key_mquat + key * 4 * m->nmocap, d->mocap_quat,
	    4 * m->nmocap);
	mju_copy(s->m->key_ctrl + key * m->nu, d->ctrl, m->nu);
}

int
sim_key_capture(struct sim *s, const char *name, int key, char *err, size_t len)
{
	const mjModel *m = s->m;
	struct sim_key *k;
	size_t n;

	if (name[0] == '\0') {
		sim_key_store_model(s, key);
		return key;
	}
	if ((key = mj_name2id(m, mjOBJ_KEY, name)) >= 0) {
		sim_key_store_model(s, key);
		return key;
	}
	if (strlen(name) > SIM_KEY_NAME_MAX) {
		snprintf(err, len, "the name is longer than %d bytes",
		    SIM_KEY_NAME_MAX);
		return -2;
	}
	if ((k = sim_key_find(s, name)) == NULL) {
		if (s->nkeys == SIM_KEYS_MAX) {
			snprintf(err, len,
			    "%d states are captured already: reload the "
			    "model to forget them, or reuse a name",
			    SIM_KEYS_MAX);
			return -2;
		}
		k = calloc(1, sizeof(*k));
		n = (size_t)(m->nq + m->nv + m->na + 7 * m->nmocap + m->nu);
		if (k == NULL ||
		    (k->qpos = calloc(n + 1, sizeof(double))) == NULL) {
			free(k);
			snprintf(err, len, "out of memory");
			return -2;
		}
		snprintf(k->name, sizeof(k->name), "%s", name);
		k->qvel = k->qpos + m->nq;
		k->act = k->qvel + m->nv;
		k->mpos = k->act + m->na;
		k->mquat = k->mpos + 3 * m->nmocap;
		k->ctrl = k->mquat + 4 * m->nmocap;
		k->next = s->keys;
		s->keys = k;
		s->nkeys++;
	}
	k->time = s->d->time;
	mju_copy(k->qpos, s->d->qpos, m->nq);
	mju_copy(k->qvel, s->d->qvel, m->nv);
	mju_copy(k->act, s->d->act, m->na);
	mju_copy(k->mpos, s->d->mocap_pos, 3 * m->nmocap);
	mju_copy(k->mquat, s->d->mocap_quat, 4 * m->nmocap);
	mju_copy(k->ctrl, s->d->ctrl, m->nu);
	return -1;
}

int
sim_reset_name_exists(const struct sim *s, const char *name)
{
	return mj_name2id(s->m, mjOBJ_KEY, name) >= 0 ||
	    sim_key_find(s, name) != NULL;
}

int
sim_reset_name(struct sim *s, const char *name)
{
	const mjModel *m = s->m;
	mjData *d = s->d;
	struct sim_key *k;
	int key;

	if ((key = mj_name2id(m, mjOBJ_KEY, name)) >= 0) {
		sim_reset(s, key);
		return key;
	}
	if ((k = sim_key_find(s, name)) == NULL)
		return -2;
	/* What a keyframe reset does: everything else starts afresh. */
	mj_resetData(m, d);
	d->time = k->time;
	s->counters.steps = 0;
	mju_copy(d->qpos, k->qpos, m->nq);
	mju_copy(d->qvel, k->qvel, m->nv);
	mju_copy(d->act, k->act, m->na);
	mju_copy(d->mocap_pos, k->mpos, 3 * m->nmocap);
	mju_copy(d->mocap_quat, k->mquat, 4 * m->nmocap);
	mju_copy(d->ctrl, k->ctrl, m->nu);
	mj_forward(m, d);
	sim_robot_reset(s);
	return -1;
}

int
sim_key_names(const struct sim *s, const char **names, int max)
{
	const struct sim_key *k;
	int n = 0;

	for (k = s->keys; k != NULL; k = k->next) {
		if (n < max)
			names[n] = k->name;
		n++;
	}
	return n;
}

int
sim_joint_set(struct sim *s, const char *name, const double *qpos, size_t nqpos,
    const double *qvel, size_t nqvel, char *err, size_t len)
{
	static const char *const types[] = { "free", "ball", "slide", "hinge" };
	static const int nq[] = { 7, 4, 1, 1 }, nv[] = { 6, 3, 1, 1 };
	const mjModel *m = s->m;
	mjData *d = s->d;
	double *q;
	int id, t, quat;

	if ((id = mj_name2id(m, mjOBJ_JOINT, name)) < 0) {
		snprintf(err, len, "the model has no joint named \"%s\"", name);
		return -1;
	}
	t = m->jnt_type[id];
	if ((nqpos != 0 && nqpos != (size_t)nq[t]) ||
	    (nqvel != 0 && nqvel != (size_t)nv[t])) {
		snprintf(err, len,
		    "joint \"%s\" is a %s joint: qpos takes %d values and "
		    "qvel %d (got %zu and %zu)",
		    name, types[t], nq[t], nv[t], nqpos, nqvel);
		return -2;
	}
	/* Free joints hold a quaternion after the position; ball joints one. */
	quat = t == mjJNT_FREE ? 3 : 0;
	if (nqpos != 0 && t <= mjJNT_BALL &&
	    mju_norm(qpos + quat, 4) < mjMINVAL) {
		snprintf(err, len,
		    "joint \"%s\": the quaternion has no direction", name);
		return -3;
	}
	if (nqpos != 0) {
		q = d->qpos + m->jnt_qposadr[id];
		mju_copy(q, qpos, nq[t]);
		if (t <= mjJNT_BALL)
			mju_normalize4(q + quat);
	}
	if (nqvel != 0)
		mju_copy(d->qvel + m->jnt_dofadr[id], qvel, nv[t]);
	mj_forward(m, d);
	return 0;
}

int
sim_joint_get(const struct sim *s, const char *name, int id,
    struct sim_joint *out, char *err, size_t len)
{
	static const int nq[] = { 7, 4, 1, 1 }, nv[] = { 6, 3, 1, 1 };
	const mjModel *m = s->m;
	const char *body;
	int i;

	if (name != NULL && name[0] != '\0') {
		if ((id = mj_name2id(m, mjOBJ_JOINT, name)) < 0) {
			snprintf(err, len,
			    "the model has no joint named \"%s\"", name);
			return -1;
		}
	} else if (id < 0 || id >= m->njnt) {
		snprintf(err, len, "joint %d is not one of the model's %d", id,
		    m->njnt);
		return -1;
	}
	memset(out, 0, sizeof(*out));
	out->id = id;
	out->type = m->jnt_type[id];
	out->name = m->names + m->name_jntadr[id];
	out->body_id = m->jnt_bodyid[id];
	body = m->names + m->name_bodyadr[out->body_id];
	out->body = body;
	out->qpos_adr = m->jnt_qposadr[id];
	out->dof_adr = m->jnt_dofadr[id];
	out->nq = nq[out->type];
	out->nv = nv[out->type];
	for (i = 0; i < 3; i++)
		out->axis[i] = m->jnt_axis[3 * id + i];
	out->limited = m->jnt_limited[id];
	out->range[0] = m->jnt_range[2 * id];
	out->range[1] = m->jnt_range[2 * id + 1];
	out->qpos = s->d->qpos + out->qpos_adr;
	out->qvel = s->d->qvel + out->dof_adr;
	return 0;
}
