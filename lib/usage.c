/* The programs' command lines: see usage.h. */
#include "config.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
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
