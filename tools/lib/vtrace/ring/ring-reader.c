// SPDX-License-Identifier: LGPL-2.1
/*
 * Opening a per-CPU ring-buffer reader on the best path this kernel
 * offers, and handing its calls to that path (subbuf.c accounts what the
 * paths hand out).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <kbuffer.h>
#include <tracefs.h>

#include "ring/ring-reader-local.h"

/*
 * Sub-buffers one vtrace_ring_reader_consume() hands out at most, so that
 * a CPU whose buffer fills as fast as it is read cannot keep the caller
 * from its other CPUs, or from noticing that it should stop.
 */
#define CONSUME_MAX_SUBBUFS 256

static const char *const path_names[] = {
	[VTRACE_READER_AUTO] = "auto",
	[VTRACE_READER_MMAP] = "mmap",
	[VTRACE_READER_SPLICE] = "splice",
	[VTRACE_READER_READ] = "read",
};

/**
 * vtrace_reader_path_name - the name of a reader path
 * @path: the path
 *
 * Return: "auto", "mmap", "splice" or "read".
 */
const char *vtrace_reader_path_name(enum vtrace_reader_path path)
{
	if ((unsigned int)path >= sizeof(path_names) / sizeof(path_names[0]))
		return "unknown";
	return path_names[path];
}

/**
 * vtrace_reader_path_parse - look up a reader path by name
 * @name: "auto", "mmap", "splice" or "read"
 * @path: set to the path on success
 *
 * Return: 0, or -EINVAL for any other name.
 */
int vtrace_reader_path_parse(const char *name, enum vtrace_reader_path *path)
{
	unsigned int i;

	for (i = 0; i < sizeof(path_names) / sizeof(path_names[0]); i++) {
		if (!strcmp(name, path_names[i])) {
			*path = i;
			return 0;
		}
	}
	return -EINVAL;
}

/*
 * The sub-buffer size, from the layout the kernel publishes in the
 * instance's header_page (buffer_subbuf_size_kb is per instance).
 */
static int read_subbuf_size(struct tracefs_instance *instance, size_t *size)
{
	struct tep_handle *tep;
	char *buf;
	int len;
	int ret;

	buf = tracefs_instance_file_read(instance, "events/header_page", &len);
	if (!buf)
		return errno ? -errno : -ENOENT;
	tep = tep_alloc();
	if (!tep) {
		free(buf);
		return -ENOMEM;
	}
	ret = tep_parse_header_page(tep, buf, len, sizeof(long));
	if (!ret)
		ret = tep_get_sub_buffer_size(tep);
	tep_free(tep);
	free(buf);
	if (ret <= 0)
		return -EINVAL;
	*size = ret;
	return 0;
}

/*
 * A CPU that has not been online since the buffer was made (an instance
 * created while it was offline) has no ring buffer yet: the kernel then
 * answers poll() with POLLERR, on every path.
 */
static bool has_buffer(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	return poll(&pfd, 1, 0) < 0 || !(pfd.revents & POLLERR);
}

/*
 * The path that costs least per MB, for every output. Every kernel that
 * maps ring buffers (6.10 to 6.18 measured) marks a mapped sub-buffer's
 * events read one at a time in TRACE_MMAP_IOCTL_GET_READER, where splice
 * hands a sub-buffer over whole: record-bench.sh measured splice at
 * 0.33-0.35x trace-cmd's CPU per MB and mmap at 0.65-0.72x, and
 * lossless-sweep.sh, with the readers at a realtime priority so that
 * every path kept up, splice at 0.69 ms/MB and mmap at 0.94 (0.43 and
 * 0.74 under an unbounded load). A kernel where mapping is cheaper would
 * be told apart here.
 */
static const struct vtrace_ring_reader_ops *auto_path(void)
{
	return &vtrace_ring_splice_ops;
}

static int open_path(struct vtrace_ring_reader *reader,
		     const struct vtrace_ring_reader_ops *ops)
{
	int ret;

	reader->ops = ops;
	ret = ops->open(reader);
	if (ret)
		reader->ops = NULL;
	return ret;
}

/**
 * vtrace_ring_reader_open - open one CPU's trace_pipe_raw for reading
 * @instance: tracefs instance, NULL for the top level
 * @cpu: the CPU
 * @path: the path to use; %VTRACE_READER_AUTO takes the one that costs
 *	least per MB on the running kernel (see auto_path())
 * @out: set to the new reader
 *
 * Open readers before tracing starts: a mapped buffer cannot be resized.
 * Return: 0; -EOPNOTSUPP when @path was forced and the kernel lacks it;
 * -ENODEV when @cpu has no buffer (not a CPU, or not online since the
 * buffer was made: try again once it is); other negative errnos.
 */
int vtrace_ring_reader_open(struct tracefs_instance *instance, int cpu,
			    enum vtrace_reader_path path,
			    struct vtrace_ring_reader **out)
{
	struct vtrace_ring_reader *reader;
	char file[64];
	int ret;

	reader = calloc(1, sizeof(*reader));
	if (!reader)
		return -ENOMEM;
	reader->cpu = cpu;
	reader->instance = instance;
	ret = read_subbuf_size(instance, &reader->subbuf_size);
	if (ret)
		goto fail;
	reader->kbuf = kbuffer_alloc(KBUFFER_LSIZE_SAME_AS_HOST,
				     KBUFFER_ENDIAN_SAME_AS_HOST);
	if (!reader->kbuf) {
		ret = -ENOMEM;
		goto fail;
	}
	snprintf(file, sizeof(file), "per_cpu/cpu%d/trace_pipe_raw", cpu);
	reader->fd = tracefs_instance_file_open(instance, file,
						O_RDONLY | O_NONBLOCK);
	if (reader->fd < 0) {
		ret = errno == ENOENT ? -ENODEV : (errno ? -errno : -EIO);
		goto fail_kbuf;
	}
	if (!has_buffer(reader->fd)) {
		ret = -ENODEV;
		goto fail_fd;
	}

	switch (path) {
	case VTRACE_READER_AUTO:
		ret = open_path(reader, auto_path());
		break;
	case VTRACE_READER_MMAP:
		ret = open_path(reader, &vtrace_ring_mmap_ops);
		break;
	case VTRACE_READER_SPLICE:
		ret = open_path(reader, &vtrace_ring_splice_ops);
		break;
	case VTRACE_READER_READ:
		ret = open_path(reader, &vtrace_ring_read_ops);
		break;
	default:
		ret = -EINVAL;
	}
	if (ret)
		goto fail_fd;
	*out = reader;
	return 0;

fail_fd:
	close(reader->fd);
fail_kbuf:
	kbuffer_free(reader->kbuf);
fail:
	free(reader);
	return ret;
}

/**
 * vtrace_ring_reader_close - release a reader
 * @reader: the reader, may be NULL
 *
 * What is still in the ring buffer stays there: drain first.
 */
void vtrace_ring_reader_close(struct vtrace_ring_reader *reader)
{
	if (!reader)
		return;
	reader->ops->close(reader);
	close(reader->fd);
	kbuffer_free(reader->kbuf);
	free(reader);
}

/**
 * vtrace_ring_reader_consume - hand out the complete sub-buffers available
 * @reader: the reader
 * @fn: called for each sub-buffer
 * @ctx: passed to @fn
 *
 * Never blocks, and returns after a bounded number of sub-buffers (poll()
 * again for the rest). A sub-buffer the kernel is still writing to stays
 * in the ring buffer until it is full or vtrace_ring_reader_drain() takes
 * it.
 * Return: 0, the error @fn returned, or a negative errno.
 */
int vtrace_ring_reader_consume(struct vtrace_ring_reader *reader,
			       vtrace_ring_subbuf_fn fn, void *ctx)
{
	return reader->ops->consume(reader, false, CONSUME_MAX_SUBBUFS, fn,
				    ctx);
}

/**
 * vtrace_ring_reader_drain - hand out everything left in the ring buffer
 * @reader: the reader
 * @fn: called for each sub-buffer
 * @ctx: passed to @fn
 *
 * Call after writing to the buffer has stopped (tracing_on is 0): on
 * success the buffer is empty, its per-CPU "entries" count is 0.
 * Return: 0, the error @fn returned, or a negative errno.
 */
int vtrace_ring_reader_drain(struct vtrace_ring_reader *reader,
			     vtrace_ring_subbuf_fn fn, void *ctx)
{
	return reader->ops->consume(reader, true, 0, fn, ctx);
}

/**
 * vtrace_ring_reader_splice_out - hand complete sub-buffers over in a pipe
 * @reader: a reader on the splice path
 * @fn: what receives them from now on, instead of the consume's callback;
 *	NULL: back to the callback
 * @batch: most sub-buffers @fn takes in one call (at least 1); the
 *	reader's pipe holds fewer where it could not be grown
 *
 * For an output that can take a pipe's pages without a copy (a file, a
 * socket): consume then splices complete sub-buffers from trace_pipe_raw
 * into a pipe of the reader's, as many as are ready up to @batch, and
 * calls @fn with the consume's context. One splice() per batch instead of
 * per sub-buffer is what makes a file cheap to write this way. The
 * drain's partly filled sub-buffers, and those @fn refused, still go to
 * the consume's callback. The events are counted from the kernel's side,
 * as on the splice path; the sub-buffers' missed-events flags are not
 * read (the ring buffer's own lost count stands).
 *
 * Return: 0, -EINVAL for a @batch of 0 with @fn, or -EOPNOTSUPP on
 * another path.
 */
int vtrace_ring_reader_splice_out(struct vtrace_ring_reader *reader,
				  vtrace_ring_pipe_fn fn, unsigned int batch)
{
	if (reader->ops->path != VTRACE_READER_SPLICE)
		return -EOPNOTSUPP;
	if (fn && !batch)
		return -EINVAL;
	reader->pipe_fn = fn;
	reader->pipe_batch = batch;
	return 0;
}

/**
 * vtrace_ring_reader_fd - the descriptor to poll() for POLLIN
 * @reader: the reader
 *
 * Return: the file descriptor of its trace_pipe_raw.
 */
int vtrace_ring_reader_fd(const struct vtrace_ring_reader *reader)
{
	return reader->fd;
}

/**
 * vtrace_ring_reader_subbuf_size - size of the sub-buffers handed out
 * @reader: the reader
 *
 * Return: the ring buffer's sub-buffer size, in bytes.
 */
size_t vtrace_ring_reader_subbuf_size(const struct vtrace_ring_reader *reader)
{
	return reader->subbuf_size;
}

/**
 * vtrace_ring_reader_path - the path a reader uses
 * @reader: the reader
 *
 * Return: the path it took, never %VTRACE_READER_AUTO.
 */
enum vtrace_reader_path
vtrace_ring_reader_path(const struct vtrace_ring_reader *reader)
{
	return reader->ops->path;
}

/**
 * vtrace_ring_reader_stats - what a reader has handed out so far
 * @reader: the reader
 *
 * Return: its counters, valid as long as @reader is.
 */
const struct vtrace_ring_stats *
vtrace_ring_reader_stats(const struct vtrace_ring_reader *reader)
{
	return &reader->stats;
}
