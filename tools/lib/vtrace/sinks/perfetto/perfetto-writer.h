/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Perfetto trace writer: ftrace records in, a perfetto.protos.Trace out.
 *
 * Records are libtraceevent's struct tep_record with the struct
 * tep_handle that describes their events, so the same writer serves a
 * trace.dat read by libtracecmd (vtrace convert) and the sub-buffers a
 * recording walks (ring/subbuf-walk.h). Each CPU's records become
 * FtraceEventBundle packets, written out as soon as a bundle is full:
 * memory does not grow with the trace. Events Perfetto has a message
 * for are written typed, the others as GenericFtraceEvent; the vendor
 * GPU power and thermal events are also written as counter tracks.
 * Documentation/vtrace-perfetto.rst says what maps to what.
 *
 * Usage:
 *
 *	ret = vt_perfetto_create(&pf, fd, &opts);
 *	for each record (any CPU order; per CPU in time order)
 *		ret = vt_perfetto_add_record(pf, record);
 *	vt_perfetto_set_cpu_stats(pf, cpu, &stats);	// optional
 *	ret = vt_perfetto_finish(pf);
 *	if (ret)
 *		warn(vt_perfetto_strerror(pf));
 *	vt_perfetto_free(pf);
 *
 * Functions return 0 or a negative errno and never print. While
 * recording, vt_perfetto_add_record() runs in one thread per CPU at once
 * (each CPU's records from one thread) and vt_perfetto_add_packet() in
 * any thread beside them; the CPUs share a lock only to write a full
 * bundle and for what is rare (a new thread, a counter value, a marker
 * naming its process). The other functions are called alone.
 */
#ifndef _VTRACE_PERFETTO_WRITER_H
#define _VTRACE_PERFETTO_WRITER_H

#include <stdbool.h>
#include <stdint.h>

struct tep_handle;
struct tep_record;
struct vt_perfetto;
struct vt_formats;

/**
 * struct vt_perfetto_opts - how to write a Perfetto trace
 * @tep: the events' formats, saved cmdlines and printk formats; must
 *	stay valid until vt_perfetto_free()
 * @formats: where @tep takes more formats from as records need them
 *	(a recording's); NULL when it holds them all (a file's)
 * @ncpus: records come from CPUs 0..@ncpus-1
 * @clock: the tracefs trace_clock the timestamps are in; NULL or "boot"
 *	for CLOCK_BOOTTIME, which Perfetto assumes
 * @have_clock_pair: @ftrace_ts and @boot_ts were read at one instant;
 *	without it, a clock other than boot is placed on Perfetto's
 *	timeline as if it were boot time
 * @ftrace_ts: the trace clock at that instant, in ns
 * @boot_ts: CLOCK_BOOTTIME at that instant, in ns
 * @new_pid: called with each thread id the first time a record of it is
 *	added, or NULL
 * @new_pid_ctx: @new_pid's context
 */
struct vt_perfetto_opts {
	struct tep_handle *tep;
	struct vt_formats *formats;
	int ncpus;
	const char *clock;
	bool have_clock_pair;
	int64_t ftrace_ts;
	int64_t boot_ts;
	void (*new_pid)(void *ctx, int pid);
	void *new_pid_ctx;
};

/**
 * struct vt_perfetto_cpu_stats - a CPU's ring-buffer counters at the end
 * @entries: events left in the buffer
 * @overrun: events overwritten before they were read
 * @commit_overrun: events lost to a wrapped buffer during a commit
 * @bytes: bytes in the buffer
 * @dropped_events: events refused by a full buffer (no overwrite mode)
 * @read_events: events read out
 */
struct vt_perfetto_cpu_stats {
	uint64_t entries;
	uint64_t overrun;
	uint64_t commit_overrun;
	uint64_t bytes;
	uint64_t dropped_events;
	uint64_t read_events;
};

/**
 * vt_perfetto_create - start a Perfetto trace on a file descriptor
 * @pfp: set to the new writer on success, left NULL on failure
 * @fd: where to write; the writer writes sequentially and never closes
 *	it. After a failed write the file is cut back to the packets
 *	written whole, so it stays a valid (shorter) trace.
 * @opts: see struct vt_perfetto_opts
 *
 * Return: 0, -EINVAL for bad @opts, -ENOMEM, or a write error.
 */
int vt_perfetto_create(struct vt_perfetto **pfp, int fd,
		       const struct vt_perfetto_opts *opts);

/**
 * vt_perfetto_add_record - add one ftrace record
 * @pf: the writer
 * @record: the record; @record->cpu, ->ts, ->data, ->size and
 *	->missed_events are used, and the record is not kept
 *
 * Return: 0, -ERANGE for a CPU outside 0..ncpus-1, -ENOMEM or a write
 * error (then the writer is done: finish() still ends the file cleanly).
 */
int vt_perfetto_add_record(struct vt_perfetto *pf, struct tep_record *record);

/**
 * vt_perfetto_add_packet - write a TracePacket encoded elsewhere
 * @pf: the writer
 * @packet: the packet's fields
 * @len: their bytes
 *
 * For the data sources beside ftrace (probes/), on their own sequences.
 *
 * Return: 0 or a negative errno.
 */
int vt_perfetto_add_packet(struct vt_perfetto *pf, const void *packet,
			   size_t len);

/**
 * vt_perfetto_set_cpu_stats - give a CPU's ring-buffer counters
 * @pf: the writer
 * @cpu: the CPU
 * @stats: its counters, written into FtraceStats by vt_perfetto_finish()
 *
 * Return: 0, or -ERANGE for a CPU outside 0..ncpus-1.
 */
int vt_perfetto_set_cpu_stats(struct vt_perfetto *pf, int cpu,
			      const struct vt_perfetto_cpu_stats *stats);

/**
 * vt_perfetto_set_tgid - give a thread's process (from saved_tgids)
 * @pf: the writer
 * @pid: the thread
 * @tgid: its thread group (process) id
 *
 * The ProcessTree then puts @pid in process @tgid, so Perfetto groups
 * its tracks under the process. Only pids that have events are written.
 *
 * Return: 0, -EINVAL for a pid out of range, or -ENOMEM.
 */
int vt_perfetto_set_tgid(struct vt_perfetto *pf, int pid, int tgid);

/**
 * vt_perfetto_finish - write what is pending and the closing packets
 * @pf: the writer
 *
 * Writes each CPU's last bundle, the ProcessTree (thread names from the
 * saved cmdlines for every pid seen, in their processes where
 * vt_perfetto_set_tgid() gave them) and FtraceStats.
 *
 * Return: 0, or the first error of the writer's life.
 */
int vt_perfetto_finish(struct vt_perfetto *pf);

/**
 * vt_perfetto_events - number of events written so far
 * @pf: the writer
 *
 * Return: the count of records added.
 */
uint64_t vt_perfetto_events(const struct vt_perfetto *pf);

/**
 * vt_perfetto_strerror - what the last failure was
 * @pf: the writer
 *
 * Return: a message, valid until vt_perfetto_free(); "" when nothing
 * failed.
 */
const char *vt_perfetto_strerror(const struct vt_perfetto *pf);

/**
 * vt_perfetto_free - release a writer
 * @pf: the writer, or NULL
 */
void vt_perfetto_free(struct vt_perfetto *pf);

#endif /* _VTRACE_PERFETTO_WRITER_H */
