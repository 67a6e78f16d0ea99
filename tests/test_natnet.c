/*
 * Unit tests of the NatNet decoder (clients/natnet.c): round trips of
 * what the fake server's encoder (tests/natnet_fake.c, written apart)
 * makes, packets assembled here byte by byte from the layout, hostile
 * bytes, and the fake server answering over a real UDP socket.
 */
#include "config.h"

#include <arpa/inet.h>
#include <math.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "natnet.h"
#include "natnet_fake.h"
#include "scratch.h"

TestSuite(natnet, .timeout = 20);

/* Every version decoded, and 4.2, which is decoded as 4.1. */
static const struct natnet_version versions[] = { { 2, 6 }, { 2, 7 }, { 2, 9 },
	{ 2, 11 }, { 3, 0 }, { 3, 1 }, { 4, 0 }, { 4, 1 }, { 4, 2 } };
#define NVERSIONS (sizeof(versions) / sizeof(versions[0]))

static const struct natnet_version v3_0 = { 3, 0 }, v3_1 = { 3, 1 },
				   v4_0 = { 4, 0 }, v4_1 = { 4, 1 };

static struct natnet_frame frame; /* too large for comfort on the stack */
static struct natnet_models models;
static unsigned char pkt[NATNET_FAKE_MAX_PACKET];

/* A float's value as a double: what a position survives the wire as. */
static double
f32(double d)
{
	return (float)d;
}

/* Bodies with distinct values that floats hold exactly. */
static void
make_bodies(struct natnet_fake_body *b, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		b[i].id = 1000 + 7 * i;
		b[i].pos[0] = -3.0 + i / 64.0;
		b[i].pos[1] = 0.5 + i / 128.0;
		b[i].pos[2] = 2.25 - i / 256.0;
		b[i].quat[0] = 0.875 - i / 4096.0;
		b[i].quat[1] = 0.125 + i / 8192.0;
		b[i].quat[2] = -0.25;
		b[i].quat[3] = 0.375 + i / 16384.0;
		b[i].tracked = i % 3 != 1;
		b[i].mean_error = i / 65536.0;
	}
}

/* Store a little-endian uint32. */
static void
put32(unsigned char *b, uint32_t v)
{
	b[0] = (unsigned char)v;
	b[1] = (unsigned char)(v >> 8);
	b[2] = (unsigned char)(v >> 16);
	b[3] = (unsigned char)(v >> 24);
}

/* Decode a payload from a buffer of exactly its size, so that ASan sees
 * any read past its end. */
static int
frame_exact(const unsigned char *p, size_t n, struct natnet_version v,
    char *err, size_t errlen)
{
	unsigned char *copy = malloc(n > 0 ? n : 1);
	int r;

	cr_assert_not_null(copy);
	if (n > 0)
		memcpy(copy, p, n);
	r = natnet_parse_frame(copy, n, v, &frame, err, errlen);
	free(copy);
	return r;
}

/* The same for model definitions. */
static int
models_exact(const unsigned char *p, size_t n, struct natnet_version v,
    char *err, size_t errlen)
{
	unsigned char *copy = malloc(n > 0 ? n : 1);
	int r;

	cr_assert_not_null(copy);
	if (n > 0)
		memcpy(copy, p, n);
	r = natnet_parse_models(copy, n, v, &models, err, errlen);
	free(copy);
	return r;
}

/* Split a whole packet, checking its id; the payload and its length. */
static const unsigned char *
payload_of(const unsigned char *p, size_t len, int want, size_t *plen)
{
	const unsigned char *payload;
	char err[256] = "";
	int id;

	cr_assert_eq(
	    natnet_message(p, len, &id, &payload, plen, err, sizeof(err)), 0,
	    "%s", err);
	cr_assert_eq(id, want);
	return payload;
}

/* Encode a frame of nb bodies, decode it and compare every field. */
static void
round_trip(struct natnet_version v, int extras, int precision, int nb,
    const struct natnet_fake_body *bodies)
{
	struct natnet_fake_frame fr;
	const unsigned char *p;
	char err[256] = "";
	size_t len, n;
	int i, k;

	memset(&fr, 0, sizeof(fr));
	fr.major = v.major;
	fr.minor = v.minor;
	fr.frame_number = 4242 + nb;
	fr.timestamp = 12.5 + nb / 8.0;
	fr.mid_exposure = 0x0102030405060708ULL + (unsigned)nb;
	fr.data_received = 0x1112131415161718ULL + (unsigned)nb;
	fr.transmit = 0x2122232425262728ULL + (unsigned)nb;
	fr.nbodies = nb;
	fr.bodies = bodies;
	fr.extras = extras;
	fr.precision = precision;
	fr.precision_secs = 3600 + (unsigned)nb;
	fr.precision_frac = 0x80000000u;
	fr.recording = nb & 1;
	fr.models_changed = !(nb & 1);
	len = natnet_fake_encode_frame(pkt, sizeof(pkt), &fr);
	cr_assert_gt(len, 0);
	p = payload_of(pkt, len, NATNET_FRAMEOFDATA, &n);
	cr_assert_eq(frame_exact(p, n, v, err, sizeof(err)), 0,
	    "%d.%d, %d bodies, extras %d: %s", v.major, v.minor, nb, extras,
	    err);
	cr_assert_eq(frame.frame_number, fr.frame_number);
	if (v.major == 2 && v.minor < 7)
		cr_assert_eq(frame.timestamp, f32(fr.timestamp));
	else
		cr_assert_eq(frame.timestamp, fr.timestamp);
	if (v.major >= 3) {
		cr_assert_eq(frame.mid_exposure, fr.mid_exposure);
		cr_assert_eq(frame.data_received, fr.data_received);
		cr_assert_eq(frame.transmit, fr.transmit);
	} else
		cr_assert(frame.mid_exposure == 0 && frame.transmit == 0);
	if (v.major >= 4 && precision) {
		cr_assert_eq(frame.precision_secs, fr.precision_secs);
		cr_assert_eq(frame.precision_frac, fr.precision_frac);
	} else
		cr_assert(
		    frame.precision_secs == 0 && frame.precision_frac == 0);
	cr_assert_eq(frame.recording, fr.recording);
	cr_assert_eq(frame.models_changed, fr.models_changed);
	cr_assert_eq(
	    frame.nbodies, nb < NATNET_MAX_BODIES ? nb : NATNET_MAX_BODIES);
	cr_assert_eq(frame.bodies_dropped, nb - frame.nbodies);
	for (i = 0; i < frame.nbodies; i++) {
		const struct natnet_rigid_body *b = &frame.bodies[i];
		const struct natnet_fake_body *w = &bodies[i];

		cr_assert_eq(
		    b->id, w->id, "%d.%d body %d", v.major, v.minor, i);
		for (k = 0; k < 3; k++)
			cr_assert_eq(b->pos[k], f32(w->pos[k]));
		for (k = 0; k < 4; k++)
			cr_assert_eq(b->quat[k], f32(w->quat[k]),
			    "%d.%d body %d quat[%d]", v.major, v.minor, i, k);
		cr_assert_eq(b->tracked, w->tracked);
		cr_assert_eq(b->mean_error, f32(w->mean_error));
	}
}

Test(natnet, frames_round_trip_every_version)
{
	static const int counts[] = { 0, 1, 3, NATNET_MAX_BODIES + 5 };
	static struct natnet_fake_body bodies[NATNET_MAX_BODIES + 5];
	size_t vi, ci;
	int extras, precision;

	make_bodies(bodies, NATNET_MAX_BODIES + 5);
	for (vi = 0; vi < NVERSIONS; vi++)
		for (extras = 0; extras < 2; extras++)
			for (precision = 0; precision < 2; precision++)
				for (ci = 0; ci < 4; ci++)
					round_trip(versions[vi], extras,
					    precision, counts[ci], bodies);
}

/*
 * A NatNet 3.1 frame written from the layout: a marker set, an unlabeled
 * marker, two rigid bodies, a skeleton of one bone, a labeled marker, a
 * force plate, no devices, and the suffix.  Offsets are the payload's.
 */
static const uint8_t frame31[] = {
	0x07, 0x00, 0x15, 0x01, /* FRAMEOFDATA, 277 payload bytes */
	0x45, 0x23, 0x01, 0x00, /* 0: frame number 0x12345 */
	0x01, 0x00, 0x00, 0x00, /* 4: one marker set */
	'a', 'b', 0x00,         /* 8: named "ab" */
	0x01, 0x00, 0x00, 0x00, /* 11: one marker */
	0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x00, 0x40, /* 15: 1, 2, */
	0x00, 0x00, 0x40, 0x40,                         /* 3 */
	0x01, 0x00, 0x00, 0x00, /* 27: one unlabeled marker */
	0x00, 0x00, 0x00, 0x3f, 0x00, 0x00, 0x00, 0x3f, /* 31: 0.5, 0.5, */
	0x00, 0x00, 0x00, 0x3f,                         /* 0.5 */
	0x02, 0x00, 0x00, 0x00, /* 43: two rigid bodies */
	0x07, 0x00, 0x00, 0x00, /* 47: id 7 */
	0x00, 0x00, 0xc0, 0x3f, /* x 1.5 */
	0x00, 0x00, 0x00, 0xc0, /* y -2 */
	0x00, 0x00, 0x80, 0x3e, /* z 0.25 */
	0x00, 0x00, 0x00, 0x3e, /* qx 0.125 */
	0x00, 0x00, 0x80, 0x3e, /* qy 0.25 */
	0x00, 0x00, 0xc0, 0x3e, /* qz 0.375 */
	0x00, 0x00, 0x60, 0x3f, /* qw 0.875 */
	0x00, 0x00, 0x80, 0x3d, /* mean error 0.0625 */
	0x01, 0x00,             /* params: tracked */
	0x2c, 0x01, 0x00, 0x00, /* 85: id 300 */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00,                                           /* at the origin */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* qx 0, qy 0, */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x3f, /* qz 0, qw 1 */
	0x00, 0x00, 0x00, 0x00,                         /* mean error 0 */
	0x00, 0x00,             /* params: not tracked */
	0x01, 0x00, 0x00, 0x00, /* 123: one skeleton */
	0x09, 0x00, 0x00, 0x00, /* 127: id 9 */
	0x01, 0x00, 0x00, 0x00, /* 131: one bone */
	0x0a, 0x00, 0x00, 0x00, /* 135: id 10, pose zero, error zero */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, /* params */
	0x01, 0x00, 0x00, 0x00, /* 173: one labeled marker */
	0x01, 0x00, 0x07, 0x00, /* 177: id: model 7, marker 1 */
	0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x80, 0x3f, /* 1, 1, */
	0x00, 0x00, 0x80, 0x3f,                         /* 1 */
	0x00, 0x00, 0x80, 0x3c,                         /* size */
	0x04, 0x00,                                     /* params */
	0x00, 0x00, 0x00, 0x00,                         /* residual */
	0x01, 0x00, 0x00, 0x00, /* 203: one force plate */
	0x01, 0x00, 0x00, 0x00, /* 207: id 1 */
	0x01, 0x00, 0x00, 0x00, /* 211: one channel */
	0x02, 0x00, 0x00, 0x00, /* 215: two frames */
	0x00, 0x00, 0x20, 0x41, 0x00, 0x00, 0x30, 0x41, /* 219: 10, 11 */
	0x00, 0x00, 0x00, 0x00,                         /* 227: no devices */
	0x04, 0x03, 0x02, 0x01, 0x00, 0x00, 0x00, 0x00, /* 231: timecode */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf4, 0x3f, /* 239: 1.25 s */
	0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, /* 247: mid-exposure */
	0x90, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, /* 255: received */
	0xa0, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, /* 263: transmit */
	0x02, 0x00,             /* 271: flags: models changed */
	0x00, 0x00, 0x00, 0x00, /* 273: end of data */
};

/* The payload offsets of frame31's counts. */
static const size_t frame31_counts[] = { 4, 11, 27, 43, 123, 131, 173, 203, 211,
	215, 227 };

Test(natnet, hand_assembled_3_1_frame)
{
	const struct natnet_version v = v3_1;
	const unsigned char *p;
	char err[256] = "";
	size_t n;

	cr_assert_eq(sizeof(frame31), 4 + 277, "the assembly is miscounted");
	p = payload_of(frame31, sizeof(frame31), NATNET_FRAMEOFDATA, &n);
	cr_assert_eq(frame_exact(p, n, v, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(frame.frame_number, 0x12345);
	cr_assert_eq(frame.nbodies, 2, "the skeleton's bone is no rigid body");
	cr_assert_eq(frame.bodies_dropped, 0);
	cr_assert_eq(frame.bodies[0].id, 7);
	cr_assert_eq(frame.bodies[0].pos[0], 1.5);
	cr_assert_eq(frame.bodies[0].pos[1], -2.0);
	cr_assert_eq(frame.bodies[0].pos[2], 0.25);
	cr_assert_eq(frame.bodies[0].quat[0], 0.875, "w comes first");
	cr_assert_eq(frame.bodies[0].quat[1], 0.125);
	cr_assert_eq(frame.bodies[0].quat[2], 0.25);
	cr_assert_eq(frame.bodies[0].quat[3], 0.375);
	cr_assert_eq(frame.bodies[0].mean_error, 0.0625);
	cr_assert_eq(frame.bodies[0].tracked, 1);
	cr_assert_eq(frame.bodies[1].id, 300);
	cr_assert_eq(frame.bodies[1].quat[0], 1.0);
	cr_assert_eq(frame.bodies[1].quat[1], 0.0);
	cr_assert_eq(frame.bodies[1].tracked, 0);
	cr_assert_eq(frame.timestamp, 1.25);
	cr_assert_eq(frame.mid_exposure, 0x1122334455667788ULL);
	cr_assert_eq(frame.data_received, 0x1122334455667790ULL);
	cr_assert_eq(frame.transmit, 0x11223344556677a0ULL);
	cr_assert_eq(frame.precision_secs, 0);
	cr_assert_eq(frame.recording, 0);
	cr_assert_eq(frame.models_changed, 1);
}

/*
 * A NatNet 4.1 frame: every section has a byte count after its count;
 * a marker set and an asset to skip by them, one rigid body, and a
 * suffix with the precision timestamp.
 */
static const uint8_t frame41[] = {
	0x07, 0x00, 0xbf, 0x00, /* FRAMEOFDATA, 191 payload bytes */
	0x0a, 0x00, 0x00, 0x00, /* 0: frame number 10 */
	0x01, 0x00, 0x00, 0x00, /* 4: one marker set */
	0x13, 0x00, 0x00, 0x00, /* 8: of 19 bytes */
	'a', 'b', 0x00,         /* 12: named "ab" */
	0x01, 0x00, 0x00, 0x00, /* one marker */
	0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x40,
	0x40,                   /* 1, 2, 3 */
	0x00, 0x00, 0x00, 0x00, /* 31: no unlabeled markers */
	0x00, 0x00, 0x00, 0x00, /* of 0 bytes */
	0x01, 0x00, 0x00, 0x00, /* 39: one rigid body */
	0x26, 0x00, 0x00, 0x00, /* 43: of 38 bytes */
	0xff, 0xff, 0xff, 0xff, /* 47: id -1 */
	0x00, 0x00, 0x20, 0xc1, /* x -10 */
	0x00, 0x00, 0x80, 0x40, /* y 4 */
	0x00, 0x00, 0x00, 0xbf, /* z -0.5 */
	0x00, 0x00, 0x00, 0xbf, /* qx -0.5 */
	0x00, 0x00, 0x00, 0x3f, /* qy 0.5 */
	0x00, 0x00, 0x00, 0xbf, /* qz -0.5 */
	0x00, 0x00, 0x00, 0x3f, /* qw 0.5 */
	0x00, 0x00, 0x00, 0x3c, /* mean error 1/128 */
	0x03, 0x00,             /* params: tracked, and bit 1 */
	0x00, 0x00, 0x00, 0x00, /* 85: no skeletons */
	0x00, 0x00, 0x00, 0x00, /* of 0 bytes */
	0x01, 0x00, 0x00, 0x00, /* 93: one asset */
	0x0c, 0x00, 0x00, 0x00, /* 97: of 12 bytes */
	0x63, 0x00, 0x00, 0x00, /* 101: id 99 */
	0x00, 0x00, 0x00, 0x00, /* no rigid bodies */
	0x00, 0x00, 0x00, 0x00, /* no markers */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 113: labeled */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 121: plates */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 129: devices */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 137: timecode */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x59, 0x40, /* 145: 100 s */
	0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 153: mid-exposure */
	0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 161: received */
	0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 169: transmit */
	0x10, 0x0e, 0x00, 0x00, /* 177: precision: 3600 s */
	0x00, 0x00, 0x00, 0x40, /* 181: and 1/4 */
	0x01, 0x00,             /* 185: flags: recording */
	0x00, 0x00, 0x00, 0x00, /* 187: end of data */
};

Test(natnet, hand_assembled_4_1_frame)
{
	const struct natnet_version v = v4_1;
	const unsigned char *p;
	char err[256] = "";
	size_t n;

	cr_assert_eq(sizeof(frame41), 4 + 191, "the assembly is miscounted");
	p = payload_of(frame41, sizeof(frame41), NATNET_FRAMEOFDATA, &n);
	cr_assert_eq(frame_exact(p, n, v, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(frame.frame_number, 10);
	cr_assert_eq(frame.nbodies, 1);
	cr_assert_eq(frame.bodies[0].id, -1);
	cr_assert_eq(frame.bodies[0].pos[0], -10.0);
	cr_assert_eq(frame.bodies[0].pos[1], 4.0);
	cr_assert_eq(frame.bodies[0].pos[2], -0.5);
	cr_assert_eq(frame.bodies[0].quat[0], 0.5);
	cr_assert_eq(frame.bodies[0].quat[1], -0.5);
	cr_assert_eq(frame.bodies[0].quat[2], 0.5);
	cr_assert_eq(frame.bodies[0].quat[3], -0.5);
	cr_assert_eq(frame.bodies[0].mean_error, 1.0 / 128);
	cr_assert_eq(frame.bodies[0].tracked, 1);
	cr_assert_eq(frame.timestamp, 100.0);
	cr_assert_eq(frame.mid_exposure, 1);
	cr_assert_eq(frame.data_received, 2);
	cr_assert_eq(frame.transmit, 3);
	cr_assert_eq(frame.precision_secs, 3600);
	cr_assert_eq(frame.precision_frac, 0x40000000u);
	cr_assert_eq(frame.recording, 1);
	cr_assert_eq(frame.models_changed, 0);
	/* The same bytes are no 4.0 frame: 4.0 has no byte counts. */
	cr_assert_eq(frame_exact(p, n, v4_0, err, sizeof(err)), -1);
}

/*
 * A NatNet 2.9 frame: the rigid body carries its marker (position, id,
 * size), force plates are there but devices are not, and a software
 * latency float precedes the timecode.
 */
static const uint8_t frame29[] = {
	0x07, 0x00, 0x74, 0x00, /* FRAMEOFDATA, 116 payload bytes */
	0x01, 0x00, 0x00, 0x00, /* 0: frame number 1 */
	0x00, 0x00, 0x00, 0x00, /* 4: no marker sets */
	0x00, 0x00, 0x00, 0x00, /* 8: no unlabeled markers */
	0x01, 0x00, 0x00, 0x00, /* 12: one rigid body */
	0x05, 0x00, 0x00, 0x00, /* 16: id 5 */
	0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x00, 0x40, /* 20: at 1, 2, */
	0x00, 0x00, 0x40, 0x40,                         /* 3 */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 32: qx 0, qy 0, */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x3f, /* qz 0, qw 1 */
	0x01, 0x00, 0x00, 0x00,                         /* 48: one marker */
	0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x00, 0x40, /* 52: at 1, 2, */
	0x00, 0x00, 0x40, 0x40,                         /* 3 */
	0x0b, 0x00, 0x00, 0x00,                         /* 64: its id */
	0x00, 0x00, 0x80, 0x3c,                         /* 68: its size */
	0x00, 0x00, 0x00, 0x3f,                         /* 72: mean error 0.5 */
	0x00, 0x00,             /* 76: params: not tracked */
	0x00, 0x00, 0x00, 0x00, /* 78: no skeletons */
	0x00, 0x00, 0x00, 0x00, /* 82: no labeled markers */
	0x00, 0x00, 0x00, 0x00, /* 86: no force plates */
	0x6f, 0x12, 0x83, 0x3b, /* 90: software latency */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 94: timecode */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x40, /* 102: 2.5 s */
	0x01, 0x00,             /* 110: flags: recording */
	0x00, 0x00, 0x00, 0x00, /* 112: end of data */
};

Test(natnet, hand_assembled_2_9_frame)
{
	const struct natnet_version v = { 2, 9 };
	const unsigned char *p;
	char err[256] = "";
	size_t n;

	cr_assert_eq(sizeof(frame29), 4 + 116, "the assembly is miscounted");
	p = payload_of(frame29, sizeof(frame29), NATNET_FRAMEOFDATA, &n);
	cr_assert_eq(frame_exact(p, n, v, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(frame.frame_number, 1);
	cr_assert_eq(frame.nbodies, 1);
	cr_assert_eq(frame.bodies[0].id, 5);
	cr_assert_eq(frame.bodies[0].pos[2], 3.0);
	cr_assert_eq(frame.bodies[0].quat[0], 1.0);
	cr_assert_eq(frame.bodies[0].mean_error, 0.5);
	cr_assert_eq(frame.bodies[0].tracked, 0);
	cr_assert_eq(frame.timestamp, 2.5);
	cr_assert_eq(frame.mid_exposure, 0, "no host clock before 3.0");
	cr_assert_eq(frame.recording, 1);
	/* A 2.11 frame would have devices; a 2.6 one a float timestamp. */
	cr_assert_eq(frame_exact(p, n, (struct natnet_version){ 2, 11 }, err,
			 sizeof(err)),
	    -1);
	cr_assert_eq(frame_exact(p, n, (struct natnet_version){ 2, 6 }, err,
			 sizeof(err)),
	    -1);
}

Test(natnet, byte_counts_of_4_1_are_checked)
{
	static const int32_t bad[] = { 37, 39, 0, -1, 0x7fffffff };
	const struct natnet_version v = v4_1;
	unsigned char p[191];
	char err[256];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memcpy(p, frame41 + 4, sizeof(p));
		put32(p + 43, (uint32_t)bad[i]);
		err[0] = '\0';
		cr_assert_eq(frame_exact(p, sizeof(p), v, err, sizeof(err)), -1,
		    "rigid bodies of %d bytes", (int)bad[i]);
		cr_assert(strstr(err, "rigid bodies") != NULL, "%s", err);
	}
	/* A marker set section said longer than what is left. */
	memcpy(p, frame41 + 4, sizeof(p));
	p[8] = 0xff;
	p[9] = 0x01;
	cr_assert_eq(frame_exact(p, sizeof(p), v, err, sizeof(err)), -1);
	cr_assert(
	    strstr(err, "marker sets: byte count 511") != NULL, "%s", err);
	/* An asset section said shorter: the labeled markers' count then
	 * lands inside the asset, and what follows does not add up. */
	memcpy(p, frame41 + 4, sizeof(p));
	p[97] = 8;
	cr_assert_eq(frame_exact(p, sizeof(p), v, err, sizeof(err)), -1);
}

Test(natnet, nonfinite_pose_is_kept_untracked)
{
	const struct natnet_version v = v3_1;
	unsigned char p[277];
	char err[256] = "";

	memcpy(p, frame31 + 4, sizeof(p));
	memcpy(p + 51, "\x00\x00\xc0\x7f", 4); /* x: NaN */
	cr_assert_eq(
	    frame_exact(p, sizeof(p), v, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(frame.bodies[0].id, 7);
	cr_assert_eq(frame.bodies[0].tracked, 0);
	cr_assert_eq(frame.bodies[0].pos[0], 0.0);
	cr_assert_eq(frame.bodies[0].pos[1], 0.0);
	cr_assert_eq(frame.bodies[0].quat[0], 1.0);
	cr_assert_eq(frame.bodies[0].quat[3], 0.0);
	memcpy(p, frame31 + 4, sizeof(p));
	memcpy(p + 75, "\x00\x00\x80\xff", 4); /* qw: -infinity */
	cr_assert_eq(
	    frame_exact(p, sizeof(p), v, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(frame.bodies[0].tracked, 0);
	cr_assert_eq(frame.bodies[0].quat[0], 1.0);
}

/*
 * Every cut of a frame is refused, but one: a 4.x frame that ends with
 * the precision timestamp, cut by its 8 bytes, is a frame without it
 * (the decoder tells them apart by the bytes left; the header's length
 * is what catches a datagram cut short).
 */
Test(natnet, every_truncated_frame_is_refused)
{
	static struct natnet_fake_body bodies[3];
	struct natnet_fake_frame fr;
	const unsigned char *p;
	const unsigned char *pl;
	char err[256];
	size_t vi, len, n, k, pn;
	int id, precision, r;

	make_bodies(bodies, 3);
	for (vi = 0; vi < NVERSIONS; vi++)
		for (precision = 0; precision < 2; precision++) {
			struct natnet_version v = versions[vi];

			memset(&fr, 0, sizeof(fr));
			fr.major = v.major;
			fr.minor = v.minor;
			fr.nbodies = 3;
			fr.bodies = bodies;
			fr.extras = 1;
			fr.precision = precision;
			fr.precision_secs = 5;
			len = natnet_fake_encode_frame(pkt, sizeof(pkt), &fr);
			p = payload_of(pkt, len, NATNET_FRAMEOFDATA, &n);
			for (k = 0; k < n; k++) {
				err[0] = '\0';
				r = frame_exact(p, k, v, err, sizeof(err));
				if (r == 0 && v.major == 4 && precision &&
				    k == n - 8) {
					cr_assert_eq(frame.precision_secs, 0);
					cr_assert_eq(frame.nbodies, 3);
					continue;
				}
				cr_assert_eq(r, -1,
				    "%d.%d: %zu of %zu bytes decoded", v.major,
				    v.minor, k, n);
				cr_assert_neq(
				    err[0], '\0', "a reason at %zu bytes", k);
			}
			for (k = 0; k < len; k++) {
				err[0] = '\0';
				cr_assert_eq(natnet_message(pkt, k, &id, &pl,
						 &pn, err, sizeof(err)),
				    -1, "a datagram cut to %zu bytes", k);
				cr_assert_neq(err[0], '\0');
			}
		}
	/* The reason names the item and where the bytes ran out. */
	cr_assert_eq(frame_exact(frame31 + 4, 100, v3_1, err, sizeof(err)), -1);
	cr_assert_str_eq(
	    err, "rigid bodies: count 2 needs at least 76 bytes, 53 are left");
	cr_assert_eq(frame_exact(frame31 + 4, 250, v3_1, err, sizeof(err)), -1);
	cr_assert_str_eq(err,
	    "host clock stamps: packet ends at byte 250, 24 bytes needed at "
	    "byte 247");
	/* A marker set's name that runs to the end. */
	memcpy(pkt, frame31 + 4, 27);
	memset(pkt + 10, 'x', 17);
	cr_assert_eq(frame_exact(pkt, 27, v3_1, err, sizeof(err)), -1);
	cr_assert_str_eq(err,
	    "marker set 1 of 1: the string at byte 8 has no NUL before the "
	    "packet ends at byte 27");
}

Test(natnet, huge_and_negative_counts_are_refused)
{
	static const uint32_t values[] = { 0x7fffffffu, 0xffffffffu,
		0x80000000u };
	const struct natnet_version v = v3_1;
	unsigned char p[277];
	char err[256];
	size_t i, j;

	for (i = 0; i < sizeof(frame31_counts) / sizeof(frame31_counts[0]); i++)
		for (j = 0; j < 3; j++) {
			memcpy(p, frame31 + 4, sizeof(p));
			put32(p + frame31_counts[i], values[j]);
			err[0] = '\0';
			cr_assert_eq(
			    frame_exact(p, sizeof(p), v, err, sizeof(err)), -1,
			    "count at %zu set to %#x", frame31_counts[i],
			    values[j]);
			if (j == 0)
				cr_assert(strstr(err,
					      "count 2147483647 needs") != NULL,
				    "%s", err);
			else
				cr_assert(strstr(err, "is negative") != NULL,
				    "%s", err);
		}
}

Test(natnet, header_must_agree_with_the_datagram)
{
	unsigned char b[16] = { 0x07, 0x00, 0x08, 0x00 };
	const unsigned char *p = NULL;
	char err[256] = "";
	size_t n = 0;
	int id = -1;

	cr_assert_eq(
	    natnet_message(b, 12, &id, &p, &n, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(id, 7);
	cr_assert_eq(p, b + 4);
	cr_assert_eq(n, 8);
	cr_assert_eq(natnet_message(b, 13, &id, &p, &n, err, sizeof(err)), -1);
	cr_assert_str_eq(err,
	    "message 7: the header says 8 payload bytes, the packet has 9");
	cr_assert_eq(natnet_message(b, 11, &id, &p, &n, err, sizeof(err)), -1);
	cr_assert(strstr(err, "the packet has 7") != NULL, "%s", err);
	cr_assert_eq(natnet_message(b, 3, &id, &p, &n, err, sizeof(err)), -1);
	cr_assert(
	    strstr(err, "shorter than the 4-byte header") != NULL, "%s", err);
	cr_assert_eq(natnet_message(NULL, 0, &id, &p, &n, NULL, 0), -1);
	b[2] = 0;
	cr_assert_eq(natnet_message(b, 4, &id, &p, &n, err, sizeof(err)), 0);
	cr_assert_eq(n, 0);
}

Test(natnet, unsupported_versions_are_refused)
{
	static const struct natnet_version bad[] = { { 2, 5 }, { 1, 9 },
		{ 0, 0 }, { 5, 0 } };
	char err[256];
	size_t i;

	for (i = 0; i < 4; i++) {
		cr_assert_eq(natnet_version_supported(bad[i]), 0);
		cr_assert_eq(
		    frame_exact(frame31 + 4, 277, bad[i], err, sizeof(err)),
		    -1);
		cr_assert(strstr(err, "not decoded") != NULL, "%s", err);
		cr_assert_eq(
		    models_exact(frame31 + 4, 277, bad[i], err, sizeof(err)),
		    -1);
	}
	for (i = 0; i < NVERSIONS; i++)
		cr_assert_eq(natnet_version_supported(versions[i]), 1);
}

Test(natnet, a_frame_of_4_0_may_end_with_or_without_precision)
{
	static struct natnet_fake_body bodies[2];
	const struct natnet_version v = v4_0;
	struct natnet_fake_frame fr;
	const unsigned char *p;
	char err[256] = "";
	size_t len, n;

	make_bodies(bodies, 2);
	memset(&fr, 0, sizeof(fr));
	fr.major = 4;
	fr.nbodies = 2;
	fr.bodies = bodies;
	fr.timestamp = 2.0;
	fr.precision_secs = 77;
	len = natnet_fake_encode_frame(pkt, sizeof(pkt), &fr);
	p = payload_of(pkt, len, NATNET_FRAMEOFDATA, &n);
	cr_assert_eq(frame_exact(p, n, v, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(frame.precision_secs, 0);
	fr.precision = 1;
	len = natnet_fake_encode_frame(pkt, sizeof(pkt), &fr);
	p = payload_of(pkt, len, NATNET_FRAMEOFDATA, &n);
	cr_assert_eq(frame_exact(p, n, v, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(frame.precision_secs, 77);
	/* 3.x has no such stamp: eight more bytes are refused. */
	fr.major = 3;
	fr.minor = 1;
	len = natnet_fake_encode_frame(pkt, sizeof(pkt), &fr);
	p = payload_of(pkt, len, NATNET_FRAMEOFDATA, &n);
	memmove(pkt + 4 + n + 2, pkt + 4 + n - 6, 6); /* flags and tag */
	memset(pkt + 4 + n - 6, 0, 8);
	cr_assert_eq(frame_exact(p, n + 8, v3_1, err, sizeof(err)), -1);
	cr_assert(strstr(err, "8 bytes follow the end-of-data tag") != NULL,
	    "%s", err);
}

/* A NatNet 3.1 description of a marker set and two rigid bodies. */
static const uint8_t models31[] = {
	0x05, 0x00, 0x63, 0x00,        /* MODELDEF, 99 payload bytes */
	0x03, 0x00, 0x00, 0x00,        /* 0: three descriptions */
	0x00, 0x00, 0x00, 0x00,        /* 4: a marker set */
	'm', 's', 0x00,                /* 8: named "ms" */
	0x02, 0x00, 0x00, 0x00,        /* 11: two markers */
	'a', 0x00, 'b', 0x00,          /* 15: named "a" and "b" */
	0x01, 0x00, 0x00, 0x00,        /* 19: a rigid body */
	'D', 'r', 'o', 'n', 'e', 0x00, /* 23: named "Drone" */
	0x05, 0x00, 0x00, 0x00,        /* 29: id 5 */
	0xff, 0xff, 0xff, 0xff,        /* 33: no parent */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00,                   /* 37: offset 0, 0, 0 */
	0x01, 0x00, 0x00, 0x00, /* 49: one marker */
	0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x80,
	0x3f,                   /* 53: at 1, 1, 1 */
	0x00, 0x00, 0x00, 0x00, /* 65: active label 0 */
	0x01, 0x00, 0x00, 0x00, /* 69: a rigid body */
	'W', 0x00,              /* 73: named "W" */
	0x06, 0x00, 0x00, 0x00, /* 75: id 6 */
	0xff, 0xff, 0xff, 0xff, /* 79: no parent */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00,                   /* 83: offset 0, 0, 0 */
	0x00, 0x00, 0x00, 0x00, /* 95: no markers */
};

Test(natnet, hand_assembled_3_1_models)
{
	const struct natnet_version v = v3_1;
	const unsigned char *p;
	char err[256] = "";
	size_t n;

	cr_assert_eq(sizeof(models31), 4 + 99, "the assembly is miscounted");
	p = payload_of(models31, sizeof(models31), NATNET_MODELDEF, &n);
	cr_assert_eq(models_exact(p, n, v, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(models.complete, 1);
	cr_assert_eq(models.datasets, 3);
	cr_assert_eq(models.n, 2);
	cr_assert_eq(models.bodies[0].id, 5);
	cr_assert_str_eq(models.bodies[0].name, "Drone");
	cr_assert_eq(models.bodies[1].id, 6);
	cr_assert_str_eq(models.bodies[1].name, "W");
	/* Cut inside the last body: refused, the first one kept. */
	cr_assert_eq(models_exact(p, 75, v, err, sizeof(err)), -1);
	cr_assert(
	    strstr(err, "description 3 of 3 (rigid body)") != NULL, "%s", err);
	cr_assert_eq(models.n, 1);
	cr_assert_str_eq(models.bodies[0].name, "Drone");
	/* Cut inside a name: no NUL. */
	cr_assert_eq(models_exact(p, 26, v, err, sizeof(err)), -1);
	cr_assert(strstr(err, "no NUL") != NULL, "%s", err);
	/* A marker count of 2^31 - 1 and a negative one. */
	memcpy(pkt, p, n);
	put32(pkt + 49, 0x7fffffff);
	cr_assert_eq(models_exact(pkt, n, v, err, sizeof(err)), -1);
	cr_assert(strstr(err, "marker count 2147483647") != NULL, "%s", err);
	put32(pkt + 49, 0xfffffffe);
	cr_assert_eq(models_exact(pkt, n, v, err, sizeof(err)), -1);
	cr_assert(
	    strstr(err, "marker count -2 is negative") != NULL, "%s", err);
	memcpy(pkt, p, n);
	put32(pkt, 0x7fffffff);
	cr_assert_eq(models_exact(pkt, n, v, err, sizeof(err)), -1);
	cr_assert(
	    strstr(err, "description count 2147483647") != NULL, "%s", err);
	/* An unknown kind stops it, keeping what came before. */
	memcpy(pkt, p, n);
	put32(pkt + 69, 77);
	cr_assert_eq(models_exact(pkt, n, v, err, sizeof(err)), 0);
	cr_assert_eq(models.complete, 0);
	cr_assert_eq(models.n, 1);
	cr_assert(
	    strstr(err, "description 3 of 3 is of kind 77") != NULL, "%s", err);
}

Test(natnet, models_round_trip_every_version)
{
	static const int counts[] = { 0, 1, 3, NATNET_MAX_BODIES + 5 };
	static struct natnet_fake_model m[NATNET_MAX_BODIES + 5];
	static char names[NATNET_MAX_BODIES + 5][32];
	struct natnet_fake_models fm;
	const unsigned char *p;
	char err[256];
	size_t vi, ci, len, n;
	int extras, i, nb, kept, extra_sets;

	for (i = 0; i < NATNET_MAX_BODIES + 5; i++) {
		snprintf(names[i], sizeof(names[i]), "body-%d", i);
		m[i].id = 2 * i + 1;
		m[i].name = names[i];
	}
	for (vi = 0; vi < NVERSIONS; vi++)
		for (extras = 0; extras < 2; extras++)
			for (ci = 0; ci < 4; ci++) {
				struct natnet_version v = versions[vi];

				nb = counts[ci];
				memset(&fm, 0, sizeof(fm));
				fm.major = v.major;
				fm.minor = v.minor;
				fm.n = nb;
				fm.bodies = m;
				fm.extras = extras;
				len = natnet_fake_encode_models(
				    pkt, sizeof(pkt), &fm);
				cr_assert_gt(len, 0);
				p = payload_of(pkt, len, NATNET_MODELDEF, &n);
				err[0] = '\0';
				cr_assert_eq(
				    models_exact(p, n, v, err, sizeof(err)), 0,
				    "%d.%d, %d bodies: %s", v.major, v.minor,
				    nb, err);
				extra_sets = extras ? v.major >= 3 ? 5 : 3 : 0;
				cr_assert_eq(models.complete, 1, "%s", err);
				cr_assert_eq(models.datasets, nb + extra_sets);
				kept = nb < NATNET_MAX_BODIES ?
				    nb :
				    NATNET_MAX_BODIES;
				cr_assert_eq(models.n, kept);
				cr_assert_eq(models.bodies_dropped, nb - kept);
				for (i = 0; i < kept; i++) {
					cr_assert_eq(
					    models.bodies[i].id, m[i].id);
					cr_assert_str_eq(
					    models.bodies[i].name, m[i].name);
				}
			}
}

Test(natnet, an_unknown_description_stops_before_4_1_only)
{
	static const struct natnet_fake_model m[3] = { { 1, "one" },
		{ 2, "two" }, { 3, "three" } };
	struct natnet_fake_models fm;
	const unsigned char *p;
	char err[256];
	size_t vi, len, n;

	for (vi = 0; vi < NVERSIONS; vi++) {
		struct natnet_version v = versions[vi];

		memset(&fm, 0, sizeof(fm));
		fm.major = v.major;
		fm.minor = v.minor;
		fm.n = 3;
		fm.bodies = m;
		fm.extras = 1;
		fm.unknown_kind = 42;
		fm.unknown_after = 2;
		len = natnet_fake_encode_models(pkt, sizeof(pkt), &fm);
		p = payload_of(pkt, len, NATNET_MODELDEF, &n);
		err[0] = '\0';
		cr_assert_eq(
		    models_exact(p, n, v, err, sizeof(err)), 0, "%s", err);
		if (v.major > 4 || (v.major == 4 && v.minor >= 1)) {
			cr_assert_eq(models.complete, 1, "%s", err);
			cr_assert_eq(models.n, 3);
			cr_assert_str_eq(models.bodies[2].name, "three");
		} else {
			cr_assert_eq(models.complete, 0);
			cr_assert_eq(models.n, 2);
			cr_assert_str_eq(models.bodies[1].name, "two");
			cr_assert(strstr(err, "kind 42") != NULL, "%s", err);
		}
	}
}

Test(natnet, long_names_are_cut)
{
	struct natnet_fake_model m;
	struct natnet_fake_models fm;
	const unsigned char *p;
	char name[600], err[256] = "";
	size_t len, n;

	memset(name, 'x', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	m.id = 9;
	m.name = name;
	memset(&fm, 0, sizeof(fm));
	fm.major = 3;
	fm.minor = 0;
	fm.n = 1;
	fm.bodies = &m;
	len = natnet_fake_encode_models(pkt, sizeof(pkt), &fm);
	p = payload_of(pkt, len, NATNET_MODELDEF, &n);
	cr_assert_eq(models_exact(p, n, v3_0, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(strlen(models.bodies[0].name), NATNET_NAME_MAX - 1);
	cr_assert_eq(models.bodies[0].id, 9, "the id after the name is read");
}

Test(natnet, every_truncated_description_is_refused)
{
	static const struct natnet_fake_model m[2] = { { 4, "a" },
		{ 8, "bb" } };
	struct natnet_fake_models fm;
	const unsigned char *p;
	char err[256];
	size_t vi, len, n, k;

	for (vi = 0; vi < NVERSIONS; vi++) {
		struct natnet_version v = versions[vi];

		memset(&fm, 0, sizeof(fm));
		fm.major = v.major;
		fm.minor = v.minor;
		fm.n = 2;
		fm.bodies = m;
		fm.extras = 1;
		len = natnet_fake_encode_models(pkt, sizeof(pkt), &fm);
		p = payload_of(pkt, len, NATNET_MODELDEF, &n);
		for (k = 0; k < n; k++) {
			err[0] = '\0';
			cr_assert_eq(models_exact(p, k, v, err, sizeof(err)),
			    -1, "%d.%d: %zu of %zu bytes", v.major, v.minor, k,
			    n);
			cr_assert_neq(err[0], '\0');
			cr_assert_leq(models.n, 2);
		}
	}
}

Test(natnet, server_info)
{
	struct natnet_fake_config c;
	struct natnet_server s;
	struct natnet_version v;
	const unsigned char *p;
	char err[256] = "", app[300];
	size_t len, n, k;

	memset(&c, 0, sizeof(c));
	c.major = 4;
	c.minor = 1;
	c.app = "Motive";
	c.app_version[0] = 3;
	c.app_version[1] = 1;
	c.app_version[2] = 4;
	c.data_port = 9000;
	c.multicast = 1;
	c.group = "239.1.2.3";
	c.clock_frequency = 2500000;
	len = natnet_fake_encode_server(pkt, sizeof(pkt), &c);
	p = payload_of(pkt, len, NATNET_SERVERINFO, &n);
	cr_assert_eq(n, 279);
	cr_assert_eq(
	    natnet_parse_server(p, n, &s, err, sizeof(err)), 0, "%s", err);
	cr_assert_str_eq(s.app, "Motive");
	cr_assert_eq(s.app_version[0], 3);
	cr_assert_eq(s.app_version[2], 4);
	v = natnet_server_version(&s);
	cr_assert_eq(v.major, 4);
	cr_assert_eq(v.minor, 1);
	cr_assert_eq(s.has_connection_info, 1);
	cr_assert_eq(s.clock_frequency, 2500000);
	cr_assert_eq(s.data_port, 9000);
	cr_assert_eq(s.multicast, 1);
	cr_assert_str_eq(s.multicast_address, "239.1.2.3");
	cr_assert_eq(s.multicast_group[0], 239);
	cr_assert_eq(s.multicast_group[3], 3);
	/* Before 3.0, no connection info; a cut one is not there either. */
	for (k = 264; k < n; k++) {
		cr_assert_eq(
		    natnet_parse_server(p, k, &s, err, sizeof(err)), 0);
		cr_assert_eq(s.has_connection_info, 0);
		cr_assert_eq(s.data_port, 0);
		cr_assert_str_eq(s.app, "Motive");
	}
	for (k = 0; k < 264; k++) {
		err[0] = '\0';
		cr_assert_eq(
		    natnet_parse_server(p, k, &s, err, sizeof(err)), -1);
		cr_assert(strstr(err, "at least 264") != NULL, "%s", err);
	}
	c.major = 2;
	c.minor = 9;
	len = natnet_fake_encode_server(pkt, sizeof(pkt), &c);
	p = payload_of(pkt, len, NATNET_SERVERINFO, &n);
	cr_assert_eq(n, 264);
	cr_assert_eq(natnet_parse_server(p, n, &s, err, sizeof(err)), 0);
	cr_assert_eq(natnet_server_version(&s).minor, 9);
	cr_assert_eq(s.has_connection_info, 0);
	/* A name that fills its field has no NUL: it is cut. */
	memset(app, 'M', sizeof(app) - 1);
	app[sizeof(app) - 1] = '\0';
	c.app = app;
	len = natnet_fake_encode_server(pkt, sizeof(pkt), &c);
	p = payload_of(pkt, len, NATNET_SERVERINFO, &n);
	cr_assert_eq(natnet_parse_server(p, n, &s, err, sizeof(err)), 0);
	cr_assert_eq(strlen(s.app), NATNET_NAME_MAX - 1);
	cr_assert_eq(natnet_server_version(&s).major, 2);
}

/* A server info written by hand: "Motive" 2.3.0.0 streaming NatNet 3.1
 * multicast to 239.255.42.99:1511, clock 10 MHz. */
Test(natnet, hand_assembled_server_info)
{
	static const uint8_t tail[] = {
		0x02, 0x03, 0x00, 0x00, /* 256: Motive 2.3.0.0 */
		0x03, 0x01, 0x00, 0x00, /* 260: NatNet 3.1.0.0 */
		0x80, 0x96, 0x98, 0x00, 0x00, 0x00, 0x00,
		0x00,                   /* 264: 10 MHz */
		0xe7, 0x05,             /* 272: data port 1511 */
		0x01,                   /* 274: multicast */
		0xef, 0xff, 0x2a, 0x63, /* 275: 239.255.42.99 */
	};
	unsigned char p[279];
	struct natnet_server s;
	char err[256] = "";

	memset(p, 0, sizeof(p));
	memcpy(p, "Motive", 6);
	memcpy(p + 256, tail, sizeof(tail));
	cr_assert_eq(natnet_parse_server(p, sizeof(p), &s, err, sizeof(err)), 0,
	    "%s", err);
	cr_assert_str_eq(s.app, "Motive");
	cr_assert_eq(s.app_version[1], 3);
	cr_assert_eq(natnet_server_version(&s).major, 3);
	cr_assert_eq(natnet_server_version(&s).minor, 1);
	cr_assert_eq(s.clock_frequency, 10000000);
	cr_assert_eq(s.data_port, NATNET_DATA_PORT);
	cr_assert_eq(s.multicast, 1);
	cr_assert_str_eq(s.multicast_address, NATNET_MULTICAST_GROUP);
}

Test(natnet, requests)
{
	unsigned char b[512];
	size_t len;

	len = natnet_request(b, sizeof(b), NATNET_KEEPALIVE, NULL);
	cr_assert_eq(len, 4);
	cr_assert(b[0] == 10 && b[1] == 0 && b[2] == 0 && b[3] == 0);
	len = natnet_request(b, sizeof(b), NATNET_REQUEST_MODELDEF, NULL);
	cr_assert_eq(len, 4);
	cr_assert_eq(b[0], 4);
	len = natnet_request(b, sizeof(b), NATNET_REQUEST, "Bitstream,3.1");
	cr_assert_eq(len, 4 + 14);
	cr_assert(b[0] == 2 && b[1] == 0 && b[2] == 14 && b[3] == 0);
	cr_assert_str_eq((const char *)b + 4, "Bitstream,3.1");
	cr_assert_eq(natnet_request(b, 17, NATNET_REQUEST, "Bitstream,3.1"), 0,
	    "one byte short");
	cr_assert_eq(natnet_request(b, 3, NATNET_KEEPALIVE, NULL), 0);
	cr_assert_eq(natnet_request(b, sizeof(b), 70000, NULL), 0);
	len = natnet_request(b, sizeof(b), NATNET_CONNECT, "hx-mocap");
	cr_assert_eq(len, 4 + 273);
	cr_assert(b[0] == 0 && b[1] == 0 && b[2] == (273 & 0xff) &&
	    b[3] == (273 >> 8));
	cr_assert_str_eq((const char *)b + 4, "hx-mocap");
	cr_assert_eq(b[4 + 260], 0, "the server's own version");
	cr_assert_eq(natnet_request(b, 276, NATNET_CONNECT, NULL), 0);
	len = natnet_connect_request(b, sizeof(b), NULL, v4_1);
	cr_assert_eq(len, 4 + 273);
	cr_assert_eq(b[4], 0);
	cr_assert(b[4 + 260] == 4 && b[4 + 261] == 1, "the sender's version");
	cr_assert(b[4 + 264] == 0, "all data, not only subscribed");
	cr_assert(b[4 + 265] == 4 && b[4 + 266] == 1, "the version asked for");
}

/* Flip some bytes of a copy of a packet's payload and decode it as
 * every kind, from a buffer of its exact size. */
static void
flip_and_decode(const unsigned char *p, size_t n, struct natnet_version v,
    uint64_t seed, int round)
{
	unsigned char *copy = malloc(n);
	struct natnet_server s;
	char err[256];
	uint64_t r;
	int flips, k, rc;

	cr_assert_not_null(copy);
	memcpy(copy, p, n);
	r = hx_mix64(seed, (uint64_t)round, 0);
	flips = 1 + (int)(r % 8);
	for (k = 0; k < flips; k++) {
		r = hx_mix64(seed, (uint64_t)round, (uint64_t)k + 1);
		copy[(r >> 8) % n] = (unsigned char)r;
	}
	/* Keep it short now and then, to fault the ends too. */
	if (r >> 60 == 0)
		n = (size_t)(r >> 16) % n;
	err[0] = '\0';
	rc = natnet_parse_frame(copy, n, v, &frame, err, sizeof(err));
	cr_assert(rc == 0 || (rc == -1 && err[0] != '\0'));
	if (rc == 0) {
		cr_assert(
		    frame.nbodies >= 0 && frame.nbodies <= NATNET_MAX_BODIES);
		cr_assert(frame.bodies_dropped >= 0);
		for (k = 0; k < frame.nbodies; k++)
			cr_assert(isfinite(frame.bodies[k].pos[0]) &&
			    isfinite(frame.bodies[k].quat[0]));
	}
	err[0] = '\0';
	rc = natnet_parse_models(copy, n, v, &models, err, sizeof(err));
	cr_assert(rc == 0 || (rc == -1 && err[0] != '\0'));
	cr_assert(models.n >= 0 && models.n <= NATNET_MAX_BODIES);
	if (rc == 0)
		cr_assert(models.complete || err[0] != '\0');
	rc = natnet_parse_server(copy, n, &s, err, sizeof(err));
	cr_assert(rc == 0 || rc == -1);
	cr_assert(strlen(s.app) < NATNET_NAME_MAX);
	free(copy);
}

Test(natnet, random_byte_flips_never_crash)
{
	static struct natnet_fake_body bodies[5];
	static const struct natnet_fake_model m[3] = { { 1, "one" },
		{ 2, "two" }, { 3, "three" } };
	struct natnet_fake_frame fr;
	struct natnet_fake_models fm;
	const unsigned char *p;
	size_t vi, len, n;
	int round, decoded = 0;

	make_bodies(bodies, 5);
	for (vi = 0; vi < NVERSIONS; vi++) {
		struct natnet_version v = versions[vi];

		memset(&fr, 0, sizeof(fr));
		fr.major = v.major;
		fr.minor = v.minor;
		fr.nbodies = 5;
		fr.bodies = bodies;
		fr.extras = 1;
		fr.precision = (int)vi & 1;
		len = natnet_fake_encode_frame(pkt, sizeof(pkt), &fr);
		p = payload_of(pkt, len, NATNET_FRAMEOFDATA, &n);
		for (round = 0; round < 250; round++, decoded++)
			flip_and_decode(p, n, v, 0x4e61744e6574 + vi, round);
		memset(&fm, 0, sizeof(fm));
		fm.major = v.major;
		fm.minor = v.minor;
		fm.n = 3;
		fm.bodies = m;
		fm.extras = 1;
		len = natnet_fake_encode_models(pkt, sizeof(pkt), &fm);
		p = payload_of(pkt, len, NATNET_MODELDEF, &n);
		for (round = 0; round < 250; round++, decoded++)
			flip_and_decode(p, n, v, 0x6d6f64656c73 + vi, round);
	}
	/* And the hand-made frames, flipped harder. */
	for (round = 0; round < 500; round++, decoded++) {
		flip_and_decode(frame31 + 4, 277, v3_1, 31, round);
		flip_and_decode(frame41 + 4, 191, v4_1, 41, round);
	}
	cr_assert_eq(decoded, (int)NVERSIONS * 500 + 500);
}

/* A UDP socket on 127.0.0.1, an ephemeral port; its port in *port. */
static int
udp_socket(int *port)
{
	struct sockaddr_in sa;
	socklen_t salen = sizeof(sa);
	int fd;

	fd = socket(AF_INET, SOCK_DGRAM, 0);
	cr_assert_geq(fd, 0);
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	cr_assert_eq(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	cr_assert_eq(getsockname(fd, (struct sockaddr *)&sa, &salen), 0);
	*port = ntohs(sa.sin_port);
	return fd;
}

/* Send bytes to the fake's command port. */
static void
udp_send(int fd, int port, const void *b, size_t len)
{
	struct sockaddr_in sa;

	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sa.sin_port = htons((uint16_t)port);
	cr_assert_eq(sendto(fd, b, len, 0, (struct sockaddr *)&sa, sizeof(sa)),
	    (ssize_t)len);
}

/* Receive a datagram within timeout_ms; its length, or 0 if none came. */
static size_t
udp_recv(int fd, unsigned char *b, size_t cap, int timeout_ms)
{
	struct pollfd pfd = { fd, POLLIN, 0 };
	ssize_t n;

	if (poll(&pfd, 1, timeout_ms) != 1)
		return 0;
	n = recv(fd, b, cap, 0);
	cr_assert_gt(n, 0);
	return (size_t)n;
}

/*
 * Connect to the fake f's command port cport from fd (bound to port):
 * the server info, and the client remembered.  Returns the version.
 */
static struct natnet_version
expect_connect(struct natnet_fake *f, int fd, int cport, int port)
{
	struct natnet_server s;
	struct natnet_version v;
	const unsigned char *p;
	unsigned char req[512];
	char err[256] = "", host[64];
	size_t len, n;
	int id;

	len = natnet_request(req, sizeof(req), NATNET_CONNECT, "test");
	udp_send(fd, cport, req, len);
	len = udp_recv(fd, pkt, sizeof(pkt), 5000);
	p = payload_of(pkt, len, NATNET_SERVERINFO, &n);
	cr_assert_eq(
	    natnet_parse_server(p, n, &s, err, sizeof(err)), 0, "%s", err);
	cr_assert_str_eq(s.app, "Motive");
	v = natnet_server_version(&s);
	cr_assert(v.major == 4 && v.minor == 1);
	cr_assert_eq(s.has_connection_info, 1);
	cr_assert_eq(s.multicast, 0);
	cr_assert_eq(s.data_port, NATNET_DATA_PORT);
	cr_assert_str_eq(s.multicast_address, NATNET_MULTICAST_GROUP);
	cr_assert_eq(natnet_fake_client(f, host, sizeof(host), &id), 1);
	cr_assert_str_eq(host, "127.0.0.1");
	cr_assert_eq(id, port);
	return v;
}

/*
 * The model definitions of the fake f, asked for from fd; keep-alives
 * counted and not answered.
 */
static void
expect_models_and_keepalives(
    struct natnet_fake *f, int fd, int cport, struct natnet_version v)
{
	const unsigned char *p;
	unsigned char req[512];
	char err[256] = "";
	size_t len, n;

	/* The model definitions. */
	len = natnet_request(req, sizeof(req), NATNET_REQUEST_MODELDEF, NULL);
	udp_send(fd, cport, req, len);
	len = udp_recv(fd, pkt, sizeof(pkt), 5000);
	p = payload_of(pkt, len, NATNET_MODELDEF, &n);
	cr_assert_eq(natnet_parse_models(p, n, v, &models, err, sizeof(err)), 0,
	    "%s", err);
	cr_assert_eq(models.n, 2);
	cr_assert_eq(models.bodies[0].id, 3);
	cr_assert_str_eq(models.bodies[0].name, "Drone");
	cr_assert_str_eq(models.bodies[1].name, "Wand");

	/* Keep-alives are counted and not answered. */
	len = natnet_request(req, sizeof(req), NATNET_KEEPALIVE, NULL);
	udp_send(fd, cport, req, len);
	udp_send(fd, cport, req, len);
	cr_assert(natnet_fake_wait_requests(f, NATNET_KEEPALIVE, 2, 5000));
	cr_assert_eq(udp_recv(fd, pkt, sizeof(pkt), 200), 0);
	cr_assert_eq(natnet_fake_requests(f, NATNET_CONNECT), 1);
	cr_assert_eq(natnet_fake_requests(f, NATNET_REQUEST_MODELDEF), 1);
	cr_assert_eq(natnet_fake_requests(f, NATNET_KEEPALIVE), 2);
	cr_assert_eq(natnet_fake_requests(f, NATNET_REQUEST), 0);
}

/*
 * The fake f's frames fr: unicast to fd that connected, to any address
 * (fd2 on port2), and the last one sent when asked for.
 */
static void
expect_frames_sent(struct natnet_fake *f, int fd, int fd2, int port2, int cport,
    struct natnet_version v, struct natnet_fake_frame *fr,
    const struct natnet_fake_body *bodies)
{
	const unsigned char *p;
	unsigned char req[512];
	char err[256] = "";
	size_t len, n;

	/* Unicast: the frame comes to the socket that connected. */
	cr_assert_eq(natnet_fake_send_frame(f, NULL, 0, fr), 0);
	len = udp_recv(fd, pkt, sizeof(pkt), 5000);
	p = payload_of(pkt, len, NATNET_FRAMEOFDATA, &n);
	cr_assert_eq(natnet_parse_frame(p, n, v, &frame, err, sizeof(err)), 0,
	    "%s", err);
	cr_assert_eq(frame.frame_number, 77);
	cr_assert_eq(frame.nbodies, 2);
	cr_assert_eq(frame.bodies[1].id, bodies[1].id);
	cr_assert_eq(frame.bodies[1].quat[0], f32(bodies[1].quat[0]));

	/* Or to any address. */
	fr->frame_number = 78;
	cr_assert_eq(natnet_fake_send_frame(f, "127.0.0.1", port2, fr), 0);
	len = udp_recv(fd2, pkt, sizeof(pkt), 5000);
	p = payload_of(pkt, len, NATNET_FRAMEOFDATA, &n);
	cr_assert_eq(natnet_parse_frame(p, n, v, &frame, err, sizeof(err)), 0,
	    "%s", err);
	cr_assert_eq(frame.frame_number, 78);

	/* A frame asked for is the last one sent. */
	len = natnet_request(
	    req, sizeof(req), NATNET_REQUEST_FRAMEOFDATA, NULL);
	udp_send(fd, cport, req, len);
	len = udp_recv(fd, pkt, sizeof(pkt), 5000);
	p = payload_of(pkt, len, NATNET_FRAMEOFDATA, &n);
	cr_assert_eq(natnet_parse_frame(p, n, v, &frame, err, sizeof(err)), 0,
	    "%s", err);
	cr_assert_eq(frame.frame_number, 78);
}

/* A command to the fake f has an answer; an unknown request is refused. */
static void
expect_command_answers(struct natnet_fake *f, int fd, int cport)
{
	unsigned char req[512];
	size_t len, n;

	len = natnet_request(req, sizeof(req), NATNET_REQUEST, "Bitstream");
	udp_send(fd, cport, req, len);
	len = udp_recv(fd, pkt, sizeof(pkt), 5000);
	payload_of(pkt, len, NATNET_RESPONSE, &n);
	cr_assert_eq(n, 4);
	len = natnet_request(req, sizeof(req), 55, NULL);
	udp_send(fd, cport, req, len);
	len = udp_recv(fd, pkt, sizeof(pkt), 5000);
	payload_of(pkt, len, NATNET_UNRECOGNIZED_REQUEST, &n);
	cr_assert_eq(natnet_fake_requests(f, 55), 1);
}

Test(natnet, fake_server_answers_over_udp)
{
	static const struct natnet_fake_model m[2] = { { 3, "Drone" },
		{ 7, "Wand" } };
	static struct natnet_fake_body bodies[2];
	struct natnet_fake_config c;
	struct natnet_fake_frame fr;
	struct natnet_fake *f;
	struct natnet_version v;
	const unsigned char *p;
	unsigned char req[512];
	char err[256] = "", host[64];
	size_t len, n;
	int fd, fd2, port, port2, cport, id;

	memset(&c, 0, sizeof(c));
	c.major = 4;
	c.minor = 1;
	c.models = m;
	c.nmodels = 2;
	c.extras = 1;
	f = natnet_fake_start(&c);
	cport = natnet_fake_command_port(f);
	cr_assert_gt(cport, 0);
	fd = udp_socket(&port);
	fd2 = udp_socket(&port2);
	make_bodies(bodies, 2);
	memset(&fr, 0, sizeof(fr));
	fr.frame_number = 77;
	fr.nbodies = 2;
	fr.bodies = bodies;
	fr.extras = 1;
	cr_assert_eq(natnet_fake_send_frame(f, NULL, 0, &fr), -1,
	    "no client to unicast to yet");
	cr_assert_eq(natnet_fake_client(f, host, sizeof(host), &id), 0);

	v = expect_connect(f, fd, cport, port);
	expect_models_and_keepalives(f, fd, cport, v);
	expect_frames_sent(f, fd, fd2, port2, cport, v, &fr, bodies);

	expect_command_answers(f, fd, cport);

	/* Raw bytes go out as they are. */
	cr_assert_eq(
	    natnet_fake_send_raw(f, NULL, 0, "\x07\x00\x09\x00", 4), 0);
	len = udp_recv(fd, pkt, sizeof(pkt), 5000);
	cr_assert_eq(len, 4);
	cr_assert_eq(
	    natnet_message(pkt, len, &id, &p, &n, err, sizeof(err)), -1);

	/* A client that disconnects is forgotten. */
	len = natnet_request(req, sizeof(req), NATNET_DISCONNECT, NULL);
	udp_send(fd, cport, req, len);
	cr_assert(natnet_fake_wait_requests(f, NATNET_DISCONNECT, 1, 5000));
	cr_assert_eq(natnet_fake_send_frame(f, NULL, 0, &fr), -1);
	natnet_fake_stop(f);
	natnet_fake_stop(NULL);
	close(fd);
	close(fd2);
}

Test(natnet, fake_server_speaks_older_versions)
{
	static const struct natnet_fake_model m[1] = { { 12, "Rigid" } };
	struct natnet_fake_config c;
	struct natnet_fake *f;
	struct natnet_server s;
	const unsigned char *p;
	unsigned char req[512];
	char err[256] = "";
	size_t len, n;
	int fd, port, cport;

	memset(&c, 0, sizeof(c));
	c.major = 2;
	c.minor = 9;
	c.app = "Motive";
	c.models = m;
	c.nmodels = 1;
	f = natnet_fake_start(&c);
	cport = natnet_fake_command_port(f);
	fd = udp_socket(&port);
	len = natnet_request(req, sizeof(req), NATNET_CONNECT, NULL);
	udp_send(fd, cport, req, len);
	len = udp_recv(fd, pkt, sizeof(pkt), 5000);
	p = payload_of(pkt, len, NATNET_SERVERINFO, &n);
	cr_assert_eq(natnet_parse_server(p, n, &s, err, sizeof(err)), 0);
	cr_assert_eq(s.has_connection_info, 0);
	cr_assert_eq(natnet_server_version(&s).minor, 9);
	len = natnet_request(req, sizeof(req), NATNET_REQUEST_MODELDEF, NULL);
	udp_send(fd, cport, req, len);
	len = udp_recv(fd, pkt, sizeof(pkt), 5000);
	p = payload_of(pkt, len, NATNET_MODELDEF, &n);
	cr_assert_eq(natnet_parse_models(p, n, natnet_server_version(&s),
			 &models, err, sizeof(err)),
	    0, "%s", err);
	cr_assert_eq(models.n, 1);
	cr_assert_str_eq(models.bodies[0].name, "Rigid");
	natnet_fake_stop(f);
	close(fd);
}
