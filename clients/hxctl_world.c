/*
 * hxctl's World API commands (Gazebo HAPTIX's haptix_sim.h, the world
 * area of the protocol): the forces the server keeps applying (gravity
 * off per body, timed wrenches), the view camera the viewers share, and
 * a body subtree's collide mode.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hxctl_common.h"

/* Collide modes by name, numbered as HXD_COLLIDE_*. */
static const char *const world_modes[] = { "none", "detect", "collide" };

/* Print the bodies whose gravity is off and the wrenches in effect. */
static void
world_forces_print(struct ctl *ctl, const int *off, int n, int wrenches)
{
	char name[1024];
	int i;

	if (ctl->json) {
		js_open('{');
		js_key("gravity_off");
		js_open('[');
		for (i = 0; i < n; i++) {
			if (hxd_id2name(ctl->conn, HXD_OBJ_BODY, off[i], name,
				sizeof(name)) != HXD_OK)
				name[0] = '\0';
			js_open('{');
			js_ki("id", off[i]);
			js_ks("name", name);
			js_close('}');
		}
		js_close(']');
		js_ki("wrenches", wrenches);
		js_close('}');
		return;
	}
	printf("gravity off:");
	for (i = 0; i < n; i++) {
		if (hxd_id2name(ctl->conn, HXD_OBJ_BODY, off[i], name,
			sizeof(name)) != HXD_OK ||
		    name[0] == '\0')
			printf(" %d", off[i]);
		else
			printf(" %s", name);
	}
	printf("%s\nwrenches: %d\n", n == 0 ? " none" : "", wrenches);
}

/*
 * world-force [BODY [--force LIST] [--torque LIST] [--duration S]
 * [--gravity on|off]] [--clear]: apply, then list what is applied.
 */
int
cmd_world_force(struct ctl *ctl)
{
	struct ctl_opt opts[] = {
		{ "--force", OPT_LIST, 3, NULL, 0, 0 },
		{ "--torque", OPT_LIST, 3, NULL, 0, 0 },
		{ "--duration", OPT_STRING, 0, NULL, 0, 0 },
		{ "--gravity", OPT_STRING, 0, NULL, 0, 0 },
		{ "--clear", OPT_FLAG, 0, NULL, 0, 0 },
	};
	hxd_wrench w = { .body = -1 };
	int *off = NULL, n = 0, wrenches = 0, rc;

	if ((rc = ctl_options(ctl, opts, NELEM(opts))) != 0)
		return rc;
	if (ctl->npos > 1)
		return ctl_usage_error(ctl, "one body at a time");
	if (ctl->npos == 0 &&
	    (opts[0].given || opts[1].given || opts[2].given || opts[3].given))
		return ctl_usage_error(ctl, "which body?");
	if (opts[2].given &&
	    (rc = ctl_seconds(ctl, "--duration", opts[2].value, &w.duration)) !=
		0)
		return rc;
	if (opts[3].given) {
		if (strcmp(opts[3].value, "on") == 0)
			w.gravity = HXD_GRAVITY_ON;
		else if (strcmp(opts[3].value, "off") == 0)
			w.gravity = HXD_GRAVITY_OFF;
		else
			return ctl_usage_error(ctl,
			    "--gravity: '%s' is not on or off", opts[3].value);
	}
	if (ctl->npos == 1 && !opts[0].given && !opts[1].given &&
	    !opts[3].given)
		return ctl_usage_error(ctl,
		    "nothing to apply to %s "
		    "(--force, --torque or --gravity)",
		    ctl->pos[0]);
	if (opts[0].given || opts[1].given) {
		w.apply = 1;
		if (opts[0].given)
			parse_list(opts[0].value, w.force, 3, NULL);
		if (opts[1].given)
			parse_list(opts[1].value, w.torque, 3, NULL);
	}
	w.clear_all = opts[4].given;
	if (ctl->npos == 1 &&
	    (rc = ctl_object(ctl, HXD_OBJ_BODY, ctl->pos[0], &w.body)) != 0)
		return rc;
	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_world_force(ctl->conn,
		ctl->npos == 1 || w.clear_all ? &w : NULL, &off, &n,
		&wrenches) != HXD_OK)
		return ctl_fail(ctl);
	world_forces_print(ctl, off, n, wrenches);
	free(off);
	return CTL_OK;
}

/* camera [--pos X,Y,Z --quat W,X,Y,Z]: show, or set, the view camera. */
int
cmd_camera(struct ctl *ctl)
{
	struct ctl_opt opts[] = {
		{ "--pos", OPT_LIST, 3, NULL, 0, 0 },
		{ "--quat", OPT_LIST, 4, NULL, 0, 0 },
	};
	double pos[3], quat[4];
	int is_default, rc;

	if ((rc = ctl_options(ctl, opts, NELEM(opts))) != 0)
		return rc;
	if (ctl->npos > 0)
		return ctl_usage_error(
		    ctl, "'%s': give --pos and --quat", ctl->pos[0]);
	if (opts[0].given != opts[1].given)
		return ctl_usage_error(ctl, "give both --pos and --quat");
	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (opts[0].given) {
		parse_list(opts[0].value, pos, 3, NULL);
		parse_list(opts[1].value, quat, 4, NULL);
		if (hxd_set_camera(ctl->conn, pos, quat) != HXD_OK)
			return ctl_fail(ctl);
	}
	if (hxd_get_camera(ctl->conn, pos, quat, &is_default) != HXD_OK)
		return ctl_fail(ctl);
	if (ctl->json) {
		js_open('{');
		js_kv("pos", pos, 3);
		js_kv("quat", quat, 4);
		js_kb("default", is_default);
		js_close('}');
	} else
		printf("pos %g %g %g\nquat %g %g %g %g\n%s\n", pos[0], pos[1],
		    pos[2], quat[0], quat[1], quat[2], quat[3],
		    is_default ? "the model's own view" : "set by a client");
	return CTL_OK;
}

/* collide-mode BODY [none|detect|collide]: show, or set, its mode. */
int
cmd_collide_mode(struct ctl *ctl)
{
	int body, mode = -1, out, rc, i;

	if (ctl->argc == 2) {
		for (i = 0; i < (int)NELEM(world_modes); i++)
			if (strcmp(ctl->argv[1], world_modes[i]) == 0)
				mode = i;
		if (mode < 0)
			return ctl_usage_error(ctl,
			    "'%s' is not none, detect or collide",
			    ctl->argv[1]);
	}
	if ((rc = ctl_object(ctl, HXD_OBJ_BODY, ctl->argv[0], &body)) != 0 ||
	    (rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_collide_mode(ctl->conn, body, mode, &out) != HXD_OK)
		return ctl_fail(ctl);
	if (ctl->json) {
		js_open('{');
		js_ki("body", body);
		js_ks("mode",
		    out >= 0 && out < (int)NELEM(world_modes) ?
			world_modes[out] :
			"?");
		js_close('}');
	} else
		printf("%s\n",
		    out >= 0 && out < (int)NELEM(world_modes) ?
			world_modes[out] :
			"?");
	return CTL_OK;
}
