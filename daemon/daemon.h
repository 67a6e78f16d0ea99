/*
 * The daemon's shared context: what every module of haptixd reaches
 * through the one pointer it is given.  There is one instance, owned by
 * main(); one thread runs it all.
 */
#ifndef HXD_DAEMON_H
#define HXD_DAEMON_H

#include <stddef.h>
#include <stdint.h>

struct batch;
struct holds;
struct clock;
struct event_base;
struct events;
struct gazebo_world;
struct lease;
struct loadjobs;
struct message;
struct modeltext;
struct motions;
struct options;
struct pendings;
struct perturbs;
struct recorder;
struct rollback;
struct server;
struct service;
struct sessions;
struct sim;
struct stepguard;
struct streams;
struct tracking;

#define DAEMON_TOKEN_MAX 4096

/*
 * Each module owns its state behind its own type; the daemon holds the
 * pointers.  core_init() (core.h) makes those of the modules every
 * daemon has before anything else runs (a model load among them) and
 * core_free() frees them; the event loop, settings, sim, clock and
 * server are made by whoever composes the daemon (main(), the tests,
 * the fuzzer).
 */
struct daemon {
	struct event_base *base;
	const struct options *opts;
	struct sim *sim;
	struct clock *clock;
	struct server *server;
	struct lease *lease;         /* lease.c: the control lease */
	struct message *message;     /* message.c: the viewers' message */
	struct modeltext *model;     /* modeltext.c: the model's MJCF text */
	struct batch *batch;         /* batch.c: the batch run, or NULL */
	struct rollback *rollback;   /* rollback.c: the writes since good */
	struct gazebo_world *world;  /* gazebo_world.c: the World API's */
	struct perturbs *perturb;    /* perturb.c: the drivers' forces */
	struct stepguard *stepguard; /* stepguard.c: the slow-step guard */
	struct motions *motion;      /* motion.c: mocap moves under way */
	struct tracking *tracking;   /* tracking.c: mocap bodies tracked */
	struct recorder *record;     /* record.c: the recording */
	struct events *event;        /* event.c: what events keep */
	struct loadjobs *loadjob;    /* loadjob.c: the loads */
	struct service *service;     /* service.c: systemd's timers */
	struct pendings *pending;    /* pending.c: calls answered later */
	struct sessions *session;    /* session.c: every connection */
	struct streams *stream;      /* stream.c: subscriptions */
	struct holds *hold;          /* hold.c: joints held on a path */
	double started;              /* monotonic seconds */

	uint8_t token[DAEMON_TOKEN_MAX]; /* TCP clients present this */
	size_t token_len;                /* 0: no token configured */
};

#endif
