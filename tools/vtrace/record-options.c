// SPDX-License-Identifier: GPL-2.0
/*
 * vtrace record's options: those that say what to record go through the
 * shared table (cli-config.h) into the config model; the rest say how the
 * recording is run.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <vtrace/format.h>

#include "builtin.h"
#include "cmd-record.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: vtrace record [-c CAT[,CAT]]... [-e group/event]... [-f CATFILE]...\n"
		"                     [-t DURATION] [-b BUFFER_KB] [-o FILE] [--format FORMAT]\n"
		"                     [-N HOST:PORT [--tcp|--udp] [--fallback-output FILE]]\n"
		"                     [--instance NAME] [--poll KIND[,KIND]...[:PERIOD]]...\n"
		"                     [--process-tree]\n"
		"                     [--clock CLOCK] [--reader auto|mmap|splice|read]\n"
		"                     [--keep-all | --adaptive | --light] [-r PRIO]\n"
		"                     [--name NAME] [--exclusive-prio N] [--keep-buffer]\n"
		"                     [--background] [-v] [--json]\n"
		"       vtrace record --config FILE [--config-binary] [--strict] [--force]\n"
		"                     [OPTIONS]\n\n"
		"Record the events of categories CAT and events group/event from every CPU's\n"
		"ring buffer into FILE (default trace.dat, trace-cmd's format version 6),\n"
		"until DURATION (10s, 500ms, 2m, or seconds) has passed, SIGINT or SIGTERM\n"
		"arrives, or 'vtrace stop' is run. Every tracefs setting changed is restored.\n\n"
		"  -c, --category CAT    events of category CAT (comma-separated list allowed)\n"
		"  -e, --event G/E       the event G/E\n"
		"  -f, --file CATFILE    category file (default $VTRACE_CATEGORIES or\n"
		"                        " VTRACE_DEFAULT_CATEGORIES ",\n"
		"                        then " VTRACE_BOARD_CATEGORIES ")\n"
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
		"      --poll KINDS[:P]  beside the events, poll the kernel's counters KINDS\n"
		"                        (meminfo, vmstat, stat, devfreq, cpufreq, buddyinfo,\n"
		"                        diskstat, psi, thermal) every P (default 1s, at\n"
		"                        least 10ms) as Perfetto's linux.sys_stats does\n"
		"      --process-tree    write every process and thread at the start, and\n"
		"                        those that appear (linux.process_stats); --poll and\n"
		"                        --process-tree need a Perfetto file (-o FILE.pftrace)\n"
		"      --clock CLOCK     trace_clock during the recording (default: local,\n"
		"                        trace-cmd's, for trace.dat; boot for Perfetto)\n"
		"      --reader PATH     auto (default: the cheapest here, splice), mmap,\n"
		"                        splice or read\n"
		"      --keep-all        per-CPU readers at SCHED_FIFO (-r's PRIO, default 1)\n"
		"                        all the time tracing is on (the default where\n"
		"                        allowed, else --light)\n"
		"      --adaptive        as --light, each reader raised to SCHED_FIFO while\n"
		"                        its buffer is near full or losing events\n"
		"      --light           readers at the caller's priority, each on the CPU\n"
		"                        it reads, all the time\n"
		"  -r, --rt-prio PRIO    the readers' SCHED_FIFO priority (1-99, needs\n"
		"                        CAP_SYS_NICE); 0: as --light\n"
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
		"      --strict          what vtrace cannot honour in FILE is an error\n"
		"      --force           let FILE's output_path replace a file that exists\n");
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
	OPT_KEEP_ALL,
	OPT_ADAPTIVE,
	OPT_LIGHT,
	OPT_TCP,
	OPT_UDP,
	OPT_FALLBACK_OUTPUT,
	OPT_KEEP_BUFFER,
	OPT_FORCE,
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
static int record_flag(void *ctx, int c, char *arg)
{
	struct record_opts *o = ctx;
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
	case OPT_FORCE:
		o->force = true;
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
	case OPT_KEEP_ALL:
	case OPT_ADAPTIVE:
	case OPT_LIGHT:
		if (o->policy_given) {
			vtrace_err(
				"--keep-all, --adaptive and --light: give one");
			return -EINVAL;
		}
		o->policy_given = true;
		if (c == OPT_KEEP_ALL)
			o->policy = VTRACE_READERS_KEEP_ALL;
		else if (c == OPT_ADAPTIVE)
			o->policy = VTRACE_READERS_ADAPTIVE;
		else
			o->policy = VTRACE_READERS_LIGHT;
		return 0;
	}
	return 1;
}

/*
 * The readers' policy from --keep-all, --adaptive, --light and -r: -r 0
 * is --light; --keep-all and --adaptive without -r take the default
 * priority, refused where it is not allowed, as -r is (without any of
 * them the recorder takes it only where allowed).
 */
static int resolve_policy(struct record_opts *o)
{
	bool prio_given = o->rt_prio != VTRACE_RECORDER_RT_DEFAULT;

	if (!o->policy_given) {
		if (prio_given && !o->rt_prio)
			o->policy = VTRACE_READERS_LIGHT;
		return 0;
	}
	if (o->policy == VTRACE_READERS_LIGHT) {
		if (prio_given && o->rt_prio) {
			vtrace_err(
				"--light and -r %d: the readers never run at a realtime priority under --light",
				o->rt_prio);
			return -EINVAL;
		}
		o->rt_prio = 0;
		return 0;
	}
	if (prio_given && !o->rt_prio) {
		vtrace_err("--%s and -r 0: give a priority from 1 to 99",
			   vtrace_reader_policy_name(o->policy));
		return -EINVAL;
	}
	if (!prio_given)
		o->rt_prio = VTRACE_RECORDER_DEFAULT_RT_PRIO;
	return 0;
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
	if ((o->config_format || o->strict || o->force) && !o->config) {
		vtrace_err(
			"--config-binary, --strict and --force need --config FILE");
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

/**
 * record_parse_args - read vtrace record's options
 * @argc: argument count
 * @argv: arguments; -c's are split in place
 * @o: the options, with their defaults
 *
 * Prints what is wrong; -h prints the usage and exits.
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int record_parse_args(int argc, char **argv, struct record_opts *o)
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
		{ "keep-all", no_argument, NULL, OPT_KEEP_ALL },
		{ "adaptive", no_argument, NULL, OPT_ADAPTIVE },
		{ "light", no_argument, NULL, OPT_LIGHT },
		{ "background", no_argument, NULL, OPT_BACKGROUND },
		{ "keep-buffer", no_argument, NULL, OPT_KEEP_BUFFER },
		{ "force", no_argument, NULL, OPT_FORCE },
		{ "verbose", no_argument, NULL, 'v' },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "config", required_argument, NULL, OPT_CONFIG },
		{ "config-binary", no_argument, NULL, OPT_CONFIG_BINARY },
		{ "strict", no_argument, NULL, OPT_STRICT },
		{}
	};
	int ret;

	ret = cli_config_parse(argc, argv, &o->flags, "r:N:v", own, record_flag,
			       o, usage);
	if (ret)
		return ret;
	return resolve_policy(o) ?: check_args(o);
}

/*
 * A config is shared, and its output_path may name any file: one that
 * exists is replaced only when the user says so, with -o or --force.
 */
static int config_output_check(const struct record_opts *o)
{
	const struct vtrace_tc_string *path = &o->tc.output_path;
	char shown[PATH_MAX * 4 + 1];
	struct stat st;

	if (o->net || o->force || !o->config || o->flags.tc.output_path.str ||
	    !path->str || lstat(path->str, &st))
		return 0;
	vtrace_escape(path->str, strlen(path->str), shown, sizeof(shown));
	/* A binary config's values are at byte offsets (column - 1). */
	if (path->line)
		fprintf(stderr, "%s:%u:%u: ", o->tc.file, path->line,
			path->column);
	else
		fprintf(stderr, "%s: byte %u: ", o->tc.file, path->column - 1);
	fprintf(stderr,
		"error: output_path '%s' exists: a config does not replace a file (give -o '%s' or --force to replace it)\n",
		shown, shown);
	return -EEXIST;
}

/**
 * record_make_config - what to record, as one config model
 * @o: the options read; @o->tc is filled in
 *
 * --config's file if given (refused before anything in tracefs changes),
 * with the command line's values over it; prints.
 *
 * Return: 0, -EINVAL, -EEXIST (output_path exists) or -ENOMEM.
 */
int record_make_config(struct record_opts *o)
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
	return config_output_check(o);
}
