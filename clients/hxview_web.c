/*
 * The workbench's scene: what MuJoCo's abstract scene holds, for a
 * browser to draw with three.js.  The model is described once (its
 * geoms and sites as mjv_addGeoms() makes them, with types, sizes,
 * colours and materials; meshes, their convex hulls, textures and
 * lights; the names of bodies, joints, actuators, sensors, cameras,
 * keyframes, geoms and sites; MuJoCo's visualization flags, frames,
 * labels and scales); then each frame carries only what moves: the
 * poses of the items of bodies that are not the world's, the
 * decorations of the moment, the values the panels show and the status.
 * This is meshcat's pattern: the scene described once, then transforms.
 *
 * The decorations come in kinds (web_kinds[]), each made by one pass of
 * mjv_addGeoms() with simulate's flag, frame or label for it.  Each
 * browser says what it shows (web_pert_show: its mjtVisFlags, its frame,
 * its label and its joint, tendon and actuator groups, as simulate's
 * Rendering panel has them); a frame's passes are made once for all
 * browsers with every group, only for the kinds some browser shows and
 * the model has, and each browser is sent only its own kinds, of its own
 * groups.
 *
 * Each browser has its own selection and perturbation (struct web_pert),
 * made with MuJoCo's own mjv_initPerturb(), mjv_movePerturb() and
 * mjv_applyPerturbForce() against the browser's camera, as simulate
 * does; the force goes to the server through the drivers' perturbation
 * call, a mocap body's pose through the mocap move.
 */
#include "config.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>

#include "hxview_mujoco.h"

/* Floats per dynamic item in a frame: position and quaternion. */
#define WEB_POSE_FLOATS 7

/* Floats per decoration: kind, type, size, position, quaternion, rgba. */
#define WEB_DECOR_FLOATS 16

/* The most decorations of one browser's selection and perturbation. */
#define WEB_MINE_MAX 32

/* The most labels of one browser's selection (body and point). */
#define WEB_MINE_LABELS 4

#define WEB_FLAG(f) (1u << (f))

/* What a kind's pass keeps of the scene's geoms. */
enum web_keep {
	WEB_KEEP_DECOR,  /* decorations (mjCAT_DECOR) */
	WEB_KEEP_TENDON, /* tendons (MuJoCo files them as dynamic) */
	WEB_KEEP_BODY,   /* inertia boxes (a body's, dynamic) */
	WEB_KEEP_FRAME,  /* frames: decorations of no object */
	WEB_KEEP_LABEL,  /* labels alone (mjGEOM_LABEL) */
	WEB_KEEP_CRANK,  /* slider-cranks, which MuJoCo always draws */
};

/* What a kind needs in the model or the state to show anything. */
enum web_has {
	WEB_HAS_ALWAYS,
	WEB_HAS_CONTACTS,
	WEB_HAS_JOINTS,
	WEB_HAS_CAMERAS,
	WEB_HAS_ACTUATORS,
	WEB_HAS_LIGHTS,
	WEB_HAS_TENDONS,
	WEB_HAS_RANGEFINDERS,
	WEB_HAS_EQUALITIES,
	WEB_HAS_BODIES,
	WEB_HAS_PUSHES,
	WEB_HAS_GEOMS,
	WEB_HAS_SITES,
	WEB_HAS_CRANKS,
};

/*
 * The decorations a browser may show, a kind each, made by one pass of
 * mjv_addGeoms(): a kind is shown to a browser that shows the flags it
 * needs and not those it goes without (simulate's modifiers: contact
 * split, activation, scaled inertia), or whose frame or label choice it
 * is; its pass carries its label when a browser showing it asks for
 * that label.  Body, geom and site labels need no decoration: the body
 * labels are a pass of their own (MuJoCo's label geoms), the geom and
 * site labels the page writes itself from the names and the items it
 * already places.
 */
static const struct web_kind {
	const char *name;
	unsigned need;    /* the browser shows these mjtVisFlags */
	unsigned without; /* and not these */
	int frame;        /* else: the browser's mjtFrame is this */
	int label;        /* the mjtLabel the pass carries, or none */
	int label_only;   /* else: the browser's label is this; no geoms */
	int catmask;      /* of the pass */
	enum web_keep keep;
	enum web_has has;
} web_kinds[] = {
	{ "contact", WEB_FLAG(mjVIS_CONTACTPOINT), 0, mjFRAME_NONE,
	    mjLABEL_NONE, 0, mjCAT_DECOR, WEB_KEEP_DECOR, WEB_HAS_CONTACTS },
	{ "force", WEB_FLAG(mjVIS_CONTACTFORCE), WEB_FLAG(mjVIS_CONTACTSPLIT),
	    mjFRAME_NONE, mjLABEL_CONTACTFORCE, 0, mjCAT_DECOR, WEB_KEEP_DECOR,
	    WEB_HAS_CONTACTS },
	{ "split", WEB_FLAG(mjVIS_CONTACTFORCE) | WEB_FLAG(mjVIS_CONTACTSPLIT),
	    0, mjFRAME_NONE, mjLABEL_CONTACTFORCE, 0, mjCAT_DECOR,
	    WEB_KEEP_DECOR, WEB_HAS_CONTACTS },
	{ "joint", WEB_FLAG(mjVIS_JOINT), 0, mjFRAME_NONE, mjLABEL_JOINT, 0,
	    mjCAT_DECOR, WEB_KEEP_DECOR, WEB_HAS_JOINTS },
	{ "camera", WEB_FLAG(mjVIS_CAMERA), 0, mjFRAME_NONE, mjLABEL_CAMERA, 0,
	    mjCAT_DECOR, WEB_KEEP_DECOR, WEB_HAS_CAMERAS },
	{ "actuator", WEB_FLAG(mjVIS_ACTUATOR), WEB_FLAG(mjVIS_ACTIVATION),
	    mjFRAME_NONE, mjLABEL_ACTUATOR, 0, mjCAT_DECOR, WEB_KEEP_DECOR,
	    WEB_HAS_ACTUATORS },
	{ "activation", WEB_FLAG(mjVIS_ACTUATOR) | WEB_FLAG(mjVIS_ACTIVATION),
	    0, mjFRAME_NONE, mjLABEL_ACTUATOR, 0, mjCAT_DECOR, WEB_KEEP_DECOR,
	    WEB_HAS_ACTUATORS },
	{ "light", WEB_FLAG(mjVIS_LIGHT), 0, mjFRAME_NONE, mjLABEL_LIGHT, 0,
	    mjCAT_DECOR, WEB_KEEP_DECOR, WEB_HAS_LIGHTS },
	{ "tendon", WEB_FLAG(mjVIS_TENDON), 0, mjFRAME_NONE, mjLABEL_TENDON, 0,
	    mjCAT_DYNAMIC, WEB_KEEP_TENDON, WEB_HAS_TENDONS },
	{ "rangefinder", WEB_FLAG(mjVIS_RANGEFINDER), 0, mjFRAME_NONE,
	    mjLABEL_NONE, 0, mjCAT_DECOR, WEB_KEEP_DECOR,
	    WEB_HAS_RANGEFINDERS },
	{ "constraint", WEB_FLAG(mjVIS_CONSTRAINT), 0, mjFRAME_NONE,
	    mjLABEL_CONSTRAINT, 0, mjCAT_DECOR, WEB_KEEP_DECOR,
	    WEB_HAS_EQUALITIES },
	/*
	 * Static Body off takes the static bodies' inertia boxes and body,
	 * geom and site frames away too, as MuJoCo does: a "-moving" kind
	 * is made without them.
	 */
	{ "inertia", WEB_FLAG(mjVIS_INERTIA) | WEB_FLAG(mjVIS_STATIC),
	    WEB_FLAG(mjVIS_SCLINERTIA), mjFRAME_NONE, mjLABEL_NONE, 0,
	    mjCAT_ALL, WEB_KEEP_BODY, WEB_HAS_BODIES },
	{ "inertia-moving", WEB_FLAG(mjVIS_INERTIA),
	    WEB_FLAG(mjVIS_SCLINERTIA) | WEB_FLAG(mjVIS_STATIC), mjFRAME_NONE,
	    mjLABEL_NONE, 0, mjCAT_ALL, WEB_KEEP_BODY, WEB_HAS_BODIES },
	{ "sclinertia",
	    WEB_FLAG(mjVIS_INERTIA) | WEB_FLAG(mjVIS_SCLINERTIA) |
		WEB_FLAG(mjVIS_STATIC),
	    0, mjFRAME_NONE, mjLABEL_NONE, 0, mjCAT_ALL, WEB_KEEP_BODY,
	    WEB_HAS_BODIES },
	{ "sclinertia-moving",
	    WEB_FLAG(mjVIS_INERTIA) | WEB_FLAG(mjVIS_SCLINERTIA),
	    WEB_FLAG(mjVIS_STATIC), mjFRAME_NONE, mjLABEL_NONE, 0, mjCAT_ALL,
	    WEB_KEEP_BODY, WEB_HAS_BODIES },
	{ "pertforce", WEB_FLAG(mjVIS_PERTFORCE), 0, mjFRAME_NONE, mjLABEL_NONE,
	    0, mjCAT_DECOR, WEB_KEEP_DECOR, WEB_HAS_PUSHES },
	{ "autoconnect", WEB_FLAG(mjVIS_AUTOCONNECT), 0, mjFRAME_NONE,
	    mjLABEL_NONE, 0, mjCAT_DECOR, WEB_KEEP_DECOR, WEB_HAS_BODIES },
	{ "com", WEB_FLAG(mjVIS_COM), 0, mjFRAME_NONE, mjLABEL_NONE, 0,
	    mjCAT_DECOR, WEB_KEEP_DECOR, WEB_HAS_BODIES },
	{ "slidercrank", 0, 0, mjFRAME_NONE, mjLABEL_ACTUATOR, 0, mjCAT_DYNAMIC,
	    WEB_KEEP_CRANK, WEB_HAS_CRANKS },
	/* simulate's Frame: the body frames also need the bodies' own. */
	{ "frame-body", WEB_FLAG(mjVIS_STATIC), 0, mjFRAME_BODY, mjLABEL_NONE,
	    0, mjCAT_ALL, WEB_KEEP_FRAME, WEB_HAS_BODIES },
	{ "frame-body-moving", 0, WEB_FLAG(mjVIS_STATIC), mjFRAME_BODY,
	    mjLABEL_NONE, 0, mjCAT_ALL, WEB_KEEP_FRAME, WEB_HAS_BODIES },
	{ "frame-geom", WEB_FLAG(mjVIS_STATIC), 0, mjFRAME_GEOM, mjLABEL_NONE,
	    0, mjCAT_ALL, WEB_KEEP_FRAME, WEB_HAS_GEOMS },
	{ "frame-geom-moving", 0, WEB_FLAG(mjVIS_STATIC), mjFRAME_GEOM,
	    mjLABEL_NONE, 0, mjCAT_ALL, WEB_KEEP_FRAME, WEB_HAS_GEOMS },
	{ "frame-site", WEB_FLAG(mjVIS_STATIC), 0, mjFRAME_SITE, mjLABEL_NONE,
	    0, mjCAT_ALL, WEB_KEEP_FRAME, WEB_HAS_SITES },
	{ "frame-site-moving", 0, WEB_FLAG(mjVIS_STATIC), mjFRAME_SITE,
	    mjLABEL_NONE, 0, mjCAT_ALL, WEB_KEEP_FRAME, WEB_HAS_SITES },
	/* As simulate: a camera's or light's frame with its decoration. */
	{ "frame-camera", WEB_FLAG(mjVIS_CAMERA), 0, mjFRAME_CAMERA,
	    mjLABEL_NONE, 0, mjCAT_DECOR, WEB_KEEP_FRAME, WEB_HAS_CAMERAS },
	{ "frame-light", WEB_FLAG(mjVIS_LIGHT), 0, mjFRAME_LIGHT, mjLABEL_NONE,
	    0, mjCAT_DECOR, WEB_KEEP_FRAME, WEB_HAS_LIGHTS },
	{ "frame-contact", 0, 0, mjFRAME_CONTACT, mjLABEL_NONE, 0, mjCAT_DECOR,
	    WEB_KEEP_FRAME, WEB_HAS_CONTACTS },
	{ "frame-world", 0, 0, mjFRAME_WORLD, mjLABEL_NONE, 0, mjCAT_DECOR,
	    WEB_KEEP_FRAME, WEB_HAS_ALWAYS },
	/* MuJoCo labels bodies at their centres of mass. */
	{ "label-body", 0, 0, mjFRAME_NONE, mjLABEL_BODY, 1, mjCAT_ALL,
	    WEB_KEEP_LABEL, WEB_HAS_BODIES },
};
#define WEB_NKINDS ((int)(sizeof(web_kinds) / sizeof(web_kinds[0])))

/* The kind number of the browser's own selection and perturbation. */
#define WEB_KIND_MINE WEB_NKINDS

/* A browser's kinds are bits of an unsigned. */
typedef char web_kinds_fit[WEB_NKINDS < 32 ? 1 : -1];

/* The flags a browser's selection and perturbation are drawn by. */
#define WEB_MINE_FLAGS (WEB_FLAG(mjVIS_SELECT) | WEB_FLAG(mjVIS_PERTOBJ))

/*
 * The scales of decorations (mjVisual's scale), which a browser may set:
 * hxview's own model, shared by its browsers (and its EGL picture).
 */
static const struct web_scale {
	const char *name;
	size_t offset; /* in mjVisual */
} web_scales[] = {
	{ "forcewidth", offsetof(mjVisual, scale.forcewidth) },
	{ "contactwidth", offsetof(mjVisual, scale.contactwidth) },
	{ "contactheight", offsetof(mjVisual, scale.contactheight) },
	{ "connect", offsetof(mjVisual, scale.connect) },
	{ "com", offsetof(mjVisual, scale.com) },
	{ "camera", offsetof(mjVisual, scale.camera) },
	{ "light", offsetof(mjVisual, scale.light) },
	{ "selectpoint", offsetof(mjVisual, scale.selectpoint) },
	{ "jointlength", offsetof(mjVisual, scale.jointlength) },
	{ "jointwidth", offsetof(mjVisual, scale.jointwidth) },
	{ "actuatorlength", offsetof(mjVisual, scale.actuatorlength) },
	{ "actuatorwidth", offsetof(mjVisual, scale.actuatorwidth) },
	{ "framelength", offsetof(mjVisual, scale.framelength) },
	{ "framewidth", offsetof(mjVisual, scale.framewidth) },
	{ "constraint", offsetof(mjVisual, scale.constraint) },
	{ "slidercrank", offsetof(mjVisual, scale.slidercrank) },
};
#define WEB_NSCALES ((int)(sizeof(web_scales) / sizeof(web_scales[0])))

/* Every field of mjVisual's scale is in the table. */
typedef char web_scales_all
    [sizeof(((mjVisual *)0)->scale) == WEB_NSCALES * sizeof(float) ? 1 : -1];

/* The largest scale a browser may set: a hundred mean body sizes. */
#define WEB_SCALE_MAX 100.0

/* One label: where MuJoCo puts it, and its text. */
struct web_label {
	float pos[3];
	char text[sizeof(((mjvGeom *)0)->label)];
	signed char group; /* web_group() of its object */
};

/*
 * The objects whose decorations simulate shows by group, as a browser's
 * groups are kept (each a mask of mjNGROUP bits).
 */
enum web_grouped { WEB_GROUP_JOINT, WEB_GROUP_TENDON, WEB_GROUP_ACTUATOR };
#define WEB_NGROUPED 3

/*
 * The items of one model: the scene's geoms and sites in the order of
 * mjv_addGeoms(), and which of them move; the decorations and labels of
 * the last frame, by kind; the scales the browsers set.
 */
struct web_state {
	unsigned gen;      /* the model's */
	unsigned looks;    /* the model's look (struct view's looks) */
	int nitems;        /* geoms and sites in the scene */
	int *ident;        /* nitems x 3: objtype, objid, category */
	int moving_lights; /* a light is on a moving body or follows one */
	int rangefinders;  /* the model has rangefinder sensors */
	int cranks;        /* and slider-crank actuators */
	int *geom_item;    /* ngeom: its item, or -1 */
	int *site_item;    /* nsite: its item, or -1 */
	int *dynamic;      /* the items that move, in frame order */
	int ndynamic;      /* how many */
	int *dyn_slot;     /* nitems: its place in a frame, or -1 */
	float *poses;      /* ndynamic x WEB_POSE_FLOATS */
	float *decor;      /* up to the scene's maxgeom decorations */
	int decor_cap;     /* floats in decor */
	signed char *decor_group; /* each decoration's web_group() */
	int first[WEB_NKINDS], count[WEB_NKINDS]; /* decorations by kind */
	struct web_label *labels; /* the frame's (made when first asked) */
	int nlabels, labels_cap;
	int lfirst[WEB_NKINDS], lcount[WEB_NKINDS];  /* labels by kind */
	float lights[6 * mjMAXLIGHT];                /* where they are now */
	float mine[WEB_MINE_MAX * WEB_DECOR_FLOATS]; /* a browser's own */
	/* The scales set by the browsers, kept through a new look. */
	float scale[WEB_NSCALES];
	int scaled;         /* scale was set: the model's is replaced */
	unsigned scale_gen; /* a browser that saw another is sent them */
};

/*
 * One browser: its selection and perturbation, and what it shows (as
 * simulate's Rendering panel: the flags, the frame and the label).
 */
struct web_pert {
	unsigned gen; /* the model the selection belongs to */
	mjvPerturb pert;
	int mocap;         /* the selected body's mocap index, or -1 */
	int driving;       /* a force went to the server: release it */
	unsigned flags;    /* the mjtVisFlags it shows */
	int frame, label;  /* its mjtFrame and mjtLabel */
	unsigned kinds;    /* the decorations it is sent */
	unsigned labelled; /* the kinds whose labels it is sent */
	unsigned groups[WEB_NGROUPED]; /* the groups it shows, by object */
	unsigned scale_gen;            /* the scales it was sent */
	TAILQ_ENTRY(web_pert) entry;
};

/*
 * Every browser, for the kinds a frame must hold: hxview has one view,
 * and each browser's state is its event stream's (web_pert_new).
 */
static TAILQ_HEAD(, web_pert) web_browsers = TAILQ_HEAD_INITIALIZER(
    web_browsers);

/* New scales: a model's own, or a browser's; never 0 (none sent). */
static unsigned web_scale_gens;

static const char web_b64
    [] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* Base64 written in pieces: the bytes not yet making three. */
struct web_b64 {
	unsigned char carry[3];
	int ncarry;
};

/* Write three bytes as four characters. */
static void
web_b64_quad(FILE *f, const unsigned char *p)
{
	unsigned long x = (unsigned long)p[0] << 16 | (unsigned long)p[1] << 8 |
	    p[2];

	fputc(web_b64[x >> 18 & 63], f);
	fputc(web_b64[x >> 12 & 63], f);
	fputc(web_b64[x >> 6 & 63], f);
	fputc(web_b64[x & 63], f);
}

/* Write n more bytes of a base64 text begun with b zeroed. */
static void
web_b64_put(FILE *f, struct web_b64 *b, const void *data, size_t n)
{
	const unsigned char *p = data;
	size_t i = 0;

	while (b->ncarry > 0 && b->ncarry < 3 && i < n)
		b->carry[b->ncarry++] = p[i++];
	if (b->ncarry == 3) {
		web_b64_quad(f, b->carry);
		b->ncarry = 0;
	}
	for (; i + 2 < n; i += 3)
		web_b64_quad(f, p + i);
	while (i < n)
		b->carry[b->ncarry++] = p[i++];
}

/* End a base64 text: its last bytes, padded. */
static void
web_b64_end(FILE *f, struct web_b64 *b)
{
	unsigned long x;

	if (b->ncarry == 0)
		return;
	x = (unsigned long)b->carry[0] << 16;
	if (b->ncarry > 1)
		x |= (unsigned long)b->carry[1] << 8;
	fputc(web_b64[x >> 18 & 63], f);
	fputc(web_b64[x >> 12 & 63], f);
	fputc(b->ncarry > 1 ? web_b64[x >> 6 & 63] : '=', f);
	fputc('=', f);
	b->ncarry = 0;
}

void
web_base64(FILE *f, const void *data, size_t n)
{
	struct web_b64 b = { { 0, 0, 0 }, 0 };

	web_b64_put(f, &b, data, n);
	web_b64_end(f, &b);
}

/* Write text as a JSON string, quoted. */
/* A JSON number: JSON has no NaN or infinity, which become null. */
static void
web_number(FILE *f, double x)
{
	if (isfinite(x))
		fprintf(f, "%.7g", x);
	else
		fputs("null", f);
}

/* Element i of an array of doubles, and of floats. */
static double
web_at_double(const void *x, int i)
{
	return ((const double *)x)[i];
}

static double
web_at_float(const void *x, int i)
{
	return ((const float *)x)[i];
}

/* n numbers of x, read by at, as a JSON array. */
static void
web_array(FILE *f, const void *x, int n, double (*at)(const void *, int))
{
	int i;

	fputc('[', f);
	for (i = 0; i < n; i++) {
		if (i > 0)
			fputc(',', f);
		web_number(f, at(x, i));
	}
	fputc(']', f);
}

/* n doubles as a JSON array. */
static void
web_numbers(FILE *f, const double *x, int n)
{
	web_array(f, x, n, web_at_double);
}

/* n floats as a JSON array. */
static void
web_floats(FILE *f, const float *x, int n)
{
	web_array(f, x, n, web_at_float);
}

/* The name of object i of a name table, "" for none. */
static const char *
web_name(const mjModel *m, const int *adr, int i)
{
	return adr != NULL && adr[i] >= 0 ? m->names + adr[i] : "";
}

/*
 * The options of the scene's passes: every group, the static bodies,
 * and of the decorations only flags (mjtVisFlag bits).
 */
static void
web_options(mjvOption *opt, unsigned flags)
{
	int i;

	mjv_defaultOption(opt);
	for (i = 0; i < mjNVISFLAG; i++)
		opt->flags[i] = (flags & WEB_FLAG(i)) != 0;
	opt->flags[mjVIS_STATIC] = 1;
	opt->flags[mjVIS_TEXTURE] = 1;
	for (i = 0; i < mjNGROUP; i++) {
		opt->geomgroup[i] = 1;
		opt->sitegroup[i] = 1;
		opt->jointgroup[i] = 1;
		opt->tendongroup[i] = 1;
		opt->actuatorgroup[i] = 1;
		opt->skingroup[i] = 1;
	}
}

/* Fill the scene with the model's items: one pass of mjv_addGeoms(). */
static void
web_pass(struct view *v)
{
	mjvOption opt;

	web_options(&opt, WEB_FLAG(mjVIS_SKIN));
	v->scn.ngeom = 0;
	mjv_addGeoms(v->m, v->d, &opt, &v->pert, mjCAT_ALL, &v->scn);
}

/* Is a scene geom one of the model's geoms or sites? */
static int
web_is_item(const mjvGeom *g)
{
	return (g->objtype == mjOBJ_GEOM || g->objtype == mjOBJ_SITE) &&
	    g->objid >= 0;
}

void
web_state_free(struct web_state *w)
{
	if (w == NULL)
		return;
	free(w->ident);
	free(w->geom_item);
	free(w->site_item);
	free(w->dynamic);
	free(w->dyn_slot);
	free(w->poses);
	free(w->decor);
	free(w->decor_group);
	free(w->labels);
	free(w);
}

/* Do two states list the same items, in the same order and kind? */
static int
web_same_items(const struct web_state *a, const struct web_state *b)
{
	return a != NULL && b != NULL && a->nitems == b->nitems &&
	    memcmp(a->ident, b->ident, sizeof(int) * 3 * (size_t)a->nitems) ==
	    0;
}

/*
 * Does any light move: on a body that moves (by a joint, or a mocap
 * body's, which has none), or following one?
 */
static int
web_lights_move(const mjModel *m)
{
	int i, b;

	for (i = 0; i < m->nlight; i++) {
		if (m->light_mode[i] != mjCAMLIGHT_FIXED)
			return 1;
		for (b = m->light_bodyid[i]; b > 0; b = m->body_parentid[b])
			if (m->body_weldid[b] != 0 || m->body_mocapid[b] >= 0)
				return 1;
	}
	return 0;
}

/* Does the model have a sensor of type, or an actuator of trntype? */
static int
web_model_has(const mjModel *m, int sensor, int trntype)
{
	int i;

	for (i = 0; i < m->nsensor; i++)
		if (m->sensor_type[i] == sensor)
			return 1;
	for (i = 0; i < m->nu; i++)
		if (m->actuator_trntype[i] == trntype)
			return 1;
	return 0;
}

/* Put the browsers' scales (if any) into the model the view holds. */
static void
web_scale_apply(struct view *v, const struct web_state *w)
{
	int i;

	if (!w->scaled)
		return;
	for (i = 0; i < WEB_NSCALES; i++)
		*(float *)((char *)&v->m->vis +
		    web_scales[i].offset) = w->scale[i];
}

/*
 * The scales of a new state: the browsers' through a new look of the
 * same model, else the model's own (a new model starts from its own).
 */
static void
web_scale_carry(
    struct view *v, struct web_state *w, const struct web_state *old)
{
	if (old != NULL && old->gen == w->gen && old->scaled) {
		memcpy(w->scale, old->scale, sizeof(w->scale));
		w->scaled = 1;
		w->scale_gen = old->scale_gen;
		web_scale_apply(v, w);
	} else {
		w->scale_gen = ++web_scale_gens;
	}
}

/*
 * The items of the model the view holds, made once per model and look
 * from the first pass of mjv_addGeoms(); NULL when out of memory.  A
 * look that lists other items than the last (a geom's alpha from 0) is
 * a new scene for the page, as a new model is.
 */
static struct web_state *
web_state(struct view *v)
{
	const mjModel *m = v->m;
	struct web_state *w = v->web, *old;
	const mjvGeom *g;
	int i, *item;

	if (w != NULL && w->gen == v->gen && w->looks == v->looks)
		return w;
	old = w;
	v->web = NULL;
	if ((w = calloc(1, sizeof(*w))) == NULL) {
		web_state_free(old);
		return NULL;
	}
	w->gen = v->gen;
	w->looks = v->looks;
	view_apply(v);
	web_pass(v);
	w->geom_item = malloc(sizeof(int) * (size_t)(m->ngeom + 1));
	w->site_item = malloc(sizeof(int) * (size_t)(m->nsite + 1));
	w->ident = malloc(sizeof(int) * 3 * (size_t)(v->scn.ngeom + 1));
	w->dynamic = malloc(sizeof(int) * (size_t)(v->scn.ngeom + 1));
	w->dyn_slot = malloc(sizeof(int) * (size_t)(v->scn.ngeom + 1));
	w->poses = malloc(
	    sizeof(float) * WEB_POSE_FLOATS * (size_t)(v->scn.ngeom + 1));
	w->decor_cap = WEB_DECOR_FLOATS * v->scn.maxgeom;
	w->decor = malloc(sizeof(float) * (size_t)w->decor_cap);
	w->decor_group = malloc((size_t)v->scn.maxgeom + 1);
	if (w->geom_item == NULL || w->site_item == NULL || w->ident == NULL ||
	    w->dynamic == NULL || w->dyn_slot == NULL || w->poses == NULL ||
	    w->decor == NULL || w->decor_group == NULL) {
		web_state_free(old);
		web_state_free(w);
		return NULL;
	}
	for (i = 0; i < m->ngeom; i++)
		w->geom_item[i] = -1;
	for (i = 0; i < m->nsite; i++)
		w->site_item[i] = -1;
	for (i = 0; i < v->scn.ngeom; i++) {
		g = &v->scn.geoms[i];
		if (!web_is_item(g))
			continue;
		item = g->objtype == mjOBJ_GEOM ? &w->geom_item[g->objid] :
						  &w->site_item[g->objid];
		if (*item >= 0)
			continue;
		*item = w->nitems;
		w->ident[3 * w->nitems] = g->objtype;
		w->ident[3 * w->nitems + 1] = g->objid;
		w->ident[3 * w->nitems + 2] = g->category;
		w->dyn_slot[w->nitems] = -1;
		if (g->category == mjCAT_DYNAMIC) {
			w->dyn_slot[w->nitems] = w->ndynamic;
			w->dynamic[w->ndynamic++] = w->nitems;
		}
		w->nitems++;
	}
	w->moving_lights = web_lights_move(m);
	w->rangefinders = web_model_has(m, mjSENS_RANGEFINDER, -1);
	w->cranks = web_model_has(m, -1, mjTRN_SLIDERCRANK);
	web_scale_carry(v, w, old);
	if (old == NULL || old->gen != w->gen || !web_same_items(old, w))
		v->web_gen++;
	web_state_free(old);
	v->web = w;
	v->web_free = web_state_free;
	return w;
}

/* The item a scene geom stands for, or -1. */
static int
web_item_of(const struct web_state *w, const mjModel *m, const mjvGeom *g)
{
	if (!web_is_item(g))
		return -1;
	if (g->objtype == mjOBJ_GEOM)
		return g->objid < m->ngeom ? w->geom_item[g->objid] : -1;
	return g->objid < m->nsite ? w->site_item[g->objid] : -1;
}

/* A scene geom's orientation as a quaternion (w, x, y, z). */
static void
web_quat(const mjvGeom *g, mjtNum quat[4])
{
	mjtNum mat[9];
	int i;

	for (i = 0; i < 9; i++)
		mat[i] = g->mat[i];
	mju_mat2Quat(quat, mat);
}

/* The body an item belongs to. */
static int
web_item_body(const mjModel *m, const mjvGeom *g)
{
	return g->objtype == mjOBJ_GEOM ? m->geom_bodyid[g->objid] :
					  m->site_bodyid[g->objid];
}

static int
web_item_group(const mjModel *m, const mjvGeom *g)
{
	return g->objtype == mjOBJ_GEOM ? m->geom_group[g->objid] :
					  m->site_group[g->objid];
}

unsigned
web_model_gen(struct view *v)
{
	web_state(v);
	return v->web_gen;
}

unsigned
web_look_gen(const struct view *v)
{
	return v->looks;
}

unsigned
web_camera_gen(const struct view *v)
{
	return v->cameras;
}

/* The pages' free camera: the daemon's shared one, else the model's. */
static void
web_free_camera(const struct view *v, mjvCamera *cam)
{
	if (v->shared)
		view_camera_pose(v->m, v->shared_pos, v->shared_quat, cam);
	else
		mjv_defaultFreeCamera(v->m, cam);
}

int
web_camera(struct view *v, FILE *f)
{
	mjvCamera cam;

	if (v->m == NULL)
		return -1;
	web_free_camera(v, &cam);
	fputs("{\"lookat\":", f);
	web_numbers(f, cam.lookat, 3);
	fprintf(f,
	    ",\"distance\":%.7g,\"azimuth\":%.7g,\"elevation\":%.7g,"
	    "\"shared\":%s}",
	    cam.distance, cam.azimuth, cam.elevation,
	    v->shared ? "true" : "false");
	return ferror(f) ? -1 : 0;
}

/* The model's bodies, joints, actuators, sensors, cameras and keys. */
static void
web_describe_names(const mjModel *m, FILE *f)
{
	int i;

	fputs(",\"bodies\":[", f);
	for (i = 0; i < m->nbody; i++) {
		fprintf(f, "%s{\"name\":", i > 0 ? "," : "");
		json_string(f, web_name(m, m->name_bodyadr, i));
		fprintf(f, ",\"parent\":%d,\"mocap\":%d,\"weld\":%d}",
		    m->body_parentid[i], m->body_mocapid[i], m->body_weldid[i]);
	}
	fputs("],\"joints\":[", f);
	for (i = 0; i < m->njnt; i++) {
		fprintf(f, "%s{\"name\":", i > 0 ? "," : "");
		json_string(f, web_name(m, m->name_jntadr, i));
		fprintf(f,
		    ",\"type\":%d,\"body\":%d,\"qpos\":%d,\"limited\":%d,"
		    "\"range\":",
		    m->jnt_type[i], m->jnt_bodyid[i], m->jnt_qposadr[i],
		    m->jnt_limited[i]);
		web_numbers(f, m->jnt_range + 2 * i, 2);
		fputc('}', f);
	}
	fputs("],\"actuators\":[", f);
	for (i = 0; i < m->nu; i++) {
		fprintf(f, "%s{\"name\":", i > 0 ? "," : "");
		json_string(f, web_name(m, m->name_actuatoradr, i));
		fprintf(f,
		    ",\"limited\":%d,\"range\":", m->actuator_ctrllimited[i]);
		web_numbers(f, m->actuator_ctrlrange + 2 * i, 2);
		fputc('}', f);
	}
	fputs("],\"sensors\":[", f);
	for (i = 0; i < m->nsensor; i++) {
		fprintf(f, "%s{\"name\":", i > 0 ? "," : "");
		json_string(f, web_name(m, m->name_sensoradr, i));
		fprintf(f, ",\"type\":%d,\"dim\":%d,\"adr\":%d}",
		    m->sensor_type[i], m->sensor_dim[i], m->sensor_adr[i]);
	}
	fputs("],\"cameras\":[", f);
	for (i = 0; i < m->ncam; i++) {
		fprintf(f, "%s{\"name\":", i > 0 ? "," : "");
		json_string(f, web_name(m, m->name_camadr, i));
		fprintf(f, ",\"fovy\":");
		web_number(f, m->cam_fovy[i]);
		fputc('}', f);
	}
	fputs("],\"keys\":[", f);
	for (i = 0; i < m->nkey; i++) {
		if (i > 0)
			fputc(',', f);
		json_string(f, web_name(m, m->name_keyadr, i));
	}
	/* For the labels of geoms and sites, which the page writes. */
	fputs("],\"geoms\":[", f);
	for (i = 0; i < m->ngeom; i++) {
		if (i > 0)
			fputc(',', f);
		json_string(f, web_name(m, m->name_geomadr, i));
	}
	fputs("],\"sites\":[", f);
	for (i = 0; i < m->nsite; i++) {
		if (i > 0)
			fputc(',', f);
		json_string(f, web_name(m, m->name_siteadr, i));
	}
	fputs("]", f);
}

/* A list of MuJoCo's names (mjLABELSTRING, ...) as a JSON array. */
static void
web_strings(FILE *f, const char *const *names, int n)
{
	int i;

	fputc('[', f);
	for (i = 0; i < n; i++) {
		if (i > 0)
			fputc(',', f);
		json_string(f, names[i]);
	}
	fputc(']', f);
}

/* The scales of decorations now, a JSON object by name. */
static void
web_scale_json(const mjModel *m, FILE *f)
{
	int i;

	for (i = 0; i < WEB_NSCALES; i++) {
		fprintf(f, "%s\"%s\":", i > 0 ? "," : "{", web_scales[i].name);
		web_number(f,
		    *(const float *)((const char *)&m->vis +
			web_scales[i].offset));
	}
	fputc('}', f);
}

/*
 * The flags a browser shows until it says: MuJoCo's defaults, and the
 * selection point (the workbench's sign of a selection, where simulate
 * makes the selected body glow).
 */
static unsigned
web_flags_default(void)
{
	unsigned flags = WEB_FLAG(mjVIS_SELECT);
	int i;

	for (i = 0; i < mjNVISFLAG; i++)
		if (mjVISSTRING[i][1][0] == '1')
			flags |= WEB_FLAG(i);
	return flags;
}

/*
 * simulate's Rendering and Visualization lists, MuJoCo's own: the
 * visualization flags (name, default, key), the default a browser
 * starts with, the rendering flags, the frames and labels, the scales,
 * and what transparency and shadows are drawn by.
 */
static void
web_describe_vis(const mjModel *m, FILE *f)
{
	int i;

	fputs(",\"vis\":{\"flags\":[", f);
	for (i = 0; i < mjNVISFLAG; i++) {
		fputs(i > 0 ? "," : "", f);
		web_strings(f, mjVISSTRING[i], 3);
	}
	fputs("],\"rndflags\":[", f);
	for (i = 0; i < mjNRNDFLAG; i++) {
		fputs(i > 0 ? "," : "", f);
		web_strings(f, mjRNDSTRING[i], 3);
	}
	fprintf(f, "],\"defaults\":%u,\"frames\":", web_flags_default());
	web_strings(f, mjFRAMESTRING, mjNFRAME);
	fputs(",\"labels\":", f);
	web_strings(f, mjLABELSTRING, mjNLABEL);
	fputs(",\"scale\":", f);
	web_scale_json(m, f);
	fprintf(f,
	    ",\"alpha\":%g,\"shadowclip\":%g,\"shadowscale\":%g,"
	    "\"shadowsize\":%d}",
	    m->vis.map.alpha, m->vis.map.shadowclip, m->vis.map.shadowscale,
	    m->vis.quality.shadowsize);
}

/*
 * The convex hull of mesh i, as MuJoCo keeps it (its mesh graph): the
 * faces' vertices, numbered in the mesh, and in *n how many faces; NULL
 * when it has none, or one this hxview does not read.
 */
static const int *
web_hull(const mjModel *m, int i, int *n)
{
	const int *g, *face;
	int adr = m->mesh_graphadr[i], k;

	*n = 0;
	if (adr < 0 || adr + 2 > m->nmeshgraph)
		return NULL;
	g = m->mesh_graph + adr;
	if (g[0] < 0 || g[1] <= 0 ||
	    (long)adr + 2 + 3L * g[0] + 6L * g[1] > m->nmeshgraph)
		return NULL;
	face = g + 2 + 3 * g[0] + 3 * g[1];
	for (k = 0; k < 3 * g[1]; k++)
		if (face[k] < 0 || face[k] >= m->mesh_vertnum[i])
			return NULL;
	*n = g[1];
	return face;
}

/* The lights of mjv_makeLights(), the headlight first when it is on. */
static void
web_describe_lights(struct view *v, FILE *f)
{
	const mjvLight *l;
	int i;

	mjv_makeLights(v->m, v->d, &v->scn);
	fputs(",\"lights\":[", f);
	for (i = 0; i < v->scn.nlight; i++) {
		l = &v->scn.lights[i];
		fprintf(f, "%s{\"pos\":", i > 0 ? "," : "");
		web_floats(f, l->pos, 3);
		fputs(",\"dir\":", f);
		web_floats(f, l->dir, 3);
		fputs(",\"ambient\":", f);
		web_floats(f, l->ambient, 3);
		fputs(",\"diffuse\":", f);
		web_floats(f, l->diffuse, 3);
		fputs(",\"specular\":", f);
		web_floats(f, l->specular, 3);
		fputs(",\"attenuation\":", f);
		web_floats(f, l->attenuation, 3);
		fprintf(f,
		    ",\"cutoff\":%g,\"exponent\":%g,\"headlight\":%d,"
		    "\"directional\":%d,\"castshadow\":%d}",
		    l->cutoff, l->exponent, l->headlight, l->directional,
		    l->castshadow);
	}
	fputs("]", f);
}

/*
 * The items as the scene holds them now, a JSON array: objtype, objid,
 * body, category, type, dataid, texid, texuniform, group, size (3),
 * rgba (4), emission, specular, shininess, reflectance, texrepeat (2),
 * pos (3), quat (4).
 */
static void
web_describe_items(struct view *v, struct web_state *w, FILE *f)
{
	const mjModel *m = v->m;
	const mjvGeom *g;
	mjtNum q[4];
	int i, n, it;

	web_pass(v);
	fputc('[', f);
	for (i = 0, n = 0; i < v->scn.ngeom; i++) {
		g = &v->scn.geoms[i];
		if ((it = web_item_of(w, m, g)) != n)
			continue; /* not an item, or one seen already */
		n++;
		web_quat(g, q);
		fprintf(f, "%s[%d,%d,%d,%d,%d,%d,%d,%d,%d,", n > 1 ? "," : "",
		    g->objtype, g->objid, web_item_body(m, g), g->category,
		    g->type, g->dataid, g->texid, g->texuniform,
		    web_item_group(m, g));
		fprintf(f,
		    "%.7g,%.7g,%.7g,%.4g,%.4g,%.4g,%.4g,%.4g,%.4g,%.4g,"
		    "%.4g,%.4g,%.4g,%.7g,%.7g,%.7g,%.7g,%.7g,%.7g,%.7g]",
		    g->size[0], g->size[1], g->size[2], g->rgba[0], g->rgba[1],
		    g->rgba[2], g->rgba[3], g->emission, g->specular,
		    g->shininess, g->reflectance, g->texrepeat[0],
		    g->texrepeat[1], g->pos[0], g->pos[1], g->pos[2], q[0],
		    q[1], q[2], q[3]);
	}
	fputc(']', f);
}

/*
 * The skins: each one's vertices' and faces' addresses and counts, its
 * texture coordinates' address (-1: none), group and look (its
 * material's when it has one, as MuJoCo draws it); their vertices come
 * with each frame, their faces and texture coordinates after the
 * meshes' in /meshes.bin.
 */
static void
web_describe_skins(const mjModel *m, FILE *f)
{
	const float *rgba;
	int i, mat;

	fputs(",\"skins\":[", f);
	for (i = 0; i < m->nskin; i++) {
		mat = m->skin_matid[i];
		rgba = mat >= 0 ? m->mat_rgba + 4 * mat : m->skin_rgba + 4 * i;
		fprintf(f,
		    "%s{\"vert\":[%d,%d],\"face\":[%d,%d],\"texcoord\":%d,"
		    "\"group\":%d,\"rgba\":[%.4g,%.4g,%.4g,%.4g],"
		    "\"emission\":%.4g,\"specular\":%.4g,\"shininess\":%.4g,"
		    "\"texid\":%d}",
		    i > 0 ? "," : "", m->skin_vertadr[i], m->skin_vertnum[i],
		    m->skin_faceadr[i], m->skin_facenum[i],
		    m->skin_texcoordadr[i], m->skin_group[i], rgba[0], rgba[1],
		    rgba[2], rgba[3], mat >= 0 ? m->mat_emission[mat] : 0,
		    mat >= 0 ? m->mat_specular[mat] : 0.5f,
		    mat >= 0 ? m->mat_shininess[mat] : 0.5f,
		    mat >= 0 ? m->mat_texid[mat] : -1);
	}
	fprintf(f, "],\"nskinvert\":%d,\"nskinface\":%d,\"nskintexvert\":%d",
	    m->nskinvert, m->nskinface, m->nskintexvert);
}

int
web_describe(struct view *v, FILE *f)
{
	const mjModel *m = v->m;
	struct web_state *w;
	int i, n, nhull;

	if ((w = web_state(v)) == NULL)
		return -1;
	fprintf(
	    f, "{\"gen\":%u,\"looks\":%u,\"extent\":", v->web_gen, v->looks);
	web_number(f, m->stat.extent);
	fputs(",\"center\":", f);
	web_numbers(f, m->stat.center, 3);
	fprintf(f, ",\"fovy\":%g,\"znear\":%g,\"zfar\":%g", m->vis.global.fovy,
	    m->vis.map.znear, m->vis.map.zfar);
	fputs(",\"camera\":", f);
	web_camera(v, f);
	fprintf(f,
	    ",\"timestep\":%.7g,\"nq\":%d,\"nu\":%d,\"nsensordata\":%d,"
	    "\"nmocap\":%d,\"stiffness\":%g",
	    m->opt.timestep, m->nq, m->nu, m->nsensordata, m->nmocap,
	    m->vis.map.stiffness);
	fputs(",\"decor\":[", f);
	for (i = 0; i < WEB_NKINDS; i++)
		fprintf(f, "%s\"%s\"", i > 0 ? "," : "", web_kinds[i].name);
	fputs(",\"mine\"]", f);
	web_describe_names(m, f);
	web_describe_vis(m, f);
	web_describe_lights(v, f);
	fprintf(f, ",\"moving_lights\":%d", w->moving_lights);
	/* A mesh: its vertices' and faces' addresses and counts, its hull's. */
	fputs(",\"meshes\":[", f);
	for (i = 0, nhull = 0; i < m->nmesh; i++) {
		web_hull(m, i, &n);
		fprintf(f, "%s[%d,%d,%d,%d,%d,%d]", i > 0 ? "," : "",
		    m->mesh_vertadr[i], m->mesh_vertnum[i], m->mesh_faceadr[i],
		    m->mesh_facenum[i], nhull, n);
		nhull += n;
	}
	fprintf(f,
	    "],\"nmeshvert\":%d,\"nmeshface\":%d,\"nhullface\":%d,"
	    "\"hfields\":[",
	    m->nmeshvert, m->nmeshface, nhull);
	/* A height field: its data's address, rows, columns and size. */
	for (i = 0; i < m->nhfield; i++) {
		fprintf(f, "%s[%d,%d,%d,", i > 0 ? "," : "", m->hfield_adr[i],
		    m->hfield_nrow[i], m->hfield_ncol[i]);
		web_numbers(f, m->hfield_size + 4 * i, 4);
		fputc(']', f);
	}
	fprintf(f, "],\"nhfielddata\":%d,\"textures\":[", m->nhfielddata);
	for (i = 0; i < m->ntex; i++)
		fprintf(f, "%s{\"type\":%d,\"width\":%d,\"height\":%d}",
		    i > 0 ? "," : "", m->tex_type[i], m->tex_width[i],
		    m->tex_height[i]);
	fputc(']', f);
	web_describe_skins(m, f);
	fputs(",\"items\":", f);
	web_describe_items(v, w, f);
	fputs(",\"dynamic\":[", f);
	for (i = 0; i < w->ndynamic; i++)
		fprintf(f, "%s%d", i > 0 ? "," : "", w->dynamic[i]);
	fputs("]", f);
	fputs(",\"name\":", f);
	json_string(f, v->model_name);
	fputs("}\n", f);
	return ferror(f) ? -1 : 0;
}

int
web_look(struct view *v, FILE *f)
{
	struct web_state *w;

	if ((w = web_state(v)) == NULL)
		return -1;
	fprintf(f, "{\"gen\":%u,\"looks\":%u,\"items\":", v->web_gen, v->looks);
	web_describe_items(v, w, f);
	fputs("}", f);
	return ferror(f) ? -1 : 0;
}

int
web_meshes(struct view *v, FILE *f)
{
	const mjModel *m = v->m;
	const int *hull;
	int i, n;

	/*
	 * Vertices, normals (float32), faces (int32), then the height
	 * fields' elevations (float32, 0 to 1), then the convex hulls'
	 * faces (int32), then the skins' faces (int32) and texture
	 * coordinates (float32), as the page reads them.
	 */
	fwrite(m->mesh_vert, sizeof(float), 3 * (size_t)m->nmeshvert, f);
	fwrite(m->mesh_normal, sizeof(float), 3 * (size_t)m->nmeshvert, f);
	fwrite(m->mesh_face, sizeof(int), 3 * (size_t)m->nmeshface, f);
	fwrite(m->hfield_data, sizeof(float), (size_t)m->nhfielddata, f);
	/* The meshes' convex hulls' faces (int32), numbered in each mesh. */
	for (i = 0; i < m->nmesh; i++)
		if ((hull = web_hull(m, i, &n)) != NULL)
			fwrite(hull, sizeof(int), 3 * (size_t)n, f);
	fwrite(m->skin_face, sizeof(int), 3 * (size_t)m->nskinface, f);
	fwrite(m->skin_texcoord, sizeof(float), 2 * (size_t)m->nskintexvert, f);
	return ferror(f) ? -1 : 0;
}

int
web_texture(struct view *v, int id, FILE *f)
{
	const mjModel *m = v->m;

	if (id < 0 || id >= m->ntex)
		return -1;
	return image_png_write(f, m->tex_rgb + m->tex_adr[id], m->tex_width[id],
	    m->tex_height[id]);
}

/*
 * Append one decoration of kind to buf, which holds cap of them and has
 * *n; 0, or -1 when full.
 */
static int
web_decor_add(float *buf, int cap, int *n, int kind, const mjvGeom *g)
{
	float *d;
	mjtNum q[4];
	int i;

	if (*n >= cap)
		return -1;
	d = buf + (size_t)*n * WEB_DECOR_FLOATS;
	web_quat(g, q);
	d[0] = (float)kind;
	d[1] = (float)g->type;
	for (i = 0; i < 3; i++) {
		d[2 + i] = g->size[i];
		d[5 + i] = g->pos[i];
	}
	for (i = 0; i < 4; i++) {
		d[8 + i] = (float)q[i];
		d[12 + i] = g->rgba[i];
	}
	(*n)++;
	return 0;
}

/*
 * Where the lights are now (position and direction, float32, in the
 * order of mjv_makeLights()), when one of them moves.
 */
static void
web_frame_lights(struct view *v, struct web_state *w, FILE *f)
{
	const mjvLight *l;
	int i, n;

	mjv_makeLights(v->m, v->d, &v->scn);
	n = v->scn.nlight < mjMAXLIGHT ? v->scn.nlight : mjMAXLIGHT;
	for (i = 0; i < n; i++) {
		l = &v->scn.lights[i];
		memcpy(w->lights + 6 * i, l->pos, 3 * sizeof(float));
		memcpy(w->lights + 6 * i + 3, l->dir, 3 * sizeof(float));
	}
	fputs(",\"lights\":\"", f);
	web_base64(f, w->lights, sizeof(float) * 6 * (size_t)n);
	fputc('"', f);
}

/* The status, as the info box, the profiler and the lease show it. */
static void
web_frame_status(const hxd_status *s, FILE *f)
{
	fprintf(f,
	    ",\"status\":{\"paused\":%d,\"time\":%.9g,\"steps\":%llu,"
	    "\"speed\":%g,\"speed_max\":%d,\"rtf\":",
	    s->paused, s->time, s->steps, s->speed, s->speed_max);
	web_number(f, s->realtime_factor);
	fputs(",\"cpu\":", f);
	web_number(f, s->cpu_per_step);
	fprintf(f, ",\"nefc\":%d,\"ncon\":%d,\"epot\":", s->nefc, s->ncon);
	web_number(f, s->energy_potential);
	fputs(",\"ekin\":", f);
	web_number(f, s->energy_kinetic);
	fprintf(f,
	    ",\"clients\":%d,\"lagging\":%d,\"overruns\":%llu,"
	    "\"lease\":%llu,\"lease_name\":",
	    s->clients, s->lagging, s->overruns, s->lease_holder);
	json_string(f, s->lease_holder_name);
	fputs(",\"message\":", f);
	json_string(f, s->message);
	fprintf(f, ",\"recording\":%d,\"record_path\":", s->recording.active);
	json_string(f, s->recording.path);
	fprintf(f, ",\"records\":%llu,\"record_ended\":", s->recording.records);
	json_string(f, s->recording.ended);
	fprintf(f,
	    ",\"tracking\":%d,\"perturbations\":%d,\"late_p50\":", s->ntracking,
	    s->nperturbations);
	web_number(f, s->pacing.lateness_p50);
	fputs(",\"late_p99\":", f);
	web_number(f, s->pacing.lateness_p99);
	fputs("}", f);
}

/* What the items of moving bodies look like now: their poses. */
static void
web_frame_poses(struct view *v, struct web_state *w)
{
	const mjvGeom *g;
	mjtNum q[4];
	float *p;
	int i, it, slot;

	for (i = 0; i < w->ndynamic * WEB_POSE_FLOATS; i++)
		w->poses[i] = NAN;
	web_pass(v);
	for (i = 0; i < v->scn.ngeom; i++) {
		g = &v->scn.geoms[i];
		if ((it = web_item_of(w, v->m, g)) < 0 ||
		    (slot = w->dyn_slot[it]) < 0)
			continue;
		p = w->poses + (size_t)slot * WEB_POSE_FLOATS;
		web_quat(g, q);
		p[0] = g->pos[0];
		p[1] = g->pos[1];
		p[2] = g->pos[2];
		p[3] = (float)q[0];
		p[4] = (float)q[1];
		p[5] = (float)q[2];
		p[6] = (float)q[3];
	}
}

/* Does the model or the state have anything of a kind to show? */
static int
web_has(const struct view *v, const struct web_state *w, enum web_has has)
{
	const mjModel *m = v->m;
	int i;

	switch (has) {
	case WEB_HAS_ALWAYS:
		return 1;
	case WEB_HAS_CONTACTS:
		return v->d->ncon > 0;
	case WEB_HAS_JOINTS:
		return m->njnt > 0;
	case WEB_HAS_CAMERAS:
		return m->ncam > 0;
	case WEB_HAS_ACTUATORS:
		return m->nu > 0;
	case WEB_HAS_LIGHTS:
		return m->nlight > 0;
	case WEB_HAS_TENDONS:
		return m->ntendon > 0;
	case WEB_HAS_RANGEFINDERS:
		return w->rangefinders;
	case WEB_HAS_EQUALITIES:
		return m->neq > 0;
	case WEB_HAS_BODIES:
		return m->nbody > 1;
	case WEB_HAS_PUSHES:
		for (i = 6; i < 6 * m->nbody; i++)
			if (v->d->xfrc_applied[i] != 0)
				return 1;
		return 0;
	case WEB_HAS_GEOMS:
		return m->ngeom > 0;
	case WEB_HAS_SITES:
		return m->nsite > 0;
	case WEB_HAS_CRANKS:
		return w->cranks;
	}
	return 0;
}

/* Is a scene geom of a pass one of its kind's? */
static int
web_keeps(enum web_keep keep, const mjvGeom *g)
{
	switch (keep) {
	case WEB_KEEP_DECOR:
		return g->category == mjCAT_DECOR;
	case WEB_KEEP_TENDON:
		return g->objtype == mjOBJ_TENDON;
	case WEB_KEEP_BODY:
		return g->objtype == mjOBJ_BODY;
	case WEB_KEEP_FRAME:
		return g->category == mjCAT_DECOR &&
		    g->objtype == mjOBJ_UNKNOWN;
	case WEB_KEEP_LABEL:
		return g->type == mjGEOM_LABEL;
	case WEB_KEEP_CRANK:
		return g->objtype == mjOBJ_ACTUATOR &&
		    g->category == mjCAT_DYNAMIC;
	}
	return 0;
}

/* Is a scene geom drawn (not a label alone, a skin or nothing)? */
static int
web_drawn(const mjvGeom *g)
{
	return g->type != mjGEOM_LABEL && g->type != mjGEOM_SKIN &&
	    g->type != mjGEOM_NONE;
}

/*
 * The group of a decoration's object, as simulate picks it (clamped to
 * the groups there are), plus mjNGROUP times what the object is (enum
 * web_grouped); -1 for a decoration shown whatever the groups.
 */
static signed char
web_group(const mjModel *m, const mjvGeom *g)
{
	int what, group;

	switch (g->objtype) {
	case mjOBJ_JOINT:
		what = WEB_GROUP_JOINT;
		group = g->objid >= 0 && g->objid < m->njnt ?
		    m->jnt_group[g->objid] :
		    0;
		break;
	case mjOBJ_TENDON:
		what = WEB_GROUP_TENDON;
		group = g->objid >= 0 && g->objid < m->ntendon ?
		    m->tendon_group[g->objid] :
		    0;
		break;
	case mjOBJ_ACTUATOR:
		what = WEB_GROUP_ACTUATOR;
		group = g->objid >= 0 && g->objid < m->nu ?
		    m->actuator_group[g->objid] :
		    0;
		break;
	default:
		return -1;
	}
	group = group < 0 ? 0 : group >= mjNGROUP ? mjNGROUP - 1 : group;
	return (signed char)(what * mjNGROUP + group);
}

/* Does a browser show a decoration of web_group() group? */
static int
web_group_shown(const struct web_pert *p, int group)
{
	return group < 0 ||
	    (p->groups[group / mjNGROUP] & WEB_FLAG(group % mjNGROUP)) != 0;
}

/*
 * Keep a geom's label; the labels' room is made when first needed, as
 * many as the scene's geoms.  0, or -1 when there is no room.
 */
static int
web_label_add(struct web_state *w, const mjvGeom *g, signed char group)
{
	struct web_label *l;

	if (w->labels == NULL) {
		w->labels_cap = w->decor_cap / WEB_DECOR_FLOATS;
		w->labels = calloc((size_t)w->labels_cap, sizeof(*w->labels));
		if (w->labels == NULL)
			return -1;
	}
	if (w->nlabels >= w->labels_cap)
		return -1;
	l = &w->labels[w->nlabels++];
	l->group = group;
	memcpy(l->pos, g->pos, sizeof(l->pos));
	memcpy(l->text, g->label, sizeof(l->text));
	l->text[sizeof(l->text) - 1] = '\0';
	return 0;
}

/*
 * The decorations of the kinds some browser shows, each kind apart so
 * that each browser is sent its own, with the labels of the kinds in
 * labelled; a pass is made only for a kind the model or the state has.
 */
static void
web_frame_decor(
    struct view *v, struct web_state *w, unsigned kinds, unsigned labelled)
{
	const struct web_kind *kd;
	const mjvGeom *g;
	mjvOption opt;
	signed char group;
	int i, k, n = 0, cap = w->decor_cap / WEB_DECOR_FLOATS;

	w->nlabels = 0;
	for (k = 0; k < WEB_NKINDS; k++) {
		kd = &web_kinds[k];
		w->first[k] = n;
		w->count[k] = 0;
		w->lfirst[k] = w->nlabels;
		w->lcount[k] = 0;
		if (!(kinds & WEB_FLAG(k)) || !web_has(v, w, kd->has))
			continue;
		web_options(&opt, kd->need);
		if (kd->without & WEB_FLAG(mjVIS_STATIC))
			opt.flags[mjVIS_STATIC] = 0;
		/* A camera's and a light's frames come with their bodies. */
		if (kd->frame == mjFRAME_CAMERA)
			opt.flags[mjVIS_CAMERA] = 1;
		if (kd->frame == mjFRAME_LIGHT)
			opt.flags[mjVIS_LIGHT] = 1;
		opt.frame = kd->frame;
		if (labelled & WEB_FLAG(k))
			opt.label = kd->label;
		v->scn.ngeom = 0;
		mjv_addGeoms(v->m, v->d, &opt, &v->pert, kd->catmask, &v->scn);
		for (i = 0; i < v->scn.ngeom; i++) {
			g = &v->scn.geoms[i];
			if (!web_keeps(kd->keep, g))
				continue;
			group = web_group(v->m, g);
			if (g->label[0] != '\0' && (labelled & WEB_FLAG(k)) &&
			    web_label_add(w, g, group) == 0)
				w->lcount[k]++;
			if (!kd->label_only && web_drawn(g) &&
			    web_decor_add(w->decor, cap, &n, k, g) == 0) {
				w->decor_group[n - 1] = group;
				w->count[k]++;
			}
		}
	}
}

/* The kinds and labels some browser shows. */
static void
web_shown(unsigned *kinds, unsigned *labelled)
{
	const struct web_pert *p;

	*kinds = 0;
	*labelled = 0;
	TAILQ_FOREACH(p, &web_browsers, entry)
	{
		*kinds |= p->kinds;
		*labelled |= p->labelled;
	}
}

/*
 * The skins' vertices as MuJoCo moves them with their bones (float32),
 * in every frame of a model that has skins: the page hides those its
 * Skin flag or groups hide.
 */
static void
web_frame_skins(struct view *v, FILE *f)
{
	mjvOption opt;

	if (v->m->nskin == 0 || v->scn.skinvert == NULL)
		return;
	web_options(&opt, WEB_FLAG(mjVIS_SKIN));
	mjv_updateActiveSkin(v->m, v->d, &v->scn, &opt);
	fputs(",\"skin\":\"", f);
	web_base64(
	    f, v->scn.skinvert, sizeof(float) * 3 * (size_t)v->m->nskinvert);
	fputc('"', f);
}

int
web_frame(struct view *v, FILE *f)
{
	const mjModel *m = v->m;
	const mjData *d;
	struct web_state *w;
	unsigned kinds, labelled;
	mjtNum q[4];
	int i;

	if ((w = web_state(v)) == NULL)
		return -1;
	view_apply(v);
	d = v->d;
	web_frame_poses(v, w);
	web_shown(&kinds, &labelled);
	web_frame_decor(v, w, kinds, labelled);
	fprintf(f, "\"gen\":%u,\"step\":%llu,\"time\":%.9g,\"rx\":%.3f",
	    v->web_gen, v->step, d->time, v->rx);
	if (w->moving_lights)
		web_frame_lights(v, w, f);
	fputs(",\"poses\":\"", f);
	web_base64(
	    f, w->poses, sizeof(float) * WEB_POSE_FLOATS * (size_t)w->ndynamic);
	fputs("\",\"cams\":[", f);
	for (i = 0; i < m->ncam; i++) {
		mju_mat2Quat(q, d->cam_xmat + 9 * i);
		fprintf(f, "%s%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g",
		    i > 0 ? "," : "", d->cam_xpos[3 * i],
		    d->cam_xpos[3 * i + 1], d->cam_xpos[3 * i + 2], q[0], q[1],
		    q[2], q[3]);
	}
	fputs("],\"qpos\":", f);
	web_numbers(f, d->qpos, m->nq);
	fputs(",\"ctrl\":", f);
	web_numbers(f, d->ctrl, m->nu);
	fputs(",\"sensor\":", f);
	web_numbers(f, d->sensordata, m->nsensordata);
	fputs(",\"mocap\":", f);
	web_numbers(f, d->mocap_pos, 3 * m->nmocap);
	web_frame_skins(v, f);
	if (v->have_status)
		web_frame_status(&v->status, f);
	return ferror(f) ? -1 : 0;
}

/* web_frame() into the stream arg, for view_with_state(). */
static int
web_frame_to(struct view *v, void *arg)
{
	return web_frame(v, arg);
}

int
export_due(double t, double last, double fps)
{
	return isnan(last) || t < last || fps <= 0 ||
	    t - last >= 1 / fps - 1e-9;
}

int
web_frame_of(struct view *v, hxd_frame *state, FILE *f)
{
	return view_with_state(v, state, web_frame_to, f);
}

/*
 * The kinds a browser is sent, and those whose labels, from what it
 * shows: a kind's flags (and not its modifiers'), its frame or its
 * label.
 */
static void
web_pert_kinds(struct web_pert *p)
{
	const struct web_kind *kd;
	int k, on;

	p->kinds = 0;
	p->labelled = 0;
	for (k = 0; k < WEB_NKINDS; k++) {
		kd = &web_kinds[k];
		if (kd->label_only)
			on = p->label == kd->label;
		else if (kd->frame != mjFRAME_NONE)
			on = p->frame == kd->frame &&
			    (p->flags & kd->need) == kd->need &&
			    (p->flags & kd->without) == 0;
		else
			on = (p->flags & kd->need) == kd->need &&
			    (p->flags & kd->without) == 0;
		if (!on)
			continue;
		p->kinds |= WEB_FLAG(k);
		if (kd->label != mjLABEL_NONE && p->label == kd->label)
			p->labelled |= WEB_FLAG(k);
	}
}

struct web_pert *
web_pert_new(void)
{
	struct web_pert *p = calloc(1, sizeof(*p));
	int i;

	if (p == NULL)
		return NULL;
	mjv_defaultPerturb(&p->pert);
	p->mocap = -1;
	p->flags = web_flags_default();
	for (i = 0; i < WEB_NGROUPED; i++)
		p->groups[i] = WEB_GROUPS_DEFAULT;
	web_pert_kinds(p);
	TAILQ_INSERT_TAIL(&web_browsers, p, entry);
	return p;
}

void
web_pert_free(struct web_pert *p)
{
	if (p == NULL)
		return;
	TAILQ_REMOVE(&web_browsers, p, entry);
	free(p);
}

int
web_pert_show(struct web_pert *p, unsigned long flags, long frame, long label,
    const long groups[3], char *err, size_t len)
{
	int i;

	for (i = 0; i < WEB_NGROUPED; i++)
		if (groups[i] < 0 || groups[i] >= (long)WEB_FLAG(mjNGROUP)) {
			snprintf(err, len,
			    "groups: a mask of %d bits, below %u", mjNGROUP,
			    WEB_FLAG(mjNGROUP));
			return -1;
		}
	if (flags >= WEB_FLAG(mjNVISFLAG)) {
		snprintf(err, len, "flags: mjtVisFlag bits, below %u",
		    WEB_FLAG(mjNVISFLAG));
		return -1;
	}
	if (frame < 0 || frame >= mjNFRAME) {
		snprintf(err, len, "frame: an mjtFrame, 0 to %d", mjNFRAME - 1);
		return -1;
	}
	if (label < 0 || label >= mjNLABEL) {
		snprintf(err, len, "label: an mjtLabel, 0 to %d", mjNLABEL - 1);
		return -1;
	}
	p->flags = (unsigned)flags;
	p->frame = (int)frame;
	p->label = (int)label;
	for (i = 0; i < WEB_NGROUPED; i++)
		p->groups[i] = (unsigned)groups[i];
	web_pert_kinds(p);
	return 0;
}

int
web_scale_set(
    struct view *v, const char *name, double value, char *err, size_t len)
{
	struct web_state *w;
	int i, k;

	if (v->m == NULL || (w = web_state(v)) == NULL) {
		snprintf(err, len, "no model");
		return -1;
	}
	for (k = 0; k < WEB_NSCALES; k++)
		if (strcmp(name, web_scales[k].name) == 0)
			break;
	if (k == WEB_NSCALES) {
		i = snprintf(err, len, "no scale '%.64s': ", name);
		for (k = 0; k < WEB_NSCALES && i > 0 && (size_t)i < len; k++)
			i += snprintf(err + i, len - (size_t)i, "%s%s",
			    k > 0 ? ", " : "", web_scales[k].name);
		return -1;
	}
	if (!(value >= 0 && value <= WEB_SCALE_MAX)) {
		snprintf(err, len, "value: 0 to %g (of the bodies' mean size)",
		    WEB_SCALE_MAX);
		return -1;
	}
	if (!w->scaled) {
		for (i = 0; i < WEB_NSCALES; i++)
			w->scale[i] = *(
			    const float *)((const char *)&v->m->vis +
			    web_scales[i].offset);
		w->scaled = 1;
	}
	w->scale[k] = (float)value;
	web_scale_apply(v, w);
	w->scale_gen = ++web_scale_gens;
	return 0;
}

int
web_scale_write(struct view *v, FILE *f)
{
	if (v->m == NULL)
		return -1;
	web_scale_json(v->m, f);
	return ferror(f) ? -1 : 0;
}

/* Does the selection still belong to the model the view holds? */
static int
web_pert_valid(const struct view *v, const struct web_pert *p)
{
	return p->gen == v->gen && p->pert.select > 0 &&
	    p->pert.select < v->m->nbody;
}

/*
 * Put the browser's camera into the scene's two OpenGL cameras, which
 * mjv_initPerturb() and mjv_movePerturb() read as simulate's window: a
 * monoscopic camera (both eyes at the browser's viewpoint), its frustum
 * made as mjv_updateCamera() makes it, in the same float arithmetic
 * (the model's znear and zfar, tanf of the field of view), so that the
 * perturbation's scale, mjv_frustumHeight() times the depth, is the one
 * simulate gets for the same camera bit for bit.
 */
static void
web_camera_set(struct view *v, const struct web_camera *cam)
{
	const mjModel *m = v->m;
	mjtNum znear = m->vis.map.znear * m->stat.extent;
	mjtNum zfar = m->vis.map.zfar * m->stat.extent;
	mjtNum fovy = cam->fovy;
	mjvGLCamera *c;
	int i, j;

	/* MuJoCo refuses a frustum without depth (simulate would stop). */
	if (!((float)znear >= 1e-6f))
		znear = 0.01;
	v->scn.enabletransform = 0;
	v->scn.scale = 1;
	for (i = 0; i < 2; i++) {
		c = &v->scn.camera[i];
		for (j = 0; j < 3; j++) {
			c->pos[j] = (float)cam->pos[j];
			c->forward[j] = (float)cam->forward[j];
			c->up[j] = (float)cam->up[j];
		}
		c->frustum_center = 0;
		c->frustum_top = (float)znear *
		    tanf(fovy * (float)(mjPI / 360.0));
		c->frustum_bottom = -c->frustum_top;
		c->frustum_near = (float)znear;
		c->frustum_far = (float)zfar;
	}
}

int
web_pert_select(struct view *v, struct web_pert *p, int body,
    const double point[3], char *err, size_t len)
{
	const mjModel *m = v->m;
	const mjData *d = v->d;
	mjtNum dif[3];

	view_apply(v);
	mjv_defaultPerturb(&p->pert);
	p->gen = v->gen;
	p->mocap = -1;
	if (body <= 0) /* nothing, or the world: no selection */
		return 0;
	if (body >= m->nbody) {
		snprintf(
		    err, len, "no body %d: the model has %d", body, m->nbody);
		return -1;
	}
	p->pert.select = body;
	mju_sub3(dif, point, d->xpos + 3 * body);
	mju_mulMatTVec(p->pert.localpos, d->xmat + 9 * body, dif, 3, 3);
	p->mocap = m->body_mocapid[body];
	return 0;
}

int
web_pert_start(struct view *v, struct web_pert *p, int rotate,
    const struct web_camera *cam, char *err, size_t len)
{
	if (!web_pert_valid(v, p)) {
		snprintf(err, len, "select a body first (double-click it)");
		return -1;
	}
	view_apply(v);
	web_camera_set(v, cam);
	mjv_initPerturb(v->m, v->d, &v->scn, &p->pert);
	p->pert.active = rotate ? mjPERT_ROTATE : mjPERT_TRANSLATE;
	return 0;
}

int
web_pert_move(struct view *v, struct web_pert *p, int action, double dx,
    double dy, const struct web_camera *cam, char *err, size_t len)
{
	if (!web_pert_valid(v, p) || p->pert.active == 0) {
		snprintf(err, len, "no perturbation under way");
		return -1;
	}
	if (action != mjMOUSE_ROTATE_V && action != mjMOUSE_ROTATE_H &&
	    action != mjMOUSE_MOVE_V && action != mjMOUSE_MOVE_H) {
		snprintf(err, len, "unknown action %d", action);
		return -1;
	}
	view_apply(v);
	web_camera_set(v, cam);
	mjv_movePerturb(v->m, v->d, action, dx, dy, &v->scn, &p->pert);
	return 0;
}

int
web_pert_active(const struct view *v, const struct web_pert *p)
{
	return web_pert_valid(v, p) && p->pert.active != 0;
}

int
web_pert_drive(struct view *v, struct web_pert *p, hxd_conn *c)
{
	const mjModel *m = v->m;
	mjData *d = v->d;
	int sel = p->pert.select, rc;
	mjtNum keep[7], *x;

	if (!web_pert_active(v, p))
		return HXD_OK;
	view_apply(v);
	if (p->mocap >= 0) {
		/* simulate moves a mocap body to where the mouse puts it. */
		mju_copy3(keep, d->mocap_pos + 3 * p->mocap);
		mju_copy4(keep + 3, d->mocap_quat + 4 * p->mocap);
		mjv_applyPerturbPose(m, d, &p->pert, 0);
		rc = hxd_mocap_move(c, p->mocap, NULL,
		    d->mocap_pos + 3 * p->mocap, d->mocap_quat + 4 * p->mocap,
		    0);
		mju_copy3(d->mocap_pos + 3 * p->mocap, keep);
		mju_copy4(d->mocap_quat + 4 * p->mocap, keep + 3);
		return rc;
	}
	/* The force alone, not the others' already in the state. */
	x = d->xfrc_applied + 6 * sel;
	mju_copy(keep, x, 6);
	mju_zero(x, 6);
	mjv_applyPerturbForce(m, d, &p->pert);
	rc = hxd_perturb(c, sel, NULL, x, x + 3, NULL);
	mju_copy(x, keep, 6);
	if (rc == HXD_OK)
		p->driving = 1;
	return rc;
}

int
web_pert_stop(struct view *v, struct web_pert *p, hxd_conn *c)
{
	static const double zero[3] = { 0, 0, 0 };
	int rc = HXD_OK;

	p->pert.active = 0;
	if (p->driving && web_pert_valid(v, p))
		rc = hxd_perturb(c, p->pert.select, NULL, zero, zero, NULL);
	p->driving = 0;
	return rc;
}

/*
 * The browser's selection and perturbation, drawn as its flags say (the
 * selection point, the perturbation's object), with the labels of the
 * selection it asks for into labels (*nlabels of them); the number of
 * decorations put in w->mine.
 */
static int
web_pert_mine(struct view *v, struct web_pert *p, struct web_state *w,
    struct web_label *labels, int *nlabels)
{
	const mjvGeom *g;
	mjvOption opt;
	int i, n = 0, catmask = mjCAT_DECOR;

	web_options(&opt, p->flags & WEB_MINE_FLAGS);
	if (p->label == mjLABEL_SELECTION || p->label == mjLABEL_SELPNT)
		opt.label = p->label;
	/* MuJoCo labels the selected body when its category is asked. */
	if (p->label == mjLABEL_SELECTION)
		catmask = mjCAT_ALL;
	v->scn.ngeom = 0;
	mjv_addGeoms(v->m, v->d, &opt, &p->pert, catmask, &v->scn);
	for (i = 0; i < v->scn.ngeom; i++) {
		g = &v->scn.geoms[i];
		if (g->category != mjCAT_DECOR)
			continue;
		if (g->label[0] != '\0' && *nlabels < WEB_MINE_LABELS) {
			memcpy(labels[*nlabels].pos, g->pos, sizeof(g->pos));
			memcpy(labels[*nlabels].text, g->label,
			    sizeof(labels[*nlabels].text));
			labels[(*nlabels)++].text[sizeof(g->label) - 1] = '\0';
		}
		if (web_drawn(g))
			web_decor_add(
			    w->mine, WEB_MINE_MAX, &n, WEB_KIND_MINE, g);
	}
	return n;
}

/* One label as JSON: [x, y, z, "text"], after a comma unless first. */
static void
web_label_json(FILE *f, const struct web_label *l, int *first)
{
	fprintf(f, "%s[%.5g,%.5g,%.5g,", *first ? "" : ",", l->pos[0],
	    l->pos[1], l->pos[2]);
	json_string(f, l->text);
	fputc(']', f);
	*first = 0;
}

/*
 * A kind's decorations of the frame that the browser's groups show, as
 * base64 into f: in one piece when it shows them all.
 */
static void
web_decor_put(FILE *f, struct web_b64 *b, const struct web_state *w,
    const struct web_pert *p, int k)
{
	int i, from = w->first[k], to = w->first[k] + w->count[k];

	for (i = from; i <= to; i++) {
		if (i < to && web_group_shown(p, w->decor_group[i]))
			continue;
		if (i > from)
			web_b64_put(f, b,
			    w->decor + (size_t)from * WEB_DECOR_FLOATS,
			    sizeof(float) * WEB_DECOR_FLOATS *
				(size_t)(i - from));
		from = i + 1;
	}
}

int
web_pert_decor(struct view *v, struct web_pert *p, FILE *f)
{
	struct web_label mine[WEB_MINE_LABELS];
	struct web_b64 b = { { 0, 0, 0 }, 0 };
	struct web_state *w;
	int i, k, n, nmine = 0, first = 1;

	if ((w = web_state(v)) == NULL)
		return 0;
	/*
	 * Its kinds' decorations of the frame, made for all in web_frame,
	 * of the groups it shows.
	 */
	fputs(",\"decor\":\"", f);
	for (k = 0; k < WEB_NKINDS; k++)
		if ((p->kinds & WEB_FLAG(k)) && w->count[k] > 0)
			web_decor_put(f, &b, w, p, k);
	web_b64_end(f, &b);
	fputc('"', f);
	if (web_pert_valid(v, p)) {
		view_apply(v);
		n = web_pert_mine(v, p, w, mine, &nmine);
		fprintf(f, ",\"selected\":%d,\"mine\":\"", p->pert.select);
		web_base64(
		    f, w->mine, sizeof(float) * WEB_DECOR_FLOATS * (size_t)n);
		fputc('"', f);
	}
	/* Its labels: the page writes those of geoms and sites itself. */
	if (p->label != mjLABEL_NONE) {
		fputs(",\"labels\":[", f);
		for (k = 0; k < WEB_NKINDS; k++)
			if (p->labelled & WEB_FLAG(k))
				for (i = 0; i < w->lcount[k]; i++)
					if (web_group_shown(p,
						w->labels[w->lfirst[k] + i]
						    .group))
						web_label_json(f,
						    &w->labels[w->lfirst[k] + i],
						    &first);
		for (i = 0; i < nmine; i++)
			web_label_json(f, &mine[i], &first);
		fputc(']', f);
	}
	/* The scales a browser set, when this one has not seen them. */
	if (p->scale_gen != w->scale_gen) {
		fputs(",\"scale\":", f);
		web_scale_json(v->m, f);
		p->scale_gen = w->scale_gen;
	}
	return ferror(f) ? -1 : 0;
}

void
web_pert_forget(struct web_pert *p)
{
	p->pert.active = 0;
	p->driving = 0;
}
