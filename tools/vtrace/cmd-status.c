// SPDX-License-Identifier: GPL-2.0
/*
 * vtrace status: the enabled events grouped by category, and the buffer
 * settings that decide what a recording will see.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <tracefs.h>

#include <vtrace/events.h>
#include <vtrace/strtab.h>

#include "builtin.h"
#include "cli.h"

static void status_usage(FILE *out)
{
	fprintf(out,
		"usage: vtrace status [-f FILE]... [--instance NAME] [--json]\n\n"
		"Show the enabled events grouped by category (events in no\n"
		"category are listed as uncategorized), the per-CPU buffer size,\n"
		"the trace clock and tracing_on.\n\n"
		"  -f, --file FILE    category file (repeatable; default $VTRACE_CATEGORIES\n"
		"                     or " VTRACE_DEFAULT_CATEGORIES ")\n"
		"  --instance NAME    look at tracefs instance NAME\n"
		"  --json             print JSON on stdout\n"
		"  -h, --help         show this help\n\n"
		"Exit status: 0 ok, 1 a category file has errors or tracefs is\n"
		"unusable, 2 usage or I/O error.\n");
}

/**
 * struct tracing_settings - what status reports besides events
 * @buffer_kb: per-CPU buffer size in KiB, -1 when unreadable
 * @clock: current trace clock, NULL when unreadable
 * @tracing_on: 1, 0, or -1 when unreadable
 */
struct tracing_settings {
	long long buffer_kb;
	char *clock;
	int tracing_on;
};

static void read_settings(struct vtrace_instance *vi,
			  struct tracing_settings *s)
{
	struct tracefs_instance *tfs = vtrace_instance_tracefs(vi);

	s->buffer_kb = tracefs_instance_get_buffer_size(tfs, 0);
	s->clock = tracefs_get_clock(tfs);
	s->tracing_on = tracefs_trace_is_on(tfs);
}

static bool in_list(const struct vtrace_strtab *enabled, const char *event)
{
	size_t unused;

	return vtrace_strtab_lookup(enabled, event, &unused);
}

static void print_text(const struct vtrace_instance *vi,
		       const struct tracing_settings *s,
		       const struct vtrace_catmap *map, char **events,
		       size_t nr, const struct vtrace_strtab *enabled,
		       const bool *categorized)
{
	size_t i, k, shown;

	printf("%s: tracing_on %s, clock %s, buffer %lld KiB per CPU\n",
	       cli_instance_label(vi),
	       s->tracing_on < 0 ? "unknown" :
	       s->tracing_on	 ? "1" :
				   "0",
	       s->clock ? s->clock : "unknown", s->buffer_kb);
	printf("%zu event(s) enabled\n", nr);
	for (i = 0; i < map->nr; i++) {
		const struct vtrace_category *cat = &map->cats[i];

		for (k = 0, shown = 0; k < cat->nr_events; k++) {
			if (!in_list(enabled, cat->events[k].name))
				continue;
			if (!shown++)
				printf("%s\n", cat->name);
			printf("  %s\n", cat->events[k].name);
		}
	}
	for (i = 0, shown = 0; i < nr; i++) {
		if (categorized[i])
			continue;
		if (!shown++)
			printf("(uncategorized)\n");
		printf("  %s\n", events[i]);
	}
}

static void print_json(const struct vtrace_instance *vi,
		       const struct tracing_settings *s,
		       const struct vtrace_catmap *map, char **events,
		       size_t nr, const struct vtrace_strtab *enabled,
		       const bool *categorized,
		       const struct vtrace_diags *diags, struct vtrace_json *j)
{
	size_t i, k, shown;

	vtrace_json_object_begin(j, NULL);
	if (vtrace_instance_name(vi))
		vtrace_json_string(j, "instance", vtrace_instance_name(vi));
	if (s->tracing_on >= 0)
		vtrace_json_bool(j, "tracing_on", s->tracing_on);
	if (s->clock)
		vtrace_json_string(j, "clock", s->clock);
	if (s->buffer_kb >= 0)
		vtrace_json_int(j, "buffer_size_kb", s->buffer_kb);

	vtrace_json_array_begin(j, "categories");
	for (i = 0; i < map->nr; i++) {
		const struct vtrace_category *cat = &map->cats[i];

		for (k = 0, shown = 0; k < cat->nr_events; k++) {
			if (!in_list(enabled, cat->events[k].name))
				continue;
			if (!shown++) {
				vtrace_json_object_begin(j, NULL);
				vtrace_json_string(j, "name", cat->name);
				vtrace_json_array_begin(j, "events");
			}
			vtrace_json_object_begin(j, NULL);
			vtrace_json_string(j, "event", cat->events[k].name);
			vtrace_json_bool(j, "present", true);
			vtrace_json_bool(j, "enabled", true);
			vtrace_json_object_end(j);
		}
		if (shown) {
			vtrace_json_array_end(j);
			vtrace_json_object_end(j);
		}
	}
	vtrace_json_array_end(j);

	vtrace_json_array_begin(j, "uncategorized");
	for (i = 0; i < nr; i++)
		if (!categorized[i])
			vtrace_json_string(j, NULL, events[i]);
	vtrace_json_array_end(j);
	cli_json_diags(j, diags);
	vtrace_json_object_end(j);
}

int cmd_status(int argc, char **argv)
{
	static const struct option options[] = {
		{ "file", required_argument, NULL, 'f' },
		{ "instance", required_argument, NULL, 'i' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	struct tracing_settings settings = { .clock = NULL };
	struct vtrace_instance *vi = NULL;
	struct cli_files files = {};
	struct vtrace_strtab enabled;
	const char *instance = NULL;
	bool *categorized = NULL;
	struct vtrace_catmap map;
	struct vtrace_diags diags;
	char **events = NULL;
	struct vtrace_json j;
	size_t nr = 0, i, k, idx;
	int status, opt, ret;
	bool json = false;

	while ((opt = getopt_long(argc, argv, "f:h", options, NULL)) != -1) {
		switch (opt) {
		case 'f':
			if (cli_files_add(&files, optarg))
				return VTRACE_EXIT_USAGE;
			break;
		case 'i':
			instance = optarg;
			break;
		case 'j':
			json = true;
			break;
		case 'h':
			status_usage(stdout);
			return VTRACE_EXIT_OK;
		default:
			status_usage(stderr);
			return VTRACE_EXIT_USAGE;
		}
	}
	if (optind != argc) {
		vtrace_err("status: unexpected argument '%s'", argv[optind]);
		status_usage(stderr);
		return VTRACE_EXIT_USAGE;
	}

	vtrace_catmap_init(&map);
	vtrace_diags_init(&diags);
	vtrace_strtab_init(&enabled);
	ret = cli_load_categories(&files, &map, &diags);
	status = !ret		? VTRACE_EXIT_OK :
		 ret == -EINVAL ? VTRACE_EXIT_FAIL :
				  VTRACE_EXIT_USAGE;
	if (!json || status)
		cli_print_diags(stderr, &diags);

	ret = cli_open_tracefs(instance, VTRACE_INSTANCE_EXISTING, &vi);
	if (ret) {
		status = ret;
		goto out;
	}
	ret = vtrace_events_enabled(vi, &events, &nr);
	if (ret) {
		vtrace_err("cannot list the enabled events of %s: %s",
			   cli_instance_label(vi), strerror(-ret));
		status = VTRACE_EXIT_FAIL;
		goto out;
	}
	categorized = calloc(nr ? nr : 1, sizeof(*categorized));
	if (!categorized) {
		status = VTRACE_EXIT_USAGE;
		goto out;
	}
	for (i = 0; i < nr; i++)
		if (vtrace_strtab_insert(&enabled, events[i], i, NULL) < 0) {
			status = VTRACE_EXIT_USAGE;
			goto out;
		}
	for (i = 0; i < map.nr; i++)
		for (k = 0; k < map.cats[i].nr_events; k++)
			if (vtrace_strtab_lookup(
				    &enabled, map.cats[i].events[k].name, &idx))
				categorized[idx] = true;
	read_settings(vi, &settings);

	if (json) {
		vtrace_json_init(&j, stdout);
		print_json(vi, &settings, &map, events, nr, &enabled,
			   categorized, &diags, &j);
		if (cli_finish_json(&j))
			status = VTRACE_EXIT_USAGE;
	} else {
		print_text(vi, &settings, &map, events, nr, &enabled,
			   categorized);
	}
out:
	free(settings.clock);
	for (i = 0; i < nr; i++)
		free(events[i]);
	free(events);
	free(categorized);
	vtrace_strtab_free(&enabled);
	vtrace_instance_close(vi);
	vtrace_diags_free(&diags);
	vtrace_catmap_free(&map);
	free(files.names);
	return status;
}
