// SPDX-License-Identifier: LGPL-2.1
/*
 * The recording engine (see recorder.h): per-CPU reader threads, the
 * drain at the end, CPUs that come online mid-recording, sink failures,
 * loss accounting, and the tracefs set-up and its undoing.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include <vtrace/events.h>
#include <vtrace/instance.h>
#include <vtrace/journal.h>
#include <vtrace/record-settings.h>
#include <vtrace/recorder.h>
#include <vtrace/ring-stats.h>
#include <vtrace/test-phase.h>

#include "file-io.h"
#include "thread-sched.h"

#define DEFAULT_PERIOD_MS 1000
/*
 * Sub-buffer size, where the kernel lets it be chosen (6.8 and later).
 * The mmap and splice readers pay per sub-buffer: one GET_READER ioctl, or
 * one page swap in the kernel, and one write; 64 KB ones take a sixteenth
 * of the calls of 4 KB pages.
 */
#define RECORD_SUBBUF_KB 64
/* The clock Perfetto places ftrace events with, where it needs no hint. */
#define DEFAULT_CLOCK "boot"
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
 * @policy_lock: guards the reader threads' scheduling policy once they
 *	run, their fields for watch_reader(), @rt_starved and @rt_resumed;
 *	apart from @adapt_lock, which a reader takes at every wake-up, as
 *	the main thread may be preempted while it holds this one
 * @rt_starved: see &struct vtrace_recorder_wakeups
 * @rt_resumed: see &struct vtrace_recorder_wakeups
 * @not_set: settings the recording chose itself that the kernel refused
 * @nr_not_set: entries in @not_set
 * @percent_refused: buffer_percent cannot be changed: the wake-ups do not
 *	adapt
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
	pthread_mutex_t policy_lock;
	unsigned long long rt_starved;
	unsigned long long rt_resumed;
	struct vtrace_knob_not_set not_set[MAX_NOT_SET];
	size_t nr_not_set;
	bool percent_refused;
};

static void rec_error(struct vtrace_recorder *rec, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void rec_error(struct vtrace_recorder *rec, const char *fmt, ...)
{
	size_t len, size = sizeof(rec->err_text);
	va_list ap;

	pthread_mutex_lock(&rec->lock);
	len = strlen(rec->err_text);
	if (len > rec->err_from && len + 2 < size) {
		strcpy(rec->err_text + len, "; ");
		len += 2;
	}
	va_start(ap, fmt);
	if (len < size)
		vsnprintf(rec->err_text + len, size - len, fmt, ap);
	va_end(ap);
	pthread_mutex_unlock(&rec->lock);
}

/* A public call begins: vtrace_recorder_strerror() tells its failures. */
static void new_call(struct vtrace_recorder *rec)
{
	pthread_mutex_lock(&rec->lock);
	rec->err_from = strlen(rec->err_text);
	pthread_mutex_unlock(&rec->lock);
}

static void set_reason(struct vtrace_recorder *rec,
		       enum vtrace_stop_reason reason)
{
	int none = VTRACE_STOP_NONE;

	if (atomic_compare_exchange_strong(&rec->reason, &none, reason))
		eventfd_write(rec->wake_fd, 1);
}

static double since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t0->tv_sec) + (now.tv_nsec - t0->tv_nsec) / 1e9;
}

static void fail(struct vtrace_recorder *rec, int err)
{
	pthread_mutex_lock(&rec->lock);
	if (!rec->fail_err)
		rec->fail_err = err;
	pthread_mutex_unlock(&rec->lock);
	set_reason(rec, VTRACE_STOP_FAILED);
}

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

/*
 * Notes a setting the kernel refused that the recording chose itself
 * (@err a refusal: vtrace_knob_refusal()); @value is what is in force.
 */
static void note_not_set(struct vtrace_recorder *rec, const char *knob, int err,
			 const char *value)
{
	struct vtrace_knob_not_set *n;

	if (rec->nr_not_set == MAX_NOT_SET)
		return;
	n = &rec->not_set[rec->nr_not_set++];
	n->knob = knob;
	n->err = err;
	n->missing = err == -ENOENT || err == -EOPNOTSUPP;
	snprintf(n->value, sizeof(n->value), "%s", value);
}

/*
 * A knob the recording chose a value for itself: a refusal leaves the
 * kernel's value in force and is noted. Returns @err for any other
 * failure, else 0.
 */
static int optional_knob(struct vtrace_recorder *rec, const char *knob, int err)
{
	char value[VTRACE_KNOB_VALUE_MAX];

	if (!err || !vtrace_knob_refusal(err))
		return err;
	vtrace_settings_read_back(&rec->settings, knob, value, sizeof(value));
	note_not_set(rec, knob, err, value);
	return 0;
}

/* vtrace_recorder_opts.rt_prio: refused before anything is set up. */
static int check_rt_prio(struct vtrace_recorder *rec)
{
	char why[128];
	int ret;

	if (rec->opts.rt_prio == VTRACE_RECORDER_RT_DEFAULT) {
		rec->opts.rt_prio = VTRACE_RECORDER_DEFAULT_RT_PRIO;
		ret = vtrace_recorder_check_rt_prio(rec->opts.rt_prio, why,
						    sizeof(why));
		if (ret) {
			note_not_set(rec, "rt_prio", ret, "0");
			rec->opts.rt_prio = 0;
		}
		rec->wakeups.rt_prio = rec->opts.rt_prio;
	}
	ret = vtrace_recorder_check_rt_prio(rec->opts.rt_prio, why,
					    sizeof(why));
	if (ret) {
		rec_error(rec, "%s", why);
		return ret;
	}
	return pthread_getschedparam(pthread_self(), &rec->caller_policy,
				     &rec->caller_param) ?
		       -EINVAL :
		       0;
}

/**
 * vtrace_recorder_create - make a recorder; tracefs is not touched yet
 * @opts: what to record; copied, but what it points to is borrowed
 * @sink: where the recording goes; owned by the recorder from now on,
 *	even when this fails
 * @out: set to the new recorder, also when this fails (for
 *	vtrace_recorder_strerror(); destroy it either way), NULL only when
 *	out of memory
 *
 * Return: 0; -EINVAL for options that make no recording (no instance, no
 * event, a fill policy other than streaming without a maximum size, a
 * realtime priority out of range); -EPERM for a realtime priority this
 * process may not take; -ENOMEM.
 */
int vtrace_recorder_create(const struct vtrace_recorder_opts *opts,
			   struct vtrace_sink *sink,
			   struct vtrace_recorder **out)
{
	struct vtrace_recorder *rec;
	int cpu, ret;

	*out = NULL;
	rec = calloc(1, sizeof(*rec));
	if (!rec) {
		vtrace_sink_free(sink);
		return -ENOMEM;
	}
	rec->opts = *opts;
	rec->sink = sink;
	rec->stop_fd = -1;
	rec->wake_fd = -1;
	pthread_mutex_init(&rec->lock, NULL);
	pthread_mutex_init(&rec->adapt_lock, NULL);
	pthread_mutex_init(&rec->policy_lock, NULL);
	rec->wakeups.first_lowered = -1;
	rec->wakeups.rt_prio = opts->rt_prio;
	*out = rec;

	if (!opts->instance || !opts->nr_events || !sink) {
		rec_error(rec, "nothing to record");
		return -EINVAL;
	}
	if (opts->fill_policy != VTRACE_FILL_STREAM && !opts->max_file_size) {
		rec_error(rec, "a %s recording needs a maximum size",
			  opts->fill_policy == VTRACE_FILL_DISCARD ?
				  "DISCARD" :
				  "RING_BUFFER");
		return -EINVAL;
	}
	ret = check_rt_prio(rec);
	if (ret)
		return ret;
	if (!rec->opts.drain_period_ms)
		rec->opts.drain_period_ms = DEFAULT_PERIOD_MS;
	/* The output is written as it is read: read at least that often. */
	if (opts->file_write_period_ms &&
	    opts->file_write_period_ms < rec->opts.drain_period_ms)
		rec->opts.drain_period_ms = opts->file_write_period_ms;
	if (!rec->opts.tick_ms)
		rec->opts.tick_ms = DEFAULT_PERIOD_MS;
	rec->tfs = vtrace_instance_tracefs(opts->instance);
	rec->path = opts->reader;

	rec->nr_cpus = sysconf(_SC_NPROCESSORS_CONF);
	rec->readers = calloc(rec->nr_cpus, sizeof(*rec->readers));
	rec->threads = calloc(rec->nr_cpus, sizeof(*rec->threads));
	rec->accounts = calloc(rec->nr_cpus, sizeof(*rec->accounts));
	rec->end = calloc(rec->nr_cpus, sizeof(*rec->end));
	rec->shown = calloc(rec->nr_cpus, sizeof(*rec->shown));
	rec->changes = calloc(opts->nr_events, sizeof(*rec->changes));
	if (!rec->readers || !rec->threads || !rec->accounts || !rec->end ||
	    !rec->shown || !rec->changes)
		return -ENOMEM;
	for (cpu = 0; cpu < rec->nr_cpus; cpu++)
		rec->threads[cpu] = (struct cpu_thread){
			.rec = rec, .cpu = cpu, .sched_fds = { -1, -1 }
		};
	for (size_t i = 0; i < opts->nr_events; i++)
		rec->changes[i].name = opts->events[i];
	rec->stop_fd = eventfd(0, EFD_CLOEXEC);
	rec->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (rec->stop_fd < 0 || rec->wake_fd < 0) {
		rec_error(rec, "eventfd: %s", strerror(errno));
		return -errno;
	}
	return 0;
}

static int settings_error(struct vtrace_recorder *rec, const char *what,
			  int err)
{
	if (err == -EBUSY)
		rec_error(
			rec,
			"tracefs is busy: cannot set %s: %s (another tracer holds this buffer; try --instance NAME)",
			what, strerror(-err));
	else
		rec_error(rec, "cannot set %s: %s", what, strerror(-err));
	return err;
}

/* -ENODEV: @cpu has no ring buffer (yet); other failures are told. */
static int open_reader(struct vtrace_recorder *rec, int cpu)
{
	int ret;

	ret = vtrace_ring_reader_open(rec->tfs, cpu, rec->opts.reader,
				      &rec->readers[cpu]);
	if (ret == -EOPNOTSUPP)
		rec_error(
			rec,
			"the %s reader is not offered by this kernel (ring-buffer mmap needs Linux 6.10); use --reader auto",
			vtrace_reader_path_name(rec->opts.reader));
	else if (ret && ret != -ENODEV)
		rec_error(rec, "cannot open per_cpu/cpu%d/trace_pipe_raw: %s",
			  cpu, strerror(-ret));
	return ret;
}

static int open_readers(struct vtrace_recorder *rec)
{
	int cpu, ret;

	for (cpu = 0; cpu < rec->nr_cpus; cpu++) {
		ret = open_reader(rec, cpu);
		if (ret == -ENODEV)
			continue; /* a possible CPU that was never up */
		if (ret)
			return ret;
		rec->path = vtrace_ring_reader_path(rec->readers[cpu]);
		if (!rec->subbuf_size)
			rec->subbuf_size = vtrace_ring_reader_subbuf_size(
				rec->readers[cpu]);
	}
	return 0;
}

/*
 * Large sub-buffers, where the kernel lets them be chosen (6.8 and later):
 * fewer, larger hand-overs (see RECORD_SUBBUF_KB). Not for the read
 * reader: read() also returns the sub-buffer the writer is filling, and
 * reading on, one more for each few events written meanwhile, each stored
 * whole; 64 KB ones made a 14 MB recording 201 MB.
 */
static int choose_subbuf_size(struct vtrace_recorder *rec)
{
	size_t kb = RECORD_SUBBUF_KB, max = rec->sink->max_subbuf_size;
	int ret;

	if (rec->opts.reader == VTRACE_READER_READ)
		return 0;
	if (max && max / 1024 < kb)
		kb = max / 1024;
	ret = vtrace_settings_set_subbuf_kb(&rec->settings, kb);
	return optional_knob(rec, "buffer_subbuf_size_kb", ret);
}

static int set_clock(struct vtrace_recorder *rec)
{
	const char *clock = rec->opts.clock ?: DEFAULT_CLOCK;
	int ret;

	ret = vtrace_settings_set_clock(&rec->settings, clock);
	if (!rec->opts.clock)
		ret = optional_knob(rec, "trace_clock", ret);
	if (ret == -EINVAL)
		rec_error(rec, "unknown clock '%s' (see trace_clock)", clock);
	else if (ret)
		settings_error(rec, "trace_clock", ret);
	if (ret)
		return ret;
	rec->clock = tracefs_get_clock(rec->tfs);
	return rec->clock ? 0 : -ENOMEM;
}

/*
 * RING_BUFFER keeps the newest max_file_size bytes in the kernel's own
 * ring buffers, read only at the stop: each CPU gets its share (at least
 * a page), unless the caller chose a size.
 */
static long long ring_buffer_kb(const struct vtrace_recorder *rec)
{
	long long kb;

	if (rec->opts.fill_policy != VTRACE_FILL_RING_BUFFER)
		return 0;
	kb = rec->opts.max_file_size / 1024 / (rec->nr_cpus ?: 1);
	return kb < 4 ? 4 : kb;
}

/* CPU mask, threads and options the recording asks for. */
static int set_up_filters(struct vtrace_recorder *rec)
{
	const struct vtrace_recorder_opts *o = &rec->opts;
	const char *const *opt;
	int ret;

	if (o->cpumask) {
		ret = vtrace_settings_set_cpumask(&rec->settings, o->cpumask);
		if (ret)
			return settings_error(rec, "tracing_cpumask", ret);
	}
	if (o->nr_tids) {
		ret = vtrace_settings_set_event_pids(&rec->settings, o->tids,
						     o->nr_tids);
		if (ret)
			return settings_error(rec, "set_event_pid", ret);
	}
	/* The ring buffer policy is the kernel's overwrite mode. */
	if (o->fill_policy == VTRACE_FILL_RING_BUFFER) {
		ret = vtrace_settings_set_option(&rec->settings, "overwrite");
		if (ret)
			return settings_error(rec, "options/overwrite", ret);
	}
	/*
	 * saved_tgids, which the Perfetto sink turns into processes, only
	 * fills while record-tgid is on; instances do not have it.
	 */
	ret = vtrace_settings_set_option(&rec->settings, "record-tgid");
	ret = optional_knob(rec, "options/record-tgid", ret);
	if (ret)
		return settings_error(rec, "options/record-tgid", ret);
	for (opt = o->tracefs_options; opt && *opt; opt++) {
		ret = vtrace_settings_set_option(&rec->settings, *opt);
		if (ret == -ENOENT) {
			rec_error(
				rec,
				"no trace option '%s' in this kernel (options/%s)",
				*opt, strncmp(*opt, "no", 2) ? *opt : *opt + 2);
			return ret;
		}
		if (ret)
			return settings_error(rec, "options", ret);
	}
	return 0;
}

/* Events the instance's buffer holds now, over every CPU. */
static unsigned long long events_in_buffer(struct vtrace_recorder *rec)
{
	struct vtrace_ring_counters c;
	unsigned long long n = 0;
	int cpu;

	for (cpu = 0; cpu < rec->nr_cpus; cpu++)
		if (!vtrace_ring_counters_read(rec->tfs, cpu, &c))
			n += c.entries;
	return n;
}

/* The wake-up mark; without it the readers are woken at the kernel's. */
static int set_percent(struct vtrace_recorder *rec)
{
	int ret;

	ret = vtrace_settings_set_percent(&rec->settings,
					  VTRACE_RECORDER_BUFFER_PERCENT);
	rec->percent_refused = ret;
	ret = optional_knob(rec, "buffer_percent", ret);
	return ret ? settings_error(rec, "buffer_percent", ret) : 0;
}

/*
 * vtrace_recorder_opts.keep_buffer: a new clock, size or sub-buffer size
 * would empty the buffer as surely as clearing it, so the buffer stays as
 * found (the reader then takes the sub-buffer size it has).
 */
static int keep_buffer(struct vtrace_recorder *rec)
{
	int ret;

	rec->clock = tracefs_get_clock(rec->tfs);
	if (!rec->clock)
		return -ENOMEM;
	ret = set_percent(rec);
	if (ret)
		return ret;
	return set_up_filters(rec);
}

/* The buffer as the recording wants it: sizes, clock, wake-up mark. */
static int set_up_buffer(struct vtrace_recorder *rec)
{
	const struct vtrace_recorder_opts *o = &rec->opts;
	long long kb;
	int ret;

	ret = vtrace_settings_save(rec->tfs, rec->nr_cpus, &rec->settings);
	if (ret) {
		rec_error(rec, "cannot read the tracefs settings: %s",
			  strerror(-ret));
		return ret;
	}
	rec->settings_saved = true;
	rec->settings.journal = o->journal;
	ret = vtrace_settings_set_tracing_on(&rec->settings, 0);
	if (ret)
		return settings_error(rec, "tracing_on", ret);
	if (o->keep_buffer)
		return keep_buffer(rec);
	rec->cleared = events_in_buffer(rec);
	/*
	 * Enabling an event grows a buffer still at its boot-time minimum,
	 * which fails once the buffer is mapped: grow it now.
	 */
	if (o->buffer_kb || rec->settings.unexpanded ||
	    o->fill_policy == VTRACE_FILL_RING_BUFFER) {
		kb = o->buffer_kb ?: ring_buffer_kb(rec);
		ret = vtrace_settings_set_buffer_kb(
			&rec->settings, kb ?: rec->settings.buffer_kb[0]);
		/* Only a size asked for is needed; the others are ours. */
		if (!o->buffer_kb)
			ret = optional_knob(rec, "buffer_size_kb", ret);
		if (ret)
			return settings_error(rec, "buffer_size_kb", ret);
	}
	ret = set_clock(rec);
	if (ret)
		return ret;
	ret = set_percent(rec);
	if (ret)
		return ret;
	ret = set_up_filters(rec);
	if (ret)
		return ret;
	if (tracefs_instance_file_clear(rec->tfs, "trace"))
		return settings_error(rec, "trace (clearing the buffer)",
				      errno ? -errno : -EIO);
	ret = choose_subbuf_size(rec);
	if (ret)
		return settings_error(rec, "buffer_subbuf_size_kb", ret);
	return 0;
}

/* How many sub-buffers a CPU's buffer holds, for telling it near full. */
static void count_subbufs(struct vtrace_recorder *rec)
{
	long long kb;

	if (rec->subbuf_size &&
	    !tracefs_instance_file_read_number(rec->tfs, "buffer_size_kb", &kb))
		rec->nr_subbufs = kb * 1024 / rec->subbuf_size;
}

/* Notes each event that is to be switched on, as it is, in the journal. */
static int journal_events(struct vtrace_recorder *rec)
{
	enum vtrace_event_state state;
	char file[512];
	size_t i;
	int ret;

	for (i = 0; rec->opts.journal && i < rec->opts.nr_events; i++) {
		ret = vtrace_event_state(rec->opts.instance,
					 rec->changes[i].name, &state);
		if (ret || state != VTRACE_EVENT_DISABLED)
			continue;
		snprintf(file, sizeof(file), "events/%s/enable",
			 rec->changes[i].name);
		ret = vtrace_journal_setting(rec->opts.journal, file, "0");
		if (ret)
			return ret;
	}
	return 0;
}

/* The journal must hold every change before it is made. */
static int journal_error(struct vtrace_recorder *rec, const char *what, int err)
{
	rec_error(rec, "cannot note %s in the journal in %s: %s", what,
		  vtrace_state_dir(), strerror(-err));
	return err;
}

static int set_up(struct vtrace_recorder *rec)
{
	const char *partial;
	struct vtrace_sink_info info;
	size_t failed;
	int ret;

	ret = set_up_buffer(rec);
	if (ret)
		return ret;
	ret = open_readers(rec);
	if (ret)
		return ret;
	count_subbufs(rec);

	info = (struct vtrace_sink_info){
		.instance = rec->tfs,
		.nr_cpus = rec->nr_cpus,
		.subbuf_size = rec->subbuf_size,
		.clock = rec->clock,
	};
	ret = rec->sink->ops->begin(rec->sink, &info);
	if (ret) {
		rec_error(rec, "cannot create %s: %s", rec->sink->path,
			  rec->sink->ops->strerror(rec->sink));
		rec->sink->ops->abort(rec->sink);
		return ret;
	}
	rec->state = REC_BEGUN;
	partial = rec->sink->ops->partial(rec->sink);
	ret = partial ? vtrace_journal_partial(rec->opts.journal, partial) : 0;
	if (ret)
		return journal_error(rec, "the output", ret);
	ret = journal_events(rec);
	if (ret)
		return journal_error(rec, "the events", ret);

	ret = vtrace_events_set(rec->opts.instance, rec->changes,
				rec->opts.nr_events, true, &failed);
	if (ret) {
		rec_error(rec, "cannot enable %s: %s",
			  rec->changes[failed].name, strerror(-ret));
		return ret;
	}
	vtrace_test_phase("setup");
	clock_gettime(CLOCK_MONOTONIC, &rec->start);
	ret = vtrace_settings_set_tracing_on(&rec->settings, 1);
	if (ret)
		return settings_error(rec, "tracing_on", ret);
	return 0;
}

static int discard_subbuf(void *ctx, int cpu, const void *subbuf, size_t size);

/*
 * DISCARD: once max_file_size bytes are written, nothing more is taken and
 * the recording stops (VTRACE_STOP_FULL), as Perfetto stops a trace whose
 * file is full.
 */
static bool over_limit(struct vtrace_recorder *rec, size_t size)
{
	bool over;

	if (rec->opts.fill_policy != VTRACE_FILL_DISCARD)
		return false;
	pthread_mutex_lock(&rec->lock);
	over = rec->full || rec->taken + size > rec->opts.max_file_size;
	if (over)
		rec->full = true;
	else
		rec->taken += size;
	pthread_mutex_unlock(&rec->lock);
	if (over)
		set_reason(rec, VTRACE_STOP_FULL);
	return over;
}

static int to_sink(void *ctx, int cpu, const void *subbuf, size_t size)
{
	struct cpu_thread *t = ctx;
	struct vtrace_sink *sink = t->rec->sink;

	if (over_limit(t->rec, size))
		return discard_subbuf(ctx, cpu, subbuf, size);

	t->sink_err = sink->ops->add_subbuf(sink, cpu, subbuf, size);
	if (t->sink_err == VTRACE_SINK_DROPPED) {
		t->sink_err = 0;
		t->dropped_events +=
			vtrace_ring_subbuf_events(t->rec->readers[cpu], subbuf);
		t->dropped_bytes += size;
	} else if (!t->sink_err) {
		vtrace_test_phase("streaming");
	}
	return t->sink_err;
}

/* to_sink() for a sub-buffer still in a pipe (vtrace_ring_pipe_fn). */
static int to_sink_pipe(void *ctx, int cpu, int pipe, size_t size, void *spill)
{
	struct cpu_thread *t = ctx;
	struct vtrace_sink *sink = t->rec->sink;
	int ret;

	if (over_limit(t->rec, size)) {
		ret = vt_read_all(pipe, spill, size);
		return ret ?: discard_subbuf(ctx, cpu, spill, size);
	}
	t->sink_err = sink->ops->splice_subbuf(sink, cpu, pipe, size, spill);
	if (t->sink_err == VTRACE_SINK_DROPPED) {
		t->sink_err = 0;
		t->dropped_events +=
			vtrace_ring_subbuf_events(t->rec->readers[cpu], spill);
		t->dropped_bytes += size;
	} else if (!t->sink_err) {
		vtrace_test_phase("streaming");
	}
	return t->sink_err;
}

/* After a sink failure: empty the buffer, count what it held as lost. */
static int discard_subbuf(void *ctx, int cpu, const void *subbuf, size_t size)
{
	struct cpu_thread *t = ctx;

	t->discarded_events +=
		vtrace_ring_subbuf_events(t->rec->readers[cpu], subbuf);
	t->discarded_bytes += size;
	return 0;
}

static bool sink_failed(struct vtrace_recorder *rec)
{
	bool failed;

	pthread_mutex_lock(&rec->lock);
	failed = rec->sink_err;
	pthread_mutex_unlock(&rec->lock);
	return failed;
}

static void note_sink_error(struct vtrace_recorder *rec, int err)
{
	bool first;

	pthread_mutex_lock(&rec->lock);
	first = !rec->sink_err;
	if (first)
		rec->sink_err = err;
	pthread_mutex_unlock(&rec->lock);
	if (!first)
		return;
	rec_error(rec,
		  "writing %s: %s; recording stops, what was captured is kept",
		  rec->sink->path, rec->sink->ops->strerror(rec->sink));
	fail(rec, err);
}

/*
 * Hand this CPU's sub-buffers to the sink. Once the sink has failed (on
 * any CPU), keep what it has and discard the rest from now on: the
 * sub-buffer it refused is offered again, and discarded.
 */
static int consume_cpu(struct cpu_thread *t, bool drain)
{
	struct vtrace_recorder *rec = t->rec;
	struct vtrace_ring_reader *reader = rec->readers[t->cpu];
	vtrace_ring_pipe_fn pipe_fn;
	vtrace_ring_subbuf_fn fn;
	int ret;

	if (!t->discarding && sink_failed(rec))
		t->discarding = true;
	for (;;) {
		fn = t->discarding ? discard_subbuf : to_sink;
		/* Not on the other reader paths (-EOPNOTSUPP): add_subbuf. */
		pipe_fn = rec->sink->splice && !t->discarding ? to_sink_pipe :
								NULL;
		vtrace_ring_reader_splice_out(reader, pipe_fn);
		t->sink_err = 0;
		ret = drain ? vtrace_ring_reader_drain(reader, fn, t) :
			      vtrace_ring_reader_consume(reader, fn, t);
		if (t->discarding || !t->sink_err)
			break;
		t->discarding = true;
		note_sink_error(rec, t->sink_err);
	}
	if (ret)
		rec_error(rec, "reading cpu%d: %s", t->cpu, strerror(-ret));
	return ret;
}

static void publish_stats(struct cpu_thread *t)
{
	struct vtrace_recorder *rec = t->rec;

	pthread_mutex_lock(&rec->lock);
	rec->shown[t->cpu] = *vtrace_ring_reader_stats(rec->readers[t->cpu]);
	rec->shown[t->cpu].events -= t->discarded_events + t->dropped_events;
	rec->shown[t->cpu].bytes -= t->discarded_bytes + t->dropped_bytes;
	pthread_mutex_unlock(&rec->lock);
}

/* Pressure on a CPU's buffer: lower buffer_percent for every CPU. */
static void lower_percent(struct vtrace_recorder *rec, bool lost)
{
	clock_gettime(CLOCK_MONOTONIC, &rec->calm_since);
	if (rec->lowered || rec->percent_refused ||
	    vtrace_settings_set_percent(&rec->settings,
					VTRACE_RECORDER_LOW_PERCENT))
		return;
	rec->lowered = true;
	rec->wakeups.lowered++;
	if (lost)
		rec->wakeups.lowered_lost++;
	if (rec->wakeups.first_lowered < 0)
		rec->wakeups.first_lowered = since(&rec->start);
}

/* No CPU under pressure for VTRACE_RECORDER_CALM_MS: wake up as before. */
static void restore_percent(struct vtrace_recorder *rec)
{
	if (!rec->lowered ||
	    since(&rec->calm_since) * 1000 < VTRACE_RECORDER_CALM_MS)
		return;
	if (vtrace_settings_set_percent(&rec->settings,
					VTRACE_RECORDER_BUFFER_PERCENT))
		return;
	rec->lowered = false;
	rec->wakeups.restored++;
}

/*
 * After a wake-up that moved @backlog sub-buffers: a buffer that lost
 * events since the last one, or was found at least half full, is read
 * too late at buffer_percent 25 (the reader, woken, waits for its time
 * slice while the writer fills the rest). Woken at one full sub-buffer
 * instead, it has nearly the whole buffer as slack.
 */
static void adapt_wakeups(struct cpu_thread *t, unsigned long long backlog)
{
	struct vtrace_recorder *rec = t->rec;
	const struct vtrace_ring_stats *st =
		vtrace_ring_reader_stats(rec->readers[t->cpu]);
	unsigned long long lost = st->kernel_lost > st->missed_events ?
					  st->kernel_lost :
					  st->missed_events;
	bool lost_more = lost > t->seen_lost;
	bool near_full = rec->nr_subbufs && backlog * 2 >= rec->nr_subbufs;

	t->seen_lost = lost;
	pthread_mutex_lock(&rec->adapt_lock);
	if (lost_more || near_full)
		lower_percent(rec, lost_more);
	else
		restore_percent(rec);
	pthread_mutex_unlock(&rec->adapt_lock);
}

/*
 * Read, and read again at once while the last read found complete
 * sub-buffers: under a heavy load more fill while one is written out,
 * and going back to poll() would leave them until the next wake-up.
 * Ends when the buffer has none, or the recording is to stop.
 */
static int read_while_ready(struct cpu_thread *t)
{
	struct vtrace_recorder *rec = t->rec;
	const struct vtrace_ring_stats *st =
		vtrace_ring_reader_stats(rec->readers[t->cpu]);
	unsigned long long start = st->subbufs, before;
	int ret;

	for (;;) {
		before = st->subbufs;
		ret = consume_cpu(t, false);
		if (ret || st->subbufs == before ||
		    atomic_load(&rec->reason) != VTRACE_STOP_NONE)
			break;
		t->rereads++;
	}
	adapt_wakeups(t, st->subbufs - start);
	return ret;
}

/* Back to the caller's policy (lowering one's own needs no privilege). */
static void restore_policy(struct cpu_thread *t)
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

/* A reader thread to the caller's policy, or back to opts.rt_prio. */
static bool set_reader_policy(struct cpu_thread *t, bool realtime)
{
	struct vtrace_recorder *rec = t->rec;
	struct sched_param param = { .sched_priority = rec->opts.rt_prio };

	if (realtime)
		return !pthread_setschedparam(t->id, SCHED_FIFO, &param);
	return !pthread_setschedparam(t->id, rec->caller_policy,
				      &rec->caller_param);
}

static void look_for_calm(struct cpu_thread *t)
{
	clock_gettime(CLOCK_MONOTONIC, &t->calm_since);
	t->calm_waited_ns = t->sched.waited_ns;
	t->calm_broken = false;
}

/*
 * A reader at a realtime priority that tasks above it keep off every CPU
 * gets no time at all, where one at the caller's policy still gets the
 * fair server's share (or, before 6.12, what realtime throttling leaves
 * to the normal policy). Found runnable at two readings in a row without
 * having run in between, it is starved, and goes to the caller's policy.
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

	if (!tid || t->policy_final)
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
	calm_ms = since(&t->calm_since) * 1000;
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

static void watch_readers(struct vtrace_recorder *rec)
{
	int cpu;

	pthread_mutex_lock(&rec->policy_lock);
	for (cpu = 0; cpu < rec->nr_cpus; cpu++)
		if (rec->threads[cpu].running)
			watch_reader(&rec->threads[cpu]);
	pthread_mutex_unlock(&rec->policy_lock);
}

/*
 * A CPU's reader thread: consumes until vtrace_recorder_stop() makes
 * stop_fd readable, then drains what is left once tracing is off.
 *
 * One reader thread per CPU, each polling its own CPU's buffer: under a
 * load that keeps every CPU busy, a single thread reading all buffers
 * gets a share of one CPU's time and loses events; one per CPU gets a
 * share of each.
 */
static void *record_cpu(void *arg)
{
	struct cpu_thread *t = arg;
	struct vtrace_recorder *rec = t->rec;
	struct pollfd pfd[2] = {
		{ .fd = vtrace_ring_reader_fd(rec->readers[t->cpu]),
		  .events = POLLIN },
		{ .fd = rec->stop_fd, .events = POLLIN },
	};
	cpu_set_t on_cpu;

	atomic_store(&t->tid, gettid());
	/*
	 * At the caller's policy, run on the CPU whose buffer this thread
	 * reads, so that under a load on every CPU each reader competes
	 * for its own CPU only, never with another reader for the same
	 * one. At a realtime priority the thread is left free: woken, it
	 * still preempts a writer at once, and where a task above it holds
	 * its own CPU it runs in another CPU's idle time instead of
	 * waiting. An offline CPU refuses the mask; the thread then runs
	 * where it is put.
	 */
	if (!rec->opts.rt_prio) {
		CPU_ZERO(&on_cpu);
		CPU_SET(t->cpu, &on_cpu);
		sched_setaffinity(0, sizeof(on_cpu), &on_cpu);
	}

	/* RING_BUFFER: the kernel keeps the newest data until the stop. */
	while (rec->opts.fill_policy == VTRACE_FILL_RING_BUFFER &&
	       !(pfd[1].revents & POLLIN)) {
		if (poll(pfd + 1, 1, -1) < 0 && errno != EINTR) {
			t->err = -errno;
			break;
		}
	}
	while (!(pfd[1].revents & POLLIN) && !t->err) {
		if (poll(pfd, 2, rec->opts.drain_period_ms) < 0) {
			t->err = -errno;
			rec_error(rec, "poll cpu%d: %s", t->cpu,
				  strerror(errno));
			break;
		}
		t->err = read_while_ready(t);
		if (t->err)
			break;
		publish_stats(t);
	}
	/* Tracing is off: the drain has no writer to keep up with. */
	if (rec->opts.rt_prio)
		restore_policy(t);
	if (t->err)
		fail(rec, t->err);
	else if (atomic_load(&rec->drain))
		t->drain_err = consume_cpu(t, true);
	t->subbufs = vtrace_ring_reader_stats(rec->readers[t->cpu])->subbufs;
	t->batches = vtrace_ring_reader_stats(rec->readers[t->cpu])->batches;
	return NULL;
}

/*
 * A reader thread starts at vtrace_recorder_opts.rt_prio when asked:
 * woken, it preempts the writer on its CPU at once instead of waiting
 * for the writer's time slice to end.
 */
static int reader_attr(struct vtrace_recorder *rec, pthread_attr_t *attr)
{
	struct sched_param param = { .sched_priority = rec->opts.rt_prio };
	int err;

	err = pthread_attr_init(attr);
	if (err || !rec->opts.rt_prio)
		return err;
	err = pthread_attr_setinheritsched(attr, PTHREAD_EXPLICIT_SCHED) ?:
		      pthread_attr_setschedpolicy(attr, SCHED_FIFO)	 ?:
		      pthread_attr_setschedparam(attr, &param);
	if (err)
		pthread_attr_destroy(attr);
	return err;
}

/* Signals go to the caller's thread, never to a reader's poll(). */
static int start_thread(struct vtrace_recorder *rec, int cpu)
{
	struct cpu_thread *t = &rec->threads[cpu];
	sigset_t all, old;
	int err;

	pthread_attr_t attr;
	char name[24]; /* the kernel keeps the first 15 characters */

	err = reader_attr(rec, &attr);
	if (err) {
		rec_error(rec, "cannot set up the reader of cpu%d: %s", cpu,
			  strerror(err));
		return -err;
	}
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&t->id, &attr, record_cpu, t);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	if (err) {
		rec_error(rec, "cannot start the reader of cpu%d: %s%s", cpu,
			  strerror(err),
			  err == EPERM ? " (at a realtime priority)" : "");
		return -err;
	}
	snprintf(name, sizeof(name), "vtrace-cpu%d", cpu);
	name[15] = '\0';
	pthread_setname_np(t->id, name);
	t->running = true;
	return 0;
}

static void account_cpu(struct vtrace_recorder *rec, int cpu)
{
	const struct cpu_thread *t = &rec->threads[cpu];
	const struct vtrace_ring_counters *end = &rec->end[cpu];
	struct vtrace_cpu_account *a = &rec->accounts[cpu];
	const struct vtrace_ring_stats *all;
	unsigned long long by_buffer;

	*a = (struct vtrace_cpu_account){ 0 };
	if (!rec->readers[cpu])
		return;
	all = vtrace_ring_reader_stats(rec->readers[cpu]);
	a->present = 1;
	a->events = all->events - t->discarded_events - t->dropped_events;
	a->bytes = all->bytes - t->discarded_bytes - t->dropped_bytes;
	/*
	 * The buffer counts what it overwrote or dropped; sub-buffer
	 * headers tell the same from the reader's side. Events drained
	 * after a sink failure are lost too.
	 */
	by_buffer = vtrace_ring_counters_lost(end);
	a->lost = by_buffer > all->missed_events ? by_buffer :
						   all->missed_events;
	a->lost += t->discarded_events + t->dropped_events;
	a->backpressure = t->dropped_events;
	a->overrun = end->overrun;
	a->commit_overrun = end->commit_overrun;
	a->dropped_events = end->dropped_events;
	a->entries_left = end->entries;
}

/*
 * Undo the set-up in reverse: events, readers (a mapped buffer cannot be
 * resized back), the output (finished when @finish, else aborted), the
 * settings. Returns the first error.
 */
static int tear_down(struct vtrace_recorder *rec, bool finish)
{
	struct vtrace_sink_end end = {
		.nr_cpus = rec->nr_cpus,
		.cpus = rec->accounts,
	};
	struct vtrace_sink *sink = rec->sink;
	int ret = 0, err, cpu;

	if (rec->state >= REC_BEGUN) {
		err = vtrace_events_restore(rec->opts.instance, rec->changes,
					    rec->opts.nr_events);
		/* A module's events vanish with it: nothing to put back. */
		if (err && err != -ENOENT) {
			rec_error(rec, "cannot restore the events: %s",
				  strerror(-err));
			ret = ret ?: err;
		}
	}
	for (cpu = 0; cpu < rec->nr_cpus; cpu++) {
		vtrace_ring_reader_close(rec->readers[cpu]);
		rec->readers[cpu] = NULL;
	}
	if (rec->state >= REC_BEGUN && finish) {
		err = sink->ops->finish(sink, &end);
		if (err) {
			rec_error(rec, "cannot finish %s: %s", sink->path,
				  sink->ops->strerror(sink));
			ret = ret ?: err;
		}
	} else if (rec->state >= REC_BEGUN) {
		sink->ops->abort(sink);
	}
	if (rec->settings_saved) {
		err = vtrace_settings_restore(&rec->settings);
		if (err) {
			rec_error(rec, "%s", rec->settings.restore_error);
			ret = ret ?: err;
		}
		vtrace_settings_free(&rec->settings);
		rec->settings_saved = false;
	}
	rec->state = REC_STOPPED;
	return ret;
}

/*
 * Switch tracing off, let every CPU's thread bring out what is left, read
 * the final counters, then tear down. A CPU whose thread did not start is
 * drained from here.
 */
static int stop_and_drain(struct vtrace_recorder *rec)
{
	bool failed_before = sink_failed(rec);
	struct cpu_thread *t;
	int cpu, ret;

	if (rec->opts.hooks && rec->opts.hooks->stopping)
		rec->opts.hooks->stopping(rec->opts.hooks_ctx, rec);
	set_reason(rec, VTRACE_STOP_REQUEST);
	rec->elapsed = since(&rec->start);
	ret = vtrace_settings_set_tracing_on(&rec->settings, 0);
	if (ret)
		rec_error(rec, "cannot stop tracing: %s", strerror(-ret));
	atomic_store(&rec->drain, !ret);
	eventfd_write(rec->stop_fd, 1);
	for (cpu = 0; cpu < rec->nr_cpus; cpu++) {
		if (!rec->readers[cpu])
			continue;
		t = &rec->threads[cpu];
		if (t->running)
			pthread_join(t->id, NULL);
		else if (!ret)
			t->drain_err = consume_cpu(t, true);
		t->running = false;
		vt_thread_sched_close(t->sched_fds);
		ret = ret ?: t->drain_err;
		vtrace_ring_counters_read(rec->tfs, cpu, &rec->end[cpu]);
		account_cpu(rec, cpu);
	}
	if (!ret && !failed_before && sink_failed(rec))
		ret = rec->sink_err;
	vtrace_test_phase("drain");
	return tear_down(rec, true) ?: ret;
}

/**
 * vtrace_recorder_start - set tracefs up and start recording
 * @rec: a recorder from vtrace_recorder_create()
 *
 * Saves the instance's settings, switches tracing off, sets the buffer
 * size, trace_clock, buffer_percent and sub-buffer size, empties the
 * buffer, opens every CPU's reader, begins the sink, enables the events,
 * switches tracing on and starts one reader thread per CPU, then calls
 * ->started(). When a step fails every one taken is undone (the sink
 * aborted); when only a thread fails to start, what was recorded is
 * drained and finished as by vtrace_recorder_stop().
 *
 * Return: 0 or a negative errno (-EBUSY: another tracer holds the buffer;
 * -EOPNOTSUPP: the reader asked for is not offered by this kernel; the
 * sink's error when it cannot begin).
 */
int vtrace_recorder_start(struct vtrace_recorder *rec)
{
	int cpu, ret;

	new_call(rec);
	if (rec->state != REC_NEW)
		return -EINVAL;
	ret = set_up(rec);
	if (ret) {
		tear_down(rec, false);
		return ret;
	}
	rec->state = REC_RUNNING;
	for (cpu = 0; cpu < rec->nr_cpus; cpu++) {
		if (!rec->readers[cpu])
			continue;
		ret = start_thread(rec, cpu);
		if (ret) {
			fail(rec, ret);
			stop_and_drain(rec);
			return ret;
		}
	}
	if (rec->opts.hooks && rec->opts.hooks->started)
		rec->opts.hooks->started(rec->opts.hooks_ctx, rec);
	return 0;
}

/*
 * A CPU first online during the recording (the instance was made while it
 * was offline) gets its ring buffer only then: read it from then on.
 */
static int adopt_new_cpus(struct vtrace_recorder *rec)
{
	int cpu, ret;

	for (cpu = 0; cpu < rec->nr_cpus; cpu++) {
		if (rec->readers[cpu])
			continue;
		ret = open_reader(rec, cpu);
		if (ret == -ENODEV)
			continue;
		if (ret)
			return ret;
		if (rec->opts.hooks && rec->opts.hooks->cpu_added)
			rec->opts.hooks->cpu_added(rec->opts.hooks_ctx, rec,
						   cpu);
		ret = start_thread(rec, cpu);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Wait up to @timeout_ms (< 0: without end) for wake_fd or a signal; with
 * the readers at a realtime priority, look at them every
 * VTRACE_RECORDER_WATCH_MS meanwhile.
 */
static void wait_watching(struct vtrace_recorder *rec, int timeout_ms)
{
	struct pollfd wake = { .fd = rec->wake_fd, .events = POLLIN };
	int slice, left_ms = timeout_ms;
	struct timespec t0;
	eventfd_t count;
	int n;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		slice = left_ms;
		if (rec->opts.rt_prio &&
		    (slice < 0 || slice > VTRACE_RECORDER_WATCH_MS))
			slice = VTRACE_RECORDER_WATCH_MS;
		n = poll(&wake, 1, slice);
		if (n < 0 && errno != EINTR) {
			rec_error(rec, "poll: %s", strerror(errno));
			fail(rec, -errno);
		}
		if (rec->opts.rt_prio)
			watch_readers(rec);
		if (n)
			break;
		if (timeout_ms >= 0) {
			left_ms = timeout_ms - since(&t0) * 1000;
			if (left_ms <= 0)
				break;
		}
	}
	eventfd_read(rec->wake_fd, &count);
}

/**
 * vtrace_recorder_poll - wait while the recording runs
 * @rec: a started recorder
 * @timeout_ms: longest wait
 *
 * Returns when the recording should stop (its duration has passed,
 * vtrace_recorder_request_stop() or vtrace_recorder_abort() was called,
 * a reader or the sink failed), when @timeout_ms has passed, or when a
 * signal interrupted the wait. Also starts reading CPUs that came online.
 * Call vtrace_recorder_stop() once it says so.
 *
 * Return: 1 when the recording should stop, 0 when not yet, or the
 * negative errno of the failure that stopped it.
 */
int vtrace_recorder_poll(struct vtrace_recorder *rec, int timeout_ms)
{
	long long left_ms;
	int ret;

	new_call(rec);
	if (rec->state != REC_RUNNING)
		return -EINVAL;
	if (atomic_load(&rec->reason) == VTRACE_STOP_NONE) {
		if (rec->opts.duration_ms) {
			left_ms = rec->opts.duration_ms -
				  since(&rec->start) * 1000;
			if (left_ms <= 0)
				set_reason(rec, VTRACE_STOP_DURATION);
			else if (left_ms < timeout_ms)
				timeout_ms = left_ms;
		}
		wait_watching(rec, timeout_ms);
	}
	if (atomic_load(&rec->reason) == VTRACE_STOP_NONE) {
		ret = adopt_new_cpus(rec);
		if (ret)
			fail(rec, ret);
	}
	switch (atomic_load(&rec->reason)) {
	case VTRACE_STOP_NONE:
		return 0;
	case VTRACE_STOP_FAILED:
		return rec->fail_err;
	default:
		return 1;
	}
}

/**
 * vtrace_recorder_run - record until the recording should stop
 * @rec: a started recorder
 *
 * vtrace_recorder_poll() in a loop, calling ->tick() after each
 * vtrace_recorder_opts.tick_ms and once more at the end.
 *
 * Return: 0, or the negative errno of the failure that stopped it (a
 * reader's, or the sink's: see vtrace_recorder_sink_failed()).
 */
int vtrace_recorder_run(struct vtrace_recorder *rec)
{
	const struct vtrace_recorder_hooks *hooks = rec->opts.hooks;
	int ret;

	do {
		ret = vtrace_recorder_poll(rec, rec->opts.tick_ms);
		if (hooks && hooks->tick &&
		    hooks->tick(rec->opts.hooks_ctx, rec))
			vtrace_recorder_request_stop(rec);
	} while (!ret);
	return ret < 0 ? ret : 0;
}

/**
 * vtrace_recorder_request_stop - ask a recording to stop
 * @rec: the recorder
 *
 * Async-signal-safe, and safe from any thread: a signal handler may call
 * it. vtrace_recorder_poll() then returns 1; nothing stops until
 * vtrace_recorder_stop() is called.
 */
void vtrace_recorder_request_stop(struct vtrace_recorder *rec)
{
	set_reason(rec, VTRACE_STOP_REQUEST);
}

/**
 * vtrace_recorder_abort - ask a recording to stop, for a reason
 * @rec: the recorder
 * @reason: why (another session took the buffer, ...), borrowed until
 *	@rec is destroyed
 *
 * As vtrace_recorder_request_stop(), but vtrace_recorder_stop_reason()
 * then says %VTRACE_STOP_ABORT and @reason. The recording still drains,
 * finishes its output and restores tracefs. Safe from any thread, not
 * from a signal handler.
 */
void vtrace_recorder_abort(struct vtrace_recorder *rec, const char *reason)
{
	pthread_mutex_lock(&rec->lock);
	if (!rec->abort_reason)
		rec->abort_reason = reason;
	pthread_mutex_unlock(&rec->lock);
	set_reason(rec, VTRACE_STOP_ABORT);
}

/**
 * vtrace_recorder_stop - end a recording and put tracefs back
 * @rec: the recorder
 *
 * Calls ->stopping(), switches tracing off, lets every CPU's thread drain
 * what is left in its buffer (partly filled sub-buffers included), reads
 * each CPU's final counters, then restores the events, closes the readers,
 * finishes the sink and restores the settings. Does nothing when the
 * recording is not running.
 *
 * Return: 0, or the negative errno of the first failure (every step is
 * still attempted).
 */
int vtrace_recorder_stop(struct vtrace_recorder *rec)
{
	new_call(rec);
	if (rec->state != REC_RUNNING)
		return 0;
	return stop_and_drain(rec);
}

/**
 * vtrace_recorder_destroy - free a recorder
 * @rec: the recorder, may be NULL
 *
 * Stops it first when it is still running. The sink is freed too.
 */
void vtrace_recorder_destroy(struct vtrace_recorder *rec)
{
	if (!rec)
		return;
	vtrace_recorder_stop(rec);
	vtrace_sink_free(rec->sink);
	if (rec->stop_fd >= 0)
		close(rec->stop_fd);
	if (rec->wake_fd >= 0)
		close(rec->wake_fd);
	free(rec->readers);
	free(rec->threads);
	free(rec->accounts);
	free(rec->end);
	free(rec->shown);
	free(rec->changes);
	free(rec->clock);
	pthread_mutex_destroy(&rec->adapt_lock);
	pthread_mutex_destroy(&rec->policy_lock);
	pthread_mutex_destroy(&rec->lock);
	free(rec);
}

/**
 * vtrace_recorder_strerror - describe what the last call found
 * @rec: the recorder
 *
 * Return: the messages of the failures the last vtrace_recorder_*() call
 * that can fail met, joined by "; ", or "" when there were none. Valid
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
	return sink_failed((struct vtrace_recorder *)rec);
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
						 since(&rec->start);
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
 * Also tells whether the readers ran at a realtime priority.
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
