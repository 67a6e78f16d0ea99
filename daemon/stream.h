/*
 * Streams: what a client receives without asking.  A client
 * subscribes to fields of the state at a rate (every N steps, N Hz of
 * simulated time or N Hz of wall time) and to events; both arrive as
 * Responses with id 0 whose payload is an Event.
 *
 * A slow reader never holds anyone up.  While a client's unsent output
 * is above its congestion mark, nothing more is queued for it: a frame
 * that falls due is owed instead (newest wins: one owed frame per
 * subscription, the others counted as dropped) and events wait in a
 * bounded queue (the oldest dropped and counted when it is full).  When
 * its output drains, the waiting events go first, then the owed frames,
 * built from the state as it is then.
 */
#ifndef HXD_STREAM_H
#define HXD_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "haptix.pb-c.h"

struct daemon;
struct streams;
struct session;

/* The streams' state (d->stream); stream_free takes NULL. */
struct streams *stream_create(void);
void stream_free(struct streams *sm);

/* The fastest wall-time rate, in Hz. */
#define STREAM_WALL_HZ_MAX 1000

/* The slowest, in Hz: its period must fit a timer (found by fuzzing). */
#define STREAM_WALL_HZ_MIN 1e-6

/* Events held for a congested client before the oldest are dropped. */
#define STREAM_HELD_EVENTS 256

struct stream_counters {
	unsigned subscriptions;
	uint64_t frames_sent;
	uint64_t frames_dropped; /* replaced by newer ones */
	uint64_t events_dropped; /* lost to a full queue */
};

/*
 * Subscribe s.  Returns the subscription's id (> 0), or a result code
 * (< 0) with the reason in err.
 */
int stream_subscribe(
    struct session *s, const Haptix__V1__Subscribe *sub, char *err, size_t len);

/* End subscription id of s, or all of them (id 0); 0 or a result code. */
int stream_unsubscribe(struct session *s, uint32_t id, char *err, size_t len);

void stream_counters(const struct session *s, struct stream_counters *out);

/* After every step, whoever took it: the frames that fall due. */
void stream_after_step(struct daemon *d);

/* A model was loaded: rates in simulated time follow its timestep. */
void stream_model_changed(struct daemon *d);

/*
 * Send an event to every client subscribed to events (its time is set
 * here), or hold it for a congested one.
 */
void stream_broadcast(struct daemon *d, Haptix__V1__Event *ev);

/*
 * As stream_broadcast(), stamped with the simulated time it happened at
 * rather than now's (a reset's: the time it left).
 */
void stream_broadcast_at(struct daemon *d, Haptix__V1__Event *ev, double time);

/* The session's output drained below its mark: send what waited. */
void stream_session_drained(struct session *s);

/* The session is closing: end its subscriptions. */
void stream_session_closed(struct session *s);

#endif
