/*
 * Unit tests of the control lease (daemon/lease.c), in-process: a daemon
 * wired by core_start() with the test fixture loaded, and real sessions
 * on socketpairs; the holder leaves by closing its end.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "api_table.h"
#include "call.h"
#include "clock.h"
#include "core.h"
#include "daemon.h"
#include "haptix.pb-c.h"
#include "inproc.h"
#include "lease.h"
#include "monotonic.h"
#include "result.h"
#include "session.h"
#include "sim.h"
#include "sim_state.h"

TestSuite(lease, .timeout = 10);

static struct daemon d;

/*
 * A daemon with --lease-loss loss (NULL: the default), the fixture, and
 * a clock that runs but takes no step within a test (a step every 2 s).
 */
static void
start(const char *loss)
{
	const char *args[] = { "--lease-loss", loss, NULL };

	inproc_start(&d, loss != NULL ? args : NULL);
	inproc_load(&d, "fixture.xml");
	core_start(&d);
	api_table_serve();
	clock_set_speed(d.clock, 0.001, 0);
	clock_model_changed(d.clock);
	clock_run(d.clock);
}

static void
setup(void)
{
	start(NULL);
}

/* After a failed assertion: each test stops its daemon itself. */
static void
teardown(void)
{
	inproc_stop(&d);
}

/* A served session that said Hello as name. */
static struct session *
client(const char *name, int *peer)
{
	struct session *s = inproc_session(&d, peer, 0);

	session_set_state(s, SESSION_READY);
	snprintf(s->name, sizeof(s->name), "%s", name);
	return s;
}

/* Send a batch run of steps steps on the session whose peer is fd. */
static void
batch_of(int fd, uint32_t steps)
{
	Haptix__V1__Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__Batch w = HAPTIX__V1__BATCH__INIT;
	uint8_t buf[64];
	size_t n;

	w.steps = steps;
	req.id = 1;
	req.call_case = HAPTIX__V1__REQUEST__CALL_BATCH;
	req.batch = &w;
	n = haptix__v1__request__get_packed_size(&req);
	cr_assert_leq(n, sizeof(buf));
	haptix__v1__request__pack(&req, buf);
	inproc_write_frame(fd, buf, n);
}

Test(lease, take_and_release, .init = setup, .fini = teardown)
{
	struct session *a, *b;
	char err[200], want[200];
	int pa, pb;

	a = client("alice", &pa);
	b = client("bob", &pb);
	cr_assert(lease_permits(&d, a) && lease_permits(&d, b),
	    "nobody holds it: everyone writes");

	cr_assert_eq(lease_take(&d, a, err, sizeof(err)), 0);
	cr_assert_eq(lease_holder(&d), a->id);
	cr_assert_str_eq(lease_holder_name(&d), "alice");
	cr_assert(lease_permits(&d, a));
	cr_assert(!lease_permits(&d, b));
	cr_assert_eq(lease_take(&d, a, err, sizeof(err)), 0, "again: fine");

	err[0] = '\0';
	cr_assert_eq(lease_take(&d, b, err, sizeof(err)), -1);
	snprintf(want, sizeof(want),
	    "client %llu (alice) holds the control lease",
	    (unsigned long long)a->id);
	cr_assert_str_eq(err, want);
	cr_assert_eq(lease_holder(&d), a->id, "still alice's");

	err[0] = '\0';
	cr_assert_eq(lease_release(&d, b, err, sizeof(err)), -1);
	cr_assert_str_eq(err, "this client does not hold the lease");
	cr_assert_eq(lease_holder(&d), a->id, "a non-holder cannot release it");

	cr_assert_eq(lease_release(&d, a, err, sizeof(err)), 0);
	cr_assert_eq(lease_holder(&d), 0);
	cr_assert_str_eq(lease_holder_name(&d), "");
	cr_assert(lease_permits(&d, b));
	cr_assert_eq(
	    lease_release(&d, a, err, sizeof(err)), -1, "released already");
	cr_assert_eq(lease_take(&d, b, err, sizeof(err)), 0);
	cr_assert_str_eq(lease_holder_name(&d), "bob");
	close(pa);
	close(pb);
	inproc_stop(&d);
}

Test(lease, writes_refused_with_the_holders_name, .init = setup,
    .fini = teardown)
{
	struct session *a, *b;
	struct call ca = { .d = &d }, cb = { .d = &d };
	char err[200];
	double end;
	int pa, pb;

	a = client("alice", &pa);
	b = client("bob", &pb);
	ca.s = a;
	cb.s = b;
	cr_assert_eq(call_may_write(&cb), 0);
	lease_take(&d, a, err, sizeof(err));
	cr_assert_eq(call_may_write(&ca), 0);
	cr_assert_eq(call_may_write(&cb), RESULT_DENIED);
	cr_assert(strstr(cb.err, "(alice) holds the control lease") != NULL,
	    "%s", cb.err);
	lease_release(&d, a, err, sizeof(err));

	/* A batch run holds the simulation too, until its client leaves. */
	clock_pause(d.clock);
	batch_of(pa, 10000000);
	end = monotonic_s() + 5;
	while (lease_batch(&d) == 0 && monotonic_s() < end)
		inproc_turn(&d);
	cr_assert_eq(lease_batch(&d), a->id, "alice's batch holds it");
	cr_assert_eq(call_may_write(&ca), 0);
	cb.err[0] = '\0';
	cr_assert_eq(call_may_write(&cb), RESULT_DENIED);
	cr_assert(strstr(cb.err, "running a batch") != NULL, "%s", cb.err);
	close(pa);
	end = monotonic_s() + 5;
	while (lease_batch(&d) != 0 && monotonic_s() < end)
		inproc_turn(&d);
	cr_assert_eq(lease_batch(&d), 0, "the batch went with its client");
	cr_assert_eq(call_may_write(&cb), 0);
	close(pb);
	inproc_stop(&d);
}

/* The fixture's two hinges at (1.2, -0.4), its servos' controls (0.9, 1.5). */
static void
pose(void)
{
	const struct sim_sizes *z = sim_sizes(d.sim);
	const struct sim_arrays *x = sim_arrays(d.sim);
	double qpos[16], qvel[16] = { 0 }, ctrl[2] = { 0.9, 1.5 };

	cr_assert_eq(z->nq, 9);
	cr_assert_eq(z->nu, 2);
	memcpy(qpos, x->qpos, sizeof(double) * 9);
	qpos[0] = 1.2;
	qpos[1] = -0.4;
	sim_set_state(d.sim, qpos, qvel, x->act);
	sim_set_ctrl(d.sim, ctrl);
}

/* Turn the loop until nobody holds the lease, or a second passed. */
static void
wait_lease_free(void)
{
	double end = monotonic_s() + 1;

	while (lease_holder(&d) != 0 && monotonic_s() < end)
		inproc_run_for(&d, 0.001);
	cr_assert_eq(lease_holder(&d), 0, "the holder's leaving frees it");
	cr_assert_str_eq(lease_holder_name(&d), "");
}

/* The holder leaves under policy: the clock and the controls after. */
static void
holder_leaves(const char *policy, int running, double c0, double c1)
{
	const double *ctrl;
	struct session *a, *b;
	char err[200];
	int pa, pb;

	start(policy);
	a = client("alice", &pa);
	b = client("bob", &pb);
	pose();
	cr_assert_eq(lease_take(&d, a, err, sizeof(err)), 0);
	close(pa);
	wait_lease_free();
	cr_assert(lease_permits(&d, b));
	cr_assert_eq(clock_running(d.clock), running, "%s: running %d", policy,
	    clock_running(d.clock));
	ctrl = sim_arrays(d.sim)->ctrl;
	cr_assert_float_eq(
	    ctrl[0], c0, 1e-9, "%s: ctrl[0] %g", policy, ctrl[0]);
	cr_assert_float_eq(
	    ctrl[1], c1, 1e-9, "%s: ctrl[1] %g", policy, ctrl[1]);
	close(pb);
}

Test(lease, loss_pause_stops_the_clock, .fini = teardown)
{
	holder_leaves("pause", 0, 0.9, 1.5);
	inproc_stop(&d);
}

/* The servos hold the pose: servo1's 1.2 clamped to its range of 1. */
Test(lease, loss_hold_holds_the_pose, .fini = teardown)
{
	holder_leaves("hold", 1, 1.0, -0.4);
	inproc_stop(&d);
}

Test(lease, loss_zero_zeroes_the_controls, .fini = teardown)
{
	holder_leaves("zero", 1, 0, 0);
	inproc_stop(&d);
}

Test(lease, loss_keep_changes_nothing, .fini = teardown)
{
	holder_leaves("keep", 1, 0.9, 1.5);
	inproc_stop(&d);
}

Test(lease, default_loss_is_pause, .init = setup, .fini = teardown)
{
	struct session *a;
	char err[200];
	int pa;

	a = client("alice", &pa);
	cr_assert_eq(lease_take(&d, a, err, sizeof(err)), 0);
	close(pa);
	wait_lease_free();
	cr_assert(!clock_running(d.clock));
	inproc_stop(&d);
}

Test(lease, a_non_holder_leaving_changes_nothing, .fini = teardown)
{
	struct session *a;
	const double *ctrl;
	char err[200];
	double end;
	int pa, pb;

	start("zero");
	a = client("alice", &pa);
	client("bob", &pb);
	pose();
	cr_assert_eq(lease_take(&d, a, err, sizeof(err)), 0);
	close(pb);
	end = monotonic_s() + 1;
	while (sessions_count(&d) != 1 && monotonic_s() < end)
		inproc_run_for(&d, 0.001);
	inproc_run_for(&d, 0.01);
	cr_assert_eq(sessions_count(&d), 1, "bob left");
	cr_assert_eq(lease_holder(&d), a->id);
	cr_assert(clock_running(d.clock));
	ctrl = sim_arrays(d.sim)->ctrl;
	cr_assert_eq(ctrl[0], 0.9);
	cr_assert_eq(ctrl[1], 1.5);
	close(pa);
	inproc_stop(&d);
}
