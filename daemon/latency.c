/* Latency histogram: see latency.h. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "latency.h"

void
latency_reset(struct latency *h)
{
	memset(h, 0, sizeof(*h));
}

/* The bin of ns: 0 below 1 us, else 1 + floor(8 log2(us)), capped. */
static int
latency_bin(int64_t ns)
{
	double b;

	if (ns < 1000)
		return 0;
	b = 1 + floor(LATENCY_BINS_PER_OCTAVE * log2((double)ns / 1000));
	return b >= LATENCY_BINS - 1 ? LATENCY_BINS - 1 : (int)b;
}

void
latency_add(struct latency *h, int64_t ns)
{
	if (ns < 0)
		ns = 0;
	h->bin[latency_bin(ns)]++;
	h->count++;
	if (ns > h->max_ns)
		h->max_ns = ns;
}

double
latency_percentile(const struct latency *h, double p)
{
	uint64_t rank, seen = 0;
	double mid;
	int i;

	if (h->count == 0)
		return 0;
	/* The sample of rank ceil(p * count), counting from 1. */
	rank = (uint64_t)ceil(p * (double)h->count);
	if (rank < 1)
		rank = 1;
	for (i = 0; i < LATENCY_BINS - 1; i++) {
		seen += h->bin[i];
		if (seen >= rank)
			break;
	}
	/* Bin i >= 1 spans 2^((i-1)/8) to 2^(i/8) us; bin 0, 0 to 1 us. */
	if (i == 0)
		mid = 0.5e-6;
	else
		mid = 1e-6 * exp2((i - 0.5) / LATENCY_BINS_PER_OCTAVE);
	return fmin(mid, latency_max(h));
}

double
latency_max(const struct latency *h)
{
	return (double)h->max_ns * 1e-9;
}
