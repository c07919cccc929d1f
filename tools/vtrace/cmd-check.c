// SPDX-License-Identifier: GPL-2.0
/*
 * vtrace check: lint category files. Needs no tracefs.
 */
#include <errno.h>
#include <getopt.h>
#include <string.h>

#include "builtin.h"
#include "cli.h"

static void check_usage(FILE *out)
{
	fprintf(out,
		"usage: vtrace check [--json] FILE...\n\n"
		"Check category files without touching tracefs. Findings are\n"
		"printed as FILE:LINE:COL: error|warning: message on stderr.\n"
		"A file with errors is rejected whole.\n\n"
		"  --json      print the merged map and the findings as JSON on stdout\n"
		"  -h, --help  show this help\n\n"
		"Exit status: 0 no errors (warnings allowed), 1 a file has errors,\n"
		"2 usage or I/O error.\n");
}

static void check_json(const struct vtrace_catmap *map,
		       const struct vtrace_diags *diags, struct vtrace_json *j)
{
	size_t i, k;

	vtrace_json_object_begin(j, NULL);
	vtrace_json_array_begin(j, "categories");
	for (i = 0; i < map->nr; i++) {
		vtrace_json_object_begin(j, NULL);
		vtrace_json_string(j, "name", map->cats[i].name);
		vtrace_json_array_begin(j, "events");
		for (k = 0; k < map->cats[i].nr_events; k++)
			vtrace_json_string(j, NULL,
					   map->cats[i].events[k].name);
		vtrace_json_array_end(j);
		vtrace_json_object_end(j);
	}
	vtrace_json_array_end(j);
	cli_json_diags(j, diags);
	vtrace_json_object_end(j);
}

static size_t count_events(const struct vtrace_catmap *map)
{
	size_t i, n = 0;

	for (i = 0; i < map->nr; i++)
		n += map->cats[i].nr_events;
	return n;
}

int cmd_check(int argc, char **argv)
{
	static const struct option options[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	struct vtrace_catmap map;
	struct vtrace_diags diags;
	struct vtrace_json j;
	int status = VTRACE_EXIT_OK;
	bool json = false;
	int opt, ret, i;

	while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (opt) {
		case 'j':
			json = true;
			break;
		case 'h':
			check_usage(stdout);
			return VTRACE_EXIT_OK;
		default:
			check_usage(stderr);
			return VTRACE_EXIT_USAGE;
		}
	}
	if (optind == argc) {
		vtrace_err("check: no category file given");
		check_usage(stderr);
		return VTRACE_EXIT_USAGE;
	}

	vtrace_catmap_init(&map);
	vtrace_diags_init(&diags);
	for (i = optind; i < argc; i++) {
		size_t cats = map.nr, events = count_events(&map);
		size_t errors = diags.nr_errors, findings = diags.nr;

		ret = vtrace_catmap_load(&map, argv[i], &diags);
		if (ret == -ENOMEM) {
			vtrace_err("out of memory");
			status = VTRACE_EXIT_USAGE;
			break;
		}
		if (ret && ret != -EINVAL)
			status = VTRACE_EXIT_USAGE;
		else if (ret && status == VTRACE_EXIT_OK)
			status = VTRACE_EXIT_FAIL;
		if (json)
			continue;
		if (ret)
			printf("%s: rejected, %zu error(s)\n", argv[i],
			       diags.nr_errors - errors);
		else
			printf("%s: ok, %zu new categories, %zu new events, %zu warning(s)\n",
			       argv[i], map.nr - cats,
			       count_events(&map) - events,
			       diags.nr - findings);
	}

	if (json) {
		vtrace_json_init(&j, stdout);
		check_json(&map, &diags, &j);
		if (cli_finish_json(&j))
			status = VTRACE_EXIT_USAGE;
	} else {
		fflush(stdout);
		cli_print_diags(stderr, &diags);
	}
	vtrace_diags_free(&diags);
	vtrace_catmap_free(&map);
	return status;
}
