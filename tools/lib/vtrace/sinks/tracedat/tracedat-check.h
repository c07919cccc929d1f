/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Layout check of a trace.dat before libtracecmd opens it.
 *
 * Why this exists: libtracecmd 1.3 dereferences NULL while cleaning up
 * after a version 6 file whose CPU data runs past the end of the file
 * (any truncated recording), so vtrace report would crash where it must
 * say "truncated", and its event iterator dereferences NULL on a latency
 * file (tracer text instead of CPU data). This walks the section sizes
 * of trace-cmd.dat.v6(5), names the first section that does not fit,
 * refuses latency files and the few contents that the libraries trust
 * and crash on (see tracedat-walk.c). Version 7 files, what trace-cmd
 * 3.x writes, are checked as thoroughly by tracedat-check-v7.c; other
 * versions it would read as 6 are refused.
 */
#ifndef VTRACE_TRACEDAT_CHECK_H
#define VTRACE_TRACEDAT_CHECK_H

#include <stddef.h>

/**
 * vt_tracedat_check - check that a trace.dat's sections fit in the file
 * @path: the file
 * @msg: set to why the file is unusable, on failure
 * @msg_size: size of @msg
 *
 * Return: 0 when the layout is sound (or the version is above 7, which
 * libtracecmd refuses),
 * -ENODATA when the file is an unfinished vtrace recording (see
 * tracedat-writer.h), -EINVAL when it is truncated, corrupt or a latency
 * file, or another negative errno when it cannot be read.
 */
int vt_tracedat_check(const char *path, char *msg, size_t msg_size);

#endif /* VTRACE_TRACEDAT_CHECK_H */
