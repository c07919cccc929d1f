// SPDX-License-Identifier: GPL-2.0
/*
 * libvtrace-atrace on this kernel's tracefs: markers written through the
 * library are read back from a private instance the tag file points the
 * library at. Every marker arrives once, in order, with its writer's pid
 * in the text and its writer's tid in the event, from threads and forked
 * children; async slices end on other threads; disabled tags write
 * nothing; names that would break a line are made safe.
 *
 * The state directory is a private one, made before the library looks
 * for its tag file, which does not exist yet: the library's waiting
 * thread has to find it once the first test makes it.
 *
 * Needs root and tracefs (SKIP otherwise).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ATRACE_TAG ATRACE_TAG_GRAPHICS
#include <vtrace/atrace.h>
#include <vtrace/atrace-tags.h>
#include <vtrace/state-lock.h>

#include "../kselftest_harness.h"

#define TRACEFS "/sys/kernel/tracing"
#define MAX_LINES 20000
#define THREADS 4
#define PER_THREAD 500

static char state_dir[64];

/* Before the library's own constructor: it must see this state directory. */
__attribute__((constructor(101))) static void make_state_dir(void)
{
	strcpy(state_dir, "/tmp/vtrace-atrace-test.XXXXXX");
	if (!mkdtemp(state_dir) || chmod(state_dir, 0755))
		abort();
	setenv("VTRACE_STATE_DIR", state_dir, 1);
}

__attribute__((destructor)) static void remove_state_dir(void)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/%s", state_dir,
		 VTRACE_ATRACE_TAGFILE_NAME);
	unlink(path);
	snprintf(path, sizeof(path), "%s/%s", state_dir,
		 VTRACE_STATE_LOCK_ATRACE_TAGS);
	unlink(path);
	rmdir(state_dir);
}

struct marker_line {
	int tid;
	char text[1100];
};

static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -EIO;
}

/* The tracing_mark_write events of an instance, as (tid, text). */
static int read_markers(const char *instance, struct marker_line *out, int max)
{
	static char line[2048];
	char path[256], *p, *q;
	int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), TRACEFS "/instances/%s/trace", instance);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#')
			continue;
		p = strstr(line, "tracing_mark_write: ");
		q = strstr(line, " [");
		if (!p || !q || n == max)
			continue;
		while (q > line && q[-1] == ' ')
			q--;
		while (q > line && q[-1] >= '0' && q[-1] <= '9')
			q--;
		out[n].tid = q > line && q[-1] == '-' ? atoi(q) : -1;
		p += strlen("tracing_mark_write: ");
		p[strcspn(p, "\n")] = '\0';
		snprintf(out[n].text, sizeof(out[n].text), "%s", p);
		n++;
	}
	fclose(f);
	return n;
}

static bool wait_enabled(uint64_t tag, bool want)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	int i;

	for (i = 0; i < 300; i++) {
		if (!!atrace_is_tag_enabled(tag) == want)
			return true;
		nanosleep(&ts, NULL);
	}
	return false;
}

FIXTURE(markers)
{
	char instance[64];
	struct marker_line *lines;
	int nr;
};

FIXTURE_SETUP(markers)
{
	char path[256];

	if (access(TRACEFS "/instances", W_OK))
		SKIP(return, "needs root and tracefs at " TRACEFS);
	snprintf(self->instance, sizeof(self->instance),
		 "vtrace_atrace_test_%d", getpid());
	snprintf(path, sizeof(path), TRACEFS "/instances/%s", self->instance);
	ASSERT_EQ(0, mkdir(path, 0755));
	/* One clock for every CPU, so one thread's markers stay in order. */
	snprintf(path, sizeof(path), TRACEFS "/instances/%s/trace_clock",
		 self->instance);
	ASSERT_EQ(0, write_file(path, "global"));
	self->lines = calloc(MAX_LINES, sizeof(*self->lines));
	ASSERT_NE(NULL, self->lines);
	ASSERT_EQ(0, vtrace_atrace_tags_hold(self->instance,
					     ATRACE_TAG_GRAPHICS, NULL));
	ASSERT_TRUE(wait_enabled(ATRACE_TAG_GRAPHICS, true));
}

/* Remove the instance once the library has let go of its trace_marker. */
static int remove_instance(const char *instance)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	char path[256];
	int i;

	snprintf(path, sizeof(path), TRACEFS "/instances/%s", instance);
	for (i = 0; i < 300; i++) {
		if (!rmdir(path))
			return 0;
		if (errno != EBUSY)
			return errno == ENOENT ? 0 : -errno;
		nanosleep(&ts, NULL);
	}
	return -EBUSY;
}

FIXTURE_TEARDOWN(markers)
{
	vtrace_atrace_tags_release(self->instance);
	free(self->lines);
	EXPECT_EQ(0, remove_instance(self->instance));
}

static void expect_lines(struct __test_metadata *_metadata,
			 const struct marker_line *lines, int nr,
			 const char *const *want, int nr_want, int tid)
{
	int i;

	ASSERT_EQ(nr_want, nr);
	for (i = 0; i < nr; i++) {
		EXPECT_STREQ(want[i], lines[i].text);
		EXPECT_EQ(tid, lines[i].tid);
	}
}

TEST_F(markers, every_kind_of_marker)
{
	char want[7][64];
	const char *wantp[7];
	int pid = getpid(), i;

	ATRACE_BEGIN("outer");
	ATRACE_BEGIN("inner");
	ATRACE_END();
	ATRACE_END();
	ATRACE_INT("level", -7);
	ATRACE_INT64("bytes", 1LL << 40);
	ATRACE_ASYNC_BEGIN("frame", 42);
	ATRACE_ASYNC_END("frame", -42);
	snprintf(want[0], 64, "B|%d|outer", pid);
	snprintf(want[1], 64, "B|%d|inner", pid);
	snprintf(want[2], 64, "E|%d", pid);
	snprintf(want[3], 64, "E|%d", pid);
	snprintf(want[4], 64, "C|%d|level|-7", pid);
	snprintf(want[5], 64, "C|%d|bytes|1099511627776", pid);
	snprintf(want[6], 64, "S|%d|frame|42", pid);
	for (i = 0; i < 7; i++)
		wantp[i] = want[i];
	self->nr = read_markers(self->instance, self->lines, MAX_LINES);
	ASSERT_EQ(8, self->nr);
	expect_lines(_metadata, self->lines, 7, wantp, 7, gettid());
	snprintf(want[0], 64, "F|%d|frame|-42", pid);
	EXPECT_STREQ(want[0], self->lines[7].text);
}

struct thread_arg {
	pthread_barrier_t *start;
	int index;
	int tid;
};

static void *mark_thread(void *p)
{
	struct thread_arg *arg = p;
	char name[32];
	int i;

	arg->tid = gettid();
	pthread_barrier_wait(arg->start);
	for (i = 0; i < PER_THREAD; i++) {
		snprintf(name, sizeof(name), "t%d-%d", arg->index, i);
		ATRACE_BEGIN(name);
		ATRACE_END();
	}
	return NULL;
}

TEST_F(markers, threads_keep_order_and_tid)
{
	struct thread_arg args[THREADS];
	pthread_t threads[THREADS];
	pthread_barrier_t start;
	int next[THREADS] = { 0 }, i, t, pid = getpid();
	char want[64];

	pthread_barrier_init(&start, NULL, THREADS);
	for (t = 0; t < THREADS; t++) {
		args[t] = (struct thread_arg) { &start, t, 0 };
		ASSERT_EQ(0, pthread_create(&threads[t], NULL, mark_thread,
					    &args[t]));
	}
	for (t = 0; t < THREADS; t++)
		pthread_join(threads[t], NULL);

	self->nr = read_markers(self->instance, self->lines, MAX_LINES);
	ASSERT_EQ(THREADS * PER_THREAD * 2, self->nr);
	for (i = 0; i < self->nr; i++) {
		for (t = 0; t < THREADS; t++)
			if (args[t].tid == self->lines[i].tid)
				break;
		ASSERT_LT(t, THREADS)
		TH_LOG("line %d from tid %d", i, self->lines[i].tid);
		if (next[t] % 2 == 0)
			snprintf(want, sizeof(want), "B|%d|t%d-%d", pid, t,
				 next[t] / 2);
		else
			snprintf(want, sizeof(want), "E|%d", pid);
		ASSERT_STREQ(want, self->lines[i].text);
		next[t]++;
	}
	for (t = 0; t < THREADS; t++)
		EXPECT_EQ(PER_THREAD * 2, next[t]);
}

static void *async_end_thread(void *p)
{
	int *tid = p, i;

	*tid = gettid();
	for (i = 0; i < 100; i++)
		ATRACE_ASYNC_END("job", i);
	return NULL;
}

TEST_F(markers, async_slices_end_on_another_thread)
{
	int i, tid = 0, pid = getpid();
	pthread_t thread;
	char want[64];

	for (i = 0; i < 100; i++)
		ATRACE_ASYNC_BEGIN("job", i);
	ASSERT_EQ(0, pthread_create(&thread, NULL, async_end_thread, &tid));
	pthread_join(thread, NULL);

	self->nr = read_markers(self->instance, self->lines, MAX_LINES);
	ASSERT_EQ(200, self->nr);
	for (i = 0; i < 200; i++) {
		snprintf(want, sizeof(want), "%c|%d|job|%d",
			 i < 100 ? 'S' : 'F', pid, i % 100);
		EXPECT_STREQ(want, self->lines[i].text);
		EXPECT_EQ(i < 100 ? gettid() : tid, self->lines[i].tid);
	}
}

/* Bounded, so that the instance's buffer never wraps. */
static void *spin_thread(void *p)
{
	volatile bool *stop = p;
	int i;

	for (i = 0; i < 2000 && !*stop; i++) {
		ATRACE_BEGIN("spin");
		ATRACE_END();
	}
	return NULL;
}

TEST_F(markers, forked_children_write_their_own_pid)
{
	int status, i, child_lines = 0, parent_lines = 0, spin_lines = 0;
	volatile bool stop = false;
	pthread_t spinner;
	char want[64];
	pid_t child;

	/* A thread marks while the fork happens. */
	ASSERT_EQ(0,
		  pthread_create(&spinner, NULL, spin_thread, (void *)&stop));
	ATRACE_BEGIN("parent-before");
	ATRACE_END();
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		ATRACE_BEGIN("child");
		ATRACE_INT("child-counter", 3);
		ATRACE_END();
		_exit(0);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_EQ(0, status);
	stop = true;
	pthread_join(spinner, NULL);
	ATRACE_BEGIN("parent-after");
	ATRACE_END();

	self->nr = read_markers(self->instance, self->lines, MAX_LINES);
	ASSERT_LT(0, self->nr);
	for (i = 0; i < self->nr; i++) {
		const struct marker_line *l = &self->lines[i];

		if (l->tid == child) {
			static const char *const fmt[] = {
				"B|%d|child", "C|%d|child-counter|3", "E|%d"
			};

			ASSERT_LT(child_lines, 3);
			snprintf(want, sizeof(want), fmt[child_lines++], child);
			EXPECT_STREQ(want, l->text);
		} else if (l->tid == gettid()) {
			static const char *const fmt[] = { "B|%d|parent-before",
							   "E|%d",
							   "B|%d|parent-after",
							   "E|%d" };

			ASSERT_LT(parent_lines, 4);
			snprintf(want, sizeof(want), fmt[parent_lines++],
				 getpid());
			EXPECT_STREQ(want, l->text);
		} else {
			snprintf(want, sizeof(want),
				 spin_lines++ % 2 ? "E|%d" : "B|%d|spin",
				 getpid());
			EXPECT_STREQ(want, l->text);
		}
	}
	EXPECT_EQ(3, child_lines);
	EXPECT_EQ(4, parent_lines);
	EXPECT_EQ(0, spin_lines % 2);
}

TEST_F(markers, disabled_tags_write_nothing)
{
	EXPECT_EQ(0, atrace_is_tag_enabled(ATRACE_TAG_VIEW));
	EXPECT_EQ(ATRACE_TAG_GRAPHICS, ATRACE_ENABLED());
	atrace_begin(ATRACE_TAG_VIEW, "view");
	atrace_end(ATRACE_TAG_VIEW);
	atrace_int(ATRACE_TAG_VIEW, "view", 1);
	atrace_int64(ATRACE_TAG_VIEW, "view", 1);
	atrace_async_begin(ATRACE_TAG_VIEW, "view", 1);
	atrace_async_end(ATRACE_TAG_VIEW, "view", 1);
	atrace_begin(ATRACE_TAG_NEVER, "never");
	/* Released: the tags go off, and their markers with them. */
	ASSERT_EQ(0, vtrace_atrace_tags_release(self->instance));
	ASSERT_TRUE(wait_enabled(ATRACE_TAG_GRAPHICS, false));
	ATRACE_BEGIN("released");
	ATRACE_END();
	self->nr = read_markers(self->instance, self->lines, MAX_LINES);
	EXPECT_EQ(0, self->nr);
	/* And on again. */
	ASSERT_EQ(0, vtrace_atrace_tags_hold(self->instance,
					     ATRACE_TAG_GRAPHICS, NULL));
	ATRACE_INT("again", 1);
	self->nr = read_markers(self->instance, self->lines, MAX_LINES);
	EXPECT_EQ(1, self->nr);
}

TEST_F(markers, names_are_made_safe)
{
	static char longname[3000];
	char want[64];
	int pid = getpid();

	ATRACE_BEGIN("a|b\nc\td\177e");
	ATRACE_INT("x|y", 5);
	ATRACE_BEGIN(NULL);
	memset(longname, 'n', sizeof(longname) - 1);
	ATRACE_INT(longname, 9);
	self->nr = read_markers(self->instance, self->lines, MAX_LINES);
	ASSERT_EQ(4, self->nr);
	snprintf(want, sizeof(want), "B|%d|a_b_c_d_e", pid);
	EXPECT_STREQ(want, self->lines[0].text);
	snprintf(want, sizeof(want), "C|%d|x_y|5", pid);
	EXPECT_STREQ(want, self->lines[1].text);
	snprintf(want, sizeof(want), "B|%d|", pid);
	EXPECT_STREQ(want, self->lines[2].text);
	/* Cut to fit 1024 bytes with the value, which is kept. */
	EXPECT_EQ(1002 + 2, strlen(self->lines[3].text));
	EXPECT_EQ(0, strcmp(self->lines[3].text + 1002, "|9"));
}

/* Recordings that overlap keep each other's tags; a dead one is reaped. */
TEST(holders_overlap_and_reset)
{
	struct vtrace_atrace_tagfile tf;
	unsigned int dropped;
	int status, ret;
	pid_t child;

	ASSERT_EQ(0, vtrace_atrace_tags_hold("a", ATRACE_TAG_GRAPHICS, NULL));
	child = fork();
	ASSERT_LE(0, child);
	if (!child) { /* dies holding VIEW, as a crashed recording */
		ret = vtrace_atrace_tags_hold("b", ATRACE_TAG_VIEW, NULL);
		_exit(ret ? 1 : 0);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_EQ(0, status);
	ASSERT_EQ(0, vtrace_atrace_tags_read(&tf));
	EXPECT_EQ(ATRACE_TAG_ALWAYS | ATRACE_TAG_GRAPHICS | ATRACE_TAG_VIEW,
		  tf.tags);
	/* Two buffers: the markers go to the top level. */
	EXPECT_STREQ("", tf.instance);
	EXPECT_EQ(0, tf.seq % 2);

	ASSERT_EQ(0, vtrace_atrace_tags_reset(&dropped));
	EXPECT_EQ(1, dropped);
	ASSERT_EQ(0, vtrace_atrace_tags_read(&tf));
	EXPECT_EQ(ATRACE_TAG_ALWAYS | ATRACE_TAG_GRAPHICS, tf.tags);
	EXPECT_STREQ("a", tf.instance);

	/* "vtrace enable" holds its tags beside the recording's. */
	ASSERT_EQ(0, vtrace_atrace_tags_enable("a", ATRACE_TAG_CAMERA));
	ASSERT_EQ(0, vtrace_atrace_tags_release("a"));
	ASSERT_EQ(0, vtrace_atrace_tags_read(&tf));
	EXPECT_EQ(ATRACE_TAG_ALWAYS | ATRACE_TAG_CAMERA, tf.tags);
	ASSERT_EQ(0, vtrace_atrace_tags_reset(&dropped));
	EXPECT_EQ(0, dropped);
	ASSERT_EQ(0, vtrace_atrace_tags_disable("a", ATRACE_TAG_CAMERA));
	ASSERT_EQ(0, vtrace_atrace_tags_read(&tf));
	EXPECT_EQ(0, tf.tags);
}

/*
 * A stop flag set before the wait for a held tag lock ends it at once: a
 * recording stopped by a signal that came while it was not asleep must
 * not wait out the lock's deadline.
 */
TEST(stop_flag_ends_the_wait_for_the_tag_lock)
{
	volatile sig_atomic_t stop = 1;
	struct timespec t0, t1;
	int ready[2], status;
	char path[128], c;
	pid_t holder;
	long ms;

	snprintf(path, sizeof(path), "%s/%s", state_dir,
		 VTRACE_STATE_LOCK_ATRACE_TAGS);
	ASSERT_EQ(0, pipe(ready));
	holder = fork();
	ASSERT_LE(0, holder);
	if (!holder) {
		int fd = open(path, O_RDWR | O_CREAT, 0600);

		if (fd < 0 || flock(fd, LOCK_EX) ||
		    write(ready[1], "x", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(ready[1]);
	ASSERT_EQ(1, read(ready[0], &c, 1));
	close(ready[0]);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	EXPECT_EQ(-EINTR,
		  vtrace_atrace_tags_hold("stop", ATRACE_TAG_VIEW, &stop));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (t1.tv_sec - t0.tv_sec) * 1000 +
	     (t1.tv_nsec - t0.tv_nsec) / 1000000;
	EXPECT_GT(1000, ms);
	kill(holder, SIGKILL);
	ASSERT_EQ(holder, waitpid(holder, &status, 0));
	/* Let go: the same call takes the lock, and nothing was held. */
	stop = 0;
	EXPECT_EQ(0, vtrace_atrace_tags_hold("stop", ATRACE_TAG_VIEW, &stop));
	EXPECT_EQ(0, vtrace_atrace_tags_release("stop"));
}

TEST_HARNESS_MAIN
