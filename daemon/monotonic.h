/*
 * The monotonic clock, as every part of the daemon reads it: pacing,
 * deadlines, turns, ages and latencies.
 */
#ifndef HXD_MONOTONIC_H
#define HXD_MONOTONIC_H

#include <stdint.h>

/* Nanoseconds on the monotonic clock. */
int64_t monotonic_ns(void);

/* Seconds on the monotonic clock. */
double monotonic_s(void);

#endif
