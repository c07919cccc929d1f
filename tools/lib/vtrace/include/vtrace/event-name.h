/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Validation of "group/event" names before they become tracefs paths.
 */
#ifndef _VTRACE_EVENT_NAME_H
#define _VTRACE_EVENT_NAME_H

#include <stddef.h>

/* The longest group or event name vtrace accepts (a tracefs file name). */
#define VTRACE_EVENT_PART_MAX 255

/**
 * struct vtrace_name_error - why a name was rejected
 * @offset: byte offset of the offending character in the name
 * @reason: static text, e.g. "empty event name"
 * @hint: static text with what to do instead, or NULL
 */
struct vtrace_name_error {
	size_t offset;
	const char *reason;
	const char *hint;
};

int vtrace_event_name_check(const char *name, size_t len,
			    struct vtrace_name_error *err);
int vtrace_instance_name_check(const char *name, struct vtrace_name_error *err);

#endif /* _VTRACE_EVENT_NAME_H */
