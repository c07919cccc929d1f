/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Which process records an instance: one pid file per instance in the
 * state directory ($VTRACE_STATE_DIR or /run/vtrace), so that a second
 * "vtrace record" on the same buffer is refused and "vtrace stop" finds
 * the recording to end. A background recording's messages go to a log
 * file beside it, which "vtrace stop" prints.
 */
#ifndef _VTRACE_RECORD_PIDFILE_H
#define _VTRACE_RECORD_PIDFILE_H

#include <sys/types.h>

int vtrace_record_pidfile_path(const char *instance, const char *suffix,
			       char **path);
int vtrace_record_lock(const char *instance, pid_t *owner);
void vtrace_record_unlock(const char *instance);
int vtrace_record_owner(const char *instance, pid_t *owner);

#endif /* _VTRACE_RECORD_PIDFILE_H */
