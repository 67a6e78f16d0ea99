/*
 * hx-mocap: motion capture into the mocap bodies of a haptixd
 * simulation, as MuJoCo HAPTIX's hand tracking did it.  Poses come from
 * OptiTrack Motive (NatNet), from the simple UDP format any system can
 * be bridged into, or from a CSV file replayed at its pace; each is
 * mapped to the model's axes and units and sent with the time it was
 * sampled.  The server keeps the offset between the physical and the
 * virtual body (connect and disconnect, the mouse put down and lifted).
 * See hx-mocap(1) and docs/drivers.md.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "driver.h"
#include "mocap.h"
#include "natnet.h"
#include "program.h"
#include "usage.h"

#define MCP_MAX_MAPS 16
#define MCP_MAX_SAMPLES 256

enum mcp_source {
	MCP_NONE,
	MCP_NATNET,
	MCP_UDP,
	MCP_CSV,
};

/* Which source body drives which mocap body. */
struct mcp_map {
	char src[MOCAP_NAME_MAX]; /* the source's name, or "" */
	int src_id;               /* or its number; -1 */
	char mocap[64];           /* the mocap body's name; "" the first */
	int bound;                /* the default map has found its body */
	hxd_tracking tracking;    /* the server's answer to the last pose */
	int have_tracking;
	unsigned long long sent;
	int refused; /* the server refuses its poses (said once) */
};

struct mcp {
	const char *server;
	enum mcp_source source;
	const char *natnet_server; /* HOST[:PORT] */
	const char *interface;     /* multicast: the local address */
	const char *group;         /* multicast group, overriding Motive's */
	int unicast;               /* ask for unicast */
	int multicast;             /* ask for multicast */
	int data_port;             /* 0: Motive's, else 1511 */
	struct natnet_version version; /* when Motive does not say */
	const char *udp_listen;        /* [ADDR:]PORT */
	const char *csv_path;
	int loop;
	double speed;
	struct mcp_map maps[MCP_MAX_MAPS];
	int nmaps;
	const char *axes_spec;
	const char *scale_spec;
	struct mocap_axes axes;
	int connect; /* connect at start */
	int verbose;

	hxd_conn *c;
	int fd;     /* UDP (--udp), or NatNet's data socket */
	int cmd_fd; /* NatNet's command socket (unicast frames too) */
	struct sockaddr_storage natnet_addr;
	socklen_t natnet_addrlen;
	struct natnet_server info;
	int have_info;
	struct natnet_models models;
	double modeldef_asked, keepalive_sent, connect_sent;
	double last_frame;
	struct mocap_csv *csv;
	struct mocap_sample csv_next;
	int csv_have_next;
	double csv_t0, csv_start;   /* the first row's time, when it was due */
	unsigned long long dropped; /* packets or poses refused */
	int64_t newest_us;
	double last_report;
};

/* The long options without a letter (getopt_long's values past 255). */
enum mcp_opt {
	O_NATNET = 256,
	O_UNICAST,
	O_MULTICAST,
	O_INTERFACE,
	O_DATA_PORT,
	O_NATNET_VERSION,
	O_UDP,
	O_CSV,
	O_LOOP,
	O_SPEED,
	O_MAP,
	O_AXES,
	O_SCALE,
	O_CONNECT,
};

static void mcp_usage(FILE *);
static int mcp_natnet_option(struct mcp *, int, const char *);
static int mcp_check(struct mcp *, int, int, char **);
static int mcp_add_map(struct mcp *, const char *);
static int mcp_options(struct mcp *, int, char **);
static int mcp_resolve(const char *, const char *, int, int,
    struct sockaddr_storage *, socklen_t *);
static int mcp_udp_open(struct mcp *);
static int mcp_natnet_open(struct mcp *);
static int mcp_natnet_send(struct mcp *, int);
static int mcp_natnet_join(struct mcp *);
static int mcp_natnet_read(struct mcp *, int);
static int mcp_natnet_server(struct mcp *, const unsigned char *, size_t);
static void mcp_natnet_models(
    struct mcp *, const unsigned char *, size_t, struct natnet_version);
static int mcp_natnet_frame(struct mcp *, const unsigned char *, size_t,
    struct natnet_version, int64_t);
static const char *mcp_natnet_name(const struct mcp *, int);
static int mcp_udp_read(struct mcp *);
static int mcp_csv_open(struct mcp *);
static int mcp_csv_due(struct mcp *, int *);
static struct mcp_map *mcp_find_map(struct mcp *, const struct mocap_sample *);
static int mcp_pose(struct mcp *, const struct mocap_sample *, int64_t);
static int mcp_connect_all(struct mcp *, int);
static void mcp_report(struct mcp *, double);
static int mcp_natnet_tick(struct mcp *, double, int *);
static int mcp_run(struct mcp *);

/* Print --help. */
static void
mcp_usage(FILE *f)
{
	fprintf(f,
	    "usage: hx-mocap [-s SERVER] [options] --natnet HOST[:PORT]\n"
	    "       hx-mocap [-s SERVER] [options] --udp [ADDR:]PORT\n"
	    "       hx-mocap [-s SERVER] [options] --csv FILE\n"
	    "\n"
	    "Feed motion-capture poses into the mocap bodies of a haptixd\n"
	    "simulation.  The server follows the physical body once tracking\n"
	    "is connected (--connect, SIGUSR1, hxctl tracking connect), taking\n"
	    "the offset from the first pose so that nothing jumps;\n"
	    "disconnected (SIGUSR2), motion moves nothing.\n"
	    "\n"
	    "Sources:\n"
	    "  --natnet HOST[:PORT] OptiTrack Motive's NatNet stream: ask Motive\n"
	    "                      (command port 1510) for its version, mode and\n"
	    "                      body names, then read its frames\n"
	    "                      (Motive says whether it multicasts, to\n"
	    "                      which group and port)\n"
	    "  --unicast           take Motive's frames as unicast, whatever it\n"
	    "                      says (they come to our command socket)\n"
	    "  --multicast GROUP   join GROUP at once, rather than the group\n"
	    "                      Motive announces (its default: " NATNET_MULTICAST_GROUP
	    ")\n"
	    "  --interface ADDR    the local address facing Motive (multicast)\n"
	    "  --data-port PORT    multicast frames' port (default: the one\n"
	    "                      Motive announces; 1511 with --multicast)\n"
	    "  --natnet-version X.Y  the stream version if Motive does not say\n"
	    "                      (default: 3.1)\n"
	    "  --udp [ADDR:]PORT   the simple UDP format (docs/drivers.md)\n"
	    "  --csv FILE          replay a CSV file of timed poses at its pace\n"
	    "  --loop              start the CSV file again at its end\n"
	    "  --speed X           CSV pace factor (default: 1)\n"
	    "\n"
	    "Mapping:\n"
	    "  --map SRC=BODY      the source's body SRC (its name, or NatNet's\n"
	    "                      number) drives mocap body BODY; repeat for\n"
	    "                      more (default: the first source body drives\n"
	    "                      the first mocap body)\n"
	    "  --axes SPEC         the source's axes: y-up, z-up, or world x,y,z\n"
	    "                      as source axes like x,-z,y (default: y-up for\n"
	    "                      NatNet, z-up otherwise)\n"
	    "  --scale S           position factor, or the source's unit: m, cm,\n"
	    "                      mm (default: 1)\n"
	    "\n"
	    "  --connect           connect the tracking at start\n"
	    "  -s, --server ADDR   the server (default: $HAPTIX_SERVER, else\n"
	    "                      the local socket)\n"
	    "  -v, --verbose       a line a second: poses, rate, age, latency\n"
	    "  -h, --help          show this help\n"
	    "  -V, --version       show the version\n"
	    "\n"
	    "Signals: SIGUSR1 connects, SIGUSR2 disconnects, SIGINT and SIGTERM\n"
	    "stop.  See hx-mocap(1).\n");
}

/* Add --map SRC=BODY. */
static int
mcp_add_map(struct mcp *p, const char *arg)
{
	const char *eq = strchr(arg, '=');
	struct mcp_map *m;
	char *end;
	long id;

	if (eq == NULL || eq == arg || eq[1] == '\0') {
		program_warn("--map: '%s' is not SRC=BODY", arg);
		return -1;
	}
	if (p->nmaps == MCP_MAX_MAPS) {
		program_warn("--map: %d maps at most", MCP_MAX_MAPS);
		return -1;
	}
	if ((size_t)(eq - arg) >= sizeof(m->src) ||
	    strlen(eq + 1) >= sizeof(m->mocap)) {
		program_warn("--map: '%s': a name is too long", arg);
		return -1;
	}
	m = &p->maps[p->nmaps++];
	memset(m, 0, sizeof(*m));
	memcpy(m->src, arg, (size_t)(eq - arg));
	snprintf(m->mocap, sizeof(m->mocap), "%s", eq + 1);
	m->src_id = -1;
	errno = 0;
	id = strtol(m->src, &end, 10);
	if (errno == 0 && *end == '\0' && id >= 0 && id <= 0x7fffffff)
		m->src_id = (int)id;
	m->bound = 1;
	return 0;
}

/* Take one of the NatNet options (--unicast ... --natnet-version); 0, or
 * -1 having said what is wrong. */
static int
mcp_natnet_option(struct mcp *p, int ch, const char *arg)
{
	int major, minor;
	double v;

	switch (ch) {
	case O_UNICAST:
		p->unicast = 1;
		break;
	case O_MULTICAST:
		p->multicast = 1;
		p->group = arg;
		break;
	case O_INTERFACE:
		p->interface = arg;
		break;
	case O_DATA_PORT:
		if (usage_number("--data-port", arg, 1, 65535, &v) < 0)
			return -1;
		p->data_port = (int)v;
		break;
	case O_NATNET_VERSION:
		if (sscanf(arg, "%d.%d", &major, &minor) != 2 ||
		    !natnet_version_supported(
			(struct natnet_version){ major, minor })) {
			program_warn("--natnet-version: '%s' is not a NatNet "
				     "version this decodes (2.6 to 4.1)",
			    arg);
			return -1;
		}
		p->version.major = major;
		p->version.minor = minor;
		break;
	}
	return 0;
}

/*
 * Whether the options read go together (one source, and the options of
 * another left out), and the defaults they leave: the axes, the map of
 * the first body.  0, or -1 having said what is wrong.
 */
static int
mcp_check(struct mcp *p, int sources, int argc, char **argv)
{
	char err[256];

	if (optind != argc) {
		program_warn("'%s': sources are options (--natnet, --udp, "
			     "--csv)",
		    argv[optind]);
		return -1;
	}
	if (sources != 1) {
		program_warn(sources == 0 ? "name a source: --natnet, --udp or "
					    "--csv" :
					    "one source at a time");
		mcp_usage(stderr);
		return -1;
	}
	if (p->unicast && p->multicast) {
		program_warn("--unicast or --multicast, not both");
		return -1;
	}
	if ((p->unicast || p->multicast || p->interface != NULL ||
		p->data_port != 0) &&
	    p->source != MCP_NATNET) {
		program_warn("--unicast, --multicast, --interface and "
			     "--data-port go with --natnet");
		return -1;
	}
	if ((p->loop || p->speed != 1) && p->source != MCP_CSV) {
		program_warn("--loop and --speed go with --csv");
		return -1;
	}
	if (p->axes_spec == NULL)
		p->axes_spec = p->source == MCP_NATNET ? "y-up" : "z-up";
	if (mocap_axes_parse(p->axes_spec, &p->axes, err, sizeof(err)) < 0) {
		program_warn("--axes: %s", err);
		return -1;
	}
	if (p->scale_spec != NULL &&
	    mocap_axes_parse_scale(p->scale_spec, &p->axes, err, sizeof(err)) <
		0) {
		program_warn("--scale: %s", err);
		return -1;
	}
	if (p->nmaps == 0) {
		/* The first source body that shows up drives mocap body 0. */
		p->maps[0].src_id = -1;
		p->nmaps = 1;
	}
	return 0;
}

/* Read the command line; 1: exit 0 (help), -1: exit 2. */
static int
mcp_options(struct mcp *p, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "server", required_argument, NULL, 's' },
		{ "natnet", required_argument, NULL, O_NATNET },
		{ "unicast", no_argument, NULL, O_UNICAST },
		{ "multicast", required_argument, NULL, O_MULTICAST },
		{ "interface", required_argument, NULL, O_INTERFACE },
		{ "data-port", required_argument, NULL, O_DATA_PORT },
		{ "natnet-version", required_argument, NULL, O_NATNET_VERSION },
		{ "udp", required_argument, NULL, O_UDP },
		{ "csv", required_argument, NULL, O_CSV },
		{ "loop", no_argument, NULL, O_LOOP },
		{ "speed", required_argument, NULL, O_SPEED },
		{ "map", required_argument, NULL, O_MAP },
		{ "axes", required_argument, NULL, O_AXES },
		{ "scale", required_argument, NULL, O_SCALE },
		{ "connect", no_argument, NULL, O_CONNECT },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int ch, sources = 0;

	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":s:vhV", longopts, NULL)) != -1) {
		switch (ch) {
		case 's':
			p->server = optarg;
			break;
		case O_NATNET:
			p->source = MCP_NATNET;
			p->natnet_server = optarg;
			sources++;
			break;
		case O_UNICAST:
		case O_MULTICAST:
		case O_INTERFACE:
		case O_DATA_PORT:
		case O_NATNET_VERSION:
			if (mcp_natnet_option(p, ch, optarg) < 0)
				return -1;
			break;
		case O_UDP:
			p->source = MCP_UDP;
			p->udp_listen = optarg;
			sources++;
			break;
		case O_CSV:
			p->source = MCP_CSV;
			p->csv_path = optarg;
			sources++;
			break;
		case O_LOOP:
			p->loop = 1;
			break;
		case O_SPEED:
			if (usage_number(
				"--speed", optarg, 1e-3, 1e3, &p->speed) < 0)
				return -1;
			break;
		case O_MAP:
			if (mcp_add_map(p, optarg) < 0)
				return -1;
			break;
		case O_AXES:
			p->axes_spec = optarg;
			break;
		case O_SCALE:
			p->scale_spec = optarg;
			break;
		case O_CONNECT:
			p->connect = 1;
			break;
		case 'v':
			p->verbose = 1;
			break;
		case 'h':
			mcp_usage(stdout);
			return 1;
		case 'V':
			usage_version("hx-mocap");
			return 1;
		default:
			usage_bad_option("hx-mocap", ch, argv);
			return -1;
		}
	}
	return mcp_check(p, sources, argc, argv);
}

/* Resolve HOST[:PORT] (or [V6]:PORT), or with passive [ADDR:]PORT. */
static int
mcp_resolve(const char *what, const char *spec, int default_port, int passive,
    struct sockaddr_storage *out, socklen_t *outlen)
{
	char host[256], port[16];
	const char *colon = strrchr(spec, ':');
	struct addrinfo hints, *res;
	int rc;

	if (spec[0] == '[') {
		const char *close = strchr(spec, ']');

		if (close == NULL || (close[1] != '\0' && close[1] != ':')) {
			program_warn(
			    "%s: '%s' is not [ADDRESS]:PORT", what, spec);
			return -1;
		}
		snprintf(host, sizeof(host), "%.*s", (int)(close - spec - 1),
		    spec + 1);
		colon = close[1] == ':' ? close + 1 : NULL;
	} else if (colon != NULL && strchr(spec, ':') != colon) {
		colon = NULL; /* a bare IPv6 address */
		snprintf(host, sizeof(host), "%s", spec);
	} else if (colon != NULL) {
		snprintf(host, sizeof(host), "%.*s", (int)(colon - spec), spec);
	} else if (passive) {
		host[0] = '\0';
		colon = spec - 1; /* all of it is the port */
	} else {
		snprintf(host, sizeof(host), "%s", spec);
	}
	if (colon != NULL)
		snprintf(port, sizeof(port), "%s", colon + 1);
	else
		snprintf(port, sizeof(port), "%d", default_port);
	memset(&hints, 0, sizeof(hints));
	hints.ai_socktype = SOCK_DGRAM;
	hints.ai_flags = passive ? AI_PASSIVE : 0;
	hints.ai_family = host[0] == '\0' ? AF_INET : AF_UNSPEC;
	if ((rc = getaddrinfo(
		 host[0] != '\0' ? host : NULL, port, &hints, &res)) != 0) {
		program_warn("%s: '%s': %s", what, spec, gai_strerror(rc));
		return -1;
	}
	memcpy(out, res->ai_addr, res->ai_addrlen);
	*outlen = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}

/* Listen for the simple UDP format. */
static int
mcp_udp_open(struct mcp *p)
{
	struct sockaddr_storage sa;
	socklen_t len;

	if (mcp_resolve("--udp", p->udp_listen, 0, 1, &sa, &len) < 0)
		return -1;
	if ((p->fd = socket(sa.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0)) ==
		-1 ||
	    bind(p->fd, (struct sockaddr *)&sa, len) == -1) {
		program_warn("--udp %s: %s", p->udp_listen, strerror(errno));
		return -1;
	}
	return 0;
}

/* Send Motive a request on the command socket. */
static int
mcp_natnet_send(struct mcp *p, int id)
{
	unsigned char buf[512];
	size_t n;

	if (id == NATNET_CONNECT)
		n = natnet_connect_request(buf, sizeof(buf), "hx-mocap",
		    (struct natnet_version){ 0, 0 });
	else
		n = natnet_request(buf, sizeof(buf), id, NULL);
	if (n == 0 ||
	    sendto(p->cmd_fd, buf, n, 0, (struct sockaddr *)&p->natnet_addr,
		p->natnet_addrlen) < 0) {
		program_warn("--natnet %s: %s", p->natnet_server,
		    n == 0 ? "cannot encode a request" : strerror(errno));
		return -1;
	}
	if (id == NATNET_REQUEST_MODELDEF)
		p->modeldef_asked = program_now();
	else if (id == NATNET_KEEPALIVE)
		p->keepalive_sent = program_now();
	else if (id == NATNET_CONNECT)
		p->connect_sent = program_now();
	return 0;
}

/* Open the command socket and say hello to Motive. */
static int
mcp_natnet_open(struct mcp *p)
{
	if (mcp_resolve("--natnet", p->natnet_server, NATNET_COMMAND_PORT, 0,
		&p->natnet_addr, &p->natnet_addrlen) < 0)
		return -1;
	p->cmd_fd = socket(
	    p->natnet_addr.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (p->cmd_fd == -1) {
		program_warn("socket: %s", strerror(errno));
		return -1;
	}
	if (mcp_natnet_send(p, NATNET_CONNECT) < 0 ||
	    mcp_natnet_send(p, NATNET_REQUEST_MODELDEF) < 0)
		return -1;
	return 0;
}

/*
 * Multicast: bind the data port and join the group (Motive's, or
 * --multicast), once the server info said so or --multicast asked.
 */
static int
mcp_natnet_join(struct mcp *p)
{
	struct sockaddr_in sa;
	struct ip_mreq mreq;
	const char *group = p->group;
	int port = p->data_port, one = 1;

	if (p->fd != -1)
		return 0;
	if (group == NULL)
		group = p->have_info && p->info.has_connection_info ?
		    p->info.multicast_address :
		    NATNET_MULTICAST_GROUP;
	if (port == 0)
		port = p->have_info && p->info.has_connection_info &&
			p->info.data_port > 0 ?
		    p->info.data_port :
		    NATNET_DATA_PORT;
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_port = htons((uint16_t)port);
	sa.sin_addr.s_addr = htonl(INADDR_ANY);
	memset(&mreq, 0, sizeof(mreq));
	if (inet_pton(AF_INET, group, &mreq.imr_multiaddr) != 1) {
		program_warn(
		    "multicast group '%s' is not an IPv4 address", group);
		return -1;
	}
	mreq.imr_interface.s_addr = htonl(INADDR_ANY);
	if (p->interface != NULL &&
	    inet_pton(AF_INET, p->interface, &mreq.imr_interface) != 1) {
		program_warn(
		    "--interface: '%s' is not an IPv4 address", p->interface);
		return -1;
	}
	if ((p->fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)) == -1 ||
	    setsockopt(p->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ==
		-1 ||
	    bind(p->fd, (struct sockaddr *)&sa, sizeof(sa)) == -1 ||
	    setsockopt(p->fd, IPPROTO_IP, IP_ADD_MEMBERSHIP, &mreq,
		sizeof(mreq)) == -1) {
		program_warn(
		    "multicast %s:%d: %s", group, port, strerror(errno));
		return -1;
	}
	if (p->verbose)
		program_warn(
		    "reading multicast frames from %s:%d", group, port);
	return 0;
}

/* NatNet's name for rigid body id, from the model definitions, or "". */
static const char *
mcp_natnet_name(const struct mcp *p, int id)
{
	int k;

	for (k = 0; k < p->models.n; k++)
		if (p->models.bodies[k].id == id)
			return p->models.bodies[k].name;
	return "";
}

/* Read one datagram from a NatNet socket and act on it. */
static int
mcp_natnet_read(struct mcp *p, int fd)
{
	static unsigned char buf[NATNET_MAX_PACKET];
	const unsigned char *payload;
	struct natnet_version v;
	char err[256];
	int64_t now_us = driver_wall_us();
	size_t plen;
	ssize_t n;
	int id;

	if ((n = recv(fd, buf, sizeof(buf), 0)) < 0)
		return errno == EINTR || errno == EAGAIN ? 0 : -1;
	if (natnet_message(
		buf, (size_t)n, &id, &payload, &plen, err, sizeof(err)) < 0) {
		p->dropped++;
		if (p->verbose)
			program_warn("a NatNet packet refused: %s", err);
		return 0;
	}
	v = p->have_info ? natnet_server_version(&p->info) : p->version;
	switch (id) {
	case NATNET_SERVERINFO:
		return mcp_natnet_server(p, payload, plen);
	case NATNET_MODELDEF:
		mcp_natnet_models(p, payload, plen, v);
		return 0;
	case NATNET_FRAMEOFDATA:
		return mcp_natnet_frame(p, payload, plen, v, now_us);
	default:
		return 0;
	}
}

/*
 * Motive's server info: say what streams (the first time), and join its
 * multicast group or go on unicast.  -1 for a NatNet version this does
 * not decode.
 */
static int
mcp_natnet_server(struct mcp *p, const unsigned char *payload, size_t plen)
{
	struct natnet_version v;
	char err[256];

	if (natnet_parse_server(payload, plen, &p->info, err, sizeof(err)) <
	    0) {
		program_warn("Motive's server info refused: %s", err);
		return 0;
	}
	v = natnet_server_version(&p->info);
	if (!natnet_version_supported(v)) {
		program_warn("%s streams NatNet %d.%d, which this does "
			     "not decode (2.6 to 4.1)",
		    p->info.app, v.major, v.minor);
		return -1;
	}
	if (!p->have_info)
		fprintf(stderr, "%s: %s %d.%d.%d, NatNet %d.%d, %s\n",
		    program_name(), p->info.app, p->info.app_version[0],
		    p->info.app_version[1], p->info.app_version[2], v.major,
		    v.minor,
		    p->unicast ? "unicast" :
			p->multicast || !p->info.has_connection_info ||
			    p->info.multicast ?
				 "multicast" :
				 "unicast");
	p->have_info = 1;
	if (!p->unicast &&
	    (p->multicast || !p->info.has_connection_info || p->info.multicast))
		return mcp_natnet_join(p);
	p->unicast = 1;
	return 0;
}

/* Motive's model definitions: the rigid bodies' names, said if -v. */
static void
mcp_natnet_models(struct mcp *p, const unsigned char *payload, size_t plen,
    struct natnet_version v)
{
	char err[256];
	int k;

	if (natnet_parse_models(
		payload, plen, v, &p->models, err, sizeof(err)) < 0) {
		program_warn("Motive's model definitions refused: %s", err);
		return;
	}
	if (p->verbose)
		for (k = 0; k < p->models.n; k++)
			program_warn("rigid body %d is '%s'",
			    p->models.bodies[k].id, p->models.bodies[k].name);
}

/*
 * A frame of data, received at now_us: each tracked rigid body's pose
 * sent, dated back by Motive's own latency; the model definitions asked
 * again when they changed.  -1 when the server is lost.
 */
static int
mcp_natnet_frame(struct mcp *p, const unsigned char *payload, size_t plen,
    struct natnet_version v, int64_t now_us)
{
	static struct natnet_frame frame;
	struct mocap_sample s;
	char err[256];
	double lag;
	int k;

	if (natnet_parse_frame(payload, plen, v, &frame, err, sizeof(err)) <
	    0) {
		p->dropped++;
		if (p->verbose)
			program_warn("a NatNet frame refused: %s", err);
		return 0;
	}
	p->last_frame = program_now();
	if (frame.models_changed && p->cmd_fd != -1 &&
	    p->last_frame - p->modeldef_asked > 1 &&
	    mcp_natnet_send(p, NATNET_REQUEST_MODELDEF) < 0)
		return -1;
	/* Motive's own latency, camera exposure to sending, when it says. */
	lag = 0;
	if (p->have_info && p->info.clock_frequency > 0 &&
	    frame.transmit > frame.mid_exposure && frame.mid_exposure > 0)
		lag = (double)(frame.transmit - frame.mid_exposure) /
		    (double)p->info.clock_frequency;
	for (k = 0; k < frame.nbodies; k++) {
		if (!frame.bodies[k].tracked)
			continue;
		memset(&s, 0, sizeof(s));
		s.id = frame.bodies[k].id;
		snprintf(
		    s.name, sizeof(s.name), "%s", mcp_natnet_name(p, s.id));
		s.time = frame.timestamp;
		memcpy(s.pos, frame.bodies[k].pos, sizeof(s.pos));
		memcpy(s.quat, frame.bodies[k].quat, sizeof(s.quat));
		if (mcp_pose(p, &s, now_us - (int64_t)(lag * 1e6)) < 0)
			return -1;
	}
	return 0;
}

/* Read one datagram of the simple UDP format. */
static int
mcp_udp_read(struct mcp *p)
{
	static struct mocap_sample s[MCP_MAX_SAMPLES];
	static unsigned char buf[65536];
	int64_t now_us = driver_wall_us();
	char err[256];
	ssize_t n;
	int k, count;

	if ((n = recv(p->fd, buf, sizeof(buf), 0)) < 0)
		return errno == EINTR || errno == EAGAIN ? 0 : -1;
	if ((count = mocap_udp_parse(
		 buf, (size_t)n, s, MCP_MAX_SAMPLES, err, sizeof(err))) < 0) {
		p->dropped++;
		program_warn("a datagram refused: %s", err);
		return 0;
	}
	for (k = 0; k < count; k++)
		if (mcp_pose(p, &s[k], now_us) < 0)
			return -1;
	return 0;
}

/* Open the CSV file and read its first row. */
static int
mcp_csv_open(struct mcp *p)
{
	char err[256];
	int rc;

	if ((p->csv = mocap_csv_open(p->csv_path, err, sizeof(err))) == NULL) {
		program_warn("%s", err);
		return -1;
	}
	if ((rc = mocap_csv_next(p->csv, &p->csv_next, err, sizeof(err))) < 0) {
		program_warn("%s", err);
		return -1;
	}
	if (rc == 0) {
		program_warn("%s: no poses in it", p->csv_path);
		return -1;
	}
	p->csv_have_next = 1;
	p->csv_t0 = p->csv_next.time;
	p->csv_start = program_now();
	return 0;
}

/*
 * Send the CSV rows that have fallen due; *wait_ms: until the next one
 * (-1: the file has ended).  0, or -1.
 */
static int
mcp_csv_due(struct mcp *p, int *wait_ms)
{
	double due, now;
	char err[256];
	int rc;

	*wait_ms = -1;
	while (p->csv_have_next) {
		due = p->csv_start + (p->csv_next.time - p->csv_t0) / p->speed;
		now = program_now();
		if (due > now) {
			*wait_ms = (int)((due - now) * 1000) + 1;
			return 0;
		}
		/* Sampled when it fell due: that is what the age counts. */
		if (mcp_pose(p, &p->csv_next,
			driver_wall_us() - (int64_t)((now - due) * 1e6)) < 0)
			return -1;
		rc = mocap_csv_next(p->csv, &p->csv_next, err, sizeof(err));
		if (rc < 0) {
			program_warn("%s", err);
			return -1;
		}
		if (rc == 0 && p->loop) {
			if (mocap_csv_rewind(p->csv) < 0 ||
			    mocap_csv_next(
				p->csv, &p->csv_next, err, sizeof(err)) != 1) {
				program_warn(
				    "%s: cannot start again", p->csv_path);
				return -1;
			}
			p->csv_t0 = p->csv_next.time;
			p->csv_start = program_now();
		} else if (rc == 0) {
			p->csv_have_next = 0;
		}
	}
	return 0;
}

/* The map a sample belongs to, binding the default one; NULL if none. */
static struct mcp_map *
mcp_find_map(struct mcp *p, const struct mocap_sample *s)
{
	struct mcp_map *m;
	int k;

	for (k = 0; k < p->nmaps; k++) {
		m = &p->maps[k];
		if (!m->bound) {
			/* The default: the first body the source reports. */
			snprintf(m->src, sizeof(m->src), "%s", s->name);
			m->src_id = s->name[0] == '\0' ? s->id : -1;
			m->bound = 1;
			fprintf(stderr,
			    "%s: %s%s%.0d drives the first mocap body\n",
			    program_name(), s->name[0] != '\0' ? s->name : "",
			    s->name[0] != '\0' ? "" : "rigid body ",
			    s->name[0] != '\0' ? 0 : s->id);
			return m;
		}
		/* Digits name NatNet's number, or a body so named. */
		if (m->src_id >= 0 && s->id == m->src_id)
			return m;
		if (m->src[0] != '\0' && strcmp(m->src, s->name) == 0)
			return m;
	}
	return NULL;
}

/* Map one sample into the world and send it. */
static int
mcp_pose(struct mcp *p, const struct mocap_sample *s, int64_t sample_us)
{
	struct mcp_map *m = mcp_find_map(p, s);
	double pos[3], quat[4];
	hxd_tracking t;

	if (m == NULL)
		return 0;
	mocap_axes_apply(&p->axes, s->pos, s->quat, pos, quat);
	if (hxd_mocap_pose(p->c, 0, m->mocap, pos, quat, (long long)sample_us,
		isfinite(s->time) ? s->time : 0, &t) != HXD_OK) {
		/* This pose, this body, the lease: the others may go on. */
		if (driver_refused(p->c, &m->refused, "poses")) {
			p->dropped++;
			return 0;
		}
		return driver_fail(p->c, "sending a pose");
	}
	driver_accepted(&m->refused, "poses");
	if (m->have_tracking && m->tracking.connected != t.connected)
		fprintf(stderr, "%s: tracking of '%s' %s\n", program_name(),
		    t.body, t.connected ? "connected" : "disconnected");
	m->tracking = t;
	m->have_tracking = 1;
	m->sent++;
	p->newest_us = sample_us;
	return 0;
}

/* Connect (1) or disconnect (0) every mapped mocap body. */
static int
mcp_connect_all(struct mcp *p, int connect)
{
	hxd_tracking t;
	int k;

	for (k = 0; k < p->nmaps; k++) {
		if (hxd_mocap_connect(p->c, 0, p->maps[k].mocap, connect, &t) !=
		    HXD_OK)
			return driver_fail(
			    p->c, connect ? "connecting" : "disconnecting");
		fprintf(stderr, "%s: tracking of '%s' %s\n", program_name(),
		    t.body,
		    !t.connected     ? "disconnected" :
			t.offset_set ? "connected" :
				       "connected: the offset comes with the "
				       "next pose");
		p->maps[k].tracking = t;
		p->maps[k].have_tracking = 1;
	}
	return 0;
}

/* With -v, a line a second: what went and how old it was. */
static void
mcp_report(struct mcp *p, double now)
{
	const hxd_tracking *t;
	int k;

	if (!p->verbose || now - p->last_report < 1)
		return;
	p->last_report = now;
	for (k = 0; k < p->nmaps; k++) {
		t = &p->maps[k].tracking;
		if (!p->maps[k].have_tracking) {
			program_warn("%s: no pose yet",
			    p->maps[k].src[0] ? p->maps[k].src :
						"the first body");
			continue;
		}
		program_warn("%s -> %s: %llu poses, %.4g Hz at the server, "
			     "age %.3g ms, %s%.3g ms to the physics, %s",
		    p->maps[k].src, t->body, p->maps[k].sent, t->rate,
		    (double)(driver_wall_us() - p->newest_us) / 1e3,
		    t->latency >= 0 ? "" : "not yet stepped; ",
		    t->latency >= 0 ? t->latency * 1e3 : 0,
		    t->connected ? "connected" : "disconnected");
	}
	if (p->dropped > 0)
		program_warn(
		    "%llu packets or poses refused so far", p->dropped);
}

/*
 * What NatNet needs now, between reads: keep-alives on unicast (which
 * also shortens *wait), and hello again when Motive has been silent (it
 * may have restarted).  -1 when the server is lost.
 */
static int
mcp_natnet_tick(struct mcp *p, double now, int *wait)
{
	if (p->unicast &&
	    now - p->keepalive_sent >= NATNET_KEEPALIVE_MS / 1000.0 &&
	    mcp_natnet_send(p, NATNET_KEEPALIVE) < 0)
		return -1;
	if (now - p->last_frame > 2 && now - p->connect_sent > 2 &&
	    (mcp_natnet_send(p, NATNET_CONNECT) < 0 ||
		mcp_natnet_send(p, NATNET_REQUEST_MODELDEF) < 0))
		return -1;
	if (p->unicast)
		*wait = NATNET_KEEPALIVE_MS / 2;
	return 0;
}

/* Read the source and send, until a signal, the end, or an error. */
static int
mcp_run(struct mcp *p)
{
	struct pollfd pfd[2];
	int n, k, wait, csv_wait;
	double now;

	for (;;) {
		if (driver_stop)
			return 0;
		if (driver_connect_asked) {
			driver_connect_asked = 0;
			if (mcp_connect_all(p, 1) < 0)
				return 1;
		}
		if (driver_disconnect_asked) {
			driver_disconnect_asked = 0;
			if (mcp_connect_all(p, 0) < 0)
				return 1;
		}
		wait = 1000;
		if (p->source == MCP_CSV) {
			if (mcp_csv_due(p, &csv_wait) < 0)
				return 1;
			if (!p->csv_have_next)
				return 0;
			if (csv_wait < wait)
				wait = csv_wait;
		}
		now = program_now();
		if (p->source == MCP_NATNET &&
		    mcp_natnet_tick(p, now, &wait) < 0)
			return 1;
		mcp_report(p, now);
		n = 0;
		if (p->fd != -1) {
			pfd[n].fd = p->fd;
			pfd[n++].events = POLLIN;
		}
		if (p->cmd_fd != -1) {
			pfd[n].fd = p->cmd_fd;
			pfd[n++].events = POLLIN;
		}
		for (k = 0; k < n; k++)
			pfd[k].revents = 0;
		if (poll(pfd, (nfds_t)n, wait) < 0) {
			if (errno == EINTR)
				continue;
			program_warn("poll: %s", strerror(errno));
			return 1;
		}
		for (k = 0; k < n; k++) {
			if (!(pfd[k].revents & (POLLIN | POLLERR)))
				continue;
			if ((p->source == MCP_NATNET ?
				    mcp_natnet_read(p, pfd[k].fd) :
				    mcp_udp_read(p)) < 0)
				return 1;
		}
	}
}

int
main(int argc, char **argv)
{
	struct mcp p;
	int rc;

	program_set_name("hx-mocap");
	memset(&p, 0, sizeof(p));
	p.fd = p.cmd_fd = -1;
	p.speed = 1;
	p.version.major = 3;
	p.version.minor = 1;
	if ((rc = mcp_options(&p, argc, argv)) != 0)
		return rc > 0 ? 0 : 2;
	driver_signals();
	if ((p.c = driver_connect(p.server, "hx-mocap")) == NULL)
		return 1;
	rc = 1;
	if ((p.source == MCP_UDP && mcp_udp_open(&p) < 0) ||
	    (p.source == MCP_CSV && mcp_csv_open(&p) < 0) ||
	    (p.source == MCP_NATNET && mcp_natnet_open(&p) < 0) ||
	    (p.source == MCP_NATNET && p.multicast && mcp_natnet_join(&p) < 0))
		goto out;
	if (p.connect && mcp_connect_all(&p, 1) < 0)
		goto out;
	rc = mcp_run(&p);
out:
	if (p.fd != -1)
		close(p.fd);
	if (p.cmd_fd != -1)
		close(p.cmd_fd);
	mocap_csv_close(p.csv);
	hxd_close(p.c);
	return rc;
}
