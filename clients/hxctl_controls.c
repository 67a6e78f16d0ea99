/*
 * Controls from the command line, as set-ctrl, update, step and run
 * take them: all nu values, or NAME=V for some actuators with the others
 * as the server has them.
 */
#include "config.h"

#include <stdlib.h>

#include "haptixd.h"
#include "hxctl_common.h"

static int controls_assign(struct ctl *, hxd_control *, char **, int);

/*
 * Check n control arguments: all numbers, or all NAME=V.  Sets *named.
 * Returns 0 or CTL_USAGE.
 */
int
controls_check(struct ctl *ctl, char **args, int n, int *named)
{
	char name[CTL_NAME_MAX];
	const char *v;
	double x;
	int i, nnum = 0;

	for (i = 0; i < n; i++) {
		if (parse_double(args[i], &x) == 0) {
			nnum++;
			continue;
		}
		v = parse_assign(args[i], name, sizeof(name));
		if (v == NULL)
			return ctl_usage_error(ctl,
			    "'%s' is neither a finite number nor NAME=V",
			    args[i]);
		if (parse_double(v, &x) != 0)
			return ctl_usage_error(
			    ctl, "%s: '%s' is not a finite number", name, v);
	}
	if (nnum != 0 && nnum != n)
		return ctl_usage_error(
		    ctl, "give either all nu values or NAME=V pairs, not both");
	*named = n > 0 && nnum == 0;
	return CTL_OK;
}

/*
 * Build the controls from n checked arguments: exactly nu numbers, or
 * the current controls with the named ones changed.  Caller frees *out.
 * Returns 0 or CTL_FAIL.
 */
int
controls_build(
    struct ctl *ctl, char **args, int n, int named, hxd_control **out)
{
	hxd_control *c;
	int i, rc = CTL_OK;

	*out = NULL;
	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_get_control(ctl->conn, &c) != HXD_OK)
		return ctl_fail(ctl);
	if (named)
		rc = controls_assign(ctl, c, args, n);
	else if (n != c->nu)
		rc = ctl_error(ctl, HXD_BADSIZE,
		    "%d control value%s given, but the model has nu = %d", n,
		    n == 1 ? "" : "s", c->nu);
	for (i = 0; i < n && !named && rc == CTL_OK; i++)
		parse_double(args[i], &c->ctrl[i]);
	if (rc != CTL_OK) {
		free(c);
		return rc;
	}
	*out = c;
	return CTL_OK;
}

/* Write n checked NAME=V arguments into c; 0 or CTL_FAIL. */
static int
controls_assign(struct ctl *ctl, hxd_control *c, char **args, int n)
{
	char name[CTL_NAME_MAX];
	const char *v;
	int i, id, rc;

	for (i = 0; i < n; i++) {
		v = parse_assign(args[i], name, sizeof(name));
		if ((rc = ctl_object(ctl, HXD_OBJ_ACTUATOR, name, &id)) != 0 ||
		    (rc = ctl_id_check(
			 ctl, HXD_OBJ_ACTUATOR, id, c->nu, "nu")) != 0)
			return rc;
		parse_double(v, &c->ctrl[id]);
	}
	return CTL_OK;
}

/*
 * Build the controls of a list option (all nu values, if given) and then
 * n checked NAME=V arguments from the current ones; *out is NULL when
 * there are neither.  Caller frees *out.  Returns 0 or CTL_FAIL.
 */
int
controls_named(struct ctl *ctl, const struct ctl_opt *list, char **args, int n,
    hxd_control **out)
{
	hxd_control *c;
	int rc;

	*out = NULL;
	if (!list->given && n == 0)
		return CTL_OK;
	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_get_control(ctl->conn, &c) != HXD_OK)
		return ctl_fail(ctl);
	if ((rc = ctl_fill(ctl, list, "nu", c->ctrl, c->nu)) != 0 ||
	    (rc = controls_assign(ctl, c, args, n)) != 0) {
		free(c);
		return rc;
	}
	*out = c;
	return CTL_OK;
}
