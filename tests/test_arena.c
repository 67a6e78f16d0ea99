/*
 * Unit tests of the request arena (daemon/arena.c): alignment, blocks
 * that never overlap, growth past a chunk, reset reusing the memory,
 * zeroed and copied allocations, and sizes too large to hold.
 */
#include "config.h"

#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <criterion/criterion.h>
#include <criterion/redirect.h>

#include "arena.h"

TestSuite(arena, .timeout = 10);

/* What arena_alloc hands out for n bytes: n rounded up to 16, at least 16. */
static size_t
rounded(size_t n)
{
	return n == 0 ? 16 : (n + 15) / 16 * 16;
}

Test(arena, alignment_suits_any_type)
{
	struct arena a = { 0 };
	size_t n;
	void *p;

	cr_assert_geq(16, alignof(max_align_t));
	for (n = 0; n < 200; n++) {
		p = arena_alloc(&a, n);
		cr_assert_not_null(p);
		cr_assert_eq((uintptr_t)p % 16, 0, "%zu bytes at %p", n, p);
	}
	p = arena_alloc(&a, 1 << 20);
	cr_assert_eq((uintptr_t)p % 16, 0, "a block of its own");
	arena_free(&a);
}

Test(arena, blocks_follow_each_other_and_are_counted)
{
	struct arena a = { 0 };
	unsigned char *p, *q, *r;

	p = arena_alloc(&a, 1);
	q = arena_alloc(&a, 17);
	r = arena_alloc(&a, 32);
	cr_assert_eq(q, p + 16);
	cr_assert_eq(r, q + 32);
	cr_assert_eq(a.total, 16 + 32 + 32);
	arena_free(&a);
}

Test(arena, zero_bytes_is_a_block_of_its_own)
{
	struct arena a = { 0 };
	void *p, *q;

	p = arena_alloc(&a, 0);
	q = arena_alloc(&a, 0);
	cr_assert_not_null(p);
	cr_assert_not_null(q);
	cr_assert_neq(p, q, "each call gets its own address");
	cr_assert_eq(a.total, 32);
	cr_assert_not_null(arena_zalloc(&a, 0));
	arena_free(&a);
}

/* Many blocks over many chunks, each filled and checked at the end. */
Test(arena, growth_keeps_every_block)
{
	struct arena a = { 0 };
	unsigned char *blocks[600];
	size_t sizes[600], i, j, total = 0;

	for (i = 0; i < 600; i++) {
		sizes[i] = (i * 7919) % 9000 + (i % 50 == 0 ? 200000 : 0);
		blocks[i] = arena_alloc(&a, sizes[i]);
		memset(blocks[i], (int)(i & 0xff), sizes[i]);
		total += rounded(sizes[i]);
	}
	cr_assert_eq(a.total, total);
	cr_assert_gt(total, 4u << 20, "many chunks' worth");
	for (i = 0; i < 600; i++) {
		for (j = 0; j < sizes[i]; j++) {
			if (blocks[i][j] != (i & 0xff))
				cr_assert_fail(
				    "block %zu byte %zu overwritten", i, j);
		}
	}
	arena_free(&a);
}

Test(arena, reset_reuses_one_chunk)
{
	struct arena a = { 0 };
	void *p, *q;

	p = arena_alloc(&a, 100);
	arena_alloc(&a, 1000);
	arena_reset(&a);
	cr_assert_eq(a.total, 0);
	q = arena_alloc(&a, 100);
	cr_assert_eq(p, q, "the same memory again");
	arena_free(&a);
}

/*
 * After a request that spread over several chunks, a reset keeps one
 * chunk big enough for all of it: the same request again takes one run
 * of memory, and after another reset, the very same one.
 */
Test(arena, reset_keeps_room_for_the_high_water_mark)
{
	static const size_t sizes[] = { 40000, 50000, 70000, 10, 300000, 1,
		65536, 65535, 0, 123457 };
	const size_t n = sizeof(sizes) / sizeof(sizes[0]);
	struct arena a = { 0 };
	unsigned char *p[sizeof(sizes) / sizeof(sizes[0])], *first;
	size_t i, total = 0;

	for (i = 0; i < n; i++) {
		p[i] = arena_alloc(&a, sizes[i]);
		total += rounded(sizes[i]);
	}
	cr_assert_neq(p[1], p[0] + rounded(sizes[0]),
	    "the first request outgrew its first chunk");
	cr_assert_eq(a.total, total);
	arena_reset(&a);
	cr_assert_eq(a.total, 0);
	for (i = 0; i < n; i++) {
		p[i] = arena_alloc(&a, sizes[i]);
		memset(p[i], 0x5a, sizes[i]);
		if (i > 0)
			cr_assert_eq(p[i], p[i - 1] + rounded(sizes[i - 1]),
			    "block %zu in the same chunk", i);
	}
	cr_assert_eq(a.total, total);
	first = p[0];
	arena_reset(&a);
	cr_assert_eq(arena_alloc(&a, sizes[0]), first, "no new chunk");
	arena_free(&a);
}

Test(arena, zalloc_zeroes_reused_memory)
{
	struct arena a = { 0 };
	unsigned char *p;
	size_t i;

	p = arena_alloc(&a, 4000);
	memset(p, 0xff, 4000);
	arena_reset(&a);
	p = arena_zalloc(&a, 4000);
	for (i = 0; i < 4000; i++)
		cr_assert_eq(p[i], 0, "byte %zu", i);
	arena_free(&a);
}

Test(arena, strdup_copies)
{
	struct arena a = { 0 };
	char src[] = "a string to copy", *s, *e;

	s = arena_strdup(&a, src);
	e = arena_strdup(&a, "");
	cr_assert_neq(s, src);
	cr_assert_str_eq(s, "a string to copy");
	src[0] = 'X';
	cr_assert_str_eq(s, "a string to copy", "a copy, not the original");
	cr_assert_str_eq(e, "");
	cr_assert_eq(a.total, 32 + 16, "17 bytes and 1");
	arena_free(&a);
}

Test(arena, large_blocks)
{
	struct arena a = { 0 };
	unsigned char *small, *big, *after;
	size_t i;

	small = arena_alloc(&a, 8);
	memset(small, 1, 8);
	big = arena_alloc(&a, 3u << 20);
	memset(big, 2, 3u << 20);
	after = arena_alloc(&a, 8);
	memset(after, 3, 8);
	for (i = 0; i < 8; i++) {
		cr_assert_eq(small[i], 1);
		cr_assert_eq(after[i], 3);
	}
	cr_assert_eq(big[0], 2);
	cr_assert_eq(big[(3u << 20) - 1], 2);
	cr_assert_eq(a.total, 16 + (3u << 20) + 16);
	arena_free(&a);
}

Test(arena, free_and_use_again)
{
	struct arena a = { 0 };

	arena_free(&a);
	arena_reset(&a);
	cr_assert_null(a.chunks, "nothing allocated by a reset of nothing");
	arena_alloc(&a, 100);
	arena_alloc(&a, 100000);
	arena_free(&a);
	cr_assert_null(a.chunks);
	cr_assert_eq(a.total, 0);
	arena_free(&a);
	cr_assert_str_eq(arena_strdup(&a, "again"), "again");
	cr_assert_eq(a.total, 16);
	arena_free(&a);
}

/* A size that cannot be held exits (fatal), as running out of memory does. */
Test(arena, size_max_exits, .exit_code = 1)
{
	struct arena a = { 0 };

	cr_redirect_stderr();
	arena_alloc(&a, SIZE_MAX);
	cr_assert_fail("SIZE_MAX bytes were handed out");
}

Test(arena, size_beyond_the_chunk_header_exits, .exit_code = 1)
{
	struct arena a = { 0 };

	cr_redirect_stderr();
	arena_alloc(&a, SIZE_MAX - 40);
	cr_assert_fail("SIZE_MAX - 40 bytes were handed out");
}

Test(arena, size_beyond_memory_exits, .exit_code = 1)
{
	struct arena a = { 0 };

	cr_redirect_stderr();
	arena_alloc(&a, SIZE_MAX / 2);
	cr_assert_fail("SIZE_MAX / 2 bytes were handed out");
}
