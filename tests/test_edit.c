/*
 * Model editing through a real daemon (docs/editing.md): edit
 * transactions on the running MPL scene, compiled in the loader, with the
 * state kept by names; each kind of bad input, which changes nothing.
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
#include "haptix.pb-c.h"
#include "haptixd.h"
#include "rawclient.h"

TestSuite(edit, .timeout = 120, .fini = hx_server_cleanup);

static const char *const scene[] = { "-m", "mpl_scene.xml", "--paused", NULL };

/* One joint's qpos and qvel, read by name. */
static void
joint_state(hxd_conn *c, const char *name, double *q, double *v)
{
	hxd_joint j;

	HX_OK(c, hxd_get_joint(c, name, -1, &j));
	memcpy(q, j.qpos, sizeof(j.qpos));
	memcpy(v, j.qvel, sizeof(j.qvel));
}

/*
 * A box added above the table while the hand moves falls onto it, and
 * every joint's state is bit-identical across the edit (matched by name:
 * the added body may come before the hand's in the new qpos).
 */
Test(edit, an_added_box_falls_and_the_hand_keeps_its_state)
{
	static const char *const body[] = { "pos", "0.2 -0.2 1.1" };
	static const char *const geom[] = { "type", "box", "size",
		"0.03 0.03 0.03", "mass", "0.2" };
	const hxd_edit_op ops[] = {
		{ HXD_EDIT_ADD, "body", "dropped", "worldbody", "", body, 1 },
		{ HXD_EDIT_ADD, "freejoint", "dropped", "body", "dropped", NULL,
		    0 },
		{ HXD_EDIT_ADD, "geom", "dropped", "body", "dropped", geom, 3 },
	};
	struct hx_server s;
	hxd_joint *old, j, box;
	hxd_model m0, m1;
	hxd_conn *c;
	double t0, q[7], v[6];
	int i;

	hx_server_start(&s, scene);
	c = hx_connect_ok(s.unix_addr, "editor");
	m0 = *hxd_welcome_model(c);
	/* Move the hand a little, so that its state is not the initial. */
	HX_OK(c,
	    hxd_set_joint(
		c, "index_MCP", (double[]){ 0.4 }, 1, (double[]){ 0.3 }, 1));
	HX_OK(c, hxd_step(c, 20, NULL));
	cr_assert_not_null(old = calloc((size_t)m0.njnt, sizeof(*old)));
	for (i = 0; i < m0.njnt; i++)
		HX_OK(c, hxd_get_joint(c, NULL, i, &old[i]));
	t0 = hx_status_ok(c).time;

	HX_OK(c, hxd_edit_model(c, ops, 3, &m1, NULL));
	cr_expect_eq(m1.nbody, m0.nbody + 1);
	cr_expect_eq(m1.nq, m0.nq + 7);
	cr_expect_str_eq(m1.name, m0.name, "the model keeps its name");
	cr_expect_eq(
	    hx_status_ok(c).time, t0, "time went on from where it was");
	/* So did the count of steps, from the same origin (it was 0). */
	cr_expect_eq(hx_status_ok(c).steps, 20, "steps %llu after the edit",
	    hx_status_ok(c).steps);
	/* Every joint that was, by name: its values bit for bit. */
	for (i = 0; i < m0.njnt; i++) {
		cr_assert_str_not_empty(old[i].name);
		HX_OK(c, hxd_get_joint(c, old[i].name, -1, &j));
		cr_expect(memcmp(j.qpos, old[i].qpos,
			      sizeof(double) * (size_t)j.nq) == 0 &&
			memcmp(j.qvel, old[i].qvel,
			    sizeof(double) * (size_t)j.nv) == 0,
		    "joint %s changed across the edit", old[i].name);
	}
	free(old);

	/* The new box starts where it was put, and falls onto the table. */
	joint_state(c, "dropped", q, v);
	cr_expect(fabs(q[2] - 1.1) < 1e-12, "box at z %g", q[2]);
	HX_OK(c, hxd_step(c, 1000, NULL));
	HX_OK(c, hxd_get_joint(c, "dropped", -1, &box));
	cr_expect(box.qpos[2] < 0.80 && box.qpos[2] > 0.76,
	    "the box rests at z %g, not on the table (top 0.765)", box.qpos[2]);
	cr_expect_eq(hx_status_ok(c).steps, 1020);
	/* A reset starts both again (the steps went on counting). */
	HX_OK(c, hxd_reset(c, -1));
	cr_expect_eq(hx_status_ok(c).time, 0);
	cr_expect_eq(hx_status_ok(c).steps, 0, "steps %llu after a reset",
	    hx_status_ok(c).steps);
	hxd_close(c);
	hx_server_stop(&s);
}

/* Attributes set through the tree show in the compiled arrays. */
Test(edit, set_attributes_show_in_the_arrays)
{
	static const char *const size[] = { "size", "0.04 0.04 0.04", "rgba",
		"0 1 0 1" };
	static const char *const mass[] = { "mass", "0.5" };
	static const char *const rgba[] = { "rgba" };
	const hxd_edit_op set[] = {
		{ HXD_EDIT_SET, "geom", "cube", NULL, NULL, size, 2 },
		{ HXD_EDIT_SET, "geom", "sphere", NULL, NULL, mass, 1 },
	};
	const hxd_edit_op unset[] = {
		{ HXD_EDIT_UNSET, "geom", "cube", NULL, NULL, rgba, 1 },
	};
	struct hx_server s;
	hxd_array *a;
	hxd_conn *c;
	int geom, body;

	hx_server_start(&s, scene);
	c = hx_connect_ok(s.unix_addr, "editor");
	HX_OK(c, hxd_name2id(c, HXD_OBJ_GEOM, "cube", &geom));
	HX_OK(c, hxd_edit_model(c, set, 2, NULL, NULL));
	HX_OK(c, hxd_get_array(c, "geom_size", &a));
	cr_expect(
	    a->values[3 * geom] == 0.04 && a->values[3 * geom + 2] == 0.04,
	    "geom_size %g", a->values[3 * geom]);
	free(a);
	HX_OK(c, hxd_get_array(c, "geom_rgba", &a));
	cr_expect(a->values[4 * geom] == 0 && a->values[4 * geom + 1] == 1,
	    "geom_rgba %g %g", a->values[4 * geom], a->values[4 * geom + 1]);
	free(a);
	HX_OK(c, hxd_name2id(c, HXD_OBJ_BODY, "sphere", &body));
	HX_OK(c, hxd_get_array(c, "body_mass", &a));
	cr_expect(fabs(a->values[body] - 0.5) < 1e-12, "body_mass %g",
	    a->values[body]);
	free(a);
	/* Unset: the material's colour again. */
	HX_OK(c, hxd_edit_model(c, unset, 1, NULL, NULL));
	HX_OK(c, hxd_get_array(c, "geom_rgba", &a));
	cr_expect(a->values[4 * geom + 1] != 1, "the rgba stayed");
	free(a);
	hxd_close(c);
	hx_server_stop(&s);
}

/*
 * Removing the cube takes its joint and geom, and its sensors, contact
 * pair and exclude (added first: the scene has none of its own); every
 * joint that stays, the hand's and the sphere's, keeps its state bit for
 * bit.
 */
Test(edit, remove_takes_the_subtree_and_keeps_the_rest)
{
	const hxd_edit_op refs[] = {
		{ HXD_EDIT_ADD, "framepos", "cube_pos", "sensor", "",
		    (const char *const[]){
			"objtype", "body", "objname", "cube" },
		    2 },
		{ HXD_EDIT_ADD, "framelinvel", "cube_vel", "sensor", "",
		    (const char *const[]){
			"objtype", "geom", "objname", "cube" },
		    2 },
		{ HXD_EDIT_ADD, "pair", "cube_table", "contact", "",
		    (const char *const[]){
			"geom1", "cube", "geom2", "table_top" },
		    2 },
		{ HXD_EDIT_ADD, "exclude", "", "contact", "",
		    (const char *const[]){ "body1", "cube", "body2", "sphere" },
		    2 },
	};
	const hxd_edit_op rm[] = {
		{ HXD_EDIT_REMOVE, "body", "cube", NULL, NULL, NULL, 0 },
	};
	struct hx_server s;
	hxd_model m0, m1;
	hxd_joint *old, j;
	hxd_array *pairs;
	hxd_conn *c;
	char *removed = NULL;
	int i, n = 0;

	hx_server_start(&s, scene);
	c = hx_connect_ok(s.unix_addr, "editor");
	HX_OK(c, hxd_edit_model(c, refs, 4, &m0, NULL));
	HX_OK(c, hxd_get_array(c, "pair_geom1", &pairs));
	cr_assert_eq(pairs->rows, 1);
	free(pairs);
	HX_OK(c,
	    hxd_set_joint(
		c, "index_MCP", (double[]){ 0.4 }, 1, (double[]){ 0.3 }, 1));
	HX_OK(c, hxd_step(c, 50, NULL));
	cr_assert_not_null(old = calloc((size_t)m0.njnt, sizeof(*old)));
	for (i = 0; i < m0.njnt; i++) {
		HX_OK(c, hxd_get_joint(c, NULL, i, &old[n]));
		n += strcmp(old[n].name, "cube") != 0;
	}
	HX_OK(c, hxd_edit_model(c, rm, 1, &m1, &removed));
	cr_assert_not_null(removed);
	cr_expect_not_null(strstr(removed, "body cube\n"), "%s", removed);
	cr_expect_not_null(
	    strstr(removed, "framepos cube_pos\n"), "%s", removed);
	cr_expect_not_null(
	    strstr(removed, "framelinvel cube_vel\n"), "%s", removed);
	cr_expect_not_null(strstr(removed, "pair cube_table\n"), "%s", removed);
	cr_expect_not_null(strstr(removed, "exclude -\n"), "%s", removed);
	free(removed);
	cr_expect_eq(m1.nbody, m0.nbody - 1);
	cr_expect_eq(m1.nq, m0.nq - 7);
	cr_expect_eq(m1.nsensor, m0.nsensor - 2);
	HX_OK(c, hxd_get_array(c, "pair_geom1", &pairs));
	cr_expect_eq(pairs->rows, 0, "%d pairs left", pairs->rows);
	free(pairs);
	HX_FAILS_WITH(
	    c, hxd_get_joint(c, "cube", -1, &j), HXD_BADINDEX, "cube");
	for (i = 0; i < n; i++) {
		HX_OK(c, hxd_get_joint(c, old[i].name, -1, &j));
		cr_expect(memcmp(j.qpos, old[i].qpos,
			      sizeof(double) * (size_t)j.nq) == 0 &&
			memcmp(j.qvel, old[i].qvel,
			    sizeof(double) * (size_t)j.nv) == 0,
		    "joint %s changed across the edit", old[i].name);
	}
	free(old);
	hxd_close(c);
	hx_server_stop(&s);
}

/* A motor on a joint that goes is removed with it. */
Test(edit, remove_takes_what_refers_to_it)
{
	static const char *const motor[] = { "joint", "cube_slide" };
	static const char *const slide[] = { "type", "slide", "axis", "1 0 0" };
	const hxd_edit_op add[] = {
		{ HXD_EDIT_ADD, "body", "slider", "worldbody", "",
		    (const char *const[]){ "pos", "0 0.5 1" }, 1 },
		{ HXD_EDIT_ADD, "joint", "cube_slide", "body", "slider", slide,
		    2 },
		{ HXD_EDIT_ADD, "geom", "", "body", "slider",
		    (const char *const[]){ "size", "0.02" }, 1 },
		{ HXD_EDIT_ADD, "motor", "pusher", "actuator", "", motor, 1 },
	};
	const hxd_edit_op rm[] = {
		{ HXD_EDIT_REMOVE, "body", "slider", NULL, NULL, NULL, 0 },
	};
	struct hx_server s;
	hxd_model m0, m1;
	hxd_conn *c;
	char *removed = NULL;

	hx_server_start(&s, scene);
	c = hx_connect_ok(s.unix_addr, "editor");
	m0 = *hxd_welcome_model(c);
	HX_OK(c, hxd_edit_model(c, add, 4, &m1, NULL));
	cr_expect_eq(m1.nu, m0.nu + 1);
	HX_OK(c, hxd_edit_model(c, rm, 1, &m1, &removed));
	cr_assert_not_null(removed);
	cr_expect_not_null(strstr(removed, "motor pusher\n"), "%s", removed);
	free(removed);
	cr_expect_eq(m1.nu, m0.nu);
	cr_expect_eq(m1.nbody, m0.nbody);
	hxd_close(c);
	hx_server_stop(&s);
}

/* An edit that must be refused: its operations, the code, a word. */
struct refusal {
	hxd_edit_op op[2];
	int n, code;
	const char *says;
};

/*
 * Each case is refused with its code, saying its word, and leaves the
 * model as it was: its bodies and every geom's size.
 */
static void
refusals_change_nothing(hxd_conn *c, const struct refusal *cases, size_t n)
{
	hxd_model m0 = *hxd_welcome_model(c);
	hxd_array *a0, *a;
	size_t i;

	HX_OK(c, hxd_get_array(c, "geom_size", &a0));
	for (i = 0; i < n; i++) {
		cr_expect_eq(
		    hxd_edit_model(c, cases[i].op, cases[i].n, NULL, NULL),
		    cases[i].code, "case %zu: %s", i, hxd_error(c));
		cr_expect_not_null(strstr(hxd_error(c), cases[i].says),
		    "case %zu: %s", i, hxd_error(c));
		cr_expect_eq(hx_status_ok(c).model.nbody, m0.nbody);
		HX_OK(c, hxd_get_array(c, "geom_size", &a));
		cr_expect(a->rows == a0->rows &&
			memcmp(a->values, a0->values,
			    sizeof(double) * (size_t)(a->rows * a->cols)) == 0,
		    "case %zu changed the model", i);
		free(a);
	}
	free(a0);
}

/* Each bad edit is refused, saying why, and changes nothing. */
Test(edit, bad_edits_change_nothing)
{
	static const char *const nan_pos[] = { "pos", "0 0 x" };
	static const char *const outside[] = { "file", "/etc/passwd" };
	static const char *const ok[] = { "size", "0.1" };
	const struct refusal cases[] = {
		{ { { HXD_EDIT_ADD, "body", "x", "body", "nosuch", NULL, 0 } },
		    1, HXD_BADVALUE, "no body named \"nosuch\"" },
		{ { { HXD_EDIT_ADD, "body", "cube", "worldbody", "", NULL, 0 } },
		    1, HXD_BADVALUE, "already" },
		{ { { HXD_EDIT_SET, "geom", "nosuch", NULL, NULL, ok, 1 } }, 1,
		    HXD_BADVALUE, "no geom named" },
		{ { { HXD_EDIT_ADD, "bodyy", "x", "worldbody", "", NULL, 0 } },
		    1, HXD_LOADFAILED, "bodyy" },
		{ { { HXD_EDIT_SET, "body", "cube", NULL, NULL, nan_pos, 1 } },
		    1, HXD_LOADFAILED, "" },
		{ { { HXD_EDIT_ADD, "mesh", "stolen", "asset", "", outside,
		      1 } },
		    1, HXD_DENIED, "passwd" },
		{ { { HXD_EDIT_SET, "geom", "cube", NULL, NULL, ok, 1 },
		      { HXD_EDIT_REMOVE, "worldbody", "x", NULL, NULL, NULL,
			  0 } },
		    2, HXD_BADVALUE, "operation 2" },
	};
	struct hx_server s;
	hxd_conn *c;

	hx_server_start(&s, scene);
	c = hx_connect_ok(s.unix_addr, "editor");
	refusals_change_nothing(c, cases, sizeof(cases) / sizeof(cases[0]));
	/* No operations at all. */
	cr_expect_eq(hxd_edit_model(c, NULL, 0, NULL, NULL), HXD_BADSIZE);
	hxd_close(c);
	hx_server_stop(&s);
}

/*
 * The fixture's keyframes survive edits that change its sizes: each
 * keeps its values for the joints and actuators that are still there,
 * and what is new starts as the model does.
 */
Test(edit, keyframes_keep_their_values_for_surviving_joints)
{
	static const char *const args[] = { "-m", "fixture.xml", "--paused",
		NULL };
	static const char *const body[] = { "pos", "1 1 1" };
	static const char *const geom[] = { "size", "0.05" };
	const hxd_edit_op add[] = {
		{ HXD_EDIT_ADD, "body", "extra", "worldbody", "", body, 1 },
		{ HXD_EDIT_ADD, "geom", "", "body", "extra", geom, 1 },
		{ HXD_EDIT_ADD, "freejoint", "extra", "body", "extra", NULL,
		    0 },
	};
	const hxd_edit_op rm[] = {
		{ HXD_EDIT_REMOVE, "body", "link2", NULL, NULL, NULL, 0 },
	};
	struct hx_server s;
	hxd_joint j;
	hxd_model m;
	hxd_conn *c;

	hx_server_start(&s, args);
	c = hx_connect_ok(s.unix_addr, "editor");
	HX_OK(c, hxd_edit_model(c, add, 3, &m, NULL));
	cr_expect_eq(m.nq, 9 + 7);
	cr_expect_eq(m.nkey, 2);
	/* "raised": hinge1 0.5, hinge2 -0.5, the box at (0.6, 0, 0.1); the
	 * new body where it was put. */
	HX_OK(c, hxd_reset_name(c, "raised"));
	HX_OK(c, hxd_get_joint(c, "hinge1", -1, &j));
	cr_expect_eq(j.qpos[0], 0.5);
	HX_OK(c, hxd_get_joint(c, "hinge2", -1, &j));
	cr_expect_eq(j.qpos[0], -0.5);
	HX_OK(c, hxd_get_joint(c, "box", -1, &j));
	cr_expect(j.qpos[0] == 0.6 && j.qpos[2] == 0.1, "box at %g, %g",
	    j.qpos[0], j.qpos[2]);
	HX_OK(c, hxd_get_joint(c, "extra", -1, &j));
	cr_expect(j.qpos[0] == 1 && j.qpos[1] == 1 && j.qpos[2] == 1,
	    "the new body at %g %g %g", j.qpos[0], j.qpos[1], j.qpos[2]);
	/* Removing a link and the joint in it: the others keep theirs. */
	HX_OK(c, hxd_edit_model(c, rm, 1, &m, NULL));
	cr_expect_eq(m.nq, 9 + 7 - 1);
	HX_OK(c, hxd_reset_name(c, "raised"));
	HX_OK(c, hxd_get_joint(c, "hinge1", -1, &j));
	cr_expect_eq(j.qpos[0], 0.5);
	HX_OK(c, hxd_get_joint(c, "box", -1, &j));
	cr_expect(j.qpos[0] == 0.6 && j.qpos[2] == 0.1, "box at %g, %g",
	    j.qpos[0], j.qpos[2]);
	hxd_close(c);
	hx_server_stop(&s);
}

/* Every client hears of an edit: the new sizes and the operations. */
Test(edit, clients_hear_of_an_edit)
{
	static const char *const geom[] = { "size", "0.05" };
	const hxd_edit_op ops[] = {
		{ HXD_EDIT_ADD, "body", "extra", "worldbody", "", NULL, 0 },
		{ HXD_EDIT_ADD, "geom", "", "body", "extra", geom, 1 },
		{ HXD_EDIT_REMOVE, "body", "cylinder", NULL, NULL, NULL, 0 },
	};
	hxd_subscription sub = { .events = HXD_EVENTS(HXD_EVENT_MODEL) };
	struct hx_server s;
	hxd_conn *c, *watch;
	hxd_event *ev;
	hxd_model m;

	hx_server_start(&s, scene);
	watch = hx_connect_ok(s.unix_addr, "watch");
	HX_OK(watch, hxd_subscribe(watch, &sub, NULL));
	c = hx_connect_ok(s.unix_addr, "editor");
	HX_OK(c, hxd_edit_model(c, ops, 3, &m, NULL));
	ev = hx_event_within(watch, HXD_EVENT_MODEL, 10000);
	cr_assert_not_null(ev, "no model event after the edit");
	cr_expect(ev->edited, "the model event does not say it was edited");
	cr_expect_eq(ev->model.nbody, m.nbody);
	cr_expect_str_eq(
	    ev->operations, "add body extra\nadd geom\nremove body cylinder\n");
	cr_expect_not_null(
	    strstr(ev->removed, "body cylinder\n"), "%s", ev->removed);
	hxd_event_free(ev);
	hxd_close(c);
	hxd_close(watch);
	hx_server_stop(&s);
}

/* geom_friction's first value (sliding) of the geom named name. */
static double
geom_friction(hxd_conn *c, const char *name)
{
	hxd_array *a;
	double f;
	int id;

	HX_OK(c, hxd_name2id(c, HXD_OBJ_GEOM, name, &id));
	HX_OK(c, hxd_get_array(c, "geom_friction", &a));
	f = a->values[3 * id];
	free(a);
	return f;
}

/*
 * Default classes: a class's settings changed apply to every element
 * that uses it; a class added and assigned applies to its element only;
 * settings unset fall back to the parent class; a class still in use
 * cannot be removed.
 */
Test(edit, default_classes_are_added_assigned_and_changed)
{
	static const char *const slow[] = { "friction", "0.5 0.005 0.0001" };
	static const char *const ice[] = { "friction", "0.1 0.005 0.0001" };
	static const char *const cls[] = { "class", "slippery" };
	static const char *const friction[] = { "friction" };
	const hxd_edit_op change[] = {
		{ HXD_EDIT_SET, "geom", NULL, "default", "object", slow, 1 },
	};
	const hxd_edit_op assign[] = {
		{ HXD_EDIT_ADD, "default", "slippery", "default", "object",
		    NULL, 0 },
		{ HXD_EDIT_SET, "geom", NULL, "default", "slippery", ice, 1 },
		{ HXD_EDIT_SET, "geom", "cube", NULL, NULL, cls, 1 },
	};
	const hxd_edit_op unset[] = {
		{ HXD_EDIT_UNSET, "geom", NULL, "default", "object", friction,
		    1 },
	};
	const hxd_edit_op in_use[] = {
		{ HXD_EDIT_REMOVE, "default", "slippery", NULL, NULL, NULL, 0 },
	};
	const hxd_edit_op no_class[] = {
		{ HXD_EDIT_SET, "geom", NULL, "default", "nosuch", ice, 1 },
	};
	struct hx_server s;
	hxd_conn *c;
	double table;

	hx_server_start(&s, scene);
	c = hx_connect_ok(s.unix_addr, "editor");
	table = geom_friction(c, "table_top");
	cr_assert_eq(geom_friction(c, "cube"), 1.2);

	/* The class "object" changed: all three objects, not the table. */
	HX_OK(c, hxd_edit_model(c, change, 1, NULL, NULL));
	cr_expect_eq(geom_friction(c, "cube"), 0.5);
	cr_expect_eq(geom_friction(c, "sphere"), 0.5);
	cr_expect_eq(geom_friction(c, "table_top"), table);

	/* A class of its own for the cube. */
	HX_OK(c, hxd_edit_model(c, assign, 3, NULL, NULL));
	cr_expect_eq(geom_friction(c, "cube"), 0.1);
	cr_expect_eq(geom_friction(c, "cylinder"), 0.5);

	/* Unset in "object": its geoms take the top class's again. */
	HX_OK(c, hxd_edit_model(c, unset, 1, NULL, NULL));
	cr_expect_eq(geom_friction(c, "cylinder"), table);
	cr_expect_eq(geom_friction(c, "cube"), 0.1, "slippery sets its own");

	/* Still used: refused, naming the user; no such class. */
	HX_FAILS_WITH(c, hxd_edit_model(c, in_use, 1, NULL, NULL), HXD_BADVALUE,
	    "geom \"cube\"");
	HX_FAILS_WITH(c, hxd_edit_model(c, no_class, 1, NULL, NULL),
	    HXD_BADVALUE, "no default class \"nosuch\"");
	cr_expect_eq(geom_friction(c, "cube"), 0.1);
	hxd_close(c);
	hx_server_stop(&s);
}

/*
 * What MuJoCo's reader takes and expat refuses (issue 18 item 3:
 * models/test/pouring.xml's attributes with no space between them) is
 * edited and saved like any model, loaded with -m and with --legacy; the
 * saved text loads back with the edit in it.
 */
Test(edit, what_mujoco_reads_edits_and_saves)
{
	static const char *const args[] = { "-m", "pouring.xml", "--paused",
		NULL };
	static const char *const size[] = { "size", "0.04 0.04 0.005" };
	const hxd_edit_op op[] = {
		{ HXD_EDIT_SET, "geom", "bottom", NULL, NULL, size, 1 },
	};
	struct hx_server s;
	hxd_model m;
	hxd_array *a;
	hxd_conn *c;
	char *xml;
	int pass, geom;

	hx_server_start(&s, args);
	c = hx_connect_ok(s.unix_addr, "editor");
	for (pass = 0; pass < 2; pass++) {
		if (pass == 1)
			HX_OK(c, hxd_load_legacy(c, "pouring.xml", &m));
		HX_OK(c, hxd_edit_model(c, op, 1, &m, NULL));
		cr_expect_eq(m.ngeom, 2);
		HX_OK(c, hxd_get_model_xml(c, &xml, NULL, 0));
		cr_expect_not_null(strstr(xml, "0.04 0.04 0.005"), "%s", xml);
		HX_OK(c,
		    hxd_load_data(
			c, HXD_FORMAT_MJCF, xml, strlen(xml), "saved", &m));
		free(xml);
		HX_OK(c, hxd_name2id(c, HXD_OBJ_GEOM, "bottom", &geom));
		HX_OK(c, hxd_get_array(c, "geom_size", &a));
		cr_expect_eq(a->values[3 * geom], 0.04, "pass %d: size %g",
		    pass, a->values[3 * geom]);
		free(a);
	}
	hxd_close(c);
	hx_server_stop(&s);
}

/* The value of sensor name (its first), read by name. */
static double
sensor_value(hxd_conn *c, const char *name)
{
	hxd_array *adr, *data;
	double v;
	int id;

	HX_OK(c, hxd_name2id(c, HXD_OBJ_SENSOR, name, &id));
	HX_OK(c, hxd_get_array(c, "sensor_adr", &adr));
	HX_OK(c, hxd_get_array(c, "sensordata", &data));
	v = data->values[(int)adr->values[id]];
	free(adr);
	free(data);
	return v;
}

/* Set the controls of the actuators named names[0..n) to values. */
static void
controls_by_name(
    hxd_conn *c, const char *const *names, const double *values, int n)
{
	hxd_control *ctl;
	int i, id;

	HX_OK(c, hxd_get_control(c, &ctl));
	for (i = 0; i < n; i++) {
		HX_OK(c, hxd_name2id(c, HXD_OBJ_ACTUATOR, names[i], &id));
		ctl->ctrl[id] = values[i];
	}
	HX_OK(c, hxd_set_control(c, ctl));
	free(ctl);
}

/*
 * A second hand attached from mpl_hand.xml (its root body, at a site
 * added in the same edit) with the prefix left_: its actuators, sensors
 * and couplings come renamed, the weld to the mocap body (not attached)
 * does not; both hands move by name; the first hand's state is bit for
 * bit what it was.
 */
Test(edit, a_second_hand_attached_from_mpl_hand_moves_by_name)
{
	static const char *const anchor[] = { "pos", "0 0.9 0.3" };
	static const char *const motors[] = { "A_index_MCP",
		"left_A_index_MCP" };
	const hxd_edit_op ops[] = {
		{ HXD_EDIT_ADD, "site", "left_anchor", "worldbody", "", anchor,
		    1 },
		{ HXD_EDIT_ATTACH, "body", "forearm", "site", "left_anchor",
		    (const char *const[]){
			"file", "mpl_hand.xml", "prefix", "left_" },
		    2 },
	};
	struct hx_server s;
	hxd_joint *old, j, right0, left0;
	hxd_model m0, m1;
	hxd_conn *c;
	int i, id;

	hx_server_start(&s, scene);
	c = hx_connect_ok(s.unix_addr, "editor");
	m0 = *hxd_welcome_model(c);
	HX_OK(c,
	    hxd_set_joint(
		c, "index_MCP", (double[]){ 0.4 }, 1, (double[]){ 0.3 }, 1));
	HX_OK(c, hxd_step(c, 20, NULL));
	cr_assert_not_null(old = calloc((size_t)m0.njnt, sizeof(*old)));
	for (i = 0; i < m0.njnt; i++)
		HX_OK(c, hxd_get_joint(c, NULL, i, &old[i]));

	HX_OK(c, hxd_edit_model(c, ops, 2, &m1, NULL));
	/* 22 hinges and the forearm's free joint, 13 servos, 132 sensor
	 * values, 9 couplings (not the weld to the mocap body). */
	cr_expect_eq(m1.njnt, m0.njnt + 23);
	cr_expect_eq(m1.nu, m0.nu + 13);
	cr_expect_eq(m1.nsensordata, m0.nsensordata + 132);
	cr_expect_eq(m1.neq, m0.neq + 9);
	cr_expect_eq(m1.nmocap, m0.nmocap);
	for (i = 0; i < m0.njnt; i++) {
		HX_OK(c, hxd_get_joint(c, old[i].name, -1, &j));
		cr_expect(memcmp(j.qpos, old[i].qpos,
			      sizeof(double) * (size_t)j.nq) == 0 &&
			memcmp(j.qvel, old[i].qvel,
			    sizeof(double) * (size_t)j.nv) == 0,
		    "joint %s changed across the edit", old[i].name);
	}
	free(old);
	HX_OK(c, hxd_name2id(c, HXD_OBJ_EQUALITY, "left_mocap", &id));
	cr_expect_eq(id, -1, "the weld to the mocap body came");
	/* The forearm stands where the site puts it: 0.85 m above it. */
	HX_OK(c, hxd_get_joint(c, "left_forearm", -1, &j));
	cr_expect(fabs(j.qpos[0]) < 1e-12 && fabs(j.qpos[1] - 0.9) < 1e-12 &&
		fabs(j.qpos[2] - 1.15) < 1e-12,
	    "left_forearm at %g %g %g", j.qpos[0], j.qpos[1], j.qpos[2]);

	/* Both index fingers close on their own servos. */
	HX_OK(c, hxd_get_joint(c, "index_MCP", -1, &right0));
	HX_OK(c, hxd_get_joint(c, "left_index_MCP", -1, &left0));
	controls_by_name(c, motors, (double[]){ 1.2, 1.2 }, 2);
	HX_OK(c, hxd_step(c, 150, NULL));
	HX_OK(c, hxd_get_joint(c, "index_MCP", -1, &j));
	cr_expect(j.qpos[0] > right0.qpos[0] + 0.2, "index_MCP %g -> %g",
	    right0.qpos[0], j.qpos[0]);
	HX_OK(c, hxd_get_joint(c, "left_index_MCP", -1, &j));
	cr_expect(j.qpos[0] > left0.qpos[0] + 0.2, "left_index_MCP %g -> %g",
	    left0.qpos[0], j.qpos[0]);
	/* The couplings came: PIP follows MCP on the left hand too. */
	HX_OK(c, hxd_get_joint(c, "left_index_PIP", -1, &left0));
	cr_expect(left0.qpos[0] > 0.1, "left_index_PIP %g", left0.qpos[0]);
	/* The sensors of both hands read their own joints. */
	cr_expect(
	    fabs(sensor_value(c, "left_index_MCP_pos") - j.qpos[0]) < 0.05,
	    "left_index_MCP_pos %g, the joint %g",
	    sensor_value(c, "left_index_MCP_pos"), j.qpos[0]);
	HX_OK(c, hxd_get_joint(c, "index_MCP", -1, &j));
	cr_expect(fabs(sensor_value(c, "index_MCP_pos") - j.qpos[0]) < 0.05,
	    "index_MCP_pos %g, the joint %g", sensor_value(c, "index_MCP_pos"),
	    j.qpos[0]);
	hxd_close(c);
	hx_server_stop(&s);
}

/* Return 1 if the model has an object of type called name. */
static int
has_object(hxd_conn *c, int type, const char *name)
{
	int id;

	HX_OK(c, hxd_name2id(c, type, name, &id));
	return id >= 0;
}

/* What the gripper's attach (prefix g_, suffix _2) brings, or not. */
static const struct attached_object {
	int type;
	const char *name;
	int comes;
} attached[] = {
	{ HXD_OBJ_BODY, "g_gripper_2", 1 },
	{ HXD_OBJ_BODY, "g_left_2", 1 },
	{ HXD_OBJ_JOINT, "g_base_2", 1 },
	{ HXD_OBJ_JOINT, "g_right_2", 1 },
	{ HXD_OBJ_SITE, "g_grip_2", 1 },
	{ HXD_OBJ_MESH, "g_tetra_2", 1 },
	{ HXD_OBJ_MATERIAL, "g_steel_2", 1 },
	{ HXD_OBJ_TEXTURE, "g_grain_2", 1 },
	{ HXD_OBJ_TENDON, "g_spread_2", 1 },
	{ HXD_OBJ_EQUALITY, "g_mirror_2", 1 },
	{ HXD_OBJ_PAIR, "g_fingers_2", 1 },
	{ HXD_OBJ_EXCLUDE, "g_palm_left_2", 1 },
	{ HXD_OBJ_ACTUATOR, "g_squeeze_2", 1 },
	{ HXD_OBJ_SENSOR, "g_opening_2", 1 },
	{ HXD_OBJ_SENSOR, "g_squeeze_force_2", 1 },
	{ HXD_OBJ_SENSOR, "g_grip_pos_2", 1 },
	{ HXD_OBJ_BODY, "g_post_2", 0 },
	{ HXD_OBJ_BODY, "post", 0 },
	{ HXD_OBJ_EQUALITY, "g_to_post_2", 0 },
	{ HXD_OBJ_EXCLUDE, "g_post_left_2", 0 },
	{ HXD_OBJ_ACTUATOR, "g_lift_2", 0 },
	{ HXD_OBJ_SENSOR, "g_post_height_2", 0 },
	{ HXD_OBJ_MATERIAL, "g_unused_2", 0 },
};

/*
 * The class finger and the source's main came with the attach: a slide
 * finger with its range, and main's damping; the unused class stayed
 * behind; the mesh is named by its file, not its full path.
 */
static void
expect_attached_classes(hxd_conn *c)
{
	hxd_array *a;
	char *xml;
	int id, adr;

	HX_OK(c, hxd_name2id(c, HXD_OBJ_JOINT, "g_left_2", &id));
	HX_OK(c, hxd_get_array(c, "jnt_range", &a));
	cr_expect(a->values[2 * id] == 0 && a->values[2 * id + 1] == 0.04,
	    "g_left_2's range %g %g", a->values[2 * id], a->values[2 * id + 1]);
	free(a);
	HX_OK(c, hxd_get_array(c, "jnt_dofadr", &a));
	adr = (int)a->values[id];
	free(a);
	HX_OK(c, hxd_get_array(c, "dof_damping", &a));
	cr_expect_eq(a->values[adr], 0.05);
	free(a);
	HX_OK(c, hxd_get_model_xml(c, &xml, NULL, 0));
	cr_expect_not_null(strstr(xml, "class=\"g_finger_2\""));
	cr_expect_null(strstr(xml, "unused"), "the unused class came");
	cr_expect_not_null(strstr(xml, "/attach/meshes/tetra.stl\""),
	    "the mesh's file is not named by its full path");
	free(xml);
}

/*
 * What comes with an attach, renamed with a prefix and a suffix: the
 * assets it uses (a mesh file found in the source's meshdir, a material
 * and its texture), its default classes, and the tendon, equality,
 * contact pair and exclude, actuator and sensors that refer only to what
 * is attached; what refers to the post, which is not, stays behind, and
 * so do an unused class and material.
 */
Test(edit, attach_brings_what_it_uses_renamed)
{
	const hxd_edit_op ops[] = {
		{ HXD_EDIT_ATTACH, "body", "gripper", "worldbody", "",
		    (const char *const[]){ "file", "attach/gripper.xml",
			"prefix", "g_", "suffix", "_2" },
		    3 },
		{ HXD_EDIT_SET, "body", "g_gripper_2", NULL, NULL,
		    (const char *const[]){ "pos", "0.3 0.5 1" }, 1 },
	};
	struct hx_server s;
	hxd_array *a;
	hxd_model m0, m1;
	hxd_joint j;
	hxd_conn *c;
	size_t i;
	int id;

	hx_server_start(&s, scene);
	c = hx_connect_ok(s.unix_addr, "editor");
	m0 = *hxd_welcome_model(c);
	HX_OK(c, hxd_edit_model(c, ops, 2, &m1, NULL));
	cr_expect_eq(m1.nbody, m0.nbody + 3);
	cr_expect_eq(m1.nu, m0.nu + 1);
	cr_expect_eq(m1.neq, m0.neq + 1);
	for (i = 0; i < sizeof(attached) / sizeof(attached[0]); i++)
		cr_expect_eq(has_object(c, attached[i].type, attached[i].name),
		    attached[i].comes, "%s %s", attached[i].name,
		    attached[i].comes ? "did not come" : "came");
	/* The mesh was read: from meshes/ beside gripper.xml. */
	HX_OK(c, hxd_name2id(c, HXD_OBJ_MESH, "g_tetra_2", &id));
	HX_OK(c, hxd_get_array(c, "mesh_vertnum", &a));
	cr_expect(
	    a->values[id] >= 4, "the mesh has %g vertices", a->values[id]);
	free(a);
	expect_attached_classes(c);
	/* The squeeze servo opens the fingers; the equality mirrors them. */
	controls_by_name(
	    c, (const char *const[]){ "g_squeeze_2" }, (double[]){ 0.06 }, 1);
	HX_OK(c, hxd_step(c, 100, NULL));
	HX_OK(c, hxd_get_joint(c, "g_left_2", -1, &j));
	cr_expect(j.qpos[0] > 0.01, "g_left_2 at %g", j.qpos[0]);
	cr_expect(fabs(sensor_value(c, "g_opening_2") - 2 * j.qpos[0]) < 0.01,
	    "the tendon %g, twice the left finger %g",
	    sensor_value(c, "g_opening_2"), 2 * j.qpos[0]);
	hxd_close(c);
	hx_server_stop(&s);
}

/* An inline model's body attached under a body of the scene. */
Test(edit, attach_from_inline_mjcf)
{
	static const char probe
	    [] = "<mujoco><compiler angle=\"radian\"/><worldbody>"
		 "<body name=\"probe\" pos=\"0 0.3 0.4\">"
		 "<joint name=\"slide\" type=\"slide\" axis=\"0 0 1\"/>"
		 "<geom type=\"sphere\" size=\"0.02\" mass=\"0.05\"/>"
		 "</body></worldbody>"
		 "<actuator><motor name=\"push\" joint=\"slide\"/></actuator>"
		 "<sensor><jointpos name=\"height\" joint=\"slide\"/></sensor>"
		 "</mujoco>";
	const hxd_edit_op ops[] = {
		{ HXD_EDIT_ATTACH, "body", "probe", "body", "table",
		    (const char *const[]){ "xml", probe, "prefix", "p_" }, 2 },
	};
	struct hx_server s;
	hxd_model m0, m1;
	hxd_joint j;
	hxd_conn *c;

	hx_server_start(&s, scene);
	c = hx_connect_ok(s.unix_addr, "editor");
	m0 = *hxd_welcome_model(c);
	HX_OK(c, hxd_edit_model(c, ops, 1, &m1, NULL));
	cr_expect_eq(m1.nu, m0.nu + 1);
	cr_expect_eq(m1.nbody, m0.nbody + 1);
	/* A push well over its weight lifts it. */
	controls_by_name(
	    c, (const char *const[]){ "p_push" }, (double[]){ 2 }, 1);
	HX_OK(c, hxd_step(c, 50, NULL));
	HX_OK(c, hxd_get_joint(c, "p_slide", -1, &j));
	cr_expect(j.qpos[0] > 0.01, "p_slide at %g", j.qpos[0]);
	cr_expect(fabs(sensor_value(c, "p_height") - j.qpos[0]) < 0.01,
	    "p_height %g, the joint %g", sensor_value(c, "p_height"),
	    j.qpos[0]);
	hxd_close(c);
	hx_server_stop(&s);
}

/*
 * A copy of a body of the model itself (no source), put elsewhere in
 * the same edit: its class comes renamed with it.
 */
Test(edit, attach_a_copy_from_the_model_itself)
{
	const hxd_edit_op ops[] = {
		{ HXD_EDIT_ATTACH, "body", "cube", "worldbody", "",
		    (const char *const[]){ "prefix", "copy_" }, 1 },
		{ HXD_EDIT_SET, "body", "copy_cube", NULL, NULL,
		    (const char *const[]){ "pos", "0.2 0.3 1" }, 1 },
	};
	struct hx_server s;
	hxd_array *a;
	hxd_model m0, m1;
	hxd_joint j;
	hxd_conn *c;
	int id;

	hx_server_start(&s, scene);
	c = hx_connect_ok(s.unix_addr, "editor");
	m0 = *hxd_welcome_model(c);
	HX_OK(c, hxd_edit_model(c, ops, 2, &m1, NULL));
	cr_expect_eq(m1.nbody, m0.nbody + 1);
	cr_expect_eq(m1.nq, m0.nq + 7);
	HX_OK(c, hxd_get_joint(c, "copy_cube", -1, &j));
	cr_expect(j.qpos[0] == 0.2 && j.qpos[1] == 0.3 && j.qpos[2] == 1,
	    "copy_cube at %g %g %g", j.qpos[0], j.qpos[1], j.qpos[2]);
	/* The class object's friction, through copy_object. */
	HX_OK(c, hxd_name2id(c, HXD_OBJ_GEOM, "copy_cube", &id));
	HX_OK(c, hxd_get_array(c, "geom_friction", &a));
	cr_expect_eq(a->values[3 * id], 1.2);
	free(a);
	hxd_close(c);
	hx_server_stop(&s);
}

/*
 * A body attached at a site takes the site's frame: a free body at a
 * site turned about z, and a fixed one at a fingertip's IMU site, whose
 * orientation comes from its class (xyaxes), where it moves with the
 * finger.
 */
Test(edit, attach_at_a_site_takes_its_frame)
{
	static const char free_body
	    [] = "<mujoco><compiler angle=\"radian\"/><worldbody>"
		 "<body name=\"b\" pos=\"0.1 0 0\"><freejoint name=\"b\"/>"
		 "<geom size=\"0.01\" contype=\"0\" conaffinity=\"0\"/>"
		 "</body></worldbody></mujoco>";
	static const char fixed_body
	    [] = "<mujoco><compiler angle=\"radian\"/><worldbody>"
		 "<body name=\"marker\"><geom size=\"0.002\" mass=\"1e-4\" "
		 "contype=\"0\" conaffinity=\"0\"/></body></worldbody>"
		 "</mujoco>";
	static const char *const mount[] = { "pos", "1 2 3", "axisangle",
		"0 0 1 1.5707963267948966" };
	const hxd_edit_op ops[] = {
		{ HXD_EDIT_ADD, "site", "mount", "worldbody", "", mount, 2 },
		{ HXD_EDIT_ATTACH, "body", "b", "site", "mount",
		    (const char *const[]){ "xml", free_body, "prefix", "f_" },
		    2 },
		{ HXD_EDIT_ATTACH, "body", "marker", "site", "index_IMU",
		    (const char *const[]){ "xml", fixed_body, "prefix", "m_" },
		    2 },
	};
	struct hx_server s;
	hxd_poses *bodies, *sites;
	hxd_joint j;
	hxd_conn *c;
	int body, site, k;

	hx_server_start(&s, scene);
	c = hx_connect_ok(s.unix_addr, "editor");
	HX_OK(c, hxd_edit_model(c, ops, 3, NULL, NULL));
	HX_OK(c, hxd_get_joint(c, "f_b", -1, &j));
	cr_expect(fabs(j.qpos[0] - 1) < 1e-12 &&
		fabs(j.qpos[1] - 2.1) < 1e-12 && fabs(j.qpos[2] - 3) < 1e-12,
	    "f_b at %g %g %g", j.qpos[0], j.qpos[1], j.qpos[2]);
	cr_expect(fabs(j.qpos[3] - sqrt(0.5)) < 1e-12 &&
		fabs(j.qpos[6] - sqrt(0.5)) < 1e-12,
	    "f_b turned %g %g %g %g", j.qpos[3], j.qpos[4], j.qpos[5],
	    j.qpos[6]);
	/* Bend the finger: the marker follows the site. */
	HX_OK(c,
	    hxd_set_joint(
		c, "index_MCP", (double[]){ 0.7 }, 1, (double[]){ 0 }, 1));
	HX_OK(c, hxd_step(c, 1, NULL));
	HX_OK(c, hxd_name2id(c, HXD_OBJ_BODY, "m_marker", &body));
	HX_OK(c, hxd_name2id(c, HXD_OBJ_SITE, "index_IMU", &site));
	HX_OK(c, hxd_get_body(c, &bodies));
	HX_OK(c, hxd_get_site(c, &sites));
	for (k = 0; k < 3; k++)
		HX_NEAR(
		    bodies->pos[3 * body + k], sites->pos[3 * site + k], 1e-9);
	for (k = 0; k < 9; k++)
		HX_NEAR(
		    bodies->mat[9 * body + k], sites->mat[9 * site + k], 1e-9);
	free(bodies);
	free(sites);
	hxd_close(c);
	hx_server_stop(&s);
}

/* Each bad attach is refused, saying why, and changes nothing. */
Test(edit, bad_attaches_change_nothing)
{
	static const char outside
	    [] = "<mujoco><compiler angle=\"radian\"/><asset>"
		 "<mesh name=\"m\" file=\"/etc/passwd\"/></asset><worldbody>"
		 "<body name=\"b\"><geom type=\"mesh\" mesh=\"m\"/></body>"
		 "</worldbody></mujoco>";
	static const char
	    degrees[] = "<mujoco><worldbody><body name=\"b\" euler=\"0 0 90\">"
			"<geom size=\"0.1\"/></body></worldbody></mujoco>";
	static const char *const left[] = { "file", "mpl_hand.xml", "prefix",
		"left_" };
	static const char *const bare[] = { "file", "mpl_hand.xml" };
	static const char *const etc[] = { "file", "/etc/hostname", "prefix",
		"o_" };
	static const char *const leads_out[] = { "xml", outside, "prefix",
		"o_" };
	static const char *const again[] = { "prefix", "again_" };
	static const char *const deg[] = { "xml", degrees, "prefix", "d_" };
	static const char *const n_[] = { "file", "mpl_hand.xml", "prefix",
		"n_" };
	static const char *const both[] = { "file", "mpl_hand.xml", "xml",
		degrees };
	static const char *const typo[] = { "file", "mpl_hand.xml", "prefx",
		"n_" };
	static const char *const red[] = { "rgba", "1 0 0 1" };
	static const char *const gripper[] = { "file", "attach/gripper.xml",
		"prefix", "g_" };
	const hxd_edit_op hand = { HXD_EDIT_ATTACH, "body", "forearm",
		"worldbody", "", left, 2 };
	const struct refusal cases[] = {
		{ { hand, hand }, 2, HXD_BADVALUE,
		    "operation 2 (attach body \"forearm\" from mpl_hand.xml): "
		    "the model already has a body named \"left_forearm\"" },
		{ { { HXD_EDIT_ATTACH, "body", "forearm", "worldbody", "", bare,
		      1 } },
		    1, HXD_BADVALUE, "already has a body named \"forearm\"" },
		{ { { HXD_EDIT_ATTACH, "body", "x", "worldbody", "", etc, 2 } },
		    1, HXD_DENIED, "/etc/hostname" },
		{ { { HXD_EDIT_ATTACH, "body", "b", "worldbody", "", leads_out,
		      2 } },
		    1, HXD_DENIED, "/etc/passwd" },
		{ { { HXD_EDIT_ATTACH, "body", "forearm", "body", "palm", again,
		      1 } },
		    1, HXD_BADVALUE, "into itself" },
		{ { { HXD_EDIT_ATTACH, "worldbody", "", "worldbody", "", again,
		      1 } },
		    1, HXD_BADVALUE, "into itself" },
		{ { { HXD_EDIT_ATTACH, "body", "b", "worldbody", "", deg, 2 } },
		    1, HXD_BADVALUE, "angle=\"degree\"" },
		{ { { HXD_EDIT_ATTACH, "body", "nosuch", "worldbody", "", n_,
		      2 } },
		    1, HXD_BADVALUE,
		    "the source has no body named \"nosuch\"" },
		{ { { HXD_EDIT_ATTACH, "body", "forearm", "site", "nosuch", n_,
		      2 } },
		    1, HXD_BADVALUE, "no site named \"nosuch\"" },
		{ { { HXD_EDIT_ATTACH, "body", "b", "worldbody", "", both, 2 } },
		    1, HXD_BADVALUE, "not both" },
		{ { { HXD_EDIT_ATTACH, "body", "b", "worldbody", "", typo, 2 } },
		    1, HXD_BADVALUE, "prefx" },
		{ { { HXD_EDIT_ADD, "geom", "", "default", "", red, 1 },
		      { HXD_EDIT_ATTACH, "body", "gripper", "worldbody", "",
			  gripper, 2 } },
		    2, HXD_BADVALUE, "main default class sets geom rgba" },
	};
	struct hx_server s;
	hxd_conn *c;

	hx_server_start(&s, scene);
	c = hx_connect_ok(s.unix_addr, "editor");
	refusals_change_nothing(c, cases, sizeof(cases) / sizeof(cases[0]));
	hxd_close(c);
	hx_server_stop(&s);
}

/* The model-max-* limits hold for what an attach makes. */
Test(edit, attach_is_held_to_the_model_limits)
{
	static const char *const args[] = { "-m", "mpl_scene.xml", "--paused",
		"--model-max-bodies", "30", NULL };
	const hxd_edit_op ops[] = {
		{ HXD_EDIT_ATTACH, "body", "forearm", "worldbody", "",
		    (const char *const[]){
			"file", "mpl_hand.xml", "prefix", "left_" },
		    2 },
	};
	struct hx_server s;
	hxd_conn *c;
	int nbody;

	hx_server_start(&s, args);
	c = hx_connect_ok(s.unix_addr, "editor");
	nbody = hxd_welcome_model(c)->nbody;
	HX_FAILS_WITH(c, hxd_edit_model(c, ops, 1, NULL, NULL), HXD_LOADFAILED,
	    "model-max-bodies");
	cr_expect_eq(hx_status_ok(c).model.nbody, nbody);
	hxd_close(c);
	hx_server_stop(&s);
}

/*
 * An add under a section finds the section, not a default class's
 * element of the same name: the MPL hand's defaults hold an <equality>
 * before the model's own, and an equality added there was MuJoCo's
 * "unrecognized element".
 */
Test(edit, an_add_under_a_section_goes_into_the_section)
{
	static const char *const eq[] = { "joint1", "index_ABD", "joint2",
		"ring_ABD" };
	const hxd_edit_op ops[] = {
		{ HXD_EDIT_ADD, "joint", "spread", "equality", "", eq, 2 },
	};
	struct hx_server s;
	hxd_conn *c;
	hxd_model m;
	int neq, id;

	hx_server_start(&s, scene);
	c = hx_connect_ok(s.unix_addr, "editor");
	neq = hxd_welcome_model(c)->neq;
	HX_OK(c, hxd_edit_model(c, ops, 1, &m, NULL));
	cr_expect_eq(m.neq, neq + 1);
	HX_OK(c, hxd_name2id(c, HXD_OBJ_EQUALITY, "spread", &id));
	cr_expect_geq(id, 0, "no equality \"spread\"");
	hxd_close(c);
	hx_server_stop(&s);
}

/* Send an edit adding a body named name on fd, as request id. */
static void
edit_send(int fd, const char *name, uint64_t id)
{
	Haptix__V1__Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__EditModel em = HAPTIX__V1__EDIT_MODEL__INIT;
	Haptix__V1__EditOp op = HAPTIX__V1__EDIT_OP__INIT, *ops[] = { &op };
	static char body[] = "body", world[] = "worldbody", none[] = "";

	op.kind = HAPTIX__V1__EDIT_KIND__EDIT_ADD;
	op.type = body;
	op.name = (char *)name;
	op.parent_type = world;
	op.parent_name = none;
	em.ops = ops;
	em.n_ops = 1;
	req.id = id;
	req.call_case = HAPTIX__V1__REQUEST__CALL_EDIT_MODEL;
	req.edit_model = &em;
	raw_send_request(fd, &req);
}

/*
 * Two clients' edits sent together both stand: the second applies to the
 * text the first left, where it took the text as it was when asked for
 * and its model, installed last, lost the first's body.
 */
Test(edit, edits_queued_together_keep_each_other)
{
	Haptix__V1__Response *r;
	struct hx_server s;
	hxd_conn *c;
	int a, b, id;

	hx_server_start(&s, scene);
	a = raw_connect(s.unix_addr);
	b = raw_connect(s.unix_addr);
	cr_assert_eq(raw_hello(a, "first"), 0);
	cr_assert_eq(raw_hello(b, "second"), 0);
	edit_send(a, "first_body", 7);
	edit_send(b, "second_body", 8);
	cr_assert_not_null(r = raw_recv(a, 20000));
	cr_expect_eq(r->result, 0, "%s", r->error);
	haptix__v1__response__free_unpacked(r, NULL);
	cr_assert_not_null(r = raw_recv(b, 20000));
	cr_expect_eq(r->result, 0, "%s", r->error);
	haptix__v1__response__free_unpacked(r, NULL);
	c = hx_connect_ok(s.unix_addr, "look");
	HX_OK(c, hxd_name2id(c, HXD_OBJ_BODY, "first_body", &id));
	cr_expect_geq(id, 0, "the first edit's body is gone");
	HX_OK(c, hxd_name2id(c, HXD_OBJ_BODY, "second_body", &id));
	cr_expect_geq(id, 0, "the second edit's body is not there");
	hxd_close(c);
	close(a);
	close(b);
	hx_server_stop(&s);
}

/*
 * Edits and holds are writes (issue 18 item 2): while one client holds
 * the control lease, another's edit and hold are DENIED, naming the
 * holder, and the model stays as it was; the holder edits.
 */
Test(edit, the_lease_applies_to_edits_and_holds)
{
	static const char *const joint[] = { "index_MCP" };
	const hxd_edit_op add[] = {
		{ HXD_EDIT_ADD, "body", "extra", "worldbody", "", NULL, 0 },
	};
	struct hx_server s;
	hxd_conn *holder, *other;
	hxd_model m0, m1;
	double v = 0.3;

	hx_server_start(&s, scene);
	holder = hx_connect_ok(s.unix_addr, "holder");
	other = hx_connect_ok(s.unix_addr, "other");
	m0 = *hxd_welcome_model(other);
	HX_OK(holder, hxd_lease(holder, HXD_LEASE_TAKE, NULL));
	HX_FAILS_WITH(other, hxd_edit_model(other, add, 1, NULL, NULL),
	    HXD_DENIED, "holder");
	HX_FAILS_WITH(other, hxd_hold_joints(other, joint, &v, 1, NULL),
	    HXD_DENIED, "holder");
	cr_expect_eq(hx_status_ok(other).model.nbody, m0.nbody);
	cr_expect_eq(hx_status_ok(other).model.neq, m0.neq);
	HX_OK(holder, hxd_edit_model(holder, add, 1, &m1, NULL));
	cr_expect_eq(m1.nbody, m0.nbody + 1);
	hxd_close(other);
	hxd_close(holder);
	hx_server_stop(&s);
}
