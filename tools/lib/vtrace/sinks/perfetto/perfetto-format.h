/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Perfetto trace format: the message and field numbers vtrace writes,
 * from Perfetto's perfetto_trace.proto (protos/perfetto/trace/). These
 * are facts of the format; this header is their one home, included by
 * the Perfetto writer and reader and by the data sources (probes/).
 *
 * A message's fields are named PF_<MESSAGE>_<FIELD>; a Trace is a
 * sequence of PF_TRACE_PACKET fields.
 */
#ifndef _VTRACE_PERFETTO_FORMAT_H
#define _VTRACE_PERFETTO_FORMAT_H

#include <stddef.h>
#include <stdint.h>

/* perfetto.protos.Trace */
#define PF_TRACE_PACKET 1

/* TracePacket */
#define PF_PACKET_FTRACE_EVENTS 1 /* FtraceEventBundle */
#define PF_PACKET_PROCESS_TREE 2
#define PF_PACKET_SYS_STATS 7
#define PF_PACKET_PROCESS_STATS 9
#define PF_PACKET_CLOCK_SNAPSHOT 6
#define PF_PACKET_TIMESTAMP 8
#define PF_PACKET_TRUSTED_PACKET_SEQUENCE_ID 10
#define PF_PACKET_TRACK_EVENT 11
#define PF_PACKET_INTERNED_DATA 12 /* InternedData */
#define PF_PACKET_SEQUENCE_FLAGS 13
#define PF_PACKET_FTRACE_STATS 34
#define PF_PACKET_COMPRESSED_PACKETS 50
#define PF_PACKET_ZSTD_COMPRESSED_PACKETS 133
#define PF_PACKET_TRACK_DESCRIPTOR 60
#define PF_PACKET_FIRST_PACKET_ON_SEQUENCE 87
#define PF_PACKET_SYSTEM_INFO 45
#define PF_PACKET_CPU_INFO 67

/* TracePacket.SequenceFlags */
#define PF_SEQ_INCREMENTAL_STATE_CLEARED 1

/* FtraceEventBundle */
#define PF_BUNDLE_CPU 1
#define PF_BUNDLE_EVENT 2
#define PF_BUNDLE_LOST_EVENTS 3
#define PF_BUNDLE_COMPACT_SCHED 4 /* FtraceEventBundle.CompactSched */
#define PF_BUNDLE_FTRACE_CLOCK 5
#define PF_BUNDLE_FTRACE_TIMESTAMP 6
#define PF_BUNDLE_BOOT_TIMESTAMP 7

/*
 * CompactSched: packed arrays, numbered 1 to 12 (switch_timestamp,
 * _prev_state, _next_pid, _next_prio, -, _next_comm_index, then
 * waking_timestamp, _pid, _target_cpu, _prio, _comm_index,
 * _common_flags), and the table of comm strings.
 */
#define PF_COMPACT_SWITCH_TIMESTAMP 1
#define PF_COMPACT_SWITCH_PREV_STATE 2
#define PF_COMPACT_SWITCH_NEXT_PID 3
#define PF_COMPACT_SWITCH_NEXT_PRIO 4
#define PF_COMPACT_INTERN_TABLE 5
#define PF_COMPACT_SWITCH_NEXT_COMM_INDEX 6
#define PF_COMPACT_WAKING_TIMESTAMP 7
#define PF_COMPACT_WAKING_PID 8
#define PF_COMPACT_WAKING_TARGET_CPU 9
#define PF_COMPACT_WAKING_PRIO 10
#define PF_COMPACT_WAKING_COMM_INDEX 11
#define PF_COMPACT_LAST_ARRAY 12

/* FtraceClock */
#define PF_FTRACE_CLOCK_GLOBAL 2
#define PF_FTRACE_CLOCK_LOCAL 3
#define PF_FTRACE_CLOCK_MONO_RAW 4

/* FtraceEvent; its typed messages are in pf_typed_events[] below. */
#define PF_EVENT_TIMESTAMP 1
#define PF_EVENT_PID 2
#define PF_EVENT_GENERIC 327 /* GenericFtraceEvent */

/* GenericFtraceEvent */
#define PF_GENERIC_EVENT_NAME 1
#define PF_GENERIC_FIELD 2
/* GenericFtraceEvent.Field */
#define PF_GENERIC_FIELD_NAME 1
#define PF_GENERIC_FIELD_STR_VALUE 3
#define PF_GENERIC_FIELD_INT_VALUE 4
#define PF_GENERIC_FIELD_UINT_VALUE 5

/* FtraceStats */
#define PF_FTRACE_STATS_PHASE 1
#define PF_FTRACE_STATS_CPU_STATS 2
#define PF_FTRACE_STATS_PHASE_END_OF_TRACE 2
/* FtraceCpuStats */
#define PF_CPU_STATS_CPU 1
#define PF_CPU_STATS_ENTRIES 2
#define PF_CPU_STATS_OVERRUN 3
#define PF_CPU_STATS_COMMIT_OVERRUN 4
#define PF_CPU_STATS_BYTES_READ 5
#define PF_CPU_STATS_DROPPED_EVENTS 8
#define PF_CPU_STATS_READ_EVENTS 9

/* ProcessTree */
#define PF_PROCESS_TREE_PROCESSES 1
#define PF_PROCESS_TREE_THREADS 2
#define PF_PROCESS_TREE_COLLECTION_END 3
/* ProcessTree.Process */
#define PF_PROCESS_PID 1
#define PF_PROCESS_PPID 2
#define PF_PROCESS_CMDLINE 3
#define PF_PROCESS_UID 5
#define PF_PROCESS_CMDLINE_IS_COMM 9
#define PF_PROCESS_IS_KTHREAD 8
/* ProcessTree.Thread */
#define PF_THREAD_TID 1
#define PF_THREAD_NAME 2
#define PF_THREAD_TGID 3

/* ProcessStats */
#define PF_PROC_STATS_PROCESSES 1
#define PF_PROC_STATS_COLLECTION_END 2
/* ProcessStats.Process */
#define PF_PSTAT_PID 1
#define PF_PSTAT_VM_SIZE_KB 2
#define PF_PSTAT_VM_RSS_KB 3
#define PF_PSTAT_RSS_ANON_KB 4
#define PF_PSTAT_RSS_FILE_KB 5
#define PF_PSTAT_RSS_SHMEM_KB 6
#define PF_PSTAT_VM_SWAP_KB 7
#define PF_PSTAT_VM_LOCKED_KB 8
#define PF_PSTAT_VM_HWM_KB 9
#define PF_PSTAT_OOM_SCORE_ADJ 10
#define PF_PSTAT_RUNTIME_USER_MODE 21
#define PF_PSTAT_RUNTIME_KERNEL_MODE 22

/* SysStats */
#define PF_SYS_MEMINFO 1 /* SysStats.MeminfoValue */
#define PF_SYS_VMSTAT 2 /* SysStats.VmstatValue */
#define PF_SYS_CPU_STAT 3 /* SysStats.CpuTimes */
#define PF_SYS_NUM_FORKS 4
#define PF_SYS_NUM_IRQ_TOTAL 5
#define PF_SYS_NUM_IRQ 6 /* SysStats.InterruptCount */
#define PF_SYS_NUM_SOFTIRQ_TOTAL 7
#define PF_SYS_NUM_SOFTIRQ 8
#define PF_SYS_COLLECTION_END 9
#define PF_SYS_DEVFREQ 10 /* SysStats.DevfreqValue */
#define PF_SYS_CPUFREQ_KHZ 11
#define PF_SYS_BUDDY_INFO 12
#define PF_SYS_DISK_STAT 13
#define PF_SYS_PSI 14
#define PF_SYS_THERMAL_ZONE 15
/* MeminfoValue, VmstatValue, DevfreqValue, InterruptCount: key, value */
#define PF_SYS_KEY 1
#define PF_SYS_VALUE 2
/* SysStats.CpuTimes: cpu_id then user ... steal, ns */
#define PF_CPU_TIMES_CPU_ID 1
#define PF_CPU_TIMES_FIRST 2
#define PF_CPU_TIMES_NR 8
/* SysStats.BuddyInfo */
#define PF_BUDDY_NODE 1
#define PF_BUDDY_ZONE 2
#define PF_BUDDY_ORDER_PAGES 3
/* SysStats.DiskStat: device_name, then the counters in /proc order */
#define PF_DISK_DEVICE_NAME 1
#define PF_DISK_READ_SECTORS 2
#define PF_DISK_READ_TIME_MS 3
#define PF_DISK_WRITE_SECTORS 4
#define PF_DISK_WRITE_TIME_MS 5
#define PF_DISK_DISCARD_SECTORS 6
#define PF_DISK_DISCARD_TIME_MS 7
#define PF_DISK_FLUSH_COUNT 8
#define PF_DISK_FLUSH_TIME_MS 9
/* SysStats.PsiSample */
#define PF_PSI_RESOURCE 1
#define PF_PSI_TOTAL_NS 2
/* SysStats.ThermalZone */
#define PF_THERMAL_NAME 1
#define PF_THERMAL_TEMP 2
#define PF_THERMAL_TYPE 3

/* SystemInfo */
#define PF_SYSINFO_UTSNAME 1
#define PF_SYSINFO_HZ 3
#define PF_SYSINFO_SERVICE_VERSION 4
#define PF_SYSINFO_PAGE_SIZE 6
#define PF_SYSINFO_NUM_CPUS 8
#define PF_SYSINFO_RAM_BYTES 16
/* Utsname */
#define PF_UTS_SYSNAME 1
#define PF_UTS_VERSION 2
#define PF_UTS_RELEASE 3
#define PF_UTS_MACHINE 4
/* CpuInfo */
#define PF_CPU_INFO_CPUS 1
/* CpuInfo.Cpu */
#define PF_CPU_PROCESSOR 1
#define PF_CPU_FREQUENCIES 2
#define PF_CPU_CAPACITY 3
#define PF_CPU_ARM_IDENTIFIER 4
/* CpuInfo.ArmCpuIdentifier, as /proc/cpuinfo's "CPU ..." lines */
#define PF_ARM_IMPLEMENTER 1
#define PF_ARM_ARCHITECTURE 2
#define PF_ARM_VARIANT 3
#define PF_ARM_PART 4
#define PF_ARM_REVISION 5

/* TrackDescriptor */
#define PF_TRACK_DESCRIPTOR_UUID 1
#define PF_TRACK_DESCRIPTOR_NAME 2
#define PF_TRACK_DESCRIPTOR_PROCESS 3 /* ProcessDescriptor */
#define PF_TRACK_DESCRIPTOR_THREAD 4 /* ThreadDescriptor */
#define PF_TRACK_DESCRIPTOR_COUNTER 8 /* CounterDescriptor */
/* ProcessDescriptor and ThreadDescriptor */
#define PF_DESCRIPTOR_PID 1
#define PF_THREAD_DESCRIPTOR_TID 2
#define PF_THREAD_DESCRIPTOR_NAME 5

/* InternedData */
#define PF_INTERNED_EVENT_NAMES 2
/* EventName */
#define PF_EVENT_NAME_IID 1
#define PF_EVENT_NAME_NAME 2

/* TrackEvent */
#define PF_TRACK_EVENT_TYPE 9
#define PF_TRACK_EVENT_NAME_IID 10
#define PF_TRACK_EVENT_TRACK_UUID 11
#define PF_TRACK_EVENT_NAME 23
#define PF_TRACK_EVENT_COUNTER_VALUE 30
#define PF_TRACK_EVENT_TYPE_SLICE_BEGIN 1
#define PF_TRACK_EVENT_TYPE_SLICE_END 2
#define PF_TRACK_EVENT_TYPE_INSTANT 3
#define PF_TRACK_EVENT_TYPE_COUNTER 4

/* How an ftrace field's value is encoded in a typed message. */
enum pf_kind {
	PF_INT32 = 1,
	PF_INT64,
	PF_UINT32,
	PF_UINT64,
	PF_STRING,
	PF_UINT64_ARRAY, /* repeated uint64, one field per element */
};

#define PF_TYPED_FIELDS_MAX 12

/**
 * struct pf_field - one field of a typed FtraceEvent message
 * @name: the tracefs format's field name (Perfetto keeps those names)
 * @number: the field number in the message
 * @kind: how the value is encoded
 */
struct pf_field {
	const char *name;
	uint8_t number;
	uint8_t kind;
};

/**
 * struct pf_typed_event - an event Perfetto has a message for
 * @system: tracefs system (group) of the event
 * @name: tracefs event name
 * @number: the message's field number in FtraceEvent
 * @fields: the message's fields, ended by one with a NULL @name
 */
struct pf_typed_event {
	const char *system;
	const char *name;
	uint16_t number;
	struct pf_field fields[PF_TYPED_FIELDS_MAX];
};

extern const struct pf_typed_event vt_pf_typed_events[];
extern const size_t vt_pf_nr_typed_events;

#endif /* _VTRACE_PERFETTO_FORMAT_H */
