// SPDX-License-Identifier: LGPL-2.1
/*
 * The standard atrace categories.
 *
 * Names, descriptions and tags are atrace's (frameworks/native
 * cmds/atrace/atrace.cpp); the kernel events are those Perfetto's ftrace
 * config muxer adds for a category (src/traced/probes/ftrace/
 * predefined_tracepoints.cc), which diverge from atrace's on purpose (no
 * sched_wakeup, more clock and hotplug events). Where Perfetto adds every
 * event of a group its translation table knows, the entry's event name is
 * "*": every event of that group this kernel has. Explicit events of such a
 * group are left out.
 *
 * "memory" lists kmem/rss_stat where Perfetto prefers the synthetic
 * rss_stat_throttled event it creates itself when the kernel can: vtrace
 * creates no synthetic events. "ion" is Perfetto's (atrace dropped it);
 * "core_services" and "pdx" only name Android services and have neither
 * tags nor events.
 */
#include <string.h>

#include <vtrace/atrace-categories.h>

#define CATEGORY(n, d, t) .name = (n), .description = (d), .tags = (t)
#define EVENTS(...)                                                 \
	.events = (const char *const[]){ __VA_ARGS__ },             \
	.nr_events = sizeof((const char *const[]){ __VA_ARGS__ }) / \
		     sizeof(const char *)

static const struct vtrace_atrace_category categories[] = {
	{ CATEGORY("gfx", "Graphics", ATRACE_TAG_GRAPHICS),
	  EVENTS("mdss/*", "mali/*", "sde/*", "dpu/*", "g2d/*", "panel/*") },
	{ CATEGORY("input", "Input", ATRACE_TAG_INPUT) },
	{ CATEGORY("view", "View System", ATRACE_TAG_VIEW) },
	{ CATEGORY("webview", "WebView", ATRACE_TAG_WEBVIEW) },
	{ CATEGORY("wm", "Window Manager", ATRACE_TAG_WINDOW_MANAGER) },
	{ CATEGORY("am", "Activity Manager", ATRACE_TAG_ACTIVITY_MANAGER) },
	{ CATEGORY("sm", "Sync Manager", ATRACE_TAG_SYNC_MANAGER) },
	{ CATEGORY("audio", "Audio", ATRACE_TAG_AUDIO) },
	{ CATEGORY("video", "Video", ATRACE_TAG_VIDEO) },
	{ CATEGORY("camera", "Camera", ATRACE_TAG_CAMERA), EVENTS("lwis/*") },
	{ CATEGORY("hal", "Hardware Modules", ATRACE_TAG_HAL) },
	{ CATEGORY("res", "Resource Loading", ATRACE_TAG_RESOURCES) },
	{ CATEGORY("dalvik", "Dalvik VM", ATRACE_TAG_DALVIK) },
	{ CATEGORY("rs", "RenderScript", ATRACE_TAG_RS) },
	{ CATEGORY("bionic", "Bionic C Library", ATRACE_TAG_BIONIC) },
	{ CATEGORY("power", "Power Management", ATRACE_TAG_POWER) },
	{ CATEGORY("pm", "Package Manager", ATRACE_TAG_PACKAGE_MANAGER) },
	{ CATEGORY("ss", "System Server", ATRACE_TAG_SYSTEM_SERVER) },
	{ CATEGORY("database", "Database", ATRACE_TAG_DATABASE) },
	{ CATEGORY("network", "Network", ATRACE_TAG_NETWORK) },
	{ CATEGORY("adb", "ADB", ATRACE_TAG_ADB) },
	{ CATEGORY("vibrator", "Vibrator", ATRACE_TAG_VIBRATOR) },
	{ CATEGORY("aidl", "AIDL calls", ATRACE_TAG_AIDL) },
	{ CATEGORY("nnapi", "NNAPI", ATRACE_TAG_NNAPI) },
	{ CATEGORY("rro", "Runtime Resource Overlay", ATRACE_TAG_RRO) },
	{ CATEGORY("core_services", "Core services", 0) },
	{ CATEGORY("pdx", "PDX services", 0) },
	{ CATEGORY("sched", "CPU Scheduling", 0),
	  EVENTS("sched/sched_switch", "sched/sched_waking",
		 "sched/sched_blocked_reason", "sched/sched_cpu_hotplug",
		 "sched/sched_pi_setprio", "sched/sched_process_exit",
		 "cgroup/*", "oom/oom_score_adj_update", "task/task_rename",
		 "task/task_newtask", "systrace/*", "scm/*") },
	{ CATEGORY("irq", "IRQ Events", 0), EVENTS("irq/*", "ipi/*") },
	{ CATEGORY("irqoff", "IRQ-disabled code section tracing", 0),
	  EVENTS("preemptirq/irq_enable", "preemptirq/irq_disable") },
	{ CATEGORY("preemptoff", "Preempt-disabled code section tracing", 0),
	  EVENTS("preemptirq/preempt_enable", "preemptirq/preempt_disable") },
	{ CATEGORY("i2c", "I2C Events", 0), EVENTS("i2c/*") },
	{ CATEGORY("freq", "CPU Frequency", 0),
	  EVENTS("power/cpu_frequency", "power/gpu_frequency",
		 "power/clock_set_rate", "power/clock_disable",
		 "power/clock_enable", "clk/clk_set_rate", "clk/clk_disable",
		 "clk/clk_enable", "power/cpu_frequency_limits",
		 "power/suspend_resume", "cpuhp/cpuhp_enter",
		 "cpuhp/cpuhp_exit", "cpuhp/cpuhp_pause", "msm_bus/*") },
	{ CATEGORY("membus", "Memory Bus Utilization", 0),
	  EVENTS("memory_bus/*") },
	{ CATEGORY("idle", "CPU Idle", 0), EVENTS("power/cpu_idle") },
	{ CATEGORY("disk", "Disk I/O", 0),
	  EVENTS("f2fs/f2fs_sync_file_enter", "f2fs/f2fs_sync_file_exit",
		 "f2fs/f2fs_write_begin", "f2fs/f2fs_write_end",
		 "f2fs/f2fs_iostat", "f2fs/f2fs_iostat_latency",
		 "ext4/ext4_da_write_begin", "ext4/ext4_da_write_end",
		 "ext4/ext4_sync_file_enter", "ext4/ext4_sync_file_exit",
		 "block/block_bio_queue", "block/block_bio_complete",
		 "ufs/ufshcd_command") },
	{ CATEGORY("mmc", "eMMC commands", 0), EVENTS("mmc/*") },
	{ CATEGORY("load", "CPU Load", 0), EVENTS("cpufreq_interactive/*") },
	{ CATEGORY("sync", "Synchronization", 0),
	  EVENTS("sync/*", "fence/*", "dma_fence/*") },
	{ CATEGORY("workq", "Kernel Workqueues", 0), EVENTS("workqueue/*") },
	{ CATEGORY("memreclaim", "Kernel Memory Reclaim", 0),
	  EVENTS("vmscan/mm_vmscan_direct_reclaim_begin",
		 "vmscan/mm_vmscan_direct_reclaim_end",
		 "vmscan/mm_vmscan_memcg_reclaim_begin",
		 "vmscan/mm_vmscan_memcg_reclaim_end",
		 "vmscan/mm_vmscan_kswapd_wake",
		 "vmscan/mm_vmscan_kswapd_sleep", "lowmemorykiller/*") },
	{ CATEGORY("regulators", "Voltage and Current Regulators", 0),
	  EVENTS("regulator/*") },
	{ CATEGORY("binder_driver", "Binder Kernel driver", 0),
	  EVENTS("binder/binder_transaction",
		 "binder/binder_transaction_received",
		 "binder/binder_transaction_alloc_buf",
		 "binder/binder_set_priority") },
	{ CATEGORY("binder_lock", "Binder global lock trace", 0),
	  EVENTS("binder/binder_lock", "binder/binder_locked",
		 "binder/binder_unlock") },
	{ CATEGORY("pagecache", "Page cache", 0), EVENTS("filemap/*") },
	{ CATEGORY("memory", "Memory", 0),
	  EVENTS("kmem/rss_stat", "kmem/ion_heap_grow", "kmem/ion_heap_shrink",
		 "ion/ion_stat", "mm_event/mm_event_record",
		 "dmabuf_heap/dma_heap_stat", "gpu_mem/gpu_mem_total") },
	{ CATEGORY("thermal", "Thermal event", ATRACE_TAG_THERMAL),
	  EVENTS("thermal/thermal_temperature", "thermal/cdev_update") },
	{ CATEGORY("ion", "ION allocation", 0),
	  EVENTS("kmem/ion_alloc_buffer_start") },
};

/**
 * vtrace_atrace_categories - the whole table
 * @nr: set to the number of entries
 *
 * Return: the categories in atrace's order (Perfetto's "ion" last).
 */
const struct vtrace_atrace_category *vtrace_atrace_categories(size_t *nr)
{
	*nr = sizeof(categories) / sizeof(categories[0]);
	return categories;
}

/**
 * vtrace_atrace_category_find - look a standard category up by name
 * @name: category name, matched exactly (atrace's names are lower case)
 *
 * Return: the category, or NULL when @name is not a standard category.
 */
const struct vtrace_atrace_category *
vtrace_atrace_category_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(categories) / sizeof(categories[0]); i++)
		if (!strcmp(categories[i].name, name))
			return &categories[i];
	return NULL;
}
