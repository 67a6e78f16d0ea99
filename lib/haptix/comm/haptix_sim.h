/*
 * haptix/comm/haptix_sim.h: Gazebo HAPTIX's World API (OSRF's
 * haptix-comm) served by haptixd on MuJoCo.
 *
 * Written for libhaptix with the declarations of OSRF's header (names,
 * struct layouts, constants, signatures), so that world programs written
 * for Gazebo HAPTIX compile unchanged and link with -lhaptix.  A model is
 * a top-level body of the MuJoCo model with everything below it (the
 * hand, each object), its links are those bodies and its joints their
 * joints.  Every call answers hxOK or hxERROR, with the reason in
 * hx_last_result(), and connects to the default server on first use, as
 * the calls of haptix/comm/haptix.h do.  docs/compat.md maps each call
 * onto MuJoCo and lists what differs; haptix(3) describes them.
 */
#ifndef HAPTIX_COMM_HAPTIX_SIM_H
#define HAPTIX_COMM_HAPTIX_SIM_H

#if defined(__cplusplus)
extern "C" {
#endif

#include "haptix.h"

/* Sizes of the fixed arrays below. */
#define hxsMAXCONTACT 200
#define hxsMAXLINKS 100
#define hxsMAXJOINTS 50
#define hxsMAXMODELS 50
#define hxsMAXNAMESIZE 100

/*
 * How a model collides: not at all (no contacts), detection only
 * (contacts reported without force; it passes through), or fully.
 */
typedef enum { hxsNOCOLLIDE, hxsDETECTIONONLY, hxsCOLLIDE } hxsCollideMode;

/* A position, velocity, force or torque (x, y, z). */
struct _hxsVector3 {
	float x;
	float y;
	float z;
};
typedef struct _hxsVector3 hxsVector3;

/* A colour: red, green, blue and opacity, each from 0 to 1. */
struct _hxsColor {
	float r;
	float g;
	float b;
	float alpha;
};
typedef struct _hxsColor hxsColor;

/* An orientation as a unit quaternion (w first). */
struct _hxsQuaternion {
	float w;
	float x;
	float y;
	float z;
};
typedef struct _hxsQuaternion hxsQuaternion;

/* A position and an orientation. */
struct _hxsTransform {
	hxsVector3 pos;
	hxsQuaternion orient;
};
typedef struct _hxsTransform hxsTransform;

/* A force (N) and a torque (N m). */
struct _hxsWrench {
	hxsVector3 force;
	hxsVector3 torque;
};
typedef struct _hxsWrench hxsWrench;

/* A joint of a model and its state. */
struct _hxsJoint {
	char name[hxsMAXNAMESIZE];
	float pos;                 /* rad or m */
	float vel;                 /* rad/s or m/s */
	float acc;                 /* rad/s^2 or m/s^2 */
	float torque_motor;        /* from the actuators: N m or N */
	hxsWrench wrench_reactive; /* from the constraints */
};
typedef struct _hxsJoint hxsJoint;

/* A link (body) of a model and its motion. */
struct _hxsLink {
	char name[hxsMAXNAMESIZE];
	hxsTransform transform; /* relative to the model's frame */
	hxsVector3 lin_vel;     /* m/s */
	hxsVector3 ang_vel;     /* rad/s */
	hxsVector3 lin_acc;     /* m/s^2 */
	hxsVector3 ang_acc;     /* rad/s^2 */
};
typedef struct _hxsLink hxsLink;

/* A model: its pose in the world, links and joints. */
struct _hxsModel {
	char name[hxsMAXNAMESIZE];
	hxsTransform transform; /* in the world frame */
	int link_count;
	hxsLink links[hxsMAXLINKS];
	int joint_count;
	hxsJoint joints[hxsMAXJOINTS];
	int gravity_mode; /* 1 if gravity acts on it */
};
typedef struct _hxsModel hxsModel;

/* One contact of a model's link with another link. */
struct _hxsContactPoint {
	char link1[hxsMAXNAMESIZE]; /* the model's link */
	char link2[hxsMAXNAMESIZE]; /* what it touches */
	hxsVector3 point;           /* in link 1's frame */
	hxsVector3 normal;          /* of the force on link 1, in its frame */
	float distance;             /* penetration depth (m) */
	hxsWrench wrench;           /* on link 1 at point, in its frame */
};
typedef struct _hxsContactPoint hxsContactPoint;

/* The contacts of a model. */
struct _hxsContactPoints {
	int contact_count;
	hxsContactPoint contacts[hxsMAXCONTACT];
};
typedef struct _hxsContactPoints hxsContactPoints;

/*
 * The world: its models and the view camera.  It is large (about 2 MB):
 * allocate it, do not put it on the stack.
 */
struct _hxsSimInfo {
	int model_count;
	hxsModel models[hxsMAXMODELS];
	hxsTransform camera_transform;
};
typedef struct _hxsSimInfo hxsSimInfo;

/* Describe the world: every model with its links and joints, the camera. */
hxResult hxs_sim_info(hxsSimInfo *_siminfo);

/* Get the view camera's transform (looking along its x axis, z up). */
hxResult hxs_camera_transform(hxsTransform *_transform);

/* Move the view camera that the viewers share. */
hxResult hxs_set_camera_transform(const hxsTransform *_transform);

/* Get the contacts of model _model's links. */
hxResult hxs_contacts(const char *_model, hxsContactPoints *_contact);

/* Get model _model with the state of its joints. */
hxResult hxs_model_joint_state(const char *_model, hxsModel *_state);

/* Set the position and velocity of joint _joint of model _model. */
hxResult hxs_set_model_joint_state(
    const char *_model, const char *_joint, float _pos, float _vel);

/*
 * Add model _name from a description (MJCF here; a small SDF subset of
 * simple shapes) at a pose in the world, with gravity or not; _model
 * gets the new model.
 */
hxResult hxs_add_model(const char *_sdf, const char *_name, float _x, float _y,
    float _z, float _roll, float _pitch, float _yaw, int _gravity_mode,
    hxsModel *_model);

/* Remove model _name. */
hxResult hxs_remove_model(const char *_name);

/* Move model _name to a transform in the world frame. */
hxResult hxs_set_model_transform(
    const char *_name, const hxsTransform *_transform);

/* Get model _name's transform in the world frame. */
hxResult hxs_model_transform(const char *_name, hxsTransform *_transform);

/* Get whether gravity acts on model _name (1) or not (0). */
hxResult hxs_model_gravity_mode(const char *_name, int *_gravity_mode);

/* Turn gravity on (1) or off (0) for model _name. */
hxResult hxs_set_model_gravity_mode(const char *_name, const int _gravity_mode);

/* Get the linear velocity of model _name's first link's centre of mass. */
hxResult hxs_linear_velocity(const char *_name, hxsVector3 *_velocity);

/* Set the linear velocity of model _name's centre of mass. */
hxResult hxs_set_linear_velocity(
    const char *_name, const hxsVector3 *_velocity);

/* Get the angular velocity of model _name's first link (world axes). */
hxResult hxs_angular_velocity(const char *_name, hxsVector3 *_ang_vel);

/* Set the angular velocity of model _name (world axes). */
hxResult hxs_set_angular_velocity(
    const char *_name, const hxsVector3 *_ang_vel);

/*
 * Push link _linkName of model _modelName with a force, a torque or both
 * (world axes, at its centre of mass) for _duration seconds of simulated
 * time; 0 lasts until a reset.
 */
hxResult hxs_apply_force(const char *_modelName, const char *_linkName,
    const hxsVector3 *_force, const float _duration);
hxResult hxs_apply_torque(const char *_modelName, const char *_linkName,
    const hxsVector3 *_torque, const float _duration);
hxResult hxs_apply_wrench(const char *_modelName, const char *_linkName,
    const hxsWrench *_wrench, const float _duration);

/* Reset the world; with _resetLimbPose 0 the hand keeps its pose. */
hxResult hxs_reset(int _resetLimbPose);

/* Start a log (the server's recording, in its state directory). */
hxResult hxs_start_logging(const char *_dirname);

/* Get whether a log is being written (1) or not (0). */
hxResult hxs_is_logging(int *_result);

/* Stop the log. */
hxResult hxs_stop_logging(void);

/* Set and get model _model's colour. */
hxResult hxs_set_model_color(const char *_model, const hxsColor *_color);
hxResult hxs_model_color(const char *_model, hxsColor *_color);

/* Set and get model _model's collide mode. */
hxResult hxs_set_model_collide_mode(
    const char *_model, const hxsCollideMode *_collide_mode);
hxResult hxs_model_collide_mode(
    const char *_model, hxsCollideMode *_collide_mode);

/*
 * Add a constraint (an MJCF weld or connect equality, or an SDF joint of
 * type fixed, ball or revolute) between links of models; remove it by
 * name.
 */
hxResult hxs_add_constraint(const char *_sdf, const char *_model);
hxResult hxs_remove_constraint(const char *_name, const char *_model);

#if defined(__cplusplus)
}
#endif

#endif
