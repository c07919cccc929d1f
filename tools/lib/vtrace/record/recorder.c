// SPDX-License-Identifier: LGPL-2.1
/*
 * The recording engine (see recorder.h): per-CPU reader threads, the
 * drain at the end, CPUs that come online mid-recording, sink failures
 * and loss accounting. The set-up and its undoing, the wake-up policy,
 * the realtime watchdog and the results are apart (recorder-local.h).
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
#include <vtrace/recorder.h>
#include <vtrace/ring-stats.h>
#include "base/test-phase.h"

#include <vtrace/file-io.h>
#include <vtrace/probes.h>

#include "record/recorder-local.h"

/*
 * A reader's sink saw a thread for the first time. The data sources
 * start after the readers: until then there is nobody to tell (the
 * process tree written at their start has the threads of that time).
 */
static void note_new_pid(void *ctx, int pid)
{
	struct vtrace_recorder *rec = ctx;
	struct vtrace_probes *probes;

	probes = __atomic_load_n(&rec->probes, __ATOMIC_ACQUIRE);
	if (probes)
		vtrace_probes_note_pid(probes, pid);
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
		vt_rec_error(rec, "nothing to record");
		return -EINVAL;
	}
	if (opts->probes && vtrace_probes_wanted(opts->probes) &&
	    !sink->ops->add_packet) {
		vt_rec_error(
			rec,
			"the %s format has no place for the data sources beside ftrace",
			sink->ops->name);
		return -EOPNOTSUPP;
	}
	if (opts->probes && opts->probes->process_stats.enabled &&
	    opts->probes->process_stats.on_demand) {
		sink->on_new_pid = note_new_pid;
		sink->on_new_pid_ctx = rec;
	}
	if (opts->fill_policy != VTRACE_FILL_STREAM && !opts->max_file_size) {
		vt_rec_error(rec, "a %s recording needs a maximum size",
			     opts->fill_policy == VTRACE_FILL_DISCARD ?
				     "DISCARD" :
				     "RING_BUFFER");
		return -EINVAL;
	}
	ret = vt_rec_check_rt_prio(rec);
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
		vt_rec_error(rec, "eventfd: %s", strerror(errno));
		return -errno;
	}
	return 0;
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

/*
 * DISCARD: once max_file_size bytes are written, nothing more is taken and
 * the recording stops (VTRACE_STOP_FULL), as Perfetto stops a trace whose
 * file is full. Of @size bytes offered in whole sub-buffers of @unit
 * bytes, returns how many may be written.
 */
static size_t within_limit(struct vtrace_recorder *rec, size_t size,
			   size_t unit)
{
	unsigned long long room;
	size_t take = size;

	if (rec->opts.fill_policy != VTRACE_FILL_DISCARD)
		return size;
	pthread_mutex_lock(&rec->lock);
	room = rec->full || rec->taken > rec->opts.max_file_size ?
		       0 :
		       rec->opts.max_file_size - rec->taken;
	if (take > room) {
		take = room / unit * unit;
		rec->full = true;
	}
	rec->taken += take;
	pthread_mutex_unlock(&rec->lock);
	if (take < size)
		vt_rec_set_reason(rec, VTRACE_STOP_FULL);
	return take;
}

/* Each sub-buffer of @size bytes at @subbufs, to discard_subbuf(). */
static void discard_subbufs(struct cpu_thread *t, int cpu, const char *subbufs,
			    size_t size)
{
	size_t unit = vtrace_ring_reader_subbuf_size(t->rec->readers[cpu]);
	size_t off;

	for (off = 0; off < size; off += unit)
		discard_subbuf(t, cpu, subbufs + off, unit);
}

static int to_sink(void *ctx, int cpu, const void *subbuf, size_t size)
{
	struct cpu_thread *t = ctx;
	struct vtrace_sink *sink = t->rec->sink;

	if (within_limit(t->rec, size, size) < size)
		return discard_subbuf(ctx, cpu, subbuf, size);

	t->sink_err = sink->ops->add_subbuf(sink, cpu, subbuf, size);
	if (t->sink_err == VTRACE_SINK_DROPPED) {
		t->sink_err = 0;
		t->dropped_events +=
			vtrace_ring_subbuf_events(t->rec->readers[cpu], subbuf);
		t->dropped_bytes += size;
	} else if (!t->sink_err) {
		vt_test_phase("streaming");
	}
	return t->sink_err;
}

/*
 * to_sink() for sub-buffers still in a pipe (vtrace_ring_pipe_fn): those
 * within the limit are spliced on, the rest read out and discarded.
 */
static int to_sink_pipe(void *ctx, int cpu, int pipe, size_t size, void *spill,
			size_t *kept)
{
	struct cpu_thread *t = ctx;
	struct vtrace_sink *sink = t->rec->sink;
	size_t unit = vtrace_ring_reader_subbuf_size(t->rec->readers[cpu]);
	size_t take = within_limit(t->rec, size, unit);
	size_t off, stored = 0;
	int ret;

	t->sink_err = take ? sink->ops->splice_subbuf(sink, cpu, pipe, take,
						      spill, &stored) :
			     0;
	if (t->sink_err == VTRACE_SINK_DROPPED) {
		t->sink_err = 0;
		for (off = 0; off < take; off += unit)
			t->dropped_events += vtrace_ring_subbuf_events(
				t->rec->readers[cpu], (char *)spill + off);
		t->dropped_bytes += take;
	} else if (!t->sink_err && take) {
		vt_test_phase("streaming");
	}
	/* Past the limit, or refused: the rest comes out of the pipe too. */
	ret = vtrace_read_all(pipe, (char *)spill + take, size - take);
	if (t->sink_err)
		*kept = stored;
	if (ret)
		return ret;
	if (t->sink_err)
		return t->sink_err;
	discard_subbufs(t, cpu, (char *)spill + take, size - take);
	return 0;
}

/* A data source's packet, from its thread or the recorder's. */
static int to_sink_packet(void *ctx, const void *packet, size_t len)
{
	struct vtrace_recorder *rec = ctx;

	return rec->sink->ops->add_packet(rec->sink, packet, len);
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
	vt_rec_error(rec, "writing %s: %s; the recording stops",
		     rec->sink->path, rec->sink->ops->strerror(rec->sink));
	vt_rec_fail(rec, err);
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

	if (!t->discarding && vt_rec_sink_failed(rec))
		t->discarding = true;
	for (;;) {
		fn = t->discarding ? discard_subbuf : to_sink;
		/* Not on the other reader paths (-EOPNOTSUPP): add_subbuf. */
		pipe_fn = rec->sink->splice_batch && !t->discarding ?
				  to_sink_pipe :
				  NULL;
		vtrace_ring_reader_splice_out(reader, pipe_fn,
					      rec->sink->splice_batch);
		t->sink_err = 0;
		ret = drain ? vtrace_ring_reader_drain(reader, fn, t) :
			      vtrace_ring_reader_consume(reader, fn, t);
		if (t->discarding || !t->sink_err)
			break;
		t->discarding = true;
		note_sink_error(rec, t->sink_err);
	}
	if (ret)
		vt_rec_error(rec, "reading cpu%d: %s", t->cpu, strerror(-ret));
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

/*
 * Read, and read again at once while the last read found the buffer near
 * full: what filled while it was written out would otherwise wait for a
 * wake-up that may come too late. Otherwise poll() again, which returns
 * at once if the buffer is already at buffer_percent: one more read that
 * finds nothing costs the traced task a system call at every wake-up.
 * Ends there, or when the recording is to stop.
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
		if (rec->nr_subbufs &&
		    !vt_rec_found_near_full(rec, st->subbufs - before))
			break;
		t->rereads++;
	}
	vt_rec_adapt_wakeups(t, st->subbufs - start);
	return ret;
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

	atomic_store(&t->tid, gettid());
	vt_rec_pin_reader(t, true);

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
			vt_rec_error(rec, "poll cpu%d: %s", t->cpu,
				     strerror(errno));
			break;
		}
		t->err = read_while_ready(t);
		if (t->err)
			break;
		publish_stats(t);
	}
	/* Tracing is off: the drain has no writer to keep up with. */
	if (rec->policy == VTRACE_READERS_KEEP_ALL || t->raised)
		vt_rec_restore_policy(t);
	if (t->err)
		vt_rec_fail(rec, t->err);
	else if (atomic_load(&rec->drain))
		t->drain_err = consume_cpu(t, true);
	t->subbufs = vtrace_ring_reader_stats(rec->readers[t->cpu])->subbufs;
	t->batches = vtrace_ring_reader_stats(rec->readers[t->cpu])->batches;
	return NULL;
}

/*
 * %VTRACE_READERS_KEEP_ALL: a reader thread starts at
 * vtrace_recorder_opts.rt_prio: woken, it preempts the writer on its CPU
 * at once instead of waiting for the writer's time slice to end.
 */
static int reader_attr(struct vtrace_recorder *rec, pthread_attr_t *attr)
{
	struct sched_param param = { .sched_priority = rec->opts.rt_prio };
	int err;

	err = pthread_attr_init(attr);
	if (err || rec->policy != VTRACE_READERS_KEEP_ALL)
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
		vt_rec_error(rec, "cannot set up the reader of cpu%d: %s", cpu,
			     strerror(err));
		return -err;
	}
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&t->id, &attr, record_cpu, t);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	if (err) {
		vt_rec_error(rec, "cannot start the reader of cpu%d: %s%s", cpu,
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
	a->kernel_lost = by_buffer > all->missed_events ? by_buffer :
							  all->missed_events;
	a->output_lost = t->discarded_events;
	a->lost = a->kernel_lost + a->output_lost + t->dropped_events;
	a->backpressure = t->dropped_events;
	a->overrun = end->overrun;
	a->commit_overrun = end->commit_overrun;
	a->dropped_events = end->dropped_events;
	a->entries_left = end->entries;
}

/*
 * Switch tracing off, let every CPU's thread bring out what is left, read
 * the final counters, then tear down. A CPU whose thread did not start is
 * drained from here.
 */
static int stop_and_drain(struct vtrace_recorder *rec)
{
	bool failed_before = vt_rec_sink_failed(rec);
	struct cpu_thread *t;
	int cpu, ret, probes_ret = 0;

	if (rec->opts.hooks && rec->opts.hooks->stopping)
		rec->opts.hooks->stopping(rec->opts.hooks_ctx, rec);
	vt_rec_set_reason(rec, VTRACE_STOP_REQUEST);
	rec->elapsed = vt_rec_since(&rec->start);
	ret = vt_settings_set_tracing_on(&rec->settings, 0);
	if (ret)
		vt_rec_error(rec, "cannot stop tracing: %s", strerror(-ret));
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
	/*
	 * After the drain, which may name new processes, and before the sink
	 * is finished: their last packets go in.
	 */
	if (rec->probes) {
		probes_ret = vtrace_probes_stop(rec->probes);
		if (probes_ret)
			vt_rec_error(rec, "data sources beside ftrace: %s",
				     strerror(-probes_ret));
	}
	if (!ret && !failed_before && vt_rec_sink_failed(rec))
		ret = rec->sink_err;
	vt_test_phase("drain");
	return vt_rec_tear_down(rec, true) ?: ret ?: probes_ret;
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
	struct vtrace_probes *probes;
	int cpu, ret;

	vt_rec_new_call(rec);
	if (rec->state != REC_NEW)
		return -EINVAL;
	ret = vt_rec_set_up(rec);
	if (ret) {
		vt_rec_tear_down(rec, false);
		return ret;
	}
	rec->state = REC_RUNNING;
	for (cpu = 0; cpu < rec->nr_cpus; cpu++) {
		if (!rec->readers[cpu])
			continue;
		ret = start_thread(rec, cpu);
		if (ret) {
			vt_rec_fail(rec, ret);
			stop_and_drain(rec);
			return ret;
		}
	}
	if (rec->opts.probes && vtrace_probes_wanted(rec->opts.probes)) {
		ret = vtrace_probes_start(&probes, rec->opts.probes,
					  to_sink_packet, rec);
		if (ret) {
			vt_rec_error(rec, "data sources beside ftrace: %s",
				     strerror(-ret));
			vt_rec_fail(rec, ret);
			stop_and_drain(rec);
			return ret;
		}
		__atomic_store_n(&rec->probes, probes, __ATOMIC_RELEASE);
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
		ret = vt_rec_open_reader(rec, cpu);
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
		if (rec->policy != VTRACE_READERS_LIGHT &&
		    (slice < 0 || slice > VTRACE_RECORDER_WATCH_MS))
			slice = VTRACE_RECORDER_WATCH_MS;
		n = poll(&wake, 1, slice);
		if (n < 0 && errno != EINTR) {
			vt_rec_error(rec, "poll: %s", strerror(errno));
			vt_rec_fail(rec, -errno);
		}
		if (rec->policy != VTRACE_READERS_LIGHT)
			vt_rec_watch_readers(rec);
		if (n)
			break;
		if (timeout_ms >= 0) {
			left_ms = timeout_ms - vt_rec_since(&t0) * 1000;
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

	vt_rec_new_call(rec);
	if (rec->state != REC_RUNNING)
		return -EINVAL;
	if (atomic_load(&rec->reason) == VTRACE_STOP_NONE) {
		if (rec->opts.duration_ms) {
			left_ms = rec->opts.duration_ms -
				  vt_rec_since(&rec->start) * 1000;
			if (left_ms <= 0)
				vt_rec_set_reason(rec, VTRACE_STOP_DURATION);
			else if (left_ms < timeout_ms)
				timeout_ms = left_ms;
		}
		wait_watching(rec, timeout_ms);
	}
	if (atomic_load(&rec->reason) == VTRACE_STOP_NONE) {
		ret = adopt_new_cpus(rec);
		if (ret)
			vt_rec_fail(rec, ret);
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
	vt_rec_set_reason(rec, VTRACE_STOP_REQUEST);
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
	vt_rec_set_reason(rec, VTRACE_STOP_ABORT);
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
	vt_rec_new_call(rec);
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
	vtrace_probes_free(rec->probes);
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
