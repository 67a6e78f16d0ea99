/* HAPTIX's log file (.mjl): see mjl.h. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "mjl.h"

static uint32_t
mjl_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

/* A little-endian float as a double; every float is a double exactly. */
static double
mjl_float(const uint8_t *p)
{
	uint32_t u = mjl_le32(p);
	float f;

	memcpy(&f, &u, sizeof(f));
	return (double)f;
}

static int32_t
mjl_int(const uint8_t *p)
{
	uint32_t u = mjl_le32(p);
	int32_t v;

	memcpy(&v, &u, sizeof(v));
	return v;
}

int
mjl_description(const uint8_t *p, struct rec_header *h, size_t *name_len,
    char *err, size_t len)
{
	static const char *const names[6] = { "nq", "nv", "nu", "nmocap",
		"nsensordata", "the name's length" };
	int32_t v[6];
	uint64_t floats;
	int i;

	for (i = 0; i < 6; i++) {
		v[i] = mjl_int(p + 4 * i);
		if (v[i] < 0 ||
		    (uint32_t)v[i] > (i < 5 ? REC_SIZE_MAX : MJL_NAME_MAX)) {
			snprintf(err, len, "%s is %ld (limit %u)", names[i],
			    (long)v[i], i < 5 ? REC_SIZE_MAX : MJL_NAME_MAX);
			return -1;
		}
	}
	memset(h, 0, sizeof(*h));
	h->format = REC_FORMAT_MJL;
	h->fields = REC_FIELDS_HAPTIX;
	h->every = 1;
	h->nq = (uint32_t)v[0];
	h->nv = (uint32_t)v[1];
	h->nu = (uint32_t)v[2];
	h->nmocap = (uint32_t)v[3];
	h->nsensordata = (uint32_t)v[4];
	floats = 1 + (uint64_t)h->nq + h->nv + h->nu + 7 * (uint64_t)h->nmocap +
	    h->nsensordata;
	if (4 * floats > REC_ITEM_MAX) {
		snprintf(err, len, "a record of %llu bytes (limit %u)",
		    (unsigned long long)(4 * floats), REC_ITEM_MAX);
		return -1;
	}
	*name_len = (size_t)v[5];
	return 0;
}

void
mjl_name(struct rec_header *h, const uint8_t *p, size_t n)
{
	const uint8_t *nul = memchr(p, '\0', n);

	if (nul != NULL)
		n = (size_t)(nul - p);
	if (n > REC_NAME_MAX)
		n = REC_NAME_MAX;
	memcpy(h->name, p, n);
	h->name[n] = '\0';
}

size_t
mjl_record_len(const struct rec_header *h)
{
	return 4 *
	    (1 + (size_t)h->nq + h->nv + h->nu + 7 * (size_t)h->nmocap +
		h->nsensordata);
}

void
mjl_record(
    const struct rec_header *h, const uint8_t *p, double *time, double *v)
{
	size_t i, n = mjl_record_len(h) / 4 - 1;

	*time = mjl_float(p);
	for (i = 0; i < n; i++)
		v[i] = mjl_float(p + 4 * (i + 1));
}
