/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * What the reader paths (ring-reader-mmap.c, ring-reader-tracefs.c) share
 * with ring-reader.c, which picks a path and accounts what each hands out.
 */
#ifndef _VTRACE_RING_READER_LOCAL_H
#define _VTRACE_RING_READER_LOCAL_H

#include <stdbool.h>

#include <vtrace/ring-reader.h>

struct kbuffer;
struct tracefs_instance;

/**
 * struct vtrace_ring_reader_ops - one way of reading trace_pipe_raw
 * @path: which one
 * @open: set up on @reader->fd (opened O_RDONLY | O_NONBLOCK); return
 *	-EOPNOTSUPP when this kernel does not offer the path
 * @consume: hand out complete sub-buffers through
 *	vt_ring_reader_emit_counted(), at most @max (0: no limit),
 *	and keep @reader->stats.events current; with @drain,
 *	tracing is off and partly filled sub-buffers are handed out too,
 *	until the buffer is empty
 * @close: undo @open (the descriptor is closed by the caller)
 */
struct vtrace_ring_reader_ops {
	enum vtrace_reader_path path;
	int (*open)(struct vtrace_ring_reader *reader);
	int (*consume)(struct vtrace_ring_reader *reader, bool drain,
		       unsigned int max, vtrace_ring_subbuf_fn fn, void *ctx);
	void (*close)(struct vtrace_ring_reader *reader);
};

struct vtrace_ring_reader {
	const struct vtrace_ring_reader_ops *ops;
	struct tracefs_instance *instance;
	int cpu;
	int fd;
	size_t subbuf_size;
	struct kbuffer *kbuf;
	struct vtrace_ring_stats stats;
	vtrace_ring_pipe_fn pipe_fn;
	unsigned int pipe_batch;
	void *priv;
};

extern const struct vtrace_ring_reader_ops vtrace_ring_mmap_ops;
extern const struct vtrace_ring_reader_ops vtrace_ring_splice_ops;
extern const struct vtrace_ring_reader_ops vtrace_ring_read_ops;

int vt_ring_reader_emit_counted(struct vtrace_ring_reader *reader,
				const void *subbuf, unsigned long long events,
				vtrace_ring_subbuf_fn fn, void *ctx);
size_t vt_ring_subbuf_data_size(struct vtrace_ring_reader *reader,
				const void *subbuf);
bool vt_ring_subbuf_complete(struct vtrace_ring_reader *reader,
			     const void *subbuf);

#endif /* _VTRACE_RING_READER_LOCAL_H */
