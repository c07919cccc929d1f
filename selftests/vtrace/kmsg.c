// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/kmsg gives one record per read(2), "PRI,SEQ,USEC,FLAGS;TEXT\n"
 * followed by "KEY=VALUE" lines that start with a blank; bytes outside
 * printable ASCII in TEXT come as "\xNN".
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "kmsg.h"

/**
 * vt_kmsg_open_at_end() - open the kernel log after its last record
 *
 * Return: a descriptor from which vt_kmsg_count() sees only the records
 * logged after this call, or -errno.
 */
int vt_kmsg_open_at_end(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (lseek(fd, 0, SEEK_END) < 0) {
		close(fd);
		return -errno;
	}
	return fd;
}

/**
 * vt_kmsg_count() - count new kernel log records containing a text
 * @fd: from vt_kmsg_open_at_end(); consumed up to the newest record
 * @text: the text to look for in each record's message
 *
 * Return: the number of records whose message contains @text, or -errno.
 */
int vt_kmsg_count(int fd, const char *text)
{
	char rec[8192], *msg, *end;
	int n = 0;
	ssize_t len;

	for (;;) {
		len = read(fd, rec, sizeof(rec) - 1);
		if (len < 0 && errno == EPIPE)
			continue; /* records overwritten before we read them */
		if (len < 0)
			return errno == EAGAIN ? n : -errno;
		rec[len] = '\0';
		msg = strchr(rec, ';');
		if (!msg)
			continue;
		end = strchr(++msg, '\n');
		if (end)
			*end = '\0';
		if (strstr(msg, text))
			n++;
	}
}
