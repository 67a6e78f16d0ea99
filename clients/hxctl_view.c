/*
 * The get views: commands that fetch one answer and show it, member by
 * member as a struct ctl_view lists them, as a JSON object or as tables
 * labelled with the model's names.
 */
#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "haptixd.h"
#include "hxctl.h"

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

/* The members of each get answer (the F_* macros are in hxctl.h). */
static const struct ctl_field state_fields[] = { F_TIME(hxd_state),
	F_COUNT(hxd_state, nq), F_COUNT(hxd_state, nv), F_COUNT(hxd_state, na),
	F_ARRAY(hxd_state, qpos, nq, 1, SHOW_QPOS),
	F_ARRAY(hxd_state, qvel, nv, 1, SHOW_DOF),
	F_ARRAY(hxd_state, act, na, 1, SHOW_ACT), F_END };

static const struct ctl_field control_fields[] = { F_TIME(hxd_control),
	F_COUNT(hxd_control, nu), F_ARRAY(hxd_control, ctrl, nu, 1, SHOW_NONE),
	F_END };

static const struct ctl_field applied_fields[] = { F_TIME(hxd_applied),
	F_COUNT(hxd_applied, nv), F_COUNT(hxd_applied, nbody),
	F_ARRAY(hxd_applied, qfrc_applied, nv, 1, SHOW_DOF),
	F_ARRAY(hxd_applied, xfrc_applied, nbody, 6, SHOW_NONE), F_END };

static const struct ctl_field mocap_fields[] = { F_TIME(hxd_mocap),
	F_COUNT(hxd_mocap, nmocap),
	F_ARRAY(hxd_mocap, pos, nmocap, 3, SHOW_NONE),
	F_ARRAY(hxd_mocap, quat, nmocap, 4, SHOW_NONE), F_END };

static const struct ctl_field dynamics_fields[] = { F_TIME(hxd_dynamics),
	F_COUNT(hxd_dynamics, nv), F_COUNT(hxd_dynamics, na),
	F_ARRAY(hxd_dynamics, qacc, nv, 1, SHOW_DOF),
	F_ARRAY(hxd_dynamics, act_dot, na, 1, SHOW_ACT), F_END };

static const struct ctl_field sensor_fields[] = { F_TIME(hxd_sensor),
	F_COUNT(hxd_sensor, nsensordata),
	F_ARRAY(hxd_sensor, sensordata, nsensordata, 1, SHOW_NONE), F_END };

static const struct ctl_field poses_fields[] = { F_TIME(hxd_poses),
	F_COUNT(hxd_poses, count), F_ARRAY(hxd_poses, pos, count, 3, SHOW_NONE),
	F_ARRAY(hxd_poses, mat, count, 9, SHOW_NONE), F_END };

static const struct ctl_field tendon_fields[] = { F_TIME(hxd_tendon),
	F_COUNT(hxd_tendon, ntendon),
	F_ARRAY(hxd_tendon, length, ntendon, 1, SHOW_COL),
	F_ARRAY(hxd_tendon, velocity, ntendon, 1, SHOW_COL), F_END };

static const struct ctl_field actuator_fields[] = { F_TIME(hxd_actuator),
	F_COUNT(hxd_actuator, nu),
	F_ARRAY(hxd_actuator, length, nu, 1, SHOW_COL),
	F_ARRAY(hxd_actuator, velocity, nu, 1, SHOW_COL),
	F_ARRAY(hxd_actuator, force, nu, 1, SHOW_COL), F_END };

/* nonconstraint's values stand two spaces further right, as always. */
static const struct ctl_field force_fields[] = { F_TIME(hxd_force),
	F_COUNT(hxd_force, nv), F_ARRAY(hxd_force, applied, nv, 1, SHOW_COL),
	F_ARRAY(hxd_force, passive, nv, 1, SHOW_COL),
	F_ARRAY(hxd_force, bias, nv, 1, SHOW_COL),
	F_ARRAY(hxd_force, actuator, nv, 1, SHOW_COL),
	F_ARRAY(hxd_force, constraint, nv, 1, SHOW_COL),
	{ "nonconstraint", F_NUMS, offsetof(hxd_force, nonconstraint),
	    offsetof(hxd_force, nv), 1, SHOW_COL, 2 },
	F_END };

static const struct ctl_field contact_fields[] = { F_TIME(hxd_contacts),
	F_COUNT(hxd_contacts, ncon),
	F_ARRAY(hxd_contacts, dist, ncon, 1, SHOW_NONE),
	F_ARRAY(hxd_contacts, pos, ncon, 3, SHOW_NONE),
	F_ARRAY(hxd_contacts, frame, ncon, 9, SHOW_NONE),
	F_ARRAY(hxd_contacts, force, ncon, 3, SHOW_NONE),
	F_IARRAY(hxd_contacts, geom1, ncon),
	F_IARRAY(hxd_contacts, geom2, ncon), F_END };

/* The views, as the rows of the command table name them. */
const struct ctl_view view_state = { get_state, state_fields, 0, NULL, NULL };
const struct ctl_view view_ctrl = { get_control, control_fields, 0, ctrl_print,
	NULL };
const struct ctl_view view_applied = { get_applied, applied_fields, 0,
	applied_print, NULL };
const struct ctl_view view_mocap = { get_mocap, mocap_fields, 0, mocap_print,
	NULL };
const struct ctl_view view_dynamics = { get_dynamics, dynamics_fields, 0, NULL,
	NULL };
const struct ctl_view view_sensor = { get_sensor, sensor_fields, 0,
	view_sensor_print, view_sensor_json };
const struct ctl_view view_bodies = { get_body, poses_fields, HXD_OBJ_BODY,
	poses_print, NULL };
const struct ctl_view view_geoms = { get_geom, poses_fields, HXD_OBJ_GEOM,
	poses_print, NULL };
const struct ctl_view view_sites = { get_site, poses_fields, HXD_OBJ_SITE,
	poses_print, NULL };
const struct ctl_view view_tendons = { get_tendon, tendon_fields,
	HXD_OBJ_TENDON, NULL, NULL };
const struct ctl_view view_actuators = { get_actuator, actuator_fields,
	HXD_OBJ_ACTUATOR, NULL, NULL };
const struct ctl_view view_forces = { get_force, force_fields, CTL_DOF, NULL,
	NULL };
const struct ctl_view view_contacts = { get_contact, contact_fields, 0,
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

/*
 * Write an answer as one JSON object, member by member, then what the
 * view adds with the model's description in (may be NULL: nothing).
 */
void
view_json(const struct ctl_view *v, const hxd_info *in, const void *data)
{
	const struct ctl_field *f;
	int n;

	js_open('{');
	for (f = v->fields; f->key != NULL; f++) {
		n = f->per > 0 ? f->per * MEMBER(int, data, f->count) : 0;
		switch (f->kind) {
		case F_NUM:
			js_kn(f->key, MEMBER(double, data, f->off));
			break;
		case F_INT:
			js_ki(f->key, MEMBER(int, data, f->off));
			break;
		case F_NUMS:
			js_kv(f->key, MEMBER(double *, data, f->off), n);
			break;
		case F_INTS:
			js_key(f->key);
			js_ints(MEMBER(int *, data, f->off), n);
			break;
		}
	}
	if (v->json != NULL && in != NULL)
		v->json(in, data);
	js_close('}');
}

/* Print an answer: its time, its arrays as they say, then the rest. */
static void
view_print(const struct ctl_view *v, const hxd_info *in, const void *data)
{
	const struct ctl_field *f;
	const double *a;
	int n, columns = 0;

	printf("time %.10g\n", MEMBER(double, data, v->fields[0].off));
	for (f = v->fields; f->key != NULL; f++) {
		if (f->show == SHOW_NONE)
			continue;
		a = MEMBER(double *, data, f->off);
		n = f->per * MEMBER(int, data, f->count);
		if (f->show == SHOW_QPOS || f->show == SHOW_DOF)
			print_by_joint(f->key, in, a, n, f->show == SHOW_DOF);
		else if (f->show == SHOW_ACT && n > 0)
			print_by_actuator(f->key, in, a, n);
		else if (f->show == SHOW_COL)
			columns = 1;
	}
	if (columns)
		view_columns(v, in, data);
	if (v->print != NULL)
		v->print(v, in, data);
}

/* Print the SHOW_COL arrays as a table, one of the view's rows per row. */
static void
view_columns(const struct ctl_view *v, const hxd_info *in, const void *data)
{
	const struct ctl_field *f;
	const double *a;
	char buf[CTL_LABEL_MAX];
	int i, w, n = 0;

	for (f = v->fields; f->key != NULL; f++) {
		if (f->show == SHOW_COL)
			n = MEMBER(int, data, f->count);
	}
	w = table_label_width(in, v->rows, n);
	printf("%4s  %-*s", v->rows == CTL_DOF ? "dof" : "id", w,
	    v->rows == CTL_DOF ? "joint" : "name");
	for (f = v->fields; f->key != NULL; f++) {
		if (f->show == SHOW_COL)
			printf(HDR, f->key);
	}
	putchar('\n');
	for (i = 0; i < n; i++) {
		printf("%4d  %-*s", i, w,
		    table_row_label(in, v->rows, i, buf, sizeof(buf)));
		for (f = v->fields; f->key != NULL; f++) {
			if (f->show != SHOW_COL)
				continue;
			a = MEMBER(double *, data, f->off);
			printf("%*s" NUM, f->pad, "", a[i]);
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
		w = info_joint_width(in->jnt_type[j], dof);
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
