/*
 * Joints held on a path through a real daemon (docs/editing.md): a
 * finger of the MPL scene held against its own motor, a sine path sent
 * at the client's rate while the other fingers move, several joints in
 * one call, release, a holder that leaves, and every refusal.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "check.h"
#include "harness.h"
#include "haptixd.h"

TestSuite(hold, .timeout = 120, .fini = hx_server_cleanup);

static const char *const scene[] = { "-m", "mpl_scene.xml", "--paused", NULL };

/* The model's number of equalities, as the server has it now. */
static int
neq_now(hxd_conn *c)
{
	hxd_info *info;
	int n;

	HX_OK(c, hxd_info_get(c, &info));
	n = info->model.neq;
	free(info);
	return n;
}

/* One joint's position, by name. */
static double
qpos_of(hxd_conn *c, const char *name)
{
	hxd_joint j;

	HX_OK(c, hxd_get_joint(c, name, -1, &j));
	return j.qpos[0];
}

/* Set one actuator's control, by name. */
static void
ctrl_set(hxd_conn *c, const char *name, double v)
{
	int id;

	HX_OK(c, hxd_name2id(c, HXD_OBJ_ACTUATOR, name, &id));
	HX_OK(c, hxd_set_array(c, "ctrl", id, 1, &v));
}

/* The hold on joint in h, or NULL. */
static const hxd_hold *
hold_of(const hxd_holds *h, const char *joint)
{
	int i;

	for (i = 0; i < h->n; i++)
		if (strcmp(h->holds[i].joint, joint) == 0)
			return &h->holds[i];
	return NULL;
}

/*
 * index_MCP held at 0.5 while its motor pulls it to 1.6 stays there, the
 * equality's force answering the motor's; released, it goes where the
 * motor pulls, and the equality is gone from the model.
 */
Test(hold, a_finger_held_against_its_motor_stays_and_goes_when_released)
{
	const char *joint[] = { "index_MCP" };
	struct hx_server s;
	const hxd_hold *h;
	hxd_holds *holds;
	hxd_conn *c;
	int neq0;
	double q;

	hx_server_start(&s, scene);
	c = hx_connect_ok(s.unix_addr, "holder");
	neq0 = neq_now(c);
	ctrl_set(c, "A_index_MCP", 1.6);
	HX_OK(c, hxd_hold_joints(c, joint, (double[]){ 0.5 }, 1, &holds));
	cr_assert_eq(holds->n, 1);
	cr_expect_str_eq(holds->holds[0].joint, "index_MCP");
	cr_expect_eq(holds->holds[0].target, 0.5);
	cr_expect_str_eq(holds->holds[0].holder_name, "holder");
	free(holds);
	cr_expect_eq(neq_now(c), neq0 + 1, "no equality was added");

	HX_OK(c, hxd_step(c, 500, NULL));
	q = qpos_of(c, "index_MCP");
	printf("hold: index_MCP held at 0.5 against its motor at 1.6: %.5f "
	       "after 1 s\n",
	    q);
	cr_expect(fabs(q - 0.5) < 0.05, "index_MCP at %g, held at 0.5", q);
	HX_OK(c, hxd_get_holds(c, &holds));
	cr_assert_not_null(h = hold_of(holds, "index_MCP"));
	cr_expect(fabs(h->qpos - q) < 1e-12, "the hold says qpos %g", h->qpos);
	/* kp 3 times 1.1 rad: about 3.3 N m to answer. */
	printf("hold: the equality's force %.4f N m\n", h->force);
	cr_expect(fabs(h->force) > 1 && fabs(h->force) < 10,
	    "the equality's force %g N m does not answer the motor's",
	    h->force);
	free(holds);

	HX_OK(c, hxd_release_joints(c, NULL, 0, &holds));
	cr_expect_eq(holds->n, 0, "%d holds after the release", holds->n);
	free(holds);
	cr_expect_eq(neq_now(c), neq0, "the equality is still there");
	HX_OK(c, hxd_step(c, 500, NULL));
	q = qpos_of(c, "index_MCP");
	cr_expect(q > 1.0, "index_MCP at %g: released, its motor moves it", q);
	hxd_close(c);
	hx_server_stop(&s);
}

/*
 * The client streams a sine path at its own rate (a target every 10 ms
 * of simulated time) while the other fingers open and close: the
 * joint follows it, and the tracking error is small.
 */
Test(hold, a_sine_path_streamed_while_the_hand_moves_is_tracked)
{
	const char *joint[] = { "index_MCP" };
	const char *movers[] = { "A_middle_MCP", "A_ring_MCP", "A_pinky_MCP",
		"A_thumb_MCP", "A_wrist_FLEX" };
	struct hx_server s;
	hxd_holds *holds;
	hxd_conn *c;
	double t, target, q, err, sum = 0, worst = 0, moved = 0, m0 = 0;
	int i, k, n = 0, edits0;

	hx_server_start(&s, scene);
	c = hx_connect_ok(s.unix_addr, "path");
	ctrl_set(c, "A_index_MCP", 0.2);
	HX_OK(c, hxd_hold_joints(c, joint, (double[]){ 0.6 }, 1, NULL));
	edits0 = neq_now(c);
	for (i = 0; i < 300; i++) {
		t = 0.01 * i;
		target = 0.6 + 0.4 * sin(2 * M_PI * 1.0 * t);
		HX_OK(c, hxd_hold_joints(c, joint, &target, 1, NULL));
		for (k = 0; k < (int)(sizeof(movers) / sizeof(*movers)); k++)
			ctrl_set(c, movers[k],
			    0.5 + 0.5 * sin(2 * M_PI * 0.7 * t + k));
		HX_OK(c, hxd_step(c, 5, NULL));
		q = qpos_of(c, "index_MCP");
		if (i == 0)
			m0 = qpos_of(c, "middle_MCP");
		moved = fmax(moved, fabs(qpos_of(c, "middle_MCP") - m0));
		if (t < 0.2) /* settling onto the path */
			continue;
		err = q - target;
		sum += err * err;
		worst = fmax(worst, fabs(err));
		n++;
	}
	err = sqrt(sum / n);
	printf("hold: sine path 0.6 + 0.4 sin(2 pi t) on index_MCP, targets "
	       "at 100 Hz, %d samples: RMS error %.5f rad, worst %.5f rad "
	       "(middle_MCP moved %.3f rad meanwhile)\n",
	    n, err, worst, moved);
	cr_expect(moved > 0.3, "the other fingers hardly moved (%g)", moved);
	cr_expect(err < 0.05, "RMS tracking error %g rad", err);
	cr_expect(worst < 0.15, "worst tracking error %g rad", worst);
	/* Streaming targets recompiles nothing. */
	cr_expect_eq(neq_now(c), edits0);
	HX_OK(c, hxd_get_holds(c, &holds));
	cr_expect_eq(holds->n, 1);
	free(holds);
	hxd_close(c);
	hx_server_stop(&s);
}

/*
 * Three joints in one call are one edit (one model event); new targets
 * for them are none; releasing one leaves the others held.
 */
Test(hold, several_joints_at_once_are_one_edit)
{
	const char *joints[] = { "index_MCP", "middle_MCP", "thumb_ABD" };
	hxd_subscription sub = { .events = HXD_EVENTS(HXD_EVENT_MODEL) };
	struct hx_server s;
	hxd_holds *holds;
	hxd_conn *c, *watch;
	hxd_event *ev;
	int neq0, i;

	hx_server_start(&s, scene);
	watch = hx_connect_ok(s.unix_addr, "watch");
	HX_OK(watch, hxd_subscribe(watch, &sub, NULL));
	c = hx_connect_ok(s.unix_addr, "holder");
	neq0 = neq_now(c);
	HX_OK(c,
	    hxd_hold_joints(c, joints, (double[]){ 0.3, 0.4, 0.5 }, 3, &holds));
	cr_expect_eq(holds->n, 3);
	free(holds);
	cr_expect_eq(neq_now(c), neq0 + 3);
	ev = hx_event_within(watch, HXD_EVENT_MODEL, 10000);
	cr_assert_not_null(ev, "no model event for the holds' edit");
	cr_expect(ev->edited);
	cr_expect_str_eq(ev->operations,
	    "add equality hxhold:index_MCP\nadd equality "
	    "hxhold:middle_MCP\nadd equality hxhold:thumb_ABD\n");
	hxd_event_free(ev);

	/* New targets: no edit, no event. */
	HX_OK(c,
	    hxd_hold_joints(c, joints, (double[]){ 0.6, 0.7, 0.8 }, 3, &holds));
	for (i = 0; i < 3; i++) {
		const hxd_hold *h = hold_of(holds, joints[i]);

		cr_assert_not_null(h, "%s is not held", joints[i]);
		cr_expect_eq(h->target, 0.6 + 0.1 * i);
	}
	free(holds);
	HX_OK(c, hxd_step(c, 500, NULL));
	for (i = 0; i < 3; i++)
		cr_expect(fabs(qpos_of(c, joints[i]) - (0.6 + 0.1 * i)) < 0.05,
		    "%s at %g", joints[i], qpos_of(c, joints[i]));
	cr_expect_null(ev = hx_event_within(watch, HXD_EVENT_MODEL, 300),
	    "a new target recompiled the model");
	hxd_event_free(ev);

	HX_OK(c, hxd_release_joints(c, joints + 1, 1, &holds));
	cr_expect_eq(holds->n, 2);
	cr_expect_null(hold_of(holds, "middle_MCP"));
	free(holds);
	cr_expect_eq(neq_now(c), neq0 + 2);
	hxd_close(c);
	hxd_close(watch);
	hx_server_stop(&s);
}

/* A holder that disconnects releases its holds; another sees them go. */
Test(hold, a_holder_that_leaves_releases_its_holds)
{
	const char *joints[] = { "index_MCP", "ring_MCP" };
	struct hx_server s;
	hxd_holds *holds;
	hxd_conn *a, *b;
	int neq0, i, n = -1;

	hx_server_start(&s, scene);
	b = hx_connect_ok(s.unix_addr, "watcher");
	neq0 = neq_now(b);
	a = hx_connect_ok(s.unix_addr, "leaver");
	HX_OK(a, hxd_hold_joints(a, joints, (double[]){ 0.5, 0.5 }, 2, NULL));
	HX_OK(b, hxd_get_holds(b, &holds));
	cr_expect_eq(holds->n, 2);
	cr_expect_str_eq(holds->holds[0].holder_name, "leaver");
	free(holds);
	cr_expect_eq(neq_now(b), neq0 + 2);
	hxd_close(a);
	/* The release is an edit: give it its time. */
	for (i = 0; i < 200; i++) {
		HX_OK(b, hxd_get_holds(b, &holds));
		n = holds->n;
		free(holds);
		if (n == 0 && neq_now(b) == neq0)
			break;
		usleep(50000);
	}
	cr_expect_eq(n, 0, "%d holds left after their holder went", n);
	cr_expect_eq(neq_now(b), neq0, "the equalities stayed");
	/* The joint is free to hold again. */
	HX_OK(b, hxd_hold_joints(b, joints, (double[]){ 0.2, 0.2 }, 2, NULL));
	hxd_close(b);
	hx_server_stop(&s);
}

/*
 * Ball and free joints, unknown joints, another client's joint, bad
 * sizes and values, the reserved names and another's lease are refused,
 * and nothing changes.
 */
Test(hold, what_cannot_be_held_is_refused)
{
	static const char *const body[] = { "pos", "0.3 0.3 1" };
	static const char *const geom[] = { "size", "0.02" };
	static const char *const eq[] = { "joint1", "index_MCP" };
	const hxd_edit_op ball[] = {
		{ HXD_EDIT_ADD, "body", "pendulum", "worldbody", "", body, 1 },
		{ HXD_EDIT_ADD, "joint", "swivel", "body", "pendulum",
		    (const char *const[]){ "type", "ball" }, 1 },
		{ HXD_EDIT_ADD, "geom", "", "body", "pendulum", geom, 1 },
	};
	const hxd_edit_op reserved[] = {
		{ HXD_EDIT_ADD, "joint", "hxhold:index_MCP", "equality", "", eq,
		    1 },
	};
	const char *free_j[] = { "cube" }, *ball_j[] = { "swivel" },
		   *none[] = { "no_such_joint" }, *idx[] = { "index_MCP" },
		   *twice[] = { "index_MCP", "index_MCP" };
	struct hx_server s;
	const hxd_hold *h;
	hxd_holds *holds;
	hxd_conn *a, *b;
	int neq0;

	hx_server_start(&s, scene);
	a = hx_connect_ok(s.unix_addr, "alice");
	b = hx_connect_ok(s.unix_addr, "bob");
	HX_OK(a, hxd_edit_model(a, ball, 3, NULL, NULL));
	neq0 = neq_now(a);
	HX_FAILS_WITH(a, hxd_hold_joints(a, free_j, (double[]){ 0 }, 1, NULL),
	    HXD_BADVALUE, "free joint");
	HX_FAILS_WITH(a, hxd_hold_joints(a, ball_j, (double[]){ 0 }, 1, NULL),
	    HXD_BADVALUE, "ball joint");
	HX_FAILS_WITH(a, hxd_hold_joints(a, none, (double[]){ 0 }, 1, NULL),
	    HXD_BADVALUE, "no_such_joint");
	HX_FAILS(a, hxd_hold_joints(a, idx, (double[]){ NAN }, 1, NULL),
	    HXD_BADVALUE);
	HX_FAILS_WITH(a,
	    hxd_hold_joints(a, twice, (double[]){ 0.1, 0.2 }, 2, NULL),
	    HXD_BADVALUE, "twice");
	/* One bad joint among good ones: nothing is held. */
	HX_FAILS(a,
	    hxd_hold_joints(a, (const char *[]){ "index_MCP", "cube" },
		(double[]){ 0.1, 0.2 }, 2, NULL),
	    HXD_BADVALUE);
	HX_FAILS_WITH(a, hxd_edit_model(a, reserved, 1, NULL, NULL),
	    HXD_BADVALUE, "hxhold:");
	cr_expect_eq(neq_now(a), neq0, "a refused hold changed the model");

	/* Another client's joint: refused, saying who holds it. */
	HX_OK(a, hxd_hold_joints(a, idx, (double[]){ 0.4 }, 1, NULL));
	HX_FAILS_WITH(b, hxd_hold_joints(b, idx, (double[]){ 0.1 }, 1, NULL),
	    HXD_DENIED, "alice");
	HX_FAILS_WITH(
	    b, hxd_release_joints(b, idx, 1, NULL), HXD_DENIED, "alice");
	HX_FAILS_WITH(b,
	    hxd_release_joints(b, (const char *[]){ "ring_MCP" }, 1, NULL),
	    HXD_BADVALUE, "not held");
	/* Under alice's lease bob may look but not hold. */
	HX_OK(a, hxd_lease(a, HXD_LEASE_TAKE, NULL));
	HX_FAILS(b,
	    hxd_hold_joints(
		b, (const char *[]){ "ring_MCP" }, (double[]){ 0.1 }, 1, NULL),
	    HXD_DENIED);
	HX_OK(b, hxd_get_holds(b, &holds));
	cr_expect_eq(holds->n, 1);
	cr_assert_not_null(h = hold_of(holds, "index_MCP"));
	cr_expect_eq(
	    h->target, 0.4, "bob's refused hold changed alice's target");
	free(holds);
	hxd_close(a);
	hxd_close(b);
	hx_server_stop(&s);
}

/*
 * The holds' equalities are the daemon's: the saved text has none, and
 * a reload drops the holds, which the holder hears at its next answer.
 */
Test(hold, the_saved_text_has_no_holds_and_a_reload_drops_them)
{
	const char *idx[] = { "index_MCP" };
	struct hx_server s;
	hxd_holds *holds;
	hxd_conn *c;
	char *xml;
	int neq0;

	hx_server_start(&s, scene);
	c = hx_connect_ok(s.unix_addr, "holder");
	neq0 = neq_now(c);
	HX_OK(c, hxd_hold_joints(c, idx, (double[]){ 0.4 }, 1, NULL));
	HX_OK(c, hxd_get_model_xml(c, &xml, NULL, 0));
	cr_expect_null(strstr(xml, "hxhold:"), "the saved text holds a hold");
	cr_expect_not_null(strstr(xml, "index_MCP"));
	free(xml);
	HX_OK(c, hxd_reload(c, NULL));
	cr_expect_eq(neq_now(c), neq0);
	HX_OK(c, hxd_get_holds(c, &holds));
	cr_expect_eq(holds->n, 0);
	cr_expect_str_eq(
	    holds->dropped, "index_MCP: another model was loaded\n");
	free(holds);
	/* Told once. */
	HX_OK(c, hxd_get_holds(c, &holds));
	cr_expect_str_eq(holds->dropped, "");
	free(holds);
	hxd_close(c);
	hx_server_stop(&s);
}
