// SPDX-License-Identifier: LGPL-2.1
/*
 * The Perfetto writer as a converter of trace.dat records (format.h).
 */
#include <vtrace/sink.h>

#include "sinks/perfetto/perfetto-convert.h"
#include "sinks/perfetto/perfetto-writer.h"

static int perfetto_create(void **writer, int fd,
			   const struct vt_convert_input *in)
{
	struct vt_perfetto_opts opts = {
		.tep = in->tep,
		.ncpus = in->ncpus,
		.clock = in->clock,
	};
	struct vt_perfetto *pf;
	int cpu, ret;

	ret = vt_perfetto_create(&pf, fd, &opts);
	if (ret)
		return ret;
	for (cpu = 0; in->stats && cpu < in->ncpus; cpu++)
		vt_perfetto_set_cpu_stats(pf, cpu, &in->stats[cpu]);
	*writer = pf;
	return 0;
}

static int perfetto_add_record(void *writer, struct tep_record *record)
{
	return vt_perfetto_add_record(writer, record);
}

static int perfetto_finish(void *writer)
{
	return vt_perfetto_finish(writer);
}

static const char *perfetto_strerror(void *writer)
{
	return vt_perfetto_strerror(writer);
}

static void perfetto_free(void *writer)
{
	vt_perfetto_free(writer);
}

const struct vtrace_convert_ops vt_perfetto_convert_ops = {
	.create = perfetto_create,
	.add_record = perfetto_add_record,
	.finish = perfetto_finish,
	.strerror = perfetto_strerror,
	.free = perfetto_free,
};
