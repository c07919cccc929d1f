// SPDX-License-Identifier: GPL-2.0
/*
 * vtrace marker - write an atrace marker from a shell script, through
 * libvtrace-atrace: the same lines, under the same tags, as a program's
 * ATRACE_BEGIN() and friends.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <vtrace/atrace.h>
#include <vtrace/atrace-categories.h>

#include "builtin.h"
#include "cli.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: vtrace marker [--tag TAG] [--pid PID] begin NAME\n"
		"       vtrace marker [--tag TAG] [--pid PID] end\n"
		"       vtrace marker [--tag TAG] [--pid PID] counter NAME VALUE\n"
		"       vtrace marker [--tag TAG] [--pid PID] async-begin NAME COOKIE\n"
		"       vtrace marker [--tag TAG] [--pid PID] async-end NAME COOKIE\n\n"
		"Write the atrace line (B|pid|NAME, E|pid, C|pid|NAME|VALUE,\n"
		"S|pid|NAME|COOKIE, F|pid|NAME|COOKIE) to the trace_marker of the\n"
		"running recording, if TAG is enabled (by 'vtrace enable' or\n"
		"'vtrace record' of a category with that userspace tag).\n"
		"begin and end nest on the thread that writes them, as in atrace:\n"
		"each vtrace call is a thread of its own, so a span around a\n"
		"script's commands is async-begin/async-end with one COOKIE.\n\n"
		"  -t, --tag TAG   a category name (gfx, view, ...) or a number of\n"
		"                  ATRACE_TAG_* bits (default: 1, ATRACE_TAG_ALWAYS,\n"
		"                  on during every recording)\n"
		"  -p, --pid PID   the pid written (default: the parent, i.e. the\n"
		"                  script; the kernel records vtrace's own tid)\n");
}

static int parse_tag(const char *arg, uint64_t *tag)
{
	const struct vtrace_atrace_category *cat;
	long long v;

	cat = vtrace_atrace_category_find(arg);
	if (cat) {
		if (!cat->tags) {
			vtrace_err("category '%s' has no userspace tag", arg);
			return -EINVAL;
		}
		*tag = cat->tags;
		return 0;
	}
	if (!cli_whole_number(arg, &v) || v < 1 ||
	    v > (long long)ATRACE_TAG_VALID_MASK) {
		vtrace_err(
			"marker --tag: unknown tag '%s': give a category with a userspace tag or ATRACE_TAG_* bits (1 to 0x%llx)",
			arg, (unsigned long long)ATRACE_TAG_VALID_MASK);
		return -EINVAL;
	}
	*tag = v;
	return 0;
}

/* NAME count of each kind of marker, after the kind itself. */
struct marker_kind {
	const char *name;
	int args;
	const char *value_name;
};

static const struct marker_kind kinds[] = {
	{ "begin", 1, NULL },	      { "end", 0, NULL },
	{ "counter", 2, "VALUE" },    { "async-begin", 2, "COOKIE" },
	{ "async-end", 2, "COOKIE" },
};

int cmd_marker(int argc, char **argv)
{
	static const struct option options[] = {
		{ "tag", required_argument, NULL, 't' },
		{ "pid", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	const struct marker_kind *kind = NULL;
	uint64_t tag = ATRACE_TAG_ALWAYS;
	long long pid = getppid(), value = 0;
	const char *name = NULL;
	char what[64];
	size_t i;
	int opt;

	while ((opt = getopt_long(argc, argv, "+t:p:h", options, NULL)) != -1) {
		switch (opt) {
		case 't':
			if (parse_tag(optarg, &tag))
				return VTRACE_EXIT_USAGE;
			break;
		case 'p':
			if (cli_parse_number("marker --pid", optarg, 1, INT_MAX,
					     &pid))
				return VTRACE_EXIT_USAGE;
			break;
		case 'h':
			usage(stdout);
			return VTRACE_EXIT_OK;
		default:
			usage(stderr);
			return VTRACE_EXIT_USAGE;
		}
	}
	if (optind < argc)
		for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
			if (!strcmp(argv[optind], kinds[i].name))
				kind = &kinds[i];
	if (!kind) {
		if (optind < argc)
			vtrace_err("unknown marker '%s'", argv[optind]);
		usage(stderr);
		return VTRACE_EXIT_USAGE;
	}
	if (argc - optind - 1 != kind->args) {
		vtrace_err("'%s' takes %d argument%s", kind->name, kind->args,
			   kind->args == 1 ? "" : "s");
		return VTRACE_EXIT_USAGE;
	}
	if (kind->args > 0)
		name = argv[optind + 1];
	if (kind->value_name) {
		snprintf(what, sizeof(what), "marker %s %s", kind->name,
			 kind->value_name);
		if (cli_parse_number(
			    what, argv[optind + 2],
			    kind->name[0] == 'c' ? INT64_MIN : INT32_MIN,
			    kind->name[0] == 'c' ? INT64_MAX : INT32_MAX,
			    &value))
			return VTRACE_EXIT_USAGE;
	}

	atrace_setup();
	vtrace_atrace_set_pid(pid);
	if (!strcmp(kind->name, "begin"))
		atrace_begin(tag, name);
	else if (!strcmp(kind->name, "end"))
		atrace_end(tag);
	else if (!strcmp(kind->name, "counter"))
		atrace_int64(tag, name, value);
	else if (!strcmp(kind->name, "async-begin"))
		atrace_async_begin(tag, name, value);
	else
		atrace_async_end(tag, name, value);
	return VTRACE_EXIT_OK;
}
