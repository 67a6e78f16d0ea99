/* The programs' command lines: see usage.h. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "usage.h"

void
usage_version(const char *prog)
{
	printf("%s (%s) %s\n", prog, PACKAGE_NAME, PACKAGE_VERSION);
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
