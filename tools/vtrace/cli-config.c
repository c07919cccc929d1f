// SPDX-License-Identifier: GPL-2.0
/*
 * The options that say what to record, into the config model
 * (cli-config.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "cli-config.h"
#include "cli-session.h"

static const struct option config_longopts[] = {
	{ "category", required_argument, NULL, 'c' },
	{ "event", required_argument, NULL, 'e' },
	{ "file", required_argument, NULL, 'f' },
	{ "duration", required_argument, NULL, 't' },
	{ "buffer-kb", required_argument, NULL, 'b' },
	{ "output", required_argument, NULL, 'o' },
	{ "instance", required_argument, NULL, CLI_OPT_INSTANCE },
	{ "name", required_argument, NULL, CLI_OPT_NAME },
	{ "exclusive-prio", required_argument, NULL, CLI_OPT_EXCLUSIVE_PRIO },
	{ "poll", required_argument, NULL, CLI_OPT_POLL },
	{ "process-tree", no_argument, NULL, CLI_OPT_PROCESS_TREE },
	{ "help", no_argument, NULL, 'h' },
};

/* The table's long options and a command's own, in one array to free(). */
static struct option *longopts_with(const struct option *own)
{
	size_t nr_table = sizeof(config_longopts) / sizeof(config_longopts[0]);
	size_t nr_own = 0;
	struct option *all;

	while (own[nr_own].name)
		nr_own++;
	all = calloc(nr_table + nr_own + 1, sizeof(*all));
	if (!all)
		return NULL;
	memcpy(all, config_longopts, sizeof(config_longopts));
	memcpy(all + nr_table, own, nr_own * sizeof(*own));
	return all;
}

/* A comma-separated list, each item a value of its own. */
static int add_list(struct vtrace_tc_strings *list, char *arg)
{
	char *tok, *save;

	for (tok = strtok_r(arg, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		if (vtrace_tc_strings_add(list, tok))
			return -ENOMEM;
	return 0;
}

static int set_string(struct vtrace_tc_string *s, const char *arg)
{
	char *copy = strdup(arg);

	if (!copy)
		return -ENOMEM;
	free(s->str);
	s->str = copy;
	return 0;
}

/**
 * cli_config_flag - take one option, if it is one of the table's
 * @f: what the options gave so far
 * @opt: getopt_long()'s return
 * @arg: its argument
 *
 * Each value is checked as it is taken; the message names the command
 * and the option.
 *
 * Return: 0 when taken, 1 when @opt is none of the table's, -EINVAL for
 * a bad value (printed), or -ENOMEM.
 */
/* Longest --poll period: Perfetto's fields are uint32 milliseconds. */
#define POLL_MS_MAX 3600000
/* --poll without a period. */
#define POLL_MS_DEFAULT 1000

/*
 * --poll KIND[,KIND]...[:PERIOD]: linux.sys_stats' KIND_period_ms, all of
 * its counters; a period below the shortest sys_stats takes is refused.
 */
static int add_poll(struct cli_config_flags *f, char *arg)
{
	struct vtrace_sys_stats *ss = &f->tc.probes.sys_stats;
	uint32_t period[VTRACE_SYS_NR] = { 0 };
	enum vtrace_sys_stats_kind kind;
	char *colon = strrchr(arg, ':');
	char what[48], *tok, *save;
	long long ms = POLL_MS_DEFAULT;
	unsigned int n;
	int k;

	snprintf(what, sizeof(what), "%s --poll", f->cmd);
	if (colon) {
		*colon = '\0';
		if (cli_parse_duration(what, colon + 1, POLL_MS_MAX, &ms))
			return -EINVAL;
		if (ms < VTRACE_SYS_STATS_MIN_PERIOD_MS) {
			vtrace_err(
				"%s: %lld ms is below the shortest period linux.sys_stats polls at, %d ms",
				what, ms, VTRACE_SYS_STATS_MIN_PERIOD_MS);
			return -EINVAL;
		}
	}
	if (!arg[0]) {
		vtrace_err("%s: name the counters to poll", what);
		return -EINVAL;
	}
	for (tok = strtok_r(arg, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (vtrace_sys_stats_kind_parse(tok, &kind)) {
			vtrace_err(
				"%s: no counters '%s' (meminfo, vmstat, stat, devfreq, cpufreq, buddyinfo, diskstat, psi or thermal)",
				what, tok);
			return -EINVAL;
		}
		period[kind] = ms;
	}
	for (k = 0; k < VTRACE_SYS_NR; k++)
		if (period[k])
			ss->period_ms[k] = period[k];
	ss->enabled = true;
	ss->meminfo = ~0ull >> (63 - VTRACE_MEMINFO_MAX) & ~1ull;
	for (n = 1; n <= VTRACE_VMSTAT_MAX; n++)
		ss->vmstat[n / 64] |= 1ull << (n % 64);
	ss->stat_counters = VTRACE_STAT_ALL;
	return 0;
}

int cli_config_flag(struct cli_config_flags *f, int opt, char *arg)
{
	struct vtrace_trace_config *tc = &f->tc;
	char what[48];
	long long v;

	switch (opt) {
	case 'c':
		return add_list(&tc->atrace_categories, arg);
	case 'e':
		return vtrace_tc_strings_add(&tc->ftrace_events, arg);
	case 'f':
		return cli_files_add(&f->files, arg);
	case 't':
		snprintf(what, sizeof(what), "%s -t", f->cmd);
		if (cli_parse_duration(what, arg, f->duration_ms_max, &v))
			return -EINVAL;
		tc->duration_ms = v;
		return 0;
	case 'b':
		snprintf(what, sizeof(what), "%s -b", f->cmd);
		if (cli_parse_number(what, arg, 1, VTRACE_BUFFER_KB_MAX, &v))
			return -EINVAL;
		tc->ftrace_buffer_size_kb = v;
		return 0;
	case 'o':
		return set_string(&tc->output_path, arg);
	case CLI_OPT_INSTANCE:
		if (cli_parse_instance_name(arg))
			return -EINVAL;
		return set_string(&tc->instance_name, arg);
	case CLI_OPT_NAME:
		if (cli_parse_session_name(arg))
			return -EINVAL;
		return set_string(&tc->unique_session_name, arg);
	case CLI_OPT_EXCLUSIVE_PRIO:
		snprintf(what, sizeof(what), "%s --exclusive-prio", f->cmd);
		if (cli_parse_exclusive_prio(what, arg, &tc->exclusive_prio))
			return -EINVAL;
		tc->has_exclusive_prio = true;
		return 0;
	case CLI_OPT_POLL:
		return add_poll(f, arg);
	case CLI_OPT_PROCESS_TREE:
		tc->probes.process_stats = (struct vtrace_process_stats){
			.enabled = true,
			.scan_all_processes_on_start = true,
			.record_thread_names = true,
			.on_demand = true,
		};
		return 0;
	}
	return 1;
}

/**
 * cli_config_flags_empty - no category and no event was given
 * @f: what the options gave
 *
 * Return: true when there is nothing to record.
 */
bool cli_config_flags_empty(const struct cli_config_flags *f)
{
	return !f->tc.atrace_categories.nr && !f->tc.ftrace_events.nr;
}

/**
 * cli_config_flags_free - release what the options gave
 * @f: the options; left empty
 */
void cli_config_flags_free(struct cli_config_flags *f)
{
	vtrace_trace_config_free(&f->tc);
	free(f->files.names);
	f->files = (struct cli_files){};
}

/**
 * cli_config_parse - read a command's options: the table's and its own
 * @argc: argument count
 * @argv: arguments; -c's are split in place
 * @f: what the table's options give
 * @own_short: the command's own short options, for getopt_long()
 * @own: its own long options, terminated by an empty entry
 * @own_flag: takes one of its own options; returns as cli_config_flag().
 *	NULL when it has none.
 * @ctx: for @own_flag
 * @usage: prints the command's usage
 *
 * -h and --help print the usage on stdout and exit; an unknown option
 * prints it on stderr.
 *
 * Return: 0, -EINVAL (printed) or -ENOMEM.
 */
int cli_config_parse(int argc, char **argv, struct cli_config_flags *f,
		     const char *own_short, const struct option *own,
		     int (*own_flag)(void *ctx, int opt, char *arg), void *ctx,
		     void (*usage)(FILE *out))
{
	struct option *all;
	char shortopts[64];
	int c, ret = 0;

	snprintf(shortopts, sizeof(shortopts), "c:e:f:t:b:o:h%s", own_short);
	all = longopts_with(own);
	if (!all)
		return -ENOMEM;
	while (!ret &&
	       (c = getopt_long(argc, argv, shortopts, all, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			free(all);
			exit(VTRACE_EXIT_OK);
		}
		ret = cli_config_flag(f, c, optarg);
		if (ret == 1 && own_flag)
			ret = own_flag(ctx, c, optarg);
		if (ret == 1) {
			usage(stderr);
			ret = -EINVAL;
		}
	}
	free(all);
	if (ret || cli_unexpected_argument(argc, argv, optind))
		return ret ?: -EINVAL;
	return 0;
}
