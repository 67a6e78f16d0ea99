/*
 * What every client program shares beside its command line (usage.h):
 * its name in warnings, a monotonic clock, and the signals that stop it.
 */
#ifndef HX_PROGRAM_H
#define HX_PROGRAM_H

#include <stdarg.h>

/* The name warnings begin with; set once by main(). */
void program_set_name(const char *name);
const char *program_name(void);

/* "NAME: message" and a newline on standard error. */
void program_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void program_vwarn(const char *fmt, va_list ap);

/* Seconds on the monotonic clock. */
double program_now(void);

/*
 * Call handler on each signal of sigs (ended by 0), restarting no
 * interrupted call, and ignore SIGPIPE (a peer gone is seen as EPIPE).
 */
void program_signals(void (*handler)(int), const int *sigs);

#endif
