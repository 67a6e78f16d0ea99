/*
 * MuJoCo's computations: hxctl compute WHAT runs one of MuJoCo's
 * functions on the server (an mjData array after mj_forward, mj_inverse,
 * the mass matrix, Jacobians, object velocities, contact forces, energy,
 * rays, differentiatePos and integratePos) through libhaptix's hxd_*
 * function of the same name, on a copy of the live state or of the state
 * the options give, and prints the result as tables labelled with the
 * model's names or, with --json, as one object whose arrays have MuJoCo's
 * shapes.  WHAT is MuJoCo's name without mj_, dashes for underscores.
 */
#include "config.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "haptixd.h"
#include "hxctl_common.h"

/* The options of compute; each computation takes some of them. */
enum comp_opt {
	O_QPOS,
	O_QVEL,
	O_ACT,
	O_CTRL,
	O_MOCAP_POS,
	O_MOCAP_QUAT,
	O_QFRC_APPLIED,
	O_XFRC_APPLIED,
	O_QACC,
	O_Y,
	O_ACC,
	O_POINT,
	O_LOCAL,
	O_LAST_STEP,
	O_PNT,
	O_VEC,
	O_GROUPS,
	O_EXCLUDE_BODY,
	O_NO_STATIC,
	O_QPOS1,
	O_QPOS2,
	O_DT,
	O_N
};

#define B(o) (1u << (o))
/* The options that give a state to compute on. */
#define STATE \
	(B(O_QPOS) | B(O_QVEL) | B(O_ACT) | B(O_CTRL) | B(O_MOCAP_POS) | \
	    B(O_MOCAP_QUAT) | B(O_QFRC_APPLIED) | B(O_XFRC_APPLIED))
/* Whether computation c computes on a state the options may give
 * (integrate-pos takes --qpos and --qvel as its arguments instead). */
#define HAS_STATE(c) (((c)->opts & STATE) == STATE)

static const struct ctl_opt comp_opts[O_N] = {
	[O_QPOS] = { "--qpos", OPT_LIST, 0, NULL, 0, 0 },
	[O_QVEL] = { "--qvel", OPT_LIST, 0, NULL, 0, 0 },
	[O_ACT] = { "--act", OPT_LIST, 0, NULL, 0, 0 },
	[O_CTRL] = { "--ctrl", OPT_LIST, 0, NULL, 0, 0 },
	[O_MOCAP_POS] = { "--mocap-pos", OPT_LIST, 0, NULL, 0, 0 },
	[O_MOCAP_QUAT] = { "--mocap-quat", OPT_LIST, 0, NULL, 0, 0 },
	[O_QFRC_APPLIED] = { "--qfrc-applied", OPT_LIST, 0, NULL, 0, 0 },
	[O_XFRC_APPLIED] = { "--xfrc-applied", OPT_LIST, 0, NULL, 0, 0 },
	[O_QACC] = { "--qacc", OPT_LIST, 0, NULL, 0, 0 },
	[O_Y] = { "--y", OPT_LIST, 0, NULL, 0, 0 },
	[O_ACC] = { "--acc", OPT_FLAG, 0, NULL, 0, 0 },
	[O_POINT] = { "--point", OPT_LIST, 3, NULL, 0, 0 },
	[O_LOCAL] = { "--local", OPT_FLAG, 0, NULL, 0, 0 },
	[O_LAST_STEP] = { "--last-step", OPT_FLAG, 0, NULL, 0, 0 },
	[O_PNT] = { "--pnt", OPT_LIST, 3, NULL, 0, 0 },
	[O_VEC] = { "--vec", OPT_LIST, 3, NULL, 0, 0 },
	[O_GROUPS] = { "--groups", OPT_LIST, 6, NULL, 0, 0 },
	[O_EXCLUDE_BODY] = { "--exclude-body", OPT_STRING, 0, NULL, 0, 0 },
	[O_NO_STATIC] = { "--no-static", OPT_FLAG, 0, NULL, 0, 0 },
	[O_QPOS1] = { "--qpos1", OPT_LIST, 0, NULL, 0, 0 },
	[O_QPOS2] = { "--qpos2", OPT_LIST, 0, NULL, 0, 0 },
	[O_DT] = { "--dt", OPT_STRING, 0, NULL, 0, 0 },
};

/* One run of compute: the options given, the state, the object named. */
struct comp_run {
	struct ctl_opt o[O_N]; /* every option, by enum comp_opt */
	const hxd_cstate *st;  /* the state: NULL for the live one */
	hxd_cstate cst;
	double *arrays[O_XFRC_APPLIED + 2]; /* the state's, and qacc's */
	const char *name;                   /* the object, by name */
	int objtype;                        /* and its type */
	double dt;
};

struct comp;
typedef int comp_fn(struct ctl *, const struct comp *, struct comp_run *);

/* A computation: its name, arguments, options and what it prints. */
struct comp {
	const char *name; /* MuJoCo's, without mj_, dashes for underscores */
	const char *args; /* its own arguments and options */
	const char *help;
	int nargs;     /* positional arguments */
	int objtype;   /* what the last one names: HXD_OBJ_*, or 0 */
	unsigned opts; /* B()s of the options it takes */
	unsigned need; /* of those, the ones it must have */
	comp_fn *fn;
};

static comp_fn comp_forward, comp_inverse, comp_full_m, comp_solve_m, comp_rne,
    comp_jac, comp_motion, comp_contacts, comp_energy, comp_ray,
    comp_differentiate, comp_integrate;

static const struct comp comps[] = {
	{ "forward", "ARRAY",
	    "an mjData (or mjModel) array after mj_forward, as get prints "
	    "it",
	    1, 0, STATE, 0, comp_forward },
	{ "inverse", "[--qacc LIST]",
	    "mj_inverse: qfrc_inverse, the forces that give qacc (--qacc, nv "
	    "values; else mj_forward's)",
	    0, 0, STATE | B(O_QACC), 0, comp_inverse },
	{ "full-m", "", "mj_fullM: the joint-space mass matrix, nv x nv", 0, 0,
	    STATE, 0, comp_full_m },
	{ "solve-m", "--y LIST",
	    "mj_solveM: x = inv(M) y for y of nv values, or k x nv (row after "
	    "row)",
	    0, 0, STATE | B(O_Y), B(O_Y), comp_solve_m },
	{ "rne", "[--acc [--qacc LIST]]",
	    "mj_rne: the bias forces (Coriolis, centrifugal, gravity); with "
	    "--acc, M qacc + bias (qacc: mj_forward's, or --qacc; M without "
	    "the dofs' armature, which full-m's has)",
	    0, 0, STATE | B(O_ACC) | B(O_QACC), 0, comp_rne },
	{ "jac", "BODY --point X,Y,Z",
	    "mj_jac: jacp and jacr (3 x nv each) of a world point moving with "
	    "BODY",
	    1, HXD_OBJ_BODY, STATE | B(O_POINT), B(O_POINT), comp_jac },
	{ "jac-body", "BODY", "mj_jacBody: at BODY's frame", 1, HXD_OBJ_BODY,
	    STATE, 0, comp_jac },
	{ "jac-body-com", "BODY", "mj_jacBodyCom: at BODY's centre of mass", 1,
	    HXD_OBJ_BODY, STATE, 0, comp_jac },
	{ "jac-geom", "GEOM", "mj_jacGeom: at GEOM's centre", 1, HXD_OBJ_GEOM,
	    STATE, 0, comp_jac },
	{ "jac-site", "SITE", "mj_jacSite: at SITE", 1, HXD_OBJ_SITE, STATE, 0,
	    comp_jac },
	{ "object-velocity", "TYPE NAME [--local]",
	    "mj_objectVelocity: angular then linear velocity of a body (at "
	    "its centre of mass, as MuJoCo's mjOBJ_BODY), xbody (at its "
	    "frame), geom or site, in world axes or --local ones",
	    2, 0, STATE | B(O_LOCAL), 0, comp_motion },
	{ "object-acceleration", "TYPE NAME [--local] [--qacc LIST]",
	    "mj_objectAcceleration after mj_rnePostConstraint: as an "
	    "accelerometer reads it, gravity included",
	    2, 0, STATE | B(O_LOCAL) | B(O_QACC), 0, comp_motion },
	{ "contact-forces", "[--last-step]",
	    "mj_contactForce of every contact, in its frame: geoms, bodies, "
	    "dist, force; --last-step: the last step's contacts and solve "
	    "(no state options)",
	    0, 0, STATE | B(O_LAST_STEP), 0, comp_contacts },
	{ "energy", "", "mj_energyPos and mj_energyVel: potential, kinetic", 0,
	    0, STATE, 0, comp_energy },
	{ "ray",
	    "--pnt X,Y,Z --vec X,Y,Z [--groups F,F,F,F,F,F] "
	    "[--exclude-body BODY] [--no-static]",
	    "mj_ray: the first geom from pnt along vec and its distance in "
	    "units of vec; --groups: the 6 geom groups seen (1) or not (0), "
	    "planes and height fields seen whatever their group (as MuJoCo "
	    "2.2.2's mj_ray); --no-static: not the world body's own geoms",
	    0, 0,
	    STATE | B(O_PNT) | B(O_VEC) | B(O_GROUPS) | B(O_EXCLUDE_BODY) |
		B(O_NO_STATIC),
	    B(O_PNT) | B(O_VEC), comp_ray },
	{ "differentiate-pos", "--qpos1 LIST --qpos2 LIST --dt T",
	    "mj_differentiatePos: the qvel (nv) that goes from qpos1 to qpos2 "
	    "(nq each) in T seconds (no state options)",
	    0, 0, B(O_QPOS1) | B(O_QPOS2) | B(O_DT),
	    B(O_QPOS1) | B(O_QPOS2) | B(O_DT), comp_differentiate },
	{ "integrate-pos", "--qpos LIST --qvel LIST --dt T",
	    "mj_integratePos: qpos (nq) moved by qvel (nv) for T seconds (here "
	    "--qpos and --qvel are its arguments, not a state)",
	    0, 0, B(O_QPOS) | B(O_QVEL) | B(O_DT),
	    B(O_QPOS) | B(O_QVEL) | B(O_DT), comp_integrate },
};

/*------------------------------------------------------------- help */

/* Print the computations and the state options (hxctl compute, --help). */
void
compute_help(FILE *f)
{
	const char *p, *sp;
	size_t i;
	int n, col;

	fprintf(f,
	    "\nWHAT is one of MuJoCo's functions, without mj_ and with dashes "
	    "for\nits underscores:\n");
	for (i = 0; i < NELEM(comps); i++) {
		n = fprintf(f, "  %s%s%s", comps[i].name,
		    comps[i].args[0] != '\0' ? " " : "", comps[i].args);
		/* The help, wrapped at 79 columns from column 24. */
		if (n > 22) {
			fprintf(f, "\n%24s", "");
		} else
			fprintf(f, "%*s", 24 - n, "");
		col = 24;
		for (p = comps[i].help; *p != '\0';) {
			sp = strchr(p, ' ');
			n = sp != NULL ? (int)(sp - p) : (int)strlen(p);
			if (col > 24 && col + 1 + n > 79) {
				fprintf(f, "\n%24s", "");
				col = 24;
			} else if (col > 24) {
				fputc(' ', f);
				col++;
			}
			fprintf(f, "%.*s", n, p);
			col += n;
			p += n;
			while (*p == ' ')
				p++;
		}
		fputc('\n', f);
	}
	fprintf(f,
	    "\nState options: compute on this state, each array not given the "
	    "live\none's (all but differentiate-pos, integrate-pos):\n"
	    "  --qpos LIST (nq values), --qvel LIST (nv), --act LIST (na),\n"
	    "  --ctrl LIST (nu), --mocap-pos LIST (3 x nmocap),\n"
	    "  --mocap-quat LIST (4 x nmocap), --qfrc-applied LIST (nv),\n"
	    "  --xfrc-applied LIST (6 x nbody: force, torque)\n"
	    "The server runs mj_forward on a copy of the live data (time, "
	    "warm start\nand all) with these put in, then the function: the "
	    "simulation is not\ntouched.  Objects are named by name or id; "
	    "lists are row-major.\n"
	    "Tables: vectors by dof (joint names), Jacobians as jacp and jacr "
	    "blocks\n(x, y, z by dof); --json: one object, arrays in MuJoCo's "
	    "shapes (jacp\n[[...],[...],[...]], M nv x nv).\n");
}

/*-------------------------------------------------------- arguments */

/* "; did you mean ..." with the computation nearest to what. */
static const char *
comp_mean(const char *what)
{
	const char *names[NELEM(comps)];
	size_t i;

	for (i = 0; i < NELEM(comps); i++)
		names[i] = comps[i].name;
	return ctl_mean(what, names, NELEM(names));
}

/* Find a computation by name, dashes or underscores; NULL if none. */
static const struct comp *
comp_find(const char *what)
{
	char buf[64];
	size_t i;

	if (strlen(what) >= sizeof(buf))
		return NULL;
	for (i = 0; what[i] != '\0'; i++)
		buf[i] = what[i] == '_' ? '-' : what[i];
	buf[i] = '\0';
	for (i = 0; i < NELEM(comps); i++)
		if (strcmp(comps[i].name, buf) == 0)
			return &comps[i];
	return NULL;
}

/* The option of comp_opts called a (without "=value"), or -1. */
static int
comp_opt_index(const char *a)
{
	size_t len = strcspn(a, "=");
	int i;

	for (i = 0; i < O_N; i++)
		if (strlen(comp_opts[i].name) == len &&
		    strncmp(comp_opts[i].name, a, len) == 0)
			return i;
	return -1;
}

/*
 * Sort the arguments after WHAT into r->o and ctl->pos, refusing the
 * options of other computations by name.  Returns 0 or CTL_USAGE.
 */
static int
comp_options(struct ctl *ctl, const struct comp *c, struct comp_run *r)
{
	struct ctl_opt opts[O_N];
	int map[O_N], i, k, n = 0, rc;

	for (i = 0; i < ctl->argc && strcmp(ctl->argv[i], "--") != 0; i++) {
		if (strncmp(ctl->argv[i], "--", 2) != 0)
			continue;
		k = comp_opt_index(ctl->argv[i]);
		if (k >= 0 && (c->opts & B(k)) == 0)
			return ctl_usage_error(ctl, "%s takes no %s%s", c->name,
			    comp_opts[k].name,
			    (STATE & B(k)) != 0 && !HAS_STATE(c) ?
				" (it computes on no state)" :
				"");
	}
	for (i = 0; i < O_N; i++)
		if ((c->opts & B(i)) != 0) {
			map[n] = i;
			opts[n++] = comp_opts[i];
		}
	if ((rc = ctl_options(ctl, opts, n)) != 0)
		return rc;
	memcpy(r->o, comp_opts, sizeof(r->o));
	for (i = 0; i < n; i++)
		r->o[map[i]] = opts[i];
	return CTL_OK;
}

/* Check the arguments of computation c before connecting: 0 or CTL_USAGE. */
static int
comp_check(struct ctl *ctl, const struct comp *c, struct comp_run *r)
{
	double g[6];
	int i;

	if (ctl->npos < c->nargs)
		return ctl_usage_error(ctl, "%s needs %s", c->name, c->args);
	if (ctl->npos > c->nargs)
		return ctl_usage_error(
		    ctl, "unexpected argument '%s'", ctl->pos[c->nargs]);
	for (i = 0; i < O_N; i++)
		if ((c->need & B(i)) != 0 && !r->o[i].given)
			return ctl_usage_error(
			    ctl, "%s needs %s", c->name, comp_opts[i].name);
	if (r->o[O_DT].given &&
	    (parse_double(r->o[O_DT].value, &r->dt) != 0 || fabs(r->dt) > 1e9))
		return ctl_usage_error(ctl,
		    "--dt: '%s' is not a number of seconds (-1e9 to 1e9)",
		    r->o[O_DT].value);
	if (c->fn == comp_differentiate && r->dt == 0)
		return ctl_usage_error(
		    ctl, "--dt is 0: the velocity would be infinite");
	if (r->o[O_GROUPS].given) {
		parse_list(r->o[O_GROUPS].value, g, 6, NULL);
		for (i = 0; i < 6; i++)
			if (g[i] != 0 && g[i] != 1)
				return ctl_usage_error(ctl,
				    "--groups: %g is not 0 or 1 (group %d)",
				    g[i], i);
	}
	if (r->o[O_LAST_STEP].given)
		for (i = 0; i < O_N; i++)
			if ((STATE & B(i)) != 0 && r->o[i].given)
				return ctl_usage_error(ctl,
				    "--last-step computes on the data the last "
				    "step left: %s has no place",
				    comp_opts[i].name);
	if (r->o[O_QACC].given && c->fn == comp_rne && !r->o[O_ACC].given)
		return ctl_usage_error(
		    ctl, "--qacc is used with --acc only: give both");
	if (c->fn == comp_motion) {
		r->objtype = hxd_obj_parse(ctl->pos[0]);
		if (r->objtype != HXD_OBJ_BODY && r->objtype != HXD_OBJ_XBODY &&
		    r->objtype != HXD_OBJ_GEOM && r->objtype != HXD_OBJ_SITE)
			return ctl_usage_error(ctl,
			    "'%s' is not body, xbody, geom or site",
			    ctl->pos[0]);
	} else
		r->objtype = c->objtype;
	return CTL_OK;
}

/*
 * Resolve the object argument, an id or a name, to the name the library
 * takes; an id of an unnamed object cannot be.  0 or CTL_FAIL.
 */
static int
comp_object(struct ctl *ctl, struct comp_run *r, const char *arg)
{
	const char *const *names;
	long v;
	int n;

	r->name = arg;
	if (parse_long(arg, INT_MIN, INT_MAX, &v) != 0)
		return CTL_OK;
	names = table_names(ctl->info, r->objtype, &n);
	if (ctl_id_check(ctl, r->objtype, (int)v, n,
		r->objtype == HXD_OBJ_GEOM     ? "ngeom" :
		    r->objtype == HXD_OBJ_SITE ? "nsite" :
						 "nbody") != 0)
		return CTL_FAIL;
	if (names == NULL || names[v][0] == '\0')
		return ctl_error(ctl, HXD_BADINDEX,
		    "%s %ld has no name, and compute takes objects by name",
		    hxd_obj_name(r->objtype), v);
	r->name = names[v];
	return CTL_OK;
}

/* The list option o into a new array of want numbers; 0 or CTL_FAIL. */
static int
comp_list(struct ctl *ctl, const struct ctl_opt *o, const char *what, int want,
    double **out)
{
	*out = NULL;
	if (!o->given)
		return CTL_OK;
	if ((*out = calloc((size_t)want + 1, sizeof(double))) == NULL)
		return ctl_error(ctl, HXD_CANNOTSEND, "out of memory");
	return ctl_fill(ctl, o, what, *out, want);
}

/* The state the options give, if any; 0 or CTL_FAIL. */
static int
comp_state(struct ctl *ctl, const struct comp *c, struct comp_run *r)
{
	const hxd_model *m = &ctl->info->model;
	static const struct {
		int opt;
		const char *what;
	} arrays[] = {
		{ O_QPOS, "nq" },
		{ O_QVEL, "nv" },
		{ O_ACT, "na" },
		{ O_CTRL, "nu" },
		{ O_MOCAP_POS, "3 x nmocap" },
		{ O_MOCAP_QUAT, "4 x nmocap" },
		{ O_QFRC_APPLIED, "nv" },
		{ O_XFRC_APPLIED, "6 x nbody" },
		{ O_QACC, "nv" },
	};
	const int want[] = { m->nq, m->nv, m->na, m->nu, 3 * m->nmocap,
		4 * m->nmocap, m->nv, 6 * m->nbody, m->nv };
	size_t i;
	int any = 0, rc;

	if (!HAS_STATE(c))
		return CTL_OK;
	hxd_cstate_init(&r->cst, m);
	for (i = 0; i < NELEM(arrays); i++) {
		if ((rc = comp_list(ctl, &r->o[arrays[i].opt], arrays[i].what,
			 want[i], &r->arrays[i])) != 0)
			return rc;
		any |= r->arrays[i] != NULL;
	}
	r->cst.qpos = r->arrays[0];
	r->cst.qvel = r->arrays[1];
	r->cst.act = r->arrays[2];
	r->cst.ctrl = r->arrays[3];
	r->cst.mocap_pos = r->arrays[4];
	r->cst.mocap_quat = r->arrays[5];
	r->cst.qfrc_applied = r->arrays[6];
	r->cst.xfrc_applied = r->arrays[7];
	r->cst.qacc = r->arrays[8];
	r->st = any ? &r->cst : NULL;
	return CTL_OK;
}

/*
 * Report a failed call: an unknown object with the model's name nearest
 * to it.  Returns CTL_FAIL.
 */
static int
comp_fail(struct ctl *ctl, const struct comp_run *r)
{
	if (r->name != NULL)
		return ctl_done_named(ctl, hxd_result(ctl->conn),
		    r->objtype == HXD_OBJ_XBODY ? HXD_OBJ_BODY : r->objtype,
		    r->name);
	return ctl_fail(ctl);
}

/* Run compute: list the computations, or run one. */
int
cmd_compute(struct ctl *ctl)
{
	static struct ctl_cmd sub;
	static char synopsis[256];
	const struct comp *c;
	struct comp_run r;
	size_t i;
	int rc;

	if (ctl->argc == 0) {
		printf("usage: hxctl [options] compute WHAT [ARG...] "
		       "[OPTION...]\n");
		compute_help(stdout);
		return CTL_OK;
	}
	if (strncmp(ctl->argv[0], "-", 1) == 0)
		return ctl_usage_error(ctl,
		    "which computation? WHAT comes first (hxctl compute lists "
		    "them)");
	if ((c = comp_find(ctl->argv[0])) == NULL)
		return ctl_usage_error(ctl,
		    "no computation '%s'%s (hxctl compute lists them)",
		    ctl->argv[0], comp_mean(ctl->argv[0]));
	/* From here on, errors show this computation's usage. */
	sub = *ctl->cmd;
	snprintf(synopsis, sizeof(synopsis), "%s%s%s%s", c->name,
	    c->args[0] != '\0' ? " " : "", c->args,
	    HAS_STATE(c) ? " [STATE OPTIONS]" : "");
	sub.args = synopsis;
	ctl->cmd = &sub;
	ctl->argc--;
	ctl->argv++;
	memset(&r, 0, sizeof(r));
	if ((rc = comp_options(ctl, c, &r)) != 0 ||
	    (rc = comp_check(ctl, c, &r)) != 0)
		return rc;
	if ((rc = ctl_get_info(ctl)) == 0 &&
	    (rc = comp_state(ctl, c, &r)) == 0 &&
	    (c->nargs == 0 || c->fn == comp_forward ||
		(rc = comp_object(ctl, &r, ctl->pos[c->nargs - 1])) == 0))
		rc = c->fn(ctl, c, &r);
	for (i = 0; i < NELEM(r.arrays); i++)
		free(r.arrays[i]);
	return rc;
}

/*----------------------------------------------------------- printing */

/* Write one JSON array of n numbers, an element of the open array or a
 * value after a key: each as the JSON writer writes numbers. */
static void
comp_json_row(const double *v, int n)
{
	int i;

	js_open('[');
	for (i = 0; i < n; i++) {
		if (i > 0)
			putchar(',');
		if (isfinite(v[i]))
			printf("%.17g", v[i]);
		else
			fputs("null", stdout);
	}
	js_close(']');
}

/* Write key and a rows x cols matrix as an array of rows. */
static void
comp_json_matrix(const char *key, const double *v, int rows, int cols)
{
	int i;

	js_key(key);
	js_open('[');
	for (i = 0; i < rows; i++)
		comp_json_row(v + (size_t)i * (size_t)cols, cols);
	js_close(']');
}

/* The label of dof i. */
static const char *
dof_name(const hxd_info *in, int i, char *buf, size_t len)
{
	return table_row_label(in, CTL_DOF, i, buf, len);
}

/*
 * Print ncols vectors of nv values, one row per dof labelled by its
 * joint, each vector a column headed heads[k].
 */
static void
print_dof_columns(const hxd_info *in, const char *const *heads,
    const double *const *cols, int ncols, int nv)
{
	char buf[CTL_LABEL_MAX];
	int i, k, w = table_label_width(in, CTL_DOF, nv), cw;

	printf("%4s  %-*s", "dof", w, "joint");
	for (k = 0; k < ncols; k++) {
		cw = (int)strlen(heads[k]);
		printf(" %*s", cw > HDR_WIDTH ? cw : HDR_WIDTH, heads[k]);
	}
	putchar('\n');
	for (i = 0; i < nv; i++) {
		printf("%4d  %-*s", i, w, dof_name(in, i, buf, sizeof(buf)));
		for (k = 0; k < ncols; k++) {
			cw = (int)strlen(heads[k]);
			printf(" %*.6g", cw > HDR_WIDTH ? cw : HDR_WIDTH,
			    cols[k][i]);
		}
		putchar('\n');
	}
}

/* Print one vector of nv values by dof, its column headed head. */
static void
print_dofs(const hxd_info *in, const char *head, const double *v, int nv)
{
	print_dof_columns(in, &head, &v, 1, nv);
}

/*
 * Print rows x nv values, the columns headed by the dofs' joints and the
 * rows labelled rowlab[i] (NULL: by dof too); corner heads the labels.
 */
static void
print_by_dof_columns(const hxd_info *in, const char *corner,
    const char *const *rowlab, int rows, const double *v, int nv)
{
	char buf[CTL_LABEL_MAX];
	int i, j, w = (int)strlen(corner), n, *cw;

	if ((cw = calloc((size_t)nv + 1, sizeof(*cw))) == NULL)
		return;
	for (i = 0; i < rows; i++) {
		n = (int)strlen(rowlab != NULL ?
			rowlab[i] :
			dof_name(in, i, buf, sizeof(buf)));
		if (n > w)
			w = n;
	}
	printf("%-*s", w, corner);
	for (j = 0; j < nv; j++) {
		dof_name(in, j, buf, sizeof(buf));
		n = (int)strlen(buf);
		cw[j] = n > HDR_WIDTH ? n : HDR_WIDTH;
		printf(" %*s", cw[j], buf);
	}
	putchar('\n');
	for (i = 0; i < rows; i++) {
		printf("%-*s", w,
		    rowlab != NULL ? rowlab[i] :
				     dof_name(in, i, buf, sizeof(buf)));
		for (j = 0; j < nv; j++)
			printf(" %*.6g", cw[j], v[(size_t)i * (size_t)nv + j]);
		putchar('\n');
	}
	free(cw);
}

/* Print a vector the size of qpos one joint per row, with its type. */
static void
print_qpos(const hxd_info *in, const char *title, const double *v, int nq)
{
	char buf[CTL_LABEL_MAX];
	int j, adr, w, width;

	printf("%s\n", title);
	width = table_label_width(in, HXD_OBJ_JOINT, in->model.njnt);
	for (j = 0; j < in->model.njnt; j++) {
		adr = in->jnt_qposadr[j];
		w = table_joint_width(in->jnt_type[j], 0);
		if (adr < 0 || adr + w > nq)
			continue;
		printf("%4d  %-*s  %-5s", j, width,
		    table_obj_label(in, HXD_OBJ_JOINT, j, buf, sizeof(buf)),
		    info_joint_type_name(in->jnt_type[j]));
		table_put_nums(v + adr, w);
		putchar('\n');
	}
}

/*------------------------------------------------------ computations */

/* An array by name after mj_forward: as get prints it. */
static int
comp_forward(struct ctl *ctl, const struct comp *c, struct comp_run *r)
{
	const char *names[1] = { ctl->pos[0] }, *name = ctl->pos[0];
	const char **list_names, *mean = "";
	hxd_query q = {
		.kind = HXD_COMPUTE_ARRAY, .names = names, .nnames = 1
	};
	char buf[CTL_LABEL_MAX], err[512];
	hxd_qresult *res;
	hxd_array *list;
	int rows, cols, k, n, kind = 0, w = 4;

	if (hxd_compute(ctl->conn, &q, 1, r->st, r->st != NULL, 0, &res) !=
	    HXD_OK) {
		if (hxd_result(ctl->conn) != HXD_BADTYPE)
			return ctl_fail(ctl);
		/* An unknown array, with the one nearest to it. */
		snprintf(err, sizeof(err), "%s", hxd_error(ctl->conn));
		if (strncmp(name, "model.", 6) == 0)
			name += 6;
		else if (strncmp(name, "data.", 5) == 0)
			name += 5;
		if (hxd_list_arrays(ctl->conn, &list, &n) == HXD_OK) {
			list_names = calloc((size_t)n + 1, sizeof(*list_names));
			if (list_names != NULL) {
				for (k = 0; k < n; k++)
					list_names[k] = list[k].name;
				mean = ctl_mean(name, list_names, (size_t)n);
				free(list_names);
			}
			free(list);
		}
		return ctl_error(ctl, HXD_BADTYPE, "%s%s", err, mean);
	}
	rows = res->ndim == 2 ? res->shape[0] : 0;
	cols = res->ndim == 2 ? res->shape[1] : 0;
	if ((size_t)rows * (size_t)cols != res->nvalues) {
		hxd_qresults_free(res, 1);
		return ctl_error(ctl, HXD_BADPROTOCOL,
		    "the server sent %zu values for %s", res->nvalues, name);
	}
	if (ctl->json) {
		js_open('{');
		js_ks("name", ctl->pos[0]);
		js_ki("rows", rows);
		js_ki("cols", cols);
		js_kv("values", res->values, rows * cols);
		js_close('}');
		hxd_qresults_free(res, 1);
		return CTL_OK;
	}
	kind = array_rows(ctl->info, name, rows);
	if (kind != 0)
		w = table_label_width(ctl->info, kind, rows);
	printf("%s (after mj_forward, %d x %d)\n", ctl->pos[0], rows, cols);
	for (k = 0; k < rows; k++) {
		printf("%4d  %-*s", k, w,
		    kind != 0 ?
			table_row_label(ctl->info, kind, k, buf, sizeof(buf)) :
			"");
		table_put_nums(res->values + (size_t)k * (size_t)cols, cols);
		putchar('\n');
	}
	hxd_qresults_free(res, 1);
	return CTL_OK;
}

/* mj_inverse: qfrc_inverse by dof. */
static int
comp_inverse(struct ctl *ctl, const struct comp *c, struct comp_run *r)
{
	int nv = ctl->info->model.nv;
	double *v = calloc((size_t)nv + 1, sizeof(double));

	if (v == NULL)
		return ctl_error(ctl, HXD_CANNOTRECV, "out of memory");
	if (hxd_inverse(ctl->conn, r->st, v, nv) != HXD_OK) {
		free(v);
		return comp_fail(ctl, r);
	}
	if (ctl->json) {
		js_open('{');
		js_kv("qfrc_inverse", v, nv);
		js_close('}');
	} else
		print_dofs(ctl->info, "qfrc_inverse", v, nv);
	free(v);
	return CTL_OK;
}

/* mj_fullM: the mass matrix, nv x nv, labelled by dof both ways. */
static int
comp_full_m(struct ctl *ctl, const struct comp *c, struct comp_run *r)
{
	int nv = ctl->info->model.nv;
	double *m = calloc((size_t)nv * (size_t)nv + 1, sizeof(double));

	if (m == NULL)
		return ctl_error(ctl, HXD_CANNOTRECV, "out of memory");
	if (hxd_full_m(ctl->conn, r->st, m, nv) != HXD_OK) {
		free(m);
		return comp_fail(ctl, r);
	}
	if (ctl->json) {
		js_open('{');
		comp_json_matrix("M", m, nv, nv);
		js_close('}');
	} else {
		printf("M (mj_fullM, %d x %d)\n", nv, nv);
		print_by_dof_columns(ctl->info, "", NULL, nv, m, nv);
	}
	free(m);
	return CTL_OK;
}

/* mj_solveM: x for k vectors y of nv. */
static int
comp_solve_m(struct ctl *ctl, const struct comp *c, struct comp_run *r)
{
	const struct ctl_opt *o = &r->o[O_Y];
	int nv = ctl->info->model.nv, k, i, rc = CTL_OK;
	char(*heads)[32] = NULL;
	const char **hp = NULL;
	const double **cols = NULL;
	double *x = NULL, *y = NULL;

	if (nv == 0 || o->count % nv != 0 || o->count == 0)
		return ctl_error(ctl, HXD_BADSIZE,
		    "--y has %d values: the model has nv = %d, and y is nv "
		    "values or k x nv",
		    o->count, nv);
	k = o->count / nv;
	y = calloc((size_t)o->count, sizeof(double));
	x = calloc((size_t)o->count, sizeof(double));
	heads = calloc((size_t)k, sizeof(*heads));
	hp = calloc((size_t)k, sizeof(*hp));
	cols = calloc((size_t)k, sizeof(*cols));
	if (y == NULL || x == NULL || heads == NULL || hp == NULL ||
	    cols == NULL) {
		rc = ctl_error(ctl, HXD_CANNOTRECV, "out of memory");
		goto out;
	}
	parse_list(o->value, y, o->count, NULL);
	if (hxd_solve_m(ctl->conn, r->st, x, y, k, nv) != HXD_OK) {
		rc = comp_fail(ctl, r);
		goto out;
	}
	if (ctl->json) {
		js_open('{');
		if (k == 1)
			js_kv("x", x, nv);
		else
			comp_json_matrix("x", x, k, nv);
		js_close('}');
		goto out;
	}
	for (i = 0; i < k; i++) {
		if (k == 1)
			snprintf(heads[i], sizeof(heads[i]), "x");
		else
			snprintf(heads[i], sizeof(heads[i]), "x[%d]", i);
		hp[i] = heads[i];
		cols[i] = x + (size_t)i * (size_t)nv;
	}
	print_dof_columns(ctl->info, hp, cols, k, nv);
out:
	free(y);
	free(x);
	free(heads);
	free(hp);
	free(cols);
	return rc;
}

/* mj_rne: the bias forces, or M qacc + bias, by dof. */
static int
comp_rne(struct ctl *ctl, const struct comp *c, struct comp_run *r)
{
	int nv = ctl->info->model.nv, acc = r->o[O_ACC].given;
	double *v = calloc((size_t)nv + 1, sizeof(double));

	if (v == NULL)
		return ctl_error(ctl, HXD_CANNOTRECV, "out of memory");
	if (hxd_rne(ctl->conn, r->st, acc, v, nv) != HXD_OK) {
		free(v);
		return comp_fail(ctl, r);
	}
	if (ctl->json) {
		js_open('{');
		js_kb("flg_acc", acc);
		js_kv("result", v, nv);
		js_close('}');
	} else
		print_dofs(ctl->info, acc ? "M qacc + bias" : "bias", v, nv);
	free(v);
	return CTL_OK;
}

/* The Jacobians: two 3 x nv blocks, x, y, z by dof. */
static int
comp_jac(struct ctl *ctl, const struct comp *c, struct comp_run *r)
{
	static const char *const xyz[3] = { "x", "y", "z" };
	int nv = ctl->info->model.nv, rc;
	double *jac = calloc(6 * (size_t)nv + 1, sizeof(double)), point[3];
	const char *word = hxd_obj_name(r->objtype);

	if (jac == NULL)
		return ctl_error(ctl, HXD_CANNOTRECV, "out of memory");
	if (c->objtype == HXD_OBJ_BODY && r->o[O_POINT].given) {
		parse_list(r->o[O_POINT].value, point, 3, NULL);
		rc = hxd_jac(
		    ctl->conn, r->st, r->name, point, jac, jac + 3 * nv, nv);
	} else if (strcmp(c->name, "jac-body") == 0)
		rc = hxd_jac_body(
		    ctl->conn, r->st, r->name, jac, jac + 3 * nv, nv);
	else if (strcmp(c->name, "jac-body-com") == 0)
		rc = hxd_jac_body_com(
		    ctl->conn, r->st, r->name, jac, jac + 3 * nv, nv);
	else if (c->objtype == HXD_OBJ_GEOM)
		rc = hxd_jac_geom(
		    ctl->conn, r->st, r->name, jac, jac + 3 * nv, nv);
	else
		rc = hxd_jac_site(
		    ctl->conn, r->st, r->name, jac, jac + 3 * nv, nv);
	if (rc != HXD_OK) {
		free(jac);
		return comp_fail(ctl, r);
	}
	if (ctl->json) {
		js_open('{');
		js_ks(word, r->name);
		if (r->o[O_POINT].given)
			js_kv("point", point, 3);
		comp_json_matrix("jacp", jac, 3, nv);
		comp_json_matrix("jacr", jac + 3 * nv, 3, nv);
		js_close('}');
	} else {
		printf("jacp (translation) of %s %s", word, r->name);
		if (r->o[O_POINT].given)
			printf(" at %g %g %g", point[0], point[1], point[2]);
		putchar('\n');
		print_by_dof_columns(ctl->info, "", xyz, 3, jac, nv);
		printf("jacr (rotation)\n");
		print_by_dof_columns(ctl->info, "", xyz, 3, jac + 3 * nv, nv);
	}
	free(jac);
	return CTL_OK;
}

/* An object's velocity or acceleration: angular, then linear. */
static int
comp_motion(struct ctl *ctl, const struct comp *c, struct comp_run *r)
{
	int local = r->o[O_LOCAL].given, rc;
	const char *word = hxd_obj_name(r->objtype);
	double res[6];

	if (strcmp(c->name, "object-velocity") == 0)
		rc = hxd_object_velocity(
		    ctl->conn, r->st, r->objtype, r->name, local, res);
	else
		rc = hxd_object_acceleration(
		    ctl->conn, r->st, r->objtype, r->name, local, res);
	if (rc != HXD_OK)
		return comp_fail(ctl, r);
	if (ctl->json) {
		js_open('{');
		js_ks("type", word);
		js_ks("name", r->name);
		js_kb("local", local);
		js_kv("res", res, 6);
		js_close('}');
		return CTL_OK;
	}
	printf("%s %s %s, %s axes (angular first, as MuJoCo's)\n", word,
	    r->name,
	    strcmp(c->name, "object-velocity") == 0 ? "velocity" :
						      "acceleration",
	    local ? "its own" : "world");
	printf("%-8s" HDR HDR HDR "\n", "", "x", "y", "z");
	printf("%-8s", "angular");
	table_put_nums(res, 3);
	printf("\n%-8s", "linear");
	table_put_nums(res + 3, 3);
	putchar('\n');
	return CTL_OK;
}

/* A contact's name: its own, or "#ID" if it has none. */
static const char *
contact_name(const char *name, int id, char *buf, size_t len)
{
	if (name[0] != '\0')
		return name;
	snprintf(buf, len, "#%d", id);
	return buf;
}

/* Write one contact as a JSON object. */
static void
contact_json(const hxd_contact_force *f)
{
	js_open('{');
	js_ks("geom1", f->geom1_name);
	js_ks("geom2", f->geom2_name);
	js_ks("body1", f->body1_name);
	js_ks("body2", f->body2_name);
	js_ki("geom1_id", f->geom1);
	js_ki("geom2_id", f->geom2);
	js_ki("body1_id", f->body1);
	js_ki("body2_id", f->body2);
	js_kv("force", f->force, 6);
	js_kn("dist", f->dist);
	js_kv("pos", f->pos, 3);
	comp_json_matrix("frame", f->frame, 3, 3);
	js_close('}');
}

/* Every contact's force: one row per contact. */
static int
comp_contacts(struct ctl *ctl, const struct comp *c, struct comp_run *r)
{
	char b[4][CTL_LABEL_MAX];
	int last = r->o[O_LAST_STEP].given, n, i, k, w[4] = { 5, 5, 5, 5 }, len;
	hxd_contact_force *f;

	if (hxd_contact_forces(ctl->conn, r->st, last, &f, &n) != HXD_OK)
		return comp_fail(ctl, r);
	if (ctl->json) {
		js_open('{');
		js_kb("last_step", last);
		js_key("contacts");
		js_open('[');
		for (i = 0; i < n; i++)
			contact_json(&f[i]);
		js_close(']');
		js_close('}');
		free(f);
		return CTL_OK;
	}
	printf("%d contact%s, %s\n", n, n == 1 ? "" : "s",
	    last ? "as the last step left them" : "after mj_forward");
	for (i = 0; i < n; i++) {
		const char *nm[4] = { f[i].geom1_name, f[i].geom2_name,
			f[i].body1_name, f[i].body2_name };
		const int id[4] = { f[i].geom1, f[i].geom2, f[i].body1,
			f[i].body2 };
		for (k = 0; k < 4; k++) {
			len = (int)strlen(
			    contact_name(nm[k], id[k], b[k], sizeof(b[k])));
			if (len > w[k])
				w[k] = len;
		}
	}
	if (n > 0)
		printf("%4s  %-*s  %-*s  %-*s  %-*s" HDR HDR HDR HDR HDR HDR HDR
		       "\n",
		    "id", w[0], "geom1", w[1], "geom2", w[2], "body1", w[3],
		    "body2", "dist", "normal", "tangent1", "tangent2",
		    "torsion", "roll1", "roll2");
	for (i = 0; i < n; i++) {
		printf("%4d  %-*s  %-*s  %-*s  %-*s", i, w[0],
		    contact_name(
			f[i].geom1_name, f[i].geom1, b[0], sizeof(b[0])),
		    w[1],
		    contact_name(
			f[i].geom2_name, f[i].geom2, b[1], sizeof(b[1])),
		    w[2],
		    contact_name(
			f[i].body1_name, f[i].body1, b[2], sizeof(b[2])),
		    w[3],
		    contact_name(
			f[i].body2_name, f[i].body2, b[3], sizeof(b[3])));
		table_put_nums(&f[i].dist, 1);
		table_put_nums(f[i].force, 6);
		putchar('\n');
	}
	free(f);
	return CTL_OK;
}

/* mj_energyPos, mj_energyVel. */
static int
comp_energy(struct ctl *ctl, const struct comp *c, struct comp_run *r)
{
	double e[2];

	if (hxd_energy(ctl->conn, r->st, e) != HXD_OK)
		return comp_fail(ctl, r);
	if (ctl->json) {
		js_open('{');
		js_kv("energy", e, 2);
		js_kn("potential", e[0]);
		js_kn("kinetic", e[1]);
		js_close('}');
		return CTL_OK;
	}
	printf(
	    "%-9s" NUM "\n%-9s" NUM "\n", "potential", e[0], "kinetic", e[1]);
	return CTL_OK;
}

/* mj_ray: the geom hit, its distance and the point. */
static int
comp_ray(struct ctl *ctl, const struct comp *c, struct comp_run *r)
{
	const hxd_info *in = ctl->info;
	double pnt[3], vec[3], g[6], dist, hit[3];
	unsigned char groups[6];
	hxd_ray_options opt = { NULL, 0, NULL };
	char buf[CTL_LABEL_MAX];
	int geom, i, body;

	parse_list(r->o[O_PNT].value, pnt, 3, NULL);
	parse_list(r->o[O_VEC].value, vec, 3, NULL);
	if (r->o[O_GROUPS].given) {
		parse_list(r->o[O_GROUPS].value, g, 6, NULL);
		for (i = 0; i < 6; i++)
			groups[i] = g[i] != 0;
		opt.geomgroup = groups;
	}
	opt.exclude_static = r->o[O_NO_STATIC].given;
	opt.exclude_body = r->o[O_EXCLUDE_BODY].value;
	if (opt.exclude_body != NULL) {
		r->name = opt.exclude_body;
		r->objtype = HXD_OBJ_BODY;
	}
	if (hxd_ray(ctl->conn, r->st, pnt, vec, &opt, &geom, &dist) != HXD_OK)
		return comp_fail(ctl, r);
	for (i = 0; i < 3; i++)
		hit[i] = pnt[i] + dist * vec[i];
	if (ctl->json) {
		js_open('{');
		js_kv("pnt", pnt, 3);
		js_kv("vec", vec, 3);
		js_ki("geomid", geom);
		if (geom >= 0) {
			js_ks("geom",
			    table_obj_label(
				in, HXD_OBJ_GEOM, geom, buf, sizeof(buf)));
			js_kn("dist", dist);
			js_kv("point", hit, 3);
		} else {
			js_knull("geom");
			js_kn("dist", dist);
			js_knull("point");
		}
		js_close('}');
		return CTL_OK;
	}
	if (geom < 0) {
		printf("no geom hit\n");
		return CTL_OK;
	}
	body = geom < in->model.ngeom ? in->geom_bodyid[geom] : -1;
	printf("geom   %d  %s", geom,
	    table_obj_label(in, HXD_OBJ_GEOM, geom, buf, sizeof(buf)));
	printf(" (body %s)\n",
	    table_obj_label(in, HXD_OBJ_BODY, body, buf, sizeof(buf)));
	printf("dist  " NUM " (units of vec)\npoint ", dist);
	table_put_nums(hit, 3);
	putchar('\n');
	return CTL_OK;
}

/* mj_differentiatePos: qvel by dof. */
static int
comp_differentiate(struct ctl *ctl, const struct comp *c, struct comp_run *r)
{
	const hxd_model *m = &ctl->info->model;
	double *q1 = NULL, *q2 = NULL, *v = NULL;
	int rc;

	if ((rc = comp_list(ctl, &r->o[O_QPOS1], "nq", m->nq, &q1)) == 0 &&
	    (rc = comp_list(ctl, &r->o[O_QPOS2], "nq", m->nq, &q2)) == 0) {
		if ((v = calloc((size_t)m->nv + 1, sizeof(double))) == NULL)
			rc = ctl_error(ctl, HXD_CANNOTRECV, "out of memory");
		else if (hxd_differentiate_pos(ctl->conn, v, m->nv, r->dt, q1,
			     q2, m->nq) != HXD_OK)
			rc = ctl_fail(ctl);
		else if (ctl->json) {
			js_open('{');
			js_kv("qvel", v, m->nv);
			js_close('}');
		} else
			print_dofs(ctl->info, "qvel", v, m->nv);
	}
	free(q1);
	free(q2);
	free(v);
	return rc;
}

/* mj_integratePos: qpos by joint. */
static int
comp_integrate(struct ctl *ctl, const struct comp *c, struct comp_run *r)
{
	const hxd_model *m = &ctl->info->model;
	double *q = NULL, *v = NULL;
	int rc;

	if ((rc = comp_list(ctl, &r->o[O_QPOS], "nq", m->nq, &q)) == 0 &&
	    (rc = comp_list(ctl, &r->o[O_QVEL], "nv", m->nv, &v)) == 0) {
		if (hxd_integrate_pos(ctl->conn, q, m->nq, v, m->nv, r->dt) !=
		    HXD_OK)
			rc = ctl_fail(ctl);
		else if (ctl->json) {
			js_open('{');
			js_kv("qpos", q, m->nq);
			js_close('}');
		} else
			print_qpos(ctl->info, "qpos", q, m->nq);
	}
	free(q);
	free(v);
	return rc;
}
