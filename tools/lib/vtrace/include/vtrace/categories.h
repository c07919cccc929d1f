/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Android vendor category files (/vendor/etc/atrace/atrace_categories.txt):
 * a line starting in column 0 names a category, the indented lines after it
 * are that category's "group/event" tracefs events.
 */
#ifndef _VTRACE_CATEGORIES_H
#define _VTRACE_CATEGORIES_H

#include <stddef.h>

#include <vtrace/diag.h>
#include <vtrace/strtab.h>

#define VTRACE_DEFAULT_CATEGORIES "/vendor/etc/atrace/atrace_categories.txt"

/* Limits beyond which a file is rejected as not a category file. */
#define VTRACE_CATEGORIES_MAX_LINE 4096
#define VTRACE_CATEGORIES_MAX_FILE (16 << 20)

/**
 * struct vtrace_category_event - one event of a category
 * @name: "group/event", validated
 * @group_len: length of the group part of @name
 * @file: file that listed the event first (shared with the catmap)
 * @line: its line in @file
 * @column: its column (the byte after the indent)
 */
struct vtrace_category_event {
	char *name;
	size_t group_len;
	const char *file;
	unsigned int line;
	unsigned int column;
};

/**
 * struct vtrace_category - a category and its events in file order
 * @name: category name
 * @events: events, each listed once
 * @nr_events: number of @events
 * @alloc: allocated @events
 * @index: event name to index in @events
 */
struct vtrace_category {
	char *name;
	struct vtrace_category_event *events;
	size_t nr_events;
	size_t alloc;
	struct vtrace_strtab index;
};

/**
 * struct vtrace_catmap - categories merged over one or more files
 * @cats: categories in order of first appearance
 * @nr: number of @cats
 * @alloc: allocated @cats
 * @index: category name to index in @cats
 * @files: names of the files merged so far (owned)
 * @nr_files: number of @files
 */
struct vtrace_catmap {
	struct vtrace_category *cats;
	size_t nr;
	size_t alloc;
	struct vtrace_strtab index;
	char **files;
	size_t nr_files;
};

void vtrace_catmap_init(struct vtrace_catmap *map);
void vtrace_catmap_free(struct vtrace_catmap *map);
int vtrace_catmap_parse(struct vtrace_catmap *map, const char *file,
			const char *buf, size_t len,
			struct vtrace_diags *diags);
int vtrace_catmap_load(struct vtrace_catmap *map, const char *path,
		       struct vtrace_diags *diags);
const struct vtrace_category *
vtrace_catmap_find(const struct vtrace_catmap *map, const char *name);

#endif /* _VTRACE_CATEGORIES_H */
