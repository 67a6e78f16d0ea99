/*
 * The server's clients and the control lease: who is connected, who
 * holds the lease, and taking or releasing it.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "haptixd.h"
#include "hxctl_common.h"

static void clients_print(const hxd_client *, int, unsigned long long);
static void lease_print(const hxd_lease_info *);
static int lease_run(struct ctl *);

/* A SIGTERM or SIGHUP for the command lease run waits for. */
static volatile sig_atomic_t lease_signal;

/* List the connected clients, marking the lease holder and this hxctl. */
int
cmd_clients(struct ctl *ctl)
{
	hxd_client *list;
	unsigned long long you;
	int i, n, rc;

	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_clients(ctl->conn, &list, &n, &you) != HXD_OK)
		return ctl_fail(ctl);
	if (ctl->json) {
		js_open('{');
		js_ku("you", you);
		js_key("clients");
		js_open('[');
		for (i = 0; i < n; i++) {
			js_open('{');
			client_json(&list[i], you);
			js_close('}');
		}
		js_close(']');
		js_close('}');
	} else
		clients_print(list, n, you);
	free(list);
	return CTL_OK;
}

/*
 * Write a client's members into the open object; "you" says whether it
 * is this hxctl, unless you is 0 (not known).
 */
void
client_json(const hxd_client *c, unsigned long long you)
{
	js_ku("id", c->id);
	js_ks("name", c->name);
	js_ks("peer", c->peer);
	js_kb("lease", c->lease);
	if (you != 0)
		js_kb("you", c->id == you);
	js_kn("connected", c->connected);
	js_ku("requests", c->requests);
	js_ku("errors", c->errors);
	js_ku("bytes_in", c->bytes_in);
	js_ku("bytes_out", c->bytes_out);
	js_ku("queued", c->queued);
	js_ki("subscriptions", c->subscriptions);
	js_ku("frames_sent", c->frames_sent);
	js_ku("frames_dropped", c->frames_dropped);
	js_ku("events_dropped", c->events_dropped);
	js_kb("lease_shared", c->lease_shared);
}

/* Print the clients, one per row; "mark" names the holder and this one. */
static void
clients_print(const hxd_client *list, int n, unsigned long long you)
{
	const hxd_client *c;
	const char *mark;
	int i, wn = 4, wp = 4, len;

	for (i = 0; i < n; i++) {
		if ((len = (int)strlen(list[i].name)) > wn)
			wn = len;
		if ((len = (int)strlen(list[i].peer)) > wp)
			wp = len;
	}
	printf("%4s  %-*s  %-*s  %-11s %9s %8s %6s %10s %10s %8s %4s %8s "
	       "%8s %10s\n",
	    "id", wn, "name", wp, "peer", "mark", "connected", "requests",
	    "errors", "bytes in", "bytes out", "queued", "subs", "frames",
	    "dropped", "ev dropped");
	for (i = 0; i < n; i++) {
		c = &list[i];
		mark = c->lease ? (c->id == you ? "lease,this" : "lease") :
		    c->lease_shared ?
				  (c->id == you ? "shares,this" : "shares") :
				  (c->id == you ? "this" : "-");
		printf("%4llu  %-*s  %-*s  %-11s %8.1fs %8llu %6llu %10llu "
		       "%10llu %8llu %4d %8llu %8llu %10llu\n",
		    c->id, wn, c->name, wp, c->peer, mark, c->connected,
		    c->requests, c->errors, c->bytes_in, c->bytes_out,
		    c->queued, c->subscriptions, c->frames_sent,
		    c->frames_dropped, c->events_dropped);
	}
}

/*
 * Show the lease; take it and hold it for a while, releasing it at the
 * end (the server would apply its on-loss policy to a holder that just
 * vanished); or release it.
 */
int
cmd_lease(struct ctl *ctl)
{
	struct ctl_opt opts[] = {
		{ "--hold", OPT_STRING, 0, NULL, 0, 0 },
	};
	hxd_lease_info li;
	const char *op;
	double hold = 0;
	int rc;

	if (ctl->argc > 0 && strcmp(ctl->argv[0], "run") == 0)
		return lease_run(ctl);
	if ((rc = ctl_options(ctl, opts, NELEM(opts))) != 0)
		return rc;
	if (ctl->npos > 1)
		return ctl_usage_error(
		    ctl, "unexpected argument '%s'", ctl->pos[1]);
	op = ctl->npos == 1 ? ctl->pos[0] : "";
	if (op[0] != '\0' && strcmp(op, "take") != 0 &&
	    strcmp(op, "release") != 0)
		return ctl_usage_error(
		    ctl, "'%s' is neither take, run nor release", op);
	if (opts[0].given && strcmp(op, "take") != 0)
		return ctl_usage_error(ctl, "--hold goes with take");
	if (strcmp(op, "take") == 0 && !opts[0].given)
		return ctl_usage_error(ctl,
		    "take needs --hold S: the lease ends when hxctl "
		    "disconnects");
	if (opts[0].given &&
	    (rc = ctl_seconds(ctl, "--hold", opts[0].value, &hold)) != 0)
		return rc;
	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (strcmp(op, "release") == 0)
		return ctl_done(
		    ctl, hxd_lease(ctl->conn, HXD_LEASE_RELEASE, NULL));
	if (op[0] == '\0') {
		if (hxd_lease(ctl->conn, HXD_LEASE_QUERY, &li) != HXD_OK)
			return ctl_fail(ctl);
		if (ctl->json) {
			js_open('{');
			lease_json(&li);
			js_close('}');
		} else
			lease_print(&li);
		return CTL_OK;
	}
	ctl_signals();
	if ((rc = ctl_done(ctl, hxd_lease(ctl->conn, HXD_LEASE_TAKE, NULL))) !=
	    0)
		return rc;
	fflush(stdout);
	ctl_hold(hold);
	if (hxd_lease(ctl->conn, HXD_LEASE_RELEASE, NULL) != HXD_OK)
		return ctl_fail(ctl);
	return CTL_OK;
}

/* Pass a signal on to the command that lease run waits for. */
static void
lease_on_signal(int sig)
{
	lease_signal = sig;
}

/*
 * lease run [--] COMMAND [ARG...]: take the lease, run COMMAND with the
 * lease's token in $HAPTIX_LEASE, so that the clients it starts (hxctl,
 * any libhaptix program) share the lease, and release it when COMMAND
 * ends; exit as COMMAND did.  As system(3) does, hxctl ignores the
 * terminal's SIGINT and SIGQUIT meanwhile (they reach COMMAND), and it
 * passes SIGTERM and SIGHUP on, so that it lives to release the lease
 * rather than leave the server to apply its loss policy.
 */
static int
lease_run(struct ctl *ctl)
{
	struct sigaction sa, ign, old_int, old_quit;
	char **argv = ctl->argv + 1;
	int argc = ctl->argc - 1, status, rc;
	hxd_lease_info li;
	pid_t pid;

	if (argc > 0 && strcmp(argv[0], "--") == 0) {
		argv++;
		argc--;
	}
	if (argc == 0)
		return ctl_usage_error(
		    ctl, "run needs a command: lease run -- COMMAND [ARG...]");
	if ((rc = ctl_connect(ctl)) != 0)
		return rc;
	if (hxd_lease(ctl->conn, HXD_LEASE_TAKE, &li) != HXD_OK)
		return ctl_fail(ctl);
	if (setenv("HAPTIX_LEASE", li.token, 1) != 0)
		return ctl_error(
		    ctl, HXD_CANNOTSEND, "setenv: %s", strerror(errno));
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = lease_on_signal; /* no SA_RESTART: waitpid wakes */
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	ign = sa;
	ign.sa_handler = SIG_IGN;
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	fflush(stdout);
	if ((pid = fork()) == -1)
		rc = ctl_error(
		    ctl, HXD_CANNOTSEND, "fork: %s", strerror(errno));
	else if (pid == 0) {
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGQUIT, &old_quit, NULL);
		execvp(argv[0], argv);
		fprintf(stderr, "hxctl: lease run: %s: %s\n", argv[0],
		    strerror(errno));
		_exit(errno == ENOENT ? 127 : 126);
	} else {
		while (waitpid(pid, &status, 0) == -1) {
			if (errno != EINTR) {
				status = 1 << 8;
				break;
			}
			if (lease_signal != 0)
				kill(pid, lease_signal);
			lease_signal = 0;
		}
		rc = WIFEXITED(status)  ? WEXITSTATUS(status) :
		    WIFSIGNALED(status) ? 128 + WTERMSIG(status) :
					  CTL_FAIL;
	}
	if (hxd_lease(ctl->conn, HXD_LEASE_RELEASE, NULL) != HXD_OK) {
		ctl_fail(ctl);
		return rc != 0 ? rc : CTL_FAIL;
	}
	return rc;
}

/* Write the lease's members into the open object. */
void
lease_json(const hxd_lease_info *li)
{
	js_ku("holder", li->holder);
	js_ks("holder_name", li->holder_name);
	js_ks("on_loss", li->on_loss);
}

/* Print who holds the lease, and what happens when it is lost. */
static void
lease_print(const hxd_lease_info *li)
{
	if (li->holder != 0)
		printf("%-12s client %llu (%s)\n", "holder", li->holder,
		    li->holder_name);
	else
		printf("%-12s %s\n", "holder", "none");
	printf("%-12s %s\n", "on loss", li->on_loss);
}
