// SPDX-License-Identifier: LGPL-2.1
/*
 * A trace.dat's events for the slice builder: ftrace/print (what
 * trace_marker writes), ftrace/bprint and ftrace/bputs (trace_printk),
 * ftrace/funcgraph_entry and _exit (the function_graph tracer) and
 * sched/sched_switch (the threads' CPU time). See slices-tracedat.h.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <trace-cmd.h>
#include <trace-seq.h>

#include <vtrace/slices-tracedat.h>
#include <vtrace/tracedat-input.h>

#include "analysis/counter-events.h"

enum kind { K_MARKER, K_ENTRY, K_EXIT, K_SWITCH, K_COUNTER };

/* One kept record, decoded. */
struct item {
	uint64_t ts;
	uint64_t seq;
	enum kind kind;
	int tid;
	int next_tid; /* K_SWITCH */
	int cpu; /* K_SWITCH */
	char prev_comm[16]; /* K_SWITCH: the name @tid stopped running with */
	int64_t value; /* K_COUNTER */
	/* Marker text, function name, next_comm of K_SWITCH or a track. */
	char *text;
};

/* An event of the file that gives counter values, its fields found. */
struct counter_event {
	int id;
	struct tep_event *event;
	const struct vt_counter_event *ce;
	struct tep_format_field *key, *ts;
	struct tep_format_field *values[VT_COUNTER_VALUES_MAX];
};

struct vt_slices_feed {
	struct tep_handle *tep;
	int print_id, bprint_id, bputs_id, fentry_id, fexit_id, switch_id;
	struct tep_format_field *print_buf, *fentry_func, *fexit_func,
		*prev_pid, *next_pid, *prev_comm, *next_comm;
	struct trace_seq seq;
	struct counter_event *counters;
	size_t nr_counters;
	struct item *items;
	size_t nr, alloc;
};

static int event_id(struct tep_handle *tep, const char *sys, const char *name,
		    struct tep_event **out)
{
	struct tep_event *e = tep_find_event_by_name(tep, sys, name);

	if (out)
		*out = e;
	return e ? e->id : -1;
}

static struct tep_format_field *field(struct tep_event *e, const char *name)
{
	return e ? tep_find_field(e, name) : NULL;
}

/* The file's events that give counter values, with every field they need. */
static int find_counter_events(struct vt_slices_feed *f)
{
	int i, v, n = tep_get_events_count(f->tep);
	const struct vt_counter_event *ce;
	struct counter_event *c;
	struct tep_event *e;

	for (i = 0; i < n; i++) {
		e = tep_get_event(f->tep, i);
		ce = e ? vt_counter_event_find(e->system, e->name) : NULL;
		if (!ce)
			continue;
		c = reallocarray(f->counters, f->nr_counters + 1,
				 sizeof(*f->counters));
		if (!c)
			return -ENOMEM;
		f->counters = c;
		c = &c[f->nr_counters];
		memset(c, 0, sizeof(*c));
		c->id = e->id;
		c->event = e;
		c->ce = ce;
		c->key = ce->key_kind != VT_COUNTER_KEY_NONE ?
				 tep_find_field(e, ce->key) :
				 NULL;
		c->ts = ce->ts_field ? tep_find_field(e, ce->ts_field) : NULL;
		for (v = 0; v < VT_COUNTER_VALUES_MAX && ce->values[v].field;
		     v++)
			c->values[v] = tep_find_field(e, ce->values[v].field);
		if ((ce->key_kind != VT_COUNTER_KEY_NONE && !c->key) ||
		    (ce->ts_field && !c->ts))
			continue; /* a format unlike the table's: no values */
		f->nr_counters++;
	}
	return 0;
}

/**
 * vtrace_slices_feed_new - start collecting a trace.dat's records
 * @feed: set to the new feed
 * @tep: the file's event formats; must outlive the feed
 *
 * Return: 0, or -ENOMEM.
 */
int vtrace_slices_feed_new(struct vt_slices_feed **feed, struct tep_handle *tep)
{
	struct tep_event *print, *fentry, *fexit, *sw;
	struct vt_slices_feed *f = calloc(1, sizeof(*f));

	if (!f)
		return -ENOMEM;
	f->tep = tep;
	f->print_id = event_id(tep, "ftrace", "print", &print);
	f->bprint_id = event_id(tep, "ftrace", "bprint", NULL);
	f->bputs_id = event_id(tep, "ftrace", "bputs", NULL);
	f->fentry_id = event_id(tep, "ftrace", "funcgraph_entry", &fentry);
	f->fexit_id = event_id(tep, "ftrace", "funcgraph_exit", &fexit);
	f->switch_id = event_id(tep, "sched", "sched_switch", &sw);
	f->print_buf = field(print, "buf");
	f->fentry_func = field(fentry, "func");
	f->fexit_func = field(fexit, "func");
	f->prev_pid = field(sw, "prev_pid");
	f->next_pid = field(sw, "next_pid");
	f->prev_comm = field(sw, "prev_comm");
	f->next_comm = field(sw, "next_comm");
	trace_seq_init(&f->seq);
	if (find_counter_events(f)) {
		vtrace_slices_feed_free(f);
		return -ENOMEM;
	}
	*feed = f;
	return 0;
}

/**
 * vtrace_slices_feed_free - free a feed
 * @feed: the feed, or NULL
 */
void vtrace_slices_feed_free(struct vt_slices_feed *feed)
{
	size_t i;

	if (!feed)
		return;
	for (i = 0; i < feed->nr; i++)
		free(feed->items[i].text);
	free(feed->items);
	free(feed->counters);
	trace_seq_destroy(&feed->seq);
	free(feed);
}

/* A number field, only when it lies inside the record. */
static bool read_num(struct tep_format_field *f, struct tep_record *rec,
		     unsigned long long *v)
{
	if (!f || f->offset < 0 || f->offset + f->size > rec->size)
		return false;
	return !tep_read_number_field(f, rec->data, v);
}

/* A number field as the format types it, signed or not. */
static bool read_signed(struct tep_format_field *f, struct tep_record *rec,
			int64_t *v)
{
	unsigned long long u;
	int shift;

	if (!read_num(f, rec, &u))
		return false;
	shift = 64 - 8 * (f->size < 8 ? f->size : 8);
	*v = (f->flags & TEP_FIELD_IS_SIGNED) && shift ?
		     (int64_t)(u << shift) >> shift :
		     (int64_t)u;
	return true;
}

static struct item *add(struct vt_slices_feed *f, struct tep_record *rec,
			enum kind kind, int tid, const char *text, size_t len)
{
	struct item *it;
	void *n;

	if (f->nr == f->alloc) {
		f->alloc = f->alloc ? f->alloc * 2 : 1024;
		n = reallocarray(f->items, f->alloc, sizeof(*f->items));
		if (!n)
			return NULL;
		f->items = n;
	}
	it = &f->items[f->nr];
	memset(it, 0, sizeof(*it));
	if (text) {
		it->text = strndup(text, len);
		if (!it->text)
			return NULL;
	}
	it->ts = rec->ts;
	it->seq = f->nr++;
	it->kind = kind;
	it->tid = tid;
	return it;
}

static int print_record(struct vt_slices_feed *f, struct tep_record *rec,
			int tid)
{
	struct tep_format_field *fl = f->print_buf;
	const char *buf, *nul;
	int len;

	if (!fl || fl->offset < 0 || fl->offset >= rec->size)
		return 0;
	buf = (const char *)rec->data + fl->offset;
	len = rec->size - fl->offset;
	nul = memchr(buf, '\0', len);
	if (nul)
		len = nul - buf;
	return add(f, rec, K_MARKER, tid, buf, len) ? 0 : -ENOMEM;
}

/* trace_printk: libtraceevent formats it as "function: text". */
static int printk_record(struct vt_slices_feed *f, struct tep_record *rec,
			 int tid)
{
	const char *text, *colon;

	trace_seq_reset(&f->seq);
	tep_print_event(f->tep, &f->seq, rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&f->seq);
	text = f->seq.buffer;
	colon = strstr(text, ": ");
	if (colon)
		text = colon + 2;
	return add(f, rec, K_MARKER, tid, text, strlen(text)) ? 0 : -ENOMEM;
}

static int funcgraph_record(struct vt_slices_feed *f, struct tep_record *rec,
			    int tid, struct tep_format_field *fl, bool entry)
{
	unsigned long long addr;
	const char *func;
	char hex[32];

	if (!read_num(fl, rec, &addr))
		return 0;
	func = tep_find_function(f->tep, addr);
	if (!func) {
		snprintf(hex, sizeof(hex), "0x%llx", addr);
		func = hex;
	}
	return add(f, rec, entry ? K_ENTRY : K_EXIT, tid, func, strlen(func)) ?
		       0 :
		       -ENOMEM;
}

/* A comm field of @rec, or NULL when it does not lie inside it. */
static const char *comm_field(struct tep_format_field *c,
			      struct tep_record *rec, size_t *len)
{
	const char *comm;

	if (!c || c->offset < 0 || c->offset + c->size > rec->size)
		return NULL;
	comm = (const char *)rec->data + c->offset;
	*len = strnlen(comm, c->size);
	return comm;
}

static int switch_record(struct vt_slices_feed *f, struct tep_record *rec)
{
	const char *next_comm, *prev_comm;
	unsigned long long prev, next;
	size_t next_len = 0, prev_len = 0;
	struct item *it;

	if (!read_num(f->prev_pid, rec, &prev) ||
	    !read_num(f->next_pid, rec, &next))
		return 0;
	next_comm = comm_field(f->next_comm, rec, &next_len);
	prev_comm = comm_field(f->prev_comm, rec, &prev_len);
	it = add(f, rec, K_SWITCH, (int)prev, next_comm ? next_comm : "",
		 next_len);
	if (!it)
		return -ENOMEM;
	it->next_tid = (int)next;
	it->cpu = rec->cpu;
	if (prev_comm) {
		if (prev_len >= sizeof(it->prev_comm))
			prev_len = sizeof(it->prev_comm) - 1;
		memcpy(it->prev_comm, prev_comm, prev_len);
	}
	return 0;
}

/* The counter values of an event of @c, a K_COUNTER item each. */
static int counter_record(struct vt_slices_feed *f, struct counter_event *c,
			  struct tep_record *rec)
{
	const struct vt_counter_event *ce = c->ce;
	const char *key = NULL;
	int64_t key_num = 0, value, ts;
	struct item *it;
	char name[192];
	int v, len = 0;

	if (c->key && (c->key->flags & TEP_FIELD_IS_STRING)) {
		key = tep_get_field_raw(&f->seq, c->event, c->key->name, rec,
					&len, 0);
		if (!key)
			return 0;
		len = strnlen(key, len);
	} else if (c->key && !read_signed(c->key, rec, &key_num)) {
		return 0;
	}
	if (c->ts && !read_signed(c->ts, rec, &ts))
		return 0;
	for (v = 0; v < VT_COUNTER_VALUES_MAX && ce->values[v].field; v++) {
		if (!c->values[v] || !read_signed(c->values[v], rec, &value) ||
		    !vt_counter_track_name(ce, v, key, len, key_num, name,
					   sizeof(name)))
			continue;
		it = add(f, rec, K_COUNTER, 0, name, strlen(name));
		if (!it)
			return -ENOMEM;
		it->value = value;
		if (c->ts)
			it->ts = ts;
	}
	return 0;
}

/**
 * vtrace_slices_feed_record - offer one record
 * @feed: the feed
 * @record: any record of the file; those that make slices are kept
 *
 * Return: 0, or -ENOMEM.
 */
int vtrace_slices_feed_record(struct vt_slices_feed *feed,
			      struct tep_record *record)
{
	size_t i;
	int id, tid;

	/* The common fields (type, pid) must be in the record. */
	if (record->size < 8)
		return 0;
	id = tep_data_type(feed->tep, record);
	tid = tep_data_pid(feed->tep, record);
	if (id == feed->print_id)
		return print_record(feed, record, tid);
	if (id == feed->bprint_id || id == feed->bputs_id)
		return printk_record(feed, record, tid);
	if (id == feed->fentry_id)
		return funcgraph_record(feed, record, tid, feed->fentry_func,
					true);
	if (id == feed->fexit_id)
		return funcgraph_record(feed, record, tid, feed->fexit_func,
					false);
	if (id == feed->switch_id)
		return switch_record(feed, record);
	for (i = 0; i < feed->nr_counters; i++)
		if (id == feed->counters[i].id)
			return counter_record(feed, &feed->counters[i], record);
	return 0;
}

static int cmp_item(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* @comm is @tid's name as of this sched_switch item: later ones win. */
static void note_switch_name(struct vt_slices *s, const char **names, int tid,
			     const char *comm)
{
	const struct vt_thread *t;

	if (!tid || !*comm)
		return;
	t = vtrace_slices_find_thread(s, tid);
	if (t)
		names[t - s->threads] = comm;
}

/*
 * A thread is named as the recording's own sched_switch events last saw
 * it; saved_cmdlines names the rest. That table is small and global, so
 * on a busy system it may have dropped a thread the recording traced,
 * and a recovered file has none.
 */
static int name_threads(struct vt_slices_feed *f, struct vt_slices *s)
{
	const char **names;
	const char *comm;
	struct item *it;
	size_t i;
	int ret = 0;

	if (!s->nr_threads)
		return 0;
	names = calloc(s->nr_threads, sizeof(*names));
	if (!names)
		return -ENOMEM;
	for (i = 0; i < f->nr; i++) {
		it = &f->items[i];
		if (it->kind != K_SWITCH)
			continue;
		note_switch_name(s, names, it->tid, it->prev_comm);
		note_switch_name(s, names, it->next_tid, it->text);
	}
	for (i = 0; i < s->nr_threads && !ret; i++) {
		comm = names[i];
		if (!comm)
			comm = tep_data_comm_from_pid(f->tep,
						      s->threads[i].tid);
		if (!comm || !strcmp(comm, "<...>"))
			continue;
		free(s->threads[i].name);
		s->threads[i].name = strdup(comm);
		if (!s->threads[i].name)
			ret = -ENOMEM;
	}
	free(names);
	return ret;
}

/**
 * vtrace_slices_feed_finish - build the slices of the records offered
 * @feed: the feed (free it after)
 * @s: an initialized, empty set (vtrace_slices_init()); finished on success
 *
 * Return: 0, or -ENOMEM.
 */
int vtrace_slices_feed_finish(struct vt_slices_feed *feed, struct vt_slices *s)
{
	struct item *it;
	size_t i;
	int ret = 0;

	if (feed->nr)
		qsort(feed->items, feed->nr, sizeof(*feed->items), cmp_item);
	for (i = 0; i < feed->nr && !ret; i++) {
		it = &feed->items[i];
		switch (it->kind) {
		case K_MARKER:
			ret = vtrace_slices_marker(s, it->ts, it->tid, it->text,
						   strlen(it->text));
			break;
		case K_ENTRY:
			ret = vtrace_slices_begin(s, it->ts, 0, it->tid,
						  it->text, strlen(it->text),
						  true);
			break;
		case K_EXIT:
			ret = vtrace_slices_end(s, it->ts, it->tid, it->text,
						true);
			break;
		case K_SWITCH:
			ret = vtrace_slices_cpu_switch(s, it->ts, it->cpu,
						       it->tid, it->next_tid,
						       it->text);
			break;
		case K_COUNTER:
			ret = vtrace_slices_counter(s, it->ts,
						    VT_COUNTER_SYSTEM, it->text,
						    strlen(it->text),
						    it->value);
			break;
		}
	}
	if (!ret)
		ret = vtrace_slices_finish(s);
	if (!ret)
		ret = name_threads(feed, s);
	return ret;
}

struct feed_file {
	struct vt_slices_feed *feed;
	const char *path;
	char *msg;
	size_t msg_size;
};

static int feed_one(struct tracecmd_input *handle, struct tep_record *rec,
		    int cpu, void *data)
{
	struct feed_file *ff = data;
	struct tep_event *event = tep_find_event_by_record(ff->feed->tep, rec);
	char why[256];

	if (event && !vtrace_tracedat_record_ok(event, rec, why, sizeof(why))) {
		snprintf(ff->msg, ff->msg_size, "%s: %s", ff->path, why);
		return -EINVAL;
	}
	return vtrace_slices_feed_record(ff->feed, rec);
}

/**
 * vtrace_slices_from_tracedat - build the slices of a trace.dat
 * @s: an initialized, empty set (vtrace_slices_init()); finished on success
 * @path: the trace.dat
 * @msg: set to why the file cannot be read (naming it), on failure
 * @msg_size: size of @msg
 *
 * The file is opened and its records checked as vtrace report does
 * (tracedat-input.h).
 *
 * Return: 0, -EINVAL for a file that is not a usable trace.dat (an
 * unfinished recording included), or another negative errno.
 */
int vtrace_slices_from_tracedat(struct vt_slices *s, const char *path,
				char *msg, size_t msg_size)
{
	struct vt_slices_feed *feed = NULL;
	struct tracecmd_input *handle;
	struct feed_file ff = { .path = path,
				.msg = msg,
				.msg_size = msg_size };
	int ret;

	ret = vtrace_tracedat_open(path, &handle, msg, msg_size);
	if (ret)
		return ret == -ENODATA ? -EINVAL : ret;
	ret = vtrace_slices_feed_new(&feed, tracecmd_get_tep(handle));
	ff.feed = feed;
	if (!ret)
		ret = tracecmd_iterate_events(handle, NULL, 0, feed_one, &ff);
	if (ret == -EINVAL) /* feed_one() said why */
		goto out;
	if (!ret)
		ret = vtrace_slices_feed_finish(feed, s);
	if (ret)
		snprintf(msg, msg_size, "%s: %s", path, strerror(-ret));
out:
	vtrace_slices_feed_free(feed);
	tracecmd_close(handle);
	return ret;
}
