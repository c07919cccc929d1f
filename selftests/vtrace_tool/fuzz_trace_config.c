// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the TraceConfig readers, text format and binary
 * form (make fuzz).
 *
 * Besides memory errors and undefined behaviour (ASan, UBSan), it checks
 * the contract on every input: a refused config has at least one error and
 * leaves the config empty; an accepted one has none, and written back as
 * text it reads back to the very same text.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vtrace/trace-config.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* @tc in text format, malloc'ed. */
static char *written(const struct vtrace_trace_config *tc, size_t *len)
{
	char *text = NULL;
	FILE *f = open_memstream(&text, len);

	if (!f || vtrace_trace_config_write(tc, f))
		abort();
	fclose(f);
	return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vtrace_trace_config tc, again;
	struct vtrace_diags diags;
	size_t len, len2;
	char *text, *text2;
	int ret;

	vtrace_trace_config_init(&tc);
	vtrace_diags_init(&diags);
	ret = vtrace_trace_config_parse(&tc, "fuzz", (const char *)data, size,
					VTRACE_CONFIG_AUTO, false, &diags);
	if (ret == -EINVAL && (!diags.nr_errors || tc.file || tc.has_ftrace))
		abort();
	if (!ret && diags.nr_errors)
		abort();
	if (!ret) {
		text = written(&tc, &len);
		vtrace_trace_config_init(&again);
		vtrace_diags_free(&diags);
		if (vtrace_trace_config_parse(&again, "fuzz", text, len,
					      VTRACE_CONFIG_TEXT, false,
					      &diags))
			abort();
		text2 = written(&again, &len2);
		if (len != len2 || memcmp(text, text2, len))
			abort();
		free(text);
		free(text2);
		vtrace_trace_config_free(&again);
	}
	vtrace_diags_free(&diags);
	vtrace_trace_config_free(&tc);
	return 0;
}
