/*
 * hxctl: the command-line client of haptixd.
 *
 * One command per call of haptixd.h, each a row in ctl_cmds[] with its
 * argument synopsis, its help line and its handler.  A handler checks
 * its arguments before it connects, connects on first need, prints a
 * table (or one JSON object with --json) and returns the exit status.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
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

/* The largest model file --inline sends: the library's frame limit. */
#define CTL_INLINE_MAX (256L * 1024 * 1024)

/* The longest object name NAME=V accepts. */
#define CTL_NAME_MAX 1024

/* Readable number columns. */
#define NUM " %12.6g"
#define HDR " %12s"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* One run of hxctl: the global options and the command being run. */
struct ctl {
	const char *server; /* --server, or NULL for the default */
	int json;           /* --json */
	int timeout_ms;     /* --timeout, or -1 for the library's */
	const struct ctl_cmd *cmd;
	int argc; /* the command's own arguments */
	char **argv;
	hxd_conn *conn; /* connected on first need */
	hxd_info *info; /* fetched on first need */
};

/* A command: a row of the table that --help and dispatch both read. */
struct ctl_cmd {
	const char *name;
	const char *args;  /* argument synopsis */
	const char *help;  /* what it does; '\n' continues the line */
	const char *group; /* heading in --help */
	int min, max;      /* argument counts, options included; -1: any */
	int (*fn)(struct ctl *);
};

/* What a command option takes. */
enum ctl_opt_kind {
	OPT_FLAG,   /* nothing */
	OPT_STRING, /* one word */
	OPT_LIST,   /* comma-separated finite numbers */
};

/* A command option, and what the command line gave for it. */
struct ctl_opt {
	const char *name; /* "--pos" */
	enum ctl_opt_kind kind;
	int want;          /* OPT_LIST: values required, 0 for any number */
	const char *value; /* OPT_STRING, OPT_LIST: the text given */
	int given;
	int count; /* OPT_LIST: values in value */
};

/* Where the JSON writer is: a comma goes between values at each depth. */
static struct {
	int depth;
	int count[16]; /* values written at each depth; nesting stays shallow */
	int keyed;     /* a key was just written: its value needs no comma */
} js;

static int cmd_info(struct ctl *);
static int cmd_status(struct ctl *);
static int cmd_state(struct ctl *);
static int cmd_ctrl(struct ctl *);
static int cmd_applied(struct ctl *);
static int cmd_body(struct ctl *);
static int cmd_mocap(struct ctl *);
static int cmd_dynamics(struct ctl *);
static int cmd_sensor(struct ctl *);
static int cmd_bodies(struct ctl *);
static int cmd_geoms(struct ctl *);
static int cmd_sites(struct ctl *);
static int cmd_tendons(struct ctl *);
static int cmd_actuators(struct ctl *);
static int cmd_forces(struct ctl *);
static int cmd_contacts(struct ctl *);
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
static int cmd_step(struct ctl *);
static int cmd_update(struct ctl *);
static int cmd_reset(struct ctl *);
static int cmd_pause(struct ctl *);
static int cmd_run(struct ctl *);
static int cmd_speed(struct ctl *);
static int cmd_load(struct ctl *);
static int cmd_reload(struct ctl *);
static int cmd_help(struct ctl *);

static void js_sep(void);
static void js_open(int);
static void js_close(int);
static void js_quote(const char *);
static void js_key(const char *);
static void js_num(double);
static void js_int(long long);
static void js_str(const char *);
static void js_bool(int);
static void js_nums(const double *, int);
static void js_ints(const int *, int);
static void js_kn(const char *, double);
static void js_ki(const char *, long long);
static void js_ku(const char *, unsigned long long);
static void js_ks(const char *, const char *);
static void js_kb(const char *, int);
static void js_kv(const char *, const double *, int);
static void js_ok(void);
static void js_model(const hxd_model *);

static int parse_double(const char *, double *);
static int parse_long(const char *, long, long, long *);
static int parse_list(const char *, double *, int, const char **, int *);
static const char *split_assign(const char *, char *, size_t);

static int ctl_usage_error(struct ctl *, const char *, ...)
    __attribute__((format(printf, 2, 3)));
static int ctl_error(struct ctl *, int, const char *, ...)
    __attribute__((format(printf, 3, 4)));
static int ctl_fail(struct ctl *);
static int ctl_connect(struct ctl *);
static int ctl_get_info(struct ctl *);
static int ctl_object(struct ctl *, int, const char *, int *);
static int ctl_objtype(struct ctl *, const char *, int *);
static int ctl_options(struct ctl *, struct ctl_opt *, int, char **, int *);
static struct ctl_opt *ctl_opt_find(struct ctl_opt *, int, const char *);
static int ctl_fill(
    struct ctl *, const struct ctl_opt *, const char *, double *, int);
static int ctl_check_assigns(struct ctl *, char **, int, int, const char *);
static int controls_check(struct ctl *, char **, int, int *);
static int controls_build(struct ctl *, char **, int, int, hxd_control **);

static const char *enum_name(const char *const *, size_t, int);
static const char *joint_type_name(int);
static const char *trn_type_name(int);
static int joint_width(int, int);
static const char *const *info_names(const hxd_info *, int, int *);
static const char *obj_label(const hxd_info *, int, int, char *, size_t);
static int label_width(const hxd_info *, int, int);
static void put_nums(const double *, int);
static void put_row(int, int, const char *, const double *, int);
static void print_by_joint(
    const char *, const hxd_info *, const double *, int, int);
static void print_by_actuator(
    const char *, const hxd_info *, const double *, int, int);
static const char *dof_label(const hxd_info *, int, char *, size_t);
static void info_json(const hxd_info *);
static void info_print(const hxd_info *);
static void sensor_show(const hxd_info *, const hxd_sensor *, int);
static int poses_show(struct ctl *, int (*)(hxd_conn *, hxd_poses **), int);
static void model_print(const char *, const hxd_model *);
static int read_local(const char *, unsigned char **, size_t *);
static int format_parse(const char *);
static int format_from_suffix(const char *);

static const struct ctl_cmd *ctl_find(const char *);
static void ctl_usage(FILE *);
static void ctl_cmd_help(FILE *, const struct ctl_cmd *);

/* Headings of --help. */
static const char G_READ[] = "Reading the simulation";
static const char G_WRITE[] = "Changing the simulation";
static const char G_SIM[] = "Running the simulation";
static const char G_MODEL[] = "Models";

static const struct ctl_cmd ctl_cmds[] = {
	{ "info", "", "the model: sizes and every named object", G_READ, 0, 0,
	    cmd_info },
	{ "status", "",
	    "the server: model, paused or running, time,\n"
	    "speed, load, energy, clients, message",
	    G_READ, 0, 0, cmd_status },
	{ "state", "", "time, qpos, qvel and act, by joint", G_READ, 0, 0,
	    cmd_state },
	{ "ctrl", "", "the controls, by actuator", G_READ, 0, 0, cmd_ctrl },
	{ "applied", "",
	    "the applied forces: qfrc_applied by joint,\n"
	    "xfrc_applied (force, torque) by body",
	    G_READ, 0, 0, cmd_applied },
	{ "body", "ID|NAME",
	    "one body: pose, velocities, accelerations,\n"
	    "contact force, applied force and torque",
	    G_READ, 1, 1, cmd_body },
	{ "mocap", "", "the mocap bodies' positions and quaternions", G_READ, 0,
	    0, cmd_mocap },
	{ "dynamics", "", "qacc by joint and act_dot by actuator", G_READ, 0, 0,
	    cmd_dynamics },
	{ "sensor", "", "the sensor data, by sensor", G_READ, 0, 0,
	    cmd_sensor },
	{ "bodies", "", "every body's position and rotation matrix", G_READ, 0,
	    0, cmd_bodies },
	{ "geoms", "", "every geom's position and rotation matrix", G_READ, 0,
	    0, cmd_geoms },
	{ "sites", "", "every site's position and rotation matrix", G_READ, 0,
	    0, cmd_sites },
	{ "tendons", "", "tendon lengths and velocities", G_READ, 0, 0,
	    cmd_tendons },
	{ "actuators", "", "actuator lengths, velocities and forces", G_READ, 0,
	    0, cmd_actuators },
	{ "forces", "",
	    "generalized forces by dof: applied, passive,\n"
	    "bias, actuator, constraint, and nonconstraint\n"
	    "(applied + passive + actuator - bias)",
	    G_READ, 0, 0, cmd_forces },
	{ "contacts", "",
	    "the contacts: geoms, distance, position, force\n"
	    "in the contact frame, normal",
	    G_READ, 0, 0, cmd_contacts },
	{ "rgba", "TYPE ID|NAME [R G B A]",
	    "show the colour of a geom, site, tendon or\n"
	    "material, or set it (clamped to [0, 1])",
	    G_READ, 2, 6, cmd_rgba },
	{ "name2id", "TYPE NAME", "print an object's id; an unknown name fails",
	    G_READ, 2, 2, cmd_name2id },
	{ "id2name", "TYPE ID", "print an object's name (empty if unnamed)",
	    G_READ, 2, 2, cmd_id2name },

	{ "set-state",
	    "[--qpos LIST] [--qvel LIST] [--act LIST] [JOINT=LIST]...",
	    "set qpos (nq values), qvel (nv), act (na) or\n"
	    "one joint's qpos; the rest keeps its value",
	    G_WRITE, 1, -1, cmd_set_state },
	{ "set-ctrl", "V... | NAME=V...",
	    "set all nu controls, or the named ones (the\n"
	    "others keep their values)",
	    G_WRITE, 1, -1, cmd_set_ctrl },
	{ "set-applied", "[--clear] [--qfrc LIST] [--xfrc LIST] [BODY=LIST]...",
	    "set qfrc_applied (nv values), xfrc_applied\n"
	    "(6 per body) or one body's FX,FY,FZ,TX,TY,TZ;\n"
	    "--clear zeroes all first; the rest keeps its\n"
	    "value",
	    G_WRITE, 1, -1, cmd_set_applied },
	{ "set-body",
	    "ID|NAME [--pos|--quat|--linvel|--angvel|--force|--torque LIST]...",
	    "set quantities of one body: pos (3 values),\n"
	    "quat (4), linvel, angvel (3; these four for\n"
	    "floating bodies only), force, torque (3)",
	    G_WRITE, 1, -1, cmd_set_body },
	{ "set-mocap", "ID|NAME [--pos X,Y,Z] [--quat W,X,Y,Z]",
	    "move a mocap body", G_WRITE, 1, 5, cmd_set_mocap },
	{ "geomsize", "ID|NAME X Y Z", "set a geom's size, as in MJCF", G_WRITE,
	    4, 4, cmd_geomsize },
	{ "equality", "ID|NAME on|off",
	    "enable or disable an equality constraint", G_WRITE, 2, 2,
	    cmd_equality },
	{ "message", "[--hold S] [TEXT...]",
	    "show a message on the server's viewers, or\n"
	    "with none clear it; the server drops it when\n"
	    "hxctl disconnects, so --hold stays connected S\n"
	    "seconds (0: until hxctl is killed)",
	    G_WRITE, 0, -1, cmd_message },

	{ "step", "[N]",
	    "while paused, take N steps (default 1); while\n"
	    "running, do nothing",
	    G_SIM, 0, 1, cmd_step },
	{ "update", "[V... | NAME=V...]",
	    "set the controls if given, then take a step\n"
	    "(paused) or wait for the next API tick\n"
	    "(running); print the sensor data",
	    G_SIM, 0, -1, cmd_update },
	{ "reset", "[KEY]",
	    "reset to a keyframe (index or name), or with\n"
	    "none to the reference configuration",
	    G_SIM, 0, 1, cmd_reset },
	{ "pause", "", "pause the simulation", G_SIM, 0, 0, cmd_pause },
	{ "run", "", "run the simulation", G_SIM, 0, 0, cmd_run },
	{ "speed", "X|max",
	    "set the speed factor (1 is real time), or run\n"
	    "as fast as possible",
	    G_SIM, 1, 1, cmd_speed },

	{ "load", "FILE | --inline LOCALFILE [--format F] [--name NAME]",
	    "load FILE from the server's model directories,\n"
	    "or send LOCALFILE; F is mjcf, urdf, mjb or\n"
	    "auto (default: from the suffix .xml, .urdf or\n"
	    ".mjb, else auto)",
	    G_MODEL, 1, -1, cmd_load },
	{ "reload", "", "reload the current model from its file", G_MODEL, 0, 0,
	    cmd_reload },
	{ "help", "[COMMAND]", "show this help, or one command's", G_MODEL, 0,
	    1, cmd_help },
};

/* HAPTIX's sensor type numbers (haptix.proto's SensorType), by name. */
static const char *const sensor_types[] = {
	"touch",
	"accelerometer",
	"velocimeter",
	"gyro",
	"force",
	"torque",
	"magnetometer",
	"rangefinder",
	"jointpos",
	"jointvel",
	"tendonpos",
	"tendonvel",
	"actuatorpos",
	"actuatorvel",
	"actuatorfrc",
	"ballquat",
	"ballangvel",
	"framepos",
	"framequat",
	"framexaxis",
	"frameyaxis",
	"framezaxis",
	"framelinvel",
	"frameangvel",
	"framelinacc",
	"frameangacc",
	"subtreecom",
	"subtreelinvel",
	"subtreeangmom",
	"user",
	"jointlimitpos",
	"jointlimitvel",
	"jointlimitfrc",
	"tendonlimitpos",
	"tendonlimitvel",
	"tendonlimitfrc",
	"clock",
};

static const char *const sensor_datatypes[] = {
	"real",
	"positive",
	"axis",
	"quaternion",
};

static const char *const joint_types[] = { "free", "ball", "slide", "hinge" };

static const char *const geom_types[] = {
	"plane",
	"hfield",
	"sphere",
	"capsule",
	"ellipsoid",
	"cylinder",
	"box",
	"mesh",
};

static const char *const trn_types[] = {
	"joint",
	"jointinparent",
	"slidercrank",
	"tendon",
	"site",
	"body",
};

static const char *const eq_types[] = {
	"connect",
	"weld",
	"joint",
	"tendon",
	"distance",
};

/*---------------------------------------------------------------- JSON */

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

/* Close an object or array; the outermost one ends the line. */
static void
js_close(int ch)
{
	putchar(ch);
	js.depth--;
	if (js.depth == 0)
		putchar('\n');
}

/* Write s as a JSON string. */
static void
js_quote(const char *s)
{
	const unsigned char *p;

	putchar('"');
	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", stdout);
			break;
		case '\\':
			fputs("\\\\", stdout);
			break;
		case '\n':
			fputs("\\n", stdout);
			break;
		case '\r':
			fputs("\\r", stdout);
			break;
		case '\t':
			fputs("\\t", stdout);
			break;
		default:
			if (*p < 0x20)
				printf("\\u%04x", *p);
			else
				putchar(*p);
			break;
		}
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

/* Write a string value. */
static void
js_str(const char *s)
{
	js_sep();
	js_quote(s);
}

/* Write true or false. */
static void
js_bool(int v)
{
	js_sep();
	fputs(v ? "true" : "false", stdout);
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
	js_str(v);
}

/* Write a key and a boolean. */
static void
js_kb(const char *k, int v)
{
	js_key(k);
	js_bool(v);
}

/* Write a key and an array of n numbers. */
static void
js_kv(const char *k, const double *v, int n)
{
	js_key(k);
	js_nums(v, n);
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
	js_open('{');
	js_ks("name", m->name);
	js_ks("path", m->path);
	js_ki("nq", m->nq);
	js_ki("nv", m->nv);
	js_ki("na", m->na);
	js_ki("nu", m->nu);
	js_ki("nbody", m->nbody);
	js_ki("njnt", m->njnt);
	js_ki("ngeom", m->ngeom);
	js_ki("nsite", m->nsite);
	js_ki("ntendon", m->ntendon);
	js_ki("neq", m->neq);
	js_ki("nkey", m->nkey);
	js_ki("nmocap", m->nmocap);
	js_ki("nsensor", m->nsensor);
	js_ki("nsensordata", m->nsensordata);
	js_ki("nmat", m->nmat);
	js_kn("timestep", m->timestep);
	js_kn("apirate", m->apirate);
	js_close('}');
}

/*---------------------------------------------------------------- parsing */

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
 * with *bad and *badlen naming the element that is not a number.
 */
static int
parse_list(const char *s, double *out, int max, const char **bad, int *badlen)
{
	char buf[128];
	const char *p = s, *comma;
	size_t len;
	double v;
	int n = 0;

	for (;;) {
		comma = strchr(p, ',');
		len = comma != NULL ? (size_t)(comma - p) : strlen(p);
		*bad = p;
		*badlen = (int)(len < INT_MAX ? len : INT_MAX);
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

/*---------------------------------------------------------------- reporting */

/* Report a mistake on the command line; returns CTL_USAGE. */
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

/*---------------------------------------------------------------- connection */

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
	int rc;

	if (parse_long(arg, INT_MIN, INT_MAX, &v) == 0) {
		*id = (int)v;
		return CTL_OK;
	}
	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_name2id(ctl->conn, type, arg, id) != HXD_OK)
		return ctl_fail(ctl);
	if (*id < 0)
		return ctl_error(ctl, HXD_BADINDEX, "no %s named \"%s\"",
		    hxd_obj_name(type), arg);
	return CTL_OK;
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
		    "'%s' is not an object type (body, "
		    "joint, geom, site, tendon, actuator, sensor, equality, "
		    "key, material, ...)",
		    arg);
	return CTL_OK;
}

/*---------------------------------------------------------------- options */

/* Find the option called name (without any "=value"), or NULL. */
static struct ctl_opt *
ctl_opt_find(struct ctl_opt *opts, int nopts, const char *name)
{
	size_t len = strcspn(name, "=");
	int i;

	for (i = 0; i < nopts; i++) {
		if (strlen(opts[i].name) == len &&
		    strncmp(opts[i].name, name, len) == 0)
			return &opts[i];
	}
	return NULL;
}

/*
 * Sort the command's arguments into the options in opts ("--name V" or
 * "--name=V") and positional arguments (into pos, room for ctl->argc),
 * checking every number list.  Returns 0 or CTL_USAGE.
 */
static int
ctl_options(
    struct ctl *ctl, struct ctl_opt *opts, int nopts, char **pos, int *npos)
{
	struct ctl_opt *o;
	const char *a, *v, *bad;
	int i, n, badlen, rest = 0;

	*npos = 0;
	for (i = 0; i < ctl->argc; i++) {
		a = ctl->argv[i];
		if (rest || strncmp(a, "--", 2) != 0) {
			pos[(*npos)++] = ctl->argv[i];
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
				return ctl_usage_error(ctl,
				    "%s goes before "
				    "the command",
				    a);
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
		if (o->kind != OPT_LIST)
			continue;
		n = parse_list(v, NULL, 0, &bad, &badlen);
		if (n < 0)
			return ctl_usage_error(ctl,
			    "%s: '%.*s' is not a "
			    "finite number",
			    o->name, badlen, bad);
		if (o->want > 0 && n != o->want)
			return ctl_usage_error(ctl,
			    "%s takes %d numbers, "
			    "not %d",
			    o->name, o->want, n);
		o->count = n;
	}
	return CTL_OK;
}

/*
 * Copy a list option's values into dst, which has room for want; the
 * count must match what the model has.  Returns 0 or CTL_FAIL.
 */
static int
ctl_fill(struct ctl *ctl, const struct ctl_opt *o, const char *what,
    double *dst, int want)
{
	const char *bad;
	int badlen;

	if (o->count != want)
		return ctl_error(ctl, HXD_BADSIZE,
		    "%s has %d values, but the "
		    "model has %s = %d",
		    o->name, o->count, what, want);
	parse_list(o->value, dst, want, &bad, &badlen);
	return CTL_OK;
}

/*
 * Check positional NAME=LIST arguments: each has a name and want numbers
 * (0: any).  Returns 0 or CTL_USAGE.
 */
static int
ctl_check_assigns(
    struct ctl *ctl, char **args, int n, int want, const char *form)
{
	char name[CTL_NAME_MAX];
	const char *v, *bad;
	int i, count, badlen;

	for (i = 0; i < n; i++) {
		if ((v = split_assign(args[i], name, sizeof(name))) == NULL)
			return ctl_usage_error(
			    ctl, "'%s' is not %s", args[i], form);
		count = parse_list(v, NULL, 0, &bad, &badlen);
		if (count < 0)
			return ctl_usage_error(ctl,
			    "%s: '%.*s' is not a "
			    "finite number",
			    name, badlen, bad);
		if (want > 0 && count != want)
			return ctl_usage_error(ctl,
			    "%s takes %d numbers, "
			    "not %d",
			    name, want, count);
	}
	return CTL_OK;
}

/*---------------------------------------------------------------- controls */

/*
 * Check control arguments: all numbers, or all NAME=V.  Sets *named.
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
			    "'%s' is neither a finite "
			    "number nor NAME=V",
			    args[i]);
		if (parse_double(v, &x) != 0)
			return ctl_usage_error(ctl,
			    "%s: '%s' is not a finite "
			    "number",
			    name, v);
	}
	if (nnum != 0 && nnum != n)
		return ctl_usage_error(ctl,
		    "give either all nu values or "
		    "NAME=V pairs, not both");
	*named = n > 0 && nnum == 0;
	return CTL_OK;
}

/*
 * Build the controls from checked arguments: exactly nu numbers, or the
 * current controls with the named ones changed.  Caller frees *out.
 * Returns 0 or CTL_FAIL.
 */
static int
controls_build(
    struct ctl *ctl, char **args, int n, int named, hxd_control **out)
{
	char name[CTL_NAME_MAX];
	const char *v;
	hxd_control *c;
	int i, id, rc;

	*out = NULL;
	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_get_control(ctl->conn, &c) != HXD_OK)
		return ctl_fail(ctl);
	if (!named && n != c->nu) {
		rc = ctl_error(ctl, HXD_BADSIZE,
		    "%d control value%s given, "
		    "but the model has nu = %d",
		    n, n == 1 ? "" : "s", c->nu);
		free(c);
		return rc;
	}
	for (i = 0; i < n; i++) {
		if (!named) {
			parse_double(args[i], &c->ctrl[i]);
			continue;
		}
		v = split_assign(args[i], name, sizeof(name));
		if ((rc = ctl_object(ctl, HXD_OBJ_ACTUATOR, name, &id)) != 0) {
			free(c);
			return rc;
		}
		if (id < 0 || id >= c->nu) {
			rc = ctl_error(ctl, HXD_BADINDEX,
			    "actuator id %d is "
			    "out of range (the model has nu = %d)",
			    id, c->nu);
			free(c);
			return rc;
		}
		parse_double(v, &c->ctrl[id]);
	}
	*out = c;
	return CTL_OK;
}

/*---------------------------------------------------------------- labels */

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
	const hxd_model *m = &in->model;

	switch (type) {
	case HXD_OBJ_BODY:
	case HXD_OBJ_XBODY:
		*n = m->nbody;
		return in->body_name;
	case HXD_OBJ_JOINT:
		*n = m->njnt;
		return in->jnt_name;
	case HXD_OBJ_GEOM:
		*n = m->ngeom;
		return in->geom_name;
	case HXD_OBJ_SITE:
		*n = m->nsite;
		return in->site_name;
	case HXD_OBJ_TENDON:
		*n = m->ntendon;
		return in->tendon_name;
	case HXD_OBJ_ACTUATOR:
		*n = m->nu;
		return in->actuator_name;
	case HXD_OBJ_SENSOR:
		*n = m->nsensor;
		return in->sensor_name;
	case HXD_OBJ_EQUALITY:
		*n = m->neq;
		return in->eq_name;
	case HXD_OBJ_KEY:
		*n = m->nkey;
		return in->key_name;
	case HXD_OBJ_MATERIAL:
		*n = m->nmat;
		return in->mat_name;
	default:
		*n = 0;
		return NULL;
	}
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

/* The width of the widest label of count objects of type. */
static int
label_width(const hxd_info *in, int type, int count)
{
	char buf[32];
	int i, w = 4, n;

	for (i = 0; i < count; i++) {
		n = (int)strlen(obj_label(in, type, i, buf, sizeof(buf)));
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
	char buf[32];
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

/*
 * Print a vector of the last n actuators (n = nu for controls, na for
 * activations) one actuator per row.
 */
static void
print_by_actuator(
    const char *title, const hxd_info *in, const double *v, int n, int nu)
{
	char buf[32];
	int i, first = nu - n, width;

	if (title != NULL)
		printf("%s\n", title);
	if (in == NULL || in->model.nu != nu || first < 0)
		first = 0;
	width = label_width(in, HXD_OBJ_ACTUATOR, first + n);
	for (i = 0; i < n; i++)
		put_row(first + i, width,
		    obj_label(
			in, HXD_OBJ_ACTUATOR, first + i, buf, sizeof(buf)),
		    v + i, 1);
}

/* The label of dof i: its joint's name, with the index inside a joint. */
static const char *
dof_label(const hxd_info *in, int i, char *buf, size_t len)
{
	char nb[32];
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

/*---------------------------------------------------------------- info */

/* Write the model's description as one JSON object. */
static void
info_json(const hxd_info *in)
{
	const hxd_model *m = &in->model;
	int i, t;

	js_open('{');
	js_key("model");
	js_model(m);
	js_key("bodies");
	js_open('[');
	for (i = 0; i < m->nbody; i++) {
		js_open('{');
		js_ks("name", in->body_name[i]);
		js_ki("parent", in->body_parentid[i]);
		js_ki("mocapid", in->body_mocapid[i]);
		js_close('}');
	}
	js_close(']');
	js_key("joints");
	js_open('[');
	for (i = 0; i < m->njnt; i++) {
		js_open('{');
		js_ks("name", in->jnt_name[i]);
		js_ks("type", joint_type_name(in->jnt_type[i]));
		js_ki("body", in->jnt_bodyid[i]);
		js_ki("qposadr", in->jnt_qposadr[i]);
		js_ki("dofadr", in->jnt_dofadr[i]);
		js_kb("limited", in->jnt_limited[i]);
		js_kv("range", in->jnt_range + 2 * i, 2);
		js_close('}');
	}
	js_close(']');
	js_key("geoms");
	js_open('[');
	for (i = 0; i < m->ngeom; i++) {
		js_open('{');
		js_ks("name", in->geom_name[i]);
		js_ks("type",
		    enum_name(geom_types, NELEM(geom_types), in->geom_type[i]));
		js_ki("body", in->geom_bodyid[i]);
		js_close('}');
	}
	js_close(']');
	js_key("sites");
	js_open('[');
	for (i = 0; i < m->nsite; i++) {
		js_open('{');
		js_ks("name", in->site_name[i]);
		js_close('}');
	}
	js_close(']');
	js_key("tendons");
	js_open('[');
	for (i = 0; i < m->ntendon; i++) {
		js_open('{');
		js_ks("name", in->tendon_name[i]);
		js_close('}');
	}
	js_close(']');
	js_key("actuators");
	js_open('[');
	for (i = 0; i < m->nu; i++) {
		js_open('{');
		js_ks("name", in->actuator_name[i]);
		js_ks("trntype", trn_type_name(in->actuator_trntype[i]));
		js_key("trnid");
		js_ints(in->actuator_trnid + 2 * i, 2);
		js_kb("ctrllimited", in->actuator_ctrllimited[i]);
		js_kv("ctrlrange", in->actuator_ctrlrange + 2 * i, 2);
		js_close('}');
	}
	js_close(']');
	js_key("sensors");
	js_open('[');
	for (i = 0; i < m->nsensor; i++) {
		js_open('{');
		js_ks("name", in->sensor_name[i]);
		js_ks("type",
		    enum_name(
			sensor_types, NELEM(sensor_types), in->sensor_type[i]));
		js_ks("datatype",
		    enum_name(sensor_datatypes, NELEM(sensor_datatypes),
			in->sensor_datatype[i]));
		t = in->sensor_objtype[i];
		js_ks(
		    "objtype", t == HXD_OBJ_UNKNOWN ? "none" : hxd_obj_name(t));
		js_ki("objid", in->sensor_objid[i]);
		js_ki("dim", in->sensor_dim[i]);
		js_ki("adr", in->sensor_adr[i]);
		js_kn("noise", in->sensor_noise[i]);
		js_close('}');
	}
	js_close(']');
	js_key("equalities");
	js_open('[');
	for (i = 0; i < m->neq; i++) {
		js_open('{');
		js_ks("name", in->eq_name[i]);
		js_ks("type",
		    enum_name(eq_types, NELEM(eq_types), in->eq_type[i]));
		js_ki("obj1id", in->eq_obj1id[i]);
		js_ki("obj2id", in->eq_obj2id[i]);
		js_close('}');
	}
	js_close(']');
	js_key("keyframes");
	js_open('[');
	for (i = 0; i < m->nkey; i++) {
		js_open('{');
		js_ks("name", in->key_name[i]);
		js_close('}');
	}
	js_close(']');
	js_key("materials");
	js_open('[');
	for (i = 0; i < m->nmat; i++) {
		js_open('{');
		js_ks("name", in->mat_name[i]);
		js_close('}');
	}
	js_close(']');
	js_close('}');
}

/* Print the sizes and timing of a model, after a heading for its name. */
static void
model_print(const char *heading, const hxd_model *m)
{
	printf(
	    "%-10s %s\n", heading, m->name[0] != '\0' ? m->name : "(unnamed)");
	printf("%-10s %s\n", "path",
	    m->path[0] != '\0' ? m->path : "(sent inline)");
	printf("%-10s %g s, API rate %g Hz\n", "timestep", m->timestep,
	    m->apirate);
	printf("%-10s nq %d, nv %d, na %d, nu %d, nbody %d, njnt %d, "
	       "ngeom %d, nsite %d,\n",
	    "sizes", m->nq, m->nv, m->na, m->nu, m->nbody, m->njnt, m->ngeom,
	    m->nsite);
	printf("%-10s ntendon %d, neq %d, nkey %d, nmocap %d, nsensor %d, "
	       "nsensordata %d, nmat %d\n",
	    "", m->ntendon, m->neq, m->nkey, m->nmocap, m->nsensor,
	    m->nsensordata, m->nmat);
}

/* Print the model's description as tables. */
static void
info_print(const hxd_info *in)
{
	const hxd_model *m = &in->model;
	char b1[32], b2[32], b3[32];
	int i, w, t;

	model_print("model", m);
	if (m->nbody > 0) {
		w = label_width(in, HXD_OBJ_BODY, m->nbody);
		printf("\nbodies\n%4s  %-*s  %-*s  %s\n", "id", w, "name", w,
		    "parent", "mocap");
		for (i = 0; i < m->nbody; i++)
			printf("%4d  %-*s  %-*s  %s\n", i, w,
			    obj_label(in, HXD_OBJ_BODY, i, b1, sizeof(b1)), w,
			    i == 0 ? "-" :
				     obj_label(in, HXD_OBJ_BODY,
					 in->body_parentid[i], b2, sizeof(b2)),
			    in->body_mocapid[i] >= 0 ? "yes" : "-");
	}
	if (m->njnt > 0) {
		w = label_width(in, HXD_OBJ_JOINT, m->njnt);
		printf("\njoints\n%4s  %-*s  %-5s  %4s  %4s  %-12s %s\n", "id",
		    w, "name", "type", "qpos", "dof", "body", "range");
		for (i = 0; i < m->njnt; i++) {
			printf("%4d  %-*s  %-5s  %4d  %4d  %-12s", i, w,
			    obj_label(in, HXD_OBJ_JOINT, i, b1, sizeof(b1)),
			    joint_type_name(in->jnt_type[i]),
			    in->jnt_qposadr[i], in->jnt_dofadr[i],
			    obj_label(in, HXD_OBJ_BODY, in->jnt_bodyid[i], b2,
				sizeof(b2)));
			if (in->jnt_limited[i])
				printf(" [%g, %g]", in->jnt_range[2 * i],
				    in->jnt_range[2 * i + 1]);
			else
				printf(" -");
			putchar('\n');
		}
	}
	if (m->ngeom > 0) {
		w = label_width(in, HXD_OBJ_GEOM, m->ngeom);
		printf("\ngeoms\n%4s  %-*s  %-9s  %s\n", "id", w, "name",
		    "type", "body");
		for (i = 0; i < m->ngeom; i++)
			printf("%4d  %-*s  %-9s  %s\n", i, w,
			    obj_label(in, HXD_OBJ_GEOM, i, b1, sizeof(b1)),
			    enum_name(geom_types, NELEM(geom_types),
				in->geom_type[i]),
			    obj_label(in, HXD_OBJ_BODY, in->geom_bodyid[i], b2,
				sizeof(b2)));
	}
	if (m->nsite > 0) {
		printf("\nsites\n%4s  %s\n", "id", "name");
		for (i = 0; i < m->nsite; i++)
			printf("%4d  %s\n", i,
			    obj_label(in, HXD_OBJ_SITE, i, b1, sizeof(b1)));
	}
	if (m->ntendon > 0) {
		printf("\ntendons\n%4s  %s\n", "id", "name");
		for (i = 0; i < m->ntendon; i++)
			printf("%4d  %s\n", i,
			    obj_label(in, HXD_OBJ_TENDON, i, b1, sizeof(b1)));
	}
	if (m->nu > 0) {
		w = label_width(in, HXD_OBJ_ACTUATOR, m->nu);
		printf("\nactuators\n%4s  %-*s  %-18s  %s\n", "id", w, "name",
		    "ctrlrange", "transmission");
		for (i = 0; i < m->nu; i++) {
			t = in->actuator_trntype[i];
			if (in->actuator_ctrllimited[i])
				snprintf(b3, sizeof(b3), "[%g, %g]",
				    in->actuator_ctrlrange[2 * i],
				    in->actuator_ctrlrange[2 * i + 1]);
			else
				snprintf(b3, sizeof(b3), "-");
			printf("%4d  %-*s  %-18s  %s %s\n", i, w,
			    obj_label(in, HXD_OBJ_ACTUATOR, i, b1, sizeof(b1)),
			    b3, trn_type_name(t),
			    obj_label(in,
				t == 3     ? HXD_OBJ_TENDON :
				    t == 4 ? HXD_OBJ_SITE :
				    t == 5 ? HXD_OBJ_BODY :
					     HXD_OBJ_JOINT,
				in->actuator_trnid[2 * i], b2, sizeof(b2)));
		}
	}
	if (m->nsensor > 0) {
		w = label_width(in, HXD_OBJ_SENSOR, m->nsensor);
		printf("\nsensors\n%4s  %-*s  %-14s  %3s  %4s  %s\n", "id", w,
		    "name", "type", "dim", "adr", "object");
		for (i = 0; i < m->nsensor; i++) {
			t = in->sensor_objtype[i];
			printf("%4d  %-*s  %-14s  %3d  %4d  ", i, w,
			    obj_label(in, HXD_OBJ_SENSOR, i, b1, sizeof(b1)),
			    enum_name(sensor_types, NELEM(sensor_types),
				in->sensor_type[i]),
			    in->sensor_dim[i], in->sensor_adr[i]);
			if (t == HXD_OBJ_UNKNOWN)
				printf("-");
			else
				printf("%s %s", hxd_obj_name(t),
				    obj_label(in, t, in->sensor_objid[i], b2,
					sizeof(b2)));
			if (in->sensor_noise[i] != 0)
				printf(", noise %g", in->sensor_noise[i]);
			putchar('\n');
		}
	}
	if (m->neq > 0) {
		w = label_width(in, HXD_OBJ_EQUALITY, m->neq);
		printf("\nequalities\n%4s  %-*s  %-8s  %s\n", "id", w, "name",
		    "type", "objects");
		for (i = 0; i < m->neq; i++) {
			t = in->eq_type[i];
			t = t == 2 ? HXD_OBJ_JOINT :
			    t == 3 ? HXD_OBJ_TENDON :
			    t == 4 ? HXD_OBJ_GEOM :
				     HXD_OBJ_BODY;
			printf("%4d  %-*s  %-8s  %s %s, %s\n", i, w,
			    obj_label(in, HXD_OBJ_EQUALITY, i, b1, sizeof(b1)),
			    enum_name(
				eq_types, NELEM(eq_types), in->eq_type[i]),
			    hxd_obj_name(t),
			    obj_label(in, t, in->eq_obj1id[i], b2, sizeof(b2)),
			    obj_label(in, t, in->eq_obj2id[i], b3, sizeof(b3)));
		}
	}
	if (m->nkey > 0) {
		printf("\nkeyframes\n%4s  %s\n", "id", "name");
		for (i = 0; i < m->nkey; i++)
			printf("%4d  %s\n", i,
			    obj_label(in, HXD_OBJ_KEY, i, b1, sizeof(b1)));
	}
	if (m->nmat > 0) {
		printf("\nmaterials\n%4s  %s\n", "id", "name");
		for (i = 0; i < m->nmat; i++)
			printf("%4d  %s\n", i,
			    obj_label(in, HXD_OBJ_MATERIAL, i, b1, sizeof(b1)));
	}
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

/*---------------------------------------------------------------- status */

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
	if (ctl->json) {
		js_open('{');
		js_key("model");
		js_model(&st.model);
		js_kb("loaded", st.model.nbody > 0);
		js_kn("time", st.time);
		js_ku("steps", st.steps);
		js_kb("paused", st.paused);
		js_kn("speed", st.speed);
		js_kb("speed_max", st.speed_max);
		js_kn("realtime_factor", st.realtime_factor);
		js_kn("cpu_per_step", st.cpu_per_step);
		js_ki("nefc", st.nefc);
		js_ki("ncon", st.ncon);
		js_kn("energy_potential", st.energy_potential);
		js_kn("energy_kinetic", st.energy_kinetic);
		js_ku("instability_resets", st.instability_resets);
		js_ku("sim_errors", st.sim_errors);
		js_ku("overruns", st.overruns);
		js_ki("clients", st.clients);
		js_ks("message", st.message);
		js_kn("uptime", st.uptime);
		js_close('}');
		return CTL_OK;
	}
	if (st.model.nbody > 0)
		printf("%-12s %s%s%s%s\n", "model", st.model.name,
		    st.model.path[0] != '\0' ? " (" : "", st.model.path,
		    st.model.path[0] != '\0' ? ")" : "");
	else
		printf("%-12s %s\n", "model", "none loaded");
	printf("%-12s %s\n", "simulation", st.paused ? "paused" : "running");
	if (st.speed_max)
		printf("%-12s max\n", "speed");
	else
		printf("%-12s %gx\n", "speed", st.speed);
	printf("%-12s %.10g s, %llu steps\n", "time", st.time, st.steps);
	printf("%-12s %.3gx\n", "real time", st.realtime_factor);
	printf("%-12s %.3g ms\n", "CPU/step", st.cpu_per_step * 1e3);
	printf("%-12s %d, of which %d contacts\n", "constraints", st.nefc,
	    st.ncon);
	printf("%-12s potential %.6g, kinetic %.6g\n", "energy",
	    st.energy_potential, st.energy_kinetic);
	printf("%-12s %llu instability, %llu MuJoCo errors\n", "resets",
	    st.instability_resets, st.sim_errors);
	printf("%-12s %llu\n", "overruns", st.overruns);
	printf("%-12s %d\n", "clients", st.clients);
	printf("%-12s %s\n", "message",
	    st.message[0] != '\0' ? st.message : "(none)");
	printf("%-12s %.1f s\n", "uptime", st.uptime);
	return CTL_OK;
}

/*---------------------------------------------------------------- state */

/* Show the time, qpos, qvel and act. */
static int
cmd_state(struct ctl *ctl)
{
	hxd_state *st;
	int rc;

	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_get_state(ctl->conn, &st) != HXD_OK)
		return ctl_fail(ctl);
	if (ctl->json) {
		js_open('{');
		js_kn("time", st->time);
		js_ki("nq", st->nq);
		js_ki("nv", st->nv);
		js_ki("na", st->na);
		js_kv("qpos", st->qpos, st->nq);
		js_kv("qvel", st->qvel, st->nv);
		js_kv("act", st->act, st->na);
		js_close('}');
	} else if ((rc = ctl_get_info(ctl)) == 0) {
		printf("time %.10g\n", st->time);
		print_by_joint("qpos", ctl->info, st->qpos, st->nq, 0);
		print_by_joint("qvel", ctl->info, st->qvel, st->nv, 1);
		if (st->na > 0)
			print_by_actuator("act", ctl->info, st->act, st->na,
			    ctl->info->model.nu);
	}
	free(st);
	return rc;
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
	char name[CTL_NAME_MAX], **pos;
	const char *v, *bad;
	hxd_state *st = NULL;
	int npos, i, id, w, adr, n, badlen, rc;

	pos = calloc((size_t)ctl->argc + 1, sizeof(*pos));
	if (pos == NULL)
		return ctl_error(ctl, HXD_CANNOTSEND, "out of memory");
	if ((rc = ctl_options(ctl, opts, NELEM(opts), pos, &npos)) != 0 ||
	    (rc = ctl_check_assigns(ctl, pos, npos, 0, "JOINT=LIST")) != 0)
		goto done;
	if ((rc = ctl_connect(ctl)) != 0)
		goto done;
	if (hxd_get_state(ctl->conn, &st) != HXD_OK) {
		rc = ctl_fail(ctl);
		goto done;
	}
	if ((opts[0].given &&
		(rc = ctl_fill(ctl, &opts[0], "nq", st->qpos, st->nq)) != 0) ||
	    (opts[1].given &&
		(rc = ctl_fill(ctl, &opts[1], "nv", st->qvel, st->nv)) != 0) ||
	    (opts[2].given &&
		(rc = ctl_fill(ctl, &opts[2], "na", st->act, st->na)) != 0))
		goto done;
	for (i = 0; i < npos; i++) {
		v = split_assign(pos[i], name, sizeof(name));
		if ((rc = ctl_object(ctl, HXD_OBJ_JOINT, name, &id)) != 0 ||
		    (rc = ctl_get_info(ctl)) != 0)
			goto done;
		if (id < 0 || id >= ctl->info->model.njnt) {
			rc = ctl_error(ctl, HXD_BADINDEX,
			    "joint id %d is out "
			    "of range (the model has njnt = %d)",
			    id, ctl->info->model.njnt);
			goto done;
		}
		w = joint_width(ctl->info->jnt_type[id], 0);
		adr = ctl->info->jnt_qposadr[id];
		n = parse_list(v, NULL, 0, &bad, &badlen);
		if (n != w) {
			rc = ctl_error(ctl, HXD_BADSIZE,
			    "joint %s (%s) has %d "
			    "qpos value%s, not %d",
			    name, joint_type_name(ctl->info->jnt_type[id]), w,
			    w == 1 ? "" : "s", n);
			goto done;
		}
		if (adr < 0 || adr + w > st->nq) {
			rc = ctl_error(ctl, HXD_BADSIZE,
			    "the model changed "
			    "while hxctl ran");
			goto done;
		}
		parse_list(v, st->qpos + adr, w, &bad, &badlen);
	}
	if (hxd_set_state(ctl->conn, st) != HXD_OK) {
		rc = ctl_fail(ctl);
		goto done;
	}
	if (ctl->json)
		js_ok();
done:
	free(st);
	free(pos);
	return rc;
}

/*---------------------------------------------------------------- controls */

/* Show the controls by actuator, with their ranges. */
static int
cmd_ctrl(struct ctl *ctl)
{
	hxd_control *c;
	char buf[32];
	int rc, i, w;

	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_get_control(ctl->conn, &c) != HXD_OK)
		return ctl_fail(ctl);
	if (ctl->json) {
		js_open('{');
		js_kn("time", c->time);
		js_ki("nu", c->nu);
		js_kv("ctrl", c->ctrl, c->nu);
		js_close('}');
	} else if ((rc = ctl_get_info(ctl)) == 0) {
		printf("time %.10g\n", c->time);
		w = label_width(ctl->info, HXD_OBJ_ACTUATOR, c->nu);
		printf("%4s  %-*s" HDR "  %s\n", "id", w, "name", "ctrl",
		    "ctrlrange");
		for (i = 0; i < c->nu; i++) {
			printf("%4d  %-*s" NUM, i, w,
			    obj_label(ctl->info, HXD_OBJ_ACTUATOR, i, buf,
				sizeof(buf)),
			    c->ctrl[i]);
			if (ctl->info->model.nu == c->nu &&
			    ctl->info->actuator_ctrllimited[i])
				printf("  [%g, %g]",
				    ctl->info->actuator_ctrlrange[2 * i],
				    ctl->info->actuator_ctrlrange[2 * i + 1]);
			putchar('\n');
		}
	}
	free(c);
	return rc;
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
	if (hxd_set_control(ctl->conn, c) != HXD_OK)
		rc = ctl_fail(ctl);
	else if (ctl->json)
		js_ok();
	free(c);
	return rc;
}

/*---------------------------------------------------------------- applied */

/* Show qfrc_applied by joint and xfrc_applied by body. */
static int
cmd_applied(struct ctl *ctl)
{
	hxd_applied *a;
	char buf[32];
	int rc, i, w;

	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_get_applied(ctl->conn, &a) != HXD_OK)
		return ctl_fail(ctl);
	if (ctl->json) {
		js_open('{');
		js_kn("time", a->time);
		js_ki("nv", a->nv);
		js_ki("nbody", a->nbody);
		js_kv("qfrc_applied", a->qfrc_applied, a->nv);
		js_kv("xfrc_applied", a->xfrc_applied, 6 * a->nbody);
		js_close('}');
	} else if ((rc = ctl_get_info(ctl)) == 0) {
		printf("time %.10g\n", a->time);
		print_by_joint(
		    "qfrc_applied", ctl->info, a->qfrc_applied, a->nv, 1);
		w = label_width(ctl->info, HXD_OBJ_BODY, a->nbody);
		printf("xfrc_applied\n%4s  %-*s" HDR HDR HDR HDR HDR HDR "\n",
		    "id", w, "body", "fx", "fy", "fz", "tx", "ty", "tz");
		for (i = 0; i < a->nbody; i++)
			put_row(i, w,
			    obj_label(
				ctl->info, HXD_OBJ_BODY, i, buf, sizeof(buf)),
			    a->xfrc_applied + 6 * i, 6);
	}
	free(a);
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
	char name[CTL_NAME_MAX], **pos;
	const char *v, *bad;
	hxd_applied *a = NULL;
	int npos, i, id, badlen, rc;

	pos = calloc((size_t)ctl->argc + 1, sizeof(*pos));
	if (pos == NULL)
		return ctl_error(ctl, HXD_CANNOTSEND, "out of memory");
	if ((rc = ctl_options(ctl, opts, NELEM(opts), pos, &npos)) != 0 ||
	    (rc = ctl_check_assigns(
		 ctl, pos, npos, 6, "BODY=FX,FY,FZ,TX,TY,TZ")) != 0)
		goto done;
	if ((rc = ctl_connect(ctl)) != 0)
		goto done;
	if (hxd_get_applied(ctl->conn, &a) != HXD_OK) {
		rc = ctl_fail(ctl);
		goto done;
	}
	if (opts[0].given) {
		memset(a->qfrc_applied, 0, (size_t)a->nv * sizeof(double));
		memset(
		    a->xfrc_applied, 0, 6 * (size_t)a->nbody * sizeof(double));
	}
	if ((opts[1].given &&
		(rc = ctl_fill(ctl, &opts[1], "nv", a->qfrc_applied, a->nv)) !=
		    0) ||
	    (opts[2].given &&
		(rc = ctl_fill(ctl, &opts[2], "6 x nbody", a->xfrc_applied,
		     6 * a->nbody)) != 0))
		goto done;
	for (i = 0; i < npos; i++) {
		v = split_assign(pos[i], name, sizeof(name));
		if ((rc = ctl_object(ctl, HXD_OBJ_BODY, name, &id)) != 0)
			goto done;
		if (id < 0 || id >= a->nbody) {
			rc = ctl_error(ctl, HXD_BADINDEX,
			    "body id %d is out "
			    "of range (the model has nbody = %d)",
			    id, a->nbody);
			goto done;
		}
		parse_list(v, a->xfrc_applied + 6 * id, 6, &bad, &badlen);
	}
	if (hxd_set_applied(ctl->conn, a) != HXD_OK) {
		rc = ctl_fail(ctl);
		goto done;
	}
	if (ctl->json)
		js_ok();
done:
	free(a);
	free(pos);
	return rc;
}

/*---------------------------------------------------------------- one body */

/* Show one body's pose, velocities, accelerations and forces. */
static int
cmd_body(struct ctl *ctl)
{
	static const struct {
		const char *name;
		size_t offset;
		int n;
	} rows[] = {
		{ "pos", offsetof(hxd_onebody, pos), 3 },
		{ "quat", offsetof(hxd_onebody, quat), 4 },
		{ "linvel", offsetof(hxd_onebody, linvel), 3 },
		{ "angvel", offsetof(hxd_onebody, angvel), 3 },
		{ "linacc", offsetof(hxd_onebody, linacc), 3 },
		{ "angacc", offsetof(hxd_onebody, angacc), 3 },
		{ "contactforce", offsetof(hxd_onebody, contactforce), 3 },
		{ "force", offsetof(hxd_onebody, force), 3 },
		{ "torque", offsetof(hxd_onebody, torque), 3 },
	};
	hxd_onebody b;
	char name[256];
	const double *v;
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
		for (i = 0; i < NELEM(rows); i++) {
			v = (const double *)(const void *)((const char *)&b +
			    rows[i].offset);
			js_kv(rows[i].name, v, rows[i].n);
		}
		js_close('}');
		return CTL_OK;
	}
	if (hxd_id2name(ctl->conn, HXD_OBJ_BODY, id, name, sizeof(name)) !=
	    HXD_OK)
		return ctl_fail(ctl);
	printf("%-12s %d %s (%s)\n", "body", b.body_id,
	    name[0] != '\0' ? name : "(unnamed)",
	    b.is_floating ? "floating" : "not floating");
	printf("%-12s %.10g\n", "time", b.time);
	for (i = 0; i < NELEM(rows); i++) {
		v = (const double *)(const void *)((const char *)&b +
		    rows[i].offset);
		printf("%-12s", rows[i].name);
		put_nums(v, rows[i].n);
		putchar('\n');
	}
	return CTL_OK;
}

/* Set quantities of one body, chosen by the options given. */
static int
cmd_set_body(struct ctl *ctl)
{
	struct ctl_opt opts[] = {
		{ "--pos", OPT_LIST, 3, NULL, 0, 0 },
		{ "--quat", OPT_LIST, 4, NULL, 0, 0 },
		{ "--linvel", OPT_LIST, 3, NULL, 0, 0 },
		{ "--angvel", OPT_LIST, 3, NULL, 0, 0 },
		{ "--force", OPT_LIST, 3, NULL, 0, 0 },
		{ "--torque", OPT_LIST, 3, NULL, 0, 0 },
	};
	static const unsigned flags[] = {
		HXD_ONEBODY_POS,
		HXD_ONEBODY_QUAT,
		HXD_ONEBODY_LINVEL,
		HXD_ONEBODY_ANGVEL,
		HXD_ONEBODY_FORCE,
		HXD_ONEBODY_TORQUE,
	};
	char *pos[16];
	const char *bad;
	double *dst[NELEM(flags)];
	hxd_onebody b;
	unsigned fields = 0;
	int npos, id, badlen, rc;
	size_t i;

	if (ctl->argc > (int)NELEM(pos))
		return ctl_usage_error(ctl, "too many arguments");
	if ((rc = ctl_options(ctl, opts, NELEM(opts), pos, &npos)) != 0)
		return rc;
	if (npos != 1)
		return ctl_usage_error(
		    ctl, npos == 0 ? "which body?" : "one body at a time");
	for (i = 0; i < NELEM(opts); i++) {
		if (opts[i].given)
			fields |= flags[i];
	}
	if (fields == 0)
		return ctl_usage_error(ctl, "nothing to set");
	if ((rc = ctl_object(ctl, HXD_OBJ_BODY, pos[0], &id)) != 0 ||
	    (rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_get_onebody(ctl->conn, id, &b) != HXD_OK)
		return ctl_fail(ctl);
	dst[0] = b.pos;
	dst[1] = b.quat;
	dst[2] = b.linvel;
	dst[3] = b.angvel;
	dst[4] = b.force;
	dst[5] = b.torque;
	for (i = 0; i < NELEM(opts); i++) {
		if (opts[i].given)
			parse_list(
			    opts[i].value, dst[i], opts[i].want, &bad, &badlen);
	}
	if (!b.is_floating &&
	    (fields &
		(HXD_ONEBODY_POS | HXD_ONEBODY_QUAT | HXD_ONEBODY_LINVEL |
		    HXD_ONEBODY_ANGVEL)))
		fprintf(stderr,
		    "hxctl: %s: warning: body %s is not floating: "
		    "its pos, quat, linvel and angvel stay as they are\n",
		    ctl->cmd->name, pos[0]);
	if (hxd_set_onebody(ctl->conn, &b, fields) != HXD_OK)
		return ctl_fail(ctl);
	if (ctl->json)
		js_ok();
	return CTL_OK;
}

/*---------------------------------------------------------------- mocap */

/* Show the mocap bodies' positions and quaternions. */
static int
cmd_mocap(struct ctl *ctl)
{
	hxd_mocap *mc;
	char buf[32];
	int rc, i, b, w;

	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_get_mocap(ctl->conn, &mc) != HXD_OK)
		return ctl_fail(ctl);
	if (ctl->json) {
		js_open('{');
		js_kn("time", mc->time);
		js_ki("nmocap", mc->nmocap);
		js_kv("pos", mc->pos, 3 * mc->nmocap);
		js_kv("quat", mc->quat, 4 * mc->nmocap);
		js_close('}');
	} else if ((rc = ctl_get_info(ctl)) == 0) {
		printf("time %.10g\n", mc->time);
		w = label_width(
		    ctl->info, HXD_OBJ_BODY, ctl->info->model.nbody);
		printf("%4s  %4s  %-*s %-38s %s\n", "id", "body", w, "name",
		    "pos", "quat");
		for (i = 0; i < mc->nmocap; i++) {
			for (b = 0; b < ctl->info->model.nbody; b++) {
				if (ctl->info->body_mocapid[b] == i)
					break;
			}
			printf("%4d  %4d  %-*s", i, b, w,
			    obj_label(
				ctl->info, HXD_OBJ_BODY, b, buf, sizeof(buf)));
			put_nums(mc->pos + 3 * i, 3);
			put_nums(mc->quat + 4 * i, 4);
			putchar('\n');
		}
	}
	free(mc);
	return rc;
}

/* Move one mocap body, named by its body's id or name. */
static int
cmd_set_mocap(struct ctl *ctl)
{
	struct ctl_opt opts[] = {
		{ "--pos", OPT_LIST, 3, NULL, 0, 0 },
		{ "--quat", OPT_LIST, 4, NULL, 0, 0 },
	};
	char *pos[8];
	const char *bad;
	hxd_mocap *mc;
	int npos, id, k, badlen, rc;

	if ((rc = ctl_options(ctl, opts, NELEM(opts), pos, &npos)) != 0)
		return rc;
	if (npos != 1)
		return ctl_usage_error(
		    ctl, npos == 0 ? "which body?" : "one body at a time");
	if (!opts[0].given && !opts[1].given)
		return ctl_usage_error(ctl, "nothing to set");
	if ((rc = ctl_object(ctl, HXD_OBJ_BODY, pos[0], &id)) != 0 ||
	    (rc = ctl_get_info(ctl)) != 0)
		return rc;
	if (id < 0 || id >= ctl->info->model.nbody)
		return ctl_error(ctl, HXD_BADINDEX,
		    "body id %d is out of "
		    "range (the model has nbody = %d)",
		    id, ctl->info->model.nbody);
	if ((k = ctl->info->body_mocapid[id]) < 0)
		return ctl_error(ctl, HXD_BADINDEX,
		    "body %s is not a mocap "
		    "body",
		    pos[0]);
	if (hxd_get_mocap(ctl->conn, &mc) != HXD_OK)
		return ctl_fail(ctl);
	if (k >= mc->nmocap) {
		free(mc);
		return ctl_error(ctl, HXD_BADSIZE,
		    "the model changed while "
		    "hxctl ran");
	}
	if (opts[0].given)
		parse_list(opts[0].value, mc->pos + 3 * k, 3, &bad, &badlen);
	if (opts[1].given)
		parse_list(opts[1].value, mc->quat + 4 * k, 4, &bad, &badlen);
	if (hxd_set_mocap(ctl->conn, mc) != HXD_OK)
		rc = ctl_fail(ctl);
	else if (ctl->json)
		js_ok();
	free(mc);
	return rc;
}

/*---------------------------------------------------------------- get only */

/* Show qacc by joint and act_dot by actuator. */
static int
cmd_dynamics(struct ctl *ctl)
{
	hxd_dynamics *d;
	int rc;

	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_get_dynamics(ctl->conn, &d) != HXD_OK)
		return ctl_fail(ctl);
	if (ctl->json) {
		js_open('{');
		js_kn("time", d->time);
		js_ki("nv", d->nv);
		js_ki("na", d->na);
		js_kv("qacc", d->qacc, d->nv);
		js_kv("act_dot", d->act_dot, d->na);
		js_close('}');
	} else if ((rc = ctl_get_info(ctl)) == 0) {
		printf("time %.10g\n", d->time);
		print_by_joint("qacc", ctl->info, d->qacc, d->nv, 1);
		if (d->na > 0)
			print_by_actuator("act_dot", ctl->info, d->act_dot,
			    d->na, ctl->info->model.nu);
	}
	free(d);
	return rc;
}

/* Print sensor data, by sensor when the description fits it. */
static void
sensor_show(const hxd_info *in, const hxd_sensor *s, int json)
{
	char buf[32];
	int i, w, adr, dim;

	if (json) {
		js_open('{');
		js_kn("time", s->time);
		js_ki("nsensordata", s->nsensordata);
		js_kv("sensordata", s->sensordata, s->nsensordata);
		js_close('}');
		return;
	}
	printf("time %.10g\n", s->time);
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

/* Show the sensor data. */
static int
cmd_sensor(struct ctl *ctl)
{
	hxd_sensor *s;
	int rc;

	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_get_sensor(ctl->conn, &s) != HXD_OK)
		return ctl_fail(ctl);
	if (ctl->json || (rc = ctl_get_info(ctl)) == 0)
		sensor_show(ctl->info, s, ctl->json);
	free(s);
	return rc;
}

/* Show the frames from get, one object of type per row. */
static int
poses_show(struct ctl *ctl, int (*get)(hxd_conn *, hxd_poses **), int type)
{
	hxd_poses *p;
	char buf[32];
	int rc, i, k, w;

	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (get(ctl->conn, &p) != HXD_OK)
		return ctl_fail(ctl);
	if (ctl->json) {
		js_open('{');
		js_kn("time", p->time);
		js_ki("count", p->count);
		js_kv("pos", p->pos, 3 * p->count);
		js_kv("mat", p->mat, 9 * p->count);
		js_close('}');
	} else if ((rc = ctl_get_info(ctl)) == 0) {
		printf("time %.10g\n", p->time);
		w = label_width(ctl->info, type, p->count);
		printf("%4s  %-*s %-38s   %s\n", "id", w, "name", "pos",
		    "mat (row-major)");
		for (i = 0; i < p->count; i++) {
			printf("%4d  %-*s", i, w,
			    obj_label(ctl->info, type, i, buf, sizeof(buf)));
			put_nums(p->pos + 3 * i, 3);
			printf("  ");
			for (k = 0; k < 9; k++)
				printf(" %6.3f", p->mat[9 * i + k]);
			putchar('\n');
		}
	}
	free(p);
	return rc;
}

/* Show every body's frame. */
static int
cmd_bodies(struct ctl *ctl)
{
	return poses_show(ctl, hxd_get_body, HXD_OBJ_BODY);
}

/* Show every geom's frame. */
static int
cmd_geoms(struct ctl *ctl)
{
	return poses_show(ctl, hxd_get_geom, HXD_OBJ_GEOM);
}

/* Show every site's frame. */
static int
cmd_sites(struct ctl *ctl)
{
	return poses_show(ctl, hxd_get_site, HXD_OBJ_SITE);
}

/* Show tendon lengths and velocities. */
static int
cmd_tendons(struct ctl *ctl)
{
	hxd_tendon *t;
	char buf[32];
	int rc, i, w;

	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_get_tendon(ctl->conn, &t) != HXD_OK)
		return ctl_fail(ctl);
	if (ctl->json) {
		js_open('{');
		js_kn("time", t->time);
		js_ki("ntendon", t->ntendon);
		js_kv("length", t->length, t->ntendon);
		js_kv("velocity", t->velocity, t->ntendon);
		js_close('}');
	} else if ((rc = ctl_get_info(ctl)) == 0) {
		printf("time %.10g\n", t->time);
		w = label_width(ctl->info, HXD_OBJ_TENDON, t->ntendon);
		printf("%4s  %-*s" HDR HDR "\n", "id", w, "name", "length",
		    "velocity");
		for (i = 0; i < t->ntendon; i++)
			printf("%4d  %-*s" NUM NUM "\n", i, w,
			    obj_label(
				ctl->info, HXD_OBJ_TENDON, i, buf, sizeof(buf)),
			    t->length[i], t->velocity[i]);
	}
	free(t);
	return rc;
}

/* Show actuator lengths, velocities and forces. */
static int
cmd_actuators(struct ctl *ctl)
{
	hxd_actuator *a;
	char buf[32];
	int rc, i, w;

	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_get_actuator(ctl->conn, &a) != HXD_OK)
		return ctl_fail(ctl);
	if (ctl->json) {
		js_open('{');
		js_kn("time", a->time);
		js_ki("nu", a->nu);
		js_kv("length", a->length, a->nu);
		js_kv("velocity", a->velocity, a->nu);
		js_kv("force", a->force, a->nu);
		js_close('}');
	} else if ((rc = ctl_get_info(ctl)) == 0) {
		printf("time %.10g\n", a->time);
		w = label_width(ctl->info, HXD_OBJ_ACTUATOR, a->nu);
		printf("%4s  %-*s" HDR HDR HDR "\n", "id", w, "name", "length",
		    "velocity", "force");
		for (i = 0; i < a->nu; i++)
			printf("%4d  %-*s" NUM NUM NUM "\n", i, w,
			    obj_label(ctl->info, HXD_OBJ_ACTUATOR, i, buf,
				sizeof(buf)),
			    a->length[i], a->velocity[i], a->force[i]);
	}
	free(a);
	return rc;
}

/* Show the generalized forces, one dof per row. */
static int
cmd_forces(struct ctl *ctl)
{
	hxd_force *f;
	char buf[64];
	int rc, i, w, n;

	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_get_force(ctl->conn, &f) != HXD_OK)
		return ctl_fail(ctl);
	if (ctl->json) {
		js_open('{');
		js_kn("time", f->time);
		js_ki("nv", f->nv);
		js_kv("applied", f->applied, f->nv);
		js_kv("passive", f->passive, f->nv);
		js_kv("bias", f->bias, f->nv);
		js_kv("actuator", f->actuator, f->nv);
		js_kv("constraint", f->constraint, f->nv);
		js_kv("nonconstraint", f->nonconstraint, f->nv);
		js_close('}');
	} else if ((rc = ctl_get_info(ctl)) == 0) {
		printf("time %.10g\n", f->time);
		w = 4;
		for (i = 0; i < f->nv; i++) {
			n = (int)strlen(
			    dof_label(ctl->info, i, buf, sizeof(buf)));
			if (n > w)
				w = n;
		}
		printf("%4s  %-*s" HDR HDR HDR HDR HDR " %13s\n", "dof", w,
		    "joint", "applied", "passive", "bias", "actuator",
		    "constraint", "nonconstraint");
		for (i = 0; i < f->nv; i++)
			printf("%4d  %-*s" NUM NUM NUM NUM NUM "  " NUM "\n", i,
			    w, dof_label(ctl->info, i, buf, sizeof(buf)),
			    f->applied[i], f->passive[i], f->bias[i],
			    f->actuator[i], f->constraint[i],
			    f->nonconstraint[i]);
	}
	free(f);
	return rc;
}

/* Show the active contacts. */
static int
cmd_contacts(struct ctl *ctl)
{
	hxd_contacts *k;
	char b1[32], b2[32];
	int rc, i, w;

	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_get_contact(ctl->conn, &k) != HXD_OK)
		return ctl_fail(ctl);
	if (ctl->json) {
		js_open('{');
		js_kn("time", k->time);
		js_ki("ncon", k->ncon);
		js_kv("dist", k->dist, k->ncon);
		js_kv("pos", k->pos, 3 * k->ncon);
		js_kv("frame", k->frame, 9 * k->ncon);
		js_kv("force", k->force, 3 * k->ncon);
		js_key("geom1");
		js_ints(k->geom1, k->ncon);
		js_key("geom2");
		js_ints(k->geom2, k->ncon);
		js_close('}');
	} else if ((rc = ctl_get_info(ctl)) == 0) {
		printf("time %.10g\n%d contact%s\n", k->time, k->ncon,
		    k->ncon == 1 ? "" : "s");
		w = label_width(
		    ctl->info, HXD_OBJ_GEOM, ctl->info->model.ngeom);
		if (k->ncon > 0)
			printf("%4s  %-*s  %-*s" HDR " %-39s %-39s %s\n", "id",
			    w, "geom1", w, "geom2", "dist", "pos",
			    "force (normal, tangent)", "normal");
		for (i = 0; i < k->ncon; i++) {
			printf("%4d  %-*s  %-*s", i, w,
			    obj_label(ctl->info, HXD_OBJ_GEOM, k->geom1[i], b1,
				sizeof(b1)),
			    w,
			    obj_label(ctl->info, HXD_OBJ_GEOM, k->geom2[i], b2,
				sizeof(b2)));
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
	free(k);
	return rc;
}

/*---------------------------------------------------------------- geoms */

/* Set a geom's size. */
static int
cmd_geomsize(struct ctl *ctl)
{
	double size[3];
	int i, id, rc;

	for (i = 0; i < 3; i++) {
		if (parse_double(ctl->argv[1 + i], &size[i]) != 0)
			return ctl_usage_error(ctl,
			    "'%s' is not a finite "
			    "number",
			    ctl->argv[1 + i]);
	}
	if ((rc = ctl_object(ctl, HXD_OBJ_GEOM, ctl->argv[0], &id)) != 0 ||
	    (rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_set_geomsize(ctl->conn, id, size) != HXD_OK)
		return ctl_fail(ctl);
	if (ctl->json)
		js_ok();
	return CTL_OK;
}

/* Show or set the colour of a geom, site, tendon or material. */
static int
cmd_rgba(struct ctl *ctl)
{
	double rgba[4];
	int i, type, id, rc;

	if (ctl->argc != 2 && ctl->argc != 6)
		return ctl_usage_error(ctl,
		    "give no colour or all four of R G "
		    "B A");
	if ((rc = ctl_objtype(ctl, ctl->argv[0], &type)) != 0)
		return rc;
	for (i = 0; i < 4 && ctl->argc == 6; i++) {
		if (parse_double(ctl->argv[2 + i], &rgba[i]) != 0)
			return ctl_usage_error(ctl,
			    "'%s' is not a finite "
			    "number",
			    ctl->argv[2 + i]);
	}
	if ((rc = ctl_object(ctl, type, ctl->argv[1], &id)) != 0 ||
	    (rc = ctl_connect(ctl)) != 0)
		return rc;
	if (ctl->argc == 6) {
		if (hxd_set_rgba(ctl->conn, type, id, rgba) != HXD_OK)
			return ctl_fail(ctl);
		if (ctl->json)
			js_ok();
		return CTL_OK;
	}
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

/*---------------------------------------------------------------- names */

/* Print the id of a named object; an unknown name is a failure. */
static int
cmd_name2id(struct ctl *ctl)
{
	int type, id, rc;

	if ((rc = ctl_objtype(ctl, ctl->argv[0], &type)) != 0 ||
	    (rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_name2id(ctl->conn, type, ctl->argv[1], &id) != HXD_OK)
		return ctl_fail(ctl);
	if (id < 0)
		return ctl_error(ctl, HXD_BADINDEX, "no %s named \"%s\"",
		    hxd_obj_name(type), ctl->argv[1]);
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
		return ctl_usage_error(ctl,
		    "'%s' is not an id (a whole "
		    "number)",
		    ctl->argv[1]);
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

/*---------------------------------------------------------------- equality */

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
	if (hxd_equality(ctl->conn, id, on) != HXD_OK)
		return ctl_fail(ctl);
	if (ctl->json)
		js_ok();
	return CTL_OK;
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
	char *text = NULL, **pos;
	size_t len = 1;
	double hold = -1;
	int i, npos, rc;

	pos = calloc((size_t)ctl->argc + 1, sizeof(*pos));
	if (pos == NULL)
		return ctl_error(ctl, HXD_CANNOTSEND, "out of memory");
	if ((rc = ctl_options(ctl, opts, NELEM(opts), pos, &npos)) != 0)
		goto done;
	if (opts[0].given &&
	    (parse_double(opts[0].value, &hold) != 0 || hold < 0 ||
		hold > 1e9)) {
		rc = ctl_usage_error(ctl,
		    "--hold: '%s' is not a number of "
		    "seconds (0 to 1e9)",
		    opts[0].value);
		goto done;
	}
	for (i = 0; i < npos; i++)
		len += strlen(pos[i]) + 1;
	if ((text = malloc(len)) == NULL) {
		rc = ctl_error(ctl, HXD_CANNOTSEND, "out of memory");
		goto done;
	}
	text[0] = '\0';
	for (i = 0; i < npos; i++) {
		if (i > 0)
			strcat(text, " ");
		strcat(text, pos[i]);
	}
	if ((rc = ctl_connect(ctl)) != 0)
		goto done;
	if (hxd_message(ctl->conn, text) != HXD_OK) {
		rc = ctl_fail(ctl);
		goto done;
	}
	if (ctl->json)
		js_ok();
	fflush(stdout);
	free(text);
	free(pos);
	text = NULL;
	pos = NULL;
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
done:
	free(text);
	free(pos);
	return rc;
}

/*---------------------------------------------------------------- stepping */

/* Take N steps while paused, in requests the server accepts. */
static int
cmd_step(struct ctl *ctl)
{
	unsigned long total = 1, done = 0;
	unsigned chunk, taken;
	hxd_status st;
	long v;
	int rc;

	if (ctl->argc == 1) {
		if (parse_long(ctl->argv[0], 1, LONG_MAX, &v) != 0 ||
		    (unsigned long)v > UINT_MAX)
			return ctl_usage_error(ctl,
			    "'%s' is not a number of "
			    "steps (1 to %u)",
			    ctl->argv[0], UINT_MAX);
		total = (unsigned long)v;
	}
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

/* Set the controls if given, step or wait a tick, show the sensors. */
static int
cmd_update(struct ctl *ctl)
{
	hxd_control *c = NULL;
	hxd_sensor *s = NULL;
	int named, rc;

	if ((rc = controls_check(ctl, ctl->argv, ctl->argc, &named)) != 0)
		return rc;
	if (ctl->argc > 0 &&
	    (rc = controls_build(ctl, ctl->argv, ctl->argc, named, &c)) != 0)
		return rc;
	if ((rc = ctl_connect(ctl)) != 0 ||
	    (!ctl->json && (rc = ctl_get_info(ctl)) != 0)) {
		free(c);
		return rc;
	}
	if (hxd_update(ctl->conn, c, &s) != HXD_OK)
		rc = ctl_fail(ctl);
	else
		sensor_show(ctl->info, s, ctl->json);
	free(s);
	free(c);
	return rc;
}

/* Reset to a keyframe, by index or name, or to the reference pose. */
static int
cmd_reset(struct ctl *ctl)
{
	int key = -1, rc;

	if (ctl->argc == 1 &&
	    (rc = ctl_object(ctl, HXD_OBJ_KEY, ctl->argv[0], &key)) != 0)
		return rc;
	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_reset(ctl->conn, key) != HXD_OK)
		return ctl_fail(ctl);
	if (ctl->json)
		js_ok();
	return CTL_OK;
}

/*---------------------------------------------------------------- admin */

/* Pause the simulation. */
static int
cmd_pause(struct ctl *ctl)
{
	int rc;

	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_pause(ctl->conn) != HXD_OK)
		return ctl_fail(ctl);
	if (ctl->json)
		js_ok();
	return CTL_OK;
}

/* Run the simulation. */
static int
cmd_run(struct ctl *ctl)
{
	int rc;

	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_run(ctl->conn) != HXD_OK)
		return ctl_fail(ctl);
	if (ctl->json)
		js_ok();
	return CTL_OK;
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
		    "'%s' is neither a finite number "
		    "nor max",
		    ctl->argv[0]);
	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_set_speed(ctl->conn, factor, max) != HXD_OK)
		return ctl_fail(ctl);
	if (ctl->json)
		js_ok();
	return CTL_OK;
}

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
	};
	unsigned char *data = NULL;
	char *pos[8];
	const char *name;
	hxd_model m;
	size_t len;
	int npos, format, err, rc;

	if (ctl->argc > (int)NELEM(pos))
		return ctl_usage_error(ctl, "too many arguments");
	if ((rc = ctl_options(ctl, opts, NELEM(opts), pos, &npos)) != 0)
		return rc;
	if (npos != 1)
		return ctl_usage_error(
		    ctl, npos == 0 ? "which file?" : "one file at a time");
	if (!opts[0].given && (opts[1].given || opts[2].given))
		return ctl_usage_error(ctl,
		    "--format and --name go with "
		    "--inline");
	format = opts[1].given ? format_parse(opts[1].value) :
				 format_from_suffix(pos[0]);
	if (format < 0)
		return ctl_usage_error(ctl,
		    "format '%s' is not mjcf, urdf, "
		    "mjb or auto",
		    opts[1].value);
	if (opts[0].given) {
		if ((err = read_local(pos[0], &data, &len)) != 0)
			return ctl_error(ctl, HXD_LOADFAILED, "%s: %s", pos[0],
			    err == EFBIG ? "larger than 256 MiB" :
					   strerror(err));
		if (len == 0) {
			free(data);
			return ctl_error(
			    ctl, HXD_LOADFAILED, "%s is empty", pos[0]);
		}
	}
	if ((rc = ctl_connect(ctl)) != 0) {
		free(data);
		return rc;
	}
	if (opts[0].given) {
		name = strrchr(pos[0], '/') != NULL ? strrchr(pos[0], '/') + 1 :
						      pos[0];
		if (opts[2].given)
			name = opts[2].value;
		if (hxd_load_data(ctl->conn, format, data, len, name, &m) !=
		    HXD_OK)
			rc = ctl_fail(ctl);
		free(data);
	} else if (hxd_load_file(ctl->conn, pos[0], &m) != HXD_OK)
		rc = ctl_fail(ctl);
	if (rc != 0)
		return rc;
	if (ctl->json) {
		js_open('{');
		js_key("model");
		js_model(&m);
		js_close('}');
	} else
		model_print("loaded", &m);
	return CTL_OK;
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
	if (ctl->json) {
		js_open('{');
		js_key("model");
		js_model(&m);
		js_close('}');
	} else
		model_print("reloaded", &m);
	return CTL_OK;
}

/*---------------------------------------------------------------- help */

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
	    "  KEY         a keyframe's index or name\n"
	    "\n"
	    "Commands that change something print nothing (with --json: {\"ok\":true}).\n"
	    "Exit status: 0 done, 1 failed (the reason on stderr), 2 bad command line.\n"
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
			if (parse_long(optarg, 0, INT_MAX, &v) != 0) {
				fprintf(stderr,
				    "hxctl: --timeout: '%s' is not "
				    "a number of milliseconds\nTry 'hxctl "
				    "--help'.\n",
				    optarg);
				return CTL_USAGE;
			}
			ctl.timeout_ms = (int)v;
			break;
		case 'h':
			ctl_usage(stdout);
			return CTL_OK;
		case 'V':
			printf("hxctl %s\n", PACKAGE_VERSION);
			return CTL_OK;
		case ':':
			fprintf(stderr,
			    "hxctl: %s needs a value\nTry 'hxctl "
			    "--help'.\n",
			    argv[optind - 1]);
			return CTL_USAGE;
		default:
			if (strncmp(argv[optind - 1], "--", 2) != 0)
				fprintf(stderr, "hxctl: unknown option -%c\n",
				    optopt);
			else
				fprintf(stderr, "hxctl: bad option %s\n",
				    argv[optind - 1]);
			fprintf(stderr, "Try 'hxctl --help'.\n");
			return CTL_USAGE;
		}
	}
	if (optind >= argc) {
		fprintf(stderr,
		    "hxctl: no command given\nTry 'hxctl "
		    "--help'.\n");
		return CTL_USAGE;
	}
	if ((ctl.cmd = ctl_find(argv[optind])) == NULL) {
		fprintf(stderr,
		    "hxctl: unknown command '%s'\nTry 'hxctl "
		    "--help'.\n",
		    argv[optind]);
		return CTL_USAGE;
	}
	ctl.argc = argc - optind - 1;
	ctl.argv = argv + optind + 1;
	if (ctl.argc < ctl.cmd->min)
		return ctl_usage_error(&ctl, "missing arguments");
	if (ctl.cmd->max >= 0 && ctl.argc > ctl.cmd->max)
		return ctl_usage_error(&ctl, "unexpected argument '%s'%s",
		    ctl.argv[ctl.cmd->max],
		    ctl.argv[ctl.cmd->max][0] == '-' &&
			    ctl.argv[ctl.cmd->max][1] == '-' ?
			" (options go before "
			"the command)" :
			"");
	rc = ctl.cmd->fn(&ctl);
	free(ctl.info);
	hxd_close(ctl.conn);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "hxctl: %s: cannot write the output: %s\n",
		    ctl.cmd->name, strerror(errno));
		return CTL_FAIL;
	}
	return rc;
}
