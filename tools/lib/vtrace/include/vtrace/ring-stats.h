/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The ring buffer's own per-CPU counters (per_cpu/cpuN/stats): what is
 * left in it, and what it lost.
 */
#ifndef _VTRACE_RING_STATS_H
#define _VTRACE_RING_STATS_H

struct tracefs_instance;

/**
 * struct vtrace_ring_counters - one CPU's per_cpu/cpuN/stats
 * @entries: events in the buffer not read yet
 * @overrun: events overwritten before they were read
 * @commit_overrun: events dropped because nested writers filled the buffer
 * @bytes: bytes in the buffer not read yet
 * @dropped_events: events not written because the buffer was full (when
 *	overwrite is off)
 * @read_events: events read by readers since the buffer was reset
 */
struct vtrace_ring_counters {
	unsigned long long entries;
	unsigned long long overrun;
	unsigned long long commit_overrun;
	unsigned long long bytes;
	unsigned long long dropped_events;
	unsigned long long read_events;
};

int vtrace_ring_counters_read(struct tracefs_instance *instance, int cpu,
			      struct vtrace_ring_counters *counters);
int vtrace_ring_counters_pread(int fd, struct vtrace_ring_counters *counters);
unsigned long long
vtrace_ring_counters_lost(const struct vtrace_ring_counters *counters);

#endif /* _VTRACE_RING_STATS_H */
