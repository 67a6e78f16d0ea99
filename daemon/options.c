/* Settings of haptixd from the command line and the file: see options.h. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/un.h>
#include <unistd.h>

#include "address.h"
#include "conffile.h"
#include "frame.h"
#include "log.h"
#include "options.h"
#include "usage.h"

/* Where the settings being applied come from: later layers win. */
enum {
	OPTIONS_LAYER_DEFAULT,
	OPTIONS_LAYER_FILE,
	OPTIONS_LAYER_CMDLINE,
};

typedef int (*options_setter)(struct options *, const char *, char *, size_t);

/* One setting: its name on the command line and in the file. */
struct options_def {
	const char *name;
	int shortopt; /* 0: none */
	int flag;     /* takes no argument on the command line */
	int repeat;   /* may be given more than once */
	options_setter set;
};

static int options_long(const char *, double, double, long *, char *, size_t);

/* A setter for a setting that is a whole number in [lo, hi]. */
#define OPTIONS_LONG_SETTER(fn, member, lo, hi) \
	static int fn( \
	    struct options *o, const char *value, char *err, size_t len) \
	{ \
		return options_long(value, lo, hi, &o->member, err, len); \
	}

OPTIONS_LONG_SETTER(options_set_load_memory, load_memory, 64, 1 << 20)
OPTIONS_LONG_SETTER(options_set_history, history, 0, 3600)
OPTIONS_LONG_SETTER(options_set_history_memory, history_memory, 1, 1 << 20)
OPTIONS_LONG_SETTER(options_set_max_bodies, model_max_bodies, 1, 1e7)
OPTIONS_LONG_SETTER(options_set_max_keys, model_max_keys, 0, 1e6)
OPTIONS_LONG_SETTER(options_set_max_hfield, model_max_hfield, 4, 1e12)
OPTIONS_LONG_SETTER(options_set_max_texture, model_max_texture, 1, 1e12)
OPTIONS_LONG_SETTER(
    options_set_max_mesh_vertices, model_max_mesh_vertices, 0, 1e9)

static int options_set_model(struct options *, const char *, char *, size_t);
static int options_set_no_model(struct options *, const char *, char *, size_t);
static int options_set_legacy(struct options *, const char *, char *, size_t);
static int options_set_user_model_dirs(
    struct options *, const char *, char *, size_t);
static int options_set_model_dir(
    struct options *, const char *, char *, size_t);
static int options_set_unix(struct options *, const char *, char *, size_t);
static int options_set_tcp(struct options *, const char *, char *, size_t);
static int options_set_token(struct options *, const char *, char *, size_t);
static int options_set_tls_cert(struct options *, const char *, char *, size_t);
static int options_set_tls_key(struct options *, const char *, char *, size_t);
static int options_set_tls_client_ca(
    struct options *, const char *, char *, size_t);
static int options_set_allow_cleartext_token(
    struct options *, const char *, char *, size_t);
static int options_set_no_shm(struct options *, const char *, char *, size_t);
static int options_set_state_dir(
    struct options *, const char *, char *, size_t);
static int options_set_record_quota(
    struct options *, const char *, char *, size_t);
static int options_set_speed(struct options *, const char *, char *, size_t);
static int options_set_paused(struct options *, const char *, char *, size_t);
static int options_set_api_rate(struct options *, const char *, char *, size_t);
static const char *const options_lease_loss_names[] = {
	[LEASE_LOSS_PAUSE] = "pause",
	[LEASE_LOSS_KEEP] = "keep",
	[LEASE_LOSS_HOLD] = "hold",
	[LEASE_LOSS_ZERO] = "zero",
};

static int options_set_lease_loss(
    struct options *, const char *, char *, size_t);
static int options_set_perturb_timeout(
    struct options *, const char *, char *, size_t);
static int options_set_max_clients(
    struct options *, const char *, char *, size_t);
static int options_set_max_handshakes(
    struct options *, const char *, char *, size_t);
static int options_set_max_frame(
    struct options *, const char *, char *, size_t);
static int options_set_max_queued(
    struct options *, const char *, char *, size_t);
static int options_set_max_subscriptions(
    struct options *, const char *, char *, size_t);
static int options_set_load_timeout(
    struct options *, const char *, char *, size_t);
static int options_set_verbose(struct options *, const char *, char *, size_t);
static int options_set_quiet(struct options *, const char *, char *, size_t);

static const struct options_def options_defs[] = {
	{ "model", 'm', 0, 0, options_set_model },
	{ "no-model", 0, 1, 0, options_set_no_model },
	{ "legacy", 0, 1, 0, options_set_legacy },
	{ "model-dir", 'M', 0, 1, options_set_model_dir },
	{ "user-model-dirs", 0, 1, 0, options_set_user_model_dirs },
	{ "unix", 'u', 0, 0, options_set_unix },
	{ "tcp", 't', 0, 0, options_set_tcp },
	{ "token-file", 0, 0, 0, options_set_token },
	{ "tls-cert", 0, 0, 0, options_set_tls_cert },
	{ "tls-key", 0, 0, 0, options_set_tls_key },
	{ "tls-client-ca", 0, 0, 0, options_set_tls_client_ca },
	{ "allow-cleartext-token", 0, 1, 0, options_set_allow_cleartext_token },
	{ "no-shm", 0, 1, 0, options_set_no_shm },
	{ "state-dir", 0, 0, 0, options_set_state_dir },
	{ "record-quota", 0, 0, 0, options_set_record_quota },
	{ "history", 0, 0, 0, options_set_history },
	{ "history-memory", 0, 0, 0, options_set_history_memory },
	{ "speed", 's', 0, 0, options_set_speed },
	{ "paused", 'p', 1, 0, options_set_paused },
	{ "api-rate", 0, 0, 0, options_set_api_rate },
	{ "lease-loss", 0, 0, 0, options_set_lease_loss },
	{ "perturb-timeout", 0, 0, 0, options_set_perturb_timeout },
	{ "max-clients", 0, 0, 0, options_set_max_clients },
	{ "max-handshakes", 0, 0, 0, options_set_max_handshakes },
	{ "max-frame", 0, 0, 0, options_set_max_frame },
	{ "max-queued", 0, 0, 0, options_set_max_queued },
	{ "max-subscriptions", 0, 0, 0, options_set_max_subscriptions },
	{ "load-timeout", 0, 0, 0, options_set_load_timeout },
	{ "load-memory", 0, 0, 0, options_set_load_memory },
	{ "model-max-bodies", 0, 0, 0, options_set_max_bodies },
	{ "model-max-keys", 0, 0, 0, options_set_max_keys },
	{ "model-max-hfield", 0, 0, 0, options_set_max_hfield },
	{ "model-max-texture", 0, 0, 0, options_set_max_texture },
	{ "model-max-mesh-vertices", 0, 0, 0, options_set_max_mesh_vertices },
	{ "verbose", 'v', 1, 0, options_set_verbose },
	{ "quiet", 'q', 1, 0, options_set_quiet },
};
#define OPTIONS_NDEFS (sizeof(options_defs) / sizeof(options_defs[0]))

static void options_usage(FILE *);
static const char *options_default_model_dir(void);

/*
 * The model directory without -M: the installed one, or the source
 * tree's models/ for the haptixd of the build tree, not installed, so
 * that a build tree works as an install does (eval "$(./quickstart env)").
 */
static const char *
options_default_model_dir(void)
{
	char self[PATH_MAX], *built;
	ssize_t n;
	int ours;

	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return HXD_MODELDIR;
	self[n] = '\0';
	built = realpath(HXD_BUILD_EXE, NULL);
	ours = built != NULL && strcmp(built, self) == 0;
	free(built);
	return ours ? HXD_SRC_MODELDIR : HXD_MODELDIR;
}

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
	    "  -c, --config FILE      settings file, or \"none\"; the command line\n"
	    "                         wins (default: " HXD_CONFIG ",\n"
	    "                         if it exists)\n"
	    "      --check            check the settings file and the command line,\n"
	    "                         then exit (0: good, 2: the first error)\n"
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
	    "                         for more (default: %s)\n"
	    "      --user-model-dirs  clients on the Unix socket may add directories\n"
	    "                         of their own user (hxctl model-dirs add)\n"
	    "\n"
	    "Listeners (systemd's sockets, when it passes some, replace the defaults):\n"
	    "  -u, --unix PATH        Unix socket, mode 0660, or \"none\"\n"
	    "                         (default: %s)\n"
	    "  -t, --tcp [tls:][HOST:]PORT\n"
	    "                         TCP listener, TLS with tls:, or \"none\"\n"
	    "                         (default: 127.0.0.1:%d); a non-loopback HOST\n"
	    "                         needs --token-file, and tls: or\n"
	    "                         --allow-cleartext-token\n"
	    "      --token-file FILE  secret that TCP clients must present in Hello\n"
	    "      --tls-cert FILE    certificate chain of a tls: listener (PEM)\n"
	    "      --tls-key FILE     its private key (default: in --tls-cert's file)\n"
	    "      --tls-client-ca FILE\n"
	    "                         TLS clients must also show a certificate signed\n"
	    "                         by one of these CAs (PEM)\n"
	    "      --allow-cleartext-token\n"
	    "                         take the token over plain TCP from beyond\n"
	    "                         loopback (refused by default)\n"
	    "      --no-shm           never offer clients on the Unix socket shared\n"
	    "                         memory (offered by default)\n"
	    "      --state-dir DIR    where recordings go (default: $STATE_DIRECTORY,\n"
	    "                         else $XDG_STATE_HOME/haptixd)\n"
	    "      --record-quota BYTES\n"
	    "                         size one recording may reach, with K, M, G or\n"
	    "                         T, or 0 for none (default: 4G)\n"
	    "      --history SECONDS  keep the states of the last SECONDS of\n"
	    "                         simulated time, to look back at and resume\n"
	    "                         from; 0: none (default: 10)\n"
	    "      --history-memory MIB\n"
	    "                         the most memory the history takes; past it,\n"
	    "                         it keeps one step in several (default: 64)\n"
	    "\n"
	    "Simulation:\n"
	    "  -s, --speed X|max      speed factor, 1 = real time (default: 1)\n"
	    "  -p, --paused           start paused\n"
	    "      --api-rate HZ      rate of hx_update/mj_update while running\n"
	    "                         (default: the model's apirate option)\n"
	    "      --lease-loss WHAT  when the control lease's holder disconnects:\n"
	    "                         pause, keep (running), hold (servos keep the\n"
	    "                         pose) or zero (controls) (default: pause)\n"
	    "      --perturb-timeout MS\n"
	    "                         drop a driver's force on a body after MS\n"
	    "                         milliseconds without word from it (default: 200)\n"
	    "\n"
	    "Limits:\n"
	    "      --max-clients N    connected clients (default: 64)\n"
	    "      --max-handshakes N connections yet to say Hello, on TCP and on\n"
	    "                         Unix sockets each; one more closes the oldest\n"
	    "                         (default: 32)\n"
	    "      --max-frame BYTES  size of one frame (default: %u)\n"
	    "      --max-queued BYTES unsent bytes per client before it is dropped\n"
	    "                         (default: 67108864)\n"
	    "      --max-subscriptions N\n"
	    "                         subscriptions per client (default: 16)\n"
	    "\n"
	    "Loading (each model is compiled by a sandboxed loader process):\n"
	    "      --load-timeout S   CPU and wall time of one load (default: 60)\n"
	    "      --load-memory MIB  the loader's memory (default: 4096)\n"
	    "      --model-max-bodies N, --model-max-keys N (default: 10000, 1000)\n"
	    "      --model-max-hfield CELLS, --model-max-texture PIXELS\n"
	    "                         one height field's, one texture's size\n"
	    "                         (default: 16777216 each)\n"
	    "      --model-max-mesh-vertices N\n"
	    "                         all meshes' vertices (default: 4000000)\n"
	    "\n"
	    "  -v, --verbose          log more (repeat for more)\n"
	    "  -q, --quiet            log only warnings and errors\n"
	    "  -h, --help             show this help\n"
	    "  -V, --version          show the version\n"
	    "\n"
	    "In the settings file, each line is \"name = value\" with a long option's\n"
	    "name (\"paused = yes\", \"verbose = 2\"); see haptixd(8).  SIGHUP reads it\n"
	    "again, reloads the model and the TLS certificate.\n"
	    "\n"
	    "Clients: hxctl --server unix:PATH status, or the C library (haptix(3)).\n",
	    options_default_model_dir(), path, ADDRESS_DEFAULT_PORT,
	    FRAME_MAX_DEFAULT);
}

/* Replace an owned string. */
static void
options_string(char **field, const char *value)
{
	free(*field);
	*field = NULL;
	if (value != NULL && (*field = strdup(value)) == NULL)
		fatal("out of memory");
}

/* Parse yes/no and their usual spellings. */
static int
options_bool(const char *value, int *out, char *err, size_t len)
{
	static const char *const yes[] = { "yes", "true", "on", "1" };
	static const char *const no[] = { "no", "false", "off", "0" };
	size_t i;

	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (strcasecmp(value, yes[i]) == 0) {
			*out = 1;
			return 0;
		}
		if (strcasecmp(value, no[i]) == 0) {
			*out = 0;
			return 0;
		}
	}
	snprintf(err, len, "'%s' is not yes or no", value);
	return -1;
}

/* Parse a number in [lo, hi]. */
static int
options_number(
    const char *value, double lo, double hi, double *out, char *err, size_t len)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(value, &end);
	if (errno != 0 || end == value || *end != '\0' || !isfinite(v) ||
	    v < lo || v > hi) {
		snprintf(err, len, "'%s' is not a number from %.15g to %.15g",
		    value, lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

/* Parse a whole number in [lo, hi]. */
static int
options_long(
    const char *value, double lo, double hi, long *out, char *err, size_t len)
{
	double v;

	if (options_number(value, lo, hi, &v, err, len) != 0)
		return -1;
	if (v != (double)(long)v) {
		snprintf(err, len, "'%s' is not a whole number", value);
		return -1;
	}
	*out = (long)v;
	return 0;
}

/* The value, or NULL when it is "none". */
static const char *
options_or_none(const char *value)
{
	return strcmp(value, "none") == 0 ? NULL : value;
}

static int
options_set_model(struct options *o, const char *value, char *err, size_t len)
{
	options_string(&o->model, value);
	o->no_model = 0;
	return 0;
}

static int
options_set_no_model(
    struct options *o, const char *value, char *err, size_t len)
{
	if (options_bool(value, &o->no_model, err, len) != 0)
		return -1;
	if (o->no_model)
		options_string(&o->model, NULL);
	return 0;
}

static int
options_set_legacy(struct options *o, const char *value, char *err, size_t len)
{
	return options_bool(value, &o->legacy, err, len);
}

static int
options_set_user_model_dirs(
    struct options *o, const char *value, char *err, size_t len)
{
	return options_bool(value, &o->user_model_dirs, err, len);
}

/* The first directory a layer names replaces those of earlier layers. */
static int
options_set_model_dir(
    struct options *o, const char *value, char *err, size_t len)
{
	int i;

	if (o->model_dirs_layer != o->layer) {
		for (i = 0; i < o->nmodel_dirs; i++)
			options_string(&o->model_dirs[i], NULL);
		o->nmodel_dirs = 0;
		o->model_dirs_layer = o->layer;
	}
	if (o->nmodel_dirs == OPTIONS_MAX_MODEL_DIRS) {
		snprintf(err, len, "at most %d model directories",
		    OPTIONS_MAX_MODEL_DIRS);
		return -1;
	}
	options_string(&o->model_dirs[o->nmodel_dirs++], value);
	return 0;
}

static int
options_set_unix(struct options *o, const char *value, char *err, size_t len)
{
	struct sockaddr_un sun;

	if (*value == '\0' || strlen(value) >= sizeof(sun.sun_path)) {
		snprintf(err, len,
		    "'%s' is not a Unix socket path (1 to %zu "
		    "bytes)",
		    value, sizeof(sun.sun_path) - 1);
		return -1;
	}
	options_string(&o->unix_path, options_or_none(value));
	o->unix_set = 1;
	return 0;
}

static int
options_set_tcp(struct options *o, const char *value, char *err, size_t len)
{
	struct address a;

	if (options_or_none(value) != NULL &&
	    address_parse_listen(value, &a, err, len) != 0)
		return -1;
	options_string(&o->tcp, options_or_none(value));
	o->tcp_set = 1;
	return 0;
}

static int
options_set_token(struct options *o, const char *value, char *err, size_t len)
{
	options_string(&o->token_file, options_or_none(value));
	return 0;
}

static int
options_set_tls_cert(
    struct options *o, const char *value, char *err, size_t len)
{
	options_string(&o->tls_cert, options_or_none(value));
	return 0;
}

static int
options_set_tls_key(struct options *o, const char *value, char *err, size_t len)
{
	options_string(&o->tls_key, options_or_none(value));
	return 0;
}

static int
options_set_tls_client_ca(
    struct options *o, const char *value, char *err, size_t len)
{
	options_string(&o->tls_client_ca, options_or_none(value));
	return 0;
}

static int
options_set_allow_cleartext_token(
    struct options *o, const char *value, char *err, size_t len)
{
	return options_bool(value, &o->allow_cleartext_token, err, len);
}

static int
options_set_no_shm(struct options *o, const char *value, char *err, size_t len)
{
	return options_bool(value, &o->no_shm, err, len);
}

static int
options_set_state_dir(
    struct options *o, const char *value, char *err, size_t len)
{
	options_string(&o->state_dir, value);
	return 0;
}

/*
 * The recording quota: bytes, with a suffix K, M, G or T (binary), or 0
 * for none.  A file smaller than 64 KiB would hold little but a model.
 */
static int
options_set_record_quota(
    struct options *o, const char *value, char *err, size_t len)
{
	static const char suffixes[] = "KMGT";
	const char *s;
	char *end;
	double v;

	errno = 0;
	v = strtod(value, &end);
	if (*end != '\0' && end[1] == '\0' &&
	    (s = strchr(suffixes, toupper((unsigned char)*end))) != NULL) {
		v = ldexp(v, 10 * (int)(s - suffixes + 1));
		end++;
	}
	if (errno != 0 || end == value || *end != '\0' || !isfinite(v) ||
	    (v != 0 && v < 65536) || v > 0x1p62) {
		snprintf(err, len,
		    "'%s' is not a size from 64K to 4194304T (bytes, or with "
		    "K, M, G or T), or 0 for none",
		    value);
		return -1;
	}
	o->record_quota = (uint64_t)v;
	return 0;
}

static int
options_set_speed(struct options *o, const char *value, char *err, size_t len)
{
	if (strcmp(value, "max") == 0) {
		o->speed_max = 1;
		return 0;
	}
	if (options_number(value, 1e-6, 1e6, &o->speed, err, len) != 0)
		return -1;
	o->speed_max = 0;
	return 0;
}

static int
options_set_paused(struct options *o, const char *value, char *err, size_t len)
{
	return options_bool(value, &o->paused, err, len);
}

static int
options_set_api_rate(
    struct options *o, const char *value, char *err, size_t len)
{
	return options_number(value, 0, 1e6, &o->api_rate, err, len);
}

static int
options_set_perturb_timeout(
    struct options *o, const char *value, char *err, size_t len)
{
	double ms;

	if (options_number(value, 10, 60000, &ms, err, len) < 0)
		return -1;
	o->perturb_timeout = ms / 1000;
	return 0;
}

/* Parse "pause", "keep", "hold" or "zero"; -1 if none of them. */
static int
options_lease_loss_parse(const char *s)
{
	size_t i;

	for (i = 0; i < sizeof(options_lease_loss_names) /
		 sizeof(options_lease_loss_names[0]);
	     i++) {
		if (strcmp(s, options_lease_loss_names[i]) == 0)
			return (int)i;
	}
	return -1;
}

const char *
options_lease_loss_name(int loss)
{
	return options_lease_loss_names[loss];
}

static int
options_set_lease_loss(
    struct options *o, const char *value, char *err, size_t len)
{
	int loss = options_lease_loss_parse(value);

	if (loss < 0) {
		snprintf(
		    err, len, "'%s' is not pause, keep, hold or zero", value);
		return -1;
	}
	o->lease_loss = loss;
	return 0;
}

static int
options_set_max_clients(
    struct options *o, const char *value, char *err, size_t len)
{
	double v;

	if (options_number(value, 1, 100000, &v, err, len) != 0)
		return -1;
	o->max_clients = (int)v;
	return 0;
}

static int
options_set_max_handshakes(
    struct options *o, const char *value, char *err, size_t len)
{
	double v;

	if (options_number(value, 1, 100000, &v, err, len) != 0)
		return -1;
	o->max_handshakes = (int)v;
	return 0;
}

static int
options_set_max_frame(
    struct options *o, const char *value, char *err, size_t len)
{
	double v;

	if (options_number(value, 1024, (double)UINT32_MAX, &v, err, len) != 0)
		return -1;
	o->max_frame = (size_t)v;
	return 0;
}

static int
options_set_max_queued(
    struct options *o, const char *value, char *err, size_t len)
{
	double v;

	if (options_number(value, 65536, (double)SIZE_MAX / 2, &v, err, len) !=
	    0)
		return -1;
	o->max_queued = (size_t)v;
	return 0;
}

static int
options_set_load_timeout(
    struct options *o, const char *value, char *err, size_t len)
{
	return options_number(value, 0.1, 86400, &o->load_timeout, err, len);
}

static int
options_set_max_subscriptions(
    struct options *o, const char *value, char *err, size_t len)
{
	double v;

	if (options_number(value, 1, 1024, &v, err, len) != 0)
		return -1;
	o->max_subscriptions = (int)v;
	return 0;
}

/* The file says how verbose; the command line counts its -v. */
static int
options_set_verbose(struct options *o, const char *value, char *err, size_t len)
{
	double v;

	if (options_number(value, 0, 3, &v, err, len) != 0)
		return -1;
	o->verbosity = (int)v;
	return 0;
}

static int
options_set_quiet(struct options *o, const char *value, char *err, size_t len)
{
	int quiet;

	if (options_bool(value, &quiet, err, len) != 0)
		return -1;
	if (quiet)
		o->verbosity = -1;
	else if (o->verbosity < 0)
		o->verbosity = 0;
	return 0;
}

/* The index of a setting by name, or -1. */
static int
options_find(const char *key)
{
	size_t i;

	for (i = 0; i < OPTIONS_NDEFS; i++) {
		if (strcmp(options_defs[i].name, key) == 0)
			return (int)i;
	}
	return -1;
}

enum options_set_result
options_set(struct options *o, const char *key, const char *value, char *err,
    size_t len)
{
	int i = options_find(key);

	if (i < 0)
		return OPTIONS_SET_UNKNOWN;
	if (options_defs[i].set(o, value, err, len) != 0)
		return OPTIONS_SET_BADVALUE;
	return OPTIONS_SET_OK;
}

int
options_repeatable(const char *key)
{
	int i = options_find(key);

	return i >= 0 && options_defs[i].repeat;
}

/* The defaults, before any file or argument. */
static void
options_defaults(struct options *o)
{
	char path[108], tcp[32];

	memset(o, 0, sizeof(*o));
	address_default_listen_unix(path, sizeof(path));
	snprintf(tcp, sizeof(tcp), "127.0.0.1:%d", ADDRESS_DEFAULT_PORT);
	options_string(&o->unix_path, path);
	options_string(&o->tcp, tcp);
	o->speed = 1;
	o->api_rate = -1;
	o->perturb_timeout = 0.2;
	o->max_clients = 64;
	o->max_handshakes = 32;
	o->max_frame = FRAME_MAX_DEFAULT;
	o->max_queued = 64u * 1024 * 1024;
	o->max_subscriptions = 16;
	o->load_timeout = 60;
	o->load_memory = 4096;
	o->model_max_bodies = 10000;
	o->model_max_keys = 1000;
	o->model_max_hfield = 4096 * 4096;
	o->model_max_texture = 4096 * 4096;
	o->model_max_mesh_vertices = 4000000;
	o->lease_loss = LEASE_LOSS_PAUSE;
	o->record_quota = OPTIONS_RECORD_QUOTA_DEFAULT;
	o->history = 10;
	o->history_memory = 64;
}

/* Apply the command line's settings, already checked by the parser. */
static int
options_apply_cmdline(
    struct options *o, const struct options_cmdline *cl, char *err, size_t len)
{
	const struct options_def *def;
	char why[512];
	int i;

	o->layer = OPTIONS_LAYER_CMDLINE;
	for (i = 0; i < cl->nargs; i++) {
		def = &options_defs[cl->args[i].def];
		if (def->set(o, cl->args[i].value, why, sizeof(why)) != 0) {
			snprintf(err, len, "--%s: %s", def->name, why);
			return -1;
		}
	}
	return 0;
}

int
options_parse_cmdline(struct options_cmdline *cl, int argc, char **argv)
{
	struct option longopts[OPTIONS_NDEFS + 5];
	char shortopts[3 * OPTIONS_NDEFS + 8], err[600];
	struct options check;
	static char vcount[12];
	size_t i, n = 0, s = 0;
	int ch, idx, verbose = 0, model = 0, no_model = 0;

	memset(cl, 0, sizeof(*cl));
	/* Our words for a bad option: ':' first, for one lacking its value. */
	shortopts[s++] = ':';
	memset(longopts, 0, sizeof(longopts));
	for (i = 0; i < OPTIONS_NDEFS; i++) {
		longopts[n].name = options_defs[i].name;
		longopts[n].has_arg = options_defs[i].flag ? no_argument :
							     required_argument;
		longopts[n++].val = 256 + (int)i;
		if (options_defs[i].shortopt != 0) {
			shortopts[s++] = (char)options_defs[i].shortopt;
			if (!options_defs[i].flag)
				shortopts[s++] = ':';
		}
	}
	longopts[n++] = (struct option){ "config", required_argument, NULL,
		'c' };
	longopts[n++] = (struct option){ "check", no_argument, NULL, 'C' };
	longopts[n++] = (struct option){ "help", no_argument, NULL, 'h' };
	longopts[n++] = (struct option){ "version", no_argument, NULL, 'V' };
	memcpy(shortopts + s, "c:hV", 5);

	optind = 1;
	opterr = 0;
	while (
	    (ch = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		switch (ch) {
		case 'c':
			cl->config = optarg;
			continue;
		case 'C':
			cl->check = 1;
			continue;
		case 'h':
			options_usage(stdout);
			return 1;
		case 'V':
			usage_version("haptixd");
			return 1;
		case ':':
		case '?':
			usage_bad_option("haptixd", ch, argv);
			return -1;
		}
		idx = ch >= 256 ? ch - 256 : -1;
		for (i = 0; idx < 0 && i < OPTIONS_NDEFS; i++) {
			if (options_defs[i].shortopt == ch)
				idx = (int)i;
		}
		if (cl->nargs == OPTIONS_MAX_ARGS) {
			fprintf(stderr, "haptixd: too many arguments\n");
			return -1;
		}
		cl->args[cl->nargs].def = idx;
		cl->args[cl->nargs].value = options_defs[idx].flag ? "yes" :
								     optarg;
		/* Each -v counts: the last entry carries the total. */
		if (strcmp(options_defs[idx].name, "verbose") == 0) {
			snprintf(vcount, sizeof(vcount), "%d",
			    ++verbose > 3 ? 3 : verbose);
			cl->args[cl->nargs].value = vcount;
		}
		model |= strcmp(options_defs[idx].name, "model") == 0;
		no_model |= strcmp(options_defs[idx].name, "no-model") == 0;
		cl->nargs++;
	}
	if (optind < argc) {
		fprintf(stderr,
		    "haptixd: unexpected argument '%s'\n"
		    "Try 'haptixd --help'.\n",
		    argv[optind]);
		return -1;
	}
	if (model && no_model) {
		fprintf(stderr, "haptixd: --model and --no-model conflict\n");
		return -1;
	}
	/* Check the values now, before any file is read. */
	options_defaults(&check);
	if (options_apply_cmdline(&check, cl, err, sizeof(err)) != 0) {
		fprintf(stderr, "haptixd: %s\n", err);
		options_free(&check);
		return -1;
	}
	options_free(&check);
	return 0;
}

/* The settings file's reader sets through the table, as the command line. */
static int
options_set_from_file(
    void *arg, const char *name, const char *value, char *why, size_t len)
{
	switch (options_set(arg, name, value, why, len)) {
	case OPTIONS_SET_OK:
		return 0;
	case OPTIONS_SET_UNKNOWN:
		return CONFFILE_UNKNOWN;
	default:
		return CONFFILE_BADVALUE;
	}
}

int
options_build(
    struct options *o, const struct options_cmdline *cl, char *err, size_t len)
{
	const char *path = cl->config != NULL ? cl->config : HXD_CONFIG;
	const struct conffile_target target = { options_set_from_file,
		options_repeatable, o };
	int rc;

	options_defaults(o);
	if (strcmp(path, "none") != 0) {
		o->layer = OPTIONS_LAYER_FILE;
		rc = conffile_read(path, cl->config != NULL, &target, err, len);
		if (rc < 0) {
			options_free(o);
			return -1;
		}
		if (rc > 0)
			options_string(&o->config, path);
	}
	if (options_apply_cmdline(o, cl, err, len) != 0) {
		options_free(o);
		return -1;
	}
	if (o->nmodel_dirs == 0)
		options_string(&o->model_dirs[o->nmodel_dirs++],
		    options_default_model_dir());
	if (o->max_queued < o->max_frame) {
		snprintf(err, len,
		    "max-queued (%zu bytes) is below max-frame (%zu bytes): "
		    "an answer of the largest frame could never be queued; "
		    "raise max-queued or lower max-frame",
		    o->max_queued, o->max_frame);
		options_free(o);
		return -1;
	}
	return 0;
}

void
options_free(struct options *o)
{
	int i;

	options_string(&o->config, NULL);
	options_string(&o->model, NULL);
	for (i = 0; i < o->nmodel_dirs; i++)
		options_string(&o->model_dirs[i], NULL);
	o->nmodel_dirs = 0;
	options_string(&o->unix_path, NULL);
	options_string(&o->tcp, NULL);
	options_string(&o->token_file, NULL);
	options_string(&o->tls_cert, NULL);
	options_string(&o->tls_key, NULL);
	options_string(&o->tls_client_ca, NULL);
	options_string(&o->state_dir, NULL);
}
