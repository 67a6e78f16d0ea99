/*
 * hxview: a viewer client.  It fetches the model from haptixd, follows
 * the state through a subscription and renders it offscreen with
 * MuJoCo's renderer in an EGL context: to PNG files, to a Y4M or PNG
 * sequence, to browsers over HTTP, or a picture on request (frames).
 *
 * hxview_egl.c      the EGL context (device or surfaceless platform)
 * hxview_scene.c    the model and state from the server, and rendering
 * hxview_overlay.c  HAPTIX's overlays: info box, sensor bars, message
 * hxview_image.c    PNG, JPEG, Y4M and PPM encoding
 * hxview_frames.c   frames: a picture of the state now for each line read
 * hxview_http.c     serve: the HTTP server, its loop and replies
 * hxview_conns.c    serve: the browsers' connections, counted and capped
 * hxview_guard.c    serve: who may ask what (Host, Origin, header, token)
 * hxview_streams.c  serve: the streams (MJPEG, events): start, pace, end
 * hxview_events.c   serve: what the event streams (SSE) carry
 * hxview_routes.c   serve: the routes (path and method to handler)
 * hxview_web.c      serve: the workbench's scene, frames and perturbation
 * hxview_control.c  serve: the workbench's control requests, one a row
 * hxview_upload.c   serve: a model dropped on the page, with its files
 * hxview.c          options, the commands and main
 */
#ifndef HXVIEW_COMMON_H
#define HXVIEW_COMMON_H

#include <signal.h>
#include <stddef.h>
#include <stdio.h>

#include "haptixd.h"
#include "json_string.h"

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
	double stream_hz;  /* the state's rate from the server; 0: fps */
	int by_calls;      /* frames: no stream of the state, only events */
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
 * time when every_steps is 0) and wait for the first frame; with
 * o->by_calls, subscribe to the model and camera events only.  NULL
 * with the reason in err.
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

/* The connection, for calls from the HTTP buttons; NULL while lost. */
hxd_conn *view_conn(struct view *v);

/* The address of the server, also while the connection is lost. */
const char *view_server(const struct view *v);

/*
 * The server went away (serve): close the connection, keeping the model,
 * the last state and the renderer, until view_reconnect() succeeds.
 */
void view_lose(struct view *v);

/*
 * Connect again, fetch the model (a new one, or the same anew) and
 * subscribe as view_open() did, without waiting for a state.  0, or -1
 * with the reason in err and the connection still lost.
 */
int view_reconnect(struct view *v, char *err, size_t len);

/* The step of the latest state the view holds. */
unsigned long long view_step(const struct view *v);

/*
 * Hold the state f (not the stream's: a kept state of the history, with
 * every array of the model's sizes) for fn(v, arg), then the newest
 * state again; fn's result, or -1 when no state came yet or f's sizes
 * are not the model's.
 */
int view_with_state(
    struct view *v, hxd_frame *f, int (*fn)(struct view *, void *), void *arg);

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
/* Binary PPM (P6), flushed. */
int image_ppm_write(FILE *f, const unsigned char *rgb, int width, int height);

/*
 * hxview frames (hxview_frames.c): for each line on standard input, the
 * server's state fetched by calls and its picture on standard output as
 * PPM, until the end of the input or *stopped; an exit status.
 */
int frames_run(struct view *v, volatile sig_atomic_t *stopped);

/* serve (hxview_http.c and the files it names in hxview_http.h). */
struct http_options {
	const char *listen;  /* [tls:]ADDR:PORT */
	const char *cert;    /* tls: the certificate chain (PEM) */
	const char *key;     /* tls: its key; NULL: in cert's file */
	int read_only;       /* no pause/run/reset */
	int quality;         /* JPEG, 1 to 100 */
	int max_connections; /* at once; past it the oldest idle one goes */
	size_t max_upload;   /* bytes of an upload's body; 0: none taken */
	char token[256];     /* beyond loopback: the daemon's, from
				$HAPTIX_TOKEN_FILE; "" on loopback */
};
/*
 * An upload (POST /upload, hxview_upload.c): at most 16 MiB by default,
 * the daemon's own frame, and never more than 1 GiB.
 */
#define HTTP_UPLOAD_DEFAULT (16L * 1024 * 1024)
#define HTTP_UPLOAD_MAX (1024L * 1024 * 1024)
/* Check the options before connecting: 0, or -1 with the reason. */
int http_check(struct http_options *h, char *err, size_t len);
int http_serve(
    struct view *v, const struct view_options *o, const struct http_options *h);

/* The workbench's scene (hxview_web.c). */

/* A browser's camera, for its perturbations: position, axes, fovy. */
struct web_camera {
	double pos[3], forward[3], up[3];
	double fovy; /* degrees */
};

/* One browser's selection, perturbation, and what it shows. */
struct web_pert;
/* The scene's items of one model (the view keeps it). */
struct web_state;

void web_state_free(struct web_state *w);
/*
 * The scenes described so far: a new model, or a look that lists other
 * items; the page fetches the scene again when it grows.
 */
unsigned web_model_gen(struct view *v);
/* The model's looks so far: a new one is sent to the pages (web_look). */
unsigned web_look_gen(const struct view *v);
/* The daemon's camera events so far: a new one is sent to the pages. */
unsigned web_camera_gen(const struct view *v);
/*
 * The pages' free camera as JSON (lookat, distance, azimuth, elevation,
 * shared): the daemon's view camera when set, else the model's own.
 */
int web_camera(struct view *v, FILE *f);
/* Every item as the scene holds it now, for a new look, as JSON. */
int web_look(struct view *v, FILE *f);
/* The model, as JSON; 0, or -1 when out of memory or the file failed. */
int web_describe(struct view *v, FILE *f);
/* Every mesh's vertices and normals (float32) and faces (int32). */
int web_meshes(struct view *v, FILE *f);
/* Texture id as PNG; -1 if there is no such texture. */
int web_texture(struct view *v, int id, FILE *f);
/* The frame's fields for every browser: JSON members without braces. */
int web_frame(struct view *v, FILE *f);
/*
 * web_frame() of a state not the stream's (a kept one of the history, a
 * record of a recording), as view_with_state() holds it; -1 as it says.
 */
int web_frame_of(struct view *v, hxd_frame *state, FILE *f);
/*
 * Whether a frame at simulated time t is due after the last one taken
 * (NAN: none yet) at fps (0: every one); time going back (a reset) is:
 * how a replay or the history is thinned to frames.
 */
int export_due(double t, double last, double fps);
/* Write n bytes as base64: the page makes Float32Arrays of them. */
void web_base64(FILE *f, const void *data, size_t n);

struct web_pert *web_pert_new(void);
void web_pert_free(struct web_pert *p);
/* Select body (0: none) at the world point; 0, or -1 with why. */
int web_pert_select(struct view *v, struct web_pert *p, int body,
    const double point[3], char *err, size_t len);
/* Begin pushing (rotate 0) or turning the selected body, as simulate. */
int web_pert_start(struct view *v, struct web_pert *p, int rotate,
    const struct web_camera *cam, char *err, size_t len);
/* Move the perturbation: action an mjtMouse, dx and dy of the height. */
int web_pert_move(struct view *v, struct web_pert *p, int action, double dx,
    double dy, const struct web_camera *cam, char *err, size_t len);
/* Is a perturbation under way? */
int web_pert_active(const struct view *v, const struct web_pert *p);
/* Send the perturbation's force or mocap pose now; an hxd_result. */
int web_pert_drive(struct view *v, struct web_pert *p, hxd_conn *c);
/* End the perturbation, its force released; an hxd_result. */
int web_pert_stop(struct view *v, struct web_pert *p, hxd_conn *c);
/* Drop a perturbation without telling the server (which went away). */
void web_pert_forget(struct web_pert *p);
/* simulate's groups at first: 0, 1 and 2 shown (mjv_defaultOption). */
#define WEB_GROUPS_DEFAULT 7u
/*
 * What a browser shows, as simulate's Rendering panel: flags (mjtVisFlag
 * bits), frame (an mjtFrame), label (an mjtLabel) and the joint, tendon
 * and actuator groups (masks of mjNGROUP bits); 0, or -1 with why.
 */
int web_pert_show(struct web_pert *p, unsigned long flags, long frame,
    long label, const long groups[3], char *err, size_t len);
/*
 * The frame's members of one browser, after web_frame's: the
 * decorations and labels it shows, its selection and perturbation, and
 * the scales when new to it.
 */
int web_pert_decor(struct view *v, struct web_pert *p, FILE *f);
/*
 * Set a scale of decorations by name (mjVisual's scale: forcewidth,
 * framelength, ...) in the model hxview holds, for all its browsers
 * until another model; 0, or -1 with why.
 */
int web_scale_set(
    struct view *v, const char *name, double value, char *err, size_t len);
/* The scales of decorations now, as a JSON object. */
int web_scale_write(struct view *v, FILE *f);

/*
 * Milliseconds of the Unix epoch (hxview_scene.c) (CLOCK_REALTIME), as a
 * browser's performance.timeOrigin + performance.now() counts them: the
 * stream's timestamps, for the latency to the page's drawing.
 */
double view_epoch_ms(void);

#endif
