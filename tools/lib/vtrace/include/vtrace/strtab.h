/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * A string-keyed hash table, so that merging a category file stays linear in
 * its size whatever the number of categories and events.
 */
#ifndef _VTRACE_STRTAB_H
#define _VTRACE_STRTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct vtrace_strtab_slot {
	const char *key;
	uint32_t hash;
	size_t value;
};

/**
 * struct vtrace_strtab - open addressing table of borrowed string keys
 * @slots: power-of-two sized slot array, NULL until the first insert
 * @size: number of slots
 * @nr: number of keys stored
 *
 * Keys are not copied: they must outlive the table.
 */
struct vtrace_strtab {
	struct vtrace_strtab_slot *slots;
	size_t size;
	size_t nr;
};

void vtrace_strtab_init(struct vtrace_strtab *tab);
void vtrace_strtab_free(struct vtrace_strtab *tab);
int vtrace_strtab_insert(struct vtrace_strtab *tab, const char *key,
			 size_t value, size_t *existing);
bool vtrace_strtab_lookup(const struct vtrace_strtab *tab, const char *key,
			  size_t *value);

#endif /* _VTRACE_STRTAB_H */
