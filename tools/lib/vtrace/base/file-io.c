// SPDX-License-Identifier: LGPL-2.1
/*
 * Whole reads and writes, opening inputs (see file-io.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <vtrace/file-io.h>

/**
 * vtrace_pwrite_all - write all of @buf at @off
 * @fd: file
 * @buf: data
 * @len: its length
 * @off: file offset
 *
 * Return: 0 or a negative errno (-EIO for a write that makes no progress).
 */
int vtrace_pwrite_all(int fd, const void *buf, size_t len, off_t off)
{
	const char *p = buf;
	ssize_t n;

	while (len) {
		n = pwrite(fd, p, len, off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		p += n;
		off += n;
		len -= n;
	}
	return 0;
}

/**
 * vtrace_pread_all - read exactly @len bytes at @off
 * @fd: file
 * @buf: where to put them
 * @len: how many
 * @off: file offset
 *
 * Return: 0 or a negative errno (-ENODATA when the file ends first).
 */
int vtrace_pread_all(int fd, void *buf, size_t len, off_t off)
{
	char *p = buf;
	ssize_t n;

	while (len) {
		n = pread(fd, p, len, off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -ENODATA;
		p += n;
		off += n;
		len -= n;
	}
	return 0;
}

/**
 * vtrace_read_all - read exactly @len bytes
 * @fd: a pipe (or file) that holds them
 * @buf: where to put them
 * @len: how many
 *
 * Return: 0 or a negative errno (-ENODATA when it ends first, -EAGAIN
 * when a non-blocking pipe holds fewer).
 */
int vtrace_read_all(int fd, void *buf, size_t len)
{
	char *p = buf;
	ssize_t n;

	while (len) {
		n = read(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -ENODATA;
		p += n;
		len -= n;
	}
	return 0;
}

/**
 * vtrace_read_file - read a whole file into memory
 * @path: the file (a proc or tracefs file, whose size stat cannot tell)
 * @lenp: set to the bytes read
 *
 * Return: the bytes, followed by a NUL the length leaves out, for the
 * caller to free(); NULL with errno set when it cannot be opened or read.
 */
char *vtrace_read_file(const char *path, size_t *lenp)
{
	size_t len = 0, size = 1 << 20;
	char *data, *p;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	data = malloc(size);
	while (data) {
		if (len + 1 == size) {
			size *= 2;
			p = realloc(data, size);
			if (!p) {
				free(data);
				data = NULL;
				errno = ENOMEM;
				break;
			}
			data = p;
		}
		n = read(fd, data + len, size - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			free(data);
			data = NULL;
			break;
		}
		if (n == 0)
			break;
		len += n;
	}
	close(fd);
	if (data)
		data[len] = '\0';
	*lenp = len;
	return data;
}

/**
 * vtrace_input_open - open a file the library is given to read
 * @path: its name; a symbolic link to a regular file is followed
 * @fd: set to a descriptor for blocking reads (close-on-exec)
 *
 * Opened without blocking (a FIFO with no writer would hold the open
 * forever) and refused unless it is a regular file: a FIFO, device or
 * socket would block a read, never end, or make a size meaningless.
 *
 * Return: 0, -EISDIR for a directory, -%VT_ENOTREG for another file that
 * is not a regular file, or the -errno of open or fstat.
 */
int vtrace_input_open(const char *path, int *fd)
{
	struct stat st;
	int ret = 0;

	*fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (*fd < 0)
		return -errno;
	if (fstat(*fd, &st))
		ret = -errno;
	else if (S_ISDIR(st.st_mode))
		ret = -EISDIR;
	else if (!S_ISREG(st.st_mode))
		ret = -VT_ENOTREG;
	else if (fcntl(*fd, F_SETFL, 0))
		ret = -errno;
	if (ret) {
		close(*fd);
		*fd = -1;
	}
	return ret;
}

/**
 * vtrace_input_strerror - an error of vtrace_input_open(), for messages
 * @err: the negative errno
 *
 * Return: "not a regular file" for -%VT_ENOTREG, else strerror()'s text.
 */
const char *vtrace_input_strerror(int err)
{
	return err == -VT_ENOTREG ? "not a regular file" : strerror(-err);
}
