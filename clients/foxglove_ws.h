/*
 * hx-foxglove's WebSocket server (foxglove_ws.c): the Foxglove WebSocket
 * protocol (subprotocol foxglove.websocket.v1) on libwebsockets' own
 * loop.  It knows channels and messages, not what they hold: whoever
 * publishes (foxglove_live.c) gives it JSON.  It includes no MuJoCo.
 */
#ifndef HX_FOXGLOVE_WS_H
#define HX_FOXGLOVE_WS_H

#include <stddef.h>
#include <stdint.h>

/* A client's text message past this closes its connection (1009). */
#define FWS_MAX_REQUEST (64 * 1024)
/* Subscriptions one client may hold at once. */
#define FWS_MAX_SUBSCRIPTIONS 64
/* Channels, and the messages a log channel keeps for late readers. */
#define FWS_MAX_CHANNELS 16
#define FWS_MAX_KEEP 64

struct fws;

struct fws_options {
	const char *host;  /* numeric, or "localhost" */
	int port;          /* 0: the kernel's choice */
	const char *cert;  /* wss://: the certificate chain (PEM); else NULL */
	const char *key;   /* its key (PEM); NULL: in cert's file */
	const char *token; /* required in the URL (?token=); "" none */
	int max_clients;
	const char *name; /* the serverInfo's name */
};

/*
 * Listen as o says; NULL with the reason in err (the address taken, a
 * certificate that does not load).
 */
struct fws *fws_new(const struct fws_options *o, char *err, size_t len);
void fws_free(struct fws *s);

/* The port listened on (port 0 given: the kernel's). */
int fws_port(const struct fws *s);

/*
 * Add a channel before the loop runs: its id, or -1.  keep is how many
 * of its newest messages wait for a reader: 1 for a state (a reader
 * that falls behind gets the newest), more for a log (each message, as
 * long as the reader is less than keep behind).
 */
int fws_channel(struct fws *s, const char *topic, const char *schema_name,
    const char *schema, int keep);

/*
 * A message on channel ch at ns (nanoseconds since the epoch), its
 * payload copied: 0, or -1 out of memory.
 */
int fws_publish(struct fws *s, int ch, uint64_t ns, const void *p, size_t n);

/* A status to every client: level 0 info, 1 warning, 2 error. */
void fws_status(struct fws *s, int level, const char *message);

/*
 * Serve until SIGINT or SIGTERM, calling tick every tick_us
 * microseconds from the loop.
 */
void fws_run(struct fws *s, void (*tick)(void *), void *arg, int tick_us);

/*
 * The client's request in text, parsed (foxglove_ws_parse.c): the op
 * and its subscriptions, or the reason it is refused.
 */
enum fws_op {
	FWS_OP_SUBSCRIBE,
	FWS_OP_UNSUBSCRIBE,
	FWS_OP_OTHER, /* a well-formed op this server does not offer */
};

struct fws_request {
	enum fws_op op;
	char name[64]; /* the op as sent */
	int n;
	struct {
		long long id, channel; /* unsubscribe: id only */
	} sub[FWS_MAX_SUBSCRIPTIONS];
};

/* 0, or -1 with why in err. */
int fws_parse(const char *text, size_t len, struct fws_request *r, char *err,
    size_t errlen);

#endif
