/*
 * A session's shared-memory link (protocol.md, "Shared memory"): the
 * rings and wake pipes of shmlink.h, the event that hears the client's
 * wake, and the handover of the region beside the Welcome.  Used by
 * session.c alone, which keeps the session's life and its buffers; this
 * moves bytes between them and the rings.
 */
#ifndef HXD_SESSION_SHM_H
#define HXD_SESSION_SHM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct event_base;
struct session_shm;

/*
 * Make the link of one session: the region with rings of the sizes the
 * daemon offers (*request_ring, *answer_ring are set), the pipes, and
 * an event on base calling cb(arg) when the client wakes us (not added
 * until the handover).  NULL with why on failure.
 */
struct session_shm *session_shm_new(struct event_base *base, void (*cb)(void *),
    void *arg, uint32_t *request_ring, uint32_t *answer_ring, char *why,
    size_t len);

/* Unmap, close and free; NULL is fine. */
void session_shm_free(struct session_shm *sh);

/* 1 once the region went to the client: the rings carry the frames. */
int session_shm_live(const struct session_shm *sh);

/*
 * 1 once the client closed its end of the daemon's wake pipe: it can no
 * longer wake the daemon, which no longer listens.
 */
int session_shm_deaf(const struct session_shm *sh);

/*
 * Send the Welcome frame (whole, total bytes) on sock with the link's
 * descriptors beside its first byte; from then on the rings carry the
 * frames and the client's wakes are heard.  0, or -1 with why.
 */
int session_shm_handover(struct session_shm *sh, int sock, const uint8_t *frame,
    size_t total, char *why, size_t len);

/*
 * Write what fits into the answer ring, waking the client if it sleeps:
 * the bytes written, or -1 when the client broke the ring.
 */
ssize_t session_shm_write(struct session_shm *sh, const void *p, size_t len);

/*
 * Ask to be woken when the client has read enough of the answer ring
 * that at most unread bytes are left in it (SESSION_SHM_ROOM: room for
 * a chunk).  Returns 1 if that is so already, else 0.
 */
int session_shm_want_room(struct session_shm *sh, size_t unread);
#define SESSION_SHM_ROOM ((size_t)-1)

/*
 * Read chunks of the request ring into buf (room of at least
 * SHMLINK_CHUNK_MAX bytes), waking a client that waits for room: the
 * bytes read, or -1 when the client broke the ring.
 */
ssize_t session_shm_read(struct session_shm *sh, uint8_t *buf, size_t room);

/*
 * About to go idle on the request ring: say so (the client's next frame
 * wakes us).  Returns 1 if one came meanwhile: read again instead.
 */
int session_shm_idle(struct session_shm *sh);

/* Not idle: input is held, the client need not wake us for it. */
void session_shm_busy(struct session_shm *sh);

/*
 * Having answered, linger a little (50 us) for the client's next
 * request: the loop turns without sleeping, and on each turn the ring
 * is looked at (the callback runs when a request came), the CPU yielded
 * to a client sharing it.  Only for a client whose last request woke the
 * daemon soon after it went idle; a linger in vain is not repeated for
 * the next 8 wakes, and leaves the ring idle.  1 if it lingers.
 */
int session_shm_linger(struct session_shm *sh);

/* Answer bytes the client has not read yet. */
size_t session_shm_unread(const struct session_shm *sh);

#endif
