/*
 * The workbench's scene: what MuJoCo's abstract scene holds, for a
 * browser to draw with three.js.  The model is described once (its
 * geoms and sites as mjv_addGeoms() makes them, with types, sizes,
 * colours and materials; meshes, textures and lights; the names of
 * bodies, joints, actuators, sensors, cameras and keyframes); then each
 * frame carries only what moves: the poses of the items of bodies that
 * are not the world's, the decorations of the moment (contact points and
 * forces, joints, tendons, actuators, centres of mass), the values the
 * panels show and the status.  This is meshcat's pattern: the scene
 * described once, then transforms.
 *
 * Each browser has its own selection and perturbation (struct web_pert),
 * made with MuJoCo's own mjv_initPerturb(), mjv_movePerturb() and
 * mjv_applyPerturbForce() against the browser's camera, as simulate
 * does; the force goes to the server through the drivers' perturbation
 * call, a mocap body's pose through the mocap move.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hxview_mujoco.h"

/* Floats per dynamic item in a frame: position and quaternion. */
#define WEB_POSE_FLOATS 7

/* Floats per decoration: kind, type, size, position, quaternion, rgba. */
#define WEB_DECOR_FLOATS 16

/* The decorations a browser may show, each from one mjtVisFlag. */
static const struct web_decor_kind {
	const char *name;
	int flag;
} web_decor_kinds[] = {
	{ "contact", mjVIS_CONTACTPOINT },
	{ "force", mjVIS_CONTACTFORCE },
	{ "joint", mjVIS_JOINT },
	{ "tendon", mjVIS_TENDON },
	{ "actuator", mjVIS_ACTUATOR },
	{ "com", mjVIS_COM },
};
#define WEB_NKINDS (sizeof(web_decor_kinds) / sizeof(web_decor_kinds[0]))

/* The kind number of the browser's own selection and perturbation. */
#define WEB_KIND_MINE ((int)WEB_NKINDS)

/*
 * The items of one model: the scene's geoms and sites in the order of
 * mjv_addGeoms(), and which of them move.
 */
struct web_state {
	unsigned gen;      /* the model's */
	unsigned looks;    /* the model's look (struct view's looks) */
	int nitems;        /* geoms and sites in the scene */
	int *ident;        /* nitems x 3: objtype, objid, category */
	int moving_lights; /* a light is on a moving body or follows one */
	int *geom_item;    /* ngeom: its item, or -1 */
	int *site_item;    /* nsite: its item, or -1 */
	int *dynamic;      /* the items that move, in frame order */
	int ndynamic;      /* how many */
	int *dyn_slot;     /* nitems: its place in a frame, or -1 */
	float *poses;      /* ndynamic x WEB_POSE_FLOATS */
	float *decor;      /* up to the scene's maxgeom decorations */
	int decor_cap;     /* floats in decor */
};

/* One browser's selection and perturbation. */
struct web_pert {
	unsigned gen; /* the model the selection belongs to */
	mjvPerturb pert;
	int mocap;   /* the selected body's mocap index, or -1 */
	int driving; /* a force went to the server: release it at the end */
};

static const char web_b64
    [] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* Write n bytes as base64: the page makes Float32Arrays of them. */
static void
web_base64(FILE *f, const void *data, size_t n)
{
	const unsigned char *p = data;
	unsigned long x;
	size_t i;

	for (i = 0; i + 2 < n; i += 3) {
		x = (unsigned long)p[i] << 16 | (unsigned long)p[i + 1] << 8 |
		    p[i + 2];
		fputc(web_b64[x >> 18 & 63], f);
		fputc(web_b64[x >> 12 & 63], f);
		fputc(web_b64[x >> 6 & 63], f);
		fputc(web_b64[x & 63], f);
	}
	if (i < n) {
		x = (unsigned long)p[i] << 16;
		if (i + 1 < n)
			x |= (unsigned long)p[i + 1] << 8;
		fputc(web_b64[x >> 18 & 63], f);
		fputc(web_b64[x >> 12 & 63], f);
		fputc(i + 1 < n ? web_b64[x >> 6 & 63] : '=', f);
		fputc('=', f);
	}
}

/* Write text as a JSON string, quoted. */
void
web_json_string(FILE *f, const char *text)
{
	const unsigned char *p;

	fputc('"', f);
	for (p = (const unsigned char *)text; *p != '\0'; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

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
 * The options of the scene's passes: every geom and site group, and of
 * the decorations only flag (or none when flag < 0).
 */
static void
web_options(mjvOption *opt, int flag)
{
	int i;

	mjv_defaultOption(opt);
	for (i = 0; i < mjNVISFLAG; i++)
		opt->flags[i] = 0;
	opt->flags[mjVIS_STATIC] = 1;
	opt->flags[mjVIS_TEXTURE] = 1;
	opt->flags[mjVIS_SKIN] = 1;
	for (i = 0; i < mjNGROUP; i++) {
		opt->geomgroup[i] = 1;
		opt->sitegroup[i] = 1;
		opt->jointgroup[i] = 1;
		opt->tendongroup[i] = 1;
		opt->actuatorgroup[i] = 1;
	}
	if (flag >= 0)
		opt->flags[flag] = 1;
}

/* Fill the scene with one pass of mjv_addGeoms(). */
static void
web_pass(struct view *v, int flag, const mjvPerturb *pert, int catmask)
{
	mjvOption opt;

	web_options(&opt, flag);
	v->scn.ngeom = 0;
	mjv_addGeoms(
	    v->m, v->d, &opt, pert != NULL ? pert : &v->pert, catmask, &v->scn);
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
	web_pass(v, -1, NULL, mjCAT_ALL);
	w->geom_item = malloc(sizeof(int) * (size_t)(m->ngeom + 1));
	w->site_item = malloc(sizeof(int) * (size_t)(m->nsite + 1));
	w->ident = malloc(sizeof(int) * 3 * (size_t)(v->scn.ngeom + 1));
	w->dynamic = malloc(sizeof(int) * (size_t)(v->scn.ngeom + 1));
	w->dyn_slot = malloc(sizeof(int) * (size_t)(v->scn.ngeom + 1));
	w->poses = malloc(
	    sizeof(float) * WEB_POSE_FLOATS * (size_t)(v->scn.ngeom + 1));
	w->decor_cap = WEB_DECOR_FLOATS * v->scn.maxgeom;
	w->decor = malloc(sizeof(float) * (size_t)w->decor_cap);
	if (w->geom_item == NULL || w->site_item == NULL || w->ident == NULL ||
	    w->dynamic == NULL || w->dyn_slot == NULL || w->poses == NULL ||
	    w->decor == NULL) {
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
		web_json_string(f, web_name(m, m->name_bodyadr, i));
		fprintf(f, ",\"parent\":%d,\"mocap\":%d,\"weld\":%d}",
		    m->body_parentid[i], m->body_mocapid[i], m->body_weldid[i]);
	}
	fputs("],\"joints\":[", f);
	for (i = 0; i < m->njnt; i++) {
		fprintf(f, "%s{\"name\":", i > 0 ? "," : "");
		web_json_string(f, web_name(m, m->name_jntadr, i));
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
		web_json_string(f, web_name(m, m->name_actuatoradr, i));
		fprintf(f,
		    ",\"limited\":%d,\"range\":", m->actuator_ctrllimited[i]);
		web_numbers(f, m->actuator_ctrlrange + 2 * i, 2);
		fputc('}', f);
	}
	fputs("],\"sensors\":[", f);
	for (i = 0; i < m->nsensor; i++) {
		fprintf(f, "%s{\"name\":", i > 0 ? "," : "");
		web_json_string(f, web_name(m, m->name_sensoradr, i));
		fprintf(f, ",\"type\":%d,\"dim\":%d,\"adr\":%d}",
		    m->sensor_type[i], m->sensor_dim[i], m->sensor_adr[i]);
	}
	fputs("],\"cameras\":[", f);
	for (i = 0; i < m->ncam; i++) {
		fprintf(f, "%s{\"name\":", i > 0 ? "," : "");
		web_json_string(f, web_name(m, m->name_camadr, i));
		fprintf(f, ",\"fovy\":");
		web_number(f, m->cam_fovy[i]);
		fputc('}', f);
	}
	fputs("],\"keys\":[", f);
	for (i = 0; i < m->nkey; i++) {
		if (i > 0)
			fputc(',', f);
		web_json_string(f, web_name(m, m->name_keyadr, i));
	}
	fputs("]", f);
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

	web_pass(v, -1, NULL, mjCAT_ALL);
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

int
web_describe(struct view *v, FILE *f)
{
	const mjModel *m = v->m;
	struct web_state *w;
	int i;

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
	for (i = 0; i < (int)WEB_NKINDS; i++)
		fprintf(
		    f, "%s\"%s\"", i > 0 ? "," : "", web_decor_kinds[i].name);
	fputs(",\"mine\"]", f);
	web_describe_names(m, f);
	web_describe_lights(v, f);
	fprintf(f, ",\"moving_lights\":%d", w->moving_lights);
	fputs(",\"meshes\":[", f);
	for (i = 0; i < m->nmesh; i++)
		fprintf(f, "%s[%d,%d,%d,%d]", i > 0 ? "," : "",
		    m->mesh_vertadr[i], m->mesh_vertnum[i], m->mesh_faceadr[i],
		    m->mesh_facenum[i]);
	fprintf(f, "],\"nmeshvert\":%d,\"nmeshface\":%d,\"hfields\":[",
	    m->nmeshvert, m->nmeshface);
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
	fputs("],\"items\":", f);
	web_describe_items(v, w, f);
	fputs(",\"dynamic\":[", f);
	for (i = 0; i < w->ndynamic; i++)
		fprintf(f, "%s%d", i > 0 ? "," : "", w->dynamic[i]);
	fputs("]", f);
	fputs(",\"name\":", f);
	web_json_string(f, v->model_name);
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

	/*
	 * Vertices, normals (float32), faces (int32), then the height
	 * fields' elevations (float32, 0 to 1), as the page reads them.
	 */
	fwrite(m->mesh_vert, sizeof(float), 3 * (size_t)m->nmeshvert, f);
	fwrite(m->mesh_normal, sizeof(float), 3 * (size_t)m->nmeshvert, f);
	fwrite(m->mesh_face, sizeof(int), 3 * (size_t)m->nmeshface, f);
	fwrite(m->hfield_data, sizeof(float), (size_t)m->nhfielddata, f);
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

/* Append one decoration to the frame's list; 0, or -1 when full. */
static int
web_decor_add(struct web_state *w, int *n, int kind, const mjvGeom *g)
{
	float *d;
	mjtNum q[4];
	int i;

	if ((*n + 1) * WEB_DECOR_FLOATS > w->decor_cap)
		return -1;
	d = w->decor + (size_t)*n * WEB_DECOR_FLOATS;
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
	float *p = w->decor;
	int i, n;

	mjv_makeLights(v->m, v->d, &v->scn);
	n = v->scn.nlight;
	if (6 * n > w->decor_cap)
		n = w->decor_cap / 6;
	for (i = 0; i < n; i++) {
		l = &v->scn.lights[i];
		memcpy(p + 6 * i, l->pos, 3 * sizeof(float));
		memcpy(p + 6 * i + 3, l->dir, 3 * sizeof(float));
	}
	fputs(",\"lights\":\"", f);
	web_base64(f, p, sizeof(float) * 6 * (size_t)n);
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
	web_json_string(f, s->lease_holder_name);
	fputs(",\"message\":", f);
	web_json_string(f, s->message);
	fprintf(f, ",\"recording\":%d,\"record_path\":", s->recording.active);
	web_json_string(f, s->recording.path);
	fprintf(f, ",\"records\":%llu,\"record_ended\":", s->recording.records);
	web_json_string(f, s->recording.ended);
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
	web_pass(v, -1, NULL, mjCAT_ALL);
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

/*
 * The decorations, each kind apart, so that each browser picks; the
 * number written to w->decor.
 */
static int
web_frame_decor(struct view *v, struct web_state *w)
{
	const mjvGeom *g;
	int i, ndecor = 0;
	unsigned k;

	for (k = 0; k < WEB_NKINDS; k++) {
		web_pass(v, web_decor_kinds[k].flag, NULL, mjCAT_ALL);
		for (i = 0; i < v->scn.ngeom; i++) {
			g = &v->scn.geoms[i];
			if (web_is_item(g))
				continue;
			if (web_decor_add(w, &ndecor, (int)k, g) != 0)
				break;
		}
	}
	return ndecor;
}

int
web_frame(struct view *v, FILE *f)
{
	const mjModel *m = v->m;
	const mjData *d;
	struct web_state *w;
	mjtNum q[4];
	int i, ndecor;

	if ((w = web_state(v)) == NULL)
		return -1;
	view_apply(v);
	d = v->d;
	web_frame_poses(v, w);
	ndecor = web_frame_decor(v, w);
	fprintf(f, "\"gen\":%u,\"step\":%llu,\"time\":%.9g,\"rx\":%.3f",
	    v->web_gen, v->step, d->time, v->rx);
	if (w->moving_lights)
		web_frame_lights(v, w, f);
	fputs(",\"poses\":\"", f);
	web_base64(
	    f, w->poses, sizeof(float) * WEB_POSE_FLOATS * (size_t)w->ndynamic);
	fputs("\",\"decor\":\"", f);
	web_base64(
	    f, w->decor, sizeof(float) * WEB_DECOR_FLOATS * (size_t)ndecor);
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
	if (v->have_status)
		web_frame_status(&v->status, f);
	return ferror(f) ? -1 : 0;
}

struct web_pert *
web_pert_new(void)
{
	struct web_pert *p = calloc(1, sizeof(*p));

	if (p == NULL)
		return NULL;
	mjv_defaultPerturb(&p->pert);
	p->mocap = -1;
	return p;
}

void
web_pert_free(struct web_pert *p)
{
	free(p);
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

int
web_pert_decor(struct view *v, struct web_pert *p, FILE *f)
{
	struct web_state *w;
	mjvOption opt;
	int i, n = 0;

	if (!web_pert_valid(v, p) || (w = web_state(v)) == NULL)
		return 0;
	view_apply(v);
	web_options(&opt, mjVIS_SELECT);
	opt.flags[mjVIS_PERTFORCE] = 1;
	opt.flags[mjVIS_PERTOBJ] = 1;
	v->scn.ngeom = 0;
	mjv_addGeoms(v->m, v->d, &opt, &p->pert, mjCAT_DECOR, &v->scn);
	for (i = 0; i < v->scn.ngeom; i++)
		if (web_decor_add(w, &n, WEB_KIND_MINE, &v->scn.geoms[i]) != 0)
			break;
	fprintf(f, ",\"selected\":%d,\"mine\":\"", p->pert.select);
	web_base64(f, w->decor, sizeof(float) * WEB_DECOR_FLOATS * (size_t)n);
	fputc('"', f);
	return ferror(f) ? -1 : 0;
}

void
web_pert_forget(struct web_pert *p)
{
	p->pert.active = 0;
	p->driving = 0;
}
