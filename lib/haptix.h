/*
 * haptix.h: the MuJoCo HAPTIX socket API, served by haptixd.
 *
 * Programs written for MuJoCo HAPTIX's haptix.h compile against this
 * header unchanged and link with -lhaptix (pkg-config haptix).  The types,
 * names and error codes are those HAPTIX documents; docs/compat.md lists
 * what differs and why.  For double precision, any array size and the
 * calls beyond HAPTIX, see haptixd.h.
 *
 * The API keeps one connection per process and is not thread-safe, as in
 * HAPTIX.  The library never prints and never exits.
 */
#ifndef HAPTIX_H
#define HAPTIX_H

/*
 * This is libhaptix's header, not HAPTIX's own (which its apicpp/ folder
 * holds and which "haptix.h" finds first beside a program there).
 */
#define HAPTIX_LIBHAPTIX 1

/* HAPTIX marked its exports with MJAPI; on Linux it expands to nothing. */
#ifndef MJAPI
#define MJAPI
#endif

#if defined(__cplusplus)
extern "C" {
#endif

/*================================================================ simple API */

/* Sizes of the arrays of the simple API's structs. */
#define hxMAXMOTOR 32
#define hxMAXJOINT 32
#define hxMAXCONTACTSENSOR 32
#define hxMAXIMU 32

/* Result of the simple API calls; hx_last_result() says more. */
typedef enum { hxOK = 0, hxERROR } hxResult;

/* Simulated time, as sent by the simulator: hx_double_time() joins it. */
struct _hxTime {
	int sec;
	int nsec;
};
typedef struct _hxTime hxTime;

/* The robot: counts, limits and the update rate of hx_update. */
struct _hxRobotInfo {
	int motor_count;                  /* actuators */
	int joint_count;                  /* joint position/velocity sensors */
	int contact_sensor_count;         /* touch sensors */
	int imu_count;                    /* accelerometer/gyro pairs */
	float motor_limit[hxMAXMOTOR][2]; /* control ranges */
	float joint_limit[hxMAXJOINT][2]; /* joint ranges (rad) */
	float update_rate;                /* Hz */
};
typedef struct _hxRobotInfo hxRobotInfo;

/* Sensor data of one update. */
struct _hxSensor {
	hxTime time_stamp;
	float motor_pos[hxMAXMOTOR];
	float motor_vel[hxMAXMOTOR];
	float motor_torque[hxMAXMOTOR];
	float joint_pos[hxMAXJOINT];
	float joint_vel[hxMAXJOINT];
	float contact[hxMAXCONTACTSENSOR];  /* N */
	float imu_linear_acc[hxMAXIMU][3];  /* m/s^2, gravity included */
	float imu_angular_vel[hxMAXIMU][3]; /* rad/s */
	float imu_orientation[hxMAXIMU][4]; /* always (1, 0, 0, 0) */
};
typedef struct _hxSensor hxSensor;

/* Motor commands; each *_enabled > 0 applies its array. */
struct _hxCommand {
	float ref_pos[hxMAXMOTOR];
	int ref_pos_enabled;
	float ref_vel[hxMAXMOTOR];
	int ref_vel_enabled;
	float gain_pos[hxMAXMOTOR];
	int gain_pos_enabled;
	float gain_vel[hxMAXMOTOR];
	int gain_vel_enabled;
};
typedef struct _hxCommand hxCommand;

/* Establish the connection; host as for mj_connect(), port is ignored. */
MJAPI hxResult hx_connect(const char *host, int port);

/* Close the connection. */
MJAPI hxResult hx_close(void);

/* Get the robot's description; it also sizes later updates. */
MJAPI hxResult hx_robot_info(hxRobotInfo *robotinfo);

/* Send commands and get sensors; waits one update period while running. */
MJAPI hxResult hx_update(const hxCommand *command, hxSensor *sensor);

/* hx_update with no command enabled. */
MJAPI hxResult hx_read_sensors(hxSensor *sensor);

/* Describe the result of the last call of either API flavour. */
MJAPI const char *hx_last_result(void);

/* Convert an hxTime to seconds. */
MJAPI double hx_double_time(const hxTime *time);

/*================================================================ native API */

/* Variable-size arrays hold at most this many elements (rows). */
#define mjMAXSZ 1000

typedef enum {
	mjCOM_OK = 0, /* success */

	/* reported by the server */
	mjCOM_BADSIZE = -1,    /* data has invalid size */
	mjCOM_BADINDEX = -2,   /* object has invalid index */
	mjCOM_BADTYPE = -3,    /* invalid object type */
	mjCOM_BADCOMMAND = -4, /* unknown command */
	mjCOM_NOMODEL = -5,    /* model has not been loaded */
	mjCOM_CANNOTSEND = -6, /* could not send data */
	mjCOM_CANNOTRECV = -7, /* could not receive data */
	mjCOM_TIMEOUT = -8,    /* receive timeout */

	/* found by the client */
	mjCOM_NOCONNECTION = -9, /* connection not established */
	mjCOM_CONNECTED = -10,   /* already connected */

	/* haptixd extensions */
	mjCOM_BADVALUE = -11,    /* NaN, Inf or a value outside its domain */
	mjCOM_DENIED = -12,      /* refused: token, path, limits */
	mjCOM_LOADFAILED = -13,  /* model failed to load */
	mjCOM_BADPROTOCOL = -14, /* malformed frame or message */
	mjCOM_SIMERROR = -15     /* MuJoCo raised an error; data was reset */
} mjtResult;

typedef enum {
	mjGEOM_PLANE = 0,
	mjGEOM_HFIELD,
	mjGEOM_SPHERE,
	mjGEOM_CAPSULE,
	mjGEOM_ELLIPSOID,
	mjGEOM_CYLINDER,
	mjGEOM_BOX,
	mjGEOM_MESH
} mjtGeom;

/* Sensor types, numbered as HAPTIX 1.50; later MuJoCo sensors follow USER. */
typedef enum _mjtSensor {
	mjSENS_TOUCH = 0,
	mjSENS_ACCELEROMETER,
	mjSENS_VELOCIMETER,
	mjSENS_GYRO,
	mjSENS_FORCE,
	mjSENS_TORQUE,
	mjSENS_MAGNETOMETER,
	mjSENS_RANGEFINDER,
	mjSENS_JOINTPOS,
	mjSENS_JOINTVEL,
	mjSENS_TENDONPOS,
	mjSENS_TENDONVEL,
	mjSENS_ACTUATORPOS,
	mjSENS_ACTUATORVEL,
	mjSENS_ACTUATORFRC,
	mjSENS_BALLQUAT,
	mjSENS_BALLANGVEL,
	mjSENS_FRAMEPOS,
	mjSENS_FRAMEQUAT,
	mjSENS_FRAMEXAXIS,
	mjSENS_FRAMEYAXIS,
	mjSENS_FRAMEZAXIS,
	mjSENS_FRAMELINVEL,
	mjSENS_FRAMEANGVEL,
	mjSENS_FRAMELINACC,
	mjSENS_FRAMEANGACC,
	mjSENS_SUBTREECOM,
	mjSENS_SUBTREELINVEL,
	mjSENS_SUBTREEANGMOM,
	mjSENS_USER,
	/* haptixd: sensors MuJoCo added after HAPTIX */
	mjSENS_JOINTLIMITPOS,
	mjSENS_JOINTLIMITVEL,
	mjSENS_JOINTLIMITFRC,
	mjSENS_TENDONLIMITPOS,
	mjSENS_TENDONLIMITVEL,
	mjSENS_TENDONLIMITFRC,
	mjSENS_CLOCK
} mjtSensor;

typedef enum { mjJNT_FREE = 0, mjJNT_BALL, mjJNT_SLIDE, mjJNT_HINGE } mjtJoint;

typedef enum {
	mjTRN_JOINT = 0,
	mjTRN_JOINTINPARENT,
	mjTRN_SLIDERCRANK,
	mjTRN_TENDON,
	mjTRN_SITE,
	mjTRN_BODY /* haptixd: adhesion, added by MuJoCo after HAPTIX */
} mjtTrn;

typedef enum {
	mjEQ_CONNECT = 0,
	mjEQ_WELD,
	mjEQ_JOINT,
	mjEQ_TENDON,
	mjEQ_DISTANCE
} mjtEq;

/*------------------------------------------------------- get and set */

struct _mjState {
	int nq;
	int nv;
	int na;
	float time;
	float qpos[mjMAXSZ];
	float qvel[mjMAXSZ];
	float act[mjMAXSZ];
};
typedef struct _mjState mjState;

struct _mjControl {
	int nu;
	float time;
	float ctrl[mjMAXSZ];
};
typedef struct _mjControl mjControl;

struct _mjApplied {
	int nv;
	int nbody;
	float time;
	float qfrc_applied[mjMAXSZ];
	float xfrc_applied[mjMAXSZ][6]; /* force, torque per body */
};
typedef struct _mjApplied mjApplied;

struct _mjOneBody {
	int bodyid; /* set by the caller */

	/* get only */
	int isfloating;
	float time;
	float linacc[3];
	float angacc[3];
	float contactforce[3]; /* net contact force on the body */

	/* get; set for floating bodies only */
	float pos[3];
	float quat[4];
	float linvel[3];
	float angvel[3];

	/* get and set: this body's row of xfrc_applied */
	float force[3];
	float torque[3];
};
typedef struct _mjOneBody mjOneBody;

struct _mjMocap {
	int nmocap;
	float time;
	float pos[mjMAXSZ][3];
	float quat[mjMAXSZ][4];
};
typedef struct _mjMocap mjMocap;

/*---------------------------------------------------------- get only */

struct _mjDynamics {
	int nv;
	int na;
	float time;
	float qacc[mjMAXSZ];
	float actdot[mjMAXSZ];
};
typedef struct _mjDynamics mjDynamics;

struct _mjSensor {
	int nsensordata;
	float time;
	float sensordata[mjMAXSZ];
};
typedef struct _mjSensor mjSensor;

struct _mjBody {
	int nbody;
	float time;
	float pos[mjMAXSZ][3];
	float mat[mjMAXSZ][9]; /* row-major */
};
typedef struct _mjBody mjBody;

struct _mjGeom {
	int ngeom;
	float time;
	float pos[mjMAXSZ][3];
	float mat[mjMAXSZ][9];
};
typedef struct _mjGeom mjGeom;

struct _mjSite {
	int nsite;
	float time;
	float pos[mjMAXSZ][3];
	float mat[mjMAXSZ][9];
};
typedef struct _mjSite mjSite;

struct _mjTendon {
	int ntendon;
	float time;
	float length[mjMAXSZ];
	float velocity[mjMAXSZ];
};
typedef struct _mjTendon mjTendon;

struct _mjActuator {
	int nu;
	float time;
	float length[mjMAXSZ];
	float velocity[mjMAXSZ];
	float force[mjMAXSZ];
};
typedef struct _mjActuator mjActuator;

/*
 * Generalized forces.  The manual documents applied, passive, bias,
 * actuator and constraint; the HAPTIX 1.50 header had nonconstraint and
 * constraint.  Both sets are filled, so programs of either era compile:
 * nonconstraint = applied + passive + actuator - bias.
 */
struct _mjForce {
	int nv;
	float time;
	float applied[mjMAXSZ];
	float passive[mjMAXSZ];
	float bias[mjMAXSZ];
	float actuator[mjMAXSZ];
	float constraint[mjMAXSZ];
	float nonconstraint[mjMAXSZ];
};
typedef struct _mjForce mjForce;

struct _mjContact {
	int ncon;
	float time;
	float dist[mjMAXSZ];
	float pos[mjMAXSZ][3];
	float frame[mjMAXSZ][9]; /* normal in 0-2 */
	float force[mjMAXSZ][3]; /* in the contact frame */
	int geom1[mjMAXSZ];
	int geom2[mjMAXSZ]; /* force acts from geom1 on geom2 */
};
typedef struct _mjContact mjContact;

/* Static description of the model; ranges are (0,0) when not limited. */
struct _mjInfo {
	int nq;
	int nv;
	int na;
	int njnt;
	int nbody;
	int ngeom;
	int nsite;
	int ntendon;
	int nu;
	int neq;
	int nkey;
	int nmocap;
	int nsensor;
	int nsensordata;
	int nmat;

	float timestep;
	float apirate;

	int sensor_type[mjMAXSZ];
	int sensor_datatype[mjMAXSZ];
	int sensor_objtype[mjMAXSZ];
	int sensor_objid[mjMAXSZ];
	int sensor_dim[mjMAXSZ];
	int sensor_adr[mjMAXSZ];
	float sensor_noise[mjMAXSZ];

	int jnt_type[mjMAXSZ];
	int jnt_bodyid[mjMAXSZ];
	int jnt_qposadr[mjMAXSZ];
	int jnt_dofadr[mjMAXSZ];
	float jnt_range[mjMAXSZ][2];

	int geom_type[mjMAXSZ];
	int geom_bodyid[mjMAXSZ];

	int eq_type[mjMAXSZ];
	int eq_obj1id[mjMAXSZ];
	int eq_obj2id[mjMAXSZ];

	int actuator_trntype[mjMAXSZ];
	int actuator_trnid[mjMAXSZ][2];
	float actuator_ctrlrange[mjMAXSZ][2];
};
typedef struct _mjInfo mjInfo;

/*------------------------------------------------------------- calls */

/* Get dynamic data; each returns mjCOM_BADSIZE if the model exceeds mjMAXSZ. */
MJAPI mjtResult mj_get_state(mjState *state);
MJAPI mjtResult mj_get_control(mjControl *control);
MJAPI mjtResult mj_get_applied(mjApplied *applied);
MJAPI mjtResult mj_get_onebody(mjOneBody *onebody); /* set bodyid first */
MJAPI mjtResult mj_get_mocap(mjMocap *mocap);
MJAPI mjtResult mj_get_dynamics(mjDynamics *dynamics);
MJAPI mjtResult mj_get_sensor(mjSensor *sensor);
MJAPI mjtResult mj_get_body(mjBody *body);
MJAPI mjtResult mj_get_geom(mjGeom *geom);
MJAPI mjtResult mj_get_site(mjSite *site);
MJAPI mjtResult mj_get_tendon(mjTendon *tendon);
MJAPI mjtResult mj_get_actuator(mjActuator *actuator);
MJAPI mjtResult mj_get_force(mjForce *force);
MJAPI mjtResult mj_get_contact(mjContact *contact);

/* Set dynamic data; sizes must match the model (else mjCOM_BADSIZE). */
MJAPI mjtResult mj_set_state(const mjState *state);
MJAPI mjtResult mj_set_control(const mjControl *control);
MJAPI mjtResult mj_set_applied(const mjApplied *applied);
MJAPI mjtResult mj_set_onebody(const mjOneBody *onebody);
MJAPI mjtResult mj_set_mocap(const mjMocap *mocap);
MJAPI mjtResult mj_set_geomsize(int geomid, const float *geomsize);

/* Colour of a "geom", "site", "tendon" or "material". */
MJAPI mjtResult mj_get_rgba(const char *type, int id, float *rgba);
MJAPI mjtResult mj_set_rgba(const char *type, int id, const float *rgba);

/* Connect: NULL or "" for the default server, "unix:PATH", "HOST[:PORT]". */
MJAPI mjtResult mj_connect(const char *host);

/* Close the connection. */
MJAPI mjtResult mj_close(void);

/* Return the result of the last call. */
MJAPI mjtResult mj_result(void);

/* Return 1 if connected and the connection is usable, else 0. */
MJAPI int mj_connected(void);

/* Get the static description of the model. */
MJAPI mjtResult mj_info(mjInfo *info);

/* Paused: advance one step.  Running: no effect. */
MJAPI mjtResult mj_step(void);

/* Set controls and get sensors; paused: one step; running: wait 1/apirate. */
MJAPI mjtResult mj_update(const mjControl *control, mjSensor *sensor);

/* Reset to keyframe, or to the reference configuration if keyframe < 0. */
MJAPI mjtResult mj_reset(int keyframe);

/* Enable (1) or disable (0) an equality constraint. */
MJAPI mjtResult mj_equality(int eqid, int state);

/* Show a message on the server's viewers; NULL clears it. */
MJAPI mjtResult mj_message(const char *message);

/* Id of the named object: -1 if not found, -2 on error (see mj_result). */
MJAPI int mj_name2id(const char *type, const char *name);

/* Name of an object, valid until the next call; NULL on error. */
MJAPI const char *mj_id2name(const char *type, int id);

/* Install a function called with the code of every failing call. */
MJAPI void mj_handler(void (*handler)(int));

#if defined(__cplusplus)
}
#endif

#endif
