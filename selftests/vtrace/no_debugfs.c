// SPDX-License-Identifier: GPL-2.0
/*
 * vtrace.ko without debugfs, in the rig's second boot with debugfs=off:
 * the module loads, says once per load that it has no control files, and
 * its events work: the simulator started by sim_autostart emits them, with
 * the device tree's zone names where the board has a vtrace,sim node
 * (the arm64 guest).  Not run in the rig's main boot, which has debugfs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "kmsg.h"
#include "vtrace_test.h"

#define LOAD_PARAMS "sim_autostart=1 sim_period_ms=1"
#define NOTICE                                                          \
	"vtrace: no debugfs (-EPERM): no emit, sim/ or burst/ control " \
	"files; the events and the simulator work"
#define DT_NAMES "/sys/firmware/devicetree/base/vtrace-sim/vtrace,tmu-names"
#define NR_TMUS 4
#define WAIT_MS 20000

struct seen {
	struct vt_format power, update;
	char tmu[NR_TMUS][16];
	uint64_t power_events;
	uint64_t tmu_events[NR_TMUS];
	uint64_t other_names;
};

static void count(const struct vt_record *rec, void *arg)
{
	struct seen *s = arg;
	char name[16];
	int i;

	if ((int)rec->type == s->power.id) {
		s->power_events++;
		return;
	}
	if ((int)rec->type != s->update.id ||
	    vt_get_str(vt_field(&s->update, "tmu_name"), rec->data, rec->size,
		       name, sizeof(name)) < 0) {
		s->other_names++;
		return;
	}
	for (i = 0; i < NR_TMUS && strcmp(name, s->tmu[i]); i++)
		;
	if (i < NR_TMUS)
		s->tmu_events[i]++;
	else
		s->other_names++;
}

/* The zone names: the device tree's, or the defaults without a node. */
static void zone_names(struct seen *s)
{
	static const char *const defaults[NR_TMUS] = { "BIG", "MID", "LITTLE",
						       "GPU" };
	size_t len = 0, off = 0;
	char *prop = vtrace_read_all(DT_NAMES, &len);
	int i;

	for (i = 0; i < NR_TMUS; i++) {
		snprintf(s->tmu[i], sizeof(s->tmu[i]), "%s",
			 prop && off < len ? prop + off : defaults[i]);
		if (prop && off < len)
			off += strlen(prop + off) + 1;
	}
	free(prop);
}

static bool all_seen(const struct seen *s)
{
	int i;

	for (i = 0; i < NR_TMUS; i++)
		if (!s->tmu_events[i])
			return false;
	return s->power_events;
}

static int load_counting_notices(void)
{
	int fd = vt_kmsg_open_at_end(), n, ret;

	if (fd < 0)
		return fd;
	ret = vt_module_load(vt_ko(false), LOAD_PARAMS);
	n = vt_kmsg_count(fd, NOTICE);
	close(fd);
	return ret ? ret : n;
}

TEST(events_and_simulator_without_debugfs)
{
	struct vt_tracing inst;
	struct vt_consumed out;
	struct seen seen = { 0 };
	int waited, i;

	if (vt_exists("/sys/kernel/debug"))
		SKIP(return, "debugfs exists: the test is for debugfs=off");
	if (!vt_ko(false))
		SKIP(return, "VTRACE_KO does not name the default build");
	if (vt_module_loaded())
		ASSERT_EQ(0, vt_module_unload());
	zone_names(&seen);

	ASSERT_EQ(1, load_counting_notices());
	ASSERT_EQ(0, vt_format_load("mali", "gpu_power_state", &seen.power));
	ASSERT_EQ(0, vt_format_load("thermal_exynos",
				    "thermal_exynos_arm_update", &seen.update));
	ASSERT_EQ(0, vt_instance_create(&inst, "no_debugfs"));
	ASSERT_EQ(0, vt_tracing_enable(&inst, "mali/gpu_power_state", true));
	ASSERT_EQ(0, vt_tracing_enable(
			     &inst, "thermal_exynos/thermal_exynos_arm_update",
			     true));
	for (waited = 0; waited < WAIT_MS && !all_seen(&seen); waited += 200) {
		usleep(200000);
		ASSERT_EQ(0, vt_consume_all(&inst, count, &seen, &out));
	}
	TH_LOG("after %d ms: %llu gpu_power_state, %s %llu, %s %llu, %s %llu, %s %llu",
	       waited, (unsigned long long)seen.power_events, seen.tmu[0],
	       (unsigned long long)seen.tmu_events[0], seen.tmu[1],
	       (unsigned long long)seen.tmu_events[1], seen.tmu[2],
	       (unsigned long long)seen.tmu_events[2], seen.tmu[3],
	       (unsigned long long)seen.tmu_events[3]);
	EXPECT_LT(0, seen.power_events);
	for (i = 0; i < NR_TMUS; i++)
		EXPECT_LT(0, seen.tmu_events[i]) TH_LOG("zone %s", seen.tmu[i]);
	EXPECT_EQ(0, seen.other_names);
	EXPECT_EQ(0, vt_instance_destroy(&inst));

	/* Once per load. */
	ASSERT_EQ(0, vt_module_unload());
	EXPECT_EQ(1, load_counting_notices());
	EXPECT_EQ(0, vt_module_unload());
}

TEST_HARNESS_MAIN
