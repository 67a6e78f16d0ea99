/*
 * Models sent with their files (InlineModel.assets, issue 38), through a
 * real haptixd and libhaptix's hxd_load_inline_assets(): an MJCF naming
 * a mesh it carries loads, and so do a URDF's mesh and an included MJCF
 * file carried alike; the same model without its file fails as before;
 * names that climb out, absolute names, empty names, two names MuJoCo
 * takes for one file and the model's own are refused, naming the asset;
 * a name the model gives outside the model directories is refused unless
 * an asset serves it, and then the disk is never read; edits of such a
 * model keep its files; MJB still loads inline (and carries none); the
 * counts and sizes are bounded; hostile files fail in the loader while
 * the daemon serves on.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "check.h"
#include "harness.h"
#include "haptixd.h"

TestSuite(upload, .timeout = 120, .fini = hx_server_cleanup);

/* A model naming a mesh, meshes/part.stl, in a free body. */
static const char
    mjcf_mesh[] = "<mujoco model=\"uploaded\"><asset>"
		  "<mesh name=\"part\" file=\"meshes/part.stl\"/></asset>"
		  "<worldbody><body name=\"b\" pos=\"0 0 0.5\"><freejoint/>"
		  "<geom name=\"g\" type=\"mesh\" mesh=\"part\" rgba=\"0 0 1 1\"/>"
		  "</body></worldbody></mujoco>";

/* A binary STL of triangles tri[n][3][3] (normals left zero). */
static unsigned char *
stl_of(const float (*tri)[3][3], unsigned n, size_t *len)
{
	unsigned char *b;
	unsigned i;

	*len = 84 + 50 * (size_t)n;
	b = calloc(1, *len);
	cr_assert_not_null(b);
	memcpy(b, "binary STL written by test_upload", 33);
	memcpy(b + 80, &n, 4);
	for (i = 0; i < n; i++)
		memcpy(b + 84 + 50 * (size_t)i + 12, tri[i], 36);
	return b;
}

/* A tetrahedron of side s at the origin, faces outward: 4 vertices. */
static unsigned char *
stl_tetra(float s, size_t *len)
{
	const float t[4][3][3] = {
		{ { 0, 0, 0 }, { 0, s, 0 }, { s, 0, 0 } },
		{ { 0, 0, 0 }, { s, 0, 0 }, { 0, 0, s } },
		{ { 0, 0, 0 }, { 0, 0, s }, { 0, s, 0 } },
		{ { s, 0, 0 }, { 0, s, 0 }, { 0, 0, s } },
	};

	return stl_of(t, 4, len);
}

/* A cube of half-side h about the origin, faces outward: 8 vertices. */
static unsigned char *
stl_cube(float h, size_t *len)
{
	float t[12][3][3], q[4][3];
	int a, s, k, u, v, i;
	static const int sign[4][2] = { { -1, -1 }, { 1, -1 }, { 1, 1 },
		{ -1, 1 } };

	for (a = 0, k = 0; a < 3; a++)
		for (s = -1; s <= 1; s += 2) {
			u = (a + 1) % 3;
			v = (a + 2) % 3;
			for (i = 0; i < 4; i++) {
				q[i][a] = (float)s * h;
				q[i][u] = (float)sign[i][0] * h;
				q[i][v] = (float)sign[i][1] * h;
			}
			/* (u, v, a) turn as (x, y, z): counter-clockwise
			 * seen from +a; reversed for the face at -a. */
			memcpy(t[k][0], q[0], sizeof(q[0]));
			memcpy(t[k][1], q[s > 0 ? 1 : 2], sizeof(q[0]));
			memcpy(t[k][2], q[s > 0 ? 2 : 1], sizeof(q[0]));
			k++;
			memcpy(t[k][0], q[0], sizeof(q[0]));
			memcpy(t[k][1], q[s > 0 ? 2 : 3], sizeof(q[0]));
			memcpy(t[k][2], q[s > 0 ? 3 : 2], sizeof(q[0]));
			k++;
		}
	return stl_of((const float(*)[3][3])t, 12, len);
}

/* The running model's first mesh's vertex count. */
static int
mesh_vertices(hxd_conn *c)
{
	hxd_array *a;
	int n;

	HX_OK(c, hxd_get_array(c, "mesh_vertnum", &a));
	cr_assert(a->rows >= 1, "no mesh");
	n = (int)a->values[0];
	free(a);
	return n;
}

static hxd_conn *
start(struct hx_server *s, const char *more0, const char *more1)
{
	const char *args[] = { "-m", "fixture.xml", "--paused", more0, more1,
		NULL };

	hx_server_start(s, args);
	return hx_connect_ok(hx_server_addr(s, 0), "test_upload");
}

Test(upload, a_mesh_sent_with_the_model_loads)
{
	struct hx_server s;
	hxd_asset a;
	hxd_model m;
	hxd_conn *c;
	unsigned taken;
	size_t len;
	void *stl;

	c = start(&s, NULL, NULL);
	stl = stl_tetra(0.1f, &len);
	a = (hxd_asset){ "meshes/part.stl", stl, len };

	/* Without its file the model fails as it always did. */
	HX_FAILS_WITH(c,
	    hxd_load_data(c, HXD_FORMAT_MJCF, mjcf_mesh, strlen(mjcf_mesh),
		"uploaded", &m),
	    HXD_LOADFAILED, "part.stl");
	hx_still_serving(c, "fixture", "the model without its mesh");

	HX_OK(c,
	    hxd_load_inline_assets(c, HXD_FORMAT_MJCF, mjcf_mesh,
		strlen(mjcf_mesh), "uploaded", &a, 1, &m));
	cr_assert_str_eq(m.name, "uploaded");
	cr_assert_str_eq(hx_status_ok(c).model.name, "uploaded");
	cr_assert_eq(mesh_vertices(c), 4, "the tetrahedron sent has 4");
	HX_OK(c, hxd_step(c, 10, &taken));

	/* Its name as the model writes it, or any other path ending so,
	 * in any case: MuJoCo finds a file by its last part. */
	a.name = "PART.STL";
	HX_OK(c,
	    hxd_load_inline_assets(c, HXD_FORMAT_MJCF, mjcf_mesh,
		strlen(mjcf_mesh), "uploaded", &a, 1, &m));
	cr_assert_eq(mesh_vertices(c), 4);
	free(stl);
	hxd_close(c);
	hx_server_stop(&s);
}

Test(upload, bad_names_are_refused_naming_the_asset)
{
	static const struct {
		const char *name;
		int code;
		const char *says;
	} cases[] = {
		{ "../x.stl", HXD_BADVALUE, "\"../x.stl\"" },
		{ "meshes/../../x.stl", HXD_BADVALUE, "\"..\"" },
		{ "meshes\\..\\x.stl", HXD_BADVALUE, "\"..\"" },
		{ "/etc/passwd", HXD_BADVALUE, "absolute" },
		{ "\\x.stl", HXD_BADVALUE, "absolute" },
		{ "C:/x.stl", HXD_BADVALUE, "absolute" },
		{ "package://arm/x.stl", HXD_BADVALUE, "absolute" },
		{ "", HXD_BADVALUE, "empty name" },
		{ "meshes/", HXD_BADVALUE, "no file name" },
		{ "a\tb.stl", HXD_BADVALUE, "control character" },
		{ "inline.xml", HXD_BADVALUE, "the model itself" },
	};
	struct hx_server s;
	hxd_asset a[2];
	hxd_model m;
	hxd_conn *c;
	size_t i, len;
	void *stl;
	char *big;

	c = start(&s, NULL, NULL);
	stl = stl_tetra(0.1f, &len);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		a[0] = (hxd_asset){ cases[i].name, stl, len };
		cr_assert_eq(hxd_load_inline_assets(c, HXD_FORMAT_MJCF,
				 mjcf_mesh, strlen(mjcf_mesh), "bad", a, 1, &m),
		    cases[i].code, "\"%s\": %s", cases[i].name, hxd_error(c));
		cr_assert(strstr(hxd_error(c), "asset 1") != NULL &&
			strstr(hxd_error(c), cases[i].says) != NULL,
		    "\"%s\": %s", cases[i].name, hxd_error(c));
	}
	/* Two names of one file to MuJoCo: both named. */
	a[0] = (hxd_asset){ "part.stl", stl, len };
	a[1] = (hxd_asset){ "meshes/PART.stl", stl, len };
	HX_FAILS_WITH(c,
	    hxd_load_inline_assets(c, HXD_FORMAT_MJCF, mjcf_mesh,
		strlen(mjcf_mesh), "dup", a, 2, &m),
	    HXD_BADVALUE, "\"meshes/PART.stl\"");
	HX_SAYS(c, "assets 1 (\"part.stl\") and 2");
	/* An empty file: MuJoCo would take it for none, and read the disk. */
	a[1] = (hxd_asset){ "meshes/other.stl", "", 0 };
	HX_FAILS_WITH(c,
	    hxd_load_inline_assets(c, HXD_FORMAT_MJCF, mjcf_mesh,
		strlen(mjcf_mesh), "empty", a, 2, &m),
	    HXD_BADSIZE, "asset 2 (\"meshes/other.stl\") is empty");
	/* A name longer than MuJoCo keeps. */
	big = malloc(1100);
	cr_assert_not_null(big);
	memset(big, 'a', 1099);
	big[1099] = '\0';
	a[0] = (hxd_asset){ big, stl, len };
	HX_FAILS_WITH(c,
	    hxd_load_inline_assets(c, HXD_FORMAT_MJCF, mjcf_mesh,
		strlen(mjcf_mesh), "long", a, 1, &m),
	    HXD_BADVALUE, "longer than 999");
	free(big);
	/* What C cannot send is refused by the library. */
	a[0] = (hxd_asset){ NULL, stl, len };
	HX_FAILS(c,
	    hxd_load_inline_assets(c, HXD_FORMAT_MJCF, mjcf_mesh,
		strlen(mjcf_mesh), "null", a, 1, &m),
	    HXD_BADVALUE);
	HX_FAILS(c,
	    hxd_load_inline_assets(c, HXD_FORMAT_MJCF, mjcf_mesh,
		strlen(mjcf_mesh), "none", NULL, 1, &m),
	    HXD_BADVALUE);
	hx_still_serving(c, "fixture", "the refusals");
	free(stl);
	hxd_close(c);
	hx_server_stop(&s);
}

/*
 * A name outside the model directories is refused as ever, unless an
 * asset serves it: then MuJoCo reads the asset, and the file there is
 * never opened (a cube on the disk, a tetrahedron sent).
 */
Test(upload, names_outside_are_refused_unless_carried)
{
	char dir[] = "/tmp/hxup.XXXXXX", path[128], xml[512];
	struct hx_server s;
	hxd_asset a;
	hxd_model m;
	hxd_conn *c;
	size_t len, clen;
	void *stl, *cube;
	FILE *f;

	c = start(&s, NULL, NULL);
	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/part.stl", dir);
	cube = stl_cube(0.1f, &clen);
	cr_assert_not_null(f = fopen(path, "wb"));
	cr_assert_eq(fwrite(cube, 1, clen, f), clen);
	fclose(f);
	snprintf(xml, sizeof(xml),
	    "<mujoco model=\"outside\"><asset><mesh name=\"part\" file=\"%s\"/>"
	    "</asset><worldbody><body><freejoint/><geom type=\"mesh\" "
	    "mesh=\"part\"/></body></worldbody></mujoco>",
	    path);
	stl = stl_tetra(0.1f, &len);
	a = (hxd_asset){ "part.stl", stl, len };

	HX_FAILS_WITH(c,
	    hxd_load_data(c, HXD_FORMAT_MJCF, xml, strlen(xml), "o", &m),
	    HXD_DENIED, "outside the model directories");
	/* Another file carried does not open the door. */
	a.name = "other.stl";
	HX_FAILS_WITH(c,
	    hxd_load_inline_assets(
		c, HXD_FORMAT_MJCF, xml, strlen(xml), "o", &a, 1, &m),
	    HXD_DENIED, path);
	hx_still_serving(c, "fixture", "a name outside");
	a.name = "part.stl";
	HX_OK(c,
	    hxd_load_inline_assets(
		c, HXD_FORMAT_MJCF, xml, strlen(xml), "o", &a, 1, &m));
	cr_assert_eq(mesh_vertices(c), 4,
	    "MuJoCo read the cube on the disk, not the tetrahedron sent");
	unlink(path);
	rmdir(dir);
	free(stl);
	free(cube);
	hxd_close(c);
	hx_server_stop(&s);
}

/*
 * An included file carried, naming the mesh carried too; the model's
 * text has it inlined, and an edit afterwards (compiled again in a
 * loader) still has the mesh.
 */
Test(upload, includes_are_carried_and_edits_keep_the_files)
{
	static const char main_xml
	    [] = "<mujoco model=\"with_include\"><asset><mesh name=\"part\" "
		 "file=\"meshes/part.stl\"/></asset><worldbody>"
		 "<include file=\"parts/body.xml\"/></worldbody></mujoco>";
	static const char body_xml
	    [] = "<mujoco><body name=\"carried\" pos=\"0 0 1\"><freejoint/>"
		 "<geom name=\"g\" type=\"mesh\" mesh=\"part\"/></body></mujoco>";
	static const char *const rgba[] = { "rgba", "1 0 0 1" };
	const hxd_edit_op op = { HXD_EDIT_SET, "geom", "g", NULL, NULL, rgba,
		1 };
	struct hx_server s;
	hxd_asset a[2];
	hxd_model m;
	hxd_conn *c;
	char *xml, dir[4096];
	size_t len;
	void *stl;

	c = start(&s, NULL, NULL);
	stl = stl_tetra(0.1f, &len);
	a[0] = (hxd_asset){ "parts/body.xml", body_xml, strlen(body_xml) };
	a[1] = (hxd_asset){ "meshes/part.stl", stl, len };
	HX_FAILS(c,
	    hxd_load_inline_assets(c, HXD_FORMAT_MJCF, main_xml,
		strlen(main_xml), "inc", a, 1, &m),
	    HXD_LOADFAILED);
	HX_OK(c,
	    hxd_load_inline_assets(c, HXD_FORMAT_MJCF, main_xml,
		strlen(main_xml), "inc", a, 2, &m));
	cr_assert_eq(m.nbody, 2);
	HX_OK(c, hxd_get_model_xml(c, &xml, dir, sizeof(dir)));
	cr_assert(
	    strstr(xml, "carried") != NULL && strstr(xml, "<include") == NULL,
	    "the include is not inlined: %s", xml);
	free(xml);
	HX_OK(c, hxd_edit_model(c, &op, 1, &m, NULL));
	cr_assert_eq(mesh_vertices(c), 4);
	/* An include carried names a file outside, not carried: refused. */
	a[0].data = "<mujoco><body><geom type=\"box\" size=\"1 1 1\"/>"
		    "<include file=\"/etc/passwd\"/></body></mujoco>";
	a[0].len = strlen(a[0].data);
	HX_FAILS_WITH(c,
	    hxd_load_inline_assets(c, HXD_FORMAT_MJCF, main_xml,
		strlen(main_xml), "inc", a, 2, &m),
	    HXD_DENIED, "/etc/passwd");
	cr_assert_str_eq(hx_status_ok(c).model.name, "with_include");
	free(stl);
	hxd_close(c);
	hx_server_stop(&s);
}

Test(upload, urdf_meshes_and_mjb)
{
	static const char
	    urdf[] = "<robot name=\"urdf_part\"><link name=\"base\"><inertial>"
		     "<mass value=\"1\"/><inertia ixx=\"0.01\" iyy=\"0.01\" "
		     "izz=\"0.01\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>"
		     "<collision><geometry><mesh filename=\"package://arm/meshes/"
		     "part.stl\"/></geometry></collision></link></robot>";
	struct hx_server s;
	hxd_model_blob b;
	hxd_asset a;
	hxd_model m;
	hxd_conn *c;
	size_t len;
	void *stl;

	c = start(&s, NULL, NULL);
	stl = stl_tetra(0.1f, &len);
	a = (hxd_asset){ "meshes/part.stl", stl, len };
	HX_OK(c,
	    hxd_load_inline_assets(
		c, HXD_FORMAT_URDF, urdf, strlen(urdf), "urdf", &a, 1, &m));
	cr_assert_str_eq(m.name, "urdf_part");
	cr_assert_eq(mesh_vertices(c), 4);

	/* MJB inline still loads; it names no files to send. */
	HX_OK(c, hxd_get_model(c, &b));
	HX_OK(c, hxd_load_file(c, "fixture.xml", &m));
	HX_FAILS_WITH(c,
	    hxd_load_inline_assets(
		c, HXD_FORMAT_MJB, b.mjb, b.size, "mjb", &a, 1, &m),
	    HXD_BADVALUE, "MJB");
	HX_FAILS_WITH(c,
	    hxd_load_inline_assets(
		c, HXD_FORMAT_AUTO, b.mjb, b.size, "mjb", &a, 1, &m),
	    HXD_BADVALUE, "MJB");
	HX_OK(c, hxd_load_data(c, HXD_FORMAT_AUTO, b.mjb, b.size, "mjb", &m));
	cr_assert_eq(mesh_vertices(c), 4);
	hxd_model_blob_free(&b);
	free(stl);
	hxd_close(c);
	hx_server_stop(&s);
}

/*
 * Files that attack MuJoCo are compiled in the loader like any model:
 * each fails there, with the reason, and the daemon serves on.
 */
Test(upload, hostile_files_fail_in_the_loader)
{
	static const char tex_xml
	    [] = "<mujoco model=\"tex\"><asset><texture name=\"t\" type=\"2d\" "
		 "file=\"t.png\"/><material name=\"m\" texture=\"t\"/></asset>"
		 "<worldbody><geom type=\"box\" size=\".1 .1 .1\" "
		 "material=\"m\"/></worldbody></mujoco>";
	static const char hfield_xml
	    [] = "<mujoco model=\"hf\"><asset><hfield name=\"h\" file=\"h.bin\" "
		 "size=\"1 1 1 1\"/></asset><worldbody><geom type=\"hfield\" "
		 "hfield=\"h\"/></worldbody></mujoco>";
	static const char inc_xml
	    [] = "<mujoco model=\"inc\"><worldbody><include file=\"a.xml\"/>"
		 "</worldbody></mujoco>";
	static const char
	    loop_xml[] = "<mujoco><include file=\"a.xml\"/></mujoco>";
	static const unsigned char png_junk[] = { 0x89, 'P', 'N', 'G', '\r',
		'\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R', 0x7f, 0xff,
		0xff, 0xff, 0x7f, 0xff, 0xff, 0xff, 8, 2, 0, 0, 0 };
	unsigned char stl_lies[84] = "an STL that claims more than it holds";
	int hf_head[3] = { 65536, 65536, 0 };
	unsigned n = 100000000;
	struct {
		const char *xml, *name;
		const void *data;
		size_t len;
	} cases[] = {
		{ mjcf_mesh, "meshes/part.stl", stl_lies, sizeof(stl_lies) },
		{ tex_xml, "t.png", png_junk, sizeof(png_junk) },
		{ hfield_xml, "h.bin", hf_head, sizeof(hf_head) },
		{ inc_xml, "a.xml", "not XML < at all", 16 },
		{ inc_xml, "a.xml", loop_xml, sizeof(loop_xml) - 1 },
	};
	struct hx_server s;
	hxd_asset a;
	hxd_model m;
	hxd_conn *c;
	size_t i;
	int rc;

	memcpy(stl_lies + 80, &n, 4);
	c = start(&s, NULL, NULL);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		a = (hxd_asset){ cases[i].name, cases[i].data, cases[i].len };
		rc = hxd_load_inline_assets(c, HXD_FORMAT_MJCF, cases[i].xml,
		    strlen(cases[i].xml), "hostile", &a, 1, &m);
		cr_assert(rc == HXD_LOADFAILED || rc == HXD_DENIED,
		    "case %zu (%s): %s: %s", i, cases[i].name,
		    hxd_result_name(rc), hxd_error(c));
		cr_log_info(
		    "case %zu (%s): %s", i, cases[i].name, hxd_error(c));
		hx_still_serving(c, "fixture", cases[i].name);
	}
	hxd_close(c);
	hx_server_stop(&s);
}

/*
 * The counts and sizes are bounded: at most 1000 assets; the model and
 * its files travel in one frame, within --max-frame (a larger one is
 * refused as any frame is, and the daemon serves the others on).
 */
Test(upload, counts_and_sizes_are_bounded)
{
	struct hx_server s;
	hxd_asset *a;
	hxd_model m;
	hxd_conn *c, *other;
	char(*names)[16];
	size_t len;
	void *stl, *big;
	int i, rc;

	c = start(&s, "--max-frame", "1048576");
	stl = stl_tetra(0.1f, &len);
	a = calloc(1001, sizeof(*a));
	names = calloc(1001, sizeof(*names));
	cr_assert(a != NULL && names != NULL);
	for (i = 0; i < 1001; i++) {
		snprintf(names[i], sizeof(names[i]), "f%d.stl", i);
		a[i] = (hxd_asset){ names[i], stl, len };
	}
	snprintf(names[0], sizeof(names[0]), "part.stl");
	HX_FAILS_WITH(c,
	    hxd_load_inline_assets(c, HXD_FORMAT_MJCF, mjcf_mesh,
		strlen(mjcf_mesh), "many", a, 1001, &m),
	    HXD_BADSIZE, "at most 1000");
	/* 1000 are fine: those the model does not name are not read. */
	HX_OK(c,
	    hxd_load_inline_assets(c, HXD_FORMAT_MJCF, mjcf_mesh,
		strlen(mjcf_mesh), "many", a, 1000, &m));
	cr_assert_eq(mesh_vertices(c), 4);

	other = hx_connect_ok(hx_server_addr(&s, 0), "other");
	big = calloc(1, 2 << 20);
	cr_assert_not_null(big);
	a[1] = (hxd_asset){ "big.bin", big, 2 << 20 };
	rc = hxd_load_inline_assets(
	    c, HXD_FORMAT_MJCF, mjcf_mesh, strlen(mjcf_mesh), "big", a, 2, &m);
	cr_assert_neq(rc, HXD_OK, "a frame past --max-frame loaded");
	cr_log_info("past --max-frame: %s", hxd_error(c));
	cr_assert_str_eq(hx_status_ok(other).model.name, "uploaded");
	free(big);
	free(a);
	free(names);
	free(stl);
	hxd_close(other);
	hxd_close(c);
	hx_server_stop(&s);
}
