/*
 * hxplay --verify --spawn: a haptixd of hxplay's own, on a Unix socket
 * in a temporary directory, with no model, no TCP listener and no
 * settings file, stopped and removed after.  The replay then touches no
 * shared server at all: no model change, no pause, no event to anyone.
 * The daemon is $HAPTIXD if set, else the one installed beside hxplay,
 * else haptixd on the PATH.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "haptixd.h"
#include "hxplay_common.h"
#include "program.h"

#ifndef HXPLAY_HAPTIXD
#define HXPLAY_HAPTIXD "/usr/local/sbin/haptixd"
#endif

/* How long the daemon may take to listen, and to exit. */
#define SPAWN_START_MS 15000
#define SPAWN_STOP_MS 5000

static void
spawn_sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* The daemon to run: $HAPTIXD, the installed one, or PATH's. */
static const char *
spawn_program(void)
{
	const char *p = getenv("HAPTIXD");

	if (p != NULL && *p != '\0')
		return p;
	if (access(HXPLAY_HAPTIXD, X_OK) == 0)
		return HXPLAY_HAPTIXD;
	return "haptixd";
}

/* Run the daemon, its output on our standard error. */
static int
spawn_exec(struct play_spawn *s)
{
	const char *prog = spawn_program();
	char sock[PATH_MAX + 16];
	int fd;

	snprintf(sock, sizeof(sock), "%s/haptixd.sock", s->dir);
	if ((s->pid = fork()) < 0) {
		program_warn("--spawn: fork: %s", strerror(errno));
		return -1;
	}
	if (s->pid == 0) {
		if ((fd = open("/dev/null", O_RDONLY)) >= 0) {
			dup2(fd, 0);
			close(fd);
		}
		/* Our signals stop it only through us: not its own group's
		 * ^C before we put the server back. */
		setpgid(0, 0);
		execlp(prog, prog, "-c", "none", "--no-model", "--paused", "-q",
		    "-u", sock, "-t", "none", "--state-dir", s->dir, "-M",
		    s->dir, (char *)NULL);
		fprintf(stderr, "%s: --spawn: %s: %s\n", program_name(), prog,
		    strerror(errno));
		_exit(127);
	}
	snprintf(s->addr, sizeof(s->addr), "%s", sock);
	return 0;
}

/* Wait until the daemon answers; -1 if it exits or takes too long. */
static int
spawn_wait(struct play_spawn *s)
{
	hxd_conn *c;
	int status, ms;

	for (ms = 0; ms < SPAWN_START_MS; ms += 20) {
		if (waitpid(s->pid, &status, WNOHANG) == s->pid) {
			s->pid = 0;
			program_warn("--spawn: %s exited (%s %d) before it "
				     "listened",
			    spawn_program(),
			    WIFEXITED(status) ? "status" : "signal",
			    WIFEXITED(status) ? WEXITSTATUS(status) :
						WTERMSIG(status));
			return -1;
		}
		if (access(s->addr, F_OK) == 0) {
			c = hxd_connect(s->addr, "hxplay --spawn");
			if (c != NULL && hxd_connected(c)) {
				hxd_close(c);
				return 0;
			}
			hxd_close(c);
		}
		spawn_sleep_ms(20);
	}
	program_warn("--spawn: %s did not listen within %d s", spawn_program(),
	    SPAWN_START_MS / 1000);
	return -1;
}

int
play_spawn_start(struct play_spawn *s)
{
	const char *tmp = getenv("TMPDIR");

	memset(s, 0, sizeof(*s));
	snprintf(s->dir, sizeof(s->dir), "%s/hxplay.XXXXXX",
	    tmp != NULL && *tmp == '/' ? tmp : "/tmp");
	if (mkdtemp(s->dir) == NULL) {
		program_warn("--spawn: %s: %s", s->dir, strerror(errno));
		s->dir[0] = '\0';
		return -1;
	}
	if (spawn_exec(s) != 0 || spawn_wait(s) != 0) {
		play_spawn_stop(s);
		return -1;
	}
	return 0;
}

static int
spawn_remove(const char *path, const struct stat *sb, int flag, struct FTW *f)
{
	(void)sb;
	(void)flag;
	(void)f;
	return remove(path) == 0 || errno == ENOENT ? 0 : -1;
}

void
play_spawn_stop(struct play_spawn *s)
{
	int status, ms;

	if (s->pid > 0) {
		kill(s->pid, SIGTERM);
		for (ms = 0; ms < SPAWN_STOP_MS; ms += 10) {
			if (waitpid(s->pid, &status, WNOHANG) == s->pid)
				break;
			spawn_sleep_ms(10);
		}
		if (ms >= SPAWN_STOP_MS) {
			program_warn(
			    "--spawn: haptixd %ld did not exit: killed",
			    (long)s->pid);
			kill(s->pid, SIGKILL);
			waitpid(s->pid, &status, 0);
		}
		s->pid = 0;
	}
	if (s->dir[0] != '\0' &&
	    nftw(s->dir, spawn_remove, 8, FTW_DEPTH | FTW_PHYS) != 0)
		program_warn(
		    "--spawn: removing %s: %s", s->dir, strerror(errno));
	s->dir[0] = '\0';
}
