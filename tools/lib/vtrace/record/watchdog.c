// SPDX-License-Identifier: LGPL-2.1
/*
 * The readers' realtime priority: whether it may be taken, when it is
 * taken (enum vtrace_reader_policy), and the watch that moves a reader
 * starved by tasks above it back to the caller's policy until it can run
 * again.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <linux/capability.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <time.h>

#include "record/recorder-local.h"

/* Whether the kernel lets this process's threads take a SCHED_FIFO prio. */
static bool rt_prio_permitted(int prio)
{
	struct __user_cap_header_struct head = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct caps[_LINUX_CAPABILITY_U32S_3];
	struct rlimit limit;

	if (!getrlimit(RLIMIT_RTPRIO, &limit) &&
	    (limit.rlim_cur == RLIM_INFINITY || limit.rlim_cur >= (rlim_t)prio))
		return true;
	if (syscall(SYS_capget, &head, caps))
		return false;
	return caps[CAP_TO_INDEX(CAP_SYS_NICE)].effective &
	       CAP_TO_MASK(CAP_SYS_NICE);
}

/**
 * vtrace_recorder_check_rt_prio - whether readers may run at a priority
 * @prio: a SCHED_FIFO priority, as vtrace_recorder_opts.rt_prio; 0: none
 * @why: set to the reason for a refusal
 * @len: room in @why
 *
 * vtrace_recorder_create() refuses what this refuses; a caller may ask
 * first, before it prepares anything.
 * Return: 0; -EINVAL when @prio is out of range; -EPERM when this
 * process may not take it (no CAP_SYS_NICE, RLIMIT_RTPRIO too low).
 */
int vtrace_recorder_check_rt_prio(int prio, char *why, size_t len)
{
	int min = sched_get_priority_min(SCHED_FIFO);
	int max = sched_get_priority_max(SCHED_FIFO);

	if (!prio)
		return 0;
	if (prio < min || prio > max) {
		snprintf(why, len,
			 "realtime priority %d is out of range (%d..%d)", prio,
			 min, max);
		return -EINVAL;
	}
	if (!rt_prio_permitted(prio)) {
		snprintf(
			why, len,
			"realtime priority %d needs CAP_SYS_NICE (or an RLIMIT_RTPRIO of at least %d)",
			prio, prio);
		return -EPERM;
	}
	return 0;
}

/* vtrace_recorder_opts.rt_prio: refused before anything is set up. */
int vt_rec_check_rt_prio(struct vtrace_recorder *rec)
{
	char why[128];
	int ret;

	if (rec->opts.rt_prio == VTRACE_RECORDER_RT_DEFAULT) {
		rec->opts.rt_prio = VTRACE_RECORDER_DEFAULT_RT_PRIO;
		ret = vtrace_recorder_check_rt_prio(rec->opts.rt_prio, why,
						    sizeof(why));
		if (ret) {
			vt_rec_note_not_set(rec, "rt_prio", ret, "0");
			rec->opts.rt_prio = 0;
		}
		rec->wakeups.rt_prio = rec->opts.rt_prio;
	}
	ret = vtrace_recorder_check_rt_prio(rec->opts.rt_prio, why,
					    sizeof(why));
	if (ret) {
		vt_rec_error(rec, "%s", why);
		return ret;
	}
	rec->policy = rec->opts.rt_prio ? rec->opts.reader_policy :
					  VTRACE_READERS_LIGHT;
	rec->wakeups.policy = rec->policy;
	if (sched_getaffinity(0, sizeof(rec->caller_cpus), &rec->caller_cpus))
		return -errno;
	return pthread_getschedparam(pthread_self(), &rec->caller_policy,
				     &rec->caller_param) ?
		       -EINVAL :
		       0;
}

/**
 * vtrace_reader_policy_name - the name of a reader policy
 * @policy: the policy
 *
 * Return: "adaptive", "keep-all" or "light" (the command line's names),
 * "?" for a value not among them.
 */
const char *vtrace_reader_policy_name(enum vtrace_reader_policy policy)
{
	switch (policy) {
	case VTRACE_READERS_ADAPTIVE:
		return "adaptive";
	case VTRACE_READERS_KEEP_ALL:
		return "keep-all";
	case VTRACE_READERS_LIGHT:
		return "light";
	}
	return "?";
}

/*
 * A reader runs on the CPU whose buffer it reads, at any policy: the
 * sub-buffers it moves were just written there and are still in that
 * CPU's cache, and it never competes with another reader for a CPU. A
 * realtime reader woken on its CPU preempts the writer there at once.
 * Left free, a realtime reader stays on whichever CPU it last ran on,
 * which under a load on every CPU may be another reader's, reading data
 * from another CPU's cache for the whole recording
 * (Documentation/vtrace-record.rst, Placement). Only a reader starved by
 * tasks above it is let run anywhere (watch_reader()). An offline CPU
 * refuses the mask; the thread then runs where it is put.
 */
void vt_rec_pin_reader(struct cpu_thread *t, bool own_cpu)
{
	cpu_set_t on_cpu;

	if (!own_cpu) {
		sched_setaffinity(atomic_load(&t->tid),
				  sizeof(t->rec->caller_cpus),
				  &t->rec->caller_cpus);
		return;
	}
	CPU_ZERO(&on_cpu);
	CPU_SET(t->cpu, &on_cpu);
	sched_setaffinity(atomic_load(&t->tid), sizeof(on_cpu), &on_cpu);
}

/*
 * %VTRACE_READERS_ADAPTIVE: the reader thread @t (the caller) to
 * vtrace_recorder_opts.rt_prio, or back to the caller's policy, on its
 * own CPU either way. A raised reader the watch found starved is already
 * at the caller's policy: lowering it only ends the watch.
 */
void vt_rec_raise_reader(struct cpu_thread *t, bool raise)
{
	struct vtrace_recorder *rec = t->rec;
	struct sched_param param = { .sched_priority = rec->opts.rt_prio };
	int err;

	pthread_mutex_lock(&rec->policy_lock);
	if (raise == t->raised || t->policy_final) {
		pthread_mutex_unlock(&rec->policy_lock);
		return;
	}
	if (raise)
		err = pthread_setschedparam(pthread_self(), SCHED_FIFO, &param);
	else
		err = pthread_setschedparam(pthread_self(), rec->caller_policy,
					    &rec->caller_param);
	if (!err) {
		t->raised = raise;
		t->starved = false;
		if (raise)
			rec->rt_raised++;
		else
			rec->rt_lowered++;
		vt_rec_pin_reader(t, true);
	}
	pthread_mutex_unlock(&rec->policy_lock);
}

/* Back to the caller's policy (lowering one's own needs no privilege). */
void vt_rec_restore_policy(struct cpu_thread *t)
{
	struct vtrace_recorder *rec = t->rec;
	struct sched_param param;
	int policy;

	pthread_mutex_lock(&rec->policy_lock);
	t->policy_final = true;
	if (!pthread_setschedparam(pthread_self(), rec->caller_policy,
				   &rec->caller_param))
		t->rt_restored = !pthread_getschedparam(pthread_self(), &policy,
							&param) &&
				 policy == rec->caller_policy;
	pthread_mutex_unlock(&rec->policy_lock);
}

/*
 * A reader thread to the caller's policy, free to run on any of the
 * caller's CPUs, or back to opts.rt_prio on its own CPU.
 */
static bool set_reader_policy(struct cpu_thread *t, bool realtime)
{
	struct vtrace_recorder *rec = t->rec;
	struct sched_param param = { .sched_priority = rec->opts.rt_prio };
	bool done;

	if (realtime)
		done = !pthread_setschedparam(t->id, SCHED_FIFO, &param);
	else
		done = !pthread_setschedparam(t->id, rec->caller_policy,
					      &rec->caller_param);
	if (done)
		vt_rec_pin_reader(t, realtime);
	return done;
}

static void look_for_calm(struct cpu_thread *t)
{
	clock_gettime(CLOCK_MONOTONIC, &t->calm_since);
	t->calm_waited_ns = t->sched.waited_ns;
	t->calm_broken = false;
}

/*
 * A reader at a realtime priority that tasks above it keep off its CPU
 * gets no time at all, where one at the caller's policy still gets the
 * fair server's share (or, before 6.12, what realtime throttling leaves
 * to the normal policy) on whichever CPU has it. Found runnable at two
 * readings in a row without having run in between, it is starved, and
 * goes to the caller's policy, on any CPU.
 * It goes back after a whole VTRACE_RECORDER_RT_CALM_MS in which it was
 * never found starved and waited to run for less than half the time: at
 * the caller's policy under such a load it still waits most of each
 * second for the fair server's turn, and may run at each of the
 * readings, which are taken in that turn too.
 */
static void watch_reader(struct cpu_thread *t)
{
	struct vtrace_recorder *rec = t->rec;
	pid_t tid = atomic_load(&t->tid);
	struct vt_thread_sched now;
	double calm_ms, waited_ms;
	bool starved;

	if (!tid || t->policy_final ||
	    (rec->policy == VTRACE_READERS_ADAPTIVE && !t->raised))
		return;
	if (t->sched_fds[0] < 0) {
		if (!vt_thread_sched_open(tid, t->sched_fds) &&
		    vt_thread_sched_read(t->sched_fds, &t->sched))
			vt_thread_sched_close(t->sched_fds);
		return;
	}
	if (vt_thread_sched_read(t->sched_fds, &now))
		return;
	starved = t->sched.runnable && now.runnable &&
		  now.on_cpu_ns == t->sched.on_cpu_ns;
	t->sched = now;
	if (!t->starved) {
		if (starved && set_reader_policy(t, false)) {
			t->starved = true;
			rec->rt_starved++;
			look_for_calm(t);
		}
		return;
	}
	t->calm_broken |= starved;
	calm_ms = vt_rec_since(&t->calm_since) * 1000;
	if (calm_ms < VTRACE_RECORDER_RT_CALM_MS)
		return;
	waited_ms = (now.waited_ns - t->calm_waited_ns) / 1e6;
	if (!t->calm_broken && waited_ms * 2 < calm_ms &&
	    set_reader_policy(t, true)) {
		t->starved = false;
		rec->rt_resumed++;
		return;
	}
	look_for_calm(t);
}

void vt_rec_watch_readers(struct vtrace_recorder *rec)
{
	int cpu;

	pthread_mutex_lock(&rec->policy_lock);
	for (cpu = 0; cpu < rec->nr_cpus; cpu++)
		if (rec->threads[cpu].running)
			watch_reader(&rec->threads[cpu]);
	pthread_mutex_unlock(&rec->policy_lock);
}
