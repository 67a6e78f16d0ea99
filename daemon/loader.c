/* Loading model files, with or without the legacy translation. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "daemon.h"
#include "loader.h"
#include "log.h"
#include "mjcf_legacy.h"
#include "sim.h"

int
loader_is_mjb(const char *path)
{
	size_t n = strlen(path);

	return n >= 4 && strcasecmp(path + n - 4, ".mjb") == 0;
}

/* Translate a HAPTIX 1.x-era MJCF file and load the result. */
static int
loader_load_legacy(struct daemon *d, const char *path, char *err, size_t len)
{
	struct mjcf_legacy_log *changes = mjcf_legacy_log_create();
	char why[1024], *xml = NULL;
	size_t n, i;
	int rc;

	if (mjcf_legacy_file(path, &xml, &n, changes, why, sizeof(why)) != 0) {
		/* MuJoCo reads some files the translation cannot: try it. */
		mjcf_legacy_log_free(changes);
		rc = sim_load_file(d->sim, path, err, len);
		if (rc != 0 && strlen(err) + 1 < len)
			snprintf(err + strlen(err), len - strlen(err),
			    " (the legacy translation failed too: %s)", why);
		return rc;
	}
	for (i = 0; i < mjcf_legacy_log_count(changes); i++)
		log_info("legacy translation of %s: %s", path,
		    mjcf_legacy_log_line(changes, i));
	/* Loaded under its own path: assets resolve against its directory. */
	rc = sim_load_buffer(
	    d->sim, SIM_FORMAT_MJCF, xml, n, NULL, path, err, len);
	if (rc == 0 && mjcf_legacy_log_count(changes) == 0)
		log_info("legacy translation of %s: nothing to change", path);
	free(xml);
	mjcf_legacy_log_free(changes);
	return rc;
}

int
loader_load_file(
    struct daemon *d, const char *path, int legacy, char *err, size_t len)
{
	int rc;

	if (legacy && !loader_is_mjb(path))
		rc = loader_load_legacy(d, path, err, len);
	else
		rc = sim_load_file(d->sim, path, err, len);
	if (rc == 0)
		d->model_legacy = legacy;
	return rc;
}

int
loader_reload(struct daemon *d, char *err, size_t len)
{
	char path[4096];

	if (!sim_loaded(d->sim) || sim_model_path(d->sim)[0] == '\0') {
		snprintf(err, len,
		    "nothing to reload: the current model was "
		    "not loaded from a file");
		return -1;
	}
	snprintf(path, sizeof(path), "%s", sim_model_path(d->sim));
	return loader_load_file(d, path, d->model_legacy, err, len);
}
