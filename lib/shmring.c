/* A ring of frames in shared memory: see shmring.h. */
#include "config.h"

#include <limits.h>
#include <sched.h>
#include <string.h>

#include "frame.h"
#include "shmring.h"

#define SHMRING_HEADER 4       /* a frame's length, as on the socket */
#define SHMRING_MAX (1u << 30) /* the largest ring: positions stay sane */

/* Copy n bytes into the ring at position at, wrapping at its end. */
static void
shmring_copy_in(struct shmring *r, uint32_t at, const void *p, size_t n)
{
	uint32_t off = at & (r->cap - 1);
	size_t first = n < r->cap - off ? n : r->cap - off;

	memcpy(r->data + off, p, first);
	memcpy(r->data, (const uint8_t *)p + first, n - first);
}

/* Copy n bytes out of the ring from position at, wrapping at its end. */
static void
shmring_copy_out(const struct shmring *r, uint32_t at, void *p, size_t n)
{
	uint32_t off = at & (r->cap - 1);
	size_t first = n < r->cap - off ? n : r->cap - off;

	memcpy(p, r->data + off, first);
	memcpy((uint8_t *)p + first, r->data, n - first);
}

static int
shmring_cap_ok(uint32_t cap)
{
	return cap >= 64 && cap <= SHMRING_MAX && (cap & (cap - 1)) == 0;
}

/* Take the ring laid out at mem, from position 0; -1 for a bad cap. */
static int
shmring_place(struct shmring *r, void *mem, uint32_t cap)
{
	if (!shmring_cap_ok(cap))
		return -1;
	r->ctl = mem;
	r->data = (uint8_t *)mem + sizeof(struct shmring_ctl);
	r->cap = cap;
	r->pos = 0;
	return 0;
}

int
shmring_init(struct shmring *r, void *mem, uint32_t cap)
{
	if (shmring_place(r, mem, cap) != 0)
		return -1;
	memset(r->ctl, 0, sizeof(*r->ctl));
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	return 0;
}

int
shmring_attach(struct shmring *r, void *mem, uint32_t cap)
{
	if (shmring_place(r, mem, cap) != 0 ||
	    __atomic_load_n(&r->ctl->head, __ATOMIC_ACQUIRE) != 0 ||
	    __atomic_load_n(&r->ctl->tail, __ATOMIC_ACQUIRE) != 0)
		return -1;
	return 0;
}

int
shmring_put(struct shmring *r, const void *payload, size_t len)
{
	uint32_t tail = __atomic_load_n(&r->ctl->tail, __ATOMIC_ACQUIRE);
	uint32_t used = r->pos - tail;
	uint8_t hdr[SHMRING_HEADER];

	if (used > r->cap)
		return SHMRING_BROKEN; /* a tail ahead, or too far behind */
	if (len > r->cap - SHMRING_HEADER)
		return SHMRING_TOO_BIG;
	if (SHMRING_HEADER + len > r->cap - used)
		return SHMRING_FULL;
	frame_put_header(hdr, (uint32_t)len);
	shmring_copy_in(r, r->pos, hdr, SHMRING_HEADER);
	shmring_copy_in(r, r->pos + SHMRING_HEADER, payload, len);
	r->pos += SHMRING_HEADER + (uint32_t)len;
	__atomic_store_n(&r->ctl->head, r->pos, __ATOMIC_RELEASE);
	return SHMRING_OK;
}

int
shmring_get(struct shmring *r, uint8_t *out, size_t max, size_t *len)
{
	uint32_t head = __atomic_load_n(&r->ctl->head, __ATOMIC_ACQUIRE);
	uint32_t avail = head - r->pos, n;
	uint8_t hdr[SHMRING_HEADER];

	*len = 0;
	if (avail > r->cap)
		return SHMRING_BROKEN; /* a head behind, or too far ahead */
	if (avail < SHMRING_HEADER)
		return SHMRING_EMPTY;
	/* Copied once: what is checked is what is used. */
	shmring_copy_out(r, r->pos, hdr, SHMRING_HEADER);
	n = frame_get_length(hdr);
	if (n > max || n > r->cap - SHMRING_HEADER)
		return SHMRING_TOO_BIG;
	if (avail - SHMRING_HEADER < n)
		return SHMRING_EMPTY;
	shmring_copy_out(r, r->pos + SHMRING_HEADER, out, n);
	r->pos += SHMRING_HEADER + n;
	__atomic_store_n(&r->ctl->tail, r->pos, __ATOMIC_RELEASE);
	*len = n;
	return SHMRING_OK;
}

/* Lower a side's flag (waiting, wants): it no longer sleeps. */
static void
shmring_flag_lower(uint32_t *flag)
{
	__atomic_store_n(flag, 0, __ATOMIC_RELAXED);
}

/*
 * The other side, after its part (a frame put, or read): 1 if the flag
 * says the side sleeps, lowered (wake it once), else 0.
 */
static int
shmring_flag_take(uint32_t *flag)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (__atomic_load_n(flag, __ATOMIC_SEQ_CST) == 0)
		return 0;
	shmring_flag_lower(flag);
	return 1;
}

int
shmring_sleep(struct shmring *r)
{
	/* Said, then looked again: a frame put meanwhile is seen, or wakes. */
	__atomic_store_n(&r->ctl->waiting, 1, __ATOMIC_SEQ_CST);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (__atomic_load_n(&r->ctl->head, __ATOMIC_SEQ_CST) != r->pos) {
		shmring_flag_lower(&r->ctl->waiting);
		return 1;
	}
	return 0;
}

void
shmring_awake(struct shmring *r)
{
	shmring_flag_lower(&r->ctl->waiting);
}

int
shmring_wake_needed(struct shmring *r)
{
	return shmring_flag_take(&r->ctl->waiting);
}

int
shmring_wait_room(struct shmring *r, size_t len)
{
	uint32_t tail;

	__atomic_store_n(&r->ctl->wants, 1, __ATOMIC_SEQ_CST);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	tail = __atomic_load_n(&r->ctl->tail, __ATOMIC_SEQ_CST);
	/* An impossible tail is not room: the next put says BROKEN. */
	if (r->pos - tail > r->cap ||
	    SHMRING_HEADER + len <= r->cap - (r->pos - tail)) {
		shmring_flag_lower(&r->ctl->wants);
		return 1;
	}
	return 0;
}

void
shmring_awake_room(struct shmring *r)
{
	shmring_flag_lower(&r->ctl->wants);
}

int
shmring_room_wake_needed(struct shmring *r)
{
	return shmring_flag_take(&r->ctl->wants);
}

int
shmring_ready(const struct shmring *r)
{
	return __atomic_load_n(&r->ctl->head, __ATOMIC_ACQUIRE) != r->pos;
}

void
shmring_say_cpu(struct shmring *r)
{
	int cpu = sched_getcpu();
	uint32_t said = cpu >= 0 ? (uint32_t)cpu + 1 : 0;

	/* Written only when it changed: the producer reads this line. */
	if (__atomic_load_n(&r->ctl->cpu, __ATOMIC_RELAXED) != said)
		__atomic_store_n(&r->ctl->cpu, said, __ATOMIC_RELAXED);
}

int
shmring_consumer_cpu(const struct shmring *r)
{
	uint32_t said = __atomic_load_n(&r->ctl->cpu, __ATOMIC_RELAXED);

	return said == 0 || said > INT_MAX ? -1 : (int)(said - 1);
}

size_t
shmring_room(const struct shmring *r)
{
	uint32_t tail = __atomic_load_n(&r->ctl->tail, __ATOMIC_ACQUIRE);
	uint32_t used = r->pos - tail;

	if (used > r->cap || r->cap - used <= SHMRING_HEADER)
		return 0;
	return r->cap - used - SHMRING_HEADER;
}

uint32_t
shmring_used(const struct shmring *r)
{
	uint32_t tail = __atomic_load_n(&r->ctl->tail, __ATOMIC_ACQUIRE);
	uint32_t head = __atomic_load_n(&r->ctl->head, __ATOMIC_ACQUIRE);

	return head - tail;
}
