/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Where a recording goes: one output format behind one interface.
 *
 * The recorder (recorder.h) hands a sink the recording's metadata when
 * tracing is about to start, every sub-buffer of every CPU as it is read,
 * and the per-CPU counters when tracing has stopped. A sink writes what it
 * likes with them: trace.dat stores the sub-buffers as they are
 * (tracedat-sink.c), another format may decode them (its own tep handle,
 * loaded at begin while every event's format is still there).
 *
 * What a sink may read itself: the event formats (tracefs_local_events()
 * or the instance's events/ files) in ->begin(), before a module's events
 * can vanish with it, every event's (another tool may enable any event in
 * the recorded buffer while it is recorded); saved_cmdlines and saved_tgids (top level) and the
 * instance's per_cpu/cpuN/stats in ->finish(), which runs after tracing is
 * off and before the settings are restored.
 *
 * A sink describes its own failures (->strerror), so that the recorder
 * never guesses from an errno whether the reader or the writer failed:
 * whatever ->add_subbuf() returns is the sink's failure.
 *
 * A format that "vtrace convert" writes also offers a struct
 * vtrace_convert_ops, which takes a trace.dat's records one by one.
 *
 * Adding a format: a folder sinks/NAME/ with a vtrace_sink_ops and a
 * constructor (and, for conversions, a vtrace_convert_ops), and one row of
 * the formats' table (format.h, sinks/format.c); vtrace_sink_open() then
 * picks it for -o FILE.EXT or --format NAME, and "vtrace convert" for an
 * output FILE.EXT.
 */
#ifndef _VTRACE_SINK_H
#define _VTRACE_SINK_H

#include <stdbool.h>
#include <stddef.h>

struct tep_handle;
struct tep_record;
struct tracefs_instance;
struct vt_perfetto_cpu_stats;
struct vtrace_sink;

/**
 * struct vtrace_sink_info - the recording a sink is about to receive
 * @instance: the tracefs instance recorded (NULL: the top level buffer);
 *	its files (events/, trace_clock, per_cpu/) may be read until
 *	->finish() returns
 * @nr_cpus: CPUs 0..@nr_cpus-1 that sub-buffers may come from
 * @subbuf_size: size of every sub-buffer, a power of two
 * @clock: the trace_clock in effect ("boot", "local", ...)
 * @stop_fd: readable once the recording is asked to stop, or -1: a
 *	->begin() that waits on a peer polls it and gives up. Valid during
 *	->begin() only.
 */
struct vtrace_sink_info {
	struct tracefs_instance *instance;
	int nr_cpus;
	size_t subbuf_size;
	const char *clock;
	int stop_fd;
};

/**
 * struct vtrace_cpu_account - one CPU's account of a recording
 * @present: whether the CPU had a ring buffer that was read; the other
 *	members are 0 when not
 * @events: events handed to the sink
 * @bytes: bytes of sub-buffers handed to the sink
 * @lost: events lost: @kernel_lost, @output_lost and @backpressure
 * @kernel_lost: overwritten or dropped by the ring buffer before they
 *	were read (its counters, or the sub-buffers' missed-events marks)
 * @output_lost: read but not handed to the sink because it had failed
 *	(a full disk, a collector gone)
 * @overrun: the ring buffer's overrun counter (per_cpu/cpuN/stats)
 * @commit_overrun: its commit overrun counter
 * @dropped_events: its dropped events counter (when overwrite is off)
 * @entries_left: events left unread in the ring buffer
 * @backpressure: events read but refused by the sink because its output
 *	could not take them then (%VTRACE_SINK_DROPPED: a collector's
 *	network back-pressure); counted in @lost too
 */
struct vtrace_cpu_account {
	int present;
	unsigned long long events;
	unsigned long long bytes;
	unsigned long long lost;
	unsigned long long kernel_lost;
	unsigned long long output_lost;
	unsigned long long overrun;
	unsigned long long commit_overrun;
	unsigned long long dropped_events;
	unsigned long long entries_left;
	unsigned long long backpressure;
};

/**
 * struct vtrace_sink_end - what a sink is told when the recording ends
 * @nr_cpus: entries in @cpus, the same as vtrace_sink_info.nr_cpus
 * @cpus: each CPU's account, indexed by CPU
 */
struct vtrace_sink_end {
	int nr_cpus;
	const struct vtrace_cpu_account *cpus;
};

/**
 * struct vtrace_sink_ops - what an output format implements
 * @name: the format's name, as --format takes it ("tracedat")
 * @clock: the trace_clock a recording in this format chooses when the
 *	user names none: the one its readers expect ("local", trace-cmd's,
 *	for trace.dat; "boot", which Perfetto places events by)
 * @begin: called once, before tracing starts: create the output and
 *	store the metadata. Return 0 or a negative errno; on failure nothing
 *	may be left behind.
 * @add_subbuf: one sub-buffer of @cpu as the kernel lays it out (time
 *	stamp, commit, data), @size bytes, valid during the call only. Called
 *	concurrently for different CPUs, never for the same CPU. Must not
 *	block for long (the kernel's buffer fills meanwhile). Return 0;
 *	%VTRACE_SINK_DROPPED when the output cannot take it now (the
 *	sub-buffer's events count as lost to back-pressure, the recording
 *	goes on); or a negative errno: the recording then stops (what was
 *	added before is kept) and the sub-buffer counts as lost.
 * @splice_subbuf: used instead of @add_subbuf when @splice_batch is set,
 *	for complete sub-buffers still in a pipe (@pipe, its read end,
 *	holding exactly @size bytes: one to @splice_batch sub-buffers): move
 *	them on without copying them to memory. The pipe is left empty;
 *	what is not spliced on (dropped, written instead, failed) is read
 *	out into @spill, @size bytes, first. Returns as @add_subbuf does,
 *	for all of them, except that on failure @stored is set to the
 *	bytes of the leading sub-buffers the output kept before it failed
 *	(a disk that fills up takes part of a batch): they count as
 *	recorded, the others are in @spill at their offsets in the batch.
 * @add_packet: one Perfetto TracePacket (@len bytes, encoded, without the
 *	Trace.packet field around it) of a data source beside ftrace
 *	(probes.h); called from any thread, concurrently with @add_subbuf.
 *	NULL for a format with no place for them (trace.dat). Return 0 or a
 *	negative errno: the data sources then stop writing.
 * @finish: complete the output after the last sub-buffer (also after an
 *	@add_subbuf failure). Return 0 or a negative errno.
 * @abort: drop an output that will not be finished (the set-up failed
 *	after @begin), its temporary files included.
 * @partial: the file being written until the output is complete (its
 *	temporary name, which a killed recording leaves), or NULL
 * @strerror: describe the last failure, e.g. "writing trace.dat.cpu1: No
 *	space left on device"; "" when nothing failed.
 * @destroy: free @priv (after @finish or @abort, or without @begin);
 *	vtrace_sink_free() frees the rest.
 */
struct vtrace_sink_ops {
	const char *name;
	const char *clock;
	int (*begin)(struct vtrace_sink *sink,
		     const struct vtrace_sink_info *info);
	int (*add_subbuf)(struct vtrace_sink *sink, int cpu, const void *subbuf,
			  size_t size);
	int (*splice_subbuf)(struct vtrace_sink *sink, int cpu, int pipe,
			     size_t size, void *spill, size_t *stored);
	int (*add_packet)(struct vtrace_sink *sink, const void *packet,
			  size_t len);
	int (*finish)(struct vtrace_sink *sink,
		      const struct vtrace_sink_end *end);
	void (*abort)(struct vtrace_sink *sink);
	const char *(*partial)(const struct vtrace_sink *sink);
	const char *(*strerror)(const struct vtrace_sink *sink);
	void (*destroy)(struct vtrace_sink *sink);
};

/* ->add_subbuf(): the output could not take the sub-buffer now. */
#define VTRACE_SINK_DROPPED 1

/**
 * struct vtrace_sink - an output, as the recorder sees it
 * @ops: its format
 * @path: the file it writes (or the collector's HOST:PORT), for messages
 * @peer: the output is a collector on the network, not a file
 * @max_subbuf_size: the largest sub-buffer the output can carry (a UDP
 *	datagram's limit); 0: any. The recorder chooses sub-buffers no
 *	larger where the kernel lets it.
 * @splice_batch: on the splice reader path, complete sub-buffers go to
 *	->splice_subbuf() in a pipe, up to this many at a time (a file takes
 *	a pipe's worth in one splice(), a socket one sub-buffer); the rest
 *	(the drain's partly filled ones, other paths) to ->add_subbuf().
 *	0: never.
 * @on_new_pid: set by the recorder before ->begin(), or NULL: a sink that
 *	decodes the events calls it from ->add_subbuf() with each thread id
 *	the first time it reads an event of it (the process_stats data
 *	source then reads that process from /proc, as Perfetto does)
 * @on_new_pid_ctx: @on_new_pid's context
 * @priv: the format's own state
 */
struct vtrace_sink {
	const struct vtrace_sink_ops *ops;
	char *path;
	bool peer;
	size_t max_subbuf_size;
	unsigned int splice_batch;
	void (*on_new_pid)(void *ctx, int pid);
	void *on_new_pid_ctx;
	void *priv;
};

/**
 * struct vt_convert_input - what a converted trace.dat offers a writer
 * @tep: its event formats
 * @ncpus: its CPUs
 * @clock: its trace clock, or NULL
 * @stats: its per-CPU ring-buffer counters, @ncpus of them, or NULL
 */
struct vt_convert_input {
	struct tep_handle *tep;
	int ncpus;
	const char *clock;
	const struct vt_perfetto_cpu_stats *stats;
};

/**
 * struct vtrace_convert_ops - a format's writer for converted records
 * @create: start writing to @fd; sets *@writer
 * @add_record: one record, CPU by CPU, each CPU in order
 * @finish: complete the output
 * @strerror: what the last failure was
 * @free: release the writer
 */
struct vtrace_convert_ops {
	int (*create)(void **writer, int fd, const struct vt_convert_input *in);
	int (*add_record)(void *writer, struct tep_record *record);
	int (*finish)(void *writer);
	const char *(*strerror)(void *writer);
	void (*free)(void *writer);
};

/**
 * typedef vtrace_sink_create_fn - makes a sink of one format
 * @path: the output file; created by ->begin(), not now
 * @out: set to the new sink
 *
 * Return: 0 or a negative errno.
 */
typedef int (*vtrace_sink_create_fn)(const char *path,
				     struct vtrace_sink **out);

void vtrace_sink_free(struct vtrace_sink *sink);

int vtrace_tracedat_sink_create(const char *path, struct vtrace_sink **out);
int vtrace_perfetto_sink_create(const char *path, struct vtrace_sink **out);

#endif /* _VTRACE_SINK_H */
