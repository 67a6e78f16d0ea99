/*
 * make bench's codec figure: libhaptix's table-driven decoder (lib/
 * decode.c, its tables expanded from haptix.proto) against the same
 * decode written out by hand for one struct, on a get_state answer of the
 * MPL scene's sizes.  A program of its own, as the bare mj_step loop
 * is: the library's internals are compiled in (as tests/test_decode
 * does), which a program linked with libhaptix must not do.  hxbench runs
 * it: "codec N ROUNDS" prints one line per round, the ns a decode took
 * by table and by hand.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "request.h"
#include "tables.h"

#define CODEC_NQ 50
#define CODEC_NV 46
#define ALIGN16(n) (((n) + 15) & ~(size_t)15)

/* The hand-written decode: check the lengths, one block, three copies. */
static hxd_state *
codec_by_hand(hxd_conn *c, const Response *r)
{
	const Haptix__V1__State *w = r->state;
	size_t head = ALIGN16(sizeof(hxd_state)), nq, nv, na;
	hxd_state *o;
	char *p;

	if (r->payload_case != HAPTIX__V1__RESPONSE__PAYLOAD_STATE ||
	    w->n_qpos != w->nq || w->n_qvel != w->nv || w->n_act != w->na) {
		c->result = HXD_BADPROTOCOL;
		return NULL;
	}
	nq = ALIGN16(w->nq * sizeof(double));
	nv = ALIGN16(w->nv * sizeof(double));
	na = ALIGN16(w->na * sizeof(double));
	if ((p = calloc(1, head + nq + nv + na)) == NULL)
		return NULL;
	o = (hxd_state *)(void *)p;
	o->nq = (int)w->nq;
	o->nv = (int)w->nv;
	o->na = (int)w->na;
	o->time = w->time;
	o->qpos = (double *)(void *)(p + head);
	o->qvel = (double *)(void *)(p + head + nq);
	o->act = (double *)(void *)(p + head + nq + nv);
	memcpy(o->qpos, w->qpos, w->nq * sizeof(double));
	memcpy(o->qvel, w->qvel, w->nv * sizeof(double));
	memcpy(o->act, w->act, w->na * sizeof(double));
	return o;
}

static double
codec_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* n decodes each way; the ns each took.  0, or -1 if one failed. */
static int
codec_decode(long n, double *table_ns, double *hand_ns)
{
	double q[CODEC_NQ], v[CODEC_NV], t0;
	Haptix__V1__State st = HAPTIX__V1__STATE__INIT;
	Response r = HAPTIX__V1__RESPONSE__INIT;
	hxd_conn c = { .fd = -1 };
	hxd_state *o;
	long i;

	for (i = 0; i < CODEC_NQ; i++)
		q[i] = (double)i;
	for (i = 0; i < CODEC_NV; i++)
		v[i] = -(double)i;
	st.nq = st.n_qpos = CODEC_NQ;
	st.nv = st.n_qvel = CODEC_NV;
	st.qpos = q;
	st.qvel = v;
	st.time = 1;
	r.payload_case = HAPTIX__V1__RESPONSE__PAYLOAD_STATE;
	r.state = &st;
	t0 = codec_now();
	for (i = 0; i < n; i++) {
		o = decode_payload(
		    &c, &r, state_fields, NELEM(state_fields), sizeof(*o));
		if (o == NULL || o->qvel[CODEC_NV - 1] != v[CODEC_NV - 1])
			return -1;
		free(o);
	}
	*table_ns = (codec_now() - t0) / (double)n * 1e9;
	t0 = codec_now();
	for (i = 0; i < n; i++) {
		o = codec_by_hand(&c, &r);
		if (o == NULL || o->qvel[CODEC_NV - 1] != v[CODEC_NV - 1])
			return -1;
		free(o);
	}
	*hand_ns = (codec_now() - t0) / (double)n * 1e9;
	return 0;
}

int
main(int argc, char **argv)
{
	double table, hand;
	long n, rounds, r;

	if (argc != 3 || (n = atol(argv[1])) <= 0 ||
	    (rounds = atol(argv[2])) <= 0) {
		fprintf(stderr, "usage: codec N ROUNDS\n");
		return 2;
	}
	for (r = 0; r < rounds; r++) {
		if (codec_decode(n, &table, &hand) != 0) {
			fprintf(stderr, "codec: a decode failed\n");
			return 1;
		}
		printf("%.2f %.2f\n", table, hand);
	}
	return 0;
}
