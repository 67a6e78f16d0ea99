/*
 * What hxview's rendering files share that needs MuJoCo's types.  Only
 * hxview_scene.c and hxview_overlay.c include it: the rest of hxview
 * sees struct view and images.
 */
#ifndef HXVIEW_MUJOCO_H
#define HXVIEW_MUJOCO_H

#include <mujoco/mujoco.h>

#include "haptixd.h"
#include "hxview.h"

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
