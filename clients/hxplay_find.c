/*
 * hxplay: a recording named by its bare file name, as hxctl record
 * prints it, is looked for in the daemon's state directories when it is
 * not in the current directory.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hxplay.h"

/* dir/name into buf if that file exists: buf, else NULL. */
static const char *
find_in(
    const char *dir, const char *sub, const char *name, char *buf, size_t len)
{
	if (dir == NULL || dir[0] != '/')
		return NULL;
	if ((size_t)snprintf(buf, len, "%s%s/%s", dir, sub, name) >= len)
		return NULL;
	return access(buf, F_OK) == 0 ? buf : NULL;
}

const char *
play_find(const char *file)
{
	static char buf[4096];
	const char *p;

	if (strchr(file, '/') != NULL || access(file, F_OK) == 0)
		return file;
	/* haptixd's defaults: its user's, then the service's. */
	if ((p = find_in(getenv("XDG_STATE_HOME"), "/haptixd", file, buf,
		 sizeof(buf))) != NULL ||
	    (p = find_in(getenv("HOME"), "/.local/state/haptixd", file, buf,
		 sizeof(buf))) != NULL ||
	    (p = find_in("/var/lib/haptixd", "", file, buf, sizeof(buf))) !=
		NULL)
		return p;
	return file;
}
