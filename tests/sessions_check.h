/*
 * What the sessions tests share (tests/sessions_check.c).  The numbers
 * come from models/test/fixture.xml: keep them in step.
 */
#ifndef SESSIONS_CHECK_H
#define SESSIONS_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "haptix.pb-c.h"
#include "haptixd.h"

/* Sizes of fixture.xml. */
#define NQ 9
#define NV 8
#define NU 2
#define NBODY 5
#define NGEOM 7
#define NSITE 2
#define NMOCAP 1
#define NSENSORDATA 11
#define TIMESTEP 0.002

/* Events held for a congested client (STREAM_HELD_EVENTS, stream.h). */
#define STREAM_HELD 256

/* The geom of the box in fixture.xml. */
#define GEOM_BOX 5

/*
 * Reading a connection's events: frames are counted and skipped, one
 * event may be put back.
 */
struct evreader {
	hxd_conn *c;
	hxd_event *pending;
	unsigned frames;
	unsigned long long last_step;
	int nq; /* the size every frame's qpos must have */
};

/* This connection's session id, as the server tells it. */
unsigned long long session_id(hxd_conn *c);

/* The entry of a client by name, or NULL. */
const hxd_client *client_named(const hxd_client *list, int n, const char *name);

/* The name of an event kind, for messages. */
const char *kind_name(int kind);

/* The next event that is not a frame, within timeout_ms, or NULL. */
hxd_event *next_nonframe(struct evreader *r, int timeout_ms);

/* The next event that is not a frame; fail unless it is of kind. */
hxd_event *expect_event(struct evreader *r, int kind);

/* Fail if any event other than a frame comes within ms. */
void expect_no_event(struct evreader *r, int ms);

/* The next frame of c within timeout_ms, or NULL; other events fail. */
hxd_frame *next_frame(hxd_conn *c, int timeout_ms);

/* Subscribe or fail the test; return the subscription's id. */
unsigned subscribe_ok(hxd_conn *c, unsigned fields, unsigned every_steps,
    double sim_hz, double wall_hz, int events);

/* Send a Subscribe with the given raw field values; read nothing. */
void raw_subscribe(int fd, const Haptix__V1__StreamField *fields, size_t n,
    unsigned every_steps, double wall_hz, int events, uint64_t id);

#endif
