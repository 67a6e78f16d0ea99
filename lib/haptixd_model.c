/*
 * The current model as MuJoCo's MJB (haptixd.h): fetched compressed with
 * zstd and handed over decompressed, checked against the size the server
 * announced.  The library never reads the MJB itself.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "conn.h"
#include "request.h"

void
hxd_model_blob_free(hxd_model_blob *b)
{
	if (b == NULL)
		return;
	free(b->mjb);
	memset(b, 0, sizeof(*b));
}

int
hxd_get_model(hxd_conn *c, hxd_model_blob *out)
{
	const Haptix__V1__ModelBlob *b;
	unsigned long long frame;
	Response *r;
	size_t n;
	void *mjb;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = request_call(c, HAPTIX__V1__REQUEST__CALL_GET_MODEL, NULL,
	    HAPTIX__V1__RESPONSE__PAYLOAD_MODEL_BLOB, &r);
	if (rc != HXD_OK)
		return rc;
	b = r->model_blob;
	frame = ZSTD_getFrameContentSize(b->mjb_zstd.data, b->mjb_zstd.len);
	if (b->mjb_size == 0 || b->mjb_size > HXD_MODEL_MAX ||
	    frame != b->mjb_size) {
		conn_free_response(r);
		return conn_fail(c, HXD_BADPROTOCOL,
		    "the server sent a model of %llu bytes that says it holds "
		    "%llu (limit %llu)",
		    (unsigned long long)b->mjb_size, frame,
		    (unsigned long long)HXD_MODEL_MAX);
	}
	if ((mjb = malloc(b->mjb_size)) == NULL) {
		conn_free_response(r);
		return conn_fail(c, HXD_CANNOTRECV,
		    "out of memory for a model of %llu bytes",
		    (unsigned long long)b->mjb_size);
	}
	n = ZSTD_decompress(
	    mjb, b->mjb_size, b->mjb_zstd.data, b->mjb_zstd.len);
	if (ZSTD_isError(n) || n != b->mjb_size) {
		free(mjb);
		conn_free_response(r);
		return conn_fail(c, HXD_BADPROTOCOL,
		    "the server's model does not decompress: %s",
		    ZSTD_isError(n) ? ZSTD_getErrorName(n) : "short");
	}
	out->mjb = mjb;
	out->size = n;
	snprintf(
	    out->name, sizeof(out->name), "%s", b->name != NULL ? b->name : "");
	out->mujoco_version = b->mujoco_version;
	conn_free_response(r);
	return conn_ok(c);
}
