// SPDX-License-Identifier: GPL-2.0
/*
 * vtrace report FILE.trace: the records of a method trace, one line each
 * in dmtracedump -o's order and fields (thread, action, time in us,
 * method), or as JSON.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <vtrace/dmtrace.h>

#include "builtin.h"
#include "cli.h"
#include "report-dmtrace.h"
#include "slices-load.h"

static const char *const actions[] = { "ent", "xit", "unr" };
static const char *const action_names[] = { "enter", "exit", "unwind" };
static const char *const clocks[] = { "wall", "thread-cpu", "dual" };

static void print_text(const struct vt_dmtrace *t)
{
	const struct vt_dmtrace_record *r;
	size_t i;

	printf("version %d, clock %s, %zu threads, %zu methods, %zu records\n",
	       t->version, clocks[t->clock], t->nr_threads, t->nr_methods,
	       t->nr_records);
	for (i = 0; i < t->nr_threads; i++)
		printf("thread %u: %s\n", t->threads[i].id, t->threads[i].name);
	for (i = 0; i < t->nr_records; i++) {
		r = &t->records[i];
		printf("%5u %s %10u %s\n", r->thread, actions[r->action],
		       r->wall_us, t->methods[r->method].name);
	}
}

static int print_json(const char *file, const struct vt_dmtrace *t)
{
	const struct vt_dmtrace_record *r;
	struct vtrace_json j;
	size_t i;

	vtrace_json_init(&j, stdout);
	vtrace_json_object_begin(&j, NULL);
	vtrace_json_string(&j, "file", file);
	vtrace_json_int(&j, "version", t->version);
	vtrace_json_string(&j, "clock", clocks[t->clock]);
	vtrace_json_uint(&j, "start_us", t->start_us);
	vtrace_json_array_begin(&j, "threads");
	for (i = 0; i < t->nr_threads; i++) {
		vtrace_json_object_begin(&j, NULL);
		vtrace_json_uint(&j, "id", t->threads[i].id);
		vtrace_json_int(&j, "pid", t->threads[i].pid);
		vtrace_json_int(&j, "tid", t->threads[i].tid);
		vtrace_json_string(&j, "name", t->threads[i].name);
		vtrace_json_object_end(&j);
	}
	vtrace_json_array_end(&j);
	vtrace_json_array_begin(&j, "records");
	for (i = 0; i < t->nr_records; i++) {
		r = &t->records[i];
		vtrace_json_object_begin(&j, NULL);
		vtrace_json_uint(&j, "thread", r->thread);
		vtrace_json_string(&j, "action", action_names[r->action]);
		vtrace_json_uint(&j, "wall_us", r->wall_us);
		if (t->clock != VT_DMTRACE_CLOCK_WALL)
			vtrace_json_uint(&j, "cpu_us", r->cpu_us);
		vtrace_json_string(&j, "method", t->methods[r->method].name);
		vtrace_json_object_end(&j);
	}
	vtrace_json_array_end(&j);
	vtrace_json_uint(&j, "count", t->nr_records);
	vtrace_json_object_end(&j);
	return cli_finish_json(&j);
}

/**
 * report_dmtrace - vtrace report of a method trace
 * @file: the trace (combined, a .key/.data file, or the pair's base name)
 * @json: print JSON
 * @filtered: --events or --cpu was given, which a method trace has no
 *	use for
 *
 * Return: the exit status.
 */
int report_dmtrace(const char *file, bool json, bool filtered)
{
	struct vt_dmtrace t;
	char msg[256] = "";
	int ret;

	if (filtered) {
		vtrace_err(
			"report: %s is a method trace: --events and --cpu select trace.dat events only",
			file);
		return VTRACE_EXIT_USAGE;
	}
	ret = vtrace_dmtrace_load(&t, file, msg, sizeof(msg));
	if (ret == -EINVAL) {
		vtrace_err("report: %s: not a usable method trace: %s", file,
			   msg);
	} else if (ret) {
		vtrace_err("report: %s", *msg ? msg : strerror(-ret));
	} else if (json) {
		ret = print_json(file, &t);
	} else {
		print_text(&t);
		ret = cli_finish_stdout();
	}
	vtrace_dmtrace_free(&t);
	return ret < 0 ? VTRACE_EXIT_FAIL : ret;
}
