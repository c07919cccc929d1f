/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The Perfetto writer's translation of ftrace events: what an ftrace
 * record says, as Perfetto's messages say it. An event Perfetto has a
 * typed message for (perfetto-events.c) is written as that message, the
 * others as GenericFtraceEvent (ftrace's bprint and bputs with their
 * text formatted); the events Perfetto's importer draws no counter track
 * for (counter-events.h, @own_track) also give counter values. Where
 * those go in the file (bundles, packets, counter tracks) is the writer's
 * framing, perfetto-writer.c.
 *
 * Threads: vt_pf_translate() may run for several records at once (one
 * thread per CPU while recording), each thread with its own @scratch.
 * The tep is only touched under the translator's lock: when an event's
 * encoding is worked out (which may parse its format into the tep) and
 * when ftrace's bprint/bputs text is printed with it.
 */
#ifndef _VTRACE_PERFETTO_TRANSLATE_H
#define _VTRACE_PERFETTO_TRANSLATE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <trace-seq.h>

#include "analysis/counter-events.h"

struct pf_event_enc;
struct tep_handle;
struct tep_record;
struct vt_formats;
struct vt_pb;

/* Counter values one event gives at the most. */
#define PF_COUNTERS_MAX VT_COUNTER_VALUES_MAX
/* Bytes of a counter track's name, its NUL included. */
#define PF_COUNTER_TRACK_MAX 192

/**
 * struct vt_pf_translator - how each event is translated
 * @tep: the events' formats
 * @formats: where @tep takes more from, NULL when it holds them all
 * @encs: by event id (its high byte, then its low byte), how its
 *	records are encoded, worked out on the first one; NULL for an id
 *	not met yet. Read without @lock, filled in under it, never moved.
 * @lock: serializes working out encodings and every use of @tep
 * @native: the records are in this machine's byte order
 * @type: the common_type field, NULL when the formats have none
 * @pid: the common_pid field, NULL when the formats have none
 */
struct vt_pf_translator {
	struct tep_handle *tep;
	struct vt_formats *formats;
	struct pf_event_enc **encs[256];
	pthread_mutex_t lock;
	bool native;
	const struct tep_format_field *type;
	const struct tep_format_field *pid;
};

/**
 * struct vt_pf_counter - a counter value an event gives
 * @track: the counter track's name (counter-events.h)
 * @value: the value at the event's time
 */
struct vt_pf_counter {
	char track[PF_COUNTER_TRACK_MAX];
	int64_t value;
};

/**
 * vt_pf_translator_init - start translating the events of @tep
 * @tr: the translator
 * @tep: the events' formats, valid until vt_pf_translator_release()
 * @formats: where @tep takes more formats from as records need them, or
 *	NULL when it holds them all
 */
void vt_pf_translator_init(struct vt_pf_translator *tr, struct tep_handle *tep,
			   struct vt_formats *formats);

/**
 * vt_pf_record_pid - the pid that wrote a record
 * @tr: the translator
 * @record: the record
 *
 * Return: its common_pid, or -1 where the record is too short for it.
 */
int vt_pf_record_pid(const struct vt_pf_translator *tr,
		     const struct tep_record *record);

/**
 * vt_pf_record_type - a record's event id
 * @tr: the translator
 * @record: the record
 *
 * Return: its common_type, or -1 where the record is too short for it.
 */
int vt_pf_record_type(const struct vt_pf_translator *tr,
		      const struct tep_record *record);

/**
 * vt_pf_translate - an ftrace record as an FtraceEvent's body
 * @tr: the translator
 * @scratch: where the text of array fields is formatted; the calling
 *	thread's own
 * @pb: where the FtraceEvent is open; the event's typed message or
 *	GenericFtraceEvent is added to it. An event whose format is not
 *	known (or not allocated) adds nothing.
 * @record: the record
 * @counters: set to the counter values the event gives
 *
 * Return: the number of @counters set, 0 to %PF_COUNTERS_MAX.
 */
int vt_pf_translate(struct vt_pf_translator *tr, struct trace_seq *scratch,
		    struct vt_pb *pb, struct tep_record *record,
		    struct vt_pf_counter counters[PF_COUNTERS_MAX]);

/**
 * vt_pf_translator_release - release what a translator holds
 * @tr: the translator
 */
void vt_pf_translator_release(struct vt_pf_translator *tr);

#endif /* _VTRACE_PERFETTO_TRANSLATE_H */
