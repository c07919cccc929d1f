// SPDX-License-Identifier: GPL-2.0
/*
 * Decompression of trace.dat version 7 blocks; see tracedat-decompress.h.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include <zstd.h>

#include "sinks/tracedat/tracedat-decompress.h"

/**
 * vt_tracedat_can_decompress - whether blocks of an algorithm are read
 * @algo: the name the file header gives
 *
 * Return: true for "zstd".
 */
bool vt_tracedat_can_decompress(const char *algo)
{
	return !strcmp(algo, "zstd");
}

/**
 * vt_tracedat_decompress - decompress one block into a buffer of the size
 * the file says it has
 * @algo: the file's compression algorithm
 * @in: the compressed bytes
 * @in_len: bytes of @in
 * @out: the buffer
 * @out_len: the size the file gives for the decompressed block
 *
 * Return: 0 when @in decompresses into exactly @out_len bytes,
 * -EOPNOTSUPP for an algorithm not read here, -EINVAL otherwise.
 */
int vt_tracedat_decompress(const char *algo, const void *in, size_t in_len,
			   void *out, size_t out_len)
{
	size_t n;

	if (!vt_tracedat_can_decompress(algo))
		return -EOPNOTSUPP;
	n = ZSTD_decompress(out, out_len, in, in_len);
	if (ZSTD_isError(n) || n != out_len)
		return -EINVAL;
	return 0;
}
