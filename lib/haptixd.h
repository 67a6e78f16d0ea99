/*
 * haptixd.h: the haptixd extension API of libhaptix.
 *
 * Double precision and any array size, an explicit connection handle (so
 * one program may talk to several servers), and the calls beyond MuJoCo
 * HAPTIX: model loading, pause and run, speed and status.  It can be used
 * alone or next to haptix.h; the names do not collide.
 *
 * Conventions:
 *  - Every call returns an hxd_result: HXD_OK (0) or a negative code whose
 *    value equals HAPTIX's mjtResult where HAPTIX has one.  hxd_error()
 *    then says what was wrong.
 *  - Get calls that return variable-size data allocate one block holding
 *    the struct and its arrays; the caller frees it with free().
 *  - Set calls read only the caller's struct; its arrays may live anywhere.
 *  - A connection is used by one thread at a time.
 *  - The library never prints and never exits.
 */
#ifndef HAPTIXD_H
#define HAPTIXD_H

#include <stddef.h>

#if defined(__cplusplus)
extern "C" {
#endif

/* The TCP port haptixd listens on unless told otherwise. */
#define HXD_DEFAULT_PORT 5790

/* The receive timeout of a new connection, in milliseconds. */
#define HXD_DEFAULT_TIMEOUT_MS 10000

enum hxd_result {
	HXD_OK = 0,
	HXD_BADSIZE = -1,      /* an array or count does not match the model */
	HXD_BADINDEX = -2,     /* an object id or keyframe is out of range */
	HXD_BADTYPE = -3,      /* object type not valid for this call */
	HXD_BADCOMMAND = -4,   /* the server does not know this call */
	HXD_NOMODEL = -5,      /* no model is loaded */
	HXD_CANNOTSEND = -6,   /* the request could not be sent */
	HXD_CANNOTRECV = -7,   /* the answer could not be received */
	HXD_TIMEOUT = -8,      /* no answer within the timeout */
	HXD_NOCONNECTION = -9, /* not connected */
	HXD_CONNECTED = -10,   /* already connected */
	HXD_BADVALUE = -11,    /* NaN, Inf or a value outside its domain */
	HXD_DENIED = -12,      /* refused: token, path, limits */
	HXD_LOADFAILED = -13,  /* the model did not load (MuJoCo's text) */
	HXD_BADPROTOCOL = -14, /* malformed frame, wrong version, no Hello */
	HXD_SIMERROR = -15,    /* MuJoCo raised an error; the data was reset */
};

/* Object types, as in MuJoCo 2.2's mjtObj. */
enum hxd_obj {
	HXD_OBJ_UNKNOWN = 0,
	HXD_OBJ_BODY,
	HXD_OBJ_XBODY,
	HXD_OBJ_JOINT,
	HXD_OBJ_DOF,
	HXD_OBJ_GEOM,
	HXD_OBJ_SITE,
	HXD_OBJ_CAMERA,
	HXD_OBJ_LIGHT,
	HXD_OBJ_MESH,
	HXD_OBJ_SKIN,
	HXD_OBJ_HFIELD,
	HXD_OBJ_TEXTURE,
	HXD_OBJ_MATERIAL,
	HXD_OBJ_PAIR,
	HXD_OBJ_EXCLUDE,
	HXD_OBJ_EQUALITY,
	HXD_OBJ_TENDON,
	HXD_OBJ_ACTUATOR,
	HXD_OBJ_SENSOR,
	HXD_OBJ_NUMERIC,
	HXD_OBJ_TEXT,
	HXD_OBJ_TUPLE,
	HXD_OBJ_KEY,
};

/* Model file formats for hxd_load_data(). */
enum hxd_format {
	HXD_FORMAT_AUTO = 0, /* MJB if the data starts with MJB's magic, else
				XML */
	HXD_FORMAT_MJCF,
	HXD_FORMAT_URDF,
	HXD_FORMAT_MJB,
};

typedef struct hxd_conn hxd_conn;

/* Sizes and timing of a model. */
typedef struct hxd_model {
	char name[256];
	char path[4096]; /* empty for a model sent inline */
	int nq, nv, na, nu, nbody, njnt, ngeom, nsite, ntendon, neq, nkey;
	int nmocap, nsensor, nsensordata, nmat;
	double timestep;
	double apirate; /* update rate of hx_update/mj_update (Hz) */
} hxd_model;

/* Static description of the model; names are "" for unnamed objects. */
typedef struct hxd_info {
	hxd_model model;
	int *sensor_type;      /* nsensor, HAPTIX numbering (see haptix(3)) */
	int *sensor_datatype;  /* nsensor */
	int *sensor_objtype;   /* nsensor, enum hxd_obj */
	int *sensor_objid;     /* nsensor */
	int *sensor_dim;       /* nsensor */
	int *sensor_adr;       /* nsensor */
	double *sensor_noise;  /* nsensor */
	int *jnt_type;         /* njnt: 0 free, 1 ball, 2 slide, 3 hinge */
	int *jnt_bodyid;       /* njnt */
	int *jnt_qposadr;      /* njnt */
	int *jnt_dofadr;       /* njnt */
	int *jnt_limited;      /* njnt */
	double *jnt_range;     /* 2 x njnt */
	int *geom_type;        /* ngeom */
	int *geom_bodyid;      /* ngeom */
	int *eq_type;          /* neq */
	int *eq_obj1id;        /* neq */
	int *eq_obj2id;        /* neq */
	int *actuator_trntype; /* nu */
	int *actuator_trnid;   /* 2 x nu */
	int *actuator_ctrllimited;  /* nu */
	double *actuator_ctrlrange; /* 2 x nu */
	int *body_parentid;         /* nbody */
	int *body_mocapid;          /* nbody; -1 if not a mocap body */
	const char **body_name;     /* nbody */
	const char **jnt_name;      /* njnt */
	const char **geom_name;     /* ngeom */
	const char **site_name;     /* nsite */
	const char **tendon_name;   /* ntendon */
	const char **actuator_name; /* nu */
	const char **sensor_name;   /* nsensor */
	const char **eq_name;       /* neq */
	const char **key_name;      /* nkey */
	const char **mat_name;      /* nmat */
} hxd_info;

typedef struct hxd_state {
	int nq, nv, na;
	double time;
	double *qpos, *qvel, *act;
} hxd_state;

typedef struct hxd_control {
	int nu;
	double time;
	double *ctrl;
} hxd_control;

typedef struct hxd_applied {
	int nv, nbody;
	double time;
	double *qfrc_applied; /* nv */
	double *xfrc_applied; /* 6 x nbody: force, torque */
} hxd_applied;

/* One body: HAPTIX's mjOneBody in double precision. */
typedef struct hxd_onebody {
	int body_id;
	int is_floating;
	double time;
	double linacc[3], angacc[3], contactforce[3];
	double pos[3], quat[4], linvel[3], angvel[3];
	double force[3], torque[3];
} hxd_onebody;

/* Joint types, as MuJoCo numbers them. */
#define HXD_JOINT_FREE 0
#define HXD_JOINT_BALL 1
#define HXD_JOINT_SLIDE 2
#define HXD_JOINT_HINGE 3

/*
 * One joint and its state.  qpos holds nq values: 1 (hinge, slide), 4
 * (ball: quaternion w x y z) or 7 (free: position, then quaternion); qvel
 * nv: 1, 3 (ball: angular velocity) or 6 (free: linear, then angular).
 */
typedef struct hxd_joint {
	char name[64];
	char body[64]; /* the body it moves; "" if unnamed */
	int id, type;  /* type: HXD_JOINT_* */
	int body_id, qpos_adr, dof_adr;
	double axis[3];  /* in the body's frame (hinge, slide) */
	int limited;     /* range applies */
	double range[2]; /* lower, upper */
	int nq, nv;
	double qpos[7], qvel[6];
	double time;
} hxd_joint;

/* Which quantities hxd_set_onebody() writes. */
#define HXD_ONEBODY_POS 0x01u
#define HXD_ONEBODY_QUAT 0x02u
#define HXD_ONEBODY_LINVEL 0x04u
#define HXD_ONEBODY_ANGVEL 0x08u
#define HXD_ONEBODY_FORCE 0x10u
#define HXD_ONEBODY_TORQUE 0x20u
#define HXD_ONEBODY_ALL 0x3fu

typedef struct hxd_mocap {
	int nmocap;
	double time;
	double *pos;  /* 3 x nmocap */
	double *quat; /* 4 x nmocap */
} hxd_mocap;

typedef struct hxd_dynamics {
	int nv, na;
	double time;
	double *qacc, *act_dot;
} hxd_dynamics;

typedef struct hxd_sensor {
	int nsensordata;
	double time;
	double *sensordata;
} hxd_sensor;

/* Frames of all bodies, geoms or sites. */
typedef struct hxd_poses {
	int count;
	double time;
	double *pos; /* 3 x count */
	double *mat; /* 9 x count, row-major */
} hxd_poses;

typedef struct hxd_tendon {
	int ntendon;
	double time;
	double *length, *velocity;
} hxd_tendon;

typedef struct hxd_actuator {
	int nu;
	double time;
	double *length, *velocity, *force;
} hxd_actuator;

/* M qacc = nonconstraint + constraint; nonconstraint = applied + passive +
 * actuator - bias. */
typedef struct hxd_force {
	int nv;
	double time;
	double *applied, *passive, *bias, *actuator, *constraint,
	    *nonconstraint;
} hxd_force;

typedef struct hxd_contacts {
	int ncon;
	double time;
	double *dist;  /* ncon */
	double *pos;   /* 3 x ncon */
	double *frame; /* 9 x ncon, normal first */
	double *force; /* 3 x ncon, in the contact frame */
	int *geom1, *geom2;
} hxd_contacts;

/*
 * The members of a result struct, as its message describes them, for
 * programs that convert or print any of them (hxctl, the MEX file): a
 * name, its kind, where it is and, for an array, where its count is.
 */
enum hxd_member_kind {
	HXD_MEMBER_NUM,   /* double */
	HXD_MEMBER_INT,   /* int */
	HXD_MEMBER_NUMS,  /* double *: count x per values */
	HXD_MEMBER_INTS,  /* int *: count x per values */
	HXD_MEMBER_FIXED, /* double[per], in the struct */
	HXD_MEMBER_STRS,  /* const char **: count x per strings */
};

typedef struct hxd_member {
	const char *name;    /* NULL ends a list */
	int kind;            /* enum hxd_member_kind */
	size_t offset;       /* in the struct */
	size_t count;        /* arrays: offset of the int that counts them */
	int per;             /* arrays: values per counted object */
	const char *counted; /* arrays: that int's name ("nq", "model.njnt") */
} hxd_member;

/*
 * The members of result struct type ("hxd_state", "hxd_control",
 * "hxd_applied", "hxd_onebody", "hxd_mocap", "hxd_dynamics", "hxd_sensor",
 * "hxd_poses", "hxd_tendon", "hxd_actuator", "hxd_force", "hxd_contacts",
 * "hxd_info", "hxd_robot", "hxd_robot_sensor"), in the order the
 * protocol lists them; NULL for another name.
 */
const hxd_member *hxd_members(const char *type);

/* What HAPTIX's info box showed, and the daemon's counters. */
/* A recording the server writes (docs/recording.md). */
typedef struct hxd_recording {
	int active;
	char path[4096]; /* on the server */
	unsigned every;  /* steps from one record to the next */
	int journal;     /* with the journal (HXD_RECORD_JOURNAL) */
	unsigned long long records, bytes;
	unsigned long long journal_entries; /* inputs journaled */
	char ended[256];          /* why the last one ended, when not active */
	unsigned long long quota; /* the most bytes of a file, 0: none */
} hxd_recording;

/* The tracking of one mocap body by a motion-capture driver. */
typedef struct hxd_tracking {
	int mocap;                 /* the mocap body's index */
	char body[64];             /* its name */
	int connected;             /* the physical body moves it */
	int offset_set;            /* connected, and a pose came since */
	unsigned long long driver; /* client of the newest pose, 0: none */
	char driver_name[64];
	unsigned long long poses; /* received since the model loaded */
	double rate;              /* poses per second, the last second */
	double age;               /* seconds since the newest was sampled */
	double latency;           /* sampling to the first step using it,
				     seconds; < 0: not yet */
	double source_time;       /* the source's timestamp of the newest */
} hxd_tracking;

/* A driver's force and torque on a body (world axes, centre of mass). */
typedef struct hxd_perturbation {
	int body;
	char name[64];
	double force[3], torque[3];
	unsigned long long driver; /* the client that owns it */
	char driver_name[64];
	double age;     /* seconds since the driver last sent it */
	double timeout; /* seconds of silence before it is dropped */
} hxd_perturbation;

/* As many as the server reports (its PERTURB_MAX; mocap bodies past the
 * 64th are not reported). */
#define HXD_STATUS_TRACKING_MAX 64
#define HXD_STATUS_PERTURBATIONS_MAX 64

typedef struct hxd_status {
	hxd_model model;
	double time;
	unsigned long long steps;
	int paused;
	double speed;
	int speed_max;
	double realtime_factor;
	double cpu_per_step; /* seconds */
	int nefc, ncon;
	double energy_potential, energy_kinetic;
	unsigned long long instability_resets;
	unsigned long long sim_errors;
	unsigned long long overruns;
	int clients;
	char message[1024];
	double uptime;
	int lagging; /* running slower than asked: the CPU cannot keep up */
	unsigned long long lease_holder; /* client holding the lease, 0: none */
	char lease_holder_name[64];
	unsigned long long batch_session; /* client running a batch, 0: none */
	struct {
		int max_clients;
		unsigned long long max_frame;   /* bytes in one frame */
		unsigned long long max_queued;  /* unsent bytes per client */
		int max_subscriptions;          /* per client */
		double load_timeout;            /* seconds one load may take */
		unsigned long long load_memory; /* bytes for the loader */
		/* What a model may declare: bodies, keys, cells of one
		 * height field, pixels of one texture, mesh vertices. */
		unsigned long long model_max_bodies, model_max_keys;
		unsigned long long model_max_hfield, model_max_texture;
		unsigned long long model_max_mesh_vertices;
		int max_handshakes; /* yet to say Hello, per transport */
	} limits; /* what the server enforces (haptixd --max-*) */
	hxd_recording recording; /* the one running, or the last one */
	struct {
		unsigned long long ticks; /* wakeups that found a step due */
		double lateness_p50, lateness_p99, lateness_max; /* seconds */
	} pacing;      /* how late steps started, since run, speed or model */
	int ntracking; /* mocap bodies fed by a driver or connected */
	hxd_tracking tracking[HXD_STATUS_TRACKING_MAX];
	int nperturbations; /* drivers' forces in effect */
	hxd_perturbation perturbations[HXD_STATUS_PERTURBATIONS_MAX];
	double perturb_timeout;  /* seconds (haptixd --perturb-timeout) */
	char steps_refused[320]; /* why the slow-step guard refuses steps, ""
				    when it does not */
	/* Writes into the model through the API since it loaded (set_rgba,
	 * set_array, ...): they send no event, a copy follows this. */
	unsigned long long model_edits;
	struct {
		double seconds;            /* covered when full; 0: none kept */
		unsigned long long memory; /* its bound, bytes */
		unsigned states, capacity; /* kept now, and at most */
		unsigned long long bytes;  /* the memory they take */
		unsigned stride;           /* one step kept in stride */
		double oldest, newest;     /* their simulated times */
	} history; /* the live run's kept states (hxd_history()) */
} hxd_status;

/*-------------------------------------------------------- connection */

/*
 * Connect to a server and say Hello.  server is NULL or "" (the default:
 * $HAPTIX_SERVER, else the default Unix socket), "unix:PATH", "HOST",
 * "HOST:PORT" or "[V6ADDR]:PORT".  client_name may be NULL.  A token is
 * read from the file named by $HAPTIX_TOKEN_FILE when it is set, and
 * the control lease shared when $HAPTIX_LEASE holds its token (hxctl
 * lease run sets it; see hxd_lease()).
 * Returns a handle even on failure (NULL only when memory is exhausted):
 * check hxd_result(); free it with hxd_close().
 */
hxd_conn *hxd_connect(const char *server, const char *client_name);

/*
 * Like hxd_connect(), with the timeout (see hxd_set_timeout()) already
 * applied to the connection and the handshake.
 */
hxd_conn *hxd_connect_timeout(
    const char *server, const char *client_name, int milliseconds);

/* Close the connection and free the handle; NULL is fine. */
void hxd_close(hxd_conn *c);

/* Return 1 while the connection is usable, else 0. */
int hxd_connected(const hxd_conn *c);

/* Return the result of the last call on c. */
int hxd_result(const hxd_conn *c);

/* Return what went wrong in the last call on c, or "" if it succeeded. */
const char *hxd_error(const hxd_conn *c);

/* Return the model the server announced at connect time. */
const hxd_model *hxd_welcome_model(const hxd_conn *c);

/*
 * Return the server c was opened to, as "unix:PATH" or "tcp:HOST:PORT",
 * with the defaults applied ($HAPTIX_SERVER, the default socket, the
 * default port); "" for a server address that did not parse.
 */
const char *hxd_server_address(const hxd_conn *c);

/* Set how long a call waits for its answer; 0 waits forever. */
void hxd_set_timeout(hxd_conn *c, int milliseconds);

/* Return a short description of a result code ("data has invalid size"). */
const char *hxd_result_text(int result);

/* Return the HAPTIX name of a result code ("mjCOM_BADSIZE"). */
const char *hxd_result_name(int result);

/* Return the object type named by s ("body", "geom", ...), or HXD_OBJ_UNKNOWN. */
int hxd_obj_parse(const char *s);

/* Return the name of an object type, or "unknown". */
const char *hxd_obj_name(int type);

/*------------------------------------------------------ native calls */

/* Get the static description of the model; free *out with free(). */
int hxd_info_get(hxd_conn *c, hxd_info **out);

/* Get and set the state (qpos, qvel, act); free *out with free(). */
int hxd_get_state(hxd_conn *c, hxd_state **out);
int hxd_set_state(hxd_conn *c, const hxd_state *state);

/* Get and set the controls. */
int hxd_get_control(hxd_conn *c, hxd_control **out);
int hxd_set_control(hxd_conn *c, const hxd_control *control);

/* Get and set the applied generalized and Cartesian forces. */
int hxd_get_applied(hxd_conn *c, hxd_applied **out);
int hxd_set_applied(hxd_conn *c, const hxd_applied *applied);

/* Get one body, by id; set the quantities of one body named by fields. */
int hxd_get_onebody(hxd_conn *c, int body_id, hxd_onebody *out);
int hxd_set_onebody(hxd_conn *c, const hxd_onebody *body, unsigned fields);

/* Get and set the mocap bodies' poses. */
int hxd_get_mocap(hxd_conn *c, hxd_mocap **out);
int hxd_set_mocap(hxd_conn *c, const hxd_mocap *mocap);

/* Get results of the last forward dynamics; free *out with free(). */
int hxd_get_dynamics(hxd_conn *c, hxd_dynamics **out);
int hxd_get_sensor(hxd_conn *c, hxd_sensor **out);
int hxd_get_body(hxd_conn *c, hxd_poses **out);
int hxd_get_geom(hxd_conn *c, hxd_poses **out);
int hxd_get_site(hxd_conn *c, hxd_poses **out);
int hxd_get_tendon(hxd_conn *c, hxd_tendon **out);
int hxd_get_actuator(hxd_conn *c, hxd_actuator **out);
int hxd_get_force(hxd_conn *c, hxd_force **out);
int hxd_get_contact(hxd_conn *c, hxd_contacts **out);

/* Set a geom's size (3 numbers, as in MJCF); collision bounds follow. */
int hxd_set_geomsize(hxd_conn *c, int geom_id, const double size[3]);

/* Get and set the colour of a geom, site, tendon or material. */
int hxd_get_rgba(hxd_conn *c, int type, int id, double rgba[4]);
int hxd_set_rgba(hxd_conn *c, int type, int id, const double rgba[4]);

/*
 * While paused, take count steps (0 means 1); while running, do nothing.
 * *taken (may be NULL) receives the number of steps taken.
 */
int hxd_step(hxd_conn *c, unsigned count, unsigned *taken);

/*
 * Set the controls (control may be NULL to leave them), then: while paused
 * take one step; while running wait for the next API tick (1/apirate), or
 * not at all when apirate < 1.  Returns the sensor data; free with free().
 */
int hxd_update(hxd_conn *c, const hxd_control *control, hxd_sensor **out);

/*
 * Reset to a keyframe, or to the model's reference pose if keyframe < 0;
 * the model parameters clients changed (servo gains, arrays, colours,
 * geom sizes, equalities; not keyframes) go back to the model's.
 */
int hxd_reset(hxd_conn *c, int keyframe);

/* Reset to the keyframe or captured state (hxd_capture_key) named name. */
int hxd_reset_name(hxd_conn *c, const char *name);

/*
 * Reset as hxd_reset(), or as hxd_reset_name() when name is not NULL or
 * "", but keep the model parameters clients changed.
 */
int hxd_reset_keep(hxd_conn *c, int keyframe, const char *name);

/*
 * Capture the current state (time, qpos, qvel, act, mocap, ctrl) under
 * name: into the model's keyframe of that name if there is one, else as
 * a state the server keeps until the next model load.  With name NULL or
 * "", into keyframe `keyframe` (HAPTIX's Sim=>Key).
 */
int hxd_capture_key(hxd_conn *c, const char *name, int keyframe);

/*
 * Set one joint's position (nqpos values: 1 for hinge and slide joints, 4
 * for ball, 7 for free; 0 to leave it) and velocity (nqvel: 1, 3 or 6;
 * 0 to leave it) by the joint's name.
 */
int hxd_set_joint(hxd_conn *c, const char *name, const double *qpos, int nqpos,
    const double *qvel, int nqvel);

/*
 * Get one joint by name (or, with name NULL or "", by id): its type,
 * body, addresses, axis, range and state.  HXD_BADINDEX if there is none.
 */
int hxd_get_joint(hxd_conn *c, const char *name, int id, hxd_joint *out);

/* Enable (1) or disable (0) an equality constraint. */
int hxd_equality(hxd_conn *c, int eq_id, int state);

/* Show a message on the server's viewers; NULL or "" clears it. */
int hxd_message(hxd_conn *c, const char *text);

/* Find an object's id by name: *id is -1 when there is no such name. */
int hxd_name2id(hxd_conn *c, int type, const char *name, int *id);

/* Find an object's name by id, into buf ("" for an unnamed object). */
int hxd_id2name(hxd_conn *c, int type, int id, char *buf, size_t len);

/*------------------------------------------------ the simple API (hx_) */

/* The kind of servo the simple API assumes, decided by the first actuator. */
enum hxd_servo {
	HXD_SERVO_POSITION = 0,
	HXD_SERVO_VELOCITY = 1,
};

/*
 * The model as HAPTIX's simple API sees it: motors are the actuators,
 * joints the joint position/velocity sensors, contact sensors the touch
 * sensors, IMUs the accelerometer/gyro pairs.
 */
typedef struct hxd_robot {
	int motor_count, joint_count, contact_sensor_count, imu_count;
	double *motor_limit; /* 2 x motor_count; (0, 0) when not limited */
	double *joint_limit; /* 2 x joint_count */
	double update_rate;  /* Hz */
	int servo;           /* enum hxd_servo */
} hxd_robot;

/* A command: each non-NULL array has motor_count values and is applied. */
typedef struct hxd_robot_command {
	int motor_count;
	int no_wait;               /* answer at once, even while running */
	const double *ref_pos;     /* reference positions */
	const double *ref_vel;     /* reference velocities (see haptix(3)) */
	const double *gain_pos;    /* position gains, >= 0 */
	const double *gain_vel;    /* velocity gains, >= 0 */
	const double *ref_vel_max; /* speed limit of the reference, >= 0 */
} hxd_robot_command;

typedef struct hxd_robot_sensor {
	double time;
	int motor_count, joint_count, contact_sensor_count, imu_count;
	double *motor_pos, *motor_vel, *motor_torque; /* motor_count */
	double *joint_pos, *joint_vel;                /* joint_count */
	double *contact;                              /* contact_sensor_count */
	double *imu_linear_acc, *imu_angular_vel;     /* 3 x imu_count */
} hxd_robot_sensor;

/* Describe the robot (hx_robot_info); free *out with free(). */
int hxd_robot_info(hxd_conn *c, hxd_robot **out);

/*
 * Apply a command (NULL: none) and get the sensors (hx_update): while
 * running this waits for the next API tick, unless the update rate is
 * below 1 Hz or cmd->no_wait is set; while paused it does not step.  Free
 * *out with free().
 */
int hxd_robot_update(
    hxd_conn *c, const hxd_robot_command *cmd, hxd_robot_sensor **out);

/*----------------------------------------------------- arrays by name */

enum hxd_array_type {
	HXD_ARRAY_DOUBLE = 0, /* mjtNum */
	HXD_ARRAY_FLOAT = 1,
	HXD_ARRAY_INT = 2,
	HXD_ARRAY_BYTE = 3, /* mjtByte */
};

/* An mjModel or mjData array, by its MuJoCo name ("qpos", "geom_rgba"). */
typedef struct hxd_array {
	char name[64];
	char owner[8];     /* "model" or "data" */
	int type;          /* enum hxd_array_type; values travel as doubles */
	int rows, cols;    /* as MuJoCo's mjxmacro.h sizes them */
	int writable;      /* safe to write between steps */
	char refusal[160]; /* if not, why ("" when writable) */
	double *values; /* rows x cols, row-major; NULL from hxd_list_arrays */
} hxd_array;

/*
 * Get an array by name ("model." or "data." may prefix it); free *out
 * with free().  An unknown name is HXD_BADTYPE.
 */
int hxd_get_array(hxd_conn *c, const char *name, hxd_array **out);

/*
 * Write count values into array name from element offset (row-major);
 * count 0 writes from offset to the end of the array (the library asks
 * for its size first).  Beyond the array is HXD_BADSIZE; a value the
 * array cannot take (NaN, Inf, a fraction or out of range for ints and
 * bytes, outside the array's domain) HXD_BADVALUE, and nothing is
 * written.  Arrays that are not safe to write between steps are refused
 * with the reason (HXD_DENIED).
 */
int hxd_set_array(
    hxd_conn *c, const char *name, int offset, int count, const double *values);

/* List every array, without values: *out holds *n entries; free() it. */
int hxd_list_arrays(hxd_conn *c, hxd_array **out, int *n);

/*--------------------------------------------- MuJoCo's computations */

/*
 * MuJoCo's computations (docs/compute.md): the server runs mj_forward on
 * the live state, or on a state given here, in mjData of its own, then
 * the MuJoCo function named, so the results are MuJoCo's bit for bit and
 * the simulation is not touched.  Outputs are row-major doubles in
 * MuJoCo's shapes; nv (or n) says how many the caller's arrays hold, and
 * an answer of another size (a model other than the caller's) is
 * HXD_BADSIZE with nothing written.  Objects go by name; an unknown one
 * is HXD_BADINDEX.
 */

/*
 * A state to compute on.  Each array left NULL is the live state's; the
 * counts are the model's sizes (hxd_cstate_init() sets them).
 */
typedef struct hxd_cstate {
	int nq, nv, na, nu, nmocap, nbody;
	const double *qpos;           /* nq */
	const double *qvel;           /* nv */
	const double *act;            /* na */
	const double *ctrl;           /* nu */
	const double *mocap_pos;      /* 3 x nmocap */
	const double *mocap_quat;     /* 4 x nmocap */
	const double *qfrc_applied;   /* nv */
	const double *xfrc_applied;   /* 6 x nbody */
	const double *qacc_warmstart; /* nv */
	const double *qacc;           /* nv: mj_inverse's input */
} hxd_cstate;

/* A state of model m's sizes with every array NULL (the live state). */
void hxd_cstate_init(hxd_cstate *st, const hxd_model *m);

/*
 * Every function below takes st, the state (NULL: the live one).
 * hxd_forward_array: any mjData (or mjModel) array after mj_forward, by
 * name, into out (n doubles); *rows and *cols get its shape, also when
 * n is too small (HXD_BADSIZE).
 */
int hxd_forward_array(hxd_conn *c, const hxd_cstate *st, const char *name,
    double *out, size_t n, int *rows, int *cols);

/* mj_inverse: qfrc_inverse (nv) of st, whose qacc is mj_forward's if NULL. */
int hxd_inverse(
    hxd_conn *c, const hxd_cstate *st, double *qfrc_inverse, int nv);

/* mj_fullM: the mass matrix, nv x nv. */
int hxd_full_m(hxd_conn *c, const hxd_cstate *st, double *m, int nv);

/* mj_solveM: x = inv(M) y for k vectors of nv (x and y k x nv). */
int hxd_solve_m(hxd_conn *c, const hxd_cstate *st, double *x, const double *y,
    int k, int nv);

/* mj_rne: M qacc + bias with flg_acc, else the bias forces (nv). */
int hxd_rne(
    hxd_conn *c, const hxd_cstate *st, int flg_acc, double *result, int nv);

/*
 * Jacobians, 3 x nv each (jacp: translation, jacr: rotation; either may
 * be NULL): mj_jac of a world point on a body, mj_jacBody,
 * mj_jacBodyCom, mj_jacGeom and mj_jacSite.
 */
int hxd_jac(hxd_conn *c, const hxd_cstate *st, const char *body,
    const double point[3], double *jacp, double *jacr, int nv);
int hxd_jac_body(hxd_conn *c, const hxd_cstate *st, const char *body,
    double *jacp, double *jacr, int nv);
int hxd_jac_body_com(hxd_conn *c, const hxd_cstate *st, const char *body,
    double *jacp, double *jacr, int nv);
int hxd_jac_geom(hxd_conn *c, const hxd_cstate *st, const char *geom,
    double *jacp, double *jacr, int nv);
int hxd_jac_site(hxd_conn *c, const hxd_cstate *st, const char *site,
    double *jacp, double *jacr, int nv);

/*
 * mj_objectVelocity and mj_objectAcceleration (after
 * mj_rnePostConstraint) of a body, xbody, geom or site (HXD_OBJ_*):
 * rotation then translation, in the object's frame with flg_local.
 */
int hxd_object_velocity(hxd_conn *c, const hxd_cstate *st, int objtype,
    const char *name, int flg_local, double res[6]);
int hxd_object_acceleration(hxd_conn *c, const hxd_cstate *st, int objtype,
    const char *name, int flg_local, double res[6]);

/* One contact and its force (mj_contactForce, in the contact's frame). */
typedef struct hxd_contact_force {
	int geom1, geom2, body1, body2;
	char geom1_name[128], geom2_name[128]; /* "" unnamed; cut at 127 */
	char body1_name[128], body2_name[128];
	double force[6]; /* normal, tangent forces, then torques */
	double dist;
	double pos[3];
	double frame[9]; /* normal first, as mjContact */
} hxd_contact_force;

/*
 * Every contact's force: after mj_forward of st, or with last_step (st
 * NULL) from the solve of the last step taken.  *out holds *ncon
 * entries (NULL for none); free() it.
 */
int hxd_contact_forces(hxd_conn *c, const hxd_cstate *st, int last_step,
    hxd_contact_force **out, int *ncon);

/* mj_energyPos and mj_energyVel: potential, kinetic. */
int hxd_energy(hxd_conn *c, const hxd_cstate *st, double energy[2]);

/* What a ray sees: NULL options see every geom of every group. */
typedef struct hxd_ray_options {
	const unsigned char *geomgroup; /* 6 flags, or NULL: all groups */
	int exclude_static;             /* skip static geoms */
	const char *exclude_body;       /* a body's geoms to skip, or NULL */
} hxd_ray_options;

/*
 * mj_ray from pnt along vec for k rays (pnt and vec 3 x k): geomid gets
 * the geom hit (-1 none) and dist the distance in units of vec (-1 none).
 */
int hxd_rays(hxd_conn *c, const hxd_cstate *st, int k, const double *pnt,
    const double *vec, const hxd_ray_options *opt, int *geomid, double *dist);

/* One ray: hxd_rays() with k 1. */
int hxd_ray(hxd_conn *c, const hxd_cstate *st, const double pnt[3],
    const double vec[3], const hxd_ray_options *opt, int *geomid, double *dist);

/* mj_differentiatePos: qvel (nv) from qpos1 to qpos2 (nq) over dt. */
int hxd_differentiate_pos(hxd_conn *c, double *qvel, int nv, double dt,
    const double *qpos1, const double *qpos2, int nq);

/* mj_integratePos: qpos (nq) moved by qvel (nv) over dt, in place. */
int hxd_integrate_pos(
    hxd_conn *c, double *qpos, int nq, const double *qvel, int nv, double dt);

/* What an hxd_query computes: the protocol's ComputeKind. */
enum hxd_compute_kind {
	HXD_COMPUTE_ARRAY,
	HXD_COMPUTE_INVERSE,
	HXD_COMPUTE_FULL_M,
	HXD_COMPUTE_SOLVE_M,
	HXD_COMPUTE_RNE,
	HXD_COMPUTE_JAC,
	HXD_COMPUTE_JAC_BODY,
	HXD_COMPUTE_JAC_BODY_COM,
	HXD_COMPUTE_JAC_GEOM,
	HXD_COMPUTE_JAC_SITE,
	HXD_COMPUTE_OBJECT_VELOCITY,
	HXD_COMPUTE_OBJECT_ACCELERATION,
	HXD_COMPUTE_CONTACT_FORCE,
	HXD_COMPUTE_ENERGY,
	HXD_COMPUTE_RAY,
	HXD_COMPUTE_DIFFERENTIATE_POS,
	HXD_COMPUTE_INTEGRATE_POS,
};

/* One computation, as the protocol's Query (docs/compute.md). */
typedef struct hxd_query {
	int kind;                 /* enum hxd_compute_kind */
	int objtype;              /* object velocity, acceleration: HXD_OBJ_* */
	const char *const *names; /* the array, or objects; or ids */
	int nnames;
	const int *ids;
	int nids;
	const double *args; /* points, vectors, rays (pnt, vec), positions */
	int nargs;
	int flag;                       /* flg_acc, flg_local */
	double dt;                      /* differentiate_pos, integrate_pos */
	const unsigned char *geomgroup; /* rays: 6 flags or NULL */
	int exclude_static;
	const char *exclude_body;
} hxd_query;

/* One query's result for one state. */
typedef struct hxd_qresult {
	int ndim;
	int shape[4];
	size_t nvalues, nids, nframes;
	double *values;
	int *ids;       /* rays' geoms; contacts' geom1, geom2, body1, body2 */
	char **names;   /* contacts: nids names; ends with a NULL */
	double *frames; /* contacts: dist, pos[3], frame[9] each */
} hxd_qresult;

/*
 * The general call: nq queries on each of nstates states (none: the live
 * state; last_step: the live data as the last step left it).  *out gets
 * max(nstates, 1) x nq results, state by state; free it with
 * hxd_qresults_free().  A request the server answers in parts is asked
 * again for the rest here.
 */
int hxd_compute(hxd_conn *c, const hxd_query *q, int nq,
    const hxd_cstate *states, int nstates, int last_step, hxd_qresult **out);

/* Free n results of hxd_compute(). */
void hxd_qresults_free(hxd_qresult *r, int n);

/*------------------------------------------------ the live run's history */

/*
 * A state of the live run's history (docs/recording.md, "The history"):
 * all a restore needs to be exact.  The arrays are the model's sizes
 * (n* say how many values), one block that hxd_history() allocates;
 * free it with hxd_history_state_free().
 */
typedef struct hxd_history_state {
	unsigned back;   /* kept states before the newest */
	unsigned states; /* kept now */
	double time;
	unsigned long long step; /* the step count then */
	int resumable;           /* the model was not written since */
	double *qpos, *qvel, *act, *ctrl, *qfrc_applied, *xfrc_applied;
	double *mocap_pos, *mocap_quat, *userdata, *qacc_warmstart;
	size_t nqpos, nqvel, nact, nctrl, nqfrc_applied, nxfrc_applied;
	size_t nmocap_pos, nmocap_quat, nuserdata, nqacc_warmstart;
} hxd_history_state;

/*
 * The state back kept states before the newest (0: the newest), without
 * moving the simulation.  HXD_BADINDEX when fewer are kept.
 */
int hxd_history(hxd_conn *c, unsigned back, hxd_history_state *out);

/* Free what hxd_history() allocated in s (and zero it). */
void hxd_history_state_free(hxd_history_state *s);

/*
 * Make that state the live one, exactly, and forget the newer ones (the
 * lease: a write).  HXD_BADINDEX when none is kept there, HXD_DENIED
 * when the model was written since it.
 */
int hxd_history_resume(hxd_conn *c, unsigned back);

/*---------------------------------------------------- the model itself */

/* The largest model hxd_get_model() accepts, decompressed. */
#define HXD_MODEL_MAX (1ull << 30)

/*
 * The loaded model as MuJoCo's MJB, with every change made through the
 * API so far.  The MJB format belongs to one MuJoCo version: load it
 * (mj_loadModel through a VFS) only with mujoco_version's.
 */
typedef struct hxd_model_blob {
	void *mjb; /* size bytes, malloc'd */
	size_t size;
	char name[256];     /* the model's name on the server */
	int mujoco_version; /* the server's mj_version(), e.g. 222 */
} hxd_model_blob;

/* Fetch the model into *out; free it with hxd_model_blob_free(). */
int hxd_get_model(hxd_conn *c, hxd_model_blob *out);

/*
 * The model's MJCF text: the document it was loaded from, includes
 * inlined, which loads back to the same model.  *xml is NUL-terminated
 * and malloc'd (caller frees); dir (dirlen bytes, may be NULL) gets the
 * directory its file names are relative to.  HXD_BADVALUE for a model
 * loaded from MJB or URDF, which has no MJCF text.
 */
int hxd_get_model_xml(hxd_conn *c, char **xml, char *dir, size_t dirlen);

/* The operations of an edit (docs/editing.md). */
#define HXD_EDIT_ADD 0    /* an element under a parent, with attributes */
#define HXD_EDIT_REMOVE 1 /* an element, and what refers to it */
#define HXD_EDIT_SET 2    /* attributes of an element */
#define HXD_EDIT_UNSET 3  /* attributes of an element, by name */
#define HXD_EDIT_ATTACH 4 /* a body's subtree from another model */

/*
 * One operation.  An element is found by its type (its MJCF element name:
 * "body", "geom", "motor", ...) and name; an add goes under parent_type
 * and parent_name ("worldbody" and "", a body by name, "actuator" and
 * ""), with name the new element's (or "" for none).  attrs holds
 * nattrs name and value pairs for add and set ("pos", "0 0 1"), nattrs
 * names for unset.  A default class is type "default", named by its
 * class ("" or "main": the top one); a set or unset with parent_type
 * "default" and no name changes the class parent_name's settings for
 * type, and the attribute "class" assigns an element's class.
 *
 * attach takes type and name from a source model ("body" and its name,
 * or "worldbody" and "" for all the worldbody holds) and puts it under
 * parent_type and parent_name ("worldbody" and "", a body, or a site),
 * with what it uses (assets, default classes, and the actuators,
 * sensors, equalities, tendons and contact pairs and excludes that
 * refer only to it), every name made prefix + name + suffix.  Its attrs
 * are settings, name and value pairs: "file", a file in the server's
 * model directories, or "xml", MJCF text (neither: the model itself);
 * "prefix"; "suffix".
 */
typedef struct hxd_edit_op {
	int kind;
	const char *type, *name;
	const char *parent_type, *parent_name;
	const char *const *attrs;
	int nattrs;
} hxd_edit_op;

/*
 * Apply n operations to the model's MJCF text as one transaction and
 * compile it once, keeping the simulation's state by names.  If one fails
 * (HXD_BADVALUE, naming the operation) or the compile does
 * (HXD_LOADFAILED, in MuJoCo's words), nothing changes.  out (may be
 * NULL) gets the edited model; *removed (may be NULL) a malloc'd text
 * of "type name" lines, what remove took away, or NULL when nothing.
 */
int hxd_edit_model(
    hxd_conn *c, const hxd_edit_op *ops, int n, hxd_model *out, char **removed);

/* Free the MJB of b and clear b; NULL is fine. */
void hxd_model_blob_free(hxd_model_blob *b);

/*------------------------------------------ joints held on a path */

/* One joint held at a target by an equality (docs/editing.md). */
typedef struct hxd_hold {
	char joint[208];
	double target; /* where the equality holds it */
	double qpos;   /* where it is */
	double force;  /* the equality's force in the last step: N m, N */
	unsigned long long holder; /* the client holding it */
	char holder_name[64];
} hxd_hold;

/* Every hold on the server, in one block the caller frees. */
typedef struct hxd_holds {
	int n;
	hxd_hold *holds;    /* n of them */
	char dropped[1024]; /* the caller's holds that ended without its
			       asking since its last answer: "JOINT: why"
			       lines (another model, the joint removed) */
	double time;
} hxd_holds;

/*
 * Hold each of n hinge or slide joints at its value (joints[i] at
 * values[i], as qpos holds it): a joint this client holds already just
 * gets the new target, from the next step on, so that a client may send
 * a path at its own rate; the others get a joint equality, hxhold:JOINT,
 * added by one edit of the model (the state is kept) and set to the
 * target before each step, so that MuJoCo computes the force.  A hold
 * lasts until hxd_release_joints() or the connection closes.
 * HXD_BADVALUE for an unknown, ball or free joint, HXD_DENIED for one
 * another client holds (the error says who) or under another's lease; then
 * nothing changes.  *out (may be NULL) gets every hold; free() it.
 */
int hxd_hold_joints(hxd_conn *c, const char *const *joints,
    const double *values, int n, hxd_holds **out);

/*
 * Release this client's holds on n joints (n = 0: all of them), their
 * equalities removed by one edit.  *out (may be NULL) as above.
 */
int hxd_release_joints(
    hxd_conn *c, const char *const *joints, int n, hxd_holds **out);

/* Every hold on the server, and what ended of this client's; free() it. */
int hxd_get_holds(hxd_conn *c, hxd_holds **out);

/*--------------------------------------------- clients and the lease */

/* One connected client. */
typedef struct hxd_client {
	unsigned long long id;
	char name[64];    /* from its Hello */
	char peer[128];   /* "unix uid U pid P" or "tcp ADDR:PORT" */
	int lease;        /* holds the control lease */
	double connected; /* seconds */
	unsigned long long requests, errors, bytes_in, bytes_out;
	unsigned long long queued; /* bytes waiting to be sent to it */
	int subscriptions;
	unsigned long long frames_sent, frames_dropped, events_dropped;
	int lease_shared; /* shares the lease: presented its token */
} hxd_client;

/*
 * List the connected clients: *out holds *n of them (free() it).  you
 * (may be NULL) receives this connection's own id.
 */
int hxd_clients(hxd_conn *c, hxd_client **out, int *n, unsigned long long *you);

enum hxd_lease_op {
	HXD_LEASE_QUERY = 0,
	HXD_LEASE_TAKE = 1,    /* HXD_DENIED if another client holds it */
	HXD_LEASE_RELEASE = 2, /* HXD_DENIED if this one does not */
};

/* Who holds the control lease, and what happens if it vanishes. */
typedef struct hxd_lease_info {
	unsigned long long holder; /* client id; 0: nobody */
	char holder_name[64];
	char on_loss[16]; /* "pause", "keep", "hold" or "zero" */
	char token[40];   /* to the holder only: see hxd_lease() */
} hxd_lease_info;

/*
 * Query, take or release the control lease.  While a client holds it,
 * the others may read but their writes fail with HXD_DENIED; it ends
 * when released or when its holder disconnects.  The holder alone gets
 * the lease's token: a connection made with it in $HAPTIX_LEASE shares
 * the lease (may write) while it lasts, and one made with a token of a
 * lease that ended fails with HXD_DENIED.  out may be NULL.
 */
int hxd_lease(hxd_conn *c, int op, hxd_lease_info *out);

/*--------------------------------------------------- streams, events */

/* Fields of the state a stream frame or batch trajectory can carry. */
enum hxd_field {
	HXD_FIELD_QPOS = 1,
	HXD_FIELD_QVEL = 2,
	HXD_FIELD_ACT = 3,
	HXD_FIELD_CTRL = 4,
	HXD_FIELD_MOCAP = 5,
	HXD_FIELD_SENSORDATA = 6,
	HXD_FIELD_BODY = 7, /* body poses */
	HXD_FIELD_GEOM = 8, /* geom poses */
	HXD_FIELD_SITE = 9, /* site poses */
	HXD_FIELD_CONTACTS = 10,
	HXD_FIELD_STATUS = 11,
	HXD_FIELD_QFRC_APPLIED = 12,
	HXD_FIELD_XFRC_APPLIED = 13,
};

#define HXD_FIELD_MAX HXD_FIELD_XFRC_APPLIED

/* A set of fields: HXD_FIELDS(HXD_FIELD_QPOS) | HXD_FIELDS(...). */
#define HXD_FIELDS(f) (1u << (f))

/* The name of a field ("qpos", "body", ...), and back (0 if unknown). */
const char *hxd_field_name(int field);
int hxd_field_parse(const char *name);

/*
 * A subscription: fields at exactly one rate (every N steps, N Hz of
 * simulated time or N Hz of wall time), and/or events: every kind
 * (events 1), or only some (HXD_EVENTS(HXD_EVENT_RESET) | ...).
 */
typedef struct hxd_subscription {
	unsigned fields; /* HXD_FIELDS() set; 0 for events only */
	unsigned every_steps;
	double sim_hz;
	double wall_hz;
	int events; /* 0: none; 1: all; else an HXD_EVENTS() set */
} hxd_subscription;

/* A set of event kinds for hxd_subscription.events (enum hxd_event_kind). */
#define HXD_EVENTS(k) (1u << (k))

/* Subscribe; *id (may be NULL) receives the subscription's id. */
int hxd_subscribe(hxd_conn *c, const hxd_subscription *sub, unsigned *id);

/* End one subscription, or all of this connection's (id 0). */
int hxd_unsubscribe(hxd_conn *c, unsigned id);

/*
 * One moment of the chosen fields.  Absent fields have NULL arrays and
 * zero counts.
 */
typedef struct hxd_frame {
	unsigned subscription;
	double time;
	unsigned long long step;    /* steps since the model loaded */
	unsigned long long dropped; /* frames of this subscription dropped */
	int nq, nv, na, nu, nmocap, nsensordata, nbody;
	double *qpos, *qvel, *act, *ctrl;
	double *mocap_pos;  /* 3 x nmocap */
	double *mocap_quat; /* 4 x nmocap */
	double *sensordata;
	double *qfrc_applied; /* nv */
	double *xfrc_applied; /* 6 x nbody */
	hxd_poses *body, *geom, *site;
	hxd_contacts *contacts;
	hxd_status *status;
} hxd_frame;

enum hxd_event_kind {
	HXD_EVENT_UNKNOWN = 0, /* from a newer server: skip it */
	HXD_EVENT_FRAME,
	HXD_EVENT_MODEL, /* a model was loaded or reloaded */
	HXD_EVENT_RESET,
	HXD_EVENT_RUN, /* paused or running */
	HXD_EVENT_SPEED,
	HXD_EVENT_INSTABILITY, /* the simulation went bad and was reset */
	HXD_EVENT_MESSAGE,
	HXD_EVENT_LEASE, /* the lease was taken or released */
	HXD_EVENT_CLIENT_JOINED,
	HXD_EVENT_CLIENT_LEFT,
	HXD_EVENT_TRACKING,     /* tracking connected or disconnected */
	HXD_EVENT_PERTURBATION, /* a driver's force dropped */
	HXD_EVENT_SLOW_STEP,    /* the slow-step guard paused the simulation */
	HXD_EVENT_RECORDING,    /* the server ended a recording */
	HXD_EVENT_CAMERA,       /* the view camera was set (hxd_set_camera) */
};

/* Something that happened, with what belongs to its kind. */
typedef struct hxd_event {
	int kind;                  /* enum hxd_event_kind */
	double time;               /* simulated time it happened at (RESET:
				      the time it left) */
	hxd_frame *frame;          /* FRAME */
	hxd_model model;           /* MODEL: the new sizes */
	int reload;                /* MODEL: the same file again */
	int edited;                /* MODEL: an edit transaction */
	char operations[1024];     /* MODEL, edited: "add body box" lines */
	char removed[1024];        /* MODEL, edited: "type name" lines */
	int keyframe;              /* RESET: -1 reference or captured state */
	char key_name[64];         /* RESET: by name */
	int paused;                /* RUN */
	double speed;              /* SPEED */
	int speed_max;             /* SPEED */
	unsigned long long resets; /* INSTABILITY: since the model loaded */
	char what[16];   /* INSTABILITY: "qpos", "qvel", "qacc", "state",
			    "error" */
	char text[1024]; /* MESSAGE: "" when cleared */
	unsigned long long from;       /* MESSAGE: the client that set it */
	hxd_lease_info lease;          /* LEASE */
	hxd_client client;             /* CLIENT_JOINED, CLIENT_LEFT */
	hxd_tracking tracking;         /* TRACKING: as it is now */
	hxd_perturbation perturbation; /* PERTURBATION: as it was */
	char why[64];                  /* TRACKING, PERTURBATION: "connect",
					  "disconnect", "model loaded", "driver
					  left", "silence (...)" */
	unsigned long long by;   /* TRACKING: the client that asked, 0: the
				    server */
	double step_seconds;     /* SLOW_STEP: CPU time of the slow step */
	double usual_seconds;    /* SLOW_STEP: the model's usual step */
	char reason[320];        /* SLOW_STEP: why steps are refused */
	hxd_recording recording; /* RECORDING: as it ended (ended: why) */
	double camera_pos[3];    /* CAMERA: where it is */
	double camera_quat[4];   /* CAMERA: w x y z, looking along x */
	int camera_default;      /* CAMERA: back to the model's own view */
	double reset_to;         /* RESET: the simulated time it went to */
	char undone[2048];       /* INSTABILITY: what was put back, who wrote */
} hxd_event;

/*
 * The next event of this connection's subscriptions: one that arrived
 * while other calls waited for their answers, or one read within
 * timeout_ms (0: do not wait; negative: wait for as long as it takes;
 * HXD_TIMEOUT if none came).  Free *out with hxd_event_free().
 */
int hxd_next_event(hxd_conn *c, int timeout_ms, hxd_event **out);

void hxd_event_free(hxd_event *ev);

/* hxd_record_start's flags. */
enum {
	/* Also journal the inputs of every step and a hash of the state
	 * after it, for a bit-exact replay (hxplay --verify). */
	HXD_RECORD_JOURNAL = 0x1,
};

/*
 * Record the state after each step the server takes into a new file of
 * its state directory, MODEL_N.hxr: fields an HXD_FIELDS() set of qpos,
 * qvel, act, ctrl, mocap, sensordata, qfrc_applied and xfrc_applied (0:
 * HAPTIX's set), one step in every + 1; flags HXD_RECORD_*.  out (may be
 * NULL) receives the recording.  One at a time: a second is HXD_DENIED.
 */
int hxd_record_start(hxd_conn *c, unsigned fields, unsigned every,
    unsigned flags, hxd_recording *out);

/* End the recording (HXD_BADVALUE if none runs). */
int hxd_record_stop(hxd_conn *c, hxd_recording *out);

/* Free a frame (from a batch trajectory); NULL is fine. */
void hxd_frame_free(hxd_frame *f);

/*
 * Events dropped by this library because the program made calls without
 * reading its events (more than 4096 waited).  The server's own drops
 * are in hxd_client.frames_dropped and events_dropped.
 */
unsigned long long hxd_events_lost(const hxd_conn *c);

/*-------------------------------------------------- reading recordings */

/*
 * A recording read from its file, without a server: haptixd's .hxr
 * (docs/recording.md), or the .mjl log MuJoCo HAPTIX wrote (its manual's
 * "Recording and playback"), state record by state record.  The
 * journal, hashes and edits of a .hxr are hxplay's to read.
 */
typedef struct hxd_log hxd_log;

enum hxd_log_format {
	HXD_LOG_HXR = 0,
	HXD_LOG_MJL = 1, /* HAPTIX's: qpos qvel ctrl mocap sensordata, floats */
};

typedef struct hxd_log_header {
	int format;      /* enum hxd_log_format */
	char name[256];  /* the model's */
	unsigned fields; /* HXD_FIELDS() set recorded */
	unsigned every;  /* steps from one record to the next */
	int nq, nv, na, nu, nmocap, nsensordata, nbody; /* at the start */
	double timestep; /* the model's; 0 if the file does not say (.mjl) */
} hxd_log_header;

/* Open path and read its header: NULL with err (len bytes) saying why. */
hxd_log *hxd_log_open(const char *path, char *err, size_t len);
const hxd_log_header *hxd_log_get_header(const hxd_log *l);

/*
 * The next state record into *frame: time, step, its sizes (an edit
 * in the recording changes them) and the arrays of the recorded fields,
 * NULL for the others; what they point to lasts until the next call.
 * *segment (may be NULL) counts from 1; a record whose time is below
 * the one before it, a reset, begins the next.  1, 0 at the end (a file
 * cut short, by a writer killed mid-write, ends at its last whole
 * record), or -1 with hxd_log_error saying why.
 */
int hxd_log_next(hxd_log *l, hxd_frame *frame, unsigned long long *segment);
const char *hxd_log_error(const hxd_log *l);

/* Whether the file ended inside a record (or frame): cut short. */
int hxd_log_truncated(const hxd_log *l);

void hxd_log_close(hxd_log *l);

/*------------------------------------------------------- batch runs */

/*
 * Lock-step: with the simulation paused, set the controls (if control is
 * not NULL), then take `steps` steps or step until the simulated time is
 * within half a step of `until_time` (give one of the two; by time, at
 * most the steps it was away plus one, so a simulation that MuJoCo
 * resets on the way stops short: see `resets`), in one request.  While it
 * runs no other client may change the simulation.
 */
typedef struct hxd_batch {
	const hxd_control *control;
	unsigned steps;
	double until_time;
	unsigned record;       /* HXD_FIELDS() to record after steps, or 0 */
	unsigned record_every; /* record after every Nth step (0: every) */
} hxd_batch;

typedef struct hxd_batch_result {
	unsigned long long steps;  /* taken */
	unsigned long long resets; /* MuJoCo reset the simulation on the way */
	double time;
	hxd_sensor *sensor; /* after the last step */
	int ntrajectory;
	hxd_frame **trajectory; /* after steps N, 2N, ... of record_every */
} hxd_batch_result;

/*
 * Run a batch.  It waits for as long as the batch takes (the connection's
 * timeout does not apply).  Free *out with hxd_batch_result_free().
 */
int hxd_batch_run(hxd_conn *c, const hxd_batch *b, hxd_batch_result **out);

void hxd_batch_result_free(hxd_batch_result *r);

/*---------------------------------------------------- administration */

/*
 * Load a model file from the server's model directories (relative to one
 * of them, or an absolute path inside one).  On failure the old model
 * stays and hxd_error() holds MuJoCo's message.  out may be NULL.
 */
int hxd_load_file(hxd_conn *c, const char *path, hxd_model *out);

/*
 * Like hxd_load_file(), translating a MuJoCo HAPTIX 1.x MJCF file first:
 * asset file names that differ only in case from the files on disk, and
 * ranges without limited flags (1.x meant "not limited").  The server
 * logs each change.
 */
int hxd_load_legacy(hxd_conn *c, const char *path, hxd_model *out);

/* Load a model sent with the request (MJCF, URDF or MJB bytes). */
int hxd_load_data(hxd_conn *c, int format, const void *data, size_t len,
    const char *name, hxd_model *out);

/* A file an inline model names, sent with it (hxd_load_inline_assets). */
typedef struct hxd_asset {
	const char *name; /* as the model writes it: "meshes/hand.stl" */
	const void *data;
	size_t len; /* > 0 */
} hxd_asset;

/*
 * hxd_load_data() with the n files the model names (meshes, textures,
 * height fields, skins, included MJCF files), which MuJoCo reads from
 * memory, by name without the directory, in any case: haptix(3).
 */
int hxd_load_inline_assets(hxd_conn *c, int format, const void *data,
    size_t len, const char *name, const hxd_asset *assets, int n,
    hxd_model *out);

/* Reload the current model from its file. */
int hxd_reload(hxd_conn *c, hxd_model *out);

/*
 * The server's model directories, in the order relative paths are tried,
 * after adding add (NULL: add none), an absolute path on the server's
 * machine, where the server's settings allow it (user-model-dirs): over
 * the Unix socket, a directory the caller's user owns and no one else may
 * write to, kept until the server restarts or reloads its settings.
 * *dirs gets the paths, NULL-terminated, in one block to free(); *user
 * whether clients may add theirs.  dirs and user may be NULL.
 */
int hxd_model_dirs(hxd_conn *c, const char *add, char ***dirs, int *user);

/* Pause or run the simulation. */
int hxd_pause(hxd_conn *c);
int hxd_run(hxd_conn *c);

/* Set the speed factor (1 = real time); max != 0 runs as fast as possible. */
int hxd_set_speed(hxd_conn *c, double factor, int max);

/* Get the server's status. */
int hxd_status_get(hxd_conn *c, hxd_status *out);

/*-------------------------------------------------------- input drivers */

/*
 * A motion-capture driver's pose of the physical body that drives a mocap
 * body: the body by name, or when body is NULL or "" by its mocap index.
 * pos (3) and quat (4, w x y z) are in the model's frame and units.
 * sample_time_us: when the source sampled it, microseconds of the Unix
 * epoch (CLOCK_REALTIME; 0: when it arrives); source_time: the source's
 * own timestamp, reported back.  While tracking is connected the mocap
 * body follows through the offset captured from the first pose after
 * connecting.  out (may be NULL): the tracking as it now is.
 */
int hxd_mocap_pose(hxd_conn *c, int mocap, const char *body,
    const double pos[3], const double quat[4], long long sample_time_us,
    double source_time, hxd_tracking *out);

/* Connect (1) or disconnect (0) the tracking of a mocap body. */
int hxd_mocap_connect(
    hxd_conn *c, int mocap, const char *body, int connect, hxd_tracking *out);

/*
 * Put force and torque (world axes, at the centre of mass) on a body, by
 * name, or when name is NULL or "" by id; both zero releases it.  Repeat
 * it within out->timeout seconds (the server's --perturb-timeout), or the
 * server drops it.  It is dropped too when this connection closes.
 */
int hxd_perturb(hxd_conn *c, int body, const char *name, const double force[3],
    const double torque[3], hxd_perturbation *out);

/*
 * Move a mocap body (by name, or when body is NULL or "" by its mocap
 * index) smoothly from where it is to pos, and to quat (w x y z) unless
 * it is NULL, over seconds of simulated time (0 to 3600; 0: at once).
 * The server sets the pose before each step, so the move runs while the
 * simulation runs or is stepped; a later move, any other write of the
 * body's pose, a reset or a new model ends it.
 */
int hxd_mocap_move(hxd_conn *c, int mocap, const char *body,
    const double pos[3], const double quat[4], double seconds);

/*
 * A hash of the simulation's state (time, qpos, qvel, act and the
 * solver's warm start: docs/recording.md), and the steps taken since the
 * model was loaded: two servers in the same state give the same hash.
 */
int hxd_state_hash(hxd_conn *c, unsigned long long *hash,
    unsigned long long *steps, double *time);

/*---------------------------------------- the World API (haptix_sim.h) */

/* hxd_wrench's gravity: leave it, cancel the body's weight, or not. */
#define HXD_GRAVITY_LEAVE 0
#define HXD_GRAVITY_ON 1
#define HXD_GRAVITY_OFF 2

/*
 * What the server adds to a body's xfrc_applied for each step (world
 * axes, at its centre of mass), apart from what clients write there.
 */
typedef struct hxd_wrench {
	int body;                   /* body id; -1: none, only list */
	int apply;                  /* put force and torque on it */
	double force[3], torque[3]; /* N, N m */
	double duration;            /* simulated seconds; 0: until a reset */
	int gravity;                /* HXD_GRAVITY_* */
	int clear_all;              /* end every wrench first */
} hxd_wrench;

/*
 * Apply w (NULL: only list): a wrench for a time, a body's gravity on or
 * off (its weight cancelled, as MuJoCo 2.2 has no gravcomp).  Wrenches
 * end after their duration, at a reset or with another model; gravity
 * stays off across resets that keep the model's parameters and edits.
 * *gravity_off (may be NULL; free() it) gets the *ngravity_off bodies
 * whose gravity is off, *wrenches (may be NULL) the wrenches in effect.
 */
int hxd_world_force(hxd_conn *c, const hxd_wrench *w, int **gravity_off,
    int *ngravity_off, int *wrenches);

/*
 * The view camera the viewers share: position and orientation (w x y z;
 * it looks along its x axis, z up).  Until a client sets it, and after a
 * reset or another model, it is the model's own view (*is_default 1).
 * Setting it tells subscribers (HXD_EVENT_CAMERA).
 */
int hxd_get_camera(hxd_conn *c, double pos[3], double quat[4], int *is_default);
int hxd_set_camera(hxd_conn *c, const double pos[3], const double quat[4]);

/* Collide modes, numbered as haptix_sim.h's hxsCollideMode. */
#define HXD_COLLIDE_NONE 0   /* contype and conaffinity 0: no contacts */
#define HXD_COLLIDE_DETECT 1 /* contacts found, no force (geom_gap) */
#define HXD_COLLIDE_ALL 2    /* as the model was loaded */

/*
 * Set the collide mode of the geoms of body's subtree (mode -1: only
 * read); *out (may be NULL) gets the mode it now has.
 */
int hxd_collide_mode(hxd_conn *c, int body, int mode, int *out);

#if defined(__cplusplus)
}
#endif

#endif
