/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The data sources beside ftrace, as Perfetto's traced_probes serves them
 * on Linux: linux.process_stats (the process tree, per-process memory),
 * linux.sys_stats (polled /proc and sysfs counters: memory, CPU times,
 * devfreq, cpufreq, thermal zones, ...) and linux.system_info (uname,
 * CPUs). They write Perfetto TracePackets; the recorder hands them to a
 * sink that has a place for them (vtrace_sink_ops.add_packet).
 *
 * Usage:
 *
 *	ret = vtrace_probes_start(&probes, &cfg, emit, ctx);
 *	... the recording ...
 *	ret = vtrace_probes_stop(probes);	// last polls, held packets out
 *	vtrace_probes_free(probes);
 */
#ifndef _VTRACE_PROBES_H
#define _VTRACE_PROBES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <vtrace/fill-policy.h>
#include <vtrace/proto-msg.h>

/* Data source names, as a trace config gives them. */
#define VTRACE_PROCESS_STATS_DATA_SOURCE "linux.process_stats"
#define VTRACE_SYS_STATS_DATA_SOURCE "linux.sys_stats"
#define VTRACE_SYSTEM_INFO_DATA_SOURCE "linux.system_info"

/* Shortest sys_stats period, as Perfetto's sys_stats source raises to. */
#define VTRACE_SYS_STATS_MIN_PERIOD_MS 10
/* Shortest proc_stats_poll_ms, as Perfetto's process_stats raises to. */
#define VTRACE_PROC_STATS_MIN_POLL_MS 100

/**
 * enum vtrace_sys_stats_kind - what linux.sys_stats polls, each at its
 *	own period
 * @VTRACE_SYS_MEMINFO: /proc/meminfo
 * @VTRACE_SYS_VMSTAT: /proc/vmstat
 * @VTRACE_SYS_STAT: /proc/stat (CPU times, interrupts, forks)
 * @VTRACE_SYS_DEVFREQ: every /sys/class/devfreq device's cur_freq
 * @VTRACE_SYS_CPUFREQ: every CPU's current frequency
 * @VTRACE_SYS_BUDDYINFO: /proc/buddyinfo
 * @VTRACE_SYS_DISKSTAT: /proc/diskstats
 * @VTRACE_SYS_PSI: /proc/pressure/{cpu,io,memory}
 * @VTRACE_SYS_THERMAL: every /sys/class/thermal zone's temperature
 * @VTRACE_SYS_NR: number of kinds
 */
enum vtrace_sys_stats_kind {
	VTRACE_SYS_MEMINFO,
	VTRACE_SYS_VMSTAT,
	VTRACE_SYS_STAT,
	VTRACE_SYS_DEVFREQ,
	VTRACE_SYS_CPUFREQ,
	VTRACE_SYS_BUDDYINFO,
	VTRACE_SYS_DISKSTAT,
	VTRACE_SYS_PSI,
	VTRACE_SYS_THERMAL,
	VTRACE_SYS_NR,
};

/* SysStatsConfig.StatCounters, as bits of vtrace_sys_stats.stat_counters */
#define VTRACE_STAT_CPU_TIMES (1u << 1)
#define VTRACE_STAT_IRQ_COUNTS (1u << 2)
#define VTRACE_STAT_SOFTIRQ_COUNTS (1u << 3)
#define VTRACE_STAT_FORK_COUNT (1u << 4)
#define VTRACE_STAT_ALL                                   \
	(VTRACE_STAT_CPU_TIMES | VTRACE_STAT_IRQ_COUNTS | \
	 VTRACE_STAT_SOFTIRQ_COUNTS | VTRACE_STAT_FORK_COUNT)

/* Highest MeminfoCounters and VmstatCounters value vtrace knows. */
#define VTRACE_MEMINFO_MAX 38
#define VTRACE_VMSTAT_MAX 188

/* The values of those enums, indexed by value (sys-stats-counters.c). */
extern const struct vtrace_pb_enum_value
	vtrace_meminfo_counters[VTRACE_MEMINFO_MAX + 1];
extern const struct vtrace_pb_enum_value
	vtrace_vmstat_counters[VTRACE_VMSTAT_MAX + 1];

/**
 * struct vtrace_probe_buffer - the trace buffer a data source writes into
 * @index: its index in the config's buffers
 * @size_kb: its size
 * @fill_policy: %VTRACE_FILL_STREAM (the recording streams into the file:
 *	everything is kept), %VTRACE_FILL_RING_BUFFER (the newest @size_kb
 *	are kept, written at the stop) or %VTRACE_FILL_DISCARD (the first
 *	@size_kb are kept, the rest dropped)
 */
struct vtrace_probe_buffer {
	uint32_t index;
	uint32_t size_kb;
	enum vtrace_fill_policy fill_policy;
};

/**
 * struct vtrace_process_stats - linux.process_stats
 * @enabled: the source is wanted
 * @buffer: where it writes
 * @scan_all_processes_on_start: a ProcessTree of every process and thread
 *	when the recording starts
 * @record_thread_names: threads carry their names
 * @on_demand: a process first seen in the recorded events is read from
 *	/proc then (off: Perfetto's DISABLE_ON_DEMAND quirk)
 * @poll_ms: ProcessStats of every process at this period, 0: never
 * @record_process_runtime: ProcessStats carry CPU time
 */
struct vtrace_process_stats {
	bool enabled;
	struct vtrace_probe_buffer buffer;
	bool scan_all_processes_on_start;
	bool record_thread_names;
	bool on_demand;
	uint32_t poll_ms;
	bool record_process_runtime;
};

/**
 * struct vtrace_sys_stats - linux.sys_stats
 * @enabled: the source is wanted
 * @buffer: where it writes
 * @period_ms: each kind's period, 0: not polled
 * @meminfo: bit N: MeminfoCounters value N is recorded
 * @vmstat: bit N of the array: VmstatCounters value N is recorded
 * @stat_counters: %VTRACE_STAT_* bits
 */
struct vtrace_sys_stats {
	bool enabled;
	struct vtrace_probe_buffer buffer;
	uint32_t period_ms[VTRACE_SYS_NR];
	uint64_t meminfo;
	uint64_t vmstat[(VTRACE_VMSTAT_MAX + 64) / 64];
	uint32_t stat_counters;
};

/**
 * struct vtrace_probes_config - the data sources beside ftrace
 * @process_stats: linux.process_stats
 * @sys_stats: linux.sys_stats
 * @system_info: linux.system_info is wanted
 * @system_info_buffer: where it writes
 */
struct vtrace_probes_config {
	struct vtrace_process_stats process_stats;
	struct vtrace_sys_stats sys_stats;
	bool system_info;
	struct vtrace_probe_buffer system_info_buffer;
};

/**
 * typedef vtrace_packet_fn - takes one packet of a data source
 * @ctx: the caller's
 * @packet: a perfetto.protos.TracePacket, encoded
 * @len: its bytes
 *
 * Called from the probes' own thread, and from the callers of
 * vtrace_probes_start() and vtrace_probes_stop().
 *
 * Return: 0, or a negative errno: the probes then stop writing.
 */
typedef int (*vtrace_packet_fn)(void *ctx, const void *packet, size_t len);

struct vtrace_probes;

bool vtrace_probes_wanted(const struct vtrace_probes_config *cfg);
const char *vtrace_sys_stats_kind_name(enum vtrace_sys_stats_kind kind);
int vtrace_sys_stats_kind_parse(const char *name,
				enum vtrace_sys_stats_kind *kind);
int vtrace_probes_start(struct vtrace_probes **out,
			const struct vtrace_probes_config *cfg,
			vtrace_packet_fn emit, void *ctx);
void vtrace_probes_note_pid(struct vtrace_probes *probes, int pid);
int vtrace_probes_stop(struct vtrace_probes *probes);
uint64_t vtrace_probes_dropped(const struct vtrace_probes *probes);
uint32_t vtrace_probes_missing(const struct vtrace_probes *probes);
void vtrace_probes_free(struct vtrace_probes *probes);

#endif /* _VTRACE_PROBES_H */
