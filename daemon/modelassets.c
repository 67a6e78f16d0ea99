/* The files an inline model carries: see modelassets.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "modelassets.h"
#include "result.h"

/* The start of name's last part: after its last '/' or '\'. */
static const char *
modelassets_base(const char *name)
{
	const char *base = name, *p;

	for (p = name; *p != '\0'; p++)
		if (*p == '/' || *p == '\\')
			base = p + 1;
	return base;
}

int
modelassets_key(const char *name, char *key, size_t len)
{
	const char *base = modelassets_base(name);
	size_t i, n = strlen(base);

	if (n == 0 || n > MODELASSETS_NAME_MAX || n >= len)
		return -1;
	/* MuJoCo lowers A-Z alone, whatever the locale. */
	for (i = 0; i < n; i++)
		key[i] = base[i] >= 'A' && base[i] <= 'Z' ?
		    (char)(base[i] - 'A' + 'a') :
		    base[i];
	key[n] = '\0';
	return 0;
}

/* Why name breaks the rules, or NULL. */
static const char *
modelassets_bad_name(const char *name)
{
	const char *p, *part;
	size_t n = strlen(name);

	if (n == 0)
		return "an empty name";
	if (n > MODELASSETS_NAME_MAX)
		return "a name longer than 999 bytes";
	for (p = name; *p != '\0'; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return "a control character in the name";
	/* mjuu_isabspath: MuJoCo reads such a name as it stands. */
	if (name[0] == '/' || name[0] == '\\' || strstr(name, ":/") != NULL ||
	    strstr(name, ":\\") != NULL)
		return "an absolute name: give the name as the model writes "
		       "it, relative to the model's directory";
	for (part = name;; part = p + 1) {
		p = part + strcspn(part, "/\\");
		if (p - part == 2 && part[0] == '.' && part[1] == '.')
			return "a name may not climb out of the model's "
			       "directory with \"..\"";
		if (*p == '\0')
			break;
	}
	if (*modelassets_base(name) == '\0')
		return "no file name after the last separator";
	return NULL;
}

int
modelassets_check(const struct model_asset *a, size_t n, const char *model_file,
    char *err, size_t len)
{
	char key[MODELASSETS_NAME_MAX + 1], other[MODELASSETS_NAME_MAX + 1],
	    model[MODELASSETS_NAME_MAX + 1];
	const char *why;
	size_t i, k;

	if (n > MODELASSETS_MAX) {
		snprintf(err, len,
		    "%zu assets; a model carries at most %d files", n,
		    MODELASSETS_MAX);
		return RESULT_BADSIZE;
	}
	if (model_file == NULL ||
	    modelassets_key(model_file, model, sizeof(model)) != 0)
		model[0] = '\0';
	for (i = 0; i < n; i++) {
		if ((why = modelassets_bad_name(a[i].name)) != NULL) {
			snprintf(err, len, "asset %zu (\"%.200s\"): %s", i + 1,
			    a[i].name, why);
			return RESULT_BADVALUE;
		}
		if (a[i].len == 0 || a[i].data == NULL) {
			snprintf(err, len, "asset %zu (\"%.200s\") is empty",
			    i + 1, a[i].name);
			return RESULT_BADSIZE;
		}
		modelassets_key(a[i].name, key, sizeof(key));
		if (strcmp(key, model) == 0) {
			snprintf(err, len,
			    "asset %zu (\"%.200s\"): the model itself stands "
			    "under the name \"%s\" for MuJoCo",
			    i + 1, a[i].name, model);
			return RESULT_BADVALUE;
		}
		for (k = 0; k < i; k++) {
			modelassets_key(a[k].name, other, sizeof(other));
			if (strcmp(key, other) != 0)
				continue;
			snprintf(err, len,
			    "assets %zu (\"%.200s\") and %zu (\"%.200s\") are "
			    "one file to MuJoCo, which finds a file by its "
			    "name without the directory, in any letter case "
			    "(\"%.200s\")",
			    k + 1, a[k].name, i + 1, a[i].name, key);
			return RESULT_BADVALUE;
		}
	}
	return 0;
}

const struct model_asset *
modelassets_find(const struct model_asset *a, size_t n, const char *name)
{
	char key[MODELASSETS_NAME_MAX + 1], other[MODELASSETS_NAME_MAX + 1];
	size_t i;

	if (n == 0 || modelassets_key(name, key, sizeof(key)) != 0)
		return NULL;
	for (i = 0; i < n; i++)
		if (modelassets_key(a[i].name, other, sizeof(other)) == 0 &&
		    strcmp(key, other) == 0)
			return &a[i];
	return NULL;
}

/* A packed record's head (modelassets_pack). */
struct modelassets_head {
	uint32_t name_len; /* with its NUL */
	uint32_t zero;
	uint64_t data_len;
};

void *
modelassets_pack(const struct model_asset *a, size_t n, size_t *len)
{
	struct modelassets_head h;
	size_t i, size = 0;
	char *block, *p;

	for (i = 0; i < n; i++)
		size += sizeof(h) + strlen(a[i].name) + 1 + a[i].len;
	if ((block = malloc(size > 0 ? size : 1)) == NULL)
		fatal("out of memory");
	for (i = 0, p = block; i < n; i++) {
		h.name_len = (uint32_t)strlen(a[i].name) + 1;
		h.zero = 0;
		h.data_len = a[i].len;
		memcpy(p, &h, sizeof(h));
		p += sizeof(h);
		memcpy(p, a[i].name, h.name_len);
		p += h.name_len;
		if (a[i].len > 0)
			memcpy(p, a[i].data, a[i].len);
		p += a[i].len;
	}
	*len = size;
	return block;
}

int
modelassets_unpack(const void *block, size_t len, size_t n,
    struct model_asset **out, char *err, size_t errlen)
{
	const char *p = block, *end = p + len;
	struct modelassets_head h;
	struct model_asset *v;
	size_t i;

	*out = NULL;
	if (n > MODELASSETS_MAX) {
		snprintf(err, errlen, "%zu assets, more than %d", n,
		    MODELASSETS_MAX);
		return -1;
	}
	if ((v = calloc(n + 1, sizeof(*v))) == NULL)
		fatal("out of memory");
	for (i = 0; i < n; i++) {
		if ((size_t)(end - p) < sizeof(h))
			goto broken;
		memcpy(&h, p, sizeof(h));
		p += sizeof(h);
		if (h.name_len == 0 || h.name_len > (size_t)(end - p) ||
		    p[h.name_len - 1] != '\0' || strlen(p) != h.name_len - 1)
			goto broken;
		v[i].name = p;
		p += h.name_len;
		if (h.data_len > (uint64_t)(end - p))
			goto broken;
		v[i].data = p;
		v[i].len = (size_t)h.data_len;
		p += h.data_len;
	}
	if (p != end) {
		snprintf(err, errlen, "%zu bytes after the last asset",
		    (size_t)(end - p));
		free(v);
		return -1;
	}
	*out = v;
	return 0;
broken:
	snprintf(err, errlen, "the assets are cut short at asset %zu", i + 1);
	free(v);
	return -1;
}

int
modelassets_read(void *arg, const char *name, const void **data, size_t *len)
{
	const struct model_assets *as = arg;
	const struct model_asset *a;

	if (as == NULL || (a = modelassets_find(as->v, as->n, name)) == NULL)
		return 0;
	*data = a->data;
	*len = a->len;
	return 1;
}
