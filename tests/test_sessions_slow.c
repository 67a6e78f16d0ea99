/*
 * Sessions against a real haptixd: a slow reader getting the held events
 * then the newest frame, and sixteen clients at once (readers,
 * subscribers, one that never reads, a lock-step writer and the API
 * tick) without anyone stalling or the physics changing.
 */
#include "config.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <criterion/logging.h>

#include "check.h"
#include "harness.h"
#include "haptixd.h"
#include "rawclient.h"
#include "sessions_check.h"

TestSuite(sessions, .timeout = 90, .fini = hx_server_cleanup);

/* The VmRSS of a process, in KiB. */
static long
rss_kib(pid_t pid)
{
	char path[64], line[256];
	long kib = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	cr_assert_not_null(f, "%s", path);
	while (fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, "VmRSS: %ld", &kib) == 1)
			break;
	}
	fclose(f);
	cr_assert_gt(kib, 0, "no VmRSS in %s", path);
	return kib;
}

/* What a slow reader read once it read again. */
struct slow_tally {
	int answered;             /* answers to its Subscribe */
	int frames, frames_after; /* frames; those after the messages */
	int phase;                /* 0 before the messages, 1 in, 2 after */
	int first_msg, next_msg;  /* the first message's number; the next's */
	unsigned long long last_step; /* the step of the last frame */
	unsigned long long dropped;   /* the last frame's count of drops */
};

/*
 * Read everything fd has for a slow reader into t: the answer, frames,
 * the messages held, then one frame owed of step final.
 */
static void
slow_read_all(int fd, unsigned long long final, struct slow_tally *t)
{
	Haptix__V1__Response *resp;
	Haptix__V1__StreamFrame *f;
	int k;

	while ((resp = raw_recv(fd, 1000)) != NULL) {
		if (resp->id == 2) {
			cr_expect_eq(
			    resp->result, HAPTIX__V1__RESULT__RESULT_OK);
			t->answered++;
			haptix__v1__response__free_unpacked(resp, NULL);
			continue;
		}
		cr_assert_eq(resp->id, 0);
		cr_assert_eq(
		    resp->payload_case, HAPTIX__V1__RESPONSE__PAYLOAD_EVENT);
		switch (resp->event->kind_case) {
		case HAPTIX__V1__EVENT__KIND_FRAME:
			f = resp->event->frame;
			cr_expect(t->frames == 0 || f->step > t->last_step,
			    "frame of step %llu after %llu",
			    (unsigned long long)f->step, t->last_step);
			cr_expect_eq(f->n_qpos, NQ);
			t->last_step = f->step;
			t->dropped = f->dropped;
			t->frames++;
			if (t->phase == 1)
				t->phase = 2;
			if (t->phase == 2) {
				t->frames_after++;
				cr_expect_eq(f->step, final,
				    "the owed frame is of the state now");
			}
			break;
		case HAPTIX__V1__EVENT__KIND_MESSAGE:
			cr_assert_eq(
			    sscanf(resp->event->message->text, "m %d", &k), 1,
			    "%s", resp->event->message->text);
			cr_expect_neq(
			    t->phase, 2, "message %d after the owed frame", k);
			if (t->phase == 0) {
				t->phase = 1;
				t->first_msg = t->next_msg = k;
			}
			cr_expect_eq(k, t->next_msg, "message %d, expected %d",
			    k, t->next_msg);
			t->next_msg = k + 1;
			break;
		default:
			cr_assert_fail(
			    "an event of kind %d", (int)resp->event->kind_case);
		}
		haptix__v1__response__free_unpacked(resp, NULL);
	}
}

/*
 * Flood a slow reader of the daemon driver is connected to: far more
 * frames than any buffer holds, and too many events.  Return the steps
 * taken, and its entry in the list of clients in slow.
 */
static unsigned long long
slow_flood(hxd_conn *driver, hxd_client *slow)
{
	unsigned long long final;
	const hxd_client *e;
	hxd_client *list;
	unsigned taken;
	char text[32];
	int i, n;

	for (i = 0; i < 40; i++)
		HX_OK(driver, hxd_step(driver, 100, &taken));
	for (i = 0; i < STREAM_HELD + 44; i++) {
		snprintf(text, sizeof(text), "m %d", i);
		HX_OK(driver, hxd_message(driver, text));
	}
	final = hx_status_ok(driver).steps;
	cr_assert_eq(final, 4000);
	list = hx_clients_ok(driver, &n, NULL);
	e = client_named(list, n, "slow");
	cr_assert_not_null(e);
	*slow = *e;
	free(list);
	cr_log_info("slow reader: %llu frames sent, %llu dropped, %llu events "
		    "dropped, %llu bytes queued",
	    slow->frames_sent, slow->frames_dropped, slow->events_dropped,
	    slow->queued);
	cr_expect_gt(slow->frames_dropped, 0);
	cr_expect_leq(slow->frames_sent + slow->frames_dropped, 4001,
	    "one frame per step at most");
	cr_expect_eq(slow->events_dropped, 44,
	    "%d events held, the oldest 44 dropped", STREAM_HELD);
	cr_expect_lt(slow->queued, (1u << 20) + (64u << 10));
	return final;
}

/* Caught up, the slow reader on fd gets frames as before, and loses no more. */
static void
slow_caught_up(
    int fd, hxd_conn *driver, unsigned long long final, const hxd_client *slow)
{
	Haptix__V1__Response *resp;
	const hxd_client *e;
	hxd_client *list;
	unsigned taken;
	int n;

	/* And frames flow as before. */
	HX_OK(driver, hxd_step(driver, 1, &taken));
	resp = raw_recv(fd, 2000);
	cr_assert_not_null(resp, "no frame after catching up");
	cr_assert_eq(resp->payload_case, HAPTIX__V1__RESPONSE__PAYLOAD_EVENT);
	cr_assert_eq(resp->event->kind_case, HAPTIX__V1__EVENT__KIND_FRAME);
	cr_expect_eq(resp->event->frame->step, final + 1);
	haptix__v1__response__free_unpacked(resp, NULL);
	list = hx_clients_ok(driver, &n, NULL);
	e = client_named(list, n, "slow");
	cr_assert_not_null(e);
	cr_expect_eq(e->frames_dropped, slow->frames_dropped,
	    "nothing more dropped once it reads");
	cr_expect_eq(e->events_dropped, 44);
	free(list);
}

/*
 * A reader that stops reading: once it reads again, it gets what was
 * queued, then the newest events held for it (the oldest dropped), then
 * one frame of the state as it is then.  Over the Unix socket only:
 * TCP's kernel buffers grow with the flood and would absorb an unknown
 * part of it.
 */
Test(sessions, a_slow_reader_gets_held_events_then_the_newest_frame)
{
	const char *args[] = { "-m", "fixture.xml", "--paused", NULL };
	Haptix__V1__StreamField all[HXD_FIELD_MAX];
	struct hx_server srv;
	hxd_conn *driver;
	struct slow_tally t = { .first_msg = -1, .next_msg = -1 };
	unsigned long long final;
	int fd, i, n, k = 0;
	const hxd_client *e;
	hxd_client *list, slow;

	hx_server_start(&srv, args);
	driver = hx_connect_ok(srv.unix_addr, "driver");
	for (i = 0; i < HXD_FIELD_MAX; i++)
		all[i] = (Haptix__V1__StreamField)(i + 1);
	fd = raw_connect(srv.unix_addr);
	cr_assert_eq(raw_hello(fd, "slow"), HAPTIX__V1__RESULT__RESULT_OK);
	raw_subscribe(fd, all, HXD_FIELD_MAX, 1, 0, 1, 2);
	for (i = 0; i < 100; i++) {
		list = hx_clients_ok(driver, &n, NULL);
		e = client_named(list, n, "slow");
		k = e != NULL && e->subscriptions == 1;
		free(list);
		if (k)
			break;
		hx_sleep_ms(10);
	}
	cr_assert(k, "the subscription was not made");

	final = slow_flood(driver, &slow);

	/* Now read it all. */
	slow_read_all(fd, final, &t);
	cr_expect_eq(t.answered, 1, "the subscription's answer came first");
	cr_expect_eq(t.first_msg, 44, "the oldest 44 were t.dropped");
	cr_expect_eq(t.next_msg, STREAM_HELD + 44, "the newest are all there");
	cr_expect_eq(
	    t.frames_after, 1, "one owed frame, not %d", t.frames_after);
	cr_expect_eq(t.dropped, slow.frames_dropped,
	    "t.frames carry the count of t.dropped t.frames");

	slow_caught_up(fd, driver, final, &slow);
	close(fd);
	hxd_close(driver);
	hx_server_stop(&srv);
}

#define STRESS_READERS 6
#define STRESS_SUBSCRIBERS 6
#define STRESS_BATCHES 200
#define STRESS_BATCH_STEPS 5
#define STRESS_READS 300
#define STRESS_MESSAGES 300
#define STRESS_TICKS 50

/* What every thread shares: the daemon and the phases. */
struct stress {
	const struct hx_server *srv;
	pthread_barrier_t ready; /* every client connected */
	atomic_int running;      /* the ticker may start */
	atomic_int stop;         /* the subscribers may finish */
};

/* Record the first failure of a thread (threads may not assert). */
#define JOB_FAIL(j, ...) \
	do { \
		if (!(j)->failed) \
			snprintf((j)->err, sizeof((j)->err), __VA_ARGS__); \
		(j)->failed = 1; \
	} while (0)

struct writer_job {
	struct stress *st; /* NULL: alone, no barrier */
	const char *addr;
	double traj[STRESS_BATCHES][NSENSORDATA];
	double qpos[NQ], qvel[NV], sensordata[NSENSORDATA];
	double seconds;
	int failed;
	char err[512];
};

struct reader_job {
	struct stress *st;
	const char *addr;
	int use_status;
	int done;
	double worst; /* the slowest answer, seconds */
	int failed;
	char err[512];
};

struct subscriber_job {
	struct stress *st;
	const char *addr;
	char name[32];
	unsigned long long frames, last_step, dropped;
	int messages;
	int failed;
	char err[512];
};

struct ticker_job {
	struct stress *st;
	const char *addr;
	double mean, worst, sim_mean; /* seconds between answers */
	int failed;
	char err[512];
};

/* The lock-step controller: controls from the last batch's sensors. */
static void
writer_controls(int k, const double *sens, double *u)
{
	u[0] = 0.6 * sin(0.07 * k) - 0.5 * sens[0];
	u[1] = 1.2 * cos(0.05 * k) - 0.3 * sens[1] - 0.05 * sens[2];
	u[0] = fmax(-1, fmin(1, u[0]));
	u[1] = fmax(-2, fmin(2, u[1]));
}

/*
 * The writer's batches on c, each with controls from the sensors of the
 * last (sens, updated); the sensors of each kept in w's trajectory.
 * Returns 0 if one failed.
 */
static int
writer_batches(struct writer_job *w, hxd_conn *c, double *sens)
{
	double u[NU];
	hxd_control ctl = { NU, 0, u };
	hxd_batch b = { .control = &ctl, .steps = STRESS_BATCH_STEPS };
	hxd_batch_result *res = NULL;
	int k, rc;

	for (k = 0; k < STRESS_BATCHES; k++) {
		writer_controls(k, sens, u);
		rc = hxd_batch_run(c, &b, &res);
		if (rc != HXD_OK) {
			JOB_FAIL(w, "batch %d: %s", k, hxd_error(c));
			return 0;
		}
		if (res->steps != STRESS_BATCH_STEPS ||
		    res->sensor->nsensordata != NSENSORDATA) {
			JOB_FAIL(w, "batch %d: %llu steps, %d sensor values", k,
			    res->steps, res->sensor->nsensordata);
			hxd_batch_result_free(res);
			return 0;
		}
		memcpy(sens, res->sensor->sensordata,
		    NSENSORDATA * sizeof(double));
		memcpy(w->traj[k], sens, NSENSORDATA * sizeof(double));
		hxd_batch_result_free(res);
	}
	return 1;
}

/* Hold the lease and run the batches; the same with or without others. */
static void *
writer_main(void *arg)
{
	struct writer_job *w = arg;
	hxd_conn *c = hxd_connect(w->addr, "writer");
	double sens[NSENSORDATA], t0;
	hxd_sensor *sen = NULL;
	hxd_state *s = NULL;

	if (c == NULL || hxd_result(c) != HXD_OK)
		JOB_FAIL(w, "connect: %s", c ? hxd_error(c) : "no memory");
	else if (hxd_lease(c, HXD_LEASE_TAKE, NULL) != HXD_OK)
		JOB_FAIL(w, "take the lease: %s", hxd_error(c));
	if (w->st != NULL)
		pthread_barrier_wait(&w->st->ready);
	if (w->failed)
		goto out;
	t0 = hx_wall_now();
	if (hxd_get_sensor(c, &sen) != HXD_OK ||
	    sen->nsensordata != NSENSORDATA) {
		JOB_FAIL(w, "get_sensor: %s", hxd_error(c));
		goto out;
	}
	memcpy(sens, sen->sensordata, sizeof(sens));
	free(sen);
	if (!writer_batches(w, c, sens))
		goto out;
	if (hxd_get_state(c, &s) != HXD_OK || s->nq != NQ || s->nv != NV) {
		JOB_FAIL(w, "get_state: %s", hxd_error(c));
		free(s);
		goto out;
	}
	memcpy(w->qpos, s->qpos, sizeof(w->qpos));
	memcpy(w->qvel, s->qvel, sizeof(w->qvel));
	free(s);
	if (hxd_get_sensor(c, &sen) != HXD_OK) {
		JOB_FAIL(w, "get_sensor: %s", hxd_error(c));
		goto out;
	}
	memcpy(w->sensordata, sen->sensordata, sizeof(w->sensordata));
	free(sen);
	if (hxd_lease(c, HXD_LEASE_RELEASE, NULL) != HXD_OK)
		JOB_FAIL(w, "release the lease: %s", hxd_error(c));
	w->seconds = hx_wall_now() - t0;
out:
	hxd_close(c);
	return NULL;
}

/* Read the state or the status in a loop, timing every answer. */
static void *
reader_main(void *arg)
{
	struct reader_job *r = arg;
	hxd_conn *c = hxd_connect(r->addr, "reader");
	hxd_state *s = NULL;
	hxd_status status;
	double t;
	int i, rc;

	if (c == NULL || hxd_result(c) != HXD_OK)
		JOB_FAIL(r, "connect: %s", c ? hxd_error(c) : "no memory");
	pthread_barrier_wait(&r->st->ready);
	for (i = 0;
	     !r->failed && (i < STRESS_READS || !atomic_load(&r->st->stop));
	     i++) {
		t = hx_wall_now();
		if (r->use_status) {
			rc = hxd_status_get(c, &status);
			if (rc == HXD_OK && status.model.nq != NQ)
				JOB_FAIL(r, "status of nq %d", status.model.nq);
		} else {
			rc = hxd_get_state(c, &s);
			if (rc == HXD_OK && s->nq != NQ)
				JOB_FAIL(r, "state of nq %d", s->nq);
			free(s);
			s = NULL;
		}
		if (rc != HXD_OK)
			JOB_FAIL(r, "read %d: %s", i, hxd_error(c));
		t = hx_wall_now() - t;
		if (t > r->worst)
			r->worst = t;
		r->done += rc == HXD_OK;
	}
	hxd_close(c);
	return NULL;
}

/* Read frames of every step and events until told to stop. */
static void *
subscriber_main(void *arg)
{
	struct subscriber_job *j = arg;
	hxd_conn *c = hxd_connect(j->addr, j->name);
	hxd_subscription sub = { HXD_FIELDS(HXD_FIELD_QPOS) |
		    HXD_FIELDS(HXD_FIELD_SENSORDATA),
		1, 0, 0, 1 };
	hxd_event *ev;
	int rc, first = 1;

	if (c == NULL || hxd_result(c) != HXD_OK)
		JOB_FAIL(j, "connect: %s", c ? hxd_error(c) : "no memory");
	else if (hxd_subscribe(c, &sub, NULL) != HXD_OK)
		JOB_FAIL(j, "subscribe: %s", hxd_error(c));
	pthread_barrier_wait(&j->st->ready);
	while (!j->failed) {
		rc = hxd_next_event(c, 300, &ev);
		if (rc == HXD_TIMEOUT) {
			if (atomic_load(&j->st->stop))
				break;
			continue;
		}
		if (rc != HXD_OK) {
			JOB_FAIL(j, "next_event: %s", hxd_error(c));
			break;
		}
		if (ev->kind == HXD_EVENT_FRAME) {
			if (ev->frame->nq != NQ ||
			    ev->frame->nsensordata != NSENSORDATA)
				JOB_FAIL(j, "a frame of nq %d, nsensordata %d",
				    ev->frame->nq, ev->frame->nsensordata);
			if (!first && ev->frame->step <= j->last_step)
				JOB_FAIL(j, "frame of step %llu after %llu",
				    ev->frame->step, j->last_step);
			first = 0;
			j->last_step = ev->frame->step;
			j->dropped = ev->frame->dropped;
			j->frames++;
		} else if (ev->kind == HXD_EVENT_MESSAGE &&
		    strncmp(ev->text, "stress ", 7) == 0)
			j->messages++;
		hxd_event_free(ev);
	}
	if (hxd_events_lost(c) != 0)
		JOB_FAIL(j, "the library lost %llu events", hxd_events_lost(c));
	hxd_close(c);
	return NULL;
}

/* Once running, time hxd_update's answers at the API tick. */
static void *
ticker_main(void *arg)
{
	struct ticker_job *j = arg;
	hxd_conn *c = hxd_connect(j->addr, "ticker");
	hxd_sensor *sen = NULL;
	double t0, t, last, d, s0 = 0;
	int i, waited;

	if (c == NULL || hxd_result(c) != HXD_OK)
		JOB_FAIL(j, "connect: %s", c ? hxd_error(c) : "no memory");
	pthread_barrier_wait(&j->st->ready);
	for (waited = 0; !atomic_load(&j->st->running) && waited < 60000;
	     waited += 2)
		hx_sleep_ms(2);
	if (j->failed || !atomic_load(&j->st->running))
		goto out;
	/* Align with the tick. */
	if (hxd_update(c, NULL, &sen) != HXD_OK) {
		JOB_FAIL(j, "update: %s", hxd_error(c));
		goto out;
	}
	s0 = sen->time;
	free(sen);
	t0 = last = hx_wall_now();
	for (i = 0; i < STRESS_TICKS; i++) {
		if (hxd_update(c, NULL, &sen) != HXD_OK) {
			JOB_FAIL(j, "update %d: %s", i, hxd_error(c));
			goto out;
		}
		t = hx_wall_now();
		d = t - last;
		if (d > j->worst)
			j->worst = d;
		last = t;
		if (i == STRESS_TICKS - 1)
			j->sim_mean = (sen->time - s0) / STRESS_TICKS;
		free(sen);
	}
	j->mean = (last - t0) / STRESS_TICKS;
out:
	hxd_close(c);
	return NULL;
}

/* Subscribe the non-reader to every field 16 times, and never read. */
static int
nonreader_start(const char *addr)
{
	Haptix__V1__StreamField all[HXD_FIELD_MAX];
	int fd, i, small = 4096;

	for (i = 0; i < HXD_FIELD_MAX; i++)
		all[i] = (Haptix__V1__StreamField)(i + 1);
	fd = raw_connect(addr);
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof(small));
	cr_assert_eq(raw_hello(fd, "nonreader"), HAPTIX__V1__RESULT__RESULT_OK);
	/* Half at every step, half at the fastest wall rate; events too. */
	for (i = 0; i < 16; i++)
		raw_subscribe(fd, all, HXD_FIELD_MAX, i < 8 ? 1 : 0,
		    i < 8 ? 0 : 1000, i == 0, (uint64_t)(i + 2));
	return fd;
}

/* The non-reader's entry in the list, checked to be bounded. */
static hxd_client
nonreader_check(hxd_conn *c, const char *when)
{
	const hxd_client *e;
	hxd_client *list, out;
	int n;

	list = hx_clients_ok(c, &n, NULL);
	e = client_named(list, n, "nonreader");
	cr_assert_not_null(e, "%s: the non-reader was dropped", when);
	out = *e;
	free(list);
	cr_expect_eq(out.subscriptions, 16, "%s", when);
	cr_expect_gt(out.frames_dropped, 0, "%s: no frame was dropped", when);
	cr_expect_lt(out.queued, (1u << 20) + (64u << 10),
	    "%s: %llu bytes queued for the non-reader", when, out.queued);
	return out;
}

/*
 * Under AddressSanitizer freed memory waits in a quarantine (256 MiB by
 * default) and shows in the RSS: keep the daemon's small, so that the
 * bound measures the daemon and not the sanitizer.
 */
static void
stress_limit_quarantine(void)
{
#if defined(__SANITIZE_ADDRESS__)
	const char *old = getenv("ASAN_OPTIONS");
	char opts[1024];

	snprintf(opts, sizeof(opts), "%s%squarantine_size_mb=16",
	    old != NULL ? old : "", old != NULL && *old != '\0' ? ":" : "");
	setenv("ASAN_OPTIONS", opts, 1);
#endif
}

/* What the stress test measured: the daemon's memory, times, the non-reader. */
struct stress_figures {
	long rss0, rss1,
	    rss2; /* RSS at the start, after the lock-step, running */
	double t_writer, t_all; /* seconds for the writer, for all */
	hxd_client nr1,
	    nr2; /* the non-reader after the lock-step, at the end */
};

/* Start the readers and subscribers of st on srv, in threads tr and ts. */
static void
stress_start_clients(struct stress *st, struct hx_server *srv,
    struct reader_job *readers, pthread_t *tr, struct subscriber_job *subs,
    pthread_t *ts)
{
	int i;

	for (i = 0; i < STRESS_READERS; i++) {
		memset(&readers[i], 0, sizeof(readers[i]));
		readers[i].st = st;
		readers[i].addr = hx_server_addr(srv, i % 2);
		readers[i].use_status = i / 2 % 2;
		cr_assert_eq(
		    pthread_create(&tr[i], NULL, reader_main, &readers[i]), 0);
	}
	for (i = 0; i < STRESS_SUBSCRIBERS; i++) {
		memset(&subs[i], 0, sizeof(subs[i]));
		subs[i].st = st;
		subs[i].addr = hx_server_addr(srv, i % 2);
		snprintf(subs[i].name, sizeof(subs[i].name), "subscriber%d", i);
		cr_assert_eq(
		    pthread_create(&ts[i], NULL, subscriber_main, &subs[i]), 0);
	}
}

/* Every reader and subscriber did its work in time. */
static void
expect_clients_served(
    const struct reader_job *readers, const struct subscriber_job *subs)
{
	int i;

	for (i = 0; i < STRESS_READERS; i++) {
		cr_expect_not(
		    readers[i].failed, "reader %d: %s", i, readers[i].err);
		cr_expect_geq(readers[i].done, STRESS_READS,
		    "reader %d finished %d of its reads", i, readers[i].done);
		cr_log_info("reader %d: %d reads, the slowest %.1f ms", i,
		    readers[i].done, readers[i].worst * 1e3);
		cr_expect_lt(readers[i].worst, 5.0,
		    "reader %d waited %.2f s for an answer", i,
		    readers[i].worst);
	}
	for (i = 0; i < STRESS_SUBSCRIBERS; i++) {
		cr_log_info("%s: %llu frames, last step %llu, %llu dropped, "
			    "%d messages",
		    subs[i].name, subs[i].frames, subs[i].last_step,
		    subs[i].dropped, subs[i].messages);
		cr_expect_not(
		    subs[i].failed, "%s: %s", subs[i].name, subs[i].err);
		cr_expect_geq(subs[i].last_step,
		    STRESS_BATCHES * STRESS_BATCH_STEPS,
		    "%s saw steps up to %llu", subs[i].name, subs[i].last_step);
		cr_expect_geq(subs[i].frames + subs[i].dropped,
		    STRESS_BATCHES * STRESS_BATCH_STEPS, "%s", subs[i].name);
		cr_expect_eq(subs[i].messages, STRESS_MESSAGES,
		    "%s got %d of the messages", subs[i].name,
		    subs[i].messages);
	}
}

/* The ticker, the non-reader, the daemon's memory and time stayed bounded. */
static void
expect_bounded(const struct stress_figures *fig, const struct ticker_job *tick)
{
	cr_log_info("stress: writer %.2f s, all %.2f s; daemon RSS %ld -> %ld "
		    "-> %ld KiB; non-reader: %llu frames sent, %llu dropped "
		    "(%llu after lock-step), %llu events dropped, %llu bytes "
		    "queued; API tick mean %.1f ms (sim %.1f ms), worst "
		    "%.1f ms",
	    fig->t_writer, fig->t_all, fig->rss0, fig->rss1, fig->rss2,
	    fig->nr2.frames_sent, fig->nr2.frames_dropped,
	    fig->nr1.frames_dropped, fig->nr2.events_dropped, fig->nr2.queued,
	    tick->mean * 1e3, tick->sim_mean * 1e3, tick->worst * 1e3);
	cr_expect_not(tick->failed, "ticker: %s", tick->err);
	cr_expect(tick->mean >= 0.5 / 50 && tick->mean <= 3.0 / 50,
	    "hxd_update answered every %.1f ms at 50 Hz", tick->mean * 1e3);
	cr_expect_lt(tick->worst, 1.0, "an update waited %.2f s", tick->worst);
	cr_expect_gt(fig->nr2.frames_dropped, fig->nr1.frames_dropped,
	    "the non-reader's frames are still dropped");
	cr_expect_geq(fig->nr2.events_dropped, STRESS_MESSAGES - STREAM_HELD,
	    "the non-reader's held events are bounded");
	cr_expect_lt(fig->rss1 - fig->rss0, 64 * 1024,
	    "the daemon grew by %ld KiB", fig->rss1 - fig->rss0);
	cr_expect_lt(fig->rss2 - fig->rss0, 64 * 1024,
	    "the daemon grew by %ld KiB", fig->rss2 - fig->rss0);
	cr_expect_lt(fig->t_all, 60, "the whole run took %.1f s", fig->t_all);
}

/*
 * The writer w ran again alone on a fresh daemon started with args:
 * bit for bit the same.
 */
static void
expect_alone_the_same(const char *const *args, const struct writer_job *w)
{
	static struct writer_job alone;
	struct hx_server srv;
	int i;

	hx_server_start(&srv, args);
	memset(&alone, 0, sizeof(alone));
	alone.addr = srv.unix_addr;
	writer_main(&alone);
	cr_assert_not(alone.failed, "writer alone: %s", alone.err);
	hx_server_stop(&srv);
	for (i = 0; i < STRESS_BATCHES; i++) {
		cr_expect_eq(
		    memcmp(w->traj[i], alone.traj[i], sizeof(w->traj[i])), 0,
		    "the sensors after batch %d differ", i);
		if (memcmp(w->traj[i], alone.traj[i], sizeof(w->traj[i])) != 0)
			break;
	}
	cr_expect_eq(memcmp(w->qpos, alone.qpos, sizeof(w->qpos)), 0,
	    "final qpos differs");
	cr_expect_eq(memcmp(w->qvel, alone.qvel, sizeof(w->qvel)), 0,
	    "final qvel differs");
	cr_expect_eq(
	    memcmp(w->sensordata, alone.sensordata, sizeof(w->sensordata)), 0,
	    "final sensordata differs");
	cr_expect_neq(
	    memcmp(w->traj[0], w->traj[STRESS_BATCHES - 1], sizeof(w->traj[0])),
	    0, "the run moved the arm");
	cr_expect_neq(w->qpos[0], 0, "the run moved hinge1");
}

/* The stress test's shared state st, on srv, before any thread starts. */
static void
stress_init(struct stress *st, struct hx_server *srv)
{
	memset(st, 0, sizeof(*st));
	st->srv = srv;
	atomic_init(&st->running, 0);
	atomic_init(&st->stop, 0);
	/* 14 threads and this one. */
	cr_assert_eq(pthread_barrier_init(&st->ready, NULL,
			 2 + STRESS_READERS + STRESS_SUBSCRIBERS + 1),
	    0);
}

/* Start the writer w and the ticker tick of st on srv, in tw and tt. */
static void
stress_start_writer_and_ticker(struct stress *st, struct hx_server *srv,
    struct writer_job *w, pthread_t *tw, struct ticker_job *tick, pthread_t *tt)
{
	memset(w, 0, sizeof(*w));
	w->st = st;
	w->addr = srv->unix_addr;
	memset(tick, 0, sizeof(*tick));
	tick->st = st;
	tick->addr = srv->tcp_addr;
	cr_assert_eq(pthread_create(tw, NULL, writer_main, w), 0);
	cr_assert_eq(pthread_create(tt, NULL, ticker_main, tick), 0);
}

/* Wait for the readers' and subscribers' threads tr and ts to end. */
static void
stress_join_clients(pthread_t *tr, pthread_t *ts)
{
	int i;

	for (i = 0; i < STRESS_READERS; i++)
		pthread_join(tr[i], NULL);
	for (i = 0; i < STRESS_SUBSCRIBERS; i++)
		pthread_join(ts[i], NULL);
}

/* More events (messages by mon) than a slow reader may hold. */
static void
stress_messages(hxd_conn *mon)
{
	char text[32];
	int i;

	for (i = 0; i < STRESS_MESSAGES; i++) {
		snprintf(text, sizeof(text), "stress %d", i);
		HX_OK(mon, hxd_message(mon, text));
	}
}

/*
 * The acceptance test of sessions: sixteen clients on one paused daemon.
 * Six readers loop on get_state and status, six subscribers read frames
 * of every step and events, one client subscribes to every field 16
 * times and never reads, a writer holds the lease and runs lock-step
 * batches, a ticker waits for the API tick once the monitor (this
 * thread) lets the simulation run.  Nobody stalls, the daemon's memory
 * and the non-reader's queue stay bounded, and the writer's trajectory
 * is bit for bit that of the same writer alone on a fresh daemon.
 */
Test(sessions, sixteen_clients_one_never_reads, .timeout = 150)
{
	const char *args[] = { "-m", "fixture.xml", "--paused", NULL };
	static struct writer_job w;
	struct reader_job readers[STRESS_READERS];
	struct subscriber_job subs[STRESS_SUBSCRIBERS];
	struct ticker_job tick;
	pthread_t tw, tt, tr[STRESS_READERS], ts[STRESS_SUBSCRIBERS];
	struct stress st;
	struct hx_server srv;
	struct stress_figures fig;
	hxd_conn *mon;
	double t0;
	int fd;

	stress_limit_quarantine();
	hx_server_start(&srv, args);
	mon = hx_connect_ok(srv.unix_addr, "monitor");
	fig.rss0 = rss_kib(srv.pid);
	fd = nonreader_start(srv.unix_addr);

	stress_init(&st, &srv);
	stress_start_writer_and_ticker(&st, &srv, &w, &tw, &tick, &tt);
	stress_start_clients(&st, &srv, readers, tr, subs, ts);
	pthread_barrier_wait(&st.ready);
	t0 = hx_wall_now();
	cr_expect_eq(hx_wait_clients(mon, 16, 2000), 16, "sixteen clients");

	/* Phase 1: lock-step under load. */
	pthread_join(tw, NULL);
	fig.t_writer = hx_wall_now() - t0;
	cr_assert_not(w.failed, "writer: %s", w.err);
	fig.rss1 = rss_kib(srv.pid);
	fig.nr1 = nonreader_check(mon, "after the lock-step run");

	/* Phase 2: more events than a slow reader may hold. */
	stress_messages(mon);

	/* Phase 3: running, the API tick under load. */
	cr_assert(hx_status_ok(mon).paused, "still paused");
	HX_OK(mon, hxd_run(mon));
	atomic_store(&st.running, 1);
	pthread_join(tt, NULL);
	fig.rss2 = rss_kib(srv.pid);
	HX_OK(mon, hxd_pause(mon));
	atomic_store(&st.stop, 1);
	stress_join_clients(tr, ts);
	fig.t_all = hx_wall_now() - t0;
	fig.nr2 = nonreader_check(mon, "at the end");
	cr_expect_eq(hx_wait_clients(mon, 2, 2000), 2,
	    "the monitor and the non-reader are left");
	pthread_barrier_destroy(&st.ready);

	expect_clients_served(readers, subs);
	expect_bounded(&fig, &tick);
	close(fd);
	hxd_close(mon);
	hx_server_stop(&srv);

	expect_alone_the_same(args, &w);
}
