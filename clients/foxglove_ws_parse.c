/*
 * A client's text message to hx-foxglove, parsed: {"op":"subscribe",
 * "subscriptions":[{"id":N,"channelId":N},...]}, {"op":"unsubscribe",
 * "subscriptionIds":[N,...]}, or another op, which the server refuses by
 * name.  libwebsockets' own JSON parser (LEJP) reads it: no other JSON
 * library is needed for three keys (LEJP refuses an empty object, {},
 * which no message of the protocol is).  Ids are integers of 0 to 2^32 - 1,
 * as the protocol's uint32 subscription ids.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libwebsockets.h>

#include "foxglove_ws.h"

/*
 * The values taken, by their path.  Matched here by the whole path:
 * LEJP's own matching does not see the elements of an array of numbers.
 */
static const char *const parse_paths[] = {
	"op",
	"subscriptions[].id",
	"subscriptions[].channelId",
	"subscriptionIds[]",
};

enum { PATH_NONE, PATH_OP, PATH_SUB_ID, PATH_SUB_CHANNEL, PATH_UNSUB_ID };

static int
parse_path(const struct lejp_ctx *ctx)
{
	size_t i;

	for (i = 0; i < LWS_ARRAY_SIZE(parse_paths); i++) {
		if (strcmp(ctx->path, parse_paths[i]) == 0)
			return (int)i + 1;
	}
	return PATH_NONE;
}

struct parse {
	struct fws_request *r;
	int have_op, entries, ids;
	char why[160];
};

static signed char
parse_fail(struct parse *p, const char *why)
{
	if (p->why[0] == '\0')
		snprintf(p->why, sizeof(p->why), "%s", why);
	return -1;
}

/* An id of the protocol: an integer of 0 to 2^32 - 1. */
static int
parse_id(const char *s, long long *out)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || v < 0 || v > 0xffffffffLL)
		return -1;
	*out = v;
	return 0;
}

static signed char
parse_value(struct parse *p, struct lejp_ctx *ctx, char reason, int path)
{
	struct fws_request *r = p->r;
	long long v;

	if (path == PATH_OP) {
		if (reason != LEJPCB_VAL_STR_END || p->have_op)
			return parse_fail(p, "\"op\" is not one string");
		if (ctx->npos >= sizeof(r->name))
			return parse_fail(p, "\"op\" is longer than any op");
		memcpy(r->name, ctx->buf, ctx->npos);
		r->name[ctx->npos] = '\0';
		p->have_op = 1;
		return 0;
	}
	if (reason != LEJPCB_VAL_NUM_INT || parse_id(ctx->buf, &v) != 0)
		return parse_fail(
		    p, "an id is not an integer of 0 to 4294967295");
	if (path == PATH_UNSUB_ID) {
		if (p->ids >= FWS_MAX_SUBSCRIPTIONS)
			return parse_fail(p, "too many subscription ids");
		r->sub[p->ids++].id = v;
	} else if (p->entries > 0 && path == PATH_SUB_ID)
		r->sub[p->entries - 1].id = v;
	else if (p->entries > 0)
		r->sub[p->entries - 1].channel = v;
	return 0;
}

static signed char
parse_cb(struct lejp_ctx *ctx, char reason)
{
	struct parse *p = ctx->user;
	int path;

	if (reason == LEJPCB_OBJECT_START &&
	    strcmp(ctx->path, "subscriptions[]") == 0) {
		if (p->entries >= FWS_MAX_SUBSCRIPTIONS)
			return parse_fail(p, "too many subscriptions");
		p->r->sub[p->entries].id = -1;
		p->r->sub[p->entries].channel = -1;
		p->entries++;
		return 0;
	}
	if ((reason & LEJP_FLAG_CB_IS_VALUE) &&
	    (path = parse_path(ctx)) != PATH_NONE)
		return parse_value(p, ctx, reason, path);
	return 0;
}

/* Whether what follows the object is only white space. */
static int
parse_only_space(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (strchr(" \t\r\n", s[i]) == NULL)
			return 0;
	}
	return 1;
}

/* The request parsed: what each op needs is there. */
static int
parse_check(struct parse *p, char *err, size_t errlen)
{
	struct fws_request *r = p->r;
	int i;

	if (!p->have_op) {
		snprintf(err, errlen, "no \"op\"");
		return -1;
	}
	if (strcmp(r->name, "subscribe") == 0) {
		r->op = FWS_OP_SUBSCRIBE;
		r->n = p->entries;
		for (i = 0; i < r->n; i++) {
			if (r->sub[i].id < 0 || r->sub[i].channel < 0) {
				snprintf(err, errlen,
				    "subscription %d lacks \"id\" or "
				    "\"channelId\"",
				    i);
				return -1;
			}
		}
		return 0;
	}
	if (strcmp(r->name, "unsubscribe") == 0) {
		r->op = FWS_OP_UNSUBSCRIBE;
		r->n = p->ids;
		return 0;
	}
	r->op = FWS_OP_OTHER;
	r->n = 0;
	return 0;
}

int
fws_parse(const char *text, size_t len, struct fws_request *r, char *err,
    size_t errlen)
{
	struct lejp_ctx ctx;
	struct parse p;
	size_t i;
	int rc;

	memset(r, 0, sizeof(*r));
	memset(&p, 0, sizeof(p));
	p.r = r;
	if (len > FWS_MAX_REQUEST) {
		snprintf(err, errlen, "over %d bytes", FWS_MAX_REQUEST);
		return -1;
	}
	/* LEJP takes a top-level array too: this must be an object. */
	for (i = 0; i < len && strchr(" \t\r\n", text[i]) != NULL; i++)
		;
	if (i == len || text[i] != '{') {
		snprintf(err, errlen, "not a JSON object");
		return -1;
	}
	lejp_construct(&ctx, parse_cb, &p, NULL, 0);
	rc = lejp_parse(&ctx, (const unsigned char *)text, (int)len);
	lejp_destruct(&ctx);
	if (p.why[0] != '\0') {
		snprintf(err, errlen, "%s", p.why);
		return -1;
	}
	if (rc < 0 || !parse_only_space(text + len - rc, (size_t)rc)) {
		snprintf(err, errlen, "not a JSON object: %s",
		    rc == LEJP_CONTINUE ? "it ends early" :
			rc >= 0         ? "text after it" :
					  lejp_error_to_string(rc));
		return -1;
	}
	return parse_check(&p, err, errlen);
}
