/* Joints held on a path: see hold.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon.h"
#include "haptix.pb-c.h"
#include "hold.h"
#include "log.h"
#include "mjcf.h"
#include "session.h"
#include "sim.h"
#include "sim_hold.h"
#include "sim_state.h"

/* An equality's attributes: joint1, polycoef, solref, solimp. */
#define HOLD_ATTRS 4

/*
 * The equality's impedance: near 1 at once, so that it holds the joint
 * all but exactly where a softer one (MuJoCo's 0.9 to 0.95) gives way
 * to a motor by some hundredths of a radian.
 */
#define HOLD_SOLIMP "0.99 0.999 0.001"

/* Why a holder's holds ended, until it is told. */
struct hold_dropped {
	uint64_t holder;
	char *text; /* "JOINT: why" lines */
};

/* The holds and what their holders are yet to be told (d->hold). */
struct holds {
	struct hold_list all;
	int n;
	int serials;                  /* the last edit's serial */
	struct hold_dropped *dropped; /* why holds ended, by holder */
	int ndropped, maxdropped;
};

struct holds *
hold_create(void)
{
	struct holds *hs;

	if ((hs = calloc(1, sizeof(*hs))) == NULL)
		fatal("out of memory");
	TAILQ_INIT(&hs->all);
	return hs;
}

void
hold_free(struct holds *hs)
{
	struct hold *h;
	int i;

	if (hs == NULL)
		return;
	while ((h = TAILQ_FIRST(&hs->all)) != NULL) {
		TAILQ_REMOVE(&hs->all, h, entry);
		free(h);
	}
	for (i = 0; i < hs->ndropped; i++)
		free(hs->dropped[i].text);
	free(hs->dropped);
	free(hs);
}

struct hold_list *
hold_list(struct daemon *d)
{
	return &d->hold->all;
}

int
hold_count(const struct daemon *d)
{
	struct holds *hs = d->hold;

	return hs->n;
}

struct hold *
hold_find(const struct daemon *d, const char *joint)
{
	struct holds *hs = d->hold;
	struct hold *h;

	TAILQ_FOREACH(h, &hs->all, entry)
	if (strcmp(h->joint, joint) == 0)
		return h;
	return NULL;
}

struct hold *
hold_new(
    struct daemon *d, const char *joint, const struct session *s, double target)
{
	struct holds *hs = d->hold;
	struct hold *h;

	if ((h = calloc(1, sizeof(*h))) == NULL)
		fatal("out of memory");
	snprintf(h->joint, sizeof(h->joint), "%s", joint);
	h->holder = s->id;
	snprintf(h->holder_name, sizeof(h->holder_name), "%s", s->name);
	h->target = target;
	h->eq = -1;
	TAILQ_INSERT_TAIL(&hs->all, h, entry);
	hs->n++;
	return h;
}

/* Take h off the list and free it. */
static void
hold_forget(struct daemon *d, struct hold *h)
{
	struct holds *hs = d->hold;

	TAILQ_REMOVE(&hs->all, h, entry);
	hs->n--;
	free(h);
}

int
hold_reserved(const char *name)
{
	return strncmp(name, HOLD_PREFIX, strlen(HOLD_PREFIX)) == 0;
}

int
hold_serial(struct daemon *d)
{
	struct holds *hs = d->hold;

	if (++hs->serials <= 0) /* 0 means none */
		hs->serials = 1;
	return hs->serials;
}

/* Tell h's holder, at its next answer, that h ended and why. */
static void
hold_notice(struct daemon *d, const struct hold *h, const char *why)
{
	struct holds *hs = d->hold;
	struct hold_dropped *n = NULL;
	size_t old, add;
	int i;

	log_info("client %llu: the hold on joint \"%s\" ended: %s",
	    (unsigned long long)h->holder, h->joint, why);
	for (i = 0; i < hs->ndropped; i++)
		if (hs->dropped[i].holder == h->holder)
			n = &hs->dropped[i];
	if (n == NULL) {
		if (hs->ndropped == hs->maxdropped) {
			hs->maxdropped = hs->maxdropped == 0 ?
			    4 :
			    2 * hs->maxdropped;
			hs->dropped = realloc(hs->dropped,
			    (size_t)hs->maxdropped * sizeof(*hs->dropped));
			if (hs->dropped == NULL)
				fatal("out of memory");
		}
		n = &hs->dropped[hs->ndropped++];
		n->holder = h->holder;
		n->text = NULL;
	}
	old = n->text != NULL ? strlen(n->text) : 0;
	add = strlen(h->joint) + strlen(why) + 4;
	if ((n->text = realloc(n->text, old + add)) == NULL)
		fatal("out of memory");
	snprintf(n->text + old, add, "%s: %s\n", h->joint, why);
}

/* h ended: tell its holder, and forget it. */
static void
hold_drop(struct daemon *d, struct hold *h, const char *why)
{
	hold_notice(d, h, why);
	hold_forget(d, h);
}

char *
hold_dropped_take(struct daemon *d, uint64_t holder)
{
	struct holds *hs = d->hold;
	char *text;
	int i;

	for (i = 0; i < hs->ndropped; i++)
		if (hs->dropped[i].holder == holder) {
			text = hs->dropped[i].text;
			hs->dropped[i] = hs->dropped[--hs->ndropped];
			return text;
		}
	return NULL;
}

/* The equality name of the hold on joint. */
static void
hold_equality(const char *joint, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", HOLD_PREFIX, joint);
}

int
hold_edit_start(struct daemon *d, const void *owner, int remove, int serial,
    loadjob_done_fn done, void *arg, char **operations, char *err, size_t len)
{
	struct holds *hs = d->hold;
	static char joint1[] = "joint1", polycoef[] = "polycoef",
		    zero[] = "0 0 0 0 0", equality[] = "equality", empty[] = "",
		    type[] = "joint", solref[] = "solref", solimp[] = "solimp",
		    stiff[] = HOLD_SOLIMP;
	char ref[64];
	Haptix__V1__EditModel em = HAPTIX__V1__EDIT_MODEL__INIT;
	Haptix__V1__EditOp *ops, **opp;
	Haptix__V1__EditAttr *attrs, **attrp, *a;
	struct loadjob_request r = { 0 };
	struct hold *h;
	char *names, *text = NULL;
	size_t n = 0, k, size, off = 0;
	uint8_t *packed;
	int rc;

	*operations = NULL;

	TAILQ_FOREACH(h, &hs->all, entry)
	n += (remove ? h->releasing : h->adding) == serial;
	if (n == 0)
		return 0;
	ops = calloc(n, sizeof(*ops));
	opp = calloc(n, sizeof(*opp));
	attrs = calloc(HOLD_ATTRS * n, sizeof(*attrs));
	attrp = calloc(HOLD_ATTRS * n, sizeof(*attrp));
	names = calloc(n, HOLD_NAME_MAX + sizeof(HOLD_PREFIX));
	if (ops == NULL || opp == NULL || attrs == NULL || attrp == NULL ||
	    names == NULL)
		fatal("out of memory");
	for (k = 0; k < HOLD_ATTRS * n; k++) {
		haptix__v1__edit_attr__init(&attrs[k]);
		attrp[k] = &attrs[k];
	}
	/* As stiff as the model's step allows (MuJoCo's safe solref). */
	snprintf(ref, sizeof(ref), "%.17g 1", 2 * sim_sizes(d->sim)->timestep);
	size = n * (HOLD_NAME_MAX + 32) + 1;
	if ((text = malloc(size)) == NULL)
		fatal("out of memory");
	k = 0;
	TAILQ_FOREACH(h, &hs->all, entry)
	{
		if ((remove ? h->releasing : h->adding) != serial)
			continue;
		haptix__v1__edit_op__init(&ops[k]);
		opp[k] = &ops[k];
		ops[k].type = type;
		ops[k].name = names + k * (HOLD_NAME_MAX + sizeof(HOLD_PREFIX));
		hold_equality(
		    h->joint, ops[k].name, HOLD_NAME_MAX + sizeof(HOLD_PREFIX));
		off += (size_t)snprintf(text + off, size - off,
		    "%s equality %s\n", remove ? "remove" : "add", ops[k].name);
		if (remove) {
			ops[k].kind = HAPTIX__V1__EDIT_KIND__EDIT_REMOVE;
			k++;
			continue;
		}
		/* The offset is the daemon's to set before each step. */
		ops[k].kind = HAPTIX__V1__EDIT_KIND__EDIT_ADD;
		ops[k].parent_type = equality;
		ops[k].parent_name = empty;
		a = attrs + HOLD_ATTRS * k;
		a[0].name = joint1;
		a[0].value = h->joint;
		a[1].name = polycoef;
		a[1].value = zero;
		a[2].name = solref;
		a[2].value = ref;
		a[3].name = solimp;
		a[3].value = stiff;
		ops[k].attrs = attrp + HOLD_ATTRS * k;
		ops[k].n_attrs = HOLD_ATTRS;
		k++;
	}
	em.ops = opp;
	em.n_ops = n;
	size = haptix__v1__edit_model__get_packed_size(&em);
	if ((packed = malloc(size + 1)) == NULL)
		fatal("out of memory");
	haptix__v1__edit_model__pack(&em, packed);
	r.source = LOADER_EDIT;
	r.edit = packed;
	r.edit_len = size;
	/* Before the start: a load that cannot start is told at once. */
	*operations = text;
	rc = loadjob_start(d, &r, owner, done, arg, err, len);
	free(packed);
	free(ops);
	free(opp);
	free(attrs);
	free(attrp);
	free(names);
	return rc;
}

void
hold_edit_over(struct daemon *d, int serial, int ok)
{
	struct holds *hs = d->hold;
	struct hold *h, *next;

	for (h = TAILQ_FIRST(&hs->all); h != NULL; h = next) {
		next = TAILQ_NEXT(h, entry);
		if (h->adding == serial) {
			h->adding = 0;
			if (!ok)
				hold_forget(d, h);
		} else if (h->releasing == serial) {
			h->releasing = 0;
			if (ok)
				hold_forget(d, h);
		}
	}
}

void
hold_before_step(struct daemon *d)
{
	struct holds *hs = d->hold;
	struct hold *h;

	TAILQ_FOREACH(h, &hs->all, entry)
	if (h->eq >= 0)
		sim_hold_set(d->sim, h->eq, h->target);
}

void
hold_model_changed(struct daemon *d)
{
	struct holds *hs = d->hold;
	struct hold *h, *next;

	for (h = TAILQ_FIRST(&hs->all); h != NULL; h = next) {
		next = TAILQ_NEXT(h, entry);
		h->eq = -1;
		/* An edit on its way applies to the new model. */
		if (h->adding == 0)
			hold_drop(d, h, "another model was loaded");
	}
}

void
hold_model_edited(struct daemon *d)
{
	struct holds *hs = d->hold;
	char name[HOLD_NAME_MAX + sizeof(HOLD_PREFIX)];
	struct hold *h, *next;
	int set = 0;

	for (h = TAILQ_FIRST(&hs->all); h != NULL; h = next) {
		next = TAILQ_NEXT(h, entry);
		hold_equality(h->joint, name, sizeof(name));
		h->eq = sim_equality_id(d->sim, name);
		if (h->eq >= 0)
			set += sim_hold_set(d->sim, h->eq, h->target) == 0;
		else if (h->adding == 0 && h->releasing == 0)
			hold_drop(d, h, "an edit removed the joint");
	}
	/* The forces answer the targets at once, also while paused. */
	if (set > 0)
		sim_forward(d->sim);
}

static hold_edited_fn hold_notify; /* core.c: lifecycle_model_edited */

void
hold_set_notify(hold_edited_fn fn)
{
	hold_notify = fn;
}

/* A release the daemon makes for a client that left. */
struct hold_release {
	int serial;
	char *operations;
};

/* The daemon's own release is over: the holds go either way. */
static void
hold_released(struct daemon *d, void *arg, int code, const char *err)
{
	struct hold_release *rel = arg;

	if (code == 0 && hold_notify != NULL)
		hold_notify(d, rel->operations, err, NULL);
	else if (code != LOADJOB_CANCELLED)
		log_warn("the holds of a client that left stay in the model: "
			 "their release failed: %s",
		    err);
	hold_edit_over(d, rel->serial, 1);
	free(rel->operations);
	free(rel);
}

void
hold_good(struct daemon *d)
{
	struct holds *hs = d->hold;
	struct hold *h;

	TAILQ_FOREACH(h, &hs->all, entry)
	{
		h->good = h->eq >= 0;
		h->good_target = h->target;
	}
}

int
hold_undo(struct daemon *d, int all, char *names, size_t len)
{
	struct holds *hs = d->hold;
	struct hold_release *rel;
	struct hold *h;
	char err[512];
	int serial = hold_serial(d), n = 0;
	size_t at = 0;

	names[0] = '\0';
	TAILQ_FOREACH(h, &hs->all, entry)
	{
		if (h->eq < 0 || h->releasing != 0 ||
		    (!all && h->good && h->target == h->good_target))
			continue;
		/* Until the edit lands, it holds the joint where it is. */
		h->target = sim_hold_position(d->sim, h->eq);
		h->releasing = serial;
		hold_notice(d, h,
		    "released: its target made the simulation unstable "
		    "(the step was undone)");
		at += (size_t)snprintf(names + at, at < len ? len - at : 0,
		    "%s%s", n > 0 ? ", " : "", h->joint);
		if (at >= len)
			at = len - 1;
		n++;
	}
	if (n == 0)
		return 0;
	if ((rel = calloc(1, sizeof(*rel))) == NULL)
		fatal("out of memory");
	rel->serial = serial;
	if (hold_edit_start(d, NULL, 1, serial, hold_released, rel,
		&rel->operations, err, sizeof(err)) != 0) {
		log_warn("holds that made the simulation unstable stay in "
			 "the model, held where their joints are: %s",
		    err);
		hold_edit_over(d, serial, 1);
		free(rel->operations);
		free(rel);
	}
	return n;
}

void
hold_session_closed(struct daemon *d, struct session *s)
{
	struct holds *hs = d->hold;
	struct hold_release *rel;
	struct hold *h, *next;
	char err[512];
	int serial = hold_serial(d), n = 0;

	free(hold_dropped_take(d, s->id));
	for (h = TAILQ_FIRST(&hs->all); h != NULL; h = next) {
		next = TAILQ_NEXT(h, entry);
		if (h->holder != s->id)
			continue;
		if (h->eq < 0) /* its equality is gone, or never came */
			hold_forget(d, h);
		else if (h->releasing == 0) {
			h->releasing = serial;
			n++;
		}
	}
	if (n == 0)
		return;
	log_info("client %llu: releasing its %d hold%s",
	    (unsigned long long)s->id, n, n == 1 ? "" : "s");
	if ((rel = calloc(1, sizeof(*rel))) == NULL)
		fatal("out of memory");
	rel->serial = serial;
	if (hold_edit_start(d, NULL, 1, serial, hold_released, rel,
		&rel->operations, err, sizeof(err)) != 0) {
		log_warn("the holds of client %llu stay in the model: %s",
		    (unsigned long long)s->id, err);
		hold_edit_over(d, serial, 1);
		free(rel->operations);
		free(rel);
	}
}

char *
hold_strip_xml(
    const struct daemon *d, const char *xml, size_t xml_len, size_t *len)
{
	struct holds *hs = d->hold;
	char err[256], *out;
	struct mjcf_node *root, *sec, *n, *next;
	struct mjcf_doc *doc;
	const char *v;
	int found = 0;

	if (hs->n == 0)
		return NULL;
	/* The text of an edit: the loader wrote it, with mjcf_write. */
	if ((doc = mjcf_parse_buffer_lenient(
		 xml, xml_len, "the model", err, sizeof(err))) == NULL)
		return NULL;
	root = mjcf_root(doc);
	for (sec = mjcf_first_child(root, "equality"); sec != NULL;
	     sec = mjcf_next_sibling(sec, "equality")) {
		for (n = mjcf_first_child(sec, "joint"); n != NULL; n = next) {
			next = mjcf_next_sibling(n, "joint");
			v = mjcf_attr_get(n, "name");
			if (v == NULL || !hold_reserved(v) ||
			    hold_find(d, v + strlen(HOLD_PREFIX)) == NULL)
				continue;
			mjcf_node_delete(doc, n);
			found++;
		}
	}
	if (found == 0) {
		mjcf_free(doc);
		return NULL;
	}
	mjcf_write(doc, &out, len);
	mjcf_free(doc);
	return out;
}

void
hold_shutdown(struct daemon *d)
{
	struct holds *hs = d->hold;
	int i;

	while (!TAILQ_EMPTY(&hs->all))
		hold_forget(d, TAILQ_FIRST(&hs->all));
	for (i = 0; i < hs->ndropped; i++)
		free(hs->dropped[i].text);
	free(hs->dropped);
	hs->dropped = NULL;
	hs->ndropped = hs->maxdropped = 0;
}
