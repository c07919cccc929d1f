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
#include "cli.h"
#include "cli-session.h"

/*
 * Perfetto needs a buffer in every config; with write_into_file it only
 * stages data between two writes, so its size is not what is recorded.
 */
#define CONFIG_BUFFER_KB 65536

static void usage(FILE *out)
{
	fprintf(out,
		"usage: vtrace config [-f CATFILE]... [-c CAT[,CAT]]... [-e G/E]... [-t DURATION]\n"
		"                     [-b KB] [--name NAME] [--exclusive-prio N] [-o FILE]\n\n"
		"Print a Perfetto TraceConfig in text format asking for what 'vtrace record'\n"
		"with the same options records: for 'perfetto --txt -c FILE' on Android, or\n"
		"'vtrace record --config FILE'.\n\n"
		"  -c, --category CAT    atrace category CAT, standard or from a category file\n"
		"  -e, --event G/E       the event G/E\n"
		"  -f, --file CATFILE    category file (default $VTRACE_CATEGORIES or\n"
		"                        " VTRACE_DEFAULT_CATEGORIES ")\n"
		"  -t, --duration D      duration_ms (10s, 500ms, 2m, or seconds)\n"
		"  -b, --buffer-kb KB    ftrace_config.buffer_size_kb, per CPU\n"
		"      --name NAME       unique_session_name\n"
		"      --exclusive-prio N  exclusive_prio\n"
		"  -o, --output FILE     output_path\n");
}

enum {
	OPT_NAME = 256,
	OPT_EXCLUSIVE_PRIO,
};

static int add_list(struct vtrace_tc_strings *list, char *arg)
{
	char *tok, *save;

	for (tok = strtok_r(arg, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		if (vtrace_tc_strings_add(list, tok))
			return -ENOMEM;
	return 0;
}

static int parse_args(int argc, char **argv, struct vtrace_trace_config *tc,
		      struct cli_files *files)
{
	static const struct option longopts[] = {
		{ "category", required_argument, NULL, 'c' },
		{ "event", required_argument, NULL, 'e' },
		{ "file", required_argument, NULL, 'f' },
		{ "duration", required_argument, NULL, 't' },
		{ "buffer-kb", required_argument, NULL, 'b' },
		{ "output", required_argument, NULL, 'o' },
		{ "name", required_argument, NULL, OPT_NAME },
		{ "exclusive-prio", required_argument, NULL,
		  OPT_EXCLUSIVE_PRIO },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	struct vtrace_name_error nerr;
	long long ms;
	long long kb;
	int c;

	while ((c = getopt_long(argc, argv, "c:e:f:t:b:o:h", longopts, NULL)) !=
	       -1) {
		switch (c) {
		case 'c':
			if (add_list(&tc->atrace_categories, optarg))
				return -ENOMEM;
			break;
		case 'e':
			if (vtrace_event_name_check(optarg, strlen(optarg),
						    &nerr)) {
				vtrace_err("bad event name '%s': %s", optarg,
					   nerr.reason);
				return -EINVAL;
			}
			if (vtrace_tc_strings_add(&tc->ftrace_events, optarg))
				return -ENOMEM;
			break;
		case 'f':
			if (cli_files_add(files, optarg))
				return -ENOMEM;
			break;
		case 't':
			/* TraceConfig's duration_ms is a uint32 */
			if (cli_parse_duration("config -t", optarg, UINT32_MAX,
					       &ms))
				return -EINVAL;
			tc->duration_ms = ms;
			break;
		case 'b':
			if (cli_parse_number("config -b", optarg, 1,
					     VTRACE_BUFFER_KB_MAX, &kb))
				return -EINVAL;
			tc->ftrace_buffer_size_kb = kb;
			break;
		case 'o':
			free(tc->output_path.str);
			tc->output_path.str = strdup(optarg);
			if (!tc->output_path.str)
				return -ENOMEM;
			break;
		case OPT_NAME:
			if (cli_parse_session_name(optarg))
				return -EINVAL;
			free(tc->unique_session_name.str);
			tc->unique_session_name.str = strdup(optarg);
			if (!tc->unique_session_name.str)
				return -ENOMEM;
			break;
		case OPT_EXCLUSIVE_PRIO:
			if (cli_parse_exclusive_prio("config --exclusive-prio",
						     optarg,
						     &tc->exclusive_prio))
				return -EINVAL;
			tc->has_exclusive_prio = true;
			break;
		case 'h':
			usage(stdout);
			exit(VTRACE_EXIT_OK);
		default:
			usage(stderr);
			return -EINVAL;
		}
	}
	if (cli_unexpected_argument(argc, argv, optind))
		return -EINVAL;
	if (!tc->atrace_categories.nr && !tc->ftrace_events.nr) {
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
	struct vtrace_trace_config tc;
	struct cli_files files = {};
	int status = VTRACE_EXIT_USAGE;

	vtrace_trace_config_init(&tc);
	if (parse_args(argc, argv, &tc, &files))
		goto out;
	printf("# vtrace config %s: for perfetto --txt -c FILE, or vtrace record --config FILE\n",
	       VTRACE_VERSION);
	status = check_categories(&tc, &files, stdout);
	if (status)
		goto out;
	status = VTRACE_EXIT_FAIL;
	tc.has_buffer = true;
	tc.buffer_size_kb = CONFIG_BUFFER_KB;
	tc.fill_policy = VTRACE_FILL_RING_BUFFER;
	tc.write_into_file = true;
	if (vtrace_trace_config_write(&tc, stdout) || fflush(stdout)) {
		vtrace_err("cannot write the config: %s", strerror(errno));
		goto out;
	}
	status = VTRACE_EXIT_OK;
out:
	vtrace_trace_config_free(&tc);
	free(files.names);
	return status;
}
