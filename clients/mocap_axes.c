/*
 * Axis conventions and scale (docs/drivers.md): a source's pose becomes a
 * pose in MuJoCo's world, z up, in metres.  The conventions are the 48
 * signed permutations of the axes; a mirror among them still turns a
 * rotation into a rotation, because the quaternion's axis is a
 * pseudovector and takes the determinant's sign.
 */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mocap.h"

#define AXES_QUOTE_MAX 40 /* the bytes of a bad spec quoted in a reason */

static int axes_term(const char *, size_t, int *, int *);

void
mocap_error(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL || errlen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* Parse one term, [+|-]x|y|z between optional blanks: its axis and sign. */
static int
axes_term(const char *s, size_t len, int *axis, int *sign)
{
	size_t i = 0;

	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	while (len > i && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	*sign = 1;
	if (i < len && (s[i] == '+' || s[i] == '-')) {
		*sign = s[i] == '-' ? -1 : 1;
		i++;
	}
	if (len - i != 1)
		return -1;
	switch (s[i]) {
	case 'x':
	case 'X':
		*axis = 0;
		return 0;
	case 'y':
	case 'Y':
		*axis = 1;
		return 0;
	case 'z':
	case 'Z':
		*axis = 2;
		return 0;
	}
	return -1;
}

int
mocap_axes_parse(
    const char *spec, struct mocap_axes *out, char *err, size_t errlen)
{
	static const char *const names = "xyz";
	const char *p, *comma;
	struct mocap_axes a;
	int used[3] = { 0, 0, 0 };
	int nterms, row, axis, sign;
	size_t len;

	if (spec == NULL || *spec == '\0') {
		mocap_error(err, errlen, "empty axis convention");
		return -1;
	}
	if (strcasecmp(spec, "z-up") == 0)
		spec = "x,y,z";
	else if (strcasecmp(spec, "y-up") == 0)
		spec = "x,-z,y";
	nterms = 1;
	for (p = spec; *p != '\0'; p++)
		nterms += *p == ',';
	if (nterms != 3) {
		mocap_error(err, errlen,
		    "axis convention '%.*s' is not z-up, y-up or 3 "
		    "comma-separated axes giving world x, y, z (it has %d)",
		    AXES_QUOTE_MAX, spec, nterms);
		return -1;
	}
	memset(&a, 0, sizeof(a));
	p = spec;
	for (row = 0; row < 3; row++) {
		comma = strchr(p, ',');
		len = comma != NULL ? (size_t)(comma - p) : strlen(p);
		if (axes_term(p, len, &axis, &sign) == -1) {
			mocap_error(err, errlen,
			    "'%.*s' is not an axis: x, y or z with an optional sign",
			    (int)(len < AXES_QUOTE_MAX ? len : AXES_QUOTE_MAX),
			    p);
			return -1;
		}
		if (used[axis]) {
			mocap_error(err, errlen,
			    "axis %c appears twice in '%.*s'", names[axis],
			    AXES_QUOTE_MAX, spec);
			return -1;
		}
		used[axis] = 1;
		a.m[row][axis] = sign;
		p += len + 1;
	}
	a.det = (int)(a.m[0][0] *
		(a.m[1][1] * a.m[2][2] - a.m[1][2] * a.m[2][1]) -
	    a.m[0][1] * (a.m[1][0] * a.m[2][2] - a.m[1][2] * a.m[2][0]) +
	    a.m[0][2] * (a.m[1][0] * a.m[2][1] - a.m[1][1] * a.m[2][0]));
	a.scale = 1;
	*out = a;
	return 0;
}

int
mocap_axes_parse_scale(
    const char *spec, struct mocap_axes *a, char *err, size_t errlen)
{
	char *end;
	double v;

	if (spec == NULL || *spec == '\0') {
		mocap_error(err, errlen, "empty scale");
		return -1;
	}
	if (strcmp(spec, "m") == 0)
		v = 1;
	else if (strcmp(spec, "cm") == 0)
		v = 0.01;
	else if (strcmp(spec, "mm") == 0)
		v = 0.001;
	else {
		v = strtod(spec, &end);
		if (*end != '\0' || strchr(" \t\n\v\f\r", spec[0]) != NULL) {
			mocap_error(err, errlen,
			    "scale '%.*s' is not a number or one of m, cm, mm",
			    AXES_QUOTE_MAX, spec);
			return -1;
		}
		if (!isfinite(v) || !(v > 0)) {
			mocap_error(err, errlen,
			    "scale '%.*s' is not a positive finite number",
			    AXES_QUOTE_MAX, spec);
			return -1;
		}
	}
	a->scale = v;
	return 0;
}

void
mocap_axes_apply(const struct mocap_axes *a, const double pos[3],
    const double quat[4], double pos_out[3], double quat_out[4])
{
	double p[3], v[3];
	int i, j;

	for (i = 0; i < 3; i++) {
		p[i] = 0;
		v[i] = 0;
		for (j = 0; j < 3; j++) {
			p[i] += a->m[i][j] * pos[j];
			v[i] += a->m[i][j] * quat[1 + j];
		}
	}
	quat_out[0] = quat[0];
	for (i = 0; i < 3; i++) {
		pos_out[i] = a->scale * p[i];
		quat_out[1 + i] = a->det * v[i];
	}
}

int
mocap_sample_set(struct mocap_sample *s, double time, const double pos[3],
    const double quat[4])
{
	s->id = -1;
	s->time = time;
	memcpy(s->pos, pos, sizeof(s->pos));
	memcpy(s->quat, quat, sizeof(s->quat));
	return mocap_quat_normalize(s->quat);
}

int
mocap_quat_normalize(double q[4])
{
	double big = 0, t[4], n = 0;
	int i;

	/* Scale by the largest part first, so that no square overflows. */
	for (i = 0; i < 4; i++) {
		if (!isfinite(q[i]))
			return -1;
		if (fabs(q[i]) > big)
			big = fabs(q[i]);
	}
	if (big == 0)
		return -1;
	for (i = 0; i < 4; i++) {
		t[i] = q[i] / big;
		n += t[i] * t[i];
	}
	n = sqrt(n);
	for (i = 0; i < 4; i++)
		q[i] = t[i] / n;
	return 0;
}
