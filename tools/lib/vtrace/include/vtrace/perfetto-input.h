/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Reading a Perfetto trace (a phone's, tracebox's or vtrace's own): its
 * ftrace events, from typed messages, generic events and the compact
 * sched format; the slices and counters of its track events on thread
 * and counter tracks; the names of its threads.
 *
 * No C library reads Perfetto traces (Perfetto's own reader is its C++
 * trace processor), so this is a small unit of its own, reading the
 * protobuf wire format field by field and skipping what it does not know.
 */
#ifndef _VTRACE_PERFETTO_INPUT_H
#define _VTRACE_PERFETTO_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <vtrace/slices.h>

enum vt_pf_value_kind {
	VT_PF_VALUE_INT,
	VT_PF_VALUE_UINT,
	VT_PF_VALUE_STR,
};

/**
 * struct vt_pf_value - one field of an ftrace event
 * @name: the field's name (the tracefs format's, as Perfetto keeps them)
 * @kind: which of @i, @u or @str holds the value
 * @i: a signed value
 * @u: an unsigned value
 * @str: a string, not NUL-terminated
 * @len: its length
 */
struct vt_pf_value {
	const char *name;
	enum vt_pf_value_kind kind;
	int64_t i;
	uint64_t u;
	const char *str;
	size_t len;
};

/**
 * struct vt_pf_event - one ftrace event
 * @ts: timestamp, ns of the recording's ftrace clock
 * @cpu: the CPU whose buffer held it
 * @pid: the thread that was running (-1 where the file does not say)
 * @system: the event's system, or NULL where the file does not say
 *	(generic events, messages vtrace has no table for)
 * @name: the event's name
 * @first_value: index of its first field in &vt_perfetto_input.values
 * @nr_values: number of its fields
 * @seq: order in the file (internal)
 */
struct vt_pf_event {
	uint64_t ts;
	int cpu;
	int pid;
	const char *system;
	const char *name;
	size_t first_value;
	size_t nr_values;
	uint64_t seq;
};

struct vt_pf_input_state;

/**
 * struct vt_perfetto_input - what vtrace read of a Perfetto trace
 * @events: the ftrace events, by timestamp, then CPU, then file order
 * @nr_events: entries of @events
 * @values: their fields
 * @nr_values: entries of @values
 * @slices: the track events' slices and counters and the print events'
 *	markers, with the threads' CPU time from sched_switch and their names
 * @compressed_packets: packets vtrace cannot read (compressed), skipped
 * @unplaced_track_events: track events on a track that is neither a
 *	thread's nor a counter (or on none), skipped
 * @state: the file's bytes and the names read (internal)
 */
struct vt_perfetto_input {
	struct vt_pf_event *events;
	size_t nr_events;
	struct vt_pf_value *values;
	size_t nr_values;
	struct vt_slices slices;
	unsigned long long compressed_packets;
	unsigned long long unplaced_track_events;
	struct vt_pf_input_state *state;
};

bool vtrace_perfetto_probe(const char *path);
int vtrace_perfetto_load(struct vt_perfetto_input *in, const char *path,
			 char *msg, size_t msg_size);
int vtrace_perfetto_parse(struct vt_perfetto_input *in, const void *data,
			  size_t size, char *msg, size_t msg_size);
void vtrace_perfetto_input_free(struct vt_perfetto_input *in);
const char *vtrace_perfetto_comm(const struct vt_perfetto_input *in, int tid);

#endif /* _VTRACE_PERFETTO_INPUT_H */
