/*
 * make bench: the clock and the memory figure, shared by the driver and
 * the bare mj_step program (which cannot include bench.h's libhaptix
 * side, and needs nothing else from it).
 */
#ifndef HX_BENCH_PROC_H
#define HX_BENCH_PROC_H

#include <sys/types.h>

/* Seconds on the monotonic clock. */
double bench_now(void);

/* Seconds of the Unix epoch (CLOCK_REALTIME), as drivers stamp poses. */
double bench_wall(void);

/*
 * Run pid (0: this process) on CPU cpu only, or on every CPU with -1.
 * Returns 0, or -1 when the machine has no such CPU.
 */
int bench_pin(pid_t pid, int cpu);

/* The CPU pid (0: this process) ran on last, from /proc; -1. */
int bench_last_cpu(pid_t pid);

/* Resident memory of pid (0: this process) in KiB, from /proc; -1. */
long bench_rss_kib(pid_t pid);

#endif
