/*
 * The daemon's token (haptixd token-file, $HAPTIX_TOKEN_FILE): read from
 * its file, and compared, by the daemon, libhaptix, hxview serve and
 * hx-foxglove alike.
 */
#ifndef HX_TOKEN_H
#define HX_TOKEN_H

#include <stddef.h>
#include <sys/types.h>

/*
 * The file's first size bytes into buf, without trailing white space
 * (a newline an editor left): their count (0 for an empty file), or -1
 * with errno set.
 */
ssize_t token_read(const char *path, void *buf, size_t size);

/* 1 if a and b are equal, in time that does not depend on where they
 * differ (only on their lengths). */
int token_equal(const void *a, size_t alen, const void *b, size_t blen);

#endif
