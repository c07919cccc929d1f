// SPDX-License-Identifier: GPL-2.0
/*
 * vtrace reset - clear what recordings that died left behind: the
 * userspace atrace tags they held.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include <vtrace/atrace-tags.h>
#include <vtrace/state-dir.h>

#include "builtin.h"
#include "cli.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: vtrace reset\n\n"
		"Drop the userspace atrace tags held by recordings that are no\n"
		"longer running (killed, crashed). Live recordings and what\n"
		"'vtrace enable' turned on keep theirs.\n");
}

int cmd_reset(int argc, char **argv)
{
	static const struct option options[] = {
		{ "help", no_argument, NULL, 'h' }, {}
	};
	unsigned int dropped;
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		if (opt == 'h') {
			usage(stdout);
			return VTRACE_EXIT_OK;
		}
		usage(stderr);
		return VTRACE_EXIT_USAGE;
	}
	if (optind < argc) {
		usage(stderr);
		return VTRACE_EXIT_USAGE;
	}
	ret = vtrace_atrace_tags_reset(&dropped);
	if (ret) {
		vtrace_err("cannot reset the atrace tags in %s: %s",
			   vtrace_state_dir(), strerror(-ret));
		return VTRACE_EXIT_FAIL;
	}
	printf("dropped the atrace tags of %u recording%s no longer running\n",
	       dropped, dropped == 1 ? "" : "s");
	return VTRACE_EXIT_OK;
}
