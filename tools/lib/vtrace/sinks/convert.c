// SPDX-License-Identifier: LGPL-2.1
/*
 * Converting a trace.dat into another format (see convert.h).
 *
 * Records are read per CPU, each CPU to its end, in the file's order:
 * every format written here groups events per CPU and the tools that
 * read them sort by time, so no merge of the CPUs is needed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <event-parse.h>
#include <trace-cmd.h>

#include <vtrace/convert.h>
#include <vtrace/format.h>
#include <vtrace/output-file.h>
#include <vtrace/tracedat-input.h>

#include "sinks/perfetto/perfetto-writer.h"

/*
 * libtracecmd 1.3 exports these from libtracecmd.so but declares them
 * only in its private header; they return strings it owns.
 */
const char *tracecmd_get_trace_clock(struct tracecmd_input *handle);
const char *tracecmd_get_cpustats(struct tracecmd_input *handle);

/*
 * The file's per-CPU stats: "CPU: N" then that CPU's per_cpu/cpuN/stats
 * lines, for each CPU. NULL when the file has none.
 */
static struct vt_perfetto_cpu_stats *parse_cpu_stats(const char *text,
						     int ncpus)
{
	struct vt_perfetto_cpu_stats *stats, *cur = NULL;
	const char *line, *next, *colon;
	unsigned long long v;
	int cpu;

	if (!text || !*text)
		return NULL;
	stats = calloc(ncpus, sizeof(*stats));
	if (!stats)
		return NULL;
	for (line = text; *line; line = next) {
		next = strchrnul(line, '\n');
		colon = memchr(line, ':', next - line);
		if (*next)
			next++;
		if (!colon)
			continue;
		if (sscanf(line, "CPU: %d", &cpu) == 1) {
			cur = cpu >= 0 && cpu < ncpus ? &stats[cpu] : NULL;
			continue;
		}
		if (!cur || sscanf(colon + 1, " %llu", &v) != 1)
			continue;
		if (!strncmp(line, "entries:", 8))
			cur->entries = v;
		else if (!strncmp(line, "overrun:", 8))
			cur->overrun = v;
		else if (!strncmp(line, "commit overrun:", 15))
			cur->commit_overrun = v;
		else if (!strncmp(line, "bytes:", 6))
			cur->bytes = v;
		else if (!strncmp(line, "dropped events:", 15))
			cur->dropped_events = v;
		else if (!strncmp(line, "read events:", 12))
			cur->read_events = v;
	}
	return stats;
}

/* Every record of every CPU into @writer; -EINVAL for a corrupt one. */
static int convert_records(struct tracecmd_input *handle,
			   const struct vtrace_format *format, void *writer,
			   const char *in, struct vt_convert_result *result,
			   char *msg, size_t msg_size)
{
	struct tep_handle *tep = tracecmd_get_tep(handle);
	struct tep_record *record;
	struct tep_event *event;
	char why[256];
	int cpu, ret = 0;

	for (cpu = 0; cpu < tep_get_cpus(tep) && !ret; cpu++) {
		while (!ret && (record = tracecmd_read_data(handle, cpu))) {
			event = tep_find_event_by_record(tep, record);
			if (event && !vtrace_tracedat_record_ok(
					     event, record, why, sizeof(why))) {
				snprintf(msg, msg_size, "%s: %s", in, why);
				ret = -EINVAL;
			} else {
				ret = format->convert->add_record(writer,
								  record);
				if (ret)
					snprintf(msg, msg_size, "%s",
						 format->convert->strerror(
							 writer));
				else
					result->events++;
			}
			tracecmd_free_record(record);
		}
	}
	return ret;
}

int vtrace_convert(const char *in, const char *out,
		   const struct vtrace_format *format,
		   struct vt_convert_result *result, char *msg, size_t msg_size)
{
	struct vt_convert_result res = { 0 };
	struct vt_convert_input input = { 0 };
	struct tracecmd_input *handle;
	struct vt_perfetto_cpu_stats *stats;
	struct vt_output_file file;
	void *writer = NULL;
	struct stat st;
	int ret;

	ret = vtrace_tracedat_open(in, &handle, msg, msg_size);
	if (ret)
		return ret;
	res.buffers_left_out = tracecmd_buffer_instances(handle);
	input.tep = tracecmd_get_tep(handle);
	input.ncpus = tep_get_cpus(input.tep);
	input.clock = tracecmd_get_trace_clock(handle);
	stats = parse_cpu_stats(tracecmd_get_cpustats(handle), input.ncpus);
	input.stats = stats;
	if (input.ncpus <= 0) {
		snprintf(msg, msg_size, "%s: the file has no CPUs", in);
		ret = -EINVAL;
		goto out;
	}

	ret = vtrace_output_file_create(&file, out);
	if (ret) {
		snprintf(msg, msg_size, "%s: %s", out,
			 vtrace_output_file_strerror(ret));
		goto out;
	}
	ret = format->convert->create(&writer, file.fd, &input);
	if (ret)
		snprintf(msg, msg_size, "%s: %s", out, strerror(-ret));
	if (!ret)
		ret = convert_records(handle, format, writer, in, &res, msg,
				      msg_size);
	if (!ret) {
		ret = format->convert->finish(writer);
		if (ret)
			snprintf(msg, msg_size, "%s: %s", out,
				 format->convert->strerror(writer));
	}
	if (!ret && fstat(file.fd, &st)) {
		ret = -errno;
		snprintf(msg, msg_size, "%s: %s", out, strerror(errno));
	}
	if (ret) {
		vtrace_output_file_discard(&file);
	} else {
		ret = vtrace_output_file_commit(&file, false);
		if (ret)
			snprintf(msg, msg_size, "%s: %s", out, strerror(-ret));
		res.bytes = st.st_size;
	}
	if (writer)
		format->convert->free(writer);
out:
	free(stats);
	tracecmd_close(handle);
	if (!ret && result)
		*result = res;
	return ret;
}
