/*
 * The state both HAPTIX API flavours and both header dialects share (see
 * haptix_compat.h), and the simple API's core: the robot's counts, the
 * conversion of commands and sensors between floats and the extension
 * API, and the hxMAX* limits.
 */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "haptix_compat.h"

/* The sizes of the simple API's arrays, as both dialects define them. */
#define COMPAT_MAXMOTOR 32
#define COMPAT_MAXJOINT 32
#define COMPAT_MAXCONTACTSENSOR 32
#define COMPAT_MAXIMU 32

static hxd_conn *compat_conn;
static int compat_code = HXD_OK;
static char compat_message[1200] = "mjCOM_OK: success";
static int compat_message_ok = 1; /* compat_message says success */
static void (*compat_handler)(int);

/* The robot's counts, from the last hx_robot_info (motor_count < 0: none). */
static int compat_motors = -1;

/* Record a result and its text, and call the user's handler on failure. */
static int
compat_set(int code, const char *detail)
{
	compat_code = code;
	/* Most calls succeed: the text is written once, not per call. */
	if (code == HXD_OK && (detail == NULL || *detail == '\0')) {
		if (compat_message_ok)
			return code;
		compat_message_ok = 1;
	} else
		compat_message_ok = 0;
	snprintf(compat_message, sizeof(compat_message), "%s: %s",
	    hxd_result_name(code),
	    detail != NULL && *detail != '\0' ? detail : hxd_result_text(code));
	if (code != HXD_OK && compat_handler != NULL)
		compat_handler(code);
	return code;
}

int
compat_fail(int code, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return compat_set(code, buf);
}

int
compat_null(const char *call, const char *arg)
{
	return compat_fail(HXD_BADVALUE, "%s: %s is NULL", call, arg);
}

int
compat_done(int rc)
{
	return compat_set(rc, rc == HXD_OK ? NULL : hxd_error(compat_conn));
}

int
compat_last(void)
{
	return compat_code;
}

const char *
compat_text(void)
{
	return compat_message;
}

void
compat_set_handler(void (*handler)(int))
{
	compat_handler = handler;
}

hxd_conn *
compat_connection(void)
{
	if (compat_conn != NULL && hxd_connected(compat_conn))
		return compat_conn;
	if (compat_conn != NULL)
		compat_fail(HXD_NOCONNECTION, "not connected: %s",
		    hxd_error(compat_conn));
	else
		compat_fail(HXD_NOCONNECTION,
		    "not connected (call mj_connect "
		    "or hx_connect first)");
	return NULL;
}

int
compat_connection_ok(void)
{
	return compat_conn != NULL && hxd_connected(compat_conn);
}

/* What follows a host's "tcp:" or "tls:", or the host. */
static const char *
compat_host_after_scheme(const char *host)
{
	if (strncmp(host, "tcp:", 4) == 0 || strncmp(host, "tls:", 4) == 0)
		return host + 4;
	return host;
}

int
compat_connect(const char *host, int port)
{
	extern char *program_invocation_short_name;
	char spec[600];
	hxd_conn *c;

	if (compat_conn != NULL && hxd_connected(compat_conn))
		return compat_fail(HXD_CONNECTED,
		    "already connected; call "
		    "mj_close or hx_close first");
	hxd_close(compat_conn);
	compat_conn = NULL;
	compat_motors = -1;
	/*
	 * A port joins a host that names none, in both dialects: MuJoCo
	 * HAPTIX ignored it for its one fixed port, so a program that
	 * passes one means that port, never 5790; the default server
	 * (NULL, "") and a port out of range keep ignoring it.  A tcp: or
	 * tls: host without a port takes it too.
	 */
	if (host != NULL && *host != '\0' && port > 0 && port <= 65535 &&
	    strchr(compat_host_after_scheme(host), ':') == NULL &&
	    strchr(host, '/') == NULL) {
		snprintf(spec, sizeof(spec), "%s:%d", host, port);
		host = spec;
	}
	c = hxd_connect(host, program_invocation_short_name);
	if (c == NULL)
		return compat_fail(HXD_NOCONNECTION, "out of memory");
	compat_conn = c;
	return compat_done(hxd_result(c));
}

int
compat_ensure_connected(void)
{
	if (compat_conn != NULL && hxd_connected(compat_conn))
		return HXD_OK;
	hxd_close(compat_conn);
	compat_conn = NULL;
	return compat_connect(NULL, 0);
}

int
compat_close(void)
{
	hxd_close(compat_conn);
	compat_conn = NULL;
	compat_motors = -1;
	return compat_set(HXD_OK, NULL);
}

/* Fail unless a count fits the simple API's arrays. */
static int
compat_fits(const char *what, const char *max, int n, int limit)
{
	if (n <= limit)
		return HXD_OK;
	return compat_fail(HXD_BADSIZE,
	    "model exceeds %s (%d): it has %d "
	    "%s",
	    max, limit, n, what);
}

/* Check every count of a robot against hxMAX*. */
static int
compat_check_counts(int motors, int joints, int contacts, int imus)
{
	int rc;

	if ((rc = compat_fits("motors (actuators)", "hxMAXMOTOR", motors,
		 COMPAT_MAXMOTOR)) != HXD_OK ||
	    (rc = compat_fits("joints (joint sensors)", "hxMAXJOINT", joints,
		 COMPAT_MAXJOINT)) != HXD_OK ||
	    (rc = compat_fits("contact sensors", "hxMAXCONTACTSENSOR", contacts,
		 COMPAT_MAXCONTACTSENSOR)) != HXD_OK ||
	    (rc = compat_fits("IMUs", "hxMAXIMU", imus, COMPAT_MAXIMU)) !=
		HXD_OK)
		return rc;
	return HXD_OK;
}

/* Fetch the robot's description and remember its motor count. */
static int
compat_fetch_robot(hxd_conn *c, hxd_robot **out)
{
	int rc;

	rc = hxd_robot_info(c, out);
	if (rc != HXD_OK)
		return compat_done(rc);
	rc = compat_check_counts((*out)->motor_count, (*out)->joint_count,
	    (*out)->contact_sensor_count, (*out)->imu_count);
	if (rc != HXD_OK) {
		free(*out);
		*out = NULL;
		return rc;
	}
	compat_motors = (*out)->motor_count;
	return HXD_OK;
}

int
compat_robot_info(const struct compat_info *out)
{
	hxd_robot *r = NULL;
	hxd_conn *c;
	int i, rc;

	if ((c = compat_connection()) == NULL)
		return compat_last();
	if ((rc = compat_fetch_robot(c, &r)) != HXD_OK)
		return rc;
	*out->motor_count = r->motor_count;
	*out->joint_count = r->joint_count;
	*out->contact_sensor_count = r->contact_sensor_count;
	*out->imu_count = r->imu_count;
	for (i = 0; i < r->motor_count; i++) {
		out->motor_limit[i][0] = (float)r->motor_limit[2 * i];
		out->motor_limit[i][1] = (float)r->motor_limit[2 * i + 1];
	}
	for (i = 0; i < r->joint_count; i++) {
		out->joint_limit[i][0] = (float)r->joint_limit[2 * i];
		out->joint_limit[i][1] = (float)r->joint_limit[2 * i + 1];
	}
	*out->update_rate = (float)r->update_rate;
	free(r);
	return compat_done(HXD_OK);
}

/* Copy n floats into doubles when enabled; return the array or NULL. */
static const double *
compat_array(double *dst, const float *src, int enabled, int n)
{
	int i;

	if (enabled <= 0)
		return NULL;
	for (i = 0; i < n; i++)
		dst[i] = src[i];
	return dst;
}

/* Copy n doubles into floats. */
static void
compat_floats(float *dst, const double *src, int n)
{
	int i;

	for (i = 0; i < n; i++)
		dst[i] = (float)src[i];
}

/* Fill an hxSensor of either dialect. */
static void
compat_fill_sensor(const hxd_robot_sensor *in, const struct compat_sensor *out)
{
	double sec = floor(in->time);
	long nsec = lround((in->time - sec) * 1e9);
	int i;

	if (nsec >= 1000000000L) {
		sec += 1;
		nsec -= 1000000000L;
	}
	*out->sec = (int)sec;
	*out->nsec = (int)nsec;
	compat_floats(out->motor_pos, in->motor_pos, in->motor_count);
	compat_floats(out->motor_vel, in->motor_vel, in->motor_count);
	compat_floats(out->motor_torque, in->motor_torque, in->motor_count);
	compat_floats(out->joint_pos, in->joint_pos, in->joint_count);
	compat_floats(out->joint_vel, in->joint_vel, in->joint_count);
	compat_floats(out->contact, in->contact, in->contact_sensor_count);
	for (i = 0; i < in->imu_count; i++) {
		compat_floats(
		    out->imu_linear_acc[i], in->imu_linear_acc + 3 * i, 3);
		compat_floats(
		    out->imu_angular_vel[i], in->imu_angular_vel + 3 * i, 3);
		/* No orientation estimate, as HAPTIX specifies. */
		out->imu_orientation[i][0] = 1;
		out->imu_orientation[i][1] = 0;
		out->imu_orientation[i][2] = 0;
		out->imu_orientation[i][3] = 0;
	}
}

int
compat_robot_update(const struct compat_command *cmd,
    const struct compat_sensor *out, int no_wait)
{
	double ref_pos[COMPAT_MAXMOTOR], ref_vel[COMPAT_MAXMOTOR];
	double gain_pos[COMPAT_MAXMOTOR], gain_vel[COMPAT_MAXMOTOR];
	double vmax[COMPAT_MAXMOTOR];
	hxd_robot_command w;
	hxd_robot_sensor *in = NULL;
	hxd_robot *r = NULL;
	hxd_conn *c;
	int n, rc;

	if ((c = compat_connection()) == NULL)
		return compat_last();
	/* The motor count sizes the arrays: learn it if nobody asked yet. */
	if (compat_motors < 0) {
		if ((rc = compat_fetch_robot(c, &r)) != HXD_OK)
			return rc;
		free(r);
	}
	n = compat_motors;
	memset(&w, 0, sizeof(w));
	w.motor_count = n;
	w.no_wait = no_wait;
	if (cmd != NULL) {
		w.ref_pos = compat_array(
		    ref_pos, cmd->ref_pos, cmd->ref_pos_enabled, n);
		w.ref_vel = compat_array(
		    ref_vel, cmd->ref_vel, cmd->ref_vel_enabled, n);
		w.gain_pos = compat_array(
		    gain_pos, cmd->gain_pos, cmd->gain_pos_enabled, n);
		w.gain_vel = compat_array(
		    gain_vel, cmd->gain_vel, cmd->gain_vel_enabled, n);
		w.ref_vel_max = compat_array(
		    vmax, cmd->ref_vel_max, cmd->ref_vel_max_enabled, n);
	}
	rc = hxd_robot_update(c, &w, &in);
	if (rc != HXD_OK)
		return compat_done(rc);
	rc = compat_check_counts(in->motor_count, in->joint_count,
	    in->contact_sensor_count, in->imu_count);
	if (rc == HXD_OK) {
		compat_fill_sensor(in, out);
		rc = compat_done(HXD_OK);
	}
	free(in);
	return rc;
}
