// SPDX-License-Identifier: LGPL-2.1
/*
 * A TraceConfig model written back as text format, for "perfetto --txt
 * -c" on a phone and "vtrace record --config" on a board.
 */
#include <errno.h>
#include <stdio.h>

#include <vtrace/trace-config.h>

/* A text-format string literal: printable ASCII as is, the rest octal. */
static void write_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(out, "\\%03o", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

static void write_strings(FILE *out, const char *indent, const char *name,
			  const struct vtrace_tc_strings *list)
{
	size_t i;

	for (i = 0; i < list->nr; i++) {
		fprintf(out, "%s%s: ", indent, name);
		write_string(out, list->items[i].str);
		fputc('\n', out);
	}
}

/**
 * vtrace_trace_config_write - write a config in text format
 * @tc: config; fields at their zero value are left out
 * @out: stream
 *
 * The output is accepted by "perfetto --txt -c" and by
 * vtrace_trace_config_parse(), which reads it back as @tc.
 *
 * Return: 0, or -EIO when writing failed.
 */
int vtrace_trace_config_write(const struct vtrace_trace_config *tc, FILE *out)
{
	static const char in[] = "      ";
	size_t i;

	if (tc->has_buffer) {
		fprintf(out, "buffers {\n  size_kb: %u\n  fill_policy: %s\n}\n",
			tc->buffer_size_kb,
			tc->fill_policy == VTRACE_FILL_DISCARD ? "DISCARD" :
								 "RING_BUFFER");
	}
	fprintf(out,
		"data_sources {\n  config {\n    name: \"%s\"\n"
		"    ftrace_config {\n",
		VTRACE_FTRACE_DATA_SOURCE);
	write_strings(out, in, "ftrace_events", &tc->ftrace_events);
	write_strings(out, in, "atrace_categories", &tc->atrace_categories);
	write_strings(out, in, "atrace_apps", &tc->atrace_apps);
	if (tc->ftrace_buffer_size_kb)
		fprintf(out, "%sbuffer_size_kb: %u\n", in,
			tc->ftrace_buffer_size_kb);
	if (tc->drain_period_ms)
		fprintf(out, "%sdrain_period_ms: %u\n", in,
			tc->drain_period_ms);
	if (tc->instance_name.str) {
		fprintf(out, "%sinstance_name: ", in);
		write_string(out, tc->instance_name.str);
		fputc('\n', out);
	}
	if (tc->symbolize_ksyms)
		fprintf(out, "%ssymbolize_ksyms: true\n", in);
	if (tc->tracing_cpumask.str) {
		fprintf(out, "%stracing_cpumask: ", in);
		write_string(out, tc->tracing_cpumask.str);
		fputc('\n', out);
	}
	for (i = 0; i < tc->nr_tids; i++)
		fprintf(out, "%stids_to_trace: %u\n", in, tc->tids[i]);
	for (i = 0; i < tc->nr_options; i++) {
		fprintf(out, "%stracefs_options {\n%s  name: ", in, in);
		write_string(out, tc->options[i].name.str);
		fprintf(out, "\n%s  state: %s\n%s}\n", in,
			tc->options[i].enabled ? "STATE_ENABLED" :
						 "STATE_DISABLED",
			in);
	}
	fprintf(out, "    }\n  }\n}\n");
	if (tc->duration_ms)
		fprintf(out, "duration_ms: %llu\n",
			(unsigned long long)tc->duration_ms);
	if (tc->write_into_file)
		fprintf(out, "write_into_file: true\n");
	if (tc->file_write_period_ms)
		fprintf(out, "file_write_period_ms: %u\n",
			tc->file_write_period_ms);
	if (tc->max_file_size_bytes)
		fprintf(out, "max_file_size_bytes: %llu\n",
			(unsigned long long)tc->max_file_size_bytes);
	if (tc->output_path.str) {
		fprintf(out, "output_path: ");
		write_string(out, tc->output_path.str);
		fputc('\n', out);
	}
	if (tc->unique_session_name.str) {
		fprintf(out, "unique_session_name: ");
		write_string(out, tc->unique_session_name.str);
		fputc('\n', out);
	}
	if (tc->has_exclusive_prio)
		fprintf(out, "exclusive_prio: %u\n", tc->exclusive_prio);
	return ferror(out) ? -EIO : 0;
}
