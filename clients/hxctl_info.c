/*
 * The model's description: what info shows of each kind of object,
 * and what the other tables ask of it (the names of objects, the
 * names of types, the widths of joints).
 */
#include "config.h"

#include <stddef.h>
#include <stdio.h>

#include "haptixd.h"
#include "hxctl_common.h"

/* A kind of object that hxd_info names, and how info shows one. */
struct info_kind {
	const char *title; /* heading, and JSON key */
	int type;          /* HXD_OBJ_* */
	/* Write object i's members beyond its name; NULL: none. */
	void (*json)(const hxd_info *, int);
	/* Print row i's columns after a name w wide, or the headings if
	 * i < 0; NULL: the name alone. */
	void (*text)(const hxd_info *, int, int);
};

static const char *trn_type_name(int);
static void info_json(const hxd_info *);
static void info_print(const hxd_info *);
static void info_body_json(const hxd_info *, int);
static void info_body_text(const hxd_info *, int, int);
static void info_joint_json(const hxd_info *, int);
static void info_joint_text(const hxd_info *, int, int);
static void info_geom_json(const hxd_info *, int);
static void info_geom_text(const hxd_info *, int, int);
static void info_actuator_json(const hxd_info *, int);
static void info_actuator_text(const hxd_info *, int, int);
static void info_sensor_json(const hxd_info *, int);
static void info_sensor_text(const hxd_info *, int, int);
static void info_eq_json(const hxd_info *, int);
static void info_eq_text(const hxd_info *, int, int);

/* HAPTIX's sensor type numbers (haptix.proto's SensorType), by name. */
static const char *const sensor_types[] = { "touch", "accelerometer",
	"velocimeter", "gyro", "force", "torque", "magnetometer", "rangefinder",
	"jointpos", "jointvel", "tendonpos", "tendonvel", "actuatorpos",
	"actuatorvel", "actuatorfrc", "ballquat", "ballangvel", "framepos",
	"framequat", "framexaxis", "frameyaxis", "framezaxis", "framelinvel",
	"frameangvel", "framelinacc", "frameangacc", "subtreecom",
	"subtreelinvel", "subtreeangmom", "user", "jointlimitpos",
	"jointlimitvel", "jointlimitfrc", "tendonlimitpos", "tendonlimitvel",
	"tendonlimitfrc", "clock" };

static const char *const sensor_datatypes[] = { "real", "positive", "axis",
	"quaternion" };

static const char *const joint_types[] = { "free", "ball", "slide", "hinge" };

static const char *const geom_types[] = { "plane", "hfield", "sphere",
	"capsule", "ellipsoid", "cylinder", "box", "mesh" };

static const char *const trn_types[] = { "joint", "jointinparent",
	"slidercrank", "tendon", "site", "body" };

static const char *const eq_types[] = { "connect", "weld", "joint", "tendon",
	"distance" };

/* The kinds of object info shows, in its order. */
/* clang-format off */
#define INFO_KIND(title, type, n, names, json, text) { title, type, json, text }
/* clang-format on */
static const struct info_kind info_kinds[] = {
	INFO_KIND("bodies", HXD_OBJ_BODY, nbody, body_name, info_body_json,
	    info_body_text),
	INFO_KIND("joints", HXD_OBJ_JOINT, njnt, jnt_name, info_joint_json,
	    info_joint_text),
	INFO_KIND("geoms", HXD_OBJ_GEOM, ngeom, geom_name, info_geom_json,
	    info_geom_text),
	INFO_KIND("sites", HXD_OBJ_SITE, nsite, site_name, NULL, NULL),
	INFO_KIND("tendons", HXD_OBJ_TENDON, ntendon, tendon_name, NULL, NULL),
	INFO_KIND("actuators", HXD_OBJ_ACTUATOR, nu, actuator_name,
	    info_actuator_json, info_actuator_text),
	INFO_KIND("sensors", HXD_OBJ_SENSOR, nsensor, sensor_name,
	    info_sensor_json, info_sensor_text),
	INFO_KIND("equalities", HXD_OBJ_EQUALITY, neq, eq_name, info_eq_json,
	    info_eq_text),
	INFO_KIND("keyframes", HXD_OBJ_KEY, nkey, key_name, NULL, NULL),
	INFO_KIND("materials", HXD_OBJ_MATERIAL, nmat, mat_name, NULL, NULL),
};

/* The name of a joint type. */
const char *
info_joint_type_name(int type)
{
	return table_enum_name(joint_types, NELEM(joint_types), type);
}

/* The name of a sensor type, by HAPTIX's numbers. */
const char *
info_sensor_type_name(int type)
{
	return table_enum_name(sensor_types, NELEM(sensor_types), type);
}

/* The name of an actuator transmission type. */
static const char *
trn_type_name(int type)
{
	if (type == 1000)
		return "undefined";
	return table_enum_name(trn_types, NELEM(trn_types), type);
}

/* Write the model's description as one JSON object. */
static void
info_json(const hxd_info *in)
{
	const struct info_kind *k;
	const char *const *names;
	int i, n;

	js_open('{');
	js_key("model");
	model_json(&in->model);
	for (k = info_kinds; k < info_kinds + NELEM(info_kinds); k++) {
		names = table_names(in, k->type, &n);
		js_key(k->title);
		js_open('[');
		for (i = 0; i < n; i++) {
			js_open('{');
			js_ks("name", names[i]);
			if (k->json != NULL)
				k->json(in, i);
			js_close('}');
		}
		js_close(']');
	}
	js_close('}');
}

/* Print the model's description as tables, one per kind of object. */
static void
info_print(const hxd_info *in)
{
	const struct info_kind *k;
	char buf[CTL_LABEL_MAX];
	int i, n, w;

	model_print("model", &in->model);
	for (k = info_kinds; k < info_kinds + NELEM(info_kinds); k++) {
		table_names(in, k->type, &n);
		if (n <= 0)
			continue;
		w = table_label_width(in, k->type, n);
		printf("\n%s\n%4s  ", k->title, "id");
		if (k->text == NULL)
			printf("%s\n", "name");
		else {
			printf("%-*s", w, "name");
			k->text(in, -1, w);
		}
		for (i = 0; i < n; i++) {
			printf("%4d  ", i);
			if (k->text == NULL)
				printf("%s\n",
				    table_obj_label(
					in, k->type, i, buf, sizeof(buf)));
			else {
				printf("%-*s", w,
				    table_obj_label(
					in, k->type, i, buf, sizeof(buf)));
				k->text(in, i, w);
			}
		}
	}
}

/* Body i's parent and mocap id. */
static void
info_body_json(const hxd_info *in, int i)
{
	js_ki("parent", in->body_parentid[i]);
	js_ki("mocapid", in->body_mocapid[i]);
}

/* Body i's parent and whether it is a mocap body, or their headings. */
static void
info_body_text(const hxd_info *in, int i, int w)
{
	char b[CTL_LABEL_MAX];

	if (i < 0)
		printf("  %-*s  %s\n", w, "parent", "mocap");
	else
		printf("  %-*s  %s\n", w,
		    i == 0 ? "-" :
			     table_obj_label(in, HXD_OBJ_BODY,
				 in->body_parentid[i], b, sizeof(b)),
		    in->body_mocapid[i] >= 0 ? "yes" : "-");
}

/* Joint i's type, addresses, body and range. */
static void
info_joint_json(const hxd_info *in, int i)
{
	js_ks("type", info_joint_type_name(in->jnt_type[i]));
	js_ki("body", in->jnt_bodyid[i]);
	js_ki("qposadr", in->jnt_qposadr[i]);
	js_ki("dofadr", in->jnt_dofadr[i]);
	js_kb("limited", in->jnt_limited[i]);
	js_kv("range", in->jnt_range + 2 * i, 2);
}

/* Joint i's type, addresses, body and range, or their headings. */
static void
info_joint_text(const hxd_info *in, int i, int w)
{
	char b[CTL_LABEL_MAX];

	if (i < 0) {
		printf("  %-5s  %4s  %4s  %-12s %s\n", "type", "qpos", "dof",
		    "body", "range");
		return;
	}
	printf("  %-5s  %4d  %4d  %-12s", info_joint_type_name(in->jnt_type[i]),
	    in->jnt_qposadr[i], in->jnt_dofadr[i],
	    table_obj_label(in, HXD_OBJ_BODY, in->jnt_bodyid[i], b, sizeof(b)));
	if (in->jnt_limited[i])
		printf(" [%g, %g]\n", in->jnt_range[2 * i],
		    in->jnt_range[2 * i + 1]);
	else
		printf(" -\n");
}

/* Geom i's type and body. */
static void
info_geom_json(const hxd_info *in, int i)
{
	js_ks("type",
	    table_enum_name(geom_types, NELEM(geom_types), in->geom_type[i]));
	js_ki("body", in->geom_bodyid[i]);
}

/* Geom i's type and body, or their headings. */
static void
info_geom_text(const hxd_info *in, int i, int w)
{
	char b[CTL_LABEL_MAX];

	if (i < 0)
		printf("  %-9s  %s\n", "type", "body");
	else
		printf("  %-9s  %s\n",
		    table_enum_name(
			geom_types, NELEM(geom_types), in->geom_type[i]),
		    table_obj_label(
			in, HXD_OBJ_BODY, in->geom_bodyid[i], b, sizeof(b)));
}

/* Actuator i's transmission and control range. */
static void
info_actuator_json(const hxd_info *in, int i)
{
	js_ks("trntype", trn_type_name(in->actuator_trntype[i]));
	js_key("trnid");
	js_ints(in->actuator_trnid + 2 * i, 2);
	js_kb("ctrllimited", in->actuator_ctrllimited[i]);
	js_kv("ctrlrange", in->actuator_ctrlrange + 2 * i, 2);
}

/* Actuator i's control range and transmission, or their headings. */
static void
info_actuator_text(const hxd_info *in, int i, int w)
{
	char b[CTL_LABEL_MAX], range[32];
	int t;

	if (i < 0) {
		printf("  %-18s  %s\n", "ctrlrange", "transmission");
		return;
	}
	t = in->actuator_trntype[i];
	if (in->actuator_ctrllimited[i])
		snprintf(range, sizeof(range), "[%g, %g]",
		    in->actuator_ctrlrange[2 * i],
		    in->actuator_ctrlrange[2 * i + 1]);
	else
		snprintf(range, sizeof(range), "-");
	printf("  %-18s  %s %s\n", range, trn_type_name(t),
	    table_obj_label(in,
		t == 3     ? HXD_OBJ_TENDON :
		    t == 4 ? HXD_OBJ_SITE :
		    t == 5 ? HXD_OBJ_BODY :
			     HXD_OBJ_JOINT,
		in->actuator_trnid[2 * i], b, sizeof(b)));
}

/* Sensor i's type, object, size, address and noise. */
static void
info_sensor_json(const hxd_info *in, int i)
{
	int t = in->sensor_objtype[i];

	js_ks("type", info_sensor_type_name(in->sensor_type[i]));
	js_ks("datatype",
	    table_enum_name(sensor_datatypes, NELEM(sensor_datatypes),
		in->sensor_datatype[i]));
	js_ks("objtype", t == HXD_OBJ_UNKNOWN ? "none" : hxd_obj_name(t));
	js_ki("objid", in->sensor_objid[i]);
	js_ki("dim", in->sensor_dim[i]);
	js_ki("adr", in->sensor_adr[i]);
	js_kn("noise", in->sensor_noise[i]);
}

/* Sensor i's type, size, address, object and noise, or their headings. */
static void
info_sensor_text(const hxd_info *in, int i, int w)
{
	char b[CTL_LABEL_MAX];
	int t;

	if (i < 0) {
		printf(
		    "  %-14s  %3s  %4s  %s\n", "type", "dim", "adr", "object");
		return;
	}
	t = in->sensor_objtype[i];
	printf("  %-14s  %3d  %4d  ", info_sensor_type_name(in->sensor_type[i]),
	    in->sensor_dim[i], in->sensor_adr[i]);
	if (t == HXD_OBJ_UNKNOWN)
		printf("-");
	else
		printf("%s %s", hxd_obj_name(t),
		    table_obj_label(in, t, in->sensor_objid[i], b, sizeof(b)));
	if (in->sensor_noise[i] != 0)
		printf(", noise %g", in->sensor_noise[i]);
	putchar('\n');
}

/* Equality i's type and objects. */
static void
info_eq_json(const hxd_info *in, int i)
{
	js_ks(
	    "type", table_enum_name(eq_types, NELEM(eq_types), in->eq_type[i]));
	js_ki("obj1id", in->eq_obj1id[i]);
	js_ki("obj2id", in->eq_obj2id[i]);
}

/* Equality i's type and the objects it binds, or their headings. */
static void
info_eq_text(const hxd_info *in, int i, int w)
{
	char b1[CTL_LABEL_MAX], b2[CTL_LABEL_MAX];
	int t;

	if (i < 0) {
		printf("  %-8s  %s\n", "type", "objects");
		return;
	}
	t = in->eq_type[i];
	t = t == 2 ? HXD_OBJ_JOINT :
	    t == 3 ? HXD_OBJ_TENDON :
	    t == 4 ? HXD_OBJ_GEOM :
		     HXD_OBJ_BODY;
	printf("  %-8s  %s %s, %s\n",
	    table_enum_name(eq_types, NELEM(eq_types), in->eq_type[i]),
	    hxd_obj_name(t),
	    table_obj_label(in, t, in->eq_obj1id[i], b1, sizeof(b1)),
	    table_obj_label(in, t, in->eq_obj2id[i], b2, sizeof(b2)));
}

/* Show the model's sizes and named objects. */
int
cmd_info(struct ctl *ctl)
{
	int rc;

	if ((rc = ctl_get_info(ctl)) != 0)
		return rc;
	if (ctl->json)
		info_json(ctl->info);
	else
		info_print(ctl->info);
	return CTL_OK;
}
