/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * dmtrace files, Android's method traces (Traceview, dmtracedump): reading
 * versions 1 to 3, combined (.trace: key text then data) or split (.key
 * and .data), and writing slices as a version 3 trace.
 *
 * No C library reads or writes this format (Android's own code is its VM
 * and a Java viewer), so this is a small unit of its own; the constants
 * are in dmtrace-format.h.
 */
#ifndef _VTRACE_DMTRACE_H
#define _VTRACE_DMTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <vtrace/slices.h>

enum vt_dmtrace_clock {
	VT_DMTRACE_CLOCK_WALL, /* "wall", "global" or none: one timer */
	VT_DMTRACE_CLOCK_THREAD_CPU, /* "thread-cpu": one timer */
	VT_DMTRACE_CLOCK_DUAL, /* thread CPU time, then wall time */
};

/**
 * struct vt_dmtrace_thread - a "*threads" line
 * @id: the id records carry
 * @pid: its process (from a vtrace-thread or pid line, else @id)
 * @tid: its real thread id (from a vtrace-thread line, else @id)
 * @name: the rest of the line
 */
struct vt_dmtrace_thread {
	unsigned int id;
	int pid;
	int tid;
	char *name;
};

/**
 * struct vt_dmtrace_method - a "*methods" line
 * @id: the method id, action bits clear
 * @name: class, then ".method" and " signature" where the line has them
 * @source: the line's source file, then ":line" where it has one (the
 *	fields ART writes after the signature), or NULL
 */
struct vt_dmtrace_method {
	uint32_t id;
	char *name;
	char *source;
};

/**
 * struct vt_dmtrace_record - one data record
 * @thread: thread id
 * @method: index in &vt_dmtrace.methods
 * @action: DMTRACE_ACTION_* of dmtrace-format.h: 0 enter, 1 exit,
 *	2 exit by unwinding
 * @cpu_us: thread CPU time delta, us (the only timer for thread-cpu)
 * @wall_us: wall time delta, us (the only timer for wall)
 */
struct vt_dmtrace_record {
	unsigned int thread;
	uint32_t method;
	unsigned int action;
	uint32_t cpu_us;
	uint32_t wall_us;
};

/**
 * struct vt_dmtrace - a parsed method trace
 * @version: 1 to 3
 * @clock: which timers the records carry
 * @start_us: the header's start time, us
 * @threads: "*threads", in file order
 * @nr_threads: entries of @threads
 * @methods: "*methods", sorted by id
 * @nr_methods: entries of @methods
 * @records: data records, in file order
 * @nr_records: entries of @records
 */
struct vt_dmtrace {
	int version;
	enum vt_dmtrace_clock clock;
	uint64_t start_us;
	struct vt_dmtrace_thread *threads;
	size_t nr_threads;
	struct vt_dmtrace_method *methods;
	size_t nr_methods;
	struct vt_dmtrace_record *records;
	size_t nr_records;
};

/**
 * struct vt_dmtrace_write_stats - what vtrace_dmtrace_write() wrote
 * @records: data records
 * @threads: threads
 * @methods: methods (distinct slice names)
 * @mapped_tids: threads whose tid did not fit a record and was mapped
 * @crossing: slices left out because they cross another slice of their
 *	thread (begin inside it, end after it), which a call stack cannot
 *	hold; of a function graph slice and a marker slice, the former
 * @async: async slices and counter samples, which a method trace has no
 *	place for
 */
struct vt_dmtrace_write_stats {
	size_t records;
	size_t threads;
	size_t methods;
	size_t mapped_tids;
	size_t crossing;
	size_t async;
};

int vtrace_dmtrace_parse(struct vt_dmtrace *t, const char *key, size_t key_len,
			 const unsigned char *data, size_t data_len, char *msg,
			 size_t msg_size);
int vtrace_dmtrace_parse_combined(struct vt_dmtrace *t,
				  const unsigned char *buf, size_t len,
				  char *msg, size_t msg_size);
int vtrace_dmtrace_load(struct vt_dmtrace *t, const char *path, char *msg,
			size_t msg_size);
void vtrace_dmtrace_free(struct vt_dmtrace *t);
bool vtrace_dmtrace_probe(const char *path);
const struct vt_dmtrace_thread *
vtrace_dmtrace_find_thread(const struct vt_dmtrace *t, unsigned int id);
int vtrace_dmtrace_slices(const struct vt_dmtrace *t, struct vt_slices *s);
int vtrace_dmtrace_write_stream(const struct vt_slices *s, FILE *key,
				FILE *data,
				struct vt_dmtrace_write_stats *stats, char *msg,
				size_t msg_size);
int vtrace_dmtrace_write(const struct vt_slices *s, const char *path,
			 bool split, struct vt_dmtrace_write_stats *stats,
			 char *msg, size_t msg_size);

#endif /* _VTRACE_DMTRACE_H */
