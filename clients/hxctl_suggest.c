/*
 * "Did you mean": the known name nearest to a mistyped one (commands,
 * options, event kinds, object and array names), by edit distance with
 * swapped neighbours as one edit and case ignored, when it is near enough
 * that the suggestion is likely the one meant.
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hxctl_common.h"

/* Names longer than this are compared by their first this many bytes. */
#define SUGGEST_MAX 64

/*
 * The edit distance between a and b (insertions, deletions,
 * substitutions and swaps of neighbours, case ignored), or a number
 * larger than limit once it must exceed it.
 */
static int
suggest_distance(const char *a, const char *b, int limit)
{
	int d[SUGGEST_MAX + 1][SUGGEST_MAX + 1];
	int la = (int)strnlen(a, SUGGEST_MAX),
	    lb = (int)strnlen(b, SUGGEST_MAX);
	int i, j, cost, v, row_min;

	if (abs(la - lb) > limit)
		return limit + 1;
	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++) {
		row_min = d[i][0];
		for (j = 1; j <= lb; j++) {
			cost = tolower((unsigned char)a[i - 1]) !=
			    tolower((unsigned char)b[j - 1]);
			v = d[i - 1][j - 1] + cost;
			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 &&
			    tolower((unsigned char)a[i - 1]) ==
				tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) ==
				tolower((unsigned char)b[j - 1]) &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
			if (v < row_min)
				row_min = v;
		}
		if (row_min > limit)
			return limit + 1;
	}
	return d[la][lb];
}

const char *
ctl_suggest(const char *word, const char *const *names, size_t n)
{
	const char *best = NULL;
	size_t i, len = strlen(word);
	/* Short words have few letters to spare: one edit, else two or three. */
	int limit = len <= 3 ? 1 : len <= 8 ? 2 : 3, d, best_d;

	best_d = limit + 1;
	for (i = 0; i < n; i++) {
		if (names[i] == NULL || names[i][0] == '\0' ||
		    strcmp(names[i], word) == 0)
			continue;
		d = suggest_distance(word, names[i], limit);
		if (d < best_d) {
			best_d = d;
			best = names[i];
		}
	}
	return best;
}

const char *
ctl_mean(const char *word, const char *const *names, size_t n)
{
	static char buf[SUGGEST_MAX + 32];
	const char *s = ctl_suggest(word, names, n);

	if (s == NULL)
		return "";
	snprintf(buf, sizeof(buf), "; did you mean \"%s\"?", s);
	return buf;
}
