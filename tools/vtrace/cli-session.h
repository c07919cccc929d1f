/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What "vtrace record" (and anything else that records) does with its
 * session: register it by Perfetto's rules, printing a refusal; publish
 * its progress; tell whether an exclusive session aborted it.
 */
#ifndef _VTRACE_CLI_SESSION_H
#define _VTRACE_CLI_SESSION_H

#include <vtrace/session.h>

int cli_parse_session_name(const char *arg);
int cli_parse_exclusive_prio(const char *opt, const char *arg,
			     unsigned int *prio);
int cli_session_check_root(unsigned int exclusive_prio);
int cli_session_start(const struct vtrace_session_params *params,
		      struct vtrace_session **session);
int cli_session_log(struct vtrace_session *session);
const char *cli_session_tick(struct vtrace_session *session,
			     unsigned long long events,
			     unsigned long long bytes);

#endif /* _VTRACE_CLI_SESSION_H */
