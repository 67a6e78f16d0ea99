/*
 * hxplay: what its pieces share.  hxplay.c parses the command line and
 * runs one of the commands; each command is a file of its own:
 *
 *   hxplay_info.c    hxplay info FILE: the header and the counts
 *   hxplay_export.c  hxplay export FILE --csv DIR | --npy DIR
 *   hxplay_mcap.c    hxplay export FILE --mcap OUT (foxglove_msg.h)
 *   hxplay_play.c    hxplay FILE: the states to a paused server, paced
 *   hxplay_verify.c  hxplay --verify FILE: the journal, in lock-step
 *   hxplay_find.c    a bare file name found in the state directory
 *   hxplay_restore.c what --verify found on a shared server, put back
 *   hxplay_spawn.c   --spawn: a haptixd of hxplay's own
 *   hxplay_time.c    times printed in ISO 8601
 *
 * Warnings begin with the program's name (program_warn, program.h).
 *
 * Only the recording library (recording.h) and libhaptix are used, and
 * MuJoCo only by the MCAP export (hxplay_mcap.c, with the messages of
 * foxglove_msg.c), which needs the bodies' poses a recording does not
 * hold.
 */
#ifndef HXPLAY_COMMON_H
#define HXPLAY_COMMON_H

#include <sys/types.h>

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "haptixd.h"

/* Exit statuses. */
#define PLAY_OK 0    /* done; for --verify: bit-identical */
#define PLAY_FAIL 1  /* a file, the server or the replay said no */
#define PLAY_USAGE 2 /* the command line is wrong */

/* The options of play and --verify. */
struct play_opts {
	const char *server; /* -s, or NULL for the library's default */
	const char *file;
	double speed;     /* --speed: 1 is the recorded pace */
	double from, to;  /* --from, --to: simulated seconds; to < 0: the end */
	int loop;         /* --loop */
	uint64_t segment; /* --segment: from 1; 0 for all */
	int quiet;        /* -q */
	int keep_model;   /* --keep-model: replay on the server's model */
	int spawn;        /* --spawn: --verify on a haptixd of its own */
	int no_restore;   /* --no-restore: leave what --verify did */
};

/*
 * (hxplay_time.c) ns since the epoch as ISO 8601 in UTC, to the nanosecond,
 * into buf: returns buf, or NULL for a time the C library cannot express.
 */
char *play_iso8601(int64_t ns, char *buf, size_t len);

/*
 * file itself if it names a path or is here, else the first of the
 * daemon's state directories (play_state_dir, $STATE_DIRECTORY,
 * $XDG_STATE_HOME/haptixd, ~/.local/state/haptixd, /var/lib/haptixd)
 * that holds it (a static buffer), else NULL, said on stderr with every
 * directory tried.
 */
const char *play_find(const char *file);

/* hxplay --state-dir: where haptixd --state-dir put its recordings. */
extern const char *play_state_dir;

/*
 * What --verify finds on a shared server (hxplay_restore.c): take it
 * (pausing the server; NULL with err saying why), put it back after
 * (loading the model again when reload; an exit status, the outcome
 * printed), free it (NULL is fine).
 */
struct play_restore;
struct play_restore *play_restore_take(hxd_conn *c, char *err, size_t len);
int play_restore_put(const struct play_restore *r, hxd_conn *c, int reload,
    const char *file, int quiet);
void play_restore_free(struct play_restore *r);

/* A haptixd of hxplay's own (hxplay_spawn.c), listening at addr. */
struct play_spawn {
	pid_t pid;
	char dir[PATH_MAX]; /* temporary: its socket and state directory */
	char addr[PATH_MAX + 16];
};

/* Start one and wait until it answers: 0, or -1 having said why. */
int play_spawn_start(struct play_spawn *s);

/* Stop it and remove its directory (after a failed start too). */
void play_spawn_stop(struct play_spawn *s);

/* The commands: each returns an exit status. */
int play_info(int argc, char **argv);
int play_export(int argc, char **argv);
/* export FILE --mcap OUT [--model FILE] [--force] (hxplay_mcap.c). */
int play_export_mcap(
    const char *file, const char *out, const char *model, int force);
int play_play(const struct play_opts *o);
int play_verify(const struct play_opts *o);

#endif
