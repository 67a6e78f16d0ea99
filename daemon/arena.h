/*
 * A bump allocator for the scratch memory of one request: everything a
 * response points at is taken from it and released at once when the
 * response has been written.  It keeps its high-water mark, so a steady
 * stream of requests allocates nothing.
 */
#ifndef HXD_ARENA_H
#define HXD_ARENA_H

#include <stddef.h>

struct arena_chunk;

struct arena {
	struct arena_chunk *chunks; /* newest first */
	size_t total;               /* bytes handed out since the last reset */
};

/* Return n bytes aligned for any type; exits if memory is exhausted. */
void *arena_alloc(struct arena *a, size_t n);

/* Return n zeroed bytes. */
void *arena_zalloc(struct arena *a, size_t n);

/* Copy a string into the arena. */
char *arena_strdup(struct arena *a, const char *s);

/*
 * The lines of text (each ended by a newline; a last one without is
 * dropped) as strings in a, without their newlines; *n their number.
 */
char **arena_lines(struct arena *a, const char *text, size_t *n);

/* Release everything at once, keeping one chunk big enough for it all. */
void arena_reset(struct arena *a);

/* Free all memory. */
void arena_free(struct arena *a);

#endif
