/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Layout check of a trace.dat version 7 (trace-cmd.dat.v7(5)), as
 * thorough as version 6's: every section and option that libtracecmd 1.3
 * reads is found, bounded by the file, decompressed when compressed, and
 * its contents checked as version 6's (tracedat-walk.h). Called by
 * vt_tracedat_check() once the file header says version 7. Internal to
 * the library.
 */
#ifndef VTRACE_TRACEDAT_CHECK_V7_H
#define VTRACE_TRACEDAT_CHECK_V7_H

struct vt_walk;

int vt_tracedat_check_v7(struct vt_walk *w);

#endif /* VTRACE_TRACEDAT_CHECK_V7_H */
