// SPDX-License-Identifier: GPL-2.0
/*
 * A recording's session, for the commands that record.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli-session.h"

/**
 * cli_parse_session_name - check a --name argument
 * @arg: the name
 *
 * Return: 0, or -EINVAL after saying why.
 */
int cli_parse_session_name(const char *arg)
{
	struct vtrace_session_refused r = { .why = VTRACE_SESSION_BAD_NAME };
	char msg[256];

	if (vtrace_session_name_valid(arg))
		return 0;
	snprintf(r.name, sizeof(r.name), "%s", arg);
	vtrace_session_refused_str(&r, msg, sizeof(msg));
	vtrace_err("%s", msg);
	return -EINVAL;
}

/**
 * cli_parse_exclusive_prio - an --exclusive-prio argument
 * @opt: the command and option, for the message
 * @arg: 0 to 4294967295 (Perfetto's exclusive_prio is a uint32)
 * @prio: set to the priority
 *
 * Return: 0, or -EINVAL after saying why (see cli_parse_number()).
 */
int cli_parse_exclusive_prio(const char *opt, const char *arg,
			     unsigned int *prio)
{
	long long v;

	if (cli_parse_number(opt, arg, 0, UINT32_MAX, &v))
		return -EINVAL;
	*prio = v;
	return 0;
}

/**
 * cli_session_check_root - refuse an exclusive session to a user not root
 * @exclusive_prio: the priority asked for, 0 for an ordinary session
 *
 * vtrace_session_start() refuses it too; this says so before tracefs is
 * looked at.
 *
 * Return: 0, or -EPERM after printing the refusal.
 */
int cli_session_check_root(unsigned int exclusive_prio)
{
	struct vtrace_session_refused r = {
		.why = VTRACE_SESSION_NOT_ROOT,
		.requested = exclusive_prio,
	};
	char msg[256];

	if (!exclusive_prio || !geteuid())
		return 0;
	vtrace_session_refused_str(&r, msg, sizeof(msg));
	vtrace_err("%s", msg);
	return -EPERM;
}

/**
 * cli_session_start - register a recording's session, or say why not
 * @params: what it asks for
 * @session: set to the session
 *
 * Return: 0, or a -errno of vtrace_session_start() after printing its
 * message.
 */
int cli_session_start(const struct vtrace_session_params *params,
		      struct vtrace_session **session)
{
	struct vtrace_session_refused r;
	char msg[512];
	int ret;

	ret = vtrace_session_start(params, session, &r);
	if (ret && r.why != VTRACE_SESSION_OK) {
		vtrace_session_refused_str(&r, msg, sizeof(msg));
		vtrace_err("%s", msg);
	} else if (ret) {
		cli_state_dir_error("register the session", ret);
	}
	vtrace_session_refused_free(&r);
	return ret;
}

/**
 * cli_session_log - send this process's messages to the session's log
 * @session: a background recording's session
 *
 * Standard output and error go to the log "vtrace stop" prints, standard
 * input comes from /dev/null.
 *
 * Return: 0 or the -errno of opening the log.
 */
int cli_session_log(struct vtrace_session *session)
{
	int fd, ret;

	ret = vtrace_session_log_open(vtrace_session_name(session), true, &fd);
	if (ret)
		return ret;
	dup2(fd, STDOUT_FILENO);
	dup2(fd, STDERR_FILENO);
	close(fd);
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		dup2(fd, STDIN_FILENO);
		close(fd);
	}
	return 0;
}

/**
 * cli_session_tick - publish a recording's progress, look for an abort
 * @session: the session
 * @events: events written so far
 * @bytes: bytes of them
 *
 * Return: NULL, or why a higher-priority exclusive session aborted it.
 */
const char *cli_session_tick(struct vtrace_session *session,
			     unsigned long long events,
			     unsigned long long bytes)
{
	vtrace_session_update(session, events, bytes);
	return vtrace_session_abort_reason(session);
}
