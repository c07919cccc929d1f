// SPDX-License-Identifier: GPL-2.0
/*
 * vtrace - map Android vendor trace categories onto tracefs events, and
 * record them.
 *
 * This file only dispatches: each subcommand lives in cmd-NAME.c.
 */
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "cli.h"

struct vtrace_command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

/* One line per subcommand, in the order --help lists them. */
static const struct vtrace_command commands[] = {
	{ "check", cmd_check, "lint category files (needs no tracefs)" },
	{ "categories", cmd_categories, "list categories and their events" },
	{ "enable", cmd_enable, "enable categories or group/event events" },
	{ "disable", cmd_disable, "disable categories or group/event events" },
	{ "status", cmd_status, "show enabled events, buffer and clock" },
	{ "record", cmd_record,
	  "record events from every CPU into a trace.dat" },
	{ "config", cmd_config,
	  "print a Perfetto TraceConfig for the same recording" },
	{ "stop", cmd_stop, "end a running (or --background) vtrace record" },
	{ "sessions", cmd_sessions, "list the running recordings" },
	{ "report", cmd_report, "print the events of a trace.dat" },
	{ "recover", cmd_recover,
	  "finish the trace.dat of a killed recording" },
	{ "marker", cmd_marker,
	  "write an atrace marker (begin, end, counter...)" },
	{ "reset", cmd_reset, "drop the atrace tags of recordings that died" },
	{ "slices", cmd_slices,
	  "atrace slices, async slices and counters of a trace" },
	{ "profile", cmd_profile,
	  "Traceview profile (inclusive/exclusive time, calls) of a trace" },
	{ "view", cmd_view,
	  "timeline and profile of a trace as one offline HTML page" },
	{ "convert", cmd_convert, "convert a trace.dat into a Perfetto trace" },
};

static void usage(FILE *out)
{
	size_t i;

	fprintf(out, "usage: vtrace [--help] [--version] COMMAND [ARGS]\n\n"
		     "commands:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-12s %s\n", commands[i].name,
			commands[i].summary);
	fprintf(out, "\nRun 'vtrace COMMAND --help' for a command's options; "
		     "see vtrace(1).\n");
}

static const struct vtrace_command *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

int main(int argc, char **argv)
{
	const struct vtrace_command *cmd;
	char *help_argv[3] = { NULL, "--help", NULL };

	if (argc < 2) {
		usage(stderr);
		return VTRACE_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return VTRACE_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("vtrace %s\n", VTRACE_VERSION);
		return VTRACE_EXIT_OK;
	}
	/* "vtrace help CMD" is "vtrace CMD --help". */
	if (!strcmp(argv[1], "help")) {
		if (argc < 3) {
			usage(stdout);
			return VTRACE_EXIT_OK;
		}
		cmd = find_command(argv[2]);
		if (!cmd) {
			vtrace_err("unknown command '%s'", argv[2]);
			return VTRACE_EXIT_USAGE;
		}
		help_argv[0] = argv[2];
		return cmd->run(2, help_argv);
	}

	cmd = find_command(argv[1]);
	if (!cmd) {
		vtrace_err("unknown command '%s' (see 'vtrace --help')",
			   argv[1]);
		return VTRACE_EXIT_USAGE;
	}
	return cmd->run(argc - 1, argv + 1);
}
