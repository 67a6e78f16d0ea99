/*
 * What the pieces of hxctl share: one run of it (struct ctl), the rows of
 * its command table and of its get views, and the functions one piece
 * lends the others, grouped by the file that defines them.  Each
 * function's contract is the comment above its definition.
 */
#ifndef HXCTL_COMMON_H
#define HXCTL_COMMON_H

#include <signal.h>
#include <stddef.h>
#include <stdio.h>

#include "haptixd.h"

/* Exit statuses. */
#define CTL_OK 0    /* done */
#define CTL_FAIL 1  /* the server, the connection or a local file said no */
#define CTL_USAGE 2 /* the command line is wrong; nothing was sent */

/* How long subscribe and --hold wait at most before looking at signals. */
#define CTL_POLL_MS 200

/* The longest object name NAME=V accepts. */
#define CTL_NAME_MAX 1024

/* Room for a label: "#ID", or a dof's "JOINT[K]" (a longer one is cut). */
#define CTL_LABEL_MAX 64

/* Rows of a table labelled by dof (a joint's name and index), not object. */
#define CTL_DOF (-1)

/* Readable number columns. */
#define NUM " %12.6g"
#define HDR " %12s"
#define HDR_WIDTH 12 /* of HDR and NUM, the space aside */

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
	int (*conn_call)(hxd_conn *); /* cmd_call: the call it makes */
	const struct ctl_view *view;  /* cmd_show: what it fetches and shows */
	void (*more)(FILE *);         /* more help after the usage, or NULL */
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

/* A get command: its call, its answer's members, and how to show them. */
struct ctl_view {
	/* The hxd_get_* call (caller frees), or NULL for a view only shown
	 * by a command that makes its own call. */
	int (*get)(hxd_conn *, void **);
	const char *type; /* its struct, whose members (hxd_members()) it
			     shows, in --json order after "time" */
	int rows; /* what a row of the table is: HXD_OBJ_*, or CTL_DOF */
	/* Print what the fields do not: the rest of the table; or NULL. */
	void (*print)(const struct ctl_view *, const hxd_info *, const void *);
	/* Write JSON members the fields do not (with the model's names;
	 * --json then fetches them); or NULL. */
	void (*json)(const hxd_info *, const void *);
};

/*------------------------------------------ hxctl_error.c: reporting */

int ctl_usage_error(struct ctl *, const char *, ...)
    __attribute__((format(printf, 2, 3)));
int ctl_error(struct ctl *, int, const char *, ...)
    __attribute__((format(printf, 3, 4)));
int ctl_fail(struct ctl *);
int ctl_done(struct ctl *, int);

/*-------------------------------------- hxctl_conn.c: the connection */

int ctl_connect(struct ctl *);
int ctl_get_info(struct ctl *);

/*------------------------------------- hxctl_json.c: the JSON writer */

void js_open(int);
void js_close(int);
void js_key(const char *);
void js_ints(const int *, int);
void js_kn(const char *, double);
void js_ki(const char *, long long);
void js_ku(const char *, unsigned long long);
void js_ks(const char *, const char *);
void js_s(const char *);
void js_kb(const char *, int);
void js_kv(const char *, const double *, int);
void js_null(void);
void js_knull(const char *);
void js_ok(void);

/*--------------------------------------- hxctl_args.c: the arguments */

int parse_double(const char *, double *);
int parse_long(const char *, long, long, long *);
int parse_list(const char *, double *, int, const char **);
const char *parse_assign(const char *, char *, size_t);
int ctl_object(struct ctl *, int, const char *, int *);
int ctl_name2id(struct ctl *, int, const char *, int *);
int ctl_done_named(struct ctl *, int, int, const char *);
int ctl_id_check(struct ctl *, int, int, int, const char *);
int ctl_objtype(struct ctl *, const char *, int *);
int ctl_numbers(struct ctl *, char **, int, double *);
int ctl_which(struct ctl *, const char *);
int ctl_options(struct ctl *, struct ctl_opt *, int);
int ctl_fill(struct ctl *, const struct ctl_opt *, const char *, double *, int);
int ctl_assign_options(struct ctl *, struct ctl_opt *, int, int, const char *);
int ctl_seconds(struct ctl *, const char *, const char *, double *);
int ctl_fields(struct ctl *, const char *, const char *, unsigned *);

/*--------------------------- hxctl_controls.c: controls as arguments */

int controls_check(struct ctl *, char **, int, int *);
int controls_build(struct ctl *, char **, int, int, hxd_control **);
int controls_named(
    struct ctl *, const struct ctl_opt *, char **, int, hxd_control **);

/*--------------------------------------------- hxctl_wait.c: signals */

/* Set by SIGINT or SIGTERM once ctl_signals() has caught them. */
extern volatile sig_atomic_t ctl_stopped;

void ctl_signals(void);
void ctl_hold(double);
int ctl_reader_gone(void);

/*-------------------------- hxctl_table.c: labels and number columns */

const char *table_enum_name(const char *const *, size_t, int);
const char *table_obj_label(const hxd_info *, int, int, char *, size_t);
const char *table_row_label(const hxd_info *, int, int, char *, size_t);
int table_label_width(const hxd_info *, int, int);

/* What an array's rows are, by its name (hxctl_array.c): HXD_OBJ_*, CTL_DOF, 0.
 */
int array_rows(const hxd_info *in, const char *name, int rows);
const char *const *table_names(const hxd_info *, int, int *);
int table_joint_width(int, int);
void table_put_nums(const double *, int);
void table_put_row(int, int, const char *, const double *, int);

/*----------------------------- hxctl_info.c: the model's description */

int cmd_info(struct ctl *);
const char *info_joint_type_name(int);
const char *info_sensor_type_name(int);

/*--------------------------------------------- hxctl_model.c: models */

int cmd_load(struct ctl *);
int cmd_reload(struct ctl *);
int cmd_model_dirs(struct ctl *);
int cmd_model(struct ctl *);
int cmd_edit(struct ctl *);
void model_json(const hxd_model *);
void model_print(const char *, const hxd_model *);

/*--------------------------------------- hxctl_view.c: the get views */

extern const struct ctl_view view_state, view_ctrl, view_applied, view_mocap,
    view_dynamics, view_sensor, view_bodies, view_geoms, view_sites,
    view_tendons, view_actuators, view_forces, view_contacts;

int cmd_show(struct ctl *);
/*
 * The name among names[0..n) nearest to a mistyped word, or NULL when
 * none is near enough (hxctl_suggest.c); ctl_mean() says it as
 * "; did you mean \"NAME\"?" or "" (a static buffer).
 */
const char *ctl_suggest(const char *word, const char *const *names, size_t n);
const char *ctl_mean(const char *word, const char *const *names, size_t n);

void view_show(struct ctl *, const struct ctl_view *, const void *);
void view_json(const struct ctl_view *, const hxd_info *, const void *);
void view_sensor_print(const struct ctl_view *, const hxd_info *, const void *);
void view_sensor_json(const hxd_info *, const void *);

/*------------------------------- hxctl_status.c: the server's status */

int cmd_status(struct ctl *);
void status_json(const hxd_status *);

/*------------------------------------ hxctl_set.c: setting the state */

int cmd_set_state(struct ctl *);
int cmd_set_ctrl(struct ctl *);
int cmd_set_applied(struct ctl *);
int cmd_body(struct ctl *);
int cmd_set_body(struct ctl *);
int cmd_set_mocap(struct ctl *);

/*------------------------------------------ hxctl_joint.c: one joint */

int cmd_joint(struct ctl *);
int cmd_set_joint(struct ctl *);

/*------------------------- hxctl_hold.c: joints held on a path */

int cmd_hold(struct ctl *);
int cmd_holds(struct ctl *);

/*------------------ hxctl_world.c: the World API's forces and camera */

int cmd_world_force(struct ctl *);
int cmd_camera(struct ctl *);
int cmd_collide_mode(struct ctl *);

/*-------------------------- hxctl_object.c: objects, and the message */

int cmd_geomsize(struct ctl *);
int cmd_rgba(struct ctl *);
int cmd_name2id(struct ctl *);
int cmd_id2name(struct ctl *);
int cmd_equality(struct ctl *);
int cmd_message(struct ctl *);

/*------------------------------- hxctl_run.c: running the simulation */

int cmd_step(struct ctl *);
int cmd_run(struct ctl *);
int cmd_update(struct ctl *);
int cmd_reset(struct ctl *);
int cmd_capture(struct ctl *);
int cmd_speed(struct ctl *);

/*------------------------------------- hxctl_simple.c: the simple API */

int cmd_robot(struct ctl *);
int cmd_hx_update(struct ctl *);

/*------------------------ hxctl_clients.c: the clients and the lease */

int cmd_clients(struct ctl *);
int cmd_lease(struct ctl *);
int cmd_record(struct ctl *);
int cmd_history(struct ctl *);
void recording_json(const hxd_recording *);
void client_json(const hxd_client *, unsigned long long);
void lease_json(const hxd_lease_info *);

/*------------------------- hxctl_driver.c: tracking, perturbations */

int cmd_tracking(struct ctl *);
void tracking_json(const hxd_tracking *);
void perturbation_json(const hxd_perturbation *);
void drivers_status_json(const hxd_status *);
void drivers_status_print(const hxd_status *);

/*-------------------------------- hxctl_stream.c: streams and events */

int cmd_subscribe(struct ctl *);
void stream_frame_json(const hxd_frame *, unsigned, int);

/*------------------------------------- hxctl_array.c: arrays by name */

int cmd_arrays(struct ctl *);
int cmd_get(struct ctl *);
int cmd_set(struct ctl *);

/*------------------------------- hxctl_compute.c: MuJoCo's computations */

int cmd_compute(struct ctl *);
void compute_help(FILE *);

#endif /* HXCTL_COMMON_H */
