// SPDX-License-Identifier: GPL-2.0
/*
 * vtrace record - the command line of the recorder (recorder.h): the
 * recording's session (session.h), its instance and journal, the sink,
 * the progress line, signals and --background. The options are in
 * record-options.c, the summary in record-summary.c; the recording
 * itself, its tracefs set-up and its undoing are the library's.
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <tracefs.h>

#include <vtrace/atrace-tags.h>
#include <vtrace/categories.h>
#include <vtrace/format.h>
#include <vtrace/instance.h>
#include <vtrace/journal.h>
#include <vtrace/output-file.h>
#include <vtrace/net-sink.h>
#include <vtrace/record-plan.h>
#include <vtrace/recorder.h>
#include <vtrace/ring-reader.h>
#include <vtrace/selection.h>
#include <vtrace/trace-config.h>

#include "builtin.h"
#include "cli-session.h"
#include "cmd-record.h"

/* The progress line is rewritten at most twice a second. */
#define PROGRESS_TICK_MS 500
#define PROGRESS_MIN_INTERVAL_S 0.49

static volatile sig_atomic_t stop_signal;

/* The recording a stop signal ends; set once it exists. */
static struct vtrace_recorder *volatile signalled_recorder;

static void on_stop_signal(int sig)
{
	stop_signal = sig;
	if (signalled_recorder)
		vtrace_recorder_request_stop(signalled_recorder);
}

/*
 * The events of the model, before tracefs changes; prints. Its category
 * files are loaded when it names a category.
 *
 * Return: 0 or the exit status.
 */
static int select_events(struct record *r)
{
	const struct record_opts *o = r->opts;
	const struct vtrace_trace_config *tc = &o->tc;
	struct vtrace_diags diags;
	int ret;

	if (tc->atrace_categories.nr) {
		r->files_status = cli_load_selection_files(&o->flags.files,
							   &r->map, "record");
		if (r->files_status)
			return r->files_status;
	}
	vtrace_diags_init(&diags);
	ret = vtrace_record_plan_select(&r->plan, tc, &r->map, o->strict,
					&r->sel, &diags);
	cli_print_diags(stderr, &diags);
	vtrace_diags_free(&diags);
	if (ret == -EINVAL)
		return VTRACE_EXIT_USAGE;
	if (ret == -ENOENT)
		return cli_selection_error(&r->sel, ret);
	if (ret)
		vtrace_err("%s", strerror(-ret));
	return ret ? VTRACE_EXIT_FAIL : VTRACE_EXIT_OK;
}

/* Those of the events this kernel has; prints. */
static int find_events(struct record *r)
{
	int ret;

	ret = vtrace_selection_check(&r->sel, r->vi, true);
	if (ret) {
		cli_selection_error(&r->sel, ret);
		return ret;
	}
	cli_selection_warn_missing(&r->sel);
	r->events = calloc(r->sel.nr, sizeof(*r->events));
	if (!r->events)
		return -ENOMEM;
	r->nr_events = vtrace_selection_present(&r->sel, r->events);
	return 0;
}

static const char *instance_name(const struct record *r)
{
	return vtrace_instance_name(r->vi);
}

/*
 * Start the session (before tracefs is touched: a session refused changes
 * nothing), open the instance and find the events; prints.
 */
static int prepare(struct record *r)
{
	const struct record_opts *o = r->opts;
	const char *instance = o->tc.instance_name.str;
	struct vtrace_session_params sp = {
		.name = o->tc.unique_session_name.str,
		.instance = instance,
		.output = o->output,
		.exclusive_prio = o->tc.exclusive_prio,
		/* The top level buffer's settings are global ones. */
		.features = o->session_features |
			    (instance ? 0 : VTRACE_SESSION_GLOBAL),
	};
	const char *dir;
	int ret;

	ret = cli_session_start(&sp, &r->session);
	if (ret)
		return ret;
	/* Not the baseline a dead recording left: what was there before it. */
	if (cli_find_tracefs(&dir) || cli_restore_dead_recordings(stderr) < 0)
		return -ENODEV;
	ret = vtrace_journal_open(instance, &r->journal);
	if (ret) {
		cli_state_dir_error("start the recording's journal", ret);
		return ret;
	}
	if (instance && !tracefs_instance_exists(instance))
		ret = vtrace_journal_instance_created(r->journal);
	if (ret) {
		cli_state_dir_error("note the instance in the journal", ret);
		return ret;
	}
	if (cli_open_tracefs(instance, VTRACE_INSTANCE_CREATE, &r->vi))
		return -ENODEV;
	return find_events(r);
}

static void on_cpu_added(void *ctx, struct vtrace_recorder *rec, int cpu)
{
	const struct record *r = ctx;

	if (r->opts->verbose)
		vtrace_info("cpu%d came online: reading it too", cpu);
}

/* Where the data goes until the output is complete, for "vtrace sessions". */
static void publish_partial(const struct record *r)
{
	const struct vtrace_sink *sink = vtrace_recorder_sink(r->rec);
	int ret = vtrace_session_set_partial(r->session,
					     sink->ops->partial(sink));

	if (ret)
		vtrace_warn(
			"cannot publish the temporary file of session %s: %s",
			vtrace_session_name(r->session), strerror(-ret));
}

/* Publish the counts for "vtrace sessions"; stop when aborted. */
static void session_tick(struct record *r, struct vtrace_recorder *rec,
			 const struct vtrace_recorder_progress *p)
{
	const char *why = cli_session_tick(r->session, p->events, p->bytes);

	if (why && !r->aborted) {
		r->aborted = why;
		vtrace_recorder_abort(rec, why);
	}
}

static int on_tick(void *ctx, struct vtrace_recorder *rec)
{
	struct vtrace_recorder_progress p;

	vtrace_recorder_progress(rec, &p);
	session_tick(ctx, rec, &p);
	return 0;
}

/*
 * The progress line on a terminal, rewritten in place (and the rest of
 * the line erased) at most twice a second.
 */
static int show_progress(void *ctx, struct vtrace_recorder *rec)
{
	struct record *r = ctx;
	struct vtrace_recorder_progress p;

	vtrace_recorder_progress(rec, &p);
	session_tick(r, rec, &p);
	if (r->progress_shown &&
	    p.elapsed - r->progress_at < PROGRESS_MIN_INTERVAL_S)
		return 0;
	fprintf(stderr,
		"\rrecording: %.1f s, %llu events, %.1f MB written, %llu lost\033[K",
		p.elapsed, p.events, p.bytes / 1e6, p.lost);
	fflush(stderr);
	r->progress_shown = true;
	r->progress_at = p.elapsed;
	return 0;
}

/*
 * Markers go to the top level when recordings of different buffers
 * overlap; where the kernel can, an instance's recording has them copied
 * into it for as long as it runs.
 */
static void copy_top_level_markers(struct record *r, bool on)
{
	if (r->vi && on != r->copying_markers &&
	    !vtrace_instance_copy_markers(r->vi, on))
		r->copying_markers = on;
}

static void hold_atrace_tags(void *ctx, struct vtrace_recorder *rec)
{
	struct record *r = ctx;
	int ret;

	copy_top_level_markers(r, true);
	ret = vtrace_atrace_tags_hold(instance_name(r), r->plan.tags,
				      &stop_signal);
	if (ret)
		cli_state_dir_warn("enable the userspace atrace tags", ret);
	r->holding_tags = !ret;
}

static void release_atrace_tags(void *ctx, struct vtrace_recorder *rec)
{
	struct record *r = ctx;

	/* Only what was held: a lock that was not let go is not waited again. */
	if (r->holding_tags && !vtrace_atrace_tags_release(instance_name(r)))
		r->holding_tags = false;
	copy_top_level_markers(r, false);
}

static const struct vtrace_recorder_hooks quiet_hooks = {
	.started = hold_atrace_tags,
	.cpu_added = on_cpu_added,
	.tick = on_tick,
	.stopping = release_atrace_tags,
};

static const struct vtrace_recorder_hooks progress_hooks = {
	.started = hold_atrace_tags,
	.cpu_added = on_cpu_added,
	.tick = show_progress,
	.stopping = release_atrace_tags,
};

/*
 * -r asks for a realtime priority, refused where it is not allowed before
 * anything is prepared; without it the recorder takes its default where
 * allowed (see Documentation/vtrace-record.rst).
 */
static int check_rt_prio(struct record_opts *o)
{
	char why[128];
	int ret;

	if (o->rt_prio == VTRACE_RECORDER_RT_DEFAULT)
		return 0;
	ret = vtrace_recorder_check_rt_prio(o->rt_prio, why, sizeof(why));
	if (ret)
		vtrace_err("%s", why);
	return ret;
}

/* A progress line: on a terminal, not for --json or --background. */
static bool shows_progress(const struct record_opts *o)
{
	return !o->background && !o->json && isatty(STDERR_FILENO);
}

/* The output: a file, or a collector reached now (before tracefs). */
static int open_sink(const struct record_opts *o, struct vtrace_sink **sink)
{
	char err[512];
	int ret;

	if (o->net) {
		ret = vtrace_net_sink_create(&o->net_opts, sink, err,
					     sizeof(err));
		if (ret)
			vtrace_err("-N %s: %s", o->output, err);
		return ret;
	}
	ret = vtrace_sink_open(o->format, o->output, sink);
	if (ret)
		vtrace_err("cannot create %s: %s", o->output, strerror(-ret));
	return ret;
}

/* -v: the readers' policy, as the recorder settled it, and what it means. */
static void readers_text(const struct record *r, char *buf, size_t len)
{
	struct vtrace_recorder_wakeups w;
	int near_full;
	bool adapts;

	vtrace_recorder_wakeups(r->rec, &w);
	vtrace_recorder_wake_percent(r->rec, &adapts, &near_full);
	switch (w.policy) {
	case VTRACE_READERS_KEEP_ALL:
		snprintf(
			buf, len,
			"readers keep-all: at SCHED_FIFO %d while tracing, each on the CPU it reads",
			w.rt_prio);
		break;
	case VTRACE_READERS_ADAPTIVE:
		snprintf(
			buf, len,
			"readers adaptive: at the caller's priority, each on the CPU it reads; raised to SCHED_FIFO %d while its buffer is found %d%% full or losing events, until calm for %d ms (up to %d ms when raised again soon)",
			w.rt_prio, near_full, VTRACE_RECORDER_CALM_MS,
			VTRACE_RECORDER_CALM_MAX_MS);
		break;
	default:
		snprintf(
			buf, len,
			"readers light: at the caller's priority, each on the CPU it reads%s",
			r->opts->policy == VTRACE_READERS_LIGHT ?
				"" :
				" (no realtime priority allowed here)");
		break;
	}
}

/* -v: when the readers are woken, and why so. */
static void wakeup_text(const struct record *r, char *buf, size_t len)
{
	int near_full;
	bool adapts;
	int percent = vtrace_recorder_wake_percent(r->rec, &adapts, &near_full);

	if (percent < 0)
		snprintf(
			buf, len,
			"woken as soon as there is data (no buffer_percent here)");
	else if (!adapts)
		snprintf(
			buf, len,
			"woken at the kernel's buffer_percent %d (it refuses a change: not lowered under pressure)",
			percent);
	else
		snprintf(
			buf, len,
			"woken at buffer_percent %d (%d sub-buffers left free, %d to %d; %d while a buffer loses events or is found %d%% full)",
			percent, VTRACE_RECORDER_FREE_SUBBUFS,
			VTRACE_RECORDER_MIN_PERCENT,
			VTRACE_RECORDER_BUFFER_PERCENT,
			VTRACE_RECORDER_LOW_PERCENT, near_full);
}

/* Make the recorder and start it; prints. */
static int start(struct record *r)
{
	const struct record_opts *o = r->opts;
	bool show = shows_progress(o);
	char readers[256], wakeups[128];
	struct vtrace_recorder_opts ropts = {
		.instance = r->vi,
		.events = r->events,
		.nr_events = r->nr_events,
		.reader = o->path,
		.clock = o->clock,
		.reader_policy = o->policy,
		.rt_prio = o->rt_prio,
		.keep_buffer = o->keep_buffer,
		.tick_ms = show ? PROGRESS_TICK_MS : 0,
		.hooks = show ? &progress_hooks : &quiet_hooks,
		.hooks_ctx = r,
		.journal = r->journal,
	};
	struct vtrace_sink *sink;
	int ret;

	ret = vtrace_record_plan_from_config(&o->tc, &ropts, &r->plan);
	if (ret) {
		vtrace_err("%s", strerror(-ret));
		return ret;
	}
	ret = open_sink(o, &sink);
	if (ret)
		return ret;
	if (ropts.probes && !sink->ops->add_packet) {
		if (o->strict) {
			vtrace_err(
				"%s: the %s format has no place for linux.process_stats, linux.sys_stats or linux.system_info: record to a Perfetto file (-o FILE.pftrace)",
				o->output, sink->ops->name);
			vtrace_sink_free(sink);
			return -EINVAL;
		}
		vtrace_warn(
			"%s: the %s format has no place for linux.process_stats, linux.sys_stats or linux.system_info: they are not recorded (a Perfetto file, -o FILE.pftrace, has them)",
			o->output, sink->ops->name);
		ropts.probes = NULL;
	}
	ret = vtrace_recorder_create(&ropts, sink, &r->rec);
	if (!ret) {
		signalled_recorder = r->rec;
		if (stop_signal)
			vtrace_recorder_request_stop(r->rec);
		ret = vtrace_recorder_start(r->rec);
	}
	if (ret) {
		vtrace_err("%s", r->rec ? vtrace_recorder_strerror(r->rec) :
					  strerror(-ret));
		return ret;
	}
	publish_partial(r);
	record_print_not_set(r);
	if (o->verbose) {
		readers_text(r, readers, sizeof(readers));
		wakeup_text(r, wakeups, sizeof(wakeups));
		vtrace_info(
			"reader: %s on %d CPUs, %zu-byte sub-buffers, %s; %s; %zu events; clock %s; output %s",
			vtrace_reader_path_name(vtrace_recorder_reader(r->rec)),
			vtrace_recorder_nr_cpus(r->rec),
			vtrace_recorder_subbuf_size(r->rec), wakeups, readers,
			r->nr_events, vtrace_recorder_clock(r->rec), o->output);
	}
	return 0;
}

/*
 * Only a new file or a regular one is written (and replaced only by a
 * complete recording): refused before anything changes in tracefs.
 */
static int check_output(const char *path)
{
	int ret = vtrace_output_file_check(path);

	if (ret == -EISDIR || ret == -EINVAL)
		vtrace_err(
			"%s is not a regular file: vtrace writes a new or a regular file only (a device, FIFO, directory or socket stays as it is)",
			path);
	else if (ret)
		vtrace_err("%s: %s", path, strerror(-ret));
	return ret;
}

/* Where the data of a recording that could not be finished is. */
static void tell_partial(const struct record *r)
{
	const struct vtrace_sink *sink = vtrace_recorder_sink(r->rec);
	const char *partial = sink->ops->partial(sink);

	if (partial)
		vtrace_warn(
			"what was recorded is kept in %s; 'vtrace recover %s' makes a trace.dat of it",
			partial, partial);
}

/* Record until told to stop, then stop; prints. */
static int record(struct record *r)
{
	int ret, err;

	ret = vtrace_recorder_run(r->rec);
	if (r->progress_shown)
		fputc('\n', stderr);
	if (ret)
		vtrace_err("%s", vtrace_recorder_strerror(r->rec));
	err = vtrace_recorder_stop(r->rec);
	if (err) {
		vtrace_err("%s", vtrace_recorder_strerror(r->rec));
		tell_partial(r);
	}
	return ret ?: err;
}

/* What the recorder leaves to its caller: the instance and the session. */
static int finish(struct record *r)
{
	int ret = 0;

	signalled_recorder = NULL;
	vtrace_recorder_destroy(r->rec);
	if (r->holding_tags)
		vtrace_atrace_tags_release(instance_name(r));
	if (r->vi && vtrace_instance_is_new(r->vi)) {
		ret = vtrace_instance_remove(r->vi);
		if (ret)
			vtrace_err("cannot remove instance %s: %s",
				   instance_name(r), strerror(-ret));
	}
	vtrace_instance_close(r->vi);
	/* Everything is put back: the journal has nothing left to undo. */
	vtrace_journal_close(r->journal);
	free(r->events);
	vtrace_selection_free(&r->sel);
	vtrace_record_plan_free(&r->plan);
	vtrace_catmap_free(&r->map);
	/* Last: "vtrace stop" waits for the recorder, which is done then. */
	vtrace_session_end(r->session);
	return ret;
}

/* -N: the collector went away, whatever a fallback file kept. */
static bool collector_gone(const struct record *r)
{
	struct vtrace_net_status st;

	if (!r->opts->net)
		return false;
	vtrace_net_sink_status(vtrace_recorder_sink(r->rec), &st);
	return st.gone;
}

static void install_signals(void)
{
	/*
	 * The handler wakes the recorder's wait itself, so nothing needs
	 * interrupting: SA_RESTART keeps the set-up's system calls whole.
	 */
	struct sigaction sa = { .sa_handler = on_stop_signal,
				.sa_flags = SA_RESTART };

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
}

/*
 * --background: the child records; the parent waits until the child has
 * started (one byte on @ready) and prints its PID, or exits with the
 * child's status when the set-up failed. Returns in the child only.
 */
static int detach(int *ready)
{
	int status, fds[2];
	pid_t pid;
	char byte;

	if (pipe(fds))
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid) {
		close(fds[1]);
		if (read(fds[0], &byte, 1) == 1) {
			printf("%d\n", pid);
			exit(VTRACE_EXIT_OK);
		}
		if (waitpid(pid, &status, 0) == pid && WIFEXITED(status))
			exit(WEXITSTATUS(status));
		exit(VTRACE_EXIT_FAIL);
	}
	close(fds[0]);
	setsid();
	*ready = fds[1];
	return 0;
}

/* The started child leaves the terminal: its messages go to the log. */
static void background_started(const struct record *r, int ready)
{
	int ret = cli_session_log(r->session);

	if (ret)
		vtrace_warn("cannot open the log of session %s: %s",
			    vtrace_session_name(r->session), strerror(-ret));
	if (write(ready, "1", 1) != 1)
		vtrace_warn("the parent went away before the PID was printed");
	close(ready);
}

int cmd_record(int argc, char **argv)
{
	struct record_opts opts = {
		.flags = { .cmd = "record",
			   .duration_ms_max = VTRACE_DURATION_MS_MAX },
		.path = VTRACE_READER_AUTO,
		.rt_prio = VTRACE_RECORDER_RT_DEFAULT,
	};
	struct record r = { .opts = &opts };
	int ready = -1, ret, status = VTRACE_EXIT_USAGE;
	const char *tracing_dir;

	vtrace_catmap_init(&r.map);
	vtrace_selection_init(&r.sel);
	if (record_parse_args(argc, argv, &opts) || record_make_config(&opts))
		goto out;
	status = VTRACE_EXIT_FAIL;
	if (cli_session_check_root(opts.tc.exclusive_prio) ||
	    check_rt_prio(&opts) || (!opts.net && check_output(opts.output)) ||
	    (opts.net_opts.fallback && check_output(opts.net_opts.fallback)))
		goto out;
	/*
	 * The events are looked up before the session starts and before
	 * the instance is created: a config shared between devices is
	 * checked against this kernel before anything changes.
	 */
	ret = cli_find_tracefs(&tracing_dir);
	if (!ret) {
		status = select_events(&r);
		if (status) {
			finish(&r);
			goto out;
		}
		status = VTRACE_EXIT_FAIL;
	}
	if (ret || (opts.background && detach(&ready))) {
		if (!ret)
			vtrace_err("cannot detach: %s", strerror(errno));
		finish(&r);
		goto out;
	}
	install_signals();

	if (prepare(&r) || start(&r)) {
		finish(&r);
		goto out;
	}
	if (opts.background)
		background_started(&r, ready);
	ret = record(&r);
	/* Its SIGTERM may have come after the last tick. */
	r.aborted = r.aborted ?: vtrace_session_abort_reason(r.session);
	record_print_summary(&r);
	if (vtrace_recorder_sink_failed(r.rec) || collector_gone(&r))
		ret = ret ?: -EIO;
	ret = finish(&r) ?: ret;
	if (!ret)
		status = r.aborted ? VTRACE_EXIT_ABORTED : VTRACE_EXIT_OK;
out:
	vtrace_trace_config_free(&opts.tc);
	cli_config_flags_free(&opts.flags);
	return status;
}
