/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The recording engine: every CPU's ring buffer of one tracefs instance,
 * read by one thread per CPU, into a sink (sink.h), with every tracefs
 * setting put back afterwards.
 *
 *	vtrace_recorder_create(&opts, sink, &rec);  // checks only, no tracefs
 *	vtrace_recorder_start(rec);     // set-up; undone by itself on failure
 *	vtrace_recorder_run(rec);       // or a loop of vtrace_recorder_poll()
 *	vtrace_recorder_stop(rec);      // tracing off, drain, finish, restore
 *	vtrace_recorder_cpu_account(rec, cpu, &a);  // the summary
 *	vtrace_recorder_destroy(rec);
 *
 * The order of the set-up is what keeps failures clean: the output is
 * begun (its file created) before any event is enabled, and every step
 * taken is undone in reverse, whatever failed: events, readers, the
 * output (finished, or aborted when the set-up failed), then the tracefs
 * settings. The instance itself, and any lock on it, are the caller's:
 * remove or release them after vtrace_recorder_destroy().
 *
 * Failures. Functions return 0 or a negative errno and never print;
 * vtrace_recorder_strerror() holds the text of what the last call found
 * ("cannot set buffer_size_kb: Device or resource busy (...)"), one
 * message per failure, joined by "; ". A sink failure (a write) is told
 * apart from a reader failure by where it came from, never by its errno:
 * vtrace_recorder_sink_failed() says whether the output lost data.
 *
 * Hooks for the code around a recording (struct vtrace_recorder_hooks):
 *  - sessions: ->started() gives the recording (instance, pid are the
 *    caller's), ->tick() the periodic counters (vtrace_recorder_progress()),
 *    vtrace_recorder_abort() another process's request to end it (the
 *    recording stops, drains, finishes its output and restores tracefs as
 *    on any stop; vtrace_recorder_stop_reason() then says
 *    %VTRACE_STOP_ABORT and the reason), the end is after
 *    vtrace_recorder_destroy().
 *  - atrace: ->started() runs once tracing is on, ->stopping() just
 *    before it goes off: set and clear userspace tag bits there.
 *  - trace configs: struct vtrace_recorder_opts holds what a Perfetto
 *    TraceConfig sets (fill policy, sizes, CPU mask, threads, options).
 *  - output formats: a sink (sink.h) per format.
 */
#ifndef _VTRACE_RECORDER_H
#define _VTRACE_RECORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <vtrace/fill-policy.h>
#include <vtrace/ring-reader.h>
#include <vtrace/sink.h>

struct vtrace_instance;
struct vtrace_journal;
struct vtrace_probes;
struct vtrace_probes_config;
struct vtrace_recorder;

/*
 * poll() on a CPU's buffer wakes its reader when the buffer is this full
 * (buffer_percent) or after vtrace_recorder_opts.drain_period_ms; earlier
 * where that would leave fewer than VTRACE_RECORDER_FREE_SUBBUFS
 * sub-buffers free for the time the reader takes to come, but not before
 * VTRACE_RECORDER_MIN_PERCENT, the kernel's default. Each wake-up
 * preempts a traced task: at half of 32 KB a wake-up moved less than
 * trace-cmd's recorders move per millisecond
 * (Documentation/vtrace-record.rst, Wake-up).
 */
#define VTRACE_RECORDER_BUFFER_PERCENT 75
#define VTRACE_RECORDER_FREE_SUBBUFS 3
#define VTRACE_RECORDER_MIN_PERCENT 50
/*
 * While a buffer loses events, or is found near full (half-way from where
 * its reader is woken to full: it came late), the readers are woken this
 * early instead (see struct vtrace_recorder_wakeups), until no CPU has
 * been under that pressure for VTRACE_RECORDER_CALM_MS.
 */
#define VTRACE_RECORDER_LOW_PERCENT 25
#define VTRACE_RECORDER_CALM_MS 500
/*
 * %VTRACE_READERS_ADAPTIVE: a reader raised again within twice its calm
 * time of going back waits twice as long the next time, up to this: a
 * load that lasts keeps it raised instead of costing events at each
 * return to the caller's policy.
 */
#define VTRACE_RECORDER_CALM_MAX_MS 8000
/*
 * Readers at a realtime priority are looked at this often while the
 * recording runs; one that tasks above it keep off every CPU goes to the
 * caller's policy until it has run unhindered for VTRACE_RECORDER_RT_CALM_MS
 * (see struct vtrace_recorder_wakeups).
 */
#define VTRACE_RECORDER_WATCH_MS 100
#define VTRACE_RECORDER_RT_CALM_MS 1000
/*
 * Readers at a realtime priority preempt the writers on their CPUs the
 * moment they are woken: without it, woken readers waited for a CPU-bound
 * writer's time slice while its buffer overflowed. The lowest one is the
 * default wherever it is allowed.
 */
#define VTRACE_RECORDER_RT_DEFAULT (-1)
#define VTRACE_RECORDER_DEFAULT_RT_PRIO 1

/**
 * enum vtrace_reader_policy - when the readers run at a realtime priority
 * @VTRACE_READERS_KEEP_ALL: at vtrace_recorder_opts.rt_prio, each on the
 *	CPU whose buffer it reads, all the time tracing is on (trace-cmd record -r): woken, a reader
 *	preempts the writer at once. The default: it lost nothing and took
 *	the least from the traced tasks of the three (see
 *	Documentation/vtrace-record.rst)
 * @VTRACE_READERS_ADAPTIVE: at the caller's policy, each on the CPU whose
 *	buffer it reads; a reader whose wake-up finds its buffer near full
 *	or losing events goes to
 *	vtrace_recorder_opts.rt_prio until its buffer has been calm for its calm
 *	time: realtime tasks on the board meet a realtime reader only while
 *	a buffer is under pressure
 * @VTRACE_READERS_LIGHT: at the caller's policy, each on the CPU whose
 *	buffer it reads, all the time
 */
enum vtrace_reader_policy {
	VTRACE_READERS_KEEP_ALL,
	VTRACE_READERS_ADAPTIVE,
	VTRACE_READERS_LIGHT,
};

const char *vtrace_reader_policy_name(enum vtrace_reader_policy policy);

/**
 * enum vtrace_stop_reason - why a recording stopped
 * @VTRACE_STOP_NONE: it has not stopped
 * @VTRACE_STOP_DURATION: vtrace_recorder_opts.duration_ms passed
 * @VTRACE_STOP_REQUEST: vtrace_recorder_request_stop() (a signal, or
 *	vtrace stop)
 * @VTRACE_STOP_ABORT: vtrace_recorder_abort(), with a reason
 * @VTRACE_STOP_FAILED: a reader, the sink or the recorder failed
 * @VTRACE_STOP_FULL: %VTRACE_FILL_DISCARD's limit was reached
 */
enum vtrace_stop_reason {
	VTRACE_STOP_NONE,
	VTRACE_STOP_DURATION,
	VTRACE_STOP_REQUEST,
	VTRACE_STOP_ABORT,
	VTRACE_STOP_FAILED,
	VTRACE_STOP_FULL,
};

struct vtrace_recorder_hooks;

/**
 * struct vtrace_recorder_opts - what to record, and how
 * @instance: the tracefs instance to record (its top level buffer when it
 *	has no name); borrowed, must outlive the recorder
 * @events: "group/event" names to enable, each present in the instance
 *	(see the caller's selection); borrowed
 * @nr_events: entries in @events, at least one
 * @reader: the ring-buffer reader; %VTRACE_READER_AUTO picks one
 * @duration_ms: stop after this long; 0: until stopped
 * @buffer_kb: per-CPU ring buffer size during the recording; 0: as found
 *	(grown from its boot-time minimum when still there)
 * @clock: trace_clock during the recording; NULL: the output format's
 *	(vtrace_sink_ops.clock) where the kernel has it, else as found
 * @drain_period_ms: longest time a CPU's data waits in its ring buffer
 *	before it is read even though the buffer is not yet at its wake-up
 *	mark; 0: 1000
 * @tick_ms: how often vtrace_recorder_run() calls ->tick() and looks for
 *	CPUs come online; 0: 1000
 * @fill_policy: see enum vtrace_fill_policy
 * @max_file_size: bytes of sub-buffers to keep at most, for
 *	%VTRACE_FILL_RING_BUFFER and %VTRACE_FILL_DISCARD (which need it)
 * @file_write_period_ms: longest time between two writes of the output;
 *	0: @drain_period_ms (the output is written as the buffers are read)
 * @cpumask: tracing_cpumask during the recording (hex, as the file takes
 *	it); NULL: as found
 * @tids: record only these threads' events (set_event_pid); borrowed
 * @nr_tids: entries in @tids; 0: every thread
 * @tracefs_options: NULL-terminated trace options to set during the
 *	recording ("name" or "noname"); NULL: none
 * @reader_policy: when the readers run at @rt_prio
 * @rt_prio: the SCHED_FIFO priority (1..99) @reader_policy raises the
 *	reader threads to; 0: never raised (as %VTRACE_READERS_LIGHT);
 *	%VTRACE_RECORDER_RT_DEFAULT: %VTRACE_RECORDER_DEFAULT_RT_PRIO where
 *	this process may take it, else never raised (noted in
 *	vtrace_recorder_not_set()). Needs CAP_SYS_NICE or an RLIMIT_RTPRIO
 *	that allows it
 * @keep_buffer: record what the buffer already holds too: it is not
 *	cleared, and @buffer_kb, @clock and the sub-buffer size are not
 *	applied (each would empty it); every event format is stored, since
 *	the buffer may hold any event. Else the buffer is cleared first
 *	(see vtrace_recorder_cleared())
 * @probes: the data sources beside ftrace to run while tracing is on
 *	(probes.h), into the sink's ->add_packet(); NULL or none enabled:
 *	none. Borrowed
 * @hooks: callbacks, or NULL
 * @hooks_ctx: passed to every hook
 * @journal: where every tracefs change is noted before it is made, and
 *	the output's temporary file (journal.h), so that a killed recording
 *	can be undone; NULL: none. Borrowed.
 */
struct vtrace_recorder_opts {
	struct vtrace_instance *instance;
	const char *const *events;
	size_t nr_events;
	enum vtrace_reader_path reader;
	long long duration_ms;
	long long buffer_kb;
	const char *clock;
	unsigned int drain_period_ms;
	unsigned int tick_ms;
	enum vtrace_fill_policy fill_policy;
	unsigned long long max_file_size;
	unsigned int file_write_period_ms;
	const char *cpumask;
	const pid_t *tids;
	size_t nr_tids;
	const char *const *tracefs_options;
	enum vtrace_reader_policy reader_policy;
	int rt_prio;
	bool keep_buffer;
	const struct vtrace_probes_config *probes;
	const struct vtrace_recorder_hooks *hooks;
	void *hooks_ctx;
	struct vtrace_journal *journal;
};

/**
 * struct vtrace_recorder_hooks - the caller's points in a recording
 * @started: tracing has just been switched on; the readers run
 * @tick: every vtrace_recorder_opts.tick_ms in vtrace_recorder_run();
 *	return 0 to go on, or non-zero to stop the recording as if
 *	vtrace_recorder_request_stop() had been called
 * @cpu_added: @cpu came online for the first time during the recording
 *	and is read from now on
 * @stopping: tracing is about to be switched off (by
 *	vtrace_recorder_stop())
 *
 * Every hook runs in the thread that called the recorder function, may
 * be NULL, and gets vtrace_recorder_opts.hooks_ctx as @ctx.
 */
struct vtrace_recorder_hooks {
	void (*started)(void *ctx, struct vtrace_recorder *rec);
	int (*tick)(void *ctx, struct vtrace_recorder *rec);
	void (*cpu_added)(void *ctx, struct vtrace_recorder *rec, int cpu);
	void (*stopping)(void *ctx, struct vtrace_recorder *rec);
};

/**
 * struct vtrace_recorder_progress - a recording's counters so far
 * @elapsed: seconds since tracing was switched on
 * @events: events handed to the sink
 * @bytes: bytes handed to the sink
 * @lost: events lost so far, as the ring buffers count them
 */
struct vtrace_recorder_progress {
	double elapsed;
	unsigned long long events;
	unsigned long long bytes;
	unsigned long long lost;
};

/**
 * struct vtrace_knob_not_set - a setting the recording chose itself and
 *	the kernel refused
 * @knob: the tracefs file, relative to the instance
 *	("buffer_subbuf_size_kb", "options/record-tgid"), or "rt_prio" for
 *	the readers' realtime priority
 * @err: why (a negative errno; see vt_knob_refusal())
 * @missing: this kernel has no such knob (it came in a later Linux, or
 *	an instance does not have it), rather than refusing a value
 * @value: the value in force instead, read back from the kernel; "" when
 *	there is none
 *
 * The recording goes on with the kernel's value. Values the caller asked
 * for (vtrace_recorder_opts.buffer_kb, .clock, .rt_prio, .cpumask, ...)
 * are never here: the kernel refusing one of them fails the start.
 */
struct vtrace_knob_not_set {
	const char *knob;
	int err;
	bool missing;
	char value[64];
};

/**
 * struct vtrace_recorder_wakeups - how the readers adapted their wake-ups
 * @lowered: times buffer_percent went from where the readers are woken
 *	down to %VTRACE_RECORDER_LOW_PERCENT
 * @restored: times it went back up
 * @lowered_lost: of @lowered, those caused by lost events (the others: a
 *	wake-up found the buffer near full)
 * @rereads: times a reader read again at once, without waiting, because
 *	its last read had found the buffer near full
 * @subbufs: sub-buffers the readers took from the kernel
 * @batches: calls they took them in (see &struct vtrace_ring_stats)
 * @first_lowered: seconds from the start to the first @lowered, or -1
 * @policy: the readers' policy in effect (%VTRACE_READERS_LIGHT where
 *	no realtime priority could be taken)
 * @rt_prio: the readers' SCHED_FIFO priority when raised, 0 for none
 * @rt_raised: %VTRACE_READERS_ADAPTIVE: times a reader went to @rt_prio
 * @rt_lowered: times a raised reader came back to the caller's policy
 *	once its buffer was calm (the others do at the stop)
 * @rt_starved: times a reader at @rt_prio was found runnable at two
 *	looks in a row without having run in between (tasks above it held
 *	every CPU it may run on) and went to the caller's policy, where the
 *	kernel still gives it a share
 * @rt_resumed: times such a reader went back to @rt_prio
 */
struct vtrace_recorder_wakeups {
	unsigned long long lowered;
	unsigned long long restored;
	unsigned long long lowered_lost;
	unsigned long long rereads;
	unsigned long long subbufs;
	unsigned long long batches;
	double first_lowered;
	enum vtrace_reader_policy policy;
	int rt_prio;
	unsigned long long rt_raised;
	unsigned long long rt_lowered;
	unsigned long long rt_starved;
	unsigned long long rt_resumed;
};

int vtrace_recorder_create(const struct vtrace_recorder_opts *opts,
			   struct vtrace_sink *sink,
			   struct vtrace_recorder **out);
int vtrace_recorder_check_rt_prio(int prio, char *why, size_t len);
int vtrace_recorder_start(struct vtrace_recorder *rec);
int vtrace_recorder_poll(struct vtrace_recorder *rec, int timeout_ms);
int vtrace_recorder_run(struct vtrace_recorder *rec);
void vtrace_recorder_request_stop(struct vtrace_recorder *rec);
void vtrace_recorder_abort(struct vtrace_recorder *rec, const char *reason);
int vtrace_recorder_stop(struct vtrace_recorder *rec);
void vtrace_recorder_destroy(struct vtrace_recorder *rec);

const char *vtrace_recorder_strerror(const struct vtrace_recorder *rec);
bool vtrace_recorder_sink_failed(const struct vtrace_recorder *rec);
enum vtrace_stop_reason
vtrace_recorder_stop_reason(const struct vtrace_recorder *rec,
			    const char **detail);
void vtrace_recorder_progress(struct vtrace_recorder *rec,
			      struct vtrace_recorder_progress *p);
int vtrace_recorder_cpu_account(const struct vtrace_recorder *rec, int cpu,
				struct vtrace_cpu_account *a);
int vtrace_recorder_nr_cpus(const struct vtrace_recorder *rec);
double vtrace_recorder_elapsed(const struct vtrace_recorder *rec);
enum vtrace_reader_path
vtrace_recorder_reader(const struct vtrace_recorder *rec);
size_t vtrace_recorder_subbuf_size(const struct vtrace_recorder *rec);
int vtrace_recorder_wake_percent(const struct vtrace_recorder *rec,
				 bool *adapts, int *near_full);
unsigned long long vtrace_recorder_cleared(const struct vtrace_recorder *rec);
const char *vtrace_recorder_clock(const struct vtrace_recorder *rec);
void vtrace_recorder_wakeups(const struct vtrace_recorder *rec,
			     struct vtrace_recorder_wakeups *w);
int vtrace_recorder_rt_restored(const struct vtrace_recorder *rec);
const struct vtrace_knob_not_set *
vtrace_recorder_not_set(const struct vtrace_recorder *rec, size_t *nr);
const struct vtrace_sink *
vtrace_recorder_sink(const struct vtrace_recorder *rec);
const struct vtrace_probes *
vtrace_recorder_probes(const struct vtrace_recorder *rec);

#endif /* _VTRACE_RECORDER_H */
