/* Quaternions where MuJoCo is not at hand: see quat.h. */
#include "config.h"

#include <string.h>

#include "quat.h"

void
quat_mul(const double a[4], const double b[4], double out[4])
{
	double r[4];

	r[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
	r[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
	r[2] = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
	r[3] = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
	memcpy(out, r, sizeof(r));
}
