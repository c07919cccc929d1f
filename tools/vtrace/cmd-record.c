// SPDX-License-Identifier: GPL-2.0
/*
 * vtrace record - the command line of the recorder (recorder.h): options,
 * which events, the recording's session (session.h), and what is printed. The
 * recording itself, its tracefs set-up and its undoing are the library's.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <tracefs.h>

#include <vtrace/atrace-tags.h>
#include <vtrace/atrace.h>
#include <vtrace/categories.h>
#include <vtrace/format.h>
#include <vtrace/instance.h>
#include <vtrace/journal.h>
#include <vtrace/json.h>
#include <vtrace/output-file.h>
#include <vtrace/net-sink.h>
#include <vtrace/record-plan.h>
#include <vtrace/recorder.h>
#include <vtrace/ring-reader.h>
#include <vtrace/selection.h>
#include <vtrace/trace-config.h>

#include "builtin.h"
#include "cli-config.h"
#include "cli-session.h"

/* The progress line is rewritten at most twice a second. */
#define PROGRESS_TICK_MS 500
#define PROGRESS_MIN_INTERVAL_S 0.49

/*
 * The options. What to record is @tc, the config model: the flags' values
 * (@flags) over --config's.
 */
struct record_opts {
	struct cli_config_flags flags;
	const char *output; /* the file, or -N's HOST:PORT */
	const char *format; /* NULL: by the output's extension */
	/* -N: a collector instead of a file (@output is its HOST:PORT) */
	bool net;
	struct vtrace_net_opts net_opts;
	bool net_transport_given;
	const char *clock;
	int rt_prio;
	/* Single-tenant settings asked for (VTRACE_SESSION_CPUMASK, ...). */
	unsigned int session_features;
	enum vtrace_reader_path path;
	bool background;
	bool keep_buffer;
	bool verbose;
	bool json;
	const char *config;
	enum vtrace_config_format config_format;
	bool strict;
	struct vtrace_trace_config tc;
};

/**
 * struct record - what vtrace record holds around the recording
 * @opts: the options
 * @vi: the instance recorded
 * @session: the recording's session
 * @journal: what the recording changes, for undoing it after a SIGKILL
 * @aborted: why a higher-priority exclusive session aborted it, or NULL
 * @files_status: the exit status of a failure to load the category files
 * @map: the category files, which @sel and @events borrow names from
 * @sel: the events asked for
 * @events: those of them on this kernel, to record
 * @nr_events: entries in @events
 * @copying_markers: the top level's trace_marker is copied into @vi
 * @plan: what the config asks of the recorder (record-plan.h)
 * @rec: the recording
 * @progress_shown: the progress line is on the terminal
 * @progress_at: when it was last written, in seconds of the recording
 */
struct record {
	const struct record_opts *opts;
	struct vtrace_instance *vi;
	struct vtrace_session *session;
	struct vtrace_journal *journal;
	const char *aborted;
	int files_status;
	struct vtrace_catmap map;
	struct vtrace_selection sel;
	const char **events;
	size_t nr_events;
	bool copying_markers;
	struct vtrace_record_plan plan;
	struct vtrace_recorder *rec;
	bool progress_shown;
	double progress_at;
};

static volatile sig_atomic_t stop_signal;

/* The recording a stop signal ends; set once it exists. */
static struct vtrace_recorder *volatile signalled_recorder;

static void on_stop_signal(int sig)
{
	stop_signal = sig;
	if (signalled_recorder)
		vtrace_recorder_request_stop(signalled_recorder);
}

static void usage(FILE *out)
{
	fprintf(out,
		"usage: vtrace record [-c CAT[,CAT]]... [-e group/event]... [-f CATFILE]...\n"
		"                     [-t DURATION] [-b BUFFER_KB] [-o FILE] [--format FORMAT]\n"
		"                     [-N HOST:PORT [--tcp|--udp] [--fallback-output FILE]]\n"
		"                     [--instance NAME]\n"
		"                     [--clock CLOCK] [--reader auto|mmap|splice|read]\n"
		"                     [-r PRIO]\n"
		"                     [--name NAME] [--exclusive-prio N] [--keep-buffer]\n"
		"                     [--background] [-v] [--json]\n"
		"       vtrace record --config FILE [--config-binary] [--strict] [OPTIONS]\n\n"
		"Record the events of categories CAT and events group/event from every CPU's\n"
		"ring buffer into FILE (default trace.dat, trace-cmd's format version 6),\n"
		"until DURATION (10s, 500ms, 2m, or seconds) has passed, SIGINT or SIGTERM\n"
		"arrives, or 'vtrace stop' is run. Every tracefs setting changed is restored.\n\n"
		"  -c, --category CAT    events of category CAT (comma-separated list allowed)\n"
		"  -e, --event G/E       the event G/E\n"
		"  -f, --file CATFILE    category file (default $VTRACE_CATEGORIES or\n"
		"                        " VTRACE_DEFAULT_CATEGORIES ")\n"
		"  -t, --duration D      stop after D\n"
		"  -b, --buffer-kb KB    per-CPU ring buffer size during the recording\n"
		"  -o, --output FILE     output file (default trace.dat); FILE.pftrace is\n"
		"                        written as a Perfetto trace\n"
		"      --format FORMAT   tracedat or perfetto, whatever FILE's extension\n"
		"  -N, --net HOST:PORT   stream to 'trace-cmd listen -p PORT' on HOST instead\n"
		"                        of a file ([ADDRESS]:PORT for IPv6)\n"
		"      --tcp, --udp      -N's per-CPU data connections (default tcp)\n"
		"      --fallback-output FILE  when the collector goes away, go on\n"
		"                        recording into trace.dat FILE\n"
		"      --instance NAME   record in tracefs instance NAME (created if missing,\n"
		"                        removed afterwards if created)\n"
		"      --clock CLOCK     trace_clock during the recording (default boot)\n"
		"      --reader PATH     auto (default: the cheapest here, splice), mmap,\n"
		"                        splice or read\n"
		"  -r, --rt-prio PRIO    run the per-CPU readers at SCHED_FIFO priority PRIO\n"
		"                        (1-99, needs CAP_SYS_NICE) while tracing is on;\n"
		"                        0: at the caller's priority; default: 1 where\n"
		"                        allowed, else 0\n"
		"      --name NAME       the session's unique name (default vtrace-PID)\n"
		"      --exclusive-prio N  an exclusive session of priority N (root only):\n"
		"                        aborts every other session, refuses new ones of\n"
		"                        priority N or lower\n"
		"      --background      detach, print the PID; finish on SIGTERM or 'vtrace stop'\n"
		"      --keep-buffer     record what the buffer already holds too (else it is\n"
		"                        cleared first, the summary says what); its size and\n"
		"                        clock stay as found\n"
		"  -v, --verbose         tell the reader path and settings used\n"
		"      --json            print the summary as JSON on stdout\n"
		"      --config FILE     a Perfetto TraceConfig (text format, or binary);\n"
		"                        -c/-e add to it; -o, -t, -b, --instance, --name and\n"
		"                        --exclusive-prio override it\n"
		"      --config-binary   FILE is in binary form whatever it looks like\n"
		"      --strict          what vtrace cannot honour in FILE is an error\n");
}

static int parse_rt_prio(const char *arg, int *prio)
{
	long long v;

	if (cli_parse_number("record -r", arg, 0, 99, &v))
		return -EINVAL;
	*prio = v;
	return 0;
}

enum {
	OPT_CLOCK = CLI_OPT_CONFIG_END,
	OPT_READER,
	OPT_BACKGROUND,
	OPT_JSON,
	OPT_FORMAT,
	OPT_CONFIG,
	OPT_CONFIG_BINARY,
	OPT_STRICT,
	OPT_TCP,
	OPT_UDP,
	OPT_FALLBACK_OUTPUT,
	OPT_KEEP_BUFFER,
};

/* -N HOST:PORT; the message names the option. */
static int parse_net(const char *spec, struct record_opts *o)
{
	const char *why;

	if (vtrace_net_addr_parse(spec, &o->net_opts.addr, &why)) {
		vtrace_err("-N: bad collector address '%s': %s", spec, why);
		return -EINVAL;
	}
	o->net = true;
	o->output = spec;
	return 0;
}

/* What -N allows with it; prints. */
static int check_net_args(const struct record_opts *o)
{
	if (!o->net && (o->net_transport_given || o->net_opts.fallback)) {
		vtrace_err(
			"--tcp, --udp and --fallback-output need -N HOST:PORT");
		return -EINVAL;
	}
	if (o->net && o->format) {
		vtrace_err(
			"-N streams trace.dat to the collector: no --format");
		return -EINVAL;
	}
	return 0;
}

/* One of record's own options; see cli_config_flag() for the return. */
static int record_flag(struct record_opts *o, int c, char *arg)
{
	bool udp;

	switch (c) {
	case 'N':
		return parse_net(arg, o) ? -EINVAL : 0;
	case OPT_TCP:
	case OPT_UDP:
		udp = c == OPT_UDP;
		if (o->net_transport_given && o->net_opts.udp != udp) {
			vtrace_err("--tcp and --udp: give one");
			return -EINVAL;
		}
		o->net_transport_given = true;
		o->net_opts.udp = udp;
		return 0;
	case OPT_FALLBACK_OUTPUT:
		o->net_opts.fallback = arg;
		return 0;
	case OPT_FORMAT:
		if (!vtrace_format_by_name(arg, VTRACE_FORMAT_RECORD)) {
			vtrace_err("--format: no format '%s' (formats: %s)",
				   arg,
				   vtrace_format_names(VTRACE_FORMAT_RECORD));
			return -EINVAL;
		}
		o->format = arg;
		return 0;
	case OPT_CLOCK:
		o->clock = arg;
		return 0;
	case OPT_READER:
		if (vtrace_reader_path_parse(arg, &o->path)) {
			vtrace_err(
				"bad reader '%s' (auto, mmap, splice or read)",
				arg);
			return -EINVAL;
		}
		return 0;
	case OPT_BACKGROUND:
		o->background = true;
		return 0;
	case OPT_KEEP_BUFFER:
		o->keep_buffer = true;
		return 0;
	case 'v':
		o->verbose = true;
		return 0;
	case OPT_JSON:
		o->json = true;
		return 0;
	case OPT_CONFIG:
		o->config = arg;
		return 0;
	case OPT_CONFIG_BINARY:
		o->config_format = VTRACE_CONFIG_BINARY;
		return 0;
	case OPT_STRICT:
		o->strict = true;
		return 0;
	case 'r':
		return parse_rt_prio(arg, &o->rt_prio);
	}
	return 1;
}

/* The options that go together, once all are read; prints. */
static int check_args(const struct record_opts *o)
{
	const struct vtrace_trace_config *given = &o->flags.tc;

	if (o->net && given->output_path.str) {
		vtrace_err("-o and -N: give one output");
		return -EINVAL;
	}
	if (check_net_args(o))
		return -EINVAL;
	if ((o->config_format || o->strict) && !o->config) {
		vtrace_err("--config-binary and --strict need --config FILE");
		return -EINVAL;
	}
	if (o->keep_buffer && (given->ftrace_buffer_size_kb || o->clock)) {
		vtrace_err(
			"record --keep-buffer: %s would empty the buffer it is to keep",
			given->ftrace_buffer_size_kb ? "-b" : "--clock");
		return -EINVAL;
	}
	if (cli_config_flags_empty(&o->flags) && !o->config) {
		vtrace_err(
			"nothing to record: give -c CATEGORY, -e group/event or --config FILE");
		return -EINVAL;
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct record_opts *o)
{
	static const struct option own[] = {
		{ "clock", required_argument, NULL, OPT_CLOCK },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "net", required_argument, NULL, 'N' },
		{ "tcp", no_argument, NULL, OPT_TCP },
		{ "udp", no_argument, NULL, OPT_UDP },
		{ "fallback-output", required_argument, NULL,
		  OPT_FALLBACK_OUTPUT },
		{ "reader", required_argument, NULL, OPT_READER },
		{ "rt-prio", required_argument, NULL, 'r' },
		{ "background", no_argument, NULL, OPT_BACKGROUND },
		{ "keep-buffer", no_argument, NULL, OPT_KEEP_BUFFER },
		{ "verbose", no_argument, NULL, 'v' },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "config", required_argument, NULL, OPT_CONFIG },
		{ "config-binary", no_argument, NULL, OPT_CONFIG_BINARY },
		{ "strict", no_argument, NULL, OPT_STRICT },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	struct option *longopts;
	int c, ret = 0;

	longopts = cli_config_longopts(own);
	if (!longopts)
		return -ENOMEM;
	while (!ret &&
	       (c = getopt_long(argc, argv, CLI_CONFIG_SHORTOPTS "r:N:vh",
				longopts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			free(longopts);
			exit(VTRACE_EXIT_OK);
		}
		ret = cli_config_flag(&o->flags, c, optarg);
		if (ret == 1)
			ret = record_flag(o, c, optarg);
		if (ret == 1) {
			usage(stderr);
			ret = -EINVAL;
		}
	}
	free(longopts);
	if (ret || cli_unexpected_argument(argc, argv, optind))
		return ret ?: -EINVAL;
	return check_args(o);
}

/*
 * What to record, as one config model: --config's file if given (refused
 * before anything in tracefs changes), with the command line's values
 * over it; prints.
 */
static int make_config(struct record_opts *o)
{
	struct vtrace_trace_config *tc = &o->tc;
	struct vtrace_session_refused why = {
		.why = VTRACE_SESSION_BAD_NAME,
	};
	struct vtrace_diags diags;
	bool file_name;
	char msg[256];
	int ret = 0;

	if (o->config) {
		vtrace_diags_init(&diags);
		ret = vtrace_trace_config_load(tc, o->config, o->config_format,
					       o->strict, &diags);
		cli_print_diags(stderr, &diags);
		vtrace_diags_free(&diags);
		if (ret)
			return ret;
	}
	/* The command line's own name is checked as it is parsed. */
	file_name = tc->unique_session_name.str &&
		    !o->flags.tc.unique_session_name.str;
	if (file_name &&
	    !vtrace_session_name_valid(tc->unique_session_name.str)) {
		snprintf(why.name, sizeof(why.name), "%s",
			 tc->unique_session_name.str);
		vtrace_session_refused_str(&why, msg, sizeof(msg));
		fprintf(stderr, "%s:%u:%u: error: unique_session_name: %s\n",
			tc->file, tc->unique_session_name.line,
			tc->unique_session_name.column, msg);
		return -EINVAL;
	}
	ret = vtrace_trace_config_override(tc, &o->flags.tc);
	if (ret) {
		vtrace_err("%s", strerror(-ret));
		return ret;
	}
	if (!o->net)
		o->output = tc->output_path.str ?: "trace.dat";
	o->session_features |= vtrace_record_plan_session_features(tc);
	return 0;
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
		vtrace_warn("cpu%d came online: reading it too", cpu);
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
	ret = vtrace_atrace_tags_hold(instance_name(r), r->plan.tags);
	if (ret)
		vtrace_warn("cannot enable the userspace atrace tags: %s",
			    strerror(-ret));
}

static void release_atrace_tags(void *ctx, struct vtrace_recorder *rec)
{
	struct record *r = ctx;

	vtrace_atrace_tags_release(instance_name(r));
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

/* The readers' realtime priority, as the recorder settled it. */
static int rt_prio(const struct record *r)
{
	struct vtrace_recorder_wakeups w;

	vtrace_recorder_wakeups(r->rec, &w);
	return w.rt_prio;
}

/*
 * Once, at the start: each setting of its own the recording goes on
 * without. A knob this kernel does not have at all is no news but to -v.
 */
static void print_not_set(const struct record *r)
{
	const struct vtrace_knob_not_set *n;
	size_t nr, i;

	n = vtrace_recorder_not_set(r->rec, &nr);
	for (i = 0; i < nr; i++) {
		if (n[i].missing && !r->opts->verbose)
			continue;
		if (n[i].missing)
			vtrace_warn("%s: not offered by this kernel (%s)%s%s",
				    n[i].knob, strerror(-n[i].err),
				    *n[i].value ? "; using " : "", n[i].value);
		else
			vtrace_warn("%s not set: %s; using %s", n[i].knob,
				    strerror(-n[i].err),
				    *n[i].value ? n[i].value : "the kernel's");
	}
}

/* "not_set" of --json: the same list, with errno names. */
static void json_not_set(struct vtrace_json *j, const struct record *r)
{
	const struct vtrace_knob_not_set *n;
	size_t nr, i;

	n = vtrace_recorder_not_set(r->rec, &nr);
	vtrace_json_array_begin(j, "not_set");
	for (i = 0; i < nr; i++) {
		vtrace_json_object_begin(j, NULL);
		vtrace_json_string(j, "knob", n[i].knob);
		vtrace_json_string(j, "error", strerrorname_np(-n[i].err));
		vtrace_json_string(j, "using", n[i].value);
		vtrace_json_object_end(j);
	}
	vtrace_json_array_end(j);
}

/* Make the recorder and start it; prints. */
static int start(struct record *r)
{
	const struct record_opts *o = r->opts;
	bool show = shows_progress(o);
	struct vtrace_recorder_opts ropts = {
		.instance = r->vi,
		.events = r->events,
		.nr_events = r->nr_events,
		.reader = o->path,
		.clock = o->clock,
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
	print_not_set(r);
	if (o->verbose)
		vtrace_warn(
			"reader: %s on %d CPUs, %zu-byte sub-buffers, woken at buffer_percent %d (%d under pressure); %s; %zu events; output %s",
			vtrace_reader_path_name(vtrace_recorder_reader(r->rec)),
			vtrace_recorder_nr_cpus(r->rec),
			vtrace_recorder_subbuf_size(r->rec),
			VTRACE_RECORDER_BUFFER_PERCENT,
			VTRACE_RECORDER_LOW_PERCENT,
			rt_prio(r) ? "SCHED_FIFO while tracing" :
				     "at the caller's priority",
			r->nr_events, o->output);
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
	if (r->vi)
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

/* -v: what the readers did about their wake-ups. */
static void print_wakeups(const struct record *r,
			  const struct vtrace_recorder_wakeups *w)
{
	if (w->lowered)
		fprintf(stderr,
			"vtrace: wake-ups: buffer_percent lowered %d -> %d %llu times (%llu for lost events, the rest for a buffer half full), first at %.1f s; restored %llu times\n",
			VTRACE_RECORDER_BUFFER_PERCENT,
			VTRACE_RECORDER_LOW_PERCENT, w->lowered,
			w->lowered_lost, w->first_lowered, w->restored);
	else
		fprintf(stderr,
			"vtrace: wake-ups: buffer_percent stayed at %d\n",
			VTRACE_RECORDER_BUFFER_PERCENT);
	fprintf(stderr, "vtrace: wake-ups: read again at once %llu times\n",
		w->rereads);
	fprintf(stderr, "vtrace: reads: %llu sub-buffers in %llu calls\n",
		w->subbufs, w->batches);
	if (w->rt_prio)
		fprintf(stderr,
			"vtrace: readers ran at SCHED_FIFO %d while tracing; %d of them back at the caller's policy for the drain\n",
			w->rt_prio, vtrace_recorder_rt_restored(r->rec));
	if (w->rt_starved)
		fprintf(stderr,
			"vtrace: readers starved by tasks above SCHED_FIFO %d: moved to the caller's policy %llu times, back at SCHED_FIFO %d %llu times\n",
			w->rt_prio, w->rt_starved, w->rt_prio, w->rt_resumed);
}

/* -N: what reached the collector, and what did not; prints. */
static void print_net_summary(const struct record *r,
			      unsigned long long backpressure)
{
	const struct vtrace_sink *sink = vtrace_recorder_sink(r->rec);
	const struct record_opts *o = r->opts;
	struct vtrace_net_status st;

	vtrace_net_sink_status(sink, &st);
	if (st.gone)
		vtrace_warn(
			"the collector %s went away during the recording (%s): it had taken %.1f MB (%llu sub-buffers) by then, which it does not keep without the session's end",
			o->output, st.gone_reason, st.sent_bytes / 1e6,
			st.sent_subbufs);
	if (st.gone && o->net_opts.fallback)
		vtrace_warn("the rest, %.1f MB, was recorded into %s",
			    st.fallback_bytes / 1e6, o->net_opts.fallback);
	if (backpressure)
		vtrace_warn(
			"LOST %llu EVENTS to back-pressure: the collector could not take %llu sub-buffers at once",
			backpressure, st.dropped_subbufs);
	if (!o->verbose)
		return;
	if (st.splice_err)
		fprintf(stderr,
			"vtrace: cpu%d: splice into the data connection failed (%s): its sub-buffers were written instead\n",
			st.splice_err_cpu, strerror(st.splice_err));
	fprintf(stderr,
		"vtrace: data connections: %llu of %llu sub-buffers spliced from the ring buffer, %llu written%s\n",
		st.spliced_subbufs, st.sent_subbufs,
		st.sent_subbufs - st.spliced_subbufs,
		o->net_opts.udp ? " (UDP: one datagram per sub-buffer)" : "");
}

static void json_net(struct vtrace_json *j, const struct record *r)
{
	const struct vtrace_sink *sink = vtrace_recorder_sink(r->rec);
	struct vtrace_net_status st;

	vtrace_net_sink_status(sink, &st);
	vtrace_json_object_begin(j, "collector");
	vtrace_json_string(j, "transport",
			   r->opts->net_opts.udp ? "udp" : "tcp");
	vtrace_json_uint(j, "sent_bytes", st.sent_bytes);
	vtrace_json_uint(j, "sent_subbufs", st.sent_subbufs);
	vtrace_json_uint(j, "spliced_subbufs", st.spliced_subbufs);
	vtrace_json_uint(j, "dropped_subbufs", st.dropped_subbufs);
	if (st.splice_err)
		vtrace_json_string(j, "splice_error", strerror(st.splice_err));
	vtrace_json_bool(j, "gone", st.gone);
	if (st.gone)
		vtrace_json_string(j, "gone_reason", st.gone_reason);
	if (r->opts->net_opts.fallback) {
		vtrace_json_string(j, "fallback", r->opts->net_opts.fallback);
		vtrace_json_uint(j, "fallback_bytes", st.fallback_bytes);
	}
	vtrace_json_object_end(j);
}

static void print_summary(const struct record *r)
{
	const struct record_opts *o = r->opts;
	const char *reader =
		vtrace_reader_path_name(vtrace_recorder_reader(r->rec));
	int cpu, nr_cpus = vtrace_recorder_nr_cpus(r->rec);
	struct vtrace_recorder_progress all;
	unsigned long long left = 0, backpressure = 0;
	struct vtrace_recorder_wakeups w;
	struct vtrace_cpu_account a;
	struct vtrace_json j;

	vtrace_recorder_progress(r->rec, &all);
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		if (vtrace_recorder_cpu_account(r->rec, cpu, &a))
			continue;
		left += a.entries_left;
		backpressure += a.backpressure;
	}

	fprintf(stderr,
		"vtrace: recorded %llu events (%.1f MB) from %d CPUs into %s in %.1f s, %s reader\n",
		all.events, all.bytes / 1e6, nr_cpus, o->output,
		vtrace_recorder_elapsed(r->rec), reader);
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		if (vtrace_recorder_cpu_account(r->rec, cpu, &a))
			continue;
		fprintf(stderr, "  cpu%d: %llu events, %llu lost, %llu bytes",
			cpu, a.events, a.lost, a.bytes);
		if (o->net)
			fprintf(stderr, " (%llu lost to back-pressure)",
				a.backpressure);
		fputc('\n', stderr);
	}
	if (o->net)
		print_net_summary(r, backpressure);
	if (vtrace_recorder_cleared(r->rec))
		fprintf(stderr,
			"vtrace: cleared first: %llu events %s held from before the recording (--keep-buffer records them)\n",
			vtrace_recorder_cleared(r->rec),
			cli_instance_label(r->vi));
	if (vtrace_recorder_stop_reason(r->rec, NULL) == VTRACE_STOP_FULL)
		vtrace_warn(
			"stopped when full: the config's DISCARD limit of %llu bytes was reached",
			o->tc.write_into_file ?
				(unsigned long long)o->tc.max_file_size_bytes :
				o->tc.buffer_size_kb * 1024ULL);
	if (all.lost && o->config && !o->tc.write_into_file &&
	    o->tc.fill_policy == VTRACE_FILL_RING_BUFFER)
		fprintf(stderr,
			"vtrace: ring buffer: %llu older events were overwritten, the newest kept\n",
			all.lost);
	else if (all.lost > backpressure)
		vtrace_warn(
			"LOST %llu EVENTS: the ring buffer overflowed before it was read; record fewer events or use a larger -b",
			all.lost - backpressure);
	if (left)
		vtrace_warn("%llu events were left in the ring buffer", left);
	if (r->aborted)
		fprintf(stderr, "vtrace: session %s aborted: %s\n",
			vtrace_session_name(r->session), r->aborted);
	vtrace_recorder_wakeups(r->rec, &w);
	if (o->verbose)
		print_wakeups(r, &w);

	if (!o->json)
		return;
	vtrace_json_init(&j, stdout);
	vtrace_json_object_begin(&j, NULL);
	vtrace_json_string(&j, "session", vtrace_session_name(r->session));
	if (r->aborted)
		vtrace_json_string(&j, "aborted", r->aborted);
	vtrace_json_string(&j, "reader", reader);
	vtrace_json_string(&j, "output", o->output);
	vtrace_json_uint(&j, "events", all.events);
	vtrace_json_uint(&j, "lost", all.lost);
	vtrace_json_uint(&j, "bytes", all.bytes);
	if (o->net) {
		vtrace_json_uint(&j, "backpressure", backpressure);
		json_net(&j, r);
	}
	vtrace_json_array_begin(&j, "cpus");
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		if (vtrace_recorder_cpu_account(r->rec, cpu, &a))
			continue;
		vtrace_json_object_begin(&j, NULL);
		vtrace_json_int(&j, "cpu", cpu);
		vtrace_json_uint(&j, "events", a.events);
		vtrace_json_uint(&j, "lost", a.lost);
		vtrace_json_uint(&j, "bytes", a.bytes);
		if (o->net)
			vtrace_json_uint(&j, "backpressure", a.backpressure);
		vtrace_json_object_end(&j);
	}
	vtrace_json_array_end(&j);
	if (!o->keep_buffer) {
		vtrace_json_object_begin(&j, "cleared");
		vtrace_json_string(&j, "instance",
				   o->tc.instance_name.str ?: "");
		vtrace_json_uint(&j, "events", vtrace_recorder_cleared(r->rec));
		vtrace_json_object_end(&j);
	}
	json_not_set(&j, r);
	vtrace_json_object_begin(&j, "wakeups");
	vtrace_json_uint(&j, "lowered", w.lowered);
	vtrace_json_uint(&j, "lowered_lost", w.lowered_lost);
	vtrace_json_uint(&j, "restored", w.restored);
	vtrace_json_uint(&j, "rereads", w.rereads);
	vtrace_json_uint(&j, "subbufs", w.subbufs);
	vtrace_json_uint(&j, "batches", w.batches);
	vtrace_json_int(&j, "rt_prio", w.rt_prio);
	vtrace_json_int(&j, "rt_restored", vtrace_recorder_rt_restored(r->rec));
	vtrace_json_uint(&j, "rt_starved", w.rt_starved);
	vtrace_json_uint(&j, "rt_resumed", w.rt_resumed);
	vtrace_json_object_end(&j);
	vtrace_json_object_end(&j);
	cli_finish_json(&j);
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
	if (parse_args(argc, argv, &opts) || make_config(&opts))
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
	print_summary(&r);
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
