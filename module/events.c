// SPDX-License-Identifier: GPL-2.0
/*
 * Instantiates the vendor tracepoints; event-table.c exports them, so that
 * other modules can emit them through vtrace.ko.  Adding a vendor event:
 * see event-table.h.
 */
#define CREATE_TRACE_POINTS
#include <trace/events/mali.h>
#include <trace/events/thermal_exynos.h>
