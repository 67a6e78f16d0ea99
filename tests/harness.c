/* Test harness: see harness.h. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "harness.h"

#define HARNESS_MAX_ARGS 64
#define HARNESS_MAX_SERVERS 16
#define HARNESS_READY_SECONDS 20
#define HARNESS_STOP_SECONDS 20

/*
 * The daemons this test process started and has not stopped: a failed
 * assertion leaves the test body early, and hx_server_cleanup() stops
 * them afterwards.  Copies, not pointers: the body's stack is gone then.
 */
static struct hx_server harness_running[HARNESS_MAX_SERVERS];

/* Remember a started daemon. */
static void
harness_register(const struct hx_server *s)
{
	int i;

	for (i = 0; i < HARNESS_MAX_SERVERS; i++) {
		if (harness_running[i].pid == 0) {
			harness_running[i] = *s;
			return;
		}
	}
}

/* Forget a stopped daemon. */
static void
harness_unregister(pid_t pid)
{
	int i;

	for (i = 0; i < HARNESS_MAX_SERVERS; i++) {
		if (harness_running[i].pid == pid)
			harness_running[i].pid = 0;
	}
}

/* An environment variable the test suite must set. */
static const char *
harness_env(const char *name)
{
	const char *v = getenv(name);

	if (v == NULL || *v == '\0')
		cr_assert_fail(
		    "%s is not set: run the tests with make check", name);
	return v;
}

const char *
hx_haptixd_path(void)
{
	return harness_env("HAPTIXD");
}

const char *
hx_hxctl_path(void)
{
	return harness_env("HXCTL");
}

const char *
hx_hxview_path(void)
{
	return harness_env("HXVIEW");
}

const char *
hx_hxplay_path(void)
{
	return harness_env("HXPLAY");
}

const char *
hx_mocap_path(void)
{
	return harness_env("HX_MOCAP");
}

const char *
hx_spacenav_path(void)
{
	return harness_env("HX_SPACENAV");
}

const char *
hx_test_model(const char *name)
{
	static char path[1024];

	snprintf(
	    path, sizeof(path), "%s/%s", harness_env("HX_TEST_MODELS"), name);
	return path;
}

const char *
hx_server_addr(const struct hx_server *s, int tcp)
{
	return tcp ? s->tcp_addr : s->unix_addr;
}

char *
hx_slurp_fd(int fd, size_t *lenp)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);
	ssize_t n;

	cr_assert_not_null(buf);
	lseek(fd, 0, SEEK_SET);
	for (;;) {
		if (cap - len < 2) {
			cap *= 2;
			buf = realloc(buf, cap);
			cr_assert_not_null(buf);
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	if (lenp != NULL)
		*lenp = len;
	return buf;
}

double
hx_wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void
hx_sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Read the whole log into buf; returns its length. */
static size_t
harness_read_log(const struct hx_server *s, char *buf, size_t len)
{
	FILE *f = fopen(s->log, "r");
	size_t n;

	if (f == NULL) {
		snprintf(buf, len, "(no log: %s: %s)", s->log, strerror(errno));
		return 0;
	}
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	return n;
}

int
hx_server_log_has(const struct hx_server *s, const char *text)
{
	static char buf[1 << 20];

	harness_read_log(s, buf, sizeof(buf));
	return strstr(buf, text) != NULL;
}

/* The systemd variables a daemon must not inherit from the test. */
static const char *const harness_systemd_vars[] = { "NOTIFY_SOCKET",
	"WATCHDOG_USEC", "WATCHDOG_PID", "LISTEN_FDS", "LISTEN_PID",
	"LISTEN_FDNAMES", "JOURNAL_STREAM", NULL };

void
hx_server_prepare(struct hx_server *s)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->dir, sizeof(s->dir), "/tmp/hxtest.XXXXXX");
	cr_assert_not_null(mkdtemp(s->dir), "mkdtemp: %s", strerror(errno));
	snprintf(s->unix_addr, sizeof(s->unix_addr), "unix:%s/hx.sock", s->dir);
	snprintf(s->log, sizeof(s->log), "%s/haptixd.log", s->dir);
}

void
hx_server_launch(struct hx_server *s, const char *const *argv,
    const char *const *env, int journal)
{
	static char journal_env[64];
	struct stat st;
	int fd, null, i;

	fd = open(s->log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	cr_assert_neq(fd, -1, "%s: %s", s->log, strerror(errno));
	cr_assert_eq(fstat(fd, &st), 0);
	/* As systemd names the journal's stream to the services it runs. */
	snprintf(journal_env, sizeof(journal_env), "JOURNAL_STREAM=%llu:%llu",
	    (unsigned long long)st.st_dev, (unsigned long long)st.st_ino);
	s->pid = fork();
	cr_assert_neq(s->pid, -1, "fork: %s", strerror(errno));
	if (s->pid == 0) {
		/* Die with the test, even when an assertion ends it early. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		dup2(fd, 2);
		/* Keep the test's stdout: the daemon must not hold its pipe. */
		null = open("/dev/null", O_RDWR);
		dup2(null, 0);
		dup2(null, 1);
		for (i = 0; harness_systemd_vars[i] != NULL; i++)
			unsetenv(harness_systemd_vars[i]);
		for (i = 0; env != NULL && env[i] != NULL; i++)
			putenv((char *)env[i]);
		if (journal)
			putenv(journal_env);
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(fd);
}

const char *
hx_server_log_text(const struct hx_server *s)
{
	static char buf[1 << 16];

	harness_read_log(s, buf, sizeof(buf));
	return buf;
}

int
hx_server_try_start(struct hx_server *s, const char *const *args)
{
	return hx_server_try_start_env(s, args, NULL);
}

int
hx_server_try_start_env(
    struct hx_server *s, const char *const *args, const char *const *env)
{
	const char *argv[HARNESS_MAX_ARGS];
	char sock[300], vglog[320], buf[1 << 16], *p;
	int n = 0, i, status, ready = HARNESS_READY_SECONDS;

	hx_server_prepare(s);
	snprintf(sock, sizeof(sock), "%s", s->unix_addr + 5);

	/*
	 * HX_VALGRIND=1 (make check-valgrind) runs each daemon under
	 * valgrind: a leak or a memory error makes it exit with 3, and
	 * hx_server_stop() fails the test with valgrind's report.
	 */
	if (getenv("HX_VALGRIND") != NULL) {
		snprintf(
		    vglog, sizeof(vglog), "--log-file=%s/valgrind.log", s->dir);
		argv[n++] = "valgrind";
		argv[n++] = "--quiet";
		argv[n++] = "--leak-check=full";
		argv[n++] = "--show-leak-kinds=definite";
		argv[n++] = "--errors-for-leak-kinds=definite";
		argv[n++] = "--error-exitcode=3";
		argv[n++] = vglog;
	}
	argv[n++] = hx_haptixd_path();
	argv[n++] = "--config"; /* the machine's own file must not count */
	argv[n++] = "none";
	argv[n++] = "--state-dir"; /* recordings stay in the test's directory */
	argv[n++] = s->dir;
	argv[n++] = "--unix";
	argv[n++] = sock;
	argv[n++] = "--tcp";
	argv[n++] = "127.0.0.1:0";
	argv[n++] = "-M";
	argv[n++] = harness_env("HX_TEST_MODELS");
	argv[n++] = "-M";
	argv[n++] = harness_env("HX_MODELS");
	argv[n++] = "-v";
	for (i = 0; args != NULL && args[i] != NULL; i++) {
		cr_assert_lt(n, HARNESS_MAX_ARGS - 1, "too many arguments");
		argv[n++] = args[i];
	}
	argv[n] = NULL;
	hx_server_launch(s, argv, env, 0);

	if (getenv("HX_VALGRIND") != NULL)
		ready *= 10; /* valgrind runs MuJoCo's loading 20-50x slower */
	for (i = 0; i < ready * 100; i++) {
		if (waitpid(s->pid, &status, WNOHANG) == s->pid) {
			s->pid = 0;
			return status;
		}
		harness_read_log(s, buf, sizeof(buf));
		if (strstr(buf, "ready (") != NULL) {
			harness_register(s);
			/* A TLS listener's address keeps its tls: */
			if ((p = strstr(buf, "listening on tls:")) != NULL)
				p += strlen("listening on ");
			else if ((p = strstr(buf, "listening on tcp:")) != NULL)
				p += strlen("listening on tcp:");
			cr_assert_not_null(
			    p, "no TCP listener in the log:\n%s", buf);
			snprintf(s->tcp_addr, sizeof(s->tcp_addr), "%.*s",
			    (int)strcspn(p, " \n"), p);
			return -1;
		}
		hx_sleep_ms(10);
	}
	kill(s->pid, SIGKILL);
	waitpid(s->pid, NULL, 0);
	harness_read_log(s, buf, sizeof(buf));
	cr_assert_fail(
	    "haptixd did not become ready in %d s; its log:\n%s", ready, buf);
	return 0;
}

void
hx_server_start(struct hx_server *s, const char *const *args)
{
	char buf[1 << 16];
	int status;

	status = hx_server_try_start(s, args);
	if (status != -1) {
		harness_read_log(s, buf, sizeof(buf));
		cr_assert_fail(
		    "haptixd exited before it was ready (status %d); its "
		    "log:\n%s",
		    status, buf);
	}
}

/* nftw callback: remove one entry of the temporary directory. */
static int
harness_rm(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

/* What valgrind reported for s, if it ran under valgrind (static). */
static const char *
harness_valgrind_report(const struct hx_server *s)
{
	static char buf[1 << 16];
	char path[320];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/valgrind.log", s->dir);
	if ((f = fopen(path, "r")) == NULL)
		return "";
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

void
hx_skip_if_valgrind(void)
{
	if (getenv("HX_VALGRIND") != NULL)
		cr_skip_test("a test of timing, meaningless under valgrind");
}

int
hx_wait_ms(int ms)
{
	return getenv("HX_VALGRIND") != NULL ? 10 * ms : ms;
}

long
hx_rss_kib(pid_t pid)
{
	char path[64], line[256];
	long kib = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if ((f = fopen(path, "r")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, "VmRSS: %ld kB", &kib) == 1)
			break;
	}
	fclose(f);
	return kib;
}

void
hx_skip_unless_glibc_malloc(void)
{
	if (getenv("HX_VALGRIND") != NULL)
		cr_skip_test("valgrind's allocator keeps what malloc_trim() "
			     "would return");
#if defined(__SANITIZE_ADDRESS__)
	cr_skip_test("AddressSanitizer's allocator keeps what malloc_trim() "
		     "would return");
#endif
}

void
hx_remove_tree(const char *dir)
{
	nftw(dir, harness_rm, 8, FTW_DEPTH | FTW_PHYS);
}

static char harness_certs_dir[64];

static void
harness_certs_remove(void)
{
	hx_remove_tree(harness_certs_dir);
}

const char *
hx_test_certs(void)
{
	char prog[4096];
	struct hx_run r = { 0 };

	if (harness_certs_dir[0] != '\0')
		return harness_certs_dir;
	snprintf(harness_certs_dir, sizeof(harness_certs_dir),
	    "/tmp/hx-certs.XXXXXX");
	cr_assert_not_null(mkdtemp(harness_certs_dir));
	atexit(harness_certs_remove);
	snprintf(
	    prog, sizeof(prog), "%s/hx-test-certs", harness_env("HX_PROGS"));
	hx_run_args(&r, prog, harness_certs_dir, NULL);
	cr_assert_eq(r.status, 0, "hx-test-certs: %s", r.err);
	hx_run_free(&r);
	return harness_certs_dir;
}

const char *
hx_test_cert(const char *name)
{
	static char path[8][128];
	static int next;
	char *p = path[next++ % 8];

	snprintf(p, sizeof(path[0]), "%s/%s", hx_test_certs(), name);
	return p;
}

void
hx_server_stop(struct hx_server *s)
{
	char buf[1 << 16];
	int status = 0, i;
	pid_t r = 0;

	if (s->pid > 0) {
		kill(s->pid, SIGTERM);
		for (i = 0; i < HARNESS_STOP_SECONDS * 100; i++) {
			r = waitpid(s->pid, &status, WNOHANG);
			if (r == s->pid)
				break;
			hx_sleep_ms(10);
		}
		if (r != s->pid) {
			kill(s->pid, SIGKILL);
			waitpid(s->pid, &status, 0);
		}
		harness_unregister(s->pid);
		harness_read_log(s, buf, sizeof(buf));
		cr_expect(r == s->pid, "haptixd did not stop on SIGTERM");
		cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		    "haptixd exited with status %d; its log:\n%s%s", status,
		    buf, harness_valgrind_report(s));
		s->pid = 0;
	}
	hx_remove_tree(s->dir);
}

void
hx_server_cleanup(void)
{
	struct hx_server s;
	int i;

	for (i = 0; i < HARNESS_MAX_SERVERS; i++) {
		if (harness_running[i].pid == 0)
			continue;
		s = harness_running[i];
		harness_running[i].pid = 0;
		kill(s.pid, SIGKILL);
		waitpid(s.pid, NULL, 0);
		hx_remove_tree(s.dir);
	}
}

void
hx_run_free(struct hx_run *r)
{
	free(r->out);
	free(r->err);
	r->out = r->err = NULL;
}

void
hx_run(struct hx_run *r, const char *const *argv)
{
	char out[] = "/tmp/hx-out.XXXXXX", err[] = "/tmp/hx-err.XXXXXX";
	int fo, fe, status;
	pid_t pid;

	hx_run_free(r);
	fo = mkstemp(out);
	fe = mkstemp(err);
	cr_assert(fo != -1 && fe != -1, "mkstemp: %s", strerror(errno));
	unlink(out);
	unlink(err);
	pid = fork();
	cr_assert_neq(pid, -1, "fork: %s", strerror(errno));
	if (pid == 0) {
		dup2(fo, 1);
		dup2(fe, 2);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	r->status = WIFEXITED(status) ? WEXITSTATUS(status) :
					128 + WTERMSIG(status);
	r->out = hx_slurp_fd(fo, NULL);
	r->err = hx_slurp_fd(fe, NULL);
	close(fo);
	close(fe);
}

void
hx_run_args(struct hx_run *r, const char *path, ...)
{
	const char *argv[32], *a;
	va_list ap;
	int n = 0;

	argv[n++] = path;
	va_start(ap, path);
	while ((a = va_arg(ap, const char *)) != NULL) {
		cr_assert_lt(n, 31, "too many arguments");
		argv[n++] = a;
	}
	va_end(ap);
	argv[n] = NULL;
	hx_run(r, argv);
}

void
hx_build_with_pkgconfig(
    const char *source, const char *prog, const char *cflags)
{
	const char *b = getenv("HX_BUILD"), *src = getenv("HX_SRC");
	const char *cc = getenv("HX_CC");
	char cmd[4096];
	struct hx_run r = { 0 };

	cr_assert(
	    b != NULL && src != NULL && cc != NULL, "run with make check");
	/* The build tree's haptix-uninstalled.pc, as quickstart env sets. */
	snprintf(cmd, sizeof(cmd),
	    "cd '%s/tests' && export PKG_CONFIG_PATH='%s/lib' && "
	    "%s %s -o %s '%s/tests/%s.c' "
	    "$(pkg-config --cflags --libs haptix) 2>&1",
	    b, b, cc, cflags, prog, src, source);
	hx_run_args(&r, "/bin/sh", "-c", cmd, NULL);
	cr_assert_eq(r.status, 0, "%s\n%s", cmd, r.out);
	hx_run_free(&r);
}

void
hx_proc_start(
    struct hx_proc *p, const char *const *argv, const char *const *env)
{
	char out[] = "/tmp/hx-proc.XXXXXX";
	int k;

	p->status = -1;
	p->out = mkstemp(out);
	cr_assert(p->out != -1, "mkstemp: %s", strerror(errno));
	unlink(out);
	p->pid = fork();
	cr_assert_neq(p->pid, -1, "fork: %s", strerror(errno));
	if (p->pid == 0) {
		dup2(p->out, 1);
		dup2(p->out, 2);
		for (k = 0; env != NULL && env[k] != NULL; k++)
			putenv((char *)env[k]);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
}

/* Reap p if it has ended; 1 if it has. */
static int
harness_proc_reap(struct hx_proc *p, int options)
{
	int status;

	if (p->pid <= 0)
		return 1;
	if (waitpid(p->pid, &status, options) != p->pid)
		return 0;
	p->pid = 0;
	p->status = WIFEXITED(status) ? WEXITSTATUS(status) :
					128 + WTERMSIG(status);
	return 1;
}

int
hx_proc_running(struct hx_proc *p)
{
	return !harness_proc_reap(p, WNOHANG);
}

int
hx_proc_stop(struct hx_proc *p, int sig, int ms)
{
	double deadline = hx_wall_now() + ms / 1000.0;

	if (p->pid > 0 && sig != 0)
		kill(p->pid, sig);
	while (!harness_proc_reap(p, WNOHANG) && hx_wall_now() < deadline)
		hx_sleep_ms(5);
	if (p->pid > 0) {
		kill(p->pid, SIGKILL);
		harness_proc_reap(p, 0);
		return -1;
	}
	return p->status;
}

char *
hx_proc_output(struct hx_proc *p)
{
	return hx_slurp_fd(p->out, NULL);
}
