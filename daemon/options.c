/* Command-line settings of haptixd: see options.h. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "address.h"
#include "frame.h"
#include "lease.h"
#include "options.h"

static char options_unix_default[108];
static char options_tcp_default[32];

static void options_usage(FILE *);
static int options_number(const char *, const char *, double, double, double *);

/* Print the help text. */
static void
options_usage(FILE *f)
{
	char path[108];

	address_default_listen_unix(path, sizeof(path));
	fprintf(f,
	    "usage: haptixd [options]\n"
	    "\n"
	    "Run a MuJoCo simulation and serve it over the HAPTIX protocol.\n"
	    "\n"
	    "Model:\n"
	    "  -m, --model FILE       MJCF, URDF or MJB model to load; a bare name is\n"
	    "                         looked up in the model directories\n"
	    "                         (default: " OPTIONS_DEFAULT_MODEL ")\n"
	    "      --no-model         start with no model; clients load one\n"
	    "      --legacy           translate MuJoCo HAPTIX 1.x models when loading\n"
	    "                         (asset names differing in case, ranges without\n"
	    "                         limited); each change is logged\n"
	    "  -M, --model-dir DIR    directory clients may load models from; repeat\n"
	    "                         for more (default: " HXD_MODELDIR ")\n"
	    "\n"
	    "Listeners:\n"
	    "  -u, --unix PATH        Unix socket, mode 0660, or \"none\"\n"
	    "                         (default: %s)\n"
	    "  -t, --tcp [HOST:]PORT  TCP listener, or \"none\" (default: 127.0.0.1:%d);\n"
	    "                         a non-loopback HOST needs --token-file\n"
	    "      --token-file FILE  secret that TCP clients must present in Hello\n"
	    "\n"
	    "Simulation:\n"
	    "  -s, --speed X|max      speed factor, 1 = real time (default: 1)\n"
	    "  -p, --paused           start paused\n"
	    "      --api-rate HZ      rate of hx_update/mj_update while running\n"
	    "                         (default: the model's apirate option)\n"
	    "      --lease-loss WHAT  when the control lease's holder disconnects:\n"
	    "                         pause, keep (running), hold (servos keep the\n"
	    "                         pose) or zero (controls) (default: pause)\n"
	    "\n"
	    "Limits:\n"
	    "      --max-clients N    connected clients (default: 64)\n"
	    "      --max-frame BYTES  size of one frame (default: %u)\n"
	    "      --max-queued BYTES unsent bytes per client before it is dropped\n"
	    "                         (default: 67108864)\n"
	    "\n"
	    "  -v, --verbose          log more (repeat for more)\n"
	    "  -q, --quiet            log only warnings and errors\n"
	    "  -h, --help             show this help\n"
	    "  -V, --version          show the version\n"
	    "\n"
	    "Clients: hxctl --server unix:PATH status, or the C library (haptix(3)).\n",
	    path, ADDRESS_DEFAULT_PORT, FRAME_MAX_DEFAULT);
}

/* The argument, or NULL when it is "none". */
static const char *
options_or_none(const char *arg)
{
	return strcmp(arg, "none") == 0 ? NULL : arg;
}

/* Parse a number in [lo, hi] for option name. */
static int
options_number(
    const char *name, const char *arg, double lo, double hi, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno != 0 || end == arg || *end != '\0' || !isfinite(v) ||
	    v < lo || v > hi) {
		fprintf(stderr,
		    "haptixd: --%s: '%s' is not a number from %g "
		    "to %g\n",
		    name, arg, lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

int
options_parse(struct options *o, int argc, char **argv)
{
	enum {
		OPT_NO_MODEL = 256,
		OPT_LEGACY,
		OPT_TOKEN,
		OPT_API_RATE,
		OPT_MAX_CLIENTS,
		OPT_MAX_FRAME,
		OPT_MAX_QUEUED,
		OPT_LEASE_LOSS
	};
	static const struct option longopts[] = {
		{ "model", required_argument, NULL, 'm' },
		{ "no-model", no_argument, NULL, OPT_NO_MODEL },
		{ "legacy", no_argument, NULL, OPT_LEGACY },
		{ "model-dir", required_argument, NULL, 'M' },
		{ "unix", required_argument, NULL, 'u' },
		{ "tcp", required_argument, NULL, 't' },
		{ "token-file", required_argument, NULL, OPT_TOKEN },
		{ "speed", required_argument, NULL, 's' },
		{ "paused", no_argument, NULL, 'p' },
		{ "api-rate", required_argument, NULL, OPT_API_RATE },
		{ "max-clients", required_argument, NULL, OPT_MAX_CLIENTS },
		{ "max-frame", required_argument, NULL, OPT_MAX_FRAME },
		{ "max-queued", required_argument, NULL, OPT_MAX_QUEUED },
		{ "lease-loss", required_argument, NULL, OPT_LEASE_LOSS },
		{ "verbose", no_argument, NULL, 'v' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	double v;
	int ch;

	memset(o, 0, sizeof(*o));
	address_default_listen_unix(
	    options_unix_default, sizeof(options_unix_default));
	snprintf(options_tcp_default, sizeof(options_tcp_default),
	    "127.0.0.1:%d", ADDRESS_DEFAULT_PORT);
	o->unix_path = options_unix_default;
	o->tcp = options_tcp_default;
	o->speed = 1;
	o->api_rate = -1;
	o->max_clients = 64;
	o->max_frame = FRAME_MAX_DEFAULT;
	o->max_queued = 64u * 1024 * 1024;
	o->lease_loss = LEASE_LOSS_PAUSE;

	optind = 1;
	while ((ch = getopt_long(
		    argc, argv, "m:M:u:t:s:pvqhV", longopts, NULL)) != -1) {
		switch (ch) {
		case 'm':
			o->model = optarg;
			break;
		case OPT_NO_MODEL:
			o->no_model = 1;
			break;
		case OPT_LEGACY:
			o->legacy = 1;
			break;
		case 'M':
			if (o->nmodel_dirs == OPTIONS_MAX_MODEL_DIRS) {
				fprintf(stderr,
				    "haptixd: at most %d model "
				    "directories\n",
				    OPTIONS_MAX_MODEL_DIRS);
				return -1;
			}
			o->model_dirs[o->nmodel_dirs++] = optarg;
			break;
		case 'u':
			o->unix_path = options_or_none(optarg);
			break;
		case 't':
			o->tcp = options_or_none(optarg);
			break;
		case OPT_TOKEN:
			o->token_file = optarg;
			break;
		case 's':
			if (strcmp(optarg, "max") == 0) {
				o->speed_max = 1;
				break;
			}
			if (options_number(
				"speed", optarg, 1e-6, 1e6, &o->speed) != 0)
				return -1;
			o->speed_max = 0;
			break;
		case 'p':
			o->paused = 1;
			break;
		case OPT_API_RATE:
			if (options_number(
				"api-rate", optarg, 0, 1e6, &o->api_rate) != 0)
				return -1;
			break;
		case OPT_MAX_CLIENTS:
			if (options_number(
				"max-clients", optarg, 1, 100000, &v) != 0)
				return -1;
			o->max_clients = (int)v;
			break;
		case OPT_MAX_FRAME:
			if (options_number("max-frame", optarg, 1024,
				(double)UINT32_MAX, &v) != 0)
				return -1;
			o->max_frame = (size_t)v;
			break;
		case OPT_MAX_QUEUED:
			if (options_number("max-queued", optarg, 65536,
				(double)SIZE_MAX / 2, &v) != 0)
				return -1;
			o->max_queued = (size_t)v;
			break;
		case OPT_LEASE_LOSS:
			if ((o->lease_loss = lease_loss_parse(optarg)) < 0) {
				fprintf(stderr,
				    "haptixd: --lease-loss: '%s' is not "
				    "pause, keep, hold or zero\n",
				    optarg);
				return -1;
			}
			break;
		case 'v':
			o->verbosity++;
			break;
		case 'q':
			o->verbosity = -1;
			break;
		case 'h':
			options_usage(stdout);
			return 1;
		case 'V':
			printf("haptixd %s\n", PACKAGE_VERSION);
			return 1;
		default:
			fprintf(stderr, "Try 'haptixd --help'.\n");
			return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr,
		    "haptixd: unexpected argument '%s'\n"
		    "Try 'haptixd --help'.\n",
		    argv[optind]);
		return -1;
	}
	if (o->no_model && o->model != NULL) {
		fprintf(stderr, "haptixd: --model and --no-model conflict\n");
		return -1;
	}
	if (o->unix_path == NULL && o->tcp == NULL) {
		fprintf(stderr,
		    "haptixd: no listeners: --unix and --tcp are "
		    "both none\n");
		return -1;
	}
	if (o->nmodel_dirs == 0)
		o->model_dirs[o->nmodel_dirs++] = HXD_MODELDIR;
	return 0;
}
