/*
 * CSV files of timestamped poses (docs/drivers.md), for demos, tests and
 * replays: a header naming the columns, then one pose a row in time
 * order.  The reader streams the file: a sample at a time, no matter its
 * size, and a reason naming the line for anything it cannot take.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>

#include "mocap.h"

/* The columns a file must have, in the order a row is checked. */
enum csv_col {
	CSV_TIME,
	CSV_BODY,
	CSV_X,
	CSV_Y,
	CSV_Z,
	CSV_QW,
	CSV_QX,
	CSV_QY,
	CSV_QZ,
	CSV_NCOLS
};

static const char *const csv_names[CSV_NCOLS] = { "time", "body", "x", "y", "z",
	"qw", "qx", "qy", "qz" };

struct mocap_csv {
	FILE *f;
	char *buf; /* getline's */
	size_t cap;
	long line;          /* the number of the last line read, from 1 */
	long first_line;    /* the header's */
	off_t first_off;    /* where the line after the header starts */
	int nfields;        /* the header's, which every row must have */
	int col[CSV_NCOLS]; /* each required column's field, from 0 */
	int have_last;      /* a row was read since the start */
	double last_time;
	long last_line;
	char last_text[64]; /* its time as written */
};

static void csv_trim(const char **, size_t *);
static int csv_getline(struct mocap_csv *, char **, size_t *, char *, size_t);
static int csv_skip(const char *, size_t);
static int csv_header(struct mocap_csv *, const char *, size_t, char *, size_t);
static int csv_row(struct mocap_csv *, const char *, size_t,
    struct mocap_sample *, char *, size_t);

/* Drop a field's surrounding blanks, then one pair of double quotes. */
static void
csv_trim(const char **s, size_t *len)
{
	while (*len > 0 && (**s == ' ' || **s == '\t')) {
		(*s)++;
		(*len)--;
	}
	while (*len > 0 && ((*s)[*len - 1] == ' ' || (*s)[*len - 1] == '\t'))
		(*len)--;
	if (*len >= 2 && (*s)[0] == '"' && (*s)[*len - 1] == '"') {
		(*s)++;
		*len -= 2;
	}
}

/*
 * Read the next line without its end (LF or CRLF): 1, 0 at the end of the
 * file, -1 with a reason.
 */
static int
csv_getline(
    struct mocap_csv *c, char **s, size_t *len, char *err, size_t errlen)
{
	ssize_t n;

	errno = 0;
	n = getline(&c->buf, &c->cap, c->f);
	if (n == -1) {
		if (ferror(c->f)) {
			mocap_error(err, errlen, "line %ld: %s", c->line + 1,
			    errno != 0 ? strerror(errno) : "read error");
			return -1;
		}
		return 0;
	}
	c->line++;
	*s = c->buf;
	*len = (size_t)n;
	if (*len > 0 && (*s)[*len - 1] == '\n')
		(*len)--;
	if (*len > 0 && (*s)[*len - 1] == '\r')
		(*len)--;
	if (memchr(*s, '\0', *len) != NULL) {
		mocap_error(err, errlen, "line %ld: has a NUL byte", c->line);
		return -1;
	}
	/* A spreadsheet's UTF-8 byte order mark. */
	if (c->line == 1 && *len >= 3 && memcmp(*s, "\xef\xbb\xbf", 3) == 0) {
		*s += 3;
		*len -= 3;
	}
	return 1;
}

/* A line with nothing to read: blank, or a comment. */
static int
csv_skip(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i == len || s[i] == '#';
}

/* Find the required columns in the header line. */
static int
csv_header(
    struct mocap_csv *c, const char *s, size_t len, char *err, size_t errlen)
{
	char missing[64] = "";
	const char *f, *comma;
	size_t flen, i = 0, m = 0;
	int k, nf = 0;

	for (k = 0; k < CSV_NCOLS; k++)
		c->col[k] = -1;
	for (;;) {
		f = s + i;
		comma = memchr(f, ',', len - i);
		flen = comma != NULL ? (size_t)(comma - f) : len - i;
		i += flen + 1;
		csv_trim(&f, &flen);
		for (k = 0; k < CSV_NCOLS; k++) {
			if (strlen(csv_names[k]) != flen ||
			    strncasecmp(f, csv_names[k], flen) != 0)
				continue;
			if (c->col[k] != -1) {
				mocap_error(err, errlen,
				    "line %ld: column %s appears twice",
				    c->line, csv_names[k]);
				return -1;
			}
			c->col[k] = nf;
		}
		nf++;
		if (comma == NULL)
			break;
	}
	for (k = 0; k < CSV_NCOLS; k++) {
		if (c->col[k] != -1)
			continue;
		m += (size_t)snprintf(missing + m, sizeof(missing) - m, "%s%s",
		    m > 0 ? ", " : "", csv_names[k]);
	}
	if (missing[0] != '\0') {
		mocap_error(err, errlen,
		    "line %ld: the header lacks the column%s %s "
		    "(it must name time,body,x,y,z,qw,qx,qy,qz)",
		    c->line, strchr(missing, ',') != NULL ? "s" : "", missing);
		return -1;
	}
	c->nfields = nf;
	return 0;
}

/* Parse one row into out. */
static int
csv_row(struct mocap_csv *c, const char *s, size_t len,
    struct mocap_sample *out, char *err, size_t errlen)
{
	const char *f[CSV_NCOLS], *p, *comma;
	size_t flen[CSV_NCOLS], n, i = 0;
	char why[128];
	double v[CSV_NCOLS];
	int k, nf = 0;

	/* A row of the header's width sets them all; this is for the analyzer. */
	for (k = 0; k < CSV_NCOLS; k++) {
		f[k] = "";
		flen[k] = 0;
	}
	for (;;) {
		p = s + i;
		comma = memchr(p, ',', len - i);
		n = comma != NULL ? (size_t)(comma - p) : len - i;
		i += n + 1;
		for (k = 0; k < CSV_NCOLS; k++) {
			if (c->col[k] == nf) {
				f[k] = p;
				flen[k] = n;
				csv_trim(&f[k], &flen[k]);
			}
		}
		nf++;
		if (comma == NULL)
			break;
	}
	if (nf != c->nfields) {
		mocap_error(err, errlen,
		    "line %ld: %d field%s, the header has %d", c->line, nf,
		    nf == 1 ? "" : "s", c->nfields);
		return -1;
	}
	for (k = 0; k < CSV_NCOLS; k++) {
		if (k == CSV_BODY)
			continue;
		if (mocap_number_parse(
			f[k], flen[k], &v[k], why, sizeof(why)) == -1) {
			mocap_error(err, errlen, "line %ld: column %s: %s",
			    c->line, csv_names[k], why);
			return -1;
		}
	}
	if (mocap_name_parse(f[CSV_BODY], flen[CSV_BODY], out->name, why,
		sizeof(why)) == -1) {
		mocap_error(
		    err, errlen, "line %ld: column body: %s", c->line, why);
		return -1;
	}
	if (c->have_last && v[CSV_TIME] < c->last_time) {
		mocap_error(err, errlen,
		    "line %ld: time %.*s goes back from %s on line %ld",
		    c->line, (int)flen[CSV_TIME], f[CSV_TIME], c->last_text,
		    c->last_line);
		return -1;
	}
	if (mocap_sample_set(out, v[CSV_TIME], v + CSV_X, v + CSV_QW) == -1) {
		mocap_error(
		    err, errlen, "line %ld: quaternion is zero", c->line);
		return -1;
	}
	c->have_last = 1;
	c->last_time = v[CSV_TIME];
	c->last_line = c->line;
	snprintf(c->last_text, sizeof(c->last_text), "%.*s",
	    (int)flen[CSV_TIME], f[CSV_TIME]);
	return 0;
}

struct mocap_csv *
mocap_csv_open(const char *path, char *err, size_t errlen)
{
	struct mocap_csv *c;
	char *s;
	size_t len;
	int r;

	if ((c = calloc(1, sizeof(*c))) == NULL) {
		mocap_error(err, errlen, "out of memory");
		return NULL;
	}
	if ((c->f = fopen(path, "r")) == NULL) {
		mocap_error(
		    err, errlen, "cannot open %s: %s", path, strerror(errno));
		free(c);
		return NULL;
	}
	while ((r = csv_getline(c, &s, &len, err, errlen)) == 1 &&
	    csv_skip(s, len))
		;
	if (r == 0)
		mocap_error(err, errlen,
		    "no header line: the file must start with the column "
		    "names time,body,x,y,z,qw,qx,qy,qz");
	if (r != 1 || csv_header(c, s, len, err, errlen) == -1)
		goto fail;
	c->first_line = c->line;
	if ((c->first_off = ftello(c->f)) == -1) {
		mocap_error(err, errlen, "cannot tell the position in %s: %s",
		    path, strerror(errno));
		goto fail;
	}
	return c;
fail:
	mocap_csv_close(c);
	return NULL;
}

int
mocap_csv_next(
    struct mocap_csv *c, struct mocap_sample *out, char *err, size_t errlen)
{
	char *s;
	size_t len;
	int r;

	while ((r = csv_getline(c, &s, &len, err, errlen)) == 1) {
		if (csv_skip(s, len))
			continue;
		return csv_row(c, s, len, out, err, errlen) == -1 ? -1 : 1;
	}
	return r;
}

int
mocap_csv_rewind(struct mocap_csv *c)
{
	clearerr(c->f);
	if (fseeko(c->f, c->first_off, SEEK_SET) == -1)
		return -1;
	c->line = c->first_line;
	c->have_last = 0;
	return 0;
}

void
mocap_csv_close(struct mocap_csv *c)
{
	if (c == NULL)
		return;
	if (c->f != NULL)
		fclose(c->f);
	free(c->buf);
	free(c);
}
