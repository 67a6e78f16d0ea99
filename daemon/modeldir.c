/* Model directory confinement: see modeldir.h. */
#include "config.h"

#include <sys/stat.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "modeldir.h"
#include "options.h"
#include "result.h"

static char *modeldir_real[OPTIONS_MAX_MODEL_DIRS];
static int modeldir_n;
static char modeldir_text[OPTIONS_MAX_MODEL_DIRS * 128];
/* Room left in modeldir_text for the words around it. */
static char modeldir_missing[OPTIONS_MAX_MODEL_DIRS * 128 - 64];

static void modeldir_text_make(void);

void
modeldir_init(const char *const *dirs, int n)
{
	char *r;
	size_t used;
	int i;

	/* A reload starts over, and forgets the clients' directories. */
	for (i = 0; i < modeldir_n; i++)
		free(modeldir_real[i]);
	modeldir_n = 0;
	modeldir_missing[0] = '\0';
	for (i = 0; i < n; i++) {
		r = realpath(dirs[i], NULL);
		if (r == NULL) {
			log_warn(
			    "model directory %s: %s", dirs[i], strerror(errno));
			used = strlen(modeldir_missing);
			snprintf(modeldir_missing + used,
			    sizeof(modeldir_missing) - used, "%s%s: %s",
			    used ? ", " : "", dirs[i], strerror(errno));
			continue;
		}
		modeldir_real[modeldir_n++] = r;
	}
	modeldir_text_make();
}

/* The directories joined, for modeldir_list(). */
static void
modeldir_text_make(void)
{
	size_t used = 0;
	int i;

	modeldir_text[0] = '\0';
	/* None: say what was tried, and how to name one. */
	if (modeldir_n == 0) {
		snprintf(modeldir_text, sizeof(modeldir_text),
		    "none%s%s; haptixd -M DIR names one",
		    modeldir_missing[0] != '\0' ? ": " : "", modeldir_missing);
		return;
	}
	for (i = 0; i < modeldir_n; i++) {
		used += (size_t)snprintf(modeldir_text + used,
		    sizeof(modeldir_text) - used, "%s%s", used ? ", " : "",
		    modeldir_real[i]);
		if (used >= sizeof(modeldir_text))
			used = sizeof(modeldir_text) - 1;
	}
}

/*
 * Refuse the real path dir for user uid unless uid owns it and no one
 * else may write to it, nor to a directory above it (but through a sticky
 * bit, as in /tmp), owned by uid or root: then no one but uid and root
 * put its files there.  Returns 0, or RESULT_DENIED with err, which says
 * more than "not yours" only of a directory that is the caller's.
 */
static int
modeldir_owned(const char *dir, long uid, char *err, size_t errlen)
{
	char path[PATH_MAX], *slash;
	struct stat st;
	int top = 1;

	snprintf(path, sizeof(path), "%s", dir);
	for (;;) {
		if (stat(path[0] != '\0' ? path : "/", &st) != 0 ||
		    (top && (!S_ISDIR(st.st_mode) || (long)st.st_uid != uid)))
			return RESULT_DENIED; /* the caller's message */
		if (!top && (long)st.st_uid != uid && st.st_uid != 0) {
			snprintf(err, errlen,
			    "%s, above it, belongs to neither uid %ld nor root",
			    path[0] != '\0' ? path : "/", uid);
			return RESULT_DENIED;
		}
		if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0 &&
		    (top || (st.st_mode & S_ISVTX) == 0)) {
			snprintf(err, errlen, "others may write to %s",
			    path[0] != '\0' ? path : "/");
			return RESULT_DENIED;
		}
		if (path[0] == '\0' || (slash = strrchr(path, '/')) == NULL)
			return 0;
		*slash = '\0';
		top = 0;
	}
}

int
modeldir_add(
    const char *dir, long uid, char *out, size_t len, char *err, size_t errlen)
{
	char *r;
	int i;

	if (dir[0] != '/') {
		snprintf(
		    err, errlen, "%s: give the directory's absolute path", dir);
		return RESULT_BADVALUE;
	}
	/*
	 * Missing, unreadable or another's: one answer, so that it tells
	 * nothing of what the daemon sees and the caller may not.
	 */
	snprintf(err, errlen,
	    "%s is not a directory of the caller's user (uid %ld)", dir, uid);
	if ((r = realpath(dir, NULL)) == NULL)
		return RESULT_DENIED;
	if (modeldir_owned(r, uid, err, errlen) != 0) {
		free(r);
		return RESULT_DENIED;
	}
	snprintf(out, len, "%s", r);
	for (i = 0; i < modeldir_n; i++) {
		if (strcmp(modeldir_real[i], r) == 0) {
			free(r);
			return 0; /* already there */
		}
	}
	if (modeldir_n == OPTIONS_MAX_MODEL_DIRS) {
		snprintf(err, errlen, "there are %d model directories already",
		    OPTIONS_MAX_MODEL_DIRS);
		free(r);
		return RESULT_DENIED;
	}
	modeldir_real[modeldir_n++] = r;
	modeldir_text_make();
	return 0;
}

int
modeldir_count(void)
{
	return modeldir_n;
}

const char *
modeldir_get(int i)
{
	return i >= 0 && i < modeldir_n ? modeldir_real[i] : NULL;
}

const char *
modeldir_list(void)
{
	return modeldir_text;
}

/* Return 1 if real path p lies inside directory dir. */
static int
modeldir_inside(const char *p, const char *dir)
{
	size_t n = strlen(dir);

	if (strcmp(dir, "/") == 0)
		return 1;
	return strncmp(p, dir, n) == 0 && p[n] == '/';
}

/* Return 1 if real path p lies inside any model directory. */
static int
modeldir_allowed(const char *p)
{
	int i;

	for (i = 0; i < modeldir_n; i++) {
		if (modeldir_inside(p, modeldir_real[i]))
			return 1;
	}
	return 0;
}

int
modeldir_resolve(
    const char *path, char *out, size_t len, char *err, size_t errlen)
{
	char cand[PATH_MAX * 2], *r;
	int i, outside = 0;

	if (*path == '\0') {
		snprintf(err, errlen, "empty model path");
		return RESULT_LOADFAILED;
	}
	/* Relative paths are tried in each directory in turn. */
	for (i = 0; i < modeldir_n; i++) {
		if (*path == '/')
			snprintf(cand, sizeof(cand), "%s", path);
		else
			snprintf(cand, sizeof(cand), "%s/%s", modeldir_real[i],
			    path);
		r = realpath(cand, NULL);
		if (r == NULL) {
			/*
			 * Missing: judged by where it would be, so that the
			 * answer tells nothing of what exists outside.
			 */
			if (!modeldir_contains(cand))
				outside = 1;
			continue;
		}
		if (modeldir_allowed(r)) {
			snprintf(out, len, "%s", r);
			free(r);
			return 0;
		}
		free(r);
		outside = 1;
	}
	if (outside) {
		snprintf(err, errlen,
		    "%s is outside the model directories "
		    "(%s)",
		    path, modeldir_list());
		return RESULT_DENIED;
	}
	snprintf(err, errlen, "no model %s in the model directories (%s)", path,
	    modeldir_list());
	return RESULT_LOADFAILED;
}

/* Take "." and ".." out of absolute path p, in place. */
static void
modeldir_normalize(char *p)
{
	char *out = p, *in = p, *seg;
	size_t n;

	while (*in != '\0') {
		while (*in == '/')
			in++;
		seg = in;
		while (*in != '\0' && *in != '/')
			in++;
		n = (size_t)(in - seg);
		if (n == 0 || (n == 1 && seg[0] == '.'))
			continue;
		if (n == 2 && seg[0] == '.' && seg[1] == '.') {
			while (out > p && *--out != '/')
				;
			continue;
		}
		*out++ = '/';
		memmove(out, seg, n);
		out += n;
	}
	if (out == p)
		*out++ = '/';
	*out = '\0';
}

int
modeldir_contains(const char *path)
{
	char buf[PATH_MAX * 2], *r, *slash = NULL;
	int in;

	if ((r = realpath(path, NULL)) != NULL) {
		in = modeldir_allowed(r);
		free(r);
		return in;
	}
	if (path[0] != '/' || strlen(path) >= sizeof(buf) / 2)
		return 0;
	/*
	 * The deepest directory on the way that exists, resolved, so that a
	 * symlink there that leads out counts; then the rest as written.
	 */
	snprintf(buf, sizeof(buf), "%s", path);
	while ((slash = strrchr(buf, '/')) != NULL && slash != buf) {
		*slash = '\0';
		if ((r = realpath(buf, NULL)) != NULL)
			break;
	}
	if (r != NULL) {
		snprintf(
		    buf, sizeof(buf), "%s/%s", r, path + (slash - buf) + 1);
		free(r);
	} else
		snprintf(buf, sizeof(buf), "%s", path);
	modeldir_normalize(buf);
	return modeldir_allowed(buf);
}

int
modeldir_find(const char *name, char *out, size_t len)
{
	int i;

	if (*name == '/' || access(name, R_OK) == 0) {
		snprintf(out, len, "%s", name);
		return 0;
	}
	for (i = 0; i < modeldir_n; i++) {
		snprintf(out, len, "%s/%s", modeldir_real[i], name);
		if (access(out, R_OK) == 0)
			return 0;
	}
	snprintf(out, len, "%s", name);
	return -1;
}
