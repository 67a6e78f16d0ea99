/*
 * hxplay: a recording named by its bare file name, as hxctl record
 * prints it, is looked for in the daemon's state directories when it is
 * not in the current directory, in haptixd's order: --state-dir, then
 * $STATE_DIRECTORY, then its user's and the service's defaults.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hxplay_common.h"
#include "program.h"

const char *play_state_dir;

/*
 * dir/name into buf if that file exists: buf, else NULL; dir (its first
 * dirlen bytes, -1 for all, with sub) joins the directories tried.
 */
static const char *
find_in(const char *dir, int dirlen, const char *sub, const char *name,
    char *buf, size_t len, char *tried, size_t triedlen)
{
	size_t used = strlen(tried);

	if (dir == NULL || dir[0] != '/')
		return NULL;
	snprintf(tried + used, triedlen - used, "%s%.*s%s",
	    used > 0 ? ", " : "", (int)dirlen, dir, sub);
	if ((size_t)snprintf(
		buf, len, "%.*s%s/%s", (int)dirlen, dir, sub, name) >= len)
		return NULL;
	return access(buf, F_OK) == 0 ? buf : NULL;
}

const char *
play_find(const char *file)
{
	static char buf[4096];
	const char *p, *sd = getenv("STATE_DIRECTORY");
	char tried[4096] = "";

	if (strchr(file, '/') != NULL || access(file, F_OK) == 0)
		return file;
	if ((p = find_in(play_state_dir, -1, "", file, buf, sizeof(buf), tried,
		 sizeof(tried))) != NULL ||
	    (p = find_in(sd, sd != NULL ? (int)strcspn(sd, ":") : 0, "", file,
		 buf, sizeof(buf), tried, sizeof(tried))) != NULL ||
	    (p = find_in(getenv("XDG_STATE_HOME"), -1, "/haptixd", file, buf,
		 sizeof(buf), tried, sizeof(tried))) != NULL ||
	    (p = find_in(getenv("HOME"), -1, "/.local/state/haptixd", file, buf,
		 sizeof(buf), tried, sizeof(tried))) != NULL ||
	    (p = find_in("/var/lib/haptixd", -1, "", file, buf, sizeof(buf),
		 tried, sizeof(tried))) != NULL)
		return p;
	program_warn("%s: no such recording here, nor in the state directories "
		     "(%s); give its path as hxctl record printed it, or the "
		     "directory of haptixd --state-dir with --state-dir DIR",
	    file, tried);
	return NULL;
}
