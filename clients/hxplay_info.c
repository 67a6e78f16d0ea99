/*
 * hxplay info FILE: a recording's header and what it holds, one
 * "key: value" a line.  A file cut short is normal (a recording still
 * running, a daemon killed): it is said, not failed.
 */
#include "config.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "hxplay_common.h"
#include "program.h"
#include "recording.h"

/* One segment of the state records: its times go forward. */
struct info_segment {
	uint64_t records;
	uint64_t first_step, last_step;
	double first_time, last_time;
};

/* One edit: where, the model it made, and what it did as text. */
struct info_edit {
	uint64_t step;
	double time;
	struct rec_header model;
	size_t mjb_len;
	char *text; /* the operations, then "removed: ..." lines */
};

/* What the items of a file add up to. */
struct info_counts {
	uint64_t records;
	uint64_t first_step, last_step;
	double first_time, last_time;
	uint64_t journal;    /* entries of every kind */
	uint64_t arrays;     /* array writes */
	uint64_t bad_arrays; /* array writes that do not parse */
	uint64_t models;     /* model entries */
	size_t model_len;
	uint64_t hashes;
	struct info_segment *seg; /* nseg of them, from the first */
	size_t nseg, segcap;
	struct info_edit *edit; /* nedit of them, in the file's order */
	size_t nedit, editcap;
	int nomem; /* the segments did not fit in memory */
};

static void
info_usage(FILE *fp)
{
	fprintf(fp, "usage: hxplay info [--state-dir DIR] FILE\n");
}

/*
 * The shortest of %.15g, %.16g and %.17g that reads back as d: exact,
 * without the noise digits of %.17g (0.002, not 0.0020000000000000000).
 */
static const char *
info_double(double d, char *buf, size_t len)
{
	int prec;

	for (prec = 15; prec < 17; prec++) {
		snprintf(buf, len, "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			return buf;
	}
	snprintf(buf, len, "%.17g", d);
	return buf;
}

/* The creation time, as ISO 8601 if it can be. */
static const char *
info_created(int64_t ns, char *buf, size_t len)
{
	if (play_iso8601(ns, buf, len) == NULL)
		snprintf(buf, len, "%" PRId64 " ns since the epoch", ns);
	return buf;
}

/* Count a state record into its segment, begun by it or before. */
static void
info_segment(struct info_counts *c, const struct rec_item *it)
{
	struct info_segment *s;
	size_t cap;

	if (c->nomem)
		return;
	if (it->segment > c->nseg) {
		if (c->nseg == c->segcap) {
			cap = c->segcap != 0 ? 2 * c->segcap : 16;
			if ((s = reallocarray(c->seg, cap, sizeof(*s))) ==
			    NULL) {
				c->nomem = 1;
				return;
			}
			c->seg = s;
			c->segcap = cap;
		}
		s = &c->seg[c->nseg++];
		memset(s, 0, sizeof(*s));
		s->first_step = it->step;
		s->first_time = it->time;
	}
	s = &c->seg[c->nseg - 1];
	s->records++;
	s->last_step = it->step;
	s->last_time = it->time;
}

/* Keep an edit for the listing: each line of its text indented. */
static void
info_edit(struct info_counts *c, const struct rec_item *it)
{
	struct info_edit *e;
	size_t cap, i, n = 0;
	const char *parts[2] = { it->operations, it->removed };
	size_t lens[2] = { it->operations_len, it->removed_len };
	int k, bol;

	if (c->nomem)
		return;
	if (c->nedit == c->editcap) {
		cap = c->editcap != 0 ? 2 * c->editcap : 8;
		if ((e = reallocarray(c->edit, cap, sizeof(*e))) == NULL) {
			c->nomem = 1;
			return;
		}
		c->edit = e;
		c->editcap = cap;
	}
	e = &c->edit[c->nedit];
	memset(e, 0, sizeof(*e));
	e->step = it->step;
	e->time = it->time;
	e->model = *it->model;
	e->mjb_len = it->len;
	/* "  " before each line, "removed: " before the removed ones. */
	if ((e->text = malloc(3 * (lens[0] + lens[1]) + 16)) == NULL) {
		c->nomem = 1;
		return;
	}
	for (k = 0; k < 2; k++) {
		bol = 1;
		for (i = 0; i < lens[k]; i++) {
			if (bol) {
				n += (size_t)sprintf(
				    e->text + n, k == 0 ? "  " : "  removed: ");
				bol = 0;
			}
			e->text[n++] = parts[k][i];
			bol = parts[k][i] == '\n';
		}
		if (!bol)
			e->text[n++] = '\n';
	}
	e->text[n] = '\0';
	c->nedit++;
}

static void
info_count(struct info_counts *c, const struct rec_item *it)
{
	struct rec_array_write a;

	switch (it->tag) {
	case REC_TAG_STATE:
		if (c->records == 0) {
			c->first_step = it->step;
			c->first_time = it->time;
		}
		c->last_step = it->step;
		c->last_time = it->time;
		c->records++;
		info_segment(c, it);
		break;
	case REC_TAG_JOURNAL:
		c->journal++;
		if (it->kind == REC_JOURNAL_ARRAY) {
			if (rec_array_parse(it, &a) == 0)
				c->arrays++;
			else
				c->bad_arrays++;
		} else if (it->kind == REC_JOURNAL_MODEL) {
			c->models++;
			c->model_len = it->len;
		}
		break;
	case REC_TAG_HASH:
		c->hashes++;
		break;
	case REC_TAG_MODEL:
		info_edit(c, it);
		break;
	}
}

static void
info_header(const char *path, const struct rec_header *h)
{
	char buf[128];
	int f, n = 0;

	printf("file: %s\n", path);
	if (h->format == REC_FORMAT_MJL) {
		/* HAPTIX's log holds no version, hash, date or timestep. */
		printf("format: mjl (a HAPTIX log)\n");
		printf("model: %s\n", h->name);
		printf("sizes: nq %u nv %u nu %u nmocap %u nsensordata %u\n",
		    h->nq, h->nv, h->nu, h->nmocap, h->nsensordata);
	} else {
		printf("format: hxr\n");
		printf("version: %u\n", h->version);
		printf("model: %s\n", h->name);
		printf("model hash: %016" PRIx64 "\n", h->model_hash);
		printf("created: %s\n",
		    info_created(h->created, buf, sizeof(buf)));
		printf("sizes: nq %u nv %u na %u nu %u nmocap %u "
		       "nsensordata %u nbody %u\n",
		    h->nq, h->nv, h->na, h->nu, h->nmocap, h->nsensordata,
		    h->nbody);
		printf("timestep: %s\n",
		    info_double(h->timestep, buf, sizeof(buf)));
	}
	printf("fields:");
	for (f = 0; f < REC_NFIELD; f++) {
		if (h->fields & REC_FIELD_BIT(f)) {
			printf(" %s", rec_field_name((enum rec_field)f));
			n++;
		}
	}
	printf("%s\n", n == 0 ? " none (the time only)" : "");
	printf("every: %u\n", h->every);
}

/*
 * The segments: a reset in the recording sends the time back and begins
 * one, so that first and last time alone would hide what came between.
 */
static void
info_segments(const struct info_counts *c)
{
	const struct info_segment *s;
	char a[64], b[64];
	size_t i;

	if (c->nomem) {
		printf("segments: too many to hold in memory\n");
		return;
	}
	printf("segments: %zu\n", c->nseg);
	for (i = 0; i < c->nseg; i++) {
		s = &c->seg[i];
		printf("segment %zu: %" PRIu64 " records, steps %" PRIu64
		       " to %" PRIu64 ", time %s to %s\n",
		    i + 1, s->records, s->first_step, s->last_step,
		    info_double(s->first_time, a, sizeof(a)),
		    info_double(s->last_time, b, sizeof(b)));
	}
}

/*
 * The edits: where each was made, the model it made (its sizes change
 * the records' from there) and what it did, one operation a line.
 */
static void
info_edits(const struct info_counts *c)
{
	const struct info_edit *e;
	const struct rec_header *h;
	char buf[64];
	size_t i;

	if (c->nomem) {
		printf("edits: too many to hold in memory\n");
		return;
	}
	printf("edits: %zu\n", c->nedit);
	for (i = 0; i < c->nedit; i++) {
		e = &c->edit[i];
		h = &e->model;
		printf("edit %zu: step %" PRIu64 ", time %s, model hash "
		       "%016" PRIx64 " (%zu bytes), sizes nq %u nv %u na %u "
		       "nu %u nmocap %u nsensordata %u nbody %u\n%s",
		    i + 1, e->step, info_double(e->time, buf, sizeof(buf)),
		    h->model_hash, e->mjb_len, h->nq, h->nv, h->na, h->nu,
		    h->nmocap, h->nsensordata, h->nbody, e->text);
	}
}

static void
info_items(const struct info_counts *c)
{
	char buf[64];

	printf("records: %" PRIu64 "\n", c->records);
	if (c->records == 0) {
		printf("first step: -\nlast step: -\n");
		printf("first time: -\nlast time: -\n");
	} else {
		printf("first step: %" PRIu64 "\n", c->first_step);
		printf("last step: %" PRIu64 "\n", c->last_step);
		printf("first time: %s\n",
		    info_double(c->first_time, buf, sizeof(buf)));
		printf("last time: %s\n",
		    info_double(c->last_time, buf, sizeof(buf)));
	}
	info_segments(c);
	info_edits(c);
	printf("journal entries: %" PRIu64 "\n", c->journal);
	printf("array writes: %" PRIu64 "\n", c->arrays);
	if (c->bad_arrays != 0)
		printf("malformed array writes: %" PRIu64 "\n", c->bad_arrays);
	if (c->models != 0)
		printf("journal model: yes, %zu bytes\n", c->model_len);
	else
		printf("journal model: no\n");
	printf("hashes: %" PRIu64 "\n", c->hashes);
}

/* The frames (a .mjl has none), the bytes and how the file ends. */
static void
info_end(const char *path, const struct rec_header *h,
    const struct rec_reader_stats *st, int rc, const char *error)
{
	int mjl = h->format == REC_FORMAT_MJL;
	struct stat sb;

	if (!mjl)
		printf("frames: %" PRIu64 "\n", st->frames);
	if (st->skipped != 0)
		printf("unknown items: %" PRIu64 "\n", st->skipped);
	if (stat(path, &sb) == 0)
		printf("bytes: %lld\n", (long long)sb.st_size);
	if (rc < 0)
		printf("end: error: %s\n", error);
	else if (st->truncated)
		printf("end: cut inside a %s: %" PRIu64 " bytes dropped\n",
		    mjl ? "record" : "frame", st->dropped);
	else
		printf("end: complete\n");
}

/* Describe the recording at path on stdout: PLAY_OK, or PLAY_FAIL having
 * said why (a file cut short is described up to its end). */
static int
info_file(const char *path)
{
	struct info_counts c;
	struct rec_reader_stats st;
	struct rec_reader *r;
	struct rec_item it;
	char err[512];
	int rc;

	if ((r = rec_reader_open(path, err, sizeof(err))) == NULL) {
		program_warn("%s", err);
		return PLAY_FAIL;
	}
	info_header(path, rec_reader_header(r));
	memset(&c, 0, sizeof(c));
	while ((rc = rec_reader_next(r, &it)) == 1)
		info_count(&c, &it);
	rec_reader_stats(r, &st);
	info_items(&c);
	info_end(path, rec_reader_header(r), &st, rc, rec_reader_error(r));
	if (rc < 0)
		program_warn("%s: %s", path, rec_reader_error(r));
	rec_reader_close(r);
	free(c.seg);
	while (c.nedit > 0)
		free(c.edit[--c.nedit].text);
	free(c.edit);
	return rc < 0 ? PLAY_FAIL : PLAY_OK;
}

int
play_info(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "state-dir", required_argument, NULL, 'D' },
		{ NULL, 0, NULL, 0 },
	};
	int ch, rc;

	/* getopt would name argv[0], the command, as the program. */
	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'h':
			info_usage(stdout);
			return PLAY_OK;
		case 'D':
			play_state_dir = optarg;
			break;
		default:
			program_warn(
			    "info: '%s' is not an option here, or lacks its "
			    "argument",
			    argv[optind - 1]);
			info_usage(stderr);
			return PLAY_USAGE;
		}
	}
	if (optind != argc - 1) {
		program_warn(optind == argc ? "info: name a recording (.hxr)" :
					      "info: one recording at a time");
		info_usage(stderr);
		return PLAY_USAGE;
	}
	if ((argv[optind] = (char *)play_find(argv[optind])) == NULL)
		return PLAY_FAIL;
	rc = info_file(argv[optind]);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		program_warn("writing the output failed");
		return PLAY_FAIL;
	}
	return rc;
}
