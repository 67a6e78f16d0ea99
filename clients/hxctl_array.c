/*
 * Arrays by name: the mjModel and mjData arrays the server lists,
 * reads and writes, with rows labelled when their names say what they
 * are.
 */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "haptixd.h"
#include "hxctl_common.h"

static void array_json_head(const hxd_array *);
static int array_fail(struct ctl *, const char *);

/* Array element types, by enum hxd_array_type. */
static const char *const array_types[] = { "double", "float", "int", "byte" };

/*
 * What the rows of an array are, by the start of its name, when it has as
 * many rows as the model has of them: get labels them.
 */
static const struct {
	const char *prefix;
	int rows; /* HXD_OBJ_*, or CTL_DOF */
} array_prefixes[] = {
	{ "body_", HXD_OBJ_BODY },
	{ "jnt_", HXD_OBJ_JOINT },
	{ "dof_", CTL_DOF },
	{ "geom_", HXD_OBJ_GEOM },
	{ "site_", HXD_OBJ_SITE },
	{ "tendon_", HXD_OBJ_TENDON },
	{ "ten_", HXD_OBJ_TENDON },
	{ "actuator_", HXD_OBJ_ACTUATOR },
	{ "sensor_", HXD_OBJ_SENSOR },
	{ "eq_", HXD_OBJ_EQUALITY },
	{ "key_", HXD_OBJ_KEY },
	{ "mat_", HXD_OBJ_MATERIAL },
	{ "qvel", CTL_DOF },
	{ "qacc", CTL_DOF },
	{ "qfrc_", CTL_DOF },
	{ "ctrl", HXD_OBJ_ACTUATOR },
	{ "xpos", HXD_OBJ_BODY },
	{ "xquat", HXD_OBJ_BODY },
	{ "xmat", HXD_OBJ_BODY },
	{ "xipos", HXD_OBJ_BODY },
	{ "ximat", HXD_OBJ_BODY },
	{ "xfrc_applied", HXD_OBJ_BODY },
	{ "subtree_", HXD_OBJ_BODY },
	{ "cinert", HXD_OBJ_BODY },
	{ "cvel", HXD_OBJ_BODY },
	{ "cacc", HXD_OBJ_BODY },
	{ "cfrc_", HXD_OBJ_BODY },
};

/* List the arrays by name, without their values. */
int
cmd_arrays(struct ctl *ctl)
{
	hxd_array *list;
	char size[32];
	int i, n, w = 4, len, rc;

	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_list_arrays(ctl->conn, &list, &n) != HXD_OK)
		return ctl_fail(ctl);
	if (ctl->json) {
		js_open('{');
		js_key("arrays");
		js_open('[');
		for (i = 0; i < n; i++) {
			js_open('{');
			array_json_head(&list[i]);
			js_close('}');
		}
		js_close(']');
		js_close('}');
		free(list);
		return CTL_OK;
	}
	for (i = 0; i < n; i++) {
		if ((len = (int)strlen(list[i].name)) > w)
			w = len;
	}
	printf("%-*s  %-5s  %-6s  %13s  %s\n", w, "name", "owner", "type",
	    "rows x cols", "writable");
	for (i = 0; i < n; i++) {
		snprintf(
		    size, sizeof(size), "%d x %d", list[i].rows, list[i].cols);
		printf("%-*s  %-5s  %-6s  %13s  %s\n", w, list[i].name,
		    list[i].owner,
		    table_enum_name(
			array_types, NELEM(array_types), list[i].type),
		    size, list[i].writable ? "yes" : "no");
	}
	free(list);
	return CTL_OK;
}

/* Write an array's description into the open object. */
static void
array_json_head(const hxd_array *a)
{
	js_ks("name", a->name);
	js_ks("owner", a->owner);
	js_ks(
	    "type", table_enum_name(array_types, NELEM(array_types), a->type));
	js_ki("rows", a->rows);
	js_ki("cols", a->cols);
	js_kb("writable", a->writable);
}

/* Show an array by name: its description, then one row per line. */
int
cmd_get(struct ctl *ctl)
{
	hxd_array *a;
	char buf[CTL_LABEL_MAX];
	int i, rows, w = 4, rc;

	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_get_array(ctl->conn, ctl->argv[0], &a) != HXD_OK)
		return array_fail(ctl, ctl->argv[0]);
	if (ctl->json) {
		js_open('{');
		array_json_head(a);
		js_kv("values", a->values, a->rows * a->cols);
		js_close('}');
		free(a);
		return CTL_OK;
	}
	if ((rc = ctl_get_info(ctl)) != 0) {
		free(a);
		return rc;
	}
	rows = array_rows(ctl->info, a->name, a->rows);
	if (rows != 0)
		w = table_label_width(ctl->info, rows, a->rows);
	printf("%s (%s, %s, %d x %d, %s)\n", a->name, a->owner,
	    table_enum_name(array_types, NELEM(array_types), a->type), a->rows,
	    a->cols, a->writable ? "writable" : "read-only");
	for (i = 0; i < a->rows; i++) {
		printf("%4d  %-*s", i, w,
		    rows != 0 ?
			table_row_label(ctl->info, rows, i, buf, sizeof(buf)) :
			"");
		table_put_nums(
		    a->values + (size_t)i * (size_t)a->cols, a->cols);
		putchar('\n');
	}
	free(a);
	return CTL_OK;
}

/*
 * What the rows of an array are (HXD_OBJ_* or CTL_DOF), by its name
 * ("model." or "data." may prefix it) and when the model has as many of
 * them as it has rows; 0 when that is not known.
 */
int
array_rows(const hxd_info *in, const char *name, int rows)
{
	size_t i;
	int n;

	if (strncmp(name, "model.", 6) == 0)
		name += 6;
	else if (strncmp(name, "data.", 5) == 0)
		name += 5;
	for (i = 0; i < NELEM(array_prefixes); i++) {
		if (strncmp(name, array_prefixes[i].prefix,
			strlen(array_prefixes[i].prefix)) != 0)
			continue;
		if (array_prefixes[i].rows == CTL_DOF)
			n = in->model.nv;
		else
			table_names(in, array_prefixes[i].rows, &n);
		return n == rows ? array_prefixes[i].rows : 0;
	}
	return 0;
}

/* Write values into an array by name, from an element offset. */
int
cmd_set(struct ctl *ctl)
{
	struct ctl_opt opts[] = {
		{ "--offset", OPT_STRING, 0, NULL, 0, 0 },
	};
	double *values;
	long offset = 0;
	int rc;

	if ((rc = ctl_options(ctl, opts, NELEM(opts))) != 0)
		return rc;
	if (ctl->npos < 2)
		return ctl_usage_error(ctl, "give the array and its values");
	if (opts[0].given &&
	    parse_long(opts[0].value, 0, INT_MAX, &offset) != 0)
		return ctl_usage_error(ctl,
		    "--offset: '%s' is not an element index (0 or more)",
		    opts[0].value);
	if ((values = calloc((size_t)ctl->npos, sizeof(double))) == NULL)
		return ctl_error(ctl, HXD_CANNOTSEND, "out of memory");
	if ((rc = ctl_numbers(ctl, ctl->pos + 1, ctl->npos - 1, values)) == 0 &&
	    (rc = ctl_connect(ctl)) == 0) {
		if (hxd_set_array(ctl->conn, ctl->pos[0], (int)offset,
			ctl->npos - 1, values) != HXD_OK)
			rc = array_fail(ctl, ctl->pos[0]);
		else
			rc = ctl_done(ctl, HXD_OK);
	}
	free(values);
	return rc;
}

/*
 * Report a failed call on array name; an unknown name with the array
 * nearest to it ("did you mean").
 */
static int
array_fail(struct ctl *ctl, const char *name)
{
	char err[512];
	const char **names;
	const char *dot, *mean = "";
	hxd_array *list;
	int i, n;

	if (hxd_result(ctl->conn) != HXD_BADTYPE)
		return ctl_fail(ctl);
	snprintf(err, sizeof(err), "%s", hxd_error(ctl->conn));
	if ((dot = strchr(name, '.')) != NULL &&
	    (strncmp(name, "model.", 6) == 0 || strncmp(name, "data.", 5) == 0))
		name = dot + 1;
	if (hxd_list_arrays(ctl->conn, &list, &n) == HXD_OK) {
		if ((names = calloc((size_t)n + 1, sizeof(*names))) != NULL) {
			for (i = 0; i < n; i++)
				names[i] = list[i].name;
			mean = ctl_mean(name, names, (size_t)n);
			free(names);
		}
		free(list);
	}
	return ctl_error(ctl, HXD_BADTYPE, "%s%s", err, mean);
}
