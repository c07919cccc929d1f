// SPDX-License-Identifier: GPL-2.0
/*
 * The simulator's device-tree node: a board without the Mali and TMU
 * drivers describes, with a "vtrace,sim" node, the names its thermal zones
 * have under the real TMU driver, so that the simulated
 * thermal_exynos_arm_update events carry them and scripts written for the
 * board match them unchanged.  The binding is
 * Documentation/devicetree/bindings/trace/vtrace,sim.yaml, an overlay for
 * boards is dts/vtrace-sim.dtso.
 *
 * There is one simulator: a second node is refused.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/device.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/platform_device.h>
#include <linux/string.h>

#include "vtrace.h"

static atomic_t vtrace_of_bound = ATOMIC_INIT(0);

/*
 * Unbind: the names go back to the defaults before devm frees our copies;
 * no step uses them once vtrace_sim_set_tmu_names() has returned.
 */
static void vtrace_of_release(void *unused)
{
	vtrace_sim_set_tmu_names(NULL);
	atomic_set(&vtrace_of_bound, 0);
}

static int vtrace_of_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	const char *dt_names[VTRACE_SIM_NR_TMUS];
	const char **names;
	int nr, ret, i;

	/* Counted first: reading the array would silently drop extras. */
	nr = of_property_count_strings(dev->of_node, "vtrace,tmu-names");
	if (nr < 0)
		return dev_err_probe(dev, nr,
				     "vtrace,tmu-names is missing or not a list of strings\n");
	if (nr != VTRACE_SIM_NR_TMUS)
		return dev_err_probe(dev, -EINVAL,
				     "vtrace,tmu-names has %d names for the %d zones (big, mid, little, gpu)\n",
				     nr, VTRACE_SIM_NR_TMUS);
	ret = of_property_read_string_array(dev->of_node, "vtrace,tmu-names",
					    dt_names, VTRACE_SIM_NR_TMUS);
	if (ret < 0)
		return ret;
	names = devm_kcalloc(dev, VTRACE_SIM_NR_TMUS, sizeof(*names),
			     GFP_KERNEL);
	if (!names)
		return -ENOMEM;
	for (i = 0; i < VTRACE_SIM_NR_TMUS; i++) {
		if (!vtrace_tmu_name_valid(dt_names[i]))
			return dev_err_probe(dev, -EINVAL,
					     "vtrace,tmu-names: \"%s\" is not 1..%d of [A-Za-z0-9_-]\n",
					     dt_names[i],
					     VTRACE_TMU_NAME_MAX_LEN);
		/* Our own copies: the node may go before we do (overlays). */
		names[i] = devm_kstrdup(dev, dt_names[i], GFP_KERNEL);
		if (!names[i])
			return -ENOMEM;
	}
	if (atomic_cmpxchg(&vtrace_of_bound, 0, 1))
		return dev_err_probe(dev, -EBUSY,
				     "one simulator only: another node is bound\n");
	vtrace_sim_set_tmu_names(names);
	/* Registered after the copies, so released (on unbind) before them. */
	return devm_add_action_or_reset(dev, vtrace_of_release, NULL);
}

static const struct of_device_id vtrace_of_match[] = {
	{ .compatible = "vtrace,sim" },
	{ }
};
MODULE_DEVICE_TABLE(of, vtrace_of_match);

static struct platform_driver vtrace_of_driver = {
	.probe		= vtrace_of_probe,
	.driver		= {
		.name		= "vtrace",
		.of_match_table	= vtrace_of_match,
	},
};

int vtrace_of_init(void)
{
	return platform_driver_register(&vtrace_of_driver);
}

void vtrace_of_exit(void)
{
	platform_driver_unregister(&vtrace_of_driver);
}
