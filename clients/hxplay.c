/*
 * hxplay: plays a recording (.hxr, or HAPTIX's .mjl) to a paused
 * haptixd, verifies its journal in lock-step, and exports it for
 * analysis.  See hxplay(1).
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hxplay_common.h"
#include "program.h"
#include "usage.h"

static void
usage(FILE *fp)
{
	fprintf(fp,
	    "usage: hxplay [-s SERVER] [--speed X] [--from T] [--to T] "
	    "[--segment N]\n"
	    "              [--loop] FILE\n"
	    "       hxplay --verify [-s SERVER] [--keep-model] [--no-restore] "
	    "FILE\n"
	    "       hxplay --verify --spawn FILE\n"
	    "       hxplay info FILE\n"
	    "       hxplay export FILE (--csv DIR | --npy DIR) "
	    "[--fields F,...] [--force]\n"
	    "       hxplay export FILE --mcap OUT.mcap [--model FILE] "
	    "[--force]\n"
	    "\n"
	    "Play a haptixd recording (.hxr) to a server, verify its journal,\n"
	    "or read it.  HAPTIX's logs (.mjl) play, list and export alike.\n"
	    "\n"
	    "  FILE                play the recorded states to the server at "
	    "the\n"
	    "                      recorded pace; the server is paused first\n"
	    "  --verify FILE       replay the journal (record start --journal) "
	    "in\n"
	    "                      lock-step: load the recorded model, apply "
	    "the\n"
	    "                      inputs at their steps, compare the state "
	    "hashes;\n"
	    "                      exit 1 at the first step that differs; then "
	    "put\n"
	    "                      back the server's model, parameters, "
	    "state and\n"
	    "                      run or pause, as found\n"
	    "  info FILE           the header, counts, and each segment's "
	    "records and\n"
	    "                      times\n"
	    "  export FILE         one file per field: --csv DIR (text) or "
	    "--npy\n"
	    "                      DIR (NumPy), with step, time and segment;\n"
	    "                      or --mcap OUT.mcap: poses, scene, joints,\n"
	    "                      controls, sensors, contacts and events for\n"
	    "                      Foxglove (--model: the recorded model, for\n"
	    "                      a file recorded without --journal)\n"
	    "\n"
	    "  -s, --server ADDR   the server: a Unix socket path or "
	    "HOST:PORT\n"
	    "                      (default: $HAPTIX_SERVER, else the "
	    "library's)\n"
	    "      --speed X       X times the recorded pace (default 1)\n"
	    "      --from T, --to T\n"
	    "                      play from, to simulated time T (seconds) "
	    "in\n"
	    "                      each segment (a reset in the recording "
	    "begins one)\n"
	    "      --segment N     play segment N only (from 1; hxplay info "
	    "lists them)\n"
	    "      --loop          start again at the end, until interrupted\n"
	    "      --keep-model    --verify on the server's model, if its hash "
	    "is\n"
	    "                      the recording's, instead of loading the "
	    "recorded one\n"
	    "      --spawn         --verify on a haptixd of its own (no model, "
	    "a\n"
	    "                      temporary socket), stopped after: no "
	    "server is\n"
	    "                      touched ($HAPTIXD, else the installed "
	    "one)\n"
	    "      --no-restore    leave the server as --verify ends: the "
	    "recorded\n"
	    "                      model, paused at the last step replayed\n"
	    "      --state-dir DIR a bare FILE is looked for here, and in the\n"
	    "                      daemon's: $STATE_DIRECTORY, "
	    "$XDG_STATE_HOME/haptixd,\n"
	    "                      ~/.local/state/haptixd, /var/lib/haptixd "
	    "(every form)\n"
	    "  -q, --quiet         print errors only\n"
	    "  -h, --help          this help\n"
	    "      --version       the version\n"
	    "\n"
	    "Exit status: 0 done (for --verify: the replay is "
	    "bit-identical), 1\n"
	    "a file, the server or the replay failed, 2 usage.\n");
}

/* A finite number, or -1. */
static int
parse_double(const char *s, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	return errno != 0 || end == s || *end != '\0' || !isfinite(*out) ? -1 :
									   0;
}

/* A whole number from 1 up, or -1. */
static int
parse_count(const char *s, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0' || v == 0)
		return -1;
	*out = v;
	return 0;
}

/*
 * Take one of play's pacing options (--speed, --from, --to, --loop,
 * --segment; ch is getopt_long's value) into o: 0, or -1 having said
 * what is wrong.
 */
static int
play_pace_option(struct play_opts *o, int ch, const char *arg)
{
	switch (ch) {
	case 'S':
		if (parse_double(arg, &o->speed) != 0 || o->speed <= 0 ||
		    o->speed > 1e6) {
			program_warn("--speed: '%s' is not a factor "
				     "above 0 (1 is the recorded pace)",
			    arg);
			return -1;
		}
		break;
	case 'F':
	case 'T':
		if (parse_double(arg, ch == 'F' ? &o->from : &o->to) != 0 ||
		    (ch == 'F' ? o->from : o->to) < 0) {
			program_warn("--%s: '%s' is not a time in seconds",
			    ch == 'F' ? "from" : "to", arg);
			return -1;
		}
		break;
	case 'l':
		o->loop = 1;
		break;
	case 'g':
		if (parse_count(arg, &o->segment) != 0) {
			program_warn("--segment: '%s' is not a segment's "
				     "number (1 is the first; hxplay info "
				     "lists them)",
			    arg);
			return -1;
		}
		break;
	}
	return 0;
}

/*
 * Whether the options of play or --verify (verify) go together, paced
 * when one of play's pacing options was given: 0, or -1 having said why.
 */
static int
play_check(const struct play_opts *o, int verify, int paced)
{
	if (o->to >= 0 && o->to < o->from) {
		program_warn("--to %g is before --from %g", o->to, o->from);
		return -1;
	}
	if (verify && paced) {
		program_warn("--verify replays every step in lock-step: "
			     "--speed, --from, --to, --segment and --loop are "
			     "for playing");
		return -1;
	}
	if (!verify && (o->keep_model || o->spawn || o->no_restore)) {
		program_warn("--%s goes with --verify",
		    o->keep_model ? "keep-model" :
			o->spawn  ? "spawn" :
				    "no-restore");
		return -1;
	}
	if (o->spawn && (o->server != NULL || o->keep_model || o->no_restore)) {
		program_warn(
		    "--spawn verifies on a haptixd of its own, stopped "
		    "after: -s, --keep-model and --no-restore are for a "
		    "server of yours");
		return -1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "server", required_argument, NULL, 's' },
		{ "speed", required_argument, NULL, 'S' },
		{ "from", required_argument, NULL, 'F' },
		{ "to", required_argument, NULL, 'T' },
		{ "loop", no_argument, NULL, 'l' },
		{ "segment", required_argument, NULL, 'g' },
		{ "verify", no_argument, NULL, 'V' },
		{ "keep-model", no_argument, NULL, 'k' },
		{ "spawn", no_argument, NULL, 'P' },
		{ "no-restore", no_argument, NULL, 'N' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'v' },
		{ "state-dir", required_argument, NULL, 'D' },
		{ NULL, 0, NULL, 0 },
	};
	struct play_opts o = { .speed = 1, .from = 0, .to = -1 };
	int ch, verify = 0, paced = 0;

	program_set_name("hxplay");
	if (argc > 1 && strcmp(argv[1], "info") == 0)
		return play_info(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "export") == 0)
		return play_export(argc - 1, argv + 1);
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":s:qh", longopts, NULL)) != -1) {
		switch (ch) {
		case 's':
			o.server = optarg;
			break;
		case 'S':
		case 'F':
		case 'T':
		case 'l':
		case 'g':
			if (play_pace_option(&o, ch, optarg) != 0)
				return PLAY_USAGE;
			paced = 1;
			break;
		case 'V':
			verify = 1;
			break;
		case 'k':
			o.keep_model = 1;
			break;
		case 'P':
			o.spawn = 1;
			break;
		case 'N':
			o.no_restore = 1;
			break;
		case 'q':
			o.quiet = 1;
			break;
		case 'h':
			usage(stdout);
			return PLAY_OK;
		case 'v':
			usage_version("hxplay");
			return PLAY_OK;
		case 'D':
			play_state_dir = optarg;
			break;
		default:
			return usage_bad_option("hxplay", ch, argv);
		}
	}
	if (optind != argc - 1) {
		program_warn(optind == argc ?
			"name a recording (.hxr or .mjl)" :
			"one recording at a time");
		usage(stderr);
		return PLAY_USAGE;
	}
	if ((o.file = play_find(argv[optind])) == NULL)
		return PLAY_FAIL;
	if (play_check(&o, verify, paced) != 0)
		return PLAY_USAGE;
	return verify ? play_verify(&o) : play_play(&o);
}
