/* In-process daemons for unit tests: see inproc.h. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <event2/event.h>

#include "clock.h"
#include "core.h"
#include "daemon.h"
#include "frame.h"
#include "inproc.h"
#include "log.h"
#include "monotonic.h"
#include "options.h"
#include "session.h"
#include "sim.h"
#include "sim_array.h"

/* Memcheck's client requests, where valgrind's headers are installed. */
#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define INPROC_MEMCHECK 1
#endif
#endif

#define INPROC_MAX_ARGS 32

/* The settings' command line, kept: the settings point into it. */
static struct options_cmdline inproc_cmdline;

void
inproc_max_queued(struct daemon *d, size_t bytes)
{
	((struct options *)(uintptr_t)d->opts)->max_queued = bytes;
}

void
inproc_start(struct daemon *d, const char *const *args)
{
	static char *argv[INPROC_MAX_ARGS];
	struct event_config *cfg;
	struct options *o;
	char err[4200];
	int argc = 0, i;

	signal(SIGPIPE, SIG_IGN);
	argv[argc++] = (char *)"haptixd";
	argv[argc++] = (char *)"--config";
	argv[argc++] = (char *)"none";
	for (i = 0; args != NULL && args[i] != NULL; i++) {
		cr_assert_lt(argc, INPROC_MAX_ARGS - 1, "too many arguments");
		argv[argc++] = (char *)args[i];
	}
	argv[argc] = NULL;
	cr_assert_eq(options_parse_cmdline(&inproc_cmdline, argc, argv), 0,
	    "the test's settings do not parse");
	o = calloc(1, sizeof(*o));
	cr_assert_not_null(o);
	cr_assert_eq(
	    options_build(o, &inproc_cmdline, err, sizeof(err)), 0, "%s", err);
	log_init(getenv("HX_TEST_VERBOSE") != NULL ? 1 : -2);

	memset(d, 0, sizeof(*d));
	d->opts = o;
	d->started = monotonic_s();
	cfg = event_config_new(); /* as haptixd's: not precise */
	d->base = event_base_new_with_config(cfg);
	event_config_free(cfg);
	cr_assert_not_null(d->base, "no event loop");
	core_init(d);
	d->sim = sim_create();
	sim_set_api_rate(d->sim, o->api_rate);
}

void
inproc_load(struct daemon *d, const char *name)
{
	const char *dir = getenv("HX_TEST_MODELS");
	char path[4096], err[4200];

	cr_assert_not_null(dir, "HX_TEST_MODELS is not set");
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	cr_assert_eq(sim_load_file(d->sim, path, err, sizeof(err)), 0,
	    "loading %s: %s", path, err);
}

/* Under valgrind: no memory error so far, and no definite leak. */
static void
inproc_memcheck(void)
{
#ifdef INPROC_MEMCHECK
	unsigned long leaked = 0, dubious = 0, reachable = 0, suppressed = 0;
	unsigned errors;

	if (!RUNNING_ON_VALGRIND)
		return;
	errors = VALGRIND_COUNT_ERRORS;
	VALGRIND_DO_LEAK_CHECK;
	VALGRIND_COUNT_LEAKS(leaked, dubious, reachable, suppressed);
	cr_assert_eq(
	    errors, 0, "valgrind found %u memory errors (above)", errors);
	/* Criterion's own threads hold blocks that look possibly lost. */
	cr_assert_eq(
	    leaked, 0, "valgrind found %lu bytes leaked (above)", leaked);
	(void)dubious;
	(void)reachable;
	(void)suppressed;
#endif
}

void
inproc_stop(struct daemon *d)
{
	double end = monotonic_s() + 5;

	if (d->base == NULL) /* never started, or stopped already */
		return;
	sessions_close_all(d);
	while (sessions_open(d) && monotonic_s() < end)
		inproc_turn(d);
	cr_assert(!sessions_open(d), "a session was not freed");
	clock_free(d->clock);
	d->clock = NULL;
	sim_free(d->sim);
	core_free(d);
	event_base_free(d->base);
	options_free((struct options *)d->opts);
	free((void *)d->opts);
	memset(d, 0, sizeof(*d));
	inproc_memcheck();
}

void
inproc_skip_if_valgrind(void)
{
	int under = getenv("HX_VALGRIND") != NULL;

#ifdef INPROC_MEMCHECK
	under = under || RUNNING_ON_VALGRIND;
#endif
	if (under)
		cr_skip_test("a test of timing, meaningless under valgrind");
}

struct session *
inproc_session(struct daemon *d, int *peer, int sndbuf)
{
	int fds[2];

	cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0,
	    "socketpair: %s", strerror(errno));
	if (sndbuf > 0)
		cr_assert_eq(setsockopt(fds[1], SOL_SOCKET, SO_SNDBUF, &sndbuf,
				 sizeof(sndbuf)),
		    0);
	evutil_make_socket_nonblocking(fds[0]);
	*peer = fds[0];
	return session_create(d, fds[1], SESSION_UNIX, NULL, 0, NULL);
}

void
inproc_turn(struct daemon *d)
{
	event_base_loop(d->base, EVLOOP_ONCE | EVLOOP_NONBLOCK);
}

static void
inproc_noop_cb(evutil_socket_t fd, short events, void *arg)
{
}

void
inproc_run_for(struct daemon *d, double seconds)
{
	struct timeval tv;
	struct event *wake;

	tv.tv_sec = (time_t)seconds;
	tv.tv_usec = (suseconds_t)((seconds - (double)tv.tv_sec) * 1e6);
	/* Something to wait for, so that the loop waits. */
	wake = evtimer_new(d->base, inproc_noop_cb, NULL);
	evtimer_add(wake, &tv);
	event_base_loopexit(d->base, &tv);
	event_base_dispatch(d->base);
	event_free(wake);
}

void
inproc_write(int fd, const void *p, size_t len)
{
	const uint8_t *b = p;
	ssize_t n;

	while (len > 0) {
		n = send(fd, b, len, MSG_NOSIGNAL);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		cr_assert_gt(n, 0, "send: %s", strerror(errno));
		b += n;
		len -= (size_t)n;
	}
}

void
inproc_write_frame(int fd, const void *payload, size_t len)
{
	uint8_t hdr[FRAME_HEADER_SIZE];

	frame_put_header(hdr, (uint32_t)len);
	inproc_write(fd, hdr, sizeof(hdr));
	inproc_write(fd, payload, len);
}

size_t
inproc_rx_read(struct inproc_rx *rx, int fd)
{
	size_t total = 0;
	ssize_t n;

	for (;;) {
		if (rx->cap - rx->len < 65536) {
			rx->cap = rx->cap * 2 + 65536;
			rx->buf = realloc(rx->buf, rx->cap);
			cr_assert_not_null(rx->buf);
		}
		n = recv(
		    fd, rx->buf + rx->len, rx->cap - rx->len, MSG_DONTWAIT);
		if (n > 0) {
			rx->len += (size_t)n;
			total += (size_t)n;
			continue;
		}
		if (n == 0)
			rx->eof = 1;
		else
			cr_assert(errno == EAGAIN || errno == EINTR, "recv: %s",
			    strerror(errno));
		return total;
	}
}

long
inproc_rx_frame(struct daemon *d, struct inproc_rx *rx, int fd,
    const uint8_t **payload, double seconds)
{
	double end = monotonic_s() + seconds;
	size_t plen;

	for (;;) {
		if (frame_parse(rx->buf + rx->pos, rx->len - rx->pos,
			FRAME_MAX_DEFAULT, &plen) == FRAME_READY) {
			*payload = rx->buf + rx->pos + FRAME_HEADER_SIZE;
			rx->pos += FRAME_HEADER_SIZE + plen;
			return (long)plen;
		}
		/* Keep the unread tail only. */
		if (rx->pos != 0) {
			memmove(rx->buf, rx->buf + rx->pos, rx->len - rx->pos);
			rx->len -= rx->pos;
			rx->pos = 0;
		}
		if (rx->eof)
			return -2;
		if (inproc_rx_read(rx, fd) != 0 || rx->eof)
			continue;
		if (monotonic_s() > end)
			return -1;
		inproc_run_for(d, 0.001);
	}
}

int
inproc_rx_eof(struct daemon *d, struct inproc_rx *rx, int fd, double seconds)
{
	double end = monotonic_s() + seconds;

	while (!rx->eof && monotonic_s() < end) {
		if (inproc_rx_read(rx, fd) == 0 && !rx->eof)
			inproc_run_for(d, 0.001);
	}
	return rx->eof;
}

void
inproc_rx_free(struct inproc_rx *rx)
{
	free(rx->buf);
	memset(rx, 0, sizeof(*rx));
}

void
inproc_array_set(struct daemon *d, const char *name, size_t offset, size_t n,
    const double *v)
{
	const char *why = NULL;
	char err[512] = "";
	int id = sim_array_find(name, &why);

	cr_assert_geq(id, 0, "%s: %s", name, why != NULL ? why : "");
	cr_assert_eq(sim_array_set(d->sim, id, offset, n, v, err, sizeof(err)),
	    0, "%s: %s", name, err);
}

void
inproc_array_get(struct daemon *d, const char *name, double *v)
{
	const char *why = NULL;
	int id = sim_array_find(name, &why);

	cr_assert_geq(id, 0, "%s: %s", name, why != NULL ? why : "");
	sim_array_get(d->sim, id, v);
}

Haptix__V1__Response *
inproc_rx_response(
    struct daemon *d, struct inproc_rx *rx, int fd, double seconds)
{
	const uint8_t *p;
	Haptix__V1__Response *r;
	long n = inproc_rx_frame(d, rx, fd, &p, seconds);

	cr_assert_geq(n, 0, "no answer (%ld)", n);
	r = haptix__v1__response__unpack(NULL, (size_t)n, p);
	cr_assert_not_null(r, "the answer does not decode");
	return r;
}
