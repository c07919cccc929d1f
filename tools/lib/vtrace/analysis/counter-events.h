/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Vendor and kernel events whose fields are counter values (GPU power
 * state, temperatures, cooling states, frequencies), and the counter
 * tracks Perfetto's importer shows for them. One table for the Perfetto
 * writer (the tracks the importer does not make itself, @own_track) and
 * the slice model (all of them), so that a recording shows the same
 * counters in Perfetto and in vtrace view, from a trace.dat or from its
 * Perfetto file.
 *
 * Fields are named as the event's format names them, which is also how
 * the typed Perfetto messages (perfetto-events.c) and GenericFtraceEvent
 * name them.
 */
#ifndef _VTRACE_COUNTER_EVENTS_H
#define _VTRACE_COUNTER_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Counter values one event gives at the most. */
#define VT_COUNTER_VALUES_MAX 2

/* How the track's instance is told from @key's field. */
enum vt_counter_key {
	VT_COUNTER_KEY_NONE, /* one track */
	VT_COUNTER_KEY_FIELD, /* the field's text or number */
	VT_COUNTER_KEY_ZONE, /* an ACPM zone id, BIG to AUR */
};

/**
 * struct vt_counter_value - one value of an event and its track
 * @field: the value's field
 * @prefix: the track's name before the key
 * @suffix: the track's name after the key
 */
struct vt_counter_value {
	const char *field;
	const char *prefix;
	const char *suffix;
};

/**
 * struct vt_counter_event - an event that gives counter values
 * @system: the event's system
 * @event: its name
 * @key_kind: how @key names a track
 * @key: the field telling the tracks apart (a zone, a TMU, a CPU)
 * @ts_field: a field holding the sample's own time (ns), or NULL for the
 *	event's time
 * @own_track: Perfetto's importer makes no track of it (vtrace writes it
 *	as a GenericFtraceEvent), so the writer adds the tracks
 * @values: the values, a track each; unused ones have a NULL field
 */
struct vt_counter_event {
	const char *system;
	const char *event;
	enum vt_counter_key key_kind;
	const char *key;
	const char *ts_field;
	bool own_track;
	struct vt_counter_value values[VT_COUNTER_VALUES_MAX];
};

/**
 * vt_counter_event_find - the counter values an event gives
 * @system: the event's system, or NULL where the source does not say (a
 *	GenericFtraceEvent names the event only)
 * @event: the event's name
 *
 * Return: its entry, or NULL for an event that gives none.
 */
const struct vt_counter_event *vt_counter_event_find(const char *system,
						     const char *event);

/**
 * vt_counter_track_name - the track a value of an event goes to
 * @ce: the event
 * @v: index in @ce->values
 * @key: the key field's bytes where it is a string, else NULL
 * @key_len: bytes of @key
 * @key_num: the key field's value where it is a number
 * @buf: set to the track's name, NUL-terminated (cut to fit)
 * @size: bytes of @buf
 *
 * The key is ignored for %VT_COUNTER_KEY_NONE.
 *
 * Return: false where the key names no track (a zone id Perfetto does not
 * know, whose values it leaves out).
 */
bool vt_counter_track_name(const struct vt_counter_event *ce, int v,
			   const char *key, size_t key_len, int64_t key_num,
			   char *buf, size_t size);

#endif /* _VTRACE_COUNTER_EVENTS_H */
