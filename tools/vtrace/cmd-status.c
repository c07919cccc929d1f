// SPDX-License-Identifier: GPL-2.0
/*
 * vtrace status: the enabled events grouped by category, and the buffer
 * settings that decide what a recording will see.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <tracefs.h>

#include <vtrace/atrace-tags.h>
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
		"                     or " VTRACE_DEFAULT_CATEGORIES ",\n"
		"                     then " VTRACE_BOARD_CATEGORIES ")\n"
		"  --instance NAME    look at tracefs instance NAME\n"
		"  --json             print JSON on stdout\n"
		"  -h, --help         show this help\n\n"
		"Exit status: 0 ok, 1 a category file has errors or tracefs is\n"
		"unusable, 2 usage or I/O error.\n");
}

/**
 * struct status_report - everything status prints
 * @vi: the instance looked at
 * @map: categories from the category files
 * @events: enabled events, "group/event", in set_event order
 * @nr: number of @events
 * @enabled: event name to index in @events
 * @categorized: per event of @events, whether some category lists it
 * @buffer_kb: per-CPU buffer size in KiB, -1 when unreadable
 * @clock: current trace clock, NULL when unreadable
 * @tracing_on: 1, 0, or -1 when unreadable
 * @atrace: the userspace atrace tag file
 * @have_atrace: whether @atrace could be read (there is none before the
 *	first enable or recording)
 */
struct status_report {
	struct vtrace_instance *vi;
	const struct vtrace_catmap *map;
	char **events;
	size_t nr;
	struct vtrace_strtab enabled;
	bool *categorized;
	long long buffer_kb;
	char *clock;
	int tracing_on;
	struct vtrace_atrace_tagfile atrace;
	bool have_atrace;
};

/* Fill @r from tracefs; prints what failed and returns an exit status. */
static int status_read(struct status_report *r)
{
	struct tracefs_instance *tfs = vtrace_instance_tracefs(r->vi);
	const struct vtrace_category *cat;
	size_t i, k, idx;
	int ret;

	ret = vtrace_events_enabled(r->vi, &r->events, &r->nr);
	if (ret) {
		vtrace_err("cannot list the enabled events of %s: %s",
			   cli_instance_label(r->vi), strerror(-ret));
		return VTRACE_EXIT_FAIL;
	}
	r->categorized = calloc(r->nr ? r->nr : 1, sizeof(*r->categorized));
	if (!r->categorized)
		goto nomem;
	for (i = 0; i < r->nr; i++)
		if (vtrace_strtab_insert(&r->enabled, r->events[i], i, NULL) <
		    0)
			goto nomem;
	for (i = 0; i < r->map->nr; i++) {
		cat = &r->map->cats[i];
		for (k = 0; k < cat->nr_events; k++)
			if (vtrace_strtab_lookup(&r->enabled,
						 cat->events[k].name, &idx))
				r->categorized[idx] = true;
	}

	r->buffer_kb = tracefs_instance_get_buffer_size(tfs, 0);
	r->clock = tracefs_get_clock(tfs);
	r->tracing_on = tracefs_trace_is_on(tfs);
	r->have_atrace = !vtrace_atrace_tags_read(&r->atrace);
	return VTRACE_EXIT_OK;
nomem:
	vtrace_err("out of memory");
	return VTRACE_EXIT_USAGE;
}

static void status_free(struct status_report *r)
{
	size_t i;

	for (i = 0; i < r->nr; i++)
		free(r->events[i]);
	free(r->events);
	free(r->categorized);
	free(r->clock);
	vtrace_strtab_free(&r->enabled);
}

static bool is_enabled(const struct status_report *r, const char *event)
{
	size_t unused;

	return vtrace_strtab_lookup(&r->enabled, event, &unused);
}

/* ftrace/print and the like: never in set_event, recorded all the same. */
static bool is_always_on(const struct status_report *r, const char *event)
{
	enum vtrace_event_state state;

	return !vtrace_event_state(r->vi, event, &state) &&
	       state == VTRACE_EVENT_ALWAYS_ON;
}

static const char *buffer_label(const char *instance)
{
	return *instance ? instance : "the top level buffer";
}

/* Who holds the userspace atrace tags: recordings and enables. */
static void print_atrace_text(const struct status_report *r)
{
	const struct vtrace_atrace_tagfile *tf = &r->atrace;
	const struct vtrace_atrace_holder *h;
	size_t i;

	if (!r->have_atrace || !tf->tags) {
		printf("userspace atrace tags: none enabled\n");
		return;
	}
	printf("userspace atrace tags: 0x%llx, markers to %s\n",
	       (unsigned long long)tf->tags, buffer_label(tf->instance));
	for (i = 0; i < VTRACE_ATRACE_HOLDERS; i++) {
		h = &tf->holders[i];
		if (!h->pid)
			continue;
		if (h->pid == VTRACE_ATRACE_HOLDER_ENABLE)
			printf("  0x%llx by vtrace enable in %s\n",
			       (unsigned long long)h->tags,
			       buffer_label(h->instance));
		else
			printf("  0x%llx by the recording of %s (pid %d)\n",
			       (unsigned long long)h->tags,
			       buffer_label(h->instance), h->pid);
	}
}

static void print_atrace_json(const struct status_report *r,
			      struct vtrace_json *j)
{
	const struct vtrace_atrace_tagfile *tf = &r->atrace;
	const struct vtrace_atrace_holder *h;
	size_t i;

	vtrace_json_object_begin(j, "atrace");
	vtrace_json_uint(j, "tags", r->have_atrace ? tf->tags : 0);
	vtrace_json_string(j, "instance", r->have_atrace ? tf->instance : "");
	vtrace_json_array_begin(j, "holders");
	for (i = 0; r->have_atrace && i < VTRACE_ATRACE_HOLDERS; i++) {
		h = &tf->holders[i];
		if (!h->pid)
			continue;
		vtrace_json_object_begin(j, NULL);
		vtrace_json_string(j, "by",
				   h->pid == VTRACE_ATRACE_HOLDER_ENABLE ?
					   "enable" :
					   "record");
		if (h->pid != VTRACE_ATRACE_HOLDER_ENABLE)
			vtrace_json_int(j, "pid", h->pid);
		vtrace_json_string(j, "instance", h->instance);
		vtrace_json_uint(j, "tags", h->tags);
		vtrace_json_object_end(j);
	}
	vtrace_json_array_end(j);
	vtrace_json_object_end(j);
}

static void print_text(const struct status_report *r)
{
	const struct vtrace_category *cat;
	size_t i, k, shown;

	printf("%s: tracing_on %s, clock %s, buffer %lld KiB per CPU\n",
	       cli_instance_label(r->vi),
	       r->tracing_on < 0 ? "unknown" :
	       r->tracing_on	 ? "1" :
				   "0",
	       r->clock ? r->clock : "unknown", r->buffer_kb);
	printf("%zu event(s) enabled\n", r->nr);
	for (i = 0; i < r->map->nr; i++) {
		cat = &r->map->cats[i];
		for (k = 0, shown = 0; k < cat->nr_events; k++) {
			const char *event = cat->events[k].name;
			/* Not enabled: shown only when it is always on. */
			bool always = !is_enabled(r, event);

			if (always && !is_always_on(r, event))
				continue;
			if (!shown++)
				printf("%s\n", cat->name);
			printf("  %s%s\n", event, always ? " (always on)" : "");
		}
	}
	for (i = 0, shown = 0; i < r->nr; i++) {
		if (r->categorized[i])
			continue;
		if (!shown++)
			printf("(uncategorized)\n");
		printf("  %s\n", r->events[i]);
	}
	print_atrace_text(r);
}

static void print_json(const struct status_report *r,
		       const struct vtrace_diags *diags, struct vtrace_json *j)
{
	const struct vtrace_category *cat;
	size_t i, k, shown;

	vtrace_json_object_begin(j, NULL);
	if (vtrace_instance_name(r->vi))
		vtrace_json_string(j, "instance", vtrace_instance_name(r->vi));
	if (r->tracing_on >= 0)
		vtrace_json_bool(j, "tracing_on", r->tracing_on);
	if (r->clock)
		vtrace_json_string(j, "clock", r->clock);
	if (r->buffer_kb >= 0)
		vtrace_json_int(j, "buffer_size_kb", r->buffer_kb);

	vtrace_json_array_begin(j, "categories");
	for (i = 0; i < r->map->nr; i++) {
		cat = &r->map->cats[i];
		for (k = 0, shown = 0; k < cat->nr_events; k++) {
			const char *event = cat->events[k].name;
			/* Not enabled: shown only when it is always on. */
			bool always = !is_enabled(r, event);

			if (always && !is_always_on(r, event))
				continue;
			if (!shown++) {
				vtrace_json_object_begin(j, NULL);
				vtrace_json_string(j, "name", cat->name);
				vtrace_json_array_begin(j, "events");
			}
			vtrace_json_object_begin(j, NULL);
			vtrace_json_string(j, "event", event);
			vtrace_json_bool(j, "present", true);
			vtrace_json_bool(j, "enabled", true);
			if (always)
				vtrace_json_bool(j, "always_on", true);
			vtrace_json_object_end(j);
		}
		if (shown) {
			vtrace_json_array_end(j);
			vtrace_json_object_end(j);
		}
	}
	vtrace_json_array_end(j);

	vtrace_json_array_begin(j, "uncategorized");
	for (i = 0; i < r->nr; i++)
		if (!r->categorized[i])
			vtrace_json_string(j, NULL, r->events[i]);
	vtrace_json_array_end(j);
	print_atrace_json(r, j);
	cli_json_diags(j, diags);
	vtrace_json_object_end(j);
}

int cmd_status(int argc, char **argv)
{
	struct status_report report = {};
	struct cli_report_opts o;
	struct vtrace_catmap map;
	struct vtrace_diags diags;
	struct vtrace_json j;
	int status, ret;

	status = cli_parse_report_opts(argc, argv, status_usage, &o);
	if (status >= 0) {
		free(o.files.names);
		return status;
	}

	vtrace_catmap_init(&map);
	vtrace_diags_init(&diags);
	vtrace_strtab_init(&report.enabled);
	report.map = &map;
	status = cli_load_categories_status(&o.files, &map, &diags, o.json);

	ret = cli_open_tracefs(o.instance, VTRACE_INSTANCE_EXISTING,
			       &report.vi);
	if (!ret)
		ret = status_read(&report);
	if (ret) {
		status = ret;
		goto out;
	}

	if (o.json) {
		vtrace_json_init(&j, stdout);
		print_json(&report, &diags, &j);
		if (cli_finish_json(&j))
			status = VTRACE_EXIT_USAGE;
	} else {
		print_text(&report);
	}
out:
	status_free(&report);
	vtrace_instance_close(report.vi);
	vtrace_diags_free(&diags);
	vtrace_catmap_free(&map);
	free(o.files.names);
	return status;
}
