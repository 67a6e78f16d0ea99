/*
 * The client side of one connection to haptixd: socket, handshake, and a
 * blocking request/response exchange with a timeout.  Internal to
 * libhaptix; the public faces are haptixd.h and haptix.h.
 */
#ifndef HX_CONN_H
#define HX_CONN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "address.h"
#include "haptix.pb-c.h"
#include "haptixd.h"

typedef Haptix__V1__Request Request;
typedef Haptix__V1__Response Response;

struct tls_client;
struct shmlink;

struct hxd_conn {
	int fd;                 /* -1 when not connected */
	struct tls_client *tls; /* over fd, for a tls: address */
	struct address addr;
	int want_shm;        /* Hello asks for shared memory */
	struct shmlink *shm; /* after a Welcome that gave it (conn_shm.c) */
	long shm_sent_ns;    /* when the last request went, 0: answered */
	long shm_wait_ns;    /* how long answers take, a moving mean */
	int fds[4];          /* descriptors that came before the Welcome */
	int nfds;
	char addr_text[320]; /* addr formatted: hxd_server_address() */
	int timeout_ms;
	int64_t rcvtimeo_ms; /* the socket's SO_RCVTIMEO; 0: none */
	size_t max_frame;
	uint64_t next_id;

	int result;
	char error[1024];

	uint8_t *rbuf; /* received bytes not yet consumed */
	size_t rlen, rcap;
	uint8_t *sbuf; /* the frame being sent */
	size_t scap;

	uint64_t session_id;
	char server_version[64];
	hxd_model model;

	Response **events; /* events that came while waiting for answers */
	size_t nevents, event_head, event_cap;
	unsigned long long events_lost; /* the oldest, when the queue was full */
};

/* Events kept while a program makes calls and does not read them. */
#define CONN_MAX_EVENTS 4096

/*
 * Send req (its id is assigned here) and wait for the response with the
 * same id, skipping events and stale answers.  Returns the result code;
 * *resp is set whenever a response arrived, even with an error result,
 * and the caller frees it with conn_free_response().
 */
int conn_call(hxd_conn *c, Request *req, Response **resp);

/* conn_call() with its own timeout (ms; 0: wait for as long as it takes). */
int conn_call_wait(hxd_conn *c, Request *req, Response **resp, int timeout_ms);

/*
 * The next event: queued, or read within timeout_ms (0: do not wait;
 * negative: wait for as long as it takes).  Returns HXD_OK with *out (an
 * id-0 Response with an Event), HXD_TIMEOUT, or a failure.
 */
int conn_next_event(hxd_conn *c, int timeout_ms, Response **out);

/* A Recording message into its public struct. */
void conn_recording_from_wire(
    hxd_recording *out, const Haptix__V1__Recording *w);

/* Free a response from conn_call(); NULL is fine. */
void conn_free_response(Response *resp);

/* Record a failure on c with printf-style text; returns code (conn_result.c). */
int conn_fail(hxd_conn *c, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Record success on c. */
int conn_ok(hxd_conn *c);

/* Copy a wire model summary into the public struct. */
void conn_model_from_wire(hxd_model *out, const Haptix__V1__ModelSummary *m);

/* Copy a wire client description or lease into the public struct. */
void conn_client_from_wire(hxd_client *out, const Haptix__V1__ClientInfo *w);
void conn_lease_from_wire(hxd_lease_info *out, const Haptix__V1__LeaseInfo *w);

/* Copy a wire tracking or perturbation into the public struct. */
void conn_tracking_from_wire(hxd_tracking *out, const Haptix__V1__Tracking *w);
void conn_perturbation_from_wire(
    hxd_perturbation *out, const Haptix__V1__Perturbation *w);

/* Milliseconds on the monotonic clock (conn_clock.c). */
int64_t conn_now_ms(void);

/*
 * poll() until one of the n descriptors is ready or the deadline (ms on
 * the monotonic clock, -1 for none) passes: the count ready, 0 at the
 * deadline, -1 at an error (errno).
 */
struct pollfd;
int conn_poll(struct pollfd *pfd, int n, int64_t deadline);

/* Close the connection after a broken exchange. */
void conn_drop(hxd_conn *c);

/*
 * The shared-memory transport (conn_shm.c): take the descriptors that
 * came with the Welcome for its rings; free them; send a whole frame
 * (HXD_OK or a failure, recorded; the caller drops the connection after
 * a failure); receive what came into p (room of at
 * least SHMLINK_CHUNK_MAX): the bytes, 0 when the server closed, -1 at
 * an error (errno), -2 at the deadline.
 */
int conn_shm_start(hxd_conn *c, uint32_t request_ring, uint32_t answer_ring);
void conn_shm_free(hxd_conn *c);
void conn_shm_free_fds(hxd_conn *c); /* those not taken */
int conn_shm_send(hxd_conn *c, const uint8_t *p, size_t len, int64_t deadline);
ssize_t conn_shm_recv(hxd_conn *c, uint8_t *p, size_t room, int64_t deadline);

/* Copy a wire status into the public struct. */
void conn_status_from_wire(hxd_status *out, const Haptix__V1__Status *w);

#endif
