/*
 * An MCAP writer (https://mcap.dev/spec): a container of timestamped
 * messages on channels, each channel's messages described by a schema.
 * It knows nothing of what the messages hold.
 *
 * The file it writes: the magic, a Header, then the data section:
 * Schema and Channel records as they are added, Metadata records, and
 * the messages in zstd-compressed Chunks, each followed by one Message
 * Index record per channel it holds; a Data End with the data section's
 * CRC-32; the Summary section (the Schemas, Channels, Statistics,
 * Chunk Indexes and Metadata Indexes again, each kind a group), a
 * Summary Offset per group, the Footer with the summary's CRC-32, and
 * the magic again.  Readers seek through it by the summary, or stream
 * it from the start.
 */
#ifndef HX_MCAP_H
#define HX_MCAP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define MCAP_CHANNELS_MAX 64       /* channels and schemas, each */
#define MCAP_CHUNK_SIZE (1u << 20) /* uncompressed bytes that end a chunk */

struct mcap_writer;

/*
 * Start a file on fp (which stays the caller's) with the magic and a
 * Header naming profile ("" for none) and library.  NULL if out of
 * memory.  Calls below return -1 once a write failed (ferror(fp)) or a
 * limit was passed, with mcap_error saying why.
 */
struct mcap_writer *mcap_open(
    FILE *fp, const char *profile, const char *library);

/* A schema: its id (from 1), or -1.  encoding: "jsonschema", ... */
int mcap_schema(struct mcap_writer *w, const char *name, const char *encoding,
    const void *data, size_t len);

/* A channel of messages of schema (0: none): its id (from 0), or -1. */
int mcap_channel(struct mcap_writer *w, int schema, const char *topic,
    const char *message_encoding);

/* A Metadata record of n key-value pairs: 0 or -1. */
int mcap_metadata(struct mcap_writer *w, const char *name,
    const char *const *keys, const char *const *values, size_t n);

/* A message on channel, at log_time and publish_time (ns): 0 or -1. */
int mcap_message(struct mcap_writer *w, int channel, uint64_t log_time,
    uint64_t publish_time, const void *data, size_t len);

/* The messages written so far on channel. */
uint64_t mcap_count(const struct mcap_writer *w, int channel);

/*
 * The last chunk, the summary, the footer and the magic: 0, or -1 if
 * anything ever failed.  fp is flushed, not closed.
 */
int mcap_finish(struct mcap_writer *w);

const char *mcap_error(const struct mcap_writer *w);

/* Free w (NULL is fine): an unfinished file is the caller's to remove. */
void mcap_free(struct mcap_writer *w);

/* CRC-32 (ISO-HDLC, zlib's) of len bytes, continuing from crc (0: start). */
uint32_t mcap_crc32(uint32_t crc, const void *buf, size_t len);

#endif
