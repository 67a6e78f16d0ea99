/*
 * hx-spacenav and drivers' perturbations through a real haptixd: files of
 * evdev events and a fake spacenavd (libspnav's protocol) push and turn
 * bodies the way the device's axes say, mocap and paused floating bodies
 * move directly, and a driver's force goes when it exits, falls silent
 * or disconnects.
 */
#include "config.h"

#include <errno.h>
#include <linux/input.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "check.h"
#include "harness.h"
#include "haptixd.h"

TestSuite(spacenav, .timeout = 60, .fini = hx_server_cleanup);

static const char *const scene[] = { "-m", "mpl_scene.xml", NULL };
static const char *const scene_paused[] = { "-m", "mpl_scene.xml", "--paused",
	NULL };
/*
 * For the pushes, whose subject is the force's direction and its release
 * at exit, not the silence timeout (tested on its own below): a machine
 * loaded enough to keep the driver from its CPU for 200 ms (a CI run
 * beside other work did) must not drop the force mid-test.
 */
static const char *const scene_patient[] = { "-m", "mpl_scene.xml",
	"--perturb-timeout", "2000", NULL };

/* One evdev event at time t (seconds). */
static void
put_event(FILE *f, double t, int type, int code, int value)
{
	struct input_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.input_event_sec = (long)t;
	ev.input_event_usec = (long)((t - floor(t)) * 1e6);
	ev.type = (unsigned short)type;
	ev.code = (unsigned short)code;
	ev.value = value;
	cr_assert_eq(fwrite(&ev, sizeof(ev), 1, f), 1);
}

/*
 * A file of events that deflects device axis `axis` by value from t = 0
 * (relative events, as a SpaceNavigator sends them), after pressing the
 * buttons in `buttons` (a bit per button).
 */
static void
deflection_file(const char *path, int axis, int value, unsigned buttons)
{
	FILE *f = fopen(path, "wb");
	int b;

	cr_assert_not_null(f, "%s: %s", path, strerror(errno));
	for (b = 0; b < 8; b++)
		if (buttons & (1u << b)) {
			put_event(f, 1000.0, EV_KEY, BTN_0 + b, 1);
			put_event(f, 1000.0, EV_KEY, BTN_0 + b, 0);
		}
	put_event(f, 1000.0, EV_REL, axis, value);
	put_event(f, 1000.0, EV_SYN, SYN_REPORT, 0);
	cr_assert_eq(fclose(f), 0);
}

/* The mean body mass, as the driver scales by it. */
static double
mean_mass(hxd_conn *c)
{
	hxd_array *a;
	double sum = 0;
	int k;

	HX_OK(c, hxd_get_array(c, "body_mass", &a));
	for (k = 1; k < a->rows; k++)
		sum += a->values[k];
	sum /= a->rows - 1;
	free(a);
	return sum;
}

/* Wait up to ms for the status to show n perturbations; the status. */
static hxd_status
wait_perturbations(hxd_conn *c, int n, int ms)
{
	double deadline = hx_wall_now() + ms / 1000.0;
	hxd_status st;

	do {
		HX_OK(c, hxd_status_get(c, &st));
		if (st.nperturbations == n)
			break;
		hx_sleep_ms(10);
	} while (hx_wall_now() < deadline);
	return st;
}

/* Start hx-spacenav on body with an evdev file and extra arguments. */
static void
spacenav_start(struct hx_proc *p, const struct hx_server *s, const char *file,
    const char *body, const char *extra)
{
	const char *argv[12];
	int n = 0;

	argv[n++] = hx_spacenav_path();
	argv[n++] = "-s";
	argv[n++] = s->unix_addr;
	argv[n++] = "--evdev";
	argv[n++] = file;
	if (extra != NULL)
		argv[n++] = extra;
	argv[n++] = body;
	argv[n] = NULL;
	hx_proc_start(p, argv, NULL);
}

/*
 * Wait until the driver says which body it drives (it is connected and
 * reading the device): the timed checks start there, since a loaded
 * machine may start it late (a fresh root did, past 400 ms).
 */
static void
spacenav_wait_started(struct hx_proc *p)
{
	double end = hx_wall_now() + 10;
	char *out;

	while (strstr(out = hx_proc_output(p), ": body '") == NULL) {
		cr_assert(hx_proc_running(p) && hx_wall_now() < end,
		    "hx-spacenav did not start: %s", out);
		free(out);
		hx_sleep_ms(20);
	}
	free(out);
}

/*
 * Each device axis pushes the cube along the world axis it stands for,
 * with the documented force: 20 N per kg of mean body mass at full
 * deflection; the cube accelerates that way; exiting releases it.
 */
static void
push_along(int dev_axis, int world_axis, int sign)
{
	struct hx_server s;
	struct hx_proc p;
	hxd_onebody before, after;
	hxd_status st;
	hxd_array *x;
	char file[512], *out;
	double m;
	int cube, k;

	/* The sphere, free to roll: the cube sits in the hand. */
	hx_server_start(&s, scene_patient);
	snprintf(file, sizeof(file), "%s/push.ev", s.dir);
	deflection_file(file, dev_axis, 175 * sign, 0);
	hxd_conn *c = hx_connect_ok(s.unix_addr, "watcher");
	HX_OK(c, hxd_name2id(c, HXD_OBJ_BODY, "sphere", &cube));
	m = mean_mass(c);
	hx_sleep_ms(300); /* let the cube settle on the table */
	HX_OK(c, hxd_get_onebody(c, cube, &before));

	spacenav_start(&p, &s, file, "sphere", NULL);
	st = wait_perturbations(c, 1, 5000);
	cr_assert_eq(
	    st.nperturbations, 1, "no perturbation: %s", hx_proc_output(&p));
	cr_expect_eq(st.perturbations[0].body, cube);
	cr_expect_str_eq(st.perturbations[0].name, "sphere");
	cr_expect_str_eq(st.perturbations[0].driver_name, "hx-spacenav");
	for (k = 0; k < 3; k++) {
		cr_expect(
		    fabs(st.perturbations[0].force[k] -
			(k == world_axis ? sign * 0.5 * 20 * m : 0)) < 1e-9,
		    "force[%d] = %g", k, st.perturbations[0].force[k]);
		cr_expect_eq(st.perturbations[0].torque[k], 0,
		    "rotation is off at first");
	}
	hx_sleep_ms(250);
	HX_OK(c, hxd_get_onebody(c, cube, &after));
	cr_expect(
	    sign * (after.linvel[world_axis] - before.linvel[world_axis]) >
		0.05,
	    "the sphere did not speed up along world axis %d: %g -> %g",
	    world_axis, before.linvel[world_axis], after.linvel[world_axis]);
	for (k = 0; k < 3; k++)
		if (k != world_axis && (k != 2 || world_axis == 2))
			cr_expect(fabs(after.linvel[k]) <
				fabs(after.linvel[world_axis]),
			    "world axis %d moved more (%g)", k,
			    after.linvel[k]);

	/* Exiting lets go: no perturbation, the row zero, no "dropped". */
	cr_expect_eq(hx_proc_stop(&p, SIGTERM, 5000), 0);
	out = hx_proc_output(&p);
	cr_expect(strstr(out, "body 'sphere'") != NULL, "%s", out);
	free(out);
	st = wait_perturbations(c, 0, 2000);
	cr_expect_eq(st.nperturbations, 0);
	HX_OK(c, hxd_get_array(c, "xfrc_applied", &x));
	for (k = 0; k < 6; k++)
		cr_expect_eq(x->values[6 * cube + k], 0);
	free(x);
	cr_expect(
	    !hx_server_log_has(&s, "dropped"), "%s", hx_server_log_text(&s));
	hxd_close(c);
	hx_server_stop(&s);
}

Test(spacenav, device_x_pushes_world_x)
{
	push_along(0, 0, 1);
}

Test(spacenav, device_z_away_pushes_world_y)
{
	push_along(2, 1, 1);
}

Test(spacenav, device_y_up_lifts_world_z)
{
	push_along(1, 2, 1);
}

Test(spacenav, device_x_left_pushes_world_minus_x)
{
	push_along(0, 0, -1);
}

/* A fake spacenavd: accepts one client and sends it events. */
struct fake_spnavd {
	char path[300];
	int listener;
	int32_t events[8][8];
	int nevents;
	int client;
};

/* Accept libspnav, let its protocol request go unanswered (a version 0
 * server), then send the events. */
static void *
fake_spnavd_serve(void *arg)
{
	struct fake_spnavd *f = arg;
	char buf[64];
	int k;

	f->client = accept(f->listener, NULL, NULL);
	if (f->client < 0)
		return NULL;
	/* libspnav asks for protocol 1; a version 0 server stays silent,
	 * and it then sends the sensitivity (4 bytes) after 300 ms. */
	(void)read(f->client, buf, sizeof(buf));
	hx_sleep_ms(400);
	for (k = 0; k < f->nevents; k++)
		(void)write(f->client, f->events[k], sizeof(f->events[k]));
	return NULL;
}

/*
 * Through libspnav and a fake spacenavd: the left button turns rotation
 * on, and turning the cap about its y (up) axis turns the body about
 * world z with the documented torque (2 N m per kg of mean body mass at
 * full deflection); translation, untouched, stays zero.
 */
Test(spacenav, spacenavd_protocol_turns_a_body)
{
	struct fake_spnavd f;
	struct sockaddr_un sa;
	struct hx_server s;
	struct hx_proc p;
	pthread_t th;
	hxd_status st;
	char env[400], *out;
	const char *argv[6], *envv[2];
	double m;
	int k;

	hx_server_start(&s, scene);
	memset(&f, 0, sizeof(f));
	snprintf(f.path, sizeof(f.path), "%s/spnav.sock", s.dir);
	f.listener = socket(AF_UNIX, SOCK_STREAM, 0);
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	cr_assert_lt(strlen(f.path), sizeof(sa.sun_path));
	memcpy(sa.sun_path, f.path, strlen(f.path) + 1);
	cr_assert_eq(bind(f.listener, (struct sockaddr *)&sa, sizeof(sa)), 0,
	    "%s", strerror(errno));
	cr_assert_eq(listen(f.listener, 1), 0);
	/* UEV_PRESS 0, UEV_RELEASE 0, UEV_MOTION ry = 350. */
	f.events[0][0] = 1;
	f.events[1][0] = 2;
	f.events[2][0] = 0;
	f.events[2][5] = 350;
	f.events[2][7] = 16;
	f.nevents = 3;
	cr_assert_eq(pthread_create(&th, NULL, fake_spnavd_serve, &f), 0);

	hxd_conn *c = hx_connect_ok(s.unix_addr, "watcher");
	m = mean_mass(c);
	snprintf(env, sizeof(env), "SPNAV_SOCKET=%s", f.path);
	envv[0] = env;
	envv[1] = NULL;
	argv[0] = hx_spacenav_path();
	argv[1] = "-s";
	argv[2] = s.unix_addr;
	argv[3] = "sphere";
	argv[4] = NULL;
	hx_proc_start(&p, argv, envv);
	st = wait_perturbations(c, 1, 5000);
	cr_assert_eq(st.nperturbations, 1, "%s", out = hx_proc_output(&p));
	for (k = 0; k < 3; k++) {
		cr_expect_eq(st.perturbations[0].force[k], 0);
		cr_expect(fabs(st.perturbations[0].torque[k] -
			      (k == 2 ? 2 * m : 0)) < 1e-9,
		    "torque[%d] = %g", k, st.perturbations[0].torque[k]);
	}
	cr_expect_eq(hx_proc_stop(&p, SIGTERM, 5000), 0);
	out = hx_proc_output(&p);
	cr_expect(strstr(out, "rotation on") != NULL, "%s", out);
	free(out);
	pthread_join(th, NULL);
	close(f.client);
	close(f.listener);
	hxd_close(c);
	hx_server_stop(&s);
}

/*
 * A driver that falls silent (stopped, as by a lost network) loses its
 * force after --perturb-timeout, and the server logs it and announces
 * it; the body then slows down under gravity and friction alone.
 */
Test(spacenav, silence_drops_the_force)
{
	static const char *const args[] = { "-m", "mpl_scene.xml",
		"--perturb-timeout", "100", NULL };
	hxd_subscription sub = { .events = 1 };
	struct hx_server s;
	struct hx_proc p;
	hxd_status st;
	hxd_event *ev;
	hxd_array *x;
	char file[512];
	double t0;
	int cube, k, seen = 0;

	hx_server_start(&s, args);
	snprintf(file, sizeof(file), "%s/push.ev", s.dir);
	deflection_file(file, 0, 350, 0);
	hxd_conn *c = hx_connect_ok(s.unix_addr, "watcher");
	HX_OK(c, hxd_subscribe(c, &sub, NULL));
	HX_OK(c, hxd_name2id(c, HXD_OBJ_BODY, "cube", &cube));
	spacenav_start(&p, &s, file, "cube", NULL);
	st = wait_perturbations(c, 1, 5000);
	cr_assert_eq(st.nperturbations, 1);
	cr_expect(fabs(st.perturb_timeout - 0.1) < 1e-12);
	cr_expect(fabs(st.perturbations[0].timeout - 0.1) < 1e-12);

	kill(p.pid, SIGSTOP);
	t0 = hx_wall_now();
	st = wait_perturbations(c, 0, 3000);
	cr_expect_eq(st.nperturbations, 0, "the force outlived its driver");
	cr_expect(hx_wall_now() - t0 >= 0.09, "dropped too soon");
	HX_OK(c, hxd_get_array(c, "xfrc_applied", &x));
	for (k = 0; k < 6; k++)
		cr_expect_eq(x->values[6 * cube + k], 0);
	free(x);
	cr_expect(hx_server_log_has(&s, "dropped: silence"), "%s",
	    hx_server_log_text(&s));
	while (hxd_next_event(c, 1000, &ev) == HXD_OK) {
		if (ev->kind == HXD_EVENT_PERTURBATION) {
			cr_expect(
			    strncmp(ev->why, "silence", 7) == 0, "%s", ev->why);
			cr_expect_eq(ev->perturbation.body, cube);
			cr_expect(ev->perturbation.force[0] > 0);
			seen++;
		}
		hxd_event_free(ev);
		if (seen)
			break;
	}
	cr_expect_eq(seen, 1, "no perturbation event");

	/* Woken, it sends again and the force is back. */
	kill(p.pid, SIGCONT);
	st = wait_perturbations(c, 1, 5000);
	cr_expect_eq(st.nperturbations, 1);
	hx_proc_stop(&p, SIGTERM, 5000);
	hxd_close(c);
	hx_server_stop(&s);
}

/* Another client (b) writes the cube's row: the drop leaves it alone. */
static void
expect_others_write_kept(hxd_conn *b, int cube)
{
	double xf[6];
	hxd_applied *ap;
	hxd_status st;
	hxd_array *x;
	int k;

	HX_OK(b, hxd_get_applied(b, &ap));
	for (k = 0; k < 6; k++)
		xf[k] = 10 + k;
	memcpy(ap->xfrc_applied + 6 * cube, xf, sizeof(xf));
	HX_OK(b, hxd_set_applied(b, ap));
	free(ap);
	st = wait_perturbations(b, 0, 2000);
	cr_expect_eq(st.nperturbations, 0);
	HX_OK(b, hxd_get_array(b, "xfrc_applied", &x));
	cr_expect_eq(x->values[6 * cube + 0], 10, "another's write undone");
	free(x);
}

/*
 * Zero (from b) releases the force f, t on the cube; bad calls are
 * refused, the server goes on.
 */
static void
expect_zero_and_bad_calls(
    hxd_conn *b, int cube, const double *f, const double *t)
{
	static const double zero[3];
	double nan3[3] = { NAN, 0, 0 };
	hxd_perturbation out;
	hxd_status st;

	HX_OK(b, hxd_perturb(b, cube, NULL, f, t, NULL));
	HX_OK(b, hxd_perturb(b, cube, NULL, zero, zero, &out));
	HX_OK(b, hxd_status_get(b, &st));
	cr_expect_eq(st.nperturbations, 0);
	cr_expect_eq(hxd_perturb(b, 0, NULL, f, t, NULL), HXD_BADINDEX);
	cr_expect(strstr(hxd_error(b), "world") != NULL, "%s", hxd_error(b));
	cr_expect_eq(hxd_perturb(b, 9999, NULL, f, t, NULL), HXD_BADINDEX);
	cr_expect_eq(
	    hxd_perturb(b, 0, "no such body", f, t, NULL), HXD_BADINDEX);
	cr_expect_eq(hxd_perturb(b, cube, NULL, nan3, t, NULL), HXD_BADVALUE);
	HX_OK(b, hxd_status_get(b, &st));
	cr_expect_eq(st.nperturbations, 0);
}

/*
 * A load forgets the forces, and says so.  Loads compile in a loader
 * process while the daemon goes on: with a timeout longer than any load
 * (s restarted with args_long), the force is there until the model
 * changes.
 */
static void
expect_load_forgets(struct hx_server *s, const char *const *args_long, int cube,
    const double *f, const double *t)
{
	hxd_subscription sub = { .events = 1 };
	hxd_event *ev;
	hxd_status st;
	hxd_conn *b;
	int seen = 0;

	hx_server_stop(s);
	hx_server_start(s, args_long);
	b = hx_connect_ok(s->unix_addr, "other");
	HX_OK(b, hxd_subscribe(b, &sub, NULL));
	HX_OK(b, hxd_perturb(b, cube, NULL, f, t, NULL));
	HX_OK(b, hxd_reload(b, NULL));
	while (!seen && hxd_next_event(b, 1000, &ev) == HXD_OK) {
		if (ev->kind == HXD_EVENT_PERTURBATION) {
			cr_expect_str_eq(ev->why, "model loaded");
			cr_expect_eq(ev->perturbation.body, cube);
			cr_expect_str_eq(ev->perturbation.name, "",
			    "a name from the new model");
			seen = 1;
		}
		hxd_event_free(ev);
	}
	cr_expect(seen, "no event on load");
	HX_OK(b, hxd_status_get(b, &st));
	cr_expect_eq(st.nperturbations, 0);
	hxd_close(b);
	hx_server_stop(s);
}

/*
 * Through the protocol: a force stays while repeated; a client that
 * disconnects loses it (announced); another client's write to the row
 * is not undone by the drop; the checks on the call.
 */
Test(spacenav, perturb_call)
{
	static const char *const args[] = { "-m", "mpl_scene.xml",
		"--perturb-timeout", "150", NULL };
	static const char *const args_long[] = { "-m", "mpl_scene.xml",
		"--perturb-timeout", "60000", NULL };
	static const double f[3] = { 1, 2, 3 }, t[3] = { 0.1, 0.2, 0.3 };
	hxd_perturbation out;
	struct hx_server s;
	hxd_status st;
	hxd_array *x;
	int cube, k;

	hx_server_start(&s, args);
	hxd_conn *a = hx_connect_ok(s.unix_addr, "driver");
	hxd_conn *b = hx_connect_ok(s.unix_addr, "other");
	HX_OK(a, hxd_name2id(a, HXD_OBJ_BODY, "cube", &cube));

	HX_OK(a, hxd_perturb(a, 0, "cube", f, t, &out));
	cr_expect_eq(out.body, cube);
	cr_expect_eq(out.force[2], 3);
	cr_expect_eq(out.torque[1], 0.2);
	cr_expect(fabs(out.timeout - 0.15) < 1e-12);
	for (k = 0; k < 6; k++) {
		hx_sleep_ms(50);
		HX_OK(a, hxd_perturb(a, cube, NULL, f, t, NULL));
	}
	HX_OK(b, hxd_status_get(b, &st));
	cr_expect_eq(st.nperturbations, 1, "repeated, it stays");
	HX_OK(b, hxd_get_array(b, "xfrc_applied", &x));
	cr_expect_eq(x->values[6 * cube + 0], 1);
	cr_expect_eq(x->values[6 * cube + 5], 0.3);
	free(x);

	expect_others_write_kept(b, cube);

	/* A disconnecting driver's force goes at once. */
	HX_OK(a, hxd_perturb(a, cube, NULL, f, t, NULL));
	hxd_close(a);
	st = wait_perturbations(b, 0, 100);
	cr_expect_eq(st.nperturbations, 0);
	cr_expect(hx_server_log_has(&s, "dropped: driver left"), "%s",
	    hx_server_log_text(&s));

	expect_zero_and_bad_calls(b, cube, f, t);

	hxd_close(b);
	expect_load_forgets(&s, args_long, cube, f, t);
}

/* On a mocap body the device moves its pose, running or paused. */
Test(spacenav, mocap_body_moves_directly)
{
	struct hx_server s;
	struct hx_proc p;
	hxd_mocap *before, *after;
	hxd_status st;
	char file[512];
	double dx;

	hx_server_start(&s, scene_paused);
	snprintf(file, sizeof(file), "%s/right.ev", s.dir);
	deflection_file(file, 0, 350, 0);
	hxd_conn *c = hx_connect_ok(s.unix_addr, "watcher");
	HX_OK(c, hxd_get_mocap(c, &before));
	spacenav_start(&p, &s, file, "mocap", NULL);
	spacenav_wait_started(&p);
	hx_sleep_ms(400);
	HX_OK(c, hxd_status_get(c, &st));
	cr_expect_eq(st.nperturbations, 0, "a mocap body takes no force");
	cr_expect_eq(hx_proc_stop(&p, SIGTERM, 5000), 0);
	HX_OK(c, hxd_get_mocap(c, &after));
	dx = after->pos[0] - before->pos[0];
	/* 0.5 m/s at full deflection for about 0.4 s. */
	cr_expect(dx > 0.05 && dx < 0.5, "moved %g", dx);
	cr_expect(fabs(after->pos[1] - before->pos[1]) < 1e-12);
	cr_expect(fabs(after->pos[2] - before->pos[2]) < 1e-12);
	free(before);
	free(after);
	hxd_close(c);
	hx_server_stop(&s);
}

/* Paused, a floating body's pose moves; no force is applied. */
Test(spacenav, paused_floating_body_moves_directly)
{
	struct hx_server s;
	struct hx_proc p;
	hxd_onebody before, after;
	hxd_status st;
	char file[512];
	int cube;

	hx_server_start(&s, scene_paused);
	snprintf(file, sizeof(file), "%s/up.ev", s.dir);
	deflection_file(file, 1, 350, 0);
	hxd_conn *c = hx_connect_ok(s.unix_addr, "watcher");
	HX_OK(c, hxd_name2id(c, HXD_OBJ_BODY, "cube", &cube));
	HX_OK(c, hxd_get_onebody(c, cube, &before));
	spacenav_start(&p, &s, file, "cube", NULL);
	spacenav_wait_started(&p);
	hx_sleep_ms(400);
	HX_OK(c, hxd_status_get(c, &st));
	cr_expect_eq(st.nperturbations, 0);
	cr_expect_eq(hx_proc_stop(&p, SIGTERM, 5000), 0);
	HX_OK(c, hxd_get_onebody(c, cube, &after));
	cr_expect(after.pos[2] - before.pos[2] > 0.05, "rose %g",
	    after.pos[2] - before.pos[2]);
	cr_expect(fabs(after.pos[0] - before.pos[0]) < 1e-9);
	cr_expect_eq(st.time, after.time, "paused: no step was taken");
	hxd_close(c);
	hx_server_stop(&s);
}

/* Usage errors exit 2, a body the model lacks exits 1, saying so. */
Test(spacenav, bad_usage)
{
	struct hx_server s;
	struct hx_run r = { 0 };
	char file[512];

	hx_server_start(&s, scene_paused);
	snprintf(file, sizeof(file), "%s/up.ev", s.dir);
	deflection_file(file, 1, 350, 0);
	hx_run_args(&r, hx_spacenav_path(), "-s", s.unix_addr, NULL);
	cr_expect_eq(r.status, 2);
	cr_expect(strstr(r.err, "name the body") != NULL, "%s", r.err);
	hx_run_args(&r, hx_spacenav_path(), "--full-scale", "0", "cube", NULL);
	cr_expect_eq(r.status, 2);
	hx_run_args(&r, hx_spacenav_path(), "--axes", "x,x,y", "cube", NULL);
	cr_expect_eq(r.status, 2);
	hx_run_args(&r, hx_spacenav_path(), "-s", s.unix_addr, "--evdev", file,
	    "nosuch", NULL);
	cr_expect_eq(r.status, 1);
	cr_expect(strstr(r.err, "no body named 'nosuch'") != NULL, "%s", r.err);
	hx_run_args(&r, hx_spacenav_path(), "-s", s.unix_addr, "--evdev",
	    "/nonexistent/event0", "cube", NULL);
	cr_expect_eq(r.status, 1);
	cr_expect(strstr(r.err, "/nonexistent/event0") != NULL, "%s", r.err);
	hx_run_args(&r, hx_spacenav_path(), "--help", NULL);
	cr_expect_eq(r.status, 0);
	cr_expect(strstr(r.out, "--evdev") != NULL);
	hx_run_free(&r);
	hx_server_stop(&s);
}

/*
 * A controller that holds the lease refuses the driver's writes: the
 * driver says so once and waits; once the lease is let go, the force
 * goes on.
 */
Test(spacenav, lease_refusal_is_waited_out)
{
	struct hx_server s;
	struct hx_proc p;
	hxd_status st;
	char file[512], *out, *first;
	double end;

	hx_server_start(&s, scene);
	snprintf(file, sizeof(file), "%s/push.ev", s.dir);
	deflection_file(file, 0, 350, 0);
	hxd_conn *c = hx_connect_ok(s.unix_addr, "controller");
	HX_OK(c, hxd_lease(c, HXD_LEASE_TAKE, NULL));
	spacenav_start(&p, &s, file, "sphere", NULL);
	/* Until it was refused: a loaded machine starts the driver late. */
	end = hx_wall_now() + 10;
	while (strstr(out = hx_proc_output(&p), "forces refused") == NULL &&
	    hx_proc_running(&p) && hx_wall_now() < end) {
		free(out);
		hx_sleep_ms(50);
	}
	free(out);
	hx_sleep_ms(200);
	HX_OK(c, hxd_status_get(c, &st));
	cr_expect_eq(st.nperturbations, 0, "a write past the lease");
	cr_expect(hx_proc_running(&p), "the driver gave up: %s",
	    out = hx_proc_output(&p));
	HX_OK(c, hxd_lease(c, HXD_LEASE_RELEASE, NULL));
	st = wait_perturbations(c, 1, 3000);
	cr_expect_eq(st.nperturbations, 1, "no force after the lease went");
	cr_expect_eq(hx_proc_stop(&p, SIGTERM, 5000), 0);
	out = hx_proc_output(&p);
	first = strstr(out, "forces refused");
	cr_expect(first != NULL, "%s", out);
	if (first != NULL)
		cr_expect(strstr(first + 1, "forces refused") == NULL,
		    "said more than once: %s", out);
	cr_expect(strstr(out, "forces taken again") != NULL, "%s", out);
	free(out);
	hxd_close(c);
	hx_server_stop(&s);
}

/*
 * A live device (a pipe stands in for /dev/input/eventN): events as they
 * come push the body; the device going away ends the driver with status
 * 1, and it lets go of the body first.
 */
Test(spacenav, live_device_and_its_loss)
{
	struct input_event ev[2];
	struct hx_server s;
	struct hx_proc p;
	hxd_status st;
	char fifo[512], *out;
	int fd;

	hx_server_start(&s, scene);
	snprintf(fifo, sizeof(fifo), "%s/event0", s.dir);
	cr_assert_eq(mkfifo(fifo, 0600), 0, "%s", strerror(errno));
	hxd_conn *c = hx_connect_ok(s.unix_addr, "watcher");
	spacenav_start(&p, &s, fifo, "sphere", NULL);
	fd = open(fifo, O_WRONLY);
	cr_assert(fd >= 0, "%s", strerror(errno));
	hx_sleep_ms(200);
	HX_OK(c, hxd_status_get(c, &st));
	cr_expect_eq(st.nperturbations, 0, "a force before any event");
	memset(ev, 0, sizeof(ev));
	ev[0].type = EV_REL;
	ev[0].code = REL_X;
	ev[0].value = 200;
	ev[1].type = EV_SYN;
	cr_assert_eq(write(fd, ev, sizeof(ev)), (ssize_t)sizeof(ev));
	st = wait_perturbations(c, 1, 3000);
	cr_expect_eq(st.nperturbations, 1);
	cr_expect(st.perturbations[0].force[0] > 0);
	close(fd);
	cr_expect_eq(hx_proc_stop(&p, 0, 5000), 1);
	out = hx_proc_output(&p);
	cr_expect(strstr(out, "the device is gone") != NULL, "%s", out);
	free(out);
	st = wait_perturbations(c, 0, 100);
	cr_expect_eq(st.nperturbations, 0);
	cr_expect(!hx_server_log_has(&s, "dropped"),
	    "the driver did not let go itself: %s", hx_server_log_text(&s));
	hxd_close(c);
	hx_server_stop(&s);
}
