/*
 * The members of the result structs (hxd_members() in haptixd.h), each
 * list expanded from its message's fields as haptix.proto lists them
 * (haptix_fields.h): a field added to the message and to the struct is
 * in the list with nothing written here.
 */
#include "config.h"

#include <string.h>

#include "haptix_fields.h"
#include "haptixd.h"

#define KIND_double HXD_MEMBER_NUM
#define KIND_uint32 HXD_MEMBER_INT
#define KIND_int32 HXD_MEMBER_INT
#define KIND_enum HXD_MEMBER_INT
#define KIND_bool HXD_MEMBER_INT
#define KINDS_double HXD_MEMBER_NUMS
#define KINDS_int32 HXD_MEMBER_INTS
#define KINDS_enum HXD_MEMBER_INTS
#define KINDS_bool HXD_MEMBER_INTS
#define KINDS_string HXD_MEMBER_STRS

#define MEMBER_S(T, M, m, type) { #m, KIND_##type, offsetof(T, m), 0, 0, NULL },
#define MEMBER_A(T, M, m, type, n, p) \
	{ #m, KINDS_##type, offsetof(T, m), offsetof(T, n), p, #n },
#define MEMBER_F(T, M, m, type, n) \
	{ #m, HXD_MEMBER_FIXED, offsetof(T, m), 0, n, NULL },
#define MEMBER_N(T, M, m, type, sub, Sub, n, p) \
	{ #m, KINDS_##type, offsetof(T, m), offsetof(T, sub.n), p, \
		#sub "." #n },
#define MEMBERS(T, M) \
	static const hxd_member T##_members[] = { HX_FIELDS_##M(MEMBER_S, \
	    MEMBER_A, MEMBER_F, MEMBER_N, T){ NULL, 0, 0, 0, 0, NULL } };

MEMBERS(hxd_state, State)
MEMBERS(hxd_control, Control)
MEMBERS(hxd_applied, Applied)
MEMBERS(hxd_onebody, OneBody)
MEMBERS(hxd_mocap, Mocap)
MEMBERS(hxd_dynamics, Dynamics)
MEMBERS(hxd_sensor, Sensor)
MEMBERS(hxd_poses, Poses)
MEMBERS(hxd_tendon, Tendon)
MEMBERS(hxd_actuator, Actuator)
MEMBERS(hxd_force, Force)
MEMBERS(hxd_contacts, Contacts)
MEMBERS(hxd_info, Info)
MEMBERS(hxd_robot, RobotInfo)
MEMBERS(hxd_robot_sensor, RobotSensor)

#define ENTRY(T) \
	{ \
#T, T##_members \
	}
static const struct {
	const char *type;
	const hxd_member *members;
} member_lists[] = {
	ENTRY(hxd_state),
	ENTRY(hxd_control),
	ENTRY(hxd_applied),
	ENTRY(hxd_onebody),
	ENTRY(hxd_mocap),
	ENTRY(hxd_dynamics),
	ENTRY(hxd_sensor),
	ENTRY(hxd_poses),
	ENTRY(hxd_tendon),
	ENTRY(hxd_actuator),
	ENTRY(hxd_force),
	ENTRY(hxd_contacts),
	ENTRY(hxd_info),
	ENTRY(hxd_robot),
	ENTRY(hxd_robot_sensor),
};

const hxd_member *
hxd_members(const char *type)
{
	size_t i;

	for (i = 0;
	     type != NULL && i < sizeof(member_lists) / sizeof(member_lists[0]);
	     i++)
		if (strcmp(member_lists[i].type, type) == 0)
			return member_lists[i].members;
	return NULL;
}
