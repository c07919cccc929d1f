/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vtrace report on a dmtrace method trace (cmd-report.c dispatches here).
 */
#ifndef _VTRACE_REPORT_DMTRACE_H
#define _VTRACE_REPORT_DMTRACE_H

#include <stdbool.h>

int report_dmtrace(const char *file, bool json, bool filtered);

#endif /* _VTRACE_REPORT_DMTRACE_H */
