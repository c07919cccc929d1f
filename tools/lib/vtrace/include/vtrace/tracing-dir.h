/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Finding (and, as root, mounting) tracefs.
 */
#ifndef _VTRACE_TRACING_DIR_H
#define _VTRACE_TRACING_DIR_H

#include <stdbool.h>

#define VTRACE_TRACEFS_MOUNTPOINT "/sys/kernel/tracing"

int vtrace_tracing_dir(bool mount, const char **dir);

#endif /* _VTRACE_TRACING_DIR_H */
