/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * What a Perfetto trace config (trace-config.h) asks of a recording, as
 * the events to enable (selection.h), the engine's options (recorder.h)
 * and the session's single-tenant settings (session.h): the one
 * translation from the config model to the recorder, so that no caller
 * keeps its own. The command line's flags are turned into the same model
 * first (vtrace_trace_config_override()), so flags and a config file take
 * one road.
 */
#ifndef _VTRACE_RECORD_PLAN_H
#define _VTRACE_RECORD_PLAN_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <vtrace/categories.h>
#include <vtrace/diag.h>
#include <vtrace/recorder.h>
#include <vtrace/selection.h>
#include <vtrace/trace-config.h>

/**
 * struct vtrace_record_plan - what the recording takes from a config, and
 *	the storage the selection and the recorder options point into
 * @tags: the userspace atrace tags of its categories and applications
 * @origins: "FILE:LINE:COL" of each ftrace_events value of the file, for
 *	the selection's messages; NULL-terminated
 * @tids: the config's threads, as set_event_pid takes them
 * @options: the config's trace options as "name" or "noname",
 *	NULL-terminated
 */
struct vtrace_record_plan {
	uint64_t tags;
	char **origins;
	pid_t *tids;
	char **options;
};

int vtrace_record_plan_select(struct vtrace_record_plan *plan,
			      const struct vtrace_trace_config *tc,
			      const struct vtrace_catmap *map, bool strict,
			      struct vtrace_selection *sel,
			      struct vtrace_diags *diags);
int vtrace_record_plan_from_config(const struct vtrace_trace_config *tc,
				   struct vtrace_recorder_opts *ropts,
				   struct vtrace_record_plan *plan);
unsigned int
vtrace_record_plan_session_features(const struct vtrace_trace_config *tc);
void vtrace_record_plan_free(struct vtrace_record_plan *plan);

#endif /* _VTRACE_RECORD_PLAN_H */
