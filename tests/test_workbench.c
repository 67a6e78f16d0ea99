/*
 * hxview serve's workbench in real headless Chromium (WebGL on its
 * software renderer), driven through chromedriver with real mouse and
 * key events (WebDriver actions), against a running haptixd with
 * models/test/workbench.xml: a red free box, a green arm on a hinge
 * with a servo and a named sensor, a blue mocap ball.
 *
 * The page draws the scene (its WebGL canvas read back: red, green and
 * blue where the box, the arm and the ball are); a left drag turns the
 * camera; a double-click on the box selects it and a Ctrl+right drag
 * pushes it in the daemon; a control slider sets the daemon's ctrl and a
 * joint slider its qpos while paused; the sensor plot shows a named
 * sensor's series; space pauses and the right arrow steps; two browsers
 * each keep their own camera; a page of another site, and a page
 * reached through a foreign name, cannot drive the simulation.
 *
 * browser_main() skips (77, with the reason) without Chromium, and
 * fails instead under $CI.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "browser.h"
#include "check.h"
#include "harness.h"
#include "haptixd.h"

/* The browser's window: the canvas fills it, panels on either side. */
#define WINDOW_ARGS \
	"\"--window-size=1000,700\",\"--enable-unsafe-swiftshader\"," \
	"\"--use-angle=swiftshader\""

/* Generous bounds for a loaded machine. */
#define READY_SECONDS 40.0 /* the page drawing the model */
#define WAIT_SECONDS 15.0  /* a change showing */

static void cleanup(void);

TestSuite(workbench, .timeout = 240, .fini = cleanup);

static struct hx_server server;
static hxd_conn *watch;

static void
cleanup(void)
{
	if (watch != NULL) {
		hxd_close(watch);
		watch = NULL;
	}
	stop_driver();
	stop_hxview();
	hx_server_cleanup();
}

/* The daemon with the test scene, hxview serve on it, chromedriver. */
static int
start_all(void)
{
	static const char *const args[] = { "-m", "workbench.xml", NULL };
	const char *argv[8];
	int port;

	hx_server_start(&server, args);
	watch = hx_connect_ok(hx_server_addr(&server, 0), "test_workbench");
	argv[0] = hx_hxview_path();
	argv[1] = "-s";
	argv[2] = hx_server_addr(&server, 0);
	argv[3] = "serve";
	argv[4] = "--http";
	argv[5] = "127.0.0.1:0";
	argv[6] = NULL;
	port = start_hxview_argv(argv);
	start_driver();
	return port;
}

/* Navigate the current session to url. */
static void
go(const char *url)
{
	char path[256], *req, *quoted = json_quote(url);

	cr_assert(asprintf(&req, "{\"url\":%s}", quoted) > 0);
	snprintf(path, sizeof(path), "/session/%s/url", session);
	free(wd("POST", path, req));
	free(req);
	free(quoted);
}

/* Run a script that returns a string; the string. */
static const char *
js(const char *script)
{
	static char out[8192];

	run_script(script, out, sizeof(out));
	return out;
}

/* Wait until script (returning "yes" or why not) says yes. */
static void
wait_for(const char *script, double seconds, const char *what)
{
	double end = hx_wall_now() + seconds;
	const char *r;

	for (;;) {
		r = js(script);
		if (strcmp(r, "yes") == 0)
			return;
		cr_assert(hx_wall_now() < end,
		    "%s: not within %.0f s (%s); hxview's log:\n%s", what,
		    seconds, r, log_tail(run_file(0, "hxview.log")));
		hx_sleep_ms(100);
	}
}

/* Open the workbench in a new session and wait for its first frames. */
static void
open_workbench(int port)
{
	char url[128];

	open_session_with(WINDOW_ARGS);
	snprintf(url, sizeof(url), "http://127.0.0.1:%d/", port);
	go(url);
	wait_for("var w = window.hxwb;"
		 "return w && w.model && w.drawn > 3 && w.frames > 3 ? 'yes' :"
		 " 'model ' + !!(w && w.model) + ' drawn ' + (w && w.drawn) +"
		 " ' frames ' + (w && w.frames) + ' status ' +"
		 " document.getElementById('status').textContent;",
	    READY_SECONDS, "the workbench drawing the model");
}

/* Where the canvas is red, green and blue (pure colours, lit). */
struct colours {
	int red, green, blue;
	int rx, ry; /* the red's centre, CSS pixels */
	char text[256];
};

static const char *const colours_script =
    "var c = document.getElementById('view');\n"
    "var t = document.createElement('canvas');\n"
    "t.width = c.width; t.height = c.height;\n"
    "var g = t.getContext('2d');\n"
    "g.drawImage(c, 0, 0);\n"
    "var d = g.getImageData(0, 0, t.width, t.height).data;\n"
    "var r = 0, gr = 0, b = 0, rx = 0, ry = 0;\n"
    "for (var k = 0; k < d.length; k += 4) {\n"
    "  var R = d[k], G = d[k + 1], B = d[k + 2], p = k / 4;\n"
    "  if (R > 90 && R > 3 * G && R > 3 * B) {\n"
    "    r++; rx += p % t.width; ry += Math.floor(p / t.width); }\n"
    "  else if (G > 90 && G > 3 * R && G > 3 * B) gr++;\n"
    "  else if (B > 90 && B > 3 * R && B > 3 * G) b++;\n"
    "}\n"
    "var sx = c.clientWidth / t.width, sy = c.clientHeight / t.height;\n"
    "return 'RED=' + r + ' GREEN=' + gr + ' BLUE=' + b + ' RX=' +\n"
    "  (r ? Math.round(rx / r * sx) : -1) + ' RY=' +\n"
    "  (r ? Math.round(ry / r * sy) : -1);\n";

static void
colours(struct colours *c)
{
	snprintf(c->text, sizeof(c->text), "%.255s", js(colours_script));
	cr_assert_eq(sscanf(c->text, "RED=%d GREEN=%d BLUE=%d RX=%d RY=%d",
			 &c->red, &c->green, &c->blue, &c->rx, &c->ry),
	    5, "the page's script said: %s", c->text);
}

/* WebDriver actions (their JSON list), performed and released. */
static void
act(const char *actions)
{
	char path[256], *req;

	cr_assert(asprintf(&req, "{\"actions\":[%s]}", actions) > 0);
	snprintf(path, sizeof(path), "/session/%s/actions", session);
	free(wd("POST", path, req));
	free(req);
	free(wd("DELETE", path, NULL));
}

/*
 * A drag with button from (x, y) by (dx, dy) in steps, with Control held
 * when ctrl: the key source pauses while the mouse moves.
 */
static void
drag(int x, int y, int dx, int dy, int button, int ctrl)
{
	char mouse[4096], keys[1024];
	size_t n = 0, k = 0;
	int i, steps = 10;

	n += (size_t)snprintf(mouse + n, sizeof(mouse) - n,
	    "{\"type\":\"pointer\",\"id\":\"mouse\",\"parameters\":"
	    "{\"pointerType\":\"mouse\"},\"actions\":[{\"type\":\"pause\","
	    "\"duration\":0},{\"type\":\"pointerMove\",\"duration\":0,"
	    "\"origin\":\"viewport\",\"x\":%d,\"y\":%d},{\"type\":"
	    "\"pointerDown\",\"button\":%d}",
	    x, y, button);
	k += (size_t)snprintf(keys + k, sizeof(keys) - k,
	    "{\"type\":\"key\",\"id\":\"keys\",\"actions\":[%s,"
	    "{\"type\":\"pause\"},{\"type\":\"pause\"}",
	    ctrl ? "{\"type\":\"keyDown\",\"value\":\"\\uE009\"}" :
		   "{\"type\":\"pause\"}");
	for (i = 1; i <= steps; i++) {
		n += (size_t)snprintf(mouse + n, sizeof(mouse) - n,
		    ",{\"type\":\"pointerMove\",\"duration\":60,\"origin\":"
		    "\"viewport\",\"x\":%d,\"y\":%d}",
		    x + dx * i / steps, y + dy * i / steps);
		k += (size_t)snprintf(
		    keys + k, sizeof(keys) - k, ",{\"type\":\"pause\"}");
	}
	n += (size_t)snprintf(mouse + n, sizeof(mouse) - n,
	    ",{\"type\":\"pause\",\"duration\":300},{\"type\":\"pointerUp\","
	    "\"button\":%d},{\"type\":\"pause\"}]}",
	    button);
	k += (size_t)snprintf(keys + k, sizeof(keys) - k,
	    ",{\"type\":\"pause\"},{\"type\":\"pause\"},%s]}",
	    ctrl ? "{\"type\":\"keyUp\",\"value\":\"\\uE009\"}" :
		   "{\"type\":\"pause\"}");
	cr_assert(n < sizeof(mouse) && k < sizeof(keys));
	{
		char both[5200];

		snprintf(both, sizeof(both), "%s,%s", mouse, keys);
		act(both);
	}
}

/* A key pressed and released (a WebDriver key value, JSON-escaped). */
static void
press(const char *key)
{
	char a[512];

	snprintf(a, sizeof(a),
	    "{\"type\":\"key\",\"id\":\"keys\",\"actions\":[{\"type\":"
	    "\"keyDown\",\"value\":\"%s\"},{\"type\":\"keyUp\",\"value\":"
	    "\"%s\"}]}",
	    key, key);
	act(a);
}

/* The daemon's qpos[i]. */
static double
qpos(int i)
{
	hxd_state *s;
	double x;

	HX_OK(watch, hxd_get_state(watch, &s));
	cr_assert(i < s->nq);
	x = s->qpos[i];
	free(s);
	return x;
}

static double
ctrl(int i)
{
	hxd_control *c;
	double x;

	HX_OK(watch, hxd_get_control(watch, &c));
	cr_assert(i < c->nu);
	x = c->ctrl[i];
	free(c);
	return x;
}

Test(workbench, draws_the_scene_and_the_mouse_moves_the_camera_and_the_box)
{
	struct colours first, turned, at;
	double x0, end, moved;
	char script[512];

	open_workbench(start_all());
	/* The scene as the model has it: all three colours, the box
	 * in the middle of the default view. */
	colours(&first);
	cr_assert(first.red > 400 && first.green > 20 && first.blue > 50,
	    "the page does not draw the scene: %s", first.text);
	cr_assert(first.rx > 350 && first.rx < 650,
	    "the box is not in the middle: %s", first.text);
	if (getenv("HX_WORKBENCH_SCREENSHOT") != NULL)
		cr_log_info("screenshots are taken by make bench-workbench");

	/* A left drag turns the camera, and the box moves on the page. */
	drag(500, 450, 200, 0, 0, 0);
	wait_for("return Math.abs(hxwb.camera.azimuth - hxwb.model.camera"
		 ".azimuth) > 20 ? 'yes' : 'azimuth ' + hxwb.camera.azimuth;",
	    WAIT_SECONDS, "the camera turning with a left drag");
	hx_sleep_ms(300);
	colours(&turned);
	/* Turned about the box: the box stays, the arm and ball move. */
	cr_assert(turned.red > 0 &&
		abs(turned.green - first.green) +
			abs(turned.blue - first.blue) >
		    300,
	    "the view did not change:\n%s\n%s", first.text, turned.text);
	/* Back where it was, by its own state (a right drag moves). */
	js("hxwb.view.reset(hxwb.model); return 'ok';");
	hx_sleep_ms(300);
	colours(&at);

	/* A double-click on the box selects it (body 1). */
	act("{\"type\":\"pointer\",\"id\":\"mouse\",\"parameters\":"
	    "{\"pointerType\":\"mouse\"},\"actions\":["
	    "{\"type\":\"pointerMove\",\"duration\":0,\"origin\":\"viewport\","
	    "\"x\":500,\"y\":400},{\"type\":\"pause\",\"duration\":50}]}");
	snprintf(script, sizeof(script),
	    "{\"type\":\"pointer\",\"id\":\"mouse\",\"parameters\":"
	    "{\"pointerType\":\"mouse\"},\"actions\":["
	    "{\"type\":\"pointerMove\",\"duration\":0,\"origin\":\"viewport\","
	    "\"x\":%d,\"y\":%d},{\"type\":\"pointerDown\",\"button\":0},"
	    "{\"type\":\"pointerUp\",\"button\":0},{\"type\":\"pointerDown\","
	    "\"button\":0},{\"type\":\"pointerUp\",\"button\":0}]}",
	    at.rx, at.ry);
	act(script);
	wait_for("return hxwb.selected === 1 ? 'yes' : 'selected ' +"
		 " hxwb.selected + ' ' + hxwb.errors.join('; ');",
	    WAIT_SECONDS, "the box selected by a double-click");

	/* Ctrl+right drag pushes it: its x in the daemon changes. */
	x0 = qpos(0);
	drag(at.rx, at.ry, 250, 0, 2, 1);
	end = hx_wall_now() + WAIT_SECONDS;
	while (fabs((moved = qpos(0)) - x0) < 0.05) {
		cr_assert(hx_wall_now() < end,
		    "Ctrl+right drag did not move the box: x %g then %g; "
		    "the page's errors: %s",
		    x0, moved, js("return hxwb.errors.join('; ');"));
		hx_sleep_ms(100);
	}
	cr_log_info("the box went from x %.3f to %.3f", x0, moved);
	/* Dropped when the mouse lifted: no driver's force stays. */
	end = hx_wall_now() + WAIT_SECONDS;
	while (hx_status_ok(watch).nperturbations != 0) {
		cr_assert(hx_wall_now() < end,
		    "the push was not dropped when the mouse lifted");
		hx_sleep_ms(100);
	}
	close_session();
}

Test(workbench, sliders_plots_and_keys)
{
	hxd_status st;
	unsigned long long steps;
	double end;

	open_workbench(start_all());
	/* Running: the Sliders dialog shows the controls, with names. */
	wait_for("var r = document.querySelector('#sliders input[data-kind="
		 "ctrl][data-name=servo]');"
		 "if (!r) return 'no servo slider: ' + document"
		 ".getElementById('sliders').textContent;"
		 "r.value = 1; r.dispatchEvent(new Event('input'));"
		 "return 'yes';",
	    WAIT_SECONDS, "the control slider");
	end = hx_wall_now() + WAIT_SECONDS;
	while (fabs(ctrl(0) - 1) > 1e-3) {
		cr_assert(hx_wall_now() < end,
		    "the control slider did not set ctrl: %g", ctrl(0));
		hx_sleep_ms(100);
	}

	/* The plot shows the named sensor's series, drawn in its colour. */
	wait_for("if (!hxwb.plot('hinge_angle')) return 'no such sensor';"
		 "var s = document.querySelector('#legend span[data-sensor="
		 "hinge_angle]');"
		 "if (!s) return 'not in the legend: ' + document"
		 ".getElementById('legend').textContent;"
		 "var v = parseFloat(s.textContent.split(' ')[1]);"
		 "var c = document.getElementById('plot');"
		 "var d = c.getContext('2d').getImageData(0, 0, c.width,"
		 " c.height).data, n = 0;"
		 "var want = s.style.color.match(/\\d+/g).map(Number);"
		 "for (var k = 0; k < d.length; k += 4)"
		 "  if (Math.abs(d[k] - want[0]) < 40 && Math.abs(d[k + 1] -"
		 "   want[1]) < 40 && Math.abs(d[k + 2] - want[2]) < 40) n++;"
		 "return n > 50 && v > 0.5 ? 'yes' : 'value ' + v + ' pixels '"
		 " + n;",
	    WAIT_SECONDS, "the plot of hinge_angle (the servo at 1)");

	/* Space pauses. */
	js("document.getElementById('view').focus(); return 'ok';");
	press(" ");
	end = hx_wall_now() + WAIT_SECONDS;
	while (!(st = hx_status_ok(watch)).paused) {
		cr_assert(hx_wall_now() < end, "space did not pause");
		hx_sleep_ms(50);
	}
	/* The right arrow steps, one step a press. */
	wait_for("return hxwb.status && hxwb.status.paused ? 'yes' : 'no';",
	    WAIT_SECONDS, "the page showing the pause");
	steps = hx_status_ok(watch).steps;
	press("\\uE014");
	end = hx_wall_now() + WAIT_SECONDS;
	while ((st = hx_status_ok(watch)).steps != steps + 1) {
		cr_assert(hx_wall_now() < end && st.steps <= steps + 1,
		    "the right arrow did not step once: %llu then %llu", steps,
		    st.steps);
		hx_sleep_ms(50);
	}
	cr_assert(st.paused);

	/* Paused: the joint sliders, and one sets the hinge's qpos. */
	wait_for("var r = document.querySelector('#sliders input[data-kind="
		 "joint][data-name=hinge]');"
		 "if (!r) return 'no hinge slider: ' + document"
		 ".getElementById('sliders-mode').textContent;"
		 "r.value = -0.7; r.dispatchEvent(new Event('input'));"
		 "return 'yes';",
	    WAIT_SECONDS, "the joint slider");
	end = hx_wall_now() + WAIT_SECONDS;
	while (fabs(qpos(7) + 0.7) > 1e-3) {
		cr_assert(hx_wall_now() < end,
		    "the joint slider did not set qpos: %g", qpos(7));
		hx_sleep_ms(100);
	}
	cr_assert(hx_status_ok(watch).paused, "the slider ran the simulation");
	/* Another client's lease is shown, and the controls are off. */
	HX_OK(watch, hxd_lease(watch, HXD_LEASE_TAKE, NULL));
	wait_for("var l = document.getElementById('lease');"
		 "return !l.hidden && l.textContent.indexOf('test_workbench')"
		 " >= 0 && document.getElementById('run').disabled &&"
		 " document.querySelector('#sliders input').disabled ? 'yes' :"
		 " 'lease: ' + l.textContent;",
	    WAIT_SECONDS, "the lease shown and the controls off");
	HX_OK(watch, hxd_lease(watch, HXD_LEASE_RELEASE, NULL));
	wait_for("return document.getElementById('lease').hidden &&"
		 " !document.getElementById('run').disabled ? 'yes' : 'still';",
	    WAIT_SECONDS, "the controls back once the lease is released");
	/* Space runs again. */
	press(" ");
	end = hx_wall_now() + WAIT_SECONDS;
	while (hx_status_ok(watch).paused) {
		cr_assert(hx_wall_now() < end, "space did not run");
		hx_sleep_ms(50);
	}
	close_session();
}

Test(workbench, two_browsers_each_have_their_own_camera)
{
	char first[128], second[128];
	const char *r;
	double a0;

	int port = start_all();

	open_workbench(port);
	snprintf(first, sizeof(first), "%s", session);
	open_workbench(port);
	snprintf(second, sizeof(second), "%s", session);
	a0 = strtod(js("return String(hxwb.camera.azimuth);"), NULL);

	/* The first turns its camera; the second's stays. */
	snprintf(session, sizeof(session), "%s", first);
	drag(500, 450, -200, 0, 0, 0);
	wait_for("return Math.abs(hxwb.camera.azimuth - hxwb.model.camera"
		 ".azimuth) > 20 ? 'yes' : 'azimuth ' + hxwb.camera.azimuth;",
	    WAIT_SECONDS, "the first browser's camera turning");
	snprintf(session, sizeof(session), "%s", second);
	r = js("return String(hxwb.camera.azimuth);");
	cr_assert(strtod(r, NULL) == a0,
	    "the second browser's camera moved too: %g then %s", a0, r);
	/* Both still follow the simulation. */
	wait_for("var n = hxwb.frames; return n > 20 ? 'yes' : 'frames ' + n;",
	    WAIT_SECONDS, "the second browser's frames");
	close_session();
	snprintf(session, sizeof(session), "%s", first);
	wait_for("var n = hxwb.frames; return n > 20 ? 'yes' : 'frames ' + n;",
	    WAIT_SECONDS, "the first browser's frames");
	close_session();
}

/*
 * A script of a page of another site (here a data: URL, whose origin is
 * "null") that tries the workbench's controls, with and without the
 * page's header; its answer, once all tried.
 */
static const char *const stranger_script =
    "var done = arguments[arguments.length - 1];"
    "var base = 'http://127.0.0.1:' + window.hxport + '/control/';"
    "var out = [];"
    "fetch(base + 'ctrl', {method: 'POST', mode: 'no-cors', body:"
    " 'index=0&value=-1'}).then(function () { out.push('simple sent'); },"
    " function (e) { out.push('simple failed'); }).then(function () {"
    " return fetch(base + 'pause', {method: 'POST', headers:"
    " {'X-Hxview': '1'}}); }).then(function (r) {"
    " out.push('header answered ' + r.status); }, function (e) {"
    " out.push('header blocked'); }).then(function () {"
    " done(out.join(', ')); });";

/* Run an async script (it calls its last argument with a string). */
static const char *
js_async(const char *script)
{
	static char out[2048];
	char path[256], *req, *quoted = json_quote(script), *body;

	cr_assert(asprintf(&req, "{\"script\":%s,\"args\":[]}", quoted) > 0);
	snprintf(path, sizeof(path), "/session/%s/execute/async", session);
	body = wd("POST", path, req);
	cr_assert(json_string(body, "value", out, sizeof(out)) == 0,
	    "the script returned no string: %.2000s", body);
	free(body);
	free(req);
	free(quoted);
	return out;
}

Test(workbench, another_site_and_a_foreign_host_are_refused)
{
	char url[256], script[256];
	const char *r;
	double end;
	int port = start_all();

	/* The workbench itself may: its control slider sets ctrl. */
	open_workbench(port);
	js("var r = document.querySelector('#sliders input[data-kind=ctrl]');"
	   "r.value = 0.5; r.dispatchEvent(new Event('input')); return 'ok';");
	end = hx_wall_now() + WAIT_SECONDS;
	while (fabs(ctrl(0) - 0.5) > 1e-3) {
		cr_assert(hx_wall_now() < end,
		    "the workbench's own slider did not set ctrl: %g", ctrl(0));
		hx_sleep_ms(100);
	}
	close_session();

	/*
	 * A page of another site: its simple POST reaches hxview with a
	 * foreign Origin and no header, and is refused; with the header,
	 * Chromium asks first (a preflight), which is never approved.
	 */
	open_session_with(WINDOW_ARGS ",\"--host-resolver-rules=MAP "
				      "rebind.test 127.0.0.1\"");
	go("data:text/html,<title>elsewhere</title>");
	snprintf(
	    script, sizeof(script), "window.hxport = %d; return 'ok';", port);
	js(script);
	r = js_async(stranger_script);
	cr_log_info("another site: %s", r);
	cr_assert(strstr(r, "header blocked") != NULL ||
		strstr(r, "header answered 403") != NULL,
	    "another site's request with the header got through: %s", r);
	hx_sleep_ms(500);
	cr_assert(fabs(ctrl(0) - 0.5) < 1e-3,
	    "another site's page set ctrl to %g", ctrl(0));
	cr_assert(!hx_status_ok(watch).paused,
	    "another site's page paused the simulation");

	/*
	 * A name that resolves here (DNS rebinding): the page is its own
	 * origin, but not one of hxview's names, so nothing is served.
	 */
	snprintf(url, sizeof(url), "http://rebind.test:%d/", port);
	go(url);
	r = js("return document.body ? document.body.textContent : '';");
	cr_assert(strstr(r, "is not this server's name") != NULL,
	    "a foreign Host was served: %.300s", r);
	r = js_async("var done = arguments[arguments.length - 1];"
		     "fetch('/control/pause', {method: 'POST', headers:"
		     " {'X-Hxview': '1'}}).then(function (r) {"
		     " return r.text().then(function (t) {"
		     " done(r.status + ' ' + t); }); }, function (e) {"
		     " done('failed ' + e); });");
	cr_log_info("a foreign name: %s", r);
	cr_assert(strncmp(r, "403 ", 4) == 0, "the control answered: %s", r);
	hx_sleep_ms(300);
	cr_assert(!hx_status_ok(watch).paused,
	    "a page under a foreign name paused the simulation");
	close_session();
}

int
main(int argc, char *argv[])
{
	return browser_main(argc, argv, "test_workbench");
}
