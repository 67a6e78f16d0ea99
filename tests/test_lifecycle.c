/*
 * Unit tests of what a client leaving and a model change go down
 * (daemon/lifecycle.c), in-process: the fixture, core_start(), real
 * sessions on socketpairs; the events another subscribed client reads,
 * and their order.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "api_table.h"
#include "core.h"
#include "daemon.h"
#include "haptix.pb-c.h"
#include "inproc.h"
#include "lease.h"
#include "lifecycle.h"
#include "message.h"
#include "session.h"
#include "stream.h"

TestSuite(lifecycle, .timeout = 30);

static struct daemon d;

static void
setup(void)
{
	inproc_start(&d, NULL);
	inproc_load(&d, "fixture.xml");
	core_start(&d);
	api_table_serve();
}

/* A served session that said Hello as name. */
static struct session *
client(const char *name, int *peer)
{
	struct session *s = inproc_session(&d, peer, 0);

	session_set_state(s, SESSION_READY);
	snprintf(s->name, sizeof(s->name), "%s", name);
	return s;
}

/* Subscribe s to events (and qpos, which no step sends here). */
static void
subscribe_events(struct session *s)
{
	Haptix__V1__Subscribe sub = HAPTIX__V1__SUBSCRIBE__INIT;
	Haptix__V1__StreamField field = HAPTIX__V1__STREAM_FIELD__STREAM_QPOS;
	char err[300];

	sub.n_fields = 1;
	sub.fields = &field;
	sub.every_steps = 1;
	sub.events = 1;
	cr_assert_gt(stream_subscribe(s, &sub, err, sizeof(err)), 0, "%s", err);
}

/* Read the events that come on fd within seconds: their kinds, in order. */
static int
read_kinds(struct inproc_rx *rx, int fd, int *kinds, int max, double seconds)
{
	const uint8_t *p;
	long n;
	int k = 0;

	while (k < max && (n = inproc_rx_frame(&d, rx, fd, &p, seconds)) >= 0) {
		Haptix__V1__Response *r = haptix__v1__response__unpack(
		    NULL, (size_t)n, p);

		cr_assert_not_null(r);
		if (r->event != NULL)
			kinds[k++] = (int)r->event->kind_case;
		haptix__v1__response__free_unpacked(r, NULL);
	}
	return k;
}

/* Send the message call: show text, set by the session whose peer is fd. */
static void
message_call(int fd, const char *text)
{
	Haptix__V1__Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__Message m = HAPTIX__V1__MESSAGE__INIT;
	uint8_t buf[256];
	size_t n;

	m.text = (char *)text;
	req.id = 1;
	req.call_case = HAPTIX__V1__REQUEST__CALL_MESSAGE;
	req.message = &m;
	n = haptix__v1__request__get_packed_size(&req);
	cr_assert_leq(n, sizeof(buf));
	haptix__v1__request__pack(&req, buf);
	inproc_write_frame(fd, buf, n);
}

/* Index of kind in kinds, or -1. */
static int
find(const int *kinds, int n, int kind)
{
	int i;

	for (i = 0; i < n; i++)
		if (kinds[i] == kind)
			return i;
	return -1;
}

Test(lifecycle, left_before_its_message_and_lease)
{
	struct inproc_rx rx = { 0 };
	struct session *a, *b;
	int pa, pb, kinds[32], n, left, msg, lease;
	char err[200];

	setup();
	a = client("alice", &pa);
	b = client("bob", &pb);
	subscribe_events(b);
	message_call(pa, "hi");
	inproc_run_for(&d, 0.2);
	cr_assert_str_eq(message_text(&d), "hi");
	cr_assert_eq(message_owner(&d), a->id);
	cr_assert_eq(lease_take(&d, a, err, sizeof(err)), 0, "%s", err);
	/* what those two sent bob before alice leaves: not counted */
	read_kinds(&rx, pb, kinds, 32, 0.2);
	close(pa);
	n = read_kinds(&rx, pb, kinds, 32, 1);
	left = find(kinds, n, HAPTIX__V1__EVENT__KIND_CLIENT_LEFT);
	msg = find(kinds, n, HAPTIX__V1__EVENT__KIND_MESSAGE);
	lease = find(kinds, n, HAPTIX__V1__EVENT__KIND_LEASE);
	cr_assert_geq(left, 0, "client_left came");
	cr_assert_geq(msg, 0, "the message taken down came");
	cr_assert_geq(lease, 0, "the lease freed came");
	cr_assert_lt(left, msg, "client_left before the message");
	cr_assert_lt(left, lease, "client_left before the lease");
	cr_assert_str_eq(message_text(&d), "");
	cr_assert_eq(lease_holder(&d), 0);
	inproc_rx_free(&rx);
	close(pb);
	inproc_stop(&d);
}

Test(lifecycle, model_changed_one_model_event)
{
	struct inproc_rx rx = { 0 };
	struct session *b;
	int pb, kinds[32], n;

	setup();
	b = client("bob", &pb);
	subscribe_events(b);
	read_kinds(&rx, pb, kinds, 32, 0.2);
	lifecycle_model_changed(&d, 0, "why");
	n = read_kinds(&rx, pb, kinds, 32, 0.5);
	cr_assert_eq(n, 1, "%d events", n);
	cr_assert_eq(kinds[0], HAPTIX__V1__EVENT__KIND_MODEL);
	inproc_rx_free(&rx);
	close(pb);
	inproc_stop(&d);
}
