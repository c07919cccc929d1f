// SPDX-License-Identifier: LGPL-2.1
/*
 * Reading a Perfetto trace; see perfetto-input.h.
 *
 * The whole file is read into memory and walked once: ftrace bundles
 * become events (their strings point into the file's bytes), print
 * events and track events become slice items, sorted by time and fed to
 * the slice builder at the end, as slices-tracedat.c does for a
 * trace.dat. Any field that does not parse as protobuf makes the file
 * unusable: a message says where.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <vtrace/file-io.h>
#include <vtrace/perfetto-input.h>
#include <vtrace/strtab.h>

#include "analysis/counter-events.h"
#include "sinks/perfetto/pb-read.h"
#include "sinks/perfetto/perfetto-format.h"

/* Larger files are refused rather than read into memory. */
#define PF_INPUT_MAX_SIZE (4ULL << 30)
/* CPUs a bundle may name. */
#define PF_INPUT_MAX_CPUS 4096

enum item_kind { I_MARKER, I_SWITCH, I_COUNTER };

/*
 * A slice item: an atrace marker (the form track events take too), a
 * sched_switch, or a counter value of an event (counter-events.h).
 */
struct item {
	uint64_t ts;
	uint64_t seq;
	enum item_kind kind;
	int tid;
	int next_tid; /* I_SWITCH */
	int cpu; /* I_SWITCH */
	int64_t value; /* I_COUNTER */
	/* The marker's text, the next task's comm, or the counter's track. */
	char *text;
};

/*
 * A thread's name; @from_sched: a scheduler event's comm, which the
 * process tree and track descriptors override.
 */
struct thread_name {
	int tid;
	int pid;
	const char *name;
	bool from_sched;
	size_t order;
};

/* A track: a thread's, or a counter's (@counter), of process @pid. */
struct track {
	uint64_t uuid;
	int pid;
	int tid;
	bool counter;
	const char *name;
};

/* Where each CPU's compact sched events left off. */
struct cpu_sched {
	bool known;
	int pid;
	int prio;
	const char *comm;
	size_t comm_len;
};

/* An interned event name of a packet sequence. */
struct iid_name {
	uint32_t seq;
	uint64_t iid;
	const char *name;
};

struct vt_pf_input_state {
	unsigned char *buf;
	size_t size;
	char **names;
	size_t nr_names, alloc_names;
	struct vtrace_strtab name_tab;
	struct item *items;
	size_t nr_items, alloc_items;
	size_t alloc_events, alloc_values;
	struct thread_name *threads;
	size_t nr_threads, alloc_threads;
	struct track *tracks;
	size_t nr_tracks, alloc_tracks;
	struct iid_name *iids;
	size_t nr_iids, alloc_iids;
	struct cpu_sched *cpus;
	size_t nr_cpus;
	const uint16_t *typed; /* FtraceEvent field number -> table index + 1 */
	size_t nr_typed;
	uint64_t seq;
	char *msg;
	size_t msg_size;
};

struct reader {
	struct vt_perfetto_input *in;
	struct vt_pf_input_state *st;
};

static int grow(void **arr, size_t *alloc, size_t need, size_t size)
{
	size_t n = *alloc ? *alloc : 64;
	void *p;

	if (need <= *alloc)
		return 0;
	while (n < need)
		n *= 2;
	p = reallocarray(*arr, n, size);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*alloc = n;
	return 0;
}

static int bad(struct reader *r, const unsigned char *at, const char *what)
{
	snprintf(r->st->msg, r->st->msg_size,
		 "not a usable Perfetto trace: byte %zu: %s",
		 (size_t)(at - r->st->buf), what);
	return -EINVAL;
}

/* The one copy of a name; NULL only when out of memory. */
static const char *intern(struct reader *r, const void *s, size_t len)
{
	struct vt_pf_input_state *st = r->st;
	char *copy = strndup(s, len);
	size_t idx;

	if (!copy)
		return NULL;
	if (vtrace_strtab_lookup(&st->name_tab, copy, &idx)) {
		free(copy);
		return st->names[idx];
	}
	if (grow((void **)&st->names, &st->alloc_names, st->nr_names + 1,
		 sizeof(*st->names)))
		goto fail;
	if (vtrace_strtab_insert(&st->name_tab, copy, st->nr_names, NULL))
		goto fail;
	st->names[st->nr_names++] = copy;
	return copy;
fail:
	free(copy);
	return NULL;
}

static const char *intern_str(struct reader *r, const char *s)
{
	return intern(r, s, strlen(s));
}

static struct vt_pf_event *add_event(struct reader *r, uint64_t ts, int cpu,
				     int pid, const char *system,
				     const char *name)
{
	struct vt_perfetto_input *in = r->in;
	struct vt_pf_event *e;

	if (grow((void **)&in->events, &r->st->alloc_events, in->nr_events + 1,
		 sizeof(*in->events)))
		return NULL;
	e = &in->events[in->nr_events++];
	*e = (struct vt_pf_event){ .ts = ts,
				   .cpu = cpu,
				   .pid = pid,
				   .system = system,
				   .name = name,
				   .first_value = in->nr_values,
				   .seq = r->st->seq++ };
	return e;
}

static struct vt_pf_value *add_value(struct reader *r, struct vt_pf_event *e,
				     const char *name, enum vt_pf_value_kind k)
{
	struct vt_perfetto_input *in = r->in;
	struct vt_pf_value *v;

	if (!name || grow((void **)&in->values, &r->st->alloc_values,
			  in->nr_values + 1, sizeof(*in->values)))
		return NULL;
	v = &in->values[in->nr_values++];
	*v = (struct vt_pf_value){ .name = name, .kind = k };
	e->nr_values++;
	return v;
}

static int add_item(struct reader *r, const struct item *it, char *text)
{
	struct vt_pf_input_state *st = r->st;
	struct item *n;

	if (grow((void **)&st->items, &st->alloc_items, st->nr_items + 1,
		 sizeof(*st->items))) {
		free(text);
		return -ENOMEM;
	}
	n = &st->items[st->nr_items++];
	*n = *it;
	n->seq = st->seq++;
	n->text = text;
	return 0;
}

static int add_marker(struct reader *r, uint64_t ts, int tid, char *text)
{
	struct item it = { .ts = ts, .kind = I_MARKER, .tid = tid };

	return add_item(r, &it, text);
}

/* @comm: the next task's name, or NULL. */
static int add_switch(struct reader *r, uint64_t ts, int cpu, int prev_tid,
		      int next_tid, const char *comm, size_t comm_len)
{
	struct item it = { .ts = ts,
			   .kind = I_SWITCH,
			   .tid = prev_tid,
			   .next_tid = next_tid,
			   .cpu = cpu };
	char *text = NULL;

	if (comm) {
		text = strndup(comm, comm_len);
		if (!text)
			return -ENOMEM;
	}
	return add_item(r, &it, text);
}

static int add_thread(struct reader *r, int tid, int pid, const char *name,
		      size_t len, bool from_sched)
{
	struct vt_pf_input_state *st = r->st;
	const char *n = NULL;

	if (name && len) {
		n = intern(r, name, len);
		if (!n)
			return -ENOMEM;
	}
	if (grow((void **)&st->threads, &st->alloc_threads, st->nr_threads + 1,
		 sizeof(*st->threads)))
		return -ENOMEM;
	st->threads[st->nr_threads] = (struct thread_name){
		.tid = tid,
		.pid = pid,
		.name = n,
		.from_sched = from_sched,
		.order = st->nr_threads,
	};
	st->nr_threads++;
	return 0;
}

/* Strings come length-delimited, numbers as varints. */
static bool wire_fits(const struct vt_pf_value *v, enum vt_pb_wire wire)
{
	if (v->kind == VT_PF_VALUE_STR)
		return wire == VT_PB_WIRE_LEN;
	return wire != VT_PB_WIRE_LEN;
}

/* The value of a field in a typed message, as its table says. */
static int typed_value(struct reader *r, struct vt_pf_event *e,
		       const struct pf_typed_event *t,
		       const struct vt_pb_field_view *f)
{
	const struct pf_field *pf = NULL;
	struct vt_pf_value *v;
	char unknown[32];
	size_t i;

	for (i = 0; t && i < PF_TYPED_FIELDS_MAX && t->fields[i].name; i++)
		if (t->fields[i].number == f->number)
			pf = &t->fields[i];
	if (!pf) {
		snprintf(unknown, sizeof(unknown), "field_%" PRIu32, f->number);
		v = add_value(r, e, intern_str(r, unknown),
			      f->wire == VT_PB_WIRE_LEN ? VT_PF_VALUE_STR :
							  VT_PF_VALUE_UINT);
	} else {
		v = add_value(r, e, pf->name,
			      pf->kind == PF_STRING ? VT_PF_VALUE_STR :
			      pf->kind == PF_INT32 || pf->kind == PF_INT64 ?
						      VT_PF_VALUE_INT :
						      VT_PF_VALUE_UINT);
	}
	if (!v)
		return -ENOMEM;
	if (!wire_fits(v, f->wire))
		return bad(r, f->data ? f->data : r->st->buf,
			   "an ftrace field of the wrong wire type");
	v->str = (const char *)f->data;
	v->len = f->len;
	v->u = f->u;
	v->i = pf && pf->kind == PF_INT32 ? (int32_t)f->u : (int64_t)f->u;
	return 0;
}

static int generic_field(struct reader *r, struct vt_pf_event *e,
			 const unsigned char *data, size_t len)
{
	struct vt_pb_cursor c = vt_pb_cursor(data, len);
	struct vt_pb_field_view f, val = { 0 };
	const char *name = NULL;
	struct vt_pf_value *v;

	while (vt_pb_next(&c, &f)) {
		if (f.number == PF_GENERIC_FIELD_NAME &&
		    f.wire == VT_PB_WIRE_LEN) {
			name = intern(r, f.data, f.len);
			if (!name)
				return -ENOMEM;
		} else if (f.number >= PF_GENERIC_FIELD_STR_VALUE &&
			   f.number <= PF_GENERIC_FIELD_UINT_VALUE) {
			val = f;
		}
	}
	if (c.bad || !name || !val.number)
		return bad(
			r, data,
			"a generic ftrace event field without a name or value");
	v = add_value(
		r, e, name,
		val.number == PF_GENERIC_FIELD_STR_VALUE ? VT_PF_VALUE_STR :
		val.number == PF_GENERIC_FIELD_INT_VALUE ? VT_PF_VALUE_INT :
							   VT_PF_VALUE_UINT);
	if (!v)
		return -ENOMEM;
	if (!wire_fits(v, val.wire))
		return bad(
			r, data,
			"a generic ftrace event field of the wrong wire type");
	v->str = (const char *)val.data;
	v->len = val.len;
	v->u = val.u;
	v->i = (int64_t)val.u;
	return 0;
}

static const struct vt_pf_value *
value_of(struct reader *r, const struct vt_pf_event *e, const char *name)
{
	size_t i;

	for (i = 0; i < e->nr_values; i++)
		if (!strcmp(r->in->values[e->first_value + i].name, name))
			return &r->in->values[e->first_value + i];
	return NULL;
}

/* A number value as the number it is. */
static int64_t number_of(const struct vt_pf_value *v)
{
	return v->kind == VT_PF_VALUE_INT ? v->i : (int64_t)v->u;
}

/* The counter values an event gives, as counter-events.h names them. */
static int counter_items(struct reader *r, const struct vt_pf_event *e,
			 const struct vt_counter_event *ce)
{
	struct item it = { .ts = e->ts, .kind = I_COUNTER };
	const struct vt_pf_value *key = NULL, *val, *ts;
	const char *key_str = NULL;
	size_t key_len = 0;
	char name[192];
	int v, ret;

	if (ce->key_kind != VT_COUNTER_KEY_NONE) {
		key = value_of(r, e, ce->key);
		if (!key)
			return 0;
		if (key->kind == VT_PF_VALUE_STR) {
			key_str = key->str;
			key_len = strnlen(key->str, key->len);
		}
	}
	if (ce->ts_field) {
		ts = value_of(r, e, ce->ts_field);
		if (!ts || ts->kind == VT_PF_VALUE_STR)
			return 0;
		it.ts = number_of(ts);
	}
	for (v = 0; v < VT_COUNTER_VALUES_MAX && ce->values[v].field; v++) {
		val = value_of(r, e, ce->values[v].field);
		if (!val || val->kind == VT_PF_VALUE_STR ||
		    !vt_counter_track_name(ce, v, key_str, key_len,
					   key ? number_of(key) : 0, name,
					   sizeof(name)))
			continue;
		it.value = number_of(val);
		ret = add_item(r, &it, strdup(name));
		if (ret)
			return ret;
		if (!r->st->items[r->st->nr_items - 1].text)
			return -ENOMEM;
	}
	return 0;
}

/* The slice items an ftrace event makes: a marker, a switch, counters. */
static int event_items(struct reader *r, const struct vt_pf_event *e)
{
	const struct vt_pf_value *buf, *prev, *next, *comm;
	const struct vt_counter_event *ce;
	char *text;

	ce = vt_counter_event_find(e->system, e->name);
	if (ce)
		return counter_items(r, e, ce);
	if (!e->system)
		return 0;
	if (!strcmp(e->system, "ftrace") && !strcmp(e->name, "print")) {
		buf = value_of(r, e, "buf");
		if (!buf || buf->kind != VT_PF_VALUE_STR)
			return 0;
		text = strndup(buf->str, buf->len);
		return text ? add_marker(r, e->ts, e->pid, text) : -ENOMEM;
	}
	if (!strcmp(e->system, "sched") && !strcmp(e->name, "sched_switch")) {
		prev = value_of(r, e, "prev_pid");
		next = value_of(r, e, "next_pid");
		comm = value_of(r, e, "next_comm");
		if (!prev || !next)
			return 0;
		if (comm && comm->kind != VT_PF_VALUE_STR)
			comm = NULL;
		return add_switch(r, e->ts, e->cpu, (int)prev->i, (int)next->i,
				  comm ? comm->str : NULL,
				  comm ? comm->len : 0);
	}
	return 0;
}

static int ftrace_event(struct reader *r, int cpu, const unsigned char *data,
			size_t len)
{
	struct vt_pf_input_state *st = r->st;
	struct vt_pb_cursor c = vt_pb_cursor(data, len);
	struct vt_pb_field_view f, body = { 0 };
	const struct pf_typed_event *t = NULL;
	uint64_t ts = 0;
	int pid = -1, ret;
	struct vt_pf_event *e;
	const char *name = NULL;
	char unknown[32];

	while (vt_pb_next(&c, &f)) {
		if (f.number == PF_EVENT_TIMESTAMP &&
		    f.wire == VT_PB_WIRE_VARINT)
			ts = f.u;
		else if (f.number == PF_EVENT_PID &&
			 f.wire == VT_PB_WIRE_VARINT)
			pid = (int)f.u;
		else if (f.wire == VT_PB_WIRE_LEN)
			body = f;
	}
	if (c.bad)
		return bad(r, c.p, "an ftrace event that does not parse");
	if (!body.number)
		return 0; /* an event with no message: nothing to show */
	if (body.number == PF_EVENT_GENERIC) {
		struct vt_pb_cursor g = vt_pb_cursor(body.data, body.len);

		while (vt_pb_next(&g, &f))
			if (f.number == PF_GENERIC_EVENT_NAME &&
			    f.wire == VT_PB_WIRE_LEN)
				name = intern(r, f.data, f.len);
		if (g.bad || !name)
			return bad(r, body.data,
				   "a generic ftrace event without a name");
		e = add_event(r, ts, cpu, pid, NULL, name);
		if (!e)
			return -ENOMEM;
		g = vt_pb_cursor(body.data, body.len);
		while (vt_pb_next(&g, &f))
			if (f.number == PF_GENERIC_FIELD &&
			    f.wire == VT_PB_WIRE_LEN) {
				ret = generic_field(r, e, f.data, f.len);
				if (ret)
					return ret;
			}
		return event_items(r, e);
	}
	if (body.number < st->nr_typed && st->typed[body.number])
		t = &vt_pf_typed_events[st->typed[body.number] - 1];
	if (!t) {
		snprintf(unknown, sizeof(unknown), "ftrace_event_%" PRIu32,
			 body.number);
		name = intern_str(r, unknown);
		if (!name)
			return -ENOMEM;
	}
	e = add_event(r, ts, cpu, pid, t ? t->system : NULL,
		      t ? t->name : name);
	if (!e)
		return -ENOMEM;
	c = vt_pb_cursor(body.data, body.len);
	while (vt_pb_next(&c, &f)) {
		ret = typed_value(r, e, t, &f);
		if (ret)
			return ret;
	}
	if (c.bad)
		return bad(r, c.p, "an ftrace event's fields do not parse");
	return event_items(r, e);
}

/* A packed repeated varint field's values, appended to *@out. */
static int packed(struct reader *r, const struct vt_pb_field_view *f,
		  uint64_t **out, size_t *nr, size_t *alloc)
{
	struct vt_pb_cursor c = vt_pb_cursor(f->data, f->len);
	uint64_t v;

	if (f->wire == VT_PB_WIRE_VARINT) {
		if (grow((void **)out, alloc, *nr + 1, sizeof(**out)))
			return -ENOMEM;
		(*out)[(*nr)++] = f->u;
		return 0;
	}
	if (f->wire != VT_PB_WIRE_LEN)
		return bad(r, r->st->buf,
			   "a compact sched field of the wrong wire type");
	while (c.p < c.end) {
		if (!vt_pb_read_varint(&c, &v))
			return bad(r, f->data,
				   "a compact sched array does not parse");
		if (grow((void **)out, alloc, *nr + 1, sizeof(**out)))
			return -ENOMEM;
		(*out)[(*nr)++] = v;
	}
	return 0;
}

/* CompactSched's arrays, by field number. */
struct compact {
	uint64_t *a[PF_COMPACT_LAST_ARRAY + 1];
	size_t nr[PF_COMPACT_LAST_ARRAY + 1], alloc[PF_COMPACT_LAST_ARRAY + 1];
	struct vt_pb_field_view *strings;
	size_t nr_strings, alloc_strings;
};

static int compact_comm(struct reader *r, struct compact *cs, uint64_t idx,
			const char **str, size_t *len)
{
	if (idx >= cs->nr_strings)
		return bad(r, r->st->buf,
			   "a compact sched comm index past its table");
	*str = (const char *)cs->strings[idx].data;
	*len = cs->strings[idx].len;
	return 0;
}

/* A value add_value() made, if it could. */
static void set_int(struct vt_pf_value *v, int64_t i)
{
	if (!v)
		return;
	v->i = i;
	v->u = (uint64_t)i;
}

/* One compact switch: the task switched out is the one the CPU's last
 * switch switched in, which the compact format leaves out.
 */
static int compact_switch(struct reader *r, struct compact *cs, size_t i,
			  uint64_t ts, struct cpu_sched *cpu, int cpu_nr)
{
	int next_pid = (int32_t)cs->a[PF_COMPACT_SWITCH_NEXT_PID][i];
	int next_prio = (int32_t)cs->a[PF_COMPACT_SWITCH_NEXT_PRIO][i];
	int64_t state = (int64_t)cs->a[PF_COMPACT_SWITCH_PREV_STATE][i];
	struct vt_pf_value *prev_comm, *next_comm;
	struct vt_pf_event *e;
	int ret;

	if (!cpu->known) {
		/* As Perfetto's importer: the first switch only says who runs. */
		ret = compact_comm(r, cs,
				   cs->a[PF_COMPACT_SWITCH_NEXT_COMM_INDEX][i],
				   &cpu->comm, &cpu->comm_len);
		cpu->known = true;
		cpu->pid = next_pid;
		cpu->prio = next_prio;
		/*
		 * The slices' CPU row still starts here, as from the same
		 * switch in a trace.dat, where who ran before is not drawn.
		 */
		if (!ret)
			ret = add_switch(r, ts, cpu_nr, 0, next_pid, cpu->comm,
					 cpu->comm_len);
		return ret;
	}
	e = add_event(r, ts, cpu_nr, cpu->pid, "sched", "sched_switch");
	if (!e)
		return -ENOMEM;
	/* Adding a value may move the others: the comms are set after. */
	add_value(r, e, "prev_comm", VT_PF_VALUE_STR);
	set_int(add_value(r, e, "prev_pid", VT_PF_VALUE_INT), cpu->pid);
	set_int(add_value(r, e, "prev_prio", VT_PF_VALUE_INT), cpu->prio);
	set_int(add_value(r, e, "prev_state", VT_PF_VALUE_INT), state);
	add_value(r, e, "next_comm", VT_PF_VALUE_STR);
	set_int(add_value(r, e, "next_pid", VT_PF_VALUE_INT), next_pid);
	set_int(add_value(r, e, "next_prio", VT_PF_VALUE_INT), next_prio);
	if (e->nr_values != 7)
		return -ENOMEM;
	prev_comm = &r->in->values[e->first_value];
	next_comm = &r->in->values[e->first_value + 4];
	prev_comm->str = cpu->comm;
	prev_comm->len = cpu->comm_len;
	ret = compact_comm(r, cs, cs->a[PF_COMPACT_SWITCH_NEXT_COMM_INDEX][i],
			   &next_comm->str, &next_comm->len);
	if (!ret)
		ret = add_thread(r, next_pid, 0, next_comm->str, next_comm->len,
				 true);
	if (!ret)
		ret = add_switch(r, ts, cpu_nr, cpu->pid, next_pid,
				 next_comm->str, next_comm->len);
	cpu->pid = next_pid;
	cpu->prio = next_prio;
	cpu->comm = next_comm->str;
	cpu->comm_len = next_comm->len;
	return ret;
}

/* One compact waking, by the task running on the CPU. */
static int compact_waking(struct reader *r, struct compact *cs, size_t i,
			  uint64_t ts, struct cpu_sched *cpu, int cpu_nr)
{
	struct vt_pf_value *comm;
	struct vt_pf_event *e;

	/* As Perfetto's importer: not before the CPU's task is known. */
	if (!cpu->known)
		return 0;
	e = add_event(r, ts, cpu_nr, cpu->pid, "sched", "sched_waking");
	if (!e)
		return -ENOMEM;
	add_value(r, e, "comm", VT_PF_VALUE_STR);
	set_int(add_value(r, e, "pid", VT_PF_VALUE_INT),
		(int32_t)cs->a[PF_COMPACT_WAKING_PID][i]);
	set_int(add_value(r, e, "prio", VT_PF_VALUE_INT),
		(int32_t)cs->a[PF_COMPACT_WAKING_PRIO][i]);
	set_int(add_value(r, e, "success", VT_PF_VALUE_INT), 1);
	set_int(add_value(r, e, "target_cpu", VT_PF_VALUE_INT),
		(int32_t)cs->a[PF_COMPACT_WAKING_TARGET_CPU][i]);
	if (e->nr_values != 5)
		return -ENOMEM;
	comm = &r->in->values[e->first_value];
	return compact_comm(r, cs, cs->a[PF_COMPACT_WAKING_COMM_INDEX][i],
			    &comm->str, &comm->len);
}

static bool same_lengths(const struct compact *cs, int first, int last,
			 int skip)
{
	int i;

	for (i = first + 1; i <= last; i++)
		if (i != skip && cs->nr[i] != cs->nr[first])
			return false;
	return true;
}

/* Switches and wakings, merged by time: a waking's waker is who ran. */
static int compact_events(struct reader *r, struct compact *cs,
			  struct cpu_sched *cpu, int cpu_nr)
{
	size_t i = 0, k = 0, n = cs->nr[PF_COMPACT_SWITCH_TIMESTAMP],
	       m = cs->nr[PF_COMPACT_WAKING_TIMESTAMP];
	uint64_t sw_ts = 0, wk_ts = 0;
	int ret = 0;

	if (!same_lengths(cs, PF_COMPACT_SWITCH_TIMESTAMP,
			  PF_COMPACT_SWITCH_NEXT_COMM_INDEX,
			  PF_COMPACT_INTERN_TABLE) ||
	    !same_lengths(cs, PF_COMPACT_WAKING_TIMESTAMP,
			  PF_COMPACT_WAKING_COMM_INDEX, 0))
		return bad(r, r->st->buf,
			   "compact sched arrays of different lengths");
	if (n)
		sw_ts = cs->a[PF_COMPACT_SWITCH_TIMESTAMP][0];
	if (m)
		wk_ts = cs->a[PF_COMPACT_WAKING_TIMESTAMP][0];
	while (!ret && (i < n || k < m)) {
		if (i < n && (k == m || sw_ts <= wk_ts)) {
			ret = compact_switch(r, cs, i, sw_ts, cpu, cpu_nr);
			if (++i < n)
				sw_ts += cs->a[PF_COMPACT_SWITCH_TIMESTAMP][i];
		} else {
			ret = compact_waking(r, cs, k, wk_ts, cpu, cpu_nr);
			if (++k < m)
				wk_ts += cs->a[PF_COMPACT_WAKING_TIMESTAMP][k];
		}
	}
	return ret;
}

static int compact_sched(struct reader *r, int cpu_nr,
			 const unsigned char *data, size_t len)
{
	struct vt_pb_cursor c = vt_pb_cursor(data, len);
	struct compact cs = { 0 };
	struct vt_pb_field_view f;
	int ret = 0, i;

	while (!ret && vt_pb_next(&c, &f)) {
		if (f.number == PF_COMPACT_INTERN_TABLE) {
			if (f.wire != VT_PB_WIRE_LEN) {
				ret = bad(
					r, c.p,
					"a compact sched string that is not one");
			} else if (grow((void **)&cs.strings, &cs.alloc_strings,
					cs.nr_strings + 1, sizeof(f))) {
				ret = -ENOMEM;
			} else {
				cs.strings[cs.nr_strings++] = f;
			}
		} else if (f.number >= 1 && f.number <= PF_COMPACT_LAST_ARRAY) {
			ret = packed(r, &f, &cs.a[f.number], &cs.nr[f.number],
				     &cs.alloc[f.number]);
		}
	}
	if (!ret && c.bad)
		ret = bad(r, c.p, "compact sched events that do not parse");
	if (!ret)
		ret = compact_events(r, &cs, &r->st->cpus[cpu_nr], cpu_nr);
	for (i = 0; i <= PF_COMPACT_LAST_ARRAY; i++)
		free(cs.a[i]);
	free(cs.strings);
	return ret;
}

static int ftrace_bundle(struct reader *r, const unsigned char *data,
			 size_t len)
{
	struct vt_pf_input_state *st = r->st;
	struct vt_pb_cursor c = vt_pb_cursor(data, len);
	struct vt_pb_field_view f;
	uint64_t cpu = 0;
	size_t n;
	int ret;

	while (vt_pb_next(&c, &f))
		if (f.number == PF_BUNDLE_CPU && f.wire == VT_PB_WIRE_VARINT)
			cpu = f.u;
	if (c.bad)
		return bad(r, c.p, "an ftrace bundle that does not parse");
	if (cpu >= PF_INPUT_MAX_CPUS)
		return bad(r, data, "an ftrace bundle of a CPU past 4095");
	if (cpu >= st->nr_cpus) {
		n = st->nr_cpus;
		if (grow((void **)&st->cpus, &n, cpu + 1, sizeof(*st->cpus)))
			return -ENOMEM;
		memset(st->cpus + st->nr_cpus, 0,
		       (n - st->nr_cpus) * sizeof(*st->cpus));
		st->nr_cpus = n;
	}
	c = vt_pb_cursor(data, len);
	while (vt_pb_next(&c, &f)) {
		ret = 0;
		if (f.number == PF_BUNDLE_EVENT && f.wire == VT_PB_WIRE_LEN)
			ret = ftrace_event(r, (int)cpu, f.data, f.len);
		else if (f.number == PF_BUNDLE_COMPACT_SCHED &&
			 f.wire == VT_PB_WIRE_LEN)
			ret = compact_sched(r, (int)cpu, f.data, f.len);
		if (ret)
			return ret;
	}
	return 0;
}

static int process_tree(struct reader *r, const unsigned char *data, size_t len)
{
	struct vt_pb_cursor c = vt_pb_cursor(data, len), m;
	struct vt_pb_field_view f, g, name;
	int64_t id, tgid;
	int ret;

	while (vt_pb_next(&c, &f)) {
		if (f.wire != VT_PB_WIRE_LEN ||
		    (f.number != PF_PROCESS_TREE_PROCESSES &&
		     f.number != PF_PROCESS_TREE_THREADS))
			continue;
		m = vt_pb_cursor(f.data, f.len);
		id = -1;
		tgid = 0;
		name = (struct vt_pb_field_view){ 0 };
		while (vt_pb_next(&m, &g)) {
			if (g.number == 1 && g.wire == VT_PB_WIRE_VARINT)
				id = (int32_t)g.u;
			else if (f.number == PF_PROCESS_TREE_THREADS &&
				 g.number == PF_THREAD_TGID &&
				 g.wire == VT_PB_WIRE_VARINT)
				tgid = (int32_t)g.u;
			else if (g.wire == VT_PB_WIRE_LEN && !name.data &&
				 g.number ==
					 (f.number == PF_PROCESS_TREE_THREADS ?
						  PF_THREAD_NAME :
						  PF_PROCESS_CMDLINE))
				name = g;
		}
		if (m.bad)
			return bad(r, m.p,
				   "a process tree that does not parse");
		if (id < 0)
			continue;
		/* A process names its main thread, unless the thread says. */
		ret = add_thread(
			r, id, f.number == PF_PROCESS_TREE_THREADS ? tgid : id,
			(const char *)name.data, name.len, false);
		if (ret)
			return ret;
	}
	return c.bad ? bad(r, c.p, "a process tree that does not parse") : 0;
}

/* A thread or process descriptor of a track: the ids and the name. */
static int descriptor(struct reader *r, const unsigned char *data, size_t len,
		      bool thread, struct track *t)
{
	struct vt_pb_cursor c = vt_pb_cursor(data, len);
	struct vt_pb_field_view f;
	int ret;

	while (vt_pb_next(&c, &f)) {
		if (f.number == PF_DESCRIPTOR_PID &&
		    f.wire == VT_PB_WIRE_VARINT)
			t->pid = (int32_t)f.u;
		else if (thread && f.number == PF_THREAD_DESCRIPTOR_TID &&
			 f.wire == VT_PB_WIRE_VARINT)
			t->tid = (int32_t)f.u;
		else if (thread && f.number == PF_THREAD_DESCRIPTOR_NAME &&
			 f.wire == VT_PB_WIRE_LEN && t->tid > 0) {
			ret = add_thread(r, t->tid, t->pid,
					 (const char *)f.data, f.len, false);
			if (ret)
				return ret;
		}
	}
	return c.bad ? bad(r, c.p, "a track descriptor that does not parse") :
		       0;
}

static struct track *find_track(struct vt_pf_input_state *st, uint64_t uuid)
{
	size_t i;

	for (i = st->nr_tracks; i-- > 0;)
		if (st->tracks[i].uuid == uuid)
			return &st->tracks[i];
	return NULL;
}

static int track_descriptor(struct reader *r, const unsigned char *data,
			    size_t len)
{
	struct vt_pf_input_state *st = r->st;
	struct vt_pb_cursor c = vt_pb_cursor(data, len);
	struct track t = { .tid = -1 };
	struct vt_pb_field_view f;
	int ret = 0;

	while (!ret && vt_pb_next(&c, &f)) {
		if (f.number == PF_TRACK_DESCRIPTOR_UUID &&
		    f.wire == VT_PB_WIRE_VARINT)
			t.uuid = f.u;
		else if (f.number == PF_TRACK_DESCRIPTOR_NAME &&
			 f.wire == VT_PB_WIRE_LEN)
			ret = (t.name = intern(r, f.data, f.len)) ? 0 : -ENOMEM;
		else if (f.number == PF_TRACK_DESCRIPTOR_COUNTER)
			t.counter = true;
		else if ((f.number == PF_TRACK_DESCRIPTOR_PROCESS ||
			  f.number == PF_TRACK_DESCRIPTOR_THREAD) &&
			 f.wire == VT_PB_WIRE_LEN)
			ret = descriptor(r, f.data, f.len,
					 f.number == PF_TRACK_DESCRIPTOR_THREAD,
					 &t);
	}
	if (ret)
		return ret;
	if (c.bad)
		return bad(r, c.p, "a track descriptor that does not parse");
	if (find_track(st, t.uuid))
		return 0; /* descriptors are repeated; the first one holds */
	if (grow((void **)&st->tracks, &st->alloc_tracks, st->nr_tracks + 1,
		 sizeof(*st->tracks)))
		return -ENOMEM;
	st->tracks[st->nr_tracks++] = t;
	return 0;
}

static const char *iid_name(struct vt_pf_input_state *st, uint32_t seq,
			    uint64_t iid)
{
	size_t i;

	for (i = st->nr_iids; i-- > 0;)
		if (st->iids[i].seq == seq && st->iids[i].iid == iid)
			return st->iids[i].name;
	return NULL;
}

static int interned_data(struct reader *r, uint32_t seq,
			 const unsigned char *data, size_t len)
{
	struct vt_pf_input_state *st = r->st;
	struct vt_pb_cursor c = vt_pb_cursor(data, len), m;
	struct vt_pb_field_view f, g;
	struct iid_name in;

	while (vt_pb_next(&c, &f)) {
		if (f.number != PF_INTERNED_EVENT_NAMES ||
		    f.wire != VT_PB_WIRE_LEN)
			continue;
		m = vt_pb_cursor(f.data, f.len);
		in = (struct iid_name){ .seq = seq };
		while (vt_pb_next(&m, &g)) {
			if (g.number == PF_EVENT_NAME_IID &&
			    g.wire == VT_PB_WIRE_VARINT)
				in.iid = g.u;
			else if (g.number == PF_EVENT_NAME_NAME &&
				 g.wire == VT_PB_WIRE_LEN) {
				in.name = intern(r, g.data, g.len);
				if (!in.name)
					return -ENOMEM;
			}
		}
		if (m.bad)
			return bad(r, m.p,
				   "an interned name that does not parse");
		if (!in.name)
			continue;
		if (grow((void **)&st->iids, &st->alloc_iids, st->nr_iids + 1,
			 sizeof(*st->iids)))
			return -ENOMEM;
		st->iids[st->nr_iids++] = in;
	}
	return c.bad ? bad(r, c.p, "interned data that does not parse") : 0;
}

/* A track event as the atrace marker that would have made it. */
static int track_event(struct reader *r, uint32_t seq, uint64_t ts,
		       const unsigned char *data, size_t len)
{
	struct vt_pf_input_state *st = r->st;
	struct vt_pb_cursor c = vt_pb_cursor(data, len);
	struct vt_pb_field_view f;
	uint64_t type = 0, uuid = 0;
	int64_t value = 0;
	const char *name = NULL;
	struct track *t;
	char *text = NULL;
	int n = 0;

	while (vt_pb_next(&c, &f)) {
		if (f.number == PF_TRACK_EVENT_TYPE &&
		    f.wire == VT_PB_WIRE_VARINT)
			type = f.u;
		else if (f.number == PF_TRACK_EVENT_TRACK_UUID &&
			 f.wire == VT_PB_WIRE_VARINT)
			uuid = f.u;
		else if (f.number == PF_TRACK_EVENT_NAME_IID &&
			 f.wire == VT_PB_WIRE_VARINT)
			name = iid_name(st, seq, f.u);
		else if (f.number == PF_TRACK_EVENT_NAME &&
			 f.wire == VT_PB_WIRE_LEN) {
			name = intern(r, f.data, f.len);
			if (!name)
				return -ENOMEM;
		} else if (f.number == PF_TRACK_EVENT_COUNTER_VALUE &&
			   f.wire == VT_PB_WIRE_VARINT)
			value = (int64_t)f.u;
	}
	if (c.bad)
		return bad(r, c.p, "a track event that does not parse");
	t = uuid ? find_track(st, uuid) : NULL;
	/* A counter of no process is the system's, not an atrace C|. */
	if (!t ||
	    (t->counter ? type != PF_TRACK_EVENT_TYPE_COUNTER || t->pid <= 0 :
			  t->tid <= 0)) {
		r->in->unplaced_track_events++;
		return 0;
	}
	name = name ?: "";
	switch (type) {
	case PF_TRACK_EVENT_TYPE_INSTANT:
		/* A slice of no length, as Perfetto shows it. */
		n = asprintf(&text, "B|%d|%s", t->pid, name);
		if (n < 0 || add_marker(r, ts, t->tid, text))
			return -ENOMEM;
		n = asprintf(&text, "E|%d", t->pid);
		break;
	case PF_TRACK_EVENT_TYPE_SLICE_BEGIN:
		n = asprintf(&text, "B|%d|%s", t->pid, name);
		break;
	case PF_TRACK_EVENT_TYPE_SLICE_END:
		n = asprintf(&text, "E|%d", t->pid);
		break;
	case PF_TRACK_EVENT_TYPE_COUNTER:
		n = asprintf(&text, "C|%d|%s|%" PRId64, t->pid, t->name ?: "",
			     value);
		break;
	default:
		r->in->unplaced_track_events++;
		return 0;
	}
	if (n < 0)
		return -ENOMEM;
	return add_marker(r, ts, t->counter ? t->pid : t->tid, text);
}

static int packet(struct reader *r, const unsigned char *data, size_t len)
{
	struct vt_pf_input_state *st = r->st;
	struct vt_pb_cursor c = vt_pb_cursor(data, len);
	struct vt_pb_field_view f, te = { 0 };
	uint64_t ts = 0, seq = 0, flags = 0;
	size_t i, kept;
	int ret = 0;

	while (vt_pb_next(&c, &f)) {
		if (f.wire == VT_PB_WIRE_VARINT) {
			if (f.number == PF_PACKET_TIMESTAMP)
				ts = f.u;
			else if (f.number ==
				 PF_PACKET_TRUSTED_PACKET_SEQUENCE_ID)
				seq = f.u;
			else if (f.number == PF_PACKET_SEQUENCE_FLAGS)
				flags = f.u;
		}
	}
	if (c.bad)
		return bad(r, c.p, "a trace packet that does not parse");
	if (flags & PF_SEQ_INCREMENTAL_STATE_CLEARED) {
		for (i = kept = 0; i < st->nr_iids; i++)
			if (st->iids[i].seq != (uint32_t)seq)
				st->iids[kept++] = st->iids[i];
		st->nr_iids = kept;
	}
	c = vt_pb_cursor(data, len);
	while (!ret && vt_pb_next(&c, &f)) {
		if (f.wire != VT_PB_WIRE_LEN)
			continue;
		switch (f.number) {
		case PF_PACKET_FTRACE_EVENTS:
			ret = ftrace_bundle(r, f.data, f.len);
			break;
		case PF_PACKET_PROCESS_TREE:
			ret = process_tree(r, f.data, f.len);
			break;
		case PF_PACKET_INTERNED_DATA:
			ret = interned_data(r, (uint32_t)seq, f.data, f.len);
			break;
		case PF_PACKET_TRACK_DESCRIPTOR:
			ret = track_descriptor(r, f.data, f.len);
			break;
		case PF_PACKET_TRACK_EVENT:
			te = f;
			break;
		case PF_PACKET_COMPRESSED_PACKETS:
		case PF_PACKET_ZSTD_COMPRESSED_PACKETS:
			r->in->compressed_packets++;
			break;
		}
	}
	/* After the packet's interned data, which the event may name. */
	if (!ret && te.data)
		ret = track_event(r, (uint32_t)seq, ts, te.data, te.len);
	return ret;
}

static int cmp_event(const void *a, const void *b)
{
	const struct vt_pf_event *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int cmp_item(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* By tid, the name that holds last. */
static int cmp_thread(const void *a, const void *b)
{
	const struct thread_name *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->from_sched != y->from_sched)
		return x->from_sched ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static const struct thread_name *find_thread(const struct vt_pf_input_state *st,
					     int tid)
{
	size_t lo = 0, hi = st->nr_threads, mid;
	const struct thread_name *found = NULL;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (st->threads[mid].tid < tid) {
			lo = mid + 1;
		} else if (st->threads[mid].tid > tid) {
			hi = mid;
		} else {
			found = &st->threads[mid];
			lo = mid + 1;
		}
	}
	return found;
}

/**
 * vtrace_perfetto_comm - the name a Perfetto trace gives a thread
 * @in: the trace read
 * @tid: the thread
 *
 * From the process tree and the track descriptors, the last one given.
 *
 * Return: the name, or NULL.
 */
const char *vtrace_perfetto_comm(const struct vt_perfetto_input *in, int tid)
{
	const struct thread_name *t = find_thread(in->state, tid);

	return t ? t->name : NULL;
}

static int build_slices(struct vt_perfetto_input *in)
{
	struct vt_pf_input_state *st = in->state;
	struct vt_slices *s = &in->slices;
	const struct thread_name *t;
	struct item *it;
	size_t i;
	int ret = 0;

	if (st->nr_items)
		qsort(st->items, st->nr_items, sizeof(*st->items), cmp_item);
	for (i = 0; i < st->nr_items && !ret; i++) {
		it = &st->items[i];
		switch (it->kind) {
		case I_MARKER:
			ret = vtrace_slices_marker(s, it->ts, it->tid, it->text,
						   strlen(it->text));
			break;
		case I_SWITCH:
			ret = vtrace_slices_cpu_switch(s, it->ts, it->cpu,
						       it->tid, it->next_tid,
						       it->text);
			break;
		case I_COUNTER:
			ret = vtrace_slices_counter(s, it->ts,
						    VT_COUNTER_SYSTEM, it->text,
						    strlen(it->text),
						    it->value);
			break;
		}
	}
	if (!ret)
		ret = vtrace_slices_finish(s);
	for (i = 0; i < s->nr_threads && !ret; i++) {
		t = find_thread(st, s->threads[i].tid);
		if (!t || !t->name)
			continue;
		free(s->threads[i].name);
		s->threads[i].name = strdup(t->name);
		if (!s->threads[i].name)
			ret = -ENOMEM;
	}
	return ret;
}

static int read_file(struct vt_pf_input_state *st, const char *path)
{
	struct stat sb;
	int fd, ret;

	ret = vtrace_input_open(path, &fd);
	if (ret) {
		snprintf(st->msg, st->msg_size, "%s",
			 vtrace_input_strerror(ret));
		return ret;
	}
	if (fstat(fd, &sb)) {
		ret = -errno;
	} else if ((unsigned long long)sb.st_size > PF_INPUT_MAX_SIZE) {
		ret = -EFBIG;
	} else {
		st->size = sb.st_size;
		st->buf = malloc(st->size ? st->size : 1);
		ret = st->buf ? vtrace_read_all(fd, st->buf, st->size) :
				-ENOMEM;
	}
	close(fd);
	if (ret)
		snprintf(st->msg, st->msg_size, "%s", strerror(-ret));
	return ret;
}

static int typed_index(struct vt_pf_input_state *st)
{
	uint16_t *idx;
	size_t i, max = 0;

	for (i = 0; i < vt_pf_nr_typed_events; i++)
		if (vt_pf_typed_events[i].number > max)
			max = vt_pf_typed_events[i].number;
	idx = calloc(max + 1, sizeof(*idx));
	if (!idx)
		return -ENOMEM;
	for (i = 0; i < vt_pf_nr_typed_events; i++)
		idx[vt_pf_typed_events[i].number] = i + 1;
	st->typed = idx;
	st->nr_typed = max + 1;
	return 0;
}

static int parse(struct reader *r)
{
	struct vt_pf_input_state *st = r->st;
	struct vt_pb_cursor c;
	struct vt_pb_field_view f;
	int ret;

	ret = typed_index(st);
	if (ret)
		return ret;
	c = vt_pb_cursor(st->buf, st->size);
	while (vt_pb_next(&c, &f)) {
		if (f.number != PF_TRACE_PACKET || f.wire != VT_PB_WIRE_LEN)
			return bad(r, c.p, "not a trace packet");
		ret = packet(r, f.data, f.len);
		if (ret)
			return ret;
	}
	if (c.bad)
		return bad(r, c.p, "a trace packet cut off or not protobuf");
	if (r->in->nr_events)
		qsort(r->in->events, r->in->nr_events, sizeof(*r->in->events),
		      cmp_event);
	if (st->nr_threads)
		qsort(st->threads, st->nr_threads, sizeof(*st->threads),
		      cmp_thread);
	return build_slices(r->in);
}

/* Sets up @in and @r for parse(), its bytes still to be given. */
static int start(struct vt_perfetto_input *in, struct reader *r, char *why,
		 size_t why_size)
{
	memset(in, 0, sizeof(*in));
	in->state = calloc(1, sizeof(*in->state));
	if (!in->state)
		return -ENOMEM;
	r->in = in;
	r->st = in->state;
	r->st->msg = why;
	r->st->msg_size = why_size;
	vtrace_strtab_init(&r->st->name_tab);
	return vtrace_slices_init(&in->slices);
}

static int finish(struct reader *r, int ret, const char *name, char *why,
		  char *msg, size_t msg_size)
{
	if (ret && !*why)
		snprintf(why, r->st->msg_size, "%s", strerror(-ret));
	if (ret)
		snprintf(msg, msg_size, "%s: %s", name, why);
	r->st->msg = NULL;
	return ret;
}

/**
 * vtrace_perfetto_load - read a Perfetto trace
 * @in: filled in; free with vtrace_perfetto_input_free() whatever the result
 * @path: the file
 * @msg: set to why it cannot be read (naming it), on failure
 * @msg_size: size of @msg
 *
 * Return: 0, -EINVAL for a file that is not a usable Perfetto trace, or
 * another negative errno.
 */
int vtrace_perfetto_load(struct vt_perfetto_input *in, const char *path,
			 char *msg, size_t msg_size)
{
	struct reader r;
	char why[256] = "";
	int ret;

	ret = start(in, &r, why, sizeof(why));
	if (ret)
		return ret;
	ret = read_file(r.st, path);
	if (!ret)
		ret = parse(&r);
	return finish(&r, ret, path, why, msg, msg_size);
}

/**
 * vtrace_perfetto_parse - read a Perfetto trace held in memory
 * @in: filled in; free with vtrace_perfetto_input_free() whatever the result
 * @data: the trace's bytes (copied)
 * @size: their number
 * @msg: set to why they cannot be read, on failure
 * @msg_size: size of @msg
 *
 * Return: 0, -EINVAL for bytes that are not a usable Perfetto trace, or
 * another negative errno.
 */
int vtrace_perfetto_parse(struct vt_perfetto_input *in, const void *data,
			  size_t size, char *msg, size_t msg_size)
{
	struct reader r;
	char why[256] = "";
	int ret;

	ret = start(in, &r, why, sizeof(why));
	if (ret)
		return ret;
	r.st->buf = malloc(size ? size : 1);
	if (!r.st->buf)
		return finish(&r, -ENOMEM, "trace", why, msg, msg_size);
	memcpy(r.st->buf, data, size);
	r.st->size = size;
	return finish(&r, parse(&r), "trace", why, msg, msg_size);
}

/**
 * vtrace_perfetto_input_free - free what vtrace_perfetto_load() or
 *	vtrace_perfetto_parse() read
 * @in: the trace read
 */
void vtrace_perfetto_input_free(struct vt_perfetto_input *in)
{
	struct vt_pf_input_state *st = in->state;
	size_t i;

	free(in->events);
	free(in->values);
	vtrace_slices_free(&in->slices);
	if (st) {
		for (i = 0; i < st->nr_items; i++)
			free(st->items[i].text);
		free(st->items);
		for (i = 0; i < st->nr_names; i++)
			free(st->names[i]);
		free(st->names);
		vtrace_strtab_free(&st->name_tab);
		free(st->threads);
		free(st->tracks);
		free(st->iids);
		free(st->cpus);
		free((void *)st->typed);
		free(st->buf);
		free(st);
	}
	memset(in, 0, sizeof(*in));
}

/**
 * vtrace_perfetto_probe - whether @path holds a Perfetto trace
 * @path: the file
 *
 * By content: a Perfetto trace starts with a TracePacket field (tag
 * 0x0a); a trace.dat, a method trace and text start otherwise. A file
 * cut inside its first packet is still one, for the reader to refuse.
 *
 * Return: true for a Perfetto trace.
 */
bool vtrace_perfetto_probe(const char *path)
{
	unsigned char tag = 0;
	ssize_t n;
	int fd;

	if (vtrace_input_open(path, &fd))
		return false;
	n = read(fd, &tag, 1);
	close(fd);
	return n == 1 && tag == (PF_TRACE_PACKET << 3 | VT_PB_WIRE_LEN);
}
