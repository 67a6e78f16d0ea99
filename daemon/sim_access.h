/*
 * One body as HAPTIX's mjOneBody describes it, contacts, geom sizes,
 * colours and names, as the calls read and write them (sim_access.c).
 */
#ifndef HXD_SIM_ACCESS_H
#define HXD_SIM_ACCESS_H

#include <stddef.h>
#include <stdint.h>

struct sim;

/* One body as HAPTIX's mjOneBody describes it. */
struct sim_onebody {
	int is_floating;
	double linacc[3], angacc[3], contactforce[3];
	double pos[3], quat[4], linvel[3], angvel[3];
	double force[3], torque[3];
};

/* Which parts of a sim_onebody sim_onebody_set() writes. */
#define SIM_BODY_POS 0x01u
#define SIM_BODY_QUAT 0x02u
#define SIM_BODY_LINVEL 0x04u
#define SIM_BODY_ANGVEL 0x08u
#define SIM_BODY_FORCE 0x10u
#define SIM_BODY_TORQUE 0x20u

/* Contacts, in arrays the caller provides (ncon elements each). */
struct sim_contacts {
	double *dist, *pos, *frame, *force;
	int32_t *geom1, *geom2;
};

/* Get one body; id must be valid. */
void sim_onebody_get(struct sim *s, int id, struct sim_onebody *out);

/* Set the parts of one body named by fields; id must be valid. */
void sim_onebody_set(
    struct sim *s, int id, const struct sim_onebody *in, unsigned fields);

/* The applied generalized force: qfrc_applied plus mapped xfrc_applied. */
void sim_force_applied(const struct sim *s, double *out);

/* Return the number of contacts; fill out if it is not NULL. */
int sim_contacts(const struct sim *s, const struct sim_contacts *out);

/*
 * Set a geom's size and its bounding radius.  Returns 0; -1 for a mesh or
 * height field, -2 for a size its type cannot take; err says which.
 */
int sim_set_geomsize(
    struct sim *s, int id, const double size[3], char *err, size_t len);

/*
 * Colour of an object: objtype is the protocol's ObjType (geom, site,
 * tendon, material).  Returns 0, -1 for a type without colour, -2 for an
 * id out of range.
 */
int sim_rgba_get(const struct sim *s, int objtype, int id, double rgba[4]);
int sim_rgba_set(struct sim *s, int objtype, int id, const double rgba[4]);

/*
 * Names and ids by the protocol's ObjType.  sim_name2id returns the id,
 * -1 if not found, -2 for a type without names; sim_id2name returns the
 * name ("" when unnamed), or NULL for a bad type (*bad_index = 0) or id
 * (*bad_index = 1).
 */
int sim_name2id(const struct sim *s, int objtype, const char *name);
const char *sim_id2name(
    const struct sim *s, int objtype, int id, int *bad_index);

#endif
