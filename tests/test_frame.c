/* Unit tests of the framing shared by daemon and clients (lib/frame.c). */
#include "config.h"

#include <string.h>

#include <criterion/criterion.h>

#include "frame.h"

TestSuite(frame, .timeout = 10);

Test(frame, header_round_trip)
{
	static const uint32_t lens[] = { 0, 1, 255, 256, 65535, 65536,
		0x01020304u, 0xffffffffu };
	uint8_t hdr[FRAME_HEADER_SIZE];
	size_t i;

	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		frame_put_header(hdr, lens[i]);
		cr_assert_eq(frame_get_length(hdr), lens[i]);
	}
	frame_put_header(hdr, 0x01020304u);
	cr_assert_eq(hdr[0], 1, "the length is big-endian");
	cr_assert_eq(hdr[3], 4, "the length is big-endian");
}

Test(frame, short_header_is_incomplete)
{
	uint8_t buf[3] = { 0, 0, 0 };
	size_t n = 12345;
	size_t len;

	for (len = 0; len < sizeof(buf); len++)
		cr_assert_eq(frame_parse(buf, len, 100, &n), FRAME_INCOMPLETE);
	cr_assert_eq(n, 12345, "no length before the header is complete");
}

Test(frame, zero_length_frame_is_ready)
{
	uint8_t buf[4] = { 0, 0, 0, 0 };
	size_t n;

	cr_assert_eq(frame_parse(buf, 4, 100, &n), FRAME_READY);
	cr_assert_eq(n, 0);
}

Test(frame, split_payload_is_incomplete_until_whole)
{
	uint8_t buf[4 + 10];
	size_t n, len;

	frame_put_header(buf, 10);
	memset(buf + 4, 'x', 10);
	for (len = 4; len < sizeof(buf); len++) {
		cr_assert_eq(frame_parse(buf, len, 100, &n), FRAME_INCOMPLETE,
		    "%zu of %zu bytes", len, sizeof(buf));
		cr_assert_eq(n, 10);
	}
	cr_assert_eq(frame_parse(buf, sizeof(buf), 100, &n), FRAME_READY);
}

Test(frame, coalesced_frames_parse_one_at_a_time)
{
	uint8_t buf[4 + 3 + 4 + 0 + 4 + 5];
	size_t off = 0, n, sizes[3] = { 3, 0, 5 }, i;

	for (i = 0; i < 3; i++) {
		frame_put_header(buf + off, (uint32_t)sizes[i]);
		memset(buf + off + 4, (int)('a' + i), sizes[i]);
		off += 4 + sizes[i];
	}
	off = 0;
	for (i = 0; i < 3; i++) {
		cr_assert_eq(frame_parse(buf + off, sizeof(buf) - off, 100, &n),
		    FRAME_READY);
		cr_assert_eq(n, sizes[i]);
		off += 4 + n;
	}
	cr_assert_eq(off, sizeof(buf));
	cr_assert_eq(frame_parse(buf + off, 0, 100, &n), FRAME_INCOMPLETE);
}

Test(frame, oversize_is_refused_from_the_header_alone)
{
	uint8_t hdr[4];
	size_t n;

	frame_put_header(hdr, 101);
	cr_assert_eq(frame_parse(hdr, 4, 100, &n), FRAME_OVERSIZE,
	    "refused before any payload arrives");
	cr_assert_eq(n, 101);
	frame_put_header(hdr, 100);
	cr_assert_eq(frame_parse(hdr, 4, 100, &n), FRAME_INCOMPLETE,
	    "the maximum itself is allowed");
	frame_put_header(hdr, 0xffffffffu);
	cr_assert_eq(
	    frame_parse(hdr, 4, FRAME_MAX_DEFAULT, &n), FRAME_OVERSIZE);
}
