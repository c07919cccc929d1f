// SPDX-License-Identifier: LGPL-2.1
/*
 * What every sink shares (see sink.h); the formats' table is format.c.
 */
#include <stdlib.h>

#include <vtrace/sink.h>

/**
 * vtrace_sink_free - free a sink made by vtrace_sink_open()
 * @sink: the sink, may be NULL
 *
 * Does not finish or abort its output: call ->finish() or ->abort() first.
 */
void vtrace_sink_free(struct vtrace_sink *sink)
{
	if (!sink)
		return;
	if (sink->ops->destroy)
		sink->ops->destroy(sink);
	free(sink->path);
	free(sink);
}
