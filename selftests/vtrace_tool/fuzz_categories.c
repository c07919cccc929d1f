// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the category file parser (make fuzz).
 *
 * Besides memory errors and undefined behaviour (ASan, UBSan), it checks
 * the parser's contract on every input: a rejected file leaves the map
 * empty and has at least one error; an accepted one has none, and every
 * event in it is a valid group/event name.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <vtrace/categories.h>
#include <vtrace/event-name.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vtrace_name_error nerr;
	struct vtrace_catmap map;
	struct vtrace_diags diags;
	size_t i, k;
	int ret;

	vtrace_catmap_init(&map);
	vtrace_diags_init(&diags);
	ret = vtrace_catmap_parse(&map, "fuzz", (const char *)data, size,
				  &diags);
	if (ret == -EINVAL && (map.nr || !diags.nr_errors))
		abort();
	if (!ret && diags.nr_errors)
		abort();
	for (i = 0; i < map.nr; i++) {
		const struct vtrace_category *cat = &map.cats[i];

		if (vtrace_catmap_find(&map, cat->name) != cat)
			abort();
		for (k = 0; k < cat->nr_events; k++) {
			const char *name = cat->events[k].name;

			if (vtrace_event_name_check(name, strlen(name),
						    &nerr) ||
			    name[cat->events[k].group_len] != '/')
				abort();
		}
	}
	vtrace_diags_free(&diags);
	vtrace_catmap_free(&map);
	return 0;
}
