// SPDX-License-Identifier: GPL-2.0
/*
 * syscall-storm - a bounded raw_syscalls load: one process per CPU, each
 * pinned to its CPU, calling getppid() at a fixed rate for a fixed time.
 *
 *   syscall-storm [-r CALLS_PER_SEC_PER_CPU] [-t SECONDS] [-c NCPUS]
 *	[-p SCHED_FIFO_PRIO]
 *
 * The rate is kept by checking the clock every 256 calls and sleeping
 * ahead of schedule, so the load leaves CPU time to the reader being
 * measured. -r 0 means as fast as possible. -p runs it at a realtime
 * priority: above a reader's, the reader gets only the time the storm
 * sleeps, and what it can record in that time is its own cost. Prints the total number of
 * getppid() calls made on stdout (each is one sys_enter and one
 * sys_exit event).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
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

static unsigned long long storm(int cpu, double rate, double seconds, int prio)
{
	struct sched_param param = { .sched_priority = prio };
	unsigned long long calls = 0;
	double start, t, ahead;
	cpu_set_t set;
	int i;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	if (prio && sched_setscheduler(0, SCHED_FIFO, &param)) {
		perror("syscall-storm: SCHED_FIFO");
		_exit(1);
	}
	start = now();
	for (;;) {
		for (i = 0; i < 256; i++)
			syscall(SYS_getppid);
		calls += 256;
		t = now() - start;
		if (t >= seconds)
			return calls;
		if (rate > 0) {
			ahead = calls / rate - t;
			if (ahead > 0.0005)
				usleep(ahead * 1e6);
		}
	}
}

int main(int argc, char **argv)
{
	int ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	double rate = 0, seconds = 1;
	unsigned long long *calls, total = 0;
	int c, cpu, prio = 0;

	while ((c = getopt(argc, argv, "r:t:c:p:")) != -1) {
		switch (c) {
		case 'r':
			rate = atof(optarg);
			break;
		case 't':
			seconds = atof(optarg);
			break;
		case 'c':
			ncpus = atoi(optarg);
			break;
		case 'p':
			prio = atoi(optarg);
			break;
		default:
			fprintf(stderr,
				"usage: %s [-r RATE] [-t SECONDS] [-c NCPUS] [-p PRIO]\n",
				argv[0]);
			return 2;
		}
	}
	calls = mmap(NULL, ncpus * sizeof(*calls), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (calls == MAP_FAILED)
		return 1;
	for (cpu = 0; cpu < ncpus; cpu++) {
		if (fork() == 0) {
			calls[cpu] = storm(cpu, rate, seconds, prio);
			_exit(0);
		}
	}
	while (wait(NULL) > 0)
		;
	for (cpu = 0; cpu < ncpus; cpu++)
		total += calls[cpu];
	printf("%llu\n", total);
	return 0;
}
