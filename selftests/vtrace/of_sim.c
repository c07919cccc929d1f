// SPDX-License-Identifier: GPL-2.0
/*
 * The simulator's device-tree node ("vtrace,sim", module/of.c): its
 * vtrace,tmu-names name the simulated thermal zones in debugfs
 * sim/tmu_names and in every thermal_exynos_arm_update event; unbinding
 * the device brings back the defaults, binding it again the board's names.
 * Without the node (x86, and arm64 without the overlay) the names are the
 * defaults.  The rig boots its arm64 guest with dts/vtrace-sim.dtso, and
 * with of_sim_refused.dtso's bad nodes, which the driver must refuse.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "kmsg.h"
#include "vtrace_test.h"

#define DT_NODE "/sys/firmware/devicetree/base/vtrace-sim"
#define DRIVER "/sys/bus/platform/drivers/vtrace"
#define DEVICE "vtrace-sim"
#define NR_TMUS 4
#define STEPS "4000"

static const char *const default_names = "BIG MID LITTLE GPU";

/* of_sim_refused.dtso's nodes, and the probe's message for each. */
static const struct {
	const char *device;
	const char *message;
} refused[] = {
	{
		.device = "vtrace-sim-five-names",
		.message =
			"vtrace vtrace-sim-five-names: error -EINVAL: vtrace,tmu-names has 5 names for the 4 zones (big, mid, little, gpu)",
	},
	{
		.device = "vtrace-sim-latin1-name",
		.message =
			"vtrace vtrace-sim-latin1-name: error -EINVAL: vtrace,tmu-names: \"M\\xc9D\" is not 1..15 of [A-Za-z0-9_-]",
	},
};

/*
 * The node's vtrace,tmu-names (NUL-separated in sysfs) as "A B C D", or
 * "" without the node.
 */
static void dt_names(char *buf, size_t size)
{
	size_t len = 0, i;
	char *prop;

	buf[0] = '\0';
	prop = vtrace_read_all(DT_NODE "/vtrace,tmu-names", &len);
	if (!prop)
		return;
	for (i = 0; i + 1 < len && i + 1 < size; i++)
		buf[i] = prop[i] ? prop[i] : ' ';
	buf[i] = '\0';
	free(prop);
}

/* debugfs sim/tmu_names, without its newline. */
static int sim_names(char *buf, size_t size)
{
	ssize_t n = vt_read(VT_DEBUGFS "/sim/tmu_names", buf, size);

	if (n <= 0)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

FIXTURE(of_sim)
{
	struct vt_tracing inst;
	char dt[128];
	uint64_t saved_running, saved_seed;
};

FIXTURE_SETUP(of_sim)
{
	const char *why = vt_skip_reason();

	if (why)
		SKIP(return, "%s", why);
	dt_names(self->dt, sizeof(self->dt));
	ASSERT_EQ(0, vt_ctl_read_u64("sim/running", &self->saved_running));
	ASSERT_EQ(0, vt_ctl_read_u64("sim/seed", &self->saved_seed));
	ASSERT_EQ(0, vt_ctl_write("sim/running", "0"));
	ASSERT_EQ(0, vt_instance_create(&self->inst, "of_sim"));
	ASSERT_EQ(0, vt_tracing_write(&self->inst, "buffer_size_kb", "1024"));
	ASSERT_EQ(0, vt_tracing_enable(
			     &self->inst,
			     "thermal_exynos/thermal_exynos_arm_update", true));
}

FIXTURE_TEARDOWN(of_sim)
{
	char val[32];

	EXPECT_EQ(0, vt_instance_destroy(&self->inst));
	snprintf(val, sizeof(val), "%llu",
		 (unsigned long long)self->saved_seed);
	EXPECT_EQ(0, vt_ctl_write("sim/seed", val));
	snprintf(val, sizeof(val), "%llu",
		 (unsigned long long)self->saved_running);
	EXPECT_EQ(0, vt_ctl_write("sim/running", val));
}

/*
 * thermal_exynos_arm_update events with tmu_name == @name (or, with
 * @others, with none of the names in @names) in STEPS steps from seed 1.
 */
static int64_t count_updates(struct vt_tracing *inst, const char *names,
			     const char *name, bool others)
{
	char filter[256] = "", list[128], *tok, *save = NULL;
	struct vt_cpu_stats sum;
	size_t len = 0;

	if (others) {
		snprintf(list, sizeof(list), "%s", names);
		for (tok = strtok_r(list, " ", &save); tok;
		     tok = strtok_r(NULL, " ", &save))
			len += snprintf(filter + len, sizeof(filter) - len,
					"%stmu_name != \"%s\"",
					len ? " && " : "", tok);
	} else {
		snprintf(filter, sizeof(filter), "tmu_name == \"%s\"", name);
	}
	if (vt_tracing_filter(inst, "thermal_exynos/thermal_exynos_arm_update",
			      filter) ||
	    vt_tracing_clear(inst) || vt_ctl_write("sim/seed", "1") ||
	    vt_ctl_write("sim/step", STEPS) || vt_total_stats(inst, &sum))
		return -1;
	return sum.entries;
}

/* Every zone reports under its name, and no event under another. */
static void expect_names_in_events(struct __test_metadata *_metadata,
				   struct vt_tracing *inst, const char *names)
{
	char list[128], *tok, *save = NULL;
	int64_t n;

	snprintf(list, sizeof(list), "%s", names);
	for (tok = strtok_r(list, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		n = count_updates(inst, names, tok, false);
		TH_LOG("%s: %lld updates", tok, (long long)n);
		EXPECT_LT(0, n);
	}
	EXPECT_EQ(0, count_updates(inst, names, NULL, true));
}

TEST_F(of_sim, default_names_without_a_node)
{
	char names[128];

	if (self->dt[0])
		SKIP(return, "the device tree has a vtrace,sim node");
	ASSERT_EQ(0, sim_names(names, sizeof(names)));
	ASSERT_STREQ(default_names, names);
	expect_names_in_events(_metadata, &self->inst, default_names);
}

TEST_F(of_sim, names_follow_the_device_tree)
{
	char names[128];

	if (!self->dt[0])
		SKIP(return, "no vtrace,sim node in the device tree");
	ASSERT_TRUE(vt_exists(DRIVER "/" DEVICE)) TH_LOG("not bound");
	ASSERT_EQ(0, sim_names(names, sizeof(names)));
	ASSERT_STREQ(self->dt, names);
	ASSERT_STRNE(default_names, names);
	expect_names_in_events(_metadata, &self->inst, self->dt);
}

TEST_F(of_sim, unbind_restores_the_defaults_bind_the_board_names)
{
	char names[128];

	if (!self->dt[0])
		SKIP(return, "no vtrace,sim node in the device tree");
	ASSERT_EQ(0, vt_write_str(DRIVER "/unbind", DEVICE));
	EXPECT_FALSE(vt_exists(DRIVER "/" DEVICE));
	ASSERT_EQ(0, sim_names(names, sizeof(names)));
	EXPECT_STREQ(default_names, names);
	expect_names_in_events(_metadata, &self->inst, default_names);

	ASSERT_EQ(0, vt_write_str(DRIVER "/bind", DEVICE));
	EXPECT_TRUE(vt_exists(DRIVER "/" DEVICE));
	ASSERT_EQ(0, sim_names(names, sizeof(names)));
	EXPECT_STREQ(self->dt, names);
	expect_names_in_events(_metadata, &self->inst, self->dt);
}

/*
 * What a sysfs bind returns when the probe refuses the device: the probe's
 * own error since 5.14; before, the driver core made any probe error
 * -ENODEV (5.10), and only the kernel log tells why.
 */
static int bind_refused_errno(int probe_errno)
{
	int major = 0, minor = 0;
	struct utsname u;

	if (uname(&u) || sscanf(u.release, "%d.%d", &major, &minor) != 2)
		return probe_errno;
	if (major < 5 || (major == 5 && minor < 14))
		return -ENODEV;
	return probe_errno;
}

/*
 * Each bad node stays unbound: binding it fails (-EINVAL from the probe)
 * and logs exactly one line saying why, and the board's node stays bound.
 */
TEST(refused_nodes)
{
	int want = bind_refused_errno(-EINVAL);
	char path[256];
	size_t i;
	int fd;

	if (vt_skip_reason())
		SKIP(return, "%s", vt_skip_reason());
	if (!vt_exists("/sys/bus/platform/devices/vtrace-sim-five-names"))
		SKIP(return, "no of_sim_refused.dtso nodes in the device tree");
	fd = vt_kmsg_open_at_end();
	ASSERT_LE(0, fd);
	for (i = 0; i < ARRAY_SIZE(refused); i++) {
		snprintf(path, sizeof(path), "/sys/bus/platform/devices/%s",
			 refused[i].device);
		EXPECT_TRUE(vt_exists(path)) TH_LOG("no %s", path);
		snprintf(path, sizeof(path), DRIVER "/%s", refused[i].device);
		EXPECT_FALSE(vt_exists(path)) TH_LOG("%s is bound", path);
		EXPECT_EQ(want, vt_write_str(DRIVER "/bind", refused[i].device))
		TH_LOG("bind %s", refused[i].device);
		EXPECT_FALSE(vt_exists(path)) TH_LOG("%s is bound", path);
		EXPECT_EQ(1, vt_kmsg_count(fd, refused[i].message))
		TH_LOG("dmesg: %s", refused[i].message);
	}
	EXPECT_TRUE(vt_exists(DRIVER "/" DEVICE));
	close(fd);
}

TEST_HARNESS_MAIN
