/*
 * Setting the state: the whole of qpos, qvel and act, the controls,
 * the applied forces, or one body or mocap body (and showing one body);
 * what the command line does not give keeps its value.  One joint's
 * commands are hxctl_joint.c's.
 */
#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "haptixd.h"
#include "hxctl_common.h"

/* A quantity of hxd_onebody: how body shows it, how set-body sets it. */
struct onebody_member {
	const char *name;
	const char *opt; /* set-body's option, or NULL if it cannot set it */
	size_t off;      /* offsetof it in hxd_onebody */
	int n;           /* values */
	unsigned flag;   /* HXD_ONEBODY_*, for hxd_set_onebody() */
};

static int state_joints(struct ctl *, hxd_state *);
static int applied_bodies(struct ctl *, hxd_applied *);

/* The quantities of one body, in the order body shows them. */
/* clang-format off */
#define ONEBODY(m, n, flag) { #m, "--" #m, offsetof(hxd_onebody, m), n, flag }
#define ONEBODY_RO(m) { #m, NULL, offsetof(hxd_onebody, m), 3, 0 }
/* clang-format on */
static const struct onebody_member onebody_members[] = {
	ONEBODY(pos, 3, HXD_ONEBODY_POS),
	ONEBODY(quat, 4, HXD_ONEBODY_QUAT),
	ONEBODY(linvel, 3, HXD_ONEBODY_LINVEL),
	ONEBODY(angvel, 3, HXD_ONEBODY_ANGVEL),
	ONEBODY_RO(linacc),
	ONEBODY_RO(angacc),
	ONEBODY_RO(contactforce),
	ONEBODY(force, 3, HXD_ONEBODY_FORCE),
	ONEBODY(torque, 3, HXD_ONEBODY_TORQUE),
};

/* What hxd_set_onebody() writes only for floating bodies. */
#define ONEBODY_FLOATING \
	(HXD_ONEBODY_POS | HXD_ONEBODY_QUAT | HXD_ONEBODY_LINVEL | \
	    HXD_ONEBODY_ANGVEL)

/*--------------------------------------------------------- the state */

/* Set the state; what the command line does not give keeps its value. */
int
cmd_set_state(struct ctl *ctl)
{
	struct ctl_opt opts[] = {
		{ "--qpos", OPT_LIST, 0, NULL, 0, 0 },
		{ "--qvel", OPT_LIST, 0, NULL, 0, 0 },
		{ "--act", OPT_LIST, 0, NULL, 0, 0 },
	};
	hxd_state *st;
	int rc;

	if ((rc = ctl_assign_options(
		 ctl, opts, NELEM(opts), 0, "JOINT=LIST")) != 0 ||
	    (rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_get_state(ctl->conn, &st) != HXD_OK)
		return ctl_fail(ctl);
	if ((rc = ctl_fill(ctl, &opts[0], "nq", st->qpos, st->nq)) == 0 &&
	    (rc = ctl_fill(ctl, &opts[1], "nv", st->qvel, st->nv)) == 0 &&
	    (rc = ctl_fill(ctl, &opts[2], "na", st->act, st->na)) == 0 &&
	    (rc = state_joints(ctl, st)) == 0)
		rc = ctl_done(ctl, hxd_set_state(ctl->conn, st));
	free(st);
	return rc;
}

/* Write the JOINT=LIST arguments into qpos; 0 or CTL_FAIL. */
static int
state_joints(struct ctl *ctl, hxd_state *st)
{
	char name[CTL_NAME_MAX];
	const hxd_info *in;
	const char *v;
	int i, id, w, adr, n, rc;

	for (i = 0; i < ctl->npos; i++) {
		v = parse_assign(ctl->pos[i], name, sizeof(name));
		if ((rc = ctl_object(ctl, HXD_OBJ_JOINT, name, &id)) != 0 ||
		    (rc = ctl_get_info(ctl)) != 0)
			return rc;
		in = ctl->info;
		if ((rc = ctl_id_check(
			 ctl, HXD_OBJ_JOINT, id, in->model.njnt, "njnt")) != 0)
			return rc;
		w = table_joint_width(in->jnt_type[id], 0);
		adr = in->jnt_qposadr[id];
		if ((n = parse_list(v, NULL, 0, NULL)) != w)
			return ctl_error(ctl, HXD_BADSIZE,
			    "joint %s (%s) has %d qpos value%s, not %d", name,
			    info_joint_type_name(in->jnt_type[id]), w,
			    w == 1 ? "" : "s", n);
		if (adr < 0 || adr + w > st->nq)
			return ctl_error(ctl, HXD_BADSIZE,
			    "the model changed while hxctl ran");
		parse_list(v, st->qpos + adr, w, NULL);
	}
	return CTL_OK;
}

/* Set all the controls, or the named ones. */
int
cmd_set_ctrl(struct ctl *ctl)
{
	hxd_control *c;
	int named, rc;

	if ((rc = controls_check(ctl, ctl->argv, ctl->argc, &named)) != 0 ||
	    (rc = controls_build(ctl, ctl->argv, ctl->argc, named, &c)) != 0)
		return rc;
	rc = ctl_done(ctl, hxd_set_control(ctl->conn, c));
	free(c);
	return rc;
}

/* Set the applied forces; what is not given keeps its value. */
int
cmd_set_applied(struct ctl *ctl)
{
	struct ctl_opt opts[] = {
		{ "--clear", OPT_FLAG, 0, NULL, 0, 0 },
		{ "--qfrc", OPT_LIST, 0, NULL, 0, 0 },
		{ "--xfrc", OPT_LIST, 0, NULL, 0, 0 },
	};
	hxd_applied *a;
	int rc;

	if ((rc = ctl_assign_options(
		 ctl, opts, NELEM(opts), 6, "BODY=FX,FY,FZ,TX,TY,TZ")) != 0 ||
	    (rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_get_applied(ctl->conn, &a) != HXD_OK)
		return ctl_fail(ctl);
	if (opts[0].given) {
		memset(a->qfrc_applied, 0, (size_t)a->nv * sizeof(double));
		memset(
		    a->xfrc_applied, 0, 6 * (size_t)a->nbody * sizeof(double));
	}
	if ((rc = ctl_fill(ctl, &opts[1], "nv", a->qfrc_applied, a->nv)) == 0 &&
	    (rc = ctl_fill(ctl, &opts[2], "6 x nbody", a->xfrc_applied,
		 6 * a->nbody)) == 0 &&
	    (rc = applied_bodies(ctl, a)) == 0)
		rc = ctl_done(ctl, hxd_set_applied(ctl->conn, a));
	free(a);
	return rc;
}

/* Write the BODY=LIST arguments into xfrc_applied; 0 or CTL_FAIL. */
static int
applied_bodies(struct ctl *ctl, hxd_applied *a)
{
	char name[CTL_NAME_MAX];
	const char *v;
	int i, id, rc;

	for (i = 0; i < ctl->npos; i++) {
		v = parse_assign(ctl->pos[i], name, sizeof(name));
		if ((rc = ctl_object(ctl, HXD_OBJ_BODY, name, &id)) != 0 ||
		    (rc = ctl_id_check(
			 ctl, HXD_OBJ_BODY, id, a->nbody, "nbody")) != 0)
			return rc;
		parse_list(v, a->xfrc_applied + 6 * id, 6, NULL);
	}
	return CTL_OK;
}

/*---------------------------------------------------------- one body */

/* Show one body's pose, velocities, accelerations and forces. */
int
cmd_body(struct ctl *ctl)
{
	const struct onebody_member *m;
	const double *v;
	hxd_onebody b;
	char name[256];
	size_t i;
	int id, rc;

	if ((rc = ctl_object(ctl, HXD_OBJ_BODY, ctl->argv[0], &id)) != 0 ||
	    (rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_get_onebody(ctl->conn, id, &b) != HXD_OK)
		return ctl_fail(ctl);
	if (ctl->json) {
		js_open('{');
		js_ki("body_id", b.body_id);
		js_kb("is_floating", b.is_floating);
		js_kn("time", b.time);
	} else {
		if (hxd_id2name(ctl->conn, HXD_OBJ_BODY, id, name,
			sizeof(name)) != HXD_OK)
			return ctl_fail(ctl);
		printf("%-12s %d %s (%s)\n", "body", b.body_id,
		    name[0] != '\0' ? name : "(unnamed)",
		    b.is_floating ? "floating" : "not floating");
		printf("%-12s %.10g\n", "time", b.time);
	}
	for (i = 0; i < NELEM(onebody_members); i++) {
		m = &onebody_members[i];
		v = &MEMBER(double, &b, m->off);
		if (ctl->json)
			js_kv(m->name, v, m->n);
		else {
			printf("%-12s", m->name);
			table_put_nums(v, m->n);
			putchar('\n');
		}
	}
	if (ctl->json)
		js_close('}');
	return CTL_OK;
}

/* Set quantities of one body, chosen by the options given. */
int
cmd_set_body(struct ctl *ctl)
{
	struct ctl_opt opts[NELEM(onebody_members)];
	const struct onebody_member *m;
	hxd_onebody b;
	unsigned fields = 0;
	int id, rc;
	size_t i;

	/* No more can be right: a body, and six options with values. */
	if (ctl->argc > 16)
		return ctl_usage_error(ctl, "too many arguments");
	memset(opts, 0, sizeof(opts));
	for (i = 0; i < NELEM(opts); i++) {
		opts[i].name = onebody_members[i].opt;
		opts[i].kind = OPT_LIST;
		opts[i].want = onebody_members[i].n;
	}
	if ((rc = ctl_options(ctl, opts, NELEM(opts))) != 0 ||
	    (rc = ctl_which(ctl, "body")) != 0)
		return rc;
	for (i = 0; i < NELEM(opts); i++) {
		if (opts[i].given)
			fields |= onebody_members[i].flag;
	}
	if (fields == 0)
		return ctl_usage_error(ctl, "nothing to set");
	if ((rc = ctl_object(ctl, HXD_OBJ_BODY, ctl->pos[0], &id)) != 0 ||
	    (rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_get_onebody(ctl->conn, id, &b) != HXD_OK)
		return ctl_fail(ctl);
	for (i = 0; i < NELEM(opts); i++) {
		m = &onebody_members[i];
		if (opts[i].given)
			parse_list(opts[i].value,
			    (double *)(void *)((char *)&b + m->off), m->n,
			    NULL);
	}
	if (!b.is_floating && (fields & ONEBODY_FLOATING))
		fprintf(stderr,
		    "hxctl: %s: warning: body %s is not floating: "
		    "its pos, quat, linvel and angvel stay as they are\n",
		    ctl->cmd->name, ctl->pos[0]);
	return ctl_done(ctl, hxd_set_onebody(ctl->conn, &b, fields));
}

/* Move one mocap body, named by its body's id or name. */
int
cmd_set_mocap(struct ctl *ctl)
{
	struct ctl_opt opts[] = {
		{ "--pos", OPT_LIST, 3, NULL, 0, 0 },
		{ "--quat", OPT_LIST, 4, NULL, 0, 0 },
		{ "--over", OPT_STRING, 0, NULL, 0, 0 },
	};
	hxd_mocap *mc;
	double seconds, quat[4];
	int id, k, rc;

	if ((rc = ctl_options(ctl, opts, NELEM(opts))) != 0 ||
	    (rc = ctl_which(ctl, "body")) != 0)
		return rc;
	if (!opts[0].given && !opts[1].given)
		return ctl_usage_error(ctl, "nothing to set");
	if (opts[2].given &&
	    (parse_double(opts[2].value, &seconds) != 0 || seconds < 0))
		return ctl_usage_error(ctl,
		    "--over: '%s' is not a time in seconds", opts[2].value);
	if ((rc = ctl_object(ctl, HXD_OBJ_BODY, ctl->pos[0], &id)) != 0 ||
	    (rc = ctl_get_info(ctl)) != 0 ||
	    (rc = ctl_id_check(
		 ctl, HXD_OBJ_BODY, id, ctl->info->model.nbody, "nbody")) != 0)
		return rc;
	if ((k = ctl->info->body_mocapid[id]) < 0)
		return ctl_error(ctl, HXD_BADINDEX,
		    "body %s is not a mocap body", ctl->pos[0]);
	if (hxd_get_mocap(ctl->conn, &mc) != HXD_OK)
		return ctl_fail(ctl);
	if (k >= mc->nmocap)
		rc = ctl_error(
		    ctl, HXD_BADSIZE, "the model changed while hxctl ran");
	else {
		if (opts[0].given)
			parse_list(opts[0].value, mc->pos + 3 * k, 3, NULL);
		if (opts[1].given)
			parse_list(opts[1].value, quat, 4, NULL);
		if (opts[1].given)
			memcpy(mc->quat + 4 * k, quat, sizeof(quat));
		/* --over: the server moves it smoothly, step by step. */
		if (opts[2].given)
			rc = ctl_done(ctl,
			    hxd_mocap_move(ctl->conn, k, NULL, mc->pos + 3 * k,
				opts[1].given ? quat : NULL, seconds));
		else
			rc = ctl_done(ctl, hxd_set_mocap(ctl->conn, mc));
	}
	free(mc);
	return rc;
}
