/*
 * The public structs that go both ways, as their messages: one table
 * each, read by decode_payload() for answers and by decode_encode() for
 * requests.  Internal to libhaptix.
 */
#ifndef HX_TABLES_H
#define HX_TABLES_H

#include "decode.h"

static const struct decode_field state_fields[] = DECODE_TABLE(
    hxd_state, State);
static const struct decode_field control_fields[] = DECODE_TABLE(
    hxd_control, Control);
static const struct decode_field applied_fields[] = DECODE_TABLE(
    hxd_applied, Applied);
static const struct decode_field mocap_fields[] = DECODE_TABLE(
    hxd_mocap, Mocap);
static const struct decode_field sensor_fields[] = DECODE_TABLE(
    hxd_sensor, Sensor);

#endif
