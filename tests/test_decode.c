/*
 * Unit tests of the client library's payload tables: the decoder
 * (lib/decode.c) checks a server's answer before it becomes a result
 * struct; the encoder reads the same tables the other way to build a
 * request from a public struct.  The tables are haptix.proto's fields
 * (haptix_fields.h) against haptixd.h's structs.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "conn.h"
#include "decode.h"
#include "request.h"

TestSuite(decode, .timeout = 10);

static const struct decode_field state_fields[] = DECODE_TABLE(
    hxd_state, State);
static const struct decode_field info_fields[] = DECODE_TABLE(hxd_info, Info);
#define NINFO (sizeof(info_fields) / sizeof(info_fields[0]))

/* A response carrying a state with the given array lengths. */
static Response *
state_response(
    Response *r, Haptix__V1__State *st, double *q, size_t nq, size_t n_qpos)
{
	haptix__v1__response__init(r);
	haptix__v1__state__init(st);
	st->nq = (uint32_t)nq;
	st->nv = 1;
	st->time = 2.5;
	st->n_qpos = n_qpos;
	st->qpos = q;
	st->n_qvel = 1;
	st->qvel = q;
	r->payload_case = HAPTIX__V1__RESPONSE__PAYLOAD_STATE;
	r->state = st;
	return r;
}

Test(decode, state_is_copied_into_one_block)
{
	double q[3] = { 1.5, -2, 3.25 };
	Haptix__V1__State st;
	Response r;
	hxd_conn c = { .fd = -1 };
	hxd_state *o;

	o = decode_payload(&c, state_response(&r, &st, q, 3, 3), state_fields,
	    sizeof(state_fields) / sizeof(state_fields[0]), sizeof(*o));
	cr_assert_not_null(o, "%s", c.error);
	cr_expect_eq(c.result, HXD_OK);
	cr_expect_eq(o->nq, 3);
	cr_expect_eq(o->nv, 1);
	cr_expect_eq(o->na, 0);
	cr_expect_eq(o->time, 2.5);
	cr_expect_eq(o->qpos[0], 1.5);
	cr_expect_eq(o->qpos[2], 3.25);
	cr_expect_eq(o->qvel[0], 1.5);
	cr_expect_neq(o->qpos, q, "copied, not pointing into the response");
	free(o);
}

Test(decode, wrong_length_is_a_protocol_error)
{
	double q[3] = { 0 };
	Haptix__V1__State st;
	Response r;
	hxd_conn c = { .fd = -1 };

	cr_expect_null(decode_payload(&c, state_response(&r, &st, q, 3, 2),
	    state_fields, sizeof(state_fields) / sizeof(state_fields[0]),
	    sizeof(hxd_state)));
	cr_expect_eq(c.result, HXD_BADPROTOCOL);
	cr_expect_not_null(
	    strstr(c.error, "2 values of qpos, expected 3"), "%s", c.error);
}

Test(decode, missing_payload_is_a_protocol_error)
{
	Response r = HAPTIX__V1__RESPONSE__INIT;
	hxd_conn c = { .fd = -1 };

	cr_expect_null(decode_payload(&c, &r, state_fields,
	    sizeof(state_fields) / sizeof(state_fields[0]), sizeof(hxd_state)));
	cr_expect_eq(c.result, HXD_BADPROTOCOL);
}

Test(decode, nested_counts_and_strings)
{
	Haptix__V1__ModelSummary m = HAPTIX__V1__MODEL_SUMMARY__INIT;
	Haptix__V1__Info in = HAPTIX__V1__INFO__INIT;
	Response r = HAPTIX__V1__RESPONSE__INIT;
	char world[] = "world", none[] = "", arm[] = "arm";
	char *names[] = { world, none, arm };
	double range[2] = { -1, 1 };
	protobuf_c_boolean lim[1] = { 1 };
	int32_t zero[3] = { 0 };
	Haptix__V1__JointType hinge[1] = {
		HAPTIX__V1__JOINT_TYPE__JOINT_HINGE
	};
	char *jname[] = { arm };
	hxd_conn c = { .fd = -1 };
	hxd_info *o;

	m.nbody = 3;
	m.njnt = 1;
	in.model = &m;
	in.n_body_name = 3;
	in.body_name = names;
	in.n_jnt_range = 2;
	in.jnt_range = range;
	in.n_jnt_limited = 1;
	in.jnt_limited = lim;
	/* Every array counted by nbody and njnt must be there. */
	in.n_body_parentid = in.n_body_mocapid = 3;
	in.body_parentid = in.body_mocapid = zero;
	in.n_jnt_type = in.n_jnt_bodyid = in.n_jnt_qposadr = in.n_jnt_dofadr =
	    in.n_jnt_name = 1;
	in.jnt_type = hinge;
	in.jnt_bodyid = in.jnt_qposadr = in.jnt_dofadr = zero;
	in.jnt_name = jname;
	r.payload_case = HAPTIX__V1__RESPONSE__PAYLOAD_INFO;
	r.info = &in;
	o = decode_payload(&c, &r, info_fields, NINFO, sizeof(*o));
	cr_assert_not_null(o, "%s", c.error);
	cr_expect_str_eq(o->body_name[0], "world");
	cr_expect_str_eq(o->body_name[1], "");
	cr_expect_str_eq(o->body_name[2], "arm");
	cr_expect_neq((const void *)o->body_name[2], (const void *)names[2]);
	cr_expect_eq(o->jnt_range[1], 1);
	cr_expect_eq(o->jnt_limited[0], 1);
	cr_expect_eq(o->jnt_type[0], 3);
	free(o);

	/* One array short of its count fails, naming it. */
	in.n_jnt_name = 0;
	cr_expect_null(decode_payload(&c, &r, info_fields, NINFO, sizeof(*o)));
	cr_expect(strstr(c.error, "jnt_name") != NULL, "%s", c.error);
	in.n_jnt_name = 1;

	/* The count lives in the nested model: a missing model fails. */
	in.model = NULL;
	cr_expect_null(decode_payload(&c, &r, info_fields, NINFO, sizeof(*o)));
	cr_expect_eq(c.result, HXD_BADPROTOCOL);
}

/*------------------------------------------- the same tables, encoding */

Test(encode, a_state_goes_out_as_the_table_says)
{
	double q[3] = { 1.5, -2, 3.25 }, v[2] = { 7, 8 };
	hxd_state in = {
		.nq = 3, .nv = 2, .na = 0, .time = 4, .qpos = q, .qvel = v
	};
	Haptix__V1__State w = HAPTIX__V1__STATE__INIT;
	hxd_conn c = { .fd = -1 };

	cr_assert_eq(
	    decode_encode(&c, state_fields,
		sizeof(state_fields) / sizeof(state_fields[0]), &in, &w),
	    HXD_OK, "%s", c.error);
	cr_expect_eq(w.nq, 3);
	cr_expect_eq(w.nv, 2);
	cr_expect_eq(w.na, 0);
	cr_expect_eq(w.time, 4);
	cr_expect_eq(w.n_qpos, 3);
	cr_expect_eq(w.qpos, q);
	cr_expect_eq(w.n_qvel, 2);
	cr_expect_eq(w.qvel, v);
	cr_expect_eq(w.n_act, 0);
}

Test(encode, per_multiplies_the_count)
{
	static const struct decode_field mocap[] = DECODE_TABLE(
	    hxd_mocap, Mocap);
	double p[6] = { 0 }, qt[8] = { 1, 0, 0, 0, 1, 0, 0, 0 };
	hxd_mocap in = { .nmocap = 2, .pos = p, .quat = qt };
	Haptix__V1__Mocap w = HAPTIX__V1__MOCAP__INIT;
	hxd_conn c = { .fd = -1 };

	cr_assert_eq(
	    decode_encode(&c, mocap, sizeof(mocap) / sizeof(mocap[0]), &in, &w),
	    HXD_OK);
	cr_expect_eq(w.nmocap, 2);
	cr_expect_eq(w.n_pos, 6);
	cr_expect_eq(w.n_quat, 8);
}

Test(encode, a_negative_count_or_a_missing_array_is_refused)
{
	double q[1] = { 0 };
	hxd_state neg = { .nq = -1, .qpos = q };
	hxd_state null = { .nq = 0, .nv = 2, .qpos = q, .qvel = NULL };
	Haptix__V1__State w = HAPTIX__V1__STATE__INIT;
	hxd_conn c = { .fd = -1 };
	size_t n = sizeof(state_fields) / sizeof(state_fields[0]);

	cr_expect_eq(decode_encode(&c, state_fields, n, &neg, &w), HXD_BADSIZE);
	cr_expect(strstr(c.error, "nq is negative") != NULL, "%s", c.error);
	haptix__v1__state__init(&w);
	cr_expect_eq(
	    decode_encode(&c, state_fields, n, &null, &w), HXD_BADSIZE);
	cr_expect(strstr(c.error, "qvel is NULL") != NULL, "%s", c.error);
}

Test(encode, what_encodes_decodes_back)
{
	double q[3] = { 1.5, -2, 3.25 }, v[2] = { 7, 8 }, a[1] = { -1 };
	hxd_state in = { .nq = 3,
		.nv = 2,
		.na = 1,
		.time = 0.5,
		.qpos = q,
		.qvel = v,
		.act = a };
	Haptix__V1__State w = HAPTIX__V1__STATE__INIT;
	Response r = HAPTIX__V1__RESPONSE__INIT;
	size_t n = sizeof(state_fields) / sizeof(state_fields[0]);
	hxd_conn c = { .fd = -1 };
	hxd_state *o;

	cr_assert_eq(decode_encode(&c, state_fields, n, &in, &w), HXD_OK);
	r.payload_case = HAPTIX__V1__RESPONSE__PAYLOAD_STATE;
	r.state = &w;
	o = decode_payload(&c, &r, state_fields, n, sizeof(*o));
	cr_assert_not_null(o, "%s", c.error);
	cr_expect_eq(o->nq, 3);
	cr_expect_eq(o->na, 1);
	cr_expect_eq(o->time, 0.5);
	cr_expect_arr_eq(o->qpos, q, sizeof(q));
	cr_expect_arr_eq(o->qvel, v, sizeof(v));
	cr_expect_arr_eq(o->act, a, sizeof(a));
	free(o);
}

Test(encode, the_argument_must_be_the_calls_message)
{
	Haptix__V1__State w = HAPTIX__V1__STATE__INIT;
	hxd_conn c = { .fd = -1 };

	/* Reset takes a Reset: refused before anything is sent. */
	cr_expect_eq(
	    request_call(&c, HAPTIX__V1__REQUEST__CALL_RESET, &w, 0, NULL),
	    HXD_BADTYPE);
	cr_expect(strstr(c.error, "not its message") != NULL, "%s", c.error);
}

/*------------------------------------------- the members, for programs */

Test(members, a_struct_is_listed_as_its_message_lists_it)
{
	static const char *const names[] = { "nq", "nv", "na", "time", "qpos",
		"qvel", "act" };
	const hxd_member *m = hxd_members("hxd_state");
	size_t i;

	cr_assert_not_null(m);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		cr_expect_str_eq(m[i].name, names[i]);
	cr_expect_null(m[i].name, "hxd_state has %s more", m[i].name);
	cr_expect_eq(m[0].kind, HXD_MEMBER_INT);
	cr_expect_eq(m[0].offset, offsetof(hxd_state, nq));
	cr_expect_eq(m[3].kind, HXD_MEMBER_NUM);
	cr_expect_eq(m[4].kind, HXD_MEMBER_NUMS);
	cr_expect_eq(m[4].offset, offsetof(hxd_state, qpos));
	cr_expect_eq(m[4].count, offsetof(hxd_state, nq));
	cr_expect_str_eq(m[4].counted, "nq");
	cr_expect_eq(m[4].per, 1);
	cr_expect_null(hxd_members("hxd_nothing"));
	cr_expect_null(hxd_members(NULL));
}

/* Every array of every list is counted by an int the list has. */
Test(members, every_count_is_a_member)
{
	static const char *const types[] = { "hxd_state", "hxd_control",
		"hxd_applied", "hxd_onebody", "hxd_mocap", "hxd_dynamics",
		"hxd_sensor", "hxd_poses", "hxd_tendon", "hxd_actuator",
		"hxd_force", "hxd_contacts", "hxd_info", "hxd_robot",
		"hxd_robot_sensor" };
	const hxd_member *m, *c;
	size_t t;

	for (t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
		m = hxd_members(types[t]);
		cr_assert_not_null(m, "%s is not listed", types[t]);
		cr_assert_not_null(m[0].name, "%s lists nothing", types[t]);
		for (; m->name != NULL; m++) {
			if (m->counted == NULL)
				continue;
			cr_expect_gt(m->per, 0, "%s.%s", types[t], m->name);
			if (strncmp(m->counted, "model.", 6) == 0)
				continue; /* hxd_info's: in its hxd_model */
			for (c = hxd_members(types[t]); c->name != NULL; c++)
				if (strcmp(c->name, m->counted) == 0)
					break;
			cr_expect_not_null(c->name, "%s.%s: no %s", types[t],
			    m->name, m->counted);
			cr_expect_eq(c->kind, HXD_MEMBER_INT);
			cr_expect_eq(c->offset, m->count);
		}
	}
}
