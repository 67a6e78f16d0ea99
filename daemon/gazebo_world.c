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

static struct {
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
} world;

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
	int nbody = sim_sizes(d->sim)->nbody;

	if (nbody == world.nbody)
		return;
	free(world.add);
	free(world.saved);
	world.add = calloc(6 * (size_t)nbody, sizeof(double));
	world.saved = calloc(6 * (size_t)nbody, sizeof(double));
	if (world.add == NULL || world.saved == NULL)
		fatal("out of memory");
	world.nbody = nbody;
}

int
gazebo_world_force(struct daemon *d, int body, const double f[6],
    double duration, int gravity, char *err, size_t len)
{
	struct world_wrench *w;
	int i;

	if (f != NULL && world.nwrench == WORLD_WRENCHES_MAX) {
		snprintf(err, len, "%d wrenches are in effect already",
		    WORLD_WRENCHES_MAX);
		return -1;
	}
	i = gazebo_world_find(world.gravity, world.ngravity, body);
	if (gravity == 2 && i < 0) {
		if (world.ngravity == WORLD_BODIES_MAX) {
			snprintf(err, len, "%d bodies have gravity off already",
			    WORLD_BODIES_MAX);
			return -1;
		}
		gazebo_world_body_name(
		    d, body, &world.gravity[world.ngravity++]);
	} else if (gravity == 1 && i >= 0)
		world.gravity[i] = world.gravity[--world.ngravity];
	if (f != NULL) {
		w = &world.wrench[world.nwrench++];
		gazebo_world_body_name(d, body, &w->body);
		memcpy(w->f, f, sizeof(w->f));
		w->until = duration > 0 ? sim_time(d->sim) + duration : -1;
	}
	return 0;
}

void
gazebo_world_clear_wrenches(void)
{
	world.nwrench = 0;
}

int
gazebo_world_gravity_off(int *bodies, int max)
{
	int i;

	for (i = 0; i < world.ngravity && i < max; i++)
		bodies[i] = world.gravity[i].id;
	return i;
}

int
gazebo_world_wrenches(void)
{
	return world.nwrench;
}

int
gazebo_world_collide_set(
    struct daemon *d, int body, int mode, char *err, size_t len)
{
	int i = gazebo_world_find(world.collide, world.ncollide, body);

	if (i < 0) {
		if (world.ncollide == WORLD_BODIES_MAX) {
			snprintf(err, len,
			    "%d bodies have collide modes already",
			    WORLD_BODIES_MAX);
			return -1;
		}
		i = world.ncollide++;
		gazebo_world_body_name(d, body, &world.collide[i]);
	}
	world.collide[i].mode = mode;
	sim_collide_set(d->sim, body, mode);
	return 0;
}

void
gazebo_world_camera(
    struct daemon *d, double pos[3], double quat[4], int *is_default)
{
	*is_default = !world.camera_set;
	if (world.camera_set) {
		memcpy(pos, world.camera_pos, sizeof(world.camera_pos));
		memcpy(quat, world.camera_quat, sizeof(world.camera_quat));
	} else
		sim_camera_default(d->sim, pos, quat);
}

void
gazebo_world_camera_set(
    struct daemon *d, const double pos[3], const double quat[4])
{
	memcpy(world.camera_pos, pos, sizeof(world.camera_pos));
	memcpy(world.camera_quat, quat, sizeof(world.camera_quat));
	world.camera_set = 1;
	event_camera(d, world.camera_pos, world.camera_quat, 0);
}

void
gazebo_world_before_step(struct daemon *d)
{
	double *row;
	int i;

	if (world.ngravity == 0 && world.nwrench == 0)
		return;
	gazebo_world_size(d);
	memset(world.add, 0, 6 * (size_t)world.nbody * sizeof(double));
	for (i = 0; i < world.ngravity; i++)
		sim_body_weight(d->sim, world.gravity[i].id,
		    world.add + 6 * world.gravity[i].id);
	for (i = 0; i < world.nwrench; i++) {
		row = world.add + 6 * world.wrench[i].body.id;
		for (int k = 0; k < 6; k++)
			row[k] += world.wrench[i].f[k];
	}
	sim_xfrc_push(d->sim, world.add, world.saved);
	world.pushed = 1;
	world.pushed_time = sim_time(d->sim);
}

void
gazebo_world_after_step(struct daemon *d)
{
	double t = sim_time(d->sim);
	int i;

	if (!world.pushed)
		return;
	world.pushed = 0;
	/* A step that MuJoCo reset cleared the forces already. */
	if (t >= world.pushed_time)
		sim_xfrc_pop(d->sim, world.saved);
	for (i = 0; i < world.nwrench;)
		if (world.wrench[i].until >= 0 && world.wrench[i].until <= t)
			world.wrench[i] = world.wrench[--world.nwrench];
		else
			i++;
}

/* The camera went back to the model's own: the viewers hear of it. */
static void
gazebo_world_camera_default(struct daemon *d)
{
	double pos[3], quat[4];

	world.camera_set = 0;
	if (sim_loaded(d->sim)) {
		sim_camera_default(d->sim, pos, quat);
		event_camera(d, pos, quat, 1);
	}
}

void
gazebo_world_reset(struct daemon *d, int keep_params)
{
	world.nwrench = 0;
	if (!keep_params) {
		/* The model's arrays are the model's again. */
		world.ngravity = 0;
		world.ncollide = 0;
	}
	if (world.camera_set)
		gazebo_world_camera_default(d);
}

void
gazebo_world_model_changed(struct daemon *d)
{
	world.nwrench = world.ngravity = world.ncollide = 0;
	world.pushed = 0;
	world.camera_set = 0;
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
	int i, n;

	world.pushed = 0;
	gazebo_world_size(d);
	world.ngravity = gazebo_world_refind(d, world.gravity, world.ngravity);
	world.ncollide = gazebo_world_refind(d, world.collide, world.ncollide);
	for (i = 0; i < world.ncollide; i++)
		sim_collide_set(
		    d->sim, world.collide[i].id, world.collide[i].mode);
	/* A wrench moves with its body's name, as the body list does. */
	for (i = n = 0; i < world.nwrench; i++) {
		struct gazebo_world_body b = world.wrench[i].body;

		if (gazebo_world_refind(d, &b, 1) == 1) {
			world.wrench[n] = world.wrench[i];
			world.wrench[n++].body = b;
		}
	}
	world.nwrench = n;
}
