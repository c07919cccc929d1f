/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Which events a command works on: categories (from the category files)
 * and "group/event" names expanded into a list of events, each once, with
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
 * @err: the text of the last failure
 */
struct vtrace_selection {
	struct vtrace_event_change *changes;
	const char **origins;
	size_t nr;
	struct vtrace_strtab seen;
	char err[512];
};

void vtrace_selection_init(struct vtrace_selection *sel);
void vtrace_selection_free(struct vtrace_selection *sel);
int vtrace_selection_add_event(struct vtrace_selection *sel, const char *name);
int vtrace_selection_add_category(struct vtrace_selection *sel,
				  const struct vtrace_catmap *map,
				  const char *name);
int vtrace_selection_add(struct vtrace_selection *sel,
			 const struct vtrace_catmap *map, const char *target);
int vtrace_selection_check(struct vtrace_selection *sel,
			   struct vtrace_instance *vi, bool named_must_exist);
bool vtrace_selection_missing(const struct vtrace_selection *sel, size_t i,
			      char *msg, size_t size);
size_t vtrace_selection_present(const struct vtrace_selection *sel,
				const char **names);
const char *vtrace_selection_strerror(const struct vtrace_selection *sel);

#endif /* _VTRACE_SELECTION_H */
