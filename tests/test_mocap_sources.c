/*
 * Unit tests of hx-mocap's sources (clients/mocap_udp.c, mocap_csv.c) and
 * of its axis conventions (clients/mocap_axes.c); docs/drivers.md is the
 * specification they check.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "mocap.h"
#include "scratch.h"

#define ERRLEN 256

TestSuite(mocap_sources, .timeout = 10);

/* Parse a NUL-terminated text datagram. */
static int
parse_text(const char *text, struct mocap_sample *out, int max, char *err)
{
	err[0] = '\0';
	return mocap_udp_parse(text, strlen(text), out, max, err, ERRLEN);
}

/*
 * A datagram of len bytes must be refused with a reason holding want; it
 * is copied to a buffer of exactly len bytes, so over-reads show.
 */
static void
expect_refused(const void *buf, size_t len, int max, const char *want)
{
	struct mocap_sample out[4];
	char err[ERRLEN] = "";
	void *copy;

	copy = malloc(len > 0 ? len : 1);
	cr_assert_not_null(copy);
	memcpy(copy, buf, len);
	cr_assert_eq(mocap_udp_parse(copy, len, out, max, err, sizeof(err)), -1,
	    "a datagram of %zu bytes wanting '%s' was taken", len, want);
	cr_assert_not_null(strstr(err, want), "got '%s', want '%s'", err, want);
	free(copy);
}

/* The same for a NUL-terminated text datagram. */
static void
expect_text_refused(const char *text, const char *want)
{
	expect_refused(text, strlen(text), 4, want);
}

/* A sample with the given name and pose. */
static struct mocap_sample
sample(const char *name, double time, double x, double y, double z, double qw,
    double qx, double qy, double qz)
{
	struct mocap_sample s;

	memset(&s, 0, sizeof(s));
	snprintf(s.name, sizeof(s.name), "%s", name);
	s.id = -1;
	s.time = time;
	s.pos[0] = x;
	s.pos[1] = y;
	s.pos[2] = z;
	s.quat[0] = qw;
	s.quat[1] = qx;
	s.quat[2] = qy;
	s.quat[3] = qz;
	return s;
}

/* Two samples must be the same to the bit (times may both be NaN). */
static void
expect_same(const struct mocap_sample *a, const struct mocap_sample *b)
{
	int i;

	cr_assert_str_eq(a->name, b->name);
	cr_assert_eq(a->id, b->id);
	if (isnan(b->time))
		cr_assert(
		    isnan(a->time), "%s: time %g, want none", a->name, a->time);
	else
		cr_assert_eq(hx_bits(a->time), hx_bits(b->time),
		    "%s: time %.17g, want %.17g", a->name, a->time, b->time);
	for (i = 0; i < 3; i++)
		cr_assert_eq(hx_bits(a->pos[i]), hx_bits(b->pos[i]),
		    "%s: pos[%d] %.17g, want %.17g", a->name, i, a->pos[i],
		    b->pos[i]);
	for (i = 0; i < 4; i++)
		cr_assert_eq(hx_bits(a->quat[i]), hx_bits(b->quat[i]),
		    "%s: quat[%d] %.17g, want %.17g", a->name, i, a->quat[i],
		    b->quat[i]);
}

/* A quaternion's distance from the given one, part by part. */
static void
expect_quat(const double q[4], double w, double x, double y, double z)
{
	const double want[4] = { w, x, y, z };
	int i;

	for (i = 0; i < 4; i++)
		cr_assert(fabs(q[i] - want[i]) < 1e-12,
		    "quat (%.17g %.17g %.17g %.17g), want (%g %g %g %g)", q[0],
		    q[1], q[2], q[3], w, x, y, z);
}

/* A unit quaternion's rotation matrix. */
static void
quat_matrix(const double q[4], double r[3][3])
{
	double w = q[0], x = q[1], y = q[2], z = q[3];

	r[0][0] = 1 - 2 * (y * y + z * z);
	r[0][1] = 2 * (x * y - w * z);
	r[0][2] = 2 * (x * z + w * y);
	r[1][0] = 2 * (x * y + w * z);
	r[1][1] = 1 - 2 * (x * x + z * z);
	r[1][2] = 2 * (y * z - w * x);
	r[2][0] = 2 * (x * z - w * y);
	r[2][1] = 2 * (y * z + w * x);
	r[2][2] = 1 - 2 * (x * x + y * y);
}

/* A 3x3 determinant. */
static double
det3(const double m[3][3])
{
	return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
	    m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
	    m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
}

Test(mocap_sources, text_one_pose)
{
	struct mocap_sample out[2];
	char err[ERRLEN];

	cr_assert_eq(
	    parse_text("hand 1.5 0.1 -0.2 3e-1 1 0 0 0\n", out, 2, err), 1,
	    "%s", err);
	cr_assert_str_eq(out[0].name, "hand");
	cr_assert_eq(out[0].id, -1);
	cr_assert_eq(out[0].time, 1.5);
	cr_assert_eq(out[0].pos[0], 0.1);
	cr_assert_eq(out[0].pos[1], -0.2);
	cr_assert_eq(out[0].pos[2], 0.3);
	expect_quat(out[0].quat, 1, 0, 0, 0);
}

Test(mocap_sources, text_several_poses_comments_blanks_crlf)
{
	static const char text[] = "# a bridge's datagram\n"
				   "\n"
				   "hand 0 1 2 3 1 0 0 0\r\n"
				   "\tfoot\t-\t4  5 6 0 1 0 0   \n"
				   "   # an indented comment\n"
				   "  \t \r\n"
				   "x#y 2 7 8 9 0 0 0 1";
	struct mocap_sample out[4];
	char err[ERRLEN];

	cr_assert_eq(parse_text(text, out, 4, err), 3, "%s", err);
	cr_assert_str_eq(out[0].name, "hand");
	cr_assert_eq(out[0].time, 0);
	cr_assert_eq(out[0].pos[2], 3);
	cr_assert_str_eq(out[1].name, "foot");
	cr_assert(isnan(out[1].time), "'-' is no time");
	cr_assert_eq(out[1].pos[0], 4);
	cr_assert_eq(out[1].pos[1], 5);
	expect_quat(out[1].quat, 0, 1, 0, 0);
	cr_assert_str_eq(out[2].name, "x#y", "# inside a name is no comment");
	cr_assert_eq(out[2].time, 2);
	expect_quat(out[2].quat, 0, 0, 0, 1);
}

Test(mocap_sources, text_of_comments_only_has_no_pose)
{
	struct mocap_sample out[1];
	char err[ERRLEN];

	cr_assert_eq(
	    parse_text("# nothing\n\n   \n", out, 1, err), 0, "%s", err);
	cr_assert_eq(parse_text("\n", out, 1, err), 0, "%s", err);
}

Test(mocap_sources, text_quaternion_is_normalised)
{
	struct mocap_sample out[1];
	char err[ERRLEN];

	cr_assert_eq(
	    parse_text("a 0 0 0 0 2 0 0 0", out, 1, err), 1, "%s", err);
	expect_quat(out[0].quat, 1, 0, 0, 0);
	cr_assert_eq(
	    parse_text("a 0 0 0 0 1 1 1 1", out, 1, err), 1, "%s", err);
	expect_quat(out[0].quat, 0.5, 0.5, 0.5, 0.5);
	cr_assert_eq(
	    parse_text("a 0 0 0 0 0 0 -3 4", out, 1, err), 1, "%s", err);
	expect_quat(out[0].quat, 0, 0, -0.6, 0.8);
	cr_assert_eq(
	    parse_text("a 0 0 0 0 1e300 1e300 0 0", out, 1, err), 1, "%s", err);
	expect_quat(out[0].quat, sqrt(0.5), sqrt(0.5), 0, 0);
	cr_assert_eq(
	    parse_text("a 0 0 0 0 0 1e-310 0 0", out, 1, err), 1, "%s", err);
	expect_quat(out[0].quat, 0, 1, 0, 0);
}

Test(mocap_sources, text_numbers_as_strtod_reads_them)
{
	struct mocap_sample out[1];
	char err[ERRLEN];

	cr_assert_eq(
	    parse_text("a -1e3 +2 0x10 .5 1 0 0 0", out, 1, err), 1, "%s", err);
	cr_assert_eq(out[0].time, -1000);
	cr_assert_eq(out[0].pos[0], 2);
	cr_assert_eq(out[0].pos[1], 16);
	cr_assert_eq(out[0].pos[2], 0.5);
}

Test(mocap_sources, text_name_of_63_bytes_is_the_longest)
{
	struct mocap_sample out[1];
	char text[200], name[70], err[ERRLEN];

	memset(name, 'n', 63);
	name[63] = '\0';
	snprintf(text, sizeof(text), "%s 0 0 0 0 1 0 0 0", name);
	cr_assert_eq(parse_text(text, out, 1, err), 1, "%s", err);
	cr_assert_str_eq(out[0].name, name);
	snprintf(text, sizeof(text), "%sn 0 0 0 0 1 0 0 0", name);
	expect_text_refused(text, "line 1: name of 64 bytes is longer than 63");
}

Test(mocap_sources, text_rejections_say_what_and_where)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{ "a 0 0 0 0 1 0 0\n", "line 1: 8 fields, expected 9" },
		{ "a 0 0 0 0 1 0 0 0 0", "line 1: 10 fields, expected 9" },
		{ "a\n", "line 1: 1 field, expected 9" },
		{ "a 0 abc 0 0 1 0 0 0",
		    "line 1: field x: 'abc' is not a number" },
		{ "a 0 0 1.5m 0 1 0 0 0",
		    "line 1: field y: '1.5m' is not a number" },
		{ "a 0 0 0 0 1 0 0 0\n\nb 0 0 0 nan 1 0 0 0",
		    "line 3: field z: 'nan' is not finite" },
		{ "a 0 0 0 0 inf 0 0 0",
		    "line 1: field qw: 'inf' is not finite" },
		{ "a 0 0 0 0 1 -Infinity 0 0",
		    "line 1: field qx: '-Infinity' is not finite" },
		{ "a 0 0 0 0 1 0 1e999 0",
		    "line 1: field qy: '1e999' is not finite" },
		{ "a 0 0 0 0 1 0 0 z",
		    "line 1: field qz: 'z' is not a number" },
		{ "a nan 0 0 0 1 0 0 0",
		    "line 1: field time: 'nan' is not finite" },
		{ "a -- 0 0 0 1 0 0 0",
		    "line 1: field time: '--' is not a number" },
		{ "a 0 - 0 0 1 0 0 0", "line 1: field x: '-' is not a number" },
		{ "a 0 0 0 0 0 0 0 0", "line 1: quaternion is zero" },
		{ "a 0 0 0 0 -0 0 0 0.0", "line 1: quaternion is zero" },
		{ "a 0 0 0 0 1 0 0 0\x01", "line 1: control character 0x01" },
		{ "a 0 0 0 0 1 0 0 0\rb 0 0 0 0 1 0 0 0",
		    "line 1: control character 0x0d" },
		{ "a 0 0 0 0 1 0 0 0\x7f", "line 1: control character 0x7f" },
		{ "# fine\n# fine\na 0 0 0 0 1 0 0 0 extra",
		    "line 3: 10 fields, expected 9" },
		{ "a 0 0 0 0 "
		  "1.0000000000000000000000000000000"
		  "0000000000000000000000000000000"
		  " 0 0 0",
		    "line 1: field qw: '1.000000000000000000000000000000...' is "
		    "too long for a number" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		expect_text_refused(cases[i].text, cases[i].want);
	expect_refused(
	    "a 0 0 0 0 1 0 0 0\0", 18, 4, "line 1: control character 0x00");
	expect_refused("", 0, 4, "empty datagram");
}

Test(mocap_sources, text_with_one_bad_line_is_refused_whole)
{
	struct mocap_sample out[4];
	char err[ERRLEN];

	cr_assert_eq(parse_text("a 0 0 0 0 1 0 0 0\n"
				"b 0 0 0 0 1 0 0 0\n"
				"c 0 0 0 0 1 0 0 q\n",
			 out, 4, err),
	    -1);
	cr_assert_not_null(strstr(err, "line 3: field qz: 'q'"), "%s", err);
}

Test(mocap_sources, text_more_poses_than_max_is_refused)
{
	static const char text[] = "a 0 0 0 0 1 0 0 0\nb 0 0 0 0 1 0 0 0\n"
				   "c 0 0 0 0 1 0 0 0\n";
	struct mocap_sample out[3];
	char err[ERRLEN];

	cr_assert_eq(parse_text(text, out, 3, err), 3, "%s", err);
	expect_refused(
	    text, strlen(text), 2, "line 3: more than 2 poses in one datagram");
	expect_refused(
	    text, strlen(text), 0, "line 1: more than 0 poses in one datagram");
}

Test(mocap_sources, text_starting_with_the_magic_is_binary)
{
	struct mocap_sample out[1];
	char err[ERRLEN];

	expect_text_refused(
	    "HXP1x 0 0 0 0 1 0 0 0", "a count of 540024952 needs");
	cr_assert_eq(
	    parse_text("\nHXP1x 0 0 0 0 1 0 0 0", out, 1, err), 1, "%s", err);
	cr_assert_str_eq(out[0].name, "HXP1x");
}

Test(mocap_sources, text_round_trip)
{
	const struct mocap_sample in[3] = {
		sample("hand", 12.25, 0.1, -2.5e-7, 1e10, 0.5, -0.5, 0.5, -0.5),
		sample("foot", NAN, -0.0, 3, 1.0 / 3, 0, 0, 1, 0),
		sample("a.b/c", -1, 6.02214076e23, 0, 0, 1, 0, 0, 0),
	};
	struct mocap_sample out[3];
	char text[1024], time[32], err[ERRLEN];
	size_t off = 0;
	int i;

	for (i = 0; i < 3; i++) {
		if (isnan(in[i].time))
			snprintf(time, sizeof(time), "-");
		else
			snprintf(time, sizeof(time), "%.17g", in[i].time);
		off += (size_t)snprintf(text + off, sizeof(text) - off,
		    "%s %s %.17g %.17g %.17g %.17g %.17g %.17g %.17g\n",
		    in[i].name, time, in[i].pos[0], in[i].pos[1], in[i].pos[2],
		    in[i].quat[0], in[i].quat[1], in[i].quat[2], in[i].quat[3]);
	}
	cr_assert_eq(parse_text(text, out, 3, err), 3, "%s", err);
	for (i = 0; i < 3; i++)
		expect_same(&out[i], &in[i]);
}

Test(mocap_sources, binary_round_trip)
{
	struct mocap_sample in[3], out[3];
	unsigned char buf[8 + 3 * 96];
	char err[ERRLEN] = "";

	in[0] = sample("hand", 12.25, 0.1, -2.5e-7, 1e10, 0.5, -0.5, 0.5, -0.5);
	in[1] = sample("foot", NAN, -0.0, 1e-310, 1e300, 0, 0, 1, 0);
	in[2] = sample(
	    "0123456789012345678901234567890", -1, 1, 2, 3, 1, 0, 0, 0);
	cr_assert_eq(mocap_udp_encode(in, 3, buf, sizeof(buf)), sizeof(buf));
	cr_assert_eq(mocap_udp_parse(buf, sizeof(buf), out, 3, err, ERRLEN), 3,
	    "%s", err);
	expect_same(&out[0], &in[0]);
	expect_same(&out[1], &in[1]);
	expect_same(&out[2], &in[2]);
	cr_assert_eq(mocap_udp_encode(in, 0, buf, 8), 8);
	cr_assert_eq(
	    mocap_udp_parse(buf, 8, out, 3, err, ERRLEN), 0, "%s", err);
}

Test(mocap_sources, binary_normalises_the_quaternion)
{
	struct mocap_sample in, out;
	unsigned char buf[8 + 96];
	char err[ERRLEN] = "";

	in = sample("a", 0, 0, 0, 0, 0, 3, 0, 4);
	cr_assert_eq(mocap_udp_encode(&in, 1, buf, sizeof(buf)), sizeof(buf));
	cr_assert_eq(mocap_udp_parse(buf, sizeof(buf), &out, 1, err, ERRLEN), 1,
	    "%s", err);
	expect_quat(out.quat, 0, 0.6, 0, 0.8);
}

Test(mocap_sources, binary_layout_is_little_endian)
{
	static const unsigned char one[8] = { 0, 0, 0, 0, 0, 0, 0xf0, 0x3f };
	static const unsigned char two[8] = { 0, 0, 0, 0, 0, 0, 0, 0x40 };
	static const unsigned char minus_half[8] = { 0, 0, 0, 0, 0, 0, 0xe0,
		0xbf };
	struct mocap_sample s = sample("ab", 1, 2, 0, -0.5, 1, 0, 0, 2);
	unsigned char buf[8 + 96];
	size_t i;

	cr_assert_eq(mocap_udp_encode(&s, 1, buf, sizeof(buf)), 104);
	cr_assert_eq(memcmp(buf, "HXP1", 4), 0);
	cr_assert_eq(memcmp(buf + 4, "\x01\x00\x00\x00", 4), 0, "the count");
	cr_assert_eq(memcmp(buf + 8, "ab", 2), 0);
	for (i = 10; i < 40; i++)
		cr_assert_eq(buf[i], 0, "NUL padding at %zu", i);
	cr_assert_eq(memcmp(buf + 40, one, 8), 0, "time");
	cr_assert_eq(memcmp(buf + 48, two, 8), 0, "x");
	cr_assert_eq(memcmp(buf + 64, minus_half, 8), 0, "z");
	cr_assert_eq(memcmp(buf + 72, one, 8), 0, "qw");
	cr_assert_eq(memcmp(buf + 96, two, 8), 0, "qz, as given");
}

Test(mocap_sources, binary_example_of_the_documentation)
{
	/* docs/drivers.md, "The binary form". */
	static const unsigned char doc[104] = { 0x48, 0x58, 0x50, 0x31, 0x01, 0,
		0, 0, 0x68, 0x61, 0x6e,
		0x64, [46] = 0xf8, [47] = 0x3f, [54] = 0xd0, [55] = 0x3f,
		[70] = 0xf0, [71] = 0x3f, [78] = 0xf0, [79] = 0x3f };
	struct mocap_sample out[1],
	    want = sample("hand", 1.5, 0.25, 0, 1, 1, 0, 0, 0);
	unsigned char buf[104];
	char err[ERRLEN] = "";

	cr_assert_eq(mocap_udp_parse(doc, sizeof(doc), out, 1, err, ERRLEN), 1,
	    "%s", err);
	expect_same(&out[0], &want);
	cr_assert_eq(mocap_udp_encode(&want, 1, buf, sizeof(buf)), 104);
	cr_assert_eq(memcmp(buf, doc, sizeof(doc)), 0);
}

Test(mocap_sources, binary_encode_refuses_what_does_not_fit)
{
	struct mocap_sample s[2];
	unsigned char buf[8 + 2 * 96];
	size_t cap;

	s[0] = sample("a", 0, 0, 0, 0, 1, 0, 0, 0);
	s[1] = sample("b", 0, 0, 0, 0, 1, 0, 0, 0);
	for (cap = 0; cap < sizeof(buf); cap++)
		cr_assert_eq(
		    mocap_udp_encode(s, 2, buf, cap), 0, "cap %zu", cap);
	cr_assert_eq(mocap_udp_encode(s, 2, buf, sizeof(buf)), sizeof(buf));
	cr_assert_eq(mocap_udp_encode(s, -1, buf, sizeof(buf)), 0);
	memset(s[1].name, 'n', 32);
	s[1].name[32] = '\0';
	cr_assert_eq(mocap_udp_encode(s, 2, buf, sizeof(buf)), 0, "32 bytes");
	s[1].name[31] = '\0';
	cr_assert_eq(mocap_udp_encode(s, 2, buf, sizeof(buf)), sizeof(buf));
	s[1].name[0] = '\0';
	cr_assert_eq(mocap_udp_encode(s, 2, buf, sizeof(buf)), 0, "no name");
}

Test(mocap_sources, binary_rejections_say_what_and_where)
{
	struct mocap_sample s[2];
	unsigned char good[8 + 2 * 96], buf[8 + 2 * 96 + 1];
	const size_t pose2 = 8 + 96;

	s[0] = sample("ab", 0, 0, 0, 0, 1, 0, 0, 0);
	s[1] = sample("cd", 0, 0, 0, 0, 1, 0, 0, 0);
	cr_assert_eq(mocap_udp_encode(s, 2, good, sizeof(good)), sizeof(good));

	memcpy(buf, good, sizeof(good));
	buf[sizeof(good)] = 0;
	expect_refused(
	    buf, sizeof(good) + 1, 4, "201 bytes, but a count of 2 needs 200");
	buf[4] = 3;
	expect_refused(buf, sizeof(good), 4, "a count of 3 needs 296");
	memset(buf + 4, 0xff, 4);
	expect_refused(buf, sizeof(good), 4, "a count of 4294967295 needs");
	expect_refused(good, sizeof(good), 1, "2 poses, more than 1");

	memcpy(buf, good, sizeof(good));
	buf[8 + 5] = 'x';
	expect_refused(
	    buf, sizeof(good), 4, "pose 1: name is not NUL-padded (byte 6)");
	memcpy(buf, good, sizeof(good));
	memset(buf + pose2, 'n', 32);
	expect_refused(buf, sizeof(good), 4, "pose 2: name has no NUL");
	memcpy(buf, good, sizeof(good));
	buf[8] = 0;
	buf[9] = 0;
	expect_refused(buf, sizeof(good), 4, "pose 1: name is empty");
	memcpy(buf, good, sizeof(good));
	buf[9] = ' ';
	expect_refused(buf, sizeof(good), 4, "pose 1: name has a blank");
	memcpy(buf, good, sizeof(good));
	buf[pose2 + 1] = '\n';
	expect_refused(
	    buf, sizeof(good), 4, "pose 2: name has a control character 0x0a");

	s[1] = sample("cd", INFINITY, 0, 0, 0, 1, 0, 0, 0);
	mocap_udp_encode(s, 2, buf, sizeof(buf));
	expect_refused(buf, sizeof(good), 4, "pose 2: time is not finite");
	s[1] = sample("cd", 0, 0, 0, -INFINITY, 1, 0, 0, 0);
	mocap_udp_encode(s, 2, buf, sizeof(buf));
	expect_refused(buf, sizeof(good), 4, "pose 2: z is not finite");
	s[1] = sample("cd", 0, NAN, 0, 0, 1, 0, 0, 0);
	mocap_udp_encode(s, 2, buf, sizeof(buf));
	expect_refused(buf, sizeof(good), 4, "pose 2: x is not finite");
	s[1] = sample("cd", 0, 0, 0, 0, 1, 0, 0, NAN);
	mocap_udp_encode(s, 2, buf, sizeof(buf));
	expect_refused(buf, sizeof(good), 4, "pose 2: qz is not finite");
	s[1] = sample("cd", 0, 0, 0, 0, 0, 0, 0, 0);
	mocap_udp_encode(s, 2, buf, sizeof(buf));
	expect_refused(buf, sizeof(good), 4, "pose 2: quaternion is zero");
}

Test(mocap_sources, binary_every_truncation_is_refused)
{
	struct mocap_sample s[3];
	unsigned char buf[8 + 3 * 96];
	char want[64];
	size_t len;

	s[0] = sample("a", 1, 1, 2, 3, 1, 0, 0, 0);
	s[1] = sample("b", 2, 4, 5, 6, 0, 1, 0, 0);
	s[2] = sample("c", 3, 7, 8, 9, 0, 0, 1, 0);
	cr_assert_eq(mocap_udp_encode(s, 3, buf, sizeof(buf)), sizeof(buf));
	expect_refused(buf, 0, 4, "empty datagram");
	for (len = 1; len < 8; len++)
		expect_refused(buf, len, 4, "shorter than its 8-byte header");
	for (len = 8; len < sizeof(buf); len++) {
		snprintf(want, sizeof(want),
		    "%zu bytes, but a count of 3 needs 296", len);
		expect_refused(buf, len, 4, want);
	}
}

/*
 * A datagram of len bytes made from seed: random bytes, a binary one of
 * the right length with random values, or text of random tokens.
 */
static void
random_datagram(uint64_t seed, unsigned char *p, size_t *len)
{
	static const char *const tokens[] = { "0", "1", "-0.5", "1e3", "nan",
		"inf", "x", "-", "0x1p3", "#", "1e999", "-0", "a\x01", "hand",
		"\t", "\r", "HXP1" };
	const size_t ntokens = sizeof(tokens) / sizeof(tokens[0]);
	uint64_t r = hx_mix64(seed, 1, 2);
	size_t i, n, count, t;
	int line, f;

	switch (seed % 3) {
	case 0:
		*len = r % 400;
		for (i = 0; i < *len; i++)
			p[i] = (unsigned char)hx_mix64(seed, i, 3);
		break;
	case 1:
		count = r % 4;
		*len = 8 + count * 96;
		memcpy(p, "HXP1", 4);
		p[4] = (unsigned char)count;
		p[5] = p[6] = p[7] = 0;
		for (i = 8; i < *len; i++)
			p[i] = (unsigned char)hx_mix64(seed, i, 4);
		for (i = 0; i < count; i++) {
			/* Mostly a good name, so that the numbers are read. */
			if (hx_mix64(seed, i, 5) % 4 == 0)
				continue;
			memset(p + 8 + i * 96, 0, 32);
			p[8 + i * 96] = (unsigned char)('a' + i);
			/* Some small numbers, not only wild bits. */
			if (hx_mix64(seed, i, 6) % 2 == 0)
				for (n = 0; n < 8; n++)
					p[8 + i * 96 + 32 + 8 * n + 7] &= 0x3f;
		}
		break;
	default:
		n = 0;
		for (line = 0; line < (int)(r % 5); line++) {
			f = (int)(hx_mix64(seed, (uint64_t)line, 7) % 3) == 0 ?
			    (int)(hx_mix64(seed, (uint64_t)line, 8) % 12) :
			    9;
			for (i = 0; i < (size_t)f; i++) {
				t = hx_mix64(seed, (uint64_t)line * 16 + i, 9) %
				    ntokens;
				if (i == 0 && t < 12)
					t = 13;
				else if (i > 0 &&
				    hx_mix64(seed, i, 10) % 4 != 0)
					t = hx_mix64(seed, i, 11) % 4;
				n += (size_t)snprintf((char *)p + n, 400 - n,
				    "%s%s", i > 0 ? " " : "", tokens[t]);
			}
			n += (size_t)snprintf((char *)p + n, 400 - n, "\n");
		}
		*len = n;
		break;
	}
}

Test(mocap_sources, random_datagrams_never_crash)
{
	struct mocap_sample out[4];
	unsigned char buf[400], *copy;
	int r, i, taken[3] = { 0, 0, 0 }, refused = 0;
	char err[ERRLEN];
	uint64_t seed;
	size_t len;

	for (seed = 0; seed < 30000; seed++) {
		random_datagram(seed, buf, &len);
		copy = malloc(len > 0 ? len : 1);
		cr_assert_not_null(copy);
		memcpy(copy, buf, len);
		err[0] = '\0';
		r = mocap_udp_parse(copy, len, out, 4, err, sizeof(err));
		free(copy);
		cr_assert(r >= -1 && r <= 4, "seed %llu: %d",
		    (unsigned long long)seed, r);
		if (r == -1) {
			cr_assert_neq(err[0], '\0', "a refusal says why");
			refused++;
			continue;
		}
		if (r > 0)
			taken[seed % 3]++;
		for (i = 0; i < r; i++) {
			double n = 0;
			int k;

			cr_assert(strlen(out[i].name) > 0 &&
			    strlen(out[i].name) < MOCAP_NAME_MAX);
			for (k = 0; k < 3; k++)
				cr_assert(isfinite(out[i].pos[k]));
			for (k = 0; k < 4; k++)
				n += out[i].quat[k] * out[i].quat[k];
			cr_assert(fabs(n - 1) < 1e-12, "seed %llu: |q|^2 %.17g",
			    (unsigned long long)seed, n);
		}
	}
	cr_assert_gt(refused, 1000);
	cr_assert_gt(taken[1], 100, "binary poses decoded: %d", taken[1]);
	cr_assert_gt(taken[2], 100, "text poses decoded: %d", taken[2]);
}

Test(mocap_sources, shared_number_and_name_rules)
{
	char name[MOCAP_NAME_MAX], err[ERRLEN];
	double v = 42;

	cr_assert_eq(mocap_number_parse("2.5", 3, &v, err, ERRLEN), 0);
	cr_assert_eq(v, 2.5);
	cr_assert_eq(mocap_number_parse("2.5", 1, &v, err, ERRLEN), 0);
	cr_assert_eq(v, 2, "only len bytes are read");
	cr_assert_eq(mocap_number_parse(" 1", 2, &v, err, ERRLEN), -1);
	cr_assert_str_eq(err, "' 1' is not a number");
	cr_assert_eq(mocap_number_parse("1 ", 2, &v, err, ERRLEN), -1);
	cr_assert_eq(mocap_number_parse("1.0000000000000000000000000000000"
					"000000000000000000000000000000",
			 63, &v, err, ERRLEN),
	    0, "63 bytes is the longest number: %s", err);
	cr_assert_eq(v, 1);
	cr_assert_eq(mocap_number_parse("", 0, &v, err, ERRLEN), -1);
	cr_assert_str_eq(err, "'' is not a number");
	cr_assert_eq(mocap_number_parse("1\0", 2, &v, err, ERRLEN), -1);
	cr_assert_str_eq(err, "'1?' is not a number");
	cr_assert_eq(v, 1, "unchanged on failure");
	cr_assert_eq(mocap_name_parse("hand", 4, name, err, ERRLEN), 0);
	cr_assert_str_eq(name, "hand");
	cr_assert_eq(mocap_name_parse("h\xc3\xa4nd", 5, name, err, ERRLEN), 0,
	    "UTF-8 is fine");
	cr_assert_eq(mocap_name_parse("a\tb", 3, name, err, ERRLEN), -1);
	cr_assert_str_eq(err, "name has a blank at byte 2");
	cr_assert_eq(
	    mocap_name_parse(NULL, 0, name, NULL, 0), -1, "err may be NULL");
}

Test(mocap_sources, quaternion_normalisation_refuses_zero_and_non_finite)
{
	double q[4] = { 0, 0, 0, 0 };
	double bad[3] = { NAN, INFINITY, -INFINITY };
	int i;

	cr_assert_eq(mocap_quat_normalize(q), -1);
	for (i = 0; i < 3; i++) {
		q[0] = 1;
		q[1] = 0;
		q[2] = bad[i];
		q[3] = 0;
		cr_assert_eq(mocap_quat_normalize(q), -1);
		cr_assert_eq(q[0], 1, "unchanged on failure");
	}
	q[0] = -2;
	q[2] = 0;
	cr_assert_eq(mocap_quat_normalize(q), 0);
	expect_quat(q, -1, 0, 0, 0);
}

/* Write a file into the scratch directory; returns its path. */
static const char *
csv_file(const char *name, const char *text)
{
	const char *path = hx_scratch(name);

	hx_write_file(path, text, strlen(text));
	return path;
}

/* Open text as a CSV file; the test fails if it is refused. */
static struct mocap_csv *
csv_open_text(const char *text)
{
	struct mocap_csv *c;
	char err[ERRLEN] = "";

	c = mocap_csv_open(csv_file("poses.csv", text), err, sizeof(err));
	cr_assert_not_null(c, "%s", err);
	return c;
}

/* The next sample must be there. */
static void
csv_expect(struct mocap_csv *c, const struct mocap_sample *want)
{
	struct mocap_sample s;
	char err[ERRLEN] = "";

	cr_assert_eq(mocap_csv_next(c, &s, err, sizeof(err)), 1, "%s", err);
	expect_same(&s, want);
}

/* The file must end here, and stay at its end. */
static void
csv_expect_end(struct mocap_csv *c)
{
	struct mocap_sample s;
	char err[ERRLEN] = "";

	cr_assert_eq(mocap_csv_next(c, &s, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(mocap_csv_next(c, &s, err, sizeof(err)), 0, "%s", err);
}

Test(mocap_sources, csv_rows_in_file_order, .init = hx_scratch_init,
    .fini = hx_scratch_fini)
{
	const struct mocap_sample want[3] = {
		sample("hand", 0, 1, 2, 3, 1, 0, 0, 0),
		sample("foot", 0, 4, 5, 6, 0, 0, 0, 1),
		sample("hand", 0.5, 7, 8, 9, 0.5, 0.5, 0.5, 0.5),
	};
	struct mocap_csv *c;

	c = csv_open_text("time,body,x,y,z,qw,qx,qy,qz\n"
			  "0,hand,1,2,3,1,0,0,0\n"
			  "0,foot,4,5,6,0,0,0,2\n"
			  "0.5,hand,7,8,9,1,1,1,1\n");
	csv_expect(c, &want[0]);
	csv_expect(c, &want[1]);
	csv_expect(c, &want[2]);
	csv_expect_end(c);
	mocap_csv_close(c);
	mocap_csv_close(NULL);
}

Test(mocap_sources, csv_columns_in_any_order_extras_ignored,
    .init = hx_scratch_init, .fini = hx_scratch_fini)
{
	const struct mocap_sample want[2] = {
		sample("hand", 1.25, 1, 2, 3, 0, 1, 0, 0),
		sample("head", 2, -1, -2, -3, 0, 0, 1, 0),
	};
	struct mocap_csv *c;

	c = csv_open_text("frame, qz ,qy,qx,qw,z,y,x,Body,note,TIME,\n"
			  "7,0,0,1,0,3,2,1,hand,left hand,1.25,\n"
			  "8,0,1,0,0,-3,-2,-1,head,,2,\n");
	csv_expect(c, &want[0]);
	csv_expect(c, &want[1]);
	csv_expect_end(c);
	mocap_csv_close(c);
}

Test(mocap_sources, csv_crlf_comments_blank_lines_bom_quotes,
    .init = hx_scratch_init, .fini = hx_scratch_fini)
{
	const struct mocap_sample want[2] = {
		sample("hand", 1, 1, 2, 3, 1, 0, 0, 0),
		sample("foot", 1, 4, 5, 6, 1, 0, 0, 0),
	};
	struct mocap_csv *c;

	c = csv_open_text("\xef\xbb\xbf# exported by a spreadsheet\r\n"
			  "\r\n"
			  "\"time\",\"body\",\"x\",\"y\",\"z\",\"qw\",\"qx\","
			  "\"qy\",\"qz\"\r\n"
			  "# a comment\r\n"
			  "   \r\n"
			  "1,\"hand\", 1 ,2,3,1,0,0,0\r\n"
			  "  # another\r\n"
			  "1,foot,4,5,6,1,0,0,0");
	csv_expect(c, &want[0]);
	csv_expect(c, &want[1]);
	csv_expect_end(c);
	mocap_csv_close(c);
}

Test(mocap_sources, csv_rewind_starts_again, .init = hx_scratch_init,
    .fini = hx_scratch_fini)
{
	const struct mocap_sample want[3] = {
		sample("a", 0, 1, 0, 0, 1, 0, 0, 0),
		sample("a", 1, 2, 0, 0, 1, 0, 0, 0),
		sample("a", 2, 3, 0, 0, 1, 0, 0, 0),
	};
	struct mocap_sample s;
	struct mocap_csv *c;
	char err[ERRLEN];
	int round;

	c = csv_open_text("# header next\n"
			  "time,body,x,y,z,qw,qx,qy,qz\n"
			  "0,a,1,0,0,1,0,0,0\n"
			  "1,a,2,0,0,1,0,0,0\n"
			  "2,a,3,0,0,1,0,0,0\n"
			  "1,a,4,0,0,1,0,0,0\n");
	csv_expect(c, &want[0]);
	csv_expect(c, &want[1]);
	cr_assert_eq(mocap_csv_rewind(c), 0);
	for (round = 0; round < 2; round++) {
		csv_expect(c, &want[0]);
		csv_expect(c, &want[1]);
		csv_expect(c, &want[2]);
		cr_assert_eq(mocap_csv_next(c, &s, err, sizeof(err)), -1);
		cr_assert_str_eq(err,
		    "line 6: time 1 goes back from 2 on line 5",
		    "line numbers count from the file's start after a rewind");
		cr_assert_eq(mocap_csv_rewind(c), 0);
	}
	mocap_csv_close(c);
}

Test(mocap_sources, csv_header_errors, .init = hx_scratch_init,
    .fini = hx_scratch_fini)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{ "time,body,x,y,z,qw,qx,qy\n0,a,0,0,0,1,0,0\n",
		    "line 1: the header lacks the column qz" },
		{ "# made by hand\n\ntime,body,x,y,z\n",
		    "line 3: the header lacks the columns qw, qx, qy, qz" },
		{ "0,hand,1,2,3,1,0,0,0\n",
		    "line 1: the header lacks the columns time, body, x, y, z, "
		    "qw, qx, qy, qz" },
		{ "time,body,x,y,z,qw,qx,qy,qz,x\n",
		    "line 1: column x appears twice" },
		{ "", "no header line" },
		{ "# only a comment\n\n", "no header line" },
	};
	char err[ERRLEN];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		err[0] = '\0';
		cr_assert_null(
		    mocap_csv_open(
			csv_file("bad.csv", cases[i].text), err, sizeof(err)),
		    "%s", cases[i].text);
		cr_assert_not_null(strstr(err, cases[i].want),
		    "got '%s', want '%s'", err, cases[i].want);
	}
	cr_assert_null(
	    mocap_csv_open(hx_scratch("missing.csv"), err, sizeof(err)));
	cr_assert_not_null(strstr(err, "cannot open "), "%s", err);
	cr_assert_not_null(strstr(err, "missing.csv: No such file"), "%s", err);
}

Test(mocap_sources, csv_row_errors_name_the_line, .init = hx_scratch_init,
    .fini = hx_scratch_fini)
{
	static const char head[] = "time,body,x,y,z,qw,qx,qy,qz\n"
				   "0,a,0,0,0,1,0,0,0\n"
				   "# a comment counts as a line\n";
	static const struct {
		const char *rows, *want;
	} cases[] = {
		{ "1,a,0,0,0,abc,0,0,0\n",
		    "line 4: column qw: 'abc' is not a number" },
		{ "1,a,0,0,0,1,0,0,0\n\n0.5,b,0,0,0,1,0,0,0\n",
		    "line 6: time 0.5 goes back from 1 on line 4" },
		{ "-1,a,0,0,0,1,0,0,0\n",
		    "line 4: time -1 goes back from 0 on line 2" },
		{ "1,a,0,0,0,1,0,0\n", "line 4: 8 fields, the header has 9" },
		{ "1,a,0,0,0,1,0,0,0,\n",
		    "line 4: 10 fields, the header has 9" },
		{ "1,a,0,0,0,0,0,0,0\n", "line 4: quaternion is zero" },
		{ "1,,0,0,0,1,0,0,0\n", "line 4: column body: name is empty" },
		{ "1,a b,0,0,0,1,0,0,0\n",
		    "line 4: column body: name has a blank at byte 2" },
		{ "1,a,nan,0,0,1,0,0,0\n",
		    "line 4: column x: 'nan' is not finite" },
		{ "1,a,0,,0,1,0,0,0\n",
		    "line 4: column y: '' is not a number" },
		{ "-,a,0,0,0,1,0,0,0\n",
		    "line 4: column time: '-' is not a number" },
		{ "1,a,0,0,0,1,0,0,1e999\n",
		    "line 4: column qz: '1e999' is not finite" },
	};
	struct mocap_sample s;
	struct mocap_csv *c;
	char text[512], err[ERRLEN];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(text, sizeof(text), "%s%s", head, cases[i].rows);
		c = csv_open_text(text);
		cr_assert_eq(
		    mocap_csv_next(c, &s, err, sizeof(err)), 1, "%s", err);
		cr_assert_str_eq(s.name, "a");
		while (mocap_csv_next(c, &s, err, sizeof(err)) == 1)
			;
		cr_assert_str_eq(
		    err, cases[i].want, "rows '%s'", cases[i].rows);
		mocap_csv_close(c);
	}
}

Test(mocap_sources, csv_nul_byte_is_refused, .init = hx_scratch_init,
    .fini = hx_scratch_fini)
{
	static const char text[] = "time,body,x,y,z,qw,qx,qy,qz\n"
				   "0,a\0b,0,0,0,1,0,0,0\n";
	const char *path = hx_scratch("nul.csv");
	struct mocap_sample s;
	struct mocap_csv *c;
	char err[ERRLEN] = "";

	hx_write_file(path, text, sizeof(text) - 1);
	c = mocap_csv_open(path, err, sizeof(err));
	cr_assert_not_null(c, "%s", err);
	cr_assert_eq(mocap_csv_next(c, &s, err, sizeof(err)), -1);
	cr_assert_str_eq(err, "line 2: has a NUL byte");
	mocap_csv_close(c);
}

Test(mocap_sources, axes_presets)
{
	static const double yup[3][3] = { { 1, 0, 0 }, { 0, 0, -1 },
		{ 0, 1, 0 } };
	struct mocap_axes a, b;
	char err[ERRLEN] = "";
	int i, j;

	cr_assert_eq(
	    mocap_axes_parse("z-up", &a, err, sizeof(err)), 0, "%s", err);
	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++)
			cr_assert_eq(a.m[i][j], i == j, "z-up [%d][%d]", i, j);
	cr_assert_eq(a.det, 1);
	cr_assert_eq(a.scale, 1);
	cr_assert_eq(
	    mocap_axes_parse("y-up", &a, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(memcmp(a.m, yup, sizeof(yup)), 0);
	cr_assert_eq(a.det, 1);
	cr_assert_eq(mocap_axes_parse(" x , -Z, +y ", &b, err, sizeof(err)), 0,
	    "%s", err);
	cr_assert_eq(memcmp(a.m, b.m, sizeof(yup)), 0, "y-up is x,-z,y");
}

Test(mocap_sources, axes_x_minus_z_y_maps_y_to_z)
{
	static const double y[3] = { 0, 1, 0 }, z[3] = { 0, 0, 1 },
			    q[4] = { 1, 0, 0, 0 };
	struct mocap_axes a;
	double p[3], qo[4];
	char err[ERRLEN] = "";

	cr_assert_eq(
	    mocap_axes_parse("x,-z,y", &a, err, sizeof(err)), 0, "%s", err);
	mocap_axes_apply(&a, y, q, p, qo);
	cr_assert(p[0] == 0 && p[1] == 0 && p[2] == 1, "(%g %g %g)", p[0], p[1],
	    p[2]);
	mocap_axes_apply(&a, z, q, p, qo);
	cr_assert(p[0] == 0 && p[1] == -1 && p[2] == 0, "(%g %g %g)", p[0],
	    p[1], p[2]);
	expect_quat(qo, 1, 0, 0, 0);
}

Test(mocap_sources, axes_y_up_turn_about_y_is_a_turn_about_world_z)
{
	const double h = sqrt(0.5);
	const double q[4] = { h, 0, h, 0 }, p[3] = { 0, 0, 0 };
	struct mocap_axes a;
	double po[3], qo[4], r[3][3];
	char err[ERRLEN] = "";

	cr_assert_eq(
	    mocap_axes_parse("y-up", &a, err, sizeof(err)), 0, "%s", err);
	mocap_axes_apply(&a, p, q, po, qo);
	expect_quat(qo, h, 0, 0, h);
	/* 90 degrees about z, counterclockwise seen from above: x to y. */
	quat_matrix(qo, r);
	cr_assert(fabs(r[1][0] - 1) < 1e-12 && fabs(r[0][1] + 1) < 1e-12);
}

/* M R M^T, the rotation r seen through the axes m. */
static void
conjugate(const double m[3][3], const double r[3][3], double out[3][3])
{
	int i, j, k, l;

	for (i = 0; i < 3; i++) {
		for (j = 0; j < 3; j++) {
			out[i][j] = 0;
			for (k = 0; k < 3; k++)
				for (l = 0; l < 3; l++)
					out[i][j] += m[i][k] * r[k][l] *
					    m[j][l];
		}
	}
}

/*
 * Map the pose (10 v, q) and check it against matrices: pos' = M pos,
 * q' unit, its rotation proper and equal to M R M^T.
 */
static void
check_mapping(const struct mocap_axes *a, const char *spec, const double q[4])
{
	double p[3], po[3], qo[4], r[3][3], want[3][3], got[3][3], n;
	int i, j;

	for (i = 0; i < 3; i++)
		p[i] = q[i + 1] * 10;
	mocap_axes_apply(a, p, q, po, qo);
	for (i = 0; i < 3; i++) {
		n = 0;
		for (j = 0; j < 3; j++)
			n += a->m[i][j] * p[j];
		cr_assert_eq(po[i], n, "%s: pos[%d]", spec, i);
	}
	n = qo[0] * qo[0] + qo[1] * qo[1] + qo[2] * qo[2] + qo[3] * qo[3];
	cr_assert(fabs(n - 1) < 1e-12, "%s: |q'|^2 %g", spec, n);
	quat_matrix(q, r);
	conjugate(a->m, r, want);
	quat_matrix(qo, got);
	cr_assert(fabs(det3(got) - 1) < 1e-12, "%s: a proper rotation", spec);
	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++)
			cr_assert(fabs(got[i][j] - want[i][j]) < 1e-12,
			    "%s: R'[%d][%d] %g, want %g", spec, i, j, got[i][j],
			    want[i][j]);
}

Test(mocap_sources, axes_every_signed_permutation_keeps_rotations_proper)
{
	static const int perms[6][3] = { { 0, 1, 2 }, { 0, 2, 1 }, { 1, 0, 2 },
		{ 1, 2, 0 }, { 2, 0, 1 }, { 2, 1, 0 } };
	struct mocap_axes a;
	char spec[32], err[ERRLEN];
	int pi, signs, i, j, trial, sign, mirrors = 0;
	double q[4];

	for (pi = 0; pi < 6; pi++) {
		for (signs = 0; signs < 8; signs++) {
			snprintf(spec, sizeof(spec), "%s%c,%s%c,%s%c",
			    signs & 1 ? "-" : "", "xyz"[perms[pi][0]],
			    signs & 2 ? "-" : "", "xyz"[perms[pi][1]],
			    signs & 4 ? "-" : "", "xyz"[perms[pi][2]]);
			cr_assert_eq(
			    mocap_axes_parse(spec, &a, err, sizeof(err)), 0,
			    "%s: %s", spec, err);
			cr_assert_eq(a.det, (int)lrint(det3(a.m)), "%s", spec);
			mirrors += a.det == -1;
			for (i = 0; i < 3; i++) {
				sign = signs >> i & 1 ? -1 : 1;
				for (j = 0; j < 3; j++)
					cr_assert_eq(a.m[i][j],
					    j == perms[pi][i] ? sign : 0,
					    "%s [%d][%d]", spec, i, j);
			}
			for (trial = 0; trial < 8; trial++) {
				for (i = 0; i < 4; i++)
					q[i] = (double)(hx_mix64(
							    (uint64_t)trial,
							    (uint64_t)i, 12) %
						   2001) /
						1000 -
					    1;
				cr_assert_eq(mocap_quat_normalize(q), 0);
				check_mapping(&a, spec, q);
			}
		}
	}
	cr_assert_eq(mirrors, 24, "half the conventions are mirrors");
}

Test(mocap_sources, axes_mirror_is_allowed)
{
	const double h = sqrt(0.5);
	const double q[4] = { h, h, 0, 0 }, p[3] = { 1, 2, 3 };
	struct mocap_axes a;
	double po[3], qo[4];
	char err[ERRLEN] = "";

	cr_assert_eq(
	    mocap_axes_parse("y,x,z", &a, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(a.det, -1);
	mocap_axes_apply(&a, p, q, po, qo);
	cr_assert(po[0] == 2 && po[1] == 1 && po[2] == 3);
	/* Swapping x and y turns a turn about +x into one about -y. */
	expect_quat(qo, h, 0, -h, 0);
}

Test(mocap_sources, axes_scale_and_in_place)
{
	struct mocap_axes a;
	double p[3] = { 1000, -20, 3 }, q[4] = { 0, 0, 1, 0 };
	char err[ERRLEN] = "";

	cr_assert_eq(
	    mocap_axes_parse("y-up", &a, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(mocap_axes_parse_scale("mm", &a, err, sizeof(err)), 0);
	cr_assert_eq(a.scale, 0.001);
	mocap_axes_apply(&a, p, q, p, q);
	cr_assert(fabs(p[0] - 1) < 1e-15 && fabs(p[1] + 0.003) < 1e-15 &&
		fabs(p[2] + 0.02) < 1e-15,
	    "(%g %g %g)", p[0], p[1], p[2]);
	expect_quat(q, 0, 0, 0, 1);
	cr_assert_eq(mocap_axes_parse_scale("cm", &a, err, sizeof(err)), 0);
	cr_assert_eq(a.scale, 0.01);
	cr_assert_eq(mocap_axes_parse_scale("m", &a, err, sizeof(err)), 0);
	cr_assert_eq(a.scale, 1);
	cr_assert_eq(mocap_axes_parse_scale("2.5", &a, err, sizeof(err)), 0);
	cr_assert_eq(a.scale, 2.5);
}

Test(mocap_sources, axes_bad_specs_are_refused)
{
	static const struct {
		const char *spec, *want;
	} cases[] = {
		{ "x,x,y", "axis x appears twice in 'x,x,y'" },
		{ "x,-y,y", "axis y appears twice" },
		{ "x,y",
		    "'x,y' is not z-up, y-up or 3 comma-separated axes giving "
		    "world x, y, z (it has 2)" },
		{ "x,y,z,x",
		    "'x,y,z,x' is not z-up, y-up or 3 comma-separated axes "
		    "giving world x, y, z (it has 4)" },
		{ "a,b,c", "'a' is not an axis" },
		{ "x,y,w", "'w' is not an axis" },
		{ "--x,y,z", "'--x' is not an axis" },
		{ "x,,z", "'' is not an axis" },
		{ "xy,z,x", "'xy' is not an axis" },
		{ "x-up", "axis convention 'x-up' is not z-up, y-up or 3" },
		{ "", "empty axis convention" },
	};
	struct mocap_axes a;
	char err[ERRLEN];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&a, 0x5a, sizeof(a));
		err[0] = '\0';
		cr_assert_eq(
		    mocap_axes_parse(cases[i].spec, &a, err, sizeof(err)), -1,
		    "%s", cases[i].spec);
		cr_assert_not_null(strstr(err, cases[i].want),
		    "got '%s', want '%s'", err, cases[i].want);
		cr_assert_eq(((unsigned char *)&a)[0], 0x5a, "out unchanged");
	}
	cr_assert_eq(mocap_axes_parse(NULL, &a, NULL, 0), -1);
}

Test(mocap_sources, axes_bad_scales_are_refused)
{
	static const struct {
		const char *spec, *want;
	} cases[] = {
		{ "0", "'0' is not a positive finite number" },
		{ "-1", "'-1' is not a positive finite number" },
		{ "inf", "'inf' is not a positive finite number" },
		{ "nan", "'nan' is not a positive finite number" },
		{ "1e999", "'1e999' is not a positive finite number" },
		{ "abc", "'abc' is not a number or one of m, cm, mm" },
		{ "1mm", "'1mm' is not a number" },
		{ " 1", "' 1' is not a number" },
		{ "", "empty scale" },
	};
	struct mocap_axes a;
	char err[ERRLEN];
	size_t i;

	a.scale = 7;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		err[0] = '\0';
		cr_assert_eq(
		    mocap_axes_parse_scale(cases[i].spec, &a, err, sizeof(err)),
		    -1, "%s", cases[i].spec);
		cr_assert_not_null(strstr(err, cases[i].want),
		    "got '%s', want '%s'", err, cases[i].want);
		cr_assert_eq(a.scale, 7, "unchanged");
	}
}
