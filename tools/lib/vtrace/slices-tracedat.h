/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Slices from a trace.dat, read through libtracecmd. Only in builds that
 * link libtracecmd (Debian ships it shared only, so not in static ones).
 */
#ifndef _VTRACE_SLICES_TRACEDAT_H
#define _VTRACE_SLICES_TRACEDAT_H

#include <stddef.h>

#include <vtrace/slices.h>

int vt_slices_from_tracedat(struct vt_slices *s, const char *path, char *msg,
			    size_t msg_size);

#endif /* _VTRACE_SLICES_TRACEDAT_H */
