/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * What a Perfetto trace config (trace-config.h) asks of a recording, as
 * the engine's options (recorder.h) and the session's single-tenant
 * settings (session.h): the one translation from the config model to the
 * recorder, so that no caller keeps its own.
 */
#ifndef _VTRACE_RECORD_PLAN_H
#define _VTRACE_RECORD_PLAN_H

#include <sys/types.h>

#include <vtrace/recorder.h>
#include <vtrace/trace-config.h>

/**
 * struct vtrace_record_plan - storage the recorder options point into
 * @tids: the config's threads, as set_event_pid takes them
 * @options: the config's trace options as "name" or "noname",
 *	NULL-terminated
 */
struct vtrace_record_plan {
	pid_t *tids;
	char **options;
};

int vtrace_record_plan_from_config(const struct vtrace_trace_config *tc,
				   struct vtrace_recorder_opts *ropts,
				   struct vtrace_record_plan *plan);
unsigned int
vtrace_record_plan_session_features(const struct vtrace_trace_config *tc);
void vtrace_record_plan_free(struct vtrace_record_plan *plan);

#endif /* _VTRACE_RECORD_PLAN_H */
