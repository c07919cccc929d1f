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
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include <tracefs.h>

#include "ring-reader-local.h"

struct tcpu_state {
	struct tracefs_cpu *tcpu;
	void *buf;
};

static int tcpu_open(struct vtrace_ring_reader *reader)
{
	struct tcpu_state *st;

	st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
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

/* -1 with EAGAIN is "nothing to read", as 0 is. */
static int read_result(int ret)
{
	if (ret >= 0)
		return ret;
	return errno == EAGAIN ? 0 : -errno;
}

static int splice_consume(struct vtrace_ring_reader *reader, bool drain,
			  unsigned int max, vtrace_ring_subbuf_fn fn, void *ctx)
{
	struct tcpu_state *st = reader->priv;
	unsigned long long start = reader->stats.subbufs;
	int ret;

	/*
	 * Empty the pipe before any flush: tracefs_cpu_flush() reads the
	 * file, not the pipe, so sub-buffers left in the pipe would be lost.
	 */
	while ((ret = read_result(tracefs_cpu_buffered_read(st->tcpu, st->buf,
							    true))) > 0) {
		ret = vtrace_ring_reader_emit(reader, st->buf, fn, ctx);
		if (ret)
			return ret;
		/* What stays in the pipe is read first next time. */
		if (max && reader->stats.subbufs - start >= max)
			return 0;
	}
	if (ret < 0 || !drain)
		return ret;

	while ((ret = read_result(tracefs_cpu_flush(st->tcpu, st->buf))) > 0) {
		ret = vtrace_ring_reader_emit(reader, st->buf, fn, ctx);
		if (ret)
			return ret;
	}
	return ret;
}

const struct vtrace_ring_reader_ops vtrace_ring_splice_ops = {
	.path = VTRACE_READER_SPLICE,
	.open = tcpu_open,
	.consume = splice_consume,
	.close = tcpu_close,
};

static int read_consume(struct vtrace_ring_reader *reader, bool drain,
			unsigned int max, vtrace_ring_subbuf_fn fn, void *ctx)
{
	struct tcpu_state *st = reader->priv;
	unsigned long long start = reader->stats.subbufs;
	int ret;

	for (;;) {
		if (max && reader->stats.subbufs - start >= max)
			return 0;
		ret = read_result(tracefs_cpu_read(st->tcpu, st->buf, true));
		if (ret <= 0)
			return ret;
		ret = vtrace_ring_reader_emit(reader, st->buf, fn, ctx);
		if (ret)
			return ret;
	}
}

const struct vtrace_ring_reader_ops vtrace_ring_read_ops = {
	.path = VTRACE_READER_READ,
	.open = tcpu_open,
	.consume = read_consume,
	.close = tcpu_close,
};
