/*
 * The call table: one row per call of the Request oneof, indexed by its
 * field number, with the handler and what the call needs: a model (M),
 * the right to write (W), or the right to write when its predicate says
 * this request writes (update and robot_update: with controls).
 */
#include "config.h"

#include "api.h"
#include "api_table.h"
#include "dispatch.h"

#define M DISPATCH_MODEL
#define W DISPATCH_WRITE

static const struct dispatch_entry api_table[] = {
#define H(call, fn, flags) \
	[HAPTIX__V1__REQUEST__CALL_##call] = { #fn, api_##fn, flags, NULL }
#define HW(call, fn, flags) \
	[HAPTIX__V1__REQUEST__CALL_## \
	    call] = { #fn, api_##fn, flags, api_##fn##_writes }
	H(HELLO, hello, 0),
	H(INFO, info, M),
	H(GET_STATE, get_state, M),
	H(GET_CONTROL, get_control, M),
	H(GET_APPLIED, get_applied, M),
	H(GET_ONEBODY, get_onebody, M),
	H(GET_MOCAP, get_mocap, M),
	H(GET_DYNAMICS, get_dynamics, M),
	H(GET_SENSOR, get_sensor, M),
	H(GET_BODY, get_body, M),
	H(GET_GEOM, get_geom, M),
	H(GET_SITE, get_site, M),
	H(GET_TENDON, get_tendon, M),
	H(GET_ACTUATOR, get_actuator, M),
	H(GET_FORCE, get_force, M),
	H(GET_CONTACT, get_contact, M),
	H(SET_STATE, set_state, M | W),
	H(SET_CONTROL, set_control, M | W),
	H(SET_APPLIED, set_applied, M | W),
	H(SET_ONEBODY, set_onebody, M | W),
	H(SET_MOCAP, set_mocap, M | W),
	H(SET_GEOMSIZE, set_geomsize, M | W),
	H(GET_RGBA, get_rgba, M),
	H(SET_RGBA, set_rgba, M | W),
	H(STEP, step, M | W),
	HW(UPDATE, update, M),
	H(RESET, reset, M | W),
	H(EQUALITY, equality, M | W),
	H(MESSAGE, message, 0),
	H(NAME2ID, name2id, M),
	H(ID2NAME, id2name, M),
	H(ROBOT_INFO, robot_info, M),
	HW(ROBOT_UPDATE, robot_update, M),
	H(CLIENTS, clients, 0),
	H(LEASE, lease, 0),
	H(SUBSCRIBE, subscribe, 0),
	H(UNSUBSCRIBE, unsubscribe, 0),
	H(BATCH, batch, M | W),
	H(CAPTURE_KEY, capture_key, M | W),
	H(SET_JOINT, set_joint, M | W),
	H(GET_ARRAY, get_array, M),
	H(SET_ARRAY, set_array, M | W),
	H(LIST_ARRAYS, list_arrays, M),
	H(GET_MODEL, get_model, M),
	H(LOAD_MODEL, load_model, W),
	H(PAUSE, pause, M | W),
	H(RUN, run, M | W),
	H(SET_SPEED, set_speed, W),
	H(STATUS, status, 0),
	H(RECORD_START, record_start, M | W),
	H(STATE_HASH, state_hash, M),
	H(RECORD_STOP, record_stop, W),
	H(MOCAP_POSE, mocap_pose, M | W),
	H(MOCAP_CONNECT, mocap_connect, M | W),
	H(PERTURB, perturb, M | W),
#undef H
#undef HW
};

void
api_table_serve(void)
{
	dispatch_init(api_table, sizeof(api_table) / sizeof(api_table[0]));
}
