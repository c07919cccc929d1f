// SPDX-License-Identifier: GPL-2.0
/*
 * Builds from the rows of event-table.h, for each vendor event: the export
 * of its tracepoint, a function that emits it from parsed field values, and
 * its entry in vtrace_events[] (system, name, field descriptors), which
 * emit's parser reads.
 */
#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include <trace/events/mali.h>
#include <trace/events/thermal_exynos.h>

#include "vtrace.h"

static const struct vtrace_emit_value *
vtrace_emit_value(const struct vtrace_event_desc *ev,
		  const struct vtrace_emit_value *values, const char *field)
{
	unsigned int i;

	for (i = 0; i < ev->nr_fields; i++)
		if (!strcmp(ev->fields[i].name, field))
			return &values[i];
	/* Not reached: the field names come from the same row. */
	return &values[0];
}

/*
 * Pass 1: the exports and vtrace_emit_SYSTEM_NAME(), which passes each
 * field's value as the tracepoint argument of that field.
 */
#define VTRACE_INT(type, name)		vtrace_emit_value(ev, v, #name)->num
#define VTRACE_BOOL(name)		vtrace_emit_value(ev, v, #name)->num
#define VTRACE_STR(name)		vtrace_emit_value(ev, v, #name)->str
#define VTRACE_U32S(name, ...)		vtrace_emit_value(ev, v, #name)->ptr
#define VTRACE_U64S(name, ...)		vtrace_emit_value(ev, v, #name)->ptr
#define VTRACE_CPUS(name)		vtrace_emit_value(ev, v, #name)->ptr
#define VTRACE_LEN(type, name, ...)	vtrace_emit_value(ev, v, #name)->num
#define VTRACE_EMIT_FN(export, system, name, ...)			\
	export(name);							\
	static void vtrace_emit_##system##_##name(			\
		const struct vtrace_event_desc *ev,			\
		const struct vtrace_emit_value *v)			\
	{								\
		trace_##name(__VA_ARGS__);				\
	}
/* A shared row's tracepoint is exported by its namesake's row. */
#define VTRACE_NO_EXPORT(name)	extern struct tracepoint __tracepoint_##name
#define VTRACE_EVENT(...)						\
	VTRACE_EMIT_FN(EXPORT_TRACEPOINT_SYMBOL_GPL, __VA_ARGS__)
#define VTRACE_EVENT_SHARED(...)	VTRACE_EMIT_FN(VTRACE_NO_EXPORT, __VA_ARGS__)
#include "event-table.h"
#undef VTRACE_INT
#undef VTRACE_BOOL
#undef VTRACE_STR
#undef VTRACE_U32S
#undef VTRACE_U64S
#undef VTRACE_CPUS
#undef VTRACE_LEN
#undef VTRACE_EVENT
#undef VTRACE_EVENT_SHARED

/* Pass 2: the table, with each event's field descriptors. */
#define VTRACE_INT(type, _n)						\
	{ .name = #_n, .size = sizeof(type),				\
	  .kind = is_signed_type(type) ? VTRACE_FIELD_SINT : VTRACE_FIELD_UINT }
#define VTRACE_BOOL(_n)							\
	{ .name = #_n, .size = 1, .kind = VTRACE_FIELD_BOOL }
#define VTRACE_STR(_n)							\
	{ .name = #_n, .kind = VTRACE_FIELD_STR }
#define VTRACE_U32S(_n, _max)						\
	{ .name = #_n, .size = sizeof(u32), .len = (_max),		\
	  .kind = VTRACE_FIELD_U32S }
#define VTRACE_U64S(_n, _len)						\
	{ .name = #_n, .size = sizeof(u64), .len = (_len),		\
	  .kind = VTRACE_FIELD_U64S }
#define VTRACE_CPUS(_n)							\
	{ .name = #_n, .kind = VTRACE_FIELD_CPUS }
#define VTRACE_LEN(type, _n, _of)					\
	{ .name = #_n, .size = sizeof(type), .of = #_of,		\
	  .kind = VTRACE_FIELD_LEN }
#define VTRACE_EVENT(_system, _name, ...)				\
	{								\
		.system		= #_system,				\
		.name		= #_name,				\
		.fields		= (const struct vtrace_event_field[]) {	\
			__VA_ARGS__					\
		},							\
		.nr_fields	= sizeof((const struct vtrace_event_field[]) { \
			__VA_ARGS__					\
		}) / sizeof(struct vtrace_event_field),			\
		.emit		= vtrace_emit_##_system##_##_name,	\
	},
#define VTRACE_EVENT_SHARED(...)	VTRACE_EVENT(__VA_ARGS__)

const struct vtrace_event_desc vtrace_events[] = {
#include "event-table.h"
};

const unsigned int vtrace_nr_events = ARRAY_SIZE(vtrace_events);
