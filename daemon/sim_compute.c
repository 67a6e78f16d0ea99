/*
 * MuJoCo's computations on a scratch copy of the state: see
 * sim_compute.h.  Each query is the one MuJoCo call (or the few calls) a
 * program linking MuJoCo would make, on data made the way it would make
 * it, so that the results are MuJoCo's bit for bit.
 */
#include "config.h"

#include <string.h>

#include <mujoco/mjxmacro.h>
#include <mujoco/mujoco.h>

#include "sim.h"
#include "sim_array.h"
#include "sim_compute.h"
#include "sim_internal.h"

/* The arrays of MJDATA_POINTERS, each with a flag in struct sim. */
#define X(type, name, nr, nc) +1
enum { SIM_NDATA = 0 MJDATA_POINTERS };
#undef X
_Static_assert(
    SIM_NDATA <= SIM_DATA_ARRAYS, "MJDATA_POINTERS outgrew its flags");

/* The sentinel the probe fills the scratch data's arrays with. */
#define SIM_PROBE_BYTE 0xA5

/* 1 for an array sized by the constraints' or contacts' room. */
static int
sim_constraint_sized(const char *rows, const char *cols)
{
	return strcmp(rows, "njmax") == 0 || strcmp(rows, "nconmax") == 0 ||
	    strstr(cols, "njmax") != NULL;
}

/* 1 if every byte of p's n is the probe's. */
static int
sim_probe_left(const void *p, size_t n)
{
	const unsigned char *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		if (b[i] != SIM_PROBE_BYTE)
			return 0;
	return 1;
}

/*
 * Fill d's arrays with the probe's byte (before a forward pass), or,
 * after it, note those still full of it: the arrays mj_forward leaves
 * alone in this model.  A query may write one of those (mj_inverse's
 * qfrc_inverse, mj_rnePostConstraint's cacc without acceleration
 * sensors), and the next state must not read it: fresh data holds
 * zeros there.  The constraint arrays are left out: only their first
 * nefc or ncon rows (or columns) can be read, which every forward pass
 * writes, and zeroing efc_JT's nv x njmax would cost more than the rest.
 */
static void
sim_probe(struct sim *s, mjData *d, int after)
{
	const mjModel *m = s->m;
	int i = 0;
	MJDATA_POINTERS_PREAMBLE(m)

#define X(type, name, nr, nc) \
	if (!sim_constraint_sized(#nr, #nc)) { \
		size_t len = sizeof(type) * (size_t)(m->nr) * (size_t)(nc); \
		if (!after) \
			memset(d->name, SIM_PROBE_BYTE, len); \
		else \
			s->scratch_stale[i] = len > 0 && \
			    sim_probe_left(d->name, len); \
	} \
	i++;
	MJDATA_POINTERS
#undef X
	    (void)
	nv;
	(void)njmax;
}

/* Zero the arrays the forward pass leaves alone, as fresh data has them. */
static void
sim_clear_stale(const struct sim *s, mjData *d)
{
	const mjModel *m = s->m;
	int i = 0;
	MJDATA_POINTERS_PREAMBLE(m)

#define X(type, name, nr, nc) \
	if (s->scratch_stale[i++]) \
		memset(d->name, 0, \
		    sizeof(type) * (size_t)(m->nr) * (size_t)(nc));
	MJDATA_POINTERS
#undef X
	    (void)
	nv;
	(void)njmax;
}

/* The scratch data for the running model, made on first use. */
static mjData *
sim_scratch(struct sim *s)
{
	if (s->scratch == NULL)
		s->scratch = mj_makeData(s->m);
	return s->scratch;
}

double
sim_compute_max_value(void)
{
	return mjMAXVAL;
}

double
sim_compute_min_length(void)
{
	return mjMINVAL;
}

int
sim_compute_args_per_item(const struct sim *s, enum sim_compute_kind k)
{
	const mjModel *m = s->m;

	switch (k) {
	case SIM_COMPUTE_SOLVE_M:
		return m->nv;
	case SIM_COMPUTE_JAC:
		return 3;
	case SIM_COMPUTE_RAY:
		return 6;
	case SIM_COMPUTE_DIFFERENTIATE_POS:
		return 2 * m->nq;
	case SIM_COMPUTE_INTEGRATE_POS:
		return m->nq + m->nv;
	default:
		return 0;
	}
}

/* n values of an input: the given ones, else the live data's. */
static void
sim_compute_input(mjtNum *dst, const double *given, const mjtNum *live, int n)
{
	if (n > 0)
		memcpy(dst, given != NULL ? given : live,
		    (size_t)n * sizeof(*dst));
}

struct sim_compute_job {
	struct sim *s;
	const struct sim_cstate *st;
	const struct sim_query *q;
	struct sim_result *r;
	int last_step;
};

/* The scratch data as a program would make it: inputs, then forward. */
static void
sim_compute_state_fn(void *arg)
{
	struct sim_compute_job *j = arg;
	const struct sim_cstate none = { 0 }, *st = j->st ? j->st : &none;
	const mjModel *m = j->s->m;
	const mjData *live = j->s->d;
	mjData *d = sim_scratch(j->s);

	if (d == NULL)
		mju_error("could not allocate the scratch mjData");
	if (j->last_step) {
		mj_copyData(d, m, live);
		return;
	}
	if (!j->s->scratch_probed)
		sim_probe(j->s, d, 0);
	else
		sim_clear_stale(j->s, d);
	d->time = live->time;
	sim_compute_input(d->qpos, st->qpos, live->qpos, m->nq);
	sim_compute_input(d->qvel, st->qvel, live->qvel, m->nv);
	sim_compute_input(d->act, st->act, live->act, m->na);
	sim_compute_input(d->ctrl, st->ctrl, live->ctrl, m->nu);
	sim_compute_input(
	    d->mocap_pos, st->mocap_pos, live->mocap_pos, 3 * m->nmocap);
	sim_compute_input(
	    d->mocap_quat, st->mocap_quat, live->mocap_quat, 4 * m->nmocap);
	sim_compute_input(
	    d->qfrc_applied, st->qfrc_applied, live->qfrc_applied, m->nv);
	sim_compute_input(d->xfrc_applied, st->xfrc_applied, live->xfrc_applied,
	    6 * m->nbody);
	sim_compute_input(
	    d->qacc_warmstart, st->qacc_warmstart, live->qacc_warmstart, m->nv);
	sim_compute_input(d->userdata, NULL, live->userdata, m->nuserdata);
	mj_forward(m, d);
	if (!j->s->scratch_probed) {
		sim_probe(j->s, d, 1);
		sim_clear_stale(j->s, d);
		j->s->scratch_probed = 1;
	}
	/* mj_inverse's input, which mj_forward has just computed. */
	if (st->qacc != NULL)
		sim_compute_input(d->qacc, st->qacc, NULL, m->nv);
}

/* After an error the scratch data may be half-computed: start again. */
static int
sim_compute_failed(struct sim *s)
{
	if (s->scratch != NULL)
		mj_resetData(s->m, s->scratch);
	return -1;
}

int
sim_compute_state(struct sim *s, const struct sim_cstate *st, int last_step,
    char *err, size_t len)
{
	struct sim_compute_job j = { s, st, NULL, NULL, last_step };

	if (sim_guarded(sim_compute_state_fn, &j, err, len) != 0)
		return sim_compute_failed(s);
	return 0;
}

/* The number of objects or points a query asks about. */
static size_t
sim_compute_items(const struct sim *s, const struct sim_query *q)
{
	int per = sim_compute_args_per_item(s, q->kind);

	if (per > 0)
		return q->nargs / (size_t)per;
	return q->nids;
}

static void
sim_shape(struct sim_result *r, int ndim, uint32_t a, uint32_t b, uint32_t c,
    uint32_t d)
{
	size_t n = 1;
	int i;

	r->ndim = ndim;
	r->shape[0] = a;
	r->shape[1] = b;
	r->shape[2] = c;
	r->shape[3] = d;
	for (i = 0; i < ndim; i++)
		n *= r->shape[i];
	r->nvalues = n;
}

void
sim_compute_shape(
    const struct sim *s, const struct sim_query *q, struct sim_result *r)
{
	const mjModel *m = s->m;
	struct sim_array_info ai;
	uint32_t nv = (uint32_t)m->nv, nq = (uint32_t)m->nq;
	uint32_t k = (uint32_t)sim_compute_items(s, q);
	uint32_t ncon;

	r->nids = r->nframes = 0;
	switch (q->kind) {
	case SIM_COMPUTE_ARRAY:
		sim_array_describe_in(s, s->scratch, q->ids[0], &ai);
		sim_shape(r, 2, (uint32_t)ai.rows, (uint32_t)ai.cols, 0, 0);
		break;
	case SIM_COMPUTE_INVERSE:
	case SIM_COMPUTE_RNE:
		sim_shape(r, 1, nv, 0, 0, 0);
		break;
	case SIM_COMPUTE_FULL_M:
		sim_shape(r, 2, nv, nv, 0, 0);
		break;
	case SIM_COMPUTE_SOLVE_M:
	case SIM_COMPUTE_DIFFERENTIATE_POS:
		sim_shape(r, 2, k, nv, 0, 0);
		break;
	case SIM_COMPUTE_INTEGRATE_POS:
		sim_shape(r, 2, k, nq, 0, 0);
		break;
	case SIM_COMPUTE_JAC:
	case SIM_COMPUTE_JAC_BODY:
	case SIM_COMPUTE_JAC_BODY_COM:
	case SIM_COMPUTE_JAC_GEOM:
	case SIM_COMPUTE_JAC_SITE:
		sim_shape(r, 4, k, 2, 3, nv);
		break;
	case SIM_COMPUTE_OBJECT_VELOCITY:
	case SIM_COMPUTE_OBJECT_ACCELERATION:
		sim_shape(r, 2, k, 6, 0, 0);
		break;
	case SIM_COMPUTE_CONTACT_FORCE:
		ncon = (uint32_t)s->scratch->ncon;
		sim_shape(r, 2, ncon, 6, 0, 0);
		r->nids = (size_t)ncon * SIM_CONTACT_IDS;
		r->nframes = (size_t)ncon * SIM_CONTACT_FRAMES;
		break;
	case SIM_COMPUTE_ENERGY:
		sim_shape(r, 1, 2, 0, 0, 0);
		break;
	case SIM_COMPUTE_RAY:
		sim_shape(r, 1, k, 0, 0, 0);
		r->nids = k;
		break;
	default:
		sim_shape(r, 0, 0, 0, 0, 0);
		r->nvalues = 0;
		break;
	}
}

/* The id of item i: one body serves every point of a jac. */
static int
sim_item_id(const struct sim_query *q, size_t i)
{
	return q->ids[q->nids == 1 ? 0 : i];
}

/* Jacobians: jacp then jacr, 3 x nv each, for every item. */
static void
sim_compute_jacobians(const mjModel *m, mjData *d, const struct sim_query *q,
    double *out, size_t k)
{
	size_t i, block = 3 * (size_t)m->nv;
	double *jacp, *jacr;
	int id;

	for (i = 0; i < k; i++) {
		jacp = out + 2 * block * i;
		jacr = jacp + block;
		id = sim_item_id(q, i);
		switch (q->kind) {
		case SIM_COMPUTE_JAC:
			mj_jac(m, d, jacp, jacr, q->args + 3 * i, id);
			break;
		case SIM_COMPUTE_JAC_BODY:
			mj_jacBody(m, d, jacp, jacr, id);
			break;
		case SIM_COMPUTE_JAC_BODY_COM:
			mj_jacBodyCom(m, d, jacp, jacr, id);
			break;
		case SIM_COMPUTE_JAC_GEOM:
			mj_jacGeom(m, d, jacp, jacr, id);
			break;
		default:
			mj_jacSite(m, d, jacp, jacr, id);
			break;
		}
	}
}

/* Every contact's force in its frame, with its geoms, bodies and frame. */
static void
sim_compute_contacts(const mjModel *m, const mjData *d, struct sim_result *r)
{
	const mjContact *con;
	double *f;
	int i;

	for (i = 0; i < d->ncon; i++) {
		con = &d->contact[i];
		mj_contactForce(m, d, i, r->values + 6 * i);
		r->ids[SIM_CONTACT_IDS * i + 0] = con->geom1;
		r->ids[SIM_CONTACT_IDS * i + 1] = con->geom2;
		r->ids[SIM_CONTACT_IDS * i + 2] = m->geom_bodyid[con->geom1];
		r->ids[SIM_CONTACT_IDS * i + 3] = m->geom_bodyid[con->geom2];
		f = r->frames + SIM_CONTACT_FRAMES * i;
		f[0] = con->dist;
		memcpy(f + 1, con->pos, 3 * sizeof(*f));
		memcpy(f + 4, con->frame, 9 * sizeof(*f));
	}
}

/* mj_energyPos and mj_energyVel, which compute only when enabled. */
static void
sim_compute_energy(mjModel *m, mjData *d, double out[2])
{
	int flags = m->opt.enableflags;

	m->opt.enableflags |= mjENBL_ENERGY;
	mj_energyPos(m, d);
	mj_energyVel(m, d);
	m->opt.enableflags = flags;
	out[0] = d->energy[0];
	out[1] = d->energy[1];
}

static void
sim_compute_query_fn(void *arg)
{
	struct sim_compute_job *j = arg;
	const struct sim_query *q = j->q;
	struct sim_result *r = j->r;
	mjModel *m = j->s->m;
	mjData *d = j->s->scratch;
	size_t i, k = sim_compute_items(j->s, q);
	size_t nq = (size_t)m->nq, nv = (size_t)m->nv;
	const double *a;

	switch (q->kind) {
	case SIM_COMPUTE_ARRAY:
		sim_array_get_in(j->s, d, q->ids[0], r->values);
		break;
	case SIM_COMPUTE_INVERSE:
		mj_inverse(m, d);
		memcpy(r->values, d->qfrc_inverse, nv * sizeof(double));
		break;
	case SIM_COMPUTE_FULL_M:
		mj_fullM(m, r->values, d->qM);
		break;
	case SIM_COMPUTE_SOLVE_M:
		if (k > 0)
			mj_solveM(m, d, r->values, q->args, (int)k);
		break;
	case SIM_COMPUTE_RNE:
		mj_rne(m, d, q->flag, r->values);
		break;
	case SIM_COMPUTE_JAC:
	case SIM_COMPUTE_JAC_BODY:
	case SIM_COMPUTE_JAC_BODY_COM:
	case SIM_COMPUTE_JAC_GEOM:
	case SIM_COMPUTE_JAC_SITE:
		sim_compute_jacobians(m, d, q, r->values, k);
		break;
	case SIM_COMPUTE_OBJECT_VELOCITY:
		for (i = 0; i < k; i++)
			mj_objectVelocity(m, d, q->objtype, sim_item_id(q, i),
			    r->values + 6 * i, q->flag);
		break;
	case SIM_COMPUTE_OBJECT_ACCELERATION:
		/* cacc, as MuJoCo's documentation asks before this call. */
		mj_rnePostConstraint(m, d);
		for (i = 0; i < k; i++)
			mj_objectAcceleration(m, d, q->objtype,
			    sim_item_id(q, i), r->values + 6 * i, q->flag);
		break;
	case SIM_COMPUTE_CONTACT_FORCE:
		sim_compute_contacts(m, d, r);
		break;
	case SIM_COMPUTE_ENERGY:
		sim_compute_energy(m, d, r->values);
		break;
	case SIM_COMPUTE_RAY:
		for (i = 0; i < k; i++) {
			a = q->args + 6 * i;
			r->values[i] = mj_ray(m, d, a, a + 3, q->geomgroup,
			    (mjtByte)q->flg_static, q->bodyexclude, &r->ids[i]);
		}
		break;
	case SIM_COMPUTE_DIFFERENTIATE_POS:
		for (i = 0; i < k; i++) {
			a = q->args + 2 * nq * i;
			mj_differentiatePos(
			    m, r->values + nv * i, q->dt, a, a + nq);
		}
		break;
	case SIM_COMPUTE_INTEGRATE_POS:
		for (i = 0; i < k; i++) {
			a = q->args + (nq + nv) * i;
			memcpy(r->values + nq * i, a, nq * sizeof(double));
			mj_integratePos(m, r->values + nq * i, a + nq, q->dt);
		}
		break;
	default:
		break;
	}
}

int
sim_compute_query(struct sim *s, const struct sim_query *q,
    struct sim_result *r, char *err, size_t len)
{
	struct sim_compute_job j = { s, NULL, q, r, 0 };
	int flags = s->m->opt.enableflags, rc = 0;

	if (sim_guarded(sim_compute_query_fn, &j, err, len) != 0)
		rc = sim_compute_failed(s);
	/* The energy's flag, also when MuJoCo failed between its calls. */
	s->m->opt.enableflags = flags;
	return rc;
}
