/*
 * The simulation: sole owner of MuJoCo's model and data.
 *
 * Only the sim_*.c files include MuJoCo.  This interface speaks plain C:
 * sizes, double arrays and ids.  Callers check sizes and values before
 * calling a setter; the sim trusts its arguments but never lets a MuJoCo
 * error escape (mju_error is caught, the data reset and -1 returned).
 */
#ifndef HXD_SIM_H
#define HXD_SIM_H

#include <stddef.h>
#include <stdint.h>

struct sim;
struct arena;

struct sim_sizes {
	int nq, nv, na, nu, nbody, njnt, ngeom, nsite, ntendon, neq, nkey;
	int nmocap, nsensor, nsensordata, nmat;
	double timestep;
	double apirate; /* in effect: the override, else the model's */
};

/* Read-only views of MuJoCo's data arrays, valid until the next load. */
struct sim_arrays {
	const double *qpos, *qvel, *act, *ctrl, *qacc, *act_dot;
	const double *qacc_warmstart;
	const double *qfrc_applied, *xfrc_applied;
	const double *mocap_pos, *mocap_quat;
	const double *sensordata;
	const double *xpos, *xmat, *geom_xpos, *geom_xmat, *site_xpos,
	    *site_xmat;
	const double *ten_length, *ten_velocity;
	const double *actuator_length, *actuator_velocity, *actuator_force;
	const double *qfrc_passive, *qfrc_bias, *qfrc_actuator,
	    *qfrc_constraint, *qfrc_smooth;
};

enum sim_format {
	SIM_FORMAT_AUTO,
	SIM_FORMAT_MJCF,
	SIM_FORMAT_URDF,
	SIM_FORMAT_MJB,
};

struct sim_counters {
	uint64_t steps;               /* since the load or the reset: as time */
	uint64_t instability_resets;  /* bad qpos/qvel/qacc, reset by MuJoCo */
	uint64_t errors;              /* mju_error caught */
	const char *instability_what; /* "qpos", "qvel" or "qacc": the last */
	uint64_t model_edits;         /* writes into the model since loaded */
	double cpu_per_step;          /* seconds, moving average */
};

/* One body as HAPTIX's mjOneBody describes it. */
struct sim_onebody {
	int is_floating;
	double linacc[3], angacc[3], contactforce[3];
	double pos[3], quat[4], linvel[3], angvel[3];
	double force[3], torque[3];
};

/* Which parts of a sim_onebody sim_onebody_set() writes. */
#define SIM_BODY_POS 0x01u
#define SIM_BODY_QUAT 0x02u
#define SIM_BODY_LINVEL 0x04u
#define SIM_BODY_ANGVEL 0x08u
#define SIM_BODY_FORCE 0x10u
#define SIM_BODY_TORQUE 0x20u

/* Contacts, in arrays the caller provides (ncon elements each). */
struct sim_contacts {
	double *dist, *pos, *frame, *force;
	int32_t *geom1, *geom2;
};

/* What a model may declare (the settings model-max-*). */
struct sim_limits {
	int64_t bodies;         /* nbody, the world included */
	int64_t keys;           /* nkey */
	int64_t hfield_cells;   /* one height field's rows x columns */
	int64_t texture_pixels; /* one texture's width x height */
	int64_t mesh_vertices;  /* nmeshvert: all meshes' vertices */
};

/*
 * Check the loaded model against the limits.  Returns 0, or -1 with err
 * naming the first limit passed and its setting.
 */
int sim_check_limits(
    const struct sim *s, const struct sim_limits *l, char *err, size_t len);

/*
 * The state of the running model by names (sim_carry.c), taken before an
 * edit's model replaces it and given to the new one: time, joints, the
 * actuators' ctrl and act, mocap poses, applied forces, the colours
 * clients gave geoms (unless the edit gave them others).  take returns
 * NULL with no model; give and free take NULL.
 */
struct sim_carry;
struct sim_carry *sim_carry_take(const struct sim *s);
void sim_carry_give(struct sim *s, const struct sim_carry *c);
void sim_carry_free(struct sim_carry *c);

/*
 * Carry the keyframes of from's model into to's by the same names (a
 * joint's values, an actuator's, a mocap body's; what is new starts as
 * the model does), keyframe k to keyframe k.  set (may be NULL) is told
 * each keyframe's new values as MJCF attributes ("qpos", "0 0.1 ...") to
 * write them into the model's text.  Returns the keyframes carried.
 */
int sim_carry_keys(struct sim *to, const struct sim *from,
    void (*set)(void *arg, int key, const char *attr, const char *value),
    void *arg);

/* Create an empty simulation and install MuJoCo's error hooks. */
struct sim *sim_create(void);

/* Free the simulation; NULL is fine. */
void sim_free(struct sim *s);

/* Set the API rate to use instead of the model's (< 0: the model's). */
void sim_set_api_rate(struct sim *s, double hz);

/*
 * Load a model file (MJCF/URDF by default, MJB by its .mjb suffix).  On
 * failure the old model stays and err holds MuJoCo's message.
 */
int sim_load_file(struct sim *s, const char *path, char *err, size_t len);

/*
 * Load a model from memory.  With path (else NULL), the data stands for
 * that file: MuJoCo resolves its assets against the file's directory and
 * it is the model's path; otherwise name names it in logs.
 */
int sim_load_buffer(struct sim *s, enum sim_format fmt, const void *data,
    size_t size, const char *name, const char *path, char *err, size_t len);

/* Return 1 if sim_load_buffer() would read data as MJB (fmt may be AUTO). */
int sim_is_mjb(enum sim_format fmt, const void *data, size_t size);

/* Return 1 when a model is loaded. */
int sim_loaded(const struct sim *s);

/* Sizes, arrays, name and file of the loaded model. */
const struct sim_sizes *sim_sizes(const struct sim *s);
const struct sim_arrays *sim_arrays(const struct sim *s);
const char *sim_model_name(const struct sim *s);
const char *sim_model_path(const struct sim *s);
double sim_time(const struct sim *s);
const struct sim_counters *sim_counters(const struct sim *s);

/*
 * The loaded model as MuJoCo's MJB: a bound on its size, and the bytes
 * written into buf (size = sim_mjb_size() of them): returns how many
 * make the MJB, or 0 if out of memory.  MuJoCo's version, for readers.
 */
size_t sim_mjb_size(const struct sim *s);
size_t sim_mjb_save(const struct sim *s, void *buf, size_t size);
int sim_mujoco_version(void);

/*
 * Run fn(arg) with MuJoCo's errors caught.  Returns 0, or -1 after an
 * mju_error with its text in err; the data has then been reset.
 */
int sim_protect(
    struct sim *s, void (*fn)(void *), void *arg, char *err, size_t len);

/*
 * Bring the inputs to what the next step uses: servo references that
 * move by themselves (the simple API's ref_vel) advance one step.  Call
 * once before each sim_step; a caller that records the inputs a step
 * takes reads them in between.
 */
void sim_before_step(struct sim *s);

/*
 * Take one step.  Returns 0; 1 with err saying why when the step went
 * bad (see rollback below); -1 with MuJoCo's error in err (data reset).
 */
int sim_step(struct sim *s, char *err, size_t len);

/* Reset to keyframe key, or to the reference configuration if key < 0. */
void sim_reset(struct sim *s, int key);

/*
 * Put back every model array clients changed since the load (keyframes
 * excepted) and recompute (sim_pristine.c).  Returns how many arrays
 * differed; their names, comma-separated, go into names (len bytes).
 */
int sim_pristine_restore(struct sim *s, char *names, size_t len);

/* Recompute everything derived from the state (mj_forward). */
void sim_forward(struct sim *s);

/* Setters: sizes are the model's; values have been checked finite. */
void sim_set_state(
    struct sim *s, const double *qpos, const double *qvel, const double *act);
void sim_set_ctrl(struct sim *s, const double *ctrl);
void sim_set_applied(struct sim *s, const double *qfrc, const double *xfrc);
void sim_set_mocap(struct sim *s, const double *pos, const double *quat);

/*
 * One mocap body's pose, as given (quat unit), and one body's row of
 * xfrc_applied: plain writes that the next step reads.  Ids valid.
 */
void sim_mocap_set_one(
    struct sim *s, int i, const double pos[3], const double quat[4]);
void sim_xfrc_set_one(struct sim *s, int body, const double f6[6]);

/* The World API (sim_world.c).  The force that cancels body's weight. */
void sim_body_weight(const struct sim *s, int body, double f[3]);

/* Save xfrc_applied into saved (6 x nbody) and add add; put it back. */
void sim_xfrc_push(struct sim *s, const double *add, double *saved);
void sim_xfrc_pop(struct sim *s, const double *saved);

/* Collide modes of a body's subtree, as haptix_sim.h numbers them. */
#define SIM_NOCOLLIDE 0 /* contype and conaffinity 0 */
#define SIM_DETECT 1    /* contacts kept out of the solver (geom_gap) */
#define SIM_COLLIDE 2   /* as the model was loaded */
int sim_collide_get(const struct sim *s, int body);
void sim_collide_set(struct sim *s, int body, int mode);

/* The model's own view: MuJoCo's free camera, looking along its x. */
void sim_camera_default(const struct sim *s, double pos[3], double quat[4]);

/* The body of mocap index i, or -1; the mocap index of a body, or -1. */
int sim_mocap_body(const struct sim *s, int i);
int sim_body_mocap(const struct sim *s, int body);

/* Get one body; id must be valid. */
void sim_onebody_get(struct sim *s, int id, struct sim_onebody *out);

/* Set the parts of one body named by fields; id must be valid. */
void sim_onebody_set(
    struct sim *s, int id, const struct sim_onebody *in, unsigned fields);

/* The applied generalized force: qfrc_applied plus mapped xfrc_applied. */
void sim_force_applied(const struct sim *s, double *out);

/* Return the number of contacts; fill out if it is not NULL. */
int sim_contacts(const struct sim *s, const struct sim_contacts *out);

/*
 * Set a geom's size and its bounding radius.  Returns 0; -1 for a mesh or
 * height field, -2 for a size its type cannot take; err says which.
 */
int sim_set_geomsize(
    struct sim *s, int id, const double size[3], char *err, size_t len);

/*
 * Colour of an object: objtype is the protocol's ObjType (geom, site,
 * tendon, material).  Returns 0, -1 for a type without colour, -2 for an
 * id out of range.
 */
int sim_rgba_get(const struct sim *s, int objtype, int id, double rgba[4]);
int sim_rgba_set(struct sim *s, int objtype, int id, const double rgba[4]);

/* Enable or disable equality constraint id (valid). */
void sim_equality(struct sim *s, int id, int active);

/*
 * Names and ids by the protocol's ObjType.  sim_name2id returns the id,
 * -1 if not found, -2 for a type without names; sim_id2name returns the
 * name ("" when unnamed), or NULL for a bad type (*bad_index = 0) or id
 * (*bad_index = 1).
 */
int sim_name2id(const struct sim *s, int objtype, const char *name);
const char *sim_id2name(
    const struct sim *s, int objtype, int id, int *bad_index);

/*---------------------------------------------------- the simple API */

enum {
	SIM_SERVO_POSITION,
	SIM_SERVO_VELOCITY,
};

/* The model as HAPTIX's simple API sees it (see sim_robot.c). */
struct sim_robot_info {
	int nmotor, njoint, ncontact, nimu;
	int servo; /* SIM_SERVO_*, the kind of the first actuator */
	double update_rate;
};

/*
 * Describe the robot; limits (2 per motor, 2 per joint; (0, 0) when not
 * limited) are written when the arrays are not NULL.
 */
void sim_robot_info(const struct sim *s, struct sim_robot_info *out,
    double *motor_limit, double *joint_limit);

/*
 * A simple-API command: NULL arrays are not enabled; others have nmotor
 * values.  client names the sender, for sim_robot_gains_undone().
 */
struct sim_robot_command {
	const double *ref_pos, *ref_vel, *gain_pos, *gain_vel, *ref_vel_max;
	uint64_t client;
};

/*
 * Apply a command as HAPTIX's manual says: references clamped to the
 * control ranges; a position servo takes ref_pos, ref_vel (integrated
 * over one API period) and gain_pos (kp), a velocity servo ref_vel and
 * gain_vel (kv); the other fields are ignored.  Values have been checked
 * finite.
 */
void sim_robot_command(struct sim *s, const struct sim_robot_command *c);

/*
 * Return 1, once, with the reason in why, if the servo gains client set
 * were undone because the simulation went unstable with them; else 0.
 */
int sim_robot_gains_undone(
    struct sim *s, uint64_t client, char *why, size_t len);

/* Sensor values in the simple API's layout, into arrays sized by the info. */
struct sim_robot_sensor {
	double *motor_pos, *motor_vel, *motor_torque;
	double *joint_pos, *joint_vel, *contact;
	double *imu_acc, *imu_gyro; /* 3 per IMU */
};

void sim_robot_sensor(const struct sim *s, const struct sim_robot_sensor *out);

/*---------------------------------------------------- arrays by name */

/* Element types, numbered as the protocol's ArrayType (api_array.c checks). */
enum sim_array_type {
	SIM_ARRAY_DOUBLE, /* mjtNum */
	SIM_ARRAY_FLOAT,
	SIM_ARRAY_INT,
	SIM_ARRAY_BYTE, /* mjtByte */
};

/* One mjModel or mjData array as it is now. */
struct sim_array_info {
	const char *name;  /* MuJoCo's, without a prefix */
	const char *owner; /* "model" or "data" */
	enum sim_array_type type;
	int rows, cols; /* mjxmacro.h's, with nefc rows/columns for njmax */
	const char *refusal; /* NULL if writable, else why writes are refused */
};

/* The number of arrays: ids run from 0 to this less one. */
int sim_array_count(void);

/*
 * Find an array by its MuJoCo name, optionally prefixed "model." or
 * "data.".  Returns its id, or -1; then *why is NULL for an unknown name
 * or says why a MuJoCo array of that name (names, contact) is not offered.
 */
int sim_array_find(const char *name, const char **why);

/* Describe array id in the loaded model. */
void sim_array_describe(
    const struct sim *s, int id, struct sim_array_info *out);

/* Copy array id's rows x cols values, as doubles, into out. */
void sim_array_get(const struct sim *s, int id, double *out);

/*
 * Write n finite values into array id from element offset; offset + n is
 * within the array.  Data state writes are followed by mj_forward.
 * Returns 0, or -1 with the reason in err when the array is not writable
 * or a value does not fit its type or domain; nothing is written then.
 */
int sim_array_set(struct sim *s, int id, size_t offset, size_t n,
    const double *v, char *err, size_t len);

/*-------------------------------------------------- keys and joints */

/* The longest name of a captured state. */
#define SIM_KEY_NAME_MAX 63

/*
 * Capture the current state (time, qpos, qvel, act, mocap, ctrl) under
 * name: into the model's keyframe of that name if it has one, else as a
 * state the sim keeps until the next load.  With an empty name, into
 * keyframe key (valid).  Returns the keyframe, -1 for a kept state, or
 * -2 with the reason in err.
 */
int sim_key_capture(
    struct sim *s, const char *name, int key, char *err, size_t len);

/*
 * Reset to the keyframe or captured state named name.  Returns the
 * keyframe, -1 for a captured state, -2 if there is none of that name.
 */
int sim_reset_name(struct sim *s, const char *name);

/* Return 1 if name is a keyframe or a captured state sim_reset_name knows. */
int sim_reset_name_exists(const struct sim *s, const char *name);

/* The names of the captured states: up to max into names; returns all. */
int sim_key_names(const struct sim *s, const char **names, int max);

/*
 * Set one joint's position and/or velocity (empty: leave) by its name,
 * then recompute.  Quaternions are normalised.  Returns 0; -1 for no
 * such joint, -2 for wrong sizes, -3 for a quaternion of length zero,
 * with the reason in err.  Values have been checked finite.
 */
int sim_joint_set(struct sim *s, const char *name, const double *qpos,
    size_t nqpos, const double *qvel, size_t nqvel, char *err, size_t len);

/* One joint as sim_joint_get() describes it. */
struct sim_joint {
	int id, type; /* type: MuJoCo's mjtJoint (free, ball, slide, hinge) */
	const char *name, *body; /* "" when unnamed */
	int body_id, qpos_adr, dof_adr;
	int nq, nv; /* 7 and 6 (free), 4 and 3 (ball), 1 and 1 */
	double axis[3], range[2];
	int limited;
	const double *qpos, *qvel; /* into the data: valid until it changes */
};

/*
 * Describe a joint by name, or by id when name is empty.  Returns 0, or
 * -1 with the reason in err when there is no such joint.
 */
int sim_joint_get(const struct sim *s, const char *name, int id,
    struct sim_joint *out, char *err, size_t len);

/* Hold the servos at the current pose (zero = 0), or zero all controls. */
void sim_controls_hold(struct sim *s, int zero);

/*---------------------------------------- joints held on a path */

/* The equality named name, or -1 (or no model). */
int sim_equality_id(const struct sim *s, const char *name);

/*
 * Hold the joint of equality eq (a joint equality on one joint) at
 * target from the next step on: its offset, polycoef[0], becomes target
 * less the joint's qpos0.  A change counts as a model edit.  Returns 0,
 * or -1 if eq is not such an equality.
 */
int sim_hold_set(struct sim *s, int eq, double target);

/* Where the joint of hold equality eq is now (its qpos). */
double sim_hold_position(const struct sim *s, int eq);

/* The force of equality eq's constraint rows in the last step (or 0). */
double sim_hold_force(const struct sim *s, int eq);

/*------------------------------------------------------------- misc */

/* Fill the energies (potential, kinetic) of the current state. */
void sim_energy(struct sim *s, double energy[2]);

/* Return the numbers of active constraints and of contacts. */
void sim_constraints(const struct sim *s, int *nefc, int *ncon);

/*
 * Rollback (sim_rollback.c): a step that goes bad is undone.  After each
 * good step, sim_good keeps the state and the inputs of mjData (qpos,
 * qvel, act, ctrl, applied forces, mocap, userdata, the warm start, the
 * time); every write to the model since is noted first (sim_undo_note:
 * the bytes at at, setconst if mj_setConst follows it).  sim_step returns
 * 1, err saying why, when MuJoCo found the state bad (and reset it) or
 * the state is not finite; sim_rollback then puts back the model's bytes
 * and the data as kept.  0, or -1 if nothing was kept for this model.
 */
void sim_good(struct sim *s);
void sim_undo_note(struct sim *s, void *at, size_t len, int setconst);
int sim_step_bad(const struct sim *s, char *why, size_t len);
int sim_rollback(struct sim *s);

/*
 * A step went bad and is not undone: MuJoCo's reset stands (and the data
 * is reset to the reference if the state is not finite, which MuJoCo does
 * not check), and the servo gains clients set go back to the model's own.
 */
void sim_settle_unstable(struct sim *s);

/* The step count of the last good step. */
uint64_t sim_good_step(const struct sim *s);

#endif
