/*
 * The JSON messages of the Foxglove topics, from a model and its data
 * (the schemas: foxglove_schema.c).  Doubles are written with %.17g, which
 * reads back as the same double; JSON has no NaN or infinity, so those
 * are null.  Unnamed objects are named by their kind and id ("body3"),
 * as frames and entities need names.
 */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "foxglove_msg.h"
#include "json_string.h"

/* MuJoCo draws geom groups 0 to 2 by default; the scene holds those. */
#define MMSG_GROUPS 3
#define MMSG_PLANE_THICKNESS 0.001 /* m: a plane drawn as a thin cube */

const struct fox_topic_name fox_topics[FOX_NTOPIC] = {
	[FOX_TF] = { "/tf", "foxglove.FrameTransforms" },
	[FOX_SCENE] = { "/scene", "foxglove.SceneUpdate" },
	[FOX_JOINTS] = { "/joint_states", "haptixd.JointStates" },
	[FOX_CONTROLS] = { "/controls", "haptixd.Controls" },
	[FOX_SENSORS] = { "/sensors", "haptixd.Sensors" },
	[FOX_CONTACTS] = { "/contacts", "haptixd.Contacts" },
	[FOX_EVENTS] = { "/events", "foxglove.Log" },
};

int
mmsg_reset(struct mmsg *j)
{
	if (j->f == NULL)
		return (j->f = open_memstream(&j->p, &j->len)) != NULL ? 0 : -1;
	return fseeko(j->f, 0, SEEK_SET);
}

int
mmsg_done(struct mmsg *j)
{
	return fflush(j->f) == 0 && !ferror(j->f) ? 0 : -1;
}

void
mmsg_free(struct mmsg *j)
{
	if (j->f != NULL)
		fclose(j->f);
	free(j->p);
	memset(j, 0, sizeof(*j));
}

static void
jprintf(struct mmsg *j, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(j->f, fmt, ap);
	va_end(ap);
}

static void
jdouble(struct mmsg *j, double v)
{
	if (isfinite(v))
		jprintf(j, "%.17g", v);
	else
		jprintf(j, "null");
}

/* n doubles as a JSON array. */
static void
jarray(struct mmsg *j, const mjtNum *v, int n)
{
	int i;

	jprintf(j, "[");
	for (i = 0; i < n; i++) {
		if (i > 0)
			jprintf(j, ",");
		jdouble(j, v[i]);
	}
	jprintf(j, "]");
}

static void
jtime(struct mmsg *j, const char *key, uint64_t ns)
{
	jprintf(j, "\"%s\":{\"sec\":%llu,\"nsec\":%llu}", key,
	    (unsigned long long)(ns / 1000000000u),
	    (unsigned long long)(ns % 1000000000u));
}

/* {"x":..,"y":..,"z":..} */
static void
jxyz(struct mmsg *j, const char *key, const mjtNum *v)
{
	jprintf(j, "\"%s\":{\"x\":", key);
	jdouble(j, v[0]);
	jprintf(j, ",\"y\":");
	jdouble(j, v[1]);
	jprintf(j, ",\"z\":");
	jdouble(j, v[2]);
	jprintf(j, "}");
}

/* MuJoCo's w x y z as Foxglove's x y z w. */
static void
jquat(struct mmsg *j, const char *key, const mjtNum *q)
{
	jprintf(j, "\"%s\":{\"x\":", key);
	jdouble(j, q[1]);
	jprintf(j, ",\"y\":");
	jdouble(j, q[2]);
	jprintf(j, ",\"z\":");
	jdouble(j, q[3]);
	jprintf(j, ",\"w\":");
	jdouble(j, q[0]);
	jprintf(j, "}");
}

static void
jpose(struct mmsg *j, const mjtNum *pos, const mjtNum *quat)
{
	jprintf(j, "\"pose\":{");
	jxyz(j, "position", pos);
	jprintf(j, ",");
	jquat(j, "orientation", quat);
	jprintf(j, "}");
}

/* The record's step, time and segment, after its timestamp. */
static void
jrecord(struct mmsg *j, const struct mmsg_record *r)
{
	jtime(j, "timestamp", r->ns);
	jprintf(j, ",\"step\":%llu,\"time\":", (unsigned long long)r->step);
	jdouble(j, r->time);
	jprintf(j, ",\"segment\":%llu", (unsigned long long)r->segment);
}

/* An object's name, or its kind and id. */
static const char *
mmsg_name(const mjModel *m, int type, int id, char *buf, size_t len)
{
	static const char *const kinds[] = { [mjOBJ_BODY] = "body",
		[mjOBJ_JOINT] = "joint",
		[mjOBJ_GEOM] = "geom",
		[mjOBJ_ACTUATOR] = "actuator",
		[mjOBJ_SENSOR] = "sensor" };
	const char *name = mj_id2name(m, type, id);

	if (type == mjOBJ_BODY && id == 0)
		return "world";
	if (name != NULL && name[0] != '\0')
		return name;
	snprintf(buf, len, "%s%d", kinds[type], id);
	return buf;
}

void
mmsg_tf(struct mmsg *j, const mjModel *m, const mjData *d,
    const struct mmsg_record *r)
{
	char buf[32];
	int i;

	jprintf(j, "{\"transforms\":[");
	for (i = 1; i < m->nbody; i++) {
		jprintf(j, "%s{", i > 1 ? "," : "");
		jtime(j, "timestamp", r->ns);
		jprintf(
		    j, ",\"parent_frame_id\":\"world\",\"child_frame_id\":");
		json_string(
		    j->f, mmsg_name(m, mjOBJ_BODY, i, buf, sizeof(buf)));
		jprintf(j, ",");
		jxyz(j, "translation", d->xpos + 3 * i);
		jprintf(j, ",");
		jquat(j, "rotation", d->xquat + 4 * i);
		jprintf(j, "}");
	}
	jprintf(j, "]}");
}

/* The geom's colour: its material's when its own is MuJoCo's default. */
static void
jcolor(struct mmsg *j, const mjModel *m, int g)
{
	const float *c = m->geom_rgba + 4 * g;

	if (m->geom_matid[g] >= 0 && c[0] == 0.5f && c[1] == 0.5f &&
	    c[2] == 0.5f && c[3] == 1.0f)
		c = m->mat_rgba + 4 * m->geom_matid[g];
	jprintf(j, "\"color\":{\"r\":%.9g,\"g\":%.9g,\"b\":%.9g,\"a\":%.9g}",
	    c[0], c[1], c[2], c[3]);
}

/* A primitive with a pose and a size: a cube, sphere or cylinder. */
static void
jsolid(struct mmsg *j, const mjModel *m, int g, const mjtNum *pos,
    const mjtNum *size)
{
	jprintf(j, "{");
	jpose(j, pos, m->geom_quat + 4 * g);
	jprintf(j, ",");
	jxyz(j, "size", size);
	jprintf(j, ",");
	jcolor(j, m, g);
	jprintf(j, "}");
}

/* A mesh as an indexed triangle list, in the geom's frame. */
static void
jmesh(struct mmsg *j, const mjModel *m, int g)
{
	int id = m->geom_dataid[g], i, nv, nf;
	const float *v;
	const int *f;

	nv = m->mesh_vertnum[id];
	nf = m->mesh_facenum[id];
	v = m->mesh_vert + 3 * m->mesh_vertadr[id];
	f = m->mesh_face + 3 * m->mesh_faceadr[id];
	jprintf(j, "{");
	jpose(j, m->geom_pos + 3 * g, m->geom_quat + 4 * g);
	jprintf(j, ",\"points\":[");
	for (i = 0; i < nv; i++)
		jprintf(j, "%s{\"x\":%.9g,\"y\":%.9g,\"z\":%.9g}",
		    i > 0 ? "," : "", v[3 * i], v[3 * i + 1], v[3 * i + 2]);
	jprintf(j, "],");
	jcolor(j, m, g);
	jprintf(j, ",\"indices\":[");
	for (i = 0; i < 3 * nf; i++)
		jprintf(j, "%s%d", i > 0 ? "," : "", f[i]);
	jprintf(j, "]}");
}

/* A height field as a grid of triangles (its top, not its base). */
static void
jhfield(struct mmsg *j, const mjModel *m, int g)
{
	int id = m->geom_dataid[g], nr, nc, r, c, k;
	const mjtNum *s = m->hfield_size + 4 * id;
	const float *h;

	nr = m->hfield_nrow[id];
	nc = m->hfield_ncol[id];
	h = m->hfield_data + m->hfield_adr[id];
	jprintf(j, "{");
	jpose(j, m->geom_pos + 3 * g, m->geom_quat + 4 * g);
	jprintf(j, ",\"points\":[");
	for (r = 0; r < nr; r++) {
		for (c = 0; c < nc; c++)
			jprintf(j, "%s{\"x\":%.9g,\"y\":%.9g,\"z\":%.9g}",
			    r + c > 0 ? "," : "",
			    s[0] * (2.0 * c / (nc - 1) - 1),
			    s[1] * (2.0 * r / (nr - 1) - 1),
			    s[2] * h[r * nc + c]);
	}
	jprintf(j, "],");
	jcolor(j, m, g);
	jprintf(j, ",\"indices\":[");
	for (r = 0, k = 0; r + 1 < nr; r++) {
		for (c = 0; c + 1 < nc; c++, k++)
			jprintf(j, "%s%d,%d,%d,%d,%d,%d", k > 0 ? "," : "",
			    r * nc + c, r * nc + c + 1, (r + 1) * nc + c + 1,
			    r * nc + c, (r + 1) * nc + c + 1, (r + 1) * nc + c);
	}
	jprintf(j, "]}");
}

/* Whether geom g of body b goes in the scene's list of kind. */
static int
geom_in(const mjModel *m, int g, int b, const char *kind)
{
	int t = m->geom_type[g];

	if (m->geom_bodyid[g] != b || m->geom_group[g] < 0 ||
	    m->geom_group[g] >= MMSG_GROUPS)
		return 0;
	if (strcmp(kind, "cubes") == 0)
		return t == mjGEOM_BOX || t == mjGEOM_PLANE;
	if (strcmp(kind, "spheres") == 0)
		return t == mjGEOM_SPHERE || t == mjGEOM_ELLIPSOID ||
		    t == mjGEOM_CAPSULE;
	if (strcmp(kind, "cylinders") == 0)
		return t == mjGEOM_CYLINDER || t == mjGEOM_CAPSULE;
	return t == mjGEOM_MESH || t == mjGEOM_HFIELD;
}

/*
 * Geom g as a primitive of kind; a capsule is a cylinder and two
 * spheres, one at each end of its axis (the sphere at end, -1 or 1).
 */
static void
jgeom(struct mmsg *j, const mjModel *m, int g, const char *kind, int end)
{
	const mjtNum *s = m->geom_size + 3 * g, *pos = m->geom_pos + 3 * g;
	mjtNum size[3], at[3], axis[3] = { 0, 0, 0 };
	double plane;

	switch (m->geom_type[g]) {
	case mjGEOM_PLANE:
		/* An infinite plane (size 0) drawn as far as the model goes. */
		plane = 5 * (m->stat.extent > 1 ? m->stat.extent : 1);
		size[0] = s[0] > 0 ? 2 * s[0] : 2 * plane;
		size[1] = s[1] > 0 ? 2 * s[1] : 2 * plane;
		size[2] = MMSG_PLANE_THICKNESS;
		return jsolid(j, m, g, pos, size);
	case mjGEOM_SPHERE:
		size[0] = size[1] = size[2] = 2 * s[0];
		return jsolid(j, m, g, pos, size);
	case mjGEOM_ELLIPSOID:
	case mjGEOM_BOX:
		size[0] = 2 * s[0];
		size[1] = 2 * s[1];
		size[2] = 2 * s[2];
		return jsolid(j, m, g, pos, size);
	case mjGEOM_CYLINDER:
		size[0] = size[1] = 2 * s[0];
		size[2] = 2 * s[1];
		return jsolid(j, m, g, pos, size);
	case mjGEOM_CAPSULE:
		size[0] = size[1] = size[2] = 2 * s[0];
		if (strcmp(kind, "spheres") != 0) {
			size[2] = 2 * s[1];
			return jsolid(j, m, g, pos, size);
		}
		axis[2] = end * s[1];
		mju_rotVecQuat(at, axis, m->geom_quat + 4 * g);
		mju_addTo3(at, pos);
		return jsolid(j, m, g, at, size);
	case mjGEOM_MESH:
		return jmesh(j, m, g);
	case mjGEOM_HFIELD:
		return jhfield(j, m, g);
	}
}

/* Body b's geoms of kind as a JSON list. */
static void
jgeoms(struct mmsg *j, const mjModel *m, int b, const char *kind)
{
	int g, end, n = 0;

	jprintf(j, ",\"%s\":[", kind);
	for (g = 0; g < m->ngeom; g++) {
		if (!geom_in(m, g, b, kind))
			continue;
		for (end = -1; end <= 1; end += 2) {
			jprintf(j, "%s", n++ > 0 ? "," : "");
			jgeom(j, m, g, kind, end);
			if (m->geom_type[g] != mjGEOM_CAPSULE ||
			    strcmp(kind, "spheres") != 0)
				break;
		}
	}
	jprintf(j, "]");
}

void
mmsg_scene(struct mmsg *j, const mjModel *m, uint64_t ns)
{
	static const char *const kinds[] = { "cubes", "spheres", "cylinders",
		"triangles" };
	char buf[32];
	const char *name;
	int b, k;

	jprintf(j, "{\"deletions\":[{");
	jtime(j, "timestamp", ns);
	jprintf(j, ",\"type\":1,\"id\":\"\"}],\"entities\":[");
	for (b = 0; b < m->nbody; b++) {
		name = mmsg_name(m, mjOBJ_BODY, b, buf, sizeof(buf));
		jprintf(j, "%s{", b > 0 ? "," : "");
		jtime(j, "timestamp", ns);
		jprintf(j, ",\"frame_id\":");
		json_string(j->f, name);
		jprintf(j, ",\"id\":");
		json_string(j->f, name);
		jprintf(j,
		    ",\"lifetime\":{\"sec\":0,\"nsec\":0},"
		    "\"frame_locked\":true,\"metadata\":[]");
		for (k = 0; k < 4; k++)
			jgeoms(j, m, b, kinds[k]);
		jprintf(j, "}");
	}
	jprintf(j, "]}");
}

void
mmsg_joints(struct mmsg *j, const mjModel *m, const mjData *d,
    const struct mmsg_record *r, int qvel)
{
	static const char *const types[] = { [mjJNT_FREE] = "free",
		[mjJNT_BALL] = "ball",
		[mjJNT_SLIDE] = "slide",
		[mjJNT_HINGE] = "hinge" };
	static const int nq[] = { 7, 4, 1, 1 }, nv[] = { 6, 3, 1, 1 };
	char buf[32];
	int i, t;

	jprintf(j, "{");
	jrecord(j, r);
	jprintf(j, ",\"joints\":[");
	for (i = 0; i < m->njnt; i++) {
		t = m->jnt_type[i];
		jprintf(j, "%s{\"name\":", i > 0 ? "," : "");
		json_string(
		    j->f, mmsg_name(m, mjOBJ_JOINT, i, buf, sizeof(buf)));
		jprintf(j, ",\"type\":\"%s\",\"position\":", types[t]);
		jarray(j, d->qpos + m->jnt_qposadr[i], nq[t]);
		jprintf(j, ",\"velocity\":");
		jarray(j, d->qvel + m->jnt_dofadr[i], qvel ? nv[t] : 0);
		jprintf(j, "}");
	}
	jprintf(j, "]}");
}

/* Named values: each object's name and n[i] doubles from v + adr[i]. */
static void
jnamed(struct mmsg *j, const mjModel *m, int type, int count,
    const char *values, const mjtNum *v, const int *adr, const int *n)
{
	char buf[32];
	int i;

	for (i = 0; i < count; i++) {
		jprintf(j, "%s{\"name\":", i > 0 ? "," : "");
		json_string(j->f, mmsg_name(m, type, i, buf, sizeof(buf)));
		jprintf(j, ",\"%s\":", values);
		jarray(j, v + (adr == NULL ? i : adr[i]), n == NULL ? 1 : n[i]);
		jprintf(j, "}");
	}
}

void
mmsg_controls(struct mmsg *j, const mjModel *m, const mjData *d,
    const struct mmsg_record *r)
{
	jprintf(j, "{");
	jrecord(j, r);
	jprintf(j, ",\"actuators\":[");
	jnamed(j, m, mjOBJ_ACTUATOR, m->nu, "ctrl", d->ctrl, NULL, NULL);
	jprintf(j, "]}");
}

void
mmsg_sensors(struct mmsg *j, const mjModel *m, const mjData *d,
    const struct mmsg_record *r)
{
	jprintf(j, "{");
	jrecord(j, r);
	jprintf(j, ",\"sensors\":[");
	jnamed(j, m, mjOBJ_SENSOR, m->nsensor, "values", d->sensordata,
	    m->sensor_adr, m->sensor_dim);
	jprintf(j, "]}");
}

void
mmsg_contacts(struct mmsg *j, const mjModel *m, const mjData *d,
    const struct mmsg_record *r)
{
	char b1[32], b2[32];
	mjtNum force[6];
	const mjContact *c;
	int i;

	jprintf(j, "{");
	jrecord(j, r);
	jprintf(j, ",\"contacts\":[");
	for (i = 0; i < d->ncon; i++) {
		c = d->contact + i;
		mj_contactForce(m, d, i, force);
		jprintf(j, "%s{\"geom1\":", i > 0 ? "," : "");
		json_string(
		    j->f, mmsg_name(m, mjOBJ_GEOM, c->geom1, b1, sizeof(b1)));
		jprintf(j, ",\"geom2\":");
		json_string(
		    j->f, mmsg_name(m, mjOBJ_GEOM, c->geom2, b2, sizeof(b2)));
		jprintf(j, ",\"dist\":");
		jdouble(j, c->dist);
		jprintf(j, ",");
		jxyz(j, "position", c->pos);
		jprintf(j, ",");
		jxyz(j, "normal", c->frame);
		jprintf(j, ",\"force\":");
		jarray(j, force, 6);
		jprintf(j, "}");
	}
	jprintf(j, "]}");
}

void
mmsg_log(struct mmsg *j, uint64_t ns, int level, const char *text)
{
	jprintf(j, "{");
	jtime(j, "timestamp", ns);
	jprintf(j, ",\"level\":%d,\"message\":", level);
	json_string(j->f, text);
	jprintf(j, ",\"name\":\"haptixd\",\"file\":\"\",\"line\":0}");
}
