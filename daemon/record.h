/*
 * Recording: the daemon writes the state after the steps it takes into a
 * .hxr file (lib/recording.h) in the state directory, so that nothing a
 * client does not read is lost.  One recording at a time.
 */
#ifndef HXD_RECORD_H
#define HXD_RECORD_H

#include <stddef.h>
#include <stdint.h>

struct daemon;

struct record_info {
	int active;
	const char *path; /* "" before the first recording */
	unsigned every;   /* steps from one record to the next */
	uint64_t records;
	uint64_t bytes;    /* written to the file */
	const char *ended; /* why the last one ended; "" while active */
};

/*
 * Start a recording of fields (a set of REC_FIELD_BIT) at one step in
 * every: a new file MODEL_N.hxr in the state directory.  Returns 0, or a
 * result code with the reason in err.
 */
int record_start(
    struct daemon *d, unsigned fields, unsigned every, char *err, size_t len);

/* End the recording, if one runs, saying why in the log and status. */
void record_stop(struct daemon *d, const char *why);

/* A step was taken: write the state if a record is due. */
void record_after_step(struct daemon *d);

void record_info(struct record_info *out);

/*
 * The state directory: --state-dir, else $STATE_DIRECTORY (systemd's
 * StateDirectory=), else $XDG_STATE_HOME/haptixd, else
 * ~/.local/state/haptixd.
 */
const char *record_state_dir(const struct daemon *d, char *buf, size_t len);

#endif
