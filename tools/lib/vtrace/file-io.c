// SPDX-License-Identifier: LGPL-2.1
/*
 * Whole positioned reads and writes (see file-io.h).
 */
#include <errno.h>
#include <unistd.h>

#include "file-io.h"

/**
 * vt_pwrite_all - write all of @buf at @off
 * @fd: file
 * @buf: data
 * @len: its length
 * @off: file offset
 *
 * Return: 0 or a negative errno (-EIO for a write that makes no progress).
 */
int vt_pwrite_all(int fd, const void *buf, size_t len, off_t off)
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
 * vt_pread_all - read exactly @len bytes at @off
 * @fd: file
 * @buf: where to put them
 * @len: how many
 * @off: file offset
 *
 * Return: 0 or a negative errno (-ENODATA when the file ends first).
 */
int vt_pread_all(int fd, void *buf, size_t len, off_t off)
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
