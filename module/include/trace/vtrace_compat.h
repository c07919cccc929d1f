/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What vtrace.ko's event headers need to build on every kernel it supports
 * (6.1 and later).
 */
#ifndef _TRACE_VTRACE_COMPAT_H
#define _TRACE_VTRACE_COMPAT_H

#include <linux/version.h>

/*
 * vtrace_assign_str(dst) - copy a __string field's source into the event,
 * for a field named after its TP_PROTO argument, __string(dst, dst).
 *
 * Before Linux 6.10, __assign_str() took the source a second time.
 */
#if KERNEL_VERSION(6, 10, 0) <= LINUX_VERSION_CODE
#define vtrace_assign_str(...) __assign_str(__VA_ARGS__)
#else
#define vtrace_assign_str(...) __assign_str(__VA_ARGS__, __VA_ARGS__)
#endif

#endif /* _TRACE_VTRACE_COMPAT_H */
