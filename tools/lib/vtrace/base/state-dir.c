// SPDX-License-Identifier: LGPL-2.1
/*
 * vtrace's state directory.
 *
 * Another user who could make the directory, or write into it, could plant
 * entries there (a session naming a pid of theirs to have it signalled, a
 * symbolic link to have a file of ours overwritten): so the directory is
 * opened without following a link, must be owned by us or root and
 * writable by nobody else, and every file in it is opened relative to
 * that descriptor, again without following links.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <vtrace/state-dir.h>

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/**
 * vtrace_state_dir - the state directory's path
 *
 * $VTRACE_STATE_DIR, else %VTRACE_STATE_DIR; on a system without /run (a
 * minimal initramfs, Android) "vtrace" in /tmp or /data/local/tmp.
 *
 * Return: the path (the directory may not exist yet).
 */
const char *vtrace_state_dir(void)
{
	static const char *const fallbacks[] = { "/tmp", "/data/local/tmp" };
	const char *env = getenv(VTRACE_STATE_DIR_ENV);
	static char dir[32];
	size_t i;

	if (env && *env)
		return env;
	if (is_dir("/run"))
		return VTRACE_STATE_DIR;
	for (i = 0; i < sizeof(fallbacks) / sizeof(fallbacks[0]); i++) {
		if (is_dir(fallbacks[i])) {
			snprintf(dir, sizeof(dir), "%s/vtrace", fallbacks[i]);
			return dir;
		}
	}
	return VTRACE_STATE_DIR;
}

static enum vtrace_state_dir_fault check_dir(const struct stat *st)
{
	if (!S_ISDIR(st->st_mode))
		return VTRACE_STATE_DIR_NOT_DIR;
	if (st->st_uid != geteuid() && st->st_uid != 0)
		return VTRACE_STATE_DIR_FOREIGN;
	if (st->st_mode & 0022)
		return VTRACE_STATE_DIR_WRITABLE;
	return VTRACE_STATE_DIR_OK;
}

/**
 * vtrace_state_dir_open - open the state directory, proven to be ours
 * @create: make it (mode 0755) when it does not exist
 * @dirfd: set to a descriptor of the directory, for openat() and friends
 * @fault: set to why it is not trusted on -EPERM and -ENOTDIR (may be NULL)
 *
 * Return: 0, -ENOENT when it does not exist (and @create is false),
 * -ENOTDIR when the path is not a directory or is a symbolic link, -EPERM
 * when it belongs to another user or others may write to it, or the
 * -errno of mkdir or open.
 */
int vtrace_state_dir_open(bool create, int *dirfd,
			  enum vtrace_state_dir_fault *fault)
{
	const char *path = vtrace_state_dir();
	enum vtrace_state_dir_fault f;
	struct stat st;
	int fd;

	if (fault)
		*fault = VTRACE_STATE_DIR_OK;
	if (create && mkdir(path, 0755) && errno != EEXIST)
		return -errno;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		if (errno != ELOOP && errno != ENOTDIR)
			return -errno;
		if (fault)
			*fault = VTRACE_STATE_DIR_NOT_DIR;
		return -ENOTDIR;
	}
	if (fstat(fd, &st)) {
		close(fd);
		return -errno;
	}
	f = check_dir(&st);
	if (f != VTRACE_STATE_DIR_OK) {
		close(fd);
		if (fault)
			*fault = f;
		return f == VTRACE_STATE_DIR_NOT_DIR ? -ENOTDIR : -EPERM;
	}
	*dirfd = fd;
	return 0;
}

/**
 * vtrace_state_dir_fault_str - a fault, for messages
 * @fault: what vtrace_state_dir_open() found
 *
 * Return: a phrase such as "others may write to it".
 */
const char *vtrace_state_dir_fault_str(enum vtrace_state_dir_fault fault)
{
	switch (fault) {
	case VTRACE_STATE_DIR_NOT_DIR:
		return "not a directory (or a symbolic link)";
	case VTRACE_STATE_DIR_FOREIGN:
		return "owned by another user";
	case VTRACE_STATE_DIR_WRITABLE:
		return "others may write to it";
	case VTRACE_STATE_DIR_OK:
		break;
	}
	return "trusted";
}

/**
 * vtrace_state_file_open - open a file in the state directory
 * @name: file name (no slash)
 * @flags: open() flags; with %O_CREAT the directory is made when missing
 *	(to create a file, see vtrace_state_file_create())
 * @mode: mode of a file created
 * @fd: set to the descriptor (close-on-exec)
 *
 * A symbolic link at @name is refused (-ELOOP), never followed.
 *
 * Return: 0, an error of vtrace_state_dir_open(), or the -errno of openat.
 */
int vtrace_state_file_open(const char *name, int flags, mode_t mode, int *fd)
{
	int dirfd, ret;

	ret = vtrace_state_dir_open(flags & O_CREAT, &dirfd, NULL);
	if (ret)
		return ret;
	*fd = openat(dirfd, name, flags | O_NOFOLLOW | O_CLOEXEC, mode);
	ret = *fd < 0 ? -errno : 0;
	close(dirfd);
	return ret;
}

/**
 * vtrace_state_file_create - create a file in the state directory afresh
 * @name: file name (no slash)
 * @mode: its mode
 * @fd: set to a descriptor open for writing (close-on-exec)
 *
 * Whatever was at @name (a file of an earlier run, a link) is removed,
 * and the file is made with %O_EXCL: it is always a new file of ours.
 * The directory is made when missing.
 *
 * Return: 0, an error of vtrace_state_dir_open(), or the -errno of openat.
 */
int vtrace_state_file_create(const char *name, mode_t mode, int *fd)
{
	int dirfd, ret;

	ret = vtrace_state_dir_open(true, &dirfd, NULL);
	if (ret)
		return ret;
	if (unlinkat(dirfd, name, 0) && errno != ENOENT) {
		ret = -errno;
	} else {
		*fd = openat(dirfd, name,
			     O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
				     O_CLOEXEC,
			     mode);
		ret = *fd < 0 ? -errno : 0;
	}
	close(dirfd);
	return ret;
}
