/*
 * Objects by type and id or name: geom sizes, colours, names and ids,
 * equality constraints; and the message on the server's viewers.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "haptixd.h"
#include "hxctl_common.h"

/* Set a geom's size. */
int
cmd_geomsize(struct ctl *ctl)
{
	double size[3];
	int id, rc;

	if ((rc = ctl_numbers(ctl, ctl->argv + 1, 3, size)) != 0 ||
	    (rc = ctl_object(ctl, HXD_OBJ_GEOM, ctl->argv[0], &id)) != 0 ||
	    (rc = ctl_connect(ctl)) != 0)
		return rc;
	return ctl_done(ctl, hxd_set_geomsize(ctl->conn, id, size));
}

/* Show or set the colour of a geom, site, tendon or material. */
int
cmd_rgba(struct ctl *ctl)
{
	double rgba[4];
	int set = ctl->argc == 6, type, id, rc;

	if (ctl->argc != 2 && !set)
		return ctl_usage_error(
		    ctl, "give no colour or all four of R G B A");
	if ((rc = ctl_objtype(ctl, ctl->argv[0], &type)) != 0 ||
	    (set && (rc = ctl_numbers(ctl, ctl->argv + 2, 4, rgba)) != 0) ||
	    (rc = ctl_object(ctl, type, ctl->argv[1], &id)) != 0 ||
	    (rc = ctl_connect(ctl)) != 0)
		return rc;
	if (set)
		return ctl_done(ctl, hxd_set_rgba(ctl->conn, type, id, rgba));
	if (hxd_get_rgba(ctl->conn, type, id, rgba) != HXD_OK)
		return ctl_fail(ctl);
	if (ctl->json) {
		js_open('{');
		js_ks("type", hxd_obj_name(type));
		js_ki("id", id);
		js_kv("rgba", rgba, 4);
		js_close('}');
	} else
		printf("%g %g %g %g\n", rgba[0], rgba[1], rgba[2], rgba[3]);
	return CTL_OK;
}

/* Print the id of a named object; an unknown name is a failure. */
int
cmd_name2id(struct ctl *ctl)
{
	int type, id, rc;

	if ((rc = ctl_objtype(ctl, ctl->argv[0], &type)) != 0 ||
	    (rc = ctl_name2id(ctl, type, ctl->argv[1], &id)) != 0)
		return rc;
	if (ctl->json) {
		js_open('{');
		js_ks("type", hxd_obj_name(type));
		js_ks("name", ctl->argv[1]);
		js_ki("id", id);
		js_close('}');
	} else
		printf("%d\n", id);
	return CTL_OK;
}

/* Print the name of an object; an unnamed one prints an empty line. */
int
cmd_id2name(struct ctl *ctl)
{
	char name[1024];
	long id;
	int type, rc;

	if ((rc = ctl_objtype(ctl, ctl->argv[0], &type)) != 0)
		return rc;
	if (parse_long(ctl->argv[1], INT_MIN, INT_MAX, &id) != 0)
		return ctl_usage_error(
		    ctl, "'%s' is not an id (a whole number)", ctl->argv[1]);
	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_id2name(ctl->conn, type, (int)id, name, sizeof(name)) != HXD_OK)
		return ctl_fail(ctl);
	if (ctl->json) {
		js_open('{');
		js_ks("type", hxd_obj_name(type));
		js_ki("id", id);
		js_ks("name", name);
		js_close('}');
	} else
		printf("%s\n", name);
	return CTL_OK;
}

/* Enable or disable an equality constraint. */
int
cmd_equality(struct ctl *ctl)
{
	const char *s = ctl->argv[1];
	int on, id, rc;

	if (strcmp(s, "on") == 0 || strcmp(s, "1") == 0 ||
	    strcmp(s, "enable") == 0)
		on = 1;
	else if (strcmp(s, "off") == 0 || strcmp(s, "0") == 0 ||
	    strcmp(s, "disable") == 0)
		on = 0;
	else
		return ctl_usage_error(ctl, "'%s' is neither on nor off", s);
	if ((rc = ctl_object(ctl, HXD_OBJ_EQUALITY, ctl->argv[0], &id)) != 0 ||
	    (rc = ctl_connect(ctl)) != 0)
		return rc;
	return ctl_done(ctl, hxd_equality(ctl->conn, id, on));
}

/*
 * Show the arguments, joined by spaces, on the viewers; none clears.  The
 * server drops a client's message when the client goes, so --hold keeps
 * the connection open for a while, or until hxctl is killed.
 */
int
cmd_message(struct ctl *ctl)
{
	struct ctl_opt opts[] = {
		{ "--hold", OPT_STRING, 0, NULL, 0, 0 },
	};
	struct timespec ts;
	char *text;
	size_t len = 1;
	double hold = -1;
	int i, rc;

	if ((rc = ctl_options(ctl, opts, NELEM(opts))) != 0 ||
	    (opts[0].given &&
		(rc = ctl_seconds(ctl, "--hold", opts[0].value, &hold)) != 0))
		return rc;
	for (i = 0; i < ctl->npos; i++)
		len += strlen(ctl->pos[i]) + 1;
	if ((text = malloc(len)) == NULL)
		return ctl_error(ctl, HXD_CANNOTSEND, "out of memory");
	text[0] = '\0';
	for (i = 0; i < ctl->npos; i++) {
		if (i > 0)
			strcat(text, " ");
		strcat(text, ctl->pos[i]);
	}
	if ((rc = ctl_connect(ctl)) == 0)
		rc = ctl_done(ctl, hxd_message(ctl->conn, text));
	free(text);
	if (rc != 0)
		return rc;
	fflush(stdout);
	if (hold == 0) {
		for (;;)
			pause();
	}
	if (hold > 0) {
		ts.tv_sec = (time_t)hold;
		ts.tv_nsec = (long)((hold - (double)ts.tv_sec) * 1e9);
		while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
			;
	}
	return CTL_OK;
}
