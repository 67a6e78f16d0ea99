/*
 * Loads in the background: each model is compiled by a loader process
 * (loader.h) while the simulation and every client go on; when it
 * answers, the daemon checks the MJB it got and makes it the running
 * model.  One loader runs at a time; later loads wait their turn, shared
 * fairly between peers (below).  A
 * loader that crashes, runs out of time or memory, or says nothing is a
 * failed load, and the old model runs on.
 */
#ifndef HXD_LOADJOB_H
#define HXD_LOADJOB_H

#include <stddef.h>

#include "loader.h"
#include "sim.h"

struct daemon;
struct loadjobs;

/* The loads' state (d->loadjob), after loadjob_shutdown(); NULL is fine. */
struct loadjobs *loadjob_create(void);
void loadjob_free(struct loadjobs *lj);

/*
 * A load: the file (a real path inside the model dirs) or the data, with
 * the files it carries; or an edit (an EditModel message, packed) in
 * edit, of the running model's MJCF text as it is when the edit's loader
 * starts, after the loads and edits queued before it, compiled where
 * that text stands with the files that model carries.
 */
struct loadjob_request {
	enum loader_source source;
	const char *path;       /* LOADER_FILE */
	enum sim_format format; /* LOADER_INLINE */
	const void *data;       /* LOADER_INLINE; copied */
	size_t len;
	const void *edit; /* LOADER_EDIT; copied */
	size_t edit_len;
	const char *name; /* LOADER_INLINE: the model's name in logs */
	int legacy;       /* translate HAPTIX 1.x MJCF */
	/* LOADER_INLINE: the files the model carries, checked
	 * (modelassets_check) and packed (modelassets_pack); copied, and
	 * kept beside the model's text for its edits (modeltext.h). */
	const void *assets;
	size_t assets_len, nassets;
};

/*
 * Called once per load: code is RESULT_OK with the new model running
 * (err then holds what an edit removed, "type name" lines, or ""), a
 * failure with err saying why and the old model still running, or
 * LOADJOB_CANCELLED when its owner left (only arg is to be freed).  An
 * edit's model takes the running one's state by names (sim_carry) and
 * keeps its name and file.
 */
#define LOADJOB_CANCELLED 1
typedef void (*loadjob_done_fn)(
    struct daemon *d, void *arg, int code, const char *err);

/*
 * Queue a load for owner (NULL: the daemon itself).  Returns 0, or
 * RESULT_LOADFAILED with err saying why it cannot even start.
 */
int loadjob_start(struct daemon *d, const struct loadjob_request *r,
    const void *owner, loadjob_done_fn done, void *arg, char *err, size_t len);

/* Load and wait for it, running d's loop meanwhile (at start-up). */
int loadjob_run(
    struct daemon *d, const struct loadjob_request *r, char *err, size_t len);

/*
 * Fair sharing.  Loads and edits wait in one queue but start peer by
 * peer: a peer is what the hook below names for a load's owner (the
 * Unix user, or the TCP address: every connection of one is one peer),
 * and the next to start is the oldest load of the peer that started one
 * least recently, so that a peer with many loads queued delays another's
 * by the one running at most.  The hook's first says the owner comes
 * before every peer (the lease holder); asked again at each start.  The
 * daemon's own loads (owner NULL) come first too.  Each peer's loads
 * start in the order asked, so an edit applies to the model as the
 * loads before it left it.  At most LOADJOB_PEER_MAX of a peer's and
 * LOADJOB_MAX in all wait or run: past them loadjob_start refuses at
 * once (RESULT_DENIED) with the reason.
 */
#define LOADJOB_PEER_MAX 4
#define LOADJOB_MAX 64
typedef int (*loadjob_peer_fn)(
    struct daemon *d, const void *owner, char *key, size_t len);
void loadjob_set_peer(loadjob_peer_fn fn);

/* owner left: its loads are cancelled, their loaders killed. */
void loadjob_owner_left(struct daemon *d, const void *owner);

/* Kill every loader and forget every load (the daemon stops). */
void loadjob_shutdown(struct daemon *d);

/*
 * Run loads in this process instead of a loader (on 1): for the fuzzer,
 * which must see what a model does to MuJoCo, never for the daemon.
 */
void loadjob_inprocess(int on);

/* Loads running or waiting. */
size_t loadjob_count(const struct daemon *d);

/* The limits every load gets, from the settings. */
void loadjob_limits(const struct daemon *d, struct loader_limits *l);

#endif
