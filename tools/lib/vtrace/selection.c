// SPDX-License-Identifier: LGPL-2.1
/*
 * Expanding categories and event names into the events a command
 * switches or records (see selection.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vtrace/categories.h>
#include <vtrace/event-name.h>
#include <vtrace/instance.h>
#include <vtrace/selection.h>

static int sel_error(struct vtrace_selection *sel, int err, const char *fmt,
		     ...) __attribute__((format(printf, 3, 4)));

static int sel_error(struct vtrace_selection *sel, int err, const char *fmt,
		     ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(sel->err, sizeof(sel->err), fmt, ap);
	va_end(ap);
	return err;
}

/**
 * vtrace_selection_init - start an empty selection
 * @sel: the selection; free with vtrace_selection_free()
 */
void vtrace_selection_init(struct vtrace_selection *sel)
{
	memset(sel, 0, sizeof(*sel));
	vtrace_strtab_init(&sel->seen);
}

/**
 * vtrace_selection_free - release a selection
 * @sel: the selection
 */
void vtrace_selection_free(struct vtrace_selection *sel)
{
	vtrace_strtab_free(&sel->seen);
	free(sel->changes);
	free(sel->origins);
	sel->changes = NULL;
	sel->origins = NULL;
	sel->nr = 0;
}

/* @name, borrowed, unless it is selected already. */
static int add(struct vtrace_selection *sel, const char *name,
	       const char *origin)
{
	struct vtrace_event_change *changes;
	const char **origins;
	int ret;

	changes = realloc(sel->changes, (sel->nr + 1) * sizeof(*changes));
	if (!changes)
		return sel_error(sel, -ENOMEM, "out of memory");
	sel->changes = changes;
	origins = realloc(sel->origins, (sel->nr + 1) * sizeof(*origins));
	if (!origins)
		return sel_error(sel, -ENOMEM, "out of memory");
	sel->origins = origins;

	ret = vtrace_strtab_insert(&sel->seen, name, sel->nr, NULL);
	if (ret < 0)
		return sel_error(sel, ret, "out of memory");
	if (ret)
		return 0;
	changes[sel->nr] = (struct vtrace_event_change){ .name = name };
	origins[sel->nr] = origin;
	sel->nr++;
	return 0;
}

/**
 * vtrace_selection_add_event - select one event by name
 * @sel: the selection
 * @name: "group/event", borrowed: it must outlive @sel
 *
 * Return: 0 (also when it is selected already), -EINVAL for a name that
 * cannot be an event, or -ENOMEM.
 */
int vtrace_selection_add_event(struct vtrace_selection *sel, const char *name)
{
	struct vtrace_name_error nerr;

	if (vtrace_event_name_check(name, strlen(name), &nerr))
		return sel_error(sel, -EINVAL,
				 "bad event name '%s' at offset %zu: %s%s%s",
				 name, nerr.offset, nerr.reason,
				 nerr.hint ? "; " : "",
				 nerr.hint ? nerr.hint : "");
	return add(sel, name, NULL);
}

/**
 * vtrace_selection_add_category - select the events of a category
 * @sel: the selection
 * @map: the category files, which must outlive @sel
 * @name: the category
 *
 * Return: 0, -ENOENT for a category that is not in @map, or -ENOMEM.
 */
int vtrace_selection_add_category(struct vtrace_selection *sel,
				  const struct vtrace_catmap *map,
				  const char *name)
{
	const struct vtrace_category *cat = vtrace_catmap_find(map, name);
	size_t i;
	int ret;

	if (!cat)
		return sel_error(
			sel, -ENOENT,
			"unknown category '%s' (%s; 'vtrace categories' lists them)",
			name,
			map->nr ? "not in the category files" :
				  "no category file loaded");
	for (i = 0; i < cat->nr_events; i++) {
		ret = add(sel, cat->events[i].name, cat->name);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * vtrace_selection_add - select a category or an event
 * @sel: the selection
 * @map: the category files
 * @target: "group/event" (it has a slash), else a category; borrowed
 *
 * Return: as vtrace_selection_add_event() or
 * vtrace_selection_add_category().
 */
int vtrace_selection_add(struct vtrace_selection *sel,
			 const struct vtrace_catmap *map, const char *target)
{
	if (strchr(target, '/'))
		return vtrace_selection_add_event(sel, target);
	return vtrace_selection_add_category(sel, map, target);
}

/**
 * vtrace_selection_check - find out which selected events exist
 * @sel: the selection
 * @vi: the instance to look in
 * @named_must_exist: an event given by name (not through a category)
 *	that the instance lacks is an error
 *
 * Sets each event's @before state. Events of a category that this kernel
 * lacks are only marked missing (see vtrace_selection_missing()).
 *
 * Return: 0; -ENOENT for an event given by name that is missing (with
 * @named_must_exist), or when none of the events exists; another negative
 * errno when an enable file cannot be read.
 */
int vtrace_selection_check(struct vtrace_selection *sel,
			   struct vtrace_instance *vi, bool named_must_exist)
{
	struct vtrace_event_change *c;
	size_t i, present = 0;
	int ret;

	for (i = 0; i < sel->nr; i++) {
		c = &sel->changes[i];
		ret = vtrace_event_state(vi, c->name, &c->before);
		if (ret)
			return sel_error(sel, ret,
					 "cannot read events/%s/enable: %s",
					 c->name, strerror(-ret));
		if (c->before != VTRACE_EVENT_MISSING) {
			present++;
			continue;
		}
		if (named_must_exist && !sel->origins[i])
			return sel_error(
				sel, -ENOENT,
				"unknown event '%s': no events/%s in tracefs (%s%s)",
				c->name, c->name,
				vtrace_instance_name(vi) ?
					"instance " :
					"the top level buffer",
				vtrace_instance_name(vi) ?: "");
	}
	if (!present)
		return sel_error(
			sel, -ENOENT,
			"none of the events asked for exists in this kernel");
	return 0;
}

/**
 * vtrace_selection_missing - say that an event is not on this kernel
 * @sel: a checked selection (or one vtrace_events_set() switched)
 * @i: the event's index
 * @msg: set to "G/E (category C) is not on this kernel: skipped" or
 *	"G/E is not on this kernel: skipped" when it is missing
 * @size: size of @msg
 *
 * Return: true when event @i is missing.
 */
bool vtrace_selection_missing(const struct vtrace_selection *sel, size_t i,
			      char *msg, size_t size)
{
	if (sel->changes[i].before != VTRACE_EVENT_MISSING)
		return false;
	if (sel->origins[i])
		snprintf(msg, size,
			 "%s (category %s) is not on this kernel: skipped",
			 sel->changes[i].name, sel->origins[i]);
	else
		snprintf(msg, size, "%s is not on this kernel: skipped",
			 sel->changes[i].name);
	return true;
}

/**
 * vtrace_selection_present - the names of the events that exist
 * @sel: a checked selection
 * @names: filled with up to @sel->nr names, borrowed from @sel
 *
 * Return: how many were stored.
 */
size_t vtrace_selection_present(const struct vtrace_selection *sel,
				const char **names)
{
	size_t i, n = 0;

	for (i = 0; i < sel->nr; i++)
		if (sel->changes[i].before != VTRACE_EVENT_MISSING)
			names[n++] = sel->changes[i].name;
	return n;
}

/**
 * vtrace_selection_strerror - describe the last failure
 * @sel: the selection
 *
 * Return: a message such as "unknown category 'gfx' (...)", "" when
 * nothing failed.
 */
const char *vtrace_selection_strerror(const struct vtrace_selection *sel)
{
	return sel->err;
}
