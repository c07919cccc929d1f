// SPDX-License-Identifier: GPL-2.0
/*
 * tracedat_capture - drain a tracefs instance into a trace.dat through
 * vtrace's writer, for the writer and report tests.
 *
 *   tracedat_capture -o FILE [-i INSTANCE] [-e SYSTEM/EVENT]... [-k]
 *
 * Reads every CPU's per_cpu/cpuN/trace_pipe_raw with plain non-blocking
 * read() until it is empty (the real readers are vtrace record's; this
 * only needs pages in the kernel's layout), adds each page with
 * vtrace_tracedat_add_page() and finishes the file. -e limits the stored
 * formats to those events. -k raises SIGKILL instead of finishing, to
 * test a killed recording. On a write error (disk full) it stops adding
 * and still finishes, like vtrace record.
 *
 * Prints "pages N" per CPU line "cpuN pages P" and exits 0 on success;
 * 1 with the writer's message when a page could not be added (the file
 * is still finished), 2 on other errors.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include <vtrace/tracedat-writer.h>

#define MAX_EVENTS 64

static int drain_cpu(struct vt_tracedat *td, struct tracefs_instance *inst,
		     int cpu, char *page, size_t page_size, int *pages)
{
	char file[64];
	char *path;
	ssize_t n;
	int fd, ret = 0;

	snprintf(file, sizeof(file), "per_cpu/cpu%d/trace_pipe_raw", cpu);
	path = tracefs_instance_get_file(inst, file);
	if (!path)
		return -ENOMEM;
	fd = open(path, O_RDONLY | O_NONBLOCK);
	tracefs_put_tracing_file(path);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	for (;;) {
		n = read(fd, page, page_size);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ret = n < 0 && errno != EAGAIN ? -errno : 0;
			break;
		}
		ret = vtrace_tracedat_add_page(td, cpu, page, n);
		if (ret)
			break;
		(*pages)++;
	}
	close(fd);
	return ret;
}

int main(int argc, char **argv)
{
	const char *events[MAX_EVENTS + 1] = { NULL };
	struct vt_tracedat_opts opts = { 0 };
	struct tracefs_instance *inst = NULL;
	const char *out = NULL, *iname = NULL;
	int nevents = 0, kill_self = 0, status = 0;
	struct vt_tracedat *td;
	int opt, cpu, ret, pages;
	char *page;

	while ((opt = getopt(argc, argv, "o:i:e:k")) != -1) {
		switch (opt) {
		case 'o':
			out = optarg;
			break;
		case 'i':
			iname = optarg;
			break;
		case 'e':
			if (nevents == MAX_EVENTS)
				return 2;
			events[nevents++] = optarg;
			break;
		case 'k':
			kill_self = 1;
			break;
		default:
			return 2;
		}
	}
	if (!out) {
		fprintf(stderr,
			"usage: %s -o FILE [-i INSTANCE] [-e SYS/EV]... [-k]\n",
			argv[0]);
		return 2;
	}
	if (iname) {
		inst = tracefs_instance_alloc(NULL, iname);
		if (!inst || !tracefs_instance_exists(iname)) {
			fprintf(stderr, "no instance %s\n", iname);
			return 2;
		}
	}

	opts.instance = inst;
	opts.ncpus = sysconf(_SC_NPROCESSORS_CONF);
	opts.page_size = getpagesize();
	opts.events = nevents ? events : NULL;
	page = malloc(opts.page_size);
	ret = page ? vtrace_tracedat_create(&td, out, &opts) : -ENOMEM;
	if (ret) {
		fprintf(stderr, "creating %s: %s\n", out, strerror(-ret));
		return 2;
	}

	for (cpu = 0; cpu < opts.ncpus; cpu++) {
		pages = 0;
		ret = drain_cpu(td, inst, cpu, page, opts.page_size, &pages);
		printf("cpu%d pages %d\n", cpu, pages);
		if (ret) {
			fprintf(stderr, "cpu%d: %s\n", cpu,
				*vtrace_tracedat_strerror(td) ?
					vtrace_tracedat_strerror(td) :
					strerror(-ret));
			status = 1;
			break;
		}
	}
	fflush(stdout);
	if (kill_self)
		raise(SIGKILL);

	ret = vtrace_tracedat_finish(td);
	if (ret) {
		fprintf(stderr, "finishing %s: %s\n", out,
			vtrace_tracedat_strerror(td));
		status = 2;
	}
	vtrace_tracedat_close(td);
	tracefs_instance_free(inst);
	free(page);
	return status;
}
