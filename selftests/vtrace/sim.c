// SPDX-License-Identifier: GPL-2.0
/*
 * The simulator (debugfs vtrace/sim/): a reset to a seed followed by N
 * synchronous steps gives exactly the same event sequence every time, a
 * different seed a different one, and over thousands of GPU transitions the
 * power domains move one level at a time with core masks that match.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "vtrace_test.h"
#include "writer.h"

/* Power levels and core types (module/include/trace/events/mali.h). */
enum { OFF, GLOBAL, COREGROUP, STACKS };
#define CORE_L2 0x120
#define CORE_SHADER 0x100
#define CORE_TILER 0x110
#define SIM_GPU_ID 0
#define SIM_SHADER_CORES 7

#define STEP_CHUNK 500 /* steps between two buffer drains */
#define STEPS_PER_WRITE_MAX 1000000 /* more is refused with -E2BIG */

enum sim_kind { POWER, PM_STATUS, PRESSURE, ARM_UPDATE, NR_KINDS };

/* One decoded simulator event, comparable with memcmp(). */
struct sim_event {
	uint64_t kind;
	uint64_t v[6];
	char name[16];
};

struct sim_trace {
	struct vt_format fmt[NR_KINDS];
	struct sim_event *ev;
	size_t nr, cap;
	int foreign; /* records of other event types */
	int bad; /* records that would not decode */
};

static const char *const kind_field[NR_KINDS][6] = {
	[POWER] = { "change_ns", "from_state", "to_state" },
	[PM_STATUS] = { "gpu_id", "event_id", "value" },
	[PRESSURE] = { "cpu", "pressure" },
	[ARM_UPDATE] = { "is_cpu_hw_throttled", "ppm_throttle_level",
			 "ppm_clr_level", "mpmm_throttle_level",
			 "mpmm_clr_level" },
};

static void add_event(const struct vt_record *rec, void *arg)
{
	struct sim_trace *t = arg;
	struct sim_event e = { 0 };
	const struct vt_field *fld;
	int k, i;

	for (k = 0; k < NR_KINDS && (int)rec->type != t->fmt[k].id; k++)
		;
	if (k == NR_KINDS) {
		t->foreign++;
		return;
	}
	e.kind = k;
	for (i = 0; i < 6 && kind_field[k][i]; i++) {
		fld = vt_field(&t->fmt[k], kind_field[k][i]);
		e.v[i] = fld->is_signed ? (uint64_t)vt_get_s64(fld, rec->data) :
					  vt_get_u64(fld, rec->data);
	}
	if (k == ARM_UPDATE &&
	    vt_get_str(vt_field(&t->fmt[k], "tmu_name"), rec->data, rec->size,
		       e.name, sizeof(e.name)) < 0)
		t->bad++;
	if (t->nr == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 4096;
		t->ev = realloc(t->ev, t->cap * sizeof(*t->ev));
	}
	if (t->ev)
		t->ev[t->nr++] = e;
}

FIXTURE(sim)
{
	struct vt_tracing inst;
	struct sim_trace trace;
	struct vt_sim_saved saved;
	int cpu;
	/* sim/tmu_names: BIG MID LITTLE GPU, or the device tree's (of_sim) */
	char tmu[4][16];
};

FIXTURE_SETUP(sim)
{
	static const char *const events[NR_KINDS][2] = {
		{ "mali", "gpu_power_state" },
		{ "mali", "mali_pm_status" },
		{ "thermal_exynos", "thermal_cpu_pressure" },
		{ "thermal_exynos", "thermal_exynos_arm_update" },
	};
	bool online[VT_MAX_CPUS];
	const char *why = vt_skip_reason();
	char names[80] = "";
	int k, n;

	if (why)
		SKIP(return, "%s", why);
	for (k = 0; k < NR_KINDS; k++)
		ASSERT_EQ(0, vt_format_load(events[k][0], events[k][1],
					    &self->trace.fmt[k]));
	ASSERT_EQ(0, vt_sim_save(&self->saved));
	ASSERT_LT(0,
		  vt_read(VT_DEBUGFS "/sim/tmu_names", names, sizeof(names)));
	n = sscanf(names, "%15s %15s %15s %15s", self->tmu[0], self->tmu[1],
		   self->tmu[2], self->tmu[3]);
	ASSERT_EQ(4, n);
	ASSERT_EQ(0, vt_ctl_write("sim/running", "0"));

	/* sim/step emits from the writer's context: keep it on one CPU. */
	ASSERT_LT(0, vt_cpus("online", online));
	for (self->cpu = 0; !online[self->cpu]; self->cpu++)
		;
	ASSERT_EQ(0, vt_pin_cpu(self->cpu));

	ASSERT_EQ(0, vt_instance_create(&self->inst, "sim"));
	ASSERT_EQ(0, vt_tracing_write(&self->inst, "buffer_size_kb", "2048"));
	/* The power and thermal events; sim_workload tests the others. */
	for (k = 0; k < NR_KINDS; k++) {
		snprintf(names, sizeof(names), "%s/%s", events[k][0],
			 events[k][1]);
		ASSERT_EQ(0, vt_tracing_enable(&self->inst, names, true));
	}
}

FIXTURE_TEARDOWN(sim)
{
	free(self->trace.ev);
	EXPECT_EQ(0, vt_instance_destroy(&self->inst));
	EXPECT_EQ(0, vt_sim_restore(&self->saved));
}

/*
 * Reset to @seed and run @steps synchronous steps, draining the buffer
 * every STEP_CHUNK steps into self->trace (emptied first).  Every event
 * must reach the buffer: no overrun, no lost pages.
 */
static void run_sim(struct __test_metadata *_metadata, FIXTURE_DATA(sim) * self,
		    uint64_t seed, uint64_t steps)
{
	struct vt_cpu_stats st;
	struct vt_consumed seen;
	uint64_t done = 0, n;
	char val[32];

	self->trace.nr = 0;
	ASSERT_EQ(0, vt_tracing_clear(&self->inst));
	ASSERT_EQ(0, vt_ctl_write("sim/period_ms", "100"));
	snprintf(val, sizeof(val), "%llu", (unsigned long long)seed);
	ASSERT_EQ(0, vt_ctl_write("sim/seed", val));
	ASSERT_EQ(0, vt_ctl_read_u64("sim/steps", &n));
	ASSERT_EQ(0, n);
	while (done < steps) {
		n = steps - done < STEP_CHUNK ? steps - done : STEP_CHUNK;
		snprintf(val, sizeof(val), "%llu", (unsigned long long)n);
		ASSERT_EQ(0, vt_ctl_write("sim/step", val));
		done += n;
		ASSERT_EQ(0, vt_total_stats(&self->inst, &st));
		ASSERT_EQ(0, st.overrun);
		memset(&seen, 0, sizeof(seen));
		ASSERT_EQ(0, vt_consume_cpu(&self->inst, self->cpu, add_event,
					    &self->trace, &seen));
		ASSERT_EQ(st.entries, seen.records);
		ASSERT_EQ(0, seen.missed_pages);
	}
	ASSERT_NE(NULL, self->trace.ev);
	ASSERT_EQ(0, self->trace.foreign);
	ASSERT_EQ(0, self->trace.bad);
	ASSERT_EQ(0, vt_ctl_read_u64("sim/steps", &n));
	ASSERT_EQ(steps, n);
}

static size_t count_kind(const struct sim_trace *t, enum sim_kind kind)
{
	size_t i, n = 0;

	for (i = 0; i < t->nr; i++)
		n += t->ev[i].kind == kind;
	return n;
}

TEST_F(sim, seed_resets_steps)
{
	uint64_t steps;

	ASSERT_EQ(0, vt_ctl_write("sim/seed", "42"));
	ASSERT_EQ(0, vt_ctl_read_u64("sim/seed", &steps));
	EXPECT_EQ(42, steps);
	ASSERT_EQ(0, vt_ctl_read_u64("sim/steps", &steps));
	EXPECT_EQ(0, steps);
	ASSERT_EQ(0, vt_ctl_write("sim/step", "10"));
	ASSERT_EQ(0, vt_ctl_write("sim/step", "5\n"));
	ASSERT_EQ(0, vt_ctl_read_u64("sim/steps", &steps));
	EXPECT_EQ(15, steps);
	ASSERT_EQ(0, vt_ctl_write("sim/seed", "42"));
	ASSERT_EQ(0, vt_ctl_read_u64("sim/steps", &steps));
	EXPECT_EQ(0, steps);
}

/* Same seed and steps: the identical sequence, change_ns included. */
TEST_F(sim, deterministic)
{
	const uint64_t steps = 3000;
	struct sim_event *first;
	size_t nr_first, i, same;
	int k;

	run_sim(_metadata, self, 1234, steps);
	for (k = 0; k < NR_KINDS; k++)
		EXPECT_LT(0, count_kind(&self->trace, k)) TH_LOG("kind %d", k);
	EXPECT_LE(300, count_kind(&self->trace, POWER));
	nr_first = self->trace.nr;
	first = malloc(nr_first * sizeof(*first));
	ASSERT_NE(NULL, first);
	memcpy(first, self->trace.ev, nr_first * sizeof(*first));

	run_sim(_metadata, self, 1234, steps);
	EXPECT_EQ(nr_first, self->trace.nr);
	for (i = 0; i < nr_first && i < self->trace.nr; i++)
		if (memcmp(&first[i], &self->trace.ev[i], sizeof(*first)))
			break;
	EXPECT_EQ(nr_first, i) TH_LOG("sequences differ at event %zu", i);

	/* Another seed: another sequence, not just a shifted one. */
	run_sim(_metadata, self, 1235, steps);
	same = 0;
	for (i = 0; i < nr_first && i < self->trace.nr; i++)
		same += !memcmp(&first[i], &self->trace.ev[i], sizeof(*first));
	EXPECT_FALSE(nr_first == self->trace.nr && same == nr_first);
	EXPECT_GT(nr_first / 2, same);
	free(first);
}

static int valid_shader_mask(uint64_t mask)
{
	return mask && mask < (1ULL << SIM_SHADER_CORES) &&
	       !(mask & (mask + 1));
}

static bool is_mask(const struct sim_trace *t, size_t i, uint64_t core, bool on)
{
	const struct sim_event *e = &t->ev[i];

	return i < t->nr && e->kind == PM_STATUS && e->v[1] == core &&
	       !!e->v[2] == on;
}

/*
 * The mali_pm_status events a gpu_power_state event ev[i] must sit between:
 * after entering COREGROUP, L2 then TILER on; after entering STACKS, a
 * shader mask; before leaving STACKS, shaders off; before leaving
 * COREGROUP, TILER then L2 off.
 */
static bool domain_neighbours(const struct sim_trace *t, size_t i)
{
	int from = t->ev[i].v[1], to = t->ev[i].v[2];

	if (to == COREGROUP && from == GLOBAL)
		return is_mask(t, i + 1, CORE_L2, true) &&
		       is_mask(t, i + 2, CORE_TILER, true);
	if (to == STACKS)
		return is_mask(t, i + 1, CORE_SHADER, true);
	if (from == STACKS)
		return i >= 1 && is_mask(t, i - 1, CORE_SHADER, false);
	if (from == COREGROUP && to == GLOBAL)
		return i >= 2 && is_mask(t, i - 2, CORE_TILER, false) &&
		       is_mask(t, i - 1, CORE_L2, false);
	return true;
}

/*
 * The Mali domain order and core masks, and the thermal reports, over
 * 20000 steps (several thousand GPU transitions).
 */
TEST_F_TIMEOUT(sim, invariants, 120)
{
	const uint64_t steps = 20000, period_ns = 100 * 1000000ULL;
	bool possible[VT_MAX_CPUS];
	uint64_t l2 = 0, tiler = 0, shader = 0, last_ns = 0, *mask;
	uint64_t pressure[VT_MAX_CPUS] = { 0 };
	size_t i, transitions = 0, masks = 0, updates = 0, pressures = 0;
	int level = OFF;

	ASSERT_LT(0, vt_cpus("possible", possible));
	run_sim(_metadata, self, 7, steps);
	for (i = 0; i < self->trace.nr; i++) {
		const struct sim_event *e = &self->trace.ev[i];

		switch (e->kind) {
		case POWER:
			ASSERT_EQ(level, (int)e->v[1]) TH_LOG("event %zu", i);
			ASSERT_EQ(1, abs((int)e->v[2] - (int)e->v[1]))
			TH_LOG("event %zu: %d -> %d", i, (int)e->v[1],
			       (int)e->v[2]);
			/* change_ns is simulated time: step * period. */
			ASSERT_EQ(0, e->v[0] % period_ns);
			ASSERT_LT(last_ns, e->v[0]) TH_LOG("event %zu", i);
			ASSERT_GE(steps * period_ns, e->v[0]);
			/* Cores go off before their domain, on after it. */
			if (e->v[2] < COREGROUP)
				ASSERT_EQ(0, l2 | tiler) TH_LOG("event %zu", i);
			if (e->v[2] < STACKS)
				ASSERT_EQ(0, shader) TH_LOG("event %zu", i);
			if (e->v[2] == STACKS)
				ASSERT_EQ(1, l2 & tiler) TH_LOG("event %zu", i);
			/* ... and in the same step, right next to it. */
			ASSERT_TRUE(domain_neighbours(&self->trace, i))
			TH_LOG("event %zu: %d -> %d", i, (int)e->v[1],
			       (int)e->v[2]);
			level = e->v[2];
			last_ns = e->v[0];
			transitions++;
			break;
		case PM_STATUS:
			ASSERT_EQ(SIM_GPU_ID, e->v[0]);
			if (e->v[1] == CORE_SHADER) {
				mask = &shader;
				ASSERT_TRUE(!e->v[2] ||
					    valid_shader_mask(e->v[2]))
				TH_LOG("shader mask %#llx",
				       (unsigned long long)e->v[2]);
				if (e->v[2])
					ASSERT_EQ(STACKS, level);
			} else {
				ASSERT_TRUE(e->v[1] == CORE_L2 ||
					    e->v[1] == CORE_TILER)
				TH_LOG("core type %#llx",
				       (unsigned long long)e->v[1]);
				mask = e->v[1] == CORE_L2 ? &l2 : &tiler;
				ASSERT_GE(1, e->v[2]);
				if (e->v[2])
					ASSERT_LE(COREGROUP, level);
			}
			/* Reported only when it changes. */
			ASSERT_NE(*mask, e->v[2]) TH_LOG("event %zu", i);
			*mask = e->v[2];
			masks++;
			break;
		case PRESSURE:
			ASSERT_GT(VT_MAX_CPUS, e->v[0]);
			ASSERT_TRUE(possible[e->v[0]]);
			/* 256 per PPM level, 896 under hardware throttling. */
			ASSERT_TRUE(e->v[1] == 0 || e->v[1] == 256 ||
				    e->v[1] == 512 || e->v[1] == 768 ||
				    e->v[1] == 896)
			TH_LOG("pressure %llu", (unsigned long long)e->v[1]);
			ASSERT_NE(pressure[e->v[0]], e->v[1]);
			pressure[e->v[0]] = e->v[1];
			pressures++;
			break;
		case ARM_UPDATE:
			ASSERT_TRUE(!strcmp(e->name, self->tmu[0]) ||
				    !strcmp(e->name, self->tmu[1]) ||
				    !strcmp(e->name, self->tmu[2]) ||
				    !strcmp(e->name, self->tmu[3]))
			TH_LOG("tmu %s", e->name);
			/* The GPU's zone never throttles CPUs. */
			if (!strcmp(e->name, self->tmu[3]))
				ASSERT_EQ(0, e->v[0]);
			/* Hysteresis holds a level at or above its clear level. */
			ASSERT_GE(1, e->v[0]);
			ASSERT_LE(e->v[2], e->v[1]);
			ASSERT_GE(3, e->v[1]);
			ASSERT_LE(e->v[4], e->v[3]);
			ASSERT_GE(2, e->v[3]);
			updates++;
			break;
		}
	}
	TH_LOG("%zu transitions, %zu masks, %zu tmu updates, %zu pressures",
	       transitions, masks, updates, pressures);
	EXPECT_LE(2000, transitions);
	EXPECT_LE(1000, masks);
	EXPECT_LT(0, updates);
	EXPECT_LT(0, pressures);
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ULL + ts.tv_nsec / 1000000;
}

/* running=1 steps every period_ms; running=0 returns with stepping over. */
TEST_F(sim, periodic)
{
	struct vt_consumed seen;
	uint64_t running, s1, s2, t0, elapsed_ms;

	ASSERT_EQ(0, vt_ctl_write("sim/seed", "3"));
	ASSERT_EQ(0, vt_ctl_write("sim/period_ms", "10"));
	t0 = now_ms();
	ASSERT_EQ(0, vt_ctl_write("sim/running", "1"));
	ASSERT_EQ(0, vt_ctl_read_u64("sim/running", &running));
	EXPECT_EQ(1, running);
	usleep(500000);
	ASSERT_EQ(0, vt_ctl_write("sim/running", "0"));
	elapsed_ms = now_ms() - t0;
	ASSERT_EQ(0, vt_ctl_read_u64("sim/running", &running));
	EXPECT_EQ(0, running);
	ASSERT_EQ(0, vt_ctl_read_u64("sim/steps", &s1));
	/*
	 * The first step runs at once and each next one at least a period
	 * later; allow the work five periods on average, for a slow guest.
	 */
	EXPECT_GE(elapsed_ms / 10 + 1, s1);
	EXPECT_LE(elapsed_ms / 50, s1);
	usleep(100000);
	ASSERT_EQ(0, vt_ctl_read_u64("sim/steps", &s2));
	EXPECT_EQ(s1, s2);

	self->trace.nr = 0;
	ASSERT_EQ(0,
		  vt_consume_all(&self->inst, add_event, &self->trace, &seen));
	EXPECT_LT(0, seen.records);
	EXPECT_EQ(0, self->trace.foreign);
}

/* Steps run so far, once they have started; 0 if none start in 5 s. */
static uint64_t steps_started(void)
{
	uint64_t steps = 0;
	int i;

	for (i = 0; i < 500 && !steps; i++) {
		usleep(10000);
		if (vt_ctl_read_u64("sim/steps", &steps))
			return 0;
	}
	return steps;
}

/*
 * While a write of the most steps runs, stopping and configuring the
 * simulator return at once and the run goes on; a signal the writer
 * catches (not a fatal one) ends the write with EINTR at once.
 */
TEST_F(sim, long_step_yields_and_is_interruptible)
{
	uint64_t t0, s1, s2, s3, s4, ms;
	char max[32];
	pid_t pid;
	int ret;

	ASSERT_EQ(0, vt_ctl_write("sim/seed", "5"));
	snprintf(max, sizeof(max), "%d", STEPS_PER_WRITE_MAX);
	pid = vt_writer_start("sim/step", max);
	ASSERT_LT(0, pid);
	ASSERT_LT(0, steps_started());

	t0 = now_ms();
	EXPECT_EQ(0, vt_ctl_write("sim/period_ms", "100"));
	EXPECT_EQ(0, vt_ctl_write("sim/running", "1"));
	EXPECT_EQ(0, vt_ctl_write("sim/running", "0"));
	ms = now_ms() - t0;
	TH_LOG("period_ms=100, running=1, running=0 took %llu ms",
	       (unsigned long long)ms);
	EXPECT_GT(500, ms);
	ASSERT_EQ(0, vt_ctl_read_u64("sim/steps", &s1));
	usleep(100000);
	ASSERT_EQ(0, vt_ctl_read_u64("sim/steps", &s2));
	EXPECT_LT(s1, s2) TH_LOG("the run ended or stalled");

	t0 = now_ms();
	ASSERT_EQ(0, kill(pid, SIGUSR1));
	ret = vt_writer_wait(pid, 2000);
	ms = now_ms() - t0;
	if (ret == -ETIMEDOUT) {
		kill(pid, SIGKILL);
		vt_writer_wait(pid, 60000);
	}
	EXPECT_EQ(EINTR, ret);
	TH_LOG("the write ended %llu ms after SIGUSR1", (unsigned long long)ms);
	EXPECT_GT(500, ms);
	ASSERT_EQ(0, vt_ctl_read_u64("sim/steps", &s3));
	EXPECT_GT(STEPS_PER_WRITE_MAX, s3);
	usleep(50000);
	ASSERT_EQ(0, vt_ctl_read_u64("sim/steps", &s4));
	EXPECT_EQ(s3, s4);
	TH_LOG("%llu of %d steps ran", (unsigned long long)s3,
	       STEPS_PER_WRITE_MAX);
}

/* Out-of-range control values are refused and change nothing. */
TEST_F(sim, bad_values)
{
	uint64_t val;

	EXPECT_EQ(-ERANGE, vt_ctl_write("sim/period_ms", "0"));
	EXPECT_EQ(-ERANGE, vt_ctl_write("sim/period_ms", "60001"));
	EXPECT_EQ(-EINVAL, vt_ctl_write("sim/period_ms", "fast"));
	EXPECT_EQ(0, vt_ctl_write("sim/period_ms", "60000"));
	ASSERT_EQ(0, vt_ctl_read_u64("sim/period_ms", &val));
	EXPECT_EQ(60000, val);
	EXPECT_EQ(-ERANGE, vt_ctl_write("sim/running", "2"));
	ASSERT_EQ(0, vt_ctl_write("sim/seed", "9"));
	EXPECT_EQ(-ERANGE, vt_ctl_write("sim/step", "0"));
	EXPECT_EQ(-E2BIG, vt_ctl_write("sim/step", "1000001"));
	EXPECT_EQ(-E2BIG, vt_ctl_write("sim/step", "10000000"));
	EXPECT_EQ(-E2BIG, vt_ctl_write("sim/step", "0xffffffffffffffff"));
	ASSERT_EQ(0, vt_ctl_read_u64("sim/steps", &val));
	EXPECT_EQ(0, val);
}

/* The default build is loaded with default parameters. */
TEST_F(sim, default_parameters)
{
	char buf[32];

	ASSERT_LT(0, vt_read("/sys/module/vtrace/parameters/sim_autostart", buf,
			     sizeof(buf)));
	EXPECT_STREQ("N\n", buf);
	ASSERT_LT(0, vt_read("/sys/module/vtrace/parameters/sim_period_ms", buf,
			     sizeof(buf)));
	EXPECT_STREQ("100\n", buf);
	ASSERT_LT(0, vt_read("/sys/module/vtrace/parameters/sim_seed", buf,
			     sizeof(buf)));
	EXPECT_STREQ("1\n", buf);
	EXPECT_EQ(0, self->saved.running);
}

TEST_HARNESS_MAIN
