/*
 * The calls beyond HAPTIX against a real haptixd: loading models (files,
 * inline MJCF/URDF/MJB, failures, confinement to the model directories),
 * MuJoCo errors and instability, pause/run/speed, status, and lock-step
 * determinism.
 */
#include "config.h"

#include <sys/stat.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <mujoco/mujoco.h>

#include "check.h"
#include "harness.h"
#include "haptixd.h"

TestSuite(admin, .timeout = 90, .fini = hx_server_cleanup);

/* Read a whole file into a malloc'd buffer. */
static char *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	cr_assert_not_null(f, "%s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	cr_assert_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	buf[n] = '\0';
	*len = (size_t)n;
	return buf;
}

HX_TRANSPORT_TEST(
    admin, load_file_from_model_dirs, "-m", "fixture.xml", "--paused", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "test_admin");
	hxd_model m;
	hxd_state *st = NULL;
	char *real;

	cr_expect_str_eq(hxd_welcome_model(c)->name, "fixture");
	/* A name relative to a model directory. */
	cr_assert_eq(
	    hxd_load_file(c, "arm.urdf", &m), HXD_OK, "%s", hxd_error(c));
	cr_expect_str_eq(m.name, "urdf_arm", "URDF loads, named by <robot>");
	cr_expect_eq(m.nq, 2);
	cr_expect_eq(m.nbody, 3);
	cr_assert_eq(hxd_get_state(c, &st), HXD_OK);
	cr_expect_eq(st->nq, 2, "the new model is the one simulated");
	free(st);
	/* An absolute path inside a model directory. */
	cr_assert_eq(hxd_load_file(c, hx_test_model("fixture.xml"), &m), HXD_OK,
	    "%s", hxd_error(c));
	cr_expect_eq(m.nq, 9);
	real = realpath(hx_test_model("fixture.xml"), NULL);
	cr_expect_str_eq(m.path, real, "the path loaded, symlinks resolved");
	free(real);
	/* A bundled scene from the second directory. */
	cr_assert_eq(
	    hxd_load_file(c, "mpl_hand.xml", &m), HXD_OK, "%s", hxd_error(c));
	cr_expect_str_eq(m.name, "MPL");
	/* And reload the current one from its file. */
	cr_assert_eq(hxd_reload(c, &m), HXD_OK, "%s", hxd_error(c));
	cr_expect_str_eq(m.name, "MPL");
	hxd_close(c);
}

HX_TRANSPORT_TEST(admin, failed_load_keeps_the_old_model, "-m", "fixture.xml",
    "--paused", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "test_admin");
	hxd_model m;
	hxd_state *st = NULL;
	hxd_status s;

	cr_assert_eq(hxd_load_file(c, "broken.xml", &m), HXD_LOADFAILED);
	/* MuJoCo's own words reach the caller. */
	cr_expect_not_null(strstr(hxd_error(c),
			       "unrecognized attribute: "
			       "'stiffnes'"),
	    "%s", hxd_error(c));
	cr_expect_not_null(strstr(hxd_error(c), "line 7"), "%s", hxd_error(c));
	s = hx_status_ok(c);
	cr_expect_str_eq(s.model.name, "fixture");
	cr_assert_eq(hxd_get_state(c, &st), HXD_OK, "%s", hxd_error(c));
	cr_expect_eq(st->nq, 9);
	free(st);
	cr_assert_eq(hxd_load_file(c, "missing.xml", &m), HXD_LOADFAILED);
	cr_expect_not_null(
	    strstr(hxd_error(c), "no model missing.xml"), "%s", hxd_error(c));
	/* Outside, there or not, one answer: it tells nothing of what exists. */
	cr_assert_eq(hxd_load_file(c, "/etc/passwd", &m), HXD_DENIED);
	cr_expect_not_null(strstr(hxd_error(c),
			       "is outside the model "
			       "directories"),
	    "%s", hxd_error(c));
	cr_assert_eq(hxd_load_file(c, "/etc/hx-no-such-file", &m), HXD_DENIED,
	    "a missing file outside: %s", hxd_error(c));
	cr_expect_not_null(strstr(hxd_error(c),
			       "is outside the model "
			       "directories"),
	    "%s", hxd_error(c));
	cr_assert_eq(hxd_load_data(
			 c, HXD_FORMAT_MJCF, "<mujoco><bad", 12, "garbage", &m),
	    HXD_LOADFAILED);
	cr_expect_neq(hxd_error(c)[0], '\0', "the XML error is explained");
	cr_assert_eq(hxd_load_data(c, HXD_FORMAT_MJB, "not an mjb file", 15,
			 "garbage", &m),
	    HXD_LOADFAILED);
	s = hx_status_ok(c);
	cr_expect_str_eq(s.model.name, "fixture", "still the old model");
	hxd_close(c);
}

HX_TRANSPORT_TEST(admin, paths_outside_the_model_dirs_are_refused, "-m",
    "fixture.xml", "--paused", NULL)
{
	static const char *const outside[] = { "/etc/passwd",
		"../../configure.ac", "../../models/../README.md", "/tmp" };
	hxd_conn *c = hx_connect_ok(addr, "test_admin");
	char link[400];
	hxd_model m;
	size_t i;

	for (i = 0; i < sizeof(outside) / sizeof(outside[0]); i++) {
		if (access(outside[i], F_OK) != 0 && outside[i][0] == '/')
			continue;
		cr_expect_eq(hxd_load_file(c, outside[i], &m), HXD_DENIED,
		    "%s: %s", outside[i], hxd_error(c));
		cr_expect_not_null(strstr(hxd_error(c),
				       "outside the model "
				       "directories"),
		    "%s", hxd_error(c));
	}
	/* A symlink inside a model directory that leads out. */
	snprintf(link, sizeof(link), "%s/escape.xml", srv->dir);
	cr_assert_eq(symlink("/etc/hostname", link), 0);
	cr_expect_neq(hxd_load_file(c, link, &m), HXD_OK,
	    "the temporary directory is not a model directory");
	cr_expect_str_eq(hx_status_ok(c).model.name, "fixture");
	hxd_close(c);
}

Test(admin, symlink_leading_out_is_refused)
{
	struct hx_server s;
	char dir[64] = "/tmp/hxmodels.XXXXXX", link[128], good[128];
	const char *args[] = { "-m", "fixture.xml", "--paused", "-M", dir,
		NULL };
	hxd_conn *c;
	hxd_model m;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(link, sizeof(link), "%s/evil.xml", dir);
	snprintf(good, sizeof(good), "%s/fine.xml", dir);
	cr_assert_eq(symlink("/etc/passwd", link), 0);
	cr_assert_eq(symlink(hx_test_model("fixture.xml"), good), 0);
	hx_server_start(&s, args);
	c = hx_connect_ok(s.unix_addr, "test_admin");
	cr_expect_eq(
	    hxd_load_file(c, "evil.xml", &m), HXD_DENIED, "%s", hxd_error(c));
	/* A link to a file in another model directory is fine. */
	cr_expect_eq(
	    hxd_load_file(c, "fine.xml", &m), HXD_OK, "%s", hxd_error(c));
	hxd_close(c);
	hx_server_stop(&s);
	unlink(link);
	unlink(good);
	rmdir(dir);
}

HX_TRANSPORT_TEST(admin, inline_models, "--no-model", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "test_admin");
	hxd_state *st = NULL;
	char *xml;
	size_t len;
	hxd_model m;

	cr_expect_eq(hxd_get_state(c, &st), HXD_NOMODEL, "no model yet");
	cr_expect_eq(hxd_reload(c, &m), HXD_BADVALUE, "nothing to reload");
	xml = slurp(hx_test_model("fixture.xml"), &len);
	cr_assert_eq(hxd_load_data(c, HXD_FORMAT_AUTO, xml, len, "mine", &m),
	    HXD_OK, "%s", hxd_error(c));
	cr_expect_str_eq(m.name, "fixture");
	cr_expect_str_eq(m.path, "", "an inline model has no path");
	cr_expect_eq(m.nq, 9);
	free(xml);
	cr_expect_eq(hxd_reload(c, &m), HXD_BADVALUE,
	    "an inline model cannot be reloaded from a file");
	xml = slurp(hx_test_model("arm.urdf"), &len);
	cr_assert_eq(hxd_load_data(c, HXD_FORMAT_URDF, xml, len, "arm", &m),
	    HXD_OK, "%s", hxd_error(c));
	cr_expect_eq(m.nq, 2);
	free(xml);
	hxd_close(c);
}

/*
 * A copy of the bundled scene sent inline: its <include> of mpl_hand.xml
 * resolves in the model directory that holds it (the second), as the
 * scene's own file does; a name that leads out is still refused.
 */
HX_TRANSPORT_TEST(admin, inline_models_include_from_the_model_dirs,
    "--no-model", "--paused", NULL)
{
	static const char out[] = "<mujoco><include file=\"../../configure.ac\"/>"
				  "</mujoco>";
	hxd_conn *c = hx_connect_ok(addr, "test_admin");
	char path[1024], *xml;
	size_t len;
	hxd_model m, want;

	snprintf(path, sizeof(path), "%s/mpl_scene.xml", getenv("HX_MODELS"));
	cr_assert_eq(hxd_load_file(c, "mpl_scene.xml", &want), HXD_OK, "%s",
	    hxd_error(c));
	xml = slurp(path, &len);
	cr_assert_eq(hxd_load_data(c, HXD_FORMAT_MJCF, xml, len, "myscene", &m),
	    HXD_OK, "%s", hxd_error(c));
	free(xml);
	cr_expect_str_eq(m.name, "MPL table");
	cr_expect_str_eq(m.path, "", "still an inline model");
	cr_expect_eq(m.nbody, want.nbody, "the hand is in it");
	cr_expect_eq(m.nu, want.nu);
	cr_expect_eq(m.nsensordata, want.nsensordata);
	cr_assert_eq(
	    hxd_load_data(c, HXD_FORMAT_MJCF, out, sizeof(out) - 1, "out", &m),
	    HXD_DENIED, "%s", hxd_error(c));
	cr_expect_not_null(
	    strstr(hxd_error(c), "outside the model directories"), "%s",
	    hxd_error(c));
	cr_expect_str_eq(hx_status_ok(c).model.name, "MPL table");
	hxd_close(c);
}

Test(admin, mjb_files_and_inline_mjb)
{
	struct hx_server s;
	char dir[64] = "/tmp/hxmjb.XXXXXX", path[128], err[1000];
	const char *args[] = { "-m", path, "--paused", "-M", dir, NULL };
	hxd_model m;
	hxd_conn *c;
	mjModel *mm;
	void *mjb;
	int len;

	/* Compile the fixture to MJB with MuJoCo itself: a file and bytes. */
	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/fixture.mjb", dir);
	mm = mj_loadXML(hx_test_model("fixture.xml"), NULL, err, sizeof(err));
	cr_assert_not_null(mm, "%s", err);
	mj_saveModel(mm, path, NULL, 0);
	len = mj_sizeModel(mm);
	mjb = malloc((size_t)len);
	mj_saveModel(mm, NULL, mjb, len);
	mj_deleteModel(mm);

	/* The daemon starts on the MJB file. */
	hx_server_start(&s, args);
	c = hx_connect_ok(s.unix_addr, "test_admin");
	cr_expect_eq(hxd_welcome_model(c)->nq, 9);
	cr_expect_str_eq(hxd_welcome_model(c)->name, "fixture");
	cr_assert_eq(
	    hxd_load_file(c, "fixture.mjb", &m), HXD_OK, "%s", hxd_error(c));
	cr_expect_eq(m.nkey, 2, "an MJB file by its suffix");
	cr_assert_eq(
	    hxd_load_data(c, HXD_FORMAT_AUTO, mjb, (size_t)len, "bin", &m),
	    HXD_OK, "%s", hxd_error(c));
	cr_expect_eq(m.nq, 9, "MJB recognised by its magic number");
	cr_expect_str_eq(m.path, "");
	cr_assert_eq(
	    hxd_load_data(c, HXD_FORMAT_MJB, mjb, (size_t)len / 2, "half", &m),
	    HXD_LOADFAILED, "a truncated MJB is refused");
	cr_expect_not_null(
	    strstr(hxd_error(c), "outside model buffer"), "%s", hxd_error(c));
	cr_expect_eq(hx_status_ok(c).model.nq, 9, "the old model runs on");
	free(mjb);
	hxd_close(c);
	hx_server_stop(&s);
	unlink(path);
	rmdir(dir);
}

HX_TRANSPORT_TEST(admin, mujoco_error_is_caught_and_reported, "-m",
    "overflow.xml", "--paused", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "test_admin");
	hxd_state *st = NULL;
	hxd_status s;
	unsigned taken;
	int i, rc = HXD_OK;

	/* The box reaches the floor after ~143 steps: MuJoCo's stack overflows.
	 */
	for (i = 0; i < 40 && rc == HXD_OK; i++)
		rc = hxd_step(c, 10, &taken);
	cr_assert_eq(rc, HXD_SIMERROR, "%s", hxd_error(c));
	cr_expect_not_null(
	    strstr(hxd_error(c), "Stack overflow"), "%s", hxd_error(c));
	s = hx_status_ok(c);
	cr_expect_eq(s.sim_errors, 1);
	cr_expect_lt(s.time, 0.01, "the data was reset");
	cr_assert_eq(hxd_get_state(c, &st), HXD_OK, "still serving");
	cr_expect_float_eq(st->qpos[2], 0.5, 1e-12, "back to the start");
	free(st);
	/* Running into the error again and again does not stop the daemon. */
	cr_assert_eq(hxd_set_speed(c, 0, 1), HXD_OK);
	cr_assert_eq(hxd_run(c), HXD_OK);
	hx_sleep_ms(500);
	s = hx_status_ok(c);
	cr_expect_gt(
	    s.sim_errors, 1, "errors while running: %llu", s.sim_errors);
	hxd_close(c);
}

HX_TRANSPORT_TEST(admin, unstable_model_resets_and_reports, "-m",
    "unstable.xml", "--paused", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "test_admin");
	hxd_status s;
	unsigned taken;

	s = hx_status_ok(c);
	cr_expect_eq(s.instability_resets, 0);
	cr_assert_eq(hxd_step(c, 10, &taken), HXD_OK, "%s", hxd_error(c));
	cr_expect_eq(taken, 10);
	s = hx_status_ok(c);
	cr_expect_geq(s.instability_resets, 1, "instability counted");
	cr_expect_lt(s.time, 0.1 - 1e-9, "time restarted at the reset");
	cr_expect(hx_server_log_has(srv, "simulation unstable"), "and logged");
	hxd_close(c);
}

HX_TRANSPORT_TEST(
    admin, pause_run_speed_and_status, "-m", "fixture.xml", "--paused", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "test_admin"),
		 *other = hx_connect_ok(addr, "test_admin");
	hxd_status s0, s1;
	double t0;

	s0 = hx_status_ok(c);
	cr_expect(s0.paused);
	cr_expect_eq(s0.clients, 2);
	cr_expect_float_eq(s0.model.timestep, 0.002, 1e-12);
	cr_expect_float_eq(s0.model.apirate, 50, 1e-12);
	hx_sleep_ms(100);
	s1 = hx_status_ok(c);
	cr_expect_eq(s1.time, s0.time, "paused: time stands still");
	cr_expect_gt(s1.uptime, s0.uptime);

	cr_assert_eq(hxd_run(c), HXD_OK);
	hx_sleep_ms(300);
	s1 = hx_status_ok(c);
	cr_expect_not(s1.paused);
	cr_expect_gt(s1.time, 0.1, "running: time advances (%g)", s1.time);
	cr_expect_lt(s1.time, 3.0, "but not wildly faster than real time");
	cr_expect_gt(s1.steps, 50);
	cr_expect_gt(s1.cpu_per_step, 0);
	cr_expect_lt(s1.cpu_per_step, 0.01);

	/* Speed factors: a generous sanity band, not a benchmark. */
	cr_assert_eq(hxd_set_speed(c, 0.5, 0), HXD_OK);
	hx_sleep_ms(2300);
	s1 = hx_status_ok(c);
	cr_expect_float_eq(s1.speed, 0.5, 1e-12);
	cr_expect(s1.realtime_factor > 0.25 && s1.realtime_factor < 0.6,
	    "speed 0.5 gives a real-time factor of %g", s1.realtime_factor);
	cr_assert_eq(hxd_set_speed(c, 1, 1), HXD_OK);
	t0 = hx_status_ok(c).time;
	hx_sleep_ms(300);
	s1 = hx_status_ok(c);
	cr_expect(s1.speed_max);
	cr_expect_gt(s1.time - t0, 0.6,
	    "max speed outruns the clock "
	    "(%g simulated s in 0.3 s)",
	    s1.time - t0);

	cr_expect_eq(hxd_set_speed(c, 0, 0), HXD_BADVALUE);
	cr_expect_eq(hxd_set_speed(c, -1, 0), HXD_BADVALUE);
	cr_expect_eq(hxd_set_speed(c, NAN, 0), HXD_BADVALUE);
	cr_expect_eq(hxd_set_speed(c, 1e7, 0), HXD_BADVALUE);

	cr_assert_eq(hxd_pause(c), HXD_OK);
	s0 = hx_status_ok(other);
	hx_sleep_ms(100);
	s1 = hx_status_ok(other);
	cr_expect(s1.paused, "seen by the other client too");
	cr_expect_eq(s1.time, s0.time);
	cr_expect_eq(s1.realtime_factor, 0);
	hxd_close(other);
	hxd_close(c);
}

Test(admin, api_rate_from_the_command_line)
{
	struct hx_server s;
	const char *args[] = { "-m", "fixture.xml", "--paused", "--api-rate",
		"10", NULL };
	hxd_conn *c;

	hx_server_start(&s, args);
	c = hx_connect_ok(s.unix_addr, "test_admin");
	cr_expect_float_eq(hxd_welcome_model(c)->apirate, 10, 1e-12,
	    "the command line overrides the model's apirate of 50");
	hxd_close(c);
	hx_server_stop(&s);
}

/* Run a fixed sequence of lock-step updates; return the final qpos. */
static double *
lockstep_run(const char *addr, int *nq)
{
	hxd_conn *c = hx_connect_ok(addr, "test_admin");
	hxd_control ctl;
	hxd_sensor *sen = NULL;
	hxd_state *st = NULL;
	double u[2], *q;
	int i;

	cr_assert_eq(hxd_reset(c, 0), HXD_OK);
	ctl.nu = 2;
	ctl.ctrl = u;
	for (i = 0; i < 400; i++) {
		u[0] = sin(i * 0.05);
		u[1] = cos(i * 0.03) * 1.5;
		cr_assert_eq(
		    hxd_update(c, &ctl, &sen), HXD_OK, "%s", hxd_error(c));
		free(sen);
	}
	cr_assert_eq(hxd_get_state(c, &st), HXD_OK);
	*nq = st->nq;
	q = malloc((size_t)st->nq * sizeof(double));
	memcpy(q, st->qpos, (size_t)st->nq * sizeof(double));
	free(st);
	hxd_close(c);
	return q;
}

Test(admin, lockstep_runs_are_bit_identical)
{
	const char *args[] = { "-m", "fixture.xml", "--paused", NULL };
	struct hx_server a, b;
	double *qa, *qb, *qc;
	int na, nb, nc;

	hx_server_start(&a, args);
	hx_server_start(&b, args);
	qa = lockstep_run(a.unix_addr, &na);
	qb = lockstep_run(b.tcp_addr, &nb);
	qc = lockstep_run(a.tcp_addr, &nc);
	cr_assert_eq(na, 9);
	cr_assert_eq(nb, na);
	cr_assert_eq(nc, na);
	cr_expect_eq(memcmp(qa, qb, (size_t)na * sizeof(double)), 0,
	    "two daemons, same requests: bit-identical qpos");
	cr_expect_eq(memcmp(qa, qc, (size_t)na * sizeof(double)), 0,
	    "the same daemon after a reset: bit-identical qpos");
	cr_expect_neq(qa[0], 0.5, "the run moved the arm");
	free(qa);
	free(qb);
	free(qc);
	hx_server_stop(&a);
	hx_server_stop(&b);
}

Test(admin, bad_command_lines_are_refused)
{
	static const char *const bad[][4] = {
		{ "--speed", "0", NULL },
		{ "--speed", "fast", NULL },
		{ "--max-clients", "0", NULL },
		{ "--unix", "none", "--tcp" },
		{ "-m", "nonexistent.xml", NULL },
		{ "-m", "broken.xml", NULL },
	};
	struct hx_server s;
	const char *args[6];
	size_t i, k;
	int status;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		for (k = 0; k < 4 && bad[i][k] != NULL; k++)
			args[k] = bad[i][k];
		if (k == 4)
			args[k++] = "none";
		args[k] = NULL;
		status = hx_server_try_start(&s, args);
		cr_expect_neq(
		    status, -1, "haptixd started with %s %s", args[0], args[1]);
		hx_server_stop(&s);
	}
}

HX_TRANSPORT_TEST(admin, legacy_models_load_only_with_the_translation, "-m",
    "fixture.xml", "--paused", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "test_admin");
	hxd_model m;

	/* As written, MuJoCo 2.2.2 refuses a HAPTIX 1.x model. */
	cr_assert_eq(hxd_load_file(c, "legacy/hand1x.xml", &m), HXD_LOADFAILED);
	cr_expect_str_eq(hx_status_ok(c).model.name, "fixture");
	/* Translated, it loads, and every change is logged. */
	cr_assert_eq(hxd_load_legacy(c, "legacy/hand1x.xml", &m), HXD_OK, "%s",
	    hxd_error(c));
	cr_expect_str_eq(m.name, "hand1x");
	cr_expect_eq(m.nu, 3);
	cr_expect(hx_server_log_has(srv,
	    "mesh \"palm\": file \"palm.STL\" -> "
	    "\"Palm.stl\""));
	cr_expect(hx_server_log_has(srv,
	    "joint \"wrist\": range without "
	    "limited: added limited=\"false\""));
	/* A reload translates it again. */
	cr_assert_eq(hxd_reload(c, &m), HXD_OK, "%s", hxd_error(c));
	cr_expect_eq(m.nu, 3);
	/* The translation changes nothing in a current model. */
	cr_assert_eq(
	    hxd_load_legacy(c, "fixture.xml", &m), HXD_OK, "%s", hxd_error(c));
	cr_expect(hx_server_log_has(srv, "fixture.xml: nothing to change"));
	hxd_close(c);
}

Test(admin, legacy_option_applies_to_the_command_line_model)
{
	struct hx_server s;
	const char *plain[] = { "-m", "legacy/hand1x.xml", NULL };
	const char *legacy[] = { "--legacy", "-m", "legacy/hand1x.xml",
		"--paused", NULL };
	hxd_conn *c;
	int status;

	status = hx_server_try_start(&s, plain);
	cr_expect_neq(status, -1, "refused without --legacy");
	hx_server_stop(&s);
	hx_server_start(&s, legacy);
	c = hx_connect_ok(s.unix_addr, "test_admin");
	cr_expect_str_eq(hxd_welcome_model(c)->name, "hand1x");
	hxd_close(c);
	hx_server_stop(&s);
}

/*
 * What MuJoCo's own XML reader takes loads every way (issue 17 item 6):
 * models/test/pouring.xml writes pos="0 0 0.005"condim="4" as the genuine
 * MPL_Pouring.xml does, which expat refused before MuJoCo saw it.
 */
HX_TRANSPORT_TEST(admin, what_mujoco_reads_loads_every_way, "-m", "fixture.xml",
    "--paused", NULL)
{
	hxd_conn *c = hx_connect_ok(addr, "test_admin");
	hxd_model m;
	char *xml;
	size_t len;

	xml = slurp(hx_test_model("pouring.xml"), &len);
	cr_expect_eq(hxd_load_data(c, HXD_FORMAT_MJCF, xml, len, "pour", &m),
	    HXD_OK, "inline: %s", hxd_error(c));
	cr_expect_eq(m.ngeom, 2);
	free(xml);
	cr_expect_eq(hxd_load_legacy(c, "pouring.xml", &m), HXD_OK,
	    "legacy: %s", hxd_error(c));
	cr_expect_str_eq(m.name, "pouring");
	cr_expect_eq(hxd_load_file(c, "pouring.xml", &m), HXD_OK, "file: %s",
	    hxd_error(c));
	cr_expect_str_eq(m.name, "pouring");
	cr_expect_eq(m.ngeom, 2);
	cr_expect_eq(hxd_reload(c, &m), HXD_OK, "reload: %s", hxd_error(c));
	cr_expect_str_eq(hx_status_ok(c).model.name, "pouring");
	hxd_close(c);
}

Test(admin, what_mujoco_reads_loads_from_the_command_line)
{
	const char *args[] = { "-m", "pouring.xml", "--paused", NULL };
	struct hx_server s;
	hxd_conn *c;

	hx_server_start(&s, args);
	c = hx_connect_ok(s.unix_addr, "test_admin");
	cr_expect_str_eq(hxd_welcome_model(c)->name, "pouring");
	hxd_close(c);
	hx_server_stop(&s);
}

/* Copy models/test/name to dir/as. */
static void
copy_model(const char *name, const char *dir, const char *as)
{
	char path[512], *xml;
	size_t len;
	FILE *f;

	xml = slurp(hx_test_model(name), &len);
	snprintf(path, sizeof(path), "%s/%s", dir, as);
	cr_assert_not_null(f = fopen(path, "w"), "%s", path);
	cr_assert_eq(fwrite(xml, 1, len, f), len);
	fclose(f);
	free(xml);
}

/* Return 1 if dirs (NULL-terminated) holds dir. */
static int
dirs_have(char **dirs, const char *dir)
{
	size_t i;

	for (i = 0; dirs[i] != NULL; i++)
		if (strcmp(dirs[i], dir) == 0)
			return 1;
	return 0;
}

/* Without user-model-dirs, a user may add no directory (dir). */
static void
expect_not_unless_allowed(const char *dir)
{
	const char *off[] = { "-m", "fixture.xml", "--paused", NULL };
	struct hx_server s;
	char **dirs = NULL;
	int user = -1;
	hxd_conn *c;

	hx_server_start(&s, off);
	c = hx_connect_ok(s.unix_addr, "test_admin");
	cr_assert_eq(
	    hxd_model_dirs(c, NULL, &dirs, &user), HXD_OK, "%s", hxd_error(c));
	cr_expect_eq(user, 0);
	cr_expect_not_null(dirs[0], "the settings' directories");
	free(dirs);
	cr_expect_eq(hxd_model_dirs(c, dir, NULL, NULL), HXD_DENIED);
	cr_expect_not_null(
	    strstr(hxd_error(c), "user-model-dirs"), "%s", hxd_error(c));
	hxd_close(c);
	hx_server_stop(&s);
}

/*
 * Directories that are not the caller's to add are refused: over TCP (t)
 * any (dir), and from c one others may write to (open_dir), another's
 * (theirs), one not there, a relative one.
 */
static void
expect_others_dirs_refused(hxd_conn *c, hxd_conn *t, const char *dir,
    const char *open_dir, const char *theirs)
{
	/* Over TCP, the server cannot tell whose it is. */
	cr_expect_eq(hxd_model_dirs(t, dir, NULL, NULL), HXD_DENIED);
	cr_expect_not_null(
	    strstr(hxd_error(t), "Unix socket"), "%s", hxd_error(t));
	/* Others may write to it, or it is not the caller's, or not there. */
	cr_expect_eq(hxd_model_dirs(c, open_dir, NULL, NULL), HXD_DENIED);
	cr_expect_not_null(
	    strstr(hxd_error(c), "others may write"), "%s", hxd_error(c));
	if (chown(theirs, 65534, 65534) == 0) {
		cr_expect_eq(hxd_model_dirs(c, theirs, NULL, NULL), HXD_DENIED);
		cr_expect_not_null(
		    strstr(hxd_error(c), "not a directory of the caller's"),
		    "%s", hxd_error(c));
	}
	cr_expect_eq(hxd_model_dirs(c, "/no/such/dir", NULL, NULL), HXD_DENIED);
	cr_expect_not_null(
	    strstr(hxd_error(c), "not a directory of the caller's"), "%s",
	    hxd_error(c));
	cr_expect_eq(hxd_model_dirs(c, "tmp", NULL, NULL), HXD_BADVALUE);
}

/*
 * A user adds a directory of their own without a restart (issue 17 item
 * 5), where the operator allows it (user-model-dirs), over the Unix
 * socket only, and only one that user owns and alone may write to; a
 * reload of the settings forgets it.
 */
Test(admin, users_add_model_dirs_where_allowed)
{
	const char *on[] = { "-m", "fixture.xml", "--paused",
		"--user-model-dirs", NULL };
	char dir[64] = "/tmp/hxuser.XXXXXX", open_dir[128], real[PATH_MAX];
	char theirs[128], **dirs = NULL;
	struct hx_server s;
	struct hx_run run = { 0 };
	hxd_conn *c, *t;
	hxd_model m;
	double t0;
	int user = -1;

	cr_assert_not_null(mkdtemp(dir));
	cr_assert_not_null(realpath(dir, real));
	copy_model("pouring.xml", dir, "cup.xml");
	snprintf(open_dir, sizeof(open_dir), "%s/open", dir);
	cr_assert_eq(mkdir(open_dir, 0777), 0);
	cr_assert_eq(chmod(open_dir, 0777), 0);
	snprintf(theirs, sizeof(theirs), "%s/theirs", dir);
	cr_assert_eq(mkdir(theirs, 0755), 0);

	expect_not_unless_allowed(dir);

	hx_server_start(&s, on);
	c = hx_connect_ok(s.unix_addr, "test_admin");
	t = hx_connect_ok(s.tcp_addr, "test_admin");
	cr_expect_eq(hxd_load_file(c, "cup.xml", &m), HXD_LOADFAILED);
	expect_others_dirs_refused(c, t, dir, open_dir, theirs);
	/* The caller's own: added, last, and its models load by name. */
	cr_assert_eq(
	    hxd_model_dirs(c, dir, &dirs, &user), HXD_OK, "%s", hxd_error(c));
	cr_expect_eq(user, 1);
	cr_expect(dirs_have(dirs, real), "%s added", real);
	free(dirs);
	cr_assert_eq(
	    hxd_load_file(c, "cup.xml", &m), HXD_OK, "%s", hxd_error(c));
	cr_expect_str_eq(m.name, "pouring");
	cr_expect_eq(hxd_reload(c, &m), HXD_OK, "%s", hxd_error(c));
	/* hxctl, with a relative path made absolute on the caller's side. */
	cr_assert_eq(chdir(dir), 0);
	hx_run_args(&run, hx_hxctl_path(), "-s", s.unix_addr, "model-dirs",
	    "add", ".", NULL);
	cr_expect_eq(run.status, 0, "%s", run.err);
	cr_expect_not_null(strstr(run.out, real), "%s", run.out);
	hx_run_free(&run);
	/* A reload of the settings forgets it. */
	cr_assert_eq(kill(s.pid, SIGHUP), 0);
	for (t0 = hx_wall_now(); hx_wall_now() - t0 < 20; hx_sleep_ms(50)) {
		cr_assert_eq(hxd_model_dirs(t, NULL, &dirs, NULL), HXD_OK);
		user = dirs_have(dirs, real);
		free(dirs);
		if (!user)
			break;
	}
	cr_expect_eq(user, 0, "forgotten at the reload");
	hxd_close(t);
	hxd_close(c);
	hx_server_stop(&s);
	hx_remove_tree(dir);
}

/*------------------------------------------------- the model as MJCF */

/* Every array of the running model, with its values; free with free(). */
static hxd_array **
model_arrays(hxd_conn *c, int *n)
{
	hxd_array *list, **out;
	int i, k = 0, count;

	HX_OK(c, hxd_list_arrays(c, &list, &count));
	cr_assert_not_null(out = calloc((size_t)count, sizeof(*out)));
	for (i = 0; i < count; i++)
		if (strcmp(list[i].owner, "model") == 0)
			HX_OK(c, hxd_get_array(c, list[i].name, &out[k++]));
	free(list);
	*n = k;
	return out;
}

/*
 * The model's MJCF text, includes inlined, loads back to the same
 * compiled model: every array of mjModel, value for value, for the
 * fixture and for the MPL scene, whose hand is an included file with
 * meshes; a model loaded from MJB has none to give.
 */
HX_TRANSPORT_TEST(admin, the_model_xml_loads_back_to_the_same_model, "-m",
    "fixture.xml", "--paused", NULL)
{
	static const char *const files[] = { "fixture.xml", "mpl_scene.xml" };
	hxd_conn *c = hx_connect_ok(addr, "test_admin");
	hxd_array **before, **after;
	hxd_model_blob blob;
	hxd_model m;
	int nb, na, i, k, f;
	char *xml, dir[4096], *real;

	for (f = 0; f < 2; f++) {
		HX_OK(c, hxd_load_file(c, files[f], &m));
		before = model_arrays(c, &nb);
		HX_OK(c, hxd_get_model_xml(c, &xml, dir, sizeof(dir)));
		cr_expect(strstr(xml, "<include") == NULL,
		    "%s: an include was left", files[f]);
		real = realpath(
		    getenv(f == 0 ? "HX_TEST_MODELS" : "HX_MODELS"), NULL);
		cr_assert_not_null(real);
		cr_expect_str_eq(dir, real, "the directory it stands in");
		free(real);
		HX_OK(c,
		    hxd_load_data(
			c, HXD_FORMAT_MJCF, xml, strlen(xml), "again", &m));
		free(xml);
		after = model_arrays(c, &na);
		cr_assert_eq(na, nb);
		for (i = 0; i < nb; i++) {
			cr_assert_str_eq(after[i]->name, before[i]->name);
			cr_assert(after[i]->rows == before[i]->rows &&
				after[i]->cols == before[i]->cols,
			    "%s: %s is %dx%d, was %dx%d", files[f],
			    before[i]->name, after[i]->rows, after[i]->cols,
			    before[i]->rows, before[i]->cols);
			for (k = 0; k < before[i]->rows * before[i]->cols; k++)
				if (memcmp(&after[i]->values[k],
					&before[i]->values[k],
					sizeof(double)) != 0)
					break;
			cr_expect_eq(k, before[i]->rows * before[i]->cols,
			    "%s: %s[%d] is %.17g, was %.17g", files[f],
			    before[i]->name, k, after[i]->values[k],
			    before[i]->values[k]);
			free(before[i]);
			free(after[i]);
		}
		free(before);
		free(after);
	}

	/* An MJB model has no MJCF text. */
	HX_OK(c, hxd_get_model(c, &blob));
	HX_OK(c,
	    hxd_load_data(c, HXD_FORMAT_MJB, blob.mjb, blob.size, "bin", &m));
	hxd_model_blob_free(&blob);
	HX_FAILS_WITH(
	    c, hxd_get_model_xml(c, &xml, NULL, 0), HXD_BADVALUE, "MJB");
	cr_expect_null(xml);
	hxd_close(c);
}
