/*
 * The recording file (.hxr), written by haptixd and read by clients.
 *
 * A file is a sequence of independent zstd frames: the first holds the
 * header alone, each of the others whole items (state records, journal
 * entries, state hashes).  A file cut short therefore reads cleanly up to
 * its last whole frame.  docs/recording.md gives the layout byte by byte.
 * This file knows nothing of MuJoCo, of haptix.h or of the protocol's
 * messages: a journal entry is bytes of a kind, of which it reads and
 * writes one, the array write (below).
 */
#ifndef HX_RECORDING_H
#define HX_RECORDING_H

#include <stddef.h>
#include <stdint.h>

#define REC_VERSION 1

/* The fields a state record may hold, in their order in the record. */
enum rec_field {
	REC_QPOS,         /* nq */
	REC_QVEL,         /* nv */
	REC_ACT,          /* na */
	REC_CTRL,         /* nu */
	REC_MOCAP_POS,    /* 3 * nmocap */
	REC_MOCAP_QUAT,   /* 4 * nmocap */
	REC_SENSORDATA,   /* nsensordata */
	REC_QFRC_APPLIED, /* nv */
	REC_XFRC_APPLIED, /* 6 * nbody */
	REC_NFIELD
};
#define REC_FIELD_BIT(f) (1u << (f))
#define REC_FIELDS_ALL ((1u << REC_NFIELD) - 1)
/* What HAPTIX's .mjl held; the time is in every record. */
#define REC_FIELDS_HAPTIX \
	(REC_FIELD_BIT(REC_QPOS) | REC_FIELD_BIT(REC_QVEL) | \
	    REC_FIELD_BIT(REC_CTRL) | REC_FIELD_BIT(REC_MOCAP_POS) | \
	    REC_FIELD_BIT(REC_MOCAP_QUAT) | REC_FIELD_BIT(REC_SENSORDATA))

/* Item tags.  A reader passes over the items of a tag it does not know. */
#define REC_TAG_STATE 1
#define REC_TAG_JOURNAL 2
#define REC_TAG_HASH 3
#define REC_TAG_MODEL 4 /* the model changed: an edit (docs/recording.md) */

/* Limits: a writer stays within them, a reader checks them first. */
#define REC_NAME_MAX 255         /* bytes of the model name */
#define REC_HEADER_MAX 4096      /* bytes of the header */
#define REC_SIZE_MAX (1u << 24)  /* each of nq ... nbody */
#define REC_ITEM_MAX (64u << 20) /* one item, its tag and length included */
#define REC_FLUSH_AT (1u << 20)  /* buffered bytes that end a frame at once */
/* One frame, decompressed: a writer ends it past REC_FLUSH_AT bytes. */
#define REC_FRAME_MAX (REC_ITEM_MAX + REC_FLUSH_AT)

#define REC_LEVEL_DEFAULT 1 /* zstd level: see docs/recording.md */

/* FNV-1a 64's offset basis: the seed of a hash that continues no other. */
#define REC_HASH_SEED 0xcbf29ce484222325ull

/* What a reader read: a haptixd recording, or HAPTIX's own log (mjl.h). */
#define REC_FORMAT_HXR 0
#define REC_FORMAT_MJL 1

struct rec_header {
	uint32_t format;  /* REC_FORMAT_*: the reader's; a writer writes .hxr */
	uint32_t version; /* the reader's; the writer writes REC_VERSION */
	uint32_t fields;  /* REC_FIELD_BIT()s */
	uint32_t every;   /* steps from one record to the next, 1 or more */
	uint32_t nq, nv, na, nu, nmocap, nsensordata, nbody;
	double timestep;
	uint64_t model_hash; /* rec_hash64 of what the caller chose */
	int64_t created;     /* ns since the epoch; 0: the writer's clock */
	char name[REC_NAME_MAX + 1];
};

/* FNV-1a 64 of len bytes, continuing from seed (REC_HASH_SEED to start). */
uint64_t rec_hash64(const void *buf, size_t len, uint64_t seed);

/* A field's name ("qpos", ...) and its number of doubles in a record. */
const char *rec_field_name(enum rec_field f);
size_t rec_field_size(const struct rec_header *h, enum rec_field f);

/*
 * Writing.  Items are kept in memory until rec_writer_flush (or
 * REC_FLUSH_AT bytes) ends a frame and writes it whole.  After a failure
 * to write, every call fails: the file keeps the frames written before.
 * Calls return 0, or -1 with rec_writer_error saying why.
 */
struct rec_writer;

struct rec_writer_stats {
	uint64_t records;       /* state records */
	uint64_t items;         /* items of every kind */
	uint64_t frames;        /* frames written, the header's included */
	uint64_t bytes_written; /* compressed: the file's size */
	uint64_t bytes_raw;     /* the same frames before compression */
	size_t buffered;        /* item bytes waiting for the next flush */
};

/*
 * Create path (never over an existing file) and write the header, or
 * write to fd, which stays the caller's.  level 0 is REC_LEVEL_DEFAULT;
 * 1 to 9 are allowed.  NULL with err saying why.
 */
struct rec_writer *rec_writer_open(const char *path, const struct rec_header *h,
    int level, char *err, size_t len);
struct rec_writer *rec_writer_fdopen(
    int fd, const struct rec_header *h, int level, char *err, size_t len);

/* Whether a state record is due at this step: step % every == 0. */
int rec_writer_due(const struct rec_writer *w, uint64_t step);

/*
 * A state record: field[f] points to rec_field_size doubles for each
 * field of the header's set (others are not read and may be NULL).
 */
int rec_writer_state(struct rec_writer *w, uint64_t step, double time,
    const double *const field[REC_NFIELD]);

/* A journal entry: kind and data are the caller's. */
int rec_writer_journal(struct rec_writer *w, uint64_t step, uint32_t kind,
    const void *data, size_t len);

/*
 * Journal entry kinds.  An array write holds values written into an
 * array of mjModel or mjData, named as the protocol names them
 * ("data.qpos", "model.geom_rgba"), from an element offset: the journal
 * of a run is the array writes that took effect before each step.  The
 * model entry holds the model as MuJoCo's MJB, once, before the first.
 */
#define REC_JOURNAL_ARRAY 1
#define REC_JOURNAL_MODEL 2
#define REC_ARRAY_NAME_MAX 63

struct rec_item;

struct rec_array_write {
	char name[REC_ARRAY_NAME_MAX + 1];
	uint32_t offset, count;
	const unsigned char *values; /* count doubles, unaligned: see below */
};

/* Journal an array write of count values v into name from offset. */
int rec_writer_array(struct rec_writer *w, uint64_t step, const char *name,
    uint32_t offset, uint32_t count, const double *v);

/* Read an array write from a REC_JOURNAL_ARRAY item: 0, or -1 if malformed. */
int rec_array_parse(const struct rec_item *it, struct rec_array_write *out);

/* Copy an array write's values into v (count doubles). */
void rec_array_values(const struct rec_array_write *a, double *v);

/* A hash of the state at step. */
int rec_writer_hash(struct rec_writer *w, uint64_t step, uint64_t hash);

/*
 * The model changed at step, the simulation time being time (an edit):
 * h gives its sizes, timestep and model hash (the rest is the file's),
 * operations the transaction as text, removed what it took away (""
 * if nothing), mjb the model as MuJoCo's MJB.  The state records after
 * it have h's sizes.
 */
int rec_writer_model(struct rec_writer *w, uint64_t step, double time,
    const struct rec_header *h, const char *operations, const char *removed,
    const void *mjb, size_t mjb_len);

/*
 * Keep the file within bytes (0: no limit; the header is already
 * written).  An item that a frame could not hold within it, however
 * little the frame compressed, is not added: the items before it are
 * written, and the call fails with rec_writer_full() true.  The file
 * then ends whole, within the limit.
 */
void rec_writer_limit(struct rec_writer *w, uint64_t bytes);

/* 1 if the writer stopped because the file reached its limit. */
int rec_writer_full(const struct rec_writer *w);

/* End the frame and write it; nothing happens when nothing is buffered. */
int rec_writer_flush(struct rec_writer *w);

void rec_writer_stats(const struct rec_writer *w, struct rec_writer_stats *st);
const char *rec_writer_error(const struct rec_writer *w);

/* Flush, close what open opened, free; -1 if anything ever failed. */
int rec_writer_close(struct rec_writer *w, char *err, size_t len);

/*
 * Reading.  Items come one by one, a frame's only once the whole frame
 * has arrived and its checksum matches.  A file that ends inside a frame
 * ends there, with stats saying so: it is not an error.
 *
 * The state records fall into segments: a record whose time is below the
 * one before it (a reset, or the time set back) begins the next segment,
 * so that each segment's times go forward.  Steps keep counting across.
 *
 * A model change (an edit) gives the sizes of the state records after
 * it: each state record points to the header that sizes it.
 */
struct rec_reader;

struct rec_item {
	uint32_t tag;    /* REC_TAG_* */
	uint64_t step;   /* the step index */
	uint64_t offset; /* where its frame starts in the file */

	/* REC_TAG_STATE (and REC_TAG_MODEL: the time of the change). */
	double time;
	/* REC_TAG_STATE: NULL for the fields not recorded. */
	const double *field[REC_NFIELD];
	uint64_t segment; /* from 1; 0 for the other tags (see below) */

	/* REC_TAG_JOURNAL */
	uint32_t kind;
	const void *data;
	size_t len;

	/* REC_TAG_HASH */
	uint64_t hash;

	/*
	 * REC_TAG_STATE: the sizes of its fields, the file's header or the
	 * last model change's.  REC_TAG_MODEL: the model from there on (its
	 * sizes, timestep and model_hash; the rest is the file's), what
	 * was done as text (operations, removed: not NUL-terminated) and
	 * the model as MJB (data, len).
	 */
	const struct rec_header *model;
	const char *operations, *removed;
	size_t operations_len, removed_len;
};

struct rec_reader_stats {
	uint64_t frames;   /* whole frames, the header's included */
	uint64_t items;    /* items returned */
	uint64_t skipped;  /* items of unknown tags passed over */
	uint64_t offset;   /* bytes of the file read as whole frames */
	int truncated;     /* the file ends inside a frame */
	uint64_t dropped;  /* the bytes of that frame in the file */
	uint64_t segments; /* segments begun by the state records read */
	uint64_t models;   /* model changes read */
};

/*
 * Open path and read its header; NULL with err saying why.  A file that
 * is not a .hxr is read as HAPTIX's .mjl (mjl.h) if it is one: its
 * header says REC_FORMAT_MJL, and its records come as state items with
 * HAPTIX's fields, step counting records from 0.
 */
struct rec_reader *rec_reader_open(const char *path, char *err, size_t len);
const struct rec_header *rec_reader_header(const struct rec_reader *r);

/*
 * The next item: 1, 0 at the end of the file, -1 with rec_reader_error
 * naming the byte offset.  What it points to lasts until the next call.
 */
int rec_reader_next(struct rec_reader *r, struct rec_item *it);

void rec_reader_stats(const struct rec_reader *r, struct rec_reader_stats *st);
const char *rec_reader_error(const struct rec_reader *r);
void rec_reader_close(struct rec_reader *r);

#endif
