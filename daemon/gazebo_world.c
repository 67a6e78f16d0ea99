/* The World API's state in the daemon: see gazebo_world.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon.h"
#include "event.h"
#include "log.h"
#include "sim.h"
#include "sim_access.h"
#include "sim_world.h"
#include "gazebo_world.h"

#define WORLD_NAME 128   /* a body's name, kept across edits */
#define WORLD_OBJ_BODY 1 /* the protocol's ObjType of bodies */

struct gazebo_world_body {
	char name[WORLD_NAME]; /* "" for an unnamed body: lost by an edit */
	int id;
	int mode; /* collide mode (SIM_*), or gravity off (unused) */
};

struct world_wrench {
	struct gazebo_world_body body;
	double f[6];
	double until; /* simulated time; < 0: until a reset */
};

/* The World API's state (d->world). */
struct gazebo_world {
	struct world_wrench wrench[WORLD_WRENCHES_MAX];
	int nwrench;
	struct gazebo_world_body
	    gravity[WORLD_BODIES_MAX]; /* weight cancelled */
	int ngravity;
	struct gazebo_world_body collide[WORLD_BODIES_MAX]; /* modes set */
	int ncollide;
	double *add, *saved; /* 6 x nbody each, made when the model comes */
	int nbody;
	int pushed;         /* the forces are in xfrc_applied for a step */
	double pushed_time; /* the time they went in */
	int camera_set;
	double camera_pos[3], camera_quat[4];
};

struct gazebo_world *
gazebo_world_create(void)
{
	struct gazebo_world *gw;

	if ((gw = calloc(1, sizeof(*gw))) == NULL)
		fatal("out of memory");
	return gw;
}

void
gazebo_world_free(struct gazebo_world *gw)
{
	if (gw == NULL)
		return;
	free(gw->add);
	free(gw->saved);
	free(gw);
}

/* Fill b with body id and its name. */
static void
gazebo_world_body_name(struct daemon *d, int id, struct gazebo_world_body *b)
{
	int bad;
	const char *name = sim_id2name(d->sim, WORLD_OBJ_BODY, id, &bad);

	memset(b, 0, sizeof(*b));
	b->id = id;
	if (name != NULL && strlen(name) < sizeof(b->name))
		snprintf(b->name, sizeof(b->name), "%s", name);
}

/* Find body in list, or -1. */
static int
gazebo_world_find(const struct gazebo_world_body *list, int n, int body)
{
	int i;

	for (i = 0; i < n; i++)
		if (list[i].id == body)
			return i;
	return -1;
}

/* The scratch rows for the model's bodies (allocated per model, not step). */
static void
gazebo_world_size(struct daemon *d)
{
	struct gazebo_world *gw = d->world;
	int nbody = sim_sizes(d->sim)->nbody;

	if (nbody == gw->nbody)
		return;
	free(gw->add);
	free(gw->saved);
	gw->add = calloc(6 * (size_t)nbody, sizeof(double));
	gw->saved = calloc(6 * (size_t)nbody, sizeof(double));
	if (gw->add == NULL || gw->saved == NULL)
		fatal("out of memory");
	gw->nbody = nbody;
}

int
gazebo_world_force(struct daemon *d, int body, const double f[6],
    double duration, int gravity, char *err, size_t len)
{
	struct gazebo_world *gw = d->world;
	struct world_wrench *w;
	int i;

	if (f != NULL && gw->nwrench == WORLD_WRENCHES_MAX) {
		snprintf(err, len, "%d wrenches are in effect already",
		    WORLD_WRENCHES_MAX);
		return -1;
	}
	i = gazebo_world_find(gw->gravity, gw->ngravity, body);
	if (gravity == 2 && i < 0) {
		if (gw->ngravity == WORLD_BODIES_MAX) {
			snprintf(err, len, "%d bodies have gravity off already",
			    WORLD_BODIES_MAX);
			return -1;
		}
		gazebo_world_body_name(d, body, &gw->gravity[gw->ngravity++]);
	} else if (gravity == 1 && i >= 0)
		gw->gravity[i] = gw->gravity[--gw->ngravity];
	if (f != NULL) {
		w = &gw->wrench[gw->nwrench++];
		gazebo_world_body_name(d, body, &w->body);
		memcpy(w->f, f, sizeof(w->f));
		w->until = duration > 0 ? sim_time(d->sim) + duration : -1;
	}
	return 0;
}

void
gazebo_world_clear_wrenches(struct daemon *d)
{
	struct gazebo_world *gw = d->world;

	gw->nwrench = 0;
}

int
gazebo_world_gravity_off(struct daemon *d, int *bodies, int max)
{
	struct gazebo_world *gw = d->world;
	int i;

	for (i = 0; i < gw->ngravity && i < max; i++)
		bodies[i] = gw->gravity[i].id;
	return i;
}

int
gazebo_world_wrenches(struct daemon *d)
{
	struct gazebo_world *gw = d->world;

	return gw->nwrench;
}

int
gazebo_world_collide_set(
    struct daemon *d, int body, int mode, char *err, size_t len)
{
	struct gazebo_world *gw = d->world;
	int i = gazebo_world_find(gw->collide, gw->ncollide, body);

	if (i < 0) {
		if (gw->ncollide == WORLD_BODIES_MAX) {
			snprintf(err, len,
			    "%d bodies have collide modes already",
			    WORLD_BODIES_MAX);
			return -1;
		}
		i = gw->ncollide++;
		gazebo_world_body_name(d, body, &gw->collide[i]);
	}
	gw->collide[i].mode = mode;
	sim_collide_set(d->sim, body, mode);
	return 0;
}

void
gazebo_world_camera(
    struct daemon *d, double pos[3], double quat[4], int *is_default)
{
	struct gazebo_world *gw = d->world;

	*is_default = !gw->camera_set;
	if (gw->camera_set) {
		memcpy(pos, gw->camera_pos, sizeof(gw->camera_pos));
		memcpy(quat, gw->camera_quat, sizeof(gw->camera_quat));
	} else
		sim_camera_default(d->sim, pos, quat);
}

void
gazebo_world_camera_set(
    struct daemon *d, const double pos[3], const double quat[4])
{
	struct gazebo_world *gw = d->world;

	memcpy(gw->camera_pos, pos, sizeof(gw->camera_pos));
	memcpy(gw->camera_quat, quat, sizeof(gw->camera_quat));
	gw->camera_set = 1;
	event_camera(d, gw->camera_pos, gw->camera_quat, 0);
}

void
gazebo_world_before_step(struct daemon *d)
{
	struct gazebo_world *gw = d->world;
	double *row;
	int i;

	if (gw->ngravity == 0 && gw->nwrench == 0)
		return;
	gazebo_world_size(d);
	memset(gw->add, 0, 6 * (size_t)gw->nbody * sizeof(double));
	for (i = 0; i < gw->ngravity; i++)
		sim_body_weight(
		    d->sim, gw->gravity[i].id, gw->add + 6 * gw->gravity[i].id);
	for (i = 0; i < gw->nwrench; i++) {
		row = gw->add + 6 * gw->wrench[i].body.id;
		for (int k = 0; k < 6; k++)
			row[k] += gw->wrench[i].f[k];
	}
	sim_xfrc_push(d->sim, gw->add, gw->saved);
	gw->pushed = 1;
	gw->pushed_time = sim_time(d->sim);
}

void
gazebo_world_after_step(struct daemon *d)
{
	struct gazebo_world *gw = d->world;
	double t = sim_time(d->sim);
	int i;

	if (!gw->pushed)
		return;
	gw->pushed = 0;
	/* A step that MuJoCo reset cleared the forces already. */
	if (t >= gw->pushed_time)
		sim_xfrc_pop(d->sim, gw->saved);
	for (i = 0; i < gw->nwrench;)
		if (gw->wrench[i].until >= 0 && gw->wrench[i].until <= t)
			gw->wrench[i] = gw->wrench[--gw->nwrench];
		else
			i++;
}

/* The camera went back to the model's own: the viewers hear of it. */
static void
gazebo_world_camera_default(struct daemon *d)
{
	struct gazebo_world *gw = d->world;
	double pos[3], quat[4];

	gw->camera_set = 0;
	if (sim_loaded(d->sim)) {
		sim_camera_default(d->sim, pos, quat);
		event_camera(d, pos, quat, 1);
	}
}

void
gazebo_world_reset(struct daemon *d, int keep_params)
{
	struct gazebo_world *gw = d->world;

	gw->nwrench = 0;
	if (!keep_params) {
		/* The model's arrays are the model's again. */
		gw->ngravity = 0;
		gw->ncollide = 0;
	}
	if (gw->camera_set)
		gazebo_world_camera_default(d);
}

void
gazebo_world_model_changed(struct daemon *d)
{
	struct gazebo_world *gw = d->world;

	gw->nwrench = gw->ngravity = gw->ncollide = 0;
	gw->pushed = 0;
	gw->camera_set = 0;
	gazebo_world_size(d);
}

/* Find list's bodies in the edited model by name; drop those gone. */
static int
gazebo_world_refind(struct daemon *d, struct gazebo_world_body *list, int n)
{
	int i, id;

	for (i = 0; i < n;) {
		id = list[i].name[0] != '\0' ?
		    sim_name2id(d->sim, WORLD_OBJ_BODY, list[i].name) :
		    -1;
		if (id <= 0) {
			log_info("world: body \"%s\" is gone: its settings go",
			    list[i].name);
			list[i] = list[--n];
		} else
			list[i++].id = id;
	}
	return n;
}

void
gazebo_world_model_edited(struct daemon *d)
{
	struct gazebo_world *gw = d->world;
	int i, n;

	gw->pushed = 0;
	gazebo_world_size(d);
	gw->ngravity = gazebo_world_refind(d, gw->gravity, gw->ngravity);
	gw->ncollide = gazebo_world_refind(d, gw->collide, gw->ncollide);
	for (i = 0; i < gw->ncollide; i++)
		sim_collide_set(d->sim, gw->collide[i].id, gw->collide[i].mode);
	/* A wrench moves with its body's name, as the body list does. */
	for (i = n = 0; i < gw->nwrench; i++) {
		struct gazebo_world_body b = gw->wrench[i].body;

		if (gazebo_world_refind(d, &b, 1) == 1) {
			gw->wrench[n] = gw->wrench[i];
			gw->wrench[n++].body = b;
		}
	}
	gw->nwrench = n;
}
