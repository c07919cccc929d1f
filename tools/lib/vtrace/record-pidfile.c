// SPDX-License-Identifier: LGPL-2.1
/*
 * The pid file of a recording.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <vtrace/instance.h>
#include <vtrace/record-pidfile.h>

/**
 * vtrace_record_pidfile_path - a recording's file in the state directory
 * @instance: instance name, NULL for the top level buffer
 * @suffix: ".pid" or ".log"
 * @path: set to a malloc'ed path
 *
 * Returns 0 or -ENOMEM.
 */
int vtrace_record_pidfile_path(const char *instance, const char *suffix,
			       char **path)
{
	const char *dir = getenv(VTRACE_STATE_DIR_ENV);

	if (!dir || !*dir)
		dir = VTRACE_STATE_DIR;
	if (asprintf(path, "%s/record%s%s%s", dir, instance ? "-" : "",
		     instance ? instance : "", suffix) < 0)
		return -ENOMEM;
	return 0;
}

static pid_t read_pid(const char *path)
{
	char buf[32] = "";
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	return strtol(buf, NULL, 10);
}

static int alive(pid_t pid)
{
	return pid > 0 && (!kill(pid, 0) || errno == EPERM);
}

/**
 * vtrace_record_owner - the process recording an instance
 * @instance: instance name, NULL for the top level buffer
 * @owner: set to its pid, 0 when none (a stale file counts as none)
 *
 * Returns 0 or -ENOMEM.
 */
int vtrace_record_owner(const char *instance, pid_t *owner)
{
	char *path;
	pid_t pid;
	int ret;

	ret = vtrace_record_pidfile_path(instance, ".pid", &path);
	if (ret)
		return ret;
	pid = read_pid(path);
	free(path);
	*owner = alive(pid) ? pid : 0;
	return 0;
}

/**
 * vtrace_record_lock - claim an instance for this process
 * @instance: instance name, NULL for the top level buffer
 * @owner: set to the pid of the recording already there on -EBUSY
 *
 * A pid file left by a recording that died is taken over.
 * Returns 0, -EBUSY, or a negative errno of the state directory.
 */
int vtrace_record_lock(const char *instance, pid_t *owner)
{
	char *path, *dir, pid[32];
	int fd, len, ret, tries;

	ret = vtrace_record_pidfile_path(instance, ".pid", &path);
	if (ret)
		return ret;
	dir = strdup(path);
	if (!dir) {
		free(path);
		return -ENOMEM;
	}
	*strrchr(dir, '/') = '\0';
	if (mkdir(dir, 0755) && errno != EEXIST) {
		ret = -errno;
		goto out;
	}
	for (tries = 0; tries < 2; tries++) {
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd >= 0)
			break;
		ret = -errno;
		if (errno != EEXIST)
			goto out;
		*owner = read_pid(path);
		if (alive(*owner)) {
			ret = -EBUSY;
			goto out;
		}
		unlink(path); /* stale: its recording died */
	}
	if (fd < 0)
		goto out;
	len = snprintf(pid, sizeof(pid), "%d\n", getpid());
	ret = write(fd, pid, len) == len ? 0 : -EIO;
	close(fd);
	if (ret)
		unlink(path);
out:
	free(dir);
	free(path);
	return ret;
}

/**
 * vtrace_record_unlock - release the instance claimed by this process
 * @instance: instance name, NULL for the top level buffer
 */
void vtrace_record_unlock(const char *instance)
{
	char *path;

	if (vtrace_record_pidfile_path(instance, ".pid", &path))
		return;
	if (read_pid(path) == getpid())
		unlink(path);
	free(path);
}
