/*
 * hxplay export FILE (--csv DIR | --npy DIR) [--fields F,...] [--force]:
 * one file per field, one row per state record, for NumPy, pandas or a
 * spreadsheet.  hxplay(1) and docs/recording.md give the layout.  With
 * --mcap OUT, one MCAP file for Foxglove instead: hxplay_mcap.c.
 *
 * The export streams: each record goes to the files as it is read, so a
 * recording of any length takes the memory of one record.  A .npy file
 * gets a header of fixed size first, rewritten at the end with the rows
 * counted; header.json is written last, so its presence says that the
 * export finished.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "hxplay_common.h"
#include "json_string.h"
#include "program.h"
#include "recording.h"

/*
 * A .npy header of 128 bytes holds any shape a recording can have (20
 * digits of rows, 9 of columns) and keeps the data 64-byte aligned, as
 * NumPy's own writer does.
 */
#define NPY_HEADER 128
#define NPY_PREAMBLE 10 /* magic, version, header length */

enum exp_format { EXP_NPY, EXP_CSV };

/* One output file. */
struct exp_file {
	FILE *fp;
	char path[PATH_MAX];
	const char *descr; /* NumPy's dtype: "<f8" or "<u8" */
	int ndim;          /* 1: (rows,); 2: (rows, cols) */
	size_t cols;
	uint64_t rows;
	int made; /* created by this export: removed if it fails */
};

struct exp {
	const char *file;
	const char *dir;
	enum exp_format format;
	const char *fields; /* --fields, or NULL for all recorded */
	int force;
	const char *mcap;  /* --mcap OUT: the MCAP export instead */
	const char *model; /* --model: for --mcap, the recorded model */

	struct rec_reader *r;
	const struct rec_header *h;
	uint32_t chosen; /* REC_FIELD_BIT()s to export */
	struct rec_reader_stats st;
	int read_failed;
	char edited[256]; /* why the export stopped at an edit, or "" */

	struct exp_file field[REC_NFIELD];
	struct exp_file step; /* npy only: csv puts the step in every file */
	struct exp_file time;
	struct exp_file segment; /* each record's segment, from 1 */
	uint64_t segments;
	struct exp_file hash; /* opened at the first hash */
	struct exp_file json; /* header.json, the last */
	int failed;           /* writing failed: the export is removed */
};

static void
export_usage(FILE *fp)
{
	fprintf(fp,
	    "usage: hxplay export FILE (--csv DIR | --npy DIR) "
	    "[--fields F,...] [--force]\n"
	    "                     [--state-dir DIR]\n"
	    "       hxplay export FILE --mcap OUT.mcap [--model FILE] "
	    "[--force]\n"
	    "                     [--state-dir DIR]\n");
}

static const char *
exp_ext(const struct exp *e)
{
	return e->format == EXP_NPY ? "npy" : "csv";
}

/* Fails the export on path's errno: the files made are removed. */
static int
exp_fail(struct exp *e, const char *path)
{
	program_warn("%s: %s", path, strerror(errno));
	e->failed = 1;
	return -1;
}

/* mkdir -p: a missing directory and its missing parents. */
static int
exp_mkdirs(const char *dir)
{
	char path[PATH_MAX], *p;
	struct stat sb;

	if (snprintf(path, sizeof(path), "%s", dir) >= (int)sizeof(path)) {
		program_warn("%s: the name is too long", dir);
		return -1;
	}
	for (p = path + 1; *p != '\0'; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0777) != 0 && errno != EEXIST) {
			program_warn("%s: %s", path, strerror(errno));
			return -1;
		}
		*p = '/';
	}
	if (mkdir(path, 0777) != 0 && errno != EEXIST) {
		program_warn("%s: %s", path, strerror(errno));
		return -1;
	}
	if (stat(path, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
		program_warn("%s: not a directory", path);
		return -1;
	}
	return 0;
}

static int
exp_path(const struct exp *e, const char *name, const char *ext, char *buf)
{
	if (snprintf(buf, PATH_MAX, "%s/%s.%s", e->dir, name, ext) >=
	    PATH_MAX) {
		program_warn("%s: the name is too long", e->dir);
		return -1;
	}
	return 0;
}

/*
 * Refuse a directory that holds any file an export of this format may
 * write, not only those this one will: an old hash.npy or qvel.npy
 * beside new files would pass for part of them.  --force removes them.
 */
static int
exp_clear(const struct exp *e)
{
	const char *names[REC_NFIELD + 5];
	char path[PATH_MAX];
	size_t i, n = 0;
	struct stat sb;

	for (i = 0; i < REC_NFIELD; i++)
		names[n++] = rec_field_name((enum rec_field)i);
	names[n++] = "time";
	names[n++] = "segment";
	names[n++] = "hash";
	if (e->format == EXP_NPY)
		names[n++] = "step";
	for (i = 0; i <= n; i++) {
		if (i == n ? exp_path(e, "header", "json", path) != 0 :
			     exp_path(e, names[i], exp_ext(e), path) != 0)
			return -1;
		if (lstat(path, &sb) != 0)
			continue;
		if (!e->force) {
			program_warn("%s exists: an earlier export? (--force "
				     "replaces it)",
			    path);
			return -1;
		}
		if (unlink(path) != 0) {
			program_warn("%s: %s", path, strerror(errno));
			return -1;
		}
	}
	return 0;
}

/* Create name.ext (never over a file: exp_clear made way). */
static int
exp_create(struct exp *e, struct exp_file *f, const char *name, const char *ext)
{
	int fd;

	if (exp_path(e, name, ext, f->path) != 0) {
		e->failed = 1;
		return -1;
	}
	fd = open(f->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return exp_fail(e, f->path);
	f->made = 1;
	if ((f->fp = fdopen(fd, "w")) == NULL) {
		close(fd);
		return exp_fail(e, f->path);
	}
	/* A dozen files written a few bytes at a time: write less often. */
	setvbuf(f->fp, NULL, _IOFBF, 1 << 16);
	return 0;
}

/* The .npy header: version 1.0, shape (rows,) or (rows, cols). */
static void
npy_header(const struct exp_file *f, char *buf)
{
	char dict[NPY_HEADER];
	int n;

	if (f->ndim == 1)
		n = snprintf(dict, sizeof(dict),
		    "{'descr': '%s', 'fortran_order': False, "
		    "'shape': (%" PRIu64 ",), }",
		    f->descr, f->rows);
	else
		n = snprintf(dict, sizeof(dict),
		    "{'descr': '%s', 'fortran_order': False, "
		    "'shape': (%" PRIu64 ", %zu), }",
		    f->descr, f->rows, f->cols);
	memcpy(buf, "\x93NUMPY\x01\x00", 8);
	buf[8] = (char)((NPY_HEADER - NPY_PREAMBLE) & 0xff);
	buf[9] = (char)((NPY_HEADER - NPY_PREAMBLE) >> 8);
	memset(buf + NPY_PREAMBLE, ' ', NPY_HEADER - NPY_PREAMBLE);
	memcpy(buf + NPY_PREAMBLE, dict, (size_t)n);
	buf[NPY_HEADER - 1] = '\n';
}

static int
npy_open(struct exp *e, struct exp_file *f, const char *name, const char *descr,
    int ndim, size_t cols)
{
	char head[NPY_HEADER];

	f->descr = descr;
	f->ndim = ndim;
	f->cols = cols;
	if (exp_create(e, f, name, "npy") != 0)
		return -1;
	npy_header(f, head);
	if (fwrite(head, 1, sizeof(head), f->fp) != sizeof(head))
		return exp_fail(e, f->path);
	return 0;
}

/* n 8-byte values (doubles or u64s) little-endian, whatever the host. */
static void
npy_put(struct exp_file *f, const void *v, size_t n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	fwrite(v, 8, n, f->fp);
#else
	const unsigned char *p = v;
	uint64_t u;
	size_t i;
	int b;

	for (i = 0; i < n; i++) {
		memcpy(&u, p + 8 * i, 8);
		for (b = 0; b < 8; b++)
			putc((int)(u >> (8 * b) & 0xff), f->fp);
	}
#endif
}

/* The CSV header line: step,time,qpos[0],... */
static int
csv_open(struct exp *e, struct exp_file *f, const char *name, size_t cols,
    const char *first)
{
	size_t i;

	f->cols = cols;
	if (exp_create(e, f, name, "csv") != 0)
		return -1;
	fprintf(f->fp, "%s", first);
	for (i = 0; i < cols; i++)
		fprintf(f->fp, ",%s[%zu]", name, i);
	fputc('\n', f->fp);
	return 0;
}

/* What the export writes before the first record. */
static int
exp_open_files(struct exp *e)
{
	const char *name;
	size_t n;
	int i;

	if (e->format == EXP_NPY) {
		if (npy_open(e, &e->step, "step", "<u8", 1, 0) != 0 ||
		    npy_open(e, &e->time, "time", "<f8", 1, 0) != 0 ||
		    npy_open(e, &e->segment, "segment", "<u8", 1, 0) != 0)
			return -1;
	} else if (csv_open(e, &e->time, "time", 0, "step,time") != 0 ||
	    csv_open(e, &e->segment, "segment", 0, "step,time,segment") != 0)
		return -1;
	for (i = 0; i < REC_NFIELD; i++) {
		if (!(e->chosen & REC_FIELD_BIT(i)))
			continue;
		name = rec_field_name((enum rec_field)i);
		n = rec_field_size(e->h, (enum rec_field)i);
		if (e->format == EXP_NPY ?
			npy_open(e, &e->field[i], name, "<f8", 2, n) != 0 :
			csv_open(e, &e->field[i], name, n, "step,time") != 0)
			return -1;
	}
	return 0;
}

/*
 * %.17g reads back as the same double; NaN and infinities print as nan,
 * -nan, inf and -inf, which strtod and Python's float() read.
 */
static void
csv_row(struct exp_file *f, uint64_t step, double time, const double *v)
{
	size_t i;

	fprintf(f->fp, "%" PRIu64 ",%.17g", step, time);
	for (i = 0; i < f->cols; i++)
		fprintf(f->fp, ",%.17g", v[i]);
	fputc('\n', f->fp);
	f->rows++;
}

static void
exp_record(struct exp *e, const struct rec_item *it)
{
	int i;

	if (e->format == EXP_NPY) {
		npy_put(&e->step, &it->step, 1);
		npy_put(&e->time, &it->time, 1);
		npy_put(&e->segment, &it->segment, 1);
		e->step.rows++;
		e->time.rows++;
		e->segment.rows++;
	} else {
		csv_row(&e->time, it->step, it->time, NULL);
		fprintf(e->segment.fp, "%" PRIu64 ",%.17g,%" PRIu64 "\n",
		    it->step, it->time, it->segment);
		e->segment.rows++;
	}
	e->segments = it->segment;
	for (i = 0; i < REC_NFIELD; i++) {
		if (!(e->chosen & REC_FIELD_BIT(i)))
			continue;
		if (e->format == EXP_NPY) {
			npy_put(&e->field[i], it->field[i], e->field[i].cols);
			e->field[i].rows++;
		} else
			csv_row(&e->field[i], it->step, it->time, it->field[i]);
	}
}

/* hash.npy is (hashes, 2) u64: step, hash; hash.csv has those columns. */
static int
exp_hash(struct exp *e, const struct rec_item *it)
{
	uint64_t row[2] = { it->step, it->hash };

	if (e->hash.fp == NULL &&
	    (e->format == EXP_NPY ?
		    npy_open(e, &e->hash, "hash", "<u8", 2, 2) :
		    exp_create(e, &e->hash, "hash", "csv")) != 0)
		return -1;
	if (e->format == EXP_NPY)
		npy_put(&e->hash, row, 2);
	else {
		if (e->hash.rows == 0)
			fprintf(e->hash.fp, "step,hash\n");
		fprintf(
		    e->hash.fp, "%" PRIu64 ",%" PRIu64 "\n", row[0], row[1]);
	}
	e->hash.rows++;
	return 0;
}

/*
 * A file whose writing failed, or NULL: a full disk stops the export at
 * once, not at the end of the recording.  errno is still the write's.
 */
static const struct exp_file *
exp_write_failed(const struct exp *e)
{
	int i;

	if (e->time.fp != NULL && ferror(e->time.fp))
		return &e->time;
	if (e->step.fp != NULL && ferror(e->step.fp))
		return &e->step;
	if (e->segment.fp != NULL && ferror(e->segment.fp))
		return &e->segment;
	if (e->hash.fp != NULL && ferror(e->hash.fp))
		return &e->hash;
	for (i = 0; i < REC_NFIELD; i++) {
		if (e->field[i].fp != NULL && ferror(e->field[i].fp))
			return &e->field[i];
	}
	return NULL;
}

/*
 * An edit that changes the size of a field exported ends the export
 * there: a file holds rows of one width.  1 if it does, with why.
 */
static int
exp_edited(struct exp *e, const struct rec_item *it)
{
	size_t was, now;
	int i;

	for (i = 0; i < REC_NFIELD; i++) {
		if (!(e->chosen & REC_FIELD_BIT(i)))
			continue;
		was = e->field[i].cols;
		now = rec_field_size(it->model, (enum rec_field)i);
		if (was == now)
			continue;
		snprintf(e->edited, sizeof(e->edited),
		    "the model was edited at step %" PRIu64
		    ": %s has %zu values where it had %zu, and a file holds "
		    "rows of one width",
		    it->step, rec_field_name((enum rec_field)i), now, was);
		return 1;
	}
	return 0;
}

/* Every item: records and hashes exported, the journal passed over. */
static int
exp_items(struct exp *e)
{
	const struct exp_file *f;
	struct rec_item it;
	int rc;

	while ((rc = rec_reader_next(e->r, &it)) == 1) {
		if (it.tag == REC_TAG_MODEL && exp_edited(e, &it))
			break;
		if (it.tag == REC_TAG_STATE)
			exp_record(e, &it);
		else if (it.tag == REC_TAG_HASH && exp_hash(e, &it) != 0)
			return -1;
		if ((f = exp_write_failed(e)) != NULL)
			return exp_fail(e, f->path);
	}
	rec_reader_stats(e->r, &e->st);
	e->read_failed = rc < 0;
	return 0;
}

/* Write the final .npy header, flush and close; 0 or -1. */
static int
exp_close(struct exp *e, struct exp_file *f)
{
	char head[NPY_HEADER];
	int rc = 0;

	if (f->fp == NULL)
		return 0;
	if (!e->failed && f->descr != NULL) {
		npy_header(f, head);
		if (fflush(f->fp) != 0 || fseek(f->fp, 0, SEEK_SET) != 0 ||
		    fwrite(head, 1, sizeof(head), f->fp) != sizeof(head))
			rc = -1;
	}
	if (ferror(f->fp))
		rc = -1;
	if (fclose(f->fp) != 0)
		rc = -1;
	f->fp = NULL;
	if (rc != 0 && !e->failed)
		exp_fail(e, f->path);
	return rc;
}

/* A JSON list of the field names of set. */
static void
json_fields(FILE *fp, uint32_t set)
{
	const char *sep = "";
	int i;

	fputc('[', fp);
	for (i = 0; i < REC_NFIELD; i++) {
		if (set & REC_FIELD_BIT(i)) {
			fprintf(fp, "%s\"%s\"", sep,
			    rec_field_name((enum rec_field)i));
			sep = ", ";
		}
	}
	fputc(']', fp);
}

/* The creation time as a JSON string, or null. */
static void
json_created(FILE *fp, int64_t ns)
{
	char buf[96];

	if (play_iso8601(ns, buf, sizeof(buf)) == NULL)
		fprintf(fp, "null");
	else
		fprintf(fp, "\"%s\"", buf);
}

static void
json_body(const struct exp *e, FILE *fp)
{
	const struct rec_header *h = e->h;

	fprintf(fp, "{\n  \"format\": \"%s\",\n  \"file\": ", exp_ext(e));
	json_string(fp, e->file);
	fprintf(fp, ",\n  \"recording\": \"%s\"",
	    h->format == REC_FORMAT_MJL ? "mjl" : "hxr");
	fprintf(fp, ",\n  \"version\": %u,\n  \"name\": ", h->version);
	json_string(fp, h->name);
	fprintf(
	    fp, ",\n  \"model_hash\": \"%016" PRIx64 "\",\n", h->model_hash);
	fprintf(fp, "  \"created\": ");
	json_created(fp, h->created);
	fprintf(fp, ",\n  \"created_ns\": %" PRId64 ",\n", h->created);
	fprintf(fp,
	    "  \"sizes\": {\"nq\": %u, \"nv\": %u, \"na\": %u, \"nu\": %u, "
	    "\"nmocap\": %u, \"nsensordata\": %u, \"nbody\": %u},\n",
	    h->nq, h->nv, h->na, h->nu, h->nmocap, h->nsensordata, h->nbody);
	if (isfinite(h->timestep))
		fprintf(fp, "  \"timestep\": %.17g,\n", h->timestep);
	else
		fprintf(fp, "  \"timestep\": null,\n");
	fprintf(fp, "  \"every\": %u,\n  \"recorded\": ", h->every);
	json_fields(fp, h->fields);
	fprintf(fp, ",\n  \"fields\": ");
	json_fields(fp, e->chosen);
	fprintf(fp,
	    ",\n  \"records\": %" PRIu64 ",\n  \"segments\": %" PRIu64
	    ",\n  \"hashes\": %" PRIu64 ",\n",
	    e->time.rows, e->segments, e->hash.rows);
	fprintf(fp,
	    "  \"truncated\": %s,\n  \"dropped_bytes\": %" PRIu64 ",\n"
	    "  \"error\": ",
	    e->st.truncated ? "true" : "false", e->st.dropped);
	if (e->read_failed)
		json_string(fp, rec_reader_error(e->r));
	else if (e->edited[0] != '\0')
		json_string(fp, e->edited);
	else
		fprintf(fp, "null");
	fprintf(fp, "\n}\n");
}

static int
exp_json(struct exp *e)
{
	if (exp_create(e, &e->json, "header", "json") != 0)
		return -1;
	json_body(e, e->json.fp);
	return exp_close(e, &e->json);
}

/* Every file of this export, closed; removed when writing failed. */
static void
exp_cleanup(struct exp *e)
{
	struct exp_file *files[REC_NFIELD + 5];
	size_t i, n = 0;

	for (i = 0; i < REC_NFIELD; i++)
		files[n++] = &e->field[i];
	files[n++] = &e->step;
	files[n++] = &e->time;
	files[n++] = &e->segment;
	files[n++] = &e->hash;
	files[n++] = &e->json;
	for (i = 0; i < n; i++) {
		if (files[i]->fp != NULL)
			exp_close(e, files[i]);
	}
	for (i = 0; e->failed && i < n; i++) {
		if (files[i]->made)
			unlink(files[i]->path);
	}
}

/* The fields to export: --fields, each recorded, or all recorded. */
static int
exp_choose(struct exp *e)
{
	char *list, *name, *save = NULL;
	int i, rc = PLAY_OK;

	if (e->fields == NULL) {
		e->chosen = e->h->fields;
		return PLAY_OK;
	}
	if ((list = strdup(e->fields)) == NULL) {
		program_warn("out of memory");
		return PLAY_FAIL;
	}
	for (name = strtok_r(list, ",", &save); name != NULL && rc == PLAY_OK;
	     name = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < REC_NFIELD; i++) {
			if (strcmp(name, rec_field_name((enum rec_field)i)) ==
			    0)
				break;
		}
		if (i == REC_NFIELD) {
			program_warn(
			    "--fields: no field '%s' (qpos, qvel, act, "
			    "ctrl, mocap_pos, mocap_quat, sensordata, "
			    "qfrc_applied, xfrc_applied)",
			    name);
			rc = PLAY_USAGE;
		} else if (!(e->h->fields & REC_FIELD_BIT(i))) {
			program_warn("%s: %s was not recorded", e->file, name);
			rc = PLAY_FAIL;
		} else
			e->chosen |= REC_FIELD_BIT(i);
	}
	free(list);
	if (rc == PLAY_OK && e->chosen == 0) {
		program_warn("--fields: name one field or more");
		rc = PLAY_USAGE;
	}
	return rc;
}

static int
exp_args(struct exp *e, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "csv", required_argument, NULL, 'c' },
		{ "npy", required_argument, NULL, 'n' },
		{ "mcap", required_argument, NULL, 'm' },
		{ "model", required_argument, NULL, 'M' },
		{ "fields", required_argument, NULL, 'f' },
		{ "force", no_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ "state-dir", required_argument, NULL, 'D' },
		{ NULL, 0, NULL, 0 },
	};
	int ch, formats = 0;

	/* getopt would name argv[0], the command, as the program. */
	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'c':
		case 'n':
			e->format = ch == 'c' ? EXP_CSV : EXP_NPY;
			e->dir = optarg;
			formats++;
			break;
		case 'm':
			e->mcap = optarg;
			formats++;
			break;
		case 'M':
			e->model = optarg;
			break;
		case 'f':
			e->fields = optarg;
			break;
		case 'F':
			e->force = 1;
			break;
		case 'D':
			play_state_dir = optarg;
			break;
		case 'h':
			export_usage(stdout);
			return -1; /* done, and not a failure */
		default:
			program_warn(
			    "export: '%s' is not an option here, or lacks its "
			    "argument",
			    argv[optind - 1]);
			export_usage(stderr);
			return PLAY_USAGE;
		}
	}
	if (optind != argc - 1) {
		program_warn(optind == argc ?
			"export: name a recording (.hxr)" :
			"export: one recording at a time");
		export_usage(stderr);
		return PLAY_USAGE;
	}
	if (formats != 1 || (e->mcap != NULL ? e->mcap : e->dir)[0] == '\0') {
		program_warn("export: give one of --csv DIR, --npy DIR and "
			     "--mcap FILE");
		export_usage(stderr);
		return PLAY_USAGE;
	}
	if (e->mcap != NULL ? e->fields != NULL : e->model != NULL) {
		program_warn(e->mcap != NULL ?
			"export: --mcap writes every field: --fields is for "
			"--csv and --npy" :
			"export: --model goes with --mcap");
		export_usage(stderr);
		return PLAY_USAGE;
	}
	if ((e->file = play_find(argv[optind])) == NULL)
		return PLAY_FAIL;
	return PLAY_OK;
}

/* How the reading ended, on stderr when it was not the whole file. */
static int
exp_report(const struct exp *e)
{
	if (e->read_failed) {
		program_warn("%s: %s; exported the %" PRIu64
			     " records before it",
		    e->file, rec_reader_error(e->r), e->time.rows);
		return PLAY_FAIL;
	}
	if (e->edited[0] != '\0') {
		program_warn("%s: %s; exported the %" PRIu64
			     " records before it (--fields can leave out "
			     "what changed)",
		    e->file, e->edited, e->time.rows);
		return PLAY_FAIL;
	}
	if (e->st.truncated)
		program_warn("%s: cut inside a frame: %" PRIu64
			     " bytes dropped; exported the %" PRIu64
			     " whole records",
		    e->file, e->st.dropped, e->time.rows);
	return PLAY_OK;
}

int
play_export(int argc, char **argv)
{
	struct exp e;
	char err[512];
	int rc;

	memset(&e, 0, sizeof(e));
	if ((rc = exp_args(&e, argc, argv)) != PLAY_OK)
		return rc < 0 ? PLAY_OK : rc;
	if (e.mcap != NULL)
		return play_export_mcap(e.file, e.mcap, e.model, e.force);
	if ((e.r = rec_reader_open(e.file, err, sizeof(err))) == NULL) {
		program_warn("%s", err);
		return PLAY_FAIL;
	}
	e.h = rec_reader_header(e.r);
	rc = exp_choose(&e);
	if (rc == PLAY_OK &&
	    (exp_mkdirs(e.dir) != 0 || exp_clear(&e) != 0 ||
		exp_open_files(&e) != 0 || exp_items(&e) != 0))
		rc = PLAY_FAIL;
	exp_cleanup(&e);
	if (rc == PLAY_OK && (e.failed || exp_json(&e) != 0)) {
		exp_cleanup(&e);
		rc = PLAY_FAIL;
	}
	if (rc == PLAY_OK)
		rc = exp_report(&e);
	rec_reader_close(e.r);
	return rc;
}
