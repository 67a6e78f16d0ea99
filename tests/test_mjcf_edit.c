/*
 * Unit tests of the edits of an MJCF tree (daemon/mjcf_edit.c), at the
 * tree level, without MuJoCo: trees parsed from text, edit operations
 * applied, and the text written back or the error compared exactly.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "mjcf.h"
#include "mjcf_check.h"
#include "mjcf_edit.h"

TestSuite(mjcf_edit, .timeout = 30);

/*
 * Apply ops to the tree of xml; assert the result (0 or -1), the error
 * (when failing) and the removed list (NULL: none), and return the tree.
 */
static struct mjcf_doc *
edit(const char *xml, const struct mjcf_edit_op *ops, size_t n, int rc,
    const char *err_want, const char *removed_want)
{
	struct mjcf_doc *doc = mjcf_check_parse(xml);
	struct mjcf_edit_removed removed = { 0 };
	char err[1024] = "";

	cr_assert_eq(mjcf_edit_apply(doc, ops, n, &removed, err, sizeof(err)),
	    rc, "%s", err);
	if (err_want != NULL)
		cr_assert_str_eq(err, err_want);
	if (removed_want == NULL)
		cr_assert_null(removed.text, "removed: %s", removed.text);
	else {
		cr_assert_not_null(removed.text);
		cr_assert_str_eq(removed.text, removed_want);
		cr_assert_eq(removed.len, strlen(removed_want));
	}
	free(removed.text);
	return doc;
}

/* A small model with one of each kind of thing that refers by name. */
static const char model
    [] = "<mujoco>"
	 "<default><default class=\"soft\"><geom solref=\"0.1 1\"/></default>"
	 "<default class=\"unused\"><site size=\"0.1\"/></default></default>"
	 "<worldbody>"
	 "<body name=\"arm\"><joint name=\"shoulder\"/>"
	 "<geom name=\"upper\" class=\"soft\" size=\"0.1\"/>"
	 "<body name=\"hand\"><joint name=\"wrist\"/><geom name=\"palm\" "
	 "size=\"0.05\"/><site name=\"tip\"/></body></body>"
	 "<body name=\"box\"><freejoint name=\"box\"/><geom name=\"box\" "
	 "size=\"0.1\"/></body>"
	 "</worldbody>"
	 "<tendon><fixed name=\"sum\"><joint joint=\"shoulder\" coef=\"1\"/>"
	 "<joint joint=\"wrist\" coef=\"1\"/></fixed></tendon>"
	 "<contact><exclude body1=\"hand\" body2=\"box\"/>"
	 "<pair geom1=\"upper\" geom2=\"box\"/></contact>"
	 "<actuator><motor name=\"m_shoulder\" joint=\"shoulder\"/>"
	 "<motor name=\"m_wrist\" joint=\"wrist\"/>"
	 "<motor name=\"m_sum\" tendon=\"sum\"/></actuator>"
	 "<sensor><actuatorfrc name=\"f_wrist\" actuator=\"m_wrist\"/>"
	 "<actuatorfrc name=\"f_sum\" actuator=\"m_sum\"/>"
	 "<framepos name=\"tip_pos\" objtype=\"site\" objname=\"tip\"/>"
	 "<framepos name=\"box_pos\" objtype=\"body\" objname=\"box\"/>"
	 "</sensor>"
	 "</mujoco>";

Test(mjcf_edit, add_appends_a_named_element_with_its_attributes)
{
	static const char *const names[] = { "type", "size" };
	static const char *const values[] = { "sphere", "0.02" };
	struct mjcf_edit_op op = { .kind = MJCF_EDIT_ADD,
		.type = "geom",
		.name = "ball",
		.parent_type = "body",
		.parent_name = "b",
		.attr_names = names,
		.attr_values = values,
		.nattrs = 2 };
	struct mjcf_doc *doc;

	doc = edit("<mujoco><worldbody><body name=\"b\"><geom name=\"g\"/>"
		   "</body></worldbody></mujoco>",
	    &op, 1, 0, NULL, NULL);
	mjcf_check_doc(doc,
	    "<mujoco>\n"
	    "  <worldbody>\n"
	    "    <body name=\"b\">\n"
	    "      <geom name=\"g\"/>\n"
	    "      <geom name=\"ball\" type=\"sphere\" size=\"0.02\"/>\n"
	    "    </body>\n"
	    "  </worldbody>\n"
	    "</mujoco>\n");
	mjcf_free(doc);
}

Test(mjcf_edit, add_into_a_missing_section_makes_it_under_the_root)
{
	static const char *const names[] = { "joint" };
	static const char *const values[] = { "j" };
	struct mjcf_edit_op op = { .kind = MJCF_EDIT_ADD,
		.type = "motor",
		.name = "m",
		.parent_type = "actuator",
		.parent_name = "",
		.attr_names = names,
		.attr_values = values,
		.nattrs = 1 };
	struct mjcf_doc *doc;

	doc = edit("<mujoco><worldbody/></mujoco>", &op, 1, 0, NULL, NULL);
	mjcf_check_doc(doc,
	    "<mujoco>\n"
	    "  <worldbody/>\n"
	    "  <actuator>\n"
	    "    <motor name=\"m\" joint=\"j\"/>\n"
	    "  </actuator>\n"
	    "</mujoco>\n");
	mjcf_free(doc);
}

Test(mjcf_edit, add_finds_the_section_not_a_default_of_its_name)
{
	/* A default class holds an <equality> too: the section is meant. */
	struct mjcf_edit_op op = { .kind = MJCF_EDIT_ADD,
		.type = "weld",
		.name = "w",
		.parent_type = "equality",
		.parent_name = "" };
	struct mjcf_doc *doc;

	doc = edit("<mujoco><default><equality solref=\"0.1 1\"/></default>"
		   "<equality/></mujoco>",
	    &op, 1, 0, NULL, NULL);
	mjcf_check_doc(doc,
	    "<mujoco>\n"
	    "  <default>\n"
	    "    <equality solref=\"0.1 1\"/>\n"
	    "  </default>\n"
	    "  <equality>\n"
	    "    <weld name=\"w\"/>\n"
	    "  </equality>\n"
	    "</mujoco>\n");
	mjcf_free(doc);
}

Test(mjcf_edit, add_a_default_class_names_it_by_class)
{
	struct mjcf_edit_op op = { .kind = MJCF_EDIT_ADD,
		.type = "default",
		.name = "hard",
		.parent_type = "default",
		.parent_name = "main" };
	struct mjcf_doc *doc;

	doc = edit("<mujoco><default/></mujoco>", &op, 1, 0, NULL, NULL);
	mjcf_check_doc(doc,
	    "<mujoco>\n"
	    "  <default>\n"
	    "    <default class=\"hard\"/>\n"
	    "  </default>\n"
	    "</mujoco>\n");
	mjcf_free(doc);
}

Test(mjcf_edit, add_refusals_name_the_operation)
{
	static const char *const badnames[] = { "1bad" };
	static const char *const values[] = { "x" };
	struct mjcf_edit_op missing = { .kind = MJCF_EDIT_ADD,
		.type = "geom",
		.name = "g2",
		.parent_type = "body",
		.parent_name = "nope" };
	struct mjcf_edit_op dup = { .kind = MJCF_EDIT_ADD,
		.type = "geom",
		.name = "g",
		.parent_type = "worldbody",
		.parent_name = "" };
	struct mjcf_edit_op noparent = {
		.kind = MJCF_EDIT_ADD, .type = "geom", .name = "g3"
	};
	struct mjcf_edit_op badelem = { .kind = MJCF_EDIT_ADD,
		.type = "no way",
		.name = "",
		.parent_type = "worldbody" };
	struct mjcf_edit_op badattr = { .kind = MJCF_EDIT_ADD,
		.type = "geom",
		.name = "g4",
		.parent_type = "worldbody",
		.attr_names = badnames,
		.attr_values = values,
		.nattrs = 1 };
	struct mjcf_edit_op notype = { .kind = MJCF_EDIT_ADD, .type = "" };
	static const char xml[] = "<mujoco><worldbody><body name=\"b\">"
				  "<geom name=\"g\"/></body></worldbody>"
				  "</mujoco>";

	mjcf_free(edit(xml, &missing, 1, -1,
	    "operation 1 (add geom \"g2\"): the model has no body named "
	    "\"nope\"",
	    NULL));
	mjcf_free(edit(xml, &dup, 1, -1,
	    "operation 1 (add geom \"g\"): the model has a geom named \"g\" "
	    "already",
	    NULL));
	mjcf_free(edit(xml, &noparent, 1, -1,
	    "operation 1 (add geom \"g3\"): no parent given", NULL));
	mjcf_free(edit(xml, &badelem, 1, -1,
	    "operation 1 (add no way \"\"): 'no way' is not an element name, "
	    "or the model would be too large",
	    NULL));
	mjcf_free(edit(xml, &badattr, 1, -1,
	    "operation 1 (add geom \"g4\"): '1bad' is not an attribute name, "
	    "or its value cannot be written",
	    NULL));
	mjcf_free(edit(xml, &notype, 1, -1,
	    "operation 1 (add  \"\"): no element type", NULL));
}

Test(mjcf_edit, set_changes_in_place_and_appends)
{
	static const char *const names[] = { "size", "rgba" };
	static const char *const values[] = { "0.3", "1 0 0 1" };
	struct mjcf_edit_op op = { .kind = MJCF_EDIT_SET,
		.type = "geom",
		.name = "g",
		.attr_names = names,
		.attr_values = values,
		.nattrs = 2 };
	struct mjcf_doc *doc;

	doc = edit("<mujoco><worldbody><geom name=\"g\" size=\"0.1\" "
		   "type=\"box\"/></worldbody></mujoco>",
	    &op, 1, 0, NULL, NULL);
	mjcf_check_doc(doc,
	    "<mujoco>\n"
	    "  <worldbody>\n"
	    "    <geom name=\"g\" size=\"0.3\" type=\"box\" rgba=\"1 0 0 "
	    "1\"/>\n"
	    "  </worldbody>\n"
	    "</mujoco>\n");
	mjcf_free(doc);
}

Test(mjcf_edit, set_refuses_a_name_and_a_missing_element)
{
	static const char *const names[] = { "name" };
	static const char *const values[] = { "h" };
	struct mjcf_edit_op rename = { .kind = MJCF_EDIT_SET,
		.type = "geom",
		.name = "g",
		.attr_names = names,
		.attr_values = values,
		.nattrs = 1 };
	struct mjcf_edit_op missing = {
		.kind = MJCF_EDIT_SET, .type = "geom", .name = "nope"
	};
	struct mjcf_edit_op noname = {
		.kind = MJCF_EDIT_SET, .type = "geom", .name = ""
	};
	static const char
	    xml[] = "<mujoco><worldbody><geom name=\"g\"/></worldbody></mujoco>";

	mjcf_free(edit(xml, &rename, 1, -1,
	    "operation 1 (set geom \"g\"): a name is set by removing and "
	    "adding",
	    NULL));
	mjcf_free(edit(xml, &missing, 1, -1,
	    "operation 1 (set geom \"nope\"): the model has no geom named "
	    "\"nope\"",
	    NULL));
	mjcf_free(edit(xml, &noname, 1, -1,
	    "operation 1 (set geom \"\"): no element name", NULL));
}

Test(mjcf_edit, unset_removes_and_refuses_what_is_not_there)
{
	static const char *const names[] = { "rgba" };
	static const char *const nameattr[] = { "name" };
	struct mjcf_edit_op op = { .kind = MJCF_EDIT_UNSET,
		.type = "geom",
		.name = "g",
		.attr_names = names,
		.nattrs = 1 };
	struct mjcf_edit_op named = { .kind = MJCF_EDIT_UNSET,
		.type = "geom",
		.name = "g",
		.attr_names = nameattr,
		.nattrs = 1 };
	static const char xml[] = "<mujoco><worldbody><geom name=\"g\" "
				  "rgba=\"1 0 0 1\" size=\"1\"/></worldbody>"
				  "</mujoco>";
	struct mjcf_doc *doc;

	doc = edit(xml, &op, 1, 0, NULL, NULL);
	mjcf_check_doc(doc,
	    "<mujoco>\n"
	    "  <worldbody>\n"
	    "    <geom name=\"g\" size=\"1\"/>\n"
	    "  </worldbody>\n"
	    "</mujoco>\n");
	mjcf_free(doc);
	/* twice: the second finds nothing to unset */
	{
		struct mjcf_edit_op two[2] = { op, op };

		mjcf_free(edit(xml, two, 2, -1,
		    "operation 2 (unset geom \"g\"): it has no attribute "
		    "'rgba' to unset",
		    NULL));
	}
	mjcf_free(edit(xml, &named, 1, -1,
	    "operation 1 (unset geom \"g\"): it has no attribute 'name' to "
	    "unset",
	    NULL));
}

Test(mjcf_edit, set_in_a_default_class_makes_its_settings)
{
	static const char *const names[] = { "rgba" };
	static const char *const values[] = { "0 1 0 1" };
	struct mjcf_edit_op main_set = { .kind = MJCF_EDIT_SET,
		.type = "geom",
		.name = "",
		.parent_type = "default",
		.parent_name = "main",
		.attr_names = names,
		.attr_values = values,
		.nattrs = 1 };
	struct mjcf_edit_op class_set = main_set;
	struct mjcf_doc *doc;

	/* No <default> at all: main's is made. */
	doc = edit(
	    "<mujoco><worldbody/></mujoco>", &main_set, 1, 0, NULL, NULL);
	mjcf_check_doc(doc,
	    "<mujoco>\n"
	    "  <worldbody/>\n"
	    "  <default>\n"
	    "    <geom rgba=\"0 1 0 1\"/>\n"
	    "  </default>\n"
	    "</mujoco>\n");
	mjcf_free(doc);
	/* A class without geom settings gets them; its site's stay. */
	class_set.parent_name = "c";
	doc = edit("<mujoco><default><default class=\"c\"><site size=\"1\"/>"
		   "</default></default></mujoco>",
	    &class_set, 1, 0, NULL, NULL);
	mjcf_check_doc(doc,
	    "<mujoco>\n"
	    "  <default>\n"
	    "    <default class=\"c\">\n"
	    "      <site size=\"1\"/>\n"
	    "      <geom rgba=\"0 1 0 1\"/>\n"
	    "    </default>\n"
	    "  </default>\n"
	    "</mujoco>\n");
	mjcf_free(doc);
	/* A class that is not there is not made. */
	class_set.parent_name = "nope";
	mjcf_free(edit("<mujoco><default/></mujoco>", &class_set, 1, -1,
	    "operation 1 (set geom in default class \"nope\"): the model has "
	    "no default class \"nope\"",
	    NULL));
}

Test(mjcf_edit, unset_in_a_default_class_needs_its_settings)
{
	static const char *const names[] = { "solref" };
	struct mjcf_edit_op op = { .kind = MJCF_EDIT_UNSET,
		.type = "geom",
		.name = "",
		.parent_type = "default",
		.parent_name = "soft",
		.attr_names = names,
		.nattrs = 1 };
	struct mjcf_edit_op site = op;
	struct mjcf_doc *doc;
	struct mjcf_node *g;

	doc = edit(model, &op, 1, 0, NULL, NULL);
	g = mjcf_first_child(
	    mjcf_first_child(
		mjcf_first_child(mjcf_root(doc), "default"), "default"),
	    "geom");
	cr_assert_not_null(g);
	cr_assert_eq(g->nattrs, 0);
	mjcf_free(doc);
	site.type = "site";
	mjcf_free(edit(model, &site, 1, -1,
	    "operation 1 (unset site in default class \"soft\"): the default "
	    "class \"soft\" has no site settings",
	    NULL));
}

Test(mjcf_edit, remove_takes_what_refers_to_what_went)
{
	struct mjcf_edit_op op = {
		.kind = MJCF_EDIT_REMOVE, .type = "body", .name = "hand"
	};
	struct mjcf_doc *doc;

	/*
	 * The wrist went: its motor, the tendon through it, the motor on
	 * the tendon and the sensors on both motors; the site tip: its
	 * sensor; the body: the exclude naming it.  The shoulder's motor,
	 * the pair of upper and box and the box's sensor stay.  Listed
	 * section by section (actuator, sensor, equality, tendon,
	 * contact), then again for what referred to what those took.
	 */
	doc = edit(model, &op, 1, 0, NULL,
	    "body hand\n"
	    "motor m_wrist\n"
	    "actuatorfrc f_wrist\n"
	    "framepos tip_pos\n"
	    "fixed sum\n"
	    "exclude -\n"
	    "motor m_sum\n"
	    "actuatorfrc f_sum\n");
	mjcf_check_doc(doc,
	    "<mujoco>\n"
	    "  <default>\n"
	    "    <default class=\"soft\">\n"
	    "      <geom solref=\"0.1 1\"/>\n"
	    "    </default>\n"
	    "    <default class=\"unused\">\n"
	    "      <site size=\"0.1\"/>\n"
	    "    </default>\n"
	    "  </default>\n"
	    "  <worldbody>\n"
	    "    <body name=\"arm\">\n"
	    "      <joint name=\"shoulder\"/>\n"
	    "      <geom name=\"upper\" class=\"soft\" size=\"0.1\"/>\n"
	    "    </body>\n"
	    "    <body name=\"box\">\n"
	    "      <freejoint name=\"box\"/>\n"
	    "      <geom name=\"box\" size=\"0.1\"/>\n"
	    "    </body>\n"
	    "  </worldbody>\n"
	    "  <tendon/>\n"
	    "  <contact>\n"
	    "    <pair geom1=\"upper\" geom2=\"box\"/>\n"
	    "  </contact>\n"
	    "  <actuator>\n"
	    "    <motor name=\"m_shoulder\" joint=\"shoulder\"/>\n"
	    "  </actuator>\n"
	    "  <sensor>\n"
	    "    <framepos name=\"box_pos\" objtype=\"body\" objname=\"box\"/>\n"
	    "  </sensor>\n"
	    "</mujoco>\n");
	mjcf_free(doc);
}

Test(mjcf_edit, remove_of_an_actuator_takes_its_sensor_only)
{
	struct mjcf_edit_op op = {
		.kind = MJCF_EDIT_REMOVE, .type = "motor", .name = "m_sum"
	};
	struct mjcf_doc *doc;
	struct mjcf_node *sec;

	doc = edit(model, &op, 1, 0, NULL, "motor m_sum\nactuatorfrc f_sum\n");
	sec = mjcf_first_child(mjcf_root(doc), "tendon");
	cr_assert_not_null(mjcf_first_child(sec, "fixed"), "the tendon stays");
	cr_assert_eq(mjcf_node_count(doc), 33 - 2);
	mjcf_free(doc);
}

Test(mjcf_edit, remove_refusals)
{
	struct mjcf_edit_op used = {
		.kind = MJCF_EDIT_REMOVE, .type = "default", .name = "soft"
	};
	struct mjcf_edit_op unused = {
		.kind = MJCF_EDIT_REMOVE, .type = "default", .name = "unused"
	};
	struct mjcf_edit_op root = {
		.kind = MJCF_EDIT_REMOVE, .type = "mujoco", .name = "x"
	};
	struct mjcf_edit_op missing = {
		.kind = MJCF_EDIT_REMOVE, .type = "body", .name = "nope"
	};
	struct mjcf_doc *doc;

	mjcf_free(edit(model, &used, 1, -1,
	    "operation 1 (remove default \"soft\"): the default class "
	    "\"soft\" is used by geom \"upper\"",
	    NULL));
	doc = edit(model, &unused, 1, 0, NULL, "default -\n");
	cr_assert_eq(mjcf_node_count(doc), 33 - 2);
	mjcf_free(doc);
	mjcf_free(edit(model, &root, 1, -1,
	    "operation 1 (remove mujoco \"x\"): cannot be removed", NULL));
	mjcf_free(edit(model, &missing, 1, -1,
	    "operation 1 (remove body \"nope\"): the model has no body named "
	    "\"nope\"",
	    NULL));
}

Test(mjcf_edit, later_operations_see_earlier_ones)
{
	static const char *const names[] = { "size" };
	static const char *const values[] = { "0.5" };
	struct mjcf_edit_op ops[] = {
		{ .kind = MJCF_EDIT_ADD,
		    .type = "body",
		    .name = "new",
		    .parent_type = "worldbody",
		    .parent_name = "" },
		{ .kind = MJCF_EDIT_ADD,
		    .type = "geom",
		    .name = "ng",
		    .parent_type = "body",
		    .parent_name = "new" },
		{ .kind = MJCF_EDIT_SET,
		    .type = "geom",
		    .name = "ng",
		    .attr_names = names,
		    .attr_values = values,
		    .nattrs = 1 },
		{ .kind = MJCF_EDIT_REMOVE, .type = "body", .name = "new" },
		{ .kind = MJCF_EDIT_SET,
		    .type = "geom",
		    .name = "ng",
		    .attr_names = names,
		    .attr_values = values,
		    .nattrs = 1 },
	};
	struct mjcf_doc *doc;

	doc = edit(
	    "<mujoco><worldbody/></mujoco>", ops, 4, 0, NULL, "body new\n");
	mjcf_check_doc(doc, "<mujoco>\n  <worldbody/>\n</mujoco>\n");
	mjcf_free(doc);
	mjcf_free(edit("<mujoco><worldbody/></mujoco>", ops, 5, -1,
	    "operation 5 (set geom \"ng\"): the model has no geom named "
	    "\"ng\"",
	    "body new\n"));
}

Test(mjcf_edit, describe_names_each_kind)
{
	struct mjcf_edit_op add = { .kind = MJCF_EDIT_ADD,
		.type = "geom",
		.name = "g",
		.parent_type = "body" };
	struct mjcf_edit_op cls = { .kind = MJCF_EDIT_SET,
		.type = "geom",
		.name = "",
		.parent_type = "default",
		.parent_name = "soft" };
	struct mjcf_edit_op attach = { .kind = MJCF_EDIT_ATTACH,
		.type = "body",
		.name = "forearm",
		.source_label = "mpl_hand.xml" };
	struct mjcf_edit_op self = {
		.kind = MJCF_EDIT_ATTACH, .type = "body", .name = "cube"
	};
	struct mjcf_edit_op bad = {
		.kind = (enum mjcf_edit_kind)9, .type = "x", .name = "y"
	};
	char buf[256];

	mjcf_edit_describe(&add, 0, buf, sizeof(buf));
	cr_assert_str_eq(buf, "operation 1 (add geom \"g\")");
	mjcf_edit_describe(&cls, 2, buf, sizeof(buf));
	cr_assert_str_eq(
	    buf, "operation 3 (set geom in default class \"soft\")");
	mjcf_edit_describe(&attach, 1, buf, sizeof(buf));
	cr_assert_str_eq(
	    buf, "operation 2 (attach body \"forearm\" from mpl_hand.xml)");
	mjcf_edit_describe(&self, 0, buf, sizeof(buf));
	cr_assert_str_eq(
	    buf, "operation 1 (attach body \"cube\" from this model)");
	mjcf_edit_describe(&bad, 0, buf, sizeof(buf));
	cr_assert_str_eq(buf, "operation 1 (? x \"y\")");
	/* cut to the buffer, NUL-terminated */
	mjcf_edit_describe(&attach, 1, buf, 10);
	cr_assert_str_eq(buf, "operation");
}

Test(mjcf_edit, attach_failure_is_named_as_an_operation)
{
	struct mjcf_edit_op op = { .kind = MJCF_EDIT_ATTACH,
		.type = "body",
		.name = "nope",
		.parent_type = "worldbody",
		.parent_name = "" };

	mjcf_free(edit(model, &op, 1, -1,
	    "operation 1 (attach body \"nope\" from this model): the source "
	    "has no body named \"nope\"",
	    NULL));
}
