/*
 * Every call the daemon answers, one line each: CALL(CASE, fn, needs)
 * names the Request's call case, the handler api_fn (in the file of its
 * area) and what it needs: M a model, W the right to write (the lease,
 * no other client's batch run).  CALL_SOMETIMES is a call that writes
 * only for some requests: api_fn_writes says which, and dispatch then
 * checks the right to write.  api.h declares the handlers from this list
 * and api_table.c makes the call table of it: adding a call adds a line
 * here (docs/adding-a-call.md).
 *
 * An X-macro list, included where CALL and CALL_SOMETIMES are defined.
 */

/* The Hello handshake, the clients list and the lease (api_clients.c). */
CALL(HELLO, hello, 0)
CALL(CLIENTS, clients, 0)
CALL(LEASE, lease, 0)

/* The server as it runs (api_status.c). */
CALL(STATUS, status, 0)

/* The model: its description, loading, the MJB for viewers (api_model.c). */
CALL(LOAD_MODEL, load_model, W)
CALL(INFO, info, M)
CALL(GET_MODEL, get_model, M)
CALL(GET_MODEL_XML, get_model_xml, M)
CALL(EDIT_MODEL, edit_model, M | W)

/* Joints held on a path by equalities (api_hold.c). */
CALL_SOMETIMES(HOLD, hold, M)
CALL(RELEASE, release, M | W)
CALL(MODEL_DIRS, model_dirs, 0)

/* Reading the simulation (api_view.c). */
CALL(GET_STATE, get_state, M)
CALL(GET_CONTROL, get_control, M)
CALL(GET_APPLIED, get_applied, M)
CALL(GET_ONEBODY, get_onebody, M)
CALL(GET_MOCAP, get_mocap, M)
CALL(GET_DYNAMICS, get_dynamics, M)
CALL(GET_SENSOR, get_sensor, M)
CALL(GET_BODY, get_body, M)
CALL(GET_GEOM, get_geom, M)
CALL(GET_SITE, get_site, M)
CALL(GET_TENDON, get_tendon, M)
CALL(GET_ACTUATOR, get_actuator, M)
CALL(GET_FORCE, get_force, M)
CALL(GET_CONTACT, get_contact, M)
CALL(GET_JOINT, get_joint, M)

/* Writing its state (api_set.c). */
CALL(SET_STATE, set_state, M | W)
CALL(SET_CONTROL, set_control, M | W)
CALL(SET_APPLIED, set_applied, M | W)
CALL(SET_ONEBODY, set_onebody, M | W)
CALL(SET_MOCAP, set_mocap, M | W)
CALL(SET_JOINT, set_joint, M | W)

/* The model's objects: sizes, colours, equalities, names (api_object.c). */
CALL(SET_GEOMSIZE, set_geomsize, M | W)
CALL(GET_RGBA, get_rgba, M)
CALL(SET_RGBA, set_rgba, M | W)
CALL(EQUALITY, equality, M | W)
CALL(MESSAGE, message, 0)
CALL(NAME2ID, name2id, M)
CALL(ID2NAME, id2name, M)

/* Running it: step, update, reset, capture, pause, run, speed (api_run.c). */
CALL(PAUSE, pause, M | W)
CALL(RUN, run, M | W)
CALL(SET_SPEED, set_speed, W)
CALL(STEP, step, M | W)
CALL_SOMETIMES(UPDATE, update, M)
CALL(RESET, reset, M | W)
CALL(CAPTURE_KEY, capture_key, M | W)

/* Batch runs (batch.c). */
CALL(BATCH, batch, M | W)

/* HAPTIX's simple API, the hx_ calls (api_simple.c). */
CALL(ROBOT_INFO, robot_info, M)
CALL_SOMETIMES(ROBOT_UPDATE, robot_update, M)

/* Streams and events (api_stream.c). */
CALL(SUBSCRIBE, subscribe, 0)
CALL(UNSUBSCRIBE, unsubscribe, 0)

/* Arrays by name (api_array.c). */
CALL(GET_ARRAY, get_array, M)
CALL(SET_ARRAY, set_array, M | W)
CALL(LIST_ARRAYS, list_arrays, M)

/* MuJoCo's computations on a scratch copy of the state (api_compute.c). */
CALL(COMPUTE, compute, M)

/* The live run's history (api_history.c). */
CALL(HISTORY, history, M)
CALL(HISTORY_RESUME, history_resume, M | W)

/* Recording and the state hash (api_record.c). */
CALL(RECORD_START, record_start, M | W)
CALL(STATE_HASH, state_hash, M)
CALL(RECORD_STOP, record_stop, W)

/* Input drivers: tracking, perturbations, smooth moves (api_driver.c). */
CALL(MOCAP_POSE, mocap_pose, M | W)
CALL(MOCAP_CONNECT, mocap_connect, M | W)
CALL(PERTURB, perturb, M | W)
CALL(MOCAP_MOVE, mocap_move, M | W)

/* Gazebo HAPTIX's World API: forces, the view camera, collide modes
 * (api_world.c). */
CALL_SOMETIMES(WORLD_FORCE, world_force, M)
CALL_SOMETIMES(CAMERA, camera, M)
CALL_SOMETIMES(COLLIDE_MODE, collide_mode, M)
