/*
 * hx-spacenav: a 3D mouse (SpaceNavigator and its kin) on a body of the
 * simulation, as MuJoCo HAPTIX used it.  While the simulation runs it
 * pushes and turns a dynamic body with a force and torque scaled by the
 * model's mean body mass; on a mocap body, or on a floating body (or the
 * floating root of its tree) while paused, it moves the pose itself.
 * The device's left button toggles rotation and its right button
 * translation; translation alone is on at first.  See hx-spacenav(1).
 */
#include "config.h"

#include <getopt.h>
#include <math.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"
#include "mocap.h"
#include "program.h"
#include "quat.h"
#include "spacenav.h"
#include "usage.h"

/* How the device moves the body. */
enum spn_mode {
	SPN_NONE,  /* paused on a body that cannot be moved directly */
	SPN_FORCE, /* running, dynamic body: xfrc_applied */
	SPN_MOCAP, /* a mocap body: its pose */
	SPN_POSE,  /* paused: the pose of a floating body (or root) */
};

struct spn {
	const char *server;
	const char *body_name;
	const char *evdev;
	double force_scale, torque_scale; /* per kg of mean body mass */
	double speed, turn;               /* m/s, rad/s at full deflection */
	double full_scale;                /* device units at full deflection */
	int deadzone;                     /* device units */
	double rate;                      /* Hz: sends while deflected */
	double period;                    /* between sends: 1/rate or less */
	int verbose;
	struct mocap_axes axes; /* device frame to world */
	int rotation, translation;

	hxd_conn *c;
	struct spacenav *dev;
	struct spacenav_input in;

	/* The model's facts, found again after each load. */
	int body;     /* the chosen body */
	int mocap;    /* its mocap index, or -1 */
	int floating; /* the body moved in paused mode, or -1 */
	double mean_mass;
	int paused;

	int perturbing; /* a force is in effect */
	int refused;    /* the server refuses the driver's writes */
	double last_send;
	double last_tick;
};

/* The long options without a letter (getopt_long's values past 255). */
enum spn_opt {
	O_EVDEV = 256,
	O_FORCE,
	O_TORQUE,
	O_SPEED,
	O_TURN,
	O_FULL,
	O_DEAD,
	O_AXES,
	O_ROTATION,
	O_NO_TRANSLATION,
	O_RATE,
};

/* The options that set a number of struct spn: a row each. */
static const struct spn_number {
	int opt;          /* enum spn_opt */
	const char *name; /* as usage_number() names it */
	double lo, hi;
	size_t off; /* the double it sets, in struct spn */
} spn_numbers[] = {
	{ O_FORCE, "--force-scale", 0, 1e6, offsetof(struct spn, force_scale) },
	{ O_TORQUE, "--torque-scale", 0, 1e6,
	    offsetof(struct spn, torque_scale) },
	{ O_SPEED, "--speed", 0, 1e3, offsetof(struct spn, speed) },
	{ O_TURN, "--turn", 0, 1e3, offsetof(struct spn, turn) },
	{ O_FULL, "--full-scale", 1, 1e6, offsetof(struct spn, full_scale) },
	{ O_RATE, "--rate", 10, 1000, offsetof(struct spn, rate) },
};

static void spn_usage(FILE *);
static const struct spn_number *spn_number(int);
static int spn_options(struct spn *, int, char **);
static int spn_wait(struct spn *);
static void spn_buttons(struct spn *);
static int spn_model(struct spn *);
static int spn_events(struct spn *);
static enum spn_mode spn_mode(const struct spn *);
static int spn_deflection(const struct spn *, double *, double *);
static int spn_force(struct spn *, const double *, const double *);
static int spn_release(struct spn *);
static int spn_move(
    struct spn *, enum spn_mode, const double *, const double *, double);
static void spn_rotate(double *, const double *, double);
static int spn_run(struct spn *);

/* Print --help. */
static void
spn_usage(FILE *f)
{
	fprintf(f,
	    "usage: hx-spacenav [-s SERVER] [options] BODY\n"
	    "\n"
	    "Move a body of a haptixd simulation with a 3D mouse, read from\n"
	    "spacenavd (libspnav) or, with --evdev, from the device itself.\n"
	    "While the simulation runs, push and turn a dynamic body with a\n"
	    "force and torque; move a mocap body, or (paused) a floating body\n"
	    "or the floating root of its tree, directly.  The left button\n"
	    "toggles rotation, the right one translation (at first: on).\n"
	    "\n"
	    "  BODY                the body, by name\n"
	    "  -s, --server ADDR   the server (default: $HAPTIX_SERVER, else\n"
	    "                      the local socket)\n"
	    "  --evdev PATH        read an evdev device (/dev/input/eventN), or\n"
	    "                      replay a file of its events at their pace\n"
	    "  --force-scale F     N per kg of the model's mean body mass at\n"
	    "                      full deflection (default: 20)\n"
	    "  --torque-scale T    N m per kg of mean body mass (default: 2)\n"
	    "  --speed V           m/s at full deflection when moving a pose\n"
	    "                      (default: 0.5)\n"
	    "  --turn W            rad/s at full deflection (default: 1.5)\n"
	    "  --full-scale N      device units of a full deflection\n"
	    "                      (default: 350)\n"
	    "  --deadzone N        device units ignored around rest\n"
	    "                      (default: 10)\n"
	    "  --axes SPEC         device axes to world axes (default: x,z,y:\n"
	    "                      the device's y up and z away from you\n"
	    "                      become world z and y)\n"
	    "  --rotation          start with rotation on\n"
	    "  --no-translation    start with translation off\n"
	    "  --rate HZ           sends per second while deflected "
	    "(default: 60)\n"
	    "  -v, --verbose       say what is applied, once a second\n"
	    "  -h, --help          show this help\n"
	    "  -V, --version       show the version\n"
	    "\n"
	    "The force is the server's to drop: after its --perturb-timeout\n"
	    "without word (200 ms by default) it is cleared, and when\n"
	    "hx-spacenav exits or its connection ends.  See hx-spacenav(1).\n");
}

/* The row of spn_numbers[] for a getopt_long value, or NULL. */
static const struct spn_number *
spn_number(int opt)
{
	size_t i;

	for (i = 0; i < sizeof(spn_numbers) / sizeof(spn_numbers[0]); i++) {
		if (spn_numbers[i].opt == opt)
			return &spn_numbers[i];
	}
	return NULL;
}

/* Read the command line; 1: exit 0 (help), -1: exit 2. */
static int
spn_options(struct spn *p, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "server", required_argument, NULL, 's' },
		{ "evdev", required_argument, NULL, O_EVDEV },
		{ "force-scale", required_argument, NULL, O_FORCE },
		{ "torque-scale", required_argument, NULL, O_TORQUE },
		{ "speed", required_argument, NULL, O_SPEED },
		{ "turn", required_argument, NULL, O_TURN },
		{ "full-scale", required_argument, NULL, O_FULL },
		{ "deadzone", required_argument, NULL, O_DEAD },
		{ "axes", required_argument, NULL, O_AXES },
		{ "rotation", no_argument, NULL, O_ROTATION },
		{ "no-translation", no_argument, NULL, O_NO_TRANSLATION },
		{ "rate", required_argument, NULL, O_RATE },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const struct spn_number *n;
	const char *axes = "x,z,y";
	char err[256];
	double v;
	int ch;

	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":s:vhV", longopts, NULL)) != -1) {
		switch (ch) {
		case 's':
			p->server = optarg;
			break;
		case O_EVDEV:
			p->evdev = optarg;
			break;
		case O_DEAD:
			if (usage_number("--deadzone", optarg, 0, 1e6, &v) < 0)
				return -1;
			p->deadzone = (int)v;
			break;
		case O_AXES:
			axes = optarg;
			break;
		case O_ROTATION:
			p->rotation = 1;
			break;
		case O_NO_TRANSLATION:
			p->translation = 0;
			break;
		case 'v':
			p->verbose = 1;
			break;
		case 'h':
			spn_usage(stdout);
			return 1;
		case 'V':
			usage_version("hx-spacenav");
			return 1;
		default:
			if ((n = spn_number(ch)) == NULL) {
				usage_bad_option("hx-spacenav", ch, argv);
				return -1;
			}
			if (usage_number(n->name, optarg, n->lo, n->hi,
				(double *)(void *)((char *)p + n->off)) < 0)
				return -1;
		}
	}
	if (optind != argc - 1) {
		program_warn(
		    optind == argc ? "name the body to move" : "one body only");
		spn_usage(stderr);
		return -1;
	}
	p->body_name = argv[optind];
	if (mocap_axes_parse(axes, &p->axes, err, sizeof(err)) < 0) {
		program_warn("--axes: %s", err);
		return -1;
	}
	return 0;
}

/* Find the body, its kind and the mean body mass in the current model. */
static int
spn_model(struct spn *p)
{
	hxd_array *mocapid = NULL, *rootid = NULL, *mass = NULL;
	hxd_onebody ob;
	hxd_status st;
	double sum = 0;
	int k, rc = -1;

	if (hxd_status_get(p->c, &st) != HXD_OK)
		return driver_fail(p->c, "status");
	p->paused = st.paused;
	if (hxd_name2id(p->c, HXD_OBJ_BODY, p->body_name, &p->body) != HXD_OK ||
	    p->body < 0) {
		program_warn("the model has no body named '%s'", p->body_name);
		return -1;
	}
	if (p->body == 0) {
		program_warn("the world body cannot be moved");
		return -1;
	}
	if (hxd_get_array(p->c, "body_mocapid", &mocapid) != HXD_OK ||
	    hxd_get_array(p->c, "body_rootid", &rootid) != HXD_OK ||
	    hxd_get_array(p->c, "body_mass", &mass) != HXD_OK) {
		driver_fail(p->c, "reading the model");
		goto out;
	}
	p->mocap = (int)mocapid->values[p->body];
	/* Paused, HAPTIX moves a floating body, or the floating root of
	 * its tree; otherwise nothing (it has no inverse kinematics). */
	p->floating = -1;
	if (hxd_get_onebody(p->c, p->body, &ob) == HXD_OK && ob.is_floating)
		p->floating = p->body;
	else if (hxd_get_onebody(p->c, (int)rootid->values[p->body], &ob) ==
		HXD_OK &&
	    ob.is_floating)
		p->floating = (int)rootid->values[p->body];
	for (k = 1; k < mass->rows; k++)
		sum += mass->values[k];
	p->mean_mass = mass->rows > 1 ? sum / (mass->rows - 1) : 1;
	fprintf(stderr, "%s: body '%s' (%d): %s; mean body mass %.4g kg\n",
	    program_name(), p->body_name, p->body,
	    p->mocap >= 0 ? "a mocap body: moving its pose" :
		p->floating >= 0 ?
			    "force and torque while running, its pose "
			    "while paused" :
			    "force and torque while running (not floating: "
			    "nothing while paused)",
	    p->mean_mass);
	rc = 0;
out:
	free(mocapid);
	free(rootid);
	free(mass);
	return rc;
}

/* Take the server's events: pause and run, a new model. 0, or -1. */
static int
spn_events(struct spn *p)
{
	hxd_event *ev;
	int rc;

	while ((rc = hxd_next_event(p->c, 0, &ev)) == HXD_OK) {
		if (ev->kind == HXD_EVENT_RUN) {
			p->paused = ev->paused;
		} else if (ev->kind == HXD_EVENT_MODEL) {
			/* The old force went with the old model. */
			p->perturbing = 0;
			if (spn_model(p) < 0) {
				hxd_event_free(ev);
				return -1;
			}
		}
		hxd_event_free(ev);
	}
	if (rc != HXD_TIMEOUT)
		return driver_fail(p->c, "events");
	return 0;
}

/* The mode the body and the simulation's state call for. */
static enum spn_mode
spn_mode(const struct spn *p)
{
	if (p->mocap >= 0)
		return SPN_MOCAP;
	if (!p->paused)
		return SPN_FORCE;
	return p->floating >= 0 ? SPN_POSE : SPN_NONE;
}

/*
 * The deflection in world axes, each in [-1, 1] of full scale: t
 * (translation) and r (rotation), with the dead zone and the toggles
 * applied.  Returns 1 if anything is deflected.
 */
static int
spn_deflection(const struct spn *p, double *t, double *r)
{
	double dev[6], sign;
	int k, j, any = 0;

	for (k = 0; k < 6; k++) {
		dev[k] = abs(p->in.axis[k]) <= p->deadzone ?
		    0 :
		    (double)p->in.axis[k] / p->full_scale;
		if (dev[k] > 1)
			dev[k] = 1;
		if (dev[k] < -1)
			dev[k] = -1;
	}
	if (!p->translation)
		dev[0] = dev[1] = dev[2] = 0;
	if (!p->rotation)
		dev[3] = dev[4] = dev[5] = 0;
	/*
	 * Rotations are axial vectors, and the device's frame is left-handed
	 * (x right, y up, z away): into the right-handed world they go as
	 * -det(M) M r, so the default mirror x,z,y maps them as it maps
	 * translations (libspnav's own helpers do the same).
	 */
	sign = p->axes.det < 0 ? 1 : -1;
	for (k = 0; k < 3; k++) {
		t[k] = r[k] = 0;
		for (j = 0; j < 3; j++) {
			t[k] += p->axes.m[k][j] * dev[j];
			r[k] += sign * p->axes.m[k][j] * dev[3 + j];
		}
		any |= t[k] != 0 || r[k] != 0;
	}
	return any;
}

/* Send the force and torque for deflection t, r. */
static int
spn_force(struct spn *p, const double *t, const double *r)
{
	hxd_perturbation out;
	double f[3], tau[3];
	int k;

	for (k = 0; k < 3; k++) {
		f[k] = t[k] * p->force_scale * p->mean_mass;
		tau[k] = r[k] * p->torque_scale * p->mean_mass;
	}
	if (hxd_perturb(p->c, p->body, NULL, f, tau, &out) != HXD_OK) {
		p->last_send = program_now();
		if (driver_refused(p->c, &p->refused, "forces"))
			return 0;
		return driver_fail(p->c, "perturb");
	}
	driver_accepted(&p->refused, "forces");
	/* Three words per server timeout at least, whatever --rate says. */
	p->period = 1 / p->rate;
	if (out.timeout > 0 && p->period > out.timeout / 3)
		p->period = out.timeout / 3;
	p->perturbing = 1;
	p->last_send = program_now();
	return 0;
}

/* Let go of the body, if a force is on it. */
static int
spn_release(struct spn *p)
{
	static const double zero[3];

	if (!p->perturbing)
		return 0;
	p->perturbing = 0;
	if (hxd_perturb(p->c, p->body, NULL, zero, zero, NULL) != HXD_OK &&
	    !driver_refused(p->c, &p->refused, "releasing the body"))
		return driver_fail(p->c, "releasing the body");
	return 0;
}

/* q = exp(w dt) q: turn q about the world axis of w, |w| dt radians. */
static void
spn_rotate(double *q, const double *w, double dt)
{
	double angle = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]) * dt;
	double d[4], s;
	int k;

	if (angle == 0)
		return;
	s = sin(angle / 2) / (angle / dt);
	d[0] = cos(angle / 2);
	for (k = 0; k < 3; k++)
		d[k + 1] = w[k] * s;
	quat_mul(d, q, q);
	mocap_quat_normalize(q);
}

/* Move the pose of the mocap or floating body by dt of deflection. */
static int
spn_move(struct spn *p, enum spn_mode mode, const double *t, const double *r,
    double dt)
{
	hxd_mocap *m = NULL;
	double w[3], dp[3];
	hxd_onebody ob;
	int k, rc = -1;

	for (k = 0; k < 3; k++) {
		dp[k] = t[k] * p->speed * dt;
		w[k] = r[k] * p->turn;
	}
	if (mode == SPN_POSE) {
		if (hxd_get_onebody(p->c, p->floating, &ob) != HXD_OK)
			return driver_fail(p->c, "reading the body");
		for (k = 0; k < 3; k++)
			ob.pos[k] += dp[k];
		spn_rotate(ob.quat, w, dt);
		if (hxd_set_onebody(p->c, &ob,
			HXD_ONEBODY_POS | HXD_ONEBODY_QUAT) != HXD_OK)
			return driver_refused(p->c, &p->refused, "moves") ?
			    0 :
			    driver_fail(p->c, "moving the body");
		driver_accepted(&p->refused, "moves");
		return 0;
	}
	if (hxd_get_mocap(p->c, &m) != HXD_OK) {
		driver_fail(p->c, "reading the mocap body");
		goto out;
	}
	for (k = 0; k < 3; k++)
		m->pos[3 * p->mocap + k] += dp[k];
	spn_rotate(m->quat + 4 * p->mocap, w, dt);
	if (hxd_set_array(p->c, "mocap_pos", 3 * p->mocap, 3,
		m->pos + 3 * p->mocap) != HXD_OK ||
	    hxd_set_array(p->c, "mocap_quat", 4 * p->mocap, 4,
		m->quat + 4 * p->mocap) != HXD_OK) {
		if (driver_refused(p->c, &p->refused, "moves"))
			rc = 0;
		else
			driver_fail(p->c, "moving the mocap body");
		goto out;
	}
	driver_accepted(&p->refused, "moves");
	rc = 0;
out:
	free(m);
	return rc;
}

/*
 * Wait for the device's input, at most a period (or until its replayed
 * file's next event is due): poll's answer, -1 when a signal came.
 */
static int
spn_wait(struct spn *p)
{
	struct pollfd pfd;
	int wait, dev_wait;

	wait = (int)(p->period * 1000);
	dev_wait = spacenav_wait_ms(p->dev);
	if (dev_wait >= 0 && dev_wait < wait)
		wait = dev_wait;
	pfd.fd = spacenav_fd(p->dev);
	pfd.events = POLLIN;
	pfd.revents = 0;
	return poll(pfd.fd >= 0 ? &pfd : NULL, pfd.fd >= 0 ? 1 : 0, wait);
}

/* The buttons pressed since the last look: the first turns rotation on
 * or off, the second translation (an odd number of presses toggles). */
static void
spn_buttons(struct spn *p)
{
	if (p->in.pressed[0] > 0 && p->in.pressed[0] % 2 == 1) {
		p->rotation = !p->rotation;
		program_warn("rotation %s", p->rotation ? "on" : "off");
	}
	if (p->in.pressed[1] > 0 && p->in.pressed[1] % 2 == 1) {
		p->translation = !p->translation;
		program_warn("translation %s", p->translation ? "on" : "off");
	}
	memset(p->in.pressed, 0, sizeof(p->in.pressed));
}

/* Read the device and act, until a signal or an error. 0, or 1. */
static int
spn_run(struct spn *p)
{
	double t[3], r[3], now, last_report = 0;
	enum spn_mode mode;
	int rc, deflected, ended = 0;
	char err[256];

	p->period = 1 / p->rate;
	p->last_tick = program_now();
	while (!driver_stop) {
		if (spn_wait(p) < 0 && !driver_stop)
			continue;
		rc = spacenav_read(p->dev, &p->in, err, sizeof(err));
		if (rc < 0) {
			program_warn("%s", err);
			return 1;
		}
		if (rc == 1 && !ended) {
			ended = 1;
			if (p->verbose)
				program_warn("%s: the end; holding the last "
					     "deflection",
				    spacenav_name(p->dev));
		}
		spn_buttons(p);
		if (spn_events(p) < 0)
			return 1;
		now = program_now();
		mode = spn_mode(p);
		deflected = spn_deflection(p, t, r);
		if (mode != SPN_FORCE || !deflected) {
			if (spn_release(p) < 0)
				return 1;
		} else if (p->in.changed || now - p->last_send >= p->period) {
			if (spn_force(p, t, r) < 0)
				return 1;
		}
		if ((mode == SPN_MOCAP || mode == SPN_POSE) && deflected &&
		    now - p->last_tick >= p->period) {
			if (spn_move(p, mode, t, r, now - p->last_tick) < 0)
				return 1;
		}
		if (now - p->last_tick >= p->period || !deflected)
			p->last_tick = now;
		p->in.changed = 0;
		if (p->verbose && now - last_report >= 1) {
			last_report = now;
			program_warn(
			    "%s: translation %+.2f %+.2f %+.2f, rotation "
			    "%+.2f %+.2f %+.2f of full scale",
			    mode == SPN_FORCE    ? "force" :
				mode == SPN_NONE ? "nothing (not floating)" :
						   "pose",
			    t[0], t[1], t[2], r[0], r[1], r[2]);
		}
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct spn p;
	hxd_subscription sub;
	char err[256];
	int rc;

	program_set_name("hx-spacenav");
	memset(&p, 0, sizeof(p));
	p.force_scale = 20;
	p.torque_scale = 2;
	p.speed = 0.5;
	p.turn = 1.5;
	p.full_scale = 350;
	p.deadzone = 10;
	p.rate = 60;
	p.translation = 1;
	if ((rc = spn_options(&p, argc, argv)) != 0)
		return rc > 0 ? 0 : 2;
	driver_signals();
	p.dev = p.evdev != NULL ?
	    spacenav_open_evdev(p.evdev, err, sizeof(err)) :
	    spacenav_open_spnav(err, sizeof(err));
	if (p.dev == NULL) {
		program_warn("%s", err);
		return 1;
	}
	if ((p.c = driver_connect(p.server, "hx-spacenav")) == NULL) {
		spacenav_close(p.dev);
		return 1;
	}
	memset(&sub, 0, sizeof(sub));
	sub.events = 1;
	if (hxd_subscribe(p.c, &sub, NULL) != HXD_OK)
		rc = driver_fail(p.c, "subscribing to events") < 0;
	else if (spn_model(&p) < 0)
		rc = 1;
	else
		rc = spn_run(&p);
	/* Let go before leaving (the server would, when the connection
	 * ends, but says so as if something went wrong). */
	if (hxd_connected(p.c) && spn_release(&p) < 0)
		rc = 1;
	hxd_close(p.c);
	spacenav_close(p.dev);
	return rc;
}
