// SPDX-License-Identifier: GPL-2.0
/*
 * dmtrace_write - the dmtrace writer on slices vtrace convert cannot
 * give it, for slices_test.sh: those of a method trace built by hand
 * (thread ids above 32767, the idle task's 0), written again.
 *
 *   dmtrace_write IN.trace OUT.trace
 *
 * Prints the writer's counts ("records N", "threads N", "methods N",
 * "mapped_tids N", "crossing N", "async N"); exits 1 with the message on
 * failure.
 */
#include <stdio.h>

#include <vtrace/dmtrace.h>

int main(int argc, char **argv)
{
	struct vt_dmtrace_write_stats st;
	struct vt_dmtrace t;
	struct vt_slices s;
	char msg[256] = "";
	int ret;

	if (argc != 3) {
		fprintf(stderr, "usage: dmtrace_write IN.trace OUT.trace\n");
		return 2;
	}
	ret = vtrace_slices_init(&s);
	if (!ret)
		ret = vtrace_dmtrace_load(&t, argv[1], msg, sizeof(msg));
	if (!ret)
		ret = vtrace_dmtrace_slices(&t, &s);
	vtrace_dmtrace_free(&t);
	if (!ret)
		ret = vtrace_dmtrace_write(&s, argv[2], false, &st, msg,
					   sizeof(msg));
	vtrace_slices_free(&s);
	if (ret) {
		fprintf(stderr, "dmtrace_write: %s\n", msg);
		return 1;
	}
	printf("records %zu\nthreads %zu\nmethods %zu\nmapped_tids %zu\ncrossing %zu\nasync %zu\n",
	       st.records, st.threads, st.methods, st.mapped_tids, st.crossing,
	       st.async);
	return 0;
}
