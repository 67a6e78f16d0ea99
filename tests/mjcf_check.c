/* What the MJCF tree's tests share: see mjcf_check.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "mjcf.h"
#include "mjcf_check.h"

struct mjcf_doc *
mjcf_check_parse(const char *xml)
{
	struct mjcf_doc *doc;
	char err[512] = "";

	doc = mjcf_parse_buffer(xml, strlen(xml), "test.xml", err, sizeof(err));
	cr_assert_not_null(doc, "%s", err);
	return doc;
}

char *
mjcf_check_write(const struct mjcf_doc *doc)
{
	char *buf;
	size_t len;

	cr_assert_eq(mjcf_write(doc, &buf, &len), 0);
	cr_assert_eq(strlen(buf), len);
	return buf;
}

void
mjcf_check_doc(const struct mjcf_doc *doc, const char *want)
{
	char *out = mjcf_check_write(doc);

	cr_assert_str_eq(out, want, "got:\n%s\nwanted:\n%s", out, want);
	free(out);
}
