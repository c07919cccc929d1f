// SPDX-License-Identifier: LGPL-2.1
/*
 * The read() reader path, the last resort: libtracefs reads one
 * sub-buffer at a time from trace_pipe_raw, the kernel copying it out.
 * Unlike splice() it also returns the partly filled sub-buffer the
 * writer is on, so it needs nothing extra to drain.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include <tracefs.h>

#include "ring-reader-local.h"

struct read_state {
	struct tracefs_cpu *tcpu;
	void *buf;
};

static int read_open(struct vtrace_ring_reader *reader)
{
	struct read_state *st;

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

static void read_close(struct vtrace_ring_reader *reader)
{
	struct read_state *st = reader->priv;

	tracefs_cpu_free_fd(st->tcpu);
	free(st->buf);
	free(st);
}

static int read_consume(struct vtrace_ring_reader *reader, bool drain,
			unsigned int max, vtrace_ring_subbuf_fn fn, void *ctx)
{
	struct read_state *st = reader->priv;
	unsigned long long start = reader->stats.subbufs;
	int ret;

	for (;;) {
		if (max && reader->stats.subbufs - start >= max)
			return 0;
		ret = tracefs_cpu_read(st->tcpu, st->buf, true);
		if (ret < 0)
			return errno == EAGAIN ? 0 : -errno;
		if (!ret)
			return 0;
		ret = vtrace_ring_reader_emit(reader, st->buf, fn, ctx);
		if (ret)
			return ret;
	}
}

const struct vtrace_ring_reader_ops vtrace_ring_read_ops = {
	.path = VTRACE_READER_READ,
	.open = read_open,
	.consume = read_consume,
	.close = read_close,
};
