/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Converting a trace.dat into another trace format.
 *
 * Each output format is one entry of the table in convert.c: a writer
 * that takes the file's records one by one (struct vt_convert_format).
 * The input is read through libtracecmd (tracedat-input.h), so this unit
 * is not in a static build of the library.
 */
#ifndef _VTRACE_CONVERT_H
#define _VTRACE_CONVERT_H

#include <stddef.h>
#include <stdint.h>

struct tep_handle;
struct tep_record;
struct vt_perfetto_cpu_stats;

/**
 * struct vt_convert_input - what a format's writer is told about the input
 * @tep: the events' formats, cmdlines and printk formats
 * @ncpus: records come from CPUs 0..@ncpus-1
 * @clock: the file's trace clock ("local", "boot", ...), or NULL
 * @stats: each CPU's ring-buffer counters, or NULL when the file has none
 */
struct vt_convert_input {
	struct tep_handle *tep;
	int ncpus;
	const char *clock;
	const struct vt_perfetto_cpu_stats *stats;
};

/**
 * struct vt_convert_format - one output format
 * @name: its --format name
 * @extension: the output file name ending that selects it
 * @create: start a writer on @fd (0 or -errno)
 * @add_record: write one record (0 or -errno)
 * @finish: complete the file (0 or -errno)
 * @strerror: the writer's last failure
 * @free: release the writer
 */
struct vt_convert_format {
	const char *name;
	const char *extension;
	int (*create)(void **writer, int fd, const struct vt_convert_input *in);
	int (*add_record)(void *writer, struct tep_record *record);
	int (*finish)(void *writer);
	const char *(*strerror)(void *writer);
	void (*free)(void *writer);
};

/**
 * vt_convert_format_by_name - look a format up by its --format name
 * @name: e.g. "perfetto"
 *
 * Return: the format, or NULL.
 */
const struct vt_convert_format *vt_convert_format_by_name(const char *name);

/**
 * vt_convert_format_by_path - the format an output file name asks for
 * @path: the output file; its extension selects the format
 *
 * Return: the format, or NULL when no format has that extension.
 */
const struct vt_convert_format *vt_convert_format_by_path(const char *path);

/**
 * vt_convert_format_names - the formats, for a usage message
 *
 * Return: e.g. "perfetto (.pftrace)", in a static buffer.
 */
const char *vt_convert_format_names(void);

/**
 * struct vt_convert_result - what a conversion did
 * @events: records written
 * @bytes: size of the output file
 * @buffers_left_out: instance buffers of the file (trace-cmd record -B)
 *	that were not converted: only the top-level buffer is
 */
struct vt_convert_result {
	uint64_t events;
	uint64_t bytes;
	int buffers_left_out;
};

/**
 * vt_convert - convert a trace.dat
 * @in: the trace.dat (any version libtracecmd reads, compressed or not)
 * @out: the output file: written as a temporary file in its directory
 *	and renamed over @out only when complete, so a failure leaves no
 *	partial file and an existing @out untouched
 * @format: the output format
 * @result: filled in on success; may be NULL
 * @msg: set to why the conversion failed (naming the file), on failure
 * @msg_size: size of @msg
 *
 * Return: 0; -ENODATA or -EINVAL for an unfinished, truncated or corrupt
 * input (see vt_tracedat_open()); another negative errno for an I/O or
 * writer failure.
 */
int vt_convert(const char *in, const char *out,
	       const struct vt_convert_format *format,
	       struct vt_convert_result *result, char *msg, size_t msg_size);

#endif /* _VTRACE_CONVERT_H */
