/*
 * What MuJoCo 2.2.2 does not check in a model it reads, checked before
 * the first mj_forward on it.
 *
 * mj_loadModel checks the sizes of an MJB and that addresses and ids of
 * most references lie inside their arrays (mj_validateReferences).  It
 * does not check enumerations: a geom type of 100 indexes MuJoCo's
 * collision table out of bounds and calls through whatever is there.  Nor
 * the trees' order (a parent after its child makes a cycle that the
 * engine's walks up the tree never leave), nor the contents of mesh
 * faces and convex-hull graphs, nor the transmissions MuJoCo added after
 * its check was written.  A model compiled from XML never has these
 * faults; an MJB may be written by anyone.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>

#include "sim_check.h"
#include "sim_internal.h"

static int check_fail(char *, size_t, const char *, ...)
    __attribute__((format(printf, 3, 4)));
static int check_enums(const mjModel *, char *, size_t);
static int check_trees(const mjModel *, char *, size_t);
static int check_objects(const mjModel *, char *, size_t);
static int check_meshes(const mjModel *, char *, size_t);

/* Say what is wrong; returns -1. */
static int
check_fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(err, len, "invalid model: ");
	if (n < 0 || (size_t)n >= len)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err + n, len - n, fmt, ap);
	va_end(ap);
	return -1;
}

/* Return 1 if v lies in [lo, hi). */
static int
check_in(int v, int lo, int hi)
{
	return v >= lo && v < hi;
}

/* Every enumeration the engine switches on or indexes a table with. */
static int
check_enums(const mjModel *m, char *err, size_t len)
{
	int i;

	if (!check_in(m->opt.integrator, mjINT_EULER, mjINT_IMPLICIT + 1))
		return check_fail(err, len, "integrator %d", m->opt.integrator);
	if (!check_in(m->opt.cone, mjCONE_PYRAMIDAL, mjCONE_ELLIPTIC + 1))
		return check_fail(err, len, "cone %d", m->opt.cone);
	if (!check_in(m->opt.jacobian, mjJAC_DENSE, mjJAC_AUTO + 1))
		return check_fail(err, len, "jacobian %d", m->opt.jacobian);
	if (!check_in(m->opt.solver, mjSOL_PGS, mjSOL_NEWTON + 1))
		return check_fail(err, len, "solver %d", m->opt.solver);
	if (!check_in(m->opt.collision, mjCOL_ALL, mjCOL_DYNAMIC + 1))
		return check_fail(err, len, "collision %d", m->opt.collision);
	for (i = 0; i < m->ngeom; i++) {
		if (!check_in(m->geom_type[i], 0, mjNGEOMTYPES))
			return check_fail(err, len, "geom %d has type %d", i,
			    m->geom_type[i]);
		if (!check_in(m->geom_condim[i], 1, 7) ||
		    m->geom_condim[i] == 2 || m->geom_condim[i] == 5)
			return check_fail(err, len, "geom %d has condim %d", i,
			    m->geom_condim[i]);
	}
	for (i = 0; i < m->ncam; i++)
		if (!check_in(m->cam_mode[i], 0, mjCAMLIGHT_TARGETBODYCOM + 1))
			return check_fail(err, len, "camera %d has mode %d", i,
			    m->cam_mode[i]);
	for (i = 0; i < m->nlight; i++)
		if (!check_in(
			m->light_mode[i], 0, mjCAMLIGHT_TARGETBODYCOM + 1))
			return check_fail(err, len, "light %d has mode %d", i,
			    m->light_mode[i]);
	for (i = 0; i < m->ntex; i++)
		if (!check_in(m->tex_type[i], 0, mjTEXTURE_SKYBOX + 1))
			return check_fail(err, len, "texture %d has type %d", i,
			    m->tex_type[i]);
	for (i = 0; i < m->neq; i++)
		if (!check_in(m->eq_type[i], 0, mjEQ_DISTANCE + 1))
			return check_fail(err, len, "equality %d has type %d",
			    i, m->eq_type[i]);
	for (i = 0; i < m->nwrap; i++)
		if (!check_in(m->wrap_type[i], 0, mjWRAP_CYLINDER + 1))
			return check_fail(err, len, "wrap %d has type %d", i,
			    m->wrap_type[i]);
	for (i = 0; i < m->nu; i++) {
		if (!check_in(m->actuator_trntype[i], 0, mjTRN_BODY + 1))
			return check_fail(err, len,
			    "actuator %d has transmission %d", i,
			    m->actuator_trntype[i]);
		if (!check_in(m->actuator_dyntype[i], 0, mjDYN_USER + 1) ||
		    !check_in(m->actuator_gaintype[i], 0, mjGAIN_USER + 1) ||
		    !check_in(m->actuator_biastype[i], 0, mjBIAS_USER + 1))
			return check_fail(err, len,
			    "actuator %d has dynamics, gain or bias type "
			    "%d, %d, %d",
			    i, m->actuator_dyntype[i], m->actuator_gaintype[i],
			    m->actuator_biastype[i]);
	}
	for (i = 0; i < m->nsensor; i++) {
		if (!check_in(
			m->sensor_datatype[i], 0, mjDATATYPE_QUATERNION + 1) ||
		    !check_in(m->sensor_needstage[i], 0, mjSTAGE_ACC + 1))
			return check_fail(err, len,
			    "sensor %d has data type %d, stage %d", i,
			    m->sensor_datatype[i], m->sensor_needstage[i]);
	}
	return 0;
}

/*
 * Parents come before their children, so that every walk up a tree
 * ends at the world (body 0) or at a root dof (-1).
 */
static int
check_trees(const mjModel *m, char *err, size_t len)
{
	int i;

	if (m->nbody < 1 || m->body_parentid[0] != 0)
		return check_fail(err, len, "no world body");
	for (i = 1; i < m->nbody; i++) {
		if (!check_in(m->body_parentid[i], 0, i) ||
		    !check_in(m->body_rootid[i], 0, i + 1) ||
		    !check_in(m->body_weldid[i], 0, i + 1))
			return check_fail(err, len,
			    "body %d names parent %d, root %d, weld %d", i,
			    m->body_parentid[i], m->body_rootid[i],
			    m->body_weldid[i]);
	}
	for (i = 0; i < m->nv; i++) {
		if (!check_in(m->dof_parentid[i], -1, i))
			return check_fail(err, len, "dof %d names parent %d", i,
			    m->dof_parentid[i]);
		if (!check_in(m->dof_simplenum[i], 0, m->nv - i + 1))
			return check_fail(err, len, "dof %d: simplenum %d", i,
			    m->dof_simplenum[i]);
	}
	return 0;
}

/* The ids mj_validateReferences leaves out. */
static int
check_objects(const mjModel *m, char *err, size_t len)
{
	int i, id;

	for (i = 0; i < m->ngeom; i++) {
		id = m->geom_dataid[i];
		if (id != -1 &&
		    !(m->geom_type[i] == mjGEOM_MESH &&
			check_in(id, 0, m->nmesh)) &&
		    !(m->geom_type[i] == mjGEOM_HFIELD &&
			check_in(id, 0, m->nhfield)))
			return check_fail(
			    err, len, "geom %d names data %d", i, id);
		if ((m->geom_type[i] == mjGEOM_MESH ||
			m->geom_type[i] == mjGEOM_HFIELD) &&
		    id == -1)
			return check_fail(
			    err, len, "geom %d has no mesh or height field", i);
	}
	for (i = 0; i < m->nmat; i++)
		if (!check_in(m->mat_texid[i], -1, m->ntex))
			return check_fail(err, len,
			    "material %d names texture %d", i, m->mat_texid[i]);
	for (i = 0; i < m->nhfield; i++)
		if (m->hfield_nrow[i] < 2 || m->hfield_ncol[i] < 2)
			return check_fail(err, len,
			    "height field %d is %d x %d", i, m->hfield_nrow[i],
			    m->hfield_ncol[i]);
	for (i = 0; i < m->ntex; i++)
		if (m->tex_width[i] < 1 || m->tex_height[i] < 1)
			return check_fail(err, len, "texture %d is %d x %d", i,
			    m->tex_width[i], m->tex_height[i]);
	for (i = 0; i < m->nu; i++) {
		id = m->actuator_trnid[2 * i];
		if (m->actuator_trntype[i] == mjTRN_BODY &&
		    !check_in(id, 0, m->nbody))
			return check_fail(
			    err, len, "actuator %d names body %d", i, id);
	}
	for (i = 0; i < m->nsensor; i++)
		if (m->sensor_dim[i] < 0 || m->sensor_dim[i] > m->nsensordata)
			return check_fail(err, len,
			    "sensor %d has dimension %d", i, m->sensor_dim[i]);
	for (i = 0; i < m->nkey; i++)
		if (m->key_time[i] != m->key_time[i])
			return check_fail(err, len, "key %d has no time", i);
	return 0;
}

/*
 * Mesh faces index their mesh's vertices, and the convex-hull graph
 * (collisions walk it) indexes itself: numvert, numface, then
 * vert_edgeadr and vert_globalid (numvert each), edge_localid (numvert +
 * 3 x numface: lists of local vertices, each ended by -1) and
 * face_globalid (3 x numface), as MuJoCo's compiler lays it out.
 */
static int
check_meshes(const mjModel *m, char *err, size_t len)
{
	const int *g, *edgeadr, *globalid, *localid, *face;
	int i, j, nv, nf, nvert, size, nedge;

	for (i = 0; i < m->nmesh; i++) {
		nvert = m->mesh_vertnum[i];
		for (j = 0; j < 3 * m->mesh_facenum[i]; j++)
			if (!check_in(m->mesh_face[3 * m->mesh_faceadr[i] + j],
				0, nvert))
				return check_fail(err, len,
				    "mesh %d: a face names vertex %d", i,
				    m->mesh_face[3 * m->mesh_faceadr[i] + j]);
		if (m->mesh_graphadr[i] < 0)
			continue;
		g = m->mesh_graph + m->mesh_graphadr[i];
		size = m->nmeshgraph - m->mesh_graphadr[i];
		if (size < 2)
			return check_fail(
			    err, len, "mesh %d: graph cut short", i);
		nv = g[0];
		nf = g[1];
		if (nv < 1 || nf < 0 || nv > nvert ||
		    2L + 3L * nv + 6L * nf > size)
			return check_fail(err, len,
			    "mesh %d: graph of %d vertices, %d faces", i, nv,
			    nf);
		nedge = nv + 3 * nf;
		edgeadr = g + 2;
		globalid = edgeadr + nv;
		localid = globalid + nv;
		face = localid + nedge;
		if (nedge < 1 || localid[nedge - 1] != -1)
			return check_fail(err, len, "mesh %d: graph edges", i);
		for (j = 0; j < nv; j++)
			if (!check_in(edgeadr[j], 0, nedge) ||
			    !check_in(globalid[j], 0, nvert))
				return check_fail(
				    err, len, "mesh %d: graph vertex %d", i, j);
		for (j = 0; j < nedge; j++)
			if (!check_in(localid[j], -1, nv))
				return check_fail(
				    err, len, "mesh %d: graph edge %d", i, j);
		for (j = 0; j < 3 * nf; j++)
			if (!check_in(face[j], 0, nvert))
				return check_fail(err, len,
				    "mesh %d: graph face %d", i, j / 3);
	}
	return 0;
}

int
sim_check_model(const mjModel *m, char *err, size_t len)
{
	if (check_enums(m, err, len) != 0 || check_trees(m, err, len) != 0 ||
	    check_objects(m, err, len) != 0 || check_meshes(m, err, len) != 0)
		return -1;
	return 0;
}

int
sim_check_limits(
    const struct sim *s, const struct sim_limits *l, char *err, size_t len)
{
	const mjModel *m = s->m;
	int i;

	if (m->nbody > l->bodies) {
		snprintf(err, len,
		    "the model has %d bodies, more than %lld (model-max-bodies)",
		    m->nbody, (long long)l->bodies);
		return -1;
	}
	if (m->nkey > l->keys) {
		snprintf(err, len,
		    "the model has %d keys, more than %lld (model-max-keys)",
		    m->nkey, (long long)l->keys);
		return -1;
	}
	for (i = 0; i < m->nhfield; i++)
		if ((int64_t)m->hfield_nrow[i] * m->hfield_ncol[i] >
		    l->hfield_cells) {
			snprintf(err, len,
			    "height field %d has %d x %d cells, more than "
			    "%lld (model-max-hfield)",
			    i, m->hfield_nrow[i], m->hfield_ncol[i],
			    (long long)l->hfield_cells);
			return -1;
		}
	for (i = 0; i < m->ntex; i++)
		if ((int64_t)m->tex_width[i] * m->tex_height[i] >
		    l->texture_pixels) {
			snprintf(err, len,
			    "texture %d has %d x %d pixels, more than %lld "
			    "(model-max-texture)",
			    i, m->tex_width[i], m->tex_height[i],
			    (long long)l->texture_pixels);
			return -1;
		}
	if (m->nmeshvert > l->mesh_vertices) {
		snprintf(err, len,
		    "the meshes have %d vertices, more than %lld "
		    "(model-max-mesh-vertices)",
		    m->nmeshvert, (long long)l->mesh_vertices);
		return -1;
	}
	return 0;
}
