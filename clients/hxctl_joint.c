/*
 * One joint by its name or id: showing what it is and its state (joint),
 * and setting its qpos and qvel (set-joint).
 */
#include "config.h"

#include <limits.h>
#include <stdio.h>

#include "haptixd.h"
#include "hxctl_common.h"

static void joint_json(const hxd_joint *, const char *);
static void joint_print(const hxd_joint *, const char *);

/* Show one joint: what it is, and its state. */
int
cmd_joint(struct ctl *ctl)
{
	static const char *const types[] = { "free", "ball", "slide", "hinge" };
	const char *type;
	hxd_joint j;
	int id, rc;

	if ((rc = ctl_object(ctl, HXD_OBJ_JOINT, ctl->argv[0], &id)) != 0 ||
	    (rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_get_joint(ctl->conn, NULL, id, &j) != HXD_OK)
		return ctl_fail(ctl);
	type = j.type >= 0 && j.type < 4 ? types[j.type] : "?";
	if (ctl->json)
		joint_json(&j, type);
	else
		joint_print(&j, type);
	return CTL_OK;
}

/* One joint as a JSON object; type is its type's name. */
static void
joint_json(const hxd_joint *j, const char *type)
{
	js_open('{');
	js_ks("name", j->name);
	js_ki("id", j->id);
	js_ks("type", type);
	js_ks("body", j->body);
	js_ki("body_id", j->body_id);
	js_ki("qpos_adr", j->qpos_adr);
	js_ki("dof_adr", j->dof_adr);
	js_kv("axis", j->axis, 3);
	js_kb("limited", j->limited);
	js_kv("range", j->range, 2);
	js_kv("qpos", j->qpos, j->nq);
	js_kv("qvel", j->qvel, j->nv);
	js_kn("time", j->time);
	js_close('}');
}

/* One joint as a table; type is its type's name. */
static void
joint_print(const hxd_joint *j, const char *type)
{
	printf("%-12s %d %s (%s)\n", "joint", j->id,
	    j->name[0] != '\0' ? j->name : "(unnamed)", type);
	printf("%-12s %d %s\n", "body", j->body_id,
	    j->body[0] != '\0' ? j->body : "(unnamed)");
	printf(
	    "%-12s qpos[%d], qvel[%d]\n", "addresses", j->qpos_adr, j->dof_adr);
	printf("%-12s", "axis");
	table_put_nums(j->axis, 3);
	putchar('\n');
	if (j->limited)
		printf(
		    "%-12s %.10g %.10g\n", "range", j->range[0], j->range[1]);
	else
		printf("%-12s %s\n", "range", "not limited");
	printf("%-12s", "qpos");
	table_put_nums(j->qpos, j->nq);
	putchar('\n');
	printf("%-12s", "qvel");
	table_put_nums(j->qvel, j->nv);
	putchar('\n');
	printf("%-12s %.10g\n", "time", j->time);
}

/* Set one joint's qpos and/or qvel, by its name (or id). */
int
cmd_set_joint(struct ctl *ctl)
{
	struct ctl_opt opts[] = {
		{ "--qpos", OPT_LIST, 0, NULL, 0, 0 },
		{ "--qvel", OPT_LIST, 0, NULL, 0, 0 },
	};
	double qpos[7], qvel[6];
	char name[1024];
	long id;
	int nq = 0, nv = 0, rc;

	if ((rc = ctl_options(ctl, opts, NELEM(opts))) != 0 ||
	    (rc = ctl_which(ctl, "joint")) != 0)
		return rc;
	if (!opts[0].given && !opts[1].given)
		return ctl_usage_error(ctl, "nothing to set");
	if (opts[0].given && (nq = opts[0].count) > 7)
		return ctl_usage_error(
		    ctl, "--qpos: %d values; a joint has 1, 4 or 7", nq);
	if (opts[1].given && (nv = opts[1].count) > 6)
		return ctl_usage_error(
		    ctl, "--qvel: %d values; a joint has 1, 3 or 6", nv);
	parse_list(opts[0].given ? opts[0].value : "0", qpos, 7, NULL);
	parse_list(opts[1].given ? opts[1].value : "0", qvel, 6, NULL);
	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	snprintf(name, sizeof(name), "%s", ctl->pos[0]);
	if (parse_long(ctl->pos[0], INT_MIN, INT_MAX, &id) == 0) {
		if (hxd_id2name(ctl->conn, HXD_OBJ_JOINT, (int)id, name,
			sizeof(name)) != HXD_OK)
			return ctl_fail(ctl);
		if (name[0] == '\0')
			return ctl_error(ctl, HXD_BADINDEX,
			    "joint %ld has no name to set it by", id);
	}
	return ctl_done_named(ctl,
	    hxd_set_joint(ctl->conn, name, qpos, nq, qvel, nv), HXD_OBJ_JOINT,
	    name);
}
