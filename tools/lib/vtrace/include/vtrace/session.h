/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Tracing sessions: every recording registers under a unique name in the
 * state directory, so that others can list it, stop it, and abide by
 * Perfetto's rules (unique session names, one recording per buffer,
 * exclusive sessions by priority, single-tenant tracefs features).
 *
 * The registry cannot race: each change is made under a kernel-held lock
 * (flock) on one registry lock file, and each session holds a lock of
 * its own for as long as its recorder lives, which the kernel drops when
 * the recorder dies, however it dies. A session whose lock is free is
 * dead, whatever pid its entry names.
 */
#ifndef _VTRACE_SESSION_H
#define _VTRACE_SESSION_H

#include <stdbool.h>
#include <stddef.h>

#include <vtrace/proc-ident.h>

/* Letters, digits, '_', '-', '.' (not first): also a file name. */
#define VTRACE_SESSION_NAME_MAX 64
/* How long a new exclusive session waits for those it aborted to end. */
#define VTRACE_SESSION_ABORT_WAIT_MS 30000

/**
 * enum vtrace_session_feature - tracefs settings one session at a time owns
 * @VTRACE_SESSION_CPUMASK: tracing_cpumask
 * @VTRACE_SESSION_TIDS: the pid filters (set_event_pid, tids_to_trace)
 * @VTRACE_SESSION_OPTIONS: trace_options (tracefs_options)
 * @VTRACE_SESSION_GLOBAL: the top level buffer's global settings (its
 *	clock, its buffer size)
 */
enum vtrace_session_feature {
	VTRACE_SESSION_CPUMASK = 1 << 0,
	VTRACE_SESSION_TIDS = 1 << 1,
	VTRACE_SESSION_OPTIONS = 1 << 2,
	VTRACE_SESSION_GLOBAL = 1 << 3,
};

/**
 * struct vtrace_session_params - what a new session asks for
 * @name: unique session name; NULL or "" for one made up ("vtrace-PID")
 * @instance: tracefs instance it records, NULL for the top level buffer
 * @output: the file it writes (shown by "vtrace sessions")
 * @exclusive_prio: 0, or the priority of an exclusive session (root only)
 * @features: &enum vtrace_session_feature bits it needs to itself
 * @abort_wait_ms: how long an exclusive session waits for the sessions
 *	it aborts to end; 0 for %VTRACE_SESSION_ABORT_WAIT_MS
 */
struct vtrace_session_params {
	const char *name;
	const char *instance;
	const char *output;
	unsigned int exclusive_prio;
	unsigned int features;
	int abort_wait_ms;
};

/**
 * enum vtrace_session_refusal - why a session may not start
 * @VTRACE_SESSION_OK: it may
 * @VTRACE_SESSION_BAD_NAME: the name is not a valid session name
 * @VTRACE_SESSION_NAME_TAKEN: a running session has that name
 * @VTRACE_SESSION_NOT_ROOT: exclusive sessions are for root only
 * @VTRACE_SESSION_EXCLUSIVE_ACTIVE: an exclusive session of equal or
 *	higher priority runs
 * @VTRACE_SESSION_INSTANCE_BUSY: a session records that buffer already
 * @VTRACE_SESSION_FEATURE_HELD: a session holds a feature asked for
 * @VTRACE_SESSION_ABORT_TIMEOUT: a session aborted for a new exclusive
 *	one did not end in time
 */
enum vtrace_session_refusal {
	VTRACE_SESSION_OK,
	VTRACE_SESSION_BAD_NAME,
	VTRACE_SESSION_NAME_TAKEN,
	VTRACE_SESSION_NOT_ROOT,
	VTRACE_SESSION_EXCLUSIVE_ACTIVE,
	VTRACE_SESSION_INSTANCE_BUSY,
	VTRACE_SESSION_FEATURE_HELD,
	VTRACE_SESSION_ABORT_TIMEOUT,
};

/**
 * struct vtrace_session_info - a registered session, as others see it
 * @name: its unique name
 * @instance: the instance it records, NULL for the top level buffer
 * @output: the file it writes
 * @partial: the file the output is written as until it is complete (a
 *	temporary name in the output's directory), NULL when none is known
 * @exclusive_prio: 0, or its priority as an exclusive session
 * @features: the single-tenant features it holds
 * @events: events written so far (updated about once a second)
 * @bytes: bytes of them
 * @started_ns: when it started, CLOCK_REALTIME in nanoseconds
 * @recorder: the identity of its recorder process
 * @aborting: a higher-priority exclusive session has aborted it
 */
struct vtrace_session_info {
	char name[VTRACE_SESSION_NAME_MAX + 1];
	char *instance;
	char *output;
	char *partial;
	unsigned int exclusive_prio;
	unsigned int features;
	unsigned long long events;
	unsigned long long bytes;
	unsigned long long started_ns;
	struct vtrace_proc_ident recorder;
	bool aborting;
};

/**
 * struct vtrace_session_refused - the details of a refusal
 * @why: the reason
 * @name: the name asked for
 * @holder: the running session in the way, for the reasons that have one
 * @holder_instance: its instance, NULL for the top level buffer
 * @pid: its recorder's pid
 * @prio: the priority of the exclusive session in the way
 * @requested: the priority asked for
 * @feature: the &enum vtrace_session_feature bit held by @holder
 * @waited_s: how long an aborted @holder was waited for
 */
struct vtrace_session_refused {
	enum vtrace_session_refusal why;
	char name[VTRACE_SESSION_NAME_MAX + 1];
	char holder[VTRACE_SESSION_NAME_MAX + 1];
	char *holder_instance;
	int pid;
	unsigned int prio;
	unsigned int requested;
	unsigned int feature;
	unsigned int waited_s;
};

struct vtrace_session;

bool vtrace_session_name_valid(const char *name);
int vtrace_session_start(const struct vtrace_session_params *params,
			 struct vtrace_session **session,
			 struct vtrace_session_refused *refused);
int vtrace_session_claim(struct vtrace_session *s, unsigned int features,
			 struct vtrace_session_refused *refused);
void vtrace_session_refused_free(struct vtrace_session_refused *refused);
int vtrace_session_refused_str(const struct vtrace_session_refused *refused,
			       char *buf, size_t size);
const char *vtrace_session_feature_name(unsigned int feature);
const char *vtrace_session_name(const struct vtrace_session *s);
int vtrace_session_set_partial(struct vtrace_session *s, const char *partial);
int vtrace_session_update(struct vtrace_session *s, unsigned long long events,
			  unsigned long long bytes);
const char *vtrace_session_abort_reason(struct vtrace_session *s);
void vtrace_session_end(struct vtrace_session *s);

int vtrace_session_log_open(const char *name, bool create, int *fd);
void vtrace_session_log_remove(const char *name);

int vtrace_sessions_list(struct vtrace_session_info **list, size_t *nr);
void vtrace_sessions_free(struct vtrace_session_info *list, size_t nr);
int vtrace_session_signal(const struct vtrace_session_info *info, int sig,
			  int *pidfd);
int vtrace_session_wait(int pidfd, int timeout_ms);

#endif /* _VTRACE_SESSION_H */
