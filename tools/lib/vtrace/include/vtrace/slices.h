/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Slices: the timeline a trace's atrace markers, function graph records or
 * method trace records describe. A source (a trace.dat, see
 * slices-tracedat.h; a dmtrace file, see dmtrace.h) feeds events in
 * timestamp order; the builder keeps one call stack per thread and turns
 * each begin/end pair into a slice.
 *
 * Nesting: a thread has a stack of user slices (B/E markers, method
 * entries) and, above it, a stack of kernel function slices (function
 * graph entries). A kernel slice's depth counts the user slices open when
 * it began. Async slices (S/F) are matched by pid, name and cookie, as
 * Android matches them within a process. Nothing in the input is fatal:
 * ends without a begin, slices still open at the end and malformed markers
 * are counted.
 */
#ifndef _VTRACE_SLICES_H
#define _VTRACE_SLICES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <vtrace/strtab.h>

/* No parent: a slice at the bottom of its thread's stack. */
#define VT_SLICE_NO_PARENT SIZE_MAX
/* No arguments: what most slices carry (see vtrace_slices_args()). */
#define VT_SLICE_NO_ARGS UINT32_MAX

/**
 * struct vt_slice - one finished slice
 * @ts: begin, in ns of the trace clock
 * @dur: end minus begin, in ns
 * @cpu_ts: the thread's CPU time at the begin, in ns since its first event
 *	(only when the source knows it: &vt_slices.has_cpu_time)
 * @cpu_dur: CPU time the thread ran between begin and end, in ns
 * @pid: process
 * @tid: thread
 * @depth: 0 at the bottom of the thread's stack
 * @name: index in &vt_slices.names
 * @args: index in &vt_slices.names of the slice's arguments, or
 *	%VT_SLICE_NO_ARGS
 * @kernel: a kernel function (function graph), not a marker
 * @parent: index in &vt_slices.slices of the enclosing slice, or
 *	%VT_SLICE_NO_PARENT
 * @seq: order of the begins (internal)
 * @parent_seq: @seq of the enclosing slice (internal)
 */
struct vt_slice {
	uint64_t ts;
	uint64_t dur;
	uint64_t cpu_ts;
	uint64_t cpu_dur;
	int pid;
	int tid;
	int depth;
	uint32_t name;
	uint32_t args;
	bool kernel;
	size_t parent;
	uint64_t seq;
	uint64_t parent_seq;
};

/**
 * struct vt_async_slice - one matched async slice (S then F)
 * @ts: begin, ns
 * @dur: ns
 * @pid: process
 * @name: index in &vt_slices.names
 * @cookie: the cookie both markers carried
 */
struct vt_async_slice {
	uint64_t ts;
	uint64_t dur;
	int pid;
	uint32_t name;
	int64_t cookie;
};

/* The pid of a counter of the machine, not of a process. */
#define VT_COUNTER_SYSTEM (-1)

/**
 * struct vt_counter - one counter sample: a C marker's, or a vendor or
 *	kernel event's (GPU power state, temperatures, frequencies)
 * @ts: ns
 * @pid: process, or %VT_COUNTER_SYSTEM
 * @name: index in &vt_slices.names
 * @value: the sample
 */
struct vt_counter {
	uint64_t ts;
	int pid;
	uint32_t name;
	int64_t value;
};

/**
 * struct vt_thread - a thread that has slices
 * @tid: thread id
 * @pid: its process, where known (else @tid)
 * @name: its name (comm), or NULL
 */
struct vt_thread {
	int tid;
	int pid;
	char *name;
};

/**
 * struct vt_cpu_run - a thread on a CPU, from the sched_switch that put it
 *	there to the one that took it off (or the trace's last event)
 * @ts: begin, ns
 * @dur: ns
 * @cpu: the CPU
 * @tid: the thread (never the idle task, 0)
 * @comm: its name as the sched_switch gave it, NUL-terminated
 */
struct vt_cpu_run {
	uint64_t ts;
	uint64_t dur;
	int cpu;
	int tid;
	char comm[16];
};

struct vt_slices_state;

/**
 * struct vt_slices - the slices of one trace
 * @slices: finished slices, sorted by @ts, then tid and depth, once
 *	vtrace_slices_finish() has run
 * @nr_slices: entries of @slices
 * @async: matched async slices, sorted by begin
 * @nr_async: entries of @async
 * @counters: counter samples in the order they were fed
 * @nr_counters: entries of @counters
 * @threads: threads with slices, sorted by tid, after vtrace_slices_finish()
 * @nr_threads: entries of @threads
 * @runs: which thread ran on which CPU, sorted by begin, when the source
 *	gave sched_switch events with their CPU (vtrace_slices_cpu_switch())
 * @nr_runs: entries of @runs
 * @names: interned names (and slices' arguments), indexed by the name
 *	and args fields above
 * @nr_names: entries of @names
 * @unmatched: ends (E, F, method exits, function graph exits) with no
 *	begin to match
 * @open: begins still open at the end of the trace (they make no slice)
 * @malformed: markers that start like atrace markers but do not parse
 * @has_cpu_time: the source knew when threads ran (sched_switch events,
 *	or a method trace's thread clock), so @cpu_ts and @cpu_dur are set
 * @state: builder state, freed by vtrace_slices_finish()
 */
struct vt_slices {
	struct vt_slice *slices;
	size_t nr_slices;
	struct vt_async_slice *async;
	size_t nr_async;
	struct vt_counter *counters;
	size_t nr_counters;
	struct vt_thread *threads;
	size_t nr_threads;
	struct vt_cpu_run *runs;
	size_t nr_runs;
	char **names;
	size_t nr_names;
	unsigned long long unmatched;
	unsigned long long open;
	unsigned long long malformed;
	bool has_cpu_time;
	struct vt_slices_state *state;
};

int vtrace_slices_init(struct vt_slices *s);
void vtrace_slices_free(struct vt_slices *s);
int vtrace_slices_marker(struct vt_slices *s, uint64_t ts, int tid,
			 const char *text, size_t len);
int vtrace_slices_begin(struct vt_slices *s, uint64_t ts, int pid, int tid,
			const char *name, size_t name_len, bool kernel);
int vtrace_slices_end(struct vt_slices *s, uint64_t ts, int tid,
		      const char *name, bool kernel);
int vtrace_slices_args(struct vt_slices *s, int tid, bool kernel,
		       const char *args, size_t args_len);
int vtrace_slices_counter(struct vt_slices *s, uint64_t ts, int pid,
			  const char *name, size_t name_len, int64_t value);
int vtrace_slices_sched_switch(struct vt_slices *s, uint64_t ts, int prev_tid,
			       int next_tid);
int vtrace_slices_cpu_switch(struct vt_slices *s, uint64_t ts, int cpu,
			     int prev_tid, int next_tid, const char *next_comm);
int vtrace_slices_cpu_time(struct vt_slices *s, int tid, uint64_t cpu_ns);
int vtrace_slices_thread(struct vt_slices *s, int tid, int pid,
			 const char *name);
int vtrace_slices_finish(struct vt_slices *s);
const struct vt_thread *vtrace_slices_find_thread(const struct vt_slices *s,
						  int tid);

#endif /* _VTRACE_SLICES_H */
