// SPDX-License-Identifier: GPL-2.0
/*
 * vtrace config - print the Perfetto TraceConfig (text format) that asks
 * for the same categories and events as "vtrace record" with the same
 * options, for "perfetto --txt -c" on a phone or "vtrace record --config"
 * on a board.
 *
 * Needs no tracefs: categories are checked against the standard table and
 * the category files, events by name only (the phone has its own kernel).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vtrace/atrace-categories.h>
#include <vtrace/categories.h>
#include <vtrace/event-name.h>
#include <vtrace/trace-config.h>

#include "builtin.h"
#include "cli-config.h"

/*
 * Perfetto needs a buffer in every config; with write_into_file it only
 * stages data between two writes, so its size is not what is recorded.
 */
#define CONFIG_BUFFER_KB 65536

static void usage(FILE *out)
{
	fprintf(out,
		"usage: vtrace config [-f CATFILE]... [-c CAT[,CAT]]... [-e G/E]... [-t DURATION]\n"
		"                     [-b KB] [--instance NAME] [--name NAME] [--exclusive-prio N]\n"
		"                     [--poll KIND[,KIND]...[:PERIOD]]... [--process-tree]\n"
		"                     [-o FILE]\n\n"
		"Print a Perfetto TraceConfig in text format asking for what 'vtrace record'\n"
		"with the same options records: for 'perfetto --txt -c FILE' on Android, or\n"
		"'vtrace record --config FILE'.\n\n"
		"  -c, --category CAT    atrace category CAT, standard or from a category file\n"
		"  -e, --event G/E       the event G/E\n"
		"  -f, --file CATFILE    category file (default $VTRACE_CATEGORIES or\n"
		"                        " VTRACE_DEFAULT_CATEGORIES ",\n"
		"                        then " VTRACE_BOARD_CATEGORIES ")\n"
		"  -t, --duration D      duration_ms (10s, 500ms, 2m, or seconds)\n"
		"  -b, --buffer-kb KB    ftrace_config.buffer_size_kb, per CPU\n"
		"      --instance NAME   ftrace_config.instance_name\n"
		"      --name NAME       unique_session_name\n"
		"      --exclusive-prio N  exclusive_prio\n"
		"      --poll KINDS[:P]  a linux.sys_stats data source: KIND_period_ms P\n"
		"                        (default 1s) for each KIND (meminfo, vmstat, stat,\n"
		"                        devfreq, cpufreq, buddyinfo, diskstat, psi, thermal)\n"
		"      --process-tree    a linux.process_stats data source with\n"
		"                        scan_all_processes_on_start and record_thread_names\n"
		"  -o, --output FILE     output_path\n");
}

/* The options are those of vtrace record that say what to record. */
static int parse_args(int argc, char **argv, struct cli_config_flags *f)
{
	static const struct option own[] = { {} };
	struct vtrace_name_error nerr;
	const char *name;
	size_t i;
	int ret;

	ret = cli_config_parse(argc, argv, f, "", own, NULL, NULL, usage);
	if (ret)
		return ret;
	/* The phone checks them against its kernel: the name only, here. */
	for (i = 0; i < f->tc.ftrace_events.nr; i++) {
		name = f->tc.ftrace_events.items[i].str;
		if (vtrace_event_name_check(name, strlen(name), &nerr)) {
			vtrace_err("bad event name '%s': %s", name,
				   nerr.reason);
			return -EINVAL;
		}
	}
	if (cli_config_flags_empty(f)) {
		vtrace_err(
			"nothing to record: give -c CATEGORY or -e group/event");
		return -EINVAL;
	}
	return 0;
}

/*
 * Every category must be a standard one or in the category files, as for
 * vtrace record; vendor ones are named in a comment, since the phone reads
 * its own vendor file. Returns the exit status; prints.
 */
static int check_categories(const struct vtrace_trace_config *tc,
			    const struct cli_files *files, FILE *out)
{
	const struct vtrace_category *vendor;
	struct vtrace_diags diags;
	struct vtrace_catmap map;
	size_t i;
	int ret;

	vtrace_catmap_init(&map);
	vtrace_diags_init(&diags);
	ret = cli_load_categories(files, &map, &diags);
	cli_print_diags(stderr, &diags);
	vtrace_diags_free(&diags);
	if (ret) {
		vtrace_err("cannot use the category files");
		/* A file with errors, or one that could not be read. */
		ret = ret == -EINVAL ? VTRACE_EXIT_FAIL : VTRACE_EXIT_USAGE;
		goto out;
	}
	for (i = 0; i < tc->atrace_categories.nr; i++) {
		const char *name = tc->atrace_categories.items[i].str;

		vendor = vtrace_catmap_find(&map, name);
		if (!vendor && !vtrace_atrace_category_find(name)) {
			vtrace_err(
				"unknown category '%s' (see vtrace categories)",
				name);
			ret = VTRACE_EXIT_FAIL;
			goto out;
		}
		if (vendor)
			fprintf(out,
				"# atrace category %s: %zu events from %s (vendor categories come from the device's own file)\n",
				name, vendor->nr_events,
				vendor->events[0].file);
	}
out:
	vtrace_catmap_free(&map);
	return ret;
}

int cmd_config(int argc, char **argv)
{
	/* TraceConfig's duration_ms is a uint32. */
	struct cli_config_flags flags = { .cmd = "config",
					  .duration_ms_max = UINT32_MAX };
	struct vtrace_trace_config *tc = &flags.tc;
	int status = VTRACE_EXIT_USAGE;

	if (parse_args(argc, argv, &flags))
		goto out;
	printf("# vtrace config %s: for perfetto --txt -c FILE, or vtrace record --config FILE\n",
	       VTRACE_VERSION);
	status = check_categories(tc, &flags.files, stdout);
	if (status)
		goto out;
	status = VTRACE_EXIT_FAIL;
	tc->has_buffer = true;
	tc->buffer_size_kb = CONFIG_BUFFER_KB;
	tc->fill_policy = VTRACE_FILL_RING_BUFFER;
	tc->write_into_file = true;
	if (vtrace_trace_config_write(tc, stdout) || fflush(stdout)) {
		vtrace_err("cannot write the config: %s", strerror(errno));
		goto out;
	}
	status = VTRACE_EXIT_OK;
out:
	cli_config_flags_free(&flags);
	return status;
}
