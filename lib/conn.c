/* One client connection to haptixd: see conn.h. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "conn.h"
#include "envelope.h"
#include "fdpass.h"
#include "frame.h"
#include "tls_client.h"
#include "token.h"

#define CONN_TOKEN_MAX 4096

static int conn_open_socket(hxd_conn *);
static int conn_tls_start(hxd_conn *, int64_t);
static const char *conn_tls_hint(const hxd_conn *);
static int conn_tls_wait(hxd_conn *, ssize_t, int64_t);
static int conn_wait(hxd_conn *, int, int64_t);
static ssize_t conn_write_some(
    hxd_conn *, const uint8_t *, size_t, short *, char *, size_t);
static int conn_send_all(hxd_conn *, const uint8_t *, size_t, int64_t);
static int conn_read_frame(hxd_conn *, int64_t, int, Response **);
static int conn_recv_timeout(hxd_conn *, int64_t);
static ssize_t conn_recv(hxd_conn *, int64_t, int);
static int conn_hello(hxd_conn *, const char *);
static int conn_read_token(hxd_conn *, uint8_t *, size_t *);
static int conn_token_in_clear(hxd_conn *);
static int conn_foreign(hxd_conn *);

/* Later calls say NOCONNECTION. */
void
conn_drop(hxd_conn *c)
{
	conn_shm_free(c);
	tls_client_free(c->tls);
	c->tls = NULL;
	if (c->fd != -1)
		close(c->fd);
	c->fd = -1;
	c->rlen = 0;
}

/*
 * Wait until fd is ready for events or the deadline (ms on the monotonic
 * clock, -1 for none) passes.  Returns 1 when ready, 0 on timeout, -1 on
 * error with errno set.
 */
static int
conn_wait(hxd_conn *c, int events, int64_t deadline)
{
	struct pollfd pfd = { .fd = c->fd, .events = (short)events };

	return conn_poll(&pfd, 1, deadline);
}

/*
 * Bound the blocking recv() of an answer by the deadline (ms on the
 * monotonic clock, -1 for none) with SO_RCVTIMEO, set only when the
 * socket's differs by more than a millisecond: a call is then one send()
 * and one recv(), as a bare blocking client's, where poll() before
 * recv() made it three system calls.  The option counts in the kernel's
 * ticks (4 ms at 250 Hz): precise enough for a call's timeout, not for
 * the waits of conn_next_event(), which poll.  Returns 0, or -1 when no
 * time is left or the option cannot be set.
 */
static int
conn_recv_timeout(hxd_conn *c, int64_t deadline)
{
	struct timeval tv;
	int64_t left = 0;

	if (deadline >= 0) {
		left = deadline - conn_now_ms();
		if (left <= 0)
			return -1;
		if (c->rcvtimeo_ms > 0 && c->rcvtimeo_ms - left <= 1 &&
		    left - c->rcvtimeo_ms <= 1)
			return 0;
	} else if (c->rcvtimeo_ms == 0)
		return 0;
	tv.tv_sec = (time_t)(left / 1000);
	tv.tv_usec = (suseconds_t)(left % 1000 * 1000);
	if (setsockopt(c->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) != 0)
		return -1;
	c->rcvtimeo_ms = left;
	return 0;
}

/* Create the socket and connect it, bounded by the timeout. */
static int
conn_open_socket(hxd_conn *c)
{
	struct sockaddr_un sun;
	struct addrinfo hints, *res = NULL, *ai;
	char where[400];
	int fd = -1, rc, err = 0, one = 1;
	socklen_t len;
	int64_t deadline = c->timeout_ms > 0 ? conn_now_ms() + c->timeout_ms :
					       -1;

	address_format(&c->addr, where, sizeof(where));
	if (c->addr.kind == ADDRESS_UNIX) {
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd == -1)
			return conn_fail(
			    c, HXD_NOCONNECTION, "socket: %s", strerror(errno));
		memset(&sun, 0, sizeof(sun));
		sun.sun_family = AF_UNIX;
		memcpy(sun.sun_path, c->addr.path, strlen(c->addr.path));
		if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == -1) {
			err = errno;
			close(fd);
			return conn_fail(c, HXD_NOCONNECTION,
			    "no server at %s: %s", where, strerror(err));
		}
		c->fd = fd;
		return HXD_OK;
	}

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	rc = getaddrinfo(c->addr.host, c->addr.port, &hints, &res);
	if (rc != 0)
		return conn_fail(c, HXD_NOCONNECTION, "no server at %s: %s",
		    where, gai_strerror(rc));
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		fd = socket(ai->ai_family,
		    ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK,
		    ai->ai_protocol);
		if (fd == -1) {
			err = errno;
			continue;
		}
		if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
			break;
		err = errno;
		if (err == EINPROGRESS) {
			c->fd = fd;
			rc = conn_wait(c, POLLOUT, deadline);
			c->fd = -1;
			len = sizeof(err);
			if (rc == 1 &&
			    getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) ==
				0 &&
			    err == 0)
				break;
			if (rc == 0)
				err = ETIMEDOUT;
		}
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd == -1)
		return conn_fail(c, HXD_NOCONNECTION, "no server at %s: %s",
		    where, strerror(err));
	/* Blocking from here on; poll() bounds every wait. */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	c->fd = fd;
	return c->addr.tls ? conn_tls_start(c, deadline) : HXD_OK;
}

/*
 * Before Welcome, a plain TCP connection the server broke may have met a
 * TLS port: a hint to add to the error.
 */
static const char *
conn_tls_hint(const hxd_conn *c)
{
	if (c->session_id == 0 && c->addr.kind == ADDRESS_TCP && !c->addr.tls)
		return " (or a TLS port: then use tls:HOST:PORT)";
	return "";
}

/*
 * Wait for what a TLS call wants (rc, a TLS_CLIENT_* code): 1 when the
 * socket is ready, 0 at the deadline, -1 at an error (errno; the TLS
 * error's text is tls_client_error()).
 */
static int
conn_tls_wait(hxd_conn *c, ssize_t rc, int64_t deadline)
{
	if (rc == TLS_CLIENT_WANT_READ)
		return conn_wait(c, POLLIN, deadline);
	if (rc == TLS_CLIENT_WANT_WRITE)
		return conn_wait(c, POLLOUT, deadline);
	return -1;
}

/* The TLS handshake of a tls: address, bounded by the deadline. */
static int
conn_tls_start(hxd_conn *c, int64_t deadline)
{
	char err[512];
	int rc;

	c->tls = tls_client_new(c->fd, c->addr.host, err, sizeof(err));
	if (c->tls == NULL) {
		conn_drop(c);
		return conn_fail(
		    c, HXD_NOCONNECTION, "TLS with %s: %s", c->addr_text, err);
	}
	while ((rc = tls_client_handshake(c->tls)) != 0) {
		rc = conn_tls_wait(c, rc, deadline);
		if (rc == 1)
			continue;
		snprintf(err, sizeof(err), "%s",
		    rc == 0 ? "no TLS handshake within the timeout: is this a "
			      "TLS port?" :
			      tls_client_error(c->tls));
		conn_drop(c);
		return conn_fail(
		    c, HXD_NOCONNECTION, "TLS with %s: %s", c->addr_text, err);
	}
	return HXD_OK;
}

/*
 * Write what the socket takes now, over TLS or not: the bytes written;
 * or 0, with in *want the poll event to wait for (0: try again at once);
 * or -1, with why.  Never raises SIGPIPE.
 */
static ssize_t
conn_write_some(hxd_conn *c, const uint8_t *p, size_t len, short *want,
    char *why, size_t whylen)
{
	ssize_t n;

	*want = 0;
	if (c->tls != NULL) {
		n = tls_client_write(c->tls, p, len);
		if (n > 0)
			return n;
		if (n == TLS_CLIENT_WANT_READ || n == TLS_CLIENT_WANT_WRITE) {
			*want = n == TLS_CLIENT_WANT_READ ? POLLIN : POLLOUT;
			return 0;
		}
		/* Refused after the handshake: its alert says why. */
		if (c->session_id == 0)
			tls_client_read(c->tls, c->sbuf, 1);
		snprintf(why, whylen, "%s", tls_client_error(c->tls));
		return -1;
	}
	n = send(c->fd, p, len, MSG_NOSIGNAL | MSG_DONTWAIT);
	if (n > 0)
		return n;
	if (n == -1 && errno == EINTR)
		return 0;
	if (n == -1 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
		*want = POLLOUT;
		return 0;
	}
	snprintf(why, whylen, "%s", strerror(errno));
	return -1;
}

/* Send len bytes, waiting until the deadline. */
static int
conn_send_all(hxd_conn *c, const uint8_t *p, size_t len, int64_t deadline)
{
	char why[700];
	ssize_t n;
	short want;
	int rc;

	if (c->shm != NULL) {
		if ((rc = conn_shm_send(c, p, len, deadline)) != HXD_OK)
			conn_drop(c);
		return rc;
	}
	while (len > 0) {
		n = conn_write_some(c, p, len, &want, why, sizeof(why));
		if (n > 0) {
			p += n;
			len -= (size_t)n;
			continue;
		}
		if (n == 0 && want == 0)
			continue;
		if (n == 0) {
			rc = conn_wait(c, want, deadline);
			if (rc == 1)
				continue;
			if (rc == 0) {
				/* A partial frame cannot be taken back. */
				conn_drop(c);
				return conn_fail(c, HXD_TIMEOUT,
				    "timed out sending to the server");
			}
			snprintf(why, sizeof(why), "%s", strerror(errno));
		}
		conn_drop(c);
		return conn_fail(
		    c, HXD_CANNOTSEND, "cannot send to the server: %s", why);
	}
	return HXD_OK;
}

/*
 * One recv(); before the Welcome of a connection that asked for shared
 * memory, one recvmsg() that keeps the descriptors coming beside it.
 */
static ssize_t
conn_recv_some(hxd_conn *c, uint8_t *p, size_t room, int flags)
{
	int fds[FDPASS_MAX], n = 0, i;
	ssize_t got;

	if (!c->want_shm || c->session_id != 0)
		return recv(c->fd, p, room, flags);
	got = fdpass_recv(c->fd, p, room, fds, &n);
	for (i = 0; i < n; i++) {
		if (c->nfds < (int)(sizeof(c->fds) / sizeof(c->fds[0])))
			c->fds[c->nfds++] = fds[i];
		else
			close(fds[i]);
	}
	return got;
}

/*
 * Receive what has come into the buffer, waiting until the deadline: in
 * a call, in recv() itself (conn_recv_timeout()); else, or when that
 * timeout ran out, in poll().  Returns the bytes received, 0 when the
 * server closed, -1 at an error (errno), -2 at the deadline.
 */
static ssize_t
conn_recv(hxd_conn *c, int64_t deadline, int in_call)
{
	uint8_t *p = c->rbuf + c->rlen;
	size_t room = c->rcap - c->rlen;
	ssize_t n;
	int rc;

	if (c->shm != NULL)
		return conn_shm_recv(c, p, room, deadline);
	while (c->tls != NULL) {
		/* What TLS holds decrypted is read before any wait. */
		n = tls_client_read(c->tls, p, room);
		if (n >= 0)
			return n;
		rc = conn_tls_wait(c, n, deadline);
		if (rc == 0)
			return -2;
		if (rc < 0)
			return -1;
	}
	for (;;) {
		if (in_call && conn_recv_timeout(c, deadline) == 0) {
			n = conn_recv_some(c, p, room, 0);
			if (n >= 0)
				return n;
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				return -1;
		}
		rc = conn_wait(c, POLLIN, deadline);
		if (rc == 0)
			return -2;
		if (rc < 0)
			return -1;
		n = conn_recv_some(c, p, room, MSG_DONTWAIT);
		if (n >= 0)
			return n;
		if (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK)
			return -1;
	}
}

/*
 * Read until one whole frame is buffered, then decode it as a Response.
 * A frame that does not decode breaks the connection: the stream cannot
 * be trusted after it.  A call (in_call) waits in recv() itself, bounded
 * by conn_recv_timeout(), unless the server works before answering
 * (conn_call_works()); an event's wait polls.
 */
static int
conn_read_frame(hxd_conn *c, int64_t deadline, int in_call, Response **out)
{
	size_t need, plen;
	uint8_t *nb;
	ssize_t n;
	int rc;

	for (;;) {
		switch (frame_parse(c->rbuf, c->rlen, c->max_frame, &plen)) {
		case FRAME_READY:
			*out = envelope_response_parse(
			    c->rbuf + FRAME_HEADER_SIZE, plen);
			need = FRAME_HEADER_SIZE + plen;
			memmove(c->rbuf, c->rbuf + need, c->rlen - need);
			c->rlen -= need;
			if (*out == NULL) {
				conn_drop(c);
				return conn_fail(c, HXD_CANNOTRECV,
				    "the server sent a message that does not "
				    "decode (%zu bytes)",
				    plen);
			}
			return HXD_OK;
		case FRAME_OVERSIZE:
			if (conn_foreign(c) != HXD_OK)
				return c->result;
			conn_drop(c);
			return conn_fail(c, HXD_CANNOTRECV,
			    "the server sent a "
			    "%zu-byte frame, more than the %zu-byte limit",
			    plen, c->max_frame);
		case FRAME_INCOMPLETE:
			break;
		}
		if (c->rcap - c->rlen < 65536) {
			nb = realloc(c->rbuf, c->rcap + 65536);
			if (nb == NULL) {
				conn_drop(c);
				return conn_fail(
				    c, HXD_CANNOTRECV, "out of memory");
			}
			c->rbuf = nb;
			c->rcap += 65536;
		}
		n = conn_recv(c, deadline, in_call);
		if (n > 0) {
			c->rlen += (size_t)n;
			continue;
		}
		if (n == -2 && c->session_id == 0)
			return conn_fail(c, HXD_TIMEOUT,
			    "no answer to Hello within %d ms: is this a "
			    "haptixd?",
			    c->timeout_ms);
		if (n == -2)
			return conn_fail(c, HXD_TIMEOUT,
			    "no answer from the "
			    "server within %d ms",
			    c->timeout_ms);
		if (n == 0) {
			conn_drop(c);
			return conn_fail(c, HXD_CANNOTRECV,
			    c->session_id == 0 ?
				"the server closed the connection without "
				"answering Hello: is this a haptixd%s?" :
				"the server closed the connection%s",
			    conn_tls_hint(c));
		}
		rc = conn_fail(c, HXD_CANNOTRECV,
		    "cannot receive from the server: %s%s",
		    c->tls != NULL && *tls_client_error(c->tls) != '\0' ?
			tls_client_error(c->tls) :
			strerror(errno),
		    c->session_id == 0 ? conn_tls_hint(c) : "");
		conn_drop(c);
		return rc;
	}
}

/*
 * Fail, and drop the connection, when what the server sent starts with
 * text: a frame's length of printable bytes is over 512 MiB, more than
 * any frame a haptixd sends, and is another protocol ("HTTP" would be
 * 1213486160 bytes).  Says what it sent, its first line.
 */
static int
conn_foreign(hxd_conn *c)
{
	char text[81];
	size_t i, n;
	uint8_t b;

	if (c->rlen < FRAME_HEADER_SIZE)
		return HXD_OK;
	for (i = 0; i < FRAME_HEADER_SIZE; i++) {
		b = c->rbuf[i];
		if ((b < 0x20 || b > 0x7e) && b != '\t' && b != '\r' &&
		    b != '\n')
			return HXD_OK;
	}
	for (n = 0; n < c->rlen && n < sizeof(text) - 1; n++) {
		b = c->rbuf[n];
		if (b == '\r' || b == '\n')
			break;
		text[n] = b >= 0x20 && b <= 0x7e ? (char)b : '?';
	}
	text[n] = '\0';
	conn_drop(c);
	return conn_fail(c, HXD_BADPROTOCOL,
	    "the server does not speak the haptixd protocol: it sent \"%s\"%s",
	    text,
	    strncmp(text, "HTTP/", 5) == 0 || text[0] == '<' ?
		" (an HTTP server; haptixd "
		"listens on 5790 by default)" :
		"");
}

/* Return 1 if r is an event: id 0, OK, with an Event payload. */
static int
conn_is_event(const Response *r)
{
	return r->id == 0 && r->result == HAPTIX__V1__RESULT__RESULT_OK &&
	    r->payload_case == HAPTIX__V1__RESPONSE__PAYLOAD_EVENT;
}

/* Keep an event for conn_next_event(); when full, the oldest goes. */
static void
conn_queue_event(hxd_conn *c, Response *r)
{
	Response **nq;
	size_t i, cap;

	if (c->nevents == CONN_MAX_EVENTS) {
		envelope_response_free(c->events[c->event_head]);
		c->event_head = (c->event_head + 1) % c->event_cap;
		c->nevents--;
		c->events_lost++;
	}
	if (c->nevents == c->event_cap) {
		cap = c->event_cap == 0 ? 16 : 2 * c->event_cap;
		nq = malloc(cap * sizeof(*nq));
		if (nq == NULL) {
			envelope_response_free(r);
			c->events_lost++;
			return;
		}
		for (i = 0; i < c->nevents; i++)
			nq[i] = c->events[(c->event_head + i) % c->event_cap];
		free(c->events);
		c->events = nq;
		c->event_cap = cap;
		c->event_head = 0;
	}
	c->events[(c->event_head + c->nevents) % c->event_cap] = r;
	c->nevents++;
}

int
conn_next_event(hxd_conn *c, int timeout_ms, Response **out)
{
	int64_t deadline = timeout_ms < 0 ? -1 : conn_now_ms() + timeout_ms;
	Response *r;
	int rc, saved = c->timeout_ms;

	*out = NULL;
	if (c->nevents != 0) {
		*out = c->events[c->event_head];
		c->event_head = (c->event_head + 1) % c->event_cap;
		c->nevents--;
		return conn_ok(c);
	}
	if (c->fd == -1)
		return conn_fail(c, HXD_NOCONNECTION, "not connected");
	for (;;) {
		/* The timeout text of conn_read_frame() is the caller's. */
		c->timeout_ms = timeout_ms;
		rc = conn_read_frame(c, deadline, 0, &r);
		c->timeout_ms = saved;
		if (rc != HXD_OK) {
			if (rc == HXD_TIMEOUT)
				conn_fail(c, HXD_TIMEOUT,
				    "no event within %d ms", timeout_ms);
			return rc;
		}
		if (conn_is_event(r)) {
			*out = r;
			return conn_ok(c);
		}
		if (r->id == 0 && r->result != HAPTIX__V1__RESULT__RESULT_OK) {
			rc = conn_fail(c, r->result, "%s", r->error);
			envelope_response_free(r);
			return rc;
		}
		/* The late answer to a call that timed out. */
		envelope_response_free(r);
	}
}

/*
 * Return 1 if the server works a while before answering req (it steps,
 * waits for the API tick, or loads): its answer is awaited in poll()
 * before recv(), not in recv() alone.  On a Unix socket a reader blocked
 * in recv() is woken as well when the server reads the request (the
 * socket's write space; poll's wait for POLLIN ignores that), for
 * nothing: that costs nothing when the answer follows at once, but two
 * context switches, or the wakeup of an idle CPU, when the server steps
 * first (2 to 6 us a call on 2 virtual CPUs, 5 % of a lock-step).
 */
static int
conn_call_works(const Request *req)
{
	switch (req->call_case) {
	case HAPTIX__V1__REQUEST__CALL_STEP:
	case HAPTIX__V1__REQUEST__CALL_UPDATE:
	case HAPTIX__V1__REQUEST__CALL_ROBOT_UPDATE:
	case HAPTIX__V1__REQUEST__CALL_BATCH:
	case HAPTIX__V1__REQUEST__CALL_LOAD_MODEL:
		return 1;
	default:
		return 0;
	}
}

int
conn_call(hxd_conn *c, Request *req, Response **resp)
{
	return conn_call_wait(c, req, resp, c->timeout_ms);
}

int
conn_call_wait(hxd_conn *c, Request *req, Response **resp, int timeout_ms)
{
	int64_t deadline = timeout_ms > 0 ? conn_now_ms() + timeout_ms : -1;
	int saved = c->timeout_ms, works;
	size_t len;
	uint8_t *nb;
	Response *r = NULL;
	int rc;

	*resp = NULL;
	if (c->fd == -1) {
		char why[sizeof(c->error)];

		/* Say why the connection was lost, once. */
		if (strncmp(c->error, "not connected", 13) == 0)
			return c->result = HXD_NOCONNECTION;
		snprintf(why, sizeof(why), "%s", c->error);
		return conn_fail(c, HXD_NOCONNECTION, "not connected%s%s",
		    why[0] != '\0' ? ": " : "", why);
	}
	req->id = ++c->next_id;
	len = envelope_request_size(req);
	if (len > c->max_frame)
		return conn_fail(c, HXD_BADSIZE,
		    "request of %zu bytes is "
		    "larger than the %zu-byte frame limit",
		    len, c->max_frame);
	if (c->scap < len + FRAME_HEADER_SIZE) {
		nb = realloc(c->sbuf, len + FRAME_HEADER_SIZE);
		if (nb == NULL)
			return conn_fail(c, HXD_CANNOTSEND, "out of memory");
		c->sbuf = nb;
		c->scap = len + FRAME_HEADER_SIZE;
	}
	frame_put_header(c->sbuf, (uint32_t)len);
	envelope_request_pack(req, c->sbuf + FRAME_HEADER_SIZE);
	rc = conn_send_all(c, c->sbuf, len + FRAME_HEADER_SIZE, deadline);
	if (rc != HXD_OK)
		return rc;
	works = conn_call_works(req);

	for (;;) {
		c->timeout_ms = timeout_ms; /* for the text of a timeout */
		rc = conn_read_frame(c, deadline, !works, &r);
		c->timeout_ms = saved;
		if (rc != HXD_OK)
			return rc;
		if (r->id == req->id)
			break;
		/* An error with id 0 concerns the connection: report it. */
		if (r->id == 0 && r->result != HAPTIX__V1__RESULT__RESULT_OK)
			break;
		if (conn_is_event(r))
			conn_queue_event(c, r);
		else /* the late answer to a call that timed out */
			envelope_response_free(r);
	}
	*resp = r;
	if (r->result != HAPTIX__V1__RESULT__RESULT_OK)
		return conn_fail(c, r->result, "%s", r->error);
	return conn_ok(c);
}

void
conn_free_response(Response *resp)
{
	if (resp != NULL)
		envelope_response_free(resp);
}

void
conn_model_from_wire(hxd_model *out, const Haptix__V1__ModelSummary *m)
{
	memset(out, 0, sizeof(*out));
	if (m == NULL)
		return;
	snprintf(out->name, sizeof(out->name), "%s", m->name);
	snprintf(out->path, sizeof(out->path), "%s", m->path);
	out->nq = (int)m->nq;
	out->nv = (int)m->nv;
	out->na = (int)m->na;
	out->nu = (int)m->nu;
	out->nbody = (int)m->nbody;
	out->njnt = (int)m->njnt;
	out->ngeom = (int)m->ngeom;
	out->nsite = (int)m->nsite;
	out->ntendon = (int)m->ntendon;
	out->neq = (int)m->neq;
	out->nkey = (int)m->nkey;
	out->nmocap = (int)m->nmocap;
	out->nsensor = (int)m->nsensor;
	out->nsensordata = (int)m->nsensordata;
	out->nmat = (int)m->nmat;
	out->timestep = m->timestep;
	out->apirate = m->apirate;
}

void
conn_recording_from_wire(hxd_recording *out, const Haptix__V1__Recording *w)
{
	memset(out, 0, sizeof(*out));
	if (w == NULL)
		return;
	out->active = w->active;
	snprintf(out->path, sizeof(out->path), "%s", w->path);
	out->every = w->every;
	out->journal = w->journal;
	out->records = w->records;
	out->bytes = w->bytes;
	out->journal_entries = w->journal_entries;
	snprintf(out->ended, sizeof(out->ended), "%s", w->ended);
	out->quota = w->quota;
}

void
conn_tracking_from_wire(hxd_tracking *out, const Haptix__V1__Tracking *w)
{
	memset(out, 0, sizeof(*out));
	out->latency = -1;
	if (w == NULL)
		return;
	out->mocap = w->mocap;
	snprintf(out->body, sizeof(out->body), "%s", w->body);
	out->connected = w->connected;
	out->offset_set = w->offset_set;
	out->driver = w->driver;
	snprintf(
	    out->driver_name, sizeof(out->driver_name), "%s", w->driver_name);
	out->poses = w->poses;
	out->rate = w->rate;
	out->age = w->age;
	out->latency = w->latency;
	out->source_time = w->source_time;
}

void
conn_perturbation_from_wire(
    hxd_perturbation *out, const Haptix__V1__Perturbation *w)
{
	size_t k;

	memset(out, 0, sizeof(*out));
	if (w == NULL)
		return;
	out->body = w->body;
	snprintf(out->name, sizeof(out->name), "%s", w->name);
	for (k = 0; k < 3 && k < w->n_force; k++)
		out->force[k] = w->force[k];
	for (k = 0; k < 3 && k < w->n_torque; k++)
		out->torque[k] = w->torque[k];
	out->driver = w->driver;
	snprintf(
	    out->driver_name, sizeof(out->driver_name), "%s", w->driver_name);
	out->age = w->age;
	out->timeout = w->timeout;
}

void
conn_status_from_wire(hxd_status *out, const Haptix__V1__Status *w)
{
	size_t k;

	memset(out, 0, sizeof(*out));
	conn_model_from_wire(&out->model, w->model);
	out->time = w->time;
	out->steps = w->steps;
	out->paused = w->paused;
	out->speed = w->speed;
	out->speed_max = w->speed_max;
	out->realtime_factor = w->realtime_factor;
	out->cpu_per_step = w->cpu_per_step;
	out->nefc = (int)w->nefc;
	out->ncon = (int)w->ncon;
	out->energy_potential = w->energy_potential;
	out->energy_kinetic = w->energy_kinetic;
	out->instability_resets = w->instability_resets;
	out->sim_errors = w->sim_errors;
	out->overruns = w->overruns;
	out->clients = (int)w->clients;
	snprintf(out->message, sizeof(out->message), "%s", w->message);
	out->uptime = w->uptime;
	out->lagging = w->lagging;
	out->lease_holder = w->lease_holder;
	snprintf(out->lease_holder_name, sizeof(out->lease_holder_name), "%s",
	    w->lease_holder_name);
	out->batch_session = w->batch_session;
	conn_recording_from_wire(&out->recording, w->recording);
	if (w->limits != NULL) {
		out->limits.max_clients = (int)w->limits->max_clients;
		out->limits.max_frame = w->limits->max_frame;
		out->limits.max_queued = w->limits->max_queued;
		out->limits.max_subscriptions = (int)w->limits
						    ->max_subscriptions;
		out->limits.load_timeout = w->limits->load_timeout;
		out->limits.load_memory = w->limits->load_memory;
		out->limits.model_max_bodies = w->limits->model_max_bodies;
		out->limits.model_max_keys = w->limits->model_max_keys;
		out->limits.model_max_hfield = w->limits->model_max_hfield;
		out->limits.model_max_texture = w->limits->model_max_texture;
		out->limits
		    .model_max_mesh_vertices = w->limits
						   ->model_max_mesh_vertices;
		out->limits.max_handshakes = (int)w->limits->max_handshakes;
	}
	if (w->pacing != NULL) {
		out->pacing.ticks = w->pacing->ticks;
		out->pacing.lateness_p50 = w->pacing->lateness_p50;
		out->pacing.lateness_p99 = w->pacing->lateness_p99;
		out->pacing.lateness_max = w->pacing->lateness_max;
	}
	for (k = 0; k < w->n_tracking && k < HXD_STATUS_TRACKING_MAX; k++)
		conn_tracking_from_wire(&out->tracking[k], w->tracking[k]);
	out->ntracking = (int)k;
	for (k = 0; k < w->n_perturbations && k < HXD_STATUS_PERTURBATIONS_MAX;
	     k++)
		conn_perturbation_from_wire(
		    &out->perturbations[k], w->perturbations[k]);
	out->nperturbations = (int)k;
	out->perturb_timeout = w->perturb_timeout;
	snprintf(out->steps_refused, sizeof(out->steps_refused), "%s",
	    w->steps_refused);
	out->model_edits = w->model_edits;
	if (w->history != NULL) {
		out->history.seconds = w->history->seconds;
		out->history.memory = w->history->memory;
		out->history.states = w->history->states;
		out->history.capacity = w->history->capacity;
		out->history.bytes = w->history->bytes;
		out->history.stride = w->history->stride;
		out->history.oldest = w->history->oldest;
		out->history.newest = w->history->newest;
	}
}

/* Read the token named by $HAPTIX_TOKEN_FILE, without trailing space. */
static int
conn_read_token(hxd_conn *c, uint8_t *buf, size_t *len)
{
	const char *path = getenv("HAPTIX_TOKEN_FILE");
	ssize_t n;

	*len = 0;
	if (path == NULL || *path == '\0')
		return HXD_OK;
	if ((n = token_read(path, buf, CONN_TOKEN_MAX)) < 0)
		return conn_fail(c, HXD_NOCONNECTION,
		    "cannot read the token "
		    "file %s ($HAPTIX_TOKEN_FILE): %s",
		    path, strerror(errno));
	*len = (size_t)n;
	return HXD_OK;
}

/*
 * A token goes over TLS, a Unix socket or loopback; in the clear to
 * another machine only when $HAPTIX_ALLOW_CLEARTEXT_TOKEN=1 says so.
 * The peer the socket reached is judged, not the name given.
 */
static int
conn_token_in_clear(hxd_conn *c)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	const char *allow = getenv("HAPTIX_ALLOW_CLEARTEXT_TOKEN");

	if (c->addr.kind != ADDRESS_TCP || c->tls != NULL)
		return HXD_OK;
	if (getpeername(c->fd, (struct sockaddr *)&ss, &len) == 0 &&
	    address_is_loopback((struct sockaddr *)&ss))
		return HXD_OK;
	if (allow != NULL && strcmp(allow, "1") == 0)
		return HXD_OK;
	return conn_fail(c, HXD_NOCONNECTION,
	    "refusing to send the token in the clear to %s (not loopback): "
	    "use tls:%s, or set HAPTIX_ALLOW_CLEARTEXT_TOKEN=1",
	    c->addr_text, c->addr_text + 4);
}

/* Say Hello and keep what the Welcome tells. */
static int
conn_hello(hxd_conn *c, const char *client_name)
{
	Request req = HAPTIX__V1__REQUEST__INIT;
	Haptix__V1__Hello hello = HAPTIX__V1__HELLO__INIT;
	uint8_t token[CONN_TOKEN_MAX];
	const char *lease;
	size_t tlen;
	Response *r;
	int rc;

	if (conn_read_token(c, token, &tlen) != HXD_OK ||
	    (tlen != 0 && conn_token_in_clear(c) != HXD_OK))
		return c->result;
	hello.protocol_version =
	    HAPTIX__V1__PROTOCOL_VERSION__PROTOCOL_VERSION_CURRENT;
	hello.client_name = (char *)(client_name != NULL ? client_name : "");
	hello.token.data = token;
	hello.token.len = tlen;
	hello.http_stop.data = (uint8_t *)"\r\n\r\n";
	hello.http_stop.len = 4;
	/* Run by hxctl lease run: share its lease. */
	if ((lease = getenv("HAPTIX_LEASE")) != NULL)
		hello.lease_token = (char *)lease;
	hello.shm = c->want_shm;
	req.call_case = HAPTIX__V1__REQUEST__CALL_HELLO;
	req.hello = &hello;
	rc = conn_call(c, &req, &r);
	if (rc == HXD_OK &&
	    r->payload_case != HAPTIX__V1__RESPONSE__PAYLOAD_WELCOME)
		rc = conn_fail(c, HXD_BADPROTOCOL,
		    "the server did not answer "
		    "Hello with Welcome");
	if (rc == HXD_OK) {
		c->session_id = r->welcome->session_id;
		snprintf(c->server_version, sizeof(c->server_version), "%s",
		    r->welcome->server_version);
		conn_model_from_wire(&c->model, r->welcome->model);
		if (r->welcome->shm != NULL)
			rc = conn_shm_start(c, r->welcome->shm->request_ring,
			    r->welcome->shm->answer_ring);
		else if (c->addr.shm)
			rc = conn_fail(c, HXD_NOCONNECTION,
			    "%s: the server offers no shared memory (it runs "
			    "with --no-shm, or predates it): use unix:%s",
			    c->addr_text, c->addr.path);
	}
	conn_shm_free_fds(c);
	conn_free_response(r);
	return rc;
}

/*
 * Shared memory is asked for by shm:, and on a unix: address unless
 * $HAPTIX_SHM is 0; never over TCP.
 */
static int
conn_wants_shm(const struct address *a)
{
	const char *v = getenv("HAPTIX_SHM");

	if (a->kind != ADDRESS_UNIX)
		return 0;
	return a->shm || v == NULL || strcmp(v, "0") != 0;
}

hxd_conn *
hxd_connect(const char *server, const char *client_name)
{
	return hxd_connect_timeout(server, client_name, HXD_DEFAULT_TIMEOUT_MS);
}

hxd_conn *
hxd_connect_timeout(
    const char *server, const char *client_name, int milliseconds)
{
	hxd_conn *c;
	char err[512];

	c = calloc(1, sizeof(*c));
	if (c == NULL)
		return NULL;
	c->fd = -1;
	c->timeout_ms = milliseconds > 0 ? milliseconds : 0;
	c->max_frame = 256u * 1024 * 1024;
	if (address_parse_server(server, &c->addr, err, sizeof(err)) != 0) {
		conn_fail(c, HXD_NOCONNECTION, "bad server address: %s", err);
		return c;
	}
	address_format(&c->addr, c->addr_text, sizeof(c->addr_text));
	c->want_shm = conn_wants_shm(&c->addr);
	if (conn_open_socket(c) != HXD_OK)
		return c;
	if (conn_hello(c, client_name) != HXD_OK) {
		conn_drop(c);
		return c;
	}
	conn_ok(c);
	return c;
}

void
hxd_close(hxd_conn *c)
{
	if (c == NULL)
		return;
	conn_drop(c);
	while (c->nevents != 0) {
		envelope_response_free(c->events[c->event_head]);
		c->event_head = (c->event_head + 1) % c->event_cap;
		c->nevents--;
	}
	free(c->events);
	free(c->rbuf);
	free(c->sbuf);
	free(c);
}

int
hxd_connected(const hxd_conn *c)
{
	return c != NULL && c->fd != -1;
}

const hxd_model *
hxd_welcome_model(const hxd_conn *c)
{
	return &c->model;
}

const char *
hxd_server_address(const hxd_conn *c)
{
	return c != NULL ? c->addr_text : "";
}

void
hxd_set_timeout(hxd_conn *c, int milliseconds)
{
	c->timeout_ms = milliseconds > 0 ? milliseconds : 0;
}
