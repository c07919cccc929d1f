// SPDX-License-Identifier: LGPL-2.1
/*
 * Perfetto TraceConfig, as vtrace honours it.
 *
 * A config is read in two steps: the text or binary reader turns it into a
 * tree against the schema (unknown fields, wrong types and out-of-range
 * values stop there, as errors), then this file keeps what vtrace honours
 * and checks each value, so that a config is refused before anything in
 * tracefs changes. What vtrace cannot honour is never dropped silently:
 * each field is named in a warning (an error in strict mode), and each
 * data source other than linux.ftrace once, at its name.
 *
 * The mapping onto the recording is in Documentation/vtrace-config.rst;
 * the text writer is trace-config-write.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <vtrace/event-name.h>
#include "config/pbtxt.h"
#include "config/proto-decode.h"
#include <vtrace/trace-config.h>

#include <vtrace/file-io.h>

/* Linux's PID_MAX_LIMIT: no tid is larger. */
#define TID_MAX (4 * 1024 * 1024)
/* A tracing_cpumask for 8192 CPUs, with commas. */
#define CPUMASK_MAX_LEN 2304

struct builder {
	struct vtrace_trace_config *tc;
	struct vtrace_diags *diags;
	bool strict;
	int err; /* -ENOMEM, the only failure that stops the walk */
};

static void vreport(struct builder *b, const struct vtrace_pb_value *v,
		    enum vtrace_severity sev, const char *fmt, va_list ap)
{
	char msg[512];
	int ret;

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (v && !v->line && v->column)
		ret = vtrace_diag_add(b->diags, b->tc->file, 0, 0, sev,
				      "byte %u: %s", v->column - 1, msg);
	else
		ret = vtrace_diag_add(b->diags, b->tc->file, v ? v->line : 0,
				      v ? v->column : 0, sev, "%s", msg);
	if (ret)
		b->err = ret;
}

static void error(struct builder *b, const struct vtrace_pb_value *v,
		  const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void error(struct builder *b, const struct vtrace_pb_value *v,
		  const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(b, v, VTRACE_ERROR, fmt, ap);
	va_end(ap);
}

/* Something vtrace cannot honour: a warning, or an error when strict. */
static void unhonoured(struct builder *b, const struct vtrace_pb_value *v,
		       const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void unhonoured(struct builder *b, const struct vtrace_pb_value *v,
		       const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(b, v, b->strict ? VTRACE_ERROR : VTRACE_WARNING, fmt, ap);
	va_end(ap);
}

static void field_unhonoured(struct builder *b, const struct vtrace_pb_value *v,
			     const struct vtrace_pb_msg *msg)
{
	unhonoured(b, v, "field '%s.%s' is not honoured by vtrace%s",
		   msg->type->name, v->field->name,
		   b->strict ? "" : " (ignored)");
}

static bool is(const struct vtrace_pb_value *v, const char *name)
{
	return !strcmp(v->field->name, name);
}

/*
 * A string value as owned copy with its position; strings with a NUL byte
 * (from an escape, or binary input) are refused.
 */
static bool take_string(struct builder *b, const struct vtrace_pb_value *v,
			struct vtrace_tc_string *out)
{
	if (strlen(v->str) != v->len) {
		error(b, v, "field '%s' contains a NUL byte", v->field->name);
		return false;
	}
	free(out->str);
	out->str = strdup(v->str);
	if (!out->str) {
		b->err = -ENOMEM;
		return false;
	}
	out->line = v->line;
	out->column = v->column;
	return true;
}

static bool take_list_item(struct builder *b, const struct vtrace_pb_value *v,
			   struct vtrace_tc_strings *list)
{
	struct vtrace_tc_string *grown;

	grown = realloc(list->items, (list->nr + 1) * sizeof(*grown));
	if (!grown) {
		b->err = -ENOMEM;
		return false;
	}
	list->items = grown;
	memset(&grown[list->nr], 0, sizeof(*grown));
	if (!take_string(b, v, &grown[list->nr]))
		return false;
	list->nr++;
	return true;
}

/* Printable ASCII without blanks: session, app and category names. */
static bool is_plain(const char *s, size_t max)
{
	size_t n;

	for (n = 0; s[n]; n++)
		if (s[n] <= ' ' || s[n] >= 0x7f || n >= max)
			return false;
	return n > 0;
}

/*
 * "group/event", "group/" followed by "*" for every event of the group, or
 * a bare event name, which is looked up in tracefs when recording.
 */
static void check_ftrace_event(struct builder *b,
			       const struct vtrace_pb_value *v)
{
	char name[2 * VTRACE_EVENT_PART_MAX + 4];
	struct vtrace_name_error nerr;
	const char *slash;
	size_t len;

	if (v->len > 2 * VTRACE_EVENT_PART_MAX + 1) {
		error(b, v,
		      "bad event '%.40s...' in ftrace_events: longer than %d characters",
		      v->str, 2 * VTRACE_EVENT_PART_MAX + 1);
		return;
	}
	slash = strchr(v->str, '/');
	if (slash)
		len = snprintf(name, sizeof(name), "%s", v->str);
	else
		len = snprintf(name, sizeof(name), "x/%s", v->str);
	if (slash && !strcmp(slash, "/*"))
		name[len - 1] = 'x';
	if (vtrace_event_name_check(name, len, &nerr))
		error(b, v, "bad event '%s' in ftrace_events: %s", v->str,
		      nerr.reason);
	else
		take_list_item(b, v, &b->tc->ftrace_events);
}

static void check_cpumask(struct builder *b, const struct vtrace_pb_value *v)
{
	size_t i, digits = 0;

	for (i = 0; i < v->len; i++) {
		char c = v->str[i];

		if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
		    (c >= 'A' && c <= 'F'))
			digits++;
		else if (c != ',' || !i || v->str[i - 1] == ',')
			break;
	}
	if (i < v->len || !digits || v->len > CPUMASK_MAX_LEN ||
	    v->str[v->len - 1] == ',') {
		error(b, v,
		      "bad tracing_cpumask '%.64s': hex digits in comma-separated groups expected, e.g. \"3\" or \"ff,ffffffff\"",
		      v->str);
		return;
	}
	take_string(b, v, &b->tc->tracing_cpumask);
}

static void add_tid(struct builder *b, const struct vtrace_pb_value *v)
{
	uint32_t *grown;

	if (!v->u || v->u > TID_MAX) {
		error(b, v, "tids_to_trace value %llu out of range (1 to %d)",
		      (unsigned long long)v->u, TID_MAX);
		return;
	}
	grown = realloc(b->tc->tids, (b->tc->nr_tids + 1) * sizeof(*grown));
	if (!grown) {
		b->err = -ENOMEM;
		return;
	}
	b->tc->tids = grown;
	grown[b->tc->nr_tids++] = v->u;
}

static void add_option(struct builder *b, const struct vtrace_pb_value *opt)
{
	const struct vtrace_pb_value *name = NULL, *state = NULL;
	struct vtrace_tc_option *grown, *o;
	struct vtrace_name_error nerr;
	size_t i;

	for (i = 0; i < opt->msg->nr; i++) {
		if (is(&opt->msg->values[i], "name"))
			name = &opt->msg->values[i];
		else
			state = &opt->msg->values[i];
	}
	if (!name) {
		error(b, opt, "tracefs_options entry without a name");
		return;
	}
	if (strlen(name->str) != name->len ||
	    vtrace_instance_name_check(name->str, &nerr) ||
	    strchr(name->str, '.')) {
		error(b, name, "bad tracefs option name '%s'", name->str);
		return;
	}
	if (!state || state->i == 0) {
		error(b, name,
		      "tracefs option '%s' needs a state: STATE_ENABLED or STATE_DISABLED",
		      name->str);
		return;
	}
	grown = realloc(b->tc->options,
			(b->tc->nr_options + 1) * sizeof(*grown));
	if (!grown) {
		b->err = -ENOMEM;
		return;
	}
	b->tc->options = grown;
	o = &grown[b->tc->nr_options];
	memset(o, 0, sizeof(*o));
	if (!take_string(b, name, &o->name))
		return;
	o->enabled = state->i == 1;
	b->tc->nr_options++;
}

static void build_ftrace(struct builder *b, const struct vtrace_pb_msg *msg)
{
	struct vtrace_trace_config *tc = b->tc;
	struct vtrace_name_error nerr;
	size_t i;

	tc->has_ftrace = true;
	for (i = 0; i < msg->nr && !b->err; i++) {
		const struct vtrace_pb_value *v = &msg->values[i];

		if (is(v, "ftrace_events")) {
			check_ftrace_event(b, v);
		} else if (is(v, "atrace_categories")) {
			if (!is_plain(v->str, VTRACE_EVENT_PART_MAX) ||
			    strlen(v->str) != v->len)
				error(b, v, "bad atrace category '%.64s'",
				      v->str);
			else
				take_list_item(b, v, &tc->atrace_categories);
		} else if (is(v, "atrace_apps")) {
			if (!is_plain(v->str, 1024) || strlen(v->str) != v->len)
				error(b, v, "bad atrace app '%.64s'", v->str);
			else
				take_list_item(b, v, &tc->atrace_apps);
		} else if (is(v, "buffer_size_kb")) {
			tc->ftrace_buffer_size_kb = v->u;
		} else if (is(v, "drain_period_ms")) {
			tc->drain_period_ms = v->u;
		} else if (is(v, "instance_name")) {
			if (strlen(v->str) != v->len ||
			    vtrace_instance_name_check(v->str, &nerr))
				error(b, v, "bad instance_name '%.64s': %s",
				      v->str,
				      strlen(v->str) != v->len ?
					      "contains a NUL byte" :
					      nerr.reason);
			else
				take_string(b, v, &tc->instance_name);
		} else if (is(v, "symbolize_ksyms")) {
			tc->symbolize_ksyms = v->u;
		} else if (is(v, "tracing_cpumask")) {
			check_cpumask(b, v);
		} else if (is(v, "tids_to_trace")) {
			add_tid(b, v);
		} else if (is(v, "tracefs_options")) {
			add_option(b, v);
		} else {
			field_unhonoured(b, v, msg);
		}
	}
}

/* The first occurrence of field @name of @m, or NULL. */
static const struct vtrace_pb_value *find_named(const struct vtrace_pb_msg *m,
						const char *name)
{
	const struct vtrace_pb_field *f;

	f = vtrace_pb_field_by_name(m->type, name, strlen(name));
	return vtrace_pb_msg_find(m, f);
}

/* The DataSourceConfig of a DataSource, or NULL. */
static const struct vtrace_pb_msg *
source_config(const struct vtrace_pb_value *ds)
{
	const struct vtrace_pb_value *v = find_named(ds->msg, "config");

	return v ? v->msg : NULL;
}

static void warn(struct builder *b, const struct vtrace_pb_value *v,
		 const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void warn(struct builder *b, const struct vtrace_pb_value *v,
		 const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(b, v, VTRACE_WARNING, fmt, ap);
	va_end(ap);
}

/* A period below @min_ms is raised to it, as traced_probes does. */
static uint32_t period_at_least(struct builder *b,
				const struct vtrace_pb_value *v,
				uint32_t min_ms)
{
	if (!v->u || v->u >= min_ms)
		return v->u;
	warn(b, v,
	     "%s: %llu ms is below the shortest period, %u ms: raised to it, as Perfetto does",
	     v->field->name, (unsigned long long)v->u, min_ms);
	return min_ms;
}

static void build_process_stats(struct builder *b,
				const struct vtrace_pb_msg *msg)
{
	struct vtrace_process_stats *ps = &b->tc->probes.process_stats;
	size_t i;

	for (i = 0; i < msg->nr; i++) {
		const struct vtrace_pb_value *v = &msg->values[i];

		if (is(v, "scan_all_processes_on_start"))
			ps->scan_all_processes_on_start = v->u;
		else if (is(v, "record_thread_names"))
			ps->record_thread_names = v->u;
		else if (is(v, "proc_stats_poll_ms"))
			ps->poll_ms = period_at_least(
				b, v, VTRACE_PROC_STATS_MIN_POLL_MS);
		else if (is(v, "record_process_runtime"))
			ps->record_process_runtime = v->u;
		else if (is(v, "quirks") && v->i == 2)
			ps->on_demand = false;
		/* DISABLE_INITIAL_DUMP is deprecated: Perfetto ignores it. */
		else if (!is(v, "quirks"))
			field_unhonoured(b, v, msg);
	}
}

/* The kind a "<kind>_period_ms" field of SysStatsConfig sets, or -1. */
static int sys_stats_kind_of(const char *field)
{
	size_t len = strlen(field) - strlen("_period_ms");
	enum vtrace_sys_stats_kind kind;
	char name[32];

	if (strlen(field) <= strlen("_period_ms") || len >= sizeof(name) ||
	    strcmp(field + len, "_period_ms"))
		return -1;
	memcpy(name, field, len);
	name[len] = '\0';
	return vtrace_sys_stats_kind_parse(name, &kind) ? -1 : (int)kind;
}

static void build_sys_stats(struct builder *b, const struct vtrace_pb_msg *msg)
{
	struct vtrace_sys_stats *ss = &b->tc->probes.sys_stats;
	uint64_t vmstat_given = 0;
	unsigned int n;
	size_t i;
	int kind;

	for (i = 0; i < msg->nr; i++) {
		const struct vtrace_pb_value *v = &msg->values[i];

		kind = sys_stats_kind_of(v->field->name);
		if (kind >= 0) {
			ss->period_ms[kind] = period_at_least(
				b, v, VTRACE_SYS_STATS_MIN_PERIOD_MS);
		} else if (is(v, "meminfo_counters")) {
			if (v->i > 0 && v->i <= VTRACE_MEMINFO_MAX)
				ss->meminfo |= 1ull << v->i;
		} else if (is(v, "vmstat_counters")) {
			n = v->i;
			if (v->i > 0 && n <= VTRACE_VMSTAT_MAX)
				ss->vmstat[n / 64] |= 1ull << (n % 64);
			vmstat_given = 1;
		} else if (is(v, "stat_counters")) {
			if (v->i > 0 && v->i < 32)
				ss->stat_counters |= 1u << v->i;
		} else {
			field_unhonoured(b, v, msg);
		}
	}
	/* No counters named: all of them, as Perfetto reads it. */
	if (!ss->meminfo)
		ss->meminfo = ~0ull >> (63 - VTRACE_MEMINFO_MAX) & ~1ull;
	if (!vmstat_given)
		for (n = 1; n <= VTRACE_VMSTAT_MAX; n++)
			ss->vmstat[n / 64] |= 1ull << (n % 64);
	if (!ss->stat_counters)
		ss->stat_counters = VTRACE_STAT_ALL;
}

static void build_system_info(struct builder *b,
			      const struct vtrace_pb_msg *msg)
{
	size_t i;

	for (i = 0; i < msg->nr; i++)
		field_unhonoured(b, &msg->values[i], msg);
}

/**
 * struct source - a data source vtrace records
 * @name: its name in a config
 * @config: the name of its DataSourceConfig field
 * @build: reads that field
 */
struct source {
	const char *name;
	const char *config;
	void (*build)(struct builder *b, const struct vtrace_pb_msg *msg);
};

static const struct source sources[] = {
	{ VTRACE_FTRACE_DATA_SOURCE, "ftrace_config", build_ftrace },
	{ VTRACE_PROCESS_STATS_DATA_SOURCE, "process_stats_config",
	  build_process_stats },
	{ VTRACE_SYS_STATS_DATA_SOURCE, "sys_stats_config", build_sys_stats },
	{ VTRACE_SYSTEM_INFO_DATA_SOURCE, "system_info_config",
	  build_system_info },
};

#define NR_SOURCES (sizeof(sources) / sizeof(sources[0]))

/*
 * Take the first data source of each name vtrace records; warn about
 * every other one. Return: each one's target_buffer value or NULL, in
 * @target (indexed as sources[]).
 */
static void build_data_sources(struct builder *b,
			       const struct vtrace_pb_msg *root,
			       const struct vtrace_pb_value **target)
{
	const struct vtrace_pb_value *name, *ds;
	const struct vtrace_pb_msg *cfg;
	bool taken[NR_SOURCES] = { false };
	const struct source *src;
	size_t i, j, k;

	for (k = 0; k < NR_SOURCES; k++)
		target[k] = NULL;
	for (i = 0; i < root->nr && !b->err; i++) {
		ds = &root->values[i];
		if (!is(ds, "data_sources"))
			continue;
		cfg = source_config(ds);
		name = cfg ? find_named(cfg, "name") : NULL;
		if (!name) {
			unhonoured(b, ds, "data source without a config name%s",
				   b->strict ? "" : " (ignored)");
			continue;
		}
		for (k = 0; k < NR_SOURCES; k++)
			if (!strcmp(name->str, sources[k].name) &&
			    strlen(name->str) == name->len)
				break;
		if (k == NR_SOURCES) {
			unhonoured(
				b, name,
				"data source '%.64s' has no meaning on a Linux board%s: vtrace records linux.ftrace, linux.process_stats, linux.sys_stats and linux.system_info",
				name->str, b->strict ? "" : " (ignored)");
			continue;
		}
		src = &sources[k];
		if (taken[k]) {
			unhonoured(
				b, name,
				"a second %s data source: vtrace records one%s",
				src->name, b->strict ? "" : " (ignored)");
			continue;
		}
		taken[k] = true;
		/* A source without its config message still runs. */
		if (src->build == build_process_stats) {
			b->tc->probes.process_stats.enabled = true;
			b->tc->probes.process_stats.on_demand = true;
		} else if (src->build == build_sys_stats) {
			b->tc->probes.sys_stats.enabled = true;
		} else if (src->build == build_system_info) {
			b->tc->probes.system_info = true;
		}
		for (j = 0; j < ds->msg->nr; j++)
			if (!is(&ds->msg->values[j], "config"))
				field_unhonoured(b, &ds->msg->values[j],
						 ds->msg);
		for (j = 0; j < cfg->nr && !b->err; j++) {
			const struct vtrace_pb_value *v = &cfg->values[j];

			if (is(v, "name"))
				continue;
			if (is(v, "target_buffer"))
				target[k] = v;
			else if (is(v, src->config))
				src->build(b, v->msg);
			else
				field_unhonoured(b, v, cfg);
		}
	}
}

static void build_buffer(struct builder *b, const struct vtrace_pb_value *bv)
{
	const struct vtrace_pb_msg *buf = bv->msg;
	size_t i;

	b->tc->has_buffer = true;
	b->tc->fill_policy = VTRACE_FILL_RING_BUFFER;
	for (i = 0; i < buf->nr; i++) {
		const struct vtrace_pb_value *v = &buf->values[i];

		if (is(v, "size_kb")) {
			if (!v->u)
				error(b, v,
				      "buffers.size_kb must be at least 1");
			b->tc->buffer_size_kb = v->u;
		} else if (is(v, "fill_policy")) {
			b->tc->fill_policy = v->i == 2 ?
						     VTRACE_FILL_DISCARD :
						     VTRACE_FILL_RING_BUFFER;
		} else {
			field_unhonoured(b, v, buf);
		}
	}
	if (!find_named(buf, "size_kb"))
		error(b, bv,
		      "the buffer linux.ftrace writes into has no size_kb");
}

/* The trace buffer of each data source beside ftrace, as sources[]. */
static struct vtrace_probe_buffer *probe_buffer(struct vtrace_trace_config *tc,
						size_t k)
{
	switch (k) {
	case 1:
		return tc->probes.process_stats.enabled ?
			       &tc->probes.process_stats.buffer :
			       NULL;
	case 2:
		return tc->probes.sys_stats.enabled ?
			       &tc->probes.sys_stats.buffer :
			       NULL;
	case 3:
		return tc->probes.system_info ? &tc->probes.system_info_buffer :
						NULL;
	}
	return NULL;
}

static void set_probe_buffer(struct vtrace_probe_buffer *pb, uint32_t index,
			     const struct vtrace_pb_msg *buf)
{
	const struct vtrace_pb_value *v;

	pb->index = index;
	v = find_named(buf, "size_kb");
	pb->size_kb = v ? v->u : 0;
	v = find_named(buf, "fill_policy");
	pb->fill_policy = v && v->i == 2 ? VTRACE_FILL_DISCARD :
					   VTRACE_FILL_RING_BUFFER;
	if (!pb->size_kb)
		pb->fill_policy = VTRACE_FILL_STREAM;
}

static void build_buffers(struct builder *b, const struct vtrace_pb_msg *root,
			  const struct vtrace_pb_value *const *target)
{
	uint64_t want[NR_SOURCES];
	bool used;
	size_t i, k, n = 0;

	for (i = 0; i < root->nr; i++)
		n += is(&root->values[i], "buffers");
	for (k = 0; k < NR_SOURCES; k++) {
		want[k] = target[k] ? target[k]->u : 0;
		if (target[k] && want[k] >= n) {
			error(b, target[k],
			      "target_buffer %llu names no buffer (%zu given)",
			      (unsigned long long)want[k], n);
			return;
		}
	}
	n = 0;
	for (i = 0; i < root->nr && !b->err; i++) {
		const struct vtrace_pb_value *v = &root->values[i];

		if (!is(v, "buffers"))
			continue;
		used = false;
		for (k = 1; k < NR_SOURCES; k++) {
			if (want[k] != n || !probe_buffer(b->tc, k))
				continue;
			set_probe_buffer(probe_buffer(b->tc, k), n, v->msg);
			used = true;
		}
		if (n == want[0]) {
			b->tc->buffer_index = n;
			build_buffer(b, v);
		} else if (b->tc->has_ftrace && !used) {
			unhonoured(
				b, v,
				"buffers[%zu] is the target of no data source vtrace records%s",
				n, b->strict ? "" : " (ignored)");
		}
		n++;
	}
}

static void build(struct builder *b, const struct vtrace_pb_msg *root)
{
	struct vtrace_trace_config *tc = b->tc;
	const struct vtrace_pb_value *target[NR_SOURCES];
	size_t i, k;

	build_data_sources(b, root, target);
	if (!b->err)
		build_buffers(b, root, target);
	for (i = 0; i < root->nr && !b->err; i++) {
		const struct vtrace_pb_value *v = &root->values[i];

		if (is(v, "buffers") || is(v, "data_sources"))
			continue;
		if (is(v, "duration_ms")) {
			tc->duration_ms = v->u;
		} else if (is(v, "write_into_file")) {
			tc->write_into_file = v->u;
		} else if (is(v, "file_write_period_ms")) {
			tc->file_write_period_ms = v->u;
		} else if (is(v, "max_file_size_bytes")) {
			tc->max_file_size_bytes = v->u;
		} else if (is(v, "output_path")) {
			if (!v->len)
				error(b, v, "output_path is empty");
			else
				take_string(b, v, &tc->output_path);
		} else if (is(v, "unique_session_name")) {
			if (!is_plain(v->str, 128) || strlen(v->str) != v->len)
				error(b, v,
				      "bad unique_session_name '%.64s': 1 to 128 printable characters without blanks",
				      v->str);
			else
				take_string(b, v, &tc->unique_session_name);
		} else if (is(v, "exclusive_prio")) {
			tc->has_exclusive_prio = true;
			tc->exclusive_prio = v->u;
		} else {
			field_unhonoured(b, v, root);
		}
	}
	/* Streamed into the file: every packet is kept, as Perfetto does. */
	for (k = 1; k < NR_SOURCES && tc->write_into_file; k++)
		if (probe_buffer(tc, k))
			probe_buffer(tc, k)->fill_policy = VTRACE_FILL_STREAM;
	if (!b->err && !tc->has_ftrace)
		error(b, NULL,
		      "no linux.ftrace data source with an ftrace_config: nothing vtrace can record");
}

/*
 * The builder reports in the order it looks at things; put its findings in
 * file order (stable, and they are few).
 */
static void sort_diags(struct vtrace_diags *diags, size_t from)
{
	size_t i, j;

	for (i = from + 1; i < diags->nr; i++) {
		struct vtrace_diag d = diags->items[i];

		for (j = i; j > from; j--) {
			const struct vtrace_diag *prev = &diags->items[j - 1];

			if (prev->line < d.line ||
			    (prev->line == d.line && prev->column <= d.column))
				break;
			diags->items[j] = *prev;
		}
		diags->items[j] = d;
	}
}

/**
 * vtrace_trace_config_init - start an empty config
 * @tc: config to initialise
 */
void vtrace_trace_config_init(struct vtrace_trace_config *tc)
{
	memset(tc, 0, sizeof(*tc));
}

static void strings_free(struct vtrace_tc_strings *list)
{
	size_t i;

	for (i = 0; i < list->nr; i++)
		free(list->items[i].str);
	free(list->items);
}

/**
 * vtrace_trace_config_free - free what a config holds
 * @tc: config (stays initialised, empty)
 */
void vtrace_trace_config_free(struct vtrace_trace_config *tc)
{
	size_t i;

	free(tc->file);
	free(tc->output_path.str);
	free(tc->unique_session_name.str);
	strings_free(&tc->ftrace_events);
	strings_free(&tc->atrace_categories);
	strings_free(&tc->atrace_apps);
	free(tc->instance_name.str);
	free(tc->tracing_cpumask.str);
	free(tc->tids);
	for (i = 0; i < tc->nr_options; i++)
		free(tc->options[i].name.str);
	free(tc->options);
	vtrace_trace_config_init(tc);
}

/**
 * vtrace_tc_strings_add - append a string not from a file
 * @list: repeated field
 * @str: value, copied
 *
 * Return: 0 or -ENOMEM.
 */
int vtrace_tc_strings_add(struct vtrace_tc_strings *list, const char *str)
{
	struct vtrace_tc_string *grown;

	grown = realloc(list->items, (list->nr + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	list->items = grown;
	grown[list->nr] = (struct vtrace_tc_string){ .str = strdup(str) };
	if (!grown[list->nr].str)
		return -ENOMEM;
	list->nr++;
	return 0;
}

/* Replace @dst by a copy of @src, when @src is given. */
static int override_string(struct vtrace_tc_string *dst,
			   const struct vtrace_tc_string *src)
{
	char *copy;

	if (!src->str)
		return 0;
	copy = strdup(src->str);
	if (!copy)
		return -ENOMEM;
	free(dst->str);
	*dst = *src;
	dst->str = copy;
	return 0;
}

static int append_strings(struct vtrace_tc_strings *dst,
			  const struct vtrace_tc_strings *src)
{
	size_t i;

	for (i = 0; i < src->nr; i++)
		if (vtrace_tc_strings_add(dst, src->items[i].str))
			return -ENOMEM;
	return 0;
}

/*
 * --poll and --process-tree over a config: the periods given replace the
 * config's, the process tree is added; a source the config lacked shares
 * the buffer of the config's other one, or streams into the file.
 */
static void override_probes(struct vtrace_probes_config *p,
			    const struct vtrace_probes_config *cmdline)
{
	const struct vtrace_sys_stats *css = &cmdline->sys_stats;
	struct vtrace_sys_stats *ss = &p->sys_stats;
	struct vtrace_probe_buffer buffer =
		ss->enabled ? ss->buffer : p->process_stats.buffer;
	int k;

	if (cmdline->process_stats.enabled && !p->process_stats.enabled) {
		p->process_stats = cmdline->process_stats;
		p->process_stats.buffer = buffer;
	} else if (cmdline->process_stats.enabled) {
		p->process_stats.scan_all_processes_on_start = true;
		p->process_stats.record_thread_names = true;
	}
	if (!css->enabled)
		return;
	if (!ss->enabled) {
		*ss = *css;
		ss->buffer = buffer;
		return;
	}
	for (k = 0; k < VTRACE_SYS_NR; k++)
		if (css->period_ms[k])
			ss->period_ms[k] = css->period_ms[k];
}

/**
 * vtrace_trace_config_override - put command-line values over a config's
 * @tc: a config read from a file
 * @cmdline: what the command line gives, in the same model (as
 *	perfetto_cmd turns its flags into a TraceConfig)
 *
 * Each value @cmdline gives replaces the file's: output, duration, kernel
 * buffer size, instance, session name, exclusive priority, the periods of
 * --poll. Categories, events and --process-tree add to the file's; theirs
 * carry no position, which is how the recording tells them from the
 * file's.
 *
 * Return: 0 or -ENOMEM.
 */
int vtrace_trace_config_override(struct vtrace_trace_config *tc,
				 const struct vtrace_trace_config *cmdline)
{
	if (override_string(&tc->output_path, &cmdline->output_path) ||
	    override_string(&tc->instance_name, &cmdline->instance_name) ||
	    override_string(&tc->unique_session_name,
			    &cmdline->unique_session_name) ||
	    append_strings(&tc->atrace_categories,
			   &cmdline->atrace_categories) ||
	    append_strings(&tc->ftrace_events, &cmdline->ftrace_events))
		return -ENOMEM;
	if (cmdline->duration_ms)
		tc->duration_ms = cmdline->duration_ms;
	if (cmdline->ftrace_buffer_size_kb)
		tc->ftrace_buffer_size_kb = cmdline->ftrace_buffer_size_kb;
	if (cmdline->has_exclusive_prio) {
		tc->has_exclusive_prio = true;
		tc->exclusive_prio = cmdline->exclusive_prio;
	}
	override_probes(&tc->probes, &cmdline->probes);
	return 0;
}

/**
 * vtrace_trace_config_parse - read and check a TraceConfig
 * @tc: initialised, empty config to fill in
 * @file: file name for messages
 * @buf: the config, text format or binary form
 * @len: its length
 * @format: which form, or VTRACE_CONFIG_AUTO to tell by content
 * @strict: what vtrace cannot honour is an error, not a warning
 * @diags: errors and warnings, at their line and column (binary input:
 *	at their byte offset)
 *
 * Return: 0, -EINVAL when the config has an error (@tc is then empty), or
 * -ENOMEM.
 */
int vtrace_trace_config_parse(struct vtrace_trace_config *tc, const char *file,
			      const char *buf, size_t len,
			      enum vtrace_config_format format, bool strict,
			      struct vtrace_diags *diags)
{
	struct builder b = { .tc = tc, .diags = diags, .strict = strict };
	size_t errors = diags->nr_errors, first = diags->nr;
	struct vtrace_pb_msg *root;
	int ret;

	tc->file = strdup(file);
	if (!tc->file)
		return -ENOMEM;
	if (format == VTRACE_CONFIG_BINARY ||
	    (format == VTRACE_CONFIG_AUTO && vt_proto_is_binary(buf, len)))
		ret = vt_proto_decode(&vtrace_trace_config_schema, file, buf,
				      len, &root, diags);
	else
		ret = vt_pbtxt_parse(&vtrace_trace_config_schema, file, buf,
				     len, &root, diags);
	if (!ret) {
		build(&b, root);
		vtrace_pb_msg_free(root);
		sort_diags(diags, first);
		ret = b.err;
		if (!ret && diags->nr_errors > errors)
			ret = -EINVAL;
	}
	if (ret)
		vtrace_trace_config_free(tc);
	return ret;
}

/**
 * vtrace_trace_config_load - read and check a TraceConfig file
 * @tc: initialised, empty config to fill in
 * @path: file to read ("-" for standard input)
 * @format: see vtrace_trace_config_parse()
 * @strict: see vtrace_trace_config_parse()
 * @diags: findings; a file that cannot be read is one error about it
 *
 * Return: 0, -EINVAL when the config has an error, -EFBIG for a file over
 * VTRACE_TRACE_CONFIG_MAX_FILE, the -errno of reading it, or -ENOMEM.
 */
int vtrace_trace_config_load(struct vtrace_trace_config *tc, const char *path,
			     enum vtrace_config_format format, bool strict,
			     struct vtrace_diags *diags)
{
	size_t len = 0, alloc = 64 << 10;
	char *buf = NULL, *grown;
	int fd, ret = 0;
	ssize_t n;

	/* "-" is standard input, which may well be a pipe. */
	fd = 0;
	if (strcmp(path, "-"))
		ret = vtrace_input_open(path, &fd);
	if (ret)
		goto report;
	do {
		if (len == alloc || !buf) {
			alloc = buf ? 2 * alloc : alloc;
			grown = realloc(buf, alloc);
			if (!grown) {
				ret = -ENOMEM;
				break;
			}
			buf = grown;
		}
		n = read(fd, buf + len, alloc - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			ret = -errno;
		else
			len += n;
		if (len > VTRACE_TRACE_CONFIG_MAX_FILE)
			ret = -EFBIG;
	} while (!ret && n > 0);
	if (fd)
		close(fd);
	if (!ret)
		ret = vtrace_trace_config_parse(tc, path, buf, len, format,
						strict, diags);
	free(buf);
	if (ret == -EINVAL || ret == -ENOMEM)
		return ret;
report:
	if (ret == -EFBIG)
		vtrace_diag_add(diags, path, 0, 0, VTRACE_ERROR,
				"larger than %d MB: not a trace config",
				VTRACE_TRACE_CONFIG_MAX_FILE >> 20);
	else if (ret)
		vtrace_diag_add(diags, path, 0, 0, VTRACE_ERROR,
				"cannot read: %s", vtrace_input_strerror(ret));
	return ret;
}
