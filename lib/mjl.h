/*
 * HAPTIX's log file (.mjl), as MuJoCo HAPTIX's manual describes it
 * ("Recording and playback"): a description section, then the data.
 *
 * The description is six little-endian 32-bit integers, nq, nv, nu,
 * nmocap, nsensordata and the length of the model name, then the name's
 * bytes.  The data is one record per saved step, each 1 + nq + nv + nu +
 * 7 nmocap + nsensordata little-endian IEEE single-precision numbers:
 * time, qpos, qvel, ctrl, mocap_pos (3 per body), mocap_quat (4 per
 * body) and sensordata.  Nothing marks a record; a file cut short ends
 * inside one.
 *
 * This file only decodes: the recording reader (recording.c) reads a
 * .mjl through these as it reads a .hxr, so that every client of the
 * reader takes both.
 */
#ifndef HX_MJL_H
#define HX_MJL_H

#include <stddef.h>
#include <stdint.h>

#include "recording.h"

#define MJL_HEAD 24        /* the six integers */
#define MJL_NAME_MAX 65536 /* name bytes a reader accepts */

/*
 * The description's six integers from p (MJL_HEAD bytes) into h, as a
 * recording's header: HAPTIX's fields, a record every step, no act, no
 * timestep.  *name_len receives the name's length, which the caller
 * reads next and gives to mjl_name.  -1 with err saying why if a count
 * is negative or past the limits (REC_SIZE_MAX, MJL_NAME_MAX, a record
 * within REC_ITEM_MAX).
 */
int mjl_description(const uint8_t *p, struct rec_header *h, size_t *name_len,
    char *err, size_t len);

/* The name's n bytes into h->name: cut at its first NUL and at REC_NAME_MAX. */
void mjl_name(struct rec_header *h, const uint8_t *p, size_t n);

/* The bytes of one record of h. */
size_t mjl_record_len(const struct rec_header *h);

/*
 * One record from p (mjl_record_len bytes): its time, and its values
 * into v in the order of recording.h's fields (qpos, qvel, ctrl,
 * mocap_pos, mocap_quat, sensordata), each widened to double exactly.
 */
void mjl_record(
    const struct rec_header *h, const uint8_t *p, double *time, double *v);

#endif
