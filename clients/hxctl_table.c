/*
 * What the tables share: the names of objects by type and of
 * enumeration values, the labels of rows (objects by name, dofs by
 * joint) and the width of a column of them, a joint type's widths, and
 * readable number columns.
 */
#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "haptixd.h"
#include "hxctl_common.h"

static const char *dof_label(const hxd_info *, int, char *, size_t);

/* Where hxd_info keeps the names of each type of object, and their count. */
static const struct table_named {
	int type;     /* HXD_OBJ_* */
	size_t count; /* offsetof its count in hxd_model */
	size_t names; /* offsetof its names in hxd_info */
} table_named[] = {
#define TABLE_NAMED(type, n, names) \
	{ \
		type, offsetof(hxd_model, n), offsetof(hxd_info, names) \
	}
	TABLE_NAMED(HXD_OBJ_BODY, nbody, body_name),
	TABLE_NAMED(HXD_OBJ_JOINT, njnt, jnt_name),
	TABLE_NAMED(HXD_OBJ_GEOM, ngeom, geom_name),
	TABLE_NAMED(HXD_OBJ_SITE, nsite, site_name),
	TABLE_NAMED(HXD_OBJ_TENDON, ntendon, tendon_name),
	TABLE_NAMED(HXD_OBJ_ACTUATOR, nu, actuator_name),
	TABLE_NAMED(HXD_OBJ_SENSOR, nsensor, sensor_name),
	TABLE_NAMED(HXD_OBJ_EQUALITY, neq, eq_name),
	TABLE_NAMED(HXD_OBJ_KEY, nkey, key_name),
	TABLE_NAMED(HXD_OBJ_MATERIAL, nmat, mat_name),
#undef TABLE_NAMED
};

/* The names info has for objects of type, and their count; NULL if none. */
const char *const *
table_names(const hxd_info *in, int type, int *n)
{
	size_t i;

	if (type == HXD_OBJ_XBODY)
		type = HXD_OBJ_BODY;
	for (i = 0; i < NELEM(table_named); i++) {
		if (table_named[i].type != type)
			continue;
		*n = MEMBER(int, &in->model, table_named[i].count);
		return MEMBER(const char **, in, table_named[i].names);
	}
	*n = 0;
	return NULL;
}

/* The number of qpos (dof = 0) or qvel (dof = 1) values of a joint type. */
int
table_joint_width(int type, int dof)
{
	switch (type) {
	case 0:
		return dof ? 6 : 7;
	case 1:
		return dof ? 3 : 4;
	default:
		return 1;
	}
}

/* The name of enumeration value v in names[], or "unknown". */
const char *
table_enum_name(const char *const *names, size_t n, int v)
{
	if (v < 0 || (size_t)v >= n)
		return "unknown";
	return names[v];
}

/* An object's name, "#ID" if it has none (buf holds it), or "-" for -1. */
const char *
table_obj_label(const hxd_info *in, int type, int id, char *buf, size_t len)
{
	const char *const *names = NULL;
	int n = 0;

	if (id < 0)
		return "-";
	if (in != NULL)
		names = table_names(in, type, &n);
	if (names != NULL && id < n && names[id][0] != '\0')
		return names[id];
	snprintf(buf, len, "#%d", id);
	return buf;
}

/* The label of dof i: its joint's name, with the index inside a joint. */
static const char *
dof_label(const hxd_info *in, int i, char *buf, size_t len)
{
	char nb[CTL_LABEL_MAX];
	const char *name;
	int j, adr, w;

	for (j = 0; in != NULL && j < in->model.njnt; j++) {
		adr = in->jnt_dofadr[j];
		w = table_joint_width(in->jnt_type[j], 1);
		if (i < adr || i >= adr + w)
			continue;
		name = table_obj_label(in, HXD_OBJ_JOINT, j, nb, sizeof(nb));
		if (w == 1)
			snprintf(buf, len, "%s", name);
		else
			snprintf(buf, len, "%s[%d]", name, i - adr);
		return buf;
	}
	snprintf(buf, len, "#%d", i);
	return buf;
}

/* The label of row i of a table of objects of type, or of dofs. */
const char *
table_row_label(const hxd_info *in, int type, int i, char *buf, size_t len)
{
	if (type == CTL_DOF)
		return dof_label(in, i, buf, len);
	return table_obj_label(in, type, i, buf, len);
}

/* The width of the widest label of count rows of type (or dofs). */
int
table_label_width(const hxd_info *in, int type, int count)
{
	char buf[CTL_LABEL_MAX];
	int i, w = 4, n;

	for (i = 0; i < count; i++) {
		n = (int)strlen(table_row_label(in, type, i, buf, sizeof(buf)));
		if (n > w)
			w = n;
	}
	return w;
}

/* Print n numbers in readable columns. */
void
table_put_nums(const double *v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		printf(NUM, v[i]);
}

/* Print a row: an id, a label in a column width w wide, n numbers. */
void
table_put_row(int id, int w, const char *label, const double *v, int n)
{
	printf("%4d  %-*s", id, w, label);
	table_put_nums(v, n);
	putchar('\n');
}
