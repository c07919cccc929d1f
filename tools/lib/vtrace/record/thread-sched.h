/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * What the scheduler did with a thread of this process: whether it is
 * runnable, its time on a CPU and its time waiting for one. Internal to
 * the library.
 */
#ifndef VTRACE_THREAD_SCHED_H
#define VTRACE_THREAD_SCHED_H

#include <stdbool.h>
#include <sys/types.h>

/**
 * struct vt_thread_sched - one reading of a thread's scheduling account
 * @runnable: running or waiting to run ('R'), not sleeping
 * @on_cpu_ns: nanoseconds it has run
 * @waited_ns: nanoseconds it has waited on a run queue, up to its last
 *	time on a CPU (a wait still going on is not in it yet)
 */
struct vt_thread_sched {
	bool runnable;
	unsigned long long on_cpu_ns;
	unsigned long long waited_ns;
};

int vt_thread_sched_open(pid_t tid, int fds[2]);
int vt_thread_sched_read(const int fds[2], struct vt_thread_sched *s);
void vt_thread_sched_close(int fds[2]);

#endif /* VTRACE_THREAD_SCHED_H */
