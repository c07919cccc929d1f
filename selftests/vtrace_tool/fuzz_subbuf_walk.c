// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the in-line sub-buffer walk (ring/subbuf-walk.h):
 * each input is a sub-buffer, walked with both long sizes. Every event
 * handed out must lie inside the input, after the one before; the walk
 * must end. Anything else (a crash, a hang, a sanitizer report) is a bug.
 * subbuf_walk_test.c compares the walk with libtraceevent's kbuffer on
 * sub-buffers the kernel could write; kbuffer itself reads past a
 * malformed one, so it has no place here.
 *
 * Built and run by fuzz_run.sh (clang, ASan, UBSan) on
 * fuzz-subbuf-walk-corpus/.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ring/subbuf-walk.h"

static void walk(const uint8_t *data, size_t size, int long_size)
{
	const unsigned char *event, *end = data + size, *after = data;
	struct vt_subbuf_walk w;
	unsigned int len;
	uint64_t ts;

	if (vt_subbuf_walk_init(&w, data, size, long_size))
		return;
	while ((event = vt_subbuf_walk_next(&w, &len, &ts))) {
		if (event < after || event > end || len > (size_t)(end - event))
			abort();
		after = event + len;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* A copy of its own size: ASan sees any read past it. */
	uint8_t *copy = malloc(size ? size : 1);

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	walk(copy, size, 8);
	walk(copy, size, 4);
	free(copy);
	return 0;
}
