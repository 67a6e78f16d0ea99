/* What every client program shares: see program.h. */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "program.h"

static const char *program_given = "haptixd";

void
program_set_name(const char *name)
{
	program_given = name;
}

const char *
program_name(void)
{
	return program_given;
}

void
program_vwarn(const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", program_given);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void
program_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	program_vwarn(fmt, ap);
	va_end(ap);
}

double
program_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void
program_signals(void (*handler)(int), const int *sigs)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	for (; *sigs != 0; sigs++)
		sigaction(*sigs, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
}
