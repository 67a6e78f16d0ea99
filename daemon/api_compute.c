/*
 * MuJoCo's computations over the API (docs/compute.md): queries on the
 * live state or on states the client gives, run in the simulation's
 * scratch data (sim_compute.c).  Every name, size and value is checked
 * before MuJoCo sees it; one request's work is capped at a slice of the
 * loop and at the frame limit, and says how many states it computed.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "api.h"
#include "arena.h"
#include "batch.h"
#include "daemon.h"
#include "monotonic.h"
#include "options.h"
#include "sim.h"
#include "sim_access.h"
#include "sim_array.h"
#include "sim_compute.h"

typedef Haptix__V1__Query Query;
typedef Haptix__V1__ComputeState ComputeState;
typedef Haptix__V1__QueryResult QueryResult;

#define SAME(a, b) _Static_assert((int)(a) == (int)(b), #a " != " #b)
SAME(SIM_COMPUTE_ARRAY, HAPTIX__V1__COMPUTE_KIND__COMPUTE_ARRAY);
SAME(SIM_COMPUTE_JAC_SITE, HAPTIX__V1__COMPUTE_KIND__COMPUTE_JAC_SITE);
SAME(
    SIM_COMPUTE_INTEGRATE_POS, HAPTIX__V1__COMPUTE_KIND__COMPUTE_INTEGRATE_POS);
#undef SAME

/* Queries, states, and objects, points or rays of one query. */
#define COMPUTE_MAX_QUERIES 64
#define COMPUTE_MAX_STATES 1000
#define COMPUTE_MAX_ITEMS 4096

/* MuJoCo's names of the kinds, for errors. */
static const char *const compute_kind_names[SIM_COMPUTE_NKINDS] = {
	"array",
	"inverse",
	"full_m",
	"solve_m",
	"rne",
	"jac",
	"jac_body",
	"jac_body_com",
	"jac_geom",
	"jac_site",
	"object_velocity",
	"object_acceleration",
	"contact_force",
	"energy",
	"ray",
	"differentiate_pos",
	"integrate_pos",
};

/* The type of object a kind's names are: OBJ_UNKNOWN for none. */
static int
compute_objtype(const Query *w)
{
	switch ((enum sim_compute_kind)w->kind) {
	case SIM_COMPUTE_JAC:
	case SIM_COMPUTE_JAC_BODY:
	case SIM_COMPUTE_JAC_BODY_COM:
		return HAPTIX__V1__OBJ_TYPE__OBJ_BODY;
	case SIM_COMPUTE_JAC_GEOM:
		return HAPTIX__V1__OBJ_TYPE__OBJ_GEOM;
	case SIM_COMPUTE_JAC_SITE:
		return HAPTIX__V1__OBJ_TYPE__OBJ_SITE;
	case SIM_COMPUTE_OBJECT_VELOCITY:
	case SIM_COMPUTE_OBJECT_ACCELERATION:
		return (int)w->objtype;
	default:
		return HAPTIX__V1__OBJ_TYPE__OBJ_UNKNOWN;
	}
}

/* An object type as a user names it, for errors. */
static const char *
compute_type_word(int objtype)
{
	switch (objtype) {
	case HAPTIX__V1__OBJ_TYPE__OBJ_BODY:
		return "body";
	case HAPTIX__V1__OBJ_TYPE__OBJ_XBODY:
		return "xbody";
	case HAPTIX__V1__OBJ_TYPE__OBJ_GEOM:
		return "geom";
	default:
		return "site";
	}
}

/* The count of objects of a type in the model. */
static int
compute_count(const struct sim_sizes *z, int objtype)
{
	switch (objtype) {
	case HAPTIX__V1__OBJ_TYPE__OBJ_BODY:
	case HAPTIX__V1__OBJ_TYPE__OBJ_XBODY:
		return z->nbody;
	case HAPTIX__V1__OBJ_TYPE__OBJ_GEOM:
		return z->ngeom;
	case HAPTIX__V1__OBJ_TYPE__OBJ_SITE:
		return z->nsite;
	default:
		return -1;
	}
}

/* Resolve the objects of query i into q's ids. */
static int
compute_objects(struct call *c, int i, const Query *w, struct sim_query *q)
{
	const struct sim_sizes *z = sim_sizes(c->d->sim);
	const char *kind = compute_kind_names[w->kind];
	int objtype = compute_objtype(w), n, *ids;
	size_t k, nobj = w->n_names > 0 ? w->n_names : w->n_ids;

	n = compute_count(z, objtype);
	if (n < 0)
		return call_fail(c, RESULT_BADTYPE,
		    "query %d (%s): objtype %d is not a body, xbody, geom or "
		    "site",
		    i, kind, objtype);
	if (w->n_names > 0 && w->n_ids > 0)
		return call_fail(c, RESULT_BADVALUE,
		    "query %d (%s): give names or ids, not both", i, kind);
	if (nobj == 0)
		return call_fail(c, RESULT_BADVALUE,
		    "query %d (%s): no objects: give names or ids", i, kind);
	if (nobj > COMPUTE_MAX_ITEMS)
		return call_fail(c, RESULT_BADSIZE,
		    "query %d (%s): %zu objects, more than %d in one query", i,
		    kind, nobj, COMPUTE_MAX_ITEMS);
	ids = arena_alloc(c->arena, nobj * sizeof(*ids));
	for (k = 0; k < nobj; k++) {
		if (w->n_names > 0) {
			/* An xbody is named as its body. */
			ids[k] = sim_name2id(c->d->sim,
			    objtype == HAPTIX__V1__OBJ_TYPE__OBJ_XBODY ?
				HAPTIX__V1__OBJ_TYPE__OBJ_BODY :
				objtype,
			    w->names[k]);
			if (ids[k] < 0)
				return call_fail(c, RESULT_BADINDEX,
				    "query %d (%s): no %s named \"%.64s\"", i,
				    kind, compute_type_word(objtype),
				    w->names[k]);
		} else if (w->ids[k] < 0 || w->ids[k] >= n) {
			return call_fail(c, RESULT_BADINDEX,
			    "query %d (%s): %s id %d is out of range (%d)", i,
			    kind, compute_type_word(objtype), w->ids[k], n);
		} else
			ids[k] = w->ids[k];
	}
	q->objtype = objtype;
	q->ids = ids;
	q->nids = nobj;
	return 0;
}

/* The array of a COMPUTE_ARRAY query, by its one name. */
static int
compute_array(struct call *c, int i, const Query *w, struct sim_query *q)
{
	const char *why;
	int *id;

	if (w->n_names != 1)
		return call_fail(c, RESULT_BADVALUE,
		    "query %d (array): name one array (%zu names)", i,
		    w->n_names);
	id = arena_alloc(c->arena, sizeof(*id));
	*id = sim_array_find(w->names[0], &why);
	if (*id < 0)
		return call_fail(c, RESULT_BADTYPE,
		    "query %d (array): %s%.64s%s", i,
		    why != NULL ? "" : "no array named \"", w->names[0],
		    why != NULL ? why : "\": list_arrays lists them");
	q->ids = id;
	q->nids = 1;
	return 0;
}

/* A ray query's options: groups and the excluded body. */
static int
compute_ray_options(struct call *c, int i, const Query *w, struct sim_query *q)
{
	const double *v;
	unsigned char *groups;
	size_t g;

	/* Each ray's vector (after its point) must have a direction. */
	for (g = 0; g < w->n_args / 6; g++) {
		v = w->args + 6 * g + 3;
		if (sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) <
		    sim_compute_min_length())
			return call_fail(c, RESULT_BADVALUE,
			    "query %d (ray): ray %zu's vector (%g %g %g) has "
			    "no direction",
			    i, g, v[0], v[1], v[2]);
	}

	q->flg_static = !w->exclude_static;
	q->bodyexclude = -1;
	if (w->n_geomgroup != 0 && w->n_geomgroup != 6)
		return call_fail(c, RESULT_BADSIZE,
		    "query %d (ray): geomgroup has %zu flags, not 6 (or none "
		    "for every group)",
		    i, w->n_geomgroup);
	if (w->n_geomgroup == 6) {
		groups = arena_alloc(c->arena, 6);
		for (g = 0; g < 6; g++)
			groups[g] = w->geomgroup[g] != 0;
		q->geomgroup = groups;
	}
	if (w->exclude_body != NULL && w->exclude_body[0] != '\0') {
		q->bodyexclude = sim_name2id(
		    c->d->sim, HAPTIX__V1__OBJ_TYPE__OBJ_BODY, w->exclude_body);
		if (q->bodyexclude < 0)
			return call_fail(c, RESULT_BADINDEX,
			    "query %d (ray): no body named \"%.64s\" to "
			    "exclude",
			    i, w->exclude_body);
	}
	return 0;
}

/* Check query i and turn it into q. */
static int
compute_query(struct call *c, int i, const Query *w, struct sim_query *q)
{
	const char *kind;
	size_t per;
	int rc;

	memset(q, 0, sizeof(*q));
	if ((unsigned)w->kind >= SIM_COMPUTE_NKINDS)
		return call_fail(c, RESULT_BADTYPE,
		    "query %d: kind %d is not a computation", i, (int)w->kind);
	q->kind = (enum sim_compute_kind)w->kind;
	kind = compute_kind_names[q->kind];
	per = (size_t)sim_compute_args_per_item(c->d->sim, q->kind);
	if (per == 0 && w->n_args != 0)
		return call_fail(c, RESULT_BADSIZE,
		    "query %d (%s) takes no args (%zu given)", i, kind,
		    w->n_args);
	if (per != 0 && w->n_args % per != 0)
		return call_fail(c, RESULT_BADSIZE,
		    "query %d (%s): %zu args, not a multiple of %zu", i, kind,
		    w->n_args, per);
	if (per != 0 && w->n_args / per > COMPUTE_MAX_ITEMS)
		return call_fail(c, RESULT_BADSIZE,
		    "query %d (%s): %zu items, more than %d in one query", i,
		    kind, w->n_args / per, COMPUTE_MAX_ITEMS);
	if (per != 0 && w->n_args == 0)
		return call_fail(c, RESULT_BADSIZE,
		    "query %d (%s): no args: %zu for each item", i, kind, per);
	if ((rc = check_finite(c, kind, w->args, w->n_args)) != 0)
		return rc;
	if (!isfinite(w->dt))
		return call_fail(c, RESULT_BADVALUE,
		    "query %d (%s): dt %g is not finite", i, kind, w->dt);
	if (q->kind == SIM_COMPUTE_DIFFERENTIATE_POS && w->dt == 0)
		return call_fail(c, RESULT_BADVALUE,
		    "query %d (%s): dt is 0: mj_differentiatePos divides by "
		    "it",
		    i, kind);
	q->args = w->args;
	q->nargs = w->n_args;
	q->flag = w->flag != 0;
	q->dt = w->dt;
	if (q->kind == SIM_COMPUTE_ARRAY)
		return compute_array(c, i, w, q);
	if (q->kind == SIM_COMPUTE_RAY)
		return compute_ray_options(c, i, w, q);
	if (compute_objtype(w) == HAPTIX__V1__OBJ_TYPE__OBJ_UNKNOWN &&
	    q->kind != SIM_COMPUTE_OBJECT_VELOCITY &&
	    q->kind != SIM_COMPUTE_OBJECT_ACCELERATION)
		return 0;
	if ((rc = compute_objects(c, i, w, q)) != 0)
		return rc;
	/* A jac's points: on one body each, or all on its one body. */
	if (q->kind == SIM_COMPUTE_JAC && q->nids != 1 &&
	    q->nids != w->n_args / 3)
		return call_fail(c, RESULT_BADSIZE,
		    "query %d (jac): %zu bodies for %zu points: give one body, "
		    "or one for each point",
		    i, q->nids, w->n_args / 3);
	return 0;
}

/*
 * A state's values within MuJoCo's limit: a step would not start from a
 * state beyond it (mj_checkPos resets), and a forward pass from one can
 * take hundreds of milliseconds of the loop, its inf and NaN in every
 * collision test.
 */
static int
compute_in_range(struct call *c, const char *what, const double *v, size_t n)
{
	double max = sim_compute_max_value();
	size_t i;

	for (i = 0; i < n; i++)
		if (fabs(v[i]) > max)
			return call_fail(c, RESULT_BADVALUE,
			    "%s[%zu] is %g: beyond MuJoCo's limit of %g "
			    "(mjMAXVAL), from which a step resets",
			    what, i, v[i], max);
	return 0;
}

/* Check state i and point st at its arrays (NULL: the live state's). */
static int
compute_state(
    struct call *c, int i, const ComputeState *w, struct sim_cstate *st)
{
	const struct sim_sizes *z = sim_sizes(c->d->sim);
	char what[48];
	int rc = 0;

#define STATE_ARRAY(name, n) \
	do { \
		snprintf(what, sizeof(what), "state %d: " #name, i); \
		if (rc == 0) \
			rc = check_optional( \
			    c, what, w->name, w->n_##name, (size_t)(n)); \
		if (rc == 0) \
			rc = compute_in_range(c, what, w->name, w->n_##name); \
		st->name = w->n_##name > 0 ? w->name : NULL; \
	} while (0)
	STATE_ARRAY(qpos, z->nq);
	STATE_ARRAY(qvel, z->nv);
	STATE_ARRAY(act, z->na);
	STATE_ARRAY(ctrl, z->nu);
	STATE_ARRAY(mocap_pos, 3 * z->nmocap);
	STATE_ARRAY(mocap_quat, 4 * z->nmocap);
	STATE_ARRAY(qfrc_applied, z->nv);
	STATE_ARRAY(xfrc_applied, 6 * z->nbody);
	STATE_ARRAY(qacc_warmstart, z->nv);
	STATE_ARRAY(qacc, z->nv);
#undef STATE_ARRAY
	return rc;
}

/* The names of a contact's geoms and bodies. */
static void
compute_contact_names(struct call *c, QueryResult *r)
{
	static const int types[SIM_CONTACT_IDS] = {
		HAPTIX__V1__OBJ_TYPE__OBJ_GEOM, HAPTIX__V1__OBJ_TYPE__OBJ_GEOM,
		HAPTIX__V1__OBJ_TYPE__OBJ_BODY, HAPTIX__V1__OBJ_TYPE__OBJ_BODY
	};
	const char *name;
	size_t k;
	int bad;

	r->n_names = r->n_ids;
	r->names = arena_alloc(c->arena, r->n_ids * sizeof(*r->names));
	for (k = 0; k < r->n_ids; k++) {
		name = sim_id2name(
		    c->d->sim, types[k % SIM_CONTACT_IDS], r->ids[k], &bad);
		r->names[k] = (char *)(name != NULL ? name : "");
	}
}

/* Whether any query reads the state: positions alone need only the model. */
static int
compute_needs_state(const struct sim_query *q, size_t nq)
{
	size_t k;

	for (k = 0; k < nq; k++)
		if (q[k].kind != SIM_COMPUTE_DIFFERENTIATE_POS &&
		    q[k].kind != SIM_COMPUTE_INTEGRATE_POS)
			return 1;
	return 0;
}

/* Run q on the state made last into a new QueryResult. */
static QueryResult *
compute_run(struct call *c, const struct sim_query *q, int *failed)
{
	QueryResult *r = NEW(c, QueryResult, haptix__v1__query_result__init);
	struct sim_result sr;
	int i;

	sim_compute_shape(c->d->sim, q, &sr);
	r->n_shape = (size_t)sr.ndim;
	r->shape = arena_alloc(c->arena, 4 * sizeof(*r->shape));
	for (i = 0; i < sr.ndim; i++)
		r->shape[i] = sr.shape[i];
	r->n_values = sr.nvalues;
	r->values = sr.values = arena_alloc(
	    c->arena, (sr.nvalues + 1) * sizeof(double));
	r->n_ids = sr.nids;
	r->ids = sr.ids = arena_alloc(
	    c->arena, (sr.nids + 1) * sizeof(int32_t));
	r->n_frames = sr.nframes;
	r->frames = sr.frames = arena_alloc(
	    c->arena, (sr.nframes + 1) * sizeof(double));
	if (sim_compute_query(c->d->sim, q, &sr, c->err, sizeof(c->err)) != 0) {
		*failed = 1;
		return NULL;
	}
	if (q->kind == SIM_COMPUTE_CONTACT_FORCE)
		compute_contact_names(c, r);
	return r;
}

int
api_compute(struct call *c)
{
	const Haptix__V1__Compute *w = c->req->compute;
	Haptix__V1__ComputeResult *out;
	struct sim_query *q;
	struct sim_cstate *st;
	size_t nq = w->n_queries, ns = w->n_states, nrun, k, bytes = 0, one;
	size_t limit = c->d->opts->max_frame - c->d->opts->max_frame / 8;
	int64_t end = monotonic_ns() + BATCH_SLICE_NS;
	int rc, failed = 0;
	char err[sizeof(c->err)];

	if (nq == 0)
		return call_fail(c, RESULT_BADVALUE, "no queries");
	if (nq > COMPUTE_MAX_QUERIES)
		return call_fail(c, RESULT_BADSIZE,
		    "%zu queries, more than %d in one request", nq,
		    COMPUTE_MAX_QUERIES);
	if (ns > COMPUTE_MAX_STATES)
		return call_fail(c, RESULT_BADSIZE,
		    "%zu states, more than %d in one request", ns,
		    COMPUTE_MAX_STATES);
	if (w->last_step && ns > 0)
		return call_fail(c, RESULT_BADVALUE,
		    "last_step computes on the live data: give no states");
	q = arena_alloc(c->arena, nq * sizeof(*q));
	for (k = 0; k < nq; k++)
		if ((rc = compute_query(c, (int)k, w->queries[k], &q[k])) != 0)
			return rc;
	/* Every state checked before any is computed, and kept. */
	st = arena_alloc(c->arena, (ns + 1) * sizeof(*st));
	for (k = 0; k < ns; k++)
		if ((rc = compute_state(c, (int)k, w->states[k], &st[k])) != 0)
			return rc;

	nrun = ns > 0 ? ns : 1;
	out = NEW(
	    c, Haptix__V1__ComputeResult, haptix__v1__compute_result__init);
	out->results = arena_alloc(c->arena, nrun * nq * sizeof(*out->results));
	out->last_step = w->last_step;
	for (out->states_done = 0; out->states_done < nrun;) {
		if (compute_needs_state(q, nq) &&
		    sim_compute_state(c->d->sim,
			ns > 0 ? &st[out->states_done] : NULL, w->last_step,
			err, sizeof(err)) != 0)
			return call_fail(c, RESULT_SIMERROR, "state %u: %s",
			    out->states_done, err);
		one = 0;
		for (k = 0; k < nq; k++) {
			QueryResult *r = compute_run(c, &q[k], &failed);

			if (failed) {
				snprintf(err, sizeof(err), "%s", c->err);
				return call_fail(c, RESULT_SIMERROR,
				    "state %u, query %zu: %s", out->states_done,
				    k, err);
			}
			one += haptix__v1__query_result__get_packed_size(r) + 8;
			out->results[out->n_results + k] = r;
		}
		if (bytes + one > limit && out->states_done > 0)
			break; /* this state's results go in the next answer */
		if (bytes + one > limit)
			return call_fail(c, RESULT_BADSIZE,
			    "one state's results take %zu bytes: more than a "
			    "frame of %zu holds (--max-frame); ask for fewer "
			    "items",
			    one, c->d->opts->max_frame);
		bytes += one;
		out->n_results += nq;
		out->states_done++;
		if (monotonic_ns() >= end)
			break;
	}
	PAYLOAD(c, compute, COMPUTE, out);
	return RESULT_OK;
}
