// SPDX-License-Identifier: LGPL-2.1
/*
 * The tags page: what ATRACE_ENABLED() and the markers read, zeroed until
 * tagfile-map.c maps vtrace's tag file over it. A unit of its own, so
 * that the markers read it without depending on the mapping code.
 */
#include <stdint.h>

#include <vtrace/atrace.h>

#include "atrace-local.h"

uint64_t vtrace_atrace_tags_page[VTRACE_ATRACE_PAGE_MAX / sizeof(uint64_t)]
	__attribute__((aligned(VTRACE_ATRACE_PAGE_MAX)));
