/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The Traceview profile of a set of slices: per slice name, inclusive and
 * exclusive time, calls and recursive calls, and who calls it and whom it
 * calls; and its call graph as Graphviz dot, as dmtracedump -g draws it.
 */
#ifndef _VTRACE_PROFILE_H
#define _VTRACE_PROFILE_H

#include <stdint.h>
#include <stdio.h>

#include <vtrace/slices.h>

/* The caller of slices at the bottom of a stack, in parent lists. */
#define VT_PROFILE_TOPLEVEL UINT32_MAX

/**
 * struct vt_profile_edge - a caller or a callee of a name
 * @name: the other name (%VT_PROFILE_TOPLEVEL for no caller)
 * @inclusive: ns: for a parent, the inclusive time of the calls it made
 *	to this name; for a child, the inclusive time of this name's calls
 *	to it
 * @calls: how many such calls
 */
struct vt_profile_edge {
	uint32_t name;
	uint64_t inclusive;
	uint64_t calls;
};

/**
 * struct vt_profile_entry - one slice name
 * @name: index in &vt_slices.names
 * @inclusive: ns in its slices, those nested in a slice of the same name
 *	(recursion) counted once
 * @exclusive: ns in its slices minus their children's
 * @calls: slices of this name
 * @recursive: of @calls, those nested in a slice of the same name
 * @parents: callers, by inclusive time, largest first
 * @nr_parents: entries of @parents
 * @children: callees, by inclusive time, largest first
 * @nr_children: entries of @children
 */
struct vt_profile_entry {
	uint32_t name;
	uint64_t inclusive;
	uint64_t exclusive;
	uint64_t calls;
	uint64_t recursive;
	struct vt_profile_edge *parents;
	size_t nr_parents;
	struct vt_profile_edge *children;
	size_t nr_children;
};

/**
 * struct vt_profile - the profile
 * @slices: the slices it was built from (borrowed: names live there)
 * @entries: one per name that has slices, by inclusive time, largest
 *	first (then by name)
 * @nr_entries: entries of @entries
 * @total: ns: the sum of every slice's exclusive time, that is the time
 *	under the bottom slices of all stacks
 */
struct vt_profile {
	const struct vt_slices *slices;
	struct vt_profile_entry *entries;
	size_t nr_entries;
	uint64_t total;
};

int vtrace_profile_build(struct vt_profile *p, const struct vt_slices *s,
			 int tid);
void vtrace_profile_free(struct vt_profile *p);
const char *vtrace_profile_name(const struct vt_profile *p, uint32_t name);
const struct vt_profile_entry *vtrace_profile_find(const struct vt_profile *p,
						   uint32_t name);
int vtrace_profile_write_dot(const struct vt_profile *p, FILE *out,
			     unsigned int threshold);

#endif /* _VTRACE_PROFILE_H */
