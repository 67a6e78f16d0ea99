/*
 * The viewer's copy of the simulation.  The model comes from the server
 * as MJB (hxd_get_model) and is loaded through a MuJoCo VFS
 * (mjb_memory.c); the state
 * comes as stream frames (qpos, qvel, act, ctrl, mocap, applied forces,
 * sensordata and status) of which the newest wins.  Before rendering,
 * mj_forward() computes from that state what the scene draws (poses, contacts,
 * forces); the sensor values shown are the server's own.
 */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mujoco/mjxmacro.h>

#include "hxview_mujoco.h"
#include "mjb_memory.h"
#include "program.h"

static void
view_mujoco_warning(const char *msg)
{
	static int told;

	/* The server's simulation says what matters; say ours once. */
	if (!told++)
		program_warn("MuJoCo: %s", msg);
}

static void
view_mujoco_error(const char *msg)
{
	program_warn("MuJoCo error: %s", msg);
	exit(VIEW_FAIL);
}

static int
view_fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

/* Drop the model and everything made for it. */
static void
view_unload(struct view *v)
{
	if (v->gl_ready) {
		mjr_freeContext(&v->con);
		mjv_freeScene(&v->scn);
		v->gl_ready = 0;
	}
	mj_deleteData(v->d);
	mj_deleteModel(v->m);
	v->d = NULL;
	v->m = NULL;
	free(v->scale);
	v->scale = NULL;
}

/*
 * MuJoCo's mj_name2id() for cameras and bodies.  hxview cannot call it by
 * name: libhaptix exports HAPTIX's mj_name2id(type, name), which asks the
 * server over the compatibility connection, and being linked first it is
 * the one the call would reach.
 */
static int
view_name2id(const mjModel *m, int type, const char *name)
{
	const int *adr = type == mjOBJ_CAMERA ? m->name_camadr :
						m->name_bodyadr;
	int n = type == mjOBJ_CAMERA ? m->ncam : m->nbody, i;

	for (i = 0; i < n; i++)
		if (strcmp(m->names + adr[i], name) == 0)
			return i;
	return -1;
}

void
view_camera_pose(
    const mjModel *m, const double pos[3], const double quat[4], mjvCamera *cam)
{
	const double x[3] = { 1, 0, 0 };
	double fwd[3];

	mju_rotVecQuat(fwd, x, quat);
	mjv_defaultFreeCamera(m, cam);
	cam->azimuth = atan2(fwd[1], fwd[0]) * 180 / M_PI;
	cam->elevation = asin(fwd[2] > 1     ? 1 :
				 fwd[2] < -1 ? -1 :
					       fwd[2]) *
	    180 / M_PI;
	/* Looking at a point ahead keeps the picture; orbits go round it. */
	mju_addScl3(cam->lookat, pos, fwd, cam->distance);
}

/*
 * Aim the camera as the options say, or as the daemon's shared camera
 * when one is set and no model camera is named; -1 with the reason if
 * it cannot.
 */
static int
view_camera(struct view *v, char *err, size_t len)
{
	const struct view_options *o = &v->o;
	int id, i;

	mjv_defaultFreeCamera(v->m, &v->cam);
	if (!isnan(o->azimuth))
		v->cam.azimuth = o->azimuth;
	if (!isnan(o->elevation))
		v->cam.elevation = o->elevation;
	if (!isnan(o->distance))
		v->cam.distance = o->distance;
	for (i = 0; i < 3; i++)
		if (!isnan(o->lookat[i]))
			v->cam.lookat[i] = o->lookat[i];
	switch (o->camera) {
	case VIEW_CAMERA_FREE:
		break;
	case VIEW_CAMERA_FIXED:
		id = view_name2id(v->m, mjOBJ_CAMERA, o->camera_name);
		if (id < 0)
			return view_fail(err, len,
			    "the model has no camera named \"%s\" (it has "
			    "%d; hxctl info lists them)",
			    o->camera_name, v->m->ncam);
		v->cam.type = mjCAMERA_FIXED;
		v->cam.fixedcamid = id;
		break;
	case VIEW_CAMERA_TRACK:
		id = view_name2id(v->m, mjOBJ_BODY, o->camera_name);
		if (id < 0)
			return view_fail(err, len,
			    "the model has no body named \"%s\" to track",
			    o->camera_name);
		v->cam.type = mjCAMERA_TRACKING;
		v->cam.trackbodyid = id;
		break;
	}
	if (v->shared && o->camera != VIEW_CAMERA_FIXED)
		view_camera_pose(v->m, v->shared_pos, v->shared_quat, &v->cam);
	return 0;
}

/*
 * The daemon's view camera was set (or went back to the model's own,
 * is_default): aim ours there, unless we look through a model camera.
 */
static void
view_shared_camera(
    struct view *v, const double pos[3], const double quat[4], int is_default)
{
	char err[256];

	v->shared = !is_default;
	memcpy(v->shared_pos, pos, sizeof(v->shared_pos));
	memcpy(v->shared_quat, quat, sizeof(v->shared_quat));
	v->cameras++;
	/* The options' camera was found when the model came: it still is. */
	if (v->m != NULL)
		(void)view_camera(v, err, sizeof(err));
}

/* Apply the flags and groups of the options to opt and the scene. */
static void
view_flags(struct view *v)
{
	const struct view_options *o = &v->o;
	int i;

	mjv_defaultOption(&v->opt);
	for (i = 0; i < mjNVISFLAG; i++)
		if (o->vis[i] != 0)
			v->opt.flags[i] = o->vis[i] > 0;
	for (i = 0; i < mjNRNDFLAG; i++)
		if (o->rnd[i] != 0)
			v->scn.flags[i] = o->rnd[i] > 0;
	for (i = 0; i < mjNGROUP && i < 6; i++) {
		if (o->geom_groups_given)
			v->opt.geomgroup[i] = (mjtByte)o->geomgroup[i];
		if (o->site_groups_given)
			v->opt.sitegroup[i] = (mjtByte)o->sitegroup[i];
	}
}

/*
 * Fetch the server's model into *out, with the count of its writes
 * through the API asked first: a write between the two is then in the
 * model and only makes one fetch more.
 */
static int
view_fetch(struct view *v, mjModel **out, char *err, size_t len)
{
	hxd_model_blob blob;
	hxd_status st;
	mjModel *m;

	if (hxd_status_get(v->c, &st) != HXD_OK)
		return view_fail(
		    err, len, "cannot fetch the status: %s", hxd_error(v->c));
	v->edits = st.model_edits;
	v->refetched = program_now();
	if (hxd_get_model(v->c, &blob) != HXD_OK)
		return view_fail(
		    err, len, "cannot fetch the model: %s", hxd_error(v->c));
	if (blob.mujoco_version != mj_version()) {
		hxd_model_blob_free(&blob);
		return view_fail(err, len,
		    "the server runs MuJoCo %d and hxview %d: MJB models "
		    "only load in the version that wrote them",
		    blob.mujoco_version, mj_version());
	}
	m = mjb_memory_load(blob.mjb, blob.size);
	if (m == NULL) {
		view_fail(err, len,
		    "MuJoCo cannot load the server's model \"%s\" "
		    "(%zu bytes of MJB)",
		    blob.name, blob.size);
		hxd_model_blob_free(&blob);
		return -1;
	}
	snprintf(v->model_name, sizeof(v->model_name), "%s", blob.name);
	hxd_model_blob_free(&blob);
	m->vis.global.offwidth = v->o.width;
	m->vis.global.offheight = v->o.height;
	*out = m;
	return 0;
}

/* Make the data, the scene and the context for a new model m. */
static int
view_install(struct view *v, mjModel *m, char *err, size_t len)
{
	view_unload(v);
	v->m = m;
	v->gen++;
	if ((v->d = mj_makeData(m)) == NULL ||
	    (v->scale = calloc((size_t)m->nsensor + 1, sizeof(double))) == NULL)
		return view_fail(err, len, "out of memory for the model");
	mjv_defaultScene(&v->scn);
	mjr_defaultContext(&v->con);
	mjv_defaultPerturb(&v->pert);
	mjv_makeScene(m, &v->scn, VIEW_MAXGEOM);
	mjr_makeContext(
	    m, &v->con, v->o.width >= 1200 ? mjFONTSCALE_150 : mjFONTSCALE_100);
	v->gl_ready = 1;
	mjr_setBuffer(mjFB_OFFSCREEN, &v->con);
	if (v->con.offWidth != v->o.width || v->con.offHeight != v->o.height)
		return view_fail(err, len,
		    "the renderer made a %dx%d framebuffer, not %dx%d: the "
		    "size is beyond what it supports",
		    v->con.offWidth, v->con.offHeight, v->o.width, v->o.height);
	view_flags(v);
	if (view_camera(v, err, len) != 0)
		return -1;
	mj_forward(m, v->d);
	v->dirty = v->frame != NULL;
	return 0;
}

/* Fetch the server's model and make the scene and context for it. */
static int
view_load(struct view *v, char *err, size_t len)
{
	mjModel *m;

	if (view_fetch(v, &m, err, len) != 0)
		return -1;
	/* Another model: the daemon's camera is the model's own again. */
	v->shared = 0;
	return view_install(v, m, err, len);
}

/*
 * Is an array of mjModel part of what the GL context and the
 * workbench's description were made from: an asset (meshes, skins but
 * their colour, height fields, textures) or a name?
 */
static int
view_structural(const char *name)
{
	return strncmp(name, "mesh_", 5) == 0 ||
	    (strncmp(name, "skin_", 5) == 0 &&
		strcmp(name, "skin_rgba") != 0) ||
	    strncmp(name, "hfield_", 7) == 0 || strncmp(name, "tex_", 4) == 0 ||
	    strncmp(name, "name", 4) == 0;
}

/*
 * Can b replace a where a is held, keeping the data, the scene and the
 * context: the same sizes, names and assets?  What else differs
 * (colours, sizes, positions, gains) every render reads from the model.
 */
static int
view_same_structure(const mjModel *a, const mjModel *b)
{
	MJMODEL_POINTERS_PREAMBLE(a)

	if (memcmp(&a->nq, &b->nq,
		offsetof(mjModel, opt) - offsetof(mjModel, nq)) != 0)
		return 0;
#define X(type, name, nr, nc) \
	if (view_structural(#name) && \
	    memcmp(a->name, b->name, sizeof(type) * (size_t)a->nr * (nc)) != \
		0) \
		return 0;
	MJMODEL_POINTERS
#undef X
	return 1;
}

/*
 * The model again, after writes through the API or an edit: one of the
 * same structure takes the place of the one held (a new look), any
 * other is a new model.
 */
static int
view_refetch(struct view *v, char *err, size_t len)
{
	mjModel *m;

	if (view_fetch(v, &m, err, len) != 0)
		return -1;
	if (!view_same_structure(v->m, m)) {
		/* The frames of the old model are of no use. */
		hxd_frame_free(v->frame);
		v->frame = NULL;
		return view_install(v, m, err, len);
	}
	mj_deleteModel(v->m);
	v->m = m;
	v->looks++;
	if (v->frame != NULL)
		v->dirty = 1;
	else
		mj_forward(m, v->d);
	return 0;
}

/* Does the frame fit the model we hold?  (Not across a model change.) */
static int
view_frame_fits(const struct view *v, const hxd_frame *f)
{
	const mjModel *m = v->m;

	return f->nq == m->nq && f->nv == m->nv && f->na == m->na &&
	    f->nu == m->nu && f->nmocap == m->nmocap &&
	    f->nsensordata == m->nsensordata &&
	    (f->xfrc_applied == NULL || f->nbody == m->nbody);
}

/* Are n doubles at a and b the same (both absent counts)? */
static int
same_values(const double *a, const double *b, size_t n)
{
	if (a == NULL || b == NULL)
		return a == b;
	return memcmp(a, b, n * sizeof(double)) == 0;
}

/* Would f draw what the frame held draws?  (A paused server repeats.) */
static int
view_frame_same(const struct view *v, const hxd_frame *f)
{
	const hxd_frame *h = v->frame;
	const mjModel *m = v->m;

	return h != NULL && h->step == f->step && h->time == f->time &&
	    same_values(h->qpos, f->qpos, (size_t)m->nq) &&
	    same_values(h->qvel, f->qvel, (size_t)m->nv) &&
	    same_values(h->act, f->act, (size_t)m->na) &&
	    same_values(h->ctrl, f->ctrl, (size_t)m->nu) &&
	    same_values(h->mocap_pos, f->mocap_pos, 3 * (size_t)m->nmocap) &&
	    same_values(h->mocap_quat, f->mocap_quat, 4 * (size_t)m->nmocap) &&
	    same_values(h->qfrc_applied, f->qfrc_applied, (size_t)m->nv) &&
	    same_values(
		h->xfrc_applied, f->xfrc_applied, 6 * (size_t)m->nbody) &&
	    same_values(h->sensordata, f->sensordata, (size_t)m->nsensordata);
}

/* Does the status show differently in the overlays or the workbench? */
static int
view_status_same(const hxd_status *a, const hxd_status *b)
{
	return a->time == b->time && a->paused == b->paused &&
	    a->speed == b->speed && a->speed_max == b->speed_max &&
	    a->realtime_factor == b->realtime_factor &&
	    a->lagging == b->lagging && a->cpu_per_step == b->cpu_per_step &&
	    a->nefc == b->nefc && a->ncon == b->ncon &&
	    a->energy_potential == b->energy_potential &&
	    a->energy_kinetic == b->energy_kinetic &&
	    a->clients == b->clients && strcmp(a->message, b->message) == 0 &&
	    /* The workbench shows these too. */
	    a->lease_holder == b->lease_holder &&
	    a->recording.active == b->recording.active &&
	    a->recording.records == b->recording.records &&
	    a->ntracking == b->ntracking &&
	    a->nperturbations == b->nperturbations &&
	    a->model_edits == b->model_edits;
}

/* Keep the frame of ev as the newest state; 1 if it shows a change. */
static int
view_take_frame(struct view *v, hxd_event *ev)
{
	hxd_frame *f = ev->frame;
	int status_changed = 0;

	if (f == NULL)
		return 0;
	if (f->status != NULL) {
		status_changed = !v->have_status ||
		    !view_status_same(&v->status, f->status);
		v->status = *f->status;
		v->have_status = 1;
	}
	if (v->m == NULL || !view_frame_fits(v, f))
		return status_changed;
	if (view_frame_same(v, f))
		return status_changed;
	hxd_frame_free(v->frame);
	v->frame = f;
	ev->frame = NULL;
	v->step = f->step;
	v->dirty = 1;
	v->rx = view_epoch_ms();
	return 1;
}

/*
 * After the events: fetch the model again when the status counts writes
 * into it that the copy lacks, at most every VIEW_REFETCH_S (a client
 * that sets gains at every step must not make us fetch at every step).
 * Returns changed, 1 after a fetch, or -1.
 */
static int
view_pump_edits(struct view *v, int changed, char *err, size_t len)
{
	if (!v->have_status || v->status.model_edits == v->edits ||
	    program_now() - v->refetched < VIEW_REFETCH_S)
		return changed;
	if (view_refetch(v, err, len) != 0)
		return -1;
	return 1;
}

int
view_edits(struct view *v, unsigned long long edits, char *err, size_t len)
{
	if (edits == v->edits)
		return 0;
	return view_refetch(v, err, len);
}

int
view_pump(struct view *v, int timeout_ms, char *err, size_t len)
{
	hxd_event *ev;
	int rc, changed = 0, wait = timeout_ms;

	for (;;) {
		rc = hxd_next_event(v->c, wait, &ev);
		if (rc == HXD_TIMEOUT)
			return view_pump_edits(v, changed, err, len);
		if (rc != HXD_OK)
			return view_fail(err, len, "%s", hxd_error(v->c));
		wait = 0;
		switch (ev->kind) {
		case HXD_EVENT_FRAME:
			changed |= view_take_frame(v, ev);
			break;
		case HXD_EVENT_MODEL:
			/* An edit may keep the structure: then a new look. */
			if (ev->edited)
				rc = view_refetch(v, err, len);
			else {
				/* The frames of the old model are of no use. */
				hxd_frame_free(v->frame);
				v->frame = NULL;
				rc = view_load(v, err, len);
			}
			if (rc != 0) {
				hxd_event_free(ev);
				return -1;
			}
			changed = 1;
			break;
		case HXD_EVENT_MESSAGE:
			if (v->have_status) {
				snprintf(v->status.message,
				    sizeof(v->status.message), "%s", ev->text);
				changed = 1;
			}
			break;
		case HXD_EVENT_RUN:
			if (v->have_status) {
				v->status.paused = ev->paused;
				changed = 1;
			}
			break;
		case HXD_EVENT_CAMERA:
			view_shared_camera(v, ev->camera_pos, ev->camera_quat,
			    ev->camera_default);
			changed = 1;
			break;
		default:
			break;
		}
		hxd_event_free(ev);
	}
}

/*
 * Connect, fetch the model and subscribe to the state and the events;
 * take the daemon's camera.  0, or -1 with the reason in err (v->c may
 * be left for the caller to close).
 */
static int
view_attach(struct view *v, char *err, size_t len)
{
	hxd_subscription sub = { 0 };
	double pos[3], quat[4];
	int is_default;

	v->c = hxd_connect(v->o.server, "hxview");
	if (v->c == NULL || hxd_result(v->c) != HXD_OK)
		return view_fail(err, len, "%s",
		    v->c != NULL ? hxd_error(v->c) : "out of memory");
	snprintf(v->server_addr, sizeof(v->server_addr), "%s",
	    hxd_server_address(v->c));
	if (view_load(v, err, len) != 0)
		return -1;
	if (v->o.by_calls) {
		/* frames fetches the state itself: only a new model or camera. */
		sub.events = HXD_EVENTS(HXD_EVENT_MODEL) |
		    HXD_EVENTS(HXD_EVENT_CAMERA);
	} else {
		sub.fields = VIEW_FIELDS;
		sub.events = 1;
		if (v->every_steps != 0)
			sub.every_steps = v->every_steps;
		else
			sub.wall_hz = v->o.stream_hz > 0 ? v->o.stream_hz :
							   v->o.fps;
	}
	if (hxd_subscribe(v->c, &sub, NULL) != HXD_OK)
		return view_fail(err, len, "cannot subscribe to the state: %s",
		    hxd_error(v->c));
	/*
	 * The camera set before we came (later ones are events).  A daemon
	 * without the call has none: its answer changes nothing.
	 */
	if (hxd_get_camera(v->c, pos, quat, &is_default) == HXD_OK &&
	    !is_default)
		view_shared_camera(v, pos, quat, 0);
	return 0;
}

void
view_lose(struct view *v)
{
	hxd_close(v->c);
	v->c = NULL;
	v->have_status = 0;
}

int
view_reconnect(struct view *v, char *err, size_t len)
{
	/* The state of the server that went is no state of this one. */
	hxd_frame_free(v->frame);
	v->frame = NULL;
	if (view_attach(v, err, len) == 0)
		return 0;
	view_lose(v);
	return -1;
}

const char *
view_server(const struct view *v)
{
	return v->server_addr;
}

struct view *
view_open(
    const struct view_options *o, unsigned every_steps, char *err, size_t len)
{
	struct view *v;
	double end;
	int rc;

	mju_user_warning = view_mujoco_warning;
	mju_user_error = view_mujoco_error;
	if ((v = calloc(1, sizeof(*v))) == NULL) {
		view_fail(err, len, "out of memory");
		return NULL;
	}
	v->o = *o;
	if (egl_start(o->egl, err, len) != 0) {
		free(v);
		return NULL;
	}
	v->every_steps = every_steps;
	if (view_attach(v, err, len) != 0) {
		view_close(v);
		return NULL;
	}
	/* The first frame is the state as it is now. */
	end = program_now() + VIEW_FIRST_FRAME_MS / 1e3;
	while (v->frame == NULL && !o->by_calls) {
		rc = view_pump(v, 100, err, len);
		if (rc < 0 || (v->frame == NULL && program_now() > end)) {
			if (rc >= 0)
				view_fail(err, len,
				    "the server sent no state within %d s",
				    VIEW_FIRST_FRAME_MS / 1000);
			view_close(v);
			return NULL;
		}
	}
	return v;
}

void
view_close(struct view *v)
{
	if (v == NULL)
		return;
	view_unload(v);
	if (v->web != NULL)
		v->web_free(v->web);
	hxd_frame_free(v->frame);
	hxd_close(v->c);
	egl_stop();
	free(v);
}

/* Put the newest frame into d and compute what the scene shows. */
void
view_apply(struct view *v)
{
	const hxd_frame *f = v->frame;
	const mjModel *m = v->m;
	mjData *d = v->d;

	if (!v->dirty || f == NULL)
		return;
	d->time = f->time;
	if (f->qpos != NULL)
		memcpy(d->qpos, f->qpos, sizeof(double) * (size_t)m->nq);
	if (f->qvel != NULL)
		memcpy(d->qvel, f->qvel, sizeof(double) * (size_t)m->nv);
	if (f->act != NULL)
		memcpy(d->act, f->act, sizeof(double) * (size_t)m->na);
	if (f->ctrl != NULL)
		memcpy(d->ctrl, f->ctrl, sizeof(double) * (size_t)m->nu);
	if (f->mocap_pos != NULL) {
		memcpy(d->mocap_pos, f->mocap_pos,
		    sizeof(double) * 3 * (size_t)m->nmocap);
		memcpy(d->mocap_quat, f->mocap_quat,
		    sizeof(double) * 4 * (size_t)m->nmocap);
	}
	if (f->qfrc_applied != NULL)
		memcpy(d->qfrc_applied, f->qfrc_applied,
		    sizeof(double) * (size_t)m->nv);
	if (f->xfrc_applied != NULL)
		memcpy(d->xfrc_applied, f->xfrc_applied,
		    sizeof(double) * 6 * (size_t)m->nbody);
	mj_forward(m, d);
	if (f->sensordata != NULL)
		memcpy(d->sensordata, f->sensordata,
		    sizeof(double) * (size_t)m->nsensordata);
	v->dirty = 0;
}

void
view_render(struct view *v, unsigned char *rgb)
{
	mjrRect vp = { 0, 0, v->o.width, v->o.height };
	struct overlay_input in;
	size_t row = (size_t)v->o.width * 3;
	unsigned char *tmp, *a, *b;
	int y;

	view_apply(v);
	/*
	 * MuJoCo moves a tracking camera a fifth of the way to the body on
	 * each update, which suits a window at 60 Hz, not one snapshot or a
	 * recording that starts far off: look at the body itself.
	 */
	if (v->cam.type == mjCAMERA_TRACKING)
		mju_copy3(
		    v->cam.lookat, v->d->subtree_com + 3 * v->cam.trackbodyid);
	mjv_updateScene(
	    v->m, v->d, &v->opt, &v->pert, &v->cam, mjCAT_ALL, &v->scn);
	mjr_render(vp, &v->scn, &v->con);
	memset(&in, 0, sizeof(in));
	in.m = v->m;
	in.d = v->d;
	in.status = v->have_status ? &v->status : NULL;
	/* The address it reached, $HAPTIX_SERVER's or the default's too. */
	in.server = v->server_addr;
	in.o = &v->o;
	in.viewport = vp;
	in.con = &v->con;
	in.scale = v->scale;
	overlay_draw(&in);
	mjr_readPixels(rgb, NULL, vp, &v->con);
	/* OpenGL's rows run bottom up; images run top down. */
	tmp = malloc(row);
	if (tmp == NULL)
		return;
	for (y = 0; y < v->o.height / 2; y++) {
		a = rgb + row * (size_t)y;
		b = rgb + row * (size_t)(v->o.height - 1 - y);
		memcpy(tmp, a, row);
		memcpy(a, b, row);
		memcpy(b, tmp, row);
	}
	free(tmp);
}

hxd_conn *
view_conn(struct view *v)
{
	return v->c;
}

unsigned long long
view_step(const struct view *v)
{
	return v->step;
}

int
view_with_state(
    struct view *v, hxd_frame *f, int (*fn)(struct view *, void *), void *arg)
{
	hxd_frame *live = v->frame;
	unsigned long long step = v->step;
	int rc;

	if (live == NULL || f->nq != v->m->nq || f->nv != v->m->nv ||
	    f->na != v->m->na || f->nu != v->m->nu ||
	    f->nmocap != v->m->nmocap ||
	    (f->xfrc_applied != NULL && f->nbody != v->m->nbody))
		return -1;
	v->frame = f;
	v->step = f->step;
	v->dirty = 1;
	rc = fn(v, arg);
	v->frame = live;
	v->step = step;
	v->dirty = 1;
	return rc;
}

/* Flag names on the command line, by mjtVisFlag then mjtRndFlag. */
static const char *const vis_names[mjNVISFLAG] = { "convexhull", "texture",
	"joint", "camera", "actuator", "activation", "light", "tendon",
	"rangefinder", "constraint", "inertia", "sclinertia", "pertforce",
	"pertobj", "contact", "force", "split", "transparent", "autoconnect",
	"com", "select", "static", "skin" };
static const char *const rnd_names[mjNRNDFLAG] = { "shadow", "wireframe",
	"reflection", "additive", "skybox", "fog", "haze", "segment", "idcolor",
	"cullface" };

int
view_flags_parse(
    struct view_options *o, const char *list, int show, char *err, size_t len)
{
	char buf[512], *name, *save = NULL;
	int i, found;

	if (snprintf(buf, sizeof(buf), "%s", list) >= (int)sizeof(buf))
		return view_fail(err, len, "the list of flags is too long");
	for (name = strtok_r(buf, ",", &save); name != NULL;
	     name = strtok_r(NULL, ",", &save)) {
		found = 0;
		for (i = 0; i < mjNVISFLAG && !found; i++)
			if (strcmp(name, vis_names[i]) == 0) {
				o->vis[i] = (signed char)(show ? 1 : -1);
				found = 1;
			}
		for (i = 0; i < mjNRNDFLAG && !found; i++)
			if (strcmp(name, rnd_names[i]) == 0) {
				o->rnd[i] = (signed char)(show ? 1 : -1);
				found = 1;
			}
		if (!found)
			return view_fail(err, len,
			    "unknown flag \"%s\" (hxview --help lists them)",
			    name);
	}
	return 0;
}

void
view_flags_names(FILE *f)
{
	int i;

	for (i = 0; i < mjNVISFLAG; i++)
		fprintf(f, "%s%s", i % 8 == 0 ? "\n      " : " ", vis_names[i]);
	for (i = 0; i < mjNRNDFLAG; i++)
		fprintf(f, "%s%s", (i + mjNVISFLAG) % 8 == 0 ? "\n      " : " ",
		    rnd_names[i]);
	fputc('\n', f);
}

double
view_epoch_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}
