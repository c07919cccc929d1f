// SPDX-License-Identifier: GPL-2.0
/*
 * A real devfreq device for the simulated GPU.  Where the kernel has devfreq,
 * a platform device "vtrace-gpu" of the module's own carries the simulated
 * GPU's operating points and a devfreq device whose current frequency is the
 * simulator's, so /sys/class/devfreq/vtrace-gpu/cur_freq reads what a real
 * Mali's devfreq device would.
 *
 * The simulator is the only source of the frequency: it moves the GPU
 * between its operating points by its own deterministic DVFS.  get_cur_freq
 * returns that frequency, and cur_freq in sysfs reads get_cur_freq, whatever
 * the governor asked for.  A governor's request (the userspace governor's
 * set_freq, or performance's maximum) is recorded, not obeyed: target
 * answers with the simulated frequency, which devfreq then takes as the
 * frequency it set.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/compiler.h>
#include <linux/devfreq.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/pm_opp.h>

#include "vtrace.h"

static int sim_devfreq = -1;
module_param(sim_devfreq, int, 0444);
MODULE_PARM_DESC(sim_devfreq,
		 "devfreq device for the simulated GPU: -1 where the kernel has devfreq (default), 0 never, 1 always (the load fails without it)");

/* The simulated GPU's load is a percentage of its busy time. */
#define SIM_GPU_LOAD_MAX	100

/*
 * Governors that never ask for a frequency on their own, or only once when
 * they start, in order of preference: the userspace governor leaves the
 * frequency alone until someone writes set_freq.  Only a built-in governor
 * will do: a modular one may not be installed where the module is loaded.
 */
static const char *sim_gpu_governor(void)
{
	if (IS_BUILTIN(CONFIG_DEVFREQ_GOV_USERSPACE))
		return "userspace";
	if (IS_BUILTIN(CONFIG_DEVFREQ_GOV_PERFORMANCE))
		return "performance";
	if (IS_BUILTIN(CONFIG_DEVFREQ_GOV_POWERSAVE))
		return "powersave";
	if (IS_BUILTIN(CONFIG_DEVFREQ_GOV_SIMPLE_ONDEMAND))
		return "simple_ondemand";
	return NULL;
}

static struct platform_device *sim_gpu_pdev;
static struct devfreq *sim_gpu_devfreq;

/* Published by the simulator, read without a lock by the callbacks. */
static unsigned long sim_gpu_hz;
static unsigned int sim_gpu_load;
/* The last frequency a governor asked for, in Hz (recorded only). */
static unsigned long sim_gpu_requested_hz;

static int sim_gpu_target(struct device *dev, unsigned long *freq, u32 flags)
{
	WRITE_ONCE(sim_gpu_requested_hz, *freq);
	*freq = READ_ONCE(sim_gpu_hz);
	return 0;
}

static int sim_gpu_get_cur_freq(struct device *dev, unsigned long *freq)
{
	*freq = READ_ONCE(sim_gpu_hz);
	return 0;
}

/* For simple_ondemand: the simulated load as busy time out of 100. */
static int sim_gpu_get_dev_status(struct device *dev,
				  struct devfreq_dev_status *stat)
{
	stat->current_frequency = READ_ONCE(sim_gpu_hz);
	stat->busy_time = READ_ONCE(sim_gpu_load);
	stat->total_time = SIM_GPU_LOAD_MAX;
	return 0;
}

static unsigned long sim_gpu_freq_table[VTRACE_SIM_GPU_NR_OPPS];

/* No polling: get_cur_freq reads the simulator's frequency when asked. */
static struct devfreq_dev_profile sim_gpu_profile = {
	.target		= sim_gpu_target,
	.get_dev_status	= sim_gpu_get_dev_status,
	.get_cur_freq	= sim_gpu_get_cur_freq,
	.freq_table	= sim_gpu_freq_table,
	.max_state	= VTRACE_SIM_GPU_NR_OPPS,
};

/* Safe on a partly registered device. */
static void sim_gpu_unregister(void)
{
	if (!IS_ERR_OR_NULL(sim_gpu_devfreq))
		devfreq_remove_device(sim_gpu_devfreq);
	sim_gpu_devfreq = NULL;
	if (!IS_ERR_OR_NULL(sim_gpu_pdev)) {
		dev_pm_opp_remove_all_dynamic(&sim_gpu_pdev->dev);
		platform_device_unregister(sim_gpu_pdev);
	}
	sim_gpu_pdev = NULL;
}

/*
 * devfreq finds the device's frequency range in its operating points, so
 * the table's frequencies are both.
 */
static int sim_gpu_register(const u32 *opps_khz, const char *governor)
{
	struct device *dev;
	int i, ret;

	sim_gpu_pdev = platform_device_register_simple("vtrace-gpu",
						       PLATFORM_DEVID_NONE,
						       NULL, 0);
	if (IS_ERR(sim_gpu_pdev))
		return PTR_ERR(sim_gpu_pdev);
	dev = &sim_gpu_pdev->dev;
	for (i = 0; i < VTRACE_SIM_GPU_NR_OPPS; i++) {
		sim_gpu_freq_table[i] = opps_khz[i] * 1000UL;
		ret = dev_pm_opp_add(dev, sim_gpu_freq_table[i], 0);
		if (ret)
			goto fail;
	}
	sim_gpu_profile.initial_freq = READ_ONCE(sim_gpu_hz);
	sim_gpu_devfreq = devfreq_add_device(dev, &sim_gpu_profile, governor,
					     NULL);
	if (IS_ERR(sim_gpu_devfreq)) {
		ret = PTR_ERR(sim_gpu_devfreq);
		goto fail;
	}
	return 0;

fail:
	sim_gpu_unregister();
	return ret;
}

/**
 * vtrace_sim_devfreq_init() - register the simulated GPU's devfreq device
 * @opps_khz: the GPU's VTRACE_SIM_GPU_NR_OPPS operating points, in kHz,
 *	ascending
 *
 * As the sim_devfreq parameter asks: by default where the kernel has
 * devfreq and a built-in governor that leaves the frequency alone, saying
 * once when it has not.  Called after vtrace_sim_devfreq_update() gave the
 * GPU its frequency.
 *
 * Return: 0, or -ENODEV when sim_devfreq=1 asks for a device the kernel
 * cannot have, or devfreq's error when registering it fails.
 */
int vtrace_sim_devfreq_init(const u32 *opps_khz)
{
	const char *governor = sim_gpu_governor();
	int ret;

	if (!sim_devfreq)
		return 0;
	if (!IS_ENABLED(CONFIG_PM_DEVFREQ) || !governor) {
		if (sim_devfreq > 0) {
			pr_err("sim_devfreq=1, but this kernel has no devfreq (CONFIG_PM_DEVFREQ) with a built-in userspace, performance, powersave or simple_ondemand governor\n");
			return -ENODEV;
		}
		pr_notice("no devfreq (CONFIG_PM_DEVFREQ) with a built-in userspace, performance, powersave or simple_ondemand governor: the simulated GPU has no devfreq device\n");
		return 0;
	}
	ret = sim_gpu_register(opps_khz, governor);
	if (ret) {
		pr_warn("devfreq device vtrace-gpu: %pe\n", ERR_PTR(ret));
		/* Asked for by default only: the module works without it. */
		if (sim_devfreq < 0)
			return 0;
	}
	return ret;
}

/**
 * vtrace_sim_devfreq_update() - report the simulated GPU's DVFS state
 * @khz: its frequency, in kHz
 * @load: its load, in percent
 *
 * Read by the devfreq device's callbacks; callable before it exists.
 */
void vtrace_sim_devfreq_update(u32 khz, int load)
{
	WRITE_ONCE(sim_gpu_hz, khz * 1000UL);
	WRITE_ONCE(sim_gpu_load, load);
}

/**
 * vtrace_sim_devfreq_exit() - unregister the devfreq device
 *
 * Safe without vtrace_sim_devfreq_init().
 */
void vtrace_sim_devfreq_exit(void)
{
	sim_gpu_unregister();
}
