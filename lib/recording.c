/* The recording file (.hxr): see recording.h and docs/recording.md. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <zstd.h>

#include "mjl.h"
#include "recording.h"

#define REC_MAGIC "HXREC\0"
#define REC_MAGIC_LEN 6
#define REC_HEADER_FIXED 80 /* the header up to the name */
#define REC_ITEM_HEAD 8     /* tag, length */
#define REC_STATE_HEAD 16   /* step, time */
#define REC_JOURNAL_HEAD 16 /* step, kind, length */
#define REC_HASH_LEN 16     /* step, hash */
#define REC_MODEL_HEAD 80   /* step, time, sizes, timestep, hash, lengths */
#define REC_LEVEL_MAX 9
/* Levels 1 to 9 never need more than 4 MiB of window: refuse more. */
#define REC_WINDOW_LOG_MAX 23
#define REC_ERR_LEN 256

struct rec_writer {
	int fd;
	char *path; /* NULL when the fd is the caller's */
	ZSTD_CCtx *cc;
	uint8_t *buf; /* items of the frame to come */
	size_t len;
	size_t cap;
	uint8_t *out; /* the frame compressed */
	size_t outcap;
	struct rec_header h;
	size_t size[REC_NFIELD];
	size_t record_len; /* a state record, its tag and length included */
	struct rec_writer_stats st;
	uint64_t limit; /* the most bytes of the file; 0: no limit */
	int failed;
	int full; /* failed because the next item would pass the limit */
	char err[REC_ERR_LEN];
};

struct rec_reader {
	int fd;
	ZSTD_DStream *ds;
	uint8_t *in; /* file bytes read, from in_off */
	size_t in_len;
	size_t in_pos;
	size_t in_cap;
	uint64_t in_off;
	uint8_t *frame; /* the current frame decompressed */
	size_t frame_len;
	size_t frame_pos;
	size_t frame_cap;
	uint64_t frame_off;
	double *values; /* the current record's fields */
	size_t nvalues;
	struct rec_header h;
	struct rec_header cur; /* h with the last model change's sizes */
	size_t size[REC_NFIELD];
	struct rec_reader_stats st;
	double last_time; /* the last state record's not NaN: -inf if none */
	int new_model;    /* a model change since the last state record */
	int failed;
	int ioerr; /* the failure was the system's, not the file's */
	int ended;
	int mjl; /* HAPTIX's .mjl, read by mjl_*: no frames */
	char err[REC_ERR_LEN];
};

/* The four bytes that begin every zstd frame, and so every .hxr. */
static const uint8_t zstd_magic[4] = { 0x28, 0xb5, 0x2f, 0xfd };

static void put32(uint8_t *, uint32_t);
static void put64(uint8_t *, uint64_t);
static uint32_t get32(const uint8_t *);
static uint64_t get64(const uint8_t *);
static void put_doubles(uint8_t *, const double *, size_t);
static void get_doubles(double *, const uint8_t *, size_t);
static int header_check(const struct rec_header *, size_t *, char *, size_t);
static size_t header_put(uint8_t *, const struct rec_header *);
static int header_get(
    struct rec_header *, const uint8_t *, size_t, char *, size_t);
static int writer_fail(struct rec_writer *, const char *, ...)
    __attribute__((format(printf, 2, 3)));
static int writer_reserve(struct rec_writer *, size_t);
static int writer_write(struct rec_writer *, const uint8_t *, size_t);
static struct rec_writer *writer_new(
    int, const char *, const struct rec_header *, int, char *, size_t);
static int reader_fail(struct rec_reader *, const char *, ...)
    __attribute__((format(printf, 2, 3)));
static int reader_frame(struct rec_reader *, size_t);
static size_t reader_fill(struct rec_reader *, size_t);
static int reader_mjl_open(struct rec_reader *, const char *, char *, size_t);
static int reader_mjl_next(struct rec_reader *, struct rec_item *);
static int reader_item(struct rec_reader *, struct rec_item *, const uint8_t *,
    uint32_t, uint32_t);
static int reader_model(
    struct rec_reader *, struct rec_item *, const uint8_t *, uint32_t);

/* Little-endian whatever the host: a compiler makes these single moves. */
static void
put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static void
put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

static uint32_t
get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

static uint64_t
get64(const uint8_t *p)
{
	return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

/* Doubles as their bits, so NaN payloads and -0.0 survive. */
static void
put_doubles(uint8_t *p, const double *v, size_t n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(p, v, n * sizeof(*v));
#else
	uint64_t u;
	size_t i;

	for (i = 0; i < n; i++) {
		memcpy(&u, &v[i], sizeof(u));
		put64(p + 8 * i, u);
	}
#endif
}

static void
get_doubles(double *v, const uint8_t *p, size_t n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(v, p, n * sizeof(*v));
#else
	uint64_t u;
	size_t i;

	for (i = 0; i < n; i++) {
		u = get64(p + 8 * i);
		memcpy(&v[i], &u, sizeof(u));
	}
#endif
}

uint64_t
rec_hash64(const void *buf, size_t len, uint64_t seed)
{
	const uint8_t *p = buf;
	uint64_t h = seed;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

const char *
rec_field_name(enum rec_field f)
{
	static const char *const names[REC_NFIELD] = { "qpos", "qvel", "act",
		"ctrl", "mocap_pos", "mocap_quat", "sensordata", "qfrc_applied",
		"xfrc_applied" };

	if ((unsigned)f >= REC_NFIELD)
		return NULL;
	return names[f];
}

size_t
rec_field_size(const struct rec_header *h, enum rec_field f)
{
	switch (f) {
	case REC_QPOS:
		return h->nq;
	case REC_QVEL:
	case REC_QFRC_APPLIED:
		return h->nv;
	case REC_ACT:
		return h->na;
	case REC_CTRL:
		return h->nu;
	case REC_MOCAP_POS:
		return 3 * (size_t)h->nmocap;
	case REC_MOCAP_QUAT:
		return 4 * (size_t)h->nmocap;
	case REC_SENSORDATA:
		return h->nsensordata;
	case REC_XFRC_APPLIED:
		return 6 * (size_t)h->nbody;
	default:
		return 0;
	}
}

/*
 * What both sides check of a header, sizes first, so that nothing is
 * sized from a number nobody checked.  Sets the record's length.
 */
static int
header_check(
    const struct rec_header *h, size_t *record_len, char *err, size_t len)
{
	const struct {
		const char *name;
		uint32_t v;
	} sizes[] = { { "nq", h->nq }, { "nv", h->nv }, { "na", h->na },
		{ "nu", h->nu }, { "nmocap", h->nmocap },
		{ "nsensordata", h->nsensordata }, { "nbody", h->nbody } };
	uint64_t n = REC_ITEM_HEAD + REC_STATE_HEAD;
	size_t i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		if (sizes[i].v > REC_SIZE_MAX) {
			snprintf(err, len, "%s is %u (limit %u)", sizes[i].name,
			    sizes[i].v, REC_SIZE_MAX);
			return -1;
		}
	}
	if (h->fields & ~REC_FIELDS_ALL) {
		snprintf(err, len, "unknown fields 0x%x",
		    h->fields & ~REC_FIELDS_ALL);
		return -1;
	}
	if (h->every == 0) {
		snprintf(err, len, "a record every 0 steps");
		return -1;
	}
	if (memchr(h->name, '\0', sizeof(h->name)) == NULL) {
		snprintf(err, len, "model name over %d bytes", REC_NAME_MAX);
		return -1;
	}
	for (i = 0; i < REC_NFIELD; i++) {
		if (h->fields & REC_FIELD_BIT(i))
			n += 8 * (uint64_t)rec_field_size(h, (enum rec_field)i);
	}
	if (n > REC_ITEM_MAX) {
		snprintf(err, len, "a record of %llu bytes (limit %u)",
		    (unsigned long long)n, REC_ITEM_MAX);
		return -1;
	}
	*record_len = (size_t)n;
	return 0;
}

/* The header's bytes into p (REC_HEADER_FIXED + the name); their count. */
static size_t
header_put(uint8_t *p, const struct rec_header *h)
{
	size_t name = strlen(h->name);
	uint64_t u;

	memset(p, 0, REC_HEADER_FIXED);
	memcpy(p, REC_MAGIC, REC_MAGIC_LEN);
	p[6] = REC_VERSION & 0xff;
	p[7] = REC_VERSION >> 8;
	put32(p + 8, (uint32_t)(REC_HEADER_FIXED + name));
	put32(p + 12, h->fields);
	put32(p + 16, h->every);
	put32(p + 20, h->nq);
	put32(p + 24, h->nv);
	put32(p + 28, h->na);
	put32(p + 32, h->nu);
	put32(p + 36, h->nmocap);
	put32(p + 40, h->nsensordata);
	put32(p + 44, h->nbody);
	memcpy(&u, &h->timestep, sizeof(u));
	put64(p + 48, u);
	put64(p + 56, h->model_hash);
	put64(p + 64, (uint64_t)h->created);
	put32(p + 72, (uint32_t)name);
	memcpy(p + REC_HEADER_FIXED, h->name, name);
	return REC_HEADER_FIXED + name;
}

/* The header from the len bytes of the first frame. */
static int
header_get(struct rec_header *h, const uint8_t *p, size_t len, char *err,
    size_t errlen)
{
	uint32_t size, name;
	uint64_t u;

	memset(h, 0, sizeof(*h));
	if (len < REC_HEADER_FIXED ||
	    memcmp(p, REC_MAGIC, REC_MAGIC_LEN) != 0) {
		snprintf(err, errlen, "not a haptixd recording");
		return -1;
	}
	h->version = (uint32_t)p[6] | (uint32_t)p[7] << 8;
	if (h->version != REC_VERSION) {
		snprintf(err, errlen,
		    "a recording of format version %u (this reader knows %u)",
		    h->version, REC_VERSION);
		return -1;
	}
	size = get32(p + 8);
	name = get32(p + 72);
	if (size != len || name > REC_NAME_MAX ||
	    name > size - REC_HEADER_FIXED) {
		snprintf(err, errlen,
		    "a header of %zu bytes that says %u, with a name of %u",
		    len, size, name);
		return -1;
	}
	h->fields = get32(p + 12);
	h->every = get32(p + 16);
	h->nq = get32(p + 20);
	h->nv = get32(p + 24);
	h->na = get32(p + 28);
	h->nu = get32(p + 32);
	h->nmocap = get32(p + 36);
	h->nsensordata = get32(p + 40);
	h->nbody = get32(p + 44);
	u = get64(p + 48);
	memcpy(&h->timestep, &u, sizeof(u));
	h->model_hash = get64(p + 56);
	h->created = (int64_t)get64(p + 64);
	if (memchr(p + REC_HEADER_FIXED, '\0', name) != NULL) {
		snprintf(err, errlen, "a model name with a NUL in it");
		return -1;
	}
	memcpy(h->name, p + REC_HEADER_FIXED, name);
	h->name[name] = '\0';
	return 0;
}

static int
writer_fail(struct rec_writer *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->err, sizeof(w->err), fmt, ap);
	va_end(ap);
	w->failed = 1;
	return -1;
}

/* Room for n more bytes in the frame to come. */
static int
writer_reserve(struct rec_writer *w, size_t n)
{
	size_t cap;
	uint8_t *p;

	if (w->cap - w->len >= n)
		return 0;
	cap = w->cap != 0 ? w->cap : 64 * 1024;
	while (cap - w->len < n)
		cap *= 2;
	if ((p = realloc(w->buf, cap)) == NULL)
		return writer_fail(w, "out of memory for %zu bytes", cap);
	w->buf = p;
	w->cap = cap;
	return 0;
}

/*
 * Room in the file for an item of n bytes: the frame that holds it must
 * end within the limit, however little it compresses.  When the frame
 * to come could not hold it, what it holds is written first; when even
 * a frame of the item alone could not, the writer stops, full.
 */
static int
writer_room(struct rec_writer *w, size_t n)
{
	uint64_t left;

	if (w->limit == 0)
		return 0;
	left = w->limit > w->st.bytes_written ? w->limit - w->st.bytes_written :
						0;
	if (ZSTD_COMPRESSBOUND(w->len + n) <= left)
		return 0;
	if (w->len != 0 && rec_writer_flush(w) != 0)
		return -1;
	left = w->limit > w->st.bytes_written ? w->limit - w->st.bytes_written :
						0;
	if (ZSTD_COMPRESSBOUND(n) <= left)
		return 0;
	w->full = 1;
	return writer_fail(w,
	    "the file reached its size limit of %llu bytes (%llu written)",
	    (unsigned long long)w->limit,
	    (unsigned long long)w->st.bytes_written);
}

/* All of it: a signal or a full pipe may write a part at a time. */
static int
writer_write(struct rec_writer *w, const uint8_t *p, size_t n)
{
	ssize_t done;

	while (n > 0) {
		done = write(w->fd, p, n);
		if (done < 0 && errno == EINTR)
			continue;
		if (done <= 0) {
			return writer_fail(w, "writing %s: %s",
			    w->path != NULL ? w->path : "the recording",
			    done < 0 ? strerror(errno) : "nothing written");
		}
		p += done;
		n -= (size_t)done;
		w->st.bytes_written += (uint64_t)done;
	}
	return 0;
}

/* A writer on fd, its header written; path names it in messages. */
static struct rec_writer *
writer_new(int fd, const char *path, const struct rec_header *h, int level,
    char *err, size_t len)
{
	struct rec_writer *w;
	struct timespec ts;
	size_t i, n;

	if (level == 0)
		level = REC_LEVEL_DEFAULT;
	if (level < 1 || level > REC_LEVEL_MAX) {
		snprintf(err, len, "compression level %d (1 to %d)", level,
		    REC_LEVEL_MAX);
		return NULL;
	}
	if ((w = calloc(1, sizeof(*w))) == NULL) {
		snprintf(err, len, "out of memory");
		return NULL;
	}
	w->fd = fd;
	w->h = *h;
	w->h.version = REC_VERSION;
	if (header_check(&w->h, &w->record_len, err, len) != 0) {
		free(w);
		return NULL;
	}
	if (path != NULL && (w->path = strdup(path)) == NULL) {
		snprintf(err, len, "out of memory");
		free(w);
		return NULL;
	}
	if (w->h.created == 0) {
		clock_gettime(CLOCK_REALTIME, &ts);
		w->h.created = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	}
	for (i = 0; i < REC_NFIELD; i++) {
		if (w->h.fields & REC_FIELD_BIT(i))
			w->size[i] = rec_field_size(&w->h, (enum rec_field)i);
	}
	/* Checksums, so that a reader never hands out a damaged frame. */
	if ((w->cc = ZSTD_createCCtx()) == NULL ||
	    ZSTD_isError(ZSTD_CCtx_setParameter(
		w->cc, ZSTD_c_compressionLevel, level)) ||
	    ZSTD_isError(
		ZSTD_CCtx_setParameter(w->cc, ZSTD_c_checksumFlag, 1))) {
		snprintf(err, len, "cannot set up zstd");
		ZSTD_freeCCtx(w->cc);
		free(w->path);
		free(w);
		return NULL;
	}
	if (writer_reserve(w, REC_HEADER_MAX) != 0)
		goto fail;
	n = header_put(w->buf, &w->h);
	w->len = n;
	if (rec_writer_flush(w) != 0)
		goto fail;
	return w;

fail:
	snprintf(err, len, "%s", w->err);
	ZSTD_freeCCtx(w->cc);
	free(w->buf);
	free(w->out);
	free(w->path);
	free(w);
	return NULL;
}

struct rec_writer *
rec_writer_fdopen(
    int fd, const struct rec_header *h, int level, char *err, size_t len)
{
	return writer_new(fd, NULL, h, level, err, len);
}

struct rec_writer *
rec_writer_open(const char *path, const struct rec_header *h, int level,
    char *err, size_t len)
{
	struct rec_writer *w;
	int fd;

	/* O_EXCL: a recording never replaces a file, nor follows a link. */
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(err, len, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if ((w = writer_new(fd, path, h, level, err, len)) == NULL) {
		unlink(path);
		close(fd);
	}
	return w;
}

int
rec_writer_due(const struct rec_writer *w, uint64_t step)
{
	return step % w->h.every == 0;
}

int
rec_writer_state(struct rec_writer *w, uint64_t step, double time,
    const double *const field[REC_NFIELD])
{
	uint8_t *p;
	uint64_t u;
	size_t i;

	if (w->failed)
		return -1;
	for (i = 0; i < REC_NFIELD; i++) {
		if (w->size[i] != 0 && field[i] == NULL) {
			snprintf(w->err, sizeof(w->err), "no %s to record",
			    rec_field_name((enum rec_field)i));
			return -1;
		}
	}
	if (writer_room(w, w->record_len) != 0 ||
	    writer_reserve(w, w->record_len) != 0)
		return -1;
	p = w->buf + w->len;
	put32(p, REC_TAG_STATE);
	put32(p + 4, (uint32_t)(w->record_len - REC_ITEM_HEAD));
	put64(p + 8, step);
	memcpy(&u, &time, sizeof(u));
	put64(p + 16, u);
	p += REC_ITEM_HEAD + REC_STATE_HEAD;
	for (i = 0; i < REC_NFIELD; i++) {
		if (w->size[i] != 0) {
			put_doubles(p, field[i], w->size[i]);
			p += 8 * w->size[i];
		}
	}
	w->len += w->record_len;
	w->st.records++;
	w->st.items++;
	if (w->len >= REC_FLUSH_AT)
		return rec_writer_flush(w);
	return 0;
}

int
rec_writer_journal(struct rec_writer *w, uint64_t step, uint32_t kind,
    const void *data, size_t len)
{
	size_t n = REC_ITEM_HEAD + REC_JOURNAL_HEAD + len;
	uint8_t *p;

	if (w->failed)
		return -1;
	if (len > REC_ITEM_MAX - REC_ITEM_HEAD - REC_JOURNAL_HEAD) {
		snprintf(w->err, sizeof(w->err),
		    "a journal entry of %zu bytes (limit %u)", len,
		    REC_ITEM_MAX - REC_ITEM_HEAD - REC_JOURNAL_HEAD);
		return -1;
	}
	if (writer_room(w, n) != 0 || writer_reserve(w, n) != 0)
		return -1;
	p = w->buf + w->len;
	put32(p, REC_TAG_JOURNAL);
	put32(p + 4, (uint32_t)(n - REC_ITEM_HEAD));
	put64(p + 8, step);
	put32(p + 16, kind);
	put32(p + 20, (uint32_t)len);
	if (len != 0)
		memcpy(p + 24, data, len);
	w->len += n;
	w->st.items++;
	if (w->len >= REC_FLUSH_AT)
		return rec_writer_flush(w);
	return 0;
}

/* An array write: offset, count, name length, name, the values. */
#define REC_ARRAY_HEAD 9

int
rec_writer_array(struct rec_writer *w, uint64_t step, const char *name,
    uint32_t offset, uint32_t count, const double *v)
{
	size_t n = strlen(name), len;
	uint8_t *p;
	int rc;

	if (w->failed)
		return -1;
	if (n == 0 || n > REC_ARRAY_NAME_MAX ||
	    count > (REC_ITEM_MAX - REC_ITEM_HEAD - REC_JOURNAL_HEAD -
			REC_ARRAY_HEAD - n) /
		    8) {
		snprintf(w->err, sizeof(w->err),
		    "an array write to \"%.*s\" of %u values", 64, name, count);
		return -1;
	}
	len = REC_ARRAY_HEAD + n + 8 * (size_t)count;
	if ((p = malloc(len)) == NULL)
		return writer_fail(w, "out of memory");
	put32(p, offset);
	put32(p + 4, count);
	p[8] = (uint8_t)n;
	memcpy(p + REC_ARRAY_HEAD, name, n);
	put_doubles(p + REC_ARRAY_HEAD + n, v, count);
	rc = rec_writer_journal(w, step, REC_JOURNAL_ARRAY, p, len);
	free(p);
	return rc;
}

int
rec_array_parse(const struct rec_item *it, struct rec_array_write *out)
{
	const uint8_t *p = it->data;
	size_t n;

	if (it->tag != REC_TAG_JOURNAL || it->kind != REC_JOURNAL_ARRAY ||
	    it->len < REC_ARRAY_HEAD)
		return -1;
	n = p[8];
	out->offset = get32(p);
	out->count = get32(p + 4);
	if (n == 0 || n > REC_ARRAY_NAME_MAX ||
	    it->len != REC_ARRAY_HEAD + n + 8 * (size_t)out->count ||
	    memchr(p + REC_ARRAY_HEAD, '\0', n) != NULL)
		return -1;
	memcpy(out->name, p + REC_ARRAY_HEAD, n);
	out->name[n] = '\0';
	out->values = p + REC_ARRAY_HEAD + n;
	return 0;
}

void
rec_array_values(const struct rec_array_write *a, double *v)
{
	get_doubles(v, a->values, a->count);
}

int
rec_writer_hash(struct rec_writer *w, uint64_t step, uint64_t hash)
{
	uint8_t *p;

	if (w->failed)
		return -1;
	if (writer_room(w, REC_ITEM_HEAD + REC_HASH_LEN) != 0 ||
	    writer_reserve(w, REC_ITEM_HEAD + REC_HASH_LEN) != 0)
		return -1;
	p = w->buf + w->len;
	put32(p, REC_TAG_HASH);
	put32(p + 4, REC_HASH_LEN);
	put64(p + 8, step);
	put64(p + 16, hash);
	w->len += REC_ITEM_HEAD + REC_HASH_LEN;
	w->st.items++;
	if (w->len >= REC_FLUSH_AT)
		return rec_writer_flush(w);
	return 0;
}

/* The sizes of h into p: nq ... nbody, as the header orders them. */
static void
sizes_put(uint8_t *p, const struct rec_header *h)
{
	put32(p, h->nq);
	put32(p + 4, h->nv);
	put32(p + 8, h->na);
	put32(p + 12, h->nu);
	put32(p + 16, h->nmocap);
	put32(p + 20, h->nsensordata);
	put32(p + 24, h->nbody);
}

int
rec_writer_model(struct rec_writer *w, uint64_t step, double time,
    const struct rec_header *h, const char *operations, const char *removed,
    const void *mjb, size_t mjb_len)
{
	size_t o = strlen(operations), rm = strlen(removed), record_len, i;
	uint64_t n = REC_ITEM_HEAD + REC_MODEL_HEAD + (uint64_t)o + rm +
	    mjb_len;
	struct rec_header nh = w->h;
	uint8_t *p;
	uint64_t u;

	if (w->failed)
		return -1;
	if (n > REC_ITEM_MAX) {
		snprintf(w->err, sizeof(w->err),
		    "a model change of %llu bytes (limit %u)",
		    (unsigned long long)n, REC_ITEM_MAX);
		return -1;
	}
	nh.nq = h->nq;
	nh.nv = h->nv;
	nh.na = h->na;
	nh.nu = h->nu;
	nh.nmocap = h->nmocap;
	nh.nsensordata = h->nsensordata;
	nh.nbody = h->nbody;
	nh.timestep = h->timestep;
	nh.model_hash = h->model_hash;
	if (header_check(&nh, &record_len, w->err, sizeof(w->err)) != 0)
		return -1;
	if (writer_room(w, (size_t)n) != 0 || writer_reserve(w, (size_t)n) != 0)
		return -1;
	p = w->buf + w->len;
	put32(p, REC_TAG_MODEL);
	put32(p + 4, (uint32_t)(n - REC_ITEM_HEAD));
	put64(p + 8, step);
	memcpy(&u, &time, sizeof(u));
	put64(p + 16, u);
	sizes_put(p + 24, &nh);
	put32(p + 52, 0);
	memcpy(&u, &nh.timestep, sizeof(u));
	put64(p + 56, u);
	put64(p + 64, nh.model_hash);
	put32(p + 72, (uint32_t)o);
	put32(p + 76, (uint32_t)rm);
	put32(p + 80, (uint32_t)mjb_len);
	put32(p + 84, 0);
	p += REC_ITEM_HEAD + REC_MODEL_HEAD;
	memcpy(p, operations, o);
	memcpy(p + o, removed, rm);
	if (mjb_len != 0)
		memcpy(p + o + rm, mjb, mjb_len);
	w->len += (size_t)n;
	w->st.items++;
	/* The records from here on have the new model's sizes. */
	w->h = nh;
	w->record_len = record_len;
	for (i = 0; i < REC_NFIELD; i++) {
		if (w->h.fields & REC_FIELD_BIT(i))
			w->size[i] = rec_field_size(&w->h, (enum rec_field)i);
	}
	if (w->len >= REC_FLUSH_AT)
		return rec_writer_flush(w);
	return 0;
}

int
rec_writer_flush(struct rec_writer *w)
{
	size_t bound, n;

	if (w->failed)
		return -1;
	if (w->len == 0)
		return 0;
	bound = ZSTD_compressBound(w->len);
	if (bound > w->outcap) {
		free(w->out);
		if ((w->out = malloc(bound)) == NULL) {
			w->outcap = 0;
			return writer_fail(
			    w, "out of memory for %zu bytes", bound);
		}
		w->outcap = bound;
	}
	n = ZSTD_compress2(w->cc, w->out, w->outcap, w->buf, w->len);
	if (ZSTD_isError(n))
		return writer_fail(w, "zstd: %s", ZSTD_getErrorName(n));
	if (writer_write(w, w->out, n) != 0)
		return -1;
	w->st.frames++;
	w->st.bytes_raw += w->len;
	w->len = 0;
	/* A huge journal entry must not keep its memory for good. */
	if (w->cap > 4 * REC_FLUSH_AT) {
		free(w->buf);
		free(w->out);
		w->buf = w->out = NULL;
		w->cap = w->outcap = 0;
	}
	return 0;
}

void
rec_writer_limit(struct rec_writer *w, uint64_t bytes)
{
	w->limit = bytes;
}

int
rec_writer_full(const struct rec_writer *w)
{
	return w->full;
}

void
rec_writer_stats(const struct rec_writer *w, struct rec_writer_stats *st)
{
	*st = w->st;
	st->buffered = w->len;
}

const char *
rec_writer_error(const struct rec_writer *w)
{
	return w->err;
}

int
rec_writer_close(struct rec_writer *w, char *err, size_t len)
{
	int rc;

	rc = rec_writer_flush(w);
	if (w->path != NULL && close(w->fd) != 0 && rc == 0)
		rc = writer_fail(w, "closing %s: %s", w->path, strerror(errno));
	if (rc != 0)
		snprintf(err, len, "%s", w->err);
	ZSTD_freeCCtx(w->cc);
	free(w->buf);
	free(w->out);
	free(w->path);
	free(w);
	return rc;
}

static int
reader_fail(struct rec_reader *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->err, sizeof(r->err), fmt, ap);
	va_end(ap);
	r->failed = 1;
	return -1;
}

/*
 * Decompress the next whole frame, of at most max bytes, into r->frame.
 * 1 when there is one; 0 at the end of the file, truncated or not.
 */
static int
reader_frame(struct rec_reader *r, size_t max)
{
	uint64_t start = r->in_off + r->in_pos;
	ZSTD_outBuffer out;
	ZSTD_inBuffer in;
	size_t ret, cap;
	ssize_t n;
	uint8_t *p;

	r->frame_len = r->frame_pos = 0;
	for (;;) {
		if (r->in_pos == r->in_len) {
			r->in_off += r->in_len;
			r->in_pos = r->in_len = 0;
			do
				n = read(r->fd, r->in, r->in_cap);
			while (n < 0 && errno == EINTR);
			if (n < 0) {
				r->ioerr = 1;
				return reader_fail(r,
				    "reading at byte %llu: %s",
				    (unsigned long long)r->in_off,
				    strerror(errno));
			}
			if (n == 0 && r->frame_len == max)
				break;
			if (n == 0) {
				/* A writer killed mid-write: not an error. */
				r->ended = 1;
				if (r->in_off > start) {
					r->st.truncated = 1;
					r->st.dropped = r->in_off - start;
				}
				return 0;
			}
			r->in_len = (size_t)n;
		}
		if (r->frame_len == r->frame_cap && r->frame_cap < max) {
			cap = r->frame_cap != 0 ? r->frame_cap * 2 : 64 * 1024;
			if (cap > max)
				cap = max;
			if ((p = realloc(r->frame, cap)) == NULL) {
				return reader_fail(
				    r, "out of memory for %zu bytes", cap);
			}
			r->frame = p;
			r->frame_cap = cap;
		}
		in.src = r->in;
		in.size = r->in_len;
		in.pos = r->in_pos;
		out.dst = r->frame;
		out.size = r->frame_cap < max ? r->frame_cap : max;
		out.pos = r->frame_len;
		ret = ZSTD_decompressStream(r->ds, &out, &in);
		r->in_pos = in.pos;
		r->frame_len = out.pos;
		if (ZSTD_isError(ret)) {
			return reader_fail(r, "corrupt frame at byte %llu: %s",
			    (unsigned long long)start, ZSTD_getErrorName(ret));
		}
		if (ret == 0) {
			r->frame_off = start;
			r->st.frames++;
			r->st.offset = r->in_off + r->in_pos;
			return 1;
		}
		/* Stopped with input left: for want of room. */
		if (out.pos == max && in.pos < in.size)
			break;
	}
	return reader_fail(r,
	    "the frame at byte %llu holds more than %zu bytes",
	    (unsigned long long)start, max);
}

/*
 * Have at least need unread bytes in r->in, reading more (and making
 * room) as it takes: the unread bytes there, fewer only at the end of
 * the file or after a failure.
 */
static size_t
reader_fill(struct rec_reader *r, size_t need)
{
	size_t cap;
	ssize_t n;
	uint8_t *p;

	while (r->in_len - r->in_pos < need && !r->failed) {
		if (r->in_pos > 0) {
			memmove(
			    r->in, r->in + r->in_pos, r->in_len - r->in_pos);
			r->in_off += r->in_pos;
			r->in_len -= r->in_pos;
			r->in_pos = 0;
		}
		if (need > r->in_cap) {
			cap = r->in_cap;
			while (cap < need)
				cap *= 2;
			if ((p = realloc(r->in, cap)) == NULL) {
				reader_fail(
				    r, "out of memory for %zu bytes", cap);
				break;
			}
			r->in = p;
			r->in_cap = cap;
		}
		do
			n = read(
			    r->fd, r->in + r->in_len, r->in_cap - r->in_len);
		while (n < 0 && errno == EINTR);
		if (n < 0) {
			r->ioerr = 1;
			reader_fail(r, "reading at byte %llu: %s",
			    (unsigned long long)(r->in_off + r->in_len),
			    strerror(errno));
			break;
		}
		if (n == 0)
			break;
		r->in_len += (size_t)n;
	}
	return r->in_len - r->in_pos;
}

/* The description of a .mjl (mjl.h), the first bytes in r->in: 0 or -1. */
static int
reader_mjl_open(struct rec_reader *r, const char *path, char *err, size_t len)
{
	size_t name_len;
	char why[REC_ERR_LEN];

	if (reader_fill(r, MJL_HEAD) < MJL_HEAD) {
		snprintf(err, len,
		    "%s: not a haptixd recording (.hxr) nor a HAPTIX log "
		    "(.mjl): %s",
		    path, r->failed ? r->err : "too short");
		return -1;
	}
	if (mjl_description(
		r->in + r->in_pos, &r->h, &name_len, why, sizeof(why)) != 0) {
		snprintf(err, len,
		    "%s: not a haptixd recording (.hxr) nor a HAPTIX log "
		    "(.mjl): %s",
		    path, why);
		return -1;
	}
	r->in_pos += MJL_HEAD;
	if (reader_fill(r, name_len) < name_len) {
		snprintf(err, len, "%s: a HAPTIX log (.mjl) that ends in %s",
		    path, r->failed ? r->err : "its model name");
		return -1;
	}
	mjl_name(&r->h, r->in + r->in_pos, name_len);
	r->in_pos += name_len;
	r->cur = r->h;
	r->nvalues = mjl_record_len(&r->h) / 4 - 1;
	if ((r->values = malloc(8 * r->nvalues + 8)) == NULL) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < REC_NFIELD; i++)
		if (r->h.fields & REC_FIELD_BIT(i))
			r->size[i] = rec_field_size(&r->h, (enum rec_field)i);
	r->mjl = 1;
	r->st.offset = r->in_off + r->in_pos;
	return 0;
}

/* Fill it with the record's fields and segment, as for a .hxr. */
static void
reader_state(struct rec_reader *r, struct rec_item *it)
{
	double *v = r->values;
	size_t i;

	/* Time going back (a reset) or a new model begins a segment;
	 * NaN does not count as a time. */
	if (r->st.segments == 0 || it->time < r->last_time || r->new_model)
		r->st.segments++;
	r->new_model = 0;
	if (!isnan(it->time))
		r->last_time = it->time;
	it->segment = r->st.segments;
	for (i = 0; i < REC_NFIELD; i++) {
		if (r->h.fields & REC_FIELD_BIT(i)) {
			it->field[i] = v;
			v += r->size[i];
		}
	}
	it->model = &r->cur;
}

/* The next record of a .mjl: 1, 0 at the end (cut short or not), -1. */
static int
reader_mjl_next(struct rec_reader *r, struct rec_item *it)
{
	size_t n = mjl_record_len(&r->h), have;

	if ((have = reader_fill(r, n)) < n) {
		if (r->failed)
			return -1;
		/* A writer stopped inside a record: not an error. */
		if (have > 0) {
			r->st.truncated = 1;
			r->st.dropped = have;
			r->in_pos = r->in_len;
		}
		r->ended = 1;
		return 0;
	}
	memset(it, 0, sizeof(*it));
	it->tag = REC_TAG_STATE;
	it->offset = r->in_off + r->in_pos;
	it->step = r->st.items;
	mjl_record(&r->h, r->in + r->in_pos, &it->time, r->values);
	r->in_pos += n;
	r->st.offset = r->in_off + r->in_pos;
	r->st.items++;
	reader_state(r, it);
	return 1;
}

struct rec_reader *
rec_reader_open(const char *path, char *err, size_t len)
{
	struct rec_reader *r;
	size_t i;
	int rc;

	if ((r = calloc(1, sizeof(*r))) == NULL) {
		snprintf(err, len, "out of memory");
		return NULL;
	}
	r->last_time = -INFINITY;
	r->in_cap = ZSTD_DStreamInSize();
	if ((r->in = malloc(r->in_cap)) == NULL ||
	    (r->ds = ZSTD_createDStream()) == NULL ||
	    ZSTD_isError(ZSTD_DCtx_setParameter(
		r->ds, ZSTD_d_windowLogMax, REC_WINDOW_LOG_MAX))) {
		snprintf(err, len, "out of memory");
		r->fd = -1;
		rec_reader_close(r);
		return NULL;
	}
	if ((r->fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		snprintf(err, len, "%s: %s", path, strerror(errno));
		rec_reader_close(r);
		return NULL;
	}
	/* No zstd frame first: HAPTIX's .mjl, if it reads as one. */
	if (reader_fill(r, sizeof(zstd_magic)) >= sizeof(zstd_magic) &&
	    memcmp(r->in, zstd_magic, sizeof(zstd_magic)) != 0) {
		if (reader_mjl_open(r, path, err, len) == 0)
			return r;
		rec_reader_close(r);
		return NULL;
	}
	if (r->failed) {
		snprintf(err, len, "%s: %s", path, r->err);
		rec_reader_close(r);
		return NULL;
	}
	rc = reader_frame(r, REC_HEADER_MAX);
	if (rc == 0)
		reader_fail(r, "the file ends before its header");
	if (rc == 1 &&
	    header_get(&r->h, r->frame, r->frame_len, r->err, sizeof(r->err)) ==
		0 &&
	    header_check(&r->h, &r->nvalues, r->err, sizeof(r->err)) == 0) {
		r->nvalues = (r->nvalues - REC_ITEM_HEAD - REC_STATE_HEAD) / 8;
		r->cur = r->h;
		for (i = 0; i < REC_NFIELD; i++) {
			if (r->h.fields & REC_FIELD_BIT(i))
				r->size[i] = rec_field_size(
				    &r->h, (enum rec_field)i);
		}
		r->frame_len = r->frame_pos = 0;
		return r;
	}
	if (rc == -1 && !r->ioerr)
		snprintf(
		    err, len, "%s: not a haptixd recording (%s)", path, r->err);
	else
		snprintf(err, len, "%s: %s", path, r->err);
	rec_reader_close(r);
	return NULL;
}

const struct rec_header *
rec_reader_header(const struct rec_reader *r)
{
	return &r->h;
}

/*
 * A model change from its payload p of len bytes: checked as a header
 * is, then the sizes of the state records that follow.  -1 if malformed.
 */
static int
reader_model(
    struct rec_reader *r, struct rec_item *it, const uint8_t *p, uint32_t len)
{
	struct rec_header nh = r->cur;
	uint64_t o, rm, m, u;
	size_t record_len, i;
	char why[REC_ERR_LEN];

	if (len < REC_MODEL_HEAD)
		return -1;
	o = get32(p + 64);
	rm = get32(p + 68);
	m = get32(p + 72);
	if (REC_MODEL_HEAD + o + rm + m != len)
		return -1;
	nh.nq = get32(p + 16);
	nh.nv = get32(p + 20);
	nh.na = get32(p + 24);
	nh.nu = get32(p + 28);
	nh.nmocap = get32(p + 32);
	nh.nsensordata = get32(p + 36);
	nh.nbody = get32(p + 40);
	u = get64(p + 48);
	memcpy(&nh.timestep, &u, sizeof(u));
	nh.model_hash = get64(p + 56);
	if (header_check(&nh, &record_len, why, sizeof(why)) != 0)
		return -1;
	r->cur = nh;
	r->nvalues = (record_len - REC_ITEM_HEAD - REC_STATE_HEAD) / 8;
	for (i = 0; i < REC_NFIELD; i++) {
		if (r->h.fields & REC_FIELD_BIT(i))
			r->size[i] = rec_field_size(&nh, (enum rec_field)i);
	}
	/* Sized again at the next record. */
	free(r->values);
	r->values = NULL;
	r->new_model = 1;
	r->st.models++;
	it->step = get64(p);
	u = get64(p + 8);
	memcpy(&it->time, &u, sizeof(u));
	it->model = &r->cur;
	it->operations = (const char *)p + REC_MODEL_HEAD;
	it->operations_len = (size_t)o;
	it->removed = it->operations + o;
	it->removed_len = (size_t)rm;
	it->data = it->removed + rm;
	it->len = (size_t)m;
	return 0;
}

/* One item of a known tag from its payload p of len bytes. */
static int
reader_item(struct rec_reader *r, struct rec_item *it, const uint8_t *p,
    uint32_t tag, uint32_t len)
{
	uint64_t u;

	memset(it, 0, sizeof(*it));
	it->tag = tag;
	it->offset = r->frame_off;
	switch (tag) {
	case REC_TAG_STATE:
		if (len != REC_STATE_HEAD + 8 * r->nvalues)
			break;
		/* Sized by the checked header, once there is a record. */
		if (r->values == NULL &&
		    (r->values = malloc(8 * r->nvalues + 8)) == NULL) {
			return reader_fail(
			    r, "out of memory for %zu values", r->nvalues);
		}
		it->step = get64(p);
		u = get64(p + 8);
		memcpy(&it->time, &u, sizeof(u));
		get_doubles(r->values, p + REC_STATE_HEAD, r->nvalues);
		reader_state(r, it);
		return 1;
	case REC_TAG_MODEL:
		if (reader_model(r, it, p, len) != 0)
			break;
		return 1;
	case REC_TAG_JOURNAL:
		if (len < REC_JOURNAL_HEAD ||
		    get32(p + 12) != len - REC_JOURNAL_HEAD)
			break;
		it->step = get64(p);
		it->kind = get32(p + 8);
		it->data = p + REC_JOURNAL_HEAD;
		it->len = len - REC_JOURNAL_HEAD;
		return 1;
	case REC_TAG_HASH:
		if (len != REC_HASH_LEN)
			break;
		it->step = get64(p);
		it->hash = get64(p + 8);
		return 1;
	}
	return reader_fail(r,
	    "an item of tag %u and %u bytes at byte %zu of the frame at byte "
	    "%llu",
	    tag, len, r->frame_pos - REC_ITEM_HEAD - len,
	    (unsigned long long)r->frame_off);
}

int
rec_reader_next(struct rec_reader *r, struct rec_item *it)
{
	uint32_t tag, len;
	size_t left;
	int rc;

	if (r->failed)
		return -1;
	if (r->mjl)
		return reader_mjl_next(r, it);
	for (;;) {
		if (r->frame_pos == r->frame_len) {
			if (r->ended)
				return 0;
			if ((rc = reader_frame(r, REC_FRAME_MAX)) != 1)
				return rc;
			continue;
		}
		left = r->frame_len - r->frame_pos;
		if (left < REC_ITEM_HEAD) {
			return reader_fail(r,
			    "the frame at byte %llu ends inside an item",
			    (unsigned long long)r->frame_off);
		}
		tag = get32(r->frame + r->frame_pos);
		len = get32(r->frame + r->frame_pos + 4);
		if (len > left - REC_ITEM_HEAD) {
			return reader_fail(r,
			    "an item of %u bytes at byte %zu of the frame at "
			    "byte %llu overruns it",
			    len, r->frame_pos,
			    (unsigned long long)r->frame_off);
		}
		r->frame_pos += REC_ITEM_HEAD + len;
		if (tag != REC_TAG_STATE && tag != REC_TAG_JOURNAL &&
		    tag != REC_TAG_HASH && tag != REC_TAG_MODEL) {
			r->st.skipped++;
			continue;
		}
		rc = reader_item(
		    r, it, r->frame + r->frame_pos - len, tag, len);
		if (rc == 1)
			r->st.items++;
		return rc;
	}
}

void
rec_reader_stats(const struct rec_reader *r, struct rec_reader_stats *st)
{
	*st = r->st;
}

const char *
rec_reader_error(const struct rec_reader *r)
{
	return r->err;
}

void
rec_reader_close(struct rec_reader *r)
{
	if (r == NULL)
		return;
	if (r->fd >= 0)
		close(r->fd);
	ZSTD_freeDStream(r->ds);
	free(r->in);
	free(r->frame);
	free(r->values);
	free(r);
}
