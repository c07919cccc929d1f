/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The GPU cooling driver's thermal events, a system of their own on a
 * Pixel 6: thermal_exynos_power_gpu_get_power, thermal_exynos_power_gpu_limit
 * and vendor_cdev_update, with the same names and formats as their
 * thermal_exynos namesakes.
 *
 * A tracepoint is one kernel symbol per name, so these events cannot have
 * tracepoints of their own inside vtrace.ko: they are attached to the
 * thermal_exynos tracepoints of the same name, and trace_<name>() from
 * <trace/events/thermal_exynos.h> records into both systems (each event
 * only while it is enabled).  This header therefore declares nothing when
 * included normally; module/events-gpu.c reads it to define the events.
 *
 * No TRACE_INCLUDE_PATH: define_trace.h then re-reads this file as
 * <trace/events/thermal_exynos_gpu.h> through module/include.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM thermal_exynos_gpu

#if !defined(_TRACE_THERMAL_EXYNOS_GPU_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_THERMAL_EXYNOS_GPU_H

#include <linux/tracepoint.h>
#include <linux/types.h>

#include <trace/vtrace_compat.h>

#ifdef TRACE_HEADER_MULTI_READ

/* power estimate of the GPU, from the GPU cooling driver */
TRACE_EVENT(thermal_exynos_power_gpu_get_power,
	    TP_PROTO(unsigned long freq, u32 load, u32 dynamic_power,
		     u32 static_power),
	    TP_ARGS(freq, load, dynamic_power, static_power),
	    TP_STRUCT__entry(__field(unsigned long, freq)
			     __field(u32, load)
			     __field(u32, dynamic_power)
			     __field(u32, static_power)),
	    TP_fast_assign(__entry->freq = freq;
			   __entry->load = load;
			   __entry->dynamic_power = dynamic_power;
			   __entry->static_power = static_power;),
	    TP_printk("freq=%lu load=%d dynamic_power=%d static_power=%d",
		      __entry->freq, __entry->load, __entry->dynamic_power,
		      __entry->static_power)
);

/* power limit applied to the GPU, by the GPU cooling driver */
TRACE_EVENT(thermal_exynos_power_gpu_limit,
	    TP_PROTO(unsigned int freq, unsigned long cdev_state, u32 power),
	    TP_ARGS(freq, cdev_state, power),
	    TP_STRUCT__entry(__field(unsigned int, freq)
			     __field(unsigned long, cdev_state)
			     __field(u32, power)),
	    TP_fast_assign(__entry->freq = freq;
			   __entry->cdev_state = cdev_state;
			   __entry->power = power;),
	    TP_printk("freq=%u cdev_state=%lu power=%u", __entry->freq,
		      __entry->cdev_state, __entry->power)
);

/* the GPU cooling device's state changed */
TRACE_EVENT(vendor_cdev_update,
	    TP_PROTO(const char *cdev_type, unsigned long sysfs_req,
		     unsigned long state),
	    TP_ARGS(cdev_type, sysfs_req, state),
	    TP_STRUCT__entry(__string(cdev_type, cdev_type)
			     __field(unsigned long, sysfs_req)
			     __field(unsigned long, state)),
	    TP_fast_assign(vtrace_assign_str(cdev_type);
			   __entry->sysfs_req = sysfs_req;
			   __entry->state = state;),
	    TP_printk("cdev:%s sysfs_req=%lu, state=%lu", __get_str(cdev_type),
		      __entry->sysfs_req, __entry->state)
);

#endif /* TRACE_HEADER_MULTI_READ */

#endif /* _TRACE_THERMAL_EXYNOS_GPU_H */

#include <trace/define_trace.h>
