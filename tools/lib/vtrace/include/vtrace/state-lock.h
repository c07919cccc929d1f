/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The locks in vtrace's state directory that every run shares: who may
 * change the session registry, the atrace tags, or restore a journal.
 *
 * Only root (or the directory's owner) can open them, and no wait for one
 * is unbounded: a holder that does not let go is named, not waited for.
 */
#ifndef _VTRACE_STATE_LOCK_H
#define _VTRACE_STATE_LOCK_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The shared locks, by file name in the state directory. */
#define VTRACE_STATE_LOCK_SESSIONS "sessions.lock"
#define VTRACE_STATE_LOCK_ATRACE_TAGS "atrace-tags.lock"
#define VTRACE_STATE_LOCK_JOURNAL "journal.lock"

/*
 * How long a shared lock is waited for before giving up: its holders keep
 * it for milliseconds (a registry update, a tag change, a restore).
 */
#define VTRACE_STATE_LOCK_WAIT_MS 5000

int vtrace_state_lock(int dirfd, const char *name, int op, bool create,
		      const volatile sig_atomic_t *stop, int *fd);
void vtrace_state_unlock(int fd);
int vtrace_state_lock_holder(const char **name, pid_t *pid, char *comm,
			     size_t size);

#endif /* _VTRACE_STATE_LOCK_H */
