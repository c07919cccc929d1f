// SPDX-License-Identifier: LGPL-2.1
/*
 * The shared locks of the state directory.
 *
 * flock() works on any descriptor, even one opened read-only, so a lock
 * file anyone can open is a lock anyone can hold: these are mode 0600.
 * A holder that never lets go (a stopped process, a stuck one) must not
 * hang every later run, nor make one deaf to signals: a wait polls the
 * lock with a deadline, and a signal or the caller's stop flag ends it.
 * The flag is needed as well: a signal handled while the waiter was not
 * asleep (about to sleep, or runnable but not running) interrupts no
 * sleep.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include <vtrace/state-dir.h>
#include <vtrace/state-lock.h>

#define POLL_NS (10 * 1000 * 1000L)

static const char *const shared_locks[] = {
	VTRACE_STATE_LOCK_SESSIONS,
	VTRACE_STATE_LOCK_ATRACE_TAGS,
	VTRACE_STATE_LOCK_JOURNAL,
};

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* Lock files made by an older vtrace were 0644: make them ours alone. */
static int check_lock_file(int fd)
{
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	if (st.st_uid != geteuid() && st.st_uid != 0)
		return -EPERM;
	if ((st.st_mode & 077) && fchmod(fd, 0600))
		return -errno;
	return 0;
}

static int wait_for_lock(int fd, int op, const volatile sig_atomic_t *stop)
{
	long long deadline = now_ms() + VTRACE_STATE_LOCK_WAIT_MS;
	struct timespec pause = { 0, POLL_NS };

	while (flock(fd, op | LOCK_NB)) {
		if (errno != EWOULDBLOCK && errno != EINTR)
			return -errno;
		if (stop && *stop)
			return -EINTR;
		if (now_ms() >= deadline)
			return -EAGAIN;
		if (nanosleep(&pause, NULL))
			return -errno; /* a signal: the caller may be asked to stop */
	}
	return 0;
}

/**
 * vtrace_state_lock - take one of the state directory's shared locks
 * @dirfd: the state directory, from vtrace_state_dir_open()
 * @name: the lock, a VTRACE_STATE_LOCK_* name
 * @op: %LOCK_SH or %LOCK_EX
 * @create: make the lock file when it does not exist
 * @stop: when not NULL, a flag (one a signal handler sets) that ends the
 *	wait once it is non-zero
 * @fd: set to the lock, for vtrace_state_unlock()
 *
 * Waits at most %VTRACE_STATE_LOCK_WAIT_MS for another holder to let go;
 * vtrace_state_lock_holder() then says who it is.
 *
 * Return: 0; -EAGAIN when the lock stayed held; -EINTR when a signal
 * came while waiting or @stop was set; -ENOENT for no lock file without @create; -EPERM
 * for a lock file owned by another user; or the -errno of opening it.
 */
int vtrace_state_lock(int dirfd, const char *name, int op, bool create,
		      const volatile sig_atomic_t *stop, int *fd)
{
	int flags = O_RDWR | O_NOFOLLOW | O_CLOEXEC;
	int ret;

	*fd = openat(dirfd, name, create ? flags | O_CREAT : flags, 0600);
	if (*fd < 0)
		return -errno;
	ret = check_lock_file(*fd);
	if (!ret)
		ret = wait_for_lock(*fd, op, stop);
	if (ret) {
		close(*fd);
		*fd = -1;
	}
	return ret;
}

/**
 * vtrace_state_unlock - let go of a lock of vtrace_state_lock()
 * @fd: the lock; -1 is ignored
 */
void vtrace_state_unlock(int fd)
{
	if (fd >= 0)
		close(fd); /* drops the flock */
}

/* The pid holding a lock on the file of @dev and @ino, from /proc/locks. */
static pid_t lock_owner(FILE *locks, dev_t dev, ino_t ino)
{
	unsigned int major_nr, minor_nr;
	unsigned long long inode;
	char line[256];
	int pid;

	rewind(locks);
	while (fgets(line, sizeof(line), locks)) {
		/* "N: FLOCK ADVISORY WRITE PID MAJ:MIN:INODE START END"; "->" waits. */
		if (strstr(line, "->") ||
		    sscanf(line, "%*d: %*s %*s %*s %d %x:%x:%llu", &pid,
			   &major_nr, &minor_nr, &inode) != 4)
			continue;
		if (makedev(major_nr, minor_nr) == dev && inode == ino &&
		    pid != getpid())
			return pid;
	}
	return 0;
}

/**
 * vtrace_state_lock_holder - who holds one of the shared locks
 * @name: set to the lock's name
 * @pid: set to its holder
 * @comm: filled with the holder's command name ("" when it is gone)
 * @size: the size of @comm
 *
 * For the message after vtrace_state_lock() gave up.
 *
 * Return: 0, or -ENOENT when no other process holds one.
 */
int vtrace_state_lock_holder(const char **name, pid_t *pid, char *comm,
			     size_t size)
{
	int dirfd, ret = -ENOENT;
	char path[64];
	struct stat st;
	FILE *locks;
	size_t i, n = sizeof(shared_locks) / sizeof(shared_locks[0]);
	FILE *f;

	if (vtrace_state_dir_open(false, &dirfd, NULL))
		return -ENOENT;
	locks = fopen("/proc/locks", "re");
	for (i = 0; locks && ret && i < n; i++) {
		if (fstatat(dirfd, shared_locks[i], &st, AT_SYMLINK_NOFOLLOW))
			continue;
		*pid = lock_owner(locks, st.st_dev, st.st_ino);
		if (*pid) {
			*name = shared_locks[i];
			ret = 0;
		}
	}
	if (locks)
		fclose(locks);
	close(dirfd);
	if (ret)
		return ret;
	comm[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)*pid);
	f = fopen(path, "re");
	if (f) {
		if (fgets(comm, size, f))
			comm[strcspn(comm, "\n")] = '\0';
		fclose(f);
	}
	return 0;
}
