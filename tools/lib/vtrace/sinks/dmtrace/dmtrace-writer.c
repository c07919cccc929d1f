// SPDX-License-Identifier: LGPL-2.1
/*
 * dmtrace writer: slices as a version 3 method trace; see dmtrace.h.
 *
 * Each thread's slices are replayed as a call stack: an enter record at a
 * slice's begin, an exit at its end. A slice that crosses another (begins
 * inside it, ends after it) cannot be on a stack and is left out; of a
 * kernel slice and a marker slice, the kernel one. Times are in us (the format's unit):
 * the wall clock relative to the first record, and, when the trace
 * recorded sched_switch, the thread's CPU time ("clock=dual", the thread
 * clock first as ART writes it). The header's start time is the trace
 * clock's value at the first record, in us: a trace.dat holds no date.
 *
 * Thread ids: records carry 16 bits and dmtracedump reads them as a
 * signed short, so a tid from 1 to 32767 is written as it is and any
 * other (a larger tid, the idle task's 0) gets the highest id from 32767
 * down that no thread of the trace has as its own tid. The real tid and
 * the pid are kept in the key's "*version" section as
 * "vtrace-thread=ID PID TID", which the reader applies and other readers
 * ignore. Names lose their tabs and newlines (replaced by spaces): a key
 * line holds one thread or method.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <vtrace/dmtrace.h>

#include "sinks/dmtrace/dmtrace-format.h"
#include <vtrace/output-file.h>

struct wthread {
	int tid;
	int pid;
	unsigned int id;
	const char *name;
};

struct event {
	uint64_t wall_ns;
	uint64_t cpu_ns;
	uint64_t seq;
	unsigned int thread;
	uint32_t method;
};

struct writer {
	const struct vt_slices *s;
	struct wthread *threads;
	size_t nr_threads;
	struct event *events;
	size_t nr_events, alloc_events;
	struct vt_dmtrace_write_stats *stats;
};

static int fail(char *msg, size_t size, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(char *msg, size_t size, int err, const char *fmt, ...)
{
	va_list ap;

	if (size) {
		va_start(ap, fmt);
		vsnprintf(msg, size, fmt, ap);
		va_end(ap);
	}
	return err;
}

static void put16(unsigned char *p, uint16_t v)
{
	p[0] = v;
	p[1] = v >> 8;
}

static void put32(unsigned char *p, uint32_t v)
{
	put16(p, v);
	put16(p + 2, v >> 16);
}

static void put64(unsigned char *p, uint64_t v)
{
	put32(p, v);
	put32(p + 4, v >> 32);
}

static uint32_t method_id(uint32_t name)
{
	return (name + 1) << 2;
}

/* Thread ids that fit a record; see the comment at the top. */
static int map_threads(struct writer *w, char *msg, size_t msg_size)
{
	const struct vt_slices *s = w->s;
	unsigned char *used;
	unsigned int next = DMTRACE_TID_MAX;
	size_t i;

	w->threads =
		calloc(s->nr_threads ? s->nr_threads : 1, sizeof(*w->threads));
	used = calloc(DMTRACE_TID_MAX + 1, 1);
	if (!w->threads || !used) {
		free(used);
		return -ENOMEM;
	}
	for (i = 0; i < s->nr_threads; i++)
		if (s->threads[i].tid > 0 &&
		    s->threads[i].tid <= DMTRACE_TID_MAX)
			used[s->threads[i].tid] = 1;
	for (i = 0; i < s->nr_threads; i++) {
		struct wthread *t = &w->threads[i];

		t->tid = s->threads[i].tid;
		t->pid = s->threads[i].pid;
		t->name = s->threads[i].name;
		if (t->tid > 0 && t->tid <= DMTRACE_TID_MAX) {
			t->id = t->tid;
			continue;
		}
		while (next && used[next])
			next--;
		if (!next) {
			free(used);
			return fail(
				msg, msg_size, -EOVERFLOW,
				"more than %d threads: a method trace cannot hold them",
				DMTRACE_TID_MAX);
		}
		used[next] = 1;
		t->id = next;
		w->stats->mapped_tids++;
	}
	w->nr_threads = s->nr_threads;
	free(used);
	return 0;
}

static const struct wthread *find_wthread(const struct writer *w, int tid)
{
	size_t lo = 0, hi = w->nr_threads, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (w->threads[mid].tid == tid)
			return &w->threads[mid];
		if (w->threads[mid].tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Per thread, by begin; a parent (longer) before a child that begins with it. */
static const struct vt_slices *sort_slices;

static int cmp_index(const void *a, const void *b)
{
	const struct vt_slice *x = &sort_slices->slices[*(const size_t *)a];
	const struct vt_slice *y = &sort_slices->slices[*(const size_t *)b];

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->dur != y->dur)
		return x->dur > y->dur ? -1 : 1;
	return x->depth < y->depth ? -1 : x->depth > y->depth;
}

static int add_event(struct writer *w, unsigned int thread,
		     const struct vt_slice *sl, bool enter)
{
	struct event *e;
	void *n;

	if (w->nr_events == w->alloc_events) {
		w->alloc_events = w->alloc_events ? w->alloc_events * 2 : 256;
		n = reallocarray(w->events, w->alloc_events,
				 sizeof(*w->events));
		if (!n)
			return -ENOMEM;
		w->events = n;
	}
	e = &w->events[w->nr_events];
	e->wall_ns = enter ? sl->ts : sl->ts + sl->dur;
	e->cpu_ns = enter ? sl->cpu_ts : sl->cpu_ts + sl->cpu_dur;
	e->seq = w->nr_events++;
	e->thread = thread;
	e->method = method_id(sl->name) |
		    (enter ? DMTRACE_ACTION_ENTER : DMTRACE_ACTION_EXIT);
	return 0;
}

static uint64_t end_of(const struct vt_slice *sl)
{
	return sl->ts + sl->dur;
}

/*
 * One replay of the threads' stacks over the slices in @order. Without
 * @emit it picks the slices to leave out (@dropped): on a crossing, a
 * kernel slice goes rather than a marker slice, since markers are
 * written from inside write(2) and so begin or end inside its function
 * graph slices; with @emit it writes the events of the rest.
 */
static int replay(struct writer *w, const size_t *order, size_t *stack,
		  bool *dropped, bool emit)
{
	const struct vt_slice *sl, *top, *all = w->s->slices;
	size_t i, n = w->s->nr_slices, depth = 0;
	const struct wthread *t = NULL;
	int ret = 0;

	for (i = 0; i <= n && !ret; i++) {
		sl = i < n ? &all[order[i]] : NULL;
		if (sl && dropped[order[i]])
			continue;
		/* Close what ended before @sl begins, or all at a new thread. */
		while (depth && !ret &&
		       (!sl || sl->tid != all[stack[depth - 1]].tid ||
			end_of(&all[stack[depth - 1]]) <= sl->ts)) {
			depth--;
			if (emit)
				ret = add_event(w, t->id, &all[stack[depth]],
						false);
		}
		if (!sl || ret)
			break;
		while (!emit && depth && !sl->kernel &&
		       (top = &all[stack[depth - 1]])->kernel &&
		       end_of(sl) > end_of(top))
			dropped[stack[--depth]] = true;
		if (depth && end_of(sl) > end_of(&all[stack[depth - 1]])) {
			dropped[order[i]] = true;
			continue;
		}
		if (emit) {
			if (!t || t->tid != sl->tid)
				t = find_wthread(w, sl->tid);
			if (!t)
				return -EINVAL;
			ret = add_event(w, t->id, sl, true);
		}
		stack[depth++] = order[i];
	}
	return ret;
}

/* Replays each thread's slices as a call stack (see the top comment). */
static int build_events(struct writer *w)
{
	const struct vt_slices *s = w->s;
	size_t *order, *stack, i, n = s->nr_slices ? s->nr_slices : 1;
	bool *dropped;
	int ret = -ENOMEM;

	order = malloc(n * sizeof(*order));
	stack = malloc(n * sizeof(*stack));
	dropped = calloc(n, sizeof(*dropped));
	if (!order || !stack || !dropped)
		goto out;
	for (i = 0; i < s->nr_slices; i++)
		order[i] = i;
	sort_slices = s;
	qsort(order, s->nr_slices, sizeof(*order), cmp_index);
	ret = replay(w, order, stack, dropped, false);
	if (!ret)
		ret = replay(w, order, stack, dropped, true);
	for (i = 0; i < s->nr_slices; i++)
		w->stats->crossing += dropped[i];
out:
	free(order);
	free(stack);
	free(dropped);
	return ret;
}

static int cmp_event(const void *a, const void *b)
{
	const struct event *x = a, *y = b;

	if (x->wall_ns != y->wall_ns)
		return x->wall_ns < y->wall_ns ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* @name with tabs and newlines as spaces, so that it stays one field. */
static void put_name(FILE *f, const char *name)
{
	for (; *name; name++)
		fputc(*name == '\t' || *name == '\n' || *name == '\r' ? ' ' :
									*name,
		      f);
}

static int write_key(struct writer *w, FILE *f)
{
	const struct vt_slices *s = w->s;
	bool *used;
	size_t i;

	fprintf(f, "%s\n%d\n%s%s\n", DMTRACE_KEY_VERSION, DMTRACE_VERSION_MAX,
		DMTRACE_CLOCK_KEY,
		s->has_cpu_time ? DMTRACE_CLOCK_DUAL : DMTRACE_CLOCK_WALL);
	fprintf(f, "vm=vtrace\n");
	for (i = 0; i < w->nr_threads; i++)
		fprintf(f, "%s%u %d %d\n", DMTRACE_VTRACE_THREAD_KEY,
			w->threads[i].id, w->threads[i].pid, w->threads[i].tid);
	fprintf(f, "%s\n", DMTRACE_KEY_THREADS);
	for (i = 0; i < w->nr_threads; i++) {
		fprintf(f, "%u\t", w->threads[i].id);
		if (w->threads[i].name && *w->threads[i].name)
			put_name(f, w->threads[i].name);
		else
			fprintf(f, "tid %d", w->threads[i].tid);
		fputc('\n', f);
	}
	fprintf(f, "%s\n", DMTRACE_KEY_METHODS);
	used = calloc(s->nr_names ? s->nr_names : 1, sizeof(*used));
	if (!used)
		return -ENOMEM;
	for (i = 0; i < w->nr_events; i++)
		used[(w->events[i].method >> 2) - 1] = true;
	for (i = 0; i < s->nr_names; i++) {
		if (!used[i])
			continue;
		w->stats->methods++;
		fprintf(f, "0x%08x\t", method_id(i));
		put_name(f, s->names[i]);
		fputc('\n', f);
	}
	free(used);
	fprintf(f, "%s\n", DMTRACE_KEY_END);
	return 0;
}

static int write_data(struct writer *w, FILE *f, char *msg, size_t msg_size)
{
	unsigned char hdr[DMTRACE_HEADER_LEN] = { 0 };
	unsigned char rec[DMTRACE_RECORD_DUAL_LEN];
	bool dual = w->s->has_cpu_time;
	size_t rec_len = dual ? DMTRACE_RECORD_DUAL_LEN : DMTRACE_RECORD_V2_LEN;
	uint64_t start = w->nr_events ? w->events[0].wall_ns / 1000 : 0;
	uint64_t wall, cpu;
	size_t i;

	put32(hdr, DMTRACE_MAGIC);
	put16(hdr + DMTRACE_OFF_VERSION, DMTRACE_VERSION_MAX);
	put16(hdr + DMTRACE_OFF_DATA_OFFSET, DMTRACE_HEADER_LEN);
	put64(hdr + DMTRACE_OFF_START, start);
	put16(hdr + DMTRACE_OFF_RECORD_SIZE, rec_len);
	fwrite(hdr, sizeof(hdr), 1, f);
	for (i = 0; i < w->nr_events; i++) {
		const struct event *e = &w->events[i];

		wall = e->wall_ns / 1000 - start;
		cpu = e->cpu_ns / 1000;
		if (wall > UINT32_MAX || cpu > UINT32_MAX)
			return fail(
				msg, msg_size, -EOVERFLOW,
				"the trace spans more than the %u us (71 minutes) a method trace can hold",
				UINT32_MAX);
		put16(rec, w->events[i].thread);
		put32(rec + 2, e->method);
		if (dual) {
			put32(rec + 6, cpu);
			put32(rec + 10, wall);
		} else {
			put32(rec + 6, wall);
		}
		fwrite(rec, rec_len, 1, f);
	}
	w->stats->records = w->nr_events;
	return 0;
}

struct one_file {
	struct writer *w;
	bool key;
	bool data;
	char *msg;
	size_t msg_size;
};

static int fill_one(FILE *f, void *arg)
{
	struct one_file *o = arg;
	int ret;

	ret = o->key ? write_key(o->w, f) : 0;
	if (!ret && o->data)
		ret = write_data(o->w, f, o->msg, o->msg_size);
	return ret;
}

/*
 * Writes one file through a temporary file renamed over @path when
 * complete (output-file.h): the key, the data, or both.
 */
static int write_one(struct writer *w, const char *path, bool key, bool data,
		     char *msg, size_t msg_size)
{
	struct one_file o = { w, key, data, msg, msg_size };
	int ret;

	if (msg_size)
		msg[0] = '\0';
	ret = vtrace_output_file_write(path, fill_one, &o);
	/* write_data() says why it failed; the rest is the file's. */
	if (ret && msg_size && !msg[0])
		return fail(msg, msg_size, ret, "%s: %s", path,
			    vtrace_output_file_strerror(ret));
	return ret;
}

static int write_files(struct writer *w, const char *path, bool split,
		       char *msg, size_t msg_size)
{
	char *key_path = NULL, *data_path = NULL;
	size_t base;
	int ret;

	if (!split)
		return write_one(w, path, true, true, msg, msg_size);
	base = strlen(path);
	if (base > 6 && !strcmp(path + base - 6, ".trace"))
		base -= 6;
	if (asprintf(&key_path, "%.*s.key", (int)base, path) < 0)
		return -ENOMEM;
	if (asprintf(&data_path, "%.*s.data", (int)base, path) < 0) {
		free(key_path);
		return -ENOMEM;
	}
	ret = write_one(w, key_path, true, false, msg, msg_size);
	if (!ret) {
		ret = write_one(w, data_path, false, true, msg, msg_size);
		/* Half a pair is no trace: take the key back. */
		if (ret)
			unlink(key_path);
	}
	free(key_path);
	free(data_path);
	return ret;
}

static int prepare(struct writer *w, char *msg, size_t msg_size)
{
	int ret;

	memset(w->stats, 0, sizeof(*w->stats));
	w->stats->async = w->s->nr_async + w->s->nr_counters;
	ret = map_threads(w, msg, msg_size);
	if (!ret)
		ret = build_events(w);
	if (ret)
		return ret;
	w->stats->threads = w->nr_threads;
	if (w->nr_events)
		qsort(w->events, w->nr_events, sizeof(*w->events), cmp_event);
	return 0;
}

static int finish(struct writer *w, int ret, char *msg, size_t msg_size)
{
	if (ret && msg_size && !*msg)
		snprintf(msg, msg_size, "%s", strerror(-ret));
	free(w->threads);
	free(w->events);
	return ret;
}

/**
 * vtrace_dmtrace_write_stream - write slices as a version 3 method trace to
 *	open streams
 * @s: finished slices
 * @key: where the key text goes
 * @data: where the binary data goes; @key again for a combined trace
 * @stats: filled in with what was written and left out
 * @msg: set to why, on failure
 * @msg_size: size of @msg
 *
 * Return: 0, -EOVERFLOW when the trace does not fit the format (too
 * long, too many threads), -EIO when a stream fails, or -ENOMEM.
 */
int vtrace_dmtrace_write_stream(const struct vt_slices *s, FILE *key,
				FILE *data,
				struct vt_dmtrace_write_stats *stats, char *msg,
				size_t msg_size)
{
	struct writer w = { .s = s, .stats = stats };
	int ret;

	if (msg_size)
		*msg = '\0';
	ret = prepare(&w, msg, msg_size);
	if (!ret)
		ret = write_key(&w, key);
	if (!ret)
		ret = write_data(&w, data, msg, msg_size);
	if (!ret &&
	    (fflush(key) || ferror(key) || fflush(data) || ferror(data)))
		ret = fail(msg, msg_size, -EIO, "write error: %s",
			   strerror(errno));
	return finish(&w, ret, msg, msg_size);
}

/**
 * vtrace_dmtrace_write - write slices as a version 3 method trace
 * @s: finished slices
 * @path: the combined .trace file, or with @split the pair's name: a
 *	".trace" ending is replaced by ".key" and ".data"
 * @split: write a .key and a .data file instead of one combined file
 * @stats: filled in with what was written and left out
 * @msg: set to why, on failure
 * @msg_size: size of @msg
 *
 * An existing file of that name is replaced only once the new one is
 * complete.
 *
 * Return: 0, -EOVERFLOW when the trace does not fit the format (too
 * long, too many threads), or another negative errno.
 */
int vtrace_dmtrace_write(const struct vt_slices *s, const char *path,
			 bool split, struct vt_dmtrace_write_stats *stats,
			 char *msg, size_t msg_size)
{
	struct writer w = { .s = s, .stats = stats };
	int ret;

	if (msg_size)
		*msg = '\0';
	ret = prepare(&w, msg, msg_size);
	if (!ret)
		ret = write_files(&w, path, split, msg, msg_size);
	return finish(&w, ret, msg, msg_size);
}
