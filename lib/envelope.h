/*
 * The two envelopes of the wire, Request and Response, packed and parsed
 * by hand around the one message their oneof carries, which protobuf-c
 * packs and parses.  protobuf-c walks every field of a message to size,
 * pack, parse and free it, and these two have a field for every call
 * and every payload (88 and 49); the envelope has two to four.  The
 * bytes are those protobuf-c writes, and what protobuf-c parses, this
 * parses (of two members of the oneof, the last; a member given twice is
 * not merged but the last one taken).  Of the envelope's own fields
 * that the parser does not know, the last one's number is kept, as a
 * protobuf-c unknown field with no bytes (a newer client's call, named
 * in the answer); their bytes are skipped.
 *
 * A parsed envelope is freed with envelope_free_*, not with protobuf-c's
 * free_unpacked (which would work, walking every field).
 */
#ifndef HX_ENVELOPE_H
#define HX_ENVELOPE_H

#include <stddef.h>
#include <stdint.h>

#include "haptix.pb-c.h"

size_t envelope_request_size(const Haptix__V1__Request *r);
/* Writes envelope_request_size(r) bytes at out; returns their count. */
size_t envelope_request_pack(const Haptix__V1__Request *r, uint8_t *out);
/* NULL if the bytes are not a Request. */
Haptix__V1__Request *envelope_request_parse(const uint8_t *p, size_t len);
void envelope_request_free(Haptix__V1__Request *r);

size_t envelope_response_size(const Haptix__V1__Response *r);
size_t envelope_response_pack(const Haptix__V1__Response *r, uint8_t *out);
Haptix__V1__Response *envelope_response_parse(const uint8_t *p, size_t len);
void envelope_response_free(Haptix__V1__Response *r);

#endif
