/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Decompression of a trace.dat version 7's compressed sections and CPU
 * data chunks, for the layout check (tracedat-check-v7.c).
 *
 * Why our own: libtracecmd 1.3 has a compression API
 * (tracecmd_compress_*, tracecmd_uncompress_*), but only in its private
 * header, which Debian's libtracecmd-dev does not install; and it reads a
 * block's sizes from the file and allocates what they say, which is what
 * the check is there to bound first. trace-cmd 3.1.6 as Debian builds it
 * writes and reads zstd only (not zlib), so that is what this reads.
 * Internal to the library.
 */
#ifndef VTRACE_TRACEDAT_DECOMPRESS_H
#define VTRACE_TRACEDAT_DECOMPRESS_H

#include <stdbool.h>
#include <stddef.h>

bool vt_tracedat_can_decompress(const char *algo);
int vt_tracedat_decompress(const char *algo, const void *in, size_t in_len,
			   void *out, size_t out_len);

#endif /* VTRACE_TRACEDAT_DECOMPRESS_H */
