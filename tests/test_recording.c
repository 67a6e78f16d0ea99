/* Unit tests of the recording file (lib/recording.c). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <zstd.h>

#include "recording.h"
#include "scratch.h"

#define MAXV 64      /* doubles of any one field in these tests */
#define MAXFRAMES 64 /* frames of a sample file */

/* A sample file: where each frame ends, and the items before that. */
struct sample {
	size_t frames;
	uint64_t end[MAXFRAMES];
	uint64_t items[MAXFRAMES];
};

/* Bit patterns a careless copy would change; the time gets no sNaN. */
static const uint64_t specials[] = {
	0x8000000000000000ull, /* -0.0 */
	0x7ff80000deadbeefull, /* a quiet NaN with a payload */
	0x0000000000000001ull, /* the smallest denormal */
	0x800fffffffffffffull, /* the largest negative denormal */
	0x7ff0000000000000ull, /* inf */
	0x7fefffffffffffffull, /* DBL_MAX */
	0xfff0000000000001ull, /* a signalling NaN, negative */
};
#define NSPECIAL (sizeof(specials) / sizeof(specials[0]))

TestSuite(
    recording, .init = hx_scratch_init, .fini = hx_scratch_fini, .timeout = 60);

/* Small sizes of every kind, so that the files stay a few KB. */
static struct rec_header
small_header(uint32_t fields)
{
	struct rec_header h;

	memset(&h, 0, sizeof(h));
	h.fields = fields;
	h.every = 1;
	h.nq = 3;
	h.nv = 2;
	h.na = 1;
	h.nu = 2;
	h.nmocap = 1;
	h.nsensordata = 4;
	h.nbody = 2;
	h.timestep = 0.002;
	h.model_hash = 0x0123456789abcdefull;
	h.created = 1700000000123456789ll;
	snprintf(h.name, sizeof(h.name), "MPL test");
	return h;
}

/* Item k of every sample: mostly records, some journal entries and hashes. */
static uint32_t
item_tag(uint64_t k)
{
	if (k % 7 == 3)
		return REC_TAG_JOURNAL;
	if (k % 5 == 4)
		return REC_TAG_HASH;
	return REC_TAG_STATE;
}

static uint64_t
item_value(uint64_t k, size_t f, size_t j)
{
	if (j == 0)
		return specials[(k + f) % NSPECIAL];
	return hx_mix64(k, f, j);
}

static uint64_t
item_time(uint64_t k)
{
	if (k % 3 == 0)
		return specials[(k / 3) % (NSPECIAL - 1)];
	return hx_bits((double)k * 0.002);
}

static size_t
item_journal(uint64_t k, uint8_t *data)
{
	size_t len = (size_t)(k % 50), j;

	for (j = 0; j < len; j++)
		data[j] = (uint8_t)hx_mix64(k, 7, j);
	return len;
}

/* Add item k to w: the writer's result. */
static int
add_item(struct rec_writer *w, const struct rec_header *h, uint64_t k)
{
	static double v[REC_NFIELD][MAXV];
	const double *field[REC_NFIELD];
	uint8_t data[64];
	size_t f, j, len;
	uint64_t u;
	double t;

	switch (item_tag(k)) {
	case REC_TAG_STATE:
		for (f = 0; f < REC_NFIELD; f++) {
			cr_assert_leq(rec_field_size(h, f), MAXV);
			for (j = 0; j < rec_field_size(h, f); j++) {
				u = item_value(k, f, j);
				memcpy(&v[f][j], &u, sizeof(u));
			}
			field[f] = v[f];
		}
		u = item_time(k);
		memcpy(&t, &u, sizeof(t));
		return rec_writer_state(w, 3 * k + 1, t, field);
	case REC_TAG_JOURNAL:
		len = item_journal(k, data);
		return rec_writer_journal(
		    w, 3 * k + 1, (uint32_t)k * 7, len != 0 ? data : NULL, len);
	default:
		return rec_writer_hash(w, 3 * k + 1, hx_mix64(k, 99, 0));
	}
}

static void
write_item(struct rec_writer *w, const struct rec_header *h, uint64_t k)
{
	cr_assert_eq(add_item(w, h, k), 0, "item %llu: %s",
	    (unsigned long long)k, rec_writer_error(w));
}

/* Whether it is item k, bit for bit. */
static void
check_item(const struct rec_header *h, uint64_t k, const struct rec_item *it)
{
	uint8_t data[64];
	size_t f, j, len;

	cr_assert_eq(it->tag, item_tag(k), "item %llu", (unsigned long long)k);
	cr_assert_eq(it->step, 3 * k + 1);
	switch (it->tag) {
	case REC_TAG_STATE:
		cr_assert_eq(hx_bits(it->time), item_time(k),
		    "time of item %llu", (unsigned long long)k);
		for (f = 0; f < REC_NFIELD; f++) {
			if (!(h->fields & REC_FIELD_BIT(f))) {
				cr_assert_null(it->field[f]);
				continue;
			}
			cr_assert_not_null(it->field[f]);
			for (j = 0; j < rec_field_size(h, f); j++) {
				cr_assert_eq(hx_bits(it->field[f][j]),
				    item_value(k, f, j),
				    "item %llu, %s[%zu]: %016llx",
				    (unsigned long long)k, rec_field_name(f), j,
				    (unsigned long long)hx_bits(
					it->field[f][j]));
			}
		}
		break;
	case REC_TAG_JOURNAL:
		len = item_journal(k, data);
		cr_assert_eq(it->kind, (uint32_t)k * 7);
		cr_assert_eq(it->len, len);
		cr_assert_arr_eq(it->data, data, len);
		break;
	case REC_TAG_HASH:
		cr_assert_eq(it->hash, hx_mix64(k, 99, 0));
		break;
	}
}

/* n items into path, a flush after every period of them and at the end. */
static void
write_sample(const char *path, const struct rec_header *h, uint64_t n,
    unsigned period, struct sample *s)
{
	struct rec_writer_stats st;
	struct rec_writer *w;
	char err[256];
	uint64_t k;

	memset(s, 0, sizeof(*s));
	w = rec_writer_open(path, h, 0, err, sizeof(err));
	cr_assert_not_null(w, "%s", err);
	rec_writer_stats(w, &st);
	s->end[s->frames++] = st.bytes_written;
	for (k = 0; k < n; k++) {
		write_item(w, h, k);
		if (k % period == period - 1 || k == n - 1) {
			cr_assert_eq(rec_writer_flush(w), 0);
			rec_writer_stats(w, &st);
			cr_assert_lt(s->frames, MAXFRAMES);
			s->items[s->frames] = k + 1;
			s->end[s->frames++] = st.bytes_written;
		}
	}
	cr_assert_eq(rec_writer_close(w, err, sizeof(err)), 0, "%s", err);
}

/*
 * Read path to its end: the number of items, each checked against the
 * sample; -1 after an error (message into err).
 */
static int64_t
read_sample(
    const char *path, struct rec_reader_stats *st, char *err, size_t len)
{
	struct rec_reader *r;
	struct rec_item it;
	int64_t n = 0;
	int rc;

	if ((r = rec_reader_open(path, err, len)) == NULL)
		return -2;
	while ((rc = rec_reader_next(r, &it)) == 1)
		check_item(rec_reader_header(r), (uint64_t)n++, &it);
	rec_reader_stats(r, st);
	if (rc < 0) {
		snprintf(err, len, "%s", rec_reader_error(r));
		n = -1;
	}
	rec_reader_close(r);
	return n;
}

Test(recording, hash_is_fnv1a_64)
{
	cr_assert_eq(rec_hash64("", 0, REC_HASH_SEED), 0xcbf29ce484222325ull);
	cr_assert_eq(rec_hash64("a", 1, REC_HASH_SEED), 0xaf63dc4c8601ec8cull);
	cr_assert_eq(
	    rec_hash64("foobar", 6, REC_HASH_SEED), 0x85944171f73967e8ull);
	cr_assert_eq(rec_hash64("bar", 3, rec_hash64("foo", 3, REC_HASH_SEED)),
	    0x85944171f73967e8ull, "a hash continues from its seed");
}

Test(recording, round_trip_bit_exact_across_many_frames)
{
	struct rec_header h = small_header(REC_FIELDS_ALL);
	const struct rec_header *g;
	struct rec_reader_stats rs;
	struct rec_reader *r;
	struct sample s;
	char err[256];
	size_t len;
	int64_t n;

	write_sample(hx_scratch("a.hxr"), &h, 600, 13, &s);
	cr_assert_gt(s.frames, 40);
	n = read_sample(hx_scratch("a.hxr"), &rs, err, sizeof(err));
	cr_assert_eq(n, 600, "%s", err);
	cr_assert_eq(rs.frames, s.frames);
	cr_assert_eq(rs.items, 600);
	cr_assert_eq(rs.skipped, 0);
	cr_assert_eq(rs.truncated, 0);
	free(hx_read_file(hx_scratch("a.hxr"), &len));
	cr_assert_eq(rs.offset, len);
	cr_assert_eq(s.end[s.frames - 1], len, "bytes_written is the size");

	r = rec_reader_open(hx_scratch("a.hxr"), err, sizeof(err));
	cr_assert_not_null(r, "%s", err);
	g = rec_reader_header(r);
	cr_assert_eq(g->version, REC_VERSION);
	cr_assert_eq(g->fields, REC_FIELDS_ALL);
	cr_assert_eq(g->every, 1);
	cr_assert_eq(g->nq, 3);
	cr_assert_eq(g->nv, 2);
	cr_assert_eq(g->na, 1);
	cr_assert_eq(g->nu, 2);
	cr_assert_eq(g->nmocap, 1);
	cr_assert_eq(g->nsensordata, 4);
	cr_assert_eq(g->nbody, 2);
	cr_assert_eq(hx_bits(g->timestep), hx_bits(0.002));
	cr_assert_eq(g->model_hash, 0x0123456789abcdefull);
	cr_assert_eq(g->created, 1700000000123456789ll);
	cr_assert_str_eq(g->name, "MPL test");
	rec_reader_close(r);
}

Test(recording, writer_counts)
{
	struct rec_header h = small_header(REC_FIELDS_HAPTIX);
	struct rec_writer_stats st;
	struct rec_writer *w;
	char err[256];
	size_t len;
	uint64_t k;

	w = rec_writer_open(hx_scratch("c.hxr"), &h, 3, err, sizeof(err));
	cr_assert_not_null(w, "%s", err);
	rec_writer_stats(w, &st);
	cr_assert_eq(st.frames, 1, "the header's frame is written at once");
	cr_assert_eq(st.bytes_raw, 80 + strlen("MPL test"));
	cr_assert_eq(st.buffered, 0);
	for (k = 0; k < 10; k++)
		write_item(w, &h, k);
	rec_writer_stats(w, &st);
	cr_assert_eq(st.items, 10);
	cr_assert_eq(st.records, 7);
	cr_assert_eq(st.frames, 1);
	/* Records of 8 + 16 + 8 * (3 + 2 + 2 + 3 + 4 + 4) bytes. */
	cr_assert_eq(st.buffered, 7 * (24 + 8 * 18) + (24 + 3) + 2 * 24);
	cr_assert_eq(rec_writer_flush(w), 0);
	rec_writer_stats(w, &st);
	cr_assert_eq(st.frames, 2);
	cr_assert_eq(st.buffered, 0);
	cr_assert_eq(st.bytes_raw, 88 + 7 * (24 + 8 * 18) + (24 + 3) + 2 * 24);
	cr_assert_eq(rec_writer_close(w, err, sizeof(err)), 0, "%s", err);
	free(hx_read_file(hx_scratch("c.hxr"), &len));
	cr_assert_eq(st.bytes_written, len);
}

/*
 * A state record whose time is below the one before begins a segment
 * (a reset); an equal time, NaN and the other items do not.
 */
Test(recording, time_going_back_begins_a_segment)
{
	static const double times[] = { 0.1, 0.2, 0.0, 0.0, 0.3, NAN, 0.25, 0.3,
		-1 };
	static const uint64_t want[] = { 1, 1, 2, 2, 2, 2, 3, 3, 4 };
	struct rec_header h = small_header(0);
	const double *none[REC_NFIELD] = { NULL };
	struct rec_reader_stats st;
	struct rec_reader *r;
	struct rec_writer *w;
	struct rec_item it;
	char err[256];
	size_t i, n = sizeof(times) / sizeof(times[0]);

	w = rec_writer_open(hx_scratch("g.hxr"), &h, 0, err, sizeof(err));
	cr_assert_not_null(w, "%s", err);
	for (i = 0; i < n; i++) {
		cr_assert_eq(rec_writer_state(w, i, times[i], none), 0);
		cr_assert_eq(rec_writer_hash(w, i, i), 0);
	}
	cr_assert_eq(rec_writer_close(w, err, sizeof(err)), 0, "%s", err);
	r = rec_reader_open(hx_scratch("g.hxr"), err, sizeof(err));
	cr_assert_not_null(r, "%s", err);
	for (i = 0; rec_reader_next(r, &it) == 1;) {
		if (it.tag != REC_TAG_STATE) {
			cr_expect_eq(it.segment, 0);
			continue;
		}
		cr_expect_eq(it.segment, want[i], "record %zu: segment %llu", i,
		    (unsigned long long)it.segment);
		i++;
	}
	cr_assert_eq(i, n);
	rec_reader_stats(r, &st);
	cr_expect_eq(st.segments, 4);
	rec_reader_close(r);
}

Test(recording, flush_with_nothing_buffered_writes_nothing)
{
	struct rec_header h = small_header(REC_FIELDS_HAPTIX);
	struct rec_writer_stats a, b;
	struct rec_writer *w;
	char err[256];
	int i;

	w = rec_writer_open(hx_scratch("e.hxr"), &h, 0, err, sizeof(err));
	cr_assert_not_null(w, "%s", err);
	rec_writer_stats(w, &a);
	for (i = 0; i < 1000; i++)
		cr_assert_eq(rec_writer_flush(w), 0);
	rec_writer_stats(w, &b);
	cr_assert_eq(b.frames, a.frames);
	cr_assert_eq(b.bytes_written, a.bytes_written);
	write_item(w, &h, 0);
	cr_assert_eq(rec_writer_flush(w), 0);
	cr_assert_eq(rec_writer_flush(w), 0);
	rec_writer_stats(w, &b);
	cr_assert_eq(b.frames, a.frames + 1);
	cr_assert_eq(rec_writer_close(w, err, sizeof(err)), 0, "%s", err);
}

Test(recording, a_full_buffer_ends_a_frame_by_itself)
{
	struct rec_header h = small_header(REC_FIELDS_ALL);
	struct rec_writer_stats st;
	struct rec_reader_stats rs;
	struct rec_writer *w;
	char err[256];
	uint64_t k, n;

	/* Records of 8 + 16 + 8 * 33 bytes, most of the items. */
	n = 4 * (REC_FLUSH_AT / 200);
	w = rec_writer_open(hx_scratch("f.hxr"), &h, 0, err, sizeof(err));
	cr_assert_not_null(w, "%s", err);
	for (k = 0; k < n; k++) {
		write_item(w, &h, k);
		rec_writer_stats(w, &st);
		cr_assert_lt(st.buffered, REC_FLUSH_AT);
	}
	cr_assert_geq(
	    st.frames, 3, "%llu frames", (unsigned long long)st.frames);
	cr_assert_eq(rec_writer_close(w, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(read_sample(hx_scratch("f.hxr"), &rs, err, sizeof(err)),
	    (int64_t)n, "%s", err);
}

/* The header of docs/recording.md's layout, byte by byte, at p. */
static void
expect_layout_header(const uint8_t *p)
{
	uint64_t le;
	size_t j;

	cr_assert_eq(memcmp(p, "HXREC\0\1\0", 8), 0);
	cr_assert_eq(p[8], 88, "header size");
	cr_assert_eq(p[12], REC_FIELDS_HAPTIX);
	cr_assert_eq(p[13], 0);
	cr_assert_eq(p[16], 5, "every");
	cr_assert_eq(p[20], 3, "nq");
	cr_assert_eq(p[24], 2, "nv");
	cr_assert_eq(p[28], 1, "na");
	cr_assert_eq(p[32], 2, "nu");
	cr_assert_eq(p[36], 1, "nmocap");
	cr_assert_eq(p[40], 4, "nsensordata");
	cr_assert_eq(p[44], 2, "nbody");
	le = hx_bits(0.002);
	for (j = 0; j < 8; j++)
		cr_assert_eq(p[48 + j], (uint8_t)(le >> 8 * j), "timestep");
	cr_assert_eq(p[56], 0xef, "model hash, little-endian");
	cr_assert_eq(p[63], 0x01);
	cr_assert_eq(p[64], (uint8_t)1700000000123456789ll, "created");
	cr_assert_eq(p[72], 8, "name length");
	cr_assert_eq(memcmp(p + 76, "\0\0\0\0MPL test", 12), 0);
}

/*
 * A record at p: tag, length, step, time, qpos qvel ctrl mocap sensors.
 * Returns where it ends.
 */
static uint8_t *
expect_layout_record(uint8_t *p)
{
	size_t j;
	double d;

	cr_assert_eq(memcmp(p, "\1\0\0\0", 4), 0);
	cr_assert_eq(p[4], 16 + 8 * 18);
	cr_assert_eq(p[8], 10);
	memcpy(&d, p + 16, 8);
	cr_assert_eq(d, 0.5);
	p += 24;
	for (j = 0; j < 3; j++, p += 8) {
		memcpy(&d, p, 8);
		cr_assert_eq(d, 100 * REC_QPOS + j);
	}
	for (j = 0; j < 2; j++, p += 8) {
		memcpy(&d, p, 8);
		cr_assert_eq(d, 100 * REC_QVEL + j);
	}
	for (j = 0; j < 2; j++, p += 8) {
		memcpy(&d, p, 8);
		cr_assert_eq(d, 100 * REC_CTRL + j);
	}
	for (j = 0; j < 3; j++, p += 8) {
		memcpy(&d, p, 8);
		cr_assert_eq(d, 100 * REC_MOCAP_POS + j);
	}
	for (j = 0; j < 4; j++, p += 8) {
		memcpy(&d, p, 8);
		cr_assert_eq(d, 100 * REC_MOCAP_QUAT + j);
	}
	for (j = 0; j < 4; j++, p += 8) {
		memcpy(&d, p, 8);
		cr_assert_eq(d, 100 * REC_SENSORDATA + j);
	}
	return p;
}

/* The layout of docs/recording.md, byte by byte. */
Test(recording, layout_as_documented)
{
	struct rec_header h = small_header(REC_FIELDS_HAPTIX);
	static const uint8_t journal[3] = { 0xaa, 0xbb, 0xcc };
	double v[REC_NFIELD][MAXV];
	const double *field[REC_NFIELD];
	uint8_t raw[4096], *file, *p;
	size_t f, j, len, n;

	h.every = 5;
	for (f = 0; f < REC_NFIELD; f++) {
		for (j = 0; j < MAXV; j++)
			v[f][j] = (double)(100 * f + j);
		field[f] = v[f];
	}
	{
		struct rec_writer *w;
		char err[256];

		w = rec_writer_open(
		    hx_scratch("l.hxr"), &h, 0, err, sizeof(err));
		cr_assert_not_null(w, "%s", err);
		cr_assert_eq(rec_writer_state(w, 10, 0.5, field), 0);
		cr_assert_eq(rec_writer_flush(w), 0);
		cr_assert_eq(rec_writer_journal(w, 11, 7, journal, 3), 0);
		cr_assert_eq(rec_writer_hash(w, 12, 0x1122334455667788ull), 0);
		cr_assert_eq(rec_writer_close(w, err, sizeof(err)), 0);
	}
	file = hx_read_file(hx_scratch("l.hxr"), &len);
	cr_assert_eq(memcmp(file, "\x28\xb5\x2f\xfd", 4), 0, "a zstd frame");
	/* Concatenated frames decompress as one stream. */
	n = ZSTD_decompress(raw, sizeof(raw), file, len);
	cr_assert(!ZSTD_isError(n), "%s", ZSTD_getErrorName(n));
	free(file);
	p = raw;
	expect_layout_header(p);
	p += 88;
	p = expect_layout_record(p);
	/* A journal entry: tag, length, step, kind, length, bytes. */
	cr_assert_eq(memcmp(p,
			 "\2\0\0\0\23\0\0\0\13\0\0\0\0\0\0\0"
			 "\7\0\0\0\3\0\0\0\xaa\xbb\xcc",
			 27),
	    0);
	p += 27;
	/* A hash: tag, length, step, hash. */
	cr_assert_eq(memcmp(p,
			 "\3\0\0\0\20\0\0\0\14\0\0\0\0\0\0\0"
			 "\x88\x77\x66\x55\x44\x33\x22\x11",
			 24),
	    0);
	p += 24;
	cr_assert_eq((size_t)(p - raw), n, "nothing else");
}

Test(recording, every_and_field_subsets)
{
	static const uint32_t sets[] = { REC_FIELD_BIT(REC_QVEL) |
		    REC_FIELD_BIT(REC_SENSORDATA) |
		    REC_FIELD_BIT(REC_XFRC_APPLIED),
		REC_FIELD_BIT(REC_ACT), 0, REC_FIELDS_HAPTIX };
	struct rec_header h;
	struct rec_writer *w;
	struct rec_reader *r;
	struct rec_item it;
	double v[REC_NFIELD][MAXV];
	const double *field[REC_NFIELD];
	char err[256], name[32];
	uint64_t step, seen;
	size_t i, f, j;

	for (i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		h = small_header(sets[i]);
		h.every = 4;
		snprintf(name, sizeof(name), "s%zu.hxr", i);
		w = rec_writer_open(hx_scratch(name), &h, 0, err, sizeof(err));
		cr_assert_not_null(w, "%s", err);
		/* Only the fields chosen are read: the others are NULL. */
		memset(field, 0, sizeof(field));
		for (f = 0; f < REC_NFIELD; f++) {
			if (sets[i] & REC_FIELD_BIT(f))
				field[f] = v[f];
		}
		for (step = 0; step < 100; step++) {
			cr_assert_eq(rec_writer_due(w, step), step % 4 == 0);
			if (!rec_writer_due(w, step))
				continue;
			for (f = 0; f < REC_NFIELD; f++) {
				for (j = 0; j < MAXV; j++)
					v[f][j] = (double)(step * 1000 +
					    f * 10 + j);
			}
			cr_assert_eq(rec_writer_state(
					 w, step, (double)step * 0.002, field),
			    0, "%s", rec_writer_error(w));
			if (step % 24 == 0)
				cr_assert_eq(rec_writer_flush(w), 0);
		}
		cr_assert_eq(rec_writer_close(w, err, sizeof(err)), 0);

		r = rec_reader_open(hx_scratch(name), err, sizeof(err));
		cr_assert_not_null(r, "%s", err);
		cr_assert_eq(rec_reader_header(r)->every, 4);
		cr_assert_eq(rec_reader_header(r)->fields, sets[i]);
		seen = 0;
		while (rec_reader_next(r, &it) == 1) {
			cr_assert_eq(it.tag, REC_TAG_STATE);
			cr_assert_eq(it.step, 4 * seen);
			cr_assert_eq(it.time, (double)it.step * 0.002);
			for (f = 0; f < REC_NFIELD; f++) {
				if (!(sets[i] & REC_FIELD_BIT(f))) {
					cr_assert_null(it.field[f], "%s",
					    rec_field_name(f));
					continue;
				}
				cr_assert_not_null(it.field[f]);
				for (j = 0; j < rec_field_size(&h, f); j++)
					cr_assert_eq(it.field[f][j],
					    (double)(it.step * 1000 + f * 10 +
						j));
			}
			seen++;
		}
		cr_assert_eq(seen, 25, "set %zu: %s", i, rec_reader_error(r));
		rec_reader_close(r);
	}
}

Test(recording, a_chosen_field_missing_is_refused)
{
	struct rec_header h = small_header(REC_FIELDS_HAPTIX);
	double v[MAXV] = { 0 };
	const double *field[REC_NFIELD];
	struct rec_writer_stats st;
	struct rec_writer *w;
	char err[256];
	size_t f;

	w = rec_writer_open(hx_scratch("m.hxr"), &h, 0, err, sizeof(err));
	cr_assert_not_null(w, "%s", err);
	for (f = 0; f < REC_NFIELD; f++)
		field[f] = v;
	field[REC_SENSORDATA] = NULL;
	cr_assert_eq(rec_writer_state(w, 0, 0, field), -1);
	cr_assert(strstr(rec_writer_error(w), "sensordata") != NULL, "%s",
	    rec_writer_error(w));
	field[REC_SENSORDATA] = v;
	field[REC_ACT] = NULL; /* not chosen */
	cr_assert_eq(rec_writer_state(w, 0, 0, field), 0, "not for good");
	rec_writer_stats(w, &st);
	cr_assert_eq(st.records, 1);
	cr_assert_eq(rec_writer_close(w, err, sizeof(err)), 0, "%s", err);
}

Test(recording, truncated_at_every_offset_reads_up_to_the_last_whole_frame)
{
	struct rec_header h = small_header(REC_FIELDS_HAPTIX);
	struct rec_reader_stats rs;
	struct sample s;
	uint8_t *file;
	size_t len, cut, i;
	char err[256];
	int64_t n;

	write_sample(hx_scratch("t.hxr"), &h, 40, 7, &s);
	file = hx_read_file(hx_scratch("t.hxr"), &len);
	cr_assert_eq(len, s.end[s.frames - 1]);
	for (cut = 0; cut <= len; cut++) {
		hx_write_file(hx_scratch("cut.hxr"), file, cut);
		for (i = s.frames; i > 0 && s.end[i - 1] > cut; i--)
			;
		n = read_sample(hx_scratch("cut.hxr"), &rs, err, sizeof(err));
		if (i == 0) {
			cr_assert_eq(n, -2, "cut at %zu: no header", cut);
			cr_assert(strstr(err, "ends before its header") != NULL,
			    "cut at %zu: %s", cut, err);
			continue;
		}
		i--;
		cr_assert_eq(n, (int64_t)s.items[i], "cut at %zu: %s", cut,
		    n < 0 ? err : "");
		cr_assert_eq(rs.frames, i + 1, "cut at %zu", cut);
		cr_assert_eq(rs.offset, s.end[i]);
		cr_assert_eq(rs.truncated, cut != s.end[i], "cut at %zu", cut);
		cr_assert_eq(rs.dropped, cut - s.end[i], "cut at %zu", cut);
	}
	free(file);
}

/*
 * A changed byte never crashes the reader nor gives a wrong item: the
 * frames before come whole, then an error or the truncation; a clean
 * end only if zstd ignores the bit (every item then still right).
 */
Test(recording, a_corrupt_byte_is_an_error)
{
	static const uint8_t flips[] = { 0x01, 0x80, 0xff };
	struct rec_header h = small_header(REC_FIELDS_HAPTIX);
	struct rec_reader_stats rs;
	struct sample s;
	uint8_t *file;
	size_t len, off, i, errors = 0, named = 0, trials;
	char err[256], word[32];
	int64_t n;

	write_sample(hx_scratch("x.hxr"), &h, 40, 7, &s);
	cr_assert_geq(s.frames, 5);
	file = hx_read_file(hx_scratch("x.hxr"), &len);
	snprintf(
	    word, sizeof(word), "at byte %llu:", (unsigned long long)s.end[1]);
	for (off = s.end[1]; off < s.end[2]; off++) {
		for (i = 0; i < sizeof(flips); i++) {
			file[off] ^= flips[i];
			hx_write_file(hx_scratch("bad.hxr"), file, len);
			file[off] ^= flips[i];
			n = read_sample(
			    hx_scratch("bad.hxr"), &rs, err, sizeof(err));
			cr_assert_geq(n, -1, "byte %zu: %s", off, err);
			if (n == -1) {
				errors++;
				named += strstr(err, word) != NULL;
				cr_assert_geq(rs.items, s.items[1],
				    "byte %zu: the frames before it read", off);
			} else if (!rs.truncated) {
				cr_assert_eq(
				    n, 40, "byte %zu: a clean end", off);
			}
		}
	}
	trials = 3 * (size_t)(s.end[2] - s.end[1]);
	cr_assert_gt(
	    errors * 100, trials * 95, "%zu errors of %zu", errors, trials);
	cr_assert_gt(named * 100, trials * 95, "%zu named", named);

	/* Its payload: an error naming where the frame starts. */
	off = (s.end[1] + s.end[2]) / 2;
	file[off] ^= 0x10;
	hx_write_file(hx_scratch("bad.hxr"), file, len);
	cr_assert_eq(
	    read_sample(hx_scratch("bad.hxr"), &rs, err, sizeof(err)), -1);
	cr_assert(strstr(err, word) != NULL, "%s", err);
	cr_assert_eq(rs.items, s.items[1]);
	free(file);
}

/* The header's bytes of a sample file, and the frames after it. */
static uint8_t *
header_bytes(uint8_t *hdr, size_t *hlen, size_t *rest)
{
	struct rec_header h = small_header(REC_FIELDS_HAPTIX);
	struct sample s;
	uint8_t *file;
	size_t len, c;

	write_sample(hx_scratch("h.hxr"), &h, 10, 5, &s);
	file = hx_read_file(hx_scratch("h.hxr"), &len);
	c = ZSTD_findFrameCompressedSize(file, len);
	cr_assert(!ZSTD_isError(c));
	*hlen = ZSTD_decompress(hdr, REC_HEADER_MAX, file, c);
	cr_assert(!ZSTD_isError(*hlen));
	memmove(file, file + c, len - c);
	*rest = len - c;
	return file;
}

/* A file of the header hdr (compressed here) and then rest. */
static void
spit_header(const char *path, const uint8_t *hdr, size_t hlen,
    const uint8_t *rest, size_t restlen)
{
	uint8_t buf[8192];
	size_t c;

	c = ZSTD_compress(buf, sizeof(buf), hdr, hlen, 1);
	cr_assert(!ZSTD_isError(c));
	cr_assert_leq(c + restlen, sizeof(buf));
	memcpy(buf + c, rest, restlen);
	hx_write_file(path, buf, c + restlen);
}

static void
put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

Test(recording, hostile_headers_are_refused)
{
	static const struct {
		size_t off;
		uint32_t v;
		const char *says;
	} cases[] = {
		{ 20, 0xffffffffu, "nq is 4294967295" },
		{ 40, REC_SIZE_MAX + 1, "nsensordata is" },
		{ 44, 0x80000000u, "nbody is" },
		{ 12, 1u << REC_NFIELD, "unknown fields" },
		{ 16, 0, "every 0 steps" },
		{ 8, 0xffffffffu, "header of 88 bytes that says 4294967295" },
		{ 8, 87, "header of 88 bytes" },
		{ 72, 0xffffffffu, "with a name of 4294967295" },
		{ 72, 9, "with a name of 9" },
		{ 4, 0x00010044u, "not a haptixd recording" },
		{ 4, 0x00030043u, "version 3 (this reader knows 1)" },
	};
	uint8_t hdr[REC_HEADER_MAX], bad[REC_HEADER_MAX], *rest, big[8192];
	size_t hlen, restlen, i;
	struct rec_reader *r;
	char err[256];

	rest = header_bytes(hdr, &hlen, &restlen);
	spit_header(hx_scratch("ok.hxr"), hdr, hlen, rest, restlen);
	r = rec_reader_open(hx_scratch("ok.hxr"), err, sizeof(err));
	cr_assert_not_null(r, "the file as it was: %s", err);
	rec_reader_close(r);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memcpy(bad, hdr, hlen);
		put32(bad + cases[i].off, cases[i].v);
		spit_header(hx_scratch("bad.hxr"), bad, hlen, rest, restlen);
		r = rec_reader_open(hx_scratch("bad.hxr"), err, sizeof(err));
		cr_assert_null(r, "case %zu", i);
		cr_assert(
		    strstr(err, cases[i].says) != NULL, "case %zu: %s", i, err);
	}

	/* Sizes each within the limit, a record of gigabytes together. */
	memcpy(bad, hdr, hlen);
	put32(bad + 12, REC_FIELDS_ALL);
	for (i = 20; i <= 44; i += 4)
		put32(bad + i, REC_SIZE_MAX);
	spit_header(hx_scratch("bad.hxr"), bad, hlen, rest, restlen);
	cr_assert_null(
	    rec_reader_open(hx_scratch("bad.hxr"), err, sizeof(err)));
	cr_assert(strstr(err, "a record of") != NULL, "%s", err);

	/* A NUL in the name. */
	memcpy(bad, hdr, hlen);
	bad[82] = '\0';
	spit_header(hx_scratch("bad.hxr"), bad, hlen, rest, restlen);
	cr_assert_null(
	    rec_reader_open(hx_scratch("bad.hxr"), err, sizeof(err)));
	cr_assert(strstr(err, "NUL") != NULL, "%s", err);

	/* A first frame bigger than any header. */
	memset(big, 0, sizeof(big));
	memcpy(big, hdr, hlen);
	put32(big + 8, sizeof(big));
	spit_header(hx_scratch("bad.hxr"), big, sizeof(big), rest, 0);
	cr_assert_null(
	    rec_reader_open(hx_scratch("bad.hxr"), err, sizeof(err)));
	cr_assert(strstr(err, "more than 4096 bytes") != NULL, "%s", err);

	/* Not zstd; nothing at all. */
	hx_write_file(hx_scratch("bad.hxr"), "HXREC\0\1\0 plain", 15);
	cr_assert_null(
	    rec_reader_open(hx_scratch("bad.hxr"), err, sizeof(err)));
	cr_assert(strstr(err, "not a haptixd recording") != NULL, "%s", err);
	hx_write_file(hx_scratch("bad.hxr"), "", 0);
	cr_assert_null(
	    rec_reader_open(hx_scratch("bad.hxr"), err, sizeof(err)));
	cr_assert(strstr(err, "ends before its header") != NULL, "%s", err);
	cr_assert_null(
	    rec_reader_open(hx_scratch("none.hxr"), err, sizeof(err)));
	cr_assert(strstr(err, "No such file") != NULL, "%s", err);
	free(rest);
}

/* A valid header, then a frame of raw (its items) compressed here. */
static void
append_frame(const char *path, const void *raw, size_t len)
{
	size_t bound = ZSTD_compressBound(len), c;
	uint8_t *buf = malloc(bound);
	int fd;

	cr_assert_not_null(buf);
	c = ZSTD_compress(buf, bound, raw, len, 1);
	cr_assert(!ZSTD_isError(c));
	fd = open(path, O_WRONLY | O_APPEND);
	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, buf, c), (ssize_t)c);
	close(fd);
	free(buf);
}

static void
empty_recording(const char *path)
{
	struct rec_header h = small_header(REC_FIELDS_HAPTIX);
	struct rec_writer *w;
	char err[256];

	unlink(path);
	w = rec_writer_open(path, &h, 0, err, sizeof(err));
	cr_assert_not_null(w, "%s", err);
	cr_assert_eq(rec_writer_close(w, err, sizeof(err)), 0);
}

/* The first item's result, with the error. */
static int
first_item(const char *path, char *err, size_t len)
{
	struct rec_reader *r;
	struct rec_item it;
	int rc;

	r = rec_reader_open(path, err, len);
	cr_assert_not_null(r, "%s", err);
	rc = rec_reader_next(r, &it);
	snprintf(err, len, "%s", rec_reader_error(r));
	if (rc == -1)
		cr_assert_eq(rec_reader_next(r, &it), -1, "errors stay");
	rec_reader_close(r);
	return rc;
}

Test(recording, hostile_frames_and_items_are_errors)
{
	uint8_t item[64];
	char err[256];
	void *zeros;
	ZSTD_CCtx *cc;
	size_t bound, c;
	uint8_t *out;
	int fd, i;

	memset(item, 0, sizeof(item));
	/* 80 MiB of zeros in a few KB: refused before it is all held. */
	empty_recording(hx_scratch("z.hxr"));
	zeros = calloc(1, 1 << 20);
	cc = ZSTD_createCCtx();
	cr_assert(zeros != NULL && cc != NULL);
	bound = ZSTD_compressBound(1 << 20);
	out = malloc(bound);
	fd = open(hx_scratch("z.hxr"), O_WRONLY | O_APPEND);
	cr_assert_geq(fd, 0);
	for (i = 0; i < 80; i++) {
		ZSTD_inBuffer in = { zeros, 1 << 20, 0 };
		ZSTD_outBuffer o = { out, bound, 0 };

		c = ZSTD_compressStream2(
		    cc, &o, &in, i == 79 ? ZSTD_e_end : ZSTD_e_continue);
		cr_assert(!ZSTD_isError(c) && in.pos == in.size);
		cr_assert_eq(write(fd, out, o.pos), (ssize_t)o.pos);
	}
	close(fd);
	free(out);
	free(zeros);
	ZSTD_freeCCtx(cc);
	cr_assert_eq(first_item(hx_scratch("z.hxr"), err, sizeof(err)), -1);
	cr_assert(strstr(err, "holds more than") != NULL, "%s", err);

	/* An item longer than its frame. */
	empty_recording(hx_scratch("o.hxr"));
	put32(item, REC_TAG_STATE);
	put32(item + 4, 0xffffffffu);
	append_frame(hx_scratch("o.hxr"), item, 16);
	cr_assert_eq(first_item(hx_scratch("o.hxr"), err, sizeof(err)), -1);
	cr_assert(strstr(err, "overruns") != NULL, "%s", err);

	/* A frame ending inside an item's tag and length. */
	empty_recording(hx_scratch("o.hxr"));
	append_frame(hx_scratch("o.hxr"), item, 5);
	cr_assert_eq(first_item(hx_scratch("o.hxr"), err, sizeof(err)), -1);
	cr_assert(strstr(err, "ends inside an item") != NULL, "%s", err);

	/* A record of the wrong size for its header. */
	empty_recording(hx_scratch("o.hxr"));
	memset(item, 0, sizeof(item));
	put32(item, REC_TAG_STATE);
	put32(item + 4, 24);
	append_frame(hx_scratch("o.hxr"), item, 32);
	cr_assert_eq(first_item(hx_scratch("o.hxr"), err, sizeof(err)), -1);
	cr_assert(strstr(err, "tag 1 and 24 bytes") != NULL, "%s", err);

	/* A journal entry whose two lengths differ; a short hash. */
	empty_recording(hx_scratch("o.hxr"));
	memset(item, 0, sizeof(item));
	put32(item, REC_TAG_JOURNAL);
	put32(item + 4, 20);
	put32(item + 20, 5);
	append_frame(hx_scratch("o.hxr"), item, 28);
	cr_assert_eq(first_item(hx_scratch("o.hxr"), err, sizeof(err)), -1);
	cr_assert(strstr(err, "tag 2") != NULL, "%s", err);
	empty_recording(hx_scratch("o.hxr"));
	memset(item, 0, sizeof(item));
	put32(item, REC_TAG_HASH);
	put32(item + 4, 8);
	append_frame(hx_scratch("o.hxr"), item, 16);
	cr_assert_eq(first_item(hx_scratch("o.hxr"), err, sizeof(err)), -1);
	cr_assert(strstr(err, "tag 3") != NULL, "%s", err);
}

Test(recording, unknown_tags_and_skippable_frames_are_passed_over)
{
	struct rec_header h = small_header(REC_FIELDS_HAPTIX);
	uint8_t raw[64], skip[12];
	struct rec_reader_stats rs;
	struct rec_writer *w;
	struct rec_reader *r;
	struct rec_item it;
	char err[256];
	int fd;

	fd = open(hx_scratch("u.hxr"), O_WRONLY | O_CREAT | O_EXCL, 0644);
	cr_assert_geq(fd, 0);
	w = rec_writer_fdopen(fd, &h, 0, err, sizeof(err));
	cr_assert_not_null(w, "%s", err);
	cr_assert_eq(rec_writer_hash(w, 1, 11), 0);
	cr_assert_eq(rec_writer_flush(w), 0);
	/* A frame of a tag from the future, then a hash. */
	memset(raw, 0, sizeof(raw));
	put32(raw, 99);
	put32(raw + 4, 5);
	put32(raw + 13, REC_TAG_HASH);
	put32(raw + 17, 16);
	raw[21] = 2;
	raw[29] = 22;
	{
		uint8_t frame[128];
		size_t c;

		c = ZSTD_compress(frame, sizeof(frame), raw, 37, 1);
		cr_assert(!ZSTD_isError(c));
		cr_assert_eq(write(fd, frame, c), (ssize_t)c);
	}
	/* A skippable frame, which zstd itself passes over. */
	put32(skip, 0x184d2a50u);
	put32(skip + 4, 4);
	memcpy(skip + 8, "pad!", 4);
	cr_assert_eq(write(fd, skip, sizeof(skip)), (ssize_t)sizeof(skip));
	cr_assert_eq(rec_writer_hash(w, 3, 33), 0);
	cr_assert_eq(rec_writer_close(w, err, sizeof(err)), 0, "%s", err);
	cr_assert_neq(fcntl(fd, F_GETFD), -1, "the caller's fd stays open");
	close(fd);

	r = rec_reader_open(hx_scratch("u.hxr"), err, sizeof(err));
	cr_assert_not_null(r, "%s", err);
	cr_assert_eq(rec_reader_next(r, &it), 1);
	cr_assert_eq(it.hash, 11);
	cr_assert_eq(rec_reader_next(r, &it), 1, "%s", rec_reader_error(r));
	cr_assert_eq(it.tag, REC_TAG_HASH);
	cr_assert_eq(it.step, 2);
	cr_assert_eq(it.hash, 22);
	cr_assert_eq(rec_reader_next(r, &it), 1, "%s", rec_reader_error(r));
	cr_assert_eq(it.hash, 33);
	cr_assert_eq(rec_reader_next(r, &it), 0);
	cr_assert_eq(rec_reader_next(r, &it), 0, "the end stays");
	rec_reader_stats(r, &rs);
	cr_assert_eq(rs.skipped, 1);
	cr_assert_eq(rs.frames, 5);
	cr_assert_eq(rs.truncated, 0);
	rec_reader_close(r);
}

Test(recording, never_overwrites)
{
	struct rec_header h = small_header(REC_FIELDS_HAPTIX);
	char err[256], buf[16];
	uint8_t *file;
	size_t len;

	hx_write_file(hx_scratch("kept.hxr"), "precious", 8);
	cr_assert_null(
	    rec_writer_open(hx_scratch("kept.hxr"), &h, 0, err, sizeof(err)));
	cr_assert(strstr(err, "File exists") != NULL, "%s", err);
	file = hx_read_file(hx_scratch("kept.hxr"), &len);
	cr_assert_eq(len, 8);
	cr_assert_eq(memcmp(file, "precious", 8), 0);
	free(file);

	/* Nor writes through a link, even one to nothing. */
	cr_assert_eq(symlink(hx_scratch("target"), hx_scratch("link.hxr")), 0);
	cr_assert_null(
	    rec_writer_open(hx_scratch("link.hxr"), &h, 0, err, sizeof(err)));
	cr_assert_eq(access(hx_scratch("target"), F_OK), -1);
	cr_assert_eq(readlink(hx_scratch("link.hxr"), buf, sizeof(buf)) > 0, 1);
}

Test(recording, bad_writer_arguments_are_refused)
{
	struct rec_header h = small_header(REC_FIELDS_HAPTIX);
	struct rec_writer *w;
	uint8_t byte = 0;
	char err[256];

	cr_assert_null(
	    rec_writer_open(hx_scratch("l1.hxr"), &h, 10, err, sizeof(err)));
	cr_assert(strstr(err, "level 10") != NULL, "%s", err);
	cr_assert_eq(
	    access(hx_scratch("l1.hxr"), F_OK), -1, "no file left behind");
	memset(h.name, 'n', sizeof(h.name));
	cr_assert_null(
	    rec_writer_open(hx_scratch("l2.hxr"), &h, 0, err, sizeof(err)));
	cr_assert(strstr(err, "name over 255") != NULL, "%s", err);
	h = small_header(REC_FIELDS_HAPTIX);
	h.nq = REC_SIZE_MAX + 1;
	cr_assert_null(
	    rec_writer_open(hx_scratch("l3.hxr"), &h, 0, err, sizeof(err)));
	cr_assert(strstr(err, "nq is") != NULL, "%s", err);

	/* A long name is kept whole; the clock dates the file. */
	h = small_header(REC_FIELDS_HAPTIX);
	memset(h.name, 'n', REC_NAME_MAX);
	h.name[REC_NAME_MAX] = '\0';
	h.created = 0;
	w = rec_writer_open(hx_scratch("l4.hxr"), &h, 0, err, sizeof(err));
	cr_assert_not_null(w, "%s", err);
	/* Refused before anything is read from data. */
	cr_assert_eq(rec_writer_journal(w, 0, 0, &byte, REC_ITEM_MAX), -1);
	cr_assert(strstr(rec_writer_error(w), "journal entry of") != NULL);
	cr_assert_eq(rec_writer_journal(w, 0, 0, &byte, 1), 0);
	cr_assert_eq(rec_writer_close(w, err, sizeof(err)), 0, "%s", err);
	{
		struct rec_reader *r;
		struct timespec ts;
		int64_t now;

		r = rec_reader_open(hx_scratch("l4.hxr"), err, sizeof(err));
		cr_assert_not_null(r, "%s", err);
		cr_assert_eq(strlen(rec_reader_header(r)->name), REC_NAME_MAX);
		clock_gettime(CLOCK_REALTIME, &ts);
		now = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
		cr_assert_leq(rec_reader_header(r)->created, now);
		cr_assert_gt(
		    rec_reader_header(r)->created, now - 60000000000ll);
		rec_reader_close(r);
	}
}

Test(recording, a_big_journal_entry_round_trips)
{
	struct rec_header h = small_header(REC_FIELDS_HAPTIX);
	struct rec_writer *w;
	struct rec_reader *r;
	struct rec_item it;
	size_t n = 9u << 20, i;
	uint8_t *data;
	char err[256];

	data = malloc(n);
	cr_assert_not_null(data);
	for (i = 0; i < n; i++)
		data[i] = (uint8_t)hx_mix64(i / 8, 1, 2) ^ (uint8_t)(i % 8);
	w = rec_writer_open(hx_scratch("j.hxr"), &h, 0, err, sizeof(err));
	cr_assert_not_null(w, "%s", err);
	cr_assert_eq(rec_writer_journal(w, 5, 9, data, n), 0);
	write_item(w, &h, 0);
	cr_assert_eq(rec_writer_close(w, err, sizeof(err)), 0, "%s", err);
	r = rec_reader_open(hx_scratch("j.hxr"), err, sizeof(err));
	cr_assert_not_null(r, "%s", err);
	cr_assert_eq(rec_reader_next(r, &it), 1, "%s", rec_reader_error(r));
	cr_assert_eq(it.tag, REC_TAG_JOURNAL);
	cr_assert_eq(it.len, n);
	cr_assert_eq(memcmp(it.data, data, n), 0);
	cr_assert_eq(rec_reader_next(r, &it), 1, "%s", rec_reader_error(r));
	check_item(&h, 0, &it);
	cr_assert_eq(rec_reader_next(r, &it), 0);
	rec_reader_close(r);
	free(data);
}

Test(recording, a_failed_write_fails_every_call_after)
{
	struct rec_header h = small_header(REC_FIELDS_HAPTIX);
	struct rec_reader_stats rs;
	struct rec_writer *w;
	char err[256];
	int fd, full;

	full = open("/dev/full", O_WRONLY);
	cr_assert_geq(full, 0, "/dev/full: %s", strerror(errno));
	cr_assert_null(rec_writer_fdopen(full, &h, 0, err, sizeof(err)));
	cr_assert(strstr(err, "No space left") != NULL, "%s", err);

	fd = open(hx_scratch("w.hxr"), O_WRONLY | O_CREAT | O_EXCL, 0644);
	w = rec_writer_fdopen(fd, &h, 0, err, sizeof(err));
	cr_assert_not_null(w, "%s", err);
	write_item(w, &h, 0);
	cr_assert_eq(rec_writer_flush(w), 0);
	write_item(w, &h, 1);
	cr_assert_eq(dup2(full, fd), fd);
	cr_assert_eq(rec_writer_flush(w), -1);
	cr_assert(strstr(rec_writer_error(w), "No space left") != NULL, "%s",
	    rec_writer_error(w));
	cr_assert_eq(rec_writer_hash(w, 0, 0), -1);
	cr_assert_eq(rec_writer_journal(w, 0, 0, NULL, 0), -1);
	cr_assert_eq(rec_writer_flush(w), -1);
	cr_assert_eq(rec_writer_close(w, err, sizeof(err)), -1);
	cr_assert(strstr(err, "No space left") != NULL, "%s", err);
	close(fd);
	close(full);
	cr_assert_eq(read_sample(hx_scratch("w.hxr"), &rs, err, sizeof(err)), 1,
	    "%s", err);
}

/*
 * A writer with a size limit stops at the item that a frame might not
 * hold within it, writing the items before: the file ends whole, within
 * the limit and close to it, and every item it took reads back.
 */
Test(recording, a_size_limit_ends_the_file_whole_within_it)
{
	struct rec_header h = small_header(REC_FIELDS_ALL);
	const uint64_t limit = 20000;
	struct rec_reader_stats rs;
	struct rec_writer *w;
	struct stat sb;
	char err[256];
	uint64_t k;

	w = rec_writer_open(hx_scratch("q.hxr"), &h, 0, err, sizeof(err));
	cr_assert_not_null(w, "%s", err);
	rec_writer_limit(w, limit);
	for (k = 0; k < 100000; k++) {
		if (add_item(w, &h, k) != 0)
			break;
		if (k % 40 == 39)
			cr_assert_eq(
			    rec_writer_flush(w), 0, "%s", rec_writer_error(w));
	}
	cr_assert_lt(k, 100000, "the limit never stopped the writer");
	cr_assert(rec_writer_full(w), "%s", rec_writer_error(w));
	cr_assert(
	    strstr(rec_writer_error(w), "size limit of 20000 bytes") != NULL,
	    "%s", rec_writer_error(w));
	cr_assert_eq(add_item(w, &h, k), -1, "an item after the limit");
	cr_assert_eq(rec_writer_close(w, err, sizeof(err)), -1);
	cr_assert_eq(stat(hx_scratch("q.hxr"), &sb), 0);
	cr_log_info("%llu items in %lld bytes", (unsigned long long)k,
	    (long long)sb.st_size);
	cr_assert_leq((uint64_t)sb.st_size, limit);
	cr_assert_gt((uint64_t)sb.st_size, limit - 1024,
	    "stopped at %lld bytes, far below the limit",
	    (long long)sb.st_size);
	cr_assert_eq(read_sample(hx_scratch("q.hxr"), &rs, err, sizeof(err)),
	    (int64_t)k, "%s", err);
	cr_assert(!rs.truncated);
}

struct drain {
	int fd;
	uint8_t *buf;
	size_t len;
	size_t cap;
};

static volatile sig_atomic_t alarms;

static void
on_alarm(int sig)
{
	alarms++;
}

/*
 * Read the pipe slowly, so that the writer blocks and signals cut its
 * writes short; and stop now and then for longer than the signals'
 * period, so that some come before a write has written anything (EINTR).
 */
static void *
drain_pipe(void *arg)
{
	struct drain *d = arg;
	struct timespec nap = { 0, 50000 }, stop = { 0, 3000000 };
	unsigned reads = 0;
	ssize_t n;

	for (;;) {
		if (d->cap - d->len < 4096) {
			d->cap = d->cap * 2 + 65536;
			d->buf = realloc(d->buf, d->cap);
			if (d->buf == NULL)
				return NULL;
		}
		n = read(d->fd, d->buf + d->len, 4096);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return NULL;
		d->len += (size_t)n;
		nanosleep(++reads % 64 == 0 ? &stop : &nap, NULL);
	}
}

Test(recording, short_writes_and_signals_lose_nothing)
{
	struct rec_header h = small_header(REC_FIELDS_HAPTIX);
	struct itimerval every = { { 0, 500 }, { 0, 500 } }, off = { 0 };
	struct sigaction sa;
	sigset_t alrm;
	struct rec_writer *w;
	struct rec_reader *r;
	struct rec_item it;
	struct drain d = { 0 };
	pthread_t t;
	size_t n = 4u << 20, i;
	uint8_t *data;
	char err[256];
	int p[2];

	data = malloc(n);
	cr_assert_not_null(data);
	for (i = 0; i < n; i += 8) /* incompressible: a frame of 4 MiB */
		memcpy(data + i, &(uint64_t){ hx_mix64(i, 3, 3) }, 8);
	cr_assert_eq(pipe(p), 0);
	d.fd = p[0];
	/* The writer's thread takes the signals; no SA_RESTART. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	sigemptyset(&alrm);
	sigaddset(&alrm, SIGALRM);
	pthread_sigmask(SIG_BLOCK, &alrm, NULL);
	cr_assert_eq(pthread_create(&t, NULL, drain_pipe, &d), 0);
	pthread_sigmask(SIG_UNBLOCK, &alrm, NULL);
	setitimer(ITIMER_REAL, &every, NULL);

	w = rec_writer_fdopen(p[1], &h, 0, err, sizeof(err));
	cr_assert_not_null(w, "%s", err);
	cr_assert_eq(rec_writer_journal(w, 1, 2, data, n), 0);
	cr_assert_eq(rec_writer_flush(w), 0, "%s", rec_writer_error(w));
	write_item(w, &h, 0);
	cr_assert_eq(rec_writer_close(w, err, sizeof(err)), 0, "%s", err);
	setitimer(ITIMER_REAL, &off, NULL);
	close(p[1]);
	pthread_join(t, NULL);
	close(p[0]);
	cr_assert_gt(alarms, 10, "%d signals", (int)alarms);
	cr_assert_not_null(d.buf);

	hx_write_file(hx_scratch("p.hxr"), d.buf, d.len);
	r = rec_reader_open(hx_scratch("p.hxr"), err, sizeof(err));
	cr_assert_not_null(r, "%s", err);
	cr_assert_eq(rec_reader_next(r, &it), 1, "%s", rec_reader_error(r));
	cr_assert_eq(it.len, n);
	cr_assert_eq(memcmp(it.data, data, n), 0);
	cr_assert_eq(rec_reader_next(r, &it), 1, "%s", rec_reader_error(r));
	check_item(&h, 0, &it);
	rec_reader_close(r);
	free(d.buf);
	free(data);
}

/*
 * A file of small_header's qpos alone (nq 3) whose one frame holds a
 * model change to nq 1 of len bytes (80 when well made), then a state
 * record of record bytes (0: none); the first item's reading fails with
 * words.
 */
static void
model_change_then(
    const char *path, uint32_t len, uint32_t record, const char *words)
{
	struct rec_header h = small_header(REC_FIELD_BIT(REC_QPOS));
	uint8_t raw[256], frame[512];
	struct rec_writer *w;
	struct rec_reader *r;
	struct rec_item it;
	char err[256];
	size_t c, n;
	int fd;

	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	cr_assert_geq(fd, 0);
	w = rec_writer_fdopen(fd, &h, 0, err, sizeof(err));
	cr_assert_not_null(w, "%s", err);
	cr_assert_eq(rec_writer_close(w, err, sizeof(err)), 0, "%s", err);
	memset(raw, 0, sizeof(raw));
	put32(raw, REC_TAG_MODEL);
	put32(raw + 4, len);
	put32(raw + 24, 1); /* nq */
	n = 8 + len;
	if (record != 0) {
		put32(raw + n, REC_TAG_STATE);
		put32(raw + n + 4, record);
		n += 8 + record;
	}
	c = ZSTD_compress(frame, sizeof(frame), raw, n, 1);
	cr_assert(!ZSTD_isError(c));
	cr_assert_eq(write(fd, frame, c), (ssize_t)c);
	close(fd);
	r = rec_reader_open(path, err, sizeof(err));
	cr_assert_not_null(r, "%s", err);
	if (len == 80) {
		cr_assert_eq(
		    rec_reader_next(r, &it), 1, "%s", rec_reader_error(r));
		cr_expect_eq(it.tag, REC_TAG_MODEL);
		cr_expect_eq(it.model->nq, 1);
	}
	cr_expect_eq(rec_reader_next(r, &it), -1);
	cr_expect(strstr(rec_reader_error(r), words) != NULL, "%s",
	    rec_reader_error(r));
	rec_reader_close(r);
}

/*
 * A model change (an edit) round trips with its sizes, texts and MJB,
 * the records after it have its sizes and begin a segment, a record of
 * the old sizes after it is an error, and so is a change whose lengths
 * do not add up.
 */
Test(recording, a_model_change_sizes_the_records_after_it)
{
	static const char ops[] = "add body \"b\" in worldbody \"\": pos=\"0 0 "
				  "1\"\nadd freejoint \"b\" in body \"b\"\n";
	struct rec_header h = small_header(REC_FIELDS_ALL), e = h;
	double v[256], got;
	const double *f[REC_NFIELD];
	uint8_t mjb[300];
	struct rec_reader_stats st;
	struct rec_reader *r;
	struct rec_writer *w;
	struct rec_item it;
	char err[256];
	size_t i, k, n;
	int models = 0, records = 0;

	for (i = 0; i < 256; i++)
		v[i] = (double)i + 0.5;
	for (i = 0; i < REC_NFIELD; i++)
		f[i] = v;
	for (i = 0; i < sizeof(mjb); i++)
		mjb[i] = (uint8_t)(i * 7);
	e.nq = 10;
	e.nv = 9;
	e.nbody = 3;
	e.nsensordata = 0;
	e.timestep = 0.001;
	e.model_hash = rec_hash64(mjb, sizeof(mjb), REC_HASH_SEED);
	w = rec_writer_open(hx_scratch("m.hxr"), &h, 0, err, sizeof(err));
	cr_assert_not_null(w, "%s", err);
	cr_assert_eq(rec_writer_state(w, 1, 0.1, f), 0);
	cr_assert_eq(
	    rec_writer_model(w, 1, 0.1, &e, ops, "body x\n", mjb, sizeof(mjb)),
	    0, "%s", rec_writer_error(w));
	cr_assert_eq(rec_writer_state(w, 2, 0.2, f), 0);
	cr_assert_eq(rec_writer_close(w, err, sizeof(err)), 0, "%s", err);

	r = rec_reader_open(hx_scratch("m.hxr"), err, sizeof(err));
	cr_assert_not_null(r, "%s", err);
	cr_expect_eq(rec_reader_header(r)->nq, 3, "the header is the file's");
	while (rec_reader_next(r, &it) == 1) {
		if (it.tag == REC_TAG_MODEL) {
			models++;
			cr_expect_eq(it.step, 1);
			cr_expect_eq(it.time, 0.1);
			cr_expect_eq(it.model->nq, 10);
			cr_expect_eq(it.model->nv, 9);
			cr_expect_eq(it.model->nbody, 3);
			cr_expect_eq(it.model->nsensordata, 0);
			cr_expect_eq(it.model->timestep, 0.001);
			cr_expect_eq(it.model->model_hash, e.model_hash);
			cr_expect_eq(it.operations_len, strlen(ops));
			cr_expect(memcmp(it.operations, ops, strlen(ops)) == 0);
			cr_expect_eq(it.removed_len, 7);
			cr_expect(memcmp(it.removed, "body x\n", 7) == 0);
			cr_assert_eq(it.len, sizeof(mjb));
			cr_expect(memcmp(it.data, mjb, sizeof(mjb)) == 0);
			continue;
		}
		cr_assert_eq(it.tag, REC_TAG_STATE);
		cr_expect_eq(it.segment, (uint64_t)records + 1);
		cr_expect_eq(it.model->nq, records == 0 ? 3 : 10);
		for (k = 0; k < REC_NFIELD; k++) {
			n = rec_field_size(it.model, (enum rec_field)k);
			for (i = 0; i < n; i++) {
				got = it.field[k][i];
				cr_assert_eq(got, v[i], "%s[%zu] %g",
				    rec_field_name((enum rec_field)k), i, got);
			}
		}
		records++;
	}
	rec_reader_stats(r, &st);
	cr_expect_eq(records, 2);
	cr_expect_eq(models, 1);
	cr_expect_eq(st.models, 1);
	cr_expect_eq(st.segments, 2);
	cr_expect_str_empty(rec_reader_error(r));
	rec_reader_close(r);

	/* A record of the first model's sizes after a change: an error. */
	model_change_then(hx_scratch("m2.hxr"), 80, 40, "an item of tag 1");
	/* A change whose lengths do not add up: an error. */
	model_change_then(hx_scratch("m3.hxr"), 81, 0, "an item of tag 4");
}

/*
 * HAPTIX's .mjl (lib/mjl.h), written here from its manual's description:
 * six little-endian int32 (nq, nv, nu, nmocap, nsensordata, the name's
 * length), the name, then records of 1 + nq + nv + nu + 7 nmocap +
 * nsensordata little-endian floats.
 */
#define MJL_NQ 3
#define MJL_NV 2
#define MJL_NU 2
#define MJL_NMOCAP 1
#define MJL_NS 2
#define MJL_REC (1 + MJL_NQ + MJL_NV + MJL_NU + 7 * MJL_NMOCAP + MJL_NS)

static size_t
mjl_head(uint8_t *p, const int32_t n[5], const char *name, size_t name_len)
{
	int i;

	for (i = 0; i < 5; i++)
		put32(p + 4 * i, (uint32_t)n[i]);
	put32(p + 20, (uint32_t)name_len);
	memcpy(p + 24, name, name_len);
	return 24 + name_len;
}

/* Value j of record k: a float with bits a careless copy would change. */
static float
mjl_value(size_t k, size_t j)
{
	static const float odd[] = { -0.0f, 1e-45f, 3.4028235e38f, -1.5f };

	if (j == 1 + k % 4)
		return odd[k % 4];
	return (float)((double)(k * 100 + j) / 7.0);
}

/* The time of record k: it goes back after record 2, a reset. */
static float
mjl_time(size_t k)
{
	return (float)(0.002 * (double)(k < 3 ? k : k - 3));
}

static size_t
mjl_records(uint8_t *p, size_t count)
{
	uint32_t u;
	size_t k, j;
	float f;

	for (k = 0; k < count; k++)
		for (j = 0; j < MJL_REC; j++) {
			f = j == 0 ? mjl_time(k) : mjl_value(k, j);
			memcpy(&u, &f, sizeof(u));
			put32(p + 4 * (k * MJL_REC + j), u);
		}
	return 4 * MJL_REC * count;
}

Test(recording, a_haptix_mjl_is_read_as_its_manual_describes)
{
	static const int32_t n[5] = { MJL_NQ, MJL_NV, MJL_NU, MJL_NMOCAP,
		MJL_NS };
	uint8_t file[4096];
	const struct rec_header *h;
	struct rec_reader_stats st;
	struct rec_reader *r;
	struct rec_item it;
	size_t len, k, j, f, at;
	char err[256];
	float want;

	len = mjl_head(file, n, "MuJoCo Model", 12);
	len += mjl_records(file + len, 5);
	/* Half a record more: a simulator that stopped mid-write. */
	len += 4 * MJL_REC / 2;
	hx_write_file(hx_scratch("log.mjl"), file, len);
	r = rec_reader_open(hx_scratch("log.mjl"), err, sizeof(err));
	cr_assert_not_null(r, "%s", err);
	h = rec_reader_header(r);
	cr_assert_eq(h->format, REC_FORMAT_MJL);
	cr_assert_eq(h->fields, REC_FIELDS_HAPTIX);
	cr_assert(h->nq == MJL_NQ && h->nv == MJL_NV && h->nu == MJL_NU &&
	    h->nmocap == MJL_NMOCAP && h->nsensordata == MJL_NS && h->na == 0 &&
	    h->every == 1);
	cr_assert_str_eq(h->name, "MuJoCo Model");
	for (k = 0; k < 5; k++) {
		cr_assert_eq(rec_reader_next(r, &it), 1, "record %zu: %s", k,
		    rec_reader_error(r));
		cr_assert_eq(it.tag, REC_TAG_STATE);
		cr_assert_eq(it.step, k);
		cr_assert_eq(it.time, (double)mjl_time(k));
		cr_assert_eq(it.segment, k < 3 ? 1 : 2, "record %zu", k);
		cr_assert_null(it.field[REC_ACT]);
		/* Every value in its field, widened exactly. */
		j = 1;
		for (f = 0; f < REC_NFIELD; f++) {
			if (!(h->fields & REC_FIELD_BIT(f)))
				continue;
			for (at = 0; at < rec_field_size(h, f); at++, j++) {
				want = mjl_value(k, j);
				cr_assert_eq(hx_bits(it.field[f][at]),
				    hx_bits((double)want),
				    "record %zu field %s[%zu]", k,
				    rec_field_name(f), at);
			}
		}
		cr_assert_eq(j, MJL_REC);
	}
	cr_assert_eq(rec_reader_next(r, &it), 0, "%s", rec_reader_error(r));
	rec_reader_stats(r, &st);
	cr_assert_eq(st.items, 5);
	cr_assert_eq(st.segments, 2);
	cr_assert(st.truncated);
	cr_assert_eq(st.dropped, 4 * MJL_REC / 2);
	rec_reader_close(r);
}

Test(recording, mjl_names_and_empty_logs)
{
	static const int32_t n[5] = { 1, 1, 0, 0, 0 };
	uint8_t file[4096], name[400];
	struct rec_reader *r;
	struct rec_item it;
	char err[256];
	size_t len;

	/* A NUL ends the name, as a C string written whole would have. */
	len = mjl_head(file, n, "arm\0junk", 8);
	hx_write_file(hx_scratch("nul.mjl"), file, len);
	r = rec_reader_open(hx_scratch("nul.mjl"), err, sizeof(err));
	cr_assert_not_null(r, "%s", err);
	cr_assert_str_eq(rec_reader_header(r)->name, "arm");
	cr_assert_eq(rec_reader_next(r, &it), 0);
	rec_reader_close(r);
	/* A name past REC_NAME_MAX is cut there, and the records follow. */
	memset(name, 'n', sizeof(name));
	len = mjl_head(file, n, (const char *)name, sizeof(name));
	memset(file + len, 0, 12);
	hx_write_file(hx_scratch("long.mjl"), file, len + 12);
	r = rec_reader_open(hx_scratch("long.mjl"), err, sizeof(err));
	cr_assert_not_null(r, "%s", err);
	cr_assert_eq(strlen(rec_reader_header(r)->name), REC_NAME_MAX);
	cr_assert_eq(rec_reader_next(r, &it), 1, "%s", rec_reader_error(r));
	cr_assert_eq(it.field[REC_QPOS][0], 0.0);
	rec_reader_close(r);
}

Test(recording, hostile_mjl_descriptions_are_refused)
{
	static const struct {
		int32_t n[5];
		uint32_t name_len;
		size_t cut; /* bytes of the file kept; 0: all */
		const char *says;
	} cases[] = {
		{ { -1, 0, 0, 0, 0 }, 0, 0, "nq is -1" },
		{ { 0, 0, 0, 0, REC_SIZE_MAX + 1 }, 0, 0, "nsensordata is" },
		{ { 0, 0, 0, INT32_MIN, 0 }, 0, 0, "nmocap is -2147483648" },
		{ { 0, 0, 0, 0, 0 }, 0x7fffffffu, 0, "the name's length is" },
		{ { 0, 0, 0, 0, 0 }, 0xffffffffu, 0,
		    "the name's length is -1" },
		{ { REC_SIZE_MAX, REC_SIZE_MAX, REC_SIZE_MAX, 0, 0 }, 0, 0,
		    "a record of" },
		{ { 0, 0, 0, 0, 0 }, 100, 0, "ends in its model name" },
		{ { 1, 1, 0, 0, 0 }, 0, 23, "too short" },
	};
	uint8_t file[256];
	struct rec_reader *r;
	char err[256];
	size_t i, len;
	int j;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		for (j = 0; j < 5; j++)
			put32(file + 4 * j, (uint32_t)cases[i].n[j]);
		put32(file + 20, cases[i].name_len);
		memcpy(file + 24, "name", 4);
		len = cases[i].cut != 0 ? cases[i].cut : 28;
		hx_write_file(hx_scratch("bad.mjl"), file, len);
		r = rec_reader_open(hx_scratch("bad.mjl"), err, sizeof(err));
		cr_assert_null(r, "case %zu", i);
		cr_assert(
		    strstr(err, cases[i].says) != NULL, "case %zu: %s", i, err);
		cr_assert(
		    strstr(err, "bad.mjl") != NULL, "case %zu: %s", i, err);
	}
}
