/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Turning tracefs events on and off, all or nothing.
 */
#ifndef _VTRACE_EVENTS_H
#define _VTRACE_EVENTS_H

#include <stdbool.h>
#include <stddef.h>

struct vtrace_instance;

/*
 * VTRACE_EVENT_ALWAYS_ON: the event exists but has no enable file, because
 * it is recorded whenever tracing is on (ftrace's own events, such as
 * ftrace/print, which trace_marker writes).
 */
enum vtrace_event_state {
	VTRACE_EVENT_MISSING,
	VTRACE_EVENT_DISABLED,
	VTRACE_EVENT_ENABLED,
	VTRACE_EVENT_ALWAYS_ON,
};

/**
 * struct vtrace_event_change - one event to switch, and what happened to it
 * @name: "group/event" (validated by the caller), borrowed
 * @before: state found before the switch, filled in by vtrace_events_set()
 * @changed: true when vtrace_events_set() wrote its enable file
 */
struct vtrace_event_change {
	const char *name;
	enum vtrace_event_state before;
	bool changed;
};

int vtrace_event_state(struct vtrace_instance *vi, const char *name,
		       enum vtrace_event_state *state);
int vtrace_events_set(struct vtrace_instance *vi,
		      struct vtrace_event_change *changes, size_t nr,
		      bool enable, size_t *failed);
int vtrace_events_restore(struct vtrace_instance *vi,
			  struct vtrace_event_change *changes, size_t nr);
int vtrace_events_enabled(struct vtrace_instance *vi, char ***names,
			  size_t *nr);
int vtrace_events_disable_all(struct vtrace_instance *vi);

#endif /* _VTRACE_EVENTS_H */
