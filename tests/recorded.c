/* What the tests of recordings in hxview share: see recorded.h. */
#include "config.h"

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "browser.h"
#include "check.h"
#include "harness.h"
#include "recorded.h"
#include "recording.h"

void
recorded_drop_start(hxd_conn *c, hxd_recording *r)
{
	hxd_state *st = NULL;

	HX_OK(c, hxd_get_state(c, &st));
	st->qpos[2] = 1.0; /* the box a metre up: it falls and lands */
	HX_OK(c, hxd_set_state(c, st));
	free(st);
	HX_OK(c, hxd_record_start(c, RECORDED_FIELDS, 0, 0, r));
}

int
recorded_qpos(const char *path, int i, double *q, int max, int *nrec)
{
	struct rec_reader *rd;
	struct rec_item it;
	char err[256];
	int n = 0, nq = 0;

	rd = rec_reader_open(path, err, sizeof(err));
	cr_assert_not_null(rd, "%s", err);
	while (rec_reader_next(rd, &it) == 1)
		if (it.tag == REC_TAG_STATE && n++ == i) {
			nq = (int)rec_reader_header(rd)->nq;
			cr_assert(nq <= max, "nq %d", nq);
			memcpy(
			    q, it.field[REC_QPOS], (size_t)nq * sizeof(double));
		}
	rec_reader_close(rd);
	cr_assert(n > i, "the file holds %d records, not %d", n, i + 1);
	if (nrec != NULL)
		*nrec = n;
	return nq;
}

int
recorded_serve(const char *addr, const char *path, char *file, size_t len)
{
	const char *argv[] = { hx_hxview_path(), "-s", addr, "serve", "--http",
		"127.0.0.1:0", NULL };
	char buf[4096], dir[4096];
	int port;

	snprintf(buf, sizeof(buf), "%.4000s", path);
	snprintf(dir, sizeof(dir), "%.4000s", dirname(buf));
	snprintf(buf, sizeof(buf), "%.4000s", path);
	snprintf(file, len, "%s", basename(buf));
	setenv("STATE_DIRECTORY", dir, 1);
	port = start_hxview_argv(argv);
	unsetenv("STATE_DIRECTORY");
	return port;
}
