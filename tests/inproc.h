/*
 * In-process daemons for the unit tests of the middle floor (session,
 * pending, clock, lease, stream): a daemon composed as main() and
 * fuzz/fuzz_session.c compose it (settings, event loop, sim, perhaps a
 * model), sessions on one end of a socketpair whose other end the test
 * writes and reads, and turns of the loop.  No haptixd process.
 */
#ifndef HX_INPROC_H
#define HX_INPROC_H

#include <stddef.h>
#include <stdint.h>

#include "haptix.pb-c.h"

struct daemon;
struct session;

/*
 * Build d: the settings of args (NULL-terminated, after --config none;
 * args may be NULL), an event loop with precise timers, a sim without a
 * model.  The log shows errors only, unless HX_TEST_VERBOSE is set.
 */
void inproc_start(struct daemon *d, const char *const *args);

/*
 * Set --max-queued to bytes, below --max-frame if need be (which
 * haptixd refuses at start), so that one answer can overflow a queue:
 * the transport's own limit, reached here without first filling the
 * queue.  Before the sessions it should apply to are made.
 */
void inproc_max_queued(struct daemon *d, size_t bytes);

/* Load name from the test models (HX_TEST_MODELS) into d's sim. */
void inproc_load(struct daemon *d, const char *name);

/*
 * Close every session, run the loop until they are freed, and free what
 * inproc_start() made, and d->clock if set; nothing if d is not
 * running (a test's .fini after it stopped).  Under valgrind (make
 * check-valgrind), fail the test if memcheck found a memory error or a
 * definite leak: the test runner does not see the exit status of its
 * workers.  Call it at the end of each test's body: Criterion 2.4 prints
 * an assertion that fails in .fini but passes the test.
 */
void inproc_stop(struct daemon *d);

/* Skip a test whose point is timing when it runs under valgrind. */
void inproc_skip_if_valgrind(void);

/*
 * Serve one end of a new socketpair as a Unix session and return it;
 * *peer gets the other end, non-blocking.  With sndbuf > 0 the session's
 * socket gets that send buffer, so that a peer that does not read soon
 * leaves output queued in the session.
 */
struct session *inproc_session(struct daemon *d, int *peer, int sndbuf);

/* One turn of the loop: what is due runs, nothing is waited for. */
void inproc_turn(struct daemon *d);

/* Run the loop for seconds of wall time, waiting for events. */
void inproc_run_for(struct daemon *d, double seconds);

/* Write a frame of len payload bytes to fd, all of it. */
void inproc_write_frame(int fd, const void *payload, size_t len);

/* Write len raw bytes to fd, all of it. */
void inproc_write(int fd, const void *p, size_t len);

/* What the test read from a peer: bytes not yet taken as frames. */
struct inproc_rx {
	uint8_t *buf;
	size_t len, cap, pos;
	int eof; /* the session shut its side down */
};

/* Read what the peer has now, without waiting; return the bytes read. */
size_t inproc_rx_read(struct inproc_rx *rx, int fd);

/*
 * The next whole frame from fd, running d's loop while it waits (at most
 * seconds): returns its payload length and sets *payload (valid until the
 * next call), or -1 when none came in time, -2 at the end of the stream.
 */
long inproc_rx_frame(struct daemon *d, struct inproc_rx *rx, int fd,
    const uint8_t **payload, double seconds);

/* Wait up to seconds (running d's loop) for the end of the stream on fd. */
int inproc_rx_eof(
    struct daemon *d, struct inproc_rx *rx, int fd, double seconds);

void inproc_rx_free(struct inproc_rx *rx);

/*
 * The next frame from fd, which must come within seconds, decoded as a
 * Response (free it with haptix__v1__response__free_unpacked).
 */
Haptix__V1__Response *inproc_rx_response(
    struct daemon *d, struct inproc_rx *rx, int fd, double seconds);

/*
 * The loaded model's mjModel or mjData array name (sim_array.h): write n
 * values of v into it from offset, which must be allowed; read it all
 * into v.
 */
void inproc_array_set(struct daemon *d, const char *name, size_t offset,
    size_t n, const double *v);
void inproc_array_get(struct daemon *d, const char *name, double *v);

#endif
