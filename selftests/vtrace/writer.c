// SPDX-License-Identifier: GPL-2.0
/*
 * The child catches SIGUSR1 without SA_RESTART, so that signal is not
 * fatal to it: it only ends a write that checks for pending signals.
 */
#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "vtrace_test.h"
#include "writer.h"

static void caught(int sig)
{
	(void)sig;
}

/**
 * vt_writer_start() - write a debugfs vtrace control file from a child
 * @file: path below vtrace/, e.g. "sim/step"
 * @val: what to write
 *
 * Return: the child's pid, or -errno.  The child exits with 0 when the
 * write succeeded, else with the write's errno.
 */
pid_t vt_writer_start(const char *file, const char *val)
{
	struct sigaction sa = { .sa_handler = caught };
	pid_t pid = fork();

	if (pid)
		return pid < 0 ? -errno : pid;
	if (sigaction(SIGUSR1, &sa, NULL))
		_exit(errno);
	_exit(-vt_ctl_write(file, val));
}

/**
 * vt_writer_wait() - wait for a vt_writer_start() child to exit
 * @pid: the child
 * @timeout_ms: how long to wait
 *
 * Return: its exit status, -ETIMEDOUT if it still runs (it is left
 * running), -ECHILD if a signal killed it, or -errno of waitpid().
 */
int vt_writer_wait(pid_t pid, int timeout_ms)
{
	const struct timespec tick = { .tv_nsec = 1000000 };
	int status, waited;
	pid_t ret;

	for (waited = 0; waited <= timeout_ms; waited++) {
		ret = waitpid(pid, &status, WNOHANG);
		if (ret < 0)
			return -errno;
		if (ret == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) :
						   -ECHILD;
		nanosleep(&tick, NULL);
	}
	return -ETIMEDOUT;
}
