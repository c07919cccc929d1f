// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the trace.dat reader side: each input is written to
 * a file and given to `vtrace report` (layout check, libtracecmd open,
 * event iteration, text formatting) and to `vtrace report --json`.
 * Any exit status is fine; a crash, hang or sanitizer report is not.
 *
 * Built and run by fuzz_report.sh (clang, ASan, UBSan) on the seed
 * corpus it makes from a real capture.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"

#define PATH_TEMPLATE "/tmp/vtrace-fuzz-XXXXXX"

static char path[sizeof(PATH_TEMPLATE)];
static int fd = -1;

static void report(char *json)
{
	char *argv[4] = { "report", path, json, NULL };

	cmd_report(json ? 3 : 2, argv);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (fd < 0) {
		/* Output goes nowhere: fuzz_report.sh passes -close_fd_mask=3. */
		memcpy(path, PATH_TEMPLATE, sizeof(path));
		fd = mkstemp(path);
		if (fd < 0)
			abort();
	}
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	report(NULL);
	report("--json");
	return 0;
}
