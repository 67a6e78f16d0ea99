/*
 * An MCAP writer, as the specification (https://mcap.dev/spec) lays the
 * records out: little-endian integers, strings and byte arrays after a
 * u32 length, each record an opcode, a u64 length and its content.
 *
 * The messages of a chunk wait in memory, uncompressed, with each
 * channel's (log time, offset) pairs for its Message Index; the records
 * of the summary wait too, whole, so that each group is written as one
 * run of bytes.  The rest goes to the file at once.
 */
#include "config.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "mcap.h"

#define MCAP_ZSTD_LEVEL 3 /* zstd's default: level 1 is barely smaller here */

/* Opcodes. */
#define OP_HEADER 0x01
#define OP_FOOTER 0x02
#define OP_SCHEMA 0x03
#define OP_CHANNEL 0x04
#define OP_MESSAGE 0x05
#define OP_CHUNK 0x06
#define OP_MESSAGE_INDEX 0x07
#define OP_CHUNK_INDEX 0x08
#define OP_STATISTICS 0x0b
#define OP_METADATA 0x0c
#define OP_METADATA_INDEX 0x0d
#define OP_SUMMARY_OFFSET 0x0e
#define OP_DATA_END 0x0f

static const unsigned char mcap_magic[8] = { 0x89, 'M', 'C', 'A', 'P', '0',
	'\r', '\n' };

struct mcap_buf {
	unsigned char *p;
	size_t len, cap;
};

/* One channel's messages in the open chunk: log time and offset pairs. */
struct mcap_index {
	uint64_t *pairs;
	size_t n, cap; /* pairs */
};

struct mcap_writer {
	FILE *fp;
	uint64_t pos; /* bytes written */
	uint32_t crc; /* of the section being written: data, then summary */
	int failed;
	char err[256];

	int nschema, nchannel;
	uint64_t count[MCAP_CHANNELS_MAX]; /* messages of each channel */
	uint64_t messages, first, last;    /* and of all, and their times */
	uint32_t chunks, nmetadata;

	/* The open chunk. */
	struct mcap_buf chunk;
	struct mcap_index index[MCAP_CHANNELS_MAX];
	uint64_t chunk_first, chunk_last;

	/* The summary's groups, whole records. */
	struct mcap_buf schemas, channels, chunk_indexes, metadata_indexes;

	struct mcap_buf rec; /* a record being built */
	struct mcap_buf z;   /* a chunk compressed */
};

static uint32_t crc_table[256];

static void
crc_init(void)
{
	uint32_t c;
	int i, k;

	for (i = 0; i < 256; i++) {
		c = (uint32_t)i;
		for (k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
		crc_table[i] = c;
	}
}

uint32_t
mcap_crc32(uint32_t crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	if (crc_table[1] == 0)
		crc_init();
	crc = ~crc;
	while (len-- > 0)
		crc = crc_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

static int
mcap_fail(struct mcap_writer *w, const char *fmt, ...)
{
	va_list ap;

	if (!w->failed) {
		va_start(ap, fmt);
		vsnprintf(w->err, sizeof(w->err), fmt, ap);
		va_end(ap);
	}
	w->failed = 1;
	return -1;
}

/* Room for n more bytes in b: 0, or -1 out of memory. */
static int
buf_room(struct mcap_buf *b, size_t n)
{
	size_t cap;
	void *p;

	if (b->cap - b->len >= n)
		return 0;
	cap = b->cap == 0 ? 4096 : b->cap;
	while (cap - b->len < n)
		cap *= 2;
	if ((p = realloc(b->p, cap)) == NULL)
		return -1;
	b->p = p;
	b->cap = cap;
	return 0;
}

/* Append n bytes to b; running out of memory fails the file. */
static void
put(struct mcap_writer *w, struct mcap_buf *b, const void *p, size_t n)
{
	if (w->failed || buf_room(b, n) != 0) {
		mcap_fail(w, "out of memory");
		return;
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

/* Little-endian integers of n bytes. */
static void
put_le(struct mcap_writer *w, struct mcap_buf *b, uint64_t v, int n)
{
	unsigned char le[8];
	int i;

	for (i = 0; i < n; i++)
		le[i] = (unsigned char)(v >> (8 * i));
	put(w, b, le, (size_t)n);
}

/* A string or byte array: its u32 length, then its bytes. */
static void
put_str(struct mcap_writer *w, struct mcap_buf *b, const void *s, size_t n)
{
	put_le(w, b, n, 4);
	put(w, b, s, n);
}

/* w->rec as the content of a record of op, appended to b. */
static void
put_record(struct mcap_writer *w, struct mcap_buf *b, int op)
{
	put_le(w, b, (uint64_t)op, 1);
	put_le(w, b, w->rec.len, 8);
	put(w, b, w->rec.p, w->rec.len);
}

static void
out(struct mcap_writer *w, const void *p, size_t n)
{
	if (w->failed)
		return;
	if (n > 0 && fwrite(p, 1, n, w->fp) != n) {
		mcap_fail(w, "write failed");
		return;
	}
	w->pos += n;
	w->crc = mcap_crc32(w->crc, p, n);
}

/* w->rec as a record of op, to the file. */
static void
out_record(struct mcap_writer *w, int op)
{
	unsigned char head[9];
	int i;

	head[0] = (unsigned char)op;
	for (i = 0; i < 8; i++)
		head[1 + i] = (unsigned char)((uint64_t)w->rec.len >> (8 * i));
	out(w, head, sizeof(head));
	out(w, w->rec.p, w->rec.len);
}

struct mcap_writer *
mcap_open(FILE *fp, const char *profile, const char *library)
{
	struct mcap_writer *w;

	if ((w = calloc(1, sizeof(*w))) == NULL)
		return NULL;
	w->fp = fp;
	out(w, mcap_magic, sizeof(mcap_magic));
	put_str(w, &w->rec, profile, strlen(profile));
	put_str(w, &w->rec, library, strlen(library));
	out_record(w, OP_HEADER);
	return w;
}

int
mcap_schema(struct mcap_writer *w, const char *name, const char *encoding,
    const void *data, size_t len)
{
	if (w->nschema + 1 >= MCAP_CHANNELS_MAX)
		return mcap_fail(w, "more than %d schemas", MCAP_CHANNELS_MAX);
	w->rec.len = 0;
	put_le(w, &w->rec, (uint64_t)w->nschema + 1, 2);
	put_str(w, &w->rec, name, strlen(name));
	put_str(w, &w->rec, encoding, strlen(encoding));
	put_str(w, &w->rec, data, len);
	out_record(w, OP_SCHEMA);
	put_record(w, &w->schemas, OP_SCHEMA);
	return w->failed ? -1 : ++w->nschema;
}

int
mcap_channel(struct mcap_writer *w, int schema, const char *topic,
    const char *message_encoding)
{
	if (w->nchannel >= MCAP_CHANNELS_MAX)
		return mcap_fail(w, "more than %d channels", MCAP_CHANNELS_MAX);
	if (schema < 0 || schema > w->nschema)
		return mcap_fail(w, "no schema %d", schema);
	w->rec.len = 0;
	put_le(w, &w->rec, (uint64_t)w->nchannel, 2);
	put_le(w, &w->rec, (uint64_t)schema, 2);
	put_str(w, &w->rec, topic, strlen(topic));
	put_str(w, &w->rec, message_encoding, strlen(message_encoding));
	put_le(w, &w->rec, 0, 4); /* no metadata */
	out_record(w, OP_CHANNEL);
	put_record(w, &w->channels, OP_CHANNEL);
	return w->failed ? -1 : w->nchannel++;
}

int
mcap_metadata(struct mcap_writer *w, const char *name, const char *const *keys,
    const char *const *values, size_t n)
{
	uint64_t start = w->pos, size = 0;
	size_t i;

	for (i = 0; i < n; i++)
		size += 8 + strlen(keys[i]) + strlen(values[i]);
	w->rec.len = 0;
	put_str(w, &w->rec, name, strlen(name));
	put_le(w, &w->rec, size, 4);
	for (i = 0; i < n; i++) {
		put_str(w, &w->rec, keys[i], strlen(keys[i]));
		put_str(w, &w->rec, values[i], strlen(values[i]));
	}
	out_record(w, OP_METADATA);
	w->rec.len = 0;
	put_le(w, &w->rec, start, 8);
	put_le(w, &w->rec, w->pos - start, 8);
	put_str(w, &w->rec, name, strlen(name));
	put_record(w, &w->metadata_indexes, OP_METADATA_INDEX);
	w->nmetadata++;
	return w->failed ? -1 : 0;
}

/* The Message Index records of the chunk just written, into the index. */
static void
chunk_message_indexes(struct mcap_writer *w, struct mcap_buf *offsets)
{
	struct mcap_index *x;
	size_t i;
	int c;

	for (c = 0; c < w->nchannel; c++) {
		x = &w->index[c];
		if (x->n == 0)
			continue;
		put_le(w, offsets, (uint64_t)c, 2);
		put_le(w, offsets, w->pos, 8);
		w->rec.len = 0;
		put_le(w, &w->rec, (uint64_t)c, 2);
		put_le(w, &w->rec, 16 * (uint64_t)x->n, 4);
		for (i = 0; i < 2 * x->n; i++)
			put_le(w, &w->rec, x->pairs[i], 8);
		out_record(w, OP_MESSAGE_INDEX);
		x->n = 0;
	}
}

/* Compress and write the open chunk, its indexes after it. */
static int
chunk_flush(struct mcap_writer *w)
{
	struct mcap_buf offsets = { NULL, 0, 0 };
	uint64_t start = w->pos, indexes;
	size_t bound, z;

	if (w->chunk.len == 0 || w->failed)
		return w->failed ? -1 : 0;
	bound = ZSTD_compressBound(w->chunk.len);
	w->z.len = 0;
	if (buf_room(&w->z, bound) != 0)
		return mcap_fail(w, "out of memory");
	z = ZSTD_compress(
	    w->z.p, bound, w->chunk.p, w->chunk.len, MCAP_ZSTD_LEVEL);
	if (ZSTD_isError(z))
		return mcap_fail(w, "zstd: %s", ZSTD_getErrorName(z));
	w->rec.len = 0;
	put_le(w, &w->rec, w->chunk_first, 8);
	put_le(w, &w->rec, w->chunk_last, 8);
	put_le(w, &w->rec, w->chunk.len, 8);
	put_le(w, &w->rec, mcap_crc32(0, w->chunk.p, w->chunk.len), 4);
	put_str(w, &w->rec, "zstd", 4);
	put_le(w, &w->rec, z, 8);
	put(w, &w->rec, w->z.p, z);
	out_record(w, OP_CHUNK);
	indexes = w->pos;
	chunk_message_indexes(w, &offsets);

	w->rec.len = 0;
	put_le(w, &w->rec, w->chunk_first, 8);
	put_le(w, &w->rec, w->chunk_last, 8);
	put_le(w, &w->rec, start, 8);
	put_le(w, &w->rec, indexes - start, 8);
	put_le(w, &w->rec, offsets.len, 4);
	put(w, &w->rec, offsets.p, offsets.len);
	put_le(w, &w->rec, w->pos - indexes, 8);
	put_str(w, &w->rec, "zstd", 4);
	put_le(w, &w->rec, z, 8);
	put_le(w, &w->rec, w->chunk.len, 8);
	put_record(w, &w->chunk_indexes, OP_CHUNK_INDEX);
	free(offsets.p);
	w->chunk.len = 0;
	w->chunks++;
	return w->failed ? -1 : 0;
}

/* Note the message about to go at the chunk's end in its channel's index. */
static int
chunk_index_add(struct mcap_writer *w, int channel, uint64_t log_time)
{
	struct mcap_index *x = &w->index[channel];
	uint64_t *p;
	size_t cap;

	if (x->n == x->cap) {
		cap = x->cap == 0 ? 256 : 2 * x->cap;
		if ((p = realloc(x->pairs, 2 * cap * sizeof(*p))) == NULL)
			return mcap_fail(w, "out of memory");
		x->pairs = p;
		x->cap = cap;
	}
	x->pairs[2 * x->n] = log_time;
	x->pairs[2 * x->n + 1] = w->chunk.len;
	x->n++;
	return 0;
}

int
mcap_message(struct mcap_writer *w, int channel, uint64_t log_time,
    uint64_t publish_time, const void *data, size_t len)
{
	if (channel < 0 || channel >= w->nchannel)
		return mcap_fail(w, "no channel %d", channel);
	if (w->failed || chunk_index_add(w, channel, log_time) != 0)
		return -1;
	if (w->chunk.len == 0)
		w->chunk_first = w->chunk_last = log_time;
	if (log_time < w->chunk_first)
		w->chunk_first = log_time;
	if (log_time > w->chunk_last)
		w->chunk_last = log_time;
	if (w->messages == 0)
		w->first = w->last = log_time;
	if (log_time < w->first)
		w->first = log_time;
	if (log_time > w->last)
		w->last = log_time;
	put_le(w, &w->chunk, OP_MESSAGE, 1);
	put_le(w, &w->chunk, 22 + (uint64_t)len, 8);
	put_le(w, &w->chunk, (uint64_t)channel, 2);
	/* The sequence: a u32 that may wrap, as the specification allows. */
	put_le(w, &w->chunk, (uint32_t)w->count[channel], 4);
	put_le(w, &w->chunk, log_time, 8);
	put_le(w, &w->chunk, publish_time, 8);
	put(w, &w->chunk, data, len);
	w->count[channel]++;
	w->messages++;
	if (w->chunk.len >= MCAP_CHUNK_SIZE)
		chunk_flush(w);
	return w->failed ? -1 : 0;
}

uint64_t
mcap_count(const struct mcap_writer *w, int channel)
{
	return channel >= 0 && channel < w->nchannel ? w->count[channel] : 0;
}

static void
statistics(struct mcap_writer *w)
{
	int c;

	w->rec.len = 0;
	put_le(w, &w->rec, w->messages, 8);
	put_le(w, &w->rec, (uint64_t)w->nschema, 2);
	put_le(w, &w->rec, (uint64_t)w->nchannel, 4);
	put_le(w, &w->rec, 0, 4); /* attachments */
	put_le(w, &w->rec, w->nmetadata, 4);
	put_le(w, &w->rec, w->chunks, 4);
	put_le(w, &w->rec, w->first, 8);
	put_le(w, &w->rec, w->last, 8);
	put_le(w, &w->rec, 10 * (uint64_t)w->nchannel, 4);
	for (c = 0; c < w->nchannel; c++) {
		put_le(w, &w->rec, (uint64_t)c, 2);
		put_le(w, &w->rec, w->count[c], 8);
	}
	out_record(w, OP_STATISTICS);
}

/* One group of the summary, and its Summary Offset into offsets. */
static void
summary_group(struct mcap_writer *w, int op, const struct mcap_buf *group,
    struct mcap_buf *offsets)
{
	uint64_t start = w->pos;

	if (op == OP_STATISTICS)
		statistics(w);
	else
		out(w, group->p, group->len);
	if (w->pos == start)
		return;
	put_le(w, offsets, OP_SUMMARY_OFFSET, 1);
	put_le(w, offsets, 17, 8);
	put_le(w, offsets, (uint64_t)op, 1);
	put_le(w, offsets, start, 8);
	put_le(w, offsets, w->pos - start, 8);
}

/* The Footer: its CRC covers the summary and the footer to its CRC. */
static void
footer(struct mcap_writer *w, uint64_t summary, uint64_t summary_offsets)
{
	w->rec.len = 0;
	put_le(w, &w->rec, OP_FOOTER, 1);
	put_le(w, &w->rec, 20, 8);
	put_le(w, &w->rec, summary, 8);
	put_le(w, &w->rec, summary_offsets, 8);
	out(w, w->rec.p, w->rec.len);
	w->rec.len = 0;
	put_le(w, &w->rec, w->crc, 4);
	out(w, w->rec.p, w->rec.len);
}

int
mcap_finish(struct mcap_writer *w)
{
	struct mcap_buf offsets = { NULL, 0, 0 };
	uint64_t summary, summary_offsets;

	chunk_flush(w);
	w->rec.len = 0;
	put_le(w, &w->rec, w->crc, 4);
	out_record(w, OP_DATA_END);

	/* The summary's CRC runs from here to the footer's offsets. */
	summary = w->pos;
	w->crc = 0;
	summary_group(w, OP_SCHEMA, &w->schemas, &offsets);
	summary_group(w, OP_CHANNEL, &w->channels, &offsets);
	summary_group(w, OP_STATISTICS, NULL, &offsets);
	summary_group(w, OP_CHUNK_INDEX, &w->chunk_indexes, &offsets);
	summary_group(w, OP_METADATA_INDEX, &w->metadata_indexes, &offsets);
	summary_offsets = w->pos;
	out(w, offsets.p, offsets.len);
	free(offsets.p);

	footer(w, summary, summary_offsets);
	out(w, mcap_magic, sizeof(mcap_magic));
	if (!w->failed && fflush(w->fp) != 0)
		mcap_fail(w, "write failed");
	return w->failed ? -1 : 0;
}

const char *
mcap_error(const struct mcap_writer *w)
{
	return w->failed ? w->err : "no error";
}

void
mcap_free(struct mcap_writer *w)
{
	int c;

	if (w == NULL)
		return;
	for (c = 0; c < MCAP_CHANNELS_MAX; c++)
		free(w->index[c].pairs);
	free(w->chunk.p);
	free(w->schemas.p);
	free(w->channels.p);
	free(w->chunk_indexes.p);
	free(w->metadata_indexes.p);
	free(w->rec.p);
	free(w->z.p);
	free(w);
}
