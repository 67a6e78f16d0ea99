/*
 * Unit tests of the loaded model's text (daemon/modeltext.c): a
 * NUL-ended copy of the bytes given, the directory kept, no text for
 * length 0.
 */
#include "config.h"

#include <string.h>

#include <criterion/criterion.h>

#include "modeltext.h"

TestSuite(modeltext, .timeout = 10);

Test(modeltext, set_copies_and_ends)
{
	struct modeltext *t = modeltext_create();
	char xml[] = "<mujoco/>trailing";

	cr_assert_null(t->xml);
	cr_assert_eq(t->len, 0);
	modeltext_set(t, xml, 9, "/models/here", 7);
	cr_assert_eq(t->len, 9);
	cr_assert_str_eq(t->xml, "<mujoco/>", "only len bytes, NUL-ended");
	cr_assert_neq(t->xml, xml, "a copy");
	xml[0] = 'X';
	cr_assert_eq(t->xml[0], '<', "not the caller's buffer");
	cr_assert_str_eq(t->dir, "/models", "dirlen bytes of dir");
	modeltext_free(t);
}

Test(modeltext, len_zero_is_no_text)
{
	struct modeltext *t = modeltext_create();

	modeltext_set(t, "<mujoco/>", 9, "/a", 2);
	modeltext_set(t, "<mujoco/>", 0, "/b", 2);
	cr_assert_null(t->xml);
	cr_assert_eq(t->len, 0);
	cr_assert_str_eq(t->dir, "/b", "the dir still kept");
	modeltext_free(t);
}
