// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the dmtrace reader: each input is a combined
 * method trace (key text, then the binary data); the part after the
 * first "*end" line is also read as a split pair's .data. What parses
 * is turned into slices and profiled. Any result is fine; a crash,
 * hang, leak or sanitizer report is not.
 *
 * Built and run by fuzz_run.sh (clang, ASan, UBSan) from the
 * library's sources, on fuzz-dmtrace-corpus/.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <vtrace/dmtrace.h>
#include <vtrace/profile.h>

static void use(const struct vt_dmtrace *t)
{
	struct vt_profile p;
	struct vt_slices s;

	if (vtrace_slices_init(&s) || vtrace_dmtrace_slices(t, &s))
		abort();
	if (!vtrace_profile_build(&p, &s, -1))
		vtrace_profile_free(&p);
	vtrace_slices_free(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char end[] = "\n*end\n";
	struct vt_dmtrace t;
	char msg[256];
	const uint8_t *split;

	if (!vtrace_dmtrace_parse_combined(&t, data, size, msg, sizeof(msg)))
		use(&t);
	vtrace_dmtrace_free(&t);
	split = memmem(data, size, end, sizeof(end) - 1);
	if (split) {
		split += sizeof(end) - 1;
		if (!vtrace_dmtrace_parse(&t, (const char *)data, split - data,
					  split, data + size - split, msg,
					  sizeof(msg)))
			use(&t);
		vtrace_dmtrace_free(&t);
	}
	return 0;
}
