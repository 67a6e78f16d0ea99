/*
 * libFuzzer target: the bytes a client sends, through a real session.
 *
 * The daemon is built once (settings from options, a model loaded, a
 * paused clock, no listeners).  Each input becomes one connection: a
 * socketpair whose far end is a session, as the server would create it,
 * so that the bytes go through the session's framing, dispatch's
 * decoding and state checks, and every handler.  Answers are read and
 * thrown away; at the end the client closes and the loop runs until the
 * session is freed, so that nothing of it outlives the input.
 *
 * An input is two bytes of harness settings, then the stream:
 *
 *   byte 0  flags: FUZZ_HELLO  send a valid Hello before the stream
 *                  FUZZ_TCP    a TCP session, and the daemon has a token
 *                              (the Hello carries it)
 *                  FUZZ_MPL    the MPL scene instead of the test fixture
 *                  FUZZ_ABRUPT close without waiting for the answers
 *   byte 1  0: write the stream at once; N: in pieces of N bytes, the
 *           daemon running between them (frames split across reads)
 *
 * What the harness does to stay fast and reproducible (see
 * docs/fuzzing.md): every input starts from the model as loaded (its data
 * reset, or the model loaded again from MJB in memory if a call changed
 * it) with the clock paused at speed 1; the clock is paused again after
 * every turn of the loop, so `run` lasts until the end of that turn and
 * calls waiting for the API tick are answered then; a batch run that
 * goes on past FUZZ_BATCH_TURNS slices is ended by the client leaving;
 * inputs asking for more than FUZZ_MAX_STEPS steps or FUZZ_MAX_LOADS
 * loads are not run.  After each input the daemon must have no session,
 * no lease, no batch and no client's message left: anything else aborts.
 */
#include "config.h"

#include <errno.h>
#include <linux/sockios.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <event2/event.h>

#include "api_table.h"
#include "clock.h"
#include "core.h"
#include "daemon.h"
#include "frame.h"
#include "haptix.pb-c.h"
#include "lease.h"
#include "loadjob.h"
#include "log.h"
#include "message.h"
#include "modeldir.h"
#include "modeltext.h"
#include "monotonic.h"
#include "options.h"
#include "perturb.h"
#include "record.h"
#include "session.h"
#include "sim.h"
#include "sim_key.h"
#include "sim_state.h"
#include "tracking.h"

#define FUZZ_HELLO 0x01
#define FUZZ_TCP 0x02
#define FUZZ_MPL 0x04
#define FUZZ_ABRUPT 0x08

/* Turns of the loop an input may take: a bound, not a normal end. */
#define FUZZ_MAX_TURNS 2000

/* Turns a batch run may step (about 5 ms each) before the client leaves. */
#define FUZZ_BATCH_TURNS 4

/*
 * Work an input may ask for: `step` takes up to 10000 steps at once (70
 * us each on the MPL scene here), a load up to 50 ms.  More would only
 * measure MuJoCo's speed, and trip -timeout.
 */
#define FUZZ_MAX_STEPS 20000
#define FUZZ_MAX_LOADS 16

#define FUZZ_TOKEN "fuzz-token"

#ifndef FUZZ_MODELDIR
#define FUZZ_MODELDIR "models"
#endif

int LLVMFuzzerInitialize(int *, char ***);
int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* A model as loaded at start, kept as MJB to start each input from. */
struct fuzz_model {
	const char *name;
	char path[4096];
	uint8_t *mjb;
	size_t len;
};

static struct daemon fuzz_d;
static struct options_cmdline fuzz_cl;
static struct fuzz_model fuzz_models[] = {
	{ "test/fixture.xml", "", NULL, 0 },
	{ "mpl_scene.xml", "", NULL, 0 },
};
static uint8_t fuzz_hello[2][256];
static size_t fuzz_hello_len[2];
static int fuzz_batch_turns; /* turns of this input with a batch stepping */

static void
fuzz_die(const char *what)
{
	fprintf(stderr, "fuzz_session: %s\n", what);
	abort();
}

/* Pack a Hello frame, with the token for TCP. */
static size_t
fuzz_pack_hello(uint8_t *out, size_t size, int tcp)
{
	Haptix__V1__Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__Hello hello = HAPTIX__V1__HELLO__INIT;
	size_t len;

	hello.protocol_version =
	    HAPTIX__V1__PROTOCOL_VERSION__PROTOCOL_VERSION_CURRENT;
	hello.client_name = (char *)"fuzz";
	if (tcp) {
		hello.token.data = (uint8_t *)FUZZ_TOKEN;
		hello.token.len = strlen(FUZZ_TOKEN);
	}
	req.id = 1;
	req.call_case = HAPTIX__V1__REQUEST__CALL_HELLO;
	req.hello = &hello;
	len = haptix__v1__request__get_packed_size(&req);
	if (len + FRAME_HEADER_SIZE > size)
		fuzz_die("the Hello does not fit");
	frame_put_header(out, (uint32_t)len);
	haptix__v1__request__pack(&req, out + FRAME_HEADER_SIZE);
	return len + FRAME_HEADER_SIZE;
}

/* Load a model from its file, as the daemon does, and keep its MJB. */
static void
fuzz_prepare_model(struct fuzz_model *fm)
{
	char err[4200];
	size_t size;

	if (modeldir_find(fm->name, fm->path, sizeof(fm->path)) != 0)
		fuzz_die("a model is missing (set HX_MODELS)");
	if (sim_load_file(fuzz_d.sim, fm->path, err, sizeof(err)) != 0)
		fuzz_die(err);
	size = sim_mjb_size(fuzz_d.sim);
	if ((fm->mjb = malloc(size)) == NULL)
		fuzz_die("out of memory");
	fm->len = sim_mjb_save(fuzz_d.sim, fm->mjb, size);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static char dirs[2][4096], state[] = "/tmp/hxfuzz.XXXXXX";
	char *args[] = { (char *)"haptixd", (char *)"--config", (char *)"none",
		(char *)"--paused", (char *)"--model-dir", dirs[0],
		(char *)"--model-dir", dirs[1], (char *)"--state-dir", state,
		NULL };
	const char *models = getenv("HX_MODELS");
	const char *verbose = getenv("HX_FUZZ_VERBOSE");
	struct event_config *cfg;
	struct options *o;
	char err[4200];
	size_t i;

	(void)argc;
	(void)argv;
	signal(SIGPIPE, SIG_IGN);
	if (models == NULL)
		models = FUZZ_MODELDIR;
	snprintf(dirs[0], sizeof(dirs[0]), "%s", models);
	snprintf(dirs[1], sizeof(dirs[1]), "%s/test", models);

	/* Recordings the inputs start go to a directory of their own. */
	if (mkdtemp(state) == NULL)
		fuzz_die("cannot make a state directory in /tmp");
	/* The daemon's own settings path, with the defaults. */
	if (options_parse_cmdline(&fuzz_cl, 10, args) != 0)
		fuzz_die("bad settings");
	if ((o = calloc(1, sizeof(*o))) == NULL)
		fuzz_die("out of memory");
	if (options_build(o, &fuzz_cl, err, sizeof(err)) != 0)
		fuzz_die(err);
	/* Thousands of connections a second: errors only, unless asked. */
	log_init(verbose != NULL ? atoi(verbose) : -2);
	modeldir_init((const char *const *)o->model_dirs, o->nmodel_dirs);

	fuzz_d.opts = o;
	fuzz_d.started = monotonic_s();
	cfg = event_config_new(); /* as haptixd's: not precise */
	fuzz_d.base = event_base_new_with_config(cfg);
	event_config_free(cfg);
	if (fuzz_d.base == NULL)
		fuzz_die("cannot create the event loop");
	memcpy(fuzz_d.token, FUZZ_TOKEN, strlen(FUZZ_TOKEN));
	fuzz_d.token_len = strlen(FUZZ_TOKEN);
	core_init(&fuzz_d);
	fuzz_d.sim = sim_create();
	sim_set_api_rate(fuzz_d.sim, o->api_rate);
	for (i = 0; i < sizeof(fuzz_models) / sizeof(fuzz_models[0]); i++)
		fuzz_prepare_model(&fuzz_models[i]);
	core_start(&fuzz_d);
	api_table_serve();
	/*
	 * Loads run in this process, where a model that crashes MuJoCo
	 * crashes the target: the loader's checks are what is fuzzed (in
	 * the daemon a loader process would take the crash).
	 */
	loadjob_inprocess(1);
	for (i = 0; i < 2; i++)
		fuzz_hello_len[i] = fuzz_pack_hello(
		    fuzz_hello[i], sizeof(fuzz_hello[i]), (int)i);
	return 0;
}

/*
 * Return 1 if the running model is fm's as it was loaded: the same file,
 * the same bytes as MJB (no call changed it), no captured states.
 */
static int
fuzz_pristine(const struct fuzz_model *fm)
{
	struct sim *sim = fuzz_d.sim;
	uint8_t *buf;
	size_t size, n;
	int same;

	if (!sim_loaded(sim) || strcmp(sim_model_path(sim), fm->path) != 0 ||
	    sim_key_names(sim, NULL, 0) != 0)
		return 0;
	size = sim_mjb_size(sim);
	if ((buf = malloc(size)) == NULL)
		fuzz_die("out of memory");
	n = sim_mjb_save(sim, buf, size);
	same = n == fm->len && memcmp(buf, fm->mjb, n) == 0;
	free(buf);
	return same;
}

/*
 * Where each input starts: the model as loaded, paused, at speed 1.
 * Loading costs milliseconds (MuJoCo's VFS and mjData are megabytes),
 * so a model that no call changed only has its data reset.
 */
/* A recording an input started ends with it, and its file goes. */
static void
fuzz_end_recording(void)
{
	struct record_info ri;

	record_info(&fuzz_d, &ri);
	if (!ri.active)
		return;
	record_stop(&fuzz_d, "the input ended");
	unlink(ri.path);
}

static void
fuzz_reset(const struct fuzz_model *fm)
{
	const struct options *o = fuzz_d.opts;
	char err[4200];

	clock_pause(fuzz_d.clock);
	fuzz_end_recording();
	/* No tracking or force carries over to the next input. */
	tracking_model_changed(&fuzz_d);
	perturb_model_changed(&fuzz_d);
	if (fuzz_pristine(fm))
		sim_reset(fuzz_d.sim, -1);
	else if (sim_load_buffer(fuzz_d.sim, SIM_FORMAT_MJB, fm->mjb, fm->len,
		     NULL, fm->path, err, sizeof(err)) != 0)
		fuzz_die(err);
	fuzz_d.model->legacy = 0;
	sim_set_api_rate(fuzz_d.sim, o->api_rate);
	clock_set_speed(fuzz_d.clock, o->speed, o->speed_max);
	clock_model_changed(fuzz_d.clock);
}

/*
 * Return 1 if the stream asks for more steps or loads than the limits
 * above: the frames as the daemon will cut them, decoded as it will.
 */
static int
fuzz_too_costly(const uint8_t *p, size_t len)
{
	Haptix__V1__Request *req;
	uint64_t steps = 0, loads = 0;
	size_t plen;

	while (
	    frame_parse(p, len, fuzz_d.opts->max_frame, &plen) == FRAME_READY) {
		p += FRAME_HEADER_SIZE;
		len -= FRAME_HEADER_SIZE;
		req = haptix__v1__request__unpack(NULL, plen, p);
		if (req != NULL) {
			if (req->call_case == HAPTIX__V1__REQUEST__CALL_STEP)
				steps += req->step->count != 0 ?
				    req->step->count :
				    1;
			if (req->call_case ==
			    HAPTIX__V1__REQUEST__CALL_LOAD_MODEL)
				loads++;
			haptix__v1__request__free_unpacked(req, NULL);
		}
		p += plen;
		len -= plen;
	}
	return steps > FUZZ_MAX_STEPS || loads > FUZZ_MAX_LOADS;
}

/* Read and discard what the daemon sent; note the end of the stream. */
static size_t
fuzz_drain(int fd, int *eof)
{
	uint8_t buf[65536];
	size_t total = 0;
	ssize_t n;

	if (fd < 0)
		return 0;
	while ((n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT)) > 0)
		total += (size_t)n;
	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
		*eof = 1;
	return total;
}

/*
 * One turn of the daemon's loop, without waiting.  EVLOOP_NONBLOCK alone
 * would go on while anything is due, and a batch or the clock at speed
 * max always is; EVLOOP_ONCE stops after one round.  The clock stops
 * after it: a client's `run` never steps on wall time here.
 */
static size_t
fuzz_turn(int fd, int *eof)
{
	event_base_loop(fuzz_d.base, EVLOOP_ONCE | EVLOOP_NONBLOCK);
	if (lease_batch(&fuzz_d) != 0)
		fuzz_batch_turns++;
	if (clock_running(fuzz_d.clock))
		clock_pause(fuzz_d.clock);
	return fuzz_drain(fd, eof);
}

/*
 * Return 1 while the daemon has work: events, unread input, a batch, a
 * load.
 */
static int
fuzz_busy(int fd)
{
	int unread = 0;

	if (event_base_get_num_events(fuzz_d.base, EVENT_BASE_COUNT_ACTIVE) > 0)
		return 1;
	if (lease_batch(&fuzz_d) != 0 || loadjob_count(&fuzz_d) != 0)
		return 1;
	/* A Unix socket's send queue is what the peer has not read. */
	if (fd >= 0 && ioctl(fd, SIOCOUTQ, &unread) == 0 && unread > 0)
		return 1;
	return 0;
}

/* Run the loop until the daemon has nothing left to do for this input. */
static void
fuzz_settle(int fd, int *eof)
{
	int i;

	for (i = 0; i < FUZZ_MAX_TURNS; i++) {
		if (fuzz_turn(fd, eof) == 0 && !fuzz_busy(fd))
			return;
		if (fuzz_batch_turns > FUZZ_BATCH_TURNS)
			return; /* the client gives up and leaves: that ends it */
	}
}

/* Write len bytes, letting the daemon read; stop if it has closed. */
static void
fuzz_write(int fd, const uint8_t *p, size_t len, int *eof)
{
	ssize_t n;
	int stuck = 0;

	while (len > 0 && !*eof) {
		n = send(fd, p, len, MSG_DONTWAIT | MSG_NOSIGNAL);
		if (n > 0) {
			p += n;
			len -= (size_t)n;
			stuck = 0;
			continue;
		}
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			return; /* the daemon closed its end */
		if (fuzz_turn(fd, eof) == 0 && ++stuck > FUZZ_MAX_TURNS)
			return; /* it does not read: the rest is not sent */
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sockaddr_in sin;
	struct daemon *d = &fuzz_d;
	size_t chunk, n;
	int fds[2], flags, tcp, eof = 0, i;

	if (size < 2)
		return -1;
	flags = data[0];
	chunk = data[1] != 0 ? data[1] : size;
	data += 2;
	size -= 2;
	tcp = (flags & FUZZ_TCP) != 0;
	if (fuzz_too_costly(data, size))
		return -1; /* not run, and not kept in the corpus */

	fuzz_reset(&fuzz_models[(flags & FUZZ_MPL) ? 1 : 0]);
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
		fuzz_die("socketpair failed");
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons(40000);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	session_create(d, fds[1], tcp ? SESSION_TCP : SESSION_UNIX,
	    (const struct sockaddr *)&sin, sizeof(sin), NULL);

	fuzz_batch_turns = 0;
	if (flags & FUZZ_HELLO) {
		fuzz_write(fds[0], fuzz_hello[tcp], fuzz_hello_len[tcp], &eof);
		fuzz_settle(fds[0], &eof);
	}
	while (size > 0 && !eof && fuzz_batch_turns <= FUZZ_BATCH_TURNS) {
		n = size < chunk ? size : chunk;
		fuzz_write(fds[0], data, n, &eof);
		data += n;
		size -= n;
		if (!(flags & FUZZ_ABRUPT) || size > 0)
			fuzz_settle(fds[0], &eof);
	}

	/* The client leaves, politely or not; the session must go. */
	if (flags & FUZZ_ABRUPT) {
		close(fds[0]);
		fds[0] = -1;
	} else
		shutdown(fds[0], SHUT_WR);
	for (i = 0; i < FUZZ_MAX_TURNS; i++) {
		fuzz_turn(fds[0], &eof);
		if (!sessions_open(&fuzz_d) && !fuzz_busy(-1) &&
		    (fds[0] < 0 || eof))
			break;
	}
	if (sessions_open(&fuzz_d))
		fuzz_die("the session outlived its client");
	if (fds[0] >= 0)
		close(fds[0]);

	/* What a session leaves behind when it goes. */
	if (lease_holder(d) != 0 || lease_batch(d) != 0 ||
	    message_owner(d) != 0 || sessions_count(&fuzz_d) != 0 ||
	    loadjob_count(&fuzz_d) != 0)
		fuzz_die("a closed session left state behind");
	return 0;
}
