/* What the input drivers share: see driver.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "driver.h"
#include "program.h"

volatile sig_atomic_t driver_stop, driver_connect_asked,
    driver_disconnect_asked;

static void driver_on_signal(int);

int64_t
driver_wall_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Note the signal; the main loop acts on it. */
static void
driver_on_signal(int sig)
{
	if (sig == SIGUSR1)
		driver_connect_asked = 1;
	else if (sig == SIGUSR2)
		driver_disconnect_asked = 1;
	else
		driver_stop = 1;
}

void
driver_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGUSR1, SIGUSR2, 0 };

	program_signals(driver_on_signal, sigs);
}

hxd_conn *
driver_connect(const char *server, const char *name)
{
	hxd_conn *c = hxd_connect(server, name);

	if (c == NULL) {
		program_warn("out of memory");
		return NULL;
	}
	if (!hxd_connected(c)) {
		program_warn("cannot connect to %s: %s",
		    server != NULL && *server != '\0' ? server :
							"the default server",
		    hxd_error(c));
		hxd_close(c);
		return NULL;
	}
	return c;
}

int
driver_fail(hxd_conn *c, const char *what)
{
	program_warn("%s: %s", what, hxd_error(c));
	return -1;
}

int
driver_refused(hxd_conn *c, int *refused, const char *what)
{
	switch (hxd_result(c)) {
	case HXD_DENIED:
	case HXD_NOMODEL:
	case HXD_BADINDEX:
	case HXD_BADVALUE:
		if (!*refused)
			program_warn("%s refused: %s (dropped until the server "
				     "takes them again)",
			    what, hxd_error(c));
		*refused = 1;
		return 1;
	default:
		return 0;
	}
}

void
driver_accepted(int *refused, const char *what)
{
	if (*refused)
		program_warn("%s taken again", what);
	*refused = 0;
}
