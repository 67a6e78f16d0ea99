/*
 * hxgz: Gazebo HAPTIX's MATLAB API, one MEX file over libhaptix's Gazebo
 * dialect (haptix/comm/haptix.h and haptix/comm/haptix_sim.h).
 *
 * Gazebo HAPTIX's .m files call a MEX file named hxgz with a command and
 * its arguments: hxgz('sim_info'), hxgz('set_model_color', model, color),
 * ...  This one takes the same commands, arguments and structs, so that
 * their programs run unchanged on haptixd, and does nothing but convert:
 * MATLAB arrays into the C structs of the dialect's headers and back,
 * with every argument checked first (its kind, its size, finite, within
 * a float's range) and named when it is wrong.  The calls themselves are
 * the library's, which connect to the default server on first use.
 *
 * Errors are MATLAB errors with the identifier HAPTIX:CALL, CALL the C
 * call's name (HAPTIX:hxs_add_model, as Gazebo's MEX file named them;
 * HAPTIX:hxgz for a bad command), and a message that starts with the
 * result code: the library's hx_last_result() ("mjCOM_BADINDEX:
 * hxs_remove_model: there is no model named 'ball' ..."), or ours in the
 * same form for a bad argument.  While connected the MEX file is locked
 * in memory (mexLock), as mjhx is, so that `clear all` cannot unload
 * libhaptix with the connection in it; hx_close unlocks it.
 *
 * Only the MEX API (mex.h) is used: the same file builds with GNU
 * Octave's `mkoctfile --mex` and with MATLAB's `mex` (docs/matlab.md).
 * Large structs are mxMalloc'd, which MATLAB frees when an error leaves
 * the function.
 */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <haptix/comm/haptix_sim.h>

#include "mex.h"

/* What one command of the table does with its arguments. */
typedef void hxgz_fn(int nlhs, mxArray *plhs[], const mxArray *prhs[]);

/* One command: its name, its C call's, its arguments and its help. */
struct hxgz_cmd {
	const char *name;
	const char *call; /* the C call: the error identifier's */
	hxgz_fn *fn;
	int min_in, max_in; /* arguments after the command name */
	const char *usage;
};

static void hxgz_raisef(const char *, const char *, const char *, ...)
    __attribute__((format(printf, 3, 4)));

/* The command being run: its C call names the errors. */
static const char *hxgz_call = "hxgz";
/* The robot's counts, which size the sensor arrays; valid when known. */
static hxRobotInfo hxgz_robot;
static int hxgz_robot_known;
/* mexAtExit() is set up once. */
static int hxgz_atexit_set;

/*================================================================ errors */

/*
 * Raise the MATLAB error HAPTIX:call: the result code's name, the call
 * and what went wrong.
 */
static void
hxgz_raisef(const char *call, const char *code, const char *fmt, ...)
{
	char why[1024], id[96];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	snprintf(id, sizeof(id), "HAPTIX:%s", call);
	mexErrMsgIdAndTxt(id, "%s: %s: %s", code, call, why);
}

/*
 * After a call: lock the MEX file while connected; on failure raise the
 * library's error, unlocking first if the connection is gone.
 */
static void
hxgz_check(hxResult rc)
{
	const char *text = hx_last_result();
	char id[96];

	if (rc == hxOK) {
		if (!mexIsLocked())
			mexLock();
		return;
	}
	/* The counts are read again after any failure: the model may differ. */
	hxgz_robot_known = 0;
	if ((strncmp(text, "mjCOM_NOCONNECTION", 18) == 0 ||
		strncmp(text, "mjCOM_CANNOT", 12) == 0) &&
	    mexIsLocked())
		mexUnlock();
	snprintf(id, sizeof(id), "HAPTIX:%s", hxgz_call);
	mexErrMsgIdAndTxt(id, "%s", text);
}

/* Called when MATLAB unloads the MEX file or exits: close cleanly. */
static void
hxgz_atexit(void)
{
	hx_close();
	hxgz_robot_known = 0;
}

/*============================================================ arguments */

/* A number as MATLAB writes it: NaN, Inf, -Inf, else as %g. */
static const char *
hxgz_num(double v, char *buf, size_t len)
{
	if (isnan(v))
		return "NaN";
	if (isinf(v))
		return v > 0 ? "Inf" : "-Inf";
	snprintf(buf, len, "%g", v);
	return buf;
}

/* The string argument a; MATLAB frees it when the command returns. */
static char *
hxgz_string(const mxArray *a, const char *what)
{
	char *s;

	if (!mxIsChar(a) || mxGetM(a) > 1)
		hxgz_raisef(hxgz_call, "mjCOM_BADVALUE",
		    "%s must be a string (a row of characters)", what);
	if ((s = mxArrayToString(a)) == NULL)
		hxgz_raisef(hxgz_call, "mjCOM_BADVALUE",
		    "%s is not a plain string", what);
	return s;
}

/* A real, finite numeric (or logical) scalar argument. */
static double
hxgz_scalar(const mxArray *a, const char *what)
{
	char b[32];
	double v;

	if ((!mxIsNumeric(a) && !mxIsLogical(a)) || mxIsComplex(a) ||
	    mxGetNumberOfElements(a) != 1)
		hxgz_raisef(hxgz_call, "mjCOM_BADVALUE",
		    "%s must be a real number", what);
	v = mxGetScalar(a);
	if (!isfinite(v))
		hxgz_raisef(hxgz_call, "mjCOM_BADVALUE",
		    "%s is %s: it must be finite", what,
		    hxgz_num(v, b, sizeof(b)));
	return v;
}

/* A scalar argument within a float's range, as the C structs hold it. */
static float
hxgz_float(const mxArray *a, const char *what)
{
	double v = hxgz_scalar(a, what);

	if (fabs(v) > FLT_MAX)
		hxgz_raisef(hxgz_call, "mjCOM_BADVALUE",
		    "%s is %g: beyond a float's range", what, v);
	return (float)v;
}

/* An integer argument within int's range. */
static int
hxgz_int(const mxArray *a, const char *what)
{
	double v = hxgz_scalar(a, what);

	if (v != floor(v) || fabs(v) > 2147483647.0)
		hxgz_raisef(hxgz_call, "mjCOM_BADVALUE",
		    "%s is %g: not an integer", what, v);
	return (int)v;
}

/* n numbers of v, each finite and within a float's range, into out. */
static void
hxgz_numbers(const double *v, const char *what, int n, float *out)
{
	char b[32];
	int i;

	for (i = 0; i < n; i++) {
		if (!isfinite(v[i]) || fabs(v[i]) > FLT_MAX)
			hxgz_raisef(hxgz_call, "mjCOM_BADVALUE",
			    "%s(%d) is %s: it must be finite, within a "
			    "float's range",
			    what, i + 1, hxgz_num(v[i], b, sizeof(b)));
		out[i] = (float)v[i];
	}
}

/*
 * The n numbers of a real double vector, row or column (or empty when n
 * is 0), each finite and within a float's range, into out.
 */
static void
hxgz_vector(const mxArray *a, const char *what, int n, float *out)
{
	if (n == 0 && mxIsEmpty(a))
		return;
	if (!mxIsDouble(a) || mxIsComplex(a) || mxIsSparse(a))
		hxgz_raisef(hxgz_call, "mjCOM_BADVALUE",
		    "%s must be a real double vector", what);
	if (mxGetNumberOfElements(a) != (size_t)n ||
	    mxGetNumberOfDimensions(a) > 2 ||
	    (mxGetM(a) != 1 && mxGetN(a) != 1))
		hxgz_raisef(hxgz_call, "mjCOM_BADSIZE",
		    "%s is %zux%zu: it must be %dx1 (or 1x%d)", what, mxGetM(a),
		    mxGetN(a), n, n);
	hxgz_numbers(mxGetPr(a), what, n, out);
}

/*
 * Require a 1x1 struct whose fields are all in the NULL-terminated list
 * known, naming the first that is not (a misspelt field is refused, not
 * ignored).
 */
static void
hxgz_known_fields(const mxArray *a, const char *what, const char *const *known)
{
	const char *f;
	int i, j, n;

	if (!mxIsStruct(a) || mxGetNumberOfElements(a) != 1)
		hxgz_raisef(hxgz_call, "mjCOM_BADVALUE",
		    "%s must be a 1x1 struct", what);
	n = mxGetNumberOfFields(a);
	for (i = 0; i < n; i++) {
		f = mxGetFieldNameByNumber(a, i);
		for (j = 0; known[j] != NULL; j++)
			if (strcmp(f, known[j]) == 0)
				break;
		if (known[j] == NULL)
			hxgz_raisef(hxgz_call, "mjCOM_BADVALUE",
			    "%s has no field '%s'", what, f);
	}
}

/* Require a 1x1 struct with exactly the fields of the list. */
static void
hxgz_struct_in(const mxArray *a, const char *what, const char *const *fields)
{
	int j;

	hxgz_known_fields(a, what, fields);
	for (j = 0; fields[j] != NULL; j++)
		if (mxGetFieldNumber(a, fields[j]) < 0)
			hxgz_raisef(hxgz_call, "mjCOM_BADVALUE",
			    "%s lacks the field '%s'", what, fields[j]);
}

/* Field name of struct s (which has it) as a vector of n floats. */
static void
hxgz_field_vector(
    const mxArray *s, const char *what, const char *name, int n, float *out)
{
	char label[128];

	snprintf(label, sizeof(label), "%s.%s", what, name);
	hxgz_vector(mxGetField(s, 0, name), label, n, out);
}

/* A vector3: 3 numbers. */
static hxsVector3
hxgz_vector3_in(const mxArray *a, const char *what)
{
	float v[3];

	hxgz_vector(a, what, 3, v);
	return (hxsVector3){ v[0], v[1], v[2] };
}

/* A transform: struct with pos (3 numbers) and orient (w, x, y, z). */
static hxsTransform
hxgz_transform_in(const mxArray *a, const char *what)
{
	static const char *const f[] = { "pos", "orient", NULL };
	float p[3], q[4];

	hxgz_struct_in(a, what, f);
	hxgz_field_vector(a, what, "pos", 3, p);
	hxgz_field_vector(a, what, "orient", 4, q);
	return (
	    hxsTransform){ { p[0], p[1], p[2] }, { q[0], q[1], q[2], q[3] } };
}

/* A wrench: struct with force and torque, 3 numbers each. */
static hxsWrench
hxgz_wrench_in(const mxArray *a, const char *what)
{
	static const char *const f[] = { "force", "torque", NULL };
	float force[3], torque[3];

	hxgz_struct_in(a, what, f);
	hxgz_field_vector(a, what, "force", 3, force);
	hxgz_field_vector(a, what, "torque", 3, torque);
	return (hxsWrench){ { force[0], force[1], force[2] },
		{ torque[0], torque[1], torque[2] } };
}

/*============================================================== results */

/* A count from the library within 0 and the size of its array. */
static int
hxgz_clamp(int n, int max)
{
	return n < 0 ? 0 : n > max ? max : n;
}

/* A 1x1 struct with the NULL-terminated field names, in that order. */
static mxArray *
hxgz_struct(const char *const *names)
{
	int n = 0;

	while (names[n] != NULL)
		n++;
	return mxCreateStructMatrix(1, 1, n, (const char **)names);
}

/* n floats as an n x 1 column of doubles. */
static mxArray *
hxgz_col(const float *v, int n)
{
	mxArray *a = mxCreateDoubleMatrix((size_t)n, 1, mxREAL);
	double *p = mxGetPr(a);
	int i;

	for (i = 0; i < n; i++)
		p[i] = v[i];
	return a;
}

/* k rows of w floats (row after row, as C keeps them) as a k x w matrix. */
static mxArray *
hxgz_rows(const float *v, int k, int w)
{
	mxArray *a = mxCreateDoubleMatrix((size_t)k, (size_t)w, mxREAL);
	double *p = mxGetPr(a);
	int i, j;

	for (i = 0; i < k; i++)
		for (j = 0; j < w; j++)
			p[(size_t)j * (size_t)k + (size_t)i] = v[i * w + j];
	return a;
}

/* A vector3 as 3 x 1. */
static mxArray *
hxgz_vector3(const hxsVector3 *v)
{
	const float f[3] = { v->x, v->y, v->z };

	return hxgz_col(f, 3);
}

/* A transform: pos 3x1 and orient 4x1 (w, x, y, z). */
static mxArray *
hxgz_transform(const hxsTransform *t)
{
	static const char *const f[] = { "pos", "orient", NULL };
	const float q[4] = { t->orient.w, t->orient.x, t->orient.y,
		t->orient.z };
	mxArray *s = hxgz_struct(f);

	mxSetField(s, 0, "pos", hxgz_vector3(&t->pos));
	mxSetField(s, 0, "orient", hxgz_col(q, 4));
	return s;
}

/* A wrench: force and torque, 3 x 1 each. */
static mxArray *
hxgz_wrench(const hxsWrench *w)
{
	static const char *const f[] = { "force", "torque", NULL };
	mxArray *s = hxgz_struct(f);

	mxSetField(s, 0, "force", hxgz_vector3(&w->force));
	mxSetField(s, 0, "torque", hxgz_vector3(&w->torque));
	return s;
}

/* A link: its name, transform and motion. */
static mxArray *
hxgz_link(const hxsLink *l)
{
	static const char *const f[] = { "name", "transform", "lin_vel",
		"ang_vel", "lin_acc", "ang_acc", NULL };
	mxArray *s = hxgz_struct(f);

	mxSetField(s, 0, "name", mxCreateString(l->name));
	mxSetField(s, 0, "transform", hxgz_transform(&l->transform));
	mxSetField(s, 0, "lin_vel", hxgz_vector3(&l->lin_vel));
	mxSetField(s, 0, "ang_vel", hxgz_vector3(&l->ang_vel));
	mxSetField(s, 0, "lin_acc", hxgz_vector3(&l->lin_acc));
	mxSetField(s, 0, "ang_acc", hxgz_vector3(&l->ang_acc));
	return s;
}

/* A joint: its name and state. */
static mxArray *
hxgz_joint(const hxsJoint *j)
{
	static const char *const f[] = { "name", "pos", "vel", "acc",
		"torque_motor", "wrench_reactive", NULL };
	mxArray *s = hxgz_struct(f);

	mxSetField(s, 0, "name", mxCreateString(j->name));
	mxSetField(s, 0, "pos", mxCreateDoubleScalar(j->pos));
	mxSetField(s, 0, "vel", mxCreateDoubleScalar(j->vel));
	mxSetField(s, 0, "acc", mxCreateDoubleScalar(j->acc));
	mxSetField(s, 0, "torque_motor", mxCreateDoubleScalar(j->torque_motor));
	mxSetField(s, 0, "wrench_reactive", hxgz_wrench(&j->wrench_reactive));
	return s;
}

/*
 * A model.  Its links and joints are n x 1 struct arrays of one field
 * (link, joint) each, as Gazebo's MEX file made them: models.links(2).link.
 */
static mxArray *
hxgz_model(const hxsModel *m)
{
	static const char *const f[] = { "name", "transform", "links", "joints",
		"gravity_mode", NULL };
	const char *link[] = { "link" }, *joint[] = { "joint" };
	mxArray *s = hxgz_struct(f), *links, *joints;
	int i, nl, nj;

	nl = hxgz_clamp(m->link_count, hxsMAXLINKS);
	nj = hxgz_clamp(m->joint_count, hxsMAXJOINTS);
	links = mxCreateStructMatrix((size_t)nl, 1, 1, link);
	for (i = 0; i < nl; i++)
		mxSetField(links, i, "link", hxgz_link(&m->links[i]));
	joints = mxCreateStructMatrix((size_t)nj, 1, 1, joint);
	for (i = 0; i < nj; i++)
		mxSetField(joints, i, "joint", hxgz_joint(&m->joints[i]));
	mxSetField(s, 0, "name", mxCreateString(m->name));
	mxSetField(s, 0, "transform", hxgz_transform(&m->transform));
	mxSetField(s, 0, "links", links);
	mxSetField(s, 0, "joints", joints);
	mxSetField(s, 0, "gravity_mode", mxCreateDoubleScalar(m->gravity_mode));
	return s;
}

/* The contacts as an n x 1 struct array (0 x 1 when there are none). */
static mxArray *
hxgz_contacts(const hxsContactPoints *c)
{
	const char *f[] = { "link1", "link2", "point", "normal", "distance",
		"wrench" };
	const hxsContactPoint *p;
	mxArray *s;
	int i, n;

	n = hxgz_clamp(c->contact_count, hxsMAXCONTACT);
	s = mxCreateStructMatrix((size_t)n, 1, 6, f);
	for (i = 0; i < n; i++) {
		p = &c->contacts[i];
		mxSetField(s, i, "link1", mxCreateString(p->link1));
		mxSetField(s, i, "link2", mxCreateString(p->link2));
		mxSetField(s, i, "point", hxgz_vector3(&p->point));
		mxSetField(s, i, "normal", hxgz_vector3(&p->normal));
		mxSetField(s, i, "distance", mxCreateDoubleScalar(p->distance));
		mxSetField(s, i, "wrench", hxgz_wrench(&p->wrench));
	}
	return s;
}

/*================================================= the simple API (hx_) */

/* connect(host, port): '' or none is the default server. */
static void
cmd_connect(int nlhs, mxArray *plhs[], const mxArray *prhs[])
{
	const char *host = NULL;
	int port = 0;

	if (prhs[0] != NULL && !mxIsEmpty(prhs[0]))
		host = hxgz_string(prhs[0], "host");
	if (prhs[1] != NULL && !mxIsEmpty(prhs[1]))
		port = hxgz_int(prhs[1], "port");
	hxgz_robot_known = 0;
	hxgz_check(hx_connect(host, port));
}

/* close: closing when not connected is no error. */
static void
cmd_close(int nlhs, mxArray *plhs[], const mxArray *prhs[])
{
	hx_close();
	hxgz_robot_known = 0;
	if (mexIsLocked())
		mexUnlock();
}

/*
 * Ask for the robot's description: its counts size the sensor arrays
 * until the connection changes or a call fails, as Gazebo's MEX file
 * asked once.  The library keeps them within hxMAX*; so does this.
 */
static void
hxgz_fetch_robot(void)
{
	hxRobotInfo *r = &hxgz_robot;

	hxgz_check(hx_robot_info(r));
	r->motor_count = hxgz_clamp(r->motor_count, hxMAXMOTOR);
	r->joint_count = hxgz_clamp(r->joint_count, hxMAXJOINT);
	r->contact_sensor_count = hxgz_clamp(
	    r->contact_sensor_count, hxMAXCONTACTSENSOR);
	r->imu_count = hxgz_clamp(r->imu_count, hxMAXIMU);
	hxgz_robot_known = 1;
}

/* info = robot_info */
static void
cmd_robot_info(int nlhs, mxArray *plhs[], const mxArray *prhs[])
{
	static const char *const f[] = { "motor_count", "joint_count",
		"contact_sensor_count", "imu_count", "motor_limit",
		"joint_limit", "update_rate", NULL };
	const hxRobotInfo *r = &hxgz_robot;
	mxArray *s = NULL;

	hxgz_fetch_robot();
	s = hxgz_struct(f);
	mxSetField(s, 0, "motor_count", mxCreateDoubleScalar(r->motor_count));
	mxSetField(s, 0, "joint_count", mxCreateDoubleScalar(r->joint_count));
	mxSetField(s, 0, "contact_sensor_count",
	    mxCreateDoubleScalar(r->contact_sensor_count));
	mxSetField(s, 0, "imu_count", mxCreateDoubleScalar(r->imu_count));
	mxSetField(s, 0, "motor_limit",
	    hxgz_rows(&r->motor_limit[0][0], r->motor_count, 2));
	mxSetField(s, 0, "joint_limit",
	    hxgz_rows(&r->joint_limit[0][0], r->joint_count, 2));
	mxSetField(s, 0, "update_rate", mxCreateDoubleScalar(r->update_rate));
	plhs[0] = s;
}

/* The sensors as Gazebo's hx_update documents them, sized by the robot. */
static mxArray *
hxgz_sensor(const hxSensor *in)
{
	static const char *const f[] = { "time_stamp", "motor_pos", "motor_vel",
		"motor_torque", "joint_pos", "joint_vel", "contact",
		"imu_linear_acc", "imu_angular_vel", "imu_orientation", NULL };
	const hxRobotInfo *r = &hxgz_robot;
	mxArray *s = hxgz_struct(f);

	mxSetField(s, 0, "time_stamp",
	    mxCreateDoubleScalar(
		in->time_stamp.sec + in->time_stamp.nsec * 1e-9));
	mxSetField(s, 0, "motor_pos", hxgz_col(in->motor_pos, r->motor_count));
	mxSetField(s, 0, "motor_vel", hxgz_col(in->motor_vel, r->motor_count));
	mxSetField(
	    s, 0, "motor_torque", hxgz_col(in->motor_torque, r->motor_count));
	mxSetField(s, 0, "joint_pos", hxgz_col(in->joint_pos, r->joint_count));
	mxSetField(s, 0, "joint_vel", hxgz_col(in->joint_vel, r->joint_count));
	mxSetField(
	    s, 0, "contact", hxgz_col(in->contact, r->contact_sensor_count));
	mxSetField(s, 0, "imu_linear_acc",
	    hxgz_rows(&in->imu_linear_acc[0][0], r->imu_count, 3));
	mxSetField(s, 0, "imu_angular_vel",
	    hxgz_rows(&in->imu_angular_vel[0][0], r->imu_count, 3));
	mxSetField(s, 0, "imu_orientation",
	    hxgz_rows(&in->imu_orientation[0][0], r->imu_count, 4));
	return s;
}

/*
 * One array of a command, used when its *_enabled field is positive (a
 * missing one is 0): one number per motor, row or column.  Numbers past
 * the motors are left out, as Gazebo's hxgz left them: OSRF's own
 * hx_matlab_controller.m and hx_luke_test.m send motor_count + 1.
 * Fewer is an error.
 */
static int
hxgz_command_array(const mxArray *cmd, const char *name, float *out)
{
	char en[64], label[128];
	const mxArray *f;
	int k;

	snprintf(en, sizeof(en), "%s_enabled", name);
	snprintf(label, sizeof(label), "command.%s", en);
	if ((k = mxGetFieldNumber(cmd, en)) < 0)
		return 0;
	if (hxgz_scalar(mxGetFieldByNumber(cmd, 0, k), label) <= 0)
		return 0;
	snprintf(label, sizeof(label), "command.%s", name);
	if ((f = mxGetField(cmd, 0, name)) == NULL)
		hxgz_raisef(hxgz_call, "mjCOM_BADVALUE",
		    "command.%s is set but command has no field '%s'", en,
		    name);
	if (!mxIsDouble(f) || mxIsComplex(f) || mxIsSparse(f))
		hxgz_raisef(hxgz_call, "mjCOM_BADVALUE",
		    "%s must be a real double vector", label);
	if (mxGetNumberOfElements(f) < (size_t)hxgz_robot.motor_count ||
	    mxGetNumberOfDimensions(f) > 2 || (mxGetM(f) > 1 && mxGetN(f) > 1))
		hxgz_raisef(hxgz_call, "mjCOM_BADSIZE",
		    "%s is %zux%zu where the robot has %d motors: one number "
		    "each, a row or a column",
		    label, mxGetM(f), mxGetN(f), hxgz_robot.motor_count);
	hxgz_numbers(mxGetPr(f), label, hxgz_robot.motor_count, out);
	return 1;
}

/* sensor = update(command): send a command, get the latest sensors. */
static void
cmd_update(int nlhs, mxArray *plhs[], const mxArray *prhs[])
{
	static const char *const known[] = { "ref_pos", "ref_pos_enabled",
		"ref_vel", "ref_vel_enabled", "ref_vel_max",
		"ref_vel_max_enabled", "gain_pos", "gain_pos_enabled",
		"gain_vel", "gain_vel_enabled", NULL };
	const mxArray *c = prhs[0];
	hxCommand *cmd = mxCalloc(1, sizeof(*cmd));
	hxSensor *sensor = mxCalloc(1, sizeof(*sensor));

	hxgz_known_fields(c, "command", known);
	if (!hxgz_robot_known)
		hxgz_fetch_robot();
	cmd->ref_pos_enabled = hxgz_command_array(c, "ref_pos", cmd->ref_pos);
	cmd->ref_vel_enabled = hxgz_command_array(c, "ref_vel", cmd->ref_vel);
	cmd->ref_vel_max_enabled = hxgz_command_array(
	    c, "ref_vel_max", cmd->ref_vel_max);
	cmd->gain_pos_enabled = hxgz_command_array(
	    c, "gain_pos", cmd->gain_pos);
	cmd->gain_vel_enabled = hxgz_command_array(
	    c, "gain_vel", cmd->gain_vel);
	hxgz_check(hx_update(cmd, sensor));
	plhs[0] = hxgz_sensor(sensor);
	mxFree(cmd);
	mxFree(sensor);
}

/* sensor = read_sensors */
static void
cmd_read_sensors(int nlhs, mxArray *plhs[], const mxArray *prhs[])
{
	hxSensor *sensor = mxCalloc(1, sizeof(*sensor));

	if (!hxgz_robot_known)
		hxgz_fetch_robot();
	hxgz_check(hx_read_sensors(sensor));
	plhs[0] = hxgz_sensor(sensor);
	mxFree(sensor);
}

/*================================================= the World API (hxs_) */

/* info = sim_info: models (n x 1, field model) and camera_transform. */
static void
cmd_sim_info(int nlhs, mxArray *plhs[], const mxArray *prhs[])
{
	static const char *const f[] = { "models", "camera_transform", NULL };
	const char *model[] = { "model" };
	hxsSimInfo *in = mxCalloc(1, sizeof(*in));
	mxArray *s, *models;
	int i, n;

	hxgz_check(hxs_sim_info(in));
	n = hxgz_clamp(in->model_count, hxsMAXMODELS);
	models = mxCreateStructMatrix((size_t)n, 1, 1, model);
	for (i = 0; i < n; i++)
		mxSetField(models, i, "model", hxgz_model(&in->models[i]));
	s = hxgz_struct(f);
	mxSetField(s, 0, "models", models);
	mxSetField(
	    s, 0, "camera_transform", hxgz_transform(&in->camera_transform));
	mxFree(in);
	plhs[0] = s;
}

/* transform = camera_transform */
static void
cmd_camera_transform(int nlhs, mxArray *plhs[], const mxArray *prhs[])
{
	hxsTransform t;

	hxgz_check(hxs_camera_transform(&t));
	plhs[0] = hxgz_transform(&t);
}

/* set_camera_transform(transform) */
static void
cmd_set_camera_transform(int nlhs, mxArray *plhs[], const mxArray *prhs[])
{
	hxsTransform t = hxgz_transform_in(prhs[0], "transform");

	hxgz_check(hxs_set_camera_transform(&t));
}

/* contacts = contacts(model): n x 1 struct array. */
static void
cmd_contacts(int nlhs, mxArray *plhs[], const mxArray *prhs[])
{
	const char *model = hxgz_string(prhs[0], "model");
	hxsContactPoints *c = mxCalloc(1, sizeof(*c));

	hxgz_check(hxs_contacts(model, c));
	plhs[0] = hxgz_contacts(c);
	mxFree(c);
}

/* model = model_joint_state(model) */
static void
cmd_model_joint_state(int nlhs, mxArray *plhs[], const mxArray *prhs[])
{
	const char *name = hxgz_string(prhs[0], "model");
	hxsModel *m = mxCalloc(1, sizeof(*m));

	hxgz_check(hxs_model_joint_state(name, m));
	plhs[0] = hxgz_model(m);
	mxFree(m);
}

/* set_model_joint_state(model, joint, pos, vel) */
static void
cmd_set_model_joint_state(int nlhs, mxArray *plhs[], const mxArray *prhs[])
{
	const char *model = hxgz_string(prhs[0], "model");
	const char *joint = hxgz_string(prhs[1], "joint");
	float pos = hxgz_float(prhs[2], "position");
	float vel = hxgz_float(prhs[3], "velocity");

	hxgz_check(hxs_set_model_joint_state(model, joint, pos, vel));
}

/*
 * model = add_model(sdf, name, pos, orient, gravity_mode): orient is
 * roll, pitch and yaw (rad).
 */
static void
cmd_add_model(int nlhs, mxArray *plhs[], const mxArray *prhs[])
{
	const char *text = hxgz_string(prhs[0], "sdf");
	const char *name = hxgz_string(prhs[1], "name");
	hxsModel *m = mxCalloc(1, sizeof(*m));
	float p[3], rpy[3];
	int gravity;

	hxgz_vector(prhs[2], "pos", 3, p);
	hxgz_vector(prhs[3], "orient", 3, rpy);
	gravity = hxgz_int(prhs[4], "gravity_mode");
	hxgz_check(hxs_add_model(
	    text, name, p[0], p[1], p[2], rpy[0], rpy[1], rpy[2], gravity, m));
	plhs[0] = hxgz_model(m);
	mxFree(m);
}

/* remove_model(model) */
static void
cmd_remove_model(int nlhs, mxArray *plhs[], const mxArray *prhs[])
{
	hxgz_check(hxs_remove_model(hxgz_string(prhs[0], "model")));
}

/* transform = model_transform(model) */
static void
cmd_model_transform(int nlhs, mxArray *plhs[], const mxArray *prhs[])
{
	const char *name = hxgz_string(prhs[0], "model");
	hxsTransform t;

	hxgz_check(hxs_model_transform(name, &t));
	plhs[0] = hxgz_transform(&t);
}

/* set_model_transform(model, transform) */
static void
cmd_set_model_transform(int nlhs, mxArray *plhs[], const mxArray *prhs[])
{
	const char *name = hxgz_string(prhs[0], "model");
	hxsTransform t = hxgz_transform_in(prhs[1], "transform");

	hxgz_check(hxs_set_model_transform(name, &t));
}

/* mode = model_gravity_mode(model): 1 or 0. */
static void
cmd_model_gravity_mode(int nlhs, mxArray *plhs[], const mxArray *prhs[])
{
	const char *name = hxgz_string(prhs[0], "model");
	int mode;

	hxgz_check(hxs_model_gravity_mode(name, &mode));
	plhs[0] = mxCreateDoubleScalar(mode);
}

/* set_model_gravity_mode(model, mode) */
static void
cmd_set_model_gravity_mode(int nlhs, mxArray *plhs[], const mxArray *prhs[])
{
	const char *name = hxgz_string(prhs[0], "model");
	int mode = hxgz_int(prhs[1], "gravity_mode");

	hxgz_check(hxs_set_model_gravity_mode(name, mode));
}

/* velocity = linear_velocity(model) */
static void
cmd_linear_velocity(int nlhs, mxArray *plhs[], const mxArray *prhs[])
{
	const char *name = hxgz_string(prhs[0], "model");
	hxsVector3 v;

	hxgz_check(hxs_linear_velocity(name, &v));
	plhs[0] = hxgz_vector3(&v);
}

/* set_linear_velocity(model, velocity) */
static void
cmd_set_linear_velocity(int nlhs, mxArray *plhs[], const mxArray *prhs[])
{
	const char *name = hxgz_string(prhs[0], "model");
	hxsVector3 v = hxgz_vector3_in(prhs[1], "velocity");

	hxgz_check(hxs_set_linear_velocity(name, &v));
}

/* velocity = angular_velocity(model) */
static void
cmd_angular_velocity(int nlhs, mxArray *plhs[], const mxArray *prhs[])
{
	const char *name = hxgz_string(prhs[0], "model");
	hxsVector3 v;

	hxgz_check(hxs_angular_velocity(name, &v));
	plhs[0] = hxgz_vector3(&v);
}

/* set_angular_velocity(model, velocity) */
static void
cmd_set_angular_velocity(int nlhs, mxArray *plhs[], const mxArray *prhs[])
{
	const char *name = hxgz_string(prhs[0], "model");
	hxsVector3 v = hxgz_vector3_in(prhs[1], "velocity");

	hxgz_check(hxs_set_angular_velocity(name, &v));
}

/* apply_force(model, link, force, duration) */
static void
cmd_apply_force(int nlhs, mxArray *plhs[], const mxArray *prhs[])
{
	const char *model = hxgz_string(prhs[0], "model");
	const char *link = hxgz_string(prhs[1], "link");
	hxsVector3 f = hxgz_vector3_in(prhs[2], "force");
	float duration = hxgz_float(prhs[3], "duration");

	hxgz_check(hxs_apply_force(model, link, &f, duration));
}

/* apply_torque(model, link, torque, duration) */
static void
cmd_apply_torque(int nlhs, mxArray *plhs[], const mxArray *prhs[])
{
	const char *model = hxgz_string(prhs[0], "model");
	const char *link = hxgz_string(prhs[1], "link");
	hxsVector3 t = hxgz_vector3_in(prhs[2], "torque");
	float duration = hxgz_float(prhs[3], "duration");

	hxgz_check(hxs_apply_torque(model, link, &t, duration));
}

/* apply_wrench(model, link, wrench, duration) */
static void
cmd_apply_wrench(int nlhs, mxArray *plhs[], const mxArray *prhs[])
{
	const char *model = hxgz_string(prhs[0], "model");
	const char *link = hxgz_string(prhs[1], "link");
	hxsWrench w = hxgz_wrench_in(prhs[2], "wrench");
	float duration = hxgz_float(prhs[3], "duration");

	hxgz_check(hxs_apply_wrench(model, link, &w, duration));
}

/* reset(reset_limb_pose) */
static void
cmd_reset(int nlhs, mxArray *plhs[], const mxArray *prhs[])
{
	hxgz_check(hxs_reset(hxgz_int(prhs[0], "reset_limb_pose")));
}

/* start_logging(filename) */
static void
cmd_start_logging(int nlhs, mxArray *plhs[], const mxArray *prhs[])
{
	hxgz_check(hxs_start_logging(hxgz_string(prhs[0], "filename")));
}

/* logging = is_logging: 1 or 0. */
static void
cmd_is_logging(int nlhs, mxArray *plhs[], const mxArray *prhs[])
{
	int on;

	hxgz_check(hxs_is_logging(&on));
	plhs[0] = mxCreateDoubleScalar(on);
}

/* stop_logging */
static void
cmd_stop_logging(int nlhs, mxArray *plhs[], const mxArray *prhs[])
{
	hxgz_check(hxs_stop_logging());
}

/* set_model_color(model, color): r, g, b, alpha from 0 to 1. */
static void
cmd_set_model_color(int nlhs, mxArray *plhs[], const mxArray *prhs[])
{
	const char *name = hxgz_string(prhs[0], "model");
	float c[4];
	hxsColor color;

	hxgz_vector(prhs[1], "color", 4, c);
	color = (hxsColor){ c[0], c[1], c[2], c[3] };
	hxgz_check(hxs_set_model_color(name, &color));
}

/* color = model_color(model): 4 x 1. */
static void
cmd_model_color(int nlhs, mxArray *plhs[], const mxArray *prhs[])
{
	const char *name = hxgz_string(prhs[0], "model");
	hxsColor color;
	float c[4];

	hxgz_check(hxs_model_color(name, &color));
	c[0] = color.r, c[1] = color.g, c[2] = color.b, c[3] = color.alpha;
	plhs[0] = hxgz_col(c, 4);
}

/* set_model_collide_mode(model, mode): 0, 1 or 2. */
static void
cmd_set_model_collide_mode(int nlhs, mxArray *plhs[], const mxArray *prhs[])
{
	const char *name = hxgz_string(prhs[0], "model");
	hxsCollideMode mode = (hxsCollideMode)hxgz_int(prhs[1], "collide_mode");

	hxgz_check(hxs_set_model_collide_mode(name, &mode));
}

/* mode = model_collide_mode(model) */
static void
cmd_model_collide_mode(int nlhs, mxArray *plhs[], const mxArray *prhs[])
{
	const char *name = hxgz_string(prhs[0], "model");
	hxsCollideMode mode;

	hxgz_check(hxs_model_collide_mode(name, &mode));
	plhs[0] = mxCreateDoubleScalar((double)mode);
}

/* add_constraint(sdf, model) */
static void
cmd_add_constraint(int nlhs, mxArray *plhs[], const mxArray *prhs[])
{
	const char *text = hxgz_string(prhs[0], "sdf");
	const char *model = hxgz_string(prhs[1], "model");

	hxgz_check(hxs_add_constraint(text, model));
}

/* remove_constraint(name, model) */
static void
cmd_remove_constraint(int nlhs, mxArray *plhs[], const mxArray *prhs[])
{
	const char *name = hxgz_string(prhs[0], "name");
	const char *model = hxgz_string(prhs[1], "model");

	hxgz_check(hxs_remove_constraint(name, model));
}

/*================================================================ table */

static const struct hxgz_cmd hxgz_cmds[] = {
	{ "connect", "hx_connect", cmd_connect, 0, 2,
	    "connect(host, port)             connect; none or '' is the "
	    "default server" },
	{ "close", "hx_close", cmd_close, 0, 0,
	    "close                           close the connection" },
	{ "robot_info", "hx_robot_info", cmd_robot_info, 0, 0,
	    "info = robot_info               counts, limits, update rate" },
	{ "update", "hx_update", cmd_update, 1, 1,
	    "sensor = update(command)        send a command, get the sensors" },
	{ "read_sensors", "hx_read_sensors", cmd_read_sensors, 0, 0,
	    "sensor = read_sensors           the latest sensors" },
	{ "sim_info", "hxs_sim_info", cmd_sim_info, 0, 0,
	    "info = sim_info                 models, links, joints, camera" },
	{ "camera_transform", "hxs_camera_transform", cmd_camera_transform, 0,
	    0, "transform = camera_transform" },
	{ "set_camera_transform", "hxs_set_camera_transform",
	    cmd_set_camera_transform, 1, 1, "set_camera_transform(transform)" },
	{ "contacts", "hxs_contacts", cmd_contacts, 1, 1,
	    "contacts = contacts(model)" },
	{ "model_joint_state", "hxs_model_joint_state", cmd_model_joint_state,
	    1, 1, "model = model_joint_state(model)" },
	{ "set_model_joint_state", "hxs_set_model_joint_state",
	    cmd_set_model_joint_state, 4, 4,
	    "set_model_joint_state(model, joint, position, velocity)" },
	{ "add_model", "hxs_add_model", cmd_add_model, 5, 5,
	    "model = add_model(sdf, name, pos, orient, gravity_mode)" },
	{ "remove_model", "hxs_remove_model", cmd_remove_model, 1, 1,
	    "remove_model(model)" },
	{ "model_transform", "hxs_model_transform", cmd_model_transform, 1, 1,
	    "transform = model_transform(model)" },
	{ "set_model_transform", "hxs_set_model_transform",
	    cmd_set_model_transform, 2, 2,
	    "set_model_transform(model, transform)" },
	{ "model_gravity_mode", "hxs_model_gravity_mode",
	    cmd_model_gravity_mode, 1, 1, "mode = model_gravity_mode(model)" },
	{ "set_model_gravity_mode", "hxs_set_model_gravity_mode",
	    cmd_set_model_gravity_mode, 2, 2,
	    "set_model_gravity_mode(model, gravity_mode)" },
	{ "linear_velocity", "hxs_linear_velocity", cmd_linear_velocity, 1, 1,
	    "velocity = linear_velocity(model)" },
	{ "set_linear_velocity", "hxs_set_linear_velocity",
	    cmd_set_linear_velocity, 2, 2,
	    "set_linear_velocity(model, velocity)" },
	{ "angular_velocity", "hxs_angular_velocity", cmd_angular_velocity, 1,
	    1, "velocity = angular_velocity(model)" },
	{ "set_angular_velocity", "hxs_set_angular_velocity",
	    cmd_set_angular_velocity, 2, 2,
	    "set_angular_velocity(model, velocity)" },
	{ "apply_force", "hxs_apply_force", cmd_apply_force, 4, 4,
	    "apply_force(model, link, force, duration)" },
	{ "apply_torque", "hxs_apply_torque", cmd_apply_torque, 4, 4,
	    "apply_torque(model, link, torque, duration)" },
	{ "apply_wrench", "hxs_apply_wrench", cmd_apply_wrench, 4, 4,
	    "apply_wrench(model, link, wrench, duration)" },
	{ "reset", "hxs_reset", cmd_reset, 1, 1, "reset(reset_limb_pose)" },
	{ "start_logging", "hxs_start_logging", cmd_start_logging, 1, 1,
	    "start_logging(filename)" },
	{ "is_logging", "hxs_is_logging", cmd_is_logging, 0, 0,
	    "logging = is_logging" },
	{ "stop_logging", "hxs_stop_logging", cmd_stop_logging, 0, 0,
	    "stop_logging" },
	{ "set_model_color", "hxs_set_model_color", cmd_set_model_color, 2, 2,
	    "set_model_color(model, color)" },
	{ "model_color", "hxs_model_color", cmd_model_color, 1, 1,
	    "color = model_color(model)" },
	{ "set_model_collide_mode", "hxs_set_model_collide_mode",
	    cmd_set_model_collide_mode, 2, 2,
	    "set_model_collide_mode(model, collide_mode)" },
	{ "model_collide_mode", "hxs_model_collide_mode",
	    cmd_model_collide_mode, 1, 1, "mode = model_collide_mode(model)" },
	{ "add_constraint", "hxs_add_constraint", cmd_add_constraint, 2, 2,
	    "add_constraint(sdf, model)" },
	{ "remove_constraint", "hxs_remove_constraint", cmd_remove_constraint,
	    2, 2, "remove_constraint(name, model)" },
};

/* Print the built-in help: every command and its arguments. */
static void
hxgz_help(void)
{
	size_t i;

	mexPrintf("hxgz: Gazebo HAPTIX's MATLAB API over haptixd (libhaptix)."
		  "\nCall it as hxgz('command', args...), or through the "
		  ".m wrappers (hx_update, hxs_sim_info, ...):\n\n");
	for (i = 0; i < sizeof(hxgz_cmds) / sizeof(hxgz_cmds[0]); i++)
		mexPrintf("  %s\n", hxgz_cmds[i].usage);
	mexPrintf("\nErrors are MATLAB errors with identifiers HAPTIX:CALL "
		  "(HAPTIX:hxs_add_model, ...),\nthe message starting with "
		  "the result code.  The MEX file stays locked while "
		  "connected.\nSee docs/matlab.md.\n");
}

/* The command named by the first argument; an unknown one is an error. */
static const struct hxgz_cmd *
hxgz_find(const mxArray *a)
{
	const struct hxgz_cmd *cmd = &hxgz_cmds[0];
	char name[64];
	size_t i;

	if (!mxIsChar(a) || mxGetString(a, name, sizeof(name)) != 0)
		hxgz_raisef("hxgz", "mjCOM_BADCOMMAND",
		    "the first argument must be a command name: hxgz with "
		    "no arguments lists them");
	for (i = 0; i < sizeof(hxgz_cmds) / sizeof(hxgz_cmds[0]); i++)
		if (strcmp(hxgz_cmds[i].name, name) == 0)
			return &hxgz_cmds[i];
	hxgz_raisef("hxgz", "mjCOM_BADCOMMAND",
	    "unknown command '%s': hxgz with no arguments lists them", name);
	return cmd; /* not reached: the error left the MEX function */
}

/*
 * The MEX entry: dispatch on the command name through the table.  The
 * commands see their arguments padded with NULL to the table's maximum,
 * and a command with no result still gives [] to a caller that wants
 * one (Gazebo's hxs_add_constraint.m assigns it).
 */
void
mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	const struct hxgz_cmd *cmd;
	const mxArray *args[8] = { NULL };
	int i;

	if (!hxgz_atexit_set) {
		mexAtExit(hxgz_atexit);
		hxgz_atexit_set = 1;
	}
	hxgz_call = "hxgz";
	if (nrhs == 0) {
		hxgz_help();
		return;
	}
	cmd = hxgz_find(prhs[0]);
	if (nrhs - 1 < cmd->min_in || nrhs - 1 > cmd->max_in)
		hxgz_raisef("hxgz", "mjCOM_BADVALUE",
		    "%s takes %d to %d arguments, not %d; usage: %s", cmd->name,
		    cmd->min_in, cmd->max_in, nrhs - 1, cmd->usage);
	if (nlhs > 1)
		hxgz_raisef("hxgz", "mjCOM_BADVALUE",
		    "%s gives at most one result, not %d", cmd->name, nlhs);
	for (i = 1; i < nrhs; i++)
		args[i - 1] = prhs[i];
	hxgz_call = cmd->call;
	plhs[0] = NULL;
	cmd->fn(nlhs, plhs, args);
	if (nlhs > 0 && plhs[0] == NULL)
		plhs[0] = mxCreateDoubleMatrix(0, 0, mxREAL);
}
