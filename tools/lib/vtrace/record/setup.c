// SPDX-License-Identifier: LGPL-2.1
/*
 * The tracefs set-up of a recording, in the order that keeps failures
 * clean, and its undoing: settings (tracefs/record-settings.c), readers,
 * output, events.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include <vtrace/events.h>
#include <vtrace/journal.h>
#include <vtrace/state-dir.h>

#include "base/test-phase.h"
#include "record/recorder-local.h"

/*
 * A knob the recording chose a value for itself: a refusal leaves the
 * kernel's value in force and is noted. Returns @err for any other
 * failure, else 0.
 */
static int optional_knob(struct vtrace_recorder *rec, const char *knob, int err)
{
	char value[VTRACE_KNOB_VALUE_MAX];

	if (!err || !vt_knob_refusal(err))
		return err;
	vt_settings_read_back(&rec->settings, knob, value, sizeof(value));
	vt_rec_note_not_set(rec, knob, err, value);
	return 0;
}

static int settings_error(struct vtrace_recorder *rec, const char *what,
			  int err)
{
	if (err == -EBUSY)
		vt_rec_error(
			rec,
			"tracefs is busy: cannot set %s: %s (another tracer holds this buffer; try --instance NAME)",
			what, strerror(-err));
	else
		vt_rec_error(rec, "cannot set %s: %s", what, strerror(-err));
	return err;
}

/* -ENODEV: @cpu has no ring buffer (yet); other failures are told. */
int vt_rec_open_reader(struct vtrace_recorder *rec, int cpu)
{
	int ret;

	ret = vtrace_ring_reader_open(rec->tfs, cpu, rec->opts.reader,
				      &rec->readers[cpu]);
	if (ret == -EOPNOTSUPP)
		vt_rec_error(
			rec,
			"the %s reader is not offered by this kernel (ring-buffer mmap needs Linux 6.10); use --reader auto",
			vtrace_reader_path_name(rec->opts.reader));
	else if (ret && ret != -ENODEV)
		vt_rec_error(rec,
			     "cannot open per_cpu/cpu%d/trace_pipe_raw: %s",
			     cpu, strerror(-ret));
	return ret;
}

static int open_readers(struct vtrace_recorder *rec)
{
	int cpu, ret;

	for (cpu = 0; cpu < rec->nr_cpus; cpu++) {
		ret = vt_rec_open_reader(rec, cpu);
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
	ret = vt_settings_set_subbuf_kb(&rec->settings, kb);
	return optional_knob(rec, "buffer_subbuf_size_kb", ret);
}

static int set_clock(struct vtrace_recorder *rec)
{
	const char *clock = rec->opts.clock ?: rec->sink->ops->clock;
	int ret;

	ret = vt_settings_set_clock(&rec->settings, clock);
	if (!rec->opts.clock)
		ret = optional_knob(rec, "trace_clock", ret);
	if (ret == -EINVAL)
		vt_rec_error(rec, "unknown clock '%s' (see trace_clock)",
			     clock);
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
		ret = vt_settings_set_cpumask(&rec->settings, o->cpumask);
		if (ret)
			return settings_error(rec, "tracing_cpumask", ret);
	}
	if (o->nr_tids) {
		ret = vt_settings_set_event_pids(&rec->settings, o->tids,
						 o->nr_tids);
		if (ret)
			return settings_error(rec, "set_event_pid", ret);
	}
	/* The ring buffer policy is the kernel's overwrite mode. */
	if (o->fill_policy == VTRACE_FILL_RING_BUFFER) {
		ret = vt_settings_set_option(&rec->settings, "overwrite");
		if (ret)
			return settings_error(rec, "options/overwrite", ret);
	}
	/*
	 * saved_tgids, which the Perfetto sink turns into processes, only
	 * fills while record-tgid is on; instances do not have it.
	 */
	ret = vt_settings_set_option(&rec->settings, "record-tgid");
	ret = optional_knob(rec, "options/record-tgid", ret);
	if (ret)
		return settings_error(rec, "options/record-tgid", ret);
	for (opt = o->tracefs_options; opt && *opt; opt++) {
		ret = vt_settings_set_option(&rec->settings, *opt);
		if (ret == -ENOENT) {
			vt_rec_error(
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

/*
 * The wake-up mark: %VTRACE_RECORDER_BUFFER_PERCENT where that leaves
 * %VTRACE_RECORDER_FREE_SUBBUFS sub-buffers free, lower in a buffer of
 * few, but not below %VTRACE_RECORDER_MIN_PERCENT.
 */
static int wake_mark(const struct vtrace_recorder *rec)
{
	unsigned long long n = rec->nr_subbufs;
	int percent;

	if (n <= VTRACE_RECORDER_FREE_SUBBUFS)
		return VTRACE_RECORDER_MIN_PERCENT;
	percent = 100 * (n - VTRACE_RECORDER_FREE_SUBBUFS) / n;
	if (percent > VTRACE_RECORDER_BUFFER_PERCENT)
		return VTRACE_RECORDER_BUFFER_PERCENT;
	return percent > VTRACE_RECORDER_MIN_PERCENT ?
		       percent :
		       VTRACE_RECORDER_MIN_PERCENT;
}

/*
 * The wake-up mark, once the buffer's sub-buffers are counted; where the
 * kernel refuses it the readers are woken at the kernel's.
 */
static int set_percent(struct vtrace_recorder *rec)
{
	char value[VTRACE_KNOB_VALUE_MAX];
	int percent = wake_mark(rec);
	int ret;

	ret = vt_settings_set_percent(&rec->settings, percent);
	rec->percent_refused = ret;
	rec->wake_percent = percent;
	if (ret) {
		vt_settings_read_back(&rec->settings, "buffer_percent", value,
				      sizeof(value));
		rec->wake_percent = *value ? atoi(value) : -1;
	}
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
	rec->clock = tracefs_get_clock(rec->tfs);
	if (!rec->clock)
		return -ENOMEM;
	return set_up_filters(rec);
}

/* The buffer as the recording wants it: sizes, clock, filters. */
static int set_up_buffer(struct vtrace_recorder *rec)
{
	const struct vtrace_recorder_opts *o = &rec->opts;
	long long kb;
	int ret;

	ret = vt_settings_save(rec->tfs, rec->nr_cpus, &rec->settings);
	if (ret) {
		vt_rec_error(rec, "cannot read the tracefs settings: %s",
			     strerror(-ret));
		return ret;
	}
	rec->settings_saved = true;
	rec->settings.journal = o->journal;
	ret = vt_settings_set_tracing_on(&rec->settings, 0);
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
		ret = vt_settings_set_buffer_kb(
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
	ret = set_up_filters(rec);
	if (ret)
		return ret;
	ret = vt_settings_clear_buffer(&rec->settings);
	if (ret)
		return settings_error(rec, "trace (clearing the buffer)", ret);
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
	vt_rec_error(rec, "cannot note %s in the journal in %s: %s", what,
		     vtrace_state_dir(), strerror(-err));
	return err;
}

int vt_rec_set_up(struct vtrace_recorder *rec)
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

	info = (struct vtrace_sink_info){
		.instance = rec->tfs,
		.nr_cpus = rec->nr_cpus,
		.subbuf_size = rec->subbuf_size,
		.clock = rec->clock,
		/* Nothing reads it before the recording runs. */
		.stop_fd = rec->wake_fd,
	};
	ret = rec->sink->ops->begin(rec->sink, &info);
	if (ret) {
		vt_rec_error(rec, "cannot %s %s: %s",
			     rec->sink->peer ? "stream to" : "create",
			     rec->sink->path,
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
		vt_rec_error(rec, "cannot enable %s: %s",
			     rec->changes[failed].name, strerror(-ret));
		return ret;
	}
	/* Only now: the top level's buffer is expanded by the first event. */
	count_subbufs(rec);
	ret = set_percent(rec);
	if (ret)
		return ret;
	vt_test_phase("setup");
	clock_gettime(CLOCK_MONOTONIC, &rec->start);
	ret = vt_settings_set_tracing_on(&rec->settings, 1);
	if (ret)
		return settings_error(rec, "tracing_on", ret);
	return 0;
}

/*
 * Undo the set-up in reverse: events, readers (a mapped buffer cannot be
 * resized back), the output (finished when @finish, else aborted), the
 * settings. Returns the first error.
 */
int vt_rec_tear_down(struct vtrace_recorder *rec, bool finish)
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
			vt_rec_error(rec, "cannot restore the events: %s",
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
			vt_rec_error(rec, "cannot finish %s: %s", sink->path,
				     sink->ops->strerror(sink));
			ret = ret ?: err;
		}
	} else if (rec->state >= REC_BEGUN) {
		sink->ops->abort(sink);
	}
	if (rec->settings_saved) {
		err = vt_settings_restore(&rec->settings);
		if (err) {
			vt_rec_error(rec, "%s", rec->settings.restore_error);
			ret = ret ?: err;
		}
		vt_settings_free(&rec->settings);
		rec->settings_saved = false;
	}
	rec->state = REC_STOPPED;
	return ret;
}
