/*
 * The loader's sandbox (daemon/sandbox.c), entered in a child process:
 * what it must refuse is refused, and what a load needs still works.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "sandbox.h"

TestSuite(sandbox, .timeout = 30);

/* What the child saw, one line per check, written to a pipe. */
static char child_said[4096];

/* A descriptor the child has as 3, kept in its sandbox; -1: none. */
static int child_fd3 = -1;

/* Run fn in a sandboxed child; returns its wait status. */
static int
in_sandbox(void (*fn)(int), double seconds, uint64_t memory)
{
	int pipefd[2], status;
	char err[512];
	ssize_t n;
	size_t len = 0;
	pid_t pid;

	cr_assert_eq(pipe(pipefd), 0);
	pid = fork();
	cr_assert_neq(pid, -1);
	if (pid == 0) {
		/* The sandbox closes all above 2 (or 3): the pipe becomes
		 * stdout. */
		dup2(pipefd[1], 1);
		/* ... and 4 too, to be closed. */
		if (child_fd3 != -1 &&
		    (dup2(child_fd3, 3) != 3 || dup2(child_fd3, 4) != 4))
			_exit(3);
		if (sandbox_enter(child_fd3 != -1 ? 3 : 2, seconds, memory, err,
			sizeof(err)) != 0) {
			dprintf(1, "enter: %s\n", err);
			_exit(2);
		}
		fn(1);
		_exit(0);
	}
	close(pipefd[1]);
	while ((n = read(pipefd[0], child_said + len,
		    sizeof(child_said) - 1 - len)) > 0)
		len += (size_t)n;
	child_said[len] = '\0';
	close(pipefd[0]);
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	return status;
}

/* Try what the sandbox refuses, and what it allows. */
static void
try_everything(int out)
{
	int fd, rc;

	dprintf(out, "fd3 %d\n", fcntl(3, F_GETFD) == -1);
	rc = socket(AF_UNIX, SOCK_STREAM, 0);
	dprintf(out, "socket %d %d\n", rc, errno);
	rc = (int)fork();
	dprintf(out, "fork %d %d\n", rc, errno);
	fd = open("/tmp/hx-sandbox-must-not-exist", O_WRONLY | O_CREAT, 0600);
	dprintf(out, "create %d %d\n", fd, errno);
	rc = kill(getppid(), 0);
	dprintf(out, "kill %d %d\n", rc, errno);
	rc = execl("/bin/true", "true", (char *)NULL);
	dprintf(out, "exec %d %d\n", rc, errno);
	fd = open("/etc/hostname", O_RDONLY);
	dprintf(out, "read %d\n", fd >= 0);
	dprintf(out, "small %d\n", malloc(1 << 20) != NULL);
}

Test(sandbox, refuses_sockets_processes_and_writes)
{
	int status, fd;
	char want[64];

	/* A descriptor left open that the sandbox must close. */
	fd = open("/dev/null", O_RDONLY);
	cr_assert_eq(fd >= 3, 1);
	status = in_sandbox(try_everything, 10, (uint64_t)256 << 20);
	close(fd);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "status %d: %s", status, child_said);
	snprintf(want, sizeof(want), "socket -1 %d\n", EACCES);
	cr_expect_not_null(strstr(child_said, want), "%s", child_said);
	snprintf(want, sizeof(want), "fork -1 %d\n", EPERM);
	cr_expect_not_null(strstr(child_said, want), "%s", child_said);
	snprintf(want, sizeof(want), "create -1 %d\n", EACCES);
	cr_expect_not_null(strstr(child_said, want), "%s", child_said);
	snprintf(want, sizeof(want), "kill -1 %d\n", EPERM);
	cr_expect_not_null(strstr(child_said, want), "%s", child_said);
	snprintf(want, sizeof(want), "exec -1 %d\n", EACCES);
	cr_expect_not_null(strstr(child_said, want), "%s", child_said);
	cr_expect_not_null(strstr(child_said, "read 1\n"), "%s", child_said);
	cr_expect_not_null(strstr(child_said, "fd3 1\n"), "%s", child_said);
	cr_expect_not_null(strstr(child_said, "small 1\n"), "%s", child_said);
	cr_expect_eq(access("/tmp/hx-sandbox-must-not-exist", F_OK), -1);
}

/*
 * Write the answer as the loader does, in the shared memory kept as
 * descriptor 3: sized, mapped, written and sealed; above 3 all closed.
 */
static void
try_answer(int out)
{
	char *p;

	dprintf(out, "fd4 %d\n", fcntl(4, F_GETFD) == -1);
	if (ftruncate(3, 4096) != 0 ||
	    (p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, 3, 0)) ==
		MAP_FAILED) {
		dprintf(out, "map %d\n", errno);
		return;
	}
	strcpy(p, "the answer");
	munmap(p, 4096);
	dprintf(out, "seal %d\n",
	    fcntl(3, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE));
}

Test(sandbox, keeps_the_answers_memory_and_closes_the_rest)
{
	char got[16] = "";
	int status, fd;

	fd = memfd_create("hx-answer", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	cr_assert_neq(fd, -1);
	child_fd3 = fd;
	status = in_sandbox(try_answer, 10, (uint64_t)256 << 20);
	child_fd3 = -1;
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "status %d: %s", status, child_said);
	cr_expect_not_null(strstr(child_said, "fd4 1\n"), "%s", child_said);
	cr_expect_not_null(strstr(child_said, "seal 0\n"), "%s", child_said);
	cr_expect_eq(fcntl(fd, F_GET_SEALS) & F_SEAL_WRITE, F_SEAL_WRITE);
	cr_expect_eq(pread(fd, got, sizeof(got) - 1, 0), sizeof(got) - 1);
	cr_expect_str_eq(got, "the answer");
	close(fd);
}

/* Ask for more than the limit, and for a little. */
static void
try_memory(int out)
{
	dprintf(out, "big %d\n", malloc((size_t)512 << 20) == NULL);
	dprintf(out, "small %d\n", malloc(1 << 20) != NULL);
}

Test(sandbox, memory_is_limited)
{
	int status;

	if (!sandbox_memory_limited())
		cr_skip_test("an AddressSanitizer build does not limit the "
			     "loader's memory (its shadow needs terabytes of "
			     "address space)");
	status = in_sandbox(try_memory, 10, (uint64_t)256 << 20);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "status %d: %s", status, child_said);
	cr_expect_not_null(strstr(child_said, "big 1\n"), "%s", child_said);
	cr_expect_not_null(strstr(child_said, "small 1\n"), "%s", child_said);
}

/* Spin until the CPU limit stops it. */
static void
spin(int out)
{
	volatile unsigned long n = 0;

	for (;;)
		n++;
}

Test(sandbox, cpu_time_is_limited)
{
	int status = in_sandbox(spin, 1, (uint64_t)256 << 20);

	cr_assert(WIFSIGNALED(status), "status %d: %s", status, child_said);
	cr_expect(WTERMSIG(status) == SIGXCPU || WTERMSIG(status) == SIGKILL,
	    "signal %d", WTERMSIG(status));
}
