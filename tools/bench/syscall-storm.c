// SPDX-License-Identifier: GPL-2.0
/*
 * syscall-storm - a bounded raw_syscalls load: one process per CPU, each
 * pinned to its CPU, calling getppid() at a fixed rate for a fixed time.
 *
 *   syscall-storm [-r CALLS_PER_SEC_PER_CPU] [-t SECONDS] [-c NCPUS]
 *	[-p SCHED_FIFO_PRIO] [-w TRACE_MARKER [-s BYTES]] [-i]
 *
 * -w makes each call a write(2) of BYTES (default 512) to TRACE_MARKER
 * instead: one ftrace/print event of that size per call, the load of an
 * Android app's atrace markers, whose cost to a reader is in the bytes
 * it moves rather than in the events the writer makes.
 *
 * The rate is kept by checking the clock every 256 calls and sleeping
 * ahead of schedule, so the load leaves CPU time to the reader being
 * measured. -r 0 means as fast as possible. -p runs it at a realtime
 * priority: above a reader's, the reader gets only the time the storm
 * sleeps, and what it can record in that time is its own cost. Prints the
 * total number of calls made on stdout.
 *
 * -i adds, on the same line after a space, the involuntary context
 * switches the storm's processes had (each its own getrusage(RUSAGE_SELF)
 * ru_nivcsw, summed): how often a tracer's threads took their CPU.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

struct storm_opts {
	double rate;
	double seconds;
	int prio;
	const char *marker;
	size_t marker_size;
};

static unsigned long long storm(int cpu, const struct storm_opts *o)
{
	struct sched_param param = { .sched_priority = o->prio };
	unsigned long long calls = 0;
	double start, t, ahead;
	char *buf = NULL;
	cpu_set_t set;
	int i, fd = -1;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	if (o->prio && sched_setscheduler(0, SCHED_FIFO, &param)) {
		perror("syscall-storm: SCHED_FIFO");
		_exit(1);
	}
	if (o->marker) {
		fd = open(o->marker, O_WRONLY);
		buf = malloc(o->marker_size);
		if (fd < 0 || !buf) {
			perror(o->marker);
			_exit(1);
		}
		memset(buf, 'm', o->marker_size);
	}
	start = now();
	for (;;) {
		for (i = 0; i < 256; i++) {
			if (fd < 0) {
				syscall(SYS_getppid);
			} else if (write(fd, buf, o->marker_size) < 0) {
				perror("syscall-storm: write");
				_exit(1);
			}
		}
		calls += 256;
		t = now() - start;
		if (t >= o->seconds)
			return calls;
		if (o->rate > 0) {
			ahead = calls / o->rate - t;
			if (ahead > 0.0005)
				usleep(ahead * 1e6);
		}
	}
}

int main(int argc, char **argv)
{
	int ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct storm_opts o = { .seconds = 1, .marker_size = 512 };
	unsigned long long *calls, total = 0, nivcsw = 0;
	int c, cpu, show_nivcsw = 0;
	struct rusage ru;

	while ((c = getopt(argc, argv, "r:t:c:p:w:s:i")) != -1) {
		switch (c) {
		case 'r':
			o.rate = atof(optarg);
			break;
		case 't':
			o.seconds = atof(optarg);
			break;
		case 'c':
			ncpus = atoi(optarg);
			break;
		case 'p':
			o.prio = atoi(optarg);
			break;
		case 'w':
			o.marker = optarg;
			break;
		case 's':
			o.marker_size = strtoul(optarg, NULL, 0);
			break;
		case 'i':
			show_nivcsw = 1;
			break;
		default:
			fprintf(stderr,
				"usage: %s [-r RATE] [-t SECONDS] [-c NCPUS] [-p PRIO] [-w TRACE_MARKER [-s BYTES]] [-i]\n",
				argv[0]);
			return 2;
		}
	}
	if (!o.marker_size) {
		fprintf(stderr, "syscall-storm: -s needs a size above 0\n");
		return 2;
	}
	/* Per CPU: the calls made, then the involuntary context switches. */
	calls = mmap(NULL, 2 * ncpus * sizeof(*calls), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (calls == MAP_FAILED)
		return 1;
	for (cpu = 0; cpu < ncpus; cpu++) {
		if (fork() == 0) {
			calls[cpu] = storm(cpu, &o);
			if (!getrusage(RUSAGE_SELF, &ru))
				calls[ncpus + cpu] = ru.ru_nivcsw;
			_exit(0);
		}
	}
	while (wait(NULL) > 0)
		;
	for (cpu = 0; cpu < ncpus; cpu++) {
		total += calls[cpu];
		nivcsw += calls[ncpus + cpu];
	}
	if (show_nivcsw)
		printf("%llu %llu\n", total, nivcsw);
	else
		printf("%llu\n", total);
	return 0;
}
