/*
 * Integration tests of hxctl (clients/hxctl.c) against a real haptixd on
 * models/test/fixture.xml, over the Unix socket and TCP: the model:
 * names and ids, one joint, model save, edit operations and default
 * classes, edit attach, load, reload and inline models, no model at all.
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
#include <sys/stat.h>
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

/* Edits through hxctl edit on the model at addr, and a default class. */
static void
expect_edits(const char *addr)
{
	struct hx_run r = { 0 };

	/* Edits, one operation each; a bad one fails, saying which. */
	hxctl(&r, addr, "edit", "add", "body", "extra", "--in", "worldbody",
	    "pos=0 0 2", NULL);
	expect_ok(&r);
	cr_expect_not_null(strstr(r.out, "nbody 6"), "%s", r.out);
	hxctl(&r, addr, "edit", "add", "geom", "--in", "body:extra", "size=0.1",
	    NULL);
	expect_ok(&r);
	hxctl(&r, addr, "edit", "remove", "body", "extra", NULL);
	expect_ok(&r);
	cr_expect_not_null(strstr(r.out, "removed\nbody extra\n"), "%s", r.out);
	hxctl(&r, addr, "edit", "set", "geom", "nosuch", "size=1", NULL);
	expect_fail(&r, "edit", "mjCOM_BADVALUE", "operation 1");
	/* A default class's settings: the top class's joints damped. */
	hxctl(&r, addr, "edit", "set", "joint", "--class", "main",
	    "damping=0.25", NULL);
	expect_ok(&r);
	hxctl(&r, addr, "model", "save", "-", NULL);
	cr_expect_not_null(
	    strstr(r.out, "<joint damping=\"0.25\""), "%s", r.out);
	hxctl(&r, addr, "edit", "remove", "joint", "--class", "main", NULL);
	expect_usage(&r, "--class goes with set and unset");
}

HX_TRANSPORT_TEST(hxctl, names_and_ids, "-m", "fixture.xml", "--paused", NULL)
{
	struct hx_run r = { 0 };

	hxctl(&r, addr, "name2id", "body", "box", NULL);
	expect_ok(&r);
	cr_assert_str_eq(r.out, "3\n");
	hxctl(&r, addr, "name2id", "joint", "hinge2", NULL);
	cr_assert_str_eq(r.out, "1\n");
	hxctl(&r, addr, "id2name", "body", "3", NULL);
	expect_ok(&r);
	cr_assert_str_eq(r.out, "box\n");
	hxctl_json(&r, addr, "name2id", "geom", "terrain", NULL);
	cr_assert_str_eq(r.out,
	    "{\"type\":\"geom\",\"name\":\"terrain\","
	    "\"id\":1}\n");
	hxctl_json(&r, addr, "id2name", "keyframe", "1", NULL);
	cr_assert_str_eq(r.out,
	    "{\"type\":\"key\",\"id\":1,\"name\":"
	    "\"dropped\"}\n");
	/* One joint by name or id, as a table and as JSON. */
	hxctl(&r, addr, "set-joint", "hinge2", "--qpos", "0.25", NULL);
	expect_ok(&r);
	hxctl(&r, addr, "joint", "hinge2", NULL);
	expect_ok(&r);
	cr_expect_not_null(
	    strstr(r.out, "joint        1 hinge2 (hinge)\n"), "%s", r.out);
	cr_expect_not_null(
	    strstr(r.out, "body         2 link2\n"), "%s", r.out);
	cr_expect_not_null(
	    strstr(r.out, "range        not limited\n"), "%s", r.out);
	hxctl_json(&r, addr, "joint", "1", NULL);
	cr_expect_not_null(strstr(r.out,
			       "{\"name\":\"hinge2\",\"id\":1,\"type\":"
			       "\"hinge\",\"body\":\"link2\",\"body_id\":2,"
			       "\"qpos_adr\":1,\"dof_adr\":1,"),
	    "%s", r.out);
	cr_expect_not_null(strstr(r.out, "\"qpos\":[0.25]"), "%s", r.out);
	hxctl(&r, addr, "joint", "nosuch", NULL);
	expect_fail(&r, "joint", "mjCOM_BADINDEX", "nosuch");
	/* The model's MJCF text, to standard output. */
	hxctl(&r, addr, "model", "save", "-", NULL);
	expect_ok(&r);
	cr_expect(
	    strncmp(r.out, "<mujoco model=\"fixture\">", 24) == 0, "%s", r.out);
	cr_expect_not_null(
	    strstr(r.out, "<joint name=\"hinge2\""), "%s", r.out);
	hxctl(&r, addr, "model", "keep", "-", NULL);
	cr_expect_neq(r.status, 0, "model keep: %s", r.err);
	expect_edits(addr);
	hx_run_free(&r);
}

/*
 * edit attach: from a file in the model directories, from the model
 * itself (.), from a local file (--inline); a name taken fails, naming
 * it.
 */
Test(hxctl, edit_attach)
{
	static const char
	    ball[] = "<mujoco><compiler angle=\"radian\"/><worldbody><body "
		     "name=\"ball\" pos=\"0 0 3\"><freejoint/><geom size=\"0.1\"/>"
		     "</body></worldbody></mujoco>\n";
	char path[] = "/tmp/hxctl-ball.XXXXXX.xml";
	struct hx_run r = { 0 };
	const char *a;
	int fd;

	a = start(fixture_args);
	hxctl(&r, a, "edit", "attach", "attach/gripper.xml", "gripper", "--to",
	    "worldbody", "--prefix", "g_", NULL);
	expect_ok(&r);
	cr_expect_not_null(strstr(r.out, "nbody 8, nq 18, nu 3"), "%s", r.out);
	hxctl(&r, a, "edit", "attach", ".", "link1", "--to", "body:g_gripper",
	    "--suffix", "_copy", NULL);
	expect_ok(&r);
	cr_expect_not_null(strstr(r.out, "nbody 10, nq 20, nu 5"), "%s", r.out);
	fd = mkstemps(path, 4);
	cr_assert_neq(fd, -1, "mkstemps: %s", strerror(errno));
	cr_assert_eq(
	    write(fd, ball, sizeof(ball) - 1), (ssize_t)sizeof(ball) - 1);
	close(fd);
	hxctl_json(&r, a, "edit", "attach", "--inline", path, "ball", "--to",
	    "worldbody", "--prefix", "i_", NULL);
	unlink(path);
	cr_assert_eq(json_num(r.out, "nbody"), 11, "%s", r.out);
	hxctl(&r, a, "edit", "attach", "attach/gripper.xml", "gripper", "--to",
	    "worldbody", "--prefix", "g_", NULL);
	expect_fail(&r, "edit", "mjCOM_BADVALUE",
	    "the model already has a body named \"g_gripper\"");
	hxctl(&r, a, "edit", "attach", "attach/gripper.xml", "gripper", NULL);
	expect_usage(&r, "edit attach without --to");
	hx_run_free(&r);
}

Test(hxctl, load_reload_and_inline_models)
{
	static const char
	    tiny[] = "<mujoco model=\"tiny\"><worldbody><body "
		     "name=\"ball\"><freejoint/><geom size=\"0.1\"/></body>"
		     "</worldbody></mujoco>\n";
	char path[] = "/tmp/hxctl-tiny.XXXXXX.xml";
	struct hx_run r = { 0 };
	const char *a;
	int fd;

	a = start(fixture_args);
	hxctl(&r, a, "load", "arm.urdf", NULL);
	expect_ok(&r);
	cr_assert(strncmp(r.out, "loaded ", 7) == 0, "%s", r.out);
	hxctl_json(&r, a, "load", "fixture.xml", NULL);
	cr_assert_not_null(strstr(r.out, "\"name\":\"fixture\""), "%s", r.out);
	cr_assert_eq(json_num(r.out, "nq"), 9);
	hxctl(&r, a, "load", "broken.xml", NULL);
	expect_fail(&r, "load", "mjCOM_LOADFAILED", "stiffnes");
	hxctl(&r, a, "load", "/etc/passwd", NULL);
	expect_fail(&r, "load", "mjCOM_DENIED", NULL);
	hxctl(&r, a, "load", "--inline", "/nonexistent/model.xml", NULL);
	expect_fail(&r, "load", "mjCOM_LOADFAILED", "/nonexistent/model.xml");

	fd = mkstemps(path, 4);
	cr_assert_neq(fd, -1, "mkstemps: %s", strerror(errno));
	cr_assert_eq(
	    write(fd, tiny, sizeof(tiny) - 1), (ssize_t)sizeof(tiny) - 1);
	close(fd);
	hxctl_json(&r, a, "load", "--inline", path, NULL);
	unlink(path);
	cr_assert_not_null(
	    strstr(r.out, "\"name\":\"tiny\",\"path\":\"\""), "%s", r.out);
	cr_assert_eq(json_num(r.out, "nq"), 7);
	hxctl(&r, a, "reload", NULL);
	expect_fail(&r, "reload", "mjCOM_BADVALUE", NULL);

	hxctl(&r, a, "load", "fixture.xml", NULL);
	expect_ok(&r);
	hxctl(&r, a, "set-ctrl", "0.5", "0.5", NULL);
	expect_ok(&r);
	hxctl_json(&r, a, "reload", NULL);
	cr_assert_eq(json_num(r.out, "nu"), 2, "%s", r.out);
	hxctl_json(&r, a, "ctrl", NULL);
	expect_nums(r.out, "ctrl", (const double[]){ 0, 0 }, 2);
	hx_run_free(&r);
}

/* load --inline MODEL ASSET...: the files it names go with it. */
Test(hxctl, load_inline_with_the_files_it_names)
{
	static const char
	    top[] = "<mujoco model=\"carried\"><worldbody><include "
		    "file=\"parts/ball.xml\"/></worldbody></mujoco>\n",
	    ball[] = "<mujoco><body name=\"ball\"><freejoint/><geom "
		     "size=\"0.1\"/></body></mujoco>\n";
	char dir[] = "/tmp/hxctl-carried.XXXXXX", model[128], part[128],
	     sub[128];
	struct hx_run r = { 0 };
	const char *a;
	FILE *f;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(model, sizeof(model), "%s/top.xml", dir);
	snprintf(sub, sizeof(sub), "%s/parts", dir);
	snprintf(part, sizeof(part), "%s/parts/ball.xml", dir);
	cr_assert_eq(mkdir(sub, 0700), 0);
	cr_assert_not_null(f = fopen(model, "w"));
	fputs(top, f);
	fclose(f);
	cr_assert_not_null(f = fopen(part, "w"));
	fputs(ball, f);
	fclose(f);

	a = start(fixture_args);
	hxctl(&r, a, "load", "--inline", model, NULL);
	expect_fail(&r, "load", "mjCOM_LOADFAILED", "ball.xml");
	hxctl_json(&r, a, "load", "--inline", model, part, NULL);
	cr_assert_not_null(strstr(r.out, "\"name\":\"carried\""), "%s", r.out);
	cr_assert_eq(json_num(r.out, "nbody"), 2);
	hxctl(&r, a, "load", "--inline", model, "/nonexistent/x.stl", NULL);
	expect_fail(&r, "load", "mjCOM_LOADFAILED", "/nonexistent/x.stl");
	hxctl(&r, a, "load", "fixture.xml", part, NULL);
	expect_usage(&r, "one file at a time");
	unlink(part);
	unlink(model);
	rmdir(sub);
	rmdir(dir);
	hx_run_free(&r);
}

Test(hxctl, without_a_model)
{
	struct hx_run r = { 0 };
	const char *a;

	a = start((const char *[]){ "--no-model", NULL });
	hxctl(&r, a, "status", NULL);
	expect_ok(&r);
	cr_assert_not_null(strstr(r.out, "none loaded"), "%s", r.out);
	hxctl_json(&r, a, "status", NULL);
	cr_assert_not_null(strstr(r.out, "\"loaded\":false"), "%s", r.out);
	hxctl(&r, a, "state", NULL);
	expect_fail(&r, "state", "mjCOM_NOMODEL", NULL);
	hxctl(&r, a, "body", "box", NULL);
	expect_fail(&r, "body", "mjCOM_NOMODEL", NULL);
	hxctl(&r, a, "load", "fixture.xml", NULL);
	expect_ok(&r);
	hxctl_json(&r, a, "state", NULL);
	expect_nums(r.out, "qpos", fixture_qpos0, 9);
	hx_run_free(&r);
}
