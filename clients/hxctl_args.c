/*
 * The command's arguments: numbers, lists and NAME=V in text, the
 * options of a command (sorted from its positional arguments), objects
 * by id or name, seconds and stream fields.  A mistake in the text is a
 * usage error, found before anything is sent; what only the server can
 * say (an unknown name, a count the model does not have) is a failure.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "haptixd.h"
#include "hxctl_common.h"

/* Every field of a stream frame. */
#define CTL_FIELDS_ALL ((2u << HXD_FIELD_MAX) - 2)

static struct ctl_opt *ctl_opt_find(struct ctl_opt *, int, const char *);
static const char *ctl_opt_mean(const struct ctl_opt *, int, const char *);
static const char *ctl_name_mean(struct ctl *, int, const char *);
static const char *ctl_objtype_mean(const char *);
static const char *ctl_field_mean(const char *);
static int ctl_check_list(struct ctl *, const char *, const char *, int, int *);

/*----------------------------------------------------------- parsing */

/* Parse all of s as a finite number; 0, or -1 if it is not one. */
int
parse_double(const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end != '\0' || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

/* Parse all of s as a decimal integer in [lo, hi]; 0 or -1. */
int
parse_long(const char *s, long lo, long hi, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (end == s || *end != '\0' || errno != 0 || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

/*
 * Parse a comma-separated list of finite numbers into out (room for max;
 * out may be NULL to only count and check).  Returns the count, or -1
 * with *bad (if bad is not NULL) at the element that is not a number.
 */
int
parse_list(const char *s, double *out, int max, const char **bad)
{
	char buf[128];
	const char *p = s, *comma;
	size_t len;
	double v;
	int n = 0;

	for (;;) {
		comma = strchr(p, ',');
		len = comma != NULL ? (size_t)(comma - p) : strlen(p);
		if (bad != NULL)
			*bad = p;
		if (len == 0 || len >= sizeof(buf))
			return -1;
		memcpy(buf, p, len);
		buf[len] = '\0';
		if (parse_double(buf, &v) != 0)
			return -1;
		if (out != NULL && n < max)
			out[n] = v;
		n++;
		if (comma == NULL)
			return n;
		p = comma + 1;
	}
}

/*
 * Split "NAME=VALUE" at its last '=': copy NAME into name and return
 * VALUE, or NULL if there is no '=', no name or the name does not fit.
 */
const char *
parse_assign(const char *arg, char *name, size_t len)
{
	const char *eq = strrchr(arg, '=');
	size_t n;

	if (eq == NULL || eq == arg)
		return NULL;
	n = (size_t)(eq - arg);
	if (n >= len)
		return NULL;
	memcpy(name, arg, n);
	name[n] = '\0';
	return eq + 1;
}

/*----------------------------------------------------------- objects */

/*
 * Resolve arg, an object's id (a whole number) or its name, to an id.
 * Returns 0, or CTL_FAIL after reporting an unknown name.
 */
int
ctl_object(struct ctl *ctl, int type, const char *arg, int *id)
{
	long v;

	if (parse_long(arg, INT_MIN, INT_MAX, &v) != 0)
		return ctl_name2id(ctl, type, arg, id);
	*id = (int)v;
	return CTL_OK;
}

/* Ask the server for the id of a name; 0, or CTL_FAIL if it has none. */
int
ctl_name2id(struct ctl *ctl, int type, const char *name, int *id)
{
	int rc;

	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_name2id(ctl->conn, type, name, id) != HXD_OK)
		return ctl_fail(ctl);
	if (*id < 0)
		return ctl_error(ctl, HXD_BADINDEX, "no %s named \"%s\"%s",
		    hxd_obj_name(type), name, ctl_name_mean(ctl, type, name));
	return CTL_OK;
}

/*
 * ctl_done() for a call that named an object of type: when the server
 * knew no such name (BADINDEX), say the model's name nearest to it.
 */
int
ctl_done_named(struct ctl *ctl, int result, int type, const char *name)
{
	char err[512];

	if (result != HXD_BADINDEX)
		return ctl_done(ctl, result);
	snprintf(err, sizeof(err), "%s", hxd_error(ctl->conn));
	return ctl_error(
	    ctl, result, "%s%s", err, ctl_name_mean(ctl, type, name));
}

/* "; did you mean ..." with the model's name of type nearest to name. */
static const char *
ctl_name_mean(struct ctl *ctl, int type, const char *name)
{
	const char *const *names;
	int n;

	if (ctl_get_info(ctl) != 0)
		return "";
	names = table_names(ctl->info, type, &n);
	return names != NULL ? ctl_mean(name, names, (size_t)n) : "";
}

/* Check that id is one of the n objects of type ("the model has what = n"). */
int
ctl_id_check(struct ctl *ctl, int type, int id, int n, const char *what)
{
	if (id >= 0 && id < n)
		return CTL_OK;
	return ctl_error(ctl, HXD_BADINDEX,
	    "%s id %d is out of range (the model has %s = %d)",
	    hxd_obj_name(type), id, what, n);
}

/* "; did you mean ..." with the object type nearest to arg. */
static const char *
ctl_objtype_mean(const char *arg)
{
	const char *names[HXD_OBJ_KEY + 1];
	int t;

	for (t = 0; t <= HXD_OBJ_KEY; t++)
		names[t] = t == HXD_OBJ_UNKNOWN ? NULL : hxd_obj_name(t);
	return ctl_mean(arg, names, NELEM(names));
}

/* Parse an object type, by name or number; 0 or CTL_USAGE. */
int
ctl_objtype(struct ctl *ctl, const char *arg, int *type)
{
	long v;

	if (parse_long(arg, HXD_OBJ_BODY, HXD_OBJ_KEY, &v) == 0)
		*type = (int)v;
	else
		*type = hxd_obj_parse(arg);
	if (*type == HXD_OBJ_UNKNOWN)
		return ctl_usage_error(ctl,
		    "'%s' is not an object type (body, joint, geom, site, "
		    "tendon, actuator, sensor, equality, key, material, ...)%s",
		    arg, ctl_objtype_mean(arg));
	return CTL_OK;
}

/*--------------------------------------------------------- arguments */

/* Parse n arguments as finite numbers into out; 0 or CTL_USAGE. */
int
ctl_numbers(struct ctl *ctl, char **args, int n, double *out)
{
	int i;

	for (i = 0; i < n; i++) {
		if (parse_double(args[i], &out[i]) != 0)
			return ctl_usage_error(
			    ctl, "'%s' is not a finite number", args[i]);
	}
	return CTL_OK;
}

/* Require one positional argument, a what ("body"); 0 or CTL_USAGE. */
int
ctl_which(struct ctl *ctl, const char *what)
{
	if (ctl->npos == 0)
		return ctl_usage_error(ctl, "which %s?", what);
	if (ctl->npos > 1)
		return ctl_usage_error(ctl, "one %s at a time", what);
	return CTL_OK;
}

/* "; did you mean ..." with the option of opts nearest to a. */
static const char *
ctl_opt_mean(const struct ctl_opt *opts, int nopts, const char *a)
{
	const char *names[16];
	char word[64];
	int i, n = 0;

	snprintf(word, sizeof(word), "%.*s", (int)strcspn(a, "="), a);
	for (i = 0; i < nopts && n < (int)NELEM(names); i++)
		names[n++] = opts[i].name;
	return ctl_mean(word, names, (size_t)n);
}

/* Find the option called name (without any "=value"), or NULL. */
static struct ctl_opt *
ctl_opt_find(struct ctl_opt *opts, int nopts, const char *name)
{
	size_t len = strcspn(name, "=");
	int i;

	for (i = 0; i < nopts; i++) {
		if (opts[i].name != NULL && strlen(opts[i].name) == len &&
		    strncmp(opts[i].name, name, len) == 0)
			return &opts[i];
	}
	return NULL;
}

/*
 * Sort the command's arguments into the options in opts ("--name V" or
 * "--name=V") and positional arguments (ctl->pos), checking every number
 * list.  Returns 0, CTL_USAGE or CTL_FAIL.
 */
int
ctl_options(struct ctl *ctl, struct ctl_opt *opts, int nopts)
{
	struct ctl_opt *o;
	const char *a, *v;
	int i, rc, rest = 0;

	ctl->pos = calloc((size_t)ctl->argc + 1, sizeof(*ctl->pos));
	if (ctl->pos == NULL)
		return ctl_error(ctl, HXD_CANNOTSEND, "out of memory");
	for (i = 0; i < ctl->argc; i++) {
		a = ctl->argv[i];
		if (rest || strncmp(a, "--", 2) != 0) {
			ctl->pos[ctl->npos++] = ctl->argv[i];
			continue;
		}
		if (a[2] == '\0') {
			rest = 1;
			continue;
		}
		if ((o = ctl_opt_find(opts, nopts, a)) == NULL) {
			if (strcmp(a, "--json") == 0 ||
			    strncmp(a, "--server", 8) == 0 ||
			    strncmp(a, "--timeout", 9) == 0)
				return ctl_usage_error(
				    ctl, "%s goes before the command", a);
			return ctl_usage_error(ctl, "unknown option %s%s", a,
			    ctl_opt_mean(opts, nopts, a));
		}
		if (o->given)
			return ctl_usage_error(
			    ctl, "%s is given twice", o->name);
		o->given = 1;
		v = strchr(a, '=');
		if (o->kind == OPT_FLAG) {
			if (v != NULL)
				return ctl_usage_error(
				    ctl, "%s takes no value", o->name);
			continue;
		}
		if (v != NULL)
			v++;
		else if (i + 1 < ctl->argc)
			v = ctl->argv[++i];
		else
			return ctl_usage_error(
			    ctl, "%s needs a value", o->name);
		o->value = v;
		if (o->kind == OPT_LIST &&
		    (rc = ctl_check_list(
			 ctl, o->name, v, o->want, &o->count)) != 0)
			return rc;
	}
	return CTL_OK;
}

/*
 * Check that s, the value of what, is a list of finite numbers, want of
 * them unless want is 0; sets *count.  Returns 0 or CTL_USAGE.
 */
static int
ctl_check_list(
    struct ctl *ctl, const char *what, const char *s, int want, int *count)
{
	const char *bad;
	int n;

	if ((n = parse_list(s, NULL, 0, &bad)) < 0)
		return ctl_usage_error(ctl, "%s: '%.*s' is not a finite number",
		    what, (int)strcspn(bad, ","), bad);
	if (want > 0 && n != want)
		return ctl_usage_error(
		    ctl, "%s takes %d numbers, not %d", what, want, n);
	*count = n;
	return CTL_OK;
}

/*
 * Copy a list option's values, if it was given, into dst, which has room
 * for want; the count must match what the model has.  Returns 0 or
 * CTL_FAIL.
 */
int
ctl_fill(struct ctl *ctl, const struct ctl_opt *o, const char *what,
    double *dst, int want)
{
	if (!o->given)
		return CTL_OK;
	if (o->count != want)
		return ctl_error(ctl, HXD_BADSIZE,
		    "%s has %d values, but the model has %s = %d", o->name,
		    o->count, what, want);
	parse_list(o->value, dst, want, NULL);
	return CTL_OK;
}

/*
 * Sort the arguments into opts and positional NAME=LIST assignments
 * (form shows one), each of want numbers (0: any).  Returns 0, CTL_USAGE
 * or CTL_FAIL.
 */
int
ctl_assign_options(struct ctl *ctl, struct ctl_opt *opts, int nopts, int want,
    const char *form)
{
	char name[CTL_NAME_MAX];
	const char *v;
	int i, count, rc;

	if ((rc = ctl_options(ctl, opts, nopts)) != 0)
		return rc;
	for (i = 0; i < ctl->npos; i++) {
		v = parse_assign(ctl->pos[i], name, sizeof(name));
		if (v == NULL)
			return ctl_usage_error(
			    ctl, "'%s' is not %s", ctl->pos[i], form);
		if ((rc = ctl_check_list(ctl, name, v, want, &count)) != 0)
			return rc;
	}
	return CTL_OK;
}

/*
 * Parse s, the value of option what, as seconds from 0 to 1e9 into
 * *out; 0 or CTL_USAGE.
 */
int
ctl_seconds(struct ctl *ctl, const char *what, const char *s, double *out)
{
	if (parse_double(s, out) != 0 || *out < 0 || *out > 1e9)
		return ctl_usage_error(ctl,
		    "%s: '%s' is not a number of seconds (0 to 1e9)", what, s);
	return CTL_OK;
}

/* "; did you mean ..." with the stream field nearest to name. */
static const char *
ctl_field_mean(const char *name)
{
	const char *names[HXD_FIELD_MAX + 1];
	int f;

	names[0] = "all";
	for (f = 1; f <= HXD_FIELD_MAX; f++)
		names[f] = hxd_field_name(f);
	return ctl_mean(name, names, NELEM(names));
}

/*
 * Add the stream fields named in s (comma-separated; "all" for every
 * one) to *set; what names the argument.  Returns 0 or CTL_USAGE.
 */
int
ctl_fields(struct ctl *ctl, const char *what, const char *s, unsigned *set)
{
	char buf[64], names[256];
	const char *p = s, *comma;
	size_t len, n = 0;
	int f;

	for (;;) {
		comma = strchr(p, ',');
		len = comma != NULL ? (size_t)(comma - p) : strlen(p);
		if (len < sizeof(buf)) {
			memcpy(buf, p, len);
			buf[len] = '\0';
		}
		if (len < sizeof(buf) && strcmp(buf, "all") == 0)
			*set |= CTL_FIELDS_ALL;
		else if (len < sizeof(buf) && len > 0 &&
		    (f = hxd_field_parse(buf)) != 0)
			*set |= HXD_FIELDS(f);
		else {
			for (f = 1; f <= HXD_FIELD_MAX; f++)
				n += (size_t)snprintf(names + n,
				    sizeof(names) - n, "%s%s",
				    hxd_field_name(f),
				    f < HXD_FIELD_MAX ? ", " : " ");
			return ctl_usage_error(ctl,
			    "%s: '%.*s' is not a field (%sor all)%s", what,
			    (int)len, p, names,
			    len < sizeof(buf) ? ctl_field_mean(buf) : "");
		}
		if (comma == NULL)
			return CTL_OK;
		p = comma + 1;
	}
}
