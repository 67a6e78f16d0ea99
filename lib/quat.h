/*
 * Quaternions (w x y z) where MuJoCo is not at hand: libhaptix and the
 * clients, which never link MuJoCo, and the daemon's MJCF text
 * (mjcf_attach.c).  The daemon's simulation uses MuJoCo's mju_mulQuat.
 */
#ifndef HX_QUAT_H
#define HX_QUAT_H

/* out = a * b; out may alias a or b. */
void quat_mul(const double a[4], const double b[4], double out[4]);

#endif
