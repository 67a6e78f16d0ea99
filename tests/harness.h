/*
 * Test harness: start a real haptixd on a temporary Unix socket and an
 * ephemeral TCP port, and stop it again, checking that it exited cleanly.
 */
#ifndef HX_TEST_HARNESS_H
#define HX_TEST_HARNESS_H

#include <stddef.h>
#include <sys/types.h>

struct hx_server {
	pid_t pid;
	char dir[256];       /* temporary directory, removed at stop */
	char unix_addr[320]; /* "unix:DIR/hx.sock" */
	char tcp_addr[64];   /* "127.0.0.1:PORT", or "tls:127.0.0.1:PORT" */
	char log[320];       /* the daemon's stderr */
};

/*
 * Start haptixd with the test model directory, no settings file, and
 * extra arguments (a NULL-terminated list, may be NULL).  Fails the
 * test if it does not become ready within 20 seconds.
 */
void hx_server_start(struct hx_server *s, const char *const *args);

/*
 * Like hx_server_start(), but return the daemon's exit status (as from
 * waitpid) if it exits before it is ready, or -1 once it is ready.
 */
int hx_server_try_start(struct hx_server *s, const char *const *args);

/*
 * Like hx_server_try_start(), with extra environment variables for the
 * daemon ("NAME=VALUE", NULL-terminated; may be NULL).  The daemon never
 * inherits the test's own systemd variables (NOTIFY_SOCKET, WATCHDOG_*,
 * LISTEN_*, JOURNAL_STREAM): only those given here.
 */
int hx_server_try_start_env(
    struct hx_server *s, const char *const *args, const char *const *env);

/* A fresh directory, socket address and log, before a launch. */
void hx_server_prepare(struct hx_server *s);

/*
 * Run argv (a whole command line: haptixd, or a wrapper such as
 * systemd-socket-activate and then haptixd) under s without waiting,
 * stderr to s's log, with env added to an environment free of the
 * test's systemd variables; with journal, JOURNAL_STREAM names the log
 * as systemd names the journal's stream.
 */
void hx_server_launch(struct hx_server *s, const char *const *argv,
    const char *const *env, int journal);

/* The daemon's log so far (static buffer), for failure messages. */
const char *hx_server_log_text(const struct hx_server *s);

/* Stop with SIGTERM; fail the test unless it exits with status 0. */
void hx_server_stop(struct hx_server *s);

/*
 * Kill the daemons a failed test left running and remove their
 * directories: use as the .fini of every suite that starts daemons.
 */
void hx_server_cleanup(void);

/* Return 1 if the daemon's log contains text. */
int hx_server_log_has(const struct hx_server *s, const char *text);

/* The absolute path of a file in models/test (static buffer). */
const char *hx_test_model(const char *name);

/* The daemon, client and model paths from the test environment. */
const char *hx_haptixd_path(void);
const char *hx_hxctl_path(void);
const char *hx_hxview_path(void);
const char *hx_hxplay_path(void);

/* The address to use: the Unix socket (tcp = 0) or TCP (tcp = 1). */
const char *hx_server_addr(const struct hx_server *s, int tcp);

/*
 * The whole of file fd from its start, NUL-terminated, its length in
 * *len (may be NULL); free() it.  Fails the test if memory runs out.
 */
char *hx_slurp_fd(int fd, size_t *len);

/*
 * Skip a test whose point is timing when the daemons run under valgrind
 * (make check-valgrind), where MuJoCo runs some 40 times slower.
 */
void hx_skip_if_valgrind(void);

/*
 * Milliseconds to wait for what takes the daemon ms: ten times as long
 * under valgrind, for a test whose point is not timing.
 */
int hx_wait_ms(int ms);

/*
 * Skip a test of how the daemon gives memory back (glibc's malloc_trim)
 * when another allocator stands in for glibc's: valgrind's, or
 * AddressSanitizer's, which keeps freed memory in a quarantine.
 */
/* The resident memory of process pid in KiB (VmRSS), or -1. */
long hx_rss_kib(pid_t pid);
void hx_skip_unless_glibc_malloc(void);

/* A program run to completion by hx_run(). */
struct hx_run {
	int status; /* exit status, or 128 + the signal that killed it */
	char *out;  /* standard output */
	char *err;  /* standard error */
};

/*
 * Run argv (argv[0] a path, NULL-terminated) to completion, capturing its
 * output and exit status; what r held before is freed.
 */
void hx_run(struct hx_run *r, const char *const *argv);

/* hx_run() of path with the arguments that follow, up to NULL (at most 30). */
void hx_run_args(struct hx_run *r, const char *path, ...);

/* Free what a run captured; the run may be used again. */
void hx_run_free(struct hx_run *r);

/*
 * Build tests/SOURCE.c into the build tree's tests/PROG as a user builds
 * against the installed library: the compiler of configure, cflags
 * (may be ""), and nothing but `pkg-config haptix` pointed at this
 * build.  Fails the test, with the compiler's words, if it does not.
 */
void hx_build_with_pkgconfig(
    const char *source, const char *prog, const char *cflags);

/* Remove a directory and everything in it. */
void hx_remove_tree(const char *dir);

/*
 * The TLS tests' CA and certificates (tests/hx_test_certs.c), made once a
 * process in a directory removed at exit: the directory.
 */
const char *hx_test_certs(void);

/* The path of one of them ("server.pem"; a ring of 8 static buffers). */
const char *hx_test_cert(const char *name);

/* Seconds on the monotonic clock, for waiting and timing. */
double hx_wall_now(void);

/* Sleep for ms milliseconds. */
void hx_sleep_ms(long ms);

/* A program running beside the test (a driver), its output in a file. */
struct hx_proc {
	pid_t pid;  /* 0 once reaped */
	int status; /* then: as hx_run's */
	int out;    /* its stdout and stderr, a temporary file */
};

/* Start argv[0] with env ("NAME=VALUE" entries, may be NULL) added. */
void hx_proc_start(
    struct hx_proc *p, const char *const *argv, const char *const *env);

/*
 * Send sig (0: none) and wait at most ms for p to end: its status as
 * hx_run's, or -1 if it had to be killed.  Idempotent.
 */
int hx_proc_stop(struct hx_proc *p, int sig, int ms);

/* 1 if p is still running. */
int hx_proc_running(struct hx_proc *p);

/* What p has written so far; free() it. */
char *hx_proc_output(struct hx_proc *p);

/* The built drivers ($HX_MOCAP, $HX_SPACENAV). */
const char *hx_mocap_path(void);
const char *hx_spacenav_path(void);

/*
 * Define a test that runs twice, over the Unix socket and over TCP,
 * against a fresh daemon started with the given arguments.  The body
 * sees `srv` (struct hx_server *) and `addr` (const char *).
 */
#define HX_TRANSPORT_TEST(suite, name, ...) \
	static void name##_body(struct hx_server *srv, const char *addr); \
	static void name##_run(int tcp) \
	{ \
		static const char *const name##_args[] = { __VA_ARGS__ }; \
		struct hx_server s; \
		hx_server_start(&s, name##_args); \
		name##_body(&s, hx_server_addr(&s, tcp)); \
		hx_server_stop(&s); \
	} \
	Test(suite, name##_unix, .timeout = 60) \
	{ \
		name##_run(0); \
	} \
	Test(suite, name##_tcp, .timeout = 60) \
	{ \
		name##_run(1); \
	} \
	static void name##_body(struct hx_server *srv, const char *addr)

#endif
