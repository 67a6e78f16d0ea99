/*
 * hx-foxglove: the live simulation for Foxglove and Lichtblick, over the
 * Foxglove WebSocket protocol.  A client of the daemon (foxglove_live.c)
 * and a WebSocket server (foxglove_ws.c) in one loop, libwebsockets'
 * own.  docs/foxglove.md is its user's guide, hx-foxglove(1) its page.
 *
 * It only watches: clients subscribe, nothing they send reaches the
 * simulation.  Loopback by default; beyond it only wss:// (--tls-cert)
 * and only for clients that bring the daemon's token in the URL, as
 * the simulation's state is the lab's own.
 */
#include "config.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "address.h"
#include "foxglove_live.h"
#include "foxglove_ws.h"
#include "program.h"
#include "token.h"
#include "usage.h"

#define FOX_DEFAULT_LISTEN "127.0.0.1:8765"
#define FOX_DEFAULT_FPS 30.0
#define FOX_MAX_FPS 240.0
#define FOX_DEFAULT_CLIENTS 16
#define FOX_MAX_CLIENTS 1024
/* The loop's turn: how soon a frame goes out after it came. */
#define FOX_TICK_US 2000

enum { OPT_LISTEN = 256, OPT_FPS, OPT_MAX_CONN, OPT_CERT, OPT_KEY };

struct fox_options {
	const char *server, *listen, *cert, *key;
	double fps;
	int max_clients;
};

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: hx-foxglove [-s ADDR] [--listen [tls:]ADDR:PORT] "
	    "[--fps N]\n"
	    "                   [--max-connections N] [--tls-cert FILE "
	    "[--tls-key FILE]]\n"
	    "\n"
	    "Stream a haptixd simulation live to Foxglove or Lichtblick "
	    "over the Foxglove\n"
	    "WebSocket protocol: every body's pose (/tf), the geoms "
	    "(/scene), joints,\n"
	    "controls, sensors, contacts and the simulation's events, as "
	    "hxplay export\n"
	    "--mcap writes them.  Open ws://ADDR:PORT in Foxglove "
	    "(\"Foxglove WebSocket\").\n"
	    "\n"
	    "Options:\n"
	    "  -s, --server ADDR    the daemon: unix:PATH, HOST[:PORT] or "
	    "tls:HOST[:PORT]\n"
	    "                       (default: $HAPTIX_SERVER, else the "
	    "default Unix socket)\n"
	    "  --listen [tls:]ADDR:PORT\n"
	    "                       where to listen (default " FOX_DEFAULT_LISTEN
	    "; port 0:\n"
	    "                       any free one); beyond loopback only "
	    "tls: (wss://), and\n"
	    "                       clients must bring the daemon's token "
	    "($HAPTIX_TOKEN_FILE)\n"
	    "                       in the URL: wss://HOST:PORT/?token=...\n"
	    "  --fps N              states a second of wall time, 1-240 "
	    "(default 30)\n"
	    "  --max-connections N  clients at once (default 16); one more "
	    "is refused\n"
	    "  --tls-cert FILE      for tls:, the certificate chain (PEM)\n"
	    "  --tls-key FILE       its private key (PEM; default: in the "
	    "--tls-cert file)\n"
	    "  -h, --help           this help\n"
	    "  -V, --version        the version\n"
	    "\n"
	    "Exit status: 0 stopped by a signal, 1 the daemon or the "
	    "address failed,\n"
	    "2 usage errors.  See hx-foxglove(1).\n");
}

/* The command line into o: 0, a usage error's status, or -1 (done). */
static int
fox_args(int argc, char **argv, struct fox_options *o)
{
	static const struct option longopts[] = {
		{ "server", required_argument, NULL, 's' },
		{ "listen", required_argument, NULL, OPT_LISTEN },
		{ "fps", required_argument, NULL, OPT_FPS },
		{ "max-connections", required_argument, NULL, OPT_MAX_CONN },
		{ "tls-cert", required_argument, NULL, OPT_CERT },
		{ "tls-key", required_argument, NULL, OPT_KEY },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	double v;
	int ch;

	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":s:hV", longopts, NULL)) != -1) {
		switch (ch) {
		case 's':
			o->server = optarg;
			break;
		case OPT_LISTEN:
			o->listen = optarg;
			break;
		case OPT_FPS:
			if (usage_number(
				"--fps", optarg, 1, FOX_MAX_FPS, &o->fps) != 0)
				return USAGE_EXIT;
			break;
		case OPT_MAX_CONN:
			if (usage_number("--max-connections", optarg, 1,
				FOX_MAX_CLIENTS, &v) != 0)
				return USAGE_EXIT;
			if (v != (int)v)
				return usage_error("--max-connections: '%s' is "
						   "not a whole number",
				    optarg);
			o->max_clients = (int)v;
			break;
		case OPT_CERT:
			o->cert = optarg;
			break;
		case OPT_KEY:
			o->key = optarg;
			break;
		case 'h':
			usage(stdout);
			return -1;
		case 'V':
			usage_version("hx-foxglove");
			return -1;
		default:
			return usage_bad_option("hx-foxglove", ch, argv);
		}
	}
	if (optind < argc)
		return usage_error("'%s': hx-foxglove takes no arguments, only "
				   "options",
		    argv[optind]);
	return 0;
}

/*
 * --listen and the TLS options into ws, with the rules beyond loopback:
 * 0, or a usage error's status.  token holds the daemon's when needed.
 */
static int
fox_listen(const struct fox_options *o, struct address *a,
    struct fws_options *ws, char *token, size_t len)
{
	const char *path = getenv("HAPTIX_TOKEN_FILE");
	ssize_t n;

	if (address_parse_endpoint(o->listen, a) != 0)
		return usage_error(
		    "--listen '%s' is not [tls:]ADDRESS:PORT", o->listen);
	if (a->tls && o->cert == NULL)
		return usage_error("--listen %s serves wss://: it needs "
				   "--tls-cert FILE (and --tls-key FILE "
				   "unless the key is in that file)",
		    o->listen);
	if (!a->tls && (o->cert != NULL || o->key != NULL))
		return usage_error("--tls-cert and --tls-key are for wss://: "
				   "--listen tls:ADDRESS:PORT, not '%s'",
		    o->listen);
	token[0] = '\0';
	if (!address_host_is_loopback(a->host)) {
		if (!a->tls)
			return usage_error(
			    "%s is not a loopback address: beyond loopback "
			    "hx-foxglove serves only wss:// (--listen "
			    "tls:%s:%s --tls-cert FILE), to clients that "
			    "bring the daemon's token",
			    a->host, a->host, a->port);
		n = path != NULL && path[0] != '\0' ?
		    token_read(path, token, len - 1) :
		    -1;
		if (n <= 0)
			return usage_error(
			    "%s is not a loopback address: clients must bring "
			    "the daemon's token, and $HAPTIX_TOKEN_FILE names "
			    "%s",
			    a->host,
			    path == NULL || path[0] == '\0' ? "no file" :
				n == 0                      ? "an empty file" :
					 "a file that cannot be read");
		token[n] = '\0';
	}
	ws->host = a->host;
	ws->port = atoi(a->port);
	ws->cert = o->cert;
	ws->key = o->key;
	ws->token = token;
	ws->max_clients = o->max_clients;
	ws->name = "hx-foxglove (haptixd " PACKAGE_VERSION ")";
	return 0;
}

int
main(int argc, char **argv)
{
	struct fox_options o = { .listen = FOX_DEFAULT_LISTEN,
		.fps = FOX_DEFAULT_FPS,
		.max_clients = FOX_DEFAULT_CLIENTS };
	struct fws_options wo;
	struct address a;
	struct fws *ws;
	struct live *live;
	char err[1024], token[4096];
	int rc;

	program_set_name("hx-foxglove");
	if ((rc = fox_args(argc, argv, &o)) != 0)
		return rc < 0 ? 0 : rc;
	memset(&wo, 0, sizeof(wo));
	if ((rc = fox_listen(&o, &a, &wo, token, sizeof(token))) != 0)
		return rc;
	if ((ws = fws_new(&wo, err, sizeof(err))) == NULL) {
		program_warn("%s", err);
		return 1;
	}
	if ((live = live_new(o.server, o.fps, ws, err, sizeof(err))) == NULL) {
		program_warn("%s", err);
		fws_free(ws);
		return 1;
	}
	printf("hx-foxglove: serving %s://%s%s%s:%d/ (the simulation at %s)\n",
	    a.tls ? "wss" : "ws", strchr(a.host, ':') != NULL ? "[" : "",
	    a.host, strchr(a.host, ':') != NULL ? "]" : "", fws_port(ws),
	    live_server(live));
	fflush(stdout);
	fws_run(ws, live_tick, live, FOX_TICK_US);
	live_free(live);
	fws_free(ws);
	return 0;
}
