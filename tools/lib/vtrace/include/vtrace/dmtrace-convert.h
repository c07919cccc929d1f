/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * vtrace convert's dmtrace format (the ".trace" row of convert.c's table):
 * a trace.dat's slices as a combined method trace, and the split
 * .key + .data pair. Reads through libtracecmd: not in static builds.
 */
#ifndef _VTRACE_DMTRACE_CONVERT_H
#define _VTRACE_DMTRACE_CONVERT_H

#include <stddef.h>

#include <vtrace/dmtrace.h>

struct tep_record;
struct vt_convert_input;

int vt_dmtrace_conv_create(void **writer, int fd,
			   const struct vt_convert_input *in);
int vt_dmtrace_conv_add_record(void *writer, struct tep_record *record);
int vt_dmtrace_conv_finish(void *writer);
const char *vt_dmtrace_conv_strerror(void *writer);
void vt_dmtrace_conv_free(void *writer);
int vt_dmtrace_convert_split(const char *in, const char *out,
			     struct vt_dmtrace_write_stats *stats, char *msg,
			     size_t msg_size);

#endif /* _VTRACE_DMTRACE_CONVERT_H */
