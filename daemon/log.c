/* Logging to stderr: see log.h. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "log.h"

static int log_max = LOG_LEVEL_INFO;
static int log_journal; /* stderr is the journal: "<N>" prefixes */

/*
 * The journal's priority prefix of each level: syslog's LOG_ERR (3),
 * LOG_WARNING (4), LOG_INFO (6) and LOG_DEBUG (7) in angle brackets, as
 * sd-daemon(3) defines them; written here, so the build needs no libsystemd.
 */
static const char *const log_prefixes[] = {
	[LOG_LEVEL_ERROR] = "<3>",
	[LOG_LEVEL_WARNING] = "<4>",
	[LOG_LEVEL_INFO] = "<6>",
	[LOG_LEVEL_DEBUG] = "<7>",
};

static const char *const log_names[] = {
	[LOG_LEVEL_ERROR] = "error",
	[LOG_LEVEL_WARNING] = "warning",
	[LOG_LEVEL_INFO] = "info",
	[LOG_LEVEL_DEBUG] = "debug",
};

static void log_vwrite(enum log_level, const char *, va_list)
    __attribute__((format(printf, 2, 0)));

/*
 * systemd sets JOURNAL_STREAM to the device and inode of the stream it
 * connected to stderr; when they are still stderr's, the journal reads
 * the lines, else (redirected, or a child of such a process) nobody does.
 */
static int
log_to_journal(void)
{
	const char *v = getenv("JOURNAL_STREAM");
	unsigned long long dev, ino;
	struct stat st;

	if (v == NULL || sscanf(v, "%llu:%llu", &dev, &ino) != 2)
		return 0;
	if (fstat(2, &st) == -1)
		return 0;
	return (unsigned long long)st.st_dev == dev &&
	    (unsigned long long)st.st_ino == ino;
}

void
log_init(int verbosity)
{
	log_journal = log_to_journal();
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

/*
 * Write one line: "haptixd: level: text", or for the journal, which
 * knows the program and shows the priority, "<N>text".
 */
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
	if (log_journal)
		fprintf(stderr, "%s%s\n", log_prefixes[level], line);
	else
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
