// SPDX-License-Identifier: LGPL-2.1
/*
 * The part of Perfetto's TraceConfig schema vtrace reads: every field of
 * TraceConfig, TraceConfig.BufferConfig, TraceConfig.DataSource,
 * DataSourceConfig, FtraceConfig (and FtraceConfig.TracefsOption),
 * ProcessStatsConfig, SysStatsConfig and SystemInfoConfig, with the
 * names, numbers and types of perfetto_config.proto, so that any valid
 * Perfetto config parses and each field vtrace does not honour can be
 * named in a warning. Messages deeper than these are syntax-checked only (no
 * .message), and so are enums whose values vtrace does not interpret.
 *
 * selftests/vtrace_tool/config_test.sh checks this table against
 * the .proto with protoc.
 */
#include <vtrace/probes.h>
#include <vtrace/trace-config.h>

#define FIELD(n, num, t) .name = (n), .number = (num), .type = VTRACE_PB_##t
#define REPEATED .repeated = true
#define VALUES(v) .values = (v), .nr_values = sizeof(v) / sizeof((v)[0])
#define FIELDS(f) .fields = (f), .nr_fields = sizeof(f) / sizeof((f)[0])

static const struct vtrace_pb_enum_value fill_policy_values[] = {
	{ "UNSPECIFIED", 0 },
	{ "RING_BUFFER", 1 },
	{ "DISCARD", 2 },
};

static const struct vtrace_pb_enum_value tracefs_option_state_values[] = {
	{ "STATE_UNKNOWN", 0 },
	{ "STATE_ENABLED", 1 },
	{ "STATE_DISABLED", 2 },
};

static const struct vtrace_pb_field tracefs_option_fields[] = {
	{ FIELD("name", 1, STRING) },
	{ FIELD("state", 2, ENUM), VALUES(tracefs_option_state_values) },
};

static const struct vtrace_pb_message tracefs_option = {
	.name = "FtraceConfig.TracefsOption",
	FIELDS(tracefs_option_fields),
};

static const struct vtrace_pb_field ftrace_config_fields[] = {
	{ FIELD("ftrace_events", 1, STRING), REPEATED },
	{ FIELD("atrace_categories", 2, STRING), REPEATED },
	{ FIELD("atrace_apps", 3, STRING), REPEATED },
	{ FIELD("atrace_categories_prefer_sdk", 28, STRING), REPEATED },
	{ FIELD("atrace_userspace_only", 34, BOOL) },
	{ FIELD("buffer_size_kb", 10, UINT32) },
	{ FIELD("buffer_size_lower_bound", 27, BOOL) },
	{ FIELD("drain_period_ms", 11, UINT32) },
	{ FIELD("drain_buffer_percent", 29, UINT32) },
	{ FIELD("compact_sched", 12, MESSAGE) },
	{ FIELD("print_filter", 22, MESSAGE) },
	{ FIELD("symbolize_ksyms", 13, BOOL) },
	{ FIELD("ksyms_mem_policy", 17, ENUM) },
	{ FIELD("throttle_rss_stat", 15, BOOL) },
	{ FIELD("denser_generic_event_encoding", 32, BOOL) },
	{ FIELD("disable_generic_events", 16, BOOL) },
	{ FIELD("syscall_events", 18, STRING), REPEATED },
	{ FIELD("enable_function_graph", 19, BOOL) },
	{ FIELD("function_filters", 20, STRING), REPEATED },
	{ FIELD("function_graph_roots", 21, STRING), REPEATED },
	{ FIELD("function_graph_max_depth", 33, UINT32) },
	{ FIELD("kprobe_events", 30, MESSAGE), REPEATED },
	{ FIELD("preserve_ftrace_buffer", 23, BOOL) },
	{ FIELD("use_monotonic_raw_clock", 24, BOOL) },
	{ FIELD("instance_name", 25, STRING) },
	{ FIELD("debug_ftrace_abi", 31, BOOL) },
	{ FIELD("tids_to_trace", 35, UINT32), REPEATED },
	{ FIELD("tracefs_options", 36, MESSAGE), REPEATED,
	  .message = &tracefs_option },
	{ FIELD("tracing_cpumask", 37, STRING) },
	{ FIELD("initialize_ksyms_synchronously_for_testing", 14, BOOL) },
};

static const struct vtrace_pb_message ftrace_config = {
	.name = "FtraceConfig",
	FIELDS(ftrace_config_fields),
};

static const struct vtrace_pb_enum_value process_stats_quirks_values[] = {
	{ "QUIRKS_UNSPECIFIED", 0 },
	{ "DISABLE_INITIAL_DUMP", 1 },
	{ "DISABLE_ON_DEMAND", 2 },
};

static const struct vtrace_pb_field process_stats_config_fields[] = {
	{ FIELD("quirks", 1, ENUM), REPEATED,
	  VALUES(process_stats_quirks_values) },
	{ FIELD("scan_all_processes_on_start", 2, BOOL) },
	{ FIELD("record_thread_names", 3, BOOL) },
	{ FIELD("proc_stats_poll_ms", 4, UINT32) },
	{ FIELD("proc_stats_cache_ttl_ms", 6, UINT32) },
	{ FIELD("scan_smaps_rollup", 10, BOOL) },
	{ FIELD("record_process_age", 11, BOOL) },
	{ FIELD("record_process_runtime", 12, BOOL) },
	{ FIELD("record_process_dmabuf_rss", 13, BOOL) },
	{ FIELD("resolve_process_fds", 9, BOOL) },
	{ FIELD("skip_main_thread_message", 14, BOOL) },
};

static const struct vtrace_pb_message process_stats_config = {
	.name = "ProcessStatsConfig",
	FIELDS(process_stats_config_fields),
};

static const struct vtrace_pb_enum_value stat_counters_values[] = {
	{ "STAT_UNSPECIFIED", 0 }, { "STAT_CPU_TIMES", 1 },
	{ "STAT_IRQ_COUNTS", 2 },  { "STAT_SOFTIRQ_COUNTS", 3 },
	{ "STAT_FORK_COUNT", 4 },
};

static const struct vtrace_pb_field sys_stats_config_fields[] = {
	{ FIELD("meminfo_period_ms", 1, UINT32) },
	{ FIELD("meminfo_counters", 2, ENUM), REPEATED,
	  VALUES(vtrace_meminfo_counters) },
	{ FIELD("vmstat_period_ms", 3, UINT32) },
	{ FIELD("vmstat_counters", 4, ENUM), REPEATED,
	  VALUES(vtrace_vmstat_counters) },
	{ FIELD("stat_period_ms", 5, UINT32) },
	{ FIELD("stat_counters", 6, ENUM), REPEATED,
	  VALUES(stat_counters_values) },
	{ FIELD("devfreq_period_ms", 7, UINT32) },
	{ FIELD("cpufreq_period_ms", 8, UINT32) },
	{ FIELD("buddyinfo_period_ms", 9, UINT32) },
	{ FIELD("diskstat_period_ms", 10, UINT32) },
	{ FIELD("psi_period_ms", 11, UINT32) },
	{ FIELD("thermal_period_ms", 12, UINT32) },
	{ FIELD("cpuidle_period_ms", 13, UINT32) },
	{ FIELD("gpufreq_period_ms", 14, UINT32) },
	{ FIELD("slab_period_ms", 15, UINT32) },
};

static const struct vtrace_pb_message sys_stats_config = {
	.name = "SysStatsConfig",
	FIELDS(sys_stats_config_fields),
};

static const struct vtrace_pb_field system_info_config_fields[] = {
	{ FIELD("irq_names", 1, BOOL) },
};

static const struct vtrace_pb_message system_info_config = {
	.name = "SystemInfoConfig",
	FIELDS(system_info_config_fields),
};

static const struct vtrace_pb_field data_source_config_fields[] = {
	{ FIELD("name", 1, STRING) },
	{ FIELD("target_buffer", 2, UINT32) },
	{ FIELD("target_buffer_name", 11, STRING) },
	{ FIELD("trace_duration_ms", 3, UINT32) },
	{ FIELD("prefer_suspend_clock_for_duration", 122, BOOL) },
	{ FIELD("stop_timeout_ms", 7, UINT32) },
	{ FIELD("enable_extra_guardrails", 6, BOOL) },
	{ FIELD("session_initiator", 8, ENUM) },
	{ FIELD("tracing_session_id", 4, UINT64) },
	{ FIELD("buffer_exhausted_policy", 9, ENUM) },
	{ FIELD("priority_boost", 10, MESSAGE) },
	{ FIELD("protovm_config", 12, MESSAGE) },
	{ FIELD("ftrace_config", 100, MESSAGE), .message = &ftrace_config },
	{ FIELD("inode_file_config", 102, MESSAGE) },
	{ FIELD("process_stats_config", 103, MESSAGE),
	  .message = &process_stats_config },
	{ FIELD("sys_stats_config", 104, MESSAGE),
	  .message = &sys_stats_config },
	{ FIELD("heapprofd_config", 105, MESSAGE) },
	{ FIELD("java_hprof_config", 110, MESSAGE) },
	{ FIELD("android_power_config", 106, MESSAGE) },
	{ FIELD("android_log_config", 107, MESSAGE) },
	{ FIELD("gpu_counter_config", 108, MESSAGE) },
	{ FIELD("android_game_intervention_list_config", 116, MESSAGE) },
	{ FIELD("packages_list_config", 109, MESSAGE) },
	{ FIELD("perf_event_config", 111, MESSAGE) },
	{ FIELD("vulkan_memory_config", 112, MESSAGE) },
	{ FIELD("track_event_config", 113, MESSAGE) },
	{ FIELD("android_polled_state_config", 114, MESSAGE) },
	{ FIELD("android_system_property_config", 118, MESSAGE) },
	{ FIELD("statsd_tracing_config", 117, MESSAGE) },
	{ FIELD("system_info_config", 119, MESSAGE),
	  .message = &system_info_config },
	{ FIELD("frozen_ftrace_config", 136, MESSAGE) },
	{ FIELD("chrome_config", 101, MESSAGE) },
	{ FIELD("v8_config", 127, MESSAGE) },
	{ FIELD("interceptor_config", 115, MESSAGE) },
	{ FIELD("network_packet_trace_config", 120, MESSAGE) },
	{ FIELD("surfaceflinger_layers_config", 121, MESSAGE) },
	{ FIELD("surfaceflinger_transactions_config", 123, MESSAGE) },
	{ FIELD("android_sdk_sysprop_guard_config", 124, MESSAGE) },
	{ FIELD("etw_config", 125, MESSAGE) },
	{ FIELD("protolog_config", 126, MESSAGE) },
	{ FIELD("android_input_event_config", 128, MESSAGE) },
	{ FIELD("pixel_modem_config", 129, MESSAGE) },
	{ FIELD("windowmanager_config", 130, MESSAGE) },
	{ FIELD("chromium_system_metrics", 131, MESSAGE) },
	{ FIELD("kernel_wakelocks_config", 132, MESSAGE) },
	{ FIELD("gpu_renderstages_config", 133, MESSAGE) },
	{ FIELD("chromium_histogram_samples", 134, MESSAGE) },
	{ FIELD("app_wakelocks_config", 135, MESSAGE) },
	{ FIELD("cpu_per_uid_config", 137, MESSAGE) },
	{ FIELD("user_list_config", 138, MESSAGE) },
	{ FIELD("inputmethod_config", 139, MESSAGE) },
	{ FIELD("android_aflags_config", 140, MESSAGE) },
	{ FIELD("journald_config", 141, MESSAGE) },
	{ FIELD("display_video_config", 142, MESSAGE) },
	{ FIELD("chromium_stack_sampling_profiler", 143, MESSAGE) },
	{ FIELD("chromium_sampling_heap_profiler", 144, MESSAGE) },
	{ FIELD("qnx_config", 150, MESSAGE) },
	{ FIELD("legacy_config", 1000, STRING) },
	{ FIELD("for_testing", 1001, MESSAGE) },
};

static const struct vtrace_pb_message data_source_config = {
	.name = "DataSourceConfig",
	FIELDS(data_source_config_fields),
};

static const struct vtrace_pb_field data_source_fields[] = {
	{ FIELD("config", 1, MESSAGE), .message = &data_source_config },
	{ FIELD("producer_name_filter", 2, STRING), REPEATED },
	{ FIELD("producer_name_regex_filter", 3, STRING), REPEATED },
	{ FIELD("machine_name_filter", 4, STRING), REPEATED },
};

static const struct vtrace_pb_message data_source = {
	.name = "TraceConfig.DataSource",
	FIELDS(data_source_fields),
};

static const struct vtrace_pb_field buffer_config_fields[] = {
	{ FIELD("size_kb", 1, UINT32) },
	{ FIELD("fill_policy", 4, ENUM), VALUES(fill_policy_values) },
	{ FIELD("transfer_on_clone", 5, BOOL) },
	{ FIELD("clear_before_clone", 6, BOOL) },
	{ FIELD("name", 7, STRING) },
	{ FIELD("experimental_mode", 8, ENUM) },
};

static const struct vtrace_pb_message buffer_config = {
	.name = "TraceConfig.BufferConfig",
	FIELDS(buffer_config_fields),
};

static const struct vtrace_pb_field trace_config_fields[] = {
	{ FIELD("buffers", 1, MESSAGE), REPEATED, .message = &buffer_config },
	{ FIELD("data_sources", 2, MESSAGE), REPEATED,
	  .message = &data_source },
	{ FIELD("builtin_data_sources", 20, MESSAGE) },
	{ FIELD("duration_ms", 3, UINT32) },
	{ FIELD("prefer_suspend_clock_for_duration", 36, BOOL) },
	{ FIELD("enable_extra_guardrails", 4, BOOL) },
	{ FIELD("lockdown_mode", 5, ENUM) },
	{ FIELD("producers", 6, MESSAGE), REPEATED },
	{ FIELD("statsd_metadata", 7, MESSAGE) },
	{ FIELD("write_into_file", 8, BOOL) },
	{ FIELD("output_path", 29, STRING) },
	{ FIELD("file_write_period_ms", 9, UINT32) },
	{ FIELD("max_file_size_bytes", 10, UINT64) },
	{ FIELD("guardrail_overrides", 11, MESSAGE) },
	{ FIELD("deferred_start", 12, BOOL) },
	{ FIELD("flush_period_ms", 13, UINT32) },
	{ FIELD("flush_timeout_ms", 14, UINT32) },
	{ FIELD("data_source_stop_timeout_ms", 23, UINT32) },
	{ FIELD("notify_traceur", 16, BOOL) },
	{ FIELD("bugreport_score", 30, INT32) },
	{ FIELD("bugreport_filename", 38, STRING) },
	{ FIELD("trigger_config", 17, MESSAGE) },
	{ FIELD("activate_triggers", 18, STRING), REPEATED },
	{ FIELD("incremental_state_config", 21, MESSAGE) },
	{ FIELD("allow_user_build_tracing", 19, BOOL) },
	{ FIELD("unique_session_name", 22, STRING) },
	{ FIELD("compression_type", 24, ENUM) },
	{ FIELD("compression", 47, MESSAGE) },
	{ FIELD("incident_report_config", 25, MESSAGE) },
	{ FIELD("statsd_logging", 31, ENUM) },
	{ FIELD("trace_uuid_msb", 27, INT64) },
	{ FIELD("trace_uuid_lsb", 28, INT64) },
	{ FIELD("trace_filter", 33, MESSAGE) },
	{ FIELD("android_report_config", 34, MESSAGE) },
	{ FIELD("cmd_trace_start_delay", 35, MESSAGE) },
	{ FIELD("session_semaphores", 39, MESSAGE), REPEATED },
	{ FIELD("priority_boost", 40, MESSAGE) },
	{ FIELD("exclusive_prio", 41, UINT32) },
	{ FIELD("write_flush_mode", 44, ENUM) },
	{ FIELD("fflush_post_write", 45, ENUM) },
	{ FIELD("trace_all_machines", 43, BOOL) },
	{ FIELD("trace_attributes", 48, MESSAGE) },
};

const struct vtrace_pb_message vtrace_trace_config_schema = {
	.name = "TraceConfig",
	FIELDS(trace_config_fields),
};
