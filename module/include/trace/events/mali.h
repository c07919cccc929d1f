/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Mali GPU power management events.
 *
 * Names, field names, types and sizes follow the vendor kbase driver of
 * Pixel's gs101/gs201 kernels, so tools written for those devices decode
 * these events unchanged.
 *
 * vtrace.ko defines and exports the tracepoints.  Another module emits them
 * by including this header and linking against vtrace.ko's Module.symvers.
 *
 * No TRACE_INCLUDE_PATH: define_trace.h then re-reads this file as
 * <trace/events/mali.h>, found through the same -I path (module/include)
 * that every user of this header already needs.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM mali

#if !defined(_TRACE_MALI_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_MALI_H

#include <linux/tracepoint.h>
#include <linux/types.h>

#ifndef _TRACE_MALI_ENUMS_ONCE
#define _TRACE_MALI_ENUMS_ONCE

/*
 * enum mali_power_level - highest powered Mali power domain
 *
 * The domains are nested: each one can only be powered while the one below
 * it is, so the GPU powers up OFF -> GLOBAL -> COREGROUP -> STACKS one
 * level at a time and powers down in reverse.
 *
 * @MALI_POWER_LEVEL_OFF:	everything off
 * @MALI_POWER_LEVEL_GLOBAL:	job manager / command stream frontend
 * @MALI_POWER_LEVEL_COREGROUP:	L2 cache, tiler and MMU
 * @MALI_POWER_LEVEL_STACKS:	shader cores
 */
enum mali_power_level {
	MALI_POWER_LEVEL_OFF		= 0,
	MALI_POWER_LEVEL_GLOBAL		= 1,
	MALI_POWER_LEVEL_COREGROUP	= 2,
	MALI_POWER_LEVEL_STACKS		= 3,
};

/*
 * enum mali_core_type - core types reported by mali_pm_status
 *
 * kbase identifies a core type by the offset of its *_PRESENT_LO GPU
 * register, and passes that offset as mali_pm_status's event_id.
 */
enum mali_core_type {
	MALI_CORE_TYPE_SHADER	= 0x100,
	MALI_CORE_TYPE_TILER	= 0x110,
	MALI_CORE_TYPE_L2	= 0x120,
	MALI_CORE_TYPE_STACK	= 0xe00,
};

#endif /* _TRACE_MALI_ENUMS_ONCE */

TRACE_DEFINE_ENUM(MALI_POWER_LEVEL_OFF);
TRACE_DEFINE_ENUM(MALI_POWER_LEVEL_GLOBAL);
TRACE_DEFINE_ENUM(MALI_POWER_LEVEL_COREGROUP);
TRACE_DEFINE_ENUM(MALI_POWER_LEVEL_STACKS);

TRACE_DEFINE_ENUM(MALI_CORE_TYPE_L2);
TRACE_DEFINE_ENUM(MALI_CORE_TYPE_SHADER);
TRACE_DEFINE_ENUM(MALI_CORE_TYPE_TILER);
TRACE_DEFINE_ENUM(MALI_CORE_TYPE_STACK);

#define show_mali_power_level(level)					\
	__print_symbolic(level,						\
			 { MALI_POWER_LEVEL_OFF,	"OFF" },	\
			 { MALI_POWER_LEVEL_GLOBAL,	"GLOBAL" },	\
			 { MALI_POWER_LEVEL_COREGROUP,	"COREGROUP" },	\
			 { MALI_POWER_LEVEL_STACKS,	"STACKS" })

#define show_mali_core_type(type)					\
	__print_symbolic(type,						\
			 { MALI_CORE_TYPE_L2,		"L2" },		\
			 { MALI_CORE_TYPE_SHADER,	"SHADER" },	\
			 { MALI_CORE_TYPE_TILER,	"TILER" },	\
			 { MALI_CORE_TYPE_STACK,	"STACK" })

/**
 * gpu_power_state - the highest powered GPU domain changed
 * @change_ns:	time of the change, in nanoseconds
 * @from_state:	previous &enum mali_power_level
 * @to_state:	new &enum mali_power_level
 */
TRACE_EVENT(gpu_power_state,
	    TP_PROTO(u64 change_ns, int from_state, int to_state),
	    TP_ARGS(change_ns, from_state, to_state),
	    TP_STRUCT__entry(__field(u64, change_ns)
			     __field(int, from_state)
			     __field(int, to_state)),
	    TP_fast_assign(__entry->change_ns = change_ns;
			   __entry->from_state = from_state;
			   __entry->to_state = to_state;),
	    TP_printk("change_ns=%llu from=%s to=%s", __entry->change_ns,
		      show_mali_power_level(__entry->from_state),
		      show_mali_power_level(__entry->to_state))
);

/**
 * mali_pm_status - the set of powered cores of one core type changed
 * @gpu_id:	kbase device number
 * @event_id:	&enum mali_core_type
 * @value:	bitmask of the powered cores of that type (1 = on)
 */
TRACE_EVENT(mali_pm_status,
	    TP_PROTO(u32 gpu_id, u32 event_id, u64 value),
	    TP_ARGS(gpu_id, event_id, value),
	    TP_STRUCT__entry(__field(u32, gpu_id)
			     __field(u32, event_id)
			     __field(u64, value)),
	    TP_fast_assign(__entry->gpu_id = gpu_id;
			   __entry->event_id = event_id;
			   __entry->value = value;),
	    TP_printk("gpu=%u cores=%s mask=0x%llx", __entry->gpu_id,
		      show_mali_core_type(__entry->event_id), __entry->value)
);

#endif /* _TRACE_MALI_H */

#include <trace/define_trace.h>
