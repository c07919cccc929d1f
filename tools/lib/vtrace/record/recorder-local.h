/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * What the files of the recording engine share: the recording
 * and its reader threads, and the functions one file offers another.
 *
 *	recorder.c	create, start, poll, stop, destroy; the reader threads
 *	setup.c		the tracefs set-up in its order, and its undoing
 *	wakeups.c	under pressure: buffer_percent lowered, readers raised
 *	watchdog.c	the readers' realtime priority, and its fallback
 *	results.c	what a recording tells its caller
 *	state.c		failures, the stop reason, what was not set
 */
#ifndef _VTRACE_RECORDER_LOCAL_H
#define _VTRACE_RECORDER_LOCAL_H

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <time.h>

#include <vtrace/recorder.h>
#include <vtrace/ring-stats.h>

#include "record/thread-sched.h"
#include "tracefs/record-settings.h"

#define DEFAULT_PERIOD_MS 1000
/*
 * Sub-buffer size, where the kernel lets it be chosen (6.8 and later).
 * The mmap and splice readers pay per sub-buffer: one GET_READER ioctl, or
 * one page swap in the kernel, and one write; 64 KB ones take a sixteenth
 * of the calls of 4 KB pages.
 */
#define RECORD_SUBBUF_KB 64
/* Knobs the recording chose itself and the kernel refused, at most. */
#define MAX_NOT_SET 16

/**
 * struct cpu_thread - one CPU's reader thread
 * @rec: the recording
 * @cpu: the CPU it reads
 * @id: the thread
 * @running: @id was started
 * @discarding: after a sink failure: sub-buffers are drained, not written
 * @sink_err: what the sink returned for the sub-buffer just offered
 * @discarded_events: events drained while discarding, counted as lost
 * @discarded_bytes: bytes of them
 * @dropped_events: events the sink refused with %VTRACE_SINK_DROPPED,
 *	counted as lost to back-pressure
 * @dropped_bytes: bytes of them
 * @err: the failure that ended the thread before the stop
 * @drain_err: the failure of the drain after the stop
 * @seen_lost: events this CPU's buffer had lost at the last wake-up
 * @rereads: times the thread read again at once, without waiting
 * @subbufs: sub-buffers its reader took, once it is done
 * @batches: kernel calls its reader took them in, once it is done
 * @rt_restored: the thread went back to the caller's scheduling policy
 *	after running at vtrace_recorder_opts.rt_prio
 * @tid: the thread's id once it runs, 0 before
 * @sched_fds: its scheduling account (thread-sched.h), -1 when not open
 * @sched: the last reading of it
 * @starved: at the caller's policy for now: tasks above
 *	vtrace_recorder_opts.rt_prio kept it off every CPU
 * @calm_since: while @starved, when the current look for calm began
 * @calm_waited_ns: @sched.waited_ns then
 * @calm_broken: the thread was found starved again since @calm_since
 * @policy_final: back at the caller's policy for the drain: no longer
 *	watched
 * @raised: %VTRACE_READERS_ADAPTIVE: at vtrace_recorder_opts.rt_prio now
 * @pressure_at: when its buffer was last found near full or losing
 * @calm_ms: how long its buffer must stay calm before it goes back
 * @lowered_at: when it last went back, if @was_lowered
 * @was_lowered: it went back once at least
 */
struct cpu_thread {
	struct vtrace_recorder *rec;
	int cpu;
	pthread_t id;
	bool running;
	bool discarding;
	int sink_err;
	unsigned long long discarded_events;
	unsigned long long discarded_bytes;
	unsigned long long dropped_events;
	unsigned long long dropped_bytes;
	int err;
	int drain_err;
	unsigned long long seen_lost;
	unsigned long long rereads;
	unsigned long long subbufs;
	unsigned long long batches;
	bool rt_restored;
	atomic_int tid;
	int sched_fds[2];
	struct vt_thread_sched sched;
	bool starved;
	struct timespec calm_since;
	unsigned long long calm_waited_ns;
	bool calm_broken;
	bool policy_final;
	bool raised;
	struct timespec pressure_at;
	unsigned int calm_ms;
	struct timespec lowered_at;
	bool was_lowered;
};

/**
 * struct vtrace_recorder - one recording
 * @opts: the caller's options
 * @sink: the output, owned
 * @tfs: the instance's libtracefs handle
 * @settings: tracefs settings as found, and which were changed
 * @settings_saved: @settings holds something to restore
 * @changes: the events switched on, for putting them back
 * @cleared: events the buffer held at the set-up, cleared by it
 * @clock: trace_clock during the recording
 * @nr_cpus: possible CPUs
 * @readers: each CPU's reader; NULL for a CPU without a ring buffer
 * @threads: each CPU's thread
 * @accounts: each CPU's account, final once stopped
 * @end: each CPU's ring-buffer counters after the stop
 * @shown: what each CPU has handed to the sink so far, for progress
 * @path: the reader path in use
 * @subbuf_size: the ring buffer's sub-buffer size
 * @stop_fd: readable once the threads are to stop
 * @drain: after @stop_fd, the threads drain their buffers
 * @wake_fd: readable once the recording should stop (@reason is set)
 * @reason: why it stops
 * @abort_reason: the text given to vtrace_recorder_abort()
 * @taken: %VTRACE_FILL_DISCARD: bytes handed to the sink so far
 * @full: %VTRACE_FILL_DISCARD: the limit was met; nothing more is taken
 * @lock: guards @sink_err, @fail_err, @abort_reason, @shown, @err_text,
 *	@taken and @full
 * @sink_err: the first sink failure; every CPU then stops writing
 * @fail_err: the first failure that stopped the recording
 * @err_text: messages of the failures, joined by "; "
 * @err_from: where those of the last public call start in @err_text
 * @state: how far the recording has gone
 * @start: when tracing was switched on (CLOCK_MONOTONIC)
 * @elapsed: seconds from @start to the stop
 * @nr_subbufs: sub-buffers in one CPU's buffer, 0 when not known
 * @adapt_lock: guards @lowered, @calm_since and @wakeups
 * @lowered: buffer_percent is %VTRACE_RECORDER_LOW_PERCENT now
 * @calm_since: the last wake-up of any CPU that found pressure
 * @wakeups: what the adaptation did (rereads added up at the stop)
 * @caller_policy: the scheduling policy of the thread that started the
 *	recording, which reader threads go back to after @opts.rt_prio
 * @caller_param: its parameters
 * @caller_cpus: the CPUs it may run on, where a reader not pinned to its
 *	own CPU runs
 * @policy: the readers' policy in effect
 * @policy_lock: guards the reader threads' scheduling policy once they
 *	run, their fields for watch_reader() and the raising, @rt_raised,
 *	@rt_lowered, @rt_starved and @rt_resumed;
 *	apart from @adapt_lock, which a reader takes at every wake-up, as
 *	the main thread may be preempted while it holds this one
 * @rt_raised: see &struct vtrace_recorder_wakeups
 * @rt_lowered: see &struct vtrace_recorder_wakeups
 * @rt_starved: see &struct vtrace_recorder_wakeups
 * @rt_resumed: see &struct vtrace_recorder_wakeups
 * @not_set: settings the recording chose itself that the kernel refused
 * @nr_not_set: entries in @not_set
 * @probes: the data sources beside ftrace, while they run, or NULL
 * @percent_refused: buffer_percent cannot be changed: the wake-ups do not
 *	adapt
 * @wake_percent: the buffer_percent the readers are woken at (the
 *	kernel's where refused; -1 where it has none)
 */
struct vtrace_recorder {
	struct vtrace_recorder_opts opts;
	struct vtrace_sink *sink;
	struct tracefs_instance *tfs;
	struct vtrace_record_settings settings;
	bool settings_saved;
	struct vtrace_event_change *changes;
	unsigned long long cleared;
	char *clock;
	int nr_cpus;
	struct vtrace_ring_reader **readers;
	struct cpu_thread *threads;
	struct vtrace_cpu_account *accounts;
	struct vtrace_ring_counters *end;
	struct vtrace_ring_stats *shown;
	enum vtrace_reader_path path;
	size_t subbuf_size;
	int stop_fd;
	atomic_bool drain;
	int wake_fd;
	atomic_int reason;
	unsigned long long taken;
	bool full;
	const char *abort_reason;
	pthread_mutex_t lock;
	int sink_err;
	int fail_err;
	char err_text[2048];
	size_t err_from;
	enum { REC_NEW, REC_BEGUN, REC_RUNNING, REC_STOPPED } state;
	struct timespec start;
	double elapsed;
	unsigned long long nr_subbufs;
	pthread_mutex_t adapt_lock;
	bool lowered;
	struct timespec calm_since;
	struct vtrace_recorder_wakeups wakeups;
	int caller_policy;
	struct sched_param caller_param;
	cpu_set_t caller_cpus;
	enum vtrace_reader_policy policy;
	pthread_mutex_t policy_lock;
	unsigned long long rt_raised;
	unsigned long long rt_lowered;
	unsigned long long rt_starved;
	unsigned long long rt_resumed;
	struct vtrace_knob_not_set not_set[MAX_NOT_SET];
	size_t nr_not_set;
	struct vtrace_probes *probes;
	bool percent_refused;
	int wake_percent;
};

int vt_rec_near_full_percent(const struct vtrace_recorder *rec);
bool vt_rec_found_near_full(const struct vtrace_recorder *rec,
			    unsigned long long backlog);
void vt_rec_adapt_wakeups(struct cpu_thread *t, unsigned long long backlog);
int vt_rec_check_rt_prio(struct vtrace_recorder *rec);
void vt_rec_fail(struct vtrace_recorder *rec, int err);
void vt_rec_new_call(struct vtrace_recorder *rec);
void vt_rec_note_not_set(struct vtrace_recorder *rec, const char *knob, int err,
			 const char *value);
int vt_rec_open_reader(struct vtrace_recorder *rec, int cpu);
void vt_rec_error(struct vtrace_recorder *rec, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void vt_rec_pin_reader(struct cpu_thread *t, bool own_cpu);
void vt_rec_raise_reader(struct cpu_thread *t, bool raise);
void vt_rec_restore_policy(struct cpu_thread *t);
void vt_rec_set_reason(struct vtrace_recorder *rec,
		       enum vtrace_stop_reason reason);
int vt_rec_set_up(struct vtrace_recorder *rec);
double vt_rec_since(const struct timespec *t0);
bool vt_rec_sink_failed(struct vtrace_recorder *rec);
int vt_rec_tear_down(struct vtrace_recorder *rec, bool finish);
void vt_rec_watch_readers(struct vtrace_recorder *rec);

#endif /* _VTRACE_RECORDER_LOCAL_H */
