// SPDX-License-Identifier: LGPL-2.1
/*
 * From a trace config's model to the recorder's options (record-plan.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <vtrace/record-plan.h>
#include <vtrace/session.h>

/**
 * vtrace_record_plan_from_config - what a config asks of the recording
 * @tc: a loaded config
 * @ropts: the recorder options to complete; what the config leaves
 *	unset stays as it is
 * @plan: storage @ropts points into; release it with
 *	vtrace_record_plan_free() after the recorder is destroyed
 *
 * Perfetto's buffer semantics: written into a file, the trace streams
 * (and stops at max_file_size_bytes when given); kept in memory, it is
 * the buffer's size_kb, which RING_BUFFER fills with the newest data and
 * DISCARD stops taking at.
 *
 * Return: 0 or -ENOMEM.
 */
int vtrace_record_plan_from_config(const struct vtrace_trace_config *tc,
				   struct vtrace_recorder_opts *ropts,
				   struct vtrace_record_plan *plan)
{
	size_t i;

	ropts->drain_period_ms = tc->drain_period_ms;
	if (tc->write_into_file) {
		ropts->file_write_period_ms = tc->file_write_period_ms;
		ropts->max_file_size = tc->max_file_size_bytes;
		ropts->fill_policy = tc->max_file_size_bytes ?
					     VTRACE_FILL_DISCARD :
					     VTRACE_FILL_STREAM;
	} else if (tc->has_buffer) {
		ropts->fill_policy = tc->fill_policy;
		ropts->max_file_size = tc->buffer_size_kb * 1024ULL;
	}
	ropts->cpumask = tc->tracing_cpumask.str;
	if (tc->nr_tids) {
		plan->tids = calloc(tc->nr_tids, sizeof(*plan->tids));
		if (!plan->tids)
			return -ENOMEM;
		for (i = 0; i < tc->nr_tids; i++)
			plan->tids[i] = tc->tids[i];
		ropts->tids = plan->tids;
		ropts->nr_tids = tc->nr_tids;
	}
	if (tc->nr_options) {
		plan->options =
			calloc(tc->nr_options + 1, sizeof(*plan->options));
		if (!plan->options)
			return -ENOMEM;
		for (i = 0; i < tc->nr_options; i++)
			if (asprintf(&plan->options[i], "%s%s",
				     tc->options[i].enabled ? "" : "no",
				     tc->options[i].name.str) < 0)
				return -ENOMEM;
		ropts->tracefs_options = (const char *const *)plan->options;
	}
	return 0;
}

/**
 * vtrace_record_plan_session_features - the single-tenant settings of a config
 * @tc: a loaded config
 *
 * Return: the %VTRACE_SESSION_* settings it changes, which no other
 * session of the same buffer may change meanwhile.
 */
unsigned int
vtrace_record_plan_session_features(const struct vtrace_trace_config *tc)
{
	return (tc->tracing_cpumask.str ? VTRACE_SESSION_CPUMASK : 0) |
	       (tc->nr_tids ? VTRACE_SESSION_TIDS : 0) |
	       (tc->nr_options ? VTRACE_SESSION_OPTIONS : 0);
}

/**
 * vtrace_record_plan_free - release what a plan holds
 * @plan: the plan; left empty
 */
void vtrace_record_plan_free(struct vtrace_record_plan *plan)
{
	size_t i;

	for (i = 0; plan->options && plan->options[i]; i++)
		free(plan->options[i]);
	free(plan->options);
	free(plan->tids);
	plan->options = NULL;
	plan->tids = NULL;
}
