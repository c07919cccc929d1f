// SPDX-License-Identifier: GPL-2.0
/*
 * Real thermal zones for the simulated TMUs.  Where the kernel has the
 * thermal framework, each simulated TMU is also a thermal zone whose type is
 * the name its thermal_exynos events carry (BIG, MID, LITTLE, GPU, or the
 * device tree's names) and whose temperature is the simulator's, so the
 * kernel's own interfaces report it as they would a real sensor's:
 * /sys/class/thermal/thermal_zoneN/temp and the thermal/thermal_temperature
 * event, which the thermal core emits when the simulator reports a new
 * temperature.
 *
 * The zones have no trip points and no cooling devices, so the kernel never
 * acts on them: a simulated temperature can pass the simulated hardware trip
 * (98 C), and a critical trip there would shut the machine down.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/compiler.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/thermal.h>
#include <linux/version.h>

#include "vtrace.h"

static int sim_thermal_zones = -1;
module_param(sim_thermal_zones, int, 0444);
MODULE_PARM_DESC(sim_thermal_zones,
		 "Thermal zones for the simulated TMUs: -1 where the kernel has the thermal framework (default), 0 never, 1 always (the load fails without it)");

/**
 * struct sim_zone - a simulated TMU's thermal zone
 * @tz:		the zone, NULL while unregistered (the simulator's lock)
 * @temp_mc:	the simulator's temperature, in millidegrees Celsius, read
 *		without a lock by get_temp
 */
struct sim_zone {
	struct thermal_zone_device *tz;
	int temp_mc;
};

static struct sim_zone sim_zones[VTRACE_SIM_NR_TMUS];

/* The zones are wanted and the kernel can have them (the simulator's lock). */
static bool sim_thermal_on;

static struct sim_zone *sim_zone_of(struct thermal_zone_device *tz)
{
#if KERNEL_VERSION(6, 4, 0) <= LINUX_VERSION_CODE
	return thermal_zone_device_priv(tz);
#else
	return tz->devdata;
#endif
}

/*
 * Called by the thermal core under the zone's lock, from a simulator step
 * (which holds the simulator's lock) as from a sysfs read (which does not):
 * it must not take the simulator's lock.
 */
static int sim_zone_get_temp(struct thermal_zone_device *tz, int *temp)
{
	*temp = READ_ONCE(sim_zone_of(tz)->temp_mc);
	return 0;
}

/* Not const: before 6.6 the thermal core takes them by non-const pointer. */
static struct thermal_zone_device_ops sim_zone_ops = {
	.get_temp	= sim_zone_get_temp,
};

/*
 * No hwmon device: the zone's own files are the interface.  The user_space
 * governor, which only reports trip crossings, makes sure no governor that
 * throttles is attached, whatever the kernel's default is.
 */
static struct thermal_zone_params sim_zone_params = {
	.governor_name	= "user_space",
	.no_hwmon	= true,
};

static struct thermal_zone_device *sim_zone_register(const char *type,
						     struct sim_zone *zone)
{
#if KERNEL_VERSION(6, 6, 0) <= LINUX_VERSION_CODE
	return thermal_tripless_zone_device_register(type, zone, &sim_zone_ops,
						     &sim_zone_params);
#else
	/* No trips, no polling: the simulator reports each new temperature. */
	return thermal_zone_device_register(type, 0, 0, zone, &sim_zone_ops,
					    &sim_zone_params, 0, 0);
#endif
}

static void sim_zones_unregister(void)
{
	int i;

	for (i = 0; i < VTRACE_SIM_NR_TMUS; i++) {
		thermal_zone_device_unregister(sim_zones[i].tz);
		sim_zones[i].tz = NULL;
	}
}

static int sim_zones_register(const char *const *names)
{
	struct thermal_zone_device *tz;
	int i, ret;

	for (i = 0; i < VTRACE_SIM_NR_TMUS; i++) {
		tz = sim_zone_register(names[i], &sim_zones[i]);
		if (IS_ERR(tz)) {
			ret = PTR_ERR(tz);
			goto fail;
		}
		sim_zones[i].tz = tz;
		/* Zones are registered disabled (since 5.9): no update runs. */
		ret = thermal_zone_device_enable(tz);
		if (ret)
			goto fail;
	}
	return 0;

fail:
	pr_warn("thermal zone %s: %pe; no thermal zones for the simulated TMUs\n",
		names[i], ERR_PTR(ret));
	sim_zones_unregister();
	return ret;
}

/**
 * vtrace_sim_thermal_init() - register the simulated TMUs' thermal zones
 * @names: the TMUs' names, the zones' types (vtrace_sim_set_tmu_names())
 *
 * As the sim_thermal_zones parameter asks: by default where the kernel has
 * the thermal framework, saying once when it has not.  Called with the
 * simulator's lock held, after vtrace_sim_thermal_update() gave each zone
 * its temperature.
 *
 * Return: 0, or -ENODEV when sim_thermal_zones=1 asks for zones the kernel
 * cannot have, or the thermal core's error when registering them fails.
 */
int vtrace_sim_thermal_init(const char *const *names)
{
	int ret;

	if (!sim_thermal_zones)
		return 0;
	if (!IS_ENABLED(CONFIG_THERMAL)) {
		if (sim_thermal_zones > 0) {
			pr_err("sim_thermal_zones=1, but this kernel has no thermal framework (CONFIG_THERMAL)\n");
			return -ENODEV;
		}
		pr_notice("no thermal framework (CONFIG_THERMAL): the simulated TMUs have no thermal zones\n");
		return 0;
	}
	ret = sim_zones_register(names);
	/* Asked for by default only: the module works without them. */
	if (ret && sim_thermal_zones < 0)
		return 0;
	sim_thermal_on = !ret;
	return ret;
}

/**
 * vtrace_sim_thermal_rename() - give the zones the TMUs' new names
 * @names: the TMUs' names
 *
 * A zone's type cannot change: the zones are registered again, and get new
 * numbers.  Called with the simulator's lock held.
 */
void vtrace_sim_thermal_rename(const char *const *names)
{
	if (!sim_thermal_on)
		return;
	sim_zones_unregister();
	sim_thermal_on = !sim_zones_register(names);
}

/**
 * vtrace_sim_thermal_update() - report a TMU's temperature
 * @id: the TMU, 0..VTRACE_SIM_NR_TMUS-1 (big, mid, little, GPU)
 * @temp_mc: its temperature, in millidegrees Celsius
 *
 * A new temperature updates the TMU's zone, which emits
 * thermal/thermal_temperature; the same one does nothing.  Called with the
 * simulator's lock held, and before the zones exist to set their initial
 * temperatures.
 */
void vtrace_sim_thermal_update(unsigned int id, int temp_mc)
{
	struct sim_zone *zone = &sim_zones[id];

	if (zone->temp_mc == temp_mc)
		return;
	WRITE_ONCE(zone->temp_mc, temp_mc);
	if (zone->tz)
		thermal_zone_device_update(zone->tz, THERMAL_EVENT_TEMP_SAMPLE);
}

/**
 * vtrace_sim_thermal_exit() - unregister the zones
 *
 * Safe without vtrace_sim_thermal_init().  Called with the simulator's lock
 * held, once it no longer steps.
 */
void vtrace_sim_thermal_exit(void)
{
	sim_zones_unregister();
	sim_thermal_on = false;
}
