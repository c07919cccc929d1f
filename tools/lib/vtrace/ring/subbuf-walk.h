/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The events of a sub-buffer read from this machine's kernel, walked in
 * line.
 *
 * Why not libtraceevent's kbuffer, which does the same: the Perfetto
 * sink decodes every event it records, and through kbuffer's calls (Debian
 * builds libtraceevent without optimisation) the walk took a third of the
 * recorder's CPU time (Documentation/vtrace-perfetto.rst). This reads
 * only what a live recording hands over, sub-buffers in this machine's
 * byte order, and gives the events, sizes and times kbuffer gives
 * (subbuf_walk_test.c runs both on the same bytes). Files from other
 * machines are read by libtraceevent and libtracecmd. Unlike kbuffer, it
 * never reads past @len, whatever the header says (fuzz_subbuf_walk.c).
 * The layout is ring/subbuf-format.h's.
 */
#ifndef _VTRACE_SUBBUF_WALK_H
#define _VTRACE_SUBBUF_WALK_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ring/subbuf-format.h"

/**
 * struct vt_subbuf_walk - a walk through one sub-buffer's events
 * @data: the first event
 * @size: bytes of events, the commit bounded by the sub-buffer's length
 * @next: offset in @data of the next event's header
 * @ts: the time of the last event walked
 * @missed: events lost before this sub-buffer: 0, the count, or -1
 *	when the kernel lost some without counting them
 */
struct vt_subbuf_walk {
	const unsigned char *data;
	size_t size;
	size_t next;
	uint64_t ts;
	long long missed;
};

static inline uint64_t vt_subbuf_read_long(const unsigned char *p,
					   int long_size)
{
	uint32_t v32;
	uint64_t v64;

	if (long_size == 4) {
		memcpy(&v32, p, sizeof(v32));
		return v32;
	}
	memcpy(&v64, p, sizeof(v64));
	return v64;
}

/**
 * vt_subbuf_walk_init - start walking a sub-buffer
 * @w: the walk
 * @subbuf: the sub-buffer as the kernel hands it over
 * @len: its length in bytes
 * @long_size: the kernel's long, 4 or 8 bytes (the commit's size)
 *
 * Return: 0, or -1 when @len cannot hold the header (@w then has no
 * events).
 */
static inline int vt_subbuf_walk_init(struct vt_subbuf_walk *w,
				      const void *subbuf, size_t len,
				      int long_size)
{
	const unsigned char *p = subbuf;
	size_t header = sizeof(uint64_t) + long_size;
	uint64_t commit;

	memset(w, 0, sizeof(*w));
	if (len < header)
		return -1;
	memcpy(&w->ts, p, sizeof(w->ts));
	commit = vt_subbuf_read_long(p + sizeof(uint64_t), long_size);
	if ((commit & SUBBUF_COMMIT_SIGN_EXTENDED) ==
	    SUBBUF_COMMIT_SIGN_EXTENDED)
		commit &= ~SUBBUF_COMMIT_SIGN_EXTENDED | SUBBUF_COMMIT_FLAGS;
	w->data = p + header;
	w->size = commit & ~SUBBUF_COMMIT_FLAGS;
	if (w->size > len - header)
		w->size = len - header;
	if (commit & SUBBUF_MISSED_EVENTS) {
		w->missed = -1;
		if ((commit & SUBBUF_MISSED_STORED) &&
		    w->size + long_size <= len - header)
			w->missed = (long long)vt_subbuf_read_long(
				w->data + w->size, long_size);
	}
	return 0;
}

/**
 * vt_subbuf_walk_next - the next event of a sub-buffer
 * @w: the walk
 * @size: set to the event's bytes (rounded up to 4, as kbuffer does)
 * @ts: set to its time
 *
 * Padding and time stamps are stepped over, their times kept.
 *
 * Return: the event's data, or NULL after the last one (or at an event
 * that does not fit in the sub-buffer).
 */
static inline const void *vt_subbuf_walk_next(struct vt_subbuf_walk *w,
					      unsigned int *size, uint64_t *ts)
{
	const unsigned char *p;
	uint32_t head, word = 0, type_len, len;
	size_t body;

	while (w->next + sizeof(head) <= w->size) {
		p = w->data + w->next;
		memcpy(&head, p, sizeof(head));
		type_len = head & 0x1f;
		body = w->next + sizeof(head);
		if (type_len == 0 || type_len >= SUBBUF_EVENT_PADDING) {
			if (body + sizeof(word) > w->size)
				break;
			memcpy(&word, p + sizeof(head), sizeof(word));
		}
		switch (type_len) {
		case SUBBUF_EVENT_PADDING:
			if (word > w->size - body)
				goto end;
			w->ts += head >> 5;
			w->next = body + word;
			continue;
		case SUBBUF_EVENT_TIME_EXTEND:
			w->ts += ((uint64_t)word << SUBBUF_TS_SHIFT) +
				 (head >> 5);
			w->next = body + sizeof(word);
			continue;
		case SUBBUF_EVENT_TIME_STAMP:
			w->ts = ((uint64_t)word << SUBBUF_TS_SHIFT) +
				(head >> 5);
			w->next = body + sizeof(word);
			continue;
		case 0:
			if (word < sizeof(word))
				goto end;
			len = (word - sizeof(word) + 3) & ~3u;
			body += sizeof(word);
			break;
		default:
			len = type_len * 4;
			break;
		}
		if (len > w->size - body)
			break;
		w->ts += head >> 5;
		w->next = body + len;
		*size = len;
		*ts = w->ts;
		return w->data + body;
	}
end:
	w->next = w->size;
	return NULL;
}

#endif /* _VTRACE_SUBBUF_WALK_H */
