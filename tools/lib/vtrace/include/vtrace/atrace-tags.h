/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Turning userspace atrace tags on and off: the writer's side of the tag
 * file (<vtrace/atrace-tagfile.h>) that libvtrace-atrace maps.
 *
 * Each recording holds the tags of its categories for as long as it runs
 * (a holder with its pid); "vtrace enable" holds tags until "vtrace
 * disable" (one holder per buffer). The file's tags are the union of
 * them all, so overlapping recordings keep each other's tags on. A
 * holder whose recording died is dropped by vtrace_atrace_tags_reset().
 */
#ifndef _VTRACE_ATRACE_TAGS_H
#define _VTRACE_ATRACE_TAGS_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include <vtrace/atrace-tagfile.h>

uint64_t vtrace_atrace_tags_of(char *const *categories, size_t nr);
int vtrace_atrace_tags_hold(const char *instance, uint64_t tags,
			    const volatile sig_atomic_t *stop);
int vtrace_atrace_tags_release(const char *instance);
int vtrace_atrace_tags_enable(const char *instance, uint64_t tags);
int vtrace_atrace_tags_disable(const char *instance, uint64_t tags);
int vtrace_atrace_tags_reset(unsigned int *dropped);
int vtrace_atrace_tags_read(struct vtrace_atrace_tagfile *copy);

#endif /* _VTRACE_ATRACE_TAGS_H */
