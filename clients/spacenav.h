/*
 * A 3D mouse's input for hx-spacenav: from spacenavd through libspnav,
 * or straight from an evdev device, or from a file of evdev events
 * replayed at the pace they were recorded (input_event records, as
 * reading the device gives them).  Both give the six axes in the
 * device's own units and frame, which spacenavd passes on unchanged: x
 * right, y up, z away from the user (libspnav's convention), and the
 * rotations about them.  Axis values are deflections, not motion: they
 * hold until the next report.
 */
#ifndef HX_SPACENAV_H
#define HX_SPACENAV_H

#include <stddef.h>

struct spacenav;

#define SPACENAV_BUTTONS 32

struct spacenav_input {
	int axis[6];                   /* tx ty tz rx ry rz, device units */
	int pressed[SPACENAV_BUTTONS]; /* presses since the last read */
	int changed;                   /* axes or buttons changed */
};

/* spacenavd through libspnav ($SPNAV_SOCKET, /etc/spnavrc, the default
 * socket); NULL with a reason. */
struct spacenav *spacenav_open_spnav(char *err, size_t len);

/* An evdev device, or a file of its events (replayed); NULL with a
 * reason. */
struct spacenav *spacenav_open_evdev(const char *path, char *err, size_t len);

/* The descriptor to poll for input, or -1 while replaying a file. */
int spacenav_fd(const struct spacenav *sn);

/* Milliseconds until a replayed event is due (-1: none, or not a file). */
int spacenav_wait_ms(const struct spacenav *sn);

/*
 * Take what has arrived (or fallen due) into in: 0, 1 when a replayed
 * file has ended (the axes keep their last values), -1 with a reason
 * when the device or spacenavd has gone.
 */
int spacenav_read(
    struct spacenav *sn, struct spacenav_input *in, char *err, size_t len);

/* What it reads from, for messages. */
const char *spacenav_name(const struct spacenav *sn);

void spacenav_close(struct spacenav *sn);

#endif
