// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the atrace marker parser and what consumes its
 * output: each input line is a marker (trace_marker text) written by
 * one of four threads at a growing timestamp (the line's first byte
 * picks the thread and the step; with its top bit set, the line is a
 * function graph entry or, with 0x20 too, an exit of the function it
 * names); the slices are then built, profiled,
 * drawn as dot and written as a method trace, which is read back.
 * Any result is fine; a crash, hang, leak or sanitizer report is not.
 *
 * Built and run by fuzz_run.sh (clang, ASan, UBSan) from the
 * library's sources, on fuzz-slices-corpus/.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vtrace/dmtrace.h>
#include <vtrace/profile.h>
#include <vtrace/slices.h>

static void write_and_read_back(const struct vt_slices *s)
{
	struct vt_dmtrace_write_stats st;
	struct vt_slices back;
	struct vt_dmtrace t;
	char msg[256], *buf = NULL;
	size_t len = 0;
	FILE *f;

	f = open_memstream(&buf, &len);
	if (!f)
		abort();
	if (vtrace_dmtrace_write_stream(s, f, f, &st, msg, sizeof(msg))) {
		fclose(f);
		free(buf);
		return;
	}
	fclose(f);
	/* What we write, we read: anything else is a finding. */
	if (vtrace_dmtrace_parse_combined(&t, (unsigned char *)buf, len, msg,
					  sizeof(msg)) ||
	    vtrace_slices_init(&back) || vtrace_dmtrace_slices(&t, &back))
		abort();
	if (back.nr_slices + st.crossing != s->nr_slices)
		abort();
	vtrace_slices_free(&back);
	vtrace_dmtrace_free(&t);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size, *nl;
	struct vt_profile prof;
	struct vt_slices s;
	uint64_t ts = 1000000;
	FILE *null;
	int tid, ret;

	if (vtrace_slices_init(&s))
		abort();
	for (; p < end; p = nl + 1) {
		nl = memchr(p, '\n', end - p);
		if (!nl)
			nl = end;
		if (nl == p)
			continue;
		ts += 1000 * (1 + (p[0] & 0xf));
		tid = 100 + ((p[0] >> 4) & 3);
		if (!(p[0] & 0x80))
			ret = vtrace_slices_marker(&s, ts, tid, p + 1,
						   nl - p - 1);
		else if (p[0] & 0x20)
			ret = vtrace_slices_end(
				&s, ts, tid, strndupa(p + 1, nl - p - 1), true);
		else
			ret = vtrace_slices_begin(&s, ts, 0, tid, p + 1,
						  nl - p - 1, true);
		if (ret)
			abort();
		if (p[0] & 0x40 && vtrace_slices_sched_switch(&s, ts, 100, 101))
			abort();
	}
	if (vtrace_slices_finish(&s))
		abort();
	if (!vtrace_profile_build(&prof, &s, -1)) {
		null = fopen("/dev/null", "w");
		if (!null)
			abort();
		vtrace_profile_write_dot(&prof, null, 0);
		fclose(null);
		vtrace_profile_free(&prof);
	}
	write_and_read_back(&s);
	vtrace_slices_free(&s);
	return 0;
}
