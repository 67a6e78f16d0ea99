/*
 * The workbench's timeline (clients/workbench/timeline.js, hxview's
 * /history.json) in headless Chromium, through a real haptixd: while
 * paused, the slider goes back through the states the daemon kept; the
 * page shows a kept state (its reported state is the daemon's kept one,
 * and its pixels are those of the live page once the run resumes from
 * it), the simulation does not move while it is shown, and "Resume from
 * here" makes it the daemon's live state exactly.  A recording of the
 * state directory opens in the page (replay.js): its records, the reset
 * marked, a sensor over its time, a record showing the recorded qpos and
 * the box where it was, playing on by itself, the live run unmoved.
 *
 * browser_main() skips (77, with the reason) without Chromium, and
 * fails instead under $CI.
 */
#include "config.h"

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

#define WINDOW_ARGS \
	"\"--window-size=1000,700\",\"--enable-unsafe-swiftshader\"," \
	"\"--use-angle=swiftshader\""

static struct hx_server server;
static hxd_conn *watch;

static void
cleanup(void)
{
	browser_cleanup(&watch);
}

TestSuite(timeline, .timeout = 240, .fini = cleanup);

/* Where the canvas is red (the box), in canvas pixels: "X Y COUNT". */
static const char *const red_script =
    "var c = document.getElementById('view');"
    "var t = document.createElement('canvas');"
    "t.width = c.width; t.height = c.height;"
    "var g = t.getContext('2d'); g.drawImage(c, 0, 0);"
    "var d = g.getImageData(0, 0, t.width, t.height).data;"
    "var n = 0, x = 0, y = 0;"
    "for (var k = 0; k < d.length; k += 4) {"
    "  if (d[k] > 90 && d[k] > 3 * d[k + 1] && d[k] > 3 * d[k + 2]) {"
    "    var p = k / 4; n++; x += p % t.width; y += Math.floor(p / t.width);"
    "  }"
    "}"
    "return n ? (x / n) + ' ' + (y / n) + ' ' + n : '-1 -1 0';";

struct red {
	double x, y;
	int n;
};

static struct red
red_now(void)
{
	struct red r;

	cr_assert_eq(sscanf(js(red_script), "%lf %lf %d", &r.x, &r.y, &r.n), 3);
	return r;
}

/* Wait until the page has drawn what it holds now, then read the red. */
static struct red
red_drawn(void)
{
	js("hxwb.drawnMark = hxwb.drawn; hxwb.dirty = true; return '';");
	wait_for("return hxwb.drawn > hxwb.drawnMark ? 'yes' : 'drawn ' +"
		 " hxwb.drawn;",
	    15, "the page drawing again");
	return red_now();
}

/* The page's array expr (a qpos it shows) is want's n values, to 1e-6. */
static void
page_qpos_is(const char *expr, const double *want, int n)
{
	char script[256];
	double q;
	int i;

	for (i = 0; i < n; i++) {
		snprintf(
		    script, sizeof(script), "return String(%s[%d]);", expr, i);
		q = atof(js(script));
		cr_assert(fabs(q - want[i]) <= 1e-6 * (1 + fabs(want[i])),
		    "%s[%d] %.9g, not %.9g", expr, i, q, want[i]);
	}
}

Test(timeline, the_page_scrubs_the_history_and_resumes_from_it)
{
	static const char *const args[] = { "-m", "workbench.xml", "--paused",
		NULL };
	const char *argv[7];
	char url[128];
	struct red live, back, resumed;
	hxd_history_state h;
	hxd_state *st = NULL;
	unsigned taken;
	int port;

	hx_server_start(&server, args);
	watch = hx_connect_ok(hx_server_addr(&server, 0), "test_timeline");
	/* The box a metre up, falling for 0.6 s: it lands. */
	HX_OK(watch, hxd_get_state(watch, &st));
	st->qpos[2] = 1.0;
	HX_OK(watch, hxd_set_state(watch, st));
	free(st);
	HX_OK(watch, hxd_step(watch, 300, &taken));
	cr_assert_eq(taken, 300);

	argv[0] = hx_hxview_path();
	argv[1] = "-s";
	argv[2] = hx_server_addr(&server, 0);
	argv[3] = "serve";
	argv[4] = "--http";
	argv[5] = "127.0.0.1:0";
	argv[6] = NULL;
	port = start_hxview_argv(argv);
	start_driver();
	open_session_with(WINDOW_ARGS);
	snprintf(url, sizeof(url), "http://127.0.0.1:%d/", port);
	open_url(url);
	wait_for("var w = window.hxwb; return w && w.model && w.drawn >= 1 &&"
		 " w.timeline && w.timeline.states >= 300 &&"
		 " !document.getElementById('timeline').hidden ? 'yes' :"
		 " 'states ' + (w && w.timeline && w.timeline.states) +"
		 " ' paused ' + (w && w.timeline && w.timeline.paused) +"
		 " ' hidden ' + document.getElementById('timeline').hidden +"
		 " ' status ' + JSON.stringify(w && w.status);",
	    40, "the page with its timeline");
	live = red_drawn();
	cr_assert_gt(live.n, 50, "the box is not on the canvas");

	/* The slider 250 states back: the box in the air, as kept. */
	js("var r = document.getElementById('timeline-range');"
	   " r.value = Number(r.max) - 250;"
	   " r.dispatchEvent(new Event('input')); return '';");
	wait_for("var s = hxwb.timeline.shown; return s && s.back === 250 ?"
		 " 'yes' : 'shown ' + (s && s.back);",
	    15, "the kept state 250 back shown");
	HX_OK(watch, hxd_history(watch, 250, &h));
	cr_assert_eq(h.step, 50);
	page_qpos_is("hxwb.timeline.shown.qpos", h.qpos, (int)h.nqpos);
	back = red_drawn();
	cr_assert_gt(back.n, 50);
	cr_assert_gt(fabs(back.y - live.y), 20,
	    "the box is drawn where it is now (%.0f, %.0f), not where it was "
	    "(%.0f, %.0f)",
	    live.x, live.y, back.x, back.y);
	/* Showing it moved nothing. */
	cr_assert_eq(hx_status_ok(watch).steps, 300);
	cr_assert_str_eq(
	    js("return hxwb.timeline.shown ? 'shown' : 'live';"), "shown");

	/* Resume from it: the daemon's state is the kept one, exactly. */
	js("document.getElementById('timeline-resume').click(); return '';");
	wait_for("return hxwb.timeline.shown === null ? 'yes' : 'shown';", 15,
	    "the page live again after resuming");
	cr_assert_eq(hx_status_ok(watch).steps, 50);
	HX_OK(watch, hxd_get_state(watch, &st));
	cr_assert(memcmp(st->qpos, h.qpos, h.nqpos * sizeof(double)) == 0,
	    "the live qpos is not the kept one");
	cr_assert(memcmp(st->qvel, h.qvel, h.nqvel * sizeof(double)) == 0);
	free(st);
	wait_for("var f = hxwb.frame; return f && f.step === 50 ? 'yes' :"
		 " 'step ' + (f && f.step);",
	    15, "the live state of step 50 on the page");
	resumed = red_drawn();
	cr_assert(
	    fabs(resumed.x - back.x) <= 2 && fabs(resumed.y - back.y) <= 2,
	    "the kept state drawn at (%.1f, %.1f), the live one from it at "
	    "(%.1f, %.1f)",
	    back.x, back.y, resumed.x, resumed.y);
	hxd_history_state_free(&h);
}

Test(timeline, a_recording_plays_in_the_page)
{
	static const char *const args[] = { "-m", "workbench.xml", "--paused",
		NULL };
	char url[128], file[256], script[512];
	struct red live, at20;
	double recorded[16];
	hxd_recording r;
	unsigned taken;
	int port, nq;

	hx_server_start(&server, args);
	watch = hx_connect_ok(hx_server_addr(&server, 0), "test_timeline");
	recorded_drop_start(watch, &r);
	HX_OK(watch, hxd_step(watch, 100, &taken));
	HX_OK(watch, hxd_reset(watch, -1));
	HX_OK(watch, hxd_step(watch, 20, &taken));
	HX_OK(watch, hxd_record_stop(watch, &r));
	nq = recorded_qpos(r.path, 20, recorded, 16, NULL);
	port = recorded_serve(
	    hx_server_addr(&server, 0), r.path, file, sizeof(file));
	start_driver();
	open_session_with(WINDOW_ARGS);
	snprintf(url, sizeof(url), "http://127.0.0.1:%d/", port);
	open_url(url);
	snprintf(script, sizeof(script),
	    "var w = window.hxwb, s = document.getElementById('replay-files');"
	    " return w && w.model && w.drawn >= 1 && s.options.length &&"
	    " s.options[0].value === '%s' ? 'yes' : 'options ' +"
	    " (s && s.options.length);",
	    file);
	wait_for(script, 40, "the page listing the recording");
	live = red_drawn();

	/* Open it: its records, the reset marked, a sensor plotted. */
	js("document.getElementById('replay-open').click(); return '';");
	wait_for("var r = hxwb.replay; return r.rec && r.shown &&"
		 " r.series ? 'yes' : 'rec ' + !!r.rec + ' shown ' +"
		 " !!r.shown + ' series ' + !!r.series;",
	    15, "the recording open in the page");
	cr_assert_str_eq(js("return String(hxwb.replay.rec.records);"), "120");
	cr_assert_str_eq(js("return String(document.querySelectorAll("
			    "'#replay-marks .mark.reset').length);"),
	    "1");
	cr_assert_str_eq(
	    js("return String(hxwb.replay.series.values.length);"), "120");

	/* Record 20: the recorded qpos, the box drawn in the air. */
	js("var r = document.getElementById('replay-range'); r.value = 20;"
	   " r.dispatchEvent(new Event('input')); return '';");
	wait_for("var s = hxwb.replay.shown; return s && s.record === 20 ?"
		 " 'yes' : 'record ' + (s && s.record);",
	    15, "record 20 shown");
	page_qpos_is("hxwb.replay.shown.qpos", recorded, nq);
	at20 = red_drawn();
	cr_assert_gt(at20.n, 50);
	cr_assert_gt(fabs(at20.y - live.y), 20,
	    "the box is drawn where it is live (%.0f), not as recorded",
	    live.y);

	/* Play at x4: the records go on by themselves. */
	js("var s = document.getElementById('replay-speed'); s.value = '4';"
	   " s.dispatchEvent(new Event('change'));"
	   " document.getElementById('replay-play').click(); return '';");
	wait_for("return hxwb.replay.index > 60 ? 'yes' : 'record ' +"
		 " hxwb.replay.index;",
	    15, "the recording playing");
	/* The same file chosen from this computer: sent, read, shown. */
	choose_file("#replay-upload", r.path);
	snprintf(script, sizeof(script),
	    "var r = hxwb.replay; return r.rec && r.rec.file === 'upload:%s'"
	    " && r.shown ? 'yes' : 'file ' + (r.rec && r.rec.file);",
	    file);
	wait_for(script, 15, "the recording sent from the page open");
	cr_assert_str_eq(js("return String(hxwb.replay.rec.records);"), "120");
	/* Export: the page offers the file, saying its frames and size. */
	js("document.getElementById('replay-export').click(); return '';");
	wait_for("var a = document.getElementById('replay-export-link');"
		 " return a.href && Number(a.dataset.frames) >= 6 &&"
		 " Number(a.dataset.bytes) > 100000 &&"
		 " a.textContent.indexOf(' MB)') > 0 ? 'yes' : a.textContent;",
	    30, "the export offered with its size");
	/* Closed: the live state again, which never moved. */
	js("document.getElementById('replay-close').click(); return '';");
	cr_assert_str_eq(
	    js("return hxwb.replay.rec === null ? 'live' : 'open';"), "live");
	cr_assert_eq(hx_status_ok(watch).steps, 20);
}

Test(timeline, an_exported_recording_plays_from_a_file)
{
	static const char *const args[] = { "-m", "workbench.xml", "--paused",
		NULL };
	char url[4200], path[4096], file[256];
	char *body = NULL, why[256];
	struct red first, last;
	double recorded[16];
	hxd_recording r;
	unsigned taken;
	int port, nq, code;
	FILE *f;

	hx_server_start(&server, args);
	watch = hx_connect_ok(hx_server_addr(&server, 0), "test_timeline");
	recorded_drop_start(watch, &r);
	HX_OK(watch, hxd_step(watch, 300, &taken));
	HX_OK(watch, hxd_record_stop(watch, &r));
	nq = recorded_qpos(r.path, 20, recorded, 16, NULL);
	port = recorded_serve(
	    hx_server_addr(&server, 0), r.path, file, sizeof(file));

	/* Every record (fps=0) of the recording, as one file. */
	snprintf(url, sizeof(url), "/export.html?file=%s&fps=0", file);
	code = http_call(port, "GET", url, NULL, 60, &body, why, sizeof(why));
	cr_assert_eq(code, 200, "%s %.300s", why, body ? body : "");
	cr_assert(strstr(body, "<script type=\"module\"") == NULL &&
		strstr(body, "import {") == NULL,
	    "the page has modules, which file:// does not load");
	snprintf(path, sizeof(path), "%s", run_file(0, "replay.html"));
	f = fopen(path, "w");
	cr_assert_not_null(f, "%s", path);
	fputs(body, f);
	fclose(f);
	free(body);
	/* hxview and the daemon go: the file plays alone. */
	stop_hxview();
	hxd_close(watch);
	watch = NULL;
	hx_server_stop(&server);

	start_driver();
	open_session_with(WINDOW_ARGS);
	snprintf(url, sizeof(url), "file://%s", path);
	open_url(url);
	wait_for("var p = window.hxexport; return p && p.ready &&"
		 " hxwb.drawn >= 1 ? 'yes' : 'status ' +"
		 " document.getElementById('status').textContent;",
	    40, "the exported page playing from its file");
	cr_assert_str_eq(
	    js("return String(window.HXEXPORT.frames.length);"), "300");

	/* Frame 20: the recorded qpos, the box in the air; the last, landed. */
	js("hxexport.show(20); return '';");
	page_qpos_is("hxwb.frame.qpos", recorded, nq);
	first = red_drawn();
	js("hxexport.show(299); return '';");
	last = red_drawn();
	cr_assert(first.n > 50 && last.n > 50);
	cr_assert_gt(fabs(first.y - last.y), 20,
	    "the box drawn at the same place in the air and landed");
	/* Play: it runs to the end by itself. */
	js("hxexport.show(0); document.getElementById('play').click();"
	   " return '';");
	wait_for("return hxexport.index === 299 && !hxexport.playing ? 'yes' :"
		 " 'frame ' + hxexport.index;",
	    20, "the exported replay playing to its end");
}

Test(timeline, a_bad_request_is_refused)
{
	static const char *const args[] = { "-m", "workbench.xml", "--paused",
		NULL };
	const char *argv[8];
	char *body = NULL, why[256], answer[2048];
	int port, code;

	hx_server_start(&server, args);
	watch = hx_connect_ok(hx_server_addr(&server, 0), "test_timeline");
	HX_OK(watch, hxd_step(watch, 5, NULL));
	argv[0] = hx_hxview_path();
	argv[1] = "-s";
	argv[2] = hx_server_addr(&server, 0);
	argv[3] = "serve";
	argv[4] = "--http";
	argv[5] = "127.0.0.1:0";
	argv[6] = "--read-only";
	argv[7] = NULL;
	port = start_hxview_argv(argv);
	code = http_call(
	    port, "GET", "/history.json", NULL, 10, &body, why, sizeof(why));
	cr_assert_eq(code, 200, "%s %s", why, body ? body : "");
	cr_assert(strstr(body, "\"states\":5") != NULL, "%s", body);
	free(body);
	code = http_call(port, "GET", "/history.json?back=5", NULL, 10, &body,
	    why, sizeof(why));
	cr_assert_eq(code, 404, "%s", body ? body : why);
	cr_assert(strstr(body, "holds 5") != NULL, "%s", body);
	free(body);
	code = http_call(port, "GET", "/history.json?back=-1", NULL, 10, &body,
	    why, sizeof(why));
	cr_assert_eq(code, 400, "%s", body ? body : why);
	free(body);
	/* A read-only viewer shows the history, and does not resume. */
	code = http_call(port, "GET", "/history.json?back=2", NULL, 10, &body,
	    why, sizeof(why));
	cr_assert_eq(code, 200, "%s", body ? body : why);
	cr_assert(strstr(body, "\"back\":2") != NULL &&
		strstr(body, "\"poses\":") != NULL,
	    "%s", body);
	free(body);
	code = http_post_page(
	    port, "/control/resume?back=2", NULL, 0, answer, sizeof(answer));
	cr_assert(code == 403 && strstr(answer, "read-only") != NULL,
	    "resume on a read-only viewer: %s", answer);
	cr_assert_eq(hx_status_ok(watch).steps, 5);
}

int
main(int argc, char *argv[])
{
	return browser_main(argc, argv, "test_timeline");
}
