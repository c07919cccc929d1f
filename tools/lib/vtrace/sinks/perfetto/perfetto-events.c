// SPDX-License-Identifier: LGPL-2.1
/*
 * The ftrace events Perfetto has a typed message for, with their field
 * numbers (perfetto-format.h; from Perfetto's ftrace_event.proto and the
 * per-system messages it includes).
 */
#include <stddef.h>
#include <stdint.h>

#include "sinks/perfetto/perfetto-format.h"

/*
 * The typed messages vtrace writes: the scheduler, IRQ, power and
 * syscall events of a typical capture, ftrace/print, the kernel's thermal
 * zone and cooling device events, and every Mali and thermal_exynos
 * message the schema has (Pixel's and the CSF Mali's).
 */
const struct pf_typed_event vt_pf_typed_events[] = {
	/* PrintFtraceEvent */
	{
		.system = "ftrace",
		.name = "print",
		.number = 3,
		.fields = {
			{ "ip", 1, PF_UINT64 },
			{ "buf", 2, PF_STRING },
		},
	},
	/* SchedSwitchFtraceEvent */
	{
		.system = "sched",
		.name = "sched_switch",
		.number = 4,
		.fields = {
			{ "prev_comm", 1, PF_STRING },
			{ "prev_pid", 2, PF_INT32 },
			{ "prev_prio", 3, PF_INT32 },
			{ "prev_state", 4, PF_INT64 },
			{ "next_comm", 5, PF_STRING },
			{ "next_pid", 6, PF_INT32 },
			{ "next_prio", 7, PF_INT32 },
		},
	},
	/* SchedWakeupFtraceEvent */
	{
		.system = "sched",
		.name = "sched_wakeup",
		.number = 17,
		.fields = {
			{ "comm", 1, PF_STRING },
			{ "pid", 2, PF_INT32 },
			{ "prio", 3, PF_INT32 },
			{ "success", 4, PF_INT32 },
			{ "target_cpu", 5, PF_INT32 },
		},
	},
	/* SchedWakingFtraceEvent */
	{
		.system = "sched",
		.name = "sched_waking",
		.number = 20,
		.fields = {
			{ "comm", 1, PF_STRING },
			{ "pid", 2, PF_INT32 },
			{ "prio", 3, PF_INT32 },
			{ "success", 4, PF_INT32 },
			{ "target_cpu", 5, PF_INT32 },
		},
	},
	/* SchedWakeupNewFtraceEvent */
	{
		.system = "sched",
		.name = "sched_wakeup_new",
		.number = 114,
		.fields = {
			{ "comm", 1, PF_STRING },
			{ "pid", 2, PF_INT32 },
			{ "prio", 3, PF_INT32 },
			{ "success", 4, PF_INT32 },
			{ "target_cpu", 5, PF_INT32 },
		},
	},
	/* SchedProcessExitFtraceEvent */
	{
		.system = "sched",
		.name = "sched_process_exit",
		.number = 238,
		.fields = {
			{ "comm", 1, PF_STRING },
			{ "pid", 2, PF_INT32 },
			{ "tgid", 3, PF_INT32 },
			{ "prio", 4, PF_INT32 },
		},
	},
	/* SchedProcessForkFtraceEvent */
	{
		.system = "sched",
		.name = "sched_process_fork",
		.number = 239,
		.fields = {
			{ "parent_comm", 1, PF_STRING },
			{ "parent_pid", 2, PF_INT32 },
			{ "child_comm", 3, PF_STRING },
			{ "child_pid", 4, PF_INT32 },
		},
	},
	/* SchedProcessFreeFtraceEvent */
	{
		.system = "sched",
		.name = "sched_process_free",
		.number = 240,
		.fields = {
			{ "comm", 1, PF_STRING },
			{ "pid", 2, PF_INT32 },
			{ "prio", 3, PF_INT32 },
		},
	},
	/* SchedProcessExecFtraceEvent */
	{
		.system = "sched",
		.name = "sched_process_exec",
		.number = 237,
		.fields = {
			{ "filename", 1, PF_STRING },
			{ "pid", 2, PF_INT32 },
			{ "old_pid", 3, PF_INT32 },
		},
	},
	/* SchedMigrateTaskFtraceEvent */
	{
		.system = "sched",
		.name = "sched_migrate_task",
		.number = 491,
		.fields = {
			{ "comm", 1, PF_STRING },
			{ "pid", 2, PF_INT32 },
			{ "prio", 3, PF_INT32 },
			{ "orig_cpu", 4, PF_INT32 },
			{ "dest_cpu", 5, PF_INT32 },
			{ "running", 6, PF_INT32 },
			{ "load", 7, PF_UINT32 },
		},
	},
	/* TaskNewtaskFtraceEvent */
	{
		.system = "task",
		.name = "task_newtask",
		.number = 235,
		.fields = {
			{ "pid", 1, PF_INT32 },
			{ "comm", 2, PF_STRING },
			{ "clone_flags", 3, PF_UINT64 },
			{ "oom_score_adj", 4, PF_INT32 },
		},
	},
	/* TaskRenameFtraceEvent */
	{
		.system = "task",
		.name = "task_rename",
		.number = 236,
		.fields = {
			{ "pid", 1, PF_INT32 },
			{ "oldcomm", 2, PF_STRING },
			{ "newcomm", 3, PF_STRING },
			{ "oom_score_adj", 4, PF_INT32 },
		},
	},
	/* CpuFrequencyFtraceEvent */
	{
		.system = "power",
		.name = "cpu_frequency",
		.number = 11,
		.fields = {
			{ "state", 1, PF_UINT32 },
			{ "cpu_id", 2, PF_UINT32 },
		},
	},
	/* CpuIdleFtraceEvent */
	{
		.system = "power",
		.name = "cpu_idle",
		.number = 13,
		.fields = {
			{ "state", 1, PF_UINT32 },
			{ "cpu_id", 2, PF_UINT32 },
		},
	},
	/* IrqHandlerEntryFtraceEvent */
	{
		.system = "irq",
		.name = "irq_handler_entry",
		.number = 36,
		.fields = {
			{ "irq", 1, PF_INT32 },
			{ "name", 2, PF_STRING },
			{ "handler", 3, PF_UINT32 },
		},
	},
	/* IrqHandlerExitFtraceEvent */
	{
		.system = "irq",
		.name = "irq_handler_exit",
		.number = 37,
		.fields = {
			{ "irq", 1, PF_INT32 },
			{ "ret", 2, PF_INT32 },
		},
	},
	/* SoftirqEntryFtraceEvent */
	{
		.system = "irq",
		.name = "softirq_entry",
		.number = 24,
		.fields = {
			{ "vec", 1, PF_UINT32 },
		},
	},
	/* SoftirqExitFtraceEvent */
	{
		.system = "irq",
		.name = "softirq_exit",
		.number = 25,
		.fields = {
			{ "vec", 1, PF_UINT32 },
		},
	},
	/* SoftirqRaiseFtraceEvent */
	{
		.system = "irq",
		.name = "softirq_raise",
		.number = 26,
		.fields = {
			{ "vec", 1, PF_UINT32 },
		},
	},
	/* SysEnterFtraceEvent */
	{
		.system = "raw_syscalls",
		.name = "sys_enter",
		.number = 329,
		.fields = {
			{ "id", 1, PF_INT64 },
			{ "args", 2, PF_UINT64_ARRAY },
		},
	},
	/* SysExitFtraceEvent */
	{
		.system = "raw_syscalls",
		.name = "sys_exit",
		.number = 330,
		.fields = {
			{ "id", 1, PF_INT64 },
			{ "ret", 2, PF_INT64 },
		},
	},
	/* MaliGpuPowerStateFtraceEvent */
	{
		.system = "mali",
		.name = "gpu_power_state",
		.number = 548,
		.fields = {
			{ "change_ns", 1, PF_UINT64 },
			{ "from_state", 2, PF_INT32 },
			{ "to_state", 3, PF_INT32 },
		},
	},
	/* MaliTracingMarkWriteFtraceEvent */
	{
		.system = "mali",
		.name = "tracing_mark_write",
		.number = 350,
		.fields = {
			{ "name", 1, PF_STRING },
			{ "pid", 2, PF_INT32 },
			{ "type", 3, PF_UINT32 },
			{ "value", 4, PF_INT32 },
		},
	},
	/* ThermalTemperatureFtraceEvent */
	{
		.system = "thermal",
		.name = "thermal_temperature",
		.number = 341,
		.fields = {
			{ "id", 1, PF_INT32 },
			{ "temp", 2, PF_INT32 },
			{ "temp_prev", 3, PF_INT32 },
			{ "thermal_zone", 4, PF_STRING },
		},
	},
	/* CdevUpdateFtraceEvent */
	{
		.system = "thermal",
		.name = "cdev_update",
		.number = 342,
		.fields = {
			{ "target", 1, PF_UINT64 },
			{ "type", 2, PF_STRING },
		},
	},
	/* ThermalExynosAcpmBulkFtraceEvent */
	{
		.system = "thermal_exynos",
		.name = "thermal_exynos_acpm_bulk",
		.number = 506,
		.fields = {
			{ "tz_id", 1, PF_UINT32 },
			{ "current_temp", 2, PF_UINT32 },
			{ "ctrl_temp", 3, PF_UINT32 },
			{ "cdev_state", 4, PF_UINT32 },
			{ "pid_et_p", 5, PF_INT32 },
			{ "pid_power_range", 6, PF_INT32 },
			{ "pid_p", 7, PF_INT32 },
			{ "pid_i", 8, PF_INT32 },
			{ "k_p", 9, PF_INT32 },
			{ "k_i", 10, PF_INT32 },
			{ "timestamp", 11, PF_UINT64 },
		},
	},
	/* ThermalExynosAcpmHighOverheadFtraceEvent */
	{
		.system = "thermal_exynos",
		.name = "thermal_exynos_acpm_high_overhead",
		.number = 507,
		.fields = {
			{ "tz_id", 1, PF_INT32 },
			{ "current_temp", 2, PF_UINT32 },
			{ "ctrl_temp", 3, PF_UINT32 },
			{ "cdev_state", 4, PF_UINT32 },
			{ "pid_et_p", 5, PF_INT32 },
			{ "k_p", 6, PF_INT32 },
			{ "k_i", 7, PF_INT32 },
		},
	},
	/* MaliMaliCSFINTERRUPTENDFtraceEvent */
	{
		.system = "mali",
		.name = "mali_CSF_INTERRUPT_END",
		.number = 483,
		.fields = {
			{ "kctx_tgid", 1, PF_INT32 },
			{ "kctx_id", 2, PF_UINT32 },
			{ "info_val", 3, PF_UINT64 },
		},
	},
	/* MaliMaliCSFINTERRUPTSTARTFtraceEvent */
	{
		.system = "mali",
		.name = "mali_CSF_INTERRUPT_START",
		.number = 482,
		.fields = {
			{ "kctx_tgid", 1, PF_INT32 },
			{ "kctx_id", 2, PF_UINT32 },
			{ "info_val", 3, PF_UINT64 },
		},
	},
	/* MaliMaliKCPUCQSSETFtraceEvent */
	{
		.system = "mali",
		.name = "mali_KCPU_CQS_SET",
		.number = 470,
		.fields = {
			{ "id", 1, PF_UINT32 },
			{ "info_val1", 2, PF_UINT64 },
			{ "info_val2", 3, PF_UINT64 },
			{ "kctx_id", 4, PF_UINT32 },
			{ "kctx_tgid", 5, PF_INT32 },
		},
	},
	/* MaliMaliKCPUCQSWAITENDFtraceEvent */
	{
		.system = "mali",
		.name = "mali_KCPU_CQS_WAIT_END",
		.number = 472,
		.fields = {
			{ "id", 1, PF_UINT32 },
			{ "info_val1", 2, PF_UINT64 },
			{ "info_val2", 3, PF_UINT64 },
			{ "kctx_id", 4, PF_UINT32 },
			{ "kctx_tgid", 5, PF_INT32 },
		},
	},
	/* MaliMaliKCPUCQSWAITSTARTFtraceEvent */
	{
		.system = "mali",
		.name = "mali_KCPU_CQS_WAIT_START",
		.number = 471,
		.fields = {
			{ "id", 1, PF_UINT32 },
			{ "info_val1", 2, PF_UINT64 },
			{ "info_val2", 3, PF_UINT64 },
			{ "kctx_id", 4, PF_UINT32 },
			{ "kctx_tgid", 5, PF_INT32 },
		},
	},
	/* MaliMaliKCPUFENCESIGNALFtraceEvent */
	{
		.system = "mali",
		.name = "mali_KCPU_FENCE_SIGNAL",
		.number = 473,
		.fields = {
			{ "info_val1", 1, PF_UINT64 },
			{ "info_val2", 2, PF_UINT64 },
			{ "kctx_tgid", 3, PF_INT32 },
			{ "kctx_id", 4, PF_UINT32 },
			{ "id", 5, PF_UINT32 },
		},
	},
	/* MaliMaliKCPUFENCEWAITENDFtraceEvent */
	{
		.system = "mali",
		.name = "mali_KCPU_FENCE_WAIT_END",
		.number = 475,
		.fields = {
			{ "info_val1", 1, PF_UINT64 },
			{ "info_val2", 2, PF_UINT64 },
			{ "kctx_tgid", 3, PF_INT32 },
			{ "kctx_id", 4, PF_UINT32 },
			{ "id", 5, PF_UINT32 },
		},
	},
	/* MaliMaliKCPUFENCEWAITSTARTFtraceEvent */
	{
		.system = "mali",
		.name = "mali_KCPU_FENCE_WAIT_START",
		.number = 474,
		.fields = {
			{ "info_val1", 1, PF_UINT64 },
			{ "info_val2", 2, PF_UINT64 },
			{ "kctx_tgid", 3, PF_INT32 },
			{ "kctx_id", 4, PF_UINT32 },
			{ "id", 5, PF_UINT32 },
		},
	},
	/* MaliMaliPMMCUHCTLCORESDOWNSCALENOTIFYPENDFtraceEvent */
	{
		.system = "mali",
		.name = "mali_PM_MCU_HCTL_CORES_DOWN_SCALE_NOTIFY_PEND",
		.number = 510,
		.fields = {
			{ "kctx_tgid", 1, PF_INT32 },
			{ "kctx_id", 2, PF_UINT32 },
			{ "info_val", 3, PF_UINT64 },
		},
	},
	/* MaliMaliPMMCUHCTLCORESNOTIFYPENDFtraceEvent */
	{
		.system = "mali",
		.name = "mali_PM_MCU_HCTL_CORES_NOTIFY_PEND",
		.number = 511,
		.fields = {
			{ "kctx_tgid", 1, PF_INT32 },
			{ "kctx_id", 2, PF_UINT32 },
			{ "info_val", 3, PF_UINT64 },
		},
	},
	/* MaliMaliPMMCUHCTLCOREINACTIVEPENDFtraceEvent */
	{
		.system = "mali",
		.name = "mali_PM_MCU_HCTL_CORE_INACTIVE_PEND",
		.number = 512,
		.fields = {
			{ "kctx_tgid", 1, PF_INT32 },
			{ "kctx_id", 2, PF_UINT32 },
			{ "info_val", 3, PF_UINT64 },
		},
	},
	/* MaliMaliPMMCUHCTLMCUONRECHECKFtraceEvent */
	{
		.system = "mali",
		.name = "mali_PM_MCU_HCTL_MCU_ON_RECHECK",
		.number = 513,
		.fields = {
			{ "kctx_tgid", 1, PF_INT32 },
			{ "kctx_id", 2, PF_UINT32 },
			{ "info_val", 3, PF_UINT64 },
		},
	},
	/* MaliMaliPMMCUHCTLSHADERSCOREOFFPENDFtraceEvent */
	{
		.system = "mali",
		.name = "mali_PM_MCU_HCTL_SHADERS_CORE_OFF_PEND",
		.number = 514,
		.fields = {
			{ "kctx_tgid", 1, PF_INT32 },
			{ "kctx_id", 2, PF_UINT32 },
			{ "info_val", 3, PF_UINT64 },
		},
	},
	/* MaliMaliPMMCUHCTLSHADERSPENDOFFFtraceEvent */
	{
		.system = "mali",
		.name = "mali_PM_MCU_HCTL_SHADERS_PEND_OFF",
		.number = 515,
		.fields = {
			{ "kctx_tgid", 1, PF_INT32 },
			{ "kctx_id", 2, PF_UINT32 },
			{ "info_val", 3, PF_UINT64 },
		},
	},
	/* MaliMaliPMMCUHCTLSHADERSPENDONFtraceEvent */
	{
		.system = "mali",
		.name = "mali_PM_MCU_HCTL_SHADERS_PEND_ON",
		.number = 516,
		.fields = {
			{ "kctx_tgid", 1, PF_INT32 },
			{ "kctx_id", 2, PF_UINT32 },
			{ "info_val", 3, PF_UINT64 },
		},
	},
	/* MaliMaliPMMCUHCTLSHADERSREADYOFFFtraceEvent */
	{
		.system = "mali",
		.name = "mali_PM_MCU_HCTL_SHADERS_READY_OFF",
		.number = 517,
		.fields = {
			{ "kctx_tgid", 1, PF_INT32 },
			{ "kctx_id", 2, PF_UINT32 },
			{ "info_val", 3, PF_UINT64 },
		},
	},
	/* MaliMaliPMMCUINSLEEPFtraceEvent */
	{
		.system = "mali",
		.name = "mali_PM_MCU_IN_SLEEP",
		.number = 518,
		.fields = {
			{ "kctx_tgid", 1, PF_INT32 },
			{ "kctx_id", 2, PF_UINT32 },
			{ "info_val", 3, PF_UINT64 },
		},
	},
	/* MaliMaliPMMCUOFFFtraceEvent */
	{
		.system = "mali",
		.name = "mali_PM_MCU_OFF",
		.number = 519,
		.fields = {
			{ "kctx_tgid", 1, PF_INT32 },
			{ "kctx_id", 2, PF_UINT32 },
			{ "info_val", 3, PF_UINT64 },
		},
	},
	/* MaliMaliPMMCUONFtraceEvent */
	{
		.system = "mali",
		.name = "mali_PM_MCU_ON",
		.number = 520,
		.fields = {
			{ "kctx_tgid", 1, PF_INT32 },
			{ "kctx_id", 2, PF_UINT32 },
			{ "info_val", 3, PF_UINT64 },
		},
	},
	/* MaliMaliPMMCUONCOREATTRUPDATEPENDFtraceEvent */
	{
		.system = "mali",
		.name = "mali_PM_MCU_ON_CORE_ATTR_UPDATE_PEND",
		.number = 521,
		.fields = {
			{ "kctx_tgid", 1, PF_INT32 },
			{ "kctx_id", 2, PF_UINT32 },
			{ "info_val", 3, PF_UINT64 },
		},
	},
	/* MaliMaliPMMCUONGLBREINITPENDFtraceEvent */
	{
		.system = "mali",
		.name = "mali_PM_MCU_ON_GLB_REINIT_PEND",
		.number = 522,
		.fields = {
			{ "kctx_tgid", 1, PF_INT32 },
			{ "kctx_id", 2, PF_UINT32 },
			{ "info_val", 3, PF_UINT64 },
		},
	},
	/* MaliMaliPMMCUONHALTFtraceEvent */
	{
		.system = "mali",
		.name = "mali_PM_MCU_ON_HALT",
		.number = 523,
		.fields = {
			{ "kctx_tgid", 1, PF_INT32 },
			{ "kctx_id", 2, PF_UINT32 },
			{ "info_val", 3, PF_UINT64 },
		},
	},
	/* MaliMaliPMMCUONHWCNTDISABLEFtraceEvent */
	{
		.system = "mali",
		.name = "mali_PM_MCU_ON_HWCNT_DISABLE",
		.number = 524,
		.fields = {
			{ "kctx_tgid", 1, PF_INT32 },
			{ "kctx_id", 2, PF_UINT32 },
			{ "info_val", 3, PF_UINT64 },
		},
	},
	/* MaliMaliPMMCUONHWCNTENABLEFtraceEvent */
	{
		.system = "mali",
		.name = "mali_PM_MCU_ON_HWCNT_ENABLE",
		.number = 525,
		.fields = {
			{ "kctx_tgid", 1, PF_INT32 },
			{ "kctx_id", 2, PF_UINT32 },
			{ "info_val", 3, PF_UINT64 },
		},
	},
	/* MaliMaliPMMCUONPENDHALTFtraceEvent */
	{
		.system = "mali",
		.name = "mali_PM_MCU_ON_PEND_HALT",
		.number = 526,
		.fields = {
			{ "kctx_tgid", 1, PF_INT32 },
			{ "kctx_id", 2, PF_UINT32 },
			{ "info_val", 3, PF_UINT64 },
		},
	},
	/* MaliMaliPMMCUONPENDSLEEPFtraceEvent */
	{
		.system = "mali",
		.name = "mali_PM_MCU_ON_PEND_SLEEP",
		.number = 527,
		.fields = {
			{ "kctx_tgid", 1, PF_INT32 },
			{ "kctx_id", 2, PF_UINT32 },
			{ "info_val", 3, PF_UINT64 },
		},
	},
	/* MaliMaliPMMCUONSLEEPINITIATEFtraceEvent */
	{
		.system = "mali",
		.name = "mali_PM_MCU_ON_SLEEP_INITIATE",
		.number = 528,
		.fields = {
			{ "kctx_tgid", 1, PF_INT32 },
			{ "kctx_id", 2, PF_UINT32 },
			{ "info_val", 3, PF_UINT64 },
		},
	},
	/* MaliMaliPMMCUPENDOFFFtraceEvent */
	{
		.system = "mali",
		.name = "mali_PM_MCU_PEND_OFF",
		.number = 529,
		.fields = {
			{ "kctx_tgid", 1, PF_INT32 },
			{ "kctx_id", 2, PF_UINT32 },
			{ "info_val", 3, PF_UINT64 },
		},
	},
	/* MaliMaliPMMCUPENDONRELOADFtraceEvent */
	{
		.system = "mali",
		.name = "mali_PM_MCU_PEND_ON_RELOAD",
		.number = 530,
		.fields = {
			{ "kctx_tgid", 1, PF_INT32 },
			{ "kctx_id", 2, PF_UINT32 },
			{ "info_val", 3, PF_UINT64 },
		},
	},
	/* MaliMaliPMMCUPOWERDOWNFtraceEvent */
	{
		.system = "mali",
		.name = "mali_PM_MCU_POWER_DOWN",
		.number = 531,
		.fields = {
			{ "kctx_tgid", 1, PF_INT32 },
			{ "kctx_id", 2, PF_UINT32 },
			{ "info_val", 3, PF_UINT64 },
		},
	},
	/* MaliMaliPMMCURESETWAITFtraceEvent */
	{
		.system = "mali",
		.name = "mali_PM_MCU_RESET_WAIT",
		.number = 532,
		.fields = {
			{ "kctx_tgid", 1, PF_INT32 },
			{ "kctx_id", 2, PF_UINT32 },
			{ "info_val", 3, PF_UINT64 },
		},
	},
};

const size_t vt_pf_nr_typed_events =
	sizeof(vt_pf_typed_events) / sizeof(vt_pf_typed_events[0]);
