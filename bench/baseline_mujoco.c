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

int
main(int argc, char **argv)
{
	char err[1000];
	unsigned long long steps = 0, want = 0;
	double seconds = 0, t0, t;
	struct timespec c0, c1;
	mjModel *m;
	mjData *d;

	if (argc != 4 ||
	    (strcmp(argv[2], "--steps") != 0 &&
		strcmp(argv[2], "--seconds") != 0 &&
		strcmp(argv[2], "--loads") != 0)) {
		fprintf(stderr,
		    "usage: baseline_mujoco MODEL --steps N | --seconds S | "
		    "--loads N\n");
		return 2;
	}
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
