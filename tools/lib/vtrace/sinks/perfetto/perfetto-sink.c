// SPDX-License-Identifier: LGPL-2.1
/*
 * The Perfetto sink: vtrace record -o FILE.pftrace. Sub-buffers are read
 * zero-copy as for trace.dat; here each is walked (ring/subbuf-walk.h) and
 * its events handed to the Perfetto writer (perfetto-writer.h) as they
 * come, by each CPU's reader at once, so the file is complete when the
 * recording ends and memory stays a bundle per CPU.
 *
 * The file is written next to FILE and renamed when finished; after a
 * write failure what was written whole is still renamed into place (the
 * recording exists nowhere else) and the failure is reported.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <event-parse.h>
#include <tracefs.h>

#include <vtrace/sink.h>

#include <vtrace/output-file.h>
#include "ring/subbuf-walk.h"
#include "sinks/perfetto/perfetto-writer.h"
#include "tracefs/event-formats.h"

/**
 * struct perfetto_sink - a recording being written as a Perfetto trace
 * @file: the output
 * @formats: the formats of the events met so far, cmdlines at the end
 * @tep: @formats' tep
 * @long_size: the kernel's long, in the sub-buffers' headers
 * @nr_cpus: the CPUs
 * @pf: the writer, fed by the CPUs' threads at once
 * @err: text of a failure outside the writer
 */
struct perfetto_sink {
	struct vt_output_file file;
	struct vt_formats formats;
	struct tep_handle *tep;
	int long_size;
	int nr_cpus;
	struct vt_perfetto *pf;
	char err[256];
};

static struct perfetto_sink *priv_of(const struct vtrace_sink *sink)
{
	return sink->priv;
}

/*
 * A (trace clock, CLOCK_BOOTTIME) pair for a clock other than boot: the
 * trace clock's "now ts" of CPU 0's stats (microseconds), then boot time.
 */
static bool clock_pair(struct tracefs_instance *instance, int64_t *ftrace_ts,
		       int64_t *boot_ts)
{
	unsigned long long sec, usec;
	struct timespec ts;
	char *stats, *now;
	bool ok;

	stats = tracefs_instance_file_read(instance, "per_cpu/cpu0/stats",
					   NULL);
	if (!stats)
		return false;
	clock_gettime(CLOCK_BOOTTIME, &ts);
	now = strstr(stats, "now ts:");
	ok = now && sscanf(now, "now ts: %llu.%6llu", &sec, &usec) == 2;
	free(stats);
	if (!ok)
		return false;
	*ftrace_ts = sec * 1000000000ll + usec * 1000;
	*boot_ts = ts.tv_sec * 1000000000ll + ts.tv_nsec;
	return true;
}

static int perfetto_begin(struct vtrace_sink *sink,
			  const struct vtrace_sink_info *info)
{
	struct perfetto_sink *ps = priv_of(sink);
	struct vt_perfetto_opts opts = {
		.ncpus = info->nr_cpus,
		.clock = info->clock,
	};
	int ret;

	ret = vt_formats_init(&ps->formats, info->instance);
	if (ret) {
		snprintf(ps->err, sizeof(ps->err),
			 "reading the event formats from tracefs failed");
		return ret;
	}
	ps->tep = ps->formats.tep;
	ps->long_size = tep_get_long_size(ps->tep) == 4 ? 4 : 8;
	ps->nr_cpus = info->nr_cpus;

	opts.tep = ps->tep;
	opts.formats = &ps->formats;
	opts.new_pid = sink->on_new_pid;
	opts.new_pid_ctx = sink->on_new_pid_ctx;
	if (info->clock && strcmp(info->clock, "boot"))
		opts.have_clock_pair = clock_pair(
			info->instance, &opts.ftrace_ts, &opts.boot_ts);
	ret = vtrace_output_file_create(&ps->file, sink->path);
	if (ret) {
		snprintf(ps->err, sizeof(ps->err), "creating %s: %s",
			 sink->path, strerror(-ret));
		return ret;
	}
	ret = vt_perfetto_create(&ps->pf, ps->file.fd, &opts);
	if (ret) {
		snprintf(ps->err, sizeof(ps->err), "writing %s: %s", sink->path,
			 strerror(-ret));
		vtrace_output_file_discard(&ps->file);
	}
	return ret;
}

static int perfetto_add_subbuf(struct vtrace_sink *sink, int cpu,
			       const void *subbuf, size_t size)
{
	struct perfetto_sink *ps = priv_of(sink);
	struct tep_record record = { .cpu = cpu };
	struct vt_subbuf_walk walk;
	unsigned int event_size;
	const void *data;
	uint64_t ts;
	int ret = 0;

	if (cpu < 0 || cpu >= ps->nr_cpus)
		return -ERANGE;
	if (vt_subbuf_walk_init(&walk, subbuf, size, ps->long_size))
		return 0;
	record.missed_events = walk.missed;
	while (!ret && (data = vt_subbuf_walk_next(&walk, &event_size, &ts))) {
		record.ts = ts;
		record.data = (void *)data;
		record.size = event_size;
		ret = vt_perfetto_add_record(ps->pf, &record);
		record.missed_events = 0;
	}
	return ret;
}

static int perfetto_add_packet(struct vtrace_sink *sink, const void *packet,
			       size_t len)
{
	return vt_perfetto_add_packet(priv_of(sink)->pf, packet, len);
}

/* saved_tgids: "PID TGID" lines (kernels since 4.14, record-tgid on). */
static void load_tgids(struct perfetto_sink *ps)
{
	char *text, *line, *save = NULL;
	int pid, tgid;

	text = tracefs_instance_file_read(NULL, "saved_tgids", NULL);
	if (!text)
		return;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		if (sscanf(line, "%d %d", &pid, &tgid) == 2)
			vt_perfetto_set_tgid(ps->pf, pid, tgid);
	free(text);
}

static int perfetto_finish(struct vtrace_sink *sink,
			   const struct vtrace_sink_end *end)
{
	struct perfetto_sink *ps = priv_of(sink);
	struct vt_perfetto_cpu_stats stats;
	const struct vtrace_cpu_account *a;
	int cpu, ret, commit;

	for (cpu = 0; cpu < end->nr_cpus && cpu < ps->nr_cpus; cpu++) {
		a = &end->cpus[cpu];
		if (!a->present)
			continue;
		stats = (struct vt_perfetto_cpu_stats){
			.entries = a->entries_left,
			.overrun = a->overrun > a->lost ? a->overrun : a->lost,
			.commit_overrun = a->commit_overrun,
			.bytes = a->bytes,
			.dropped_events = a->dropped_events,
			.read_events = a->events,
		};
		vt_perfetto_set_cpu_stats(ps->pf, cpu, &stats);
	}
	/* Thread names and processes, read after tracing stopped. */
	tracefs_load_cmdlines(NULL, ps->tep);
	load_tgids(ps);
	ret = vt_perfetto_finish(ps->pf);
	/* Even after a failed write: what is in the file is whole packets. */
	commit = vtrace_output_file_commit(&ps->file, true);
	if (commit && !ret)
		snprintf(ps->err, sizeof(ps->err), "finishing %s: %s",
			 sink->path, strerror(-commit));
	return ret ?: commit;
}

static void perfetto_abort(struct vtrace_sink *sink)
{
	vtrace_output_file_discard(&priv_of(sink)->file);
}

static const char *perfetto_partial(const struct vtrace_sink *sink)
{
	return priv_of(sink)->file.tmp;
}

static const char *perfetto_strerror(const struct vtrace_sink *sink)
{
	struct perfetto_sink *ps = priv_of(sink);

	if (!ps->err[0] && ps->pf && *vt_perfetto_strerror(ps->pf))
		snprintf(ps->err, sizeof(ps->err), "%s: %s", sink->path,
			 vt_perfetto_strerror(ps->pf));
	return ps->err;
}

static void perfetto_destroy(struct vtrace_sink *sink)
{
	struct perfetto_sink *ps = priv_of(sink);

	vt_perfetto_free(ps->pf);
	vt_formats_release(&ps->formats);
	free(ps);
}

static const struct vtrace_sink_ops perfetto_sink_ops = {
	.name = "perfetto",
	.clock = "boot",
	.begin = perfetto_begin,
	.add_subbuf = perfetto_add_subbuf,
	.add_packet = perfetto_add_packet,
	.finish = perfetto_finish,
	.abort = perfetto_abort,
	.partial = perfetto_partial,
	.strerror = perfetto_strerror,
	.destroy = perfetto_destroy,
};

/**
 * vtrace_perfetto_sink_create - a sink writing a Perfetto trace
 * @path: the output file
 * @out: set to the new sink
 *
 * Return: 0 or -ENOMEM.
 */
int vtrace_perfetto_sink_create(const char *path, struct vtrace_sink **out)
{
	struct perfetto_sink *ps;
	struct vtrace_sink *sink;

	*out = NULL;
	sink = calloc(1, sizeof(*sink));
	ps = calloc(1, sizeof(*ps));
	if (sink)
		sink->path = strdup(path);
	if (!sink || !ps || !sink->path) {
		if (sink)
			free(sink->path);
		free(sink);
		free(ps);
		return -ENOMEM;
	}
	ps->file.fd = -1;
	sink->ops = &perfetto_sink_ops;
	sink->priv = ps;
	*out = sink;
	return 0;
}
