/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The tracefs instance vtrace works in: the top level buffer, or a named
 * instance under instances/ that vtrace may create and later remove.
 */
#ifndef _VTRACE_INSTANCE_H
#define _VTRACE_INSTANCE_H

#include <stdbool.h>

/* Which instances vtrace created is kept in the state directory. */
#include <vtrace/state-dir.h>

struct tracefs_instance;
struct vtrace_instance;

enum vtrace_instance_mode {
	VTRACE_INSTANCE_EXISTING,
	VTRACE_INSTANCE_CREATE,
};

int vtrace_instance_open(const char *name, enum vtrace_instance_mode mode,
			 struct vtrace_instance **out);
void vtrace_instance_close(struct vtrace_instance *vi);
int vtrace_instance_remove(struct vtrace_instance *vi);
struct tracefs_instance *
vtrace_instance_tracefs(const struct vtrace_instance *vi);
const char *vtrace_instance_name(const struct vtrace_instance *vi);
bool vtrace_instance_is_new(const struct vtrace_instance *vi);
bool vtrace_instance_is_owned(const struct vtrace_instance *vi);
int vtrace_instance_marker_error(const struct vtrace_instance *vi);
int vtrace_instance_copy_markers(struct vtrace_instance *vi, bool on);

#endif /* _VTRACE_INSTANCE_H */
