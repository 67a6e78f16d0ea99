/*
 * The calls beyond HAPTIX's native API: the Hello handshake, loading
 * models, pause and run, speed, and status.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "api.h"
#include "arena.h"
#include "clock.h"
#include "daemon.h"
#include "event.h"
#include "loader.h"
#include "log.h"
#include "modeldir.h"
#include "modelrefs.h"
#include "step.h"
#include "options.h"
#include "session.h"
#include "sim.h"
#include "snapshot.h"

/* Compare two byte strings in time that depends only on their lengths. */
static int
token_equal(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
	uint8_t diff = alen != blen;
	size_t i;

	for (i = 0; i < alen && i < blen; i++)
		diff |= a[i] ^ b[i];
	return diff == 0;
}

int
api_hello(struct call *c)
{
	const Haptix__V1__Hello *h = c->req->hello;
	struct daemon *d = c->d;
	struct session *s = c->s;
	Haptix__V1__Welcome *w;
	const int
	    version = HAPTIX__V1__PROTOCOL_VERSION__PROTOCOL_VERSION_CURRENT;
	size_t i;

	if (h->protocol_version != (uint32_t)version)
		return call_fail(c, RESULT_BADPROTOCOL,
		    "protocol version %u is "
		    "not supported: this server speaks version %d",
		    h->protocol_version, version);
	if (s->transport == SESSION_TCP && d->token_len != 0 &&
	    !token_equal(h->token.data, h->token.len, d->token, d->token_len))
		return call_fail(c, RESULT_DENIED,
		    h->token.len == 0 ?
			"this server requires a token on TCP (set "
			"HAPTIX_TOKEN_FILE)" :
			"wrong token");

	/* Keep the name printable: it goes into logs. */
	snprintf(s->name, sizeof(s->name), "%s", h->client_name);
	for (i = 0; s->name[i] != '\0'; i++) {
		if ((unsigned char)s->name[i] < 0x20 || s->name[i] == 0x7f)
			s->name[i] = '?';
	}
	event_client(d, s, 1);
	log_info("client %llu is \"%s\" (%s)", (unsigned long long)s->id,
	    s->name, s->peer);

	w = arena_alloc(c->arena, sizeof(*w));
	haptix__v1__welcome__init(w);
	w->protocol_version = (uint32_t)version;
	w->server_version = (char *)PACKAGE_VERSION;
	w->session_id = s->id;
	w->model = snapshot_summary(c->d, c->arena);
	w->paused = !clock_running(d->clock);
	c->resp->payload_case = HAPTIX__V1__RESPONSE__PAYLOAD_WELCOME;
	c->resp->welcome = w;
	return RESULT_OK;
}

/* Map the protocol's model format onto the sim's. */
static enum sim_format
model_format(Haptix__V1__ModelFormat f)
{
	switch (f) {
	case HAPTIX__V1__MODEL_FORMAT__MODEL_FORMAT_MJCF:
		return SIM_FORMAT_MJCF;
	case HAPTIX__V1__MODEL_FORMAT__MODEL_FORMAT_URDF:
		return SIM_FORMAT_URDF;
	case HAPTIX__V1__MODEL_FORMAT__MODEL_FORMAT_MJB:
		return SIM_FORMAT_MJB;
	default:
		return SIM_FORMAT_AUTO;
	}
}

int
api_load_model(struct call *c)
{
	const Haptix__V1__LoadModel *lm = c->req->load_model;
	const Haptix__V1__InlineModel *im;
	struct daemon *d = c->d;
	char path[4096], what[4200];
	int rc, legacy = lm->legacy || d->opts->legacy;

	switch (lm->source_case) {
	case HAPTIX__V1__LOAD_MODEL__SOURCE_PATH:
		rc = modeldir_resolve(
		    lm->path, path, sizeof(path), c->err, sizeof(c->err));
		if (rc != 0)
			return rc;
		snprintf(what, sizeof(what), "%s%s", path,
		    legacy ? " (legacy)" : "");
		if (!loader_is_mjb(path) &&
		    (rc = modelrefs_check(
			 path, NULL, 0, c->err, sizeof(c->err))) != 0) {
			log_warn("client %llu: refused %s: %s",
			    (unsigned long long)c->s->id, what, c->err);
			return rc;
		}
		rc = loader_load_file(d, path, legacy, c->err, sizeof(c->err));
		break;
	case HAPTIX__V1__LOAD_MODEL__SOURCE_INLINE_MODEL:
		im = lm->inline_model;
		if ((int)im->format < 0 ||
		    (int)im->format >
			HAPTIX__V1__MODEL_FORMAT__MODEL_FORMAT_MJB)
			return call_fail(c, RESULT_BADVALUE,
			    "unknown model format %d", (int)im->format);
		if (im->data.len == 0)
			return call_fail(
			    c, RESULT_BADSIZE, "the inline model is empty");
		snprintf(what, sizeof(what), "inline model \"%s\" (%zu bytes)",
		    im->name, im->data.len);
		if (!sim_is_mjb(model_format(im->format), im->data.data,
			im->data.len) &&
		    (rc = modelrefs_check(NULL, im->data.data, im->data.len,
			 c->err, sizeof(c->err))) != 0) {
			log_warn("client %llu: refused %s: %s",
			    (unsigned long long)c->s->id, what, c->err);
			return rc;
		}
		rc = sim_load_buffer(d->sim, model_format(im->format),
		    im->data.data, im->data.len, im->name, NULL, c->err,
		    sizeof(c->err));
		if (rc == 0)
			d->model_legacy = 0;
		break;
	default:
		if (!sim_loaded(d->sim) || sim_model_path(d->sim)[0] == '\0')
			return call_fail(c, RESULT_BADVALUE,
			    "nothing to reload: the current model was not "
			    "loaded from a file");
		snprintf(
		    what, sizeof(what), "%s (reload)", sim_model_path(d->sim));
		rc = loader_reload(d, c->err, sizeof(c->err));
		break;
	}
	if (rc != 0) {
		log_warn("client %llu: loading %s failed, keeping the current "
			 "model: %s",
		    (unsigned long long)c->s->id, what, c->err);
		return RESULT_LOADFAILED;
	}
	log_info("client %llu: loaded %s: model \"%s\"",
	    (unsigned long long)c->s->id, what, sim_model_name(d->sim));
	step_model_changed(d,
	    lm->source_case != HAPTIX__V1__LOAD_MODEL__SOURCE_PATH &&
		lm->source_case != HAPTIX__V1__LOAD_MODEL__SOURCE_INLINE_MODEL,
	    "another model was loaded");
	c->resp->payload_case = HAPTIX__V1__RESPONSE__PAYLOAD_MODEL;
	c->resp->model = snapshot_summary(c->d, c->arena);
	return RESULT_OK;
}

int
api_pause(struct call *c)
{
	if (clock_running(c->d->clock)) {
		clock_pause(c->d->clock);
		log_info("client %llu: paused", (unsigned long long)c->s->id);
	}
	return RESULT_OK;
}

int
api_run(struct call *c)
{
	if (!clock_running(c->d->clock)) {
		clock_run(c->d->clock);
		log_info("client %llu: running", (unsigned long long)c->s->id);
	}
	return RESULT_OK;
}

int
api_set_speed(struct call *c)
{
	const Haptix__V1__Speed *sp = c->req->set_speed;

	if (!sp->max &&
	    (!isfinite(sp->factor) || sp->factor < 1e-6 || sp->factor > 1e6))
		return call_fail(c, RESULT_BADVALUE,
		    "speed factor %g is not "
		    "between 1e-06 and 1e+06 (or max)",
		    sp->factor);
	clock_set_speed(c->d->clock, sp->factor, sp->max);
	if (sp->max)
		log_info(
		    "client %llu: speed max", (unsigned long long)c->s->id);
	else
		log_info("client %llu: speed %g", (unsigned long long)c->s->id,
		    sp->factor);
	return RESULT_OK;
}

int
api_status(struct call *c)
{
	PAYLOAD(c, status, STATUS, snapshot_status(c->d, c->arena));
	return RESULT_OK;
}
