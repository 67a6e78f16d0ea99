/*
 * libFuzzer target: the daemon's side of a shared-memory link
 * (protocol.md, "Shared memory") with a hostile client on the other.
 *
 * The client can write anything anywhere in the region at any time; the
 * daemon only ever reads its request ring (shmlink_read, as
 * session_shm_read does) and writes its answer ring (shmlink_write, as
 * session_shm_write does).  Each input is a program for the client:
 * store a head or a tail, scribble bytes into a ring's data or its
 * control block, lay a chunk header anywhere, put honest chunks as
 * libhaptix would, and let the daemon read and write between any two
 * of these.  Each ring lies in an allocation of exactly its size, so
 * that AddressSanitizer sees any byte the daemon reads or writes past
 * it.  After every call the target checks what the daemon may rely on:
 *
 *   - a read returns -1 or at most the room it was given, and every
 *     chunk it copied out is at most SHMLINK_CHUNK_MAX bytes and equals
 *     the ring's bytes where the chunk lay (a chunk is copied, never
 *     used in place);
 *   - the daemon's own position moves by what it read, and never past
 *     the head it was shown;
 *   - a write returns -1 or at most the bytes given, and never leaves
 *     more than the ring's size unread by the tail it was shown.
 *
 * An input is one byte choosing the rings' sizes (2 bits each: 256,
 * 4096, 131072 or 262144 bytes of data), then operations:
 *
 *   op % 10  0 store head (4 bytes)      1 store tail (4 bytes)
 *            2 scribble data (4 offset, 1 length, bytes)
 *            3 a chunk header at the daemon's position + 2 bytes, of
 *              the length in 4 bytes
 *            4 publish head = daemon's position + 2 bytes
 *            5 an honest chunk of 2 bytes' length (libhaptix's put)
 *            6 the daemon reads, room SHMLINK_CHUNK_MAX + 2 bytes
 *            7 the daemon writes 2 bytes' length of answers
 *            8 the client reads answers (publishes a tail as it goes)
 *            9 scribble the control blocks (1 offset, 4 bytes)
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "frame.h"
#include "shmlink.h"
#include "shmring.h"

/* A ring of its own in an allocation of exactly its size. */
struct fuzz_ring {
	uint8_t *mem;
	uint32_t cap;
};

/* The input, consumed from the front; zeros once it runs out. */
struct fuzz_in {
	const uint8_t *p;
	size_t n;
};

/* The next byte of the input, big-endian numbers of them below. */
static uint8_t
fuzz_u8(struct fuzz_in *in)
{
	uint8_t v = 0;

	if (in->n > 0) {
		v = *in->p++;
		in->n--;
	}
	return v;
}

static uint32_t
fuzz_u16(struct fuzz_in *in)
{
	uint32_t v = fuzz_u8(in);

	return v << 8 | fuzz_u8(in);
}

static uint32_t
fuzz_u32(struct fuzz_in *in)
{
	uint32_t v = fuzz_u16(in);

	return v << 16 | fuzz_u16(in);
}

/*
 * A ring of one of four sizes, zeroed: small ones wrap often, the
 * daemon's request ring as it is; each allocated once and kept, since
 * mapping and poisoning a fresh one each input made the target slow.
 */
static void
fuzz_ring_new(struct fuzz_ring *f, unsigned pick, int which)
{
	static const uint32_t caps[4] = { 256, 4096, 2 * SHMLINK_CHUNK_MAX,
		SHMLINK_REQUEST_RING };
	static uint8_t *mem[2][4];

	pick &= 3;
	f->cap = caps[pick];
	if (mem[which][pick] == NULL) {
		/* Exact, so that ASan's redzone starts at the ring's end. */
		mem[which][pick] = aligned_alloc(64, SHMRING_SIZE(f->cap));
		if (mem[which][pick] == NULL)
			abort();
	}
	f->mem = mem[which][pick];
	memset(f->mem, 0, SHMRING_SIZE(f->cap));
}

/* The ring's byte at position p, as the daemon would copy it. */
static uint8_t
fuzz_ring_byte(const struct shmring *r, uint32_t p)
{
	return r->data[p & (r->cap - 1)];
}

/*
 * The daemon reads: shmlink_read, then the same chunks checked again
 * against the ring they came from (nothing changes the ring during the
 * call here, so what was copied must be what lay there).
 */
static void
fuzz_read(struct shmlink *d, uint8_t *buf, size_t room)
{
	uint32_t before = d->in.pos;
	uint32_t head = __atomic_load_n(&d->in.ctl->head, __ATOMIC_RELAXED);
	uint32_t at, len, done = 0, i;
	ssize_t n;

	n = shmlink_read(d, buf, room);
	if (n < 0)
		return; /* the daemon drops the client */
	if ((size_t)n > room || (size_t)n > 64 * SHMLINK_CHUNK_MAX)
		abort();
	/* The position moved by whole chunks, each as long as it said. */
	at = before;
	while (at != d->in.pos) {
		if (d->in.pos - at < 4 || head - at > d->in.cap)
			abort();
		len = (uint32_t)fuzz_ring_byte(&d->in, at) << 24 |
		    (uint32_t)fuzz_ring_byte(&d->in, at + 1) << 16 |
		    (uint32_t)fuzz_ring_byte(&d->in, at + 2) << 8 |
		    fuzz_ring_byte(&d->in, at + 3);
		if (len > SHMLINK_CHUNK_MAX || d->in.pos - at - 4 < len ||
		    done + len > (uint32_t)n)
			abort();
		for (i = 0; i < len; i++)
			if (buf[done + i] != fuzz_ring_byte(&d->in, at + 4 + i))
				abort();
		done += len;
		at += 4 + len;
	}
	if (done != (uint32_t)n || head - d->in.pos > d->in.cap)
		abort();
	(void)shmring_room_wake_needed(&d->in);
}

/* The daemon writes answers: never more than given, never over the tail. */
static void
fuzz_write(struct shmlink *d, const uint8_t *src, size_t len)
{
	uint32_t tail = __atomic_load_n(&d->out.ctl->tail, __ATOMIC_RELAXED);
	uint32_t before = d->out.pos;
	ssize_t n;

	n = shmlink_write(d, src, len);
	if (n < 0)
		return; /* the daemon drops the client */
	if ((size_t)n > len)
		abort();
	if (n > 0 && d->out.pos - tail > d->out.cap)
		abort();
	if (d->out.pos - before < (uint32_t)n)
		abort();
	if (__atomic_load_n(&d->out.ctl->head, __ATOMIC_RELAXED) != d->out.pos)
		abort();
	(void)shmring_wake_needed(&d->out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t buf[4 * SHMLINK_CHUNK_MAX], src[SHMLINK_CHUNK_MAX];
	struct fuzz_in in = { data, size };
	struct fuzz_ring req, ans;
	struct shmlink d;    /* the daemon's view */
	struct shmring creq; /* the client's view of the request ring */
	struct shmring cans; /* and of the answer ring */
	int ops = 0;
	uint32_t off, len, i, v;
	size_t got;
	uint8_t op, sizes;

	sizes = fuzz_u8(&in);
	fuzz_ring_new(&req, sizes, 0);
	fuzz_ring_new(&ans, sizes >> 2, 1);
	shmlink_clear(&d);
	if (shmring_init(&d.in, req.mem, req.cap) != 0 ||
	    shmring_init(&d.out, ans.mem, ans.cap) != 0 ||
	    shmring_attach(&creq, req.mem, req.cap) != 0 ||
	    shmring_attach(&cans, ans.mem, ans.cap) != 0)
		abort();
	for (i = 0; i < sizeof(src); i++)
		src[i] = (uint8_t)(i * 7 + 1);

	while (in.n > 0 && ops++ < 256) {
		op = fuzz_u8(&in) % 10;
		switch (op) {
		case 0:
			__atomic_store_n(
			    &d.in.ctl->head, fuzz_u32(&in), __ATOMIC_RELEASE);
			break;
		case 1:
			__atomic_store_n(
			    &d.out.ctl->tail, fuzz_u32(&in), __ATOMIC_RELEASE);
			break;
		case 2:
			off = fuzz_u32(&in);
			len = fuzz_u8(&in);
			for (i = 0; i < len; i++)
				d.in.data[(off + i) & (d.in.cap - 1)] = fuzz_u8(
				    &in);
			break;
		case 3:
			off = d.in.pos + fuzz_u16(&in);
			v = fuzz_u32(&in);
			for (i = 0; i < 4; i++)
				d.in.data[(off + i) &
				    (d.in.cap - 1)] = (uint8_t)(v >>
				    (24 - 8 * i));
			break;
		case 4:
			__atomic_store_n(&d.in.ctl->head,
			    d.in.pos + fuzz_u16(&in), __ATOMIC_RELEASE);
			break;
		case 5:
			/* The client's own position may be far from the ring's.
			 */
			(void)shmring_put(&creq, src,
			    fuzz_u16(&in) % (SHMLINK_CHUNK_MAX + 1));
			break;
		case 6:
			fuzz_read(
			    &d, buf, SHMLINK_CHUNK_MAX + fuzz_u16(&in) * 3);
			break;
		case 7:
			fuzz_write(&d, src, fuzz_u16(&in));
			break;
		case 8:
			(void)shmring_get(&cans, buf, SHMLINK_CHUNK_MAX, &got);
			break;
		case 9:
			off = fuzz_u8(&in) %
			    (2 * sizeof(struct shmring_ctl) / 4);
			v = fuzz_u32(&in);
			memcpy(
			    (off < sizeof(struct shmring_ctl) / 4 ? req.mem :
								    ans.mem) +
				(off % (sizeof(struct shmring_ctl) / 4)) * 4,
			    &v, 4);
			break;
		}
	}
	/* Whatever was left in the ring, read as the daemon would. */
	fuzz_read(&d, buf, sizeof(buf));
	return 0;
}
