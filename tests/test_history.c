/*
 * The live run's history (daemon/sim_history.h), through a real haptixd:
 * the kept states are the states the run went through (a recording of
 * the run says so, bit for bit), reading them moves nothing, resuming
 * from one and taking the same steps again gives the recorded states
 * exactly, the memory bound holds with a stride, and every refusal
 * (beyond the history, another's lease, a model written since, no
 * history, a new model) says why.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "check.h"
#include "harness.h"
#include "haptixd.h"
#include "recording.h"

TestSuite(history, .timeout = 120, .fini = hx_server_cleanup);

#define NSTEPS 200
#define NQ 9 /* fixture.xml */
#define NV 8

#define FIELDS \
	(HXD_FIELDS(HXD_FIELD_QPOS) | HXD_FIELDS(HXD_FIELD_QVEL) | \
	    HXD_FIELDS(HXD_FIELD_CTRL))

/* The run as the recording holds it, by step (1..NSTEPS). */
struct run {
	double qpos[NSTEPS + 1][NQ], qvel[NSTEPS + 1][NV], time[NSTEPS + 1];
	int seen[NSTEPS + 1];
};

/* The controls of step i: the same in the run and after resuming. */
static void
step_with_controls(hxd_conn *c, int i)
{
	double u[2] = { 0.4 * sin(0.05 * i), -0.3 * cos(0.07 * i) };
	hxd_control ctl = { 2, 0, u };
	unsigned taken;

	HX_OK(c, hxd_set_control(c, &ctl));
	HX_OK(c, hxd_step(c, 1, &taken));
	cr_assert_eq(taken, 1);
}

static void
read_run(const char *path, struct run *run)
{
	struct rec_reader *rd;
	struct rec_item it;
	char err[512];

	memset(run, 0, sizeof(*run));
	rd = rec_reader_open(path, err, sizeof(err));
	cr_assert_not_null(rd, "%s", err);
	while (rec_reader_next(rd, &it) == 1) {
		if (it.tag != REC_TAG_STATE || it.step < 1 || it.step > NSTEPS)
			continue;
		memcpy(run->qpos[it.step], it.field[REC_QPOS],
		    sizeof(run->qpos[0]));
		memcpy(run->qvel[it.step], it.field[REC_QVEL],
		    sizeof(run->qvel[0]));
		run->time[it.step] = it.time;
		run->seen[it.step] = 1;
	}
	rec_reader_close(rd);
}

/* The live state is the run's at step k, bit for bit. */
static void
live_is_step(hxd_conn *c, const struct run *run, int k)
{
	hxd_state *st = NULL;

	cr_assert(run->seen[k], "step %d is not in the recording", k);
	HX_OK(c, hxd_get_state(c, &st));
	cr_assert_eq(st->nq, NQ);
	cr_assert(memcmp(st->qpos, run->qpos[k], sizeof(run->qpos[k])) == 0,
	    "qpos differs from the recording at step %d (%.17g vs %.17g)", k,
	    st->qpos[0], run->qpos[k][0]);
	cr_assert(memcmp(st->qvel, run->qvel[k], sizeof(run->qvel[k])) == 0,
	    "qvel differs from the recording at step %d", k);
	cr_assert_eq(st->time, run->time[k], "time %.17g at step %d, not %.17g",
	    st->time, k, run->time[k]);
	free(st);
}

Test(history, resuming_retakes_the_recorded_steps_exactly)
{
	static const char *const args[] = { "-m", "fixture.xml", "--paused",
		NULL };
	static struct run run;
	hxd_history_state h;
	struct hx_server s;
	hxd_recording r;
	hxd_status st;
	hxd_conn *c;
	int i, k;

	hx_server_start(&s, args);
	c = hx_connect_ok(s.unix_addr, "history");
	HX_OK(c, hxd_record_start(c, FIELDS, 0, 0, &r));
	for (i = 1; i <= NSTEPS; i++)
		step_with_controls(c, i);
	HX_OK(c, hxd_record_stop(c, &r));
	read_run(r.path, &run);

	/* The kept states are the run's: back k is step NSTEPS - k. */
	st = hx_status_ok(c);
	cr_assert_eq(
	    st.history.states, NSTEPS, "%u states kept", st.history.states);
	cr_assert_eq(st.history.stride, 1);
	cr_assert_eq(st.history.newest, run.time[NSTEPS]);
	cr_assert_eq(st.history.oldest, run.time[1]);
	for (k = 0; k < NSTEPS; k += 37) {
		HX_OK(c, hxd_history(c, (unsigned)k, &h));
		cr_assert_eq(h.step, (unsigned long long)(NSTEPS - k));
		cr_assert_eq(h.nqpos, NQ);
		cr_assert_eq(h.nctrl, 2);
		cr_assert(memcmp(h.qpos, run.qpos[NSTEPS - k],
			      sizeof(run.qpos[0])) == 0,
		    "history %d back is not the recorded step %d", k,
		    NSTEPS - k);
		cr_assert(h.resumable);
		hxd_history_state_free(&h);
	}
	/* Reading moved nothing. */
	live_is_step(c, &run, NSTEPS);
	cr_assert_eq(hx_status_ok(c).steps, NSTEPS);

	/* Resume from step 120, take the same steps: the same states. */
	HX_OK(c, hxd_history_resume(c, NSTEPS - 120));
	live_is_step(c, &run, 120);
	cr_assert_eq(hx_status_ok(c).steps, 120);
	cr_assert_eq(
	    hx_status_ok(c).history.states, 120, "the newer states are gone");
	for (i = 121; i <= NSTEPS; i++) {
		step_with_controls(c, i);
		live_is_step(c, &run, i);
	}
	hxd_close(c);
	hx_server_stop(&s);
}

Test(history, the_memory_bound_keeps_one_step_in_a_stride)
{
	static const char *const args[] = { "-m", "fixture.xml", "--paused",
		"--history", "10", "--history-memory", "1", NULL };
	struct hx_server s;
	hxd_status st;
	hxd_conn *c;
	unsigned taken;

	hx_server_start(&s, args);
	c = hx_connect_ok(s.unix_addr, "history");
	/* 12 s at 2 ms: more than the history covers. */
	HX_OK(c, hxd_step(c, 6000, &taken));
	st = hx_status_ok(c);
	cr_assert_eq(st.history.seconds, 10);
	cr_assert_eq(st.history.memory, 1 << 20);
	cr_assert(st.history.bytes <= (1 << 20) && st.history.bytes > 0,
	    "%llu bytes", st.history.bytes);
	cr_assert_gt(st.history.stride, 1, "1 MiB holds every step");
	cr_assert_eq(st.history.states, st.history.capacity);
	/* It covers the 10 s asked, within a stride. */
	cr_assert(st.history.newest - st.history.oldest >=
		10 - 0.002 * st.history.stride,
	    "covers %g s to %g s", st.history.oldest, st.history.newest);
	cr_assert(st.history.newest - st.history.oldest <= 10 + 1e-9);
	/* The newest kept is at most a stride behind. */
	cr_assert(st.time - st.history.newest >= 0 &&
		st.time - st.history.newest < 0.002 * st.history.stride,
	    "the newest kept is at %g s, the time %g s", st.history.newest,
	    st.time);
	hxd_close(c);
	hx_server_stop(&s);
}

Test(history, refusals_say_why)
{
	static const char *const args[] = { "-m", "fixture.xml", "--paused",
		NULL };
	static const char *const none[] = { "-m", "fixture.xml", "--paused",
		"--history", "0", NULL };
	static const double rgba[4] = { 1, 1, 0, 1 };
	hxd_history_state h;
	struct hx_server s;
	hxd_conn *c, *other;
	unsigned taken;

	hx_server_start(&s, args);
	c = hx_connect_ok(s.unix_addr, "history");
	other = hx_connect_ok(s.unix_addr, "other");
	cr_assert_eq(hxd_history(c, 0, &h), HXD_BADINDEX, "an empty history");
	HX_OK(c, hxd_step(c, 10, &taken));
	cr_assert_eq(hxd_history(c, 10, &h), HXD_BADINDEX);
	cr_assert(strstr(hxd_error(c), "holds 10") != NULL, "%s", hxd_error(c));
	cr_assert_eq(hxd_history_resume(c, 10), HXD_BADINDEX);

	/* Another client's lease: reading is allowed, resuming is not. */
	HX_OK(other, hxd_lease(other, HXD_LEASE_TAKE, NULL));
	HX_OK(c, hxd_history(c, 3, &h));
	hxd_history_state_free(&h);
	cr_assert_eq(hxd_history_resume(c, 3), HXD_DENIED, "%s", hxd_error(c));
	HX_OK(other, hxd_lease(other, HXD_LEASE_RELEASE, NULL));

	/* A write into the model: the old states are read, not resumed. */
	HX_OK(c, hxd_set_rgba(c, HXD_OBJ_GEOM, 0, rgba));
	HX_OK(c, hxd_step(c, 1, &taken));
	HX_OK(c, hxd_history(c, 2, &h));
	cr_assert(!h.resumable);
	hxd_history_state_free(&h);
	cr_assert_eq(hxd_history_resume(c, 2), HXD_DENIED);
	cr_assert(
	    strstr(hxd_error(c), "written since") != NULL, "%s", hxd_error(c));
	HX_OK(c, hxd_history(c, 0, &h));
	cr_assert(h.resumable, "the step after the write is resumable");
	hxd_history_state_free(&h);
	HX_OK(c, hxd_history_resume(c, 0));

	/* A new model empties it. */
	HX_OK(c, hxd_load_file(c, hx_test_model("fixture.xml"), NULL));
	cr_assert_eq(hx_status_ok(c).history.states, 0);
	cr_assert_eq(hxd_history(c, 0, &h), HXD_BADINDEX);
	hxd_close(other);
	hxd_close(c);
	hx_server_stop(&s);

	/* --history 0 keeps nothing, and says so. */
	hx_server_start(&s, none);
	c = hx_connect_ok(s.unix_addr, "history");
	HX_OK(c, hxd_step(c, 10, &taken));
	cr_assert_eq(hx_status_ok(c).history.states, 0);
	cr_assert_eq(hxd_history(c, 0, &h), HXD_BADINDEX);
	cr_assert(
	    strstr(hxd_error(c), "--history 0") != NULL, "%s", hxd_error(c));
	hxd_close(c);
	hx_server_stop(&s);
}
