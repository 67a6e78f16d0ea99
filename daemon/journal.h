/*
 * The journal of a recording: what each step read, for a bit-exact
 * replay.  Before a step, the arrays a step reads (the state, the inputs,
 * the solver's warm start, the writable parameters of the model) are
 * compared with what the journal last wrote, and those that changed are
 * written as array writes (lib/recording.h) of the rows that changed.
 * Nothing else need tell it what changed: a client's call, a reset, a
 * servo reference moving by itself or the lease's loss policy are all
 * seen the same way.  The model's arrays are compared only when the sim
 * counts a write into the model.
 */
#ifndef HXD_JOURNAL_H
#define HXD_JOURNAL_H

#include <stddef.h>
#include <stdint.h>

struct sim;
struct rec_writer;
struct journal;

/* A journal of the loaded model, with nothing written yet. */
struct journal *journal_create(const struct sim *s);
void journal_free(struct journal *j);

/*
 * Before step + 1: write the arrays that changed; the first time, all
 * of the data (the model entry the caller wrote holds the model).
 * Returns the entries written, or -1 (see rec_writer_error).
 */
int journal_before_step(struct journal *j, const struct sim *s,
    struct rec_writer *w, uint64_t step);

/* After a step: the data is what it read no longer. */
void journal_after_step(struct journal *j, const struct sim *s);

/*
 * FNV-1a 64 of time, qpos, qvel, act and qacc_warmstart, as doubles in
 * the host's order (little-endian on every machine haptixd supports).
 */
uint64_t journal_state_hash(const struct sim *s);

#endif
