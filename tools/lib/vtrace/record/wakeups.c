// SPDX-License-Identifier: LGPL-2.1
/*
 * What the readers do under pressure, when a buffer runs near full or
 * loses events: buffer_percent is lowered, and with
 * %VTRACE_READERS_ADAPTIVE the reader of that buffer goes to its
 * realtime priority; both are put back once calm.
 */
#include <pthread.h>
#include <time.h>

#include "record/recorder-local.h"

/* Pressure on a CPU's buffer: lower buffer_percent for every CPU. */
static void lower_percent(struct vtrace_recorder *rec, bool lost)
{
	int err;

	clock_gettime(CLOCK_MONOTONIC, &rec->calm_since);
	if (rec->lowered || rec->percent_refused)
		return;
	/* Where the kernel refuses it, it stays as found (not asked again). */
	err = vt_settings_set_percent(&rec->settings,
				      VTRACE_RECORDER_LOW_PERCENT);
	if (err) {
		rec->percent_refused = vt_knob_refusal(err);
		return;
	}
	rec->lowered = true;
	rec->wakeups.lowered++;
	if (lost)
		rec->wakeups.lowered_lost++;
	if (rec->wakeups.first_lowered < 0)
		rec->wakeups.first_lowered = vt_rec_since(&rec->start);
}

/* No CPU under pressure for VTRACE_RECORDER_CALM_MS: wake up as before. */
static void restore_percent(struct vtrace_recorder *rec)
{
	if (!rec->lowered ||
	    vt_rec_since(&rec->calm_since) * 1000 < VTRACE_RECORDER_CALM_MS)
		return;
	if (vt_settings_set_percent(&rec->settings, rec->wake_percent))
		return;
	rec->lowered = false;
	rec->wakeups.restored++;
}

/*
 * %VTRACE_READERS_ADAPTIVE: a reader at the caller's policy, woken, waits
 * for the writer's time slice on its CPU; while its buffer is under
 * pressure it runs at the realtime priority instead, and preempts the
 * writer at once. Calm for its calm time (VTRACE_RECORDER_CALM_MS at
 * first), it goes back, and takes its time from the traced tasks only at
 * their own pace again. Raised again soon after, the load has lasted:
 * the calm time doubles, up to VTRACE_RECORDER_CALM_MAX_MS.
 */
static void adapt_priority(struct cpu_thread *t, bool pressure)
{
	double since_lowered;

	if (t->rec->policy != VTRACE_READERS_ADAPTIVE)
		return;
	if (!t->calm_ms)
		t->calm_ms = VTRACE_RECORDER_CALM_MS;
	if (pressure) {
		clock_gettime(CLOCK_MONOTONIC, &t->pressure_at);
		if (t->raised)
			return;
		since_lowered = t->was_lowered ?
					vt_rec_since(&t->lowered_at) * 1000 :
					-1;
		if (since_lowered >= 0 && since_lowered < 2.0 * t->calm_ms)
			t->calm_ms =
				t->calm_ms * 2 < VTRACE_RECORDER_CALM_MAX_MS ?
					t->calm_ms * 2 :
					VTRACE_RECORDER_CALM_MAX_MS;
		else
			t->calm_ms = VTRACE_RECORDER_CALM_MS;
		vt_rec_raise_reader(t, true);
	} else if (t->raised &&
		   vt_rec_since(&t->pressure_at) * 1000 >= t->calm_ms) {
		vt_rec_raise_reader(t, false);
		if (!t->raised) {
			clock_gettime(CLOCK_MONOTONIC, &t->lowered_at);
			t->was_lowered = true;
		}
	}
}

/**
 * vt_rec_near_full_percent - how full a read finds a buffer near full
 * @rec: the recorder
 *
 * Return: half-way from where the readers are woken to full (from empty
 * where they are woken as soon as there is data).
 */
int vt_rec_near_full_percent(const struct vtrace_recorder *rec)
{
	return (100 + (rec->wake_percent > 0 ? rec->wake_percent : 0)) / 2;
}

/**
 * vt_rec_found_near_full - whether a read found its buffer near full
 * @rec: the recorder
 * @backlog: sub-buffers the read moved
 *
 * Return: true when @backlog is at least half-way from where the reader
 * is woken to all of a CPU's sub-buffers; false as well when their number
 * is not known.
 */
bool vt_rec_found_near_full(const struct vtrace_recorder *rec,
			    unsigned long long backlog)
{
	return rec->nr_subbufs &&
	       backlog * 100 >= rec->nr_subbufs * vt_rec_near_full_percent(rec);
}

/*
 * After a wake-up that moved @backlog sub-buffers: a buffer that lost
 * events since the last one, or was found near full, is read too late
 * (the reader, woken, waited while the writer filled the rest). Woken at
 * a quarter it has three quarters as slack. Not earlier: each wake-up
 * preempts a traced task, and under a load that lasts, one per
 * sub-buffer took more of its time than the loss it saved
 * (Documentation/vtrace-record.rst, Wake-up).
 */
void vt_rec_adapt_wakeups(struct cpu_thread *t, unsigned long long backlog)
{
	struct vtrace_recorder *rec = t->rec;
	const struct vtrace_ring_stats *st =
		vtrace_ring_reader_stats(rec->readers[t->cpu]);
	unsigned long long lost = st->kernel_lost > st->missed_events ?
					  st->kernel_lost :
					  st->missed_events;
	bool lost_more = lost > t->seen_lost;
	bool near_full = vt_rec_found_near_full(rec, backlog);

	t->seen_lost = lost;
	adapt_priority(t, lost_more || near_full);
	pthread_mutex_lock(&rec->adapt_lock);
	if (lost_more || near_full)
		lower_percent(rec, lost_more);
	else
		restore_percent(rec);
	pthread_mutex_unlock(&rec->adapt_lock);
}
