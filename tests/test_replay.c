/*
 * Recordings through hxview serve (clients/hxview_replay.c), through a
 * real haptixd: /recordings.json lists the daemon's recordings,
 * /recording.json reads one with the recording library and says what it
 * holds (records, fields, a marker where it was reset), answers a record
 * as a frame whose qpos is the recorded one and a sensor's series over
 * the recording's time; the live simulation is not moved; bad names,
 * records and a recording of another model are refused with the reason.
 *
 * browser_main() skips (77, with the reason) without what hxview serve
 * needs, and fails instead under $CI.
 */
#include "config.h"

#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "browser.h"
#include "check.h"
#include "harness.h"
#include "haptixd.h"
#include "recorded.h"

static struct hx_server server;
static hxd_conn *watch;

static void
cleanup(void)
{
	browser_cleanup(&watch);
}

TestSuite(replay, .timeout = 120, .fini = cleanup);

/* GET path of hxview; the status, the body (static, replaced each call). */
static int
get(int port, const char *path, char **body)
{
	static char *last;
	char why[256];
	int code;

	free(last);
	last = NULL;
	code = http_call(port, "GET", path, NULL, 20, &last, why, sizeof(why));
	cr_assert(code > 0, "GET %s: %s", path, why);
	if (last == NULL)
		last = strdup("");
	*body = last;
	return code;
}

/* The n-th number of the JSON array key in body. */
static double
json_nth(const char *body, const char *key, int n)
{
	const char *p = strstr(body, key);
	char *end;
	double v = NAN;
	int i;

	cr_assert_not_null(p, "no %s in %.300s", key, body);
	p = strchr(p, '[');
	cr_assert_not_null(p);
	p++;
	for (i = 0; i <= n; i++) {
		v = strtod(p, &end);
		cr_assert(end != p, "%s has fewer than %d numbers", key, n + 1);
		p = end + 1;
	}
	return v;
}

Test(replay, a_recording_is_listed_read_and_drawn)
{
	static const char *const args[] = { "-m", "workbench.xml", "--paused",
		NULL };
	static const char *const rgba[] = { "rgba", "0 1 1 1" };
	static const hxd_edit_op recolour[] = {
		{ HXD_EDIT_SET, "geom", "arm", NULL, NULL, rgba, 1 },
	};
	char path[4096], file[256], url[600], *body;
	double recorded[16], err_at;
	hxd_recording r, other;
	unsigned taken;
	int port, i, nq, n;

	hx_server_start(&server, args);
	watch = hx_connect_ok(hx_server_addr(&server, 0), "test_replay");
	/* A recording of another model first, then of the workbench. */
	HX_OK(watch, hxd_load_file(watch, hx_test_model("fixture.xml"), NULL));
	HX_OK(watch, hxd_record_start(watch, RECORDED_FIELDS, 0, 0, &other));
	HX_OK(watch, hxd_step(watch, 5, &taken));
	HX_OK(watch, hxd_record_stop(watch, &other));
	HX_OK(
	    watch, hxd_load_file(watch, hx_test_model("workbench.xml"), NULL));
	recorded_drop_start(watch, &r);
	HX_OK(watch, hxd_step(watch, 50, &taken));
	HX_OK(watch, hxd_reset(watch, -1));
	HX_OK(watch, hxd_step(watch, 20, &taken));
	/* An edit that keeps the sizes (the arm's colour): marked too. */
	HX_OK(watch, hxd_edit_model(watch, recolour, 1, NULL, NULL));
	HX_OK(watch, hxd_step(watch, 10, &taken));
	HX_OK(watch, hxd_record_stop(watch, &r));
	/* What the file holds at record 20, read here. */
	nq = recorded_qpos(r.path, 20, recorded, 16, &n);
	cr_assert_eq(n, 80, "%d records", n);
	port = recorded_serve(
	    hx_server_addr(&server, 0), r.path, file, sizeof(file));

	cr_assert_eq(get(port, "/recordings.json", &body), 200, "%s", body);
	cr_assert(strstr(body, file) != NULL, "%s not listed: %s", file, body);

	snprintf(url, sizeof(url), "/recording.json?file=%.200s", file);
	cr_assert_eq(get(port, url, &body), 200, "%s", body);
	cr_assert(strstr(body, "\"records\":80") != NULL, "%s", body);
	cr_assert(strstr(body, "\"model\":\"workbench\"") != NULL, "%s", body);
	cr_assert(strstr(body, "\"sensordata\"") != NULL, "%s", body);
	cr_assert(strstr(body, "{\"record\":50,") != NULL &&
		strstr(body, "\"kind\":\"reset\"") != NULL,
	    "no reset marker at record 50: %s", body);
	cr_assert(strstr(body, "{\"record\":70,") != NULL &&
		strstr(body, "\"kind\":\"edit\"") != NULL,
	    "no edit marker at record 70: %s", body);

	/* Record 20 as a frame: the recorded qpos, the box in the air. */
	snprintf(
	    url, sizeof(url), "/recording.json?file=%.200s&record=20", file);
	cr_assert_eq(get(port, url, &body), 200, "%s", body);
	cr_assert(strstr(body, "\"poses\":\"") != NULL, "%.300s", body);
	for (i = 0; i < nq; i++) {
		err_at = fabs(json_nth(body, "\"qpos\":", i) - recorded[i]);
		cr_assert(err_at <= 1e-6 * (1 + fabs(recorded[i])),
		    "qpos[%d] %.9g, recorded %.9g", i,
		    json_nth(body, "\"qpos\":", i), recorded[i]);
	}
	cr_assert_gt(json_nth(body, "\"qpos\":", 2), 0.5, "the box in the air");

	/* A sensor over the recording's time: one value a record. */
	snprintf(
	    url, sizeof(url), "/recording.json?file=%.200s&sensor=0", file);
	cr_assert_eq(get(port, url, &body), 200, "%s", body);
	cr_assert(strstr(body, "\"values\":[") != NULL, "%s", body);
	json_nth(body, "\"values\":", 79);

	/* Refusals, each with its reason. */
	cr_assert_eq(get(port, "/recording.json?file=../etc.hxr", &body), 400);
	cr_assert_eq(get(port, "/recording.json?file=nosuch.hxr", &body), 404);
	cr_assert(strstr(body, "no recording") != NULL, "%s", body);
	snprintf(
	    url, sizeof(url), "/recording.json?file=%.200s&record=80", file);
	cr_assert_eq(get(port, url, &body), 404, "%s", body);
	snprintf(
	    url, sizeof(url), "/recording.json?file=%.200s&record=x", file);
	cr_assert_eq(get(port, url, &body), 400, "%s", body);
	snprintf(
	    url, sizeof(url), "/recording.json?file=%.200s&sensor=999", file);
	cr_assert_eq(get(port, url, &body), 404, "%s", body);
	snprintf(path, sizeof(path), "%.4000s", other.path);
	snprintf(url, sizeof(url), "/recording.json?file=%.200s&record=2",
	    basename(path));
	cr_assert_eq(get(port, url, &body), 409, "%s", body);
	cr_assert(strstr(body, "another model") != NULL, "%s", body);

	/* The same recording sent from a browser: kept as upload:NAME. */
	{
		static char answer[65536];
		char *bytes;
		long size;
		FILE *rf = fopen(r.path, "rb");

		cr_assert_not_null(rf);
		fseek(rf, 0, SEEK_END);
		size = ftell(rf);
		rewind(rf);
		bytes = malloc((size_t)size);
		cr_assert_eq(fread(bytes, 1, (size_t)size, rf), (size_t)size);
		fclose(rf);
		snprintf(url, sizeof(url), "/recording-upload?name=%s", file);
		cr_assert_eq(http_post_page(port, url, bytes, (size_t)size,
				 answer, sizeof(answer)),
		    200, "%s", answer);
		cr_assert(
		    strstr(answer, "\"records\":80") != NULL, "%s", answer);
		snprintf(url, sizeof(url),
		    "/recording.json?file=upload:%s&record=20", file);
		cr_assert_eq(get(port, url, &body), 200, "%s", body);
		cr_assert(
		    fabs(json_nth(body, "\"qpos\":", 2) - recorded[2]) < 1e-6);
		/* Not a recording, and no name: refused with the reason. */
		cr_assert_eq(
		    http_post_page(port, "/recording-upload?name=junk.hxr",
			"junk", 4, answer, sizeof(answer)),
		    422, "%s", answer);
		cr_assert_eq(http_post_page(port, "/recording-upload", bytes,
				 (size_t)size, answer, sizeof(answer)),
		    400, "%s", answer);
		free(bytes);
	}

	/* The history as one page: every state kept since the edit. */
	cr_assert_eq(get(port, "/export.html?history=1&fps=0", &body), 200,
	    "%.300s", body);
	cr_assert(strstr(body, "\"nframes\":10,") != NULL,
	    "not the 10 states kept since the edit");
	cr_assert(strstr(body, "THREE") != NULL, "three.js is not inlined");
	cr_assert_eq(get(port, "/export.html", &body), 400, "%s", body);
	cr_assert_eq(get(port, "/export.html?history=1&from=x", &body), 400);
	cr_assert_eq(get(port, "/export.html?history=1&from=1000", &body), 404);
	cr_assert_eq(get(port, "/export.html?file=nosuch.hxr", &body), 404);

	/* The live simulation did not move. */
	cr_assert_eq(hx_status_ok(watch).steps, 30);
}

int
main(int argc, char *argv[])
{
	return browser_main(argc, argv, "test_replay");
}
