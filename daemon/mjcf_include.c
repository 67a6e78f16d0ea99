/*
 * A model as one document: every <include> replaced by what its file
 * holds, as MuJoCo 2.2 reads it.  This is the model's MJCF text that a
 * client may save and load back (the get_model_xml call).
 */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "log.h"
#include "mjcf.h"

/* Most files one model may include (MuJoCo reads each once). */
#define MJCF_INCLUDE_MAX 256

int
mjcf_include_all(
    struct mjcf_doc *doc, const char *dir, char *err, size_t errlen)
{
	return mjcf_include_all_vfs(doc, dir, NULL, NULL, err, errlen);
}

int
mjcf_include_all_vfs(struct mjcf_doc *doc, const char *dir, mjcf_vfs_fn vfs,
    void *arg, char *err, size_t errlen)
{
	const void *data;
	size_t len;
	struct mjcf_node *root = mjcf_root(doc), *n, *first;
	char full[PATH_MAX], why[1024], *seen[MJCF_INCLUDE_MAX];
	struct mjcf_doc *inc;
	const char *file;
	size_t nseen = 0, i;
	int rc = -1;

	n = mjcf_walk(root, root);
	while (n != NULL) {
		if (strcasecmp(n->name, "include") != 0) {
			n = mjcf_walk(root, n);
			continue;
		}
		if ((file = mjcf_attr_get(n, "file")) == NULL ||
		    *file == '\0') {
			snprintf(err, errlen,
			    "line %lu: include without a file", n->line);
			goto out;
		}
		/* MuJoCo resolves every include against the main model's
		 * directory. */
		if ((size_t)snprintf(full, sizeof(full), "%s%s%s",
			file[0] == '/' || dir == NULL ? "" : dir,
			file[0] == '/' || dir == NULL || *dir == '\0' ? "" :
									"/",
			file) >= sizeof(full)) {
			snprintf(err, errlen,
			    "line %lu: include file name too long", n->line);
			goto out;
		}
		for (i = 0; i < nseen; i++)
			if (strcmp(seen[i], full) == 0) {
				snprintf(err, errlen,
				    "line %lu: file '%s' already included",
				    n->line, full);
				goto out;
			}
		if (nseen == MJCF_INCLUDE_MAX) {
			snprintf(err, errlen, "more than %d included files",
			    MJCF_INCLUDE_MAX);
			goto out;
		}
		if ((seen[nseen] = strdup(full)) == NULL)
			fatal("out of memory");
		nseen++;
		if (vfs != NULL && vfs(arg, full, &data, &len))
			inc = mjcf_parse_buffer_lenient(
			    data, len, file, why, sizeof(why));
		else
			inc = mjcf_parse_file_lenient(full, why, sizeof(why));
		if (inc == NULL) {
			snprintf(err, errlen, "include: %s", why);
			goto out;
		}
		if (mjcf_first_child(mjcf_root(inc), NULL) == NULL) {
			mjcf_free(inc);
			snprintf(
			    err, errlen, "include file '%s' is empty", full);
			goto out;
		}
		if (mjcf_node_replace(doc, n, inc, &first, why, sizeof(why)) !=
		    0) {
			snprintf(err, errlen, "include '%s': %s", full, why);
			goto out;
		}
		n = first;
	}
	rc = 0;
out:
	for (i = 0; i < nseen; i++)
		free(seen[i]);
	return rc;
}
