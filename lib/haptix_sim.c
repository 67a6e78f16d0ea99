/*
 * Gazebo HAPTIX's World API (haptix/comm/haptix_sim.h) over the
 * extension API: a model is a top-level body with its subtree, its links
 * the bodies and its joints their hinge and slide joints.  Each call
 * reads the model's description, checks names and sizes, and maps onto
 * extension calls; docs/compat.md has the table.  Results go to
 * hx_last_result() as the hx_ calls' do.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "haptix/comm/haptix_sim.h"
#include "haptix_compat.h"
#include "haptix_sim_text.h"
#include "quat.h"

/* Equality types, as MuJoCo numbers them. */
#define WORLD_EQ_CONNECT 0
#define WORLD_EQ_WELD 1

/* What the second connect of a revolute constraint adds to its name. */
#define WORLD_AXIS_SUFFIX "#axis"

/* What one call knows of the world. */
struct world {
	const char *call;
	hxd_conn *c;
	hxd_info *info;
	int *root; /* nbody: each body's top-level ancestor; 0 the world */
};

/* Record a failure of the extension call that returned rc. */
static int
world_err(struct world *w, int rc)
{
	return compat_fail(rc, "%s: %s", w->call, hxd_error(w->c));
}

/* Connect on first use and read the model's description. */
static int
world_open(struct world *w, const char *call)
{
	int b, rc, nbody;

	memset(w, 0, sizeof(*w));
	w->call = call;
	if ((rc = compat_ensure_connected()) != HXD_OK)
		return rc;
	w->c = compat_connection();
	if ((rc = hxd_info_get(w->c, &w->info)) != HXD_OK)
		return world_err(w, rc);
	nbody = w->info->model.nbody;
	if ((w->root = calloc((size_t)nbody + 1, sizeof(int))) == NULL)
		return compat_fail(HXD_BADVALUE, "%s: out of memory", call);
	for (b = 1; b < nbody; b++) {
		int p = w->info->body_parentid[b];

		w->root[b] = p == 0 ? b : w->root[p];
	}
	return HXD_OK;
}

static void
world_close(struct world *w)
{
	free(w->info);
	free(w->root);
}

/* The top-level body named name: a model. */
static int
world_model(struct world *w, const char *name, int *out)
{
	int b;

	if (name == NULL)
		return compat_null(w->call, "the model's name");
	for (b = 1; b < w->info->model.nbody; b++)
		if (w->root[b] == b &&
		    strcmp(w->info->body_name[b], name) == 0) {
			*out = b;
			return HXD_OK;
		}
	return compat_fail(HXD_BADINDEX,
	    "%s: there is no model named '%s' (a model is a body of the "
	    "worldbody)",
	    w->call, name);
}

/* The links of model: how many bodies its subtree has. */
static int
world_nlinks(const struct world *w, int model)
{
	int b, n = 0;

	for (b = 1; b < w->info->model.nbody; b++)
		n += w->root[b] == model;
	return n;
}

/*
 * Link name of model: a body of its subtree; a model of one link also
 * answers to "link", Gazebo's usual name of it.
 */
static int
world_link(struct world *w, int model, const char *name, int *out)
{
	int b;

	if (name == NULL)
		return compat_null(w->call, "the link's name");
	for (b = 1; b < w->info->model.nbody; b++)
		if (w->root[b] == model &&
		    strcmp(w->info->body_name[b], name) == 0) {
			*out = b;
			return HXD_OK;
		}
	if (strcmp(name, "link") == 0 && world_nlinks(w, model) == 1) {
		*out = model;
		return HXD_OK;
	}
	return compat_fail(HXD_BADINDEX,
	    "%s: model '%s' has no link named '%s'", w->call,
	    w->info->body_name[model], name);
}

/* A name into a fixed field, or an error if it does not fit. */
static int
world_name(struct world *w, char *dst, const char *name)
{
	if (strlen(name) >= hxsMAXNAMESIZE)
		return compat_fail(HXD_BADSIZE,
		    "%s: the name '%s' is longer than hxsMAXNAMESIZE - 1 (%d)",
		    w->call, name, hxsMAXNAMESIZE - 1);
	snprintf(dst, hxsMAXNAMESIZE, "%s", name);
	return HXD_OK;
}

/*--------------------------------------------------- vectors, rotations */

static void
vec_out(hxsVector3 *v, const double d[3])
{
	v->x = (float)d[0], v->y = (float)d[1], v->z = (float)d[2];
}

static void
vec_in(double d[3], const hxsVector3 *v)
{
	d[0] = v->x, d[1] = v->y, d[2] = v->z;
}

/* v rotated by q, or by its inverse (inverse != 0). */
static void
quat_rotate(const double q[4], const double v[3], int inverse, double out[3])
{
	double p[4] = { 0, v[0], v[1], v[2] },
	       c[4] = { q[0], -q[1], -q[2], -q[3] }, t[4];

	if (inverse) {
		quat_mul(c, p, t);
		quat_mul(t, q, t);
	} else {
		quat_mul(q, p, t);
		quat_mul(t, c, t);
	}
	memcpy(out, t + 1, 3 * sizeof(double));
}

/* A rotation matrix (row-major) as a quaternion. */
static void
quat_from_mat(const double m[9], double q[4])
{
	double t = m[0] + m[4] + m[8], s, n;

	if (t > 0) {
		s = sqrt(t + 1) * 2;
		q[0] = s / 4, q[1] = (m[7] - m[5]) / s;
		q[2] = (m[2] - m[6]) / s, q[3] = (m[3] - m[1]) / s;
	} else if (m[0] > m[4] && m[0] > m[8]) {
		s = sqrt(1 + m[0] - m[4] - m[8]) * 2;
		q[0] = (m[7] - m[5]) / s, q[1] = s / 4;
		q[2] = (m[1] + m[3]) / s, q[3] = (m[2] + m[6]) / s;
	} else if (m[4] > m[8]) {
		s = sqrt(1 + m[4] - m[0] - m[8]) * 2;
		q[0] = (m[2] - m[6]) / s, q[1] = (m[1] + m[3]) / s;
		q[2] = s / 4, q[3] = (m[5] + m[7]) / s;
	} else {
		s = sqrt(1 + m[8] - m[0] - m[4]) * 2;
		q[0] = (m[3] - m[1]) / s, q[1] = (m[2] + m[6]) / s;
		q[2] = (m[5] + m[7]) / s, q[3] = s / 4;
	}
	n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
	for (int i = 0; i < 4; i++)
		q[i] /= n;
}

static void
transform_out(hxsTransform *t, const double pos[3], const double q[4])
{
	vec_out(&t->pos, pos);
	t->orient.w = (float)q[0], t->orient.x = (float)q[1];
	t->orient.y = (float)q[2], t->orient.z = (float)q[3];
}

/* A transform in, its quaternion normalized; -1 if it has none. */
static int
transform_in(const hxsTransform *t, double pos[3], double q[4])
{
	double n;

	vec_in(pos, &t->pos);
	q[0] = t->orient.w, q[1] = t->orient.x;
	q[2] = t->orient.y, q[3] = t->orient.z;
	n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
	if (!isfinite(n) || n == 0 || !isfinite(pos[0] + pos[1] + pos[2]))
		return -1;
	for (int i = 0; i < 4; i++)
		q[i] /= n;
	return 0;
}

/*------------------------------------------------------------- models */

/* What filling models needs beyond the description. */
struct world_state {
	hxd_dynamics *dyn;
	hxd_force *force;
	int *gravity_off, ngravity_off;
};

static int
world_state_get(struct world *w, struct world_state *st)
{
	int rc;

	memset(st, 0, sizeof(*st));
	if ((rc = hxd_get_dynamics(w->c, &st->dyn)) != HXD_OK ||
	    (rc = hxd_get_force(w->c, &st->force)) != HXD_OK ||
	    (rc = hxd_world_force(w->c, NULL, &st->gravity_off,
		 &st->ngravity_off, NULL)) != HXD_OK)
		return world_err(w, rc);
	return HXD_OK;
}

static void
world_state_free(struct world_state *st)
{
	free(st->dyn);
	free(st->force);
	free(st->gravity_off);
}

/* 1 if body's gravity is off. */
static int
world_gravity_is_off(const struct world_state *st, int body)
{
	for (int i = 0; i < st->ngravity_off; i++)
		if (st->gravity_off[i] == body)
			return 1;
	return 0;
}

/* Model model's links, joints and pose into out. */
static int
world_fill(
    struct world *w, const struct world_state *st, int model, hxsModel *out)
{
	const hxd_info *in = w->info;
	hxd_onebody mb, lb;
	hxd_joint j;
	double mq[4], p[3], q[4], conj[4], axis[3];
	int b, k, rc, n;

	memset(out, 0, sizeof(*out));
	if ((rc = world_name(w, out->name, in->body_name[model])) != HXD_OK)
		return rc;
	if ((rc = hxd_get_onebody(w->c, model, &mb)) != HXD_OK)
		return world_err(w, rc);
	transform_out(&out->transform, mb.pos, mb.quat);
	memcpy(mq, mb.quat, sizeof(mq));
	conj[0] = mq[0], conj[1] = -mq[1], conj[2] = -mq[2], conj[3] = -mq[3];
	if ((n = world_nlinks(w, model)) > hxsMAXLINKS)
		return compat_fail(HXD_BADSIZE,
		    "%s: model '%s' has %d links, more than hxsMAXLINKS (%d)",
		    w->call, out->name, n, hxsMAXLINKS);
	for (b = 1; b < in->model.nbody; b++) {
		hxsLink *l;

		if (w->root[b] != model)
			continue;
		l = &out->links[out->link_count++];
		if ((rc = world_name(w, l->name, in->body_name[b])) != HXD_OK)
			return rc;
		if ((rc = hxd_get_onebody(w->c, b, &lb)) != HXD_OK)
			return world_err(w, rc);
		/* Relative to the model's frame, as Gazebo's links are. */
		for (k = 0; k < 3; k++)
			p[k] = lb.pos[k] - mb.pos[k];
		quat_rotate(mq, p, 1, p);
		quat_mul(conj, lb.quat, q);
		transform_out(&l->transform, p, q);
		vec_out(&l->lin_vel, lb.linvel);
		vec_out(&l->ang_vel, lb.angvel);
		vec_out(&l->lin_acc, lb.linacc);
		vec_out(&l->ang_acc, lb.angacc);
	}
	for (k = 0, n = 0; k < in->model.njnt; k++)
		n += w->root[in->jnt_bodyid[k]] == model &&
		    (in->jnt_type[k] == HXD_JOINT_HINGE ||
			in->jnt_type[k] == HXD_JOINT_SLIDE);
	if (n > hxsMAXJOINTS)
		return compat_fail(HXD_BADSIZE,
		    "%s: model '%s' has %d joints, more than hxsMAXJOINTS (%d)",
		    w->call, out->name, n, hxsMAXJOINTS);
	for (k = 0; k < in->model.njnt; k++) {
		hxsJoint *o;
		int dof = in->jnt_dofadr[k];
		double cf;

		if (w->root[in->jnt_bodyid[k]] != model ||
		    (in->jnt_type[k] != HXD_JOINT_HINGE &&
			in->jnt_type[k] != HXD_JOINT_SLIDE))
			continue;
		if ((rc = hxd_get_joint(w->c, NULL, k, &j)) != HXD_OK)
			return world_err(w, rc);
		o = &out->joints[out->joint_count++];
		if ((rc = world_name(w, o->name, j.name)) != HXD_OK)
			return rc;
		o->pos = (float)j.qpos[0];
		o->vel = (float)j.qvel[0];
		o->acc = (float)st->dyn->qacc[dof];
		o->torque_motor = (float)st->force->actuator[dof];
		/* The constraints' force along the axis, in the link's frame. */
		cf = st->force->constraint[dof];
		for (int i = 0; i < 3; i++)
			axis[i] = j.axis[i] * cf;
		if (j.type == HXD_JOINT_HINGE)
			vec_out(&o->wrench_reactive.torque, axis);
		else
			vec_out(&o->wrench_reactive.force, axis);
	}
	out->gravity_mode = !world_gravity_is_off(st, model);
	return HXD_OK;
}

/* One model filled, for the calls that answer one. */
static int
world_fill_one(struct world *w, int model, hxsModel *out)
{
	struct world_state st;
	int rc;

	if ((rc = world_state_get(w, &st)) == HXD_OK)
		rc = world_fill(w, &st, model, out);
	world_state_free(&st);
	return rc;
}

/* The camera's transform. */
static int
world_camera(struct world *w, hxsTransform *out)
{
	double pos[3], q[4];
	int rc;

	if ((rc = hxd_get_camera(w->c, pos, q, NULL)) != HXD_OK)
		return world_err(w, rc);
	transform_out(out, pos, q);
	return HXD_OK;
}

/* The result of a call as hxResult, the world released. */
static hxResult
world_end(struct world *w, int rc)
{
	world_close(w);
	if (rc == HXD_OK)
		compat_done(HXD_OK);
	return COMPAT_HX(rc);
}

hxResult
hxs_sim_info(hxsSimInfo *out)
{
	struct world w;
	struct world_state st;
	int b, n = 0, rc;

	if (out == NULL)
		return COMPAT_HX(compat_null("hxs_sim_info", "_siminfo"));
	if ((rc = world_open(&w, "hxs_sim_info")) != HXD_OK)
		return world_end(&w, rc);
	for (b = 1; b < w.info->model.nbody; b++)
		n += w.root[b] == b;
	if (n > hxsMAXMODELS) {
		rc = compat_fail(HXD_BADSIZE,
		    "hxs_sim_info: the world has %d models, more than "
		    "hxsMAXMODELS (%d)",
		    n, hxsMAXMODELS);
		return world_end(&w, rc);
	}
	out->model_count = 0;
	if ((rc = world_state_get(&w, &st)) == HXD_OK)
		for (b = 1; b < w.info->model.nbody && rc == HXD_OK; b++)
			if (w.root[b] == b)
				rc = world_fill(&w, &st, b,
				    &out->models[out->model_count++]);
	world_state_free(&st);
	if (rc == HXD_OK)
		rc = world_camera(&w, &out->camera_transform);
	return world_end(&w, rc);
}

hxResult
hxs_camera_transform(hxsTransform *out)
{
	struct world w;
	int rc;

	if (out == NULL)
		return COMPAT_HX(
		    compat_null("hxs_camera_transform", "_transform"));
	if ((rc = compat_ensure_connected()) != HXD_OK)
		return hxERROR;
	memset(&w, 0, sizeof(w));
	w.call = "hxs_camera_transform";
	w.c = compat_connection();
	return world_end(&w, world_camera(&w, out));
}

hxResult
hxs_set_camera_transform(const hxsTransform *t)
{
	struct world w;
	double pos[3], q[4];
	int rc;

	if (t == NULL)
		return COMPAT_HX(
		    compat_null("hxs_set_camera_transform", "_transform"));
	if (transform_in(t, pos, q) != 0)
		return COMPAT_HX(compat_fail(HXD_BADVALUE,
		    "hxs_set_camera_transform: the transform is not finite "
		    "or its quaternion is zero"));
	if ((rc = compat_ensure_connected()) != HXD_OK)
		return hxERROR;
	memset(&w, 0, sizeof(w));
	w.call = "hxs_set_camera_transform";
	w.c = compat_connection();
	if ((rc = hxd_set_camera(w.c, pos, q)) != HXD_OK)
		rc = world_err(&w, rc);
	return world_end(&w, rc);
}

hxResult
hxs_contacts(const char *name, hxsContactPoints *out)
{
	struct world w;
	hxd_contacts *con = NULL;
	hxd_poses *bodies = NULL;
	double p[3], nrm[3], f[3], fw[3], q[4];
	int model, rc, i, k, b1, b2, link, other;
	double sign;

	if (out == NULL)
		return COMPAT_HX(compat_null("hxs_contacts", "_contact"));
	if ((rc = world_open(&w, "hxs_contacts")) != HXD_OK ||
	    (rc = world_model(&w, name, &model)) != HXD_OK)
		return world_end(&w, rc);
	if ((rc = hxd_get_contact(w.c, &con)) != HXD_OK ||
	    (rc = hxd_get_body(w.c, &bodies)) != HXD_OK) {
		rc = world_err(&w, rc);
		goto done;
	}
	out->contact_count = 0;
	for (i = 0; i < con->ncon && out->contact_count < hxsMAXCONTACT; i++) {
		hxsContactPoint *o;

		b1 = w.info->geom_bodyid[con->geom1[i]];
		b2 = w.info->geom_bodyid[con->geom2[i]];
		/* MuJoCo's force is geom 1's on geom 2, along the normal. */
		if (w.root[b1] == model)
			link = b1, other = b2, sign = -1;
		else if (w.root[b2] == model)
			link = b2, other = b1, sign = 1;
		else
			continue;
		o = &out->contacts[out->contact_count++];
		memset(o, 0, sizeof(*o));
		snprintf(
		    o->link1, sizeof(o->link1), "%s", w.info->body_name[link]);
		snprintf(o->link2, sizeof(o->link2), "%s",
		    other == 0 ? "world" : w.info->body_name[other]);
		/* Into link 1's frame. */
		quat_from_mat(bodies->mat + 9 * link, q);
		for (k = 0; k < 3; k++)
			p[k] = con->pos[3 * i + k] - bodies->pos[3 * link + k];
		quat_rotate(q, p, 1, p);
		for (k = 0; k < 3; k++) {
			nrm[k] = sign * con->frame[9 * i + k];
			/* frame's rows are the axes: f = frame^T force */
			fw[k] = sign *
			    (con->frame[9 * i + k] * con->force[3 * i] +
				con->frame[9 * i + 3 + k] *
				    con->force[3 * i + 1] +
				con->frame[9 * i + 6 + k] *
				    con->force[3 * i + 2]);
		}
		quat_rotate(q, nrm, 1, nrm);
		quat_rotate(q, fw, 1, f);
		vec_out(&o->point, p);
		vec_out(&o->normal, nrm);
		o->distance = (float)-con->dist[i];
		vec_out(&o->wrench.force, f);
	}
done:
	free(con);
	free(bodies);
	return world_end(&w, rc);
}

hxResult
hxs_model_joint_state(const char *name, hxsModel *out)
{
	struct world w;
	int model, rc;

	if (out == NULL)
		return COMPAT_HX(
		    compat_null("hxs_model_joint_state", "_state"));
	if ((rc = world_open(&w, "hxs_model_joint_state")) == HXD_OK &&
	    (rc = world_model(&w, name, &model)) == HXD_OK)
		rc = world_fill_one(&w, model, out);
	return world_end(&w, rc);
}

hxResult
hxs_set_model_joint_state(
    const char *name, const char *joint, float pos, float vel)
{
	struct world w;
	hxd_joint j;
	double qp = pos, qv = vel;
	int model, rc;

	if (joint == NULL)
		return COMPAT_HX(
		    compat_null("hxs_set_model_joint_state", "_joint"));
	if ((rc = world_open(&w, "hxs_set_model_joint_state")) != HXD_OK ||
	    (rc = world_model(&w, name, &model)) != HXD_OK)
		return world_end(&w, rc);
	if (!isfinite(pos) || !isfinite(vel))
		rc = compat_fail(HXD_BADVALUE,
		    "hxs_set_model_joint_state: position %g and velocity %g "
		    "must be finite",
		    (double)pos, (double)vel);
	else if (joint[0] == '\0' ||
	    hxd_get_joint(w.c, joint, -1, &j) != HXD_OK ||
	    w.root[j.body_id] != model)
		rc = compat_fail(HXD_BADINDEX,
		    "hxs_set_model_joint_state: model '%s' has no joint named "
		    "'%s'",
		    name, joint);
	else if (j.type != HXD_JOINT_HINGE && j.type != HXD_JOINT_SLIDE)
		rc = compat_fail(HXD_BADTYPE,
		    "hxs_set_model_joint_state: joint '%s' is a %s joint; only "
		    "hinge and slide joints have one position",
		    joint, j.type == HXD_JOINT_FREE ? "free" : "ball");
	else if ((rc = hxd_set_joint(w.c, joint, &qp, 1, &qv, 1)) != HXD_OK)
		rc = world_err(&w, rc);
	return world_end(&w, rc);
}

/* A model name the MJCF may hold as it is. */
static int
world_new_name(struct world *w, const char *name)
{
	if (name == NULL)
		return compat_null(w->call, "_name");
	if (name[0] == '\0' || strpbrk(name, "\"'<>&") != NULL)
		return compat_fail(HXD_BADVALUE,
		    "%s: the model name '%s' is empty or holds a quote, '<', "
		    "'>' or '&'",
		    w->call, name);
	if (strlen(name) >= hxsMAXNAMESIZE)
		return compat_fail(HXD_BADSIZE,
		    "%s: the name '%s' is longer than hxsMAXNAMESIZE - 1 (%d)",
		    w->call, name, hxsMAXNAMESIZE - 1);
	for (int b = 0; b < w->info->model.nbody; b++)
		if (strcmp(w->info->body_name[b], name) == 0)
			return compat_fail(HXD_BADVALUE,
			    "%s: the world has a body named '%s' already",
			    w->call, name);
	return HXD_OK;
}

/* Set the gravity of every link of model (2: off, 1: on). */
static int
world_gravity(struct world *w, int model, int gravity)
{
	hxd_wrench wr = { 0 };
	int b, rc;

	for (b = 1; b < w->info->model.nbody; b++) {
		if (w->root[b] != model)
			continue;
		wr.body = b;
		wr.gravity = gravity;
		if ((rc = hxd_world_force(w->c, &wr, NULL, NULL, NULL)) !=
		    HXD_OK)
			return world_err(w, rc);
	}
	return HXD_OK;
}

/* A floating model put at pos and q at rest. */
static int
world_still(struct world *w, int model, const double pos[3], const double q[4])
{
	hxd_onebody ob;
	int rc;

	if ((rc = hxd_get_onebody(w->c, model, &ob)) != HXD_OK)
		return world_err(w, rc);
	if (!ob.is_floating)
		return HXD_OK;
	memcpy(ob.pos, pos, sizeof(ob.pos));
	memcpy(ob.quat, q, sizeof(ob.quat));
	memset(ob.linvel, 0, sizeof(ob.linvel));
	memset(ob.angvel, 0, sizeof(ob.angvel));
	if ((rc = hxd_set_onebody(w->c, &ob,
		 HXD_ONEBODY_POS | HXD_ONEBODY_QUAT | HXD_ONEBODY_LINVEL |
		     HXD_ONEBODY_ANGVEL)) != HXD_OK)
		return world_err(w, rc);
	return HXD_OK;
}

/*
 * Attach needs the source's angle unit to be the world's: a document
 * without a <compiler> is given the world's (its quat and pos need none).
 */
static int
world_angle(struct world *w, char **doc)
{
	struct simtext_tag t;
	char *xml = NULL, err[128], line[64], *out;
	const char *angle = "degree";
	int rc;

	if (simtext_tag(*doc, "compiler", &t, err, sizeof(err)) == 0) {
		simtext_tag_free(&t);
		return HXD_OK;
	}
	if ((rc = hxd_get_model_xml(w->c, &xml, NULL, 0)) != HXD_OK)
		return world_err(w, rc);
	if (simtext_tag(xml, "compiler", &t, err, sizeof(err)) == 0) {
		if (simtext_attr(&t, "angle") != NULL &&
		    strcmp(simtext_attr(&t, "angle"), "radian") == 0)
			angle = "radian";
		simtext_tag_free(&t);
	}
	free(xml);
	if (simtext_tag(*doc, "mujoco", &t, err, sizeof(err)) != 0)
		return compat_fail(HXD_BADVALUE,
		    "%s: the text is neither MJCF (<mujoco>) nor SDF (<sdf>)",
		    w->call);
	snprintf(line, sizeof(line), "<compiler angle=\"%s\"/>", angle);
	if ((out = malloc(strlen(*doc) + strlen(line) + 1)) == NULL) {
		simtext_tag_free(&t);
		return compat_fail(HXD_BADVALUE, "%s: out of memory", w->call);
	}
	memcpy(out, *doc, (size_t)(t.end - *doc));
	strcpy(out + (t.end - *doc), line);
	strcat(out, t.end);
	simtext_tag_free(&t);
	free(*doc);
	*doc = out;
	return HXD_OK;
}

hxResult
hxs_add_model(const char *text, const char *name, float x, float y, float z,
    float roll, float pitch, float yaw, int gravity_mode, hxsModel *out)
{
	struct world w;
	hxd_edit_op op = { 0 };
	const char *attrs[2];
	double pos[3] = { x, y, z }, q[4], rpy[3] = { roll, pitch, yaw };
	char err[512], *mjcf = NULL, *placed;
	int rc, model;

	if (text == NULL)
		return COMPAT_HX(compat_null("hxs_add_model", "_sdf"));
	if ((rc = world_open(&w, "hxs_add_model")) != HXD_OK ||
	    (rc = world_new_name(&w, name)) != HXD_OK)
		return world_end(&w, rc);
	if (!isfinite(pos[0] + pos[1] + pos[2] + rpy[0] + rpy[1] + rpy[2])) {
		rc = compat_fail(
		    HXD_BADVALUE, "hxs_add_model: the pose must be finite");
		return world_end(&w, rc);
	}
	/* Gazebo's roll, pitch and yaw: about the fixed x, y, z axes. */
	{
		double qx[4] = { cos(rpy[0] / 2), sin(rpy[0] / 2), 0, 0 };
		double qy[4] = { cos(rpy[1] / 2), 0, sin(rpy[1] / 2), 0 };
		double qz[4] = { cos(rpy[2] / 2), 0, 0, sin(rpy[2] / 2) };

		quat_mul(qz, qy, q);
		quat_mul(q, qx, q);
	}
	if (simtext_is_sdf(text) &&
	    (mjcf = simtext_sdf_model(text, name, err, sizeof(err))) == NULL) {
		rc = compat_fail(HXD_BADVALUE, "hxs_add_model: %s", err);
		return world_end(&w, rc);
	}
	placed = simtext_mjcf_body(
	    mjcf != NULL ? mjcf : text, name, pos, q, err, sizeof(err));
	free(mjcf);
	if (placed != NULL && (rc = world_angle(&w, &placed)) != HXD_OK) {
		free(placed);
		return world_end(&w, rc);
	}
	if (placed == NULL) {
		rc = compat_fail(HXD_BADVALUE, "hxs_add_model: %s", err);
		return world_end(&w, rc);
	}
	/* The body, named and placed, with what it uses, by attach. */
	op.kind = HXD_EDIT_ATTACH;
	op.type = "body";
	op.name = name;
	op.parent_type = "worldbody";
	op.parent_name = "";
	attrs[0] = "xml";
	attrs[1] = placed;
	op.attrs = attrs;
	op.nattrs = 1;
	rc = hxd_edit_model(w.c, &op, 1, NULL, NULL);
	free(placed);
	if (rc != HXD_OK) {
		rc = world_err(&w, rc);
		return world_end(&w, rc);
	}
	world_close(&w);
	if ((rc = world_open(&w, "hxs_add_model")) != HXD_OK ||
	    (rc = world_model(&w, name, &model)) != HXD_OK)
		return world_end(&w, rc);
	if (!gravity_mode && (rc = world_gravity(&w, model, 2)) != HXD_OK)
		return world_end(&w, rc);
	/* It fell while its gravity went off: put it back, still. */
	if (!gravity_mode && (rc = world_still(&w, model, pos, q)) != HXD_OK)
		return world_end(&w, rc);
	if (out != NULL)
		rc = world_fill_one(&w, model, out);
	return world_end(&w, rc);
}

hxResult
hxs_remove_model(const char *name)
{
	struct world w;
	hxd_edit_op op = { 0 };
	int rc, model;

	if ((rc = world_open(&w, "hxs_remove_model")) != HXD_OK ||
	    (rc = world_model(&w, name, &model)) != HXD_OK)
		return world_end(&w, rc);
	op.kind = HXD_EDIT_REMOVE;
	op.type = "body";
	op.name = name;
	if ((rc = hxd_edit_model(w.c, &op, 1, NULL, NULL)) != HXD_OK)
		rc = world_err(&w, rc);
	return world_end(&w, rc);
}

/* The weld equality that holds model to a mocap body, or -1. */
static int
world_mocap_weld(const struct world *w, int model, int *mocap_body)
{
	const hxd_info *in = w->info;

	for (int e = 0; e < in->model.neq; e++) {
		int a = in->eq_obj1id[e], b = in->eq_obj2id[e];

		if (in->eq_type[e] != WORLD_EQ_WELD)
			continue;
		if (a == model && b > 0 && in->body_mocapid[b] >= 0)
			return *mocap_body = b, e;
		if (b == model && a > 0 && in->body_mocapid[a] >= 0)
			return *mocap_body = a, e;
	}
	return -1;
}

/* Move a mocap body to pos and q. */
static int
world_set_mocap(
    struct world *w, int body, const double pos[3], const double q[4])
{
	hxd_mocap *m = NULL;
	int rc, i = w->info->body_mocapid[body];

	if ((rc = hxd_get_mocap(w->c, &m)) == HXD_OK) {
		memcpy(m->pos + 3 * i, pos, 3 * sizeof(double));
		memcpy(m->quat + 4 * i, q, 4 * sizeof(double));
		rc = hxd_set_mocap(w->c, m);
	}
	free(m);
	return rc != HXD_OK ? world_err(w, rc) : HXD_OK;
}

/* Move a body of the worldbody without joints: an edit of its pose. */
static int
world_move_fixed(
    struct world *w, int model, const double pos[3], const double q[4])
{
	static const char *const orient[] = { "euler", "axisangle", "xyaxes",
		"zaxis" };
	hxd_edit_op ops[5];
	struct simtext_tag t;
	const char *name = w->info->body_name[model], *at, *attrs[4];
	char *xml = NULL, p[128], qs[160], err[256];
	int rc, n = 0;

	if ((rc = hxd_get_model_xml(w->c, &xml, NULL, 0)) != HXD_OK)
		return world_err(w, rc);
	/* Its orientation in another form would clash with quat. */
	for (at = xml; simtext_tag(at, "body", &t, err, sizeof(err)) == 0;
	     at = t.end) {
		const char *bn = simtext_attr(&t, "name");

		if (bn != NULL && strcmp(bn, name) == 0) {
			for (size_t k = 0; k < 4; k++)
				if (simtext_attr(&t, orient[k]) != NULL) {
					memset(&ops[n], 0, sizeof(ops[n]));
					ops[n].kind = HXD_EDIT_UNSET;
					ops[n].type = "body";
					ops[n].name = name;
					ops[n].attrs = &orient[k];
					ops[n++].nattrs = 1;
				}
			simtext_tag_free(&t);
			break;
		}
		simtext_tag_free(&t);
	}
	free(xml);
	snprintf(p, sizeof(p), "%.9g %.9g %.9g", pos[0], pos[1], pos[2]);
	snprintf(qs, sizeof(qs), "%.9g %.9g %.9g %.9g", q[0], q[1], q[2], q[3]);
	attrs[0] = "pos", attrs[1] = p, attrs[2] = "quat", attrs[3] = qs;
	memset(&ops[n], 0, sizeof(ops[n]));
	ops[n].kind = HXD_EDIT_SET;
	ops[n].type = "body";
	ops[n].name = name;
	ops[n].attrs = attrs;
	ops[n++].nattrs = 2;
	if ((rc = hxd_edit_model(w->c, ops, n, NULL, NULL)) != HXD_OK)
		return world_err(w, rc);
	return HXD_OK;
}

hxResult
hxs_set_model_transform(const char *name, const hxsTransform *t)
{
	struct world w;
	hxd_onebody ob;
	double pos[3], q[4], mp[3], mq[4], rel[3], rq[4], conj[4];
	int rc, model, mocap = -1, k, njnt = 0;

	if (t == NULL)
		return COMPAT_HX(
		    compat_null("hxs_set_model_transform", "_transform"));
	if ((rc = world_open(&w, "hxs_set_model_transform")) != HXD_OK ||
	    (rc = world_model(&w, name, &model)) != HXD_OK)
		return world_end(&w, rc);
	if (transform_in(t, pos, q) != 0) {
		rc = compat_fail(HXD_BADVALUE,
		    "hxs_set_model_transform: the transform is not finite or "
		    "its quaternion is zero");
		return world_end(&w, rc);
	}
	for (k = 0; k < w.info->model.njnt; k++)
		njnt += w.info->jnt_bodyid[k] == model;
	if ((rc = hxd_get_onebody(w.c, model, &ob)) != HXD_OK) {
		rc = world_err(&w, rc);
		return world_end(&w, rc);
	}
	if (w.info->body_mocapid[model] >= 0)
		rc = world_set_mocap(&w, model, pos, q);
	else if (ob.is_floating) {
		/* A model welded to a mocap body (the hand) moves it too. */
		if (world_mocap_weld(&w, model, &mocap) >= 0) {
			hxd_onebody m;

			if ((rc = hxd_get_onebody(w.c, mocap, &m)) != HXD_OK) {
				rc = world_err(&w, rc);
				return world_end(&w, rc);
			}
			conj[0] = ob.quat[0], conj[1] = -ob.quat[1];
			conj[2] = -ob.quat[2], conj[3] = -ob.quat[3];
			for (k = 0; k < 3; k++)
				rel[k] = m.pos[k] - ob.pos[k];
			quat_rotate(ob.quat, rel, 1, rel);
			quat_mul(conj, m.quat, rq);
			quat_rotate(q, rel, 0, mp);
			for (k = 0; k < 3; k++)
				mp[k] += pos[k];
			quat_mul(q, rq, mq);
			if ((rc = world_set_mocap(&w, mocap, mp, mq)) != HXD_OK)
				return world_end(&w, rc);
		}
		memcpy(ob.pos, pos, sizeof(pos));
		memcpy(ob.quat, q, sizeof(q));
		if ((rc = hxd_set_onebody(w.c, &ob,
			 HXD_ONEBODY_POS | HXD_ONEBODY_QUAT)) != HXD_OK)
			rc = world_err(&w, rc);
	} else if (njnt == 0)
		rc = world_move_fixed(&w, model, pos, q);
	else
		rc = compat_fail(HXD_BADTYPE,
		    "hxs_set_model_transform: model '%s' is jointed to the "
		    "world: only free, mocap and fixed models are moved",
		    name);
	return world_end(&w, rc);
}

hxResult
hxs_model_transform(const char *name, hxsTransform *out)
{
	struct world w;
	hxd_onebody ob;
	int rc, model;

	if (out == NULL)
		return COMPAT_HX(
		    compat_null("hxs_model_transform", "_transform"));
	if ((rc = world_open(&w, "hxs_model_transform")) == HXD_OK &&
	    (rc = world_model(&w, name, &model)) == HXD_OK) {
		if ((rc = hxd_get_onebody(w.c, model, &ob)) != HXD_OK)
			rc = world_err(&w, rc);
		else
			transform_out(out, ob.pos, ob.quat);
	}
	return world_end(&w, rc);
}

hxResult
hxs_model_gravity_mode(const char *name, int *out)
{
	struct world w;
	int *off = NULL, n = 0, rc, model;

	if (out == NULL)
		return COMPAT_HX(
		    compat_null("hxs_model_gravity_mode", "_gravity_mode"));
	if ((rc = world_open(&w, "hxs_model_gravity_mode")) == HXD_OK &&
	    (rc = world_model(&w, name, &model)) == HXD_OK) {
		if ((rc = hxd_world_force(w.c, NULL, &off, &n, NULL)) != HXD_OK)
			rc = world_err(&w, rc);
		else {
			*out = 1;
			for (int i = 0; i < n; i++)
				if (off[i] == model)
					*out = 0;
		}
	}
	free(off);
	return world_end(&w, rc);
}

hxResult
hxs_set_model_gravity_mode(const char *name, const int mode)
{
	struct world w;
	int rc, model;

	if ((rc = world_open(&w, "hxs_set_model_gravity_mode")) == HXD_OK &&
	    (rc = world_model(&w, name, &model)) == HXD_OK) {
		if (mode != 0 && mode != 1)
			rc = compat_fail(HXD_BADVALUE,
			    "hxs_set_model_gravity_mode: the mode is %d, not 0 "
			    "(off) or 1 (on)",
			    mode);
		else
			rc = world_gravity(&w, model, mode ? 1 : 2);
	}
	return world_end(&w, rc);
}

/* The model's first link's frame and its centre of mass's offset. */
static int
world_motion(struct world *w, int model, hxd_onebody *ob, double r[3])
{
	hxd_array *xipos = NULL;
	int rc;

	if ((rc = hxd_get_onebody(w->c, model, ob)) != HXD_OK ||
	    (rc = hxd_get_array(w->c, "xipos", &xipos)) != HXD_OK) {
		free(xipos);
		return world_err(w, rc);
	}
	for (int k = 0; k < 3; k++)
		r[k] = xipos->values[3 * model + k] - ob->pos[k];
	free(xipos);
	return HXD_OK;
}

/* a x b. */
static void
cross(const double a[3], const double b[3], double out[3])
{
	out[0] = a[1] * b[2] - a[2] * b[1];
	out[1] = a[2] * b[0] - a[0] * b[2];
	out[2] = a[0] * b[1] - a[1] * b[0];
}

hxResult
hxs_linear_velocity(const char *name, hxsVector3 *out)
{
	struct world w;
	hxd_onebody ob;
	double r[3], v[3];
	int rc, model;

	if (out == NULL)
		return COMPAT_HX(
		    compat_null("hxs_linear_velocity", "_velocity"));
	if ((rc = world_open(&w, "hxs_linear_velocity")) == HXD_OK &&
	    (rc = world_model(&w, name, &model)) == HXD_OK &&
	    (rc = world_motion(&w, model, &ob, r)) == HXD_OK) {
		/* The centre of mass's: the frame's plus w x r. */
		cross(ob.angvel, r, v);
		for (int k = 0; k < 3; k++)
			v[k] += ob.linvel[k];
		vec_out(out, v);
	}
	return world_end(&w, rc);
}

/* Set the floating model's velocity (fields: linear or angular). */
static int
world_set_velocity(
    struct world *w, const char *name, const hxsVector3 *in, unsigned fields)
{
	hxd_onebody ob;
	double r[3], v[3], wr[3];
	int rc, model;

	if ((rc = world_model(w, name, &model)) != HXD_OK ||
	    (rc = world_motion(w, model, &ob, r)) != HXD_OK)
		return rc;
	vec_in(v, in);
	if (!isfinite(v[0] + v[1] + v[2]))
		return compat_fail(
		    HXD_BADVALUE, "%s: the velocity must be finite", w->call);
	if (!ob.is_floating)
		return compat_fail(HXD_BADTYPE,
		    "%s: model '%s' is not free to move (no free joint)",
		    w->call, name);
	if (fields == HXD_ONEBODY_LINVEL) {
		/* The frame's velocity that gives its centre of mass v. */
		cross(ob.angvel, r, wr);
		for (int k = 0; k < 3; k++)
			ob.linvel[k] = v[k] - wr[k];
	} else
		memcpy(ob.angvel, v, sizeof(v));
	if ((rc = hxd_set_onebody(w->c, &ob, fields)) != HXD_OK)
		return world_err(w, rc);
	return HXD_OK;
}

hxResult
hxs_set_linear_velocity(const char *name, const hxsVector3 *v)
{
	struct world w;
	int rc;

	if (v == NULL)
		return COMPAT_HX(
		    compat_null("hxs_set_linear_velocity", "_velocity"));
	if ((rc = world_open(&w, "hxs_set_linear_velocity")) == HXD_OK)
		rc = world_set_velocity(&w, name, v, HXD_ONEBODY_LINVEL);
	return world_end(&w, rc);
}

hxResult
hxs_angular_velocity(const char *name, hxsVector3 *out)
{
	struct world w;
	hxd_onebody ob;
	int rc, model;

	if (out == NULL)
		return COMPAT_HX(
		    compat_null("hxs_angular_velocity", "_ang_vel"));
	if ((rc = world_open(&w, "hxs_angular_velocity")) == HXD_OK &&
	    (rc = world_model(&w, name, &model)) == HXD_OK) {
		if ((rc = hxd_get_onebody(w.c, model, &ob)) != HXD_OK)
			rc = world_err(&w, rc);
		else
			vec_out(out, ob.angvel);
	}
	return world_end(&w, rc);
}

hxResult
hxs_set_angular_velocity(const char *name, const hxsVector3 *v)
{
	struct world w;
	int rc;

	if (v == NULL)
		return COMPAT_HX(
		    compat_null("hxs_set_angular_velocity", "_ang_vel"));
	if ((rc = world_open(&w, "hxs_set_angular_velocity")) == HXD_OK)
		rc = world_set_velocity(&w, name, v, HXD_ONEBODY_ANGVEL);
	return world_end(&w, rc);
}

/* Put force f and torque t on a link for duration seconds. */
static hxResult
world_push(const char *call, const char *model_name, const char *link_name,
    const double f[3], const double t[3], float duration)
{
	struct world w;
	hxd_wrench wr = { 0 };
	int rc, model, link = 0;

	if ((rc = world_open(&w, call)) != HXD_OK ||
	    (rc = world_model(&w, model_name, &model)) != HXD_OK ||
	    (rc = world_link(&w, model, link_name, &link)) != HXD_OK)
		return world_end(&w, rc);
	if (!isfinite(f[0] + f[1] + f[2] + t[0] + t[1] + t[2]) ||
	    !isfinite(duration) || duration < 0) {
		rc = compat_fail(HXD_BADVALUE,
		    "%s: the force and torque must be finite and the duration "
		    "(%g) a time >= 0 (0: until a reset)",
		    call, (double)duration);
		return world_end(&w, rc);
	}
	wr.body = link;
	wr.apply = 1;
	memcpy(wr.force, f, sizeof(wr.force));
	memcpy(wr.torque, t, sizeof(wr.torque));
	wr.duration = duration;
	if ((rc = hxd_world_force(w.c, &wr, NULL, NULL, NULL)) != HXD_OK)
		rc = world_err(&w, rc);
	return world_end(&w, rc);
}

hxResult
hxs_apply_force(const char *model, const char *link, const hxsVector3 *force,
    const float duration)
{
	double f[3], t[3] = { 0 };

	if (force == NULL)
		return COMPAT_HX(compat_null("hxs_apply_force", "_force"));
	vec_in(f, force);
	return world_push("hxs_apply_force", model, link, f, t, duration);
}

hxResult
hxs_apply_torque(const char *model, const char *link, const hxsVector3 *torque,
    const float duration)
{
	double f[3] = { 0 }, t[3];

	if (torque == NULL)
		return COMPAT_HX(compat_null("hxs_apply_torque", "_torque"));
	vec_in(t, torque);
	return world_push("hxs_apply_torque", model, link, f, t, duration);
}

hxResult
hxs_apply_wrench(const char *model, const char *link, const hxsWrench *wrench,
    const float duration)
{
	double f[3], t[3];

	if (wrench == NULL)
		return COMPAT_HX(compat_null("hxs_apply_wrench", "_wrench"));
	vec_in(f, &wrench->force);
	vec_in(t, &wrench->torque);
	return world_push("hxs_apply_wrench", model, link, f, t, duration);
}

hxResult
hxs_reset(int reset_limb)
{
	struct world w;
	hxd_state *before = NULL, *after = NULL;
	hxd_mocap *mocap = NULL;
	int rc, j, k, *limb = NULL;

	if ((rc = world_open(&w, "hxs_reset")) != HXD_OK)
		return world_end(&w, rc);
	if (!reset_limb) {
		/* The limb: the models whose joints the actuators move. */
		if ((limb = calloc((size_t)w.info->model.nbody, sizeof(int))) ==
		    NULL) {
			rc = compat_fail(
			    HXD_BADVALUE, "hxs_reset: out of memory");
			return world_end(&w, rc);
		}
		for (k = 0; k < w.info->model.nu; k++)
			if (w.info->actuator_trntype[k] == 0 &&
			    (j = w.info->actuator_trnid[2 * k]) >= 0)
				limb[w.root[w.info->jnt_bodyid[j]]] = 1;
		if ((rc = hxd_get_state(w.c, &before)) != HXD_OK ||
		    (rc = hxd_get_mocap(w.c, &mocap)) != HXD_OK)
			goto fail;
	}
	if ((rc = hxd_reset_keep(w.c, -1, NULL)) != HXD_OK)
		goto fail;
	if (!reset_limb) {
		if ((rc = hxd_get_state(w.c, &after)) != HXD_OK)
			goto fail;
		for (j = 0; j < w.info->model.njnt; j++) {
			int a = w.info->jnt_qposadr[j];
			int n = j + 1 < w.info->model.njnt ?
			    w.info->jnt_qposadr[j + 1] - a :
			    w.info->model.nq - a;

			if (limb[w.root[w.info->jnt_bodyid[j]]])
				memcpy(after->qpos + a, before->qpos + a,
				    (size_t)n * sizeof(double));
		}
		if ((rc = hxd_set_state(w.c, after)) != HXD_OK ||
		    (w.info->model.nmocap > 0 &&
			(rc = hxd_set_mocap(w.c, mocap)) != HXD_OK))
			goto fail;
	}
	rc = HXD_OK;
	goto done;
fail:
	rc = world_err(&w, rc);
done:
	free(limb);
	free(before);
	free(after);
	free(mocap);
	return world_end(&w, rc);
}

hxResult
hxs_start_logging(const char *dirname)
{
	struct world w;
	int rc;

	(void)dirname; /* the server writes into its state directory */
	if ((rc = compat_ensure_connected()) != HXD_OK)
		return hxERROR;
	memset(&w, 0, sizeof(w));
	w.call = "hxs_start_logging";
	w.c = compat_connection();
	if ((rc = hxd_record_start(w.c, 0, 0, 0, NULL)) != HXD_OK)
		rc = world_err(&w, rc);
	return world_end(&w, rc);
}

hxResult
hxs_is_logging(int *out)
{
	struct world w;
	hxd_status *st;
	int rc;

	if (out == NULL)
		return COMPAT_HX(compat_null("hxs_is_logging", "_result"));
	if ((rc = compat_ensure_connected()) != HXD_OK)
		return hxERROR;
	memset(&w, 0, sizeof(w));
	w.call = "hxs_is_logging";
	w.c = compat_connection();
	if ((st = malloc(sizeof(*st))) == NULL)
		rc = compat_fail(HXD_BADVALUE, "hxs_is_logging: out of memory");
	else if ((rc = hxd_status_get(w.c, st)) != HXD_OK)
		rc = world_err(&w, rc);
	else
		*out = st->recording.active != 0;
	free(st);
	return world_end(&w, rc);
}

hxResult
hxs_stop_logging(void)
{
	struct world w;
	int rc;

	if ((rc = compat_ensure_connected()) != HXD_OK)
		return hxERROR;
	memset(&w, 0, sizeof(w));
	w.call = "hxs_stop_logging";
	w.c = compat_connection();
	if ((rc = hxd_record_stop(w.c, NULL)) != HXD_OK)
		rc = world_err(&w, rc);
	return world_end(&w, rc);
}

hxResult
hxs_set_model_color(const char *name, const hxsColor *color)
{
	struct world w;
	double rgba[4];
	int rc, model, g, n = 0;

	if (color == NULL)
		return COMPAT_HX(compat_null("hxs_set_model_color", "_color"));
	rgba[0] = color->r, rgba[1] = color->g;
	rgba[2] = color->b, rgba[3] = color->alpha;
	if ((rc = world_open(&w, "hxs_set_model_color")) != HXD_OK ||
	    (rc = world_model(&w, name, &model)) != HXD_OK)
		return world_end(&w, rc);
	for (int k = 0; k < 4; k++)
		if (!(rgba[k] >= 0 && rgba[k] <= 1)) {
			rc = compat_fail(HXD_BADVALUE,
			    "hxs_set_model_color: r, g, b and alpha must be "
			    "between 0 and 1");
			return world_end(&w, rc);
		}
	for (g = 0; g < w.info->model.ngeom && rc == HXD_OK; g++)
		if (w.root[w.info->geom_bodyid[g]] == model) {
			n++;
			if ((rc = hxd_set_rgba(w.c, HXD_OBJ_GEOM, g, rgba)) !=
			    HXD_OK)
				rc = world_err(&w, rc);
		}
	if (rc == HXD_OK && n == 0)
		rc = compat_fail(HXD_BADTYPE,
		    "hxs_set_model_color: model '%s' has no geom to colour",
		    name);
	return world_end(&w, rc);
}

hxResult
hxs_model_color(const char *name, hxsColor *out)
{
	struct world w;
	hxd_array *matid = NULL;
	double rgba[4];
	int rc, model, g;

	if (out == NULL)
		return COMPAT_HX(compat_null("hxs_model_color", "_color"));
	if ((rc = world_open(&w, "hxs_model_color")) != HXD_OK ||
	    (rc = world_model(&w, name, &model)) != HXD_OK)
		return world_end(&w, rc);
	for (g = 0; g < w.info->model.ngeom; g++)
		if (w.root[w.info->geom_bodyid[g]] == model)
			break;
	if (g == w.info->model.ngeom) {
		rc = compat_fail(HXD_BADTYPE,
		    "hxs_model_color: model '%s' has no geom", name);
		return world_end(&w, rc);
	}
	/* Its first geom's colour as drawn: a material's unless set. */
	if ((rc = hxd_get_rgba(w.c, HXD_OBJ_GEOM, g, rgba)) != HXD_OK ||
	    (rc = hxd_get_array(w.c, "geom_matid", &matid)) != HXD_OK) {
		rc = world_err(&w, rc);
		goto done;
	}
	if (rgba[0] == 0.5 && rgba[1] == 0.5 && rgba[2] == 0.5 &&
	    rgba[3] == 1 && matid->values[g] >= 0 &&
	    (rc = hxd_get_rgba(w.c, HXD_OBJ_MATERIAL, (int)matid->values[g],
		 rgba)) != HXD_OK) {
		rc = world_err(&w, rc);
		goto done;
	}
	out->r = (float)rgba[0], out->g = (float)rgba[1];
	out->b = (float)rgba[2], out->alpha = (float)rgba[3];
done:
	free(matid);
	return world_end(&w, rc);
}

hxResult
hxs_set_model_collide_mode(const char *name, const hxsCollideMode *mode)
{
	struct world w;
	int rc, model;

	if (mode == NULL)
		return COMPAT_HX(
		    compat_null("hxs_set_model_collide_mode", "_collide_mode"));
	if ((rc = world_open(&w, "hxs_set_model_collide_mode")) == HXD_OK &&
	    (rc = world_model(&w, name, &model)) == HXD_OK) {
		if ((int)*mode < hxsNOCOLLIDE || (int)*mode > hxsCOLLIDE)
			rc = compat_fail(HXD_BADVALUE,
			    "hxs_set_model_collide_mode: %d is not an "
			    "hxsCollideMode",
			    (int)*mode);
		else if ((rc = hxd_collide_mode(
			      w.c, model, (int)*mode, NULL)) != HXD_OK)
			rc = world_err(&w, rc);
	}
	return world_end(&w, rc);
}

hxResult
hxs_model_collide_mode(const char *name, hxsCollideMode *out)
{
	struct world w;
	int rc, model, mode;

	if (out == NULL)
		return COMPAT_HX(
		    compat_null("hxs_model_collide_mode", "_collide_mode"));
	if ((rc = world_open(&w, "hxs_model_collide_mode")) == HXD_OK &&
	    (rc = world_model(&w, name, &model)) == HXD_OK) {
		if ((rc = hxd_collide_mode(w.c, model, -1, &mode)) != HXD_OK)
			rc = world_err(&w, rc);
		else
			*out = (hxsCollideMode)mode;
	}
	return world_end(&w, rc);
}

/*
 * The text of the first element elem ("<child", "<xyz") at or after
 * text, blanks trimmed, into out: 0, or -1 when there is none.
 */
static int
world_sdf_value(const char *text, const char *elem, char *out, size_t len)
{
	const char *s, *e;
	size_t n;

	if ((s = strstr(text, elem)) == NULL || (s = strchr(s, '>')) == NULL ||
	    (e = strchr(++s, '<')) == NULL)
		return -1;
	while (s < e && strchr(" \t\r\n", *s) != NULL)
		s++;
	while (e > s && strchr(" \t\r\n", e[-1]) != NULL)
		e--;
	n = (size_t)(e - s);
	if (n >= len)
		n = len - 1;
	memcpy(out, s, n);
	out[n] = '\0';
	return 0;
}

/*
 * A body named by an SDF joint's parent or child: "world", a model,
 * model::link (a model of one link answers to "link", as elsewhere) or
 * a body's own name.
 */
static int
world_sdf_body(
    struct world *w, const char *text, const char *elem, char *out, size_t len)
{
	char name[256], *link;
	int b, model, rc;

	if (world_sdf_value(text, elem, name, sizeof(name)) != 0)
		return compat_fail(
		    HXD_BADVALUE, "%s: the SDF joint has no %s", w->call, elem);
	if (strcmp(name, "world") == 0) {
		snprintf(out, len, "world");
		return HXD_OK;
	}
	if ((link = strstr(name, "::")) != NULL) {
		*link = '\0';
		if ((rc = world_model(w, name, &model)) != HXD_OK ||
		    (rc = world_link(w, model, link + 2, &b)) != HXD_OK)
			return rc;
		snprintf(out, len, "%s", w->info->body_name[b]);
		return HXD_OK;
	}
	for (b = 1; b < w->info->model.nbody; b++)
		if (strcmp(w->info->body_name[b], name) == 0) {
			snprintf(out, len, "%s", name);
			return HXD_OK;
		}
	return compat_fail(HXD_BADINDEX,
	    "%s: the world has no model or link '%s'", w->call, name);
}

/*
 * The unit axis of an SDF revolute joint, in the child's frame (SDF's
 * default; <axis><xyz>, 0 0 1 when absent), as "x y z".
 */
static int
world_sdf_axis(struct world *w, const char *text, char *out, size_t len)
{
	const char *axis = strstr(text, "<axis");
	double v[3] = { 0, 0, 1 }, n;
	char xyz[256], flag[16], *end;

	if (axis != NULL &&
	    world_sdf_value(
		axis, "<use_parent_model_frame", flag, sizeof(flag)) == 0 &&
	    (strcmp(flag, "true") == 0 || strcmp(flag, "1") == 0))
		return compat_fail(HXD_BADVALUE,
		    "%s: a revolute joint's axis is taken in the child's "
		    "frame; use_parent_model_frame is not supported",
		    w->call);
	if (axis != NULL &&
	    world_sdf_value(axis, "<xyz", xyz, sizeof(xyz)) == 0) {
		const char *at = xyz;
		int k;

		for (k = 0; k < 3; k++) {
			v[k] = strtod(at, &end);
			if (end == at)
				break;
			at = end;
		}
		while (*at != '\0' && strchr(" \t\r\n", *at) != NULL)
			at++;
		if (k < 3 || *at != '\0')
			return compat_fail(HXD_BADVALUE,
			    "%s: the revolute joint's axis '%s' is not three "
			    "numbers",
			    w->call, xyz);
	}
	n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
	if (!isfinite(n) || n < 1e-9)
		return compat_fail(HXD_BADVALUE,
		    "%s: the revolute joint's axis must be finite and not zero",
		    w->call);
	snprintf(out, len, "%.9g %.9g %.9g", v[0] / n, v[1] / n, v[2] / n);
	return HXD_OK;
}

/*
 * A constraint as one or two edit operations adding equalities: what
 * the text says, where the names and attributes are kept.
 */
struct world_constraint {
	struct simtext_tag tag; /* the <weld>, <connect> or <joint> */
	hxd_edit_op op[2];
	const char *attrs[2][2 * SIMTEXT_ATTRS];
	char body1[256], body2[256], axis[128], axis_name[512];
	int nops;
};

/*
 * The name of the second connect of revolute constraint name: a suffix
 * no constraint added by name alone ends with (hxs_add_constraint
 * refuses it), so the pair is found again by name.
 */
static int
world_axis_name(struct world *w, const char *name, char *out, size_t len)
{
	if ((size_t)snprintf(out, len, "%s" WORLD_AXIS_SUFFIX, name) >= len)
		return compat_fail(HXD_BADSIZE,
		    "%s: the constraint's name is too long", w->call);
	return HXD_OK;
}

/* The equality named name, or -1. */
static int
world_equality(const struct world *w, const char *name)
{
	for (int e = 0; e < w->info->model.neq; e++)
		if (strcmp(w->info->eq_name[e], name) == 0)
			return e;
	return -1;
}

/*
 * An SDF joint as equalities: fixed is a weld, ball a connect anchored
 * at the child's origin, and revolute two connects, at the child's
 * origin and one unit along the axis (both in the child's frame, which
 * is body1's): together they leave only the turn about the axis, the
 * five degrees of freedom a hinge removes.  Other types have no
 * equality in MuJoCo 2.2.
 */
static int
world_sdf_joint(struct world *w, const char *text, struct world_constraint *k)
{
	const char *type = simtext_attr(&k->tag, "type"), **a = k->attrs[0];
	int rc, n = 0;

	if (type == NULL ||
	    (strcmp(type, "fixed") != 0 && strcmp(type, "ball") != 0 &&
		strcmp(type, "revolute") != 0))
		return compat_fail(HXD_BADVALUE,
		    "%s: an SDF joint of type '%s' has no MuJoCo equality; "
		    "fixed (weld), ball (connect) and revolute (two "
		    "connects) do",
		    w->call, type != NULL ? type : "(none)");
	if ((rc = world_sdf_body(
		 w, text, "<child", k->body1, sizeof(k->body1))) != HXD_OK ||
	    (rc = world_sdf_body(
		 w, text, "<parent", k->body2, sizeof(k->body2))) != HXD_OK)
		return rc;
	k->op[0].type = strcmp(type, "fixed") == 0 ? "weld" : "connect";
	a[n * 2] = "body1", a[n++ * 2 + 1] = k->body1;
	if (strcmp(k->body2, "world") != 0)
		a[n * 2] = "body2", a[n++ * 2 + 1] = k->body2;
	if (strcmp(type, "fixed") != 0)
		a[n * 2] = "anchor", a[n++ * 2 + 1] = "0 0 0";
	k->op[0].nattrs = n;
	k->nops = 1;
	if (strcmp(type, "revolute") != 0)
		return HXD_OK;
	if ((rc = world_sdf_axis(w, text, k->axis, sizeof(k->axis))) != HXD_OK)
		return rc;
	memcpy(k->attrs[1], a, (size_t)(2 * n) * sizeof(*a));
	k->attrs[1][2 * n - 1] = k->axis;
	k->op[1] = k->op[0];
	k->op[1].attrs = k->attrs[1];
	k->nops = 2;
	return HXD_OK;
}

/* An MJCF <weld> or <connect>: the equality as it is written. */
static void
world_mjcf_equality(struct world_constraint *k)
{
	int n = 0;

	k->op[0].type = k->tag.name;
	for (int i = 0; i < k->tag.nattrs; i++)
		if (strcmp(k->tag.attr[i], "name") != 0) {
			k->attrs[0][2 * n] = k->tag.attr[i];
			k->attrs[0][2 * n++ + 1] = k->tag.value[i];
		}
	k->op[0].nattrs = n;
	k->nops = 1;
}

/* Read the constraint of text into k: an MJCF equality or an SDF joint. */
static int
world_constraint_read(
    struct world *w, const char *text, struct world_constraint *k)
{
	char err[256];
	int found;

	if ((found = simtext_tag(text, "weld", &k->tag, err, sizeof(err))) ==
	    -1)
		found = simtext_tag(text, "connect", &k->tag, err, sizeof(err));
	if (found == 0) {
		world_mjcf_equality(k);
		return HXD_OK;
	}
	if (found == -1 &&
	    (found = simtext_tag(text, "joint", &k->tag, err, sizeof(err))) ==
		0)
		return world_sdf_joint(w, text, k);
	return compat_fail(HXD_BADVALUE, "%s: %s", w->call,
	    found == -2 ? err :
			  "no <weld> or <connect> (MJCF) and no <joint> "
			  "(SDF) in the text");
}

/* Name the operations of k: name, and the axis's connect after it. */
static int
world_constraint_name(struct world *w, struct world_constraint *k)
{
	const char *name = simtext_attr(&k->tag, "name");
	size_t n, s = strlen(WORLD_AXIS_SUFFIX);
	int rc;

	if (name == NULL || name[0] == '\0')
		return compat_fail(HXD_BADVALUE,
		    "%s: the constraint needs a name, to remove it by",
		    w->call);
	n = strlen(name);
	if (n >= s && strcmp(name + n - s, WORLD_AXIS_SUFFIX) == 0)
		return compat_fail(HXD_BADVALUE,
		    "%s: the name '%s' ends with '%s', which names the "
		    "second half of a revolute constraint",
		    w->call, name, WORLD_AXIS_SUFFIX);
	for (int i = 0; i < k->nops; i++) {
		k->op[i].kind = HXD_EDIT_ADD;
		k->op[i].parent_type = "equality";
		k->op[i].parent_name = "";
		k->op[i].attrs = k->attrs[i];
		k->op[i].name = name;
	}
	if (k->nops == 2) {
		if ((rc = world_axis_name(w, name, k->axis_name,
			 sizeof(k->axis_name))) != HXD_OK)
			return rc;
		k->op[1].name = k->axis_name;
	}
	return HXD_OK;
}

hxResult
hxs_add_constraint(const char *text, const char *model_name)
{
	struct world w;
	struct world_constraint *k;
	int rc, model;

	if (text == NULL)
		return COMPAT_HX(compat_null("hxs_add_constraint", "_sdf"));
	if ((rc = world_open(&w, "hxs_add_constraint")) != HXD_OK ||
	    (rc = world_model(&w, model_name, &model)) != HXD_OK)
		return world_end(&w, rc);
	if ((k = calloc(1, sizeof(*k))) == NULL) {
		rc = compat_fail(
		    HXD_BADVALUE, "hxs_add_constraint: out of memory");
		return world_end(&w, rc);
	}
	if ((rc = world_constraint_read(&w, text, k)) == HXD_OK &&
	    (rc = world_constraint_name(&w, k)) == HXD_OK &&
	    (rc = hxd_edit_model(w.c, k->op, k->nops, NULL, NULL)) != HXD_OK)
		rc = world_err(&w, rc);
	simtext_tag_free(&k->tag);
	free(k);
	return world_end(&w, rc);
}

/* Refuse name when it is the axis's half of a revolute constraint. */
static int
world_axis_half(struct world *w, const char *name)
{
	size_t n = strlen(name), s = strlen(WORLD_AXIS_SUFFIX);
	char base[512];

	if (n < s || n - s >= sizeof(base) ||
	    strcmp(name + n - s, WORLD_AXIS_SUFFIX) != 0)
		return HXD_OK;
	memcpy(base, name, n - s);
	base[n - s] = '\0';
	if (world_equality(w, base) < 0)
		return HXD_OK;
	return compat_fail(HXD_BADVALUE,
	    "%s: '%s' is half of revolute constraint '%s': remove that",
	    w->call, name, base);
}

/* 1 if equality e holds model (by either of its bodies), else 0. */
static int
world_eq_holds(const struct world *w, int e, int model)
{
	return w->root[w->info->eq_obj1id[e]] == model ||
	    (w->info->eq_obj2id[e] > 0 &&
		w->root[w->info->eq_obj2id[e]] == model);
}

hxResult
hxs_remove_constraint(const char *name, const char *model_name)
{
	struct world w;
	hxd_edit_op op[2] = { { 0 }, { 0 } };
	char axis[512];
	int rc, model, eq, eq2, n = 1;

	if (name == NULL)
		return COMPAT_HX(compat_null("hxs_remove_constraint", "_name"));
	if ((rc = world_open(&w, "hxs_remove_constraint")) != HXD_OK ||
	    (rc = world_model(&w, model_name, &model)) != HXD_OK ||
	    (rc = world_axis_name(&w, name, axis, sizeof(axis))) != HXD_OK)
		return world_end(&w, rc);
	if (world_axis_half(&w, name) != HXD_OK)
		return world_end(&w, compat_last());
	eq = world_equality(&w, name);
	if (eq < 0 ||
	    (w.info->eq_type[eq] != WORLD_EQ_WELD &&
		w.info->eq_type[eq] != WORLD_EQ_CONNECT)) {
		rc = compat_fail(HXD_BADINDEX,
		    "hxs_remove_constraint: there is no weld or connect "
		    "constraint named '%s'",
		    name);
		return world_end(&w, rc);
	}
	if (!world_eq_holds(&w, eq, model)) {
		rc = compat_fail(HXD_BADINDEX,
		    "hxs_remove_constraint: constraint '%s' does not hold "
		    "model '%s'",
		    name, model_name);
		return world_end(&w, rc);
	}
	op[0].kind = HXD_EDIT_REMOVE;
	op[0].type = w.info->eq_type[eq] == WORLD_EQ_WELD ? "weld" : "connect";
	op[0].name = name;
	/* A revolute constraint goes with its axis's connect, in one edit. */
	if ((eq2 = world_equality(&w, axis)) >= 0 &&
	    w.info->eq_type[eq2] == WORLD_EQ_CONNECT) {
		op[1] = op[0];
		op[1].name = axis;
		n = 2;
	}
	if ((rc = hxd_edit_model(w.c, op, n, NULL, NULL)) != HXD_OK)
		rc = world_err(&w, rc);
	return world_end(&w, rc);
}
