/* The texts of the World API: see haptix_sim_text.h. */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "haptix_sim_text.h"
#include "quat.h"

/* A growing string; out of memory leaves it NULL. */
struct simtext_buf {
	char *s;
	size_t n, cap;
};

static void
buf_add(struct simtext_buf *b, const char *s, size_t n)
{
	char *p;

	if (b->s == NULL && b->cap != 0)
		return;
	if (b->n + n + 1 > b->cap) {
		b->cap = (b->n + n + 1) * 2;
		p = realloc(b->s, b->cap);
		if (p == NULL) {
			free(b->s);
			b->s = NULL;
			return;
		}
		b->s = p;
	}
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = '\0';
}

static void
buf_str(struct simtext_buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

/* Add s with what an attribute value cannot hold escaped. */
static void
buf_escaped(struct simtext_buf *b, const char *s)
{
	for (; *s != '\0'; s++)
		switch (*s) {
		case '&':
			buf_str(b, "&amp;");
			break;
		case '<':
			buf_str(b, "&lt;");
			break;
		case '"':
			buf_str(b, "&quot;");
			break;
		default:
			buf_add(b, s, 1);
		}
}

/* A value with XML's five entities replaced; malloc'd. */
static char *
text_unescape(const char *s, size_t n)
{
	static const struct {
		const char *ent;
		char c;
	} ents[] = { { "&lt;", '<' }, { "&gt;", '>' }, { "&amp;", '&' },
		{ "&quot;", '"' }, { "&apos;", '\'' } };
	char *out = malloc(n + 1), *o = out;
	size_t i, k, el;

	if (out == NULL)
		return NULL;
	for (i = 0; i < n;) {
		for (k = 0; k < sizeof(ents) / sizeof(ents[0]); k++) {
			el = strlen(ents[k].ent);
			if (i + el <= n && strncmp(s + i, ents[k].ent, el) == 0)
				break;
		}
		if (k < sizeof(ents) / sizeof(ents[0])) {
			*o++ = ents[k].c;
			i += strlen(ents[k].ent);
		} else
			*o++ = s[i++];
	}
	*o = '\0';
	return out;
}

void
simtext_tag_free(struct simtext_tag *t)
{
	int i;

	for (i = 0; i < t->nattrs; i++) {
		free(t->attr[i]);
		free(t->value[i]);
	}
	t->nattrs = 0;
}

/* Read the attributes of the tag at t->start into t. */
static int
tag_attrs(struct simtext_tag *t, const char *p, char *err, size_t len)
{
	const char *a, *v;
	char q;

	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '>' || (p[0] == '/' && p[1] == '>')) {
			t->end = p + (*p == '>' ? 1 : 2);
			return 0;
		}
		a = p;
		while (isalnum((unsigned char)*p) || strchr("_:.-", *p) != NULL)
			p++;
		if (p == a || *p != '=' || (p[1] != '"' && p[1] != '\'')) {
			snprintf(err, len, "<%s>: not an attribute at '%.20s'",
			    t->name, a);
			return -2;
		}
		q = p[1];
		v = p + 2;
		if ((p = strchr(v, q)) == NULL) {
			snprintf(err, len,
			    "<%s>: an attribute value has no end", t->name);
			return -2;
		}
		if (t->nattrs == SIMTEXT_ATTRS) {
			snprintf(err, len, "<%s>: more than %d attributes",
			    t->name, SIMTEXT_ATTRS);
			return -2;
		}
		t->attr[t->nattrs] = text_unescape(a, (size_t)(v - 2 - a));
		t->value[t->nattrs] = text_unescape(v, (size_t)(p - v));
		t->nattrs++;
		p++;
	}
}

int
simtext_tag(const char *from, const char *name, struct simtext_tag *out,
    char *err, size_t len)
{
	const char *p = from, *n;
	size_t nl;
	int rc;

	memset(out, 0, sizeof(*out));
	while ((p = strchr(p, '<')) != NULL) {
		if (strncmp(p, "<!--", 4) == 0) {
			if ((p = strstr(p, "-->")) == NULL)
				break;
			continue;
		}
		n = ++p;
		if (!isalpha((unsigned char)*n) && *n != '_')
			continue;
		nl = strcspn(n, " \t\r\n/>");
		if (nl >= sizeof(out->name) ||
		    (name != NULL &&
			(strlen(name) != nl || strncmp(n, name, nl))))
			continue;
		memcpy(out->name, n, nl);
		out->name[nl] = '\0';
		out->start = n - 1;
		if ((rc = tag_attrs(out, n + nl, err, len)) != 0)
			simtext_tag_free(out);
		return rc;
	}
	return -1;
}

const char *
simtext_attr(const struct simtext_tag *t, const char *name)
{
	int i;

	for (i = 0; i < t->nattrs; i++)
		if (strcmp(t->attr[i], name) == 0)
			return t->value[i];
	return NULL;
}

char *
simtext_tag_rewrite(const struct simtext_tag *t, const char *const *drop,
    const char *const *add, int nadd)
{
	struct simtext_buf b = { 0 };
	const char *const *d;
	int i;

	buf_str(&b, "<");
	buf_str(&b, t->name);
	for (i = 0; i < t->nattrs; i++) {
		for (d = drop; *d != NULL && strcmp(*d, t->attr[i]) != 0; d++)
			;
		if (*d != NULL)
			continue;
		buf_str(&b, " ");
		buf_str(&b, t->attr[i]);
		buf_str(&b, "=\"");
		buf_escaped(&b, t->value[i]);
		buf_str(&b, "\"");
	}
	for (i = 0; i < nadd; i++) {
		buf_str(&b, " ");
		buf_str(&b, add[2 * i]);
		buf_str(&b, "=\"");
		buf_escaped(&b, add[2 * i + 1]);
		buf_str(&b, "\"");
	}
	buf_str(&b, t->end[-2] == '/' ? "/>" : ">");
	return b.s;
}

char *
simtext_mjcf_body(const char *doc, const char *name, const double pos[3],
    const double quat[4], char *err, size_t len)
{
	static const char *const drop[] = { "name", "pos", "quat", "euler",
		"axisangle", "xyaxes", "zaxis", NULL };
	struct simtext_tag wb, body;
	struct simtext_buf b = { 0 };
	char p[128], q[160], *tag;
	const char *add[6];

	if (simtext_tag(doc, "worldbody", &wb, err, len) != 0 ||
	    simtext_tag(wb.end, "body", &body, err, len) != 0) {
		simtext_tag_free(&wb);
		snprintf(err, len,
		    "the MJCF has no body in its worldbody to add as a model");
		return NULL;
	}
	simtext_tag_free(&wb);
	snprintf(p, sizeof(p), "%.9g %.9g %.9g", pos[0], pos[1], pos[2]);
	snprintf(q, sizeof(q), "%.9g %.9g %.9g %.9g", quat[0], quat[1], quat[2],
	    quat[3]);
	add[0] = "name", add[1] = name;
	add[2] = "pos", add[3] = p;
	add[4] = "quat", add[5] = q;
	tag = simtext_tag_rewrite(&body, drop, add, 3);
	if (tag != NULL) {
		buf_add(&b, doc, (size_t)(body.start - doc));
		buf_str(&b, tag);
		buf_str(&b, body.end);
	}
	free(tag);
	simtext_tag_free(&body);
	if (b.s == NULL)
		snprintf(err, len, "out of memory");
	return b.s;
}

int
simtext_is_sdf(const char *text)
{
	struct simtext_tag t;
	char err[64];

	if (simtext_tag(text, "sdf", &t, err, sizeof(err)) != 0)
		return 0;
	simtext_tag_free(&t);
	return 1;
}

/*
 * The element name's first occurrence in [from, to): its content's
 * bounds (empty for <name/>).  0, or -1 when there is none.
 */
static int
sdf_child(const char *from, const char *to, const char *name, const char **cs,
    const char **ce)
{
	struct simtext_tag t;
	char err[128], close[72];
	const char *p;
	int depth = 1;

	if (simtext_tag(from, name, &t, err, sizeof(err)) != 0)
		return -1;
	simtext_tag_free(&t);
	if (t.start >= to)
		return -1;
	*cs = t.end;
	if (t.end[-2] == '/') {
		*ce = t.end;
		return 0;
	}
	snprintf(close, sizeof(close), "</%s>", name);
	for (p = t.end; p < to; p++) {
		if (strncmp(p, close, strlen(close)) == 0 && --depth == 0) {
			*ce = p;
			return 0;
		}
		if (p[0] == '<' && strncmp(p + 1, name, strlen(name)) == 0 &&
		    strchr(" \t\r\n>", p[1 + strlen(name)]) != NULL)
			depth++;
	}
	return -1;
}

/* The numbers of element name in [from, to): how many were read. */
static int
sdf_numbers(
    const char *from, const char *to, const char *name, double *v, int max)
{
	const char *cs, *ce;
	char *end;
	int n = 0;

	if (sdf_child(from, to, name, &cs, &ce) != 0)
		return 0;
	while (n < max && cs < ce) {
		v[n] = strtod(cs, &end);
		if (end == cs || end > ce)
			break;
		n++;
		cs = end;
	}
	return n;
}

/* Roll, pitch, yaw (fixed axes x, y, z) as a quaternion, w first. */
static void
sdf_rpy(const double rpy[3], double q[4])
{
	double cr = cos(rpy[0] / 2), sr = sin(rpy[0] / 2);
	double cp = cos(rpy[1] / 2), sp = sin(rpy[1] / 2);
	double cy = cos(rpy[2] / 2), sy = sin(rpy[2] / 2);

	q[0] = cr * cp * cy + sr * sp * sy;
	q[1] = sr * cp * cy - cr * sp * sy;
	q[2] = cr * sp * cy + sr * cp * sy;
	q[3] = cr * cp * sy - sr * sp * cy;
}

/* A <pose> in [from, to) as position and quaternion; none: identity. */
static void
sdf_pose(const char *from, const char *to, double pos[3], double q[4])
{
	double v[6] = { 0 };
	const char *cs, *ce;

	/* Only the element's own pose, not one of its children's. */
	if (sdf_child(from, to, "pose", &cs, &ce) == 0)
		sdf_numbers(from, to, "pose", v, 6);
	memcpy(pos, v, 3 * sizeof(double));
	sdf_rpy(v + 3, q);
}

/* v rotated by q. */
static void
sdf_rotate(const double q[4], const double v[3], double out[3])
{
	double p[4] = { 0, v[0], v[1], v[2] }, c[4], t[4], r[4];

	c[0] = q[0], c[1] = -q[1], c[2] = -q[2], c[3] = -q[3];
	quat_mul(q, p, t);
	quat_mul(t, c, r);
	memcpy(out, r + 1, 3 * sizeof(double));
}

/* Gazebo's material scripts that have a plain colour. */
static int
sdf_colour(const char *from, const char *to, double rgba[4])
{
	static const struct {
		const char *name;
		double rgba[4];
	} scripts[] = {
		{ "Gazebo/Red", { 1, 0, 0, 1 } },
		{ "Gazebo/Green", { 0, 1, 0, 1 } },
		{ "Gazebo/Blue", { 0, 0, 1, 1 } },
		{ "Gazebo/White", { 1, 1, 1, 1 } },
		{ "Gazebo/Black", { 0, 0, 0, 1 } },
		{ "Gazebo/Grey", { 0.7, 0.7, 0.7, 1 } },
		{ "Gazebo/Yellow", { 1, 1, 0, 1 } },
		{ "Gazebo/Orange", { 1, 0.5, 0.1, 1 } },
		{ "Gazebo/Purple", { 1, 0, 1, 1 } },
	};
	const char *cs, *ce, *ms, *me;
	size_t i, n;

	if (sdf_child(from, to, "material", &ms, &me) != 0)
		return 0;
	rgba[3] = 1;
	if (sdf_numbers(ms, me, "diffuse", rgba, 4) >= 3 ||
	    sdf_numbers(ms, me, "ambient", rgba, 4) >= 3)
		return 1;
	if (sdf_child(ms, me, "script", &cs, &ce) != 0 ||
	    sdf_child(cs, ce, "name", &cs, &ce) != 0)
		return 0;
	while (cs < ce && isspace((unsigned char)*cs))
		cs++;
	n = (size_t)(ce - cs);
	while (n > 0 && isspace((unsigned char)cs[n - 1]))
		n--;
	for (i = 0; i < sizeof(scripts) / sizeof(scripts[0]); i++)
		if (strlen(scripts[i].name) == n &&
		    strncmp(cs, scripts[i].name, n) == 0) {
			memcpy(rgba, scripts[i].rgba, sizeof(scripts[i].rgba));
			return 1;
		}
	return 0;
}

/* One <collision> as an MJCF geom; -1 with err for a shape not taken. */
static int
sdf_geom(struct simtext_buf *b, const char *name, int k, const char *cs,
    const char *ce, const double lpos[3], const double lq[4], double mass,
    const double *rgba, char *err, size_t len)
{
	const char *gs, *ge, *ss, *se;
	double cpos[3], cq[4], pos[3], q[4], v[3];
	char line[512], size[128];

	if (sdf_child(cs, ce, "geometry", &gs, &ge) != 0) {
		snprintf(err, len, "SDF: a collision without a geometry");
		return -1;
	}
	if (sdf_child(gs, ge, "box", &ss, &se) == 0) {
		if (sdf_numbers(ss, se, "size", v, 3) != 3)
			goto bad;
		snprintf(size, sizeof(size),
		    "type=\"box\" size=\"%.9g %.9g %.9g\"", v[0] / 2, v[1] / 2,
		    v[2] / 2);
	} else if (sdf_child(gs, ge, "sphere", &ss, &se) == 0) {
		if (sdf_numbers(ss, se, "radius", v, 1) != 1)
			goto bad;
		snprintf(
		    size, sizeof(size), "type=\"sphere\" size=\"%.9g\"", v[0]);
	} else if (sdf_child(gs, ge, "cylinder", &ss, &se) == 0) {
		if (sdf_numbers(ss, se, "radius", v, 1) != 1 ||
		    sdf_numbers(ss, se, "length", v + 1, 1) != 1)
			goto bad;
		snprintf(size, sizeof(size),
		    "type=\"cylinder\" size=\"%.9g %.9g\"", v[0], v[1] / 2);
	} else {
		snprintf(err, len,
		    "SDF: only box, sphere and cylinder geometries are taken "
		    "(give MJCF for others)");
		return -1;
	}
	/* The collision's pose is in the link's frame. */
	sdf_pose(cs, gs, cpos, cq);
	sdf_rotate(lq, cpos, pos);
	for (int i = 0; i < 3; i++)
		pos[i] += lpos[i];
	quat_mul(lq, cq, q);
	snprintf(line, sizeof(line),
	    "<geom name=\"%s/collision%d\" %s pos=\"%.9g %.9g %.9g\" "
	    "quat=\"%.9g %.9g %.9g %.9g\"",
	    name, k, size, pos[0], pos[1], pos[2], q[0], q[1], q[2], q[3]);
	buf_str(b, line);
	if (mass > 0) {
		snprintf(line, sizeof(line), " mass=\"%.9g\"", mass);
		buf_str(b, line);
	}
	if (rgba != NULL) {
		snprintf(line, sizeof(line), " rgba=\"%.9g %.9g %.9g %.9g\"",
		    rgba[0], rgba[1], rgba[2], rgba[3]);
		buf_str(b, line);
	}
	buf_str(b, "/>");
	return 0;
bad:
	snprintf(err, len, "SDF: a geometry without its size");
	return -1;
}

char *
simtext_sdf_model(const char *sdf, const char *name, char *err, size_t len)
{
	struct simtext_buf b = { 0 };
	const char *end = sdf + strlen(sdf), *ms, *me, *ls, *le, *cs, *ce, *p;
	const char *vs, *ve;
	double lpos[3], lq[4], mass = 0, rgba[4], st;
	int ncoll = 0, k, has_rgba = 0, is_static = 0;
	char line[256];

	if (sdf_child(sdf, end, "model", &ms, &me) != 0) {
		snprintf(err, len, "SDF: no <model>");
		return NULL;
	}
	if (sdf_child(ms, me, "link", &ls, &le) != 0) {
		snprintf(err, len, "SDF: the model has no <link>");
		return NULL;
	}
	if (sdf_child(le, me, "link", &cs, &ce) == 0 ||
	    sdf_child(ms, me, "joint", &cs, &ce) == 0) {
		snprintf(err, len,
		    "SDF: only models of one link are taken (give MJCF for "
		    "others)");
		return NULL;
	}
	if (sdf_numbers(ms, ls, "static", &st, 1) == 1)
		is_static = st != 0;
	else if (sdf_child(ms, ls, "static", &cs, &ce) == 0)
		is_static = strncmp(cs, "true", 4) == 0;
	/* The link's pose, before its first child element with a pose. */
	p = strstr(ls, "<inertial");
	if (p == NULL || p > le)
		p = strstr(ls, "<collision");
	sdf_pose(ls, p != NULL && p < le ? p : le, lpos, lq);
	if (sdf_child(ls, le, "inertial", &cs, &ce) == 0)
		sdf_numbers(cs, ce, "mass", &mass, 1);
	if (sdf_child(ls, le, "visual", &vs, &ve) == 0)
		has_rgba = sdf_colour(vs, ve, rgba);
	for (p = ls; sdf_child(p, le, "collision", &cs, &ce) == 0; p = ce)
		ncoll++;
	if (ncoll == 0) {
		snprintf(err, len, "SDF: the link has no <collision>");
		return NULL;
	}
	buf_str(&b, "<mujoco><worldbody><body name=\"");
	buf_escaped(&b, name);
	buf_str(&b, "\">");
	if (!is_static) {
		snprintf(line, sizeof(line), "<freejoint name=\"");
		buf_str(&b, line);
		buf_escaped(&b, name);
		buf_str(&b, "\"/>");
	}
	for (k = 0, p = ls; sdf_child(p, le, "collision", &cs, &ce) == 0;
	     p = ce, k++)
		if (sdf_geom(&b, name, k, cs, ce, lpos, lq, mass / ncoll,
			has_rgba ? rgba : NULL, err, len) != 0) {
			free(b.s);
			return NULL;
		}
	buf_str(&b, "</body></worldbody></mujoco>");
	if (b.s == NULL)
		snprintf(err, len, "out of memory");
	return b.s;
}
