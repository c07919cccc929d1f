// SPDX-License-Identifier: LGPL-2.1
/*
 * Who may start, by Perfetto's rules: a session's name is its own; an
 * exclusive session (root only) is refused while one of equal or higher
 * priority runs, and aborts every other session, waiting until they
 * have ended; any other session is refused a buffer another records and
 * a single-tenant feature another holds. The registry these rules read
 * and write is session.c's.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include <vtrace/session.h>
#include <vtrace/state-lock.h>

#include "record/session-local.h"

static bool same_instance(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

static void refuse(struct vtrace_session_refused *r,
		   enum vtrace_session_refusal why,
		   const struct vtrace_session_info *holder)
{
	r->why = why;
	if (!holder)
		return;
	snprintf(r->holder, sizeof(r->holder), "%s", holder->name);
	r->pid = holder->recorder.pid;
	free(r->holder_instance);
	r->holder_instance = holder->instance ? strdup(holder->instance) : NULL;
}

/*
 * Perfetto's rules, in its order: the name first, then a running
 * exclusive session, then (for a session that is not to abort the
 * others) the buffer and the single-tenant features.
 */
static bool admissible(const struct vtrace_session_info *me,
		       const struct vtrace_session_info *live, size_t nr,
		       struct vtrace_session_refused *r)
{
	const struct vtrace_session_info *top = NULL;
	unsigned int bit;
	size_t i;

	for (i = 0; i < nr; i++) {
		if (!strcmp(live[i].name, me->name)) {
			refuse(r, VTRACE_SESSION_NAME_TAKEN, &live[i]);
			return false;
		}
		if (live[i].exclusive_prio &&
		    (!top || live[i].exclusive_prio > top->exclusive_prio))
			top = &live[i];
	}
	if (top && top->exclusive_prio >= me->exclusive_prio) {
		refuse(r, VTRACE_SESSION_EXCLUSIVE_ACTIVE, top);
		r->prio = top->exclusive_prio;
		r->requested = me->exclusive_prio;
		return false;
	}
	if (me->exclusive_prio)
		return true; /* every other session is to be aborted */
	for (i = 0; i < nr; i++) {
		if (same_instance(live[i].instance, me->instance)) {
			refuse(r, VTRACE_SESSION_INSTANCE_BUSY, &live[i]);
			return false;
		}
		bit = live[i].features & me->features;
		if (bit) {
			refuse(r, VTRACE_SESSION_FEATURE_HELD, &live[i]);
			r->feature = bit & -bit;
			return false;
		}
	}
	return true;
}

/* The abort request first, then the signal that makes the recorder stop. */
static int request_abort(int dirfd, const struct vtrace_session_info *victim,
			 const struct vtrace_session_info *me, int *pidfd)
{
	int ret;

	*pidfd = -1;
	ret = vtrace_proc_pidfd_open(&victim->recorder, pidfd);
	if (ret)
		return ret;
	ret = vt_session_note_abort(dirfd, victim->name, me);
	if (!ret)
		ret = vtrace_proc_pidfd_signal(*pidfd, SIGTERM);
	if (!ret)
		return 0;
	close(*pidfd);
	*pidfd = -1;
	return ret;
}

static int wait_victims(struct vtrace_session_info *live, int *pidfds,
			size_t nr, int timeout_ms,
			struct vtrace_session_refused *r)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		if (pidfds[i] < 0)
			continue;
		if (vtrace_session_wait(pidfds[i], timeout_ms)) {
			refuse(r, VTRACE_SESSION_ABORT_TIMEOUT, &live[i]);
			r->waited_s = timeout_ms / 1000;
			return -ETIMEDOUT;
		}
	}
	return 0;
}

/**
 * vtrace_session_start - register a new session, by Perfetto's rules
 * @params: what it asks for
 * @session: set to the running session, to be ended with
 *	vtrace_session_end()
 * @refused: set to why it may not start on -EEXIST, -EPERM, -EBUSY,
 *	-EINVAL and -ETIMEDOUT (release with vtrace_session_refused_free())
 *
 * A session with a running session's name is refused; so is every
 * session while an exclusive one of equal or higher priority runs. A new
 * exclusive session (root only) aborts every other one and waits until
 * they have ended (their recorders restore what they changed); any other
 * session is refused a buffer another records and a single-tenant feature
 * another holds. Entries of sessions whose recorder died are removed.
 *
 * Return: 0; -EINVAL (a bad name), -EEXIST (the name is taken), -EPERM
 * (an exclusive session without root), -EBUSY (an exclusive session, the
 * buffer or a feature is taken), -ETIMEDOUT (an aborted session did not
 * end), or an error of the state directory (see vtrace_state_dir_open()).
 */
int vtrace_session_start(const struct vtrace_session_params *params,
			 struct vtrace_session **session,
			 struct vtrace_session_refused *refused)
{
	struct vtrace_session_info *live = NULL;
	int regfd, ret, *pidfds = NULL;
	struct vtrace_session *s;
	size_t nr = 0, i;

	memset(refused, 0, sizeof(*refused));
	snprintf(refused->name, sizeof(refused->name), "%s",
		 params->name ? params->name : "");
	refused->requested = params->exclusive_prio;
	if (params->name && *params->name &&
	    !vtrace_session_name_valid(params->name)) {
		refused->why = VTRACE_SESSION_BAD_NAME;
		return -EINVAL;
	}
	if (params->exclusive_prio && geteuid()) {
		refused->why = VTRACE_SESSION_NOT_ROOT;
		return -EPERM;
	}
	ret = vt_session_new(params, &s);
	if (ret)
		return ret;
	snprintf(refused->name, sizeof(refused->name), "%s", s->info.name);

	ret = vtrace_state_lock(s->dirfd, VTRACE_STATE_LOCK_SESSIONS, LOCK_EX,
				true, NULL, &regfd);
	if (ret)
		goto err;
	ret = vt_session_load_live(s->dirfd, true, &live, &nr);
	if (ret)
		goto unlock;
	if (!admissible(&s->info, live, nr, refused)) {
		ret = refused->why == VTRACE_SESSION_NAME_TAKEN ? -EEXIST :
								  -EBUSY;
		goto unlock;
	}
	ret = vt_session_take_own_lock(s->dirfd, s->info.name, &s->lockfd);
	if (!ret)
		ret = vt_session_entry_write(s->dirfd, &s->info);
	if (!ret && s->info.exclusive_prio && nr) {
		pidfds = malloc(nr * sizeof(*pidfds));
		if (!pidfds)
			ret = -ENOMEM;
		/* A recorder not proven to be one is never signalled. */
		for (i = 0; !ret && i < nr; i++)
			request_abort(s->dirfd, &live[i], &s->info, &pidfds[i]);
	}
	if (ret && s->lockfd >= 0)
		vt_session_remove(s->dirfd, s->info.name);
unlock:
	vtrace_state_unlock(regfd);
	if (!ret && pidfds)
		ret = wait_victims(live, pidfds, nr,
				   params->abort_wait_ms ?:
					   VTRACE_SESSION_ABORT_WAIT_MS,
				   refused);
	for (i = 0; pidfds && i < nr; i++)
		if (pidfds[i] >= 0)
			close(pidfds[i]);
	free(pidfds);
	vtrace_sessions_free(live, nr);
	if (ret == -ETIMEDOUT) {
		vtrace_session_end(s);
		return ret;
	}
	if (ret)
		goto err;
	*session = s;
	return 0;
err:
	vt_session_free(s);
	return ret;
}

/**
 * vtrace_session_claim - take single-tenant features for a running session
 * @s: the session
 * @features: &enum vtrace_session_feature bits
 * @refused: set to the holder on -EBUSY
 *
 * Return: 0, -EBUSY when another running session holds one of them, or
 * an error of the registry.
 */
int vtrace_session_claim(struct vtrace_session *s, unsigned int features,
			 struct vtrace_session_refused *refused)
{
	struct vtrace_session_info *live;
	unsigned int bit;
	int regfd, ret;
	size_t nr, i;

	memset(refused, 0, sizeof(*refused));
	snprintf(refused->name, sizeof(refused->name), "%s", s->info.name);
	ret = vtrace_state_lock(s->dirfd, VTRACE_STATE_LOCK_SESSIONS, LOCK_EX,
				true, NULL, &regfd);
	if (ret)
		return ret;
	ret = vt_session_load_live(s->dirfd, true, &live, &nr);
	if (ret)
		goto out;
	for (i = 0; i < nr && !ret; i++) {
		bit = live[i].features & features;
		if (!strcmp(live[i].name, s->info.name) || !bit)
			continue;
		refuse(refused, VTRACE_SESSION_FEATURE_HELD, &live[i]);
		refused->feature = bit & -bit;
		ret = -EBUSY;
	}
	vtrace_sessions_free(live, nr);
	if (!ret) {
		s->info.features |= features;
		ret = vt_session_entry_write(s->dirfd, &s->info);
	}
out:
	vtrace_state_unlock(regfd);
	return ret;
}

/**
 * vtrace_session_refused_free - release what a refusal holds
 * @refused: filled in by vtrace_session_start() or vtrace_session_claim()
 */
void vtrace_session_refused_free(struct vtrace_session_refused *refused)
{
	free(refused->holder_instance);
	refused->holder_instance = NULL;
}

/**
 * vtrace_session_feature_name - a single-tenant feature, for messages
 * @feature: one &enum vtrace_session_feature bit
 *
 * Return: the name of the setting, as a trace config calls it.
 */
const char *vtrace_session_feature_name(unsigned int feature)
{
	switch (feature) {
	case VTRACE_SESSION_CPUMASK:
		return "tracing_cpumask";
	case VTRACE_SESSION_TIDS:
		return "tids_to_trace";
	case VTRACE_SESSION_OPTIONS:
		return "tracefs_options";
	case VTRACE_SESSION_GLOBAL:
		return "the top level buffer's global settings";
	}
	return "?";
}

/**
 * vtrace_session_refused_str - the message of a refusal
 * @r: the refusal
 * @buf: where the message goes
 * @size: its size
 *
 * The messages of Perfetto's rules are Perfetto's own wording.
 *
 * Return: the length of the message, as snprintf().
 */
int vtrace_session_refused_str(const struct vtrace_session_refused *r,
			       char *buf, size_t size)
{
	switch (r->why) {
	case VTRACE_SESSION_BAD_NAME:
		return snprintf(
			buf, size,
			"bad session name '%s': 1 to %d letters, digits, '_', '-' and '.', not starting with '.'",
			r->name, VTRACE_SESSION_NAME_MAX);
	case VTRACE_SESSION_NAME_TAKEN:
		return snprintf(
			buf, size,
			"A trace with this unique session name (%s) already exists",
			r->name);
	case VTRACE_SESSION_NOT_ROOT:
		return snprintf(
			buf, size,
			"an exclusive session (exclusive_prio %u) may only be started by root",
			r->requested);
	case VTRACE_SESSION_EXCLUSIVE_ACTIVE:
		return snprintf(
			buf, size,
			"An exclusive session with priority %u >= requested priority %u is already active.",
			r->prio, r->requested);
	case VTRACE_SESSION_INSTANCE_BUSY:
		return snprintf(
			buf, size,
			"tracefs is busy: session %s (pid %d) is already recording %s%s; end it with 'vtrace stop %s'",
			r->holder, r->pid,
			r->holder_instance ? "instance " :
					     "the top level buffer",
			r->holder_instance ? r->holder_instance : "",
			r->holder);
	case VTRACE_SESSION_FEATURE_HELD:
		return snprintf(
			buf, size,
			"%s is held by session %s (pid %d): one session at a time may change it",
			vtrace_session_feature_name(r->feature), r->holder,
			r->pid);
	case VTRACE_SESSION_ABORT_TIMEOUT:
		return snprintf(
			buf, size,
			"session %s (pid %d), aborted for this exclusive session, is still finishing after %u s",
			r->holder, r->pid, r->waited_s);
	case VTRACE_SESSION_OK:
		break;
	}
	return snprintf(buf, size, "session %s may start", r->name);
}
