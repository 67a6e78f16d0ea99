/*
 * The workbench's perturbation (a Ctrl+drag in the browser) against
 * MuJoCo's own, as simulate computes it: hxview serve's /control/select
 * and /control/perturb driven over HTTP as the page drives them, on the
 * table scene (mpl_scene.xml) paused, and the force and torque the
 * daemon then holds in xfrc_applied compared with mjv_initPerturb(),
 * mjv_movePerturb() and mjv_applyPerturbForce() run here, on the
 * daemon's own MJB and state, with the camera as MuJoCo's
 * mjv_updateCamera() makes it and the same cursor moves: bit for bit,
 * since both are the same MuJoCo library doing the same arithmetic on the
 * same model, state (hxview's from the paused daemon's frames, here from
 * its arrays, each then through mj_forward) and single-precision camera
 * (the page's numbers become floats; %.9g gives each float exactly).
 * A frustum made otherwise (hxview's own near plane and tan() in double
 * precision) scales the moves by 1.4e-7 more for a 45 degree view.
 *
 * It needs hxview's EGL (hxview serve starts it), not a browser: it
 * skips (77, with the reason) when `hxview egl` cannot render.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <mujoco/mujoco.h>

#include "browser.h"
#include "check.h"
#include "harness.h"
#include "haptixd.h"
#include "mjb_memory.h"

#define WAIT_SECONDS 15.0

static void cleanup(void);

TestSuite(perturb, .timeout = 180, .fini = cleanup);

static struct hx_server server;
static hxd_conn *conn;
static int events_fd = -1; /* the page's event stream, as a page holds it */

static void
cleanup(void)
{
	if (events_fd != -1)
		close(events_fd);
	events_fd = -1;
	browser_cleanup(&conn);
}

/* A TCP connection to hxview on the loopback address. */
static int
connect_view(int port)
{
	struct sockaddr_in a;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	cr_assert_neq(fd, -1, "socket: %s", strerror(errno));
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_port = htons((unsigned short)port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	cr_assert_eq(connect(fd, (struct sockaddr *)&a, sizeof(a)), 0,
	    "connect to hxview's port %d: %s", port, strerror(errno));
	return fd;
}

/* Everything the event stream has sent by now; its newest step or -1. */
static long long
events_drain(void)
{
	static char tail[256];
	char buf[65536], *p, *last = NULL;
	struct pollfd pfd = { .fd = events_fd, .events = POLLIN };
	long long step = -1, s;
	size_t keep;
	ssize_t n;

	while (poll(&pfd, 1, 0) > 0) {
		keep = strlen(tail);
		memcpy(buf, tail, keep);
		n = recv(events_fd, buf + keep, sizeof(buf) - 1 - keep, 0);
		cr_assert(n > 0, "hxview closed the page's event stream");
		buf[keep + (size_t)n] = '\0';
		for (p = strstr(buf, "\"step\":"); p != NULL;
		     p = strstr(p + 1, "\"step\":"))
			last = p;
		if (last != NULL && sscanf(last, "\"step\":%lld", &s) == 1 &&
		    strchr(last, ',') != NULL)
			step = s;
		/* A number cut at the read's end is read whole next time. */
		keep = keep + (size_t)n;
		keep = keep > 64 ? 64 : keep;
		memcpy(tail, buf + strlen(buf) - keep, keep);
		tail[keep] = '\0';
		last = NULL;
	}
	return step;
}

/* Open the event stream as a page does; the page's id. */
static unsigned
events_open(int port)
{
	char req[256], buf[8192], *p;
	double end = hx_wall_now() + WAIT_SECONDS;
	struct pollfd pfd;
	size_t len = 0;
	unsigned id;
	ssize_t n;

	events_fd = connect_view(port);
	snprintf(req, sizeof(req),
	    "GET /events HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
	    "Accept: text/event-stream\r\n\r\n",
	    port);
	cr_assert_eq(send(events_fd, req, strlen(req), MSG_NOSIGNAL),
	    (ssize_t)strlen(req));
	buf[0] = '\0';
	while ((p = strstr(buf, "event: hello\ndata: {\"id\":")) == NULL ||
	    sscanf(p, "event: hello\ndata: {\"id\":%u,", &id) != 1) {
		pfd.fd = events_fd;
		pfd.events = POLLIN;
		cr_assert(len < sizeof(buf) - 1 && hx_wall_now() < end &&
			poll(&pfd, 1, 1000) >= 0,
		    "no hello on the event stream: %s", buf);
		if (!(pfd.revents & POLLIN))
			continue;
		n = recv(events_fd, buf + len, sizeof(buf) - 1 - len, 0);
		cr_assert(n > 0, "hxview closed the event stream: %s", buf);
		len += (size_t)n;
		buf[len] = '\0';
	}
	return id;
}

/*
 * POST /control/NAME?QUERY as the page does (its header); fails the
 * test unless hxview answers 200 with "ok":true.
 */
static void
control(int port, const char *name, const char *query)
{
	char *req, buf[8192];
	double end = hx_wall_now() + WAIT_SECONDS;
	struct pollfd pfd;
	size_t len = 0;
	int fd = connect_view(port), code = -1;
	ssize_t n;

	cr_assert(asprintf(&req,
		      "POST /control/%s?%s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
		      "X-Hxview: 1\r\nContent-Length: 0\r\n"
		      "Connection: close\r\n\r\n",
		      name, query, port) > 0);
	cr_assert_eq(
	    send(fd, req, strlen(req), MSG_NOSIGNAL), (ssize_t)strlen(req));
	free(req);
	buf[0] = '\0';
	for (;;) {
		pfd.fd = fd;
		pfd.events = POLLIN;
		cr_assert(len < sizeof(buf) - 1 && hx_wall_now() < end &&
			poll(&pfd, 1, 1000) >= 0,
		    "no answer to /control/%s: %s", name, buf);
		if (!(pfd.revents & (POLLIN | POLLHUP)))
			continue;
		n = recv(fd, buf + len, sizeof(buf) - 1 - len, 0);
		if (n <= 0)
			break;
		len += (size_t)n;
		buf[len] = '\0';
	}
	close(fd);
	sscanf(buf, "HTTP/1.%*c %d", &code);
	cr_assert(code == 200 && strstr(buf, "\"ok\":true") != NULL,
	    "/control/%s?%s: %s", name, query, buf);
	/* The stream must not back up while the test talks. */
	events_drain();
}

/* The daemon's MJB, loaded here through a VFS as hxview loads it. */
static mjModel *
model_fetch(hxd_conn *c)
{
	hxd_model_blob blob;
	mjModel *m;

	HX_OK(c, hxd_get_model(c, &blob));
	cr_assert_eq(blob.mujoco_version, mj_version(),
	    "the daemon's MuJoCo is %d, ours %d", blob.mujoco_version,
	    mj_version());
	m = mjb_memory_load(blob.mjb, blob.size);
	hxd_model_blob_free(&blob);
	cr_assert_not_null(m, "MuJoCo did not load the daemon's MJB");
	return m;
}

/* n values of the daemon's array name into out, exactly. */
static void
array_into(hxd_conn *c, const char *name, double *out, int n)
{
	hxd_array *a = NULL;

	HX_OK(c, hxd_get_array(c, name, &a));
	cr_assert_eq(a->rows * a->cols, n, "%s: %d values, not %d", name,
	    a->rows * a->cols, n);
	memcpy(out, a->values, sizeof(double) * (size_t)n);
	free(a);
}

/*
 * The daemon's state into d, as hxview takes it from a frame (time,
 * qpos, qvel, act, ctrl, mocap, applied forces), then mj_forward().
 */
static void
state_fetch(hxd_conn *c, const mjModel *m, mjData *d)
{
	d->time = hx_status_ok(c).time;
	array_into(c, "qpos", d->qpos, m->nq);
	array_into(c, "qvel", d->qvel, m->nv);
	array_into(c, "act", d->act, m->na);
	array_into(c, "ctrl", d->ctrl, m->nu);
	array_into(c, "mocap_pos", d->mocap_pos, 3 * m->nmocap);
	array_into(c, "mocap_quat", d->mocap_quat, 4 * m->nmocap);
	array_into(c, "qfrc_applied", d->qfrc_applied, m->nv);
	array_into(c, "xfrc_applied", d->xfrc_applied, 6 * m->nbody);
	mj_forward(m, d);
}

/* Wait until hxview's frames have caught up with the paused daemon. */
static void
wait_view_caught_up(hxd_conn *c)
{
	unsigned long long steps = hx_status_ok(c).steps;
	double end = hx_wall_now() + WAIT_SECONDS;
	long long seen = -1, s;

	while (seen != (long long)steps) {
		cr_assert(hx_wall_now() < end,
		    "hxview's frames did not reach step %llu (at %lld)", steps,
		    seen);
		if ((s = events_drain()) >= 0)
			seen = s;
		hx_sleep_ms(20);
	}
}

/* The camera as the query's pos, forward, up and fovy, as a page sends. */
static void
camera_query(char *out, size_t len, const mjvScene *scn, double fovy)
{
	const mjvGLCamera *g = &scn->camera[0];

	/* %.9g: each float exactly, as the page's numbers become floats. */
	snprintf(out, len,
	    "pos=%.9g,%.9g,%.9g&forward=%.9g,%.9g,%.9g&up=%.9g,%.9g,%.9g"
	    "&fovy=%.17g",
	    g->pos[0], g->pos[1], g->pos[2], g->forward[0], g->forward[1],
	    g->forward[2], g->up[0], g->up[1], g->up[2], fovy);
}

/*
 * The force and torque on body sel as the daemon holds them, and as
 * mjv_applyPerturbForce() gives them here for pert on d: bit for bit.
 */
static void
expect_force(hxd_conn *c, const mjModel *m, mjData *d, const mjvPerturb *pert,
    const char *what)
{
	double got[6], want[6];
	double *all = malloc(sizeof(double) * 6 * (size_t)m->nbody);
	int i, sel = pert->select;

	cr_assert_not_null(all);
	array_into(c, "xfrc_applied", all, 6 * m->nbody);
	memcpy(got, all + 6 * sel, sizeof(got));
	free(all);
	mju_zero(d->xfrc_applied + 6 * sel, 6);
	mjv_applyPerturbForce(m, d, pert);
	memcpy(want, d->xfrc_applied + 6 * sel, sizeof(want));
	for (i = 0; i < 6; i++)
		cr_assert(got[i] == want[i],
		    "%s: xfrc_applied[%d] of body %d is %.17g in the daemon, "
		    "%.17g by mjv_applyPerturbForce (relative difference "
		    "%.3g); all six: %g %g %g %g %g %g, want %g %g %g %g %g %g",
		    what, i, sel, got[i], want[i],
		    fabs(got[i] - want[i]) / fmax(fabs(want[i]), 1e-300),
		    got[0], got[1], got[2], got[3], got[4], got[5], want[0],
		    want[1], want[2], want[3], want[4], want[5]);
}

/* One cursor move of the page: an mjtMouse action and dx, dy. */
struct move {
	int action;
	double dx, dy; /* fractions of the canvas's height */
};

/*
 * A perturbation (rotate: Ctrl+left; else Ctrl+right) of body sel: the
 * start and each move sent to hxview with the camera, and done here
 * with mjv_initPerturb() and mjv_movePerturb() against the same camera;
 * the daemon's force compared after each.  Ended at the end.
 */
static void
push(int port, unsigned id, const mjModel *m, mjData *d, mjvScene *scn,
    mjvPerturb *pert, int rotate, const struct move *moves, int nmoves)
{
	char cam[512], q[1024], what[128];
	int i;

	camera_query(cam, sizeof(cam), scn, m->vis.global.fovy);
	snprintf(q, sizeof(q), "id=%u&do=start&rotate=%d&%s", id, rotate, cam);
	control(port, "perturb", q);
	mjv_initPerturb(m, d, scn, pert);
	pert->active = rotate ? mjPERT_ROTATE : mjPERT_TRANSLATE;
	expect_force(
	    conn, m, d, pert, rotate ? "turn started" : "push started");
	for (i = 0; i < nmoves; i++) {
		snprintf(q, sizeof(q),
		    "id=%u&do=move&action=%d&dx=%.17g&dy=%.17g&%s", id,
		    moves[i].action, moves[i].dx, moves[i].dy, cam);
		control(port, "perturb", q);
		mjv_movePerturb(
		    m, d, moves[i].action, moves[i].dx, moves[i].dy, scn, pert);
		snprintf(what, sizeof(what),
		    "%s, move %d (action %d by %g, %g)",
		    rotate ? "turn" : "push", i + 1, moves[i].action,
		    moves[i].dx, moves[i].dy);
		expect_force(conn, m, d, pert, what);
	}
	snprintf(q, sizeof(q), "id=%u&do=end", id);
	control(port, "perturb", q);
}

Test(perturb, the_force_is_mujocos_for_the_same_state_camera_and_cursor)
{
	static const char *const args[] = { "-m", "mpl_scene.xml", NULL };
	/* Up, then across and up (Ctrl+right; Shift: horizontal). */
	static const struct move pushes[] = {
		{ mjMOUSE_MOVE_V, 0, -0.0625 },
		{ mjMOUSE_MOVE_V, 0.0125, -0.075 },
		{ mjMOUSE_MOVE_H, -0.03125, 0.021 },
		{ mjMOUSE_MOVE_V, 0.0071, -0.1 },
	};
	/* Ctrl+left: turned about two axes (Shift: the other). */
	static const struct move turns[] = {
		{ mjMOUSE_ROTATE_V, 0.05, -0.02 },
		{ mjMOUSE_ROTATE_H, -0.03, 0.04 },
		{ mjMOUSE_ROTATE_V, 0.011, 0.07 },
	};
	const char *argv[8];
	char q[256];
	mjModel *m;
	mjData *d;
	mjvScene scn;
	mjvCamera cam;
	mjvPerturb pert;
	mjtNum dif[3];
	unsigned id;
	int port, cube, n = 0;

	hx_server_start(&server, args);
	conn = hx_connect_ok(hx_server_addr(&server, 0), "test_perturb");
	argv[n++] = hx_hxview_path();
	argv[n++] = "-s";
	argv[n++] = hx_server_addr(&server, 0);
	argv[n++] = "serve";
	argv[n++] = "--http";
	argv[n++] = "127.0.0.1:0";
	argv[n] = NULL;
	port = start_hxview_argv(argv);
	id = events_open(port);

	m = model_fetch(conn);
	d = mj_makeData(m);
	/* By the daemon: libhaptix's HAPTIX mj_name2id shadows MuJoCo's. */
	HX_OK(conn, hxd_name2id(conn, HXD_OBJ_BODY, "cube", &cube));
	cr_assert(cube > 0 && cube < m->nbody, "the cube is body %d", cube);

	/* The objects settled on the table, then still. */
	hx_sleep_ms(500);
	HX_OK(conn, hxd_pause(conn));
	wait_view_caught_up(conn);
	state_fetch(conn, m, d);

	/*
	 * The page's camera: the model's free camera turned and moved a
	 * little, as MuJoCo's mjv_updateCamera() puts it into a scene.  A
	 * browser's view is monoscopic: no distance between the eyes.
	 */
	mjv_defaultScene(&scn);
	mjv_makeScene(m, &scn, 100);
	mjv_defaultFreeCamera(m, &cam);
	cam.azimuth += 17;
	cam.elevation -= 6;
	cam.distance *= 1.3;
	cam.lookat[0] += 0.03;
	m->vis.global.ipd = 0;
	mjv_updateCamera(m, d, &cam, &scn);

	/* A double-click on the cube: selected, at its centre. */
	snprintf(q, sizeof(q), "id=%u&body=%d&point=%.17g,%.17g,%.17g", id,
	    cube, d->xipos[3 * cube], d->xipos[3 * cube + 1],
	    d->xipos[3 * cube + 2]);
	control(port, "select", q);
	mjv_defaultPerturb(&pert);
	pert.select = cube;
	mju_sub3(dif, d->xipos + 3 * cube, d->xpos + 3 * cube);
	mju_mulMatTVec(pert.localpos, d->xmat + 9 * cube, dif, 3, 3);

	push(port, id, m, d, &scn, &pert, 0, pushes,
	    (int)(sizeof(pushes) / sizeof(pushes[0])));
	push(port, id, m, d, &scn, &pert, 1, turns,
	    (int)(sizeof(turns) / sizeof(turns[0])));

	/* Ended: no force of the page's stays. */
	cr_assert_eq(hx_status_ok(conn).nperturbations, 0,
	    "the perturbation stayed after its end");

	mjv_freeScene(&scn);
	mj_deleteData(d);
	mj_deleteModel(m);
	close(events_fd);
	events_fd = -1;
	stop_hxview();
	hxd_close(conn);
	conn = NULL;
	hx_server_stop(&server);
}

/* hxview egl: 0 if it renders here, else why not in why. */
static int
egl_works(const char *dir, char *why, size_t len)
{
	const char *argv[] = { getenv("HXVIEW"), "egl", NULL };
	char err[600];
	int status = -1, fd;
	ssize_t n;
	pid_t pid;

	snprintf(err, sizeof(err), "%s/egl.err", dir);
	pid = fork();
	if (pid == -1) {
		snprintf(why, len, "fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		fd = open("/dev/null", O_RDWR);
		dup2(fd, 0);
		dup2(fd, 1);
		if ((fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600)) >= 0)
			dup2(fd, 2);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	waitpid(pid, &status, 0);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	n = -1;
	if ((fd = open(err, O_RDONLY)) >= 0) {
		n = read(fd, err, sizeof(err) - 1);
		close(fd);
	}
	err[n > 0 ? n : 0] = '\0';
	err[strcspn(err, "\n")] = '\0';
	snprintf(why, len,
	    "hxview cannot render here (%s egl: %s): it needs an EGL "
	    "driver, e.g. Mesa's with its software renderer (Debian packages "
	    "libegl1, libegl-mesa0 and libgl1-mesa-dri)",
	    argv[0], err[0] != '\0' ? err : "no reason given");
	return -1;
}

int
main(int argc, char *argv[])
{
	struct criterion_test_set *tests = criterion_initialize();
	char dir[] = "/tmp/hxperturb.XXXXXX", why[1024];
	int rc;

	if (!criterion_handle_args(argc, argv, true)) {
		criterion_finalize(tests);
		return 0;
	}
	if (getenv("HXVIEW") == NULL || getenv("HXVIEW")[0] == '\0') {
		fprintf(stderr,
		    "test_perturb: HXVIEW is not set: run the tests with "
		    "make check\n");
		criterion_finalize(tests);
		return 99;
	}
	if (mkdtemp(dir) == NULL) {
		fprintf(stderr, "test_perturb: mkdtemp: %s\n", strerror(errno));
		criterion_finalize(tests);
		return 99;
	}
	if (egl_works(dir, why, sizeof(why)) != 0) {
		hx_remove_tree(dir);
		criterion_finalize(tests);
		fprintf(stderr, "SKIP: %s\n", why);
		return 77;
	}
	/* hxview's log goes to the run's directory (browser.c). */
	setenv("HX_BROWSER_DIR", dir, 1);
	snprintf(run_dir, sizeof(run_dir), "%s", dir);
	rc = criterion_run_all_tests(tests) ? 0 : 1;
	criterion_finalize(tests);
	hx_remove_tree(dir);
	return rc;
}
