/*
 * Integration tests of hxctl (clients/hxctl.c) against a real haptixd on
 * models/test/fixture.xml, over the Unix socket and TCP: what it prints:
 * status, info and state, readable and as JSON (one object each, sensors
 * keyed by name), tables labelled with names, which commands print and
 * which stay quiet, the energies and joint ranges.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pty.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <criterion/criterion.h>

#include "frame.h"
#include "haptix.pb-c.h"
#include "check.h"
#include "harness.h"
#include "haptixd.h"
#include "hxctl_run.h"

TestSuite(hxctl, .timeout = 60, .fini = cleanup);

HX_TRANSPORT_TEST(
    hxctl, status_readable_and_json, "-m", "fixture.xml", "--paused", NULL)
{
	struct hx_run r = { 0 };

	hxctl(&r, addr, "status", NULL);
	expect_ok(&r);
	cr_assert_not_null(strstr(r.out, "fixture"), "%s", r.out);
	cr_assert_not_null(strstr(r.out, "paused"), "%s", r.out);
	cr_assert_not_null(strstr(r.out, "message      (none)"), "%s", r.out);

	hxctl_json(&r, addr, "status", NULL);
	cr_assert_not_null(strstr(r.out, "\"paused\":true"), "%s", r.out);
	cr_assert_not_null(strstr(r.out, "\"loaded\":true"), "%s", r.out);
	cr_assert_not_null(strstr(r.out, "\"name\":\"fixture\""), "%s", r.out);
	cr_assert_eq(json_num(r.out, "nq"), 9);
	cr_assert_eq(json_num(r.out, "nu"), 2);
	cr_assert_eq(json_num(r.out, "time"), 0);
	cr_assert_eq(json_num(r.out, "steps"), 0);
	cr_assert_eq(json_num(r.out, "clients"), 1, "%s", r.out);
	cr_assert_float_eq(json_num(r.out, "timestep"), FIXTURE_DT, 1e-15);
	cr_assert_not_null(
	    strstr(r.out,
		"\"lagging\":false,\"lease_holder\":0,"
		"\"lease_holder_name\":\"\",\"batch_session\":0,"),
	    "%s", r.out);
	hxctl(&r, addr, "status", NULL);
	cr_assert_not_null(
	    strstr(r.out, "\nlease        free\nbatch        none\n"), "%s",
	    r.out);
	hx_run_free(&r);
}

HX_TRANSPORT_TEST(
    hxctl, info_names_every_object, "-m", "fixture.xml", "--paused", NULL)
{
	static const char *const names[] = {
		"link1",
		"marker",
		"hinge1",
		"terrain",
		"site1",
		"sum",
		"servo2",
		"tip_pos",
		"couple",
		"dropped",
		"green",
	};
	struct hx_run r = { 0 };
	size_t i;

	hxctl(&r, addr, "info", NULL);
	expect_ok(&r);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		cr_assert_not_null(
		    strstr(r.out, names[i]), "no %s in:\n%s", names[i], r.out);
	cr_assert_not_null(strstr(r.out, "nq 9, nv 8"), "%s", r.out);

	hxctl_json(&r, addr, "info", NULL);
	cr_assert_eq(json_num(r.out, "nbody"), 5);
	cr_assert_not_null(strstr(r.out,
			       "{\"name\":\"box\",\"type\":\"free\","
			       "\"body\":3,\"qposadr\":2,\"dofadr\":2,"),
	    "%s", r.out);
	cr_assert_not_null(
	    strstr(r.out,
		"{\"name\":\"tip_pos\",\"type\":"
		"\"framepos\",\"datatype\":\"real\",\"objtype\":\"site\","
		"\"objid\":1,\"dim\":3,\"adr\":4,"),
	    "%s", r.out);
	cr_assert_not_null(strstr(r.out,
			       "\"keyframes\":[{\"name\":\"raised\"},"
			       "{\"name\":\"dropped\"}]"),
	    "%s", r.out);
	hx_run_free(&r);
}

HX_TRANSPORT_TEST(
    hxctl, state_readable_and_json, "-m", "fixture.xml", "--paused", NULL)
{
	struct hx_run r = { 0 };

	hxctl_json(&r, addr, "state", NULL);
	cr_assert_eq(json_num(r.out, "nq"), 9, "%s", r.out);
	cr_assert_eq(json_num(r.out, "nv"), 8, "%s", r.out);
	cr_assert_eq(json_num(r.out, "na"), 0, "%s", r.out);
	expect_nums(r.out, "qpos", fixture_qpos0, 9);
	expect_nums(r.out, "act", NULL, 0);

	hxctl(&r, addr, "state", NULL);
	expect_ok(&r);
	cr_assert(strncmp(r.out, "time 0\nqpos\n", 12) == 0, "%s", r.out);
	cr_assert_not_null(strstr(r.out, "hinge2  hinge"), "%s", r.out);
	cr_assert_not_null(strstr(r.out, "box     free "), "%s", r.out);
	cr_assert_not_null(strstr(r.out, "\nqvel\n"), "%s", r.out);
	hx_run_free(&r);
}

/*
 * The words and the behaviour agree: a command that only sets something
 * prints nothing; those whose answer says more print it, and the help
 * names each of them.  The help said that every command changing
 * something printed nothing, while hold and edit printed tables.
 */
static void
expect_quiet(struct hx_run *r, const char *what)
{
	cr_expect_eq(r->status, 0, "%s: %d %s", what, r->status, r->err);
	cr_expect_str_empty(r->out, "%s printed: %s", what, r->out);
}

static void
expect_says(struct hx_run *r, const char *what)
{
	cr_expect_eq(r->status, 0, "%s: %d %s", what, r->status, r->err);
	cr_expect_str_not_empty(r->out, "%s printed nothing", what);
}

Test(hxctl, what_prints_and_what_does_not)
{
	static const char *const scene[] = { "-m", "mpl_scene.xml", "--paused",
		NULL };
	static const char *const talkers[] = { "step", "run --until", "hold",
		"edit", "load", "reload", "record", "world-force", "camera",
		"collide-mode" };
	struct hx_run r = { 0 };
	const char *a = start(scene), *said, *end;
	size_t i;

	hxctl(&r, a, "set-ctrl", "A_index_MCP=1", NULL);
	expect_quiet(&r, "set-ctrl");
	hxctl(&r, a, "speed", "2", NULL);
	expect_quiet(&r, "speed");
	hxctl(&r, a, "message", "hi", NULL);
	expect_quiet(&r, "message");
	hxctl(&r, a, "capture", "k", NULL);
	expect_quiet(&r, "capture");
	hxctl(&r, a, "reset", NULL);
	expect_quiet(&r, "reset");
	hxctl(&r, a, "set-mocap", "mocap", "--pos", "0,0,1", NULL);
	expect_quiet(&r, "set-mocap");
	hxctl(&r, a, "step", "3", NULL);
	expect_says(&r, "step");
	hxctl(&r, a, "hold", "index_MCP", "0.5", "--for", "0.1", NULL);
	expect_says(&r, "hold");
	hxctl(&r, a, "edit", "add", "site", "s1", "--in", "worldbody", NULL);
	expect_says(&r, "edit");
	hxctl(&r, a, "collide-mode", "cube", "none", NULL);
	expect_says(&r, "collide-mode");
	hxctl(&r, NULL, "--help", NULL);
	said = strstr(r.out, "print nothing");
	cr_assert_not_null(said, "%s", r.out);
	end = strstr(said, "\nExit status");
	cr_assert_not_null(end);
	for (i = 0; i < sizeof(talkers) / sizeof(talkers[0]); i++)
		cr_expect(memmem(said, (size_t)(end - said), talkers[i],
			      strlen(talkers[i])) != NULL,
		    "the help does not say that %s prints: %.*s", talkers[i],
		    (int)(end - said), said);
	hx_run_free(&r);
	hx_server_stop(&test_server);
}

Test(hxctl, every_reading_command_prints_one_json_object)
{
	struct hx_run r = { 0 };
	const char *a;
	double ncon;

	a = start(fixture_args);
	hxctl_json(&r, a, "status", NULL);
	ncon = json_num(r.out, "ncon");
	hxctl_json(&r, a, "applied", NULL);
	cr_assert_eq(json_num(r.out, "nbody"), 5);
	hxctl_json(&r, a, "body", "box", NULL);
	cr_assert_not_null(strstr(r.out, "\"is_floating\":true"), "%s", r.out);
	expect_nums(r.out, "pos", (const double[]){ 0.6, 0, 0.1 }, 3);
	hxctl_json(&r, a, "mocap", NULL);
	expect_nums(r.out, "pos", (const double[]){ 0, 1, 1 }, 3);
	hxctl_json(&r, a, "dynamics", NULL);
	cr_assert_eq(json_num(r.out, "nv"), 8);
	hxctl_json(&r, a, "sensor", NULL);
	cr_assert_eq(json_num(r.out, "nsensordata"), 11);
	hxctl_json(&r, a, "bodies", NULL);
	cr_assert_eq(json_num(r.out, "count"), 5);
	hxctl_json(&r, a, "geoms", NULL);
	cr_assert_eq(json_num(r.out, "count"), 7);
	hxctl_json(&r, a, "sites", NULL);
	cr_assert_eq(json_num(r.out, "count"), 2);
	hxctl_json(&r, a, "tendons", NULL);
	cr_assert_eq(json_num(r.out, "ntendon"), 1);
	hxctl_json(&r, a, "actuators", NULL);
	cr_assert_eq(json_num(r.out, "nu"), 2);
	hxctl_json(&r, a, "forces", NULL);
	cr_assert_eq(json_num(r.out, "nv"), 8);
	hxctl_json(&r, a, "contacts", NULL);
	cr_assert_eq(json_num(r.out, "ncon"), ncon);
	hxctl_json(&r, a, "robot", NULL);
	cr_assert_eq(json_num(r.out, "motor_count"), 2);
	hxctl_json(&r, a, "hx-update", NULL);
	cr_assert_eq(json_num(r.out, "imu_count"), 1);
	hxctl_json(&r, a, "rgba", "site", "site1", NULL);
	expect_nums(r.out, "rgba", (const double[]){ 0, 0, 1, 1 }, 4);
	hx_run_free(&r);
}

Test(hxctl, tables_are_labelled_with_names)
{
	static const char *const cases[][3] = {
		{ "sensor", "tip_pos  framepos", "accelerometer" },
		{ "tendons", "sum", "velocity" },
		{ "actuators", "servo2", "force" },
		{ "forces", "box[5]", "nonconstraint" },
		{ "geoms", "terrain", "mat (row-major)" },
		{ "sites", "tip", "site1" },
		{ "bodies", "marker", "link2" },
		{ "mocap", "marker", "quat" },
		{ "applied", "xfrc_applied", "link1" },
		{ "dynamics", "qacc", "hinge1" },
		{ "contacts", "floor", "box" },
		{ "robot", "servo2", "q2" },
		{ "hx-update", "servo1", "acc" },
		{ "body", "floating", "contactforce" },
	};
	struct hx_run r = { 0 };
	const char *a;
	size_t i;

	a = start(fixture_args);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (strcmp(cases[i][0], "body") == 0)
			hxctl(&r, a, "body", "3", NULL);
		else
			hxctl(&r, a, cases[i][0], NULL);
		expect_ok(&r);
		cr_assert_not_null(strstr(r.out, cases[i][1]),
		    "%s: no %s in:\n"
		    "%s",
		    cases[i][0], cases[i][1], r.out);
		cr_assert_not_null(strstr(r.out, cases[i][2]),
		    "%s: no %s in:\n"
		    "%s",
		    cases[i][0], cases[i][2], r.out);
	}
	hx_run_free(&r);
}

/*
 * The status shows HAPTIX's energies.  With gravity on and the box and
 * links above the floor the potential energy is positive, and once the
 * box moves the kinetic energy is too.
 */
Test(hxctl, status_reports_energy)
{
	struct hx_run r = { 0 };
	const char *a;

	a = start(fixture_args);
	hxctl(&r, a, "set-state", "--qvel", "0,0,1,0,0,0,0,0", NULL);
	expect_ok(&r);
	hxctl_json(&r, a, "status", NULL);
	cr_assert_gt(json_num(r.out, "energy_potential"), 1, "%s", r.out);
	cr_assert_float_eq(json_num(r.out, "energy_kinetic"), 0.5, 1e-9,
	    "a 1 kg box at 1 m/s: %s", r.out);
	hx_run_free(&r);
}

/*
 * fixture.xml gives joint ranges in radians (its keyframe "raised" puts
 * hinge1 at 0.5, well inside range="-1.5 1.5"), so the description must
 * say [-1.5, 1.5].
 */
Test(hxctl, info_reports_joint_ranges_as_written)
{
	struct hx_run r = { 0 };
	const char *a;

	a = start(fixture_args);
	hxctl_json(&r, a, "info", NULL);
	cr_assert_not_null(
	    strstr(r.out,
		"{\"name\":\"hinge1\",\"type\":"
		"\"hinge\",\"body\":1,\"qposadr\":0,\"dofadr\":0,\"limited\":true,"
		"\"range\":[-1.5,1.5]}"),
	    "%s", r.out);
	hx_run_free(&r);
}

HX_TRANSPORT_TEST(hxctl, sensor_json_is_keyed_by_sensor_name, "-m",
    "fixture.xml", "--paused", NULL)
{
	static const double raised_q2[1] = { -0.5 };
	struct hx_run r = { 0 };
	double v[16];
	const char *p;

	hxctl(&r, addr, "reset", "raised", NULL);
	expect_ok(&r);
	/* sensor, update and step --sensors: the array and the names. */
	hxctl_json(&r, addr, "sensor", NULL);
	cr_assert_eq(json_nums(r.out, "sensordata", v, 16), 11, "%s", r.out);
	cr_assert_not_null(p = strstr(r.out, "\"sensors\":{"), "%s", r.out);
	expect_nums(p, "q1", (const double[]){ 0.5 }, 1);
	expect_nums(p, "q2", raised_q2, 1);
	cr_expect_eq(json_nums(p, "tip_pos", v, 16), 3, "%s", r.out);
	cr_expect_eq(json_nums(p, "acc", v, 16), 3, "%s", r.out);
	cr_expect_eq(json_nums(p, "sum_len", v, 16), 1, "%s", r.out);
	hxctl_json(&r, addr, "update", NULL);
	cr_assert_not_null(p = strstr(r.out, "\"sensors\":{"), "%s", r.out);
	cr_expect_eq(json_nums(p, "v1", v, 16), 1, "%s", r.out);
	hxctl_json(&r, addr, "step", "2", "--sensors", NULL);
	cr_assert_not_null(p = strstr(r.out, "\"sensors\":{"), "%s", r.out);
	cr_expect_eq(json_nums(p, "f1", v, 16), 1, "%s", r.out);
	hx_run_free(&r);
}
