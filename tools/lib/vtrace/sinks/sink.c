// SPDX-License-Identifier: LGPL-2.1
/*
 * Choosing an output format: one table, by --format name or by the output
 * file's extension.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <vtrace/sink.h>

/**
 * struct sink_format - one output format vtrace record writes
 * @name: its --format name
 * @extension: output files ending in it get this format
 * @create: makes a sink of the format
 */
struct sink_format {
	const char *name;
	const char *extension;
	vtrace_sink_create_fn create;
};

/* The first one is the default, for any other extension. */
static const struct sink_format sink_formats[] = {
	{ "tracedat", ".dat", vtrace_tracedat_sink_create },
	{ "perfetto", ".pftrace", vtrace_perfetto_sink_create },
};

#define NR_SINK_FORMATS (sizeof(sink_formats) / sizeof(sink_formats[0]))

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n > m && !strcmp(s + n - m, suffix);
}

/**
 * vtrace_sink_open - make the sink for an output file
 * @format: a format's name, or NULL to choose by @path's extension (an
 *	unknown extension gets trace.dat)
 * @path: the output file
 * @out: set to the new sink; free it with vtrace_sink_free()
 *
 * Return: 0, -EINVAL for a @format that is not in the table (see
 * vtrace_sink_formats()), or another negative errno.
 */
int vtrace_sink_open(const char *format, const char *path,
		     struct vtrace_sink **out)
{
	const struct sink_format *f = &sink_formats[0];
	size_t i;

	*out = NULL;
	for (i = 0; i < NR_SINK_FORMATS; i++) {
		if (format ? !strcmp(format, sink_formats[i].name) :
			     ends_with(path, sink_formats[i].extension)) {
			f = &sink_formats[i];
			break;
		}
	}
	if (format && i == NR_SINK_FORMATS)
		return -EINVAL;
	return f->create(path, out);
}

/**
 * vtrace_sink_format_known - whether vtrace_sink_open() takes a format name
 * @format: a --format name
 *
 * Return: true if @format is in the table of output formats.
 */
bool vtrace_sink_format_known(const char *format)
{
	size_t i;

	for (i = 0; i < NR_SINK_FORMATS; i++)
		if (!strcmp(format, sink_formats[i].name))
			return true;
	return false;
}

/**
 * vtrace_sink_formats - the names vtrace_sink_open() takes, for messages
 *
 * Return: a string such as "tracedat, perfetto".
 */
const char *vtrace_sink_formats(void)
{
	static char names[128];
	size_t i;

	if (names[0])
		return names;
	for (i = 0; i < NR_SINK_FORMATS; i++) {
		if (i)
			strncat(names, ", ", sizeof(names) - strlen(names) - 1);
		strncat(names, sink_formats[i].name,
			sizeof(names) - strlen(names) - 1);
	}
	return names;
}

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
