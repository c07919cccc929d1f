// SPDX-License-Identifier: GPL-2.0
/*
 * Defines the thermal_exynos_gpu events on the thermal_exynos tracepoints
 * of the same names (see <trace/events/thermal_exynos_gpu.h> for why).
 *
 * define_trace.h defines a tracepoint for every TRACE_EVENT() and then the
 * event itself.  events.c already defines these tracepoints, so here
 * DEFINE_TRACE() is emptied and only the events (and their perf and BPF
 * glue) are generated, attached to the existing __tracepoint_<name>.
 */
#include <trace/events/thermal_exynos.h>

#undef DEFINE_TRACE
#define DEFINE_TRACE(...)

#define CREATE_TRACE_POINTS
#include <trace/events/thermal_exynos_gpu.h>
