/*
 * NatNet, the UDP protocol OptiTrack Motive streams motion capture with:
 * a decoder of the packets hx-mocap reads (frames, model definitions,
 * server info) and an encoder of the requests it sends.  Nothing here
 * touches a socket; everything is plain C on bytes.
 *
 * Packets.  Every datagram is a 4-byte header, the message id and the
 * payload's length (both little-endian uint16), then the payload; every
 * number is little-endian, floats are IEEE single precision, strings end
 * with a NUL.  natnet_message() splits a datagram; the payload's layout
 * depends on the "stream version" (NatNet's own version, not Motive's),
 * which NATNET_SERVERINFO tells: the parsers take it as an argument.
 *
 * Versions decoded: 2.6 to 2.11 (Motive 1.x), 3.0 and 3.1 (Motive 2.x),
 * 4.0 (Motive 3.0) and 4.1 (Motive 3.1; later 4.x minors are decoded as
 * 4.1, the layout the SDK samples still use for them).  Earlier streams
 * lack the rigid bodies' tracking flag and are refused.  The differences
 * that matter here:
 *   2.x   each rigid body carries its markers (positions, ids, sizes);
 *         a software latency float precedes the timecode; the timestamp
 *         is a float before 2.7; force plates from 2.9, devices from 2.11.
 *   3.0   rigid-body markers move to the descriptions; labeled markers
 *         gain a residual; three 64-bit host-clock stamps follow the
 *         timestamp; force-plate and device descriptions appear.
 *   4.0   rigid-body descriptions also name their markers; a frame may
 *         end with a precision timestamp (two uint32) before its flags:
 *         the SDK samples disagree on whether 4.0 sends it, so it is
 *         taken when the bytes left say it is there.
 *   4.1   every section of a frame (marker sets, unlabeled markers,
 *         rigid bodies, skeletons, the new assets, labeled markers, force
 *         plates, devices) has a byte count after its item count, and
 *         every model description a byte count after its kind.
 *
 * Read: the frame number; each rigid body's id, position, orientation
 * (reordered from NatNet's x y z w to w x y z), mean marker error and
 * tracking flag (params bit 0); the suffix's timestamp, host-clock stamps,
 * precision timestamp and flags (recording, models changed).  Skipped,
 * though every length in them is checked: marker sets, unlabeled
 * markers, the markers inside 2.x rigid bodies, skeletons (their bones
 * are not reported as rigid bodies), assets, labeled markers, force
 * plates, devices and the timecode.  In the model definitions only the
 * rigid bodies' names and ids are kept; marker sets, skeletons, force
 * plates, devices and cameras are skipped, and a kind of description
 * NatNet cannot skip before 4.1 (which gives sizes) stops the decoding
 * with what was found so far.
 *
 * Hostile input.  Every length and count is checked against the bytes
 * left before it is used, and a string must end before the payload does;
 * a malformed payload is refused whole with a reason that names the item
 * ("rigid body 3 of 5: packet ends at byte 212, 38 bytes needed at byte
 * 190"; byte offsets count from the start of the payload, after the
 * header).  A rigid body whose position or orientation is not finite is
 * kept as untracked at the origin.  Work is linear in the payload.
 *
 * How a client talks to Motive (the SDK's own samples, C++ and Python):
 *
 * Requests.  Motive listens on its command port (UDP 1510).  The client
 * sends NATNET_CONNECT from a UDP socket of its own (any local port) and
 * gets NATNET_SERVERINFO back on that socket: the server's application
 * and stream version and, from NatNet 3.0, its data port, whether it
 * multicasts and the multicast group.  NATNET_REQUEST_MODELDEF from the
 * same socket is answered there with NATNET_MODELDEF, which maps rigid
 * body ids (all a frame carries) to names; request it again when a
 * frame's models_changed flag is set.  Text commands (NATNET_REQUEST)
 * are answered with NATNET_RESPONSE, unknown ids with
 * NATNET_UNRECOGNIZED_REQUEST.
 *
 * Multicast (Motive's default): frames go to the group (239.255.42.99 by
 * default) on the data port (1511 by default).  The client binds a second
 * socket to the data port on INADDR_ANY with SO_REUSEADDR (so that other
 * clients on the host can bind it too), joins the group on the interface
 * that faces Motive (IP_ADD_MEMBERSHIP) and reads frames there.  Frames
 * flow whether or not anyone connected; the connect only tells the
 * version and the model names.  Keep-alives are not needed.
 *
 * Unicast: Motive sends each frame to the address and port its
 * NATNET_CONNECT came from, that is to the client's command socket (not
 * to port 1511), so the client reads frames, answers and server info on
 * that one socket.  The client must keep the stream alive: NATNET_KEEPALIVE
 * (no payload, no reply), sent from that same socket to the server's
 * command port, which the SDK calls "required for Unicast transmission";
 * its samples send one at least every 2 seconds (the C++ sample before
 * each 2-second receive timeout, the Python one after every packet).
 * hx-mocap should send one every second (NATNET_KEEPALIVE_MS), and send
 * NATNET_CONNECT again when frames stop, in case the server restarted.
 * In unicast, a 4.x server can change the stream version per client
 * ("Bitstream,3.1" as a NATNET_REQUEST); multicast has one version.
 */
#ifndef HX_NATNET_H
#define HX_NATNET_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The message ids of the 4-byte header. */
enum natnet_message_id {
	NATNET_CONNECT = 0,
	NATNET_SERVERINFO = 1,
	NATNET_REQUEST = 2,
	NATNET_RESPONSE = 3,
	NATNET_REQUEST_MODELDEF = 4,
	NATNET_MODELDEF = 5,
	NATNET_REQUEST_FRAMEOFDATA = 6,
	NATNET_FRAMEOFDATA = 7,
	NATNET_MESSAGESTRING = 8,
	NATNET_DISCONNECT = 9,
	NATNET_KEEPALIVE = 10,
	NATNET_UNRECOGNIZED_REQUEST = 100,
};

#define NATNET_COMMAND_PORT 1510
#define NATNET_DATA_PORT 1511
#define NATNET_MULTICAST_GROUP "239.255.42.99"
#define NATNET_MAX_BODIES 256
#define NATNET_HEADER_SIZE 4
#define NATNET_MAX_PACKET 65536  /* a receive buffer that holds any datagram */
#define NATNET_NAME_MAX 256      /* names kept, with their NUL */
#define NATNET_KEEPALIVE_MS 1000 /* unicast keep-alive interval to use */

/* NatNet's stream version, e.g. 3.1 or 4.1. */
struct natnet_version {
	int major, minor;
};

struct natnet_rigid_body {
	int id;
	double pos[3];     /* as streamed (Motive: metres, y up) */
	double quat[4];    /* w x y z (NatNet sends x y z w: reordered) */
	int tracked;       /* 1 when tracking is valid (params bit 0) */
	double mean_error; /* metres */
};

struct natnet_frame {
	int frame_number;
	double timestamp; /* seconds on the server's clock */
	/* Host clock ticks (from 3.0, else 0); NATNET_SERVERINFO's
	 * clock_frequency gives ticks per second. */
	unsigned long long mid_exposure, data_received, transmit;
	unsigned int precision_secs, precision_frac; /* 4.x, if sent; else 0 */
	int recording;      /* Motive is recording (flags bit 0) */
	int models_changed; /* the tracked models changed (flags bit 1) */
	int nbodies;        /* rigid bodies kept (at most NATNET_MAX_BODIES) */
	int bodies_dropped; /* rigid bodies beyond NATNET_MAX_BODIES */
	struct natnet_rigid_body bodies[NATNET_MAX_BODIES];
};

/* A rigid body's description: its name (cut to fit) and id. */
struct natnet_model {
	int id;
	char name[NATNET_NAME_MAX];
};

/* The rigid-body descriptions of a NATNET_MODELDEF. */
struct natnet_models {
	int n;              /* rigid bodies kept */
	int bodies_dropped; /* rigid bodies beyond NATNET_MAX_BODIES */
	int datasets;       /* descriptions the packet announces */
	int complete;       /* 0 when decoding stopped at an unknown kind */
	struct natnet_model bodies[NATNET_MAX_BODIES];
};

/* A NATNET_SERVERINFO. */
struct natnet_server {
	char app[NATNET_NAME_MAX];       /* e.g. "Motive" */
	unsigned char app_version[4];    /* major.minor.build.revision */
	unsigned char natnet_version[4]; /* the stream version frames use */
	int has_connection_info; /* the fields below were sent (>= 3.0) */
	unsigned long long clock_frequency; /* host clock ticks per second */
	int data_port;                      /* where multicast frames go */
	int multicast;                      /* 1: multicast, 0: unicast */
	unsigned char multicast_group[4];
	char multicast_address[16]; /* the group as dotted text */
};

/* 1 if frames and descriptions of stream version v are decoded, else 0. */
int natnet_version_supported(struct natnet_version v);

/*
 * Split a datagram into message id and payload (pointing into pkt).
 * Returns 0, or -1 with a reason in err (may be NULL) if it is shorter
 * than the header or the header's length disagrees with len.
 */
int natnet_message(const void *pkt, size_t len, int *id,
    const unsigned char **payload, size_t *plen, char *err, size_t errlen);

/*
 * Decode a NATNET_FRAMEOFDATA payload of stream version v: the rigid
 * bodies and the timing suffix.  Returns 0, or -1 with a reason (out is
 * then partly filled and must not be used).
 */
int natnet_parse_frame(const unsigned char *p, size_t n,
    struct natnet_version v, struct natnet_frame *out, char *err,
    size_t errlen);

/*
 * Decode a NATNET_MODELDEF payload: the rigid bodies' names and ids,
 * skipping the other kinds of description it can skip.  Returns 0; if it
 * stopped at a kind it cannot skip, out->complete is 0 and err says why,
 * and out holds the bodies found before.  Returns -1 with a reason if the
 * payload is malformed (out then holds the bodies read before the fault).
 */
int natnet_parse_models(const unsigned char *p, size_t n,
    struct natnet_version v, struct natnet_models *out, char *err,
    size_t errlen);

/* Decode a NATNET_SERVERINFO payload.  Returns 0, or -1 with a reason. */
int natnet_parse_server(const unsigned char *p, size_t n,
    struct natnet_server *out, char *err, size_t errlen);

/* The stream version a server info announces. */
struct natnet_version natnet_server_version(const struct natnet_server *s);

/*
 * Encode a request into buf: header and, if text is not NULL, text with
 * its NUL as the payload (a command for NATNET_REQUEST).  NATNET_CONNECT
 * gets the SDK's connect payload instead, text naming the client (see
 * natnet_connect_request).  Returns the length, or 0 if cap is too small
 * or the id or text do not fit the header.
 */
size_t natnet_request(unsigned char *buf, size_t cap, int id, const char *text);

/*
 * Encode NATNET_CONNECT as the SDK 4 does: a sender block naming the
 * client (name may be NULL), then the connection options, asking for
 * stream version want (0.0: the server's own; only unicast 4.x servers
 * honour another).  Returns the length, or 0 if cap is too small.
 */
size_t natnet_connect_request(unsigned char *buf, size_t cap, const char *name,
    struct natnet_version want);

#ifdef __cplusplus
}
#endif

#endif
