/*
 * The model's description in the protocol's terms.
 *
 * This is the one file that sees both MuJoCo and the generated protobuf
 * code: it translates MuJoCo's enumerations into the protocol's own (see
 * proto/haptix.proto) and fills the Info and ModelSummary messages.
 */
#include "config.h"

#include <string.h>

#include "arena.h"
#include "haptix.pb-c.h"
#include "sim.h"
#include "sim_describe.h"
#include "sim_internal.h"

/* The protocol numbers these like MuJoCo 2.2 does; keep it so. */
#define SAME(a, b) _Static_assert((int)(a) == (int)(b), #a " != " #b)
SAME(HAPTIX__V1__OBJ_TYPE__OBJ_BODY, mjOBJ_BODY);
SAME(HAPTIX__V1__OBJ_TYPE__OBJ_XBODY, mjOBJ_XBODY);
SAME(HAPTIX__V1__OBJ_TYPE__OBJ_JOINT, mjOBJ_JOINT);
SAME(HAPTIX__V1__OBJ_TYPE__OBJ_DOF, mjOBJ_DOF);
SAME(HAPTIX__V1__OBJ_TYPE__OBJ_GEOM, mjOBJ_GEOM);
SAME(HAPTIX__V1__OBJ_TYPE__OBJ_SITE, mjOBJ_SITE);
SAME(HAPTIX__V1__OBJ_TYPE__OBJ_CAMERA, mjOBJ_CAMERA);
SAME(HAPTIX__V1__OBJ_TYPE__OBJ_LIGHT, mjOBJ_LIGHT);
SAME(HAPTIX__V1__OBJ_TYPE__OBJ_MESH, mjOBJ_MESH);
SAME(HAPTIX__V1__OBJ_TYPE__OBJ_SKIN, mjOBJ_SKIN);
SAME(HAPTIX__V1__OBJ_TYPE__OBJ_HFIELD, mjOBJ_HFIELD);
SAME(HAPTIX__V1__OBJ_TYPE__OBJ_TEXTURE, mjOBJ_TEXTURE);
SAME(HAPTIX__V1__OBJ_TYPE__OBJ_MATERIAL, mjOBJ_MATERIAL);
SAME(HAPTIX__V1__OBJ_TYPE__OBJ_PAIR, mjOBJ_PAIR);
SAME(HAPTIX__V1__OBJ_TYPE__OBJ_EXCLUDE, mjOBJ_EXCLUDE);
SAME(HAPTIX__V1__OBJ_TYPE__OBJ_EQUALITY, mjOBJ_EQUALITY);
SAME(HAPTIX__V1__OBJ_TYPE__OBJ_TENDON, mjOBJ_TENDON);
SAME(HAPTIX__V1__OBJ_TYPE__OBJ_ACTUATOR, mjOBJ_ACTUATOR);
SAME(HAPTIX__V1__OBJ_TYPE__OBJ_SENSOR, mjOBJ_SENSOR);
SAME(HAPTIX__V1__OBJ_TYPE__OBJ_NUMERIC, mjOBJ_NUMERIC);
SAME(HAPTIX__V1__OBJ_TYPE__OBJ_TEXT, mjOBJ_TEXT);
SAME(HAPTIX__V1__OBJ_TYPE__OBJ_TUPLE, mjOBJ_TUPLE);
SAME(HAPTIX__V1__OBJ_TYPE__OBJ_KEY, mjOBJ_KEY);
SAME(HAPTIX__V1__GEOM_TYPE__GEOM_MESH, mjGEOM_MESH);
SAME(HAPTIX__V1__GEOM_TYPE__GEOM_BOX, mjGEOM_BOX);
SAME(HAPTIX__V1__GEOM_TYPE__GEOM_PLANE, mjGEOM_PLANE);
SAME(HAPTIX__V1__JOINT_TYPE__JOINT_HINGE, mjJNT_HINGE);
SAME(HAPTIX__V1__JOINT_TYPE__JOINT_FREE, mjJNT_FREE);
SAME(HAPTIX__V1__TRN_TYPE__TRN_BODY, mjTRN_BODY);
SAME(HAPTIX__V1__TRN_TYPE__TRN_UNDEFINED, mjTRN_UNDEFINED);
SAME(HAPTIX__V1__EQ_TYPE__EQ_DISTANCE, mjEQ_DISTANCE);
SAME(HAPTIX__V1__EQ_TYPE__EQ_JOINT, mjEQ_JOINT);
#undef SAME

/* MuJoCo 2.2's sensor types in the protocol's (HAPTIX's) numbering. */
static const Haptix__V1__SensorType describe_sensor[] = {
#define S(x) [mjSENS_##x] = HAPTIX__V1__SENSOR_TYPE__SENSOR_##x
	S(TOUCH),
	S(ACCELEROMETER),
	S(VELOCIMETER),
	S(GYRO),
	S(FORCE),
	S(TORQUE),
	S(MAGNETOMETER),
	S(RANGEFINDER),
	S(JOINTPOS),
	S(JOINTVEL),
	S(TENDONPOS),
	S(TENDONVEL),
	S(ACTUATORPOS),
	S(ACTUATORVEL),
	S(ACTUATORFRC),
	S(BALLQUAT),
	S(BALLANGVEL),
	S(JOINTLIMITPOS),
	S(JOINTLIMITVEL),
	S(JOINTLIMITFRC),
	S(TENDONLIMITPOS),
	S(TENDONLIMITVEL),
	S(TENDONLIMITFRC),
	S(FRAMEPOS),
	S(FRAMEQUAT),
	S(FRAMEXAXIS),
	S(FRAMEYAXIS),
	S(FRAMEZAXIS),
	S(FRAMELINVEL),
	S(FRAMEANGVEL),
	S(FRAMELINACC),
	S(FRAMEANGACC),
	S(SUBTREECOM),
	S(SUBTREELINVEL),
	S(SUBTREEANGMOM),
	S(CLOCK),
	S(USER),
#undef S
};
_Static_assert(
    sizeof(describe_sensor) / sizeof(describe_sensor[0]) == mjSENS_USER + 1,
    "a MuJoCo sensor type has no protocol number");

void
sim_describe_summary(const struct sim *s, Haptix__V1__ModelSummary *out)
{
	const struct sim_sizes *z = &s->sizes;

	haptix__v1__model_summary__init(out);
	if (s->m == NULL)
		return;
	out->name = (char *)s->name;
	out->path = (char *)s->path;
	out->nq = (uint32_t)z->nq;
	out->nv = (uint32_t)z->nv;
	out->na = (uint32_t)z->na;
	out->nu = (uint32_t)z->nu;
	out->nbody = (uint32_t)z->nbody;
	out->njnt = (uint32_t)z->njnt;
	out->ngeom = (uint32_t)z->ngeom;
	out->nsite = (uint32_t)z->nsite;
	out->ntendon = (uint32_t)z->ntendon;
	out->neq = (uint32_t)z->neq;
	out->nkey = (uint32_t)z->nkey;
	out->nmocap = (uint32_t)z->nmocap;
	out->nsensor = (uint32_t)z->nsensor;
	out->nsensordata = (uint32_t)z->nsensordata;
	out->nmat = (uint32_t)z->nmat;
	out->timestep = z->timestep;
	out->apirate = z->apirate;
}

/* Copy n ints into an arena array. */
static int32_t *
describe_ints(struct arena *a, const int *src, int n)
{
	int32_t *p = arena_alloc(a, (size_t)n * sizeof(*p));

	memcpy(p, src, (size_t)n * sizeof(*p));
	return p;
}

/* Copy n bytes as booleans into an arena array. */
static protobuf_c_boolean *
describe_bools(struct arena *a, const mjtByte *src, int n)
{
	protobuf_c_boolean *p = arena_alloc(a, (size_t)n * sizeof(*p));
	int i;

	for (i = 0; i < n; i++)
		p[i] = src[i] != 0;
	return p;
}

/* The names of n objects of a type, "" where unnamed. */
static char **
describe_names(struct arena *a, const mjModel *m, int objtype, int n)
{
	char **p = arena_alloc(a, (size_t)n * sizeof(*p));
	const char *name;
	int i;

	for (i = 0; i < n; i++) {
		name = mj_id2name(m, objtype, i);
		p[i] = (char *)(name != NULL ? name : "");
	}
	return p;
}

void
sim_describe_info(const struct sim *s, struct arena *a, Haptix__V1__Info *out)
{
	const mjModel *m = s->m;
	Haptix__V1__ModelSummary *sum;
	int i;

	haptix__v1__info__init(out);
	sum = arena_alloc(a, sizeof(*sum));
	sim_describe_summary(s, sum);
	out->model = sum;

#define INTS(field, src, n) \
	out->n_##field = (size_t)(n); \
	out->field = describe_ints(a, (src), (n))
#define ENUMS(field, type, src, n) \
	out->n_##field = (size_t)(n); \
	out->field = (type *)(void *)describe_ints(a, (src), (n))
#define DBLS(field, src, n) \
	out->n_##field = (size_t)(n); \
	out->field = (double *)(src)
#define NAMES(field, objtype, n) \
	out->n_##field = (size_t)(n); \
	out->field = describe_names(a, m, (objtype), (n))

	out->n_sensor_type = (size_t)m->nsensor;
	out->sensor_type = arena_alloc(
	    a, (size_t)m->nsensor * sizeof(*out->sensor_type));
	for (i = 0; i < m->nsensor; i++)
		out->sensor_type[i] = describe_sensor[m->sensor_type[i]];
	INTS(sensor_datatype, m->sensor_datatype, m->nsensor);
	ENUMS(
	    sensor_objtype, Haptix__V1__ObjType, m->sensor_objtype, m->nsensor);
	INTS(sensor_objid, m->sensor_objid, m->nsensor);
	INTS(sensor_dim, m->sensor_dim, m->nsensor);
	INTS(sensor_adr, m->sensor_adr, m->nsensor);
	DBLS(sensor_noise, m->sensor_noise, m->nsensor);

	ENUMS(jnt_type, Haptix__V1__JointType, m->jnt_type, m->njnt);
	INTS(jnt_bodyid, m->jnt_bodyid, m->njnt);
	INTS(jnt_qposadr, m->jnt_qposadr, m->njnt);
	INTS(jnt_dofadr, m->jnt_dofadr, m->njnt);
	out->n_jnt_limited = (size_t)m->njnt;
	out->jnt_limited = describe_bools(a, m->jnt_limited, m->njnt);
	DBLS(jnt_range, m->jnt_range, 2 * m->njnt);

	ENUMS(geom_type, Haptix__V1__GeomType, m->geom_type, m->ngeom);
	INTS(geom_bodyid, m->geom_bodyid, m->ngeom);

	ENUMS(eq_type, Haptix__V1__EqType, m->eq_type, m->neq);
	INTS(eq_obj1id, m->eq_obj1id, m->neq);
	INTS(eq_obj2id, m->eq_obj2id, m->neq);

	ENUMS(
	    actuator_trntype, Haptix__V1__TrnType, m->actuator_trntype, m->nu);
	INTS(actuator_trnid, m->actuator_trnid, 2 * m->nu);
	out->n_actuator_ctrllimited = (size_t)m->nu;
	out->actuator_ctrllimited = describe_bools(
	    a, m->actuator_ctrllimited, m->nu);
	DBLS(actuator_ctrlrange, m->actuator_ctrlrange, 2 * m->nu);

	INTS(body_parentid, m->body_parentid, m->nbody);
	INTS(body_mocapid, m->body_mocapid, m->nbody);

	NAMES(body_name, mjOBJ_BODY, m->nbody);
	NAMES(jnt_name, mjOBJ_JOINT, m->njnt);
	NAMES(geom_name, mjOBJ_GEOM, m->ngeom);
	NAMES(site_name, mjOBJ_SITE, m->nsite);
	NAMES(tendon_name, mjOBJ_TENDON, m->ntendon);
	NAMES(actuator_name, mjOBJ_ACTUATOR, m->nu);
	NAMES(sensor_name, mjOBJ_SENSOR, m->nsensor);
	NAMES(eq_name, mjOBJ_EQUALITY, m->neq);
	NAMES(key_name, mjOBJ_KEY, m->nkey);
	NAMES(mat_name, mjOBJ_MATERIAL, m->nmat);
#undef INTS
#undef ENUMS
#undef DBLS
#undef NAMES
}
