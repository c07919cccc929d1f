/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Exynos thermal management unit (TMU) events.
 *
 * Names, field names, types and sizes follow the vendor Exynos thermal
 * driver of Pixel's gs101/gs201 kernels, with one deliberate difference:
 * tmu_name is stored in the event (__string) instead of as a pointer, which
 * userspace could not decode from the raw ring buffer.
 *
 * vtrace.ko defines and exports the tracepoints.  Another module emits them
 * by including this header and linking against vtrace.ko's Module.symvers.
 *
 * No TRACE_INCLUDE_PATH: define_trace.h then re-reads this file as
 * <trace/events/thermal_exynos.h>, found through the same -I path
 * (module/include) that every user of this header already needs.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM thermal_exynos

#if !defined(_TRACE_THERMAL_EXYNOS_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_THERMAL_EXYNOS_H

#include <linux/tracepoint.h>
#include <linux/types.h>
#include <linux/version.h>

#ifndef _TRACE_THERMAL_EXYNOS_COMPAT_ONCE
#define _TRACE_THERMAL_EXYNOS_COMPAT_ONCE
/*
 * Copies the tmu_name argument into the tmu_name field.  Before Linux 6.10,
 * __assign_str() took the source a second time.
 */
#if KERNEL_VERSION(6, 10, 0) <= LINUX_VERSION_CODE
#define thermal_exynos_assign_tmu_name() __assign_str(tmu_name)
#else
#define thermal_exynos_assign_tmu_name() __assign_str(tmu_name, tmu_name)
#endif
#endif /* _TRACE_THERMAL_EXYNOS_COMPAT_ONCE */

/**
 * thermal_cpu_pressure - thermal pressure on a CPU changed
 * @pressure:	capacity lost to thermal throttling, 0..SCHED_CAPACITY_SCALE
 * @cpu:	the CPU
 */
TRACE_EVENT(thermal_cpu_pressure,
	    TP_PROTO(unsigned long pressure, int cpu),
	    TP_ARGS(pressure, cpu),
	    TP_STRUCT__entry(__field(unsigned long, pressure)
			     __field(int, cpu)),
	    TP_fast_assign(__entry->pressure = pressure;
			   __entry->cpu = cpu;),
	    TP_printk("cpu=%d pressure=%lu", __entry->cpu, __entry->pressure)
);

/**
 * thermal_exynos_arm_update - throttling state of a TMU, as ACPM reports it
 * @tmu_name:		thermal zone of the TMU (BIG, MID, LITTLE, GPU, ...)
 * @is_cpu_hw_throttled: hardware (trip) throttling of the CPUs is active
 * @ppm_throttle_level:	current peak power management throttle level
 * @ppm_clr_level:	PPM level the zone would clear to without hysteresis
 * @mpmm_throttle_level: current maximum power mitigation throttle level
 * @mpmm_clr_level:	MPMM level the zone would clear to without hysteresis
 */
TRACE_EVENT(thermal_exynos_arm_update,
	    TP_PROTO(const char *tmu_name, bool is_cpu_hw_throttled,
		     int ppm_throttle_level, int ppm_clr_level,
		     int mpmm_throttle_level, int mpmm_clr_level),
	    TP_ARGS(tmu_name, is_cpu_hw_throttled, ppm_throttle_level,
		    ppm_clr_level, mpmm_throttle_level, mpmm_clr_level),
	    TP_STRUCT__entry(__string(tmu_name, tmu_name)
			     __field(bool, is_cpu_hw_throttled)
			     __field(int, ppm_throttle_level)
			     __field(int, ppm_clr_level)
			     __field(int, mpmm_throttle_level)
			     __field(int, mpmm_clr_level)),
	    TP_fast_assign(thermal_exynos_assign_tmu_name();
			   __entry->is_cpu_hw_throttled = is_cpu_hw_throttled;
			   __entry->ppm_throttle_level = ppm_throttle_level;
			   __entry->ppm_clr_level = ppm_clr_level;
			   __entry->mpmm_throttle_level = mpmm_throttle_level;
			   __entry->mpmm_clr_level = mpmm_clr_level;),
	    TP_printk("tmu=%s hw_throttled=%d ppm=%d ppm_clr=%d mpmm=%d mpmm_clr=%d",
		      __get_str(tmu_name), __entry->is_cpu_hw_throttled,
		      __entry->ppm_throttle_level, __entry->ppm_clr_level,
		      __entry->mpmm_throttle_level, __entry->mpmm_clr_level)
);

#endif /* _TRACE_THERMAL_EXYNOS_H */

#include <trace/define_trace.h>
