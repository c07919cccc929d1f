/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Per-CPU ring-buffer readers: hand each sub-buffer of one CPU's
 * per_cpu/cpuN/trace_pipe_raw to a callback, whole and in kernel layout
 * (timestamp, commit, data), the way trace.dat stores them.
 *
 * Three paths (%VTRACE_READER_AUTO takes the cheapest per MB, splice):
 *  - mmap:   the ring buffer mapped read-only (Linux 6.10 and later); the
 *            reader sub-buffer is swapped in with TRACE_MMAP_IOCTL_GET_READER
 *            and handed out in place, without a copy (but the kernel marks
 *            its events read one at a time).
 *  - splice: sub-buffers moved into a pipe by splice() (libtracefs'
 *            tracefs_cpu_buffered_read()), then read from the pipe.
 *  - read:   read() of the file (libtracefs' tracefs_cpu_read()).
 *
 * A reader never blocks: wait for its descriptor with poll(), which the
 * kernel wakes when the buffer is buffer_percent full, then call
 * vtrace_ring_reader_consume(). After tracing is switched off,
 * vtrace_ring_reader_drain() hands out everything still in the buffer,
 * partly filled sub-buffers included.
 *
 * Functions return 0 or a negative errno and never print.
 */
#ifndef _VTRACE_RING_READER_H
#define _VTRACE_RING_READER_H

#include <stddef.h>

struct tracefs_instance;
struct vtrace_ring_reader;

enum vtrace_reader_path {
	VTRACE_READER_AUTO,
	VTRACE_READER_MMAP,
	VTRACE_READER_SPLICE,
	VTRACE_READER_READ,
};

/**
 * struct vtrace_ring_stats - what one reader handed out
 * @subbufs: sub-buffers passed to the callback
 * @bytes: their size, @subbufs times the sub-buffer size
 * @batches: calls that took sub-buffers from the kernel: a splice() moves
 *	all that are ready (up to 1 MB), a read() or an mmap reader swap one
 * @events: events in them (padding and time stamps not counted), as
 *	the kernel counted them while handing the sub-buffers over; exact
 *	once the buffer is drained
 * @missed_subbufs: sub-buffers whose header says events were lost before
 *	them (the ring buffer was overrun)
 * @missed_events: events lost, as far as those headers tell the count
 * @kernel_lost: events the kernel counts as lost on this CPU (overrun,
 *	and dropped where it keeps that count), as last seen by the reader
 */
struct vtrace_ring_stats {
	unsigned long long subbufs;
	unsigned long long bytes;
	unsigned long long batches;
	unsigned long long events;
	unsigned long long missed_subbufs;
	unsigned long long missed_events;
	unsigned long long kernel_lost;
};

/**
 * typedef vtrace_ring_subbuf_fn - receives one sub-buffer
 * @ctx: the caller's context
 * @cpu: the CPU it was read from
 * @subbuf: the sub-buffer; valid only during the call
 * @size: its size (the ring buffer's sub-buffer size)
 *
 * Return 0 to go on, or a negative errno to stop the reader; the reader
 * returns that error and the sub-buffer counts as not handed out.
 */
typedef int (*vtrace_ring_subbuf_fn)(void *ctx, int cpu, const void *subbuf,
				     size_t size);

/**
 * typedef vtrace_ring_pipe_fn - receives complete sub-buffers still in a pipe
 * @ctx: the caller's context, as for the consume's vtrace_ring_subbuf_fn
 * @cpu: the CPU they were read from
 * @pipe: the read end of a pipe holding them and nothing else
 * @size: their bytes, a whole number of sub-buffers, at most the batch
 *	given to vtrace_ring_reader_splice_out()
 * @spill: @size bytes to read them out into, for a callback that does not
 *	splice them on
 * @kept: on failure, the bytes of the leading sub-buffers it took all the
 *	same (0: none)
 *
 * The callback leaves the pipe empty. Return 0, or a negative errno with
 * the @size bytes after the first @kept in @spill, at their offsets: the
 * reader then counts the @kept ones as handed out, returns that error and
 * offers the others again, from memory, to the next consume's callback.
 */
typedef int (*vtrace_ring_pipe_fn)(void *ctx, int cpu, int pipe, size_t size,
				   void *spill, size_t *kept);

int vtrace_ring_reader_open(struct tracefs_instance *instance, int cpu,
			    enum vtrace_reader_path path,
			    struct vtrace_ring_reader **out);
void vtrace_ring_reader_close(struct vtrace_ring_reader *reader);
int vtrace_ring_reader_consume(struct vtrace_ring_reader *reader,
			       vtrace_ring_subbuf_fn fn, void *ctx);
int vtrace_ring_reader_drain(struct vtrace_ring_reader *reader,
			     vtrace_ring_subbuf_fn fn, void *ctx);
int vtrace_ring_reader_splice_out(struct vtrace_ring_reader *reader,
				  vtrace_ring_pipe_fn fn, unsigned int batch);
int vtrace_ring_reader_fd(const struct vtrace_ring_reader *reader);
size_t vtrace_ring_reader_subbuf_size(const struct vtrace_ring_reader *reader);
enum vtrace_reader_path
vtrace_ring_reader_path(const struct vtrace_ring_reader *reader);
const struct vtrace_ring_stats *
vtrace_ring_reader_stats(const struct vtrace_ring_reader *reader);

unsigned long long vtrace_ring_subbuf_events(struct vtrace_ring_reader *reader,
					     const void *subbuf);

const char *vtrace_reader_path_name(enum vtrace_reader_path path);
int vtrace_reader_path_parse(const char *name, enum vtrace_reader_path *path);

#endif /* _VTRACE_RING_READER_H */
