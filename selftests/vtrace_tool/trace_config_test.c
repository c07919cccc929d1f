// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the TraceConfig readers (text format and binary form) and
 * of the checks on what vtrace honours: every refusal by its exact line,
 * column and message, every honoured field by its exact value.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/proto-decode.h"
#include <vtrace/trace-config.h>

#include "../kselftest_harness.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#include <sanitizer/lsan_interface.h>
#define leaks_found() __lsan_do_recoverable_leak_check()
#endif
#endif
#ifndef leaks_found
#define leaks_found() 0
#endif

FIXTURE(tc)
{
	struct vtrace_trace_config tc;
	struct vtrace_diags diags;
	char text[8192];
};

FIXTURE_SETUP(tc)
{
	vtrace_trace_config_init(&self->tc);
	vtrace_diags_init(&self->diags);
}

FIXTURE_TEARDOWN(tc)
{
	vtrace_trace_config_free(&self->tc);
	vtrace_diags_free(&self->diags);
	EXPECT_EQ(0, leaks_found());
}

static int parse_as(struct _test_data_tc *self, const char *buf, size_t len,
		    enum vtrace_config_format format, bool strict)
{
	return vtrace_trace_config_parse(&self->tc, "c.pbtx", buf, len, format,
					 strict, &self->diags);
}

static int parse(struct _test_data_tc *self, const char *text)
{
	return parse_as(self, text, strlen(text), VTRACE_CONFIG_AUTO, false);
}

static int parse_strict(struct _test_data_tc *self, const char *text)
{
	return parse_as(self, text, strlen(text), VTRACE_CONFIG_AUTO, true);
}

/* Every finding as "LINE:COL: SEVERITY: MESSAGE\n". */
static const char *diags(struct _test_data_tc *self)
{
	size_t i, off = 0;

	self->text[0] = '\0';
	for (i = 0; i < self->diags.nr; i++) {
		const struct vtrace_diag *d = &self->diags.items[i];

		off += snprintf(self->text + off, sizeof(self->text) - off,
				"%u:%u: %s: %s\n", d->line, d->column,
				vtrace_severity_name(d->severity), d->message);
	}
	return self->text;
}

/* The findings are exactly @want. */
static void check_diags(struct __test_metadata *_metadata,
			struct _test_data_tc *self, const char *want)
{
	EXPECT_STREQ(want, diags(self));
}

/* The config written back as text. */
static const char *written(struct _test_data_tc *self)
{
	FILE *f = fmemopen(self->text, sizeof(self->text), "w");

	if (!f)
		return "(fmemopen failed)";
	vtrace_trace_config_write(&self->tc, f);
	fclose(f);
	return self->text;
}

#define FTRACE(body)                                                          \
	"data_sources { config { name: \"linux.ftrace\" ftrace_config {" body \
	"} } }\n"

static const char full_config[] =
	"# a config as Android engineers write them\n"
	"buffers: {\n"
	"  size_kb: 65536\n"
	"  fill_policy: DISCARD\n"
	"}\n"
	"data_sources: {\n"
	"  config {\n"
	"    name: \"linux.ftrace\"\n"
	"    target_buffer: 0\n"
	"    ftrace_config {\n"
	"      ftrace_events: \"sched/sched_switch\"\n"
	"      ftrace_events: \"power/*\"\n"
	"      ftrace_events: \"sched_waking\"\n"
	"      atrace_categories: [\"gfx\", \"thermal_tj\"]\n"
	"      atrace_apps: \"com.example.app\"\n"
	"      buffer_size_kb: 4096\n"
	"      drain_period_ms: 250\n"
	"      instance_name: \"cfg_test\"\n"
	"      symbolize_ksyms: true\n"
	"      tracing_cpumask: \"ff,00000003\"\n"
	"      tids_to_trace: [1, 0x10]\n"
	"      tids_to_trace: 010\n"
	"      tracefs_options < name: 'print-tgid' state: STATE_ENABLED >\n"
	"      tracefs_options { name: \"irq-info\"; state: STATE_DISABLED };\n"
	"    }\n"
	"  }\n"
	"}\n"
	"duration_ms: 10000\n"
	"write_into_file: True\n"
	"file_write_period_ms: 2500,\n"
	"max_file_size_bytes: 1099511627776\n"
	"output_path: \"/tmp/x.dat\"\n"
	"unique_session_name: \"board-\" 'one'\n"
	"exclusive_prio: 4294967295\n";

TEST_F(tc, every_honoured_field_has_its_value)
{
	const char *want;
	const struct vtrace_trace_config *tc = &self->tc;

	ASSERT_EQ(0, parse(self, full_config)) TH_LOG("%s", diags(self));
	want = "";
	check_diags(_metadata, self, want);
	EXPECT_TRUE(tc->has_buffer);
	EXPECT_EQ(65536, tc->buffer_size_kb);
	EXPECT_EQ(VTRACE_FILL_DISCARD, tc->fill_policy);
	EXPECT_EQ(10000, tc->duration_ms);
	EXPECT_TRUE(tc->write_into_file);
	EXPECT_EQ(2500, tc->file_write_period_ms);
	EXPECT_EQ(1099511627776ULL, tc->max_file_size_bytes);
	EXPECT_STREQ("/tmp/x.dat", tc->output_path.str);
	EXPECT_EQ(32, tc->output_path.line);
	EXPECT_STREQ("board-one", tc->unique_session_name.str);
	EXPECT_TRUE(tc->has_exclusive_prio);
	EXPECT_EQ(4294967295U, tc->exclusive_prio);
	EXPECT_TRUE(tc->has_ftrace);
	ASSERT_EQ(3, tc->ftrace_events.nr);
	EXPECT_STREQ("sched/sched_switch", tc->ftrace_events.items[0].str);
	EXPECT_STREQ("power/*", tc->ftrace_events.items[1].str);
	EXPECT_STREQ("sched_waking", tc->ftrace_events.items[2].str);
	EXPECT_EQ(13, tc->ftrace_events.items[2].line);
	EXPECT_EQ(7, tc->ftrace_events.items[2].column);
	ASSERT_EQ(2, tc->atrace_categories.nr);
	EXPECT_STREQ("thermal_tj", tc->atrace_categories.items[1].str);
	ASSERT_EQ(1, tc->atrace_apps.nr);
	EXPECT_STREQ("com.example.app", tc->atrace_apps.items[0].str);
	EXPECT_EQ(4096, tc->ftrace_buffer_size_kb);
	EXPECT_EQ(250, tc->drain_period_ms);
	EXPECT_STREQ("cfg_test", tc->instance_name.str);
	EXPECT_TRUE(tc->symbolize_ksyms);
	EXPECT_STREQ("ff,00000003", tc->tracing_cpumask.str);
	ASSERT_EQ(3, tc->nr_tids);
	EXPECT_EQ(1, tc->tids[0]);
	EXPECT_EQ(16, tc->tids[1]);
	EXPECT_EQ(8, tc->tids[2]);
	ASSERT_EQ(2, tc->nr_options);
	EXPECT_STREQ("print-tgid", tc->options[0].name.str);
	EXPECT_TRUE(tc->options[0].enabled);
	EXPECT_STREQ("irq-info", tc->options[1].name.str);
	EXPECT_FALSE(tc->options[1].enabled);
}

TEST_F(tc, written_config_reads_back_the_same)
{
	char first[8192];

	ASSERT_EQ(0, parse(self, full_config));
	strcpy(first, written(self));
	vtrace_trace_config_free(&self->tc);
	ASSERT_EQ(0, parse(self, first)) TH_LOG("%s", diags(self));
	EXPECT_STREQ(first, written(self));
}

TEST_F(tc, fill_policy_defaults_to_ring_buffer)
{
	ASSERT_EQ(0, parse(self, "buffers { size_kb: 8 }\n" FTRACE("")));
	EXPECT_EQ(VTRACE_FILL_RING_BUFFER, self->tc.fill_policy);
	EXPECT_FALSE(self->tc.write_into_file);
	vtrace_trace_config_free(&self->tc);
	ASSERT_EQ(0,
		  parse(self,
			"buffers { size_kb: 8 fill_policy: 2 }\n" FTRACE("")));
	EXPECT_EQ(VTRACE_FILL_DISCARD, self->tc.fill_policy);
}

TEST_F(tc, unknown_field_is_error_at_its_name)
{
	const char *want;

	EXPECT_EQ(-EINVAL, parse(self, FTRACE("\n  bufer_size_kb: 4")));
	want = "2:3: error: unknown field 'bufer_size_kb' in FtraceConfig\n";
	check_diags(_metadata, self, want);
	EXPECT_FALSE(self->tc.has_ftrace);
}

TEST_F(tc, unknown_top_level_field_is_error)
{
	const char *want;

	EXPECT_EQ(-EINVAL, parse(self, "duration_ms: 5\n  durations_ms: 5\n"));
	want = "2:3: error: unknown field 'durations_ms' in TraceConfig\n";
	check_diags(_metadata, self, want);
}

TEST_F(tc, string_for_integer_is_error)
{
	EXPECT_EQ(-EINVAL, parse(self, "duration_ms: \"10\"\n"));
	check_diags(
		_metadata, self,
		"1:14: error: field 'duration_ms' takes an integer (uint32), found string '\"10\"'\n");
}

TEST_F(tc, float_for_integer_is_error)
{
	const char *want;

	EXPECT_EQ(-EINVAL, parse(self, "duration_ms: 1.5\n"));
	want = "1:14: error: field 'duration_ms' takes an integer (uint32), found '1.5'\n";
	check_diags(_metadata, self, want);
}

TEST_F(tc, integer_for_string_is_error)
{
	const char *want;

	EXPECT_EQ(-EINVAL, parse(self, "output_path: 5\n"));
	want = "1:14: error: field 'output_path' takes a string, found number '5'\n";
	check_diags(_metadata, self, want);
}

TEST_F(tc, uint32_range_is_checked)
{
	const char *want;

	EXPECT_EQ(-EINVAL, parse(self, "duration_ms: 4294967296\n"));
	want = "1:14: error: value '4294967296' out of range for field 'duration_ms' (uint32)\n";
	check_diags(_metadata, self, want);
}

TEST_F(tc, negative_unsigned_is_error)
{
	const char *want;

	EXPECT_EQ(-EINVAL, parse(self, "exclusive_prio: -1\n"));
	want = "1:17: error: value '-1' out of range for field 'exclusive_prio' (uint32)\n";
	check_diags(_metadata, self, want);
}

TEST_F(tc, int32_range_is_checked_both_ways)
{
	const char *want;

	/* bugreport_score is TraceConfig's int32 field. */
	EXPECT_EQ(0, parse(self, "bugreport_score: -2147483648\n" FTRACE("")));
	vtrace_trace_config_free(&self->tc);
	vtrace_diags_free(&self->diags);
	EXPECT_EQ(-EINVAL, parse(self, "bugreport_score: 2147483648\n"));
	want = "1:18: error: value '2147483648' out of range for field 'bugreport_score' (int32)\n";
	check_diags(_metadata, self, want);
}

TEST_F(tc, number_beyond_64_bits_is_error)
{
	const char *want;

	EXPECT_EQ(-EINVAL,
		  parse(self, "max_file_size_bytes: 18446744073709551616\n"));
	want = "1:22: error: value out of range for field 'max_file_size_bytes' (uint64)\n";
	check_diags(_metadata, self, want);
}

TEST_F(tc, bool_takes_only_bool_words)
{
	const char *want;

	EXPECT_EQ(-EINVAL, parse(self, "write_into_file: yes\n"));
	want = "1:18: error: field 'write_into_file' takes true or false, found name 'yes'\n";
	check_diags(_metadata, self, want);
}

TEST_F(tc, unknown_enum_name_and_number_are_errors)
{
	const char *want;

	EXPECT_EQ(-EINVAL,
		  parse(self, "buffers { size_kb: 8 fill_policy: RING }\n"));
	want = "1:35: error: unknown value 'RING' for field 'fill_policy'\n";
	check_diags(_metadata, self, want);
	vtrace_diags_free(&self->diags);
	EXPECT_EQ(-EINVAL, parse(self, "buffers { fill_policy: 3 }\n"));
	want = "1:24: error: unknown value '3' for field 'fill_policy'\n";
	check_diags(_metadata, self, want);
}

TEST_F(tc, non_repeated_field_twice_is_error)
{
	EXPECT_EQ(-EINVAL, parse(self, "duration_ms: 1\nduration_ms: 2\n"));
	check_diags(
		_metadata, self,
		"2:1: error: field 'duration_ms' given twice (first at line 1), but it is not repeated\n");
}

TEST_F(tc, list_for_non_repeated_field_is_error)
{
	const char *want;

	EXPECT_EQ(-EINVAL, parse(self, "duration_ms: [1]\n"));
	want = "1:14: error: field 'duration_ms' is not repeated: a list is not allowed\n";
	check_diags(_metadata, self, want);
}

TEST_F(tc, scalar_without_colon_is_error)
{
	const char *want;

	EXPECT_EQ(-EINVAL, parse(self, "duration_ms 5\n"));
	want = "1:13: error: expected ':', found number '5'\n";
	check_diags(_metadata, self, want);
}

TEST_F(tc, message_needs_braces)
{
	const char *want;

	EXPECT_EQ(-EINVAL, parse(self, "buffers: 5\n"));
	want = "1:10: error: field 'buffers' is a message: expected '{', found number '5'\n";
	check_diags(_metadata, self, want);
}

TEST_F(tc, unclosed_message_is_error_where_it_opened)
{
	const char *want;

	EXPECT_EQ(-EINVAL, parse(self, "\n  buffers {\n size_kb: 4\n"));
	want = "2:11: error: '{' opened here is never closed\n";
	check_diags(_metadata, self, want);
}

TEST_F(tc, mismatched_brackets_are_errors)
{
	const char *want;

	EXPECT_EQ(-EINVAL, parse(self, "buffers < size_kb: 4 }\n"));
	want = "1:22: error: expected a field name, found punctuation '}'\n";
	check_diags(_metadata, self, want);
	vtrace_diags_free(&self->diags);
	EXPECT_EQ(-EINVAL, parse(self, "duration_ms: 4 }\n"));
	want = "1:16: error: '}' without a matching opening bracket\n";
	check_diags(_metadata, self, want);
}

TEST_F(tc, strings_unescape_and_join)
{
	ASSERT_EQ(
		0,
		parse(self,
		      "output_path: \"a\\tb\\\\\\\"\" 'c\\'\\x41\\101\\u00e9\\U0001F600'\n" FTRACE(
			      "")));
	EXPECT_STREQ("a\tb\\\"c'AA\xc3\xa9\xf0\x9f\x98\x80",
		     self->tc.output_path.str);
}

TEST_F(tc, bad_escape_is_error_at_the_backslash)
{
	const char *want;

	EXPECT_EQ(-EINVAL, parse(self, "output_path: \"ab\\q\"\n"));
	want = "1:17: error: bad escape sequence in string\n";
	check_diags(_metadata, self, want);
	vtrace_diags_free(&self->diags);
	EXPECT_EQ(-EINVAL, parse(self, "output_path: \"\\ud800\"\n"));
	want = "1:15: error: bad escape sequence in string\n";
	check_diags(_metadata, self, want);
}

TEST_F(tc, unterminated_string_is_error)
{
	const char *want;

	EXPECT_EQ(-EINVAL, parse(self, "output_path: \"abc\nduration_ms: 1\n"));
	want = "1:14: error: string not closed on its line\n";
	check_diags(_metadata, self, want);
}

TEST_F(tc, nul_byte_in_string_is_refused)
{
	const char *want;

	EXPECT_EQ(-EINVAL, parse(self, "output_path: \"a\\0b\"\n" FTRACE("")));
	want = "1:1: error: field 'output_path' contains a NUL byte\n";
	check_diags(_metadata, self, want);
}

TEST_F(tc, stray_character_is_error)
{
	const char *want;

	EXPECT_EQ(-EINVAL, parse(self, "duration_ms: 5\n@\n"));
	want = "2:1: error: unexpected character '@' (0x40)\n";
	check_diags(_metadata, self, want);
}

TEST_F(tc, extensions_are_not_supported)
{
	const char *want;

	EXPECT_EQ(-EINVAL, parse(self, "[perfetto.ext]: 1\n"));
	want = "1:1: error: extensions and Any fields are not supported\n";
	check_diags(_metadata, self, want);
}

TEST_F(tc, nesting_is_limited)
{
	const char *want;
	char text[4 * VTRACE_PB_MAX_DEPTH + 64];
	size_t i, n = 0;

	/* The 65th '{' is one too many. */
	n += sprintf(text, "trigger_config ");
	for (i = 0; i <= VTRACE_PB_MAX_DEPTH; i++)
		n += sprintf(text + n, "{ a ");
	EXPECT_EQ(-EINVAL, parse(self, text));
	want = "1:272: error: messages nested deeper than 64\n";
	check_diags(_metadata, self, want);
}

TEST_F(tc, unhonoured_fields_are_warnings_naming_each)
{
	ASSERT_EQ(
		0,
		parse(self,
		      "flush_period_ms: 100\n"
		      "trigger_config { trigger_mode: STOP_TRACING triggers { name: \"x\" stop_delay_ms: 5 } }\n"
		      "buffers { size_kb: 8 transfer_on_clone: true }\n" FTRACE(
			      "compact_sched { enabled: true } throttle_rss_stat: true")));
	check_diags(
		_metadata, self,
		"1:1: warning: field 'TraceConfig.flush_period_ms' is not honoured by vtrace (ignored)\n"
		"2:1: warning: field 'TraceConfig.trigger_config' is not honoured by vtrace (ignored)\n"
		"3:22: warning: field 'TraceConfig.BufferConfig.transfer_on_clone' is not honoured by vtrace (ignored)\n"
		"4:61: warning: field 'FtraceConfig.compact_sched' is not honoured by vtrace (ignored)\n"
		"4:93: warning: field 'FtraceConfig.throttle_rss_stat' is not honoured by vtrace (ignored)\n");
}

TEST_F(tc, strict_makes_unhonoured_fields_errors)
{
	const char *want;

	EXPECT_EQ(-EINVAL,
		  parse_strict(self, "flush_period_ms: 100\n" FTRACE("")));
	want = "1:1: error: field 'TraceConfig.flush_period_ms' is not honoured by vtrace\n";
	check_diags(_metadata, self, want);
}

TEST_F(tc, other_data_sources_are_one_warning_each)
{
	ASSERT_EQ(
		0,
		parse(self,
		      "data_sources { config { name: \"android.surfaceflinger.frame\" } }\n"
		      "data_sources { config { name: \"android.power\" } }\n" FTRACE(
			      "")));
	check_diags(
		_metadata, self,
		"1:25: warning: data source 'android.surfaceflinger.frame' has no meaning on a Linux board (ignored): vtrace records linux.ftrace, linux.process_stats, linux.sys_stats and linux.system_info\n"
		"2:25: warning: data source 'android.power' has no meaning on a Linux board (ignored): vtrace records linux.ftrace, linux.process_stats, linux.sys_stats and linux.system_info\n");
	EXPECT_FALSE(self->tc.probes.process_stats.enabled);
	EXPECT_FALSE(self->tc.probes.sys_stats.enabled);
	EXPECT_FALSE(self->tc.probes.system_info);
}

/* The seed's linux.process_stats, in the second buffer. */
TEST_F(tc, process_stats_takes_its_buffer)
{
	const struct vtrace_process_stats *ps = &self->tc.probes.process_stats;

	ASSERT_EQ(
		0,
		parse(self,
		      "buffers { size_kb: 8960 fill_policy: DISCARD }\n"
		      "buffers { size_kb: 1280 fill_policy: DISCARD }\n"
		      "data_sources { config { name: \"linux.process_stats\"\n"
		      "  target_buffer: 1\n"
		      "  process_stats_config { scan_all_processes_on_start: true\n"
		      "    record_thread_names: true proc_stats_poll_ms: 50\n"
		      "    quirks: DISABLE_ON_DEMAND } } }\n" FTRACE("")));
	check_diags(
		_metadata, self,
		"6:31: warning: proc_stats_poll_ms: 50 ms is below the shortest period, 100 ms: raised to it, as Perfetto does\n");
	EXPECT_TRUE(ps->enabled);
	EXPECT_TRUE(ps->scan_all_processes_on_start);
	EXPECT_TRUE(ps->record_thread_names);
	EXPECT_EQ(100, ps->poll_ms);
	EXPECT_EQ(1, ps->buffer.index);
	EXPECT_EQ(1280, ps->buffer.size_kb);
	EXPECT_EQ(VTRACE_FILL_DISCARD, ps->buffer.fill_policy);
	EXPECT_EQ(8960, self->tc.buffer_size_kb);
	EXPECT_FALSE(self->tc.probes.sys_stats.enabled);
	EXPECT_FALSE(self->tc.probes.system_info);
}

TEST_F(tc, sys_stats_periods_and_counters)
{
	const struct vtrace_sys_stats *ss = &self->tc.probes.sys_stats;

	ASSERT_EQ(
		0,
		parse(self,
		      "write_into_file: true\n"
		      "buffers { size_kb: 64 }\n"
		      "data_sources { config { name: \"linux.sys_stats\"\n"
		      "  sys_stats_config { thermal_period_ms: 100\n"
		      "    devfreq_period_ms: 9 meminfo_period_ms: 1000\n"
		      "    meminfo_counters: MEMINFO_MEM_FREE\n"
		      "    meminfo_counters: MEMINFO_CACHED stat_period_ms: 500\n"
		      "    stat_counters: STAT_FORK_COUNT slab_period_ms: 10 } } }\n"
		      "data_sources { config { name: \"linux.system_info\" } }\n" FTRACE(
			      "")));
	check_diags(
		_metadata, self,
		"5:5: warning: devfreq_period_ms: 9 ms is below the shortest period, 10 ms: raised to it, as Perfetto does\n"
		"8:36: warning: field 'SysStatsConfig.slab_period_ms' is not honoured by vtrace (ignored)\n");
	EXPECT_TRUE(ss->enabled);
	EXPECT_EQ(100, ss->period_ms[VTRACE_SYS_THERMAL]);
	EXPECT_EQ(10, ss->period_ms[VTRACE_SYS_DEVFREQ]);
	EXPECT_EQ(1000, ss->period_ms[VTRACE_SYS_MEMINFO]);
	EXPECT_EQ(500, ss->period_ms[VTRACE_SYS_STAT]);
	EXPECT_EQ(0, ss->period_ms[VTRACE_SYS_CPUFREQ]);
	EXPECT_EQ((1ull << 2) | (1ull << 5), ss->meminfo);
	EXPECT_EQ(VTRACE_STAT_FORK_COUNT, ss->stat_counters);
	/* No vmstat counters named: all of them. */
	EXPECT_EQ(~0ull << 1, ss->vmstat[0]);
	EXPECT_EQ(VTRACE_FILL_STREAM, ss->buffer.fill_policy);
	EXPECT_TRUE(self->tc.probes.system_info);
	EXPECT_EQ(VTRACE_FILL_STREAM,
		  self->tc.probes.system_info_buffer.fill_policy);
}

/* Written back, the data sources read as they were. */
TEST_F(tc, probes_written_back_read_the_same)
{
	struct vtrace_probes_config before;
	char copy[8192];

	ASSERT_EQ(
		0,
		parse(self,
		      "buffers { size_kb: 64 }\n"
		      "buffers { size_kb: 32 fill_policy: DISCARD }\n"
		      "data_sources { config { name: \"linux.process_stats\"\n"
		      "  target_buffer: 1 process_stats_config {\n"
		      "    scan_all_processes_on_start: true\n"
		      "    proc_stats_poll_ms: 500 record_process_runtime: true\n"
		      "    quirks: DISABLE_ON_DEMAND } } }\n"
		      "data_sources { config { name: \"linux.sys_stats\"\n"
		      "  target_buffer: 1 sys_stats_config {\n"
		      "    meminfo_period_ms: 100 meminfo_counters: MEMINFO_MEM_FREE\n"
		      "    vmstat_period_ms: 200 vmstat_counters: VMSTAT_PGFAULT\n"
		      "    stat_period_ms: 300 stat_counters: STAT_CPU_TIMES\n"
		      "    thermal_period_ms: 100 psi_period_ms: 1000 } } }\n"
		      "data_sources { config { name: \"linux.system_info\" } }\n" FTRACE(
			      "")));
	check_diags(_metadata, self, "");
	before = self->tc.probes;
	snprintf(copy, sizeof(copy), "%s", written(self));
	vtrace_trace_config_free(&self->tc);
	vtrace_trace_config_init(&self->tc);
	ASSERT_EQ(0, parse(self, copy));
	check_diags(_metadata, self, "");
	EXPECT_EQ(0,
		  memcmp(&before.process_stats, &self->tc.probes.process_stats,
			 sizeof(before.process_stats)));
	EXPECT_EQ(0, memcmp(&before.sys_stats, &self->tc.probes.sys_stats,
			    sizeof(before.sys_stats)));
	EXPECT_TRUE(self->tc.probes.system_info);
	EXPECT_FALSE(self->tc.probes.process_stats.on_demand);
	EXPECT_EQ(500, self->tc.probes.process_stats.poll_ms);
	EXPECT_EQ(1ull << 2, self->tc.probes.sys_stats.meminfo);
	EXPECT_EQ(VTRACE_STAT_CPU_TIMES,
		  self->tc.probes.sys_stats.stat_counters);
	EXPECT_EQ(1, self->tc.probes.sys_stats.buffer.index);
	EXPECT_EQ(32, self->tc.probes.sys_stats.buffer.size_kb);
}

TEST_F(tc, probes_target_buffer_must_name_a_buffer)
{
	EXPECT_EQ(-EINVAL,
		  parse(self,
			"buffers { size_kb: 8 }\n"
			"data_sources { config { name: \"linux.sys_stats\"\n"
			"  target_buffer: 2 } }\n" FTRACE("")));
	check_diags(_metadata, self,
		    "3:3: error: target_buffer 2 names no buffer (1 given)\n");
}

TEST_F(tc, unknown_sys_stats_field_is_refused)
{
	EXPECT_EQ(
		-EINVAL,
		parse(self,
		      "data_sources { config { name: \"linux.sys_stats\"\n"
		      "  sys_stats_config { thermal_period: 100 } } }\n" FTRACE(
			      "")));
	check_diags(
		_metadata, self,
		"2:22: error: unknown field 'thermal_period' in SysStatsConfig\n");
}

TEST_F(tc, second_ftrace_data_source_is_not_merged)
{
	const char *want;

	ASSERT_EQ(0, parse(self, FTRACE("ftrace_events: \"a/b\"")
					 FTRACE("ftrace_events: \"c/d\"")));
	want = "2:25: warning: a second linux.ftrace data source: vtrace records one (ignored)\n";
	check_diags(_metadata, self, want);
	ASSERT_EQ(1, self->tc.ftrace_events.nr);
	EXPECT_STREQ("a/b", self->tc.ftrace_events.items[0].str);
}

TEST_F(tc, config_without_ftrace_is_error)
{
	EXPECT_EQ(-EINVAL, parse(self, "duration_ms: 5\n"));
	check_diags(
		_metadata, self,
		"0:0: error: no linux.ftrace data source with an ftrace_config: nothing vtrace can record\n");
}

TEST_F(tc, target_buffer_must_name_a_buffer)
{
	const char *want;

	EXPECT_EQ(-EINVAL,
		  parse(self, "buffers { size_kb: 8 }\n"
			      "data_sources { config { name: \"linux.ftrace\"\n"
			      "  target_buffer: 1 ftrace_config { } } }\n"));
	want = "3:3: error: target_buffer 1 names no buffer (1 given)\n";
	check_diags(_metadata, self, want);
}

TEST_F(tc, target_buffer_selects_the_buffer)
{
	ASSERT_EQ(0,
		  parse(self, "buffers { size_kb: 8 }\n"
			      "buffers { size_kb: 16 fill_policy: DISCARD }\n"
			      "data_sources { config { name: \"linux.ftrace\"\n"
			      "  target_buffer: 1 ftrace_config { } } }\n"));
	EXPECT_EQ(16, self->tc.buffer_size_kb);
	EXPECT_EQ(VTRACE_FILL_DISCARD, self->tc.fill_policy);
	check_diags(
		_metadata, self,
		"1:1: warning: buffers[0] is the target of no data source vtrace records (ignored)\n");
}

TEST_F(tc, zero_buffer_size_is_error)
{
	const char *want;

	EXPECT_EQ(-EINVAL, parse(self, "buffers { size_kb: 0 }\n" FTRACE("")));
	want = "1:11: error: buffers.size_kb must be at least 1\n";
	check_diags(_metadata, self, want);
}

TEST_F(tc, bad_values_are_each_refused)
{
	EXPECT_EQ(
		-EINVAL,
		parse(self,
		      FTRACE("\n"
			     "ftrace_events: \"sched/../x\"\n"
			     "ftrace_events: \"*/*\"\n"
			     "instance_name: \"../x\"\n"
			     "tracing_cpumask: \"3,,4\"\n"
			     "tids_to_trace: 0\n"
			     "tids_to_trace: 4194305\n"
			     "tracefs_options { name: \"a/b\" state: STATE_ENABLED }\n"
			     "tracefs_options { name: \"overwrite\" }\n"
			     "atrace_categories: \"a b\"\n"
			     "atrace_apps: \"\"\n")));
	check_diags(
		_metadata, self,
		"2:1: error: bad event 'sched/../x' in ftrace_events: extra '/' after the event name\n"
		"3:1: error: bad event '*/*' in ftrace_events: wildcards are not supported\n"
		"4:1: error: bad instance_name '../x': character not allowed in instance names (allowed: A-Z a-z 0-9 _ - .)\n"
		"5:1: error: bad tracing_cpumask '3,,4': hex digits in comma-separated groups expected, e.g. \"3\" or \"ff,ffffffff\"\n"
		"6:1: error: tids_to_trace value 0 out of range (1 to 4194304)\n"
		"7:1: error: tids_to_trace value 4194305 out of range (1 to 4194304)\n"
		"8:19: error: bad tracefs option name 'a/b'\n"
		"9:19: error: tracefs option 'overwrite' needs a state: STATE_ENABLED or STATE_DISABLED\n"
		"10:1: error: bad atrace category 'a b'\n"
		"11:1: error: bad atrace app ''\n");
}

TEST_F(tc, comments_separators_and_angle_brackets_parse)
{
	ASSERT_EQ(0, parse(self,
			   "# leading\n"
			   "duration_ms: 0x10; # hex\n"
			   "buffers < size_kb: 8, fill_policy: DISCARD >,\n"
			   "data_sources: [{ config { name: \"linux.ftrace\"\n"
			   "ftrace_config: { ftrace_events: [] } } }]\n"));
	EXPECT_EQ(16, self->tc.duration_ms);
	EXPECT_EQ(8, self->tc.buffer_size_kb);
	EXPECT_TRUE(self->tc.has_ftrace);
	EXPECT_EQ(0, self->tc.ftrace_events.nr);
}

TEST_F(tc, empty_config_has_nothing_to_record)
{
	EXPECT_EQ(-EINVAL, parse(self, ""));
	EXPECT_EQ(1, self->diags.nr_errors);
}

/*
 * The binary form of
 *   buffers { size_kb: 8 fill_policy: DISCARD }
 *   data_sources { config { name: "linux.ftrace"
 *     ftrace_config { ftrace_events: "a/b" tids_to_trace: [5, 300] } } }
 *   duration_ms: 300
 * with tids_to_trace packed.
 */
static const char binary_config[] = {
	0x0a, 0x04,	  0x08, 0x08,	    0x20,	0x02, 0x12,
	0x1e, 0x0a,	  0x1c, 0x0a,	    0x0c,	'l',  'i',
	'n',  'u',	  'x',	'.',	    'f',	't',  'r',
	'a',  'c',	  'e',	(char)0xa2, 0x06,	0x0b, 0x0a,
	0x03, 'a',	  '/',	'b',	    (char)0x9a, 0x02, 0x03,
	0x05, (char)0xac, 0x02, 0x18,	    (char)0xac, 0x02,
};

TEST_F(tc, binary_form_is_told_apart_and_read)
{
	const char *want;

	EXPECT_TRUE(vt_proto_is_binary(binary_config, sizeof(binary_config)));
	EXPECT_FALSE(vt_proto_is_binary(full_config, strlen(full_config)));
	ASSERT_EQ(0, parse_as(self, binary_config, sizeof(binary_config),
			      VTRACE_CONFIG_AUTO, false))
	TH_LOG("%s", diags(self));
	want = "";
	check_diags(_metadata, self, want);
	EXPECT_EQ(8, self->tc.buffer_size_kb);
	EXPECT_EQ(VTRACE_FILL_DISCARD, self->tc.fill_policy);
	EXPECT_EQ(300, self->tc.duration_ms);
	ASSERT_EQ(1, self->tc.ftrace_events.nr);
	EXPECT_STREQ("a/b", self->tc.ftrace_events.items[0].str);
	ASSERT_EQ(2, self->tc.nr_tids);
	EXPECT_EQ(5, self->tc.tids[0]);
	EXPECT_EQ(300, self->tc.tids[1]);
}

TEST_F(tc, binary_unknown_field_number_is_error)
{
	const char *want;
	static const char buf[] = { 0x18, 0x01, (char)0xf8, 0x07, 0x01 };

	EXPECT_EQ(-EINVAL, parse_as(self, buf, sizeof(buf),
				    VTRACE_CONFIG_BINARY, false));
	want = "0:0: error: byte 2: unknown field number 127 in TraceConfig\n";
	check_diags(_metadata, self, want);
}

TEST_F(tc, binary_wire_type_mismatch_is_error)
{
	const char *want;
	static const char buf[] = { 0x1a, 0x01, 0x00 }; /* duration_ms, LEN */

	EXPECT_EQ(-EINVAL, parse_as(self, buf, sizeof(buf),
				    VTRACE_CONFIG_BINARY, false));
	want = "0:0: error: byte 0: field 'duration_ms' (uint32) has a length-delimited value\n";
	check_diags(_metadata, self, want);
}

TEST_F(tc, binary_truncation_is_error)
{
	const char *want;
	static const char buf[] = { 0x18, (char)0x80 };
	static const char len[] = { 0x0a, 0x05, 0x08 };

	EXPECT_EQ(-EINVAL, parse_as(self, buf, sizeof(buf),
				    VTRACE_CONFIG_BINARY, false));
	want = "0:0: error: byte 1: truncated varint\n";
	check_diags(_metadata, self, want);
	vtrace_diags_free(&self->diags);
	EXPECT_EQ(-EINVAL, parse_as(self, len, sizeof(len),
				    VTRACE_CONFIG_BINARY, false));
	want = "0:0: error: byte 0: field 'buffers' is longer than its message\n";
	check_diags(_metadata, self, want);
}

TEST_F(tc, binary_out_of_range_is_error)
{
	/* duration_ms: 2^32 */
	static const char buf[] = { 0x18,	(char)0x80, (char)0x80,
				    (char)0x80, (char)0x80, 0x10 };

	EXPECT_EQ(-EINVAL, parse_as(self, buf, sizeof(buf),
				    VTRACE_CONFIG_BINARY, false));
	check_diags(
		_metadata, self,
		"0:0: error: byte 0: value 4294967296 out of range for field 'duration_ms' (uint32)\n");
}

TEST_F(tc, binary_warnings_name_the_byte)
{
	/* flush_period_ms: 1, then the ftrace data source. */
	static const char buf[] = { 0x68, 0x01, 0x12, 0x10, 0x0a, 0x0e, 0x0a,
				    0x0c, 'l',	'i',  'n',  'u',  'x',	'.',
				    'f',  't',	'r',  'a',  'c',  'e' };

	EXPECT_EQ(-EINVAL, parse_as(self, buf, sizeof(buf),
				    VTRACE_CONFIG_BINARY, false));
	check_diags(
		_metadata, self,
		"0:0: warning: byte 0: field 'TraceConfig.flush_period_ms' is not honoured by vtrace (ignored)\n"
		"0:0: error: no linux.ftrace data source with an ftrace_config: nothing vtrace can record\n");
}

TEST_F(tc, load_reports_a_missing_file)
{
	const char *want;

	EXPECT_EQ(-ENOENT, vtrace_trace_config_load(
				   &self->tc, "/nonexistent/c.pbtx",
				   VTRACE_CONFIG_AUTO, false, &self->diags));
	want = "0:0: error: cannot read: No such file or directory\n";
	check_diags(_metadata, self, want);
}

TEST_HARNESS_MAIN
