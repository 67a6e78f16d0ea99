/*
 * The settings file, /etc/haptixd/haptixd.conf: one "name = value" per
 * line, with the names of haptixd's long options.
 */
#ifndef HXD_CONFFILE_H
#define HXD_CONFFILE_H

#include <stddef.h>

/* Where the settings go: the settings table (options.c). */
struct conffile_target {
	/*
	 * Apply name = value: 0, CONFFILE_UNKNOWN for a name that is no
	 * setting, or CONFFILE_BADVALUE with the reason in why.
	 */
	int (*set)(void *arg, const char *name, const char *value, char *why,
	    size_t len);
	/* Return 1 if name may be given more than once. */
	int (*repeatable)(const char *name);
	void *arg;
};

#define CONFFILE_UNKNOWN 1
#define CONFFILE_BADVALUE 2

/*
 * Apply the settings in the file at path to t.  A missing file is fine
 * unless required.  Returns 1 when the file was read, 0 when it is
 * missing, -1 with "PATH:LINE: reason" in err.
 */
int conffile_read(const char *path, int required,
    const struct conffile_target *t, char *err, size_t len);

#endif
