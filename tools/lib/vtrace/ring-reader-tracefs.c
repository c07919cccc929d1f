// SPDX-License-Identifier: LGPL-2.1
/*
 * The two reader paths that go through libtracefs's struct tracefs_cpu:
 *
 * splice, for kernels that cannot map the ring buffer (before 6.10):
 * libtracefs moves whole sub-buffers from trace_pipe_raw into a pipe with
 * splice(), which takes them out of the ring buffer without copying, and
 * reads them back from the pipe one at a time.  splice() moves only full
 * sub-buffers; the partly filled one the writer is on is read() by
 * tracefs_cpu_flush() at the drain.
 *
 * read, the last resort: libtracefs reads one sub-buffer at a time from
 * trace_pipe_raw, the kernel copying it out.  Unlike splice() it also
 * returns the partly filled sub-buffer the writer is on, so it needs
 * nothing extra to drain.
 *
 * Both count events from the kernel's side, the CPU's "read events"
 * (per_cpu/cpuN/stats), which the kernel advances by a whole sub-buffer's
 * entries when it hands one over, instead of walking every event of every
 * sub-buffer (which cost a third of the reader's CPU). It is read after
 * each consume; a sub-buffer the callback refused is kept and offered
 * again first, so once the buffer is drained the count is exactly the
 * events handed out. (Another reader of the same CPU's buffer, which
 * there should not be, would count too.)
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include <tracefs.h>

#include <vtrace/ring-stats.h>

#include "ring-reader-local.h"

struct tcpu_state {
	struct tracefs_cpu *tcpu;
	void *buf;
	bool pending; /* @buf holds a sub-buffer not handed out yet */
	unsigned long long base; /* "read events" when counting (re)started */
	unsigned long long last; /* "read events" last seen */
	unsigned long long before; /* events counted before a buffer reset */
};

static int tcpu_open(struct vtrace_ring_reader *reader)
{
	struct vtrace_ring_counters c;
	struct tcpu_state *st;
	int ret;

	ret = vtrace_ring_counters_read(reader->instance, reader->cpu, &c);
	if (ret)
		return ret;
	st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	st->base = c.read_events;
	st->last = c.read_events;
	if (posix_memalign(&st->buf, sysconf(_SC_PAGESIZE),
			   reader->subbuf_size)) {
		free(st);
		return -ENOMEM;
	}
	st->tcpu = tracefs_cpu_alloc_fd(reader->fd, reader->subbuf_size, true);
	if (!st->tcpu) {
		free(st->buf);
		free(st);
		return errno ? -errno : -ENOMEM;
	}
	reader->priv = st;
	return 0;
}

static void tcpu_close(struct vtrace_ring_reader *reader)
{
	struct tcpu_state *st = reader->priv;

	/* Frees the pipe; the trace_pipe_raw descriptor is the caller's. */
	tracefs_cpu_free_fd(st->tcpu);
	free(st->buf);
	free(st);
}

/*
 * Events consumed since open, from the kernel's counter. A buffer reset
 * (the tracing core resets every buffer when a module whose events were
 * used is unloaded) sets it back to 0: what was counted before stays.
 */
static void count_events(struct vtrace_ring_reader *reader)
{
	struct tcpu_state *st = reader->priv;
	struct vtrace_ring_counters c;

	if (vtrace_ring_counters_read(reader->instance, reader->cpu, &c))
		return;
	if (c.read_events < st->last) {
		st->before += st->last - st->base;
		st->base = 0;
	}
	st->last = c.read_events;
	reader->stats.events = st->before + c.read_events - st->base;
	reader->stats.kernel_lost = vtrace_ring_counters_lost(&c);
	/* The one in @buf is counted by the kernel, not handed out yet. */
}

/*
 * The counters are read only when sub-buffers were handed out since
 * @start, and at the drain: a reader that reads again until it finds
 * nothing would otherwise read the stats file once more each time.
 */
static void count_events_after(struct vtrace_ring_reader *reader,
			       unsigned long long start, bool drain)
{
	if (drain || reader->stats.subbufs != start)
		count_events(reader);
}

/* Hand out the sub-buffer in st->buf, keeping it when refused. */
static int hand_out(struct vtrace_ring_reader *reader, vtrace_ring_subbuf_fn fn,
		    void *ctx)
{
	struct tcpu_state *st = reader->priv;
	int ret;

	if (!st->pending)
		return 0;
	ret = vtrace_ring_reader_emit_counted(reader, st->buf, 0, fn, ctx);
	if (!ret)
		st->pending = false;
	return ret;
}

/* -1 with EAGAIN is "nothing to read", as 0 is. */
static int read_result(int ret)
{
	if (ret >= 0)
		return ret;
	return errno == EAGAIN ? 0 : -errno;
}

/* How a path gets the next sub-buffer into st->buf: its size, 0, or -1. */
typedef int (*fetch_fn)(struct tracefs_cpu *tcpu, void *buf);

static int splice_fetch(struct tracefs_cpu *tcpu, void *buf)
{
	return tracefs_cpu_buffered_read(tcpu, buf, true);
}

/* The partly filled sub-buffer the writer is on, read() at the drain. */
static int flush_fetch(struct tracefs_cpu *tcpu, void *buf)
{
	return tracefs_cpu_flush(tcpu, buf);
}

static int read_fetch(struct tracefs_cpu *tcpu, void *buf)
{
	return tracefs_cpu_read(tcpu, buf, true);
}

/*
 * Hand out what @fetch brings, at most @max sub-buffers (0: no limit),
 * the one a callback refused first.
 */
static int hand_out_fetched(struct vtrace_ring_reader *reader, fetch_fn fetch,
			    unsigned int max, vtrace_ring_subbuf_fn fn,
			    void *ctx)
{
	struct tcpu_state *st = reader->priv;
	unsigned long long start = reader->stats.subbufs;
	int ret;

	ret = hand_out(reader, fn, ctx);
	while (!ret && (!max || reader->stats.subbufs - start < max)) {
		ret = read_result(fetch(st->tcpu, st->buf));
		if (ret <= 0)
			break;
		st->pending = true;
		ret = hand_out(reader, fn, ctx);
	}
	return ret;
}

/*
 * The pipe is emptied before any flush: tracefs_cpu_flush() reads the
 * file, not the pipe, so sub-buffers left in the pipe would be lost.
 * Past @max, what stays in the pipe is read first next time.
 */
static int splice_consume(struct vtrace_ring_reader *reader, bool drain,
			  unsigned int max, vtrace_ring_subbuf_fn fn, void *ctx)
{
	unsigned long long start = reader->stats.subbufs;
	int ret = hand_out_fetched(reader, splice_fetch, max, fn, ctx);

	if (!ret && drain)
		ret = hand_out_fetched(reader, flush_fetch, 0, fn, ctx);
	count_events_after(reader, start, drain);
	return ret;
}

const struct vtrace_ring_reader_ops vtrace_ring_splice_ops = {
	.path = VTRACE_READER_SPLICE,
	.open = tcpu_open,
	.consume = splice_consume,
	.close = tcpu_close,
};

/* read() returns the partly filled sub-buffer too: the drain is the same. */
static int read_consume(struct vtrace_ring_reader *reader, bool drain,
			unsigned int max, vtrace_ring_subbuf_fn fn, void *ctx)
{
	unsigned long long start = reader->stats.subbufs;
	int ret = hand_out_fetched(reader, read_fetch, max, fn, ctx);

	count_events_after(reader, start, drain);
	return ret;
}

const struct vtrace_ring_reader_ops vtrace_ring_read_ops = {
	.path = VTRACE_READER_READ,
	.open = tcpu_open,
	.consume = read_consume,
	.close = tcpu_close,
};
