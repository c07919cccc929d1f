// SPDX-License-Identifier: GPL-2.0
/*
 * vtrace view - Traceview's two panels as one offline HTML page: the
 * timeline (a row per thread, grouped by process, the slices as spans,
 * counters as step plots, CPU rows from sched_switch) and the profile
 * (the method table with parents and children). The slices and the
 * profile are the ones vtrace slices and vtrace profile compute.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include <vtrace/profile.h>

#include "builtin.h"
#include "cli.h"
#include "slices-load.h"
#include "view-page.h"

struct view_data {
	const char *file;
	const struct vt_slices *slices;
	const struct vt_profile *profile;
};

static void view_usage(FILE *out)
{
	fprintf(out,
		"usage: vtrace view FILE -o OUT.html\n"
		"\n"
		"Write the timeline and the profile of FILE (a trace.dat, a Perfetto\n"
		"trace or a dmtrace method trace) as one self-contained HTML page,\n"
		"which any browser opens from file:// without a network.\n"
		"\n"
		"  -o, --output OUT.html  the page (written whole or not at all)\n");
}

static void view_json(struct vtrace_json *j, void *arg)
{
	const struct view_data *d = arg;
	const char *base = strrchr(d->file, '/');

	vtrace_json_string(j, "mode", "view");
	vtrace_json_string(j, "file", base ? base + 1 : d->file);
	vtrace_json_bool(j, "hasCpuTime", d->slices->has_cpu_time);
	view_json_timeline(j, d->slices);
	view_json_profile(j, "profile", d->profile);
}

int cmd_view(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct vt_profile p = { 0 };
	struct view_data d;
	const char *out = NULL;
	struct vt_slices s;
	int opt, ret;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "ho:", longopts, NULL)) != -1) {
		switch (opt) {
		case 'o':
			out = optarg;
			break;
		case 'h':
			view_usage(stdout);
			return VTRACE_EXIT_OK;
		default:
			view_usage(stderr);
			return VTRACE_EXIT_USAGE;
		}
	}
	if (optind != argc - 1 || !out) {
		view_usage(stderr);
		return VTRACE_EXIT_USAGE;
	}
	d.file = argv[optind];
	if (cli_check_input("view", d.file))
		return VTRACE_EXIT_USAGE;
	if (cli_load_slices("view", d.file, &s)) {
		vtrace_slices_free(&s);
		return VTRACE_EXIT_FAIL;
	}
	cli_report_slice_faults("view", d.file, &s);
	ret = VTRACE_EXIT_FAIL;
	if (vtrace_profile_build(&p, &s, -1)) {
		vtrace_err("view: %s", strerror(ENOMEM));
	} else {
		d.slices = &s;
		d.profile = &p;
		if (!view_page_write("view", out, view_json, &d))
			ret = VTRACE_EXIT_OK;
	}
	vtrace_profile_free(&p);
	vtrace_slices_free(&s);
	return ret;
}
