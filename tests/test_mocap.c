/*
 * Motion capture through a real haptixd: the tracking calls (connect,
 * the offset captured exactly, disconnect, reset, reload, a driver
 * leaving), and hx-mocap fed by a fake NatNet server, by the simple UDP
 * format and by a CSV file; the weld pulls the hand after the mocap
 * body; latency in the status; signals connect and disconnect.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "check.h"
#include "harness.h"
#include "haptixd.h"
#include "natnet_fake.h"
#include "quat.h"

TestSuite(mocap, .timeout = 60, .fini = hx_server_cleanup);

static const char *const scene[] = { "-m", "mpl_scene.xml", NULL };
static const char *const scene_paused[] = { "-m", "mpl_scene.xml", "--paused",
	NULL };

/* The scene's mocap body where the model puts it. */
static const double model_pos[3] = { 0, 0, 0.85 };

/* Mocap body 0's pose. */
static void
mocap_pose(hxd_conn *c, double pos[3], double quat[4])
{
	hxd_mocap *m;

	HX_OK(c, hxd_get_mocap(c, &m));
	memcpy(pos, m->pos, 3 * sizeof(double));
	memcpy(quat, m->quat, 4 * sizeof(double));
	free(m);
}

/* The tracking of mocap body 0 from the status (it must be there). */
static hxd_tracking
tracking_of(hxd_conn *c)
{
	hxd_status st;

	HX_OK(c, hxd_status_get(c, &st));
	cr_assert_geq(st.ntracking, 1, "no tracking in the status");
	return st.tracking[0];
}

/* The next event of kind, within ms; NULL if none came. */
static hxd_event *
next_of(hxd_conn *c, int kind, int ms)
{
	double deadline = hx_wall_now() + ms / 1000.0;
	hxd_event *ev;

	while (hx_wall_now() < deadline) {
		if (hxd_next_event(c, 50, &ev) != HXD_OK)
			continue;
		if (ev->kind == kind)
			return ev;
		hxd_event_free(ev);
	}
	return NULL;
}

/* 45 degrees about x. */
static const double q45[4] = { 0.9238795325112867, 0.3826834323650898, 0, 0 };

/*
 * Motion by drv from p0 (turned q) carries over one to one to the body
 * ctl sees at v0 (turned vq0), in world axes, rotations too; p is left
 * at the last position sent.
 */
static void
expect_motion_carries_over(hxd_conn *drv, hxd_conn *ctl, const double *p0,
    const double *q, const double *v0, const double *vq0, double *p)
{
	const double rz[4] = { cos(M_PI / 4), 0, 0, sin(M_PI / 4) };
	double pos[3], quat[4], want[4];
	int k;

	for (k = 0; k < 3; k++)
		p[k] = p0[k] + 0.01 * (k + 1);
	HX_OK(drv, hxd_mocap_pose(drv, 0, NULL, p, q, 0, 0, NULL));
	mocap_pose(ctl, pos, quat);
	for (k = 0; k < 3; k++)
		cr_expect(fabs(pos[k] - (v0[k] + 0.01 * (k + 1))) < 1e-12,
		    "pos[%d] = %.17g", k, pos[k]);
	/* Turning the physical body 90 degrees about world z turns the
	 * virtual one the same way. */
	quat_mul(rz, q45, want);
	HX_OK(drv, hxd_mocap_pose(drv, 0, NULL, p, want, 0, 0, NULL));
	mocap_pose(ctl, pos, quat);
	quat_mul(rz, vq0, want);
	for (k = 0; k < 4; k++)
		cr_expect(fabs(quat[k] - want[k]) < 1e-12, "quat[%d] = %g", k,
		    quat[k]);
}

/*
 * Disconnected by ctl, the mouse lifted: the physical body (p, q, sent
 * by drv) moves freely; put down elsewhere, no jump, and motion from
 * there on.
 */
static void
expect_lift_and_put_down(
    hxd_conn *drv, hxd_conn *ctl, double *p, const double *q)
{
	double pos[3], quat[4], v0[3], vq0[4];
	hxd_tracking t;
	hxd_event *ev;

	/* Disconnect: the mouse lifted; the physical body moves freely. */
	HX_OK(ctl, hxd_mocap_connect(ctl, 0, NULL, 0, &t));
	cr_expect(!t.connected);
	ev = next_of(ctl, HXD_EVENT_TRACKING, 2000);
	cr_assert_not_null(ev);
	cr_expect_str_eq(ev->why, "disconnect");
	hxd_event_free(ev);
	mocap_pose(ctl, v0, vq0);
	p[0] += 5;
	HX_OK(drv, hxd_mocap_pose(drv, 0, NULL, p, q, 0, 0, NULL));
	mocap_pose(ctl, pos, quat);
	cr_expect_eq(memcmp(pos, v0, sizeof(pos)), 0, "moved while lifted");

	/* Put down elsewhere: no jump, and motion from there on. */
	HX_OK(ctl, hxd_mocap_connect(ctl, 0, NULL, 1, NULL));
	HX_OK(drv, hxd_mocap_pose(drv, 0, NULL, p, q, 0, 0, NULL));
	mocap_pose(ctl, pos, quat);
	cr_expect_eq(memcmp(pos, v0, sizeof(pos)), 0, "jumped on reconnect");
	cr_expect_eq(memcmp(quat, vq0, sizeof(quat)), 0);
	p[2] -= 0.2;
	HX_OK(drv, hxd_mocap_pose(drv, 0, NULL, p, q, 0, 0, NULL));
	mocap_pose(ctl, pos, quat);
	cr_expect(fabs(pos[2] - (v0[2] - 0.2)) < 1e-12, "%.17g", pos[2]);
}

/*
 * Another driver (at addr) takes the body ctl sees over from its first
 * pose (p moved on, q): no jump from the first driver's offset.
 */
static void
expect_taken_over(const char *addr, hxd_conn *ctl, double *p, const double *q)
{
	hxd_conn *drv2 = hx_connect_ok(addr, "driver2");
	double pos[3], quat[4], v0[3], vq0[4];
	hxd_tracking t;

	mocap_pose(ctl, v0, vq0);
	p[0] += 100;
	HX_OK(drv2, hxd_mocap_pose(drv2, 0, NULL, p, q, 0, 0, &t));
	cr_expect(t.connected && t.offset_set);
	cr_expect_str_eq(t.driver_name, "driver2");
	mocap_pose(ctl, pos, quat);
	cr_expect_eq(memcmp(pos, v0, sizeof(pos)), 0, "jumped to driver2");
	hxd_close(drv2);
}

/*
 * The mouse analogy through the protocol: poses move nothing until
 * connected; connecting captures the offset from the next pose, which
 * gives back the virtual pose bit for bit; motion then carries over one
 * to one in world axes, rotations too; disconnecting lifts the mouse;
 * reconnecting elsewhere does not jump.  Each change is an event.
 */
Test(mocap, offset_capture_is_exact)
{
	hxd_subscription sub = { .events = 1 };
	double p0[3] = { 1.25, -3.5, 0.125 }, q[4], pos[3], quat[4], v0[3],
	       vq0[4], p[3];
	struct hx_server s;
	hxd_tracking t;
	hxd_event *ev;
	hxd_conn *drv, *ctl;

	hx_server_start(&s, scene_paused);
	drv = hx_connect_ok(s.unix_addr, "driver");
	ctl = hx_connect_ok(s.unix_addr, "operator");
	HX_OK(ctl, hxd_subscribe(ctl, &sub, NULL));
	mocap_pose(ctl, v0, vq0);
	cr_assert_eq(memcmp(v0, model_pos, sizeof(v0)), 0);

	/* Disconnected: poses are counted, nothing moves. */
	memcpy(q, q45, sizeof(q));
	HX_OK(drv, hxd_mocap_pose(drv, 0, NULL, p0, q, 0, 12.5, &t));
	cr_expect(!t.connected);
	cr_expect_eq(t.poses, 1);
	cr_expect_str_eq(t.body, "mocap");
	cr_expect_str_eq(t.driver_name, "driver");
	cr_expect_eq(t.source_time, 12.5);
	mocap_pose(ctl, pos, quat);
	cr_expect_eq(memcmp(pos, v0, sizeof(pos)), 0);

	/* Connect (by name): announced, the offset waits for a pose. */
	HX_OK(ctl, hxd_mocap_connect(ctl, 0, "mocap", 1, &t));
	cr_expect(t.connected && !t.offset_set);
	ev = next_of(ctl, HXD_EVENT_TRACKING, 2000);
	cr_assert_not_null(ev, "no tracking event");
	cr_expect_str_eq(ev->why, "connect");
	cr_expect(ev->tracking.connected);
	cr_expect_neq(ev->by, 0, "the asking client is named");
	hxd_event_free(ev);

	/* The first pose after connecting changes nothing, bit for bit. */
	HX_OK(drv, hxd_mocap_pose(drv, 0, NULL, p0, q, 0, 0, &t));
	cr_expect(t.offset_set);
	mocap_pose(ctl, pos, quat);
	cr_expect_eq(memcmp(pos, v0, sizeof(pos)), 0, "jumped on connect");
	cr_expect_eq(memcmp(quat, vq0, sizeof(quat)), 0, "turned on connect");

	expect_motion_carries_over(drv, ctl, p0, q, v0, vq0, p);

	expect_lift_and_put_down(drv, ctl, p, q);

	expect_taken_over(s.unix_addr, ctl, p, q);
	hxd_close(drv);
	hxd_close(ctl);
	hx_server_stop(&s);
}

/*
 * As HAPTIX: a reset while connected blinks and recovers (the next pose
 * puts the body back); a reset while disconnected leaves the model's
 * pose; a reload disconnects (announced), and so does the feeding
 * driver leaving.
 */
Test(mocap, reset_reload_and_leaving)
{
	hxd_subscription sub = { .events = 1 };
	double p[3] = { 0.5, 0.5, 0.5 }, q[4] = { 1, 0, 0, 0 }, pos[3], quat[4],
	       tracked[3];
	struct hx_server s;
	hxd_tracking t;
	hxd_event *ev;
	hxd_conn *drv, *ctl;

	hx_server_start(&s, scene_paused);
	drv = hx_connect_ok(s.unix_addr, "driver");
	ctl = hx_connect_ok(s.unix_addr, "operator");
	HX_OK(ctl, hxd_subscribe(ctl, &sub, NULL));
	HX_OK(ctl, hxd_mocap_connect(ctl, 0, NULL, 1, NULL));
	HX_OK(drv, hxd_mocap_pose(drv, 0, NULL, p, q, 0, 0, NULL));
	p[0] += 0.1;
	HX_OK(drv, hxd_mocap_pose(drv, 0, NULL, p, q, 0, 0, NULL));
	mocap_pose(ctl, tracked, quat);
	cr_assert(fabs(tracked[0] - 0.1) < 1e-12, "%g", tracked[0]);

	/* Reset while connected: the model's pose, then tracking again. */
	HX_OK(ctl, hxd_reset(ctl, -1));
	mocap_pose(ctl, pos, quat);
	cr_expect_eq(memcmp(pos, model_pos, sizeof(pos)), 0);
	HX_OK(drv, hxd_mocap_pose(drv, 0, NULL, p, q, 0, 0, &t));
	cr_expect(t.connected, "a reset keeps the connection");
	mocap_pose(ctl, pos, quat);
	cr_expect_eq(memcmp(pos, tracked, sizeof(pos)), 0, "did not recover");

	/* Reset while disconnected: the model's pose stays. */
	HX_OK(ctl, hxd_mocap_connect(ctl, 0, NULL, 0, NULL));
	HX_OK(ctl, hxd_reset(ctl, -1));
	HX_OK(drv, hxd_mocap_pose(drv, 0, NULL, p, q, 0, 0, NULL));
	mocap_pose(ctl, pos, quat);
	cr_expect_eq(memcmp(pos, model_pos, sizeof(pos)), 0);

	/* A reload disconnects, and says so. */
	HX_OK(ctl, hxd_mocap_connect(ctl, 0, NULL, 1, NULL));
	HX_OK(drv, hxd_mocap_pose(drv, 0, NULL, p, q, 0, 0, NULL));
	while ((ev = next_of(ctl, HXD_EVENT_TRACKING, 200)) != NULL)
		hxd_event_free(ev);
	HX_OK(ctl, hxd_reload(ctl, NULL));
	ev = next_of(ctl, HXD_EVENT_TRACKING, 2000);
	cr_assert_not_null(ev, "no event on reload");
	cr_expect_str_eq(ev->why, "model loaded");
	cr_expect(!ev->tracking.connected);
	hxd_event_free(ev);
	p[0] += 1;
	HX_OK(drv, hxd_mocap_pose(drv, 0, NULL, p, q, 0, 0, &t));
	cr_expect(!t.connected);
	mocap_pose(ctl, pos, quat);
	cr_expect_eq(memcmp(pos, model_pos, sizeof(pos)), 0);

	/* The driver feeding a connected body leaves: disconnected. */
	HX_OK(ctl, hxd_mocap_connect(ctl, 0, NULL, 1, NULL));
	HX_OK(drv, hxd_mocap_pose(drv, 0, NULL, p, q, 0, 0, NULL));
	while ((ev = next_of(ctl, HXD_EVENT_TRACKING, 200)) != NULL)
		hxd_event_free(ev);
	hxd_close(drv);
	ev = next_of(ctl, HXD_EVENT_TRACKING, 2000);
	cr_assert_not_null(ev, "no event when the driver left");
	cr_expect_str_eq(ev->why, "driver left");
	hxd_event_free(ev);
	t = tracking_of(ctl);
	cr_expect(!t.connected);
	hxd_close(ctl);
	hx_server_stop(&s);
}

/* Bad poses and bodies get clear errors; the server goes on. */
Test(mocap, bad_calls)
{
	static const char *const fixture[] = { "-m", "fixture.xml", NULL };
	double p[3] = { 0, 0, 0 }, q[4] = { 1, 0, 0, 0 }, zero[4] = { 0 },
	       bad[3] = { 0, NAN, 0 };
	struct hx_server s;
	hxd_conn *c;

	hx_server_start(&s, scene_paused);
	c = hx_connect_ok(s.unix_addr, "driver");
	cr_expect_eq(
	    hxd_mocap_pose(c, 0, NULL, bad, q, 0, 0, NULL), HXD_BADVALUE);
	cr_expect_eq(
	    hxd_mocap_pose(c, 0, NULL, p, zero, 0, 0, NULL), HXD_BADVALUE);
	cr_expect_eq(
	    hxd_mocap_pose(c, 0, NULL, p, q, -5, 0, NULL), HXD_BADVALUE);
	cr_expect_eq(
	    hxd_mocap_pose(c, 0, NULL, p, q, 0, INFINITY, NULL), HXD_BADVALUE);
	cr_expect_eq(
	    hxd_mocap_pose(c, 1, NULL, p, q, 0, 0, NULL), HXD_BADINDEX);
	cr_expect(
	    strstr(hxd_error(c), "mocap index 1") != NULL, "%s", hxd_error(c));
	cr_expect_eq(
	    hxd_mocap_pose(c, 0, "cube", p, q, 0, 0, NULL), HXD_BADINDEX);
	cr_expect(strstr(hxd_error(c), "not a mocap body") != NULL, "%s",
	    hxd_error(c));
	cr_expect_eq(hxd_mocap_connect(c, 0, "nosuch", 1, NULL), HXD_BADINDEX);
	HX_OK(c, hxd_mocap_pose(c, 0, NULL, p, q, 0, 0, NULL));
	hxd_close(c);
	hx_server_stop(&s);

	/* fixture.xml has one mocap body, "marker". */
	hx_server_start(&s, fixture);
	c = hx_connect_ok(s.unix_addr, "driver");
	HX_OK(c, hxd_mocap_connect(c, 0, "marker", 1, NULL));
	hxd_close(c);
	hx_server_stop(&s);
}

/* Start hx-mocap on source (option and argument) with a map, connected. */
static void
mocap_start(struct hx_proc *p, const struct hx_server *s, const char *source,
    const char *arg, const char *map)
{
	const char *argv[] = { hx_mocap_path(), "-s", s->unix_addr, source, arg,
		"--map", map, "--connect", "-v", NULL };

	hx_proc_start(p, argv, NULL);
}

/* A free UDP port on the loopback. */
static int
free_udp_port(void)
{
	struct sockaddr_in sa;
	socklen_t len = sizeof(sa);
	int fd = socket(AF_INET, SOCK_DGRAM, 0), port;

	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	cr_assert_eq(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	getsockname(fd, (struct sockaddr *)&sa, &len);
	port = ntohs(sa.sin_port);
	close(fd);
	return port;
}

/* Send text to 127.0.0.1:port. */
static void
send_udp(int port, const void *buf, size_t len)
{
	struct sockaddr_in sa;
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_port = htons((uint16_t)port);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	cr_assert_eq(
	    sendto(fd, buf, len, 0, (struct sockaddr *)&sa, sizeof(sa)),
	    (ssize_t)len, "%s", strerror(errno));
	close(fd);
}

/* Wait up to ms for mocap body 0's tracking to have n poses. */
static hxd_tracking
wait_poses(hxd_conn *c, unsigned long long n, int ms)
{
	double deadline = hx_wall_now() + ms / 1000.0;
	hxd_status st;

	for (;;) {
		HX_OK(c, hxd_status_get(c, &st));
		if ((st.ntracking > 0 && st.tracking[0].poses >= n) ||
		    hx_wall_now() > deadline)
			break;
		hx_sleep_ms(10);
	}
	cr_assert_geq(st.ntracking, 1, "no tracking");
	return st.tracking[0];
}

/*
 * hx-mocap --udp: text lines of the simple format move the mocap body
 * by the physical motion; another body's lines and a bad datagram move
 * nothing (the driver says why and goes on); SIGUSR2 disconnects and
 * SIGUSR1 connects; the status shows the age and the latency.
 */
Test(mocap, udp_text_and_signals)
{
	struct hx_server s;
	struct hx_proc p;
	hxd_tracking t;
	char port_s[16], line[256], *out;
	double pos[3], quat[4];
	int port, n;

	hx_server_start(&s, scene);
	hxd_conn *c = hx_connect_ok(s.unix_addr, "watcher");
	port = free_udp_port();
	snprintf(port_s, sizeof(port_s), "127.0.0.1:%d", port);
	mocap_start(&p, &s, "--udp", port_s, "wrist=mocap");

	/* Until it listens and connected (its first answer). */
	for (n = 0; n < 200; n++) {
		hxd_status st;

		send_udp(port, "wrist - 2 3 4 1 0 0 0\n", 22);
		hx_sleep_ms(20);
		HX_OK(c, hxd_status_get(c, &st));
		if (st.ntracking > 0 && st.tracking[0].offset_set)
			break;
	}
	t = wait_poses(c, 1, 2000);
	cr_assert(t.connected && t.offset_set, "%s", hx_proc_output(&p));
	snprintf(line, sizeof(line),
	    "# a comment\nhead 9 9 9 9 1 0 0 0\nwrist 1.5 2.25 3 4 1 0 0 0\n");
	send_udp(port, line, strlen(line));
	send_udp(port, "wrist 1.6 nonsense\n", 19);
	t = wait_poses(c, t.poses + 1, 2000);
	mocap_pose(c, pos, quat);
	cr_expect(fabs(pos[0] - 0.25) < 1e-12 && fabs(pos[1]) < 1e-12 &&
		fabs(pos[2] - 0.85) < 1e-12,
	    "%g %g %g", pos[0], pos[1], pos[2]);
	cr_expect_eq(t.source_time, 1.5);
	cr_expect(t.age >= 0 && t.age < 5, "age %g", t.age);
	hx_sleep_ms(100); /* running: the pose reaches the physics */
	t = tracking_of(c);
	cr_expect(t.latency >= 0 && t.latency < 5, "latency %g", t.latency);

	kill(p.pid, SIGUSR2);
	hx_sleep_ms(300);
	cr_expect(!tracking_of(c).connected, "SIGUSR2 did not disconnect");
	kill(p.pid, SIGUSR1);
	hx_sleep_ms(300);
	cr_expect(tracking_of(c).connected, "SIGUSR1 did not connect");

	cr_expect_eq(hx_proc_stop(&p, SIGTERM, 5000), 0);
	out = hx_proc_output(&p);
	cr_expect(strstr(out, "refused") != NULL, "%s", out);
	cr_expect(strstr(out, "Hz at the server") != NULL, "%s", out);
	free(out);
	hxd_close(c);
	hx_server_stop(&s);
}

/*
 * hx-mocap --csv: the body follows the recorded path: every pose a
 * watcher sees is one of the rows (moved by the offset, exactly), in
 * order, ending on the last; the replay keeps the recorded pace.
 */
Test(mocap, csv_replay_follows_the_path)
{
	hxd_subscription sub = { .fields = HXD_FIELDS(HXD_FIELD_MOCAP),
		.wall_hz = 200 };
	struct hx_server s;
	struct hx_run r = { 0 };
	double rows[41][3], t0, took;
	char path[512], conn_s[16];
	hxd_event *ev;
	FILE *f;
	int k, seen[41] = { 0 }, last = -1, distinct = 0, j;

	hx_server_start(&s, scene_paused);
	snprintf(path, sizeof(path), "%s/path.csv", s.dir);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fprintf(f,
	    "# a circle of 10 cm in 0.4 s\ntime,body,x,y,z,qw,qx,qy,"
	    "qz\n");
	for (k = 0; k <= 40; k++) {
		rows[k][0] = 0.1 * cos(2 * M_PI * k / 40);
		rows[k][1] = 0.1 * sin(2 * M_PI * k / 40);
		rows[k][2] = 0.01 * k;
		fprintf(f, "%.17g,hand,%.17g,%.17g,%.17g,1,0,0,0\n", 0.01 * k,
		    rows[k][0], rows[k][1], rows[k][2]);
	}
	cr_assert_eq(fclose(f), 0);

	hxd_conn *c = hx_connect_ok(s.unix_addr, "watcher");
	HX_OK(c, hxd_subscribe(c, &sub, NULL));
	snprintf(conn_s, sizeof(conn_s), "--connect");
	t0 = hx_wall_now();
	hx_run_args(&r, hx_mocap_path(), "-s", s.unix_addr, "--csv", path,
	    conn_s, NULL);
	took = hx_wall_now() - t0;
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect(took > 0.3 && took < 10, "took %g s", took);
	hx_sleep_ms(50); /* a frame of the last pose */
	HX_OK(c, hxd_unsubscribe(c, 0));

	/* The frames: each pose a row plus the offset (the model's pose
	 * minus the first row). */
	while (hxd_next_event(c, 300, &ev) == HXD_OK) {
		if (ev->kind == HXD_EVENT_FRAME) {
			const double *m = ev->frame->mocap_pos;

			for (j = 0; j <= 40; j++)
				if (fabs(m[0] - (rows[j][0] - rows[0][0])) <
					1e-12 &&
				    fabs(m[1] - (rows[j][1] - rows[0][1])) <
					1e-12 &&
				    fabs(m[2] -
					(0.85 + rows[j][2] - rows[0][2])) <
					1e-12)
					break;
			cr_expect(j <= 40, "a pose off the path: %g %g %g",
			    m[0], m[1], m[2]);
			if (j <= 40) {
				cr_expect_geq(j, last, "went back: %d", j);
				if (!seen[j])
					distinct++;
				seen[j] = 1;
				last = j;
			}
		}
		hxd_event_free(ev);
	}
	cr_expect_geq(distinct, 5, "%d poses seen", distinct);
	cr_expect_eq(last, 40, "did not end on the last row");
	hx_run_free(&r);
	hxd_close(c);
	hx_server_stop(&s);
}

/* Send the fake's rigid bodies Hand (7) at hand and Head (3) elsewhere. */
static void
natnet_send(struct natnet_fake *f, int frame, const double hand[3])
{
	struct natnet_fake_body b[2];
	struct natnet_fake_frame fr;

	memset(b, 0, sizeof(b));
	memset(&fr, 0, sizeof(fr));
	b[0].id = 3;
	b[0].pos[0] = 5 + 0.01 * frame;
	b[0].quat[0] = 1;
	b[0].tracked = 1;
	b[1].id = 7;
	memcpy(b[1].pos, hand, sizeof(b[1].pos));
	b[1].quat[0] = 1;
	b[1].tracked = 1;
	fr.frame_number = frame;
	fr.timestamp = frame / 100.0;
	fr.mid_exposure = 1000000 + 100000 * (unsigned long long)frame;
	fr.transmit = fr.mid_exposure + 20000; /* 2 ms at 10 MHz */
	fr.nbodies = 2;
	fr.bodies = b;
	fr.extras = 1;
	cr_assert_eq(natnet_fake_send_frame(f, NULL, 0, &fr), 0);
}

/*
 * hx-mocap --natnet, unicast, against a fake Motive (NatNet 3.1): it
 * asks for the body names, maps Hand by name, keeps the stream alive;
 * Motive's y up becomes the world's z: lifting the physical hand 5 cm
 * lifts the mocap body 5 cm, and the weld pulls the MPL hand after it.
 */
Test(mocap, natnet_drives_the_hand)
{
	static const struct natnet_fake_model models[] = { { 3, "Head" },
		{ 7, "Hand" } };
	struct natnet_fake_config cfg;
	struct natnet_fake *f;
	struct hx_server s;
	struct hx_proc p;
	hxd_onebody arm0, arm;
	hxd_tracking t;
	double hand[3] = { 0.3, 1.2, -0.4 }, pos[3], quat[4];
	char server[64], *out;
	int k, forearm;

	memset(&cfg, 0, sizeof(cfg));
	cfg.major = 3;
	cfg.minor = 1;
	cfg.multicast = 0;
	cfg.models = models;
	cfg.nmodels = 2;
	cfg.extras = 1;
	f = natnet_fake_start(&cfg);
	cr_assert_not_null(f);
	hx_server_start(&s, scene);
	hxd_conn *c = hx_connect_ok(s.unix_addr, "watcher");
	HX_OK(c, hxd_name2id(c, HXD_OBJ_BODY, "forearm", &forearm));
	HX_OK(c, hxd_get_onebody(c, forearm, &arm0));

	snprintf(server, sizeof(server), "127.0.0.1:%d",
	    natnet_fake_command_port(f));
	mocap_start(&p, &s, "--natnet", server, "Hand=mocap");
	cr_assert(natnet_fake_wait_requests(f, 0, 1, 5000) >= 1,
	    "hx-mocap did not connect to Motive: %s", hx_proc_output(&p));
	cr_assert(natnet_fake_wait_requests(f, 4, 1, 5000) >= 1,
	    "it did not ask for the model definitions");
	hx_sleep_ms(100); /* the answers reach it */

	for (k = 0; k < 20; k++) {
		natnet_send(f, k, hand);
		hx_sleep_ms(10);
	}
	t = wait_poses(c, 10, 3000);
	cr_assert(t.connected && t.offset_set, "%s", hx_proc_output(&p));
	mocap_pose(c, pos, quat);
	for (k = 0; k < 3; k++)
		cr_expect(fabs(pos[k] - model_pos[k]) < 1e-12,
		    "jumped on connect: pos[%d] = %g", k, pos[k]);

	/* Motive's y is up: 5 cm up. */
	hand[1] += 0.05;
	for (k = 20; k < 80; k++) {
		natnet_send(f, k, hand);
		hx_sleep_ms(10);
	}
	mocap_pose(c, pos, quat);
	cr_expect(fabs(pos[2] - 0.90) < 1e-6, "mocap z %g", pos[2]);
	cr_expect(fabs(pos[0]) < 1e-6 && fabs(pos[1]) < 1e-6, "%g %g", pos[0],
	    pos[1]);
	HX_OK(c, hxd_get_onebody(c, forearm, &arm));
	cr_expect(fabs(arm.pos[2] - arm0.pos[2] - 0.05) < 0.01,
	    "the hand did not follow: %g -> %g", arm0.pos[2], arm.pos[2]);

	/* The last frame sent may still be on its way (under valgrind). */
	for (k = 0; k < 50; k++) {
		t = tracking_of(c);
		if (fabs(t.source_time - 0.79) < 1e-9)
			break;
		hx_sleep_ms(100);
	}
	cr_expect_str_eq(t.driver_name, "hx-mocap");
	cr_expect(t.rate > 20, "rate %g", t.rate);
	cr_expect(t.latency >= 0.002 && t.latency < 5,
	    "latency %g (Motive's 2 ms included)", t.latency);
	cr_expect(fabs(t.source_time - 0.79) < 1e-9, "%g", t.source_time);
	cr_expect(natnet_fake_wait_requests(f, 10, 1, 3000) >= 1,
	    "no keep-alive in unicast");

	cr_expect_eq(hx_proc_stop(&p, SIGTERM, 5000), 0);
	out = hx_proc_output(&p);
	cr_expect(strstr(out, "NatNet 3.1, unicast") != NULL, "%s", out);
	cr_expect(strstr(out, "rigid body 7 is 'Hand'") != NULL, "%s", out);
	free(out);
	natnet_fake_stop(f);
	hxd_close(c);
	hx_server_stop(&s);
}

/* Send one NatNet frame to group:port over the loopback, multicast. */
static void
multicast_frame(const char *group, int port, int frame, double z)
{
	static unsigned char buf[NATNET_FAKE_MAX_PACKET];
	struct natnet_fake_body b;
	struct natnet_fake_frame fr;
	struct sockaddr_in sa;
	struct in_addr lo;
	size_t len;
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	memset(&b, 0, sizeof(b));
	memset(&fr, 0, sizeof(fr));
	b.id = 7;
	b.pos[1] = z; /* Motive's y is up */
	b.quat[0] = 1;
	b.tracked = 1;
	fr.major = 4;
	fr.minor = 1;
	fr.frame_number = frame;
	fr.timestamp = frame / 100.0;
	fr.nbodies = 1;
	fr.bodies = &b;
	fr.extras = 1;
	len = natnet_fake_encode_frame(buf, sizeof(buf), &fr);
	cr_assert_gt(len, 0);
	lo.s_addr = htonl(INADDR_LOOPBACK);
	cr_assert_eq(
	    setsockopt(fd, IPPROTO_IP, IP_MULTICAST_IF, &lo, sizeof(lo)), 0);
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_port = htons((uint16_t)port);
	inet_pton(AF_INET, group, &sa.sin_addr);
	cr_assert_eq(
	    sendto(fd, buf, len, 0, (struct sockaddr *)&sa, sizeof(sa)),
	    (ssize_t)len, "%s", strerror(errno));
	close(fd);
}

/*
 * Multicast, as Motive streams by default: the server info names the
 * group and the data port (NatNet 4.1 here); hx-mocap joins them on
 * --interface and reads the frames there.  Rigid body 7 is mapped by
 * its number.
 */
Test(mocap, natnet_multicast)
{
	static const struct natnet_fake_model models[] = { { 7, "Hand" } };
	struct natnet_fake_config cfg;
	struct natnet_fake *f;
	struct hx_server s;
	struct hx_proc p;
	hxd_tracking t;
	double pos[3], quat[4];
	char server[64], *out;
	int k, port = free_udp_port();

	memset(&cfg, 0, sizeof(cfg));
	cfg.major = 4;
	cfg.minor = 1;
	cfg.multicast = 1;
	cfg.data_port = port;
	cfg.group = "239.255.42.123";
	cfg.models = models;
	cfg.nmodels = 1;
	f = natnet_fake_start(&cfg);
	cr_assert_not_null(f);
	hx_server_start(&s, scene_paused);
	hxd_conn *c = hx_connect_ok(s.unix_addr, "watcher");
	snprintf(server, sizeof(server), "127.0.0.1:%d",
	    natnet_fake_command_port(f));
	const char *argv[] = { hx_mocap_path(), "-s", s.unix_addr, "--natnet",
		server, "--interface", "127.0.0.1", "--map", "7=mocap",
		"--connect", "-v", NULL };
	hx_proc_start(&p, argv, NULL);
	cr_assert(natnet_fake_wait_requests(f, 0, 1, 5000) >= 1);
	hx_sleep_ms(300); /* the server info arrives: it joins */

	for (k = 0; k < 10; k++) {
		multicast_frame(cfg.group, port, k, 1.0);
		hx_sleep_ms(10);
	}
	for (k = 10; k < 20; k++) {
		multicast_frame(cfg.group, port, k, 1.03);
		hx_sleep_ms(10);
	}
	t = wait_poses(c, 20, 3000);
	cr_expect_geq(t.poses, 20, "only %llu poses", t.poses);
	mocap_pose(c, pos, quat);
	cr_expect(fabs(pos[2] - 0.88) < 1e-6, "mocap z %g", pos[2]);
	cr_expect_eq(
	    natnet_fake_requests(f, 10), 0, "keep-alives are for unicast");
	cr_expect_eq(hx_proc_stop(&p, SIGTERM, 5000), 0);
	out = hx_proc_output(&p);
	cr_expect(strstr(out, "NatNet 4.1, multicast") != NULL, "%s", out);
	cr_expect(strstr(out, "239.255.42.123") != NULL, "%s", out);
	free(out);
	natnet_fake_stop(f);
	hxd_close(c);
	hx_server_stop(&s);
}

/* Usage errors exit 2; a file that is not CSV exits 1. */
Test(mocap, bad_usage)
{
	struct hx_server s;
	struct hx_run r = { 0 };
	char path[512];
	FILE *f;

	hx_server_start(&s, scene_paused);
	hx_run_args(&r, hx_mocap_path(), "-s", s.unix_addr, NULL);
	cr_expect_eq(r.status, 2);
	cr_expect(strstr(r.err, "name a source") != NULL, "%s", r.err);
	hx_run_args(&r, hx_mocap_path(), "--udp", "1", "--csv", "x", NULL);
	cr_expect_eq(r.status, 2);
	hx_run_args(&r, hx_mocap_path(), "--udp", "1", "--map", "x", NULL);
	cr_expect_eq(r.status, 2);
	cr_expect(strstr(r.err, "SRC=BODY") != NULL, "%s", r.err);
	hx_run_args(&r, hx_mocap_path(), "--udp", "1", "--axes", "q", NULL);
	cr_expect_eq(r.status, 2);
	hx_run_args(&r, hx_mocap_path(), "--udp", "1", "--loop", NULL);
	cr_expect_eq(r.status, 2);
	snprintf(path, sizeof(path), "%s/bad.csv", s.dir);
	f = fopen(path, "w");
	fprintf(f, "time,body,x\n0,hand,1\n");
	fclose(f);
	hx_run_args(
	    &r, hx_mocap_path(), "-s", s.unix_addr, "--csv", path, NULL);
	cr_expect_eq(r.status, 1);
	cr_expect(strstr(r.err, "lacks") != NULL, "%s", r.err);
	hx_run_args(&r, hx_mocap_path(), "--help", NULL);
	cr_expect_eq(r.status, 0);
	cr_expect(strstr(r.out, "--natnet") != NULL);
	hx_run_free(&r);
	hx_server_stop(&s);
}

/*------------------------------------------------- smooth mocap moves */

static const char *const fixture_paused[] = { "-m", "fixture.xml", "--paused",
	NULL };

/* The fixture's mocap body "marker", from its model pose (0, 1, 1). */
static void
marker_pose(hxd_conn *c, double pos[3], double quat[4])
{
	hxd_mocap *m;

	HX_OK(c, hxd_get_mocap(c, &m));
	cr_assert_eq(m->nmocap, 1);
	memcpy(pos, m->pos, 3 * sizeof(double));
	memcpy(quat, m->quat, 4 * sizeof(double));
	free(m);
}

Test(mocap, a_move_runs_on_a_minimum_jerk_profile_without_a_jump)
{
	static const double to[3] = { 0, 1, 1.5 };
	double p[3], q[4], last = 1, step, most = 0;
	struct hx_server s;
	hxd_conn *c;
	unsigned taken;
	int i;

	hx_server_start(&s, fixture_paused);
	c = hx_connect_ok(s.unix_addr, "mover");
	/* 0.1 s of simulated time: 50 steps of the fixture's 2 ms. */
	HX_OK(c, hxd_mocap_move(c, -1, "marker", to, NULL, 0.1));
	marker_pose(c, p, q);
	HX_NEAR(p[2], 1, 0); /* nothing moves before a step */
	for (i = 1; i <= 50; i++) {
		HX_OK(c, hxd_step(c, 1, &taken));
		marker_pose(c, p, q);
		step = p[2] - last;
		cr_assert_geq(step, 0, "step %d went back by %g", i, -step);
		most = step > most ? step : most;
		last = p[2];
		if (i == 25) /* half the time: half the way, by symmetry */
			HX_NEAR(p[2], 1.25, 1e-12);
	}
	HX_NEAR(p[0], 0, 0);
	HX_NEAR(p[1], 1, 0);
	HX_NEAR(p[2], 1.5, 1e-12);
	/* Minimum jerk peaks at 1.875 times the mean speed: no jump. */
	cr_expect_leq(most, 1.875 * 0.5 / 50 + 1e-9, "a step of %g m", most);
	HX_OK(c, hxd_step(c, 10, &taken));
	marker_pose(c, p, q);
	HX_NEAR(p[2], 1.5, 0); /* done: it stays */
	hxd_close(c);
	hx_server_stop(&s);
}

Test(mocap, a_move_turns_the_short_way_and_ends_on_another_write)
{
	static const double here[3] = { 0, 1, 1 };
	/* 90 degrees about z, given as its negative: the same rotation. */
	const double turn[4] = { -sqrt(0.5), 0, 0, -sqrt(0.5) };
	double p[3], q[4];
	hxd_mocap *m;
	struct hx_server s;
	hxd_conn *c;
	unsigned taken;

	hx_server_start(&s, fixture_paused);
	c = hx_connect_ok(s.unix_addr, "turner");
	HX_OK(c, hxd_mocap_move(c, 0, NULL, here, turn, 0.02));
	HX_OK(c, hxd_step(c, 5, &taken)); /* half of 10 steps */
	marker_pose(c, p, q);
	/* 45 degrees about +z, not 135 about -z. */
	HX_NEAR(fabs(q[0]), cos(M_PI / 8), 1e-9);
	HX_NEAR(fabs(q[3]), sin(M_PI / 8), 1e-9);
	cr_expect(q[0] * q[3] > 0, "turned the long way: %g %g", q[0], q[3]);

	/* Any other write of the pose ends the move. */
	HX_OK(c, hxd_get_mocap(c, &m));
	m->pos[2] = 2;
	HX_OK(c, hxd_set_mocap(c, m));
	free(m);
	HX_OK(c, hxd_step(c, 10, &taken));
	marker_pose(c, p, q);
	HX_NEAR(p[2], 2, 0);
	HX_NEAR(fabs(q[0]), cos(M_PI / 8), 1e-9);

	/* A reset (time goes back) ends one too. */
	HX_OK(c, hxd_mocap_move(c, 0, NULL, here, NULL, 1));
	HX_OK(c, hxd_step(c, 2, &taken));
	HX_OK(c, hxd_reset(c, -1));
	HX_OK(c, hxd_step(c, 20, &taken));
	marker_pose(c, p, q);
	HX_NEAR(p[2], 1, 0); /* the model's pose, untouched */
	hxd_close(c);
	hx_server_stop(&s);
}

Test(mocap, a_move_is_refused_with_a_reason)
{
	static const double to[3] = { 0, 0, 1 };
	const double nan3[3] = { 0, NAN, 1 }, zero[4] = { 0, 0, 0, 0 };
	struct hx_server s;
	hxd_conn *c, *holder;

	hx_server_start(&s, fixture_paused);
	c = hx_connect_ok(s.unix_addr, "mover");
	HX_FAILS(
	    c, hxd_mocap_move(c, -1, "marker", nan3, NULL, 1), HXD_BADVALUE);
	HX_FAILS(c, hxd_mocap_move(c, -1, "marker", to, zero, 1), HXD_BADVALUE);
	HX_FAILS_WITH(c, hxd_mocap_move(c, -1, "marker", to, NULL, -1),
	    HXD_BADVALUE, "seconds");
	HX_FAILS_WITH(c, hxd_mocap_move(c, -1, "marker", to, NULL, 4000),
	    HXD_BADVALUE, "3600");
	HX_FAILS_WITH(c, hxd_mocap_move(c, -1, "marker", to, NULL, NAN),
	    HXD_BADVALUE, "seconds");
	HX_FAILS(c, hxd_mocap_move(c, -1, "box", to, NULL, 1), HXD_BADINDEX);
	HX_FAILS(c, hxd_mocap_move(c, 1, NULL, to, NULL, 1), HXD_BADINDEX);
	holder = hx_connect_ok(s.unix_addr, "holder");
	HX_OK(holder, hxd_lease(holder, HXD_LEASE_TAKE, NULL));
	HX_FAILS(c, hxd_mocap_move(c, 0, NULL, to, NULL, 1), HXD_DENIED);
	hxd_close(holder);
	hxd_close(c);
	hx_server_stop(&s);
}

Test(mocap, hxctl_moves_a_mocap_body_over_a_time)
{
	double p[3], q[4];
	struct hx_server s;
	struct hx_run r = { 0 };
	hxd_conn *c;
	unsigned taken;

	hx_server_start(&s, fixture_paused);
	hx_run_args(&r, hx_hxctl_path(), "-s", s.unix_addr, "set-mocap",
	    "marker", "--pos", "0,1,1.2", "--over", "0.02", NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	c = hx_connect_ok(s.unix_addr, "watcher");
	marker_pose(c, p, q);
	HX_NEAR(p[2], 1, 0);
	HX_OK(c, hxd_step(c, 10, &taken));
	marker_pose(c, p, q);
	HX_NEAR(p[2], 1.2, 1e-12);
	hx_run_args(&r, hx_hxctl_path(), "-s", s.unix_addr, "set-mocap",
	    "marker", "--pos", "0,1,1", "--over", "soon", NULL);
	cr_expect_eq(r.status, 2, "a bad --over is a usage error");
	cr_expect(strstr(r.err, "--over") != NULL, "%s", r.err);
	hx_run_free(&r);
	hxd_close(c);
	hx_server_stop(&s);
}
