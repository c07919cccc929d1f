/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The output formats: one table (sinks/format.c) that "record -o",
 * "convert" and their --format options all look formats up in. A format
 * is a row: its name, its file extension, the sink a recording writes it
 * through (sink.h), and the writer a conversion of a trace.dat uses.
 * Adding a format is a folder under sinks/ and a row.
 */
#ifndef _VTRACE_FORMAT_H
#define _VTRACE_FORMAT_H

#include <stdbool.h>

#include <vtrace/sink.h>

/**
 * struct vtrace_format - one output format
 * @name: its --format name
 * @extension: output files ending in it get this format
 * @sink_create: makes the sink a recording writes it through; NULL when
 *	recordings cannot be written in it
 * @convert: its writer for "vtrace convert"; NULL when a trace.dat is not
 *	converted into it (or this build has no libtracecmd to read one)
 */
struct vtrace_format {
	const char *name;
	const char *extension;
	vtrace_sink_create_fn sink_create;
	const struct vtrace_convert_ops *convert;
};

/**
 * enum vtrace_format_use - what a format is looked up for
 * @VTRACE_FORMAT_RECORD: the output of a recording
 * @VTRACE_FORMAT_CONVERT: the output of a conversion
 */
enum vtrace_format_use {
	VTRACE_FORMAT_RECORD,
	VTRACE_FORMAT_CONVERT,
};

const struct vtrace_format *vtrace_format_by_name(const char *name,
						  enum vtrace_format_use use);
const struct vtrace_format *vtrace_format_by_path(const char *path,
						  enum vtrace_format_use use);
const char *vtrace_format_names(enum vtrace_format_use use);
int vtrace_sink_open(const char *format, const char *path,
		     struct vtrace_sink **out);

#endif /* _VTRACE_FORMAT_H */
