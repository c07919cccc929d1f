// SPDX-License-Identifier: LGPL-2.1
/*
 * String-keyed open addressing hash table (FNV-1a, linear probing).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <vtrace/strtab.h>

static uint32_t strtab_hash(const char *key)
{
	uint32_t hash = 2166136261u;

	while (*key) {
		hash ^= (unsigned char)*key++;
		hash *= 16777619u;
	}
	return hash;
}

/**
 * vtrace_strtab_init - start an empty table
 * @tab: table to initialise
 */
void vtrace_strtab_init(struct vtrace_strtab *tab)
{
	memset(tab, 0, sizeof(*tab));
}

/**
 * vtrace_strtab_free - release a table (not its keys)
 * @tab: table to free; it is left empty and reusable
 */
void vtrace_strtab_free(struct vtrace_strtab *tab)
{
	free(tab->slots);
	vtrace_strtab_init(tab);
}

static struct vtrace_strtab_slot *strtab_slot(const struct vtrace_strtab *tab,
					      const char *key, uint32_t hash)
{
	size_t mask = tab->size - 1;
	size_t i = hash & mask;

	/* The table is never full, so an empty slot ends every probe. */
	while (tab->slots[i].key) {
		if (tab->slots[i].hash == hash &&
		    !strcmp(tab->slots[i].key, key))
			break;
		i = (i + 1) & mask;
	}
	return &tab->slots[i];
}

static int strtab_grow(struct vtrace_strtab *tab)
{
	struct vtrace_strtab old = *tab;
	size_t i;

	tab->size = old.size ? old.size * 2 : 16;
	tab->slots = calloc(tab->size, sizeof(*tab->slots));
	if (!tab->slots) {
		*tab = old;
		return -ENOMEM;
	}
	for (i = 0; i < old.size; i++)
		if (old.slots[i].key)
			*strtab_slot(tab, old.slots[i].key, old.slots[i].hash) =
				old.slots[i];
	free(old.slots);
	return 0;
}

/**
 * vtrace_strtab_insert - add a key unless it is already there
 * @tab: table
 * @key: NUL-terminated key, borrowed for the table's lifetime
 * @value: value to store with a new key
 * @existing: if not NULL, set to the stored value when the key exists
 *
 * Return: 0 when @key was added, 1 when it was already there, -ENOMEM.
 */
int vtrace_strtab_insert(struct vtrace_strtab *tab, const char *key,
			 size_t value, size_t *existing)
{
	uint32_t hash = strtab_hash(key);
	struct vtrace_strtab_slot *slot;

	/* Keep the load factor at or below 1/2. */
	if ((tab->nr + 1) * 2 > tab->size && strtab_grow(tab))
		return -ENOMEM;

	slot = strtab_slot(tab, key, hash);
	if (slot->key) {
		if (existing)
			*existing = slot->value;
		return 1;
	}
	slot->key = key;
	slot->hash = hash;
	slot->value = value;
	tab->nr++;
	return 0;
}

/**
 * vtrace_strtab_lookup - find a key
 * @tab: table
 * @key: key to look for
 * @value: set to the stored value when found
 *
 * Return: true when @key is in the table.
 */
bool vtrace_strtab_lookup(const struct vtrace_strtab *tab, const char *key,
			  size_t *value)
{
	struct vtrace_strtab_slot *slot;

	if (!tab->size)
		return false;
	slot = strtab_slot(tab, key, strtab_hash(key));
	if (!slot->key)
		return false;
	*value = slot->value;
	return true;
}
