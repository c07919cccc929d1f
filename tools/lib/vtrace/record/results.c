// SPDX-License-Identifier: LGPL-2.1
/*
 * What a recording tells its caller: its messages, counters, reader,
 * clock, wake-ups and the settings it went without.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "record/recorder-local.h"

/**
 * vtrace_recorder_strerror - describe what the last call found
 * @rec: the recorder
 *
 * Return: the messages of the failures the last vtrace_recorder_*() call
 * that can vt_rec_fail met, joined by "; ", or "" when there were none. Valid
 * until the next call.
 */
const char *vtrace_recorder_strerror(const struct vtrace_recorder *rec)
{
	const char *text = rec->err_text + rec->err_from;

	return strncmp(text, "; ", 2) ? text : text + 2;
}

/**
 * vtrace_recorder_sink_failed - whether the sink refused data
 * @rec: the recorder
 *
 * Return: true when a sub-buffer could not be handed to the sink (a write
 * failed): what came before it is kept, the rest counts as lost.
 */
bool vtrace_recorder_sink_failed(const struct vtrace_recorder *rec)
{
	return vt_rec_sink_failed((struct vtrace_recorder *)rec);
}

/**
 * vtrace_recorder_stop_reason - why the recording stopped
 * @rec: the recorder
 * @detail: set to the reason given to vtrace_recorder_abort(), or NULL;
 *	may be NULL
 *
 * Return: %VTRACE_STOP_NONE while nothing has asked it to stop, else the
 * first reason it met.
 */
enum vtrace_stop_reason
vtrace_recorder_stop_reason(const struct vtrace_recorder *rec,
			    const char **detail)
{
	struct vtrace_recorder *r = (struct vtrace_recorder *)rec;
	enum vtrace_stop_reason reason = atomic_load(&r->reason);

	if (detail) {
		pthread_mutex_lock(&r->lock);
		*detail = reason == VTRACE_STOP_ABORT ? r->abort_reason : NULL;
		pthread_mutex_unlock(&r->lock);
	}
	return reason;
}

/**
 * vtrace_recorder_progress - the counters so far, for a progress line
 * @rec: a started recorder
 * @p: filled in
 *
 * Reads every CPU's ring-buffer counters (for @p->lost): a few file
 * reads per CPU, meant for a few calls a second at most.
 */
void vtrace_recorder_progress(struct vtrace_recorder *rec,
			      struct vtrace_recorder_progress *p)
{
	struct vtrace_ring_counters c;
	int cpu;

	*p = (struct vtrace_recorder_progress){ 0 };
	if (rec->state == REC_NEW)
		return;
	p->elapsed = rec->state == REC_STOPPED ? rec->elapsed :
						 vt_rec_since(&rec->start);
	if (rec->state == REC_STOPPED) {
		for (cpu = 0; cpu < rec->nr_cpus; cpu++) {
			p->events += rec->accounts[cpu].events;
			p->bytes += rec->accounts[cpu].bytes;
			p->lost += rec->accounts[cpu].lost;
		}
		return;
	}
	pthread_mutex_lock(&rec->lock);
	for (cpu = 0; cpu < rec->nr_cpus; cpu++) {
		p->events += rec->shown[cpu].events;
		p->bytes += rec->shown[cpu].bytes;
	}
	pthread_mutex_unlock(&rec->lock);
	for (cpu = 0; cpu < rec->nr_cpus; cpu++)
		if (rec->readers[cpu] &&
		    !vtrace_ring_counters_read(rec->tfs, cpu, &c))
			p->lost += vtrace_ring_counters_lost(&c);
}

/**
 * vtrace_recorder_cpu_account - one CPU's account of a stopped recording
 * @rec: a stopped recorder
 * @cpu: the CPU
 * @a: filled in
 *
 * Return: 0; -ENODEV when @cpu had no ring buffer to read (never online
 * during the recording: @a is all zeroes); -EINVAL for a CPU out of
 * range or a recording not stopped.
 */
int vtrace_recorder_cpu_account(const struct vtrace_recorder *rec, int cpu,
				struct vtrace_cpu_account *a)
{
	if (cpu < 0 || cpu >= rec->nr_cpus || rec->state != REC_STOPPED)
		return -EINVAL;
	*a = rec->accounts[cpu];
	return a->present ? 0 : -ENODEV;
}

/**
 * vtrace_recorder_nr_cpus - how many CPUs the recording covers
 * @rec: the recorder
 *
 * Return: the number of possible CPUs (0..N-1), read or not.
 */
int vtrace_recorder_nr_cpus(const struct vtrace_recorder *rec)
{
	return rec->nr_cpus;
}

/**
 * vtrace_recorder_elapsed - how long the recording ran
 * @rec: a stopped recorder
 *
 * Return: seconds from switching tracing on to switching it off.
 */
double vtrace_recorder_elapsed(const struct vtrace_recorder *rec)
{
	return rec->elapsed;
}

/**
 * vtrace_recorder_reader - the reader path in use
 * @rec: the recorder
 *
 * Return: the path the readers took (what %VTRACE_READER_AUTO chose),
 * once started; the one asked for before.
 */
enum vtrace_reader_path
vtrace_recorder_reader(const struct vtrace_recorder *rec)
{
	return rec->path;
}

/**
 * vtrace_recorder_cleared - what the set-up cleared from the buffer
 * @rec: a started recorder
 *
 * The buffer may hold events another tool (or an earlier recording) left
 * there; without vtrace_recorder_opts.keep_buffer they are cleared.
 *
 * Return: how many events the buffer held when the set-up cleared it.
 */
unsigned long long vtrace_recorder_cleared(const struct vtrace_recorder *rec)
{
	return rec->cleared;
}

/**
 * vtrace_recorder_subbuf_size - the ring buffer's sub-buffer size
 * @rec: a started recorder
 *
 * Return: bytes per sub-buffer, 0 before the start.
 */
size_t vtrace_recorder_subbuf_size(const struct vtrace_recorder *rec)
{
	return rec->subbuf_size;
}

/**
 * vtrace_recorder_wake_percent - where the readers' wake-ups start
 * @rec: a started recorder
 * @adapts: set to whether the recording may lower it under pressure (to
 *	%VTRACE_RECORDER_LOW_PERCENT) and put it back
 * @near_full: set to how full, in percent, a read must find the buffer to
 *	have found it near full
 *
 * Return: the buffer_percent the readers are woken at: the recording's
 * (see %VTRACE_RECORDER_BUFFER_PERCENT), or the kernel's own where it
 * refused that (then @adapts is false); -1 where the kernel has no such
 * knob.
 */
int vtrace_recorder_wake_percent(const struct vtrace_recorder *rec,
				 bool *adapts, int *near_full)
{
	*adapts = !rec->percent_refused;
	*near_full = vt_rec_near_full_percent(rec);
	return rec->wake_percent;
}

/**
 * vtrace_recorder_clock - the trace_clock of the recording
 * @rec: a started recorder
 *
 * Return: the clock's name, NULL before the start.
 */
const char *vtrace_recorder_clock(const struct vtrace_recorder *rec)
{
	return rec->clock;
}

/**
 * vtrace_recorder_wakeups - how the readers adapted their wake-ups
 * @rec: the recorder
 * @w: filled in; @w->rereads, @w->subbufs and @w->batches are complete
 *	once the recording stopped
 *
 * Also tells the readers' policy and what it did.
 */
void vtrace_recorder_wakeups(const struct vtrace_recorder *rec,
			     struct vtrace_recorder_wakeups *w)
{
	struct vtrace_recorder *r = (struct vtrace_recorder *)rec;
	int cpu;

	pthread_mutex_lock(&r->adapt_lock);
	*w = r->wakeups;
	pthread_mutex_unlock(&r->adapt_lock);
	pthread_mutex_lock(&r->policy_lock);
	w->rt_raised = r->rt_raised;
	w->rt_lowered = r->rt_lowered;
	w->rt_starved = r->rt_starved;
	w->rt_resumed = r->rt_resumed;
	pthread_mutex_unlock(&r->policy_lock);
	w->rereads = 0;
	w->subbufs = 0;
	w->batches = 0;
	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		w->rereads += r->threads[cpu].rereads;
		w->subbufs += r->threads[cpu].subbufs;
		w->batches += r->threads[cpu].batches;
	}
}

/**
 * vtrace_recorder_rt_restored - reader threads back at the caller's policy
 * @rec: a stopped recorder
 *
 * Return: how many reader threads, having read at
 * vtrace_recorder_opts.rt_prio while tracing was on, went back to the
 * scheduling policy of the thread that started the recording before the
 * drain (each checks its own policy afterwards).
 */
int vtrace_recorder_rt_restored(const struct vtrace_recorder *rec)
{
	int cpu, n = 0;

	for (cpu = 0; cpu < rec->nr_cpus; cpu++)
		n += rec->threads[cpu].rt_restored;
	return n;
}

/**
 * vtrace_recorder_not_set - settings the kernel refused, left as it has them
 * @rec: a started recorder
 * @nr: set to the number of entries
 *
 * Settings the recording chose itself (the sub-buffer size, the wake-up
 * mark, the clock and the buffer size when none was asked for, the
 * options it needs, the readers' default realtime priority) that the
 * kernel does not have or refused; the recording went on without them.
 *
 * Return: the entries, in the order they were met, valid as long as @rec.
 */
const struct vtrace_knob_not_set *
vtrace_recorder_not_set(const struct vtrace_recorder *rec, size_t *nr)
{
	*nr = rec->nr_not_set;
	return rec->not_set;
}

/**
 * vtrace_recorder_sink - the recording's output
 * @rec: the recorder
 *
 * Return: the sink given to vtrace_recorder_create().
 */
const struct vtrace_sink *
vtrace_recorder_sink(const struct vtrace_recorder *rec)
{
	return rec->sink;
}

/**
 * vtrace_recorder_probes - the data sources beside ftrace
 * @rec: the recorder
 *
 * Return: the ones that ran (vtrace_probes_missing(), _dropped()), valid
 * until the recorder is destroyed, or NULL when none ran.
 */
const struct vtrace_probes *
vtrace_recorder_probes(const struct vtrace_recorder *rec)
{
	return rec->probes;
}
