// SPDX-License-Identifier: LGPL-2.1
/*
 * Locating tracefs. libtracefs does the searching and the mounting; this only
 * turns its answer into an error code the caller can explain.
 */
#include <errno.h>

#include <tracefs.h>

#include <vtrace/tracing-dir.h>

/**
 * vtrace_tracing_dir - find tracefs, mounting it if allowed and needed
 * @mount: mount tracefs (needs root) when it is not mounted yet
 * @dir: set to the tracefs directory on success
 *
 * Return: 0, -ENODEV when tracefs is not mounted and @mount is false, or
 * -errno of the failed mount (typically -EPERM when not root).
 */
int vtrace_tracing_dir(bool mount, const char **dir)
{
	const char *path = NULL;
	int ret;

	errno = 0;
	ret = tracefs_tracing_dir_is_mounted(mount, &path);
	if (ret < 0)
		return errno ? -errno : -ENODEV;
	if (ret == 0 && !mount)
		return -ENODEV;

	errno = 0;
	path = tracefs_tracing_dir();
	if (!path)
		return errno ? -errno : -ENODEV;
	*dir = path;
	return 0;
}
