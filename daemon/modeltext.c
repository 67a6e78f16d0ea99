/* The running model's MJCF text: see modeltext.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "modeltext.h"

struct modeltext *
modeltext_create(void)
{
	struct modeltext *t;

	if ((t = calloc(1, sizeof(*t))) == NULL)
		fatal("out of memory");
	return t;
}

void
modeltext_free(struct modeltext *t)
{
	if (t == NULL)
		return;
	free(t->xml);
	free(t->assets);
	free(t);
}

void
modeltext_set_assets(struct modeltext *t, void *assets, size_t len, size_t n)
{
	free(t->assets);
	t->assets = assets;
	t->assets_len = assets != NULL ? len : 0;
	t->nassets = assets != NULL ? n : 0;
}

void
modeltext_set(struct modeltext *t, const char *xml, size_t len, const char *dir,
    size_t dirlen)
{
	free(t->xml);
	t->xml = NULL;
	t->len = 0;
	snprintf(t->dir, sizeof(t->dir), "%.*s", (int)dirlen, dir);
	if (len == 0)
		return;
	if ((t->xml = malloc(len + 1)) == NULL)
		fatal("out of memory");
	memcpy(t->xml, xml, len);
	t->xml[len] = '\0';
	t->len = len;
}
