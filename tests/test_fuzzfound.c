/*
 * What fuzzing found (docs/fuzzing.md), replayed against a real haptixd:
 * each test sends the requests of one finding, reduced to what matters,
 * and checks the documented answer and that the daemon goes on serving.
 * Under --enable-sanitizers the daemon also aborts on the undefined
 * behaviour the fuzzer saw, which fails hx_server_stop().
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "harness.h"
#include "rawclient.h"

TestSuite(fuzzfound, .timeout = 60, .fini = hx_server_cleanup);

/* Send req and return its answer, skipping frames of id 0. */
static Haptix__V1__Response *
call(int fd, Haptix__V1__Request *req)
{
	Haptix__V1__Response *r;

	raw_send_request(fd, req);
	for (;;) {
		r = raw_recv(fd, 5000);
		cr_assert_not_null(r, "no answer to request %llu",
		    (unsigned long long)req->id);
		if (r->id == req->id)
			return r;
		haptix__v1__response__free_unpacked(r, NULL);
	}
}

/* The daemon still answers: status on the same connection. */
static void
still_serving(int fd)
{
	Haptix__V1__Response *r;

	r = raw_call_empty(fd, HAPTIX__V1__REQUEST__CALL_STATUS, 999);
	cr_assert_not_null(r, "no answer to status");
	cr_assert_eq(r->result, HAPTIX__V1__RESULT__RESULT_OK);
	haptix__v1__response__free_unpacked(r, NULL);
}

/*
 * A wall-time rate so small that its period overflowed the timer's
 * seconds (a float-to-integer conversion out of range): refused now,
 * as is every rate below STREAM_WALL_HZ_MIN; the smallest one works.
 */
Test(fuzzfound, subscribe_tiny_wall_hz)
{
	static Haptix__V1__StreamField fields[] = {
		HAPTIX__V1__STREAM_FIELD__STREAM_QPOS
	};
	static const double bad[] = { 1e-300, 5e-324, 1e-7 };
	Haptix__V1__Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__Subscribe sub = HAPTIX__V1__SUBSCRIBE__INIT;
	Haptix__V1__Response *r;
	struct hx_server srv;
	size_t i;
	int fd;

	hx_server_start(&srv, NULL);
	fd = raw_connect(srv.unix_addr);
	cr_assert_eq(raw_hello(fd, "fuzzfound"), 0, "Hello refused");
	sub.n_fields = 1;
	sub.fields = fields;
	req.call_case = HAPTIX__V1__REQUEST__CALL_SUBSCRIBE;
	req.subscribe = &sub;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		sub.wall_hz = bad[i];
		req.id = 10 + i;
		r = call(fd, &req);
		cr_assert_eq(r->result, HAPTIX__V1__RESULT__RESULT_BADVALUE,
		    "wall_hz %g: result %d (%s)", bad[i], r->result, r->error);
		cr_assert(strstr(r->error, "wall_hz") != NULL, "%s", r->error);
		haptix__v1__response__free_unpacked(r, NULL);
	}
	sub.wall_hz = 1e-6;
	req.id = 20;
	r = call(fd, &req);
	cr_assert_eq(r->result, HAPTIX__V1__RESULT__RESULT_OK,
	    "wall_hz 1e-6: result %d (%s)", r->result, r->error);
	haptix__v1__response__free_unpacked(r, NULL);
	still_serving(fd);
	close(fd);
	hx_server_stop(&srv);
}

/* Load a model sent inline as MJCF; return the result. */
static int
load_inline(int fd, uint64_t id, const char *xml)
{
	Haptix__V1__Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__LoadModel lm = HAPTIX__V1__LOAD_MODEL__INIT;
	Haptix__V1__InlineModel im = HAPTIX__V1__INLINE_MODEL__INIT;
	Haptix__V1__Response *r;
	int rc;

	im.format = HAPTIX__V1__MODEL_FORMAT__MODEL_FORMAT_MJCF;
	im.data.data = (uint8_t *)xml;
	im.data.len = strlen(xml);
	lm.source_case = HAPTIX__V1__LOAD_MODEL__SOURCE_INLINE_MODEL;
	lm.inline_model = &im;
	req.id = id;
	req.call_case = HAPTIX__V1__REQUEST__CALL_LOAD_MODEL;
	req.load_model = &lm;
	r = call(fd, &req);
	rc = r->result;
	haptix__v1__response__free_unpacked(r, NULL);
	return rc;
}

/*
 * An include whose name MuJoCo's VFS cannot hold ("dir/", "", a base
 * name of 1000 characters or more) made MuJoCo raise an error inside its
 * XML parser, and the daemon's jump out of it left the parser's lock
 * held: the next load of any XML model hung the daemon for good.  Now
 * such a load fails, and the next one works.
 */
Test(fuzzfound, include_name_vfs_cannot_hold)
{
	static const char good[] = "<mujoco model=\"after\"><worldbody>"
				   "<geom size=\".1\"/></worldbody></mujoco>";
	char dir[4096], xml[3][5400], longname[1201];
	struct hx_server srv;
	char *slash;
	int fd, rc, i;

	snprintf(dir, sizeof(dir), "%s", hx_test_model("fixture.xml"));
	slash = strrchr(dir, '/');
	cr_assert_not_null(slash);
	slash[1] = '\0';
	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	snprintf(xml[0], sizeof(xml[0]),
	    "<mujoco><include file=\"%s\"/></mujoco>", dir);
	snprintf(xml[1], sizeof(xml[1]),
	    "<mujoco><include file=\"%s%s\"/></mujoco>", dir, longname);
	snprintf(
	    xml[2], sizeof(xml[2]), "<mujoco><include file=\"\"/></mujoco>");

	hx_server_start(&srv, NULL);
	fd = raw_connect(srv.unix_addr);
	cr_assert_eq(raw_hello(fd, "fuzzfound"), 0, "Hello refused");
	for (i = 0; i < 3; i++) {
		rc = load_inline(fd, 10 + (uint64_t)i, xml[i]);
		cr_assert_neq(rc, HAPTIX__V1__RESULT__RESULT_OK,
		    "model %d loaded: %s", i, xml[i]);
		/* Before the fix, this one never came back. */
		cr_assert_eq(load_inline(fd, 20 + (uint64_t)i, good),
		    HAPTIX__V1__RESULT__RESULT_OK, "no load after model %d", i);
	}
	still_serving(fd);
	close(fd);
	hx_server_stop(&srv);
}
