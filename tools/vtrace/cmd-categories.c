// SPDX-License-Identifier: GPL-2.0
/*
 * vtrace categories: the category map merged over the files, with each
 * event's presence and enabled state on this tracefs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <vtrace/events.h>

#include "builtin.h"
#include "cli.h"

static void categories_usage(FILE *out)
{
	fprintf(out,
		"usage: vtrace categories [-f FILE]... [--instance NAME] [--json]\n\n"
		"List each category and its events, marking every event enabled,\n"
		"disabled or missing (not on this kernel).\n\n"
		"  -f, --file FILE    category file (repeatable; default $VTRACE_CATEGORIES\n"
		"                     or " VTRACE_DEFAULT_CATEGORIES ",\n"
		"                     then " VTRACE_BOARD_CATEGORIES ")\n"
		"  --instance NAME    look at tracefs instance NAME\n"
		"  --json             print JSON on stdout\n"
		"  -h, --help         show this help\n\n"
		"Exit status: 0 ok, 1 a category file has errors (it is left out)\n"
		"or tracefs is unusable, 2 usage or I/O error.\n");
}

static const char *state_name(enum vtrace_event_state state)
{
	switch (state) {
	case VTRACE_EVENT_ENABLED:
		return "enabled";
	case VTRACE_EVENT_DISABLED:
		return "disabled";
	case VTRACE_EVENT_ALWAYS_ON:
		return "always on";
	default:
		return "missing";
	}
}

int cmd_categories(int argc, char **argv)
{
	struct vtrace_instance *vi = NULL;
	enum vtrace_event_state state;
	struct cli_report_opts o;
	struct vtrace_catmap map;
	struct vtrace_diags diags;
	struct vtrace_json j;
	int status, ret;
	size_t i, k;

	status = cli_parse_report_opts(argc, argv, categories_usage, &o);
	if (status >= 0) {
		free(o.files.names);
		return status;
	}

	vtrace_catmap_init(&map);
	vtrace_diags_init(&diags);
	status = cli_load_categories_status(&o.files, &map, &diags, o.json);

	ret = cli_open_tracefs(o.instance, VTRACE_INSTANCE_EXISTING, &vi);
	if (ret) {
		status = ret;
		goto out;
	}

	if (o.json) {
		vtrace_json_init(&j, stdout);
		vtrace_json_object_begin(&j, NULL);
		vtrace_json_array_begin(&j, "categories");
	}
	for (i = 0; i < map.nr; i++) {
		const struct vtrace_category *cat = &map.cats[i];

		if (o.json) {
			vtrace_json_object_begin(&j, NULL);
			vtrace_json_string(&j, "name", cat->name);
			vtrace_json_array_begin(&j, "events");
		} else {
			printf("%s\n", cat->name);
		}
		for (k = 0; k < cat->nr_events; k++) {
			const char *event = cat->events[k].name;

			ret = vtrace_event_state(vi, event, &state);
			if (ret) {
				vtrace_err("cannot read the state of %s: %s",
					   event, strerror(-ret));
				status = VTRACE_EXIT_FAIL;
				state = VTRACE_EVENT_MISSING;
			}
			if (!o.json) {
				printf("  %-48s %s\n", event,
				       state_name(state));
				continue;
			}
			vtrace_json_object_begin(&j, NULL);
			vtrace_json_string(&j, "event", event);
			vtrace_json_bool(&j, "present",
					 state != VTRACE_EVENT_MISSING);
			vtrace_json_bool(
				&j, "enabled",
				state == VTRACE_EVENT_ENABLED ||
					state == VTRACE_EVENT_ALWAYS_ON);
			if (state == VTRACE_EVENT_ALWAYS_ON)
				vtrace_json_bool(&j, "always_on", true);
			vtrace_json_object_end(&j);
		}
		if (o.json) {
			vtrace_json_array_end(&j);
			vtrace_json_object_end(&j);
		}
	}
	if (o.json) {
		vtrace_json_array_end(&j);
		cli_json_diags(&j, &diags);
		vtrace_json_object_end(&j);
		if (cli_finish_json(&j))
			status = VTRACE_EXIT_USAGE;
	}
out:
	vtrace_instance_close(vi);
	vtrace_diags_free(&diags);
	vtrace_catmap_free(&map);
	free(o.files.names);
	return status;
}
