/*
 * Unit tests of the loads in the background (daemon/loadjob.c),
 * in-process: loads run in this process (loadjob_inprocess, as the
 * fuzzer runs them) on the daemon's loop, with the test models as the
 * model directory.  The queue is what is tested: each load answered
 * once, the running model replaced or kept, the data copied, the limits
 * per peer and in all, the order of peers, the owner's loads cancelled
 * when it leaves.  The loader process itself is test_loader's.
 */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "daemon.h"
#include "inproc.h"
#include "loader.h"
#include "loadjob.h"
#include "modeldir.h"
#include "modeltext.h"
#include "monotonic.h"
#include "options.h"
#include "result.h"
#include "sim.h"

TestSuite(loadjob, .timeout = 20);

static struct daemon d;
static char models[PATH_MAX]; /* the test models, real path */

/* What the done callbacks saw, in order. */
#define MAXDONE 80
static int ndone;
static struct {
	const char *label;
	int code;
	char err[512];
	char model[64]; /* the running model's name then */
} done[MAXDONE];

static void
done_cb(struct daemon *dd, void *arg, int code, const char *err)
{
	cr_assert_lt(ndone, MAXDONE);
	done[ndone].label = arg;
	done[ndone].code = code;
	snprintf(done[ndone].err, sizeof(done[ndone].err), "%s", err);
	snprintf(done[ndone].model, sizeof(done[ndone].model), "%s",
	    sim_loaded(dd->sim) ? sim_model_name(dd->sim) : "");
	ndone++;
}

/* A load's owner: its peer, and whether it comes first (the lease). */
struct owner {
	const char *peer;
	int first;
};

static int
peer_of(struct daemon *dd, const void *owner, char *key, size_t len)
{
	const struct owner *o = owner;

	snprintf(key, len, "%s", o->peer);
	return o->first;
}

static void
start(const char *const *args)
{
	const char *dirs[1];

	inproc_start(&d, args);
	cr_assert_not_null(realpath(getenv("HX_TEST_MODELS"), models));
	dirs[0] = models;
	modeldir_init(dirs, 1);
	loadjob_inprocess(1);
	loadjob_set_peer(peer_of);
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
	if (d.base != NULL) {
		loadjob_shutdown(&d);
		inproc_stop(&d);
	}
}

/* Run the loop until n loads were answered (at most 10 s). */
static void
wait_done(int n)
{
	double end = monotonic_s() + 10;

	while (ndone < n && monotonic_s() < end)
		inproc_run_for(&d, 0.001);
	cr_assert_eq(ndone, n, "%d loads answered, not %d", ndone, n);
}

/* A tiny MJCF model named name, in buf. */
static size_t
tiny(char *buf, size_t len, const char *name)
{
	return (size_t)snprintf(buf, len,
	    "<mujoco model=\"%s\"><worldbody><body name=\"b\"><freejoint/>"
	    "<geom size=\"0.1\"/></body></worldbody></mujoco>",
	    name);
}

/* Queue an inline load of a tiny model named label for owner. */
static int
queue_tiny(const struct owner *owner, const char *label, char *err, size_t len)
{
	struct loadjob_request r = { 0 };
	char xml[512];

	r.source = LOADER_INLINE;
	r.format = SIM_FORMAT_MJCF;
	r.data = xml;
	r.len = tiny(xml, sizeof(xml), label);
	r.name = label;
	return loadjob_start(&d, &r, owner, done_cb, (void *)label, err, len);
}

Test(loadjob, file_load_replaces_the_model, .init = setup, .fini = teardown)
{
	struct loadjob_request r = { 0 };
	char path[PATH_MAX + 32], err[512];

	snprintf(path, sizeof(path), "%s/fixture.xml", models);
	r.source = LOADER_FILE;
	r.path = path;
	cr_assert_eq(loadjob_start(&d, &r, NULL, done_cb, (void *)"fixture",
			 err, sizeof(err)),
	    RESULT_OK, "%s", err);
	cr_assert_eq(loadjob_count(&d), 1);
	cr_assert_eq(ndone, 0, "answered from the loop, not at once");
	cr_assert(!sim_loaded(d.sim));
	wait_done(1);
	cr_assert_eq(done[0].code, RESULT_OK, "%s", done[0].err);
	cr_assert_str_eq(done[0].err, "");
	cr_assert_str_eq(done[0].model, "fixture", "running when answered");
	cr_assert_eq(loadjob_count(&d), 0);
	cr_assert_str_eq(sim_model_path(d.sim), path);
	cr_assert_eq(sim_sizes(d.sim)->nq, 9);
	/* Its text is kept, for edits, with where it stands. */
	cr_assert_not_null(d.model->xml);
	cr_assert(strstr(d.model->xml, "<mujoco model=\"fixture\">") != NULL);
	cr_assert_eq(d.model->len, strlen(d.model->xml));
	cr_assert_str_eq(d.model->dir, models);
	teardown();
}

Test(loadjob, run_waits_for_the_answer, .init = setup, .fini = teardown)
{
	struct loadjob_request r = { 0 };
	char path[PATH_MAX + 32], err[512];

	snprintf(path, sizeof(path), "%s/fixture.xml", models);
	r.source = LOADER_FILE;
	r.path = path;
	cr_assert_eq(
	    loadjob_run(&d, &r, err, sizeof(err)), RESULT_OK, "%s", err);
	cr_assert(sim_loaded(d.sim));
	cr_assert_str_eq(sim_model_name(d.sim), "fixture");
	cr_assert_eq(loadjob_count(&d), 0);

	/* A file that is not there: a failed load, the old model kept. */
	snprintf(path, sizeof(path), "%s/no-such-model.xml", models);
	err[0] = '\0';
	cr_assert_eq(loadjob_run(&d, &r, err, sizeof(err)), RESULT_LOADFAILED,
	    "%s", err);
	cr_assert(strstr(err, "no-such-model.xml") != NULL, "%s", err);
	cr_assert_str_eq(sim_model_name(d.sim), "fixture", "the old one runs");
	teardown();
}

Test(loadjob, inline_data_is_copied, .init = setup, .fini = teardown)
{
	struct loadjob_request r = { 0 };
	char xml[512], err[512];

	r.source = LOADER_INLINE;
	r.format = SIM_FORMAT_MJCF;
	r.data = xml;
	r.len = tiny(xml, sizeof(xml), "first");
	r.name = "sent";
	cr_assert_eq(loadjob_start(&d, &r, NULL, done_cb, (void *)"inline", err,
			 sizeof(err)),
	    RESULT_OK, "%s", err);
	memset(xml, 'x', sizeof(xml)); /* the caller's buffer is its own */
	wait_done(1);
	cr_assert_eq(done[0].code, RESULT_OK, "%s", done[0].err);
	cr_assert_str_eq(done[0].model, "first");
	cr_assert_str_eq(sim_model_path(d.sim), "", "sent inline: no file");
	cr_assert_eq(sim_sizes(d.sim)->nq, 7);
	teardown();
}

Test(loadjob, failed_load_keeps_the_old_model, .init = setup, .fini = teardown)
{
	static const char bad[] = "<mujoco><worldbody><geom type=\"nosuch\"/>"
				  "</worldbody></mujoco>";
	struct loadjob_request r = { 0 };
	char err[512];

	cr_assert_eq(queue_tiny(NULL, "old", err, sizeof(err)), RESULT_OK);
	wait_done(1);
	cr_assert_eq(done[0].code, RESULT_OK, "%s", done[0].err);

	r.source = LOADER_INLINE;
	r.format = SIM_FORMAT_MJCF;
	r.data = bad;
	r.len = sizeof(bad) - 1;
	r.name = "bad";
	cr_assert_eq(loadjob_start(&d, &r, NULL, done_cb, (void *)"bad", err,
			 sizeof(err)),
	    RESULT_OK, "it starts: the loader finds the fault");
	wait_done(2);
	cr_assert_eq(done[1].code, RESULT_LOADFAILED);
	cr_assert(strstr(done[1].err, "nosuch") != NULL, "MuJoCo's words: %s",
	    done[1].err);
	cr_assert_str_eq(done[1].model, "old");
	cr_assert_str_eq(sim_model_name(d.sim), "old");
	cr_assert_eq(loadjob_count(&d), 0);
	teardown();
}

Test(loadjob, edit_without_text_fails_when_its_turn_comes, .init = setup,
    .fini = teardown)
{
	struct loadjob_request r = { 0 };
	char err[512];

	inproc_load(&d, "fixture.xml"); /* directly: no text kept */
	r.source = LOADER_EDIT;
	r.edit = "\x0a\x00";
	r.edit_len = 2;
	cr_assert_eq(loadjob_start(&d, &r, NULL, done_cb, (void *)"edit", err,
			 sizeof(err)),
	    RESULT_OK);
	cr_assert_eq(ndone, 1, "answered at once: it could not start");
	cr_assert_eq(done[0].code, RESULT_LOADFAILED);
	cr_assert_str_eq(done[0].err,
	    "the model \"fixture\" has no MJCF text to edit: it was loaded "
	    "from MJB or URDF");
	cr_assert_eq(loadjob_count(&d), 0);
	teardown();
}

Test(loadjob, limits_from_the_settings, .fini = teardown)
{
	static const char *const args[] = { "--load-timeout", "7",
		"--load-memory", "100", NULL };
	struct loader_limits l;

	start(args);
	memset(&l, 0xff, sizeof(l));
	loadjob_limits(&d, &l);
	cr_assert_eq(l.seconds, 7);
	cr_assert_eq(l.memory, (uint64_t)100 << 20);
	cr_assert_eq(l.model.bodies, d.opts->model_max_bodies);
	cr_assert_eq(l.model.keys, d.opts->model_max_keys);
	cr_assert_eq(l.model.hfield_cells, d.opts->model_max_hfield);
	cr_assert_eq(l.model.texture_pixels, d.opts->model_max_texture);
	cr_assert_eq(l.model.mesh_vertices, d.opts->model_max_mesh_vertices);
	teardown();
}

Test(loadjob, limits_per_peer_and_in_all, .init = setup, .fini = teardown)
{
	static struct owner a1 = { "alice", 0 }, a2 = { "alice", 0 },
			    others[16];
	static char peers[16][16];
	char err[512];
	int i, k;

	/* Four of one peer, from two connections: the fifth is refused. */
	for (i = 0; i < 4; i++)
		cr_assert_eq(
		    queue_tiny(i % 2 ? &a2 : &a1, "a", err, sizeof(err)),
		    RESULT_OK, "%s", err);
	cr_assert_eq(loadjob_count(&d), 4);
	err[0] = '\0';
	cr_assert_eq(queue_tiny(&a2, "a", err, sizeof(err)), RESULT_DENIED);
	cr_assert_str_eq(err,
	    "4 loads and edits of alice already wait or run (at most 4 a "
	    "peer, every connection of it together): ask again when one is "
	    "answered");
	cr_assert_eq(loadjob_count(&d), 4);
	cr_assert_eq(ndone, 0, "a refusal is no answer");
	cr_assert_eq(queue_tiny(NULL, "daemon", err, sizeof(err)), RESULT_OK,
	    "the daemon's own loads are never refused");

	/* Up to 64 in all: 15 more peers of 4 fill it (with the daemon's). */
	for (k = 0; k < 15; k++) {
		snprintf(peers[k], sizeof(peers[k]), "peer%d", k);
		others[k].peer = peers[k];
		for (i = 0; i < 4; i++) {
			if (loadjob_count(&d) == LOADJOB_MAX)
				break;
			cr_assert_eq(
			    queue_tiny(&others[k], "o", err, sizeof(err)),
			    RESULT_OK, "%s", err);
		}
	}
	cr_assert_eq(loadjob_count(&d), LOADJOB_MAX);
	snprintf(peers[15], sizeof(peers[15]), "newcomer");
	others[15].peer = peers[15];
	err[0] = '\0';
	cr_assert_eq(
	    queue_tiny(&others[15], "o", err, sizeof(err)), RESULT_DENIED);
	cr_assert_str_eq(err,
	    "64 loads and edits already wait or run (at most 64 in all): ask "
	    "again later");

	/* Shutting down answers each, cancelled. */
	loadjob_shutdown(&d);
	cr_assert_eq(loadjob_count(&d), 0);
	cr_assert_eq(ndone, LOADJOB_MAX);
	for (i = 0; i < ndone; i++) {
		cr_assert_eq(done[i].code, LOADJOB_CANCELLED);
		cr_assert_str_eq(done[i].err, "");
	}
	/* And the peers' counts went with them. */
	cr_assert_eq(
	    queue_tiny(&a1, "again", err, sizeof(err)), RESULT_OK, "%s", err);
	teardown();
}

Test(loadjob, peers_take_turns, .init = setup, .fini = teardown)
{
	static struct owner a = { "alice", 0 }, b = { "bob", 0 },
			    holder = { "carol", 1 };
	static const char *const want[] = { "a1", "h1", "b1", "a2", "b2",
		"a3" };
	char err[512];
	size_t i;

	/* a1 starts at once; the others wait. */
	cr_assert_eq(queue_tiny(&a, "a1", err, sizeof(err)), RESULT_OK);
	cr_assert_eq(queue_tiny(&a, "a2", err, sizeof(err)), RESULT_OK);
	cr_assert_eq(queue_tiny(&a, "a3", err, sizeof(err)), RESULT_OK);
	cr_assert_eq(queue_tiny(&b, "b1", err, sizeof(err)), RESULT_OK);
	cr_assert_eq(queue_tiny(&b, "b2", err, sizeof(err)), RESULT_OK);
	/* The lease holder's comes before every peer's. */
	cr_assert_eq(queue_tiny(&holder, "h1", err, sizeof(err)), RESULT_OK);
	wait_done(6);
	for (i = 0; i < 6; i++) {
		cr_assert_str_eq(done[i].label, want[i], "answer %zu", i);
		cr_assert_eq(done[i].code, RESULT_OK, "%s", done[i].err);
		cr_assert_str_eq(done[i].model, want[i], "its model ran");
	}
	teardown();
}

Test(loadjob, owner_left_cancels_its_loads, .init = setup, .fini = teardown)
{
	static struct owner x = { "xavier", 0 }, y = { "yolanda", 0 };
	char err[512];

	cr_assert_eq(queue_tiny(&x, "x1", err, sizeof(err)), RESULT_OK);
	cr_assert_eq(queue_tiny(&y, "y1", err, sizeof(err)), RESULT_OK);
	cr_assert_eq(queue_tiny(&x, "x2", err, sizeof(err)), RESULT_OK);
	cr_assert_eq(queue_tiny(NULL, "d1", err, sizeof(err)), RESULT_OK);
	cr_assert_eq(loadjob_count(&d), 4);

	loadjob_owner_left(&d, NULL); /* the daemon never leaves */
	cr_assert_eq(loadjob_count(&d), 4);
	cr_assert_eq(ndone, 0);

	/* x's running load and its waiting one go, answered at once. */
	loadjob_owner_left(&d, &x);
	cr_assert_eq(ndone, 2);
	cr_assert_str_eq(done[0].label, "x1");
	cr_assert_eq(done[0].code, LOADJOB_CANCELLED);
	cr_assert_str_eq(done[1].label, "x2");
	cr_assert_eq(done[1].code, LOADJOB_CANCELLED);
	cr_assert_eq(loadjob_count(&d), 2);

	/* The others go on: the daemon's first, then y's. */
	wait_done(4);
	cr_assert_str_eq(done[2].label, "d1");
	cr_assert_eq(done[2].code, RESULT_OK, "%s", done[2].err);
	cr_assert_str_eq(done[3].label, "y1");
	cr_assert_eq(done[3].code, RESULT_OK, "%s", done[3].err);
	cr_assert_str_eq(sim_model_name(d.sim), "y1", "x1 never ran");
	teardown();
}
