// SPDX-License-Identifier: LGPL-2.1
/*
 * The trace.dat sink: the recorder's output interface on top of the
 * trace.dat writer (tracedat-writer.h), which stores sub-buffers as read.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vtrace/sink.h>
#include <vtrace/tracedat-writer.h>

/**
 * struct tracedat_sink - the writer, and why it could not be made
 * @td: the writer, from ->begin() on
 * @create_err: text of a vtrace_tracedat_create() failure that left no writer
 */
struct tracedat_sink {
	struct vt_tracedat *td;
	char create_err[128];
};

static struct tracedat_sink *priv_of(const struct vtrace_sink *sink)
{
	return sink->priv;
}

static int tracedat_begin(struct vtrace_sink *sink,
			  const struct vtrace_sink_info *info)
{
	struct tracedat_sink *ts = priv_of(sink);
	struct vt_tracedat_opts opts = {
		.instance = info->instance,
		.ncpus = info->nr_cpus,
		.page_size = info->subbuf_size,
	};
	int ret;

	ret = vtrace_tracedat_create(&ts->td, sink->path, &opts);
	if (ret && !ts->td)
		snprintf(ts->create_err, sizeof(ts->create_err), "%s",
			 strerror(-ret));
	return ret;
}

static int tracedat_add_subbuf(struct vtrace_sink *sink, int cpu,
			       const void *subbuf, size_t size)
{
	return vtrace_tracedat_add_page(priv_of(sink)->td, cpu, subbuf, size);
}

/*
 * Whole sub-buffers go from the reader's pipe into the file, a batch at a
 * time; the recording's sub-buffer size is the writer's page size.
 */
static int tracedat_splice_subbuf(struct vtrace_sink *sink, int cpu, int pipe,
				  size_t size, void *spill, size_t *stored)
{
	return vtrace_tracedat_splice_pages(priv_of(sink)->td, cpu, pipe, size,
					    spill, stored);
}

/* The writer reads the per-CPU counters from tracefs itself. */
static int tracedat_finish(struct vtrace_sink *sink,
			   const struct vtrace_sink_end *end)
{
	return vtrace_tracedat_finish(priv_of(sink)->td);
}

static void tracedat_abort(struct vtrace_sink *sink)
{
	struct tracedat_sink *ts = priv_of(sink);

	vtrace_tracedat_abort(ts->td);
	ts->td = NULL;
}

static const char *tracedat_partial(const struct vtrace_sink *sink)
{
	return vtrace_tracedat_partial_path(priv_of(sink)->td);
}

static const char *tracedat_strerror(const struct vtrace_sink *sink)
{
	const struct tracedat_sink *ts = priv_of(sink);

	return ts->td ? vtrace_tracedat_strerror(ts->td) : ts->create_err;
}

static void tracedat_destroy(struct vtrace_sink *sink)
{
	struct tracedat_sink *ts = priv_of(sink);

	vtrace_tracedat_close(ts->td);
	free(ts);
}

static const struct vtrace_sink_ops tracedat_sink_ops = {
	.name = "tracedat",
	.clock = "local",
	.begin = tracedat_begin,
	.add_subbuf = tracedat_add_subbuf,
	.splice_subbuf = tracedat_splice_subbuf,
	.finish = tracedat_finish,
	.abort = tracedat_abort,
	.partial = tracedat_partial,
	.strerror = tracedat_strerror,
	.destroy = tracedat_destroy,
};

/**
 * vtrace_tracedat_sink_create - a sink writing trace-cmd's trace.dat v6
 * @path: the output file
 * @out: set to the new sink
 *
 * Return: 0 or -ENOMEM.
 */
int vtrace_tracedat_sink_create(const char *path, struct vtrace_sink **out)
{
	struct vtrace_sink *sink;

	*out = NULL;
	sink = calloc(1, sizeof(*sink));
	if (!sink)
		return -ENOMEM;
	sink->ops = &tracedat_sink_ops;
	sink->splice_batch = UINT_MAX;
	sink->path = strdup(path);
	sink->priv = calloc(1, sizeof(struct tracedat_sink));
	if (!sink->path || !sink->priv) {
		free(sink->path);
		free(sink->priv);
		free(sink);
		return -ENOMEM;
	}
	*out = sink;
	return 0;
}
