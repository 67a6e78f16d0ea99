/* A 3D mouse's input: see spacenav.h. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <spnav.h>

#include "program.h"
#include "spacenav.h"

enum spacenav_kind {
	SPACENAV_SPNAV,  /* spacenavd, through libspnav */
	SPACENAV_DEVICE, /* an evdev device (or a pipe of its events) */
	SPACENAV_FILE,   /* a file of evdev events, replayed */
};

struct spacenav {
	enum spacenav_kind kind;
	int fd;
	char name[256];
	/* SPACENAV_FILE: the next event, and when the first one was due */
	struct input_event next;
	int have_next;
	double first_event; /* its timestamp, seconds */
	double started;     /* monotonic seconds when replay began */
};

static int spacenav_fetch(struct spacenav *, char *, size_t);
static void spacenav_event(struct spacenav_input *, const struct input_event *);

struct spacenav *
spacenav_open_spnav(char *err, size_t len)
{
	struct spacenav *sn;
	const char *path = getenv("SPNAV_SOCKET");

	if (spnav_open() == -1) {
		snprintf(err, len,
		    "cannot connect to spacenavd (%s): is it running? "
		    "(or name the device with --evdev)",
		    path != NULL ? path : "/var/run/spnav.sock");
		return NULL;
	}
	if ((sn = calloc(1, sizeof(*sn))) == NULL) {
		spnav_close();
		snprintf(err, len, "out of memory");
		return NULL;
	}
	sn->kind = SPACENAV_SPNAV;
	sn->fd = spnav_fd();
	snprintf(sn->name, sizeof(sn->name), "spacenavd");
	return sn;
}

struct spacenav *
spacenav_open_evdev(const char *path, char *err, size_t len)
{
	struct spacenav *sn;
	struct stat st;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) == -1) {
		snprintf(err, len, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) == -1 || S_ISDIR(st.st_mode)) {
		snprintf(
		    err, len, "%s: not a device or a file of events", path);
		close(fd);
		return NULL;
	}
	if ((sn = calloc(1, sizeof(*sn))) == NULL) {
		close(fd);
		snprintf(err, len, "out of memory");
		return NULL;
	}
	sn->fd = fd;
	snprintf(sn->name, sizeof(sn->name), "%s", path);
	if (S_ISREG(st.st_mode)) {
		sn->kind = SPACENAV_FILE;
		sn->started = program_now();
		if (spacenav_fetch(sn, err, len) < 0) {
			spacenav_close(sn);
			return NULL;
		}
		if (sn->have_next)
			sn->first_event = (double)sn->next.input_event_sec +
			    (double)sn->next.input_event_usec * 1e-6;
	} else {
		sn->kind = SPACENAV_DEVICE;
	}
	return sn;
}

/* Read a replayed file's next event; 0 (have_next says if one came) or -1. */
static int
spacenav_fetch(struct spacenav *sn, char *err, size_t len)
{
	ssize_t n = read(sn->fd, &sn->next, sizeof(sn->next));

	sn->have_next = 0;
	if (n == (ssize_t)sizeof(sn->next)) {
		sn->have_next = 1;
		return 0;
	}
	if (n == 0)
		return 0;
	if (n < 0)
		snprintf(err, len, "%s: %s", sn->name, strerror(errno));
	else
		snprintf(err, len,
		    "%s: ends inside an event (%zd of %zu bytes): not a "
		    "file of evdev events",
		    sn->name, n, sizeof(sn->next));
	return -1;
}

int
spacenav_fd(const struct spacenav *sn)
{
	return sn->kind == SPACENAV_FILE ? -1 : sn->fd;
}

int
spacenav_wait_ms(const struct spacenav *sn)
{
	double due, wait;

	if (sn->kind != SPACENAV_FILE || !sn->have_next)
		return -1;
	due = (double)sn->next.input_event_sec +
	    (double)sn->next.input_event_usec * 1e-6 - sn->first_event;
	wait = sn->started + due - program_now();
	return wait <= 0 ? 0 : (int)(wait * 1000) + 1;
}

/* Apply one evdev event: axes (relative or absolute), buttons. */
static void
spacenav_event(struct spacenav_input *in, const struct input_event *ev)
{
	int b;

	switch (ev->type) {
	case EV_REL:
	case EV_ABS:
		/* A 3D mouse reports deflections, even as EV_REL. */
		if (ev->code <= 5 && in->axis[ev->code] != ev->value) {
			in->axis[ev->code] = ev->value;
			in->changed = 1;
		}
		break;
	case EV_KEY:
		b = ev->code >= BTN_0 && ev->code < BTN_0 + SPACENAV_BUTTONS ?
		    ev->code - BTN_0 :
		    -1;
		if (b >= 0 && ev->value == 1) {
			in->pressed[b]++;
			in->changed = 1;
		}
		break;
	default:
		break;
	}
}

int
spacenav_read(
    struct spacenav *sn, struct spacenav_input *in, char *err, size_t len)
{
	struct input_event ev;
	spnav_event sev;
	ssize_t n;

	switch (sn->kind) {
	case SPACENAV_SPNAV:
		while (spnav_poll_event(&sev) != 0) {
			if (sev.type == SPNAV_EVENT_MOTION) {
				in->axis[0] = sev.motion.x;
				in->axis[1] = sev.motion.y;
				in->axis[2] = sev.motion.z;
				in->axis[3] = sev.motion.rx;
				in->axis[4] = sev.motion.ry;
				in->axis[5] = sev.motion.rz;
				in->changed = 1;
			} else if (sev.type == SPNAV_EVENT_BUTTON &&
			    sev.button.press && sev.button.bnum >= 0 &&
			    sev.button.bnum < SPACENAV_BUTTONS) {
				in->pressed[sev.button.bnum]++;
				in->changed = 1;
			}
		}
		/* libspnav says nothing when spacenavd goes: look. */
		if (recv(sn->fd, &ev, 1, MSG_PEEK | MSG_DONTWAIT) == 0) {
			snprintf(err, len, "spacenavd closed the connection");
			return -1;
		}
		return 0;
	case SPACENAV_DEVICE:
		for (;;) {
			n = read(sn->fd, &ev, sizeof(ev));
			if (n == (ssize_t)sizeof(ev)) {
				spacenav_event(in, &ev);
				continue;
			}
			if (n < 0 && (errno == EAGAIN || errno == EINTR))
				return 0;
			if (n == 0) {
				snprintf(err, len, "%s: the device is gone",
				    sn->name);
				return -1;
			}
			snprintf(err, len, "%s: %s", sn->name,
			    n < 0 ? strerror(errno) : "a short event");
			return -1;
		}
	case SPACENAV_FILE:
		while (sn->have_next && spacenav_wait_ms(sn) == 0) {
			spacenav_event(in, &sn->next);
			if (spacenav_fetch(sn, err, len) < 0)
				return -1;
		}
		return sn->have_next ? 0 : 1;
	}
	return 0;
}

const char *
spacenav_name(const struct spacenav *sn)
{
	return sn->name;
}

void
spacenav_close(struct spacenav *sn)
{
	if (sn == NULL)
		return;
	if (sn->kind == SPACENAV_SPNAV)
		spnav_close();
	else
		close(sn->fd);
	free(sn);
}
