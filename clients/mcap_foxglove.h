/*
 * JSON schemas (encoding "jsonschema") of the messages hxplay writes to
 * MCAP: Foxglove's well-known types, written from Foxglove's published
 * schema documentation, and haptixd's own, in the same conventions
 * (a timestamp of sec and nsec, arrays of named values).
 */
#ifndef HX_MCAP_FOXGLOVE_H
#define HX_MCAP_FOXGLOVE_H

struct mcap_json_schema {
	const char *name;   /* "foxglove.FrameTransforms", ... */
	const char *schema; /* a JSON Schema, as text */
};

/* The schema named name, or NULL. */
const struct mcap_json_schema *mcap_foxglove_schema(const char *name);

#endif
