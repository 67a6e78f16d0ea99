/*
 * Logging: one line per event on stderr, with a level.  Fatal errors
 * exit; client input must never reach them.
 */
#ifndef HXD_LOG_H
#define HXD_LOG_H

enum log_level {
	LOG_LEVEL_ERROR,
	LOG_LEVEL_WARNING,
	LOG_LEVEL_INFO,
	LOG_LEVEL_DEBUG,
};

/* Show messages up to LOG_LEVEL_INFO + verbosity. */
void log_init(int verbosity);

/* Return 1 if messages of this level are shown. */
int log_enabled(enum log_level level);

void log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Log at error level and exit with status 1. */
void fatal(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), noreturn));

#endif
