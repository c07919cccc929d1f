// SPDX-License-Identifier: LGPL-2.1
/*
 * The two reader paths that go through trace_pipe_raw's file operations:
 *
 * splice, the cheapest per MB: splice() moves whole sub-buffers from
 * trace_pipe_raw into a pipe, taking them out of the ring buffer without
 * copying, and one read() of the pipe brings them all in. One splice()
 * moves as many sub-buffers as are ready, up to SPLICE_BATCH bytes, where
 * libtracefs' tracefs_cpu_buffered_read() asks for one pipe size (64 KB)
 * at a time, one 64 KB sub-buffer or sixteen 4 KB ones. splice() moves only full
 * sub-buffers; the partly filled one the writer is on is read() by
 * tracefs_cpu_flush() at the drain.
 *
 * With vtrace_ring_reader_splice_out(), splice moves the complete
 * sub-buffers into the pipe, as many as the output takes at once, and
 * hands over the pipe, so that the output can splice them on (into a
 * trace.dat file or a socket) without their pages ever being copied to
 * user memory.
 *
 * read, the last resort: libtracefs reads one sub-buffer at a time from
 * trace_pipe_raw, the kernel copying it out.  Unlike splice() it also
 * returns the partly filled sub-buffer the writer is on, so it needs
 * nothing extra to drain.
 *
 * Both count events from the kernel's side, the CPU's "read events"
 * (per_cpu/cpuN/stats), which the kernel advances by a whole sub-buffer's
 * entries when it hands one over, instead of walking every event of every
 * sub-buffer (which cost a third of the reader's CPU). It is read with a
 * pread() of the stats file kept open, after a consume that handed
 * sub-buffers out, but at most every COUNT_PERIOD_MS while they keep
 * coming (the kernel formats the whole file each time), and at the
 * first consume after that, even one that finds nothing, and at the
 * drain. A sub-buffer the callback refused is kept and offered again
 * first, so once the buffer is drained the count is exactly the events
 * handed out.
 * (Another reader of the same CPU's buffer, which there should not be,
 * would count too.)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include <vtrace/ring-stats.h>

#include "ring/ring-reader-local.h"

/* Most bytes one splice() moves: the pipe's size. */
#define SPLICE_BATCH (1024 * 1024)
/* Longest the event count lags while sub-buffers keep coming. */
#define COUNT_PERIOD_MS 10

struct tcpu_state {
	struct tracefs_cpu *tcpu;
	int stats_fd; /* per_cpu/cpuN/stats */
	void *buf;
	bool pending; /* @buf holds a sub-buffer not handed out yet */
	int pipe[2]; /* splice: trace_pipe_raw into here */
	size_t batch; /* splice: bytes asked of one splice() */
	char *spliced; /* splice: what the last one moved, read back */
	size_t spliced_len; /* ... its bytes */
	size_t spliced_pos; /* ... how far it was handed out */
	unsigned long long base; /* "read events" when counting (re)started */
	unsigned long long last; /* "read events" last seen */
	unsigned long long before; /* events counted before a buffer reset */
	bool uncounted; /* sub-buffers handed out since the last count */
	struct timespec counted_at; /* CLOCK_MONOTONIC_COARSE of that count */
};

static int tcpu_open(struct vtrace_ring_reader *reader)
{
	struct vtrace_ring_counters c;
	struct tcpu_state *st;
	char file[64];
	int ret;

	st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	st->pipe[0] = -1;
	st->pipe[1] = -1;
	snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", reader->cpu);
	st->stats_fd = tracefs_instance_file_open(reader->instance, file,
						  O_RDONLY | O_CLOEXEC);
	if (st->stats_fd < 0) {
		ret = errno == ENOENT || !errno ? -ENODEV : -errno;
		free(st);
		return ret;
	}
	ret = vtrace_ring_counters_pread(st->stats_fd, &c);
	if (ret)
		goto fail_stats;
	st->base = c.read_events;
	st->last = c.read_events;
	ret = -ENOMEM;
	if (posix_memalign(&st->buf, sysconf(_SC_PAGESIZE),
			   reader->subbuf_size))
		goto fail_stats;
	st->tcpu = tracefs_cpu_alloc_fd(reader->fd, reader->subbuf_size, true);
	if (!st->tcpu) {
		ret = errno ? -errno : -ENOMEM;
		goto fail_buf;
	}
	reader->priv = st;
	return 0;

fail_buf:
	free(st->buf);
fail_stats:
	close(st->stats_fd);
	free(st);
	return ret;
}

static void tcpu_close(struct vtrace_ring_reader *reader)
{
	struct tcpu_state *st = reader->priv;

	/* Frees libtracefs' state; the trace_pipe_raw descriptor is ours. */
	tracefs_cpu_free_fd(st->tcpu);
	if (st->pipe[0] >= 0) {
		close(st->pipe[0]);
		close(st->pipe[1]);
	}
	free(st->spliced);
	close(st->stats_fd);
	free(st->buf);
	free(st);
}

/*
 * The splice path's pipe, SPLICE_BATCH bytes: splice() asks the file for
 * no more than a page for each free slot, though each slot takes a whole
 * sub-buffer. Where the pipe cannot be grown that far, a batch is what
 * it holds.
 */
static int splice_open(struct vtrace_ring_reader *reader)
{
	struct tcpu_state *st;
	int size, ret;

	ret = tcpu_open(reader);
	if (ret)
		return ret;
	st = reader->priv;
	if (pipe2(st->pipe, O_NONBLOCK | O_CLOEXEC)) {
		ret = -errno;
		goto fail;
	}
	fcntl(st->pipe[0], F_SETPIPE_SZ, SPLICE_BATCH);
	size = fcntl(st->pipe[0], F_GETPIPE_SZ);
	if (size < 0) {
		ret = -errno;
		goto fail;
	}
	st->batch = size / reader->subbuf_size * reader->subbuf_size;
	if (!st->batch)
		st->batch = reader->subbuf_size;
	st->spliced = malloc(st->batch);
	if (!st->spliced) {
		ret = -ENOMEM;
		goto fail;
	}
	return 0;

fail:
	tcpu_close(reader);
	return ret;
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

	if (vtrace_ring_counters_pread(st->stats_fd, &c))
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

static bool counted_lately(const struct tcpu_state *st,
			   const struct timespec *now)
{
	long long ms = (now->tv_sec - st->counted_at.tv_sec) * 1000LL +
		       (now->tv_nsec - st->counted_at.tv_nsec) / 1000000;

	return ms < COUNT_PERIOD_MS;
}

/* The counters after a consume, when they are due (see the top). */
static void count_events_after(struct vtrace_ring_reader *reader,
			       unsigned long long start, bool drain)
{
	struct tcpu_state *st = reader->priv;
	bool more = reader->stats.subbufs != start;
	struct timespec now;

	st->uncounted |= more;
	if (!drain && !st->uncounted)
		return;
	clock_gettime(CLOCK_MONOTONIC_COARSE, &now);
	if (!drain && more && counted_lately(st, &now))
		return;
	count_events(reader);
	st->uncounted = false;
	st->counted_at = now;
}

/* Hand out the sub-buffer in st->buf, keeping it when refused. */
static int hand_out(struct vtrace_ring_reader *reader, vtrace_ring_subbuf_fn fn,
		    void *ctx)
{
	struct tcpu_state *st = reader->priv;
	int ret;

	if (!st->pending)
		return 0;
	ret = vt_ring_reader_emit_counted(reader, st->buf, 0, fn, ctx);
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
		reader->stats.batches++;
		st->pending = true;
		ret = hand_out(reader, fn, ctx);
	}
	return ret;
}

/*
 * Hand out what the last splice() moved, in order, at most up to @max
 * sub-buffers since @start (0: no limit); a sub-buffer the callback
 * refused stays first.
 */
static int hand_out_spliced(struct vtrace_ring_reader *reader,
			    unsigned long long start, unsigned int max,
			    vtrace_ring_subbuf_fn fn, void *ctx)
{
	struct tcpu_state *st = reader->priv;
	int ret;

	while (st->spliced_pos < st->spliced_len) {
		if (max && reader->stats.subbufs - start >= max)
			return 0;
		ret = vt_ring_reader_emit_counted(
			reader, st->spliced + st->spliced_pos, 0, fn, ctx);
		if (ret)
			return ret;
		st->spliced_pos += reader->subbuf_size;
	}
	return 0;
}

/*
 * Every complete sub-buffer ready, up to a batch, into the pipe and back:
 * the number of bytes, 0 when none is ready, or a negative errno.
 */
static int splice_batch(struct vtrace_ring_reader *reader)
{
	struct tcpu_state *st = reader->priv;
	ssize_t moved, got, n;

	moved = splice(reader->fd, NULL, st->pipe[1], NULL, st->batch,
		       SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
	if (moved <= 0)
		return read_result(moved);
	for (got = 0; got < moved; got += n) {
		n = read(st->pipe[0], st->spliced + got, moved - got);
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
	}
	/* Each pipe slot holds one whole sub-buffer. */
	if (moved % reader->subbuf_size)
		return -EIO;
	st->spliced_len = moved;
	st->spliced_pos = 0;
	reader->stats.batches++;
	return moved;
}

/*
 * Complete sub-buffers spliced into the pipe, up to reader->pipe_batch at
 * a time, and passed to reader->pipe_fn, at most up to @max since @start
 * (0: no limit). The pipe is empty between calls (splice_batch() reads
 * back all it moved, the callback empties it); sub-buffers the callback
 * refused are in st->spliced, for hand_out_spliced().
 */
static int hand_out_piped(struct vtrace_ring_reader *reader,
			  unsigned long long start, unsigned int max, void *ctx)
{
	struct tcpu_state *st = reader->priv;
	size_t want, kept, batch = st->batch / reader->subbuf_size;
	unsigned long long left;
	ssize_t n;
	int ret;

	if (batch > reader->pipe_batch)
		batch = reader->pipe_batch;
	for (;;) {
		left = max ? max - (reader->stats.subbufs - start) : batch;
		if (!left)
			return 0;
		want = (left < batch ? left : batch) * reader->subbuf_size;
		n = splice(reader->fd, NULL, st->pipe[1], NULL, want,
			   SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
		if (n <= 0)
			return read_result(n);
		/* Each pipe slot holds one whole sub-buffer. */
		if (n % reader->subbuf_size)
			return -EIO;
		reader->stats.batches++;
		kept = 0;
		ret = reader->pipe_fn(ctx, reader->cpu, st->pipe[0], n,
				      st->spliced, &kept);
		if (ret) {
			kept -= kept % reader->subbuf_size;
			if (kept > (size_t)n)
				kept = n;
			reader->stats.subbufs += kept / reader->subbuf_size;
			reader->stats.bytes += kept;
			st->spliced_len = n;
			st->spliced_pos = kept;
			return ret;
		}
		reader->stats.subbufs += n / reader->subbuf_size;
		reader->stats.bytes += n;
		/* Fewer than asked: the buffer has no more for now. */
		if ((size_t)n < want)
			return 0;
	}
}

/*
 * What was spliced is handed out before any flush: tracefs_cpu_flush()
 * reads the file, and the sub-buffers it returns come after them. Past
 * @max, the rest of a batch is handed out first next time.
 */
static int splice_consume(struct vtrace_ring_reader *reader, bool drain,
			  unsigned int max, vtrace_ring_subbuf_fn fn, void *ctx)
{
	struct tcpu_state *st = reader->priv;
	unsigned long long start = reader->stats.subbufs;
	bool dry = false;
	int ret;

	/* One the drain's read() brought and the callback refused. */
	ret = hand_out(reader, fn, ctx);
	while (!ret) {
		ret = hand_out_spliced(reader, start, max, fn, ctx);
		if (ret || st->spliced_pos < st->spliced_len || dry)
			break;
		if (reader->pipe_fn) {
			ret = hand_out_piped(reader, start, max, ctx);
			break;
		}
		ret = splice_batch(reader);
		if (ret <= 0)
			break;
		/* Fewer than asked: the buffer has no more for now. */
		dry = (size_t)ret < st->batch;
		ret = 0;
	}
	if (!ret && drain)
		ret = hand_out_fetched(reader, flush_fetch, 0, fn, ctx);
	count_events_after(reader, start, drain);
	return ret;
}

const struct vtrace_ring_reader_ops vtrace_ring_splice_ops = {
	.path = VTRACE_READER_SPLICE,
	.open = splice_open,
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
