/*
 * Quantities the native API computes from MuJoCo's data rather than
 * copying an array: one body, contacts, forces, geom sizes, colours and
 * names.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim_access.h"
#include "sim_internal.h"

/* The free joint of body id, or -1 if the body is not floating. */
static int
sim_free_joint(const mjModel *m, int id)
{
	int j;

	if (m->body_jntnum[id] < 1)
		return -1;
	j = m->body_jntadr[id];
	return m->jnt_type[j] == mjJNT_FREE ? j : -1;
}

void
sim_onebody_get(struct sim *s, int id, struct sim_onebody *out)
{
	const mjModel *m = s->m;
	mjData *d = s->d;
	mjtNum res[6], f6[6], fw[3];
	int i, b1, b2;

	memset(out, 0, sizeof(*out));
	out->is_floating = sim_free_joint(m, id) >= 0;
	mju_copy3(out->pos, d->xpos + 3 * id);
	mju_copy4(out->quat, d->xquat + 4 * id);

	/* Velocities and accelerations at the body frame, world axes. */
	mj_objectVelocity(m, d, mjOBJ_XBODY, id, res, 0);
	mju_copy3(out->angvel, res);
	mju_copy3(out->linvel, res + 3);
	mj_rnePostConstraint(m, d);
	mj_objectAcceleration(m, d, mjOBJ_XBODY, id, res, 0);
	mju_copy3(out->angacc, res);
	mju_copy3(out->linacc, res + 3);

	/* Contact forces act from geom1 on geom2. */
	for (i = 0; i < d->ncon; i++) {
		b1 = m->geom_bodyid[d->contact[i].geom1];
		b2 = m->geom_bodyid[d->contact[i].geom2];
		if (b1 == b2 || (b1 != id && b2 != id))
			continue;
		mj_contactForce(m, d, i, f6);
		mju_mulMatTVec(fw, d->contact[i].frame, f6, 3, 3);
		if (b2 == id)
			mju_addTo3(out->contactforce, fw);
		else
			mju_subFrom3(out->contactforce, fw);
	}
	mju_copy3(out->force, d->xfrc_applied + 6 * id);
	mju_copy3(out->torque, d->xfrc_applied + 6 * id + 3);
}

void
sim_onebody_set(
    struct sim *s, int id, const struct sim_onebody *in, unsigned fields)
{
	const mjModel *m = s->m;
	mjData *d = s->d;
	mjtNum *qpos, *qvel, quat[4], neg[4];
	int j = sim_free_joint(m, id);

	if (j >= 0) {
		qpos = d->qpos + m->jnt_qposadr[j];
		qvel = d->qvel + m->jnt_dofadr[j];
		if (fields & SIM_BODY_POS)
			mju_copy3(qpos, in->pos);
		if (fields & SIM_BODY_QUAT) {
			mju_copy4(qpos + 3, in->quat);
			mju_normalize4(qpos + 3);
		}
		if (fields & SIM_BODY_LINVEL)
			mju_copy3(qvel, in->linvel);
		if (fields & SIM_BODY_ANGVEL) {
			/* The free joint wants it in the body's own frame. */
			mju_copy4(quat, qpos + 3);
			mju_negQuat(neg, quat);
			mju_rotVecQuat(qvel + 3, in->angvel, neg);
		}
	}
	if (fields & SIM_BODY_FORCE)
		mju_copy3(d->xfrc_applied + 6 * id, in->force);
	if (fields & SIM_BODY_TORQUE)
		mju_copy3(d->xfrc_applied + 6 * id + 3, in->torque);
	mj_forward(m, d);
}

void
sim_force_applied(const struct sim *s, double *out)
{
	const mjData *d = s->d;
	int i;

	/* qfrc_smooth = passive - bias + applied + actuator + mapped xfrc */
	for (i = 0; i < s->m->nv; i++)
		out[i] = d->qfrc_smooth[i] - d->qfrc_passive[i] +
		    d->qfrc_bias[i] - d->qfrc_actuator[i];
}

int
sim_contacts(const struct sim *s, const struct sim_contacts *out)
{
	const mjData *d = s->d;
	mjtNum f6[6];
	int i;

	if (out == NULL)
		return d->ncon;
	for (i = 0; i < d->ncon; i++) {
		out->dist[i] = d->contact[i].dist;
		mju_copy3(out->pos + 3 * i, d->contact[i].pos);
		mju_copy(out->frame + 9 * i, d->contact[i].frame, 9);
		mj_contactForce(s->m, d, i, f6);
		mju_copy3(out->force + 3 * i, f6);
		out->geom1[i] = d->contact[i].geom1;
		out->geom2[i] = d->contact[i].geom2;
	}
	return d->ncon;
}

int
sim_set_geomsize(
    struct sim *s, int id, const double size[3], char *err, size_t len)
{
	mjModel *m = s->m;
	static const char *const used[] = {
		[mjGEOM_SPHERE] = "1",
		[mjGEOM_CAPSULE] = "2",
		[mjGEOM_ELLIPSOID] = "3",
		[mjGEOM_CYLINDER] = "2",
		[mjGEOM_BOX] = "3",
	};
	int type = m->geom_type[id], n, i;
	double r;

	switch (type) {
	case mjGEOM_PLANE:
		n = 0;
		break;
	case mjGEOM_SPHERE:
		n = 1;
		break;
	case mjGEOM_CAPSULE:
	case mjGEOM_CYLINDER:
		n = 2;
		break;
	case mjGEOM_ELLIPSOID:
	case mjGEOM_BOX:
		n = 3;
		break;
	default:
		snprintf(err, len,
		    "geom %d is a %s: its size comes from its "
		    "data and cannot be set",
		    id, type == mjGEOM_MESH ? "mesh" : "height field");
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (!(size[i] > 0)) {
			snprintf(err, len,
			    "geom %d takes %s positive size "
			    "value%s; size[%d] is %g",
			    id, used[type], n > 1 ? "s" : "", i, size[i]);
			return -2;
		}
	}
	sim_undo_note(s, m->geom_size + 3 * id, 3 * sizeof(mjtNum), 0);
	sim_undo_note(s, m->geom_rbound + id, sizeof(mjtNum), 0);
	mju_copy3(m->geom_size + 3 * id, size);

	/* The bounding radius drives the broad phase: keep it true. */
	switch (type) {
	case mjGEOM_SPHERE:
		r = size[0];
		break;
	case mjGEOM_CAPSULE:
		r = size[0] + size[1];
		break;
	case mjGEOM_CYLINDER:
		r = sqrt(size[0] * size[0] + size[1] * size[1]);
		break;
	case mjGEOM_ELLIPSOID:
		r = fmax(fmax(size[0], size[1]), size[2]);
		break;
	case mjGEOM_BOX:
		r = sqrt(
		    size[0] * size[0] + size[1] * size[1] + size[2] * size[2]);
		break;
	default:
		r = 0; /* planes are unbounded */
		break;
	}
	m->geom_rbound[id] = r;
	s->counters.model_edits++;
	mj_forward(m, s->d);
	return 0;
}

/* The rgba array of an object type and its count, or NULL. */
static float *
sim_rgba_array(const mjModel *m, int objtype, int *count)
{
	switch (objtype) {
	case mjOBJ_GEOM:
		*count = m->ngeom;
		return m->geom_rgba;
	case mjOBJ_SITE:
		*count = m->nsite;
		return m->site_rgba;
	case mjOBJ_TENDON:
		*count = m->ntendon;
		return m->tendon_rgba;
	case mjOBJ_MATERIAL:
		*count = m->nmat;
		return m->mat_rgba;
	default:
		*count = 0;
		return NULL;
	}
}

int
sim_rgba_get(const struct sim *s, int objtype, int id, double rgba[4])
{
	float *a;
	int n, i;

	if ((a = sim_rgba_array(s->m, objtype, &n)) == NULL)
		return -1;
	if (id < 0 || id >= n)
		return -2;
	for (i = 0; i < 4; i++)
		rgba[i] = a[4 * id + i];
	return 0;
}

int
sim_rgba_set(struct sim *s, int objtype, int id, const double rgba[4])
{
	float *a;
	int n, i;

	if ((a = sim_rgba_array(s->m, objtype, &n)) == NULL)
		return -1;
	if (id < 0 || id >= n)
		return -2;
	sim_undo_note(s, a + 4 * id, 4 * sizeof(float), 0);
	for (i = 0; i < 4; i++)
		a[4 * id + i] = (float)fmin(1.0, fmax(0.0, rgba[i]));
	s->counters.model_edits++;
	return 0;
}

int
sim_object_count(const mjModel *m, int objtype)
{
	switch (objtype) {
	case mjOBJ_BODY:
	case mjOBJ_XBODY:
		return m->nbody;
	case mjOBJ_JOINT:
		return m->njnt;
	case mjOBJ_GEOM:
		return m->ngeom;
	case mjOBJ_SITE:
		return m->nsite;
	case mjOBJ_CAMERA:
		return m->ncam;
	case mjOBJ_LIGHT:
		return m->nlight;
	case mjOBJ_MESH:
		return m->nmesh;
	case mjOBJ_SKIN:
		return m->nskin;
	case mjOBJ_HFIELD:
		return m->nhfield;
	case mjOBJ_TEXTURE:
		return m->ntex;
	case mjOBJ_MATERIAL:
		return m->nmat;
	case mjOBJ_PAIR:
		return m->npair;
	case mjOBJ_EXCLUDE:
		return m->nexclude;
	case mjOBJ_EQUALITY:
		return m->neq;
	case mjOBJ_TENDON:
		return m->ntendon;
	case mjOBJ_ACTUATOR:
		return m->nu;
	case mjOBJ_SENSOR:
		return m->nsensor;
	case mjOBJ_NUMERIC:
		return m->nnumeric;
	case mjOBJ_TEXT:
		return m->ntext;
	case mjOBJ_TUPLE:
		return m->ntuple;
	case mjOBJ_KEY:
		return m->nkey;
	default:
		return -1;
	}
}

int
sim_name2id(const struct sim *s, int objtype, const char *name)
{
	if (sim_object_count(s->m, objtype) < 0)
		return -2;
	/* MuJoCo would match the first unnamed object. */
	if (*name == '\0')
		return -1;
	if (objtype == mjOBJ_XBODY)
		objtype = mjOBJ_BODY;
	return mj_name2id(s->m, objtype, name);
}

const char *
sim_id2name(const struct sim *s, int objtype, int id, int *bad_index)
{
	int n = sim_object_count(s->m, objtype);
	const char *name;

	*bad_index = 0;
	if (n < 0)
		return NULL;
	if (id < 0 || id >= n) {
		*bad_index = 1;
		return NULL;
	}
	if (objtype == mjOBJ_XBODY)
		objtype = mjOBJ_BODY;
	name = mj_id2name(s->m, objtype, id);
	return name != NULL ? name : "";
}
