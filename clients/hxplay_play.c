/*
 * hxplay FILE: play a recording's states to a server, at the recorded
 * pace times --speed, as HAPTIX's playlog did: the server is paused and
 * its state set from each record in turn, so that viewers (hxview) show
 * the recording.  A record whose time has passed while an earlier one
 * was sent is skipped: the pace is kept, never made up for.  A reset in
 * the recording sends time back: the records from there are a segment
 * of their own (recording.h), paced from its first record, and the last
 * record of each segment in the range is always sent, so the server
 * shows where each ends and ends where the recording does.  An edit in
 * the recording loads the edited model (its MJB is in the file) where
 * it was made, and begins a segment too; --loop starts the next pass
 * by loading the first model from the journal.
 */
#include "config.h"

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "haptixd.h"
#include "hxplay_common.h"
#include "program.h"
#include "recording.h"

/* A record due this long ago or more is skipped if another is due. */
#define PLAY_LATE 0.010

static volatile sig_atomic_t play_stop;

struct play {
	const struct play_opts *o;
	hxd_conn *c;
	const struct rec_header *h;
	int server_na; /* the server model's na: a .mjl records no act */
	uint64_t sent, skipped;
	uint64_t segments; /* segments with a record sent */

	/* The segment being played: what it sent, its times, its pace. */
	uint64_t seg, seg_sent, seg_skipped;
	double first, last; /* simulated times sent */
	double start, t0;   /* wall time and simulated time of its first */

	/* The last record skipped, kept in case it ends the range. */
	struct rec_item held;
	struct rec_header held_model; /* its sizes */
	int holding;

	uint64_t edits;  /* edited models loaded, over every pass */
	int first_model; /* the journal holds the first model (--loop) */
	double *room;
	size_t nroom;
};

static void
play_on_signal(int sig)
{
	(void)sig;
	play_stop = 1;
}

static void
play_sleep_until(double t)
{
	double dt;
	struct timespec ts;

	while (!play_stop && (dt = t - program_now()) > 0) {
		ts.tv_sec = (time_t)dt;
		ts.tv_nsec = (long)((dt - (double)ts.tv_sec) * 1e9);
		nanosleep(&ts, NULL);
	}
}

static int
play_server(struct play *p, const char *what)
{
	program_warn("%s: %s", what, hxd_error(p->c));
	return PLAY_FAIL;
}

/* The server's model must have the recording's sizes. */
static int
play_check_model(struct play *p)
{
	hxd_status st;
	const hxd_model *m = &st.model;
	const struct rec_header *h = p->h;

	if (hxd_status_get(p->c, &st) != HXD_OK)
		return play_server(p, "status");
	if ((uint32_t)m->nq != h->nq || (uint32_t)m->nv != h->nv ||
	    ((h->fields & REC_FIELD_BIT(REC_ACT)) &&
		(uint32_t)m->na != h->na) ||
	    (uint32_t)m->nu != h->nu || (uint32_t)m->nmocap != h->nmocap) {
		program_warn("%s: recorded with %s (nq %u nv %u na %u nu %u "
			     "nmocap %u); the server has %s (nq %d nv %d na %d "
			     "nu %d nmocap %d): load the recorded model",
		    p->o->file, h->name, h->nq, h->nv, h->na, h->nu, h->nmocap,
		    m->name, m->nq, m->nv, m->na, m->nu, m->nmocap);
		return PLAY_FAIL;
	}
	p->server_na = m->na;
	if (!st.paused && !p->o->quiet)
		printf("pausing the server to play %s\n", p->o->file);
	if (hxd_lease(p->c, HXD_LEASE_TAKE, NULL) != HXD_OK)
		return play_server(p, "taking the control lease");
	if (hxd_pause(p->c) != HXD_OK)
		return play_server(p, "pausing");
	return PLAY_OK;
}

/* Set the server's state from one record: what it holds of it. */
static int
play_send(struct play *p, const struct rec_item *it)
{
	const struct rec_header *h = it->model;
	double *const *f = (double *const *)it->field;
	hxd_state s = { (int)h->nq, (int)h->nv, (int)h->na, it->time,
		f[REC_QPOS], f[REC_QVEL], f[REC_ACT] };
	hxd_mocap m = { (int)h->nmocap, it->time, f[REC_MOCAP_POS],
		f[REC_MOCAP_QUAT] };
	hxd_control u = { (int)h->nu, it->time, f[REC_CTRL] };
	int rc = HXD_OK;

	if (f[REC_CTRL] != NULL && h->nu > 0)
		rc = hxd_set_control(p->c, &u);
	if (rc == HXD_OK && f[REC_MOCAP_POS] != NULL &&
	    f[REC_MOCAP_QUAT] != NULL && h->nmocap > 0)
		rc = hxd_set_mocap(p->c, &m);
	if (rc == HXD_OK && f[REC_QPOS] != NULL && f[REC_QVEL] != NULL &&
	    (f[REC_ACT] != NULL || p->server_na == 0))
		rc = hxd_set_state(p->c, &s);
	else {
		/* Only part of the state was recorded: set that part. */
		if (rc == HXD_OK && f[REC_QPOS] != NULL)
			rc = hxd_set_array(p->c, "qpos", 0, s.nq, s.qpos);
		if (rc == HXD_OK && f[REC_QVEL] != NULL)
			rc = hxd_set_array(p->c, "qvel", 0, s.nv, s.qvel);
		if (rc == HXD_OK && f[REC_ACT] != NULL && h->na > 0)
			rc = hxd_set_array(p->c, "act", 0, s.na, s.act);
	}
	if (rc != HXD_OK)
		return play_server(p, "setting the state");
	p->sent++;
	if (p->seg_sent++ == 0) {
		p->first = it->time;
		p->segments++;
	}
	p->last = it->time;
	return PLAY_OK;
}

/* Keep a copy of a record skipped, in case it is the last. */
static int
play_hold(struct play *p, const struct rec_item *it)
{
	size_t f, n, need = 0;
	double *at;

	for (f = 0; f < REC_NFIELD; f++)
		need += rec_field_size(it->model, (enum rec_field)f);
	if (need > p->nroom) {
		free(p->room);
		if ((p->room = malloc(need * sizeof(double))) == NULL) {
			program_warn("out of memory");
			return PLAY_FAIL;
		}
		p->nroom = need;
	}
	p->held = *it;
	p->held_model = *it->model;
	p->held.model = &p->held_model;
	at = p->room;
	for (f = 0; f < REC_NFIELD; f++) {
		if (it->field[f] == NULL)
			continue;
		n = rec_field_size(it->model, (enum rec_field)f);
		memcpy(at, it->field[f], n * sizeof(double));
		p->held.field[f] = at;
		at += n;
	}
	p->holding = 1;
	p->skipped++;
	p->seg_skipped++;
	return PLAY_OK;
}

/*
 * The end of a segment: send the last record of its range if it was
 * skipped, and say what the segment played when the file has several.
 */
static int
play_segment_end(struct play *p, int last)
{
	int rc;

	if (p->holding && !play_stop) {
		p->holding = 0;
		p->skipped--;
		p->seg_skipped--;
		if ((rc = play_send(p, &p->held)) != PLAY_OK)
			return rc;
	}
	if (p->seg_sent > 0 && !p->o->quiet && (!last || p->segments > 1))
		printf("%s: segment %llu: %llu records, time %.6g to %.6g s; "
		       "%llu skipped\n",
		    p->o->file, (unsigned long long)p->seg,
		    (unsigned long long)p->seg_sent, p->first, p->last,
		    (unsigned long long)p->seg_skipped);
	p->seg_sent = p->seg_skipped = 0;
	return PLAY_OK;
}

/*
 * A model of the recording, as MJB (an edit's, or the journal's first
 * for a pass of --loop after an edit): loaded into the server, which
 * stays paused.
 */
static int
play_load(struct play *p, const struct rec_item *it, const char *what)
{
	char why[128];

	if (rec_hash64(it->data, it->len, REC_HASH_SEED) !=
	    it->model->model_hash) {
		program_warn("%s: %s at step %llu does not match its hash: the "
			     "file is damaged",
		    p->o->file, what, (unsigned long long)it->step);
		return PLAY_FAIL;
	}
	if (!p->o->quiet)
		printf("%s: step %llu: loading %s\n", p->o->file,
		    (unsigned long long)it->step, what);
	snprintf(why, sizeof(why), "loading %s", what);
	if (hxd_load_data(p->c, HXD_FORMAT_MJB, it->data, it->len, p->h->name,
		NULL) != HXD_OK)
		return play_server(p, why);
	p->server_na = (int)it->model->na;
	return PLAY_OK;
}

/*
 * An item other than a state record: an edit loads the edited model,
 * after the segment before it ends; the journal's model, on a pass of
 * --loop after an edit, loads the first model again.
 */
static int
play_other(struct play *p, const struct rec_item *it, int pass)
{
	struct rec_item first;
	int rc;

	if (it->tag == REC_TAG_MODEL) {
		if (p->seg != 0 && (rc = play_segment_end(p, 0)) != PLAY_OK)
			return rc;
		if ((rc = play_load(p, it, "the edited model")) != PLAY_OK)
			return rc;
		p->edits++;
		return PLAY_OK;
	}
	if (it->tag != REC_TAG_JOURNAL || it->kind != REC_JOURNAL_MODEL)
		return PLAY_OK;
	p->first_model = 1;
	if (pass == 1 || p->edits == 0)
		return PLAY_OK;
	first = *it;
	first.model = p->h;
	return play_load(p, &first, "the recording's first model");
}

/*
 * One pass through the file.  --from and --to choose times within each
 * segment, --segment one segment; the pace starts afresh at each.
 */
static int
play_pass(struct play *p, struct rec_reader *r, int pass)
{
	const struct play_opts *o = p->o;
	struct rec_item it;
	double due;
	int n, rc;

	p->seg = 0;
	p->segments = 0;
	while (!play_stop && (n = rec_reader_next(r, &it)) == 1) {
		if (it.tag != REC_TAG_STATE) {
			if ((rc = play_other(p, &it, pass)) != PLAY_OK)
				return rc;
			continue;
		}
		if (it.segment != p->seg) {
			if (p->seg != 0 &&
			    (rc = play_segment_end(p, 0)) != PLAY_OK)
				return rc;
			if (o->segment != 0 && it.segment > o->segment)
				break;
			p->seg = it.segment;
			p->start = -1;
		}
		if ((o->segment != 0 && it.segment != o->segment) ||
		    it.time < o->from || (o->to >= 0 && it.time > o->to))
			continue;
		if (p->start < 0) {
			p->start = program_now();
			p->t0 = it.time;
		}
		due = p->start + (it.time - p->t0) / o->speed;
		if (program_now() - due > PLAY_LATE) {
			if ((rc = play_hold(p, &it)) != PLAY_OK)
				return rc;
			continue;
		}
		p->holding = 0;
		play_sleep_until(due);
		if (!play_stop && (rc = play_send(p, &it)) != PLAY_OK)
			return rc;
	}
	if (n < 0 && !play_stop) {
		program_warn("%s", rec_reader_error(r));
		return PLAY_FAIL;
	}
	return play_segment_end(p, 1);
}

static int
play_run(struct play *p)
{
	struct rec_reader *r;
	char err[512];
	int rc, passes = 0;

	do {
		if ((r = rec_reader_open(p->o->file, err, sizeof(err))) ==
		    NULL) {
			program_warn("%s", err);
			return PLAY_FAIL;
		}
		p->h = rec_reader_header(r);
		if (passes++ == 0 && (rc = play_check_model(p)) != PLAY_OK) {
			rec_reader_close(r);
			return rc;
		}
		rc = play_pass(p, r, passes);
		rec_reader_close(r);
		if (rc == PLAY_OK && p->o->loop && p->edits > 0 &&
		    !p->first_model) {
			program_warn(
			    "%s: --loop stops: the server has the edited "
			    "model, and without a journal the recording "
			    "does not hold the first",
			    p->o->file);
			break;
		}
	} while (rc == PLAY_OK && p->o->loop && !play_stop && p->sent > 0);
	return rc;
}

int
play_play(const struct play_opts *o)
{
	static const int sigs[] = { SIGINT, SIGTERM, 0 };
	struct play p = { .o = o };
	int rc;

	program_signals(play_on_signal, sigs);
	if ((p.c = hxd_connect(o->server, "hxplay")) == NULL ||
	    !hxd_connected(p.c)) {
		program_warn("cannot connect to %s: %s",
		    o->server != NULL ? o->server : "the server",
		    p.c != NULL ? hxd_error(p.c) : "out of memory");
		hxd_close(p.c);
		return PLAY_FAIL;
	}
	rc = play_run(&p);
	if (rc == PLAY_OK && !o->quiet && p.segments > 1)
		printf("%s: played %llu records in %llu segments; %llu "
		       "skipped to keep the pace\n",
		    o->file, (unsigned long long)p.sent,
		    (unsigned long long)p.segments,
		    (unsigned long long)p.skipped);
	else if (rc == PLAY_OK && !o->quiet && p.sent > 0)
		printf("%s: played %llu records, time %.6g to %.6g s; %llu "
		       "skipped to keep the pace\n",
		    o->file, (unsigned long long)p.sent, p.first, p.last,
		    (unsigned long long)p.skipped);
	if (rc == PLAY_OK && p.sent == 0) {
		if (o->segment != 0)
			program_warn(
			    "%s: no records in segment %llu between %g "
			    "and %g s (hxplay info lists the segments)",
			    o->file, (unsigned long long)o->segment, o->from,
			    o->to);
		else
			program_warn("%s: no records between %g and %g s",
			    o->file, o->from, o->to);
		rc = PLAY_FAIL;
	}
	hxd_close(p.c);
	free(p.room);
	return rc;
}
