// SPDX-License-Identifier: GPL-2.0
/*
 * rt_hog - keep every online CPU busy at a realtime priority for a while,
 * writing a line to a file (a trace_marker) on each pass, for the tests
 * of readers that tasks above their priority starve.
 *
 *   rt_hog PRIO MS FILE
 *
 * One thread per online CPU, pinned to it, at SCHED_FIFO PRIO, for MS
 * milliseconds (at most 10000) or until a SIGTERM, whichever comes
 * first, so that a test can end it once it has seen what it waits for.
 * The kernel's realtime throttling (sched_rt_runtime_us) still leaves the
 * rest of the system its share; the test skips where it is off. Exits 0
 * once every thread has spun, 1 on failure.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long spin_ms;
static int marker_fd;
static volatile sig_atomic_t ended;

static void end_spinning(int sig)
{
	(void)sig;
	ended = 1;
}

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void *spin(void *arg)
{
	static const char line[] = "rt_hog\n";
	double end = now_ms() + spin_ms;

	while (!ended && now_ms() < end)
		if (write(marker_fd, line, sizeof(line) - 1) < 0)
			return (void *)(long)errno;
	return NULL;
}

int main(int argc, char **argv)
{
	struct sched_param param = { 0 };
	pthread_t *threads;
	pthread_attr_t attr;
	cpu_set_t on_cpu;
	int ncpus, cpu, n = 0, err, failed = 0;
	void *ret;

	if (argc != 4) {
		fprintf(stderr, "usage: rt_hog PRIO MS FILE\n");
		return 1;
	}
	param.sched_priority = atoi(argv[1]);
	spin_ms = atol(argv[2]);
	if (spin_ms <= 0 || spin_ms > 10000) {
		fprintf(stderr, "rt_hog: MS must be 1..10000\n");
		return 1;
	}
	signal(SIGTERM, end_spinning);
	marker_fd = open(argv[3], O_WRONLY | O_CLOEXEC);
	if (marker_fd < 0) {
		fprintf(stderr, "rt_hog: %s: %s\n", argv[3], strerror(errno));
		return 1;
	}
	ncpus = sysconf(_SC_NPROCESSORS_CONF);
	threads = calloc(ncpus, sizeof(*threads));
	if (!threads)
		return 1;
	for (cpu = 0; cpu < ncpus; cpu++) {
		CPU_ZERO(&on_cpu);
		CPU_SET(cpu, &on_cpu);
		pthread_attr_init(&attr);
		pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
		pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
		pthread_attr_setschedparam(&attr, &param);
		pthread_attr_setaffinity_np(&attr, sizeof(on_cpu), &on_cpu);
		err = pthread_create(&threads[n], &attr, spin, NULL);
		pthread_attr_destroy(&attr);
		if (err == EINVAL)
			continue; /* an offline CPU */
		if (err) {
			fprintf(stderr, "rt_hog: cpu%d: %s\n", cpu,
				strerror(err));
			failed = 1;
			break;
		}
		n++;
	}
	while (n--) {
		pthread_join(threads[n], &ret);
		if (ret) {
			fprintf(stderr, "rt_hog: write: %s\n",
				strerror((int)(long)ret));
			failed = 1;
		}
	}
	free(threads);
	return failed;
}
