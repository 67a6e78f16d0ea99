/*
 * Integration tests of hxctl compute (clients/hxctl_compute.c) against a
 * real haptixd on models/test/fixture.xml (and the MPL scene for a ray
 * onto its table), over the Unix socket and TCP: every computation as a
 * table and as JSON, each checked by a value or a property (the mass
 * matrix symmetric and the box's mass on its diagonal, solve_m inverting
 * it, rne equal to mj_forward's qfrc_bias, a site's Jacobian times qvel
 * equal to its velocity, the box's weight on its contacts, ...), a given
 * state leaving the simulation alone, and the refusals: unknown objects
 * and arrays named with the nearest name, wrong sizes, unknown
 * computations and options, before connecting where they can be.
 */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "harness.h"
#include "haptixd.h"
#include "hxctl_run.h"

TestSuite(hxctl, .timeout = 60, .fini = cleanup);

/* The fixture's dofs: hinge1, hinge2, then the box's free joint. */
#define NV 8
#define NQ 9

/*
 * The numbers of the matrix "key": [[...], ...] in a JSON text, row
 * after row, into v (room for max); *rows gets its rows and the count
 * is returned.  Fails the test unless every row has as many.
 */
static int
json_matrix(const char *json, const char *key, double *v, int max, int *rows)
{
	char pat[128], *end;
	const char *p;
	int n = 0, cols = -1, in_row;

	snprintf(pat, sizeof(pat), "\"%s\":[", key);
	p = strstr(json, pat);
	cr_assert_not_null(p, "no matrix \"%s\" in %s", key, json);
	p += strlen(pat);
	*rows = 0;
	if (*p == ']')
		return 0;
	for (;;) {
		cr_assert_eq(
		    *p, '[', "\"%s\" is not an array of rows: %s", key, json);
		p++;
		in_row = 0;
		while (*p != ']') {
			cr_assert_lt(
			    n, max, "\"%s\" has over %d values", key, max);
			v[n++] = strtod(p, &end);
			cr_assert_neq(
			    end, p, "bad number in \"%s\": %s", key, json);
			in_row++;
			p = end;
			if (*p == ',')
				p++;
		}
		if (cols < 0)
			cols = in_row;
		cr_assert_eq(in_row, cols, "\"%s\": rows of %d and %d values",
		    key, cols, in_row);
		(*rows)++;
		p++;
		if (*p == ']')
			return n;
		cr_assert_eq(*p, ',', "bad matrix \"%s\": %s", key, json);
		p++;
	}
}

/* The string "key": "..." of a JSON text into buf. */
static void
json_str(const char *json, const char *key, char *buf, size_t len)
{
	char pat[128];
	const char *p, *q;

	snprintf(pat, sizeof(pat), "\"%s\":\"", key);
	p = strstr(json, pat);
	cr_assert_not_null(p, "no string \"%s\" in %s", key, json);
	p += strlen(pat);
	q = strchr(p, '"');
	cr_assert_not_null(q);
	cr_assert_lt((size_t)(q - p), len);
	memcpy(buf, p, (size_t)(q - p));
	buf[q - p] = '\0';
}

/* How many times s occurs in text. */
static int
count_of(const char *text, const char *s)
{
	int n = 0;

	for (text = strstr(text, s); text != NULL; text = strstr(text + 1, s))
		n++;
	return n;
}

/* n numbers as a comma-separated list, exactly (a ring of 4 buffers). */
static const char *
list_of(const double *v, int n)
{
	static char bufs[4][1024];
	static int next;
	char *b = bufs[next++ % 4];
	size_t k = 0;
	int i;

	for (i = 0; i < n; i++)
		k += (size_t)snprintf(b + k, sizeof(bufs[0]) - k, "%s%.17g",
		    i > 0 ? "," : "", v[i]);
	return b;
}

/* The mass matrix of the state qvel (NULL: the live one), via JSON. */
static void
full_m(const char *addr, double m[NV * NV])
{
	struct hx_run r = { 0 };
	int rows;

	hxctl_json(&r, addr, "compute", "full-m", NULL);
	cr_assert_eq(json_matrix(r.out, "M", m, NV * NV, &rows), NV * NV);
	cr_assert_eq(rows, NV);
	hx_run_free(&r);
}

HX_TRANSPORT_TEST(hxctl, compute_jacobians_and_velocities, "-m", "fixture.xml",
    "--paused", NULL)
{
	static const double qvel[NV] = { 0.7, -0.4, 0.1, 0.2, -0.3, 0.5, 0.25,
		-1 };
	double jac[2][3 * NV], res[6], v[64];
	const char *q = list_of(qvel, NV);
	struct hx_run r = { 0 };
	int i, k, rows;

	/* The tip, 0.6 below hinge1 and 0.3 below hinge2, both about y. */
	hxctl_json(&r, addr, "compute", "jac-site", "tip", NULL);
	cr_assert_eq(json_matrix(r.out, "jacp", jac[0], 3 * NV, &rows), 24);
	cr_assert_eq(rows, 3);
	cr_assert_eq(json_matrix(r.out, "jacr", jac[1], 3 * NV, &rows), 24);
	cr_assert_float_eq(jac[0][0], -0.6, 1e-12, "%s", r.out);
	cr_assert_float_eq(jac[0][1], -0.3, 1e-12, "%s", r.out);
	cr_assert_eq(jac[1][NV + 0], 1, "%s", r.out);
	cr_assert_eq(jac[1][NV + 1], 1, "%s", r.out);
	cr_assert_not_null(strstr(r.out, "\"site\":\"tip\""), "%s", r.out);
	/* The table: two blocks, the dofs' joints heading the columns. */
	hxctl(&r, addr, "compute", "jac-site", "tip", NULL);
	expect_ok(&r);
	cr_assert_not_null(
	    strstr(r.out, "jacp (translation) of site tip\n"), "%s", r.out);
	cr_assert_not_null(strstr(r.out, "jacr (rotation)\n"), "%s", r.out);
	cr_assert_eq(count_of(r.out, "hinge1       hinge2       box[0]"), 2,
	    "%s", r.out);
	cr_assert_not_null(
	    strstr(r.out, "\nx         -0.6         -0.3"), "%s", r.out);
	/* By id, the same site. */
	hxctl_json(&r, addr, "compute", "jac-site", "1", NULL);
	cr_assert_not_null(strstr(r.out, "\"site\":\"tip\""), "%s", r.out);

	/* jacp qvel and jacr qvel are the site's velocity, on one state. */
	hxctl_json(&r, addr, "compute", "jac-site", "tip", "--qpos",
	    "0.3,-0.5,0.6,0,0.1,1,0,0,0", "--qvel", q, NULL);
	json_matrix(r.out, "jacp", jac[0], 3 * NV, &rows);
	json_matrix(r.out, "jacr", jac[1], 3 * NV, &rows);
	hxctl_json(&r, addr, "compute", "object-velocity", "site", "tip",
	    "--qpos", "0.3,-0.5,0.6,0,0.1,1,0,0,0", "--qvel", q, NULL);
	cr_assert_eq(json_nums(r.out, "res", res, 6), 6);
	cr_assert_not_null(strstr(r.out, "\"local\":false"), "%s", r.out);
	for (i = 0; i < 3; i++) {
		double lin = 0, ang = 0;

		for (k = 0; k < NV; k++) {
			lin += jac[0][i * NV + k] * qvel[k];
			ang += jac[1][i * NV + k] * qvel[k];
		}
		cr_assert_float_eq(
		    res[3 + i], lin, 1e-12, "linear %d: %s", i, r.out);
		cr_assert_float_eq(res[i], ang, 1e-12, "angular %d", i);
	}
	cr_assert_neq(res[3], 0, "the site did not move: %s", r.out);

	/* A point on link2: where hinge1 is, 1 below... of the world. */
	hxctl_json(
	    &r, addr, "compute", "jac", "link2", "--point", "0,0,0", NULL);
	json_matrix(r.out, "jacp", jac[0], 3 * NV, &rows);
	cr_assert_float_eq(jac[0][0], -1, 1e-12, "%s", r.out);
	cr_assert_float_eq(jac[0][1], -0.7, 1e-12, "%s", r.out);
	cr_assert_not_null(strstr(r.out, "\"point\":[0,0,0]"), "%s", r.out);
	hxctl(&r, addr, "compute", "jac", "link2", "--point", "0,0,0", NULL);
	expect_ok(&r);
	cr_assert_not_null(
	    strstr(r.out, "jacp (translation) of body link2 at 0 0 0\n"), "%s",
	    r.out);

	/* A body's frame sits on its hinge; its centre of mass does not. */
	hxctl_json(&r, addr, "compute", "jac-body", "link1", NULL);
	json_matrix(r.out, "jacp", jac[0], 3 * NV, &rows);
	for (i = 0; i < 3 * NV; i++)
		cr_assert_float_eq(jac[0][i], 0, 1e-12, "%s", r.out);
	hxctl_json(&r, addr, "compute", "jac-body-com", "link1", NULL);
	json_matrix(r.out, "jacp", jac[0], 3 * NV, &rows);
	cr_assert_float_eq(jac[0][0], -0.15, 1e-12, "%s", r.out);
	/* The box's geom moves with its free joint's translations. */
	hxctl_json(&r, addr, "compute", "jac-geom", "box", NULL);
	json_matrix(r.out, "jacp", jac[0], 3 * NV, &rows);
	cr_assert_eq(jac[0][0 * NV + 2], 1, "%s", r.out);
	cr_assert_eq(jac[0][1 * NV + 3], 1, "%s", r.out);
	cr_assert_eq(jac[0][2 * NV + 4], 1, "%s", r.out);
	cr_assert_not_null(strstr(r.out, "\"geom\":\"box\""), "%s", r.out);

	/* mjOBJ_BODY is the centre of mass, mjOBJ_XBODY the frame. */
	hxctl_json(&r, addr, "compute", "object-velocity", "body", "link1",
	    "--qvel", "1,0,0,0,0,0,0,0", NULL);
	cr_assert_eq(json_nums(r.out, "res", v, 64), 6);
	cr_assert_float_eq(v[1], 1, 1e-12, "%s", r.out);
	cr_assert_float_eq(v[3], -0.15, 1e-12, "%s", r.out);
	hxctl_json(&r, addr, "compute", "object-velocity", "xbody", "link1",
	    "--qvel", "1,0,0,0,0,0,0,0", "--local", NULL);
	json_nums(r.out, "res", v, 64);
	cr_assert_float_eq(v[3], 0, 1e-12, "%s", r.out);
	cr_assert_not_null(strstr(r.out, "\"local\":true"), "%s", r.out);
	hxctl(&r, addr, "compute", "object-velocity", "body", "link1", "--qvel",
	    "1,0,0,0,0,0,0,0", NULL);
	expect_ok(&r);
	cr_assert_not_null(
	    strstr(r.out, "body link1 velocity, world axes"), "%s", r.out);
	cr_assert_not_null(
	    strstr(r.out, "\nangular             0            1"), "%s", r.out);
	cr_assert_not_null(
	    strstr(r.out, "\nlinear          -0.15"), "%s", r.out);
	hx_run_free(&r);
}

HX_TRANSPORT_TEST(hxctl, compute_mass_matrix_and_dynamics, "-m", "fixture.xml",
    "--paused", NULL)
{
	double m[NV * NV], x[2 * NV], y[2 * NV], bias[NV], v[NV], qacc[NV];
	struct hx_run r = { 0 };
	int i, j, rows;

	/* M: symmetric, the box's mass 1 on its translations. */
	full_m(addr, m);
	for (i = 0; i < NV; i++)
		for (j = 0; j < NV; j++)
			cr_assert_eq(m[i * NV + j], m[j * NV + i],
			    "M[%d][%d] != M[%d][%d]", i, j, j, i);
	cr_assert_eq(m[2 * NV + 2], 1);
	cr_assert_eq(m[4 * NV + 4], 1);
	cr_assert_gt(m[0], 0);
	hxctl(&r, addr, "compute", "full-m", NULL);
	expect_ok(&r);
	cr_assert_not_null(strstr(r.out, "M (mj_fullM, 8 x 8)\n"), "%s", r.out);
	cr_assert_not_null(strstr(r.out, "\nbox[2] "), "%s", r.out);

	/* solve_m inverts it: M's first two rows give the unit vectors. */
	memcpy(y, m, sizeof(y));
	hxctl_json(&r, addr, "compute", "solve-m", "--y", list_of(y, NV), NULL);
	cr_assert_eq(json_nums(r.out, "x", x, NV), NV);
	for (i = 0; i < NV; i++)
		cr_assert_float_eq(x[i], i == 0, 1e-9, "x[%d]: %s", i, r.out);
	hxctl_json(
	    &r, addr, "compute", "solve-m", "--y", list_of(y, 2 * NV), NULL);
	cr_assert_eq(json_matrix(r.out, "x", x, 2 * NV, &rows), 2 * NV);
	cr_assert_eq(rows, 2);
	cr_assert_float_eq(x[NV + 1], 1, 1e-9, "%s", r.out);
	cr_assert_float_eq(x[NV + 0], 0, 1e-9, "%s", r.out);
	hxctl(&r, addr, "compute", "solve-m", "--y", list_of(y, 2 * NV), NULL);
	expect_ok(&r);
	cr_assert_not_null(strstr(r.out, "x[0]         x[1]"), "%s", r.out);

	/* rne without acc is mj_forward's qfrc_bias, bit for bit. */
	hxctl_json(&r, addr, "compute", "forward", "qfrc_bias", NULL);
	cr_assert_eq(json_nums(r.out, "values", bias, NV), NV);
	cr_assert_eq(json_num(r.out, "rows"), NV);
	cr_assert_eq(json_num(r.out, "cols"), 1);
	cr_assert_float_eq(bias[4], 9.81, 1e-12, "%s", r.out);
	hxctl(&r, addr, "compute", "forward", "qfrc_bias", NULL);
	expect_ok(&r);
	cr_assert_not_null(
	    strstr(r.out, "qfrc_bias (after mj_forward, 8 x 1)\n"), "%s",
	    r.out);
	cr_assert_not_null(
	    strstr(r.out, "   4  box[2]         9.81\n"), "%s", r.out);
	hxctl_json(&r, addr, "compute", "rne", NULL);
	cr_assert_eq(json_nums(r.out, "result", v, NV), NV);
	cr_assert_not_null(strstr(r.out, "\"flg_acc\":false"), "%s", r.out);
	for (i = 0; i < NV; i++)
		cr_assert_eq(v[i], bias[i], "rne[%d] %.17g, bias %.17g", i,
		    v[i], bias[i]);
	/* With acc: M qacc + bias, the qacc given. */
	for (i = 0; i < NV; i++)
		qacc[i] = 0.1 * (i + 1);
	hxctl_json(&r, addr, "compute", "rne", "--acc", "--qacc",
	    list_of(qacc, NV), NULL);
	json_nums(r.out, "result", v, NV);
	for (i = 0; i < NV; i++) {
		double want = bias[i];

		for (j = 0; j < NV; j++)
			want += m[i * NV + j] * qacc[j];
		cr_assert_float_eq(v[i], want, 1e-9, "rne[%d]: %s", i, r.out);
	}
	hxctl(&r, addr, "compute", "rne", NULL);
	expect_ok(&r);
	cr_assert_not_null(
	    strstr(r.out, " dof  joint          bias\n"), "%s", r.out);

	/* inverse: the hinges' applied forces come back (nothing else acts). */
	hxctl_json(&r, addr, "compute", "inverse", "--qfrc-applied",
	    "0.3,-0.2,0,0,0,0,0,0", NULL);
	cr_assert_eq(json_nums(r.out, "qfrc_inverse", v, NV), NV);
	cr_assert_float_eq(v[0], 0.3, 1e-9, "%s", r.out);
	cr_assert_float_eq(v[1], -0.2, 1e-9, "%s", r.out);
	hxctl(&r, addr, "compute", "inverse", NULL);
	expect_ok(&r);
	cr_assert_not_null(
	    strstr(r.out, "qfrc_inverse\n   0  hinge1"), "%s", r.out);

	/* Energy: kinetic 1/2 qvel' M qvel. */
	hxctl_json(
	    &r, addr, "compute", "energy", "--qvel", "1,0,0,0,0,0,0,0", NULL);
	cr_assert_eq(json_nums(r.out, "energy", v, 2), 2);
	cr_assert_float_eq(v[1], 0.5 * m[0], 1e-12, "%s", r.out);
	cr_assert_eq(json_num(r.out, "kinetic"), v[1]);
	cr_assert_eq(json_num(r.out, "potential"), v[0]);
	hxctl(&r, addr, "compute", "energy", NULL);
	expect_ok(&r);
	cr_assert_not_null(strstr(r.out, "potential "), "%s", r.out);
	cr_assert_not_null(
	    strstr(r.out, "\nkinetic              0\n"), "%s", r.out);
	hx_run_free(&r);
}

Test(hxctl, compute_contacts_and_accelerations)
{
	struct hx_run r = { 0 };
	double f[6], res[6], sum = 0;
	char name[64], *p;
	const char *a;
	int i;

	a = start(fixture_args);
	/* Let the box settle on the floor. */
	hxctl(&r, a, "step", "100", NULL);
	expect_ok(&r);
	hxctl_json(&r, a, "compute", "contact-forces", NULL);
	cr_assert_eq(count_of(r.out, "\"geom1\":"), 4, "%s", r.out);
	cr_assert_not_null(strstr(r.out, "\"last_step\":false"), "%s", r.out);
	json_str(r.out, "geom1", name, sizeof(name));
	cr_assert_str_eq(name, "floor");
	json_str(r.out, "geom2", name, sizeof(name));
	cr_assert_str_eq(name, "box");
	json_str(r.out, "body1", name, sizeof(name));
	cr_assert_str_eq(name, "world");
	for (p = strstr(r.out, "\"force\":"), i = 0; p != NULL;
	     p = strstr(p + 1, "\"force\":"), i++) {
		cr_assert_eq(json_nums(p, "force", f, 6), 6);
		sum += f[0];
	}
	cr_assert_eq(i, 4);
	/* The box's weight, 1 kg in 9.81 m/s^2, on its four corners. */
	cr_assert_float_eq(sum, 9.81, 0.05, "%s", r.out);
	cr_assert_not_null(strstr(r.out, "\"frame\":[[0,0,1],"), "%s", r.out);
	hxctl(&r, a, "compute", "contact-forces", NULL);
	expect_ok(&r);
	cr_assert_not_null(
	    strstr(r.out, "4 contacts, after mj_forward\n"), "%s", r.out);
	cr_assert_not_null(
	    strstr(r.out, "   0  floor  box    world  box "), "%s", r.out);
	cr_assert_not_null(strstr(r.out, "normal     tangent1"), "%s", r.out);
	hxctl_json(&r, a, "compute", "contact-forces", "--last-step", NULL);
	cr_assert_eq(count_of(r.out, "\"geom1\":"), 4, "%s", r.out);
	cr_assert_not_null(strstr(r.out, "\"last_step\":true"), "%s", r.out);
	hxctl(&r, a, "compute", "contact-forces", "--last-step", NULL);
	expect_ok(&r);
	cr_assert_not_null(
	    strstr(r.out, "4 contacts, as the last step left them\n"), "%s",
	    r.out);
	/* Lifted, it touches nothing. */
	hxctl_json(&r, a, "compute", "contact-forces", "--qpos",
	    "0,0,0,0,2,1,0,0,0", NULL);
	cr_assert_str_eq(r.out, "{\"last_step\":false,\"contacts\":[]}\n");
	hxctl(&r, a, "compute", "contact-forces", "--qpos", "0,0,0,0,2,1,0,0,0",
	    NULL);
	expect_ok(&r);
	cr_assert_str_eq(r.out, "0 contacts, after mj_forward\n");

	/* Resting, the box reads +g, as an accelerometer would; falling, 0. */
	hxctl_json(
	    &r, a, "compute", "object-acceleration", "body", "box", NULL);
	cr_assert_eq(json_nums(r.out, "res", res, 6), 6);
	cr_assert_float_eq(res[5], 9.81, 0.05, "%s", r.out);
	hxctl_json(&r, a, "compute", "object-acceleration", "body", "box",
	    "--qpos", "0,0,0,0,2,1,0,0,0", NULL);
	json_nums(r.out, "res", res, 6);
	cr_assert_float_eq(res[5], 0, 1e-9, "%s", r.out);
	hxctl(&r, a, "compute", "object-acceleration", "geom", "box", NULL);
	expect_ok(&r);
	cr_assert_not_null(
	    strstr(r.out, "geom box acceleration, world axes"), "%s", r.out);
	hx_run_free(&r);
}

Test(hxctl, compute_rays_and_positions)
{
	static const char *const scene[] = { "-m", "mpl_scene.xml", "--paused",
		NULL };
	struct hx_run r = { 0 };
	double v[NQ], hit[3];
	char name[64];
	const char *a;
	struct hx_server s;

	a = start(fixture_args);
	/* Down onto the floor from 1 m: distance 1, in units of vec. */
	hxctl_json(&r, a, "compute", "ray", "--pnt", "0,-1,1", "--vec",
	    "0,0,-1", NULL);
	cr_assert_eq(json_num(r.out, "geomid"), 0, "%s", r.out);
	cr_assert_eq(json_num(r.out, "dist"), 1, "%s", r.out);
	json_str(r.out, "geom", name, sizeof(name));
	cr_assert_str_eq(name, "floor");
	cr_assert_eq(json_nums(r.out, "point", hit, 3), 3);
	cr_assert_eq(hit[2], 0, "%s", r.out);
	hxctl(&r, a, "compute", "ray", "--pnt", "0,-1,1", "--vec", "0,0,-2",
	    NULL);
	expect_ok(&r);
	cr_assert_not_null(
	    strstr(r.out, "geom   0  floor (body world)\n"), "%s", r.out);
	cr_assert_not_null(
	    strstr(r.out, "dist            0.5 (units of vec)"), "%s", r.out);
	/* Up, nothing; the world's geoms left out, nothing; the box. */
	hxctl_json(
	    &r, a, "compute", "ray", "--pnt", "0,-1,1", "--vec", "0,0,1", NULL);
	cr_assert_str_eq(r.out,
	    "{\"pnt\":[0,-1,1],\"vec\":[0,0,1],\"geomid\":-1,\"geom\":null,"
	    "\"dist\":-1,\"point\":null}\n");
	hxctl(&r, a, "compute", "ray", "--pnt", "0,-1,1", "--vec", "0,0,-1",
	    "--no-static", NULL);
	expect_ok(&r);
	cr_assert_str_eq(r.out, "no geom hit\n");
	hxctl_json(&r, a, "compute", "ray", "--pnt", "0.6,0,1", "--vec",
	    "0,0,-1", NULL);
	json_str(r.out, "geom", name, sizeof(name));
	cr_assert_str_eq(name, "box", "%s", r.out);
	hxctl_json(&r, a, "compute", "ray", "--pnt", "0.6,0,1", "--vec",
	    "0,0,-1", "--exclude-body", "box", NULL);
	json_str(r.out, "geom", name, sizeof(name));
	cr_assert_str_eq(name, "floor", "%s", r.out);
	/* Group 0 unseen: the box is not; the floor, a plane, is. */
	hxctl_json(&r, a, "compute", "ray", "--pnt", "0.6,0,1", "--vec",
	    "0,0,-1", "--groups", "0,1,1,1,1,1", NULL);
	json_str(r.out, "geom", name, sizeof(name));
	cr_assert_str_eq(name, "floor", "%s", r.out);
	/* On a state: the box lifted to 2 m is hit first from above. */
	hxctl_json(&r, a, "compute", "ray", "--pnt", "0,0,3", "--vec", "0,0,-1",
	    "--qpos", "0,0,0,0,2,1,0,0,0", NULL);
	cr_assert_float_eq(json_num(r.out, "dist"), 0.9, 1e-12, "%s", r.out);

	/* differentiate_pos and integrate_pos, on the model alone. */
	hxctl_json(&r, a, "compute", "differentiate-pos", "--qpos1",
	    "0,0,0.6,0,0.1,1,0,0,0", "--qpos2", "0.1,-0.2,0.6,0,0.4,1,0,0,0",
	    "--dt", "0.1", NULL);
	cr_assert_eq(json_nums(r.out, "qvel", v, NQ), NV);
	cr_assert_float_eq(v[0], 1, 1e-12, "%s", r.out);
	cr_assert_float_eq(v[1], -2, 1e-12, "%s", r.out);
	cr_assert_float_eq(v[4], 3, 1e-12, "%s", r.out);
	hxctl(&r, a, "compute", "differentiate-pos", "--qpos1",
	    "0,0,0.6,0,0.1,1,0,0,0", "--qpos2", "0.1,-0.2,0.6,0,0.4,1,0,0,0",
	    "--dt", "0.1", NULL);
	expect_ok(&r);
	cr_assert_not_null(
	    strstr(r.out, " dof  joint          qvel\n"), "%s", r.out);
	hxctl_json(&r, a, "compute", "integrate-pos", "--qpos",
	    "0,0,0.6,0,0.1,1,0,0,0", "--qvel", "1,0,0,0,0,0,0,2", "--dt", "0.5",
	    NULL);
	cr_assert_eq(json_nums(r.out, "qpos", v, NQ), NQ);
	cr_assert_float_eq(v[0], 0.5, 1e-12, "%s", r.out);
	/* A turn of 1 rad about z: cos 0.5, sin 0.5, still a unit. */
	cr_assert_float_eq(v[5], cos(0.5), 1e-12, "%s", r.out);
	cr_assert_float_eq(v[8], sin(0.5), 1e-12, "%s", r.out);
	hxctl(&r, a, "compute", "integrate-pos", "--qpos",
	    "0,0,0.6,0,0.1,1,0,0,0", "--qvel", "1,0,0,0,0,0,0,2", "--dt", "0.5",
	    NULL);
	expect_ok(&r);
	cr_assert_not_null(
	    strstr(r.out, "qpos\n   0  hinge1  hinge          0.5\n"), "%s",
	    r.out);

	/* The MPL scene: straight down onto its table's top, at 0.765 m. */
	hx_server_start(&s, scene);
	a = hx_server_addr(&s, 0);
	hxctl_json(&r, a, "compute", "ray", "--pnt", "0.3,0.4,1.2", "--vec",
	    "0,0,-1", NULL);
	json_str(r.out, "geom", name, sizeof(name));
	cr_assert_str_eq(name, "table_top", "%s", r.out);
	cr_assert_float_eq(
	    json_num(r.out, "dist"), 1.2 - 0.765, 1e-9, "%s", r.out);
	hxctl(&r, a, "compute", "ray", "--pnt", "0.3,0.4,1.2", "--vec",
	    "0,0,-1", NULL);
	expect_ok(&r);
	cr_assert_not_null(
	    strstr(r.out, "table_top (body table)\n"), "%s", r.out);
	/* The MPL hand's Jacobians are 3 x nv with its joints' names. */
	hxctl_json(&r, a, "compute", "jac-site", "palm_thumb", NULL);
	hxctl(&r, a, "compute", "jac-body", "index_distal", NULL);
	expect_ok(&r);
	cr_assert_not_null(strstr(r.out, "index_MCP"), "%s", r.out);
	hx_server_stop(&s);
	hx_run_free(&r);
}

Test(hxctl, compute_on_a_state_leaves_the_simulation_alone)
{
	struct hx_run r = { 0 }, before = { 0 };
	double x[3 * 5];
	const char *a;

	a = start(fixture_args);
	hxctl_json(&before, a, "state", NULL);
	/* forward on a given state: the links turned straight out along -x. */
	hxctl_json(&r, a, "compute", "forward", "xpos", "--qpos",
	    "1.5707963267948966,0,0.6,0,0.1,1,0,0,0", NULL);
	cr_assert_eq(json_nums(r.out, "values", x, 15), 15);
	cr_assert_float_eq(
	    x[3 * 2 + 0], -0.3, 1e-12, "link2 at x -0.3: %s", r.out);
	cr_assert_float_eq(x[3 * 2 + 2], 1, 1e-12, "%s", r.out);
	hxctl(&r, a, "compute", "forward", "xpos", NULL);
	expect_ok(&r);
	cr_assert_not_null(
	    strstr(r.out, "xpos (after mj_forward, 5 x 3)\n"), "%s", r.out);
	cr_assert_not_null(strstr(r.out, "   2  link2 "), "%s", r.out);
	hxctl_json(
	    &r, a, "compute", "forward", "data.xpos", "--ctrl", "1,1", NULL);
	cr_assert_not_null(
	    strstr(r.out, "\"name\":\"data.xpos\""), "%s", r.out);
	/* Every state option at once, of the model's sizes. */
	hxctl_json(&r, a, "compute", "energy", "--qpos",
	    "0.1,0.2,0.6,0,0.1,1,0,0,0", "--qvel", "0,0,0,0,0,0,0,0", "--ctrl",
	    "0.5,0.5", "--mocap-pos", "0,1,1", "--mocap-quat", "1,0,0,0",
	    "--qfrc-applied", "0,0,0,0,0,0,0,0", "--xfrc-applied",
	    "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0",
	    NULL);
	/* The live state is as it was. */
	hxctl_json(&r, a, "state", NULL);
	cr_assert_str_eq(r.out, before.out);
	hx_run_free(&r);
	hx_run_free(&before);
}

Test(hxctl, compute_lists_what_it_computes)
{
	static const char *const whats[] = { "forward ARRAY", "inverse",
		"full-m", "solve-m --y LIST", "rne", "jac BODY --point X,Y,Z",
		"jac-body BODY", "jac-body-com BODY", "jac-geom GEOM",
		"jac-site SITE", "object-velocity TYPE NAME [--local]",
		"object-acceleration TYPE NAME", "contact-forces [--last-step]",
		"energy", "ray --pnt X,Y,Z --vec X,Y,Z",
		"differentiate-pos --qpos1 LIST --qpos2 LIST --dt T",
		"integrate-pos --qpos LIST --qvel LIST --dt T", "--qpos LIST",
		"--xfrc-applied LIST" };
	static const char *const nowhere = "unix:/nonexistent/hxctl.sock";
	struct hx_run r = { 0 };
	size_t i;

	/* With no WHAT, the list, without a server. */
	hxctl(&r, nowhere, "compute", NULL);
	expect_ok(&r);
	for (i = 0; i < sizeof(whats) / sizeof(whats[0]); i++)
		cr_assert_not_null(
		    strstr(r.out, whats[i]), "no %s in %s", whats[i], r.out);
	hxctl(&r, nowhere, "compute", "--help", NULL);
	expect_ok(&r);
	cr_assert(strncmp(r.out, "usage: hxctl [options] compute", 30) == 0,
	    "%s", r.out);
	cr_assert_not_null(strstr(r.out, "jac-body-com BODY"), "%s", r.out);
	hxctl(&r, nowhere, "help", "compute", NULL);
	expect_ok(&r);
	cr_assert_not_null(strstr(r.out, "differentiate-pos"), "%s", r.out);
	hxctl(&r, nowhere, "--help", NULL);
	expect_ok(&r);
	cr_assert_not_null(
	    strstr(r.out, "\nMuJoCo's computations:\n  compute "), "%s", r.out);
	hx_run_free(&r);
}

Test(hxctl, compute_refuses_before_connecting)
{
	static const char *const nowhere = "unix:/nonexistent/hxctl.sock";
	static const char *const cases[][8] = {
		{ "jac-sit", "tip", NULL },
		{ "jac-site", NULL },
		{ "jac-site", "tip", "extra", NULL },
		{ "jac-site", "tip", "--point", "1,2,3", NULL },
		{ "jac-site", "tip", "--bogus", NULL },
		{ "jac-site", "tip", "--qpos", "1,x", NULL },
		{ "jac", "link1", NULL },
		{ "jac", "link1", "--point", "1,2", NULL },
		{ "solve-m", NULL },
		{ "object-velocity", "joint", "hinge1", NULL },
		{ "object-velocity", "site", NULL },
		{ "contact-forces", "--last-step", "--qvel", "0", NULL },
		{ "ray", "--pnt", "0,0,1", NULL },
		{ "ray", "--pnt", "0,0,1", "--vec", "0,0,-1", "--groups",
		    "1,1,2,1,1,1", NULL },
		{ "differentiate-pos", "--qpos1", "1", "--qpos2", "1", "--dt",
		    "0", NULL },
		{ "integrate-pos", "--qpos", "1", "--qvel", "1", "--dt", "x",
		    NULL },
		{ "integrate-pos", "--qpos", "1", "--qvel", "1", "--dt", "1",
		    "--act" },
		{ "rne", "--qacc", "1", NULL },
		{ "--qpos", "1", "energy", NULL },
		{ "energy", "--json", NULL },
	};
	struct hx_run r = { 0 };
	const char *argv[RUN_MAX_ARGS];
	size_t i;
	int k, n;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		n = 0;
		argv[n++] = hx_hxctl_path();
		argv[n++] = "--server";
		argv[n++] = nowhere;
		argv[n++] = "compute";
		for (k = 0; k < 8 && cases[i][k] != NULL; k++)
			argv[n++] = cases[i][k];
		argv[n] = NULL;
		hx_run(&r, argv);
		expect_usage(&r, cases[i][0]);
		cr_assert(
		    strncmp(r.err, "hxctl: compute: ", 16) == 0, "%s", r.err);
	}
	/* The refusals say what was wrong, and near names. */
	hxctl(&r, nowhere, "compute", "jac-sit", "tip", NULL);
	cr_assert_not_null(strstr(r.err,
			       "no computation 'jac-sit'; did you "
			       "mean \"jac-site\"?"),
	    "%s", r.err);
	hxctl(&r, nowhere, "compute", "jac-site", "tip", "--point", "1,2,3",
	    NULL);
	cr_assert_not_null(strstr(r.err,
			       "jac-site takes no --point\n"
			       "usage: hxctl [options] compute "
			       "jac-site SITE [STATE OPTIONS]"),
	    "%s", r.err);
	hxctl(&r, nowhere, "compute", "jac", "link1", NULL);
	cr_assert_not_null(strstr(r.err, "jac needs --point"), "%s", r.err);
	hxctl(&r, nowhere, "compute", "differentiate-pos", "--qpos1", "1",
	    "--qpos2", "1", "--dt", "1", "--qvel", "1", NULL);
	cr_assert_not_null(
	    strstr(r.err, "differentiate-pos takes no --qvel"), "%s", r.err);
	/* Underscores as MuJoCo writes them work too (then no server). */
	hxctl(&r, nowhere, "compute", "jac_site", "tip", NULL);
	expect_fail(&r, "compute", "mjCOM_NOCONNECTION", NULL);
	hx_run_free(&r);
}

HX_TRANSPORT_TEST(hxctl, compute_refusals_name_what_was_wrong, "-m",
    "fixture.xml", "--paused", NULL)
{
	struct hx_run r = { 0 };

	hxctl(&r, addr, "compute", "jac-site", "nosuch", NULL);
	expect_fail(
	    &r, "compute", "mjCOM_BADINDEX", "no site named \"nosuch\"");
	hxctl(&r, addr, "--json", "compute", "jac-site", "tipp", NULL);
	expect_fail(&r, "compute", "mjCOM_BADINDEX", "did you mean \"tip\"?");
	hxctl(&r, addr, "compute", "jac-site", "7", NULL);
	expect_fail(&r, "compute", "mjCOM_BADINDEX", "nsite = 2");
	hxctl(&r, addr, "compute", "jac-body-com", "lnk1", NULL);
	expect_fail(&r, "compute", "mjCOM_BADINDEX", "did you mean \"link1\"?");
	hxctl(&r, addr, "compute", "object-velocity", "xbody", "lnk2", NULL);
	expect_fail(&r, "compute", "mjCOM_BADINDEX", "did you mean \"link2\"?");
	hxctl(&r, addr, "compute", "ray", "--pnt", "0,0,1", "--vec", "0,0,-1",
	    "--exclude-body", "bx", NULL);
	expect_fail(&r, "compute", "mjCOM_BADINDEX", "did you mean \"box\"?");
	hxctl(&r, addr, "compute", "forward", "qfrc_bia", NULL);
	expect_fail(
	    &r, "compute", "mjCOM_BADTYPE", "did you mean \"qfrc_bias\"?");
	hxctl(&r, addr, "compute", "energy", "--qpos", "1,2", NULL);
	expect_fail(&r, "compute", "mjCOM_BADSIZE", "nq = 9");
	hxctl(&r, addr, "compute", "full-m", "--xfrc-applied", "1,2,3,4,5,6",
	    NULL);
	expect_fail(&r, "compute", "mjCOM_BADSIZE", "6 x nbody = 30");
	hxctl(&r, addr, "compute", "solve-m", "--y", "1,2,3", NULL);
	expect_fail(&r, "compute", "mjCOM_BADSIZE", "nv = 8");
	hxctl(&r, addr, "compute", "integrate-pos", "--qpos", "1", "--qvel",
	    "1", "--dt", "1", NULL);
	expect_fail(&r, "compute", "mjCOM_BADSIZE", "nq = 9");
	/* What the server refuses, in its words. */
	hxctl(&r, addr, "compute", "ray", "--pnt", "0,0,1", "--vec", "0,0,0",
	    NULL);
	expect_fail(&r, "compute", "mjCOM_BADVALUE", "(0 0 0)");
	hx_run_free(&r);
}
