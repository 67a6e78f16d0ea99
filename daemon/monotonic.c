/* The monotonic clock: see monotonic.h. */
#include "config.h"

#include <time.h>

#include "monotonic.h"

int64_t
monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

double
monotonic_s(void)
{
	return (double)monotonic_ns() * 1e-9;
}
