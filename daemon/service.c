/* systemd glue: see service.h. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#include "clock.h"
#include "daemon.h"
#include "log.h"
#include "options.h"
#include "sdnotify.h"
#include "server.h"
#include "service.h"
#include "session.h"
#include "sim.h"

/* How often the status line is refreshed. */
#define SERVICE_STATUS_SECONDS 5

/* The glue's timers and note (d->service). */
struct service {
	struct event *status_ev;   /* the status line, refreshed */
	struct event *watchdog_ev; /* the watchdog's pings */
	char note[512];            /* added to the status line */
};

static void service_timers_stop(struct service *);

/* Send a notification; failures are logged once at debug level. */
static void
service_notify(const char *text)
{
	int rc = sdnotify_send(text);

	if (rc < 0)
		log_debug("notify: %s", strerror(-rc));
}

/* The status line: what runs, how fast, for how many. */
static void
service_send_status(struct daemon *d, const char *prefix)
{
	struct service *svc = d->service;
	struct clock_status cs;
	char text[1024], what[400];
	int n = sessions_welcomed(d);

	clock_status(d->clock, &cs);
	if (!sim_loaded(d->sim))
		snprintf(what, sizeof(what), "no model loaded");
	else if (!cs.running)
		snprintf(what, sizeof(what), "model \"%s\", t=%.2f s, paused",
		    sim_model_name(d->sim), sim_time(d->sim));
	else if (cs.realtime_factor <= 0) /* not measured yet */
		snprintf(what, sizeof(what), "model \"%s\", t=%.2f s, running",
		    sim_model_name(d->sim), sim_time(d->sim));
	else
		snprintf(what, sizeof(what),
		    "model \"%s\", t=%.2f s, running at %.2fx real time",
		    sim_model_name(d->sim), sim_time(d->sim),
		    cs.realtime_factor);
	snprintf(text, sizeof(text), "%sSTATUS=%s, %d client%s%s%s", prefix,
	    what, n, n == 1 ? "" : "s", svc->note[0] ? "; " : "", svc->note);
	service_notify(text);
}

static void
service_status_cb(evutil_socket_t fd, short events, void *arg)
{
	service_send_status(arg, "");
}

static void
service_watchdog_cb(evutil_socket_t fd, short events, void *arg)
{
	service_notify("WATCHDOG=1");
}

int
service_adopt_sockets(struct daemon *d, char *first, size_t len)
{
	const char *names[SDNOTIFY_MAX_FDS];
	char bound[300], err[512];
	int n, i;

	n = sdnotify_listen_fds(names);
	if (n < 0)
		fatal("sockets from systemd: %s", strerror(-n));
	for (i = 0; i < n; i++) {
		if (server_adopt(d->server, SDNOTIFY_FDS_START + i,
			d->token_len != 0, bound, sizeof(bound), err,
			sizeof(err)) != 0)
			fatal("socket \"%s\" from systemd: %s", names[i], err);
		log_info("listening on %s (socket \"%s\" from systemd)", bound,
		    names[i]);
		if (first[0] == '\0')
			snprintf(first, len, "%s", bound);
	}
	return n;
}

void
service_ready(struct daemon *d)
{
	struct service *svc = d->service;
	struct timeval tv = { SERVICE_STATUS_SECONDS, 0 };
	uint64_t usec;

	service_send_status(d, "READY=1\n");
	if (getenv("NOTIFY_SOCKET") == NULL || svc->status_ev != NULL)
		return;
	svc->status_ev = event_new(
	    d->base, -1, EV_PERSIST, service_status_cb, d);
	if (svc->status_ev == NULL)
		fatal("out of memory");
	event_add(svc->status_ev, &tv);

	/* Ping at half the interval: one late tick is not yet a hang. */
	if ((usec = sdnotify_watchdog_usec()) == 0)
		return;
	tv.tv_sec = (time_t)(usec / 2 / 1000000);
	tv.tv_usec = (suseconds_t)(usec / 2 % 1000000);
	svc->watchdog_ev = event_new(
	    d->base, -1, EV_PERSIST, service_watchdog_cb, d);
	if (svc->watchdog_ev == NULL)
		fatal("out of memory");
	event_add(svc->watchdog_ev, &tv);
	service_notify("WATCHDOG=1");
	log_info("watchdog: every %.3g s (WatchdogSec=%.3g s)",
	    (double)usec / 2e6, (double)usec / 1e6);
}

void
service_reloading(struct daemon *d)
{
	service_notify("RELOADING=1\nSTATUS=reloading");
}

void
service_stopping(struct daemon *d)
{
	service_notify("STOPPING=1\nSTATUS=shutting down");
	service_timers_stop(d->service);
}

void
service_note(struct daemon *d, const char *note)
{
	struct service *svc = d->service;

	snprintf(svc->note, sizeof(svc->note), "%s", note != NULL ? note : "");
}

/* The status and watchdog timers go: no more is sent. */
static void
service_timers_stop(struct service *svc)
{
	if (svc->status_ev != NULL)
		event_free(svc->status_ev);
	if (svc->watchdog_ev != NULL)
		event_free(svc->watchdog_ev);
	svc->status_ev = svc->watchdog_ev = NULL;
}

struct service *
service_create(void)
{
	struct service *svc;

	if ((svc = calloc(1, sizeof(*svc))) == NULL)
		fatal("out of memory");
	return svc;
}

void
service_free(struct service *svc)
{
	if (svc == NULL)
		return;
	service_timers_stop(svc);
	free(svc);
}
