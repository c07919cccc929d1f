// SPDX-License-Identifier: LGPL-2.1
/*
 * The one table of output formats (see format.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <vtrace/dmtrace-convert.h>
#include <vtrace/format.h>

#include "sinks/perfetto/perfetto-convert.h"

/*
 * One row per format. The first that records is the default for an
 * output of any other extension. Converting reads a trace.dat through
 * libtracecmd, which Debian ships shared only: static builds convert
 * nothing.
 */
static const struct vtrace_format formats[] = {
	{ "tracedat", ".dat", vtrace_tracedat_sink_create, NULL },
#ifdef VTRACE_HAVE_TRACECMD
	{ "perfetto", ".pftrace", vtrace_perfetto_sink_create,
	  &vt_perfetto_convert_ops },
	{ "dmtrace", ".trace", NULL, &vt_dmtrace_convert_ops },
#else
	{ "perfetto", ".pftrace", vtrace_perfetto_sink_create, NULL },
#endif
};

#define NR_FORMATS (sizeof(formats) / sizeof(formats[0]))

static bool usable(const struct vtrace_format *f, enum vtrace_format_use use)
{
	if (use == VTRACE_FORMAT_RECORD)
		return f->sink_create;
	return f->convert;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n > m && !strcmp(s + n - m, suffix);
}

/**
 * vtrace_format_by_name - look a format up by its --format name
 * @name: the name
 * @use: what it is for
 *
 * Return: the format, or NULL when none of that name serves @use.
 */
const struct vtrace_format *vtrace_format_by_name(const char *name,
						  enum vtrace_format_use use)
{
	size_t i;

	for (i = 0; i < NR_FORMATS; i++)
		if (usable(&formats[i], use) && !strcmp(formats[i].name, name))
			return &formats[i];
	return NULL;
}

/**
 * vtrace_format_by_path - the format an output file's extension names
 * @path: the output file
 * @use: what it is for
 *
 * Return: the format, or NULL when no format serving @use has the
 * extension.
 */
const struct vtrace_format *vtrace_format_by_path(const char *path,
						  enum vtrace_format_use use)
{
	size_t i;

	for (i = 0; i < NR_FORMATS; i++)
		if (usable(&formats[i], use) &&
		    ends_with(path, formats[i].extension))
			return &formats[i];
	return NULL;
}

/**
 * vtrace_format_names - the formats serving a use, for messages
 * @use: what they are for
 *
 * Return: "tracedat, perfetto" for recordings; "perfetto (.pftrace),
 * dmtrace (.trace)" for conversions, whose format the output's extension
 * must name.
 */
const char *vtrace_format_names(enum vtrace_format_use use)
{
	static char names[2][256];
	char *buf = names[use == VTRACE_FORMAT_CONVERT];
	size_t i, len = 0;
	bool ext = use == VTRACE_FORMAT_CONVERT;

	buf[0] = '\0';
	for (i = 0; i < NR_FORMATS && len < sizeof(names[0]); i++) {
		if (!usable(&formats[i], use))
			continue;
		len += snprintf(buf + len, sizeof(names[0]) - len, "%s%s%s%s%s",
				len ? ", " : "", formats[i].name,
				ext ? " (" : "",
				ext ? formats[i].extension : "",
				ext ? ")" : "");
	}
	return buf;
}

/**
 * vtrace_sink_open - make the sink for a recording's output file
 * @format: a format's name, or NULL to choose by @path's extension (an
 *	unknown extension gets the first format that records: trace.dat)
 * @path: the output file
 * @out: set to the new sink; free it with vtrace_sink_free()
 *
 * Return: 0, -EINVAL for a @format no recording is written in (see
 * vtrace_format_names()), or another negative errno.
 */
int vtrace_sink_open(const char *format, const char *path,
		     struct vtrace_sink **out)
{
	const struct vtrace_format *f;

	*out = NULL;
	f = format ? vtrace_format_by_name(format, VTRACE_FORMAT_RECORD) :
		     vtrace_format_by_path(path, VTRACE_FORMAT_RECORD);
	if (!f && format)
		return -EINVAL;
	return (f ?: &formats[0])->sink_create(path, out);
}
