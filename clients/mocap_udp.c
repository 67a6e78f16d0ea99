/*
 * The simple UDP format (docs/drivers.md): one datagram is either text,
 * a pose a line, or binary, "HXP1" and fixed 96-byte poses.  Both are
 * decoded whole or refused whole; every length is checked before a byte
 * is read, so that a hostile datagram can only be refused.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mocap.h"

#define UDP_TEXT_FIELDS 9 /* NAME TIME X Y Z QW QX QY QZ */
#define UDP_NUMBER_MAX 63 /* the longest text taken as a number */
#define UDP_QUOTE_MAX 32  /* the bytes of a bad text quoted in a reason */

static void udp_quote(char *, size_t, const char *, size_t);
static int udp_blank(int);
static int udp_control(int);
static int udp_pose(const char *const[UDP_TEXT_FIELDS],
    const size_t[UDP_TEXT_FIELDS], struct mocap_sample *, char *, size_t);
static int udp_text_line(const char *, size_t, int, struct mocap_sample *,
    int *, int, char *, size_t);
static int udp_parse_text(
    const char *, size_t, struct mocap_sample *, int, char *, size_t);
static uint32_t udp_get32(const unsigned char *);
static double udp_getd(const unsigned char *);
static void udp_put32(unsigned char *, uint32_t);
static void udp_putd(unsigned char *, double);
static int udp_parse_binary(
    const unsigned char *, size_t, struct mocap_sample *, int, char *, size_t);

/* The names of a pose's numbers, in the order both forms carry them. */
static const char *const udp_fields[8] = { "time", "x", "y", "z", "qw", "qx",
	"qy", "qz" };

/* Quote a piece of input for a reason: shortened, unprintables as '?'. */
static void
udp_quote(char *dst, size_t dstlen, const char *s, size_t len)
{
	char shown[UDP_QUOTE_MAX + 1];
	size_t i, n;

	n = len < UDP_QUOTE_MAX ? len : UDP_QUOTE_MAX;
	for (i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];

		shown[i] = ch < 0x20 || ch >= 0x7f ? '?' : (char)ch;
	}
	shown[n] = '\0';
	snprintf(dst, dstlen, "'%s%s'", shown, len > n ? "..." : "");
}

/* A separator of the text form's fields. */
static int
udp_blank(int ch)
{
	return ch == ' ' || ch == '\t';
}

/* A byte no name or number may hold: ASCII controls and DEL. */
static int
udp_control(int ch)
{
	return (unsigned char)ch < 0x20 || (unsigned char)ch == 0x7f;
}

int
mocap_name_parse(const char *s, size_t len, char out[MOCAP_NAME_MAX], char *err,
    size_t errlen)
{
	size_t i;

	if (len == 0) {
		mocap_error(err, errlen, "name is empty");
		return -1;
	}
	if (len > MOCAP_NAME_MAX - 1) {
		mocap_error(err, errlen, "name of %zu bytes is longer than %d",
		    len, MOCAP_NAME_MAX - 1);
		return -1;
	}
	for (i = 0; i < len; i++) {
		if (udp_blank(s[i])) {
			mocap_error(
			    err, errlen, "name has a blank at byte %zu", i + 1);
			return -1;
		}
		if (udp_control(s[i])) {
			mocap_error(err, errlen,
			    "name has a control character 0x%02x",
			    (unsigned char)s[i]);
			return -1;
		}
	}
	memcpy(out, s, len);
	out[len] = '\0';
	return 0;
}

int
mocap_number_parse(
    const char *s, size_t len, double *out, char *err, size_t errlen)
{
	char buf[UDP_NUMBER_MAX + 1], q[UDP_QUOTE_MAX + 8];
	char *end;
	double v;

	udp_quote(q, sizeof(q), s, len);
	if (len > UDP_NUMBER_MAX) {
		mocap_error(err, errlen, "%s is too long for a number", q);
		return -1;
	}
	memcpy(buf, s, len);
	buf[len] = '\0';
	/* strtod would skip leading white space and stop at a NUL. */
	if (len == 0 || strlen(buf) != len ||
	    strchr(" \t\n\v\f\r", buf[0]) != NULL) {
		mocap_error(err, errlen, "%s is not a number", q);
		return -1;
	}
	v = strtod(buf, &end);
	if (end != buf + len) {
		mocap_error(err, errlen, "%s is not a number", q);
		return -1;
	}
	if (!isfinite(v)) {
		mocap_error(err, errlen, "%s is not finite", q);
		return -1;
	}
	*out = v;
	return 0;
}

/* Fill one sample from the text form's nine fields. */
static int
udp_pose(const char *const f[UDP_TEXT_FIELDS],
    const size_t flen[UDP_TEXT_FIELDS], struct mocap_sample *s, char *err,
    size_t errlen)
{
	char why[128];
	double v[8];
	int i;

	if (mocap_name_parse(f[0], flen[0], s->name, why, sizeof(why)) == -1) {
		mocap_error(err, errlen, "%s", why);
		return -1;
	}
	for (i = 0; i < 8; i++) {
		if (i == 0 && flen[1] == 1 && f[1][0] == '-') {
			v[0] = NAN;
			continue;
		}
		if (mocap_number_parse(
			f[i + 1], flen[i + 1], &v[i], why, sizeof(why)) == -1) {
			mocap_error(
			    err, errlen, "field %s: %s", udp_fields[i], why);
			return -1;
		}
	}
	if (mocap_sample_set(s, v[0], v + 1, v + 4) == -1) {
		mocap_error(err, errlen, "quaternion is zero");
		return -1;
	}
	return 0;
}

/*
 * Take one line of a text datagram (without its newline); line counts
 * from 1; *n is the count of poses so far.
 */
static int
udp_text_line(const char *p, size_t len, int line, struct mocap_sample *out,
    int *n, int max, char *err, size_t errlen)
{
	const char *f[UDP_TEXT_FIELDS];
	size_t flen[UDP_TEXT_FIELDS], i = 0, start;
	char why[192];
	int nf = 0;

	for (i = 0; i < len; i++) {
		if (!udp_blank(p[i]) && udp_control(p[i])) {
			mocap_error(err, errlen,
			    "line %d: control character 0x%02x at byte %zu",
			    line, (unsigned char)p[i], i + 1);
			return -1;
		}
	}
	for (i = 0; i < len;) {
		if (udp_blank(p[i])) {
			i++;
			continue;
		}
		if (nf == 0 && p[i] == '#')
			return 0;
		start = i;
		while (i < len && !udp_blank(p[i]))
			i++;
		if (nf < UDP_TEXT_FIELDS) {
			f[nf] = p + start;
			flen[nf] = i - start;
		}
		nf++;
	}
	if (nf == 0)
		return 0;
	if (nf != UDP_TEXT_FIELDS) {
		mocap_error(err, errlen,
		    "line %d: %d field%s, expected 9: NAME TIME X Y Z QW QX QY QZ",
		    line, nf, nf == 1 ? "" : "s");
		return -1;
	}
	if (*n >= max) {
		mocap_error(err, errlen,
		    "line %d: more than %d poses in one datagram", line,
		    max < 0 ? 0 : max);
		return -1;
	}
	if (udp_pose(f, flen, &out[*n], why, sizeof(why)) == -1) {
		mocap_error(err, errlen, "line %d: %s", line, why);
		return -1;
	}
	(*n)++;
	return 0;
}

/* Decode a text datagram, line after line. */
static int
udp_parse_text(const char *p, size_t len, struct mocap_sample *out, int max,
    char *err, size_t errlen)
{
	size_t start = 0, end, ll;
	int line = 0, n = 0;

	while (start < len) {
		line++;
		end = start;
		while (end < len && p[end] != '\n')
			end++;
		ll = end - start;
		if (ll > 0 && p[start + ll - 1] == '\r')
			ll--;
		if (udp_text_line(
			p + start, ll, line, out, &n, max, err, errlen) == -1)
			return -1;
		start = end + 1;
	}
	return n;
}

/* A little-endian uint32. */
static uint32_t
udp_get32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

/* A little-endian IEEE 754 float64. */
static double
udp_getd(const unsigned char *p)
{
	uint64_t u = 0;
	double d;
	int i;

	for (i = 7; i >= 0; i--)
		u = u << 8 | p[i];
	memcpy(&d, &u, sizeof(d));
	return d;
}

/* Store a little-endian uint32. */
static void
udp_put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

/* Store a little-endian IEEE 754 float64. */
static void
udp_putd(unsigned char *p, double d)
{
	uint64_t u;
	int i;

	memcpy(&u, &d, sizeof(u));
	for (i = 0; i < 8; i++)
		p[i] = (unsigned char)(u >> (8 * i));
}

/* Decode a binary datagram, its length checked exactly first. */
static int
udp_parse_binary(const unsigned char *p, size_t len, struct mocap_sample *out,
    int max, char *err, size_t errlen)
{
	const unsigned char *q, *nul;
	struct mocap_sample *s;
	char why[128];
	uint32_t count, i;
	uint64_t need;
	size_t nl, k;
	double v[8];
	int j;

	if (len < MOCAP_UDP_HEADER) {
		mocap_error(err, errlen,
		    "binary datagram of %zu bytes is shorter than its 8-byte header",
		    len);
		return -1;
	}
	count = udp_get32(p + 4);
	need = MOCAP_UDP_HEADER + (uint64_t)count * MOCAP_UDP_POSE;
	if ((uint64_t)len != need) {
		mocap_error(err, errlen,
		    "binary datagram of %zu bytes, but a count of %u needs %llu",
		    len, (unsigned)count, (unsigned long long)need);
		return -1;
	}
	if (max < 0 || count > (uint32_t)max) {
		mocap_error(err, errlen,
		    "binary datagram of %u poses, more than %d",
		    (unsigned)count, max < 0 ? 0 : max);
		return -1;
	}
	for (i = 0; i < count; i++) {
		q = p + MOCAP_UDP_HEADER + (size_t)i * MOCAP_UDP_POSE;
		s = &out[i];
		nul = memchr(q, '\0', MOCAP_UDP_NAME);
		if (nul == NULL) {
			mocap_error(err, errlen,
			    "pose %u: name has no NUL within its %d bytes",
			    (unsigned)i + 1, MOCAP_UDP_NAME);
			return -1;
		}
		nl = (size_t)(nul - q);
		for (k = nl; k < MOCAP_UDP_NAME; k++) {
			if (q[k] != '\0') {
				mocap_error(err, errlen,
				    "pose %u: name is not NUL-padded (byte %zu)",
				    (unsigned)i + 1, k + 1);
				return -1;
			}
		}
		if (mocap_name_parse(
			(const char *)q, nl, s->name, why, sizeof(why)) == -1) {
			mocap_error(
			    err, errlen, "pose %u: %s", (unsigned)i + 1, why);
			return -1;
		}
		for (j = 0; j < 8; j++) {
			v[j] = udp_getd(q + MOCAP_UDP_NAME + 8 * (size_t)j);
			if (j == 0 && isnan(v[j]))
				v[j] = NAN;
			else if (!isfinite(v[j])) {
				mocap_error(err, errlen,
				    "pose %u: %s is not finite",
				    (unsigned)i + 1, udp_fields[j]);
				return -1;
			}
		}
		if (mocap_sample_set(s, v[0], v + 1, v + 4) == -1) {
			mocap_error(err, errlen, "pose %u: quaternion is zero",
			    (unsigned)i + 1);
			return -1;
		}
	}
	return (int)count;
}

int
mocap_udp_parse(const void *buf, size_t len, struct mocap_sample *out, int max,
    char *err, size_t errlen)
{
	const unsigned char *p = buf;
	size_t magic = sizeof(MOCAP_UDP_MAGIC) - 1;

	if (len == 0) {
		mocap_error(err, errlen, "empty datagram");
		return -1;
	}
	if (memcmp(p, MOCAP_UDP_MAGIC, len < magic ? len : magic) == 0)
		return udp_parse_binary(p, len, out, max, err, errlen);
	return udp_parse_text(buf, len, out, max, err, errlen);
}

size_t
mocap_udp_encode(const struct mocap_sample *s, int n, void *buf, size_t cap)
{
	unsigned char *p = buf, *q;
	size_t need, nl;
	int i, j;

	if (n < 0 || (size_t)n > (SIZE_MAX - MOCAP_UDP_HEADER) / MOCAP_UDP_POSE)
		return 0;
	need = MOCAP_UDP_HEADER + (size_t)n * MOCAP_UDP_POSE;
	if (cap < need)
		return 0;
	for (i = 0; i < n; i++) {
		nl = strnlen(s[i].name, MOCAP_NAME_MAX);
		if (nl == 0 || nl >= MOCAP_UDP_NAME)
			return 0;
	}
	memcpy(p, MOCAP_UDP_MAGIC, 4);
	udp_put32(p + 4, (uint32_t)n);
	for (i = 0; i < n; i++) {
		q = p + MOCAP_UDP_HEADER + (size_t)i * MOCAP_UDP_POSE;
		memset(q, 0, MOCAP_UDP_NAME);
		memcpy(q, s[i].name, strnlen(s[i].name, MOCAP_NAME_MAX));
		udp_putd(q + MOCAP_UDP_NAME, s[i].time);
		for (j = 0; j < 3; j++)
			udp_putd(q + MOCAP_UDP_NAME + 8 + 8 * (size_t)j,
			    s[i].pos[j]);
		for (j = 0; j < 4; j++)
			udp_putd(q + MOCAP_UDP_NAME + 32 + 8 * (size_t)j,
			    s[i].quat[j]);
	}
	return need;
}
