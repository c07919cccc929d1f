/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * A trace.dat's records in timestamp order, read ahead by a thread.
 *
 * libtracecmd's reading (pages, decompression, the per-CPU merge) runs in
 * a reader thread that checks each record (vtrace_tracedat_record_ok()) and
 * copies it into a bounded queue; the caller takes the records in order
 * and may format them with libtraceevent meanwhile. The reader thread
 * touches only the tracecmd_input handle and, read-only, the events'
 * formats: every tep_handle call that keeps state (the event cache,
 * comms, plugins) stays in the caller's thread.
 */
#ifndef _VTRACE_TRACEDAT_STREAM_H
#define _VTRACE_TRACEDAT_STREAM_H

#include <stddef.h>

struct tep_event;
struct tep_record;
struct tracecmd_input;
struct vt_tracedat_stream;

int vtrace_tracedat_stream_start(struct tracecmd_input *handle, int cpu,
				 const int *event_ids, int nr_event_ids,
				 struct vt_tracedat_stream **out);
struct tep_record *vtrace_tracedat_stream_next(struct vt_tracedat_stream *s,
					       struct tep_event **event);
int vtrace_tracedat_stream_error(struct vt_tracedat_stream *s, char *msg,
				 size_t msg_size);
void vtrace_tracedat_stream_free(struct vt_tracedat_stream *s);

#endif /* _VTRACE_TRACEDAT_STREAM_H */
