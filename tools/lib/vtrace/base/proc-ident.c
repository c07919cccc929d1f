// SPDX-License-Identifier: LGPL-2.1
/*
 * Process identity and pidfds.
 *
 * bookworm's glibc has wrappers for pidfd_open and pidfd_send_signal, but
 * Android's and older C libraries do not: the system calls are made
 * directly.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <vtrace/proc-ident.h>

static int read_boot_id(char *buf)
{
	ssize_t n;
	int fd;

	fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, VTRACE_BOOT_ID_LEN);
	close(fd);
	if (n != VTRACE_BOOT_ID_LEN)
		return -EIO;
	buf[n] = '\0';
	return 0;
}

/* Field 22 of /proc/PID/stat; the name (field 2) may hold spaces and ')'. */
static int read_start_time(pid_t pid, unsigned long long *start)
{
	char path[64], buf[1024], *p;
	int fd, field;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? -ESRCH : -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return n ? -errno : -ESRCH;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	if (!p)
		return -EIO;
	for (field = 2; field < 22 && p; field++)
		p = strchr(p + 1, ' ');
	if (!p)
		return -EIO;
	*start = strtoull(p + 1, NULL, 10);
	return 0;
}

/**
 * vtrace_proc_ident_read - the identity of a running process
 * @pid: its pid, 0 for this process
 * @id: filled in
 *
 * Return: 0, -ESRCH when no such process runs, -EACCES when its
 * executable may not be looked at, or another -errno of /proc.
 */
int vtrace_proc_ident_read(pid_t pid, struct vtrace_proc_ident *id)
{
	char path[64];
	struct stat st;
	int ret;

	memset(id, 0, sizeof(*id));
	id->pid = pid ? pid : getpid();
	ret = read_start_time(id->pid, &id->start_time);
	if (ret)
		return ret;
	snprintf(path, sizeof(path), "/proc/%d/exe", (int)id->pid);
	if (stat(path, &st))
		return errno == ENOENT ? -ESRCH : -errno;
	id->exe_dev = st.st_dev;
	id->exe_ino = st.st_ino;
	return read_boot_id(id->boot_id);
}

/**
 * vtrace_proc_ident_equal - whether two identities are one process
 * @a: one
 * @b: the other
 *
 * Return: true when pid, start time, executable and boot all match.
 */
bool vtrace_proc_ident_equal(const struct vtrace_proc_ident *a,
			     const struct vtrace_proc_ident *b)
{
	return a->pid == b->pid && a->start_time == b->start_time &&
	       a->exe_dev == b->exe_dev && a->exe_ino == b->exe_ino &&
	       !strcmp(a->boot_id, b->boot_id);
}

/**
 * vtrace_proc_pidfd_open - a pidfd of the process @id names, proven
 * @id: the identity recorded when the process was known to be it
 * @pidfd: set to a pidfd of exactly that process (close-on-exec)
 *
 * The pidfd is opened first and the identity checked after: a process
 * still matching then is the one the pidfd holds, since its pid could not
 * have been reused while it lived.
 *
 * Return: 0, -ESRCH when that process is gone (its pid may now be
 * another's), -ESTALE when the pid names another process, -ENOSYS
 * without pidfds (before Linux 5.3), or another -errno.
 */
int vtrace_proc_pidfd_open(const struct vtrace_proc_ident *id, int *pidfd)
{
	struct vtrace_proc_ident now;
	int fd, ret;

	if (id->pid <= 0)
		return -ESRCH;
	fd = syscall(SYS_pidfd_open, id->pid, 0);
	if (fd < 0)
		return -errno;
	ret = vtrace_proc_ident_read(id->pid, &now);
	if (!ret && !vtrace_proc_ident_equal(id, &now))
		ret = -ESTALE;
	if (ret) {
		close(fd);
		return ret;
	}
	*pidfd = fd;
	return 0;
}

/**
 * vtrace_proc_pidfd_signal - send a signal through a pidfd
 * @pidfd: from vtrace_proc_pidfd_open()
 * @sig: the signal
 *
 * Return: 0, -ESRCH when the process has exited, or another -errno.
 */
int vtrace_proc_pidfd_signal(int pidfd, int sig)
{
	return syscall(SYS_pidfd_send_signal, pidfd, sig, NULL, 0) ? -errno : 0;
}
