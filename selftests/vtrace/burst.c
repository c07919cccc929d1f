// SPDX-License-Identifier: GPL-2.0
/*
 * The burst generator (debugfs vtrace/burst/): N mali_pm_status events per
 * online CPU, counted exactly by the ring buffer's own per-CPU counters
 * when the buffer is large enough, each CPU's sequence 0..N-1 complete and
 * in order; start while running is refused; stop cancels.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "vtrace_test.h"

#define BURST_EVENT_ID 0x10000 /* module/vtrace.h VTRACE_BURST_EVENT_ID */
#define BURST_PER_CPU 50000
/*
 * A mali_pm_status record takes 28 bytes (4 header + 24 payload) plus an
 * occasional 8-byte time extend: 50000 of them need about 1.5 MB per CPU.
 */
#define BURST_BUFFER_KB "4096"

static const char *status(struct __test_metadata *_metadata, const char *key)
{
	static char val[64];

	EXPECT_EQ(0, vt_ctl_status("burst/status", key, val, sizeof(val)))
	TH_LOG("no %s in burst/status", key);
	return val;
}

/* Wait until the burst leaves "running"; returns the final state. */
static const char *wait_burst(struct __test_metadata *_metadata, int seconds)
{
	int i;

	for (i = 0; i < seconds * 100; i++) {
		if (strcmp(status(_metadata, "state"), "running"))
			break;
		usleep(10000);
	}
	return status(_metadata, "state");
}

struct per_cpu_seq {
	const struct vt_format *f;
	uint64_t expect[VT_MAX_CPUS]; /* next value expected per CPU */
	uint64_t out_of_order, wrong_cpu, wrong_id, foreign;
};

static void check_seq(const struct vt_record *rec, void *arg)
{
	struct per_cpu_seq *s = arg;
	uint64_t gpu, ev, val;

	if ((int)rec->type != s->f->id) {
		s->foreign++;
		return;
	}
	gpu = vt_get_u64(vt_field(s->f, "gpu_id"), rec->data);
	ev = vt_get_u64(vt_field(s->f, "event_id"), rec->data);
	val = vt_get_u64(vt_field(s->f, "value"), rec->data);
	if (gpu != (uint64_t)rec->cpu)
		s->wrong_cpu++;
	if (ev != BURST_EVENT_ID)
		s->wrong_id++;
	if (val != s->expect[rec->cpu])
		s->out_of_order++;
	s->expect[rec->cpu] = val + 1;
}

FIXTURE(burst)
{
	struct vt_tracing inst;
	struct vt_format f;
	uint64_t saved_running;
};

FIXTURE_SETUP(burst)
{
	const char *why = vt_skip_reason();

	if (why)
		SKIP(return, "%s", why);
	ASSERT_EQ(0, vt_format_load("mali", "mali_pm_status", &self->f));
	/* Only burst events in the buffer: the simulator also emits these. */
	ASSERT_EQ(0, vt_ctl_read_u64("sim/running", &self->saved_running));
	ASSERT_EQ(0, vt_ctl_write("sim/running", "0"));
	ASSERT_EQ(0, vt_instance_create(&self->inst, "burst"));
	ASSERT_EQ(0, vt_tracing_write(&self->inst, "buffer_size_kb",
				      BURST_BUFFER_KB));
	ASSERT_EQ(0,
		  vt_tracing_enable(&self->inst, "mali/mali_pm_status", true));
}

FIXTURE_TEARDOWN(burst)
{
	EXPECT_EQ(0, vt_ctl_write("burst/stop", "1"));
	EXPECT_EQ(0, vt_instance_destroy(&self->inst));
	EXPECT_EQ(0,
		  vt_ctl_write("sim/running", self->saved_running ? "1" : "0"));
}

TEST_F_TIMEOUT(burst, exact_count, 120)
{
	bool online[VT_MAX_CPUS], possible[VT_MAX_CPUS];
	int cpu, nr_online = vt_cpus("online", online);
	struct per_cpu_seq *seq;
	struct vt_cpu_stats st;
	struct vt_consumed seen;
	char val[32];

	ASSERT_LT(0, nr_online);
	ASSERT_LT(0, vt_cpus("possible", possible));
	snprintf(val, sizeof(val), "%d", BURST_PER_CPU);
	ASSERT_EQ(0, vt_ctl_write("burst/start", val));
	ASSERT_STREQ("done", wait_burst(_metadata, 90));
	EXPECT_EQ(BURST_PER_CPU,
		  strtoull(status(_metadata, "per_cpu"), NULL, 10));
	EXPECT_EQ(nr_online, atoi(status(_metadata, "cpus")));
	EXPECT_EQ((uint64_t)BURST_PER_CPU * nr_online,
		  strtoull(status(_metadata, "emitted"), NULL, 10));
	EXPECT_LT(0, strtoull(status(_metadata, "elapsed_ns"), NULL, 10));

	/* The ring buffer's own counters: all there, nothing overwritten. */
	for (cpu = 0; cpu < VT_MAX_CPUS; cpu++) {
		if (!possible[cpu])
			continue;
		ASSERT_EQ(0, vt_cpu_stats(&self->inst, cpu, &st));
		EXPECT_EQ(online[cpu] ? BURST_PER_CPU : 0, st.entries)
		TH_LOG("cpu %d", cpu);
		EXPECT_EQ(0, st.overrun) TH_LOG("cpu %d", cpu);
		EXPECT_EQ(0, st.commit_overrun) TH_LOG("cpu %d", cpu);
		EXPECT_EQ(0, st.dropped) TH_LOG("cpu %d", cpu);
	}

	/* Each CPU's buffer holds gpu_id = cpu, value = 0..N-1 in order. */
	seq = calloc(1, sizeof(*seq));
	ASSERT_NE(NULL, seq);
	seq->f = &self->f;
	ASSERT_EQ(0, vt_consume_all(&self->inst, check_seq, seq, &seen));
	EXPECT_EQ((uint64_t)BURST_PER_CPU * nr_online, seen.records);
	EXPECT_EQ(0, seen.missed_pages);
	EXPECT_EQ(0, seq->foreign);
	EXPECT_EQ(0, seq->wrong_cpu);
	EXPECT_EQ(0, seq->wrong_id);
	EXPECT_EQ(0, seq->out_of_order);
	for (cpu = 0; cpu < VT_MAX_CPUS; cpu++)
		EXPECT_EQ(online[cpu] ? BURST_PER_CPU : 0, seq->expect[cpu])
	TH_LOG("cpu %d", cpu);
	free(seq);
}

/* A second start while running is -EBUSY; stop cancels and waits. */
TEST_F(burst, busy_and_stop)
{
	struct vt_cpu_stats a, b;
	uint64_t emitted;
	int nr_online = vt_nr_cpus("online");

	ASSERT_EQ(0, vt_ctl_write("burst/start", "100000000"));
	EXPECT_STREQ("running", status(_metadata, "state"));
	EXPECT_EQ(-EBUSY, vt_ctl_write("burst/start", "10"));
	EXPECT_STREQ("100000000", status(_metadata, "per_cpu"));
	usleep(100000);
	ASSERT_EQ(0, vt_ctl_write("burst/stop", "1"));
	EXPECT_STREQ("stopped", status(_metadata, "state"));
	emitted = strtoull(status(_metadata, "emitted"), NULL, 10);
	EXPECT_LT(0, emitted);
	EXPECT_GT(100000000ULL * nr_online, emitted);

	/* Stopped means stopped: nothing more arrives. */
	ASSERT_EQ(0, vt_total_stats(&self->inst, &a));
	usleep(200000);
	ASSERT_EQ(0, vt_total_stats(&self->inst, &b));
	EXPECT_EQ(a.entries, b.entries);
	EXPECT_EQ(a.overrun, b.overrun);
	EXPECT_EQ(emitted, strtoull(status(_metadata, "emitted"), NULL, 10));

	/* A new burst may start once stopped. */
	ASSERT_EQ(0, vt_ctl_write("burst/start", "10"));
	EXPECT_STREQ("done", wait_burst(_metadata, 30));
	EXPECT_EQ(10ULL * nr_online,
		  strtoull(status(_metadata, "emitted"), NULL, 10));
}

TEST_F(burst, bad_counts)
{
	EXPECT_EQ(-ERANGE, vt_ctl_write("burst/start", "0"));
	EXPECT_EQ(-ERANGE, vt_ctl_write("burst/start", "100000001"));
	EXPECT_EQ(-EINVAL, vt_ctl_write("burst/start", "many"));
	EXPECT_STRNE("running", status(_metadata, "state"));
}

TEST_HARNESS_MAIN
