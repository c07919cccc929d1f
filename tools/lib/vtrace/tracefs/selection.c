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

#include <tracefs.h>

#include <vtrace/atrace-categories.h>
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
	size_t i;

	for (i = 0; i < sel->nr_owned; i++)
		free(sel->owned[i]);
	free(sel->owned);
	sel->owned = NULL;
	sel->nr_owned = 0;
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

/* Whether this kernel has @group/@event (by its enable or format file). */
static bool has_event(const char *group, const char *event)
{
	return tracefs_event_file_exists(NULL, group, event, "enable") ||
	       tracefs_event_file_exists(NULL, group, event, "format");
}

/* Select @group/@event under a name of its own (found in tracefs). */
static int add_owned(struct vtrace_selection *sel, const char *group,
		     const char *event, const char *origin)
{
	char **owned, *name;

	owned = realloc(sel->owned, (sel->nr_owned + 1) * sizeof(*owned));
	if (!owned)
		return sel_error(sel, -ENOMEM, "out of memory");
	sel->owned = owned;
	if (asprintf(&name, "%s/%s", group, event) < 0)
		return sel_error(sel, -ENOMEM, "out of memory");
	owned[sel->nr_owned++] = name;
	return add(sel, name, origin);
}

/* Every event of @group this kernel has; *found counts them. */
static int add_group(struct vtrace_selection *sel, const char *group,
		     const char *origin, size_t *found)
{
	char **events = tracefs_system_events(NULL, group);
	int ret = 0;
	size_t i;

	for (i = 0; events && events[i] && !ret; i++) {
		if (!tracefs_event_file_exists(NULL, group, events[i],
					       "enable"))
			continue;
		ret = add_owned(sel, group, events[i], origin);
		(*found)++;
	}
	tracefs_list_free(events);
	return ret;
}

/* "group/event" into @buf, split; @event is NULL without a '/'. */
static void split_spec(const char *spec, char *buf, size_t size,
		       const char **group, const char **event)
{
	char *slash;

	snprintf(buf, size, "%s", spec);
	slash = strchr(buf, '/');
	*group = buf;
	*event = NULL;
	if (slash) {
		*slash = '\0';
		*event = slash + 1;
	}
}

#define SPEC_MAX (2 * VTRACE_EVENT_PART_MAX + 2)

/*
 * A standard category's events that this kernel has, as Perfetto enables
 * them: the others are skipped silently, as Perfetto skips them. A
 * category with a userspace tag also selects ftrace/print, the event its
 * markers arrive as (always on; a userspace-only category has no other).
 */
static int add_standard(struct vtrace_selection *sel,
			const struct vtrace_atrace_category *cat)
{
	const char *group, *event;
	char buf[SPEC_MAX];
	size_t i, found = 0;
	int ret = 0;

	if (cat->tags && has_event("ftrace", "print"))
		ret = add(sel, "ftrace/print", cat->name);
	for (i = 0; i < cat->nr_events && !ret; i++) {
		split_spec(cat->events[i], buf, sizeof(buf), &group, &event);
		if (!strcmp(event, "*"))
			ret = add_group(sel, group, cat->name, &found);
		else if (has_event(group, event))
			ret = add(sel, cat->events[i], cat->name);
	}
	return ret;
}

/**
 * vtrace_selection_add_category - select the events of a category
 * @sel: the selection
 * @map: the category files, which must outlive @sel
 * @name: the category: one of @map, or else a standard atrace category
 *	(its kernel events that this kernel has, see
 *	<vtrace/atrace-categories.h>)
 *
 * A category file's category replaces the standard one of its name, as it
 * always has for vtrace (Perfetto merges the two): a board's file says
 * what its "gfx" is.
 *
 * Return: 0, -ENOENT for a category that is neither, or -ENOMEM.
 */
int vtrace_selection_add_category(struct vtrace_selection *sel,
				  const struct vtrace_catmap *map,
				  const char *name)
{
	const struct vtrace_atrace_category *std;
	const struct vtrace_category *cat;
	size_t i;
	int ret;

	std = vtrace_atrace_category_find(name);
	cat = vtrace_catmap_find(map, name);
	if (!cat && !std && map->nr_files && !map->nr)
		return sel_error(
			sel, -ENOENT,
			"unknown category '%s' (not a standard one, and %s%s defines no category: empty?)",
			name,
			map->nr_files > 1 ? "every category file, such as " :
					    "",
			map->files[0]);
	if (!cat && !std)
		return sel_error(
			sel, -ENOENT,
			"unknown category '%s' (%s; 'vtrace categories' lists them)",
			name,
			map->nr ?
				"not a standard one nor in the category files" :
				"not a standard one, and no category file loaded");
	if (!cat)
		return add_standard(sel, std);
	for (i = 0; i < cat->nr_events; i++) {
		ret = add(sel, cat->events[i].name, cat->name);
		if (ret)
			return ret;
	}
	return 0;
}

/* A bare event name: the one group of this kernel that has it. */
static int add_bare(struct vtrace_selection *sel, const char *event,
		    const char *origin, size_t *found)
{
	char **groups = tracefs_event_systems(NULL);
	const char *only = NULL;
	char where[256] = "";
	size_t i, n = 0, off = 0;
	int ret = 0;

	for (i = 0; groups && groups[i]; i++) {
		if (!has_event(groups[i], event))
			continue;
		if (!n++)
			only = groups[i];
		if (off < sizeof(where))
			off += snprintf(where + off, sizeof(where) - off,
					"%s%s", off ? ", " : "", groups[i]);
	}
	if (n > 1)
		ret = sel_error(
			sel, -ENOTUNIQ,
			"event '%s' is in more than one group (%s): give it as group/event",
			event, where);
	else if (n && tracefs_event_file_exists(NULL, only, event, "enable"))
		ret = add_owned(sel, only, event, origin);
	*found = n;
	tracefs_list_free(groups);
	return ret;
}

/**
 * vtrace_selection_add_pattern - select a Perfetto ftrace_events entry
 * @sel: the selection
 * @spec: "group/event"; "group/" and "*", every event of the group; or a
 *	bare event name, the one group that has it
 * @origin: shown as the category of what it selects (e.g. the config's
 *	FILE:LINE:COL); borrowed
 * @found: set to the number of this kernel's events @spec names
 *
 * Only what this kernel has is selected: a config is shared between
 * devices, and the caller says what @found 0 means.
 *
 * Return: 0, -EINVAL for a malformed @spec, -ENOTUNIQ for a bare name that
 * several groups have, or -ENOMEM.
 */
int vtrace_selection_add_pattern(struct vtrace_selection *sel, const char *spec,
				 const char *origin, size_t *found)
{
	char buf[SPEC_MAX], check[SPEC_MAX + 2];
	struct vtrace_name_error nerr;
	const char *group, *event;
	size_t len;

	*found = 0;
	split_spec(spec, buf, sizeof(buf), &group, &event);
	/* A whole group (G and a star) checks G, a bare event its name. */
	if (event)
		len = snprintf(check, sizeof(check), "%s/%s", group,
			       strcmp(event, "*") ? event : "x");
	else
		len = snprintf(check, sizeof(check), "x/%s", group);
	if (strlen(spec) >= SPEC_MAX ||
	    vtrace_event_name_check(check, len, &nerr))
		return sel_error(sel, -EINVAL, "bad event name '%s': %s", spec,
				 strlen(spec) >= SPEC_MAX ? "too long" :
							    nerr.reason);
	if (!event)
		return add_bare(sel, group, origin, found);
	if (!strcmp(event, "*"))
		return add_group(sel, group, origin, found);
	if (!has_event(group, event))
		return 0;
	*found = 1;
	/* ftrace/print and the like: recorded whenever tracing is on. */
	if (!tracefs_event_file_exists(NULL, group, event, "enable"))
		return 0;
	return add(sel, spec, origin);
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

/* The TRACE_SYSTEMs of vtrace.ko (module/include/trace/events/). */
static const char *const module_systems[] = { "mali", "thermal_exynos" };

static bool from_module(const char *name)
{
	size_t i, len;

	for (i = 0; i < sizeof(module_systems) / sizeof(*module_systems); i++) {
		len = strlen(module_systems[i]);
		if (!strncmp(name, module_systems[i], len) && name[len] == '/')
			return true;
	}
	return false;
}

/* None of @sel's events is here: name a few, and what to load for them. */
static int none_present(struct vtrace_selection *sel)
{
	static const char not_loaded[] =
		"; mali/ and thermal_exynos/ are vtrace.ko's: it is not loaded";
	char names[256] = "";
	bool module = false;
	size_t i, o = 0;

	for (i = 0; i < sel->nr; i++) {
		module |= from_module(sel->changes[i].name);
		if (i < 3 && o < sizeof(names))
			o += snprintf(names + o, sizeof(names) - o, "%s%s",
				      i ? ", " : "", sel->changes[i].name);
	}
	if (sel->nr > 3 && o < sizeof(names))
		snprintf(names + o, sizeof(names) - o, " and %zu more",
			 sel->nr - 3);
	return sel_error(
		sel, -ENOENT,
		"none of the events asked for exists in this kernel (%s)%s",
		names, module ? not_loaded : "");
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
		return none_present(sel);
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
 * vtrace_selection_always_on - say that an event needs no enabling
 * @sel: a checked selection (or one vtrace_events_set() switched)
 * @i: the event's index
 * @msg: set to "G/E is always on (recorded whenever tracing is on; it has
 *	no enable file)" when it is
 * @size: size of @msg
 *
 * Return: true when event @i is always on.
 */
bool vtrace_selection_always_on(const struct vtrace_selection *sel, size_t i,
				char *msg, size_t size)
{
	if (sel->changes[i].before != VTRACE_EVENT_ALWAYS_ON)
		return false;
	snprintf(
		msg, size,
		"%s is always on (recorded whenever tracing is on; it has no enable file)",
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
