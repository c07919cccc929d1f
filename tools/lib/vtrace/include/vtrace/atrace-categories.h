/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Android's standard atrace categories: the userspace tags a category turns
 * on (bits of debug.atrace.tags.enableflags, libcutils' ATRACE_TAG_*) and
 * the kernel events Perfetto's ftrace config muxer enables for it.
 *
 * Vendor categories are not here: they come from category files
 * (<vtrace/categories.h>).
 */
#ifndef _VTRACE_ATRACE_CATEGORIES_H
#define _VTRACE_ATRACE_CATEGORIES_H

#include <stddef.h>
#include <stdint.h>

/* The userspace tag bits: ATRACE_TAG_*, defined once, in the public header. */
#include <vtrace/atrace.h>

/**
 * struct vtrace_atrace_category - one standard atrace category
 * @name: name as atrace and Perfetto's atrace_categories spell it
 * @description: atrace's one-line description
 * @tags: ATRACE_TAG_* bits the category enables, 0 for kernel-only
 *	categories
 * @events: kernel events as "group/event"; an event name of "*" stands for
 *	every event of that group this kernel has; events and groups a kernel
 *	lacks are skipped, as Perfetto skips them
 * @nr_events: number of @events, 0 for userspace-only categories
 */
struct vtrace_atrace_category {
	const char *name;
	const char *description;
	uint64_t tags;
	const char *const *events;
	size_t nr_events;
};

const struct vtrace_atrace_category *vtrace_atrace_categories(size_t *nr);
const struct vtrace_atrace_category *
vtrace_atrace_category_find(const char *name);

#endif /* _VTRACE_ATRACE_CATEGORIES_H */
