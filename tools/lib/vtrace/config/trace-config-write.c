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

static const char *const stat_counter_names[] = {
	"STAT_UNSPECIFIED",    "STAT_CPU_TIMES",  "STAT_IRQ_COUNTS",
	"STAT_SOFTIRQ_COUNTS", "STAT_FORK_COUNT",
};

/* The buffers written: the config's, renumbered from 0 in their order. */
#define MAX_BUFFERS 4

struct buffers {
	struct vtrace_probe_buffer list[MAX_BUFFERS];
	unsigned int nr;
};

static void buffer_add(struct buffers *bufs,
		       const struct vtrace_probe_buffer *buf)
{
	unsigned int i, j;

	for (i = 0; i < bufs->nr && bufs->list[i].index <= buf->index; i++)
		if (bufs->list[i].index == buf->index)
			return;
	for (j = bufs->nr++; j > i; j--)
		bufs->list[j] = bufs->list[j - 1];
	bufs->list[i] = *buf;
}

/* A source's buffer as written: its position in @bufs, 0 without one. */
static unsigned int buffer_number(const struct buffers *bufs,
				  const struct vtrace_probe_buffer *buf)
{
	unsigned int i;

	for (i = 0; i < bufs->nr; i++)
		if (bufs->list[i].index == buf->index)
			return i;
	return 0;
}

/* The buffers of linux.ftrace and of the sources that have one. */
static void collect_buffers(const struct vtrace_trace_config *tc,
			    struct buffers *bufs)
{
	const struct vtrace_probes_config *p = &tc->probes;
	struct vtrace_probe_buffer ftrace = {
		.index = tc->buffer_index,
		.size_kb = tc->buffer_size_kb,
		.fill_policy = tc->fill_policy,
	};

	bufs->nr = 0;
	if (tc->has_buffer)
		buffer_add(bufs, &ftrace);
	/* No size: the config gave the source no buffer of its own. */
	if (p->process_stats.enabled && p->process_stats.buffer.size_kb)
		buffer_add(bufs, &p->process_stats.buffer);
	if (p->sys_stats.enabled && p->sys_stats.buffer.size_kb)
		buffer_add(bufs, &p->sys_stats.buffer);
	if (p->system_info && p->system_info_buffer.size_kb)
		buffer_add(bufs, &p->system_info_buffer);
}

/* The start of a data source's config, in its buffer when not the first. */
static void source_begin(FILE *out, const char *name,
			 const struct buffers *bufs,
			 const struct vtrace_probe_buffer *buffer)
{
	unsigned int n = buffer_number(bufs, buffer);

	fprintf(out, "data_sources {\n  config {\n    name: \"%s\"\n", name);
	if (n)
		fprintf(out, "    target_buffer: %u\n", n);
}

static void write_process_stats(const struct vtrace_process_stats *ps,
				const struct buffers *bufs, FILE *out)
{
	source_begin(out, VTRACE_PROCESS_STATS_DATA_SOURCE, bufs, &ps->buffer);
	fprintf(out, "    process_stats_config {\n");
	if (ps->scan_all_processes_on_start)
		fprintf(out, "      scan_all_processes_on_start: true\n");
	if (ps->record_thread_names)
		fprintf(out, "      record_thread_names: true\n");
	if (ps->poll_ms)
		fprintf(out, "      proc_stats_poll_ms: %u\n", ps->poll_ms);
	if (ps->record_process_runtime)
		fprintf(out, "      record_process_runtime: true\n");
	if (!ps->on_demand)
		fprintf(out, "      quirks: DISABLE_ON_DEMAND\n");
	fprintf(out, "    }\n  }\n}\n");
}

static void write_sys_stats(const struct vtrace_sys_stats *ss,
			    const struct buffers *bufs, FILE *out)
{
	uint64_t all_meminfo = ~0ull >> (63 - VTRACE_MEMINFO_MAX) & ~1ull;
	bool all_vmstat = true;
	unsigned int v;
	int k;

	for (v = 1; v <= VTRACE_VMSTAT_MAX; v++)
		all_vmstat &= !!(ss->vmstat[v / 64] & 1ull << (v % 64));
	source_begin(out, VTRACE_SYS_STATS_DATA_SOURCE, bufs, &ss->buffer);
	fprintf(out, "    sys_stats_config {\n");
	for (k = 0; k < VTRACE_SYS_NR; k++)
		if (ss->period_ms[k])
			fprintf(out, "      %s_period_ms: %u\n",
				vtrace_sys_stats_kind_name(k),
				ss->period_ms[k]);
	/* All counters is what naming none means. */
	for (v = 1; ss->meminfo != all_meminfo && v <= VTRACE_MEMINFO_MAX; v++)
		if (ss->meminfo & 1ull << v)
			fprintf(out, "      meminfo_counters: %s\n",
				vtrace_meminfo_counters[v].name);
	for (v = 1; !all_vmstat && v <= VTRACE_VMSTAT_MAX; v++)
		if (ss->vmstat[v / 64] & 1ull << (v % 64))
			fprintf(out, "      vmstat_counters: %s\n",
				vtrace_vmstat_counters[v].name);
	for (v = 1; ss->stat_counters != VTRACE_STAT_ALL && v < 5; v++)
		if (ss->stat_counters & 1u << v)
			fprintf(out, "      stat_counters: %s\n",
				stat_counter_names[v]);
	fprintf(out, "    }\n  }\n}\n");
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
	struct vtrace_probe_buffer ftrace = { 0 };
	struct buffers bufs;
	size_t i;

	collect_buffers(tc, &bufs);
	for (i = 0; i < bufs.nr; i++)
		fprintf(out, "buffers {\n  size_kb: %u\n  fill_policy: %s\n}\n",
			bufs.list[i].size_kb,
			bufs.list[i].fill_policy == VTRACE_FILL_DISCARD ?
				"DISCARD" :
				"RING_BUFFER");
	ftrace.index = tc->buffer_index;
	source_begin(out, VTRACE_FTRACE_DATA_SOURCE, &bufs, &ftrace);
	fprintf(out, "    ftrace_config {\n");
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
	if (tc->probes.process_stats.enabled)
		write_process_stats(&tc->probes.process_stats, &bufs, out);
	if (tc->probes.sys_stats.enabled)
		write_sys_stats(&tc->probes.sys_stats, &bufs, out);
	if (tc->probes.system_info) {
		source_begin(out, VTRACE_SYSTEM_INFO_DATA_SOURCE, &bufs,
			     &tc->probes.system_info_buffer);
		fprintf(out, "  }\n}\n");
	}
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
