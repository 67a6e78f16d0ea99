/*
 * Recording: the daemon writes the state after the steps it takes into a
 * .hxr file (lib/recording.h) in the state directory, so that nothing a
 * client does not read is lost.  One recording at a time.
 *
 * With a journal, the file also holds what each step read: the model
 * (MJB) at the start, then before each step the arrays of the data and
 * the model that changed since the last one, found by comparing them
 * with what the journal holds (so no caller need say what it changed),
 * and after each step a hash of the state.  hxplay --verify replays it.
 */
#ifndef HXD_RECORD_H
#define HXD_RECORD_H

#include <stddef.h>
#include <stdint.h>

struct daemon;
struct recorder;

/* The module's state (d->record); record_free takes NULL. */
struct recorder *record_create(void);
void record_free(struct recorder *rec);

struct record_info {
	int active;
	const char *path; /* "" before the first recording */
	unsigned every;   /* steps from one record to the next */
	int journal;
	uint64_t records;
	uint64_t journal_entries;
	uint64_t bytes;    /* written to the file */
	const char *ended; /* why the last one ended; "" while active */
	uint64_t quota;    /* its --record-quota in bytes; 0: none */
};

/*
 * Start a recording of fields (a set of REC_FIELD_BIT) at one step in
 * every, with a journal or not: a new file MODEL_N.hxr in the state
 * directory.  Returns 0, or a result code with the reason in err.
 */
int record_start(struct daemon *d, unsigned fields, unsigned every, int journal,
    char *err, size_t len);

/*
 * Called when the daemon ends a recording by itself: the file reached
 * --record-quota, or a write failed (a full disk).  record_info() says
 * why.  Until set, nobody is told.
 */
typedef void (*record_notify_fn)(struct daemon *d);
void record_set_notify(record_notify_fn fn);

/* End the recording, if one runs, saying why in the log and status. */
void record_stop(struct daemon *d, const char *why);

/*
 * The model was edited (the sim's step count starts again): the
 * recording goes on with a model change holding the new model, the
 * transaction as text (operations) and what it removed, and the
 * journal starts again with all of the data.
 */
void record_model_edited(
    struct daemon *d, const char *operations, const char *removed);

/* Before a reset sets the sim's count of steps to 0. */
void record_steps_restart(struct daemon *d);

/* A step is about to be taken: journal the inputs that changed. */
void record_before_step(struct daemon *d);

/* A step was taken: write the state if a record is due. */
void record_after_step(struct daemon *d);

/* The hash of the state (docs/recording.md), as the journal holds it. */
uint64_t record_state_hash(const struct daemon *d);

void record_info(const struct daemon *d, struct record_info *out);

/*
 * The state directory: --state-dir, else $STATE_DIRECTORY (systemd's
 * StateDirectory=), else $XDG_STATE_HOME/haptixd, else
 * ~/.local/state/haptixd.
 */
const char *record_state_dir(const struct daemon *d, char *buf, size_t len);

#endif
