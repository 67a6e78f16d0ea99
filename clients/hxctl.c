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
 *
 * This file holds the table, the global options, help and main; it only
 * calls down: errors are reported by hxctl_error.c, the connection made
 * by hxctl_conn.c, and the commands and what they share live in the
 * other hxctl_*.c files.  hxctl_common.h declares what the pieces share.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "haptixd.h"
#include "hxctl_common.h"
#include "program.h"
#include "usage.h"

static int cmd_call(struct ctl *);
static int cmd_help(struct ctl *);
static int ctl_global_error(const char *, ...)
    __attribute__((format(printf, 1, 2)));
static const struct ctl_cmd *ctl_find(const char *);
static int ctl_global_options(struct ctl *, int, char **);
static const char *ctl_cmd_mean(const char *);
static void ctl_usage(FILE *);
static void ctl_cmd_help(FILE *, const struct ctl_cmd *);
static void ctl_cmd_usage(const struct ctl_cmd *);
static int ctl_asks_help(int, char **);

/* Headings of --help. */
static const char G_READ[] = "Reading the simulation";
static const char G_WRITE[] = "Changing the simulation";
static const char G_SIM[] = "Running the simulation";
static const char G_SIMPLE[] = "Simple API";
static const char G_CLIENTS[] = "Clients and events";
static const char G_ARRAYS[] = "Arrays by name";
static const char G_COMPUTE[] = "MuJoCo's computations";
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
	{ "joint", "ID|NAME",
	    "one joint: type, body, addresses, axis, range,\n"
	    "qpos and qvel (set them with set-joint)",
	    G_READ, 1, 1, .fn = cmd_joint },
	{ "holds", "",
	    "the joints held on a path: target, qpos, the\n"
	    "equality's force, and who holds each",
	    G_READ, 0, 0, .fn = cmd_holds },
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
	{ "set-mocap", "ID|NAME [--pos X,Y,Z] [--quat W,X,Y,Z] [--over T]",
	    "move a mocap body; with --over, smoothly over T\n"
	    "seconds of simulated time (the server sets its\n"
	    "pose before each step; nothing jumps)",
	    G_WRITE, 1, 7, .fn = cmd_set_mocap },
	{ "geomsize", "ID|NAME X Y Z", "set a geom's size, as in MJCF", G_WRITE,
	    4, 4, .fn = cmd_geomsize },
	{ "equality", "ID|NAME on|off",
	    "enable or disable an equality constraint", G_WRITE, 2, 2,
	    .fn = cmd_equality },
	{ "hold", "JOINT VALUE [JOINT VALUE]... [--path FILE|-] [--for S]",
	    "hold hinge and slide joints at values by equality\n"
	    "constraints (docs/editing.md), or along --path's\n"
	    "lines '[TIME] JOINT VALUE...' or '[TIME] release\n"
	    "[JOINT]...' (TIME: seconds from the start); the\n"
	    "holds last as long as this hxctl: until\n"
	    "interrupted, for --for S, or to --path's end",
	    G_WRITE, 1, -1, .fn = cmd_hold },
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
	{ "world-force",
	    "[BODY [--force X,Y,Z] [--torque X,Y,Z] [--duration S] "
	    "[--gravity on|off]] [--clear]",
	    "the World API's forces (hxs_apply_*,\n"
	    "hxs_set_model_gravity_mode): put a wrench on a\n"
	    "body (world axes, at its centre of mass) for S\n"
	    "seconds of simulated time (0, the default:\n"
	    "until a reset), turn its gravity off (its\n"
	    "weight cancelled) or on; --clear ends every\n"
	    "wrench first; then list the bodies whose\n"
	    "gravity is off and the wrenches in effect",
	    G_WRITE, 0, 12, .fn = cmd_world_force },
	{ "camera", "[--pos X,Y,Z --quat W,X,Y,Z]",
	    "show the view camera the viewers share (hxview,\n"
	    "the workbench), or set it: where it is and its\n"
	    "orientation, looking along its x axis, z up",
	    G_WRITE, 0, 4, .fn = cmd_camera },
	{ "collide-mode", "ID|NAME [none|detect|collide]",
	    "show or set the collide mode of the geoms of a\n"
	    "body's subtree: none (no contacts), detect\n"
	    "(contacts found, no force) or collide (as the\n"
	    "model was loaded)",
	    G_WRITE, 1, 2, .fn = cmd_collide_mode },

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
	{ "reset", "[KEY] [--keep-params] [--run]",
	    "reset to a keyframe (index or name) or a\n"
	    "captured state (name), or with none to the\n"
	    "reference configuration; the model parameters\n"
	    "clients changed (servo gains, arrays set,\n"
	    "colours, geom sizes, equalities; not\n"
	    "keyframes) go back to the model's unless\n"
	    "--keep-params; --run: then run it",
	    G_SIM, 0, 3, .fn = cmd_reset },
	{ "history", "[BACK] | resume BACK",
	    "the live run's kept states (haptixd\n"
	    "--history): alone, how many and over what\n"
	    "time; BACK (0: the newest kept) shows that\n"
	    "state without moving the simulation;\n"
	    "resume BACK makes it the live state, exactly,\n"
	    "and forgets the newer ones",
	    G_SIM, 0, 2, .fn = cmd_history },
	{ "capture", "NAME|INDEX",
	    "capture the state (time, qpos, qvel, act,\n"
	    "mocap, ctrl; HAPTIX's Sim=>Key) into the\n"
	    "model's keyframe NAME or INDEX, or under a\n"
	    "new NAME the server keeps until the next\n"
	    "model load (for reset NAME)",
	    G_SIM, 1, 1, .fn = cmd_capture },
	{ "pause", "", "pause the simulation", G_SIM, 0, 0, .fn = cmd_call,
	    .conn_call = hxd_pause },
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
	{ "lease", "[take --hold S | run [--] COMMAND... | release]",
	    "show who holds the control lease and what\n"
	    "the server does when its holder vanishes;\n"
	    "take: hold it S seconds (0: until SIGINT or\n"
	    "SIGTERM), then release it (the lease ends\n"
	    "with the connection, so take needs --hold);\n"
	    "run: hold it while COMMAND runs, the hxctl\n"
	    "calls and libhaptix programs it starts\n"
	    "sharing it ($HAPTIX_LEASE), and exit as\n"
	    "COMMAND did; release: only the holder's own\n"
	    "connection can (stop the hxctl holding it)",
	    G_CLIENTS, 0, -1, .fn = cmd_lease },
	{ "tracking", "[show | connect|disconnect [BODY]]",
	    "connect a motion-capture driver's body to\n"
	    "a mocap body (the first by default): the\n"
	    "offset is taken from the next pose, so it\n"
	    "does not jump; disconnect lifts it (motion\n"
	    "then moves nothing); alone: show tracking",
	    G_CLIENTS, 0, 2, .fn = cmd_tracking },
	{ "record", "start [--every N] [--fields F,...] [--journal] | stop",
	    "record the state after every step (or one\n"
	    "in N+1) into a new file MODEL_N.hxr in the\n"
	    "server's state directory, as HAPTIX's .mjl;\n"
	    "F: qpos qvel act ctrl mocap sensordata\n"
	    "qfrc_applied xfrc_applied (default: qpos\n"
	    "qvel ctrl mocap sensordata); --journal adds\n"
	    "the inputs of every step and a state hash,\n"
	    "for hxplay --verify; stop ends it",
	    G_CLIENTS, 1, 6, .fn = cmd_record },
	{ "subscribe",
	    "[FIELD...] [--every N|--sim-hz HZ|--wall-hz HZ] "
	    "[--events|--kinds [-]KIND,...] [--count N] [--duration S]",
	    "print frames of the FIELDs (or all) at one\n"
	    "rate (every N steps, HZ of simulated or wall\n"
	    "time; default --wall-hz 30) and, with\n"
	    "--events (implied without FIELDs), every\n"
	    "event, or with --kinds those KINDs (each\n"
	    "with '-': all but them; e.g. --kinds\n"
	    "-client_joined,-client_left): one JSON\n"
	    "object per line, until N events, S seconds,\n"
	    "SIGINT/SIGTERM or the reader closing stdout",
	    G_CLIENTS, 0, -1, .fn = cmd_subscribe },
	{ "events", "[--kinds [-]KIND,...] [--count N] [--duration S]",
	    "subscribe to events only (all, or those\n"
	    "KINDs) and print them as JSON Lines",
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

	{ "compute", "[WHAT [ARG...] [OPTION...]]",
	    "run one of MuJoCo's functions on the server,\n"
	    "on a copy of the live state or of the state\n"
	    "that --qpos, --qvel, --act, --ctrl, ... give\n"
	    "(the rest the live one's), the simulation\n"
	    "untouched: forward ARRAY, inverse, full-m,\n"
	    "solve-m, rne, jac, jac-body, jac-body-com,\n"
	    "jac-geom, jac-site, object-velocity,\n"
	    "object-acceleration, contact-forces, energy,\n"
	    "ray, differentiate-pos, integrate-pos; with\n"
	    "no WHAT, list them with their arguments",
	    G_COMPUTE, 0, -1, .fn = cmd_compute, .more = compute_help },

	{ "load",
	    "[--legacy] FILE | --inline LOCALFILE [ASSET...] [--format F] "
	    "[--name NAME]",
	    "load FILE from the server's model directories\n"
	    "(--legacy: translate a MuJoCo HAPTIX 1.x model),\n"
	    "or send LOCALFILE with the local files it names\n"
	    "(meshes, textures, includes); F is mjcf, urdf,\n"
	    "mjb or auto (default: from the suffix .xml,\n"
	    ".urdf or .mjb, else auto)",
	    G_MODEL, 1, -1, .fn = cmd_load },
	{ "reload", "", "reload the current model from its file", G_MODEL, 0, 0,
	    .fn = cmd_reload },
	{ "model", "save FILE|-",
	    "write the model's MJCF text (the file it was\n"
	    "loaded from, includes inlined) to FILE, or to\n"
	    "standard output; the files it names are\n"
	    "relative to the directory it stands in",
	    G_MODEL, 2, 2, .fn = cmd_model },
	{ "edit",
	    "add TYPE [NAME] --in PTYPE[:PNAME] [ATTR=VALUE]... |\n"
	    "set TYPE NAME ATTR=VALUE... | unset TYPE NAME ATTR... |\n"
	    "set|unset TYPE --class CLASS ATTR[=VALUE]... |\n"
	    "remove TYPE NAME | attach FILE|. BODY|worldbody\n"
	    "--to worldbody|body:NAME|site:NAME [--prefix P]\n"
	    "[--suffix S] [--inline]",
	    "edit the model (docs/editing.md): one operation,\n"
	    "compiled at once, the simulation's state kept by\n"
	    "name; remove also takes what refers to what went;\n"
	    "--class changes a default class's settings for\n"
	    "TYPE (\"main\": the top one), class=CLASS assigns one;\n"
	    "attach copies BODY's subtree (or all the worldbody\n"
	    "holds) from FILE in the server's model directories\n"
	    "(--inline: a local FILE sent; .: this model), with\n"
	    "what it uses, every name made P+name+S",
	    G_MODEL, 2, -1, .fn = cmd_edit },
	{ "model-dirs", "[add DIR]",
	    "list the server's model directories; add DIR\n"
	    "(a directory you own) where the server allows it",
	    G_MODEL, 0, 2, .fn = cmd_model_dirs },
	{ "help", "[COMMAND]", "show this help, or one command's", G_MODEL, 0,
	    1, .fn = cmd_help },
};

/*--------------------------------------------------------- reporting */

/* Report a mistake before the command's arguments; returns CTL_USAGE. */
static int
ctl_global_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	program_vwarn(fmt, ap);
	va_end(ap);
	fputs("Try 'hxctl --help'.\n", stderr);
	return CTL_USAGE;
}

/*---------------------------------------------------------- commands */

/* Make the call of the command's row; it prints nothing. */
static int
cmd_call(struct ctl *ctl)
{
	int rc;

	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	return ctl_done(ctl, ctl->cmd->conn_call(ctl->conn));
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
	    "  -h, --help          show this help (COMMAND --help: that command's)\n"
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
	    "Commands that only set something print nothing (with --json:\n"
	    "{\"ok\":true}); those whose answer says more print it: step and\n"
	    "run --until (steps and time), hold (the holds), edit, load and reload\n"
	    "(the model), record (the file), world-force, camera and collide-mode\n"
	    "(what is in force now).\n"
	    "subscribe and step/run with --record print JSON Lines, with or without\n"
	    "--json.\n"
	    "Exit status: 0 done (subscribe: also when stopped by --count, --duration,\n"
	    "a signal or a closed stdout), 1 failed (the reason on stderr; subscribe:\n"
	    "the server went away), 2 bad command line.\n"
	    "Environment: HAPTIX_SERVER (the default server), HAPTIX_TOKEN_FILE (the\n"
	    "file holding the token a TCP server may require), HAPTIX_LEASE (the\n"
	    "token of a lease to share, set by lease run).  See hxctl(1).\n");
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
		return ctl_usage_error(ctl, "no command '%s'%s", ctl->argv[0],
		    ctl_cmd_mean(ctl->argv[0]));
	ctl_cmd_usage(c);
	return CTL_OK;
}

/* One command's usage, with every option it takes, and what it does. */
static void
ctl_cmd_usage(const struct ctl_cmd *c)
{
	printf("usage: hxctl [options] %s%s%s\n\n%s\n", c->name,
	    c->args[0] != '\0' ? " " : "", c->args, c->help);
	if (c->more != NULL)
		c->more(stdout);
}

/* Return 1 if the command's arguments ask for its help (before a "--"). */
static int
ctl_asks_help(int argc, char **argv)
{
	int i;

	for (i = 0; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (strcmp(argv[i], "--help") == 0 ||
		    strcmp(argv[i], "-h") == 0)
			return 1;
	}
	return 0;
}

/* "; did you mean ..." with the command nearest to name, or "". */
static const char *
ctl_cmd_mean(const char *name)
{
	const char *names[NELEM(ctl_cmds)];
	size_t i;

	for (i = 0; i < NELEM(ctl_cmds); i++)
		names[i] = ctl_cmds[i].name;
	return ctl_mean(name, names, NELEM(names));
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

/*
 * Read the global options (before the command) into ctl: -1 to go on to
 * the command at argv[optind], else the exit status (help, version, a
 * mistake).
 */
static int
ctl_global_options(struct ctl *ctl, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "server", required_argument, NULL, 's' },
		{ "json", no_argument, NULL, 'j' },
		{ "timeout", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	long v;
	int ch;

	opterr = 0;
	while (
	    (ch = getopt_long(argc, argv, "+:s:jt:hV", longopts, NULL)) != -1) {
		switch (ch) {
		case 's':
			ctl->server = optarg;
			break;
		case 'j':
			ctl->json = 1;
			break;
		case 't':
			if (parse_long(optarg, 0, INT_MAX, &v) != 0)
				return ctl_global_error(
				    "--timeout: '%s' is not a number of "
				    "milliseconds",
				    optarg);
			ctl->timeout_ms = (int)v;
			break;
		case 'h':
			ctl_usage(stdout);
			return CTL_OK;
		case 'V':
			usage_version("hxctl");
			return CTL_OK;
		default:
			return usage_bad_option("hxctl", ch, argv);
		}
	}
	return -1;
}

int
main(int argc, char **argv)
{
	struct ctl ctl;
	int rc;

	program_set_name("hxctl");
	memset(&ctl, 0, sizeof(ctl));
	ctl.timeout_ms = -1;
	if ((rc = ctl_global_options(&ctl, argc, argv)) >= 0)
		return rc;
	if (optind >= argc)
		return ctl_global_error("no command given");
	if ((ctl.cmd = ctl_find(argv[optind])) == NULL)
		return ctl_global_error("unknown command '%s'%s", argv[optind],
		    ctl_cmd_mean(argv[optind]));
	ctl.argc = argc - optind - 1;
	ctl.argv = argv + optind + 1;
	if (ctl_asks_help(ctl.argc, ctl.argv)) {
		ctl_cmd_usage(ctl.cmd);
		return CTL_OK;
	}
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
