/*
 * hxview serve in a real browser: headless Chromium, driven by
 * chromedriver over the WebDriver protocol, opens the page of hxview
 * serve watching a running haptixd, and the test reads the picture back
 * through a canvas: the right size, real content, the pendulum of
 * models/test/browser_pendulum.xml moving while the simulation runs, and
 * a still picture once the page's Pause button has paused it.
 *
 * main() checks first what this needs, and exits 77 (skipped, with the
 * reason on stderr) without it: hxview must render (hxview egl), and
 * chromium and chromedriver must be there, in PATH or named by
 * $CHROMIUM and $CHROMEDRIVER.  The WebDriver calls go through a minimal
 * HTTP/1.1 client; the page's script answers in strings like
 * "W=320 H=240 SUM=...", which the test parses.
 *
 * Nothing is left running: chromedriver and Chromium share a process
 * group, which the test kills whatever happens (the suite's .fini), and
 * which main() kills if the test process itself died (a crash, the
 * timeout): the test writes the group's id to a file in the run's
 * directory (HX_BROWSER_DIR) and removes it once the group is gone.
 * hxview and haptixd die with the test process (PR_SET_PDEATHSIG).
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "browser.h"
#include "check.h"
#include "harness.h"
#include "haptixd.h"

/* The picture hxview serves, and the frames it sends a second. */
#define VIEW_W 320
#define VIEW_H 240
#define VIEW_SIZE "320x240"
#define VIEW_FPS "10"

/* Generous bounds for a loaded machine; the test takes about 5 s. */
#define START_SECONDS 30.0     /* hxview, chromedriver, Chromium */
#define CALL_SECONDS 60.0      /* one WebDriver call */
#define FRAME_SECONDS 30.0     /* the first frame in the page */
#define MOVE_SECONDS 15.0      /* the picture changing while running */
#define PAUSE_SECONDS 5.0      /* the daemon paused after the click */
#define STATUS_SECONDS 10.0    /* the status line saying so */
#define SETTLE_SECONDS 10.0    /* the picture standing still */
#define SAMPLE_MS 250          /* between two looks at the picture */
#define BOB_MOVED_PIXELS 3     /* the pendulum's bob has moved */
#define DISTINCT_COLOURS_MIN 8 /* not a uniform picture */

static void cleanup(void);

TestSuite(browser, .timeout = 240, .fini = cleanup);

/* What the test started, for cleanup() to stop after a failure. */
static struct hx_server server;
static hxd_conn *watch; /* the test's own connection */

/*
 * Start hxview serve watching addr, on an ephemeral port of 127.0.0.1;
 * return the port it says it listens on.
 */
static int
start_hxview(const char *addr)
{
	const char *argv[] = { hx_hxview_path(), "-s", addr, "--size",
		VIEW_SIZE, "--fps", VIEW_FPS, "serve", "--http", "127.0.0.1:0",
		NULL };

	return start_hxview_argv(argv);
}

/* After the test, even a failed one: stop what it left running. */
static void
cleanup(void)
{
	browser_cleanup(&watch);
}

/* One look at the picture of the page. */
struct sample {
	int w, h;
	long long sum;      /* of every pixel's R + G + B */
	unsigned long hash; /* FNV-1a of the RGB bytes */
	int distinct;       /* colours, 4 bits a channel */
	int red;            /* pixels of the pendulum's red bob */
	int rx, ry;         /* their centre, or -1 */
	char text[256];     /* what the script said */
};

/*
 * Draw the <img> into a canvas and describe its pixels; "W=0 H=0" while
 * the first frame has not come.  The bob is red: R high, well above G
 * and B (also darkened under the info box).
 */
static const char *const sample_script =
    "var i = document.getElementById('view');\n"
    "if (!i || !i.naturalWidth) return 'W=0 H=0';\n"
    "var c = document.createElement('canvas');\n"
    "c.width = i.naturalWidth; c.height = i.naturalHeight;\n"
    "var g = c.getContext('2d', {willReadFrequently: true});\n"
    "g.drawImage(i, 0, 0);\n"
    "var d = g.getImageData(0, 0, c.width, c.height).data;\n"
    "var sum = 0, h = 2166136261, seen = {}, n = 0;\n"
    "var red = 0, rx = 0, ry = 0;\n"
    "for (var k = 0; k < d.length; k += 4) {\n"
    "  var r = d[k], gr = d[k + 1], b = d[k + 2];\n"
    "  var q = (r >> 4) << 8 | (gr >> 4) << 4 | b >> 4, p = k / 4;\n"
    "  sum += r + gr + b;\n"
    "  h = Math.imul(h ^ r, 16777619);\n"
    "  h = Math.imul(h ^ gr, 16777619);\n"
    "  h = Math.imul(h ^ b, 16777619);\n"
    "  if (!seen[q]) { seen[q] = 1; n++; }\n"
    "  if (r > 96 && r > 2 * gr && r > 2 * b) {\n"
    "    red++; rx += p % c.width; ry += Math.floor(p / c.width);\n"
    "  }\n"
    "}\n"
    "return 'W=' + c.width + ' H=' + c.height + ' SUM=' + sum +\n"
    "  ' HASH=' + (h >>> 0) + ' DISTINCT=' + n + ' RED=' + red +\n"
    "  ' RX=' + (red ? Math.round(rx / red) : -1) +\n"
    "  ' RY=' + (red ? Math.round(ry / red) : -1);\n";

/* Look at the picture; 1 if it has a frame, 0 if none came yet. */
static int
sample_view(struct sample *s)
{
	memset(s, 0, sizeof(*s));
	run_script(sample_script, s->text, sizeof(s->text));
	if (sscanf(s->text, "W=%d H=%d", &s->w, &s->h) == 2 && s->w == 0)
		return 0;
	cr_assert_eq(sscanf(s->text,
			 "W=%d H=%d SUM=%lld HASH=%lu DISTINCT=%d RED=%d "
			 "RX=%d RY=%d",
			 &s->w, &s->h, &s->sum, &s->hash, &s->distinct, &s->red,
			 &s->rx, &s->ry),
	    8, "the page's script said: %s", s->text);
	return 1;
}

/* Did the bob move from a to b (both show it)? */
static int
bob_moved(const struct sample *a, const struct sample *b)
{
	return a->red > 0 && b->red > 0 &&
	    (abs(a->rx - b->rx) >= BOB_MOVED_PIXELS ||
		abs(a->ry - b->ry) >= BOB_MOVED_PIXELS);
}

/* The same picture? */
static int
same_picture(const struct sample *a, const struct sample *b)
{
	return strcmp(a->text, b->text) == 0;
}

/* Wait until the page's status line mentions word; return the line. */
static const char *
wait_status_line(const char *word)
{
	static char line[512];
	double end = hx_wall_now() + STATUS_SECONDS;

	for (;;) {
		run_script("return document.getElementById('status')"
			   ".textContent;",
		    line, sizeof(line));
		if (strstr(line, word) != NULL)
			return line;
		cr_assert(hx_wall_now() < end,
		    "the status line did not say \"%s\" within %.0f s: \"%s\"",
		    word, STATUS_SECONDS, line);
		hx_sleep_ms(SAMPLE_MS);
	}
}

Test(browser, page_shows_the_simulation_running_and_paused)
{
	static const char *const args[] = { "-m", "browser_pendulum.xml",
		NULL };
	struct sample first, s, still, later;
	char url[128], *req, *quoted, path[256], out[64];
	const char *addr, *dir = getenv("HX_BROWSER_DIR");
	double t0, end, paused_at;
	hxd_status st;
	int port, status;

	cr_assert(dir != NULL && dir[0] != '\0',
	    "HX_BROWSER_DIR is not set: run this test through its main()");
	snprintf(run_dir, sizeof(run_dir), "%s", dir);
	hx_server_start(&server, args);
	addr = hx_server_addr(&server, 0);
	/* Connected throughout: the info box counts the clients. */
	watch = hx_connect_ok(addr, "test_browser");
	st = hx_status_ok(watch);
	cr_assert(!st.paused, "the simulation should run from the start");
	port = start_hxview(addr);
	start_driver();
	open_session();

	snprintf(url, sizeof(url), "http://127.0.0.1:%d/picture", port);
	quoted = json_quote(url);
	cr_assert(asprintf(&req, "{\"url\":%s}", quoted) > 0);
	snprintf(path, sizeof(path), "/session/%s/url", session);
	free(wd("POST", path, req));
	free(req);
	free(quoted);

	/* The first frame: the right size, and a picture. */
	end = hx_wall_now() + FRAME_SECONDS;
	while (!sample_view(&first)) {
		cr_assert(hx_wall_now() < end,
		    "no frame in the page within %.0f s; hxview's log:\n%s",
		    FRAME_SECONDS, log_tail(run_file(0, "hxview.log")));
		hx_sleep_ms(SAMPLE_MS);
	}
	cr_assert(first.w == VIEW_W && first.h == VIEW_H,
	    "the picture is %dx%d, not %dx%d", first.w, first.h, VIEW_W,
	    VIEW_H);
	cr_assert_geq(first.distinct, DISTINCT_COLOURS_MIN,
	    "a uniform picture: %s", first.text);
	cr_assert_gt(first.sum, 0, "a black picture: %s", first.text);

	/* Running: a second later, another picture, the bob elsewhere. */
	hx_sleep_ms(1000);
	t0 = hx_wall_now();
	end = t0 + MOVE_SECONDS;
	for (;;) {
		cr_assert(sample_view(&s));
		if (!same_picture(&first, &s) && bob_moved(&first, &s))
			break;
		if (first.red == 0)
			first = s; /* the bob was hidden: look again */
		cr_assert(hx_wall_now() < end,
		    "the pendulum did not move in the page within %.0f s:\n"
		    "first %s\nlast  %s",
		    MOVE_SECONDS + 1, first.text, s.text);
		hx_sleep_ms(SAMPLE_MS);
	}
	cr_log_info("running: %s\n         %s", first.text, s.text);
	wait_status_line("running");

	/* The Pause button pauses the simulation. */
	run_script("document.getElementById('pause').click();"
		   "return 'clicked';",
	    out, sizeof(out));
	cr_assert_str_eq(out, "clicked");
	t0 = hx_wall_now();
	for (;;) {
		st = hx_status_ok(watch);
		if (st.paused)
			break;
		cr_assert(hx_wall_now() - t0 < PAUSE_SECONDS,
		    "the simulation did not pause within %.0f s of the "
		    "click; hxview's log:\n%s",
		    PAUSE_SECONDS, log_tail(run_file(0, "hxview.log")));
		hx_sleep_ms(50);
	}
	cr_log_info("paused %.3f s after the click", hx_wall_now() - t0);
	paused_at = st.time;
	wait_status_line("paused");

	/*
	 * Paused: the last frames in flight arrive, then the picture stands
	 * still (the info box's time and numbers too, the "Paused" label
	 * on), and stays so a second later.
	 */
	end = hx_wall_now() + SETTLE_SECONDS;
	cr_assert(sample_view(&still));
	for (;;) {
		hx_sleep_ms(2 * SAMPLE_MS);
		cr_assert(sample_view(&s));
		if (same_picture(&still, &s))
			break;
		cr_assert(hx_wall_now() < end,
		    "the picture did not stand still within %.0f s of the "
		    "pause:\n%s\n%s",
		    SETTLE_SECONDS, still.text, s.text);
		still = s;
	}
	cr_log_info("still %.2f s after the pause",
	    hx_wall_now() - (end - SETTLE_SECONDS));
	hx_sleep_ms(1000);
	cr_assert(sample_view(&later));
	cr_assert(same_picture(&still, &later),
	    "the paused picture changed:\n%s\n%s", still.text, later.text);
	cr_assert(!same_picture(&first, &still),
	    "the paused picture is the first one");
	st = hx_status_ok(watch);
	cr_assert(st.paused, "the simulation runs again");
	cr_assert(st.time == paused_at,
	    "the paused simulation went on: %g s, "
	    "then %g s",
	    paused_at, st.time);
	cr_log_info("paused: %s", later.text);

	/* Closing the browser's session, then hxview, then the daemon. */
	close_session();
	stop_driver();
	status = stop_hxview();
	cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "hxview serve ended with status %d on SIGTERM; its log:\n%s",
	    status, log_tail(run_file(0, "hxview.log")));
	hxd_close(watch);
	watch = NULL;
	hx_server_stop(&server);
}

/* Before the tests: what they need, and where it is. */
int
main(int argc, char *argv[])
{
	return browser_main(argc, argv, "test_browser");
}
