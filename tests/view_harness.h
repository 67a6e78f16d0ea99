/*
 * What the hxview tests (tests/test_view.c, test_serve.c and
 * test_serve_guard.c) share (tests/view_harness.c): running the real
 * hxview and what it left, its pictures, hxview serve and HTTP to it.
 * view_harness.c also holds their main(), which exits 77 (SKIP, with
 * hxview's reason) when hxview cannot render here.
 */
#ifndef VIEW_HARNESS_H
#define VIEW_HARNESS_H

#include <stddef.h>
#include <sys/types.h>

#include "harness.h"
#include "haptixd.h"

/* The picture size the tests render at: small, for llvmpipe. */
#define W 160
#define H 120
#define SIZE "160x120"

/* The most arguments an hxview run takes, its own among them. */
#define MAX_ARGS 40

/* How long a foreground hxview may take before the test fails. */
#define RUN_SECONDS 30

/* A decoded picture, RGB, top row first. */
struct image {
	int w, h;
	unsigned char *px;
};

/* What an HTTP request got back. */
struct http {
	int code;
	char head[4096];     /* the status line and headers */
	unsigned char *body; /* dechunked */
	size_t len;
};

/* The daemon's arguments for models/test/view.xml, the red box. */
extern const char *const view_args[];

/* The line in which the last serve_start() said where it serves. */
extern char serve_said[1024];

/* After every test, even a failed one: stop what it left running. */
void cleanup(void);

/* The test's scratch directory, made on first use; path of name in it. */
const char *scratch_path(const char *name);

/* Forget pid, a background hxview that exited, for cleanup(). */
void child_forget(pid_t pid);

/* A new unlinked temporary file, open for reading and writing. */
int temp_file(void);

/* Start hxview with stdout on out and stderr on err (-1: /dev/null). */
pid_t spawn_argv(const char **argv, int out, int err);

/* spawn_argv() with stdin on in too (-1: /dev/null). */
pid_t spawn_io(const char **argv, int in, int out, int err);

/* Wait up to seconds for pid's exit status (128 + a signal); or fail. */
int wait_exit(pid_t pid, double seconds);

/* Run hxview with the arguments up to NULL; capture what it did. */
void view(struct hx_run *r, ...);

/* Expect a run to have exited with code and said text on stderr. */
void expect_exit(const struct hx_run *r, int code, const char *text);

/* Free a picture's pixels. */
void image_free(struct image *im);

/* Decode a PNG held in memory; fails the test unless it is one. */
void png_decode(
    struct image *im, const void *data, size_t len, const char *what);

/* The RGB of the pixel at x, y. */
const unsigned char *pixel(const struct image *im, int x, int y);

/* Is p the red box, lit: red well above green and blue? */
int is_red(const unsigned char *p);

/* Is p the green box (view_green.xml), lit? */
int is_green(const unsigned char *p);

/* Start hxview serve (addr NULL: no --server); its port and address. */
int serve_start(pid_t *pid, int *err, char *listening, const char *addr, ...);

/* Stop serve with SIGTERM: it must exit 0. */
void serve_stop(pid_t pid, int err);

/* Send one request with a body, read the answer (for seconds if > 0). */
void http_send(struct http *h, int port, const char *method, const char *path,
    const char *extra, const void *body, size_t blen, double seconds);

/* Send one request without a body, read the answer as http_send(). */
void http(struct http *h, int port, const char *method, const char *path,
    const char *extra, double seconds);

/* Free an answer's body. */
void http_free(struct http *h);

/* Expect a code and, when given, this Content-Type. */
void http_expect(const struct http *h, int code, const char *type);

/* Connect to hxview serve on port; returns the socket. */
int http_connect(int port);

/* Has the simulation time advanced over 300 ms, and is it running? */
void expect_running(hxd_conn *c, const char *when);

#endif
