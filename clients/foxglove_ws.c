/*
 * hx-foxglove's WebSocket server: the Foxglove WebSocket protocol v1
 * (github.com/foxglove/ws-protocol, docs/spec.md) on libwebsockets' own
 * loop, which also drives the publisher's tick (a timer of the loop).
 *
 * A client gets serverInfo and one advertise of every channel, then
 * subscribes; each channel keeps its newest messages (one for a state,
 * a few for a log), and a subscription sends what it has not sent yet,
 * one message whenever its socket takes one: a client that reads slowly
 * skips states instead of making anyone wait, and nothing is queued for
 * it beyond one message in libwebsockets' hands.  A client whose socket
 * takes nothing for FWS_STALL_SECONDS while it is owed a message is
 * dropped, as hxview serve drops a stream that stalls.
 *
 * Bad requests (not JSON, an op not offered, an unknown channel or
 * subscription, a binary message) get a status of level 2 saying why;
 * the connection stays.  A text past FWS_MAX_REQUEST closes it (1009).
 */
#include "config.h"

#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/queue.h>
#include <unistd.h>

#include <linux/sockios.h>
#include <libwebsockets.h>
#include <openssl/ssl.h>

#include "foxglove_ws.h"
#include "json_string.h"
#include "program.h"
#include "token.h"

#define FWS_PROTOCOL "foxglove.websocket.v1"
#define FWS_STALL_SECONDS 5.0
#define FWS_CHECK_SECONDS 0.1 /* how often the clients' queues are seen */
#define FWS_MAX_TEXTS 32      /* status messages waiting: past it, drop */
#define FWS_HEADER 13         /* opcode, subscription id, timestamp */

/* A message of a channel: its payload after room for the frame header. */
struct fws_msg {
	uint64_t seq, ns;
	unsigned char *buf; /* LWS_PRE + FWS_HEADER + len */
	size_t len;
};

struct fws_chan {
	char *topic, *schema_name, *schema;
	int keep;
	uint64_t seq; /* the newest message's; 0: none yet */
	struct fws_msg ring[FWS_MAX_KEEP];
};

struct fws_sub {
	uint32_t id;
	int ch;
	uint64_t next; /* the seq it sends next */
};

struct fws_text {
	STAILQ_ENTRY(fws_text) entry;
	size_t len;
	unsigned char buf[]; /* LWS_PRE + len */
};

/* One client: libwebsockets' per-session memory. */
struct fws_client {
	struct fws *s;
	struct lws *wsi;
	TAILQ_ENTRY(fws_client) entry;
	char addr[64];
	struct fws_sub subs[FWS_MAX_SUBSCRIPTIONS];
	int nsubs, turn;
	STAILQ_HEAD(, fws_text) texts;
	int ntexts;
	unsigned char *rx; /* a message arriving in fragments */
	size_t rxlen;
	int too_big;
	double owed;     /* since when it is owed a write; 0: not owed */
	double progress; /* the last time its socket took something */
	int queued;      /* bytes the kernel held at the last look */
	int dropped;
};

struct fws {
	struct fws_options o;
	struct lws_context *ctx;
	struct lws_vhost *vh;
	struct lws_protocols protocols[2];
	struct fws_chan ch[FWS_MAX_CHANNELS];
	int nch;
	TAILQ_HEAD(, fws_client) clients;
	int nclients;
	lws_sorted_usec_list_t sul;
	void (*tick)(void *);
	void *tick_arg;
	int tick_us;
	double checked;
	char session[32];
};

static volatile sig_atomic_t fws_stopping;

static void fws_peer(struct lws *, char *, size_t);

static void
fws_signal(int sig)
{
	fws_stopping = 1;
}

/* libwebsockets' errors, on hx-foxglove's stderr. */
static void
fws_log(int level, const char *line)
{
	size_t n = strlen(line);

	while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
		n--;
	program_warn("libwebsockets: %.*s", (int)n, line);
}

/*
 * Queue a text message (JSON) to c: 0, or -1 if it may not (out of
 * memory, or too many waiting: then it is dropped).
 */
static int
fws_text(struct fws_client *c, const char *json, size_t n)
{
	struct fws_text *t;

	if (c->dropped)
		return -1;
	if (c->ntexts >= FWS_MAX_TEXTS ||
	    (t = malloc(sizeof(*t) + LWS_PRE + n)) == NULL) {
		program_warn("a client at %s dropped: %d messages wait for it",
		    c->addr, c->ntexts);
		c->dropped = 1;
		lws_set_timeout(
		    c->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
		return -1;
	}
	t->len = n;
	memcpy(t->buf + LWS_PRE, json, n);
	STAILQ_INSERT_TAIL(&c->texts, t, entry);
	c->ntexts++;
	if (c->owed == 0)
		c->owed = program_now();
	lws_callback_on_writable(c->wsi);
	return 0;
}

/* A status message to c: level 0 info, 1 warning, 2 error. */
static void fws_tell(struct fws_client *c, int level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
fws_tell(struct fws_client *c, int level, const char *fmt, ...)
{
	char message[512], *p = NULL;
	size_t n = 0;
	va_list ap;
	FILE *f;

	va_start(ap, fmt);
	vsnprintf(message, sizeof(message), fmt, ap);
	va_end(ap);
	if ((f = open_memstream(&p, &n)) == NULL)
		return;
	fprintf(f, "{\"op\":\"status\",\"level\":%d,\"message\":", level);
	json_string(f, message);
	fputc('}', f);
	if (fclose(f) == 0)
		fws_text(c, p, n);
	free(p);
}

void
fws_status(struct fws *s, int level, const char *message)
{
	struct fws_client *c;

	TAILQ_FOREACH(c, &s->clients, entry)
	fws_tell(c, level, "%s", message);
}

/* serverInfo, then every channel in one advertise. */
static int
fws_welcome(struct fws_client *c)
{
	struct fws *s = c->s;
	char *p = NULL;
	size_t n = 0;
	FILE *f;
	int i, rc;

	if ((f = open_memstream(&p, &n)) == NULL)
		return -1;
	fprintf(f, "{\"op\":\"serverInfo\",\"name\":");
	json_string(f, s->o.name);
	fprintf(f, ",\"capabilities\":[],\"sessionId\":\"%s\"}", s->session);
	fflush(f);
	rc = fws_text(c, p, n);
	fseeko(f, 0, SEEK_SET);
	fprintf(f, "{\"op\":\"advertise\",\"channels\":[");
	for (i = 0; i < s->nch; i++) {
		fprintf(f, "%s{\"id\":%d,\"topic\":", i > 0 ? "," : "", i);
		json_string(f, s->ch[i].topic);
		fprintf(f, ",\"encoding\":\"json\",\"schemaName\":");
		json_string(f, s->ch[i].schema_name);
		fprintf(f, ",\"schemaEncoding\":\"jsonschema\",\"schema\":");
		json_string(f, s->ch[i].schema);
		fputc('}', f);
	}
	fprintf(f, "]}");
	if (fclose(f) != 0)
		rc = -1;
	if (rc == 0)
		rc = fws_text(c, p, n);
	free(p);
	return rc;
}

/* The oldest message sub has not sent that its channel still keeps. */
static struct fws_msg *
fws_due(struct fws *s, struct fws_sub *sub)
{
	struct fws_chan *ch = &s->ch[sub->ch];
	uint64_t oldest;

	if (ch->seq == 0 || sub->next > ch->seq)
		return NULL;
	oldest = ch->seq >= (uint64_t)ch->keep ? ch->seq - ch->keep + 1 : 1;
	if (sub->next < oldest)
		sub->next = oldest;
	return &ch->ring[sub->next % ch->keep];
}

/* Whether c has anything to send. */
static int
fws_owes(struct fws_client *c)
{
	int i;

	if (!STAILQ_EMPTY(&c->texts))
		return 1;
	for (i = 0; i < c->nsubs; i++) {
		if (fws_due(c->s, &c->subs[i]) != NULL)
			return 1;
	}
	return 0;
}

static void
fws_put32(unsigned char *p, uint32_t v)
{
	int i;

	for (i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static void
fws_put64(unsigned char *p, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/*
 * The socket takes one message: a text first, else the next
 * subscription's (in turn) that has one due.  0, or -1 to close.
 */
static int
fws_writable(struct fws_client *c)
{
	struct fws_text *t;
	struct fws_msg *m = NULL;
	struct fws_sub *sub = NULL;
	unsigned char *h;
	int i, rc;

	c->progress = program_now();
	c->owed = 0;
	if ((t = STAILQ_FIRST(&c->texts)) != NULL) {
		STAILQ_REMOVE_HEAD(&c->texts, entry);
		c->ntexts--;
		rc = lws_write(
		    c->wsi, t->buf + LWS_PRE, t->len, LWS_WRITE_TEXT);
		free(t);
		if (rc < 0)
			return -1;
	} else {
		for (i = 0; i < c->nsubs && m == NULL; i++) {
			sub = &c->subs[(c->turn + i) % c->nsubs];
			m = fws_due(c->s, sub);
		}
		if (m == NULL)
			return 0;
		c->turn = (c->turn + i) % c->nsubs;
		h = m->buf + LWS_PRE;
		h[0] = 0x01;
		fws_put32(h + 1, sub->id);
		fws_put64(h + 5, m->ns);
		sub->next = m->seq + 1;
		if (lws_write(
			c->wsi, h, FWS_HEADER + m->len, LWS_WRITE_BINARY) < 0)
			return -1;
	}
	if (fws_owes(c)) {
		c->owed = program_now();
		lws_callback_on_writable(c->wsi);
	}
	return 0;
}

static struct fws_sub *
fws_sub_find(struct fws_client *c, long long id)
{
	int i;

	for (i = 0; i < c->nsubs; i++) {
		if (c->subs[i].id == id)
			return &c->subs[i];
	}
	return NULL;
}

static void
fws_subscribe(struct fws_client *c, const struct fws_request *r)
{
	struct fws *s = c->s;
	struct fws_sub *sub;
	struct fws_chan *ch;
	int i;

	for (i = 0; i < r->n; i++) {
		if (r->sub[i].channel >= s->nch) {
			fws_tell(c, 2, "subscribe: no channel %lld",
			    r->sub[i].channel);
			continue;
		}
		if (fws_sub_find(c, r->sub[i].id) != NULL) {
			fws_tell(c, 2,
			    "subscribe: subscription %lld is in use: "
			    "unsubscribe it first",
			    r->sub[i].id);
			continue;
		}
		if (c->nsubs >= FWS_MAX_SUBSCRIPTIONS) {
			fws_tell(c, 2,
			    "subscribe: %d subscriptions already, the most a "
			    "client may hold",
			    c->nsubs);
			return;
		}
		sub = &c->subs[c->nsubs++];
		sub->id = (uint32_t)r->sub[i].id;
		sub->ch = (int)r->sub[i].channel;
		/* What the channel keeps: a state's newest, a log's last. */
		ch = &s->ch[sub->ch];
		sub->next = ch->seq >= (uint64_t)ch->keep ?
		    ch->seq - ch->keep + 1 :
		    1;
	}
	if (fws_owes(c)) {
		if (c->owed == 0)
			c->owed = program_now();
		lws_callback_on_writable(c->wsi);
	}
}

static void
fws_unsubscribe(struct fws_client *c, const struct fws_request *r)
{
	struct fws_sub *sub;
	int i;

	for (i = 0; i < r->n; i++) {
		if ((sub = fws_sub_find(c, r->sub[i].id)) == NULL) {
			fws_tell(c, 1, "unsubscribe: no subscription %lld",
			    r->sub[i].id);
			continue;
		}
		*sub = c->subs[--c->nsubs];
	}
	c->turn = 0;
}

/* A whole message from c. */
static void
fws_request(struct fws_client *c, int binary)
{
	struct fws_request r;
	char why[256];

	if (binary) {
		fws_tell(c, 2,
		    "binary messages are not taken: this server offers no "
		    "clientPublish");
		return;
	}
	if (fws_parse((const char *)c->rx, c->rxlen, &r, why, sizeof(why)) !=
	    0) {
		fws_tell(c, 2, "a request refused: %s", why);
		return;
	}
	switch (r.op) {
	case FWS_OP_SUBSCRIBE:
		fws_subscribe(c, &r);
		break;
	case FWS_OP_UNSUBSCRIBE:
		fws_unsubscribe(c, &r);
		break;
	default:
		fws_tell(c, 2,
		    "op \"%s\" is not offered: hx-foxglove takes subscribe "
		    "and unsubscribe (no capabilities)",
		    r.name);
		break;
	}
}

/* A fragment of c's message: 0, or -1 to close (past the limit). */
static int
fws_receive(struct fws_client *c, const void *in, size_t len)
{
	unsigned char *p;

	if (c->too_big || c->rxlen + len > FWS_MAX_REQUEST) {
		c->too_big = 1;
		program_warn("a client at %s closed: a message over %d bytes",
		    c->addr, FWS_MAX_REQUEST);
		lws_close_reason(c->wsi, LWS_CLOSE_STATUS_MESSAGE_TOO_LARGE,
		    (unsigned char *)"message too big", 15);
		return -1;
	}
	if ((p = realloc(c->rx, c->rxlen + len + 1)) == NULL)
		return -1;
	memcpy(p + c->rxlen, in, len);
	c->rx = p;
	c->rxlen += len;
	c->rx[c->rxlen] = '\0';
	if (lws_is_final_fragment(c->wsi) &&
	    lws_remaining_packet_payload(c->wsi) == 0) {
		fws_request(c, lws_frame_is_binary(c->wsi));
		c->rxlen = 0;
	}
	return 0;
}

/* Refuse a connection with an HTTP status: 1, for the callback. */
static int
fws_refuse(struct lws *wsi, unsigned code, const char *why)
{
	char addr[64];

	fws_peer(wsi, addr, sizeof(addr));
	program_warn("a client at %s refused: %s", addr, why);
	lws_return_http_status(wsi, code, why);
	return 1;
}

/* Whether a new connection may be: the token, the count. */
static int
fws_filter(struct fws *s, struct lws *wsi)
{
	char buf[600];
	const char *token;

	if (s->o.token[0] != '\0' &&
	    ((token = lws_get_urlarg_by_name(
		  wsi, "token=", buf, (int)sizeof(buf))) == NULL ||
		!token_equal(
		    token, strlen(token), s->o.token, strlen(s->o.token))))
		return fws_refuse(wsi, HTTP_STATUS_FORBIDDEN,
		    "the daemon's token is needed: wss://HOST:PORT/?token=...");
	if (s->nclients >= s->o.max_clients)
		return fws_refuse(wsi, HTTP_STATUS_SERVICE_UNAVAILABLE,
		    "too many clients (--max-connections)");
	return 0;
}

/* The peer's address, IPv4 as IPv4 (the socket is dual-stack). */
static void
fws_peer(struct lws *wsi, char *buf, size_t len)
{
	lws_get_peer_simple(wsi, buf, len);
	if (strncmp(buf, "::ffff:", 7) == 0 && strchr(buf + 7, '.') != NULL)
		memmove(buf, buf + 7, strlen(buf + 7) + 1);
}

static void
fws_client_start(struct fws *s, struct fws_client *c, struct lws *wsi)
{
	memset(c, 0, sizeof(*c));
	c->s = s;
	c->wsi = wsi;
	STAILQ_INIT(&c->texts);
	c->progress = program_now();
	fws_peer(wsi, c->addr, sizeof(c->addr));
	TAILQ_INSERT_TAIL(&s->clients, c, entry);
	s->nclients++;
}

static void
fws_client_end(struct fws *s, struct fws_client *c)
{
	struct fws_text *t;

	if (c->s == NULL)
		return;
	while ((t = STAILQ_FIRST(&c->texts)) != NULL) {
		STAILQ_REMOVE_HEAD(&c->texts, entry);
		free(t);
	}
	free(c->rx);
	TAILQ_REMOVE(&s->clients, c, entry);
	s->nclients--;
	c->s = NULL;
}

static int
fws_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user,
    void *in, size_t len)
{
	struct fws *s = lws_context_user(lws_get_context(wsi));
	struct fws_client *c = user;

	switch (reason) {
	case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
		return fws_filter(s, wsi);
	case LWS_CALLBACK_ESTABLISHED:
		fws_client_start(s, c, wsi);
		return fws_welcome(c) == 0 ? 0 : -1;
	case LWS_CALLBACK_RECEIVE:
		return fws_receive(c, in, len);
	case LWS_CALLBACK_SERVER_WRITEABLE:
		return c->dropped ? -1 : fws_writable(c);
	case LWS_CALLBACK_CLOSED:
		fws_client_end(s, c);
		return 0;
	case LWS_CALLBACK_HTTP:
		/* A browser that opened the address: say what this is. */
		lws_return_http_status(wsi, HTTP_STATUS_BAD_REQUEST,
		    "hx-foxglove speaks the Foxglove WebSocket protocol: "
		    "open this address in Foxglove or Lichtblick");
		return -1;
	default:
		return lws_callback_http_dummy(wsi, reason, user, in, len);
	}
}

/* Bytes the kernel holds for c's socket, not yet taken by its peer. */
static int
fws_kernel_queue(struct fws_client *c)
{
	int n = 0, fd = lws_get_socket_fd(c->wsi);

	if (fd < 0 || ioctl(fd, SIOCOUTQ, &n) != 0)
		return 0;
	return n;
}

/* Drop each client owed a write that took nothing for a while. */
static void
fws_check(struct fws *s, double now)
{
	struct fws_client *c;
	int queued;

	if (now - s->checked < FWS_CHECK_SECONDS)
		return;
	s->checked = now;
	TAILQ_FOREACH(c, &s->clients, entry)
	{
		if (c->dropped || c->owed == 0)
			continue;
		queued = fws_kernel_queue(c);
		if (queued < c->queued)
			c->progress = now;
		c->queued = queued;
		if (now - c->owed < FWS_STALL_SECONDS ||
		    now - c->progress < FWS_STALL_SECONDS)
			continue;
		program_warn("a client at %s dropped: it took nothing for "
			     "%.0f s",
		    c->addr, FWS_STALL_SECONDS);
		c->dropped = 1;
		lws_set_timeout(
		    c->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
	}
}

static void
fws_timer(lws_sorted_usec_list_t *sul)
{
	struct fws *s = lws_container_of(sul, struct fws, sul);

	if (s->tick != NULL)
		s->tick(s->tick_arg);
	fws_check(s, program_now());
	lws_sul_schedule(s->ctx, 0, &s->sul, fws_timer, s->tick_us);
}

int
fws_channel(struct fws *s, const char *topic, const char *schema_name,
    const char *schema, int keep)
{
	struct fws_chan *ch;

	if (s->nch >= FWS_MAX_CHANNELS || keep < 1 || keep > FWS_MAX_KEEP)
		return -1;
	ch = &s->ch[s->nch];
	memset(ch, 0, sizeof(*ch));
	ch->topic = strdup(topic);
	ch->schema_name = strdup(schema_name);
	ch->schema = strdup(schema);
	ch->keep = keep;
	if (ch->topic == NULL || ch->schema_name == NULL || ch->schema == NULL)
		return -1;
	return s->nch++;
}

int
fws_publish(struct fws *s, int id, uint64_t ns, const void *p, size_t n)
{
	struct fws_chan *ch = &s->ch[id];
	struct fws_client *c;
	struct fws_msg *m;
	unsigned char *buf;
	int i;

	if ((buf = malloc(LWS_PRE + FWS_HEADER + n)) == NULL)
		return -1;
	memcpy(buf + LWS_PRE + FWS_HEADER, p, n);
	ch->seq++;
	m = &ch->ring[ch->seq % ch->keep];
	free(m->buf);
	m->buf = buf;
	m->len = n;
	m->seq = ch->seq;
	m->ns = ns;
	TAILQ_FOREACH(c, &s->clients, entry)
	{
		for (i = 0; i < c->nsubs; i++) {
			if (c->subs[i].ch != id)
				continue;
			if (c->owed == 0)
				c->owed = program_now();
			lws_callback_on_writable(c->wsi);
			break;
		}
	}
	return 0;
}

/* The context and its one vhost, listening. */
static int
fws_listen(struct fws *s, char *err, size_t len)
{
	struct lws_context_creation_info info;

	memset(&info, 0, sizeof(info));
	info.options = LWS_SERVER_OPTION_EXPLICIT_VHOSTS |
	    LWS_SERVER_OPTION_VALIDATE_UTF8;
	if (s->o.cert != NULL)
		info.options |= LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
	info.user = s;
	info.gid = -1;
	info.uid = -1;
	if ((s->ctx = lws_create_context(&info)) == NULL) {
		snprintf(err, len, "libwebsockets cannot start");
		return -1;
	}
	info.port = s->o.port; /* 0: the kernel chooses */
	info.iface = strcmp(s->o.host, "localhost") == 0 ? "127.0.0.1" :
							   s->o.host;
	info.protocols = s->protocols;
	info.vhost_name = "hx-foxglove";
	if (s->o.cert != NULL) {
		info.ssl_cert_filepath = s->o.cert;
		info.ssl_private_key_filepath = s->o.key != NULL ? s->o.key :
								   s->o.cert;
		info.ssl_options_set = SSL_OP_NO_TLSv1 | SSL_OP_NO_TLSv1_1 |
		    SSL_OP_NO_RENEGOTIATION;
	}
	if ((s->vh = lws_create_vhost(s->ctx, &info)) == NULL) {
		snprintf(err, len,
		    "cannot listen on %s port %d%s (in use, not an address "
		    "of this machine%s)",
		    s->o.host, s->o.port, s->o.cert != NULL ? " with TLS" : "",
		    s->o.cert != NULL ? ", or a certificate or key that does "
					"not load" :
					"");
		return -1;
	}
	return 0;
}

struct fws *
fws_new(const struct fws_options *o, char *err, size_t len)
{
	struct fws *s;

	if ((s = calloc(1, sizeof(*s))) == NULL) {
		snprintf(err, len, "out of memory");
		return NULL;
	}
	s->o = *o;
	TAILQ_INIT(&s->clients);
	snprintf(s->session, sizeof(s->session), "%.0f", program_now() * 1e9);
	s->protocols[0].name = FWS_PROTOCOL;
	s->protocols[0].callback = fws_callback;
	s->protocols[0].per_session_data_size = sizeof(struct fws_client);
	s->protocols[0].rx_buffer_size = 0;
	lws_set_log_level(LLL_ERR, fws_log);
	if (fws_listen(s, err, len) != 0) {
		fws_free(s);
		return NULL;
	}
	return s;
}

int
fws_port(const struct fws *s)
{
	return lws_get_vhost_listen_port(s->vh);
}

void
fws_run(struct fws *s, void (*tick)(void *), void *arg, int tick_us)
{
	static const int sigs[] = { SIGINT, SIGTERM, 0 };

	program_signals(fws_signal, sigs);
	s->tick = tick;
	s->tick_arg = arg;
	s->tick_us = tick_us;
	lws_sul_schedule(s->ctx, 0, &s->sul, fws_timer, tick_us);
	while (!fws_stopping) {
		if (lws_service(s->ctx, 0) < 0)
			break;
	}
	lws_sul_cancel(&s->sul);
}

void
fws_free(struct fws *s)
{
	int i, k;

	if (s == NULL)
		return;
	if (s->ctx != NULL)
		lws_context_destroy(s->ctx);
	for (i = 0; i < s->nch; i++) {
		free(s->ch[i].topic);
		free(s->ch[i].schema_name);
		free(s->ch[i].schema);
		for (k = 0; k < FWS_MAX_KEEP; k++)
			free(s->ch[i].ring[k].buf);
	}
	free(s);
}
