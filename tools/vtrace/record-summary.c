// SPDX-License-Identifier: GPL-2.0
/*
 * What vtrace record prints of a recording: the settings it went on
 * without, and the summary once it ends (text on stderr, --json on
 * stdout).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <vtrace/json.h>
#include <vtrace/probes.h>

#include "builtin.h"
#include "cmd-record.h"

/**
 * record_print_not_set - the settings the recording goes on without
 * @r: a started recording
 *
 * Once, at the start, each optional knob the kernel refused and the value
 * used instead. A knob this kernel does not have at all is no news but
 * to -v. Then each counter linux.sys_stats was asked for that this kernel
 * does not have: it is not polled.
 */
void record_print_not_set(const struct record *r)
{
	const struct vtrace_probes *probes = vtrace_recorder_probes(r->rec);
	uint32_t missing = probes ? vtrace_probes_missing(probes) : 0;
	const struct vtrace_knob_not_set *n;
	size_t nr, i;
	int k;

	n = vtrace_recorder_not_set(r->rec, &nr);
	for (i = 0; i < nr; i++) {
		if (n[i].missing && !r->opts->verbose)
			continue;
		if (n[i].missing)
			vtrace_info("%s: not offered by this kernel (%s)%s%s",
				    n[i].knob, strerror(-n[i].err),
				    *n[i].value ? "; using " : "", n[i].value);
		else
			vtrace_warn("%s not set: %s; using %s", n[i].knob,
				    strerror(-n[i].err),
				    *n[i].value ? n[i].value : "the kernel's");
	}
	for (k = 0; k < VTRACE_SYS_NR; k++)
		if (missing & 1u << k)
			vtrace_warn(
				"%s: this kernel has no %s counters: not polled",
				VTRACE_SYS_STATS_DATA_SOURCE,
				vtrace_sys_stats_kind_name(k));
}

/* "not_set" of --json: the same list, with errno names. */
static void json_not_set(struct vtrace_json *j, const struct record *r)
{
	const struct vtrace_knob_not_set *n;
	size_t nr, i;

	n = vtrace_recorder_not_set(r->rec, &nr);
	vtrace_json_array_begin(j, "not_set");
	for (i = 0; i < nr; i++) {
		vtrace_json_object_begin(j, NULL);
		vtrace_json_string(j, "knob", n[i].knob);
		vtrace_json_string(j, "error", strerrorname_np(-n[i].err));
		vtrace_json_string(j, "using", n[i].value);
		vtrace_json_object_end(j);
	}
	vtrace_json_array_end(j);
}

/*
 * "probes" of --json: the counters not polled as this kernel lacks them,
 * and the packets that did not fit their buffer. A Perfetto file has no
 * field for either (traced_probes only logs the first).
 */
static void json_probes(struct vtrace_json *j, const struct record *r)
{
	const struct vtrace_probes *probes = vtrace_recorder_probes(r->rec);
	uint32_t missing;
	int k;

	if (!probes)
		return;
	missing = vtrace_probes_missing(probes);
	vtrace_json_object_begin(j, "probes");
	vtrace_json_array_begin(j, "missing");
	for (k = 0; k < VTRACE_SYS_NR; k++)
		if (missing & 1u << k)
			vtrace_json_string(j, NULL,
					   vtrace_sys_stats_kind_name(k));
	vtrace_json_array_end(j);
	vtrace_json_uint(j, "dropped", vtrace_probes_dropped(probes));
	vtrace_json_object_end(j);
}

/* -v: what the readers did about their wake-ups. */
static void print_wakeups(const struct record *r,
			  const struct vtrace_recorder_wakeups *w)
{
	int near_full;
	bool adapts;
	int percent = vtrace_recorder_wake_percent(r->rec, &adapts, &near_full);

	if (percent < 0)
		vtrace_info(
			"wake-ups: as soon as there was data (no buffer_percent here)");
	else if (!adapts)
		vtrace_info(
			"wake-ups: buffer_percent %d throughout (the kernel's: it refused a change)",
			percent);
	else if (w->lowered)
		vtrace_info(
			"wake-ups: buffer_percent lowered %d -> %d %llu times (%llu for lost events, the rest for a buffer %d%% full), first at %.1f s; restored %llu times",
			percent, VTRACE_RECORDER_LOW_PERCENT, w->lowered,
			w->lowered_lost, near_full, w->first_lowered,
			w->restored);
	else
		vtrace_info("wake-ups: buffer_percent stayed at %d", percent);
	vtrace_info("wake-ups: read again at once %llu times", w->rereads);
	vtrace_info("reads: %llu sub-buffers in %llu calls", w->subbufs,
		    w->batches);
	if (w->policy == VTRACE_READERS_KEEP_ALL)
		vtrace_info(
			"readers (keep-all) ran at SCHED_FIFO %d while tracing; %d of them back at the caller's policy for the drain",
			w->rt_prio, vtrace_recorder_rt_restored(r->rec));
	else if (w->policy == VTRACE_READERS_ADAPTIVE)
		vtrace_info(
			"readers (adaptive) raised to SCHED_FIFO %d %llu times under pressure, back at the caller's policy %llu times once calm, %d at the stop",
			w->rt_prio, w->rt_raised, w->rt_lowered,
			vtrace_recorder_rt_restored(r->rec));
	else
		vtrace_info("readers (light) ran at the caller's policy");
	if (w->rt_starved)
		vtrace_info(
			"readers starved by tasks above SCHED_FIFO %d: moved to the caller's policy %llu times, back at SCHED_FIFO %d %llu times",
			w->rt_prio, w->rt_starved, w->rt_prio, w->rt_resumed);
}

/* -N: what reached the collector, and what did not; prints. */
static void print_net_summary(const struct record *r,
			      unsigned long long backpressure)
{
	const struct vtrace_sink *sink = vtrace_recorder_sink(r->rec);
	const struct record_opts *o = r->opts;
	struct vtrace_net_status st;

	vtrace_net_sink_status(sink, &st);
	if (st.gone)
		vtrace_warn(
			"the collector %s went away during the recording (%s): it had taken %.1f MB (%llu sub-buffers) by then, which it does not keep without the session's end",
			o->output, st.gone_reason, st.sent_bytes / 1e6,
			st.sent_subbufs);
	if (st.gone && o->net_opts.fallback)
		vtrace_warn("the rest, %.1f MB, was recorded into %s",
			    st.fallback_bytes / 1e6, o->net_opts.fallback);
	if (backpressure)
		vtrace_warn(
			"LOST %llu EVENTS to back-pressure: the collector could not take %llu sub-buffers at once",
			backpressure, st.dropped_subbufs);
	if (!o->verbose)
		return;
	if (st.splice_err)
		vtrace_info(
			"cpu%d: splice into the data connection failed (%s): its sub-buffers were written instead",
			st.splice_err_cpu, strerror(st.splice_err));
	vtrace_info(
		"data connections: %llu of %llu sub-buffers spliced from the ring buffer, %llu written%s",
		st.spliced_subbufs, st.sent_subbufs,
		st.sent_subbufs - st.spliced_subbufs,
		o->net_opts.udp ? " (UDP: one datagram per sub-buffer)" : "");
}

static void json_net(struct vtrace_json *j, const struct record *r)
{
	const struct vtrace_sink *sink = vtrace_recorder_sink(r->rec);
	struct vtrace_net_status st;

	vtrace_net_sink_status(sink, &st);
	vtrace_json_object_begin(j, "collector");
	vtrace_json_string(j, "transport",
			   r->opts->net_opts.udp ? "udp" : "tcp");
	vtrace_json_uint(j, "sent_bytes", st.sent_bytes);
	vtrace_json_uint(j, "sent_subbufs", st.sent_subbufs);
	vtrace_json_uint(j, "spliced_subbufs", st.spliced_subbufs);
	vtrace_json_uint(j, "dropped_subbufs", st.dropped_subbufs);
	if (st.splice_err)
		vtrace_json_string(j, "splice_error", strerror(st.splice_err));
	vtrace_json_bool(j, "gone", st.gone);
	if (st.gone)
		vtrace_json_string(j, "gone_reason", st.gone_reason);
	if (r->opts->net_opts.fallback) {
		vtrace_json_string(j, "fallback", r->opts->net_opts.fallback);
		vtrace_json_uint(j, "fallback_bytes", st.fallback_bytes);
	}
	vtrace_json_object_end(j);
}

/**
 * record_print_summary - what was recorded, once the recording ended
 * @r: the stopped recording
 *
 * On stderr: the totals, each CPU's counts, what the fill policy or an
 * abort cost; with -v the readers' wake-ups. With --json, the same on
 * stdout as one object.
 */
void record_print_summary(const struct record *r)
{
	const struct record_opts *o = r->opts;
	const char *reader =
		vtrace_reader_path_name(vtrace_recorder_reader(r->rec));
	int cpu, nr_cpus = vtrace_recorder_nr_cpus(r->rec);
	bool full = vtrace_recorder_stop_reason(r->rec, NULL) ==
		    VTRACE_STOP_FULL;
	struct vtrace_recorder_progress all;
	unsigned long long left = 0, backpressure = 0;
	unsigned long long kernel_lost = 0, output_lost = 0;
	struct vtrace_recorder_wakeups w;
	struct vtrace_cpu_account a;
	struct vtrace_json j;

	vtrace_recorder_progress(r->rec, &all);
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		if (vtrace_recorder_cpu_account(r->rec, cpu, &a))
			continue;
		left += a.entries_left;
		backpressure += a.backpressure;
		kernel_lost += a.kernel_lost;
		output_lost += a.output_lost;
	}

	vtrace_info(
		"recorded %llu events (%.1f MB) from %d CPUs into %s in %.1f s, %s reader",
		all.events, all.bytes / 1e6, nr_cpus, o->output,
		vtrace_recorder_elapsed(r->rec), reader);
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		if (vtrace_recorder_cpu_account(r->rec, cpu, &a))
			continue;
		fprintf(stderr, "  cpu%d: %llu events, %llu lost, %llu bytes",
			cpu, a.events, a.lost, a.bytes);
		if (o->net)
			fprintf(stderr, " (%llu lost to back-pressure)",
				a.backpressure);
		fputc('\n', stderr);
	}
	if (o->net)
		print_net_summary(r, backpressure);
	if (vtrace_recorder_probes(r->rec) &&
	    vtrace_probes_dropped(vtrace_recorder_probes(r->rec)))
		vtrace_warn(
			"data sources beside ftrace: %llu packets did not fit their buffer (size_kb of the config's buffers)",
			(unsigned long long)vtrace_probes_dropped(
				vtrace_recorder_probes(r->rec)));
	if (vtrace_recorder_cleared(r->rec))
		vtrace_info(
			"cleared first: %llu events %s held from before the recording (--keep-buffer records them)",
			vtrace_recorder_cleared(r->rec),
			cli_instance_label(r->vi));
	if (full)
		vtrace_warn(
			"stopped when full: the config's DISCARD limit of %llu bytes was reached",
			o->tc.write_into_file ?
				(unsigned long long)o->tc.max_file_size_bytes :
				o->tc.buffer_size_kb * 1024ULL);
	/* Each cause of loss apart, with its own advice. */
	if (kernel_lost && o->config && !o->tc.write_into_file &&
	    o->tc.fill_policy == VTRACE_FILL_RING_BUFFER)
		vtrace_info(
			"ring buffer: %llu older events were overwritten, the newest kept",
			kernel_lost);
	else if (kernel_lost)
		vtrace_warn(
			"LOST %llu EVENTS in the ring buffer: it overflowed before it was read; record fewer events or use a larger -b",
			kernel_lost);
	/* Past a DISCARD limit the user asked for: not a failure. */
	if (output_lost && full && !vtrace_recorder_sink_failed(r->rec))
		vtrace_info(
			"discarded %llu events read past the DISCARD limit, as the config asks",
			output_lost);
	else if (output_lost)
		vtrace_warn(
			"LOST %llu EVENTS after the output failed: read from the ring buffer, not written (%s)",
			output_lost,
			o->net ? "the collector is gone" :
				 "make room, or record into another file");
	if (left)
		vtrace_warn("%llu events were left in the ring buffer", left);
	if (r->aborted)
		vtrace_info("session %s aborted: %s",
			    vtrace_session_name(r->session), r->aborted);
	vtrace_recorder_wakeups(r->rec, &w);
	if (o->verbose)
		print_wakeups(r, &w);

	if (!o->json)
		return;
	vtrace_json_init(&j, stdout);
	vtrace_json_object_begin(&j, NULL);
	vtrace_json_string(&j, "session", vtrace_session_name(r->session));
	if (r->aborted)
		vtrace_json_string(&j, "aborted", r->aborted);
	vtrace_json_string(&j, "reader", reader);
	vtrace_json_string(&j, "output", o->output);
	vtrace_json_uint(&j, "events", all.events);
	vtrace_json_uint(&j, "lost", all.lost);
	vtrace_json_uint(&j, "kernel_lost", kernel_lost);
	vtrace_json_uint(&j, "output_lost", output_lost);
	vtrace_json_uint(&j, "bytes", all.bytes);
	if (o->net) {
		vtrace_json_uint(&j, "backpressure", backpressure);
		json_net(&j, r);
	}
	vtrace_json_array_begin(&j, "cpus");
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		if (vtrace_recorder_cpu_account(r->rec, cpu, &a))
			continue;
		vtrace_json_object_begin(&j, NULL);
		vtrace_json_int(&j, "cpu", cpu);
		vtrace_json_uint(&j, "events", a.events);
		vtrace_json_uint(&j, "lost", a.lost);
		vtrace_json_uint(&j, "kernel_lost", a.kernel_lost);
		vtrace_json_uint(&j, "output_lost", a.output_lost);
		vtrace_json_uint(&j, "bytes", a.bytes);
		if (o->net)
			vtrace_json_uint(&j, "backpressure", a.backpressure);
		vtrace_json_object_end(&j);
	}
	vtrace_json_array_end(&j);
	if (!o->keep_buffer) {
		vtrace_json_object_begin(&j, "cleared");
		vtrace_json_string(&j, "instance",
				   o->tc.instance_name.str ?: "");
		vtrace_json_uint(&j, "events", vtrace_recorder_cleared(r->rec));
		vtrace_json_object_end(&j);
	}
	json_not_set(&j, r);
	json_probes(&j, r);
	vtrace_json_object_begin(&j, "wakeups");
	vtrace_json_uint(&j, "lowered", w.lowered);
	vtrace_json_uint(&j, "lowered_lost", w.lowered_lost);
	vtrace_json_uint(&j, "restored", w.restored);
	vtrace_json_uint(&j, "rereads", w.rereads);
	vtrace_json_uint(&j, "subbufs", w.subbufs);
	vtrace_json_uint(&j, "batches", w.batches);
	vtrace_json_string(&j, "readers", vtrace_reader_policy_name(w.policy));
	vtrace_json_int(&j, "rt_prio", w.rt_prio);
	vtrace_json_uint(&j, "rt_raised", w.rt_raised);
	vtrace_json_uint(&j, "rt_lowered", w.rt_lowered);
	vtrace_json_int(&j, "rt_restored", vtrace_recorder_rt_restored(r->rec));
	vtrace_json_uint(&j, "rt_starved", w.rt_starved);
	vtrace_json_uint(&j, "rt_resumed", w.rt_resumed);
	vtrace_json_object_end(&j);
	vtrace_json_object_end(&j);
	cli_finish_json(&j);
}
