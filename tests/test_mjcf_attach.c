/*
 * Unit tests of attach (daemon/mjcf_attach.c) at the tree level, without
 * MuJoCo: a body from another tree or from the tree itself, renamed with
 * a prefix and a suffix with everything it refers to and everything that
 * refers only to it, its assets (files made absolute), its classes;
 * bodies at sites taking the site's frame; and the refusals.  What is
 * written is compared as text, and each refusal by its words.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "mjcf.h"
#include "mjcf_attach.h"
#include "mjcf_check.h"
#include "mjcf_edit.h"

TestSuite(mjcf_attach, .timeout = 30);

/* An attach op; src NULL: from the tree itself. */
static struct mjcf_edit_op
op_attach(const struct mjcf_doc *src, const char *type, const char *name,
    const char *parent_type, const char *parent_name, const char *prefix,
    const char *suffix)
{
	struct mjcf_edit_op op = { .kind = MJCF_EDIT_ATTACH,
		.type = type,
		.name = name,
		.parent_type = parent_type,
		.parent_name = parent_name,
		.source = src,
		.source_dir = "/src",
		.source_label = src != NULL ? "src.xml" : NULL,
		.prefix = prefix,
		.suffix = suffix };

	return op;
}

/*
 * Attach into the tree of xml from the tree of src_xml (NULL: itself);
 * assert the result and, when it fails, the reason; return the tree.
 */
static struct mjcf_doc *
attach(const char *xml, const char *src_xml, const char *type, const char *name,
    const char *parent_type, const char *parent_name, const char *prefix,
    const char *suffix, int rc, const char *why_want)
{
	struct mjcf_doc *doc = mjcf_check_parse(xml), *src = NULL;
	struct mjcf_edit_op op;
	char why[1024] = "";

	if (src_xml != NULL)
		src = mjcf_check_parse(src_xml);
	op = op_attach(
	    src, type, name, parent_type, parent_name, prefix, suffix);
	cr_assert_eq(mjcf_attach(doc, &op, why, sizeof(why)), rc, "%s", why);
	if (why_want != NULL)
		cr_assert_str_eq(why, why_want);
	mjcf_free(src);
	return doc;
}

/*
 * A source with a body that refers to assets and is referred to by a
 * tendon, an exclude, actuators and sensors, next to a body that does
 * not come.
 */
static const char
    hand[] = "<mujoco>"
	     "<compiler meshdir=\"meshes\" texturedir=\"tex\"/>"
	     "<asset>"
	     "<mesh file=\"parts/finger.stl\"/>"
	     "<mesh name=\"unused\" file=\"u.stl\"/>"
	     "<texture name=\"skin\" type=\"2d\" file=\"skin.png\"/>"
	     "<material name=\"mat\" texture=\"skin\"/>"
	     "</asset>"
	     "<worldbody>"
	     "<body name=\"base\"><geom name=\"base\" size=\"1\"/>"
	     "<camera name=\"cam\" mode=\"targetbody\" target=\"other\"/>"
	     "<body name=\"finger\" pos=\"0 0 1\"><joint name=\"j\"/>"
	     "<geom name=\"fg\" type=\"mesh\" mesh=\"finger\" material=\"mat\"/>"
	     "<site name=\"tip\"/></body></body>"
	     "<body name=\"other\"><joint name=\"oj\"/></body>"
	     "</worldbody>"
	     "<tendon><fixed name=\"t\"><joint joint=\"j\" coef=\"1\"/></fixed>"
	     "</tendon>"
	     "<contact><exclude body1=\"base\" body2=\"finger\"/>"
	     "<exclude body1=\"finger\" body2=\"other\"/></contact>"
	     "<actuator><motor name=\"m\" joint=\"j\"/><motor name=\"mo\" "
	     "joint=\"oj\"/><motor name=\"mt\" tendon=\"t\"/></actuator>"
	     "<sensor><touch name=\"touch\" site=\"tip\"/>"
	     "<actuatorfrc name=\"fm\" actuator=\"mt\"/>"
	     "<framepos objtype=\"body\" objname=\"other\"/></sensor>"
	     "</mujoco>";

static const char
    scene[] = "<mujoco><worldbody><geom name=\"floor\" size=\"1\"/>"
	      "<body name=\"table\"><site name=\"spot\" pos=\"1 2 3\"/></body>"
	      "</worldbody></mujoco>";

Test(mjcf_attach, renames_what_comes_and_leaves_the_rest)
{
	struct mjcf_doc *doc;

	doc = attach(
	    scene, hand, "body", "base", "body", "table", "l_", "_1", 0, NULL);
	/*
	 * The camera targets a body that does not come: left out.  The
	 * mesh named by its file gets its name (appended); its file and the
	 * texture's are made absolute in the source's meshdir and
	 * texturedir.  The unused mesh, the motor on "oj", the exclude and
	 * the sensor naming "other" stay behind; the motor on the tendon
	 * and the sensor on that motor come.
	 */
	mjcf_check_doc(doc,
	    "<mujoco>\n"
	    "  <worldbody>\n"
	    "    <geom name=\"floor\" size=\"1\"/>\n"
	    "    <body name=\"table\">\n"
	    "      <site name=\"spot\" pos=\"1 2 3\"/>\n"
	    "      <body name=\"l_base_1\">\n"
	    "        <geom name=\"l_base_1\" size=\"1\"/>\n"
	    "        <body name=\"l_finger_1\" pos=\"0 0 1\">\n"
	    "          <joint name=\"l_j_1\"/>\n"
	    "          <geom name=\"l_fg_1\" type=\"mesh\" mesh=\"l_finger_1\" "
	    "material=\"l_mat_1\"/>\n"
	    "          <site name=\"l_tip_1\"/>\n"
	    "        </body>\n"
	    "      </body>\n"
	    "    </body>\n"
	    "  </worldbody>\n"
	    "  <asset>\n"
	    "    <mesh file=\"/src/meshes/parts/finger.stl\" "
	    "name=\"l_finger_1\"/>\n"
	    "    <texture name=\"l_skin_1\" type=\"2d\" "
	    "file=\"/src/tex/skin.png\"/>\n"
	    "    <material name=\"l_mat_1\" texture=\"l_skin_1\"/>\n"
	    "  </asset>\n"
	    "  <tendon>\n"
	    "    <fixed name=\"l_t_1\">\n"
	    "      <joint joint=\"l_j_1\" coef=\"1\"/>\n"
	    "    </fixed>\n"
	    "  </tendon>\n"
	    "  <contact>\n"
	    "    <exclude body1=\"l_base_1\" body2=\"l_finger_1\"/>\n"
	    "  </contact>\n"
	    "  <actuator>\n"
	    "    <motor name=\"l_m_1\" joint=\"l_j_1\"/>\n"
	    "    <motor name=\"l_mt_1\" tendon=\"l_t_1\"/>\n"
	    "  </actuator>\n"
	    "  <sensor>\n"
	    "    <touch name=\"l_touch_1\" site=\"l_tip_1\"/>\n"
	    "    <actuatorfrc name=\"l_fm_1\" actuator=\"l_mt_1\"/>\n"
	    "  </sensor>\n"
	    "</mujoco>\n");
	mjcf_free(doc);
}

/* A source with classes: main, a chain of two, and one unused. */
static const char
    classy[] = "<mujoco>"
	       "<default><geom rgba=\"1 0 0 1\"/>"
	       "<default class=\"pad\"><geom friction=\"2\"/>"
	       "<default class=\"softpad\"><geom solref=\"0.1 1\"/></default>"
	       "</default>"
	       "<default class=\"spare\"><geom friction=\"3\"/></default>"
	       "</default>"
	       "<worldbody><body name=\"b\"><geom name=\"g\" class=\"softpad\"/>"
	       "<geom name=\"h\"/></body></worldbody>"
	       "</mujoco>";

Test(mjcf_attach, brings_the_classes_used_under_its_main_renamed)
{
	struct mjcf_doc *doc;

	/*
	 * The source's main becomes the class r_main, holding the classes
	 * used (softpad and the pad it is in), renamed; spare stays
	 * behind; the body takes r_main as its childclass.
	 */
	doc = attach(
	    scene, classy, "body", "b", "worldbody", "", "r_", NULL, 0, NULL);
	mjcf_check_doc(doc,
	    "<mujoco>\n"
	    "  <worldbody>\n"
	    "    <geom name=\"floor\" size=\"1\"/>\n"
	    "    <body name=\"table\">\n"
	    "      <site name=\"spot\" pos=\"1 2 3\"/>\n"
	    "    </body>\n"
	    "    <body name=\"r_b\" childclass=\"r_main\">\n"
	    "      <geom name=\"r_g\" class=\"r_softpad\"/>\n"
	    "      <geom name=\"r_h\"/>\n"
	    "    </body>\n"
	    "  </worldbody>\n"
	    "  <default>\n"
	    "    <default class=\"r_main\">\n"
	    "      <geom rgba=\"1 0 0 1\"/>\n"
	    "      <default class=\"r_pad\">\n"
	    "        <geom friction=\"2\"/>\n"
	    "        <default class=\"r_softpad\">\n"
	    "          <geom solref=\"0.1 1\"/>\n"
	    "        </default>\n"
	    "      </default>\n"
	    "    </default>\n"
	    "  </default>\n"
	    "</mujoco>\n");
	mjcf_free(doc);
}

Test(mjcf_attach, without_a_prefix_main_is_named_after_the_body)
{
	struct mjcf_doc *doc;
	struct mjcf_node *b;

	doc = attach("<mujoco><worldbody/></mujoco>", classy, "body", "b",
	    "worldbody", "", NULL, NULL, 0, NULL);
	b = mjcf_first_child(
	    mjcf_first_child(mjcf_root(doc), "worldbody"), "body");
	cr_assert_str_eq(mjcf_attr_get(b, "name"), "b");
	cr_assert_str_eq(mjcf_attr_get(b, "childclass"), "b_main");
	mjcf_free(doc);
	/* a class of that name already there */
	mjcf_free(attach("<mujoco><default><default class=\"b_main\"/>"
			 "</default><worldbody/></mujoco>",
	    classy, "body", "b", "worldbody", "", NULL, NULL, -1,
	    "the model already has a class named \"b_main\""));
	mjcf_free(attach("<mujoco><default><default class=\"r_pad\"/>"
			 "</default><worldbody/></mujoco>",
	    classy, "body", "b", "worldbody", "", "r_", NULL, -1,
	    "the model already has a class named \"r_pad\""));
}

Test(mjcf_attach, refuses_names_the_model_has)
{
	mjcf_free(attach("<mujoco><worldbody><body name=\"l_finger\"/>"
			 "</worldbody></mujoco>",
	    hand, "body", "base", "worldbody", "", "l_", NULL, -1,
	    "the model already has a body named \"l_finger\""));
	/* the same name in another category is no collision */
	mjcf_free(attach("<mujoco><worldbody><geom name=\"l_finger\" "
			 "size=\"1\"/></worldbody></mujoco>",
	    hand, "body", "base", "worldbody", "", "l_", NULL, 0, NULL));
	mjcf_free(attach("<mujoco><actuator><motor name=\"l_mt\" "
			 "joint=\"x\"/></actuator></mujoco>",
	    hand, "body", "base", "worldbody", "", "l_", NULL, -1,
	    "the model already has an actuator named \"l_mt\""));
	mjcf_free(attach("<mujoco><asset><mesh file=\"a/l_finger.obj\"/>"
			 "</asset></mujoco>",
	    hand, "body", "base", "worldbody", "", "l_", NULL, -1,
	    "the model already has a mesh named \"l_finger\""));
}

Test(mjcf_attach, refuses_what_is_not_there)
{
	mjcf_free(attach(scene, hand, "body", "nope", "worldbody", "", "x_",
	    NULL, -1, "the source has no body named \"nope\""));
	mjcf_free(attach(scene, hand, "body", "", "worldbody", "", "x_", NULL,
	    -1, "the source has no body named \"\""));
	mjcf_free(attach(scene, hand, "body", "base", "site", "nope", "x_",
	    NULL, -1, "the model has no site named \"nope\""));
	mjcf_free(attach(scene, hand, "body", "base", "body", "spot", "x_",
	    NULL, -1, "the model has no body named \"spot\""));
	mjcf_free(
	    attach(scene, hand, "body", "base", "geom", "floor", "x_", NULL, -1,
		"attach goes under \"worldbody\", a body or a site, not "
		"\"geom\""));
	mjcf_free(
	    attach(scene, hand, "geom", "base", "worldbody", "", "x_", NULL, -1,
		"attach takes a body, or \"worldbody\" for all the worldbody "
		"holds"));
	mjcf_free(attach(scene, "<mujoco><worldbody/></mujoco>", "worldbody",
	    "", "worldbody", "", "x_", NULL, -1,
	    "the source's worldbody is empty"));
}

/* A tree that attaches from itself. */
static const char
    self[] = "<mujoco><worldbody>"
	     "<body name=\"a\"><joint name=\"ja\" type=\"slide\"/>"
	     "<geom name=\"ga\" size=\"1\"/>"
	     "<body name=\"b\"><site name=\"s\"/></body></body>"
	     "</worldbody>"
	     "<actuator><motor name=\"ma\" joint=\"ja\"/></actuator>"
	     "</mujoco>";

Test(mjcf_attach, copies_a_body_of_the_model_itself)
{
	struct mjcf_doc *doc;

	doc = attach(
	    self, NULL, "body", "a", "worldbody", "", "copy_", NULL, 0, NULL);
	mjcf_check_doc(doc,
	    "<mujoco>\n"
	    "  <worldbody>\n"
	    "    <body name=\"a\">\n"
	    "      <joint name=\"ja\" type=\"slide\"/>\n"
	    "      <geom name=\"ga\" size=\"1\"/>\n"
	    "      <body name=\"b\">\n"
	    "        <site name=\"s\"/>\n"
	    "      </body>\n"
	    "    </body>\n"
	    "    <body name=\"copy_a\">\n"
	    "      <joint name=\"copy_ja\" type=\"slide\"/>\n"
	    "      <geom name=\"copy_ga\" size=\"1\"/>\n"
	    "      <body name=\"copy_b\">\n"
	    "        <site name=\"copy_s\"/>\n"
	    "      </body>\n"
	    "    </body>\n"
	    "  </worldbody>\n"
	    "  <actuator>\n"
	    "    <motor name=\"ma\" joint=\"ja\"/>\n"
	    "  </actuator>\n"
	    "  <actuator>\n"
	    "    <motor name=\"copy_ma\" joint=\"copy_ja\"/>\n"
	    "  </actuator>\n"
	    "</mujoco>\n");
	mjcf_free(doc);
	/* b is a's, and so can take a copy of b */
	doc = attach(self, NULL, "body", "b", "body", "a", "c_", NULL, 0, NULL);
	cr_assert_eq(mjcf_node_count(doc), 9 + 2);
	mjcf_free(doc);
}

Test(mjcf_attach, refuses_a_body_into_itself)
{
	mjcf_free(attach(self, NULL, "body", "a", "body", "b", "c_", NULL, -1,
	    "the body \"b\" is inside the body attached: a body cannot be "
	    "attached into itself"));
	mjcf_free(attach(self, NULL, "body", "a", "body", "a", "c_", NULL, -1,
	    "the body \"a\" is inside the body attached: a body cannot be "
	    "attached into itself"));
	mjcf_free(attach(self, NULL, "body", "a", "site", "s", "c_", NULL, -1,
	    "the site \"s\" is inside the body attached: a body cannot be "
	    "attached into itself"));
	mjcf_free(attach(self, NULL, "worldbody", "", "worldbody", "", "c_",
	    NULL, -1, "this model's worldbody cannot be attached into itself"));
	/* without a prefix every name collides */
	mjcf_free(attach(self, NULL, "body", "b", "worldbody", "", NULL, NULL,
	    -1, "the model already has a body named \"b\""));
}

Test(mjcf_attach, refuses_compiler_settings_that_differ)
{
	static const char
	    radian[] = "<mujoco><compiler angle=\"radian\"/><worldbody><body "
		       "name=\"b\"/></worldbody></mujoco>";
	static const char plain
	    [] = "<mujoco><worldbody><body name=\"b\"/></worldbody></mujoco>";

	mjcf_free(
	    attach(scene, radian, "body", "b", "worldbody", "", "x_", NULL, -1,
		"the source's compiler has angle=\"radian\" and this model's "
		"angle=\"degree\": what is attached would not compile as it "
		"does in the source (give the source angle=\"degree\")"));
	/* the last <compiler> is the one that counts */
	mjcf_free(attach("<mujoco><compiler angle=\"radian\"/><compiler "
			 "angle=\"degree\"/><worldbody/></mujoco>",
	    radian, "body", "b", "worldbody", "", "x_", NULL, -1, NULL));
	/* numbers compared as numbers */
	mjcf_free(attach("<mujoco><compiler boundmass=\"0.0\" "
			 "inertiagrouprange=\"0 5.0\"/></mujoco>",
	    plain, "body", "b", "worldbody", "", "x_", NULL, 0, NULL));
	mjcf_free(attach("<mujoco><compiler boundmass=\"0.01\"/></mujoco>",
	    plain, "body", "b", "worldbody", "", "x_", NULL, -1,
	    "the source's compiler has boundmass=\"0\" and this model's "
	    "boundmass=\"0.01\": what is attached would not compile as it "
	    "does in the source (give the source boundmass=\"0.01\")"));
	/* a source without autolimits compiles alike with them */
	mjcf_free(attach("<mujoco><compiler autolimits=\"true\"/></mujoco>",
	    plain, "body", "b", "worldbody", "", "x_", NULL, 0, NULL));
	mjcf_free(attach(scene,
	    "<mujoco><compiler autolimits=\"true\"/><worldbody><body "
	    "name=\"b\"/></worldbody></mujoco>",
	    "body", "b", "worldbody", "", "x_", NULL, -1,
	    "the source's compiler has autolimits=\"true\" and this model's "
	    "autolimits=\"false\": what is attached would not compile as it "
	    "does in the source (give the source autolimits=\"false\")"));
}

Test(mjcf_attach, refuses_a_main_class_the_source_does_not_share)
{
	static const char red[] = "<mujoco><default><geom rgba=\"1 0 0 1\"/>"
				  "</default><worldbody/></mujoco>";

	mjcf_free(
	    attach(red, hand, "body", "base", "worldbody", "", "x_", NULL, -1,
		"this model's main default class sets geom rgba, which the "
		"source's does not: the attached elements would take it"));
	/* the source sets it too: the attached take the source's */
	mjcf_free(attach(
	    red, classy, "body", "b", "worldbody", "", "x_", NULL, 0, NULL));
	/* no geom comes: nothing takes it */
	mjcf_free(attach(red,
	    "<mujoco><worldbody><body name=\"b\"><site name=\"s\"/></body>"
	    "</worldbody></mujoco>",
	    "body", "b", "worldbody", "", "x_", NULL, 0, NULL));
}

Test(mjcf_attach, strippath_refuses_files_and_strips_the_sources)
{
	struct mjcf_doc *doc;
	struct mjcf_node *mesh;

	mjcf_free(attach("<mujoco><compiler strippath=\"true\"/></mujoco>",
	    hand, "body", "base", "worldbody", "", "x_", NULL, -1,
	    "this model's compiler has strippath=\"true\", which would take "
	    "the directories out of the files the attached assets name"));
	doc = attach(scene,
	    "<mujoco><compiler strippath=\"true\" meshdir=\"/m\"/><asset>"
	    "<mesh name=\"k\" file=\"deep/down/k.stl\"/></asset><worldbody>"
	    "<body name=\"b\"><geom type=\"mesh\" mesh=\"k\"/></body>"
	    "</worldbody></mujoco>",
	    "body", "b", "worldbody", "", "x_", NULL, 0, NULL);
	mesh = mjcf_first_child(
	    mjcf_first_child(mjcf_root(doc), "asset"), "mesh");
	cr_assert_str_eq(mjcf_attr_get(mesh, "file"), "/m/k.stl");
	cr_assert_str_eq(mjcf_attr_get(mesh, "name"), "x_k");
	mjcf_free(doc);
}

Test(mjcf_attach, takes_all_the_worldbody_holds)
{
	struct mjcf_doc *doc;

	doc = attach("<mujoco><worldbody/></mujoco>",
	    "<mujoco><worldbody><geom name=\"g\" size=\"1\"/><body "
	    "name=\"b\"/><light name=\"l\"/></worldbody></mujoco>",
	    "worldbody", "", "worldbody", "", "w_", NULL, 0, NULL);
	mjcf_check_doc(doc,
	    "<mujoco>\n"
	    "  <worldbody>\n"
	    "    <geom name=\"w_g\" size=\"1\"/>\n"
	    "    <body name=\"w_b\"/>\n"
	    "    <light name=\"w_l\"/>\n"
	    "  </worldbody>\n"
	    "</mujoco>\n");
	mjcf_free(doc);
	/* a geom cannot go at a site */
	mjcf_free(attach(scene,
	    "<mujoco><worldbody><geom name=\"g\" size=\"1\"/></worldbody>"
	    "</mujoco>",
	    "worldbody", "", "site", "spot", "w_", NULL, -1,
	    "only bodies go at a site, and the source's worldbody holds a "
	    "geom"));
}

/* Read the n numbers of attribute attr of doc's body named name. */
static void
body_numbers(const struct mjcf_doc *doc, const char *name, const char *attr,
    double *v, int n)
{
	const struct mjcf_node *root = mjcf_root(doc), *k;
	const char *s = NULL, *val;
	char *end;
	int i;

	for (k = mjcf_walk(root, root); k != NULL; k = mjcf_walk(root, k))
		if (strcmp(k->name, "body") == 0 &&
		    (val = mjcf_attr_get(k, "name")) != NULL &&
		    strcmp(val, name) == 0)
			s = mjcf_attr_get(k, attr);
	cr_assert_not_null(s, "body %s has no %s", name, attr);
	for (i = 0; i < n; i++, s = end) {
		v[i] = strtod(s, &end);
		cr_assert_neq(end, s, "%s of %s", attr, name);
	}
}

/* Assert that v is want (n values) within 1e-12. */
static void
assert_near(const double *v, const double *want, int n, const char *what)
{
	int i;

	for (i = 0; i < n; i++)
		cr_assert(fabs(v[i] - want[i]) < 1e-12,
		    "%s[%d] is %.17g, not %.17g", what, i, v[i], want[i]);
}

Test(mjcf_attach, a_body_at_a_site_takes_its_frame)
{
	static const char
	    turned[] = "<mujoco><default><default class=\"quarter\"><site "
		       "euler=\"0 0 90\"/></default></default><worldbody>"
		       "<body name=\"t\" pos=\"5 5 5\">"
		       "<site name=\"half\" pos=\"1 2 3\" quat=\"0 0 0 2\"/>"
		       "<site name=\"q\" class=\"quarter\" pos=\"0 0 1\"/>"
		       "<site name=\"plain\"/>"
		       "</body></worldbody></mujoco>";
	static const char
	    part[] = "<mujoco><worldbody><body name=\"p\" pos=\"1 0 0\" "
		     "axisangle=\"0 0 1 90\"/></worldbody></mujoco>";
	static const double s = 0.70710678118654757;
	struct mjcf_doc *doc;
	double v[4];

	/*
	 * Half a turn about z (the quat scaled to unit length): the body's
	 * (1 0 0) goes to (-1 0 0), then to the site's (1 2 3); its own
	 * quarter turn about z follows the half.  The site's position is
	 * in its body's frame, as the copy is: the body's own 5 5 5 is not
	 * added.
	 */
	doc = attach(
	    turned, part, "body", "p", "site", "half", "a_", NULL, 0, NULL);
	body_numbers(doc, "a_p", "pos", v, 3);
	assert_near(v, (const double[]){ 0, 2, 3 }, 3, "pos");
	body_numbers(doc, "a_p", "quat", v, 4);
	assert_near(v, (const double[]){ -s, 0, 0, s }, 4, "quat");
	cr_assert_null(
	    mjcf_attr_get(
		mjcf_first_child(
		    mjcf_first_child(
			mjcf_first_child(mjcf_root(doc), "worldbody"), "body"),
		    "body"),
		"axisangle"),
	    "the body's own orientation is replaced by quat");
	mjcf_free(doc);
	/* The site's orientation from its class, in degrees. */
	doc = attach(
	    turned, part, "body", "p", "site", "q", "b_", NULL, 0, NULL);
	body_numbers(doc, "b_p", "pos", v, 3);
	assert_near(v, (const double[]){ 0, 1, 1 }, 3, "pos");
	body_numbers(doc, "b_p", "quat", v, 4);
	assert_near(v, (const double[]){ 0, 0, 0, 1 }, 4, "quat");
	mjcf_free(doc);
	/* A site of no frame of its own: the body's frame unchanged. */
	doc = attach(
	    turned, part, "body", "p", "site", "plain", "c_", NULL, 0, NULL);
	body_numbers(doc, "c_p", "pos", v, 3);
	assert_near(v, (const double[]){ 1, 0, 0 }, 3, "pos");
	body_numbers(doc, "c_p", "quat", v, 4);
	assert_near(v, (const double[]){ s, 0, 0, s }, 4, "quat");
	mjcf_free(doc);
	/* global coordinates have no site frames to take */
	mjcf_free(attach("<mujoco><compiler coordinate=\"global\"/>"
			 "<worldbody><site name=\"s\"/></worldbody></mujoco>",
	    "<mujoco><compiler coordinate=\"global\"/><worldbody><body "
	    "name=\"p\"/></worldbody></mujoco>",
	    "body", "p", "site", "s", "d_", NULL, -1,
	    "this model's compiler has coordinate=\"global\": a site's frame "
	    "is not its body's"));
	mjcf_free(attach(turned,
	    "<mujoco><worldbody><body name=\"p\" quat=\"0 0 0 0\"/>"
	    "</worldbody></mujoco>",
	    "body", "p", "site", "plain", "e_", NULL, -1,
	    "the body's quat cannot be read"));
}

Test(mjcf_attach, through_an_edit_transaction)
{
	struct mjcf_doc *doc = mjcf_check_parse(scene),
			*src = mjcf_check_parse(hand);
	struct mjcf_edit_op op = op_attach(
	    src, "body", "finger", "worldbody", "", "r_", NULL);
	struct mjcf_edit_removed removed = { 0 };
	char err[1024];

	cr_assert_eq(mjcf_edit_apply(doc, &op, 1, &removed, err, sizeof(err)),
	    0, "%s", err);
	cr_assert_null(removed.text, "an attach removes nothing");
	/* finger alone: the exclude needs base, the tendon comes */
	cr_assert_not_null(mjcf_first_child(mjcf_root(doc), "tendon"));
	cr_assert_null(mjcf_first_child(mjcf_root(doc), "contact"));
	mjcf_free(doc);
	mjcf_free(src);
}
