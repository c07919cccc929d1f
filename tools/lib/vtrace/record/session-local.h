/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * What the files of the sessions share: a session, and what the registry
 * offers the admission rules.
 *
 *	session.c		the registry: its files in the state directory,
 *				its locks, entries, listing, logs, signals
 *	session-admit.c		who may start (Perfetto's rules), who is
 *				refused and who aborted, and the messages
 */
#ifndef _VTRACE_SESSION_LOCAL_H
#define _VTRACE_SESSION_LOCAL_H

#include <stdbool.h>
#include <stddef.h>

#include <vtrace/session.h>

/**
 * struct vtrace_session - a session this process registered
 * @dirfd: the state directory
 * @lockfd: the session's own lock, held while it runs; -1 before
 * @info: its entry
 * @abort_reason: why it was aborted, once vtrace_session_abort_reason()
 *	has read it
 */
struct vtrace_session {
	int dirfd;
	int lockfd;
	struct vtrace_session_info info;
	char *abort_reason;
};

int vt_session_new(const struct vtrace_session_params *params,
		   struct vtrace_session **session);
void vt_session_free(struct vtrace_session *s);
int vt_session_load_live(int dirfd, bool cleanup,
			 struct vtrace_session_info **list, size_t *nr);
int vt_session_take_own_lock(int dirfd, const char *name, int *fd);
int vt_session_entry_write(int dirfd, const struct vtrace_session_info *info);
int vt_session_note_abort(int dirfd, const char *name,
			  const struct vtrace_session_info *by);
void vt_session_remove(int dirfd, const char *name);

#endif /* _VTRACE_SESSION_LOCAL_H */
