/* The daemon's state directories: see state_dirs.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "state_dirs.h"

/* fn of dir (its first dirlen bytes, -1 for all) and sub, if absolute. */
static int
state_dir(const char *dir, int dirlen, const char *sub,
    int (*fn)(const char *, void *), void *arg)
{
	char buf[4096];

	if (dir == NULL || dir[0] != '/')
		return 0;
	if ((size_t)snprintf(buf, sizeof(buf), "%.*s%s",
		dirlen < 0 ? (int)strlen(dir) : dirlen, dir,
		sub) >= sizeof(buf))
		return 0;
	return fn(buf, arg);
}

int
state_dirs_each(
    const char *given, int (*fn)(const char *dir, void *arg), void *arg)
{
	const char *sd = getenv("STATE_DIRECTORY");
	int rc;

	if ((rc = state_dir(given, -1, "", fn, arg)) != 0 ||
	    (rc = state_dir(sd, sd != NULL ? (int)strcspn(sd, ":") : 0, "", fn,
		 arg)) != 0 ||
	    (rc = state_dir(
		 getenv("XDG_STATE_HOME"), -1, "/haptixd", fn, arg)) != 0 ||
	    (rc = state_dir(
		 getenv("HOME"), -1, "/.local/state/haptixd", fn, arg)) != 0)
		return rc;
	return state_dir("/var/lib/haptixd", -1, "", fn, arg);
}
