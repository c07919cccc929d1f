/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loading the slices of a file for vtrace slices, profile and convert:
 * a dmtrace method trace, or a trace.dat where libtracecmd is linked.
 */
#ifndef _VTRACE_SLICES_LOAD_H
#define _VTRACE_SLICES_LOAD_H

#include <stdbool.h>

#include <vtrace/slices.h>

int cli_load_slices(const char *cmd, const char *file, struct vt_slices *s);
void cli_report_slice_faults(const char *cmd, const char *file,
			     const struct vt_slices *s);
int cli_finish_stdout(void);
int cli_convert_dmtrace_split(const char *format, const char *in,
			      const char *out, bool quiet);

#endif /* _VTRACE_SLICES_LOAD_H */
