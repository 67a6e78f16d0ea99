/*
 * Assertions for the integration tests of the extension API (haptixd.h):
 * calls that must succeed or fail in a given way, numbers that must be
 * near, and connecting or reading the status where anything but success
 * fails the test.  Each message names the call, the result and the
 * server's reason.
 */
#ifndef HX_TEST_CHECK_H
#define HX_TEST_CHECK_H

#include <math.h>
#include <string.h>

#include <criterion/criterion.h>

#include "haptixd.h"

/* Assert that a call on c succeeded, with the server's reason if not. */
#define HX_OK(c, call) \
	do { \
		int rc_ = (call); \
		cr_assert_eq(rc_, HXD_OK, "%s -> %s (%d): %s", #call, \
		    hxd_result_name(rc_), rc_, hxd_error(c)); \
	} while (0)

/*
 * Assert that a call on c failed with code, that hxd_result() says so
 * too, that the server gave a reason, and that c is still connected.
 */
#define HX_FAILS(c, call, code) \
	do { \
		int rc_ = (call); \
		cr_assert_eq(rc_, (code), "%s -> %s (%d), expected %s: %s", \
		    #call, hxd_result_name(rc_), rc_, hxd_result_name(code), \
		    hxd_error(c)); \
		cr_assert_eq(hxd_result(c), (code), "%s: hxd_result", #call); \
		cr_assert_str_neq( \
		    hxd_error(c), "", "%s gave no reason", #call); \
		cr_assert( \
		    hxd_connected(c), "%s dropped the connection", #call); \
	} while (0)

/* Like HX_FAILS, and the reason must mention word. */
#define HX_FAILS_WITH(c, call, code, word) \
	do { \
		HX_FAILS(c, call, code); \
		cr_assert(strstr(hxd_error(c), (word)) != NULL, \
		    "%s: the reason \"%s\" does not mention \"%s\"", #call, \
		    hxd_error(c), (word)); \
	} while (0)

/* Assert that the last error of c mentions text. */
#define HX_SAYS(c, text) \
	cr_assert(strstr(hxd_error(c), (text)) != NULL, \
	    "the error \"%s\" does not mention \"%s\"", hxd_error(c), (text))

/* Assert |a - b| <= eps. */
#define HX_NEAR(a, b, eps) \
	do { \
		double a_ = (a), b_ = (b); \
		cr_assert(fabs(a_ - b_) <= (eps), \
		    "%s = %.17g, expected %s = %.17g (within %g)", #a, a_, #b, \
		    b_, (double)(eps)); \
	} while (0)

/*
 * Connect to addr as name and say Hello; fail the test unless that
 * succeeds and the connection is up.  Close with hxd_close().
 */
hxd_conn *hx_connect_ok(const char *addr, const char *name);

/* The server's status as c reads it; fails the test if it cannot. */
hxd_status hx_status_ok(hxd_conn *c);

/*
 * The daemon still runs model (by name) and takes 10 steps: after
 * names what it survived, for the message.
 */
void hx_still_serving(hxd_conn *c, const char *model, const char *after);

/*
 * The list of clients as c sees it, their number in n and c's own id in
 * you (may be NULL); fails the test if it cannot.  Caller frees.
 */
hxd_client *hx_clients_ok(hxd_conn *c, int *n, unsigned long long *you);

/*
 * Wait up to ms for c to see exactly want clients, itself included;
 * return how many it saw last.
 */
int hx_wait_clients(hxd_conn *c, int want, int ms);

/*
 * The next event of kind on c within ms (the others skipped and freed),
 * or NULL; the caller frees it with hxd_event_free().
 */
hxd_event *hx_event_within(hxd_conn *c, int kind, int ms);

#endif
