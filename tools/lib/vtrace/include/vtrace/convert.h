/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Converting a trace.dat into another trace format.
 *
 * Each output format that converts is a row of the formats' table
 * (format.h) with a writer that takes the file's records one by one
 * (struct vtrace_convert_ops).
 * The input is read through libtracecmd (tracedat-input.h), so this unit
 * is not in a static build of the library.
 */
#ifndef _VTRACE_CONVERT_H
#define _VTRACE_CONVERT_H

#include <stddef.h>
#include <stdint.h>

struct vtrace_format;

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
 * vtrace_convert - convert a trace.dat
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
 * input (see vtrace_tracedat_open()); another negative errno for an I/O or
 * writer failure.
 */
int vtrace_convert(const char *in, const char *out,
		   const struct vtrace_format *format,
		   struct vt_convert_result *result, char *msg,
		   size_t msg_size);

#endif /* _VTRACE_CONVERT_H */
