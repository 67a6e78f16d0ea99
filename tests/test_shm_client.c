/*
 * The shared-memory transport as a client sees it, through a real
 * haptixd (protocol.md, "Shared memory"): libhaptix takes it on a Unix
 * address unless HAPTIX_SHM=0, shm: requires it, frames larger than
 * both rings go both ways, a stream held back by an unread answer ring
 * goes on once the client reads, and a daemon that dies mid-call is
 * reported, not waited for, and a wait for a long answer sleeps rather
 * than spin.  What a hostile client does to its rings is
 * tests/test_shm.c's.
 */
#include "config.h"

#include <sys/resource.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "harness.h"
#include "haptixd.h"

TestSuite(shm_client, .timeout = 120, .fini = hx_server_cleanup);

static const char *const fixture_paused[] = { "-m", "fixture.xml", "--paused",
	NULL };

/* This connection's own row of the client list: its peer. */
static void
own_peer(hxd_conn *c, char *peer, size_t len)
{
	unsigned long long you;
	hxd_client *cl;
	int n, i;

	cr_assert_eq(hxd_clients(c, &cl, &n, &you), HXD_OK, "%s", hxd_error(c));
	peer[0] = '\0';
	for (i = 0; i < n; i++) {
		if (cl[i].id == you)
			snprintf(peer, len, "%s", cl[i].peer);
	}
	free(cl);
	cr_assert_neq(peer[0], '\0', "no row of its own");
}

/* The socket path of a unix: address, for shm:. */
static void
shm_address(const struct hx_server *s, char *out, size_t len)
{
	cr_assert_eq(strncmp(s->unix_addr, "unix:", 5), 0);
	snprintf(out, len, "shm:%s", s->unix_addr + 5);
}

Test(shm_client, a_unix_address_takes_shared_memory_unless_told_not_to)
{
	struct hx_server s;
	char peer[128], addr[340];
	hxd_conn *c;

	hx_server_start(&s, fixture_paused);
	unsetenv("HAPTIX_SHM");
	c = hxd_connect(s.unix_addr, "shm-default");
	cr_assert(hxd_connected(c), "%s", hxd_error(c));
	own_peer(c, peer, sizeof(peer));
	cr_assert_not_null(strstr(peer, ", shm"), "peer \"%s\"", peer);
	hxd_close(c);

	setenv("HAPTIX_SHM", "0", 1);
	c = hxd_connect(s.unix_addr, "shm-off");
	cr_assert(hxd_connected(c), "%s", hxd_error(c));
	own_peer(c, peer, sizeof(peer));
	cr_assert_null(strstr(peer, "shm"), "peer \"%s\"", peer);
	hxd_close(c);

	/* shm: requires it, whatever HAPTIX_SHM says of plain addresses. */
	shm_address(&s, addr, sizeof(addr));
	c = hxd_connect(addr, "shm-required");
	cr_assert(hxd_connected(c), "%s", hxd_error(c));
	own_peer(c, peer, sizeof(peer));
	cr_assert_not_null(strstr(peer, ", shm"), "peer \"%s\"", peer);
	hxd_close(c);
	unsetenv("HAPTIX_SHM");
	hx_server_stop(&s);
}

Test(shm_client, shm_fails_where_the_server_offers_none)
{
	const char *args[] = { "-m", "fixture.xml", "--paused", "--no-shm",
		NULL };
	struct hx_server s;
	char peer[128], addr[340];
	hxd_conn *c;

	hx_server_start(&s, args);
	unsetenv("HAPTIX_SHM");
	shm_address(&s, addr, sizeof(addr));
	c = hxd_connect(addr, "shm-refused");
	cr_assert(!hxd_connected(c));
	cr_assert_eq(hxd_result(c), HXD_NOCONNECTION);
	cr_assert_not_null(strstr(hxd_error(c), "offers no shared memory"),
	    "%s", hxd_error(c));
	hxd_close(c);

	/* A plain address stays on the socket, and works. */
	c = hxd_connect(s.unix_addr, "socket");
	cr_assert(hxd_connected(c), "%s", hxd_error(c));
	own_peer(c, peer, sizeof(peer));
	cr_assert_null(strstr(peer, "shm"), "peer \"%s\"", peer);
	hxd_close(c);
	hx_server_stop(&s);
}

/*
 * A model of 3 MB (1500 custom numerics of 400 numbers fill it) loaded
 * inline, and its text fetched back: a request twelve times the request
 * ring, an answer three times the answer ring.
 */
Test(shm_client, frames_larger_than_the_rings_go_both_ways)
{
	const int count = 600000;
	const char *head = "<mujoco model=\"big\"><custom>",
		   *tail = "</custom><worldbody><body><geom "
			   "size=\"0.1\"/></body></worldbody></mujoco>";
	struct hx_server s;
	char peer[128], *text, *back = NULL, *p;
	hxd_model m;
	hxd_conn *c;
	int i;

	hx_server_start(&s, fixture_paused);
	unsetenv("HAPTIX_SHM");
	c = hxd_connect_timeout(s.unix_addr, "big", 60000);
	cr_assert(hxd_connected(c), "%s", hxd_error(c));
	own_peer(c, peer, sizeof(peer));
	cr_assert_not_null(strstr(peer, ", shm"), "peer \"%s\"", peer);
	text = malloc(strlen(head) + 7 * (size_t)count + strlen(tail) + 1);
	cr_assert_not_null(text);
	p = text + sprintf(text, "%s", head);
	for (i = 0; i < count; i++) {
		if (i % 400 == 0)
			p += sprintf(p, "%s<numeric name=\"n%d\" data=\"",
			    i == 0 ? "" : "\"/>", i / 400);
		p += sprintf(
		    p, "%s%d", i % 400 == 0 ? "" : " ", 1000 + i % 9000);
	}
	p += sprintf(p, "\"/>");
	strcpy(p, tail);
	cr_assert_gt(strlen(text), 3000000);
	cr_assert_eq(hxd_load_data(
			 c, HXD_FORMAT_MJCF, text, strlen(text), "big.xml", &m),
	    HXD_OK, "%s", hxd_error(c));
	cr_assert_eq(
	    hxd_get_model_xml(c, &back, NULL, 0), HXD_OK, "%s", hxd_error(c));
	cr_assert_gt(
	    strlen(back), 3000000, "%zu bytes came back", strlen(back));
	cr_assert_not_null(strstr(back, "9998 9999\"/>") != NULL ?
		strstr(back, "\"1000 1001 1002") :
		NULL,
	    "the numbers came back changed");
	free(back);
	free(text);
	hxd_close(c);
	hx_server_stop(&s);
}

/*
 * A subscriber that stops reading: the answer ring fills past the
 * congestion mark and the stream holds back, owing a frame.  The
 * simulation then pauses: no step will look at the stream again.  Once
 * the client reads, the daemon must hear of it, though the client sends
 * nothing, and send what it owes: the frame of the paused state.
 */
Test(shm_client, a_stream_pays_what_it_owes_once_its_reader_catches_up)
{
	const char *args[] = { "-m", "fixture.xml", "--speed", "max", NULL };
	hxd_subscription sub = { 0 };
	struct hx_server s;
	hxd_status st;
	hxd_event *ev;
	hxd_conn *c, *ctl;
	double last = -1;
	int n = 0;

	hx_skip_if_valgrind(); /* a running simulation at full speed */
	hx_server_start(&s, args);
	unsetenv("HAPTIX_SHM");
	c = hxd_connect(s.unix_addr, "slow-reader");
	ctl = hxd_connect(s.unix_addr, "ctl");
	cr_assert(hxd_connected(c) && hxd_connected(ctl), "%s %s", hxd_error(c),
	    hxd_error(ctl));
	sub.fields = HXD_FIELDS(HXD_FIELD_QPOS) | HXD_FIELDS(HXD_FIELD_QVEL);
	sub.every_steps = 1;
	cr_assert_eq(hxd_subscribe(c, &sub, NULL), HXD_OK, "%s", hxd_error(c));
	hx_sleep_ms(1500); /* unread: far past the mark (256 KiB) */
	cr_assert_eq(hxd_pause(ctl), HXD_OK, "%s", hxd_error(ctl));
	cr_assert_eq(hxd_status_get(ctl, &st), HXD_OK, "%s", hxd_error(ctl));

	while (hxd_next_event(c, 2000, &ev) == HXD_OK) {
		if (ev->kind == HXD_EVENT_FRAME) {
			last = ev->time;
			n++;
		}
		hxd_event_free(ev);
		if (last == st.time)
			break;
	}
	cr_assert_gt(n, 1000, "%d frames", n);
	cr_assert_eq(last, st.time,
	    "the last frame is of t=%.4f, the simulation paused at %.4f: the "
	    "owed frame never came",
	    last, st.time);
	hxd_close(c);
	hxd_close(ctl);
	hx_server_stop(&s);
}

/* The daemon killed while a call waits over shared memory. */
Test(shm_client, a_daemon_that_dies_mid_call_is_reported)
{
	const char *args[] = { "-m", "mpl_scene.xml", "--paused", NULL };
	struct hx_server s;
	hxd_conn *c;
	double t0;
	int rc;

	hx_server_start(&s, args);
	unsetenv("HAPTIX_SHM");
	c = hxd_connect(s.unix_addr, "bereaved");
	cr_assert(hxd_connected(c), "%s", hxd_error(c));
	if (fork() == 0) {
		usleep(500000);
		kill(s.pid, SIGKILL);
		_exit(0);
	}
	t0 = hx_wall_now();
	rc = hxd_step(c, 10000, NULL); /* some 1.5 s of steps */
	cr_assert_eq(rc, HXD_CANNOTRECV, "%d: %s", rc, hxd_error(c));
	cr_assert_lt(hx_wall_now() - t0, 10.0, "waited for the timeout");
	cr_assert_not_null(
	    strstr(hxd_error(c), "closed the connection"), "%s", hxd_error(c));
	hxd_close(c);
}

/* The CPU time this process has used, user and system (seconds). */
static double
cpu_seconds(void)
{
	struct rusage ru;

	cr_assert_eq(getrusage(RUSAGE_SELF, &ru), 0);
	return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
	    (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

/*
 * Answers that take milliseconds (30 steps of the MPL scene) are waited
 * for asleep, however long the spin is set: a spin could not meet them,
 * and it would take a CPU from the daemons of a vector of environments.
 * With a spin of a second, a wait that spun would use as much CPU as
 * the calls took.
 */
Test(shm_client, a_long_answer_is_waited_for_asleep)
{
	const char *args[] = { "-m", "mpl_scene.xml", "--paused", NULL };
	struct hx_server s;
	double wall, cpu;
	hxd_conn *c;
	int i;

	setenv("HAPTIX_SHM_SPIN_US", "1000000", 1);
	hx_server_start(&s, args);
	unsetenv("HAPTIX_SHM");
	c = hxd_connect(s.unix_addr, "sleeper");
	cr_assert(hxd_connected(c), "%s", hxd_error(c));
	for (i = 0; i < 5; i++) /* the answers' time learnt */
		cr_assert_eq(hxd_step(c, 30, NULL), HXD_OK, "%s", hxd_error(c));
	wall = hx_wall_now();
	cpu = cpu_seconds();
	for (i = 0; i < 20; i++)
		cr_assert_eq(hxd_step(c, 30, NULL), HXD_OK, "%s", hxd_error(c));
	wall = hx_wall_now() - wall;
	cpu = cpu_seconds() - cpu;
	cr_assert_lt(cpu, 0.5 * wall, "%.1f ms of CPU in %.1f ms of calls",
	    cpu * 1e3, wall * 1e3);
	hxd_close(c);
	hx_server_stop(&s);
	unsetenv("HAPTIX_SHM_SPIN_US");
}
