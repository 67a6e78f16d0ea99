/*
 * Unit tests of the model directories (daemon/modeldir.c) and of the
 * files a model names (daemon/modelrefs.c), on fixtures made in a scratch
 * directory: two model directories, a directory outside them, symlinks
 * out of and within them, and a sibling whose name starts like theirs.
 */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <criterion/redirect.h>

#include "modelassets.h"
#include "modeldir.h"
#include "modelrefs.h"
#include "result.h"
#include "scratch.h"

/* The scratch directory's real path: /tmp may be a symlink. */
static char root[128];

/* The real path of name under the scratch directory (static, four). */
static const char *
at(const char *name)
{
	static char path[4][PATH_MAX];
	static int i;

	i = (i + 1) % 4;
	snprintf(path[i], sizeof(path[i]), "%s/%s", root, name);
	return path[i];
}

/* Write a file under the scratch directory. */
static const char *
put(const char *name, const char *text)
{
	const char *path = at(name);

	hx_write_file(path, text, strlen(text));
	return path;
}

static void
dir(const char *name)
{
	cr_assert_eq(mkdir(at(name), 0755), 0, "%s", name);
}

static void
link_to(const char *target, const char *name)
{
	cr_assert_eq(symlink(target, at(name)), 0, "%s", name);
}

/*
 * models/ and models2/ are the model directories; outside/ is not, nor
 * is models-evil/, whose name starts with "models".
 */
static void
fixture_make(void)
{
	const char *dirs[2];
	char real[PATH_MAX];

	hx_scratch_init();
	cr_assert_not_null(realpath(hx_scratch(""), real));
	cr_assert_lt(strlen(real), sizeof(root));
	snprintf(root, sizeof(root), "%s", real);
	dir("models");
	dir("models/meshes");
	dir("models/textures");
	dir("models/sub");
	dir("models2");
	dir("outside");
	dir("models-evil");
	put("models/meshes/a.stl", "solid a\nendsolid a\n");
	put("models/textures/t.png", "png");
	put("models/sub/s.stl", "solid s\nendsolid s\n");
	put("models2/only2.xml", "<mujoco/>\n");
	put("outside/secret.stl", "solid secret\nendsolid secret\n");
	put("outside/evil.xml",
	    "<mujoco><asset><mesh file=\"secret.stl\"/></asset></mujoco>\n");
	put("models-evil/x.xml", "<mujoco/>\n");
	link_to("../outside", "models/link_out");
	link_to("meshes", "models/link_in");
	link_to("../outside/secret.stl", "models/evil.stl");
	link_to("../outside/evil.xml", "models/evil.xml");
	dirs[0] = at("models");
	dirs[1] = at("models2");
	modeldir_init(dirs, 2);
}

static void
fixture_remove(void)
{
	modeldir_init(NULL, 0);
	hx_scratch_fini();
}

TestSuite(
    modeldir, .init = fixture_make, .fini = fixture_remove, .timeout = 10);
TestSuite(
    modelrefs, .init = fixture_make, .fini = fixture_remove, .timeout = 10);

/* Resolve a client's path and expect the real path want (under root). */
static void
resolve_ok(const char *path, const char *want)
{
	char out[PATH_MAX], err[1024] = "";

	cr_assert_eq(modeldir_resolve(path, out, sizeof(out), err, sizeof(err)),
	    0, "%s: %s", path, err);
	cr_assert_str_eq(out, at(want), "%s", path);
}

/* Resolve a client's path and expect the result rc with err starting so. */
static void
resolve_fails(const char *path, int rc, const char *want)
{
	char out[PATH_MAX] = "", err[1024] = "";

	cr_assert_eq(modeldir_resolve(path, out, sizeof(out), err, sizeof(err)),
	    rc, "%s: %s", path, err);
	cr_assert_eq(strncmp(err, want, strlen(want)), 0, "%s: %s", path, err);
	cr_assert_not_null(strstr(err, modeldir_list()),
	    "the message lists the directories: %s", err);
}

Test(modeldir, relative_paths_resolve_inside)
{
	resolve_ok("meshes/a.stl", "models/meshes/a.stl");
	resolve_ok("./sub/../meshes//a.stl", "models/meshes/a.stl");
	resolve_ok("link_in/a.stl", "models/meshes/a.stl");
	resolve_ok("only2.xml", "models2/only2.xml");
}

Test(modeldir, absolute_paths_inside)
{
	resolve_ok(at("models/meshes/a.stl"), "models/meshes/a.stl");
	resolve_ok(at("models2/only2.xml"), "models2/only2.xml");
	resolve_ok(at("outside/../models/sub/s.stl"), "models/sub/s.stl");
}

Test(modeldir, escapes_are_denied)
{
	resolve_fails("../outside/secret.stl", RESULT_DENIED,
	    "../outside/secret.stl is outside the model directories (");
	resolve_fails("meshes/../../outside/secret.stl", RESULT_DENIED,
	    "meshes/../../outside/secret.stl is outside");
	resolve_fails(at("outside/secret.stl"), RESULT_DENIED, at("outside"));
	resolve_fails("/etc/passwd", RESULT_DENIED,
	    "/etc/passwd is outside the model directories");
	resolve_fails("../models-evil/x.xml", RESULT_DENIED,
	    "../models-evil/x.xml is outside");
	resolve_fails(
	    at("models-evil/x.xml"), RESULT_DENIED, at("models-evil"));
}

Test(modeldir, symlinks_out_are_denied)
{
	resolve_fails("link_out/secret.stl", RESULT_DENIED,
	    "link_out/secret.stl is outside the model directories");
	resolve_fails("evil.stl", RESULT_DENIED, "evil.stl is outside");
	resolve_fails(at("models/evil.stl"), RESULT_DENIED, at("models"));
}

/*
 * A path outside that does not exist is refused in the same words as
 * one that does: the answer must not tell a client what exists on the
 * machine (issue 16).  Before, a missing one was "no model ...".
 */
Test(modeldir, missing_outside_is_denied_alike)
{
	resolve_fails("/etc/hx-no-such-file", RESULT_DENIED,
	    "/etc/hx-no-such-file is outside the model directories (");
	resolve_fails("/no-such-dir/x.xml", RESULT_DENIED,
	    "/no-such-dir/x.xml is outside the model directories (");
	resolve_fails("../outside/no-such.xml", RESULT_DENIED,
	    "../outside/no-such.xml is outside the model directories (");
	resolve_fails("link_out/no-such.xml", RESULT_DENIED,
	    "link_out/no-such.xml is outside the model directories (");
}

Test(modeldir, missing_files)
{
	resolve_fails("nothing.xml", RESULT_LOADFAILED,
	    "no model nothing.xml in the model directories (");
	resolve_fails(at("models/nothing.xml"), RESULT_LOADFAILED, "no model ");
}

Test(modeldir, empty_path)
{
	char out[PATH_MAX], err[256] = "";

	cr_assert_eq(modeldir_resolve("", out, sizeof(out), err, sizeof(err)),
	    RESULT_LOADFAILED);
	cr_assert_str_eq(err, "empty model path");
}

Test(modeldir, list_and_reinit)
{
	char want[2 * PATH_MAX + 8], out[PATH_MAX], err[1024] = "";
	const char *dirs[2];

	snprintf(want, sizeof(want), "%s, %s", at("models"), at("models2"));
	cr_assert_str_eq(modeldir_list(), want);

	/* A reload starts over; a directory that does not exist is left out. */
	dirs[0] = at("nonexistent");
	dirs[1] = at("models2/../models2");
	cr_redirect_stderr();
	modeldir_init(dirs, 2);
	cr_assert_str_eq(modeldir_list(), at("models2"));
	resolve_fails("meshes/a.stl", RESULT_LOADFAILED, "no model");
	resolve_ok("only2.xml", "models2/only2.xml");

	modeldir_init(dirs, 0);
	cr_assert_str_eq(modeldir_list(), "none; haptixd -M DIR names one");
	/* None there: the message says which were tried and why not. */
	modeldir_init(dirs, 1);
	snprintf(want, sizeof(want),
	    "none: %s: No such file or directory; haptixd -M DIR names one",
	    at("nonexistent"));
	cr_assert_str_eq(modeldir_list(), want);
	resolve_fails("mpl_scene.xml", RESULT_LOADFAILED,
	    "no model mpl_scene.xml in the model directories (none: ");
	cr_assert_eq(modeldir_resolve(at("models2/only2.xml"), out, sizeof(out),
			 err, sizeof(err)),
	    RESULT_LOADFAILED, "%s", err);
}

/* A symlink in one directory leads out; the other has the real file. */
Test(modeldir, each_directory_in_turn)
{
	put("models2/evil.stl", "solid fine\nendsolid fine\n");
	resolve_ok("evil.stl", "models2/evil.stl");
	put("models/only2.xml", "<mujoco/>\n");
	resolve_ok("only2.xml", "models/only2.xml");
}

Test(modeldir, contains_judges_missing_files_by_path)
{
	cr_assert_eq(modeldir_contains(at("models/meshes/a.stl")), 1);
	cr_assert_eq(modeldir_contains(at("models/link_in/a.stl")), 1);
	cr_assert_eq(modeldir_contains(at("models/evil.stl")), 0);
	cr_assert_eq(modeldir_contains(at("outside/secret.stl")), 0);
	cr_assert_eq(modeldir_contains(at("models")), 0,
	    "the directory itself holds no model");

	cr_assert_eq(modeldir_contains(at("models/nothing.stl")), 1);
	cr_assert_eq(modeldir_contains(at("models/a/./b/../../c/missing")), 1);
	cr_assert_eq(modeldir_contains(at("models/../outside/missing")), 0);
	cr_assert_eq(
	    modeldir_contains(at("models/x/../../outside/missing")), 0);
	cr_assert_eq(modeldir_contains(at("models/../models2/missing")), 1);
	cr_assert_eq(modeldir_contains(at("models-evil/missing")), 0);
	cr_assert_eq(
	    modeldir_contains(at("models2/x/../../../../../../..")), 0);
	cr_assert_eq(modeldir_contains("models/nothing.stl"), 0,
	    "a missing relative path cannot be judged");
	cr_assert_eq(modeldir_contains("/"), 0);
}

/* A missing file behind a symlink: where the symlink leads counts. */
Test(modeldir, contains_follows_symlinks_to_missing_files)
{
	cr_assert_eq(modeldir_contains(at("models/link_out/missing.stl")), 0);
	cr_assert_eq(modeldir_contains(at("models/link_out/new/missing")), 0);
	cr_assert_eq(
	    modeldir_contains(at("models/link_out/../outside/missing")), 0);
	cr_assert_eq(
	    modeldir_contains(at("models/link_out/../models/missing")), 1);
	cr_assert_eq(modeldir_contains(at("models/link_in/missing.stl")), 1);
	cr_assert_eq(modeldir_contains(at("outside/../models/new/missing")), 1);
}

Test(modeldir, the_root_directory_holds_everything)
{
	const char *dirs[] = { "/" };

	modeldir_init(dirs, 1);
	cr_assert_eq(modeldir_contains(at("outside/secret.stl")), 1);
	cr_assert_eq(modeldir_contains("/no/such/file"), 1);
	resolve_ok(at("outside/secret.stl"), "outside/secret.stl");
}

Test(modeldir, find_for_the_command_line)
{
	char out[PATH_MAX + 256];

	cr_assert_eq(modeldir_find("/no/such/model.xml", out, sizeof(out)), 0,
	    "an absolute path is taken as given");
	cr_assert_str_eq(out, "/no/such/model.xml");
	cr_assert_eq(modeldir_find("only2.xml", out, sizeof(out)), 0);
	cr_assert_str_eq(out, at("models2/only2.xml"));
	cr_assert_eq(modeldir_find("meshes/a.stl", out, sizeof(out)), 0);
	cr_assert_str_eq(out, at("models/meshes/a.stl"));
	cr_assert_eq(chdir(at("outside")), 0);
	cr_assert_eq(modeldir_find("secret.stl", out, sizeof(out)), 0,
	    "the working directory first: the command line is trusted");
	cr_assert_str_eq(out, "secret.stl");
	cr_assert_eq(modeldir_find("nothing.xml", out, sizeof(out)), -1);
	cr_assert_str_eq(out, "nothing.xml");
}

/* Check the model file at models/name, holding text. */
static int
check(const char *name, const char *text, char *err, size_t len)
{
	char path[256];

	snprintf(path, sizeof(path), "models/%s", name);
	err[0] = '\0';
	return modelrefs_check(put(path, text), NULL, 0, err, len);
}

static void
check_ok(const char *name, const char *text)
{
	char err[2048];

	cr_assert_eq(check(name, text, err, sizeof(err)), 0, "%s:\n%s\n%s",
	    name, text, err);
}

/*
 * Expect the model refused for naming file, with the element, the line
 * and the document naming it (under root, or NULL for the model itself).
 */
static void
check_denied(const char *name, const char *text, const char *file,
    const char *element, unsigned line, const char *doc)
{
	char err[2048], want[PATH_MAX + 512], model[256];

	cr_assert_eq(check(name, text, err, sizeof(err)), RESULT_DENIED,
	    "%s:\n%s\n%s", name, text, err);
	snprintf(model, sizeof(model), "models/%s", name);
	snprintf(want, sizeof(want),
	    "the model names %s (<%s> on line %u of %s)", file, element, line,
	    at(doc != NULL ? doc : model));
	cr_assert_eq(
	    strncmp(err, want, strlen(want)), 0, "\n%s\nnot\n%s", err, want);
	cr_assert_not_null(strstr(err, "outside the model directories"));
}

Test(modelrefs, files_inside)
{
	check_ok("m.xml",
	    "<mujoco>\n"
	    "  <asset>\n"
	    "    <mesh file=\"meshes/a.stl\"/>\n"
	    "    <mesh file=\"link_in/a.stl\"/>\n"
	    "    <mesh file=\"sub/../meshes/a.stl\"/>\n"
	    "    <texture file=\"textures/t.png\"/>\n"
	    "    <hfield file=\"textures/t.png\"/>\n"
	    "    <skin file=\"meshes/a.stl\"/>\n"
	    "  </asset>\n"
	    "</mujoco>\n");
}

Test(modelrefs, dot_dot_out)
{
	check_denied("m.xml",
	    "<mujoco>\n"
	    "  <asset>\n"
	    "    <mesh file=\"meshes/a.stl\"/>\n"
	    "    <mesh file=\"../outside/secret.stl\"/>\n"
	    "  </asset>\n"
	    "</mujoco>\n",
	    "../outside/secret.stl", "mesh", 4, NULL);
	check_denied("sub/m.xml",
	    "<mujoco><asset><mesh file=\"../../outside/secret.stl\"/>"
	    "</asset></mujoco>\n",
	    "../../outside/secret.stl", "mesh", 1, NULL);
}

Test(modelrefs, absolute_paths)
{
	char xml[PATH_MAX + 256];

	snprintf(xml, sizeof(xml),
	    "<mujoco><asset><mesh file=\"%s\"/></asset></mujoco>\n",
	    at("models/meshes/a.stl"));
	check_ok("m.xml", xml);
	check_denied("m.xml",
	    "<mujoco>\n<asset>\n<texture file=\"/etc/passwd\"/>\n</asset>\n"
	    "</mujoco>\n",
	    "/etc/passwd", "texture", 3, NULL);
}

Test(modelrefs, missing_files_are_judged_by_path)
{
	check_ok("m.xml",
	    "<mujoco><asset><mesh file=\"meshes/none.stl\"/></asset></mujoco>");
	check_denied("m.xml",
	    "<mujoco><asset><mesh file=\"../outside/none.stl\"/></asset>"
	    "</mujoco>",
	    "../outside/none.stl", "mesh", 1, NULL);
	check_denied("m.xml",
	    "<mujoco><asset><hfield file=\"../nowhere/../../x.png\"/></asset>"
	    "</mujoco>",
	    "../nowhere/../../x.png", "hfield", 1, NULL);
}

Test(modelrefs, symlinks_out)
{
	check_denied("m.xml",
	    "<mujoco><asset><mesh file=\"link_out/none.stl\"/></asset>"
	    "</mujoco>",
	    "link_out/none.stl", "mesh", 1, NULL);
	check_denied("m.xml",
	    "<mujoco><asset><mesh file=\"link_out/secret.stl\"/></asset>"
	    "</mujoco>",
	    "link_out/secret.stl", "mesh", 1, NULL);
	check_denied("m.xml",
	    "<mujoco><asset><skin file=\"evil.stl\"/></asset></mujoco>",
	    "evil.stl", "skin", 1, NULL);
}

Test(modelrefs, the_sibling_with_a_longer_name_is_outside)
{
	check_denied("m.xml",
	    "<mujoco><asset><mesh file=\"../models-evil/x.xml\"/></asset>"
	    "</mujoco>",
	    "../models-evil/x.xml", "mesh", 1, NULL);
}

/* Every element and attribute that names a file, in any letter case. */
Test(modelrefs, every_file_attribute)
{
	static const char *const refs[][2] = { { "mesh", "file" },
		{ "hfield", "file" }, { "skin", "file" }, { "texture", "file" },
		{ "texture", "fileright" }, { "texture", "fileleft" },
		{ "texture", "fileup" }, { "texture", "filedown" },
		{ "texture", "filefront" }, { "texture", "fileback" },
		{ "Mesh", "FILE" }, { "TEXTURE", "FileUp" } };
	char xml[512];
	size_t i;

	for (i = 0; i < sizeof(refs) / sizeof(refs[0]); i++) {
		snprintf(xml, sizeof(xml),
		    "<mujoco>\n<asset>\n<%s %s=\"textures/t.png\"/>\n"
		    "<%s %s=\"../outside/secret.stl\"/>\n</asset>\n</mujoco>\n",
		    refs[i][0], refs[i][1], refs[i][0], refs[i][1]);
		check_denied(
		    "m.xml", xml, "../outside/secret.stl", refs[i][0], 4, NULL);
	}
}

/* Two spellings of one attribute: both are checked. */
Test(modelrefs, every_spelling_of_an_attribute)
{
	check_denied("m.xml",
	    "<mujoco><asset><mesh file=\"meshes/a.stl\" "
	    "FILE=\"../outside/secret.stl\"/></asset></mujoco>",
	    "../outside/secret.stl", "mesh", 1, NULL);
}

Test(modelrefs, urdf_meshes)
{
	check_ok("arm.urdf",
	    "<robot name=\"arm\">\n<link name=\"l\">\n<visual><geometry>\n"
	    "<mesh filename=\"meshes/a.stl\"/>\n"
	    "</geometry></visual>\n</link>\n</robot>\n");
	check_denied("arm.urdf",
	    "<robot name=\"arm\">\n<link name=\"l\">\n<visual><geometry>\n"
	    "<mesh filename=\"../outside/secret.stl\"/>\n"
	    "</geometry></visual>\n</link>\n</robot>\n",
	    "../outside/secret.stl", "mesh", 4, NULL);
	check_denied("arm.urdf",
	    "<robot name=\"arm\">\n<mujoco><compiler meshdir=\"../outside\"/>"
	    "</mujoco>\n<link name=\"l\"><visual><geometry>\n"
	    "<mesh filename=\"secret.stl\"/>\n"
	    "</geometry></visual></link>\n</robot>\n",
	    "secret.stl", "mesh", 4, NULL);
}

Test(modelrefs, meshdir_and_texturedir)
{
	check_ok("m.xml",
	    "<mujoco>\n"
	    "<compiler meshdir=\"meshes\" texturedir=\"textures/\"/>\n"
	    "<asset><mesh file=\"a.stl\"/><texture file=\"t.png\"/></asset>\n"
	    "</mujoco>\n");
	check_denied("m.xml",
	    "<mujoco>\n"
	    "<compiler meshdir=\"../outside\"/>\n"
	    "<asset>\n<mesh file=\"secret.stl\"/></asset>\n"
	    "</mujoco>\n",
	    "secret.stl", "mesh", 4, NULL);
	check_denied("m.xml",
	    "<mujoco>\n"
	    "<compiler texturedir=\"link_out\"/>\n"
	    "<asset>\n<texture file=\"secret.stl\"/></asset>\n"
	    "</mujoco>\n",
	    "secret.stl", "texture", 4, NULL);
	check_denied("m.xml",
	    "<mujoco>\n"
	    "<compiler meshdir=\"/etc\"/>\n"
	    "<asset>\n<mesh file=\"passwd\"/></asset>\n"
	    "</mujoco>\n",
	    "passwd", "mesh", 4, NULL);
	check_denied("m.xml",
	    "<mujoco>\n"
	    "<asset>\n<mesh file=\"secret.stl\"/></asset>\n"
	    "<compiler meshdir=\"../outside\"/>\n"
	    "</mujoco>\n",
	    "secret.stl", "mesh", 3, NULL);
	check_denied("m.xml",
	    "<mujoco>\n"
	    "<compiler meshdir=\"meshes\"/>\n"
	    "<compiler meshdir=\"../outside\"/>\n"
	    "<asset>\n<mesh file=\"secret.stl\"/></asset>\n"
	    "</mujoco>\n",
	    "secret.stl", "mesh", 5, NULL);
}

Test(modelrefs, includes_are_followed)
{
	/* Relative to the main model's directory, at every depth. */
	put("models/inc1.xml",
	    "<mujoco><include file=\"inc2.xml\"/></mujoco>\n");
	put("models/inc2.xml",
	    "<mujoco>\n\n<asset><mesh file=\"link_out/secret.stl\"/></asset>"
	    "</mujoco>\n");
	put("models/fine.xml",
	    "<mujoco><asset><mesh file=\"meshes/a.stl\"/></asset></mujoco>\n");

	dir("models/parts");
	put("models/parts/legs.xml",
	    "<mujoco>\n<asset>\n<mesh file=\"../outside/secret.stl\"/>\n"
	    "</asset>\n</mujoco>\n");
	check_ok("m.xml",
	    "<mujoco><include file=\"fine.xml\"/>"
	    "<include file=\"meshes/a.stl\"/></mujoco>\n");
	check_denied("m.xml",
	    "<mujoco>\n<include file=\"fine.xml\"/>\n"
	    "<include file=\"parts/legs.xml\"/>\n</mujoco>\n",
	    "../outside/secret.stl", "mesh", 3, "models/parts/legs.xml");
	check_denied("m.xml", "<mujoco><include file=\"inc1.xml\"/></mujoco>\n",
	    "link_out/secret.stl", "mesh", 3, "models/inc2.xml");
}

Test(modelrefs, includes_out)
{
	check_denied("m.xml",
	    "<mujoco>\n<include file=\"../outside/evil.xml\"/>\n</mujoco>\n",
	    "../outside/evil.xml", "include", 2, NULL);
	check_denied("m.xml",
	    "<mujoco>\n<include file=\"evil.xml\"/>\n</mujoco>\n", "evil.xml",
	    "include", 2, NULL);
	check_denied("m.xml",
	    "<mujoco>\n<include file=\"../outside/none.xml\"/>\n</mujoco>\n",
	    "../outside/none.xml", "include", 2, NULL);
}

/* An include is found where MuJoCo looks: by the main model, not by it. */
Test(modelrefs, nested_includes_resolve_against_the_main_model)
{
	put("models/sub/a.xml", "<mujoco><include file=\"b.xml\"/></mujoco>\n");
	put("models/b.xml",
	    "<mujoco><asset><mesh file=\"meshes/a.stl\"/></asset></mujoco>\n");
	put("models/sub/b.xml",
	    "<mujoco><asset><mesh file=\"../outside/secret.stl\"/></asset>"
	    "</mujoco>\n");
	check_ok("m.xml", "<mujoco><include file=\"sub/a.xml\"/></mujoco>\n");
}

Test(modelrefs, missing_or_broken_includes_are_left_to_mujoco)
{
	put("models/broken.xml", "<mujoco><asset>\n");
	check_ok("m.xml", "<mujoco><include file=\"none.xml\"/></mujoco>\n");
	check_ok("m.xml", "<mujoco><include file=\"broken.xml\"/></mujoco>\n");
}

Test(modelrefs, include_loops_end)
{
	char err[2048] = "";

	put("models/loop.xml",
	    "<mujoco><include file=\"loop.xml\"/></mujoco>\n");
	cr_assert_eq(
	    check("m.xml", "<mujoco><include file=\"loop.xml\"/></mujoco>\n",
		err, sizeof(err)),
	    RESULT_DENIED);
	cr_assert_str_eq(err, "includes nested more than 16 deep at loop.xml");
}

/*
 * MuJoCo puts an included file's elements where the <include> is, and
 * the last <compiler> in that order sets meshdir for every mesh: one in
 * an include after a mesh still applies to it, and one of the model's
 * after an include overrides the included one.
 */
Test(modelrefs, compiler_order_across_includes)
{
	put("models/dirs_out.xml",
	    "<mujoco><compiler meshdir=\"../outside\"/></mujoco>\n");
	put("models/dirs_in.xml",
	    "<mujoco><compiler meshdir=\"meshes\"/></mujoco>\n");
	check_denied("m.xml",
	    "<mujoco>\n"
	    "<asset><mesh file=\"secret.stl\"/></asset>\n"
	    "<include file=\"dirs_out.xml\"/>\n"
	    "</mujoco>\n",
	    "secret.stl", "mesh", 2, NULL);
	check_denied("m.xml",
	    "<mujoco>\n"
	    "<include file=\"dirs_in.xml\"/>\n"
	    "<compiler meshdir=\"../outside\"/>\n"
	    "<asset><mesh file=\"secret.stl\"/></asset>\n"
	    "</mujoco>\n",
	    "secret.stl", "mesh", 4, NULL);
	check_ok("m.xml",
	    "<mujoco>\n"
	    "<compiler meshdir=\"../outside\"/>\n"
	    "<include file=\"dirs_in.xml\"/>\n"
	    "<asset><mesh file=\"a.stl\"/></asset>\n"
	    "</mujoco>\n");
	check_ok("m.xml",
	    "<mujoco>\n"
	    "<compiler meshdir=\"../outside\"/>\n"
	    "<asset><mesh file=\"a.stl\"/></asset>\n"
	    "<compiler meshdir=\"meshes\"/>\n"
	    "</mujoco>\n");
}

/* Where an inline model stands: want, under root. */
static void
home_is(const char *xml, const char *want)
{
	char home[PATH_MAX], err[2048] = "";

	cr_assert_eq(modelrefs_home(xml, strlen(xml), home, sizeof(home), err,
			 sizeof(err)),
	    0, "%s", err);
	cr_assert_str_eq(home, at(want), "%s", xml);
}

Test(modelrefs, inline_models_stand_in_a_model_directory)
{
	static const char
	    inside[] = "<mujoco><asset><mesh file=\"meshes/a.stl\"/>"
		       "</asset></mujoco>";
	static const char out[] = "<mujoco>\n<asset>\n<mesh "
				  "file=\"../outside/secret.stl\"/>\n"
				  "</asset></mujoco>";
	static const char want[] = "the model names ../outside/secret.stl "
				   "(<mesh> on line 3 of the inline model)";
	char err[2048] = "";

	/* The first directory where all it names exists, else the first. */
	home_is("<mujoco/>", "models");
	home_is(inside, "models");
	home_is("<mujoco><include file=\"only2.xml\"/></mujoco>", "models2");
	home_is("<mujoco><include file=\"only2.xml\"/><asset><mesh "
		"file=\"meshes/a.stl\"/></asset></mujoco>",
	    "models");
	home_is("<mujoco><compiler meshdir=\"meshes\"/><asset><mesh "
		"file=\"a.stl\"/></asset></mujoco>",
	    "models");
	home_is("<mujoco><include file=\"none.xml\"/></mujoco>", "models");
	/* What exists outside counts for nothing: it tells nothing. */
	home_is("<mujoco><include file=\"only2.xml\"/><asset><mesh "
		"file=\"../outside/secret.stl\"/></asset></mujoco>",
	    "models");
	home_is("<mujoco><include file=\"only2.xml\"/><asset><mesh "
		"file=\"../outside/none.stl\"/></asset></mujoco>",
	    "models");
	/* Not where the daemon runs: the same from anywhere. */
	cr_assert_eq(chdir(at("outside")), 0);
	home_is("<mujoco><asset><mesh file=\"secret.stl\"/></asset></mujoco>",
	    "models");
	cr_assert_eq(modelrefs_check(at("models/inline.xml"), inside,
			 strlen(inside), err, sizeof(err)),
	    0, "%s", err);
	cr_assert_eq(modelrefs_check(at("models2/inline.xml"), inside,
			 strlen(inside), err, sizeof(err)),
	    0, "a missing file inside: MuJoCo says it is missing");
	cr_assert_eq(modelrefs_check(at("models/inline.xml"), out, strlen(out),
			 err, sizeof(err)),
	    RESULT_DENIED);
	cr_assert_eq(strncmp(err, want, strlen(want)), 0, "%s", err);
	cr_assert_eq(modelrefs_check(at("models/inline.xml"),
			 "<mujoco><include file=\"evil.xml\"/></mujoco>", 43,
			 err, sizeof(err)),
	    RESULT_DENIED, "what it includes is checked where it stands");
	home_is("<mujoco><include file=\"../outside/evil.xml\"/></mujoco>",
	    "models");
}

/*
 * Files an inline model carries (modelassets.h): a name one serves, by
 * MuJoCo's VFS rule (its last part, A-Z lowered), is taken without the
 * disk, outside the model directories or not; an include it serves is
 * walked from its bytes; every other name is judged as before.
 */
Test(modelrefs, carried_files_are_taken_and_nothing_else)
{
	static const char
	    out[] = "<mujoco><asset><mesh file=\"../outside/secret.stl\"/>"
		    "</asset></mujoco>",
	    inc[] = "<mujoco><include file=\"parts/body.xml\"/></mujoco>";
	struct model_asset a[2] = {
		{ "Secret.STL", "solid", 5 },
		{ "parts/body.xml",
		    "<mujoco><include file=\"/etc/passwd\"/>"
		    "</mujoco>",
		    0 },
	};
	char err[2048] = "", key[64], home[PATH_MAX];

	a[1].len = strlen(a[1].data);

	cr_assert_eq(modelrefs_check_assets(at("models/inline.xml"), out,
			 strlen(out), NULL, 0, err, sizeof(err)),
	    RESULT_DENIED);
	cr_assert_eq(modelrefs_check_assets(at("models/inline.xml"), out,
			 strlen(out), a, 1, err, sizeof(err)),
	    0, "%s", err);
	/* The include carried is read from its bytes: what it names too. */
	cr_assert_eq(modelrefs_check_assets(at("models/inline.xml"), inc,
			 strlen(inc), a, 2, err, sizeof(err)),
	    RESULT_DENIED);
	cr_assert(strstr(err, "/etc/passwd") != NULL, "%s", err);
	a[1].data = "<mujoco><body/></mujoco>";
	a[1].len = strlen(a[1].data);
	cr_assert_eq(modelrefs_check_assets(at("models/inline.xml"), inc,
			 strlen(inc), a, 2, err, sizeof(err)),
	    0, "%s", err);
	/* Carried files count as found where an inline model stands. */
	cr_assert_eq(modelrefs_home_assets(inc, strlen(inc), a, 2, home,
			 sizeof(home), err, sizeof(err)),
	    0);
	cr_assert_str_eq(home, at("models"));

	/* The key: the last part after '/' or '\\', A-Z lowered only. */
	cr_assert_eq(modelassets_key("meshes\\Hand.STL", key, sizeof(key)), 0);
	cr_assert_str_eq(key, "hand.stl");
	cr_assert_eq(modelassets_key("a/\xc3\x89.STL", key, sizeof(key)), 0);
	cr_assert_str_eq(key, "\xc3\x89.stl");
	cr_assert_eq(modelassets_key("meshes/", key, sizeof(key)), -1);
	cr_assert_eq(modelassets_find(a, 2, "/anywhere/SECRET.stl"), &a[0]);
	cr_assert_null(modelassets_find(a, 2, "secret.stl.bak"));
	cr_assert_eq(modelassets_check(a, 2, "inline.xml", err, sizeof(err)), 0,
	    "%s", err);
	a[1].name = "other/secret.stl";
	cr_assert_eq(modelassets_check(a, 2, "inline.xml", err, sizeof(err)),
	    RESULT_BADVALUE);
	cr_assert(
	    strstr(err, "assets 1 (\"Secret.STL\") and 2") != NULL, "%s", err);
}

/*
 * What MuJoCo reads and expat refuses (MPL_Pouring.xml's
 * pos="0 0 0.005"condim="4") is read as MuJoCo reads it: checked, not
 * refused for its syntax, and no name slips past in MuJoCo's spelling.
 */
Test(modelrefs, names_are_read_as_mujoco_reads_them)
{
	check_ok("m.xml",
	    "<!-- -- -->\n"
	    "<mujoco>\n"
	    "<asset><mesh name=\"a\"file=\"meshes/a.stl\"/></asset>\n"
	    "<worldbody><geom pos=\"0 0 0.005\"condim=\"4\"/></worldbody>\n"
	    "</mujoco>\n");
	check_denied("m.xml",
	    "<mujoco>\n"
	    "<asset>\n"
	    "<mesh name=\"a\"file=\"../outside/secret.stl\"/>\n"
	    "</asset>\n"
	    "</mujoco>\n",
	    "../outside/secret.stl", "mesh", 3, NULL);
	check_denied("m.xml",
	    "<mujoco>\n<asset>\n<mesh file=\"&#46;&#46;/outside/secret.stl\"/>"
	    "\n</asset>\n</mujoco>\n",
	    "../outside/secret.stl", "mesh", 3, NULL);
	/* An entity it does not know, after a shorter one: a stale byte. */
	check_denied("m.xml",
	    "<mujoco>\n<asset>\n<mesh file=\"&#x2e;./outside/&nope;\"/>"
	    "\n</asset>\n</mujoco>\n",
	    "../outside/snope;", "mesh", 3, NULL);
	/* An include too: the file included is read the same way. */
	put("models/sub/inc.xml",
	    "<mujoco><asset><mesh name=\"x\"file=\"../../outside/secret.stl\""
	    "/></asset></mujoco>\n");
	check_denied("m.xml",
	    "<mujoco>\n<include file=\"sub/inc.xml\"/>\n</mujoco>\n",
	    "../../outside/secret.stl", "mesh", 1, "models/sub/inc.xml");
}

Test(modelrefs, not_xml)
{
	static const char junk[] = "<mujoco><asset>";
	char err[2048] = "";

	cr_assert_eq(modelrefs_check(at("models/inline.xml"), junk,
			 sizeof(junk) - 1, err, sizeof(err)),
	    RESULT_LOADFAILED);
	cr_assert_eq(
	    strncmp(err, "the model is not XML that MuJoCo reads: ", 40), 0,
	    "%s", err);
	cr_assert_eq(
	    modelrefs_check(at("models/none.xml"), NULL, 0, err, sizeof(err)),
	    RESULT_LOADFAILED);
}
