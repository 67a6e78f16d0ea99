/*
 * What hxview's rendering files share that needs MuJoCo's types.  Only
 * hxview_scene.c, hxview_overlay.c, hxview_web.c and hxview_frames.c
 * include it: the rest of hxview sees struct view and images.
 */
#ifndef HXVIEW_MUJOCO_H
#define HXVIEW_MUJOCO_H

#include <mujoco/mujoco.h>

#include "haptixd.h"
#include "hxview_common.h"

/*
 * The skins' vertices of the skins in opt's groups, into scn.  libmujoco
 * 2.2.2 exports it (mjv_updateScene calls it) but its header does not
 * declare it, and the declared mjv_updateSkin warns at each call that it
 * is deprecated in its favour.
 */
void mjv_updateActiveSkin(
    const mjModel *m, mjData *d, mjvScene *scn, const mjvOption *opt);

/* How long view_open() waits for the first frame. */
#define VIEW_FIRST_FRAME_MS 10000

/* The stream's fields. */
#define VIEW_FIELDS \
	(HXD_FIELDS(HXD_FIELD_QPOS) | HXD_FIELDS(HXD_FIELD_QVEL) | \
	    HXD_FIELDS(HXD_FIELD_ACT) | HXD_FIELDS(HXD_FIELD_CTRL) | \
	    HXD_FIELDS(HXD_FIELD_MOCAP) | HXD_FIELDS(HXD_FIELD_SENSORDATA) | \
	    HXD_FIELDS(HXD_FIELD_STATUS) | \
	    HXD_FIELDS(HXD_FIELD_QFRC_APPLIED) | \
	    HXD_FIELDS(HXD_FIELD_XFRC_APPLIED))

/* Enough geoms for every model we bundle, with room for decorations. */
#define VIEW_MAXGEOM 10000

struct view {
	struct view_options o;
	hxd_conn *c;           /* NULL while the server is gone (serve) */
	char server_addr[320]; /* what c reached: still known when gone */
	unsigned every_steps;  /* the subscription's rate (view_open) */
	mjModel *m;
	mjData *d;
	mjvScene scn;
	mjvCamera cam;
	mjvOption opt;
	mjvPerturb pert;
	mjrContext con;
	int gl_ready;      /* scn and con were made */
	hxd_frame *frame;  /* the newest state, not yet applied */
	hxd_status status; /* the newest status */
	int have_status;
	unsigned long long step;
	double *scale; /* per sensor, for the bars */
	int dirty;     /* frame not yet in d */
	unsigned gen;  /* models loaded: the workbench's scene follows it */
	char model_name[256];
	struct web_state *web; /* the workbench's items of the model */
	void (*web_free)(struct web_state *); /* its freeing (hxview_web.c) */
	double rx; /* epoch ms when the newest state arrived */
	/*
	 * Writes into the model through the API (set_rgba, set_array, ...)
	 * send no event: the status counts them, and the model is fetched
	 * again when the count moves; one of the same structure replaces m
	 * in place and counts a new look (colours, sizes, gains).
	 */
	unsigned long long edits; /* the count the model held was fetched at */
	double refetched;         /* program_now() of the last fetch */
	unsigned looks;           /* models of the same structure taken */
	unsigned web_gen;         /* the workbench's scenes (hxview_web.c) */
	/*
	 * The view camera the daemon holds (hxd_set_camera, the World API's
	 * hxs_set_camera_transform): when set it takes the place of the
	 * free camera (and of --track), not of a model camera (--camera).
	 */
	int shared;            /* the daemon's camera is set */
	double shared_pos[3];  /* where it is */
	double shared_quat[4]; /* w x y z, looking along its x axis */
	unsigned cameras;      /* camera events taken */
};

/* The least time between two fetches of the model for API writes. */
#define VIEW_REFETCH_S 0.2

/*
 * The free camera that looks from pos along quat's x axis (MuJoCo's free
 * camera keeps z up: a roll is not shown), at the model's usual distance.
 */
void view_camera_pose(const mjModel *m, const double pos[3],
    const double quat[4], mjvCamera *cam);

/*
 * Fetch the model again at once when edits, the status's count of
 * writes into it, is not the count the copy was fetched at (frames: a
 * picture asked for must show them, where view_pump() fetches at most
 * every VIEW_REFETCH_S).  0, or -1 with the reason in err.
 */
int view_edits(struct view *v, unsigned long long edits, char *err, size_t len);

/* Put the newest state into d and run mj_forward() on it, once. */
void view_apply(struct view *v);

/* What the overlays show, besides the model and data. */
struct overlay_input {
	const mjModel *m;
	const mjData *d;
	const hxd_status *status; /* NULL until the server sent one */
	const char *server;
	const struct view_options *o;
	mjrRect viewport;
	const mjrContext *con;
	double *scale; /* per sensor: the largest |value| seen, for bars */
};

/* Draw HAPTIX's overlays over the rendered scene. */
void overlay_draw(const struct overlay_input *in);

#endif
