// SPDX-License-Identifier: GPL-2.0
/*
 * vtrace recover - finish the file of a recording that was killed (or
 * crashed, or lost power) before it could.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vtrace/tracedat-writer.h>

#include "builtin.h"
#include "cli.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: vtrace recover FILE [-o OUT]\n\n"
		"Turn the unfinished file a killed vtrace record left (its\n"
		"temporary name, .NAME.XXXXXX next to the output) into a\n"
		"complete trace.dat holding every sub-buffer that reached it.\n"
		"FILE is only read. OUT defaults to the name the recording was\n"
		"to give its file, which must not exist yet.\n\n"
		"  -o, --output OUT  the trace.dat to write\n");
}

int cmd_recover(int argc, char **argv)
{
	static const struct option options[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	struct vt_tracedat_recovery r;
	const char *out = NULL;
	unsigned long long all = 0;
	char msg[768];
	int opt, cpu;

	while ((opt = getopt_long(argc, argv, "o:h", options, NULL)) != -1) {
		switch (opt) {
		case 'o':
			out = optarg;
			break;
		case 'h':
			usage(stdout);
			return VTRACE_EXIT_OK;
		default:
			usage(stderr);
			return VTRACE_EXIT_USAGE;
		}
	}
	if (optind + 1 != argc) {
		usage(stderr);
		return VTRACE_EXIT_USAGE;
	}
	if (cli_check_input("recover", argv[optind]))
		return VTRACE_EXIT_USAGE;
	if (vtrace_tracedat_recover(argv[optind], out, &r, msg, sizeof(msg))) {
		vtrace_err("%s", msg);
		return VTRACE_EXIT_FAIL;
	}
	for (cpu = 0; cpu < r.ncpus; cpu++)
		all += r.subbufs[cpu];
	printf("recovered %llu sub-buffers of %zu bytes from %s into %s\n", all,
	       r.page_size, argv[optind], r.output);
	if (r.layout_moved >= 0)
		printf("killed in the layout step: %d of %d CPUs' runs in place\n",
		       r.layout_moved, r.ncpus);
	if (r.layout_done)
		printf("  cpu%d's run half moved: %llu of %llu bytes\n",
		       r.layout_moved, r.layout_done, r.layout_bytes);
	for (cpu = 0; cpu < r.ncpus; cpu++)
		printf("  cpu%d: %llu sub-buffers\n", cpu, r.subbufs[cpu]);
	free(r.subbufs);
	free(r.output);
	return VTRACE_EXIT_OK;
}
