// SPDX-License-Identifier: LGPL-2.1
/*
 * The events that give counter values, and their tracks' names as
 * Perfetto's importer makes them (ftrace_parser.cc, thermal_tracker.cc,
 * mali_gpu_event_tracker.cc); see counter-events.h and
 * Documentation/vtrace-perfetto.rst.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "analysis/counter-events.h"

static const struct vt_counter_event counter_events[] = {
	{ .system = "mali",
	  .event = "gpu_power_state",
	  .values = { { "to_state", "mali_gpu_power_state", "" } } },
	{ .system = "thermal",
	  .event = "thermal_temperature",
	  .key_kind = VT_COUNTER_KEY_FIELD,
	  .key = "thermal_zone",
	  .values = { { "temp", "", " Temperature" } } },
	{ .system = "thermal",
	  .event = "cdev_update",
	  .key_kind = VT_COUNTER_KEY_FIELD,
	  .key = "type",
	  .values = { { "target", "", " Cooling Device" } } },
	{ .system = "thermal_exynos",
	  .event = "thermal_exynos_acpm_bulk",
	  .key_kind = VT_COUNTER_KEY_ZONE,
	  .key = "tz_id",
	  .ts_field = "timestamp",
	  .values = { { "current_temp", "", " Temperature" },
		      { "cdev_state", "Tj-", " Cooling Device" } } },
	{ .system = "thermal_exynos",
	  .event = "thermal_exynos_acpm_high_overhead",
	  .key_kind = VT_COUNTER_KEY_ZONE,
	  .key = "tz_id",
	  .values = { { "current_temp", "", " Temperature" },
		      { "cdev_state", "Tj-", " Cooling Device" } } },
	{ .system = "thermal_exynos",
	  .event = "thermal_exynos_arm_update",
	  .key_kind = VT_COUNTER_KEY_FIELD,
	  .key = "tmu_name",
	  .own_track = true,
	  .values = { { "ppm_throttle_level", "thermal_exynos_arm_update ",
			" ppm_throttle_level" },
		      { "mpmm_throttle_level", "thermal_exynos_arm_update ",
			" mpmm_throttle_level" } } },
	{ .system = "thermal_exynos",
	  .event = "thermal_cpu_pressure",
	  .key_kind = VT_COUNTER_KEY_FIELD,
	  .key = "cpu",
	  .own_track = true,
	  .values = { { "pressure", "thermal_cpu_pressure cpu", "" } } },
	/* Perfetto's "cpufreq" track of each CPU. */
	{ .system = "power",
	  .event = "cpu_frequency",
	  .key_kind = VT_COUNTER_KEY_FIELD,
	  .key = "cpu_id",
	  .values = { { "state", "cpufreq cpu", "" } } },
	/* vtrace writes devfreq_frequency as a generic event. */
	{ .system = "devfreq",
	  .event = "devfreq_frequency",
	  .key_kind = VT_COUNTER_KEY_FIELD,
	  .key = "dev_name",
	  .own_track = true,
	  .values = { { "freq", "", " Frequency" } } },
};

/* ACPM's zone ids, as Perfetto's importer names them. */
static const char *const acpm_zones[] = { "BIG", "MID", "LITTLE", "GPU",
					  "ISP", "TPU", "AUR" };

const struct vt_counter_event *vt_counter_event_find(const char *system,
						     const char *event)
{
	const struct vt_counter_event *ce;
	size_t i;

	for (i = 0; i < sizeof(counter_events) / sizeof(counter_events[0]);
	     i++) {
		ce = &counter_events[i];
		if (!strcmp(ce->event, event) &&
		    (!system || !strcmp(ce->system, system)))
			return ce;
	}
	return NULL;
}

bool vt_counter_track_name(const struct vt_counter_event *ce, int v,
			   const char *key, size_t key_len, int64_t key_num,
			   char *buf, size_t size)
{
	const struct vt_counter_value *cv = &ce->values[v];
	char num[24];

	switch (ce->key_kind) {
	case VT_COUNTER_KEY_NONE:
		key = "";
		key_len = 0;
		break;
	case VT_COUNTER_KEY_FIELD:
		if (!key) {
			key_len =
				snprintf(num, sizeof(num), "%" PRId64, key_num);
			key = num;
		}
		break;
	case VT_COUNTER_KEY_ZONE:
		if (key || key_num < 0 ||
		    key_num >= (int64_t)(sizeof(acpm_zones) /
					 sizeof(acpm_zones[0])))
			return false;
		key = acpm_zones[key_num];
		key_len = strlen(key);
		break;
	}
	snprintf(buf, size, "%s%.*s%s", cv->prefix, (int)key_len, key,
		 cv->suffix);
	return true;
}
