/*
 * What the tests of recordings in hxview share (recorded.c): the
 * workbench's box dropped from a metre while the daemon records it,
 * and what the file holds, read with the recording library.
 */
#ifndef HX_TESTS_RECORDED_H
#define HX_TESTS_RECORDED_H

#include <stddef.h>

#include "haptixd.h"

/* The fields the tests record: qpos, qvel, ctrl, mocap, sensordata. */
#define RECORDED_FIELDS \
	(HXD_FIELDS(HXD_FIELD_QPOS) | HXD_FIELDS(HXD_FIELD_QVEL) | \
	    HXD_FIELDS(HXD_FIELD_CTRL) | HXD_FIELDS(HXD_FIELD_MOCAP) | \
	    HXD_FIELDS(HXD_FIELD_SENSORDATA))

/* Put the workbench's box a metre up, then start recording into r. */
void recorded_drop_start(hxd_conn *c, hxd_recording *r);

/*
 * The qpos of the file's state record i into q (at most max values):
 * the model's nq; *nrec (may be NULL) gets how many state records the
 * file holds.
 */
int recorded_qpos(const char *path, int i, double *q, int max, int *nrec);

/*
 * hxview serve on the daemon at addr, finding recordings in the
 * directory of the recording path (as $STATE_DIRECTORY); its port.
 * file gets the recording's bare name.
 */
int recorded_serve(const char *addr, const char *path, char *file, size_t len);

#endif
