/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Slices from a trace.dat's records, decoded with libtraceevent; whole
 * files are read through libtracecmd. Only in builds that link
 * libtracecmd (Debian ships it shared only, so not in static ones).
 *
 * A feed takes records in any order (vtrace convert reads each CPU to
 * its end) and sorts what it keeps by timestamp before building: a
 * thread's begin and end may have been recorded on different CPUs.
 */
#ifndef _VTRACE_SLICES_TRACEDAT_H
#define _VTRACE_SLICES_TRACEDAT_H

#include <stddef.h>

#include <vtrace/slices.h>

struct tep_handle;
struct tep_record;
struct vt_slices_feed;

int vtrace_slices_feed_new(struct vt_slices_feed **feed,
			   struct tep_handle *tep);
int vtrace_slices_feed_record(struct vt_slices_feed *feed,
			      struct tep_record *record);
int vtrace_slices_feed_finish(struct vt_slices_feed *feed, struct vt_slices *s);
void vtrace_slices_feed_free(struct vt_slices_feed *feed);
int vtrace_slices_from_tracedat(struct vt_slices *s, const char *path,
				char *msg, size_t msg_size);

#endif /* _VTRACE_SLICES_TRACEDAT_H */
