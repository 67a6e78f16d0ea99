/*
 * Gazebo HAPTIX's World API (haptix/comm/haptix_sim.h) through a real
 * haptixd on the MPL scene: each test runs one check of prog_world, a
 * program built with nothing but haptix_sim.h and haptix.h, on a server
 * of its own, over the Unix socket or TCP; and the documented pkg-config
 * line builds it as a user would.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "check.h"
#include "harness.h"
#include "haptix/comm/haptix_sim.h"
#include "haptixd.h"

TestSuite(world, .timeout = 180, .fini = hx_server_cleanup);

/*
 * Run prog (in $HX_PROGS) check against a fresh MPL scene, running or
 * paused; its output.
 */
static void
world_run_on(
    const char *prog, const char *check, int tcp, int paused, struct hx_run *r)
{
	struct hx_server srv;
	const char *args[] = { "-m", "mpl_scene.xml",
		paused ? "--paused" : NULL, NULL };
	char path[1024];

	cr_assert_not_null(getenv("HX_PROGS"), "run with make check");
	snprintf(path, sizeof(path), "%s/%s", getenv("HX_PROGS"), prog);
	hx_server_start(&srv, args);
	setenv("HAPTIX_SERVER", tcp ? srv.tcp_addr : srv.unix_addr, 1);
	hx_run_args(r, path, check, NULL);
	unsetenv("HAPTIX_SERVER");
	hx_server_stop(&srv);
}

static void
world_run(const char *prog, const char *check, int tcp, struct hx_run *r)
{
	world_run_on(prog, check, tcp, 0, r);
}

/* The check passes, and says so; on a paused scene if paused. */
static void
world_check_on(const char *check, int tcp, int paused)
{
	struct hx_run r = { 0 };
	char ok[64];

	world_run_on("prog_world", check, tcp, paused, &r);
	snprintf(ok, sizeof(ok), "ok %s\n", check);
	cr_expect_eq(r.status, 0, "prog_world %s:\n%s%s", check, r.out, r.err);
	cr_expect_not_null(strstr(r.out, ok), "%s", r.out);
	hx_run_free(&r);
}

static void
world_check(const char *check, int tcp)
{
	world_check_on(check, tcp, 0);
}

Test(world, sim_info_lists_the_models_and_the_camera)
{
	world_check("info", 0);
}

Test(world, moving_the_cube_and_the_table)
{
	world_check("move", 1);
}

Test(world, colouring_the_cube)
{
	world_check("color", 0);
}

/* Colours set through the World API outlive the edits of add_model. */
Test(world, colours_kept_across_edits)
{
	world_check("color_edits", 1);
}

/* An edit that gives the geom a colour of its own wins over the client's. */
Test(world, an_edit_of_a_colour_wins)
{
	static const char *const green[] = { "rgba", "0 1 0 1" };
	static const char *const size[] = { "size", "0.03 0.03 0.3625" };
	const hxd_edit_op ops[] = {
		{ HXD_EDIT_SET, "geom", "cube", NULL, NULL, green, 1 },
		{ HXD_EDIT_SET, "geom", "table_leg1", NULL, NULL, size, 1 },
	};
	const char *args[] = { "-m", "mpl_scene.xml", "--paused", NULL };
	double blue[4] = { 0, 0, 1, 1 }, got[4];
	struct hx_server srv;
	int cube, table;
	hxd_conn *c;

	hx_server_start(&srv, args);
	c = hx_connect_ok(srv.unix_addr, "test_world");
	HX_OK(c, hxd_name2id(c, HXD_OBJ_GEOM, "cube", &cube));
	HX_OK(c, hxd_name2id(c, HXD_OBJ_GEOM, "table_leg1", &table));
	HX_OK(c, hxd_set_rgba(c, HXD_OBJ_GEOM, cube, blue));
	HX_OK(c, hxd_set_rgba(c, HXD_OBJ_GEOM, table, blue));
	HX_OK(c, hxd_edit_model(c, ops, 2, NULL, NULL));
	HX_OK(c, hxd_get_rgba(c, HXD_OBJ_GEOM, cube, got));
	cr_expect(got[0] == 0 && got[1] == 1 && got[2] == 0,
	    "the cube is %g %g %g, not the edit's green", got[0], got[1],
	    got[2]);
	/* The leg's colour was not edited, only its size: it stays. */
	HX_OK(c, hxd_get_rgba(c, HXD_OBJ_GEOM, table, got));
	cr_expect(got[0] == 0 && got[1] == 0 && got[2] == 1,
	    "the leg is %g %g %g, not the client's blue", got[0], got[1],
	    got[2]);
	hxd_close(c);
	hx_server_stop(&srv);
}

Test(world, the_cube_floats_with_its_gravity_off)
{
	world_check("gravity", 0);
}

Test(world, pushing_and_spinning_the_cube)
{
	world_check("push", 1);
}

Test(world, the_contacts_of_the_cube_with_the_hand)
{
	world_check("contacts", 0);
}

Test(world, collide_modes)
{
	world_check("collide", 0);
}

Test(world, adding_and_removing_a_sphere)
{
	world_check("add", 1);
}

Test(world, a_weld_constraint_added_and_removed)
{
	world_check("constraint", 0);
}

Test(world, a_revolute_constraint_added_and_removed)
{
	world_check("revolute", 1);
}

/* The index of equality name in info, or -1. */
static int
world_eq(const hxd_info *info, const char *name)
{
	for (int e = 0; e < info->model.neq; e++)
		if (strcmp(info->eq_name[e], name) == 0)
			return e;
	return -1;
}

/*
 * A revolute constraint is two connects from the child, anchored at its
 * origin and one unit along the axis in its frame; its name removes both.
 */
Test(world, a_revolute_constraint_is_two_connects)
{
	const char *args[] = { "-m", "mpl_scene.xml", "--paused", NULL };
	const char *sdf = "<sdf version=\"1.5\"><joint name=\"hinge\" "
			  "type=\"revolute\"><parent>table</parent><child>"
			  "cube</child><axis><xyz>0 0 2</xyz></axis></joint>"
			  "</sdf>";
	hxd_info *info = NULL;
	hxd_array *data = NULL;
	struct hx_server srv;
	int neq, e, a, cube, table;
	hxd_conn *c;

	hx_server_start(&srv, args);
	setenv("HAPTIX_SERVER", srv.unix_addr, 1);
	c = hx_connect_ok(srv.unix_addr, "test_world");
	HX_OK(c, hxd_name2id(c, HXD_OBJ_BODY, "cube", &cube));
	HX_OK(c, hxd_name2id(c, HXD_OBJ_BODY, "table", &table));
	HX_OK(c, hxd_info_get(c, &info));
	neq = info->model.neq;
	free(info);
	cr_assert_eq(
	    hxs_add_constraint(sdf, "cube"), hxOK, "%s", hx_last_result());
	HX_OK(c, hxd_info_get(c, &info));
	HX_OK(c, hxd_get_array(c, "eq_data", &data));
	cr_expect_eq(info->model.neq, neq + 2);
	e = world_eq(info, "hinge");
	a = world_eq(info, "hinge#axis");
	cr_assert(e >= 0 && a >= 0, "no equalities hinge and hinge#axis");
	for (int k = 0; k < 2; k++) {
		int i = k == 0 ? e : a;

		cr_expect_eq(info->eq_type[i], 0, "%d is not a connect", i);
		cr_expect_eq(info->eq_obj1id[i], cube);
		cr_expect_eq(info->eq_obj2id[i], table);
		/* The anchor, in the cube's frame: its origin, then the axis. */
		cr_expect(data->values[i * data->cols] == 0 &&
			data->values[i * data->cols + 1] == 0 &&
			data->values[i * data->cols + 2] == k,
		    "anchor %d is %g %g %g", k, data->values[i * data->cols],
		    data->values[i * data->cols + 1],
		    data->values[i * data->cols + 2]);
	}
	free(data);
	free(info);
	cr_assert_eq(hxs_remove_constraint("hinge", "cube"), hxOK, "%s",
	    hx_last_result());
	HX_OK(c, hxd_info_get(c, &info));
	cr_expect_eq(info->model.neq, neq);
	cr_expect_eq(world_eq(info, "hinge#axis"), -1);
	free(info);
	/* A prismatic joint still has no equality. */
	cr_expect_eq(hxs_add_constraint("<sdf><joint name=\"p\" "
					"type=\"prismatic\"><parent>world"
					"</parent><child>cube</child></joint>"
					"</sdf>",
			 "cube"),
	    hxERROR);
	cr_expect_not_null(strstr(hx_last_result(), "no MuJoCo equality"), "%s",
	    hx_last_result());
	hx_close();
	unsetenv("HAPTIX_SERVER");
	hxd_close(c);
	hx_server_stop(&srv);
}

/*
 * Paused: the wrist's servo pulls the joint back while the scene runs,
 * and a loaded machine (the sanitizers' build beside other work) let
 * it move past the check's tolerance between the set and the read.
 */
Test(world, a_joint_read_and_set)
{
	world_check_on("joint", 0, 1);
}

Test(world, reset_with_and_without_the_limb)
{
	world_check("reset", 1);
}

Test(world, logging)
{
	world_check("log", 0);
}

/* The camera the viewers share is announced to subscribers. */
Test(world, setting_the_camera_tells_subscribers)
{
	struct hx_server srv;
	const char *args[] = { "-m", "mpl_scene.xml", "--paused", NULL };
	hxd_subscription sub = { 0 };
	double pos[3] = { 1, 2, 3 }, quat[4] = { 0, 0, 0, 2 }, p[3], q[4];
	hxd_event *ev = NULL;
	hxd_conn *c, *viewer;
	int is_default;

	hx_server_start(&srv, args);
	c = hx_connect_ok(srv.unix_addr, "test_world");
	viewer = hx_connect_ok(srv.unix_addr, "viewer");
	sub.events = HXD_EVENTS(HXD_EVENT_CAMERA);
	cr_assert_eq(
	    hxd_subscribe(viewer, &sub, NULL), HXD_OK, "%s", hxd_error(viewer));
	cr_assert_eq(hxd_get_camera(c, p, q, &is_default), HXD_OK);
	cr_expect_eq(is_default, 1);
	cr_assert_eq(hxd_set_camera(c, pos, quat), HXD_OK, "%s", hxd_error(c));
	cr_assert_eq(
	    hxd_next_event(viewer, 5000, &ev), HXD_OK, "%s", hxd_error(viewer));
	cr_expect_eq(ev->kind, HXD_EVENT_CAMERA);
	cr_expect_eq(ev->camera_pos[2], 3);
	cr_expect_eq(
	    ev->camera_quat[3], 1, "normalized: %g", ev->camera_quat[3]);
	hxd_event_free(ev);
	cr_assert_eq(hxd_get_camera(c, p, q, &is_default), HXD_OK);
	cr_expect_eq(is_default, 0);
	cr_expect_eq(p[1], 2);
	quat[3] = 0;
	cr_expect_eq(hxd_set_camera(c, pos, quat), HXD_BADVALUE);
	hxd_close(viewer);
	hxd_close(c);
	hx_server_stop(&srv);
}

/* As Gazebo's users build world programs: the library's flags alone. */
Test(world, the_pkg_config_line_builds_world_programs)
{
	struct hx_run r = { 0 };

	hx_build_with_pkgconfig("prog_world", "prog_world_pc", "-Wall -Werror");
	world_run("prog_world_pc", "info", 0, &r);
	cr_expect_eq(r.status, 0, "%s", r.out);
	cr_expect_not_null(strstr(r.out, "model cube links 1"), "%s", r.out);
	hx_run_free(&r);
}
