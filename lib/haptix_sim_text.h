/*
 * The texts of the World API (haptix_sim.c): start tags of MJCF read
 * for their attributes, the first body of an MJCF document placed and
 * named, and a small SDF subset of simple shapes written as MJCF.  Not a
 * parser: the daemon's loader reads what comes out, as MuJoCo does.
 * Internal to libhaptix.
 */
#ifndef HX_HAPTIX_SIM_TEXT_H
#define HX_HAPTIX_SIM_TEXT_H

#include <stddef.h>

#define SIMTEXT_ATTRS 32

/* A start tag: its element name and attributes, values unescaped. */
struct simtext_tag {
	const char *start, *end; /* '<' and one past '>' in the document */
	char name[64];
	int nattrs;
	char *attr[SIMTEXT_ATTRS], *value[SIMTEXT_ATTRS]; /* malloc'd */
};

/*
 * Find the first start tag of element name at or after from (name NULL:
 * any element): 0, -1 if there is none, -2 if it is malformed (err
 * says why).  Free it with simtext_tag_free().
 */
int simtext_tag(const char *from, const char *name, struct simtext_tag *out,
    char *err, size_t len);
void simtext_tag_free(struct simtext_tag *t);

/* The value of attribute name, or NULL. */
const char *simtext_attr(const struct simtext_tag *t, const char *name);

/*
 * An MJCF document with its worldbody's first body renamed name and
 * placed at pos and quat (its own orientation attributes dropped); or
 * NULL with err saying why.  Caller frees.
 */
char *simtext_mjcf_body(const char *doc, const char *name, const double pos[3],
    const double quat[4], char *err, size_t len);

/*
 * A start tag rewritten: attributes named in drop left out, then
 * nadd name and value pairs added.  Caller frees.
 */
char *simtext_tag_rewrite(const struct simtext_tag *t, const char *const *drop,
    const char *const *add, int nadd);

/*
 * An SDF model of one link of boxes, spheres and cylinders as an MJCF
 * document whose body is named name; NULL with err saying why (what the
 * subset lacks).  Caller frees.
 */
char *simtext_sdf_model(
    const char *sdf, const char *name, char *err, size_t len);

/* 1 if the text looks like SDF (an <sdf> element), else 0. */
int simtext_is_sdf(const char *text);

#endif
