/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Inside the data sources beside ftrace (probes.h): each source encodes
 * its TracePackets into a struct vt_pb; probes.c schedules them and keeps
 * each source's buffer.
 */
#ifndef _VTRACE_PROBES_LOCAL_H
#define _VTRACE_PROBES_LOCAL_H

#include <stdint.h>

#include <vtrace/probes.h>
#include <vtrace/proto-msg.h>

#include "sinks/perfetto/protobuf.h"

/*
 * Each source writes on its own packet sequence; the ftrace writer's is
 * 1 (perfetto-writer.c).
 */
#define VT_SEQ_PROCESS_STATS 2
#define VT_SEQ_SYS_STATS 3
#define VT_SEQ_SYSTEM_INFO 4

const char *vt_meminfo_key(unsigned int value);
int vt_vmstat_key(unsigned int value, char *buf, size_t size);

uint64_t vt_boot_ns(void);
void vt_packet_begin(struct vt_pb *pb, uint32_t seq);
char *vt_read_small(const char *path, char *buf, size_t size);

struct vt_sys_stats;
int vt_sys_stats_new(struct vt_sys_stats **out,
		     const struct vtrace_sys_stats *cfg);
void vt_sys_stats_poll(struct vt_sys_stats *ss, uint32_t kinds,
		       struct vt_pb *pb);
uint32_t vt_sys_stats_missing(const struct vt_sys_stats *ss);
void vt_sys_stats_free(struct vt_sys_stats *ss);

struct vt_proc_stats;
int vt_proc_stats_new(struct vt_proc_stats **out,
		      const struct vtrace_process_stats *cfg);
void vt_proc_stats_scan_all(struct vt_proc_stats *ps, struct vt_pb *pb);
void vt_proc_stats_poll(struct vt_proc_stats *ps, struct vt_pb *pb);
bool vt_proc_stats_add_new(struct vt_proc_stats *ps, const int *pids, size_t nr,
			   struct vt_pb *pb);
void vt_proc_stats_free(struct vt_proc_stats *ps);

void vt_system_info_write(struct vt_pb *pb);
void vt_cpu_info_write(struct vt_pb *pb);

#endif /* _VTRACE_PROBES_LOCAL_H */
