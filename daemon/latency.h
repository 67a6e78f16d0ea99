/*
 * Latencies in log-spaced microsecond bins: a fixed histogram, cheap
 * enough to fill on every pacing tick, allocating nothing, with
 * percentiles good to a bin's width (8 bins per octave: about 9 %).
 * The pacing clock measures its step-start lateness with it, and the
 * benchmark's bare timer with the same bins, so that the two compare.
 */
#ifndef HXD_LATENCY_H
#define HXD_LATENCY_H

#include <stdint.h>

#define LATENCY_BINS_PER_OCTAVE 8

/* Bin 0 holds less than 1 us; the last, 2^24 us (17 s) and more. */
#define LATENCY_BINS (24 * LATENCY_BINS_PER_OCTAVE + 2)

struct latency {
	uint64_t count;
	int64_t max_ns;
	uint64_t bin[LATENCY_BINS];
};

/* Forget every sample. */
void latency_reset(struct latency *h);

/* Count one sample of ns nanoseconds; a negative one counts as 0. */
void latency_add(struct latency *h, int64_t ns);

/*
 * The latency below which a share p (0 to 1) of the samples fall, in
 * seconds: the geometric middle of its bin, never above the largest
 * sample.  0 when there are none.
 */
double latency_percentile(const struct latency *h, double p);

/* The largest sample in seconds; 0 when there are none. */
double latency_max(const struct latency *h);

#endif
