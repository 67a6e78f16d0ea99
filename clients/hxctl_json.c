/*
 * The JSON writer of --json, subscribe and --record: values, keys,
 * objects and arrays on stdout, with the commas where they go.  The
 * outermost object or array ends its line, so that a run of them is
 * JSON Lines.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hxctl_common.h"

static void js_sep(void);
static void js_quote(const char *);
static void js_num(double);
static void js_int(long long);
static void js_nums(const double *, int);

/* Where the JSON writer is: a comma goes between values at each depth. */
static struct {
	int depth;
	int count[16]; /* values written at each depth; nesting stays shallow */
	int keyed;     /* a key was just written: its value needs no comma */
} js;

/* Write the comma that goes before a value, unless a key precedes it. */
static void
js_sep(void)
{
	if (js.keyed) {
		js.keyed = 0;
		return;
	}
	if (js.count[js.depth]++ > 0)
		putchar(',');
}

/* Open an object ('{') or an array ('['). */
void
js_open(int ch)
{
	js_sep();
	putchar(ch);
	js.depth++;
	js.count[js.depth] = 0;
}

/*
 * Close an object or array; the outermost one ends the line, and the
 * next starts a line of its own (subscribe writes JSON Lines).
 */
void
js_close(int ch)
{
	putchar(ch);
	js.depth--;
	if (js.depth == 0) {
		putchar('\n');
		js.count[0] = 0;
	}
}

/* Write s as a JSON string. */
static void
js_quote(const char *s)
{
	static const char plain[] = "\"\\\n\r\t", escaped[] = "\"\\nrt";
	const unsigned char *p;
	const char *e;

	putchar('"');
	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if ((e = strchr(plain, *p)) != NULL)
			printf("\\%c", escaped[e - plain]);
		else if (*p < 0x20)
			printf("\\u%04x", *p);
		else
			putchar(*p);
	}
	putchar('"');
}

/* Write an object key; its value follows. */
void
js_key(const char *k)
{
	js_sep();
	js_quote(k);
	putchar(':');
	js.keyed = 1;
}

/* Write a number that reads back exactly, or null if it is not finite. */
static void
js_num(double v)
{
	js_sep();
	if (isfinite(v))
		printf("%.17g", v);
	else
		fputs("null", stdout);
}

/* Write an integer. */
static void
js_int(long long v)
{
	js_sep();
	printf("%lld", v);
}

/* Write an array of n numbers. */
static void
js_nums(const double *v, int n)
{
	int i;

	js_open('[');
	for (i = 0; i < n; i++)
		js_num(v[i]);
	js_close(']');
}

/* Write an array of n integers. */
void
js_ints(const int *v, int n)
{
	int i;

	js_open('[');
	for (i = 0; i < n; i++)
		js_int(v[i]);
	js_close(']');
}

/* Write a key and a number. */
void
js_kn(const char *k, double v)
{
	js_key(k);
	js_num(v);
}

/* Write a key and an integer. */
void
js_ki(const char *k, long long v)
{
	js_key(k);
	js_int(v);
}

/* Write a key and an unsigned counter. */
void
js_ku(const char *k, unsigned long long v)
{
	js_key(k);
	js_sep();
	printf("%llu", v);
}

/* Write a key and a string. */
void
js_ks(const char *k, const char *v)
{
	js_key(k);
	js_sep();
	js_quote(v);
}

/* Write a string, an element of an array. */
void
js_s(const char *v)
{
	js_sep();
	js_quote(v);
}

/* Write a key and true or false. */
void
js_kb(const char *k, int v)
{
	js_key(k);
	js_sep();
	fputs(v ? "true" : "false", stdout);
}

/* Write a key and an array of n numbers. */
void
js_kv(const char *k, const double *v, int n)
{
	js_key(k);
	js_nums(v, n);
}

/* Write null. */
void
js_null(void)
{
	js_sep();
	fputs("null", stdout);
}

/* Write a key and null. */
void
js_knull(const char *k)
{
	js_key(k);
	js_null();
}

/* Write the answer of a command that only changes something. */
void
js_ok(void)
{
	js_open('{');
	js_kb("ok", 1);
	js_close('}');
}
