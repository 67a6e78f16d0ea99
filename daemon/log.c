/* Logging to stderr: see log.h. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "log.h"

static int log_max = LOG_LEVEL_INFO;

static const char *const log_names[] = {
	[LOG_LEVEL_ERROR] = "error",
	[LOG_LEVEL_WARNING] = "warning",
	[LOG_LEVEL_INFO] = "info",
	[LOG_LEVEL_DEBUG] = "debug",
};

static void log_vwrite(enum log_level, const char *, va_list)
    __attribute__((format(printf, 2, 0)));

void
log_init(int verbosity)
{
	log_max = LOG_LEVEL_INFO + verbosity;
	if (log_max < LOG_LEVEL_ERROR)
		log_max = LOG_LEVEL_ERROR;
	/* Lines must reach a pipe or the journal as they happen. */
	setvbuf(stderr, NULL, _IOLBF, 0);
}

int
log_enabled(enum log_level level)
{
	return (int)level <= log_max;
}

/* Write one line: "haptixd: level: text". */
static void
log_vwrite(enum log_level level, const char *fmt, va_list ap)
{
	char raw[2048], line[2048];
	size_t i, n = 0;

	if (!log_enabled(level))
		return;
	vsnprintf(raw, sizeof(raw), fmt, ap);
	/* One event, one line: fold MuJoCo's multi-line messages. */
	for (i = 0; raw[i] != '\0' && n + 3 < sizeof(line); i++) {
		if (raw[i] == '\n' && raw[i + 1] != '\0') {
			line[n++] = ';';
			line[n++] = ' ';
		} else if (raw[i] != '\n' && raw[i] != '\r')
			line[n++] = raw[i];
	}
	line[n] = '\0';
	fprintf(stderr, "haptixd: %s: %s\n", log_names[level], line);
}

void
log_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vwrite(LOG_LEVEL_ERROR, fmt, ap);
	va_end(ap);
}

void
log_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vwrite(LOG_LEVEL_WARNING, fmt, ap);
	va_end(ap);
}

void
log_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vwrite(LOG_LEVEL_INFO, fmt, ap);
	va_end(ap);
}

void
log_debug(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vwrite(LOG_LEVEL_DEBUG, fmt, ap);
	va_end(ap);
}

void
fatal(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vwrite(LOG_LEVEL_ERROR, fmt, ap);
	va_end(ap);
	exit(1);
}
