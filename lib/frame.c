/* Length-prefixed framing: see frame.h. */
#include "frame.h"

uint32_t
frame_get_length(const uint8_t hdr[FRAME_HEADER_SIZE])
{
	return (uint32_t)hdr[0] << 24 | (uint32_t)hdr[1] << 16 |
	    (uint32_t)hdr[2] << 8 | (uint32_t)hdr[3];
}

void
frame_put_header(uint8_t out[FRAME_HEADER_SIZE], uint32_t payload_len)
{
	out[0] = (uint8_t)(payload_len >> 24);
	out[1] = (uint8_t)(payload_len >> 16);
	out[2] = (uint8_t)(payload_len >> 8);
	out[3] = (uint8_t)payload_len;
}

enum frame_status
frame_parse(const uint8_t *buf, size_t len, size_t max, size_t *payload_len)
{
	size_t n;

	if (len < FRAME_HEADER_SIZE)
		return FRAME_INCOMPLETE;
	n = frame_get_length(buf);
	*payload_len = n;
	if (n > max)
		return FRAME_OVERSIZE;
	if (len - FRAME_HEADER_SIZE < n)
		return FRAME_INCOMPLETE;
	return FRAME_READY;
}
