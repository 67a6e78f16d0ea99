/*
 * Quaternions (w x y z) for the client side: libhaptix and the clients,
 * which never link MuJoCo.  The daemon uses MuJoCo's mju_mulQuat.
 */
#ifndef HX_QUAT_H
#define HX_QUAT_H

/* out = a * b; out may alias a or b. */
void quat_mul(const double a[4], const double b[4], double out[4]);

#endif
