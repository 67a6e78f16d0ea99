/*
 * Integration tests of hxctl (clients/hxctl.c) against a real haptixd on
 * models/test/fixture.xml, over the Unix socket and TCP: what lasts
 * while hxctl runs: the clients list, the lease taken, held and
 * released, lease run sharing it with the hxctl calls of its command, a
 * held message, hold --path and --for.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pty.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <criterion/criterion.h>

#include "frame.h"
#include "haptix.pb-c.h"
#include "check.h"
#include "harness.h"
#include "haptixd.h"
#include "hxctl_run.h"

TestSuite(hxctl, .timeout = 60, .fini = cleanup);

Test(hxctl, message_lasts_while_hxctl_holds_it)
{
	struct hx_run r = { 0 };
	const char *a;
	int status;

	a = start(fixture_args);
	holder = hxctl_spawn(
	    a, "message", "--hold", "0", "say", "\"hi\"\\\n\t\x01", NULL);
	cr_assert(status_eventually_has(a,
		      "\"message\":\"say \\\"hi\\\"\\\\"
		      "\\n\\t\\u0001\""),
	    "the message never showed");
	hxctl(&r, a, "status", NULL);
	expect_ok(&r);
	cr_assert_not_null(strstr(r.out, "say \"hi\"\\"), "%s", r.out);
	kill(holder, SIGTERM);
	cr_assert_eq(waitpid(holder, &status, 0), holder);
	holder = 0;
	cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM,
	    "hxctl message --hold 0 did not hold until killed: %d", status);
	cr_assert(status_eventually_has(a, "\"message\":\"\""),
	    "the message outlived its client");

	holder = hxctl_spawn(a, "message", "--hold", "30", "again", NULL);
	cr_assert(status_eventually_has(a, "\"message\":\"again\""));
	hxctl(&r, a, "message", NULL);
	expect_ok(&r);
	cr_assert(status_eventually_has(a, "\"message\":\"\""),
	    "message with no text did not clear");
	hx_run_free(&r);
}

Test(hxctl, clients_lists_hxctl_and_the_others)
{
	char obj[1024], pat[64];
	struct hx_run r = { 0 };
	unsigned long long probe_id;
	hxd_client *list;
	hxd_conn *c;
	const char *a, *p;
	double you;
	int n;

	a = start(fixture_args);
	c = hx_connect_ok(a, "probe");
	cr_assert_eq(hxd_clients(c, &list, &n, &probe_id), HXD_OK);
	free(list);
	cr_assert_eq(
	    hxd_lease(c, HXD_LEASE_TAKE, NULL), HXD_OK, "%s", hxd_error(c));

	hxctl_json(&r, a, "clients", NULL);
	you = json_num(r.out, "you");
	cr_assert_neq(you, (double)probe_id, "%s", r.out);
	json_object_with(r.out, "\"name\":\"probe\"", obj, sizeof(obj));
	cr_assert_eq(json_num(obj, "id"), (double)probe_id, "%s", obj);
	cr_assert_not_null(
	    strstr(obj, "\"lease\":true,\"you\":false"), "%s", obj);
	/* Hello, clients and lease. */
	cr_assert_eq(json_num(obj, "requests"), 3, "%s", obj);
	cr_assert_eq(json_num(obj, "errors"), 0, "%s", obj);
	cr_assert_eq(json_num(obj, "subscriptions"), 0, "%s", obj);
	cr_assert_gt(json_num(obj, "bytes_in"), 0, "%s", obj);
	snprintf(pat, sizeof(pat), "{\"id\":%.0f,", you);
	json_object_with(r.out, pat, obj, sizeof(obj));
	cr_assert_not_null(strstr(obj, "\"name\":\"hxctl\""), "%s", obj);
	cr_assert_not_null(
	    strstr(obj, "\"lease\":false,\"you\":true"), "%s", obj);
	/* Hello and clients: this very call. */
	cr_assert_eq(json_num(obj, "requests"), 2, "%s", obj);
	for (p = r.out, n = 0; (p = strstr(p, "\"peer\":")) != NULL; p++)
		n++;
	cr_assert_eq(n, 2, "not two clients: %s", r.out);

	hxctl(&r, a, "clients", NULL);
	expect_ok(&r);
	cr_assert(strncmp(r.out, "  id  name   peer", 17) == 0, "%s", r.out);
	cr_assert_not_null(strstr(r.out, "  probe  "), "%s", r.out);
	cr_assert_not_null(strstr(r.out, "  lease  "), "%s", r.out);
	cr_assert_not_null(strstr(r.out, "  this  "), "%s", r.out);
	cr_assert_not_null(strstr(r.out, "unix uid "), "%s", r.out);
	hxd_close(c);
	hx_run_free(&r);
}

/* While another holds the lease, hxctl may not write, take or release it. */
static void
expect_hxctl_refused(const char *a)
{
	struct hx_run r = { 0 };

	hxctl(&r, a, "set-ctrl", "0.5", "0.5", NULL);
	expect_fail(&r, "set-ctrl", "mjCOM_DENIED", "holds the control lease");
	hxctl(&r, a, "lease", "release", NULL);
	expect_fail(&r, "lease", "mjCOM_DENIED", "does not hold");
	hxctl(&r, a, "lease", "take", "--hold", "1", NULL);
	expect_fail(&r, "lease", "mjCOM_DENIED", "holds the control lease");
	hxctl_json(&r, a, "ctrl", NULL);
	expect_nums(r.out, "ctrl", (const double[]){ 0, 0 }, 2);
	hx_run_free(&r);
}

/*
 * The daemon runs, and the lease's on-loss policy is to pause: a holder
 * that releases the lease as it should leaves it running.
 */
Test(hxctl, lease_shows_takes_and_releases)
{
	char want[128];
	struct hx_run r = { 0 };
	hxd_control ctl = { 2, 0, (double[]){ 0.5, 0.5 } };
	hxd_conn *c;
	const char *a;
	double id;

	a = start((const char *[]){ "-m", "fixture.xml", NULL });
	hxctl(&r, a, "lease", NULL);
	expect_ok(&r);
	cr_assert_str_eq(r.out, "holder       none\non loss      pause\n");
	hxctl_json(&r, a, "lease", NULL);
	cr_assert_str_eq(r.out,
	    "{\"holder\":0,\"holder_name\":\"\",\"on_loss\":\"pause\"}\n");

	holder = hxctl_spawn(a, "lease", "take", "--hold", "0", NULL);
	cr_assert(status_eventually_has(a, "\"lease_holder_name\":\"hxctl\""),
	    "hxctl lease take --hold never held the lease");
	hxctl_json(&r, a, "lease", NULL);
	id = json_num(r.out, "holder");
	cr_assert_gt(id, 0, "%s", r.out);
	snprintf(want, sizeof(want),
	    "{\"holder\":%.0f,\"holder_name\":\"hxctl\",\"on_loss\":\"pause\"}\n",
	    id);
	cr_assert_str_eq(r.out, want);
	hxctl(&r, a, "status", NULL);
	expect_ok(&r);
	snprintf(want, sizeof(want),
	    "lease        client %.0f (hxctl) holds it\n", id);
	cr_assert_not_null(strstr(r.out, want), "%s", r.out);

	/* Others may read, not write. */
	c = hx_connect_ok(a, "probe");
	cr_assert_eq(hxd_set_control(c, &ctl), HXD_DENIED);
	cr_assert_not_null(strstr(hxd_error(c), "holds the control lease"),
	    "%s", hxd_error(c));
	expect_hxctl_refused(a);

	/* SIGTERM ends the hold: released, not lost. */
	kill(holder, SIGTERM);
	cr_assert_eq(wait_exit(holder, 5), 0, "lease take --hold 0 on SIGTERM");
	holder = 0;
	hxctl_json(&r, a, "status", NULL);
	cr_assert_not_null(strstr(r.out, "\"lease_holder\":0,"), "%s", r.out);
	cr_assert_not_null(strstr(r.out, "\"paused\":false"),
	    "the lease was lost, not released: %s", r.out);
	cr_assert_eq(hxd_set_control(c, &ctl), HXD_OK, "%s", hxd_error(c));

	/* A hold of S seconds ends by itself. */
	hxctl(&r, a, "lease", "take", "--hold", "0.3", NULL);
	expect_ok(&r);
	cr_assert_str_empty(r.out);
	hxctl_json(&r, a, "lease", NULL);
	cr_assert_eq(json_num(r.out, "holder"), 0, "%s", r.out);
	hxd_close(c);
	hx_run_free(&r);
}

/*
 * lease run: the lease held while a command runs, the hxctl calls in it
 * sharing it ($HAPTIX_LEASE), the others refused meanwhile, released at
 * the end (the simulation runs on: not lost), the command's exit status
 * passed on.  The README's block took the lease with a background hxctl
 * lease take --hold 0, and each later hxctl was refused.
 */
Test(hxctl, lease_run_shares_the_lease_with_what_it_runs)
{
	struct hx_run r = { 0 };
	char script[2048], ready[300], go[300];
	const char *a;
	pid_t run;
	int fd, status = 0;

	a = start((const char *[]){ "-m", "fixture.xml", NULL });
	snprintf(ready, sizeof(ready), "%s/ready", test_server.dir);
	snprintf(go, sizeof(go), "%s/go", test_server.dir);
	snprintf(script, sizeof(script),
	    "h='%s'; a='%s'\n"
	    "\"$h\" -s \"$a\" set-ctrl 0.5 0.25 || exit 10\n"
	    "\"$h\" -s \"$a\" --json clients | grep -q "
	    "'\"lease_shared\":true}' || exit 11\n"
	    "\"$h\" -s \"$a\" clients | grep -q ' shares,this ' || exit 13\n"
	    "\"$h\" -s \"$a\" lease release 2>/dev/null && exit 12\n"
	    "touch '%s'\n"
	    "i=0; while [ ! -e '%s' ] && [ $i -lt 600 ]; do\n"
	    "  sleep 0.05; i=$((i + 1)); done\n"
	    "exit 7\n",
	    hx_hxctl_path(), a, ready, go);
	run = hxctl_spawn(a, "lease", "run", "--", "sh", "-c", script, NULL);
	holder = run;
	while (access(ready, F_OK) != 0) {
		cr_assert_eq(waitpid(run, &status, WNOHANG), 0,
		    "lease run ended early: status %d",
		    WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		hx_sleep_ms(20);
	}
	/* Meanwhile the others may read, not write. */
	hxctl_json(&r, a, "ctrl", NULL);
	expect_nums(r.out, "ctrl", (const double[]){ 0.5, 0.25 }, 2);
	hxctl(&r, a, "set-ctrl", "1", "1", NULL);
	expect_fail(&r, "set-ctrl", "mjCOM_DENIED", "holds the control lease");
	hxctl(&r, a, "clients", NULL);
	expect_ok(&r);
	cr_assert_not_null(strstr(r.out, "  lease  "), "%s", r.out);
	cr_assert((fd = open(go, O_CREAT | O_WRONLY, 0600)) >= 0);
	close(fd);
	cr_assert_eq(wait_exit(run, 10), 7, "lease run passes on the status");
	holder = 0;
	hxctl_json(&r, a, "status", NULL);
	cr_assert_not_null(strstr(r.out, "\"lease_holder\":0,"), "%s", r.out);
	cr_assert_not_null(strstr(r.out, "\"paused\":false"),
	    "the lease was lost, not released: %s", r.out);
	hxctl(&r, a, "set-ctrl", "1", "1", NULL);
	expect_ok(&r);

	/* A command that is not there: 127, as the shell says. */
	hxctl(&r, a, "lease", "run", "/nonexistent/command", NULL);
	cr_assert_eq(r.status, 127, "%d %s", r.status, r.err);
	cr_assert_not_null(strstr(r.err, "/nonexistent/command"), "%s", r.err);
	hxctl(&r, a, "lease", "run", NULL);
	cr_assert_eq(r.status, 2, "no command is a usage error: %s", r.err);
	hxctl_json(&r, a, "lease", NULL);
	cr_assert_eq(json_num(r.out, "holder"), 0, "%s", r.out);
	hx_run_free(&r);
}

/* Wait up to 10 s for hxctl holds to say text; return 1 if it did. */
static int
holds_eventually_say(const char *addr, const char *text)
{
	struct hx_run r = { 0 };
	int i, found = 0;

	for (i = 0; i < 100 && !found; i++) {
		hxctl(&r, addr, "holds", NULL);
		found = r.status == 0 && strstr(r.out, text) != NULL;
		if (!found)
			usleep(100000);
	}
	hx_run_free(&r);
	return found;
}

/*
 * hxctl hold keeps its connection, which its holds live on: along a
 * --path file and then --for its seconds; stopped, its holds go.
 */
HX_TRANSPORT_TEST(hxctl, hold_lasts_as_long_as_its_hxctl, "-m", "fixture.xml",
    "--paused", NULL)
{
	static const char path_text[] = "# a path\n"
					"0 hinge1 0.3\n"
					"0.1 hinge1 0.4 hinge2 0.1\n";
	char path[] = "/tmp/hxctl-hold-XXXXXX";
	struct hx_run r = { 0 };
	int fd, status;

	hxctl(&r, addr, "hold", "hinge1", NULL);
	cr_expect_eq(r.status, 2, "hold with no value: %d", r.status);
	hxctl(&r, addr, "hold", "box", "0", NULL);
	expect_fail(&r, "hold", "mjCOM_BADVALUE", "free joint");
	hxctl(&r, addr, "holds", NULL);
	expect_ok(&r);
	cr_expect_str_eq(r.out, "no joints held\n");

	fd = mkstemp(path);
	cr_assert_neq(fd, -1, "mkstemp: %s", strerror(errno));
	cr_assert_eq(write(fd, path_text, strlen(path_text)),
	    (ssize_t)strlen(path_text));
	close(fd);
	holder = hxctl_spawn(addr, "hold", "--path", path, "--for", "30", NULL);
	cr_assert(holds_eventually_say(addr, "hinge2"),
	    "the path's second line was never held");
	hxctl_json(&r, addr, "holds", NULL);
	cr_expect_not_null(
	    strstr(r.out, "\"joint\":\"hinge1\",\"target\":0.4"), "%s", r.out);
	kill(holder, SIGTERM);
	cr_assert_eq(waitpid(holder, &status, 0), holder);
	holder = 0;
	cr_assert(holds_eventually_say(addr, "no joints held"),
	    "the holds outlived their hxctl");
	unlink(path);
	hx_run_free(&r);
}
