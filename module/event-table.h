/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The vendor event table: one row per event vtrace.ko registers, naming its
 * system and its fields in format order.  Included several times, each time
 * with other definitions of the row and field macros: event-table.c builds
 * from it the tracepoint exports, emit's field descriptors and the emit
 * functions, so nothing else lists the events.
 *
 * A row:	VTRACE_EVENT(system, name, field, ...)
 *		VTRACE_EVENT_SHARED(system, name, field, ...): an event
 *		attached to the tracepoint of the same name that a
 *		VTRACE_EVENT row exports (see thermal_exynos_gpu.h)
 * A field, in the order of the event's TP_PROTO() (= its format's order):
 *	VTRACE_INT(type, name)	an integer of that C type (size, signedness)
 *	VTRACE_BOOL(name)	0 or 1
 *	VTRACE_STR(name)	a __string(): one token of [A-Za-z0-9_-]
 *	VTRACE_U32S(name, max)	a __dynamic_array() of at most max u32
 *	VTRACE_U64S(name, len)	an __array() of len u64
 *	VTRACE_CPUS(name)	a __bitmask() of CPUs, given as CPU numbers
 *	VTRACE_LEN(type, name, array)	the element count of field array
 *
 * Adding an event:
 *  1. Declare it in the header of its TRACE_SYSTEM under
 *     module/include/trace/events/ (a new system: a new header, included
 *     by events.c and event-table.c), with the device's field order,
 *     types and print fmt, and TP_PROTO() arguments in field order.
 *  2. Add its row here.
 *  3. Document it in Documentation/vtrace-module.rst's event list; if a
 *     reference format exists, put it where event_format's test finds
 *     the others (../shared/ref) and the test checks it too.
 * The emit command, the exported tracepoint and the emit test (which reads
 * the fields from the event's format) follow from the row.
 */

/* mali */
VTRACE_EVENT(mali, gpu_power_state, VTRACE_INT(u64, change_ns),
	     VTRACE_INT(int, from_state), VTRACE_INT(int, to_state))
VTRACE_EVENT(mali, mali_CSF_INTERRUPT_END, VTRACE_INT(pid_t, kctx_tgid),
	     VTRACE_INT(u32, kctx_id), VTRACE_INT(u64, info_val))
VTRACE_EVENT(mali, mali_CSF_INTERRUPT_START, VTRACE_INT(pid_t, kctx_tgid),
	     VTRACE_INT(u32, kctx_id), VTRACE_INT(u64, info_val))
VTRACE_EVENT(mali, mali_jit_alloc, VTRACE_INT(u64, start_addr),
	     VTRACE_INT(size_t, nr_pages), VTRACE_INT(size_t, backed_pages),
	     VTRACE_INT(u8, jit_id))
VTRACE_EVENT(mali, mali_jit_free, VTRACE_INT(u64, start_addr),
	     VTRACE_INT(size_t, nr_pages), VTRACE_INT(size_t, backed_pages),
	     VTRACE_INT(u8, jit_id))
VTRACE_EVENT(mali, mali_jit_report, VTRACE_INT(u64, start_addr),
	     VTRACE_INT(u64, read_val), VTRACE_INT(u64, used_pages),
	     VTRACE_INT(unsigned long, flags), VTRACE_INT(u8, id_idx),
	     VTRACE_INT(u8, jit_id))
VTRACE_EVENT(mali, mali_jit_report_gpu_mem, VTRACE_INT(u64, base_addr),
	     VTRACE_INT(u64, reg_addr), VTRACE_U64S(mem_values, 4),
	     VTRACE_INT(unsigned int, flags))
VTRACE_EVENT(mali, mali_jit_report_pressure, VTRACE_INT(u64, start_addr),
	     VTRACE_INT(u64, used_pages), VTRACE_INT(u64, new_used_pages),
	     VTRACE_INT(u64, new_pressure), VTRACE_INT(unsigned int, flags))
VTRACE_EVENT(mali, mali_jit_trim, VTRACE_INT(size_t, freed_pages))
VTRACE_EVENT(mali, mali_jit_trim_from_region, VTRACE_INT(u64, start_addr),
	     VTRACE_INT(size_t, freed_pages), VTRACE_INT(size_t, old_pages),
	     VTRACE_INT(size_t, available_pages), VTRACE_INT(size_t, new_pages))
VTRACE_EVENT(mali, mali_job_slots_event, VTRACE_INT(u32, gpu_id),
	     VTRACE_INT(u32, event_id), VTRACE_INT(u32, tgid),
	     VTRACE_INT(u32, pid), VTRACE_INT(u8, job_id))
VTRACE_EVENT(mali, mali_KCPU_CQS_SET, VTRACE_INT(u64, info_val1),
	     VTRACE_INT(u64, info_val2), VTRACE_INT(pid_t, kctx_tgid),
	     VTRACE_INT(u32, kctx_id), VTRACE_INT(u8, id))
VTRACE_EVENT(mali, mali_KCPU_CQS_WAIT_END, VTRACE_INT(u64, info_val1),
	     VTRACE_INT(u64, info_val2), VTRACE_INT(pid_t, kctx_tgid),
	     VTRACE_INT(u32, kctx_id), VTRACE_INT(u8, id))
VTRACE_EVENT(mali, mali_KCPU_CQS_WAIT_START, VTRACE_INT(u64, info_val1),
	     VTRACE_INT(u64, info_val2), VTRACE_INT(pid_t, kctx_tgid),
	     VTRACE_INT(u32, kctx_id), VTRACE_INT(u8, id))
VTRACE_EVENT(mali, mali_KCPU_FENCE_SIGNAL, VTRACE_INT(u64, info_val1),
	     VTRACE_INT(u64, info_val2), VTRACE_INT(pid_t, kctx_tgid),
	     VTRACE_INT(u32, kctx_id), VTRACE_INT(u8, id))
VTRACE_EVENT(mali, mali_KCPU_FENCE_WAIT_END, VTRACE_INT(u64, info_val1),
	     VTRACE_INT(u64, info_val2), VTRACE_INT(pid_t, kctx_tgid),
	     VTRACE_INT(u32, kctx_id), VTRACE_INT(u8, id))
VTRACE_EVENT(mali, mali_KCPU_FENCE_WAIT_START, VTRACE_INT(u64, info_val1),
	     VTRACE_INT(u64, info_val2), VTRACE_INT(pid_t, kctx_tgid),
	     VTRACE_INT(u32, kctx_id), VTRACE_INT(u8, id))
VTRACE_EVENT(mali, mali_mmu_page_fault_grow, VTRACE_INT(u64, start_addr),
	     VTRACE_INT(u64, fault_addr), VTRACE_INT(u64, fault_extra_addr),
	     VTRACE_INT(size_t, new_pages), VTRACE_INT(u32, status))
VTRACE_EVENT(mali, mali_page_fault_insert_pages, VTRACE_INT(u32, gpu_id),
	     VTRACE_INT(s32, event_id), VTRACE_INT(u64, value))
VTRACE_EVENT(mali, mali_PM_MCU_HCTL_CORE_INACTIVE_PEND,
	     VTRACE_INT(pid_t, kctx_tgid), VTRACE_INT(u32, kctx_id),
	     VTRACE_INT(u64, info_val))
VTRACE_EVENT(mali, mali_PM_MCU_HCTL_CORES_DOWN_SCALE_NOTIFY_PEND,
	     VTRACE_INT(pid_t, kctx_tgid), VTRACE_INT(u32, kctx_id),
	     VTRACE_INT(u64, info_val))
VTRACE_EVENT(mali, mali_PM_MCU_HCTL_CORES_NOTIFY_PEND,
	     VTRACE_INT(pid_t, kctx_tgid), VTRACE_INT(u32, kctx_id),
	     VTRACE_INT(u64, info_val))
VTRACE_EVENT(mali, mali_PM_MCU_HCTL_MCU_ON_RECHECK,
	     VTRACE_INT(pid_t, kctx_tgid), VTRACE_INT(u32, kctx_id),
	     VTRACE_INT(u64, info_val))
VTRACE_EVENT(mali, mali_PM_MCU_HCTL_SHADERS_CORE_OFF_PEND,
	     VTRACE_INT(pid_t, kctx_tgid), VTRACE_INT(u32, kctx_id),
	     VTRACE_INT(u64, info_val))
VTRACE_EVENT(mali, mali_PM_MCU_HCTL_SHADERS_PEND_OFF,
	     VTRACE_INT(pid_t, kctx_tgid), VTRACE_INT(u32, kctx_id),
	     VTRACE_INT(u64, info_val))
VTRACE_EVENT(mali, mali_PM_MCU_HCTL_SHADERS_PEND_ON,
	     VTRACE_INT(pid_t, kctx_tgid), VTRACE_INT(u32, kctx_id),
	     VTRACE_INT(u64, info_val))
VTRACE_EVENT(mali, mali_PM_MCU_HCTL_SHADERS_READY_OFF,
	     VTRACE_INT(pid_t, kctx_tgid), VTRACE_INT(u32, kctx_id),
	     VTRACE_INT(u64, info_val))
VTRACE_EVENT(mali, mali_PM_MCU_IN_SLEEP, VTRACE_INT(pid_t, kctx_tgid),
	     VTRACE_INT(u32, kctx_id), VTRACE_INT(u64, info_val))
VTRACE_EVENT(mali, mali_PM_MCU_OFF, VTRACE_INT(pid_t, kctx_tgid),
	     VTRACE_INT(u32, kctx_id), VTRACE_INT(u64, info_val))
VTRACE_EVENT(mali, mali_PM_MCU_ON, VTRACE_INT(pid_t, kctx_tgid),
	     VTRACE_INT(u32, kctx_id), VTRACE_INT(u64, info_val))
VTRACE_EVENT(mali, mali_PM_MCU_ON_CORE_ATTR_UPDATE_PEND,
	     VTRACE_INT(pid_t, kctx_tgid), VTRACE_INT(u32, kctx_id),
	     VTRACE_INT(u64, info_val))
VTRACE_EVENT(mali, mali_PM_MCU_ON_GLB_REINIT_PEND, VTRACE_INT(pid_t, kctx_tgid),
	     VTRACE_INT(u32, kctx_id), VTRACE_INT(u64, info_val))
VTRACE_EVENT(mali, mali_PM_MCU_ON_HALT, VTRACE_INT(pid_t, kctx_tgid),
	     VTRACE_INT(u32, kctx_id), VTRACE_INT(u64, info_val))
VTRACE_EVENT(mali, mali_PM_MCU_ON_HWCNT_DISABLE, VTRACE_INT(pid_t, kctx_tgid),
	     VTRACE_INT(u32, kctx_id), VTRACE_INT(u64, info_val))
VTRACE_EVENT(mali, mali_PM_MCU_ON_HWCNT_ENABLE, VTRACE_INT(pid_t, kctx_tgid),
	     VTRACE_INT(u32, kctx_id), VTRACE_INT(u64, info_val))
VTRACE_EVENT(mali, mali_PM_MCU_ON_PEND_HALT, VTRACE_INT(pid_t, kctx_tgid),
	     VTRACE_INT(u32, kctx_id), VTRACE_INT(u64, info_val))
VTRACE_EVENT(mali, mali_PM_MCU_ON_PEND_SLEEP, VTRACE_INT(pid_t, kctx_tgid),
	     VTRACE_INT(u32, kctx_id), VTRACE_INT(u64, info_val))
VTRACE_EVENT(mali, mali_PM_MCU_ON_SLEEP_INITIATE, VTRACE_INT(pid_t, kctx_tgid),
	     VTRACE_INT(u32, kctx_id), VTRACE_INT(u64, info_val))
VTRACE_EVENT(mali, mali_PM_MCU_PEND_OFF, VTRACE_INT(pid_t, kctx_tgid),
	     VTRACE_INT(u32, kctx_id), VTRACE_INT(u64, info_val))
VTRACE_EVENT(mali, mali_PM_MCU_PEND_ON_RELOAD, VTRACE_INT(pid_t, kctx_tgid),
	     VTRACE_INT(u32, kctx_id), VTRACE_INT(u64, info_val))
VTRACE_EVENT(mali, mali_PM_MCU_POWER_DOWN, VTRACE_INT(pid_t, kctx_tgid),
	     VTRACE_INT(u32, kctx_id), VTRACE_INT(u64, info_val))
VTRACE_EVENT(mali, mali_PM_MCU_RESET_WAIT, VTRACE_INT(pid_t, kctx_tgid),
	     VTRACE_INT(u32, kctx_id), VTRACE_INT(u64, info_val))
VTRACE_EVENT(mali, mali_pm_status, VTRACE_INT(u32, gpu_id),
	     VTRACE_INT(u32, event_id), VTRACE_INT(u64, value))
VTRACE_EVENT(mali, mali_total_alloc_pages_change, VTRACE_INT(u32, gpu_id),
	     VTRACE_INT(s64, event_id))
VTRACE_EVENT(mali, sysgraph, VTRACE_INT(unsigned int, proc_id),
	     VTRACE_INT(enum sysgraph_msg, message),
	     VTRACE_INT(unsigned int, atom_id))
VTRACE_EVENT(mali, sysgraph_gpu, VTRACE_INT(unsigned int, proc_id),
	     VTRACE_INT(enum sysgraph_msg, message),
	     VTRACE_INT(unsigned int, atom_id), VTRACE_INT(unsigned int, js))
VTRACE_EVENT(mali, tracing_mark_write, VTRACE_INT(u8, type),
	     VTRACE_INT(int, pid), VTRACE_STR(name), VTRACE_INT(int, value))

/* thermal_exynos */
VTRACE_EVENT(thermal_exynos, thermal_cpu_pressure,
	     VTRACE_INT(unsigned long, pressure), VTRACE_INT(int, cpu))
VTRACE_EVENT(thermal_exynos, thermal_exynos_acpm_bulk, VTRACE_INT(u8, tz_id),
	     VTRACE_INT(u8, current_temp), VTRACE_INT(u8, ctrl_temp),
	     VTRACE_INT(u8, cdev_state), VTRACE_INT(s32, pid_et_p),
	     VTRACE_INT(s16, pid_power_range), VTRACE_INT(s16, pid_p),
	     VTRACE_INT(s32, pid_i), VTRACE_INT(s32, k_p), VTRACE_INT(s32, k_i),
	     VTRACE_INT(u64, timestamp))
VTRACE_EVENT(thermal_exynos, thermal_exynos_acpm_high_overhead,
	     VTRACE_INT(int, tz_id), VTRACE_INT(u8, current_temp),
	     VTRACE_INT(u8, ctrl_temp), VTRACE_INT(u8, cdev_state),
	     VTRACE_INT(s32, pid_et_p), VTRACE_INT(s32, k_p),
	     VTRACE_INT(s32, k_i))
VTRACE_EVENT(thermal_exynos, thermal_exynos_allow_max_power,
	     VTRACE_STR(tmu_name), VTRACE_BOOL(is_hardlimited),
	     VTRACE_STR(cdev_type), VTRACE_INT(unsigned long, state))
VTRACE_EVENT(thermal_exynos, thermal_exynos_arm_update, VTRACE_STR(tmu_name),
	     VTRACE_BOOL(is_cpu_hw_throttled),
	     VTRACE_INT(int, ppm_throttle_level),
	     VTRACE_INT(int, ppm_clr_level),
	     VTRACE_INT(int, mpmm_throttle_level),
	     VTRACE_INT(int, mpmm_clr_level))
VTRACE_EVENT(thermal_exynos, thermal_exynos_cpu_pause, VTRACE_STR(tmu_name),
	     VTRACE_CPUS(cpumask), VTRACE_BOOL(is_cpu_paused))
VTRACE_EVENT(thermal_exynos, thermal_exynos_hard_limit_cdev_update,
	     VTRACE_STR(tmu_name), VTRACE_STR(cdev_type),
	     VTRACE_BOOL(is_hardlimited), VTRACE_BOOL(pid_switch_on),
	     VTRACE_INT(unsigned long, prev_max_state),
	     VTRACE_INT(unsigned long, state))
VTRACE_EVENT(thermal_exynos, thermal_exynos_power_allocator,
	     VTRACE_INT(int, tz_id), VTRACE_INT(u32, power_range),
	     VTRACE_INT(u32, max_allocatable_power),
	     VTRACE_INT(int, current_temp), VTRACE_INT(s32, delta_temp),
	     VTRACE_INT(unsigned long, cdev_state), VTRACE_BOOL(is_hardlimited))
VTRACE_EVENT(thermal_exynos, thermal_exynos_power_allocator_pid,
	     VTRACE_INT(int, tz_id), VTRACE_INT(s32, err),
	     VTRACE_INT(s32, err_integral), VTRACE_INT(s64, p),
	     VTRACE_INT(s64, i), VTRACE_INT(s32, output))
VTRACE_EVENT(thermal_exynos, thermal_exynos_power_cpu_get_power,
	     VTRACE_INT(int, tzid), VTRACE_INT(int, cpu),
	     VTRACE_INT(unsigned long, freq),
	     VTRACE_U32S(load, VTRACE_EMIT_MAX_ELEMS),
	     VTRACE_LEN(size_t, load_len, load), VTRACE_INT(u32, dynamic_power),
	     VTRACE_INT(u32, static_power))
VTRACE_EVENT(thermal_exynos, thermal_exynos_power_cpu_limit,
	     VTRACE_INT(int, tzid), VTRACE_INT(int, cpu),
	     VTRACE_INT(unsigned int, freq),
	     VTRACE_INT(unsigned long, cdev_state), VTRACE_INT(u32, power))
VTRACE_EVENT(thermal_exynos, thermal_exynos_power_gpu_get_power,
	     VTRACE_INT(unsigned long, freq), VTRACE_INT(u32, load),
	     VTRACE_INT(u32, dynamic_power), VTRACE_INT(u32, static_power))
VTRACE_EVENT(thermal_exynos, thermal_exynos_power_gpu_limit,
	     VTRACE_INT(unsigned int, freq),
	     VTRACE_INT(unsigned long, cdev_state), VTRACE_INT(u32, power))
VTRACE_EVENT(thermal_exynos, thermal_exynos_tpu_pause, VTRACE_STR(tmu_name),
	     VTRACE_BOOL(is_paused))
VTRACE_EVENT(thermal_exynos, vendor_cdev_update, VTRACE_STR(cdev_type),
	     VTRACE_INT(unsigned long, sysfs_req),
	     VTRACE_INT(unsigned long, state))

/* thermal_exynos_gpu */
VTRACE_EVENT_SHARED(thermal_exynos_gpu, thermal_exynos_power_gpu_get_power,
		    VTRACE_INT(unsigned long, freq), VTRACE_INT(u32, load),
		    VTRACE_INT(u32, dynamic_power), VTRACE_INT(u32, static_power))
VTRACE_EVENT_SHARED(thermal_exynos_gpu, thermal_exynos_power_gpu_limit,
		    VTRACE_INT(unsigned int, freq),
		    VTRACE_INT(unsigned long, cdev_state), VTRACE_INT(u32, power))
VTRACE_EVENT_SHARED(thermal_exynos_gpu, vendor_cdev_update,
		    VTRACE_STR(cdev_type),
		    VTRACE_INT(unsigned long, sysfs_req),
		    VTRACE_INT(unsigned long, state))
