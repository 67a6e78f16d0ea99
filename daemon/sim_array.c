/*
 * Every numeric array of mjModel and mjData (and mjData's time, and each
 * field of the model's mjOption as "opt.NAME") by its MuJoCo name, shaped
 * for the loaded model, and the rules for which of them a client may
 * write between steps.  The table is MuJoCo's own (mjxmacro.h), so it
 * follows the installed version; the write rules below are ours, read
 * from MuJoCo 2.2's engine (engine_forward.c, engine_setconst.c,
 * engine_core_smooth.c, engine_core_constraint.c, engine_collision_*.c,
 * engine_passive.c, engine_solver.c).
 */
#include "config.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <mujoco/mjxmacro.h>
#include <mujoco/mujoco.h>

#include "sim.h"
#include "sim_array.h"
#include "sim_internal.h"
#include "sim_state.h"

enum sim_array_owner {
	SIM_OWNER_MODEL,
	SIM_OWNER_DATA,
};

/* Element types this interface does not serve: mjContact, char (text). */
#define SIM_ARRAY_OTHER (-1)

/*
 * The rows_at of a member held in mjModel or mjData itself rather than
 * pointed to: one row of the def's cols (time, the mjOption fields).
 */
#define SIM_INLINE ((size_t)-1)

/* One member of mjModel or mjData, as mjxmacro.h lists it. */
struct sim_array_def {
	const char *name;
	unsigned char owner; /* enum sim_array_owner */
	signed char type;    /* enum sim_array_type, or SIM_ARRAY_OTHER */
	size_t offset;       /* of the pointer (inline: the values) */
	size_t rows_at;      /* of the row count in mjModel, or SIM_INLINE */
	unsigned char cols;  /* SIM_INLINE: the values in its one row */
};

#define SIM_TYPE_OF(p) \
	_Generic((p), mjtNum *: SIM_ARRAY_DOUBLE, float *: SIM_ARRAY_FLOAT, \
	    int *: SIM_ARRAY_INT, mjtByte *: SIM_ARRAY_BYTE, \
	    default: SIM_ARRAY_OTHER)

static const struct sim_array_def sim_array_defs[] = {
#define X(type, name, nr, nc) \
	{ #name, SIM_OWNER_MODEL, SIM_TYPE_OF((type *)0), \
		offsetof(mjModel, name), offsetof(mjModel, nr), 0 },
	MJMODEL_POINTERS
#undef X
#define X(type, name, nr, nc) \
	{ #name, SIM_OWNER_DATA, SIM_TYPE_OF((type *)0), \
		offsetof(mjData, name), offsetof(mjModel, nr), 0 },
	    MJDATA_POINTERS
#undef X
	/* The one scalar: a reset sets it, a replay must too. */
	{ "time", SIM_OWNER_DATA, SIM_ARRAY_DOUBLE, offsetof(mjData, time),
	    SIM_INLINE, 1 },
/* The model's options, mjOption's fields: 1 x 1, or 1 x n. */
#define X(type, name) \
	{ "opt." #name, SIM_OWNER_MODEL, SIM_TYPE_OF((type *)0), \
		offsetof(mjModel, opt) + offsetof(mjOption, name), SIM_INLINE, \
		1 },
	MJOPTION_SCALARS
#undef X
#define X(name, n) \
	{ "opt." #name, SIM_OWNER_MODEL, SIM_ARRAY_DOUBLE, \
		offsetof(mjModel, opt) + offsetof(mjOption, name), SIM_INLINE, \
		n },
	    MJOPTION_VECTORS
#undef X
};

#define SIM_NDEFS (sizeof(sim_array_defs) / sizeof(sim_array_defs[0]))

/* The defs of numeric arrays, by id; filled on first use. */
static unsigned short sim_array_ids[SIM_NDEFS];
static int sim_array_nids;

/* What a write must bring up to date. */
enum sim_array_after {
	SIM_AFTER_NONE, /* read where it is used (next step, reset, viewer) */
	SIM_AFTER_CTRL, /* the controls: servo references forget motion */
	SIM_AFTER_FORWARD,  /* mj_forward, so derived quantities agree */
	SIM_AFTER_SETCONST, /* mj_setConst at qpos0, then mj_forward */
};

/* The values an array takes, beyond those of its type. */
enum sim_array_domain {
	SIM_DOMAIN_ANY,
	SIM_DOMAIN_NONNEG,   /* >= 0 */
	SIM_DOMAIN_UNIT,     /* 0 to 1: colours */
	SIM_DOMAIN_BOOL,     /* 0 or 1: flags */
	SIM_DOMAIN_RANGE,    /* rows of (lower, upper) with lower <= upper */
	SIM_DOMAIN_QUAT,     /* rows of 4, not all zero */
	SIM_DOMAIN_POSITIVE, /* > 0 */
	SIM_DOMAIN_BOUNDED,  /* the rule's lo to hi, said by its want */
	SIM_DOMAIN_BITS,     /* only bits of the rule's hi: flags */
	SIM_DOMAIN_SOLREF,   /* rows of 2 of one sign: (> 0) or (<= 0) */
	SIM_DOMAIN_SOLIMP,   /* rows of 5 within MuJoCo's clamps */
};

/* Whether and how an array may be written. */
struct sim_array_rule {
	const char *name; /* an array's name, or a prefix ending in '*' */
	unsigned char owner, after, domain;
	const char *deny; /* NULL: writable */
	double lo, hi;    /* SIM_DOMAIN_BOUNDED, SIM_DOMAIN_BITS (hi) */
	const char *want; /* what those take, for a refusal */
};

#define WHY_COMPUTED \
	"computed from the state by mj_forward and mj_step; a write would " \
	"be overwritten at the next step"
#define WHY_STRUCTURE \
	"model structure: ids, addresses, counts, types and compiled flags " \
	"are fixed when MuJoCo compiles the model"
#define WHY_SETCONST \
	"computed by mj_setConst from the rest of the model (the daemon " \
	"recomputes it after writes of body_mass, body_inertia and " \
	"dof_armature)"
#define WHY_GEOMETRY \
	"model geometry: compiled flags (body_simple, *_sameframe) and " \
	"mj_setConst's quantities depend on it; move bodies through qpos or " \
	"mocap_pos instead"
#define WHY_ASSET \
	"asset data: compiled once into collision and rendering structures"
#define WHY_UNKNOWN \
	"not among the parameters known to be safe to change between steps"

/*
 * The most solver, noslip and MPR iterations a write sets: simulate's
 * cap, and the solver statistics MuJoCo keeps (mjNSOLVER).
 */
#define SIM_MAX_ITERATIONS 1000

#define M SIM_OWNER_MODEL
#define D SIM_OWNER_DATA
#define W(owner, name, after, domain) \
	{ \
		name, owner, SIM_AFTER_##after, SIM_DOMAIN_##domain, NULL, 0, \
		    0, NULL \
	}
#define DENY(owner, name, why) \
	{ \
		name, owner, 0, 0, why, 0, 0, NULL \
	}
#define WB(name, after, domain, lo, hi, want) \
	{ \
		name, M, SIM_AFTER_##after, SIM_DOMAIN_##domain, NULL, lo, hi, \
		    want \
	}

/*
 * The rules, first match wins; arrays without one are refused with
 * WHY_COMPUTED (data), WHY_STRUCTURE (model ints and bytes) or
 * WHY_UNKNOWN (other model arrays).
 */
static const struct sim_array_rule sim_array_rules[] = {
	/*
	 * The inputs of mjData.  The state (qpos, qvel, act, mocap) is
	 * followed by mj_forward, as sim_set_state() does; ctrl and the
	 * applied forces are read at the next step, as set_control and
	 * set_applied leave them.  qacc_warmstart is the solver's starting
	 * point: mj_forward would overwrite it, so nothing follows.
	 * userdata is never read by MuJoCo.  time, the one scalar served,
	 * is read by nothing in the physics; resets set it.
	 */
	W(D, "qpos", FORWARD, ANY),
	W(D, "qvel", FORWARD, ANY),
	W(D, "act", FORWARD, ANY),
	W(D, "mocap_pos", FORWARD, ANY),
	W(D, "mocap_quat", FORWARD, QUAT),
	W(D, "ctrl", CTRL, ANY),
	W(D, "qfrc_applied", NONE, ANY),
	W(D, "xfrc_applied", NONE, ANY),
	W(D, "qacc_warmstart", NONE, ANY),
	W(D, "userdata", NONE, ANY),
	W(D, "time", NONE, ANY),

	/*
	 * Parameters MuJoCo reads afresh at every step and from which
	 * nothing is precomputed (solref and solimp are clamped where they
	 * are used).  mj_forward follows so that forces and contacts agree.
	 */
	W(M, "geom_contype", FORWARD, ANY),
	W(M, "geom_conaffinity", FORWARD, ANY),
	W(M, "geom_solmix", FORWARD, NONNEG),
	W(M, "geom_solref", FORWARD, ANY),
	W(M, "geom_solimp", FORWARD, ANY),
	W(M, "geom_friction", FORWARD, NONNEG),
	W(M, "geom_margin", FORWARD, NONNEG),
	W(M, "geom_gap", FORWARD, NONNEG),
	W(M, "pair_solref", FORWARD, ANY),
	W(M, "pair_solimp", FORWARD, ANY),
	W(M, "pair_margin", FORWARD, NONNEG),
	W(M, "pair_gap", FORWARD, NONNEG),
	W(M, "pair_friction", FORWARD, NONNEG),
	W(M, "qpos_spring", FORWARD, ANY),
	W(M, "jnt_limited", FORWARD, BOOL),
	W(M, "jnt_solref", FORWARD, ANY),
	W(M, "jnt_solimp", FORWARD, ANY),
	W(M, "jnt_stiffness", FORWARD, NONNEG),
	W(M, "jnt_range", FORWARD, RANGE),
	W(M, "jnt_margin", FORWARD, NONNEG),
	W(M, "dof_solref", FORWARD, ANY),
	W(M, "dof_solimp", FORWARD, ANY),
	W(M, "dof_frictionloss", FORWARD, NONNEG),
	W(M, "dof_damping", FORWARD, NONNEG),
	W(M, "tendon_limited", FORWARD, BOOL),
	W(M, "tendon_solref_lim", FORWARD, ANY),
	W(M, "tendon_solimp_lim", FORWARD, ANY),
	W(M, "tendon_solref_fri", FORWARD, ANY),
	W(M, "tendon_solimp_fri", FORWARD, ANY),
	W(M, "tendon_range", FORWARD, RANGE),
	W(M, "tendon_margin", FORWARD, NONNEG),
	W(M, "tendon_stiffness", FORWARD, NONNEG),
	W(M, "tendon_damping", FORWARD, NONNEG),
	W(M, "tendon_frictionloss", FORWARD, NONNEG),
	W(M, "tendon_lengthspring", FORWARD, ANY),
	W(M, "eq_active", FORWARD, BOOL),
	W(M, "eq_solref", FORWARD, ANY),
	W(M, "eq_solimp", FORWARD, ANY),
	W(M, "eq_data", FORWARD, ANY),
	W(M, "actuator_ctrllimited", FORWARD, BOOL),
	W(M, "actuator_forcelimited", FORWARD, BOOL),
	W(M, "actuator_actlimited", FORWARD, BOOL),
	W(M, "actuator_dynprm", FORWARD, ANY),
	W(M, "actuator_gainprm", FORWARD, ANY),
	W(M, "actuator_biasprm", FORWARD, ANY),
	W(M, "actuator_ctrlrange", FORWARD, RANGE),
	W(M, "actuator_forcerange", FORWARD, RANGE),
	W(M, "actuator_actrange", FORWARD, RANGE),
	W(M, "sensor_cutoff", FORWARD, NONNEG),
	W(M, "sensor_noise", FORWARD, NONNEG),

	/*
	 * Masses and armature also enter quantities mj_setConst computes at
	 * qpos0: the mass matrix rows of "simple" dofs come from dof_M0, and
	 * the invweight0 arrays scale constraint softness.  A write is
	 * followed by mj_setConst (with the state kept) and mj_forward.
	 */
	W(M, "body_mass", SETCONST, NONNEG),
	W(M, "body_inertia", SETCONST, NONNEG),
	W(M, "dof_armature", SETCONST, NONNEG),

	/* Appearance: read by viewers only. */
	W(M, "geom_rgba", NONE, UNIT),
	W(M, "site_rgba", NONE, UNIT),
	W(M, "skin_rgba", NONE, UNIT),
	W(M, "tendon_rgba", NONE, UNIT),
	W(M, "mat_rgba", NONE, UNIT),
	W(M, "mat_emission", NONE, UNIT),
	W(M, "mat_specular", NONE, UNIT),
	W(M, "mat_shininess", NONE, UNIT),
	W(M, "mat_reflectance", NONE, UNIT),

	/* Users' parameters, never read by MuJoCo. */
	W(M, "body_user", NONE, ANY),
	W(M, "jnt_user", NONE, ANY),
	W(M, "geom_user", NONE, ANY),
	W(M, "site_user", NONE, ANY),
	W(M, "cam_user", NONE, ANY),
	W(M, "tendon_user", NONE, ANY),
	W(M, "actuator_user", NONE, ANY),
	W(M, "sensor_user", NONE, ANY),
	W(M, "numeric_data", NONE, ANY),

	/* Keyframes: read only by a reset to them. */
	W(M, "key_time", NONE, ANY),
	W(M, "key_qpos", NONE, ANY),
	W(M, "key_qvel", NONE, ANY),
	W(M, "key_act", NONE, ANY),
	W(M, "key_mpos", NONE, ANY),
	W(M, "key_mquat", NONE, ANY),
	W(M, "key_ctrl", NONE, ANY),

	/*
	 * The model's options (mjOption): each is read afresh where it is
	 * used, at every step, and nothing is precomputed from it (the
	 * compiler's mj_setConst reads none of them), so mj_forward
	 * follows, as for the parameters above; the timestep and the API
	 * rate are also the daemon's pacing (sim_array_rates()).  The
	 * enumerations and flags take only what MuJoCo defines (the engine
	 * indexes tables and switches on them unchecked; sim_check.c checks
	 * a model's at load); the iterations are capped as simulate caps
	 * them (a step cannot be interrupted, and each iteration costs a
	 * solve); solref and solimp take what MuJoCo would not replace or
	 * clamp (engine_core_constraint.c, getsolparam).  A value the model
	 * was loaded with is taken too (sim_array_check_value).
	 */
	WB("opt.timestep", FORWARD, BOUNDED, 1e-6, 1,
	    "the timestep is from 1e-6 to 1 s"),
	WB("opt.apirate", NONE, BOUNDED, 0, 1e6,
	    "the API rate is from 0 to 1e6 Hz (below 1: no API tick)"),
	W(M, "opt.impratio", FORWARD, POSITIVE),
	W(M, "opt.tolerance", FORWARD, NONNEG),
	W(M, "opt.noslip_tolerance", FORWARD, NONNEG),
	W(M, "opt.mpr_tolerance", FORWARD, NONNEG),
	W(M, "opt.density", FORWARD, NONNEG),
	W(M, "opt.viscosity", FORWARD, NONNEG),
	W(M, "opt.o_margin", FORWARD, NONNEG),
	WB("opt.integrator", FORWARD, BOUNDED, mjINT_EULER, mjINT_IMPLICIT,
	    "the integrator is 0 (Euler), 1 (RK4) or 2 (implicit)"),
	WB("opt.collision", FORWARD, BOUNDED, mjCOL_ALL, mjCOL_DYNAMIC,
	    "collision is 0 (all), 1 (pair) or 2 (dynamic)"),
	WB("opt.cone", FORWARD, BOUNDED, mjCONE_PYRAMIDAL, mjCONE_ELLIPTIC,
	    "the cone is 0 (pyramidal) or 1 (elliptic)"),
	WB("opt.jacobian", FORWARD, BOUNDED, mjJAC_DENSE, mjJAC_AUTO,
	    "the Jacobian is 0 (dense), 1 (sparse) or 2 (auto)"),
	WB("opt.solver", FORWARD, BOUNDED, mjSOL_PGS, mjSOL_NEWTON,
	    "the solver is 0 (PGS), 1 (CG) or 2 (Newton)"),
	WB("opt.iterations", FORWARD, BOUNDED, 0, SIM_MAX_ITERATIONS,
	    "iterations are from 0 to 1000"),
	WB("opt.noslip_iterations", FORWARD, BOUNDED, 0, SIM_MAX_ITERATIONS,
	    "iterations are from 0 to 1000"),
	WB("opt.mpr_iterations", FORWARD, BOUNDED, 0, SIM_MAX_ITERATIONS,
	    "iterations are from 0 to 1000"),
	WB("opt.disableflags", FORWARD, BITS, 0, (1 << mjNDISABLE) - 1,
	    "the disable flags are bits 0 to 12 (mjtDisableBit: constraint, "
	    "equality, frictionloss, limit, contact, passive, gravity, "
	    "clampctrl, warmstart, filterparent, actuation, refsafe, sensor)"),
	WB("opt.enableflags", FORWARD, BITS, 0, (1 << mjNENABLE) - 1,
	    "the enable flags are bits 0 to 4 (mjtEnableBit: override, "
	    "energy, fwdinv, sensornoise, multiccd)"),
	W(M, "opt.gravity", FORWARD, ANY),
	W(M, "opt.wind", FORWARD, ANY),
	W(M, "opt.magnetic", FORWARD, ANY),
	W(M, "opt.o_solref", FORWARD, SOLREF),
	W(M, "opt.o_solimp", FORWARD, SOLIMP),

	/* Refused with a specific reason. */
	DENY(M, "geom_size",
	    "use set_geomsize: it checks the size against the geom's type "
	    "and keeps geom_rbound consistent"),
	DENY(M, "geom_rbound",
	    "computed from geom_size by the compiler; set_geomsize keeps it "
	    "consistent"),
	DENY(M, "geom_fluid",
	    "computed by the compiler from the geom's shape and mass"),
	DENY(M, "qpos0",
	    "the reference configuration at which mj_setConst computes the "
	    "model's constant quantities"),
	DENY(M, "body_subtreemass", WHY_SETCONST),
	DENY(M, "body_invweight0", WHY_SETCONST),
	DENY(M, "dof_invweight0", WHY_SETCONST),
	DENY(M, "dof_M0", WHY_SETCONST),
	DENY(M, "tendon_length0", WHY_SETCONST),
	DENY(M, "tendon_invweight0", WHY_SETCONST),
	DENY(M, "actuator_acc0", WHY_SETCONST),
	DENY(M, "actuator_length0", WHY_SETCONST),
	DENY(M, "cam_poscom0", WHY_SETCONST),
	DENY(M, "cam_pos0", WHY_SETCONST),
	DENY(M, "cam_mat0", WHY_SETCONST),
	DENY(M, "light_poscom0", WHY_SETCONST),
	DENY(M, "light_pos0", WHY_SETCONST),
	DENY(M, "light_dir0", WHY_SETCONST),
	DENY(M, "body_pos", WHY_GEOMETRY),
	DENY(M, "body_quat", WHY_GEOMETRY),
	DENY(M, "body_ipos", WHY_GEOMETRY),
	DENY(M, "body_iquat", WHY_GEOMETRY),
	DENY(M, "jnt_pos", WHY_GEOMETRY),
	DENY(M, "jnt_axis", WHY_GEOMETRY),
	DENY(M, "geom_pos", WHY_GEOMETRY),
	DENY(M, "geom_quat", WHY_GEOMETRY),
	DENY(M, "site_pos", WHY_GEOMETRY),
	DENY(M, "site_quat", WHY_GEOMETRY),
	DENY(M, "cam_pos", WHY_GEOMETRY),
	DENY(M, "cam_quat", WHY_GEOMETRY),
	DENY(M, "light_pos", WHY_GEOMETRY),
	DENY(M, "light_dir", WHY_GEOMETRY),
	DENY(M, "actuator_gear",
	    "transmission: actuator_length0, actuator_acc0 and muscle force "
	    "scales are computed from it when the model is compiled"),
	DENY(M, "actuator_lengthrange",
	    "computed by the compiler (mj_setLengthRange) for muscles"),
	DENY(M, "mesh_*", WHY_ASSET),
	DENY(M, "skin_*", WHY_ASSET),
	DENY(M, "hfield_*", WHY_ASSET),
	DENY(M, "tex_*", WHY_ASSET),
};

#undef M
#undef D
#undef W
#undef WB
#undef DENY

#define SIM_NRULES (sizeof(sim_array_rules) / sizeof(sim_array_rules[0]))

static const struct sim_array_rule sim_rule_computed = { NULL, SIM_OWNER_DATA,
	0, 0, WHY_COMPUTED, 0, 0, NULL };
static const struct sim_array_rule sim_rule_structure = { NULL, SIM_OWNER_MODEL,
	0, 0, WHY_STRUCTURE, 0, 0, NULL };
static const struct sim_array_rule sim_rule_unknown = { NULL, SIM_OWNER_MODEL,
	0, 0, WHY_UNKNOWN, 0, 0, NULL };

/* Number the numeric arrays once. */
static void
sim_array_init(void)
{
	size_t i;

	if (sim_array_nids != 0)
		return;
	for (i = 0; i < SIM_NDEFS; i++) {
		if (sim_array_defs[i].type != SIM_ARRAY_OTHER)
			sim_array_ids[sim_array_nids++] = (unsigned short)i;
	}
}

/* The def of a valid id. */
static const struct sim_array_def *
sim_array_def(int id)
{
	sim_array_init();
	return &sim_array_defs[sim_array_ids[id]];
}

/* The rule of an array. */
static const struct sim_array_rule *
sim_array_rule(const struct sim_array_def *def)
{
	const struct sim_array_rule *r;
	size_t i, n;

	for (i = 0; i < SIM_NRULES; i++) {
		r = &sim_array_rules[i];
		if (r->owner != def->owner)
			continue;
		n = strlen(r->name);
		if (r->name[n - 1] == '*' ?
			strncmp(r->name, def->name, n - 1) == 0 :
			strcmp(r->name, def->name) == 0)
			return r;
	}
	if (def->owner == SIM_OWNER_DATA)
		return &sim_rule_computed;
	if (def->type == SIM_ARRAY_INT || def->type == SIM_ARRAY_BYTE)
		return &sim_rule_structure;
	return &sim_rule_unknown;
}

/* Columns of the k-th array of MJMODEL_POINTERS. */
static int
sim_model_cols(const mjModel *m, size_t k)
{
	size_t i = 0;
	MJMODEL_POINTERS_PREAMBLE(m)

#define X(type, name, nr, nc) \
	if (i++ == k) \
		return (nc);
	MJMODEL_POINTERS
#undef X
	return 0;
}

/*
 * Columns of the k-th array of MJDATA_POINTERS.  The efc_* arrays are
 * allocated for njmax constraints, but only the first nefc rows (and,
 * where a dimension is njmax, nefc columns: efc_AR is nefc x nefc) hold
 * this step's constraints: the live count is what a reader can use, so
 * njmax stands for nefc here and in sim_data_rows().
 */
static int
sim_data_cols(const mjModel *m, const mjData *d, size_t k)
{
	size_t i = 0;
	int nv = m->nv, njmax = d->nefc;

#define X(type, name, nr, nc) \
	if (i++ == k) \
		return (nc);
	MJDATA_POINTERS
#undef X
	return 0;
}

/* Rows of a data array: the model's size, or the live constraint count. */
static int
sim_data_rows(const mjModel *m, const mjData *d, size_t rows_at)
{
	int rows;

	if (rows_at == offsetof(mjModel, njmax))
		return d->nefc;
	if (rows_at == offsetof(mjModel, nconmax))
		return d->ncon;
	memcpy(&rows, (const char *)m + rows_at, sizeof(rows));
	return rows;
}

/* The number of model arrays: the data arrays follow them in the table. */
static size_t
sim_array_nmodel(void)
{
	size_t n = 0;

#define X(type, name, nr, nc) n++;
	MJMODEL_POINTERS
#undef X
	return n;
}

/* Rows and columns of an array in the loaded model. */
static void
sim_array_shape(const struct sim *s, const mjData *d,
    const struct sim_array_def *def, int *rows, int *cols)
{
	size_t k = (size_t)(def - sim_array_defs);

	if (def->rows_at == SIM_INLINE) {
		*rows = 1;
		*cols = def->cols;
	} else if (def->owner == SIM_OWNER_MODEL) {
		memcpy(rows, (const char *)s->m + def->rows_at, sizeof(*rows));
		*cols = sim_model_cols(s->m, k);
	} else {
		*rows = sim_data_rows(s->m, d, def->rows_at);
		*cols = sim_data_cols(s->m, d, k - sim_array_nmodel());
	}
}

/* Where an array's elements are. */
static void *
sim_array_base(
    const struct sim *s, const mjData *d, const struct sim_array_def *def)
{
	const char *owner = def->owner == SIM_OWNER_MODEL ? (const char *)s->m :
							    (const char *)d;
	void *p;

	if (def->rows_at == SIM_INLINE)
		return (void *)(owner + def->offset);
	memcpy(&p, owner + def->offset, sizeof(p));
	return p;
}

/* Copy n elements from element offset as doubles. */
static void
sim_array_read(const struct sim *s, const mjData *d,
    const struct sim_array_def *def, size_t offset, size_t n, double *out)
{
	const void *base = sim_array_base(s, d, def);
	size_t i;

	switch ((enum sim_array_type)def->type) {
	case SIM_ARRAY_DOUBLE:
		if (n > 0)
			memcpy(out, (const mjtNum *)base + offset,
			    n * sizeof(*out));
		break;
	case SIM_ARRAY_FLOAT:
		for (i = 0; i < n; i++)
			out[i] = ((const float *)base)[offset + i];
		break;
	case SIM_ARRAY_INT:
		for (i = 0; i < n; i++)
			out[i] = ((const int *)base)[offset + i];
		break;
	case SIM_ARRAY_BYTE:
		for (i = 0; i < n; i++)
			out[i] = ((const mjtByte *)base)[offset + i];
		break;
	}
}

int
sim_array_count(void)
{
	sim_array_init();
	return sim_array_nids;
}

int
sim_array_find(const char *name, const char **why)
{
	int id, owner = -1;

	*why = NULL;
	sim_array_init();
	if (strncmp(name, "model.", 6) == 0) {
		owner = SIM_OWNER_MODEL;
		name += 6;
	} else if (strncmp(name, "data.", 5) == 0) {
		owner = SIM_OWNER_DATA;
		name += 5;
	}
	for (id = 0; id < sim_array_nids; id++) {
		const struct sim_array_def *def = sim_array_def(id);

		if ((owner < 0 || def->owner == owner) &&
		    strcmp(def->name, name) == 0)
			return id;
	}
	if (strcmp(name, "contact") == 0 && owner != SIM_OWNER_MODEL)
		*why = "is an array of mjContact structs, not numbers: "
		       "get_contact reports the contacts";
	else if ((strcmp(name, "names") == 0 ||
		     strcmp(name, "text_data") == 0) &&
	    owner != SIM_OWNER_DATA)
		*why = "is text, not numbers: id2name reads names";
	return -1;
}

void
sim_array_describe_in(
    const struct sim *s, const mjData *d, int id, struct sim_array_info *out)
{
	const struct sim_array_def *def = sim_array_def(id);

	out->name = def->name;
	out->owner = def->owner == SIM_OWNER_MODEL ? "model" : "data";
	out->type = (enum sim_array_type)def->type;
	sim_array_shape(s, d, def, &out->rows, &out->cols);
	out->refusal = sim_array_rule(def)->deny;
}

void
sim_array_describe(const struct sim *s, int id, struct sim_array_info *out)
{
	sim_array_describe_in(s, s->d, id, out);
}

void
sim_array_get_in(const struct sim *s, const mjData *d, int id, double *out)
{
	const struct sim_array_def *def = sim_array_def(id);
	int rows, cols;

	sim_array_shape(s, d, def, &rows, &cols);
	sim_array_read(s, d, def, 0, (size_t)rows * (size_t)cols, out);
}

void
sim_array_get(const struct sim *s, int id, double *out)
{
	sim_array_get_in(s, s->d, id, out);
}

/* Element i of an inline member of model m (the options: mjtNum, int). */
static double
sim_inline_value(const mjModel *m, const struct sim_array_def *def, size_t i)
{
	const char *p = (const char *)m + def->offset;
	mjtNum x;
	int k;

	if (def->type == SIM_ARRAY_INT) {
		memcpy(&k, p + i * sizeof(k), sizeof(k));
		return k;
	}
	memcpy(&x, p + i * sizeof(x), sizeof(x));
	return x;
}

/*
 * 1 if elements [from, from + n) of an option would be, with v written
 * from element offset, what the model was loaded with: a value outside
 * the domain is taken back then (a reset restores the model's own, a
 * journal replays that as a write, hxplay's restore writes it back).
 */
static int
sim_array_as_loaded(const struct sim *s, const struct sim_array_def *def,
    size_t from, size_t n, size_t offset, size_t nv, const double *v)
{
	size_t e;
	double x;

	if (def->rows_at != SIM_INLINE || def->owner != SIM_OWNER_MODEL ||
	    s->pristine == NULL)
		return 0;
	for (e = from; e < from + n; e++) {
		x = e >= offset && e < offset + nv ?
		    v[e - offset] :
		    sim_inline_value(s->m, def, e);
		if (x != sim_inline_value(s->pristine, def, e))
			return 0;
	}
	return 1;
}

/* What solimp's element k takes (getsolparam clamps the rest), or NULL. */
static const char *
sim_solimp_want(size_t k, double v)
{
	switch (k % mjNIMP) {
	case 0:
	case 1:
		if (v < mjMINIMP || v > mjMAXIMP)
			return "solimp's dmin and dmax are from 0.0001 to 0.9999";
		break;
	case 2:
		if (v < 0)
			return "solimp's width must not be negative";
		break;
	case 3:
		if (v < mjMINIMP || v > mjMAXIMP)
			return "solimp's midpoint is from 0.0001 to 0.9999";
		break;
	default:
		if (v < 1)
			return "solimp's power is at least 1";
		break;
	}
	return NULL;
}

/* Check value v for element i of an array; 0, or -1 with err set. */
static int
sim_array_check_value(const struct sim *s, const struct sim_array_def *def,
    const struct sim_array_rule *r, size_t i, double v, char *err, size_t len)
{
	const char *want = NULL;

	if (!isfinite(v))
		want = "values must be finite";
	else if (def->type == SIM_ARRAY_INT &&
	    (v != floor(v) || v < INT_MIN || v > INT_MAX))
		want = "an int array takes whole numbers from -2147483648 to "
		       "2147483647";
	else if (def->type == SIM_ARRAY_BYTE &&
	    (v != floor(v) || v < 0 || v > UCHAR_MAX))
		want = "a byte array takes whole numbers from 0 to 255";
	else if (def->type == SIM_ARRAY_FLOAT && fabs(v) > FLT_MAX)
		want = "a float array takes magnitudes up to 3.4e38";
	else if (sim_array_as_loaded(s, def, i, 1, i, 1, &v))
		want = NULL;
	else if (r->domain == SIM_DOMAIN_NONNEG && v < 0)
		want = "values must not be negative";
	else if (r->domain == SIM_DOMAIN_UNIT && (v < 0 || v > 1))
		want = "values must be from 0 to 1";
	else if (r->domain == SIM_DOMAIN_BOOL && v != 0 && v != 1)
		want = "a flag is 0 or 1";
	else if (r->domain == SIM_DOMAIN_POSITIVE && v <= 0)
		want = "values must be positive";
	else if (r->domain == SIM_DOMAIN_BOUNDED && (v < r->lo || v > r->hi))
		want = r->want;
	else if (r->domain == SIM_DOMAIN_BITS &&
	    (v < 0 || ((unsigned)v & ~(unsigned)r->hi) != 0))
		want = r->want;
	else if (r->domain == SIM_DOMAIN_SOLIMP)
		want = sim_solimp_want(i, v);
	if (want == NULL)
		return 0;
	snprintf(err, len, "%s[%zu] is %.17g: %s", def->name, i, v, want);
	return -1;
}

/*
 * Check the rows a write touches as they would be after it: ranges
 * must not be inverted, quaternions not zero, a solref not of mixed
 * signs (unless as loaded).  0, or -1 with err set.
 */
static int
sim_array_check_rows(const struct sim *s, const struct sim_array_def *def,
    const struct sim_array_rule *r, int cols, size_t offset, size_t n,
    const double *v, char *err, size_t len)
{
	size_t w, row, j, e;
	double x[4];

	if (r->domain == SIM_DOMAIN_RANGE || r->domain == SIM_DOMAIN_SOLREF)
		w = 2;
	else if (r->domain == SIM_DOMAIN_QUAT)
		w = 4;
	else
		return 0;
	/* mjxmacro.h gives these arrays rows of exactly w. */
	if ((size_t)cols != w) {
		snprintf(err, len, "%s has rows of %d, expected %zu", def->name,
		    cols, w);
		return -1;
	}
	for (row = offset / w; row * w < offset + n; row++) {
		sim_array_read(s, s->d, def, row * w, w, x);
		for (j = 0; j < w; j++) {
			e = row * w + j;
			if (e >= offset && e < offset + n)
				x[j] = v[e - offset];
		}
		if (r->domain == SIM_DOMAIN_SOLREF &&
		    (x[0] > 0) != (x[1] > 0) &&
		    !sim_array_as_loaded(s, def, row * w, w, offset, n, v)) {
			snprintf(err, len,
			    "%s row %zu would be (%.17g, %.17g): MuJoCo takes "
			    "(timeconst, dampratio), both positive, or "
			    "(-stiffness, -damping), neither positive, and "
			    "puts its default in place of mixed signs",
			    def->name, row, x[0], x[1]);
			return -1;
		}
		if (r->domain == SIM_DOMAIN_RANGE && x[0] > x[1]) {
			snprintf(err, len,
			    "%s row %zu would be (%.17g, %.17g): the lower "
			    "bound must not exceed the upper",
			    def->name, row, x[0], x[1]);
			return -1;
		}
		if (w == 4 && x[0] == 0 && x[1] == 0 && x[2] == 0 &&
		    x[3] == 0) {
			snprintf(err, len,
			    "%s row %zu would be the zero quaternion",
			    def->name, row);
			return -1;
		}
	}
	return 0;
}

/*
 * Bring the data up to date after a write, leaving the state as it was:
 * MuJoCo 2.2's kinematics normalizes the quaternions of free and ball
 * joints in qpos in place, and a replay that writes a parameter the
 * recorded run changed without a forward (a hold's target) would step
 * from other bits.  The warm start, which mj_forward also changes, is
 * the journal's to write last.
 */
static void
sim_array_forward(struct sim *s)
{
	mjModel *m = s->m;
	mjData *d = s->d;
	int mark = d->pstack;
	mjtNum *qpos = mj_stackAlloc(d, m->nq);

	mju_copy(qpos, d->qpos, m->nq);
	mj_forward(m, d);
	mju_copy(d->qpos, qpos, m->nq);
	d->pstack = mark;
}

/*
 * mj_setConst recomputes what MuJoCo derives from masses and armature
 * at qpos0, but leaves qpos at qpos_spring: keep the state across it,
 * then bring the data up to date.  It also fills in eq_data (a connect's
 * second anchor, a weld's zero relative pose) and negative
 * tendon_lengthspring as the compiler would: those are writable here,
 * so keep what a client wrote.
 */
void
sim_array_setconst(struct sim *s)
{
	mjModel *m = s->m;
	mjData *d = s->d;
	int mark = d->pstack, neqdata = mjNEQDATA * m->neq;
	mjtNum *qpos = mj_stackAlloc(d, m->nq);
	mjtNum *eq_data = mj_stackAlloc(d, neqdata);
	mjtNum *lengthspring = mj_stackAlloc(d, m->ntendon);

	mju_copy(qpos, d->qpos, m->nq);
	mju_copy(eq_data, m->eq_data, neqdata);
	mju_copy(lengthspring, m->tendon_lengthspring, m->ntendon);
	mj_setConst(m, d);
	mju_copy(d->qpos, qpos, m->nq);
	mju_copy(m->eq_data, eq_data, neqdata);
	mju_copy(m->tendon_lengthspring, lengthspring, m->ntendon);
	d->pstack = mark;
	sim_array_forward(s);
}

void
sim_array_rates(struct sim *s)
{
	if (s->m == NULL)
		return;
	s->sizes.timestep = s->m->opt.timestep;
	s->sizes.apirate = s->api_rate_override >= 0 ? s->api_rate_override :
						       s->m->opt.apirate;
}

/* The bytes of one element of def's array. */
static size_t
sim_array_size(const struct sim_array_def *def)
{
	switch ((enum sim_array_type)def->type) {
	case SIM_ARRAY_DOUBLE:
		return sizeof(mjtNum);
	case SIM_ARRAY_FLOAT:
		return sizeof(float);
	case SIM_ARRAY_INT:
		return sizeof(int);
	default:
		return sizeof(mjtByte);
	}
}

int
sim_array_set(struct sim *s, int id, size_t offset, size_t n, const double *v,
    char *err, size_t len)
{
	const struct sim_array_def *def = sim_array_def(id);
	const struct sim_array_rule *r = sim_array_rule(def);
	void *base = sim_array_base(s, s->d, def);
	int rows, cols;
	size_t i;

	if (r->deny != NULL) {
		snprintf(
		    err, len, "%s is not writable: %s", def->name, r->deny);
		return -1;
	}
	sim_array_shape(s, s->d, def, &rows, &cols);
	for (i = 0; i < n; i++) {
		if (sim_array_check_value(
			s, def, r, offset + i, v[i], err, len))
			return -1;
	}
	if (sim_array_check_rows(s, def, r, cols, offset, n, v, err, len))
		return -1;
	sim_undo_note(s, (char *)base + offset * sim_array_size(def),
	    n * sim_array_size(def), r->after == SIM_AFTER_SETCONST);
	for (i = 0; i < n; i++) {
		switch ((enum sim_array_type)def->type) {
		case SIM_ARRAY_DOUBLE:
			((mjtNum *)base)[offset + i] = v[i];
			break;
		case SIM_ARRAY_FLOAT:
			((float *)base)[offset + i] = (float)v[i];
			break;
		case SIM_ARRAY_INT:
			((int *)base)[offset + i] = (int)v[i];
			break;
		case SIM_ARRAY_BYTE:
			((mjtByte *)base)[offset + i] = (mjtByte)v[i];
			break;
		}
	}
	if (n == 0)
		return 0;
	if (def->owner == SIM_OWNER_MODEL)
		s->counters.model_edits++;
	/* The timestep and the API rate are the daemon's too. */
	if (def->rows_at == SIM_INLINE && def->owner == SIM_OWNER_MODEL)
		sim_array_rates(s);
	switch (r->after) {
	case SIM_AFTER_CTRL:
		/* As sim_set_ctrl(): servo references start from here. */
		sim_robot_reset(s);
		break;
	case SIM_AFTER_FORWARD:
		sim_array_forward(s);
		break;
	case SIM_AFTER_SETCONST:
		sim_array_setconst(s);
		break;
	}
	return 0;
}
