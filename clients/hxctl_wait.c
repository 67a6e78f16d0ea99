/*
 * Waiting: the signals that end a wait cleanly, holding on for a while
 * (on program_now()'s clock), and noticing that the reader of stdout left.
 */
#include "config.h"

#include <poll.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "hxctl_common.h"
#include "program.h"

static void ctl_on_signal(int);

/* Set by SIGINT or SIGTERM once ctl_signals() has caught them. */
volatile sig_atomic_t ctl_stopped;

/* Note that a signal asked hxctl to stop; the waits look. */
static void
ctl_on_signal(int sig)
{
	(void)sig;
	ctl_stopped = 1;
}

/*
 * Catch SIGINT and SIGTERM so that a wait ends cleanly, and ignore
 * SIGPIPE so that a closed stdout is an error to write, not death.
 */
void
ctl_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, 0 };

	program_signals(ctl_on_signal, sigs);
}

/* Wait hold seconds (0: for ever), or until a caught signal. */
void
ctl_hold(double hold)
{
	double end = program_now() + hold, left;
	struct timespec ts;

	while (!ctl_stopped) {
		left = hold == 0 ? 1.0 : end - program_now();
		if (left <= 0)
			return;
		if (left > CTL_POLL_MS / 1e3)
			left = CTL_POLL_MS / 1e3;
		ts.tv_sec = 0;
		ts.tv_nsec = (long)(left * 1e9);
		nanosleep(&ts, NULL);
	}
}

/* Return 1 if stdout is a pipe or terminal whose reader has gone. */
int
ctl_reader_gone(void)
{
	struct pollfd pfd = { .fd = STDOUT_FILENO, .events = 0 };

	return poll(&pfd, 1, 0) == 1 &&
	    (pfd.revents & (POLLERR | POLLHUP)) != 0;
}
