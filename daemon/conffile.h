/*
 * The settings file, /etc/haptixd/haptixd.conf: one "name = value" per
 * line, with the names of haptixd's long options.
 */
#ifndef HXD_CONFFILE_H
#define HXD_CONFFILE_H

#include <stddef.h>

struct options;

/*
 * Apply the settings in the file at path to o.  A missing file is fine
 * unless required.  Returns 1 when the file was read, 0 when it is
 * missing, -1 with "PATH:LINE: reason" in err.
 */
int conffile_read(
    struct options *o, const char *path, int required, char *err, size_t len);

#endif
