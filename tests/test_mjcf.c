/*
 * Unit tests of the MJCF tree (daemon/mjcf.c) and of the legacy
 * translation (daemon/mjcf_legacy.c), with MuJoCo 2.2.2 as the judge of
 * what loads: the fixtures in models/test/legacy fail as written and load
 * once translated.
 */
#include "config.h"

#include <sys/stat.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <mujoco/mujoco.h>

#include "mjcf.h"
#include "mjcf_check.h"
#include "mjcf_legacy.h"

/* Assert that two subtrees hold the same names, attributes and text. */
static void
assert_same_tree(const struct mjcf_node *a, const struct mjcf_node *b)
{
	const struct mjcf_node *ca, *cb;
	size_t i;

	cr_assert_str_eq(a->name, b->name);
	cr_assert_eq(a->nattrs, b->nattrs, "attributes of <%s>", a->name);
	for (i = 0; i < a->nattrs; i++) {
		cr_assert_str_eq(a->attrs[i].name, b->attrs[i].name);
		cr_assert_str_eq(a->attrs[i].value, b->attrs[i].value);
	}
	cr_assert_eq(a->text == NULL, b->text == NULL, "text of <%s>", a->name);
	if (a->text != NULL)
		cr_assert_str_eq(a->text, b->text);
	for (ca = mjcf_first_child(a, NULL), cb = mjcf_first_child(b, NULL);
	     ca != NULL && cb != NULL;
	     ca = mjcf_next_sibling(ca, NULL), cb = mjcf_next_sibling(cb, NULL))
		assert_same_tree(ca, cb);
	cr_assert(ca == NULL && cb == NULL, "children of <%s>", a->name);
}

TestSuite(mjcf, .timeout = 30);

Test(mjcf, round_trip_keeps_attributes_nesting_and_text)
{
	static const char
	    xml[] = "<?xml version=\"1.0\"?>\n"
		    "<!-- a comment, dropped -->\n"
		    "<mujoco model=\"a &amp; b &lt;c&gt; &quot;d&quot; 'e'\">\n"
		    "  <compiler angle='radian' meshdir=\"x\"/>\n"
		    "  <worldbody>\n"
		    "    <body name=\"b1\" pos=\"0 0 1\">\n"
		    "      <geom name=\"g\" size=\"0.1\"/>\n"
		    "      <body name=\"b2\"><site name=\"s\"/></body>\n"
		    "    </body>\n"
		    "  </worldbody>\n"
		    "  <custom><text name=\"t\">5 &lt; 6 &amp;&amp; 7 &gt; 6 "
		    "\"q\" 'a'</text></custom>\n"
		    "  <keyframe><key qpos=\"1&#9;2&#10;3\"/></keyframe>\n"
		    "</mujoco>\n";
	struct mjcf_doc *doc = mjcf_check_parse(xml), *again;
	struct mjcf_node *root = mjcf_root(doc), *n;
	char *out, *out2;

	cr_assert_str_eq(root->name, "mujoco");
	cr_assert_str_eq(mjcf_attr_get(root, "model"), "a & b <c> \"d\" 'e'");
	n = mjcf_first_child(root, "compiler");
	cr_assert_not_null(n);
	cr_assert_eq(n->nattrs, 2);
	cr_assert_str_eq(n->attrs[0].name, "angle", "document order");
	cr_assert_str_eq(n->attrs[1].name, "meshdir");
	cr_assert_eq(n->line, 4);
	cr_assert_str_eq(n->file, "test.xml");
	n = mjcf_first_child(mjcf_first_child(root, "custom"), "text");
	cr_assert_str_eq(n->text, "5 < 6 && 7 > 6 \"q\" 'a'");
	n = mjcf_first_child(mjcf_first_child(root, "keyframe"), "key");
	cr_assert_str_eq(mjcf_attr_get(n, "qpos"), "1\t2\n3");
	cr_assert_eq(mjcf_node_count(doc), 11);
	cr_assert_null(root->text, "whitespace between elements is not text");

	out = mjcf_check_write(doc);
	cr_assert_not_null(
	    strstr(out, "model=\"a &amp; b &lt;c&gt; &quot;d&quot; 'e'\""),
	    "%s", out);
	cr_assert_not_null(
	    strstr(out, "5 &lt; 6 &amp;&amp; 7 &gt; 6 \"q\" 'a'</text>"));
	cr_assert_not_null(strstr(out, "qpos=\"1&#9;2&#10;3\""),
	    "tabs and newlines survive attribute normalization");
	cr_assert_null(strstr(out, "comment"), "comments are dropped");
	cr_assert_not_null(strstr(out,
			       "\n      <body name=\"b2\">\n"
			       "        <site name=\"s\"/>\n"
			       "      </body>\n"),
	    "%s", out);

	again = mjcf_check_parse(out);
	assert_same_tree(mjcf_root(doc), mjcf_root(again));
	out2 = mjcf_check_write(again);
	cr_assert_str_eq(out, out2, "writing is stable");
	free(out);
	free(out2);
	mjcf_free(again);
	mjcf_free(doc);
}

Test(mjcf, mixed_text_round_trips)
{
	struct mjcf_doc *doc = mjcf_check_parse("<a>\n  lead <b/> tail\n</a>"),
			*again;
	char *out, *out2;

	cr_assert_str_eq(mjcf_root(doc)->text, "lead  tail",
	    "layout whitespace around text beside elements is trimmed");
	out = mjcf_check_write(doc);
	again = mjcf_check_parse(out);
	out2 = mjcf_check_write(again);
	cr_assert_str_eq(out, out2);
	assert_same_tree(mjcf_root(doc), mjcf_root(again));
	free(out);
	free(out2);
	mjcf_free(again);
	mjcf_free(doc);
}

Test(mjcf, writing_can_keep_source_lines)
{
	static const char xml[] = "<!-- 1 -->\n"
				  "<a>\n"
				  "\n"
				  "  <b x=\"1\"\n"
				  "     y=\"2\"/> <c><d/>\n"
				  "  </c>\n"
				  "  <e>some\ntext</e>\n"
				  "  <f/>\n"
				  "</a>\n";
	static const char inc[] = "<r>\n\n<i1/>\n<i2>\n<i3/></i2></r>";
	struct mjcf_doc *doc = mjcf_check_parse(xml), *from;
	struct mjcf_node *c, *first;
	char err[128], *out;
	size_t len;

	cr_assert_eq(mjcf_write_lines(doc, &out, &len), 0);
	cr_assert_str_eq(out,
	    "\n"
	    "<a>\n"
	    "\n"
	    "  <b x=\"1\" y=\"2\"/>\n"
	    "  <c><d/></c>\n"
	    "\n"
	    "  <e>some\ntext</e>\n"
	    "  <f/></a>\n");
	free(out);

	/* Elements from elsewhere share the line before them. */
	c = mjcf_first_child(mjcf_root(doc), "c");
	from = mjcf_parse_buffer(inc, strlen(inc), "inc.xml", err, sizeof(err));
	cr_assert_eq(mjcf_node_replace(doc, c, from, &first, err, sizeof(err)),
	    0, "%s", err);
	mjcf_node_add(doc, mjcf_root(doc), "new");
	cr_assert_eq(mjcf_write_lines(doc, &out, &len), 0);
	cr_assert_str_eq(out,
	    "\n"
	    "<a>\n"
	    "\n"
	    "  <b x=\"1\" y=\"2\"/><i1/><i2><i3/></i2>\n"
	    "\n"
	    "\n"
	    "  <e>some\ntext</e>\n"
	    "  <f/><new/></a>\n");
	free(out);
	mjcf_free(doc);
}

Test(mjcf, malformed_xml_gives_the_line)
{
	static const char xml[] = "<mujoco>\n  <worldbody>\n  </body>\n"
				  "</mujoco>\n";
	char err[256] = "";

	cr_assert_null(
	    mjcf_parse_buffer(xml, strlen(xml), "bad.xml", err, sizeof(err)));
	cr_assert_not_null(strstr(err, "bad.xml: line 3"), "%s", err);
	cr_assert_not_null(strstr(err, "mismatched tag"), "%s", err);

	err[0] = '\0';
	cr_assert_null(mjcf_parse_buffer("", 0, "empty.xml", err, sizeof(err)));
	cr_assert_not_null(strstr(err, "empty.xml: line 1"), "%s", err);

	err[0] = '\0';
	cr_assert_null(mjcf_parse_buffer(
	    "<a>\n&nope;</a>", 14, "ent.xml", err, sizeof(err)));
	cr_assert_not_null(strstr(err, "line 2"), "%s", err);
	cr_assert_not_null(strstr(err, "undefined entity"), "%s", err);
}

Test(mjcf, missing_file_is_an_error)
{
	char err[256] = "";

	cr_assert_null(
	    mjcf_parse_file("/nonexistent/model.xml", err, sizeof(err)));
	cr_assert_str_eq(
	    err, "/nonexistent/model.xml: No such file or directory");
}

/* Return n nested elements "<a><a>...</a></a>" (caller frees). */
static char *
nested(size_t n)
{
	char *s = malloc(7 * n + 1), *p = s;
	size_t i;

	cr_assert_not_null(s);
	for (i = 0; i < n; i++, p += 3)
		memcpy(p, "<a>", 3);
	for (i = 0; i < n; i++, p += 4)
		memcpy(p, "</a>", 4);
	*p = '\0';
	return s;
}

Test(mjcf, deep_nesting_is_refused)
{
	struct mjcf_node *n;
	struct mjcf_doc *doc;
	char err[256] = "", *s;

	s = nested(MJCF_MAX_DEPTH);
	doc = mjcf_parse_buffer(s, strlen(s), "deep.xml", err, sizeof(err));
	cr_assert_not_null(doc, "the limit itself is allowed: %s", err);
	cr_assert_eq(mjcf_node_count(doc), MJCF_MAX_DEPTH);
	for (n = mjcf_root(doc); mjcf_first_child(n, NULL) != NULL;)
		n = mjcf_first_child(n, NULL);
	cr_assert_eq(mjcf_depth(n), MJCF_MAX_DEPTH);
	cr_assert_null(mjcf_node_add(doc, n, "b"), "nothing below the limit");
	cr_assert_not_null(mjcf_node_add(doc, n->parent, "b"));
	mjcf_free(doc);
	free(s);

	s = nested(MJCF_MAX_DEPTH + 1);
	cr_assert_null(
	    mjcf_parse_buffer(s, strlen(s), "deep.xml", err, sizeof(err)));
	cr_assert_not_null(strstr(err, "nested more than 256 deep"), "%s", err);
	free(s);

	s = nested(100000);
	cr_assert_null(
	    mjcf_parse_buffer(s, strlen(s), "deep.xml", err, sizeof(err)));
	cr_assert_not_null(strstr(err, "nested more than 256 deep"), "%s", err);
	free(s);
}

Test(mjcf, doctype_and_entities_are_refused)
{
	static const char laughs[] =
	    "<?xml version=\"1.0\"?>\n"
	    "<!DOCTYPE lolz [\n"
	    " <!ENTITY lol \"lol\">\n"
	    " <!ENTITY lol1 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">\n"
	    " <!ENTITY lol2 \"&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;\">\n"
	    " <!ENTITY lol3 \"&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;\">\n"
	    " <!ENTITY lol4 \"&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;\">\n"
	    " <!ENTITY lol5 \"&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;\">\n"
	    " <!ENTITY lol6 \"&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;\">\n"
	    " <!ENTITY lol7 \"&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;\">\n"
	    " <!ENTITY lol8 \"&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;\">\n"
	    " <!ENTITY lol9 \"&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;\">\n"
	    "]>\n"
	    "<mujoco model=\"&lol9;\"/>\n";
	static const char external
	    [] = "<!DOCTYPE mujoco [ <!ENTITY x SYSTEM \"/etc/passwd\"> ]>\n"
		 "<mujoco>&x;</mujoco>";
	char err[256] = "";

	cr_assert_null(mjcf_parse_buffer(
	    laughs, strlen(laughs), "lol.xml", err, sizeof(err)));
	cr_assert_not_null(strstr(err, "lol.xml: line 2, column "), "%s", err);
	cr_assert_not_null(
	    strstr(err, ": DOCTYPE declarations are not allowed"), "%s", err);
	cr_assert_null(mjcf_parse_buffer(
	    external, strlen(external), "ext.xml", err, sizeof(err)));
	cr_assert_not_null(strstr(err, "DOCTYPE"), "%s", err);
}

Test(mjcf, oversize_input_is_refused_before_reading)
{
	static const char small[] = "<a/>";
	char err[256] = "";

	/* The length is checked first: the bytes past small are never read. */
	cr_assert_null(mjcf_parse_buffer(
	    small, (size_t)MJCF_MAX_BYTES + 1, "big.xml", err, sizeof(err)));
	cr_assert_not_null(strstr(err, "more than"), "%s", err);
}

Test(mjcf, attribute_helpers)
{
	struct mjcf_doc *doc = mjcf_check_parse(
	    "<j name=\"a\" range=\"0 1\" axis=\"0 1 0\"/>");
	struct mjcf_node *n = mjcf_root(doc);
	char *out;

	cr_assert_str_eq(mjcf_attr_get(n, "range"), "0 1");
	cr_assert_null(mjcf_attr_get(n, "limited"));
	cr_assert_null(mjcf_attr_get(n, "Range"), "names are case-sensitive");

	cr_assert_eq(mjcf_attr_set(n, "range", "-1 1"), 0);
	cr_assert_eq(mjcf_attr_set(n, "limited", "false"), 0);
	cr_assert_eq(n->nattrs, 4);
	cr_assert_str_eq(n->attrs[1].name, "range", "replaced in place");
	cr_assert_str_eq(n->attrs[1].value, "-1 1");
	cr_assert_str_eq(n->attrs[3].name, "limited", "appended");

	cr_assert_eq(mjcf_attr_remove(n, "name"), 0);
	cr_assert_eq(mjcf_attr_remove(n, "name"), -1);
	cr_assert_eq(n->nattrs, 3);
	cr_assert_str_eq(n->attrs[0].name, "range", "order is kept");

	cr_assert_eq(mjcf_attr_set(n, "bad name", "x"), -1);
	cr_assert_eq(mjcf_attr_set(n, "1st", "x"), -1);
	cr_assert_eq(mjcf_attr_set(n, "", "x"), -1);
	cr_assert_eq(mjcf_attr_set(n, "a\"b", "x"), -1);
	cr_assert_eq(mjcf_attr_set(n, "x", "bell\a"), -1);
	cr_assert_eq(n->nattrs, 3, "refused values change nothing");
	cr_assert_eq(mjcf_attr_set(n, "user:note", "<&\"\t>"), 0);

	out = mjcf_check_write(doc);
	cr_assert_str_eq(out,
	    "<j range=\"-1 1\" axis=\"0 1 0\" limited=\"false\" "
	    "user:note=\"&lt;&amp;&quot;&#9;&gt;\"/>\n");
	free(out);
	mjcf_free(doc);
}

Test(mjcf, navigation_and_walk)
{
	struct mjcf_doc *doc = mjcf_check_parse(
	    "<r><a><b/><c/></a><b><d/></b><a/></r>");
	struct mjcf_node *root = mjcf_root(doc), *n;
	char order[32] = "";
	size_t k = 0;

	n = mjcf_first_child(root, "a");
	cr_assert_not_null(n);
	cr_assert_str_eq(mjcf_first_child(n, NULL)->name, "b");
	n = mjcf_next_sibling(n, "a");
	cr_assert_not_null(n);
	cr_assert_null(mjcf_first_child(n, NULL));
	cr_assert_null(mjcf_next_sibling(n, NULL));
	cr_assert_null(mjcf_first_child(root, "z"));
	cr_assert_str_eq(
	    mjcf_next_sibling(mjcf_first_child(root, NULL), NULL)->name, "b");

	for (n = mjcf_walk(root, root); n != NULL; n = mjcf_walk(root, n))
		order[k++] = n->name[0];
	cr_assert_str_eq(order, "abcbda", "document order");
	n = mjcf_first_child(root, "a");
	cr_assert_str_eq(mjcf_walk(n, n)->name, "b");
	cr_assert_null(
	    mjcf_walk(n, mjcf_next_sibling(mjcf_first_child(n, NULL), NULL)),
	    "the walk stays inside the subtree");
	cr_assert_eq(mjcf_depth(root), 1);
	cr_assert_eq(mjcf_depth(mjcf_first_child(n, NULL)), 3);
	mjcf_free(doc);
}

Test(mjcf, editing_nodes)
{
	struct mjcf_doc *doc = mjcf_create("mujoco");
	struct mjcf_node *root = mjcf_root(doc), *wb, *b;
	char *out;

	cr_assert_null(mjcf_create("no way"));
	wb = mjcf_node_add(doc, root, "worldbody");
	b = mjcf_node_add(doc, wb, "body");
	cr_assert_not_null(b);
	cr_assert_null(mjcf_node_add(doc, wb, "<bad>"));
	cr_assert_eq(b->line, 0);
	cr_assert_null(b->file);
	mjcf_attr_set(b, "name", "x");
	mjcf_node_add(doc, b, "geom");
	cr_assert_eq(
	    mjcf_node_set_text(mjcf_node_add(doc, root, "text"), "a<b"), 0);
	cr_assert_eq(
	    mjcf_node_set_text(mjcf_first_child(root, "text"), "\x01"), -1);
	cr_assert_eq(mjcf_node_count(doc), 5);
	out = mjcf_check_write(doc);
	cr_assert_str_eq(out,
	    "<mujoco>\n"
	    "  <worldbody>\n"
	    "    <body name=\"x\">\n"
	    "      <geom/>\n"
	    "    </body>\n"
	    "  </worldbody>\n"
	    "  <text>a&lt;b</text>\n"
	    "</mujoco>\n");
	free(out);
	mjcf_node_delete(doc, wb);
	cr_assert_eq(mjcf_node_count(doc), 2);
	mjcf_node_delete(doc, root);
	cr_assert_eq(mjcf_node_count(doc), 2, "the root is not deleted");
	out = mjcf_check_write(doc);
	cr_assert_str_eq(out, "<mujoco>\n  <text>a&lt;b</text>\n</mujoco>\n");
	free(out);
	mjcf_free(doc);
	mjcf_free(NULL);
}

Test(mjcf, replace_splices_children_in_place)
{
	struct mjcf_doc *doc = mjcf_check_parse(
	    "<r>\n<a/>\n<include/>\n<z/>\n</r>");
	static const char inc_xml[] = "<x>\n<b><c/></b>\n<d/></x>";
	struct mjcf_doc *from = mjcf_parse_buffer(
	    inc_xml, strlen(inc_xml), "inc.xml", NULL, 0);
	struct mjcf_node *inc, *first;
	char err[128], *out;

	cr_assert_not_null(from);
	inc = mjcf_first_child(mjcf_root(doc), "include");
	cr_assert_eq(
	    mjcf_node_replace(doc, inc, from, &first, err, sizeof(err)), 0,
	    "%s", err);
	cr_assert_str_eq(first->name, "b");
	cr_assert_str_eq(first->file, "inc.xml", "nodes keep their file");
	cr_assert_eq(first->line, 2, "and their line");
	cr_assert_eq(first->parent, mjcf_root(doc));
	cr_assert_eq(mjcf_node_count(doc), 6);
	out = mjcf_check_write(doc);
	cr_assert_str_eq(out,
	    "<r>\n  <a/>\n  <b>\n    <c/>\n  </b>\n  <d/>\n"
	    "  <z/>\n</r>\n");
	free(out);

	from = mjcf_create("x");
	cr_assert_eq(mjcf_node_replace(
			 doc, mjcf_root(doc), from, &first, err, sizeof(err)),
	    -1, "the root cannot be replaced");
	mjcf_free(doc);
}

Test(mjcf, replace_keeps_the_depth_limit)
{
	struct mjcf_doc *doc, *from;
	struct mjcf_node *n, *first;
	char err[128] = "", *s;
	int i;

	s = nested(MJCF_MAX_DEPTH);
	from = mjcf_parse_buffer(s, strlen(s), "deep.xml", err, sizeof(err));
	free(s);
	cr_assert_not_null(from, "%s", err);
	doc = mjcf_check_parse("<r><p><include/></p></r>");
	n = mjcf_walk(mjcf_root(doc), mjcf_first_child(mjcf_root(doc), "p"));
	cr_assert_eq(
	    mjcf_node_replace(doc, n, from, &first, err, sizeof(err)), -1);
	cr_assert_not_null(strstr(err, "nested more than"), "%s", err);
	cr_assert_eq(mjcf_node_count(doc), 3, "unchanged");

	/* 256 deep, its root dropped, at depth 2: 256 in all, allowed. */
	s = nested(MJCF_MAX_DEPTH);
	from = mjcf_parse_buffer(s, strlen(s), "deep.xml", err, sizeof(err));
	free(s);
	n = mjcf_first_child(mjcf_root(doc), "p");
	cr_assert_eq(mjcf_node_replace(doc, n, from, &first, err, sizeof(err)),
	    0, "%s", err);
	for (i = 1, n = mjcf_root(doc);
	     (n = mjcf_first_child(n, NULL)) != NULL;)
		i++;
	cr_assert_eq(i, MJCF_MAX_DEPTH);
	mjcf_free(doc);
}

Test(mjcf, file_parse_records_file_and_line)
{
	char path[512], err[512] = "";
	struct mjcf_doc *doc;
	struct mjcf_node *n;

	snprintf(path, sizeof(path), "%s/legacy/hand1x.xml",
	    getenv("HX_TEST_MODELS"));
	doc = mjcf_parse_file(path, err, sizeof(err));
	cr_assert_not_null(doc, "%s", err);
	cr_assert_str_eq(mjcf_path(doc), path);
	n = mjcf_first_child(mjcf_first_child(mjcf_root(doc), "asset"), "mesh");
	cr_assert_eq(n->line, 23);
	cr_assert_str_eq(n->file, path);
	mjcf_free(doc);
}

/*
 * The legacy translation.
 */

static char fixtures[512];

/* Find the fixtures; route MuJoCo's warnings away from stdout. */
static void
legacy_init(void)
{
	const char *dir = getenv("HX_TEST_MODELS");

	cr_assert_not_null(dir, "HX_TEST_MODELS must name models/test");
	snprintf(fixtures, sizeof(fixtures), "%s/legacy", dir);
}

/* The full path of fixture name (into buf). */
static const char *
fixture(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", fixtures, name);
	return buf;
}

/* Load xml with MuJoCo from a VFS file under path, as the loader will. */
static mjModel *
load_vfs(
    const char *path, const char *xml, size_t len, char *err, size_t errlen)
{
	mjVFS *vfs = malloc(sizeof(*vfs));
	mjModel *m;
	int id;

	cr_assert_not_null(vfs);
	mj_defaultVFS(vfs);
	cr_assert_eq(mj_makeEmptyFileVFS(vfs, path, (int)len), 0);
	id = mj_findFileVFS(vfs, path);
	cr_assert_geq(id, 0);
	memcpy(vfs->filedata[id], xml, len);
	m = mj_loadXML(path, vfs, err, (int)errlen);
	mj_deleteVFS(vfs);
	free(vfs);
	return m;
}

/* Assert the log holds exactly the lines given, NULL-terminated. */
static void
assert_log(const struct mjcf_legacy_log *log, const char *const *lines)
{
	size_t i;

	for (i = 0; lines[i] != NULL; i++) {
		cr_assert_lt(
		    i, mjcf_legacy_log_count(log), "missing: %s", lines[i]);
		cr_assert_str_eq(mjcf_legacy_log_line(log, i), lines[i]);
	}
	cr_assert_eq(mjcf_legacy_log_count(log), i, "extra: %s",
	    mjcf_legacy_log_line(log, i));
	cr_assert_null(mjcf_legacy_log_line(log, i));
}

/*
 * Translate fixture name and check its log; then MuJoCo must refuse the
 * original with an error holding refusal (NULL: load it too), and load
 * the translation.  Returns the model (caller frees).
 */
static mjModel *
legacy_check(const char *name, const char *const *lines, const char *refusal)
{
	struct mjcf_legacy_log *log = mjcf_legacy_log_create();
	char path[600], err[1024] = "";
	mjModel *m;
	char *xml;
	size_t len;

	fixture(path, sizeof(path), name);
	cr_assert_eq(mjcf_legacy_file(path, &xml, &len, log, err, sizeof(err)),
	    0, "%s", err);
	assert_log(log, lines);
	mjcf_legacy_log_free(log);

	m = mj_loadXML(path, NULL, err, sizeof(err));
	if (refusal != NULL) {
		cr_assert_null(m, "MuJoCo 2.2.2 refuses %s as written", name);
		cr_assert_not_null(strstr(err, refusal), "%s", err);
	} else {
		cr_assert_not_null(m, "%s", err);
		mj_deleteModel(m);
	}
	err[0] = '\0';
	m = load_vfs(path, xml, len, err, sizeof(err));
	cr_assert_not_null(m, "the translation loads: %s\n%s", err, xml);
	free(xml);
	return m;
}

/* The id of a named object, which must exist. */
static int
id_of(const mjModel *m, int type, const char *name)
{
	int id = mj_name2id(m, type, name);

	cr_assert_geq(id, 0, "%s", name);
	return id;
}

TestSuite(legacy, .init = legacy_init, .timeout = 60);

Test(legacy, hand1x_translates_and_loads)
{
	static const char *const lines[] = {
		"line 50: include: file \"Actuators1x.xml\" -> "
		"\"actuators1x.xml\"",
		"line 23: mesh \"palm\": file \"palm.STL\" -> \"Palm.stl\"",
		"line 27: joint \"wrist\": range without limited: added "
		"limited=\"false\" (MuJoCo 1.x meaning)",
		"line 38: joint \"thumb_CMC\": range (from class \"loose\") "
		"without limited: added limited=\"false\" (MuJoCo 1.x meaning)",
		"line 45: fixed \"index_coupling\": range without limited: "
		"added limited=\"false\" (MuJoCo 1.x meaning)",
		"actuators1x.xml line 5: motor \"wrist\": ctrlrange without "
		"ctrllimited: added ctrllimited=\"false\" (MuJoCo 1.x meaning)",
		"actuators1x.xml line 6: position \"index\": forcerange without "
		"forcelimited: added forcelimited=\"false\" (MuJoCo 1.x "
		"meaning)",
		NULL,
	};
	mjModel *m = legacy_check("hand1x.xml", lines, "Include");

	cr_assert_eq(m->nmesh, 1);
	cr_assert_eq(m->nu, 3, "the include was inlined");
	cr_assert_eq(m->nsensor, 1);
	cr_assert_eq(m->jnt_limited[id_of(m, mjOBJ_JOINT, "wrist")], 0);
	cr_assert_eq(m->jnt_limited[id_of(m, mjOBJ_JOINT, "thumb_CMC")], 0);
	cr_assert_eq(m->jnt_limited[id_of(m, mjOBJ_JOINT, "thumb_twist")], 0);
	cr_assert_eq(m->jnt_limited[id_of(m, mjOBJ_JOINT, "index_MCP")], 1,
	    "limited by childclass finger");
	cr_assert_eq(m->jnt_limited[id_of(m, mjOBJ_JOINT, "index_DIP")], 1,
	    "limited by class distal, from its parent finger");
	cr_assert_float_eq(
	    m->jnt_range[2 * id_of(m, mjOBJ_JOINT, "index_DIP") + 1], 1.2,
	    1e-12);
	cr_assert_eq(m->tendon_limited[0], 0);
	cr_assert_eq(
	    m->actuator_ctrllimited[id_of(m, mjOBJ_ACTUATOR, "wrist")], 0);
	cr_assert_eq(
	    m->actuator_ctrllimited[id_of(m, mjOBJ_ACTUATOR, "index")], 1);
	cr_assert_eq(
	    m->actuator_forcelimited[id_of(m, mjOBJ_ACTUATOR, "index")], 0);
	cr_assert_eq(m->actuator_ctrllimited[id_of(m, mjOBJ_ACTUATOR, "thumb")],
	    1, "a damper is always ctrllimited");
	mj_deleteModel(m);
}

Test(legacy, mesh_name_in_the_wrong_case)
{
	static const char *const lines[] = {
		"line 5: mesh \"palm\": file \"palm.STL\" -> \"Palm.stl\"",
		NULL,
	};
	mjModel *m = legacy_check(
	    "mesh_case.xml", lines, "could not open STL file");

	cr_assert_eq(m->nmesh, 1);
	cr_assert_eq(m->mesh_vertnum[0], 4);
	mj_deleteModel(m);
}

Test(legacy, joint_range_without_limited)
{
	static const char *const lines[] = {
		"line 5: joint \"hinge\": range without limited: added "
		"limited=\"false\" (MuJoCo 1.x meaning)",
		NULL,
	};
	mjModel *m = legacy_check(
	    "joint_range.xml", lines, "joint has `range` but not `limited`");

	cr_assert_eq(m->jnt_limited[0], 0);
	mj_deleteModel(m);
}

Test(legacy, tendon_range_without_limited)
{
	static const char *const lines[] = {
		"line 10: fixed \"t\": range without limited: added "
		"limited=\"false\" (MuJoCo 1.x meaning)",
		NULL,
	};
	mjModel *m = legacy_check(
	    "tendon_range.xml", lines, "tendon has `range` but not `limited`");

	cr_assert_eq(m->tendon_limited[0], 0);
	mj_deleteModel(m);
}

Test(legacy, ctrlrange_without_ctrllimited)
{
	static const char *const lines[] = {
		"line 11: motor \"m\": ctrlrange without ctrllimited: added "
		"ctrllimited=\"false\" (MuJoCo 1.x meaning)",
		NULL,
	};
	mjModel *m = legacy_check("ctrlrange.xml", lines,
	    "actuator has `ctrlrange` but not `ctrllimited`");

	cr_assert_eq(m->actuator_ctrllimited[0], 0);
	mj_deleteModel(m);
}

Test(legacy, limited_from_default_classes_is_left_alone)
{
	static const char *const none[] = { NULL };
	mjModel *m = legacy_check("default_limited.xml", none, NULL);
	int j;

	for (j = 0; j < m->njnt; j++)
		cr_assert_eq(m->jnt_limited[j], 1, "joint %d", j);
	cr_assert_eq(m->tendon_limited[0], 1);
	cr_assert_eq(m->actuator_ctrllimited[0], 1);
	cr_assert_eq(m->actuator_forcelimited[0], 0);
	mj_deleteModel(m);
}

Test(legacy, autolimits_is_left_alone)
{
	static const char *const none[] = { NULL };
	mjModel *m = legacy_check("autolimits.xml", none, NULL);

	cr_assert_eq(m->jnt_limited[0], 1, "autolimits: a range limits");
	cr_assert_eq(m->tendon_limited[0], 1);
	cr_assert_eq(m->actuator_ctrllimited[0], 1);
	mj_deleteModel(m);
}

Test(legacy, mujoco_errors_cite_the_original_lines)
{
	char path[600], err[1024] = "", *xml;
	mjModel *m;
	size_t len;

	/* broken.xml misspells an attribute on its line 7. */
	snprintf(path, sizeof(path), "%s/broken.xml", getenv("HX_TEST_MODELS"));
	cr_assert_eq(mjcf_legacy_file(path, &xml, &len, NULL, err, sizeof(err)),
	    0, "%s", err);
	m = load_vfs(path, xml, len, err, sizeof(err));
	cr_assert_null(m);
	cr_assert_not_null(strstr(err, "'stiffnes'"), "%s", err);
	cr_assert_not_null(strstr(err, "line 7"), "%s", err);
	free(xml);
}

Test(legacy, a_model_that_needs_nothing_compiles_the_same)
{
	char path[600], err[1024] = "", *xml;
	mjModel *m0, *m1;
	void *b0, *b1;
	size_t len;
	int size;

	snprintf(
	    path, sizeof(path), "%s/fixture.xml", getenv("HX_TEST_MODELS"));
	cr_assert_eq(mjcf_legacy_file(path, &xml, &len, NULL, err, sizeof(err)),
	    0, "%s", err);
	m0 = mj_loadXML(path, NULL, err, sizeof(err));
	cr_assert_not_null(m0, "%s", err);
	m1 = load_vfs(path, xml, len, err, sizeof(err));
	cr_assert_not_null(m1, "%s", err);
	size = mj_sizeModel(m0);
	cr_assert_eq(mj_sizeModel(m1), size);
	b0 = calloc(1, (size_t)size);
	b1 = calloc(1, (size_t)size);
	mj_saveModel(m0, NULL, b0, size);
	mj_saveModel(m1, NULL, b1, size);
	cr_assert_eq(memcmp(b0, b1, (size_t)size), 0, "the same MJB");
	free(b0);
	free(b1);
	mj_deleteModel(m0);
	mj_deleteModel(m1);
	free(xml);
}

/* Translate xml from memory (no files involved); returns the log. */
static struct mjcf_legacy_log *
translate(const char *xml, struct mjcf_doc **docp)
{
	struct mjcf_legacy_log *log = mjcf_legacy_log_create();
	struct mjcf_doc *doc = mjcf_check_parse(xml);
	char err[512] = "";

	cr_assert_eq(mjcf_legacy_translate(doc, NULL, log, err, sizeof(err)), 0,
	    "%s", err);
	if (docp != NULL)
		*docp = doc;
	else
		mjcf_free(doc);
	return log;
}

/* Return the names of the elements the log names, in order, joined. */
static void
assert_changed(const char *xml, const char *expect)
{
	struct mjcf_legacy_log *log = translate(xml, NULL);
	char got[512] = "";
	const char *line, *q;
	size_t i, n;

	for (i = 0; i < mjcf_legacy_log_count(log); i++) {
		line = mjcf_legacy_log_line(log, i);
		q = strchr(line, '"');
		cr_assert_not_null(q, "%s", line);
		n = strcspn(q + 1, "\"");
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%.*s",
		    i > 0 ? " " : "", (int)n, q + 1);
	}
	cr_assert_str_eq(got, expect, "changed: %s", got);
	mjcf_legacy_log_free(log);
}

Test(legacy, default_classes_follow_mujoco)
{
	/* A class copies its parent once the parent's own elements are read. */
	assert_changed("<mujoco><default>"
		       "<default class=\"c\"><joint range=\"0 1\"/></default>"
		       "<joint limited=\"true\"/>"
		       "</default><worldbody><body>"
		       "<joint name=\"j1\" class=\"c\"/>"
		       "<joint name=\"j2\" range=\"0 1\"/>"
		       "</body></worldbody></mujoco>",
	    "");
	/* A later top-level default is too late for the classes before. */
	assert_changed("<mujoco>"
		       "<default><default class=\"c\"><joint range=\"0 1\"/>"
		       "</default></default>"
		       "<default><joint limited=\"true\"/></default>"
		       "<worldbody><body>"
		       "<joint name=\"j1\" class=\"c\"/>"
		       "<joint name=\"j2\" range=\"0 1\"/>"
		       "</body></worldbody></mujoco>",
	    "j1");
	/* Childclass reaches through bodies; class beats childclass. */
	assert_changed(
	    "<mujoco><default>"
	    "<default class=\"lim\"><joint limited=\"true\"/></default>"
	    "<default class=\"free\"><joint range=\"0 1\"/></default>"
	    "</default><worldbody>"
	    "<body childclass=\"lim\"><body><body>"
	    "<joint name=\"deep\" range=\"0 1\"/>"
	    "<joint name=\"own\" class=\"free\"/>"
	    "</body></body></body>"
	    "<body><joint name=\"plain\" range=\"0 1\"/></body>"
	    "</worldbody></mujoco>",
	    "own plain");
	/* Unknown classes are MuJoCo's to refuse. */
	assert_changed("<mujoco><worldbody><body childclass=\"nope\">"
		       "<joint name=\"j\" range=\"0 1\"/></body></worldbody>"
		       "<actuator><motor name=\"m\" class=\"nope\" "
		       "ctrlrange=\"0 1\"/></actuator></mujoco>",
	    "");
}

Test(legacy, what_counts_as_a_range)
{
	assert_changed("<mujoco><worldbody><body>"
		       "<joint name=\"zero\" range=\"0 0\"/>"
		       "<joint name=\"zero2\" range=\" 0.0  -0 \"/>"
		       "<joint name=\"half\" range=\"0 0.5\"/>"
		       "<joint name=\"auto\" limited=\"auto\" range=\"0 1\"/>"
		       "<joint name=\"free\" type=\"free\" range=\"0 1\"/>"
		       "<freejoint name=\"fj\"/>"
		       "</body></worldbody>"
		       "<equality><joint name=\"eq\" joint1=\"a\"/></equality>"
		       "<tendon><spatial name=\"sp\" range=\"0 1\"/>"
		       "<fixed name=\"fx\" range=\"0 1\" limited=\"true\"/>"
		       "</tendon></mujoco>",
	    "half sp");
}

Test(legacy, actuators)
{
	struct mjcf_legacy_log *log;

	assert_changed(
	    "<mujoco><default>"
	    "<default class=\"d\"><damper ctrlrange=\"0 1\"/></default>"
	    "<default class=\"a\"><adhesion ctrlrange=\"0 1\"/>"
	    "</default></default>"
	    "<actuator>"
	    "<general name=\"g\" ctrlrange=\"0 1\"/>"
	    "<velocity name=\"v\" forcerange=\"-1 1\"/>"
	    "<damper name=\"dmp\" ctrlrange=\"0 1\"/>"
	    "<adhesion name=\"adh\" ctrlrange=\"0 1\"/>"
	    "<muscle name=\"mus\" range=\"0.5 1.5\"/>"
	    "<motor name=\"fromdamper\" class=\"d\" "
	    "ctrlrange=\"0 1\"/>"
	    "<motor name=\"notfromadhesion\" class=\"a\" "
	    "ctrlrange=\"0 1\"/>"
	    "<cylinder name=\"cyl\" ctrlrange=\"0 1\" "
	    "forcerange=\"0 1\"/>"
	    "</actuator></mujoco>",
	    "g v notfromadhesion cyl cyl");

	log = translate("<mujoco><default><default class=\"x\">"
			"<motor forcerange=\"-1 1\"/></default></default>"
			"<actuator>\n<motor class=\"x\"/></actuator></mujoco>",
	    NULL);
	cr_assert_eq(mjcf_legacy_log_count(log), 1);
	cr_assert_str_eq(mjcf_legacy_log_line(log, 0),
	    "line 2: motor: forcerange (from class \"x\") without "
	    "forcelimited: added forcelimited=\"false\" (MuJoCo 1.x meaning)");
	mjcf_legacy_log_free(log);
}

Test(legacy, only_mujoco_models_and_the_last_compiler_counts)
{
	struct mjcf_legacy_log *log;
	struct mjcf_doc *doc;

	log = translate("<robot><joint range=\"0 1\"/></robot>", &doc);
	cr_assert_eq(mjcf_legacy_log_count(log), 0, "URDF is left alone");
	mjcf_legacy_log_free(log);
	mjcf_free(doc);

	assert_changed("<mujoco><compiler autolimits=\"true\"/>"
		       "<compiler autolimits=\"false\"/><worldbody><body>"
		       "<joint name=\"j\" range=\"0 1\"/>"
		       "</body></worldbody></mujoco>",
	    "j");
	assert_changed("<mujoco><compiler autolimits=\"false\"/>"
		       "<compiler angle=\"radian\" autolimits=\"true\"/>"
		       "<worldbody><body><joint name=\"j\" range=\"0 1\"/>"
		       "</body></worldbody></mujoco>",
	    "");
}

/* A scratch directory for files with names in chosen cases. */
static char scratch[64];

/* Make the scratch directory. */
static void
scratch_init(void)
{
	legacy_init();
	snprintf(scratch, sizeof(scratch), "/tmp/test_mjcf.XXXXXX");
	cr_assert_not_null(mkdtemp(scratch), "%s", strerror(errno));
}

/* nftw: remove one entry. */
static int
scratch_rm(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	return remove(path);
}

/* Remove the scratch directory and everything in it. */
static void
scratch_fini(void)
{
	if (scratch[0] != '\0')
		nftw(scratch, scratch_rm, 16, FTW_DEPTH | FTW_PHYS);
}

/* Write text into scratch/rel, making its directories. */
static void
put(const char *rel, const char *text)
{
	char path[256], *p;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", scratch, rel);
	for (p = path + strlen(scratch) + 1; (p = strchr(p, '/')) != NULL;
	     p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	f = fopen(path, "w");
	cr_assert_not_null(f, "%s: %s", path, strerror(errno));
	fputs(text, f);
	fclose(f);
}

/* Run the pipeline on scratch/rel: returns 0 or -1, with xml and err. */
static int
pipeline(const char *rel, struct mjcf_legacy_log *log, char **xml, char *err,
    size_t errlen)
{
	char path[256];
	size_t len;

	snprintf(path, sizeof(path), "%s/%s", scratch, rel);
	return mjcf_legacy_file(path, xml, &len, log, err, errlen);
}

TestSuite(
    legacy_files, .init = scratch_init, .fini = scratch_fini, .timeout = 60);

Test(legacy_files, asset_directories_and_textures)
{
	static const char *const lines[] = {
		"line 2: compiler: meshdir \"Meshes\" -> \"meshes\"",
		"line 2: compiler: texturedir \"TEX/\" -> \"tex/\"",
		"line 4: mesh \"a\": file \"Parts/Finger.STL\" -> "
		"\"parts/finger.stl\"",
		"line 5: hfield \"h\": file \"TERRAIN.PNG\" -> \"terrain.png\"",
		"line 6: texture \"sky\": fileright \"R.png\" -> \"r.png\"",
		"line 6: texture \"sky\": fileup \"U.PNG\" -> \"u.png\"",
		"line 7: skin \"s\": file \"Skin.SKN\" -> \"skin.skn\"",
		NULL,
	};
	struct mjcf_legacy_log *log = mjcf_legacy_log_create();
	char err[512] = "", *xml;

	put("meshes/parts/finger.stl", "");
	put("meshes/terrain.png", "");
	put("meshes/skin.skn", "");
	put("meshes/ok.stl", "");
	put("meshes/twice.stl", "");
	put("meshes/Twice.stl", "");
	put("tex/r.png", "");
	put("tex/u.png", "");
	put("tex/l.png", "");
	put("model.xml",
	    "<mujoco>\n"
	    "<compiler meshdir=\"Meshes\" texturedir=\"TEX/\"/>\n"
	    "<asset>\n"
	    "<mesh name=\"a\" file=\"Parts/Finger.STL\"/>\n"
	    "<hfield name=\"h\" file=\"TERRAIN.PNG\"/>\n"
	    "<texture name=\"sky\" fileright=\"R.png\" fileup=\"U.PNG\" "
	    "fileleft=\"l.png\" filedown=\"gone.png\"/>\n"
	    "<skin name=\"s\" file=\"Skin.SKN\"/>\n"
	    "<mesh name=\"ok\" file=\"ok.stl\"/>\n"
	    "<mesh name=\"ambiguous\" file=\"TWICE.stl\"/>\n"
	    "<mesh name=\"dir\" file=\"PARTS\"/>\n"
	    "</asset>\n"
	    "</mujoco>\n");
	cr_assert_eq(
	    pipeline("model.xml", log, &xml, err, sizeof(err)), 0, "%s", err);
	assert_log(log, lines);
	cr_assert_not_null(
	    strstr(xml, "file=\"TWICE.stl\""), "two candidates: left alone");
	cr_assert_not_null(
	    strstr(xml, "file=\"PARTS\""), "a directory is no file");
	cr_assert_not_null(strstr(xml, "filedown=\"gone.png\""));
	free(xml);
	mjcf_legacy_log_free(log);
}

Test(legacy_files, strippath_and_absolute_names)
{
	struct mjcf_legacy_log *log = mjcf_legacy_log_create();
	char err[512] = "", model[512], *xml, line[700];

	put("a.stl", "");
	put("b.stl", "");
	snprintf(model, sizeof(model),
	    "<mujoco>\n<compiler strippath=\"false\"/>\n"
	    "<compiler strippath=\"true\"/>\n"
	    "<asset>\n<mesh file=\"C:\\models\\A.STL\"/>\n"
	    "<mesh file=\"%s/SUB/B.stl\"/>\n</asset>\n</mujoco>\n",
	    scratch);
	put("model.xml", model);
	cr_assert_eq(
	    pipeline("model.xml", log, &xml, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(mjcf_legacy_log_count(log), 2);
	cr_assert_str_eq(mjcf_legacy_log_line(log, 0),
	    "line 5: mesh: file \"C:\\models\\A.STL\" -> "
	    "\"C:\\models\\a.stl\"");
	snprintf(line, sizeof(line),
	    "line 6: mesh: file \"%s/SUB/B.stl\" -> \"%s/SUB/b.stl\"", scratch,
	    scratch);
	cr_assert_str_eq(mjcf_legacy_log_line(log, 1), line,
	    "with strippath only the base name counts, in the model's directory");
	free(xml);
	mjcf_legacy_log_free(log);
}

Test(legacy_files, includes_nest_and_resolve_from_the_model)
{
	struct mjcf_legacy_log *log = mjcf_legacy_log_create();
	char err[512] = "", *xml;

	put("main.xml",
	    "<mujoco>\n<include file=\"Parts/Body.xml\"/>\n"
	    "<worldbody><body><joint name=\"j\" class=\"c\"/>"
	    "</body></worldbody>\n</mujoco>\n");
	/* Nested includes are named from the model's directory too. */
	put("parts/body.xml",
	    "<mujoco>\n<include file=\"parts/Defaults.xml\"/>"
	    "\n<size njmax=\"100\"/>\n</mujoco>\n");
	put("parts/defaults.xml",
	    "<x>\n<default>\n<default class=\"c\">\n"
	    "<joint range=\"0 1\"/>\n</default>\n</default>\n</x>\n");
	cr_assert_eq(
	    pipeline("main.xml", log, &xml, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(mjcf_legacy_log_count(log), 3);
	cr_assert_str_eq(mjcf_legacy_log_line(log, 0),
	    "line 2: include: file \"Parts/Body.xml\" -> \"parts/body.xml\"");
	cr_assert_str_eq(mjcf_legacy_log_line(log, 1),
	    "parts/body.xml line 2: include: file \"parts/Defaults.xml\" -> "
	    "\"parts/defaults.xml\"");
	cr_assert_str_eq(mjcf_legacy_log_line(log, 2),
	    "line 3: joint \"j\": range (from class \"c\") without limited: "
	    "added limited=\"false\" (MuJoCo 1.x meaning)",
	    "a class from an included file applies");
	cr_assert_str_eq(xml,
	    "<mujoco><default><default class=\"c\"><joint range=\"0 1\"/>"
	    "</default></default><size njmax=\"100\"/>\n"
	    "\n"
	    "  <worldbody><body><joint name=\"j\" class=\"c\" "
	    "limited=\"false\"/></body></worldbody></mujoco>\n",
	    "included elements follow on; the model's keep their lines");
	free(xml);
	mjcf_legacy_log_free(log);
}

Test(legacy_files, bad_includes_are_errors)
{
	char err[512] = "", *xml = (char *)"unchanged";

	put("self.xml", "<mujoco>\n<include file=\"SELF.xml\"/>\n</mujoco>");
	cr_assert_eq(pipeline("self.xml", NULL, &xml, err, sizeof(err)), -1);
	cr_assert_null(xml);
	cr_assert_not_null(strstr(err, "line 2: file '"), "%s", err);
	cr_assert_not_null(strstr(err, "already included"), "%s", err);

	put("a.xml", "<mujoco>\n<include file=\"b.xml\"/>\n</mujoco>");
	put("b.xml", "<mujoco>\n<include file=\"a.xml\"/>\n</mujoco>");
	cr_assert_eq(pipeline("a.xml", NULL, &xml, err, sizeof(err)), -1);
	cr_assert_not_null(strstr(err, "b.xml line 2: file '"), "%s", err);

	put("missing.xml", "<mujoco>\n<include file=\"nope.xml\"/>\n</mujoco>");
	cr_assert_eq(pipeline("missing.xml", NULL, &xml, err, sizeof(err)), -1);
	cr_assert_not_null(strstr(err, "line 2: include: "), "%s", err);
	cr_assert_not_null(strstr(err, "No such file"), "%s", err);

	put("broken.xml", "<mujoco>\n<include file=\"bad.xml\"/>\n</mujoco>");
	put("bad.xml", "<mujoco>\n<a>\n</mujoco>");
	cr_assert_eq(pipeline("broken.xml", NULL, &xml, err, sizeof(err)), -1);
	cr_assert_not_null(strstr(err, "bad.xml: line 3"), "%s", err);

	put("empty.xml", "<mujoco>\n<include file=\"none.xml\"/>\n</mujoco>");
	put("none.xml", "<mujoco/>");
	cr_assert_eq(pipeline("empty.xml", NULL, &xml, err, sizeof(err)), -1);
	cr_assert_not_null(strstr(err, "is empty"), "%s", err);

	put("kids.xml",
	    "<mujoco>\n<include file=\"none.xml\"><a/></include>\n"
	    "</mujoco>");
	cr_assert_eq(pipeline("kids.xml", NULL, &xml, err, sizeof(err)), -1);
	cr_assert_not_null(strstr(err, "cannot have children"), "%s", err);
}

/*
 * The lenient parser: what MuJoCo's TinyXML-2 reads, read alike.
 */

TestSuite(lenient, .init = legacy_init, .timeout = 30);

/* Parse leniently a string that must parse. */
static struct mjcf_doc *
parse_lenient(const char *xml, size_t len)
{
	struct mjcf_doc *doc;
	char err[512] = "";

	doc = mjcf_parse_buffer_lenient(xml, len, "test.xml", err, sizeof(err));
	cr_assert_not_null(doc, "%s\n%s", err, xml);
	return doc;
}

/* The value of attribute name of the first element called element. */
static const char *
value_of(const struct mjcf_doc *doc, const char *element, const char *name)
{
	const struct mjcf_node *root = mjcf_root(doc), *n;

	for (n = root; n != NULL; n = mjcf_walk(root, n))
		if (strcmp(n->name, element) == 0)
			return mjcf_attr_get(n, name);
	return NULL;
}

Test(lenient, what_mujoco_reads_and_expat_refuses)
{
	/* From MPL_Pouring.xml, and other habits of hand-written models. */
	static const char
	    xml[] = "  <?xml version=\"1.0\"?>\n"
		    "<!DOCTYPE mujoco [ <!ENTITY e \"x\"> ]>\n"
		    "<!-- a -- b --- -->\n"
		    "<mujoco model=\"caf\xe9 &e; &amp; &nope;\">\n"
		    "<!-- \xe9\xe9 -->\n"
		    "  <worldbody>\n"
		    "    <geom name=\"g\" size=\"0.1\"pos=\"0 0 0.005\"condim=\"4\""
		    "/>\n"
		    "    <body name='b'\tpos = '0 0 1'><joint type=\"free\"/>"
		    "<geom size=\"0.1\"/></body>\n"
		    "  </worldbody>\n"
		    "</mujoco>\n"
		    "<after/> & what is after the root is never read";
	struct mjcf_doc *doc;
	char err[1024] = "";
	mjModel *m;

	cr_assert_null(
	    mjcf_parse_buffer(xml, strlen(xml), "t.xml", err, sizeof(err)),
	    "expat refuses it");
	doc = parse_lenient(xml, strlen(xml));
	/* An entity after one that shrank the value leaves a stale byte. */
	cr_expect_str_eq(
	    value_of(doc, "mujoco", "model"), "caf\xe9 &e; & mnope;");
	cr_expect_str_eq(value_of(doc, "geom", "pos"), "0 0 0.005");
	cr_expect_str_eq(value_of(doc, "geom", "condim"), "4");
	cr_expect_str_eq(value_of(doc, "body", "pos"), "0 0 1");
	cr_expect_eq(mjcf_first_child(mjcf_root(doc), "worldbody")->line, 6);
	cr_expect_eq(mjcf_node_count(doc), 6, "nothing after the root: %zu",
	    mjcf_node_count(doc));
	mjcf_free(doc);
	/* MuJoCo itself, but for what follows the root, which it parses. */
	m = load_vfs("t.xml", xml, (size_t)(strstr(xml, "<after/>") - xml), err,
	    sizeof(err));
	cr_assert_not_null(m, "%s", err);
	cr_expect_str_eq(m->names, "caf\xe9 &e; & mnope;", "the same name");
	cr_expect_eq(m->geom_condim[0], 4);
	cr_expect_float_eq(m->geom_pos[2], 0.005, 1e-12);
	mj_deleteModel(m);
}

/*
 * Each file name as MuJoCo opens it: the name in its error for a mesh
 * that is not there is the value the lenient parser gives, byte for byte,
 * for the decodings TinyXML-2 does its own way.
 */
Test(lenient, file_names_are_what_mujoco_opens)
{
	static const char *const names[] = {
		"plain", "&#46;&#46;/up", /* character references */
		"&#x2e;&#X2e;&#x2E;",     /* only a lowercase x */
		"a&amp;b&x;",             /* a stale byte: "a&bm" */
		"&lt;&lt;&q;&r;&s;",      /* more of them */
		"&#12#46;",               /* digits back to a '#' */
		"&#10000000000000000000000000000000046;", /* wraps to '.' */
		"&#x10FFFF;&#x200000;",     /* too large: nothing */
		"tab\there",                /* kept: expat makes it a space */
		"cr\r\nlf\n\rlf\rcr",       /* line ends made LF */
		"caf\xe9",                  /* not UTF-8 */
		"&amp",                     /* no ';' */
		"&#x1x2e;&#xg;&#x41;&#65;", /* back to the last x */
		"&#4294967342;&#-46;",      /* wrapped, not a number */
	};
	char xml[1024], err[1024], want[600];
	struct mjcf_doc *doc;
	const char *v;
	mjModel *m;
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(xml, sizeof(xml),
		    "<mujoco><asset><mesh name=\"m\"file=\"%sz.stl\"/>"
		    "</asset><worldbody><geom type=\"mesh\" mesh=\"m\"/>"
		    "</worldbody></mujoco>",
		    names[i]);
		doc = parse_lenient(xml, strlen(xml));
		v = value_of(doc, "mesh", "file");
		cr_assert_not_null(v);
		snprintf(want, sizeof(want), "could not open STL file '%s'", v);
		err[0] = '\0';
		m = load_vfs("t.xml", xml, strlen(xml), err, sizeof(err));
		cr_assert_null(m, "%s", names[i]);
		cr_expect_not_null(strstr(err, want), "%s: we read [%s]: %s",
		    names[i], v, err);
		mjcf_free(doc);
	}
}

/*
 * The same, for values made at random of the pieces that decoding
 * treats specially (a fixed seed: the same values every run).
 */
Test(lenient, random_file_names_are_what_mujoco_opens)
{
	static const char *const piece[] = { "&#", "&#x", "x", "X", "2e", "46",
		"0", "9", "f", ";", "#", "&", "&amp;", "&lt;", "&quot;",
		"&nope;", "&apos;", "\r", "\n", "\t", "/", ".", "a", "\xc3" };
	const size_t npiece = sizeof(piece) / sizeof(piece[0]);
	char xml[1024], err[1024], name[256], want[2][600];
	struct mjcf_doc *doc;
	unsigned int seed = 17;
	const char *v;
	mjModel *m;
	size_t i, k, n;

	for (i = 0; i < 400; i++) {
		name[0] = '\0';
		for (k = 0, n = 1 + (size_t)rand_r(&seed) % 12; k < n; k++)
			strcat(name, piece[(size_t)rand_r(&seed) % npiece]);
		snprintf(xml, sizeof(xml),
		    "<mujoco><asset><mesh name=\"m\" file=\"%sz.stl\"/>"
		    "</asset><worldbody><geom type=\"mesh\" mesh=\"m\"/>"
		    "</worldbody></mujoco>",
		    name);
		doc = parse_lenient(xml, strlen(xml));
		v = value_of(doc, "mesh", "file");
		cr_assert_not_null(v);
		/*
		 * A value cut short by U+0000 loses its suffix; one shorter
		 * than 4 bytes makes MuJoCo 2.2.2 throw std::out_of_range
		 * (its mesh suffix check) and abort: the loader's crash.
		 */
		if (strlen(v) < 4) {
			mjcf_free(doc);
			continue;
		}
		snprintf(want[0], sizeof(want[0]),
		    "could not open STL file '%s'", v);
		snprintf(want[1], sizeof(want[1]),
		    "Unknown mesh file type: %s\n", v);
		err[0] = '\0';
		m = load_vfs("t.xml", xml, strlen(xml), err, sizeof(err));
		cr_assert_null(m, "%s", name);
		cr_assert(strstr(err, want[0]) != NULL ||
			strstr(err, want[1]) != NULL,
		    "%s: we read [%s]: %s", name, v, err);
		mjcf_free(doc);
	}
}

Test(lenient, a_nul_ends_the_value_and_the_document)
{
	static const char xml[] = "<mujoco><asset><mesh file=\"ok.stl&#x;"
				  "../../x\"/></asset></mujoco>\0<junk";
	struct mjcf_doc *doc;

	doc = parse_lenient(xml, sizeof(xml) - 1);
	cr_expect_str_eq(value_of(doc, "mesh", "file"), "ok.stl");
	mjcf_free(doc);
	doc = parse_lenient("<mujoco/>\0</mujoco>", 19);
	mjcf_free(doc);
}

Test(lenient, what_mujoco_refuses_is_refused_with_the_line)
{
	static const char *const bad[] = {
		"<mujoco>\n<a>\n</b>\n</mujoco>",
		"<mujoco>\n<a b=\"1\" b=\"2\"/>\n</mujoco>",
		"<mujoco>\n<a b/>\n</mujoco>",
		"<mujoco>\n<a b=1/>\n</mujoco>",
		"<mujoco>\n<a b=\"1/>\n</mujoco>",
		"<mujoco>\n<!-- open\n</mujoco>",
		"<mujoco>\n<a>\n",
		"<mujoco>\n<1a/>\n</mujoco>",
		"\n\ntext only",
		"",
		"</x><mujoco/>",
		"<mujoco>\n</a/>\n</mujoco>",
	};
	char err[512];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		cr_expect_null(mjcf_parse_buffer_lenient(bad[i], strlen(bad[i]),
				   "bad.xml", err, sizeof(err)),
		    "%s", bad[i]);
		cr_expect_not_null(strstr(err, "bad.xml: line "), "%s", err);
		cr_expect(i >= 8 || strstr(err, "line 2") != NULL ||
			strstr(err, "line 3") != NULL,
		    "%s: %s", bad[i], err);
	}
}

Test(lenient, limits_hold)
{
	char *s = nested(MJCF_MAX_DEPTH + 1), err[256] = "";
	struct mjcf_doc *doc;

	cr_assert_null(mjcf_parse_buffer_lenient(
	    s, strlen(s), "deep.xml", err, sizeof(err)));
	cr_assert_not_null(strstr(err, "nested more than 256 deep"), "%s", err);
	free(s);
	s = nested(MJCF_MAX_DEPTH);
	doc = parse_lenient(s, strlen(s));
	mjcf_free(doc);
	free(s);
	cr_assert_null(mjcf_parse_buffer_lenient(
	    "<a/>", (size_t)MJCF_MAX_BYTES + 1, "big.xml", err, sizeof(err)));
	cr_assert_not_null(strstr(err, "more than"), "%s", err);
}

Test(legacy_files, mujoco_habits_expat_refuses)
{
	struct mjcf_legacy_log *log = mjcf_legacy_log_create();
	char err[512] = "", *xml;

	put("pour.xml",
	    "<mujoco>\n"
	    "<!-- -- -->\n"
	    "<worldbody>\n"
	    "<geom size=\"0.1\"pos=\"0 0 0.005\"condim=\"4\"/>\n"
	    "</worldbody>\n"
	    "</mujoco>\n");
	cr_assert_eq(
	    pipeline("pour.xml", log, &xml, err, sizeof(err)), 0, "%s", err);
	cr_assert_not_null(strstr(xml, "condim=\"4\""), "%s", xml);
	free(xml);
	mjcf_legacy_log_free(log);
}
