/* The programs' command lines: see usage.h. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "program.h"
#include "usage.h"

void
usage_version(const char *prog)
{
	printf("%s (%s) %s\n", prog, PACKAGE_NAME, PACKAGE_VERSION);
}

int
usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	program_vwarn(fmt, ap);
	va_end(ap);
	program_warn("see %s --help", program_name());
	return USAGE_EXIT;
}

int
usage_number(const char *opt, const char *s, double lo, double hi, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno != 0 || end == s || *end != '\0' || !isfinite(v) || v < lo ||
	    v > hi) {
		program_warn(
		    "%s: '%s' is not a number from %g to %g", opt, s, lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

int
usage_bad_option(const char *prog, int ch, char *const argv[])
{
	const char *arg = optind > 0 ? argv[optind - 1] : "";

	if (ch == ':')
		fprintf(stderr, "%s: %s needs a value\n", prog, arg);
	else if (optopt != 0 && strncmp(arg, "--", 2) != 0)
		fprintf(stderr, "%s: unknown option -%c\n", prog, optopt);
	else
		fprintf(stderr, "%s: unknown option %s\n", prog, arg);
	fprintf(stderr, "%s --help lists the options\n", prog);
	return USAGE_EXIT;
}
