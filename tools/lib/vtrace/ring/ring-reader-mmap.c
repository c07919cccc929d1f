// SPDX-License-Identifier: LGPL-2.1
/*
 * The mmap reader path: the ring buffer of one CPU mapped read-only, the
 * reader sub-buffer handed out in place.
 *
 * Why this is ours: libtracefs 1.6 (Debian bookworm) has no mmap reader;
 * the kernel interface is small (Documentation/trace/ring-buffer-map.rst).
 *
 * The kernel maps a meta page, then every sub-buffer. Each
 * TRACE_MMAP_IOCTL_GET_READER marks everything written so far on the
 * reader sub-buffer as read, or, when all of it was read already, swaps
 * the oldest full sub-buffer in as the new reader; the meta page then
 * names the reader (reader.id) and how far it was read (reader.read).
 * A sub-buffer swapped out goes back to the writer, so it must be handed
 * out before the ioctl that swaps it: a complete one is handed out in
 * place. One the writer may still be filling is copied before each
 * ioctl; the kernel swaps it only once an earlier ioctl marked all of it
 * read, so when the swap comes, the last copy holds all its events and
 * is handed out instead. The drain (tracing off) hands out the last,
 * partly filled one in place.
 *
 * Events are counted from the kernel's side, not by walking each
 * sub-buffer (which cost a third of the reader's CPU): every ioctl marks
 * events read one by one and publishes the total in the meta page
 * (meta->read). An ioctl either marks the rest of the reader sub-buffer
 * or swaps in the next one and marks all of it, so what it added belongs
 * to the reader sub-buffer after it: to the events handed out if that
 * one was, else pending until it (or its copy) is.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ring/ring-reader-local.h"

/*
 * From the kernel's uapi linux/trace_mmap.h (Linux 6.10), which the
 * bookworm linux-libc-dev (6.1) lacks; the layout is ABI.
 */
struct trace_buffer_meta {
	uint32_t meta_page_size;
	uint32_t meta_struct_len;
	uint32_t subbuf_size;
	uint32_t nr_subbufs;
	struct {
		uint64_t lost_events;
		uint32_t id;
		uint32_t read;
	} reader;
	uint64_t flags;
	uint64_t entries;
	uint64_t overrun;
	uint64_t read;
	uint64_t Reserved1;
	uint64_t Reserved2;
};

#define TRACE_MMAP_IOCTL_GET_READER _IO('R', 0x20)

struct mmap_state {
	volatile struct trace_buffer_meta *meta;
	size_t meta_len;
	const char *data;
	size_t data_len;
	uint32_t id; /* the reader sub-buffer last seen */
	uint32_t read; /* reader.read last seen */
	bool handed_out; /* sub-buffer @id was given to the callback */
	bool counted; /* ... by us: its events marked later count too */
	void *copy; /* sub-buffer @id as last seen, if not handed out */
	bool copied;
	bool orphaned; /* @copy is of a sub-buffer swapped out: hand it out */
	unsigned long long orphan_events; /* ... with this many events */
	uint64_t marked; /* meta->read last seen */
	unsigned long long pending; /* events of @id marked, not handed out */
};

static int mmap_open(struct vtrace_ring_reader *reader)
{
	size_t page = sysconf(_SC_PAGESIZE);
	struct mmap_state *st;
	void *map;
	int err;

	st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;

	/* Kernels before 6.10 have no mmap for trace_pipe_raw: ENODEV. */
	map = mmap(NULL, page, PROT_READ, MAP_SHARED, reader->fd, 0);
	if (map == MAP_FAILED)
		goto unsupported;
	st->meta = map;
	st->meta_len = st->meta->meta_page_size;
	if (st->meta_len > page) {
		munmap(map, page);
		map = mmap(NULL, st->meta_len, PROT_READ, MAP_SHARED,
			   reader->fd, 0);
		if (map == MAP_FAILED)
			goto unsupported;
		st->meta = map;
	} else {
		st->meta_len = page;
	}

	reader->subbuf_size = st->meta->subbuf_size;
	st->data_len = (size_t)st->meta->subbuf_size * st->meta->nr_subbufs;
	map = mmap(NULL, st->data_len, PROT_READ, MAP_SHARED, reader->fd,
		   st->meta->meta_page_size);
	if (map == MAP_FAILED) {
		munmap((void *)st->meta, st->meta_len);
		goto unsupported;
	}
	st->data = map;
	st->copy = malloc(reader->subbuf_size);
	if (!st->copy) {
		munmap(map, st->data_len);
		munmap((void *)st->meta, st->meta_len);
		free(st);
		return -ENOMEM;
	}
	st->id = st->meta->reader.id;
	st->read = st->meta->reader.read;
	st->marked = st->meta->read;
	/* Whatever was read from this sub-buffer before us is gone already. */
	st->handed_out = st->read != 0;
	reader->priv = st;
	return 0;

unsupported:
	err = errno;
	free(st);
	if (err == ENODEV || err == EINVAL || err == ENOTTY)
		return -EOPNOTSUPP;
	return -err;
}

static void mmap_close(struct vtrace_ring_reader *reader)
{
	struct mmap_state *st = reader->priv;

	munmap((void *)st->data, st->data_len);
	munmap((void *)st->meta, st->meta_len);
	free(st->copy);
	free(st);
}

static const void *reader_subbuf(struct vtrace_ring_reader *reader)
{
	struct mmap_state *st = reader->priv;

	return st->data + (size_t)st->id * reader->subbuf_size;
}

/* Hand out the reader sub-buffer once, when the writer is done with it. */
static int hand_out(struct vtrace_ring_reader *reader, bool drain,
		    vtrace_ring_subbuf_fn fn, void *ctx)
{
	struct mmap_state *st = reader->priv;
	const void *subbuf = reader_subbuf(reader);
	int ret;

	if (st->handed_out)
		return 0;
	if (!vt_ring_subbuf_data_size(reader, subbuf))
		return 0;
	if (!drain && !vt_ring_subbuf_complete(reader, subbuf))
		return 0;
	ret = vt_ring_reader_emit_counted(reader, subbuf, st->pending, fn, ctx);
	if (!ret) {
		st->handed_out = true;
		st->counted = true;
		st->pending = 0;
	}
	return ret;
}

/*
 * The reader sub-buffer was swapped out before it was handed out: its
 * last copy holds all its events, and is handed out in its place.
 */
static void orphan_copy(struct mmap_state *st)
{
	if (!st->copied)
		return;
	st->orphaned = true;
	st->orphan_events = st->pending;
	st->copied = false;
}

static int hand_out_orphan(struct vtrace_ring_reader *reader,
			   vtrace_ring_subbuf_fn fn, void *ctx)
{
	struct mmap_state *st = reader->priv;
	int ret;

	if (!st->orphaned)
		return 0;
	ret = vt_ring_reader_emit_counted(reader, st->copy, st->orphan_events,
					  fn, ctx);
	if (!ret)
		st->orphaned = false;
	return ret;
}

/* Events the kernel marked read since last asked (0 after a reset). */
static uint64_t take_marked(struct mmap_state *st)
{
	uint64_t read = st->meta->read;
	uint64_t marked = read >= st->marked ? read - st->marked : read;

	st->marked = read;
	return marked;
}

/* Sub-buffer @id is the reader now, not handed out. */
static void new_reader_subbuf(struct mmap_state *st, uint32_t id)
{
	st->id = id;
	st->handed_out = false;
	st->counted = false;
	st->pending = 0;
}

static int mmap_consume(struct vtrace_ring_reader *reader, bool drain,
			unsigned int max, vtrace_ring_subbuf_fn fn, void *ctx)
{
	struct mmap_state *st = reader->priv;
	unsigned long long start = reader->stats.subbufs;
	const void *subbuf;
	uint64_t marked;
	uint32_t id, read;
	int ret;

	/* Left over from a call that failed in the callback: first. */
	ret = hand_out_orphan(reader, fn, ctx);
	if (ret)
		return ret;
	/*
	 * The buffer was reset under us (the tracing core does so when a
	 * module whose events were used is unloaded): the reader sub-buffer
	 * went back without an ioctl of ours. Events the last ioctl marked
	 * read but not handed out survive only in the copy made before it.
	 */
	if (st->meta->reader.id != st->id || st->meta->reader.read < st->read) {
		orphan_copy(st);
		new_reader_subbuf(st, st->meta->reader.id);
		st->read = st->meta->reader.read;
		st->handed_out = st->read != 0;
		take_marked(st);
		ret = hand_out_orphan(reader, fn, ctx);
		if (ret)
			return ret;
	}
	for (;;) {
		if (max && reader->stats.subbufs - start >= max)
			return 0;
		ret = hand_out(reader, drain, fn, ctx);
		if (ret)
			return ret;
		subbuf = reader_subbuf(reader);
		st->copied = !st->handed_out &&
			     vt_ring_subbuf_data_size(reader, subbuf);
		if (st->copied)
			memcpy(st->copy, subbuf, reader->subbuf_size);
		if (ioctl(reader->fd, TRACE_MMAP_IOCTL_GET_READER) < 0)
			return -errno;
		id = st->meta->reader.id;
		read = st->meta->reader.read;
		marked = take_marked(st);
		reader->stats.kernel_lost = st->meta->overrun;
		if (id != st->id) {
			reader->stats.batches++;
			orphan_copy(st);
			new_reader_subbuf(st, id);
			st->pending = marked;
			st->read = read;
			ret = hand_out_orphan(reader, fn, ctx);
			if (ret)
				return ret;
			continue;
		}
		if (st->counted)
			reader->stats.events += marked;
		else
			st->pending += marked;
		if (read == st->read)
			return 0; /* nothing new */
		st->read = read;
	}
}

const struct vtrace_ring_reader_ops vtrace_ring_mmap_ops = {
	.path = VTRACE_READER_MMAP,
	.open = mmap_open,
	.consume = mmap_consume,
	.close = mmap_close,
};
