/*
 * Reading the settings file: see conffile.h.  Blank lines and lines
 * starting with '#' are skipped; the value is the rest of the line with
 * the surrounding blanks removed, so a path may hold spaces or '#'.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "conffile.h"

#define CONFFILE_LINE_MAX 4096
#define CONFFILE_MAX_KEYS 64

/* The line each setting was first given on, to refuse it twice. */
struct conffile_seen {
	char key[32];
	int line;
};

/* Remove blanks from both ends of s, in place. */
static char *
conffile_trim(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	end = s + strlen(s);
	while (end > s &&
	    (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\n' ||
		end[-1] == '\r'))
		*--end = '\0';
	return s;
}

/* Return the line key was set on before, or 0; remember it otherwise. */
static int
conffile_seen(struct conffile_seen *seen, int *n, const char *key, int line)
{
	int i;

	for (i = 0; i < *n; i++) {
		if (strcmp(seen[i].key, key) == 0)
			return seen[i].line;
	}
	if (*n < CONFFILE_MAX_KEYS && strlen(key) < sizeof(seen[0].key)) {
		snprintf(seen[*n].key, sizeof(seen[*n].key), "%s", key);
		seen[(*n)++].line = line;
	}
	return 0;
}

/* Apply one "name = value" line. */
static int
conffile_line(const struct conffile_target *t, char *text, int line,
    struct conffile_seen *seen, int *nseen, char *err, size_t len)
{
	char *eq, *key, *value, why[512];
	int first;

	eq = strchr(text, '=');
	if (eq == NULL) {
		snprintf(err, len, "%d: expected \"name = value\", not '%s'",
		    line, text);
		return -1;
	}
	*eq = '\0';
	key = conffile_trim(text);
	value = conffile_trim(eq + 1);
	if (*key == '\0') {
		snprintf(err, len, "%d: a setting has no name", line);
		return -1;
	}
	if (*value == '\0') {
		snprintf(err, len, "%d: %s has no value", line, key);
		return -1;
	}
	switch (t->set(t->arg, key, value, why, sizeof(why))) {
	case 0:
		break;
	case CONFFILE_UNKNOWN:
		snprintf(err, len,
		    "%d: unknown setting '%s' (the names are haptixd's long "
		    "options, see haptixd --help)",
		    line, key);
		return -1;
	default:
		snprintf(err, len, "%d: %s: %s", line, key, why);
		return -1;
	}
	first = conffile_seen(seen, nseen, key, line);
	if (first != 0 && !t->repeatable(key)) {
		snprintf(err, len, "%d: %s is set twice (first on line %d)",
		    line, key, first);
		return -1;
	}
	return 0;
}

int
conffile_read(const char *path, int required, const struct conffile_target *t,
    char *err, size_t len)
{
	struct conffile_seen seen[CONFFILE_MAX_KEYS];
	char why[CONFFILE_LINE_MAX + 600], *buf = NULL, *text;
	size_t cap = 0;
	ssize_t n;
	int line = 0, nseen = 0, rc = 1;
	FILE *f;

	f = fopen(path, "re");
	if (f == NULL) {
		if (errno == ENOENT && !required)
			return 0;
		snprintf(err, len, "%s: %s", path, strerror(errno));
		return -1;
	}
	errno = 0;
	while ((n = getline(&buf, &cap, f)) != -1) {
		line++;
		if (n > CONFFILE_LINE_MAX) {
			snprintf(why, sizeof(why),
			    "%d: line longer than %d bytes", line,
			    CONFFILE_LINE_MAX);
			rc = -1;
			break;
		}
		if (strlen(buf) != (size_t)n) {
			snprintf(why, sizeof(why), "%d: a NUL byte", line);
			rc = -1;
			break;
		}
		text = conffile_trim(buf);
		if (*text == '\0' || *text == '#')
			continue;
		if (conffile_line(
			t, text, line, seen, &nseen, why, sizeof(why)) != 0) {
			rc = -1;
			break;
		}
	}
	if (rc == 1 && ferror(f)) {
		snprintf(why, sizeof(why), "%d: %s", line + 1, strerror(errno));
		rc = -1;
	}
	free(buf);
	fclose(f);
	if (rc < 0)
		snprintf(err, len, "%s:%s", path, why);
	return rc;
}
