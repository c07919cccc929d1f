/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Perfetto TraceConfig: what of it vtrace honours, read from text format
 * or binary form and checked before anything in tracefs changes, and
 * written back as text for "perfetto --txt -c".
 */
#ifndef _VTRACE_TRACE_CONFIG_H
#define _VTRACE_TRACE_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <vtrace/diag.h>
#include <vtrace/proto-msg.h>
#include <vtrace/fill-policy.h>
#include <vtrace/probes.h>

/* The schema: every field of the messages vtrace reads. */
extern const struct vtrace_pb_message vtrace_trace_config_schema;

/* Largest config file read. */
#define VTRACE_TRACE_CONFIG_MAX_FILE (4 << 20)

/* The only data source vtrace records. */
#define VTRACE_FTRACE_DATA_SOURCE "linux.ftrace"

enum vtrace_config_format {
	VTRACE_CONFIG_AUTO, /* binary when vt_proto_is_binary() says so */
	VTRACE_CONFIG_TEXT,
	VTRACE_CONFIG_BINARY,
};

/**
 * struct vtrace_tc_string - a string from the config and where it was
 * @str: the value (owned)
 * @line: its field's line, 0 for binary input or a value not from a file
 * @column: its column (binary input: byte offset plus 1; 0 with @line 0:
 *	the value is not from a file but from the command line)
 */
struct vtrace_tc_string {
	char *str;
	unsigned int line;
	unsigned int column;
};

/**
 * struct vtrace_tc_strings - a repeated string field
 * @items: values in config order
 * @nr: how many
 */
struct vtrace_tc_strings {
	struct vtrace_tc_string *items;
	size_t nr;
};

/**
 * struct vtrace_tc_option - one FtraceConfig.tracefs_options entry
 * @name: the option, a file under options/
 * @enabled: the state asked for
 */
struct vtrace_tc_option {
	struct vtrace_tc_string name;
	bool enabled;
};

/**
 * struct vtrace_trace_config - the fields vtrace honours
 * @file: config file name, for messages (owned)
 * @has_buffer: a buffer is the linux.ftrace data source's target
 * @buffer_index: its index in the config's buffers
 * @buffer_size_kb: that buffer's size_kb
 * @fill_policy: and its fill_policy: %VTRACE_FILL_RING_BUFFER (also for
 *	UNSPECIFIED, as in Perfetto) or %VTRACE_FILL_DISCARD
 * @duration_ms: 0 for "until stopped"; a config file's is a uint32, the
 *	command line's may be longer
 * @write_into_file: stream into the output during the recording
 * @file_write_period_ms: longest wait between two writes, 0 for default
 * @max_file_size_bytes: stop when the output reaches this size, 0: no limit
 * @output_path: output file or NULL
 * @unique_session_name: session name or NULL
 * @has_exclusive_prio: exclusive_prio was given
 * @exclusive_prio: its value
 * @has_ftrace: a linux.ftrace data source with an ftrace_config is present
 * @ftrace_events: "group/event", "event" alone, or "group/" and "*" for a
 *	whole group
 * @atrace_categories: standard or vendor atrace categories
 * @atrace_apps: applications whose userspace atrace events are wanted
 * @ftrace_buffer_size_kb: per-CPU kernel buffer size, 0 to leave it
 * @drain_period_ms: longest wait between two reads of the kernel buffers,
 *	0 for default
 * @instance_name: tracefs instance, NULL for the top-level one
 * @symbolize_ksyms: kernel symbols wanted in the output
 * @tracing_cpumask: hex CPU mask for tracing_cpumask, or NULL
 * @tids: tids_to_trace, for set_event_pid
 * @nr_tids: number of @tids
 * @options: tracefs_options
 * @nr_options: number of @options
 * @probes: the data sources beside ftrace (linux.process_stats,
 *	linux.sys_stats, linux.system_info)
 */
struct vtrace_trace_config {
	char *file;
	bool has_buffer;
	uint32_t buffer_index;
	uint32_t buffer_size_kb;
	enum vtrace_fill_policy fill_policy;
	uint64_t duration_ms;
	bool write_into_file;
	uint32_t file_write_period_ms;
	uint64_t max_file_size_bytes;
	struct vtrace_tc_string output_path;
	struct vtrace_tc_string unique_session_name;
	bool has_exclusive_prio;
	uint32_t exclusive_prio;

	bool has_ftrace;
	struct vtrace_tc_strings ftrace_events;
	struct vtrace_tc_strings atrace_categories;
	struct vtrace_tc_strings atrace_apps;
	uint32_t ftrace_buffer_size_kb;
	uint32_t drain_period_ms;
	struct vtrace_tc_string instance_name;
	bool symbolize_ksyms;
	struct vtrace_tc_string tracing_cpumask;
	uint32_t *tids;
	size_t nr_tids;
	struct vtrace_tc_option *options;
	size_t nr_options;

	struct vtrace_probes_config probes;
};

void vtrace_trace_config_init(struct vtrace_trace_config *tc);
void vtrace_trace_config_free(struct vtrace_trace_config *tc);
int vtrace_trace_config_parse(struct vtrace_trace_config *tc, const char *file,
			      const char *buf, size_t len,
			      enum vtrace_config_format format, bool strict,
			      struct vtrace_diags *diags);
int vtrace_trace_config_load(struct vtrace_trace_config *tc, const char *path,
			     enum vtrace_config_format format, bool strict,
			     struct vtrace_diags *diags);
int vtrace_tc_strings_add(struct vtrace_tc_strings *list, const char *str);
int vtrace_trace_config_override(struct vtrace_trace_config *tc,
				 const struct vtrace_trace_config *cmdline);
int vtrace_trace_config_write(const struct vtrace_trace_config *tc, FILE *out);

#endif /* _VTRACE_TRACE_CONFIG_H */
