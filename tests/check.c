/* Assertions for tests of the extension API: see check.h. */
#include "config.h"

#include <stdlib.h>

#include <criterion/criterion.h>

#include "check.h"
#include "harness.h"

hxd_conn *
hx_connect_ok(const char *addr, const char *name)
{
	hxd_conn *c = hxd_connect(addr, name);

	cr_assert_not_null(c, "hxd_connect returned NULL");
	cr_assert_eq(hxd_result(c), HXD_OK, "connect to %s as %s: %s", addr,
	    name, hxd_error(c));
	cr_assert(hxd_connected(c), "connect to %s: not connected", addr);
	/* Under valgrind (make check-valgrind) a step 10000 takes minutes. */
	if (getenv("HX_VALGRIND") != NULL)
		hxd_set_timeout(c, 600000);
	return c;
}

hxd_status
hx_status_ok(hxd_conn *c)
{
	hxd_status st;

	HX_OK(c, hxd_status_get(c, &st));
	return st;
}

hxd_client *
hx_clients_ok(hxd_conn *c, int *n, unsigned long long *you)
{
	hxd_client *list = NULL;

	HX_OK(c, hxd_clients(c, &list, n, you));
	cr_assert_not_null(list);
	return list;
}

int
hx_wait_clients(hxd_conn *c, int want, int ms)
{
	double end = hx_wall_now() + ms / 1000.0;
	hxd_client *list;
	int n;

	for (;;) {
		list = hx_clients_ok(c, &n, NULL);
		free(list);
		if (n == want || hx_wall_now() > end)
			return n;
		hx_sleep_ms(20);
	}
}

hxd_event *
hx_event_within(hxd_conn *c, int kind, int ms)
{
	double end = hx_wall_now() + ms / 1e3;
	hxd_event *ev;
	int rc, left;

	for (;;) {
		left = (int)((end - hx_wall_now()) * 1e3);
		if (left <= 0)
			return NULL;
		rc = hxd_next_event(c, left, &ev);
		if (rc == HXD_TIMEOUT)
			return NULL;
		cr_assert_eq(rc, HXD_OK, "hxd_next_event: %s", hxd_error(c));
		if (ev->kind == kind)
			return ev;
		hxd_event_free(ev);
	}
}

void
hx_still_serving(hxd_conn *c, const char *model, const char *after)
{
	hxd_status st = hx_status_ok(c);
	unsigned taken = 0;

	cr_assert_str_eq(st.model.name, model, "after %s", after);
	cr_assert_eq(hxd_step(c, 10, &taken), HXD_OK, "after %s: %s", after,
	    hxd_error(c));
	cr_assert_eq(taken, 10, "after %s", after);
}
