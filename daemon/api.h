/*
 * The call handlers, one file per area, each a row of api_table.c.
 * Handlers take their request's arguments, check them, call the sim and
 * fill the response (call.h); they never touch a socket.
 */
#ifndef HXD_API_H
#define HXD_API_H

#include <stddef.h>
#include <stdint.h>

#include "call.h"

/* HAPTIX native API (api_native.c). */
int api_info(struct call *);
int api_get_state(struct call *);
int api_set_state(struct call *);
int api_get_control(struct call *);
int api_set_control(struct call *);
int api_get_applied(struct call *);
int api_set_applied(struct call *);
int api_get_onebody(struct call *);
int api_set_onebody(struct call *);
int api_get_mocap(struct call *);
int api_set_mocap(struct call *);
int api_get_dynamics(struct call *);
int api_get_sensor(struct call *);
int api_get_body(struct call *);
int api_get_geom(struct call *);
int api_get_site(struct call *);
int api_get_tendon(struct call *);
int api_get_actuator(struct call *);
int api_get_force(struct call *);
int api_get_contact(struct call *);
int api_set_geomsize(struct call *);
int api_get_rgba(struct call *);
int api_set_rgba(struct call *);
int api_step(struct call *);
int api_update(struct call *);
int api_update_writes(const struct call *);
int api_reset(struct call *);
int api_equality(struct call *);
int api_message(struct call *);
int api_name2id(struct call *);
int api_id2name(struct call *);

/* HAPTIX simple API (api_simple.c). */
int api_robot_info(struct call *);
int api_robot_update(struct call *);
int api_robot_update_writes(const struct call *);

/* Arrays by name (api_array.c). */
int api_get_array(struct call *);
int api_set_array(struct call *);
int api_list_arrays(struct call *);

/* Sessions, the lease and streams (api_session.c). */
int api_clients(struct call *);
int api_lease(struct call *);
int api_subscribe(struct call *);
int api_unsubscribe(struct call *);

/* Check a Control from the client and apply it (api_native.c). */
int api_control_apply(struct call *c, const Haptix__V1__Control *w);

/* Batch runs (batch.c), keyframes and joints by name (api_native.c). */
int api_batch(struct call *);
int api_capture_key(struct call *);
int api_set_joint(struct call *);

/* Administration (api_admin.c). */
int api_hello(struct call *);
int api_load_model(struct call *);
int api_pause(struct call *);
int api_run(struct call *);
int api_set_speed(struct call *);
int api_status(struct call *);
int api_record_start(struct call *);
int api_record_stop(struct call *);
int api_state_hash(struct call *);

/* Input drivers: tracking and perturbations (api_driver.c). */
int api_mocap_pose(struct call *);
int api_mocap_connect(struct call *);
int api_perturb(struct call *);

/* The model for viewers (api_model.c). */
int api_get_model(struct call *);

#endif
