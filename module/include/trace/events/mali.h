/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Mali GPU events: power management, JIT memory, page faults, job slots,
 * sysgraph, and the CSF generation's firmware, MCU and KCPU queue events.
 *
 * Names, fields (order, types, sizes, offsets) and print formats are those
 * of the vendor kbase driver as a Pixel 6 (gs101, kernel 5.10) shows them in
 * tracefs, and for the CSF events those Perfetto decodes, so that trace
 * text, raw records and Perfetto's importer read the same on a board as on
 * a phone.  Differences from the device: power levels are TRACE_DEFINE_ENUM
 * symbols, so the format shows their values; tracing_mark_write's name is
 * stored in the event.
 *
 * vtrace.ko defines and exports the tracepoints.  Another module emits them
 * by including this header and linking against vtrace.ko's Module.symvers.
 * Adding an event: see module/event-table.h.
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

#include <trace/vtrace_compat.h>

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

/* enum sysgraph_msg - what a sysgraph event says about an atom */
enum sysgraph_msg {
	SGR_ARRIVE,
	SGR_DEP_RES,
	SGR_SUBMIT,
	SGR_COMPLETE,
	SGR_POST,
	SGR_ACTIVE,
	SGR_INACTIVE,
};

#endif /* _TRACE_MALI_ENUMS_ONCE */

TRACE_DEFINE_ENUM(MALI_POWER_LEVEL_OFF);
TRACE_DEFINE_ENUM(MALI_POWER_LEVEL_GLOBAL);
TRACE_DEFINE_ENUM(MALI_POWER_LEVEL_COREGROUP);
TRACE_DEFINE_ENUM(MALI_POWER_LEVEL_STACKS);

/* The device's symbol order and spacing, which the print fmt shows. */
#define show_mali_power_level(level)				\
	__print_symbolic(level,					\
			 {MALI_POWER_LEVEL_STACKS, "STACKS"},	\
			 {MALI_POWER_LEVEL_COREGROUP, "COREGROUP"},	\
			 {MALI_POWER_LEVEL_GLOBAL, "GLOBAL"},	\
			 {MALI_POWER_LEVEL_OFF, "OFF"})

/*
 * Where the device's print fmt spells out kbase's macros, these expand to
 * the very same text, so the format reads as on the device.  They name
 * __entry: use them in TP_printk() only.
 */

/* mali_jit_report's flags: what the report's read value is. */
#define MALI_JIT_REPORT_READ_TYPE					\
	__print_symbolic(__entry->flags, { 0, "address"},		\
			 { (1ul << 23), "address with align" },		\
			 { (1ul << 27), "size" },			\
			 { (1ul << 27) | (1ul << 23),			\
			   "size with align (invalid)" }			\
			 )

/* The JIT pressure and memory reports' flags. */
#define MALI_JIT_REPORT_FLAGS						\
	__print_flags(__entry->flags, "|", { 1, "HAPPENED_ON_ALLOC_OR_FREE" })

/* ARRAY_SIZE() as 5.10 spells it, for mali_jit_report_gpu_mem. */
#define MALI_ARRAY_SIZE(a)						\
	(sizeof(a) / sizeof((a)[0]) +					\
	 ((int)(sizeof(struct { int:(-!!(__builtin_types_compatible_p(typeof((a)), \
	 typeof(&(a)[0])))); }))))

/*
 * mali_jit_report_gpu_mem's mem_values, declared as the device declares it:
 * "u64 mem_values[(4 * sizeof(u64)) / sizeof(u64)]".  __array() would do on
 * 5.10 and 6.1, but later kernels print the length evaluated ("[4]").  A
 * struct field of the array's type has the size and alignment, and its
 * filter type argument, the last of its field entry, names the text.
 */
#ifndef MALI_JIT_MEM_VALUES_T
#define MALI_JIT_MEM_VALUES_T
typedef u64 mali_jit_mem_values_t[(4 * sizeof(u64)) / sizeof(u64)];
#endif
#define MALI_JIT_MEM_VALUES_FIELD					\
	FILTER_OTHER, .type = "u64",					\
	.name = "mem_values[(4 * sizeof(u64)) / sizeof(u64)]"

/* mali_mmu_page_fault_grow's status, AS_FAULTSTATUS, decoded. */
#define MALI_FAULT_DECODED						\
	(((__entry->status) & (1u << 10)) ? "DECODER_FAULT" : "SLAVE_FAULT")
#define MALI_FAULT_EXC	((__entry->status) & 0xFFu)
#define MALI_FAULT_EXC_KNOWN						\
	((MALI_FAULT_EXC >= 0xC0 && MALI_FAULT_EXC <= 0xEF) &&		\
	 (!(MALI_FAULT_EXC >= 0xC5 && MALI_FAULT_EXC <= 0xC6)) &&	\
	 (!(MALI_FAULT_EXC >= 0xCC && MALI_FAULT_EXC <= 0xCF)) &&	\
	 (!(MALI_FAULT_EXC >= 0xD4 && MALI_FAULT_EXC <= 0xD7)) &&	\
	 (!(MALI_FAULT_EXC >= 0xDC && MALI_FAULT_EXC <= 0xDF)))
#define MALI_FAULT_EXC_NAME						\
	(!MALI_FAULT_EXC_KNOWN ? "UNKNOWN,level=" :			\
	 __print_symbolic(((MALI_FAULT_EXC) & ~3u),			\
			  {0xC0, "TRANSLATION_FAULT_" },		\
			  {0xC4, "TRANSLATION_FAULT(_7==_IDENTITY)_" },	\
			  {0xC8, "PERMISSION_FAULT_" },			\
			  {0xD0, "TRANSTAB_BUS_FAULT_" },		\
			  {0xD8, "ACCESS_FLAG_" },			\
			  {0xE0, "ADDRESS_SIZE_FAULT_IN" },		\
			  {0xE4, "ADDRESS_SIZE_FAULT_OUT" },		\
			  {0xE8, "MEMORY_ATTRIBUTES_FAULT_" },		\
			  {0xEC, "MEMORY_ATTRIBUTES_NONCACHEABLE_" }))
#define MALI_FAULT_LEVEL						\
	(((((MALI_FAULT_EXC) & ~0x3u) == 0xC4) ? 4 : 0) +		\
	 ((MALI_FAULT_EXC) & 0x3u))
#define MALI_FAULT_ACCESS_NAME						\
	__print_symbolic(((__entry->status) & (0x3 << 8)),		\
			 {(0x0), "ATOMIC" }, {(0x1), "EXECUTE"},	\
			 {(0x2), "READ" }, {(0x3), "WRITE" })

/*
 * CSF firmware interrupts and the MCU power state machine of kbase's CSF
 * backend: one event per interrupt edge or state entered, with the Mali
 * context (tgid_id) it concerns and a state-specific info value.
 */
DECLARE_EVENT_CLASS(mali_csf_info,
		    TP_PROTO(pid_t kctx_tgid, u32 kctx_id, u64 info_val),
		    TP_ARGS(kctx_tgid, kctx_id, info_val),
		    TP_STRUCT__entry(__field(pid_t, kctx_tgid)
				     __field(u32, kctx_id)
				     __field(u64, info_val)),
		    TP_fast_assign(__entry->kctx_tgid = kctx_tgid;
				   __entry->kctx_id = kctx_id;
				   __entry->info_val = info_val;),
		    TP_printk("kctx=%d_%u info=0x%llx", __entry->kctx_tgid,
			      __entry->kctx_id, __entry->info_val)
);

/* CSF interrupt handling ends */
DEFINE_EVENT(mali_csf_info, mali_CSF_INTERRUPT_END,
	     TP_PROTO(pid_t kctx_tgid, u32 kctx_id, u64 info_val),
	     TP_ARGS(kctx_tgid, kctx_id, info_val));

/* CSF interrupt handling starts */
DEFINE_EVENT(mali_csf_info, mali_CSF_INTERRUPT_START,
	     TP_PROTO(pid_t kctx_tgid, u32 kctx_id, u64 info_val),
	     TP_ARGS(kctx_tgid, kctx_id, info_val));

/* the MCU entered state HCTL_CORE_INACTIVE_PEND */
DEFINE_EVENT(mali_csf_info, mali_PM_MCU_HCTL_CORE_INACTIVE_PEND,
	     TP_PROTO(pid_t kctx_tgid, u32 kctx_id, u64 info_val),
	     TP_ARGS(kctx_tgid, kctx_id, info_val));

/* the MCU entered state HCTL_CORES_DOWN_SCALE_NOTIFY_PEND */
DEFINE_EVENT(mali_csf_info, mali_PM_MCU_HCTL_CORES_DOWN_SCALE_NOTIFY_PEND,
	     TP_PROTO(pid_t kctx_tgid, u32 kctx_id, u64 info_val),
	     TP_ARGS(kctx_tgid, kctx_id, info_val));

/* the MCU entered state HCTL_CORES_NOTIFY_PEND */
DEFINE_EVENT(mali_csf_info, mali_PM_MCU_HCTL_CORES_NOTIFY_PEND,
	     TP_PROTO(pid_t kctx_tgid, u32 kctx_id, u64 info_val),
	     TP_ARGS(kctx_tgid, kctx_id, info_val));

/* the MCU entered state HCTL_MCU_ON_RECHECK */
DEFINE_EVENT(mali_csf_info, mali_PM_MCU_HCTL_MCU_ON_RECHECK,
	     TP_PROTO(pid_t kctx_tgid, u32 kctx_id, u64 info_val),
	     TP_ARGS(kctx_tgid, kctx_id, info_val));

/* the MCU entered state HCTL_SHADERS_CORE_OFF_PEND */
DEFINE_EVENT(mali_csf_info, mali_PM_MCU_HCTL_SHADERS_CORE_OFF_PEND,
	     TP_PROTO(pid_t kctx_tgid, u32 kctx_id, u64 info_val),
	     TP_ARGS(kctx_tgid, kctx_id, info_val));

/* the MCU entered state HCTL_SHADERS_PEND_OFF */
DEFINE_EVENT(mali_csf_info, mali_PM_MCU_HCTL_SHADERS_PEND_OFF,
	     TP_PROTO(pid_t kctx_tgid, u32 kctx_id, u64 info_val),
	     TP_ARGS(kctx_tgid, kctx_id, info_val));

/* the MCU entered state HCTL_SHADERS_PEND_ON */
DEFINE_EVENT(mali_csf_info, mali_PM_MCU_HCTL_SHADERS_PEND_ON,
	     TP_PROTO(pid_t kctx_tgid, u32 kctx_id, u64 info_val),
	     TP_ARGS(kctx_tgid, kctx_id, info_val));

/* the MCU entered state HCTL_SHADERS_READY_OFF */
DEFINE_EVENT(mali_csf_info, mali_PM_MCU_HCTL_SHADERS_READY_OFF,
	     TP_PROTO(pid_t kctx_tgid, u32 kctx_id, u64 info_val),
	     TP_ARGS(kctx_tgid, kctx_id, info_val));

/* the MCU entered state IN_SLEEP */
DEFINE_EVENT(mali_csf_info, mali_PM_MCU_IN_SLEEP,
	     TP_PROTO(pid_t kctx_tgid, u32 kctx_id, u64 info_val),
	     TP_ARGS(kctx_tgid, kctx_id, info_val));

/* the MCU entered state OFF */
DEFINE_EVENT(mali_csf_info, mali_PM_MCU_OFF,
	     TP_PROTO(pid_t kctx_tgid, u32 kctx_id, u64 info_val),
	     TP_ARGS(kctx_tgid, kctx_id, info_val));

/* the MCU entered state ON */
DEFINE_EVENT(mali_csf_info, mali_PM_MCU_ON,
	     TP_PROTO(pid_t kctx_tgid, u32 kctx_id, u64 info_val),
	     TP_ARGS(kctx_tgid, kctx_id, info_val));

/* the MCU entered state ON_CORE_ATTR_UPDATE_PEND */
DEFINE_EVENT(mali_csf_info, mali_PM_MCU_ON_CORE_ATTR_UPDATE_PEND,
	     TP_PROTO(pid_t kctx_tgid, u32 kctx_id, u64 info_val),
	     TP_ARGS(kctx_tgid, kctx_id, info_val));

/* the MCU entered state ON_GLB_REINIT_PEND */
DEFINE_EVENT(mali_csf_info, mali_PM_MCU_ON_GLB_REINIT_PEND,
	     TP_PROTO(pid_t kctx_tgid, u32 kctx_id, u64 info_val),
	     TP_ARGS(kctx_tgid, kctx_id, info_val));

/* the MCU entered state ON_HALT */
DEFINE_EVENT(mali_csf_info, mali_PM_MCU_ON_HALT,
	     TP_PROTO(pid_t kctx_tgid, u32 kctx_id, u64 info_val),
	     TP_ARGS(kctx_tgid, kctx_id, info_val));

/* the MCU entered state ON_HWCNT_DISABLE */
DEFINE_EVENT(mali_csf_info, mali_PM_MCU_ON_HWCNT_DISABLE,
	     TP_PROTO(pid_t kctx_tgid, u32 kctx_id, u64 info_val),
	     TP_ARGS(kctx_tgid, kctx_id, info_val));

/* the MCU entered state ON_HWCNT_ENABLE */
DEFINE_EVENT(mali_csf_info, mali_PM_MCU_ON_HWCNT_ENABLE,
	     TP_PROTO(pid_t kctx_tgid, u32 kctx_id, u64 info_val),
	     TP_ARGS(kctx_tgid, kctx_id, info_val));

/* the MCU entered state ON_PEND_HALT */
DEFINE_EVENT(mali_csf_info, mali_PM_MCU_ON_PEND_HALT,
	     TP_PROTO(pid_t kctx_tgid, u32 kctx_id, u64 info_val),
	     TP_ARGS(kctx_tgid, kctx_id, info_val));

/* the MCU entered state ON_PEND_SLEEP */
DEFINE_EVENT(mali_csf_info, mali_PM_MCU_ON_PEND_SLEEP,
	     TP_PROTO(pid_t kctx_tgid, u32 kctx_id, u64 info_val),
	     TP_ARGS(kctx_tgid, kctx_id, info_val));

/* the MCU entered state ON_SLEEP_INITIATE */
DEFINE_EVENT(mali_csf_info, mali_PM_MCU_ON_SLEEP_INITIATE,
	     TP_PROTO(pid_t kctx_tgid, u32 kctx_id, u64 info_val),
	     TP_ARGS(kctx_tgid, kctx_id, info_val));

/* the MCU entered state PEND_OFF */
DEFINE_EVENT(mali_csf_info, mali_PM_MCU_PEND_OFF,
	     TP_PROTO(pid_t kctx_tgid, u32 kctx_id, u64 info_val),
	     TP_ARGS(kctx_tgid, kctx_id, info_val));

/* the MCU entered state PEND_ON_RELOAD */
DEFINE_EVENT(mali_csf_info, mali_PM_MCU_PEND_ON_RELOAD,
	     TP_PROTO(pid_t kctx_tgid, u32 kctx_id, u64 info_val),
	     TP_ARGS(kctx_tgid, kctx_id, info_val));

/* the MCU entered state POWER_DOWN */
DEFINE_EVENT(mali_csf_info, mali_PM_MCU_POWER_DOWN,
	     TP_PROTO(pid_t kctx_tgid, u32 kctx_id, u64 info_val),
	     TP_ARGS(kctx_tgid, kctx_id, info_val));

/* the MCU entered state RESET_WAIT */
DEFINE_EVENT(mali_csf_info, mali_PM_MCU_RESET_WAIT,
	     TP_PROTO(pid_t kctx_tgid, u32 kctx_id, u64 info_val),
	     TP_ARGS(kctx_tgid, kctx_id, info_val));

/*
 * KCPU command queue operations: the queue's context, the command's id and
 * two command-specific values (object address and value, fence context and
 * seqno).
 */
DECLARE_EVENT_CLASS(mali_kcpu_info,
		    TP_PROTO(u64 info_val1, u64 info_val2, pid_t kctx_tgid,
			     u32 kctx_id, u8 id),
		    TP_ARGS(info_val1, info_val2, kctx_tgid, kctx_id, id),
		    TP_STRUCT__entry(__field(u64, info_val1)
				     __field(u64, info_val2)
				     __field(pid_t, kctx_tgid)
				     __field(u32, kctx_id)
				     __field(u8, id)),
		    TP_fast_assign(__entry->info_val1 = info_val1;
				   __entry->info_val2 = info_val2;
				   __entry->kctx_tgid = kctx_tgid;
				   __entry->kctx_id = kctx_id;
				   __entry->id = id;),
		    TP_printk("kctx=%d_%u id=%u info_val1=0x%llx info_val2=0x%llx",
			      __entry->kctx_tgid, __entry->kctx_id, __entry->id,
			      __entry->info_val1, __entry->info_val2)
);

/* KCPU queue command CQS_SET */
DEFINE_EVENT(mali_kcpu_info, mali_KCPU_CQS_SET,
	     TP_PROTO(u64 info_val1, u64 info_val2, pid_t kctx_tgid,
		      u32 kctx_id, u8 id),
	     TP_ARGS(info_val1, info_val2, kctx_tgid, kctx_id, id));

/* KCPU queue command CQS_WAIT_END */
DEFINE_EVENT(mali_kcpu_info, mali_KCPU_CQS_WAIT_END,
	     TP_PROTO(u64 info_val1, u64 info_val2, pid_t kctx_tgid,
		      u32 kctx_id, u8 id),
	     TP_ARGS(info_val1, info_val2, kctx_tgid, kctx_id, id));

/* KCPU queue command CQS_WAIT_START */
DEFINE_EVENT(mali_kcpu_info, mali_KCPU_CQS_WAIT_START,
	     TP_PROTO(u64 info_val1, u64 info_val2, pid_t kctx_tgid,
		      u32 kctx_id, u8 id),
	     TP_ARGS(info_val1, info_val2, kctx_tgid, kctx_id, id));

/* KCPU queue command FENCE_SIGNAL */
DEFINE_EVENT(mali_kcpu_info, mali_KCPU_FENCE_SIGNAL,
	     TP_PROTO(u64 info_val1, u64 info_val2, pid_t kctx_tgid,
		      u32 kctx_id, u8 id),
	     TP_ARGS(info_val1, info_val2, kctx_tgid, kctx_id, id));

/* KCPU queue command FENCE_WAIT_END */
DEFINE_EVENT(mali_kcpu_info, mali_KCPU_FENCE_WAIT_END,
	     TP_PROTO(u64 info_val1, u64 info_val2, pid_t kctx_tgid,
		      u32 kctx_id, u8 id),
	     TP_ARGS(info_val1, info_val2, kctx_tgid, kctx_id, id));

/* KCPU queue command FENCE_WAIT_START */
DEFINE_EVENT(mali_kcpu_info, mali_KCPU_FENCE_WAIT_START,
	     TP_PROTO(u64 info_val1, u64 info_val2, pid_t kctx_tgid,
		      u32 kctx_id, u8 id),
	     TP_ARGS(info_val1, info_val2, kctx_tgid, kctx_id, id));

/* the highest powered GPU domain changed, at change_ns */
TRACE_EVENT(gpu_power_state,
	    TP_PROTO(u64 change_ns, int from_state, int to_state),
	    TP_ARGS(change_ns, from_state, to_state),
	    TP_STRUCT__entry(__field(u64, change_ns)
			     __field(int, from_state)
			     __field(int, to_state)),
	    TP_fast_assign(__entry->change_ns = change_ns;
			   __entry->from_state = from_state;
			   __entry->to_state = to_state;),
	    TP_printk("from=%s to=%s ns=%llu",
		      show_mali_power_level(__entry->from_state),
		      show_mali_power_level(__entry->to_state),
		      __entry->change_ns)
);

/* a just-in-time allocation was handed to a job */
TRACE_EVENT(mali_jit_alloc,
	    TP_PROTO(u64 start_addr, size_t nr_pages, size_t backed_pages,
		     u8 jit_id),
	    TP_ARGS(start_addr, nr_pages, backed_pages, jit_id),
	    TP_STRUCT__entry(__field(u64, start_addr)
			     __field(size_t, nr_pages)
			     __field(size_t, backed_pages)
			     __field(u8, jit_id)),
	    TP_fast_assign(__entry->start_addr = start_addr;
			   __entry->nr_pages = nr_pages;
			   __entry->backed_pages = backed_pages;
			   __entry->jit_id = jit_id;),
	    TP_printk("jit_id=%u start=0x%llx va_pages=0x%zx backed_size=0x%zx",
		      __entry->jit_id, __entry->start_addr, __entry->nr_pages,
		      __entry->backed_pages)
);

/* a just-in-time allocation was returned to the JIT pool */
TRACE_EVENT(mali_jit_free,
	    TP_PROTO(u64 start_addr, size_t nr_pages, size_t backed_pages,
		     u8 jit_id),
	    TP_ARGS(start_addr, nr_pages, backed_pages, jit_id),
	    TP_STRUCT__entry(__field(u64, start_addr)
			     __field(size_t, nr_pages)
			     __field(size_t, backed_pages)
			     __field(u8, jit_id)),
	    TP_fast_assign(__entry->start_addr = start_addr;
			   __entry->nr_pages = nr_pages;
			   __entry->backed_pages = backed_pages;
			   __entry->jit_id = jit_id;),
	    TP_printk("start=0x%llx va_pages=0x%zx backed_size=0x%zx",
		      __entry->start_addr, __entry->nr_pages,
		      __entry->backed_pages)
);

/* the GPU reported how much of a JIT region it used */
TRACE_EVENT(mali_jit_report,
	    TP_PROTO(u64 start_addr, u64 read_val, u64 used_pages,
		     unsigned long flags, u8 id_idx, u8 jit_id),
	    TP_ARGS(start_addr, read_val, used_pages, flags, id_idx, jit_id),
	    TP_STRUCT__entry(__field(u64, start_addr)
			     __field(u64, read_val)
			     __field(u64, used_pages)
			     __field(unsigned long, flags)
			     __field(u8, id_idx)
			     __field(u8, jit_id)),
	    TP_fast_assign(__entry->start_addr = start_addr;
			   __entry->read_val = read_val;
			   __entry->used_pages = used_pages;
			   __entry->flags = flags;
			   __entry->id_idx = id_idx;
			   __entry->jit_id = jit_id;),
	    TP_printk("start=0x%llx jit_ids[%u]=%u read_type='%s' read_val=0x%llx used_pages=%llu",
		      __entry->start_addr, __entry->id_idx, __entry->jit_id,
		      MALI_JIT_REPORT_READ_TYPE, __entry->read_val,
		      __entry->used_pages)
);

/* the report values kbase read from GPU memory */
TRACE_EVENT(mali_jit_report_gpu_mem,
	    TP_PROTO(u64 base_addr, u64 reg_addr, const u64 *mem_values,
		     unsigned int flags),
	    TP_ARGS(base_addr, reg_addr, mem_values, flags),
	    TP_STRUCT__entry(__field(u64, base_addr)
			     __field(u64, reg_addr)
			     __field_struct_ext(mali_jit_mem_values_t, mem_values,
						MALI_JIT_MEM_VALUES_FIELD)
			     __field(unsigned int, flags)),
	    TP_fast_assign(__entry->base_addr = base_addr;
			   __entry->reg_addr = reg_addr;
			   memcpy(__entry->mem_values, mem_values, sizeof(__entry->mem_values));
			   __entry->flags = flags;),
	    TP_printk("start=0x%llx read GPU memory base=0x%llx values=%s report_flags=%s",
		      __entry->reg_addr, __entry->base_addr,
		      __print_array(__entry->mem_values,
				    MALI_ARRAY_SIZE(__entry->mem_values),
				    sizeof(u64)), MALI_JIT_REPORT_FLAGS)
);

/* a JIT report changed the region's used pages and pressure */
TRACE_EVENT(mali_jit_report_pressure,
	    TP_PROTO(u64 start_addr, u64 used_pages, u64 new_used_pages,
		     u64 new_pressure, unsigned int flags),
	    TP_ARGS(start_addr, used_pages, new_used_pages, new_pressure,
		    flags),
	    TP_STRUCT__entry(__field(u64, start_addr)
			     __field(u64, used_pages)
			     __field(u64, new_used_pages)
			     __field(u64, new_pressure)
			     __field(unsigned int, flags)),
	    TP_fast_assign(__entry->start_addr = start_addr;
			   __entry->used_pages = used_pages;
			   __entry->new_used_pages = new_used_pages;
			   __entry->new_pressure = new_pressure;
			   __entry->flags = flags;),
	    TP_printk("start=0x%llx old_used_pages=%llu new_used_pages=%llu new_pressure=%llu report_flags=%s",
		      __entry->start_addr, __entry->used_pages,
		      __entry->new_used_pages, __entry->new_pressure,
		      MALI_JIT_REPORT_FLAGS)
);

/* JIT regions were trimmed under memory pressure */
TRACE_EVENT(mali_jit_trim,
	    TP_PROTO(size_t freed_pages),
	    TP_ARGS(freed_pages),
	    TP_STRUCT__entry(__field(size_t, freed_pages)),
	    TP_fast_assign(__entry->freed_pages = freed_pages;),
	    TP_printk("freed_pages=%zu", __entry->freed_pages)
);

/* one JIT region was trimmed */
TRACE_EVENT(mali_jit_trim_from_region,
	    TP_PROTO(u64 start_addr, size_t freed_pages, size_t old_pages,
		     size_t available_pages, size_t new_pages),
	    TP_ARGS(start_addr, freed_pages, old_pages, available_pages,
		    new_pages),
	    TP_STRUCT__entry(__field(u64, start_addr)
			     __field(size_t, freed_pages)
			     __field(size_t, old_pages)
			     __field(size_t, available_pages)
			     __field(size_t, new_pages)),
	    TP_fast_assign(__entry->start_addr = start_addr;
			   __entry->freed_pages = freed_pages;
			   __entry->old_pages = old_pages;
			   __entry->available_pages = available_pages;
			   __entry->new_pages = new_pages;),
	    TP_printk("start=0x%llx freed_pages=%zu old_pages=%zu available_pages=%zu new_pages=%zu",
		      __entry->start_addr, __entry->freed_pages,
		      __entry->old_pages, __entry->available_pages,
		      __entry->new_pages)
);

/* a job slot event of an atom of process tgid/pid */
TRACE_EVENT(mali_job_slots_event,
	    TP_PROTO(u32 gpu_id, u32 event_id, u32 tgid, u32 pid, u8 job_id),
	    TP_ARGS(gpu_id, event_id, tgid, pid, job_id),
	    TP_STRUCT__entry(__field(u32, gpu_id)
			     __field(u32, event_id)
			     __field(u32, tgid)
			     __field(u32, pid)
			     __field(u8, job_id)),
	    TP_fast_assign(__entry->gpu_id = gpu_id;
			   __entry->event_id = event_id;
			   __entry->tgid = tgid;
			   __entry->pid = pid;
			   __entry->job_id = job_id;),
	    TP_printk("gpu=%u event=%u tgid=%u pid=%u job_id=%u",
		      __entry->gpu_id, __entry->event_id, __entry->tgid,
		      __entry->pid, __entry->job_id)
);

/* a GPU page fault grew a growable region (status: AS_FAULTSTATUS) */
TRACE_EVENT(mali_mmu_page_fault_grow,
	    TP_PROTO(u64 start_addr, u64 fault_addr, u64 fault_extra_addr,
		     size_t new_pages, u32 status),
	    TP_ARGS(start_addr, fault_addr, fault_extra_addr, new_pages,
		    status),
	    TP_STRUCT__entry(__field(u64, start_addr)
			     __field(u64, fault_addr)
			     __field(u64, fault_extra_addr)
			     __field(size_t, new_pages)
			     __field(u32, status)),
	    TP_fast_assign(__entry->start_addr = start_addr;
			   __entry->fault_addr = fault_addr;
			   __entry->fault_extra_addr = fault_extra_addr;
			   __entry->new_pages = new_pages;
			   __entry->status = status;),
	    TP_printk("start=0x%llx fault_addr=0x%llx fault_extra_addr=0x%llx new_pages=%zu raw_fault_status=0x%x decoded_faultstatus=%s exception_type=0x%x,%s%u access_type=0x%x,%s source_id=0x%x",
		      __entry->start_addr, __entry->fault_addr,
		      __entry->fault_extra_addr, __entry->new_pages,
		      __entry->status, MALI_FAULT_DECODED, MALI_FAULT_EXC,
		      MALI_FAULT_EXC_NAME, MALI_FAULT_LEVEL, ((__entry->status)
							      & (0x3 << 8)) >>
		      8, MALI_FAULT_ACCESS_NAME, __entry->status >> 16)
);

/* pages were inserted to resolve a page fault */
TRACE_EVENT(mali_page_fault_insert_pages,
	    TP_PROTO(u32 gpu_id, s32 event_id, u64 value),
	    TP_ARGS(gpu_id, event_id, value),
	    TP_STRUCT__entry(__field(u32, gpu_id)
			     __field(s32, event_id)
			     __field(u64, value)),
	    TP_fast_assign(__entry->gpu_id = gpu_id;
			   __entry->event_id = event_id;
			   __entry->value = value;),
	    TP_printk("gpu=%u event %d = %llu", __entry->gpu_id,
		      __entry->event_id, __entry->value)
);

/* the powered cores of one core type (event_id) changed to value */
TRACE_EVENT(mali_pm_status,
	    TP_PROTO(u32 gpu_id, u32 event_id, u64 value),
	    TP_ARGS(gpu_id, event_id, value),
	    TP_STRUCT__entry(__field(u32, gpu_id)
			     __field(u32, event_id)
			     __field(u64, value)),
	    TP_fast_assign(__entry->gpu_id = gpu_id;
			   __entry->event_id = event_id;
			   __entry->value = value;),
	    TP_printk("gpu=%u event %u = %llu", __entry->gpu_id,
		      __entry->event_id, __entry->value)
);

/* the device's total allocated pages changed to event_id */
TRACE_EVENT(mali_total_alloc_pages_change,
	    TP_PROTO(u32 gpu_id, s64 event_id),
	    TP_ARGS(gpu_id, event_id),
	    TP_STRUCT__entry(__field(u32, gpu_id)
			     __field(s64, event_id)),
	    TP_fast_assign(__entry->gpu_id = gpu_id;
			   __entry->event_id = event_id;),
	    TP_printk("gpu=%u event=%lld", __entry->gpu_id, __entry->event_id)
);

/* a sysgraph message about an atom of process proc_id */
TRACE_EVENT(sysgraph,
	    TP_PROTO(unsigned int proc_id, enum sysgraph_msg message,
		     unsigned int atom_id),
	    TP_ARGS(proc_id, message, atom_id),
	    TP_STRUCT__entry(__field(unsigned int, proc_id)
			     __field(enum sysgraph_msg, message)
			     __field(unsigned int, atom_id)),
	    TP_fast_assign(__entry->proc_id = proc_id;
			   __entry->message = message;
			   __entry->atom_id = atom_id;),
	    TP_printk("msg=%u proc_id=%u, param1=%d", __entry->message,
		      __entry->proc_id, __entry->atom_id)
);

/* a sysgraph message about an atom on job slot js */
TRACE_EVENT(sysgraph_gpu,
	    TP_PROTO(unsigned int proc_id, enum sysgraph_msg message,
		     unsigned int atom_id, unsigned int js),
	    TP_ARGS(proc_id, message, atom_id, js),
	    TP_STRUCT__entry(__field(unsigned int, proc_id)
			     __field(enum sysgraph_msg, message)
			     __field(unsigned int, atom_id)
			     __field(unsigned int, js)),
	    TP_fast_assign(__entry->proc_id = proc_id;
			   __entry->message = message;
			   __entry->atom_id = atom_id;
			   __entry->js = js;),
	    TP_printk("msg=%u proc_id=%u, param1=%d, param2=%d",
		      __entry->message, __entry->proc_id, __entry->atom_id,
		      __entry->js)
);

/* a systrace counter or slice (B/E/C) written by the GPU driver */
TRACE_EVENT(tracing_mark_write,
	    TP_PROTO(char type, int pid, const char *name, int value),
	    TP_ARGS(type, pid, name, value),
	    TP_STRUCT__entry(__field_struct(char, type)
			     __field(int, pid)
			     __string(name, name)
			     __field(int, value)),
	    TP_fast_assign(__entry->type = type;
			   __entry->pid = pid;
			   vtrace_assign_str(name);
			   __entry->value = value;),
	    TP_printk("%c|%d|%s|%d", __entry->type, __entry->pid,
		      __get_str(name), __entry->value)
);

#endif /* _TRACE_MALI_H */

#include <trace/define_trace.h>
