// SPDX-License-Identifier: LGPL-2.1
/*
 * The slice builder; see slices.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/marker-parse.h"
#include <vtrace/slices.h>

/* One open begin on a thread's stack. */
struct frame {
	uint64_t ts;
	uint64_t cpu_ts;
	uint64_t seq;
	uint32_t name;
	uint32_t args;
	int pid;
};

struct stack {
	struct frame *frames;
	size_t nr, alloc;
};

struct tstate {
	int tid;
	int pid; /* from its markers; 0 until one names it */
	char *name;
	struct stack user, kernel;
	/* CPU time: @cpu_ns ran before @since; running since @since. */
	uint64_t cpu_ns, since;
	bool running, seen, has_cpu_override, has_slices;
	uint64_t cpu_override;
};

/* An open async slice. */
struct async_open {
	uint64_t ts;
	int pid;
	uint32_t name;
	int64_t cookie;
};

struct vt_slices_state {
	struct tstate *threads;
	size_t nr_threads, alloc_threads;
	/* Open addressing: tid -> index + 1 in @threads; 0 is empty. */
	size_t *hash;
	size_t hash_size;
	struct vtrace_strtab names;
	size_t alloc_names, alloc_slices, alloc_async, alloc_counters;
	struct async_open *open_async;
	size_t nr_open_async, alloc_open_async;
	uint64_t seq;
	/* Per CPU: index + 1 in &vt_slices.runs of its open run, 0 for none. */
	size_t *cpu_open;
	size_t nr_cpu_open, alloc_runs;
	/* The latest timestamp fed: where open runs end. */
	uint64_t last_ts;
};

static int grow(void **array, size_t *alloc, size_t need, size_t size)
{
	size_t n = *alloc ? *alloc : 16;
	void *p;

	if (need <= *alloc)
		return 0;
	while (n < need)
		n *= 2;
	p = reallocarray(*array, n, size);
	if (!p)
		return -ENOMEM;
	*array = p;
	*alloc = n;
	return 0;
}

/**
 * vtrace_slices_init - start an empty set of slices
 * @s: the set
 *
 * Return: 0, or -ENOMEM.
 */
int vtrace_slices_init(struct vt_slices *s)
{
	memset(s, 0, sizeof(*s));
	s->state = calloc(1, sizeof(*s->state));
	if (!s->state)
		return -ENOMEM;
	vtrace_strtab_init(&s->state->names);
	return 0;
}

static void state_free(struct vt_slices_state *st)
{
	size_t i;

	if (!st)
		return;
	for (i = 0; i < st->nr_threads; i++) {
		free(st->threads[i].name);
		free(st->threads[i].user.frames);
		free(st->threads[i].kernel.frames);
	}
	free(st->threads);
	free(st->hash);
	free(st->open_async);
	free(st->cpu_open);
	vtrace_strtab_free(&st->names);
	free(st);
}

/**
 * vtrace_slices_free - free everything @s holds
 * @s: the set (may be half built)
 */
void vtrace_slices_free(struct vt_slices *s)
{
	size_t i;

	state_free(s->state);
	for (i = 0; i < s->nr_names; i++)
		free(s->names[i]);
	for (i = 0; i < s->nr_threads; i++)
		free(s->threads[i].name);
	free(s->names);
	free(s->threads);
	free(s->slices);
	free(s->async);
	free(s->counters);
	free(s->runs);
	memset(s, 0, sizeof(*s));
}

/* The index of @name in @s->names, adding it if new. */
static int intern(struct vt_slices *s, const char *name, size_t len,
		  uint32_t *id)
{
	struct vt_slices_state *st = s->state;
	size_t existing;
	char *copy;
	int ret;

	if (s->nr_names >= UINT32_MAX)
		return -EOVERFLOW;
	copy = strndup(name, len);
	if (!copy)
		return -ENOMEM;
	if (vtrace_strtab_lookup(&st->names, copy, &existing)) {
		free(copy);
		*id = existing;
		return 0;
	}
	ret = grow((void **)&s->names, &st->alloc_names, s->nr_names + 1,
		   sizeof(*s->names));
	if (!ret)
		ret = vtrace_strtab_insert(&st->names, copy, s->nr_names,
					   &existing);
	if (ret) {
		free(copy);
		return ret;
	}
	*id = s->nr_names;
	s->names[s->nr_names++] = copy;
	return 0;
}

static size_t tid_slot(const struct vt_slices_state *st, int tid)
{
	return ((unsigned int)tid * 2654435761u) & (st->hash_size - 1);
}

static int rehash(struct vt_slices_state *st)
{
	size_t size = st->hash_size ? st->hash_size * 2 : 64, i, h;
	size_t *hash = calloc(size, sizeof(*hash));

	if (!hash)
		return -ENOMEM;
	free(st->hash);
	st->hash = hash;
	st->hash_size = size;
	for (i = 0; i < st->nr_threads; i++) {
		for (h = tid_slot(st, st->threads[i].tid); hash[h];
		     h = (h + 1) & (size - 1))
			;
		hash[h] = i + 1;
	}
	return 0;
}

static struct tstate *find_tstate(const struct vt_slices_state *st, int tid)
{
	size_t h;

	if (!st->hash_size)
		return NULL;
	for (h = tid_slot(st, tid); st->hash[h];
	     h = (h + 1) & (st->hash_size - 1))
		if (st->threads[st->hash[h] - 1].tid == tid)
			return &st->threads[st->hash[h] - 1];
	return NULL;
}

static struct tstate *get_tstate(struct vt_slices *s, int tid)
{
	struct vt_slices_state *st = s->state;
	struct tstate *t = find_tstate(st, tid);
	size_t h;

	if (t)
		return t;
	if (grow((void **)&st->threads, &st->alloc_threads, st->nr_threads + 1,
		 sizeof(*st->threads)))
		return NULL;
	if ((st->nr_threads + 1) * 2 > st->hash_size && rehash(st))
		return NULL;
	t = &st->threads[st->nr_threads];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	for (h = tid_slot(st, tid); st->hash[h];
	     h = (h + 1) & (st->hash_size - 1))
		;
	st->hash[h] = ++st->nr_threads;
	return t;
}

/*
 * The thread's CPU time at @ts, when it wrote an event: it is running
 * then, whatever the sched_switch events said (the one that put it on
 * this CPU may be missing, e.g. after a migration).
 */
static uint64_t cpu_now(struct tstate *t, uint64_t ts)
{
	if (t->has_cpu_override)
		return t->cpu_override;
	if (!t->running) {
		t->seen = true;
		t->running = true;
		t->since = ts;
	}
	if (t->running && ts > t->since)
		return t->cpu_ns + (ts - t->since);
	return t->cpu_ns;
}

static int push(struct vt_slices *s, struct stack *stk, uint64_t ts,
		uint64_t cpu_ts, int pid, uint32_t name)
{
	struct vt_slices_state *st = s->state;
	struct frame *f;

	if (grow((void **)&stk->frames, &stk->alloc, stk->nr + 1,
		 sizeof(*stk->frames)))
		return -ENOMEM;
	f = &stk->frames[stk->nr++];
	f->ts = ts;
	f->cpu_ts = cpu_ts;
	f->pid = pid;
	f->name = name;
	f->args = VT_SLICE_NO_ARGS;
	f->seq = ++st->seq;
	return 0;
}

static int emit(struct vt_slices *s, struct tstate *t, const struct frame *f,
		const struct frame *parent, int depth, bool kernel, uint64_t ts,
		uint64_t cpu_ts)
{
	struct vt_slice *sl;

	if (grow((void **)&s->slices, &s->state->alloc_slices, s->nr_slices + 1,
		 sizeof(*s->slices)))
		return -ENOMEM;
	t->has_slices = true;
	sl = &s->slices[s->nr_slices++];
	memset(sl, 0, sizeof(*sl));
	sl->ts = f->ts;
	sl->dur = ts > f->ts ? ts - f->ts : 0;
	sl->cpu_ts = f->cpu_ts;
	sl->cpu_dur = cpu_ts > f->cpu_ts ? cpu_ts - f->cpu_ts : 0;
	sl->pid = f->pid ? f->pid : t->pid ? t->pid : t->tid;
	sl->tid = t->tid;
	sl->depth = depth;
	sl->name = f->name;
	sl->args = f->args;
	sl->kernel = kernel;
	sl->seq = f->seq;
	sl->parent_seq = parent ? parent->seq : 0;
	return 0;
}

/**
 * vtrace_slices_begin - a slice begins on a thread
 * @s: the set
 * @ts: when, ns
 * @pid: the thread's process, or 0 when the source does not know it
 * @tid: the thread
 * @name: the slice's name
 * @name_len: bytes of @name
 * @kernel: a kernel function (function graph entry)
 *
 * Return: 0, or -ENOMEM.
 */
int vtrace_slices_begin(struct vt_slices *s, uint64_t ts, int pid, int tid,
			const char *name, size_t name_len, bool kernel)
{
	struct tstate *t = get_tstate(s, tid);
	uint32_t id;
	int ret;

	if (!t)
		return -ENOMEM;
	if (ts > s->state->last_ts)
		s->state->last_ts = ts;
	if (pid)
		t->pid = pid;
	ret = intern(s, name, name_len, &id);
	if (ret)
		return ret;
	return push(s, kernel ? &t->kernel : &t->user, ts, cpu_now(t, ts), pid,
		    id);
}

/**
 * vtrace_slices_end - the innermost open slice of a thread ends
 * @s: the set
 * @ts: when, ns
 * @tid: the thread
 * @name: the name the end carries (a method exit, a function graph exit),
 *	which must be the innermost open slice's; NULL for an E marker,
 *	which ends whatever user slice is innermost
 * @kernel: a function graph exit
 *
 * An end that matches nothing is counted in &vt_slices.unmatched.
 *
 * Return: 0, or -ENOMEM.
 */
int vtrace_slices_end(struct vt_slices *s, uint64_t ts, int tid,
		      const char *name, bool kernel)
{
	struct tstate *t = get_tstate(s, tid);
	struct stack *stk;
	struct frame *f, *parent;
	int depth;

	if (!t)
		return -ENOMEM;
	if (ts > s->state->last_ts)
		s->state->last_ts = ts;
	stk = kernel ? &t->kernel : &t->user;
	if (!stk->nr ||
	    (name && strcmp(s->names[stk->frames[stk->nr - 1].name], name))) {
		s->unmatched++;
		return 0;
	}
	f = &stk->frames[--stk->nr];
	depth = stk->nr;
	parent = stk->nr ? &stk->frames[stk->nr - 1] : NULL;
	if (kernel) {
		depth += t->user.nr;
		if (!parent && t->user.nr)
			parent = &t->user.frames[t->user.nr - 1];
	}
	return emit(s, t, f, parent, depth, kernel, ts, cpu_now(t, ts));
}

/**
 * vtrace_slices_args - the arguments of a thread's innermost open slice
 * @s: the set
 * @tid: the thread
 * @kernel: of its open kernel function, not of its open user slice
 * @args: what the source tells of the call beside its name (a method's
 *	source file and line), as text; empty or NULL for none
 * @args_len: bytes of @args
 *
 * Call it after the vtrace_slices_begin() of the slice; the slice keeps
 * them in &vt_slice.args when it ends.
 *
 * Return: 0, -ENOENT when the thread has no such open slice, or -ENOMEM.
 */
int vtrace_slices_args(struct vt_slices *s, int tid, bool kernel,
		       const char *args, size_t args_len)
{
	struct tstate *t = find_tstate(s->state, tid);
	struct stack *stk;

	if (!t)
		return -ENOENT;
	stk = kernel ? &t->kernel : &t->user;
	if (!stk->nr)
		return -ENOENT;
	if (!args || !args_len) {
		stk->frames[stk->nr - 1].args = VT_SLICE_NO_ARGS;
		return 0;
	}
	return intern(s, args, args_len, &stk->frames[stk->nr - 1].args);
}

static int async_begin(struct vt_slices *s, uint64_t ts,
		       const struct vt_marker *m)
{
	struct vt_slices_state *st = s->state;
	struct async_open *a;
	uint32_t id;
	int ret;

	ret = intern(s, m->name, m->name_len, &id);
	if (!ret)
		ret = grow((void **)&st->open_async, &st->alloc_open_async,
			   st->nr_open_async + 1, sizeof(*st->open_async));
	if (ret)
		return ret;
	a = &st->open_async[st->nr_open_async++];
	a->ts = ts;
	a->pid = m->pid;
	a->name = id;
	a->cookie = m->value;
	return 0;
}

static int async_end(struct vt_slices *s, uint64_t ts,
		     const struct vt_marker *m)
{
	struct vt_slices_state *st = s->state;
	struct vt_async_slice *as;
	struct async_open *a;
	size_t i;
	uint32_t id;
	int ret;

	ret = intern(s, m->name, m->name_len, &id);
	if (ret)
		return ret;
	/* The newest open one: Android allows a cookie to be reused. */
	for (i = st->nr_open_async; i-- > 0;) {
		a = &st->open_async[i];
		if (a->pid == m->pid && a->name == id && a->cookie == m->value)
			break;
	}
	if (i == (size_t)-1) {
		s->unmatched++;
		return 0;
	}
	if (grow((void **)&s->async, &st->alloc_async, s->nr_async + 1,
		 sizeof(*s->async)))
		return -ENOMEM;
	as = &s->async[s->nr_async++];
	as->ts = a->ts;
	as->dur = ts > a->ts ? ts - a->ts : 0;
	as->pid = a->pid;
	as->name = a->name;
	as->cookie = a->cookie;
	memmove(a, a + 1, (st->nr_open_async - i - 1) * sizeof(*a));
	st->nr_open_async--;
	return 0;
}

/**
 * vtrace_slices_counter - feed one counter sample
 * @s: the set
 * @ts: the sample's time, ns
 * @pid: the counter's process (a C| marker's), or %VT_COUNTER_SYSTEM for
 *	a counter of the machine (a vendor or kernel event's)
 * @name: the counter's name
 * @name_len: bytes of @name
 * @value: the sample
 *
 * Return: 0, or -ENOMEM.
 */
int vtrace_slices_counter(struct vt_slices *s, uint64_t ts, int pid,
			  const char *name, size_t name_len, int64_t value)
{
	struct vt_counter *c;
	uint32_t id;
	int ret;

	if (ts > s->state->last_ts)
		s->state->last_ts = ts;
	ret = intern(s, name, name_len, &id);
	if (ret)
		return ret;
	if (grow((void **)&s->counters, &s->state->alloc_counters,
		 s->nr_counters + 1, sizeof(*s->counters)))
		return -ENOMEM;
	c = &s->counters[s->nr_counters++];
	c->ts = ts;
	c->pid = pid;
	c->name = id;
	c->value = value;
	return 0;
}

/**
 * vtrace_slices_marker - feed one marker text (a print or bprint event)
 * @s: the set
 * @ts: the event's timestamp, ns
 * @tid: the thread that wrote it (the event's common_pid)
 * @text: the marker text
 * @len: bytes of @text
 *
 * Text that is not an atrace marker is ignored; a malformed marker is
 * counted in &vt_slices.malformed.
 *
 * Return: 0, or -ENOMEM.
 */
int vtrace_slices_marker(struct vt_slices *s, uint64_t ts, int tid,
			 const char *text, size_t len)
{
	struct vt_marker m;
	int ret = vt_marker_parse(text, len, &m);

	if (ts > s->state->last_ts)
		s->state->last_ts = ts;
	if (ret == -ENOMSG)
		return 0;
	if (ret) {
		s->malformed++;
		return 0;
	}
	switch (m.kind) {
	case VT_MARKER_BEGIN:
		return vtrace_slices_begin(s, ts, m.pid, tid, m.name,
					   m.name_len, false);
	case VT_MARKER_END:
		return vtrace_slices_end(s, ts, tid, NULL, false);
	case VT_MARKER_ASYNC_BEGIN:
		return async_begin(s, ts, &m);
	case VT_MARKER_ASYNC_END:
		return async_end(s, ts, &m);
	case VT_MARKER_COUNTER:
		return vtrace_slices_counter(s, ts, m.pid, m.name, m.name_len,
					     m.value);
	}
	return 0;
}

/**
 * vtrace_slices_sched_switch - a CPU switched from @prev_tid to @next_tid
 * @s: the set
 * @ts: when, ns
 * @prev_tid: the thread that stopped running (0: idle)
 * @next_tid: the thread that starts running
 *
 * Gives the threads' CPU time (&vt_slice.cpu_ts, &vt_slice.cpu_dur).
 *
 * Return: 0, or -ENOMEM.
 */
int vtrace_slices_sched_switch(struct vt_slices *s, uint64_t ts, int prev_tid,
			       int next_tid)
{
	struct tstate *t;

	s->has_cpu_time = true;
	if (ts > s->state->last_ts)
		s->state->last_ts = ts;
	if (prev_tid) {
		t = get_tstate(s, prev_tid);
		if (!t)
			return -ENOMEM;
		if (t->running && ts > t->since)
			t->cpu_ns += ts - t->since;
		t->running = false;
		t->seen = true;
	}
	if (next_tid) {
		t = get_tstate(s, next_tid);
		if (!t)
			return -ENOMEM;
		t->running = true;
		t->seen = true;
		t->since = ts;
	}
	return 0;
}

/* The run open on @cpu ends at @ts. */
static void close_run(struct vt_slices *s, int cpu, uint64_t ts)
{
	struct vt_slices_state *st = s->state;
	struct vt_cpu_run *r;

	if ((size_t)cpu >= st->nr_cpu_open || !st->cpu_open[cpu])
		return;
	r = &s->runs[st->cpu_open[cpu] - 1];
	r->dur = ts > r->ts ? ts - r->ts : 0;
	st->cpu_open[cpu] = 0;
}

static int open_run(struct vt_slices *s, uint64_t ts, int cpu, int tid,
		    const char *comm)
{
	struct vt_slices_state *st = s->state;
	size_t alloc = st->nr_cpu_open, old = st->nr_cpu_open;
	struct vt_cpu_run *r;

	if ((size_t)cpu >= st->nr_cpu_open) {
		if (grow((void **)&st->cpu_open, &alloc, (size_t)cpu + 1,
			 sizeof(*st->cpu_open)))
			return -ENOMEM;
		memset(st->cpu_open + old, 0,
		       (alloc - old) * sizeof(*st->cpu_open));
		st->nr_cpu_open = alloc;
	}
	if (grow((void **)&s->runs, &st->alloc_runs, s->nr_runs + 1,
		 sizeof(*s->runs)))
		return -ENOMEM;
	r = &s->runs[s->nr_runs++];
	memset(r, 0, sizeof(*r));
	r->ts = ts;
	r->cpu = cpu;
	r->tid = tid;
	if (comm)
		snprintf(r->comm, sizeof(r->comm), "%s", comm);
	st->cpu_open[cpu] = s->nr_runs;
	return 0;
}

/* A CPU number beyond any machine's is a corrupt record: no runs. */
#define VT_SLICES_MAX_CPU 65535

/**
 * vtrace_slices_cpu_switch - @cpu switched from @prev_tid to @next_tid
 * @s: the set
 * @ts: when, ns
 * @cpu: the CPU
 * @prev_tid: the thread that stopped running (0: idle)
 * @next_tid: the thread that starts running (0: idle)
 * @next_comm: @next_tid's name, or NULL
 *
 * What vtrace_slices_sched_switch() does, and a run of @next_tid on @cpu
 * in &vt_slices.runs (the idle task makes none). A @cpu that is negative
 * or implausibly large makes no run.
 *
 * Return: 0, or -ENOMEM.
 */
int vtrace_slices_cpu_switch(struct vt_slices *s, uint64_t ts, int cpu,
			     int prev_tid, int next_tid, const char *next_comm)
{
	int ret = vtrace_slices_sched_switch(s, ts, prev_tid, next_tid);

	if (ret || cpu < 0 || cpu > VT_SLICES_MAX_CPU)
		return ret;
	close_run(s, cpu, ts);
	if (!next_tid)
		return 0;
	return open_run(s, ts, cpu, next_tid, next_comm);
}

/**
 * vtrace_slices_cpu_time - set a thread's CPU time for the next begin or end
 * @s: the set
 * @tid: the thread
 * @cpu_ns: its CPU time, ns (a method trace's thread clock)
 *
 * Return: 0, or -ENOMEM.
 */
int vtrace_slices_cpu_time(struct vt_slices *s, int tid, uint64_t cpu_ns)
{
	struct tstate *t = get_tstate(s, tid);

	if (!t)
		return -ENOMEM;
	s->has_cpu_time = true;
	t->has_cpu_override = true;
	t->cpu_override = cpu_ns;
	return 0;
}

/**
 * vtrace_slices_thread - name a thread
 * @s: the set
 * @tid: the thread
 * @pid: its process, or 0 when unknown
 * @name: its name (comm), copied
 *
 * Return: 0, or -ENOMEM.
 */
int vtrace_slices_thread(struct vt_slices *s, int tid, int pid,
			 const char *name)
{
	struct tstate *t = get_tstate(s, tid);
	char *copy = name ? strdup(name) : NULL;

	if (!t || (name && !copy)) {
		free(copy);
		return -ENOMEM;
	}
	if (pid)
		t->pid = pid;
	free(t->name);
	t->name = copy;
	return 0;
}

static int cmp_slice(const void *a, const void *b)
{
	const struct vt_slice *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->depth != y->depth)
		return x->depth < y->depth ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int cmp_async(const void *a, const void *b)
{
	const struct vt_async_slice *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static int cmp_thread(const void *a, const void *b)
{
	const struct vt_thread *x = a, *y = b;

	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/* Turns parent_seq into an index, once the slices are sorted. */
static int link_parents(struct vt_slices *s)
{
	uint64_t nr_seq = s->state->seq + 1;
	size_t *index, i;

	index = malloc(nr_seq * sizeof(*index));
	if (!index)
		return -ENOMEM;
	for (i = 0; i < nr_seq; i++)
		index[i] = VT_SLICE_NO_PARENT;
	for (i = 0; i < s->nr_slices; i++)
		index[s->slices[i].seq] = i;
	/* A parent still open at the end made no slice: none then. */
	for (i = 0; i < s->nr_slices; i++)
		s->slices[i].parent = s->slices[i].parent_seq ?
					      index[s->slices[i].parent_seq] :
					      VT_SLICE_NO_PARENT;
	free(index);
	return 0;
}

static int collect_threads(struct vt_slices *s)
{
	struct vt_slices_state *st = s->state;
	struct tstate *t;
	size_t i, n = 0;

	s->threads = calloc(st->nr_threads ? st->nr_threads : 1,
			    sizeof(*s->threads));
	if (!s->threads)
		return -ENOMEM;
	for (i = 0; i < st->nr_threads; i++) {
		t = &st->threads[i];
		s->open += t->user.nr + t->kernel.nr;
		if (!t->has_slices)
			continue;
		s->threads[n].tid = t->tid;
		s->threads[n].pid = t->pid ? t->pid : t->tid;
		s->threads[n].name = t->name;
		t->name = NULL;
		n++;
	}
	s->nr_threads = n;
	qsort(s->threads, n, sizeof(*s->threads), cmp_thread);
	return 0;
}

/**
 * vtrace_slices_finish - end of the trace: sort, link parents, count what
 *	is still open
 * @s: the set; no more events may be fed
 *
 * Slices that have no pid of their own take their thread's (a kernel
 * slice on a thread that also wrote markers).
 *
 * Return: 0, or -ENOMEM.
 */
int vtrace_slices_finish(struct vt_slices *s)
{
	struct tstate *t;
	size_t i;
	int ret;

	for (i = 0; i < s->nr_slices; i++) {
		t = find_tstate(s->state, s->slices[i].tid);
		if (t && t->pid && s->slices[i].kernel)
			s->slices[i].pid = t->pid;
	}
	if (s->nr_slices)
		qsort(s->slices, s->nr_slices, sizeof(*s->slices), cmp_slice);
	if (s->nr_async)
		qsort(s->async, s->nr_async, sizeof(*s->async), cmp_async);
	for (i = 0; i < s->state->nr_cpu_open; i++)
		close_run(s, i, s->state->last_ts);
	ret = link_parents(s);
	if (!ret)
		ret = collect_threads(s);
	if (ret)
		return ret;
	s->open += s->state->nr_open_async;
	state_free(s->state);
	s->state = NULL;
	return 0;
}

/**
 * vtrace_slices_find_thread - the thread @tid of a finished set
 * @s: the set
 * @tid: the thread id
 *
 * Return: the thread, or NULL when it has no slices.
 */
const struct vt_thread *vtrace_slices_find_thread(const struct vt_slices *s,
						  int tid)
{
	struct vt_thread key = { .tid = tid };

	return bsearch(&key, s->threads, s->nr_threads, sizeof(key),
		       cmp_thread);
}
