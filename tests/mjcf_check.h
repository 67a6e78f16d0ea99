/*
 * What the MJCF tree's tests share (test_mjcf, test_mjcf_edit,
 * test_mjcf_attach): a document parsed from text that must parse, and
 * written back to text to compare.
 */
#ifndef HX_MJCF_CHECK_H
#define HX_MJCF_CHECK_H

struct mjcf_doc;

/* Parse xml, which must parse (as "test.xml"). */
struct mjcf_doc *mjcf_check_parse(const char *xml);

/* doc written as text (the caller frees it), its length checked. */
char *mjcf_check_write(const struct mjcf_doc *doc);

/* Assert that doc is written as want. */
void mjcf_check_doc(const struct mjcf_doc *doc, const char *want);

#endif
