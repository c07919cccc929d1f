// SPDX-License-Identifier: GPL-2.0
/*
 * Burst generator: N mali_pm_status events per online CPU, emitted as fast
 * as possible by one kthread bound to each CPU.  The load for ring buffer
 * reader benchmarks and stress tests.
 *
 * Burst event i (0..N-1) of CPU c is mali_pm_status with gpu_id = c,
 * event_id = VTRACE_BURST_EVENT_ID and value = i, so a reader can check
 * that it got every event exactly once and in order.
 */
#include <linux/atomic.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/seq_file.h>

#include <trace/events/mali.h>

#include "debug.h"
#include "vtrace.h"

#define BURST_PER_CPU_MAX	100000000UL
/* Events between two checks for kthread_stop() and rescheduling. */
#define BURST_BATCH		1024

enum burst_state {
	BURST_IDLE,
	BURST_RUNNING,
	BURST_DONE,
	BURST_STOPPED,
};

static const char * const burst_state_names[] = {
	[BURST_IDLE]	= "idle",
	[BURST_RUNNING]	= "running",
	[BURST_DONE]	= "done",
	[BURST_STOPPED]	= "stopped",
};

/**
 * struct burst_worker - the burst thread of one CPU
 * @task:	the thread, NULL when there is none
 * @cpu:	the CPU it is bound to, the gpu_id of its events
 * @emitted:	events emitted so far, published every BURST_BATCH events
 */
struct burst_worker {
	struct task_struct *task;
	unsigned int cpu;
	unsigned long emitted;
};

static DEFINE_PER_CPU(struct burst_worker, burst_workers);

/**
 * struct vtrace_burst - the burst generator
 * @lock:	serialises start, stop and status
 * @state:	as last set under @lock; RUNNING turns into DONE by itself
 * @cpus:	CPUs that have a burst thread
 * @per_cpu:	events per CPU of the current or last burst
 * @unfinished:	threads still emitting
 * @start_ns:	when the threads were woken
 * @end_ns:	when the last thread finished, 0 before that
 */
struct vtrace_burst {
	struct mutex lock;	/* serialises start, stop and status */
	enum burst_state state;
	struct cpumask cpus;
	unsigned long per_cpu;
	atomic_t unfinished;
	u64 start_ns;
	u64 end_ns;
};

static struct vtrace_burst burst = {
	.lock	= __MUTEX_INITIALIZER(burst.lock),
	.state	= BURST_IDLE,
};

static void burst_wait_for_stop(void)
{
	set_current_state(TASK_INTERRUPTIBLE);
	while (!kthread_should_stop()) {
		schedule();
		set_current_state(TASK_INTERRUPTIBLE);
	}
	__set_current_state(TASK_RUNNING);
}

static int burst_thread(void *data)
{
	struct burst_worker *worker = data;
	unsigned int cpu = worker->cpu;
	unsigned long nr_events = burst.per_cpu;
	unsigned long i;

	vtrace_dbg(VTRACE_DBG_BURST, "vtrace: burst cpu %u: %lu events\n",
		   cpu, nr_events);
	for (i = 0; i < nr_events; i++) {
		trace_mali_pm_status(cpu, VTRACE_BURST_EVENT_ID, i);
		if ((i + 1) % BURST_BATCH)
			continue;
		WRITE_ONCE(worker->emitted, i + 1);
		if (kthread_should_stop())
			return 0;
		cond_resched();
	}
	WRITE_ONCE(worker->emitted, i);
	vtrace_dbg(VTRACE_DBG_BURST, "vtrace: burst cpu %u finished\n", cpu);

	if (atomic_dec_and_test(&burst.unfinished)) {
		/*
		 * Pairs with burst_current_state(): a reader that sees
		 * end_ns also sees every thread's final count.
		 */
		smp_store_release(&burst.end_ns, ktime_get_ns());
	}

	/* Stay around until burst_reap(), which needs the task to stop it. */
	burst_wait_for_stop();
	return 0;
}

static enum burst_state burst_current_state(void)
{
	lockdep_assert_held(&burst.lock);

	/* Pairs with the release in burst_thread(). */
	if (burst.state == BURST_RUNNING && smp_load_acquire(&burst.end_ns))
		return BURST_DONE;
	return burst.state;
}

static unsigned long burst_emitted(void)
{
	unsigned long emitted = 0;
	unsigned int cpu;

	for_each_cpu(cpu, &burst.cpus)
		emitted += READ_ONCE(per_cpu(burst_workers, cpu).emitted);
	return emitted;
}

/* Stops every burst thread, finished or not, and waits for it. */
static void burst_reap(void)
{
	unsigned int cpu;

	lockdep_assert_held(&burst.lock);

	for_each_cpu(cpu, &burst.cpus) {
		struct burst_worker *worker = per_cpu_ptr(&burst_workers, cpu);

		kthread_stop(worker->task);
		worker->task = NULL;
	}
}

static void burst_stop_locked(void)
{
	lockdep_assert_held(&burst.lock);

	if (burst.state != BURST_RUNNING)
		return;
	burst_reap();
	if (!burst.end_ns)
		burst.end_ns = ktime_get_ns();
	if (burst_emitted() == burst.per_cpu * cpumask_weight(&burst.cpus))
		burst.state = BURST_DONE;
	else
		burst.state = BURST_STOPPED;
	vtrace_dbg(VTRACE_DBG_CONTROL, "vtrace: burst %s\n",
		   burst_state_names[burst.state]);
}

/* Called under cpus_read_lock(), so the online CPUs stay online. */
static int burst_create_threads(void)
{
	unsigned int cpu;

	lockdep_assert_held(&burst.lock);

	cpumask_clear(&burst.cpus);
	for_each_online_cpu(cpu) {
		struct burst_worker *worker = per_cpu_ptr(&burst_workers, cpu);
		struct task_struct *task;

		/*
		 * kthread_create() and kthread_bind() rather than
		 * kthread_create_on_cpu(), which 5.10 does not export.
		 */
		task = kthread_create(burst_thread, worker, "vtrace_burst/%u",
				      cpu);
		if (IS_ERR(task)) {
			/* Never woken, so they stop before running at all. */
			burst_reap();
			cpumask_clear(&burst.cpus);
			return PTR_ERR(task);
		}
		kthread_bind(task, cpu);
		worker->task = task;
		worker->cpu = cpu;
		worker->emitted = 0;
		cpumask_set_cpu(cpu, &burst.cpus);
	}
	return 0;
}

static int burst_start(unsigned long per_cpu)
{
	unsigned int cpu;
	int ret;

	mutex_lock(&burst.lock);
	if (burst_current_state() == BURST_RUNNING) {
		ret = -EBUSY;
		goto out_unlock;
	}
	/* Threads of a finished burst still wait to be stopped. */
	burst_stop_locked();

	burst.per_cpu = per_cpu;
	burst.end_ns = 0;
	cpus_read_lock();
	ret = burst_create_threads();
	if (ret) {
		cpus_read_unlock();
		goto out_unlock;
	}
	atomic_set(&burst.unfinished, cpumask_weight(&burst.cpus));
	burst.state = BURST_RUNNING;
	burst.start_ns = ktime_get_ns();
	for_each_cpu(cpu, &burst.cpus)
		wake_up_process(per_cpu(burst_workers, cpu).task);
	cpus_read_unlock();
	vtrace_dbg(VTRACE_DBG_CONTROL, "vtrace: burst of %lu on %u cpus\n",
		   per_cpu, cpumask_weight(&burst.cpus));

out_unlock:
	mutex_unlock(&burst.lock);
	return ret;
}

static void burst_stop(void)
{
	mutex_lock(&burst.lock);
	burst_stop_locked();
	mutex_unlock(&burst.lock);
}

static int burst_start_set(void *data, u64 val)
{
	if (val < 1 || val > BURST_PER_CPU_MAX)
		return -ERANGE;
	return burst_start(val);
}

DEFINE_DEBUGFS_ATTRIBUTE(burst_start_fops, NULL, burst_start_set, "%llu\n");

static ssize_t burst_stop_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	burst_stop();
	return count;
}

static const struct file_operations burst_stop_fops = {
	.owner	= THIS_MODULE,
	.write	= burst_stop_write,
	.llseek	= noop_llseek,
};

static int burst_status_show(struct seq_file *m, void *unused)
{
	enum burst_state state;
	u64 elapsed_ns = 0;

	mutex_lock(&burst.lock);
	state = burst_current_state();
	if (state == BURST_RUNNING)
		elapsed_ns = ktime_get_ns() - burst.start_ns;
	else if (state != BURST_IDLE)
		elapsed_ns = burst.end_ns - burst.start_ns;
	seq_printf(m, "state: %s\n", burst_state_names[state]);
	seq_printf(m, "per_cpu: %lu\n", burst.per_cpu);
	seq_printf(m, "cpus: %u\n", cpumask_weight(&burst.cpus));
	seq_printf(m, "emitted: %lu\n", burst_emitted());
	seq_printf(m, "elapsed_ns: %llu\n", elapsed_ns);
	mutex_unlock(&burst.lock);
	return 0;
}

DEFINE_SHOW_ATTRIBUTE(burst_status);

void vtrace_burst_init(struct dentry *root)
{
	struct dentry *dir = debugfs_create_dir("burst", root);

	debugfs_create_file_unsafe("start", 0200, dir, NULL, &burst_start_fops);
	debugfs_create_file("stop", 0200, dir, NULL, &burst_stop_fops);
	debugfs_create_file("status", 0400, dir, NULL, &burst_status_fops);
}

void vtrace_burst_exit(void)
{
	burst_stop();
}
