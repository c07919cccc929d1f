// SPDX-License-Identifier: GPL-2.0
/*
 * atrace_timeline - a fixed program of libvtrace-atrace markers for
 * view_test.sh, recorded while a recording holds ATRACE_TAG_GRAPHICS:
 *
 *   tl-main    frame (x2) > layout > measure (x2), then frame > draw;
 *              a counter "queue" (1, 2, then 0); the async slice "upload"
 *              begun here
 *   tl-worker  decode > parse, then the end of "upload"
 *
 * The lengths are known (busy loops and clock_nanosleep), so every slice
 * is wide enough to be drawn; the test reads the recorded lengths back
 * from the file. Prints "pid P" and "worker W"; exits 2 when the tag is
 * not enabled (no recording holds it).
 */
#define ATRACE_TAG ATRACE_TAG_GRAPHICS

#include <pthread.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <vtrace/atrace.h>

#define NSEC_PER_USEC 1000L

static int worker_tid;

/* Busy for @us: the thread runs the whole slice. */
static void spin(long us)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while ((b.tv_sec - a.tv_sec) * 1000000 +
		       (b.tv_nsec - a.tv_nsec) / NSEC_PER_USEC <
	       us);
}

/* Asleep for @us: a slice whose thread is off the CPU. */
static void nap(long us)
{
	struct timespec t = { us / 1000000, us % 1000000 * NSEC_PER_USEC };

	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &t, &t))
		;
}

static void *worker(void *arg)
{
	worker_tid = syscall(SYS_gettid);
	pthread_setname_np(pthread_self(), "tl-worker");
	ATRACE_BEGIN("decode");
	spin(1500);
	ATRACE_BEGIN("parse");
	spin(1000);
	ATRACE_END();
	ATRACE_END();
	ATRACE_ASYNC_END("upload", 7);
	return NULL;
}

static void frame(int i)
{
	ATRACE_BEGIN("frame");
	ATRACE_BEGIN("layout");
	spin(1000);
	ATRACE_BEGIN("measure");
	spin(500);
	ATRACE_END();
	ATRACE_BEGIN("measure");
	spin(500);
	ATRACE_END();
	ATRACE_END();
	ATRACE_INT("queue", i + 1);
	ATRACE_BEGIN("draw");
	nap(2000);
	ATRACE_END();
	ATRACE_END();
}

int main(void)
{
	pthread_t t;

	if (!ATRACE_ENABLED()) {
		fprintf(stderr,
			"atrace_timeline: ATRACE_TAG_GRAPHICS is off\n");
		return 2;
	}
	pthread_setname_np(pthread_self(), "tl-main");
	ATRACE_ASYNC_BEGIN("upload", 7);
	if (pthread_create(&t, NULL, worker, NULL))
		return 1;
	frame(0);
	pthread_join(t, NULL);
	frame(1);
	ATRACE_INT("queue", 0);
	printf("pid %d\nworker %d\n", getpid(), worker_tid);
	return 0;
}
