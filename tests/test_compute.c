/*
 * MuJoCo's computations (the compute call, haptixd.h's "MuJoCo's
 * computations") through a real haptixd, bit for bit against MuJoCo
 * 2.2.2 in this process: on the daemon's own model (the MJB of
 * get_model, after a change made through the API, so that the XML
 * compiled again would not do) and its state (every input read back
 * exactly with get_array), on the MPL scene and on the fixture, for the
 * live state, for a given one and for several in one call; the last
 * step's contact forces against the step taken again in-process; the
 * live data, its warm start, the counters, the state hash and the model
 * untouched; every refusal; a request of a thousand states answered in
 * parts.
 *
 * In-process, MuJoCo is called as a program linking it would call it
 * (mj_makeData, the inputs, mj_forward, then the function), written
 * here from MuJoCo's documentation and not from the daemon's code.
 * Names are looked up in m->names: libhaptix exports HAPTIX's
 * mj_name2id, mj_id2name and mj_step, which shadow MuJoCo's here, so
 * MuJoCo's mj_step is found in its own library (dlsym).
 */
#include "config.h"

#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <mujoco/mujoco.h>

#include "check.h"
#include "harness.h"
#include "haptixd.h"
#include "mjb_memory.h"

TestSuite(compute, .timeout = 120, .fini = hx_server_cleanup);

/*---------------------------------------------------------- the scenes */

/* The objects a scene's computations name. */
struct scene {
	const char *body; /* jac, jac_body, jac_body_com, object motion */
	const char *body2;
	const char *geom;
	const char *site;
	const char *pushed;  /* a free body given an applied force */
	const char *exclude; /* a body a ray skips, one it hits otherwise */
	double ray_from[3];  /* above the excluded body: rays go down */
};

static const struct scene mpl = {
	.body = "index_distal",
	.body2 = "thumb_distal",
	.geom = "index_distal",
	.site = "index_distal",
	.pushed = "cube",
	.exclude = "cylinder",
	.ray_from = { 0.09, -0.238, 1.5 },
};

static const struct scene fixture = {
	.body = "link2",
	.body2 = "link1",
	.geom = "link2",
	.site = "tip",
	.pushed = "box",
	.exclude = "box",
	.ray_from = { 0.6, 0, 1.5 },
};

/*------------------------------------------- MuJoCo in this process */

/* The inputs of mjData that the daemon copies, in this order. */
enum {
	IN_QPOS,
	IN_QVEL,
	IN_ACT,
	IN_CTRL,
	IN_MOCAP_POS,
	IN_MOCAP_QUAT,
	IN_QFRC_APPLIED,
	IN_XFRC_APPLIED,
	IN_QACC_WARMSTART,
	IN_USERDATA,
	NINPUTS
};
static const char *const input_names[NINPUTS] = { "qpos", "qvel", "act", "ctrl",
	"mocap_pos", "mocap_quat", "qfrc_applied", "xfrc_applied",
	"qacc_warmstart", "userdata" };

/* The daemon's model loaded here, and the live inputs read exactly. */
struct ref {
	mjModel *m;
	double time;
	double *in[NINPUTS];
};

/* Where input i lives in d, and how many values it has. */
static mjtNum *
input_ptr(const mjModel *m, mjData *d, int i, int *n)
{
	switch (i) {
	case IN_QPOS:
		*n = m->nq;
		return d->qpos;
	case IN_QVEL:
		*n = m->nv;
		return d->qvel;
	case IN_ACT:
		*n = m->na;
		return d->act;
	case IN_CTRL:
		*n = m->nu;
		return d->ctrl;
	case IN_MOCAP_POS:
		*n = 3 * m->nmocap;
		return d->mocap_pos;
	case IN_MOCAP_QUAT:
		*n = 4 * m->nmocap;
		return d->mocap_quat;
	case IN_QFRC_APPLIED:
		*n = m->nv;
		return d->qfrc_applied;
	case IN_XFRC_APPLIED:
		*n = 6 * m->nbody;
		return d->xfrc_applied;
	case IN_QACC_WARMSTART:
		*n = m->nv;
		return d->qacc_warmstart;
	default:
		*n = m->nuserdata;
		return d->userdata;
	}
}

/* The given array of a state for input i, or NULL. */
static const double *
state_input(const hxd_cstate *st, int i)
{
	if (st == NULL)
		return NULL;
	switch (i) {
	case IN_QPOS:
		return st->qpos;
	case IN_QVEL:
		return st->qvel;
	case IN_ACT:
		return st->act;
	case IN_CTRL:
		return st->ctrl;
	case IN_MOCAP_POS:
		return st->mocap_pos;
	case IN_MOCAP_QUAT:
		return st->mocap_quat;
	case IN_QFRC_APPLIED:
		return st->qfrc_applied;
	case IN_XFRC_APPLIED:
		return st->xfrc_applied;
	case IN_QACC_WARMSTART:
		return st->qacc_warmstart;
	default:
		return NULL;
	}
}

/* An array by name, its values checked against its shape; free() it. */
static hxd_array *
array_get(hxd_conn *c, const char *name)
{
	hxd_array *a = NULL;

	HX_OK(c, hxd_get_array(c, name, &a));
	cr_assert_not_null(a);
	cr_assert(a->rows * a->cols == 0 || a->values != NULL);
	return a;
}

/* Load MJB bytes as hxview does; fails the test if MuJoCo cannot. */
static mjModel *
mjb_load(const void *mjb, size_t size)
{
	mjModel *m = mjb_memory_load(mjb, size);

	cr_assert_not_null(m, "MuJoCo did not load the daemon's MJB");
	return m;
}

/* The daemon's model, as MJB, loaded here. */
static mjModel *
model_fetch(hxd_conn *c)
{
	hxd_model_blob blob;
	mjModel *m;

	HX_OK(c, hxd_get_model(c, &blob));
	cr_assert_eq(blob.mujoco_version, mj_version(),
	    "the daemon's MuJoCo is %d, ours %d", blob.mujoco_version,
	    mj_version());
	m = mjb_load(blob.mjb, blob.size);
	hxd_model_blob_free(&blob);
	return m;
}

/* The live inputs, exactly, into r (whose model is loaded). */
static void
inputs_fetch(hxd_conn *c, struct ref *r)
{
	hxd_array *a;
	int i, n;
	mjData *d = mj_makeData(r->m);

	cr_assert_not_null(d);
	for (i = 0; i < NINPUTS; i++) {
		free(r->in[i]);
		a = array_get(c, input_names[i]);
		input_ptr(r->m, d, i, &n);
		cr_assert_eq(a->rows * a->cols, n,
		    "%s has %d x %d values, the "
		    "model here %d",
		    input_names[i], a->rows, a->cols, n);
		r->in[i] = calloc((size_t)n + 1, sizeof(double));
		cr_assert_not_null(r->in[i]);
		if (n > 0)
			memcpy(r->in[i], a->values, (size_t)n * sizeof(double));
		free(a);
	}
	a = array_get(c, "time");
	cr_assert_eq(a->rows * a->cols, 1);
	r->time = a->values[0];
	free(a);
	mj_deleteData(d);
}

static void
ref_open(hxd_conn *c, struct ref *r)
{
	memset(r, 0, sizeof(*r));
	r->m = model_fetch(c);
	inputs_fetch(c, r);
}

static void
ref_close(struct ref *r)
{
	int i;

	for (i = 0; i < NINPUTS; i++)
		free(r->in[i]);
	mj_deleteModel(r->m);
	memset(r, 0, sizeof(*r));
}

/*
 * New data as a program makes it: the live inputs, those st gives over
 * them, mj_forward; then the given qacc, mj_inverse's input.
 */
static mjData *
ref_forward(const struct ref *r, const hxd_cstate *st)
{
	mjData *d = mj_makeData(r->m);
	const double *given;
	mjtNum *dst;
	int i, n;

	cr_assert_not_null(d);
	d->time = r->time;
	for (i = 0; i < NINPUTS; i++) {
		dst = input_ptr(r->m, d, i, &n);
		given = state_input(st, i);
		if (n > 0)
			memcpy(dst, given != NULL ? given : r->in[i],
			    (size_t)n * sizeof(double));
	}
	mj_forward(r->m, d);
	if (st != NULL && st->qacc != NULL)
		memcpy(d->qacc, st->qacc, (size_t)r->m->nv * sizeof(double));
	return d;
}

/* An object's id by name in m->names (xbodies are named as bodies). */
static int
ref_name2id(const mjModel *m, int type, const char *name)
{
	const int *adr;
	int n, i;

	switch (type) {
	case mjOBJ_BODY:
	case mjOBJ_XBODY:
		n = m->nbody;
		adr = m->name_bodyadr;
		break;
	case mjOBJ_GEOM:
		n = m->ngeom;
		adr = m->name_geomadr;
		break;
	case mjOBJ_SITE:
		n = m->nsite;
		adr = m->name_siteadr;
		break;
	default:
		cr_assert_fail("no names of type %d here", type);
		return -1;
	}
	for (i = 0; i < n; i++)
		if (strcmp(m->names + adr[i], name) == 0)
			return i;
	cr_assert_fail(
	    "the model has no object of type %d named %s", type, name);
	return -1;
}

/* A geom's or body's name ("" unnamed). */
static const char *
ref_id2name(const mjModel *m, int type, int id)
{
	if (type == mjOBJ_GEOM)
		return m->names + m->name_geomadr[id];
	return m->names + m->name_bodyadr[id];
}

/* An mjData (or mjModel) array by name: those the tests ask for. */
static const mjtNum *
ref_array(
    const mjModel *m, const mjData *d, const char *name, int *rows, int *cols)
{
	static const struct {
		const char *name;
		size_t off;
		int model; /* an mjModel array */
		int rows;  /* 'v' nv, 'b' nbody, 's' nsite, 'e' nefc, ... */
		int cols;
	} arrays[] = {
		{ "qfrc_bias", offsetof(mjData, qfrc_bias), 0, 'v', 1 },
		{ "qacc", offsetof(mjData, qacc), 0, 'v', 1 },
		{ "qfrc_constraint", offsetof(mjData, qfrc_constraint), 0, 'v',
		    1 },
		{ "xpos", offsetof(mjData, xpos), 0, 'b', 3 },
		{ "xquat", offsetof(mjData, xquat), 0, 'b', 4 },
		{ "subtree_com", offsetof(mjData, subtree_com), 0, 'b', 3 },
		{ "cacc", offsetof(mjData, cacc), 0, 'b', 6 },
		{ "cfrc_ext", offsetof(mjData, cfrc_ext), 0, 'b', 6 },
		{ "cfrc_int", offsetof(mjData, cfrc_int), 0, 'b', 6 },
		{ "qfrc_inverse", offsetof(mjData, qfrc_inverse), 0, 'v', 1 },
		{ "site_xpos", offsetof(mjData, site_xpos), 0, 's', 3 },
		{ "site_xmat", offsetof(mjData, site_xmat), 0, 's', 9 },
		{ "efc_force", offsetof(mjData, efc_force), 0, 'e', 1 },
		{ "sensordata", offsetof(mjData, sensordata), 0, 'n', 1 },
		{ "actuator_force", offsetof(mjData, actuator_force), 0, 'u',
		    1 },
		{ "body_mass", offsetof(mjModel, body_mass), 1, 'b', 1 },
	};
	size_t i;

	for (i = 0; i < sizeof(arrays) / sizeof(arrays[0]); i++) {
		if (strcmp(arrays[i].name, name) != 0)
			continue;
		switch (arrays[i].rows) {
		case 'v':
			*rows = m->nv;
			break;
		case 'b':
			*rows = m->nbody;
			break;
		case 's':
			*rows = m->nsite;
			break;
		case 'e':
			*rows = d->nefc;
			break;
		case 'n':
			*rows = m->nsensordata;
			break;
		default:
			*rows = m->nu;
			break;
		}
		*cols = arrays[i].cols;
		return *(mjtNum *const *)((const char *)(arrays[i].model ?
						  (const void *)m :
						  (const void *)d) +
		    arrays[i].off);
	}
	cr_assert_fail("no array %s here", name);
	return NULL;
}

/* A result's arrays, zeroed, for the shape given. */
static void
result_alloc(hxd_qresult *r, int ndim, int a, int b, int c, int d, size_t nids,
    size_t nframes)
{
	int shape[4] = { a, b, c, d }, i;

	memset(r, 0, sizeof(*r));
	r->ndim = ndim;
	r->nvalues = ndim > 0 ? 1 : 0;
	for (i = 0; i < ndim; i++) {
		r->shape[i] = shape[i];
		r->nvalues *= (size_t)shape[i];
	}
	r->nids = nids;
	r->nframes = nframes;
	r->values = calloc(r->nvalues + 1, sizeof(double));
	r->ids = calloc(nids + 1, sizeof(int));
	r->names = calloc(nids + 1, sizeof(char *));
	r->frames = calloc(nframes + 1, sizeof(double));
	cr_assert(r->values && r->ids && r->names && r->frames);
}

static void
result_free(hxd_qresult *r)
{
	size_t i;

	for (i = 0; i < r->nids; i++)
		free(r->names[i]);
	free(r->values);
	free(r->ids);
	free(r->names);
	free(r->frames);
	memset(r, 0, sizeof(*r));
}

/* The id of item i of a query: one name (or id) serves every item. */
static int
ref_item(const mjModel *m, const hxd_query *q, int type, int i)
{
	if (q->nnames > 0)
		return ref_name2id(m, type == mjOBJ_XBODY ? mjOBJ_BODY : type,
		    q->names[q->nnames == 1 ? 0 : i]);
	return q->ids[q->nids == 1 ? 0 : i];
}

/*
 * Query q on d, as a program calls MuJoCo after mj_forward, with the
 * shapes docs/compute.md and the .proto give.
 */
static void
ref_query(mjModel *m, mjData *d, const hxd_query *q, hxd_qresult *r)
{
	int nv = m->nv, nq = m->nq, per = 0, k, i, type, rows, cols, flags;
	size_t block = 3 * (size_t)nv;
	const mjtNum *a, *src;
	const mjContact *con;
	mjtNum *jacp, *f;

	switch (q->kind) {
	case HXD_COMPUTE_SOLVE_M:
		per = nv;
		break;
	case HXD_COMPUTE_JAC:
		per = 3;
		break;
	case HXD_COMPUTE_RAY:
		per = 6;
		break;
	case HXD_COMPUTE_DIFFERENTIATE_POS:
		per = 2 * nq;
		break;
	case HXD_COMPUTE_INTEGRATE_POS:
		per = nq + nv;
		break;
	default:
		break;
	}
	k = per > 0 ? q->nargs / per : (q->nnames > 0 ? q->nnames : q->nids);

	switch (q->kind) {
	case HXD_COMPUTE_ARRAY:
		src = ref_array(m, d, q->names[0], &rows, &cols);
		result_alloc(r, 2, rows, cols, 0, 0, 0, 0);
		memcpy(r->values, src, r->nvalues * sizeof(double));
		break;
	case HXD_COMPUTE_INVERSE:
		result_alloc(r, 1, nv, 0, 0, 0, 0, 0);
		mj_inverse(m, d);
		memcpy(r->values, d->qfrc_inverse, (size_t)nv * sizeof(double));
		break;
	case HXD_COMPUTE_FULL_M:
		result_alloc(r, 2, nv, nv, 0, 0, 0, 0);
		mj_fullM(m, r->values, d->qM);
		break;
	case HXD_COMPUTE_SOLVE_M:
		result_alloc(r, 2, k, nv, 0, 0, 0, 0);
		mj_solveM(m, d, r->values, q->args, k);
		break;
	case HXD_COMPUTE_RNE:
		result_alloc(r, 1, nv, 0, 0, 0, 0, 0);
		mj_rne(m, d, q->flag, r->values);
		break;
	case HXD_COMPUTE_JAC:
	case HXD_COMPUTE_JAC_BODY:
	case HXD_COMPUTE_JAC_BODY_COM:
	case HXD_COMPUTE_JAC_GEOM:
	case HXD_COMPUTE_JAC_SITE:
		result_alloc(r, 4, k, 2, 3, nv, 0, 0);
		type = q->kind == HXD_COMPUTE_JAC_GEOM ? mjOBJ_GEOM :
		    q->kind == HXD_COMPUTE_JAC_SITE    ? mjOBJ_SITE :
							 mjOBJ_BODY;
		for (i = 0; i < k; i++) {
			jacp = r->values + 2 * block * (size_t)i;
			int id = ref_item(m, q, type, i);
			if (q->kind == HXD_COMPUTE_JAC)
				mj_jac(m, d, jacp, jacp + block,
				    q->args + 3 * i, id);
			else if (q->kind == HXD_COMPUTE_JAC_BODY)
				mj_jacBody(m, d, jacp, jacp + block, id);
			else if (q->kind == HXD_COMPUTE_JAC_BODY_COM)
				mj_jacBodyCom(m, d, jacp, jacp + block, id);
			else if (q->kind == HXD_COMPUTE_JAC_GEOM)
				mj_jacGeom(m, d, jacp, jacp + block, id);
			else
				mj_jacSite(m, d, jacp, jacp + block, id);
		}
		break;
	case HXD_COMPUTE_OBJECT_VELOCITY:
	case HXD_COMPUTE_OBJECT_ACCELERATION:
		result_alloc(r, 2, k, 6, 0, 0, 0, 0);
		if (q->kind == HXD_COMPUTE_OBJECT_ACCELERATION)
			mj_rnePostConstraint(m, d);
		for (i = 0; i < k; i++) {
			int id = ref_item(m, q, q->objtype, i);
			if (q->kind == HXD_COMPUTE_OBJECT_VELOCITY)
				mj_objectVelocity(m, d, q->objtype, id,
				    r->values + 6 * i, q->flag);
			else
				mj_objectAcceleration(m, d, q->objtype, id,
				    r->values + 6 * i, q->flag);
		}
		break;
	case HXD_COMPUTE_CONTACT_FORCE:
		result_alloc(r, 2, d->ncon, 6, 0, 0, 4 * (size_t)d->ncon,
		    13 * (size_t)d->ncon);
		for (i = 0; i < d->ncon; i++) {
			con = &d->contact[i];
			mj_contactForce(m, d, i, r->values + 6 * i);
			r->ids[4 * i] = con->geom1;
			r->ids[4 * i + 1] = con->geom2;
			r->ids[4 * i + 2] = m->geom_bodyid[con->geom1];
			r->ids[4 * i + 3] = m->geom_bodyid[con->geom2];
			r->names[4 * i] = strdup(
			    ref_id2name(m, mjOBJ_GEOM, con->geom1));
			r->names[4 * i + 1] = strdup(
			    ref_id2name(m, mjOBJ_GEOM, con->geom2));
			r->names[4 * i + 2] = strdup(ref_id2name(
			    m, mjOBJ_BODY, m->geom_bodyid[con->geom1]));
			r->names[4 * i + 3] = strdup(ref_id2name(
			    m, mjOBJ_BODY, m->geom_bodyid[con->geom2]));
			f = r->frames + 13 * i;
			f[0] = con->dist;
			memcpy(f + 1, con->pos, 3 * sizeof(double));
			memcpy(f + 4, con->frame, 9 * sizeof(double));
		}
		break;
	case HXD_COMPUTE_ENERGY:
		result_alloc(r, 1, 2, 0, 0, 0, 0, 0);
		flags = m->opt.enableflags;
		m->opt.enableflags |= mjENBL_ENERGY;
		mj_energyPos(m, d);
		mj_energyVel(m, d);
		m->opt.enableflags = flags;
		r->values[0] = d->energy[0];
		r->values[1] = d->energy[1];
		break;
	case HXD_COMPUTE_RAY:
		result_alloc(r, 1, k, 0, 0, 0, (size_t)k, 0);
		for (i = 0; i < k; i++) {
			mjtByte groups[6];
			int g;

			for (g = 0; g < 6 && q->geomgroup != NULL; g++)
				groups[g] = q->geomgroup[g] != 0;
			a = q->args + 6 * i;
			r->values[i] = mj_ray(m, d, a, a + 3,
			    q->geomgroup != NULL ? groups : NULL,
			    !q->exclude_static,
			    q->exclude_body != NULL && q->exclude_body[0] ?
				ref_name2id(m, mjOBJ_BODY, q->exclude_body) :
				-1,
			    &r->ids[i]);
		}
		break;
	case HXD_COMPUTE_DIFFERENTIATE_POS:
		result_alloc(r, 2, k, nv, 0, 0, 0, 0);
		for (i = 0; i < k; i++) {
			a = q->args + 2 * nq * i;
			mj_differentiatePos(
			    m, r->values + nv * i, q->dt, a, a + nq);
		}
		break;
	case HXD_COMPUTE_INTEGRATE_POS:
		result_alloc(r, 2, k, nq, 0, 0, 0, 0);
		for (i = 0; i < k; i++) {
			a = q->args + (nq + nv) * i;
			memcpy(
			    r->values + nq * i, a, (size_t)nq * sizeof(double));
			mj_integratePos(m, r->values + nq * i, a + nq, q->dt);
		}
		break;
	default:
		cr_assert_fail("kind %d", q->kind);
	}
}

/* One query on a state made afresh here. */
static void
ref_one(const struct ref *r, const hxd_cstate *st, const hxd_query *q,
    hxd_qresult *out)
{
	mjData *d = ref_forward(r, st);

	ref_query(r->m, d, q, out);
	mj_deleteData(d);
}

/*------------------------------------------------------- comparisons */

/* n doubles bit for bit; the first difference is named. */
static int
same_bits(const char *what, const double *got, const double *want, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (memcmp(&got[i], &want[i], sizeof(double)) != 0) {
			cr_expect_fail("%s: [%zu] of %zu is %.17g (%a), MuJoCo "
				       "in-process %.17g (%a)",
			    what, i, n, got[i], got[i], want[i], want[i]);
			return 0;
		}
	return 1;
}

/* Some value is not zero: a comparison of zeros proves nothing. */
static void
nonzero(const char *what, const double *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] != 0)
			return;
	cr_assert_fail("%s: all %zu values are zero", what, n);
}

/* Some value differs: the state (or option) given did something. */
static void
differ(const char *what, const double *a, const double *b, size_t n)
{
	cr_assert(memcmp(a, b, n * sizeof(double)) != 0,
	    "%s: the same with and without what changes it", what);
}

/* A result of hxd_compute against the one computed here. */
static void
same_result(const char *what, const hxd_qresult *got, const hxd_qresult *want)
{
	char buf[256];
	size_t i;
	int j;

	cr_assert_eq(got->ndim, want->ndim, "%s: %d dimensions, in-process %d",
	    what, got->ndim, want->ndim);
	for (j = 0; j < got->ndim; j++)
		cr_assert_eq(got->shape[j], want->shape[j],
		    "%s: dimension %d is %d, in-process %d", what, j,
		    got->shape[j], want->shape[j]);
	cr_assert_eq(got->nvalues, want->nvalues, "%s: %zu values, %zu", what,
	    got->nvalues, want->nvalues);
	cr_assert_eq(got->nids, want->nids, "%s: %zu ids, %zu", what, got->nids,
	    want->nids);
	cr_assert_eq(got->nframes, want->nframes, "%s: %zu frames, %zu", what,
	    got->nframes, want->nframes);
	snprintf(buf, sizeof(buf), "%s values", what);
	same_bits(buf, got->values, want->values, got->nvalues);
	snprintf(buf, sizeof(buf), "%s frames", what);
	same_bits(buf, got->frames, want->frames, got->nframes);
	for (i = 0; i < got->nids; i++) {
		cr_expect_eq(got->ids[i], want->ids[i], "%s: id %zu is %d, %d",
		    what, i, got->ids[i], want->ids[i]);
		if (want->names[i] != NULL)
			cr_expect_str_eq(got->names[i], want->names[i],
			    "%s: name %zu", what, i);
	}
}

/*---------------------------------------------- the live state untouched */

struct snapshot {
	hxd_array *a[16];
	int n;
	hxd_status status;
	unsigned long long hash, steps;
	double time;
	hxd_model_blob mjb;
};

static const char *const snapshot_arrays[] = { "qpos", "qvel", "act", "ctrl",
	"qacc", "qacc_warmstart", "time", "efc_force", "efc_J", "sensordata",
	"mocap_pos", "mocap_quat", "qfrc_applied", "xfrc_applied", NULL };

static void
snapshot_take(hxd_conn *c, struct snapshot *s)
{
	memset(s, 0, sizeof(*s));
	for (s->n = 0; snapshot_arrays[s->n] != NULL; s->n++)
		s->a[s->n] = array_get(c, snapshot_arrays[s->n]);
	HX_OK(c, hxd_status_get(c, &s->status));
	HX_OK(c, hxd_state_hash(c, &s->hash, &s->steps, &s->time));
	HX_OK(c, hxd_get_model(c, &s->mjb));
}

/* Everything as it was, bit for bit; both snapshots freed. */
static void
snapshot_same(struct snapshot *before, struct snapshot *after)
{
	const hxd_status *x = &before->status, *y = &after->status;
	int i;

	for (i = 0; i < before->n; i++) {
		hxd_array *a = before->a[i], *b = after->a[i];
		char what[96];

		cr_assert(a->rows == b->rows && a->cols == b->cols,
		    "live %s was %d x %d, is %d x %d", a->name, a->rows,
		    a->cols, b->rows, b->cols);
		snprintf(what, sizeof(what), "live %s after the computations",
		    a->name);
		cr_expect(same_bits(what, b->values, a->values,
		    (size_t)a->rows * (size_t)a->cols));
		free(a);
		free(b);
	}
	cr_expect_eq(after->hash, before->hash, "the state hash changed");
	cr_expect_eq(after->steps, before->steps);
	cr_expect(memcmp(&after->time, &before->time, sizeof(double)) == 0);
	cr_expect_eq(y->steps, x->steps, "status steps %llu, were %llu",
	    y->steps, x->steps);
	cr_expect(memcmp(&y->time, &x->time, sizeof(double)) == 0);
	cr_expect_eq(y->nefc, x->nefc);
	cr_expect_eq(y->ncon, x->ncon);
	cr_expect(memcmp(&y->energy_potential, &x->energy_potential,
		      sizeof(double)) == 0 &&
		memcmp(&y->energy_kinetic, &x->energy_kinetic,
		    sizeof(double)) == 0,
	    "status energies %.17g %.17g, were %.17g %.17g",
	    y->energy_potential, y->energy_kinetic, x->energy_potential,
	    x->energy_kinetic);
	cr_expect_eq(y->instability_resets, x->instability_resets);
	cr_expect_eq(y->sim_errors, x->sim_errors);
	cr_expect_eq(y->model_edits, x->model_edits);
	cr_expect_eq(y->paused, x->paused);
	cr_expect(before->mjb.size == after->mjb.size &&
		memcmp(before->mjb.mjb, after->mjb.mjb, before->mjb.size) == 0,
	    "the model's MJB changed (%zu bytes, were %zu)", after->mjb.size,
	    before->mjb.size);
	hxd_model_blob_free(&before->mjb);
	hxd_model_blob_free(&after->mjb);
}

/*--------------------------------------------------------- the setup */

/* Write n values into a live array from offset. */
static void
set(hxd_conn *c, const char *name, int offset, int n, const double *v)
{
	HX_OK(c, hxd_set_array(c, name, offset, n, v));
}

/*
 * A state that is not trivial: controls, applied forces on every dof and
 * on a free body, the mocap body moved and turned, a geom's friction
 * changed (a model change the MJB carries and the XML does not), then
 * steps.
 */
static void
scene_setup(hxd_conn *c, const struct scene *sc, unsigned steps)
{
	const hxd_model *wm = hxd_welcome_model(c);
	hxd_array *range = array_get(c, "actuator_ctrlrange");
	hxd_array *mp = array_get(c, "mocap_pos");
	double *v = calloc((size_t)wm->nv + 6 * (size_t)wm->nbody + 8, 8);
	double quat[4] = { cos(0.03), 0, 0.2 * sin(0.03), sin(0.03) }, nq;
	double friction[3] = { 0.85, 0.004, 0.0002 };
	double xfrc[6] = { 0.02, -0.01, 0, 0, 0, 0.001 };
	unsigned taken;
	int i, body, geom;

	cr_assert_not_null(v);
	for (i = 0; i < wm->nu; i++)
		v[i] = range->values[2 * i] +
		    (0.3 + 0.02 * i) *
			(range->values[2 * i + 1] - range->values[2 * i]);
	set(c, "ctrl", 0, wm->nu, v);
	for (i = 0; i < wm->nv; i++)
		v[i] = 0.002 * ((i % 5) - 2);
	set(c, "qfrc_applied", 0, wm->nv, v);
	HX_OK(c, hxd_name2id(c, HXD_OBJ_BODY, sc->pushed, &body));
	set(c, "xfrc_applied", 6 * body, 6, xfrc);
	mp->values[0] += 0.002;
	mp->values[1] -= 0.001;
	mp->values[2] -= 0.003;
	set(c, "mocap_pos", 0, 3, mp->values);
	nq = sqrt(quat[0] * quat[0] + quat[1] * quat[1] + quat[2] * quat[2] +
	    quat[3] * quat[3]);
	for (i = 0; i < 4; i++)
		quat[i] /= nq;
	set(c, "mocap_quat", 0, 4, quat);
	HX_OK(c, hxd_name2id(c, HXD_OBJ_GEOM, sc->exclude, &geom));
	set(c, "geom_friction", 3 * geom, 3, friction);
	HX_OK(c, hxd_step(c, steps, &taken));
	cr_assert_eq(taken, steps);
	free(range);
	free(mp);
	free(v);
}

/*
 * A state other than the live one: every dof moved (free bodies
 * sideways), velocities, other controls, the mocap body elsewhere,
 * applied forces, a warm start of zeros; arrays owned by the caller
 * (state_free).
 */
static void
state_make(const struct ref *r, hxd_cstate *st, double scale)
{
	const mjModel *m = r->m;
	double *qpos, *qvel, *ctrl, *mpos, *qfrc, *xfrc, *warm;
	int j, a, i;

	memset(st, 0, sizeof(*st));
	st->nq = m->nq;
	st->nv = m->nv;
	st->na = m->na;
	st->nu = m->nu;
	st->nmocap = m->nmocap;
	st->nbody = m->nbody;
	qpos = malloc((size_t)m->nq * sizeof(double));
	qvel = malloc((size_t)m->nv * sizeof(double));
	ctrl = malloc(((size_t)m->nu + 1) * sizeof(double));
	mpos = malloc((3 * (size_t)m->nmocap + 1) * sizeof(double));
	qfrc = malloc((size_t)m->nv * sizeof(double));
	xfrc = calloc(6 * (size_t)m->nbody, sizeof(double));
	warm = calloc((size_t)m->nv, sizeof(double));
	cr_assert(qpos && qvel && ctrl && mpos && qfrc && xfrc && warm);
	memcpy(qpos, r->in[IN_QPOS], (size_t)m->nq * sizeof(double));
	for (j = 0; j < m->njnt; j++) {
		a = m->jnt_qposadr[j];
		if (m->jnt_type[j] == mjJNT_FREE)
			qpos[a] += 0.003 * scale; /* sideways: contacts stay */
		else if (m->jnt_type[j] != mjJNT_BALL)
			qpos[a] += 0.02 * scale * sin(j + 1.0);
	}
	for (i = 0; i < m->nv; i++) {
		qvel[i] = 0.05 * scale * cos(i + 0.5);
		qfrc[i] = -0.001 * scale * (i % 3);
	}
	for (i = 0; i < m->nu; i++)
		ctrl[i] = m->actuator_ctrlrange[2 * i] +
		    0.6 *
			(m->actuator_ctrlrange[2 * i + 1] -
			    m->actuator_ctrlrange[2 * i]);
	for (i = 0; i < 3 * m->nmocap; i++)
		mpos[i] = r->in[IN_MOCAP_POS][i] + 0.001 * scale;
	xfrc[6 * (m->nbody - 1) + 2] = 0.05 * scale;
	st->qpos = qpos;
	st->qvel = qvel;
	st->ctrl = ctrl;
	st->mocap_pos = mpos;
	st->qfrc_applied = qfrc;
	st->xfrc_applied = xfrc;
	st->qacc_warmstart = warm;
}

static void
state_free(hxd_cstate *st)
{
	free((void *)st->qpos);
	free((void *)st->qvel);
	free((void *)st->act);
	free((void *)st->ctrl);
	free((void *)st->mocap_pos);
	free((void *)st->mocap_quat);
	free((void *)st->qfrc_applied);
	free((void *)st->xfrc_applied);
	free((void *)st->qacc_warmstart);
	free((void *)st->qacc);
	memset(st, 0, sizeof(*st));
}

/*---------------------------------------- each function, one by one */

/* hxd_forward_array of several arrays. */
static void
check_arrays(
    hxd_conn *c, const struct ref *r, const hxd_cstate *st, const char *label)
{
	static const char *const names[] = { "qfrc_bias", "xpos", "xquat",
		"site_xpos", "efc_force", "cacc", "cfrc_ext", "sensordata",
		"qacc", "actuator_force", "subtree_com", "body_mass" };
	size_t i, cap = 1 << 16;
	double *out = malloc(cap * sizeof(double));
	char what[128];
	int rows, cols;

	cr_assert_not_null(out);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		hxd_query q = { .kind = HXD_COMPUTE_ARRAY,
			.names = &names[i],
			.nnames = 1 };
		hxd_qresult want;

		snprintf(what, sizeof(what), "%s: hxd_forward_array %s", label,
		    names[i]);
		HX_OK(c,
		    hxd_forward_array(c, st, names[i], out, cap, &rows, &cols));
		ref_one(r, st, &q, &want);
		cr_assert(rows == want.shape[0] && cols == want.shape[1],
		    "%s: %d x %d, in-process %d x %d", what, rows, cols,
		    want.shape[0], want.shape[1]);
		same_bits(what, out, want.values, want.nvalues);
		if (strcmp(names[i], "efc_force") == 0)
			cr_assert_gt(rows, 0, "%s: no constraints", what);
		nonzero(what, want.values, want.nvalues);
		result_free(&want);
	}
	free(out);
}

/* The state st with a qacc of its own: mj_inverse's input. */
static void
check_inverse(
    hxd_conn *c, const struct ref *r, const hxd_cstate *st, const char *label)
{
	int nv = r->m->nv, i;
	hxd_query q = { .kind = HXD_COMPUTE_INVERSE };
	double *got = malloc((size_t)nv * sizeof(double));
	double *given = malloc((size_t)nv * sizeof(double));
	double *first = malloc((size_t)nv * sizeof(double));
	hxd_cstate with;
	hxd_qresult want;
	char what[128];

	cr_assert(got && given && first);
	snprintf(what, sizeof(what), "%s: hxd_inverse", label);
	HX_OK(c, hxd_inverse(c, st, got, nv));
	ref_one(r, st, &q, &want);
	same_bits(what, got, want.values, want.nvalues);
	nonzero(what, got, (size_t)nv);
	memcpy(first, got, (size_t)nv * sizeof(double));
	result_free(&want);

	if (st != NULL)
		with = *st;
	else
		hxd_cstate_init(&with,
		    &(hxd_model){ .nq = r->m->nq,
			.nv = nv,
			.na = r->m->na,
			.nu = r->m->nu,
			.nmocap = r->m->nmocap,
			.nbody = r->m->nbody });
	for (i = 0; i < nv; i++)
		given[i] = 0.5 * sin(0.7 * i + 0.1);
	with.qacc = given;
	snprintf(what, sizeof(what), "%s: hxd_inverse with a qacc", label);
	HX_OK(c, hxd_inverse(c, &with, got, nv));
	ref_one(r, &with, &q, &want);
	same_bits(what, got, want.values, want.nvalues);
	differ(what, got, first, (size_t)nv);
	result_free(&want);
	free(got);
	free(given);
	free(first);
}

/* hxd_full_m, hxd_solve_m of two vectors, hxd_rne with both flags. */
static void
check_mass(
    hxd_conn *c, const struct ref *r, const hxd_cstate *st, const char *label)
{
	int nv = r->m->nv, i, flg;
	size_t nn = (size_t)nv * (size_t)nv;
	double *got = malloc((nn + 1) * sizeof(double));
	double *y = malloc(2 * (size_t)nv * sizeof(double));
	double *rne0 = malloc((size_t)nv * sizeof(double));
	hxd_qresult want;
	char what[128];

	cr_assert(got && y && rne0);
	{
		hxd_query q = { .kind = HXD_COMPUTE_FULL_M };

		snprintf(what, sizeof(what), "%s: hxd_full_m", label);
		HX_OK(c, hxd_full_m(c, st, got, nv));
		ref_one(r, st, &q, &want);
		same_bits(what, got, want.values, nn);
		for (i = 0; i < nv; i++)
			cr_assert_gt(
			    got[i * nv + i], 0, "%s: M[%d][%d]", what, i, i);
		result_free(&want);
	}
	for (i = 0; i < nv; i++) {
		y[i] = 1 + 0.1 * i;
		y[nv + i] = sin(i + 1.0);
	}
	{
		hxd_query q = {
			.kind = HXD_COMPUTE_SOLVE_M, .args = y, .nargs = 2 * nv
		};

		snprintf(what, sizeof(what), "%s: hxd_solve_m", label);
		HX_OK(c, hxd_solve_m(c, st, got, y, 2, nv));
		ref_one(r, st, &q, &want);
		same_bits(what, got, want.values, 2 * (size_t)nv);
		differ(what, got, got + nv, (size_t)nv);
		result_free(&want);
	}
	for (flg = 0; flg < 2; flg++) {
		hxd_query q = { .kind = HXD_COMPUTE_RNE, .flag = flg };

		snprintf(
		    what, sizeof(what), "%s: hxd_rne flg_acc %d", label, flg);
		HX_OK(c, hxd_rne(c, st, flg, got, nv));
		ref_one(r, st, &q, &want);
		same_bits(what, got, want.values, (size_t)nv);
		nonzero(what, got, (size_t)nv);
		if (flg == 0)
			memcpy(rne0, got, (size_t)nv * sizeof(double));
		else
			differ(what, got, rne0, (size_t)nv);
		result_free(&want);
	}
	free(got);
	free(y);
	free(rne0);
}

/* The five Jacobians, jacp and jacr. */
static void
check_jacobians(hxd_conn *c, const struct ref *r, const struct scene *sc,
    const hxd_cstate *st, const char *label)
{
	int nv = r->m->nv, kind, body;
	size_t block = 3 * (size_t)nv;
	double *jacp = malloc(block * sizeof(double));
	double *jacr = malloc(block * sizeof(double));
	double point[3];
	mjData *d = ref_forward(r, st);
	hxd_qresult want;
	char what[128];
	const char *name;
	int rc;

	cr_assert(jacp && jacr);
	/* A point near the body, where it is in this state. */
	body = ref_name2id(r->m, mjOBJ_BODY, sc->body);
	point[0] = d->xpos[3 * body] + 0.01;
	point[1] = d->xpos[3 * body + 1] - 0.02;
	point[2] = d->xpos[3 * body + 2] + 0.005;
	mj_deleteData(d);
	for (kind = HXD_COMPUTE_JAC; kind <= HXD_COMPUTE_JAC_SITE; kind++) {
		name = kind == HXD_COMPUTE_JAC_GEOM ? sc->geom :
		    kind == HXD_COMPUTE_JAC_SITE    ? sc->site :
						      sc->body;
		hxd_query q = { .kind = kind, .names = &name, .nnames = 1 };

		if (kind == HXD_COMPUTE_JAC) {
			q.args = point;
			q.nargs = 3;
		}
		memset(jacp, 0xff, block * sizeof(double));
		memset(jacr, 0xff, block * sizeof(double));
		switch (kind) {
		case HXD_COMPUTE_JAC:
			rc = hxd_jac(c, st, name, point, jacp, jacr, nv);
			break;
		case HXD_COMPUTE_JAC_BODY:
			rc = hxd_jac_body(c, st, name, jacp, jacr, nv);
			break;
		case HXD_COMPUTE_JAC_BODY_COM:
			rc = hxd_jac_body_com(c, st, name, jacp, jacr, nv);
			break;
		case HXD_COMPUTE_JAC_GEOM:
			rc = hxd_jac_geom(c, st, name, jacp, jacr, nv);
			break;
		default:
			rc = hxd_jac_site(c, st, name, jacp, jacr, nv);
			break;
		}
		cr_assert_eq(
		    rc, HXD_OK, "%s: kind %d: %s", label, kind, hxd_error(c));
		ref_one(r, st, &q, &want);
		snprintf(what, sizeof(what), "%s: jacp of kind %d (%s)", label,
		    kind, name);
		same_bits(what, jacp, want.values, block);
		nonzero(what, jacp, block);
		snprintf(what, sizeof(what), "%s: jacr of kind %d (%s)", label,
		    kind, name);
		same_bits(what, jacr, want.values + block, block);
		nonzero(what, jacr, block);
		result_free(&want);
	}
	/* jacr may be left out. */
	HX_OK(c, hxd_jac_site(c, st, sc->site, jacp, NULL, nv));
	free(jacp);
	free(jacr);
}

/* Velocity and acceleration of a body, xbody, geom and site, both frames. */
static void
check_motion(hxd_conn *c, const struct ref *r, const struct scene *sc,
    const hxd_cstate *st, const char *label)
{
	static const int types[] = { HXD_OBJ_BODY, HXD_OBJ_XBODY, HXD_OBJ_GEOM,
		HXD_OBJ_SITE };
	double got[6], world[6];
	const char *name;
	hxd_qresult want;
	char what[160];
	int t, local, acc, rc;

	for (acc = 0; acc < 2; acc++)
		for (t = 0; t < 4; t++)
			for (local = 0; local < 2; local++) {
				name = types[t] == HXD_OBJ_GEOM ? sc->geom :
				    types[t] == HXD_OBJ_SITE    ? sc->site :
								  sc->body;
				hxd_query q = { .kind = acc ?
					    HXD_COMPUTE_OBJECT_ACCELERATION :
					    HXD_COMPUTE_OBJECT_VELOCITY,
					.objtype = types[t],
					.names = &name,
					.nnames = 1,
					.flag = local };

				rc = acc ? hxd_object_acceleration(c, st,
					       types[t], name, local, got) :
					   hxd_object_velocity(c, st, types[t],
					       name, local, got);
				cr_assert_eq(
				    rc, HXD_OK, "%s: %s", label, hxd_error(c));
				snprintf(what, sizeof(what),
				    "%s: object %s of %s %s, flg_local %d",
				    label, acc ? "acceleration" : "velocity",
				    hxd_obj_name(types[t]), name, local);
				ref_one(r, st, &q, &want);
				same_bits(what, got, want.values, 6);
				nonzero(what, got, 6);
				if (local == 0)
					memcpy(world, got, sizeof(world));
				else if (types[t] != HXD_OBJ_XBODY)
					differ(what, got, world, 6);
				result_free(&want);
			}
}

/* Every contact's force, with its geoms' and bodies' ids and names. */
static void
check_contacts(
    hxd_conn *c, const struct ref *r, const hxd_cstate *st, const char *label)
{
	hxd_query q = { .kind = HXD_COMPUTE_CONTACT_FORCE };
	hxd_contact_force *f = NULL;
	hxd_qresult want;
	char what[512];
	int n, i;

	HX_OK(c, hxd_contact_forces(c, st, 0, &f, &n));
	ref_one(r, st, &q, &want);
	cr_assert_gt(want.shape[0], 0, "%s: no contacts in-process", label);
	cr_assert_eq(n, want.shape[0], "%s: %d contacts, in-process %d", label,
	    n, want.shape[0]);
	for (i = 0; i < n; i++) {
		snprintf(what, sizeof(what), "%s: contact %d (%s, %s) force",
		    label, i, f[i].geom1_name, f[i].geom2_name);
		same_bits(what, f[i].force, want.values + 6 * i, 6);
		cr_expect_eq(f[i].geom1, want.ids[4 * i]);
		cr_expect_eq(f[i].geom2, want.ids[4 * i + 1]);
		cr_expect_eq(f[i].body1, want.ids[4 * i + 2]);
		cr_expect_eq(f[i].body2, want.ids[4 * i + 3]);
		cr_expect_str_eq(f[i].geom1_name, want.names[4 * i]);
		cr_expect_str_eq(f[i].geom2_name, want.names[4 * i + 1]);
		cr_expect_str_eq(f[i].body1_name, want.names[4 * i + 2]);
		cr_expect_str_eq(f[i].body2_name, want.names[4 * i + 3]);
		snprintf(what, sizeof(what), "%s: contact %d dist", label, i);
		same_bits(what, &f[i].dist, want.frames + 13 * i, 1);
		snprintf(what, sizeof(what), "%s: contact %d pos", label, i);
		same_bits(what, f[i].pos, want.frames + 13 * i + 1, 3);
		snprintf(what, sizeof(what), "%s: contact %d frame", label, i);
		same_bits(what, f[i].frame, want.frames + 13 * i + 4, 9);
	}
	/* Some contact carries a force. */
	for (i = 0; i < n && f[i].force[0] == 0; i++)
		;
	cr_assert_lt(i, n, "%s: no contact carries a normal force", label);
	free(f);
	result_free(&want);
}

/* mj_energyPos and mj_energyVel. */
static void
check_energy(
    hxd_conn *c, const struct ref *r, const hxd_cstate *st, const char *label)
{
	hxd_query q = { .kind = HXD_COMPUTE_ENERGY };
	hxd_qresult want;
	double e[2];
	char what[128];

	snprintf(what, sizeof(what), "%s: hxd_energy", label);
	HX_OK(c, hxd_energy(c, st, e));
	ref_one(r, st, &q, &want);
	same_bits(what, e, want.values, 2);
	cr_assert(e[0] != 0 && e[1] != 0, "%s: %g %g", what, e[0], e[1]);
	result_free(&want);
}

/*
 * Rays down onto the excluded body (seeing it, or what is under it when
 * it is excluded), one up into nothing, one sideways; with no options,
 * geom groups, the body excluded, static geoms skipped.
 */
#define NRAYS 5
static void
check_rays(hxd_conn *c, const struct ref *r, const struct scene *sc,
    const hxd_cstate *st, const char *label)
{
	static const unsigned char groups[6] = { 1, 0, 1, 0, 0, 0 };
	double pnt[3 * NRAYS], vec[3 * NRAYS], args[6 * NRAYS], dist[NRAYS];
	double plain[NRAYS];
	int geomid[NRAYS], plain_id[NRAYS], i, o;
	hxd_ray_options opts[4] = {
		{ 0 },
		{ .geomgroup = groups },
		{ .exclude_body = sc->exclude },
		{ .exclude_static = 1 },
	};
	hxd_qresult want;
	char what[128];

	for (i = 0; i < NRAYS; i++) {
		pnt[3 * i] = sc->ray_from[0] + 0.004 * i;
		pnt[3 * i + 1] = sc->ray_from[1] - 0.003 * i;
		pnt[3 * i + 2] = sc->ray_from[2];
		vec[3 * i] = 0.01 * i;
		vec[3 * i + 1] = 0;
		vec[3 * i + 2] = -1;
	}
	vec[3 * 3 + 2] = 1; /* up: nothing */
	vec[3 * 4] = 1;     /* sideways, then down */
	vec[3 * 4 + 2] = -0.2;
	for (i = 0; i < NRAYS; i++) {
		memcpy(args + 6 * i, pnt + 3 * i, 3 * sizeof(double));
		memcpy(args + 6 * i + 3, vec + 3 * i, 3 * sizeof(double));
	}
	for (o = 0; o < 4; o++) {
		hxd_query q = { .kind = HXD_COMPUTE_RAY,
			.args = args,
			.nargs = 6 * NRAYS,
			.geomgroup = opts[o].geomgroup,
			.exclude_static = opts[o].exclude_static,
			.exclude_body = opts[o].exclude_body };

		memset(geomid, 0x55, sizeof(geomid));
		HX_OK(c,
		    hxd_rays(c, st, NRAYS, pnt, vec, &opts[o], geomid, dist));
		ref_one(r, st, &q, &want);
		snprintf(
		    what, sizeof(what), "%s: hxd_rays, options %d", label, o);
		same_bits(what, dist, want.values, NRAYS);
		for (i = 0; i < NRAYS; i++)
			cr_expect_eq(geomid[i], want.ids[i],
			    "%s: ray %d hit geom %d, in-process %d", what, i,
			    geomid[i], want.ids[i]);
		cr_assert_geq(
		    geomid[0], 0, "%s: the first ray hit nothing", what);
		cr_assert_eq(
		    geomid[3], -1, "%s: the ray up hit %d", what, geomid[3]);
		if (o == 0) {
			memcpy(plain, dist, sizeof(plain));
			memcpy(plain_id, geomid, sizeof(plain_id));
		} else if (o == 2)
			cr_assert_neq(geomid[0], plain_id[0],
			    "%s: the excluded body was hit", what);
		result_free(&want);
	}
	/* One ray alone. */
	HX_OK(c, hxd_ray(c, st, pnt, vec, NULL, geomid, dist));
	cr_assert(geomid[0] == plain_id[0] &&
		memcmp(dist, plain, sizeof(double)) == 0,
	    "%s: hxd_ray: %d at %.17g, hxd_rays %d at %.17g", label, geomid[0],
	    dist[0], plain_id[0], plain[0]);
}

/* Positions alone: mj_differentiatePos and mj_integratePos. */
static void
check_positions(hxd_conn *c, const struct ref *r, const hxd_cstate *st)
{
	const mjModel *m = r->m;
	int nq = m->nq, nv = m->nv;
	double *qpos = malloc((size_t)nq * sizeof(double));
	double *qvel = malloc((size_t)nv * sizeof(double));
	double *args = malloc(2 * ((size_t)nq + nv) * sizeof(double));
	hxd_qresult want;

	cr_assert(qpos && qvel && args);
	HX_OK(c,
	    hxd_differentiate_pos(
		c, qvel, nv, 0.01, r->in[IN_QPOS], st->qpos, nq));
	memcpy(args, r->in[IN_QPOS], (size_t)nq * sizeof(double));
	memcpy(args + nq, st->qpos, (size_t)nq * sizeof(double));
	{
		hxd_query q = { .kind = HXD_COMPUTE_DIFFERENTIATE_POS,
			.args = args,
			.nargs = 2 * nq,
			.dt = 0.01 };

		ref_one(r, NULL, &q, &want);
		same_bits(
		    "hxd_differentiate_pos", qvel, want.values, (size_t)nv);
		nonzero("hxd_differentiate_pos", qvel, (size_t)nv);
		result_free(&want);
	}
	memcpy(qpos, r->in[IN_QPOS], (size_t)nq * sizeof(double));
	HX_OK(c, hxd_integrate_pos(c, qpos, nq, st->qvel, nv, 0.02));
	memcpy(args + nq, st->qvel, (size_t)nv * sizeof(double));
	{
		hxd_query q = { .kind = HXD_COMPUTE_INTEGRATE_POS,
			.args = args,
			.nargs = nq + nv,
			.dt = 0.02 };

		ref_one(r, NULL, &q, &want);
		same_bits("hxd_integrate_pos", qpos, want.values, (size_t)nq);
		differ("hxd_integrate_pos", qpos, r->in[IN_QPOS], (size_t)nq);
		result_free(&want);
	}
	free(qpos);
	free(qvel);
	free(args);
}

/* Every function on one state (NULL: the live one). */
static void
check_functions(hxd_conn *c, const struct ref *r, const struct scene *sc,
    const hxd_cstate *st, const char *label)
{
	check_arrays(c, r, st, label);
	check_inverse(c, r, st, label);
	check_mass(c, r, st, label);
	check_jacobians(c, r, sc, st, label);
	check_motion(c, r, sc, st, label);
	check_contacts(c, r, st, label);
	check_energy(c, r, st, label);
	check_rays(c, r, sc, st, label);
}

/*------------------------------------- many queries on many states */

/* Every kind, in an order where one changes what the next reads. */
#define NQUERIES 23
static int
queries_make(const struct ref *r, const struct scene *sc, hxd_query *q,
    double *y, double *pts, double *rays, double *pos2, double *posvel,
    const char **bodies, int *ids, const char *const *one)
{
	static const char *const a_bias[] = { "qfrc_bias" };
	static const char *const a_efc[] = { "efc_force" };
	static const char *const a_cacc[] = { "cacc" };
	static const char *const a_qacc[] = { "qacc" };
	static const unsigned char groups[6] = { 1, 1, 1, 1, 0, 0 };
	const mjModel *m = r->m;
	int nv = m->nv, nq = m->nq, n = 0, i;

	for (i = 0; i < nv; i++) {
		y[i] = cos(i * 0.3);
		y[nv + i] = 1.0 / (i + 1);
		y[2 * nv + i] = i % 2 ? -1 : 1;
	}
	for (i = 0; i < 3; i++) {
		pts[3 * i] = sc->ray_from[0] + 0.01 * i;
		pts[3 * i + 1] = sc->ray_from[1];
		pts[3 * i + 2] = 0.8 + 0.05 * i;
		rays[6 * i] = sc->ray_from[0] - 0.005 * i;
		rays[6 * i + 1] = sc->ray_from[1] + 0.002 * i;
		rays[6 * i + 2] = sc->ray_from[2];
		rays[6 * i + 3] = 0;
		rays[6 * i + 4] = 0.001 * i;
		rays[6 * i + 5] = -2;
	}
	memcpy(pos2, r->in[IN_QPOS], (size_t)nq * sizeof(double));
	memcpy(pos2 + nq, r->in[IN_QPOS], (size_t)nq * sizeof(double));
	pos2[nq + nq - 1] += 0.01;
	memcpy(posvel, r->in[IN_QPOS], (size_t)nq * sizeof(double));
	for (i = 0; i < nv; i++)
		posvel[nq + i] = 0.1 * sin(i + 2.0);
	bodies[0] = sc->body;
	bodies[1] = sc->body2;
	ids[0] = ref_name2id(m, mjOBJ_GEOM, sc->geom);
	ids[1] = ref_name2id(m, mjOBJ_SITE, sc->site);
	ids[2] = m->nbody - 1;

	q[n++] = (hxd_query){
		.kind = HXD_COMPUTE_ARRAY, .names = a_bias, .nnames = 1
	};
	q[n++] = (hxd_query){
		.kind = HXD_COMPUTE_ARRAY, .names = a_efc, .nnames = 1
	};
	q[n++] = (hxd_query){ .kind = HXD_COMPUTE_CONTACT_FORCE };
	q[n++] = (hxd_query){ .kind = HXD_COMPUTE_INVERSE };
	/* After mj_inverse: its efc_force, and the contacts' forces. */
	q[n++] = (hxd_query){
		.kind = HXD_COMPUTE_ARRAY, .names = a_efc, .nnames = 1
	};
	q[n++] = (hxd_query){ .kind = HXD_COMPUTE_CONTACT_FORCE };
	q[n++] = (hxd_query){ .kind = HXD_COMPUTE_FULL_M };
	q[n++] = (hxd_query){
		.kind = HXD_COMPUTE_SOLVE_M, .args = y, .nargs = 3 * nv
	};
	q[n++] = (hxd_query){ .kind = HXD_COMPUTE_RNE, .flag = 1 };
	q[n++] = (hxd_query){ .kind = HXD_COMPUTE_RNE, .flag = 0 };
	/* Three points on one body. */
	q[n++] = (hxd_query){ .kind = HXD_COMPUTE_JAC,
		.names = one,
		.nnames = 1,
		.args = pts,
		.nargs = 9 };
	q[n++] = (hxd_query){
		.kind = HXD_COMPUTE_JAC_BODY, .names = bodies, .nnames = 2
	};
	q[n++] = (hxd_query){
		.kind = HXD_COMPUTE_JAC_BODY_COM, .ids = &ids[2], .nids = 1
	};
	q[n++] = (hxd_query){
		.kind = HXD_COMPUTE_JAC_GEOM, .ids = &ids[0], .nids = 1
	};
	q[n++] = (hxd_query){
		.kind = HXD_COMPUTE_JAC_SITE, .ids = &ids[1], .nids = 1
	};
	q[n++] = (hxd_query){ .kind = HXD_COMPUTE_OBJECT_VELOCITY,
		.objtype = HXD_OBJ_BODY,
		.names = bodies,
		.nnames = 2,
		.flag = 1 };
	q[n++] = (hxd_query){ .kind = HXD_COMPUTE_OBJECT_ACCELERATION,
		.objtype = HXD_OBJ_SITE,
		.ids = &ids[1],
		.nids = 1 };
	/* After mj_rnePostConstraint: cacc; qacc as the state left it. */
	q[n++] = (hxd_query){
		.kind = HXD_COMPUTE_ARRAY, .names = a_cacc, .nnames = 1
	};
	q[n++] = (hxd_query){ .kind = HXD_COMPUTE_ENERGY };
	q[n++] = (hxd_query){ .kind = HXD_COMPUTE_RAY,
		.args = rays,
		.nargs = 18,
		.geomgroup = groups,
		.exclude_body = sc->exclude };
	q[n++] = (hxd_query){
		.kind = HXD_COMPUTE_ARRAY, .names = a_qacc, .nnames = 1
	};
	/* Positions alone, which need no state. */
	q[n++] = (hxd_query){ .kind = HXD_COMPUTE_DIFFERENTIATE_POS,
		.args = pos2,
		.nargs = 2 * nq,
		.dt = 0.005 };
	q[n++] = (hxd_query){ .kind = HXD_COMPUTE_INTEGRATE_POS,
		.args = posvel,
		.nargs = nq + nv,
		.dt = 0.5 };
	cr_assert_eq(n, NQUERIES);
	return n;
}

/* hxd_compute of every query on each state (none: the live one). */
static void
check_compute(hxd_conn *c, const struct ref *r, const struct scene *sc,
    const hxd_cstate *states, int nstates, const char *label)
{
	int nv = r->m->nv, nq = r->m->nq, nrun = nstates > 0 ? nstates : 1;
	double *y = malloc(3 * (size_t)nv * sizeof(double));
	double pts[9], rays[18];
	double *pos2 = malloc(2 * (size_t)nq * sizeof(double));
	double *posvel = malloc(((size_t)nq + nv) * sizeof(double));
	const char *bodies[2], *one[1] = { sc->body };
	hxd_query q[NQUERIES];
	hxd_qresult *res = NULL, want;
	int ids[3], n, s, k;
	char what[160];
	mjData *d;

	cr_assert(y && pos2 && posvel);
	n = queries_make(
	    r, sc, q, y, pts, rays, pos2, posvel, bodies, ids, one);
	HX_OK(c, hxd_compute(c, q, n, states, nstates, 0, &res));
	for (s = 0; s < nrun; s++) {
		d = ref_forward(r, nstates > 0 ? &states[s] : NULL);
		cr_assert_gt(
		    d->ncon, 0, "%s: state %d has no contacts", label, s);
		for (k = 0; k < n; k++) {
			snprintf(what, sizeof(what),
			    "%s: hxd_compute state %d, query %d (kind %d)",
			    label, s, k, q[k].kind);
			ref_query(r->m, d, &q[k], &want);
			same_result(what, &res[s * n + k], &want);
			result_free(&want);
		}
		mj_deleteData(d);
	}
	/*
	 * The order is kept: mj_inverse of a state's own qacc (state 2)
	 * changed efc_force, which the queries after it read.
	 */
	if (nstates > 2)
		cr_assert(res[2 * n + 1].nvalues == res[2 * n + 4].nvalues &&
			memcmp(res[2 * n + 1].values, res[2 * n + 4].values,
			    res[2 * n + 1].nvalues * sizeof(double)) != 0,
		    "%s: efc_force the same before and after mj_inverse",
		    label);
	hxd_qresults_free(res, nrun * n);
	free(y);
	free(pos2);
	free(posvel);
}

/*------------------------------------------- the whole, on each scene */

static void
exactness(const char *addr, const char *file, const struct scene *sc)
{
	hxd_conn *c = hx_connect_ok(addr, "test_compute");
	struct snapshot before, after;
	hxd_cstate states[4], given;
	struct ref r;
	char label[64];
	int i;

	scene_setup(c, sc, 300);
	snapshot_take(c, &before);
	ref_open(c, &r);
	cr_assert_eq(r.m->nq, hxd_welcome_model(c)->nq);

	/* The model's change reached the MJB (the XML would not have it). */
	cr_assert_eq(
	    r.m->geom_friction[3 * ref_name2id(r.m, mjOBJ_GEOM, sc->exclude)],
	    0.85);

	snprintf(label, sizeof(label), "%s, live state", file);
	check_functions(c, &r, sc, NULL, label);

	state_make(&r, &given, 1);
	snprintf(label, sizeof(label), "%s, a given state", file);
	check_functions(c, &r, sc, &given, label);
	check_positions(c, &r, &given);
	{
		/* The given state is not the live one. */
		hxd_query q = { .kind = HXD_COMPUTE_ARRAY,
			.names = (const char *[]){ "qfrc_bias" },
			.nnames = 1 };
		hxd_qresult a, b;

		ref_one(&r, NULL, &q, &a);
		ref_one(&r, &given, &q, &b);
		differ("qfrc_bias of the given and live states", a.values,
		    b.values, a.nvalues);
		result_free(&a);
		result_free(&b);
	}

	/* Several states in one call: some arrays given, some live. */
	snprintf(label, sizeof(label), "%s, the live state", file);
	check_compute(c, &r, sc, NULL, 0, label);
	for (i = 0; i < 4; i++)
		state_make(&r, &states[i], 0.5 + i);
	states[0].qvel = (free((void *)states[0].qvel), NULL);
	states[0].ctrl = (free((void *)states[0].ctrl), NULL);
	states[1].qpos = (free((void *)states[1].qpos), NULL);
	states[1].qacc_warmstart = (free((void *)states[1].qacc_warmstart),
	    NULL);
	{
		double *qacc = malloc((size_t)r.m->nv * sizeof(double));

		cr_assert_not_null(qacc);
		for (i = 0; i < r.m->nv; i++)
			qacc[i] = 0.3 * cos(i * 1.3);
		states[2].qacc = qacc;
	}
	/* Given, and the same as the live one. */
	states[3].mocap_quat = (double *)r.in[IN_MOCAP_QUAT];
	snprintf(label, sizeof(label), "%s, 4 states", file);
	check_compute(c, &r, sc, states, 4, label);
	states[3].mocap_quat = NULL;

	/* Nothing of the live simulation moved. */
	snapshot_take(c, &after);
	snapshot_same(&before, &after);

	for (i = 0; i < 4; i++)
		state_free(&states[i]);
	state_free(&given);
	ref_close(&r);
	hxd_close(c);
}

HX_TRANSPORT_TEST(
    compute, mpl_scene_bit_for_bit, "-m", "mpl_scene.xml", "--paused", NULL)
{
	(void)srv;
	exactness(addr, "mpl_scene.xml", &mpl);
}

HX_TRANSPORT_TEST(
    compute, fixture_bit_for_bit, "-m", "fixture.xml", "--paused", NULL)
{
	(void)srv;
	exactness(addr, "fixture.xml", &fixture);
}

/*----------------------------------------------------- the last step */

typedef void (*step_fn)(const mjModel *, mjData *);

/* MuJoCo's own mj_step (libhaptix's HAPTIX mj_step shadows it). */
static step_fn
mujoco_step(void)
{
	Dl_info info;
	void *lib, *fn;

	cr_assert(
	    dladdr((void *)mj_forward, &info) != 0 && info.dli_fname != NULL,
	    "where is MuJoCo?");
	lib = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
	cr_assert_not_null(lib, "%s: %s", info.dli_fname, dlerror());
	fn = dlsym(lib, "mj_step");
	cr_assert_not_null(fn, "mj_step: %s", dlerror());
	dlclose(lib);
	return (step_fn)fn;
}

/*
 * last_step: the contact forces of the step just taken, as MuJoCo's
 * mj_step left them in the live data, without a forward pass: the step
 * taken again here from the inputs read before it.
 */
HX_TRANSPORT_TEST(compute, last_step_is_the_step_taken, "-m", "mpl_scene.xml",
    "--paused", NULL)
{
	static const char *const efc[] = { "efc_force" };
	hxd_conn *c = hx_connect_ok(addr, "test_compute");
	step_fn step = mujoco_step();
	hxd_query q[2] = {
		{ .kind = HXD_COMPUTE_CONTACT_FORCE },
		{ .kind = HXD_COMPUTE_ARRAY, .names = efc, .nnames = 1 },
	};
	hxd_contact_force *f = NULL, *fwd = NULL;
	hxd_contacts *live = NULL;
	hxd_qresult *res = NULL, want;
	struct snapshot before, after;
	hxd_array *a;
	struct ref r;
	unsigned taken;
	mjData *d;
	int n, nf, i, j, differs = 0;
	char what[96];

	(void)srv;
	scene_setup(c, &mpl, 250);
	ref_open(c, &r);
	HX_OK(c, hxd_step(c, 1, &taken));
	d = mj_makeData(r.m);
	d->time = r.time;
	for (i = 0; i < NINPUTS; i++) {
		mjtNum *dst = input_ptr(r.m, d, i, &n);

		if (n > 0)
			memcpy(dst, r.in[i], (size_t)n * sizeof(double));
	}
	step(r.m, d);
	/* The step here is the daemon's: the state after it, bit for bit. */
	for (i = 0; i < NINPUTS; i++) {
		mjtNum *p = input_ptr(r.m, d, i, &n);

		a = array_get(c, input_names[i]);
		snprintf(what, sizeof(what), "live %s after the step",
		    input_names[i]);
		cr_assert(same_bits(what, a->values, p, (size_t)n));
		free(a);
	}

	snapshot_take(c, &before);
	HX_OK(c, hxd_contact_forces(c, NULL, 1, &f, &n));
	ref_query(r.m, d, &q[0], &want);
	cr_assert_gt(d->ncon, 0);
	cr_assert_eq(
	    n, d->ncon, "last_step: %d contacts, the step's %d", n, d->ncon);
	for (i = 0; i < n; i++) {
		snprintf(what, sizeof(what), "last_step contact %d force", i);
		same_bits(what, f[i].force, want.values + 6 * i, 6);
		cr_expect(f[i].geom1 == want.ids[4 * i] &&
		    f[i].geom2 == want.ids[4 * i + 1] &&
		    f[i].body1 == want.ids[4 * i + 2] &&
		    f[i].body2 == want.ids[4 * i + 3]);
		cr_expect_str_eq(f[i].geom1_name, want.names[4 * i]);
		cr_expect_str_eq(f[i].body2_name, want.names[4 * i + 3]);
		snprintf(what, sizeof(what), "last_step contact %d frame", i);
		same_bits(what, f[i].frame, want.frames + 13 * i + 4, 9);
		same_bits(what, f[i].pos, want.frames + 13 * i + 1, 3);
		same_bits(what, &f[i].dist, want.frames + 13 * i, 1);
	}
	result_free(&want);

	/* The live contact list says the same (hxd_get_contact). */
	HX_OK(c, hxd_get_contact(c, &live));
	cr_assert_eq(live->ncon, n);
	for (i = 0; i < n; i++) {
		cr_expect(live->geom1[i] == f[i].geom1 &&
		    live->geom2[i] == f[i].geom2);
		snprintf(what, sizeof(what), "get_contact %d force", i);
		same_bits(what, live->force + 3 * i, f[i].force, 3);
		same_bits(what, live->pos + 3 * i, f[i].pos, 3);
	}
	free(live);

	/* The general call: the step's efc_force too, the live one. */
	HX_OK(c, hxd_compute(c, q, 2, NULL, 0, 1, &res));
	ref_query(r.m, d, &q[1], &want);
	same_result("last_step efc_force", &res[1], &want);
	a = array_get(c, "efc_force");
	same_bits("last_step efc_force, the live one", res[1].values, a->values,
	    res[1].nvalues);
	free(a);
	result_free(&want);
	hxd_qresults_free(res, 2);

	/* Not what a forward pass of the state gives. */
	HX_OK(c, hxd_contact_forces(c, NULL, 0, &fwd, &nf));
	for (i = 0; i < n && i < nf; i++)
		for (j = 0; j < 6; j++)
			differs |= fwd[i].force[j] != f[i].force[j];
	cr_assert(differs || nf != n,
	    "last_step's forces are the forward pass's: a test that cannot "
	    "tell them apart");
	free(f);
	free(fwd);
	snapshot_take(c, &after);
	snapshot_same(&before, &after);
	mj_deleteData(d);
	ref_close(&r);
	hxd_close(c);
}

/*--------------------------------------------------------- refusals */

/* hxd_compute of one query q on the live state, expected to fail. */
#define COMPUTE_FAILS(c, q, code, word) \
	do { \
		hxd_qresult *res_ = NULL; \
		HX_FAILS_WITH(c, hxd_compute(c, &(q), 1, NULL, 0, 0, &res_), \
		    code, word); \
		cr_assert_null(res_); \
	} while (0)

HX_TRANSPORT_TEST(compute, refusals, "-m", "fixture.xml", "--paused", NULL)
{
	const hxd_model *wm;
	hxd_conn *c = hx_connect_ok(addr, "test_compute"), *other;
	double jac[3 * 8 * 2], v[6], e[2], big[3 * 4097], dir[3 * 4097];
	double nan = NAN, qpos[9], qvel[9], qacc[8] = { 0 }, dist[4097];
	int geoms[4097], id, i;
	hxd_cstate st, *many;
	hxd_qresult *res = NULL;
	hxd_contact_force *f = NULL;
	const char *names[] = { "link2" };
	hxd_array *a;

	(void)srv;
	wm = hxd_welcome_model(c);
	cr_assert_eq(wm->nv, 8);
	cr_assert_eq(wm->nq, 9);

	/* Unknown names, by their type. */
	HX_FAILS_WITH(c, hxd_jac_site(c, NULL, "nosuchsite", jac, NULL, 8),
	    HXD_BADINDEX, "nosuchsite");
	HX_SAYS(c, "site");
	HX_FAILS_WITH(c, hxd_jac_body(c, NULL, "nosuchbody", jac, jac, 8),
	    HXD_BADINDEX, "nosuchbody");
	HX_SAYS(c, "body");
	HX_FAILS_WITH(c, hxd_jac_geom(c, NULL, "nosuchgeom", jac, jac, 8),
	    HXD_BADINDEX, "nosuchgeom");
	HX_SAYS(c, "geom");
	HX_FAILS_WITH(c,
	    hxd_object_velocity(c, NULL, HXD_OBJ_GEOM, "tip", 0, v),
	    HXD_BADINDEX, "tip");
	{
		hxd_ray_options o = { .exclude_body = "nobody" };
		double p[3] = { 0, 0, 2 }, dv[3] = { 0, 0, -1 };
		int g;
		double dd;

		HX_FAILS_WITH(c, hxd_ray(c, NULL, p, dv, &o, &g, &dd),
		    HXD_BADINDEX, "nobody");
	}
	/* A type the motions do not take. */
	HX_FAILS_WITH(c,
	    hxd_object_velocity(c, NULL, HXD_OBJ_JOINT, "hinge1", 0, v),
	    HXD_BADTYPE, "objtype");
	/* An array that is not one. */
	HX_FAILS_WITH(c,
	    hxd_forward_array(c, NULL, "nosucharray", v, 6, &id, &i),
	    HXD_BADTYPE, "nosucharray");

	/* Ids out of range. */
	{
		int bad[] = { 5 }, neg[] = { -1 };
		hxd_query q = {
			.kind = HXD_COMPUTE_JAC_BODY, .ids = bad, .nids = 1
		};

		COMPUTE_FAILS(c, q, HXD_BADINDEX, "out of range");
		HX_SAYS(c, "5");
		q.ids = neg;
		COMPUTE_FAILS(c, q, HXD_BADINDEX, "out of range");
		q = (hxd_query){ .kind = HXD_COMPUTE_OBJECT_VELOCITY,
			.objtype = HXD_OBJ_SITE,
			.ids = bad,
			.nids = 1 };
		bad[0] = 2; /* two sites */
		COMPUTE_FAILS(c, q, HXD_BADINDEX, "site id 2");
		q.names = names;
		q.nnames = 1;
		bad[0] = 0;
		COMPUTE_FAILS(c, q, HXD_BADVALUE, "not both");
		q = (hxd_query){ .kind = HXD_COMPUTE_JAC_GEOM };
		COMPUTE_FAILS(c, q, HXD_BADVALUE, "no objects");
	}

	/* A state's array of the wrong size, and NaN in a state. */
	hxd_cstate_init(&st, wm);
	for (i = 0; i < 9; i++)
		qpos[i] = i == 6 ? 1 : 0.1;
	for (i = 0; i < 8; i++)
		qvel[i] = 0;
	st.qpos = qpos;
	st.nq = 8;
	HX_FAILS_WITH(c, hxd_energy(c, &st, e), HXD_BADSIZE, "qpos");
	HX_SAYS(c, "8");
	st.nq = 9;
	st.qvel = qvel;
	st.nv = 9;
	HX_FAILS_WITH(c, hxd_energy(c, &st, e), HXD_BADSIZE, "qvel");
	st.nv = 8;
	qvel[3] = nan;
	HX_FAILS_WITH(c, hxd_energy(c, &st, e), HXD_BADVALUE, "qvel");
	HX_SAYS(c, "finite");
	qvel[3] = 0;
	st.qacc = qacc;
	qacc[7] = INFINITY;
	HX_FAILS_WITH(c, hxd_inverse(c, &st, v, 8), HXD_BADVALUE, "qacc");
	qacc[7] = 0;
	HX_OK(c, hxd_energy(c, &st, e));
	/* Finite, but past MuJoCo's mjMAXVAL, from which a step resets. */
	qpos[0] = -1e11;
	HX_FAILS_WITH(c, hxd_energy(c, &st, e), HXD_BADVALUE, "mjMAXVAL");
	HX_SAYS(c, "qpos[0]");
	qpos[0] = 0.1;

	/* NaN in the arguments and in dt. */
	{
		double y[16];
		double p[3] = { 0.1, NAN, 0.7 };

		for (i = 0; i < 16; i++)
			y[i] = i == 11 ? NAN : 1;
		HX_FAILS_WITH(c, hxd_solve_m(c, NULL, jac, y, 2, 8),
		    HXD_BADVALUE, "finite");
		HX_SAYS(c, "11");
		HX_FAILS_WITH(c, hxd_jac(c, NULL, "link2", p, jac, jac, 8),
		    HXD_BADVALUE, "finite");
		HX_FAILS_WITH(c, hxd_integrate_pos(c, qpos, 9, qvel, 8, NAN),
		    HXD_BADVALUE, "dt");
	}

	/* Args not a multiple of an item's, none where some are needed. */
	{
		double y[20] = { 0 };
		hxd_query q = {
			.kind = HXD_COMPUTE_SOLVE_M, .args = y, .nargs = 12
		};

		COMPUTE_FAILS(c, q, HXD_BADSIZE, "not a multiple of 8");
		q = (hxd_query){
			.kind = HXD_COMPUTE_RAY, .args = y, .nargs = 7
		};
		COMPUTE_FAILS(c, q, HXD_BADSIZE, "not a multiple of 6");
		q = (hxd_query){
			.kind = HXD_COMPUTE_ENERGY, .args = y, .nargs = 3
		};
		COMPUTE_FAILS(c, q, HXD_BADSIZE, "takes no args (3 given)");
		q = (hxd_query){ .kind = HXD_COMPUTE_RAY };
		COMPUTE_FAILS(c, q, HXD_BADSIZE, "no args");
		/* mj_differentiatePos divides by dt: 0 gave inf and NaN. */
		q = (hxd_query){ .kind = HXD_COMPUTE_DIFFERENTIATE_POS,
			.args = y,
			.nargs = 18 }; /* the fixture: nq 9 */
		COMPUTE_FAILS(c, q, HXD_BADVALUE, "dt is 0");
		q = (hxd_query){ .kind = HXD_COMPUTE_JAC,
			.names = (const char *[]){ "link1", "link2" },
			.nnames = 2,
			.args = y,
			.nargs = 9 };
		COMPUTE_FAILS(c, q, HXD_BADSIZE, "2 bodies for 3 points");
	}

	/* A ray without a direction. */
	{
		double p[6] = { 0, 0, 2, 0.1, 0, 2 };
		double dv[6] = { 0, 0, -1, 0, 0, 0 };
		double dd[2];
		int g[2];

		HX_FAILS_WITH(c, hxd_rays(c, NULL, 2, p, dv, NULL, g, dd),
		    HXD_BADVALUE, "ray 1");
		HX_SAYS(c, "no direction");
	}

	/* More rays than one query takes. */
	for (i = 0; i < 4097; i++) {
		big[3 * i] = 0.001 * i;
		big[3 * i + 1] = 0;
		big[3 * i + 2] = 2;
		dir[3 * i] = dir[3 * i + 1] = 0;
		dir[3 * i + 2] = -1;
	}
	HX_FAILS_WITH(c, hxd_rays(c, NULL, 4097, big, dir, NULL, geoms, dist),
	    HXD_BADSIZE, "4097");
	HX_SAYS(c, "4096");
	HX_OK(c, hxd_rays(c, NULL, 4096, big, dir, NULL, geoms, dist));
	cr_assert_geq(geoms[0], 0);

	/* A kind that is not one. */
	{
		hxd_query q = { .kind = 17 };

		COMPUTE_FAILS(c, q, HXD_BADTYPE, "kind 17");
		q.kind = -1;
		COMPUTE_FAILS(c, q, HXD_BADTYPE, "not a computation");
	}

	/* Too many states, too many queries. */
	many = calloc(1001, sizeof(*many));
	cr_assert_not_null(many);
	for (i = 0; i < 1001; i++)
		hxd_cstate_init(&many[i], wm);
	{
		hxd_query q = { .kind = HXD_COMPUTE_ENERGY };
		hxd_query q65[65];

		HX_FAILS_WITH(c, hxd_compute(c, &q, 1, many, 1001, 0, &res),
		    HXD_BADSIZE, "1001 states");
		HX_SAYS(c, "1000");
		cr_assert_null(res);
		HX_OK(c, hxd_compute(c, &q, 1, many, 1000, 0, &res));
		hxd_qresults_free(res, 1000);
		res = NULL;
		for (i = 0; i < 65; i++)
			q65[i] = q;
		HX_FAILS_WITH(c, hxd_compute(c, q65, 65, NULL, 0, 0, &res),
		    HXD_BADSIZE, "65 queries");

		/* last_step with states: the server's refusal and the
		 * library's. */
		HX_FAILS_WITH(c, hxd_compute(c, &q, 1, many, 1, 1, &res),
		    HXD_BADVALUE, "last_step");
		cr_assert_null(res);
	}
	free(many);
	HX_FAILS_WITH(c, hxd_contact_forces(c, &st, 1, &f, &i), HXD_BADVALUE,
	    "last_step");
	cr_assert_null(f);

	/* An answer of another model's size: nothing written. */
	for (i = 0; i < 6; i++)
		v[i] = 7;
	HX_FAILS_WITH(c, hxd_rne(c, NULL, 0, v, 6), HXD_BADSIZE, "8");
	for (i = 0; i < 6; i++)
		cr_assert_eq(v[i], 7, "v[%d] written", i);

	/*
	 * Still serving, this client and another; a read that another's
	 * lease does not stop, where a write is refused.
	 */
	HX_OK(c, hxd_energy(c, NULL, e));
	other = hx_connect_ok(addr, "test_compute_other");
	HX_OK(other, hxd_energy(other, NULL, e));
	a = array_get(other, "qpos");
	cr_assert_eq(a->rows, 9);
	free(a);
	HX_OK(other, hxd_lease(other, HXD_LEASE_TAKE, NULL));
	HX_FAILS_WITH(
	    c, hxd_set_array(c, "ctrl", 0, 1, e), HXD_DENIED, "lease");
	HX_OK(c, hxd_jac_site(c, NULL, "tip", jac, jac + 24, 8));
	HX_OK(c, hxd_contact_forces(c, NULL, 1, &f, &i));
	free(f);
	hxd_close(other);
	hxd_close(c);
}

/* Without a model: refused, and the daemon goes on. */
HX_TRANSPORT_TEST(compute, no_model, "--no-model", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "test_compute");
	hxd_model m;
	double e[2], jac[3 * 8];
	hxd_query q = { .kind = HXD_COMPUTE_ENERGY };
	hxd_qresult *res = NULL;

	(void)srv;
	HX_FAILS_WITH(c, hxd_energy(c, NULL, e), HXD_NOMODEL, "model");
	HX_FAILS(c, hxd_compute(c, &q, 1, NULL, 0, 1, &res), HXD_NOMODEL);
	HX_FAILS(c, hxd_jac_site(c, NULL, "tip", jac, NULL, 1), HXD_NOMODEL);
	HX_OK(c, hxd_load_file(c, "fixture.xml", &m));
	HX_OK(c, hxd_energy(c, NULL, e));
	cr_assert(e[0] != 0);
	HX_OK(c, hxd_jac_site(c, NULL, "tip", jac, NULL, 8));
	hxd_close(c);
}

/*
 * What mj_forward leaves alone reads as fresh mjData holds it, as the
 * program of docs/compute.md's "Exactness" (mj_makeData, the inputs,
 * mj_forward, the call) gets it, and not as an earlier request left it:
 * qfrc_inverse after another request's mj_inverse, and cacc and
 * cfrc_int after an object acceleration in a model without acceleration
 * sensors (whose mj_forward computes neither).
 */
HX_TRANSPORT_TEST(compute, arrays_mj_forward_leaves_alone_are_fresh, "-m",
    "fixture.xml", "--paused", NULL)
{
	static const char
	    xml[] = "<mujoco model=\"nosensors\"><worldbody><body name=\"arm\" "
		    "pos=\"0 0 1\"><joint name=\"j\" axis=\"0 1 0\"/><geom "
		    "type=\"capsule\" fromto=\"0 0 0 0.3 0 0\" size=\"0.02\"/>"
		    "</body></worldbody></mujoco>";
	static const char *const arrays[] = { "qfrc_inverse", "cacc",
		"cfrc_int" };
	hxd_conn *c = hx_connect_ok(addr, "test_compute");
	double out[64], inv[8], acc[6];
	hxd_qresult want;
	unsigned taken;
	struct ref r;
	hxd_model m;
	int rows, cols, i, first;
	char what[128];

	(void)srv;
	for (first = 0; first < 3; first += first == 0 ? 1 : 2) {
		if (first == 0) {
			scene_setup(c, &fixture, 100);
			HX_OK(c, hxd_inverse(c, NULL, inv, 8));
			nonzero("qfrc_inverse", inv, 8);
		} else {
			HX_OK(c,
			    hxd_load_data(c, HXD_FORMAT_MJCF, xml, strlen(xml),
				"nosensors", &m));
			HX_OK(c, hxd_step(c, 20, &taken));
			HX_OK(c,
			    hxd_object_acceleration(
				c, NULL, HXD_OBJ_BODY, "arm", 0, acc));
			nonzero("the arm's acceleration", acc, 6);
		}
		ref_open(c, &r);
		for (i = first; i < (first == 0 ? 1 : 3); i++) {
			hxd_query q = { .kind = HXD_COMPUTE_ARRAY,
				.names = &arrays[i],
				.nnames = 1 };

			HX_OK(c,
			    hxd_forward_array(
				c, NULL, arrays[i], out, 64, &rows, &cols));
			ref_one(&r, NULL, &q, &want);
			cr_assert_eq(rows * cols, (int)want.nvalues);
			snprintf(what, sizeof(what),
			    "%s after an earlier request's computation",
			    arrays[i]);
			same_bits(what, out, want.values, want.nvalues);
			result_free(&want);
		}
		ref_close(&r);
	}
	hxd_close(c);
}

/*--------------------------------------------------- a thousand states */

/* This connection's requests, as the server counts them. */
static unsigned long long
requests(hxd_conn *c)
{
	unsigned long long you, n = 0;
	hxd_client *list;
	int count, i;

	HX_OK(c, hxd_clients(c, &list, &count, &you));
	for (i = 0; i < count; i++)
		if (list[i].id == you)
			n = list[i].requests;
	free(list);
	return n;
}

/*
 * A thousand states of the MPL scene, each with the mass matrix (13 kB),
 * more than a frame of 1 MiB holds: answered in parts, asked again by
 * hxd_compute, every state's results exact, the last one's too.  (The
 * states are all qpos: 350 kB of request fit the frame.)
 */
HX_TRANSPORT_TEST(compute, a_thousand_states_in_parts, "-m", "mpl_scene.xml",
    "--paused", "--max-frame", "1048576", NULL)
{
	static const char *const site[] = { "index_distal" };
	/* A daemon under valgrind takes 40 s for a thousand: 200 will do. */
	const int N = getenv("HX_VALGRIND") != NULL ? 200 : 1000;
	hxd_conn *c = hx_connect_ok(addr, "test_compute");
	hxd_query q[3] = {
		{ .kind = HXD_COMPUTE_FULL_M },
		{ .kind = HXD_COMPUTE_JAC_SITE, .names = site, .nnames = 1 },
		{ .kind = HXD_COMPUTE_ENERGY },
	};
	hxd_cstate *st = calloc(N, sizeof(*st));
	double *qpos;
	hxd_qresult *res = NULL, want;
	unsigned long long r0, r1;
	struct ref r;
	int s, k, nq, j;
	mjData *d;
	char what[96];

	(void)srv;
	cr_assert_not_null(st);
	scene_setup(c, &mpl, 50);
	ref_open(c, &r);
	nq = r.m->nq;
	j = ref_name2id(r.m, mjOBJ_BODY, "index_distal");
	j = r.m->jnt_qposadr[r.m->body_jntadr[j]];
	qpos = malloc((size_t)N * (size_t)nq * sizeof(double));
	cr_assert_not_null(qpos);
	for (s = 0; s < N; s++) {
		hxd_cstate_init(&st[s], hxd_welcome_model(c));
		memcpy(qpos + (size_t)s * nq, r.in[IN_QPOS],
		    (size_t)nq * sizeof(double));
		qpos[(size_t)s * nq + j] = 1.2 * s / N; /* the distal joint */
		st[s].qpos = qpos + (size_t)s * nq;
	}
	r0 = requests(c);
	HX_OK(c, hxd_compute(c, q, 3, st, N, 0, &res));
	r1 = requests(c);
	/*
	 * The hxd_clients call counts once; parts are the rest: 15 kB of
	 * results a state, at most 7/8 of 1 MiB an answer, 62 states.
	 */
	cr_assert_geq(r1 - r0 - 1, (unsigned long long)(N / 62),
	    "%llu requests for %d states of 15 kB each, at most 1 MiB a frame",
	    r1 - r0 - 1, N);
	for (s = 0; s < N; s++) {
		d = ref_forward(&r, &st[s]);
		for (k = 0; k < 3; k++) {
			snprintf(
			    what, sizeof(what), "state %d, query %d", s, k);
			ref_query(r.m, d, &q[k], &want);
			same_result(what, &res[s * 3 + k], &want);
			result_free(&want);
		}
		mj_deleteData(d);
	}
	/* The states differ where the distal joint is. */
	differ("the first and last states' Jacobians", res[1].values,
	    res[(N - 1) * 3 + 1].values, res[1].nvalues);
	hxd_qresults_free(res, 3 * N);
	free(qpos);
	free(st);
	ref_close(&r);
	hxd_close(c);
}
