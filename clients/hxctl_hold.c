/*
 * hxctl's joints held on a path: hold (joints at values, or along the
 * lines of a file or standard input), and holds.  A hold lasts as long
 * as the connection that made it, so hold keeps its connection: until
 * interrupted, for --for seconds, or to the end of --path's input.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hxctl_common.h"
#include "program.h"

/* The most joints one line or command line holds. */
#define HOLD_LINE_MAX 64

/* Print every hold, as a table or JSON; and what ended, on stderr. */
static void
hold_print(struct ctl *ctl, const hxd_holds *h)
{
	int i;

	if (h->dropped[0] != '\0')
		fprintf(stderr, "hxctl: %s: holds that ended:\n%s",
		    ctl->cmd->name, h->dropped);
	if (ctl->json) {
		js_open('{');
		js_kn("time", h->time);
		js_key("holds");
		js_open('[');
		for (i = 0; i < h->n; i++) {
			js_open('{');
			js_ks("joint", h->holds[i].joint);
			js_kn("target", h->holds[i].target);
			js_kn("qpos", h->holds[i].qpos);
			js_kn("force", h->holds[i].force);
			js_ku("holder", h->holds[i].holder);
			js_ks("holder_name", h->holds[i].holder_name);
			js_close('}');
		}
		js_close(']');
		js_close('}');
		return;
	}
	if (h->n == 0) {
		printf("no joints held\n");
		return;
	}
	printf("%-20s" HDR HDR HDR "  %s\n", "joint", "target", "qpos", "force",
	    "holder");
	for (i = 0; i < h->n; i++)
		printf("%-20s" NUM NUM NUM "  %llu %s\n", h->holds[i].joint,
		    h->holds[i].target, h->holds[i].qpos, h->holds[i].force,
		    h->holds[i].holder, h->holds[i].holder_name);
}

/* List every hold on the server. */
int
cmd_holds(struct ctl *ctl)
{
	hxd_holds *h;
	int rc;

	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_get_holds(ctl->conn, &h) != HXD_OK)
		return ctl_fail(ctl);
	hold_print(ctl, h);
	free(h);
	return CTL_OK;
}

/*
 * Hold the n JOINT VALUE pairs of words, or release the n joints named
 * (all of this connection's when n is 0).  Returns 0 or CTL_FAIL;
 * prints the holds if show.
 */
static int
hold_words(struct ctl *ctl, char **words, int n, int release, int show)
{
	const char *joints[HOLD_LINE_MAX];
	double values[HOLD_LINE_MAX];
	hxd_holds *h = NULL;
	int i, k, rc;

	if (release) {
		rc = hxd_release_joints(
		    ctl->conn, (const char *const *)words, n, &h);
	} else {
		for (i = 0, k = 0; i + 1 < n; i += 2, k++) {
			joints[k] = words[i];
			if (parse_double(words[i + 1], &values[k]) != 0)
				return ctl_error(ctl, HXD_BADVALUE,
				    "'%s' is not a number for joint %s",
				    words[i + 1], words[i]);
		}
		rc = hxd_hold_joints(ctl->conn, joints, values, k, &h);
	}
	if (rc != HXD_OK)
		return ctl_fail(ctl);
	if (show)
		hold_print(ctl, h);
	else if (h->dropped[0] != '\0')
		fprintf(stderr, "hxctl: %s: holds that ended:\n%s",
		    ctl->cmd->name, h->dropped);
	free(h);
	return CTL_OK;
}

/*
 * Follow a path: each line is "[TIME] JOINT VALUE [JOINT VALUE]..." (sent
 * TIME seconds after the start, else at once) or "[TIME] release
 * [JOINT]..."; '#' starts a comment.  Returns 0 or CTL_FAIL.
 */
static int
hold_path(struct ctl *ctl, const char *path)
{
	char line[8192], *words[2 * HOLD_LINE_MAX + 2], *w, *save;
	double start = program_now(), at;
	FILE *f = stdin;
	int n, lineno = 0, rc = CTL_OK, release;

	if (strcmp(path, "-") != 0 && (f = fopen(path, "r")) == NULL)
		return ctl_error(ctl, HXD_BADVALUE, "%s: cannot open it", path);
	while (!ctl_stopped && fgets(line, sizeof(line), f) != NULL) {
		lineno++;
		if ((w = strchr(line, '#')) != NULL)
			*w = '\0';
		n = 0;
		for (w = strtok_r(line, " \t\r\n", &save);
		     w != NULL && n < (int)NELEM(words);
		     w = strtok_r(NULL, " \t\r\n", &save))
			words[n++] = w;
		if (n == 0)
			continue;
		if (parse_double(words[0], &at) == 0) {
			if (start + at > program_now())
				ctl_hold(start + at - program_now());
			memmove(words, words + 1, (size_t)--n * sizeof(*words));
		}
		release = n > 0 && strcmp(words[0], "release") == 0;
		if (!release && (n == 0 || n % 2 != 0 || n > 2 * HOLD_LINE_MAX))
			rc = ctl_error(ctl, HXD_BADVALUE,
			    "%s line %d: not JOINT VALUE pairs (at most %d)",
			    path, lineno, HOLD_LINE_MAX);
		else
			rc = hold_words(
			    ctl, words + release, n - release, release, 0);
		if (rc != CTL_OK)
			break;
	}
	if (f != stdin)
		fclose(f);
	return rc;
}

/* Hold joints on a path, keeping the connection the holds live on. */
int
cmd_hold(struct ctl *ctl)
{
	struct ctl_opt opts[] = {
		{ "--path", OPT_STRING, 0, NULL, 0, 0 },
		{ "--for", OPT_STRING, 0, NULL, 0, 0 },
	};
	double seconds = 0;
	int rc;

	if ((rc = ctl_options(ctl, opts, NELEM(opts))) != 0)
		return rc;
	if (opts[1].given &&
	    (rc = ctl_seconds(ctl, "--for", opts[1].value, &seconds)) != 0)
		return rc;
	if (!opts[0].given && ctl->npos == 0)
		return ctl_usage_error(ctl, "nothing to hold");
	if (ctl->npos % 2 != 0 || ctl->npos > 2 * HOLD_LINE_MAX)
		return ctl_usage_error(
		    ctl, "JOINT VALUE pairs, at most %d", HOLD_LINE_MAX);
	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	ctl_signals();
	if (ctl->npos > 0 &&
	    (rc = hold_words(ctl, ctl->pos, ctl->npos, 0, !opts[0].given)) != 0)
		return rc;
	if (ctl->npos > 0 && !opts[0].given)
		fflush(stdout);
	if (opts[0].given && (rc = hold_path(ctl, opts[0].value)) != 0)
		return rc;
	/* --path ends with its input unless --for says how long more. */
	if (!opts[0].given || opts[1].given)
		ctl_hold(seconds);
	return CTL_OK;
}
