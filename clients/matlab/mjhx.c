/*
 * mjhx: the HAPTIX MATLAB API, one MEX file over libhaptix.
 *
 * As in MuJoCo HAPTIX, one MEX file holds the connection, locks itself in
 * memory while connected (so that `clear all` cannot drop the socket) and
 * unlocks when the connection closes or is lost; the .m wrappers beside
 * it (hx_connect.m, mj_get_state.m, ...) call it with the C name of the
 * call and its arguments.  `mjhx` with no arguments prints the commands.
 *
 * The calls go through haptixd.h, not haptix.h: it is double precision
 * and sizes every array by the model, which is what the manual's MATLAB
 * structs are ("all numeric data fields in MATLAB are double, and all
 * arrays have model-specific size").  Errors are MATLAB errors with the
 * identifier haptix:NAME (NAME from mjtResult: BADSIZE, NOCONNECTION,
 * ...) and the server's words.  Vectors are columns; an array of k
 * items of w numbers each (mocap positions, joint ranges) is a k x w
 * matrix.  Ids are 0-based, as the server's.
 *
 * Only the MEX API (mex.h) is used, so the same file builds with GNU
 * Octave's `mkoctfile --mex` and with MATLAB's `mex` (docs/matlab.md).
 * No libhaptix result is held across a call that may raise an error:
 * raising leaves the function, and what malloc() gave would leak.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "haptixd.h"
#include "mex.h"

/* The client name the server lists for this connection. */
#define MJHX_CLIENT_NAME "mjhx"

/* What one command of the table does with its arguments. */
typedef void mjhx_fn(
    int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]);

/* One command: its name (the C call's), its arguments and its help. */
struct mjhx_cmd {
	const char *name;
	mjhx_fn *fn;
	int min_in, max_in; /* arguments after the command name */
	const char *usage;
};

static void mjhx_raise(const char *, int, const char *);
static void mjhx_raisef(const char *, int, const char *, ...)
    __attribute__((format(printf, 3, 4)));

/* The one connection of this MATLAB session, as in HAPTIX. */
static hxd_conn *mjhx_conn;
/* The command being run, for calls that serve two names. */
static const char *mjhx_call = "mjhx";
/* mexAtExit() is set up once. */
static int mjhx_atexit_set;

/*============================================================ connection */

/* Close the connection, if any, and let MATLAB unload the MEX file. */
static void
mjhx_drop(void)
{
	hxd_close(mjhx_conn);
	mjhx_conn = NULL;
	if (mexIsLocked())
		mexUnlock();
}

/* Called when MATLAB unloads the MEX file or exits: close cleanly. */
static void
mjhx_atexit(void)
{
	hxd_close(mjhx_conn);
	mjhx_conn = NULL;
}

/* Return the connection, or raise NOCONNECTION saying why there is none. */
static hxd_conn *
mjhx_need(const char *call)
{
	char why[1100];

	if (mjhx_conn == NULL)
		mjhx_raise(call, HXD_NOCONNECTION,
		    "not connected: call hx_connect or mj_connect first");
	if (!hxd_connected(mjhx_conn)) {
		snprintf(why, sizeof(why),
		    "the connection was lost (%s): call hx_connect again",
		    hxd_error(mjhx_conn));
		mjhx_drop();
		mjhx_raise(call, HXD_NOCONNECTION, why);
	}
	return mjhx_conn;
}

/*
 * Raise the error of a failed call on the connection; a connection that
 * the failure closed (the server went away, or did not answer in time)
 * is dropped first, so that the next call says so and hx_connect works.
 */
static void
mjhx_check(const char *call, int rc)
{
	char why[1200];

	if (rc == HXD_OK)
		return;
	if (mjhx_conn != NULL && !hxd_connected(mjhx_conn)) {
		snprintf(why, sizeof(why),
		    "%s; the connection is closed: call hx_connect again",
		    hxd_error(mjhx_conn));
		mjhx_drop();
	} else
		snprintf(why, sizeof(why), "%s",
		    mjhx_conn != NULL ? hxd_error(mjhx_conn) : "");
	mjhx_raise(call, rc, why);
}

/*================================================================ errors */

/* Raise the MATLAB error haptix:NAME of result rc, with the call's name. */
static void
mjhx_raise(const char *call, int rc, const char *why)
{
	const char *name = hxd_result_name(rc);
	char id[64];

	if (strncmp(name, "mjCOM_", 6) == 0)
		name += 6;
	snprintf(id, sizeof(id), "haptix:%s", name);
	mexErrMsgIdAndTxt(id, "%s: %s (mjCOM_%s)", call,
	    why != NULL && *why != '\0' ? why : hxd_result_text(rc), name);
}

/* mjhx_raise() with the reason formatted. */
static void
mjhx_raisef(const char *call, int rc, const char *fmt, ...)
{
	char why[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	mjhx_raise(call, rc, why);
}

/*============================================================ arguments */

/* The string argument a; caller may mxFree() it (MATLAB frees it anyway). */
static char *
mjhx_string(const char *call, const mxArray *a, const char *what)
{
	char *s;

	if (!mxIsChar(a))
		mjhx_raisef(call, HXD_BADVALUE, "%s must be a string", what);
	if ((s = mxArrayToString(a)) == NULL)
		mjhx_raisef(
		    call, HXD_BADVALUE, "%s is not a plain string", what);
	return s;
}

/* A real numeric scalar argument. */
static double
mjhx_scalar(const char *call, const mxArray *a, const char *what)
{
	if ((!mxIsNumeric(a) && !mxIsLogical(a)) || mxIsComplex(a) ||
	    mxGetNumberOfElements(a) != 1)
		mjhx_raisef(
		    call, HXD_BADVALUE, "%s must be a real number", what);
	return mxGetScalar(a);
}

/* An integer argument within int's range. */
static int
mjhx_int(const char *call, const mxArray *a, const char *what)
{
	double v = mjhx_scalar(call, a, what);

	if (!(v == floor(v) && fabs(v) <= 2147483647.0))
		mjhx_raisef(
		    call, HXD_BADVALUE, "%s is %g: not an integer", what, v);
	return (int)v;
}

/*
 * The numbers of a real double array, in MATLAB's order; *n gets how
 * many.  want >= 0 requires that many.
 */
static const double *
mjhx_doubles(
    const char *call, const mxArray *a, const char *what, long want, int *n)
{
	size_t k;

	if (!mxIsDouble(a) || mxIsComplex(a) || mxIsSparse(a))
		mjhx_raisef(
		    call, HXD_BADVALUE, "%s must be a real double array", what);
	k = mxGetNumberOfElements(a);
	if (k > 100000000)
		mjhx_raisef(call, HXD_BADSIZE, "%s has %zu numbers", what, k);
	if (want >= 0 && k != (size_t)want)
		mjhx_raisef(call, HXD_BADSIZE,
		    "%s has %zu numbers where %ld are needed", what, k, want);
	*n = (int)k;
	return k > 0 ? mxGetPr(a) : NULL;
}

/*
 * A k x w matrix (k items of w numbers) as k*w numbers, item after item,
 * as the C API takes them; *k gets the rows.  want >= 0 requires that
 * many rows; one row may come as any vector of w numbers.  The buffer is
 * mxMalloc'd.
 */
static double *
mjhx_rows_in(const char *call, const mxArray *a, const char *what, int w,
    long want, int *k)
{
	const double *v;
	double *out;
	size_t m, n, i, j;
	int count;

	v = mjhx_doubles(call, a, what, -1, &count);
	m = mxGetM(a);
	n = mxGetN(a);
	if (count == w && (m == 1 || n == 1)) {
		m = 1;
		n = (size_t)w;
	} else if (count == 0) {
		m = 0;
		n = (size_t)w;
	}
	if (n != (size_t)w || mxGetNumberOfDimensions(a) > 2)
		mjhx_raisef(call, HXD_BADSIZE,
		    "%s is %zux%zu: it must have %d columns", what, mxGetM(a),
		    mxGetN(a), w);
	if (want >= 0 && m != (size_t)want)
		mjhx_raisef(call, HXD_BADSIZE,
		    "%s has %zu rows where %ld are needed", what, m, want);
	out = mxMalloc((m * (size_t)w + 1) * sizeof(*out));
	for (i = 0; i < m; i++)
		for (j = 0; j < (size_t)w; j++)
			out[i * (size_t)w + j] = v[j * m + i];
	*k = (int)m;
	return out;
}

/* The field name of struct s, or NULL when s has none. */
static const mxArray *
mjhx_field(const mxArray *s, const char *name)
{
	return mxGetFieldNumber(s, name) >= 0 ? mxGetField(s, 0, name) : NULL;
}

/* Require a 1x1 struct argument. */
static void
mjhx_need_struct(const char *call, const mxArray *a, const char *what)
{
	if (!mxIsStruct(a) || mxGetNumberOfElements(a) != 1)
		mjhx_raisef(
		    call, HXD_BADVALUE, "%s must be a 1x1 struct", what);
}

/* Refuse fields of s not in the NULL-terminated list known. */
static void
mjhx_known_fields(const char *call, const mxArray *s, const char *what,
    const char *const *known)
{
	const char *f;
	int i, j, n = mxGetNumberOfFields(s);

	for (i = 0; i < n; i++) {
		f = mxGetFieldNameByNumber(s, i);
		for (j = 0; known[j] != NULL; j++)
			if (strcmp(f, known[j]) == 0)
				break;
		if (known[j] == NULL)
			mjhx_raisef(call, HXD_BADVALUE, "%s has no field '%s'",
			    what, f);
	}
}

/*
 * The numbers of field name of struct s (NULL and *n 0 when absent and
 * not required); a count field (nq for qpos), when present, must agree.
 */
static const double *
mjhx_field_doubles(const char *call, const mxArray *s, const char *what,
    const char *name, const char *count, int required, int *n)
{
	const mxArray *f = mjhx_field(s, name), *cf;
	const double *v;
	char label[128];
	int nc;

	*n = 0;
	if (f == NULL) {
		if (required)
			mjhx_raisef(call, HXD_BADVALUE, "%s has no field '%s'",
			    what, name);
		return NULL;
	}
	snprintf(label, sizeof(label), "%s.%s", what, name);
	v = mjhx_doubles(call, f, label, -1, n);
	if (count != NULL && (cf = mjhx_field(s, count)) != NULL) {
		snprintf(label, sizeof(label), "%s.%s", what, count);
		nc = mjhx_int(call, cf, label);
		if (nc != *n)
			mjhx_raisef(call, HXD_BADSIZE,
			    "%s.%s has %d numbers but %s.%s is %d", what, name,
			    *n, what, count, nc);
	}
	return v;
}

/*============================================================== results */

/* A 1x1 struct with the NULL-terminated field names, in that order. */
static mxArray *
mjhx_struct(const char *const *names)
{
	int n = 0;

	while (names[n] != NULL)
		n++;
	return mxCreateStructMatrix(1, 1, n, (const char **)names);
}

/* Set field name of struct s to v. */
static void
mjhx_set(mxArray *s, const char *name, mxArray *v)
{
	mxSetField(s, 0, name, v);
}

/* A double scalar. */
static mxArray *
mjhx_num(double v)
{
	return mxCreateDoubleScalar(v);
}

/* n doubles as an n x 1 column. */
static mxArray *
mjhx_col(const double *v, int n)
{
	mxArray *a = mxCreateDoubleMatrix(n > 0 ? (size_t)n : 0, 1, mxREAL);

	if (n > 0)
		memcpy(mxGetPr(a), v, (size_t)n * sizeof(*v));
	return a;
}

/* n ints as an n x 1 column of doubles. */
static mxArray *
mjhx_int_col(const int *v, int n)
{
	mxArray *a = mxCreateDoubleMatrix(n > 0 ? (size_t)n : 0, 1, mxREAL);
	double *p = mxGetPr(a);
	int i;

	for (i = 0; i < n; i++)
		p[i] = v[i];
	return a;
}

/* k items of w doubles each (item after item) as a k x w matrix. */
static mxArray *
mjhx_rows(const double *v, int k, int w)
{
	mxArray *a = mxCreateDoubleMatrix(
	    k > 0 ? (size_t)k : 0, (size_t)w, mxREAL);
	double *p = mxGetPr(a);
	size_t i, j;

	for (i = 0; i < (size_t)k; i++)
		for (j = 0; j < (size_t)w; j++)
			p[j * (size_t)k + i] = v[i * (size_t)w + j];
	return a;
}

/* k items of w ints each as a k x w matrix of doubles. */
static mxArray *
mjhx_int_rows(const int *v, int k, int w)
{
	mxArray *a = mxCreateDoubleMatrix(
	    k > 0 ? (size_t)k : 0, (size_t)w, mxREAL);
	double *p = mxGetPr(a);
	size_t i, j;

	for (i = 0; i < (size_t)k; i++)
		for (j = 0; j < (size_t)w; j++)
			p[j * (size_t)k + i] = v[i * (size_t)w + j];
	return a;
}

/*
 * Result struct data of type (hxd_state, ...) as the MATLAB struct of the
 * same members, in the protocol's order (hxd_members()): numbers as
 * scalars, arrays as count x per matrices (a column when per is 1).  For
 * the structs whose MATLAB form is the protocol's; the others follow the
 * manual's names and order by hand.
 */
static mxArray *
mjhx_members(const char *type, const void *data)
{
	const hxd_member *m = hxd_members(type), *f;
	const char *names[32];
	const char *p = data;
	mxArray *s, *v;
	int n = 0, k;

	for (f = m; f != NULL && f->name != NULL && n < 31; f++)
		names[n++] = f->name;
	names[n] = NULL;
	s = mjhx_struct(names);
	for (f = m; f != NULL && f->name != NULL; f++) {
		k = f->counted != NULL ?
		    *(const int *)(const void *)(p + f->count) :
		    0;
		switch (f->kind) {
		case HXD_MEMBER_NUM:
			v = mjhx_num(
			    *(const double *)(const void *)(p + f->offset));
			break;
		case HXD_MEMBER_INT:
			v = mjhx_num(
			    *(const int *)(const void *)(p + f->offset));
			break;
		case HXD_MEMBER_NUMS:
			v = mjhx_rows(
			    *(double *const *)(const void *)(p + f->offset), k,
			    f->per);
			break;
		case HXD_MEMBER_INTS:
			v = mjhx_int_rows(
			    *(int *const *)(const void *)(p + f->offset), k,
			    f->per);
			break;
		case HXD_MEMBER_FIXED:
			v = mjhx_col(
			    (const double *)(const void *)(p + f->offset),
			    f->per);
			break;
		default:
			mexErrMsgIdAndTxt("mjhx:internal",
			    "mjhx: %s.%s: no MATLAB form", type, f->name);
			return NULL;
		}
		mjhx_set(s, f->name, v);
	}
	return s;
}

/* plhs[0] = what hxd_get_NAME answers, as its members; call names it. */
#define MJHX_GET(call, name, type) \
	do { \
		type *o_ = NULL; \
		mjhx_check(call, hxd_get_##name(mjhx_need(call), &o_)); \
		plhs[0] = mjhx_members(#type, o_); \
		free(o_); \
	} while (0)

/* Ranges as a k x 2 matrix, (0, 0) where limited[i] is 0 (as in C). */
static mxArray *
mjhx_ranges(const double *range, const int *limited, int k)
{
	mxArray *a = mjhx_rows(range, k, 2);
	double *p = mxGetPr(a);
	int i;

	for (i = 0; i < k; i++)
		if (!limited[i])
			p[i] = p[k + i] = 0;
	return a;
}

/*=================================================== connection commands */

/* hx_connect(host, port): the host as for mj_connect; a port joins it. */
static void
cmd_hx_connect(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	char *host = NULL, spec[600], why[1100];
	const char *call = mjhx_call;
	int port = 0, rc;
	hxd_conn *c;

	if (mjhx_conn != NULL && hxd_connected(mjhx_conn))
		mjhx_raise(call, HXD_CONNECTED,
		    "already connected: call hx_close or mj_close first");
	mjhx_drop();
	if (nrhs > 0 && !mxIsEmpty(prhs[0]))
		host = mjhx_string(call, prhs[0], "host");
	if (nrhs > 1 && !mxIsEmpty(prhs[1]))
		port = mjhx_int(call, prhs[1], "port");
	/* As libhaptix's hx_connect: a port joins a host that names none. */
	if (host != NULL && *host != '\0' && port > 0 && port <= 65535 &&
	    strchr(host, ':') == NULL && strchr(host, '/') == NULL) {
		snprintf(spec, sizeof(spec), "%s:%d", host, port);
		mxFree(host);
		host = spec;
	}
	c = hxd_connect(host, MJHX_CLIENT_NAME);
	if (c == NULL)
		mjhx_raise(call, HXD_NOCONNECTION, "out of memory");
	if ((rc = hxd_result(c)) != HXD_OK) {
		snprintf(why, sizeof(why), "%s", hxd_error(c));
		hxd_close(c);
		mjhx_raise(call, rc, why);
	}
	mjhx_conn = c;
	/* Keep the MEX file, and so the socket, while connected. */
	if (!mexIsLocked())
		mexLock();
}

/* hx_close, mj_close: closing when not connected is not an error. */
static void
cmd_hx_close(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	mjhx_drop();
}

/* connected = mj_connected: 1 while the connection is usable. */
static void
cmd_mj_connected(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	int up = mjhx_conn != NULL && hxd_connected(mjhx_conn);

	if (mjhx_conn != NULL && !up)
		mjhx_drop();
	plhs[0] = mjhx_num(up);
}

/* hxd_set_timeout(seconds): how long a call waits for its answer. */
static void
cmd_set_timeout(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	double s = mjhx_scalar("hxd_set_timeout", prhs[0], "seconds");
	hxd_conn *c = mjhx_need("hxd_set_timeout");

	if (!(s >= 0 && s <= 86400))
		mjhx_raisef("hxd_set_timeout", HXD_BADVALUE,
		    "seconds is %g: 0 (wait forever) to 86400", s);
	hxd_set_timeout(c, (int)ceil(s * 1000));
}

/*============================================================ simple API */

/* info = hx_robot_info */
static void
cmd_hx_robot_info(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	static const char *const f[] = { "motor_count", "joint_count",
		"contact_sensor_count", "imu_count", "motor_limit",
		"joint_limit", "update_rate", NULL };
	hxd_robot *r = NULL;
	mxArray *s;
	int rc;

	rc = hxd_robot_info(mjhx_need("hx_robot_info"), &r);
	mjhx_check("hx_robot_info", rc);
	s = mjhx_struct(f);
	mjhx_set(s, "motor_count", mjhx_num(r->motor_count));
	mjhx_set(s, "joint_count", mjhx_num(r->joint_count));
	mjhx_set(s, "contact_sensor_count", mjhx_num(r->contact_sensor_count));
	mjhx_set(s, "imu_count", mjhx_num(r->imu_count));
	mjhx_set(
	    s, "motor_limit", mjhx_rows(r->motor_limit, r->motor_count, 2));
	mjhx_set(
	    s, "joint_limit", mjhx_rows(r->joint_limit, r->joint_count, 2));
	mjhx_set(s, "update_rate", mjhx_num(r->update_rate));
	free(r);
	plhs[0] = s;
}

/* The simple API's sensor struct, as the manual prints it; frees in. */
static mxArray *
mjhx_robot_sensor(hxd_robot_sensor *in)
{
	static const char *const f[] = { "time_stamp", "motor_pos", "motor_vel",
		"motor_torque", "joint_pos", "joint_vel", "contact",
		"imu_linear_acc", "imu_angular_vel", "imu_orientation", NULL };
	mxArray *s = mjhx_struct(f), *q;
	double *p;
	int i, n = in->imu_count;

	mjhx_set(s, "time_stamp", mjhx_num(in->time));
	mjhx_set(s, "motor_pos", mjhx_col(in->motor_pos, in->motor_count));
	mjhx_set(s, "motor_vel", mjhx_col(in->motor_vel, in->motor_count));
	mjhx_set(
	    s, "motor_torque", mjhx_col(in->motor_torque, in->motor_count));
	mjhx_set(s, "joint_pos", mjhx_col(in->joint_pos, in->joint_count));
	mjhx_set(s, "joint_vel", mjhx_col(in->joint_vel, in->joint_count));
	mjhx_set(s, "contact", mjhx_col(in->contact, in->contact_sensor_count));
	mjhx_set(s, "imu_linear_acc", mjhx_rows(in->imu_linear_acc, n, 3));
	mjhx_set(s, "imu_angular_vel", mjhx_rows(in->imu_angular_vel, n, 3));
	/* No orientation estimate: (1, 0, 0, 0), as HAPTIX specifies. */
	q = mxCreateDoubleMatrix((size_t)n, 4, mxREAL);
	p = mxGetPr(q);
	for (i = 0; i < n; i++)
		p[i] = 1;
	mjhx_set(s, "imu_orientation", q);
	free(in);
	return s;
}

/*
 * One array of a command: used when its *_enabled field is positive,
 * as in C; all used arrays have the same length (*n, -1 before the
 * first).
 */
static const double *
mjhx_command_array(const mxArray *cmd, const char *name, int *n)
{
	char en[64], label[128];
	const mxArray *f;
	const double *v;
	int k;

	snprintf(en, sizeof(en), "%s_enabled", name);
	snprintf(label, sizeof(label), "command.%s", en);
	if ((f = mjhx_field(cmd, en)) == NULL ||
	    mjhx_scalar("hx_update", f, label) <= 0)
		return NULL;
	if ((f = mjhx_field(cmd, name)) == NULL)
		mjhx_raisef("hx_update", HXD_BADVALUE,
		    "command.%s is set but command has no field '%s'", en,
		    name);
	snprintf(label, sizeof(label), "command.%s", name);
	v = mjhx_doubles("hx_update", f, label, *n, &k);
	*n = k;
	return v;
}

/* sensor = hx_update(command), sensor = hx_read_sensors */
static void
cmd_hx_update(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	static const char *const known[] = { "ref_pos", "ref_pos_enabled",
		"ref_vel", "ref_vel_enabled", "ref_vel_max",
		"ref_vel_max_enabled", "gain_pos", "gain_pos_enabled",
		"gain_vel", "gain_vel_enabled", NULL };
	hxd_robot_command w;
	hxd_robot_sensor *out = NULL;
	hxd_conn *c;
	int n = -1, rc;

	memset(&w, 0, sizeof(w));
	if (nrhs > 0) {
		mjhx_need_struct("hx_update", prhs[0], "command");
		mjhx_known_fields("hx_update", prhs[0], "command", known);
		w.ref_pos = mjhx_command_array(prhs[0], "ref_pos", &n);
		w.ref_vel = mjhx_command_array(prhs[0], "ref_vel", &n);
		w.ref_vel_max = mjhx_command_array(prhs[0], "ref_vel_max", &n);
		w.gain_pos = mjhx_command_array(prhs[0], "gain_pos", &n);
		w.gain_vel = mjhx_command_array(prhs[0], "gain_vel", &n);
	}
	w.motor_count = n > 0 ? n : 0;
	c = mjhx_need(mjhx_call);
	rc = hxd_robot_update(c, &w, &out);
	mjhx_check(mjhx_call, rc);
	plhs[0] = mjhx_robot_sensor(out);
}

/*============================================================ native get */

/* info = mj_info */
static void
cmd_mj_info(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	static const char *const f[] = { "nq", "nv", "na", "njnt", "nbody",
		"ngeom", "nsite", "ntendon", "nu", "neq", "nkey", "nmocap",
		"nsensor", "nsensordata", "nmat", "timestep", "apirate",
		"sensor_type", "sensor_datatype", "sensor_objtype",
		"sensor_objid", "sensor_dim", "sensor_adr", "sensor_noise",
		"jnt_type", "jnt_bodyid", "jnt_qposadr", "jnt_dofadr",
		"jnt_range", "geom_type", "geom_bodyid", "eq_type", "eq_obj1id",
		"eq_obj2id", "actuator_trntype", "actuator_trnid",
		"actuator_ctrlrange", NULL };
	hxd_info *in = NULL;
	const hxd_model *m;
	mxArray *s;
	int rc;

	rc = hxd_info_get(mjhx_need("mj_info"), &in);
	mjhx_check("mj_info", rc);
	m = &in->model;
	s = mjhx_struct(f);
	mjhx_set(s, "nq", mjhx_num(m->nq));
	mjhx_set(s, "nv", mjhx_num(m->nv));
	mjhx_set(s, "na", mjhx_num(m->na));
	mjhx_set(s, "njnt", mjhx_num(m->njnt));
	mjhx_set(s, "nbody", mjhx_num(m->nbody));
	mjhx_set(s, "ngeom", mjhx_num(m->ngeom));
	mjhx_set(s, "nsite", mjhx_num(m->nsite));
	mjhx_set(s, "ntendon", mjhx_num(m->ntendon));
	mjhx_set(s, "nu", mjhx_num(m->nu));
	mjhx_set(s, "neq", mjhx_num(m->neq));
	mjhx_set(s, "nkey", mjhx_num(m->nkey));
	mjhx_set(s, "nmocap", mjhx_num(m->nmocap));
	mjhx_set(s, "nsensor", mjhx_num(m->nsensor));
	mjhx_set(s, "nsensordata", mjhx_num(m->nsensordata));
	mjhx_set(s, "nmat", mjhx_num(m->nmat));
	mjhx_set(s, "timestep", mjhx_num(m->timestep));
	mjhx_set(s, "apirate", mjhx_num(m->apirate));
	mjhx_set(s, "sensor_type", mjhx_int_col(in->sensor_type, m->nsensor));
	mjhx_set(s, "sensor_datatype",
	    mjhx_int_col(in->sensor_datatype, m->nsensor));
	mjhx_set(
	    s, "sensor_objtype", mjhx_int_col(in->sensor_objtype, m->nsensor));
	mjhx_set(s, "sensor_objid", mjhx_int_col(in->sensor_objid, m->nsensor));
	mjhx_set(s, "sensor_dim", mjhx_int_col(in->sensor_dim, m->nsensor));
	mjhx_set(s, "sensor_adr", mjhx_int_col(in->sensor_adr, m->nsensor));
	mjhx_set(s, "sensor_noise", mjhx_col(in->sensor_noise, m->nsensor));
	mjhx_set(s, "jnt_type", mjhx_int_col(in->jnt_type, m->njnt));
	mjhx_set(s, "jnt_bodyid", mjhx_int_col(in->jnt_bodyid, m->njnt));
	mjhx_set(s, "jnt_qposadr", mjhx_int_col(in->jnt_qposadr, m->njnt));
	mjhx_set(s, "jnt_dofadr", mjhx_int_col(in->jnt_dofadr, m->njnt));
	mjhx_set(s, "jnt_range",
	    mjhx_ranges(in->jnt_range, in->jnt_limited, m->njnt));
	mjhx_set(s, "geom_type", mjhx_int_col(in->geom_type, m->ngeom));
	mjhx_set(s, "geom_bodyid", mjhx_int_col(in->geom_bodyid, m->ngeom));
	mjhx_set(s, "eq_type", mjhx_int_col(in->eq_type, m->neq));
	mjhx_set(s, "eq_obj1id", mjhx_int_col(in->eq_obj1id, m->neq));
	mjhx_set(s, "eq_obj2id", mjhx_int_col(in->eq_obj2id, m->neq));
	mjhx_set(
	    s, "actuator_trntype", mjhx_int_col(in->actuator_trntype, m->nu));
	mjhx_set(
	    s, "actuator_trnid", mjhx_int_rows(in->actuator_trnid, m->nu, 2));
	mjhx_set(s, "actuator_ctrlrange",
	    mjhx_ranges(
		in->actuator_ctrlrange, in->actuator_ctrllimited, m->nu));
	free(in);
	plhs[0] = s;
}

/* state = mj_get_state */
static void
cmd_get_state(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	MJHX_GET("mj_get_state", state, hxd_state);
}

/* control = mj_get_control */
static void
cmd_get_control(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	MJHX_GET("mj_get_control", control, hxd_control);
}

/* applied = mj_get_applied */
static void
cmd_get_applied(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	MJHX_GET("mj_get_applied", applied, hxd_applied);
}

/* onebody = mj_get_onebody(bodyid) */
static void
cmd_get_onebody(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	static const char *const f[] = { "bodyid", "isfloating", "time",
		"linacc", "angacc", "contactforce", "pos", "quat", "linvel",
		"angvel", "force", "torque", NULL };
	int id = mjhx_int("mj_get_onebody", prhs[0], "bodyid");
	hxd_onebody b;
	mxArray *s;

	mjhx_check("mj_get_onebody",
	    hxd_get_onebody(mjhx_need("mj_get_onebody"), id, &b));
	s = mjhx_struct(f);
	mjhx_set(s, "bodyid", mjhx_num(id));
	mjhx_set(s, "isfloating", mjhx_num(b.is_floating));
	mjhx_set(s, "time", mjhx_num(b.time));
	mjhx_set(s, "linacc", mjhx_col(b.linacc, 3));
	mjhx_set(s, "angacc", mjhx_col(b.angacc, 3));
	mjhx_set(s, "contactforce", mjhx_col(b.contactforce, 3));
	mjhx_set(s, "pos", mjhx_col(b.pos, 3));
	mjhx_set(s, "quat", mjhx_col(b.quat, 4));
	mjhx_set(s, "linvel", mjhx_col(b.linvel, 3));
	mjhx_set(s, "angvel", mjhx_col(b.angvel, 3));
	mjhx_set(s, "force", mjhx_col(b.force, 3));
	mjhx_set(s, "torque", mjhx_col(b.torque, 3));
	plhs[0] = s;
}

/* mocap = mj_get_mocap */
static void
cmd_get_mocap(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	MJHX_GET("mj_get_mocap", mocap, hxd_mocap);
}

/* dynamics = mj_get_dynamics: the manual names act_dot actdot. */
static void
cmd_get_dynamics(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	static const char *const f[] = { "nv", "na", "time", "qacc", "actdot",
		NULL };
	hxd_dynamics *o = NULL;
	mxArray *s;
	int rc;

	rc = hxd_get_dynamics(mjhx_need("mj_get_dynamics"), &o);
	mjhx_check("mj_get_dynamics", rc);
	s = mjhx_struct(f);
	mjhx_set(s, "nv", mjhx_num(o->nv));
	mjhx_set(s, "na", mjhx_num(o->na));
	mjhx_set(s, "time", mjhx_num(o->time));
	mjhx_set(s, "qacc", mjhx_col(o->qacc, o->nv));
	mjhx_set(s, "actdot", mjhx_col(o->act_dot, o->na));
	free(o);
	plhs[0] = s;
}

/* The native sensor struct (mj_get_sensor, mj_update); frees o. */
static mxArray *
mjhx_sensor(hxd_sensor *o)
{
	mxArray *s = mjhx_members("hxd_sensor", o);

	free(o);
	return s;
}

/* sensor = mj_get_sensor */
static void
cmd_get_sensor(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	hxd_sensor *o = NULL;
	int rc;

	rc = hxd_get_sensor(mjhx_need("mj_get_sensor"), &o);
	mjhx_check("mj_get_sensor", rc);
	plhs[0] = mjhx_sensor(o);
}

/* The frames of bodies, geoms or sites, counted by count; frees o. */
static mxArray *
mjhx_poses(hxd_poses *o, const char *count)
{
	const char *f[] = { count, "time", "pos", "mat", NULL };
	mxArray *s = mjhx_struct(f);

	mjhx_set(s, count, mjhx_num(o->count));
	mjhx_set(s, "time", mjhx_num(o->time));
	mjhx_set(s, "pos", mjhx_rows(o->pos, o->count, 3));
	mjhx_set(s, "mat", mjhx_rows(o->mat, o->count, 9));
	free(o);
	return s;
}

/* The poses of bodies, geoms or sites: what get answers, sized by count. */
static mxArray *
mjhx_get_poses(
    const char *call, int (*get)(hxd_conn *, hxd_poses **), const char *count)
{
	hxd_poses *o = NULL;

	mjhx_check(call, get(mjhx_need(call), &o));
	return mjhx_poses(o, count);
}

/* body = mj_get_body */
static void
cmd_get_body(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	plhs[0] = mjhx_get_poses("mj_get_body", hxd_get_body, "nbody");
}

/* geom = mj_get_geom */
static void
cmd_get_geom(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	plhs[0] = mjhx_get_poses("mj_get_geom", hxd_get_geom, "ngeom");
}

/* site = mj_get_site */
static void
cmd_get_site(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	plhs[0] = mjhx_get_poses("mj_get_site", hxd_get_site, "nsite");
}

/* tendon = mj_get_tendon */
static void
cmd_get_tendon(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	MJHX_GET("mj_get_tendon", tendon, hxd_tendon);
}

/* actuator = mj_get_actuator */
static void
cmd_get_actuator(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	MJHX_GET("mj_get_actuator", actuator, hxd_actuator);
}

/* force = mj_get_force: the manual's fields, then HAPTIX 1.50's extra. */
static void
cmd_get_force(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	MJHX_GET("mj_get_force", force, hxd_force);
}

/* contact = mj_get_contact, in the manual's field order. */
static void
cmd_get_contact(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	static const char *const f[] = { "ncon", "time", "pos", "frame", "dist",
		"force", "geom1", "geom2", NULL };
	hxd_contacts *o = NULL;
	mxArray *s;
	int rc;

	rc = hxd_get_contact(mjhx_need("mj_get_contact"), &o);
	mjhx_check("mj_get_contact", rc);
	s = mjhx_struct(f);
	mjhx_set(s, "ncon", mjhx_num(o->ncon));
	mjhx_set(s, "time", mjhx_num(o->time));
	mjhx_set(s, "pos", mjhx_rows(o->pos, o->ncon, 3));
	mjhx_set(s, "frame", mjhx_rows(o->frame, o->ncon, 9));
	mjhx_set(s, "dist", mjhx_col(o->dist, o->ncon));
	mjhx_set(s, "force", mjhx_rows(o->force, o->ncon, 3));
	mjhx_set(s, "geom1", mjhx_int_col(o->geom1, o->ncon));
	mjhx_set(s, "geom2", mjhx_int_col(o->geom2, o->ncon));
	free(o);
	plhs[0] = s;
}

/*============================================================ native set */

/* mj_set_state(state): nq, nv, na, when given, must fit the arrays. */
static void
cmd_set_state(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	static const char *const known[] = { "nq", "nv", "na", "time", "qpos",
		"qvel", "act", NULL };
	const char *call = "mj_set_state";
	hxd_state st;

	memset(&st, 0, sizeof(st));
	mjhx_need_struct(call, prhs[0], "state");
	mjhx_known_fields(call, prhs[0], "state", known);
	st.qpos = (double *)mjhx_field_doubles(
	    call, prhs[0], "state", "qpos", "nq", 1, &st.nq);
	st.qvel = (double *)mjhx_field_doubles(
	    call, prhs[0], "state", "qvel", "nv", 1, &st.nv);
	st.act = (double *)mjhx_field_doubles(
	    call, prhs[0], "state", "act", "na", 0, &st.na);
	mjhx_check(call, hxd_set_state(mjhx_need(call), &st));
}

/* mj_set_control(control) */
static void
cmd_set_control(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	static const char *const known[] = { "nu", "time", "ctrl", NULL };
	const char *call = "mj_set_control";
	hxd_control in;

	memset(&in, 0, sizeof(in));
	mjhx_need_struct(call, prhs[0], "control");
	mjhx_known_fields(call, prhs[0], "control", known);
	in.ctrl = (double *)mjhx_field_doubles(
	    call, prhs[0], "control", "ctrl", "nu", 1, &in.nu);
	mjhx_check(call, hxd_set_control(mjhx_need(call), &in));
}

/* mj_set_applied(applied): xfrc_applied is nbody x 6. */
static void
cmd_set_applied(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	static const char *const known[] = { "nv", "nbody", "time",
		"qfrc_applied", "xfrc_applied", NULL };
	const char *call = "mj_set_applied";
	const mxArray *x, *nb;
	hxd_applied in;
	long want = -1;

	memset(&in, 0, sizeof(in));
	mjhx_need_struct(call, prhs[0], "applied");
	mjhx_known_fields(call, prhs[0], "applied", known);
	in.qfrc_applied = (double *)mjhx_field_doubles(
	    call, prhs[0], "applied", "qfrc_applied", "nv", 1, &in.nv);
	if ((x = mjhx_field(prhs[0], "xfrc_applied")) == NULL)
		mjhx_raise(
		    call, HXD_BADVALUE, "applied has no field 'xfrc_applied'");
	if ((nb = mjhx_field(prhs[0], "nbody")) != NULL)
		want = mjhx_int(call, nb, "applied.nbody");
	in.xfrc_applied = mjhx_rows_in(
	    call, x, "applied.xfrc_applied", 6, want, &in.nbody);
	mjhx_check(call, hxd_set_applied(mjhx_need(call), &in));
}

/* Copy field name of s (n numbers) into dst and mark bit in *fields. */
static void
mjhx_onebody_field(const mxArray *s, const char *name, double *dst, int n,
    unsigned bit, unsigned *fields)
{
	char label[64];
	const double *v;
	int k;

	if (mjhx_field(s, name) == NULL)
		return;
	snprintf(label, sizeof(label), "onebody.%s", name);
	v = mjhx_doubles("mj_set_onebody", mjhx_field(s, name), label, n, &k);
	memcpy(dst, v, (size_t)n * sizeof(*v));
	*fields |= bit;
}

/*
 * mj_set_onebody(onebody): the fields it has of pos, quat, linvel,
 * angvel, force and torque (mj_get_onebody's struct has them all).
 */
static void
cmd_set_onebody(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	static const char *const known[] = { "bodyid", "isfloating", "time",
		"linacc", "angacc", "contactforce", "pos", "quat", "linvel",
		"angvel", "force", "torque", NULL };
	const char *call = "mj_set_onebody";
	const mxArray *s = prhs[0], *id;
	unsigned fields = 0;
	hxd_onebody b;

	memset(&b, 0, sizeof(b));
	mjhx_need_struct(call, s, "onebody");
	mjhx_known_fields(call, s, "onebody", known);
	if ((id = mjhx_field(s, "bodyid")) == NULL)
		mjhx_raise(call, HXD_BADVALUE, "onebody has no field 'bodyid'");
	b.body_id = mjhx_int(call, id, "onebody.bodyid");
	mjhx_onebody_field(s, "pos", b.pos, 3, HXD_ONEBODY_POS, &fields);
	mjhx_onebody_field(s, "quat", b.quat, 4, HXD_ONEBODY_QUAT, &fields);
	mjhx_onebody_field(
	    s, "linvel", b.linvel, 3, HXD_ONEBODY_LINVEL, &fields);
	mjhx_onebody_field(
	    s, "angvel", b.angvel, 3, HXD_ONEBODY_ANGVEL, &fields);
	mjhx_onebody_field(s, "force", b.force, 3, HXD_ONEBODY_FORCE, &fields);
	mjhx_onebody_field(
	    s, "torque", b.torque, 3, HXD_ONEBODY_TORQUE, &fields);
	mjhx_check(call, hxd_set_onebody(mjhx_need(call), &b, fields));
}

/* mj_set_mocap(mocap): pos is nmocap x 3, quat nmocap x 4. */
static void
cmd_set_mocap(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	static const char *const known[] = { "nmocap", "time", "pos", "quat",
		NULL };
	const char *call = "mj_set_mocap";
	const mxArray *s = prhs[0], *p, *q, *nm;
	hxd_mocap in;
	long want = -1;
	int kq;

	memset(&in, 0, sizeof(in));
	mjhx_need_struct(call, s, "mocap");
	mjhx_known_fields(call, s, "mocap", known);
	if ((p = mjhx_field(s, "pos")) == NULL ||
	    (q = mjhx_field(s, "quat")) == NULL)
		mjhx_raise(
		    call, HXD_BADVALUE, "mocap needs the fields pos and quat");
	if ((nm = mjhx_field(s, "nmocap")) != NULL)
		want = mjhx_int(call, nm, "mocap.nmocap");
	in.pos = mjhx_rows_in(call, p, "mocap.pos", 3, want, &in.nmocap);
	in.quat = mjhx_rows_in(call, q, "mocap.quat", 4, in.nmocap, &kq);
	mjhx_check(call, hxd_set_mocap(mjhx_need(call), &in));
}

/* mj_set_geomsize(geomid, size) */
static void
cmd_set_geomsize(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	const char *call = "mj_set_geomsize";
	int id = mjhx_int(call, prhs[0], "geomid"), n;
	const double *v = mjhx_doubles(call, prhs[1], "geomsize", 3, &n);

	mjhx_check(call, hxd_set_geomsize(mjhx_need(call), id, v));
}

/* The object type named by a string argument; BADTYPE if unknown. */
static int
mjhx_type(const char *call, const mxArray *a)
{
	char *s = mjhx_string(call, a, "type");
	int t = hxd_obj_parse(s);

	if (t == HXD_OBJ_UNKNOWN)
		mjhx_raisef(call, HXD_BADTYPE, "unknown object type '%s'", s);
	mxFree(s);
	return t;
}

/* rgba = mj_get_rgba(type, id) */
static void
cmd_get_rgba(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	const char *call = "mj_get_rgba";
	int t = mjhx_type(call, prhs[0]);
	int id = mjhx_int(call, prhs[1], "id");
	double rgba[4];

	mjhx_check(call, hxd_get_rgba(mjhx_need(call), t, id, rgba));
	plhs[0] = mjhx_col(rgba, 4);
}

/* mj_set_rgba(type, id, rgba) */
static void
cmd_set_rgba(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	const char *call = "mj_set_rgba";
	int t = mjhx_type(call, prhs[0]);
	int id = mjhx_int(call, prhs[1], "id"), n;
	const double *v = mjhx_doubles(call, prhs[2], "rgba", 4, &n);

	mjhx_check(call, hxd_set_rgba(mjhx_need(call), t, id, v));
}

/*========================================================== native misc */

/* mj_step: one step while paused; nothing while running. */
static void
cmd_mj_step(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	mjhx_check("mj_step", hxd_step(mjhx_need("mj_step"), 1, NULL));
}

/* taken = hxd_step(n): n steps while paused, in one request. */
static void
cmd_hxd_step(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	int n = mjhx_int("hxd_step", prhs[0], "n");
	unsigned taken = 0;

	if (n < 1)
		mjhx_raisef("hxd_step", HXD_BADVALUE, "n is %d: at least 1", n);
	mjhx_check(
	    "hxd_step", hxd_step(mjhx_need("hxd_step"), (unsigned)n, &taken));
	plhs[0] = mjhx_num(taken);
}

/* sensor = mj_update(control): control may be left out. */
static void
cmd_mj_update(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	static const char *const known[] = { "nu", "time", "ctrl", NULL };
	const char *call = "mj_update";
	hxd_sensor *o = NULL;
	hxd_control in;
	int rc;

	memset(&in, 0, sizeof(in));
	if (nrhs > 0) {
		mjhx_need_struct(call, prhs[0], "control");
		mjhx_known_fields(call, prhs[0], "control", known);
		in.ctrl = (double *)mjhx_field_doubles(
		    call, prhs[0], "control", "ctrl", "nu", 1, &in.nu);
	}
	rc = hxd_update(mjhx_need(call), nrhs > 0 ? &in : NULL, &o);
	mjhx_check(call, rc);
	plhs[0] = mjhx_sensor(o);
}

/*
 * mj_reset(keyframe): -1 or none, the reference pose; a keyframe by
 * number or by name.  Model settings clients changed stay, as HAPTIX's
 * Reset and libhaptix's mj_reset keep them.
 */
static void
cmd_mj_reset(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	const char *call = "mj_reset";
	char *name = NULL;
	int key = -1;

	if (nrhs > 0 && mxIsChar(prhs[0]))
		name = mjhx_string(call, prhs[0], "keyframe");
	else if (nrhs > 0)
		key = mjhx_int(call, prhs[0], "keyframe");
	mjhx_check(call, hxd_reset_keep(mjhx_need(call), key, name));
}

/* mj_equality(eqid, state) */
static void
cmd_mj_equality(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	const char *call = "mj_equality";
	int id = mjhx_int(call, prhs[0], "eqid");
	int state = mjhx_int(call, prhs[1], "state");

	mjhx_check(call, hxd_equality(mjhx_need(call), id, state));
}

/* mj_message(message): none clears it. */
static void
cmd_mj_message(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	const char *call = "mj_message";
	char *text = NULL;

	if (nrhs > 0 && !mxIsEmpty(prhs[0]))
		text = mjhx_string(call, prhs[0], "message");
	mjhx_check(call, hxd_message(mjhx_need(call), text));
}

/* id = mj_name2id(type, name): -1 when there is no such name. */
static void
cmd_name2id(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	const char *call = "mj_name2id";
	int t = mjhx_type(call, prhs[0]), id = -1;
	char *name = mjhx_string(call, prhs[1], "name");

	mjhx_check(call, hxd_name2id(mjhx_need(call), t, name, &id));
	plhs[0] = mjhx_num(id);
}

/* name = mj_id2name(type, id): '' for an unnamed object. */
static void
cmd_id2name(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	const char *call = "mj_id2name";
	int t = mjhx_type(call, prhs[0]);
	int id = mjhx_int(call, prhs[1], "id");
	char name[1024];

	mjhx_check(
	    call, hxd_id2name(mjhx_need(call), t, id, name, sizeof(name)));
	plhs[0] = mxCreateString(name);
}

/*=========================================================== extensions */

/* A model's sizes and timing as a struct. */
static mxArray *
mjhx_model(const hxd_model *m)
{
	static const char *const f[] = { "name", "path", "nq", "nv", "na", "nu",
		"nbody", "njnt", "ngeom", "nsite", "ntendon", "neq", "nkey",
		"nmocap", "nsensor", "nsensordata", "nmat", "timestep",
		"apirate", NULL };
	mxArray *s = mjhx_struct(f);

	mjhx_set(s, "name", mxCreateString(m->name));
	mjhx_set(s, "path", mxCreateString(m->path));
	mjhx_set(s, "nq", mjhx_num(m->nq));
	mjhx_set(s, "nv", mjhx_num(m->nv));
	mjhx_set(s, "na", mjhx_num(m->na));
	mjhx_set(s, "nu", mjhx_num(m->nu));
	mjhx_set(s, "nbody", mjhx_num(m->nbody));
	mjhx_set(s, "njnt", mjhx_num(m->njnt));
	mjhx_set(s, "ngeom", mjhx_num(m->ngeom));
	mjhx_set(s, "nsite", mjhx_num(m->nsite));
	mjhx_set(s, "ntendon", mjhx_num(m->ntendon));
	mjhx_set(s, "neq", mjhx_num(m->neq));
	mjhx_set(s, "nkey", mjhx_num(m->nkey));
	mjhx_set(s, "nmocap", mjhx_num(m->nmocap));
	mjhx_set(s, "nsensor", mjhx_num(m->nsensor));
	mjhx_set(s, "nsensordata", mjhx_num(m->nsensordata));
	mjhx_set(s, "nmat", mjhx_num(m->nmat));
	mjhx_set(s, "timestep", mjhx_num(m->timestep));
	mjhx_set(s, "apirate", mjhx_num(m->apirate));
	return s;
}

/* hxd_pause */
static void
cmd_pause(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	mjhx_check("hxd_pause", hxd_pause(mjhx_need("hxd_pause")));
}

/* hxd_run */
static void
cmd_run(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	mjhx_check("hxd_run", hxd_run(mjhx_need("hxd_run")));
}

/* hxd_set_speed(factor), hxd_set_speed('max') */
static void
cmd_set_speed(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	const char *call = "hxd_set_speed";
	double factor = 1;
	char *s;
	int max = 0;

	if (mxIsChar(prhs[0])) {
		s = mjhx_string(call, prhs[0], "factor");
		if (strcmp(s, "max") != 0)
			mjhx_raisef(call, HXD_BADVALUE,
			    "factor is '%s': a number or 'max'", s);
		max = 1;
	} else
		factor = mjhx_scalar(call, prhs[0], "factor");
	mjhx_check(call, hxd_set_speed(mjhx_need(call), factor, max));
}

/*
 * model = hxd_load_file(path), hxd_load_file(path, 'legacy'): a file of
 * the server's model directories.
 */
static void
cmd_load_file(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	const char *call = "hxd_load_file";
	char *path = mjhx_string(call, prhs[0], "path"), *how;
	int legacy = 0, rc;
	hxd_model m;
	hxd_conn *c;

	if (nrhs > 1) {
		how = mjhx_string(call, prhs[1], "the second argument");
		if (strcmp(how, "legacy") != 0)
			mjhx_raisef(call, HXD_BADVALUE,
			    "'%s': the second argument can only be 'legacy'",
			    how);
		legacy = 1;
	}
	c = mjhx_need(call);
	rc = legacy ? hxd_load_legacy(c, path, &m) : hxd_load_file(c, path, &m);
	mjhx_check(call, rc);
	plhs[0] = mjhx_model(&m);
}

/* model = hxd_reload: the current model from its file again. */
static void
cmd_reload(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	hxd_model m;

	mjhx_check("hxd_reload", hxd_reload(mjhx_need("hxd_reload"), &m));
	plhs[0] = mjhx_model(&m);
}

/* status = hxd_status_get: what HAPTIX's info box showed, and more. */
static void
cmd_status(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	static const char *const f[] = { "model", "time", "steps", "paused",
		"speed", "speed_max", "realtime_factor", "cpu_per_step", "ncon",
		"clients", "message", "instability_resets", "sim_errors",
		"overruns", NULL };
	hxd_status *st;
	mxArray *s;
	int rc;

	/* Large (trackers, perturbations): MATLAB's heap, freed anyway. */
	st = mxMalloc(sizeof(*st));
	rc = hxd_status_get(mjhx_need("hxd_status_get"), st);
	mjhx_check("hxd_status_get", rc);
	s = mjhx_struct(f);
	mjhx_set(s, "model", mjhx_model(&st->model));
	mjhx_set(s, "time", mjhx_num(st->time));
	mjhx_set(s, "steps", mjhx_num((double)st->steps));
	mjhx_set(s, "paused", mjhx_num(st->paused));
	mjhx_set(s, "speed", mjhx_num(st->speed));
	mjhx_set(s, "speed_max", mjhx_num(st->speed_max));
	mjhx_set(s, "realtime_factor", mjhx_num(st->realtime_factor));
	mjhx_set(s, "cpu_per_step", mjhx_num(st->cpu_per_step));
	mjhx_set(s, "ncon", mjhx_num(st->ncon));
	mjhx_set(s, "clients", mjhx_num(st->clients));
	mjhx_set(s, "message", mxCreateString(st->message));
	mjhx_set(
	    s, "instability_resets", mjhx_num((double)st->instability_resets));
	mjhx_set(s, "sim_errors", mjhx_num((double)st->sim_errors));
	mjhx_set(s, "overruns", mjhx_num((double)st->overruns));
	mxFree(st);
	plhs[0] = s;
}

/* values = hxd_get_array(name): a rows x cols matrix, as MuJoCo sizes it. */
static void
cmd_get_array(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	const char *call = "hxd_get_array";
	char *name = mjhx_string(call, prhs[0], "name");
	hxd_array *a = NULL;
	int rc;

	rc = hxd_get_array(mjhx_need(call), name, &a);
	mjhx_check(call, rc);
	plhs[0] = mjhx_rows(a->values, a->rows, a->cols);
	free(a);
}

/*
 * hxd_set_array(name, values, offset): numel(values) values from element
 * offset (0-based, row-major as MuJoCo keeps it); a matrix is taken row
 * by row, so hxd_get_array's matrix goes back as it came.
 */
static void
cmd_set_array(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	const char *call = "hxd_set_array";
	char *name = mjhx_string(call, prhs[0], "name");
	const double *v;
	double *rows;
	int n, k, offset = 0;

	v = mjhx_doubles(call, prhs[1], "values", -1, &n);
	if (n == 0)
		mjhx_raise(call, HXD_BADSIZE, "values is empty");
	if (mxGetM(prhs[1]) > 1 && mxGetN(prhs[1]) > 1) {
		rows = mjhx_rows_in(
		    call, prhs[1], "values", (int)mxGetN(prhs[1]), -1, &k);
		v = rows;
	}
	if (nrhs > 2)
		offset = mjhx_int(call, prhs[2], "offset");
	if (offset < 0)
		mjhx_raisef(call, HXD_BADINDEX, "offset is %d", offset);
	mjhx_check(call, hxd_set_array(mjhx_need(call), name, offset, n, v));
}

/* list = hxd_list_arrays: a struct array, one element per array. */
static void
cmd_list_arrays(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	static const char *const f[] = { "name", "owner", "type", "rows",
		"cols", "writable", "refusal", NULL };
	static const char *const types[] = { "double", "float", "int", "byte" };
	hxd_array *a = NULL;
	mxArray *s;
	int i, n = 0, rc;

	rc = hxd_list_arrays(mjhx_need("hxd_list_arrays"), &a, &n);
	mjhx_check("hxd_list_arrays", rc);
	s = mxCreateStructMatrix(1, (size_t)n, 7, (const char **)f);
	for (i = 0; i < n; i++) {
		mxSetField(s, i, "name", mxCreateString(a[i].name));
		mxSetField(s, i, "owner", mxCreateString(a[i].owner));
		mxSetField(s, i, "type",
		    mxCreateString(a[i].type >= 0 && a[i].type < 4 ?
			    types[a[i].type] :
			    "unknown"));
		mxSetField(s, i, "rows", mjhx_num(a[i].rows));
		mxSetField(s, i, "cols", mjhx_num(a[i].cols));
		mxSetField(s, i, "writable", mjhx_num(a[i].writable));
		mxSetField(s, i, "refusal", mxCreateString(a[i].refusal));
	}
	free(a);
	plhs[0] = s;
}

/*------------------------------------------------------------ batch runs */

/* A field's values in one trajectory frame, and how many (0: absent). */
static const double *
mjhx_frame_field(const hxd_frame *fr, const char *name, int *n)
{
	struct {
		const char *name;
		const double *v;
		int n;
	} t[] = {
		{ "qpos", fr->qpos, fr->nq },
		{ "qvel", fr->qvel, fr->nv },
		{ "act", fr->act, fr->na },
		{ "ctrl", fr->ctrl, fr->nu },
		{ "mocap_pos", fr->mocap_pos, 3 * fr->nmocap },
		{ "mocap_quat", fr->mocap_quat, 4 * fr->nmocap },
		{ "sensordata", fr->sensordata, fr->nsensordata },
		{ "qfrc_applied", fr->qfrc_applied, fr->nv },
		{ "xfrc_applied", fr->xfrc_applied, 6 * fr->nbody },
		{ "body_pos", fr->body ? fr->body->pos : NULL,
		    fr->body ? 3 * fr->body->count : 0 },
		{ "body_mat", fr->body ? fr->body->mat : NULL,
		    fr->body ? 9 * fr->body->count : 0 },
		{ "geom_pos", fr->geom ? fr->geom->pos : NULL,
		    fr->geom ? 3 * fr->geom->count : 0 },
		{ "geom_mat", fr->geom ? fr->geom->mat : NULL,
		    fr->geom ? 9 * fr->geom->count : 0 },
		{ "site_pos", fr->site ? fr->site->pos : NULL,
		    fr->site ? 3 * fr->site->count : 0 },
		{ "site_mat", fr->site ? fr->site->mat : NULL,
		    fr->site ? 9 * fr->site->count : 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (strcmp(t[i].name, name) == 0) {
			*n = t[i].v != NULL ? t[i].n : 0;
			return t[i].v;
		}
	*n = 0;
	return NULL;
}

/*
 * The trajectory of a batch as a struct of matrices, one row per
 * recorded step: time, step and each recorded field (mocap, body, geom
 * and site as NAME_pos and NAME_quat or NAME_mat, k x 3n, 4n or 9n).
 */
static mxArray *
mjhx_trajectory(const hxd_batch_result *r, unsigned fields)
{
	static const char *const all[] = { "time", "step", "qpos", "qvel",
		"act", "ctrl", "mocap_pos", "mocap_quat", "sensordata",
		"qfrc_applied", "xfrc_applied", "body_pos", "body_mat",
		"geom_pos", "geom_mat", "site_pos", "site_mat", NULL };
	static const unsigned bit[] = { 0, 0, HXD_FIELDS(HXD_FIELD_QPOS),
		HXD_FIELDS(HXD_FIELD_QVEL), HXD_FIELDS(HXD_FIELD_ACT),
		HXD_FIELDS(HXD_FIELD_CTRL), HXD_FIELDS(HXD_FIELD_MOCAP),
		HXD_FIELDS(HXD_FIELD_MOCAP), HXD_FIELDS(HXD_FIELD_SENSORDATA),
		HXD_FIELDS(HXD_FIELD_QFRC_APPLIED),
		HXD_FIELDS(HXD_FIELD_XFRC_APPLIED), HXD_FIELDS(HXD_FIELD_BODY),
		HXD_FIELDS(HXD_FIELD_BODY), HXD_FIELDS(HXD_FIELD_GEOM),
		HXD_FIELDS(HXD_FIELD_GEOM), HXD_FIELDS(HXD_FIELD_SITE),
		HXD_FIELDS(HXD_FIELD_SITE) };
	const char *names[sizeof(all) / sizeof(all[0])];
	int i, j, c, nf = 0, k = r->ntrajectory, w, wj;
	const double *v;
	mxArray *s, *m;
	double *p;

	for (i = 0; all[i] != NULL; i++)
		if (i < 2 || (fields & bit[i]) != 0)
			names[nf++] = all[i];
	names[nf] = NULL;
	s = mjhx_struct(names);
	m = mxCreateDoubleMatrix((size_t)k, 1, mxREAL);
	for (j = 0; j < k; j++)
		mxGetPr(m)[j] = r->trajectory[j]->time;
	mjhx_set(s, "time", m);
	m = mxCreateDoubleMatrix((size_t)k, 1, mxREAL);
	for (j = 0; j < k; j++)
		mxGetPr(m)[j] = (double)r->trajectory[j]->step;
	mjhx_set(s, "step", m);
	for (i = 2; i < nf; i++) {
		w = 0;
		if (k > 0)
			mjhx_frame_field(r->trajectory[0], names[i], &w);
		m = mxCreateDoubleMatrix((size_t)k, (size_t)w, mxREAL);
		p = mxGetPr(m);
		for (j = 0; j < k; j++) {
			v = mjhx_frame_field(r->trajectory[j], names[i], &wj);
			if (wj != w) {
				/* One model, one width: never, but not
				 * written past. */
				mxDestroyArray(m);
				mxDestroyArray(s);
				return NULL;
			}
			for (c = 0; c < w; c++)
				p[(size_t)c * (size_t)k + (size_t)j] = v[c];
		}
		mjhx_set(s, names[i], m);
	}
	return s;
}

/* The fields to record, "qpos,sensordata", as an HXD_FIELDS() set. */
static unsigned
mjhx_record_fields(const char *call, const mxArray *a)
{
	char *list = mjhx_string(call, a, "opts.record"), *tok, *save = NULL;
	unsigned fields = 0;
	int f;

	for (tok = strtok_r(list, ", ", &save); tok != NULL;
	     tok = strtok_r(NULL, ", ", &save)) {
		f = hxd_field_parse(tok);
		if (f == 0 || f == HXD_FIELD_CONTACTS || f == HXD_FIELD_STATUS)
			mjhx_raisef(call, HXD_BADVALUE,
			    "opts.record: '%s' is not a field of a "
			    "trajectory: qpos, qvel, act, ctrl, mocap, "
			    "sensordata, qfrc_applied, xfrc_applied, body, "
			    "geom, site",
			    tok);
		fields |= HXD_FIELDS(f);
	}
	mxFree(list);
	return fields;
}

/*
 * result = hxd_batch_run(opts): with the simulation paused, set
 * opts.ctrl (if given), then take opts.steps steps or step to time
 * opts.until, recording opts.record every opts.every steps.
 */
static void
cmd_batch_run(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	static const char *const known[] = { "ctrl", "steps", "until", "record",
		"every", NULL };
	static const char *const f[] = { "steps", "resets", "time",
		"sensordata", "trajectory", NULL };
	const char *call = "hxd_batch_run";
	const mxArray *o = prhs[0], *a;
	hxd_batch_result *r = NULL;
	hxd_control ctrl;
	hxd_batch b;
	mxArray *s, *t;
	double v;
	int rc;

	memset(&b, 0, sizeof(b));
	memset(&ctrl, 0, sizeof(ctrl));
	mjhx_need_struct(call, o, "opts");
	mjhx_known_fields(call, o, "opts", known);
	if (mjhx_field(o, "ctrl") != NULL) {
		ctrl.ctrl = (double *)mjhx_field_doubles(
		    call, o, "opts", "ctrl", NULL, 1, &ctrl.nu);
		b.control = &ctrl;
	}
	if ((a = mjhx_field(o, "steps")) != NULL) {
		v = mjhx_int(call, a, "opts.steps");
		if (v < 1)
			mjhx_raisef(call, HXD_BADVALUE,
			    "opts.steps is %g: at least 1", v);
		b.steps = (unsigned)v;
	}
	if ((a = mjhx_field(o, "until")) != NULL)
		b.until_time = mjhx_scalar(call, a, "opts.until");
	if ((b.steps == 0) == (mjhx_field(o, "until") == NULL))
		mjhx_raise(
		    call, HXD_BADVALUE, "opts needs one of steps and until");
	if ((a = mjhx_field(o, "record")) != NULL)
		b.record = mjhx_record_fields(call, a);
	if ((a = mjhx_field(o, "every")) != NULL) {
		v = mjhx_int(call, a, "opts.every");
		if (v < 0)
			mjhx_raisef(call, HXD_BADVALUE, "opts.every is %g", v);
		b.record_every = (unsigned)v;
	}
	rc = hxd_batch_run(mjhx_need(call), &b, &r);
	mjhx_check(call, rc);
	if ((t = mjhx_trajectory(r, b.record)) == NULL) {
		hxd_batch_result_free(r);
		mjhx_raise(call, HXD_BADSIZE,
		    "the trajectory's frames differ in size");
	}
	s = mjhx_struct(f);
	mjhx_set(s, "steps", mjhx_num((double)r->steps));
	mjhx_set(s, "resets", mjhx_num((double)r->resets));
	mjhx_set(s, "time", mjhx_num(r->time));
	mjhx_set(s, "sensordata",
	    r->sensor != NULL ?
		mjhx_col(r->sensor->sensordata, r->sensor->nsensordata) :
		mxCreateDoubleMatrix(0, 1, mxREAL));
	mjhx_set(s, "trajectory", t);
	hxd_batch_result_free(r);
	plhs[0] = s;
}

/*------------------------------------------------------------ recordings */

/*
 * The most values hxd_read_log holds (2 GiB of doubles): readlog returns
 * a recording whole, and a crafted file of small compressed frames could
 * ask for any amount.  Past it, hxplay export writes the file out.
 */
#define MJHX_LOG_MAX ((size_t)1 << 28)

/* One field of a recording, gathered a column (a record) at a time. */
struct mjhx_column {
	const char *name;
	int rows;  /* values per record; -1 while not recorded */
	double *v; /* rows x count, column-major: record after record */
	size_t cap;
};

/*
 * Add record k's n values of a field (v NULL: not recorded): 0, -1 if
 * its size differs from the records' before, -2 out of memory.
 */
static int
mjhx_column_add(struct mjhx_column *c, size_t k, const double *v, int n)
{
	size_t need = (k + 1) * (size_t)n, cap;
	double *p;

	if (v == NULL)
		return c->rows == -1 ? 0 : -1;
	if (c->rows == -1 && k == 0)
		c->rows = n;
	if (c->rows != n)
		return -1;
	if (n == 0)
		return 0;
	if (need > c->cap) {
		cap = c->cap != 0 ? 2 * c->cap : 1024;
		while (cap < need)
			cap *= 2;
		if ((p = realloc(c->v, cap * sizeof(*p))) == NULL)
			return -2;
		c->v = p;
		c->cap = cap;
	}
	memcpy(c->v + k * (size_t)n, v, (size_t)n * sizeof(*v));
	return 0;
}

/* The field as a rows x count matrix (0 x count if not recorded). */
static mxArray *
mjhx_column_matrix(const struct mjhx_column *c, size_t count)
{
	size_t rows = c->rows > 0 ? (size_t)c->rows : 0;
	mxArray *m = mxCreateDoubleMatrix(rows, count, mxREAL);

	if (rows * count != 0)
		memcpy(mxGetPr(m), c->v, rows * count * sizeof(double));
	return m;
}

/*
 * data = hxd_read_log(file): a recording, haptixd's .hxr or HAPTIX's
 * .mjl, in the struct HAPTIX's readlog.m gives: the sizes and the
 * model's name, then a matrix per field with a column per record (time
 * is 1 x N); then what HAPTIX's had not: act, qfrc_applied and
 * xfrc_applied (0 x N when not recorded, as is any field), step and
 * segment (1 x N: a reset, the time going back, begins a segment, from
 * 1), the format ('hxr' or 'mjl'), timestep, every, and whether the file
 * was cut short.  Records of one model's sizes only: an edit that
 * changes them is refused, naming its step.
 */
static void
cmd_read_log(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	enum {
		TIME,
		STEP,
		SEGMENT,
		QPOS,
		QVEL,
		ACT,
		CTRL,
		MOCAP_POS,
		MOCAP_QUAT,
		SENSORDATA,
		QFRC_APPLIED,
		XFRC_APPLIED,
		NCOL
	};
	static const char *const f[] = { "nq", "nv", "nu", "nmocap",
		"nsensordata", "name", "time", "qpos", "qvel", "ctrl",
		"mocap_pos", "mocap_quat", "sensordata", "na", "nbody", "act",
		"qfrc_applied", "xfrc_applied", "step", "segment", "format",
		"timestep", "every", "truncated", NULL };
	struct mjhx_column col[NCOL] = { { "time", -1, NULL, 0 },
		{ "step", -1, NULL, 0 }, { "segment", -1, NULL, 0 },
		{ "qpos", -1, NULL, 0 }, { "qvel", -1, NULL, 0 },
		{ "act", -1, NULL, 0 }, { "ctrl", -1, NULL, 0 },
		{ "mocap_pos", -1, NULL, 0 }, { "mocap_quat", -1, NULL, 0 },
		{ "sensordata", -1, NULL, 0 }, { "qfrc_applied", -1, NULL, 0 },
		{ "xfrc_applied", -1, NULL, 0 } };
	const char *call = "hxd_read_log";
	char *path = mjhx_string(call, prhs[0], "file");
	char err[1024] = "";
	const hxd_log_header *h;
	unsigned long long seg;
	double one[2];
	hxd_frame fr;
	hxd_log *l;
	size_t k = 0, i, total = 0;
	mxArray *s;
	int rc, added, bad = 0;

	if ((l = hxd_log_open(path, err, sizeof(err))) == NULL) {
		mxFree(path);
		mjhx_raise(call, HXD_BADVALUE, err);
	}
	mxFree(path);
	while ((rc = hxd_log_next(l, &fr, &seg)) == 1) {
		const double *v[NCOL] = { &fr.time, one, one + 1, fr.qpos,
			fr.qvel, fr.act, fr.ctrl, fr.mocap_pos, fr.mocap_quat,
			fr.sensordata, fr.qfrc_applied, fr.xfrc_applied };
		const int n[NCOL] = { 1, 1, 1, fr.nq, fr.nv, fr.na, fr.nu,
			3 * fr.nmocap, 4 * fr.nmocap, fr.nsensordata, fr.nv,
			6 * fr.nbody };

		one[0] = (double)fr.step;
		one[1] = (double)seg;
		for (i = 0; i < NCOL; i++)
			total += v[i] != NULL ? (size_t)n[i] : 0;
		if (total > MJHX_LOG_MAX) {
			snprintf(err, sizeof(err),
			    "over %zu values by record %zu: readlog holds a "
			    "recording whole, up to 2 GiB; hxplay export "
			    "writes a bigger one out",
			    MJHX_LOG_MAX, k + 1);
			bad = 1;
			break;
		}
		for (i = 0; i < NCOL && !bad; i++) {
			added = mjhx_column_add(&col[i], k, v[i], n[i]);
			if (added == -2)
				snprintf(err, sizeof(err),
				    "out of memory at record %zu", k + 1);
			else if (added != 0)
				snprintf(err, sizeof(err),
				    "at step %llu %s has %d values where the "
				    "records before had %d: an edit changed "
				    "the model's sizes, and readlog reads one "
				    "model's records (hxplay export reads them "
				    "all)",
				    fr.step, col[i].name,
				    v[i] != NULL ? n[i] : 0, col[i].rows);
			bad = added != 0;
		}
		if (bad)
			break;
		k++;
	}
	if (rc < 0)
		snprintf(err, sizeof(err), "%s", hxd_log_error(l));
	h = hxd_log_get_header(l);
	s = bad || rc < 0 ? NULL : mjhx_struct(f);
	if (s != NULL) {
		mjhx_set(s, "nq", mjhx_num(h->nq));
		mjhx_set(s, "nv", mjhx_num(h->nv));
		mjhx_set(s, "nu", mjhx_num(h->nu));
		mjhx_set(s, "nmocap", mjhx_num(h->nmocap));
		mjhx_set(s, "nsensordata", mjhx_num(h->nsensordata));
		mjhx_set(s, "name", mxCreateString(h->name));
		mjhx_set(s, "na", mjhx_num(h->na));
		mjhx_set(s, "nbody", mjhx_num(h->nbody));
		for (i = 0; i < NCOL; i++)
			mjhx_set(
			    s, col[i].name, mjhx_column_matrix(&col[i], k));
		mjhx_set(s, "format",
		    mxCreateString(h->format == HXD_LOG_MJL ? "mjl" : "hxr"));
		mjhx_set(s, "timestep", mjhx_num(h->timestep));
		mjhx_set(s, "every", mjhx_num(h->every));
		mjhx_set(s, "truncated", mjhx_num(hxd_log_truncated(l)));
	}
	hxd_log_close(l);
	for (i = 0; i < NCOL; i++)
		free(col[i].v);
	if (s == NULL)
		mjhx_raise(call, HXD_BADVALUE, err);
	plhs[0] = s;
}

/*========================================================= computations */

/*
 * MuJoCo's computations (hxd_forward_array ... hxd_integrate_pos): each
 * runs on the live state or, given a state struct as its last argument,
 * on that one, the arrays it leaves out the live state's; the simulation
 * is not touched.  Objects go by name or 0-based id.  Results are in
 * MuJoCo's shapes: vectors columns, a Jacobian 3 x nv, the mass matrix
 * nv x nv.
 */

/*
 * A state array of k items of w numbers (mocap_pos: nmocap x 3) from
 * field name of s, item after item (mxMalloc'd), or NULL when absent or
 * empty; *k gets the items.  A count field of s (nmocap) must agree.
 */
static const double *
mjhx_state_rows(const char *call, const mxArray *s, const char *name, int w,
    const char *count, long want, int *k)
{
	const mxArray *f = mjhx_field(s, name), *cf;
	char label[64];

	*k = 0;
	if (f == NULL || mxIsEmpty(f))
		return NULL;
	if (want < 0 && (cf = mjhx_field(s, count)) != NULL) {
		snprintf(label, sizeof(label), "state.%s", count);
		want = mjhx_int(call, cf, label);
	}
	snprintf(label, sizeof(label), "state.%s", name);
	return mjhx_rows_in(call, f, label, w, want, k);
}

/*
 * The state struct a into st: hxd_cstate's arrays by name (qpos, qvel,
 * act, ctrl, mocap_pos nmocap x 3, mocap_quat nmocap x 4, qfrc_applied,
 * xfrc_applied nbody x 6, qacc_warmstart, qacc), each left out or empty
 * the live state's; the sizes of mj_get_state's and the other getters'
 * structs (nq, nv, ..., time) may be there, and must agree.  The counts
 * are the arrays' own: the server checks them against the model.
 */
static const hxd_cstate *
mjhx_cstate(const char *call, const mxArray *a, hxd_cstate *st)
{
	static const char *const known[] = { "nq", "nv", "na", "nu", "nmocap",
		"nbody", "time", "qpos", "qvel", "act", "ctrl", "mocap_pos",
		"mocap_quat", "qfrc_applied", "xfrc_applied", "qacc_warmstart",
		"qacc", NULL };
	static const char *const per_dof[] = { "qvel", "qfrc_applied",
		"qacc_warmstart", "qacc" };
	const double **dof[4];
	const char *first = NULL;
	int i, n, kq;

	memset(st, 0, sizeof(*st));
	dof[0] = &st->qvel;
	dof[1] = &st->qfrc_applied;
	dof[2] = &st->qacc_warmstart;
	dof[3] = &st->qacc;
	mjhx_need_struct(call, a, "state");
	mjhx_known_fields(call, a, "state", known);
	st->qpos = mjhx_field_doubles(
	    call, a, "state", "qpos", "nq", 0, &st->nq);
	for (i = 0; i < 4; i++) {
		*dof[i] = mjhx_field_doubles(
		    call, a, "state", per_dof[i], "nv", 0, &n);
		if (*dof[i] == NULL)
			continue;
		if (first != NULL && n != st->nv)
			mjhx_raisef(call, HXD_BADSIZE,
			    "state.%s has %d numbers but state.%s has %d",
			    per_dof[i], n, first, st->nv);
		first = per_dof[i];
		st->nv = n;
	}
	st->act = mjhx_field_doubles(call, a, "state", "act", "na", 0, &st->na);
	st->ctrl = mjhx_field_doubles(
	    call, a, "state", "ctrl", "nu", 0, &st->nu);
	st->mocap_pos = mjhx_state_rows(
	    call, a, "mocap_pos", 3, "nmocap", -1, &st->nmocap);
	st->mocap_quat = mjhx_state_rows(call, a, "mocap_quat", 4, "nmocap",
	    st->mocap_pos != NULL ? st->nmocap : -1, &kq);
	if (st->mocap_pos == NULL)
		st->nmocap = kq;
	st->xfrc_applied = mjhx_state_rows(
	    call, a, "xfrc_applied", 6, "nbody", -1, &st->nbody);
	return st;
}

/* The state argument prhs[i] if given and not [] (else the live one). */
static const hxd_cstate *
mjhx_state_arg(
    const char *call, int nrhs, const mxArray *prhs[], int i, hxd_cstate *st)
{
	if (nrhs <= i || mxIsEmpty(prhs[i]))
		return NULL;
	return mjhx_cstate(call, prhs[i], st);
}

/*
 * An object argument of a query: a name, or a 0-based id (names and ids
 * must outlive the query).
 */
static void
mjhx_query_object(const char *call, const mxArray *a, const char *what,
    hxd_query *q, const char **name, int *id)
{
	if (mxIsChar(a)) {
		*name = mjhx_string(call, a, what);
		q->names = name;
		q->nnames = 1;
	} else {
		*id = mjhx_int(call, a, what);
		q->ids = id;
		q->nids = 1;
	}
}

/*
 * Run query q on st (NULL: the live state) and check that its result has
 * ndim dimensions, and the leading sizes lead (-1: any); the result is
 * the caller's to free with hxd_qresults_free() before anything raises.
 */
static hxd_qresult *
mjhx_query(const char *call, const hxd_query *q, const hxd_cstate *st, int ndim,
    const int *lead, int nlead)
{
	hxd_conn *c = mjhx_need(call);
	hxd_qresult *r = NULL;
	int i, bad;

	mjhx_check(call, hxd_compute(c, q, 1, st, st != NULL, 0, &r));
	bad = r->ndim != ndim;
	for (i = 0; !bad && i < nlead; i++)
		bad = lead[i] >= 0 && r->shape[i] != lead[i];
	if (bad) {
		hxd_qresults_free(r, 1);
		mjhx_raise(call, HXD_BADPROTOCOL,
		    "the server answered a result of another shape");
	}
	return r;
}

/* values = hxd_forward_array(name, state): rows x cols, as MuJoCo's. */
static void
cmd_forward_array(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	const char *call = "hxd_forward_array", *name;
	hxd_query q = { .kind = HXD_COMPUTE_ARRAY };
	hxd_cstate cs;
	const hxd_cstate *st;
	hxd_qresult *r;

	name = mjhx_string(call, prhs[0], "name");
	q.names = &name;
	q.nnames = 1;
	st = mjhx_state_arg(call, nrhs, prhs, 1, &cs);
	r = mjhx_query(call, &q, st, 2, NULL, 0);
	plhs[0] = mjhx_rows(r->values, r->shape[0], r->shape[1]);
	hxd_qresults_free(r, 1);
}

/* One vector of nv: mj_inverse's qfrc_inverse or mj_rne's result. */
static void
mjhx_dof_vector(
    mxArray *plhs[], const char *call, hxd_query *q, const hxd_cstate *st)
{
	hxd_qresult *r = mjhx_query(call, q, st, 1, NULL, 0);

	plhs[0] = mjhx_col(r->values, r->shape[0]);
	hxd_qresults_free(r, 1);
}

/* qfrc_inverse = hxd_inverse(state): state.qacc is its input if given. */
static void
cmd_inverse(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	hxd_query q = { .kind = HXD_COMPUTE_INVERSE };
	hxd_cstate cs;

	mjhx_dof_vector(plhs, "hxd_inverse", &q,
	    mjhx_state_arg("hxd_inverse", nrhs, prhs, 0, &cs));
}

/* result = hxd_rne(flg_acc, state) */
static void
cmd_rne(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	hxd_query q = { .kind = HXD_COMPUTE_RNE };
	hxd_cstate cs;

	q.flag = mjhx_scalar("hxd_rne", prhs[0], "flg_acc") != 0;
	mjhx_dof_vector(
	    plhs, "hxd_rne", &q, mjhx_state_arg("hxd_rne", nrhs, prhs, 1, &cs));
}

/* M = hxd_full_m(state): nv x nv. */
static void
cmd_full_m(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	const char *call = "hxd_full_m";
	hxd_query q = { .kind = HXD_COMPUTE_FULL_M };
	hxd_cstate cs;
	hxd_qresult *r;

	r = mjhx_query(
	    call, &q, mjhx_state_arg(call, nrhs, prhs, 0, &cs), 2, NULL, 0);
	plhs[0] = mjhx_rows(r->values, r->shape[0], r->shape[1]);
	hxd_qresults_free(r, 1);
}

/*
 * x = hxd_solve_m(y, state): M x = y for y nv x k (each column a
 * vector, or one row of nv); x has y's shape.  Column-major nv x k is
 * C's row-major k x nv, so y and x go as they are.
 */
static void
cmd_solve_m(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	const char *call = "hxd_solve_m";
	const double *y;
	hxd_cstate cs;
	const hxd_cstate *st;
	mxArray *x;
	int n, nv, k;

	y = mjhx_doubles(call, prhs[0], "y", -1, &n);
	if (n == 0 || mxGetNumberOfDimensions(prhs[0]) > 2)
		mjhx_raise(call, HXD_BADSIZE,
		    "y must be nv x k (a column per vector) or 1 x nv");
	nv = mxGetM(prhs[0]) == 1 ? n : (int)mxGetM(prhs[0]);
	k = n / nv;
	st = mjhx_state_arg(call, nrhs, prhs, 1, &cs);
	x = mxCreateDoubleMatrix(mxGetM(prhs[0]), mxGetN(prhs[0]), mxREAL);
	mjhx_check(
	    call, hxd_solve_m(mjhx_need(call), st, mxGetPr(x), y, k, nv));
	plhs[0] = x;
}

/* [jacp, jacr] = a Jacobian of kind, of the object prhs[0]. */
static void
mjhx_jacobian(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[],
    const char *call, int kind, const char *what)
{
	static const int lead[3] = { 1, 2, 3 };
	hxd_query q = { .kind = kind };
	const char *name = NULL;
	int id = 0, n, s = 1;
	hxd_cstate cs;
	const hxd_cstate *st;
	hxd_qresult *r;
	size_t nv;

	mjhx_query_object(call, prhs[0], what, &q, &name, &id);
	if (kind == HXD_COMPUTE_JAC) {
		q.args = mjhx_doubles(call, prhs[1], "point", 3, &n);
		q.nargs = 3;
		s = 2;
	}
	st = mjhx_state_arg(call, nrhs, prhs, s, &cs);
	r = mjhx_query(call, &q, st, 4, lead, 3);
	nv = (size_t)r->shape[3];
	plhs[0] = mjhx_rows(r->values, 3, (int)nv);
	if (nlhs > 1)
		plhs[1] = mjhx_rows(r->values + 3 * nv, 3, (int)nv);
	hxd_qresults_free(r, 1);
}

/* [jacp, jacr] = hxd_jac(body, point, state) */
static void
cmd_jac(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	mjhx_jacobian(
	    nlhs, plhs, nrhs, prhs, "hxd_jac", HXD_COMPUTE_JAC, "body");
}

/* [jacp, jacr] = hxd_jac_body(body, state) */
static void
cmd_jac_body(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	mjhx_jacobian(nlhs, plhs, nrhs, prhs, "hxd_jac_body",
	    HXD_COMPUTE_JAC_BODY, "body");
}

/* [jacp, jacr] = hxd_jac_body_com(body, state) */
static void
cmd_jac_body_com(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	mjhx_jacobian(nlhs, plhs, nrhs, prhs, "hxd_jac_body_com",
	    HXD_COMPUTE_JAC_BODY_COM, "body");
}

/* [jacp, jacr] = hxd_jac_geom(geom, state) */
static void
cmd_jac_geom(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	mjhx_jacobian(nlhs, plhs, nrhs, prhs, "hxd_jac_geom",
	    HXD_COMPUTE_JAC_GEOM, "geom");
}

/* [jacp, jacr] = hxd_jac_site(site, state) */
static void
cmd_jac_site(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	mjhx_jacobian(nlhs, plhs, nrhs, prhs, "hxd_jac_site",
	    HXD_COMPUTE_JAC_SITE, "site");
}

/*
 * res = an object's velocity or acceleration (type, name, local, state):
 * 6 x 1, angular first; local and state may be left out, state given
 * in local's place.
 */
static void
mjhx_motion(mxArray *plhs[], int nrhs, const mxArray *prhs[], const char *call,
    int kind)
{
	static const int lead[2] = { 1, 6 };
	hxd_query q = { .kind = kind };
	const char *name = NULL;
	int id = 0, s = 2;
	hxd_cstate cs;
	const hxd_cstate *st;
	hxd_qresult *r;

	q.objtype = mjhx_type(call, prhs[0]);
	if (q.objtype != HXD_OBJ_BODY && q.objtype != HXD_OBJ_XBODY &&
	    q.objtype != HXD_OBJ_GEOM && q.objtype != HXD_OBJ_SITE)
		mjhx_raisef(call, HXD_BADTYPE,
		    "type is '%s': body, xbody, geom or site",
		    hxd_obj_name(q.objtype));
	mjhx_query_object(call, prhs[1], "name", &q, &name, &id);
	if (nrhs > 2 && !mxIsStruct(prhs[2])) {
		q.flag = mjhx_scalar(call, prhs[2], "local") != 0;
		s = 3;
	}
	if (nrhs > s + 1)
		mjhx_raisef(call, HXD_BADVALUE,
		    "%d arguments: (type, name, local, state)", nrhs);
	st = mjhx_state_arg(call, nrhs, prhs, s, &cs);
	r = mjhx_query(call, &q, st, 2, lead, 2);
	plhs[0] = mjhx_col(r->values, 6);
	hxd_qresults_free(r, 1);
}

/* res = hxd_object_velocity(type, name, local, state) */
static void
cmd_object_velocity(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	mjhx_motion(plhs, nrhs, prhs, "hxd_object_velocity",
	    HXD_COMPUTE_OBJECT_VELOCITY);
}

/* res = hxd_object_acceleration(type, name, local, state) */
static void
cmd_object_acceleration(
    int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	mjhx_motion(plhs, nrhs, prhs, "hxd_object_acceleration",
	    HXD_COMPUTE_OBJECT_ACCELERATION);
}

/*
 * contacts = hxd_contact_forces(state), hxd_contact_forces('last_step'):
 * an ncon x 1 struct array: the geoms' and bodies' names and ids, force
 * (6 x 1 in the contact's frame: normal, two tangents, torsion, two
 * rolls), dist, pos (3 x 1) and frame (3 x 3, a row per axis, the
 * normal first).
 */
static void
cmd_contact_forces(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	static const char *const fields[] = { "geom1", "geom2", "body1",
		"body2", "geom1_id", "geom2_id", "body1_id", "body2_id",
		"force", "dist", "pos", "frame" };
	const char *call = "hxd_contact_forces";
	const hxd_cstate *st = NULL;
	hxd_contact_force *f = NULL;
	int n = 0, i, last = 0, rc;
	hxd_cstate cs;
	char *s;
	mxArray *out;

	if (nrhs > 0 && mxIsChar(prhs[0])) {
		s = mjhx_string(call, prhs[0], "the argument");
		if (strcmp(s, "last_step") != 0)
			mjhx_raisef(call, HXD_BADVALUE,
			    "'%s': a state struct, or 'last_step'", s);
		last = 1;
	} else
		st = mjhx_state_arg(call, nrhs, prhs, 0, &cs);
	rc = hxd_contact_forces(mjhx_need(call), st, last, &f, &n);
	mjhx_check(call, rc);
	out = mxCreateStructMatrix((size_t)n, 1, 12, (const char **)fields);
	for (i = 0; i < n; i++) {
		mxSetField(out, i, "geom1", mxCreateString(f[i].geom1_name));
		mxSetField(out, i, "geom2", mxCreateString(f[i].geom2_name));
		mxSetField(out, i, "body1", mxCreateString(f[i].body1_name));
		mxSetField(out, i, "body2", mxCreateString(f[i].body2_name));
		mxSetField(out, i, "geom1_id", mjhx_num(f[i].geom1));
		mxSetField(out, i, "geom2_id", mjhx_num(f[i].geom2));
		mxSetField(out, i, "body1_id", mjhx_num(f[i].body1));
		mxSetField(out, i, "body2_id", mjhx_num(f[i].body2));
		mxSetField(out, i, "force", mjhx_col(f[i].force, 6));
		mxSetField(out, i, "dist", mjhx_num(f[i].dist));
		mxSetField(out, i, "pos", mjhx_col(f[i].pos, 3));
		mxSetField(out, i, "frame", mjhx_rows(f[i].frame, 3, 3));
	}
	free(f);
	plhs[0] = out;
}

/* energy = hxd_energy(state): [potential; kinetic]. */
static void
cmd_energy(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	const char *call = "hxd_energy";
	const hxd_cstate *st;
	hxd_cstate cs;
	double e[2];

	st = mjhx_state_arg(call, nrhs, prhs, 0, &cs);
	mjhx_check(call, hxd_energy(mjhx_need(call), st, e));
	plhs[0] = mjhx_col(e, 2);
}

/*
 * [dist, geomid] = hxd_ray(pnt, vec, opts, state): k rays, pnt and vec
 * k x 3 (one row of either serving every ray), dist and geomid k x 1
 * (-1 where nothing is hit); opts (a struct, or [] for none) has
 * geomgroup (6 flags), exclude_static, exclude_body (a name).
 */
static void
cmd_ray(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	static const char *const known[] = { "geomgroup", "exclude_static",
		"exclude_body", NULL };
	const char *call = "hxd_ray";
	hxd_ray_options opt = { NULL, 0, NULL };
	unsigned char groups[6];
	double *pnt, *vec, *p, *v;
	const double *g;
	const mxArray *f;
	const hxd_cstate *st;
	hxd_cstate cs;
	mxArray *dist;
	int kp, kv, k, i, n, *geom;

	pnt = mjhx_rows_in(call, prhs[0], "pnt", 3, -1, &kp);
	vec = mjhx_rows_in(call, prhs[1], "vec", 3, -1, &kv);
	if (kp != kv && kp != 1 && kv != 1)
		mjhx_raisef(call, HXD_BADSIZE,
		    "pnt has %d rows and vec %d: as many, or one of them", kp,
		    kv);
	k = kp > kv ? kp : kv;
	if (k == 0)
		mjhx_raise(call, HXD_BADSIZE, "no rays: pnt and vec are empty");
	if (nrhs > 2 && !mxIsEmpty(prhs[2])) {
		mjhx_need_struct(call, prhs[2], "opts");
		mjhx_known_fields(call, prhs[2], "opts", known);
		if ((f = mjhx_field(prhs[2], "geomgroup")) != NULL) {
			g = mjhx_doubles(call, f, "opts.geomgroup", 6, &n);
			for (i = 0; i < 6; i++)
				groups[i] = g[i] != 0;
			opt.geomgroup = groups;
		}
		if ((f = mjhx_field(prhs[2], "exclude_static")) != NULL)
			opt.exclude_static = mjhx_scalar(call, f,
						 "opts.exclude_static") != 0;
		if ((f = mjhx_field(prhs[2], "exclude_body")) != NULL &&
		    !mxIsEmpty(f))
			opt.exclude_body = mjhx_string(
			    call, f, "opts.exclude_body");
	}
	st = mjhx_state_arg(call, nrhs, prhs, 3, &cs);
	p = mxMalloc(6 * (size_t)k * sizeof(*p));
	v = p + 3 * (size_t)k;
	for (i = 0; i < k; i++) {
		memcpy(p + 3 * i, pnt + 3 * (kp == 1 ? 0 : i), 3 * sizeof(*p));
		memcpy(v + 3 * i, vec + 3 * (kv == 1 ? 0 : i), 3 * sizeof(*v));
	}
	geom = mxMalloc((size_t)k * sizeof(*geom));
	dist = mxCreateDoubleMatrix((size_t)k, 1, mxREAL);
	mjhx_check(call,
	    hxd_rays(mjhx_need(call), st, k, p, v, &opt, geom, mxGetPr(dist)));
	plhs[0] = dist;
	if (nlhs > 1)
		plhs[1] = mjhx_int_col(geom, k);
}

/* qvel = hxd_differentiate_pos(qpos1, qpos2, dt): nv x 1. */
static void
cmd_differentiate_pos(
    int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	static const int lead[1] = { 1 };
	const char *call = "hxd_differentiate_pos";
	hxd_query q = { .kind = HXD_COMPUTE_DIFFERENTIATE_POS };
	const double *a, *b;
	double *args;
	hxd_qresult *r;
	int nq, n;

	a = mjhx_doubles(call, prhs[0], "qpos1", -1, &nq);
	b = mjhx_doubles(call, prhs[1], "qpos2", nq, &n);
	q.dt = mjhx_scalar(call, prhs[2], "dt");
	if (nq == 0)
		mjhx_raise(call, HXD_BADSIZE, "qpos1 is empty");
	if (!isfinite(q.dt) || q.dt == 0)
		mjhx_raisef(call, HXD_BADVALUE,
		    "dt is %g: a finite number, not 0", q.dt);
	args = mxMalloc(2 * (size_t)nq * sizeof(*args));
	memcpy(args, a, (size_t)nq * sizeof(*args));
	memcpy(args + nq, b, (size_t)nq * sizeof(*args));
	q.args = args;
	q.nargs = 2 * nq;
	r = mjhx_query(call, &q, NULL, 2, lead, 1);
	plhs[0] = mjhx_col(r->values, r->shape[1]);
	hxd_qresults_free(r, 1);
}

/* qpos = hxd_integrate_pos(qpos, qvel, dt): nq x 1. */
static void
cmd_integrate_pos(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	const char *call = "hxd_integrate_pos";
	const double *q, *v;
	mxArray *out;
	double dt;
	int nq, nv;

	q = mjhx_doubles(call, prhs[0], "qpos", -1, &nq);
	v = mjhx_doubles(call, prhs[1], "qvel", -1, &nv);
	dt = mjhx_scalar(call, prhs[2], "dt");
	if (!isfinite(dt))
		mjhx_raisef(
		    call, HXD_BADVALUE, "dt is %g: a finite number", dt);
	out = mjhx_col(q, nq);
	mjhx_check(call,
	    hxd_integrate_pos(mjhx_need(call), mxGetPr(out), nq, v, nv, dt));
	plhs[0] = out;
}

/*================================================================ table */

static const struct mjhx_cmd mjhx_cmds[] = {
	{ "hx_connect", cmd_hx_connect, 0, 2,
	    "hx_connect(host, port)       connect; '' is the default server" },
	{ "hx_close", cmd_hx_close, 0, 0,
	    "hx_close                     close the connection" },
	{ "hx_robot_info", cmd_hx_robot_info, 0, 0,
	    "info = hx_robot_info         counts, limits, update rate" },
	{ "hx_update", cmd_hx_update, 1, 1,
	    "sensor = hx_update(command)  send a command, wait, get sensors" },
	{ "hx_read_sensors", cmd_hx_update, 0, 0,
	    "sensor = hx_read_sensors     hx_update with no command" },
	{ "mj_connect", cmd_hx_connect, 0, 1,
	    "mj_connect(host)             connect ('', unix:PATH, HOST[:PORT])" },
	{ "mj_close", cmd_hx_close, 0, 0,
	    "mj_close                     close the connection" },
	{ "mj_connected", cmd_mj_connected, 0, 0,
	    "c = mj_connected             1 while connected, else 0" },
	{ "mj_info", cmd_mj_info, 0, 0,
	    "info = mj_info               the model's description" },
	{ "mj_get_state", cmd_get_state, 0, 0, "state = mj_get_state" },
	{ "mj_get_control", cmd_get_control, 0, 0, "control = mj_get_control" },
	{ "mj_get_applied", cmd_get_applied, 0, 0, "applied = mj_get_applied" },
	{ "mj_get_onebody", cmd_get_onebody, 1, 1,
	    "onebody = mj_get_onebody(bodyid)" },
	{ "mj_get_mocap", cmd_get_mocap, 0, 0, "mocap = mj_get_mocap" },
	{ "mj_get_dynamics", cmd_get_dynamics, 0, 0,
	    "dynamics = mj_get_dynamics" },
	{ "mj_get_sensor", cmd_get_sensor, 0, 0, "sensor = mj_get_sensor" },
	{ "mj_get_body", cmd_get_body, 0, 0, "body = mj_get_body" },
	{ "mj_get_geom", cmd_get_geom, 0, 0, "geom = mj_get_geom" },
	{ "mj_get_site", cmd_get_site, 0, 0, "site = mj_get_site" },
	{ "mj_get_tendon", cmd_get_tendon, 0, 0, "tendon = mj_get_tendon" },
	{ "mj_get_actuator", cmd_get_actuator, 0, 0,
	    "actuator = mj_get_actuator" },
	{ "mj_get_force", cmd_get_force, 0, 0, "force = mj_get_force" },
	{ "mj_get_contact", cmd_get_contact, 0, 0, "contact = mj_get_contact" },
	{ "mj_get_rgba", cmd_get_rgba, 2, 2, "rgba = mj_get_rgba(type, id)" },
	{ "mj_set_state", cmd_set_state, 1, 1, "mj_set_state(state)" },
	{ "mj_set_control", cmd_set_control, 1, 1, "mj_set_control(control)" },
	{ "mj_set_applied", cmd_set_applied, 1, 1, "mj_set_applied(applied)" },
	{ "mj_set_onebody", cmd_set_onebody, 1, 1, "mj_set_onebody(onebody)" },
	{ "mj_set_mocap", cmd_set_mocap, 1, 1, "mj_set_mocap(mocap)" },
	{ "mj_set_geomsize", cmd_set_geomsize, 2, 2,
	    "mj_set_geomsize(geomid, size)" },
	{ "mj_set_rgba", cmd_set_rgba, 3, 3, "mj_set_rgba(type, id, rgba)" },
	{ "mj_step", cmd_mj_step, 0, 0,
	    "mj_step                      one step while paused" },
	{ "mj_update", cmd_mj_update, 0, 1,
	    "sensor = mj_update(control)  set controls, step or wait, get sensors" },
	{ "mj_reset", cmd_mj_reset, 0, 1,
	    "mj_reset(keyframe)           -1 or none: the reference pose; a number or name" },
	{ "mj_equality", cmd_mj_equality, 2, 2, "mj_equality(eqid, state)" },
	{ "mj_message", cmd_mj_message, 0, 1,
	    "mj_message(message)          none clears it" },
	{ "mj_name2id", cmd_name2id, 2, 2,
	    "id = mj_name2id(type, name)  -1 if not found" },
	{ "mj_id2name", cmd_id2name, 2, 2, "name = mj_id2name(type, id)" },
	{ "hxd_pause", cmd_pause, 0, 0,
	    "hxd_pause                    pause the simulation" },
	{ "hxd_run", cmd_run, 0, 0, "hxd_run                      run it" },
	{ "hxd_set_speed", cmd_set_speed, 1, 1,
	    "hxd_set_speed(factor)        1 is real time; 'max' as fast as it goes" },
	{ "hxd_step", cmd_hxd_step, 1, 1,
	    "taken = hxd_step(n)          n steps while paused" },
	{ "hxd_load_file", cmd_load_file, 1, 2,
	    "model = hxd_load_file(path)  load a model of the server's directories; (path, 'legacy')" },
	{ "hxd_reload", cmd_reload, 0, 0,
	    "model = hxd_reload           load the model's file again" },
	{ "hxd_status_get", cmd_status, 0, 0,
	    "status = hxd_status_get      time, steps, speed, model..." },
	{ "hxd_get_array", cmd_get_array, 1, 1,
	    "values = hxd_get_array(name) an mjModel/mjData array, rows x cols" },
	{ "hxd_set_array", cmd_set_array, 2, 3,
	    "hxd_set_array(name, values, offset)  write values from element offset" },
	{ "hxd_list_arrays", cmd_list_arrays, 0, 0,
	    "list = hxd_list_arrays       every array: name, size, writable" },
	{ "hxd_batch_run", cmd_batch_run, 1, 1,
	    "result = hxd_batch_run(opts) lock-step steps or until, trajectory matrices" },
	{ "hxd_set_timeout", cmd_set_timeout, 1, 1,
	    "hxd_set_timeout(seconds)     how long a call waits for its answer" },
	{ "hxd_read_log", cmd_read_log, 1, 1,
	    "data = hxd_read_log(file)    a recording (.hxr, .mjl) as readlog.m gives it" },
	{ "hxd_forward_array", cmd_forward_array, 1, 2,
	    "v = hxd_forward_array(name, state)  an mjData array after mj_forward, rows x cols" },
	{ "hxd_inverse", cmd_inverse, 0, 1,
	    "qfrc = hxd_inverse(state)    mj_inverse: qfrc_inverse, nv x 1 (state.qacc its input)" },
	{ "hxd_full_m", cmd_full_m, 0, 1,
	    "M = hxd_full_m(state)        mj_fullM: the mass matrix, nv x nv" },
	{ "hxd_solve_m", cmd_solve_m, 1, 2,
	    "x = hxd_solve_m(y, state)    mj_solveM: M x = y, y nv x k" },
	{ "hxd_rne", cmd_rne, 1, 2,
	    "f = hxd_rne(flg_acc, state)  mj_rne: bias forces, + M qacc with flg_acc" },
	{ "hxd_jac", cmd_jac, 2, 3,
	    "[jacp, jacr] = hxd_jac(body, point, state)  mj_jac: 3 x nv each" },
	{ "hxd_jac_body", cmd_jac_body, 1, 2,
	    "[jacp, jacr] = hxd_jac_body(body, state)  mj_jacBody" },
	{ "hxd_jac_body_com", cmd_jac_body_com, 1, 2,
	    "[jacp, jacr] = hxd_jac_body_com(body, state)  mj_jacBodyCom" },
	{ "hxd_jac_geom", cmd_jac_geom, 1, 2,
	    "[jacp, jacr] = hxd_jac_geom(geom, state)  mj_jacGeom" },
	{ "hxd_jac_site", cmd_jac_site, 1, 2,
	    "[jacp, jacr] = hxd_jac_site(site, state)  mj_jacSite" },
	{ "hxd_object_velocity", cmd_object_velocity, 2, 4,
	    "v = hxd_object_velocity(type, name, local, state)  6 x 1, angular first" },
	{ "hxd_object_acceleration", cmd_object_acceleration, 2, 4,
	    "a = hxd_object_acceleration(type, name, local, state)  6 x 1, gravity in" },
	{ "hxd_contact_forces", cmd_contact_forces, 0, 1,
	    "c = hxd_contact_forces(state)  every contact's force: ncon x 1 struct; or ('last_step')" },
	{ "hxd_energy", cmd_energy, 0, 1,
	    "e = hxd_energy(state)        [potential; kinetic]" },
	{ "hxd_ray", cmd_ray, 2, 4,
	    "[dist, geomid] = hxd_ray(pnt, vec, opts, state)  mj_ray for k x 3 rays" },
	{ "hxd_differentiate_pos", cmd_differentiate_pos, 3, 3,
	    "qvel = hxd_differentiate_pos(qpos1, qpos2, dt)  mj_differentiatePos" },
	{ "hxd_integrate_pos", cmd_integrate_pos, 3, 3,
	    "qpos = hxd_integrate_pos(qpos, qvel, dt)  mj_integratePos" },
};

/*
 * rgba = get_rgba(type, id): HAPTIX 1.50's short name answers as its
 * MEX file did, a 1 x 4 row; mj_get_rgba gives a column like every
 * other vector here.
 */
static void
cmd_get_rgba_row(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	cmd_get_rgba(nlhs, plhs, nrhs, prhs);
	mxSetM(plhs[0], 1);
	mxSetN(plhs[0], 4);
}

/*
 * HAPTIX 1.50's MEX file took short names for the native calls, and its
 * apimex wrappers call them: mjhx('get_state'), mjhx('update', control)
 * and so on.  Each is the call it names, with the same arguments and
 * struct (fn, when not NULL, in place of the call's own).
 */
static const struct mjhx_alias {
	const char *name, *call;
	mjhx_fn *fn;
} mjhx_aliases[] = {
	{ "connect", "mj_connect", NULL },
	{ "close", "mj_close", NULL },
	{ "connected", "mj_connected", NULL },
	{ "info", "mj_info", NULL },
	{ "get_state", "mj_get_state", NULL },
	{ "get_control", "mj_get_control", NULL },
	{ "get_applied", "mj_get_applied", NULL },
	{ "get_onebody", "mj_get_onebody", NULL },
	{ "get_mocap", "mj_get_mocap", NULL },
	{ "get_dynamics", "mj_get_dynamics", NULL },
	{ "get_sensor", "mj_get_sensor", NULL },
	{ "get_body", "mj_get_body", NULL },
	{ "get_geom", "mj_get_geom", NULL },
	{ "get_site", "mj_get_site", NULL },
	{ "get_tendon", "mj_get_tendon", NULL },
	{ "get_actuator", "mj_get_actuator", NULL },
	{ "get_force", "mj_get_force", NULL },
	{ "get_contact", "mj_get_contact", NULL },
	{ "get_rgba", "mj_get_rgba", cmd_get_rgba_row },
	{ "set_state", "mj_set_state", NULL },
	{ "set_control", "mj_set_control", NULL },
	{ "set_applied", "mj_set_applied", NULL },
	{ "set_onebody", "mj_set_onebody", NULL },
	{ "set_mocap", "mj_set_mocap", NULL },
	{ "set_geomsize", "mj_set_geomsize", NULL },
	{ "set_rgba", "mj_set_rgba", NULL },
	{ "step", "mj_step", NULL },
	{ "update", "mj_update", NULL },
	{ "reset", "mj_reset", NULL },
	{ "equality", "mj_equality", NULL },
	{ "message", "mj_message", NULL },
	{ "name2id", "mj_name2id", NULL },
	{ "id2name", "mj_id2name", NULL },
};

/* Print the built-in help: every command and its arguments. */
static void
mjhx_help(void)
{
	size_t i;

	mexPrintf("mjhx: the HAPTIX MATLAB API over haptixd (libhaptix).\n"
		  "Call it as mjhx('command', args...), or through the .m "
		  "wrappers of the same names:\n\n");
	for (i = 0; i < sizeof(mjhx_cmds) / sizeof(mjhx_cmds[0]); i++)
		mexPrintf("  %s\n", mjhx_cmds[i].usage);
	mexPrintf("\nHAPTIX 1.50's names, which its apimex wrappers use, are "
		  "the calls' without mj_:");
	for (i = 0; i < sizeof(mjhx_aliases) / sizeof(mjhx_aliases[0]); i++)
		mexPrintf(
		    "%s%s", i % 6 == 0 ? "\n  " : " ", mjhx_aliases[i].name);
	mexPrintf("\n(get_rgba answers a 1 x 4 row, as 1.50's did).\n");
	mexPrintf("\nErrors are MATLAB errors with identifiers haptix:NAME "
		  "(haptix:BADSIZE, haptix:NOCONNECTION, ...).\n"
		  "The MEX file stays locked while connected.  "
		  "See docs/matlab.md.\n");
}

/* The MEX entry: dispatch on the command name through the table. */
void
mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	const struct mjhx_cmd *cmd = NULL;
	const struct mjhx_alias *alias = NULL;
	char name[64];
	size_t i;

	if (!mjhx_atexit_set) {
		mexAtExit(mjhx_atexit);
		mjhx_atexit_set = 1;
	}
	if (nrhs == 0) {
		mjhx_help();
		return;
	}
	if (!mxIsChar(prhs[0]) || mxGetString(prhs[0], name, sizeof(name)))
		mjhx_raise("mjhx", HXD_BADCOMMAND,
		    "the first argument must be a command name: mjhx with no "
		    "arguments lists them");
	for (i = 0; i < sizeof(mjhx_aliases) / sizeof(mjhx_aliases[0]); i++)
		if (strcmp(mjhx_aliases[i].name, name) == 0) {
			alias = &mjhx_aliases[i];
			snprintf(name, sizeof(name), "%s", alias->call);
		}
	for (i = 0; i < sizeof(mjhx_cmds) / sizeof(mjhx_cmds[0]); i++)
		if (strcmp(mjhx_cmds[i].name, name) == 0)
			cmd = &mjhx_cmds[i];
	if (cmd == NULL)
		mjhx_raisef("mjhx", HXD_BADCOMMAND,
		    "unknown command '%s': mjhx with no arguments lists them",
		    name);
	if (nrhs - 1 < cmd->min_in || nrhs - 1 > cmd->max_in)
		mjhx_raisef(cmd->name, HXD_BADVALUE, "%d arguments; usage: %s",
		    nrhs - 1, cmd->usage);
	mjhx_call = cmd->name;
	if (alias != NULL && alias->fn != NULL)
		alias->fn(nlhs, plhs, nrhs - 1, prhs + 1);
	else
		cmd->fn(nlhs, plhs, nrhs - 1, prhs + 1);
}
