// SPDX-License-Identifier: GPL-2.0
/*
 * Unloading is safe at any moment: 100 insmod/rmmod cycles, each removing
 * vtrace.ko while its events are enabled, the simulator steps every
 * millisecond, a burst is running and one reader per CPU is blocked in
 * trace_pipe_raw.  No new taint (warning, oops, lockup), and no slab growth
 * beyond noise.  Leaves the default build loaded with default parameters.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "vtrace_test.h"
#include "writer.h"

#define WARMUP_CYCLES 3
#define CYCLES 100
#define LOAD_PARAMS "sim_autostart=1 sim_period_ms=1"

/* Taint flags a kernel problem sets: B(ad page), D(ie), W(arn), L(ockup). */
#define TAINT_PROBLEMS ((1 << 5) | (1 << 7) | (1 << 9) | (1 << 14))

/*
 * Unreclaimable slab growth allowed over CYCLES cycles.  SUnreclaim counts
 * slab pages, not objects, so two quiescent points differ by whole slabs
 * even without a leak: up to an order-3 (32 kB) slab in each of a few busy
 * kmalloc caches; 4-36 kB was measured on the rig's kernels.  128 kB, four
 * such slabs, still catches a leak of 1.3 kB or more per load/unload cycle:
 * one debugfs file (dentry plus inode, about 1 kB) with anything else, an
 * event's trace_event_file, or a kthread's task_struct.
 *
 * A growth beyond that is confirmed before it fails the test: a leak grows
 * again over a second batch of CYCLES cycles, whereas a one-off step (a
 * kmalloc cache taking one more order-3 slab on each of several CPUs, as
 * 5.10 arm64 was seen to do) does not repeat.
 */
#define SLAB_TOLERANCE_KB 128

struct reader {
	pthread_t tid;
	int fd;
	atomic_bool stop;
	uint64_t bytes;
};

static void wake(int sig)
{
	(void)sig;
}

/* Blocking reads of one CPU's trace_pipe_raw until told to stop. */
static void *reader_thread(void *arg)
{
	struct reader *r = arg;
	char *buf = malloc(1 << 16);
	ssize_t n;

	while (buf && !atomic_load(&r->stop)) {
		n = read(r->fd, buf, 1 << 16);
		if (n > 0)
			r->bytes += n;
	}
	free(buf);
	return NULL;
}

FIXTURE(load_unload)
{
	struct vt_tracing inst;
	struct reader reader[VT_MAX_CPUS];
	bool online[VT_MAX_CPUS];
	int nr_online;
};

FIXTURE_SETUP(load_unload)
{
	const char *why = vt_skip_reason();
	struct sigaction sa = { .sa_handler = wake };

	if (why)
		SKIP(return, "%s", why);
	if (!vt_ko(false) || !vt_exists(vt_ko(false)))
		SKIP(return, "VTRACE_KO does not name the default build");
	self->nr_online = vt_cpus("online", self->online);
	ASSERT_LT(0, self->nr_online);
	/* No SA_RESTART: the signal ends a reader's blocking read(). */
	ASSERT_EQ(0, sigaction(SIGUSR1, &sa, NULL));
	ASSERT_EQ(0, vt_instance_create(&self->inst, "load_unload"));
}

static void stop_readers(FIXTURE_DATA(load_unload) * self)
{
	int cpu;

	for (cpu = 0; cpu < VT_MAX_CPUS; cpu++) {
		struct reader *r = &self->reader[cpu];

		if (!r->tid)
			continue;
		atomic_store(&r->stop, true);
		while (pthread_tryjoin_np(r->tid, NULL) == EBUSY) {
			pthread_kill(r->tid, SIGUSR1);
			usleep(1000);
		}
		r->tid = 0;
		close(r->fd);
	}
}

FIXTURE_TEARDOWN(load_unload)
{
	stop_readers(self);
	EXPECT_EQ(0, vt_instance_destroy(&self->inst));
	EXPECT_EQ(0, vt_module_restore_default());
}

static void start_readers(struct __test_metadata *_metadata,
			  FIXTURE_DATA(load_unload) * self)
{
	char rel[64], path[PATH_MAX];
	int cpu;

	for (cpu = 0; cpu < VT_MAX_CPUS; cpu++) {
		struct reader *r = &self->reader[cpu];

		if (!self->online[cpu])
			continue;
		snprintf(rel, sizeof(rel), "per_cpu/cpu%d/trace_pipe_raw", cpu);
		ASSERT_EQ(0, vt_tracing_file(&self->inst, rel, path,
					     sizeof(path)));
		r->fd = open(path, O_RDONLY | O_CLOEXEC);
		ASSERT_LE(0, r->fd);
		ASSERT_EQ(0, pthread_create(&r->tid, NULL, reader_thread, r));
	}
}

/* Number of tasks whose name starts with @prefix. */
static int count_tasks(const char *prefix)
{
	char path[PATH_MAX], comm[64];
	struct dirent *de;
	int n = 0;
	DIR *proc = opendir("/proc");

	if (!proc)
		return -1;
	while ((de = readdir(proc))) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", de->d_name);
		if (vt_read(path, comm, sizeof(comm)) > 0 &&
		    !strncmp(comm, prefix, strlen(prefix)))
			n++;
	}
	closedir(proc);
	return n;
}

/* Drop reclaimable caches, let RCU frees finish, then read a counter. */
static uint64_t settled_kb(struct __test_metadata *_metadata, const char *key)
{
	uint64_t kb;

	sync();
	EXPECT_EQ(0, vt_write_str("/proc/sys/vm/drop_caches", "3"));
	usleep(500000);
	EXPECT_EQ(0, vt_write_str("/proc/sys/vm/drop_caches", "3"));
	EXPECT_EQ(0, vt_meminfo_kb(key, &kb));
	return kb;
}

/* One load, everything running, and an unload in the middle of it. */
static void cycle(struct __test_metadata *_metadata,
		  FIXTURE_DATA(load_unload) * self, int i)
{
	char tfs[PATH_MAX], state[32];
	uint64_t running;

	ASSERT_EQ(0, vt_module_load(vt_ko(false), LOAD_PARAMS))
	TH_LOG("cycle %d", i);
	ASSERT_EQ(0, vt_tracing_enable(&self->inst, "mali", true));
	ASSERT_EQ(0, vt_tracing_enable(&self->inst, "thermal_exynos", true));
	ASSERT_EQ(0, vt_ctl_write("burst/start", "100000000"));
	ASSERT_EQ(0, vt_ctl_read_u64("sim/running", &running));
	ASSERT_EQ(1, running);
	usleep(5000 + (i % 10) * 1000);
	ASSERT_EQ(0,
		  vt_ctl_status("burst/status", "state", state, sizeof(state)));
	ASSERT_STREQ("running", state) TH_LOG("cycle %d", i);
	ASSERT_EQ(self->nr_online, count_tasks("vtrace_burst/"));

	ASSERT_EQ(0, vt_module_unload()) TH_LOG("cycle %d", i);
	ASSERT_FALSE(vt_module_loaded());
	snprintf(tfs, sizeof(tfs), "%s/events/mali", vt_tracefs());
	ASSERT_FALSE(vt_exists(tfs));
	ASSERT_FALSE(vt_exists(VT_DEBUGFS));
}

/* Runs CYCLES cycles and returns the growth of SUnreclaim over them. */
static int64_t slab_growth_kb(struct __test_metadata *_metadata,
			      FIXTURE_DATA(load_unload) * self, int first)
{
	uint64_t before, after;
	int i;

	before = settled_kb(_metadata, "SUnreclaim");
	for (i = 0; i < CYCLES; i++)
		cycle(_metadata, self, first + i);
	after = settled_kb(_metadata, "SUnreclaim");
	TH_LOG("SUnreclaim %llu kB -> %llu kB over %d cycles",
	       (unsigned long long)before, (unsigned long long)after, CYCLES);
	return (int64_t)after - (int64_t)before;
}

TEST_F_TIMEOUT(load_unload, under_load, 330)
{
	uint64_t taint_before, taint_after;
	int64_t growth;
	uint64_t bytes = 0;
	int i, cpu;

	ASSERT_EQ(0, vt_tainted(&taint_before));
	ASSERT_EQ(0, vt_module_unload());
	ASSERT_EQ(0, vt_tracing_write(&self->inst, "buffer_size_kb", "256"));
	start_readers(_metadata, self);

	for (i = 0; i < WARMUP_CYCLES; i++)
		cycle(_metadata, self, i);
	growth = slab_growth_kb(_metadata, self, WARMUP_CYCLES);
	if (growth > SLAB_TOLERANCE_KB)
		growth =
			slab_growth_kb(_metadata, self, WARMUP_CYCLES + CYCLES);

	stop_readers(self);
	for (cpu = 0; cpu < VT_MAX_CPUS; cpu++)
		bytes += self->reader[cpu].bytes;
	ASSERT_EQ(0, vt_tainted(&taint_after));

	TH_LOG("readers got %llu bytes", (unsigned long long)bytes);
	EXPECT_LT(0, bytes);
	EXPECT_EQ(0, count_tasks("vtrace_burst/"));
	EXPECT_EQ(0, (taint_after & ~taint_before) & TAINT_PROBLEMS)
	TH_LOG("taint %#llx -> %#llx", (unsigned long long)taint_before,
	       (unsigned long long)taint_after);
	EXPECT_GE(SLAB_TOLERANCE_KB, growth);
}

/* An open control file pins the module: rmmod is refused, not unsafe. */
TEST_F(load_unload, open_file_pins_module)
{
	int fd = open(VT_DEBUGFS "/sim/steps", O_RDONLY | O_CLOEXEC);

	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, syscall(SYS_delete_module, VT_MODULE_NAME, O_NONBLOCK));
	EXPECT_EQ(EWOULDBLOCK, errno);
	EXPECT_TRUE(vt_module_loaded());
	close(fd);
	EXPECT_EQ(0, vt_module_unload());
	EXPECT_FALSE(vt_module_loaded());
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ULL + ts.tv_nsec / 1000000;
}

/*
 * During a long sim/step write, rmmod is refused at once (the writer's
 * open file pins the module); a signal the writer catches ends the write
 * at once, and then rmmod succeeds.
 */
TEST_F(load_unload, rmmod_during_long_step)
{
	uint64_t steps = 0, t0, ms;
	pid_t pid;
	int i, ret;

	pid = vt_writer_start("sim/step", "1000000");
	ASSERT_LT(0, pid);
	for (i = 0; i < 500 && !steps; i++) {
		usleep(10000);
		ASSERT_EQ(0, vt_ctl_read_u64("sim/steps", &steps));
	}
	ASSERT_LT(0, steps);

	t0 = now_ms();
	EXPECT_EQ(-1, syscall(SYS_delete_module, VT_MODULE_NAME, O_NONBLOCK));
	EXPECT_EQ(EWOULDBLOCK, errno);
	EXPECT_GT(500, now_ms() - t0);

	t0 = now_ms();
	ASSERT_EQ(0, kill(pid, SIGUSR1));
	ret = vt_writer_wait(pid, 2000);
	if (ret == -ETIMEDOUT) {
		kill(pid, SIGKILL);
		vt_writer_wait(pid, 60000);
	}
	EXPECT_EQ(EINTR, ret);
	EXPECT_EQ(0, vt_module_unload());
	ms = now_ms() - t0;
	TH_LOG("write ended and module unloaded %llu ms after SIGUSR1",
	       (unsigned long long)ms);
	EXPECT_GT(1000, ms);
	EXPECT_FALSE(vt_module_loaded());
}

/* A bad parameter fails the load cleanly; a fresh load has the defaults. */
TEST_F(load_unload, parameters)
{
	uint64_t val;

	ASSERT_EQ(0, vt_module_unload());
	EXPECT_EQ(-EINVAL, vt_module_load(vt_ko(false), "sim_period_ms=0"));
	EXPECT_FALSE(vt_module_loaded());
	EXPECT_FALSE(vt_exists(VT_DEBUGFS));
	ASSERT_EQ(0, vt_module_load(vt_ko(false), ""));
	ASSERT_EQ(0, vt_ctl_read_u64("sim/running", &val));
	EXPECT_EQ(0, val);
	ASSERT_EQ(0, vt_ctl_read_u64("sim/period_ms", &val));
	EXPECT_EQ(100, val);
	ASSERT_EQ(0, vt_ctl_read_u64("sim/seed", &val));
	EXPECT_EQ(1, val);
	ASSERT_EQ(0, vt_ctl_read_u64("sim/steps", &val));
	EXPECT_EQ(0, val);
}

TEST_HARNESS_MAIN
