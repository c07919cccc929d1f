// SPDX-License-Identifier: GPL-2.0
/*
 * vtrace reset - clear what recordings that died left behind: the tracefs
 * settings, events and instances their journals name, and the userspace
 * atrace tags they held.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include <vtrace/atrace-tags.h>
#include <vtrace/journal.h>
#include <vtrace/state-dir.h>

#include "builtin.h"
#include "cli.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: vtrace reset\n\n"
		"Put back what recordings that are no longer running (killed,\n"
		"crashed, powered off) changed in tracefs: every setting and\n"
		"event as it was before them, and remove the instances they\n"
		"created; drop the userspace atrace tags they held. Names the\n"
		"unfinished file each left ('vtrace recover FILE'). Live\n"
		"recordings and what 'vtrace enable' turned on keep theirs.\n");
}

static void tell_restored(void *ctx, const struct vtrace_journal_restored *r)
{
	FILE *out = ctx;

	fprintf(out,
		"%srestored what the dead recording %d left in %s%s: %u setting%s put back%s",
		out == stderr ? "vtrace: " : "", r->pid,
		r->instance ? "instance " : "the top level buffer",
		r->instance ?: "", r->settings, r->settings == 1 ? "" : "s",
		r->instance_removed ? ", the instance it created removed" : "");
	if (r->failed)
		fprintf(out, " (%u failed: %s)", r->failed, r->first_error);
	fputc('\n', out);
	if (r->partial)
		fprintf(out,
			"%sits unfinished output is %s ('vtrace recover %s' makes a trace.dat of a trace.dat recording's)\n",
			out == stderr ? "vtrace: " : "  ", r->partial,
			r->partial);
}

/**
 * cli_restore_dead_recordings - undo what dead recordings left in tracefs
 * @out: where to say what was restored (stdout for reset, stderr before
 *	a command's own work)
 *
 * Return: the number of dead recordings restored, or a negative errno
 * (said on stderr).
 */
int cli_restore_dead_recordings(FILE *out)
{
	unsigned int restored;
	int ret;

	ret = vtrace_journal_restore_dead(tell_restored, out, &restored);
	/* Nothing is taken from an untrusted one; its next use says why. */
	if ((ret == -EPERM || ret == -ENOTDIR) && out == stderr)
		return 0;
	if (ret) {
		cli_state_dir_error("read the recording journals", ret);
		return ret;
	}
	return restored;
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
	ret = cli_restore_dead_recordings(stdout);
	if (ret < 0)
		return VTRACE_EXIT_FAIL;
	printf("restored the tracefs settings of %d recording%s no longer running\n",
	       ret, ret == 1 ? "" : "s");
	ret = vtrace_atrace_tags_reset(&dropped);
	if (ret)
		return cli_state_dir_error("reset the atrace tags", ret);
	printf("dropped the atrace tags of %u recording%s no longer running\n",
	       dropped, dropped == 1 ? "" : "s");
	return VTRACE_EXIT_OK;
}
