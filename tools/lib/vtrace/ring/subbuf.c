// SPDX-License-Identifier: LGPL-2.1
/*
 * What every reader path does with a sub-buffer: its size and
 * completeness, its events, and the accounting of each one handed out.
 * Apart from ring-reader.c, which dispatches to the paths, so that the
 * paths depend on this and nothing depends back on them.
 */
#include <errno.h>
#include <stdbool.h>

#include <kbuffer.h>

#include "ring/ring-reader-local.h"

/**
 * vt_ring_subbuf_data_size - bytes of events in a sub-buffer
 * @reader: the reader the sub-buffer belongs to
 * @subbuf: the sub-buffer
 *
 * Return: the commit count of its header, without the missed-events
 * flags.
 */
size_t vt_ring_subbuf_data_size(struct vtrace_ring_reader *reader,
				const void *subbuf)
{
	if (kbuffer_load_subbuffer(reader->kbuf, (void *)subbuf) < 0)
		return 0;
	return kbuffer_subbuffer_size(reader->kbuf);
}

/*
 * The smallest event the ring buffer writes (RB_EVNT_MIN_SIZE): a
 * sub-buffer with less room left than this is complete.
 */
#define RING_EVENT_MIN_SIZE 8

/**
 * vt_ring_subbuf_complete - whether the writer is done with a sub-buffer
 * @reader: the reader the sub-buffer belongs to
 * @subbuf: the sub-buffer
 *
 * Return: true when less room is left in it than the smallest event
 * takes: the writer has moved on to the next one.
 */
bool vt_ring_subbuf_complete(struct vtrace_ring_reader *reader,
			     const void *subbuf)
{
	size_t size = vt_ring_subbuf_data_size(reader, subbuf);

	return size + RING_EVENT_MIN_SIZE >
	       reader->subbuf_size - kbuffer_start_of_data(reader->kbuf);
}

/**
 * vt_ring_reader_emit_counted - hand out a sub-buffer of known events
 * @reader: the reader it was read by
 * @subbuf: the sub-buffer, @reader->subbuf_size bytes
 * @events: how many events of it to count as handed out now
 * @fn: the caller's callback
 * @ctx: passed to @fn
 *
 * The paths learn the number of events from the kernel, which counts
 * them as it hands sub-buffers over. Empty sub-buffers are skipped. The
 * missed-events flags the kernel sets in the header after an overrun are
 * decoded with libtraceevent's kbuffer.
 *
 * Return: 0, or what @fn returned (the sub-buffer then counts as not
 * handed out).
 */
int vt_ring_reader_emit_counted(struct vtrace_ring_reader *reader,
				const void *subbuf, unsigned long long events,
				vtrace_ring_subbuf_fn fn, void *ctx)
{
	struct kbuffer *kbuf = reader->kbuf;
	int missed;
	int ret;

	if (kbuffer_load_subbuffer(kbuf, (void *)subbuf) < 0)
		return -EINVAL;
	if (!kbuffer_subbuffer_size(kbuf))
		return 0;
	/* kbuffer tells missed events only while at the first event. */
	missed = kbuffer_missed_events(kbuf);
	ret = fn(ctx, reader->cpu, subbuf, reader->subbuf_size);
	if (ret)
		return ret;

	reader->stats.subbufs++;
	reader->stats.bytes += reader->subbuf_size;
	reader->stats.events += events;
	if (missed) {
		reader->stats.missed_subbufs++;
		if (missed > 0)
			reader->stats.missed_events += missed;
	}
	return 0;
}

/**
 * vtrace_ring_subbuf_events - count the events in a sub-buffer
 * @reader: the reader it was read by
 * @subbuf: the sub-buffer, as handed out
 *
 * Walks it with libtraceevent's kbuffer (padding and time stamps are not
 * events). The readers count from the kernel's side; this is for a
 * caller that needs one sub-buffer's share, such as one it discards.
 *
 * Return: the number of events in @subbuf.
 */
unsigned long long vtrace_ring_subbuf_events(struct vtrace_ring_reader *reader,
					     const void *subbuf)
{
	struct kbuffer *kbuf = reader->kbuf;
	unsigned long long events = 0;
	void *event;

	if (kbuffer_load_subbuffer(kbuf, (void *)subbuf) < 0)
		return 0;
	for (event = kbuffer_read_event(kbuf, NULL); event;
	     event = kbuffer_next_event(kbuf, NULL))
		events++;
	return events;
}
