// SPDX-License-Identifier: LGPL-2.1
/*
 * Reading per_cpu/cpuN/stats.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include <vtrace/ring-stats.h>

static const struct {
	const char *key;
	size_t offset;
} counter_keys[] = {
	{ "entries", offsetof(struct vtrace_ring_counters, entries) },
	{ "overrun", offsetof(struct vtrace_ring_counters, overrun) },
	{ "commit overrun",
	  offsetof(struct vtrace_ring_counters, commit_overrun) },
	{ "bytes", offsetof(struct vtrace_ring_counters, bytes) },
	{ "dropped events",
	  offsetof(struct vtrace_ring_counters, dropped_events) },
	{ "read events", offsetof(struct vtrace_ring_counters, read_events) },
};

static void parse_line(const char *line, size_t len,
		       struct vtrace_ring_counters *counters)
{
	unsigned int i;

	for (i = 0; i < sizeof(counter_keys) / sizeof(counter_keys[0]); i++) {
		size_t klen = strlen(counter_keys[i].key);

		if (len > klen && !strncmp(line, counter_keys[i].key, klen) &&
		    line[klen] == ':') {
			*(unsigned long long *)((char *)counters +
						counter_keys[i].offset) =
				strtoull(line + klen + 1, NULL, 10);
			return;
		}
	}
}

static void parse_counters(const char *buf, size_t len,
			   struct vtrace_ring_counters *counters)
{
	const char *line, *end;

	memset(counters, 0, sizeof(*counters));
	for (line = buf; line < buf + len; line = end + 1) {
		end = memchr(line, '\n', buf + len - line);
		if (!end)
			end = buf + len;
		parse_line(line, end - line, counters);
	}
}

/**
 * vtrace_ring_counters_read - read one CPU's ring-buffer counters
 * @instance: tracefs instance, NULL for the top level
 * @cpu: the CPU
 * @counters: filled in; counters this kernel does not show stay 0
 *
 * Return: 0 or a negative errno (-ENODEV when @cpu has no buffer).
 */
int vtrace_ring_counters_read(struct tracefs_instance *instance, int cpu,
			      struct vtrace_ring_counters *counters)
{
	char file[64];
	char *buf;
	int len;

	snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
	errno = 0;
	buf = tracefs_instance_file_read(instance, file, &len);
	if (!buf)
		return errno == ENOENT || !errno ? -ENODEV : -errno;
	parse_counters(buf, len, counters);
	free(buf);
	return 0;
}

/**
 * vtrace_ring_counters_pread - read the counters from an open stats file
 * @fd: per_cpu/cpuN/stats, open for reading
 * @counters: filled in; counters this kernel does not show stay 0
 *
 * For a reader that asks often: one pread() instead of an open, reads
 * and a close each time.
 * Return: 0 or a negative errno.
 */
int vtrace_ring_counters_pread(int fd, struct vtrace_ring_counters *counters)
{
	char buf[1024];
	ssize_t len;

	len = pread(fd, buf, sizeof(buf), 0);
	if (len < 0)
		return -errno;
	parse_counters(buf, len, counters);
	return 0;
}

/**
 * vtrace_ring_counters_lost - events the buffer lost, all causes together
 * @counters: one CPU's counters
 *
 * Return: overrun + commit overrun + dropped events.
 */
unsigned long long
vtrace_ring_counters_lost(const struct vtrace_ring_counters *counters)
{
	return counters->overrun + counters->commit_overrun +
	       counters->dropped_events;
}
