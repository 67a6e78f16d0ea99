/* hxctl record: start and stop the server's recording. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "haptixd.h"
#include "hxctl_common.h"

/* One recording, as JSON or a line. */
static void
recording_show(const struct ctl *ctl, const hxd_recording *r)
{
	if (ctl->json) {
		js_open('{');
		recording_json(r);
		js_close('}');
		return;
	}
	printf("%s %s: %llu records, %llu bytes, one step in %u",
	    r->active ? "recording" : "recorded", r->path, r->records, r->bytes,
	    r->every);
	if (r->journal)
		printf(", journal of %llu inputs", r->journal_entries);
	printf("%s%s\n", r->ended[0] != '\0' ? "; " : "", r->ended);
}

void
recording_json(const hxd_recording *r)
{
	js_kb("active", r->active);
	js_ks("path", r->path);
	js_ki("every", (int)r->every);
	js_kb("journal", r->journal);
	js_ku("journal_entries", r->journal_entries);
	js_ku("records", r->records);
	js_ku("bytes", r->bytes);
	js_ks("ended", r->ended);
	js_ku("quota", r->quota);
}

int
cmd_record(struct ctl *ctl)
{
	struct ctl_opt opts[] = {
		{ "--every", OPT_STRING, 0, NULL, 0, 0 },
		{ "--fields", OPT_STRING, 0, NULL, 0, 0 },
		{ "--journal", OPT_FLAG, 0, NULL, 0, 0 },
	};
	hxd_recording r;
	unsigned fields = 0;
	long every = 0;
	int rc;

	if ((rc = ctl_options(ctl, opts, NELEM(opts))) != 0)
		return rc;
	if (ctl->npos != 1 ||
	    (strcmp(ctl->pos[0], "start") != 0 &&
		strcmp(ctl->pos[0], "stop") != 0))
		return ctl_usage_error(ctl, "say start or stop");
	if ((opts[0].given || opts[1].given || opts[2].given) &&
	    strcmp(ctl->pos[0], "start") != 0)
		return ctl_usage_error(
		    ctl, "--every, --fields and --journal go with start");
	if (opts[0].given && parse_long(opts[0].value, 0, 1000000, &every) != 0)
		return ctl_usage_error(ctl,
		    "--every: '%s' is not a number of steps to skip (0 to "
		    "1000000)",
		    opts[0].value);
	if (opts[1].given &&
	    (rc = ctl_fields(ctl, "--fields", opts[1].value, &fields)) != 0)
		return rc;
	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (strcmp(ctl->pos[0], "start") == 0)
		rc = hxd_record_start(ctl->conn, fields, (unsigned)every,
		    opts[2].given ? HXD_RECORD_JOURNAL : 0, &r);
	else
		rc = hxd_record_stop(ctl->conn, &r);
	if (rc != HXD_OK)
		return ctl_fail(ctl);
	recording_show(ctl, &r);
	return CTL_OK;
}
