/*
 * Recording in the daemon, read back with lib/recording.h: what a
 * subscriber streamed during the same steps, every (N+1)th step, the
 * status, the end on reload, a kill -9 that loses at most 250 ms, and
 * the end at the quota or a full disk.
 */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "check.h"
#include "harness.h"
#include "haptixd.h"
#include "recording.h"

TestSuite(record, .timeout = 60, .fini = hx_server_cleanup);

#define RECORD_FIELDS \
	(HXD_FIELDS(HXD_FIELD_QPOS) | HXD_FIELDS(HXD_FIELD_QVEL) | \
	    HXD_FIELDS(HXD_FIELD_CTRL) | HXD_FIELDS(HXD_FIELD_MOCAP) | \
	    HXD_FIELDS(HXD_FIELD_SENSORDATA))

/* Compare n doubles bit for bit. */
static void
same_bits(const double *a, const double *b, int n, const char *what,
    unsigned long long step)
{
	cr_assert_not_null(a, "%s missing at step %llu", what, step);
	cr_assert_not_null(
	    b, "%s missing in the file at step %llu", what, step);
	cr_assert(memcmp(a, b, (size_t)n * sizeof(double)) == 0,
	    "%s differs at step %llu", what, step);
}

/*
 * Paused, 200 steps with changing controls: the file holds exactly the
 * frames a subscriber got for each step, bit for bit; with every 4, one
 * step in five.
 */
static void
record_matches_stream(unsigned every)
{
	static const char *const args[] = { "-m", "fixture.xml", "--paused",
		NULL };
	hxd_subscription sub = { .fields = RECORD_FIELDS, .every_steps = 1 };
	double u[2];
	hxd_control ctl = { 2, 0, u };
	struct rec_reader_stats rs;
	struct rec_reader *rd;
	struct rec_item it;
	struct hx_server s;
	hxd_recording r;
	hxd_frame *frames[200];
	hxd_event *ev;
	hxd_conn *c;
	char err[512];
	int i, n = 0, got = 0;
	unsigned taken;

	hx_server_start(&s, args);
	c = hx_connect_ok(s.unix_addr, "recorder");
	HX_OK(c, hxd_record_start(c, RECORD_FIELDS, every, 0, &r));
	cr_expect(r.active);
	cr_expect(strncmp(r.path, s.dir, strlen(s.dir)) != 0 ||
		strstr(r.path, "fixture_") != NULL,
	    "%s", r.path);
	HX_OK(c, hxd_subscribe(c, &sub, NULL));
	for (i = 0; i < 200; i++) {
		u[0] = 0.01 * i;
		u[1] = -0.02 * i;
		HX_OK(c, hxd_set_control(c, &ctl));
		HX_OK(c, hxd_step(c, 1, &taken));
	}
	HX_OK(c, hxd_record_stop(c, &r));
	cr_expect(!r.active);
	cr_expect_eq(r.records, 200 / (every + 1), "%llu records", r.records);
	/* The first frame is the state at subscribing; then one a step. */
	while (n < 200 && hxd_next_event(c, 2000, &ev) == HXD_OK) {
		if (ev->kind == HXD_EVENT_FRAME && ev->frame->step > 0) {
			frames[n++] = ev->frame;
			ev->frame = NULL;
		}
		hxd_event_free(ev);
	}
	cr_assert_eq(n, 200, "%d frames streamed", n);

	rd = rec_reader_open(r.path, err, sizeof(err));
	cr_assert_not_null(rd, "%s", err);
	cr_expect_str_eq(rec_reader_header(rd)->name, "fixture");
	cr_expect_eq(rec_reader_header(rd)->every, every + 1);
	cr_expect_eq(rec_reader_header(rd)->nq, 9);
	while (rec_reader_next(rd, &it) == 1) {
		hxd_frame *f;

		if (it.tag != REC_TAG_STATE)
			continue;
		cr_assert(it.step >= 1 && it.step <= 200, "step %llu",
		    (unsigned long long)it.step);
		cr_assert_eq(it.step % (every + 1), 0, "step %llu recorded",
		    (unsigned long long)it.step);
		f = frames[it.step - 1];
		cr_assert_eq(f->step, it.step);
		cr_expect_eq(f->time, it.time);
		same_bits(f->qpos, it.field[REC_QPOS], 9, "qpos", f->step);
		same_bits(f->qvel, it.field[REC_QVEL], 8, "qvel", f->step);
		same_bits(f->ctrl, it.field[REC_CTRL], 2, "ctrl", f->step);
		same_bits(
		    f->mocap_pos, it.field[REC_MOCAP_POS], 3, "mocap", f->step);
		same_bits(f->sensordata, it.field[REC_SENSORDATA],
		    f->nsensordata, "sensordata", f->step);
		cr_expect_null(it.field[REC_ACT], "act was not chosen");
		got++;
	}
	rec_reader_stats(rd, &rs);
	cr_expect(!rs.truncated, "a stopped recording is whole");
	cr_expect_eq(got, 200 / (every + 1), "%d records read", got);
	rec_reader_close(rd);
	for (i = 0; i < n; i++)
		hxd_frame_free(frames[i]);
	hxd_close(c);
	hx_server_stop(&s);
}

Test(record, every_step_equals_the_stream)
{
	record_matches_stream(0);
}

Test(record, every_4_keeps_every_fifth_step)
{
	record_matches_stream(4);
}

/*
 * The status shows the recording; a second start is refused; loading a
 * model ends it, and the next one gets the next number.
 */
Test(record, status_one_at_a_time_and_reload)
{
	static const char *const args[] = { "-m", "fixture.xml", NULL };
	struct hx_server s;
	hxd_recording r, r2;
	hxd_status st;
	hxd_conn *c;
	hxd_model m;

	hx_server_start(&s, args);
	c = hx_connect_ok(s.unix_addr, "recorder");
	HX_OK(c, hxd_record_start(c, 0, 0, 0, &r));
	cr_expect_eq(hxd_record_start(c, 0, 0, 0, &r2), HXD_DENIED);
	hx_sleep_ms(600);
	st = hx_status_ok(c);
	cr_expect(st.recording.active);
	cr_expect_str_eq(st.recording.path, r.path);
	cr_expect_gt(
	    st.recording.records, 100, "%llu records", st.recording.records);
	cr_expect_gt(st.recording.bytes, 0, "flushed within 250 ms");
	HX_OK(c, hxd_load_file(c, "fixture.xml", &m));
	st = hx_status_ok(c);
	cr_expect(!st.recording.active);
	cr_expect(strstr(st.recording.ended, "model") != NULL, "%s",
	    st.recording.ended);
	HX_OK(c, hxd_record_start(c, 0, 0, 0, &r2));
	cr_expect(strstr(r.path, "_1.hxr") != NULL, "%s", r.path);
	cr_expect(strstr(r2.path, "_2.hxr") != NULL, "%s", r2.path);
	cr_expect_eq(hxd_record_stop(c, NULL), HXD_OK);
	cr_expect_eq(hxd_record_stop(c, NULL), HXD_BADVALUE);
	hxd_close(c);
	hx_server_stop(&s);
}

/*
 * kill -9 while recording at speed 1: the file reads up to its last
 * whole frame, and what is lost is at most the 250 ms between flushes
 * (plus the time it takes to read the status and kill).
 */
/*
 * The path of a recording is its full path, in the answer and the log,
 * even when --state-dir is relative: the daemon's working directory is
 * no help to a client.  It was the relative one.
 */
Test(record, the_path_is_a_full_path)
{
	static const char *const args[] = { "-m", "fixture.xml", "--paused",
		"--state-dir", "rec", NULL };
	char cwd[] = "/tmp/hxrecord.XXXXXX", want[4200], *got;
	struct hx_server s;
	hxd_recording r;
	hxd_conn *c;

	/* The daemon starts in a directory of its own. */
	cr_assert_not_null(mkdtemp(cwd));
	cr_assert_eq(chdir(cwd), 0);
	hx_server_start(&s, args);
	c = hx_connect_ok(s.unix_addr, "recorder");
	HX_OK(c, hxd_record_start(c, RECORD_FIELDS, 0, 0, &r));
	got = realpath(cwd, NULL);
	cr_assert_not_null(got);
	snprintf(want, sizeof(want), "%s/rec/fixture_1.hxr", got);
	free(got);
	cr_expect_str_eq(r.path, want);
	cr_expect(access(want, F_OK) == 0, "no %s", want);
	snprintf(want, sizeof(want), "recording to %s", r.path);
	cr_expect(hx_server_log_has(&s, want), "%s", hx_server_log_text(&s));
	HX_OK(c, hxd_record_stop(c, &r));
	hxd_close(c);
	hx_server_stop(&s);
	hx_remove_tree(cwd);
}

Test(record, kill_9_loses_at_most_250_ms)
{
	static const char *const args[] = { "-m", "fixture.xml", NULL };
	struct rec_reader_stats rs;
	struct rec_reader *rd;
	struct rec_item it;
	struct hx_server s;
	hxd_recording r;
	hxd_status st;
	hxd_conn *c;
	double last = -1;
	char err[512], path[4096];
	int status, rc;

	hx_server_start(&s, args);
	c = hx_connect_ok(s.unix_addr, "recorder");
	HX_OK(c, hxd_record_start(c, 0, 0, 0, &r));
	snprintf(path, sizeof(path), "%s", r.path);
	hx_sleep_ms(1100);
	st = hx_status_ok(c);
	kill(s.pid, SIGKILL);
	waitpid(s.pid, &status, 0);
	s.pid = 0;
	hxd_close(c);

	rd = rec_reader_open(path, err, sizeof(err));
	cr_assert_not_null(rd, "%s", err);
	while ((rc = rec_reader_next(rd, &it)) == 1)
		if (it.tag == REC_TAG_STATE)
			last = it.time;
	rec_reader_stats(rd, &rs);
	cr_expect_eq(
	    rc, 0, "the file reads to its end: %s", rec_reader_error(rd));
	rec_reader_close(rd);
	cr_log_info("killed at t=%.3f; the file ends at t=%.3f%s", st.time,
	    last, rs.truncated ? " (a frame cut short)" : "");
	cr_assert_gt(last, 0, "nothing recorded");
	/* Generous: the status was read a moment before the kill. */
	cr_expect_gt(last, st.time - 0.4, "lost %.3f s", st.time - last);
	hx_server_stop(&s);
}

/*
 * Record while stepping paused, chunk steps at a time with pause_ms
 * between (so that the server writes a frame, every 250 ms, between
 * them), until the server ends the recording by itself; return the
 * event that says so, and the file's state records and whether it ends
 * inside a frame.
 */
static hxd_event *
record_until_ended(struct hx_server *s, unsigned chunk, int pause_ms,
    unsigned long long *records, int *truncated)
{
	hxd_subscription sub = { .events = 1 };
	struct rec_reader_stats rs;
	struct rec_reader *rd;
	struct rec_item it;
	hxd_recording r;
	hxd_conn *c, *watch;
	hxd_status st;
	hxd_event *ev;
	char err[512];
	unsigned taken;
	int rc, i;

	watch = hx_connect_ok(s->unix_addr, "watch");
	HX_OK(watch, hxd_subscribe(watch, &sub, NULL));
	c = hx_connect_ok(s->unix_addr, "recorder");
	hxd_set_timeout(c, 60000);
	HX_OK(c, hxd_record_start(c, 0, 0, 0, &r));
	ev = NULL;
	for (i = 0; i < 100 && ev == NULL; i++) {
		HX_OK(c, hxd_step(c, chunk, &taken));
		ev = hx_event_within(watch, HXD_EVENT_RECORDING, pause_ms);
	}
	cr_assert_not_null(ev, "no recording_ended event; the log:\n%s",
	    hx_server_log_text(s));
	cr_log_info("ended: %s, %llu records, %llu bytes", ev->recording.ended,
	    ev->recording.records, ev->recording.bytes);
	cr_expect(!ev->recording.active);
	cr_expect_str_eq(ev->recording.path, r.path);
	st = hx_status_ok(c);
	cr_expect(!st.recording.active, "the recording runs on");
	cr_expect_str_eq(st.recording.ended, ev->recording.ended);
	HX_FAILS_WITH(
	    c, hxd_record_stop(c, NULL), HXD_BADVALUE, ev->recording.ended);

	/* What was written reads back, up to the end or a frame cut short. */
	rd = rec_reader_open(r.path, err, sizeof(err));
	cr_assert_not_null(rd, "%s", err);
	*records = 0;
	while ((rc = rec_reader_next(rd, &it)) == 1)
		if (it.tag == REC_TAG_STATE)
			(*records)++;
	rec_reader_stats(rd, &rs);
	cr_assert_eq(rc, 0, "%s: %s", r.path, rec_reader_error(rd));
	rec_reader_close(rd);
	*truncated = rs.truncated;
	cr_assert_gt(*records, 100, "%llu records", *records);
	hxd_close(c);
	hxd_close(watch);
	return ev;
}

/*
 * --record-quota: the recording ends before the frame that would pass
 * it, said in the log, the status, an event and record_stop's refusal;
 * the file is within the quota, whole, and holds every record the
 * server counted.  Once a recording grew until the disk was full.
 */
Test(record, the_quota_ends_a_recording_whole)
{
	static const char *const args[] = { "-m", "fixture.xml", "--paused",
		"--record-quota", "64K", NULL };
	unsigned long long records;
	struct hx_server s;
	struct stat sb;
	hxd_status st;
	hxd_event *ev;
	hxd_conn *c;
	int truncated;

	hx_server_start(&s, args);
	ev = record_until_ended(&s, 10000, 100, &records, &truncated);
	cr_expect(strstr(ev->recording.ended, "quota reached") != NULL, "%s",
	    ev->recording.ended);
	cr_expect_eq(ev->recording.quota, 65536);
	cr_assert_eq(stat(ev->recording.path, &sb), 0);
	cr_expect_leq(sb.st_size, 65536, "%lld bytes", (long long)sb.st_size);
	cr_expect_gt(sb.st_size, 60000, "%lld bytes", (long long)sb.st_size);
	cr_expect(!truncated, "the file ends inside a frame");
	cr_expect_eq(records, ev->recording.records,
	    "the file holds %llu records; the server counted %llu", records,
	    ev->recording.records);
	cr_expect(hx_server_log_has(&s, "quota reached"));
	hxd_event_free(ev);
	c = hx_connect_ok(s.unix_addr, "status");
	st = hx_status_ok(c);
	cr_expect_eq(st.recording.quota, 65536);
	hxd_close(c);
	hx_server_stop(&s);
}

/*
 * A full disk ends a recording as the quota does, with the reason: the
 * daemon runs under a file size limit (RLIMIT_FSIZE, SIGXFSZ ignored),
 * so that a write fails with EFBIG as on a full disk.  The file reads up
 * to the last whole frame.  Once the daemon ended it only at the next
 * record, and told nobody.
 */
Test(record, a_full_disk_ends_a_recording_and_says_why)
{
	static const char *const args[] = { "-m", "fixture.xml", "--paused",
		NULL };
	unsigned long long records;
	struct rlimit old, lim;
	struct hx_server s;
	struct stat sb;
	hxd_event *ev;
	int truncated;

	cr_assert_eq(getrlimit(RLIMIT_FSIZE, &old), 0);
	lim = old;
	lim.rlim_cur = 96 * 1024;
	cr_assert_eq(setrlimit(RLIMIT_FSIZE, &lim), 0);
	signal(SIGXFSZ, SIG_IGN); /* inherited across exec */
	hx_server_start(&s, args);
	cr_assert_eq(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, SIG_DFL);

	/* Frames of some 10 KB, so that several are whole at the end. */
	ev = record_until_ended(&s, 100, 300, &records, &truncated);
	cr_expect(strstr(ev->recording.ended, "write failed") != NULL &&
		strstr(ev->recording.ended, "File too large") != NULL,
	    "%s", ev->recording.ended);
	cr_assert_eq(stat(ev->recording.path, &sb), 0);
	cr_expect_leq(sb.st_size, 96 * 1024);
	cr_expect_leq(records, ev->recording.records);
	cr_expect(hx_server_log_has(&s, "File too large"));
	hxd_event_free(ev);
	hx_server_stop(&s);
}
