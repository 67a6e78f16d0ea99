/*
 * Unit tests of what hx-foxglove takes from a client
 * (clients/foxglove_ws_parse.c): subscribe and unsubscribe, every other
 * op refused by name, and bad text refused with a reason.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "foxglove_ws.h"

TestSuite(foxglove_parse, .timeout = 10);

static struct fws_request req;

static int
parse(const char *text, char *err, size_t len)
{
	err[0] = '\0';
	return fws_parse(text, strlen(text), &req, err, len);
}

/* text refused, with why containing what. */
static void
refused(const char *text, const char *what)
{
	char err[256];

	cr_assert_eq(parse(text, err, sizeof(err)), -1, "took %s", text);
	cr_assert_not_null(
	    strstr(err, what), "%s: \"%s\" lacks \"%s\"", text, err, what);
}

Test(foxglove_parse, subscribe)
{
	char err[256];

	cr_assert_eq(parse("{\"op\":\"subscribe\",\"subscriptions\":["
			   "{\"id\":0,\"channelId\":3},"
			   "{\"channelId\":5,\"id\":4294967295}]}",
			 err, sizeof(err)),
	    0, "%s", err);
	cr_assert_eq(req.op, FWS_OP_SUBSCRIBE);
	cr_assert_eq(req.n, 2);
	cr_assert_eq(req.sub[0].id, 0);
	cr_assert_eq(req.sub[0].channel, 3);
	cr_assert_eq(req.sub[1].id, 4294967295LL);
	cr_assert_eq(req.sub[1].channel, 5);
	/* The op may come last, with white space around. */
	cr_assert_eq(parse(" {\"subscriptions\":[{\"id\":7,\"channelId\":1}],"
			   "\"op\":\"subscribe\"}\n",
			 err, sizeof(err)),
	    0, "%s", err);
	cr_assert_eq(req.op, FWS_OP_SUBSCRIBE);
	cr_assert_eq(req.n, 1);
	cr_assert_eq(req.sub[0].id, 7);
}

Test(foxglove_parse, unsubscribe_and_others)
{
	char err[256];

	cr_assert_eq(
	    parse("{\"op\":\"unsubscribe\",\"subscriptionIds\":[1,2,9]}", err,
		sizeof(err)),
	    0, "%s", err);
	cr_assert_eq(req.op, FWS_OP_UNSUBSCRIBE);
	cr_assert_eq(req.n, 3);
	cr_assert_eq(req.sub[2].id, 9);
	cr_assert_eq(
	    parse("{\"op\":\"advertise\",\"channels\":[{\"id\":1,"
		  "\"topic\":\"x\",\"nested\":{\"a\":[1,2,{\"b\":null}]}}]}",
		err, sizeof(err)),
	    0, "%s", err);
	cr_assert_eq(req.op, FWS_OP_OTHER);
	cr_assert_str_eq(req.name, "advertise");
}

Test(foxglove_parse, bad_text)
{
	refused("not json", "not a JSON object");
	refused("[1,2]", "not a JSON object");
	refused("{\"op\":\"subscribe\"", "ends early");
	refused("{\"op\":\"subscribe\"} {}", "text after it");
	refused("{\"a\":1}", "no \"op\"");
	/* LEJP (libwebsockets 4.1) refuses an empty object: no client of
	 * the protocol sends one. */
	refused("{}", "not a JSON object");
	refused("{\"op\":3}", "\"op\"");
	refused("{\"op\":\"a\",\"op\":\"b\"}", "\"op\"");
	refused("", "not a JSON object");
}

Test(foxglove_parse, bad_ids)
{
	refused("{\"op\":\"subscribe\",\"subscriptions\":[{\"id\":-1,"
		"\"channelId\":0}]}",
	    "an id");
	refused("{\"op\":\"subscribe\",\"subscriptions\":[{\"id\":4294967296,"
		"\"channelId\":0}]}",
	    "an id");
	refused("{\"op\":\"subscribe\",\"subscriptions\":[{\"id\":1.5,"
		"\"channelId\":0}]}",
	    "an id");
	refused("{\"op\":\"subscribe\",\"subscriptions\":[{\"id\":\"1\","
		"\"channelId\":0}]}",
	    "an id");
	refused(
	    "{\"op\":\"subscribe\",\"subscriptions\":[{\"id\":1}]}", "lacks");
	refused("{\"op\":\"unsubscribe\",\"subscriptionIds\":[99999999999]}",
	    "an id");
}

/* Past the limits: many subscriptions, deep nesting, a long op. */
Test(foxglove_parse, limits)
{
	char *text = malloc(FWS_MAX_REQUEST + 2), op[300];
	size_t n = 0;
	int i;

	cr_assert_not_null(text);
	n += (size_t)sprintf(text, "{\"op\":\"subscribe\",\"subscriptions\":[");
	for (i = 0; i <= FWS_MAX_SUBSCRIPTIONS; i++)
		n += (size_t)sprintf(text + n, "%s{\"id\":%d,\"channelId\":0}",
		    i > 0 ? "," : "", i);
	strcpy(text + n, "]}");
	refused(text, "too many subscriptions");

	n = (size_t)sprintf(text, "{\"op\":\"x\",\"a\":");
	for (i = 0; i < 40; i++)
		text[n++] = '[';
	for (i = 0; i < 40; i++)
		text[n++] = ']';
	strcpy(text + n, "}");
	refused(text, "not a JSON object");

	memset(text, ' ', FWS_MAX_REQUEST + 1);
	text[FWS_MAX_REQUEST + 1] = '\0';
	text[0] = '{';
	refused(text, "over");

	memset(op, 'a', sizeof(op) - 1);
	op[sizeof(op) - 1] = '\0';
	snprintf(text, FWS_MAX_REQUEST, "{\"op\":\"%s\"}", op);
	refused(text, "\"op\"");
	free(text);
}
