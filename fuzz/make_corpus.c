/*
 * The fuzzer's seed corpus: one valid input per call of the Request
 * oneof, a few sequences, and framing edge cases, written into a
 * directory as fuzz_session.c reads them (a flags byte, a chunk byte,
 * then the bytes a client sends).
 *
 *	make_corpus DIR [DICT]
 *
 * With DICT, it also writes a libFuzzer dictionary: the tags of the
 * calls, the fixture's names, array names, model files and MJCF words.
 *
 * The values fit models/test/fixture.xml (nq 9, nv 8, nu 2, nbody 5,
 * one mocap body, seven geoms); seeds starting "mpl-" use the MPL scene.
 * A call this file does not know yet (the .proto grew) still gets a
 * seed, with an empty message, and a warning.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mujoco/mujoco.h>

#include "frame.h"
#include "haptix.pb-c.h"

/* Keep in step with fuzz_session.c. */
#define FUZZ_HELLO 0x01
#define FUZZ_TCP 0x02
#define FUZZ_MPL 0x04
#define FUZZ_ABRUPT 0x08

#define SEED_MAX 65536

typedef Haptix__V1__Request Request;

struct seed {
	uint8_t buf[SEED_MAX];
	size_t len;
	uint64_t id;
};

static const char *corpus_dir;
static int corpus_written;
static int corpus_done[256]; /* call field numbers with a seed */

static void
die(const char *what)
{
	fprintf(stderr, "make_corpus: %s\n", what);
	exit(1);
}

static void
seed_begin(struct seed *s, int flags, int chunk)
{
	s->buf[0] = (uint8_t)flags;
	s->buf[1] = (uint8_t)chunk;
	s->len = 2;
	s->id = 2; /* the harness's Hello is request 1 */
}

static void
seed_raw(struct seed *s, const void *p, size_t len)
{
	if (s->len + len > sizeof(s->buf))
		die("a seed is too large");
	memcpy(s->buf + s->len, p, len);
	s->len += len;
}

/* Append one framed request with the next id. */
static void
seed_req(struct seed *s, Request *req)
{
	size_t len;

	req->id = s->id++;
	len = haptix__v1__request__get_packed_size(req);
	if (s->len + FRAME_HEADER_SIZE + len > sizeof(s->buf))
		die("a seed is too large");
	frame_put_header(s->buf + s->len, (uint32_t)len);
	haptix__v1__request__pack(req, s->buf + s->len + FRAME_HEADER_SIZE);
	s->len += FRAME_HEADER_SIZE + len;
	if ((unsigned)req->call_case < 256)
		corpus_done[req->call_case] = 1;
}

static void
seed_write(const struct seed *s, const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/seed-%s", corpus_dir, name);
	if ((f = fopen(path, "wb")) == NULL ||
	    fwrite(s->buf, 1, s->len, f) != s->len || fclose(f) != 0) {
		fprintf(stderr, "make_corpus: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	corpus_written++;
}

/* A request with an Empty call. */
static void
seed_empty(struct seed *s, Haptix__V1__Request__CallCase call)
{
	static Haptix__V1__Empty empty = HAPTIX__V1__EMPTY__INIT;
	Request req = HAPTIX__V1__REQUEST__INIT;

	req.call_case = call;
	req.info = &empty; /* every Empty call shares the union */
	seed_req(s, &req);
}

/* A seed of one call after the Hello. */
static void
one(const char *name, Request *req)
{
	struct seed s;
	char full[128];

	seed_begin(&s, FUZZ_HELLO, 0);
	seed_req(&s, req);
	snprintf(full, sizeof(full), "call-%s", name);
	seed_write(&s, full);
}

static void
one_empty(const char *name, Haptix__V1__Request__CallCase call)
{
	struct seed s;
	char full[128];

	seed_begin(&s, FUZZ_HELLO, 0);
	seed_empty(&s, call);
	snprintf(full, sizeof(full), "call-%s", name);
	seed_write(&s, full);
}

#define REQ(var, CASE, member, value) \
	Request var = HAPTIX__V1__REQUEST__INIT; \
	var.id = 2; /* after the Hello's 1; 0 is refused */ \
	var.call_case = HAPTIX__V1__REQUEST__CALL_##CASE; \
	var.member = (value)

static double zeros[64];

/* The calls of HAPTIX's native and simple APIs. */
static void
seeds_native(void)
{
	static const struct {
		const char *name;
		Haptix__V1__Request__CallCase call;
	} empties[] = {
		{ "info", HAPTIX__V1__REQUEST__CALL_INFO },
		{ "get_state", HAPTIX__V1__REQUEST__CALL_GET_STATE },
		{ "get_control", HAPTIX__V1__REQUEST__CALL_GET_CONTROL },
		{ "get_applied", HAPTIX__V1__REQUEST__CALL_GET_APPLIED },
		{ "get_mocap", HAPTIX__V1__REQUEST__CALL_GET_MOCAP },
		{ "get_dynamics", HAPTIX__V1__REQUEST__CALL_GET_DYNAMICS },
		{ "get_sensor", HAPTIX__V1__REQUEST__CALL_GET_SENSOR },
		{ "get_body", HAPTIX__V1__REQUEST__CALL_GET_BODY },
		{ "get_geom", HAPTIX__V1__REQUEST__CALL_GET_GEOM },
		{ "get_site", HAPTIX__V1__REQUEST__CALL_GET_SITE },
		{ "get_tendon", HAPTIX__V1__REQUEST__CALL_GET_TENDON },
		{ "get_actuator", HAPTIX__V1__REQUEST__CALL_GET_ACTUATOR },
		{ "get_force", HAPTIX__V1__REQUEST__CALL_GET_FORCE },
		{ "get_contact", HAPTIX__V1__REQUEST__CALL_GET_CONTACT },
		{ "robot_info", HAPTIX__V1__REQUEST__CALL_ROBOT_INFO },
	};
	static double qpos[9] = { 0.5, -0.5, 0.6, 0, 0.1, 1, 0, 0, 0 };
	static double quat[4] = { 1, 0, 0, 0 }, pos[3] = { 0, 1, 1.2 };
	static double ctrl[2] = { 0.5, -0.5 }, size[3] = { 0.1, 0.1, 0.1 };
	static double rgba[4] = { 1, 0, 0, 0.5 }, force[3] = { 0, 0, 9.81 };
	Haptix__V1__ObjectRef body = HAPTIX__V1__OBJECT_REF__INIT;
	Haptix__V1__ObjectRef geom = HAPTIX__V1__OBJECT_REF__INIT;
	Haptix__V1__ObjectRef byname = HAPTIX__V1__OBJECT_REF__INIT;
	Haptix__V1__State st = HAPTIX__V1__STATE__INIT;
	Haptix__V1__Control ct = HAPTIX__V1__CONTROL__INIT;
	Haptix__V1__Applied ap = HAPTIX__V1__APPLIED__INIT;
	Haptix__V1__OneBody ob = HAPTIX__V1__ONE_BODY__INIT;
	Haptix__V1__Mocap mc = HAPTIX__V1__MOCAP__INIT;
	Haptix__V1__GeomSize gs = HAPTIX__V1__GEOM_SIZE__INIT;
	Haptix__V1__Rgba rg = HAPTIX__V1__RGBA__INIT;
	Haptix__V1__Step sp = HAPTIX__V1__STEP__INIT;
	Haptix__V1__Update up = HAPTIX__V1__UPDATE__INIT;
	Haptix__V1__Reset rs = HAPTIX__V1__RESET__INIT;
	Haptix__V1__Equality eq = HAPTIX__V1__EQUALITY__INIT;
	Haptix__V1__Message ms = HAPTIX__V1__MESSAGE__INIT;
	Haptix__V1__RobotCommand rc = HAPTIX__V1__ROBOT_COMMAND__INIT;
	size_t i;

	for (i = 0; i < sizeof(empties) / sizeof(empties[0]); i++)
		one_empty(empties[i].name, empties[i].call);

	body.type = HAPTIX__V1__OBJ_TYPE__OBJ_BODY;
	body.id = 3; /* the free box */
	geom.type = HAPTIX__V1__OBJ_TYPE__OBJ_GEOM;
	geom.id = 5;
	byname.type = HAPTIX__V1__OBJ_TYPE__OBJ_BODY;
	byname.id = 1;
	byname.name = (char *)"link1";
	{
		REQ(r, GET_ONEBODY, get_onebody, &body);
		one("get_onebody", &r);
	}
	{
		REQ(r, GET_RGBA, get_rgba, &geom);
		one("get_rgba", &r);
	}
	{
		REQ(r, NAME2ID, name2id, &byname);
		one("name2id", &r);
	}
	{
		REQ(r, ID2NAME, id2name, &body);
		one("id2name", &r);
	}

	st.nq = 9;
	st.nv = 8;
	st.n_qpos = 9;
	st.qpos = qpos;
	st.n_qvel = 8;
	st.qvel = zeros;
	{
		REQ(r, SET_STATE, set_state, &st);
		one("set_state", &r);
	}
	ct.nu = 2;
	ct.n_ctrl = 2;
	ct.ctrl = ctrl;
	{
		REQ(r, SET_CONTROL, set_control, &ct);
		one("set_control", &r);
	}
	ap.nv = 8;
	ap.nbody = 5;
	ap.n_qfrc_applied = 8;
	ap.qfrc_applied = zeros;
	ap.n_xfrc_applied = 30;
	ap.xfrc_applied = zeros;
	{
		REQ(r, SET_APPLIED, set_applied, &ap);
		one("set_applied", &r);
	}
	ob.body_id = 3;
	ob.n_pos = 3;
	ob.pos = pos;
	ob.n_quat = 4;
	ob.quat = quat;
	ob.n_force = 3;
	ob.force = force;
	{
		REQ(r, SET_ONEBODY, set_onebody, &ob);
		one("set_onebody", &r);
	}
	mc.nmocap = 1;
	mc.n_pos = 3;
	mc.pos = pos;
	mc.n_quat = 4;
	mc.quat = quat;
	{
		REQ(r, SET_MOCAP, set_mocap, &mc);
		one("set_mocap", &r);
	}
	gs.id = 5;
	gs.n_size = 3;
	gs.size = size;
	{
		REQ(r, SET_GEOMSIZE, set_geomsize, &gs);
		one("set_geomsize", &r);
	}
	rg.type = HAPTIX__V1__OBJ_TYPE__OBJ_GEOM;
	rg.id = 5;
	rg.n_rgba = 4;
	rg.rgba = rgba;
	{
		REQ(r, SET_RGBA, set_rgba, &rg);
		one("set_rgba", &r);
	}
	sp.count = 5;
	{
		REQ(r, STEP, step, &sp);
		one("step", &r);
	}
	up.control = &ct;
	{
		REQ(r, UPDATE, update, &up);
		one("update", &r);
	}
	rs.keyframe = 1;
	{
		REQ(r, RESET, reset, &rs);
		one("reset", &r);
	}
	eq.id = 0;
	eq.state = 1;
	{
		REQ(r, EQUALITY, equality, &eq);
		one("equality", &r);
	}
	ms.text = (char *)"hello from the fuzzer";
	{
		REQ(r, MESSAGE, message, &ms);
		one("message", &r);
	}
	rc.n_ref_pos = 2;
	rc.ref_pos = ctrl;
	rc.ref_pos_enabled = 1;
	rc.n_ref_vel = 2;
	rc.ref_vel = ctrl;
	rc.ref_vel_enabled = 1;
	rc.no_wait = 1;
	{
		REQ(r, ROBOT_UPDATE, robot_update, &rc);
		one("robot_update", &r);
	}
}

/* Sessions, streams, batch runs, keyframes, joints and arrays. */
static void
seeds_sessions(void)
{
	static double qpos1[1] = { 0.3 }, qvel1[1] = { 0.1 };
	static double ctrl[2] = { 0.2, 0.1 }, rgba[4] = { 0, 1, 0, 1 };
	static Haptix__V1__StreamField fields[] = {
		HAPTIX__V1__STREAM_FIELD__STREAM_QPOS,
		HAPTIX__V1__STREAM_FIELD__STREAM_SENSORDATA,
		HAPTIX__V1__STREAM_FIELD__STREAM_CONTACTS,
		HAPTIX__V1__STREAM_FIELD__STREAM_STATUS,
	};
	Haptix__V1__Lease ls = HAPTIX__V1__LEASE__INIT;
	Haptix__V1__Subscribe sb = HAPTIX__V1__SUBSCRIBE__INIT;
	Haptix__V1__Unsubscribe us = HAPTIX__V1__UNSUBSCRIBE__INIT;
	Haptix__V1__Batch bt = HAPTIX__V1__BATCH__INIT;
	Haptix__V1__Control ct = HAPTIX__V1__CONTROL__INIT;
	Haptix__V1__KeyCapture kc = HAPTIX__V1__KEY_CAPTURE__INIT;
	Haptix__V1__JointSet js = HAPTIX__V1__JOINT_SET__INIT;
	Haptix__V1__ArrayRef ar = HAPTIX__V1__ARRAY_REF__INIT;
	Haptix__V1__Array sa = HAPTIX__V1__ARRAY__INIT;

	one_empty("clients", HAPTIX__V1__REQUEST__CALL_CLIENTS);
	one_empty("list_arrays", HAPTIX__V1__REQUEST__CALL_LIST_ARRAYS);
	one_empty("get_model", HAPTIX__V1__REQUEST__CALL_GET_MODEL);
	ls.op = HAPTIX__V1__LEASE__OP__TAKE;
	{
		REQ(r, LEASE, lease, &ls);
		one("lease", &r);
	}
	sb.n_fields = sizeof(fields) / sizeof(fields[0]);
	sb.fields = fields;
	sb.every_steps = 1;
	sb.events = 1;
	{
		REQ(r, SUBSCRIBE, subscribe, &sb);
		one("subscribe", &r);
	}
	us.id = 0;
	{
		REQ(r, UNSUBSCRIBE, unsubscribe, &us);
		one("unsubscribe", &r);
	}
	ct.nu = 2;
	ct.n_ctrl = 2;
	ct.ctrl = ctrl;
	bt.control = &ct;
	bt.steps = 20;
	bt.n_record = 2;
	bt.record = fields;
	bt.record_every = 5;
	{
		REQ(r, BATCH, batch, &bt);
		one("batch", &r);
	}
	kc.name = (char *)"mine";
	{
		REQ(r, CAPTURE_KEY, capture_key, &kc);
		one("capture_key", &r);
	}
	js.name = (char *)"hinge1";
	js.n_qpos = 1;
	js.qpos = qpos1;
	js.n_qvel = 1;
	js.qvel = qvel1;
	{
		REQ(r, SET_JOINT, set_joint, &js);
		one("set_joint", &r);
	}
	ar.name = (char *)"qpos";
	{
		REQ(r, GET_ARRAY, get_array, &ar);
		one("get_array", &r);
	}
	sa.name = (char *)"geom_rgba";
	sa.offset = 20;
	sa.n_values = 4;
	sa.values = rgba;
	{
		REQ(r, SET_ARRAY, set_array, &sa);
		one("set_array", &r);
	}
}

/* Loading, pause and run, speed and status. */
static void
seeds_admin(void)
{
	/* A model that loads, and one that MuJoCo refuses. */
	const char *xml_ok =
	    "<mujoco model=\"inline\"><worldbody><body pos=\"0 0 1\">"
	    "<joint name=\"j\" type=\"hinge\"/><geom type=\"capsule\" "
	    "fromto=\"0 0 0 0 0 -0.3\" size=\"0.03\"/></body>"
	    "</worldbody><actuator><motor joint=\"j\"/></actuator></mujoco>";
	const char *xml_bad =
	    "<mujoco model=\"inline\"><worldbody><body><freejoint/>"
	    "<geom type=\"sphere\" size=\"0.1\"/></body></worldbody>"
	    "<actuator><motor joint=\"\" gear=\"1\"/></actuator></mujoco>";
	Haptix__V1__LoadModel lm = HAPTIX__V1__LOAD_MODEL__INIT;
	Haptix__V1__InlineModel im = HAPTIX__V1__INLINE_MODEL__INIT;
	Haptix__V1__Speed sp = HAPTIX__V1__SPEED__INIT;

	one_empty("pause", HAPTIX__V1__REQUEST__CALL_PAUSE);
	one_empty("run", HAPTIX__V1__REQUEST__CALL_RUN);
	one_empty("status", HAPTIX__V1__REQUEST__CALL_STATUS);
	lm.source_case = HAPTIX__V1__LOAD_MODEL__SOURCE_PATH;
	lm.path = (char *)"fixture.xml";
	{
		REQ(r, LOAD_MODEL, load_model, &lm);
		one("load_model", &r);
	}
	im.format = HAPTIX__V1__MODEL_FORMAT__MODEL_FORMAT_MJCF;
	im.data.data = (uint8_t *)xml_ok;
	im.data.len = strlen(xml_ok);
	im.name = (char *)"seed";
	lm.source_case = HAPTIX__V1__LOAD_MODEL__SOURCE_INLINE_MODEL;
	lm.inline_model = &im;
	{
		REQ(r, LOAD_MODEL, load_model, &lm);
		one("load_model-inline", &r);
	}
	im.data.data = (uint8_t *)xml_bad;
	im.data.len = strlen(xml_bad);
	{
		REQ(r, LOAD_MODEL, load_model, &lm);
		one("load_model-inline-bad", &r);
	}
	/* A model with the files it names: an include, and a mesh. */
	{
		static const char xml_inc
		    [] = "<mujoco model=\"carried\"><asset><mesh name=\"m\" "
			 "file=\"meshes/m.stl\"/></asset><worldbody>"
			 "<include file=\"body.xml\"/></worldbody></mujoco>";
		static const char
		    body[] = "<mujoco><body pos=\"0 0 1\"><freejoint/><geom "
			     "type=\"mesh\" mesh=\"m\"/></body></mujoco>";
		/* A binary STL: a tetrahedron, faces outward. */
		static const float tri[4][12] = {
			{ 0, 0, 0, 0, 0, 0, 0, .1f, 0, .1f, 0, 0 },
			{ 0, 0, 0, 0, 0, 0, .1f, 0, 0, 0, 0, .1f },
			{ 0, 0, 0, 0, 0, 0, 0, 0, .1f, 0, .1f, 0 },
			{ 0, 0, 0, .1f, 0, 0, 0, .1f, 0, 0, 0, .1f },
		};
		Haptix__V1__InlineAsset a[2] = { HAPTIX__V1__INLINE_ASSET__INIT,
			HAPTIX__V1__INLINE_ASSET__INIT };
		Haptix__V1__InlineAsset *ap[2] = { &a[0], &a[1] };
		uint8_t stl[84 + 4 * 50] = { 0 };
		uint32_t nt = 4;
		int t;

		memcpy(stl + 80, &nt, 4);
		for (t = 0; t < 4; t++)
			memcpy(stl + 84 + 50 * t, tri[t], sizeof(tri[t]));
		a[0].name = (char *)"body.xml";
		a[0].data.data = (uint8_t *)body;
		a[0].data.len = strlen(body);
		a[1].name = (char *)"meshes/m.stl";
		a[1].data.data = stl;
		a[1].data.len = sizeof(stl);
		im.data.data = (uint8_t *)xml_inc;
		im.data.len = strlen(xml_inc);
		im.n_assets = 2;
		im.assets = ap;
		{
			REQ(r, LOAD_MODEL, load_model, &lm);
			one("load_model-inline-assets", &r);
		}
		im.n_assets = 0;
		im.assets = NULL;
	}
	lm.source_case = HAPTIX__V1__LOAD_MODEL__SOURCE__NOT_SET;
	lm.legacy = 1;
	{
		REQ(r, LOAD_MODEL, load_model, &lm);
		one("load_model-reload", &r);
	}
	sp.factor = 4;
	{
		REQ(r, SET_SPEED, set_speed, &sp);
		one("set_speed", &r);
	}
	sp.max = 1;
	{
		REQ(r, SET_SPEED, set_speed, &sp);
		one("set_speed-max", &r);
	}
}

/*
 * Calls this file has no seed for: an empty message of the call's type,
 * found through the descriptor, so that new calls are fuzzed at once.
 */
static void
seeds_generic(void)
{
	const ProtobufCMessageDescriptor *md = &haptix__v1__request__descriptor;
	const ProtobufCFieldDescriptor *f;
	const ProtobufCMessageDescriptor *sub;
	ProtobufCMessage *msg;
	Request req;
	char name[128];
	unsigned i;

	for (i = 0; i < md->n_fields; i++) {
		f = &md->fields[i];
		if (!(f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) ||
		    f->type != PROTOBUF_C_TYPE_MESSAGE || f->id >= 256 ||
		    corpus_done[f->id])
			continue;
		sub = f->descriptor;
		if ((msg = calloc(1, sub->sizeof_message)) == NULL)
			die("out of memory");
		sub->message_init(msg);
		haptix__v1__request__init(&req);
		*(uint32_t *)((char *)&req + f->quantifier_offset) = f->id;
		*(ProtobufCMessage **)((char *)&req + f->offset) = msg;
		fprintf(stderr,
		    "make_corpus: warning: no seed of its own for call %s "
		    "(field %u): an empty %s\n",
		    f->name, f->id, sub->name);
		snprintf(name, sizeof(name), "%s", f->name);
		one(name, &req);
		free(msg);
	}
}

/* Sequences: the calls' interplay, and other sessions' settings. */
static void
seeds_sequences(void)
{
	static double ctrl[2] = { 1, -1 }, big[13];
	Haptix__V1__Control ct = HAPTIX__V1__CONTROL__INIT;
	Haptix__V1__Update up = HAPTIX__V1__UPDATE__INIT;
	Haptix__V1__Lease ls = HAPTIX__V1__LEASE__INIT;
	Haptix__V1__Subscribe sb = HAPTIX__V1__SUBSCRIBE__INIT;
	Haptix__V1__RobotCommand rc = HAPTIX__V1__ROBOT_COMMAND__INIT;
	Haptix__V1__Message ms = HAPTIX__V1__MESSAGE__INIT;
	Haptix__V1__Batch bt = HAPTIX__V1__BATCH__INIT;
	Haptix__V1__KeyCapture kc = HAPTIX__V1__KEY_CAPTURE__INIT;
	Haptix__V1__Reset rs = HAPTIX__V1__RESET__INIT;
	Haptix__V1__Step sp = HAPTIX__V1__STEP__INIT;
	static Haptix__V1__StreamField all[] = {
		HAPTIX__V1__STREAM_FIELD__STREAM_QPOS,
		HAPTIX__V1__STREAM_FIELD__STREAM_QVEL,
		HAPTIX__V1__STREAM_FIELD__STREAM_SENSORDATA,
		HAPTIX__V1__STREAM_FIELD__STREAM_BODY,
		HAPTIX__V1__STREAM_FIELD__STREAM_GEOM,
		HAPTIX__V1__STREAM_FIELD__STREAM_CONTACTS,
		HAPTIX__V1__STREAM_FIELD__STREAM_STATUS,
	};
	struct seed s;

	/* run, then calls that wait for the API tick, then pause. */
	seed_begin(&s, FUZZ_HELLO, 0);
	seed_empty(&s, HAPTIX__V1__REQUEST__CALL_RUN);
	ct.nu = 2;
	ct.n_ctrl = 2;
	ct.ctrl = ctrl;
	up.control = &ct;
	{
		REQ(r, UPDATE, update, &up);
		seed_req(&s, &r);
	}
	rc.n_ref_pos = 2;
	rc.ref_pos = ctrl;
	rc.ref_pos_enabled = 1;
	{
		REQ(r, ROBOT_UPDATE, robot_update, &rc);
		seed_req(&s, &r);
	}
	seed_empty(&s, HAPTIX__V1__REQUEST__CALL_GET_SENSOR);
	seed_empty(&s, HAPTIX__V1__REQUEST__CALL_PAUSE);
	seed_write(&s, "seq-run-update-pause");

	/* Lease, message and subscription, then the client vanishes. */
	seed_begin(&s, FUZZ_HELLO | FUZZ_ABRUPT, 0);
	ls.op = HAPTIX__V1__LEASE__OP__TAKE;
	{
		REQ(r, LEASE, lease, &ls);
		seed_req(&s, &r);
	}
	ms.text = (char *)"mine";
	{
		REQ(r, MESSAGE, message, &ms);
		seed_req(&s, &r);
	}
	sb.wall_hz = 1000;
	sb.events = 1;
	{
		REQ(r, SUBSCRIBE, subscribe, &sb);
		seed_req(&s, &r);
	}
	bt.steps = 100000;
	{
		REQ(r, BATCH, batch, &bt);
		seed_req(&s, &r);
	}
	seed_empty(&s, HAPTIX__V1__REQUEST__CALL_STATUS);
	seed_write(&s, "seq-lease-stream-batch-vanish");

	/* Capture a state by name, step, reset to it. */
	seed_begin(&s, FUZZ_HELLO, 0);
	kc.name = (char *)"here";
	{
		REQ(r, CAPTURE_KEY, capture_key, &kc);
		seed_req(&s, &r);
	}
	bt.steps = 0;
	bt.until_time = 0.1;
	{
		REQ(r, BATCH, batch, &bt);
		seed_req(&s, &r);
	}
	rs.name = (char *)"here";
	{
		REQ(r, RESET, reset, &rs);
		seed_req(&s, &r);
	}
	seed_empty(&s, HAPTIX__V1__REQUEST__CALL_GET_STATE);
	seed_write(&s, "seq-capture-batch-reset");

	/* A frame every step, more than the output holds: congestion. */
	seed_begin(&s, FUZZ_HELLO, 0);
	sb.n_fields = sizeof(all) / sizeof(all[0]);
	sb.fields = all;
	sb.every_steps = 1;
	sb.wall_hz = 0;
	{
		REQ(r, SUBSCRIBE, subscribe, &sb);
		seed_req(&s, &r);
	}
	sp.count = 10000;
	{
		REQ(r, STEP, step, &sp);
		seed_req(&s, &r);
	}
	seed_empty(&s, HAPTIX__V1__REQUEST__CALL_CLIENTS);
	seed_empty(&s, HAPTIX__V1__REQUEST__CALL_GET_STATE);
	seed_write(&s, "seq-stream-congestion");

	/* The MPL hand: the simple API with its 13 motors. */
	seed_begin(&s, FUZZ_HELLO | FUZZ_MPL, 0);
	seed_empty(&s, HAPTIX__V1__REQUEST__CALL_ROBOT_INFO);
	rc.n_ref_pos = 13;
	rc.ref_pos = big;
	rc.no_wait = 1;
	{
		REQ(r, ROBOT_UPDATE, robot_update, &rc);
		seed_req(&s, &r);
	}
	seed_empty(&s, HAPTIX__V1__REQUEST__CALL_GET_CONTACT);
	seed_empty(&s, HAPTIX__V1__REQUEST__CALL_INFO);
	seed_write(&s, "mpl-robot");
}

/* Framing and handshake edge cases. */
static void
seeds_framing(void)
{
	static const uint8_t empty_frame[4] = { 0, 0, 0, 0 };
	static const uint8_t oversize[4] = { 0xff, 0xff, 0xff, 0xff };
	static const uint8_t garbage[] = { 0, 0, 0, 5, 0xff, 0xff, 0xff, 0xff,
		0xff };
	static const uint8_t unknown[] = { 0, 0, 0, 5, 0x08, 0x07, 0xfa, 0x07,
		0x00 }; /* id 7, field 127: Empty */
	static const uint8_t partial[] = { 0, 0, 0, 100, 0x08, 0x01 };
	Haptix__V1__Hello h = HAPTIX__V1__HELLO__INIT;
	struct seed s;
	int i;

	seed_begin(&s, FUZZ_HELLO, 0);
	seed_raw(&s, empty_frame, sizeof(empty_frame));
	seed_write(&s, "frame-empty");

	seed_begin(&s, FUZZ_HELLO, 0);
	seed_raw(&s, oversize, sizeof(oversize));
	seed_write(&s, "frame-oversize");

	seed_begin(&s, FUZZ_HELLO, 0);
	seed_raw(&s, garbage, sizeof(garbage));
	seed_empty(&s, HAPTIX__V1__REQUEST__CALL_STATUS);
	seed_write(&s, "frame-garbage");

	seed_begin(&s, FUZZ_HELLO, 0);
	seed_raw(&s, unknown, sizeof(unknown));
	seed_write(&s, "frame-unknown-call");

	seed_begin(&s, FUZZ_HELLO, 0);
	seed_raw(&s, partial, sizeof(partial));
	seed_write(&s, "frame-partial");

	/* Requests split across reads, a byte at a time and unevenly. */
	seed_begin(&s, FUZZ_HELLO, 1);
	seed_empty(&s, HAPTIX__V1__REQUEST__CALL_GET_STATE);
	seed_empty(&s, HAPTIX__V1__REQUEST__CALL_STATUS);
	seed_write(&s, "frame-split-1");
	seed_begin(&s, FUZZ_HELLO, 7);
	seed_empty(&s, HAPTIX__V1__REQUEST__CALL_GET_STATE);
	seed_empty(&s, HAPTIX__V1__REQUEST__CALL_INFO);
	seed_write(&s, "frame-split-7");

	/* More frames than a session handles in one wakeup. */
	seed_begin(&s, FUZZ_HELLO, 0);
	for (i = 0; i < 40; i++)
		seed_empty(&s, HAPTIX__V1__REQUEST__CALL_GET_CONTROL);
	seed_write(&s, "frame-many");

	/* The handshake: missing, twice, wrong version, tokens on TCP. */
	seed_begin(&s, 0, 0);
	seed_empty(&s, HAPTIX__V1__REQUEST__CALL_GET_STATE);
	seed_write(&s, "hello-missing");

	h.protocol_version = 1;
	h.client_name = (char *)"seed";
	{
		REQ(r, HELLO, hello, &h);
		seed_begin(&s, 0, 0);
		seed_req(&s, &r);
		seed_empty(&s, HAPTIX__V1__REQUEST__CALL_STATUS);
		seed_write(&s, "call-hello");
		seed_begin(&s, FUZZ_HELLO, 0);
		seed_req(&s, &r);
		seed_write(&s, "hello-twice");
		h.protocol_version = 99;
		seed_begin(&s, 0, 0);
		seed_req(&s, &r);
		seed_write(&s, "hello-version");
		h.protocol_version = 1;
		h.token.data = (uint8_t *)"wrong";
		h.token.len = 5;
		seed_begin(&s, FUZZ_TCP, 0);
		seed_req(&s, &r);
		seed_write(&s, "hello-tcp-wrong-token");
	}
	seed_begin(&s, FUZZ_TCP | FUZZ_HELLO, 0);
	seed_empty(&s, HAPTIX__V1__REQUEST__CALL_CLIENTS);
	seed_write(&s, "hello-tcp-token");
}

/* Models by path (legacy, URDF), inline MJCF, a model directory. */
static void
seeds_models(void)
{
	static const struct {
		const char *seed, *path;
		int legacy;
	} files[] = {
		{ "load-legacy-hand", "legacy/hand1x.xml", 1 },
		{ "load-legacy-actuators", "legacy/actuators1x.xml", 1 },
		{ "load-legacy-mesh", "legacy/mesh_case.xml", 1 },
		{ "load-urdf", "arm.urdf", 0 },
		{ "load-broken", "broken.xml", 0 },
		{ "load-lenient", "pouring.xml", 1 },
		{ "load-outside", "../../etc/passwd", 0 },
	};
	/*
	 * Inline models stand in a model directory: names by absolute path,
	 * and relative ones that only the second directory holds; and
	 * MJCF that only MuJoCo's XML reader reads.
	 */
	const char *dir = getenv("HX_MODELS") != NULL ? getenv("HX_MODELS") :
							"models";
	static const char *const names[5] = { "inline-include", "inline-mesh",
		"inline-escape", "inline-relative", "inline-lenient" };
	char inl[5][1024];
	Haptix__V1__LoadModel lm = HAPTIX__V1__LOAD_MODEL__INIT;
	Haptix__V1__InlineModel im = HAPTIX__V1__INLINE_MODEL__INIT;
	Haptix__V1__ModelDirs md = HAPTIX__V1__MODEL_DIRS__INIT;
	size_t i;

	lm.source_case = HAPTIX__V1__LOAD_MODEL__SOURCE_PATH;
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		lm.path = (char *)files[i].path;
		lm.legacy = files[i].legacy;
		REQ(r, LOAD_MODEL, load_model, &lm);
		one(files[i].seed, &r);
	}
	lm.legacy = 0;
	lm.source_case = HAPTIX__V1__LOAD_MODEL__SOURCE_INLINE_MODEL;
	lm.inline_model = &im;
	snprintf(inl[0], sizeof(inl[0]),
	    "<mujoco><include file=\"%s/test/fixture.xml\"/></mujoco>", dir);
	snprintf(inl[1], sizeof(inl[1]),
	    "<mujoco><compiler meshdir=\"%s/test/legacy\"/><asset>"
	    "<mesh file=\"Palm.stl\"/></asset><worldbody><geom "
	    "type=\"mesh\" mesh=\"Palm\"/></worldbody></mujoco>",
	    dir);
	snprintf(inl[2], sizeof(inl[2]),
	    "<mujoco><asset><texture type=\"2d\" file=\"/etc/passwd\"/>"
	    "</asset></mujoco>");
	snprintf(inl[3], sizeof(inl[3]),
	    "<mujoco><include file=\"mpl_hand.xml\"/></mujoco>");
	snprintf(inl[4], sizeof(inl[4]),
	    "<!-- -- --><mujoco model=\"&#x2e;&x;\"><worldbody><geom "
	    "size=\"0.1\"pos=\"0 0 1\"condim=\"4\"/></worldbody></mujoco>"
	    "<after/>");
	for (i = 0; i < 5; i++) {
		im.data.data = (uint8_t *)inl[i];
		im.data.len = strlen(inl[i]);
		REQ(r, LOAD_MODEL, load_model, &lm);
		one(names[i], &r);
	}
	/* A directory to add: refused, since user-model-dirs is off. */
	md.add = (char *)"/tmp";
	{
		REQ(r, MODEL_DIRS, model_dirs, &md);
		one("model_dirs-add", &r);
	}
}

/*
 * Inline MJB, for the fuzzer to mutate: the fixture (every kind of object,
 * a mesh and its convex-hull graph, a height field) as MuJoCo writes it,
 * and the same with a geom type MuJoCo does not check.
 */
static void
seeds_mjb(void)
{
	const char *dir = getenv("HX_MODELS") != NULL ? getenv("HX_MODELS") :
							"models";
	Haptix__V1__LoadModel lm = HAPTIX__V1__LOAD_MODEL__INIT;
	Haptix__V1__InlineModel im = HAPTIX__V1__INLINE_MODEL__INIT;
	char path[4096], err[1000];
	mjModel *m;
	void *mjb;
	int len;

	snprintf(path, sizeof(path), "%s/test/fixture.xml", dir);
	if ((m = mj_loadXML(path, NULL, err, sizeof(err))) == NULL) {
		fprintf(stderr, "make_corpus: %s: %s\n", path, err);
		exit(1);
	}
	len = mj_sizeModel(m);
	if ((mjb = malloc((size_t)len)) == NULL)
		exit(1);
	lm.source_case = HAPTIX__V1__LOAD_MODEL__SOURCE_INLINE_MODEL;
	lm.inline_model = &im;
	im.format = HAPTIX__V1__MODEL_FORMAT__MODEL_FORMAT_MJB;
	im.name = (char *)"mjb";
	im.data.data = mjb;
	im.data.len = (size_t)len;
	mj_saveModel(m, NULL, mjb, len);
	{
		REQ(r, LOAD_MODEL, load_model, &lm);
		one("load_model-mjb", &r);
	}
	m->geom_type[m->ngeom - 1] = 100;
	mj_saveModel(m, NULL, mjb, len);
	{
		REQ(r, LOAD_MODEL, load_model, &lm);
		one("load_model-mjb-bad-geom", &r);
	}
	mj_deleteModel(m);
	free(mjb);
}

/* An edit transaction on the fixture: an add, a set, a remove. */
static void
seeds_edit(void)
{
	Haptix__V1__EditModel em = HAPTIX__V1__EDIT_MODEL__INIT;
	Haptix__V1__EditOp op[3], *ops[3];
	Haptix__V1__EditAttr pos = HAPTIX__V1__EDIT_ATTR__INIT,
			     size = HAPTIX__V1__EDIT_ATTR__INIT;
	Haptix__V1__EditAttr *add_attrs[1] = { &pos },
			     *set_attrs[1] = { &size };
	int i;

	for (i = 0; i < 3; i++) {
		haptix__v1__edit_op__init(&op[i]);
		ops[i] = &op[i];
	}
	pos.name = (char *)"pos";
	pos.value = (char *)"0 0 2";
	size.name = (char *)"size";
	size.value = (char *)"0.2 0.2 0.2";
	op[0].kind = HAPTIX__V1__EDIT_KIND__EDIT_ADD;
	op[0].type = (char *)"body";
	op[0].name = (char *)"extra";
	op[0].parent_type = (char *)"worldbody";
	op[0].n_attrs = 1;
	op[0].attrs = add_attrs;
	op[1].kind = HAPTIX__V1__EDIT_KIND__EDIT_SET;
	op[1].type = (char *)"geom";
	op[1].name = (char *)"box";
	op[1].n_attrs = 1;
	op[1].attrs = set_attrs;
	op[2].kind = HAPTIX__V1__EDIT_KIND__EDIT_REMOVE;
	op[2].type = (char *)"body";
	op[2].name = (char *)"link2";
	em.n_ops = 3;
	em.ops = ops;
	{
		REQ(r, EDIT_MODEL, edit_model, &em);
		one("edit_model", &r);
	}
	/* A default class added, its settings set, and assigned. */
	op[0].kind = HAPTIX__V1__EDIT_KIND__EDIT_ADD;
	op[0].type = (char *)"default";
	op[0].name = (char *)"soft";
	op[0].parent_type = (char *)"default";
	op[0].n_attrs = 0;
	op[1].kind = HAPTIX__V1__EDIT_KIND__EDIT_SET;
	op[1].type = (char *)"geom";
	op[1].name = (char *)"";
	op[1].parent_type = (char *)"default";
	op[1].parent_name = (char *)"soft";
	size.name = (char *)"rgba";
	size.value = (char *)"1 0 0 1";
	op[2].kind = HAPTIX__V1__EDIT_KIND__EDIT_SET;
	op[2].type = (char *)"geom";
	op[2].name = (char *)"box";
	op[2].n_attrs = 1;
	op[2].attrs = add_attrs;
	pos.name = (char *)"class";
	pos.value = (char *)"soft";
	{
		REQ(r, EDIT_MODEL, edit_model, &em);
		one("edit_model-default-class", &r);
	}
}

/*
 * A hinge held (an edit adds its equality), its target moved (no edit),
 * and released: the fixture's two hinges.
 */
static void
seeds_hold(void)
{
	Haptix__V1__HoldJoints hj = HAPTIX__V1__HOLD_JOINTS__INIT;
	Haptix__V1__ReleaseJoints rj = HAPTIX__V1__RELEASE_JOINTS__INIT;
	char *joints[2] = { (char *)"hinge1", (char *)"hinge2" };
	double values[2] = { 0.3, -0.2 };

	hj.n_joints = hj.n_values = 2;
	hj.joints = joints;
	hj.values = values;
	{
		REQ(r, HOLD, hold, &hj);
		one("hold", &r);
	}
	rj.n_joints = 1;
	rj.joints = joints;
	{
		REQ(r, RELEASE, release, &rj);
		one("release", &r);
	}
}

/*
 * The World API's calls on the fixture's free box (body 3): a timed
 * wrench with its gravity off, every wrench ended, the view camera set
 * and read, the box's collide mode set to detection only and read.
 */
static void
seeds_world(void)
{
	Haptix__V1__WorldForce wf = HAPTIX__V1__WORLD_FORCE__INIT;
	Haptix__V1__Camera cam = HAPTIX__V1__CAMERA__INIT;
	Haptix__V1__CollideMode cm = HAPTIX__V1__COLLIDE_MODE__INIT;
	double force[3] = { 0, 0, 12 }, torque[3] = { 0, 0.5, 0 };
	double pos[3] = { 1, -2, 1.5 }, quat[4] = { 0.92388, 0, 0.38268, 0 };

	wf.body = 3;
	wf.n_force = wf.n_torque = 3;
	wf.force = force;
	wf.torque = torque;
	wf.duration = 0.25;
	wf.gravity = 2;
	{
		REQ(r, WORLD_FORCE, world_force, &wf);
		one("world_force", &r);
	}
	wf = (Haptix__V1__WorldForce)HAPTIX__V1__WORLD_FORCE__INIT;
	wf.body = -1;
	wf.clear_all = 1;
	{
		REQ(r, WORLD_FORCE, world_force, &wf);
		one("world_force-clear", &r);
	}
	cam.set = 1;
	cam.n_pos = 3;
	cam.pos = pos;
	cam.n_quat = 4;
	cam.quat = quat;
	{
		REQ(r, CAMERA, camera, &cam);
		one("camera-set", &r);
	}
	cm.body = 3;
	cm.mode = 1;
	{
		REQ(r, COLLIDE_MODE, collide_mode, &cm);
		one("collide_mode", &r);
	}
	cm.mode = -1;
	{
		REQ(r, COLLIDE_MODE, collide_mode, &cm);
		one("collide_mode-read", &r);
	}
}

/* A joint by name, and the model's MJCF text. */
static void
seeds_joint_and_xml(void)
{
	Haptix__V1__ObjectRef ref = HAPTIX__V1__OBJECT_REF__INIT;
	Haptix__V1__Empty e = HAPTIX__V1__EMPTY__INIT;

	ref.name = (char *)"hinge1";
	{
		REQ(r, GET_JOINT, get_joint, &ref);
		one("get_joint", &r);
	}
	{
		REQ(r, GET_MODEL_XML, get_model_xml, &e);
		one("get_model_xml", &r);
	}
}

/*
 * Attaches on the fixture: a copy of its own link1, renamed, and a body
 * from inline MJCF at a site.
 */
static void
seeds_attach(void)
{
	static const char
	    inline_xml[] = "<mujoco><compiler angle=\"radian\"/><worldbody><body "
			   "name=\"b\"><geom size=\"0.05\"/></body></worldbody>"
			   "<actuator><motor name=\"m\" joint=\"j\"/></actuator>"
			   "</mujoco>";
	Haptix__V1__EditModel em = HAPTIX__V1__EDIT_MODEL__INIT;
	Haptix__V1__EditOp op[2], *ops[2];
	int i;

	for (i = 0; i < 2; i++) {
		haptix__v1__edit_op__init(&op[i]);
		ops[i] = &op[i];
		op[i].kind = HAPTIX__V1__EDIT_KIND__EDIT_ATTACH;
		op[i].type = (char *)"body";
	}
	op[0].name = (char *)"link1";
	op[0].parent_type = (char *)"worldbody";
	op[0].prefix = (char *)"copy_";
	op[1].name = (char *)"b";
	op[1].parent_type = (char *)"site";
	op[1].parent_name = (char *)"tip";
	op[1].source_xml = (char *)inline_xml;
	op[1].suffix = (char *)"_2";
	em.n_ops = 2;
	em.ops = ops;
	{
		REQ(r, EDIT_MODEL, edit_model, &em);
		one("edit_model_attach", &r);
	}
}

/*
 * MuJoCo's computations on the fixture: a Jacobian of the site "tip",
 * the mass matrix, a ray down with geom groups and a body excluded,
 * the contact forces and an inverse on a given state (qpos, qvel and
 * qacc); then the contact forces of the last step.
 */
static void
seeds_compute(void)
{
	static char *tip[] = { (char *)"tip" };
	static double qpos[9] = { 0.3, -0.2, 0.6, 0, 0.1, 1, 0, 0, 0 };
	static double ray[6] = { 0.6, 0, 1.5, 0, 0, -1 };
	static protobuf_c_boolean groups[6] = { 1, 1, 1, 0, 0, 0 };
	Haptix__V1__Compute cw = HAPTIX__V1__COMPUTE__INIT;
	Haptix__V1__Query q[5], *qp[5];
	Haptix__V1__ComputeState st = HAPTIX__V1__COMPUTE_STATE__INIT;
	Haptix__V1__ComputeState *sp[1] = { &st };
	int i;

	for (i = 0; i < 5; i++) {
		haptix__v1__query__init(&q[i]);
		qp[i] = &q[i];
	}
	q[0].kind = HAPTIX__V1__COMPUTE_KIND__COMPUTE_JAC_SITE;
	q[0].n_names = 1;
	q[0].names = tip;
	q[1].kind = HAPTIX__V1__COMPUTE_KIND__COMPUTE_FULL_M;
	q[2].kind = HAPTIX__V1__COMPUTE_KIND__COMPUTE_RAY;
	q[2].n_args = 6;
	q[2].args = ray;
	q[2].n_geomgroup = 6;
	q[2].geomgroup = groups;
	q[2].exclude_body = (char *)"link1";
	q[3].kind = HAPTIX__V1__COMPUTE_KIND__COMPUTE_CONTACT_FORCE;
	q[4].kind = HAPTIX__V1__COMPUTE_KIND__COMPUTE_INVERSE;
	st.n_qpos = 9;
	st.qpos = qpos;
	st.n_qvel = st.n_qacc = 8;
	st.qvel = st.qacc = zeros;
	cw.n_queries = 5;
	cw.queries = qp;
	cw.n_states = 1;
	cw.states = sp;
	{
		REQ(r, COMPUTE, compute, &cw);
		one("compute", &r);
	}
	cw.n_queries = 1;
	cw.queries = &qp[3];
	cw.n_states = 0;
	cw.states = NULL;
	cw.last_step = 1;
	{
		REQ(r, COMPUTE, compute, &cw);
		one("compute-last_step", &r);
	}
}

/* One dictionary entry, escaped as libFuzzer reads them. */
static void
dict_entry(FILE *f, const uint8_t *p, size_t len)
{
	size_t i;

	fputc('"', f);
	for (i = 0; i < len; i++) {
		if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '"' && p[i] != '\\')
			fputc(p[i], f);
		else
			fprintf(f, "\\x%02x", p[i]);
	}
	fputs("\"\n", f);
}

/*
 * The dictionary: each call's key (its field number with the
 * length-delimited wire type) and the words the fuzzer would take long
 * to guess.
 */
static void
write_dict(const char *path)
{
	static const char *const words[] = {
		/* models/test/fixture.xml */
		"hinge1",
		"hinge2",
		"link1",
		"link2",
		"box",
		"marker",
		"floor",
		"terrain",
		"tetra",
		"site1",
		"tip",
		"sum",
		"couple",
		"servo1",
		"servo2",
		"q1",
		"q2",
		"v1",
		"f1",
		"tip_pos",
		"sum_len",
		"acc",
		"raised",
		"dropped",
		"red",
		"green",
		"bumps",
		/* arrays by name (daemon/sim_array.c) */
		"qpos",
		"qvel",
		"act",
		"ctrl",
		"mocap_pos",
		"mocap_quat",
		"qfrc_applied",
		"xfrc_applied",
		"qacc_warmstart",
		"userdata",
		"geom_rgba",
		"geom_size",
		"geom_friction",
		"geom_solref",
		"jnt_range",
		"jnt_limited",
		"dof_damping",
		"eq_active",
		"eq_data",
		"actuator_gainprm",
		"actuator_biasprm",
		"actuator_ctrlrange",
		"tendon_range",
		"body_mass",
		"body_inertia",
		"dof_armature",
		"key_qpos",
		"key_time",
		"sensor_noise",
		"opt",
		"nq",
		"body_parentid",
		/* model files in the model directories */
		"fixture.xml",
		"mpl_scene.xml",
		"mpl_hand.xml",
		"arm.urdf",
		"broken.xml",
		"unstable.xml",
		"overflow.xml",
		"velservo.xml",
		"view.xml",
		"legacy/hand1x.xml",
		"legacy/Palm.stl",
		"../",
		/* MJCF and URDF words */
		"<mujoco>",
		"</mujoco>",
		"<worldbody>",
		"<body",
		"<geom",
		"<joint",
		"<include file=",
		"<compiler",
		"meshdir=",
		"texturedir=",
		"<asset>",
		"<mesh",
		"<hfield",
		"<texture",
		"<skin",
		"file=",
		"filename=",
		"<robot",
		"<link",
		"<size",
		"nstack=",
		"nuserdata=",
		"<keyframe>",
		"<key",
		"<actuator>",
		"<motor",
		"<position",
		"<sensor>",
		"type=",
		"size=",
		"<default",
		"class=",
		"childclass=",
		"<freejoint",
		"<equality>",
		"polycoef=",
	};
	const ProtobufCMessageDescriptor *md = &haptix__v1__request__descriptor;
	uint8_t key[8];
	unsigned i, v, n;
	FILE *f;

	if ((f = fopen(path, "w")) == NULL) {
		fprintf(stderr, "make_corpus: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	fprintf(f, "# haptixd: written by fuzz/make_corpus\n");
	for (i = 0; i < md->n_fields; i++) {
		if (!(md->fields[i].flags & PROTOBUF_C_FIELD_FLAG_ONEOF))
			continue;
		v = md->fields[i].id << 3 | 2;
		for (n = 0; v >= 0x80; v >>= 7)
			key[n++] = (uint8_t)(v | 0x80);
		key[n++] = (uint8_t)v;
		key[n++] = 0; /* an empty message */
		dict_entry(f, key, n);
	}
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		dict_entry(f, (const uint8_t *)words[i], strlen(words[i]));
	if (fclose(f) != 0) {
		fprintf(stderr, "make_corpus: %s: %s\n", path, strerror(errno));
		exit(1);
	}
}

/* The input drivers' calls: poses, connecting, forces, smooth moves. */
static void
seeds_drivers(void)
{
	static double pos[3] = { 0.1, 0.2, 0.9 }, quat[4] = { 1, 0, 0, 0 };
	static double force[3] = { 0, 0, 5 }, torque[3] = { 0, 0.1, 0 };
	Haptix__V1__MocapPose mp = HAPTIX__V1__MOCAP_POSE__INIT;
	Haptix__V1__MocapConnect mc = HAPTIX__V1__MOCAP_CONNECT__INIT;
	Haptix__V1__Perturb pt = HAPTIX__V1__PERTURB__INIT;
	Haptix__V1__MocapMove mv = HAPTIX__V1__MOCAP_MOVE__INIT;
	Haptix__V1__Step st = HAPTIX__V1__STEP__INIT;
	struct seed s;

	mp.body = (char *)"marker";
	mp.n_pos = 3;
	mp.pos = pos;
	mp.n_quat = 4;
	mp.quat = quat;
	mp.sample_time_us = 1700000000000000LL;
	mp.source_time = 12.5;
	mc.body = (char *)"marker";
	mc.connect = 1;
	pt.name = (char *)"box";
	pt.n_force = 3;
	pt.force = force;
	pt.n_torque = 3;
	pt.torque = torque;
	{
		REQ(r, MOCAP_POSE, mocap_pose, &mp);
		one("mocap_pose", &r);
	}
	{
		REQ(r, MOCAP_CONNECT, mocap_connect, &mc);
		one("mocap_connect", &r);
	}
	{
		REQ(r, PERTURB, perturb, &pt);
		one("perturb", &r);
	}
	/* Connect, a pose to take the offset, a moved pose, a force. */
	seed_begin(&s, 0, 0);
	{
		REQ(r, MOCAP_CONNECT, mocap_connect, &mc);
		seed_req(&s, &r);
	}
	{
		REQ(r, MOCAP_POSE, mocap_pose, &mp);
		seed_req(&s, &r);
	}
	pos[2] = 1.0;
	{
		REQ(r, MOCAP_POSE, mocap_pose, &mp);
		seed_req(&s, &r);
	}
	{
		REQ(r, PERTURB, perturb, &pt);
		seed_req(&s, &r);
	}
	seed_write(&s, "drivers_sequence");
	pos[2] = 0.9;

	/* A smooth move, then the steps that carry it out. */
	mv.body = (char *)"marker";
	mv.n_pos = 3;
	mv.pos = pos;
	mv.n_quat = 4;
	mv.quat = quat;
	mv.seconds = 0.01;
	st.count = 3;
	{
		REQ(r, MOCAP_MOVE, mocap_move, &mv);
		one("mocap_move", &r);
	}
	seed_begin(&s, FUZZ_HELLO, 0);
	{
		REQ(r, MOCAP_MOVE, mocap_move, &mv);
		seed_req(&s, &r);
	}
	{
		REQ(r, STEP, step, &st);
		seed_req(&s, &r);
	}
	seed_write(&s, "mocap_move_steps");
}

int
main(int argc, char **argv)
{
	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: make_corpus DIR [DICT]\n");
		return 2;
	}
	corpus_dir = argv[1];
	seeds_native();
	seeds_sessions();
	seeds_drivers();
	seeds_admin();
	seeds_models();
	seeds_mjb();
	seeds_edit();
	seeds_joint_and_xml();
	seeds_hold();
	seeds_world();
	seeds_attach();
	seeds_compute();
	seeds_sequences();
	seeds_framing();
	seeds_generic();
	if (argc == 3)
		write_dict(argv[2]);
	printf("make_corpus: %d seeds in %s\n", corpus_written, corpus_dir);
	return 0;
}
