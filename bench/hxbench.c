/*
 * hxbench: make bench, the performance figures of issue 7.  Each figure
 * is a ratio to a baseline measured side by side in the same run, since
 * absolute times on shared machines move from run to run: real haptixd
 * daemons from the build tree against a bare socket ping-pong, a bare
 * mj_step loop (baseline_mujoco) and a bare libevent timer.  Prints the
 * details as it goes, then one table (Markdown) for docs/benchmarks.md.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "haptix.h"
#include "haptixd.h"

#define BENCH_IDLE_CLIENTS 4
#define BENCH_STREAM_CLIENTS 8
#define BENCH_STREAM_HZ 60.0
#define BENCH_MEMORY_CLIENTS 16
#define BENCH_BATCH_STEPS 100
#define BENCH_PACING_PERIOD 0.002 /* the MPL scene's timestep */
#define BENCH_ROWS 96
#define BENCH_RTT_TARGET 1.15 /* a round trip against the bare one */
/* Over shared memory, against the bare Unix one: on one CPU, elsewhere. */
#define BENCH_SHM_TARGET_ONE 0.7
#define BENCH_SHM_TARGET_APART 0.3
/* A model of a few microseconds a step, in the models directory. */
#define BENCH_SMALL_MODEL "test/fixture.xml"
#define BENCH_EDITS 5              /* edits, and bare loads, in each round */
#define BENCH_EDIT_WARMUP 3        /* bare loads before those timed (edit) */
#define BENCH_EDIT_PAUSE_US 100000 /* between edits made as a user does */
#define BENCH_PY_CALLS 2000  /* get_state calls in each round, each side */
#define BENCH_PY_STEPS 10000 /* steps of the recorded batch run */
/* What Python may add to C's get_state over shared memory (us). */
#define BENCH_PY_SHM_ADDS 6.0
#define BENCH_COMPUTE_CALLS 2000 /* of each computation, each side */

static const char *const bench_figures[] = { "rtt", "max", "lockstep", "batch",
	"pacing", "memory", "record", "mocap", "edit", "python", "octave",
	"placement", "codec", "tls", "compute", NULL };

struct bench_options {
	unsigned figures; /* bit i: bench_figures[i] */
	long rtt_calls;   /* timed calls per transport */
	double seconds;   /* each rate measurement */
	int rounds;       /* daemon/baseline alternations of a rate figure */
	int segments;     /* pacing: bare timer/daemon alternations */
	double segment_seconds;
	const char *haptixd, *baseline, *models, *model;
	const char *codec;             /* bench/codec */
	const char *certs;             /* tests/hx-test-certs */
	const char *python, *pyscript; /* Debian's python3, py_bench.py */
};

/* A running daemon. */
struct daemon_proc {
	pid_t pid;
	char dir[96];
	char unix_addr[128];
	char tcp_addr[64];
	char log[128];
};

/* One row of the table. */
struct row {
	char figure[96], measured[64], baseline[160], ratio[32], target[48];
	int met; /* 1 met, 0 missed, -1 not judged */
};

static struct row rows[BENCH_ROWS];
static int nrows;
static char tmpdir[64];

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: hxbench [options]\n"
	    "\n"
	    "Measure haptixd against bare baselines in the same run and "
	    "print one table\n"
	    "(issue 7; docs/benchmarks.md).  make bench runs it from the "
	    "build tree.\n"
	    "\n"
	    "  -f, --figures LIST     some of rtt,max,lockstep,batch,pacing,"
	    "memory,\n"
	    "                         record,mocap,edit,python,octave,"
	    "placement,codec,\n"
	    "                         tls,compute\n"
	    "                         (default: all)\n"
	    "  -q, --quick            short runs, about 40 s in all: a smoke "
	    "test, not a\n"
	    "                         measurement\n"
	    "      --rtt-calls N      timed mj_get_state calls per transport "
	    "(default 20000)\n"
	    "      --seconds S        each rate measurement (default 2)\n"
	    "      --rounds N         daemon/baseline alternations of each "
	    "rate figure\n"
	    "                         (default 5; the median counts)\n"
	    "      --segments N       pacing: bare timer/daemon alternations "
	    "(default 12)\n"
	    "      --segment-seconds S\n"
	    "                         pacing: each segment (default 5)\n"
	    "      --haptixd PATH     the daemon (default: $HAPTIXD)\n"
	    "      --baseline PATH    the bare mj_step loop (default: "
	    "$HXBENCH_MUJOCO)\n"
	    "      --models DIR       model directory (default: $HX_MODELS)\n"
	    "  -m, --model FILE       model in DIR (default: mpl_scene.xml)\n"
	    "  -h, --help             show this help\n");
}

static void __attribute__((format(printf, 1, 2), noreturn))
die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "hxbench: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(1);
}

static void
sleep_seconds(double s)
{
	struct timespec ts;

	ts.tv_sec = (time_t)s;
	ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The share p of sorted samples lie at or below the result. */
static double
percentile(const double *sorted, size_t n, double p)
{
	size_t rank = (size_t)ceil(p * (double)n);

	if (n == 0)
		return 0;
	return sorted[rank < 1 ? 0 : rank - 1];
}

static double
median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void __attribute__((format(printf, 2, 3)))
add_row(int met, const char *fmt, ...)
{
	struct row *r;
	va_list ap;
	char line[512], *f[5], *p = line;
	int i;

	if (nrows == BENCH_ROWS)
		die("too many rows");
	r = &rows[nrows++];
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	/* Columns separated by '|': figure, measured, baseline, ratio, target. */
	for (i = 0; i < 5; i++) {
		f[i] = p != NULL ? strsep(&p, "|") : (char *)"";
	}
	snprintf(r->figure, sizeof(r->figure), "%s", f[0]);
	snprintf(r->measured, sizeof(r->measured), "%s", f[1]);
	snprintf(r->baseline, sizeof(r->baseline), "%s", f[2]);
	snprintf(r->ratio, sizeof(r->ratio), "%s", f[3]);
	snprintf(r->target, sizeof(r->target), "%s", f[4]);
	r->met = met;
}

/*------------------------------------------------------------ daemons */

static int
rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

static void
remove_tmpdir(void)
{
	if (tmpdir[0] != '\0')
		nftw(tmpdir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
}

/* The daemon's whole log so far, in buf. */
static void
daemon_log(const struct daemon_proc *p, char *buf, size_t len)
{
	FILE *f = fopen(p->log, "r");
	size_t n = 0;

	if (f != NULL) {
		n = fread(buf, 1, len - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
}

/*
 * Start haptixd on the model with extra arguments, on a fresh Unix
 * socket and an ephemeral loopback port, and wait until it is ready.
 * No -v: logging each request would be measured too.
 */
static void
daemon_start(const struct bench_options *o, struct daemon_proc *p,
    const char *const *extra)
{
	static int serial;
	const char *argv[32];
	char sock[112], buf[8192], *t;
	int n = 0, i, fd;

	memset(p, 0, sizeof(*p));
	snprintf(p->dir, sizeof(p->dir), "%s/d%d", tmpdir, serial++);
	if (mkdir(p->dir, 0700) != 0)
		die("mkdir %s: %s", p->dir, strerror(errno));
	snprintf(sock, sizeof(sock), "%s/hx.sock", p->dir);
	snprintf(p->unix_addr, sizeof(p->unix_addr), "unix:%s", sock);
	snprintf(p->log, sizeof(p->log), "%s/haptixd.log", p->dir);
	argv[n++] = o->haptixd;
	argv[n++] = "--config";
	argv[n++] = "none";
	argv[n++] = "--unix";
	argv[n++] = sock;
	argv[n++] = "--tcp";
	argv[n++] = "127.0.0.1:0";
	argv[n++] = "-M";
	argv[n++] = o->models;
	argv[n++] = "-m";
	argv[n++] = o->model;
	argv[n++] = "--state-dir";
	argv[n++] = p->dir;
	for (i = 0; extra != NULL && extra[i] != NULL; i++)
		argv[n++] = extra[i];
	argv[n] = NULL;

	p->pid = fork();
	if (p->pid == -1)
		die("fork: %s", strerror(errno));
	if (p->pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		fd = open(p->log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd == -1)
			_exit(126);
		dup2(fd, 2);
		close(fd);
		fd = open("/dev/null", O_RDWR);
		dup2(fd, 0);
		dup2(fd, 1);
		close(fd);
		unsetenv("NOTIFY_SOCKET");
		unsetenv("LISTEN_FDS");
		unsetenv("LISTEN_PID");
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	for (i = 0; i < 2000; i++) {
		if (waitpid(p->pid, NULL, WNOHANG) == p->pid) {
			daemon_log(p, buf, sizeof(buf));
			die("%s exited before it was ready:\n%s", o->haptixd,
			    buf);
		}
		daemon_log(p, buf, sizeof(buf));
		if (strstr(buf, "ready (") != NULL &&
		    ((t = strstr(buf, "listening on tls:")) != NULL ||
			(t = strstr(buf, "listening on tcp:")) != NULL)) {
			/* tls:HOST:PORT keeps its scheme; tcp: goes. */
			t += strlen(strncmp(t + 13, "tls", 3) == 0 ?
				"listening on " :
				"listening on tcp:");
			snprintf(p->tcp_addr, sizeof(p->tcp_addr), "%.*s",
			    (int)strcspn(t, " \n"), t);
			return;
		}
		sleep_seconds(0.01);
	}
	kill(p->pid, SIGKILL);
	waitpid(p->pid, NULL, 0);
	die("haptixd was not ready within 20 s:\n%s", buf);
}

static void
daemon_stop(struct daemon_proc *p)
{
	int status;

	if (p->pid <= 0)
		return;
	kill(p->pid, SIGTERM);
	if (waitpid(p->pid, &status, 0) == p->pid &&
	    !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
		fprintf(
		    stderr, "hxbench: haptixd exited with status %d\n", status);
	p->pid = 0;
}

static hxd_conn *
connect_or_die(const char *addr, const char *name)
{
	hxd_conn *c = hxd_connect(addr, name);

	if (c == NULL || hxd_result(c) != HXD_OK)
		die("cannot connect to %s: %s", addr,
		    c != NULL ? hxd_error(c) : "out of memory");
	hxd_set_timeout(c, 60000);
	return c;
}

static void
check(hxd_conn *c, int rc, const char *what)
{
	if (rc != HXD_OK)
		die("%s: %s", what, hxd_error(c));
}

static void
status_or_die(hxd_conn *c, hxd_status *st)
{
	check(c, hxd_status_get(c, st), "status");
}

/*------------------------------------------------ bare mj_step loop */

struct mujoco_run {
	unsigned long long steps;
	double seconds;
	long rss_kib;
	double cpu; /* the loop's CPU seconds */
};

/* Run baseline_mujoco with "--steps N" or "--seconds S". */
static void
mujoco_baseline(const struct bench_options *o, const char *how,
    const char *value, struct mujoco_run *out)
{
	char cmd[2048], model[1024], line[256];
	FILE *f;

	snprintf(model, sizeof(model), "%s/%s", o->models, o->model);
	snprintf(cmd, sizeof(cmd), "'%s' '%s' %s %s", o->baseline, model, how,
	    value);
	if ((f = popen(cmd, "r")) == NULL)
		die("cannot run %s", o->baseline);
	if (fgets(line, sizeof(line), f) == NULL ||
	    sscanf(line, "steps %llu seconds %lf rss_kib %ld cpu %lf",
		&out->steps, &out->seconds, &out->rss_kib, &out->cpu) != 4 ||
	    out->seconds <= 0) {
		pclose(f);
		die("%s did not measure", o->baseline);
	}
	pclose(f);
}

/* The bare loop over n steps from the start (1000 at least). */
static void
mujoco_steps(const struct bench_options *o, unsigned long long steps,
    struct mujoco_run *r)
{
	char n[32];

	snprintf(n, sizeof(n), "%llu", steps < 1000 ? 1000 : steps);
	mujoco_baseline(o, "--steps", n, r);
}

/* The bare loop's rate over the same number of steps from the start. */
static double
mujoco_rate(const struct bench_options *o, unsigned long long steps)
{
	struct mujoco_run r;

	mujoco_steps(o, steps, &r);
	return (double)r.steps / r.seconds;
}

/*---------------------------------------------------------- figures */

/* The HAPTIX connection's counters: requests, bytes in and out. */
static void
session_bytes(hxd_conn *ctl, const char *name, unsigned long long v[3])
{
	hxd_client *cl;
	int n, i;

	check(ctl, hxd_clients(ctl, &cl, &n, NULL), "clients");
	v[0] = v[1] = v[2] = 0;
	for (i = 0; i < n; i++) {
		if (strcmp(cl[i].name, name) == 0) {
			v[0] = cl[i].requests;
			v[1] = cl[i].bytes_in;
			v[2] = cl[i].bytes_out;
		}
	}
	free(cl);
}

/* One timed call of a round-trip figure (the i-th). */
typedef void (*bench_call)(void *arg, long i);

/*
 * Where a round-trip figure runs its client and servers: the client on
 * CPU 0 and both servers (the daemon, the bare child) on CPU 0 too, or
 * on CPU 1, or wherever the scheduler puts them.
 */
enum placement { PLACE_ONE, PLACE_ACROSS, PLACE_FREE };

static const char *const placement_names[] = { "one CPU", "across CPUs",
	"unpinned" };

/* A round-trip figure's times, sorted, and what they were measured on. */
struct rtt_times {
	double *dm, *bare; /* n each, ascending */
	long n;
	size_t req,
	    resp;   /* bytes of a request and an answer, frames included */
	int pinned; /* the placement asked for could be made */
	/* Unpinned: blocks that ended with the server on the client's CPU. */
	int dm_same, bare_same, blocks;
};

/* Pin the client and a server as the placement says; 0, or -1. */
static int
place(enum placement where, pid_t server)
{
	switch (where) {
	case PLACE_ONE:
		return bench_pin(0, 0) == 0 && bench_pin(server, 0) == 0 ? 0 :
									   -1;
	case PLACE_ACROSS:
		return bench_pin(0, 0) == 0 && bench_pin(server, 1) == 0 ? 0 :
									   -1;
	case PLACE_FREE:
		break;
	}
	return bench_pin(0, -1) == 0 && bench_pin(server, -1) == 0 ? 0 : -1;
}

/*
 * Time total calls of fn (made by the client named name on server dp)
 * in blocks alternating with a bare ping-pong of the same byte counts
 * over the same transport, so that what else the machine does falls on
 * both alike.  warm calls first measure the sizes from the server's own
 * counters.
 */
static void
rtt_alternate(struct daemon_proc *dp, hxd_conn *ctl, const char *name, int tcp,
    enum placement where, long warm, long block, long total, bench_call fn,
    void *arg, struct rtt_times *out)
{
	unsigned long long before[3], after[3];
	struct pingpong *pp;
	double t0;
	long i, n;

	out->dm = calloc((size_t)total, sizeof(*out->dm));
	out->bare = calloc((size_t)total, sizeof(*out->bare));
	if (out->dm == NULL || out->bare == NULL)
		die("out of memory");
	session_bytes(ctl, name, before);
	for (i = 0; i < warm; i++)
		fn(arg, i);
	session_bytes(ctl, name, after);
	if (after[0] - before[0] != (unsigned long long)warm)
		die("the server counted %llu requests, not %ld",
		    after[0] - before[0], warm);
	/* Rounded: a request's id takes one to three bytes. */
	out->req = (size_t)((after[1] - before[1] + warm / 2) /
	    (unsigned long long)warm);
	out->resp = (size_t)((after[2] - before[2] + warm / 2) /
	    (unsigned long long)warm);
	if ((pp = net_pingpong_open(
		 tcp, out->req, out->resp, 0, PINGPONG_RECV)) == NULL)
		die("the bare ping-pong failed");
	/*
	 * Both servers placed alike: on an idle virtual machine, waking a
	 * process on another CPU costs some 40 us, one on the same CPU
	 * little.  Pinned, same placement, same wakeups: a fair ratio.
	 * Unpinned, the scheduler decides for each pair; each block's end
	 * tells where the server last ran.
	 */
	out->pinned = place(where, dp->pid) == 0 &&
	    place(where, net_pingpong_server(pp)) == 0;
	out->dm_same = out->bare_same = out->blocks = 0;
	if (net_pingpong_run(pp, (size_t)warm, NULL) != 0)
		die("the bare ping-pong failed");
	for (n = 0; n + block <= total; n += block) {
		for (i = 0; i < block; i++) {
			t0 = bench_now();
			fn(arg, i);
			out->dm[n + i] = bench_now() - t0;
		}
		out->dm_same += bench_last_cpu(dp->pid) == bench_last_cpu(0);
		if (net_pingpong_run(pp, (size_t)block, out->bare + n) != 0)
			die("the bare ping-pong failed");
		out->bare_same += bench_last_cpu(net_pingpong_server(pp)) ==
		    bench_last_cpu(0);
		out->blocks++;
	}
	net_pingpong_close(pp);
	place(PLACE_FREE, dp->pid);
	qsort(out->dm, (size_t)n, sizeof(*out->dm), cmp_double);
	qsort(out->bare, (size_t)n, sizeof(*out->bare), cmp_double);
	out->n = n;
}

/* mj_get_state, HAPTIX's own call. */
static void
rtt_get_state(void *arg, long i)
{
	(void)i;
	if (mj_get_state(arg) != mjCOM_OK)
		die("mj_get_state: %s", hx_last_result());
}

/*
 * mj_get_state round trips over one transport, alternating in short
 * blocks with a bare ping-pong of the same byte counts, so that what
 * else the machine does falls on both alike: with the client and the
 * servers on one CPU, on two, and unpinned.
 */
/* The transports of the round-trip figure. */
enum rtt_transport { RTT_UNIX, RTT_TCP, RTT_SHM };

static const char *const rtt_transport_names[] = { "Unix socket", "TCP",
	"shared memory" };

/* The target of a round trip over t placed at w, against the bare one. */
static double
rtt_target(enum rtt_transport t, enum placement w)
{
	if (t != RTT_SHM)
		return BENCH_RTT_TARGET;
	return w == PLACE_ONE ? BENCH_SHM_TARGET_ONE : BENCH_SHM_TARGET_APART;
}

/* Connect HAPTIX's connection over t: the socket alone, or shm:. */
static void
rtt_connect(struct daemon_proc *dp, enum rtt_transport t)
{
	char addr[160];
	int rc;

	switch (t) {
	case RTT_TCP:
		rc = mj_connect(dp->tcp_addr);
		break;
	case RTT_UNIX:
		setenv("HAPTIX_SHM", "0", 1);
		rc = mj_connect(dp->unix_addr);
		unsetenv("HAPTIX_SHM");
		break;
	default:
		snprintf(addr, sizeof(addr), "shm:%s", dp->unix_addr + 5);
		rc = mj_connect(addr);
		break;
	}
	if (rc != mjCOM_OK)
		die("mj_connect over %s: %s", rtt_transport_names[t],
		    hx_last_result());
}

static void
fig_rtt_one(const struct bench_options *o, struct daemon_proc *dp,
    hxd_conn *ctl, enum rtt_transport t)
{
	const char *tname = rtt_transport_names[t], *pname;
	const int tcp = t == RTT_TCP;
	double target;
	const long block = 500;
	long i, n, total = o->rtt_calls < block ? block : o->rtt_calls;
	double *dm, *bare, t0, ratio, d50, d99, b50, b99;
	struct rtt_times rt;
	size_t req, resp;
	mjState *st;
	char where[96];
	int w, apart;

	if ((st = calloc(1, sizeof(*st))) == NULL)
		die("out of memory");
	rtt_connect(dp, t);
	for (w = PLACE_ONE; w <= PLACE_FREE; w++) {
		pname = placement_names[w];
		target = rtt_target(t, (enum placement)w);
		rtt_alternate(dp, ctl, program_invocation_short_name, tcp,
		    (enum placement)w, 1000, block, total, rtt_get_state, st,
		    &rt);
		dm = rt.dm;
		bare = rt.bare;
		n = rt.n;
		req = rt.req;
		resp = rt.resp;
		d50 = percentile(dm, (size_t)n, 0.5);
		d99 = percentile(dm, (size_t)n, 0.99);
		b50 = percentile(bare, (size_t)n, 0.5);
		b99 = percentile(bare, (size_t)n, 0.99);
		printf("rtt %s, %s: %zu-byte requests, %zu-byte answers "
		       "(frames included), %ld calls each in blocks of %ld%s: "
		       "haptixd p50 %.1f p99 %.1f max %.1f us; bare p50 %.1f "
		       "p99 %.1f max %.1f us\n",
		    tname, pname, req, resp, n, block,
		    rt.pinned ? "" : " (could not pin)", d50 * 1e6, d99 * 1e6,
		    dm[n - 1] * 1e6, b50 * 1e6, b99 * 1e6, bare[n - 1] * 1e6);
		if (w == PLACE_FREE)
			printf("rtt %s, %s: the server on the client's "
			       "CPU at the end of %d of %d blocks for haptixd, "
			       "%d for the bare ping-pong\n",
			    tname, pname, rt.dm_same, rt.blocks, rt.bare_same);
		/*
		 * Unpinned, one client alternating between two servers often
		 * ends beside one and apart from the other, for any two
		 * servers (fig_placement): judged only when both pairs ended
		 * alike.
		 */
		apart = w == PLACE_FREE &&
		    abs(rt.dm_same - rt.bare_same) > rt.blocks / 4;
		if (apart)
			snprintf(where, sizeof(where),
			    "; not alike: on the client's CPU in %d and %d "
			    "of %d blocks",
			    rt.dm_same, rt.bare_same, rt.blocks);
		else
			where[0] = '\0';
		ratio = d50 / b50;
		add_row(apart ? -1 : ratio <= target,
		    "`mj_get_state` round trip, %s, %s, p50|%.1f µs|%.1f µs "
		    "(bare %s ping-pong, %zu/%zu B%s)|%.3f×|≤ %g×",
		    tname, pname, d50 * 1e6, b50 * 1e6, tcp ? "TCP" : "Unix",
		    req, resp, where, ratio, target);
		ratio = d99 / b99;
		add_row(apart ? -1 : ratio <= target,
		    "`mj_get_state` round trip, %s, %s, p99|%.1f µs|%.1f "
		    "µs|%.3f×|≤ %g×",
		    tname, pname, d99 * 1e6, b99 * 1e6, ratio, target);
		if (w != PLACE_FREE) {
			free(dm);
			free(bare);
		}
	}
	/*
	 * For the record, not the table: running at speed 1, a call that
	 * comes during a step (of some 60 to 140 us, every 2 ms) waits.
	 */
	check(ctl, hxd_run(ctl), "run");
	for (i = 0; i < n / 4; i++) {
		t0 = bench_now();
		if (mj_get_state(st) != mjCOM_OK)
			die("mj_get_state: %s", hx_last_result());
		dm[i] = bench_now() - t0;
	}
	check(ctl, hxd_pause(ctl), "pause");
	mj_close();
	qsort(dm, (size_t)i, sizeof(*dm), cmp_double);
	printf("rtt %s, running at speed 1, unpinned: haptixd p50 %.1f p99 "
	       "%.1f max %.1f us (%ld calls)\n",
	    tname, percentile(dm, (size_t)i, 0.5) * 1e6,
	    percentile(dm, (size_t)i, 0.99) * 1e6, dm[i - 1] * 1e6, i);
	free(dm);
	free(bare);
	free(st);
}

/*
 * A motion-capture driver's pose: the round trip of mocap_pose over the
 * Unix socket beside the bare ping-pong of the same sizes; then, running
 * at speed 1 and connected, poses at 240 Hz (OptiTrack's rate) and the
 * latency the server reports from each pose's sampling to the step that
 * used it, beside the step period a pose may wait at most.
 */
/* One mocap_pose, the pose moving a little each time. */
static void
rtt_mocap_pose(void *arg, long i)
{
	double pos[3] = { 1e-6 * (double)i, 0, 0.85 }, quat[4] = { 1, 0, 0, 0 };

	check(arg, hxd_mocap_pose(arg, 0, NULL, pos, quat, 0, 0, NULL),
	    "mocap_pose");
}

static void
fig_mocap(const struct bench_options *o, struct daemon_proc *dp, hxd_conn *ctl)
{
	const long block = 500;
	long n, total = o->rtt_calls < block ? block : o->rtt_calls;
	double *dm, *bare, *lat, d50, b50, l50, l99, period, next;
	double pos[3] = { 0, 0, 0.85 }, quat[4] = { 1, 0, 0, 0 };
	struct rtt_times rt;
	hxd_tracking t;
	hxd_status st;
	size_t req, resp;
	hxd_conn *c;
	long nl = 0, sent = 0;

	lat = calloc((size_t)(o->seconds * 240 + 16), sizeof(*lat));
	if (lat == NULL)
		die("out of memory");
	c = connect_or_die(dp->unix_addr, "hxbench-mocap");
	rtt_alternate(dp, ctl, "hxbench-mocap", 0, PLACE_ACROSS, 500, block,
	    total, rtt_mocap_pose, c, &rt);
	dm = rt.dm;
	bare = rt.bare;
	n = rt.n;
	req = rt.req;
	resp = rt.resp;
	d50 = percentile(dm, (size_t)n, 0.5);
	b50 = percentile(bare, (size_t)n, 0.5);
	printf("mocap Unix: %zu-byte requests, %zu-byte answers, %ld calls "
	       "each: haptixd p50 %.1f p99 %.1f us; bare p50 %.1f p99 %.1f "
	       "us\n",
	    req, resp, n, d50 * 1e6, percentile(dm, (size_t)n, 0.99) * 1e6,
	    b50 * 1e6, percentile(bare, (size_t)n, 0.99) * 1e6);
	add_row(d50 / b50 <= 1.3,
	    "`mocap_pose` round trip, Unix, p50|%.1f µs|%.1f µs (bare "
	    "ping-pong, %zu/%zu B)|%.3f×|≤ 1.3×",
	    d50 * 1e6, b50 * 1e6, req, resp, d50 / b50);

	/* Running, connected: each answer tells the previous pose's
	 * latency once a step has used it. */
	check(ctl, hxd_status_get(ctl, &st), "status");
	period = 1 / (st.speed * 500); /* mpl_scene's 2 ms step */
	check(c, hxd_mocap_connect(c, 0, NULL, 1, NULL), "connect");
	check(ctl, hxd_run(ctl), "run");
	next = bench_now();
	while (sent < (long)(o->seconds * 240)) {
		while (bench_now() < next)
			;
		next += 1.0 / 240;
		pos[2] = 0.85 + 0.01 * sin((double)sent / 40);
		check(c,
		    hxd_mocap_pose(c, 0, NULL, pos, quat,
			(long long)(bench_wall() * 1e6), 0, &t),
		    "mocap_pose");
		sent++;
		if (t.latency >= 0)
			lat[nl++] = t.latency;
	}
	if (nl == 0)
		die("no pose reached the physics");
	check(ctl, hxd_pause(ctl), "pause");
	check(c, hxd_mocap_connect(c, 0, NULL, 0, NULL), "disconnect");
	hxd_close(c);
	qsort(lat, (size_t)nl, sizeof(*lat), cmp_double);
	l50 = percentile(lat, (size_t)nl, 0.5);
	l99 = percentile(lat, (size_t)nl, 0.99);
	printf("mocap 240 Hz, running at speed 1: sampling to the physics "
	       "p50 %.2f p99 %.2f max %.2f ms (%ld poses; a step every "
	       "%.1f ms)\n",
	    l50 * 1e3, l99 * 1e3, lat[nl - 1] * 1e3, nl, period * 1e3);
	add_row(l99 <= period + 0.0005,
	    "mocap pose, sampling to the step using it, 240 Hz, p99|%.2f "
	    "ms|%.1f ms (a step period)|%.3f×|≤ 1 period + 0.5 ms",
	    l99 * 1e3, period * 1e3, l99 / period);
	free(dm);
	free(bare);
	free(lat);
}

/* Parse a line of seconds, as octave_rtt.m writes them, into n values. */
static long
octave_times(const char *line, double *v, long n)
{
	char *end;
	long k;

	for (k = 0; k < n; k++) {
		v[k] = strtod(line, &end);
		if (end == line)
			break;
		line = end;
	}
	return k;
}

/*
 * The MATLAB API's cost: mj_get_state from Octave (the wrapper, through
 * the MEX file mjhx) against the C library's mj_get_state, on the same
 * paused daemon over the Unix socket, unpinned, in alternating blocks:
 * each Octave block is one octave-cli running bench/octave_rtt.m, which
 * warms up, times its calls and prints the times (Octave reads a pipe
 * only to its end, so one process cannot be driven block by block).
 * Skipped, with the reason, without the MEX file (configure found no
 * mkoctfile).
 */
static void
fig_octave(const struct bench_options *o, struct daemon_proc *dp)
{
	const long block = 500;
	long total = o->rtt_calls / 4 < block ? block : o->rtt_calls / 4;
	const char *octave = getenv("OCTAVE_CLI"), *mexdir, *script;
	char mex[512], cmd[2048], *line = NULL;
	double *c, *m, *d, t0, c50, m50, d50;
	size_t cap = 0;
	long n, k;
	mjState *st;
	FILE *from;

	if (octave == NULL || *octave == '\0')
		octave = "octave-cli";
	mexdir = getenv("HX_MATLAB");
	script = getenv("HXBENCH_OCTAVE");
	snprintf(mex, sizeof(mex), "%s/mjhx.mex", mexdir ? mexdir : ".");
	if (mexdir == NULL || script == NULL || access(mex, R_OK) != 0) {
		printf("octave: skipped: no %s (configure found no mkoctfile; "
		       "install liboctave-dev)\n",
		    mex);
		return;
	}
	c = calloc((size_t)total, sizeof(*c));
	m = calloc((size_t)total, sizeof(*m));
	d = calloc((size_t)total, sizeof(*d));
	st = calloc(1, sizeof(*st));
	if (c == NULL || m == NULL || d == NULL || st == NULL)
		die("out of memory");
	/* Octave's history and settings go to a home in the scratch dir. */
	snprintf(cmd, sizeof(cmd),
	    "mkdir -p %s/octave-home && HOME=%s/octave-home %s "
	    "--no-init-file --no-history --quiet --eval \"addpath('%s'); "
	    "addpath(fileparts('%s')); octave_rtt('%s', %ld);\"",
	    tmpdir, tmpdir, octave, mexdir, script, dp->unix_addr, block);
	if (mj_connect(dp->unix_addr) != mjCOM_OK)
		die("mj_connect: %s", hx_last_result());
	for (k = 0; k < 1000; k++)
		rtt_get_state(st, k);
	for (n = 0; n + block <= total; n += block) {
		for (k = 0; k < block; k++) {
			t0 = bench_now();
			rtt_get_state(st, k);
			c[n + k] = bench_now() - t0;
		}
		if ((from = popen(cmd, "r")) == NULL)
			die("popen %s: %s", octave, strerror(errno));
		if (getline(&line, &cap, from) <= 0 ||
		    octave_times(line, m + n, block) != block ||
		    getline(&line, &cap, from) <= 0 ||
		    octave_times(line, d + n, block) != block)
			die("%s did not run octave_rtt.m (see above)", octave);
		if (pclose(from) != 0)
			die("%s failed (see above)", octave);
	}
	free(line);
	mj_close();
	qsort(c, (size_t)n, sizeof(*c), cmp_double);
	qsort(m, (size_t)n, sizeof(*m), cmp_double);
	qsort(d, (size_t)n, sizeof(*d), cmp_double);
	c50 = percentile(c, (size_t)n, 0.5);
	m50 = percentile(m, (size_t)n, 0.5);
	d50 = percentile(d, (size_t)n, 0.5);
	printf("octave Unix, unpinned, %ld calls each in blocks of %ld: "
	       "mj_get_state.m p50 %.1f p99 %.1f max %.1f us; "
	       "mjhx('mj_get_state') p50 %.1f p99 %.1f us; "
	       "C mj_get_state p50 %.1f p99 %.1f max %.1f us\n",
	    n, block, m50 * 1e6, percentile(m, (size_t)n, 0.99) * 1e6,
	    m[n - 1] * 1e6, d50 * 1e6, percentile(d, (size_t)n, 0.99) * 1e6,
	    c50 * 1e6, percentile(c, (size_t)n, 0.99) * 1e6, c[n - 1] * 1e6);
	add_row(-1,
	    "`mj_get_state` round trip from Octave (`mj_get_state.m`), Unix, "
	    "unpinned, p50|%.1f µs|%.1f µs (C `mj_get_state`)|%.3f×||",
	    m50 * 1e6, c50 * 1e6, m50 / c50);
	add_row(-1,
	    "`mj_get_state` round trip from Octave, Unix, unpinned, "
	    "p99|%.1f µs|%.1f µs|%.3f×||",
	    percentile(m, (size_t)n, 0.99) * 1e6,
	    percentile(c, (size_t)n, 0.99) * 1e6,
	    percentile(m, (size_t)n, 0.99) / percentile(c, (size_t)n, 0.99));
	add_row(-1,
	    "`mj_get_state` round trip from Octave (`mjhx` itself), Unix, "
	    "unpinned, p50|%.1f µs|%.1f µs (C `mj_get_state`)|%.3f×||",
	    d50 * 1e6, c50 * 1e6, d50 / c50);
	free(c);
	free(m);
	free(d);
	free(st);
}

static void
fig_rtt(const struct bench_options *o, struct daemon_proc *dp, hxd_conn *ctl)
{
	fig_rtt_one(o, dp, ctl, RTT_UNIX);
	fig_rtt_one(o, dp, ctl, RTT_SHM);
	fig_rtt_one(o, dp, ctl, RTT_TCP);
}

/*
 * The control of the unpinned rows: no daemon, two bare servers with
 * mj_get_state's byte counts over Unix (9 and 788), one blocked in recv
 * and one waiting in epoll_wait as haptixd's loop does, unpinned, in
 * alternating blocks as the rtt figure runs them; the first run starts
 * with the recv server, the second with the epoll one, and so on.  Each
 * run says after how many blocks each was on the client's CPU.
 */
static void
fig_placement(const struct bench_options *o)
{
	static const char *const kind[2] = { "blocking `recv`",
		"`epoll_wait` then `recv`" };
	const long block = 500, blocks = 40;
	struct pingpong *pp[2];
	double *t[2], p50[2];
	int run, k, first, same[2];
	long b;

	for (k = 0; k < 2; k++)
		if ((t[k] = calloc((size_t)(block * blocks), sizeof(double))) ==
		    NULL)
			die("out of memory");
	for (run = 1; run <= (o->rtt_calls < 20000 ? 2 : 4); run++) {
		first = (run - 1) % 2;
		for (k = 0; k < 2; k++) {
			pp[k] = net_pingpong_open(0, 9, 788, 0,
			    k == 0 ? PINGPONG_RECV : PINGPONG_EPOLL);
			if (pp[k] == NULL ||
			    place(PLACE_FREE, net_pingpong_server(pp[k])) !=
				0 ||
			    net_pingpong_run(pp[k], (size_t)block, NULL) != 0)
				die("the bare ping-pong failed");
			same[k] = 0;
		}
		for (b = 0; b < 2 * blocks; b++) {
			k = (int)(b + first) % 2;
			if (net_pingpong_run(pp[k], (size_t)block,
				t[k] + b / 2 * block) != 0)
				die("the bare ping-pong failed");
			same[k] += bench_last_cpu(net_pingpong_server(pp[k])) ==
			    bench_last_cpu(0);
		}
		/* The second child holds the first's socket: it goes first. */
		net_pingpong_close(pp[1]);
		net_pingpong_close(pp[0]);
		for (k = 0; k < 2; k++) {
			qsort(t[k], (size_t)(block * blocks), sizeof(double),
			    cmp_double);
			p50[k] = percentile(
			    t[k], (size_t)(block * blocks), 0.5);
			printf("placement run %d (%s first): %s server on the "
			       "client's CPU after %d of %ld blocks, p50 %.1f "
			       "us\n",
			    run, kind[first], kind[k], same[k], blocks,
			    p50[k] * 1e6);
		}
		add_row(-1,
		    "two bare servers unpinned, Unix, run %d (%s first), "
		    "p50|%.1f µs (`epoll_wait`; beside in %d of %ld)|%.1f µs "
		    "(blocking `recv`; beside in %d of %ld)|%.3f×||",
		    run, first ? "`epoll_wait`" : "`recv`", p50[1] * 1e6,
		    same[1], blocks, p50[0] * 1e6, same[0], blocks,
		    p50[1] / p50[0]);
	}
	free(t[0]);
	free(t[1]);
}

/* The round whose ratio is the median of r's n (the lower of two). */
static int
median_round(const double *r, int n)
{
	double sorted[64];
	int i, m = 0;

	memcpy(sorted, r, (size_t)n * sizeof(*sorted));
	qsort(sorted, (size_t)n, sizeof(*sorted), cmp_double);
	for (i = 0; i < n; i++)
		if (r[i] == sorted[(n - 1) / 2])
			m = i;
	return m;
}

/*
 * Print the rounds of a rate figure and add its row: the round of the
 * median ratio (the lower middle one of an even count), so that its
 * rates and ratio belong together.
 */
static void
rate_row(const char *figure, const double *dm, const double *bl, int rounds,
    double target, const char *baseline)
{
	double r[64];
	int i, m;

	for (i = 0; i < rounds; i++) {
		r[i] = dm[i] / bl[i];
		printf("  round %d: %.0f steps/s, baseline %.0f steps/s, "
		       "%.3f×\n",
		    i + 1, dm[i], bl[i], r[i]);
	}
	m = median_round(r, rounds);
	add_row(r[m] >= target, "%s|%.0f steps/s|%.0f steps/s (%s)|%.3f×|≥ %g×",
	    figure, dm[m], bl[m], baseline, r[m], target);
}

/* rate_row() with the figure's name formatted. */
static void __attribute__((format(printf, 6, 7)))
rate_row_fmt(const double *dm, const double *bl, int rounds, double target,
    const char *baseline, const char *fmt, ...)
{
	char figure[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(figure, sizeof(figure), fmt, ap);
	va_end(ap);
	rate_row(figure, dm, bl, rounds, target, baseline);
}

/*
 * One round at --speed max: steps per second, recording with flags
 * (HXD_RECORD_*) or, with flags < 0, not recording; the steps taken into
 * *steps (may be NULL).
 */
static double
max_round(const struct bench_options *o, hxd_conn *ctl, int flags,
    hxd_recording *rec, unsigned long long *steps)
{
	hxd_status s0, s1;
	double t0, t1;

	check(ctl, hxd_reset(ctl, -1), "reset");
	if (flags >= 0)
		check(ctl, hxd_record_start(ctl, 0, 0, (unsigned)flags, NULL),
		    "record start");
	status_or_die(ctl, &s0);
	check(ctl, hxd_run(ctl), "run");
	t0 = bench_now();
	sleep_seconds(o->seconds);
	/* Pausing stops the count where the time is taken. */
	check(ctl, hxd_pause(ctl), "pause");
	t1 = bench_now();
	status_or_die(ctl, &s1);
	if (flags >= 0)
		check(ctl, hxd_record_stop(ctl, rec), "record stop");
	if (steps != NULL)
		*steps = s1.steps - s0.steps;
	return (double)(s1.steps - s0.steps) / (t1 - t0);
}

/* Steps per second at --speed max with idle clients connected. */
static void
fig_max(const struct bench_options *o, struct daemon_proc *dp, hxd_conn *ctl)
{
	hxd_conn *idle[BENCH_IDLE_CLIENTS];
	double dm[64], bl[64];
	unsigned long long steps;
	char name[32];
	int i, r;

	for (i = 0; i < BENCH_IDLE_CLIENTS; i++) {
		snprintf(name, sizeof(name), "idle-%d", i);
		idle[i] = connect_or_die(dp->unix_addr, name);
	}
	check(ctl, hxd_set_speed(ctl, 0, 1), "speed max");
	printf("max: --speed max, %d idle clients, %g s a round\n",
	    BENCH_IDLE_CLIENTS, o->seconds);
	for (r = 0; r < o->rounds; r++) {
		dm[r] = max_round(o, ctl, -1, NULL, &steps);
		bl[r] = mujoco_rate(o, steps);
	}
	check(ctl, hxd_set_speed(ctl, 1, 0), "speed 1");
	for (i = 0; i < BENCH_IDLE_CLIENTS; i++)
		hxd_close(idle[i]);
	rate_row("steps/s at `--speed max`, 4 idle clients", dm, bl, o->rounds,
	    0.95, "bare `mj_step` loop");
}

/*
 * The cost of recording every step at --speed max, against the same
 * daemon not recording, and the bytes a recorded step takes.
 */
static void
fig_record(const struct bench_options *o, hxd_conn *ctl)
{
	double bare[64], rec[64], jrn[64], raw, per;
	hxd_recording r, rj;
	hxd_status st;
	int i;

	check(ctl, hxd_set_speed(ctl, 0, 1), "speed max");
	printf("record: --speed max, recording every step (HAPTIX's "
	       "fields), without and with the journal, %g s a round\n",
	    o->seconds);
	for (i = 0; i < o->rounds; i++) {
		bare[i] = max_round(o, ctl, -1, NULL, NULL);
		rec[i] = max_round(o, ctl, 0, &r, NULL);
		jrn[i] = max_round(o, ctl, HXD_RECORD_JOURNAL, &rj, NULL);
	}
	check(ctl, hxd_set_speed(ctl, 1, 0), "speed 1");
	rate_row("steps/s recording every step", rec, bare, o->rounds, 0.9,
	    "not recording");
	rate_row("steps/s recording every step, with the journal", jrn, bare,
	    o->rounds, 0.8, "not recording");
	/* A state record: tag, length, step, time, then the doubles. */
	status_or_die(ctl, &st);
	raw = 24.0 +
	    8.0 *
		(st.model.nq + st.model.nv + st.model.nu + 7 * st.model.nmocap +
		    st.model.nsensordata);
	per = r.records > 0 ? (double)r.bytes / (double)r.records : 0;
	add_row(-1,
	    "bytes per recorded step, zstd level 1|%.0f B|%.0f B "
	    "uncompressed|%.2f×|",
	    per, raw, per > 0 ? raw / per : 0);
	add_row(-1,
	    "bytes per recorded step with the journal (inputs, "
	    "hash, the model once)|%.0f B||| ",
	    rj.records > 0 ? (double)rj.bytes / (double)rj.records : 0);
}

/* The mean seconds of n round trips of a bare ping-pong, spinning work. */
static double
bare_mean(size_t req, size_t resp, double work, size_t n)
{
	struct pingpong *pp;
	double *t, mean = 0;
	size_t i;

	if ((t = calloc(n, sizeof(*t))) == NULL)
		die("out of memory");
	if ((pp = net_pingpong_open(0, req, resp, work, PINGPONG_RECV)) ==
		NULL ||
	    net_pingpong_run(pp, 200, NULL) != 0 ||
	    net_pingpong_run(pp, n, t) != 0)
		die("the bare ping-pong failed");
	net_pingpong_close(pp);
	for (i = 0; i < n; i++)
		mean += t[i] / (double)n;
	free(t);
	return mean;
}

/*
 * One round of lock-step: mj_update for o->seconds over transport t,
 * from a reset.  Returns the steps per second; *n the steps, req and
 * resp the bytes of a request and an answer, frames included.
 */
static double
lockstep_round(const struct bench_options *o, struct daemon_proc *dp,
    hxd_conn *ctl, enum rtt_transport t, unsigned long long *steps, size_t *req,
    size_t *resp)
{
	mjControl *ctrl = calloc(1, sizeof(*ctrl));
	mjSensor *sensor = calloc(1, sizeof(*sensor));
	unsigned long long n = 0, b0[3], b1[3];
	hxd_status s0, s1;
	double t0, now;

	if (ctrl == NULL || sensor == NULL)
		die("out of memory");
	rtt_connect(dp, t);
	if (mj_get_control(ctrl) != mjCOM_OK)
		die("mj_get_control: %s", hx_last_result());
	check(ctl, hxd_reset(ctl, -1), "reset");
	status_or_die(ctl, &s0);
	session_bytes(ctl, program_invocation_short_name, b0);
	t0 = now = bench_now();
	while (now - t0 < o->seconds) {
		if (mj_update(ctrl, sensor) != mjCOM_OK)
			die("mj_update: %s", hx_last_result());
		n++;
		now = bench_now();
	}
	session_bytes(ctl, program_invocation_short_name, b1);
	status_or_die(ctl, &s1);
	mj_close();
	if (s1.steps - s0.steps != n)
		die("%llu mj_update calls took %llu steps", n,
		    s1.steps - s0.steps);
	/* Rounded: a request's id takes one to three bytes. */
	*req = (size_t)((b1[1] - b0[1] + n / 2) / n);
	*resp = (size_t)((b1[2] - b0[2] + n / 2) / n);
	*steps = n;
	free(ctrl);
	free(sensor);
	return (double)n / (now - t0);
}

/*
 * Lock-step: one mj_update (HAPTIX's call) per step, unpinned, over the
 * Unix socket and over shared memory in alternating rounds, each against
 * the in-process mj_step loop of as many steps.  The socket also against
 * a bare lock-step: a bare ping-pong of the same byte counts whose
 * server spins for the bare step's time before each answer, unpinned
 * too, right after each round, so that its round trips wake the client
 * after as long an idle as the daemon's do (on a virtual machine, waking
 * a CPU idle for a step costs more than one idle for a bare round trip).
 * Printed too: 1 / (bare step + bare round trip without the step).
 */
static void
fig_lockstep_model(const struct bench_options *o, struct daemon_proc *dp,
    hxd_conn *ctl, const char *label, double shm_target)
{
	double dm[64], ds[64], bl[64], bls[64], bx[64], plain, spun;
	unsigned long long n;
	size_t req, resp, m;
	int r;

	printf("lockstep (%s): mj_update over the Unix socket and shared "
	       "memory, %g s a round\n",
	    label, o->seconds);
	for (r = 0; r < o->rounds; r++) {
		dm[r] = lockstep_round(o, dp, ctl, RTT_UNIX, &n, &req, &resp);
		bl[r] = mujoco_rate(o, n);
		ds[r] = lockstep_round(o, dp, ctl, RTT_SHM, &n, &req, &resp);
		bls[r] = mujoco_rate(o, n);
		m = n < 5000 ? (size_t)n : 5000;
		plain = bare_mean(req, resp, 0, m);
		spun = bare_mean(req, resp, 1 / bl[r], m);
		bx[r] = 1 / spun;
		printf("  round %d: bare step %.1f us; bare ping-pong %zu/%zu "
		       "B, mean %.1f us, 1/(step + round trip) %.0f steps/s; "
		       "the server spinning a step, mean %.1f us, %.0f "
		       "steps/s\n",
		    r + 1, 1e6 / bl[r], req, resp, plain * 1e6,
		    1 / (1 / bl[r] + plain), spun * 1e6, bx[r]);
	}
	rate_row_fmt(dm, bl, o->rounds, 0.9, "in-process `mj_step`",
	    "lock-step, `mj_update` per step, Unix socket, %s", label);
	rate_row_fmt(dm, bx, o->rounds, 0.95,
	    "bare ping-pong, the server spinning a bare step",
	    "lock-step, `mj_update` per step, Unix socket, %s, against a "
	    "bare lock-step",
	    label);
	rate_row_fmt(ds, bls, o->rounds, shm_target, "in-process `mj_step`",
	    "lock-step, `mj_update` per step, shared memory, %s", label);
}

/*
 * Lock-step on the bench's model (the MPL scene by default), then on
 * the small fixture model, whose steps of a few microseconds leave the
 * transport most of the time.
 */
static void
fig_lockstep(
    const struct bench_options *o, struct daemon_proc *dp, hxd_conn *ctl)
{
	const char *paused[] = { "--paused", NULL };
	struct bench_options small = *o;
	struct daemon_proc dq;
	hxd_conn *c;

	fig_lockstep_model(o, dp, ctl, o->model, 0.9);
	small.model = BENCH_SMALL_MODEL;
	daemon_start(&small, &dq, paused);
	c = connect_or_die(dq.unix_addr, "hxbench-ctl-small");
	fig_lockstep_model(&small, &dq, c, small.model, 0.5);
	hxd_close(c);
	daemon_stop(&dq);
}

/* The CPU time a process has run, in seconds (/proc/PID/schedstat). */
static double
proc_cpu_seconds(pid_t pid)
{
	char path[64];
	unsigned long long ns;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/schedstat", (long)pid);
	if ((f = fopen(path, "re")) == NULL || fscanf(f, "%llu", &ns) != 1)
		die("cannot read %s", path);
	fclose(f);
	return (double)ns * 1e-9;
}

/* The bare loop's CPU time per step, over n steps from the start. */
static double
mujoco_cpu_per_step(const struct bench_options *o, unsigned long long steps)
{
	struct mujoco_run r;

	mujoco_steps(o, steps, &r);
	return r.cpu / (double)r.steps;
}

/*
 * Lock-step in batches: hxd_batch_run of 100 steps per request (over
 * shared memory, libhaptix's default on a Unix socket), its steps per
 * second against the in-process mj_step loop's, and the daemon's CPU
 * time per step against the loop's.
 */
static void
fig_batch(const struct bench_options *o, struct daemon_proc *dp, hxd_conn *ctl)
{
	hxd_conn *c = connect_or_die(dp->unix_addr, "batch");
	double dm[64], bl[64], cpu[64], cpu_bl[64], t0, t, c0,
	    zeros[1024] = { 0 };
	double ratio[64];
	hxd_control ctrl = { 0 };
	hxd_batch b = { 0 };
	hxd_batch_result *res;
	unsigned long long n;
	hxd_status s0;
	int r, m;

	status_or_die(ctl, &s0);
	if (s0.model.nu > 1024)
		die("nu %d is too large", s0.model.nu);
	ctrl.nu = s0.model.nu;
	ctrl.ctrl = zeros;
	b.control = &ctrl;
	b.steps = BENCH_BATCH_STEPS;
	printf("batch: %d steps a request over shared memory, %g s a "
	       "round\n",
	    BENCH_BATCH_STEPS, o->seconds);
	for (r = 0; r < o->rounds; r++) {
		check(ctl, hxd_reset(ctl, -1), "reset");
		n = 0;
		c0 = proc_cpu_seconds(dp->pid);
		t0 = t = bench_now();
		while (t - t0 < o->seconds) {
			check(c, hxd_batch_run(c, &b, &res), "batch");
			n += res->steps;
			hxd_batch_result_free(res);
			t = bench_now();
		}
		cpu[r] = (proc_cpu_seconds(dp->pid) - c0) / (double)n;
		dm[r] = (double)n / (t - t0);
		bl[r] = mujoco_rate(o, n);
		cpu_bl[r] = mujoco_cpu_per_step(o, n);
		ratio[r] = cpu[r] / cpu_bl[r];
		printf("  round %d: daemon CPU %.2f us a step, the bare "
		       "loop's %.2f us, %.3f×\n",
		    r + 1, cpu[r] * 1e6, cpu_bl[r] * 1e6, ratio[r]);
	}
	hxd_close(c);
	rate_row("lock-step, 100 steps per request (batch)", dm, bl, o->rounds,
	    0.99, "in-process `mj_step`");
	m = median_round(ratio, o->rounds);
	add_row(ratio[m] <= 1.03,
	    "batch, the daemon's CPU time per step|%.2f µs|%.2f µs (the "
	    "in-process `mj_step` loop's)|%.3f×|≤ 1.03×",
	    cpu[m] * 1e6, cpu_bl[m] * 1e6, ratio[m]);
}

/* A client streaming at 60 Hz of wall time, reading every frame. */
struct streamer {
	pthread_t thread;
	hxd_conn *c;
	atomic_int *stop;
	unsigned long long frames;
};

static void *
stream_main(void *arg)
{
	struct streamer *s = arg;
	hxd_event *ev;

	while (!atomic_load(s->stop)) {
		if (hxd_next_event(s->c, 200, &ev) == HXD_OK) {
			if (ev->kind == HXD_EVENT_FRAME)
				s->frames++;
			hxd_event_free(ev);
		} else if (hxd_result(s->c) != HXD_TIMEOUT)
			break;
	}
	return NULL;
}

/*
 * Real-time pacing at 500 Hz with 8 clients streaming at 60 Hz,
 * alternating with a bare libevent timer at the same period.
 */
static void
fig_pacing(const struct bench_options *o)
{
	static const char *const args[] = { "--paused", NULL };
	struct streamer st[BENCH_STREAM_CLIENTS];
	hxd_subscription sub = { 0 };
	struct daemon_proc dp;
	struct latency bare;
	atomic_int stop = 0;
	double dp50[64], dp99[64], bp50[64], bp99[64], dmax = 0, bmax = 0;
	double sim = 0, wall = 0, t0, t1, rtf, lo = 1e9, hi = 0, r50, r99;
	unsigned long long frames = 0;
	hxd_status s0, s1;
	hxd_conn *ctl;
	char name[32];
	int i, seg;

	daemon_start(o, &dp, args);
	ctl = connect_or_die(dp.unix_addr, "hxbench-ctl");
	status_or_die(ctl, &s0);
	if (fabs(s0.model.timestep - BENCH_PACING_PERIOD) > 1e-12)
		die("the model's timestep is %g s, not %g s", s0.model.timestep,
		    BENCH_PACING_PERIOD);
	sub.fields = HXD_FIELDS(HXD_FIELD_QPOS) | HXD_FIELDS(HXD_FIELD_QVEL) |
	    HXD_FIELDS(HXD_FIELD_CTRL) | HXD_FIELDS(HXD_FIELD_MOCAP) |
	    HXD_FIELDS(HXD_FIELD_SENSORDATA);
	sub.wall_hz = BENCH_STREAM_HZ;
	for (i = 0; i < BENCH_STREAM_CLIENTS; i++) {
		snprintf(name, sizeof(name), "stream-%d", i);
		st[i].c = connect_or_die(dp.unix_addr, name);
		st[i].stop = &stop;
		st[i].frames = 0;
		check(st[i].c, hxd_subscribe(st[i].c, &sub, NULL), "subscribe");
		if (pthread_create(&st[i].thread, NULL, stream_main, &st[i]) !=
		    0)
			die("cannot start a thread");
	}
	printf("pacing: %d x (%g s bare timer, %g s haptixd at speed 1), "
	       "%d clients streaming at %g Hz throughout\n",
	    o->segments, o->segment_seconds, o->segment_seconds,
	    BENCH_STREAM_CLIENTS, BENCH_STREAM_HZ);
	for (seg = 0; seg < o->segments; seg++) {
		if (net_timer(BENCH_PACING_PERIOD, o->segment_seconds, &bare) !=
		    0)
			die("the bare timer failed");
		bp50[seg] = latency_percentile(&bare, 0.5);
		bp99[seg] = latency_percentile(&bare, 0.99);
		bmax = fmax(bmax, latency_max(&bare));

		status_or_die(ctl, &s0);
		check(ctl, hxd_run(ctl), "run"); /* anchors: the stats reset */
		t0 = bench_now();
		sleep_seconds(o->segment_seconds);
		t1 = bench_now();
		status_or_die(ctl, &s1);
		t1 = (t1 + bench_now()) / 2;
		check(ctl, hxd_pause(ctl), "pause");
		dp50[seg] = s1.pacing.lateness_p50;
		dp99[seg] = s1.pacing.lateness_p99;
		dmax = fmax(dmax, s1.pacing.lateness_max);
		rtf = (s1.time - s0.time) / (t1 - t0);
		lo = fmin(lo, rtf);
		hi = fmax(hi, rtf);
		sim += s1.time - s0.time;
		wall += t1 - t0;
		printf("  segment %d: bare timer p50 %.1f p99 %.1f max %.1f us "
		       "(%llu ticks); haptixd p50 %.1f p99 %.1f max %.1f us "
		       "(%llu ticks, %llu overruns), real-time factor %.5f\n",
		    seg + 1, bp50[seg] * 1e6, bp99[seg] * 1e6,
		    latency_max(&bare) * 1e6, (unsigned long long)bare.count,
		    dp50[seg] * 1e6, dp99[seg] * 1e6,
		    s1.pacing.lateness_max * 1e6, s1.pacing.ticks, s1.overruns,
		    rtf);
	}
	atomic_store(&stop, 1);
	for (i = 0; i < BENCH_STREAM_CLIENTS; i++) {
		pthread_join(st[i].thread, NULL);
		frames += st[i].frames;
		hxd_close(st[i].c);
	}
	printf("  streams: %llu frames in all; lateness max: haptixd %.2f ms, "
	       "bare %.2f ms\n",
	    frames, dmax * 1e3, bmax * 1e3);
	hxd_close(ctl);
	daemon_stop(&dp);

	rtf = sim / wall;
	add_row(fabs(rtf - 1) <= 0.002,
	    "real-time factor at 500 Hz, 8 clients streaming|%.4f (segments "
	    "%.4f–%.4f)|wall clock|%.4f|1.000 ± 0.002",
	    rtf, lo, hi, rtf);
	r50 = median(dp50, o->segments) / median(bp50, o->segments);
	r99 = median(dp99, o->segments) / median(bp99, o->segments);
	add_row(r50 <= 1.5,
	    "step-start lateness p50|%.1f µs|%.1f µs (bare libevent "
	    "timer)|%.3f×|≤ 1.5×",
	    median(dp50, o->segments) * 1e6, median(bp50, o->segments) * 1e6,
	    r50);
	add_row(r99 <= 1.5,
	    "step-start lateness p99|%.1f µs|%.1f µs (bare libevent "
	    "timer)|%.3f×|≤ 1.5×",
	    median(dp99, o->segments) * 1e6, median(bp99, o->segments) * 1e6,
	    r99);
}

/* Resident memory with no clients, then with 16. */
static void
fig_memory(const struct bench_options *o)
{
	static const char *const no_history[] = { "--history", "0", NULL };
	hxd_conn *c[BENCH_MEMORY_CLIENTS];
	struct daemon_proc dp;
	struct mujoco_run bare;
	hxd_state *state;
	hxd_status st;
	long before, after;
	char name[32];
	int i;

	/*
	 * Running at speed 1, as by default, without the history, which
	 * fills as the simulation runs (up to --history-memory, 64 MiB by
	 * default) and would be counted as the clients'.
	 */
	daemon_start(o, &dp, no_history);
	sleep_seconds(2);
	before = bench_rss_kib(dp.pid);
	for (i = 0; i < BENCH_MEMORY_CLIENTS; i++) {
		snprintf(name, sizeof(name), "client-%d", i);
		c[i] = connect_or_die(dp.unix_addr, name);
		status_or_die(c[i], &st);
		check(c[i], hxd_get_state(c[i], &state), "get_state");
		free(state);
	}
	sleep_seconds(2);
	after = bench_rss_kib(dp.pid);
	for (i = 0; i < BENCH_MEMORY_CLIENTS; i++)
		hxd_close(c[i]);
	daemon_stop(&dp);
	mujoco_baseline(o, "--seconds", "1", &bare);
	printf("memory: haptixd %.1f MiB with no clients, %.1f MiB with %d; "
	       "a bare MuJoCo process with the model, stepping: %.1f MiB\n",
	    (double)before / 1024, (double)after / 1024, BENCH_MEMORY_CLIENTS,
	    (double)bare.rss_kib / 1024);
	add_row((double)before <= 1.05 * (double)bare.rss_kib,
	    "resident memory, no clients|%.1f MiB|%.1f MiB (bare MuJoCo "
	    "process, same model)|%.3f×|≤ 1.05×",
	    (double)before / 1024, (double)bare.rss_kib / 1024,
	    (double)before / (double)bare.rss_kib);
	add_row((after - before) <= 32 * BENCH_MEMORY_CLIENTS,
	    "resident memory, each idle client|%+.1f KiB|%.1f MiB (no "
	    "clients)|%+.1f KiB|≤ +32 KiB",
	    (double)(after - before) / BENCH_MEMORY_CLIENTS,
	    (double)before / 1024,
	    (double)(after - before) / BENCH_MEMORY_CLIENTS);
}

/*
 * One small edit of the running model (a geom's colour, changed back and
 * forth), request to answer: the loader process applies it to the text
 * and compiles it once, and the daemon takes the new model with the
 * state.  Against bare mj_loadXML of the same model in a process that
 * has loaded it BENCH_EDIT_WARMUP times before (its heap warm, as a
 * program's is that recompiles as it edits; the first loads of a process
 * take twice as long), timed in a process of their own, alternating
 * round by round; the medians count.  Edits come as a user makes them,
 * BENCH_EDIT_PAUSE_US apart (the daemon has its loader ready), and back
 * to back (the next loader still starting as the edit comes).
 */
static void
fig_edit(const struct bench_options *o, hxd_conn *ctl)
{
	static const char *const colour[2][2] = { { "rgba", "1 0 0 1" },
		{ "rgba", "0 1 0 1" } };
	double ready[64 * BENCH_EDITS], burst[64 * BENCH_EDITS];
	double bl[64 * BENCH_EDITS], cold[64 * BENCH_EDIT_WARMUP], t0, t;
	char cmd[2048], line[4096], *p, *end;
	hxd_edit_op op = { HXD_EDIT_SET, "geom", NULL, NULL, NULL, NULL, 1 };
	hxd_model m;
	FILE *f;
	int r, i, n = 0, nbl = 0, ncold = 0;

	op.name = "cube";
	if (hxd_name2id(ctl, HXD_OBJ_GEOM, op.name, &i) != HXD_OK) {
		printf("edit: the model has no geom \"cube\" to colour; "
		       "skipped\n");
		return;
	}
	snprintf(cmd, sizeof(cmd), "'%s' '%s/%s' --loads %d", o->baseline,
	    o->models, o->model, BENCH_EDIT_WARMUP + BENCH_EDITS);
	for (r = 0; r < o->rounds && r < 64; r++) {
		for (i = 0; i < 2 * BENCH_EDITS; i++) {
			if (i < BENCH_EDITS)
				usleep(BENCH_EDIT_PAUSE_US);
			op.attrs = colour[i % 2];
			t0 = bench_now();
			check(ctl, hxd_edit_model(ctl, &op, 1, &m, NULL),
			    "edit_model");
			t = bench_now() - t0;
			if (i < BENCH_EDITS)
				ready[n + i] = t;
			else
				burst[n + i - BENCH_EDITS] = t;
		}
		n += BENCH_EDITS;
		if ((f = popen(cmd, "r")) == NULL)
			die("cannot run %s", o->baseline);
		if (fgets(line, sizeof(line), f) == NULL ||
		    strncmp(line, "loads ", 6) != 0 ||
		    (p = strstr(line, "seconds")) == NULL)
			die("%s did not measure loads", o->baseline);
		pclose(f);
		for (p += 7, i = 0; i < BENCH_EDIT_WARMUP + BENCH_EDITS;
		     i++, p = end) {
			t = strtod(p, &end);
			if (end == p || t <= 0)
				die("%s: a bad load time", o->baseline);
			if (i < BENCH_EDIT_WARMUP)
				cold[ncold++] = t;
			else
				bl[nbl++] = t;
		}
	}
	printf("edit: %d edits %d ms apart, median %.1f ms; %d back to back, "
	       "median %.1f ms; %d bare loads in a warm process, median "
	       "%.1f ms (the first of a process: median %.1f ms)\n",
	    n, BENCH_EDIT_PAUSE_US / 1000, median(ready, n) * 1e3, n,
	    median(burst, n) * 1e3, nbl, median(bl, nbl) * 1e3,
	    median(cold, ncold) * 1e3);
	t = median(ready, n) / median(bl, nbl);
	add_row(t <= 1.5,
	    "one small edit of the model (a geom's rgba), request to answer, "
	    "p50, the loader ready|%.1f ms|%.1f ms (bare `mj_loadXML` of the "
	    "same model, a warm process)|%.3f×|≤ 1.5×",
	    median(ready, n) * 1e3, median(bl, nbl) * 1e3, t);
	add_row(-1,
	    "the same edits back to back, p50 (the next loader still "
	    "warming)|%.1f ms|%.1f ms (the same)|%.3f×|",
	    median(burst, n) * 1e3, median(bl, nbl) * 1e3,
	    median(burst, n) / median(bl, nbl));
}

/* One computation of the compute figure through libhaptix (the i-th). */
static int
compute_call(hxd_conn *c, const char *name, int nv, double *buf, int *ids)
{
	double pnt[300], vec[300];
	hxd_contact_force *f;
	int i, n, rc;

	if (strcmp(name, "forward") == 0)
		return hxd_forward_array(
		    c, NULL, "qfrc_bias", buf, (size_t)nv, &i, &n);
	if (strcmp(name, "full_m") == 0)
		return hxd_full_m(c, NULL, buf, nv);
	if (strcmp(name, "jac_site") == 0)
		return hxd_jac_site(
		    c, NULL, "index_distal", buf, buf + 3 * nv, nv);
	if (strcmp(name, "inverse") == 0)
		return hxd_inverse(c, NULL, buf, nv);
	if (strcmp(name, "rne") == 0)
		return hxd_rne(c, NULL, 0, buf, nv);
	if (strcmp(name, "contact_force") == 0) {
		rc = hxd_contact_forces(c, NULL, 0, &f, &n);
		free(f);
		return rc;
	}
	n = strcmp(name, "ray") == 0 ? 1 : 100;
	for (i = 0; i < n; i++) {
		pnt[3 * i] = 0.002 * i;
		pnt[3 * i + 1] = 0;
		pnt[3 * i + 2] = 1;
		vec[3 * i] = vec[3 * i + 1] = 0;
		vec[3 * i + 2] = -1;
	}
	return hxd_rays(c, NULL, n, pnt, vec, NULL, ids, buf);
}

/*
 * Each computation of the compute call, round trip over the default
 * transport (shared memory where offered), against the same work in
 * process: mj_forward of the state and the function (baseline_mujoco
 * --compute), on the model after 500 steps.  Reported, not judged: the
 * issue sets no target.
 */
static void
fig_compute(const struct bench_options *o)
{
	static const char *const paused[] = { "--paused", NULL };
	double dm[16][64], bl[16][64], t0, v, *buf;
	char cmd[2048], line[256], name[64], names[16][64];
	struct daemon_proc dp;
	int r, i, k, n = 0, nv, ids[100];
	hxd_conn *c;
	hxd_info *in;
	FILE *f;

	daemon_start(o, &dp, paused);
	snprintf(cmd, sizeof(cmd), "shm:%s", dp.unix_addr + 5);
	c = connect_or_die(cmd, "hxbench-compute");
	check(c, hxd_info_get(c, &in), "info");
	nv = in->model.nv;
	free(in);
	check(c, hxd_step(c, 500, NULL), "step");
	buf = calloc((size_t)nv * nv + 6 * (size_t)nv + 600, sizeof(*buf));
	if (buf == NULL)
		die("out of memory");
	/* The computations the baseline knows, from a first run of each. */
	snprintf(cmd, sizeof(cmd), "'%s' '%s/%s' --compute 10", o->baseline,
	    o->models, o->model);
	if ((f = popen(cmd, "r")) == NULL)
		die("cannot run %s", o->baseline);
	while (n < 16 && fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, "compute %63s %lf", name, &v) != 2)
			die("%s did not measure: %s", o->baseline, line);
		snprintf(names[n++], sizeof(names[0]), "%s", name);
	}
	pclose(f);
	/* Each computation in alternating blocks: in process, then here. */
	for (r = 0; r < o->rounds; r++) {
		for (k = 0; k < n; k++) {
			snprintf(cmd, sizeof(cmd),
			    "'%s' '%s/%s' --compute %d %s", o->baseline,
			    o->models, o->model, BENCH_COMPUTE_CALLS, names[k]);
			if ((f = popen(cmd, "r")) == NULL)
				die("cannot run %s", o->baseline);
			if (fgets(line, sizeof(line), f) == NULL ||
			    sscanf(line, "compute %63s %lf", name, &v) != 2)
				die("%s did not measure %s", o->baseline,
				    names[k]);
			pclose(f);
			bl[k][r] = v;
			/* Warm up, then time. */
			for (i = 0; i < 50; i++)
				check(c,
				    compute_call(c, names[k], nv, buf, ids),
				    names[k]);
			t0 = bench_now();
			for (i = 0; i < BENCH_COMPUTE_CALLS; i++)
				check(c,
				    compute_call(c, names[k], nv, buf, ids),
				    names[k]);
			dm[k][r] = (bench_now() - t0) / BENCH_COMPUTE_CALLS;
		}
	}
	for (k = 0; k < n; k++) {
		t0 = median(dm[k], o->rounds);
		v = median(bl[k], o->rounds);
		add_row(-1,
		    "compute `%s` round trip (shared memory), mean of %d, "
		    "median of "
		    "rounds|%.1f µs|%.1f µs (in process: `mj_forward` and the "
		    "call)|%.2f×|reported",
		    names[k], BENCH_COMPUTE_CALLS, t0 * 1e6, v * 1e6, t0 / v);
	}
	free(buf);
	hxd_close(c);
	daemon_stop(&dp);
}

/*
 * Run py_bench.py with args, env before the command (variables for it,
 * or ""); its one line of output into line.
 */
static void
python_run(const struct bench_options *o, const char *env, const char *args,
    char *line, size_t len)
{
	char cmd[2048];
	FILE *f;
	int st;

	snprintf(cmd, sizeof(cmd), "%s'%s' '%s' %s", env, o->python,
	    o->pyscript, args);
	if ((f = popen(cmd, "r")) == NULL)
		die("cannot run %s", o->python);
	if (fgets(line, (int)len, f) == NULL)
		line[0] = '\0';
	st = pclose(f);
	if (st != 0 || line[0] == '\0')
		die("%s %s failed (exit %d): is the Python package built "
		    "(PYTHONPATH)?",
		    o->pyscript, args, st);
}

/* The get_state round trips of one transport, each side's seconds. */
struct python_rtt {
	const char *name; /* the transport, for the table */
	hxd_conn *conn;   /* the C library's connection over it */
	const char *env;  /* before Python's command, to take it */
	char addr[160];   /* the address Python is given */
	double c_rtt[64 * BENCH_PY_CALLS], py_rtt[64 * BENCH_PY_CALLS];
	int nc, np;
};

/*
 * One round of a transport: the C library's calls (after warming up),
 * then Python's, each call's seconds kept.
 */
static void
python_rtt_round(
    const struct bench_options *o, struct python_rtt *t, char *line, size_t len)
{
	char args[256], *p, *end;
	hxd_state *st;
	double t0;
	int i;

	for (i = 0; i < 200 + BENCH_PY_CALLS; i++) {
		t0 = bench_now();
		check(t->conn, hxd_get_state(t->conn, &st), "get_state");
		if (i >= 200)
			t->c_rtt[t->nc++] = bench_now() - t0;
		free(st);
	}
	snprintf(args, sizeof(args), "rtt '%s' %d", t->addr, BENCH_PY_CALLS);
	python_run(o, t->env, args, line, len);
	for (p = line + 3, i = 0; i < BENCH_PY_CALLS; i++, p = end) {
		t->py_rtt[t->np] = strtod(p, &end);
		if (end == p)
			die("py_bench.py: a bad round trip");
		t->np++;
	}
}

/*
 * A transport's rows: over the socket Python's p50 against C's as a
 * ratio; over shared memory, where C's is a few microseconds, what
 * Python adds to it.
 */
static void
python_rtt_rows(struct python_rtt *t, int shm)
{
	double p50c, p50p, p99c, p99p;

	qsort(t->c_rtt, (size_t)t->nc, sizeof(double), cmp_double);
	qsort(t->py_rtt, (size_t)t->np, sizeof(double), cmp_double);
	p50c = percentile(t->c_rtt, (size_t)t->nc, 0.5) * 1e6;
	p99c = percentile(t->c_rtt, (size_t)t->nc, 0.99) * 1e6;
	p50p = percentile(t->py_rtt, (size_t)t->np, 0.5) * 1e6;
	p99p = percentile(t->py_rtt, (size_t)t->np, 0.99) * 1e6;
	printf("python: get_state over %s p50 %.1f us (C %.1f), p99 %.1f us "
	       "(C %.1f)\n",
	    t->name, p50p, p50c, p99p, p99c);
	if (shm)
		add_row(p50p - p50c <= BENCH_PY_SHM_ADDS,
		    "Python `get_state` round trip, %s, unpinned, p50|%.1f µs|"
		    "%.1f µs (C library, same daemon)|+%.1f µs|≤ +%.0f µs",
		    t->name, p50p, p50c, p50p - p50c, BENCH_PY_SHM_ADDS);
	else
		add_row(p50p <= 1.5 * p50c,
		    "Python `get_state` round trip, %s, unpinned, p50|%.1f µs|"
		    "%.1f µs (C library, same daemon)|%.3f×|≤ 1.5×",
		    t->name, p50p, p50c, p50p / p50c);
	add_row(-1,
	    "Python `get_state` round trip, %s, unpinned, p99|%.1f µs|"
	    "%.1f µs|%.3f×||",
	    t->name, p99p, p99c, p99p / p99c);
}

/*
 * The Python package against the C library, unpinned as users run them,
 * alternating round by round on one daemon: a get_state round trip over
 * the Unix socket (HAPTIX_SHM=0) and over shared memory (shm:), each
 * side 2000 calls a round after warming up; and a batch run of 10,000
 * steps recording qpos and sensordata after each, returned as NumPy
 * arrays on the Python side and as frames on the C side.
 */
static void
fig_python(const struct bench_options *o, struct daemon_proc *dp, hxd_conn *ctl)
{
	static struct python_rtt sock = { .name = "Unix socket",
		.env = "HAPTIX_SHM=0 " };
	static struct python_rtt shm = { .name = "shared memory", .env = "" };
	static char line[32 * BENCH_PY_CALLS];
	double c_rate[64], py_rate[64], t0;
	hxd_batch b = { 0 };
	hxd_batch_result *res;
	char args[256];
	int r;
	long n;

	printf("python: %s, %d get_state calls a side a round over the socket "
	       "and shared memory, a %d-step batch recording qpos and "
	       "sensordata\n",
	    o->python, BENCH_PY_CALLS, BENCH_PY_STEPS);
	sock.nc = sock.np = shm.nc = shm.np = 0;
	setenv("HAPTIX_SHM", "0", 1);
	sock.conn = connect_or_die(dp->unix_addr, "hxbench-c");
	unsetenv("HAPTIX_SHM");
	snprintf(sock.addr, sizeof(sock.addr), "%s", dp->unix_addr);
	snprintf(shm.addr, sizeof(shm.addr), "shm:%s", dp->unix_addr + 5);
	shm.conn = connect_or_die(shm.addr, "hxbench-c");
	b.steps = BENCH_PY_STEPS;
	b.record = HXD_FIELDS(HXD_FIELD_QPOS) |
	    HXD_FIELDS(HXD_FIELD_SENSORDATA);
	b.record_every = 1;
	for (r = 0; r < o->rounds; r++) {
		python_rtt_round(o, &sock, line, sizeof(line));
		python_rtt_round(o, &shm, line, sizeof(line));

		check(ctl, hxd_reset(ctl, -1), "reset");
		t0 = bench_now();
		check(shm.conn, hxd_batch_run(shm.conn, &b, &res), "batch");
		c_rate[r] = res->steps / (bench_now() - t0);
		hxd_batch_result_free(res);
		snprintf(args, sizeof(args), "batch '%s' %d", shm.addr,
		    BENCH_PY_STEPS);
		python_run(o, "", args, line, sizeof(line));
		if (sscanf(line, "batch %ld %lf", &n, &t0) != 2 || t0 <= 0)
			die("py_bench.py: a bad batch line: %s", line);
		py_rate[r] = (double)n / t0;
	}
	hxd_close(sock.conn);
	hxd_close(shm.conn);
	python_rtt_rows(&sock, 0);
	python_rtt_rows(&shm, 1);
	rate_row("Python batch, 10,000 steps recording qpos and sensordata "
		 "as arrays (shared memory)",
	    py_rate, c_rate, o->rounds, 0.9, "C library, frames");
}

/*-------------------------------------------------------------- main */

/* Others' work on a shared machine moves every figure: say how much. */
static void
print_load(const char *when)
{
	double l1 = -1, l5 = -1;
	FILE *f = fopen("/proc/loadavg", "r");

	if (f != NULL) {
		if (fscanf(f, "%lf %lf", &l1, &l5) != 2)
			l1 = l5 = -1;
		fclose(f);
	}
	printf("load average %s: %.2f (1 min), %.2f (5 min)%s\n", when, l1, l5,
	    l1 > 0.5 ? ": the machine is busy, the figures will be noisy" : "");
}

/* The machine, for the record. */
static void
print_machine(void)
{
	char line[512], cpu[256] = "?";
	long mem = 0;
	struct utsname u;
	time_t now = time(NULL);
	FILE *f;

	if ((f = fopen("/proc/cpuinfo", "r")) != NULL) {
		while (fgets(line, sizeof(line), f) != NULL)
			if (sscanf(line, "model name : %255[^\n]", cpu) == 1)
				break;
		fclose(f);
	}
	if ((f = fopen("/proc/meminfo", "r")) != NULL) {
		while (fgets(line, sizeof(line), f) != NULL)
			if (sscanf(line, "MemTotal: %ld", &mem) == 1)
				break;
		fclose(f);
	}
	uname(&u);
	strftime(line, sizeof(line), "%Y-%m-%d %H:%M UTC", gmtime(&now));
	printf("hxbench: %s; %ld CPUs (%s), %.1f GiB, %s %s\n", line,
	    sysconf(_SC_NPROCESSORS_ONLN), cpu, (double)mem / 1048576,
	    u.sysname, u.release);
}

static void
print_table(void)
{
	int i;

	printf("\n| figure | measured | baseline in the same run | ratio | "
	       "target | met? |\n");
	printf("| --- | ---: | ---: | ---: | --- | --- |\n");
	for (i = 0; i < nrows; i++)
		printf("| %s | %s | %s | %s | %s | %s |\n", rows[i].figure,
		    rows[i].measured, rows[i].baseline, rows[i].ratio,
		    rows[i].target,
		    rows[i].met > 0      ? "yes" :
			rows[i].met == 0 ? "**no**" :
					   "");
}

static unsigned
parse_figures(const char *list)
{
	char *copy = strdup(list), *p = copy, *w;
	unsigned set = 0;
	int i;

	if (copy == NULL)
		die("out of memory");
	while ((w = strsep(&p, ",")) != NULL) {
		for (i = 0; bench_figures[i] != NULL; i++)
			if (strcmp(w, bench_figures[i]) == 0)
				break;
		if (bench_figures[i] == NULL)
			die("unknown figure \"%s\" (rtt, max, lockstep, batch, "
			    "pacing, memory, record, mocap, edit, python, octave, "
			    "placement, codec, tls)",
			    w);
		set |= 1u << i;
	}
	free(copy);
	return set;
}

static double
positive(const char *s, const char *what)
{
	char *end;
	double v = strtod(s, &end);

	if (*s == '\0' || *end != '\0' || !(v > 0) || v > 1e9)
		die("%s: \"%s\" is not a positive number", what, s);
	return v;
}

/* A program next to this one, when the environment does not name it. */
static const char *
sibling(const char *env, const char *rel)
{
	static char buf[8][4400];
	static int k;
	const char *v = getenv(env);
	char self[4096], *slash;
	ssize_t n;

	if (v != NULL && *v != '\0')
		return v;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return rel;
	self[n] = '\0';
	if ((slash = strrchr(self, '/')) != NULL)
		*slash = '\0';
	/* libtool runs the real program from .libs/ before installing. */
	if ((slash = strrchr(self, '/')) != NULL &&
	    strcmp(slash, "/.libs") == 0)
		*slash = '\0';
	k = (k + 1) % 8; /* one buffer for each path asked for */
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", self, rel);
	return buf[k];
}

/*
 * libhaptix's decode of a get_state answer by its table (expanded from
 * haptix.proto) against the same decode written out by hand, in rounds
 * of a program of their own (bench/codec.c); the medians count.  No
 * target: the table must not cost what the envelope saved (0.59 us a
 * round trip).
 */
static void
fig_codec(const struct bench_options *o)
{
	double table[64], hand[64], t, h;
	char cmd[1200];
	FILE *p;
	int r = 0;

	snprintf(cmd, sizeof(cmd), "'%s' %ld %d", o->codec, o->rtt_calls * 10,
	    o->rounds);
	if ((p = popen(cmd, "r")) == NULL)
		die("%s: %s", o->codec, strerror(errno));
	while (r < o->rounds && fscanf(p, "%lf %lf", &table[r], &hand[r]) == 2)
		r++;
	if (pclose(p) != 0 || r != o->rounds)
		die("%s failed", o->codec);
	t = median(table, r);
	h = median(hand, r);
	add_row(-1,
	    "get_state decode, table-driven (nq 50, nv 46)|%.0f ns|%.0f ns "
	    "by hand|%.2fx|",
	    t, h, t / h);
}

/* Alternate blocks of get_state calls on a and b; times into ta, tb. */
static void
tls_alternate(
    hxd_conn *a, hxd_conn *b, long block, long total, double *ta, double *tb)
{
	hxd_state *st = NULL;
	hxd_conn *c;
	double t0, *out;
	long n, i;
	int side;

	for (n = 0; n + block <= total; n += block) {
		for (side = 0; side < 2; side++) {
			c = side ? b : a;
			out = side ? tb : ta;
			for (i = 0; i < block; i++) {
				t0 = bench_now();
				check(c, hxd_get_state(c, &st), "get_state");
				out[n + i] = bench_now() - t0;
				free(st);
				st = NULL;
			}
		}
	}
}

/*
 * The round trip over TLS against the same over plain TCP: two paused
 * daemons on loopback, one with a TLS listener (hx-test-certs' server
 * certificate, the client trusting its CA), alternating blocks of
 * hxd_get_state so that the machine's noise falls on both.  Reported,
 * no target.
 */
static void
fig_tls(const struct bench_options *o)
{
	char certs[128], cmd[4400], pem[160], key[160], ca[160];
	const char *extra[] = { "--paused", "--tcp", "tls:127.0.0.1:0",
		"--tls-cert", pem, "--tls-key", key, NULL };
	static const char *const paused[] = { "--paused", NULL };
	const long block = 500;
	long total = o->rtt_calls < block ? block : o->rtt_calls, i;
	struct daemon_proc dt, dp;
	double *tt, *tp, t50, p50, t99, p99;
	hxd_conn *ct, *cp;

	snprintf(certs, sizeof(certs), "%s/certs", tmpdir);
	snprintf(cmd, sizeof(cmd), "'%s' '%s'", o->certs, certs);
	if (system(cmd) != 0)
		die("%s failed: build it (make bench does)", o->certs);
	snprintf(pem, sizeof(pem), "%s/server.pem", certs);
	snprintf(key, sizeof(key), "%s/server.key", certs);
	snprintf(ca, sizeof(ca), "%s/ca.pem", certs);
	setenv("HAPTIX_TLS_CA", ca, 1);
	daemon_start(o, &dt, extra);
	daemon_start(o, &dp, paused);
	ct = connect_or_die(dt.tcp_addr, "hxbench-tls");
	cp = connect_or_die(dp.tcp_addr, "hxbench-tcp");
	tt = calloc((size_t)total, sizeof(*tt));
	tp = calloc((size_t)total, sizeof(*tp));
	if (tt == NULL || tp == NULL)
		die("out of memory");
	tls_alternate(ct, cp, block, 2 * block, tt, tp); /* warm up */
	tls_alternate(ct, cp, block, total, tt, tp);
	total -= total % block;
	qsort(tt, (size_t)total, sizeof(*tt), cmp_double);
	qsort(tp, (size_t)total, sizeof(*tp), cmp_double);
	t50 = percentile(tt, (size_t)total, 0.5);
	p50 = percentile(tp, (size_t)total, 0.5);
	t99 = percentile(tt, (size_t)total, 0.99);
	p99 = percentile(tp, (size_t)total, 0.99);
	printf("tls: get_state over TLS p50 %.1f p99 %.1f us; over plain TCP "
	       "p50 %.1f p99 %.1f us (%ld calls each, blocks of %ld)\n",
	    t50 * 1e6, t99 * 1e6, p50 * 1e6, p99 * 1e6, total, block);
	add_row(-1,
	    "`hxd_get_state` round trip, TLS 1.3, p50|%.1f µs|%.1f µs (plain "
	    "TCP)|%.3f×|reported",
	    t50 * 1e6, p50 * 1e6, t50 / p50);
	add_row(-1,
	    "`hxd_get_state` round trip, TLS 1.3, p99|%.1f µs|%.1f µs (plain "
	    "TCP)|%.3f×|reported",
	    t99 * 1e6, p99 * 1e6, t99 / p99);
	for (i = 0; i < 2; i++)
		hxd_close(i ? cp : ct);
	free(tt);
	free(tp);
	daemon_stop(&dt);
	daemon_stop(&dp);
	unsetenv("HAPTIX_TLS_CA");
}

#define HAS(name) (o.figures & (1u << (name)))

int
main(int argc, char **argv)
{
	enum {
		O_RTT = 256,
		O_SEC,
		O_ROUNDS,
		O_SEG,
		O_SEGSEC,
		O_HAPTIXD,
		O_BASE,
		O_MODELS
	};
	static const struct option longopts[] = {
		{ "figures", required_argument, NULL, 'f' },
		{ "quick", no_argument, NULL, 'q' },
		{ "rtt-calls", required_argument, NULL, O_RTT },
		{ "seconds", required_argument, NULL, O_SEC },
		{ "rounds", required_argument, NULL, O_ROUNDS },
		{ "segments", required_argument, NULL, O_SEG },
		{ "segment-seconds", required_argument, NULL, O_SEGSEC },
		{ "haptixd", required_argument, NULL, O_HAPTIXD },
		{ "baseline", required_argument, NULL, O_BASE },
		{ "models", required_argument, NULL, O_MODELS },
		{ "model", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const paused[] = { "--paused", NULL };
	struct bench_options o = { .figures = ~0u,
		.rtt_calls = 20000,
		.seconds = 2,
		.rounds = 5,
		.segments = 12,
		.segment_seconds = 5,
		.model = "mpl_scene.xml" };
	struct daemon_proc dp;
	hxd_conn *ctl;
	int ch, i, missed = 0, judged = 0;

	o.haptixd = sibling("HAPTIXD", "../daemon/haptixd");
	o.baseline = sibling("HXBENCH_MUJOCO", "baseline_mujoco");
	o.codec = sibling("HXBENCH_CODEC", "codec");
	o.certs = sibling("HXBENCH_CERTS", "../tests/hx-test-certs");
	o.models = getenv("HX_MODELS");
	o.python = getenv("HXBENCH_PYTHON") != NULL ? getenv("HXBENCH_PYTHON") :
						      "/usr/bin/python3";
	o.pyscript = sibling("HXBENCH_PYSCRIPT", "py_bench.py");
	while ((ch = getopt_long(argc, argv, "f:qm:h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'f':
			o.figures = parse_figures(optarg);
			break;
		case 'q':
			o.rtt_calls = 2000;
			o.seconds = 1;
			o.rounds = 1;
			o.segments = 2;
			o.segment_seconds = 3;
			break;
		case O_RTT:
			o.rtt_calls = (long)positive(optarg, "--rtt-calls");
			break;
		case O_SEC:
			o.seconds = positive(optarg, "--seconds");
			break;
		case O_ROUNDS:
			o.rounds = (int)positive(optarg, "--rounds");
			break;
		case O_SEG:
			o.segments = (int)positive(optarg, "--segments");
			break;
		case O_SEGSEC:
			o.segment_seconds = positive(
			    optarg, "--segment-seconds");
			break;
		case O_HAPTIXD:
			o.haptixd = optarg;
			break;
		case O_BASE:
			o.baseline = optarg;
			break;
		case O_MODELS:
			o.models = optarg;
			break;
		case 'm':
			o.model = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}
	if (o.rounds > 64 || o.segments > 64)
		die("at most 64 rounds and segments");
	if (o.models == NULL || *o.models == '\0')
		die("no model directory: give --models or set $HX_MODELS");
	if (access(o.haptixd, X_OK) != 0 || access(o.baseline, X_OK) != 0)
		die("cannot run %s or %s: build them (make bench)", o.haptixd,
		    o.baseline);

	snprintf(tmpdir, sizeof(tmpdir), "/tmp/hxbench.XXXXXX");
	if (mkdtemp(tmpdir) == NULL)
		die("mkdtemp: %s", strerror(errno));
	atexit(remove_tmpdir);
	setvbuf(stdout, NULL, _IOLBF, 0);
	print_machine();
	print_load("before");
	printf("model %s/%s; haptixd %s\n", o.models, o.model, o.haptixd);

	if (HAS(0) || HAS(1) || HAS(2) || HAS(3) || HAS(6) || HAS(7) ||
	    HAS(8) || HAS(9) || HAS(10)) {
		daemon_start(&o, &dp, paused);
		ctl = connect_or_die(dp.unix_addr, "hxbench-ctl");
		if (HAS(0))
			fig_rtt(&o, &dp, ctl);
		if (HAS(1))
			fig_max(&o, &dp, ctl);
		if (HAS(2))
			fig_lockstep(&o, &dp, ctl);
		if (HAS(3))
			fig_batch(&o, &dp, ctl);
		if (HAS(6))
			fig_record(&o, ctl);
		if (HAS(7))
			fig_mocap(&o, &dp, ctl);
		if (HAS(9))
			fig_python(&o, &dp, ctl);
		if (HAS(10))
			fig_octave(&o, &dp);
		if (HAS(8))
			fig_edit(&o, ctl); /* last: it changes the model */
		hxd_close(ctl);
		daemon_stop(&dp);
	}
	if (HAS(11))
		fig_placement(&o);
	if (HAS(4))
		fig_pacing(&o);
	if (HAS(5))
		fig_memory(&o);
	if (HAS(12))
		fig_codec(&o);
	if (HAS(13))
		fig_tls(&o);
	if (HAS(14))
		fig_compute(&o);

	print_load("after");
	print_table();
	for (i = 0; i < nrows; i++) {
		missed += rows[i].met == 0;
		judged += rows[i].met >= 0;
	}
	printf("\n%d of %d targets met (%d rows reported, not judged)\n",
	    judged - missed, judged, nrows - judged);
	/* A missed target is a finding, not a failure of the harness. */
	return 0;
}
