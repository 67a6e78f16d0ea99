/*
 * The journal and hxplay: a run with every kind of input, recorded with
 * its journal and replayed by hxplay --verify on another server, ends in
 * the same state bit for bit; a journal altered at one step is reported
 * as diverging at the next; hxplay plays the states to a paused server
 * at the recorded pace.
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

TestSuite(journal, .timeout = 120, .fini = hx_server_cleanup);

static const char *const scene_args[] = { "-m", "mpl_scene.xml", "--paused",
	NULL };
static const char *const fixture_args[] = { "-m", "fixture.xml", "--paused",
	NULL };

/* The state at the end of a run: compared bit for bit. */
struct end_state {
	unsigned long long hash;
	hxd_array *qpos, *qvel, *warm;
};

static void
end_state_get(hxd_conn *c, struct end_state *e)
{
	HX_OK(c, hxd_state_hash(c, &e->hash, NULL, NULL));
	HX_OK(c, hxd_get_array(c, "qpos", &e->qpos));
	HX_OK(c, hxd_get_array(c, "qvel", &e->qvel));
	HX_OK(c, hxd_get_array(c, "qacc_warmstart", &e->warm));
}

static void
end_state_same(const struct end_state *a, const struct end_state *b)
{
	cr_expect_eq(a->hash, b->hash, "hash %016llx, replayed %016llx",
	    a->hash, b->hash);
	cr_expect(memcmp(a->qpos->values, b->qpos->values,
		      (size_t)a->qpos->rows * sizeof(double)) == 0,
	    "qpos differs");
	cr_expect(memcmp(a->qvel->values, b->qvel->values,
		      (size_t)a->qvel->rows * sizeof(double)) == 0,
	    "qvel differs");
	cr_expect(memcmp(a->warm->values, b->warm->values,
		      (size_t)a->warm->rows * sizeof(double)) == 0,
	    "qacc_warmstart differs");
}

static void
end_state_free(struct end_state *e)
{
	free(e->qpos);
	free(e->qvel);
	free(e->warm);
}

/* Run hxplay with the arguments up to NULL. */
#define hxplay(r, ...) hx_run_args((r), hx_hxplay_path(), __VA_ARGS__)

/* Multiply one value of a model array. */
static void
scale_array(hxd_conn *c, const char *name, int index, double factor)
{
	hxd_array *a;
	double v;

	HX_OK(c, hxd_get_array(c, name, &a));
	v = a->values[index] * factor;
	free(a);
	HX_OK(c, hxd_set_array(c, name, index, 1, &v));
}

/*
 * 300 steps of the MPL scene with an input of every kind the journal
 * must catch, then a stretch run by the clock.
 */
static void
drive_scene(hxd_conn *c)
{
	hxd_status st;
	double u[64] = { 0 }, xfrc[6 * 64] = { 0 }, qfrc[64] = { 0 };
	double mpos[3], mquat[4] = { 1, 0, 0, 0 },
			size[3] = { 0.03, 0.03, 0.03 };
	double rgba[4] = { 1, 0, 0, 1 }, vel[64];
	hxd_control ctl;
	hxd_applied ap;
	hxd_mocap *mo;
	hxd_robot_command cmd = { 0 };
	hxd_robot_sensor *rs;
	int i, k, cube;
	unsigned taken;

	HX_OK(c, hxd_status_get(c, &st));
	cr_assert(
	    st.model.nu <= 64 && st.model.nbody <= 64 && st.model.nv <= 64);
	ctl = (hxd_control){ st.model.nu, 0, u };
	ap = (hxd_applied){ st.model.nv, st.model.nbody, 0, qfrc, xfrc };
	HX_OK(c, hxd_name2id(c, HXD_OBJ_GEOM, "cube", &cube));
	for (i = 0; i < 300; i++) {
		if (i % 7 == 0) {
			for (k = 0; k < st.model.nu; k++)
				u[k] = 0.3 * sin(0.05 * i + k);
			HX_OK(c, hxd_set_control(c, &ctl));
		}
		if (i == 40 || i == 80) {
			xfrc[6 * (st.model.nbody - 1) + 2] = i == 40 ? 0.5 : 0;
			HX_OK(c, hxd_set_applied(c, &ap));
		}
		if (i == 100) {
			HX_OK(c, hxd_get_mocap(c, &mo));
			memcpy(mpos, mo->pos, sizeof(mpos));
			free(mo);
			mpos[2] += 0.01;
			mo = &(hxd_mocap){ 1, 0, mpos, mquat };
			HX_OK(c, hxd_set_mocap(c, mo));
		}
		if ((i == 120 || i == 160) && st.model.neq > 0)
			HX_OK(c, hxd_equality(c, 0, i == 160));
		/*
		 * A reset keeping the model's parameters: restoring them would
		 * turn the mocap weld (off since 120) back on here, and a
		 * replay of that diverges after the body_mass write at 200,
		 * the old daemon's too (as does hxd_equality(c, 0, 1) here).
		 */
		if (i == 140)
			HX_OK(c, hxd_reset_keep(c, -1, NULL));
		if (i == 180)
			scale_array(c, "geom_friction", 3 * cube, 0.5);
		if (i == 190)
			HX_OK(c, hxd_set_geomsize(c, cube, size));
		if (i == 200)
			scale_array(c, "body_mass", st.model.nbody - 1, 1.5);
		if (i == 220) {
			for (k = 0; k < st.model.nu; k++)
				vel[k] = 0.2;
			cmd = (hxd_robot_command){ .motor_count = st.model.nu,
				.ref_vel = vel };
			HX_OK(c, hxd_robot_update(c, &cmd, &rs));
			free(rs);
		}
		if (i == 240)
			HX_OK(c, hxd_set_rgba(c, HXD_OBJ_GEOM, cube, rgba));
		if (i == 260)
			HX_OK(c, hxd_capture_key(c, "mid", -1));
		/*
		 * This one restores friction, size, mass and colour; the colour
		 * set again after it leaves a model unlike the recorded one.
		 */
		if (i == 280)
			HX_OK(c, hxd_reset_name(c, "mid"));
		if (i == 290)
			HX_OK(c, hxd_set_rgba(c, HXD_OBJ_GEOM, cube, rgba));
		HX_OK(c, hxd_step(c, 1, &taken));
		cr_assert_eq(taken, 1);
	}
	/* Steps the clock takes count the same. */
	HX_OK(c, hxd_run(c));
	hx_sleep_ms(60);
	HX_OK(c, hxd_pause(c));
	HX_OK(c, hxd_step(c, 20, &taken));
}

/* Record a run with its journal; the path of the file into path. */
static void
record_scene(struct hx_server *s, char *path, size_t len, struct end_state *e)
{
	hxd_conn *c = hx_connect_ok(s->unix_addr, "driver");
	hxd_recording r;
	unsigned taken;

	/* Start mid-run, after a model edit: the journal holds both. */
	HX_OK(c, hxd_step(c, 25, &taken));
	scale_array(c, "dof_damping", 0, 2);
	HX_OK(c, hxd_record_start(c, 0, 9, HXD_RECORD_JOURNAL, &r));
	cr_assert(r.journal);
	drive_scene(c);
	HX_OK(c, hxd_record_stop(c, &r));
	cr_expect_gt(r.journal_entries, 50, "%llu inputs", r.journal_entries);
	snprintf(path, len, "%s", r.path);
	end_state_get(c, e);
	hxd_close(c);
}

Test(journal, replay_is_bit_identical)
{
	struct hx_server a, b;
	struct end_state ea, eb;
	struct hx_run r = { 0 };
	char path[4096];
	hxd_conn *c;

	hx_server_start(&a, scene_args);
	record_scene(&a, path, sizeof(path), &ea);

	/* Another server, another model: hxplay loads the recorded one,
	 * and leaves it there with --no-restore. */
	hx_server_start(&b, fixture_args);
	hxplay(&r, "-s", b.unix_addr, "--verify", "--no-restore", path, NULL);
	cr_assert_eq(r.status, 0, "exit %d: %s%s", r.status, r.out, r.err);
	cr_expect(strstr(r.out, "bit-identical") != NULL, "%s", r.out);
	c = hx_connect_ok(b.unix_addr, "checker");
	end_state_get(c, &eb);
	end_state_same(&ea, &eb);
	end_state_free(&eb);

	/* The recording server's model was edited since: refused. */
	hxplay(&r, "-s", a.unix_addr, "--verify", "--keep-model", path, NULL);
	cr_expect_eq(r.status, 1, "exit %d: %s", r.status, r.out);
	cr_expect(strstr(r.err, "not the recorded one") != NULL, "%s", r.err);

	end_state_free(&ea);
	hx_run_free(&r);
	hxd_close(c);
}

/*
 * Copy a recording item by item into out: state records, hashes and
 * journal entries as they are, unless alter (given w, the item and arg)
 * writes the item itself and returns 1.
 */
static void
copy_recording(const char *in, const char *out,
    int (*alter)(struct rec_writer *, const struct rec_item *, void *),
    void *arg)
{
	struct rec_reader *rd;
	struct rec_writer *w;
	struct rec_item it;
	char err[512];

	rd = rec_reader_open(in, err, sizeof(err));
	cr_assert_not_null(rd, "%s", err);
	w = rec_writer_open(out, rec_reader_header(rd), 0, err, sizeof(err));
	cr_assert_not_null(w, "%s", err);
	while (rec_reader_next(rd, &it) == 1) {
		if (alter(w, &it, arg))
			continue;
		if (it.tag == REC_TAG_STATE)
			cr_assert_eq(
			    rec_writer_state(w, it.step, it.time, it.field), 0);
		else if (it.tag == REC_TAG_HASH)
			cr_assert_eq(rec_writer_hash(w, it.step, it.hash), 0);
		else if (it.tag == REC_TAG_JOURNAL)
			cr_assert_eq(rec_writer_journal(
					 w, it.step, it.kind, it.data, it.len),
			    0);
	}
	cr_assert_eq(rec_writer_close(w, err, sizeof(err)), 0, "%s", err);
	rec_reader_close(rd);
}

/* What copy_altered changes: a write, at a step, by delta. */
struct alteration {
	const char *name;
	unsigned long long step;
	double delta;
	int altered; /* -1 until it was */
};

/* copy_recording's hook for copy_altered: the array writes. */
static int
alter_write(struct rec_writer *w, const struct rec_item *it, void *arg)
{
	struct alteration *x = arg;
	struct rec_array_write a;
	double v[4096];

	if (it->tag != REC_TAG_JOURNAL || it->kind != REC_JOURNAL_ARRAY)
		return 0;
	cr_assert_eq(rec_array_parse(it, &a), 0);
	cr_assert_leq(a.count, 4096);
	rec_array_values(&a, v);
	if (x->altered < 0 && it->step == x->step &&
	    strcmp(a.name, x->name) == 0) {
		v[0] += x->delta;
		x->altered = 0;
	}
	cr_assert_eq(
	    rec_writer_array(w, it->step, a.name, a.offset, a.count, v), 0);
	return 1;
}

/*
 * Copy a recording item by item into out, adding delta to the first
 * value of the first write to array name at step: -1 if none was.
 */
static int
copy_altered(const char *in, const char *out, const char *name,
    unsigned long long step, double delta)
{
	struct alteration x = { name, step, delta, -1 };

	copy_recording(in, out, alter_write, &x);
	return x.altered;
}

Test(journal, altered_journal_diverges_at_its_step)
{
	static const char *const args[] = { "-m", "fixture.xml", "--paused",
		NULL };
	struct hx_server s;
	struct hx_run r = { 0 };
	hxd_recording rec;
	double u[2];
	hxd_control ctl = { 2, 0, u };
	char copy[4200], altered[4200];
	unsigned taken;
	hxd_conn *c;
	int i;

	hx_server_start(&s, args);
	c = hx_connect_ok(s.unix_addr, "driver");
	HX_OK(c, hxd_record_start(c, 0, 0, HXD_RECORD_JOURNAL, &rec));
	for (i = 0; i < 100; i++) {
		u[0] = 0.01 * i;
		u[1] = 0.5 - 0.01 * i;
		HX_OK(c, hxd_set_control(c, &ctl));
		HX_OK(c, hxd_step(c, 1, &taken));
	}
	HX_OK(c, hxd_record_stop(c, &rec));

	/* The copier is faithful: an unaltered copy verifies. */
	snprintf(copy, sizeof(copy), "%s/copy.hxr", s.dir);
	cr_assert_eq(copy_altered(rec.path, copy, "", 0, 0), -1);
	hxplay(&r, "-s", s.unix_addr, "--verify", copy, NULL);
	cr_assert_eq(r.status, 0, "exit %d: %s%s", r.status, r.out, r.err);
	/* The recording server's model, unedited, serves as it is. */
	hxplay(&r, "-s", s.unix_addr, "--verify", "--keep-model", copy, NULL);
	cr_expect_eq(r.status, 0, "exit %d: %s%s", r.status, r.out, r.err);

	/* The controls taken into step 41, changed by 1e-9. */
	snprintf(altered, sizeof(altered), "%s/altered.hxr", s.dir);
	cr_assert_eq(copy_altered(rec.path, altered, "data.ctrl", 40, 1e-9), 0,
	    "no write of ctrl at step 40");
	hxplay(&r, "-s", s.unix_addr, "--verify", altered, NULL);
	cr_expect_eq(r.status, 1, "exit %d: %s%s", r.status, r.out, r.err);
	cr_expect(strstr(r.err, "diverges at step 41 ") != NULL, "%s", r.err);
	cr_expect(strstr(r.err, "the 41 steps before matched") != NULL ||
		strstr(r.err, "steps before matched") != NULL,
	    "%s", r.err);
	hx_run_free(&r);
	hxd_close(c);
}

Test(journal, verify_needs_a_journal)
{
	struct hx_server s;
	struct hx_run r = { 0 };
	hxd_recording rec;
	unsigned taken;
	hxd_conn *c;

	hx_server_start(&s, fixture_args);
	c = hx_connect_ok(s.unix_addr, "driver");
	HX_OK(c, hxd_record_start(c, 0, 0, 0, &rec));
	cr_expect(!rec.journal);
	HX_OK(c, hxd_step(c, 10, &taken));
	HX_OK(c, hxd_record_stop(c, &rec));
	hxplay(&r, "-s", s.unix_addr, "--verify", rec.path, NULL);
	cr_expect_eq(r.status, 1);
	cr_expect(strstr(r.err, "no journal") != NULL, "%s", r.err);
	hxplay(&r, "--verify", "--speed", "2", rec.path, NULL);
	cr_expect_eq(r.status, 2, "%s", r.err);
	hx_run_free(&r);
	hxd_close(c);
}

/*
 * hxplay plays 0.4 s of recorded states at twice the pace: about 0.2 s
 * of wall time, and the server ends in the last recorded state.
 */
Test(journal, play_keeps_the_pace)
{
	struct hx_server s, other;
	struct hx_run r = { 0 };
	struct rec_reader *rd;
	struct rec_item it;
	hxd_recording rec;
	hxd_array *qpos;
	double last[9], t0, wall, lasttime = -1;
	hxd_subscription sub = { .fields = HXD_FIELDS(HXD_FIELD_QPOS),
		.wall_hz = 50 };
	hxd_conn *c, *watcher;
	hxd_event *ev;
	char err[512];
	unsigned taken;
	int seen = 0;

	hx_skip_if_valgrind();
	hx_server_start(&s, fixture_args);
	c = hx_connect_ok(s.unix_addr, "driver");
	HX_OK(c, hxd_record_start(c, 0, 0, 0, &rec));
	HX_OK(c, hxd_step(c, 200, &taken));
	HX_OK(c, hxd_record_stop(c, &rec));
	rd = rec_reader_open(rec.path, err, sizeof(err));
	cr_assert_not_null(rd, "%s", err);
	cr_assert_eq(rec_reader_header(rd)->nq, 9);
	while (rec_reader_next(rd, &it) == 1) {
		if (it.tag == REC_TAG_STATE && it.time <= 0.3) {
			memcpy(last, it.field[REC_QPOS], sizeof(last));
			lasttime = it.time;
		}
	}
	rec_reader_close(rd);
	cr_assert_gt(lasttime, 0.25, "the fixture's timestep changed?");

	/* Back to the start, then play 0.1 s to 0.3 s at double speed,
	 * watched as a viewer watches: frames at wall-clock rate. */
	HX_OK(c, hxd_reset(c, -1));
	HX_OK(c, hxd_run(c));
	watcher = hx_connect_ok(s.unix_addr, "watcher");
	HX_OK(watcher, hxd_subscribe(watcher, &sub, NULL));
	t0 = hx_wall_now();
	hxplay(&r, "-s", s.unix_addr, "--speed", "2", "--from", "0.1", "--to",
	    "0.3", rec.path, NULL);
	wall = hx_wall_now() - t0;
	cr_assert_eq(r.status, 0, "exit %d: %s%s", r.status, r.out, r.err);
	cr_expect(strstr(r.out, "pausing the server") != NULL, "%s", r.out);
	cr_expect(wall > 0.09 && wall < 5, "0.2 s at speed 2 took %g s", wall);
	HX_OK(c, hxd_get_array(c, "qpos", &qpos));
	cr_expect(memcmp(qpos->values, last, sizeof(last)) == 0,
	    "the server is not in the last state of the range");
	free(qpos);
	hx_sleep_ms(100);
	while (hxd_next_event(watcher, 0, &ev) == HXD_OK) {
		if (ev->kind == HXD_EVENT_FRAME &&
		    memcmp(ev->frame->qpos, last, sizeof(last)) == 0)
			seen = 1;
		hxd_event_free(ev);
	}
	cr_expect(seen, "no frame showed the last state played");
	hxd_close(watcher);

	/* A server with another model is told so. */
	hx_server_start(&other, scene_args);
	hxplay(&r, "-s", other.unix_addr, rec.path, NULL);
	cr_expect_eq(r.status, 1);
	cr_expect(
	    strstr(r.err, "load the recorded model") != NULL, "%s", r.err);
	hx_run_free(&r);
	hxd_close(c);
}

/* The u64 values of a (rows,) .npy file that hxplay export wrote. */
static uint64_t *
npy_u64(const char *path, size_t rows)
{
	uint64_t *v;
	FILE *fp;
	char head[129];

	fp = fopen(path, "rb");
	cr_assert_not_null(fp, "%s is missing", path);
	cr_assert_eq(fread(head, 1, 128, fp), 128);
	head[128] = '\0';
	cr_assert(strstr(head + 10, "'<u8'") != NULL, "%s", head + 10);
	v = calloc(rows + 1, sizeof(*v));
	cr_assert_not_null(v);
	cr_assert_eq(fread(v, sizeof(*v), rows + 1, fp), rows, "%s", path);
	fclose(fp);
	return v;
}

/* Whether the text holds the words, naming both when it does not. */
#define HAS(text, words) \
	cr_expect(strstr((text), (words)) != NULL, "no \"%s\" in:\n%s", \
	    (words), (text))

/*
 * hxplay's words for records played: "WHAT N WORDS ... M skipped", with
 * N + M records in all (a busy machine may skip some to keep the pace).
 */
static void
played(const char *out, const char *what, const char *words,
    unsigned long long all)
{
	unsigned long long sent, skipped;
	const char *p, *q;

	p = strstr(out, what);
	cr_assert_not_null(p, "no \"%s\" in:\n%s", what, out);
	sent = strtoull(p + strlen(what), (char **)&q, 10);
	cr_assert(strncmp(q, " ", 1) == 0 &&
		strncmp(q + 1, words, strlen(words)) == 0,
	    "no \"%s N %s\" in:\n%s", what, words, out);
	q += 1 + strlen(words);
	skipped = strtoull(q, NULL, 10);
	cr_expect_eq(sent + skipped, all, "%s: %llu sent and %llu skipped",
	    what, sent, skipped);
}

/*
 * Record the fixture's 150 steps, a reset (its time back to 0) and 100
 * steps, with the journal, into rec.
 */
static void
record_reset(struct hx_server *s, hxd_recording *rec)
{
	unsigned taken;
	hxd_conn *c;

	hx_server_start(s, fixture_args);
	c = hx_connect_ok(s->unix_addr, "driver");
	HX_OK(c, hxd_record_start(c, 0, 0, HXD_RECORD_JOURNAL, rec));
	HX_OK(c, hxd_step(c, 150, &taken));
	HX_OK(c, hxd_reset(c, -1));
	HX_OK(c, hxd_step(c, 100, &taken));
	HX_OK(c, hxd_record_stop(c, rec));
	cr_assert_eq(rec->records, 250, "%llu records", rec->records);
	hxd_close(c);
}

/*
 * A recording with a reset in it is two segments: hxplay info lists
 * them with their records, steps and times, and export holds every
 * record with its segment (segment.npy, segment.csv, header.json).  The
 * old hxplay info showed the first and the last time only (0.002 and
 * 0.2, hiding the 0.3 s before the reset), and export did not tell the
 * segments apart.
 */
Test(journal, a_reset_begins_a_segment)
{
	struct hx_server s;
	struct hx_run r = { 0 };
	hxd_recording rec;
	char dir[4200], path[4300], json[4200];
	uint64_t *seg;
	FILE *fp;
	size_t i;

	record_reset(&s, &rec);
	hxplay(&r, "info", rec.path, NULL);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	HAS(r.out, "\nrecords: 250\n");
	HAS(r.out, "\nsegments: 2\n");
	HAS(r.out,
	    "\nsegment 1: 150 records, steps 1 to 150, time 0.002 to 0.3");
	HAS(r.out,
	    "\nsegment 2: 100 records, steps 151 to 250, time 0.002 to 0.2");

	snprintf(dir, sizeof(dir), "%s/export", s.dir);
	hxplay(&r, "export", rec.path, "--npy", dir, NULL);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	snprintf(path, sizeof(path), "%s/segment.npy", dir);
	seg = npy_u64(path, 250);
	for (i = 0; i < 250; i++)
		cr_assert_eq(seg[i], i < 150 ? 1 : 2,
		    "record %zu: segment %llu", i, (unsigned long long)seg[i]);
	free(seg);
	snprintf(path, sizeof(path), "%s/header.json", dir);
	fp = fopen(path, "r");
	cr_assert_not_null(fp);
	json[fread(json, 1, sizeof(json) - 1, fp)] = '\0';
	fclose(fp);
	HAS(json, "\"records\": 250,");
	HAS(json, "\"segments\": 2,");
	snprintf(dir, sizeof(dir), "%s/export-csv", s.dir);
	hxplay(&r, "export", rec.path, "--csv", dir, NULL);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	snprintf(path, sizeof(path), "%s/segment.csv", dir);
	fp = fopen(path, "r");
	cr_assert_not_null(fp, "no %s", path);
	for (i = 0; fgets(json, sizeof(json), fp) != NULL; i++) {
		if (i == 0)
			cr_expect_str_eq(json, "step,time,segment\n");
		else if (i == 150)
			cr_expect(strncmp(json, "150,0.3", 7) == 0 &&
				strcmp(json + strlen(json) - 3, ",1\n") == 0,
			    "%s", json);
		else if (i == 151)
			cr_expect_str_eq(json, "151,0.002,2\n");
	}
	fclose(fp);
	cr_expect_eq(i, 251, "%zu lines", i);
	hx_run_free(&r);
}

/*
 * hxplay plays each segment at its pace: a recording of 0.3 s, a reset
 * and 0.2 s takes at least 0.496 s, and --from and --to apply within
 * each segment, --segment chooses one.  The old hxplay played the
 * second segment as late, skipping all of it but its last record, in
 * about 0.3 s, and --to stopped at the end of the first segment's range.
 * The journal verifies across the reset.
 */
Test(journal, play_paces_each_segment)
{
	struct hx_server s, other;
	struct hx_run r = { 0 };
	hxd_recording rec;
	double t0, wall;

	hx_skip_if_valgrind();
	record_reset(&s, &rec);
	/* Both segments paced: at least 0.298 s and then 0.198 s. */
	t0 = hx_wall_now();
	hxplay(&r, "-s", s.unix_addr, rec.path, NULL);
	wall = hx_wall_now() - t0;
	cr_assert_eq(r.status, 0, "exit %d: %s%s", r.status, r.out, r.err);
	cr_expect(wall > 0.49 && wall < 20,
	    "2 segments of 0.3 s and 0.2 s played in %g s", wall);
	played(r.out, "segment 1: ", "records, time 0.002 to 0.3 s;", 150);
	played(r.out, "segment 2: ", "records, time 0.002 to 0.2 s;", 100);
	played(r.out, "played ", "records in 2 segments;", 250);
	hxplay(&r, "-s", s.unix_addr, "--speed", "4", "--from", "0.051", "--to",
	    "0.101", rec.path, NULL);
	cr_assert_eq(r.status, 0, "exit %d: %s%s", r.status, r.out, r.err);
	played(r.out, "played ", "records in 2 segments;", 50);
	hxplay(&r, "-s", s.unix_addr, "--speed", "4", "--segment", "2",
	    rec.path, NULL);
	cr_assert_eq(r.status, 0, "exit %d: %s%s", r.status, r.out, r.err);
	played(r.out, "played ", "records, time 0.002 to 0.2 s;", 100);
	hxplay(&r, "-s", s.unix_addr, "--segment", "3", rec.path, NULL);
	cr_expect_eq(r.status, 1, "exit %d: %s%s", r.status, r.out, r.err);
	HAS(r.err, "no records in segment 3");
	hxplay(&r, "-s", s.unix_addr, "--segment", "0", rec.path, NULL);
	cr_expect_eq(r.status, 2, "exit %d: %s%s", r.status, r.out, r.err);

	/* The journal replays across the reset. */
	hx_server_start(&other, scene_args);
	hxplay(&r, "-s", other.unix_addr, "--verify", rec.path, NULL);
	cr_expect_eq(r.status, 0, "exit %d: %s%s", r.status, r.out, r.err);
	HAS(r.out, "bit-identical: 250 steps");
	hx_run_free(&r);
}

/* What a server has that --verify must leave as it found it. */
struct found {
	hxd_status st;
	unsigned long long state;
	uint64_t model; /* the MJB's hash */
};

static void
found_get(hxd_conn *c, struct found *f)
{
	hxd_model_blob b;

	f->st = hx_status_ok(c);
	HX_OK(c, hxd_state_hash(c, &f->state, NULL, NULL));
	HX_OK(c, hxd_get_model(c, &b));
	f->model = rec_hash64(b.mjb, b.size, REC_HASH_SEED);
	hxd_model_blob_free(&b);
}

/* The server is as it was: model, file, parameters, state, running. */
static void
found_same(hxd_conn *c, const struct found *before, const char *what)
{
	struct found after;

	found_get(c, &after);
	cr_expect_str_eq(
	    after.st.model.name, before->st.model.name, "%s", what);
	cr_expect_str_eq(after.st.model.path, before->st.model.path,
	    "%s: the model's file", what);
	cr_expect_eq(after.model, before->model,
	    "%s: the model (its MJB) differs", what);
	cr_expect_eq(after.state, before->state,
	    "%s: the state hash %016llx, was %016llx", what, after.state,
	    before->state);
	cr_expect_eq(after.st.paused, before->st.paused,
	    "%s: paused %d, was %d", what, after.st.paused, before->st.paused);
}

/* The same model, from the same file, still running: the state moves. */
static void
found_same_model(hxd_conn *c, const struct found *before, const char *what)
{
	struct found after;

	found_get(c, &after);
	cr_expect_str_eq(
	    after.st.model.path, before->st.model.path, "%s", what);
	cr_expect_eq(after.model, before->model,
	    "%s: the model (its MJB) differs", what);
	cr_expect(!after.st.paused, "%s: paused", what);
	cr_expect_geq(after.st.steps, before->st.steps,
	    "%s: the step count went back from %llu to %llu", what,
	    before->st.steps, after.st.steps);
}

/* 100 steps of the fixture with changing controls, with the journal. */
static void
record_fixture_journal(struct hx_server *s, hxd_recording *rec)
{
	double u[2];
	hxd_control ctl = { 2, 0, u };
	unsigned taken;
	hxd_conn *c;
	int i;

	hx_server_start(s, fixture_args);
	c = hx_connect_ok(s->unix_addr, "driver");
	HX_OK(c, hxd_record_start(c, 0, 0, HXD_RECORD_JOURNAL, rec));
	for (i = 0; i < 100; i++) {
		u[0] = 0.01 * i;
		u[1] = 0.5 - 0.01 * i;
		HX_OK(c, hxd_set_control(c, &ctl));
		HX_OK(c, hxd_step(c, 1, &taken));
	}
	HX_OK(c, hxd_record_stop(c, rec));
	hxd_close(c);
}

/* hxplay --verify of the journal at path touches no recording server. */
static void
expect_recording_server_untouched(const char *path)
{
	static const char *const running[] = { "-m", "mpl_scene.xml", NULL };
	struct hx_run r = { 0 };
	struct found before;
	struct hx_server m;
	hxd_conn *c;

	hx_server_start(&m, running);
	c = hx_connect_ok(m.unix_addr, "owner");
	HX_OK(c, hxd_pause(c));
	HX_OK(c, hxd_record_start(c, 0, 0, 0, NULL));
	found_get(c, &before);
	hxplay(&r, "-s", m.unix_addr, "--verify", path, NULL);
	cr_expect_eq(r.status, 1, "exit %d: %s%s", r.status, r.out, r.err);
	HAS(r.err, "the server is recording");
	found_same(c, &before, "a server recording");
	cr_expect(hx_status_ok(c).recording.active, "the recording ended");
	hxd_close(c);
	hx_run_free(&r);
}

/*
 * hxplay --verify of the journal at path on a server without a model:
 * it cannot get back to none, and says so; --no-restore goes on.
 */
static void
expect_no_model_said(const char *path)
{
	static const char *const nomodel[] = { "--no-model", NULL };
	struct hx_run r = { 0 };
	struct hx_server n;

	hx_server_start(&n, nomodel);
	hxplay(&r, "-s", n.unix_addr, "--verify", path, NULL);
	cr_expect_eq(r.status, 1, "exit %d: %s%s", r.status, r.out, r.err);
	HAS(r.err, "the server has no model");
	hxplay(&r, "-s", n.unix_addr, "--verify", "--no-restore", path, NULL);
	cr_expect_eq(r.status, 0, "exit %d: %s%s", r.status, r.out, r.err);
	HAS(r.out, "the server keeps the recorded model");
	hx_run_free(&r);
}

/*
 * A model sent inline (by c, to the server at addr), running: hxplay
 * --verify of the journal at path sends it back as MJB, running.
 */
static void
expect_inline_sent_back(hxd_conn *c, const char *addr, const char *path)
{
	struct hx_run r = { 0 };
	struct found before;
	hxd_model_blob mjb;

	HX_OK(c, hxd_get_model(c, &mjb));
	HX_OK(c,
	    hxd_load_data(c, HXD_FORMAT_MJB, mjb.mjb, mjb.size, "sent", NULL));
	hxd_model_blob_free(&mjb);
	HX_OK(c, hxd_run(c));
	hx_sleep_ms(50);
	hxplay(&r, "-s", addr, "--verify", path, NULL);
	cr_assert_eq(r.status, 0, "exit %d: %s%s", r.status, r.out, r.err);
	HAS(r.out, "sent back as MJB");
	HAS(r.out, "running");
	before.st = hx_status_ok(c);
	cr_expect(!before.st.paused, "the server was running: paused now");
	cr_expect_str_eq(before.st.model.name, "fixture");
	cr_expect_str_eq(before.st.model.path, "");
	hx_run_free(&r);
}

/*
 * hxplay --verify --spawn of the journal at path: a haptixd of its own;
 * the server of c is not touched.
 */
static void
expect_spawn_touches_nothing(hxd_conn *c, const char *path)
{
	struct hx_run r = { 0 };
	struct found before;

	found_get(c, &before);
	hxplay(&r, "--verify", "--spawn", path, NULL);
	cr_assert_eq(r.status, 0, "exit %d: %s%s", r.status, r.out, r.err);
	HAS(r.out, "bit-identical: 100 steps");
	HAS(r.out, "verified on a haptixd of its own (--spawn)");
	before.st.paused = 0;
	found_same_model(c, &before, "--spawn");
	hx_run_free(&r);
}

/*
 * hxplay --verify on a shared server puts back what it found: the model
 * loaded from its file (so that a reload still works), a parameter a
 * client changed, the state, and whether it ran, also after a replay
 * that diverges; a model sent inline goes back as it was; with
 * --keep-model the state the replay stepped goes back too.  --spawn
 * verifies on a haptixd of hxplay's own and touches no server; a server
 * that is recording, or has no model, is refused before anything
 * changes (--no-restore leaves the recorded model there).  The old
 * hxplay left the recorded model loaded from its journal (`hxctl
 * reload`: "nothing to reload"), the server paused, and the state where
 * the replay ended, and had no --spawn.
 */
Test(journal, verify_leaves_the_server_as_it_found_it)
{
	struct hx_server a, b, k;
	char altered[4200];
	struct hx_run r = { 0 };
	struct found before;
	hxd_recording rec;
	unsigned taken;
	hxd_conn *c;

	record_fixture_journal(&a, &rec);

	/* A server paused mid-run, its model from a file and edited. */
	hx_server_start(&b, scene_args);
	c = hx_connect_ok(b.unix_addr, "owner");
	HX_OK(c, hxd_step(c, 30, &taken));
	scale_array(c, "dof_damping", 0, 3);
	HX_OK(c, hxd_step(c, 5, &taken));
	found_get(c, &before);
	cr_assert_str_neq(before.st.model.path, "");
	hxplay(&r, "-s", b.unix_addr, "--verify", rec.path, NULL);
	cr_assert_eq(r.status, 0, "exit %d: %s%s", r.status, r.out, r.err);
	HAS(r.out, "bit-identical");
	HAS(r.out,
	    "the server is as it was: model MPL table reloaded from "
	    "its file, its parameters and state bit for bit, paused");
	found_same(c, &before, "a model from a file");

	/* A replay that diverges puts it back too. */
	snprintf(altered, sizeof(altered), "%s/altered.hxr", a.dir);
	cr_assert_eq(copy_altered(rec.path, altered, "data.ctrl", 40, 1e-9), 0);
	hxplay(&r, "-s", b.unix_addr, "--verify", altered, NULL);
	cr_expect_eq(r.status, 1, "exit %d: %s%s", r.status, r.out, r.err);
	HAS(r.err, "diverges at step 41 ");
	HAS(r.out, "the server is as it was");
	found_same(c, &before, "after a divergence");
	HX_OK(c, hxd_reload(c, NULL));

	/* With --keep-model the replay steps the server's own model. */
	hx_server_start(&k, fixture_args);
	hxd_close(c);
	c = hx_connect_ok(k.unix_addr, "owner");
	HX_OK(c, hxd_step(c, 7, &taken));
	found_get(c, &before);
	hxplay(
	    &r, "-s", a.unix_addr, "--verify", "--keep-model", rec.path, NULL);
	cr_assert_eq(r.status, 0, "exit %d: %s%s", r.status, r.out, r.err);
	HAS(r.out, "the server is as it was: model fixture kept");
	found_same(c, &before, "--keep-model");

	expect_inline_sent_back(c, k.unix_addr, rec.path);

	expect_spawn_touches_nothing(c, rec.path);
	hxd_close(c);

	expect_recording_server_untouched(rec.path);

	expect_no_model_said(rec.path);
	hx_run_free(&r);
}

/*
 * Edits in a recording (docs/recording.md, a model change): the MPL
 * scene driven by changing controls, a box with a free joint added above
 * the table, then the cylinder removed, the recording going on across
 * both; the box's geom has the size given.
 */
static void
edit_add_box(hxd_conn *c, const char *size)
{
	static const char *const body[] = { "pos", "0.2 -0.2 0.9" };
	const char *const geom[] = { "type", "box", "size", size, "mass",
		"0.2" };
	const hxd_edit_op ops[] = {
		{ HXD_EDIT_ADD, "body", "dropped", "worldbody", "", body, 1 },
		{ HXD_EDIT_ADD, "freejoint", "dropped", "body", "dropped", NULL,
		    0 },
		{ HXD_EDIT_ADD, "geom", "dropped", "body", "dropped", geom, 3 },
	};

	HX_OK(c, hxd_edit_model(c, ops, 3, NULL, NULL));
}

/* n steps, the controls set before each. */
static void
drive_steps(hxd_conn *c, int n, int from)
{
	hxd_status st;
	double u[64];
	hxd_control ctl;
	unsigned taken;
	int i, k;

	HX_OK(c, hxd_status_get(c, &st));
	cr_assert(st.model.nu <= 64);
	ctl = (hxd_control){ st.model.nu, 0, u };
	for (i = from; i < from + n; i++) {
		for (k = 0; k < st.model.nu; k++)
			u[k] = 0.4 * sin(0.03 * i + k);
		HX_OK(c, hxd_set_control(c, &ctl));
		HX_OK(c, hxd_step(c, 1, &taken));
		cr_assert_eq(taken, 1);
	}
}

/*
 * Record 100 steps, the box added, 150 steps, the cylinder removed, 100
 * steps: with its journal, a record every step, begun 10 steps in.
 */
static void
record_edits(struct hx_server *s, hxd_recording *rec, struct end_state *e)
{
	const hxd_edit_op remove[] = {
		{ HXD_EDIT_REMOVE, "body", "cylinder", NULL, NULL, NULL, 0 },
	};
	unsigned taken;
	hxd_conn *c;

	hx_server_start(s, scene_args);
	c = hx_connect_ok(s->unix_addr, "driver");
	HX_OK(c, hxd_step(c, 10, &taken));
	HX_OK(c, hxd_record_start(c, 0, 0, HXD_RECORD_JOURNAL, rec));
	drive_steps(c, 100, 0);
	edit_add_box(c, "0.03 0.03 0.03");
	drive_steps(c, 150, 100);
	HX_OK(c, hxd_edit_model(c, remove, 1, NULL, NULL));
	drive_steps(c, 100, 250);
	/* The old daemon ended the recording at the edit: none runs. */
	HX_OK(c, hxd_record_stop(c, rec));
	cr_assert_eq(rec->records, 350, "%llu records", rec->records);
	if (e != NULL)
		end_state_get(c, e);
	hxd_close(c);
}

/*
 * A recording goes on across edits: hxplay info lists them (where, the
 * sizes, each operation and what went), the records after each have the
 * edited model's sizes and begin a segment, hxplay --verify replays the
 * run bit for bit on another server (loading each edited model where it
 * was made) and leaves it in the recorded end state, hxplay plays it to
 * a server of the first model and ends in the last record's state, and
 * export stops at an edit that changes an exported field's width.  The
 * old daemon ended the recording at the first edit (record_stop: no
 * recording runs).
 */
Test(journal, a_recording_goes_on_across_edits)
{
	struct hx_server a, b, p;
	struct end_state ea, eb;
	struct hx_run r = { 0 };
	hxd_recording rec;
	char dir[4200];
	hxd_array *q;
	hxd_conn *c;

	record_edits(&a, &rec, &ea);
	hxplay(&r, "info", rec.path, NULL);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	HAS(r.out, "\nrecords: 350\n");
	HAS(r.out, "\nsegments: 3\n");
	HAS(r.out, "\nsegment 2: 150 records, steps 111 to 260,");
	HAS(r.out, "\nedits: 2\n");
	HAS(r.out, "\nedit 1: step 110, time ");
	HAS(r.out,
	    "  add body \"dropped\" in worldbody \"\": pos=\"0.2 -0.2 "
	    "0.9\"\n");
	HAS(r.out,
	    "  add geom \"dropped\" in body \"dropped\": type=\"box\" "
	    "size=\"0.03 0.03 0.03\" mass=\"0.2\"\n");
	HAS(r.out, "\nedit 2: step 260, time ");
	HAS(r.out, "  remove body \"cylinder\"\n  removed: body cylinder\n");
	HAS(r.out, "\nend: complete\n");

	/* Verified on a server of another model, left as the replay ends. */
	hx_server_start(&b, fixture_args);
	hxplay(
	    &r, "-s", b.unix_addr, "--verify", "--no-restore", rec.path, NULL);
	cr_assert_eq(r.status, 0, "exit %d: %s%s", r.status, r.out, r.err);
	HAS(r.out, "bit-identical: 350 steps (10 to 360)");
	HAS(r.out, "across 2 edits");
	c = hx_connect_ok(b.unix_addr, "checker");
	end_state_get(c, &eb);
	end_state_same(&ea, &eb);
	end_state_free(&eb);
	hxd_close(c);

	/* Played to a server of the first model: it ends as recorded. */
	hx_server_start(&p, scene_args);
	hxplay(&r, "-s", p.unix_addr, "--speed", "20", rec.path, NULL);
	cr_assert_eq(r.status, 0, "exit %d: %s%s", r.status, r.out, r.err);
	HAS(r.out, "step 110: loading the edited model");
	HAS(r.out, "step 260: loading the edited model");
	c = hx_connect_ok(p.unix_addr, "checker");
	HX_OK(c, hxd_get_array(c, "qpos", &q));
	cr_assert_eq(q->rows, ea.qpos->rows);
	cr_expect(memcmp(q->values, ea.qpos->values,
		      (size_t)q->rows * sizeof(double)) == 0,
	    "the played qpos is not the last recorded");
	free(q);
	hxd_close(c);

	/* qpos changes width at the first edit; ctrl does not. */
	snprintf(dir, sizeof(dir), "%s/export", a.dir);
	hxplay(&r, "export", rec.path, "--npy", dir, NULL);
	cr_expect_eq(r.status, 1, "exit %d: %s", r.status, r.err);
	HAS(r.err,
	    "the model was edited at step 110: qpos has 57 values "
	    "where it had 50");
	HAS(r.err, "exported the 100 records before it");
	snprintf(dir, sizeof(dir), "%s/export-ctrl", a.dir);
	hxplay(&r, "export", rec.path, "--csv", dir, "--fields", "ctrl", NULL);
	cr_expect_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	end_state_free(&ea);
	hx_run_free(&r);
}

/* What copy_edit_replaced puts in place of the first edit's model. */
struct replacement {
	const void *mjb; /* NULL: the model as it was */
	size_t len;
	int damaged; /* a byte flipped */
	int edits;   /* model changes seen */
};

/* copy_recording's hook for copy_edit_replaced: the model changes. */
static int
replace_model(struct rec_writer *w, const struct rec_item *it, void *arg)
{
	struct replacement *x = arg;
	struct rec_header h;
	unsigned char *m;
	char *ops, *removed;
	int first;

	if (it->tag != REC_TAG_MODEL)
		return 0;
	first = x->edits++ == 0;
	h = *it->model;
	ops = strndup(it->operations, it->operations_len);
	removed = strndup(it->removed, it->removed_len);
	cr_assert(ops != NULL && removed != NULL);
	if (first && x->damaged) {
		cr_assert_not_null(m = malloc(it->len));
		memcpy(m, it->data, it->len);
		m[it->len / 2] ^= 1;
	} else if (first && x->mjb != NULL) {
		cr_assert_not_null(m = malloc(x->len));
		memcpy(m, x->mjb, x->len);
		h.model_hash = rec_hash64(m, x->len, REC_HASH_SEED);
	} else {
		cr_assert_not_null(m = malloc(it->len));
		memcpy(m, it->data, it->len);
	}
	cr_assert_eq(rec_writer_model(w, it->step, it->time, &h, ops, removed,
			 m, first && x->mjb != NULL ? x->len : it->len),
	    0, "%s", rec_writer_error(w));
	free(m);
	free(ops);
	free(removed);
	return 1;
}

/*
 * Copy a recording item by item into out, the first edit's model
 * replaced by mjb and its hash set to match (mjb NULL: as it was), or
 * when damaged, with a byte of it flipped.
 */
static void
copy_edit_replaced(
    const char *in, const char *out, const void *mjb, size_t len, int damaged)
{
	struct replacement x = { mjb, len, damaged, 0 };

	copy_recording(in, out, replace_model, &x);
	cr_assert_eq(x.edits, 2);
}

/*
 * The replay uses the edit in the file: the first edit's model damaged
 * (a byte flipped) is refused, and another edited model in its place (a
 * bigger box, of the same sizes) diverges after the edit.  A faithful
 * copy verifies, so that the copier is not what fails.
 */
Test(journal, an_altered_edit_fails_verify)
{
	struct hx_server a, o;
	struct hx_run r = { 0 };
	hxd_recording rec;
	hxd_model_blob other;
	char copy[4200];
	hxd_conn *c;
	unsigned long long step;
	const char *at;

	record_edits(&a, &rec, NULL);
	/* The same edit with a bigger box, on another server. */
	hx_server_start(&o, scene_args);
	c = hx_connect_ok(o.unix_addr, "editor");
	edit_add_box(c, "0.05 0.05 0.05");
	HX_OK(c, hxd_get_model(c, &other));
	hxd_close(c);

	snprintf(copy, sizeof(copy), "%s/damaged.hxr", a.dir);
	copy_edit_replaced(rec.path, copy, NULL, 0, 1);
	hxplay(&r, "-s", o.unix_addr, "--verify", copy, NULL);
	cr_expect_eq(r.status, 1, "exit %d: %s%s", r.status, r.out, r.err);
	HAS(r.err, "the model edited at step 110 does not match its hash");

	snprintf(copy, sizeof(copy), "%s/other.hxr", a.dir);
	copy_edit_replaced(rec.path, copy, other.mjb, other.size, 0);
	hxplay(&r, "-s", o.unix_addr, "--verify", copy, NULL);
	cr_expect_eq(r.status, 1, "exit %d: %s%s", r.status, r.out, r.err);
	at = strstr(r.err, "diverges at step ");
	cr_assert_not_null(at, "%s", r.err);
	step = strtoull(at + strlen("diverges at step "), NULL, 10);
	cr_expect(step > 110 && step <= 260, "diverges at step %llu", step);
	hxd_model_blob_free(&other);

	snprintf(copy, sizeof(copy), "%s/faithful.hxr", a.dir);
	copy_edit_replaced(rec.path, copy, NULL, 0, 0);
	hxplay(&r, "-s", o.unix_addr, "--verify", copy, NULL);
	cr_expect_eq(r.status, 0, "exit %d: %s%s", r.status, r.out, r.err);
	hx_run_free(&r);
}

/*
 * A write into the model after the recording starts and before its first
 * step (here dof_damping, tripled) is journaled: the model entry holds
 * the model as it was at the start.  The old journal took the model's
 * arrays at the first step as what the model entry held, and its replay
 * diverged at the first step.  The same holds
 * after an edit, whose model change starts the journal again.
 */
Test(journal, a_model_write_before_the_first_step_is_journaled)
{
	struct hx_server s;
	struct hx_run r = { 0 };
	hxd_recording rec;
	double u[2] = { 0.5, -0.5 };
	hxd_control ctl = { 2, 0, u };
	unsigned taken;
	hxd_conn *c;

	hx_server_start(&s, fixture_args);
	c = hx_connect_ok(s.unix_addr, "driver");
	HX_OK(c, hxd_record_start(c, 0, 0, HXD_RECORD_JOURNAL, &rec));
	scale_array(c, "dof_damping", 0, 3);
	HX_OK(c, hxd_set_control(c, &ctl));
	HX_OK(c, hxd_step(c, 50, &taken));
	HX_OK(c, hxd_record_stop(c, &rec));
	hxplay(&r, "-s", s.unix_addr, "--verify", rec.path, NULL);
	cr_expect_eq(r.status, 0, "exit %d: %s%s", r.status, r.out, r.err);
	hx_run_free(&r);
	hxd_close(c);
}

/*
 * A recording written by the daemon before edits were recorded (by the
 * commit before them: the fixture, 20 steps, a reset, 20 steps, with
 * its journal) still reads, plays and verifies: the format kept its
 * version, and a file without a model change is what it was.
 */
Test(journal, a_recording_of_the_older_daemon_still_plays)
{
	struct hx_server s;
	struct hx_run r = { 0 };
	const char *path = hx_test_model("fixture_v1.hxr");

	hxplay(&r, "info", path, NULL);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	HAS(r.out, "\nrecords: 20\n");
	HAS(r.out, "\nsegments: 2\n");
	HAS(r.out, "\nedits: 0\n");
	HAS(r.out, "\nend: complete\n");
	hx_server_start(&s, fixture_args);
	hxplay(&r, "-s", s.unix_addr, "--verify", path, NULL);
	cr_expect_eq(r.status, 0, "exit %d: %s%s", r.status, r.out, r.err);
	HAS(r.out, "bit-identical: 40 steps (0 to 40)");
	hxplay(&r, "-s", s.unix_addr, "--speed", "10", path, NULL);
	cr_expect_eq(r.status, 0, "exit %d: %s%s", r.status, r.out, r.err);
	hx_run_free(&r);
}

/*
 * An attach in a recording: hxplay info gives it in full, its source
 * and prefix with it, and --verify replays the run across it bit for
 * bit.
 */
Test(journal, a_recording_names_an_attach_in_full)
{
	static const char *const left[] = { "file", "mpl_hand.xml", "prefix",
		"left_" };
	const hxd_edit_op attach[] = {
		{ HXD_EDIT_ATTACH, "body", "forearm", "worldbody", "", left,
		    2 },
		{ HXD_EDIT_SET, "body", "left_forearm", NULL, NULL,
		    (const char *const[]){ "pos", "0 0.9 1.2" }, 1 },
	};
	struct hx_server a, b;
	struct hx_run r = { 0 };
	hxd_recording rec;
	hxd_conn *c;

	hx_server_start(&a, scene_args);
	c = hx_connect_ok(a.unix_addr, "driver");
	HX_OK(c, hxd_record_start(c, 0, 0, HXD_RECORD_JOURNAL, &rec));
	drive_steps(c, 20, 0);
	HX_OK(c, hxd_edit_model(c, attach, 2, NULL, NULL));
	drive_steps(c, 30, 20);
	HX_OK(c, hxd_record_stop(c, &rec));
	hxd_close(c);
	hxplay(&r, "info", rec.path, NULL);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	HAS(r.out,
	    "  attach body \"forearm\" in worldbody \"\": "
	    "file=\"mpl_hand.xml\" prefix=\"left_\"\n");
	hx_server_start(&b, fixture_args);
	hxplay(
	    &r, "-s", b.unix_addr, "--verify", "--no-restore", rec.path, NULL);
	cr_assert_eq(r.status, 0, "exit %d: %s%s", r.status, r.out, r.err);
	HAS(r.out, "across 1 edit");
	hx_run_free(&r);
	hx_server_stop(&b);
	hx_server_stop(&a);
}

/*
 * A joint held on a path replays exactly (issue 18 item 5): the hold's
 * edit is a model change in the recording, each new target a write into
 * eq_data that the journal keeps, the release another model change.
 * The replay's set_array of eq_data runs mj_forward, which in MuJoCo
 * 2.2.2 normalizes the free joints' quaternions in qpos in place; the
 * hold wrote eq_data without it, so the replay diverged a few steps
 * after some of the target changes (here, at step 16 of the intervals
 * below) until a set_array's forward kept qpos as it was.
 */
Test(journal, a_held_path_replays_exactly)
{
	static const char *const joint[] = { "index_MCP" };
	static const unsigned every[] = { 5, 5, 5, 7, 8, 9, 10, 7 };
	struct hx_server s;
	struct hx_run r = { 0 };
	hxd_recording rec;
	unsigned taken;
	hxd_conn *c;
	double v;
	size_t k;

	hx_server_start(&s, scene_args);
	c = hx_connect_ok(s.unix_addr, "holder");
	HX_OK(c, hxd_record_start(c, 0, 0, HXD_RECORD_JOURNAL, &rec));
	HX_OK(c, hxd_step(c, 5, &taken));
	for (k = 0; k < sizeof(every) / sizeof(every[0]); k++) {
		v = 0.2 + 0.1 * (double)k;
		HX_OK(c, hxd_hold_joints(c, joint, &v, 1, NULL));
		HX_OK(c, hxd_step(c, every[k], &taken));
	}
	HX_OK(c, hxd_release_joints(c, NULL, 0, NULL));
	HX_OK(c, hxd_step(c, 10, &taken));
	HX_OK(c, hxd_record_stop(c, &rec));
	hxplay(&r, "-s", s.unix_addr, "--verify", rec.path, NULL);
	cr_expect_eq(r.status, 0, "exit %d: %s%s", r.status, r.out, r.err);
	cr_expect_not_null(strstr(r.out, "across 2 edits"), "%s", r.out);
	hx_run_free(&r);
	hxd_close(c);
}

/*
 * HAPTIX's own log (.mjl), written here as its manual describes it,
 * plays to a paused server: the server ends in its last record's qpos,
 * qvel, ctrl and mocap pose, as floats widened.  The model has an
 * activation, which a .mjl does not record: hxplay sets what it has.
 */
static const char mjl_model
    [] = "<mujoco model=\"arm\">"
	 "<worldbody>"
	 "<body name=\"a\"><joint name=\"h1\" type=\"hinge\"/>"
	 "<geom type=\"capsule\" size=\".05\" fromto=\"0 0 0 0 0 .5\"/>"
	 "<body name=\"b\" pos=\"0 0 .5\"><joint name=\"h2\" type=\"hinge\"/>"
	 "<geom type=\"sphere\" size=\".05\"/></body></body>"
	 "<body name=\"m\" mocap=\"true\" pos=\"1 0 0\">"
	 "<geom type=\"box\" size=\".1 .1 .1\" contype=\"0\" conaffinity=\"0\"/>"
	 "</body></worldbody>"
	 "<actuator><position joint=\"h2\" kp=\"5\"/>"
	 "<general joint=\"h1\" dyntype=\"filter\" dynprm=\".1\"/></actuator>"
	 "<sensor><jointpos joint=\"h1\"/></sensor></mujoco>";

static void
le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

Test(journal, a_haptix_mjl_plays_to_a_paused_server)
{
	/* nq nv nu nmocap nsensordata, then the name's length. */
	static const uint32_t desc[6] = { 2, 2, 2, 1, 1, 3 };
	enum { NREC = 30, RECLEN = 1 + 2 + 2 + 2 + 7 + 1 };
	float rec[NREC][RECLEN];
	uint8_t file[24 + 3 + sizeof(rec)], *p;
	struct hx_server s;
	struct hx_run r = { 0 };
	hxd_state *st;
	hxd_control *u;
	hxd_mocap *m;
	hxd_model model;
	char path[4096];
	uint32_t bits;
	hxd_conn *c;
	FILE *fp;
	int k, j;

	for (k = 0; k < NREC; k++) {
		rec[k][0] = (float)(0.01 * (k < 20 ? k : k - 20));
		for (j = 1; j < RECLEN; j++)
			rec[k][j] = (float)(0.1 * j + 0.01 * k) / 3.0f;
		/* mocap_quat, elements 10 to 13: a unit quaternion. */
		rec[k][10] = 1, rec[k][11] = rec[k][12] = rec[k][13] = 0;
	}
	for (j = 0; j < 6; j++)
		le32(file + 4 * j, desc[j]);
	memcpy(file + 24, "arm", 3);
	p = file + 27;
	for (k = 0; k < NREC; k++)
		for (j = 0; j < RECLEN; j++, p += 4) {
			memcpy(&bits, &rec[k][j], 4);
			le32(p, bits);
		}
	hx_server_start(&s, fixture_args);
	snprintf(path, sizeof(path), "%s/arm_1.mjl", s.dir);
	cr_assert_not_null(fp = fopen(path, "wb"));
	cr_assert_eq(fwrite(file, 1, sizeof(file), fp), sizeof(file));
	cr_assert_eq(fclose(fp), 0);

	hxplay(&r, "info", path, NULL);
	cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
	HAS(r.out, "\nformat: mjl (a HAPTIX log)\n");
	HAS(r.out, "\nmodel: arm\n");
	HAS(r.out, "\nrecords: 30\n");
	HAS(r.out, "\nsegments: 2\n");
	HAS(r.out, "\nend: complete\n");

	c = hx_connect_ok(s.unix_addr, "loader");
	HX_OK(c,
	    hxd_load_data(c, HXD_FORMAT_MJCF, mjl_model, strlen(mjl_model),
		"arm.xml", &model));
	cr_assert_eq(model.na, 1);
	HX_OK(c, hxd_run(c));
	hxplay(&r, "-s", s.unix_addr, "--speed", "20", path, NULL);
	cr_assert_eq(r.status, 0, "exit %d: %s%s", r.status, r.out, r.err);
	HAS(r.out, "pausing the server");
	HX_OK(c, hxd_get_state(c, &st));
	HX_OK(c, hxd_get_control(c, &u));
	HX_OK(c, hxd_get_mocap(c, &m));
	for (j = 0; j < 2; j++) {
		cr_expect_eq(st->qpos[j], (double)rec[NREC - 1][1 + j]);
		cr_expect_eq(st->qvel[j], (double)rec[NREC - 1][3 + j]);
		cr_expect_eq(u->ctrl[j], (double)rec[NREC - 1][5 + j]);
	}
	for (j = 0; j < 3; j++)
		cr_expect_eq(m->pos[j], (double)rec[NREC - 1][7 + j]);
	free(st);
	free(u);
	free(m);
	hxplay(&r, "-s", s.unix_addr, "--verify", path, NULL);
	cr_expect_eq(r.status, 1, "exit %d: %s%s", r.status, r.out, r.err);
	HAS(r.err, "a HAPTIX log has no journal to verify");
	hx_run_free(&r);
	hxd_close(c);
}
