/*
 * The get views: commands that fetch one answer and show it, member by
 * member as a struct ctl_view lists them, as a JSON object or as tables
 * labelled with the model's names.
 */
#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "haptixd.h"
#include "hxctl_common.h"

static void print_by_joint(
    const char *, const hxd_info *, const double *, int, int);
static void print_by_actuator(
    const char *, const hxd_info *, const double *, int);
static void view_print(const struct ctl_view *, const hxd_info *, const void *);
static void view_columns(
    const struct ctl_view *, const hxd_info *, const void *);
static void ctrl_print(const struct ctl_view *, const hxd_info *, const void *);
static void applied_print(
    const struct ctl_view *, const hxd_info *, const void *);
static void mocap_print(
    const struct ctl_view *, const hxd_info *, const void *);
static void poses_print(
    const struct ctl_view *, const hxd_info *, const void *);
static void contacts_print(
    const struct ctl_view *, const hxd_info *, const void *);

/*
 * Define get_NAME(): hxd_get_NAME() with its answer as a void *, the
 * form ctl_view.get takes.  These stand in for prototypes.
 */
#define CTL_GETTER(name, type) \
	static int get_##name(hxd_conn *c, void **out) \
	{ \
		type *p = NULL; \
		int r = hxd_get_##name(c, &p); \
		*out = p; \
		return r; \
	}

CTL_GETTER(state, hxd_state)
CTL_GETTER(control, hxd_control)
CTL_GETTER(applied, hxd_applied)
CTL_GETTER(mocap, hxd_mocap)
CTL_GETTER(dynamics, hxd_dynamics)
CTL_GETTER(sensor, hxd_sensor)
CTL_GETTER(body, hxd_poses)
CTL_GETTER(geom, hxd_poses)
CTL_GETTER(site, hxd_poses)
CTL_GETTER(tendon, hxd_tendon)
CTL_GETTER(actuator, hxd_actuator)
CTL_GETTER(force, hxd_force)
CTL_GETTER(contact, hxd_contacts)

/* The views, as the rows of the command table name them. */
const struct ctl_view view_state = { get_state, "hxd_state", 0, NULL, NULL };
const struct ctl_view view_ctrl = { get_control, "hxd_control", 0, ctrl_print,
	NULL };
const struct ctl_view view_applied = { get_applied, "hxd_applied", 0,
	applied_print, NULL };
const struct ctl_view view_mocap = { get_mocap, "hxd_mocap", 0, mocap_print,
	NULL };
const struct ctl_view view_dynamics = { get_dynamics, "hxd_dynamics", 0, NULL,
	NULL };
const struct ctl_view view_sensor = { get_sensor, "hxd_sensor", 0,
	view_sensor_print, view_sensor_json };
const struct ctl_view view_bodies = { get_body, "hxd_poses", HXD_OBJ_BODY,
	poses_print, NULL };
const struct ctl_view view_geoms = { get_geom, "hxd_poses", HXD_OBJ_GEOM,
	poses_print, NULL };
const struct ctl_view view_sites = { get_site, "hxd_poses", HXD_OBJ_SITE,
	poses_print, NULL };
const struct ctl_view view_tendons = { get_tendon, "hxd_tendon", HXD_OBJ_TENDON,
	NULL, NULL };
const struct ctl_view view_actuators = { get_actuator, "hxd_actuator",
	HXD_OBJ_ACTUATOR, NULL, NULL };
const struct ctl_view view_forces = { get_force, "hxd_force", CTL_DOF, NULL,
	NULL };
const struct ctl_view view_contacts = { get_contact, "hxd_contacts", 0,
	contacts_print, NULL };

/* Fetch the answer of the command's view and show it. */
int
cmd_show(struct ctl *ctl)
{
	const struct ctl_view *v = ctl->cmd->view;
	void *data;
	int rc;

	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (v->get(ctl->conn, &data) != HXD_OK)
		return ctl_fail(ctl);
	if ((ctl->json && v->json == NULL) || (rc = ctl_get_info(ctl)) == 0)
		view_show(ctl, v, data);
	free(data);
	return rc;
}

/* Show an answer as JSON or, with the model's description, as a table. */
void
view_show(struct ctl *ctl, const struct ctl_view *v, const void *data)
{
	if (ctl->json)
		view_json(v, ctl->info, data);
	else
		view_print(v, ctl->info, data);
}

/* How the table of a get answer shows an array. */
enum view_show {
	SHOW_NONE, /* not at all: only --json has it */
	SHOW_QPOS, /* one joint per row, sized like qpos */
	SHOW_DOF,  /* one joint per row, sized like qvel */
	SHOW_ACT,  /* one actuator per row, the last ones; nothing if empty */
	SHOW_COL,  /* a column of the table of the view's rows */
};

/*
 * How field f of view v shows: one value per row of a view of rows is a
 * column; else by its count.
 */
static enum view_show
view_field_show(const struct ctl_view *v, const hxd_member *f)
{
	if (f->counted == NULL || f->kind != HXD_MEMBER_NUMS)
		return SHOW_NONE;
	if (v->rows != 0)
		return f->per == 1 ? SHOW_COL : SHOW_NONE;
	if (strcmp(f->counted, "nq") == 0)
		return SHOW_QPOS;
	if (strcmp(f->counted, "nv") == 0)
		return SHOW_DOF;
	if (strcmp(f->counted, "na") == 0)
		return SHOW_ACT;
	return SHOW_NONE;
}

/* The view's time member. */
static double
view_time(const struct ctl_view *v, const void *data)
{
	const hxd_member *f;

	for (f = hxd_members(v->type); f->name != NULL; f++)
		if (strcmp(f->name, "time") == 0)
			return MEMBER(double, data, f->offset);
	return 0;
}

/*
 * Write an answer as one JSON object, "time" first, then member by
 * member, then what the view adds with the model's description in (may
 * be NULL: nothing).
 */
void
view_json(const struct ctl_view *v, const hxd_info *in, const void *data)
{
	const hxd_member *f;
	int n;

	js_open('{');
	js_kn("time", view_time(v, data));
	for (f = hxd_members(v->type); f->name != NULL; f++) {
		n = f->per > 0 ? f->per * MEMBER(int, data, f->count) : 0;
		switch (f->kind) {
		case HXD_MEMBER_NUM:
			if (strcmp(f->name, "time") != 0)
				js_kn(f->name, MEMBER(double, data, f->offset));
			break;
		case HXD_MEMBER_INT:
			js_ki(f->name, MEMBER(int, data, f->offset));
			break;
		case HXD_MEMBER_NUMS:
			js_kv(f->name, MEMBER(double *, data, f->offset), n);
			break;
		case HXD_MEMBER_INTS:
			js_key(f->name);
			js_ints(MEMBER(int *, data, f->offset), n);
			break;
		}
	}
	if (v->json != NULL && in != NULL)
		v->json(in, data);
	js_close('}');
}

/* Print an answer: its time, its arrays as they show, then the rest. */
static void
view_print(const struct ctl_view *v, const hxd_info *in, const void *data)
{
	const hxd_member *f;
	const double *a;
	int n, columns = 0;
	enum view_show show;

	printf("time %.10g\n", view_time(v, data));
	for (f = hxd_members(v->type); f->name != NULL; f++) {
		if ((show = view_field_show(v, f)) == SHOW_NONE)
			continue;
		a = MEMBER(double *, data, f->offset);
		n = f->per * MEMBER(int, data, f->count);
		if (show == SHOW_QPOS || show == SHOW_DOF)
			print_by_joint(f->name, in, a, n, show == SHOW_DOF);
		else if (show == SHOW_ACT && n > 0)
			print_by_actuator(f->name, in, a, n);
		else if (show == SHOW_COL)
			columns = 1;
	}
	if (columns)
		view_columns(v, in, data);
	if (v->print != NULL)
		v->print(v, in, data);
}

/*
 * Print the columns of a view of rows as a table, one row per row.  A
 * name wider than its column pushes its values right past it, and one
 * space more.
 */
static void
view_columns(const struct ctl_view *v, const hxd_info *in, const void *data)
{
	const hxd_member *f;
	const double *a;
	char buf[CTL_LABEL_MAX];
	int i, w, pad, n = 0;

	for (f = hxd_members(v->type); f->name != NULL; f++) {
		if (view_field_show(v, f) == SHOW_COL)
			n = MEMBER(int, data, f->count);
	}
	w = table_label_width(in, v->rows, n);
	printf("%4s  %-*s", v->rows == CTL_DOF ? "dof" : "id", w,
	    v->rows == CTL_DOF ? "joint" : "name");
	for (f = hxd_members(v->type); f->name != NULL; f++) {
		if (view_field_show(v, f) == SHOW_COL)
			printf(HDR, f->name);
	}
	putchar('\n');
	for (i = 0; i < n; i++) {
		printf("%4d  %-*s", i, w,
		    table_row_label(in, v->rows, i, buf, sizeof(buf)));
		for (f = hxd_members(v->type); f->name != NULL; f++) {
			if (view_field_show(v, f) != SHOW_COL)
				continue;
			a = MEMBER(double *, data, f->offset);
			pad = (int)strlen(f->name) - HDR_WIDTH;
			printf("%*s" NUM, pad > 0 ? pad + 1 : 0, "", a[i]);
		}
		putchar('\n');
	}
}

/*
 * Print a vector the size of qpos (dof = 0) or qvel (dof = 1) one joint
 * per row, or one value per row if the description does not fit it.
 */
static void
print_by_joint(
    const char *title, const hxd_info *in, const double *v, int n, int dof)
{
	char buf[CTL_LABEL_MAX];
	const char *label;
	int j, adr, w, width, njnt;

	printf("%s\n", title);
	njnt = in != NULL ? in->model.njnt : 0;
	if (in == NULL || n != (dof ? in->model.nv : in->model.nq)) {
		for (j = 0; j < n; j++)
			table_put_row(j, 4, "", v + j, 1);
		return;
	}
	width = table_label_width(in, HXD_OBJ_JOINT, njnt);
	for (j = 0; j < njnt; j++) {
		adr = dof ? in->jnt_dofadr[j] : in->jnt_qposadr[j];
		w = table_joint_width(in->jnt_type[j], dof);
		if (adr < 0 || adr + w > n)
			continue;
		label = table_obj_label(in, HXD_OBJ_JOINT, j, buf, sizeof(buf));
		printf("%4d  %-*s  %-5s", j, width, label,
		    info_joint_type_name(in->jnt_type[j]));
		table_put_nums(v + adr, w);
		putchar('\n');
	}
}

/* Print a vector of the last n actuators (act has na), one per row. */
static void
print_by_actuator(const char *title, const hxd_info *in, const double *v, int n)
{
	char buf[CTL_LABEL_MAX];
	int i, first = in->model.nu - n, width;

	printf("%s\n", title);
	if (first < 0)
		first = 0;
	width = table_label_width(in, HXD_OBJ_ACTUATOR, first + n);
	for (i = 0; i < n; i++)
		table_put_row(first + i, width,
		    table_obj_label(
			in, HXD_OBJ_ACTUATOR, first + i, buf, sizeof(buf)),
		    v + i, 1);
}

/* Print the controls by actuator, with their ranges. */
static void
ctrl_print(const struct ctl_view *v, const hxd_info *in, const void *data)
{
	const hxd_control *c = data;
	char buf[CTL_LABEL_MAX];
	int i, w;

	w = table_label_width(in, HXD_OBJ_ACTUATOR, c->nu);
	printf("%4s  %-*s" HDR "  %s\n", "id", w, "name", "ctrl", "ctrlrange");
	for (i = 0; i < c->nu; i++) {
		printf("%4d  %-*s" NUM, i, w,
		    table_obj_label(in, HXD_OBJ_ACTUATOR, i, buf, sizeof(buf)),
		    c->ctrl[i]);
		if (in->model.nu == c->nu && in->actuator_ctrllimited[i])
			printf("  [%g, %g]", in->actuator_ctrlrange[2 * i],
			    in->actuator_ctrlrange[2 * i + 1]);
		putchar('\n');
	}
}

/* Print xfrc_applied by body (qfrc_applied went by joint). */
static void
applied_print(const struct ctl_view *v, const hxd_info *in, const void *data)
{
	const hxd_applied *a = data;
	char buf[CTL_LABEL_MAX];
	int i, w;

	w = table_label_width(in, HXD_OBJ_BODY, a->nbody);
	printf("xfrc_applied\n%4s  %-*s" HDR HDR HDR HDR HDR HDR "\n", "id", w,
	    "body", "fx", "fy", "fz", "tx", "ty", "tz");
	for (i = 0; i < a->nbody; i++)
		table_put_row(i, w,
		    table_obj_label(in, HXD_OBJ_BODY, i, buf, sizeof(buf)),
		    a->xfrc_applied + 6 * i, 6);
}

/* Print each mocap body's body, position and quaternion. */
static void
mocap_print(const struct ctl_view *v, const hxd_info *in, const void *data)
{
	const hxd_mocap *mc = data;
	char buf[CTL_LABEL_MAX];
	int i, b, w;

	w = table_label_width(in, HXD_OBJ_BODY, in->model.nbody);
	printf("%4s  %4s  %-*s %-38s %s\n", "id", "body", w, "name", "pos",
	    "quat");
	for (i = 0; i < mc->nmocap; i++) {
		for (b = 0; b < in->model.nbody; b++) {
			if (in->body_mocapid[b] == i)
				break;
		}
		printf("%4d  %4d  %-*s", i, b, w,
		    table_obj_label(in, HXD_OBJ_BODY, b, buf, sizeof(buf)));
		table_put_nums(mc->pos + 3 * i, 3);
		table_put_nums(mc->quat + 4 * i, 4);
		putchar('\n');
	}
}

/* Print sensor data, by sensor when the description fits it. */
void
view_sensor_print(
    const struct ctl_view *v, const hxd_info *in, const void *data)
{
	const hxd_sensor *s = data;
	char buf[CTL_LABEL_MAX];
	int i, w, adr, dim;

	if (in->model.nsensordata != s->nsensordata) {
		for (i = 0; i < s->nsensordata; i++)
			table_put_row(i, 4, "", s->sensordata + i, 1);
		return;
	}
	w = table_label_width(in, HXD_OBJ_SENSOR, in->model.nsensor);
	for (i = 0; i < in->model.nsensor; i++) {
		adr = in->sensor_adr[i];
		dim = in->sensor_dim[i];
		if (adr < 0 || dim < 0 || adr + dim > s->nsensordata)
			continue;
		printf("%4d  %-*s  %-14s", i, w,
		    table_obj_label(in, HXD_OBJ_SENSOR, i, buf, sizeof(buf)),
		    info_sensor_type_name(in->sensor_type[i]));
		table_put_nums(s->sensordata + adr, dim);
		putchar('\n');
	}
}

/*
 * Write "sensors": each sensor's values keyed by its name ("#ID" when it
 * has none), always an array as MuJoCo's bindings give them, when the
 * description fits the data.
 */
void
view_sensor_json(const hxd_info *in, const void *data)
{
	const hxd_sensor *s = data;
	char buf[CTL_LABEL_MAX];
	int i, adr, dim;

	if (in->model.nsensordata != s->nsensordata)
		return;
	js_key("sensors");
	js_open('{');
	for (i = 0; i < in->model.nsensor; i++) {
		adr = in->sensor_adr[i];
		dim = in->sensor_dim[i];
		if (adr < 0 || dim < 0 || adr + dim > s->nsensordata)
			continue;
		js_kv(table_obj_label(in, HXD_OBJ_SENSOR, i, buf, sizeof(buf)),
		    s->sensordata + adr, dim);
	}
	js_close('}');
}

/* Print each frame, one of the view's objects per row. */
static void
poses_print(const struct ctl_view *v, const hxd_info *in, const void *data)
{
	const hxd_poses *p = data;
	char buf[CTL_LABEL_MAX];
	int i, k, w;

	w = table_label_width(in, v->rows, p->count);
	printf("%4s  %-*s %-38s   %s\n", "id", w, "name", "pos",
	    "mat (row-major)");
	for (i = 0; i < p->count; i++) {
		printf("%4d  %-*s", i, w,
		    table_obj_label(in, v->rows, i, buf, sizeof(buf)));
		table_put_nums(p->pos + 3 * i, 3);
		printf("  ");
		for (k = 0; k < 9; k++)
			printf(" %6.3f", p->mat[9 * i + k]);
		putchar('\n');
	}
}

/* Print the contacts: geoms, distance, position, force and normal. */
static void
contacts_print(const struct ctl_view *v, const hxd_info *in, const void *data)
{
	const hxd_contacts *k = data;
	char b1[CTL_LABEL_MAX], b2[CTL_LABEL_MAX];
	int i, w;

	printf("%d contact%s\n", k->ncon, k->ncon == 1 ? "" : "s");
	w = table_label_width(in, HXD_OBJ_GEOM, in->model.ngeom);
	if (k->ncon > 0)
		printf("%4s  %-*s  %-*s" HDR " %-39s %-39s %s\n", "id", w,
		    "geom1", w, "geom2", "dist", "pos",
		    "force (normal, tangent)", "normal");
	for (i = 0; i < k->ncon; i++) {
		printf("%4d  %-*s  %-*s", i, w,
		    table_obj_label(
			in, HXD_OBJ_GEOM, k->geom1[i], b1, sizeof(b1)),
		    w,
		    table_obj_label(
			in, HXD_OBJ_GEOM, k->geom2[i], b2, sizeof(b2)));
		table_put_nums(k->dist + i, 1);
		printf(" ");
		table_put_nums(k->pos + 3 * i, 3);
		printf(" ");
		table_put_nums(k->force + 3 * i, 3);
		printf(" ");
		table_put_nums(k->frame + 9 * i, 3);
		putchar('\n');
	}
}
