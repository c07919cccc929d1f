// SPDX-License-Identifier: GPL-2.0
/*
 * dmtrace_write - the dmtrace writer on its own, for slices_test.sh:
 * the slices of a trace.dat (or of a method trace) written as a method
 * trace.
 *
 *   dmtrace_write IN OUT.trace [--split]
 *
 * Prints the writer's counts ("records N", "threads N", "methods N",
 * "mapped_tids N", "crossing N", "async N"); exits 1 with its message on
 * failure.
 */
#include <stdio.h>
#include <string.h>

#include <vtrace/dmtrace.h>
#include <vtrace/slices-tracedat.h>

static int load_dmtrace(struct vt_slices *s, const char *path, char *msg,
			size_t msg_size)
{
	struct vt_dmtrace t;
	int ret;

	ret = vt_dmtrace_load(&t, path, msg, msg_size);
	if (!ret)
		ret = vt_dmtrace_slices(&t, s);
	vt_dmtrace_free(&t);
	return ret;
}

int main(int argc, char **argv)
{
	struct vt_dmtrace_write_stats st;
	struct vt_slices s;
	char msg[256] = "";
	int ret;

	if (argc < 3 || argc > 4 || (argc == 4 && strcmp(argv[3], "--split"))) {
		fprintf(stderr, "usage: dmtrace_write IN OUT.trace [--split]\n");
		return 2;
	}
	ret = vt_slices_init(&s);
	if (!ret && vt_dmtrace_probe(argv[1]))
		ret = load_dmtrace(&s, argv[1], msg, sizeof(msg));
	else if (!ret)
		ret = vt_slices_from_tracedat(&s, argv[1], msg, sizeof(msg));
	if (!ret)
		ret = vt_dmtrace_write(&s, argv[2], argc == 4, &st, msg,
				       sizeof(msg));
	vt_slices_free(&s);
	if (ret) {
		fprintf(stderr, "dmtrace_write: %s\n", msg);
		return 1;
	}
	printf("records %zu\nthreads %zu\nmethods %zu\nmapped_tids %zu\ncrossing %zu\nasync %zu\n",
	       st.records, st.threads, st.methods, st.mapped_tids, st.crossing,
	       st.async);
	return 0;
}
