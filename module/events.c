// SPDX-License-Identifier: GPL-2.0
/*
 * Instantiates the vendor tracepoints and exports them, so that other
 * modules can emit them through vtrace.ko.
 *
 * Adding a vendor event: declare it with TRACE_EVENT() in the header of its
 * TRACE_SYSTEM under module/include/trace/events/, export it here, and give
 * it an entry in emit.c's command table.
 */
#define CREATE_TRACE_POINTS
#include <trace/events/mali.h>
#include <trace/events/thermal_exynos.h>

EXPORT_TRACEPOINT_SYMBOL_GPL(gpu_power_state);
EXPORT_TRACEPOINT_SYMBOL_GPL(mali_pm_status);
EXPORT_TRACEPOINT_SYMBOL_GPL(thermal_cpu_pressure);
EXPORT_TRACEPOINT_SYMBOL_GPL(thermal_exynos_arm_update);
