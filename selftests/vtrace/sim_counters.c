// SPDX-License-Identifier: GPL-2.0
/*
 * The simulator drives the kernel's own frameworks: a thermal zone per
 * simulated TMU, typed by its name, whose temp is the simulator's
 * temperature and whose updates emit thermal/thermal_temperature with it,
 * and a devfreq device "vtrace-gpu" whose cur_freq is the simulated GPU's
 * frequency.  Both go away on unload; sim_thermal_zones and sim_devfreq
 * turn them off, or refuse the load where the kernel lacks the framework.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "kmsg.h"
#include "vtrace_test.h"

#define NR_TMUS 4
#define AMBIENT_MC 35000
#define STEPS 200
#define THERMAL_CLASS "/sys/class/thermal"
#define DEVFREQ_CLASS "/sys/class/devfreq"
#define GPU_DEVFREQ DEVFREQ_CLASS "/vtrace-gpu"
#define NO_THERMAL "no thermal framework in this kernel (CONFIG_THERMAL)"
#define NO_DEVFREQ "no devfreq in this kernel (CONFIG_PM_DEVFREQ)"
/* module/sim-devfreq.c's message where the kernel has no devfreq. */
#define DEVFREQ_NOTICE "vtrace: no devfreq (CONFIG_PM_DEVFREQ) with a built-in"

/* What /sys/kernel/debug/vtrace/sim/state says. */
struct sim_state {
	uint64_t steps;
	int temp_mc[NR_TMUS];
	int gpu_load;
	unsigned long gpu_khz;
};

static int read_state(struct sim_state *st)
{
	char val[128];
	int ret;

	ret = vt_ctl_status("sim/state", "steps", val, sizeof(val));
	if (ret)
		return ret;
	st->steps = strtoull(val, NULL, 10);
	ret = vt_ctl_status("sim/state", "temp_mc", val, sizeof(val));
	if (ret)
		return ret;
	if (sscanf(val, "%d %d %d %d", &st->temp_mc[0], &st->temp_mc[1],
		   &st->temp_mc[2], &st->temp_mc[3]) != NR_TMUS)
		return -EINVAL;
	ret = vt_ctl_status("sim/state", "gpu_load", val, sizeof(val));
	if (ret)
		return ret;
	st->gpu_load = atoi(val);
	ret = vt_ctl_status("sim/state", "gpu_freq_khz", val, sizeof(val));
	if (ret)
		return ret;
	st->gpu_khz = strtoul(val, NULL, 10);
	return 0;
}

static int read_tmu_names(char tmu[NR_TMUS][16])
{
	char names[80] = "";

	if (vt_read(VT_DEBUGFS "/sim/tmu_names", names, sizeof(names)) <= 0)
		return -EIO;
	if (sscanf(names, "%15s %15s %15s %15s", tmu[0], tmu[1], tmu[2],
		   tmu[3]) != NR_TMUS)
		return -EINVAL;
	return 0;
}

/*
 * The N of the one /sys/class/thermal/thermal_zoneN of type @type: -ENOENT
 * without one, -EEXIST with several.
 */
static int find_zone(const char *type)
{
	char path[PATH_MAX], val[64];
	struct dirent *de;
	int found = -ENOENT, n;
	DIR *dir;

	dir = opendir(THERMAL_CLASS);
	if (!dir)
		return -ENOENT;
	while ((de = readdir(dir))) {
		if (sscanf(de->d_name, "thermal_zone%d", &n) != 1)
			continue;
		snprintf(path, sizeof(path), THERMAL_CLASS "/%s/type",
			 de->d_name);
		if (vt_read(path, val, sizeof(val)) <= 0)
			continue;
		val[strcspn(val, "\n")] = '\0';
		if (strcmp(val, type))
			continue;
		found = found == -ENOENT ? n : -EEXIST;
	}
	closedir(dir);
	return found;
}

static int zone_temp(int zone, int *temp)
{
	char path[PATH_MAX], val[32];

	snprintf(path, sizeof(path), THERMAL_CLASS "/thermal_zone%d/temp",
		 zone);
	if (vt_read(path, val, sizeof(val)) <= 0)
		return -EIO;
	*temp = atoi(val);
	return 0;
}

/* The thermal_temperature events of the zones, in order. */
struct zone_events {
	struct vt_format fmt;
	int zone[NR_TMUS];
	char tmu[NR_TMUS][16];
	int nr[NR_TMUS];
	int temp[NR_TMUS][STEPS + 1];
	int temp_prev[NR_TMUS][STEPS + 1];
	int bad;
	int foreign;
};

static void add_zone_event(const struct vt_record *rec, void *arg)
{
	struct zone_events *ev = arg;
	int id, i;
	char type[32];

	if ((int)rec->type != ev->fmt.id) {
		ev->foreign++;
		return;
	}
	id = vt_get_s64(vt_field(&ev->fmt, "id"), rec->data);
	for (i = 0; i < NR_TMUS && ev->zone[i] != id; i++)
		;
	if (i == NR_TMUS) {
		ev->foreign++;
		return;
	}
	if (vt_get_str(vt_field(&ev->fmt, "thermal_zone"), rec->data, rec->size,
		       type, sizeof(type)) < 0 ||
	    strcmp(type, ev->tmu[i]) || ev->nr[i] > STEPS) {
		ev->bad++;
		return;
	}
	ev->temp[i][ev->nr[i]] =
		vt_get_s64(vt_field(&ev->fmt, "temp"), rec->data);
	ev->temp_prev[i][ev->nr[i]] =
		vt_get_s64(vt_field(&ev->fmt, "temp_prev"), rec->data);
	ev->nr[i]++;
}

FIXTURE(sim_counters)
{
	struct vt_tracing inst;
	struct vt_sim_saved saved;
	char tmu[NR_TMUS][16];
	int cpu;
};

FIXTURE_SETUP(sim_counters)
{
	bool online[VT_MAX_CPUS];
	const char *why = vt_skip_reason();

	memset(&self->inst, 0, sizeof(self->inst));
	if (why)
		SKIP(return, "%s", why);
	ASSERT_EQ(0, vt_sim_save(&self->saved));
	ASSERT_EQ(0, read_tmu_names(self->tmu));
	ASSERT_EQ(0, vt_ctl_write("sim/running", "0"));
	/* The zones' events are emitted by the sim/step writer: one CPU. */
	ASSERT_LT(0, vt_cpus("online", online));
	for (self->cpu = 0; !online[self->cpu]; self->cpu++)
		;
	ASSERT_EQ(0, vt_pin_cpu(self->cpu));
}

FIXTURE_TEARDOWN(sim_counters)
{
	if (self->inst.dir[0])
		EXPECT_EQ(0, vt_instance_destroy(&self->inst));
	if (!vt_module_loaded())
		EXPECT_EQ(0, vt_module_restore_default());
	if (!vt_exists(VT_DEBUGFS "/sim/seed"))
		return;
	EXPECT_EQ(0, vt_sim_restore(&self->saved));
}

/*
 * Step by step from a reset: each zone's temp is the simulator's
 * temperature of its TMU, and its thermal_temperature events are exactly
 * the changes of that temperature, temp_prev included.
 */
TEST_F(sim_counters, thermal_zones_follow)
{
	static struct zone_events ev;
	int expected[NR_TMUS][STEPS + 1], nr_expected[NR_TMUS] = { 0 };
	struct sim_state st, prev;
	struct vt_consumed seen;
	int i, j, step, temp;

	if (!vt_exists(THERMAL_CLASS))
		SKIP(return, NO_THERMAL);
	memset(&ev, 0, sizeof(ev));
	memcpy(ev.tmu, self->tmu, sizeof(ev.tmu));
	for (i = 0; i < NR_TMUS; i++) {
		ev.zone[i] = find_zone(self->tmu[i]);
		ASSERT_LE(0, ev.zone[i])
		TH_LOG("thermal zone of type %s: %d", self->tmu[i], ev.zone[i]);
	}
	ASSERT_EQ(0, vt_format_load("thermal", "thermal_temperature", &ev.fmt));
	ASSERT_EQ(0, vt_instance_create(&self->inst, "sim_counters"));
	ASSERT_EQ(0, vt_tracing_write(&self->inst, "buffer_size_kb", "1024"));
	ASSERT_EQ(0, vt_tracing_enable(&self->inst,
				       "thermal/thermal_temperature", true));

	ASSERT_EQ(0, vt_ctl_write("sim/period_ms", "100"));
	ASSERT_EQ(0, vt_ctl_write("sim/seed", "1234"));
	ASSERT_EQ(0, vt_tracing_clear(&self->inst));
	ASSERT_EQ(0, read_state(&prev));
	ASSERT_EQ(0, prev.steps);
	for (i = 0; i < NR_TMUS; i++) {
		ASSERT_EQ(AMBIENT_MC, prev.temp_mc[i]);
		ASSERT_EQ(0, zone_temp(ev.zone[i], &temp));
		ASSERT_EQ(AMBIENT_MC, temp) TH_LOG("zone %s", self->tmu[i]);
	}

	for (step = 1; step <= STEPS; step++) {
		ASSERT_EQ(0, vt_ctl_write("sim/step", "1"));
		ASSERT_EQ(0, read_state(&st));
		ASSERT_EQ(step, st.steps);
		for (i = 0; i < NR_TMUS; i++) {
			ASSERT_EQ(0, zone_temp(ev.zone[i], &temp));
			ASSERT_EQ(st.temp_mc[i], temp)
			TH_LOG("step %d zone %s", step, self->tmu[i]);
			if (st.temp_mc[i] != prev.temp_mc[i])
				expected[i][nr_expected[i]++] = st.temp_mc[i];
		}
		prev = st;
	}

	memset(&seen, 0, sizeof(seen));
	ASSERT_EQ(0, vt_consume_all(&self->inst, add_zone_event, &ev, &seen));
	ASSERT_EQ(0, seen.missed_pages);
	EXPECT_EQ(0, ev.bad);
	for (i = 0; i < NR_TMUS; i++) {
		/* The model heats and cools: not a constant temperature. */
		EXPECT_LT(STEPS / 2, nr_expected[i]);
		EXPECT_EQ(nr_expected[i], ev.nr[i])
		TH_LOG("zone %s", self->tmu[i]);
		for (j = 0; j < nr_expected[i] && j < ev.nr[i]; j++) {
			if (ev.temp[i][j] != expected[i][j] ||
			    ev.temp_prev[i][j] !=
				    (j ? expected[i][j - 1] : AMBIENT_MC))
				break;
		}
		EXPECT_EQ(nr_expected[i], j)
		TH_LOG("zone %s: event %d is temp=%d temp_prev=%d, not temp=%d",
		       self->tmu[i], j, ev.temp[i][j], ev.temp_prev[i][j],
		       expected[i][j]);
		TH_LOG("zone %s (thermal_zone%d): %d thermal_temperature events, last %d",
		       self->tmu[i], ev.zone[i], ev.nr[i],
		       ev.nr[i] ? ev.temp[i][ev.nr[i] - 1] : 0);
	}
}

/* Step by step: cur_freq is the simulated GPU frequency, in Hz. */
TEST_F(sim_counters, devfreq_follows)
{
	unsigned long lowest = 0, highest = 0;
	struct sim_state st;
	uint64_t hz;
	int step;

	if (!vt_exists(DEVFREQ_CLASS))
		SKIP(return, NO_DEVFREQ);
	ASSERT_TRUE(vt_exists(GPU_DEVFREQ "/cur_freq"));
	ASSERT_EQ(0, vt_ctl_write("sim/seed", "1234"));
	for (step = 0; step <= STEPS; step++) {
		if (step)
			ASSERT_EQ(0, vt_ctl_write("sim/step", "1"));
		ASSERT_EQ(0, read_state(&st));
		ASSERT_EQ(0, vt_read_u64(GPU_DEVFREQ "/cur_freq", &hz));
		ASSERT_EQ(st.gpu_khz * 1000, hz) TH_LOG("step %d", step);
		if (!lowest || st.gpu_khz < lowest)
			lowest = st.gpu_khz;
		if (st.gpu_khz > highest)
			highest = st.gpu_khz;
	}
	/* The DVFS moved: the test saw more than one frequency. */
	EXPECT_LT(lowest, highest);
}

/* Unloading removes the zones and the devfreq device. */
TEST_F(sim_counters, gone_after_unload)
{
	bool thermal = vt_exists(THERMAL_CLASS);
	bool devfreq = vt_exists(DEVFREQ_CLASS);
	int zone[NR_TMUS], i;
	char path[PATH_MAX];

	if (!thermal && !devfreq)
		SKIP(return, NO_THERMAL " nor " NO_DEVFREQ);
	for (i = 0; thermal && i < NR_TMUS; i++) {
		zone[i] = find_zone(self->tmu[i]);
		ASSERT_LE(0, zone[i]) TH_LOG("zone %s", self->tmu[i]);
	}
	if (devfreq)
		ASSERT_TRUE(vt_exists(GPU_DEVFREQ));
	ASSERT_EQ(0, vt_module_unload());
	ASSERT_FALSE(vt_module_loaded());
	for (i = 0; thermal && i < NR_TMUS; i++) {
		snprintf(path, sizeof(path), THERMAL_CLASS "/thermal_zone%d",
			 zone[i]);
		EXPECT_FALSE(vt_exists(path)) TH_LOG("%s", path);
		EXPECT_EQ(-ENOENT, find_zone(self->tmu[i]));
	}
	EXPECT_FALSE(vt_exists(GPU_DEVFREQ));
	EXPECT_FALSE(vt_exists("/sys/bus/platform/devices/vtrace-gpu"));

	/* And loading again brings them back. */
	ASSERT_EQ(0, vt_module_restore_default());
	ASSERT_EQ(0, read_tmu_names(self->tmu));
	for (i = 0; thermal && i < NR_TMUS; i++)
		EXPECT_LE(0, find_zone(self->tmu[i]));
	if (devfreq)
		EXPECT_TRUE(vt_exists(GPU_DEVFREQ));
}

/*
 * sim_thermal_zones=0 and sim_devfreq=0 register nothing; =1 registers,
 * or fails the load with -ENODEV where the kernel lacks the framework.
 */
TEST_F(sim_counters, parameters)
{
	bool thermal = vt_exists(THERMAL_CLASS);
	bool devfreq = vt_exists(DEVFREQ_CLASS);
	int i, fd, ret;

	ASSERT_EQ(0, vt_module_unload());
	ASSERT_EQ(0, vt_module_load(vt_ko(false),
				    "sim_thermal_zones=0 sim_devfreq=0"));
	ASSERT_EQ(0, read_tmu_names(self->tmu));
	for (i = 0; i < NR_TMUS; i++)
		EXPECT_EQ(-ENOENT, find_zone(self->tmu[i]));
	EXPECT_FALSE(vt_exists(GPU_DEVFREQ));
	ASSERT_EQ(0, vt_module_unload());

	ret = vt_module_load(vt_ko(false), "sim_thermal_zones=1");
	EXPECT_EQ(thermal ? 0 : -ENODEV, ret);
	EXPECT_EQ(thermal, vt_module_loaded());
	if (thermal) {
		ASSERT_EQ(0, read_tmu_names(self->tmu));
		for (i = 0; i < NR_TMUS; i++)
			EXPECT_LE(0, find_zone(self->tmu[i]));
		ASSERT_EQ(0, vt_module_unload());
	}

	ret = vt_module_load(vt_ko(false), "sim_devfreq=1");
	EXPECT_EQ(devfreq ? 0 : -ENODEV, ret);
	EXPECT_EQ(devfreq, vt_module_loaded());
	if (devfreq) {
		EXPECT_TRUE(vt_exists(GPU_DEVFREQ));
		ASSERT_EQ(0, vt_module_unload());
	}

	/* The default load says once that there is no devfreq. */
	fd = vt_kmsg_open_at_end();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, vt_module_load(vt_ko(false), ""));
	EXPECT_EQ(devfreq ? 0 : 1, vt_kmsg_count(fd, DEVFREQ_NOTICE));
	close(fd);
}

TEST_HARNESS_MAIN
