// SPDX-License-Identifier: GPL-2.0
/*
 * Deterministic simulator of a Mali GPU and the Exynos TMUs, for boards and
 * VMs without the vendor drivers.
 *
 * Each step advances a simulated clock by period_ms, moves the simulated
 * loads by a random walk drawn from the simulator's own seeded PRNG, and
 * emits the events a real GPU and thermal driver would emit for the new
 * state.  Nothing depends on wall-clock time or on which events are
 * enabled, so a reset to a seed followed by N steps always gives the same
 * event sequence, change_ns included.  The model and its invariants are
 * described in Documentation/vtrace-module.rst.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/prandom.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/time64.h>
#include <linux/workqueue.h>

#include <trace/events/mali.h>
#include <trace/events/thermal_exynos.h>

#include "debug.h"
#include "vtrace.h"

static bool sim_autostart;
module_param(sim_autostart, bool, 0444);
MODULE_PARM_DESC(sim_autostart, "Start the simulator at load time");

static unsigned int sim_period_ms = 100;
module_param(sim_period_ms, uint, 0444);
MODULE_PARM_DESC(sim_period_ms, "Initial simulator step period, 1..60000 ms");

static unsigned long long sim_seed = 1;
module_param(sim_seed, ullong, 0444);
MODULE_PARM_DESC(sim_seed, "Initial simulator PRNG seed");

#define SIM_PERIOD_MS_MAX	60000
/* Most steps one sim/step write runs; more is refused with -E2BIG. */
#define SIM_STEPS_PER_WRITE_MAX	1000000
/*
 * Steps run under one hold of the lock by a sim/step write: a stop, a
 * control write or a periodic step waits for at most this many, and a
 * signal ends the write after at most this many more.
 */
#define SIM_STEPS_PER_LOCK	64

/* The simulated GPU: kbase device 0, one L2 slice and tiler, 7 shaders. */
#define SIM_GPU_ID		0
#define SIM_L2_PRESENT		0x1
#define SIM_TILER_PRESENT	0x1
#define SIM_SHADER_CORES	7

/*
 * The GPU's operating points, in kHz: gs101's Mali-G78.  While powered, the
 * GPU runs at the lowest one whose share of the range covers its load; off,
 * its clock keeps the last one.
 */
static const u32 sim_gpu_opps_khz[VTRACE_SIM_GPU_NR_OPPS] = {
	151000, 202000, 251000, 302000, 351000,
	400000, 471000, 572000, 701000, 848000,
};

/* Loads are percentages; each step moves each by at most SIM_LOAD_STEP. */
#define SIM_LOAD_MAX		100
#define SIM_LOAD_STEP		20

enum sim_load {
	SIM_LOAD_GPU,
	SIM_LOAD_BIG,
	SIM_LOAD_MID,
	SIM_LOAD_LITTLE,
	SIM_NR_LOADS,
};

/* Temperatures are in millidegrees Celsius. */
#define SIM_AMBIENT_MC		35000
#define SIM_HYSTERESIS_MC	5000
#define SIM_NOISE_MC		500
#define SIM_HW_TRIP_MC		98000
/* A TMU closes 1/SIM_THERMAL_LAG of the gap to its target each step. */
#define SIM_THERMAL_LAG		4

static const int sim_ppm_trips_mc[] = { 75000, 85000, 95000 };
static const int sim_mpmm_trips_mc[] = { 65000, 80000 };

/**
 * struct sim_tmu_desc - a simulated thermal management unit
 * @load:	the load that heats it
 * @gain_mc:	temperature above ambient, per load percent, at equilibrium
 * @is_cpu:	the zone throttles CPUs (is_cpu_hw_throttled can be set)
 */
struct sim_tmu_desc {
	enum sim_load load;
	int gain_mc;
	bool is_cpu;
};

enum sim_tmu_id {
	SIM_TMU_BIG,
	SIM_TMU_MID,
	SIM_TMU_LITTLE,
	SIM_TMU_GPU,
	SIM_NR_TMUS = VTRACE_SIM_NR_TMUS,
};

static const struct sim_tmu_desc sim_tmus[SIM_NR_TMUS] = {
	[SIM_TMU_BIG]	 = { SIM_LOAD_BIG,	650, true },
	[SIM_TMU_MID]	 = { SIM_LOAD_MID,	550, true },
	[SIM_TMU_LITTLE] = { SIM_LOAD_LITTLE,	400, true },
	[SIM_TMU_GPU]	 = { SIM_LOAD_GPU,	600, false },
};

/* Zone names when the device tree gives none (see of.c). */
static const char *const sim_default_tmu_name[SIM_NR_TMUS] = {
	[SIM_TMU_BIG]	 = "BIG",
	[SIM_TMU_MID]	 = "MID",
	[SIM_TMU_LITTLE] = "LITTLE",
	[SIM_TMU_GPU]	 = "GPU",
};

/* CPUs are split into clusters in the proportions of gs101: 4+2+2. */
static const enum sim_tmu_id sim_cluster_of_eighth[8] = {
	SIM_TMU_LITTLE, SIM_TMU_LITTLE, SIM_TMU_LITTLE, SIM_TMU_LITTLE,
	SIM_TMU_MID, SIM_TMU_MID, SIM_TMU_BIG, SIM_TMU_BIG,
};

/* What thermal_exynos_arm_update reports for a TMU. */
struct sim_tmu_report {
	bool hw_throttled;
	int ppm_level;
	int ppm_clr_level;
	int mpmm_level;
	int mpmm_clr_level;
};

struct sim_tmu_state {
	int temp_mc;
	struct sim_tmu_report report;
};

/*
 * The GPU's workload: one app (its process and kbase context) submitting
 * jobs to two job slots, with JIT memory regions that page faults grow,
 * KCPU queues waiting on and signalling fences and CQS objects, and the
 * CSF MCU following the GPU's power.  Drawn from a PRNG of its own, so the
 * power and thermal events of a seed do not depend on it.
 */
#define SIM_APP_TGID		4242
#define SIM_APP_PID		4257
#define SIM_KCTX_ID		1
#define SIM_WORK_SEED_XOR	0x9e3779b97f4a7c15ULL

/* mali_job_slots_event's event_id, as Gator encodes it for kbase. */
#define SIM_NR_JOB_SLOTS	2
#define SIM_JOB_EVENT(type, slot)	((u32)(type) << 24 | (u32)(slot) << 16)
#define SIM_JOB_START		1
#define SIM_JOB_STOP		2

/* JIT regions: GPU pages of 4 kB on every arch, in a VA zone of their own. */
#define SIM_NR_JIT		8
#define SIM_GPU_PAGE_SIZE	4096ULL
#define SIM_JIT_VA_BASE		0x5d00000000ULL
#define SIM_JIT_VA_ALIGN	0x200000ULL
#define SIM_JIT_MIN_PAGES	64
/* Translation fault at level 1, read access: AS_FAULTSTATUS of a grow. */
#define SIM_GROW_FAULT_STATUS	0x2c1
#define SIM_GROW_AS_NR		1
#define SIM_GROW_MAX_PAGES	64

/* KCPU queue 0 waits on a fence and sets a CQS object queue 1 waits on. */
#define SIM_KCPU_FENCE_CONTEXT	0x31
#define SIM_KCPU_SIGNAL_CONTEXT	0x32
#define SIM_KCPU_CQS_ADDR	0x5c00001000ULL

/**
 * struct sim_jit - a live JIT region
 * @id:		its jit_id, 1..SIM_NR_JIT (0: the slot is free)
 * @start_addr:	GPU VA of its first page
 * @nr_pages:	its size
 * @backed_pages: pages with memory behind them, grown by page faults
 */
struct sim_jit {
	u8 id;
	u64 start_addr;
	size_t nr_pages;
	size_t backed_pages;
};

/*
 * The CSF MCU's states, in kbase's state machine, and the ones each can
 * go to (sim_mcu_next()): up OFF -> PEND_ON_RELOAD -> ON_GLB_REINIT_PEND ->
 * ON_HWCNT_ENABLE -> ON; a new shader mask ON -> ON_CORE_ATTR_UPDATE_PEND
 * -> ON; down ON -> ON_HWCNT_DISABLE, then either to sleep
 * (ON_SLEEP_INITIATE -> ON_PEND_SLEEP -> IN_SLEEP, woken to
 * ON_HWCNT_ENABLE) or off (ON_HALT -> ON_PEND_HALT -> POWER_DOWN ->
 * PEND_OFF -> OFF); ON_HWCNT_DISABLE goes back to ON_HWCNT_ENABLE when the
 * GPU is wanted again.
 */
enum sim_mcu_state {
	SIM_MCU_OFF,
	SIM_MCU_PEND_ON_RELOAD,
	SIM_MCU_ON_GLB_REINIT_PEND,
	SIM_MCU_ON_HWCNT_ENABLE,
	SIM_MCU_ON,
	SIM_MCU_ON_CORE_ATTR_UPDATE_PEND,
	SIM_MCU_ON_HWCNT_DISABLE,
	SIM_MCU_ON_HALT,
	SIM_MCU_ON_PEND_HALT,
	SIM_MCU_POWER_DOWN,
	SIM_MCU_PEND_OFF,
	SIM_MCU_ON_SLEEP_INITIATE,
	SIM_MCU_ON_PEND_SLEEP,
	SIM_MCU_IN_SLEEP,
};

/* Percentage of MCU power-downs that go to sleep rather than off. */
#define SIM_MCU_SLEEP_PERCENT	75

/*
 * The power allocator of each zone: switched on at SIM_PA_SWITCH_ON_MC, it
 * steers the zone towards SIM_PA_CONTROL_MC with a PI controller whose
 * proportional gain gives the zone its sustainable power plus twice that
 * over the switch-on to control range.
 */
#define SIM_PA_SWITCH_ON_MC	60000
#define SIM_PA_CONTROL_MC	80000
#define SIM_PA_INTEGRAL_MAX	200000
#define SIM_PA_I_DIV		1000
#define SIM_PA_NR_CDEV_STATES	10

/* Per zone: most power it may get and the power it sustains, in mW. */
static const u32 sim_pa_max_mw[SIM_NR_TMUS] = { 5000, 3000, 1200, 6000 };
static const u32 sim_pa_sustainable_mw[SIM_NR_TMUS] = { 2000, 1200, 500, 2500 };

/**
 * struct sim_workload - the GPU's workload (see SIM_APP_TGID)
 * @rnd:	its PRNG
 * @mcu:	&enum sim_mcu_state
 * @shaders_changed: the shader mask changed in this step
 * @slot_job:	job_id running on each job slot, 0 for none
 * @next_job_id: job_id of the next job, 1..255
 * @jit:	JIT regions
 * @jit_next_va: GPU VA of the next JIT region
 * @total_pages: backed pages of all JIT regions
 * @kcpu_seqno:	fence seqno and CQS value of the current frame
 * @kcpu_waiting: the KCPU queues wait for the current frame
 * @pa_integral: each zone's power allocator's error integral
 * @pa_last_mc:	each zone's temperature at its last allocator step
 */
struct sim_workload {
	struct rnd_state rnd;
	int mcu;
	bool shaders_changed;
	u8 slot_job[SIM_NR_JOB_SLOTS];
	u8 next_job_id;
	struct sim_jit jit[SIM_NR_JIT];
	u64 jit_next_va;
	u64 total_pages;
	u64 kcpu_seqno;
	bool kcpu_waiting;
	s32 pa_integral[SIM_NR_TMUS];
	int pa_last_mc[SIM_NR_TMUS];
};

/**
 * struct vtrace_sim - the simulator
 * @ctl_lock:	serialises start and stop
 * @lock:	protects everything below, held across each step
 * @work:	periodic stepping while @running
 * @running:	periodic stepping is on
 * @period_ms:	step period, in simulated and in real time
 * @seed:	seed of the last reset
 * @rnd:	PRNG state
 * @steps:	steps since the last reset (read without @lock)
 * @now_ns:	simulated clock, @steps * period
 * @load:	simulated loads, in percent
 * @gpu_level:	current &enum mali_power_level
 * @l2_mask:	powered L2 slices
 * @tiler_mask:	powered tilers
 * @shader_mask: powered shader cores
 * @gpu_khz:	GPU clock frequency, one of sim_gpu_opps_khz
 * @tmu:	thermal state of each TMU
 * @tmu_name:	name each TMU reports (@lock, not needed to read it in a step)
 * @workload:	the GPU's workload
 */
struct vtrace_sim {
	struct mutex ctl_lock;	/* serialises start and stop */
	struct mutex lock;	/* protects the model, held across a step */
	struct delayed_work work;
	bool running;
	u32 period_ms;
	u64 seed;
	struct rnd_state rnd;
	u64 steps;
	u64 now_ns;
	int load[SIM_NR_LOADS];
	int gpu_level;
	u64 l2_mask;
	u64 tiler_mask;
	u64 shader_mask;
	u32 gpu_khz;
	struct sim_tmu_state tmu[SIM_NR_TMUS];
	const char *tmu_name[SIM_NR_TMUS];
	struct sim_workload workload;
};

/* Thermal pressure last reported for each CPU. */
static DEFINE_PER_CPU(unsigned long, sim_cpu_pressure);

static void sim_work_fn(struct work_struct *work);

static struct vtrace_sim sim = {
	.ctl_lock	= __MUTEX_INITIALIZER(sim.ctl_lock),
	.lock		= __MUTEX_INITIALIZER(sim.lock),
	.work		= __DELAYED_WORK_INITIALIZER(sim.work, sim_work_fn, 0),
};

/*
 * The kernel's thermal zones and devfreq device take the new state: each
 * zone whose temperature changed emits thermal/thermal_temperature.
 */
static void sim_publish(struct vtrace_sim *s)
{
	int id;

	for (id = 0; id < SIM_NR_TMUS; id++)
		vtrace_sim_thermal_update(id, s->tmu[id].temp_mc);
	vtrace_sim_devfreq_update(s->gpu_khz, s->load[SIM_LOAD_GPU]);
}

/* A uniformly distributed integer in [lo, hi]. */
static int sim_rand_between(struct vtrace_sim *s, int lo, int hi)
{
	return lo + (int)reciprocal_scale(prandom_u32_state(&s->rnd),
					  hi - lo + 1);
}

static void sim_reset(struct vtrace_sim *s, u64 seed)
{
	unsigned int cpu;
	int i;

	s->seed = seed;
	prandom_seed_state(&s->rnd, seed);
	WRITE_ONCE(s->steps, 0);
	s->now_ns = 0;
	for (i = 0; i < SIM_NR_LOADS; i++)
		s->load[i] = 0;
	s->gpu_level = MALI_POWER_LEVEL_OFF;
	s->l2_mask = 0;
	s->tiler_mask = 0;
	s->shader_mask = 0;
	s->gpu_khz = sim_gpu_opps_khz[0];
	for (i = 0; i < SIM_NR_TMUS; i++)
		s->tmu[i] = (struct sim_tmu_state){ .temp_mc = SIM_AMBIENT_MC };
	s->workload = (struct sim_workload){
		.mcu		= SIM_MCU_OFF,
		.next_job_id	= 1,
		.jit_next_va	= SIM_JIT_VA_BASE,
	};
	prandom_seed_state(&s->workload.rnd, seed ^ SIM_WORK_SEED_XOR);
	for (i = 0; i < SIM_NR_TMUS; i++)
		s->workload.pa_last_mc[i] = SIM_AMBIENT_MC;
	for_each_possible_cpu(cpu)
		per_cpu(sim_cpu_pressure, cpu) = 0;
	sim_publish(s);
}

static void sim_update_loads(struct vtrace_sim *s)
{
	int i;

	for (i = 0; i < SIM_NR_LOADS; i++)
		s->load[i] = clamp(s->load[i] + sim_rand_between(s, -SIM_LOAD_STEP,
								 SIM_LOAD_STEP),
				   0, SIM_LOAD_MAX);
}

/* The power level the GPU heads for at a given load. */
static int sim_gpu_wanted_level(int load)
{
	if (load < 10)
		return MALI_POWER_LEVEL_OFF;
	if (load < 30)
		return MALI_POWER_LEVEL_GLOBAL;
	if (load < 50)
		return MALI_POWER_LEVEL_COREGROUP;
	return MALI_POWER_LEVEL_STACKS;
}

/* At STACKS, one shader core at 50% load up to all of them at 100%. */
static u64 sim_shader_mask_for(int load)
{
	int cores = 1 + (max(load, 50) - 50) * (SIM_SHADER_CORES - 1) / 50;

	return GENMASK_ULL(cores - 1, 0);
}

static void sim_set_cores(struct vtrace_sim *s, u64 *cur, u32 core_type,
			  u64 mask)
{
	if (*cur == mask)
		return;
	*cur = mask;
	if (core_type == MALI_CORE_TYPE_SHADER)
		s->workload.shaders_changed = true;
	trace_mali_pm_status(SIM_GPU_ID, core_type, mask);
}

static void sim_set_gpu_level(struct vtrace_sim *s, int level)
{
	int from = s->gpu_level;

	s->gpu_level = level;
	trace_gpu_power_state(s->now_ns, from, level);
}

/*
 * One domain at a time: a domain's cores are reported powered right after
 * the level that contains them is entered, and unpowered right before that
 * level is left, so a mali_pm_status event never shows cores of a domain
 * that is off.
 */
static void sim_step_gpu(struct vtrace_sim *s)
{
	int load = s->load[SIM_LOAD_GPU];
	int wanted = sim_gpu_wanted_level(load);

	if (wanted > s->gpu_level) {
		sim_set_gpu_level(s, s->gpu_level + 1);
		if (s->gpu_level == MALI_POWER_LEVEL_COREGROUP) {
			sim_set_cores(s, &s->l2_mask, MALI_CORE_TYPE_L2,
				      SIM_L2_PRESENT);
			sim_set_cores(s, &s->tiler_mask, MALI_CORE_TYPE_TILER,
				      SIM_TILER_PRESENT);
		}
	} else if (wanted < s->gpu_level) {
		if (s->gpu_level == MALI_POWER_LEVEL_STACKS)
			sim_set_cores(s, &s->shader_mask,
				      MALI_CORE_TYPE_SHADER, 0);
		if (s->gpu_level == MALI_POWER_LEVEL_COREGROUP) {
			sim_set_cores(s, &s->tiler_mask, MALI_CORE_TYPE_TILER,
				      0);
			sim_set_cores(s, &s->l2_mask, MALI_CORE_TYPE_L2, 0);
		}
		sim_set_gpu_level(s, s->gpu_level - 1);
	}

	if (s->gpu_level == MALI_POWER_LEVEL_STACKS)
		sim_set_cores(s, &s->shader_mask, MALI_CORE_TYPE_SHADER,
			      sim_shader_mask_for(load));
}

/*
 * DVFS: no PRNG draw and no event of its own, so a seed's events are the
 * same as without it.
 */
static void sim_step_dvfs(struct vtrace_sim *s)
{
	if (s->gpu_level == MALI_POWER_LEVEL_OFF)
		return;
	s->gpu_khz = sim_gpu_opps_khz[s->load[SIM_LOAD_GPU] *
				      (VTRACE_SIM_GPU_NR_OPPS - 1) /
				      SIM_LOAD_MAX];
}

/* Number of trip points at or below @temp_mc. */
static int sim_trips_reached(const int *trips_mc, int nr_trips, int temp_mc)
{
	int level = 0;

	while (level < nr_trips && temp_mc >= trips_mc[level])
		level++;
	return level;
}

/*
 * A throttle level rises as soon as its trip point is reached, but only
 * falls once the temperature is SIM_HYSTERESIS_MC below it.  *@clr_level
 * is the level the zone would be at without hysteresis.
 */
static int sim_throttle_level(const int *trips_mc, int nr_trips, int temp_mc,
			      int level, int *clr_level)
{
	int held = sim_trips_reached(trips_mc, nr_trips,
				     temp_mc + SIM_HYSTERESIS_MC);

	*clr_level = sim_trips_reached(trips_mc, nr_trips, temp_mc);
	return max(*clr_level, min(level, held));
}

static bool sim_tmu_report_equal(const struct sim_tmu_report *a,
				 const struct sim_tmu_report *b)
{
	return a->hw_throttled == b->hw_throttled &&
	       a->ppm_level == b->ppm_level &&
	       a->ppm_clr_level == b->ppm_clr_level &&
	       a->mpmm_level == b->mpmm_level &&
	       a->mpmm_clr_level == b->mpmm_clr_level;
}

static void sim_step_tmu(struct vtrace_sim *s, enum sim_tmu_id id)
{
	const struct sim_tmu_desc *desc = &sim_tmus[id];
	struct sim_tmu_state *tmu = &s->tmu[id];
	struct sim_tmu_report next;
	int target_mc = SIM_AMBIENT_MC + s->load[desc->load] * desc->gain_mc;

	tmu->temp_mc += (target_mc - tmu->temp_mc) / SIM_THERMAL_LAG +
			sim_rand_between(s, -SIM_NOISE_MC, SIM_NOISE_MC);

	next.hw_throttled = desc->is_cpu &&
		(tmu->temp_mc >= SIM_HW_TRIP_MC ||
		 (tmu->report.hw_throttled &&
		  tmu->temp_mc >= SIM_HW_TRIP_MC - SIM_HYSTERESIS_MC));
	next.ppm_level = sim_throttle_level(sim_ppm_trips_mc,
					    ARRAY_SIZE(sim_ppm_trips_mc),
					    tmu->temp_mc, tmu->report.ppm_level,
					    &next.ppm_clr_level);
	next.mpmm_level = sim_throttle_level(sim_mpmm_trips_mc,
					     ARRAY_SIZE(sim_mpmm_trips_mc),
					     tmu->temp_mc,
					     tmu->report.mpmm_level,
					     &next.mpmm_clr_level);

	if (sim_tmu_report_equal(&next, &tmu->report))
		return;
	tmu->report = next;
	trace_thermal_exynos_arm_update(s->tmu_name[id], next.hw_throttled,
					next.ppm_level, next.ppm_clr_level,
					next.mpmm_level, next.mpmm_clr_level);
}

/*
 * Capacity lost to throttling: a quarter of SCHED_CAPACITY_SCALE per PPM
 * level, and all but an eighth of it under hardware throttling.
 */
static unsigned long sim_pressure_of(const struct sim_tmu_report *report)
{
	if (report->hw_throttled)
		return SCHED_CAPACITY_SCALE - SCHED_CAPACITY_SCALE / 8;
	return SCHED_CAPACITY_SCALE / 4 * report->ppm_level;
}

static void sim_step_pressure(struct vtrace_sim *s)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		enum sim_tmu_id id = sim_cluster_of_eighth[cpu * 8 / nr_cpu_ids];
		unsigned long pressure = sim_pressure_of(&s->tmu[id].report);

		if (per_cpu(sim_cpu_pressure, cpu) == pressure)
			continue;
		per_cpu(sim_cpu_pressure, cpu) = pressure;
		trace_thermal_cpu_pressure(pressure, cpu);
	}
}

/* A uniformly distributed integer in [0, n) from the workload's PRNG. */
static u32 sim_work_rand(struct sim_workload *w, u32 n)
{
	return reciprocal_scale(prandom_u32_state(&w->rnd), n);
}

/* Whether a chance of @percent percent came up. */
static bool sim_work_chance(struct sim_workload *w, int percent)
{
	return sim_work_rand(w, 100) < percent;
}

/* kbase traces each state the MCU enters, info being its shader mask. */
static void sim_mcu_enter(struct vtrace_sim *s, int state)
{
	u64 info_val = s->shader_mask;

	s->workload.mcu = state;
	switch (state) {
	case SIM_MCU_OFF:
		trace_mali_PM_MCU_OFF(0, 0, info_val);
		break;
	case SIM_MCU_PEND_ON_RELOAD:
		trace_mali_PM_MCU_PEND_ON_RELOAD(0, 0, info_val);
		break;
	case SIM_MCU_ON_GLB_REINIT_PEND:
		trace_mali_PM_MCU_ON_GLB_REINIT_PEND(0, 0, info_val);
		break;
	case SIM_MCU_ON_HWCNT_ENABLE:
		trace_mali_PM_MCU_ON_HWCNT_ENABLE(0, 0, info_val);
		break;
	case SIM_MCU_ON:
		trace_mali_PM_MCU_ON(0, 0, info_val);
		break;
	case SIM_MCU_ON_CORE_ATTR_UPDATE_PEND:
		trace_mali_PM_MCU_ON_CORE_ATTR_UPDATE_PEND(0, 0, info_val);
		break;
	case SIM_MCU_ON_HWCNT_DISABLE:
		trace_mali_PM_MCU_ON_HWCNT_DISABLE(0, 0, info_val);
		break;
	case SIM_MCU_ON_HALT:
		trace_mali_PM_MCU_ON_HALT(0, 0, info_val);
		break;
	case SIM_MCU_ON_PEND_HALT:
		trace_mali_PM_MCU_ON_PEND_HALT(0, 0, info_val);
		break;
	case SIM_MCU_POWER_DOWN:
		trace_mali_PM_MCU_POWER_DOWN(0, 0, info_val);
		break;
	case SIM_MCU_PEND_OFF:
		trace_mali_PM_MCU_PEND_OFF(0, 0, info_val);
		break;
	case SIM_MCU_ON_SLEEP_INITIATE:
		trace_mali_PM_MCU_ON_SLEEP_INITIATE(0, 0, info_val);
		break;
	case SIM_MCU_ON_PEND_SLEEP:
		trace_mali_PM_MCU_ON_PEND_SLEEP(0, 0, info_val);
		break;
	case SIM_MCU_IN_SLEEP:
		trace_mali_PM_MCU_IN_SLEEP(0, 0, info_val);
		break;
	}
}

/* The state the MCU goes to next, or its own when it stays. */
static int sim_mcu_next(struct vtrace_sim *s, bool wanted)
{
	struct sim_workload *w = &s->workload;

	switch (w->mcu) {
	case SIM_MCU_OFF:
		return wanted ? SIM_MCU_PEND_ON_RELOAD : SIM_MCU_OFF;
	case SIM_MCU_PEND_ON_RELOAD:
		return SIM_MCU_ON_GLB_REINIT_PEND;
	case SIM_MCU_ON_GLB_REINIT_PEND:
		return SIM_MCU_ON_HWCNT_ENABLE;
	case SIM_MCU_ON_HWCNT_ENABLE:
	case SIM_MCU_ON_CORE_ATTR_UPDATE_PEND:
		return SIM_MCU_ON;
	case SIM_MCU_ON:
		if (!wanted)
			return SIM_MCU_ON_HWCNT_DISABLE;
		return w->shaders_changed ? SIM_MCU_ON_CORE_ATTR_UPDATE_PEND :
					    SIM_MCU_ON;
	case SIM_MCU_ON_HWCNT_DISABLE:
		if (wanted)
			return SIM_MCU_ON_HWCNT_ENABLE;
		return sim_work_chance(w, SIM_MCU_SLEEP_PERCENT) ?
		       SIM_MCU_ON_SLEEP_INITIATE : SIM_MCU_ON_HALT;
	case SIM_MCU_ON_HALT:
		return SIM_MCU_ON_PEND_HALT;
	case SIM_MCU_ON_PEND_HALT:
		return SIM_MCU_POWER_DOWN;
	case SIM_MCU_POWER_DOWN:
		return SIM_MCU_PEND_OFF;
	case SIM_MCU_PEND_OFF:
		return SIM_MCU_OFF;
	case SIM_MCU_ON_SLEEP_INITIATE:
		return SIM_MCU_ON_PEND_SLEEP;
	case SIM_MCU_ON_PEND_SLEEP:
		return SIM_MCU_IN_SLEEP;
	case SIM_MCU_IN_SLEEP:
		return wanted ? SIM_MCU_ON_HWCNT_ENABLE : SIM_MCU_IN_SLEEP;
	}
	return w->mcu;
}

/* One MCU transition a step at most, wanted while the GPU is powered. */
static void sim_step_mcu(struct vtrace_sim *s)
{
	int next = sim_mcu_next(s, s->gpu_level >= MALI_POWER_LEVEL_GLOBAL);

	if (next != s->workload.mcu)
		sim_mcu_enter(s, next);
	s->workload.shaders_changed = false;
}

/*
 * Each slot's job ends in the step after it started; a slot then takes a
 * new job with a chance of the GPU's load, while the GPU renders.
 */
static void sim_step_jobs(struct vtrace_sim *s)
{
	struct sim_workload *w = &s->workload;
	bool rendering = s->gpu_level >= MALI_POWER_LEVEL_COREGROUP;
	int slot;

	for (slot = 0; slot < SIM_NR_JOB_SLOTS; slot++) {
		if (w->slot_job[slot]) {
			trace_mali_job_slots_event(SIM_GPU_ID,
						   SIM_JOB_EVENT(SIM_JOB_STOP, slot),
						   SIM_APP_TGID, SIM_APP_PID,
						   w->slot_job[slot]);
			w->slot_job[slot] = 0;
		}
		if (!rendering ||
		    !sim_work_chance(w, s->load[SIM_LOAD_GPU]))
			continue;
		w->slot_job[slot] = w->next_job_id;
		w->next_job_id = w->next_job_id == U8_MAX ? 1 :
			w->next_job_id + 1;
		trace_mali_job_slots_event(SIM_GPU_ID,
					   SIM_JOB_EVENT(SIM_JOB_START, slot),
					   SIM_APP_TGID, SIM_APP_PID,
					   w->slot_job[slot]);
	}
}

static void sim_jit_pages_changed(struct sim_workload *w, s64 delta)
{
	w->total_pages += delta;
	trace_mali_total_alloc_pages_change(SIM_GPU_ID, w->total_pages);
}

/* A free region's slot (its id 0), or a live one's, chosen at random. */
static struct sim_jit *sim_jit_pick(struct sim_workload *w, bool live)
{
	struct sim_jit *found[SIM_NR_JIT];
	int i, n = 0;

	for (i = 0; i < SIM_NR_JIT; i++)
		if (!!w->jit[i].id == live)
			found[n++] = &w->jit[i];
	return n ? found[sim_work_rand(w, n)] : NULL;
}

/*
 * While the GPU renders: a JIT allocation with a chance of its load, of
 * 64..512 pages with a quarter backed; a page fault that grows a region
 * not fully backed, and the pages it inserts; a free with the chance of
 * the remaining load.  Below COREGROUP every region is freed.
 */
static void sim_step_jit(struct vtrace_sim *s)
{
	struct sim_workload *w = &s->workload;
	int load = s->load[SIM_LOAD_GPU];
	bool rendering = s->gpu_level >= MALI_POWER_LEVEL_COREGROUP;
	struct sim_jit *jit;
	size_t grow;

	if (rendering && sim_work_chance(w, load)) {
		jit = sim_jit_pick(w, false);
		if (jit) {
			jit->id = jit - w->jit + 1;
			jit->nr_pages = SIM_JIT_MIN_PAGES << sim_work_rand(w, 4);
			jit->backed_pages = jit->nr_pages / 4;
			jit->start_addr = w->jit_next_va;
			w->jit_next_va += ALIGN(jit->nr_pages * SIM_GPU_PAGE_SIZE,
						SIM_JIT_VA_ALIGN);
			trace_mali_jit_alloc(jit->start_addr, jit->nr_pages,
					     jit->backed_pages, jit->id);
			sim_jit_pages_changed(w, jit->backed_pages);
		}
	}

	jit = rendering ? sim_jit_pick(w, true) : NULL;
	if (jit && jit->backed_pages < jit->nr_pages) {
		grow = min_t(size_t, jit->nr_pages - jit->backed_pages,
			     1 + sim_work_rand(w, SIM_GROW_MAX_PAGES));
		trace_mali_mmu_page_fault_grow(jit->start_addr,
					       jit->start_addr +
					       jit->backed_pages *
					       SIM_GPU_PAGE_SIZE,
					       0, grow, SIM_GROW_FAULT_STATUS);
		trace_mali_page_fault_insert_pages(SIM_GPU_ID, SIM_GROW_AS_NR,
						   grow);
		jit->backed_pages += grow;
		sim_jit_pages_changed(w, grow);
	}

	while ((jit = sim_jit_pick(w, true)) &&
	       (!rendering || sim_work_chance(w, SIM_LOAD_MAX - load))) {
		trace_mali_jit_free(jit->start_addr, jit->nr_pages,
				    jit->backed_pages, jit->id);
		sim_jit_pages_changed(w, -(s64)jit->backed_pages);
		jit->id = 0;
		if (rendering)
			break;
	}
}

/*
 * A frame while the GPU renders, with a chance of its load: queue 0 waits
 * for the app's fence, queue 1 for a CQS object; in the next step queue
 * 0's wait ends and it sets the object, which ends queue 1's wait, and
 * queue 1 signals the frame's fence.
 */
static void sim_step_kcpu(struct vtrace_sim *s)
{
	struct sim_workload *w = &s->workload;
	u64 seq;

	if (w->kcpu_waiting) {
		seq = w->kcpu_seqno;
		trace_mali_KCPU_FENCE_WAIT_END(SIM_KCPU_FENCE_CONTEXT, seq,
					       SIM_APP_TGID, SIM_KCTX_ID, 0);
		trace_mali_KCPU_CQS_SET(SIM_KCPU_CQS_ADDR, seq, SIM_APP_TGID,
					SIM_KCTX_ID, 0);
		trace_mali_KCPU_CQS_WAIT_END(SIM_KCPU_CQS_ADDR, seq,
					     SIM_APP_TGID, SIM_KCTX_ID, 1);
		trace_mali_KCPU_FENCE_SIGNAL(SIM_KCPU_SIGNAL_CONTEXT, seq,
					     SIM_APP_TGID, SIM_KCTX_ID, 1);
		w->kcpu_waiting = false;
		return;
	}
	if (s->gpu_level < MALI_POWER_LEVEL_COREGROUP ||
	    !sim_work_chance(w, s->load[SIM_LOAD_GPU]))
		return;
	seq = ++w->kcpu_seqno;
	trace_mali_KCPU_FENCE_WAIT_START(SIM_KCPU_FENCE_CONTEXT, seq,
					 SIM_APP_TGID, SIM_KCTX_ID, 0);
	trace_mali_KCPU_CQS_WAIT_START(SIM_KCPU_CQS_ADDR, seq, SIM_APP_TGID,
				       SIM_KCTX_ID, 1);
	w->kcpu_waiting = true;
}

/*
 * One power-allocator step of each zone at or above its switch-on
 * temperature: the PI controller's terms, then the power it allows and
 * the cooling state that gives.  Below switch-on the integral is reset.
 */
static void sim_step_power_allocator(struct vtrace_sim *s)
{
	struct sim_workload *w = &s->workload;
	const int range_mc = SIM_PA_CONTROL_MC - SIM_PA_SWITCH_ON_MC;
	int id;

	for (id = 0; id < SIM_NR_TMUS; id++) {
		int temp_mc = s->tmu[id].temp_mc;
		u32 max_mw = sim_pa_max_mw[id];
		s32 err = SIM_PA_CONTROL_MC - temp_mc, output;
		s64 p, i;
		u32 power;

		if (temp_mc < SIM_PA_SWITCH_ON_MC) {
			w->pa_integral[id] = 0;
			w->pa_last_mc[id] = temp_mc;
			continue;
		}
		w->pa_integral[id] = clamp(w->pa_integral[id] + err,
					   -SIM_PA_INTEGRAL_MAX,
					   SIM_PA_INTEGRAL_MAX);
		p = div_s64((s64)err * 2 * sim_pa_sustainable_mw[id], range_mc);
		i = w->pa_integral[id] / SIM_PA_I_DIV;
		output = p + i;
		power = clamp_t(s64, (s64)sim_pa_sustainable_mw[id] + output, 0,
				max_mw);
		trace_thermal_exynos_power_allocator_pid(id, err,
							 w->pa_integral[id],
							 p, i, output);
		trace_thermal_exynos_power_allocator(id, power, max_mw, temp_mc,
						     temp_mc - w->pa_last_mc[id],
						     (max_mw - power) *
						     SIM_PA_NR_CDEV_STATES /
						     max_mw,
						     s->tmu[id].report.hw_throttled);
		w->pa_last_mc[id] = temp_mc;
	}
}

static void sim_step(struct vtrace_sim *s)
{
	int id;

	lockdep_assert_held(&s->lock);

	WRITE_ONCE(s->steps, s->steps + 1);
	s->now_ns += (u64)s->period_ms * NSEC_PER_MSEC;
	sim_update_loads(s);
	vtrace_dbg(VTRACE_DBG_SIM,
		   "vtrace: sim step %llu loads gpu=%d big=%d mid=%d little=%d\n",
		   s->steps, s->load[SIM_LOAD_GPU], s->load[SIM_LOAD_BIG],
		   s->load[SIM_LOAD_MID], s->load[SIM_LOAD_LITTLE]);

	sim_step_gpu(s);
	sim_step_dvfs(s);
	sim_step_mcu(s);
	sim_step_jobs(s);
	sim_step_jit(s);
	sim_step_kcpu(s);
	for (id = 0; id < SIM_NR_TMUS; id++)
		sim_step_tmu(s, id);
	sim_step_pressure(s);
	sim_step_power_allocator(s);
	sim_publish(s);
}

static void sim_work_fn(struct work_struct *work)
{
	struct vtrace_sim *s = container_of(to_delayed_work(work),
					    struct vtrace_sim, work);

	mutex_lock(&s->lock);
	if (s->running) {
		sim_step(s);
		schedule_delayed_work(&s->work,
				      msecs_to_jiffies(s->period_ms));
	}
	mutex_unlock(&s->lock);
}

static void sim_start(struct vtrace_sim *s)
{
	mutex_lock(&s->ctl_lock);
	mutex_lock(&s->lock);
	if (!s->running) {
		s->running = true;
		schedule_delayed_work(&s->work, 0);
	}
	mutex_unlock(&s->lock);
	mutex_unlock(&s->ctl_lock);
}

/* Returns once no step runs and none is queued. */
static void sim_stop(struct vtrace_sim *s)
{
	mutex_lock(&s->ctl_lock);
	mutex_lock(&s->lock);
	s->running = false;
	mutex_unlock(&s->lock);
	cancel_delayed_work_sync(&s->work);
	mutex_unlock(&s->ctl_lock);
}

static int sim_run_steps(struct vtrace_sim *s, u64 nr_steps)
{
	u64 done = 0, batch;
	int ret = 0;

	for (;;) {
		batch = min_t(u64, nr_steps - done, SIM_STEPS_PER_LOCK);
		mutex_lock(&s->lock);
		for (; batch; batch--, done++)
			sim_step(s);
		mutex_unlock(&s->lock);
		if (done == nr_steps)
			break;
		if (signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		cond_resched();
	}
	vtrace_dbg(VTRACE_DBG_CONTROL, "vtrace: sim ran %llu steps\n", done);
	return ret;
}

static int sim_running_get(void *data, u64 *val)
{
	struct vtrace_sim *s = data;

	*val = READ_ONCE(s->running);
	return 0;
}

static int sim_running_set(void *data, u64 val)
{
	struct vtrace_sim *s = data;

	if (val > 1)
		return -ERANGE;
	vtrace_dbg(VTRACE_DBG_CONTROL, "vtrace: sim running=%llu\n", val);
	if (val)
		sim_start(s);
	else
		sim_stop(s);
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE(sim_running_fops, sim_running_get, sim_running_set,
			 "%llu\n");

static int sim_period_get(void *data, u64 *val)
{
	struct vtrace_sim *s = data;

	*val = READ_ONCE(s->period_ms);
	return 0;
}

static int sim_period_set(void *data, u64 val)
{
	struct vtrace_sim *s = data;

	if (val < 1 || val > SIM_PERIOD_MS_MAX)
		return -ERANGE;
	mutex_lock(&s->lock);
	s->period_ms = val;
	mutex_unlock(&s->lock);
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE(sim_period_fops, sim_period_get, sim_period_set,
			 "%llu\n");

static int sim_seed_get(void *data, u64 *val)
{
	struct vtrace_sim *s = data;

	mutex_lock(&s->lock);
	*val = s->seed;
	mutex_unlock(&s->lock);
	return 0;
}

static int sim_seed_set(void *data, u64 val)
{
	struct vtrace_sim *s = data;

	mutex_lock(&s->lock);
	sim_reset(s, val);
	mutex_unlock(&s->lock);
	vtrace_dbg(VTRACE_DBG_CONTROL, "vtrace: sim reset, seed %llu\n", val);
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE(sim_seed_fops, sim_seed_get, sim_seed_set, "%llu\n");

static int sim_step_set(void *data, u64 val)
{
	if (val < 1)
		return -ERANGE;
	if (val > SIM_STEPS_PER_WRITE_MAX)
		return -E2BIG;
	return sim_run_steps(data, val);
}

DEFINE_DEBUGFS_ATTRIBUTE(sim_step_fops, NULL, sim_step_set, "%llu\n");

/*
 * Without the lock: a long sim/step write takes it back right after each
 * batch, and under a single-threaded TCG guest a reader waiting for it
 * could wait for the whole run.
 */
static int sim_steps_get(void *data, u64 *val)
{
	struct vtrace_sim *s = data;

	*val = READ_ONCE(s->steps);
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE(sim_steps_fops, sim_steps_get, NULL, "%llu\n");

static ssize_t sim_tmu_names_read(struct file *file, char __user *buf,
				  size_t count, loff_t *ppos)
{
	struct vtrace_sim *s = file->private_data;
	char names[SIM_NR_TMUS * (VTRACE_TMU_NAME_MAX_LEN + 1) + 1];
	int len = 0;
	int i;

	mutex_lock(&s->lock);
	for (i = 0; i < SIM_NR_TMUS; i++)
		len += scnprintf(names + len, sizeof(names) - len, "%s%c",
				 s->tmu_name[i], i + 1 < SIM_NR_TMUS ? ' ' : '\n');
	mutex_unlock(&s->lock);
	return simple_read_from_buffer(buf, count, ppos, names, len);
}

static const struct file_operations sim_tmu_names_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= sim_tmu_names_read,
	.llseek	= default_llseek,
};

/* The state the kernel's thermal zones and devfreq device follow. */
static int sim_state_show(struct seq_file *m, void *unused)
{
	struct vtrace_sim *s = m->private;
	int i;

	mutex_lock(&s->lock);
	seq_printf(m, "steps: %llu\ntemp_mc:", s->steps);
	for (i = 0; i < SIM_NR_TMUS; i++)
		seq_printf(m, " %d", s->tmu[i].temp_mc);
	seq_printf(m, "\ngpu_load: %d\ngpu_freq_khz: %u\n",
		   s->load[SIM_LOAD_GPU], s->gpu_khz);
	mutex_unlock(&s->lock);
	return 0;
}

DEFINE_SHOW_ATTRIBUTE(sim_state);

/**
 * vtrace_sim_set_tmu_names() - name the simulated thermal zones
 * @names: VTRACE_SIM_NR_TMUS names, for the big, mid and little CPU
 *	clusters and the GPU, each valid by vtrace_tmu_name_valid(); NULL
 *	for the defaults (BIG, MID, LITTLE, GPU)
 *
 * The strings must stay valid until the names are set again.  Takes
 * effect from the next step on; the kernel's thermal zones, if any, are
 * registered again with the new names as their types.
 */
void vtrace_sim_set_tmu_names(const char *const *names)
{
	mutex_lock(&sim.lock);
	memcpy(sim.tmu_name, names ?: sim_default_tmu_name,
	       sizeof(sim.tmu_name));
	vtrace_sim_thermal_rename(sim.tmu_name);
	mutex_unlock(&sim.lock);
}

int vtrace_sim_init(struct dentry *root)
{
	struct dentry *dir;
	int ret;

	if (sim_period_ms < 1 || sim_period_ms > SIM_PERIOD_MS_MAX) {
		pr_err("sim_period_ms=%u is outside 1..%u\n", sim_period_ms,
		       SIM_PERIOD_MS_MAX);
		return -EINVAL;
	}
	sim.period_ms = sim_period_ms;
	sim_reset(&sim, sim_seed);
	vtrace_sim_set_tmu_names(NULL);
	/* Before the control files: no step runs yet. */
	mutex_lock(&sim.lock);
	ret = vtrace_sim_thermal_init(sim.tmu_name);
	mutex_unlock(&sim.lock);
	if (ret)
		return ret;
	ret = vtrace_sim_devfreq_init(sim_gpu_opps_khz);
	if (ret)
		return ret;

	dir = debugfs_create_dir("sim", root);
	debugfs_create_file_unsafe("running", 0600, dir, &sim,
				   &sim_running_fops);
	debugfs_create_file_unsafe("period_ms", 0600, dir, &sim,
				   &sim_period_fops);
	debugfs_create_file_unsafe("seed", 0600, dir, &sim, &sim_seed_fops);
	debugfs_create_file_unsafe("step", 0200, dir, &sim, &sim_step_fops);
	debugfs_create_file_unsafe("steps", 0400, dir, &sim, &sim_steps_fops);
	debugfs_create_file("tmu_names", 0400, dir, &sim, &sim_tmu_names_fops);
	debugfs_create_file("state", 0400, dir, &sim, &sim_state_fops);

	if (sim_autostart)
		sim_start(&sim);
	return 0;
}

/* Safe on a partly initialised simulator. */
void vtrace_sim_exit(void)
{
	sim_stop(&sim);
	vtrace_sim_devfreq_exit();
	mutex_lock(&sim.lock);
	vtrace_sim_thermal_exit();
	mutex_unlock(&sim.lock);
}
