/*
 * The Foxglove messages of a simulation: each topic's JSON message from
 * a model and its data after mj_forward (the schemas: foxglove_schema.h).
 * hxplay export --mcap writes them to a file (hxplay_mcap.c), hx-foxglove
 * streams them live (foxglove_live.c).
 */
#ifndef HX_FOXGLOVE_MSG_H
#define HX_FOXGLOVE_MSG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <mujoco/mujoco.h>

/* The topics, one channel each, in this order. */
enum fox_topic {
	FOX_TF,
	FOX_SCENE,
	FOX_JOINTS,
	FOX_CONTROLS,
	FOX_SENSORS,
	FOX_CONTACTS,
	FOX_EVENTS,
	FOX_NTOPIC
};

/* Each topic's name ("/tf") and schema ("foxglove.FrameTransforms"). */
struct fox_topic_name {
	const char *topic, *schema;
};
extern const struct fox_topic_name fox_topics[FOX_NTOPIC];

/*
 * A message being written: a memory stream (open_memstream), its text
 * in p and len after mmsg_done(), reused from message to message.
 */
struct mmsg {
	FILE *f;
	char *p;
	size_t len;
};

/* The state a message comes from: a record, or a live frame. */
struct mmsg_record {
	uint64_t step;
	double time; /* simulated */
	uint64_t segment;
	uint64_t ns; /* the message's log time */
};

/*
 * Empty m for the next message (0, or -1 out of memory); the message
 * written, in m->p and m->len (0, or -1 if a write failed); mmsg_free
 * frees what it holds.
 */
int mmsg_reset(struct mmsg *m);
int mmsg_done(struct mmsg *m);
void mmsg_free(struct mmsg *m);

/*
 * The messages, each into j from the model and its data after
 * mj_forward: every body's pose in the world frame (FrameTransforms),
 * the geoms as entities of primitives, one per body (SceneUpdate, which
 * first deletes what was there), the joints (velocities if qvel, else
 * none), the controls, the sensors, the contacts with their forces.
 */
void mmsg_tf(struct mmsg *j, const mjModel *m, const mjData *d,
    const struct mmsg_record *r);
void mmsg_scene(struct mmsg *j, const mjModel *m, uint64_t ns);
void mmsg_joints(struct mmsg *j, const mjModel *m, const mjData *d,
    const struct mmsg_record *r, int qvel);
void mmsg_controls(struct mmsg *j, const mjModel *m, const mjData *d,
    const struct mmsg_record *r);
void mmsg_sensors(struct mmsg *j, const mjModel *m, const mjData *d,
    const struct mmsg_record *r);
void mmsg_contacts(struct mmsg *j, const mjModel *m, const mjData *d,
    const struct mmsg_record *r);

/* A foxglove.Log at ns: level 2 info, 3 warning, 4 error. */
void mmsg_log(struct mmsg *j, uint64_t ns, int level, const char *text);

#endif
