/* Scratch memory for one request: see arena.h. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "log.h"

#define ARENA_MIN_CHUNK (64u * 1024)
#define ARENA_ALIGN 16u

struct arena_chunk {
	struct arena_chunk *next;
	size_t size, used;
	_Alignas(16) unsigned char data[];
};

/* Add a chunk of at least n bytes in front of the list. */
static struct arena_chunk *
arena_grow(struct arena *a, size_t n)
{
	struct arena_chunk *c;
	size_t size = n < ARENA_MIN_CHUNK ? ARENA_MIN_CHUNK : n;

	c = malloc(sizeof(*c) + size);
	if (c == NULL)
		fatal("out of memory (%zu bytes of scratch)", size);
	c->size = size;
	c->used = 0;
	c->next = a->chunks;
	a->chunks = c;
	return c;
}

void *
arena_alloc(struct arena *a, size_t n)
{
	struct arena_chunk *c = a->chunks;
	void *p;

	/* Beyond this, rounding up or adding the chunk's header wraps. */
	if (n > SIZE_MAX - ARENA_ALIGN - sizeof(*c))
		fatal("out of memory (%zu bytes of scratch)", n);
	n = (n + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
	if (n == 0)
		n = ARENA_ALIGN;
	if (c == NULL || c->size - c->used < n)
		c = arena_grow(a, n);
	p = c->data + c->used;
	c->used += n;
	a->total += n;
	return p;
}

void *
arena_zalloc(struct arena *a, size_t n)
{
	return memset(arena_alloc(a, n), 0, n);
}

char *
arena_strdup(struct arena *a, const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(arena_alloc(a, n), s, n);
}

void
arena_reset(struct arena *a)
{
	struct arena_chunk *c, *next;
	size_t want = a->total;

	if (a->chunks != NULL && a->chunks->next != NULL) {
		for (c = a->chunks; c != NULL; c = next) {
			next = c->next;
			free(c);
		}
		a->chunks = NULL;
		arena_grow(a, want);
	}
	if (a->chunks != NULL)
		a->chunks->used = 0;
	a->total = 0;
}

void
arena_free(struct arena *a)
{
	struct arena_chunk *c, *next;

	for (c = a->chunks; c != NULL; c = next) {
		next = c->next;
		free(c);
	}
	a->chunks = NULL;
	a->total = 0;
}

char **
arena_lines(struct arena *a, const char *text, size_t *n)
{
	const char *p, *nl;
	char **lines, *line;
	size_t k = 0;

	*n = 0;
	for (p = text; *p != '\0'; p++)
		*n += *p == '\n';
	lines = arena_alloc(a, (*n + 1) * sizeof(char *));
	for (p = text; k < *n && (nl = strchr(p, '\n')) != NULL;
	     p = nl + 1, k++) {
		line = arena_alloc(a, (size_t)(nl - p) + 1);
		memcpy(line, p, (size_t)(nl - p));
		line[nl - p] = '\0';
		lines[k] = line;
	}
	*n = k;
	return lines;
}
