// SPDX-License-Identifier: LGPL-2.1
/*
 * An output file that appears only when complete (see output-file.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <vtrace/output-file.h>

int vtrace_output_file_check(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return errno == ENOENT ? 0 : -errno;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	return S_ISREG(st.st_mode) ? 0 : -EINVAL;
}

const char *vtrace_output_file_strerror(int err)
{
	return err == -EINVAL ? "not a regular file" : strerror(-err);
}

int vtrace_output_file_create(struct vt_output_file *out, const char *path)
{
	const char *base = strrchr(path, '/');
	char *copy;
	int ret;

	out->path = path;
	out->fd = -1;
	out->tmp = NULL;
	ret = vtrace_output_file_check(path);
	if (ret)
		return ret;
	copy = strdup(path);
	if (!copy)
		return -ENOMEM;
	ret = asprintf(&out->tmp, "%s/.%s.XXXXXX", dirname(copy),
		       base ? base + 1 : path);
	free(copy);
	if (ret < 0) {
		out->tmp = NULL;
		return -ENOMEM;
	}
	out->fd = mkostemp(out->tmp, O_CLOEXEC);
	if (out->fd < 0) {
		ret = -errno;
		free(out->tmp);
		out->tmp = NULL;
		return ret;
	}
	return 0;
}

int vtrace_output_file_commit(struct vt_output_file *out, bool durable)
{
	int ret = 0;

	if (durable && fsync(out->fd))
		ret = -errno;
	if (!ret && fchmod(out->fd, VT_OUTPUT_FILE_MODE))
		ret = -errno;
	if (close(out->fd) && !ret)
		ret = -errno;
	out->fd = -1;
	/* Something else may have been put there meanwhile. */
	if (!ret)
		ret = vtrace_output_file_check(out->path);
	if (!ret && rename(out->tmp, out->path))
		ret = -errno;
	if (ret && durable)
		return ret;
	if (ret)
		unlink(out->tmp);
	free(out->tmp);
	out->tmp = NULL;
	return ret;
}

void vtrace_output_file_keep(struct vt_output_file *out)
{
	if (out->fd >= 0)
		close(out->fd);
	free(out->tmp);
	out->tmp = NULL;
	out->fd = -1;
}

void vtrace_output_file_discard(struct vt_output_file *out)
{
	if (out->fd >= 0)
		close(out->fd);
	if (out->tmp)
		unlink(out->tmp);
	free(out->tmp);
	out->tmp = NULL;
	out->fd = -1;
}

int vtrace_output_file_write(const char *path, int (*fill)(FILE *f, void *arg),
			     void *arg)
{
	struct vt_output_file out;
	FILE *f = NULL;
	int ret, fd;

	ret = vtrace_output_file_create(&out, path);
	if (ret)
		return ret;
	/* The stream closes its own descriptor; @out keeps the other. */
	fd = dup(out.fd);
	if (fd >= 0)
		f = fdopen(fd, "w");
	if (!f) {
		ret = -errno;
		if (fd >= 0)
			close(fd);
		vtrace_output_file_discard(&out);
		return ret;
	}
	ret = fill(f, arg);
	if (ferror(f) && !ret)
		ret = -EIO;
	if (fclose(f) && !ret)
		ret = -errno;
	if (ret) {
		vtrace_output_file_discard(&out);
		return ret;
	}
	return vtrace_output_file_commit(&out, false);
}
