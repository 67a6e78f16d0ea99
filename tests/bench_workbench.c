/*
 * make bench-workbench: the figures of docs/benchmarks.md for hxview
 * serve's workbench, measured in headless Chromium (WebGL on its
 * software renderer) on the MPL scene: frames a second the page draws,
 * the bytes a second one browser gets, and the latency from a step of
 * the paused daemon to the page drawing that step's state, with its
 * parts from the timestamps the stream carries (hxview's arrival and
 * sending, the page's receiving and drawing, all on CLOCK_REALTIME's
 * milliseconds).  With $HX_SCREENSHOT it saves a screenshot of the page
 * there (docs/images/workbench.png).  No thresholds: it measures.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <criterion/criterion.h>

#include "browser.h"
#include "check.h"
#include "harness.h"
#include "haptixd.h"

#define SAMPLES 60

static struct hx_server server;
static hxd_conn *watch;

static void
cleanup(void)
{
	browser_cleanup(&watch);
}

TestSuite(bench, .timeout = 600, .fini = cleanup);

static double
epoch_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static int
compare(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double
pct(double *v, int n, double p)
{
	qsort(v, (size_t)n, sizeof(*v), compare);
	return v[(int)floor(p * (n - 1))];
}

/* Decode base64 in place; the length. */
static size_t
unbase64(char *s)
{
	static const char t[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	unsigned long x = 0;
	size_t n = 0;
	int bits = 0;
	const char *p, *q;

	for (p = s; *p != '\0' && *p != '='; p++) {
		if ((q = strchr(t, *p)) == NULL)
			continue;
		x = x << 6 | (unsigned long)(q - t);
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			s[n++] = (char)(x >> bits & 0xff);
		}
	}
	return n;
}

/* Save the page's screenshot as a PNG file. */
static void
screenshot(const char *path)
{
	char p[256], *body, *v, *end;
	size_t n;
	FILE *f;

	snprintf(p, sizeof(p), "/session/%s/screenshot", session);
	body = wd("GET", p, NULL);
	cr_assert((v = strstr(body, "\"value\":\"")) != NULL);
	v += 9;
	cr_assert((end = strchr(v, '"')) != NULL);
	*end = '\0';
	n = unbase64(v);
	cr_assert((f = fopen(path, "wb")) != NULL, "%s", path);
	fwrite(v, 1, n, f);
	fclose(f);
	free(body);
	printf("screenshot:   %s\n", path);
}

/* The page's hxwb.busy: where its main thread went (workbench.js). */
struct busy {
	double anim, parse, scene, panels, render;
};

static void
busy_read(struct busy *b)
{
	cr_assert_eq(sscanf(js("var b = hxwb.busy; return b.anim + ' ' +"
			       " b.parse + ' ' + b.scene + ' ' + b.panels +"
			       " ' ' + b.render;"),
			 "%lf %lf %lf %lf %lf", &b->anim, &b->parse, &b->scene,
			 &b->panels, &b->render),
	    5);
}

Test(bench, workbench)
{
	static const char *const args[] = { "-m", "mpl_scene.xml", NULL };
	const char *argv[7], *shot = getenv("HX_SCREENSHOT");
	double lat[SAMPLES], recv[SAMPLES], hx[SAMPLES], page[SAMPLES];
	double d0, d1, t0, t1, b0, b1, start, draw, rx, tx, rc;
	char url[128], script[512], *req, *quoted, path[256];
	unsigned long long want;
	struct busy u0, u1;
	int port, i, n = 0;
	double s;
	hxd_status st;

	hx_server_start(&server, args);
	watch = hx_connect_ok(hx_server_addr(&server, 0), "bench_workbench");
	argv[0] = hx_hxview_path();
	argv[1] = "-s";
	argv[2] = hx_server_addr(&server, 0);
	argv[3] = "serve";
	argv[4] = "--http";
	argv[5] = "127.0.0.1:0";
	argv[6] = NULL;
	port = start_hxview_argv(argv);
	start_driver();
	open_session_with("\"--window-size=1280,800\","
			  "\"--enable-unsafe-swiftshader\","
			  "\"--use-angle=swiftshader\"");
	snprintf(url, sizeof(url), "http://127.0.0.1:%d/", port);
	quoted = json_quote(url);
	cr_assert(asprintf(&req, "{\"url\":%s}", quoted) > 0);
	snprintf(path, sizeof(path), "/session/%s/url", session);
	free(wd("POST", path, req));
	free(req);
	free(quoted);
	start = hx_wall_now();
	while (strcmp(js("return hxwb.model && hxwb.drawn > 30 ? 'yes' : "
			 "'no';"),
		   "yes") != 0) {
		cr_assert(hx_wall_now() - start < 60, "the page never drew");
		hx_sleep_ms(200);
	}
	js("hxwb.plot('A_index_MCP_pos'); hxwb.plot('A_thumb_ABD_pos');"
	   "return 'ok';");
	hx_sleep_ms(2000);

	/* Frames the page draws, and bytes it gets, over 10 s running. */
	busy_read(&u0);
	sscanf(js("return hxwb.drawn + ' ' + hxwb.bytes + ' ' +"
		  " performance.now();"),
	    "%lf %lf %lf", &d0, &b0, &t0);
	hx_sleep_ms(10000);
	sscanf(js("return hxwb.drawn + ' ' + hxwb.bytes + ' ' +"
		  " performance.now();"),
	    "%lf %lf %lf", &d1, &b1, &t1);
	busy_read(&u1);
	s = (t1 - t0) / 1e3;
	printf("page:         %.1f frames/s drawn (1280x800, MPL scene, "
	       "headless Chromium, SwiftShader)\n",
	    (d1 - d0) / s);
	printf("main thread:  %.0f animation frames/s; ms a second parsing "
	       "%.1f, scene %.1f, panels %.1f, drawing %.1f\n",
	    (u1.anim - u0.anim) / s, (u1.parse - u0.parse) / s,
	    (u1.scene - u0.scene) / s, (u1.panels - u0.panels) / s,
	    (u1.render - u0.render) / s);
	printf("scene:        %s\n",
	    js("var r = hxwb.view.renderer, i = r.info.render, s ="
	       " r.getDrawingBufferSize(new THREE.Vector2());"
	       " return i.calls + ' draw calls, ' + i.triangles +"
	       " ' triangles a frame, ' + s.x + 'x' + s.y + ' pixels';"));
	printf("stream:       %.0f bytes/s to the browser (%.0f KiB/s)\n",
	    (b1 - b0) / ((t1 - t0) / 1e3),
	    (b1 - b0) / ((t1 - t0) / 1e3) / 1024);
	if (shot != NULL && shot[0] != '\0')
		screenshot(shot);

	/* The latency: a step of the paused daemon to the page drawing it. */
	HX_OK(watch, hxd_pause(watch));
	hx_sleep_ms(500);
	for (i = 0; i < SAMPLES; i++) {
		st = hx_status_ok(watch);
		want = st.steps + 1;
		t0 = epoch_ms();
		HX_OK(watch, hxd_step(watch, 1, NULL));
		start = hx_wall_now();
		for (;;) {
			snprintf(script, sizeof(script),
			    "var l = hxwb.drawLog.filter(function (e) {"
			    " return e.step === %llu; })[0];"
			    "return l ? l.draw + ' ' + l.rx + ' ' + l.tx + ' ' +"
			    " l.recv : 'no';",
			    want);
			if (sscanf(js(script), "%lf %lf %lf %lf", &draw, &rx,
				&tx, &rc) == 4)
				break;
			cr_assert(hx_wall_now() - start < 10,
			    "step %llu never drawn", want);
			hx_sleep_ms(5);
		}
		lat[n] = draw - t0;
		hx[n] = tx - t0;
		recv[n] = rc - t0;
		page[n] = draw - rc;
		n++;
		hx_sleep_ms(20 + (i * 7) % 17); /* not in step with frames */
	}
	printf("latency:      step call to drawn: p50 %.1f ms, p90 %.1f ms, "
	       "max %.1f ms (%d steps)\n",
	    pct(lat, n, 0.5), pct(lat, n, 0.9), pct(lat, n, 1), n);
	printf("of which:     to hxview sending p50 %.1f ms; to the page "
	       "receiving p50 %.1f ms; received to drawn p50 %.1f ms\n",
	    pct(hx, n, 0.5), pct(recv, n, 0.5), pct(page, n, 0.5));
	fflush(stdout);
	cr_log_info("done");
}

int
main(int argc, char *argv[])
{
	return browser_main(argc, argv, "bench_workbench");
}
