/*
 * What the tests of hxview serve in a real browser share (browser.c):
 * headless Chromium through chromedriver, and hxview serve.
 */
#ifndef HX_TESTS_BROWSER_H
#define HX_TESTS_BROWSER_H

#include <stddef.h>
#include <sys/types.h>

#include "haptixd.h"

extern char run_dir[512];
extern pid_t hxview_pid;
extern char hxview_host[64];
extern int hxview_out;
extern pid_t driver_pid;
extern int driver_port;
extern char session[128];

/* A file of the run's directory (static buffer, one per slot 0-3). */
const char *run_file(int slot, const char *name);
/* The end of a log file, for failure messages (static buffer). */
const char *log_tail(const char *path);
/* Start argv[0], stdout on out, stderr into the file err; see browser.c. */
pid_t spawn(const char *const *argv, int out, const char *err, int group,
    const char *config);
/* A free TCP port on the loopback address. */
int free_port(void);
/*
 * One HTTP/1.1 request to 127.0.0.1:port with a JSON body or none: the
 * status, the body in *body (caller frees), or -1 with why.
 */
int http_call(int port, const char *method, const char *path, const char *json,
    double timeout, char **body, char *why, size_t wlen);
/*
 * POST body (blen bytes, may be none) to path with the page's header
 * (X-Hxview: 1), as the workbench sends a control or an upload: the
 * status, the whole answer (head and body) in out.
 */
int http_post_page(int port, const char *path, const void *body, size_t blen,
    char *out, size_t len);
/* Choose file in the page's file input matching css (as a user would). */
void choose_file(const char *css, const char *file);
/* s as a quoted JSON string (caller frees). */
char *json_quote(const char *s);
/* The string of key in json into out; 0, or -1 if none. */
int json_string(const char *json, const char *key, char *out, size_t len);
/* A WebDriver call that must answer 200 OK; the body (caller frees). */
char *wd(const char *method, const char *path, const char *json);
/* Run script in the session's page; the string it returns into out. */
void run_script(const char *script, char *out, size_t len);
/* Run a script that returns a string; the string (static buffer). */
const char *js(const char *script);
/* Wait until script (returning "yes" or why not) says yes; fail after
 * seconds, with what and the end of hxview's log. */
void wait_for(const char *script, double seconds, const char *what);
/* Start hxview serve (argv: its command line, --http ADDRESS:0); the
 * port it says it listens on, the address it names in hxview_host. */
int start_hxview_argv(const char *const *argv);
/* Stop hxview: SIGTERM, then SIGKILL; its wait status, or -1. */
int stop_hxview(void);
void start_driver(void);
void stop_driver(void);

/*
 * After a test, even a failed one: close *watch (may be NULL), stop the
 * driver and hxview, and the test servers.
 */
void browser_cleanup(hxd_conn **watch);
/* A new session of headless Chromium, the current one (session). */
void open_session(void);
/* Navigate the current session to url. */
void open_url(const char *url);
void open_session_with(const char *more);
void close_session(void);
/* Everything the tests need (hxview egl, chromium, chromedriver). */
int prerequisites(char *why, size_t len);
/* Run the suite: skip (77) without what it needs, fail under $CI. */
int browser_main(int argc, char *argv[], const char *name);

#endif
