// SPDX-License-Identifier: GPL-2.0
/*
 * atrace_bench INSTANCE [ROUNDS] - the cost of libvtrace-atrace's markers,
 * side by side, in one run:
 *
 *  - an enabled ATRACE_BEGIN(), against a bare write(2) of the same bytes
 *    to the same trace_marker (the floor: the kernel's own work);
 *  - a marker of a disabled tag (one load and a branch).
 *
 * Rounds of 1000 writes alternate the two writers, in turns of either
 * order, so that both see the same machine; the table gives the median
 * round of each. Markers go to INSTANCE, which
 * atrace_bench.sh makes and removes. The tag file is private: the caller
 * sets VTRACE_STATE_DIR.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define ATRACE_TAG ATRACE_TAG_GRAPHICS
#include <vtrace/atrace.h>
#include <vtrace/atrace-tags.h>

/* Short blocks, alternated: a noisy neighbour hits both writers alike. */
#define WRITES_PER_ROUND 1000
#define DISABLED_PER_ROUND 1000000
#define MAX_ROUNDS 2000

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static double round_enabled(void)
{
	double t0 = now_ns();
	int i;

	for (i = 0; i < WRITES_PER_ROUND; i++)
		ATRACE_BEGIN("bench-slice");
	return (now_ns() - t0) / WRITES_PER_ROUND;
}

static double round_bare(int fd, const char *line, size_t len)
{
	double t0 = now_ns();
	int i;

	for (i = 0; i < WRITES_PER_ROUND; i++)
		if (write(fd, line, len) != (ssize_t)len)
			return -1;
	return (now_ns() - t0) / WRITES_PER_ROUND;
}

static double round_disabled(void)
{
	double t0 = now_ns();
	long i;

	for (i = 0; i < DISABLED_PER_ROUND; i++)
		atrace_begin(ATRACE_TAG_VIEW, "bench-slice");
	return (now_ns() - t0) / DISABLED_PER_ROUND;
}

int main(int argc, char **argv)
{
	static double enabled[MAX_ROUNDS], bare[MAX_ROUNDS],
		disabled[MAX_ROUNDS];
	double e, b, d;
	char path[256], line[64];
	int rounds, r, fd, ret;
	cpu_set_t one;
	size_t len;

	if (argc < 2) {
		fprintf(stderr, "usage: %s INSTANCE [ROUNDS]\n", argv[0]);
		return 2;
	}
	rounds = argc > 2 ? atoi(argv[2]) : 1000;
	if (rounds < 1 || rounds > MAX_ROUNDS)
		rounds = 1000;
	/* One CPU: no migration between the rounds being compared. */
	CPU_ZERO(&one);
	CPU_SET(sched_getcpu(), &one);
	sched_setaffinity(0, sizeof(one), &one);

	ret = vtrace_atrace_tags_hold(argv[1], ATRACE_TAG_GRAPHICS, NULL);
	if (ret) {
		fprintf(stderr, "cannot hold the GRAPHICS tag: %s\n",
			strerror(-ret));
		return 1;
	}
	atrace_setup();
	if (!ATRACE_ENABLED()) {
		fprintf(stderr, "GRAPHICS is not enabled after holding it\n");
		return 1;
	}
	snprintf(path, sizeof(path),
		 "/sys/kernel/tracing/instances/%s/trace_marker", argv[1]);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		perror(path);
		return 1;
	}
	len = snprintf(line, sizeof(line), "B|%d|bench-slice", getpid());

	/* Warm up both paths (the library opens its descriptor here). */
	round_enabled();
	round_bare(fd, line, len);
	for (r = 0; r < rounds; r++) {
		if (r % 2) {
			bare[r] = round_bare(fd, line, len);
			enabled[r] = round_enabled();
		} else {
			enabled[r] = round_enabled();
			bare[r] = round_bare(fd, line, len);
		}
		disabled[r] = round_disabled();
		if (bare[r] < 0) {
			perror("write");
			return 1;
		}
	}
	vtrace_atrace_tags_release(argv[1]);
	close(fd);

	e = median(enabled, rounds);
	b = median(bare, rounds);
	d = median(disabled, rounds);
	printf("libvtrace-atrace markers, median of %d rounds ", rounds);
	printf("(%d writes, %d disabled calls each), one CPU\n\n",
	       WRITES_PER_ROUND, DISABLED_PER_ROUND);
	printf("| %-44s | %9s | %9s | %-14s | %-6s |\n", "case", "ns/call",
	       "vs write", "goal", "result");
	printf("|%s|%s|%s|%s|%s|\n",
	       "----------------------------------------------", "-----------",
	       "-----------", "----------------", "--------");
	printf("| %-44s | %9.1f | %9.3f | %-14s | %-6s |\n",
	       "ATRACE_BEGIN(), tag enabled (one write(2))", e, e / b,
	       "within 10%", e / b <= 1.10 ? "pass" : "FAIL");
	printf("| %-44s | %9.1f | %9.3f | %-14s | %-6s |\n",
	       "bare write(2) of the same bytes", b, 1.0, "(floor)", "-");
	printf("| %-44s | %9.2f | %9s | %-14s | %-6s |\n",
	       "marker of a disabled tag (load and branch)", d, "-",
	       "under 5 ns", d < 5 ? "pass" : "FAIL");
	return e / b <= 1.10 && d < 5 ? 0 : 1;
}
