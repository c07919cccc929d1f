/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Exynos thermal events: TMU throttling, the power allocator and its PID
 * terms, CPU/GPU/TPU power estimates and limits, cooling devices, and the
 * ACPM firmware's samples.
 *
 * Names, fields (order, types, sizes, offsets) and print formats are those
 * of the vendor Exynos thermal driver as a Pixel 6 (gs101, kernel 5.10)
 * shows them in tracefs, and for the ACPM events those Perfetto decodes,
 * with one deliberate difference: a name the device passes as a
 * "const char *" field (tmu_name, cdev_type) is stored in the event
 * (__string, printed with __get_str()), because a kernel pointer means
 * nothing to a reader of the ring buffer.  The fields after it sit where
 * the compiler puts them.
 *
 * vtrace.ko defines and exports the tracepoints.  Another module emits them
 * by including this header and linking against vtrace.ko's Module.symvers.
 * Adding an event: see module/event-table.h.
 *
 * No TRACE_INCLUDE_PATH: define_trace.h then re-reads this file as
 * <trace/events/thermal_exynos.h>, found through the same -I path
 * (module/include) that every user of this header already needs.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM thermal_exynos

#if !defined(_TRACE_THERMAL_EXYNOS_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_THERMAL_EXYNOS_H

#include <linux/cpumask.h>
#include <linux/tracepoint.h>
#include <linux/types.h>

#include <trace/vtrace_compat.h>

/* thermal pressure on a CPU changed */
TRACE_EVENT(thermal_cpu_pressure,
	    TP_PROTO(unsigned long pressure, int cpu),
	    TP_ARGS(pressure, cpu),
	    TP_STRUCT__entry(__field(unsigned long, pressure)
			     __field(int, cpu)),
	    TP_fast_assign(__entry->pressure = pressure;
			   __entry->cpu = cpu;),
	    TP_printk("pressure=%lu cpu=%d", __entry->pressure, __entry->cpu)
);

/* one power-allocator sample ACPM logged in bulk */
TRACE_EVENT(thermal_exynos_acpm_bulk,
	    TP_PROTO(u8 tz_id, u8 current_temp, u8 ctrl_temp, u8 cdev_state,
		     s32 pid_et_p, s16 pid_power_range, s16 pid_p, s32 pid_i,
		     s32 k_p, s32 k_i, u64 timestamp),
	    TP_ARGS(tz_id, current_temp, ctrl_temp, cdev_state, pid_et_p,
		    pid_power_range, pid_p, pid_i, k_p, k_i, timestamp),
	    TP_STRUCT__entry(__field(u8, tz_id)
			     __field(u8, current_temp)
			     __field(u8, ctrl_temp)
			     __field(u8, cdev_state)
			     __field(s32, pid_et_p)
			     __field(s16, pid_power_range)
			     __field(s16, pid_p)
			     __field(s32, pid_i)
			     __field(s32, k_p)
			     __field(s32, k_i)
			     __field(u64, timestamp)),
	    TP_fast_assign(__entry->tz_id = tz_id;
			   __entry->current_temp = current_temp;
			   __entry->ctrl_temp = ctrl_temp;
			   __entry->cdev_state = cdev_state;
			   __entry->pid_et_p = pid_et_p;
			   __entry->pid_power_range = pid_power_range;
			   __entry->pid_p = pid_p;
			   __entry->pid_i = pid_i;
			   __entry->k_p = k_p;
			   __entry->k_i = k_i;
			   __entry->timestamp = timestamp;),
	    TP_printk("thermal_zone_id=%u current_temperature=%u ctrl_temp=%u cdev_state=%u pid_et_p=%d pid_power_range=%d pid_p=%d pid_i=%d k_p=%d k_i=%d timestamp=%llu",
		      __entry->tz_id, __entry->current_temp, __entry->ctrl_temp,
		      __entry->cdev_state, __entry->pid_et_p,
		      __entry->pid_power_range, __entry->pid_p, __entry->pid_i,
		      __entry->k_p, __entry->k_i, __entry->timestamp)
);

/* a power-allocator sample ACPM reported with high overhead */
TRACE_EVENT(thermal_exynos_acpm_high_overhead,
	    TP_PROTO(int tz_id, u8 current_temp, u8 ctrl_temp, u8 cdev_state,
		     s32 pid_et_p, s32 k_p, s32 k_i),
	    TP_ARGS(tz_id, current_temp, ctrl_temp, cdev_state, pid_et_p, k_p,
		    k_i),
	    TP_STRUCT__entry(__field(int, tz_id)
			     __field(u8, current_temp)
			     __field(u8, ctrl_temp)
			     __field(u8, cdev_state)
			     __field(s32, pid_et_p)
			     __field(s32, k_p)
			     __field(s32, k_i)),
	    TP_fast_assign(__entry->tz_id = tz_id;
			   __entry->current_temp = current_temp;
			   __entry->ctrl_temp = ctrl_temp;
			   __entry->cdev_state = cdev_state;
			   __entry->pid_et_p = pid_et_p;
			   __entry->k_p = k_p;
			   __entry->k_i = k_i;),
	    TP_printk("thermal_zone_id=%d current_temperature=%u ctrl_temp=%u cdev_state=%u pid_et_p=%d k_p=%d k_i=%d",
		      __entry->tz_id, __entry->current_temp, __entry->ctrl_temp,
		      __entry->cdev_state, __entry->pid_et_p, __entry->k_p,
		      __entry->k_i)
);

/* a zone allowed its cooling device the maximum power */
TRACE_EVENT(thermal_exynos_allow_max_power,
	    TP_PROTO(const char *tmu_name, bool is_hardlimited,
		     const char *cdev_type, unsigned long state),
	    TP_ARGS(tmu_name, is_hardlimited, cdev_type, state),
	    TP_STRUCT__entry(__string(tmu_name, tmu_name)
			     __field(bool, is_hardlimited)
			     __string(cdev_type, cdev_type)
			     __field(unsigned long, state)),
	    TP_fast_assign(vtrace_assign_str(tmu_name);
			   __entry->is_hardlimited = is_hardlimited;
			   vtrace_assign_str(cdev_type);
			   __entry->state = state;),
	    TP_printk("tmu_name:%s, is_hardlimited=%d, cdev:%s, target=%lu",
		      __get_str(tmu_name), __entry->is_hardlimited,
		      __get_str(cdev_type), __entry->state)
);

/* throttling state of a TMU, as ACPM reports it */
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
	    TP_fast_assign(vtrace_assign_str(tmu_name);
			   __entry->is_cpu_hw_throttled = is_cpu_hw_throttled;
			   __entry->ppm_throttle_level = ppm_throttle_level;
			   __entry->ppm_clr_level = ppm_clr_level;
			   __entry->mpmm_throttle_level = mpmm_throttle_level;
			   __entry->mpmm_clr_level = mpmm_clr_level;),
	    TP_printk("tmu_name:%s is_cpu_hw_throttled=%d, ppm_throttle_lvl=0x%x, ppm_clr_lvl=0x%x, mpmm_throttle_lvl=0x%x, mpmm_clr_lvl=0x%x",
		      __get_str(tmu_name), __entry->is_cpu_hw_throttled,
		      __entry->ppm_throttle_level, __entry->ppm_clr_level,
		      __entry->mpmm_throttle_level, __entry->mpmm_clr_level)
);

/* a zone paused or resumed CPUs */
TRACE_EVENT(thermal_exynos_cpu_pause,
	    TP_PROTO(const char *tmu_name, const struct cpumask *cpumask,
		     bool is_cpu_paused),
	    TP_ARGS(tmu_name, cpumask, is_cpu_paused),
	    TP_STRUCT__entry(__string(tmu_name, tmu_name)
			     __bitmask(cpumask, num_possible_cpus())
			     __field(bool, is_cpu_paused)),
	    TP_fast_assign(vtrace_assign_str(tmu_name);
			   __assign_bitmask(cpumask, cpumask_bits(cpumask),
					    num_possible_cpus());
			   __entry->is_cpu_paused = is_cpu_paused;),
	    TP_printk("tmu_name:%s cpus=%s, is_cpu_paused=%d",
		      __get_str(tmu_name), __get_bitmask(cpumask),
		      __entry->is_cpu_paused)
);

/* a zone's hard limit set its cooling device's state */
TRACE_EVENT(thermal_exynos_hard_limit_cdev_update,
	    TP_PROTO(const char *tmu_name, const char *cdev_type,
		     bool is_hardlimited, bool pid_switch_on,
		     unsigned long prev_max_state, unsigned long state),
	    TP_ARGS(tmu_name, cdev_type, is_hardlimited, pid_switch_on,
		    prev_max_state, state),
	    TP_STRUCT__entry(__string(tmu_name, tmu_name)
			     __string(cdev_type, cdev_type)
			     __field(bool, is_hardlimited)
			     __field(bool, pid_switch_on)
			     __field(unsigned long, prev_max_state)
			     __field(unsigned long, state)),
	    TP_fast_assign(vtrace_assign_str(tmu_name);
			   vtrace_assign_str(cdev_type);
			   __entry->is_hardlimited = is_hardlimited;
			   __entry->pid_switch_on = pid_switch_on;
			   __entry->prev_max_state = prev_max_state;
			   __entry->state = state;),
	    TP_printk("tmu_name:%s cdev:%s, is_hardlimited=%d, pid_switch_on=%d, prev_max_state=%lu, state=%lu",
		      __get_str(tmu_name), __get_str(cdev_type),
		      __entry->is_hardlimited, __entry->pid_switch_on,
		      __entry->prev_max_state, __entry->state)
);

/* one power-allocator step of a thermal zone */
TRACE_EVENT(thermal_exynos_power_allocator,
	    TP_PROTO(int tz_id, u32 power_range, u32 max_allocatable_power,
		     int current_temp, s32 delta_temp, unsigned long cdev_state,
		     bool is_hardlimited),
	    TP_ARGS(tz_id, power_range, max_allocatable_power, current_temp,
		    delta_temp, cdev_state, is_hardlimited),
	    TP_STRUCT__entry(__field(int, tz_id)
			     __field(u32, power_range)
			     __field(u32, max_allocatable_power)
			     __field(int, current_temp)
			     __field(s32, delta_temp)
			     __field(unsigned long, cdev_state)
			     __field(bool, is_hardlimited)),
	    TP_fast_assign(__entry->tz_id = tz_id;
			   __entry->power_range = power_range;
			   __entry->max_allocatable_power = max_allocatable_power;
			   __entry->current_temp = current_temp;
			   __entry->delta_temp = delta_temp;
			   __entry->cdev_state = cdev_state;
			   __entry->is_hardlimited = is_hardlimited;),
	    TP_printk("thermal_zone_id=%d power_range=%u max_allocatable_power=%u current_temperature=%d delta_temperature=%d cdev_state=%lu is_hardlimited=%d",
		      __entry->tz_id, __entry->power_range,
		      __entry->max_allocatable_power, __entry->current_temp,
		      __entry->delta_temp, __entry->cdev_state,
		      __entry->is_hardlimited)
);

/* the PID controller terms of a power-allocator step */
TRACE_EVENT(thermal_exynos_power_allocator_pid,
	    TP_PROTO(int tz_id, s32 err, s32 err_integral, s64 p, s64 i,
		     s32 output),
	    TP_ARGS(tz_id, err, err_integral, p, i, output),
	    TP_STRUCT__entry(__field(int, tz_id)
			     __field(s32, err)
			     __field(s32, err_integral)
			     __field(s64, p)
			     __field(s64, i)
			     __field(s32, output)),
	    TP_fast_assign(__entry->tz_id = tz_id;
			   __entry->err = err;
			   __entry->err_integral = err_integral;
			   __entry->p = p;
			   __entry->i = i;
			   __entry->output = output;),
	    TP_printk("thermal_zone_id=%d err=%d err_integral=%d p=%lld i=%lld output=%d",
		      __entry->tz_id, __entry->err, __entry->err_integral,
		      __entry->p, __entry->i, __entry->output)
);

/* power estimate of a CPU cluster from its per-CPU loads */
TRACE_EVENT(thermal_exynos_power_cpu_get_power,
	    TP_PROTO(int tzid, int cpu, unsigned long freq, const u32 *load,
		     size_t load_len, u32 dynamic_power, u32 static_power),
	    TP_ARGS(tzid, cpu, freq, load, load_len, dynamic_power,
		    static_power),
	    TP_STRUCT__entry(__field(int, tzid)
			     __field(int, cpu)
			     __field(unsigned long, freq)
			     __dynamic_array(u32, load, load_len)
			     __field(size_t, load_len)
			     __field(u32, dynamic_power)
			     __field(u32, static_power)),
	    TP_fast_assign(__entry->tzid = tzid;
			   __entry->cpu = cpu;
			   __entry->freq = freq;
			   memcpy(__get_dynamic_array(load), load,
				  load_len * sizeof(*load));
			   __entry->load_len = load_len;
			   __entry->dynamic_power = dynamic_power;
			   __entry->static_power = static_power;),
	    TP_printk("thermal_zone_id=%d cpu=%d freq=%lu load={%s} dynamic_power=%d static_power=%d",
		      __entry->tzid, __entry->cpu, __entry->freq,
		      __print_array(__get_dynamic_array(load),
				    __entry->load_len, 4),
		      __entry->dynamic_power, __entry->static_power)
);

/* power limit applied to a CPU cluster */
TRACE_EVENT(thermal_exynos_power_cpu_limit,
	    TP_PROTO(int tzid, int cpu, unsigned int freq,
		     unsigned long cdev_state, u32 power),
	    TP_ARGS(tzid, cpu, freq, cdev_state, power),
	    TP_STRUCT__entry(__field(int, tzid)
			     __field(int, cpu)
			     __field(unsigned int, freq)
			     __field(unsigned long, cdev_state)
			     __field(u32, power)),
	    TP_fast_assign(__entry->tzid = tzid;
			   __entry->cpu = cpu;
			   __entry->freq = freq;
			   __entry->cdev_state = cdev_state;
			   __entry->power = power;),
	    TP_printk("thermal_zone_id=%d cpu=%d freq=%u cdev_state=%lu power=%u",
		      __entry->tzid, __entry->cpu, __entry->freq,
		      __entry->cdev_state, __entry->power)
);

/* power estimate of the GPU */
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

/* power limit applied to the GPU */
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

/* a zone paused or resumed the TPU */
TRACE_EVENT(thermal_exynos_tpu_pause,
	    TP_PROTO(const char *tmu_name, bool is_paused),
	    TP_ARGS(tmu_name, is_paused),
	    TP_STRUCT__entry(__string(tmu_name, tmu_name)
			     __field(bool, is_paused)),
	    TP_fast_assign(vtrace_assign_str(tmu_name);
			   __entry->is_paused = is_paused;),
	    TP_printk("tmu_name:%s is_paused=%d", __get_str(tmu_name),
		      __entry->is_paused)
);

/* a cooling device's state changed */
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

#endif /* _TRACE_THERMAL_EXYNOS_H */

#include <trace/define_trace.h>
