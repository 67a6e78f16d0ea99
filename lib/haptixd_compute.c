/*
 * MuJoCo's computations (haptixd.h): one Compute request per call, its
 * answer checked shape by shape before a value is copied.  The functions
 * for one computation share one path: a query, one state, one result.
 */
#include "config.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conn.h"
#include "request.h"

typedef Haptix__V1__Query Query;
typedef Haptix__V1__QueryResult QueryResult;
typedef Haptix__V1__ComputeState ComputeState;

void
hxd_cstate_init(hxd_cstate *st, const hxd_model *m)
{
	memset(st, 0, sizeof(*st));
	st->nq = m->nq;
	st->nv = m->nv;
	st->na = m->na;
	st->nu = m->nu;
	st->nmocap = m->nmocap;
	st->nbody = m->nbody;
}

/* One array of a state: its values if given, else none (the live one's). */
static void
state_array(const double *v, int n, size_t *count, double **out)
{
	*count = v != NULL && n > 0 ? (size_t)n : 0;
	*out = (double *)v;
}

/* A state into its message. */
static void
state_to_wire(const hxd_cstate *st, ComputeState *w)
{
	haptix__v1__compute_state__init(w);
	state_array(st->qpos, st->nq, &w->n_qpos, &w->qpos);
	state_array(st->qvel, st->nv, &w->n_qvel, &w->qvel);
	state_array(st->act, st->na, &w->n_act, &w->act);
	state_array(st->ctrl, st->nu, &w->n_ctrl, &w->ctrl);
	state_array(
	    st->mocap_pos, 3 * st->nmocap, &w->n_mocap_pos, &w->mocap_pos);
	state_array(
	    st->mocap_quat, 4 * st->nmocap, &w->n_mocap_quat, &w->mocap_quat);
	state_array(
	    st->qfrc_applied, st->nv, &w->n_qfrc_applied, &w->qfrc_applied);
	state_array(st->xfrc_applied, 6 * st->nbody, &w->n_xfrc_applied,
	    &w->xfrc_applied);
	state_array(st->qacc_warmstart, st->nv, &w->n_qacc_warmstart,
	    &w->qacc_warmstart);
	state_array(st->qacc, st->nv, &w->n_qacc, &w->qacc);
}

/* A query into its message; geomgroup needs 6 flags of room. */
static void
query_to_wire(const hxd_query *q, Query *w, protobuf_c_boolean *groups)
{
	int g;

	haptix__v1__query__init(w);
	w->kind = (Haptix__V1__ComputeKind)q->kind;
	w->objtype = (Haptix__V1__ObjType)q->objtype;
	w->n_names = q->names != NULL && q->nnames > 0 ? (size_t)q->nnames : 0;
	w->names = (char **)q->names;
	w->n_ids = q->ids != NULL && q->nids > 0 ? (size_t)q->nids : 0;
	w->ids = (int32_t *)q->ids;
	w->n_args = q->args != NULL && q->nargs > 0 ? (size_t)q->nargs : 0;
	w->args = (double *)q->args;
	w->flag = q->flag != 0;
	w->dt = q->dt;
	if (q->geomgroup != NULL) {
		for (g = 0; g < 6; g++)
			groups[g] = q->geomgroup[g] != 0;
		w->n_geomgroup = 6;
		w->geomgroup = groups;
	}
	w->exclude_static = q->exclude_static != 0;
	w->exclude_body = (char *)(q->exclude_body != NULL ? q->exclude_body :
							     "");
}

/* Check a result's shape against its values before anything is read. */
static int
result_check(hxd_conn *c, const QueryResult *r)
{
	size_t i, n = 1;

	if (r->n_shape > 4)
		return conn_fail(c, HXD_BADPROTOCOL,
		    "the server sent a result of %zu dimensions", r->n_shape);
	for (i = 0; i < r->n_shape; i++) {
		if (r->shape[i] > INT32_MAX)
			return conn_fail(c, HXD_BADPROTOCOL,
			    "the server sent a dimension of %u", r->shape[i]);
		n *= r->shape[i];
	}
	if (r->n_shape == 0)
		n = 0;
	if (n != r->n_values)
		return conn_fail(c, HXD_BADPROTOCOL,
		    "the server sent %zu values for a shape of %zu",
		    r->n_values, n);
	if (r->n_names != 0 && r->n_names != r->n_ids)
		return conn_fail(c, HXD_BADPROTOCOL,
		    "the server sent %zu names for %zu ids", r->n_names,
		    r->n_ids);
	return HXD_OK;
}

/*
 * Send queries on states (NULL: the live one) from state first on; the
 * answer's results are checked.  *done gets the states it computed.
 */
static int
compute_send(hxd_conn *c, const hxd_query *q, int nq, const hxd_cstate *states,
    int nstates, int first, int last_step, Response **out, int *done)
{
	Haptix__V1__Compute w = HAPTIX__V1__COMPUTE__INIT;
	protobuf_c_boolean(*groups)[6] = NULL;
	const Haptix__V1__ComputeResult *a;
	ComputeState *sw = NULL, **sp = NULL;
	Query *qw = NULL, **qp = NULL;
	int i, rc, left = nstates - first;
	size_t k, want;

	qw = calloc((size_t)nq, sizeof(*qw));
	qp = calloc((size_t)nq, sizeof(*qp));
	groups = calloc((size_t)nq, sizeof(*groups));
	if (left > 0) {
		sw = calloc((size_t)left, sizeof(*sw));
		sp = calloc((size_t)left, sizeof(*sp));
	}
	if (qw == NULL || qp == NULL || groups == NULL ||
	    (left > 0 && (sw == NULL || sp == NULL))) {
		rc = conn_fail(c, HXD_CANNOTSEND, "out of memory");
		goto out;
	}
	for (i = 0; i < nq; i++) {
		query_to_wire(&q[i], &qw[i], groups[i]);
		qp[i] = &qw[i];
	}
	for (i = 0; i < left; i++) {
		state_to_wire(&states[first + i], &sw[i]);
		sp[i] = &sw[i];
	}
	w.n_queries = (size_t)nq;
	w.queries = qp;
	w.n_states = left > 0 ? (size_t)left : 0;
	w.states = sp;
	w.last_step = last_step != 0;
	rc = request_call(c, HAPTIX__V1__REQUEST__CALL_COMPUTE, &w,
	    HAPTIX__V1__RESPONSE__PAYLOAD_COMPUTE, out);
	if (rc != HXD_OK)
		goto out;
	a = (*out)->compute;
	want = (size_t)a->states_done * (size_t)nq;
	if (a->states_done == 0 ||
	    a->states_done > (uint32_t)(left > 0 ? left : 1) ||
	    a->n_results != want) {
		rc = conn_fail(c, HXD_BADPROTOCOL,
		    "the server computed %u states in %zu results for %d "
		    "queries",
		    a->states_done, a->n_results, nq);
		goto fail;
	}
	for (k = 0; k < a->n_results; k++)
		if ((rc = result_check(c, a->results[k])) != HXD_OK)
			goto fail;
	*done = (int)a->states_done;
	rc = HXD_OK;
	goto out;
fail:
	conn_free_response(*out);
	*out = NULL;
out:
	free(qw);
	free(qp);
	free(groups);
	free(sw);
	free(sp);
	return rc;
}

/* One result into its public form (malloc'd arrays). */
static int
result_copy(hxd_conn *c, const QueryResult *r, hxd_qresult *out)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	out->ndim = (int)r->n_shape;
	for (i = 0; i < r->n_shape; i++)
		out->shape[i] = (int)r->shape[i];
	out->nvalues = r->n_values;
	out->nids = r->n_ids;
	out->nframes = r->n_frames;
	out->values = malloc((r->n_values + 1) * sizeof(double));
	out->ids = malloc((r->n_ids + 1) * sizeof(int));
	out->frames = malloc((r->n_frames + 1) * sizeof(double));
	out->names = calloc(r->n_names + 1, sizeof(char *));
	if (out->values == NULL || out->ids == NULL || out->frames == NULL ||
	    out->names == NULL)
		return conn_fail(c, HXD_CANNOTRECV, "out of memory");
	if (r->n_values > 0)
		memcpy(out->values, r->values, r->n_values * sizeof(double));
	for (i = 0; i < r->n_ids; i++)
		out->ids[i] = r->ids[i];
	if (r->n_frames > 0)
		memcpy(out->frames, r->frames, r->n_frames * sizeof(double));
	for (i = 0; i < r->n_names; i++)
		if ((out->names[i] = strdup(
			 r->names[i] != NULL ? r->names[i] : "")) == NULL)
			return conn_fail(c, HXD_CANNOTRECV, "out of memory");
	return HXD_OK;
}

void
hxd_qresults_free(hxd_qresult *r, int n)
{
	size_t j;
	int i;

	if (r == NULL)
		return;
	for (i = 0; i < n; i++) {
		free(r[i].values);
		free(r[i].ids);
		free(r[i].frames);
		/* names ends at a NULL: a ray's result has ids, no names */
		for (j = 0; r[i].names != NULL && r[i].names[j] != NULL; j++)
			free(r[i].names[j]);
		free(r[i].names);
	}
	free(r);
}

int
hxd_compute(hxd_conn *c, const hxd_query *q, int nq, const hxd_cstate *states,
    int nstates, int last_step, hxd_qresult **out)
{
	int total = nstates > 0 ? nstates : 1, first = 0, done, rc, i;
	hxd_qresult *res;
	Response *r;

	*out = NULL;
	if (nq <= 0 || q == NULL || nstates < 0 ||
	    (nstates > 0 && states == NULL))
		return conn_fail(c, HXD_BADVALUE,
		    "hxd_compute: no queries, or states missing");
	res = calloc((size_t)total * (size_t)nq, sizeof(*res));
	if (res == NULL)
		return conn_fail(c, HXD_CANNOTSEND, "out of memory");
	while (first < total) {
		rc = compute_send(c, q, nq, nstates > 0 ? states : NULL,
		    nstates, first, last_step, &r, &done);
		if (rc == HXD_OK && first + done > total)
			rc = conn_fail(c, HXD_BADPROTOCOL,
			    "the server computed more states than asked");
		for (i = 0; rc == HXD_OK && i < done * nq; i++)
			rc = result_copy(c, r->compute->results[i],
			    &res[(size_t)first * (size_t)nq + (size_t)i]);
		conn_free_response(r);
		if (rc != HXD_OK) {
			hxd_qresults_free(res, total * nq);
			return rc;
		}
		first += done;
	}
	*out = res;
	return conn_ok(c);
}

/*
 * Run one query on st and check that its result has exactly the shape
 * the caller's arrays have (n values); *out is the answer to free.
 */
static int
compute_one(hxd_conn *c, const hxd_cstate *st, const hxd_query *q,
    int last_step, size_t n, Response **out, const QueryResult **r)
{
	int rc, done;

	rc = compute_send(
	    c, q, 1, st, st != NULL ? 1 : 0, 0, last_step, out, &done);
	if (rc != HXD_OK)
		return rc;
	*r = (*out)->compute->results[0];
	if (n != (size_t)-1 && (*r)->n_values != n) {
		rc = conn_fail(c, HXD_BADSIZE,
		    "the result has %zu values, the caller's array %zu: the "
		    "caller's model sizes are not the server's",
		    (*r)->n_values, n);
		conn_free_response(*out);
		*out = NULL;
		*r = NULL;
		return rc;
	}
	return HXD_OK;
}

/* Run q and copy its n values into out. */
static int
compute_values(hxd_conn *c, const hxd_cstate *st, const hxd_query *q,
    double *out, size_t n)
{
	const QueryResult *r;
	Response *resp;
	int rc;

	if ((rc = compute_one(c, st, q, 0, n, &resp, &r)) != HXD_OK)
		return rc;
	if (n > 0)
		memcpy(out, r->values, n * sizeof(double));
	conn_free_response(resp);
	return conn_ok(c);
}

/* A count the caller gives must be a size. */
static int
compute_count_ok(hxd_conn *c, const char *what, int n)
{
	if (n < 0)
		return conn_fail(c, HXD_BADSIZE, "%s is %d", what, n);
	return HXD_OK;
}

int
hxd_forward_array(hxd_conn *c, const hxd_cstate *st, const char *name,
    double *out, size_t n, int *rows, int *cols)
{
	const char *names[1] = { name != NULL ? name : "" };
	hxd_query q = {
		.kind = HXD_COMPUTE_ARRAY, .names = names, .nnames = 1
	};
	const QueryResult *r;
	Response *resp;
	int rc;

	if ((rc = compute_one(c, st, &q, 0, (size_t)-1, &resp, &r)) != HXD_OK)
		return rc;
	*rows = r->n_shape == 2 ? (int)r->shape[0] : 0;
	*cols = r->n_shape == 2 ? (int)r->shape[1] : 0;
	if (r->n_values > n) {
		conn_free_response(resp);
		return conn_fail(c, HXD_BADSIZE,
		    "%s has %d x %d values, more than the %zu given", names[0],
		    *rows, *cols, n);
	}
	if (r->n_values > 0)
		memcpy(out, r->values, r->n_values * sizeof(double));
	conn_free_response(resp);
	return conn_ok(c);
}

int
hxd_inverse(hxd_conn *c, const hxd_cstate *st, double *qfrc_inverse, int nv)
{
	hxd_query q = { .kind = HXD_COMPUTE_INVERSE };

	if (compute_count_ok(c, "nv", nv) != HXD_OK)
		return c->result;
	return compute_values(c, st, &q, qfrc_inverse, (size_t)nv);
}

int
hxd_full_m(hxd_conn *c, const hxd_cstate *st, double *m, int nv)
{
	hxd_query q = { .kind = HXD_COMPUTE_FULL_M };

	if (compute_count_ok(c, "nv", nv) != HXD_OK)
		return c->result;
	return compute_values(c, st, &q, m, (size_t)nv * (size_t)nv);
}

int
hxd_solve_m(hxd_conn *c, const hxd_cstate *st, double *x, const double *y,
    int k, int nv)
{
	hxd_query q = { .kind = HXD_COMPUTE_SOLVE_M, .args = y };

	if (compute_count_ok(c, "k", k) != HXD_OK ||
	    compute_count_ok(c, "nv", nv) != HXD_OK)
		return c->result;
	if (k == 0)
		return conn_ok(c);
	if (nv > INT_MAX / k)
		return conn_fail(c, HXD_BADSIZE, "%d vectors of %d", k, nv);
	q.nargs = k * nv;
	return compute_values(c, st, &q, x, (size_t)k * (size_t)nv);
}

int
hxd_rne(hxd_conn *c, const hxd_cstate *st, int flg_acc, double *result, int nv)
{
	hxd_query q = { .kind = HXD_COMPUTE_RNE, .flag = flg_acc };

	if (compute_count_ok(c, "nv", nv) != HXD_OK)
		return c->result;
	return compute_values(c, st, &q, result, (size_t)nv);
}

/* A Jacobian of one object (and point): jacp then jacr, 3 x nv each. */
static int
compute_jacobian(hxd_conn *c, const hxd_cstate *st, int kind, const char *name,
    const double *point, double *jacp, double *jacr, int nv)
{
	const char *names[1] = { name != NULL ? name : "" };
	hxd_query q = { .kind = kind, .names = names, .nnames = 1 };
	size_t block = 3 * (size_t)(nv > 0 ? nv : 0);
	const QueryResult *r;
	Response *resp;
	int rc;

	if (compute_count_ok(c, "nv", nv) != HXD_OK)
		return c->result;
	if (point != NULL) {
		q.args = point;
		q.nargs = 3;
	}
	if ((rc = compute_one(c, st, &q, 0, 2 * block, &resp, &r)) != HXD_OK)
		return rc;
	if (jacp != NULL && block > 0)
		memcpy(jacp, r->values, block * sizeof(double));
	if (jacr != NULL && block > 0)
		memcpy(jacr, r->values + block, block * sizeof(double));
	conn_free_response(resp);
	return conn_ok(c);
}

int
hxd_jac(hxd_conn *c, const hxd_cstate *st, const char *body,
    const double point[3], double *jacp, double *jacr, int nv)
{
	if (point == NULL)
		return conn_fail(c, HXD_BADVALUE, "hxd_jac: no point");
	return compute_jacobian(
	    c, st, HXD_COMPUTE_JAC, body, point, jacp, jacr, nv);
}

int
hxd_jac_body(hxd_conn *c, const hxd_cstate *st, const char *body, double *jacp,
    double *jacr, int nv)
{
	return compute_jacobian(
	    c, st, HXD_COMPUTE_JAC_BODY, body, NULL, jacp, jacr, nv);
}

int
hxd_jac_body_com(hxd_conn *c, const hxd_cstate *st, const char *body,
    double *jacp, double *jacr, int nv)
{
	return compute_jacobian(
	    c, st, HXD_COMPUTE_JAC_BODY_COM, body, NULL, jacp, jacr, nv);
}

int
hxd_jac_geom(hxd_conn *c, const hxd_cstate *st, const char *geom, double *jacp,
    double *jacr, int nv)
{
	return compute_jacobian(
	    c, st, HXD_COMPUTE_JAC_GEOM, geom, NULL, jacp, jacr, nv);
}

int
hxd_jac_site(hxd_conn *c, const hxd_cstate *st, const char *site, double *jacp,
    double *jacr, int nv)
{
	return compute_jacobian(
	    c, st, HXD_COMPUTE_JAC_SITE, site, NULL, jacp, jacr, nv);
}

/* An object's velocity or acceleration: 6 values. */
static int
compute_motion(hxd_conn *c, const hxd_cstate *st, int kind, int objtype,
    const char *name, int flg_local, double res[6])
{
	const char *names[1] = { name != NULL ? name : "" };
	hxd_query q = { .kind = kind,
		.objtype = objtype,
		.names = names,
		.nnames = 1,
		.flag = flg_local };

	return compute_values(c, st, &q, res, 6);
}

int
hxd_object_velocity(hxd_conn *c, const hxd_cstate *st, int objtype,
    const char *name, int flg_local, double res[6])
{
	return compute_motion(
	    c, st, HXD_COMPUTE_OBJECT_VELOCITY, objtype, name, flg_local, res);
}

int
hxd_object_acceleration(hxd_conn *c, const hxd_cstate *st, int objtype,
    const char *name, int flg_local, double res[6])
{
	return compute_motion(c, st, HXD_COMPUTE_OBJECT_ACCELERATION, objtype,
	    name, flg_local, res);
}

/* A name into a fixed field, cut to fit. */
static void
name_copy(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src != NULL ? src : "");
}

int
hxd_contact_forces(hxd_conn *c, const hxd_cstate *st, int last_step,
    hxd_contact_force **out, int *ncon)
{
	hxd_query q = { .kind = HXD_COMPUTE_CONTACT_FORCE };
	const QueryResult *r;
	hxd_contact_force *f;
	Response *resp;
	size_t i, n;
	int rc;

	*out = NULL;
	*ncon = 0;
	if (last_step && st != NULL)
		return conn_fail(c, HXD_BADVALUE,
		    "last_step computes on the live data: give no state");
	if ((rc = compute_one(c, st, &q, last_step, (size_t)-1, &resp, &r)) !=
	    HXD_OK)
		return rc;
	n = r->n_shape == 2 ? r->shape[0] : 0;
	if (r->n_shape != 2 || r->shape[1] != 6 || r->n_ids != 4 * n ||
	    r->n_names != 4 * n || r->n_frames != 13 * n || n > INT32_MAX) {
		conn_free_response(resp);
		return conn_fail(c, HXD_BADPROTOCOL,
		    "the server sent contacts of another shape");
	}
	f = calloc(n + 1, sizeof(*f));
	if (f == NULL) {
		conn_free_response(resp);
		return conn_fail(c, HXD_CANNOTRECV, "out of memory");
	}
	for (i = 0; i < n; i++) {
		f[i].geom1 = r->ids[4 * i];
		f[i].geom2 = r->ids[4 * i + 1];
		f[i].body1 = r->ids[4 * i + 2];
		f[i].body2 = r->ids[4 * i + 3];
		name_copy(
		    f[i].geom1_name, sizeof(f[i].geom1_name), r->names[4 * i]);
		name_copy(f[i].geom2_name, sizeof(f[i].geom2_name),
		    r->names[4 * i + 1]);
		name_copy(f[i].body1_name, sizeof(f[i].body1_name),
		    r->names[4 * i + 2]);
		name_copy(f[i].body2_name, sizeof(f[i].body2_name),
		    r->names[4 * i + 3]);
		memcpy(f[i].force, r->values + 6 * i, sizeof(f[i].force));
		f[i].dist = r->frames[13 * i];
		memcpy(f[i].pos, r->frames + 13 * i + 1, sizeof(f[i].pos));
		memcpy(f[i].frame, r->frames + 13 * i + 4, sizeof(f[i].frame));
	}
	conn_free_response(resp);
	*out = f;
	*ncon = (int)n;
	return conn_ok(c);
}

int
hxd_energy(hxd_conn *c, const hxd_cstate *st, double energy[2])
{
	hxd_query q = { .kind = HXD_COMPUTE_ENERGY };

	return compute_values(c, st, &q, energy, 2);
}

int
hxd_rays(hxd_conn *c, const hxd_cstate *st, int k, const double *pnt,
    const double *vec, const hxd_ray_options *opt, int *geomid, double *dist)
{
	hxd_query q = { .kind = HXD_COMPUTE_RAY };
	const QueryResult *r;
	Response *resp;
	double *args;
	int rc, i;

	if (k <= 0)
		return k < 0 ? conn_fail(c, HXD_BADSIZE, "%d rays", k) :
			       conn_ok(c);
	if (k > INT_MAX / 6)
		return conn_fail(c, HXD_BADSIZE, "%d rays", k);
	args = malloc(6 * (size_t)k * sizeof(*args));
	if (args == NULL)
		return conn_fail(c, HXD_CANNOTSEND, "out of memory");
	for (i = 0; i < k; i++) {
		memcpy(args + 6 * i, pnt + 3 * i, 3 * sizeof(*args));
		memcpy(args + 6 * i + 3, vec + 3 * i, 3 * sizeof(*args));
	}
	q.args = args;
	q.nargs = 6 * k;
	if (opt != NULL) {
		q.geomgroup = opt->geomgroup;
		q.exclude_static = opt->exclude_static;
		q.exclude_body = opt->exclude_body;
	}
	rc = compute_one(c, st, &q, 0, (size_t)k, &resp, &r);
	free(args);
	if (rc != HXD_OK)
		return rc;
	if (r->n_ids != (size_t)k) {
		rc = conn_fail(c, HXD_BADPROTOCOL,
		    "the server sent %zu geoms for %d rays", r->n_ids, k);
		conn_free_response(resp);
		return rc;
	}
	for (i = 0; i < k; i++) {
		dist[i] = r->values[i];
		geomid[i] = r->ids[i];
	}
	conn_free_response(resp);
	return conn_ok(c);
}

int
hxd_ray(hxd_conn *c, const hxd_cstate *st, const double pnt[3],
    const double vec[3], const hxd_ray_options *opt, int *geomid, double *dist)
{
	return hxd_rays(c, st, 1, pnt, vec, opt, geomid, dist);
}

int
hxd_differentiate_pos(hxd_conn *c, double *qvel, int nv, double dt,
    const double *qpos1, const double *qpos2, int nq)
{
	hxd_query q = { .kind = HXD_COMPUTE_DIFFERENTIATE_POS, .dt = dt };
	double *args;
	int rc;

	if (nq < 0 || nv < 0)
		return conn_fail(c, HXD_BADSIZE, "nq %d, nv %d", nq, nv);
	args = malloc((2 * (size_t)nq + 1) * sizeof(*args));
	if (args == NULL)
		return conn_fail(c, HXD_CANNOTSEND, "out of memory");
	if (nq > 0) {
		memcpy(args, qpos1, (size_t)nq * sizeof(*args));
		memcpy(args + nq, qpos2, (size_t)nq * sizeof(*args));
	}
	q.args = args;
	q.nargs = 2 * nq;
	rc = compute_values(c, NULL, &q, qvel, (size_t)nv);
	free(args);
	return rc;
}

int
hxd_integrate_pos(
    hxd_conn *c, double *qpos, int nq, const double *qvel, int nv, double dt)
{
	hxd_query q = { .kind = HXD_COMPUTE_INTEGRATE_POS, .dt = dt };
	double *args;
	int rc;

	if (nq < 0 || nv < 0)
		return conn_fail(c, HXD_BADSIZE, "nq %d, nv %d", nq, nv);
	args = malloc(((size_t)nq + (size_t)nv + 1) * sizeof(*args));
	if (args == NULL)
		return conn_fail(c, HXD_CANNOTSEND, "out of memory");
	if (nq > 0)
		memcpy(args, qpos, (size_t)nq * sizeof(*args));
	if (nv > 0)
		memcpy(args + nq, qvel, (size_t)nv * sizeof(*args));
	q.args = args;
	q.nargs = nq + nv;
	rc = compute_values(c, NULL, &q, qpos, (size_t)nq);
	free(args);
	return rc;
}
