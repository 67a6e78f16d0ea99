/* The daemon's token: see token.h. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>

#include "token.h"

ssize_t
token_read(const char *path, void *buf, size_t size)
{
	unsigned char *b = buf;
	FILE *f;
	size_t n;

	if ((f = fopen(path, "re")) == NULL)
		return -1;
	n = fread(b, 1, size, f);
	fclose(f);
	while (n > 0 &&
	    (b[n - 1] == '\n' || b[n - 1] == '\r' || b[n - 1] == ' ' ||
		b[n - 1] == '\t'))
		n--;
	return (ssize_t)n;
}

int
token_equal(const void *a, size_t alen, const void *b, size_t blen)
{
	const unsigned char *x = a, *y = b;
	unsigned char d = alen != blen;
	size_t i;

	if (blen == 0)
		return alen == 0;
	/* Every byte of a is looked at, whatever b holds. */
	for (i = 0; i < alen; i++)
		d |= (unsigned char)(x[i] ^ y[i % blen]);
	return d == 0;
}
