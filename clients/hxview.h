/*
 * hxview: a viewer client.  It fetches the model from haptixd, follows
 * the state through a subscription and renders it offscreen with
 * MuJoCo's renderer in an EGL context: to PNG files, to a Y4M or PNG
 * sequence, or to browsers over HTTP.
 *
 * hxview_egl.c      the EGL context (device or surfaceless platform)
 * hxview_scene.c    the model and state from the server, and rendering
 * hxview_overlay.c  HAPTIX's overlays: info box, sensor bars, message
 * hxview_image.c    PNG, JPEG and Y4M encoding
 * hxview_http.c     serve: the page, the MJPEG stream and the buttons
 * hxview.c          options, the commands and main
 */
#ifndef HXVIEW_H
#define HXVIEW_H

#include <stddef.h>
#include <stdio.h>

#include "haptixd.h"

/* Exit codes: done, the server or rendering failed, a usage error. */
#define VIEW_OK 0
#define VIEW_FAIL 1
#define VIEW_USAGE 2

/* Where the camera looks from. */
enum view_camera {
	VIEW_CAMERA_FREE,  /* azimuth, elevation, distance, lookat */
	VIEW_CAMERA_FIXED, /* a model camera by name */
	VIEW_CAMERA_TRACK, /* the free camera following a body */
};

/* How to render, from the command line. */
struct view_options {
	const char *server;
	const char *egl; /* "auto", "device" or "surfaceless" */
	int width, height;
	double fps;
	enum view_camera camera;
	char camera_name[128]; /* FIXED: the camera; TRACK: the body */
	/* The free camera; NaN keeps the model's default. */
	double azimuth, elevation, distance, lookat[3];
	/* Flags named on the command line: 1 show, -1 hide, 0 default. */
	signed char vis[64], rnd[64];
	/* Visible groups, when given (else the model's defaults). */
	int geomgroup[6], sitegroup[6];
	int geom_groups_given, site_groups_given;
	int info, sensors; /* overlays, both on by default */
};

/* A viewer: the connection, the model, and MuJoCo's renderer. */
struct view;

/* Parse a comma list of flag names into o (show = 1 or -1). */
int view_flags_parse(
    struct view_options *o, const char *list, int show, char *err, size_t len);

/* The names view_flags_parse() knows, separated by spaces. */
void view_flags_names(FILE *f);

/*
 * Start the EGL context (first in the process), connect, fetch the
 * model, subscribe to the state at rate (every_steps, or fps of wall
 * time when every_steps is 0) and wait for the first frame.  NULL with
 * the reason in err.
 */
struct view *view_open(
    const struct view_options *o, unsigned every_steps, char *err, size_t len);

void view_close(struct view *v);

/*
 * Read what the server sent within timeout_ms (0: only what is there):
 * the newest state wins; a new model is fetched.  Returns 1 when the
 * state or model changed, 0 when nothing came, -1 when the connection
 * failed (the reason in err).
 */
int view_pump(struct view *v, int timeout_ms, char *err, size_t len);

/* Render the current state into rgb (width x height x 3, top row first). */
void view_render(struct view *v, unsigned char *rgb);

/* The connection, for calls from the HTTP buttons. */
hxd_conn *view_conn(struct view *v);

/* The step of the latest state the view holds. */
unsigned long long view_step(const struct view *v);

/* EGL (hxview_egl.c).  Make a context current; 0, or -1 with why. */
int egl_start(const char *platform, char *err, size_t len);
void egl_stop(void);
const char *egl_description(void);

/* Images (hxview_image.c).  Each returns 0, or -1 with errno set. */
int image_png_write(FILE *f, const unsigned char *rgb, int width, int height);
int image_png_file(
    const char *path, const unsigned char *rgb, int width, int height);
/* JPEG into a malloc'd buffer *out of *outlen bytes. */
int image_jpeg(const unsigned char *rgb, int width, int height, int quality,
    unsigned char **out, size_t *outlen);
int image_y4m_header(FILE *f, int width, int height, double fps);
/* One frame in 4:2:0; scratch holds width * height * 3 / 2 bytes. */
int image_y4m_frame(FILE *f, const unsigned char *rgb, int width, int height,
    unsigned char *scratch);

/* serve (hxview_http.c). */
struct http_options {
	const char *listen;  /* ADDR:PORT */
	int read_only;       /* no pause/run/reset */
	int quality;         /* JPEG, 1 to 100 */
	int max_connections; /* at once; past it the oldest idle one goes */
};
/* Check the options before connecting: 0, or -1 with the reason. */
int http_check(const struct http_options *h, char *err, size_t len);
int http_serve(
    struct view *v, const struct view_options *o, const struct http_options *h);

/* Seconds on the monotonic clock. */
double view_now(void);

/* Set by SIGINT and SIGTERM. */
extern volatile int view_stopped;

#endif
