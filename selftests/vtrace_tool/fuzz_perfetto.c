// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the Perfetto reader: each input is a Perfetto
 * trace. What parses is reported (every field of every event looked at)
 * and its slices profiled. Any result is fine; a crash, hang, leak or
 * sanitizer report is not.
 *
 * Built and run by fuzz_run.sh (clang, ASan, UBSan) from the
 * library's sources, on fuzz-perfetto-corpus/.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <vtrace/perfetto-input.h>
#include <vtrace/profile.h>

static size_t look_at(const struct vt_perfetto_input *in)
{
	const struct vt_pf_value *v;
	size_t i, k, sum = 0;

	for (i = 0; i < in->nr_events; i++) {
		sum += strlen(in->events[i].name);
		if (in->events[i].first_value + in->events[i].nr_values >
		    in->nr_values)
			abort();
		for (k = 0; k < in->events[i].nr_values; k++) {
			v = &in->values[in->events[i].first_value + k];
			sum += strlen(v->name);
			if (v->kind == VT_PF_VALUE_STR && v->len)
				sum += (unsigned char)v->str[v->len - 1];
		}
		if (vtrace_perfetto_comm(in, in->events[i].pid))
			sum++;
	}
	return sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vt_perfetto_input in;
	struct vt_profile p;
	char msg[256];

	if (!vtrace_perfetto_parse(&in, data, size, msg, sizeof(msg))) {
		if (look_at(&in) == SIZE_MAX)
			abort();
		if (!vtrace_profile_build(&p, &in.slices, -1))
			vtrace_profile_free(&p);
	}
	vtrace_perfetto_input_free(&in);
	return 0;
}
