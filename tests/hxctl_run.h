/*
 * What the hxctl tests share (tests/hxctl_run.c): run the real hxctl
 * against a real haptixd and check what it prints, its JSON and its
 * exit status.
 */
#ifndef HXCTL_RUN_H
#define HXCTL_RUN_H

#include <stddef.h>
#include <sys/types.h>

#include "harness.h"
#include "haptixd.h"

/* The most arguments an hxctl run takes, its own among them. */
#define RUN_MAX_ARGS 40

/* The fixture's time step (see fixture.xml). */
#define FIXTURE_DT 0.002

/* The fixture's reference qpos, and the arguments that load it paused. */
extern const double fixture_qpos0[9];
extern const char *const fixture_args[];

/* The daemon a test started, and hxctls it left in the background. */
extern struct hx_server test_server;
extern pid_t holder, watcher;

/* Start haptixd with args; return its Unix socket address. */
const char *start(const char *const *args);

/* After every test, even a failed one: stop what it left running. */
void cleanup(void);

/* Run hxctl with the arguments that follow server, up to NULL. */
void hxctl(struct hx_run *r, const char *server, ...);

/* Run hxctl --json; expect success and one well-formed JSON object. */
void hxctl_json(struct hx_run *r, const char *server, ...);

/* Expect s to be one JSON object and a newline. */
void expect_json_object(const char *s);

/* Start hxctl in the background, its output thrown away. */
pid_t hxctl_spawn(const char *server, ...);

/* Start hxctl in the background, its stdout and stderr on out and err. */
pid_t hxctl_spawn_to(int out, int err, const char *server, ...);

/* A new unlinked temporary file, open for reading and writing. */
int temp_file(void);

/*
 * Wait up to seconds for pid to exit; return its exit status, or 128 +
 * the signal that killed it.  Fails the test if it does not exit.
 */
int wait_exit(pid_t pid, double seconds);

/* Wait up to 5 s until the other clients of c have n subscriptions. */
void wait_subscribed(hxd_conn *c, int n);

/* Copy the innermost JSON object around fragment of json into buf. */
void json_object_with(
    const char *json, const char *fragment, char *buf, size_t len);

/* Split text into its lines (modified in place); returns their number. */
int split_lines(char *text, char **lines, int max);

/* Expect each of n lines to be one JSON object (as from JSON Lines). */
void expect_json_lines(char **lines, int n);

/* Expect success, with nothing on standard error. */
void expect_ok(const struct hx_run *r);

/*
 * Expect exit status 1 with nothing on stdout and one line on stderr,
 * "hxctl: CMD: RESULT: ..." containing text (unless NULL).
 */
void expect_fail(const struct hx_run *r, const char *cmd, const char *result,
    const char *text);

/* Expect a usage error: exit status 2, a hint on stderr, no stdout. */
void expect_usage(const struct hx_run *r, const char *what);

/* The number after "key": in a JSON text; fails the test if absent. */
double json_num(const char *json, const char *key);

/* The numbers of the array "key": [...] in a JSON text; their count. */
int json_nums(const char *json, const char *key, double *v, int max);

/* Expect the array "key" to hold exactly want[0..n). */
void expect_nums(const char *json, const char *key, const double *want, int n);

/* The simulation time the server reports. */
double status_time(const char *addr);

/* Wait up to 5 s for the status to contain fragment; return 1 if it did. */
int status_eventually_has(const char *addr, const char *fragment);

#endif
