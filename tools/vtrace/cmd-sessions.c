// SPDX-License-Identifier: GPL-2.0
/*
 * vtrace sessions - list the running recordings: name, recorder, buffer,
 * exclusive priority, what each has written so far and where (the output
 * and the temporary file it is written as until it is complete).
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include <vtrace/session.h>

#include "builtin.h"
#include "cli.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: vtrace sessions [--json]\n\n"
		"List the running recordings (sessions) and what each has\n"
		"written so far (updated about once a second).\n\n"
		"  --json             print JSON on stdout\n");
}

static void print_text(const struct vtrace_session_info *list, size_t nr)
{
	const struct vtrace_session_info *s;
	size_t i;

	printf("%-20s %8s %-20s %5s %12s %14s  %s\n", "NAME", "PID", "INSTANCE",
	       "PRIO", "EVENTS", "BYTES", "OUTPUT");
	for (i = 0; i < nr; i++) {
		s = &list[i];
		printf("%-20s %8d %-20s %5u %12llu %14llu  %s", s->name,
		       (int)s->recorder.pid, s->instance ? s->instance : "-",
		       s->exclusive_prio, s->events, s->bytes, s->output);
		if (s->partial)
			printf(" (written as %s until the end)", s->partial);
		printf("%s\n", s->aborting ? " (aborted, finishing)" : "");
	}
}

static int print_json(const struct vtrace_session_info *list, size_t nr)
{
	const struct vtrace_session_info *s;
	struct vtrace_json j;
	size_t i;

	vtrace_json_init(&j, stdout);
	vtrace_json_object_begin(&j, NULL);
	vtrace_json_array_begin(&j, "sessions");
	for (i = 0; i < nr; i++) {
		s = &list[i];
		vtrace_json_object_begin(&j, NULL);
		vtrace_json_string(&j, "name", s->name);
		vtrace_json_int(&j, "pid", s->recorder.pid);
		vtrace_json_string(&j, "instance",
				   s->instance ? s->instance : "");
		vtrace_json_uint(&j, "exclusive_prio", s->exclusive_prio);
		vtrace_json_uint(&j, "events", s->events);
		vtrace_json_uint(&j, "bytes", s->bytes);
		vtrace_json_string(&j, "output", s->output);
		vtrace_json_string(&j, "partial", s->partial ? s->partial : "");
		vtrace_json_uint(&j, "started_ns", s->started_ns);
		vtrace_json_object_end(&j);
	}
	vtrace_json_array_end(&j);
	vtrace_json_object_end(&j);
	return cli_finish_json(&j);
}

int cmd_sessions(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	struct vtrace_session_info *list;
	bool json = false;
	size_t nr;
	int c, ret;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 'h':
			usage(stdout);
			return VTRACE_EXIT_OK;
		default:
			usage(stderr);
			return VTRACE_EXIT_USAGE;
		}
	}
	if (cli_unexpected_argument(argc, argv, optind))
		return VTRACE_EXIT_USAGE;
	ret = vtrace_sessions_list(&list, &nr);
	if (ret)
		return cli_state_dir_error("read the sessions", ret);
	if (json)
		ret = print_json(list, nr);
	else
		print_text(list, nr);
	vtrace_sessions_free(list, nr);
	return ret;
}
