// SPDX-License-Identifier: GPL-2.0
/*
 * The ring-buffer readers of tools/lib/vtrace on this kernel's tracefs,
 * one variant per path: every event written to a private instance's
 * trace_marker comes out once, in order, with its text intact; the drain
 * leaves the buffer empty; an overrun is counted, not hidden.
 *
 * Needs root and tracefs. The mmap variant SKIPs on kernels without
 * ring-buffer mapping (before 6.10).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <kbuffer.h>
#include <tracefs.h>

#include <vtrace/ring-reader.h>
#include <vtrace/ring-stats.h>

#include "../kselftest_harness.h"

#define MARKER_FMT "vtrace-ring %u\n"
/*
 * What the kernel records instead of a marker it could not copy from the
 * writer without a page fault (the write fails with EFAULT); seen on 6.1.
 */
#define FAULTED "<faulted>"
/* Writes of one marker that may fault before the writer gives up. */
#define MAX_FAULTED 100
#define MAX_CPUS 64

struct decoded {
	struct tep_handle *tep;
	struct tep_event *print;
	struct tep_format_field *buf_field;
	struct kbuffer *kbuf;
	int marker_cpu;
	unsigned int next_seq; /* the marker expected next */
	unsigned int out_of_order;
	unsigned int foreign; /* events that are not our markers */
	unsigned int faulted; /* FAULTED events on the marker CPU */
	unsigned long long gaps; /* markers skipped (lost) */
};

/* Checks every print event of a sub-buffer against the expected sequence. */
static int check_subbuf(void *ctx, int cpu, const void *subbuf, size_t size)
{
	struct decoded *dec = ctx;
	struct tep_record record = { .cpu = cpu };
	unsigned int seq;
	void *data;

	kbuffer_load_subbuffer(dec->kbuf, (void *)subbuf);
	for (data = kbuffer_read_event(dec->kbuf, NULL); data;
	     data = kbuffer_next_event(dec->kbuf, NULL)) {
		record.data = data;
		record.size = kbuffer_event_size(dec->kbuf);
		if (tep_data_type(dec->tep, &record) == dec->print->id &&
		    cpu == dec->marker_cpu &&
		    !strncmp((char *)data + dec->buf_field->offset, FAULTED,
			     strlen(FAULTED))) {
			dec->faulted++;
			continue;
		}
		if (tep_data_type(dec->tep, &record) != dec->print->id ||
		    sscanf((char *)data + dec->buf_field->offset, MARKER_FMT,
			   &seq) != 1 ||
		    cpu != dec->marker_cpu) {
			dec->foreign++;
			continue;
		}
		if (seq < dec->next_seq)
			dec->out_of_order++;
		else
			dec->gaps += seq - dec->next_seq;
		/* Read by a pacing writer thread (write_markers()). */
		__atomic_store_n(&dec->next_seq, seq + 1, __ATOMIC_RELEASE);
	}
	return 0;
}

struct marker_writer {
	struct tracefs_instance *instance;
	int cpu;
	unsigned int count;
	/*
	 * When set, the writer stays at most max_ahead markers ahead of
	 * *consumed, so that a reader starved by a busy machine tests
	 * correctness, not throughput: the buffer never overflows.
	 */
	const unsigned int *consumed;
	unsigned int max_ahead;
	unsigned int faulted;
	int err;
};

static void *write_markers(void *arg)
{
	struct marker_writer *w = arg;
	char line[64];
	cpu_set_t set;
	unsigned int i;
	int fd, len;

	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		w->err = errno;
		return NULL;
	}
	fd = tracefs_instance_file_open(w->instance, "trace_marker", O_WRONLY);
	if (fd < 0) {
		w->err = errno;
		return NULL;
	}
	for (i = 0; i < w->count; i++) {
		while (w->consumed &&
		       i - __atomic_load_n(w->consumed, __ATOMIC_ACQUIRE) >
			       w->max_ahead)
			usleep(100);
		len = snprintf(line, sizeof(line), MARKER_FMT, i);
		while (write(fd, line, len) != len) {
			/* FAULTED went in instead: write the marker again. */
			if (errno != EFAULT || ++w->faulted > MAX_FAULTED) {
				w->err = errno;
				goto out;
			}
		}
	}
out:
	close(fd);
	return NULL;
}

FIXTURE(ring)
{
	struct tracefs_instance *instance;
	struct vtrace_ring_reader *readers[MAX_CPUS];
	int nr_cpus;
	struct decoded dec;
};

FIXTURE_VARIANT(ring)
{
	enum vtrace_reader_path path;
};

FIXTURE_VARIANT_ADD(ring, mmap) {
	.path = VTRACE_READER_MMAP,
};

FIXTURE_VARIANT_ADD(ring, splice) {
	.path = VTRACE_READER_SPLICE,
};

FIXTURE_VARIANT_ADD(ring, read) {
	.path = VTRACE_READER_READ,
};

/* 0, or the errno of a kernel that refuses the knob. */
static int set_knob(struct tracefs_instance *instance, const char *knob,
		    int value)
{
	char val[32];

	snprintf(val, sizeof(val), "%d", value);
	errno = 0;
	if (tracefs_instance_file_write(instance, knob, val) < 0)
		return errno ?: EIO;
	return 0;
}

FIXTURE_SETUP(ring)
{
	const char *path_name = vtrace_reader_path_name(variant->path);
	static const char *const systems[] = { "ftrace", NULL };
	const char *why;
	char name[64];
	int cpu, ret;

	if (geteuid())
		SKIP(return, "needs root");
	if (!tracefs_tracing_dir())
		SKIP(return, "tracefs is not mounted");

	snprintf(name, sizeof(name), "vtrace_ring_test_%d", getpid());
	self->instance = tracefs_instance_create(name);
	ASSERT_NE(NULL, self->instance);
	ret = set_knob(self->instance, "buffer_size_kb", 1024);
	if (ret) {
		tracefs_instance_destroy(self->instance);
		tracefs_instance_free(self->instance);
		self->instance = NULL;
		why = strerror(ret);
		SKIP(return, "this kernel refuses buffer_size_kb: %s", why);
	}

	self->nr_cpus = sysconf(_SC_NPROCESSORS_CONF);
	ASSERT_LE(self->nr_cpus, MAX_CPUS);
	for (cpu = 0; cpu < self->nr_cpus; cpu++) {
		ret = vtrace_ring_reader_open(self->instance, cpu,
					      variant->path,
					      &self->readers[cpu]);
		if (ret == -EOPNOTSUPP)
			SKIP(return, "no %s reader on this kernel", path_name);
		if (ret == -ENODEV)
			continue; /* a possible CPU never brought up */
		ASSERT_EQ(0, ret);
		ASSERT_EQ(variant->path,
			  vtrace_ring_reader_path(self->readers[cpu]));
	}

	self->dec.tep = tracefs_local_events_system(NULL, systems);
	ASSERT_NE(NULL, self->dec.tep);
	self->dec.print =
		tep_find_event_by_name(self->dec.tep, "ftrace", "print");
	ASSERT_NE(NULL, self->dec.print);
	self->dec.buf_field = tep_find_field(self->dec.print, "buf");
	ASSERT_NE(NULL, self->dec.buf_field);
	self->dec.kbuf = kbuffer_alloc(KBUFFER_LSIZE_SAME_AS_HOST,
				       KBUFFER_ENDIAN_SAME_AS_HOST);
	ASSERT_NE(NULL, self->dec.kbuf);
	self->dec.marker_cpu = self->nr_cpus > 1 ? 1 : 0;
}

FIXTURE_TEARDOWN(ring)
{
	int cpu;

	for (cpu = 0; cpu < self->nr_cpus; cpu++)
		vtrace_ring_reader_close(self->readers[cpu]);
	if (self->dec.kbuf)
		kbuffer_free(self->dec.kbuf);
	if (self->dec.tep)
		tep_free(self->dec.tep);
	if (self->instance) {
		tracefs_instance_destroy(self->instance);
		tracefs_instance_free(self->instance);
	}
}

static unsigned long long events_of(struct vtrace_ring_reader **readers,
				    int nr_cpus, int cpu)
{
	return readers[cpu] ? vtrace_ring_reader_stats(readers[cpu])->events :
			      0;
}

static void drain_all(struct __test_metadata *_metadata,
		      FIXTURE_DATA(ring) * self)
{
	int cpu;

	ASSERT_EQ(0, tracefs_trace_off(self->instance));
	for (cpu = 0; cpu < self->nr_cpus; cpu++) {
		if (!self->readers[cpu])
			continue;
		ASSERT_EQ(0,
			  vtrace_ring_reader_drain(self->readers[cpu],
						   check_subbuf, &self->dec));
	}
}

static void assert_buffer_empty(struct __test_metadata *_metadata,
				FIXTURE_DATA(ring) * self)
{
	struct vtrace_ring_counters c;
	int cpu;

	for (cpu = 0; cpu < self->nr_cpus; cpu++) {
		if (!self->readers[cpu])
			continue;
		ASSERT_EQ(0,
			  vtrace_ring_counters_read(self->instance, cpu, &c));
		EXPECT_EQ(0, c.entries)
		TH_LOG("cpu%d: %llu entries left", cpu, c.entries);
	}
}

/* Written before any read: the drain alone must bring out all of it. */
TEST_F(ring, drain_after_stop_brings_out_every_event)
{
	struct marker_writer w = {
		.instance = self->instance,
		.cpu = self->dec.marker_cpu,
		.count = 10000,
	};

	write_markers(&w);
	ASSERT_EQ(0, w.err);
	drain_all(_metadata, self);

	EXPECT_EQ(w.count, self->dec.next_seq);
	EXPECT_EQ(0, self->dec.gaps);
	EXPECT_EQ(0, self->dec.out_of_order);
	EXPECT_EQ(0, self->dec.foreign);
	EXPECT_EQ(w.faulted, self->dec.faulted);
	EXPECT_EQ(w.count + w.faulted, events_of(self->readers, self->nr_cpus,
						 self->dec.marker_cpu));
	assert_buffer_empty(_metadata, self);
}

/*
 * Read while written, woken by poll(): nothing lost, nothing doubled. The
 * markers go round the buffer about four times. The timeout is the
 * harness's default tripled: one write() of a marker costs the arm64
 * guest (TCG) some hundred microseconds.
 */
TEST_F_TIMEOUT(ring, consume_while_writing_gets_every_event_once, 90)
{
	struct marker_writer w = {
		.instance = self->instance,
		.cpu = self->dec.marker_cpu,
		.count = 100000,
		/* About 240 KB of markers, a quarter of the buffer. */
		.consumed = &self->dec.next_seq,
		.max_ahead = 6000,
	};
	struct pollfd pfd[MAX_CPUS];
	int map[MAX_CPUS];
	pthread_t thread;
	int cpu, n = 0, i, ret;
	const char *why;

	ret = set_knob(self->instance, "buffer_percent", 10);
	if (ret) {
		why = strerror(ret);
		SKIP(return, "this kernel refuses buffer_percent: %s", why);
	}
	for (cpu = 0; cpu < self->nr_cpus; cpu++) {
		if (!self->readers[cpu])
			continue;
		pfd[n].fd = vtrace_ring_reader_fd(self->readers[cpu]);
		pfd[n].events = POLLIN;
		map[n++] = cpu;
	}
	ASSERT_EQ(0, pthread_create(&thread, NULL, write_markers, &w));
	while (pthread_tryjoin_np(thread, NULL) == EBUSY) {
		ASSERT_LE(0, poll(pfd, n, 20));
		for (i = 0; i < n; i++)
			ASSERT_EQ(0, vtrace_ring_reader_consume(
					     self->readers[map[i]],
					     check_subbuf, &self->dec));
	}
	ASSERT_EQ(0, w.err);
	drain_all(_metadata, self);

	EXPECT_EQ(w.count, self->dec.next_seq);
	EXPECT_EQ(0, self->dec.gaps);
	EXPECT_EQ(0, self->dec.out_of_order);
	EXPECT_EQ(w.faulted, self->dec.faulted);
	EXPECT_EQ(w.count + w.faulted, events_of(self->readers, self->nr_cpus,
						 self->dec.marker_cpu));
	EXPECT_EQ(
		0,
		vtrace_ring_reader_stats(self->readers[w.cpu])->missed_subbufs);
	assert_buffer_empty(_metadata, self);
}

/*
 * Nobody reads while a small buffer overflows: the lost events are the
 * buffer's overrun count, and a sub-buffer header says events are missing.
 */
TEST_F(ring, overrun_is_counted)
{
	struct marker_writer w = {
		.instance = self->instance,
		.cpu = self->dec.marker_cpu,
		.count = 20000,
	};
	const struct vtrace_ring_stats *st;
	struct vtrace_ring_counters c;

	/* Readers hold the buffer mapped: reopen them after the resize. */
	for (int cpu = 0; cpu < self->nr_cpus; cpu++) {
		vtrace_ring_reader_close(self->readers[cpu]);
		self->readers[cpu] = NULL;
	}
	ASSERT_EQ(0, set_knob(self->instance, "buffer_size_kb", 64));
	for (int cpu = 0; cpu < self->nr_cpus; cpu++) {
		int ret = vtrace_ring_reader_open(self->instance, cpu,
						  variant->path,
						  &self->readers[cpu]);

		if (ret == -ENODEV)
			continue;
		ASSERT_EQ(0, ret);
	}

	write_markers(&w);
	ASSERT_EQ(0, w.err);
	ASSERT_EQ(0, vtrace_ring_counters_read(self->instance, w.cpu, &c));
	ASSERT_LT(0, c.overrun);
	drain_all(_metadata, self);

	st = vtrace_ring_reader_stats(self->readers[w.cpu]);
	EXPECT_EQ(w.count + w.faulted, st->events + c.overrun);
	EXPECT_EQ(w.count, self->dec.next_seq);
	/* Overwritten: markers, and the FAULTED events not read. */
	EXPECT_EQ(c.overrun, self->dec.gaps + w.faulted - self->dec.faulted);
	EXPECT_EQ(0, self->dec.out_of_order);
	EXPECT_LE(1, st->missed_subbufs);
	assert_buffer_empty(_metadata, self);
}

/* What a vtrace_ring_pipe_fn saw: batches of whole sub-buffers, decoded. */
struct piped {
	struct decoded *dec;
	size_t subbuf_size;
	unsigned int calls;
	unsigned int refuse_call; /* this call fails, its batch in spill */
	unsigned int keep_on_refuse; /* but keeps this many sub-buffers */
	size_t most; /* the largest batch */
	unsigned int counted; /* sub-buffers through count_subbuf() */
	unsigned int not_whole; /* batches not a whole number of sub-buffers */
	char buf[1 << 20];
};

static int take_piped(void *ctx, int cpu, int pipe, size_t size, void *spill,
		      size_t *kept)
{
	struct piped *p = ctx;
	bool refuse = ++p->calls == p->refuse_call;
	char *to = refuse ? spill : p->buf;
	size_t keep = refuse ? p->keep_on_refuse * p->subbuf_size : size;
	size_t got = 0, off;
	ssize_t n;

	if (size > sizeof(p->buf) || keep > size)
		return -E2BIG;
	while (got < size) {
		n = read(pipe, to + got, size - got);
		if (n <= 0)
			return -EIO;
		got += n;
	}
	if (size % p->subbuf_size)
		p->not_whole++;
	if (size > p->most)
		p->most = size;
	/* Those it keeps stay in @spill too: the reader must skip them. */
	for (off = 0; off < keep; off += p->subbuf_size)
		check_subbuf(p->dec, cpu, to + off, p->subbuf_size);
	if (!refuse)
		return 0;
	*kept = keep;
	return -ENOSPC;
}

/* The consume's callback beside take_piped(). */
static int count_subbuf(void *ctx, int cpu, const void *subbuf, size_t size)
{
	struct piped *p = ctx;

	p->counted++;
	return check_subbuf(p->dec, cpu, subbuf, size);
}

/*
 * splice_out: complete sub-buffers arrive in the pipe in batches of at
 * most the size asked for; of a batch the callback refused, the ones it
 * says it kept count as handed out and the others come back, first,
 * through the consume's callback, and the pipe goes on after.
 */
TEST_F(ring, splice_out_moves_batches_and_offers_refused_again)
{
	struct marker_writer w = {
		.instance = self->instance,
		.cpu = self->dec.marker_cpu,
		.count = 10000,
	};
	struct vtrace_ring_reader *reader = self->readers[w.cpu];
	const struct vtrace_ring_stats *st;
	static struct piped p;

	if (variant->path != VTRACE_READER_SPLICE) {
		EXPECT_EQ(-EOPNOTSUPP,
			  vtrace_ring_reader_splice_out(reader, take_piped, 4));
		return;
	}
	EXPECT_EQ(-EINVAL,
		  vtrace_ring_reader_splice_out(reader, take_piped, 0));
	p.dec = &self->dec;
	p.subbuf_size = vtrace_ring_reader_subbuf_size(reader);
	p.refuse_call = 2;
	p.keep_on_refuse = 1;
	write_markers(&w);
	ASSERT_EQ(0, w.err);
	ASSERT_EQ(0, vtrace_ring_reader_splice_out(reader, take_piped, 4));

	st = vtrace_ring_reader_stats(reader);
	EXPECT_EQ(-ENOSPC,
		  vtrace_ring_reader_consume(reader, count_subbuf, &p));
	EXPECT_EQ(0, p.counted);
	/*
	 * The first batch went on, and one of the second; its other three
	 * are held, not counted yet.
	 */
	EXPECT_EQ(5, st->subbufs);
	EXPECT_EQ(2, st->batches);
	EXPECT_EQ(4 * p.subbuf_size, p.most);
	/* The held three through the callback, then the pipe again. */
	p.refuse_call = 0;
	ASSERT_EQ(0, vtrace_ring_reader_consume(reader, count_subbuf, &p));
	EXPECT_EQ(3, p.counted);
	EXPECT_LT(8, st->subbufs);
	EXPECT_EQ(2 + (st->subbufs - 8 + 3) / 4, st->batches);
	ASSERT_EQ(0, vtrace_ring_reader_splice_out(reader, NULL, 0));
	drain_all(_metadata, self);

	EXPECT_EQ(0, p.not_whole);
	EXPECT_EQ(4 * p.subbuf_size, p.most);
	EXPECT_EQ(w.count, self->dec.next_seq);
	EXPECT_EQ(0, self->dec.gaps);
	EXPECT_EQ(0, self->dec.out_of_order);
	EXPECT_EQ(0, self->dec.foreign);
	EXPECT_EQ(w.faulted, self->dec.faulted);
	EXPECT_EQ(w.count + w.faulted,
		  events_of(self->readers, self->nr_cpus, w.cpu));
	assert_buffer_empty(_metadata, self);
}

TEST_HARNESS_MAIN
