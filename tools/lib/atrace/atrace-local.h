/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * What the two halves of libvtrace-atrace share: the tag file's mapping
 * (tagfile-map.c) and the marker writer (marker.c).
 */
#ifndef _VTRACE_ATRACE_LOCAL_H
#define _VTRACE_ATRACE_LOCAL_H

#include <stdbool.h>
#include <stdint.h>

#include <vtrace/atrace-tagfile.h>

static inline const struct vtrace_atrace_tagfile *atrace_tagfile(void)
{
	extern uint64_t vtrace_atrace_tags_page[];

	return (const struct vtrace_atrace_tagfile *)vtrace_atrace_tags_page;
}

int atrace_tagfile_map(void);
void atrace_tagfile_setup(bool watch_for_file);
bool atrace_spawn(void *(*fn)(void *));

#endif /* _VTRACE_ATRACE_LOCAL_H */
