// SPDX-License-Identifier: LGPL-2.1
/*
 * What every data source beside ftrace writes with: a TracePacket's
 * header on the Perfetto clock, and small sysfs and proc files read as
 * one line.
 */
#include <errno.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include "probes/probes-local.h"
#include "sinks/perfetto/perfetto-format.h"

/**
 * vt_boot_ns - CLOCK_BOOTTIME now, the clock Perfetto's packets are on
 *
 * Return: nanoseconds.
 */
uint64_t vt_boot_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/**
 * vt_packet_begin - start a TracePacket's fields, stamped now
 * @pb: the emptied buffer
 * @seq: the source's packet sequence
 */
void vt_packet_begin(struct vt_pb *pb, uint32_t seq)
{
	vt_pb_reset(pb);
	vt_pb_varint(pb, PF_PACKET_TIMESTAMP, vt_boot_ns());
	vt_pb_varint(pb, PF_PACKET_TRUSTED_PACKET_SEQUENCE_ID, seq);
}

/**
 * vt_read_small - read a small sysfs or proc file as one line
 * @path: the file
 * @buf: set to its text, without the trailing newline
 * @size: bytes at @buf; longer text is cut
 *
 * Return: @buf, or NULL when the file cannot be opened or read.
 */
char *vt_read_small(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	do
		n = read(fd, buf, size - 1);
	while (n < 0 && errno == EINTR);
	close(fd);
	if (n < 0)
		return NULL;
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return buf;
}
