/*
 * The simple API: the robot as hx_robot_info sees the model, and one
 * hx_update, with tables labelled as the server maps the model onto
 * the robot.
 */
#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "haptixd.h"
#include "hxctl_common.h"

/*
 * HAPTIX's numbers (sensor_types[] in hxctl_info.c) of the sensors the
 * simple API reads.
 */
#define SENS_TOUCH 0
#define SENS_ACCELEROMETER 1
#define SENS_GYRO 3
#define SENS_JOINTPOS 8
#define SENS_JOINTVEL 9

/* Rows of a table of the simple API that are actuators, not sensors. */
#define ROBOT_ACTUATOR (-1)

/*
 * A table of an answer of the simple API, one row per motor, joint,
 * contact sensor or IMU, labelled by the object behind the row (see
 * robot_row_object()).
 */
struct robot_table {
	const char *title;
	int first, second; /* sensor types behind the rows, or ROBOT_ACTUATOR */
	size_t count;      /* offsetof the int counting the rows */
	size_t cols[3];    /* offsetof the arrays, shown side by side */
	int ncols, per;    /* arrays, and values of each per row */
	const char *heads[6]; /* ncols x per column headings */
};

/* An array of hx-update's command: its option, where it goes. */
struct robot_array {
	const char *opt;
	size_t off; /* offsetof it in hxd_robot_command */
};

static void robot_json(const hxd_robot *);
static void robot_print(const hxd_robot *, const hxd_info *);
static void robot_sensor_print(
    const struct ctl_view *, const hxd_info *, const void *);
static void robot_table_print(
    const struct robot_table *, const hxd_info *, const void *);
static const char *robot_label(
    const hxd_info *, const struct robot_table *, int, int, char *, size_t);
static int robot_row_object(
    const hxd_info *, const struct robot_table *, int, int);
static int robot_command(
    struct ctl *, const struct ctl_opt *, hxd_robot_command *, double **);

/* hx-update makes its own call: hxd_robot_update() with a command. */
static const struct ctl_view view_robot_sensor = { NULL, "hxd_robot_sensor", 0,
	robot_sensor_print, NULL };

/* The kinds of servo of the simple API, by enum hxd_servo. */
static const char *const servo_kinds[] = { "position", "velocity" };

/* The limits robot shows; 0 and 0 is how the simple API says "none". */
static const struct robot_table robot_tables[] = {
	{ "motor limits (control range; 0 0: not limited)", ROBOT_ACTUATOR,
	    ROBOT_ACTUATOR, offsetof(hxd_robot, motor_count),
	    { offsetof(hxd_robot, motor_limit) }, 1, 2, { "lower", "upper" } },
	{ "joint limits (the sensed joint's range; 0 0: not limited)",
	    SENS_JOINTPOS, SENS_JOINTVEL, offsetof(hxd_robot, joint_count),
	    { offsetof(hxd_robot, joint_limit) }, 1, 2, { "lower", "upper" } },
};

/* The sensors hx-update shows. */
static const struct robot_table robot_sensor_tables[] = {
	{ "motors", ROBOT_ACTUATOR, ROBOT_ACTUATOR,
	    offsetof(hxd_robot_sensor, motor_count),
	    { offsetof(hxd_robot_sensor, motor_pos),
		offsetof(hxd_robot_sensor, motor_vel),
		offsetof(hxd_robot_sensor, motor_torque) },
	    3, 1, { "pos", "vel", "torque" } },
	{ "joints", SENS_JOINTPOS, SENS_JOINTVEL,
	    offsetof(hxd_robot_sensor, joint_count),
	    { offsetof(hxd_robot_sensor, joint_pos),
		offsetof(hxd_robot_sensor, joint_vel) },
	    2, 1, { "pos", "vel" } },
	{ "contacts", SENS_TOUCH, SENS_TOUCH,
	    offsetof(hxd_robot_sensor, contact_sensor_count),
	    { offsetof(hxd_robot_sensor, contact) }, 1, 1, { "force" } },
	{ "IMUs", SENS_ACCELEROMETER, SENS_GYRO,
	    offsetof(hxd_robot_sensor, imu_count),
	    { offsetof(hxd_robot_sensor, imu_linear_acc),
		offsetof(hxd_robot_sensor, imu_angular_vel) },
	    2, 3, { "acc x", "acc y", "acc z", "gyro x", "gyro y", "gyro z" } },
};

/* hx-update's command arrays, in the order of hxd_robot_command. */
/* clang-format off */
#define ROBOT_ARRAY(opt, m) { opt, offsetof(hxd_robot_command, m) }
/* clang-format on */
static const struct robot_array robot_arrays[] = {
	ROBOT_ARRAY("--ref-pos", ref_pos),
	ROBOT_ARRAY("--ref-vel", ref_vel),
	ROBOT_ARRAY("--gain-pos", gain_pos),
	ROBOT_ARRAY("--gain-vel", gain_vel),
	ROBOT_ARRAY("--ref-vel-max", ref_vel_max),
};

/* Show the robot as hx_robot_info describes it. */
int
cmd_robot(struct ctl *ctl)
{
	hxd_robot *r;
	int rc;

	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_robot_info(ctl->conn, &r) != HXD_OK)
		return ctl_fail(ctl);
	if (ctl->json)
		robot_json(r);
	else if ((rc = ctl_get_info(ctl)) == 0)
		robot_print(r, ctl->info);
	free(r);
	return rc;
}

/* Write the robot as one JSON object; the servo kind by name. */
static void
robot_json(const hxd_robot *r)
{
	js_open('{');
	js_ki("motor_count", r->motor_count);
	js_ki("joint_count", r->joint_count);
	js_ki("contact_sensor_count", r->contact_sensor_count);
	js_ki("imu_count", r->imu_count);
	js_ks("servo",
	    table_enum_name(servo_kinds, NELEM(servo_kinds), r->servo));
	js_kn("update_rate", r->update_rate);
	js_kv("motor_limit", r->motor_limit, 2 * r->motor_count);
	js_kv("joint_limit", r->joint_limit, 2 * r->joint_count);
	js_close('}');
}

/* Print the robot's counts, servo kind and rate, then its limits. */
static void
robot_print(const hxd_robot *r, const hxd_info *in)
{
	size_t i;

	printf("%-12s %d, %s servos\n", "motors", r->motor_count,
	    table_enum_name(servo_kinds, NELEM(servo_kinds), r->servo));
	printf("%-12s %d (joint position and velocity sensors)\n", "joints",
	    r->joint_count);
	printf(
	    "%-12s %d (touch sensors)\n", "contacts", r->contact_sensor_count);
	printf(
	    "%-12s %d (accelerometer and gyro pairs)\n", "IMUs", r->imu_count);
	printf("%-12s %g Hz\n", "update rate", r->update_rate);
	for (i = 0; i < NELEM(robot_tables); i++)
		robot_table_print(&robot_tables[i], in, r);
}

/*
 * Make one hx_update: the command arrays given, each of all motor_count
 * values, or none (hx_read_sensors); show the sensors.
 */
int
cmd_hx_update(struct ctl *ctl)
{
	struct ctl_opt opts[NELEM(robot_arrays) + 1];
	hxd_robot_command cmd;
	hxd_robot_sensor *s = NULL;
	double *values = NULL;
	size_t i, nowait = NELEM(robot_arrays);
	int rc;

	memset(opts, 0, sizeof(opts));
	for (i = 0; i < NELEM(robot_arrays); i++) {
		opts[i].name = robot_arrays[i].opt;
		opts[i].kind = OPT_LIST;
	}
	opts[nowait].name = "--no-wait";
	opts[nowait].kind = OPT_FLAG;
	if ((rc = ctl_options(ctl, opts, NELEM(opts))) != 0)
		return rc;
	if (ctl->npos > 0)
		return ctl_usage_error(
		    ctl, "unexpected argument '%s'", ctl->pos[0]);
	memset(&cmd, 0, sizeof(cmd));
	cmd.no_wait = opts[nowait].given;
	if ((rc = ctl_connect(ctl)) == 0 &&
	    (rc = robot_command(ctl, opts, &cmd, &values)) == 0 &&
	    (ctl->json || (rc = ctl_get_info(ctl)) == 0)) {
		if (hxd_robot_update(ctl->conn, &cmd, &s) != HXD_OK)
			rc = ctl_fail(ctl);
		else
			view_show(ctl, &view_robot_sensor, s);
	}
	free(s);
	free(values);
	return rc;
}

/*
 * Point cmd's arrays at the lists given in opts, copied into *values
 * (caller frees, even on failure).  Each must have motor_count values,
 * which the server is asked for first.  Returns 0 or CTL_FAIL.
 */
static int
robot_command(struct ctl *ctl, const struct ctl_opt *opts,
    hxd_robot_command *cmd, double **values)
{
	hxd_robot *r;
	double *v;
	size_t i;
	int n, rc = CTL_OK;

	*values = NULL;
	for (i = 0; i < NELEM(robot_arrays) && !opts[i].given; i++)
		;
	if (i == NELEM(robot_arrays))
		return CTL_OK;
	if (hxd_robot_info(ctl->conn, &r) != HXD_OK)
		return ctl_fail(ctl);
	n = r->motor_count;
	free(r);
	*values = calloc(NELEM(robot_arrays) * (size_t)n + 1, sizeof(double));
	if (*values == NULL)
		return ctl_error(ctl, HXD_CANNOTSEND, "out of memory");
	cmd->motor_count = n;
	for (i = 0; i < NELEM(robot_arrays) && rc == CTL_OK; i++) {
		if (!opts[i].given)
			continue;
		v = *values + i * (size_t)n;
		if ((rc = ctl_fill(ctl, &opts[i], "motor_count", v, n)) == 0)
			*(const double **)(void *)((char *)cmd +
			    robot_arrays[i].off) = v;
	}
	return rc;
}

/* Print the sensors of an hx_update, one table per kind of row. */
static void
robot_sensor_print(
    const struct ctl_view *v, const hxd_info *in, const void *data)
{
	size_t i;

	for (i = 0; i < NELEM(robot_sensor_tables); i++)
		robot_table_print(&robot_sensor_tables[i], in, data);
}

/* Print a table of an answer of the simple API, unless it has no rows. */
static void
robot_table_print(
    const struct robot_table *t, const hxd_info *in, const void *data)
{
	const char *head = t->first == ROBOT_ACTUATOR ? "name" : "sensor";
	char buf[CTL_LABEL_MAX];
	int i, k, len, w = (int)strlen(head), n = MEMBER(int, data, t->count);

	if (n <= 0)
		return;
	for (i = 0; i < n; i++) {
		len = (int)strlen(robot_label(in, t, i, n, buf, sizeof(buf)));
		if (len > w)
			w = len;
	}
	printf("%s\n%4s  %-*s", t->title, "id", w, head);
	for (k = 0; k < t->ncols * t->per; k++)
		printf(HDR, t->heads[k]);
	putchar('\n');
	for (i = 0; i < n; i++) {
		printf("%4d  %-*s", i, w,
		    robot_label(in, t, i, n, buf, sizeof(buf)));
		for (k = 0; k < t->ncols; k++)
			table_put_nums(
			    MEMBER(double *, data, t->cols[k]) + t->per * i,
			    t->per);
		putchar('\n');
	}
}

/* The label of row i of the n rows of t: its actuator's or sensor's name. */
static const char *
robot_label(const hxd_info *in, const struct robot_table *t, int i, int n,
    char *buf, size_t len)
{
	return table_obj_label(in,
	    t->first == ROBOT_ACTUATOR ? HXD_OBJ_ACTUATOR : HXD_OBJ_SENSOR,
	    robot_row_object(in, t, i, n), buf, len);
}

/*
 * The object behind row i of the n rows of t, as the server maps the
 * model: actuator i, or the i-th sensor of t's first type, else (beyond
 * those) of its second.  -1 when the description does not give n rows.
 */
static int
robot_row_object(const hxd_info *in, const struct robot_table *t, int i, int n)
{
	int k, type, n1 = 0, n2 = 0, seen = 0;

	if (t->first == ROBOT_ACTUATOR)
		return in->model.nu == n ? i : -1;
	for (k = 0; k < in->model.nsensor; k++) {
		n1 += in->sensor_type[k] == t->first;
		n2 += in->sensor_type[k] == t->second;
	}
	if ((n1 > n2 ? n1 : n2) != n)
		return -1;
	type = i < n1 ? t->first : t->second;
	for (k = 0; k < in->model.nsensor; k++) {
		if (in->sensor_type[k] == type && seen++ == i)
			return k;
	}
	return -1;
}
