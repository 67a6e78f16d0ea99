/*
 * NatNet packets: see natnet.h for the layouts by version, what is read
 * and what skipped.  A payload is walked with a cursor that refuses to
 * move past the end: every read says how many bytes it needs first, and
 * a count is checked against the smallest size of what it counts, so
 * that no loop runs longer than the payload is long.
 */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "mocap.h"
#include "natnet.h"

#define NN_SENDER_SIZE 264  /* name[256], app version[4], NatNet version[4] */
#define NN_CONNECT_SIZE 273 /* sender, options[5], reserved[4] (SDK 4) */
#define NN_CONNINFO_SIZE 15 /* clock u64, data port u16, multicast, group */
#define NN_BODY_SIZE 38     /* id, pos, quat, error, params (>= 3.0) */
#define NN_BODY2_SIZE 42    /* and the 2.x marker count */
#define NN_LABELED_SIZE 26  /* id, pos, size, params, residual (>= 3.0) */
#define NN_PLATE_FIXED 652  /* a force plate description's fixed part */
#define NN_DETAIL_MAX 112

/* Why the cursor stopped. */
enum nn_fault {
	NN_SHORT,  /* a read ran past the end */
	NN_NOSTR,  /* a string has no NUL before the end */
	NN_DETAIL, /* see detail */
};

/* A cursor over a payload, and the reason it failed. */
struct nn_in {
	const unsigned char *p;
	size_t n;    /* bytes in p */
	size_t off;  /* the next byte to read */
	size_t need; /* NN_SHORT: the bytes a read wanted at off */
	enum nn_fault fault;
	char detail[NN_DETAIL_MAX];
	char *err;
	size_t errlen;
};

static void nn_init(
    struct nn_in *, const unsigned char *, size_t, char *, size_t);
static int nn_fail(struct nn_in *, const char *, ...)
    __attribute__((format(printf, 2, 3)));
static int nn_bad(struct nn_in *, const char *, ...)
    __attribute__((format(printf, 2, 3)));
static size_t nn_left(const struct nn_in *);
static int nn_need(struct nn_in *, size_t);
static uint16_t nn_get16(const unsigned char *);
static uint32_t nn_get32(const unsigned char *);
static uint64_t nn_get64(const unsigned char *);
static double nn_getf(const unsigned char *);
static double nn_getd(const unsigned char *);
static void nn_put16(unsigned char *, uint16_t);
static int nn_skip(struct nn_in *, size_t);
static int nn_i32(struct nn_in *, int32_t *);
static int nn_count(struct nn_in *, const char *, size_t, int32_t *);
static int nn_string(struct nn_in *, char *, size_t);
static int nn_skip_strings(struct nn_in *, int32_t);
static int nn_at_least(struct natnet_version, int, int);
static int frame_sized(
    struct nn_in *, struct natnet_version, const char *, int32_t *, size_t *);
static int frame_fits(struct nn_in *, const char *, int32_t, size_t, size_t);
static int frame_marker_sets(struct nn_in *, struct natnet_version);
static int frame_unlabeled(struct nn_in *, struct natnet_version);
static int frame_body(
    struct nn_in *, struct natnet_version, struct natnet_rigid_body *);
static int frame_bodies(
    struct nn_in *, struct natnet_version, struct natnet_frame *);
static int frame_skeletons(struct nn_in *, struct natnet_version);
static int frame_labeled(struct nn_in *, struct natnet_version);
static int frame_channels(struct nn_in *, struct natnet_version, const char *);
static int frame_suffix(
    struct nn_in *, struct natnet_version, struct natnet_frame *);
static int model_body(
    struct nn_in *, struct natnet_version, struct natnet_model *);
static int model_marker_set(struct nn_in *);
static int model_skeleton(struct nn_in *, struct natnet_version);
static int model_force_plate(struct nn_in *);
static int model_device(struct nn_in *);
static int model_camera(struct nn_in *);
static int model_skip(struct nn_in *, struct natnet_version, int32_t);
static const char *model_kind_name(int32_t);

/* Point a cursor at a payload. */
static void
nn_init(struct nn_in *in, const unsigned char *p, size_t n, char *err,
    size_t errlen)
{
	static const unsigned char none[1];

	in->p = p != NULL ? p : none;
	in->n = p != NULL ? n : 0;
	in->off = 0;
	in->need = 0;
	in->fault = NN_SHORT;
	in->detail[0] = '\0';
	in->err = err;
	in->errlen = errlen;
}

/* Report the cursor's fault in the context the format names; returns -1. */
static int
nn_fail(struct nn_in *in, const char *fmt, ...)
{
	char what[128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	switch (in->fault) {
	case NN_SHORT:
		mocap_error(in->err, in->errlen,
		    "%s: packet ends at byte %zu, %zu bytes needed at byte %zu",
		    what, in->n, in->need, in->off);
		break;
	case NN_NOSTR:
		mocap_error(in->err, in->errlen,
		    "%s: the string at byte %zu has no NUL before the packet "
		    "ends at byte %zu",
		    what, in->off, in->n);
		break;
	case NN_DETAIL:
		mocap_error(in->err, in->errlen, "%s: %s", what, in->detail);
		break;
	}
	return -1;
}

/* Set the cursor's fault to a reason of its own; returns -1. */
static int
nn_bad(struct nn_in *in, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(in->detail, sizeof(in->detail), fmt, ap);
	va_end(ap);
	in->fault = NN_DETAIL;
	return -1;
}

/* The bytes after the cursor. */
static size_t
nn_left(const struct nn_in *in)
{
	return in->n - in->off;
}

/* 0 if k bytes follow the cursor, else -1 with the fault set. */
static int
nn_need(struct nn_in *in, size_t k)
{
	if (nn_left(in) >= k)
		return 0;
	in->fault = NN_SHORT;
	in->need = k;
	return -1;
}

/* A little-endian uint16. */
static uint16_t
nn_get16(const unsigned char *b)
{
	return (uint16_t)(b[0] | b[1] << 8);
}

/* A little-endian uint32. */
static uint32_t
nn_get32(const unsigned char *b)
{
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
	    (uint32_t)b[3] << 24;
}

/* A little-endian uint64. */
static uint64_t
nn_get64(const unsigned char *b)
{
	return (uint64_t)nn_get32(b) | (uint64_t)nn_get32(b + 4) << 32;
}

/* A little-endian IEEE single, widened. */
static double
nn_getf(const unsigned char *b)
{
	uint32_t u = nn_get32(b);
	float f;

	memcpy(&f, &u, sizeof(f));
	return f;
}

/* A little-endian IEEE double. */
static double
nn_getd(const unsigned char *b)
{
	uint64_t u = nn_get64(b);
	double d;

	memcpy(&d, &u, sizeof(d));
	return d;
}

/* Store a little-endian uint16. */
static void
nn_put16(unsigned char *b, uint16_t v)
{
	b[0] = (unsigned char)v;
	b[1] = (unsigned char)(v >> 8);
}

/* Move past k bytes. */
static int
nn_skip(struct nn_in *in, size_t k)
{
	if (nn_need(in, k) == -1)
		return -1;
	in->off += k;
	return 0;
}

/* Read a signed 32-bit number. */
static int
nn_i32(struct nn_in *in, int32_t *v)
{
	if (nn_need(in, 4) == -1)
		return -1;
	*v = (int32_t)nn_get32(in->p + in->off);
	in->off += 4;
	return 0;
}

/*
 * Read a count of things that take at least each bytes apiece, refusing
 * a negative count and one the bytes left cannot hold.
 */
static int
nn_count(struct nn_in *in, const char *what, size_t each, int32_t *count)
{
	if (nn_i32(in, count) == -1)
		return -1;
	if (*count < 0)
		return nn_bad(
		    in, "%s count %ld is negative", what, (long)*count);
	if ((size_t)*count > nn_left(in) / each)
		return nn_bad(in,
		    "%s count %ld needs at least %llu bytes, %zu are left",
		    what, (long)*count, (unsigned long long)*count * each,
		    nn_left(in));
	return 0;
}

/* Read a NUL-terminated string, cut to fit dst (which may be NULL). */
static int
nn_string(struct nn_in *in, char *dst, size_t dstlen)
{
	const unsigned char *s = in->p + in->off;
	const unsigned char *nul;
	size_t len, keep;

	nul = nn_left(in) > 0 ? memchr(s, '\0', nn_left(in)) : NULL;
	if (nul == NULL) {
		in->fault = NN_NOSTR;
		return -1;
	}
	len = (size_t)(nul - s);
	if (dst != NULL && dstlen > 0) {
		keep = len < dstlen - 1 ? len : dstlen - 1;
		memcpy(dst, s, keep);
		dst[keep] = '\0';
	}
	in->off += len + 1;
	return 0;
}

/* Skip n strings (a count already checked). */
static int
nn_skip_strings(struct nn_in *in, int32_t n)
{
	int32_t i;

	for (i = 0; i < n; i++)
		if (nn_string(in, NULL, 0) == -1)
			return -1;
	return 0;
}

/* Whether v is major.minor or later. */
static int
nn_at_least(struct natnet_version v, int major, int minor)
{
	return v.major > major || (v.major == major && v.minor >= minor);
}

int
natnet_version_supported(struct natnet_version v)
{
	return nn_at_least(v, 2, 6) && v.major <= 4;
}

int
natnet_message(const void *pkt, size_t len, int *id,
    const unsigned char **payload, size_t *plen, char *err, size_t errlen)
{
	const unsigned char *b = pkt;
	size_t n;

	if (b == NULL || len < NATNET_HEADER_SIZE) {
		mocap_error(err, errlen,
		    "a packet of %zu bytes is shorter than the %d-byte header",
		    b == NULL ? 0 : len, NATNET_HEADER_SIZE);
		return -1;
	}
	n = nn_get16(b + 2);
	if (len - NATNET_HEADER_SIZE != n) {
		mocap_error(err, errlen,
		    "message %u: the header says %zu payload bytes, the packet "
		    "has %zu",
		    nn_get16(b), n, len - NATNET_HEADER_SIZE);
		return -1;
	}
	*id = nn_get16(b);
	*payload = b + NATNET_HEADER_SIZE;
	*plen = n;
	return 0;
}

/*
 * Read a 4.1 section's count and byte count, checking the byte count
 * against the bytes left; *end is where the section ends.  Before 4.1
 * only the count is read (checked later, item by item).
 */
static int
frame_sized(struct nn_in *in, struct natnet_version v, const char *what,
    int32_t *count, size_t *end)
{
	int32_t size;

	if (nn_i32(in, count) == -1)
		return nn_fail(in, "%s count", what);
	if (*count < 0) {
		nn_bad(in, "count %ld is negative", (long)*count);
		return nn_fail(in, "%s", what);
	}
	*end = in->n;
	if (!nn_at_least(v, 4, 1))
		return 0;
	if (nn_i32(in, &size) == -1)
		return nn_fail(in, "%s byte count", what);
	if (size < 0 || (size_t)size > nn_left(in)) {
		nn_bad(in, "byte count %ld at byte %zu, %zu bytes are left",
		    (long)size, in->off - 4, nn_left(in));
		return nn_fail(in, "%s", what);
	}
	*end = in->off + (size_t)size;
	return 0;
}

/* Check that count items of at least each bytes fit before end. */
static int
frame_fits(
    struct nn_in *in, const char *what, int32_t count, size_t each, size_t end)
{
	if ((size_t)count <= (end - in->off) / each)
		return 0;
	nn_bad(in, "count %ld needs at least %llu bytes, %zu are left",
	    (long)count, (unsigned long long)count * each, end - in->off);
	return nn_fail(in, "%s", what);
}

/* Skip the marker sets: names and marker positions. */
static int
frame_marker_sets(struct nn_in *in, struct natnet_version v)
{
	int32_t count, i, nmarkers;
	size_t end;

	if (frame_sized(in, v, "marker sets", &count, &end) == -1)
		return -1;
	if (nn_at_least(v, 4, 1)) {
		in->off = end;
		return 0;
	}
	if (frame_fits(in, "marker sets", count, 5, end) == -1)
		return -1;
	for (i = 0; i < count; i++)
		if (nn_string(in, NULL, 0) == -1 ||
		    nn_count(in, "marker", 12, &nmarkers) == -1 ||
		    nn_skip(in, (size_t)nmarkers * 12) == -1)
			return nn_fail(in, "marker set %ld of %ld", (long)i + 1,
			    (long)count);
	return 0;
}

/* Skip the unlabeled ("other") markers. */
static int
frame_unlabeled(struct nn_in *in, struct natnet_version v)
{
	int32_t count;
	size_t end;

	if (frame_sized(in, v, "unlabeled markers", &count, &end) == -1)
		return -1;
	if (nn_at_least(v, 4, 1)) {
		in->off = end;
		return 0;
	}
	if (frame_fits(in, "unlabeled markers", count, 12, end) == -1)
		return -1;
	in->off += (size_t)count * 12;
	return 0;
}

/*
 * Read one rigid body into b (may be NULL, to skip it).  A body whose
 * pose is not finite is kept untracked at the origin.
 */
static int
frame_body(
    struct nn_in *in, struct natnet_version v, struct natnet_rigid_body *b)
{
	const unsigned char *q;
	double pos[3], quat[4], error;
	int32_t id, nmarkers;
	uint16_t params;
	int i, finite;

	if (nn_need(in, 32) == -1)
		return -1;
	q = in->p + in->off;
	id = (int32_t)nn_get32(q);
	for (i = 0; i < 3; i++)
		pos[i] = nn_getf(q + 4 + 4 * i);
	quat[0] = nn_getf(q + 28); /* w */
	for (i = 0; i < 3; i++)
		quat[1 + i] = nn_getf(q + 16 + 4 * i);
	in->off += 32;
	if (v.major < 3) {
		/* Positions, ids and sizes: 20 bytes a marker. */
		if (nn_count(in, "marker", 20, &nmarkers) == -1)
			return -1;
		in->off += (size_t)nmarkers * 20;
	}
	if (nn_need(in, 6) == -1)
		return -1;
	error = nn_getf(in->p + in->off);
	params = nn_get16(in->p + in->off + 4);
	in->off += 6;
	if (b == NULL)
		return 0;
	finite = 1;
	for (i = 0; i < 4; i++)
		if (!isfinite(quat[i]) || (i < 3 && !isfinite(pos[i])))
			finite = 0;
	b->id = id;
	for (i = 0; i < 3; i++)
		b->pos[i] = finite ? pos[i] : 0;
	for (i = 0; i < 4; i++)
		b->quat[i] = finite ? quat[i] : i == 0;
	b->tracked = finite && (params & 0x01) != 0;
	b->mean_error = error;
	return 0;
}

/* Read the rigid bodies, keeping the first NATNET_MAX_BODIES. */
static int
frame_bodies(struct nn_in *in, struct natnet_version v, struct natnet_frame *f)
{
	size_t each = v.major < 3 ? NN_BODY2_SIZE : NN_BODY_SIZE;
	size_t start, end;
	int32_t count, i;
	struct natnet_rigid_body *b;

	if (frame_sized(in, v, "rigid bodies", &count, &end) == -1)
		return -1;
	start = in->off;
	if (frame_fits(in, "rigid bodies", count, each, end) == -1)
		return -1;
	for (i = 0; i < count; i++) {
		b = i < NATNET_MAX_BODIES ? &f->bodies[i] : NULL;
		if (frame_body(in, v, b) == -1)
			return nn_fail(in, "rigid body %ld of %ld", (long)i + 1,
			    (long)count);
	}
	f->nbodies = count < NATNET_MAX_BODIES ? (int)count : NATNET_MAX_BODIES;
	f->bodies_dropped = (int)count - f->nbodies;
	if (nn_at_least(v, 4, 1) && in->off != end) {
		nn_bad(in, "the byte count says %zu bytes, %ld bodies take %zu",
		    end - start, (long)count, in->off - start);
		return nn_fail(in, "rigid bodies");
	}
	return 0;
}

/* Skip the skeletons: each an id and its bones, rigid bodies all. */
static int
frame_skeletons(struct nn_in *in, struct natnet_version v)
{
	size_t each = v.major < 3 ? NN_BODY2_SIZE : NN_BODY_SIZE;
	int32_t count, i, bones, j;
	size_t end;

	if (frame_sized(in, v, "skeletons", &count, &end) == -1)
		return -1;
	if (nn_at_least(v, 4, 1)) {
		in->off = end;
		return 0;
	}
	if (frame_fits(in, "skeletons", count, 8, end) == -1)
		return -1;
	for (i = 0; i < count; i++) {
		if (nn_skip(in, 4) == -1 ||
		    nn_count(in, "bone", each, &bones) == -1)
			return nn_fail(in, "skeleton %ld of %ld", (long)i + 1,
			    (long)count);
		for (j = 0; j < bones; j++)
			if (frame_body(in, v, NULL) == -1)
				return nn_fail(in,
				    "skeleton %ld of %ld, bone %ld",
				    (long)i + 1, (long)count, (long)j + 1);
	}
	return 0;
}

/* Skip the labeled markers, whose size depends on the version only. */
static int
frame_labeled(struct nn_in *in, struct natnet_version v)
{
	size_t each = v.major >= 3 ? NN_LABELED_SIZE : NN_LABELED_SIZE - 4;
	int32_t count;
	size_t end;

	if (frame_sized(in, v, "labeled markers", &count, &end) == -1)
		return -1;
	if (nn_at_least(v, 4, 1)) {
		in->off = end;
		return 0;
	}
	if (frame_fits(in, "labeled markers", count, each, end) == -1)
		return -1;
	in->off += (size_t)count * each;
	return 0;
}

/* Skip force plates or devices: ids, channels, frames of floats. */
static int
frame_channels(struct nn_in *in, struct natnet_version v, const char *what)
{
	int32_t count, i, channels, j, frames;
	size_t end;

	if (frame_sized(in, v, what, &count, &end) == -1)
		return -1;
	if (nn_at_least(v, 4, 1)) {
		in->off = end;
		return 0;
	}
	if (frame_fits(in, what, count, 8, end) == -1)
		return -1;
	for (i = 0; i < count; i++) {
		if (nn_skip(in, 4) == -1 ||
		    nn_count(in, "channel", 4, &channels) == -1)
			return nn_fail(in, "%s: %ld of %ld", what, (long)i + 1,
			    (long)count);
		for (j = 0; j < channels; j++)
			if (nn_count(in, "frame", 4, &frames) == -1 ||
			    nn_skip(in, (size_t)frames * 4) == -1)
				return nn_fail(in,
				    "%s: %ld of %ld, channel %ld", what,
				    (long)i + 1, (long)count, (long)j + 1);
	}
	return 0;
}

/*
 * Read the suffix: timecode, timestamp, host clock stamps, the precision
 * timestamp a 4.x server may send, the flags and the end-of-data tag.
 */
static int
frame_suffix(struct nn_in *in, struct natnet_version v, struct natnet_frame *f)
{
	const unsigned char *q;
	uint16_t params;

	if (v.major < 3 && nn_skip(in, 4) == -1) /* software latency */
		return nn_fail(in, "latency");
	if (nn_skip(in, 8) == -1)
		return nn_fail(in, "timecode");
	if (nn_at_least(v, 2, 7)) {
		if (nn_need(in, 8) == -1)
			return nn_fail(in, "timestamp");
		f->timestamp = nn_getd(in->p + in->off);
		in->off += 8;
	} else {
		if (nn_need(in, 4) == -1)
			return nn_fail(in, "timestamp");
		f->timestamp = nn_getf(in->p + in->off);
		in->off += 4;
	}
	if (v.major >= 3) {
		if (nn_need(in, 24) == -1)
			return nn_fail(in, "host clock stamps");
		q = in->p + in->off;
		f->mid_exposure = nn_get64(q);
		f->data_received = nn_get64(q + 8);
		f->transmit = nn_get64(q + 16);
		in->off += 24;
	}
	/* Precision stamps, flags and tag, or flags and tag alone. */
	if (v.major >= 4 && nn_left(in) == 8 + 2 + 4) {
		q = in->p + in->off;
		f->precision_secs = nn_get32(q);
		f->precision_frac = nn_get32(q + 4);
		in->off += 8;
	}
	if (nn_need(in, 2 + 4) == -1)
		return nn_fail(in, "frame flags and end tag");
	params = nn_get16(in->p + in->off);
	f->recording = (params & 0x01) != 0;
	f->models_changed = (params & 0x02) != 0;
	in->off += 2 + 4;
	if (in->off != in->n) {
		mocap_error(in->err, in->errlen,
		    "frame: %zu bytes follow the end-of-data tag at byte %zu",
		    in->n - in->off, in->off - 4);
		return -1;
	}
	return 0;
}

int
natnet_parse_frame(const unsigned char *p, size_t n, struct natnet_version v,
    struct natnet_frame *out, char *err, size_t errlen)
{
	struct nn_in in;
	int32_t number, count;
	size_t end;

	nn_init(&in, p, n, err, errlen);
	out->frame_number = 0;
	out->timestamp = 0;
	out->mid_exposure = out->data_received = out->transmit = 0;
	out->precision_secs = out->precision_frac = 0;
	out->recording = out->models_changed = 0;
	out->nbodies = out->bodies_dropped = 0;
	if (!natnet_version_supported(v)) {
		mocap_error(err, errlen, "NatNet %d.%d frames are not decoded",
		    v.major, v.minor);
		return -1;
	}
	if (nn_i32(&in, &number) == -1)
		return nn_fail(&in, "frame number");
	out->frame_number = number;
	if (frame_marker_sets(&in, v) == -1 || frame_unlabeled(&in, v) == -1 ||
	    frame_bodies(&in, v, out) == -1 || frame_skeletons(&in, v) == -1)
		return -1;
	if (nn_at_least(v, 4, 1)) {
		if (frame_sized(&in, v, "assets", &count, &end) == -1)
			return -1;
		in.off = end;
	}
	if (frame_labeled(&in, v) == -1)
		return -1;
	if (nn_at_least(v, 2, 9) &&
	    frame_channels(&in, v, "force plates") == -1)
		return -1;
	if (nn_at_least(v, 2, 11) && frame_channels(&in, v, "devices") == -1)
		return -1;
	return frame_suffix(&in, v, out);
}

/*
 * Read a rigid body's description into m (may be NULL): name, id,
 * parent, offset and, from 3.0, its markers (and from 4.0 their names).
 */
static int
model_body(struct nn_in *in, struct natnet_version v, struct natnet_model *m)
{
	int32_t id, nmarkers;

	if (nn_string(in, m != NULL ? m->name : NULL, NATNET_NAME_MAX) == -1 ||
	    nn_i32(in, &id) == -1 || nn_skip(in, 4 + 12) == -1)
		return -1;
	if (m != NULL)
		m->id = id;
	if (v.major < 3)
		return 0;
	/* Positions and active labels, then names from 4.0. */
	if (nn_count(in, "marker", v.major >= 4 ? 17 : 16, &nmarkers) == -1)
		return -1;
	in->off += (size_t)nmarkers * 16;
	if (v.major >= 4)
		return nn_skip_strings(in, nmarkers);
	return 0;
}

/* Skip a marker set's description: its name and its markers' names. */
static int
model_marker_set(struct nn_in *in)
{
	int32_t nmarkers;

	if (nn_string(in, NULL, 0) == -1 ||
	    nn_count(in, "marker", 1, &nmarkers) == -1)
		return -1;
	return nn_skip_strings(in, nmarkers);
}

/* Skip a skeleton's description: name, id and its bones' descriptions. */
static int
model_skeleton(struct nn_in *in, struct natnet_version v)
{
	int32_t bones, i;

	if (nn_string(in, NULL, 0) == -1 || nn_skip(in, 4) == -1 ||
	    nn_count(in, "bone", 1 + 4 + 4 + 12, &bones) == -1)
		return -1;
	for (i = 0; i < bones; i++)
		if (model_body(in, v, NULL) == -1)
			return -1;
	return 0;
}

/* Skip a force plate's description (NatNet 3.0 and later). */
static int
model_force_plate(struct nn_in *in)
{
	int32_t channels;

	if (nn_skip(in, 4) == -1 || nn_string(in, NULL, 0) == -1 ||
	    nn_skip(in, NN_PLATE_FIXED) == -1 ||
	    nn_count(in, "channel", 1, &channels) == -1)
		return -1;
	return nn_skip_strings(in, channels);
}

/* Skip a device's description (NatNet 3.0 and later). */
static int
model_device(struct nn_in *in)
{
	int32_t channels;

	if (nn_skip(in, 4) == -1 || nn_string(in, NULL, 0) == -1 ||
	    nn_string(in, NULL, 0) == -1 || nn_skip(in, 8) == -1 ||
	    nn_count(in, "channel", 1, &channels) == -1)
		return -1;
	return nn_skip_strings(in, channels);
}

/* Skip a camera's description: name, position, orientation. */
static int
model_camera(struct nn_in *in)
{
	if (nn_string(in, NULL, 0) == -1)
		return -1;
	return nn_skip(in, 12 + 16);
}

/*
 * Skip a description of another kind than a rigid body, before 4.1 gave
 * their sizes: 0, -1 if malformed, 1 for a kind that cannot be skipped.
 */
static int
model_skip(struct nn_in *in, struct natnet_version v, int32_t kind)
{
	switch (kind) {
	case 0:
		return model_marker_set(in);
	case 2:
		return model_skeleton(in, v);
	case 3:
		return v.major >= 3 ? model_force_plate(in) : 1;
	case 4:
		return v.major >= 3 ? model_device(in) : 1;
	case 5:
		return model_camera(in);
	default:
		return 1;
	}
}

/* The name of a kind of description, for reasons. */
static const char *
model_kind_name(int32_t kind)
{
	static const char *const names[] = { "marker set", "rigid body",
		"skeleton", "force plate", "device", "camera", "asset" };

	if (kind >= 0 && kind < (int32_t)(sizeof(names) / sizeof(names[0])))
		return names[kind];
	return "unknown";
}

int
natnet_parse_models(const unsigned char *p, size_t n, struct natnet_version v,
    struct natnet_models *out, char *err, size_t errlen)
{
	int sized = nn_at_least(v, 4, 1);
	struct natnet_model scratch, *m;
	struct nn_in in;
	int32_t count, i, kind, size;
	size_t start, end;
	int r;

	nn_init(&in, p, n, err, errlen);
	out->n = out->bodies_dropped = out->datasets = 0;
	out->complete = 0;
	if (!natnet_version_supported(v)) {
		mocap_error(err, errlen,
		    "NatNet %d.%d descriptions are not decoded", v.major,
		    v.minor);
		return -1;
	}
	if (nn_count(&in, "description", sized ? 8 : 4, &count) == -1)
		return nn_fail(&in, "model definitions");
	out->datasets = (int)count;
	for (i = 0; i < count; i++) {
		if (nn_i32(&in, &kind) == -1)
			return nn_fail(&in, "description %ld of %ld: kind",
			    (long)i + 1, (long)count);
		end = in.n;
		if (sized) {
			if (nn_i32(&in, &size) == -1)
				return nn_fail(&in,
				    "description %ld of %ld: byte count",
				    (long)i + 1, (long)count);
			if (size < 0 || (size_t)size > nn_left(&in)) {
				nn_bad(&in,
				    "byte count %ld, %zu bytes are left",
				    (long)size, nn_left(&in));
				return nn_fail(&in,
				    "description %ld of %ld (%s)", (long)i + 1,
				    (long)count, model_kind_name(kind));
			}
			end = in.off + (size_t)size;
		}
		start = in.off;
		if (kind == 1) {
			m = out->n < NATNET_MAX_BODIES ? &out->bodies[out->n] :
							 &scratch;
			r = model_body(&in, v, m);
			if (r == 0 && m == &scratch)
				out->bodies_dropped++;
			else if (r == 0)
				out->n++;
		} else if (sized) {
			in.off = end;
			continue;
		} else
			r = model_skip(&in, v, kind);
		if (r == -1)
			return nn_fail(&in, "description %ld of %ld (%s)",
			    (long)i + 1, (long)count, model_kind_name(kind));
		if (r == 1) {
			mocap_error(err, errlen,
			    "description %ld of %ld is of kind %ld (%s), which "
			    "NatNet %d.%d cannot skip; kept the %d rigid bodies "
			    "before it",
			    (long)i + 1, (long)count, (long)kind,
			    model_kind_name(kind), v.major, v.minor, out->n);
			return 0;
		}
		if (sized && in.off != end) {
			nn_bad(&in,
			    "the byte count says %zu bytes, it takes %zu",
			    end - start, in.off - start);
			return nn_fail(&in, "description %ld of %ld (%s)",
			    (long)i + 1, (long)count, model_kind_name(kind));
		}
	}
	out->complete = 1;
	return 0;
}

int
natnet_parse_server(const unsigned char *p, size_t n, struct natnet_server *out,
    char *err, size_t errlen)
{
	const unsigned char *c;
	size_t len;

	memset(out, 0, sizeof(*out));
	if (p == NULL || n < NN_SENDER_SIZE) {
		mocap_error(err, errlen,
		    "server info: %zu bytes, at least %d expected",
		    p == NULL ? 0 : n, NN_SENDER_SIZE);
		return -1;
	}
	/* The name fills a fixed field and may lack its NUL: cut it. */
	c = memchr(p, '\0', NATNET_NAME_MAX);
	len = c != NULL ? (size_t)(c - p) : NATNET_NAME_MAX - 1;
	memcpy(out->app, p, len);
	out->app[len] = '\0';
	memcpy(out->app_version, p + 256, 4);
	memcpy(out->natnet_version, p + 260, 4);
	if (n < NN_SENDER_SIZE + NN_CONNINFO_SIZE)
		return 0;
	c = p + NN_SENDER_SIZE;
	out->has_connection_info = 1;
	out->clock_frequency = nn_get64(c);
	out->data_port = nn_get16(c + 8);
	out->multicast = c[10] != 0;
	memcpy(out->multicast_group, c + 11, 4);
	snprintf(out->multicast_address, sizeof(out->multicast_address),
	    "%u.%u.%u.%u", c[11], c[12], c[13], c[14]);
	return 0;
}

struct natnet_version
natnet_server_version(const struct natnet_server *s)
{
	struct natnet_version v;

	v.major = s->natnet_version[0];
	v.minor = s->natnet_version[1];
	return v;
}

size_t
natnet_connect_request(unsigned char *buf, size_t cap, const char *name,
    struct natnet_version want)
{
	size_t len;

	if (cap < NATNET_HEADER_SIZE + NN_CONNECT_SIZE)
		return 0;
	memset(buf, 0, NATNET_HEADER_SIZE + NN_CONNECT_SIZE);
	nn_put16(buf, NATNET_CONNECT);
	nn_put16(buf + 2, NN_CONNECT_SIZE);
	if (name != NULL) {
		len = strlen(name);
		memcpy(buf + 4, name, len < 255 ? len : 255);
	}
	/* The sender's NatNet version, then the options: subscribed data
	 * only (no), and the stream version asked for. */
	buf[4 + 260] = (unsigned char)want.major;
	buf[4 + 261] = (unsigned char)want.minor;
	buf[4 + 265] = (unsigned char)want.major;
	buf[4 + 266] = (unsigned char)want.minor;
	return NATNET_HEADER_SIZE + NN_CONNECT_SIZE;
}

size_t
natnet_request(unsigned char *buf, size_t cap, int id, const char *text)
{
	struct natnet_version any = { 0, 0 };
	size_t len;

	if (id == NATNET_CONNECT)
		return natnet_connect_request(buf, cap, text, any);
	len = text != NULL ? strlen(text) + 1 : 0;
	if (id < 0 || id > 0xffff || len > 0xffff ||
	    cap < NATNET_HEADER_SIZE + len)
		return 0;
	nn_put16(buf, (uint16_t)id);
	nn_put16(buf + 2, (uint16_t)len);
	if (len > 0)
		memcpy(buf + NATNET_HEADER_SIZE, text, len);
	return NATNET_HEADER_SIZE + len;
}
