/*
 * make bench: the in-process baseline of the step-rate figures.  Loads
 * the model as haptixd does (compile, mj_makeData, mj_forward), then
 * runs a bare mj_step loop, either a number of steps or for a time, and
 * prints what it did on one line for hxbench:
 *
 *	steps N seconds S rss_kib R cpu C
 *
 * (C: the loop's CPU time in seconds, CLOCK_PROCESS_CPUTIME_ID.)
 *
 * With --loads N it times N bare mj_loadXML of the model instead (the
 * baseline of an edit, which compiles the edited text once), each
 * followed by mj_deleteModel, and prints their seconds:
 *
 *	loads N seconds S1 S2 ...
 *
 * With --compute N [NAME] it steps the model 500 times (the hand settles on
 * the table and touches it), then times N repetitions of each
 * computation the compute call offers (or of the one NAME names) as a
 * program linking MuJoCo would run it: mj_forward of the state, then the
 *function.  One line each, the mean seconds of one:
 *
 *	compute NAME S
 *
 * A program of its own: the only bench file that includes MuJoCo, whose
 * mj_step would collide with libhaptix's.
 */
#include "config.h"

#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>

#include <mujoco/mujoco.h>

#include "proc.h"

/* Time n loads of path, printing each one's seconds. */
static int
time_loads(const char *path, unsigned long n)
{
	char err[1000];
	unsigned long i;
	double t0;
	mjModel *m;

	printf("loads %lu seconds", n);
	for (i = 0; i < n; i++) {
		t0 = bench_now();
		if ((m = mj_loadXML(path, NULL, err, sizeof(err))) == NULL) {
			fprintf(stderr, "baseline_mujoco: %s: %s\n", path, err);
			return 1;
		}
		mj_deleteModel(m);
		printf(" %.9f", bench_now() - t0);
	}
	printf("\n");
	return 0;
}

/* The computations the compute figure times, by hxbench's names. */
enum bench_computation {
	BC_FORWARD,
	BC_FULL_M,
	BC_JAC_SITE,
	BC_INVERSE,
	BC_RNE,
	BC_RAY,
	BC_RAYS,
	BC_CONTACTS,
	BC_N
};

static const char *const bench_computations[BC_N] = { "forward", "full_m",
	"jac_site", "inverse", "rne", "ray", "rays100", "contact_force" };

/* A copy of d's inputs into e, as the daemon makes its scratch data. */
static void
copy_inputs(const mjModel *m, const mjData *d, mjData *e)
{
	mju_copy(e->qpos, d->qpos, m->nq);
	mju_copy(e->qvel, d->qvel, m->nv);
	mju_copy(e->act, d->act, m->na);
	mju_copy(e->ctrl, d->ctrl, m->nu);
	mju_copy(e->qacc_warmstart, d->qacc_warmstart, m->nv);
	mju_copy(e->qfrc_applied, d->qfrc_applied, m->nv);
}

/* One computation of kind k on e after the forward pass. */
static void
compute_once(const mjModel *m, mjData *e, int k, int site, double *buf)
{
	double pnt[3] = { 0, 0, 1 }, vec[3] = { 0, 0, -1 };
	int i, geom;

	mj_forward(m, e);
	switch (k) {
	case BC_FULL_M:
		mj_fullM(m, buf, e->qM);
		break;
	case BC_JAC_SITE:
		mj_jacSite(m, e, buf, buf + 3 * m->nv, site);
		break;
	case BC_INVERSE:
		mj_inverse(m, e);
		break;
	case BC_RNE:
		mj_rne(m, e, 0, buf);
		break;
	case BC_RAY:
	case BC_RAYS:
		for (i = 0; i < (k == BC_RAY ? 1 : 100); i++) {
			pnt[0] = 0.002 * i;
			buf[i] = mj_ray(m, e, pnt, vec, NULL, 1, -1, &geom);
		}
		break;
	case BC_CONTACTS:
		for (i = 0; i < e->ncon; i++)
			mj_contactForce(m, e, i, buf + 6 * (i % 100));
		break;
	default:
		break;
	}
}

/* Time n of each computation (or of the one named) after 500 steps. */
static int
time_computations(const char *path, unsigned long n, const char *only)
{
	char err[1000];
	unsigned long i;
	double t0, *buf;
	mjModel *m;
	mjData *d, *e;
	int k, site;

	if ((m = mj_loadXML(path, NULL, err, sizeof(err))) == NULL) {
		fprintf(stderr, "baseline_mujoco: %s: %s\n", path, err);
		return 1;
	}
	d = mj_makeData(m);
	e = mj_makeData(m);
	buf = calloc(
	    (size_t)m->nv * m->nv + 6 * (size_t)m->nv + 600, sizeof(*buf));
	site = mj_name2id(m, mjOBJ_SITE, "index_distal");
	if (site < 0)
		site = 0;
	for (i = 0; i < 500; i++)
		mj_step(m, d);
	for (k = 0; k < BC_N; k++) {
		if ((k == BC_JAC_SITE && m->nsite == 0) ||
		    (only != NULL && strcmp(only, bench_computations[k]) != 0))
			continue;
		t0 = bench_now();
		for (i = 0; i < n; i++) {
			copy_inputs(m, d, e);
			compute_once(m, e, k, site, buf);
		}
		printf("compute %s %.9f\n", bench_computations[k],
		    (bench_now() - t0) / (double)n);
	}
	free(buf);
	mj_deleteData(e);
	mj_deleteData(d);
	mj_deleteModel(m);
	return 0;
}

int
main(int argc, char **argv)
{
	char err[1000];
	unsigned long long steps = 0, want = 0;
	double seconds = 0, t0, t;
	struct timespec c0, c1;
	mjModel *m;
	mjData *d;

	if (argc == 5 && strcmp(argv[2], "--compute") == 0)
		return time_computations(
		    argv[1], strtoul(argv[3], NULL, 10), argv[4]);
	if (argc != 4 ||
	    (strcmp(argv[2], "--steps") != 0 &&
		strcmp(argv[2], "--seconds") != 0 &&
		strcmp(argv[2], "--loads") != 0 &&
		strcmp(argv[2], "--compute") != 0)) {
		fprintf(stderr,
		    "usage: baseline_mujoco MODEL --steps N | --seconds S | "
		    "--loads N | --compute N [NAME]\n");
		return 2;
	}
	if (strcmp(argv[2], "--compute") == 0)
		return time_computations(
		    argv[1], strtoul(argv[3], NULL, 10), NULL);
	if (strcmp(argv[2], "--loads") == 0)
		return time_loads(argv[1], strtoul(argv[3], NULL, 10));
	if (strcmp(argv[2], "--steps") == 0)
		want = strtoull(argv[3], NULL, 10);
	else
		seconds = strtod(argv[3], NULL);
	m = mj_loadXML(argv[1], NULL, err, sizeof(err));
	if (m == NULL) {
		fprintf(stderr, "baseline_mujoco: %s: %s\n", argv[1], err);
		return 1;
	}
	d = mj_makeData(m);
	mj_forward(m, d);
	/* The clock after each step costs some 30 ns of its tens of us. */
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
	t0 = t = bench_now();
	while (want != 0 ? steps < want : t - t0 < seconds) {
		mj_step(m, d);
		steps++;
		t = bench_now();
	}
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
	printf("steps %llu seconds %.9f rss_kib %ld cpu %.9f\n", steps, t - t0,
	    bench_rss_kib(0),
	    (double)(c1.tv_sec - c0.tv_sec) + (c1.tv_nsec - c0.tv_nsec) * 1e-9);
	mj_deleteData(d);
	mj_deleteModel(m);
	return 0;
}
