// SPDX-License-Identifier: LGPL-2.1
/*
 * From a trace config's model to the events to enable and the recorder's
 * options (record-plan.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <vtrace/atrace-tags.h>
#include <vtrace/atrace.h>
#include <vtrace/record-plan.h>
#include <vtrace/session.h>

/* A value that came from the command line, not from a file. */
static bool from_cmdline(const struct vtrace_tc_string *it)
{
	return !it->line && !it->column;
}

/* A finding about a config file's value, at its position. */
static int note(struct vtrace_diags *diags,
		const struct vtrace_trace_config *tc,
		const struct vtrace_tc_string *at, enum vtrace_severity sev,
		const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static int note(struct vtrace_diags *diags,
		const struct vtrace_trace_config *tc,
		const struct vtrace_tc_string *at, enum vtrace_severity sev,
		const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* A binary config's values are at byte offsets (column - 1). */
	if (!at->line)
		return vtrace_diag_add(diags, tc->file, 0, 0, sev,
				       "byte %u: %s", at->column - 1, msg);
	return vtrace_diag_add(diags, tc->file, at->line, at->column, sev, "%s",
			       msg);
}

/* The model's atrace_categories into @sel; see vtrace_record_plan_select(). */
static int select_categories(struct vtrace_record_plan *plan,
			     const struct vtrace_trace_config *tc,
			     const struct vtrace_catmap *map, bool strict,
			     struct vtrace_selection *sel,
			     struct vtrace_diags *diags)
{
	enum vtrace_severity sev = strict ? VTRACE_ERROR : VTRACE_WARNING;
	const struct vtrace_tc_string *it;
	int ret;
	size_t i;

	for (i = 0; i < tc->atrace_categories.nr; i++) {
		it = &tc->atrace_categories.items[i];
		ret = vtrace_selection_add_category(sel, map, it->str);
		if (ret == -ENOMEM)
			return ret;
		if (ret && from_cmdline(it))
			return -ENOENT;
		if (ret &&
		    note(diags, tc, it, sev,
			 "atrace category '%s' is neither a standard category nor in the category files%s",
			 it->str, strict ? "" : " (ignored)"))
			return -ENOMEM;
		plan->tags |= vtrace_atrace_tags_of(&it->str, 1);
	}
	if (tc->atrace_apps.nr)
		plan->tags |= ATRACE_TAG_APP;
	return 0;
}

/* The model's ftrace_events into @sel; see vtrace_record_plan_select(). */
static int select_events(struct vtrace_record_plan *plan,
			 const struct vtrace_trace_config *tc, bool strict,
			 struct vtrace_selection *sel,
			 struct vtrace_diags *diags)
{
	const struct vtrace_tc_string *it;
	size_t i, found, nr_origins = 0;
	int ret;

	plan->origins =
		calloc(tc->ftrace_events.nr + 1, sizeof(*plan->origins));
	if (!plan->origins)
		return -ENOMEM;
	for (i = 0; i < tc->ftrace_events.nr; i++) {
		it = &tc->ftrace_events.items[i];
		if (from_cmdline(it)) {
			ret = vtrace_selection_add_event(sel, it->str);
			if (ret)
				return ret == -ENOMEM ? ret : -ENOENT;
			continue;
		}
		if (asprintf(&plan->origins[nr_origins], "%s:%u:%u", tc->file,
			     it->line, it->column) < 0)
			return -ENOMEM;
		ret = vtrace_selection_add_pattern(
			sel, it->str, plan->origins[nr_origins++], &found);
		if (ret == -ENOMEM)
			return ret;
		if (ret)
			ret = note(diags, tc, it, VTRACE_ERROR, "%s",
				   vtrace_selection_strerror(sel));
		else if (!found)
			ret = note(
				diags, tc, it,
				strict ? VTRACE_ERROR : VTRACE_WARNING,
				"event '%s' is not in this kernel's tracefs%s",
				it->str, strict ? "" : " (skipped)");
		if (ret)
			return -ENOMEM;
	}
	return 0;
}

/**
 * vtrace_record_plan_select - the events a config asks for
 * @plan: where the userspace tags go, and storage @sel borrows from;
 *	zeroed before the first call
 * @tc: the config model, the command line's values in it
 * @map: the category files, which @sel borrows names from
 * @strict: what this kernel lacks is an error, not a warning
 * @sel: an initialised selection to add the events to
 * @diags: findings about the values of the config file, at their
 *	positions
 *
 * A config file is shared between devices: a category or event this
 * kernel lacks is a warning (an error when @strict), the rest of it is
 * recorded. A category or event the command line names must be there, as
 * for vtrace enable; one that is not is refused at once. Nothing in
 * tracefs changes; events are looked up in the top level's events/.
 *
 * Return: 0; -EINVAL when the config file is refused (@diags says why);
 * -ENOENT when a category or event of the command line is refused
 * (vtrace_selection_strerror() says why); or -ENOMEM.
 */
int vtrace_record_plan_select(struct vtrace_record_plan *plan,
			      const struct vtrace_trace_config *tc,
			      const struct vtrace_catmap *map, bool strict,
			      struct vtrace_selection *sel,
			      struct vtrace_diags *diags)
{
	size_t errors = diags->nr_errors;
	int ret;

	ret = select_categories(plan, tc, map, strict, sel, diags);
	if (!ret)
		ret = select_events(plan, tc, strict, sel, diags);
	if (!ret && diags->nr_errors > errors)
		ret = -EINVAL;
	return ret;
}

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

	ropts->duration_ms = tc->duration_ms;
	ropts->buffer_kb = tc->ftrace_buffer_size_kb;
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
	if (vtrace_probes_wanted(&tc->probes))
		ropts->probes = &tc->probes;
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
	for (i = 0; plan->origins && plan->origins[i]; i++)
		free(plan->origins[i]);
	free(plan->options);
	free(plan->origins);
	free(plan->tids);
	*plan = (struct vtrace_record_plan){};
}
