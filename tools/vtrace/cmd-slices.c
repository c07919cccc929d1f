// SPDX-License-Identifier: GPL-2.0
/*
 * vtrace slices - the atrace slices, async slices and counters of a
 * trace.dat (and the function graph's kernel slices) or a Perfetto trace
 * (and its track events), or the method slices of a dmtrace file. The
 * building is the library's (slices.h).
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include <vtrace/slices.h>

#include "builtin.h"
#include "cli.h"
#include "slices-load.h"

static void slices_usage(FILE *out)
{
	fprintf(out,
		"usage: vtrace slices FILE [--json]\n"
		"\n"
		"Print the slices of FILE: a trace.dat's atrace markers (B/E per\n"
		"thread, S/F async slices by pid, name and cookie, C counters, from\n"
		"trace_marker or trace_printk) and function graph entries; a Perfetto\n"
		"trace's markers and track events; or a dmtrace method trace\n"
		"(.trace, or a .key/.data pair).\n"
		"\n"
		"  --json  {\"slices\":[{\"pid\",\"tid\",\"name\",\"ts\",\"dur\",\"depth\"\n"
		"          [,\"args\"]}],\n"
		"          \"async\":[{\"pid\",\"name\",\"cookie\",\"ts\",\"dur\"}],\n"
		"          \"counters\":[{\"pid\",\"name\",\"ts\",\"value\"}],\n"
		"          \"unmatched\":N,\"open\":N,\"malformed\":N}, ts and dur in ns\n");
}

static int print_json(const struct vt_slices *s)
{
	struct vtrace_json j;
	size_t i;

	vtrace_json_init(&j, stdout);
	vtrace_json_object_begin(&j, NULL);
	vtrace_json_array_begin(&j, "slices");
	for (i = 0; i < s->nr_slices; i++) {
		const struct vt_slice *sl = &s->slices[i];

		vtrace_json_object_begin(&j, NULL);
		vtrace_json_int(&j, "pid", sl->pid);
		vtrace_json_int(&j, "tid", sl->tid);
		vtrace_json_string(&j, "name", s->names[sl->name]);
		vtrace_json_uint(&j, "ts", sl->ts);
		vtrace_json_uint(&j, "dur", sl->dur);
		vtrace_json_int(&j, "depth", sl->depth);
		if (sl->args != VT_SLICE_NO_ARGS)
			vtrace_json_string(&j, "args", s->names[sl->args]);
		vtrace_json_object_end(&j);
	}
	vtrace_json_array_end(&j);
	vtrace_json_array_begin(&j, "async");
	for (i = 0; i < s->nr_async; i++) {
		const struct vt_async_slice *a = &s->async[i];

		vtrace_json_object_begin(&j, NULL);
		vtrace_json_int(&j, "pid", a->pid);
		vtrace_json_string(&j, "name", s->names[a->name]);
		vtrace_json_int(&j, "cookie", a->cookie);
		vtrace_json_uint(&j, "ts", a->ts);
		vtrace_json_uint(&j, "dur", a->dur);
		vtrace_json_object_end(&j);
	}
	vtrace_json_array_end(&j);
	vtrace_json_array_begin(&j, "counters");
	for (i = 0; i < s->nr_counters; i++) {
		const struct vt_counter *c = &s->counters[i];

		vtrace_json_object_begin(&j, NULL);
		vtrace_json_int(&j, "pid", c->pid);
		vtrace_json_string(&j, "name", s->names[c->name]);
		vtrace_json_uint(&j, "ts", c->ts);
		vtrace_json_int(&j, "value", c->value);
		vtrace_json_object_end(&j);
	}
	vtrace_json_array_end(&j);
	vtrace_json_uint(&j, "unmatched", s->unmatched);
	vtrace_json_uint(&j, "open", s->open);
	vtrace_json_uint(&j, "malformed", s->malformed);
	vtrace_json_object_end(&j);
	return cli_finish_json(&j);
}

static void ts(uint64_t ns)
{
	printf("%6llu.%06llu", (unsigned long long)(ns / 1000000000),
	       (unsigned long long)(ns / 1000 % 1000000));
}

static void print_text(const struct vt_slices *s)
{
	const struct vt_thread *t;
	size_t i;

	printf("%zu slices, %zu async slices, %zu counter samples; ",
	       s->nr_slices, s->nr_async, s->nr_counters);
	printf("%llu unmatched ends, %llu open at the end, %llu malformed markers\n",
	       s->unmatched, s->open, s->malformed);
	if (s->nr_slices)
		printf("\n%16s-%-7s %13s %13s  NAME\n", "THREAD", "TID",
		       "BEGIN (s)", "DUR (ms)");
	for (i = 0; i < s->nr_slices; i++) {
		const struct vt_slice *sl = &s->slices[i];

		t = vtrace_slices_find_thread(s, sl->tid);
		printf("%16.16s-%-7d ", t && t->name ? t->name : "<...>",
		       sl->tid);
		ts(sl->ts);
		printf(" %9llu.%03llu  %*s%s\n",
		       (unsigned long long)(sl->dur / 1000000),
		       (unsigned long long)(sl->dur / 1000 % 1000),
		       2 * sl->depth, "", s->names[sl->name]);
	}
	if (s->nr_async)
		printf("\nasync:\n%8s %20s %13s %13s  NAME\n", "PID", "COOKIE",
		       "BEGIN (s)", "DUR (ms)");
	for (i = 0; i < s->nr_async; i++) {
		const struct vt_async_slice *a = &s->async[i];

		printf("%8d %20lld ", a->pid, (long long)a->cookie);
		ts(a->ts);
		printf(" %9llu.%03llu  %s\n",
		       (unsigned long long)(a->dur / 1000000),
		       (unsigned long long)(a->dur / 1000 % 1000),
		       s->names[a->name]);
	}
	if (s->nr_counters)
		printf("\ncounters:\n%8s %13s %20s  NAME\n", "PID", "TIME (s)",
		       "VALUE");
	for (i = 0; i < s->nr_counters; i++) {
		const struct vt_counter *c = &s->counters[i];

		printf("%8d ", c->pid);
		ts(c->ts);
		printf(" %20lld  %s\n", (long long)c->value, s->names[c->name]);
	}
}

int cmd_slices(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct vt_slices s;
	bool json = false;
	int opt, ret;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			json = true;
			break;
		case 'h':
			slices_usage(stdout);
			return VTRACE_EXIT_OK;
		default:
			slices_usage(stderr);
			return VTRACE_EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		slices_usage(stderr);
		return VTRACE_EXIT_USAGE;
	}
	if (cli_check_input("slices", argv[optind]))
		return VTRACE_EXIT_USAGE;
	if (cli_load_slices("slices", argv[optind], &s)) {
		vtrace_slices_free(&s);
		return VTRACE_EXIT_FAIL;
	}
	cli_report_slice_faults("slices", argv[optind], &s);
	if (json) {
		ret = print_json(&s);
	} else {
		print_text(&s);
		ret = cli_finish_stdout();
	}
	vtrace_slices_free(&s);
	return ret;
}
