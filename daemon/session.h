/*
 * One client connection: its buffers, identity, counters and the call it
 * may be waiting on.  A session moves frames; it never touches MuJoCo and
 * never decodes a message (dispatch does).
 */
#ifndef HXD_SESSION_H
#define HXD_SESSION_H

#include <stddef.h>
#include <stdint.h>
#include <sys/queue.h>
#include <sys/socket.h>

struct bufferevent;
struct event;
struct daemon;
struct stream;

enum session_state {
	SESSION_HELLO,   /* connected; the first frame must be Hello */
	SESSION_READY,   /* serving requests in the order they came */
	SESSION_WAITING, /* a call waits for the API tick; input is held */
	SESSION_BUSY,    /* a long call (a batch run) works; input is held */
	SESSION_CLOSING, /* flushing a last answer; input is ignored */
	SESSION_DEAD,    /* closed; freed from the event loop */
};

enum session_transport {
	SESSION_UNIX,
	SESSION_TCP,
};

struct session;

/* Finishes a call that waited for the API tick; sends its answer. */
typedef void (*session_wait_fn)(struct session *s, uint64_t request_id);

struct session {
	TAILQ_ENTRY(session) entry;
	TAILQ_ENTRY(session) wait_entry;
	struct daemon *d;
	uint64_t id;
	enum session_state state;
	enum session_transport transport;
	char peer[128]; /* uid/pid or address:port */
	char name[64];  /* from Hello */
	int joined;     /* said Hello; others were told it joined */
	int left;       /* no longer served: its lease and streams are gone */
	double connected_at; /* daemon_now() */

	struct bufferevent *bev;
	struct event *resume_ev; /* continue reading later */
	struct event *free_ev;   /* deferred free */
	struct event *linger_ev; /* bound on CLOSING */
	struct event *hello_ev;  /* bound on HELLO */

	uint8_t *reserved; /* frame being written in place */
	uint64_t wait_id;  /* request waiting for the tick */
	session_wait_fn wait_fn;

	struct stream *stream; /* subscriptions, or NULL (stream.c) */

	uint64_t requests, errors, bytes_in, bytes_out;
};

TAILQ_HEAD(session_list, session);

/* Start serving a connected socket; takes ownership of fd. */
struct session *session_create(struct daemon *d, int fd,
    enum session_transport transport, const struct sockaddr *sa,
    socklen_t salen);

/* Queue an encoded payload of len bytes as one frame. */
void session_send_frame(struct session *s, const void *payload, size_t len);

/*
 * Reserve room for a frame of len payload bytes in the output buffer and
 * return where the payload goes; session_commit_frame() queues it.
 */
uint8_t *session_reserve_frame(struct session *s, size_t len);
void session_commit_frame(struct session *s, size_t len);

/* Close now, logging why; the memory is freed from the event loop. */
void session_close(struct session *s, const char *why);

/* Stop reading, send what is queued, then close. */
void session_close_after_flush(struct session *s, const char *why);

/* Hold input until fn answers request_id at the next API tick. */
void session_wait_tick(
    struct session *s, uint64_t request_id, session_wait_fn fn);

/* Hold input while a long call works; session_release() resumes. */
void session_hold(struct session *s);
void session_release(struct session *s);

/* Bytes queued for the client and not yet sent. */
size_t session_queued(const struct session *s);

/*
 * Return 1 when so much output waits that streams should hold back; the
 * session calls stream_session_drained() when it has gone down again.
 */
int session_congested(const struct session *s);

/* Call fn for every session being served. */
void sessions_foreach(void (*fn)(struct session *, void *), void *arg);

/* Answer every call waiting for the API tick. */
void sessions_api_tick(struct daemon *d);

/* Number of sessions being served (not those closing). */
int sessions_count(void);

/*
 * Begin a clean shutdown (the clock is paused, so no call waits for the
 * API tick any more): send each client what is queued for it and close.
 */
void sessions_shutdown(struct daemon *d);

/* Return 1 while any session is open, closing ones included. */
int sessions_open(void);

/* Close all sessions now. */
void sessions_close_all(void);

#endif
