/*
 * Times as hxplay prints them: a recording's nanoseconds since the epoch
 * in ISO 8601, shared by info and export.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <time.h>

#include "hxplay_common.h"

/* See hxplay_common.h. */
char *
play_iso8601(int64_t ns, char *buf, size_t len)
{
	int64_t sec = ns / 1000000000, frac = ns % 1000000000;
	char day[64];
	struct tm tm;
	time_t t;

	if (frac < 0) {
		frac += 1000000000;
		sec--;
	}
	t = (time_t)sec;
	if (gmtime_r(&t, &tm) == NULL ||
	    strftime(day, sizeof(day), "%Y-%m-%dT%H:%M:%S", &tm) == 0)
		return NULL;
	snprintf(buf, len, "%s.%09" PRId64 "Z", day, frac);
	return buf;
}
