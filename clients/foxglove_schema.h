/*
 * JSON schemas (encoding "jsonschema") of the messages hxplay writes to
 * MCAP and hx-foxglove streams: Foxglove's well-known types, written from
 * Foxglove's published schema documentation, and haptixd's own, in the same
 * conventions (a timestamp of sec and nsec, arrays of named values).
 */
#ifndef HX_FOXGLOVE_SCHEMA_H
#define HX_FOXGLOVE_SCHEMA_H

struct foxglove_schema {
	const char *name;   /* "foxglove.FrameTransforms", ... */
	const char *schema; /* a JSON Schema, as text */
};

/* The schema named name, or NULL. */
const struct foxglove_schema *foxglove_schema_find(const char *name);

#endif
