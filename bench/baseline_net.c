/*
 * make bench: the bare baselines of the network and pacing figures.  A
 * socket ping-pong with the byte counts of the measured call, and a
 * libevent timer at the pacing period, each with its other end in a
 * child process, as haptixd is a process of its own.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>

#include "bench.h"

static int64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Move exactly len bytes; 0, or -1 at an error or the end. */
static int
net_xfer(int fd, void *buf, size_t len, int out)
{
	char *p = buf;
	ssize_t n;

	while (len > 0) {
		n = out ? send(fd, p, len, MSG_NOSIGNAL) : recv(fd, p, len, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * The child's side: answer each request until the other end closes,
 * after work_ns of spinning (a bare lock-step's step), if any.
 */
static void
net_serve(int fd, size_t req, size_t resp, int64_t work_ns,
    enum pingpong_wait wait, char *buf)
{
	struct epoll_event ev = { .events = EPOLLIN };
	int ep = -1;
	int64_t until;

	/* Waiting as an event loop waits: in epoll_wait, then reading. */
	if (wait == PINGPONG_EPOLL &&
	    ((ep = epoll_create1(0)) == -1 ||
		epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) != 0))
		return;
	while ((ep == -1 || epoll_wait(ep, &ev, 1, -1) == 1) &&
	    net_xfer(fd, buf, req, 0) == 0) {
		if (work_ns > 0)
			for (until = now_ns() + work_ns; now_ns() < until;)
				;
		if (net_xfer(fd, buf, resp, 1) != 0)
			break;
	}
}

/* A connected TCP pair on loopback, both ends with TCP_NODELAY. */
static int
net_tcp_pair(int fds[2])
{
	struct sockaddr_in sin;
	socklen_t len = sizeof(sin);
	int l, one = 1;

	fds[0] = fds[1] = -1;
	l = socket(AF_INET, SOCK_STREAM, 0);
	if (l == -1)
		return -1;
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(l, (struct sockaddr *)&sin, sizeof(sin)) != 0 ||
	    listen(l, 1) != 0 ||
	    getsockname(l, (struct sockaddr *)&sin, &len) != 0 ||
	    (fds[0] = socket(AF_INET, SOCK_STREAM, 0)) == -1 ||
	    connect(fds[0], (struct sockaddr *)&sin, sizeof(sin)) != 0 ||
	    (fds[1] = accept(l, NULL, NULL)) == -1) {
		close(l);
		if (fds[0] != -1)
			close(fds[0]);
		return -1;
	}
	close(l);
	setsockopt(fds[0], IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	setsockopt(fds[1], IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return 0;
}

struct pingpong {
	int fd;
	pid_t pid;
	size_t req, resp;
	char *buf;
};

pid_t
net_pingpong_server(const struct pingpong *p)
{
	return p->pid;
}

struct pingpong *
net_pingpong_open(
    int tcp, size_t req, size_t resp, double work, enum pingpong_wait wait)
{
	struct pingpong *p = calloc(1, sizeof(*p));
	int fds[2];

	if (p == NULL || (p->buf = calloc(1, req > resp ? req : resp)) == NULL)
		goto fail;
	p->req = req;
	p->resp = resp;
	if ((tcp ? net_tcp_pair(fds) :
		   socketpair(AF_UNIX, SOCK_STREAM, 0, fds)) != 0) {
		fprintf(stderr, "hxbench: ping-pong: %s\n", strerror(errno));
		goto fail;
	}
	p->pid = fork();
	if (p->pid == -1) {
		fprintf(stderr, "hxbench: fork: %s\n", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		goto fail;
	}
	if (p->pid == 0) {
		close(fds[0]);
		net_serve(
		    fds[1], req, resp, (int64_t)(work * 1e9), wait, p->buf);
		_exit(0);
	}
	close(fds[1]);
	p->fd = fds[0];
	return p;
fail:
	if (p != NULL)
		free(p->buf);
	free(p);
	return NULL;
}

int
net_pingpong_run(struct pingpong *p, size_t n, double *samples)
{
	size_t i;
	double t0;

	for (i = 0; i < n; i++) {
		t0 = bench_now();
		if (net_xfer(p->fd, p->buf, p->req, 1) != 0 ||
		    net_xfer(p->fd, p->buf, p->resp, 0) != 0) {
			fprintf(stderr, "hxbench: ping-pong: %s\n",
			    strerror(errno));
			return -1;
		}
		if (samples != NULL)
			samples[i] = bench_now() - t0;
	}
	return 0;
}

void
net_pingpong_close(struct pingpong *p)
{
	if (p == NULL)
		return;
	close(p->fd);
	waitpid(p->pid, NULL, 0);
	free(p->buf);
	free(p);
}

/* The bare timer: haptixd's pacing clock without the stepping. */
struct net_timer {
	struct event *ev;
	int64_t anchor, end;
	uint64_t done;
	double period; /* ns */
	struct latency lateness;
};

/* Arm for the next due tick, truncating to microseconds as clock.c does. */
static void
net_timer_arm(struct net_timer *t, int64_t now)
{
	int64_t due = t->anchor + (int64_t)((double)(t->done + 1) * t->period);
	int64_t delta = due > now ? due - now : 0;
	struct timeval tv;

	tv.tv_sec = (time_t)(delta / 1000000000LL);
	tv.tv_usec = (suseconds_t)(delta % 1000000000LL / 1000);
	evtimer_add(t->ev, &tv);
}

static void
net_timer_cb(evutil_socket_t fd, short events, void *arg)
{
	struct net_timer *t = arg;
	int64_t now = now_ns(), owed;

	owed = (int64_t)floor((double)(now - t->anchor) / t->period) -
	    (int64_t)t->done;
	if (owed > 0) {
		latency_add(&t->lateness,
		    now - t->anchor -
			(int64_t)((double)(t->done + 1) * t->period));
		t->done += (uint64_t)owed;
	}
	if (now < t->end)
		net_timer_arm(t, now_ns());
}

int
net_timer(double period, double seconds, struct latency *out)
{
	struct event_config *cfg;
	struct event_base *base;
	struct net_timer t;
	int fds[2], status;
	ssize_t n;
	pid_t pid;

	if (pipe(fds) != 0)
		return -1;
	pid = fork();
	if (pid == -1) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		close(fds[0]);
		cfg = event_config_new();
		event_config_set_flag(cfg, EVENT_BASE_FLAG_PRECISE_TIMER);
		base = event_base_new_with_config(cfg);
		if (base == NULL)
			_exit(1);
		memset(&t, 0, sizeof(t));
		t.ev = evtimer_new(base, net_timer_cb, &t);
		t.period = period * 1e9;
		t.anchor = now_ns();
		t.end = t.anchor + (int64_t)(seconds * 1e9);
		net_timer_arm(&t, t.anchor);
		event_base_dispatch(base);
		n = write(fds[1], &t.lateness, sizeof(t.lateness));
		_exit(n == (ssize_t)sizeof(t.lateness) ? 0 : 1);
	}
	close(fds[1]);
	n = read(fds[0], out, sizeof(*out));
	close(fds[0]);
	if (waitpid(pid, &status, 0) != pid || status != 0 ||
	    n != (ssize_t)sizeof(*out)) {
		fprintf(stderr, "hxbench: the bare timer failed\n");
		return -1;
	}
	return 0;
}
