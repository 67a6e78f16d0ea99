/*
 * hxctl: the command-line client of haptixd.
 *
 * One command per call of haptixd.h, each a row in ctl_cmds[] with its
 * argument synopsis, its help line and its handler.  A handler checks
 * its arguments before it connects, connects on first need, prints a
 * table (or one JSON object with --json) and returns the exit status.
 * Commands that make one call and print nothing share cmd_call(), with
 * the call in their row; commands that only fetch and show an answer
 * share cmd_show(), with a struct ctl_view in their row that lists the
 * answer's members.  The simple API's two calls (hx_robot_info,
 * hx_update) have a command each, labelled as the server maps the model
 * onto the robot.  A few commands stay connected: subscribe prints frames
 * and events as JSON Lines until it is told to stop, and lease take and
 * message --hold keep what they set; step and run --until with batch
 * options go through lock-step batch runs, in chunks on a terminal.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "haptixd.h"

/* Exit statuses. */
#define CTL_OK 0    /* done */
#define CTL_FAIL 1  /* the server, the connection or a local file said no */
#define CTL_USAGE 2 /* the command line is wrong; nothing was sent */

/* The server takes at most this many steps in one request. */
#define CTL_STEP_CHUNK 10000u

/* The most steps of one batch request (the server's BATCH_MAX_STEPS). */
#define CTL_BATCH_MAX 100000000u

/* On a terminal: steps of the first chunk of a batch, and the wall time
 * each later chunk aims at, in seconds. */
#define CTL_BATCH_FIRST 100u
#define CTL_BATCH_SECONDS 0.2

/* Runs shorter than this (seconds) show no progress line. */
#define CTL_PROGRESS_AFTER 0.5

/* The rate of subscribe when fields are given without one (wall Hz). */
#define CTL_SUBSCRIBE_HZ 30.0

/* How long subscribe and --hold wait at most before looking at signals. */
#define CTL_POLL_MS 200

/* Every field of a stream frame. */
#define CTL_FIELDS_ALL ((2u << HXD_FIELD_MAX) - 2)

/* The largest model file --inline sends: the library's frame limit. */
#define CTL_INLINE_MAX (256L * 1024 * 1024)

/* The longest object name NAME=V accepts. */
#define CTL_NAME_MAX 1024

/* Room for a label: "#ID", or a dof's "JOINT[K]" (a longer one is cut). */
#define CTL_LABEL_MAX 64

/* Rows of a table labelled by dof (a joint's name and index), not object. */
#define CTL_DOF (-1)

/* HAPTIX's numbers (sensor_types[]) of the sensors the simple API reads. */
#define SENS_TOUCH 0
#define SENS_ACCELEROMETER 1
#define SENS_GYRO 3
#define SENS_JOINTPOS 8
#define SENS_JOINTVEL 9

/* Rows of a table of the simple API that are actuators, not sensors. */
#define ROBOT_ACTUATOR (-1)

/* Readable number columns. */
#define NUM " %12.6g"
#define HDR " %12s"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* The member of type T at offset off of the struct at base. */
#define MEMBER(T, base, off) \
	(*(T const *)(const void *)((const char *)(base) + (off)))

/* One run of hxctl: the global options and the command being run. */
struct ctl {
	const char *server; /* --server, or NULL for the default */
	int json;           /* --json */
	int timeout_ms;     /* --timeout, or -1 for the library's */
	const struct ctl_cmd *cmd;
	int argc; /* the command's own arguments */
	char **argv;
	char **pos; /* the positional ones, once ctl_options() sorted them */
	int npos;
	hxd_conn *conn;  /* connected on first need */
	hxd_info *info;  /* fetched on first need */
	int stdout_gone; /* the reader of stdout left: exit quietly */
};

/* A command: a row of the table that --help and dispatch both read. */
struct ctl_cmd {
	const char *name;
	const char *args;  /* argument synopsis */
	const char *help;  /* what it does; '\n' continues the line */
	const char *group; /* heading in --help */
	int min, max;      /* argument counts, options included; -1: any */
	int (*fn)(struct ctl *);
	int (*call)(hxd_conn *);     /* cmd_call: the call it makes */
	const struct ctl_view *view; /* cmd_show: what it fetches and shows */
};

/* What a command option takes. */
enum ctl_opt_kind {
	OPT_FLAG,   /* nothing */
	OPT_STRING, /* one word */
	OPT_LIST,   /* comma-separated finite numbers */
};

/* A command option, and what the command line gave for it. */
struct ctl_opt {
	const char *name; /* "--pos"; NULL for a row no option fills */
	enum ctl_opt_kind kind;
	int want;          /* OPT_LIST: values required, 0 for any number */
	const char *value; /* OPT_STRING, OPT_LIST: the text given */
	int given;
	int count; /* OPT_LIST: values in value */
};

/* What a member of a get answer is. */
enum ctl_field_kind {
	F_NUM,  /* a double: the time */
	F_INT,  /* an int: a count */
	F_NUMS, /* an array of doubles */
	F_INTS, /* an array of ints */
};

/* How the table of a get answer shows an array. */
enum ctl_field_show {
	SHOW_NONE, /* not at all: only --json has it */
	SHOW_QPOS, /* one joint per row, sized like qpos */
	SHOW_DOF,  /* one joint per row, sized like qvel */
	SHOW_ACT,  /* one actuator per row, the last ones; nothing if empty */
	SHOW_COL,  /* a column of the table of the view's rows */
};

/* A member of a get answer: its name (also its JSON key), where it is. */
struct ctl_field {
	const char *key; /* NULL ends a list */
	enum ctl_field_kind kind;
	size_t off;   /* offsetof the member */
	size_t count; /* arrays: offsetof the int counting their objects */
	int per;      /* arrays: values per object */
	enum ctl_field_show show;
	int pad; /* SHOW_COL: spaces before each value beyond the usual */
};

/* A get command: its call, its answer's members, and how to show them. */
struct ctl_view {
	/* The hxd_get_* call (caller frees), or NULL for a view only shown
	 * by a command that makes its own call. */
	int (*get)(hxd_conn *, void **);
	const struct ctl_field *fields; /* in --json order, "time" first */
	int rows; /* what a row of the table is: HXD_OBJ_*, or CTL_DOF */
	/* Print what the fields do not: the rest of the table; or NULL. */
	void (*print)(const struct ctl_view *, const hxd_info *, const void *);
};

/* A kind of object that hxd_info names, and how info shows one. */
struct info_kind {
	const char *title; /* heading, and JSON key */
	int type;          /* HXD_OBJ_* */
	size_t count;      /* offsetof its count in hxd_model */
	size_t names;      /* offsetof its names in hxd_info */
	/* Write object i's members beyond its name; NULL: none. */
	void (*json)(const hxd_info *, int);
	/* Print row i's columns after a name w wide, or the headings if
	 * i < 0; NULL: the name alone. */
	void (*text)(const hxd_info *, int, int);
};

/* A quantity of hxd_onebody: how body shows it, how set-body sets it. */
struct onebody_member {
	const char *name;
	const char *opt; /* set-body's option, or NULL if it cannot set it */
	size_t off;      /* offsetof it in hxd_onebody */
	int n;           /* values */
	unsigned flag;   /* HXD_ONEBODY_*, for hxd_set_onebody() */
};

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

/* What step (with batch options) and run --until ask of batch runs. */
struct batch_plan {
	unsigned long steps;   /* steps to take, or 0 to step until `until` */
	double until;          /* simulated time */
	hxd_control *control;  /* set before the first step, or NULL */
	unsigned record;       /* HXD_FIELDS() to print after steps */
	unsigned record_every; /* after every K-th step */
};

/* The options step and run share; each blanks the row it does not take. */
enum batch_opt { BO_CTRL, BO_RECORD, BO_EVERY, BO_SENSORS, BO_UNTIL, BO_COUNT };

/* Where the JSON writer is: a comma goes between values at each depth. */
static struct {
	int depth;
	int count[16]; /* values written at each depth; nesting stays shallow */
	int keyed;     /* a key was just written: its value needs no comma */
} js;

/* Set by SIGINT or SIGTERM once ctl_signals() has caught them. */
static volatile sig_atomic_t ctl_stopped;

static int cmd_call(struct ctl *);
static int cmd_show(struct ctl *);
static int cmd_info(struct ctl *);
static int cmd_status(struct ctl *);
static int cmd_body(struct ctl *);
static int cmd_rgba(struct ctl *);
static int cmd_name2id(struct ctl *);
static int cmd_id2name(struct ctl *);
static int cmd_set_state(struct ctl *);
static int cmd_set_ctrl(struct ctl *);
static int cmd_set_applied(struct ctl *);
static int cmd_set_body(struct ctl *);
static int cmd_set_mocap(struct ctl *);
static int cmd_geomsize(struct ctl *);
static int cmd_equality(struct ctl *);
static int cmd_message(struct ctl *);
static int cmd_set_joint(struct ctl *);
static int cmd_step(struct ctl *);
static int cmd_run(struct ctl *);
static int cmd_update(struct ctl *);
static int cmd_reset(struct ctl *);
static int cmd_capture(struct ctl *);
static int cmd_speed(struct ctl *);
static int cmd_robot(struct ctl *);
static int cmd_hx_update(struct ctl *);
static int cmd_load(struct ctl *);
static int cmd_reload(struct ctl *);
static int cmd_clients(struct ctl *);
static int cmd_lease(struct ctl *);
static int cmd_subscribe(struct ctl *);
static int cmd_arrays(struct ctl *);
static int cmd_get(struct ctl *);
static int cmd_set(struct ctl *);
static int cmd_help(struct ctl *);

static void js_sep(void);
static void js_open(int);
static void js_close(int);
static void js_quote(const char *);
static void js_key(const char *);
static void js_num(double);
static void js_int(long long);
static void js_nums(const double *, int);
static void js_ints(const int *, int);
static void js_kn(const char *, double);
static void js_ki(const char *, long long);
static void js_ku(const char *, unsigned long long);
static void js_ks(const char *, const char *);
static void js_kb(const char *, int);
static void js_kv(const char *, const double *, int);
static void js_null(void);
static void js_knull(const char *);
static void js_ok(void);
static void js_model(const hxd_model *);

static int parse_double(const char *, double *);
static int parse_long(const char *, long, long, long *);
static int parse_list(const char *, double *, int, const char **);
static const char *split_assign(const char *, char *, size_t);

static int ctl_global_error(const char *, ...)
    __attribute__((format(printf, 1, 2)));
static int ctl_usage_error(struct ctl *, const char *, ...)
    __attribute__((format(printf, 2, 3)));
static int ctl_error(struct ctl *, int, const char *, ...)
    __attribute__((format(printf, 3, 4)));
static int ctl_fail(struct ctl *);
static int ctl_done(struct ctl *, int);
static int ctl_connect(struct ctl *);
static int ctl_get_info(struct ctl *);
static int ctl_object(struct ctl *, int, const char *, int *);
static int ctl_name2id(struct ctl *, int, const char *, int *);
static int ctl_id_check(struct ctl *, int, int, int, const char *);
static int ctl_objtype(struct ctl *, const char *, int *);
static int ctl_numbers(struct ctl *, char **, int, double *);
static int ctl_which(struct ctl *, const char *);
static int ctl_options(struct ctl *, struct ctl_opt *, int);
static struct ctl_opt *ctl_opt_find(struct ctl_opt *, int, const char *);
static int ctl_check_list(struct ctl *, const char *, const char *, int, int *);
static int ctl_fill(
    struct ctl *, const struct ctl_opt *, const char *, double *, int);
static int ctl_assign_options(
    struct ctl *, struct ctl_opt *, int, int, const char *);
static int controls_check(struct ctl *, char **, int, int *);
static int controls_build(struct ctl *, char **, int, int, hxd_control **);
static int controls_assign(struct ctl *, hxd_control *, char **, int);
static int controls_named(
    struct ctl *, const struct ctl_opt *, char **, int, hxd_control **);
static int ctl_seconds(struct ctl *, const char *, const char *, double *);
static int ctl_fields(struct ctl *, const char *, const char *, unsigned *);
static double ctl_now(void);
static void ctl_on_signal(int);
static void ctl_signals(void);
static void ctl_hold(double);
static int ctl_reader_gone(void);
static int state_joints(struct ctl *, hxd_state *);
static int applied_bodies(struct ctl *, hxd_applied *);

static const char *enum_name(const char *const *, size_t, int);
static const char *joint_type_name(int);
static const char *trn_type_name(int);
static int joint_width(int, int);
static const char *const *info_names(const hxd_info *, int, int *);
static const char *obj_label(const hxd_info *, int, int, char *, size_t);
static const char *dof_label(const hxd_info *, int, char *, size_t);
static const char *row_label(const hxd_info *, int, int, char *, size_t);
static int label_width(const hxd_info *, int, int);
static void put_nums(const double *, int);
static void put_row(int, int, const char *, const double *, int);
static void print_by_joint(
    const char *, const hxd_info *, const double *, int, int);
static void print_by_actuator(
    const char *, const hxd_info *, const double *, int);

static int step_plain(struct ctl *, unsigned long);
static int batch_prepare(struct ctl *, struct ctl_opt *, struct batch_plan *);
static int batch_run(struct ctl *, const struct batch_plan *);
static void batch_show(struct ctl *, const struct batch_plan *,
    unsigned long long, double, const hxd_sensor *);
static int batch_progress(
    struct ctl *, const struct batch_plan *, unsigned long long, double);
static void progress_clear(int);

static void client_json(const hxd_client *, unsigned long long);
static void clients_print(const hxd_client *, int, unsigned long long);
static void lease_json(const hxd_lease_info *);
static void lease_print(const hxd_lease_info *);
static void event_json(const hxd_event *, unsigned);
static void frame_json(const hxd_frame *, unsigned, int);
static void frame_field_json(const hxd_frame *, int);
static void array_json_head(const hxd_array *);
static int array_rows(const hxd_info *, const hxd_array *);

static void status_json(const hxd_status *);
static void status_print(const hxd_status *);
static void model_print(const char *, const hxd_model *);
static void model_show(struct ctl *, const char *, const hxd_model *);
static void info_json(const hxd_info *);
static void info_print(const hxd_info *);
static void info_body_json(const hxd_info *, int);
static void info_body_text(const hxd_info *, int, int);
static void info_joint_json(const hxd_info *, int);
static void info_joint_text(const hxd_info *, int, int);
static void info_geom_json(const hxd_info *, int);
static void info_geom_text(const hxd_info *, int, int);
static void info_actuator_json(const hxd_info *, int);
static void info_actuator_text(const hxd_info *, int, int);
static void info_sensor_json(const hxd_info *, int);
static void info_sensor_text(const hxd_info *, int, int);
static void info_eq_json(const hxd_info *, int);
static void info_eq_text(const hxd_info *, int, int);

static void view_show(struct ctl *, const struct ctl_view *, const void *);
static void view_json(const struct ctl_view *, const void *);
static void view_print(const struct ctl_view *, const hxd_info *, const void *);
static void view_columns(
    const struct ctl_view *, const hxd_info *, const void *);
static void ctrl_print(const struct ctl_view *, const hxd_info *, const void *);
static void applied_print(
    const struct ctl_view *, const hxd_info *, const void *);
static void mocap_print(
    const struct ctl_view *, const hxd_info *, const void *);
static void sensor_print(
    const struct ctl_view *, const hxd_info *, const void *);
static void poses_print(
    const struct ctl_view *, const hxd_info *, const void *);
static void contacts_print(
    const struct ctl_view *, const hxd_info *, const void *);

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

static int load_inline(
    struct ctl *, const char *, int, const char *, hxd_model *);
static int read_local(const char *, unsigned char **, size_t *);
static int format_parse(const char *);
static int format_from_suffix(const char *);

static const struct ctl_cmd *ctl_find(const char *);
static void ctl_usage(FILE *);
static void ctl_cmd_help(FILE *, const struct ctl_cmd *);

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

/* HAPTIX's sensor type numbers (haptix.proto's SensorType), by name. */
static const char *const sensor_types[] = { "touch", "accelerometer",
	"velocimeter", "gyro", "force", "torque", "magnetometer", "rangefinder",
	"jointpos", "jointvel", "tendonpos", "tendonvel", "actuatorpos",
	"actuatorvel", "actuatorfrc", "ballquat", "ballangvel", "framepos",
	"framequat", "framexaxis", "frameyaxis", "framezaxis", "framelinvel",
	"frameangvel", "framelinacc", "frameangacc", "subtreecom",
	"subtreelinvel", "subtreeangmom", "user", "jointlimitpos",
	"jointlimitvel", "jointlimitfrc", "tendonlimitpos", "tendonlimitvel",
	"tendonlimitfrc", "clock" };

static const char *const sensor_datatypes[] = { "real", "positive", "axis",
	"quaternion" };

static const char *const joint_types[] = { "free", "ball", "slide", "hinge" };

static const char *const geom_types[] = { "plane", "hfield", "sphere",
	"capsule", "ellipsoid", "cylinder", "box", "mesh" };

static const char *const trn_types[] = { "joint", "jointinparent",
	"slidercrank", "tendon", "site", "body" };

static const char *const eq_types[] = { "connect", "weld", "joint", "tendon",
	"distance" };

/* The sizes of a model, in the order hxctl shows them. */
/* clang-format off */
#define MODEL_SIZE(m) { #m, offsetof(hxd_model, m) }
/* clang-format on */
static const struct {
	const char *name;
	size_t off;
} model_sizes[] = { MODEL_SIZE(nq), MODEL_SIZE(nv), MODEL_SIZE(na),
	MODEL_SIZE(nu), MODEL_SIZE(nbody), MODEL_SIZE(njnt), MODEL_SIZE(ngeom),
	MODEL_SIZE(nsite), MODEL_SIZE(ntendon), MODEL_SIZE(neq),
	MODEL_SIZE(nkey), MODEL_SIZE(nmocap), MODEL_SIZE(nsensor),
	MODEL_SIZE(nsensordata), MODEL_SIZE(nmat) };

/* The size model_print() starts its second line of sizes with. */
#define MODEL_SIZES_BREAK 8

/* The kinds of object info shows, in its order. */
/* clang-format off */
#define INFO_KIND(title, type, n, names, json, text)                      \
	{ title, type, offsetof(hxd_model, n), offsetof(hxd_info, names), \
		json, text }
/* clang-format on */
static const struct info_kind info_kinds[] = {
	INFO_KIND("bodies", HXD_OBJ_BODY, nbody, body_name, info_body_json,
	    info_body_text),
	INFO_KIND("joints", HXD_OBJ_JOINT, njnt, jnt_name, info_joint_json,
	    info_joint_text),
	INFO_KIND("geoms", HXD_OBJ_GEOM, ngeom, geom_name, info_geom_json,
	    info_geom_text),
	INFO_KIND("sites", HXD_OBJ_SITE, nsite, site_name, NULL, NULL),
	INFO_KIND("tendons", HXD_OBJ_TENDON, ntendon, tendon_name, NULL, NULL),
	INFO_KIND("actuators", HXD_OBJ_ACTUATOR, nu, actuator_name,
	    info_actuator_json, info_actuator_text),
	INFO_KIND("sensors", HXD_OBJ_SENSOR, nsensor, sensor_name,
	    info_sensor_json, info_sensor_text),
	INFO_KIND("equalities", HXD_OBJ_EQUALITY, neq, eq_name, info_eq_json,
	    info_eq_text),
	INFO_KIND("keyframes", HXD_OBJ_KEY, nkey, key_name, NULL, NULL),
	INFO_KIND("materials", HXD_OBJ_MATERIAL, nmat, mat_name, NULL, NULL),
};

/* The quantities of one body, in the order body shows them. */
/* clang-format off */
#define ONEBODY(m, n, flag) { #m, "--" #m, offsetof(hxd_onebody, m), n, flag }
#define ONEBODY_RO(m) { #m, NULL, offsetof(hxd_onebody, m), 3, 0 }
/* clang-format on */
static const struct onebody_member onebody_members[] = {
	ONEBODY(pos, 3, HXD_ONEBODY_POS),
	ONEBODY(quat, 4, HXD_ONEBODY_QUAT),
	ONEBODY(linvel, 3, HXD_ONEBODY_LINVEL),
	ONEBODY(angvel, 3, HXD_ONEBODY_ANGVEL),
	ONEBODY_RO(linacc),
	ONEBODY_RO(angacc),
	ONEBODY_RO(contactforce),
	ONEBODY(force, 3, HXD_ONEBODY_FORCE),
	ONEBODY(torque, 3, HXD_ONEBODY_TORQUE),
};

/* What hxd_set_onebody() writes only for floating bodies. */
#define ONEBODY_FLOATING \
	(HXD_ONEBODY_POS | HXD_ONEBODY_QUAT | HXD_ONEBODY_LINVEL | \
	    HXD_ONEBODY_ANGVEL)

/* Members of get answers, for ctl_view.fields; a name is its JSON key. */
/* clang-format off */
#define F_TIME(T) { "time", F_NUM, offsetof(T, time), 0, 0, SHOW_NONE, 0 }
#define F_COUNT(T, m) { #m, F_INT, offsetof(T, m), 0, 0, SHOW_NONE, 0 }
#define F_ARRAY(T, m, n, per, show) \
	{ #m, F_NUMS, offsetof(T, m), offsetof(T, n), per, show, 0 }
#define F_IARRAY(T, m, n) \
	{ #m, F_INTS, offsetof(T, m), offsetof(T, n), 1, SHOW_NONE, 0 }
#define F_END { NULL, F_NUM, 0, 0, 0, SHOW_NONE, 0 }
/* clang-format on */
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

static const struct ctl_view view_state = { get_state, state_fields, 0, NULL };
static const struct ctl_view view_ctrl = { get_control, control_fields, 0,
	ctrl_print };
static const struct ctl_view view_applied = { get_applied, applied_fields, 0,
	applied_print };
static const struct ctl_view view_mocap = { get_mocap, mocap_fields, 0,
	mocap_print };
static const struct ctl_view view_dynamics = { get_dynamics, dynamics_fields, 0,
	NULL };
static const struct ctl_view view_sensor = { get_sensor, sensor_fields, 0,
	sensor_print };
static const struct ctl_view view_bodies = { get_body, poses_fields,
	HXD_OBJ_BODY, poses_print };
static const struct ctl_view view_geoms = { get_geom, poses_fields,
	HXD_OBJ_GEOM, poses_print };
static const struct ctl_view view_sites = { get_site, poses_fields,
	HXD_OBJ_SITE, poses_print };
static const struct ctl_view view_tendons = { get_tendon, tendon_fields,
	HXD_OBJ_TENDON, NULL };
static const struct ctl_view view_actuators = { get_actuator, actuator_fields,
	HXD_OBJ_ACTUATOR, NULL };
static const struct ctl_view view_forces = { get_force, force_fields, CTL_DOF,
	NULL };
static const struct ctl_view view_contacts = { get_contact, contact_fields, 0,
	contacts_print };

static const struct ctl_field robot_sensor_fields[] = {
	F_TIME(hxd_robot_sensor), F_COUNT(hxd_robot_sensor, motor_count),
	F_COUNT(hxd_robot_sensor, joint_count),
	F_COUNT(hxd_robot_sensor, contact_sensor_count),
	F_COUNT(hxd_robot_sensor, imu_count),
	F_ARRAY(hxd_robot_sensor, motor_pos, motor_count, 1, SHOW_NONE),
	F_ARRAY(hxd_robot_sensor, motor_vel, motor_count, 1, SHOW_NONE),
	F_ARRAY(hxd_robot_sensor, motor_torque, motor_count, 1, SHOW_NONE),
	F_ARRAY(hxd_robot_sensor, joint_pos, joint_count, 1, SHOW_NONE),
	F_ARRAY(hxd_robot_sensor, joint_vel, joint_count, 1, SHOW_NONE),
	F_ARRAY(hxd_robot_sensor, contact, contact_sensor_count, 1, SHOW_NONE),
	F_ARRAY(hxd_robot_sensor, imu_linear_acc, imu_count, 3, SHOW_NONE),
	F_ARRAY(hxd_robot_sensor, imu_angular_vel, imu_count, 3, SHOW_NONE),
	F_END
};

/* hx-update makes its own call: hxd_robot_update() with a command. */
static const struct ctl_view view_robot_sensor = { NULL, robot_sensor_fields, 0,
	robot_sensor_print };

/* The kinds of servo of the simple API, by enum hxd_servo. */
static const char *const servo_kinds[] = { "position", "velocity" };

/* The "event" of subscribe's lines, by enum hxd_event_kind. */
static const char *const event_kinds[] = { "unknown", "frame", "model", "reset",
	"run", "speed", "instability", "message", "lease", "client_joined",
	"client_left" };

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

/* Headings of --help. */
static const char G_READ[] = "Reading the simulation";
static const char G_WRITE[] = "Changing the simulation";
static const char G_SIM[] = "Running the simulation";
static const char G_SIMPLE[] = "Simple API";
static const char G_CLIENTS[] = "Clients and events";
static const char G_ARRAYS[] = "Arrays by name";
static const char G_MODEL[] = "Models";

static const struct ctl_cmd ctl_cmds[] = {
	{ "info", "", "the model: sizes and every named object", G_READ, 0, 0,
	    .fn = cmd_info },
	{ "status", "",
	    "the server: model, paused or running, time,\n"
	    "speed, load, energy, clients, message",
	    G_READ, 0, 0, .fn = cmd_status },
	{ "state", "", "time, qpos, qvel and act, by joint", G_READ, 0, 0,
	    .fn = cmd_show, .view = &view_state },
	{ "ctrl", "", "the controls, by actuator", G_READ, 0, 0, .fn = cmd_show,
	    .view = &view_ctrl },
	{ "applied", "",
	    "the applied forces: qfrc_applied by joint,\n"
	    "xfrc_applied (force, torque) by body",
	    G_READ, 0, 0, .fn = cmd_show, .view = &view_applied },
	{ "body", "ID|NAME",
	    "one body: pose, velocities, accelerations,\n"
	    "contact force, applied force and torque",
	    G_READ, 1, 1, .fn = cmd_body },
	{ "mocap", "", "the mocap bodies' positions and quaternions", G_READ, 0,
	    0, .fn = cmd_show, .view = &view_mocap },
	{ "dynamics", "", "qacc by joint and act_dot by actuator", G_READ, 0, 0,
	    .fn = cmd_show, .view = &view_dynamics },
	{ "sensor", "", "the sensor data, by sensor", G_READ, 0, 0,
	    .fn = cmd_show, .view = &view_sensor },
	{ "bodies", "", "every body's position and rotation matrix", G_READ, 0,
	    0, .fn = cmd_show, .view = &view_bodies },
	{ "geoms", "", "every geom's position and rotation matrix", G_READ, 0,
	    0, .fn = cmd_show, .view = &view_geoms },
	{ "sites", "", "every site's position and rotation matrix", G_READ, 0,
	    0, .fn = cmd_show, .view = &view_sites },
	{ "tendons", "", "tendon lengths and velocities", G_READ, 0, 0,
	    .fn = cmd_show, .view = &view_tendons },
	{ "actuators", "", "actuator lengths, velocities and forces", G_READ, 0,
	    0, .fn = cmd_show, .view = &view_actuators },
	{ "forces", "",
	    "generalized forces by dof: applied, passive,\n"
	    "bias, actuator, constraint, and nonconstraint\n"
	    "(applied + passive + actuator - bias)",
	    G_READ, 0, 0, .fn = cmd_show, .view = &view_forces },
	{ "contacts", "",
	    "the contacts: geoms, distance, position, force\n"
	    "in the contact frame, normal",
	    G_READ, 0, 0, .fn = cmd_show, .view = &view_contacts },
	{ "rgba", "TYPE ID|NAME [R G B A]",
	    "show the colour of a geom, site, tendon or\n"
	    "material, or set it (clamped to [0, 1])",
	    G_READ, 2, 6, .fn = cmd_rgba },
	{ "name2id", "TYPE NAME", "print an object's id; an unknown name fails",
	    G_READ, 2, 2, .fn = cmd_name2id },
	{ "id2name", "TYPE ID", "print an object's name (empty if unnamed)",
	    G_READ, 2, 2, .fn = cmd_id2name },

	{ "set-state",
	    "[--qpos LIST] [--qvel LIST] [--act LIST] [JOINT=LIST]...",
	    "set qpos (nq values), qvel (nv), act (na) or\n"
	    "one joint's qpos; the rest keeps its value",
	    G_WRITE, 1, -1, .fn = cmd_set_state },
	{ "set-ctrl", "V... | NAME=V...",
	    "set all nu controls, or the named ones (the\n"
	    "others keep their values)",
	    G_WRITE, 1, -1, .fn = cmd_set_ctrl },
	{ "set-applied", "[--clear] [--qfrc LIST] [--xfrc LIST] [BODY=LIST]...",
	    "set qfrc_applied (nv values), xfrc_applied\n"
	    "(6 per body) or one body's FX,FY,FZ,TX,TY,TZ;\n"
	    "--clear zeroes all first; the rest keeps its\n"
	    "value",
	    G_WRITE, 1, -1, .fn = cmd_set_applied },
	{ "set-body",
	    "ID|NAME [--pos|--quat|--linvel|--angvel|--force|--torque LIST]...",
	    "set quantities of one body: pos (3 values),\n"
	    "quat (4), linvel, angvel (3; these four for\n"
	    "floating bodies only), force, torque (3)",
	    G_WRITE, 1, -1, .fn = cmd_set_body },
	{ "set-mocap", "ID|NAME [--pos X,Y,Z] [--quat W,X,Y,Z]",
	    "move a mocap body", G_WRITE, 1, 5, .fn = cmd_set_mocap },
	{ "geomsize", "ID|NAME X Y Z", "set a geom's size, as in MJCF", G_WRITE,
	    4, 4, .fn = cmd_geomsize },
	{ "equality", "ID|NAME on|off",
	    "enable or disable an equality constraint", G_WRITE, 2, 2,
	    .fn = cmd_equality },
	{ "set-joint", "ID|NAME [--qpos LIST] [--qvel LIST]",
	    "set one joint's qpos (1 value; 4 for a ball,\n"
	    "7 for a free joint) and/or qvel (1, 3 or 6)",
	    G_WRITE, 1, 5, .fn = cmd_set_joint },
	{ "message", "[--hold S] [TEXT...]",
	    "show a message on the server's viewers, or\n"
	    "with none clear it; the server drops it when\n"
	    "hxctl disconnects, so --hold stays connected S\n"
	    "seconds (0: until hxctl is killed)",
	    G_WRITE, 0, -1, .fn = cmd_message },

	{ "step",
	    "[N] [--sensors] [--ctrl LIST] [NAME=V]... "
	    "[--record FIELD,... [--record-every K]]",
	    "while paused, take N steps (default 1) and\n"
	    "print the time; while running, do nothing.\n"
	    "With --sensors, controls or --record: one\n"
	    "lock-step batch (paused only; the server says\n"
	    "so otherwise) that sets the controls (LIST:\n"
	    "all nu; NAME=V: some), steps and prints the\n"
	    "sensors; --record prints the FIELDs after\n"
	    "every K-th step (default 1) as JSON Lines and\n"
	    "a last line with the sensors.  On a terminal\n"
	    "the batch goes in chunks of about 0.2 s, with\n"
	    "progress on stderr",
	    G_SIM, 0, -1, .fn = cmd_step },
	{ "update", "[V... | NAME=V...]",
	    "set the controls if given, then take a step\n"
	    "(paused) or wait for the next API tick\n"
	    "(running); print the sensor data",
	    G_SIM, 0, -1, .fn = cmd_update },
	{ "reset", "[KEY]",
	    "reset to a keyframe (index or name) or a\n"
	    "captured state (name), or with none to the\n"
	    "reference configuration",
	    G_SIM, 0, 1, .fn = cmd_reset },
	{ "capture", "NAME|INDEX",
	    "capture the state (time, qpos, qvel, act,\n"
	    "mocap, ctrl; HAPTIX's Sim=>Key) into the\n"
	    "model's keyframe NAME or INDEX, or under a\n"
	    "new NAME the server keeps until the next\n"
	    "model load (for reset NAME)",
	    G_SIM, 1, 1, .fn = cmd_capture },
	{ "pause", "", "pause the simulation", G_SIM, 0, 0, .fn = cmd_call,
	    .call = hxd_pause },
	{ "run",
	    "[--until T [--ctrl LIST] [NAME=V]... "
	    "[--record FIELD,... [--record-every K]]]",
	    "run the simulation; with --until, step it\n"
	    "(paused) in lock step to time T instead, as\n"
	    "step --sensors does, and print the sensors",
	    G_SIM, 0, -1, .fn = cmd_run },
	{ "speed", "X|max",
	    "set the speed factor (1 is real time), or run\n"
	    "as fast as possible",
	    G_SIM, 1, 1, .fn = cmd_speed },

	{ "robot", "",
	    "the robot as hx_robot_info sees the model:\n"
	    "motor, joint, contact sensor and IMU counts,\n"
	    "servo kind, update rate; motor limits by\n"
	    "actuator, joint limits by joint sensor (the\n"
	    "joints are the jointpos sensors, then the\n"
	    "jointvel ones beyond); 0 0: not limited",
	    G_SIMPLE, 0, 0, .fn = cmd_robot },
	{ "hx-update",
	    "[--ref-pos|--ref-vel|--gain-pos|--gain-vel|--ref-vel-max LIST]... "
	    "[--no-wait]",
	    "make one hx_update: each LIST given (all\n"
	    "motor_count values, in actuator order; the\n"
	    "simple API has no per-motor enable) enables\n"
	    "that array of the command; with none, only\n"
	    "read the sensors (hx_read_sensors); print\n"
	    "them.  While the simulation runs this waits\n"
	    "for the next API tick unless --no-wait;\n"
	    "while paused it does not step",
	    G_SIMPLE, 0, 11, .fn = cmd_hx_update },

	{ "clients", "",
	    "the connected clients: id, name, peer, which\n"
	    "holds the lease and which is this hxctl,\n"
	    "seconds connected, requests, errors, bytes\n"
	    "in and out, bytes queued, subscriptions,\n"
	    "frames sent and dropped, events dropped",
	    G_CLIENTS, 0, 0, .fn = cmd_clients },
	{ "lease", "[take --hold S | release]",
	    "show who holds the control lease and what\n"
	    "the server does when its holder vanishes;\n"
	    "take: hold it S seconds (0: until SIGINT or\n"
	    "SIGTERM), then release it (the lease ends\n"
	    "with the connection, so take needs --hold);\n"
	    "release: only the holder's own connection\n"
	    "can (stop the hxctl holding it instead)",
	    G_CLIENTS, 0, 3, .fn = cmd_lease },
	{ "subscribe",
	    "[FIELD...] [--every N|--sim-hz HZ|--wall-hz HZ] [--events] "
	    "[--count N] [--duration S]",
	    "print frames of the FIELDs (or all) at one\n"
	    "rate (every N steps, HZ of simulated or wall\n"
	    "time; default --wall-hz 30) and, with\n"
	    "--events (implied without FIELDs), every\n"
	    "event: one JSON object per line, until N\n"
	    "events, S seconds, SIGINT/SIGTERM or the\n"
	    "reader closing stdout",
	    G_CLIENTS, 0, -1, .fn = cmd_subscribe },

	{ "arrays", "",
	    "list the mjModel and mjData arrays: name,\n"
	    "owner, type, rows x cols, writable",
	    G_ARRAYS, 0, 0, .fn = cmd_arrays },
	{ "get", "ARRAY", "print an array, one row per line (rows x cols)",
	    G_ARRAYS, 1, 1, .fn = cmd_get },
	{ "set", "ARRAY [--offset K] V...",
	    "write the values into an array from element K\n"
	    "(row-major; default 0); the server refuses\n"
	    "arrays that are not writable, saying why",
	    G_ARRAYS, 2, -1, .fn = cmd_set },

	{ "load",
	    "[--legacy] FILE | --inline LOCALFILE [--format F] [--name NAME]",
	    "load FILE from the server's model directories\n"
	    "(--legacy: translate a MuJoCo HAPTIX 1.x model),\n"
	    "or send LOCALFILE; F is mjcf, urdf, mjb or\n"
	    "auto (default: from the suffix .xml, .urdf or\n"
	    ".mjb, else auto)",
	    G_MODEL, 1, -1, .fn = cmd_load },
	{ "reload", "", "reload the current model from its file", G_MODEL, 0, 0,
	    .fn = cmd_reload },
	{ "help", "[COMMAND]", "show this help, or one command's", G_MODEL, 0,
	    1, .fn = cmd_help },
};

/*-------------------------------------------------------------- JSON */

/* Write the comma that goes before a value, unless a key precedes it. */
static void
js_sep(void)
{
	if (js.keyed) {
		js.keyed = 0;
		return;
	}
	if (js.count[js.depth]++ > 0)
		putchar(',');
}

/* Open an object ('{') or an array ('['). */
static void
js_open(int ch)
{
	js_sep();
	putchar(ch);
	js.depth++;
	js.count[js.depth] = 0;
}

/*
 * Close an object or array; the outermost one ends the line, and the
 * next starts a line of its own (subscribe writes JSON Lines).
 */
static void
js_close(int ch)
{
	putchar(ch);
	js.depth--;
	if (js.depth == 0) {
		putchar('\n');
		js.count[0] = 0;
	}
}

/* Write s as a JSON string. */
static void
js_quote(const char *s)
{
	static const char plain[] = "\"\\\n\r\t", escaped[] = "\"\\nrt";
	const unsigned char *p;
	const char *e;

	putchar('"');
	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if ((e = strchr(plain, *p)) != NULL)
			printf("\\%c", escaped[e - plain]);
		else if (*p < 0x20)
			printf("\\u%04x", *p);
		else
			putchar(*p);
	}
	putchar('"');
}

/* Write an object key; its value follows. */
static void
js_key(const char *k)
{
	js_sep();
	js_quote(k);
	putchar(':');
	js.keyed = 1;
}

/* Write a number that reads back exactly, or null if it is not finite. */
static void
js_num(double v)
{
	js_sep();
	if (isfinite(v))
		printf("%.17g", v);
	else
		fputs("null", stdout);
}

/* Write an integer. */
static void
js_int(long long v)
{
	js_sep();
	printf("%lld", v);
}

/* Write an array of n numbers. */
static void
js_nums(const double *v, int n)
{
	int i;

	js_open('[');
	for (i = 0; i < n; i++)
		js_num(v[i]);
	js_close(']');
}

/* Write an array of n integers. */
static void
js_ints(const int *v, int n)
{
	int i;

	js_open('[');
	for (i = 0; i < n; i++)
		js_int(v[i]);
	js_close(']');
}

/* Write a key and a number. */
static void
js_kn(const char *k, double v)
{
	js_key(k);
	js_num(v);
}

/* Write a key and an integer. */
static void
js_ki(const char *k, long long v)
{
	js_key(k);
	js_int(v);
}

/* Write a key and an unsigned counter. */
static void
js_ku(const char *k, unsigned long long v)
{
	js_key(k);
	js_sep();
	printf("%llu", v);
}

/* Write a key and a string. */
static void
js_ks(const char *k, const char *v)
{
	js_key(k);
	js_sep();
	js_quote(v);
}

/* Write a key and true or false. */
static void
js_kb(const char *k, int v)
{
	js_key(k);
	js_sep();
	fputs(v ? "true" : "false", stdout);
}

/* Write a key and an array of n numbers. */
static void
js_kv(const char *k, const double *v, int n)
{
	js_key(k);
	js_nums(v, n);
}

/* Write null. */
static void
js_null(void)
{
	js_sep();
	fputs("null", stdout);
}

/* Write a key and null. */
static void
js_knull(const char *k)
{
	js_key(k);
	js_null();
}

/* Write the answer of a command that only changes something. */
static void
js_ok(void)
{
	js_open('{');
	js_kb("ok", 1);
	js_close('}');
}

/* Write a model summary as an object. */
static void
js_model(const hxd_model *m)
{
	size_t i;

	js_open('{');
	js_ks("name", m->name);
	js_ks("path", m->path);
	for (i = 0; i < NELEM(model_sizes); i++)
		js_ki(model_sizes[i].name, MEMBER(int, m, model_sizes[i].off));
	js_kn("timestep", m->timestep);
	js_kn("apirate", m->apirate);
	js_close('}');
}

/*----------------------------------------------------------- parsing */

/* Parse all of s as a finite number; 0, or -1 if it is not one. */
static int
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
static int
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
static int
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
static const char *
split_assign(const char *arg, char *name, size_t len)
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

/*--------------------------------------------------------- reporting */

/* Report a mistake before the command's arguments; returns CTL_USAGE. */
static int
ctl_global_error(const char *fmt, ...)
{
	va_list ap;

	fputs("hxctl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'hxctl --help'.\n", stderr);
	return CTL_USAGE;
}

/* Report a mistake in the command's arguments; returns CTL_USAGE. */
static int
ctl_usage_error(struct ctl *ctl, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "hxctl: %s: ", ctl->cmd->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nusage: hxctl [options] %s%s%s (see hxctl --help)\n",
	    ctl->cmd->name, ctl->cmd->args[0] != '\0' ? " " : "",
	    ctl->cmd->args);
	return CTL_USAGE;
}

/*
 * Report a failure found here, in the server's terms, on one line: a
 * multi-line text (MuJoCo's XML errors) has its line breaks turned into
 * "; ".  Returns CTL_FAIL.
 */
static int
ctl_error(struct ctl *ctl, int result, const char *fmt, ...)
{
	char text[4096];
	const char *p;
	va_list ap;
	int brk = 0;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	fprintf(
	    stderr, "hxctl: %s: %s: ", ctl->cmd->name, hxd_result_name(result));
	for (p = text; *p != '\0'; p++) {
		if (*p == '\n' || *p == '\r') {
			brk = 1;
			continue;
		}
		if (brk && *p == ' ')
			continue;
		if (brk)
			fputs("; ", stderr);
		brk = 0;
		fputc((unsigned char)*p < 0x20 ? ' ' : *p, stderr);
	}
	fputc('\n', stderr);
	return CTL_FAIL;
}

/* Report the failure of the last call on the connection. */
static int
ctl_fail(struct ctl *ctl)
{
	int r = hxd_result(ctl->conn);
	const char *e = hxd_error(ctl->conn);

	return ctl_error(ctl, r, "%s", e[0] != '\0' ? e : hxd_result_text(r));
}

/* End a command that changes something: report a failed call, or say ok. */
static int
ctl_done(struct ctl *ctl, int result)
{
	if (result != HXD_OK)
		return ctl_fail(ctl);
	if (ctl->json)
		js_ok();
	return CTL_OK;
}

/*-------------------------------------------------------- connection */

/* Connect unless connected; 0, or CTL_FAIL after reporting why not. */
static int
ctl_connect(struct ctl *ctl)
{
	if (ctl->conn != NULL)
		return CTL_OK;
	ctl->conn = hxd_connect_timeout(ctl->server, "hxctl",
	    ctl->timeout_ms >= 0 ? ctl->timeout_ms : HXD_DEFAULT_TIMEOUT_MS);
	if (ctl->conn == NULL)
		return ctl_error(ctl, HXD_NOCONNECTION, "out of memory");
	if (hxd_result(ctl->conn) != HXD_OK)
		return ctl_fail(ctl);
	return CTL_OK;
}

/* Fetch the model's description unless fetched; 0 or CTL_FAIL. */
static int
ctl_get_info(struct ctl *ctl)
{
	int rc;

	if (ctl->info != NULL)
		return CTL_OK;
	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_info_get(ctl->conn, &ctl->info) != HXD_OK)
		return ctl_fail(ctl);
	return CTL_OK;
}

/*
 * Resolve arg, an object's id (a whole number) or its name, to an id.
 * Returns 0, or CTL_FAIL after reporting an unknown name.
 */
static int
ctl_object(struct ctl *ctl, int type, const char *arg, int *id)
{
	long v;

	if (parse_long(arg, INT_MIN, INT_MAX, &v) != 0)
		return ctl_name2id(ctl, type, arg, id);
	*id = (int)v;
	return CTL_OK;
}

/* Ask the server for the id of a name; 0, or CTL_FAIL if it has none. */
static int
ctl_name2id(struct ctl *ctl, int type, const char *name, int *id)
{
	int rc;

	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_name2id(ctl->conn, type, name, id) != HXD_OK)
		return ctl_fail(ctl);
	if (*id < 0)
		return ctl_error(ctl, HXD_BADINDEX, "no %s named \"%s\"",
		    hxd_obj_name(type), name);
	return CTL_OK;
}

/* Check that id is one of the n objects of type ("the model has what = n"). */
static int
ctl_id_check(struct ctl *ctl, int type, int id, int n, const char *what)
{
	if (id >= 0 && id < n)
		return CTL_OK;
	return ctl_error(ctl, HXD_BADINDEX,
	    "%s id %d is out of range (the model has %s = %d)",
	    hxd_obj_name(type), id, what, n);
}

/* Parse an object type, by name or number; 0 or CTL_USAGE. */
static int
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
		    "tendon, actuator, sensor, equality, key, material, ...)",
		    arg);
	return CTL_OK;
}

/*--------------------------------------------------------- arguments */

/* Parse n arguments as finite numbers into out; 0 or CTL_USAGE. */
static int
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
static int
ctl_which(struct ctl *ctl, const char *what)
{
	if (ctl->npos == 0)
		return ctl_usage_error(ctl, "which %s?", what);
	if (ctl->npos > 1)
		return ctl_usage_error(ctl, "one %s at a time", what);
	return CTL_OK;
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
static int
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
			return ctl_usage_error(ctl, "unknown option %s", a);
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
static int
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
static int
ctl_assign_options(struct ctl *ctl, struct ctl_opt *opts, int nopts, int want,
    const char *form)
{
	char name[CTL_NAME_MAX];
	const char *v;
	int i, count, rc;

	if ((rc = ctl_options(ctl, opts, nopts)) != 0)
		return rc;
	for (i = 0; i < ctl->npos; i++) {
		v = split_assign(ctl->pos[i], name, sizeof(name));
		if (v == NULL)
			return ctl_usage_error(
			    ctl, "'%s' is not %s", ctl->pos[i], form);
		if ((rc = ctl_check_list(ctl, name, v, want, &count)) != 0)
			return rc;
	}
	return CTL_OK;
}

/*---------------------------------------------------------- controls */

/*
 * Check n control arguments: all numbers, or all NAME=V.  Sets *named.
 * Returns 0 or CTL_USAGE.
 */
static int
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
		v = split_assign(args[i], name, sizeof(name));
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
static int
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
		v = split_assign(args[i], name, sizeof(name));
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
static int
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

/*
 * Parse s, the value of option what, as seconds from 0 to 1e9 into
 * *out; 0 or CTL_USAGE.
 */
static int
ctl_seconds(struct ctl *ctl, const char *what, const char *s, double *out)
{
	if (parse_double(s, out) != 0 || *out < 0 || *out > 1e9)
		return ctl_usage_error(ctl,
		    "%s: '%s' is not a number of seconds (0 to 1e9)", what, s);
	return CTL_OK;
}

/*
 * Add the stream fields named in s (comma-separated; "all" for every
 * one) to *set; what names the argument.  Returns 0 or CTL_USAGE.
 */
static int
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
			    "%s: '%.*s' is not a field (%sor all)", what,
			    (int)len, p, names);
		}
		if (comma == NULL)
			return CTL_OK;
		p = comma + 1;
	}
}

/*------------------------------------------------------------ waiting */

/* Seconds on the monotonic clock. */
static double
ctl_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Note that a signal asked hxctl to stop; the waits look. */
static void
ctl_on_signal(int sig)
{
	(void)sig;
	ctl_stopped = 1;
}

/*
 * Catch SIGINT and SIGTERM so that a wait ends cleanly, and ignore
 * SIGPIPE so that a closed stdout is an error to write, not death.
 */
static void
ctl_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = ctl_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
}

/* Wait hold seconds (0: for ever), or until a caught signal. */
static void
ctl_hold(double hold)
{
	double end = ctl_now() + hold, left;
	struct timespec ts;

	while (!ctl_stopped) {
		left = hold == 0 ? 1.0 : end - ctl_now();
		if (left <= 0)
			return;
		if (left > CTL_POLL_MS / 1e3)
			left = CTL_POLL_MS / 1e3;
		ts.tv_sec = 0;
		ts.tv_nsec = (long)(left * 1e9);
		nanosleep(&ts, NULL);
	}
}

/* Return 1 if stdout is a pipe or terminal whose reader has gone. */
static int
ctl_reader_gone(void)
{
	struct pollfd pfd = { .fd = STDOUT_FILENO, .events = 0 };

	return poll(&pfd, 1, 0) == 1 &&
	    (pfd.revents & (POLLERR | POLLHUP)) != 0;
}

/*------------------------------------------------------------ labels */

/* The name of enumeration value v in names[], or "unknown". */
static const char *
enum_name(const char *const *names, size_t n, int v)
{
	if (v < 0 || (size_t)v >= n)
		return "unknown";
	return names[v];
}

/* The name of a joint type. */
static const char *
joint_type_name(int type)
{
	return enum_name(joint_types, NELEM(joint_types), type);
}

/* The name of an actuator transmission type. */
static const char *
trn_type_name(int type)
{
	if (type == 1000)
		return "undefined";
	return enum_name(trn_types, NELEM(trn_types), type);
}

/* The number of qpos (dof = 0) or qvel (dof = 1) values of a joint type. */
static int
joint_width(int type, int dof)
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

/* The names info has for objects of type, and their count; NULL if none. */
static const char *const *
info_names(const hxd_info *in, int type, int *n)
{
	size_t i;

	if (type == HXD_OBJ_XBODY)
		type = HXD_OBJ_BODY;
	for (i = 0; i < NELEM(info_kinds); i++) {
		if (info_kinds[i].type != type)
			continue;
		*n = MEMBER(int, &in->model, info_kinds[i].count);
		return MEMBER(const char **, in, info_kinds[i].names);
	}
	*n = 0;
	return NULL;
}

/* An object's name, "#ID" if it has none (buf holds it), or "-" for -1. */
static const char *
obj_label(const hxd_info *in, int type, int id, char *buf, size_t len)
{
	const char *const *names = NULL;
	int n = 0;

	if (id < 0)
		return "-";
	if (in != NULL)
		names = info_names(in, type, &n);
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
		w = joint_width(in->jnt_type[j], 1);
		if (i < adr || i >= adr + w)
			continue;
		name = obj_label(in, HXD_OBJ_JOINT, j, nb, sizeof(nb));
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
static const char *
row_label(const hxd_info *in, int type, int i, char *buf, size_t len)
{
	if (type == CTL_DOF)
		return dof_label(in, i, buf, len);
	return obj_label(in, type, i, buf, len);
}

/* The width of the widest label of count rows of type (or dofs). */
static int
label_width(const hxd_info *in, int type, int count)
{
	char buf[CTL_LABEL_MAX];
	int i, w = 4, n;

	for (i = 0; i < count; i++) {
		n = (int)strlen(row_label(in, type, i, buf, sizeof(buf)));
		if (n > w)
			w = n;
	}
	return w;
}

/* Print n numbers in readable columns. */
static void
put_nums(const double *v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		printf(NUM, v[i]);
}

/* Print a row: an id, a label in a column width w wide, n numbers. */
static void
put_row(int id, int w, const char *label, const double *v, int n)
{
	printf("%4d  %-*s", id, w, label);
	put_nums(v, n);
	putchar('\n');
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
			put_row(j, 4, "", v + j, 1);
		return;
	}
	width = label_width(in, HXD_OBJ_JOINT, njnt);
	for (j = 0; j < njnt; j++) {
		adr = dof ? in->jnt_dofadr[j] : in->jnt_qposadr[j];
		w = joint_width(in->jnt_type[j], dof);
		if (adr < 0 || adr + w > n)
			continue;
		label = obj_label(in, HXD_OBJ_JOINT, j, buf, sizeof(buf));
		printf("%4d  %-*s  %-5s", j, width, label,
		    joint_type_name(in->jnt_type[j]));
		put_nums(v + adr, w);
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
	width = label_width(in, HXD_OBJ_ACTUATOR, first + n);
	for (i = 0; i < n; i++)
		put_row(first + i, width,
		    obj_label(
			in, HXD_OBJ_ACTUATOR, first + i, buf, sizeof(buf)),
		    v + i, 1);
}

/*------------------------------------------------------------ models */

/* Print the sizes and timing of a model, after a heading for its name. */
static void
model_print(const char *heading, const hxd_model *m)
{
	size_t i;

	printf(
	    "%-10s %s\n", heading, m->name[0] != '\0' ? m->name : "(unnamed)");
	printf("%-10s %s\n", "path",
	    m->path[0] != '\0' ? m->path : "(sent inline)");
	printf("%-10s %g s, API rate %g Hz\n", "timestep", m->timestep,
	    m->apirate);
	printf("%-10s", "sizes");
	for (i = 0; i < NELEM(model_sizes); i++)
		printf("%s %s %d",
		    i == 0                     ? "" :
			i == MODEL_SIZES_BREAK ? ",\n          " :
						 ",",
		    model_sizes[i].name, MEMBER(int, m, model_sizes[i].off));
	putchar('\n');
}

/* Show a model just loaded, after a heading ("loaded"). */
static void
model_show(struct ctl *ctl, const char *heading, const hxd_model *m)
{
	if (!ctl->json) {
		model_print(heading, m);
		return;
	}
	js_open('{');
	js_key("model");
	js_model(m);
	js_close('}');
}

/*-------------------------------------------------------------- info */

/* Write the model's description as one JSON object. */
static void
info_json(const hxd_info *in)
{
	const struct info_kind *k;
	const char *const *names;
	int i, n;

	js_open('{');
	js_key("model");
	js_model(&in->model);
	for (k = info_kinds; k < info_kinds + NELEM(info_kinds); k++) {
		names = info_names(in, k->type, &n);
		js_key(k->title);
		js_open('[');
		for (i = 0; i < n; i++) {
			js_open('{');
			js_ks("name", names[i]);
			if (k->json != NULL)
				k->json(in, i);
			js_close('}');
		}
		js_close(']');
	}
	js_close('}');
}

/* Print the model's description as tables, one per kind of object. */
static void
info_print(const hxd_info *in)
{
	const struct info_kind *k;
	char buf[CTL_LABEL_MAX];
	int i, n, w;

	model_print("model", &in->model);
	for (k = info_kinds; k < info_kinds + NELEM(info_kinds); k++) {
		info_names(in, k->type, &n);
		if (n <= 0)
			continue;
		w = label_width(in, k->type, n);
		printf("\n%s\n%4s  ", k->title, "id");
		if (k->text == NULL)
			printf("%s\n", "name");
		else {
			printf("%-*s", w, "name");
			k->text(in, -1, w);
		}
		for (i = 0; i < n; i++) {
			printf("%4d  ", i);
			if (k->text == NULL)
				printf("%s\n",
				    obj_label(
					in, k->type, i, buf, sizeof(buf)));
			else {
				printf("%-*s", w,
				    obj_label(
					in, k->type, i, buf, sizeof(buf)));
				k->text(in, i, w);
			}
		}
	}
}

/* Body i's parent and mocap id. */
static void
info_body_json(const hxd_info *in, int i)
{
	js_ki("parent", in->body_parentid[i]);
	js_ki("mocapid", in->body_mocapid[i]);
}

/* Body i's parent and whether it is a mocap body, or their headings. */
static void
info_body_text(const hxd_info *in, int i, int w)
{
	char b[CTL_LABEL_MAX];

	if (i < 0)
		printf("  %-*s  %s\n", w, "parent", "mocap");
	else
		printf("  %-*s  %s\n", w,
		    i == 0 ? "-" :
			     obj_label(in, HXD_OBJ_BODY, in->body_parentid[i],
				 b, sizeof(b)),
		    in->body_mocapid[i] >= 0 ? "yes" : "-");
}

/* Joint i's type, addresses, body and range. */
static void
info_joint_json(const hxd_info *in, int i)
{
	js_ks("type", joint_type_name(in->jnt_type[i]));
	js_ki("body", in->jnt_bodyid[i]);
	js_ki("qposadr", in->jnt_qposadr[i]);
	js_ki("dofadr", in->jnt_dofadr[i]);
	js_kb("limited", in->jnt_limited[i]);
	js_kv("range", in->jnt_range + 2 * i, 2);
}

/* Joint i's type, addresses, body and range, or their headings. */
static void
info_joint_text(const hxd_info *in, int i, int w)
{
	char b[CTL_LABEL_MAX];

	if (i < 0) {
		printf("  %-5s  %4s  %4s  %-12s %s\n", "type", "qpos", "dof",
		    "body", "range");
		return;
	}
	printf("  %-5s  %4d  %4d  %-12s", joint_type_name(in->jnt_type[i]),
	    in->jnt_qposadr[i], in->jnt_dofadr[i],
	    obj_label(in, HXD_OBJ_BODY, in->jnt_bodyid[i], b, sizeof(b)));
	if (in->jnt_limited[i])
		printf(" [%g, %g]\n", in->jnt_range[2 * i],
		    in->jnt_range[2 * i + 1]);
	else
		printf(" -\n");
}

/* Geom i's type and body. */
static void
info_geom_json(const hxd_info *in, int i)
{
	js_ks(
	    "type", enum_name(geom_types, NELEM(geom_types), in->geom_type[i]));
	js_ki("body", in->geom_bodyid[i]);
}

/* Geom i's type and body, or their headings. */
static void
info_geom_text(const hxd_info *in, int i, int w)
{
	char b[CTL_LABEL_MAX];

	if (i < 0)
		printf("  %-9s  %s\n", "type", "body");
	else
		printf("  %-9s  %s\n",
		    enum_name(geom_types, NELEM(geom_types), in->geom_type[i]),
		    obj_label(
			in, HXD_OBJ_BODY, in->geom_bodyid[i], b, sizeof(b)));
}

/* Actuator i's transmission and control range. */
static void
info_actuator_json(const hxd_info *in, int i)
{
	js_ks("trntype", trn_type_name(in->actuator_trntype[i]));
	js_key("trnid");
	js_ints(in->actuator_trnid + 2 * i, 2);
	js_kb("ctrllimited", in->actuator_ctrllimited[i]);
	js_kv("ctrlrange", in->actuator_ctrlrange + 2 * i, 2);
}

/* Actuator i's control range and transmission, or their headings. */
static void
info_actuator_text(const hxd_info *in, int i, int w)
{
	char b[CTL_LABEL_MAX], range[32];
	int t;

	if (i < 0) {
		printf("  %-18s  %s\n", "ctrlrange", "transmission");
		return;
	}
	t = in->actuator_trntype[i];
	if (in->actuator_ctrllimited[i])
		snprintf(range, sizeof(range), "[%g, %g]",
		    in->actuator_ctrlrange[2 * i],
		    in->actuator_ctrlrange[2 * i + 1]);
	else
		snprintf(range, sizeof(range), "-");
	printf("  %-18s  %s %s\n", range, trn_type_name(t),
	    obj_label(in,
		t == 3     ? HXD_OBJ_TENDON :
		    t == 4 ? HXD_OBJ_SITE :
		    t == 5 ? HXD_OBJ_BODY :
			     HXD_OBJ_JOINT,
		in->actuator_trnid[2 * i], b, sizeof(b)));
}

/* Sensor i's type, object, size, address and noise. */
static void
info_sensor_json(const hxd_info *in, int i)
{
	int t = in->sensor_objtype[i];

	js_ks("type",
	    enum_name(sensor_types, NELEM(sensor_types), in->sensor_type[i]));
	js_ks("datatype",
	    enum_name(sensor_datatypes, NELEM(sensor_datatypes),
		in->sensor_datatype[i]));
	js_ks("objtype", t == HXD_OBJ_UNKNOWN ? "none" : hxd_obj_name(t));
	js_ki("objid", in->sensor_objid[i]);
	js_ki("dim", in->sensor_dim[i]);
	js_ki("adr", in->sensor_adr[i]);
	js_kn("noise", in->sensor_noise[i]);
}

/* Sensor i's type, size, address, object and noise, or their headings. */
static void
info_sensor_text(const hxd_info *in, int i, int w)
{
	char b[CTL_LABEL_MAX];
	int t;

	if (i < 0) {
		printf(
		    "  %-14s  %3s  %4s  %s\n", "type", "dim", "adr", "object");
		return;
	}
	t = in->sensor_objtype[i];
	printf("  %-14s  %3d  %4d  ",
	    enum_name(sensor_types, NELEM(sensor_types), in->sensor_type[i]),
	    in->sensor_dim[i], in->sensor_adr[i]);
	if (t == HXD_OBJ_UNKNOWN)
		printf("-");
	else
		printf("%s %s", hxd_obj_name(t),
		    obj_label(in, t, in->sensor_objid[i], b, sizeof(b)));
	if (in->sensor_noise[i] != 0)
		printf(", noise %g", in->sensor_noise[i]);
	putchar('\n');
}

/* Equality i's type and objects. */
static void
info_eq_json(const hxd_info *in, int i)
{
	js_ks("type", enum_name(eq_types, NELEM(eq_types), in->eq_type[i]));
	js_ki("obj1id", in->eq_obj1id[i]);
	js_ki("obj2id", in->eq_obj2id[i]);
}

/* Equality i's type and the objects it binds, or their headings. */
static void
info_eq_text(const hxd_info *in, int i, int w)
{
	char b1[CTL_LABEL_MAX], b2[CTL_LABEL_MAX];
	int t;

	if (i < 0) {
		printf("  %-8s  %s\n", "type", "objects");
		return;
	}
	t = in->eq_type[i];
	t = t == 2 ? HXD_OBJ_JOINT :
	    t == 3 ? HXD_OBJ_TENDON :
	    t == 4 ? HXD_OBJ_GEOM :
		     HXD_OBJ_BODY;
	printf("  %-8s  %s %s, %s\n",
	    enum_name(eq_types, NELEM(eq_types), in->eq_type[i]),
	    hxd_obj_name(t), obj_label(in, t, in->eq_obj1id[i], b1, sizeof(b1)),
	    obj_label(in, t, in->eq_obj2id[i], b2, sizeof(b2)));
}

/* Show the model's sizes and named objects. */
static int
cmd_info(struct ctl *ctl)
{
	int rc;

	if ((rc = ctl_get_info(ctl)) != 0)
		return rc;
	if (ctl->json)
		info_json(ctl->info);
	else
		info_print(ctl->info);
	return CTL_OK;
}

/*--------------------------------------------------------- get views */

/* Fetch the answer of the command's view and show it. */
static int
cmd_show(struct ctl *ctl)
{
	const struct ctl_view *v = ctl->cmd->view;
	void *data;
	int rc;

	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (v->get(ctl->conn, &data) != HXD_OK)
		return ctl_fail(ctl);
	if (ctl->json || (rc = ctl_get_info(ctl)) == 0)
		view_show(ctl, v, data);
	free(data);
	return rc;
}

/* Show an answer as JSON or, with the model's description, as a table. */
static void
view_show(struct ctl *ctl, const struct ctl_view *v, const void *data)
{
	if (ctl->json)
		view_json(v, data);
	else
		view_print(v, ctl->info, data);
}

/* Write an answer as one JSON object, member by member. */
static void
view_json(const struct ctl_view *v, const void *data)
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
	w = label_width(in, v->rows, n);
	printf("%4s  %-*s", v->rows == CTL_DOF ? "dof" : "id", w,
	    v->rows == CTL_DOF ? "joint" : "name");
	for (f = v->fields; f->key != NULL; f++) {
		if (f->show == SHOW_COL)
			printf(HDR, f->key);
	}
	putchar('\n');
	for (i = 0; i < n; i++) {
		printf("%4d  %-*s", i, w,
		    row_label(in, v->rows, i, buf, sizeof(buf)));
		for (f = v->fields; f->key != NULL; f++) {
			if (f->show != SHOW_COL)
				continue;
			a = MEMBER(double *, data, f->off);
			printf("%*s" NUM, f->pad, "", a[i]);
		}
		putchar('\n');
	}
}

/* Print the controls by actuator, with their ranges. */
static void
ctrl_print(const struct ctl_view *v, const hxd_info *in, const void *data)
{
	const hxd_control *c = data;
	char buf[CTL_LABEL_MAX];
	int i, w;

	w = label_width(in, HXD_OBJ_ACTUATOR, c->nu);
	printf("%4s  %-*s" HDR "  %s\n", "id", w, "name", "ctrl", "ctrlrange");
	for (i = 0; i < c->nu; i++) {
		printf("%4d  %-*s" NUM, i, w,
		    obj_label(in, HXD_OBJ_ACTUATOR, i, buf, sizeof(buf)),
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

	w = label_width(in, HXD_OBJ_BODY, a->nbody);
	printf("xfrc_applied\n%4s  %-*s" HDR HDR HDR HDR HDR HDR "\n", "id", w,
	    "body", "fx", "fy", "fz", "tx", "ty", "tz");
	for (i = 0; i < a->nbody; i++)
		put_row(i, w, obj_label(in, HXD_OBJ_BODY, i, buf, sizeof(buf)),
		    a->xfrc_applied + 6 * i, 6);
}

/* Print each mocap body's body, position and quaternion. */
static void
mocap_print(const struct ctl_view *v, const hxd_info *in, const void *data)
{
	const hxd_mocap *mc = data;
	char buf[CTL_LABEL_MAX];
	int i, b, w;

	w = label_width(in, HXD_OBJ_BODY, in->model.nbody);
	printf("%4s  %4s  %-*s %-38s %s\n", "id", "body", w, "name", "pos",
	    "quat");
	for (i = 0; i < mc->nmocap; i++) {
		for (b = 0; b < in->model.nbody; b++) {
			if (in->body_mocapid[b] == i)
				break;
		}
		printf("%4d  %4d  %-*s", i, b, w,
		    obj_label(in, HXD_OBJ_BODY, b, buf, sizeof(buf)));
		put_nums(mc->pos + 3 * i, 3);
		put_nums(mc->quat + 4 * i, 4);
		putchar('\n');
	}
}

/* Print sensor data, by sensor when the description fits it. */
static void
sensor_print(const struct ctl_view *v, const hxd_info *in, const void *data)
{
	const hxd_sensor *s = data;
	char buf[CTL_LABEL_MAX];
	int i, w, adr, dim;

	if (in->model.nsensordata != s->nsensordata) {
		for (i = 0; i < s->nsensordata; i++)
			put_row(i, 4, "", s->sensordata + i, 1);
		return;
	}
	w = label_width(in, HXD_OBJ_SENSOR, in->model.nsensor);
	for (i = 0; i < in->model.nsensor; i++) {
		adr = in->sensor_adr[i];
		dim = in->sensor_dim[i];
		if (adr < 0 || dim < 0 || adr + dim > s->nsensordata)
			continue;
		printf("%4d  %-*s  %-14s", i, w,
		    obj_label(in, HXD_OBJ_SENSOR, i, buf, sizeof(buf)),
		    enum_name(
			sensor_types, NELEM(sensor_types), in->sensor_type[i]));
		put_nums(s->sensordata + adr, dim);
		putchar('\n');
	}
}

/* Print each frame, one of the view's objects per row. */
static void
poses_print(const struct ctl_view *v, const hxd_info *in, const void *data)
{
	const hxd_poses *p = data;
	char buf[CTL_LABEL_MAX];
	int i, k, w;

	w = label_width(in, v->rows, p->count);
	printf("%4s  %-*s %-38s   %s\n", "id", w, "name", "pos",
	    "mat (row-major)");
	for (i = 0; i < p->count; i++) {
		printf("%4d  %-*s", i, w,
		    obj_label(in, v->rows, i, buf, sizeof(buf)));
		put_nums(p->pos + 3 * i, 3);
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
	w = label_width(in, HXD_OBJ_GEOM, in->model.ngeom);
	if (k->ncon > 0)
		printf("%4s  %-*s  %-*s" HDR " %-39s %-39s %s\n", "id", w,
		    "geom1", w, "geom2", "dist", "pos",
		    "force (normal, tangent)", "normal");
	for (i = 0; i < k->ncon; i++) {
		printf("%4d  %-*s  %-*s", i, w,
		    obj_label(in, HXD_OBJ_GEOM, k->geom1[i], b1, sizeof(b1)), w,
		    obj_label(in, HXD_OBJ_GEOM, k->geom2[i], b2, sizeof(b2)));
		put_nums(k->dist + i, 1);
		printf(" ");
		put_nums(k->pos + 3 * i, 3);
		printf(" ");
		put_nums(k->force + 3 * i, 3);
		printf(" ");
		put_nums(k->frame + 9 * i, 3);
		putchar('\n');
	}
}

/*------------------------------------------------------------ status */

/* Show what HAPTIX's info box showed, and the daemon's counters. */
static int
cmd_status(struct ctl *ctl)
{
	hxd_status st;
	int rc;

	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_status_get(ctl->conn, &st) != HXD_OK)
		return ctl_fail(ctl);
	if (ctl->json)
		status_json(&st);
	else
		status_print(&st);
	return CTL_OK;
}

/* Write the status as one JSON object. */
static void
status_json(const hxd_status *st)
{
	js_open('{');
	js_key("model");
	js_model(&st->model);
	js_kb("loaded", st->model.nbody > 0);
	js_kn("time", st->time);
	js_ku("steps", st->steps);
	js_kb("paused", st->paused);
	js_kn("speed", st->speed);
	js_kb("speed_max", st->speed_max);
	js_kn("realtime_factor", st->realtime_factor);
	js_kn("cpu_per_step", st->cpu_per_step);
	js_ki("nefc", st->nefc);
	js_ki("ncon", st->ncon);
	js_kn("energy_potential", st->energy_potential);
	js_kn("energy_kinetic", st->energy_kinetic);
	js_ku("instability_resets", st->instability_resets);
	js_ku("sim_errors", st->sim_errors);
	js_ku("overruns", st->overruns);
	js_ki("clients", st->clients);
	js_ks("message", st->message);
	js_kn("uptime", st->uptime);
	js_kb("lagging", st->lagging);
	js_ku("lease_holder", st->lease_holder);
	js_ks("lease_holder_name", st->lease_holder_name);
	js_ku("batch_session", st->batch_session);
	js_close('}');
}

/* Print the status, a quantity per line. */
static void
status_print(const hxd_status *st)
{
	if (st->model.nbody > 0)
		printf("%-12s %s%s%s%s\n", "model", st->model.name,
		    st->model.path[0] != '\0' ? " (" : "", st->model.path,
		    st->model.path[0] != '\0' ? ")" : "");
	else
		printf("%-12s %s\n", "model", "none loaded");
	printf("%-12s %s\n", "simulation", st->paused ? "paused" : "running");
	if (st->speed_max)
		printf("%-12s max\n", "speed");
	else
		printf("%-12s %gx\n", "speed", st->speed);
	printf("%-12s %.10g s, %llu steps\n", "time", st->time, st->steps);
	printf("%-12s %.3gx%s\n", "real time", st->realtime_factor,
	    st->lagging ? ", lagging: the CPU cannot keep up" : "");
	printf("%-12s %.3g ms\n", "CPU/step", st->cpu_per_step * 1e3);
	printf("%-12s %d, of which %d contacts\n", "constraints", st->nefc,
	    st->ncon);
	printf("%-12s potential %.6g, kinetic %.6g\n", "energy",
	    st->energy_potential, st->energy_kinetic);
	printf("%-12s %llu instability, %llu MuJoCo errors\n", "resets",
	    st->instability_resets, st->sim_errors);
	printf("%-12s %llu\n", "overruns", st->overruns);
	printf("%-12s %d\n", "clients", st->clients);
	printf("%-12s %s\n", "message",
	    st->message[0] != '\0' ? st->message : "(none)");
	printf("%-12s %.1f s\n", "uptime", st->uptime);
	if (st->lease_holder != 0)
		printf("%-12s client %llu (%s) holds it\n", "lease",
		    st->lease_holder, st->lease_holder_name);
	else
		printf("%-12s %s\n", "lease", "free");
	if (st->batch_session != 0)
		printf("%-12s client %llu is running one\n", "batch",
		    st->batch_session);
	else
		printf("%-12s %s\n", "batch", "none");
}

/*----------------------------------------------------------- writing */

/* Make the call of the command's row; it prints nothing. */
static int
cmd_call(struct ctl *ctl)
{
	int rc;

	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	return ctl_done(ctl, ctl->cmd->call(ctl->conn));
}

/* Set the state; what the command line does not give keeps its value. */
static int
cmd_set_state(struct ctl *ctl)
{
	struct ctl_opt opts[] = {
		{ "--qpos", OPT_LIST, 0, NULL, 0, 0 },
		{ "--qvel", OPT_LIST, 0, NULL, 0, 0 },
		{ "--act", OPT_LIST, 0, NULL, 0, 0 },
	};
	hxd_state *st;
	int rc;

	if ((rc = ctl_assign_options(
		 ctl, opts, NELEM(opts), 0, "JOINT=LIST")) != 0 ||
	    (rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_get_state(ctl->conn, &st) != HXD_OK)
		return ctl_fail(ctl);
	if ((rc = ctl_fill(ctl, &opts[0], "nq", st->qpos, st->nq)) == 0 &&
	    (rc = ctl_fill(ctl, &opts[1], "nv", st->qvel, st->nv)) == 0 &&
	    (rc = ctl_fill(ctl, &opts[2], "na", st->act, st->na)) == 0 &&
	    (rc = state_joints(ctl, st)) == 0)
		rc = ctl_done(ctl, hxd_set_state(ctl->conn, st));
	free(st);
	return rc;
}

/* Write the JOINT=LIST arguments into qpos; 0 or CTL_FAIL. */
static int
state_joints(struct ctl *ctl, hxd_state *st)
{
	char name[CTL_NAME_MAX];
	const hxd_info *in;
	const char *v;
	int i, id, w, adr, n, rc;

	for (i = 0; i < ctl->npos; i++) {
		v = split_assign(ctl->pos[i], name, sizeof(name));
		if ((rc = ctl_object(ctl, HXD_OBJ_JOINT, name, &id)) != 0 ||
		    (rc = ctl_get_info(ctl)) != 0)
			return rc;
		in = ctl->info;
		if ((rc = ctl_id_check(
			 ctl, HXD_OBJ_JOINT, id, in->model.njnt, "njnt")) != 0)
			return rc;
		w = joint_width(in->jnt_type[id], 0);
		adr = in->jnt_qposadr[id];
		if ((n = parse_list(v, NULL, 0, NULL)) != w)
			return ctl_error(ctl, HXD_BADSIZE,
			    "joint %s (%s) has %d qpos value%s, not %d", name,
			    joint_type_name(in->jnt_type[id]), w,
			    w == 1 ? "" : "s", n);
		if (adr < 0 || adr + w > st->nq)
			return ctl_error(ctl, HXD_BADSIZE,
			    "the model changed while hxctl ran");
		parse_list(v, st->qpos + adr, w, NULL);
	}
	return CTL_OK;
}

/* Set all the controls, or the named ones. */
static int
cmd_set_ctrl(struct ctl *ctl)
{
	hxd_control *c;
	int named, rc;

	if ((rc = controls_check(ctl, ctl->argv, ctl->argc, &named)) != 0 ||
	    (rc = controls_build(ctl, ctl->argv, ctl->argc, named, &c)) != 0)
		return rc;
	rc = ctl_done(ctl, hxd_set_control(ctl->conn, c));
	free(c);
	return rc;
}

/* Set the applied forces; what is not given keeps its value. */
static int
cmd_set_applied(struct ctl *ctl)
{
	struct ctl_opt opts[] = {
		{ "--clear", OPT_FLAG, 0, NULL, 0, 0 },
		{ "--qfrc", OPT_LIST, 0, NULL, 0, 0 },
		{ "--xfrc", OPT_LIST, 0, NULL, 0, 0 },
	};
	hxd_applied *a;
	int rc;

	if ((rc = ctl_assign_options(
		 ctl, opts, NELEM(opts), 6, "BODY=FX,FY,FZ,TX,TY,TZ")) != 0 ||
	    (rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_get_applied(ctl->conn, &a) != HXD_OK)
		return ctl_fail(ctl);
	if (opts[0].given) {
		memset(a->qfrc_applied, 0, (size_t)a->nv * sizeof(double));
		memset(
		    a->xfrc_applied, 0, 6 * (size_t)a->nbody * sizeof(double));
	}
	if ((rc = ctl_fill(ctl, &opts[1], "nv", a->qfrc_applied, a->nv)) == 0 &&
	    (rc = ctl_fill(ctl, &opts[2], "6 x nbody", a->xfrc_applied,
		 6 * a->nbody)) == 0 &&
	    (rc = applied_bodies(ctl, a)) == 0)
		rc = ctl_done(ctl, hxd_set_applied(ctl->conn, a));
	free(a);
	return rc;
}

/* Write the BODY=LIST arguments into xfrc_applied; 0 or CTL_FAIL. */
static int
applied_bodies(struct ctl *ctl, hxd_applied *a)
{
	char name[CTL_NAME_MAX];
	const char *v;
	int i, id, rc;

	for (i = 0; i < ctl->npos; i++) {
		v = split_assign(ctl->pos[i], name, sizeof(name));
		if ((rc = ctl_object(ctl, HXD_OBJ_BODY, name, &id)) != 0 ||
		    (rc = ctl_id_check(
			 ctl, HXD_OBJ_BODY, id, a->nbody, "nbody")) != 0)
			return rc;
		parse_list(v, a->xfrc_applied + 6 * id, 6, NULL);
	}
	return CTL_OK;
}

/*---------------------------------------------------------- one body */

/* Show one body's pose, velocities, accelerations and forces. */
static int
cmd_body(struct ctl *ctl)
{
	const struct onebody_member *m;
	const double *v;
	hxd_onebody b;
	char name[256];
	size_t i;
	int id, rc;

	if ((rc = ctl_object(ctl, HXD_OBJ_BODY, ctl->argv[0], &id)) != 0 ||
	    (rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_get_onebody(ctl->conn, id, &b) != HXD_OK)
		return ctl_fail(ctl);
	if (ctl->json) {
		js_open('{');
		js_ki("body_id", b.body_id);
		js_kb("is_floating", b.is_floating);
		js_kn("time", b.time);
	} else {
		if (hxd_id2name(ctl->conn, HXD_OBJ_BODY, id, name,
			sizeof(name)) != HXD_OK)
			return ctl_fail(ctl);
		printf("%-12s %d %s (%s)\n", "body", b.body_id,
		    name[0] != '\0' ? name : "(unnamed)",
		    b.is_floating ? "floating" : "not floating");
		printf("%-12s %.10g\n", "time", b.time);
	}
	for (i = 0; i < NELEM(onebody_members); i++) {
		m = &onebody_members[i];
		v = &MEMBER(double, &b, m->off);
		if (ctl->json)
			js_kv(m->name, v, m->n);
		else {
			printf("%-12s", m->name);
			put_nums(v, m->n);
			putchar('\n');
		}
	}
	if (ctl->json)
		js_close('}');
	return CTL_OK;
}

/* Set quantities of one body, chosen by the options given. */
static int
cmd_set_body(struct ctl *ctl)
{
	struct ctl_opt opts[NELEM(onebody_members)];
	const struct onebody_member *m;
	hxd_onebody b;
	unsigned fields = 0;
	int id, rc;
	size_t i;

	/* No more can be right: a body, and six options with values. */
	if (ctl->argc > 16)
		return ctl_usage_error(ctl, "too many arguments");
	memset(opts, 0, sizeof(opts));
	for (i = 0; i < NELEM(opts); i++) {
		opts[i].name = onebody_members[i].opt;
		opts[i].kind = OPT_LIST;
		opts[i].want = onebody_members[i].n;
	}
	if ((rc = ctl_options(ctl, opts, NELEM(opts))) != 0 ||
	    (rc = ctl_which(ctl, "body")) != 0)
		return rc;
	for (i = 0; i < NELEM(opts); i++) {
		if (opts[i].given)
			fields |= onebody_members[i].flag;
	}
	if (fields == 0)
		return ctl_usage_error(ctl, "nothing to set");
	if ((rc = ctl_object(ctl, HXD_OBJ_BODY, ctl->pos[0], &id)) != 0 ||
	    (rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_get_onebody(ctl->conn, id, &b) != HXD_OK)
		return ctl_fail(ctl);
	for (i = 0; i < NELEM(opts); i++) {
		m = &onebody_members[i];
		if (opts[i].given)
			parse_list(opts[i].value,
			    (double *)(void *)((char *)&b + m->off), m->n,
			    NULL);
	}
	if (!b.is_floating && (fields & ONEBODY_FLOATING))
		fprintf(stderr,
		    "hxctl: %s: warning: body %s is not floating: "
		    "its pos, quat, linvel and angvel stay as they are\n",
		    ctl->cmd->name, ctl->pos[0]);
	return ctl_done(ctl, hxd_set_onebody(ctl->conn, &b, fields));
}

/* Move one mocap body, named by its body's id or name. */
static int
cmd_set_mocap(struct ctl *ctl)
{
	struct ctl_opt opts[] = {
		{ "--pos", OPT_LIST, 3, NULL, 0, 0 },
		{ "--quat", OPT_LIST, 4, NULL, 0, 0 },
	};
	hxd_mocap *mc;
	int id, k, rc;

	if ((rc = ctl_options(ctl, opts, NELEM(opts))) != 0 ||
	    (rc = ctl_which(ctl, "body")) != 0)
		return rc;
	if (!opts[0].given && !opts[1].given)
		return ctl_usage_error(ctl, "nothing to set");
	if ((rc = ctl_object(ctl, HXD_OBJ_BODY, ctl->pos[0], &id)) != 0 ||
	    (rc = ctl_get_info(ctl)) != 0 ||
	    (rc = ctl_id_check(
		 ctl, HXD_OBJ_BODY, id, ctl->info->model.nbody, "nbody")) != 0)
		return rc;
	if ((k = ctl->info->body_mocapid[id]) < 0)
		return ctl_error(ctl, HXD_BADINDEX,
		    "body %s is not a mocap body", ctl->pos[0]);
	if (hxd_get_mocap(ctl->conn, &mc) != HXD_OK)
		return ctl_fail(ctl);
	if (k >= mc->nmocap)
		rc = ctl_error(
		    ctl, HXD_BADSIZE, "the model changed while hxctl ran");
	else {
		if (opts[0].given)
			parse_list(opts[0].value, mc->pos + 3 * k, 3, NULL);
		if (opts[1].given)
			parse_list(opts[1].value, mc->quat + 4 * k, 4, NULL);
		rc = ctl_done(ctl, hxd_set_mocap(ctl->conn, mc));
	}
	free(mc);
	return rc;
}

/* Set one joint's qpos and/or qvel, by its name (or id). */
static int
cmd_set_joint(struct ctl *ctl)
{
	struct ctl_opt opts[] = {
		{ "--qpos", OPT_LIST, 0, NULL, 0, 0 },
		{ "--qvel", OPT_LIST, 0, NULL, 0, 0 },
	};
	double qpos[7], qvel[6];
	char name[1024];
	long id;
	int nq = 0, nv = 0, rc;

	if ((rc = ctl_options(ctl, opts, NELEM(opts))) != 0 ||
	    (rc = ctl_which(ctl, "joint")) != 0)
		return rc;
	if (!opts[0].given && !opts[1].given)
		return ctl_usage_error(ctl, "nothing to set");
	if (opts[0].given && (nq = opts[0].count) > 7)
		return ctl_usage_error(
		    ctl, "--qpos: %d values; a joint has 1, 4 or 7", nq);
	if (opts[1].given && (nv = opts[1].count) > 6)
		return ctl_usage_error(
		    ctl, "--qvel: %d values; a joint has 1, 3 or 6", nv);
	parse_list(opts[0].given ? opts[0].value : "0", qpos, 7, NULL);
	parse_list(opts[1].given ? opts[1].value : "0", qvel, 6, NULL);
	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	snprintf(name, sizeof(name), "%s", ctl->pos[0]);
	if (parse_long(ctl->pos[0], INT_MIN, INT_MAX, &id) == 0) {
		if (hxd_id2name(ctl->conn, HXD_OBJ_JOINT, (int)id, name,
			sizeof(name)) != HXD_OK)
			return ctl_fail(ctl);
		if (name[0] == '\0')
			return ctl_error(ctl, HXD_BADINDEX,
			    "joint %ld has no name to set it by", id);
	}
	return ctl_done(
	    ctl, hxd_set_joint(ctl->conn, name, qpos, nq, qvel, nv));
}

/*----------------------------------------------------------- objects */

/* Set a geom's size. */
static int
cmd_geomsize(struct ctl *ctl)
{
	double size[3];
	int id, rc;

	if ((rc = ctl_numbers(ctl, ctl->argv + 1, 3, size)) != 0 ||
	    (rc = ctl_object(ctl, HXD_OBJ_GEOM, ctl->argv[0], &id)) != 0 ||
	    (rc = ctl_connect(ctl)) != 0)
		return rc;
	return ctl_done(ctl, hxd_set_geomsize(ctl->conn, id, size));
}

/* Show or set the colour of a geom, site, tendon or material. */
static int
cmd_rgba(struct ctl *ctl)
{
	double rgba[4];
	int set = ctl->argc == 6, type, id, rc;

	if (ctl->argc != 2 && !set)
		return ctl_usage_error(
		    ctl, "give no colour or all four of R G B A");
	if ((rc = ctl_objtype(ctl, ctl->argv[0], &type)) != 0 ||
	    (set && (rc = ctl_numbers(ctl, ctl->argv + 2, 4, rgba)) != 0) ||
	    (rc = ctl_object(ctl, type, ctl->argv[1], &id)) != 0 ||
	    (rc = ctl_connect(ctl)) != 0)
		return rc;
	if (set)
		return ctl_done(ctl, hxd_set_rgba(ctl->conn, type, id, rgba));
	if (hxd_get_rgba(ctl->conn, type, id, rgba) != HXD_OK)
		return ctl_fail(ctl);
	if (ctl->json) {
		js_open('{');
		js_ks("type", hxd_obj_name(type));
		js_ki("id", id);
		js_kv("rgba", rgba, 4);
		js_close('}');
	} else
		printf("%g %g %g %g\n", rgba[0], rgba[1], rgba[2], rgba[3]);
	return CTL_OK;
}

/* Print the id of a named object; an unknown name is a failure. */
static int
cmd_name2id(struct ctl *ctl)
{
	int type, id, rc;

	if ((rc = ctl_objtype(ctl, ctl->argv[0], &type)) != 0 ||
	    (rc = ctl_name2id(ctl, type, ctl->argv[1], &id)) != 0)
		return rc;
	if (ctl->json) {
		js_open('{');
		js_ks("type", hxd_obj_name(type));
		js_ks("name", ctl->argv[1]);
		js_ki("id", id);
		js_close('}');
	} else
		printf("%d\n", id);
	return CTL_OK;
}

/* Print the name of an object; an unnamed one prints an empty line. */
static int
cmd_id2name(struct ctl *ctl)
{
	char name[1024];
	long id;
	int type, rc;

	if ((rc = ctl_objtype(ctl, ctl->argv[0], &type)) != 0)
		return rc;
	if (parse_long(ctl->argv[1], INT_MIN, INT_MAX, &id) != 0)
		return ctl_usage_error(
		    ctl, "'%s' is not an id (a whole number)", ctl->argv[1]);
	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_id2name(ctl->conn, type, (int)id, name, sizeof(name)) != HXD_OK)
		return ctl_fail(ctl);
	if (ctl->json) {
		js_open('{');
		js_ks("type", hxd_obj_name(type));
		js_ki("id", id);
		js_ks("name", name);
		js_close('}');
	} else
		printf("%s\n", name);
	return CTL_OK;
}

/* Enable or disable an equality constraint. */
static int
cmd_equality(struct ctl *ctl)
{
	const char *s = ctl->argv[1];
	int on, id, rc;

	if (strcmp(s, "on") == 0 || strcmp(s, "1") == 0 ||
	    strcmp(s, "enable") == 0)
		on = 1;
	else if (strcmp(s, "off") == 0 || strcmp(s, "0") == 0 ||
	    strcmp(s, "disable") == 0)
		on = 0;
	else
		return ctl_usage_error(ctl, "'%s' is neither on nor off", s);
	if ((rc = ctl_object(ctl, HXD_OBJ_EQUALITY, ctl->argv[0], &id)) != 0 ||
	    (rc = ctl_connect(ctl)) != 0)
		return rc;
	return ctl_done(ctl, hxd_equality(ctl->conn, id, on));
}

/*
 * Show the arguments, joined by spaces, on the viewers; none clears.  The
 * server drops a client's message when the client goes, so --hold keeps
 * the connection open for a while, or until hxctl is killed.
 */
static int
cmd_message(struct ctl *ctl)
{
	struct ctl_opt opts[] = {
		{ "--hold", OPT_STRING, 0, NULL, 0, 0 },
	};
	struct timespec ts;
	char *text;
	size_t len = 1;
	double hold = -1;
	int i, rc;

	if ((rc = ctl_options(ctl, opts, NELEM(opts))) != 0)
		return rc;
	if (opts[0].given &&
	    (parse_double(opts[0].value, &hold) != 0 || hold < 0 || hold > 1e9))
		return ctl_usage_error(ctl,
		    "--hold: '%s' is not a number of seconds (0 to 1e9)",
		    opts[0].value);
	for (i = 0; i < ctl->npos; i++)
		len += strlen(ctl->pos[i]) + 1;
	if ((text = malloc(len)) == NULL)
		return ctl_error(ctl, HXD_CANNOTSEND, "out of memory");
	text[0] = '\0';
	for (i = 0; i < ctl->npos; i++) {
		if (i > 0)
			strcat(text, " ");
		strcat(text, ctl->pos[i]);
	}
	if ((rc = ctl_connect(ctl)) == 0)
		rc = ctl_done(ctl, hxd_message(ctl->conn, text));
	free(text);
	if (rc != 0)
		return rc;
	fflush(stdout);
	if (hold == 0) {
		for (;;)
			pause();
	}
	if (hold > 0) {
		ts.tv_sec = (time_t)hold;
		ts.tv_nsec = (long)((hold - (double)ts.tv_sec) * 1e9);
		while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
			;
	}
	return CTL_OK;
}

/*---------------------------------------------------------- stepping */

/* The options of step and run; each blanks the one it does not take. */
#define BATCH_OPTS \
	{ \
		[BO_CTRL] = { "--ctrl", OPT_LIST, 0, NULL, 0, 0 }, \
		[BO_RECORD] = { "--record", OPT_STRING, 0, NULL, 0, 0 }, \
		[BO_EVERY] = { "--record-every", OPT_STRING, 0, NULL, 0, 0 }, \
		[BO_SENSORS] = { "--sensors", OPT_FLAG, 0, NULL, 0, 0 }, \
		[BO_UNTIL] = { "--until", OPT_STRING, 0, NULL, 0, 0 }, \
	}

/*
 * Take N steps.  Plain, as HAPTIX's mj_step: while paused, in requests
 * the server accepts; while running, none.  With a batch option, one
 * lock-step batch run that prints the sensors.
 */
static int
cmd_step(struct ctl *ctl)
{
	struct ctl_opt opts[BO_COUNT] = BATCH_OPTS;
	struct batch_plan plan;
	int i, k, rc, have_n = 0;
	long v;

	memset(&plan, 0, sizeof(plan));
	plan.steps = 1;
	opts[BO_UNTIL].name = NULL;
	if ((rc = ctl_options(ctl, opts, NELEM(opts))) != 0)
		return rc;
	/* N, wherever it stands; the other arguments are NAME=V. */
	for (i = k = 0; i < ctl->npos; i++) {
		if (strchr(ctl->pos[i], '=') != NULL) {
			ctl->pos[k++] = ctl->pos[i];
			continue;
		}
		if (have_n)
			return ctl_usage_error(
			    ctl, "unexpected argument '%s'", ctl->pos[i]);
		if (parse_long(ctl->pos[i], 1, LONG_MAX, &v) != 0 ||
		    (unsigned long)v > UINT_MAX)
			return ctl_usage_error(ctl,
			    "'%s' is not a number of steps (1 to %u)",
			    ctl->pos[i], UINT_MAX);
		plan.steps = (unsigned long)v;
		have_n = 1;
	}
	ctl->npos = k;
	for (i = 0; i < BO_COUNT && !opts[i].given; i++)
		;
	if (i == BO_COUNT && ctl->npos == 0)
		return step_plain(ctl, plan.steps);
	if ((rc = batch_prepare(ctl, opts, &plan)) == 0)
		rc = batch_run(ctl, &plan);
	free(plan.control);
	return rc;
}

/* Take total steps with hxd_step(), the HAPTIX way; show the time. */
static int
step_plain(struct ctl *ctl, unsigned long total)
{
	unsigned long done = 0;
	unsigned chunk, taken;
	hxd_status st;
	int rc;

	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	while (done < total) {
		chunk = total - done > CTL_STEP_CHUNK ?
		    CTL_STEP_CHUNK :
		    (unsigned)(total - done);
		if (hxd_step(ctl->conn, chunk, &taken) != HXD_OK)
			return ctl_fail(ctl);
		done += taken;
		if (taken < chunk)
			break;
	}
	if (hxd_status_get(ctl->conn, &st) != HXD_OK)
		return ctl_fail(ctl);
	if (done == 0 && !st.paused)
		fprintf(stderr,
		    "hxctl: %s: the simulation is running, so no "
		    "step was taken (hxctl pause first)\n",
		    ctl->cmd->name);
	if (ctl->json) {
		js_open('{');
		js_ku("steps", done);
		js_kn("time", st.time);
		js_kb("paused", st.paused);
		js_close('}');
	} else
		printf("%lu step%s, time %.10g\n", done, done == 1 ? "" : "s",
		    st.time);
	return CTL_OK;
}

/* Start the simulation, or with --until step it there in lock step. */
static int
cmd_run(struct ctl *ctl)
{
	struct ctl_opt opts[BO_COUNT] = BATCH_OPTS;
	struct batch_plan plan;
	int i, rc;

	if (ctl->argc == 0) {
		if ((rc = ctl_connect(ctl)) != 0)
			return rc;
		return ctl_done(ctl, hxd_run(ctl->conn));
	}
	memset(&plan, 0, sizeof(plan));
	opts[BO_SENSORS].name = NULL;
	if ((rc = ctl_options(ctl, opts, NELEM(opts))) != 0)
		return rc;
	for (i = 0; i < ctl->npos; i++) {
		if (strchr(ctl->pos[i], '=') == NULL)
			return ctl_usage_error(
			    ctl, "unexpected argument '%s'", ctl->pos[i]);
	}
	if (!opts[BO_UNTIL].given)
		return ctl_usage_error(ctl,
		    "controls and --record go with --until T (run alone "
		    "starts the simulation)");
	if (parse_double(opts[BO_UNTIL].value, &plan.until) != 0 ||
	    plan.until <= 0)
		return ctl_usage_error(ctl,
		    "--until: '%s' is not a simulated time (> 0)",
		    opts[BO_UNTIL].value);
	if ((rc = batch_prepare(ctl, opts, &plan)) == 0)
		rc = batch_run(ctl, &plan);
	free(plan.control);
	return rc;
}

/*
 * Check the batch options and the NAME=V arguments in ctl->pos, then
 * build the controls (caller frees plan->control).  Returns 0,
 * CTL_USAGE or CTL_FAIL.
 */
static int
batch_prepare(struct ctl *ctl, struct ctl_opt *opts, struct batch_plan *plan)
{
	char name[CTL_NAME_MAX];
	const char *v;
	double x;
	long every = 1;
	int i, rc;

	for (i = 0; i < ctl->npos; i++) {
		v = split_assign(ctl->pos[i], name, sizeof(name));
		if (v == NULL)
			return ctl_usage_error(
			    ctl, "'%s' is not NAME=V", ctl->pos[i]);
		if (parse_double(v, &x) != 0)
			return ctl_usage_error(
			    ctl, "%s: '%s' is not a finite number", name, v);
	}
	if (opts[BO_EVERY].given && !opts[BO_RECORD].given)
		return ctl_usage_error(
		    ctl, "--record-every goes with --record");
	if (opts[BO_RECORD].given &&
	    (rc = ctl_fields(
		 ctl, "--record", opts[BO_RECORD].value, &plan->record)) != 0)
		return rc;
	if (opts[BO_EVERY].given &&
	    parse_long(opts[BO_EVERY].value, 1, CTL_BATCH_MAX, &every) != 0)
		return ctl_usage_error(ctl,
		    "--record-every: '%s' is not a number of steps (1 to %u)",
		    opts[BO_EVERY].value, CTL_BATCH_MAX);
	plan->record_every = (unsigned)every;
	return controls_named(
	    ctl, &opts[BO_CTRL], ctl->pos, ctl->npos, &plan->control);
}

/*
 * Run a batch plan: in one request (or several of CTL_BATCH_MAX steps),
 * or on a terminal in chunks of about CTL_BATCH_SECONDS with progress
 * on stderr, which SIGINT and SIGTERM end early (status 1).  Chunks are whole
 * multiples of record_every, so that the recorded steps fall where one request
 * would put them, and only the first sets the controls.  Prints the trajectory
 * as it comes, then the steps, the time and the sensors.
 */
static int
batch_run(struct ctl *ctl, const struct batch_plan *p)
{
	hxd_batch b;
	hxd_batch_result *r, *last = NULL;
	hxd_status st;
	unsigned long long done = 0;
	unsigned every = p->record_every, chunk;
	double t, dt, left, want, started, t0, el;
	int chunked, progress, shown = 0, rc = CTL_OK, final, i;

	if ((rc = ctl_connect(ctl)) != 0 ||
	    (!ctl->json && p->record == 0 && (rc = ctl_get_info(ctl)) != 0))
		return rc;
	if (hxd_status_get(ctl->conn, &st) != HXD_OK)
		return ctl_fail(ctl);
	t = st.time;
	dt = st.model.timestep;
	chunked = isatty(STDOUT_FILENO);
	progress = chunked && isatty(STDERR_FILENO);
	/* On a terminal, ^C stops the run between two chunks. */
	if (chunked)
		ctl_signals();
	chunk = CTL_BATCH_FIRST + every - 1 -
	    (CTL_BATCH_FIRST + every - 1) % every;
	started = ctl_now();
	for (;;) {
		memset(&b, 0, sizeof(b));
		b.control = last == NULL ? p->control : NULL;
		b.record = p->record;
		b.record_every = every;
		if (p->steps != 0)
			left = (double)(p->steps - done);
		else
			left = dt > 0 ? ceil((p->until - t) / dt - 0.5) : 0;
		final = left <= (chunked ? chunk : CTL_BATCH_MAX);
		if (final && p->steps != 0)
			b.steps = (unsigned)left;
		else if (final)
			b.until_time = p->until;
		else
			b.steps = chunked ?
			    chunk :
			    CTL_BATCH_MAX - CTL_BATCH_MAX % every;
		t0 = ctl_now();
		if (hxd_batch_run(ctl->conn, &b, &r) != HXD_OK) {
			progress_clear(shown);
			shown = 0;
			rc = ctl_fail(ctl);
			break;
		}
		for (i = 0; i < r->ntrajectory; i++) {
			js_open('{');
			js_ks("event", "frame");
			frame_json(r->trajectory[i], p->record, 0);
			js_close('}');
		}
		fflush(stdout);
		done += r->steps;
		t = r->time;
		hxd_batch_result_free(last);
		last = r;
		if (final || r->steps < b.steps)
			break;
		el = ctl_now() - t0;
		if (el > 0 && r->steps > 0) {
			want = (double)r->steps * CTL_BATCH_SECONDS / el;
			if (want > 8.0 * chunk)
				want = 8.0 * chunk;
			if (want > CTL_BATCH_MAX)
				want = CTL_BATCH_MAX;
			chunk = (unsigned)want - (unsigned)want % every;
			if (chunk < every)
				chunk = every;
		}
		if (progress && ctl_now() - started >= CTL_PROGRESS_AFTER)
			shown = batch_progress(ctl, p, done, t);
		if (ctl_stopped)
			break;
	}
	progress_clear(shown);
	if (rc == CTL_OK)
		batch_show(ctl, p, done, t, last->sensor);
	hxd_batch_result_free(last);
	if (rc == CTL_OK && ctl_stopped) {
		fprintf(stderr, "hxctl: %s: interrupted after %llu steps\n",
		    ctl->cmd->name, done);
		rc = CTL_FAIL;
	}
	return rc;
}

/* Show how far a batch run is, on one line of stderr; its length. */
static int
batch_progress(struct ctl *ctl, const struct batch_plan *p,
    unsigned long long done, double t)
{
	int n;

	if (p->steps != 0)
		n = fprintf(stderr,
		    "\rhxctl: %s: %llu of %lu steps, time %.6g ",
		    ctl->cmd->name, done, p->steps, t);
	else
		n = fprintf(stderr,
		    "\rhxctl: %s: time %.6g of %.6g, %llu steps ",
		    ctl->cmd->name, t, p->until, done);
	fflush(stderr);
	return n > 0 ? n : 0;
}

/* Blank a progress line len characters long, if one is shown. */
static void
progress_clear(int len)
{
	if (len > 0)
		fprintf(stderr, "\r%*s\r", len, "");
}

/*
 * Show the end of a batch run: with --record a last JSON line, with
 * --json one object, else the steps and time and the sensors by sensor.
 */
static void
batch_show(struct ctl *ctl, const struct batch_plan *p, unsigned long long done,
    double t, const hxd_sensor *s)
{
	if (p->record != 0 || ctl->json) {
		js_open('{');
		if (p->record != 0)
			js_ks("event", "batch");
		js_ku("steps", done);
		js_kn("time", t);
		js_kb("paused", 1);
		js_ki("nsensordata", s->nsensordata);
		js_kv("sensordata", s->sensordata, s->nsensordata);
		js_close('}');
		return;
	}
	printf("%llu step%s, time %.10g\n", done, done == 1 ? "" : "s", t);
	sensor_print(&view_sensor, ctl->info, s);
}

/* Set the controls if given, step or wait a tick, show the sensors. */
static int
cmd_update(struct ctl *ctl)
{
	hxd_control *c = NULL;
	hxd_sensor *s = NULL;
	int named, rc;

	if ((rc = controls_check(ctl, ctl->argv, ctl->argc, &named)) != 0 ||
	    (ctl->argc > 0 &&
		(rc = controls_build(ctl, ctl->argv, ctl->argc, named, &c)) !=
		    0))
		return rc;
	if ((rc = ctl_connect(ctl)) == 0 &&
	    (ctl->json || (rc = ctl_get_info(ctl)) == 0)) {
		if (hxd_update(ctl->conn, c, &s) != HXD_OK)
			rc = ctl_fail(ctl);
		else
			view_show(ctl, &view_sensor, s);
	}
	free(s);
	free(c);
	return rc;
}

/*
 * Reset to a keyframe by index, to a keyframe or captured state by name,
 * or to the reference pose.
 */
static int
cmd_reset(struct ctl *ctl)
{
	long key = -1;
	int rc;

	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (ctl->argc == 1 &&
	    parse_long(ctl->argv[0], INT_MIN, INT_MAX, &key) != 0)
		return ctl_done(ctl, hxd_reset_name(ctl->conn, ctl->argv[0]));
	return ctl_done(ctl, hxd_reset(ctl->conn, (int)key));
}

/*
 * Capture the state into a keyframe, by index or name, or under a name
 * of its own that the server keeps until the next model load.
 */
static int
cmd_capture(struct ctl *ctl)
{
	const char *arg = ctl->argv[0];
	long key;
	int rc;

	if (arg[0] == '\0')
		return ctl_usage_error(ctl, "the name is empty");
	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (parse_long(arg, INT_MIN, INT_MAX, &key) == 0)
		return ctl_done(
		    ctl, hxd_capture_key(ctl->conn, NULL, (int)key));
	return ctl_done(ctl, hxd_capture_key(ctl->conn, arg, 0));
}

/* Set the speed factor, or max. */
static int
cmd_speed(struct ctl *ctl)
{
	double factor = 1;
	int max, rc;

	max = strcmp(ctl->argv[0], "max") == 0;
	if (!max && parse_double(ctl->argv[0], &factor) != 0)
		return ctl_usage_error(ctl,
		    "'%s' is neither a finite number nor max", ctl->argv[0]);
	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	return ctl_done(ctl, hxd_set_speed(ctl->conn, factor, max));
}

/*-------------------------------------------------------- simple API */

/* Show the robot as hx_robot_info describes it. */
static int
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
	js_ks("servo", enum_name(servo_kinds, NELEM(servo_kinds), r->servo));
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
	    enum_name(servo_kinds, NELEM(servo_kinds), r->servo));
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
static int
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
			put_nums(
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
	return obj_label(in,
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

/*----------------------------------------------------------- clients */

/* List the connected clients, marking the lease holder and this hxctl. */
static int
cmd_clients(struct ctl *ctl)
{
	hxd_client *list;
	unsigned long long you;
	int i, n, rc;

	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_clients(ctl->conn, &list, &n, &you) != HXD_OK)
		return ctl_fail(ctl);
	if (ctl->json) {
		js_open('{');
		js_ku("you", you);
		js_key("clients");
		js_open('[');
		for (i = 0; i < n; i++) {
			js_open('{');
			client_json(&list[i], you);
			js_close('}');
		}
		js_close(']');
		js_close('}');
	} else
		clients_print(list, n, you);
	free(list);
	return CTL_OK;
}

/*
 * Write a client's members into the open object; "you" says whether it
 * is this hxctl, unless you is 0 (not known).
 */
static void
client_json(const hxd_client *c, unsigned long long you)
{
	js_ku("id", c->id);
	js_ks("name", c->name);
	js_ks("peer", c->peer);
	js_kb("lease", c->lease);
	if (you != 0)
		js_kb("you", c->id == you);
	js_kn("connected", c->connected);
	js_ku("requests", c->requests);
	js_ku("errors", c->errors);
	js_ku("bytes_in", c->bytes_in);
	js_ku("bytes_out", c->bytes_out);
	js_ku("queued", c->queued);
	js_ki("subscriptions", c->subscriptions);
	js_ku("frames_sent", c->frames_sent);
	js_ku("frames_dropped", c->frames_dropped);
	js_ku("events_dropped", c->events_dropped);
}

/* Print the clients, one per row; "mark" names the holder and this one. */
static void
clients_print(const hxd_client *list, int n, unsigned long long you)
{
	const hxd_client *c;
	const char *mark;
	int i, wn = 4, wp = 4, len;

	for (i = 0; i < n; i++) {
		if ((len = (int)strlen(list[i].name)) > wn)
			wn = len;
		if ((len = (int)strlen(list[i].peer)) > wp)
			wp = len;
	}
	printf("%4s  %-*s  %-*s  %-10s %9s %8s %6s %10s %10s %8s %4s %8s "
	       "%8s %10s\n",
	    "id", wn, "name", wp, "peer", "mark", "connected", "requests",
	    "errors", "bytes in", "bytes out", "queued", "subs", "frames",
	    "dropped", "ev dropped");
	for (i = 0; i < n; i++) {
		c = &list[i];
		mark = c->lease ? (c->id == you ? "lease,this" : "lease") :
				  (c->id == you ? "this" : "-");
		printf("%4llu  %-*s  %-*s  %-10s %8.1fs %8llu %6llu %10llu "
		       "%10llu %8llu %4d %8llu %8llu %10llu\n",
		    c->id, wn, c->name, wp, c->peer, mark, c->connected,
		    c->requests, c->errors, c->bytes_in, c->bytes_out,
		    c->queued, c->subscriptions, c->frames_sent,
		    c->frames_dropped, c->events_dropped);
	}
}

/*
 * Show the lease; take it and hold it for a while, releasing it at the
 * end (the server would apply its on-loss policy to a holder that just
 * vanished); or release it.
 */
static int
cmd_lease(struct ctl *ctl)
{
	struct ctl_opt opts[] = {
		{ "--hold", OPT_STRING, 0, NULL, 0, 0 },
	};
	hxd_lease_info li;
	const char *op;
	double hold = 0;
	int rc;

	if ((rc = ctl_options(ctl, opts, NELEM(opts))) != 0)
		return rc;
	if (ctl->npos > 1)
		return ctl_usage_error(
		    ctl, "unexpected argument '%s'", ctl->pos[1]);
	op = ctl->npos == 1 ? ctl->pos[0] : "";
	if (op[0] != '\0' && strcmp(op, "take") != 0 &&
	    strcmp(op, "release") != 0)
		return ctl_usage_error(
		    ctl, "'%s' is neither take nor release", op);
	if (opts[0].given && strcmp(op, "take") != 0)
		return ctl_usage_error(ctl, "--hold goes with take");
	if (strcmp(op, "take") == 0 && !opts[0].given)
		return ctl_usage_error(ctl,
		    "take needs --hold S: the lease ends when hxctl "
		    "disconnects");
	if (opts[0].given &&
	    (rc = ctl_seconds(ctl, "--hold", opts[0].value, &hold)) != 0)
		return rc;
	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (strcmp(op, "release") == 0)
		return ctl_done(
		    ctl, hxd_lease(ctl->conn, HXD_LEASE_RELEASE, NULL));
	if (op[0] == '\0') {
		if (hxd_lease(ctl->conn, HXD_LEASE_QUERY, &li) != HXD_OK)
			return ctl_fail(ctl);
		if (ctl->json) {
			js_open('{');
			lease_json(&li);
			js_close('}');
		} else
			lease_print(&li);
		return CTL_OK;
	}
	ctl_signals();
	if ((rc = ctl_done(ctl, hxd_lease(ctl->conn, HXD_LEASE_TAKE, NULL))) !=
	    0)
		return rc;
	fflush(stdout);
	ctl_hold(hold);
	if (hxd_lease(ctl->conn, HXD_LEASE_RELEASE, NULL) != HXD_OK)
		return ctl_fail(ctl);
	return CTL_OK;
}

/* Write the lease's members into the open object. */
static void
lease_json(const hxd_lease_info *li)
{
	js_ku("holder", li->holder);
	js_ks("holder_name", li->holder_name);
	js_ks("on_loss", li->on_loss);
}

/* Print who holds the lease, and what happens when it is lost. */
static void
lease_print(const hxd_lease_info *li)
{
	if (li->holder != 0)
		printf("%-12s client %llu (%s)\n", "holder", li->holder,
		    li->holder_name);
	else
		printf("%-12s %s\n", "holder", "none");
	printf("%-12s %s\n", "on loss", li->on_loss);
}

/*------------------------------------------------------------ events */

/*
 * Subscribe, and print each frame and event as one JSON object per line,
 * flushed, until enough came, the time is up, a signal stops hxctl or
 * the reader of stdout goes away (all exit 0), or the server does (1).
 */
static int
cmd_subscribe(struct ctl *ctl)
{
	struct ctl_opt opts[] = {
		{ "--every", OPT_STRING, 0, NULL, 0, 0 },
		{ "--sim-hz", OPT_STRING, 0, NULL, 0, 0 },
		{ "--wall-hz", OPT_STRING, 0, NULL, 0, 0 },
		{ "--events", OPT_FLAG, 0, NULL, 0, 0 },
		{ "--count", OPT_STRING, 0, NULL, 0, 0 },
		{ "--duration", OPT_STRING, 0, NULL, 0, 0 },
	};
	hxd_subscription sub;
	hxd_event *ev;
	long every = 0, count = 0, seen = 0;
	double duration = 0, end = 0, left;
	int i, r, wait, rc;

	memset(&sub, 0, sizeof(sub));
	if ((rc = ctl_options(ctl, opts, NELEM(opts))) != 0)
		return rc;
	for (i = 0; i < ctl->npos; i++) {
		if ((rc = ctl_fields(ctl, "field", ctl->pos[i], &sub.fields)) !=
		    0)
			return rc;
	}
	if (opts[0].given + opts[1].given + opts[2].given > 1)
		return ctl_usage_error(
		    ctl, "give one rate: --every, --sim-hz or --wall-hz");
	if (sub.fields == 0 &&
	    (opts[0].given || opts[1].given || opts[2].given))
		return ctl_usage_error(ctl, "a rate needs fields to send");
	if (opts[0].given &&
	    parse_long(opts[0].value, 1, UINT_MAX, &every) != 0)
		return ctl_usage_error(ctl,
		    "--every: '%s' is not a number of steps (1 to %u)",
		    opts[0].value, UINT_MAX);
	sub.every_steps = (unsigned)every;
	if (opts[1].given &&
	    (parse_double(opts[1].value, &sub.sim_hz) != 0 || sub.sim_hz <= 0))
		return ctl_usage_error(
		    ctl, "--sim-hz: '%s' is not a rate (> 0)", opts[1].value);
	if (opts[2].given &&
	    (parse_double(opts[2].value, &sub.wall_hz) != 0 ||
		sub.wall_hz <= 0))
		return ctl_usage_error(
		    ctl, "--wall-hz: '%s' is not a rate (> 0)", opts[2].value);
	if (opts[4].given &&
	    parse_long(opts[4].value, 1, LONG_MAX, &count) != 0)
		return ctl_usage_error(ctl,
		    "--count: '%s' is not a number of events (1 or more)",
		    opts[4].value);
	if (opts[5].given &&
	    ((rc = ctl_seconds(ctl, "--duration", opts[5].value, &duration)) !=
		    0 ||
		duration == 0))
		return rc != 0 ? rc :
				 ctl_usage_error(ctl,
				     "--duration: give more than 0 seconds");
	if (sub.fields != 0 && every == 0 && sub.sim_hz == 0 &&
	    sub.wall_hz == 0)
		sub.wall_hz = CTL_SUBSCRIBE_HZ;
	sub.events = opts[3].given || sub.fields == 0;
	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	ctl_signals();
	if (hxd_subscribe(ctl->conn, &sub, NULL) != HXD_OK)
		return ctl_fail(ctl);
	if (duration > 0)
		end = ctl_now() + duration;
	while (!ctl_stopped && (count == 0 || seen < count)) {
		wait = CTL_POLL_MS;
		if (duration > 0) {
			if ((left = end - ctl_now()) <= 0)
				break;
			if (left * 1e3 < wait)
				wait = (int)ceil(left * 1e3);
		}
		if (ctl_reader_gone()) {
			ctl->stdout_gone = 1;
			break;
		}
		r = hxd_next_event(ctl->conn, wait, &ev);
		if (r == HXD_TIMEOUT)
			continue;
		if (r != HXD_OK)
			return ctl_fail(ctl);
		if (ev->kind > HXD_EVENT_UNKNOWN &&
		    (size_t)ev->kind < NELEM(event_kinds)) {
			event_json(ev, sub.fields);
			seen++;
		}
		hxd_event_free(ev);
		if (fflush(stdout) != 0) {
			if (errno != EPIPE)
				return ctl_error(ctl, HXD_CANNOTSEND,
				    "cannot write the output: %s",
				    strerror(errno));
			ctl->stdout_gone = 1;
			break;
		}
	}
	return CTL_OK;
}

/* Write an event as one JSON line; fields: what frames carry. */
static void
event_json(const hxd_event *ev, unsigned fields)
{
	js_open('{');
	js_ks("event", event_kinds[ev->kind]);
	if (ev->kind == HXD_EVENT_FRAME) {
		frame_json(ev->frame, fields, 1);
		js_close('}');
		return;
	}
	js_kn("time", ev->time);
	switch (ev->kind) {
	case HXD_EVENT_MODEL:
		js_kb("reload", ev->reload);
		js_key("model");
		js_model(&ev->model);
		break;
	case HXD_EVENT_RESET:
		js_ki("keyframe", ev->keyframe);
		js_ks("name", ev->key_name);
		break;
	case HXD_EVENT_RUN:
		js_kb("paused", ev->paused);
		break;
	case HXD_EVENT_SPEED:
		js_kn("speed", ev->speed);
		js_kb("speed_max", ev->speed_max);
		break;
	case HXD_EVENT_INSTABILITY:
		js_ku("resets", ev->resets);
		js_ks("what", ev->what);
		break;
	case HXD_EVENT_MESSAGE:
		js_ks("text", ev->text);
		js_ku("from", ev->from);
		break;
	case HXD_EVENT_LEASE:
		lease_json(&ev->lease);
		break;
	case HXD_EVENT_CLIENT_JOINED:
	case HXD_EVENT_CLIENT_LEFT:
		client_json(&ev->client, 0);
		break;
	default:
		break;
	}
	js_close('}');
}

/*
 * Write a frame's members into the open object: its time and step (and
 * with stream, its subscription and drop count), then each of fields,
 * present or not, keyed by its name.
 */
static void
frame_json(const hxd_frame *f, unsigned fields, int stream)
{
	int k;

	js_kn("time", f->time);
	js_ku("step", f->step);
	if (stream) {
		js_ku("subscription", f->subscription);
		js_ku("dropped", f->dropped);
	}
	for (k = 1; k <= HXD_FIELD_MAX; k++) {
		if (fields & HXD_FIELDS(k))
			frame_field_json(f, k);
	}
}

/* Write one field of a frame; an array it lacks is empty, a part null. */
static void
frame_field_json(const hxd_frame *f, int field)
{
	const char *k = hxd_field_name(field);
	const hxd_poses *p = NULL;

/* An array of the frame, or an empty one if the frame lacks it. */
#define FRAME_ARRAY(v, n) js_kv(k, (v), (v) != NULL ? (n) : 0)
	switch (field) {
	case HXD_FIELD_QPOS:
		FRAME_ARRAY(f->qpos, f->nq);
		return;
	case HXD_FIELD_QVEL:
		FRAME_ARRAY(f->qvel, f->nv);
		return;
	case HXD_FIELD_ACT:
		FRAME_ARRAY(f->act, f->na);
		return;
	case HXD_FIELD_CTRL:
		FRAME_ARRAY(f->ctrl, f->nu);
		return;
	case HXD_FIELD_SENSORDATA:
		FRAME_ARRAY(f->sensordata, f->nsensordata);
		return;
	case HXD_FIELD_QFRC_APPLIED:
		FRAME_ARRAY(f->qfrc_applied, f->nv);
		return;
	case HXD_FIELD_XFRC_APPLIED:
		FRAME_ARRAY(f->xfrc_applied, 6 * f->nbody);
		return;
	case HXD_FIELD_MOCAP:
		js_key(k);
		js_open('{');
		js_kv("pos", f->mocap_pos,
		    f->mocap_pos != NULL ? 3 * f->nmocap : 0);
		js_kv("quat", f->mocap_quat,
		    f->mocap_quat != NULL ? 4 * f->nmocap : 0);
		js_close('}');
		return;
	case HXD_FIELD_BODY:
		p = f->body;
		break;
	case HXD_FIELD_GEOM:
		p = f->geom;
		break;
	case HXD_FIELD_SITE:
		p = f->site;
		break;
	case HXD_FIELD_CONTACTS:
		js_key(k);
		if (f->contacts != NULL)
			view_json(&view_contacts, f->contacts);
		else
			js_null();
		return;
	case HXD_FIELD_STATUS:
		js_key(k);
		if (f->status != NULL)
			status_json(f->status);
		else
			js_null();
		return;
	default:
		return;
	}
#undef FRAME_ARRAY
	if (p == NULL) {
		js_knull(k);
		return;
	}
	js_key(k);
	js_open('{');
	js_ki("count", p->count);
	js_kv("pos", p->pos, 3 * p->count);
	js_kv("mat", p->mat, 9 * p->count);
	js_close('}');
}

/*------------------------------------------------------------ arrays */

/* List the arrays by name, without their values. */
static int
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
		    enum_name(array_types, NELEM(array_types), list[i].type),
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
	js_ks("type", enum_name(array_types, NELEM(array_types), a->type));
	js_ki("rows", a->rows);
	js_ki("cols", a->cols);
	js_kb("writable", a->writable);
}

/* Show an array by name: its description, then one row per line. */
static int
cmd_get(struct ctl *ctl)
{
	hxd_array *a;
	char buf[CTL_LABEL_MAX];
	int i, rows, w = 4, rc;

	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_get_array(ctl->conn, ctl->argv[0], &a) != HXD_OK)
		return ctl_fail(ctl);
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
	rows = array_rows(ctl->info, a);
	if (rows != 0)
		w = label_width(ctl->info, rows, a->rows);
	printf("%s (%s, %s, %d x %d, %s)\n", a->name, a->owner,
	    enum_name(array_types, NELEM(array_types), a->type), a->rows,
	    a->cols, a->writable ? "writable" : "read-only");
	for (i = 0; i < a->rows; i++) {
		printf("%4d  %-*s", i, w,
		    rows != 0 ?
			row_label(ctl->info, rows, i, buf, sizeof(buf)) :
			"");
		put_nums(a->values + (size_t)i * (size_t)a->cols, a->cols);
		putchar('\n');
	}
	free(a);
	return CTL_OK;
}

/*
 * What the rows of an array are (HXD_OBJ_* or CTL_DOF), by its name and
 * when the model has as many of them; 0 when that is not known.
 */
static int
array_rows(const hxd_info *in, const hxd_array *a)
{
	size_t i;
	int n;

	for (i = 0; i < NELEM(array_prefixes); i++) {
		if (strncmp(a->name, array_prefixes[i].prefix,
			strlen(array_prefixes[i].prefix)) != 0)
			continue;
		if (array_prefixes[i].rows == CTL_DOF)
			n = in->model.nv;
		else
			info_names(in, array_prefixes[i].rows, &n);
		return n == a->rows ? array_prefixes[i].rows : 0;
	}
	return 0;
}

/* Write values into an array by name, from an element offset. */
static int
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
	    (rc = ctl_connect(ctl)) == 0)
		rc = ctl_done(ctl,
		    hxd_set_array(ctl->conn, ctl->pos[0], (int)offset,
			ctl->npos - 1, values));
	free(values);
	return rc;
}

/*------------------------------------------------------------ models */

/* Parse a --format name; -1 if unknown. */
static int
format_parse(const char *s)
{
	if (strcmp(s, "auto") == 0)
		return HXD_FORMAT_AUTO;
	if (strcmp(s, "mjcf") == 0 || strcmp(s, "xml") == 0)
		return HXD_FORMAT_MJCF;
	if (strcmp(s, "urdf") == 0)
		return HXD_FORMAT_URDF;
	if (strcmp(s, "mjb") == 0)
		return HXD_FORMAT_MJB;
	return -1;
}

/* The format a file name's suffix says, or HXD_FORMAT_AUTO. */
static int
format_from_suffix(const char *path)
{
	const char *dot = strrchr(path, '.');

	if (dot == NULL || strchr(dot, '/') != NULL)
		return HXD_FORMAT_AUTO;
	if (strcmp(dot, ".xml") == 0 || strcmp(dot, ".XML") == 0)
		return HXD_FORMAT_MJCF;
	if (strcmp(dot, ".urdf") == 0 || strcmp(dot, ".URDF") == 0)
		return HXD_FORMAT_URDF;
	if (strcmp(dot, ".mjb") == 0 || strcmp(dot, ".MJB") == 0)
		return HXD_FORMAT_MJB;
	return HXD_FORMAT_AUTO;
}

/*
 * Read a whole local file into *data (caller frees) and *len.  Returns
 * 0, or an errno value (EFBIG when it is larger than CTL_INLINE_MAX).
 */
static int
read_local(const char *path, unsigned char **data, size_t *len)
{
	unsigned char *buf = NULL, *nb;
	size_t cap = 0, n = 0, got;
	FILE *f;
	int err;

	*data = NULL;
	*len = 0;
	if ((f = fopen(path, "rb")) == NULL)
		return errno;
	for (;;) {
		if (n == cap) {
			if (cap >= (size_t)CTL_INLINE_MAX) {
				err = EFBIG;
				goto fail;
			}
			cap = cap == 0 ? 65536 : 2 * cap;
			if ((nb = realloc(buf, cap)) == NULL) {
				err = ENOMEM;
				goto fail;
			}
			buf = nb;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		err = EIO;
		goto fail;
	}
	fclose(f);
	*data = buf;
	*len = n;
	return 0;
fail:
	fclose(f);
	free(buf);
	return err;
}

/* Load a model from the server's directories, or send a local file. */
static int
cmd_load(struct ctl *ctl)
{
	struct ctl_opt opts[] = {
		{ "--inline", OPT_FLAG, 0, NULL, 0, 0 },
		{ "--format", OPT_STRING, 0, NULL, 0, 0 },
		{ "--name", OPT_STRING, 0, NULL, 0, 0 },
		{ "--legacy", OPT_FLAG, 0, NULL, 0, 0 },
	};
	const char *file;
	hxd_model m;
	int format, rc;

	/* No more can be right: a file and the four options. */
	if (ctl->argc > 9)
		return ctl_usage_error(ctl, "too many arguments");
	if ((rc = ctl_options(ctl, opts, NELEM(opts))) != 0 ||
	    (rc = ctl_which(ctl, "file")) != 0)
		return rc;
	file = ctl->pos[0];
	if (!opts[0].given && (opts[1].given || opts[2].given))
		return ctl_usage_error(
		    ctl, "--format and --name go with --inline");
	if (opts[0].given && opts[3].given)
		return ctl_usage_error(ctl,
		    "--legacy translates files on the server, not --inline");
	format = opts[1].given ? format_parse(opts[1].value) :
				 format_from_suffix(file);
	if (format < 0)
		return ctl_usage_error(ctl,
		    "format '%s' is not mjcf, urdf, mjb or auto",
		    opts[1].value);
	if (opts[0].given)
		rc = load_inline(ctl, file, format,
		    opts[2].given ? opts[2].value : NULL, &m);
	else if ((rc = ctl_connect(ctl)) == 0 &&
	    (opts[3].given ? hxd_load_legacy(ctl->conn, file, &m) :
			     hxd_load_file(ctl->conn, file, &m)) != HXD_OK)
		rc = ctl_fail(ctl);
	if (rc == 0)
		model_show(ctl, "loaded", &m);
	return rc;
}

/*
 * Send a local model file, called name or else after the file; 0 or
 * CTL_FAIL.
 */
static int
load_inline(struct ctl *ctl, const char *file, int format, const char *name,
    hxd_model *m)
{
	unsigned char *data;
	size_t len;
	int err, rc;

	if ((err = read_local(file, &data, &len)) != 0)
		return ctl_error(ctl, HXD_LOADFAILED, "%s: %s", file,
		    err == EFBIG ? "larger than 256 MiB" : strerror(err));
	if (name == NULL)
		name = strrchr(file, '/') != NULL ? strrchr(file, '/') + 1 :
						    file;
	if (len == 0)
		rc = ctl_error(ctl, HXD_LOADFAILED, "%s is empty", file);
	else if ((rc = ctl_connect(ctl)) == 0 &&
	    hxd_load_data(ctl->conn, format, data, len, name, m) != HXD_OK)
		rc = ctl_fail(ctl);
	free(data);
	return rc;
}

/* Reload the current model from its file. */
static int
cmd_reload(struct ctl *ctl)
{
	hxd_model m;
	int rc;

	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_reload(ctl->conn, &m) != HXD_OK)
		return ctl_fail(ctl);
	model_show(ctl, "reloaded", &m);
	return CTL_OK;
}

/*-------------------------------------------------------------- help */

/* Print one command's synopsis and help, wrapped at the help column. */
static void
ctl_cmd_help(FILE *f, const struct ctl_cmd *c)
{
	const char *p = c->help, *nl;
	int n;

	n = fprintf(
	    f, "  %s%s%s", c->name, c->args[0] != '\0' ? " " : "", c->args);
	if (n > 27)
		fprintf(f, "\n%30s", "");
	else
		fprintf(f, "%*s", 30 - n, "");
	for (;;) {
		nl = strchr(p, '\n');
		if (nl == NULL) {
			fprintf(f, "%s\n", p);
			break;
		}
		fprintf(f, "%.*s\n%30s", (int)(nl - p), p, "");
		p = nl + 1;
	}
}

/* Print the help text. */
static void
ctl_usage(FILE *f)
{
	const char *group = NULL;
	size_t i;

	fprintf(f,
	    "usage: hxctl [--server ADDR] [--json] [--timeout MS] COMMAND [ARGS]\n"
	    "\n"
	    "Control a haptixd simulation: one command per call of the haptixd API.\n"
	    "\n"
	    "Options (before the command):\n"
	    "  -s, --server ADDR   unix:PATH, HOST, HOST:PORT or [V6ADDR]:PORT (TCP port\n"
	    "                      %d unless given); default: $HAPTIX_SERVER, else\n"
	    "                      $XDG_RUNTIME_DIR/haptixd.sock or\n"
	    "                      /run/haptixd/haptixd.sock\n"
	    "  -j, --json          print one JSON object on stdout instead of tables\n"
	    "  -t, --timeout MS    wait at most MS ms for each answer, 0 for ever\n"
	    "                      (default: %d)\n"
	    "  -h, --help          show this help\n"
	    "  -V, --version       show the version\n",
	    HXD_DEFAULT_PORT, HXD_DEFAULT_TIMEOUT_MS);
	for (i = 0; i < NELEM(ctl_cmds); i++) {
		if (group == NULL || strcmp(group, ctl_cmds[i].group) != 0) {
			group = ctl_cmds[i].group;
			fprintf(f, "\n%s:\n", group);
		}
		ctl_cmd_help(f, &ctl_cmds[i]);
	}
	fprintf(f,
	    "\n"
	    "Arguments:\n"
	    "  ID|NAME     an object's id (a whole number) or its name\n"
	    "  TYPE        body, joint, geom, site, tendon, actuator, sensor, equality,\n"
	    "              key, material, camera, light, mesh, ... (or its number)\n"
	    "  LIST        comma-separated numbers: 0.5,-1,2e-3\n"
	    "  V, X, R...  one number\n"
	    "  KEY         a keyframe's index or name, or a captured state's name\n"
	    "  FIELD       qpos, qvel, act, ctrl, mocap, sensordata, body, geom, site,\n"
	    "              contacts, status, qfrc_applied, xfrc_applied, or all; a\n"
	    "              list of them may be comma-separated\n"
	    "  ARRAY       an mjModel or mjData array by MuJoCo's name (geom_rgba, qpos),\n"
	    "              optionally prefixed model. or data.\n"
	    "\n"
	    "Commands that change something print nothing (with --json: {\"ok\":true}).\n"
	    "subscribe and step/run with --record print JSON Lines, with or without\n"
	    "--json.\n"
	    "Exit status: 0 done (subscribe: also when stopped by --count, --duration,\n"
	    "a signal or a closed stdout), 1 failed (the reason on stderr; subscribe:\n"
	    "the server went away), 2 bad command line.\n"
	    "Environment: HAPTIX_SERVER (the default server), HAPTIX_TOKEN_FILE (the\n"
	    "file holding the token a TCP server may require).  See hxctl(1).\n");
}

/* Show the help, or one command's. */
static int
cmd_help(struct ctl *ctl)
{
	const struct ctl_cmd *c;

	if (ctl->argc == 0) {
		ctl_usage(stdout);
		return CTL_OK;
	}
	if ((c = ctl_find(ctl->argv[0])) == NULL)
		return ctl_usage_error(ctl, "no command '%s'", ctl->argv[0]);
	printf("usage: hxctl [options] %s%s%s\n\n%s\n", c->name,
	    c->args[0] != '\0' ? " " : "", c->args, c->help);
	return CTL_OK;
}

/* Find a command by name, or NULL. */
static const struct ctl_cmd *
ctl_find(const char *name)
{
	size_t i;

	for (i = 0; i < NELEM(ctl_cmds); i++) {
		if (strcmp(ctl_cmds[i].name, name) == 0)
			return &ctl_cmds[i];
	}
	return NULL;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "server", required_argument, NULL, 's' },
		{ "json", no_argument, NULL, 'j' },
		{ "timeout", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct ctl ctl;
	long v;
	int ch, rc;

	memset(&ctl, 0, sizeof(ctl));
	ctl.timeout_ms = -1;
	opterr = 0;
	while (
	    (ch = getopt_long(argc, argv, "+:s:jt:hV", longopts, NULL)) != -1) {
		switch (ch) {
		case 's':
			ctl.server = optarg;
			break;
		case 'j':
			ctl.json = 1;
			break;
		case 't':
			if (parse_long(optarg, 0, INT_MAX, &v) != 0)
				return ctl_global_error(
				    "--timeout: '%s' is not a number of "
				    "milliseconds",
				    optarg);
			ctl.timeout_ms = (int)v;
			break;
		case 'h':
			ctl_usage(stdout);
			return CTL_OK;
		case 'V':
			printf("hxctl %s\n", PACKAGE_VERSION);
			return CTL_OK;
		case ':':
			return ctl_global_error(
			    "%s needs a value", argv[optind - 1]);
		default:
			if (strncmp(argv[optind - 1], "--", 2) != 0)
				return ctl_global_error(
				    "unknown option -%c", optopt);
			return ctl_global_error(
			    "bad option %s", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return ctl_global_error("no command given");
	if ((ctl.cmd = ctl_find(argv[optind])) == NULL)
		return ctl_global_error("unknown command '%s'", argv[optind]);
	ctl.argc = argc - optind - 1;
	ctl.argv = argv + optind + 1;
	if (ctl.argc < ctl.cmd->min)
		return ctl_usage_error(&ctl, "missing arguments");
	if (ctl.cmd->max >= 0 && ctl.argc > ctl.cmd->max)
		return ctl_usage_error(&ctl, "unexpected argument '%s'%s",
		    ctl.argv[ctl.cmd->max],
		    strncmp(ctl.argv[ctl.cmd->max], "--", 2) == 0 ?
			" (options go before the command)" :
			"");
	rc = ctl.cmd->fn(&ctl);
	free(ctl.pos);
	free(ctl.info);
	hxd_close(ctl.conn);
	if (ctl.stdout_gone)
		return rc;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "hxctl: %s: cannot write the output: %s\n",
		    ctl.cmd->name, strerror(errno));
		return CTL_FAIL;
	}
	return rc;
}
