/*
 * The views of the simulation that are MuJoCo's arrays as they stand
 * (state, controls, applied forces, mocap bodies, dynamics, sensors,
 * tendons, actuators, forces): each message filled by one walker from a
 * table.  The table's fields are the message's, as haptix.proto lists
 * them (proto/fields.awk expands them from haptix_fields.h); the one
 * thing said here is where each field's value comes from, a FROM_ line
 * per field below.  A field added to one of these messages without its
 * line does not compile.
 */
#include "config.h"

#include "arena.h"
#include "daemon.h"
#include "haptix_fields.h"
#include "sim.h"
#include "sim_access.h"
#include "protomsg.h"

/* Where a field's value comes from. */
enum protomsg_from {
	FROM_SIZE, /* a member of struct sim_sizes: a count */
	FROM_TIME, /* the simulated time */
	FROM_DATA, /* a member of struct sim_arrays: MuJoCo's array */
	FROM_CALL, /* computed into the arena by a sim function */
};

#define SIZE(m) FROM_SIZE, offsetof(struct sim_sizes, m), NULL
#define TIME FROM_TIME, 0, NULL
#define DATA(m) FROM_DATA, offsetof(struct sim_arrays, m), NULL
#define CALL(fn) FROM_CALL, 0, fn

/* clang-format off */
#define FROM_State_nq			SIZE(nq)
#define FROM_State_nv			SIZE(nv)
#define FROM_State_na			SIZE(na)
#define FROM_State_time			TIME
#define FROM_State_qpos			DATA(qpos)
#define FROM_State_qvel			DATA(qvel)
#define FROM_State_act			DATA(act)

#define FROM_Control_nu			SIZE(nu)
#define FROM_Control_time		TIME
#define FROM_Control_ctrl		DATA(ctrl)

#define FROM_Applied_nv			SIZE(nv)
#define FROM_Applied_nbody		SIZE(nbody)
#define FROM_Applied_time		TIME
#define FROM_Applied_qfrc_applied	DATA(qfrc_applied)
#define FROM_Applied_xfrc_applied	DATA(xfrc_applied)

#define FROM_Mocap_nmocap		SIZE(nmocap)
#define FROM_Mocap_time			TIME
#define FROM_Mocap_pos			DATA(mocap_pos)
#define FROM_Mocap_quat			DATA(mocap_quat)

#define FROM_Dynamics_nv		SIZE(nv)
#define FROM_Dynamics_na		SIZE(na)
#define FROM_Dynamics_time		TIME
#define FROM_Dynamics_qacc		DATA(qacc)
#define FROM_Dynamics_act_dot		DATA(act_dot)

#define FROM_Sensor_nsensordata		SIZE(nsensordata)
#define FROM_Sensor_time		TIME
#define FROM_Sensor_sensordata		DATA(sensordata)

#define FROM_Tendon_ntendon		SIZE(ntendon)
#define FROM_Tendon_time		TIME
#define FROM_Tendon_length		DATA(ten_length)
#define FROM_Tendon_velocity		DATA(ten_velocity)

#define FROM_Actuator_nu		SIZE(nu)
#define FROM_Actuator_time		TIME
#define FROM_Actuator_length		DATA(actuator_length)
#define FROM_Actuator_velocity		DATA(actuator_velocity)
#define FROM_Actuator_force		DATA(actuator_force)

#define FROM_Force_nv			SIZE(nv)
#define FROM_Force_time			TIME
#define FROM_Force_applied		CALL(sim_force_applied)
#define FROM_Force_passive		DATA(qfrc_passive)
#define FROM_Force_bias			DATA(qfrc_bias)
#define FROM_Force_actuator		DATA(qfrc_actuator)
#define FROM_Force_constraint		DATA(qfrc_constraint)
#define FROM_Force_nonconstraint	DATA(qfrc_smooth)
/* clang-format on */

/* One field of a view and where its value comes from. */
struct view_field {
	size_t in;          /* offset of the field in the message */
	size_t n_in;        /* arrays: offset of its n_ member; 0: scalar */
	size_t count_in;    /* arrays: offset of the count in the message */
	unsigned per;       /* arrays: values per counted object */
	unsigned char from; /* enum protomsg_from */
	size_t at;          /* FROM_SIZE, FROM_DATA: offset of the member */
	void (*call)(const struct sim *, double *);
};

#define MSG(M) Haptix__V1__##M
#define VIEW_S(ctx, M, field, type) \
	{ offsetof(MSG(M), field), 0, 0, 0, FROM_##M##_##field },
#define VIEW_A(ctx, M, field, type, cnt, n) \
	{ offsetof(MSG(M), field), offsetof(MSG(M), n_##field), \
		offsetof(MSG(M), cnt), n, FROM_##M##_##field },
/* Fixed and nested sizes have no place in these views. */
#define VIEW_F(ctx, M, field, type, n) VIEW_FIXED_SIZE_NOT_SUPPORTED
#define VIEW_N(ctx, M, field, type, sub, Sub, cnt, n) \
	VIEW_NESTED_COUNT_NOT_SUPPORTED
#define VIEW(M) \
	{ \
		HX_FIELDS_##M(VIEW_S, VIEW_A, VIEW_F, VIEW_N, 0) \
	}

static const struct view_field state_view[] = VIEW(State);
static const struct view_field control_view[] = VIEW(Control);
static const struct view_field applied_view[] = VIEW(Applied);
static const struct view_field mocap_view[] = VIEW(Mocap);
static const struct view_field dynamics_view[] = VIEW(Dynamics);
static const struct view_field sensor_view[] = VIEW(Sensor);
static const struct view_field tendon_view[] = VIEW(Tendon);
static const struct view_field actuator_view[] = VIEW(Actuator);
static const struct view_field force_view[] = VIEW(Force);

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
#define VIEWDEF(v, name) \
	[PROTOMSG_##v] = { &haptix__v1__##name##__descriptor, name##_view, \
		NELEM(name##_view) }

static const struct {
	const ProtobufCMessageDescriptor *descriptor;
	const struct view_field *fields;
	size_t n;
} views[] = {
	VIEWDEF(STATE, state),
	VIEWDEF(CONTROL, control),
	VIEWDEF(APPLIED, applied),
	VIEWDEF(MOCAP, mocap),
	VIEWDEF(DYNAMICS, dynamics),
	VIEWDEF(SENSOR, sensor),
	VIEWDEF(TENDON, tendon),
	VIEWDEF(ACTUATOR, actuator),
	VIEWDEF(FORCE, force),
};

#define AT(p, off, type) (*(type *)(void *)((char *)(p) + (off)))
#define CAT(p, off, type) \
	(*(const type *)(const void *)((const char *)(p) + (off)))

void *
protomsg_view(struct daemon *d, struct arena *a, enum protomsg_view v)
{
	const struct sim_sizes *z = sim_sizes(d->sim);
	const struct sim_arrays *y = sim_arrays(d->sim);
	const struct view_field *f = views[v].fields;
	void *m = arena_alloc(a, views[v].descriptor->sizeof_message);
	size_t i, n;

	protobuf_c_message_init(views[v].descriptor, m);
	/* The counts and the time first: the arrays are sized by them. */
	for (i = 0; i < views[v].n; i++) {
		if (f[i].from == FROM_SIZE)
			AT(m, f[i].in, uint32_t) = (uint32_t)CAT(
			    z, f[i].at, int);
		else if (f[i].from == FROM_TIME)
			AT(m, f[i].in, double) = sim_time(d->sim);
	}
	for (i = 0; i < views[v].n; i++) {
		if (f[i].n_in == 0)
			continue;
		n = (size_t)CAT(m, f[i].count_in, uint32_t) * f[i].per;
		AT(m, f[i].n_in, size_t) = n;
		if (f[i].from == FROM_DATA) {
			AT(m, f[i].in, const double *) = CAT(
			    y, f[i].at, const double *);
		} else {
			double *p = arena_alloc(
			    a, (n > 0 ? n : 1) * sizeof(double));

			f[i].call(d->sim, p);
			AT(m, f[i].in, double *) = p;
		}
	}
	return m;
}
