/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vtrace report on a Perfetto trace (cmd-report.c dispatches here).
 */
#ifndef _VTRACE_REPORT_PERFETTO_H
#define _VTRACE_REPORT_PERFETTO_H

#include <stdbool.h>

int report_perfetto(const char *file, bool json, const char *events, int cpu);

#endif /* _VTRACE_REPORT_PERFETTO_H */
