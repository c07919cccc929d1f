/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Which events a command works on: categories (standard atrace categories
 * and those of the category files), "group/event" names, and Perfetto
 * configs' ftrace_events ("group/event", whole groups, bare event names)
 * expanded into a list of events, each once, with
 * the category each came from and whether this kernel has it. One module
 * for vtrace enable, disable and record, so that each mistake gets the
 * same message everywhere.
 *
 * Functions return 0 or a negative errno and never print; the text of a
 * failure is in vtrace_selection_strerror().
 */
#ifndef _VTRACE_SELECTION_H
#define _VTRACE_SELECTION_H

#include <stdbool.h>
#include <stddef.h>

#include <vtrace/events.h>
#include <vtrace/strtab.h>

struct vtrace_catmap;
struct vtrace_instance;

/**
 * struct vtrace_selection - the events selected
 * @changes: the events in the order given, categories expanded; their
 *	@before is set by vtrace_selection_check() (or vtrace_events_set())
 * @origins: for each event, the category it came from, or NULL for one
 *	given by name
 * @nr: entries in @changes and @origins
 * @seen: event name to index in @changes
 * @owned: names found in tracefs (whole groups, bare names), which
 *	@changes borrow
 * @nr_owned: entries in @owned
 * @err: the text of the last failure
 */
struct vtrace_selection {
	struct vtrace_event_change *changes;
	const char **origins;
	size_t nr;
	struct vtrace_strtab seen;
	char **owned;
	size_t nr_owned;
	char err[512];
};

void vtrace_selection_init(struct vtrace_selection *sel);
void vtrace_selection_free(struct vtrace_selection *sel);
int vtrace_selection_add_event(struct vtrace_selection *sel, const char *name);
int vtrace_selection_add_category(struct vtrace_selection *sel,
				  const struct vtrace_catmap *map,
				  const char *name);
int vtrace_selection_add_pattern(struct vtrace_selection *sel, const char *spec,
				 const char *origin, size_t *found);
int vtrace_selection_add(struct vtrace_selection *sel,
			 const struct vtrace_catmap *map, const char *target);
int vtrace_selection_check(struct vtrace_selection *sel,
			   struct vtrace_instance *vi, bool named_must_exist);
bool vtrace_selection_missing(const struct vtrace_selection *sel, size_t i,
			      char *msg, size_t size);
bool vtrace_selection_always_on(const struct vtrace_selection *sel, size_t i,
				char *msg, size_t size);
size_t vtrace_selection_present(const struct vtrace_selection *sel,
				const char **names);
const char *vtrace_selection_strerror(const struct vtrace_selection *sel);

#endif /* _VTRACE_SELECTION_H */
