// SPDX-License-Identifier: LGPL-2.1
/*
 * The tracefs instance a command works in.
 *
 * vtrace removes an instance only if vtrace created it. That fact has to
 * outlive the process that created it ("enable" creates, a later
 * "disable --all" removes), so it is kept as a marker file in a state
 * directory, holding the device and inode of the instance directory: a
 * same-named instance someone else made after ours was removed does not
 * match and is left alone.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include <vtrace/event-name.h>
#include <vtrace/instance.h>
#include <vtrace/state-dir.h>

/**
 * struct vtrace_instance - an open tracefs instance
 * @tfs: libtracefs handle, NULL for the top level buffer
 * @name: instance name, NULL for the top level buffer
 * @is_new: created by this open
 * @marker_err: -errno of recording the creation in the state directory
 */
struct vtrace_instance {
	struct tracefs_instance *tfs;
	char *name;
	bool is_new;
	int marker_err;
};

/* The marker's name in the state directory. */
static char *marker_name(const char *name)
{
	char *file;

	if (asprintf(&file, "instance-%s", name) < 0)
		return NULL;
	return file;
}

/* Identify the instance directory by device and inode. */
static int instance_id(const struct vtrace_instance *vi, char *buf, size_t size)
{
	struct stat st;
	char *dir;
	int ret;

	dir = tracefs_instance_get_dir(vi->tfs);
	if (!dir)
		return -ENOMEM;
	ret = stat(dir, &st) ? -errno : 0;
	tracefs_put_tracing_file(dir);
	if (ret)
		return ret;
	snprintf(buf, size, "%llu:%llu\n", (unsigned long long)st.st_dev,
		 (unsigned long long)st.st_ino);
	return 0;
}

static int marker_write(struct vtrace_instance *vi)
{
	char id[64], *file;
	ssize_t len;
	int fd, ret;

	ret = instance_id(vi, id, sizeof(id));
	if (ret)
		return ret;
	file = marker_name(vi->name);
	if (!file)
		return -ENOMEM;
	ret = vtrace_state_file_create(file, 0644, &fd);
	free(file);
	if (ret)
		return ret;
	len = strlen(id);
	ret = write(fd, id, len) == len ? 0 : -EIO;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

/* Whether the marker names this very instance directory. */
static bool marker_matches(const struct vtrace_instance *vi)
{
	char id[64], stored[64] = "", *file;
	ssize_t n;
	int fd;

	if (!vi->name || instance_id(vi, id, sizeof(id)))
		return false;
	file = marker_name(vi->name);
	if (!file)
		return false;
	if (vtrace_state_file_open(file, O_RDONLY, 0, &fd)) {
		free(file);
		return false;
	}
	free(file);
	n = read(fd, stored, sizeof(stored) - 1);
	close(fd);
	if (n <= 0)
		return false;
	stored[n] = '\0';
	return !strcmp(id, stored);
}

static void marker_remove(const char *name)
{
	char *file = marker_name(name);
	int dirfd;

	if (file && !vtrace_state_dir_open(false, &dirfd, NULL)) {
		unlinkat(dirfd, file, 0);
		close(dirfd);
	}
	free(file);
}

/**
 * vtrace_instance_open - open the top level buffer or a named instance
 * @name: instance name, or NULL for the top level buffer
 * @mode: %VTRACE_INSTANCE_CREATE creates a missing instance (and marks it
 *	as vtrace's), %VTRACE_INSTANCE_EXISTING fails with -ENOENT instead
 * @out: set to the new handle, to be released with vtrace_instance_close()
 *
 * tracefs must have been located first (see vtrace_tracing_dir()).
 *
 * Return: 0, -EINVAL for a bad name, -ENOENT, -ENOMEM or the -errno of the
 * failed mkdir in tracefs. Failing to record the creation is not an error:
 * see vtrace_instance_marker_error().
 */
int vtrace_instance_open(const char *name, enum vtrace_instance_mode mode,
			 struct vtrace_instance **out)
{
	struct vtrace_name_error nerr;
	struct vtrace_instance *vi;
	int ret;

	if (name && vtrace_instance_name_check(name, &nerr))
		return -EINVAL;

	vi = calloc(1, sizeof(*vi));
	if (!vi)
		return -ENOMEM;
	if (!name)
		goto done;

	vi->name = strdup(name);
	if (!vi->name) {
		ret = -ENOMEM;
		goto err;
	}
	if (mode == VTRACE_INSTANCE_EXISTING &&
	    !tracefs_instance_exists(name)) {
		ret = -ENOENT;
		goto err;
	}
	errno = 0;
	if (mode == VTRACE_INSTANCE_CREATE)
		vi->tfs = tracefs_instance_create(name);
	else
		vi->tfs = tracefs_instance_alloc(NULL, name);
	if (!vi->tfs) {
		ret = errno ? -errno : -ENOMEM;
		goto err;
	}
	vi->is_new = tracefs_instance_is_new(vi->tfs);
	/*
	 * Without the marker a later "disable --all" leaves the instance in
	 * place: worth a warning from the caller, not a failure.
	 */
	if (vi->is_new)
		vi->marker_err = marker_write(vi);
done:
	*out = vi;
	return 0;
err:
	if (vi->tfs)
		tracefs_instance_free(vi->tfs);
	free(vi->name);
	free(vi);
	return ret;
}

/**
 * vtrace_instance_marker_error - whether the creation could not be recorded
 * @vi: handle
 *
 * Return: 0, or the -errno that kept vtrace_instance_open() from recording
 * in vtrace_state_dir() that vtrace created this instance (so that a later
 * run would not remove it).
 */
int vtrace_instance_marker_error(const struct vtrace_instance *vi)
{
	return vi->marker_err;
}

/**
 * vtrace_instance_close - release a handle (the instance stays)
 * @vi: handle from vtrace_instance_open(), or NULL
 */
void vtrace_instance_close(struct vtrace_instance *vi)
{
	if (!vi)
		return;
	tracefs_instance_free(vi->tfs);
	free(vi->name);
	free(vi);
}

/**
 * vtrace_instance_remove - remove the instance if vtrace created it
 * @vi: handle of a named instance
 *
 * The handle stays valid (for vtrace_instance_close()) but refers to nothing.
 *
 * EBUSY is retried for up to a second: programs marking through
 * libvtrace-atrace let go of the instance's trace_marker shortly after its
 * tags were released (and until then the kernel refuses the rmdir).
 *
 * Return: 0 when removed, -EPERM when vtrace did not create it (or @vi is
 * the top level buffer), or the -errno of the failed rmdir (-EBUSY while a
 * reader has it open).
 */
int vtrace_instance_remove(struct vtrace_instance *vi)
{
	struct timespec pause = { 0, 10 * 1000 * 1000 };
	int tries = 100;

	if (!vtrace_instance_is_owned(vi))
		return -EPERM;
	for (;;) {
		errno = 0;
		if (!tracefs_instance_destroy(vi->tfs))
			break;
		if (errno != EBUSY || !--tries)
			return errno ? -errno : -EIO;
		nanosleep(&pause, NULL);
	}
	marker_remove(vi->name);
	return 0;
}

/**
 * vtrace_instance_tracefs - the libtracefs handle
 * @vi: handle
 *
 * Return: the handle for libtracefs calls; NULL is the top level buffer.
 */
struct tracefs_instance *
vtrace_instance_tracefs(const struct vtrace_instance *vi)
{
	return vi->tfs;
}

/**
 * vtrace_instance_name - name for messages
 * @vi: handle
 *
 * Return: the instance name, or NULL for the top level buffer.
 */
const char *vtrace_instance_name(const struct vtrace_instance *vi)
{
	return vi->name;
}

/**
 * vtrace_instance_is_new - whether this open created the instance
 * @vi: handle
 *
 * Return: true when vtrace_instance_open() made the directory.
 */
bool vtrace_instance_is_new(const struct vtrace_instance *vi)
{
	return vi->is_new;
}

/**
 * vtrace_instance_is_owned - whether vtrace created this instance
 * @vi: handle
 *
 * Return: true when this or an earlier vtrace run created the instance.
 */
bool vtrace_instance_is_owned(const struct vtrace_instance *vi)
{
	return vi->name && (vi->is_new || marker_matches(vi));
}

/* Userspace markers of the top level, copied into an instance (6.17). */
#define COPY_MARKER_OPTION "options/copy_trace_marker"

/**
 * vtrace_instance_copy_markers - have the top level's markers copied here
 * @vi: an instance (the top level has them already)
 * @on: start copying them, or stop what an earlier call started
 *
 * Markers go to the top level when recordings of different buffers
 * overlap; copy_trace_marker (Linux 6.17) copies them into an instance.
 * The option is only switched on when it is off, so that one set by
 * someone else is left alone.
 *
 * Return: 0 when it was switched; -ENOENT for the top level or a kernel
 * without it, -EBUSY when it is on already (someone else's), or the
 * negative errno of the write.
 */
int vtrace_instance_copy_markers(struct vtrace_instance *vi, bool on)
{
	struct tracefs_instance *tfs = vtrace_instance_tracefs(vi);
	char *value;
	bool off;

	if (!tfs)
		return -ENOENT;
	if (on) {
		value = tracefs_instance_file_read(tfs, COPY_MARKER_OPTION,
						   NULL);
		off = value && value[0] == '0';
		free(value);
		if (!off)
			return value ? -EBUSY : -ENOENT;
	}
	errno = 0;
	if (tracefs_instance_file_write(tfs, COPY_MARKER_OPTION,
					on ? "1" : "0") <= 0)
		return errno ? -errno : -EIO;
	return 0;
}
