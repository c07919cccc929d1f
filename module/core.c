// SPDX-License-Identifier: GPL-2.0
/*
 * vtrace.ko: Mali and Exynos thermal vendor tracepoints, and three sources
 * of those events for boards and VMs without the vendor drivers: debugfs
 * "emit" commands, a deterministic simulator and a burst generator.
 * See Documentation/vtrace-module.rst.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/module.h>

#include "debug.h"
#include "vtrace.h"

#ifdef VTRACE_DEBUG
unsigned int vtrace_debug_mask;
module_param_named(debug_mask, vtrace_debug_mask, uint, 0644);
MODULE_PARM_DESC(debug_mask,
		 "trace_printk debug paths: bit 0 control, bit 1 simulator, bit 2 burst");
#endif

static struct dentry *vtrace_debugfs_root;

/*
 * Removes the control files first: once debugfs_remove_recursive() returns,
 * no control operation runs or can start, so nothing can restart the event
 * sources stopped next.  Safe on a partly initialised module.
 */
static void vtrace_teardown(void)
{
	debugfs_remove_recursive(vtrace_debugfs_root);
	vtrace_sim_exit();
	vtrace_burst_exit();
}

static int __init vtrace_init(void)
{
	int ret;

	/*
	 * Without debugfs (debugfs=off, CONFIG_DEBUG_FS=n) the root is an
	 * error pointer, under which debugfs creates nothing: the events,
	 * sim_autostart and the device-tree node do not need the files.
	 */
	vtrace_debugfs_root = debugfs_create_dir("vtrace", NULL);
	if (IS_ERR(vtrace_debugfs_root))
		pr_notice("no debugfs (%pe): no emit, sim/ or burst/ control files; the events and the simulator work\n",
			  vtrace_debugfs_root);

	vtrace_emit_init(vtrace_debugfs_root);
	vtrace_burst_init(vtrace_debugfs_root);
	/* Last, as it may start stepping right away (sim_autostart). */
	ret = vtrace_sim_init(vtrace_debugfs_root);
	if (ret)
		goto fail;
	/* A "vtrace,sim" device-tree node configures the simulator. */
	ret = vtrace_of_init();
	if (ret)
		goto fail;
	return 0;

fail:
	vtrace_teardown();
	return ret;
}

static void __exit vtrace_exit(void)
{
	vtrace_of_exit();
	vtrace_teardown();
}

module_init(vtrace_init);
module_exit(vtrace_exit);

MODULE_DESCRIPTION("Mali and Exynos thermal vendor tracepoints and event sources");
MODULE_AUTHOR("The vtrace developers");
MODULE_LICENSE("GPL");
