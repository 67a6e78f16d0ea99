/*
 * A fake OptiTrack Motive for tests: an encoder of the NatNet packets a
 * server sends (frames, model definitions, server info) and a server
 * that answers requests on a UDP command socket as Motive does.  The
 * encoder is written from the protocol's layout, apart from the decoder
 * in clients/natnet.c, so that a misreading of the layout in one of them
 * shows against the other; it uses nothing of the decoder's, not even
 * its header.
 *
 * Unicast as Motive does it: frames go to the address and port that the
 * client's NATNET_CONNECT came from (its command socket), and the client
 * keeps the stream alive with NATNET_KEEPALIVE on that socket.  Start the
 * server inside the test (Criterion runs each test in a process of its
 * own): it serves in a thread of that process.
 */
#ifndef HX_TEST_NATNET_FAKE_H
#define HX_TEST_NATNET_FAKE_H

#include <stddef.h>

/* The message ids, as the protocol numbers them. */
enum natnet_fake_id {
	NATNET_FAKE_CONNECT = 0,
	NATNET_FAKE_SERVERINFO = 1,
	NATNET_FAKE_REQUEST = 2,
	NATNET_FAKE_RESPONSE = 3,
	NATNET_FAKE_REQUEST_MODELDEF = 4,
	NATNET_FAKE_MODELDEF = 5,
	NATNET_FAKE_REQUEST_FRAMEOFDATA = 6,
	NATNET_FAKE_FRAMEOFDATA = 7,
	NATNET_FAKE_MESSAGESTRING = 8,
	NATNET_FAKE_DISCONNECT = 9,
	NATNET_FAKE_KEEPALIVE = 10,
	NATNET_FAKE_UNRECOGNIZED = 100,
};

#define NATNET_FAKE_MAX_PACKET 65536 /* the largest packet encoded */

/* A rigid body as a frame carries it. */
struct natnet_fake_body {
	int id;
	double pos[3];  /* sent as floats */
	double quat[4]; /* w x y z (sent as x y z w) */
	int tracked;
	double mean_error;
};

/* A frame to encode. */
struct natnet_fake_frame {
	int major, minor; /* stream version; 0.0: the server's */
	int frame_number;
	double timestamp; /* a float before 2.7 */
	unsigned long long mid_exposure, data_received, transmit; /* >= 3.0 */
	int nbodies;
	const struct natnet_fake_body *bodies;
	/* 1: marker sets, unlabeled markers, skeletons, assets (4.1),
	 * labeled markers, force plates (2.9) and devices (2.11) around the
	 * rigid bodies, for the decoder to skip; 2.x bodies carry markers. */
	int extras;
	int precision; /* 4.x: a precision timestamp before the flags */
	unsigned int precision_secs, precision_frac;
	int recording, models_changed; /* the frame's flags */
};

/* A rigid body's description. */
struct natnet_fake_model {
	int id;
	const char *name;
};

/* Model definitions to encode. */
struct natnet_fake_models {
	int major, minor;
	int n;
	const struct natnet_fake_model *bodies;
	/* 1: a marker set, a skeleton, a camera and (3.0 and later) a force
	 * plate and a device described before the rigid bodies. */
	int extras;
	/* Nonzero: a description of this kind (not one NatNet has) after
	 * the first unknown_after rigid bodies. */
	int unknown_kind, unknown_after;
};

/* The fake server, and the server info it sends. */
struct natnet_fake_config {
	int major, minor;             /* the stream version; 0.0 means 3.1 */
	const char *app;              /* "Motive" if NULL */
	unsigned char app_version[4]; /* 3.1.0.0 if all zero */
	int multicast;                /* what the server info says */
	int data_port;                /* 1511 if 0 */
	const char *group;            /* "239.255.42.99" if NULL */
	unsigned long long clock_frequency;     /* 10 MHz if 0 */
	const struct natnet_fake_model *models; /* copied by start */
	int nmodels;
	int extras; /* the model definitions describe other kinds too */
};

struct natnet_fake;

/*
 * Encode a whole packet, header and payload, into buf.  Returns its
 * length, or 0 if it does not fit cap (or 65535 payload bytes).
 */
size_t natnet_fake_encode_frame(
    unsigned char *buf, size_t cap, const struct natnet_fake_frame *fr);
size_t natnet_fake_encode_models(
    unsigned char *buf, size_t cap, const struct natnet_fake_models *m);
size_t natnet_fake_encode_server(
    unsigned char *buf, size_t cap, const struct natnet_fake_config *c);

/*
 * Bind a UDP command socket on 127.0.0.1 (an ephemeral port) and serve
 * it in a thread: NATNET_CONNECT is answered with the server info (and
 * its sender remembered as the client), NATNET_REQUEST_MODELDEF with the
 * model definitions, NATNET_REQUEST with a NATNET_RESPONSE of 0,
 * NATNET_REQUEST_FRAMEOFDATA with the last frame sent, NATNET_KEEPALIVE
 * silently, NATNET_DISCONNECT by forgetting the client, anything else
 * with NATNET_UNRECOGNIZED_REQUEST.  Fails the test if the system says
 * no.  The config (and its models) are copied.
 */
struct natnet_fake *natnet_fake_start(const struct natnet_fake_config *c);

/* The command socket's port. */
int natnet_fake_command_port(const struct natnet_fake *f);

/*
 * Send one frame from the command socket to host:port, or with port 0
 * to the last client that connected (unicast as Motive does it).  A
 * frame of version 0.0 takes the server's.  Returns 0, or -1 if there
 * is no such client, the frame does not encode or sendto fails.
 */
int natnet_fake_send_frame(struct natnet_fake *f, const char *host, int port,
    const struct natnet_fake_frame *fr);

/* Send bytes as they are, addressed as natnet_fake_send_frame does. */
int natnet_fake_send_raw(struct natnet_fake *f, const char *host, int port,
    const void *pkt, size_t len);

/* The requests received with message id (0 to 255; other ids: -1). */
int natnet_fake_requests(struct natnet_fake *f, int id);

/* Wait until count requests of id have come; 1 if they did in time. */
int natnet_fake_wait_requests(
    struct natnet_fake *f, int id, int count, int timeout_ms);

/* The client that connected last: 1 and its address, or 0 if none. */
int natnet_fake_client(
    struct natnet_fake *f, char *host, size_t hostlen, int *port);

/* Stop serving, close the socket and free f (NULL is fine). */
void natnet_fake_stop(struct natnet_fake *f);

#endif
