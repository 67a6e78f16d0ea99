/*
 * make bench: what the driver (hxbench.c) and the bare baselines
 * (baseline_net.c) share.  No MuJoCo here: the bare mj_step loop is a
 * program of its own (baseline_mujoco.c), since MuJoCo and libhaptix
 * both export mj_step.
 */
#ifndef HX_BENCH_H
#define HX_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "latency.h"
#include "proc.h"

/*
 * Bare ping-pong: round trips of req bytes out and resp bytes back over
 * a Unix socketpair (tcp 0) or TCP loopback with TCP_NODELAY (tcp 1),
 * with a server in a child process that waits as wait says and spins
 * for work seconds before each answer (0: none; a bare lock-step's
 * step).  Open returns NULL with a message on stderr; run does n round
 * trips, each one's seconds in samples (may be NULL), and returns 0 or
 * -1.
 */
enum pingpong_wait {
	PINGPONG_RECV, /* blocked in recv: the bare server */
	PINGPONG_EPOLL /* in epoll_wait, then recv: as an event loop */
};
struct pingpong;
struct pingpong *net_pingpong_open(
    int tcp, size_t req, size_t resp, double work, enum pingpong_wait wait);
int net_pingpong_run(struct pingpong *p, size_t n, double *samples);
pid_t net_pingpong_server(const struct pingpong *p);
void net_pingpong_close(struct pingpong *p);

/*
 * A bare libevent timer (EVENT_BASE_FLAG_PRECISE_TIMER, as haptixd's
 * loop) in a child process for seconds, due every period seconds on an
 * absolute schedule and re-armed as haptixd's pacing clock re-arms: *out
 * receives how late each callback came.  Returns 0, or -1.
 */
int net_timer(double period, double seconds, struct latency *out);

#endif
