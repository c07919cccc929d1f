// SPDX-License-Identifier: LGPL-2.1
/*
 * A thread's scheduling account, from /proc/self/task/TID/stat (its
 * state) and schedstat (CONFIG_SCHED_INFO, which Debian's kernels have:
 * time on a CPU and time runnable but not running). Together they tell
 * a thread that sleeps from one that tasks at a higher priority keep off
 * every CPU it may run on, which neither alone can: the kernel adds a
 * wait to schedstat only once it ends.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "record/thread-sched.h"

/**
 * vt_thread_sched_open - open a thread's scheduling account
 * @tid: a thread of this process (gettid())
 * @fds: set to its stat and schedstat files
 *
 * Return: 0, or a negative errno (-ENOENT: the thread is gone, or the
 * kernel keeps no such account).
 */
int vt_thread_sched_open(pid_t tid, int fds[2])
{
	static const char *const names[2] = { "stat", "schedstat" };
	char path[64];
	int i, err;

	fds[0] = -1;
	fds[1] = -1;
	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "/proc/self/task/%d/%s", (int)tid,
			 names[i]);
		fds[i] = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
		if (fds[i] < 0) {
			err = -errno;
			vt_thread_sched_close(fds);
			return err;
		}
	}
	return 0;
}

static int read_text(int fd, char *buf, size_t size)
{
	ssize_t n = pread(fd, buf, size - 1, 0);

	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return 0;
}

/**
 * vt_thread_sched_read - read a thread's scheduling account
 * @fds: from vt_thread_sched_open()
 * @s: set to what it says now
 *
 * Return: 0, or a negative errno (-ESRCH: the thread has ended;
 * -EPROTO: a file reads in a form not known here).
 */
int vt_thread_sched_read(const int fds[2], struct vt_thread_sched *s)
{
	char buf[512];
	char *state;
	int ret;

	ret = read_text(fds[0], buf, sizeof(buf));
	if (ret)
		return ret;
	/* "TID (COMM) S ...": the name may hold anything, ')' included. */
	state = strrchr(buf, ')');
	if (!state || state[1] != ' ' || !state[2])
		return -EPROTO;
	s->runnable = state[2] == 'R';
	ret = read_text(fds[1], buf, sizeof(buf));
	if (ret)
		return ret;
	/* "<time on a CPU> <time waiting on a run queue> <time slices>" */
	if (sscanf(buf, "%llu %llu", &s->on_cpu_ns, &s->waited_ns) != 2)
		return -EPROTO;
	return 0;
}

/**
 * vt_thread_sched_close - close a thread's scheduling account
 * @fds: from vt_thread_sched_open(), or -1 each
 */
void vt_thread_sched_close(int fds[2])
{
	int i;

	for (i = 0; i < 2; i++) {
		if (fds[i] >= 0)
			close(fds[i]);
		fds[i] = -1;
	}
}
