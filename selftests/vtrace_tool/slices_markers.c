// SPDX-License-Identifier: GPL-2.0
/*
 * slices_markers - a fixed program of atrace markers for slices_test.sh:
 * nested slices on the main thread, a worker thread's slices, an async
 * slice begun on one thread and ended on the other, counters, and the
 * faults the slice builder must count (an end without a begin, a begin
 * left open, malformed markers, plain text). Written Android-style,
 * straight to trace_marker, so that the test does not depend on the
 * marker library.
 *
 *   slices_markers TRACE_MARKER
 *
 * Prints "pid P" and "worker W" for the test to check the slices' ids.
 */
#include <fcntl.h>
#include <stdarg.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int fd;
static int pid;
static int worker_tid;

static void mark(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void mark(const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (write(fd, buf, len) != len) {
		perror("write trace_marker");
		exit(2);
	}
}

/* Some time in a slice, so that durations are not zero. */
static void spin(long us)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while ((b.tv_sec - a.tv_sec) * 1000000 +
		       (b.tv_nsec - a.tv_nsec) / 1000 <
	       us);
}

static void *worker(void *arg)
{
	worker_tid = syscall(SYS_gettid);
	mark("B|%d|work", pid);
	spin(200);
	mark("B|%d|work|step", pid);
	spin(100);
	mark("E|%d", pid);
	mark("E|%d", pid);
	mark("F|%d|load|7", pid);
	return arg;
}

int main(int argc, char **argv)
{
	pthread_t t;

	if (argc != 2) {
		fprintf(stderr, "usage: slices_markers TRACE_MARKER\n");
		return 2;
	}
	fd = open(argv[1], O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		perror(argv[1]);
		return 2;
	}
	pid = getpid();
	mark("hello, not a marker");
	mark("E|%d", pid); /* no begin: unmatched */
	mark("B|%d|outer", pid);
	mark("C|%d|frames|1", pid);
	mark("B|%d|inner", pid);
	spin(100);
	mark("E|%d", pid);
	mark("S|%d|load|7", pid);
	mark("B|%d|inner", pid);
	mark("B|%d|inner", pid); /* recursion */
	spin(100);
	mark("E|%d", pid);
	mark("E|%d", pid);
	mark("C|%d|frames|-2", pid);
	mark("E|%d", pid);
	if (pthread_create(&t, NULL, worker, NULL) || pthread_join(t, NULL))
		return 2;
	mark("B|x%d|bad pid", pid); /* malformed */
	mark("C|%d|no value", pid); /* malformed */
	mark("S|%d|load|", pid); /* malformed */
	mark("B|%d|open at the end", pid);
	printf("pid %d\nworker %d\n", pid, worker_tid);
	return 0;
}
