/*
 * The transport: one client connection, its buffers, framing, identity,
 * counters and state.  A session moves whole frames; it never touches
 * MuJoCo, never decodes a message and never calls the layers above it
 * except through the hooks it was given (sessions_init).
 *
 * A session that must close is marked (CLOSING or DEAD) and is left and
 * freed on a later pass of the loop: never inside a send, never while a
 * caller up the stack still holds it.
 */
#ifndef HXD_SESSION_H
#define HXD_SESSION_H

#include <stddef.h>
#include <stdint.h>
#include <sys/queue.h>
#include <sys/socket.h>

struct ssl_st; /* OpenSSL's SSL */

struct bufferevent;
struct event;
struct daemon;
struct sessions;
struct stream;
struct session_shm;

/* The sessions' registry (d->session); sessions_free takes NULL. */
struct sessions *sessions_create(void);
void sessions_free(struct sessions *ss);

/* Only session_set_state() changes a session's state. */
enum session_state {
	SESSION_HELLO,   /* connected; the first frame must be Hello, in time */
	SESSION_READY,   /* serving requests in the order they came */
	SESSION_WAITING, /* a call waits for the API tick; input is held */
	SESSION_BUSY,    /* a long call (a batch run) works; input is held */
	SESSION_CLOSING, /* flushing what was queued; input is ignored */
	SESSION_DEAD,    /* closed; left and freed from the event loop */
};

enum session_transport {
	SESSION_UNIX,
	SESSION_TCP,
};

struct session;

/* How the transport calls the layers above it. */
struct session_hooks {
	/* A whole frame arrived on a session in HELLO or READY. */
	void (*frame)(struct session *s, const uint8_t *payload, size_t len);
	/* Tell the client why it is turned away (answers no request). */
	void (*refuse)(struct session *s, int code, const char *why);
	/* The output drained below half the congestion mark. */
	void (*drained)(struct session *s);
	/* The session is no longer served; called once, from the loop. */
	void (*left)(struct session *s);
};

struct session {
	TAILQ_ENTRY(session) entry;
	struct daemon *d;
	uint64_t id;
	enum session_state state;
	enum session_transport transport;
	char peer[128];      /* uid/pid or address:port */
	char who[64];        /* "unix uid N" or "tcp ADDRESS": loads' peer */
	long uid;            /* a Unix socket peer's user, else -1 */
	int tls;             /* TCP with TLS: bev is OpenSSL's */
	int tls_ready;       /* its handshake is done */
	int loopback;        /* TCP from 127.0.0.0/8 or ::1 */
	char name[64];       /* from Hello */
	int joined;          /* said Hello: the others know of it */
	int left;            /* the left hook has run */
	double connected_at; /* monotonic_s() */

	/*
	 * Output goes through the bufferevent; input is read with one recv()
	 * a wakeup into in (the bufferevent's read would add an ioctl and a
	 * readv), and frames are handled where they lie.  Over TLS, the
	 * bufferevent (OpenSSL's) reads too, and its input moves into in.
	 */
	struct bufferevent *bev;
	struct event *read_ev; /* the socket is readable */
	int reading;           /* read_ev is added */
	uint8_t *in;           /* input not yet handled */
	size_t in_len, in_cap;
	struct event *resume_ev; /* continue reading later */
	struct event *reap_ev;   /* deferred leave and free */
	struct event *linger_ev; /* bound on CLOSING */
	struct event *hello_ev;  /* bound on HELLO */
	struct event *stall_ev;  /* bound on a frame begun and not going on */

	uint8_t *reserved; /* frame being written in place */

	struct stream *stream; /* subscriptions, or NULL (stream.c) */

	/*
	 * Shared memory, once offered (session_offer_shm): after the
	 * Welcome, input comes from its request ring into in, and output
	 * goes from the bufferevent's buffer into its answer ring; the
	 * socket only says when the client leaves.
	 */
	struct session_shm *shm;
	int shm_held; /* waits for the client to read: then "drained" */

	uint64_t requests, errors, bytes_in, bytes_out;
};

TAILQ_HEAD(session_list, session);

/* Set the hooks every session calls; before the first session_create. */
void sessions_init(const struct session_hooks *hooks);

/*
 * Start serving a connected socket; takes ownership of fd, and of ssl
 * (TLS's state for a TCP connection; NULL in the clear).
 */
struct session *session_create(struct daemon *d, int fd,
    enum session_transport transport, const struct sockaddr *sa,
    socklen_t salen, struct ssl_st *ssl);

/*
 * Move s to state: HELLO or a held state to READY resumes reading;
 * CLOSING flushes, then shuts our side down; DEAD closes.  Leaving
 * CLOSING or DEAD again is not possible.
 */
void session_set_state(struct session *s, enum session_state state);

/* Return 1 while s is served: not closing or closed. */
int session_served(const struct session *s);

/* Queue an encoded payload of len bytes as one frame. */
void session_send_frame(struct session *s, const void *payload, size_t len);

/*
 * Reserve room for a frame of len payload bytes in the output buffer and
 * return where the payload goes; session_commit_frame() queues it.  A
 * session no longer served drops what is committed.
 */
uint8_t *session_reserve_frame(struct session *s, size_t len);
void session_commit_frame(struct session *s, size_t len);

/*
 * Offer s the shared-memory transport: make its region, and hand it over
 * beside the next frame committed, which must be the Welcome saying so.
 * Sets the ring sizes for the Welcome.  0, or -1 (logged) when shared
 * memory cannot be had: answer without it.
 */
int session_offer_shm(
    struct session *s, uint32_t *request_ring, uint32_t *answer_ring);

/* Close, logging why (NULL: say nothing); freed from the event loop. */
void session_close(struct session *s, const char *why);

/* Stop reading, send what is queued, then close. */
void session_close_after_flush(struct session *s, const char *why);

/* Tell the client why (the refuse hook), then close after the flush. */
void session_refuse(struct session *s, int code, const char *why);

/*
 * Tell the client why, as far as its socket takes it at once, and close
 * now without lingering: for a connection owed no patience.
 */
void session_drop(struct session *s, int code, const char *why);

/* Bytes queued for the client and not yet sent. */
size_t session_queued(const struct session *s);

/*
 * Return 1 when so much output waits that streams should hold back; the
 * drained hook runs when it has gone down again.
 */
int session_congested(const struct session *s);

/* Call fn for every session being served. */
void sessions_foreach(
    struct daemon *d, void (*fn)(struct session *, void *), void *arg);

/* Number of sessions being served (not those closing). */
int sessions_count(const struct daemon *d);

/* Number of those that said Hello: the clients --max-clients counts. */
int sessions_welcomed(const struct daemon *d);

/* Number of sessions on transport that have not said Hello yet. */
int sessions_handshaking(
    const struct daemon *d, enum session_transport transport);

/* The session on transport waiting longest for its Hello, or NULL. */
struct session *sessions_oldest_handshaking(
    struct daemon *d, enum session_transport transport);

/* Begin a clean shutdown: send each client what is queued, then close. */
void sessions_shutdown(struct daemon *d);

/* Return 1 while any session is not yet freed, closing ones included. */
int sessions_open(const struct daemon *d);

/* Close all sessions now. */
void sessions_close_all(struct daemon *d);

#endif
