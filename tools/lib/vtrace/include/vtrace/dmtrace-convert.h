/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * vtrace convert's dmtrace format (the ".trace" row of the formats' table):
 * a trace.dat's slices as a combined method trace, and the split
 * .key + .data pair. Reads through libtracecmd: not in static builds.
 */
#ifndef _VTRACE_DMTRACE_CONVERT_H
#define _VTRACE_DMTRACE_CONVERT_H

#include <stddef.h>

#include <vtrace/dmtrace.h>
#include <vtrace/sink.h>

/* The dmtrace row of the formats' table (format.h), for conversions. */
extern const struct vtrace_convert_ops vt_dmtrace_convert_ops;

int vtrace_dmtrace_convert_split(const char *in, const char *out,
				 struct vt_dmtrace_write_stats *stats,
				 char *msg, size_t msg_size);

#endif /* _VTRACE_DMTRACE_CONVERT_H */
