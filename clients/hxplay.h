/*
 * hxplay: what its pieces share.  hxplay.c parses the command line and
 * runs one of the commands; each command is a file of its own:
 *
 *   hxplay_info.c    hxplay info FILE: the header and the counts
 *   hxplay_export.c  hxplay export FILE --csv DIR | --npy DIR
 *   hxplay_play.c    hxplay FILE: the states to a paused server, paced
 *   hxplay_verify.c  hxplay --verify FILE: the journal, in lock-step
 *
 * Only the recording library (recording.h) and libhaptix are used: no
 * MuJoCo.
 */
#ifndef HXPLAY_H
#define HXPLAY_H

#include <stddef.h>
#include <stdint.h>

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
};

extern const char *play_progname;

/*
 * ns since the epoch as ISO 8601 in UTC, to the nanosecond, into buf:
 * returns buf, or NULL for a time the C library cannot express.
 */
char *play_iso8601(int64_t ns, char *buf, size_t len);

/* Print "hxplay: ..." to stderr. */
void play_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The commands: each returns an exit status. */
int play_info(int argc, char **argv);
int play_export(int argc, char **argv);
int play_play(const struct play_opts *o);
int play_verify(const struct play_opts *o);

#endif
