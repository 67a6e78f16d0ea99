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
#include "state_dirs.h"

const char *play_state_dir;

struct find {
	const char *name;
	char path[4096];
	char tried[4096];
};

/* Whether dir holds the file looked for; the directory joins those tried. */
static int
find_in(const char *dir, void *arg)
{
	struct find *f = arg;
	size_t used = strlen(f->tried);

	snprintf(f->tried + used, sizeof(f->tried) - used, "%s%s",
	    used > 0 ? ", " : "", dir);
	if ((size_t)snprintf(f->path, sizeof(f->path), "%s/%s", dir, f->name) >=
	    sizeof(f->path))
		return 0;
	return access(f->path, F_OK) == 0;
}

const char *
play_find(const char *file)
{
	static struct find f;

	if (strchr(file, '/') != NULL || access(file, F_OK) == 0)
		return file;
	memset(&f, 0, sizeof(f));
	f.name = file;
	if (state_dirs_each(play_state_dir, find_in, &f))
		return f.path;
	program_warn("%s: no such recording here, nor in the state directories "
		     "(%s); give its path as hxctl record printed it, or the "
		     "directory of haptixd --state-dir with --state-dir DIR",
	    file, f.tried);
	return NULL;
}
