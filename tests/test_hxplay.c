/*
 * hxplay info and export (clients/hxplay_info.c, hxplay_export.c): the
 * real binary on recordings written here with lib/recording.h, cut
 * short, damaged, and written by a real haptixd.  What export writes
 * must be what was recorded, bit for bit: the .npy files and the CSV are
 * parsed here, strictly, and by NumPy when it is installed.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "check.h"
#include "harness.h"
#include "haptixd.h"
#include "recording.h"
#include "scratch.h"

#define MAXFRAMES 64
#define NREC 40 /* records of the sample */

/* The sample's fields: not ctrl nor qfrc_applied, and mocap of size 0. */
#define SAMPLE_FIELDS \
	(REC_FIELD_BIT(REC_QPOS) | REC_FIELD_BIT(REC_QVEL) | \
	    REC_FIELD_BIT(REC_ACT) | REC_FIELD_BIT(REC_MOCAP_POS) | \
	    REC_FIELD_BIT(REC_MOCAP_QUAT) | REC_FIELD_BIT(REC_SENSORDATA) | \
	    REC_FIELD_BIT(REC_XFRC_APPLIED))
#define SAMPLE_NAME "arm \"v2\"\\test"
#define SAMPLE_MODEL_LEN 100

/* Doubles a careless export would change: printf, parsing, byte order. */
static const uint64_t awkward[] = {
	0x8000000000000000ull, /* -0.0 */
	0x0000000000000001ull, /* 5e-324, the smallest denormal */
	0x7fefffffffffffffull, /* 1.7976931348623157e308 */
	0x3fb999999999999aull, /* 0.1 */
	0x3fd5555555555555ull, /* 1 / 3.0 */
	0x7ff8000000000000ull, /* NaN */
	0x7ff0000000000000ull, /* inf */
	0xfff0000000000000ull, /* -inf */
	0x7ff80000deadbeefull, /* a NaN with a payload */
	0xfff8000000000000ull, /* -NaN */
	0x800fffffffffffffull, /* the largest negative denormal */
};
#define NAWKWARD (sizeof(awkward) / sizeof(awkward[0]))

/* A sample file: where each frame ends, and the records before that. */
struct sample {
	uint64_t nrec;
	int hashes;
	size_t frames;
	uint64_t end[MAXFRAMES];
	uint64_t records[MAXFRAMES];
};

static void
suite_fini(void)
{
	hx_scratch_fini();
	hx_server_cleanup();
}

TestSuite(hxplay, .init = hx_scratch_init, .fini = suite_fini, .timeout = 60);

static struct rec_header
sample_header(void)
{
	struct rec_header h;

	memset(&h, 0, sizeof(h));
	h.fields = SAMPLE_FIELDS;
	h.every = 3;
	h.nq = 3;
	h.nv = 2;
	h.na = 1;
	h.nu = 2;
	h.nmocap = 0;
	h.nsensordata = 4;
	h.nbody = 2;
	h.timestep = 0.002;
	h.model_hash = 0x0123456789abcdefull;
	h.created = 1700000000123456789ll;
	snprintf(h.name, sizeof(h.name), "%s", SAMPLE_NAME);
	return h;
}

/* Record k's step: every third, and the last one near 2^64. */
static uint64_t
sample_step(const struct sample *s, uint64_t k)
{
	return k == s->nrec - 1 ? UINT64_MAX - 2 : 3 * k;
}

static uint64_t
sample_time(uint64_t k)
{
	if (k % 4 == 1)
		return awkward[(k / 4) % NAWKWARD];
	return hx_bits((double)k * 3 * 0.002);
}

static uint64_t
sample_value(uint64_t k, int f, size_t j)
{
	if ((k + j) % 2 == 0)
		return awkward[(k + (uint64_t)f + j) % NAWKWARD];
	return hx_mix64(k, (uint64_t)f, j);
}

static uint64_t
sample_hash(uint64_t k)
{
	return hx_mix64(k, 99, 0);
}

/* Hashes follow records 3, 7, 11, ... */
static uint64_t
sample_nhash(const struct sample *s)
{
	return s->hashes ? s->nrec / 4 : 0;
}

static void
sample_record(struct rec_writer *w, const struct sample *s, uint64_t k)
{
	static double v[REC_NFIELD][16];
	const double *field[REC_NFIELD];
	struct rec_header h = sample_header();
	size_t j;
	int f;

	for (f = 0; f < REC_NFIELD; f++) {
		cr_assert_leq(rec_field_size(&h, f), 16);
		for (j = 0; j < rec_field_size(&h, f); j++)
			v[f][j] = hx_double(sample_value(k, f, j));
		field[f] = v[f];
	}
	cr_assert_eq(rec_writer_state(w, sample_step(s, k),
			 hx_double(sample_time(k)), field),
	    0, "%s", rec_writer_error(w));
}

/* The journal: a model first, an array write now and then, one unknown. */
static void
sample_journal(struct rec_writer *w, const struct sample *s, uint64_t k)
{
	static const double q[3] = { 0.5, -0.0, 1e-300 };
	unsigned char model[SAMPLE_MODEL_LEN];

	if (k == 0) {
		memset(model, 0xa5, sizeof(model));
		cr_assert_eq(rec_writer_journal(
				 w, 0, REC_JOURNAL_MODEL, model, sizeof(model)),
		    0);
		cr_assert_eq(rec_writer_journal(w, 0, 77, "x", 1), 0);
	}
	if (k % 10 == 5)
		cr_assert_eq(rec_writer_array(
				 w, sample_step(s, k), "data.qpos", 0, 3, q),
		    0, "%s", rec_writer_error(w));
}

/* nrec records into path, a frame every 7, hashes if asked. */
static void
sample_write(const char *path, uint64_t nrec, int hashes, struct sample *s)
{
	struct rec_header h = sample_header();
	struct rec_writer_stats st;
	struct rec_writer *w;
	char err[256];
	uint64_t k;

	memset(s, 0, sizeof(*s));
	s->nrec = nrec;
	s->hashes = hashes;
	unlink(path);
	w = rec_writer_open(path, &h, 0, err, sizeof(err));
	cr_assert_not_null(w, "%s", err);
	rec_writer_stats(w, &st);
	s->end[s->frames++] = st.bytes_written;
	for (k = 0; k < nrec; k++) {
		sample_journal(w, s, k);
		sample_record(w, s, k);
		if (hashes && k % 4 == 3)
			cr_assert_eq(rec_writer_hash(
					 w, sample_step(s, k), sample_hash(k)),
			    0);
		if (k % 7 == 6 || k == nrec - 1) {
			cr_assert_eq(rec_writer_flush(w), 0);
			rec_writer_stats(w, &st);
			cr_assert_lt(s->frames, MAXFRAMES);
			s->records[s->frames] = k + 1;
			s->end[s->frames++] = st.bytes_written;
		}
	}
	cr_assert_eq(rec_writer_close(w, err, sizeof(err)), 0, "%s", err);
}

/* Run hxplay with the arguments up to NULL. */
#define hxplay(r, ...) hx_run_args((r), hx_hxplay_path(), __VA_ARGS__)

static void
run_ok(const struct hx_run *r, const char *what)
{
	cr_assert_eq(
	    r->status, 0, "%s: exit %d\n%s%s", what, r->status, r->out, r->err);
}

static int
exists(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0;
}

/* The first len bytes of src into dst. */
static void
copy_cut(const char *src, const char *dst, size_t len)
{
	uint8_t *buf;
	size_t n;

	buf = hx_read_file(src, &n);
	cr_assert_leq(len, n);
	hx_write_file(dst, buf, len);
	free(buf);
}

/* The value of "key: value" in info's output (static buffer), or NULL. */
static const char *
info_value(const char *out, const char *key)
{
	static char value[256];
	size_t klen = strlen(key), n;
	const char *p;

	for (p = out; p != NULL && *p != '\0'; p = strchr(p, '\n')) {
		if (*p == '\n')
			p++;
		if (strncmp(p, key, klen) != 0 || strncmp(p + klen, ": ", 2))
			continue;
		p += klen + 2;
		n = strcspn(p, "\n");
		cr_assert_lt(n, sizeof(value));
		memcpy(value, p, n);
		value[n] = '\0';
		return value;
	}
	return NULL;
}

static void
info_is(const char *out, const char *key, const char *want)
{
	const char *got = info_value(out, key);

	cr_assert_not_null(got, "no \"%s\" in:\n%s", key, out);
	cr_assert_str_eq(
	    got, want, "%s: \"%s\", expected \"%s\"\n%s", key, got, want, out);
}

static void
info_is_u(const char *out, const char *key, uint64_t want)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64, want);
	info_is(out, key, buf);
}

/*
 * A .npy file, strictly: version 1.0, a header padded to a multiple of
 * 64 bytes, exactly the dict NumPy writes, and exactly the data of the
 * shape.  cols < 0: a 1-D array.  The data, malloc'd.
 */
static uint8_t *
npy_load(const char *path, const char *descr, uint64_t rows, long cols)
{
	char want[256];
	uint8_t *buf, *data;
	size_t len, hlen, n, size;

	buf = hx_read_file(path, &len);
	cr_assert_geq(len, 10, "%s: %zu bytes", path, len);
	cr_assert(memcmp(buf, "\x93NUMPY\x01\x00", 8) == 0,
	    "%s: not a version 1.0 .npy", path);
	hlen = buf[8] | (size_t)buf[9] << 8;
	cr_assert_leq(10 + hlen, len, "%s: header of %zu bytes", path, hlen);
	cr_assert_eq((10 + hlen) % 64, 0, "%s: data not 64-byte aligned", path);
	cr_assert_eq(buf[10 + hlen - 1], '\n', "%s: header without \\n", path);
	if (cols < 0)
		snprintf(want, sizeof(want),
		    "{'descr': '%s', 'fortran_order': False, "
		    "'shape': (%" PRIu64 ",), }",
		    descr, rows);
	else
		snprintf(want, sizeof(want),
		    "{'descr': '%s', 'fortran_order': False, "
		    "'shape': (%" PRIu64 ", %ld), }",
		    descr, rows, cols);
	n = strlen(want);
	cr_assert(hlen > n && memcmp(buf + 10, want, n) == 0,
	    "%s: header \"%.*s\", expected \"%s\"", path, (int)hlen, buf + 10,
	    want);
	for (; n < hlen - 1; n++)
		cr_assert_eq(buf[10 + n], ' ', "%s: padding", path);
	size = 8 * (size_t)rows * (size_t)(cols < 0 ? 1 : cols);
	cr_assert_eq(len - 10 - hlen, size, "%s: %zu bytes of data for %zu",
	    path, len - 10 - hlen, size);
	data = malloc(size + 1);
	cr_assert_not_null(data);
	memcpy(data, buf + 10 + hlen, size);
	free(buf);
	return data;
}

/* The little-endian u64 or double i of a .npy file's data. */
static uint64_t
le64(const uint8_t *p, size_t i)
{
	uint64_t u = 0;
	int b;

	for (b = 7; b >= 0; b--)
		u = u << 8 | p[8 * i + (size_t)b];
	return u;
}

/*
 * Bit for bit, but for NaN in text: "nan" carries no payload, so there
 * both must be NaN of the same sign.
 */
static void
same(uint64_t got, uint64_t want, int text, const char *what, uint64_t k)
{
	if (text && isnan(hx_double(want))) {
		cr_assert(isnan(hx_double(got)) && (got >> 63) == (want >> 63),
		    "%s of record %" PRIu64 ": %016" PRIx64 ", expected NaN "
		    "%016" PRIx64,
		    what, k, got, want);
		return;
	}
	cr_assert_eq(got, want,
	    "%s of record %" PRIu64 ": %016" PRIx64 " (%.17g), expected "
	    "%016" PRIx64 " (%.17g)",
	    what, k, got, hx_double(got), want, hx_double(want));
}

/* The sample's files in dir, as .npy: every number, bit for bit. */
static void
check_npy_sample(const char *dir, const struct sample *s)
{
	struct rec_header h = sample_header();
	char path[256], what[64];
	uint8_t *data;
	size_t n, j;
	uint64_t k;
	int f;

	snprintf(path, sizeof(path), "%s/step.npy", dir);
	data = npy_load(path, "<u8", s->nrec, -1);
	for (k = 0; k < s->nrec; k++)
		cr_assert_eq(
		    le64(data, k), sample_step(s, k), "step %" PRIu64, k);
	free(data);
	snprintf(path, sizeof(path), "%s/time.npy", dir);
	data = npy_load(path, "<f8", s->nrec, -1);
	for (k = 0; k < s->nrec; k++)
		same(le64(data, k), sample_time(k), 0, "time", k);
	free(data);
	for (f = 0; f < REC_NFIELD; f++) {
		snprintf(
		    path, sizeof(path), "%s/%s.npy", dir, rec_field_name(f));
		if (!(h.fields & REC_FIELD_BIT(f))) {
			cr_assert(!exists(path), "%s: not recorded", path);
			continue;
		}
		n = rec_field_size(&h, f);
		data = npy_load(path, "<f8", s->nrec, (long)n);
		for (k = 0; k < s->nrec; k++) {
			for (j = 0; j < n; j++) {
				snprintf(what, sizeof(what), "%s[%zu]",
				    rec_field_name(f), j);
				same(le64(data, k * n + j),
				    sample_value(k, f, j), 0, what, k);
			}
		}
		free(data);
	}
}

static void
check_npy_hashes(const char *dir, const struct sample *s)
{
	char path[256];
	uint8_t *data;
	uint64_t i;

	snprintf(path, sizeof(path), "%s/hash.npy", dir);
	if (!s->hashes) {
		cr_assert(!exists(path), "%s without hashes", path);
		return;
	}
	data = npy_load(path, "<u8", sample_nhash(s), 2);
	for (i = 0; i < sample_nhash(s); i++) {
		cr_assert_eq(le64(data, 2 * i), sample_step(s, 4 * i + 3));
		cr_assert_eq(le64(data, 2 * i + 1), sample_hash(4 * i + 3));
	}
	free(data);
}

/* header.json holds text (a JSON member, as written). */
static void
json_has(const char *dir, const char *text)
{
	char path[256];
	char *json;
	size_t len;

	snprintf(path, sizeof(path), "%s/header.json", dir);
	json = (char *)hx_read_file(path, &len);
	cr_assert(
	    strstr(json, text) != NULL, "%s lacks %s:\n%s", path, text, json);
	free(json);
}

static void
check_json_sample(const char *dir, const struct sample *s, int truncated)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "\"records\": %" PRIu64 ",", s->nrec);
	json_has(dir, buf);
	snprintf(buf, sizeof(buf), "\"hashes\": %" PRIu64 ",", sample_nhash(s));
	json_has(dir, buf);
	json_has(dir, "\"name\": \"arm \\\"v2\\\"\\\\test\",");
	json_has(dir, "\"model_hash\": \"0123456789abcdef\",");
	json_has(dir, "\"created\": \"2023-11-14T22:13:20.123456789Z\",");
	json_has(dir, "\"every\": 3,");
	json_has(dir, "\"timestep\": 0.002");
	json_has(dir,
	    "\"fields\": [\"qpos\", \"qvel\", \"act\", \"mocap_pos\", "
	    "\"mocap_quat\", \"sensordata\", \"xfrc_applied\"]");
	json_has(
	    dir, truncated ? "\"truncated\": true" : "\"truncated\": false");
}

/*
 * A CSV file: its first line must be header; then rows of a step and
 * ncol doubles, read with strtoull and strtod into step[] and v[].
 */
static uint64_t
csv_load(const char *path, const char *header, size_t ncol, uint64_t *step,
    double *v, uint64_t max)
{
	char *buf, *p, *end;
	uint64_t rows = 0;
	size_t len, j, hl = strlen(header);

	buf = (char *)hx_read_file(path, &len);
	cr_assert(strncmp(buf, header, hl) == 0 && buf[hl] == '\n',
	    "%s: header \"%.*s\", expected \"%s\"", path,
	    (int)strcspn(buf, "\n"), buf, header);
	for (p = buf + hl + 1; *p != '\0'; p = end + 1, rows++) {
		cr_assert_lt(rows, max, "%s: too many rows", path);
		errno = 0;
		step[rows] = strtoull(p, &end, 10);
		cr_assert(errno == 0 && end != p && *end == ',',
		    "%s: row %" PRIu64 ": bad step", path, rows);
		for (j = 0; j < ncol; j++) {
			p = end + 1;
			v[rows * ncol + j] = strtod(p, &end);
			cr_assert(
			    end != p && (*end == (j == ncol - 1 ? '\n' : ',')),
			    "%s: row %" PRIu64 ", column %zu: \"%.20s\"", path,
			    rows, j + 1, p);
		}
	}
	free(buf);
	return rows;
}

/* "step,time,NAME[0],...,NAME[n-1]" */
static void
csv_header(char *buf, size_t len, const char *name, size_t n)
{
	size_t j, off;

	off = (size_t)snprintf(buf, len, "step,time");
	for (j = 0; j < n; j++)
		off += (size_t)snprintf(
		    buf + off, len - off, ",%s[%zu]", name, j);
}

static void
check_csv_field(const char *dir, const struct sample *s, int f)
{
	struct rec_header h = sample_header();
	size_t n = rec_field_size(&h, f), j;
	uint64_t step[NREC], k;
	double v[NREC * 16];
	char path[256], head[512], what[64];

	snprintf(path, sizeof(path), "%s/%s.csv", dir, rec_field_name(f));
	csv_header(head, sizeof(head), rec_field_name(f), n);
	cr_assert_eq(csv_load(path, head, n + 1, step, v, NREC), s->nrec);
	for (k = 0; k < s->nrec; k++) {
		cr_assert_eq(step[k], sample_step(s, k));
		same(hx_bits(v[k * (n + 1)]), sample_time(k), 1, "time", k);
		for (j = 0; j < n; j++) {
			snprintf(what, sizeof(what), "%s[%zu]",
			    rec_field_name(f), j);
			same(hx_bits(v[k * (n + 1) + 1 + j]),
			    sample_value(k, f, j), 1, what, k);
		}
	}
}

/* The sample's files in dir, as CSV. */
static void
check_csv_sample(const char *dir, const struct sample *s)
{
	struct rec_header h = sample_header();
	uint64_t step[NREC], k;
	double v[2 * NREC];
	char path[256];
	int f;

	snprintf(path, sizeof(path), "%s/time.csv", dir);
	cr_assert_eq(csv_load(path, "step,time", 1, step, v, NREC), s->nrec);
	for (k = 0; k < s->nrec; k++) {
		cr_assert_eq(step[k], sample_step(s, k));
		same(hx_bits(v[k]), sample_time(k), 1, "time", k);
	}
	for (f = 0; f < REC_NFIELD; f++) {
		snprintf(
		    path, sizeof(path), "%s/%s.csv", dir, rec_field_name(f));
		if (h.fields & REC_FIELD_BIT(f))
			check_csv_field(dir, s, f);
		else
			cr_assert(!exists(path), "%s: not recorded", path);
	}
}

static void
check_csv_hashes(const char *dir, const struct sample *s)
{
	char *buf, *p, *end;
	char path[256];
	size_t len;
	uint64_t i;

	snprintf(path, sizeof(path), "%s/hash.csv", dir);
	buf = (char *)hx_read_file(path, &len);
	cr_assert(strncmp(buf, "step,hash\n", 10) == 0, "%s: %.40s", path, buf);
	p = buf + 10;
	for (i = 0; i < sample_nhash(s); i++) {
		cr_assert_eq(strtoull(p, &end, 10), sample_step(s, 4 * i + 3));
		cr_assert_eq(*end, ',');
		cr_assert_eq(
		    strtoull(end + 1, &end, 10), sample_hash(4 * i + 3));
		cr_assert_eq(*end, '\n');
		p = end + 1;
	}
	cr_assert_eq(*p, '\0', "%s: more rows than hashes", path);
	free(buf);
}

Test(hxplay, export_npy_is_bit_exact)
{
	struct hx_run r = { 0 };
	struct sample s;

	sample_write(hx_scratch("s.hxr"), NREC, 1, &s);
	hxplay(&r, "export", hx_scratch("s.hxr"), "--npy",
	    hx_scratch("out/npy"), NULL);
	run_ok(&r, "export --npy");
	cr_expect_str_empty(r.err);
	check_npy_sample(hx_scratch("out/npy"), &s);
	check_npy_hashes(hx_scratch("out/npy"), &s);
	check_json_sample(hx_scratch("out/npy"), &s, 0);
	json_has(hx_scratch("out/npy"), "\"format\": \"npy\"");
	hx_run_free(&r);
}

Test(hxplay, export_csv_reads_back_exactly)
{
	struct hx_run r = { 0 };
	struct sample s;

	sample_write(hx_scratch("s.hxr"), NREC, 1, &s);
	hxplay(&r, "export", "--csv", hx_scratch("csv"), hx_scratch("s.hxr"),
	    NULL);
	run_ok(&r, "export --csv");
	cr_expect_str_empty(r.err);
	check_csv_sample(hx_scratch("csv"), &s);
	check_csv_hashes(hx_scratch("csv"), &s);
	check_json_sample(hx_scratch("csv"), &s, 0);
	json_has(hx_scratch("csv"), "\"format\": \"csv\"");
	hx_run_free(&r);
}

/* --fields: those and no others; step and time always. */
Test(hxplay, export_fields_chooses)
{
	struct hx_run r = { 0 };
	struct sample s;
	uint8_t *data;

	sample_write(hx_scratch("s.hxr"), NREC, 0, &s);
	hxplay(&r, "export", hx_scratch("s.hxr"), "--npy", hx_scratch("f"),
	    "--fields", "sensordata,qpos", NULL);
	run_ok(&r, "export --fields");
	data = npy_load(hx_scratch("f/qpos.npy"), "<f8", NREC, 3);
	cr_assert_eq(le64(data, 0), sample_value(0, REC_QPOS, 0));
	free(data);
	free(npy_load(hx_scratch("f/sensordata.npy"), "<f8", NREC, 4));
	free(npy_load(hx_scratch("f/step.npy"), "<u8", NREC, -1));
	free(npy_load(hx_scratch("f/time.npy"), "<f8", NREC, -1));
	cr_assert(!exists(hx_scratch("f/qvel.npy")));
	cr_assert(!exists(hx_scratch("f/xfrc_applied.npy")));
	cr_assert(!exists(hx_scratch("f/hash.npy")), "no hashes, no hash.npy");
	json_has(hx_scratch("f"), "\"fields\": [\"qpos\", \"sensordata\"]");

	hxplay(&r, "export", hx_scratch("s.hxr"), "--npy", hx_scratch("g"),
	    "--fields", "ctrl", NULL);
	cr_assert_eq(r.status, 1, "ctrl was not recorded: %d", r.status);
	cr_assert(strstr(r.err, "ctrl") != NULL, "%s", r.err);
	hxplay(&r, "export", hx_scratch("s.hxr"), "--npy", hx_scratch("g"),
	    "--fields", "qpos,nosuch", NULL);
	cr_assert_eq(r.status, 2, "an unknown field: %d", r.status);
	cr_assert(strstr(r.err, "nosuch") != NULL, "%s", r.err);
	hx_run_free(&r);
}

/*
 * Recorded by haptixd while stepping with changing controls, with every
 * field, every second step, and flags (HXD_RECORD_*).
 */
static void
record_fixture(struct hx_server *srv, unsigned flags, char *path, size_t len)
{
	double u[2];
	hxd_control ctl = { 2, 0, u };
	hxd_recording rec;
	unsigned taken, all = 0;
	hxd_conn *c;
	int i;

	for (i = HXD_FIELD_QPOS; i <= HXD_FIELD_SENSORDATA; i++)
		all |= HXD_FIELDS(i);
	all |= HXD_FIELDS(HXD_FIELD_QFRC_APPLIED) |
	    HXD_FIELDS(HXD_FIELD_XFRC_APPLIED);
	c = hx_connect_ok(srv->unix_addr, "recorder");
	HX_OK(c, hxd_record_start(c, all, 1, flags, &rec));
	for (i = 0; i < 61; i++) {
		u[0] = 0.01 * i;
		u[1] = -1.0 / (i + 3);
		HX_OK(c, hxd_set_control(c, &ctl));
		HX_OK(c, hxd_step(c, 1, &taken));
	}
	HX_OK(c, hxd_record_stop(c, &rec));
	cr_assert_eq(rec.records, 30, "%llu records", rec.records);
	snprintf(path, len, "%s", rec.path);
	hxd_close(c);
}

/* The records and hashes the library reads from path. */
static void
count_items(const char *path, uint64_t *records, uint64_t *hashes)
{
	struct rec_reader *rd;
	struct rec_item it;
	char err[512];

	rd = rec_reader_open(path, err, sizeof(err));
	cr_assert_not_null(rd, "%s", err);
	*records = *hashes = 0;
	while (rec_reader_next(rd, &it) == 1) {
		*records += it.tag == REC_TAG_STATE;
		*hashes += it.tag == REC_TAG_HASH;
	}
	rec_reader_close(rd);
}

/* The .npy files of an export of a recording like path's. */
struct npy_export {
	uint8_t *step, *time, *hash, *field[REC_NFIELD];
	size_t size[REC_NFIELD];
};

static void
npy_export_load(struct npy_export *x, const char *dir,
    const struct rec_header *h, uint64_t rows, uint64_t hashes)
{
	char file[256];
	int f;

	memset(x, 0, sizeof(*x));
	snprintf(file, sizeof(file), "%s/step.npy", dir);
	x->step = npy_load(file, "<u8", rows, -1);
	snprintf(file, sizeof(file), "%s/time.npy", dir);
	x->time = npy_load(file, "<f8", rows, -1);
	snprintf(file, sizeof(file), "%s/hash.npy", dir);
	if (hashes != 0)
		x->hash = npy_load(file, "<u8", hashes, 2);
	else
		cr_assert(!exists(file), "%s without hashes", file);
	for (f = 0; f < REC_NFIELD; f++) {
		x->size[f] = rec_field_size(h, f);
		if (!(h->fields & REC_FIELD_BIT(f)))
			continue;
		snprintf(
		    file, sizeof(file), "%s/%s.npy", dir, rec_field_name(f));
		x->field[f] = npy_load(file, "<f8", rows, (long)x->size[f]);
	}
}

static void
npy_export_free(struct npy_export *x)
{
	int f;

	free(x->step);
	free(x->time);
	free(x->hash);
	for (f = 0; f < REC_NFIELD; f++)
		free(x->field[f]);
}

static void
npy_export_record(
    const struct npy_export *x, uint64_t n, const struct rec_item *it)
{
	size_t j;
	int f;

	cr_assert_eq(le64(x->step, n), it->step);
	same(le64(x->time, n), hx_bits(it->time), 0, "time", n);
	for (f = 0; f < REC_NFIELD; f++) {
		for (j = 0; x->field[f] != NULL && j < x->size[f]; j++)
			same(le64(x->field[f], n * x->size[f] + j),
			    hx_bits(it->field[f][j]), 0, rec_field_name(f), n);
	}
}

/*
 * The export in dir is what the library reads from path, record by
 * record and hash by hash; the journal is not exported.
 */
static void
check_npy_against_reader(const char *dir, const char *path)
{
	struct npy_export x;
	struct rec_reader *rd;
	struct rec_item it;
	uint64_t rows, hashes, n = 0, i = 0;
	char err[512];

	/* Count first: the .npy headers must say exactly that many rows. */
	count_items(path, &rows, &hashes);
	cr_assert_gt(rows, 0);
	rd = rec_reader_open(path, err, sizeof(err));
	cr_assert_not_null(rd, "%s", err);
	npy_export_load(&x, dir, rec_reader_header(rd), rows, hashes);
	while (rec_reader_next(rd, &it) == 1) {
		if (it.tag == REC_TAG_STATE)
			npy_export_record(&x, n++, &it);
		else if (it.tag == REC_TAG_HASH) {
			cr_assert_eq(le64(x.hash, 2 * i), it.step);
			cr_assert_eq(le64(x.hash, 2 * i + 1), it.hash);
			i++;
		}
	}
	cr_assert_eq(n, rows);
	cr_assert_eq(i, hashes);
	rec_reader_close(rd);
	npy_export_free(&x);
}

static void
export_daemon_recording(unsigned flags)
{
	static const char *const args[] = { "-m", "fixture.xml", "--paused",
		NULL };
	struct hx_run r = { 0 };
	struct hx_server srv;
	char path[4096];

	hx_server_start(&srv, args);
	record_fixture(&srv, flags, path, sizeof(path));
	hxplay(&r, "export", path, "--npy", hx_scratch("d"), NULL);
	run_ok(&r, "export");
	check_npy_against_reader(hx_scratch("d"), path);
	json_has(hx_scratch("d"), "\"name\": \"fixture\"");
	json_has(hx_scratch("d"), "\"records\": 30,");
	json_has(hx_scratch("d"), "\"every\": 2,");
	hxplay(&r, "info", path, NULL);
	run_ok(&r, "info");
	info_is(r.out, "records", "30");
	info_is(r.out, "first step", "2");
	info_is(r.out, "last step", "60");
	info_is(r.out, "end", "complete");
	if (flags & HXD_RECORD_JOURNAL) {
		cr_assert(
		    strncmp(info_value(r.out, "journal model"), "yes", 3) == 0,
		    "%s", r.out);
		cr_assert_str_neq(
		    info_value(r.out, "hashes"), "0", "%s", r.out);
	}
	hx_server_stop(&srv);
	hx_run_free(&r);
}

Test(hxplay, export_of_a_daemon_recording)
{
	export_daemon_recording(0);
}

/* With the journal: hash.npy holds the recorded hashes. */
Test(hxplay, export_of_a_journaled_recording)
{
	export_daemon_recording(HXD_RECORD_JOURNAL);
}

/*
 * libhaptix's reader (hxd_log_*) gives what the recording library reads
 * of a daemon's recording, record by record, with a reset's segment;
 * a file that is no recording is refused, naming it.
 */
Test(hxplay, the_library_reads_a_recording)
{
	static const char *const args[] = { "-m", "fixture.xml", "--paused",
		NULL };
	const hxd_log_header *h;
	struct rec_reader *rd;
	struct hx_server srv;
	struct rec_item it;
	unsigned long long seg;
	char path[4096], err[512];
	hxd_frame fr;
	hxd_log *l;
	uint64_t n = 0;
	int rc, f;

	hx_server_start(&srv, args);
	record_fixture(&srv, 0, path, sizeof(path));
	cr_assert_not_null(l = hxd_log_open(path, err, sizeof(err)), "%s", err);
	h = hxd_log_get_header(l);
	cr_assert_eq(h->format, HXD_LOG_HXR);
	cr_assert_str_eq(h->name, "fixture");
	cr_assert_eq(h->every, 2);
	cr_assert(h->fields & HXD_FIELDS(HXD_FIELD_XFRC_APPLIED));
	cr_assert(h->timestep > 0);
	rd = rec_reader_open(path, err, sizeof(err));
	cr_assert_not_null(rd, "%s", err);
	while ((rc = hxd_log_next(l, &fr, &seg)) == 1) {
		do
			cr_assert_eq(rec_reader_next(rd, &it), 1);
		while (it.tag != REC_TAG_STATE);
		cr_assert_eq(fr.step, it.step);
		cr_assert_eq(hx_bits(fr.time), hx_bits(it.time));
		cr_assert_eq(seg, it.segment);
		cr_assert_eq(fr.nq, h->nq);
		for (f = 0; f < REC_NFIELD; f++) {
			const double *v[REC_NFIELD] = { fr.qpos, fr.qvel,
				fr.act, fr.ctrl, fr.mocap_pos, fr.mocap_quat,
				fr.sensordata, fr.qfrc_applied,
				fr.xfrc_applied };

			cr_assert_eq(v[f] == NULL, it.field[f] == NULL);
			if (v[f] != NULL)
				cr_assert(memcmp(v[f], it.field[f],
					      rec_field_size(it.model, f) *
						  sizeof(double)) == 0,
				    "record %llu: %s", (unsigned long long)n,
				    rec_field_name(f));
		}
		n++;
	}
	cr_assert_eq(rc, 0, "%s", hxd_log_error(l));
	cr_assert_eq(n, 30);
	cr_assert(!hxd_log_truncated(l));
	rec_reader_close(rd);
	hxd_log_close(l);
	hx_write_file(hx_scratch("text.hxr"), "not a recording at all\n", 23);
	cr_assert_null(hxd_log_open(hx_scratch("text.hxr"), err, sizeof(err)));
	cr_assert(strstr(err, "text.hxr: not a haptixd recording") != NULL,
	    "%s", err);
	cr_assert_null(hxd_log_open(hx_scratch("none.hxr"), err, sizeof(err)));
	cr_assert(strstr(err, "No such file") != NULL, "%s", err);
	hx_server_stop(&srv);
}

Test(hxplay, info_counts_a_whole_file)
{
	struct hx_run r = { 0 };
	struct sample s;
	char *buf;
	size_t len;

	sample_write(hx_scratch("s.hxr"), NREC, 1, &s);
	hxplay(&r, "info", hx_scratch("s.hxr"), NULL);
	run_ok(&r, "info");
	cr_expect_str_empty(r.err);
	info_is(r.out, "file", hx_scratch("s.hxr"));
	info_is(r.out, "model", SAMPLE_NAME);
	info_is(r.out, "model hash", "0123456789abcdef");
	info_is(r.out, "created", "2023-11-14T22:13:20.123456789Z");
	info_is(r.out, "sizes",
	    "nq 3 nv 2 na 1 nu 2 nmocap 0 nsensordata 4 nbody 2");
	info_is(r.out, "timestep", "0.002");
	info_is(r.out, "fields",
	    "qpos qvel act mocap_pos mocap_quat sensordata xfrc_applied");
	info_is(r.out, "every", "3");
	info_is_u(r.out, "records", NREC);
	info_is(r.out, "first step", "0");
	info_is_u(r.out, "last step", UINT64_MAX - 2);
	info_is(r.out, "first time", "0");
	/* 4 array writes, the model and one of a kind unknown to hxplay. */
	info_is(r.out, "journal entries", "6");
	info_is(r.out, "array writes", "4");
	info_is(r.out, "journal model", "yes, 100 bytes");
	info_is_u(r.out, "hashes", NREC / 4);
	info_is_u(r.out, "frames", s.frames);
	buf = (char *)hx_read_file(hx_scratch("s.hxr"), &len);
	free(buf);
	info_is_u(r.out, "bytes", len);
	info_is(r.out, "end", "complete");
	hx_run_free(&r);
}

/* info on the first cut bytes of the sample: whole frames, and the cut. */
static void
info_cut(const struct sample *s, uint64_t cut, size_t frame)
{
	struct hx_run r = { 0 };
	char end[128];

	copy_cut(hx_scratch("s.hxr"), hx_scratch("cut.hxr"), cut);
	hxplay(&r, "info", hx_scratch("cut.hxr"), NULL);
	run_ok(&r, "info on a cut file");
	if (cut == s->end[frame])
		snprintf(end, sizeof(end), "complete");
	else
		snprintf(end, sizeof(end),
		    "cut inside a frame: %" PRIu64 " bytes dropped",
		    cut - s->end[frame]);
	info_is(r.out, "end", end);
	info_is_u(r.out, "records", s->records[frame]);
	info_is_u(r.out, "frames", frame + 1);
	if (s->records[frame] != 0)
		info_is_u(
		    r.out, "last step", sample_step(s, s->records[frame] - 1));
	hx_run_free(&r);
}

Test(hxplay, info_on_a_file_cut_short)
{
	struct sample s;
	size_t i, last;

	sample_write(hx_scratch("s.hxr"), NREC, 1, &s);
	last = s.frames - 1;
	cr_assert_gt(last, 3, "%zu frames", s.frames);
	/* A few bytes short of the end: the last frame is dropped. */
	info_cut(&s, s.end[last] - 3, last - 1);
	/* At each frame's end, and a byte into the next. */
	for (i = 0; i < last; i++) {
		info_cut(&s, s.end[i], i);
		info_cut(&s, s.end[i] + 1, i);
	}
}

Test(hxplay, export_of_a_file_cut_short)
{
	struct hx_run r = { 0 };
	struct sample s, whole;
	size_t last;

	sample_write(hx_scratch("s.hxr"), NREC, 1, &whole);
	last = whole.frames - 1;
	copy_cut(
	    hx_scratch("s.hxr"), hx_scratch("cut.hxr"), whole.end[last] - 5);
	hxplay(&r, "export", hx_scratch("cut.hxr"), "--npy", hx_scratch("cut"),
	    NULL);
	run_ok(&r, "export of a cut file");
	cr_assert(strstr(r.err, "cut inside a frame") != NULL, "%s", r.err);
	/* What the whole frames hold: the first records of the sample. */
	s = whole;
	s.nrec = whole.records[last - 1];
	free(npy_load(hx_scratch("cut/step.npy"), "<u8", s.nrec, -1));
	free(npy_load(hx_scratch("cut/qpos.npy"), "<f8", s.nrec, 3));
	json_has(hx_scratch("cut"), "\"truncated\": true");
	json_has(hx_scratch("cut"), "\"dropped_bytes\": ");
	hx_run_free(&r);
}

/*
 * haptixd killed while recording at full speed: info and export read
 * every whole frame, and agree on the count.
 */
Test(hxplay, daemon_killed_mid_recording)
{
	static const char *const args[] = { "-m", "fixture.xml", NULL };
	struct hx_run r = { 0 };
	struct hx_server srv;
	hxd_recording rec;
	hxd_conn *c;
	char path[4096], want[32];
	const char *records;
	int status;

	hx_server_start(&srv, args);
	c = hx_connect_ok(srv.unix_addr, "recorder");
	HX_OK(c, hxd_record_start(c, 0, 0, 0, &rec));
	snprintf(path, sizeof(path), "%s", rec.path);
	hx_sleep_ms(700);
	kill(srv.pid, SIGKILL);
	waitpid(srv.pid, &status, 0);
	srv.pid = 0;
	hxd_close(c);

	hxplay(&r, "info", path, NULL);
	run_ok(&r, "info after kill -9");
	records = info_value(r.out, "records");
	cr_assert_not_null(records, "%s", r.out);
	cr_assert_gt(strtoull(records, NULL, 10), 0, "%s", r.out);
	snprintf(want, sizeof(want), "\"records\": %s,", records);
	hxplay(&r, "export", path, "--npy", hx_scratch("k"), NULL);
	run_ok(&r, "export after kill -9");
	check_npy_against_reader(hx_scratch("k"), path);
	json_has(hx_scratch("k"), want);
	hx_server_stop(&srv);
	hx_run_free(&r);
}

Test(hxplay, missing_file)
{
	struct hx_run r = { 0 };

	hxplay(&r, "info", hx_scratch("nosuch.hxr"), NULL);
	cr_assert_eq(r.status, 1, "info: %d", r.status);
	cr_assert(strstr(r.err, hx_scratch("nosuch.hxr")) != NULL, "%s", r.err);
	cr_assert_str_empty(r.out);
	hxplay(&r, "export", hx_scratch("nosuch.hxr"), "--csv", hx_scratch("m"),
	    NULL);
	cr_assert_eq(r.status, 1, "export: %d", r.status);
	cr_assert(strstr(r.err, hx_scratch("nosuch.hxr")) != NULL, "%s", r.err);
	cr_assert(!exists(hx_scratch("m")), "nothing made for nothing read");
	/* Not a recording at all. */
	hx_write_file(hx_scratch("text.hxr"), "hello\n", 6);
	hxplay(&r, "info", hx_scratch("text.hxr"), NULL);
	cr_assert_eq(r.status, 1, "info: %d", r.status);
	cr_assert(
	    strstr(r.err, "not a haptixd recording") != NULL, "%s", r.err);
	hx_run_free(&r);
}

/*
 * hxctl record prints the file's full path, and hxplay finds the bare
 * name it ends with in the daemon's state directory: the one haptixd
 * --state-dir named, given to hxplay as --state-dir or
 * $STATE_DIRECTORY, or the default ($XDG_STATE_HOME/haptixd here).  A
 * name found nowhere is refused naming every directory tried.  hxplay
 * once looked only in the current directory (the README's hxplay info
 * MPL_table_1.hxr failed), then not in a --state-dir, without a word of
 * where it had looked.
 */
Test(hxplay, a_bare_name_is_found_in_the_state_directory)
{
	char dir[4096], file[4200], want[4300], xdg[4096], moved[4200];
	const char *args[] = { "-m", "fixture.xml", "--paused", "--state-dir",
		dir, NULL };
	struct hx_run r = { 0 };
	struct hx_server srv;

	snprintf(dir, sizeof(dir), "%s", hx_scratch("elsewhere"));
	hx_server_start(&srv, args);
	hx_run_args(&r, hx_hxctl_path(), "--server", srv.unix_addr, "record",
	    "start", NULL);
	run_ok(&r, "record start");
	snprintf(file, sizeof(file), "%s/fixture_1.hxr", dir);
	snprintf(want, sizeof(want), "recording %s: ", file);
	cr_assert(strncmp(r.out, want, strlen(want)) == 0, "%s", r.out);
	hx_run_args(
	    &r, hx_hxctl_path(), "--server", srv.unix_addr, "step", "10", NULL);
	run_ok(&r, "step");
	hx_run_args(&r, hx_hxctl_path(), "--server", srv.unix_addr, "record",
	    "stop", NULL);
	run_ok(&r, "record stop");
	hx_server_stop(&srv);

	/* Not in the default places: each is named, and what to do. */
	snprintf(xdg, sizeof(xdg), "%s", hx_scratch("state"));
	cr_assert_eq(setenv("XDG_STATE_HOME", xdg, 1), 0);
	hxplay(&r, "info", "fixture_1.hxr", NULL);
	cr_assert_eq(r.status, 1, "info: %d %s", r.status, r.out);
	cr_expect_not_null(strstr(r.err, "fixture_1.hxr"), "%s", r.err);
	cr_expect_not_null(strstr(r.err, xdg), "%s", r.err);
	cr_expect_not_null(strstr(r.err, "/var/lib/haptixd"), "%s", r.err);
	cr_expect_not_null(strstr(r.err, "--state-dir"), "%s", r.err);
	/* The daemon's --state-dir, given to hxplay. */
	hxplay(&r, "info", "--state-dir", dir, "fixture_1.hxr", NULL);
	run_ok(&r, "info --state-dir");
	info_is(r.out, "file", file);
	info_is(r.out, "records", "10");
	hxplay(&r, "export", "fixture_1.hxr", "--state-dir", dir, "--csv",
	    hx_scratch("bare"), NULL);
	run_ok(&r, "export --state-dir");
	cr_assert(exists(hx_scratch("bare/qpos.csv")));
	/* ... or in $STATE_DIRECTORY, as haptixd reads it. */
	cr_assert_eq(setenv("STATE_DIRECTORY", dir, 1), 0);
	hxplay(&r, "info", "fixture_1.hxr", NULL);
	unsetenv("STATE_DIRECTORY");
	run_ok(&r, "info with $STATE_DIRECTORY");
	info_is(r.out, "file", file);
	/* The default: $XDG_STATE_HOME/haptixd. */
	cr_assert(mkdir(xdg, 0700) == 0 || errno == EEXIST);
	cr_assert(
	    mkdir(hx_scratch("state/haptixd"), 0700) == 0 || errno == EEXIST);
	snprintf(moved, sizeof(moved), "%s/fixture_1.hxr",
	    hx_scratch("state/haptixd"));
	cr_assert_eq(rename(file, moved), 0, "%s", strerror(errno));
	hxplay(&r, "info", "fixture_1.hxr", NULL);
	run_ok(&r, "info");
	info_is(r.out, "file", moved);
	hx_run_free(&r);
}

Test(hxplay, bad_usage)
{
	struct hx_run r = { 0 };
	struct sample s;

	sample_write(hx_scratch("s.hxr"), 5, 0, &s);
	hxplay(&r, "export", hx_scratch("s.hxr"), NULL);
	cr_assert_eq(r.status, 2, "no format: %d", r.status);
	cr_assert(strstr(r.err, "usage") != NULL, "%s", r.err);
	hxplay(&r, "export", hx_scratch("s.hxr"), "--csv", hx_scratch("a"),
	    "--npy", hx_scratch("b"), NULL);
	cr_assert_eq(r.status, 2, "two formats: %d", r.status);
	cr_assert(!exists(hx_scratch("a")) && !exists(hx_scratch("b")));
	hxplay(&r, "export", "--npy", hx_scratch("a"), NULL);
	cr_assert_eq(r.status, 2, "no file: %d", r.status);
	hxplay(&r, "export", hx_scratch("s.hxr"), hx_scratch("s.hxr"), "--npy",
	    hx_scratch("a"), NULL);
	cr_assert_eq(r.status, 2, "two files: %d", r.status);
	hxplay(&r, "export", hx_scratch("s.hxr"), "--npy", hx_scratch("a"),
	    "--bogus", NULL);
	cr_assert_eq(r.status, 2, "an unknown option: %d", r.status);
	hxplay(&r, "info", NULL);
	cr_assert_eq(r.status, 2, "info without a file: %d", r.status);
	hxplay(&r, "info", hx_scratch("s.hxr"), hx_scratch("s.hxr"), NULL);
	cr_assert_eq(r.status, 2, "info of two files: %d", r.status);
	hxplay(&r, "info", "--help", NULL);
	cr_assert_eq(r.status, 0, "info --help: %d", r.status);
	cr_assert(strstr(r.out, "usage") != NULL, "%s", r.out);
	hxplay(&r, "export", "--help", NULL);
	cr_assert_eq(r.status, 0, "export --help: %d", r.status);
	cr_assert(strstr(r.out, "usage") != NULL, "%s", r.out);
	hx_run_free(&r);
}

/*
 * An export never writes over an earlier one: the old files stay as
 * they were, byte for byte.  --force replaces it, stale files included.
 */
Test(hxplay, export_refuses_to_overwrite)
{
	static const char *const names[] = { "step.npy", "time.npy", "qpos.npy",
		"hash.npy", "header.json" };
	struct hx_run r = { 0 };
	struct sample s, t;
	uint8_t *before[5], *after;
	size_t len[5], n, i;

	sample_write(hx_scratch("s.hxr"), NREC, 1, &s);
	sample_write(hx_scratch("t.hxr"), 9, 0, &t);
	hxplay(
	    &r, "export", hx_scratch("s.hxr"), "--npy", hx_scratch("o"), NULL);
	run_ok(&r, "the first export");
	for (i = 0; i < 5; i++) {
		char p[256];

		snprintf(p, sizeof(p), "%s/%s", hx_scratch("o"), names[i]);
		before[i] = hx_read_file(p, &len[i]);
	}
	hxplay(
	    &r, "export", hx_scratch("t.hxr"), "--npy", hx_scratch("o"), NULL);
	cr_assert_eq(r.status, 1, "over an export: %d", r.status);
	cr_assert(strstr(r.err, "exists") != NULL, "%s", r.err);
	for (i = 0; i < 5; i++) {
		char p[256];

		snprintf(p, sizeof(p), "%s/%s", hx_scratch("o"), names[i]);
		after = hx_read_file(p, &n);
		cr_assert(n == len[i] && memcmp(after, before[i], n) == 0,
		    "%s changed", p);
		free(after);
		free(before[i]);
	}
	/* One file of an export is enough to refuse. */
	hxplay(
	    &r, "export", hx_scratch("t.hxr"), "--csv", hx_scratch("c"), NULL);
	run_ok(&r, "a CSV export");
	unlink(hx_scratch("c/header.json"));
	unlink(hx_scratch("c/time.csv"));
	hxplay(
	    &r, "export", hx_scratch("t.hxr"), "--csv", hx_scratch("c"), NULL);
	cr_assert_eq(r.status, 1, "over part of an export: %d", r.status);

	hxplay(&r, "export", hx_scratch("t.hxr"), "--npy", hx_scratch("o"),
	    "--force", NULL);
	run_ok(&r, "export --force");
	free(npy_load(hx_scratch("o/qpos.npy"), "<f8", 9, 3));
	cr_assert(
	    !exists(hx_scratch("o/hash.npy")), "the old hash.npy is gone");
	check_npy_sample(hx_scratch("o"), &t);
	hx_run_free(&r);
}

/*
 * A byte flipped inside a frame's compressed data: info prints what it
 * read before and the error, naming the frame's offset, and exits 1.
 */
Test(hxplay, corrupt_frame)
{
	struct hx_run r = { 0 };
	struct sample s;
	uint8_t *buf;
	size_t len;
	char offset[64];

	sample_write(hx_scratch("s.hxr"), NREC, 1, &s);
	cr_assert_gt(s.frames, 4);
	buf = hx_read_file(hx_scratch("s.hxr"), &len);
	buf[(s.end[2] + s.end[3]) / 2] ^= 0x10;
	hx_write_file(hx_scratch("bad.hxr"), buf, len);
	free(buf);
	snprintf(offset, sizeof(offset), "byte %" PRIu64, s.end[2]);

	hxplay(&r, "info", hx_scratch("bad.hxr"), NULL);
	cr_assert_eq(r.status, 1, "info: %d\n%s", r.status, r.out);
	cr_assert(
	    strstr(r.err, offset) != NULL, "\"%s\" not in %s", offset, r.err);
	cr_assert(strstr(r.err, hx_scratch("bad.hxr")) != NULL, "%s", r.err);
	info_is_u(r.out, "records", s.records[2]);
	cr_assert(
	    strncmp(info_value(r.out, "end"), "error: ", 7) == 0, "%s", r.out);

	hxplay(&r, "export", hx_scratch("bad.hxr"), "--npy", hx_scratch("bad"),
	    NULL);
	cr_assert_eq(r.status, 1, "export: %d", r.status);
	cr_assert(strstr(r.err, offset) != NULL, "%s", r.err);
	free(npy_load(hx_scratch("bad/step.npy"), "<u8", s.records[2], -1));
	json_has(hx_scratch("bad"), "\"error\": \"");
	hx_run_free(&r);
}

/* Whether python can import numpy. */
static int
imports_numpy(const char *python)
{
	int status, fd;
	pid_t pid;

	pid = fork();
	cr_assert_neq(pid, -1);
	if (pid == 0) {
		fd = open("/dev/null", O_WRONLY);
		dup2(fd, 1);
		dup2(fd, 2);
		execlp(python, python, "-c", "import numpy", (char *)NULL);
		_exit(127);
	}
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/*
 * A python3 with NumPy, or NULL: the first of PATH's, then the
 * system's, which a pyenv or a virtualenv on the PATH may hide.
 */
static const char *
numpy_python(void)
{
	static const char *const pythons[] = { "python3", "/usr/bin/python3" };
	size_t i;

	for (i = 0; i < sizeof(pythons) / sizeof(pythons[0]); i++) {
		if (imports_numpy(pythons[i]))
			return pythons[i];
	}
	return NULL;
}

/*
 * NumPy loads each file, checks dtype and shape and writes the array's
 * bytes back out (NAME.raw), which must be the numbers written.
 */
static const char numpy_check
    [] = "import json, sys\n"
	 "import numpy as np\n"
	 "d, n, name = sys.argv[1], int(sys.argv[2]), sys.argv[3]\n"
	 "h = json.load(open(d + '/header.json'))\n"
	 "assert h['records'] == n and h['name'] == name, h\n"
	 "for f in ['step', 'time', 'hash'] + h['fields']:\n"
	 "    a = np.load(d + '/' + f + '.npy')\n"
	 "    rows = h['hashes'] if f == 'hash' else n\n"
	 "    assert a.shape[0] == rows, (f, a.shape)\n"
	 "    assert a.dtype == (np.uint64 if f in ('step', 'hash') else "
	 "np.float64), (f, a.dtype)\n"
	 "    print(f, a.dtype, a.shape)\n"
	 "    a.astype(a.dtype.newbyteorder('<')).tofile(d + '/' + f + '.raw')\n";

Test(hxplay, numpy_loads_the_export)
{
	struct rec_header h = sample_header();
	struct hx_run r = { 0 };
	struct sample s;
	char *out, shape[128], path[256];
	uint8_t *raw;
	size_t len, n, j;
	const char *python;
	uint64_t k;
	pid_t pid;
	int fd, status, f;

	if ((python = numpy_python()) == NULL)
		cr_skip_test("no python3 here imports numpy");
	sample_write(hx_scratch("s.hxr"), NREC, 1, &s);
	hxplay(
	    &r, "export", hx_scratch("s.hxr"), "--npy", hx_scratch("np"), NULL);
	run_ok(&r, "export");
	hx_run_free(&r);
	snprintf(path, sizeof(path), "%s", hx_scratch("numpy.out"));
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	cr_assert_geq(fd, 0);
	pid = fork();
	if (pid == 0) {
		char nrec[16];

		snprintf(nrec, sizeof(nrec), "%d", NREC);
		dup2(fd, 1);
		dup2(fd, 2);
		execlp(python, python, "-c", numpy_check, hx_scratch("np"),
		    nrec, SAMPLE_NAME, (char *)NULL);
		_exit(127);
	}
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	out = hx_slurp_fd(fd, NULL);
	close(fd);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s", out);
	cr_assert(strstr(out, "step uint64 (40,)") != NULL, "%s", out);
	cr_assert(strstr(out, "hash uint64 (10, 2)") != NULL, "%s", out);
	cr_assert(strstr(out, "mocap_pos float64 (40, 0)") != NULL, "%s", out);
	snprintf(shape, sizeof(shape), "xfrc_applied float64 (40, 12)");
	cr_assert(strstr(out, shape) != NULL, "%s", out);
	free(out);
	raw = hx_read_file(hx_scratch("np/time.raw"), &len);
	cr_assert_eq(len, 8 * NREC);
	for (k = 0; k < NREC; k++)
		same(le64(raw, k), sample_time(k), 0, "time", k);
	free(raw);
	for (f = 0; f < REC_NFIELD; f++) {
		if (!(h.fields & REC_FIELD_BIT(f)))
			continue;
		snprintf(path, sizeof(path), "%s/%s.raw", hx_scratch("np"),
		    rec_field_name(f));
		raw = hx_read_file(path, &len);
		n = rec_field_size(&h, f);
		cr_assert_eq(len, 8 * n * NREC, "%s", path);
		for (k = 0; k < NREC; k++)
			for (j = 0; j < n; j++)
				same(le64(raw, k * n + j),
				    sample_value(k, f, j), 0, rec_field_name(f),
				    k);
		free(raw);
	}
}
