/*
 * hx-mocap's sources of rigid-body poses and the mapping of a pose into
 * MuJoCo's world (docs/drivers.md specifies every format):
 *
 *   mocap_udp.c   the simple UDP format, text lines or binary "HXP1"
 *   mocap_csv.c   a CSV file of timestamped poses
 *   mocap_axes.c  axis conventions and scale
 *
 * MuJoCo's conventions throughout: metres, quaternions (w, x, y, z),
 * world z up.  Nothing here talks to the daemon, allocates per sample or
 * prints: errors come back as a reason in err (err may be NULL).
 */
#ifndef HX_MOCAP_H
#define HX_MOCAP_H

#include <stddef.h>

#define MOCAP_NAME_MAX 64 /* a name's bytes plus its NUL */

/* One rigid body's pose as a source reports it. */
struct mocap_sample {
	char name[MOCAP_NAME_MAX]; /* "" if the source numbers bodies only */
	int id;                    /* the source's number for it, -1 if none */
	double time;    /* seconds on the source's own clock; NAN if none */
	double pos[3];  /* in the source's axes and unit */
	double quat[4]; /* w x y z, normalised by the parser */
};

/* The simple UDP format. */

#define MOCAP_UDP_MAGIC "HXP1"
#define MOCAP_UDP_HEADER 8 /* magic, uint32 count */
#define MOCAP_UDP_POSE 96  /* name[32], time, x y z, qw qx qy qz */
#define MOCAP_UDP_NAME 32  /* a binary name's field: up to 31 bytes, NULs */

/*
 * Decode one datagram of the simple UDP format, text or binary: up to max
 * samples into out.  Returns the count (0 for a text datagram of comments
 * only), or -1 with a reason; a datagram is taken whole or not at all, and
 * out's contents are unspecified after -1.
 */
int mocap_udp_parse(const void *buf, size_t len, struct mocap_sample *out,
    int max, char *err, size_t errlen);

/*
 * Encode n samples in the binary form into buf, as given (not checked or
 * normalised).  Returns the length, or 0 if cap is too small, n < 0 or a
 * name is empty or over 31 bytes.
 */
size_t mocap_udp_encode(
    const struct mocap_sample *s, int n, void *buf, size_t cap);

/* CSV files. */

struct mocap_csv; /* opaque reader */

/*
 * Open path and read its header line.  Returns the reader (close it with
 * mocap_csv_close), or NULL with a reason.
 */
struct mocap_csv *mocap_csv_open(const char *path, char *err, size_t errlen);

/*
 * The next sample in file order: 1, 0 at the end, -1 with a reason
 * naming the line.
 */
int mocap_csv_next(
    struct mocap_csv *c, struct mocap_sample *out, char *err, size_t errlen);

/* Go back to the first row, forgetting the time of the last one: 0 or -1. */
int mocap_csv_rewind(struct mocap_csv *c);

/* Close the file and free the reader; NULL is fine. */
void mocap_csv_close(struct mocap_csv *c);

/* Axes and scale. */

/* world = scale * m * source; det is m's determinant, 1 or -1. */
struct mocap_axes {
	double m[3][3];
	int det;
	double scale;
};

/*
 * Parse an axis convention: "z-up" (identity, MuJoCo's), "y-up" (Motive's
 * default: world = (x, -z, y)), or three comma-separated source axes with
 * signs giving world x, y, z, e.g. "x,-z,y" or "-y,x,z".  It must be a
 * permutation with signs; a mirror (det -1) is allowed.  Sets scale to 1.
 * Returns 0, or -1 with a reason.
 */
int mocap_axes_parse(
    const char *spec, struct mocap_axes *out, char *err, size_t errlen);

/*
 * Parse a scale into a->scale: a positive finite number, or a unit of the
 * source's positions, "m", "cm" or "mm".  Returns 0, or -1 with a reason
 * and a unchanged.
 */
int mocap_axes_parse_scale(
    const char *spec, struct mocap_axes *a, char *err, size_t errlen);

/*
 * Map a source pose to the world: pos' = scale * M pos; the quaternion's
 * rotation R' = M R M^T, i.e. w' = w, v' = det(M) * M v (this also holds
 * for mirrors).  The outputs may be the inputs.
 */
void mocap_axes_apply(const struct mocap_axes *a, const double pos[3],
    const double quat[4], double pos_out[3], double quat_out[4]);

/* Pieces the parsers share. */

/* Write a reason into err, if the caller wants one (err may be NULL). */
void mocap_error(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * Fill a sample's time, position and orientation (normalised), with no
 * number (id -1).  Returns 0, or -1 if the quaternion is zero or not
 * finite.
 */
int mocap_sample_set(struct mocap_sample *s, double time, const double pos[3],
    const double quat[4]);

/*
 * Normalise q in place; returns 0, or -1 if it is zero or not finite
 * (q unchanged).
 */
int mocap_quat_normalize(double q[4]);

/*
 * Check a body's name, the len bytes at s: 1 to MOCAP_NAME_MAX - 1 bytes,
 * no space, tab or control character.  Copies it with its NUL into out
 * and returns 0, or returns -1 with a reason.
 */
int mocap_name_parse(const char *s, size_t len, char out[MOCAP_NAME_MAX],
    char *err, size_t errlen);

/*
 * Parse the len bytes at s as one whole finite number (strtod's syntax).
 * Returns 0, or -1 with a reason quoting the text ("'abc' is not a
 * number", "'nan' is not finite").
 */
int mocap_number_parse(
    const char *s, size_t len, double *out, char *err, size_t errlen);

#endif
