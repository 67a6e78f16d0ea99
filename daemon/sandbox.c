/*
 * The loader's sandbox: see sandbox.h.  The filter is a deny list: MuJoCo
 * and the C library need the ordinary calls (memory, reading files,
 * writing to the pipe it answers on), and what a taken-over loader could
 * do with the rest is what the list takes away.  It is written as
 * classic BPF by hand, as OpenSSH's seccomp sandbox is, so that it needs
 * no library.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include "sandbox.h"

#if defined(__x86_64__)
#define SANDBOX_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define SANDBOX_ARCH AUDIT_ARCH_AARCH64
#endif

/*
 * AddressSanitizer maps terabytes of shadow memory at start, which an
 * address-space limit refuses ("Failed to mmap"): in a sanitizer build
 * the loader's memory is not limited (the CPU time and the rest are).
 */
#if defined(__SANITIZE_ADDRESS__)
#define SANDBOX_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANDBOX_ASAN 1
#endif
#endif
#ifdef SANDBOX_ASAN
#include <sanitizer/lsan_interface.h>
#endif

/* Most descriptors the loader opens at once: includes and assets. */
#define SANDBOX_FILES 64

static int sandbox_limit(int, rlim_t, rlim_t, const char *, char *, size_t);
static void sandbox_close_all(int);
#ifdef SANDBOX_ARCH
static int sandbox_filter(char *, size_t);
#endif

/* Set one resource limit. */
static int
sandbox_limit(int resource, rlim_t soft, rlim_t hard, const char *what,
    char *err, size_t len)
{
	struct rlimit rl = { soft, hard };

	if (setrlimit(resource, &rl) == 0)
		return 0;
	snprintf(err, len, "the loader cannot limit its %s: %s", what,
	    strerror(errno));
	return -1;
}

/* Close every descriptor above keep. */
static void
sandbox_close_all(int keep)
{
	long fd, max;

	if (close_range((unsigned)keep + 1, ~0U, 0) == 0)
		return;
	max = sysconf(_SC_OPEN_MAX);
	for (fd = keep + 1; fd < max; fd++)
		close((int)fd);
}

#ifdef SANDBOX_ARCH
/* Refuse system call nr with errno e. */
#define SANDBOX_DENY(nr, e) \
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1), \
	    BPF_STMT( \
		BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ((e)&SECCOMP_RET_DATA))

/* Flags that make an open write, create or truncate. */
#define SANDBOX_WRITING (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND)

/* Install the system-call filter. */
static int
sandbox_filter(char *err, size_t len)
{
	struct sock_filter insns[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		    offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SANDBOX_ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		    offsetof(struct seccomp_data, nr)),
#if defined(__x86_64__)
		/* x32 calls are another numbering of the same calls. */
		BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
#endif
		/* openat: read only. */
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_openat, 0, 4),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		    offsetof(struct seccomp_data, args[2])),
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, SANDBOX_WRITING, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EACCES),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
#ifdef __NR_open
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_open, 0, 4),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		    offsetof(struct seccomp_data, args[1])),
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, SANDBOX_WRITING, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EACCES),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
#endif
		SANDBOX_DENY(__NR_openat2, ENOSYS),
		SANDBOX_DENY(__NR_socket, EACCES),
		SANDBOX_DENY(__NR_socketpair, EACCES),
		SANDBOX_DENY(__NR_connect, EACCES),
		SANDBOX_DENY(__NR_bind, EACCES),
		SANDBOX_DENY(__NR_listen, EACCES),
		SANDBOX_DENY(__NR_accept, EACCES),
		SANDBOX_DENY(__NR_accept4, EACCES),
		SANDBOX_DENY(__NR_execve, EACCES),
		SANDBOX_DENY(__NR_execveat, EACCES),
		SANDBOX_DENY(__NR_clone, EPERM),
		SANDBOX_DENY(__NR_clone3, ENOSYS),
#ifdef __NR_fork
		SANDBOX_DENY(__NR_fork, EPERM),
		SANDBOX_DENY(__NR_vfork, EPERM),
#endif
		SANDBOX_DENY(__NR_kill, EPERM),
		SANDBOX_DENY(__NR_tkill, EPERM),
		SANDBOX_DENY(__NR_tgkill, EPERM),
		SANDBOX_DENY(__NR_ptrace, EPERM),
		SANDBOX_DENY(__NR_process_vm_writev, EPERM),
		SANDBOX_DENY(__NR_unlinkat, EACCES),
		SANDBOX_DENY(__NR_renameat2, EACCES),
		SANDBOX_DENY(__NR_mkdirat, EACCES),
		SANDBOX_DENY(__NR_linkat, EACCES),
		SANDBOX_DENY(__NR_symlinkat, EACCES),
		SANDBOX_DENY(__NR_fchmodat, EACCES),
		SANDBOX_DENY(__NR_fchownat, EACCES),
		SANDBOX_DENY(__NR_truncate, EACCES),
#ifdef __NR_unlink
		SANDBOX_DENY(__NR_unlink, EACCES),
		SANDBOX_DENY(__NR_rename, EACCES),
		SANDBOX_DENY(__NR_renameat, EACCES),
		SANDBOX_DENY(__NR_mkdir, EACCES),
		SANDBOX_DENY(__NR_rmdir, EACCES),
		SANDBOX_DENY(__NR_link, EACCES),
		SANDBOX_DENY(__NR_symlink, EACCES),
		SANDBOX_DENY(__NR_chmod, EACCES),
		SANDBOX_DENY(__NR_chown, EACCES),
		SANDBOX_DENY(__NR_creat, EACCES),
#endif
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {
		.len = (unsigned short)(sizeof(insns) / sizeof(insns[0])),
		.filter = insns,
	};

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) {
		snprintf(err, len,
		    "the loader cannot filter its system "
		    "calls: %s",
		    strerror(errno));
		return -1;
	}
	return 0;
}
#endif

int
sandbox_memory_limited(void)
{
#ifndef SANDBOX_ASAN
	return 1;
#else
	return 0;
#endif
}

int
sandbox_enter(int keep, double seconds, uint64_t memory, char *err, size_t len)
{
	rlim_t cpu = (rlim_t)ceil(seconds);

	sandbox_close_all(keep < 2 ? 2 : keep);
#ifndef SANDBOX_ASAN
	if (sandbox_limit(RLIMIT_AS, (rlim_t)memory, (rlim_t)memory, "memory",
		err, len) != 0)
		return -1;
#else
	(void)memory;
	/*
	 * AddressSanitizer reports a crash and exits with status 1: let a
	 * crash in the model's code kill the loader by its signal, as in
	 * any other build, so that the daemon names it.
	 */
	signal(SIGSEGV, SIG_DFL);
	signal(SIGBUS, SIG_DFL);
	signal(SIGFPE, SIG_DFL);
	signal(SIGILL, SIG_DFL);
	/*
	 * LeakSanitizer's check at exit stops the process's threads with
	 * ptrace, which the filter refuses ("LeakSanitizer has encountered
	 * a fatal error" on the daemon's log): it runs now, and not again.
	 */
	__lsan_do_leak_check();
#endif
	if (sandbox_limit(RLIMIT_CPU, cpu, cpu + 1, "CPU time", err, len) !=
		0 ||
	    sandbox_limit(RLIMIT_CORE, 0, 0, "core size", err, len) != 0 ||
	    sandbox_limit(RLIMIT_NOFILE, SANDBOX_FILES, SANDBOX_FILES,
		"open files", err, len) != 0)
		return -1;
#ifdef SANDBOX_ARCH
	return sandbox_filter(err, len);
#else
	return 0;
#endif
}
