/* make bench: the clock and resident memory; see proc.h. */
#include "config.h"

#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "proc.h"

double
bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double
bench_wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int
bench_pin(pid_t pid, int cpu)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;
	long i;

	if (cpu >= n)
		return -1;
	CPU_ZERO(&set);
	for (i = 0; i < n && i < CPU_SETSIZE; i++)
		if (cpu < 0 || i == cpu)
			CPU_SET(i, &set);
	return sched_setaffinity(pid, sizeof(set), &set);
}

int
bench_last_cpu(pid_t pid)
{
	char path[64], buf[1024], *p;
	int i, cpu = -1;
	size_t n;
	FILE *f;

	if (pid == 0)
		return sched_getcpu();
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if ((f = fopen(path, "r")) == NULL)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* The name may hold spaces: count from its closing parenthesis. */
	if ((p = strrchr(buf, ')')) == NULL)
		return -1;
	for (i = 2; i < 39 && p != NULL; i++)
		p = strchr(p + 1, ' ');
	if (p != NULL && sscanf(p, "%d", &cpu) != 1)
		cpu = -1;
	return cpu;
}

long
bench_rss_kib(pid_t pid)
{
	char path[64], line[256];
	long kib = -1;
	FILE *f;

	if (pid == 0)
		snprintf(path, sizeof(path), "/proc/self/status");
	else
		snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if ((f = fopen(path, "r")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "VmRSS: %ld", &kib) == 1)
			break;
	fclose(f);
	return kib;
}
