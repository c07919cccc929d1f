/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The layout of a ring-buffer sub-buffer (kernel/trace/ring_buffer.c),
 * as trace_pipe_raw hands it over and trace.dat keeps it: a u64 time
 * stamp, a long "commit", then the events, each a u32 of type_len (5
 * bits) and time_delta (27 bits) and its body by type_len:
 *   1..28  data, type_len * 4 bytes
 *   0      a u32 length (counting itself), then the data
 *   29     padding (a discarded event): a u32 length of what follows
 *   30     time extend: a u32 of the delta's bits above the 27
 *   31     absolute time stamp, split the same way
 */
#ifndef _VTRACE_SUBBUF_FORMAT_H
#define _VTRACE_SUBBUF_FORMAT_H

/*
 * Commit: data length below these flag bits (events were missed before
 * the sub-buffer, and their count is stored after its data). The
 * kernel's flags are int constants: in a 64-bit commit, bit 31 is
 * sign-extended to bit 63.
 */
#define SUBBUF_COMMIT_FLAGS (3ULL << 30)
#define SUBBUF_MISSED_EVENTS (1ULL << 31)
#define SUBBUF_MISSED_STORED (1ULL << 30)
#define SUBBUF_COMMIT_SIGN_EXTENDED (~0ULL << 31)

#define SUBBUF_EVENT_PADDING 29
#define SUBBUF_EVENT_TIME_EXTEND 30
#define SUBBUF_EVENT_TIME_STAMP 31
/* Bits of time_delta in an event's header; a time extend holds the rest. */
#define SUBBUF_TS_SHIFT 27

#endif /* _VTRACE_SUBBUF_FORMAT_H */
