/*
 * Client connections: framing on a socket read with one recv() a wakeup
 * and written with one send() an answer (libevent's bufferevent keeping
 * only what the socket did not take), and the session's life from accept
 * to a deferred free.  See session.h.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <malloc.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>
#include <event2/event.h>
#include <openssl/err.h>
#include <openssl/ssl.h>

#include "daemon.h"
#include "frame.h"
#include "log.h"
#include "monotonic.h"
#include "options.h"
#include "result.h"
#include "session.h"
#include "session_shm.h"
#include "shmlink.h"
#include "tls_server.h"
#include "address.h"

/* Frames handled per wakeup before other clients get a turn. */
#define SESSION_FRAMES_PER_WAKEUP 32

/* Or for this long: then the next frame waits for the others' turns. */
#define SESSION_TURN_SECONDS 0.002

/* How long a closing session may take to read its last answer. */
#define SESSION_LINGER_SECONDS 5

/*
 * The largest first frame: a Hello holds a name and a token of at most
 * DAEMON_TOKEN_MAX bytes.  Before it, nobody is trusted with more.
 */
#define SESSION_HELLO_FRAME_MAX (DAEMON_TOKEN_MAX + 4096)

/* How long a frame begun may go without a byte more: it holds memory. */
#define SESSION_STALL_SECONDS 10

/*
 * How long a new connection may take to say Hello.  Every client sends
 * it as soon as it connects; a stranger holding a handshake place gets
 * no longer than this.
 */
#define SESSION_HELLO_SECONDS 3

/* Output above this (or half of --max-queued) holds streams back. */
#define SESSION_CONGESTED_BYTES (256u * 1024)

/* Room for at least this much input before each read. */
#define SESSION_READ_BYTES 4096

/* An input buffer grown above this for a large frame is freed once empty. */
#define SESSION_INPUT_KEEP (64u * 1024)

/* What a session holds besides its input: libevent's buffers and events. */
#define SESSION_OVERHEAD 4096

/* Give the heap back to the system once sessions freed this much. */
#define SESSION_TRIM_BYTES (1024u * 1024)

static const struct session_hooks *hooks;

/* Every session, and their counts (d->session). */
struct sessions {
	struct session_list all;
	int n;                   /* served: not closing or closed */
	int welcomed;            /* served and said Hello */
	int handshaking[2];      /* in HELLO, by transport */
	uint64_t last_id;        /* the last session's id; the first is 1 */
	size_t freed_since_trim; /* bytes of sessions freed since */
};

struct sessions *
sessions_create(void)
{
	struct sessions *ss;

	if ((ss = calloc(1, sizeof(*ss))) == NULL)
		fatal("out of memory");
	TAILQ_INIT(&ss->all);
	return ss;
}

void
sessions_free(struct sessions *ss)
{
	free(ss);
}
/* The why of an ordinary leave, logged at debug level as joins are. */
static const char session_client_closed[] = "closed by the client";

static void session_read_cb(evutil_socket_t, short, void *);
static void session_tls_read_cb(struct bufferevent *, void *);
static int session_tls_pull(struct session *);
static void session_write_cb(struct bufferevent *, void *);
static void session_event_cb(struct bufferevent *, short, void *);
static void session_resume_cb(evutil_socket_t, short, void *);
static void session_reap_cb(evutil_socket_t, short, void *);
static void session_linger_cb(evutil_socket_t, short, void *);
static void session_hello_cb(evutil_socket_t, short, void *);
static void session_stall_cb(evutil_socket_t, short, void *);
static void session_watch_stall(struct session *);
static void session_process(struct session *);
static void session_shm_cb(void *);
static void session_shm_flush(struct session *);
static void session_shm_pull(struct session *);
static void session_shm_rearm(struct session *);
static void session_describe_peer(
    struct session *, int, const struct sockaddr *);
static size_t session_congestion_mark(const struct daemon *);

/*
 * Fill s->peer (uid and pid for Unix sockets, address:port for TCP),
 * s->who (the user, or the address) and s->uid.
 */
static void
session_describe_peer(struct session *s, int fd, const struct sockaddr *sa)
{
	char host[INET6_ADDRSTRLEN];
	struct ucred cred;
	socklen_t len = sizeof(cred);
	const struct sockaddr_in *sin;
	const struct sockaddr_in6 *sin6;

	s->uid = -1;
	if (s->transport == SESSION_UNIX) {
		if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0) {
			snprintf(s->peer, sizeof(s->peer), "unix uid %u pid %d",
			    (unsigned)cred.uid, (int)cred.pid);
			s->uid = (long)cred.uid;
			snprintf(s->who, sizeof(s->who), "unix uid %u",
			    (unsigned)cred.uid);
		} else {
			snprintf(s->peer, sizeof(s->peer), "unix");
			snprintf(s->who, sizeof(s->who), "unix");
		}
		return;
	}
	s->loopback = address_is_loopback(sa);
	if (sa->sa_family == AF_INET6) {
		sin6 = (const struct sockaddr_in6 *)(const void *)sa;
		inet_ntop(AF_INET6, &sin6->sin6_addr, host, sizeof(host));
		snprintf(s->peer, sizeof(s->peer), "%s [%s]:%u",
		    s->tls ? "tls" : "tcp", host, ntohs(sin6->sin6_port));
	} else {
		sin = (const struct sockaddr_in *)(const void *)sa;
		inet_ntop(AF_INET, &sin->sin_addr, host, sizeof(host));
		snprintf(s->peer, sizeof(s->peer), "%s %s:%u",
		    s->tls ? "tls" : "tcp", host, ntohs(sin->sin_port));
	}
	snprintf(s->who, sizeof(s->who), "tcp %s", host);
}

/* Watch the socket for input, or stop. */
static void
session_reading(struct session *s, int on)
{
	if (session_shm_live(s->shm)) {
		/* The socket is always read: it says when the client left. */
		s->reading = on;
		if (on)
			session_shm_rearm(s);
		else
			session_shm_busy(s->shm);
		return;
	}
	if (on == s->reading)
		return;
	if (s->tls && on)
		bufferevent_enable(s->bev, EV_READ);
	else if (s->tls)
		bufferevent_disable(s->bev, EV_READ);
	else if (on)
		event_add(s->read_ev, NULL);
	else
		event_del(s->read_ev);
	s->reading = on;
}

/* The most input held: one largest frame and then some. */
static size_t
session_input_limit(const struct session *s)
{
	/* Before Hello, no more than a Hello and a little. */
	if (s->state == SESSION_HELLO)
		return SESSION_HELLO_FRAME_MAX + FRAME_HEADER_SIZE + 4096;
	return s->d->opts->max_frame + FRAME_HEADER_SIZE + 65536;
}

/*
 * Make room to read into: SESSION_READ_BYTES, or all of a frame begun,
 * so that it comes in as few reads as the socket allows; never more
 * than the limit.  Returns 0, or -1 when the input is full.
 */
static int
session_input_room(struct session *s)
{
	size_t limit = session_input_limit(s), want, plen;
	uint8_t *p;

	want = s->in_len +
	    (session_shm_live(s->shm) ? SHMLINK_CHUNK_MAX : SESSION_READ_BYTES);
	if (s->in_len >= FRAME_HEADER_SIZE &&
	    frame_parse(s->in, s->in_len, s->d->opts->max_frame, &plen) ==
		FRAME_INCOMPLETE &&
	    FRAME_HEADER_SIZE + plen > want)
		want = FRAME_HEADER_SIZE + plen;
	if (want <= s->in_cap)
		return 0;
	if (want < 2 * s->in_cap)
		want = 2 * s->in_cap;
	if (want > limit)
		want = limit;
	if (want > s->in_cap) {
		if ((p = realloc(s->in, want)) == NULL)
			fatal("out of memory (%zu bytes of input)", want);
		s->in = p;
		s->in_cap = want;
	}
	if (session_shm_live(s->shm))
		return s->in_cap - s->in_len >= SHMLINK_CHUNK_MAX ? 0 : -1;
	return s->in_len < s->in_cap ? 0 : -1;
}

void
sessions_init(const struct session_hooks *h)
{
	hooks = h;
}

struct session *
session_create(struct daemon *d, int fd, enum session_transport transport,
    const struct sockaddr *sa, socklen_t salen, SSL *ssl)
{
	struct sessions *ss = d->session;
	struct timeval hello_tv = { SESSION_HELLO_SECONDS, 0 };
	struct session *s;
	int one = 1;

	(void)salen;
	s = calloc(1, sizeof(*s));
	if (s == NULL)
		fatal("out of memory");
	s->d = d;
	s->id = ++ss->last_id;
	s->state = SESSION_HELLO;
	s->transport = transport;
	s->connected_at = monotonic_s();
	s->tls = ssl != NULL;
	session_describe_peer(s, fd, sa);
	if (transport == SESSION_TCP)
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	evutil_make_socket_nonblocking(fd);

	if (ssl != NULL) {
		/* The handshake is counted as the Hello's: same places, time. */
		s->bev = bufferevent_openssl_socket_new(d->base, fd, ssl,
		    BUFFEREVENT_SSL_ACCEPTING, BEV_OPT_CLOSE_ON_FREE);
		if (s->bev != NULL)
			bufferevent_openssl_set_allow_dirty_shutdown(s->bev, 1);
		/* Input moves into s->in as it comes: little held here. */
		if (s->bev != NULL)
			bufferevent_setwatermark(
			    s->bev, EV_READ, 0, 16 * SESSION_READ_BYTES);
	} else {
		s->bev = bufferevent_socket_new(
		    d->base, fd, BEV_OPT_CLOSE_ON_FREE);
		s->read_ev = event_new(
		    d->base, fd, EV_READ | EV_PERSIST, session_read_cb, s);
	}
	s->resume_ev = event_new(d->base, -1, 0, session_resume_cb, s);
	s->reap_ev = event_new(d->base, -1, 0, session_reap_cb, s);
	s->linger_ev = evtimer_new(d->base, session_linger_cb, s);
	s->hello_ev = evtimer_new(d->base, session_hello_cb, s);
	s->stall_ev = evtimer_new(d->base, session_stall_cb, s);
	if (s->bev == NULL || (s->read_ev == NULL && !s->tls) ||
	    s->resume_ev == NULL || s->reap_ev == NULL ||
	    s->linger_ev == NULL || s->hello_ev == NULL || s->stall_ev == NULL)
		fatal("out of memory");
	evtimer_add(s->hello_ev, &hello_tv);
	bufferevent_setcb(s->bev, s->tls ? session_tls_read_cb : NULL,
	    session_write_cb, session_event_cb, s);
	/* Tell the streams when the output has drained well below the mark. */
	bufferevent_setwatermark(
	    s->bev, EV_WRITE, session_congestion_mark(d) / 2, 0);
	bufferevent_enable(s->bev, EV_WRITE);
	session_reading(s, 1);

	TAILQ_INSERT_TAIL(&ss->all, s, entry);
	ss->n++;
	ss->handshaking[transport]++;
	/* Joins and ordinary leaves are routine: at debug level (-v). */
	log_debug(
	    "client %llu connected (%s)", (unsigned long long)s->id, s->peer);
	return s;
}

int
sessions_count(const struct daemon *d)
{
	struct sessions *ss = d->session;

	return ss->n;
}

int
sessions_welcomed(const struct daemon *d)
{
	struct sessions *ss = d->session;

	return ss->welcomed;
}

int
sessions_handshaking(const struct daemon *d, enum session_transport transport)
{
	struct sessions *ss = d->session;

	return ss->handshaking[transport];
}

struct session *
sessions_oldest_handshaking(struct daemon *d, enum session_transport transport)
{
	struct sessions *ss = d->session;
	struct session *s;

	/* Sessions are kept in the order they connected. */
	TAILQ_FOREACH(s, &ss->all, entry)
	{
		if (s->state == SESSION_HELLO && s->transport == transport)
			return s;
	}
	return NULL;
}

void
sessions_foreach(
    struct daemon *d, void (*fn)(struct session *, void *), void *arg)
{
	struct sessions *ss = d->session;
	struct session *s, *next;

	for (s = TAILQ_FIRST(&ss->all); s != NULL; s = next) {
		next = TAILQ_NEXT(s, entry);
		if (session_served(s))
			fn(s, arg);
	}
}

/* The output level above which a client counts as congested. */
static size_t
session_congestion_mark(const struct daemon *d)
{
	size_t half = d->opts->max_queued / 2;

	return half < SESSION_CONGESTED_BYTES ? half : SESSION_CONGESTED_BYTES;
}

size_t
session_queued(const struct session *s)
{
	size_t n = evbuffer_get_length(bufferevent_get_output(s->bev));

	if (session_shm_live(s->shm))
		n += session_shm_unread(s->shm);
	return n;
}

/* Queue the frame reserved (total bytes, header included) as output. */
static void
session_output_commit(struct session *s, size_t total)
{
	struct evbuffer_iovec vec = { s->reserved, total };

	if (evbuffer_commit_space(bufferevent_get_output(s->bev), &vec, 1) != 0)
		fatal("cannot commit a frame to the output buffer");
	s->reserved = NULL;
}

/*
 * Drop n bytes from the front of the output: a socket bufferevent keeps
 * it frozen outside its own write handler.
 */
static void
session_output_drain(struct session *s, size_t n)
{
	struct evbuffer *out = bufferevent_get_output(s->bev);

	evbuffer_unfreeze(out, 1);
	evbuffer_drain(out, n);
	evbuffer_freeze(out, 1);
}

int
session_congested(const struct session *s)
{
	return session_queued(s) >= session_congestion_mark(s->d);
}

uint8_t *
session_reserve_frame(struct session *s, size_t len)
{
	struct evbuffer *out = bufferevent_get_output(s->bev);
	struct evbuffer_iovec vec;

	if (evbuffer_reserve_space(
		out, (ev_ssize_t)(len + FRAME_HEADER_SIZE), &vec, 1) != 1)
		fatal("out of memory (%zu-byte frame)", len);
	s->reserved = vec.iov_base;
	frame_put_header(s->reserved, (uint32_t)len);
	return s->reserved + FRAME_HEADER_SIZE;
}

void
session_commit_frame(struct session *s, size_t len)
{
	struct evbuffer *out = bufferevent_get_output(s->bev);
	size_t queued, total = len + FRAME_HEADER_SIZE;
	ssize_t sent = 0;
	char why[128];
	int early;

	if (!session_served(s)) {
		/* Closing: what was queued goes; nothing new joins it. */
		s->reserved = NULL;
		return;
	}
	if (s->shm != NULL && !session_shm_live(s->shm)) {
		/* The Welcome: the region goes beside its first byte. */
		s->bytes_out += total;
		if (evbuffer_get_length(out) != 0 ||
		    session_shm_handover(s->shm, bufferevent_getfd(s->bev),
			s->reserved, total, why, sizeof(why)) != 0) {
			s->reserved = NULL;
			session_close(s,
			    evbuffer_get_length(out) != 0 ?
				"output before its Welcome" :
				why);
			return;
		}
		s->reserved = NULL;
		bufferevent_disable(s->bev, EV_WRITE);
		event_add(s->read_ev, NULL); /* the client's end, from now on */
		/* hxctl clients shows it; the logs too. */
		queued = strlen(s->peer);
		snprintf(s->peer + queued, sizeof(s->peer) - queued, ", shm");
		log_debug("client %llu: frames in shared memory",
		    (unsigned long long)s->id);
		session_reading(s, s->reading);
		return;
	}
	if (session_shm_live(s->shm)) {
		s->bytes_out += total;
		if (evbuffer_get_length(out) == 0) {
			sent = session_shm_write(s->shm, s->reserved, total);
			if (sent == (ssize_t)total) {
				s->reserved = NULL;
				/* Full enough to hold streams: ask to hear. */
				if (session_congested(s))
					session_shm_flush(s);
				return;
			}
		}
		session_output_commit(s, total);
		if (sent > 0)
			session_output_drain(s, (size_t)sent);
		if (sent >= 0)
			session_shm_flush(s);
		else
			session_close(s, "it broke its shared-memory ring");
		goto limit;
	}
	/*
	 * Nothing was waiting: send it now with one send() from where it was
	 * written, not after the loop's next poll and whatever a clock tick
	 * or batch slice does before that.  Sent whole, it never enters the
	 * output buffer (the space reserved is simply not committed).  What
	 * the socket does not take waits for the bufferevent as usual.  A
	 * socket bufferevent keeps the start of its output frozen except in
	 * its own write handler; the drain of what went is that handler's,
	 * done early.  Its write event is armed only for such a rest: armed
	 * for a frame that has gone, it costs every answer two epoll_ctl
	 * calls and a loop pass that finds nothing to write.  With the
	 * output empty the event is not pending, so disabling it makes no
	 * system call.  An error shows at the bufferevent's own write.
	 */
	early = !s->tls && evbuffer_get_length(out) == 0;
	s->bytes_out += total;
	if (early) {
		sent = send(bufferevent_getfd(s->bev), s->reserved, total,
		    MSG_DONTWAIT | MSG_NOSIGNAL);
		if (sent == (ssize_t)total) {
			s->reserved = NULL;
			return;
		}
		if (sent < 0)
			sent = 0;
		bufferevent_disable(s->bev, EV_WRITE);
	}
	session_output_commit(s, total);
	if (early) {
		session_output_drain(s, (size_t)sent);
		bufferevent_enable(s->bev, EV_WRITE);
	}
limit:
	queued = session_queued(s);
	if (session_served(s) && queued > s->d->opts->max_queued) {
		snprintf(why, sizeof(why),
		    "not reading its answers (%zu "
		    "bytes queued, limit %zu)",
		    queued, s->d->opts->max_queued);
		session_close(s, why);
	}
}

void
session_send_frame(struct session *s, const void *payload, size_t len)
{
	memcpy(session_reserve_frame(s, len), payload, len);
	session_commit_frame(s, len);
}

/*
 * Hand as many whole frames as allowed to the frame hook, where they lie
 * in the input; keep the rest at the front.
 */
static void
session_process(struct session *s)
{
	static uint8_t empty[1];
	struct timeval now = { 0, 0 };
	double start = monotonic_s();
	size_t off = 0, avail, plen;
	int n, more = 0, pulled_more = 0;
	char why[160];

	if (s->tls)
		pulled_more = session_tls_pull(s);
	for (n = 0; n < SESSION_FRAMES_PER_WAKEUP; n++) {
		if (s->state != SESSION_HELLO && s->state != SESSION_READY)
			goto done;
		/* Costly calls (step 10000) end a client's turn early. */
		if (n > 0 && monotonic_s() - start > SESSION_TURN_SECONDS)
			break;
		avail = s->in_len - off;
		if (avail < FRAME_HEADER_SIZE)
			goto done;
		switch (frame_parse(s->in + off, avail,
		    s->state == SESSION_HELLO ? SESSION_HELLO_FRAME_MAX :
						s->d->opts->max_frame,
		    &plen)) {
		case FRAME_INCOMPLETE:
			goto done;
		case FRAME_OVERSIZE:
			if (s->state == SESSION_HELLO)
				snprintf(why, sizeof(why),
				    "a first frame of %zu bytes: a Hello "
				    "takes at most %d",
				    plen, SESSION_HELLO_FRAME_MAX);
			else
				snprintf(why, sizeof(why),
				    "frame of %zu bytes exceeds "
				    "the limit of %zu bytes",
				    plen, s->d->opts->max_frame);
			session_refuse(s, RESULT_BADPROTOCOL, why);
			goto done;
		case FRAME_READY:
			break;
		}
		s->bytes_in += plen + FRAME_HEADER_SIZE;
		/* Nothing moves the input while the hook works. */
		hooks->frame(s,
		    plen == 0 ? empty : s->in + off + FRAME_HEADER_SIZE, plen);
		off += FRAME_HEADER_SIZE + plen;
	}
	more = 1;
done:
	/* Over TLS, input may wait in the bufferevent for room here. */
	if (pulled_more && off != 0 &&
	    (s->state == SESSION_HELLO || s->state == SESSION_READY))
		more = 1;
	if (off != 0) {
		s->in_len -= off;
		memmove(s->in, s->in + off, s->in_len);
	}
	if (s->in_len == 0 && s->in_cap > SESSION_INPUT_KEEP) {
		free(s->in);
		s->in = NULL;
		s->in_cap = 0;
	}
	/* Input stopped at the limit goes on once there is room again. */
	if (session_served(s) && s->in_len < session_input_limit(s))
		session_reading(s, 1);
	session_watch_stall(s);
	/*
	 * More may be waiting: give the others a turn first.  A timer, not
	 * event_active(): it fires after the loop has polled the sockets,
	 * so a client with a long queue cannot keep the others unread.
	 */
	if (more)
		evtimer_add(s->resume_ev, &now);
}

/*
 * After a read: a frame begun and not whole, on a session that would
 * handle it, must go on within SESSION_STALL_SECONDS of the last byte;
 * the deadline moves with every read.  Frames held while a call waits
 * are not the client's stall.
 */
static void
session_watch_stall(struct session *s)
{
	struct timeval tv = { SESSION_STALL_SECONDS, 0 };

	if (s->in_len != 0 &&
	    (s->state == SESSION_HELLO || s->state == SESSION_READY))
		evtimer_add(s->stall_ev, &tv);
	else
		event_del(s->stall_ev);
}

static void
session_stall_cb(evutil_socket_t fd, short events, void *arg)
{
	struct session *s = arg;
	char why[96];

	if (s->in_len == 0 ||
	    (s->state != SESSION_HELLO && s->state != SESSION_READY))
		return;
	snprintf(why, sizeof(why),
	    "a frame begun had no byte more for %d seconds",
	    SESSION_STALL_SECONDS);
	session_refuse(s, RESULT_BADPROTOCOL, why);
}

/*
 * The socket is readable: one recv() into the input, then the frames.
 * While closing, what the client still sends is discarded, and its end
 * of the connection awaited.
 */
static void
session_read_cb(evutil_socket_t fd, short events, void *arg)
{
	struct session *s = arg;
	char why[160];
	ssize_t n;

	if (session_shm_live(s->shm)) {
		uint8_t junk[512];

		/* Shared memory carries the frames: the socket, none. */
		n = recv(fd, junk, sizeof(junk), 0);
		if (n > 0 && s->state != SESSION_CLOSING)
			session_refuse(s, RESULT_BADPROTOCOL,
			    "bytes on the socket of a shared-memory session");
		if (n > 0 ||
		    (n < 0 &&
			(errno == EAGAIN || errno == EWOULDBLOCK ||
			    errno == EINTR)))
			return;
		goto gone;
	}
	if (s->state == SESSION_CLOSING)
		s->in_len = 0;
	if (session_input_room(s) != 0) {
		session_reading(s, 0); /* full: until a frame is handled */
		return;
	}
	n = recv(fd, s->in + s->in_len, s->in_cap - s->in_len, 0);
	if (n > 0) {
		s->in_len += (size_t)n;
		if (s->state == SESSION_CLOSING)
			s->in_len = 0;
		else
			session_process(s);
		return;
	}
	if (n < 0 &&
	    (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
		return;
gone:
	if (n == 0 && s->state == SESSION_CLOSING)
		session_close(s, NULL); /* the end of a lingering close */
	else if (n == 0)
		session_close(s, session_client_closed);
	else {
		snprintf(
		    why, sizeof(why), "connection error: %s", strerror(errno));
		session_close(s, why);
	}
}

/*
 * Over TLS: move what OpenSSL's bufferevent decrypted into s->in, as
 * much as fits.  Returns 1 if some had to stay there.
 */
static int
session_tls_pull(struct session *s)
{
	struct evbuffer *input = bufferevent_get_input(s->bev);
	int n;

	if (s->state == SESSION_CLOSING) {
		evbuffer_drain(input, evbuffer_get_length(input));
		return 0;
	}
	while (evbuffer_get_length(input) != 0) {
		if (session_input_room(s) != 0) {
			session_reading(
			    s, 0); /* full: until a frame is handled */
			return 1;
		}
		n = evbuffer_remove(
		    input, s->in + s->in_len, s->in_cap - s->in_len);
		if (n <= 0)
			break;
		s->in_len += (size_t)n;
	}
	return 0;
}

/* TLS records came and were decrypted: the frames. */
static void
session_tls_read_cb(struct bufferevent *bev, void *arg)
{
	struct session *s = arg;

	if (s->state == SESSION_CLOSING)
		session_tls_pull(s);
	else
		session_process(s);
}

static void
session_resume_cb(evutil_socket_t fd, short events, void *arg)
{
	struct session *s = arg;

	if (session_shm_live(s->shm))
		session_shm_pull(s);
	else
		session_process(s);
}

int
session_offer_shm(
    struct session *s, uint32_t *request_ring, uint32_t *answer_ring)
{
	char why[256];

	if (s->transport != SESSION_UNIX || s->shm != NULL)
		return -1;
	s->shm = session_shm_new(s->d->base, session_shm_cb, s, request_ring,
	    answer_ring, why, sizeof(why));
	if (s->shm == NULL) {
		log_warn("client %llu: no shared memory: %s",
		    (unsigned long long)s->id, why);
		return -1;
	}
	return 0;
}

/*
 * The client woke us (it read answers, or wrote requests), or, while we
 * linger, the loop came round.  A client in lock-step sends its next
 * request microseconds after reading an answer: rather than sleep in the
 * loop and be woken again (a pipe's write, and the wakeup of an idle
 * CPU, tens of microseconds on a virtual machine), the daemon lingers a
 * little (session_shm_linger): the loop polls on without sleeping,
 * everything else due runs in its order, and this callback looks at the
 * ring on each turn.
 */
static void
session_shm_cb(void *arg)
{
	struct session *s = arg;
	uint64_t answered = s->bytes_out;

	if (session_shm_deaf(s->shm)) {
		char b;

		/* A client leaving closes both; one closing the pipe alone. */
		session_close(s,
		    recv(bufferevent_getfd(s->bev), &b, 1,
			MSG_PEEK | MSG_DONTWAIT) == 0 ?
			session_client_closed :
			"it closed its end of the wake pipe");
		return;
	}
	session_shm_flush(s);
	session_shm_pull(s);
	if (s->bytes_out != answered && session_served(s) &&
	    s->state == SESSION_READY && s->reading)
		session_shm_linger(s->shm);
}

/*
 * Move queued output into the answer ring, as much as it takes.  When
 * it is full, or so full that streams hold back, ask the client to wake
 * us once it has read.  Closing, the last byte in the ring ends it as
 * the socket's last byte sent would.
 */
static void
session_shm_flush(struct session *s)
{
	struct evbuffer *out = bufferevent_get_output(s->bev);
	size_t len, mark = session_congestion_mark(s->d) / 2;
	int had = evbuffer_get_length(out) != 0;
	ssize_t n;

	if (s->state == SESSION_DEAD)
		return;
	while ((len = evbuffer_get_length(out)) != 0) {
		if (len > SHMLINK_CHUNK_MAX)
			len = SHMLINK_CHUNK_MAX;
		n = session_shm_write(
		    s->shm, evbuffer_pullup(out, (ssize_t)len), len);
		if (n < 0) {
			session_close(s, "it broke its shared-memory ring");
			return;
		}
		if (n > 0)
			session_output_drain(s, (size_t)n);
		if ((size_t)n < len &&
		    !session_shm_want_room(s->shm, SESSION_SHM_ROOM))
			break;
	}
	if (s->state == SESSION_CLOSING) {
		if (evbuffer_get_length(out) == 0)
			session_write_cb(s->bev, s);
		return;
	}
	if (evbuffer_get_length(out) != 0)
		return;
	/* Streams held back go on once the client has read enough. */
	if (session_queued(s) > mark && !session_shm_want_room(s->shm, mark)) {
		s->shm_held = 1;
		return;
	}
	if (had || s->shm_held) {
		s->shm_held = 0;
		hooks->drained(s);
	}
}

/*
 * Read what the request ring holds into the input (copied out before
 * anything looks at it: the client can change the ring at any time),
 * then handle the frames as from a socket.
 */
static void
session_shm_pull(struct session *s)
{
	char why[96];
	ssize_t n;

	if (s->reading &&
	    (s->state == SESSION_HELLO || s->state == SESSION_READY)) {
		if (session_input_room(s) != 0)
			s->reading = 0; /* full: until a frame is handled */
		else {
			n = session_shm_read(
			    s->shm, s->in + s->in_len, s->in_cap - s->in_len);
			if (n < 0) {
				snprintf(why, sizeof(why),
				    "it broke its shared-memory ring "
				    "(positions or a chunk's size)");
				session_refuse(s, RESULT_BADPROTOCOL, why);
				return;
			}
			s->in_len += (size_t)n;
		}
	}
	if (session_served(s))
		session_process(s);
	if (session_served(s))
		session_shm_rearm(s);
}

/*
 * While input is read: go idle on the request ring, or, if a chunk came
 * meanwhile, pull it on the loop's next turn.
 */
static void
session_shm_rearm(struct session *s)
{
	struct timeval now = { 0, 0 };

	if (!s->reading || !session_served(s) ||
	    (s->state != SESSION_HELLO && s->state != SESSION_READY))
		return;
	if (session_shm_idle(s->shm))
		evtimer_add(s->resume_ev, &now);
}

/*
 * Output went out.  Serving, tell the streams.  While closing, once the
 * last answer has left, shut down our side and wait for the client's
 * end: closing with its bytes unread would reset the connection and
 * could destroy the answer in flight.
 */
static void
session_write_cb(struct bufferevent *bev, void *arg)
{
	struct session *s = arg;

	if (s->state != SESSION_CLOSING) {
		if (session_served(s))
			hooks->drained(s);
		return;
	}
	if (evbuffer_get_length(bufferevent_get_output(bev)) != 0)
		return;
	if (s->tls)
		SSL_shutdown(
		    bufferevent_openssl_get_ssl(bev)); /* its goodbye */
	shutdown(bufferevent_getfd(bev), SHUT_WR);
	bufferevent_setcb(bev, NULL, NULL, session_event_cb, s);
	session_reading(s, 1);
}

/*
 * Why a TLS connection broke, from OpenSSL's errors ("wrong version
 * number" for a client in the clear, "peer did not return a
 * certificate" without the client certificate asked for).  Returns 0
 * when OpenSSL has none: the socket's error says it.
 */
static int
session_tls_error(struct session *s, char *why, size_t len)
{
	unsigned long e, first = 0, code = 0;
	char reason[120];

	/* OpenSSL's errors, or libevent's SSL_get_error() code alone. */
	while ((e = bufferevent_get_openssl_error(s->bev)) != 0) {
		if (e > 0xff && first == 0)
			first = e;
		else if (e <= 0xff)
			code = e;
	}
	if (first != 0)
		tls_server_reason(first, reason, sizeof(reason));
	else if (code == SSL_ERROR_SSL)
		snprintf(reason, sizeof(reason), "not TLS, or broken");
	else
		return 0;
	snprintf(why, len, "TLS %s: %s",
	    s->tls_ready ? "error" : "handshake failed", reason);
	return 1;
}

static void
session_event_cb(struct bufferevent *bev, short events, void *arg)
{
	struct session *s = arg;
	char why[160];

	if (events & BEV_EVENT_CONNECTED) {
		s->tls_ready = 1; /* the TLS handshake is done */
		return;
	}
	if (s->tls && (events & BEV_EVENT_ERROR) &&
	    session_tls_error(s, why, sizeof(why)))
		session_close(s, why);
	else if ((events & BEV_EVENT_EOF) && s->state == SESSION_CLOSING)
		session_close(s, NULL); /* the end of a lingering close */
	else if (events & BEV_EVENT_EOF)
		session_close(s, session_client_closed);
	else if (events & BEV_EVENT_ERROR) {
		snprintf(why, sizeof(why), "connection error: %s",
		    evutil_socket_error_to_string(EVUTIL_SOCKET_ERROR()));
		session_close(s, why);
	}
}

static void
session_linger_cb(evutil_socket_t fd, short events, void *arg)
{
	session_close(arg, "did not close its end in time");
}

static void
session_hello_cb(evutil_socket_t fd, short events, void *arg)
{
	struct session *s = arg;
	char why[64];

	if (s->state != SESSION_HELLO)
		return;
	snprintf(why, sizeof(why), "no Hello within %d seconds",
	    SESSION_HELLO_SECONDS);
	session_refuse(s, RESULT_BADPROTOCOL, why);
}

int
session_served(const struct session *s)
{
	return s->state < SESSION_CLOSING;
}

void
session_set_state(struct session *s, enum session_state state)
{
	struct sessions *ss = s->d->session;
	struct timeval linger = { SESSION_LINGER_SECONDS, 0 };
	enum session_state was = s->state;

	if (was == state || was == SESSION_DEAD ||
	    (was == SESSION_CLOSING && state != SESSION_DEAD))
		return;
	s->state = state;
	if (was == SESSION_HELLO)
		ss->handshaking[s->transport]--;
	if (was < SESSION_CLOSING && state >= SESSION_CLOSING) {
		ss->n--; /* its place is free for the next client */
		if (s->joined)
			ss->welcomed--;
	}
	if (state >= SESSION_CLOSING) /* leave, then free once dead */
		event_active(s->reap_ev, EV_TIMEOUT, 0);
	switch (state) {
	case SESSION_HELLO:
		break;
	case SESSION_READY:
		if (was == SESSION_HELLO) {
			s->joined = 1;
			ss->welcomed++;
			event_del(s->hello_ev);
		} else
			event_active(s->resume_ev, EV_TIMEOUT, 0);
		break;
	case SESSION_WAITING:
	case SESSION_BUSY:
		break; /* session_process reads nothing in these */
	case SESSION_CLOSING:
		session_reading(s, 0);
		event_del(s->stall_ev);
		bufferevent_setcb(
		    s->bev, NULL, session_write_cb, session_event_cb, s);
		event_del(s->resume_ev);
		event_del(s->hello_ev);
		evtimer_add(s->linger_ev, &linger);
		session_write_cb(s->bev, s);
		break;
	case SESSION_DEAD:
		session_reading(s, 0);
		event_del(s->stall_ev);
		bufferevent_disable(s->bev, EV_WRITE);
		event_del(s->resume_ev);
		event_del(s->linger_ev);
		event_del(s->hello_ev);
		break;
	}
}

/* The name a log line gives s. */
static const char *
session_label(const struct session *s)
{
	return s->name[0] != '\0' ? s->name : s->peer;
}

void
session_close_after_flush(struct session *s, const char *why)
{
	if (!session_served(s))
		return;
	if (s->tls && !s->tls_ready) {
		/* No answer can go before the handshake: just close. */
		session_close(s, why);
		return;
	}
	log_info("client %llu (%s): closing: %s", (unsigned long long)s->id,
	    session_label(s), why);
	session_set_state(s, SESSION_CLOSING);
}

void
session_close(struct session *s, const char *why)
{
	if (s->state == SESSION_DEAD)
		return;
	if (why == session_client_closed)
		log_debug("client %llu (%s) disconnected: %s",
		    (unsigned long long)s->id, session_label(s), why);
	else if (why != NULL)
		log_info("client %llu (%s) disconnected: %s",
		    (unsigned long long)s->id, session_label(s), why);
	session_set_state(s, SESSION_DEAD);
}

void
session_refuse(struct session *s, int code, const char *why)
{
	if (!session_served(s))
		return;
	hooks->refuse(s, code, why);
	session_close_after_flush(s, why);
}

void
session_drop(struct session *s, int code, const char *why)
{
	if (!session_served(s))
		return;
	/* An empty output goes out at once; only what the socket takes. */
	hooks->refuse(s, code, why);
	session_close(s, why);
}

/*
 * The loop's turn after s closed: it leaves (once: its calls, streams,
 * lease and the rest go), and a closed one is freed.
 */
static void
session_reap_cb(evutil_socket_t fd, short events, void *arg)
{
	struct session *s = arg;
	struct daemon *d = s->d;
	struct sessions *ss = d->session;

	if (!s->left) {
		s->left = 1;
		hooks->left(s);
	}
	if (s->state != SESSION_DEAD)
		return;
	TAILQ_REMOVE(&ss->all, s, entry);
	if (s->read_ev != NULL)
		event_free(
		    s->read_ev); /* before the socket closes with the bev */
	session_shm_free(s->shm);
	bufferevent_free(s->bev);
	free(s->in);
	event_free(s->resume_ev);
	event_free(s->linger_ev);
	event_free(s->hello_ev);
	event_free(s->stall_ev);
	event_free(s->reap_ev);
	ss->freed_since_trim += s->in_cap + sizeof(*s) + SESSION_OVERHEAD;
	free(s);
	/*
	 * A flood of connections leaves their memory freed but resident,
	 * scattered over the heap where glibc does not give it back by
	 * itself: give it back, not on every close but every megabyte.
	 */
	if (ss->freed_since_trim >= SESSION_TRIM_BYTES) {
		malloc_trim(0);
		ss->freed_since_trim = 0;
	}
}

void
sessions_shutdown(struct daemon *d)
{
	struct sessions *ss = d->session;
	struct session *s, *next;

	for (s = TAILQ_FIRST(&ss->all); s != NULL; s = next) {
		next = TAILQ_NEXT(s, entry);
		session_close_after_flush(s, "the server is shutting down");
	}
}

int
sessions_open(const struct daemon *d)
{
	struct sessions *ss = d->session;

	return !TAILQ_EMPTY(&ss->all);
}

void
sessions_close_all(struct daemon *d)
{
	struct sessions *ss = d->session;
	struct session *s;

	TAILQ_FOREACH(s, &ss->all, entry)
	session_close(s, "the server is shutting down");
}
