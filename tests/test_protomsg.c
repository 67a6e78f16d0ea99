/*
 * Unit tests of the protocol messages of the simulation
 * (daemon/protomsg.c, daemon/protomsg_view.c), in-process on the test
 * fixture (models/test/fixture.xml: nq 9, nv 8, na 0, nu 2, 5 bodies,
 * 7 geoms, 2 sites, 1 tendon, 1 mocap body, 11 sensor values): each
 * message's counts, time and values, arrays that point into the
 * simulation and copies that do not, the stream's field sets, and the
 * status with and without a model.  Each message must also pack.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "arena.h"
#include "clock.h"
#include "core.h"
#include "daemon.h"
#include "haptix.pb-c.h"
#include "inproc.h"
#include "lease.h"
#include "message.h"
#include "options.h"
#include "perturb.h"
#include "protomsg.h"
#include "session.h"
#include "sim.h"
#include "sim_state.h"
#include "tracking.h"

TestSuite(protomsg, .timeout = 20);

static struct daemon d;
static struct arena a;

/* The daemon with the fixture, at its keyframe "dropped" (time 1). */
static void
setup(void)
{
	inproc_start(&d, NULL);
	inproc_load(&d, "fixture.xml");
	sim_reset(d.sim, 1);
	sim_forward(d.sim);
}

/* After a failed assertion: each test stops its daemon itself. */
static void
teardown(void)
{
	arena_free(&a);
	inproc_stop(&d);
}

/* The message packs, and its bytes unpack as the same type. */
static void
packs(const void *msg)
{
	const ProtobufCMessage *m = msg;
	size_t n = protobuf_c_message_get_packed_size(m);
	uint8_t *buf = malloc(n + 1);
	ProtobufCMessage *back;

	cr_assert_not_null(buf);
	cr_assert_eq(protobuf_c_message_pack(m, buf), n);
	back = protobuf_c_message_unpack(m->descriptor, NULL, n, buf);
	cr_assert_not_null(back, "%s does not unpack", m->descriptor->name);
	protobuf_c_message_free_unpacked(back, NULL);
	free(buf);
}

Test(protomsg, views_point_into_the_simulation, .init = setup, .fini = teardown)
{
	const struct sim_arrays *y = sim_arrays(d.sim);
	Haptix__V1__State *st;
	Haptix__V1__Control *ct;
	Haptix__V1__Applied *ap;
	Haptix__V1__Mocap *mc;
	Haptix__V1__Dynamics *dy;
	Haptix__V1__Sensor *se;
	Haptix__V1__Tendon *te;
	Haptix__V1__Actuator *ac;

	st = protomsg_view(&d, &a, PROTOMSG_STATE);
	cr_assert_eq(st->base.descriptor, &haptix__v1__state__descriptor);
	cr_assert_eq(st->nq, 9);
	cr_assert_eq(st->nv, 8);
	cr_assert_eq(st->na, 0);
	cr_assert_eq(st->time, 1.0, "the keyframe's time");
	cr_assert_eq(st->n_qpos, 9);
	cr_assert_eq(st->n_qvel, 8);
	cr_assert_eq(st->n_act, 0);
	cr_assert_eq(st->qpos, y->qpos, "MuJoCo's array, not a copy");
	cr_assert_eq(st->qvel, y->qvel);
	cr_assert_eq(st->qpos[4], 1.0, "the box's height in the key");
	packs(st);

	ct = protomsg_view(&d, &a, PROTOMSG_CONTROL);
	cr_assert_eq(ct->nu, 2);
	cr_assert_eq(ct->n_ctrl, 2);
	cr_assert_eq(ct->ctrl, y->ctrl);
	packs(ct);

	ap = protomsg_view(&d, &a, PROTOMSG_APPLIED);
	cr_assert_eq(ap->nv, 8);
	cr_assert_eq(ap->nbody, 5);
	cr_assert_eq(ap->n_qfrc_applied, 8);
	cr_assert_eq(ap->n_xfrc_applied, 30, "6 per body");
	cr_assert_eq(ap->xfrc_applied, y->xfrc_applied);
	packs(ap);

	mc = protomsg_view(&d, &a, PROTOMSG_MOCAP);
	cr_assert_eq(mc->nmocap, 1);
	cr_assert_eq(mc->n_pos, 3);
	cr_assert_eq(mc->n_quat, 4);
	cr_assert_eq(mc->pos[0], 0);
	cr_assert_eq(mc->pos[1], 1);
	cr_assert_eq(mc->pos[2], 1);
	cr_assert_eq(mc->quat[0], 1);
	packs(mc);

	dy = protomsg_view(&d, &a, PROTOMSG_DYNAMICS);
	cr_assert_eq(dy->nv, 8);
	cr_assert_eq(dy->n_qacc, 8);
	cr_assert_eq(dy->n_act_dot, 0);
	cr_assert_eq(dy->qacc, y->qacc);
	packs(dy);

	se = protomsg_view(&d, &a, PROTOMSG_SENSOR);
	cr_assert_eq(se->nsensordata, 11);
	cr_assert_eq(se->n_sensordata, 11);
	cr_assert_eq(se->sensordata, y->sensordata);
	packs(se);

	te = protomsg_view(&d, &a, PROTOMSG_TENDON);
	cr_assert_eq(te->ntendon, 1);
	cr_assert_eq(te->n_length, 1);
	cr_assert_eq(te->n_velocity, 1);
	cr_assert_eq(te->length, y->ten_length);
	packs(te);

	ac = protomsg_view(&d, &a, PROTOMSG_ACTUATOR);
	cr_assert_eq(ac->nu, 2);
	cr_assert_eq(ac->n_length, 2);
	cr_assert_eq(ac->n_velocity, 2);
	cr_assert_eq(ac->n_force, 2);
	cr_assert_eq(ac->force, y->actuator_force);
	cr_assert_eq(ac->time, 1.0);
	packs(ac);
	inproc_stop(&d);
}

Test(protomsg, force_view_computes_the_applied_forces, .init = setup,
    .fini = teardown)
{
	const struct sim_arrays *y = sim_arrays(d.sim);
	double qfrc[8] = { 0.25, -0.5, 0, 0, 0, 0, 0, 0 };
	double xfrc[30] = { 0 };
	Haptix__V1__Force *f;

	xfrc[3 * 6 + 2] = 2; /* 2 N up on the box */
	sim_set_applied(d.sim, qfrc, xfrc);
	sim_forward(d.sim);
	f = protomsg_view(&d, &a, PROTOMSG_FORCE);
	cr_assert_eq(f->nv, 8);
	cr_assert_eq(f->n_applied, 8);
	cr_assert_eq(f->n_passive, 8);
	cr_assert_eq(f->n_constraint, 8);
	cr_assert_eq(f->n_nonconstraint, 8);
	cr_assert_eq(f->passive, y->qfrc_passive);
	cr_assert_neq(f->applied, y->qfrc_applied, "computed in the arena");
	cr_assert(fabs(f->applied[0] - 0.25) < 1e-9, "%g", f->applied[0]);
	cr_assert(fabs(f->applied[1] + 0.5) < 1e-9, "%g", f->applied[1]);
	/* The box's force, mapped to its free joint's z (dof 4). */
	cr_assert(fabs(f->applied[4] - 2) < 1e-9, "%g", f->applied[4]);
	cr_assert(fabs(f->applied[3]) < 1e-9, "%g", f->applied[3]);
	cr_assert(fabs(f->applied[7]) < 1e-9, "%g", f->applied[7]);
	packs(f);
	inproc_stop(&d);
}

Test(protomsg, views_without_a_model_are_empty, .fini = teardown)
{
	Haptix__V1__State *st;
	Haptix__V1__Sensor *se;

	inproc_start(&d, NULL);
	st = protomsg_view(&d, &a, PROTOMSG_STATE);
	cr_assert_eq(st->nq, 0);
	cr_assert_eq(st->n_qpos, 0);
	cr_assert_eq(st->n_qvel, 0);
	packs(st);
	se = protomsg_view(&d, &a, PROTOMSG_SENSOR);
	cr_assert_eq(se->n_sensordata, 0);
	packs(se);
	inproc_stop(&d);
}

Test(protomsg, poses, .init = setup, .fini = teardown)
{
	const struct sim_arrays *y = sim_arrays(d.sim);
	Haptix__V1__Poses *p;

	p = protomsg_poses(&d, &a, PROTOMSG_BODY);
	cr_assert_eq(p->count, 5);
	cr_assert_eq(p->n_pos, 15);
	cr_assert_eq(p->n_mat, 45);
	cr_assert_eq(p->time, 1.0);
	cr_assert_eq(p->pos, y->xpos, "MuJoCo's array, not a copy");
	cr_assert_eq(p->mat, y->xmat);
	/* link1 at (0 0 1); the marker (mocap) at (0 1 1). */
	cr_assert_eq(p->pos[3], 0);
	cr_assert_eq(p->pos[5], 1);
	cr_assert_eq(p->pos[4 * 3 + 1], 1);
	packs(p);

	p = protomsg_poses(&d, &a, PROTOMSG_GEOM);
	cr_assert_eq(p->count, 7);
	cr_assert_eq(p->n_pos, 21);
	cr_assert_eq(p->n_mat, 63);
	cr_assert_eq(p->pos, y->geom_xpos);
	/* The terrain geom at (2 2 0). */
	cr_assert_eq(p->pos[1 * 3], 2);
	cr_assert_eq(p->pos[1 * 3 + 1], 2);
	cr_assert_eq(p->pos[1 * 3 + 2], 0);

	p = protomsg_poses(&d, &a, PROTOMSG_SITE);
	cr_assert_eq(p->count, 2);
	cr_assert_eq(p->n_pos, 6);
	cr_assert_eq(p->n_mat, 18);
	cr_assert_eq(p->mat, y->site_xmat);
	inproc_stop(&d);
}

Test(protomsg, contacts_are_copies, .init = setup, .fini = teardown)
{
	const struct sim_arrays *y = sim_arrays(d.sim);
	Haptix__V1__Contacts *c;
	size_t i;

	/* The reference pose: the box rests on the floor, nothing else. */
	sim_reset(d.sim, -1);
	sim_forward(d.sim);
	c = protomsg_contacts(&d, &a);
	cr_assert_geq(c->ncon, 1, "the box touches the floor");
	cr_assert_eq(c->time, 0);
	cr_assert_eq(c->n_dist, c->ncon);
	cr_assert_eq(c->n_pos, 3 * c->ncon);
	cr_assert_eq(c->n_frame, 9 * c->ncon);
	cr_assert_eq(c->n_force, 3 * c->ncon);
	cr_assert_eq(c->n_geom1, c->ncon);
	cr_assert_eq(c->n_geom2, c->ncon);
	for (i = 0; i < c->ncon; i++) {
		/* floor is geom 0, box geom 5 */
		cr_assert_eq(c->geom1[i] + c->geom2[i], 5, "contact %zu: %d %d",
		    i, c->geom1[i], c->geom2[i]);
		cr_assert_eq(c->geom1[i] * c->geom2[i], 0);
		cr_assert(fabs(c->dist[i]) < 1e-6, "%g", c->dist[i]);
		cr_assert(fabs(c->pos[3 * i + 2]) < 1e-6, "on the floor");
	}
	cr_assert_neq(c->pos, y->xpos);
	packs(c);
	inproc_stop(&d);
}

Test(protomsg, field_sets)
{
	const int good[] = { HAPTIX__V1__STREAM_FIELD__STREAM_QPOS,
		HAPTIX__V1__STREAM_FIELD__STREAM_XFRC_APPLIED,
		HAPTIX__V1__STREAM_FIELD__STREAM_QPOS };
	int bad[] = { HAPTIX__V1__STREAM_FIELD__STREAM_QVEL, 0 };
	uint32_t set = 12345;

	cr_assert_eq(protomsg_field_set(NULL, 0, &set), -1);
	cr_assert_eq(set, 0, "no field: the empty set");
	cr_assert_eq(protomsg_field_set(good, 3, &set), -1);
	cr_assert_eq(set, (1u << 1) | (1u << 13), "a field twice is once");
	cr_assert_eq(
	    PROTOMSG_FIELD(HAPTIX__V1__STREAM_FIELD__STREAM_STATUS), 1u << 11);

	cr_assert_eq(protomsg_field_set(bad, 2, &set), 1, "NONE is no field");
	bad[1] = HAPTIX__V1__STREAM_FIELD__STREAM_XFRC_APPLIED + 1;
	cr_assert_eq(protomsg_field_set(bad, 2, &set), 1, "past the last");
	bad[0] = -1;
	cr_assert_eq(protomsg_field_set(bad, 2, &set), 0, "the first bad one");
	bad[0] = 32; /* would shift past the set's bits */
	cr_assert_eq(protomsg_field_set(bad, 1, &set), 0);
}

#define F(name) PROTOMSG_FIELD(HAPTIX__V1__STREAM_FIELD__STREAM_##name)

Test(protomsg, frame_with_and_without_copies, .init = setup, .fini = teardown)
{
	const struct sim_arrays *y = sim_arrays(d.sim);
	Haptix__V1__StreamFrame f, g;
	double q1;

	protomsg_frame(&d, &a, F(QPOS) | F(CTRL) | F(BODY), 0, &f);
	cr_assert_eq(f.time, 1.0);
	cr_assert_eq(f.step, 0);
	cr_assert_eq(f.n_qpos, 9);
	cr_assert_eq(f.qpos, y->qpos, "without copy: MuJoCo's arrays");
	cr_assert_eq(f.n_ctrl, 2);
	cr_assert_eq(f.ctrl, y->ctrl);
	cr_assert_not_null(f.body);
	cr_assert_eq(f.body->pos, y->xpos);
	cr_assert_eq(f.n_qvel, 0, "fields not asked for are absent");
	cr_assert_null(f.qvel);
	cr_assert_eq(f.n_sensordata, 0);
	cr_assert_null(f.geom);
	cr_assert_null(f.site);
	cr_assert_null(f.contacts);
	cr_assert_null(f.status);
	packs(&f);

	protomsg_frame(&d, &a,
	    F(QPOS) | F(QVEL) | F(ACT) | F(MOCAP) | F(SENSORDATA) |
		F(QFRC_APPLIED) | F(XFRC_APPLIED) | F(GEOM) | F(SITE) |
		F(CONTACTS),
	    1, &g);
	cr_assert_eq(g.n_qpos, 9);
	cr_assert_neq(g.qpos, y->qpos, "with copy: the arena's");
	cr_assert_eq(memcmp(g.qpos, y->qpos, 9 * sizeof(double)), 0);
	cr_assert_eq(g.n_qvel, 8);
	cr_assert_eq(g.n_act, 0);
	cr_assert_eq(g.n_mocap_pos, 3);
	cr_assert_eq(g.n_mocap_quat, 4);
	cr_assert_neq(g.mocap_pos, y->mocap_pos);
	cr_assert_eq(g.n_sensordata, 11);
	cr_assert_eq(g.n_qfrc_applied, 8);
	cr_assert_eq(g.n_xfrc_applied, 30);
	cr_assert_eq(g.geom->count, 7);
	cr_assert_neq(g.geom->pos, y->geom_xpos);
	cr_assert_eq(memcmp(g.geom->mat, y->geom_xmat, 63 * sizeof(double)), 0);
	cr_assert_eq(g.site->count, 2);
	cr_assert_not_null(g.contacts);
	cr_assert_eq(g.n_ctrl, 0);
	cr_assert_null(g.body);
	packs(&g);

	/* The copy keeps the values of its time; the view follows. */
	q1 = y->qpos[0];
	sim_reset(d.sim, 0); /* "raised": qpos[0] 0.5 */
	cr_assert_eq(y->qpos[0], 0.5);
	cr_assert_eq(f.qpos[0], 0.5);
	cr_assert_eq(g.qpos[0], q1);
	inproc_stop(&d);
}

Test(protomsg, status_with_a_model, .init = setup, .fini = teardown)
{
	Haptix__V1__Status *st;
	static struct session carol;
	char err[256];

	core_start(&d);
	sim_before_step(d.sim);
	cr_assert_eq(sim_step(d.sim, err, sizeof(err)), 0, "%s", err);
	carol.id = 3;
	strcpy(carol.name, "carol");
	cr_assert_eq(lease_take(&d, &carol, err, sizeof(err)), 0, "%s", err);
	message_set(&d, 3, "hello there", strlen("hello there"));
	lease_batch_hold(&d, 4);
	st = protomsg_status(&d, &a);
	cr_assert_str_eq(st->model->name, "fixture");
	cr_assert_eq(st->model->nq, 9);
	cr_assert_eq(st->model->nbody, 5);
	cr_assert_eq(st->model->timestep, 0.002);
	cr_assert_eq(st->steps, 1);
	cr_assert(fabs(st->time - 1.002) < 1e-12, "%.17g", st->time);
	cr_assert(st->paused, "core_start's clock is paused");
	cr_assert_eq(st->lease_holder, 3);
	cr_assert_str_eq(st->lease_holder_name, "carol");
	cr_assert_str_eq(st->message, "hello there");
	cr_assert_neq(st->message, message_text(&d), "a copy");
	cr_assert_eq(st->batch_session, 4);
	cr_assert_eq(st->clients, 0);
	cr_assert_eq(st->limits->max_frame, d.opts->max_frame);
	cr_assert_eq(st->limits->max_queued, d.opts->max_queued);
	cr_assert_eq(st->limits->load_memory,
	    (uint64_t)d.opts->load_memory << 20, "in bytes");
	cr_assert_eq(st->n_tracking, 0);
	cr_assert_eq(st->n_perturbations, 0);
	cr_assert_eq(st->perturb_timeout, d.opts->perturb_timeout);
	cr_assert_not_null(st->recording);
	cr_assert_eq(st->recording->active, 0);
	cr_assert_eq(st->ncon, 0, "the box is in the air");
	packs(st);
	inproc_stop(&d);
}

Test(protomsg, status_without_a_model, .fini = teardown)
{
	Haptix__V1__Status *st;

	inproc_start(&d, NULL);
	core_start(&d);
	st = protomsg_status(&d, &a);
	cr_assert_str_eq(st->model->name, "");
	cr_assert_eq(st->model->nq, 0);
	cr_assert_eq(st->steps, 0);
	cr_assert_eq(st->time, 0);
	cr_assert_eq(st->n_tracking, 0);
	cr_assert_eq(st->n_perturbations, 0);
	cr_assert_eq(st->limits->max_frame, d.opts->max_frame);
	packs(st);
	inproc_stop(&d);
}

Test(
    protomsg, perturbation_and_tracking_copies, .init = setup, .fini = teardown)
{
	struct perturb_info p = { .body = 3,
		.f = { 1, 2, 3, 4, 5, 6 },
		.driver = 9,
		.driver_name = "spacenav",
		.age = 0.25,
		.timeout = 2 };
	struct tracking_info t = { .mocap = 0,
		.body = 4,
		.connected = 1,
		.driver = 8,
		.driver_name = "mocap",
		.poses = 100,
		.rate = 120 };
	Haptix__V1__Perturbation *w;
	Haptix__V1__Tracking *k;

	w = protomsg_perturbation(&d, &a, &p);
	cr_assert_eq(w->body, 3);
	cr_assert_str_eq(w->name, "box");
	cr_assert_eq(w->n_force, 3);
	cr_assert_eq(w->n_torque, 3);
	cr_assert_eq(w->force[0], 1);
	cr_assert_eq(w->force[2], 3);
	cr_assert_eq(w->torque[0], 4);
	cr_assert_eq(w->torque[2], 6);
	cr_assert_str_eq(w->driver_name, "spacenav");
	cr_assert_neq(w->driver_name, p.driver_name, "a copy");
	cr_assert_eq(w->age, 0.25);
	cr_assert_eq(w->timeout, 2);
	packs(w);

	/* A body of the model before the last load is not named. */
	p.stale = 1;
	w = protomsg_perturbation(&d, &a, &p);
	cr_assert_str_eq(w->name, "");
	cr_assert_eq(w->body, 3);

	k = protomsg_tracking(&d, &a, &t);
	cr_assert_str_eq(k->body, "marker");
	cr_assert_eq(k->connected, 1);
	cr_assert_eq(k->poses, 100);
	cr_assert_eq(k->rate, 120);
	cr_assert_str_eq(k->driver_name, "mocap");
	packs(k);
	t.body = -1;
	k = protomsg_tracking(&d, &a, &t);
	cr_assert_str_eq(k->body, "", "no body: no name");
	inproc_stop(&d);
}
