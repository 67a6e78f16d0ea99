/*
 * The JSON schemas of hxplay's MCAP export and hx-foxglove's channels.
 *
 * JSON rather than protobuf: Foxglove and Lichtblick read every one of
 * their well-known types from JSON messages with a "jsonschema" schema
 * of the type's name, they then need no protoc, no descriptor set
 * built and embedded, and no protobuf encoder for a dozen nested message
 * types; the doubles go through "%.17g", which reads back as the same
 * double.  The price is size, which the chunks' zstd mostly takes back.
 *
 * The schemas are written from Foxglove's schema documentation
 * (docs.foxglove.dev, "Message schemas"); fields never set are
 * left out, which JSON Schema allows and the viewers do not need.
 */
#include "config.h"

#include <string.h>

#include "foxglove_schema.h"

/* Pieces the schemas share. */
#define NUM "{\"type\":\"number\"}"
#define STR "{\"type\":\"string\"}"
#define TIME \
	"{\"type\":\"object\",\"title\":\"time\",\"properties\":{" \
	"\"sec\":{\"type\":\"integer\",\"minimum\":0}," \
	"\"nsec\":{\"type\":\"integer\",\"minimum\":0,\"maximum\":999999999}}}"
#define XYZ(t) \
	"{\"type\":\"object\",\"title\":\"" t "\",\"properties\":{" \
	"\"x\":" NUM ",\"y\":" NUM ",\"z\":" NUM "}}"
#define QUAT \
	"{\"type\":\"object\",\"title\":\"foxglove.Quaternion\"," \
	"\"properties\":{\"x\":" NUM ",\"y\":" NUM ",\"z\":" NUM ",\"w\":" NUM \
	"}}"
#define POSE \
	"{\"type\":\"object\",\"title\":\"foxglove.Pose\",\"properties\":{" \
	"\"position\":" XYZ("foxglove.Vector3") ",\"orientation\":" QUAT "}}"
#define COLOR \
	"{\"type\":\"object\",\"title\":\"foxglove.Color\",\"properties\":{" \
	"\"r\":" NUM ",\"g\":" NUM ",\"b\":" NUM ",\"a\":" NUM "}}"
#define ARRAY(items) "{\"type\":\"array\",\"items\":" items "}"
#define OBJECT(title, props) \
	"{\"type\":\"object\",\"title\":\"" title "\",\"properties\":{" props \
	"}}"
/* Where a state record's message came from: its step, time, segment. */
#define RECORD \
	"\"timestamp\":" TIME ",\"step\":{\"type\":\"integer\"}," \
	"\"time\":" NUM ",\"segment\":{\"type\":\"integer\"}"
/* A named value of one or more doubles. */
#define NAMED(title, values) \
	ARRAY(OBJECT(title, "\"name\":" STR ",\"" values "\":" ARRAY(NUM)))

static const struct foxglove_schema schemas[] = {
	{ "foxglove.FrameTransforms",
	    OBJECT("foxglove.FrameTransforms",
		"\"transforms\":" ARRAY(OBJECT("foxglove.FrameTransform",
		    "\"timestamp\":" TIME ",\"parent_frame_id\":" STR
		    ",\"child_frame_id\":" STR ",\"translation\":" XYZ(
			"foxglove.Vector3") ",\"rotation\":" QUAT))) },
	{ "foxglove.SceneUpdate",
	    OBJECT("foxglove.SceneUpdate",
		"\"deletions\":" ARRAY(OBJECT("foxglove.SceneEntityDeletion",
		    "\"timestamp\":" TIME ",\"type\":{\"title\":"
		    "\"foxglove.SceneEntityDeletionType\",\"oneOf\":["
		    "{\"title\":\"MATCHING_ID\",\"const\":0},"
		    "{\"title\":\"ALL\",\"const\":1}]},\"id\":" STR)) ",\"entities\":" ARRAY(OBJECT("foxglove.SceneEntity",
		    "\"timestamp\":" TIME ",\"frame_id\":" STR ",\"id\":" STR
		    ",\"lifetime\":" TIME ",\"frame_locked\":"
		    "{\"type\":\"boolean\"},\"metadata\":" ARRAY(OBJECT(
			"foxglove.KeyValuePair",
			"\"key\":" STR
			",\"value\":" STR)) ",\"cubes\":" ARRAY(OBJECT("foxglove.CubePrimitive",
			"\"pose\":" POSE ",\"size\":" XYZ(
			    "foxglove.Vector3") ",\"color\":" COLOR)) ",\"spheres\":" ARRAY(OBJECT("foxglove.SpherePrimitive",
			"\"pose\":" POSE ",\"size\":" XYZ(
			    "foxglove.Vector3") ",\"color\":" COLOR)) ",\"cylinders\":" ARRAY(OBJECT("foxglove.CylinderPrimitive",
			"\"pose\":" POSE ",\"size\":" XYZ(
			    "foxglove.Vector3") ",\"bottom_scale\":" NUM
						",\"top_scale\":" NUM
						",\"color\":" COLOR)) ",\"triangles\":" ARRAY(OBJECT("foxglove.TriangleListPrimitive",
			"\"pose\":" POSE ",\"points\":" ARRAY(XYZ(
			    "foxglove.Point3")) ",\"color\":" COLOR
						",\"colors\":" ARRAY(COLOR) ",\"indices\":" ARRAY(
						    "{\"type\":\"integer\",\"minimum\":0}")))))) },
	{ "foxglove.Log",
	    OBJECT("foxglove.Log",
		"\"timestamp\":" TIME ",\"level\":{\"title\":"
		"\"foxglove.LogLevel\",\"oneOf\":["
		"{\"title\":\"UNKNOWN\",\"const\":0},"
		"{\"title\":\"DEBUG\",\"const\":1},"
		"{\"title\":\"INFO\",\"const\":2},"
		"{\"title\":\"WARNING\",\"const\":3},"
		"{\"title\":\"ERROR\",\"const\":4},"
		"{\"title\":\"FATAL\",\"const\":5}]},"
		"\"message\":" STR ",\"name\":" STR ",\"file\":" STR
		",\"line\":{\"type\":\"integer\",\"minimum\":0}") },
	{ "haptixd.JointStates",
	    OBJECT("haptixd.JointStates",
		RECORD ",\"joints\":" ARRAY(OBJECT("haptixd.JointState",
		    "\"name\":" STR ",\"type\":" STR ",\"position\":" ARRAY(
			NUM) ",\"velocity\":" ARRAY(NUM)))) },
	{ "haptixd.Controls",
	    OBJECT("haptixd.Controls",
		RECORD ",\"actuators\":" NAMED("haptixd.Control", "ctrl")) },
	{ "haptixd.Sensors",
	    OBJECT("haptixd.Sensors",
		RECORD ",\"sensors\":" NAMED("haptixd.Sensor", "values")) },
	{ "haptixd.Contacts",
	    OBJECT("haptixd.Contacts",
		RECORD ",\"contacts\":" ARRAY(OBJECT("haptixd.Contact",
		    "\"geom1\":" STR ",\"geom2\":" STR ",\"dist\":" NUM
		    ",\"position\":" XYZ("foxglove.Vector3") ",\"normal\":" XYZ(
			"foxglove.Vector3") ",\"force\":" ARRAY(NUM)))) },
};

const struct foxglove_schema *
foxglove_schema_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(schemas) / sizeof(schemas[0]); i++) {
		if (strcmp(schemas[i].name, name) == 0)
			return &schemas[i];
	}
	return NULL;
}
