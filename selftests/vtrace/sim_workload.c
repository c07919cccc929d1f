// SPDX-License-Identifier: GPL-2.0
/*
 * The simulator's GPU workload (module/sim.c, struct sim_workload): for a
 * seed and a number of steps the text of every event it emits is exactly
 * the same on every kernel and arch (a digest of the trace text and the
 * count of each event, checked against the values below), the CSF MCU
 * moves only along the edges of kbase's state machine, and jobs, JIT
 * regions, page faults and KCPU waits pair up.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "vtrace_test.h"

/*
 * The golden run: seed 1234, 1000 steps of 100 ms, on two possible CPUs
 * (the rig's guests; thermal_cpu_pressure has an event per CPU), with the
 * default zone names (a bound vtrace,sim device is unbound for it).
 */
#define DT_DRIVER "/sys/bus/platform/drivers/vtrace"
#define DT_DEVICE "vtrace-sim"
#define GOLDEN_SEED "1234"
#define GOLDEN_STEPS "1000"
#define GOLDEN_CPUS 2
#define GOLDEN_DIGEST 0x290c4cde155b4ca7ULL

static const struct {
	const char *event;
	int count;
} golden_counts[] = {
	{ "gpu_power_state", 295 },
	{ "mali_pm_status", 570 },
	{ "thermal_cpu_pressure", 30 },
	{ "thermal_exynos_arm_update", 432 },
	{ "mali_job_slots_event", 1589 },
	{ "mali_jit_alloc", 223 },
	{ "mali_jit_free", 217 },
	{ "mali_mmu_page_fault_grow", 383 },
	{ "mali_page_fault_insert_pages", 383 },
	{ "mali_total_alloc_pages_change", 823 },
	{ "mali_KCPU_FENCE_WAIT_START", 240 },
	{ "mali_KCPU_FENCE_WAIT_END", 240 },
	{ "mali_KCPU_CQS_WAIT_START", 240 },
	{ "mali_KCPU_CQS_WAIT_END", 240 },
	{ "mali_KCPU_CQS_SET", 240 },
	{ "mali_KCPU_FENCE_SIGNAL", 240 },
	{ "thermal_exynos_power_allocator", 1596 },
	{ "thermal_exynos_power_allocator_pid", 1596 },
	{ "mali_PM_MCU_OFF", 10 },
	{ "mali_PM_MCU_PEND_ON_RELOAD", 11 },
	{ "mali_PM_MCU_ON_GLB_REINIT_PEND", 11 },
	{ "mali_PM_MCU_ON_HWCNT_ENABLE", 42 },
	{ "mali_PM_MCU_ON", 243 },
	{ "mali_PM_MCU_ON_CORE_ATTR_UPDATE_PEND", 201 },
	{ "mali_PM_MCU_ON_HWCNT_DISABLE", 41 },
	{ "mali_PM_MCU_ON_HALT", 10 },
	{ "mali_PM_MCU_ON_PEND_HALT", 10 },
	{ "mali_PM_MCU_POWER_DOWN", 10 },
	{ "mali_PM_MCU_PEND_OFF", 10 },
	{ "mali_PM_MCU_ON_SLEEP_INITIATE", 17 },
	{ "mali_PM_MCU_ON_PEND_SLEEP", 17 },
	{ "mali_PM_MCU_IN_SLEEP", 17 },
};

#define STEP_CHUNK 500

/* FNV-1a, 64 bits. */
static uint64_t fnv1a(uint64_t h, const char *p, size_t len)
{
	while (len--) {
		h ^= (unsigned char)*p++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

FIXTURE(sim_workload)
{
	struct vt_tracing inst;
	struct vt_sim_saved saved;
	int cpu;
};

FIXTURE_SETUP(sim_workload)
{
	bool online[VT_MAX_CPUS];
	const char *why = vt_skip_reason();

	if (why)
		SKIP(return, "%s", why);
	ASSERT_EQ(0, vt_sim_save(&self->saved));
	ASSERT_EQ(0, vt_ctl_write("sim/running", "0"));
	ASSERT_EQ(0, vt_ctl_write("sim/period_ms", "100"));
	ASSERT_LT(0, vt_cpus("online", online));
	for (self->cpu = 0; !online[self->cpu]; self->cpu++)
		;
	ASSERT_EQ(0, vt_pin_cpu(self->cpu));
	ASSERT_EQ(0, vt_instance_create(&self->inst, "sim_workload"));
	ASSERT_EQ(0, vt_tracing_write(&self->inst, "buffer_size_kb", "4096"));
	ASSERT_EQ(0, vt_tracing_enable(&self->inst, "mali", true));
	ASSERT_EQ(0, vt_tracing_enable(&self->inst, "thermal_exynos", true));
}

FIXTURE_TEARDOWN(sim_workload)
{
	EXPECT_EQ(0, vt_instance_destroy(&self->inst));
	EXPECT_EQ(0, vt_sim_restore(&self->saved));
}

/*
 * "EVENT: TEXT" of a trace line "COMM-PID [CPU] FLAGS TIMESTAMP: EVENT:
 * TEXT", or NULL for a comment.
 */
static const char *event_text(const char *line)
{
	const char *p = strstr(line, "] ");

	if (line[0] == '#' || !p)
		return NULL;
	p = strstr(p, ": ");
	return p ? p + 2 : NULL;
}

TEST_F(sim_workload, golden_trace)
{
	char path[PATH_MAX], name[64], *text, *line, *next, *colon;
	uint64_t digest = 0xcbf29ce484222325ULL;
	struct vt_cpu_stats st;
	int counts[ARRAY_SIZE(golden_counts)] = { 0 };
	size_t len, i;
	int lines = 0, other = 0, ret;
	const char *ev;
	bool bound;

	if (vt_nr_cpus("possible") != GOLDEN_CPUS)
		SKIP(return, "not %d possible CPUs", GOLDEN_CPUS);
	bound = vt_exists(DT_DRIVER "/" DT_DEVICE);
	if (bound)
		ASSERT_EQ(0, vt_write_str(DT_DRIVER "/unbind", DT_DEVICE));
	ASSERT_EQ(0, vt_tracing_clear(&self->inst));
	ASSERT_EQ(0, vt_ctl_write("sim/seed", GOLDEN_SEED));
	ret = vt_ctl_write("sim/step", GOLDEN_STEPS);
	if (bound)
		ASSERT_EQ(0, vt_write_str(DT_DRIVER "/bind", DT_DEVICE));
	ASSERT_EQ(0, ret);
	ASSERT_EQ(0, vt_total_stats(&self->inst, &st));
	ASSERT_EQ(0, st.overrun);

	ASSERT_EQ(0, vt_tracing_file(&self->inst, "trace", path, sizeof(path)));
	text = vtrace_read_all(path, &len);
	ASSERT_NE(NULL, text);
	for (line = text; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		ev = event_text(line);
		if (!ev)
			continue;
		digest = fnv1a(digest, ev, strlen(ev) + 1);
		lines++;
		colon = strchr(ev, ':');
		for (i = 0; i < ARRAY_SIZE(golden_counts); i++)
			if (colon &&
			    (size_t)(colon - ev) ==
				    strlen(golden_counts[i].event) &&
			    !strncmp(ev, golden_counts[i].event, colon - ev))
				break;
		if (i < ARRAY_SIZE(golden_counts))
			counts[i]++;
		else
			other++;
	}
	free(text);
	TH_LOG("seed %s, %s steps: %d events, digest %#llx", GOLDEN_SEED,
	       GOLDEN_STEPS, lines, (unsigned long long)digest);
	EXPECT_EQ(st.entries, (uint64_t)lines);
	for (i = 0; i < ARRAY_SIZE(golden_counts); i++) {
		snprintf(name, sizeof(name), "%s", golden_counts[i].event);
		EXPECT_EQ(golden_counts[i].count, counts[i]) TH_LOG("%s", name);
	}
	EXPECT_EQ(0, other);
	EXPECT_EQ(GOLDEN_DIGEST, digest);
}

/*
 * kbase's MCU states the simulator uses (mali_PM_MCU_*), and the edges of
 * its state machine between them: up from OFF through the firmware reload
 * to ON, the core attribute update and back, down through the counter
 * disable to sleep or to off, and back up from the counter disable or
 * from sleep.
 */
static const char *const mcu_states[] = {
	"OFF",
	"PEND_ON_RELOAD",
	"ON_GLB_REINIT_PEND",
	"ON_HWCNT_ENABLE",
	"ON",
	"ON_CORE_ATTR_UPDATE_PEND",
	"ON_HWCNT_DISABLE",
	"ON_HALT",
	"ON_PEND_HALT",
	"POWER_DOWN",
	"PEND_OFF",
	"ON_SLEEP_INITIATE",
	"ON_PEND_SLEEP",
	"IN_SLEEP",
};

static const char *const mcu_edges[][2] = {
	{ "OFF", "PEND_ON_RELOAD" },
	{ "PEND_ON_RELOAD", "ON_GLB_REINIT_PEND" },
	{ "ON_GLB_REINIT_PEND", "ON_HWCNT_ENABLE" },
	{ "ON_HWCNT_ENABLE", "ON" },
	{ "ON", "ON_CORE_ATTR_UPDATE_PEND" },
	{ "ON_CORE_ATTR_UPDATE_PEND", "ON" },
	{ "ON", "ON_HWCNT_DISABLE" },
	{ "ON_HWCNT_DISABLE", "ON_HWCNT_ENABLE" },
	{ "ON_HWCNT_DISABLE", "ON_HALT" },
	{ "ON_HALT", "ON_PEND_HALT" },
	{ "ON_PEND_HALT", "POWER_DOWN" },
	{ "POWER_DOWN", "PEND_OFF" },
	{ "PEND_OFF", "OFF" },
	{ "ON_HWCNT_DISABLE", "ON_SLEEP_INITIATE" },
	{ "ON_SLEEP_INITIATE", "ON_PEND_SLEEP" },
	{ "ON_PEND_SLEEP", "IN_SLEEP" },
	{ "IN_SLEEP", "ON_HWCNT_ENABLE" },
};

#define NR_MCU ARRAY_SIZE(mcu_states)

enum other_kind {
	JOB,
	JIT_ALLOC,
	JIT_FREE,
	GROW,
	TOTAL,
	WAIT_START,
	WAIT_END,
	CQS_SET,
	NR_OTHER
};

static const char *const other_events[NR_OTHER][2] = {
	[JOB] = { "mali_job_slots_event" },
	[JIT_ALLOC] = { "mali_jit_alloc" },
	[JIT_FREE] = { "mali_jit_free" },
	[GROW] = { "mali_mmu_page_fault_grow" },
	[TOTAL] = { "mali_total_alloc_pages_change" },
	[WAIT_START] = { "mali_KCPU_CQS_WAIT_START" },
	[WAIT_END] = { "mali_KCPU_CQS_WAIT_END" },
	[CQS_SET] = { "mali_KCPU_CQS_SET" },
};

struct jit_region {
	uint64_t start, pages, backed;
};

/* What the workload's events say, checked as they are read. */
struct workload {
	struct vt_format mcu_fmt[NR_MCU], fmt[NR_OTHER];
	int mcu;
	bool edge[NR_MCU][NR_MCU];
	uint64_t transitions, bad_edges, edges_seen[NR_MCU][NR_MCU];
	uint64_t slot_job[2], jobs, bad_jobs;
	struct jit_region jit[256];
	uint64_t total, allocs, frees, grows, bad_jit;
	uint64_t cqs_set, cqs_waiting, waits, bad_waits;
};

static int mcu_index(const char *name)
{
	size_t i;

	for (i = 0; i < NR_MCU && strcmp(mcu_states[i], name); i++)
		;
	return i < NR_MCU ? (int)i : -1;
}

static uint64_t field(const struct vt_format *f, const char *name,
		      const struct vt_record *rec)
{
	return vt_get_u64(vt_field(f, name), rec->data);
}

static void check_job(struct workload *w, const struct vt_record *rec)
{
	const struct vt_format *f = &w->fmt[JOB];
	uint64_t event = field(f, "event_id", rec),
		 id = field(f, "job_id", rec);
	unsigned int type = event >> 24, slot = (event >> 16) & 0xff;

	if (slot > 1 || !id) {
		w->bad_jobs++;
		return;
	}
	if (type == 1) { /* START on an idle slot */
		w->bad_jobs += w->slot_job[slot] != 0;
		w->slot_job[slot] = id;
		w->jobs++;
	} else if (type == 2) { /* STOP of the slot's job */
		w->bad_jobs += w->slot_job[slot] != id;
		w->slot_job[slot] = 0;
	} else {
		w->bad_jobs++;
	}
}

static void check_jit(struct workload *w, int k, const struct vt_record *rec)
{
	const struct vt_format *f = &w->fmt[k];
	struct jit_region *r;
	uint64_t start;

	if (k == TOTAL) {
		w->bad_jit += (uint64_t)vt_get_s64(vt_field(f, "event_id"),
						   rec->data) != w->total;
		return;
	}
	start = field(f, "start_addr", rec);
	if (k == GROW) {
		/* Grows a live region at its first unbacked page. */
		for (r = w->jit; r < w->jit + 256 && r->start != start; r++)
			;
		if (r == w->jit + 256 || !r->pages ||
		    field(f, "fault_addr", rec) != start + r->backed * 4096 ||
		    r->backed + field(f, "new_pages", rec) > r->pages) {
			w->bad_jit++;
			return;
		}
		r->backed += field(f, "new_pages", rec);
		w->total += field(f, "new_pages", rec);
		w->grows++;
		return;
	}
	r = &w->jit[field(f, "jit_id", rec)];
	if (k == JIT_ALLOC) {
		w->bad_jit += r->pages != 0 || !field(f, "jit_id", rec);
		r->start = start;
		r->pages = field(f, "nr_pages", rec);
		r->backed = field(f, "backed_pages", rec);
		w->bad_jit += r->backed > r->pages;
		w->total += r->backed;
		w->allocs++;
	} else {
		w->bad_jit += r->start != start ||
			      r->pages != field(f, "nr_pages", rec) ||
			      r->backed != field(f, "backed_pages", rec);
		w->total -= r->backed;
		memset(r, 0, sizeof(*r));
		w->frees++;
	}
}

static void check_kcpu(struct workload *w, int k, const struct vt_record *rec)
{
	uint64_t value = field(&w->fmt[k], "info_val2", rec);

	if (k == CQS_SET) {
		w->cqs_set = value;
	} else if (k == WAIT_START) {
		w->bad_waits += w->cqs_waiting != 0;
		w->cqs_waiting = value;
		w->waits++;
	} else {
		/* A wait ends on its own value, once it was set. */
		w->bad_waits += w->cqs_waiting != value || w->cqs_set != value;
		w->cqs_waiting = 0;
	}
}

static void check_record(const struct vt_record *rec, void *arg)
{
	struct workload *w = arg;
	size_t k;

	for (k = 0; k < NR_MCU; k++) {
		if ((int)rec->type != w->mcu_fmt[k].id)
			continue;
		if (!w->edge[w->mcu][k])
			w->bad_edges++;
		w->edges_seen[w->mcu][k]++;
		w->mcu = k;
		w->transitions++;
		return;
	}
	for (k = 0; k < NR_OTHER && (int)rec->type != w->fmt[k].id; k++)
		;
	if (k == JOB)
		check_job(w, rec);
	else if (k >= JIT_ALLOC && k <= TOTAL)
		check_jit(w, k, rec);
	else if (k < NR_OTHER)
		check_kcpu(w, k, rec);
}

/*
 * 20000 steps: every MCU transition is an edge of the state machine and
 * every edge is taken; each job starts on an idle slot and stops there;
 * JIT frees, grows and the total page count match the allocations; each
 * CQS wait ends on the value set for it.
 */
TEST_F_TIMEOUT(sim_workload, invariants, 200)
{
	struct workload *w = calloc(1, sizeof(*w));
	struct vt_consumed seen;
	struct vt_cpu_stats st;
	char name[64];
	size_t i, j;
	int done;

	ASSERT_NE(NULL, w);
	for (i = 0; i < NR_MCU; i++) {
		snprintf(name, sizeof(name), "mali_PM_MCU_%s", mcu_states[i]);
		ASSERT_EQ(0, vt_format_load("mali", name, &w->mcu_fmt[i]));
	}
	for (i = 0; i < ARRAY_SIZE(mcu_edges); i++)
		w->edge[mcu_index(mcu_edges[i][0])][mcu_index(mcu_edges[i][1])] =
			true;
	for (i = 0; i < NR_OTHER; i++)
		ASSERT_EQ(0, vt_format_load("mali", other_events[i][0],
					    &w->fmt[i]));

	ASSERT_EQ(0, vt_tracing_clear(&self->inst));
	ASSERT_EQ(0, vt_ctl_write("sim/seed", "7"));
	for (done = 0; done < 20000; done += STEP_CHUNK) {
		ASSERT_EQ(0, vt_ctl_write("sim/step", "500"));
		ASSERT_EQ(0, vt_total_stats(&self->inst, &st));
		ASSERT_EQ(0, st.overrun);
		ASSERT_EQ(0, vt_consume_cpu(&self->inst, self->cpu,
					    check_record, w, &seen));
		ASSERT_EQ(0, seen.missed_pages);
	}
	TH_LOG("%llu MCU transitions, %llu jobs, %llu CQS waits",
	       (unsigned long long)w->transitions, (unsigned long long)w->jobs,
	       (unsigned long long)w->waits);
	TH_LOG("JIT: %llu allocations, %llu frees, %llu grows",
	       (unsigned long long)w->allocs, (unsigned long long)w->frees,
	       (unsigned long long)w->grows);
	EXPECT_EQ(0, w->bad_edges);
	for (i = 0; i < NR_MCU; i++)
		for (j = 0; j < NR_MCU; j++) {
			if (!w->edge[i][j])
				continue;
			snprintf(name, sizeof(name), "%s -> %s", mcu_states[i],
				 mcu_states[j]);
			EXPECT_LT(0, w->edges_seen[i][j])
			TH_LOG("never taken: %s", name);
		}
	EXPECT_EQ(0, w->bad_jobs);
	EXPECT_EQ(0, w->bad_jit);
	EXPECT_EQ(0, w->bad_waits);
	EXPECT_LT(1000, w->jobs);
	EXPECT_LT(100, w->allocs);
	EXPECT_LT(100, w->grows);
	EXPECT_LT(100, w->waits);
	free(w);
}

TEST_HARNESS_MAIN
