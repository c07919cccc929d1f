/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The tracefs settings a recording changes, kept so that they can be put
 * back exactly: per-CPU buffer sizes, trace_clock, buffer_percent,
 * tracing_cpumask, set_event_pid, trace options and tracing_on of one
 * instance.
 *
 * Every setter writes only when the knob does not already hold the value,
 * counts a setting as changed only once its write succeeded, and the
 * restore writes back only what changed.  Which refusals a recording may
 * go on without is the caller's choice: vtrace_knob_refusal() tells a
 * refusal apart from a failure, vtrace_settings_read_back() what the
 * kernel kept.
 */
#ifndef _VTRACE_RECORD_SETTINGS_H
#define _VTRACE_RECORD_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct tracefs_instance;
struct vtrace_journal;

/* Room for a knob's value as read back ("[local]", "7 (expanded: 1408)"). */
#define VTRACE_KNOB_VALUE_MAX 64

/**
 * struct vtrace_record_settings - settings as found, and what was changed
 * @instance: the instance they belong to (NULL: top level)
 * @nr_cpus: entries in @buffer_kb
 * @buffer_kb: each CPU's buffer_size_kb as found (expanded size)
 * @clock: trace_clock as found
 * @buffer_percent: buffer_percent as found, -1 when the kernel has none
 * @subbuf_kb: buffer_subbuf_size_kb as found, -1 when the kernel has none
 * @tracing_on: tracing_on as found
 * @unexpanded: the buffer is still at its boot-time minimum, to grow to
 *	@buffer_kb on first use (which a mapped buffer refuses: EBUSY)
 * @cpumask: tracing_cpumask as found, once changed (else NULL)
 * @event_pids: set_event_pid as found, once changed (else NULL)
 * @options: "name" or "noname" of each option changed, as found
 * @nr_options: entries in @options
 * @buffer_changed: vtrace_settings_set_buffer_kb() wrote buffer_size_kb
 * @subbuf_changed: vtrace_settings_set_subbuf_kb() wrote
 *	buffer_subbuf_size_kb
 * @clock_changed: vtrace_settings_set_clock() wrote trace_clock
 * @percent_changed: vtrace_settings_set_percent() wrote buffer_percent
 * @tracing_on_changed: vtrace_settings_set_tracing_on() wrote tracing_on
 * @journal: where each value is noted before it is first changed (see
 *	journal.h), or NULL; the caller's, set after vtrace_settings_save()
 * @restore_error: after a failed vtrace_settings_restore(), which knob
 *	could not be put back and the value it was left at
 */
struct vtrace_record_settings {
	struct tracefs_instance *instance;
	int nr_cpus;
	long long *buffer_kb;
	char *clock;
	int buffer_percent;
	long long subbuf_kb;
	int tracing_on;
	char *cpumask;
	char *event_pids;
	char **options;
	size_t nr_options;
	bool unexpanded;
	bool buffer_changed;
	bool subbuf_changed;
	bool clock_changed;
	bool percent_changed;
	bool tracing_on_changed;
	struct vtrace_journal *journal;
	char restore_error[256];
};

int vtrace_settings_save(struct tracefs_instance *instance, int nr_cpus,
			 struct vtrace_record_settings *s);
int vtrace_settings_set_buffer_kb(struct vtrace_record_settings *s,
				  long long kb);
int vtrace_settings_set_clock(struct vtrace_record_settings *s,
			      const char *clock);
int vtrace_settings_set_percent(struct vtrace_record_settings *s, int percent);
int vtrace_settings_set_subbuf_kb(struct vtrace_record_settings *s,
				  long long kb);
int vtrace_settings_set_tracing_on(struct vtrace_record_settings *s, int on);
int vtrace_settings_set_cpumask(struct vtrace_record_settings *s,
				const char *mask);
int vtrace_settings_set_event_pids(struct vtrace_record_settings *s,
				   const pid_t *pids, size_t nr);
int vtrace_settings_set_option(struct vtrace_record_settings *s,
			       const char *option);
bool vtrace_knob_refusal(int err);
void vtrace_settings_read_back(const struct vtrace_record_settings *s,
			       const char *knob, char *value, size_t len);
int vtrace_settings_restore(struct vtrace_record_settings *s);
void vtrace_settings_free(struct vtrace_record_settings *s);

#endif /* _VTRACE_RECORD_SETTINGS_H */
