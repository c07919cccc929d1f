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

/* Userspace tag bits, numbered as in libcutils' cutils/trace.h. */
#define VTRACE_ATRACE_TAG_NEVER			0
#define VTRACE_ATRACE_TAG_ALWAYS		(1ULL << 0)
#define VTRACE_ATRACE_TAG_GRAPHICS		(1ULL << 1)
#define VTRACE_ATRACE_TAG_INPUT			(1ULL << 2)
#define VTRACE_ATRACE_TAG_VIEW			(1ULL << 3)
#define VTRACE_ATRACE_TAG_WEBVIEW		(1ULL << 4)
#define VTRACE_ATRACE_TAG_WINDOW_MANAGER	(1ULL << 5)
#define VTRACE_ATRACE_TAG_ACTIVITY_MANAGER	(1ULL << 6)
#define VTRACE_ATRACE_TAG_SYNC_MANAGER		(1ULL << 7)
#define VTRACE_ATRACE_TAG_AUDIO			(1ULL << 8)
#define VTRACE_ATRACE_TAG_VIDEO			(1ULL << 9)
#define VTRACE_ATRACE_TAG_CAMERA		(1ULL << 10)
#define VTRACE_ATRACE_TAG_HAL			(1ULL << 11)
#define VTRACE_ATRACE_TAG_APP			(1ULL << 12)
#define VTRACE_ATRACE_TAG_RESOURCES		(1ULL << 13)
#define VTRACE_ATRACE_TAG_DALVIK		(1ULL << 14)
#define VTRACE_ATRACE_TAG_RS			(1ULL << 15)
#define VTRACE_ATRACE_TAG_BIONIC		(1ULL << 16)
#define VTRACE_ATRACE_TAG_POWER			(1ULL << 17)
#define VTRACE_ATRACE_TAG_PACKAGE_MANAGER	(1ULL << 18)
#define VTRACE_ATRACE_TAG_SYSTEM_SERVER		(1ULL << 19)
#define VTRACE_ATRACE_TAG_DATABASE		(1ULL << 20)
#define VTRACE_ATRACE_TAG_NETWORK		(1ULL << 21)
#define VTRACE_ATRACE_TAG_ADB			(1ULL << 22)
#define VTRACE_ATRACE_TAG_VIBRATOR		(1ULL << 23)
#define VTRACE_ATRACE_TAG_AIDL			(1ULL << 24)
#define VTRACE_ATRACE_TAG_NNAPI			(1ULL << 25)
#define VTRACE_ATRACE_TAG_RRO			(1ULL << 26)
#define VTRACE_ATRACE_TAG_THERMAL		(1ULL << 27)
#define VTRACE_ATRACE_TAG_LAST			VTRACE_ATRACE_TAG_THERMAL
/* Every defined tag; anything above it is not a tag. */
#define VTRACE_ATRACE_TAG_VALID_MASK \
	((VTRACE_ATRACE_TAG_LAST - 1) | VTRACE_ATRACE_TAG_LAST)

/**
 * struct vtrace_atrace_category - one standard atrace category
 * @name: name as atrace and Perfetto's atrace_categories spell it
 * @description: atrace's one-line description
 * @tags: VTRACE_ATRACE_TAG_* bits the category enables, 0 for kernel-only
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
