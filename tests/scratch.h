/*
 * What the tests of recording files share: a scratch directory for a
 * suite's files, whole files read and written, and doubles as their bits.
 * Every function fails the test when the system says no.
 */
#ifndef HX_TEST_SCRATCH_H
#define HX_TEST_SCRATCH_H

#include <stddef.h>
#include <stdint.h>

/* Make the suite's scratch directory, and remove it: .init and .fini. */
void hx_scratch_init(void);
void hx_scratch_fini(void);

/* The path of name in the scratch directory (one of four static buffers). */
const char *hx_scratch(const char *name);

/* A whole file, NUL-terminated, its length in *len; free() it. */
uint8_t *hx_read_file(const char *path, size_t *len);

/* Write a file anew (what was there is removed first). */
void hx_write_file(const char *path, const void *buf, size_t len);

/* splitmix64 of three numbers: any 64 bits, NaNs and denormals among them. */
uint64_t hx_mix64(uint64_t a, uint64_t b, uint64_t c);

/* A double's bits, and the double of some bits. */
uint64_t hx_bits(double d);
double hx_double(uint64_t u);

#endif
