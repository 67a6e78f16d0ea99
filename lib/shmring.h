/*
 * One direction of the shared-memory transport (issue 36): a ring of
 * frames, one producer and one consumer, in memory both processes map.
 * A frame is what the socket carries: a 4-byte big-endian length and
 * that many bytes.
 *
 * The other side may be hostile: it can write anything anywhere in the
 * shared memory, at any time.  So each side keeps its own position in
 * private memory (the producer's head, the consumer's tail) and only
 * publishes it; what it reads of the other's is checked before use (a
 * head or tail that would put more than the ring's size in flight breaks
 * the ring), a length is copied once and checked against the limit, and
 * a frame's bytes are copied out before anyone parses them, so that a
 * write torn or changed meanwhile can only give a frame that does not
 * decode.  Nothing here blocks: the caller waits (an eventfd) when the
 * ring is full or empty, and shmring_*_waiting() say when to wake.
 *
 * Shared by the daemon and the client library; knows nothing of either.
 */
#ifndef HX_SHMRING_H
#define HX_SHMRING_H

#include <stddef.h>
#include <stdint.h>

/* The shared part of a ring: the positions apart, one cache line each. */
struct shmring_ctl {
	_Alignas(64) uint32_t head;    /* bytes produced, modulo 2^32 */
	_Alignas(64) uint32_t tail;    /* bytes consumed, modulo 2^32 */
	_Alignas(64) uint32_t waiting; /* 1: the consumer sleeps, wake it */
	uint32_t cpu; /* the CPU the consumer last read on, + 1; 0: unsaid */
	_Alignas(64) uint32_t wants; /* 1: the producer waits for room */
};

/* The bytes a ring of cap data bytes takes in the shared memory. */
#define SHMRING_SIZE(cap) (sizeof(struct shmring_ctl) + (size_t)(cap))

/* One side's view of a ring: where it lies, and its own position. */
struct shmring {
	struct shmring_ctl *ctl;
	uint8_t *data;
	uint32_t cap; /* a power of two, at least 64 */
	uint32_t pos; /* the producer's head or the consumer's tail */
};

/* What shmring_put and shmring_get answer besides a frame. */
enum {
	SHMRING_OK = 0,
	SHMRING_EMPTY = 1,    /* no whole frame yet */
	SHMRING_FULL = 2,     /* no room for this frame yet */
	SHMRING_BROKEN = -1,  /* the shared positions are impossible */
	SHMRING_TOO_BIG = -2, /* a frame past the limit, or the ring */
};

/*
 * Lay a ring out at mem (SHMRING_SIZE(cap) bytes, 64-byte aligned) and
 * zero its positions: the side that makes the shared memory does this
 * once.  Returns -1 when cap is not a power of two of at least 64.
 */
int shmring_init(struct shmring *r, void *mem, uint32_t cap);

/*
 * Take the other side of a ring that shmring_init has just laid out at
 * mem with cap: -1 unless cap is as shmring_init wants and the ring is
 * new (both positions 0).
 */
int shmring_attach(struct shmring *r, void *mem, uint32_t cap);

/*
 * Producer: append a frame of len payload bytes.  SHMRING_OK, FULL (try
 * again once the consumer has read), TOO_BIG (it could never fit), or
 * BROKEN (the consumer's tail is impossible: drop the peer).
 */
int shmring_put(struct shmring *r, const void *payload, size_t len);

/*
 * Consumer: copy the next frame's payload into out (at most max bytes),
 * its length into *len.  SHMRING_OK, EMPTY, TOO_BIG (its length is past
 * max: drop the peer), or BROKEN.
 */
int shmring_get(struct shmring *r, uint8_t *out, size_t max, size_t *len);

/*
 * Consumer, before sleeping: say so, then look again.  Returns 1 if a
 * frame came meanwhile (do not sleep), 0 to sleep until woken.
 */
int shmring_sleep(struct shmring *r);

/* Consumer, once awake or not sleeping after all. */
void shmring_awake(struct shmring *r);

/*
 * Producer, after shmring_put: 1 if the consumer said it sleeps (the
 * flag is cleared: wake it once), else 0.
 */
int shmring_wake_needed(struct shmring *r);

/*
 * Producer, before sleeping on a full ring: say so, then look again.
 * Returns 1 if len payload bytes fit meanwhile (do not sleep), 0 to
 * sleep until woken.  The flag is the producer's to clear: see
 * shmring_awake_room().
 */
int shmring_wait_room(struct shmring *r, size_t len);

/* Producer, once awake or not sleeping after all. */
void shmring_awake_room(struct shmring *r);

/*
 * Consumer, after shmring_get: 1 if the producer said it waits for room
 * (the flag is cleared: wake it once), else 0.
 */
int shmring_room_wake_needed(struct shmring *r);

/* Consumer: 1 if the producer has published more (or broke the ring). */
int shmring_ready(const struct shmring *r);

/*
 * The consumer says on which CPU it reads (a hint for the producer's
 * wait: spinning without yielding takes the CPU from a consumer that
 * shares it).
 */
void shmring_say_cpu(struct shmring *r);

/* The CPU the consumer last read on, or -1 when it has not said. */
int shmring_consumer_cpu(const struct shmring *r);

/* Producer: the largest payload that fits now (0: none). */
size_t shmring_room(const struct shmring *r);

/* Bytes in flight as this side sees them (for quotas and tests). */
uint32_t shmring_used(const struct shmring *r);

#endif
