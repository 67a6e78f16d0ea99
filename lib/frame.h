/*
 * Length-prefixed framing shared by haptixd and libhaptix.
 *
 * A frame is a 4-byte big-endian payload length N followed by N bytes of
 * one protobuf message.  The length is checked against the reader's
 * maximum before anything is allocated for the payload.  This file knows
 * nothing of MuJoCo, of haptix.h or of the messages themselves.
 */
#ifndef HX_FRAME_H
#define HX_FRAME_H

#include <stddef.h>
#include <stdint.h>

#define FRAME_HEADER_SIZE 4

/* The largest payload either side accepts unless configured otherwise. */
#define FRAME_MAX_DEFAULT (16u * 1024 * 1024)

enum frame_status {
	FRAME_INCOMPLETE, /* fewer bytes than the header or the payload need */
	FRAME_READY,      /* a whole frame is at the start of the buffer */
	FRAME_OVERSIZE,   /* the header announces more than the maximum */
};

/*
 * Look at the start of buf (len bytes).  Sets *payload_len whenever the
 * header is complete, even for an incomplete or oversize frame.
 */
enum frame_status frame_parse(
    const uint8_t *buf, size_t len, size_t max, size_t *payload_len);

/* Write the header of a frame with payload_len bytes into out. */
void frame_put_header(uint8_t out[FRAME_HEADER_SIZE], uint32_t payload_len);

/* Read the payload length from a complete header. */
uint32_t frame_get_length(const uint8_t hdr[FRAME_HEADER_SIZE]);

#endif
