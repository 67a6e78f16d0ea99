/*
 * The connection's deadlines: milliseconds on the monotonic clock, and
 * poll() until one passes (conn.h).
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <time.h>

#include "conn.h"

int64_t
conn_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int
conn_poll(struct pollfd *pfd, int n, int64_t deadline)
{
	int64_t left;
	int rc;

	for (;;) {
		left = -1;
		if (deadline >= 0) {
			left = deadline - conn_now_ms();
			if (left < 0)
				left = 0;
		}
		rc = poll(
		    pfd, (nfds_t)n, (int)(left > 86400000 ? 86400000 : left));
		if (rc > 0)
			return rc;
		if (rc == 0 && left >= 0 && left < 86400000)
			return 0;
		if (rc < 0 && errno != EINTR)
			return -1;
	}
}
