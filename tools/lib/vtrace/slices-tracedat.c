// SPDX-License-Identifier: LGPL-2.1
/*
 * Feeds a trace.dat's events to the slice builder: ftrace/print (what
 * trace_marker writes), ftrace/bprint and ftrace/bputs (trace_printk),
 * ftrace/funcgraph_entry and _exit (the function_graph tracer) and
 * sched/sched_switch (for the threads' CPU time).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <trace-cmd.h>
#include <trace-seq.h>

#include <vtrace/slices-tracedat.h>
#include <vtrace/tracedat-check.h>

struct loader {
	struct vt_slices *s;
	struct tep_handle *tep;
	int print_id, bprint_id, bputs_id, fentry_id, fexit_id, switch_id;
	struct tep_format_field *print_buf, *fentry_func, *fexit_func,
		*prev_pid, *next_pid;
	struct trace_seq seq;
	int err;
};

static void set_msg(char *msg, size_t size, const char *fmt, ...)
{
	va_list ap;

	if (!size)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, size, fmt, ap);
	va_end(ap);
}

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

/* A number field, only when it lies inside the record. */
static bool read_num(struct tep_format_field *f, struct tep_record *rec,
		     unsigned long long *v)
{
	if (!f || f->offset + f->size > rec->size)
		return false;
	return !tep_read_number_field(f, rec->data, v);
}

static int common_pid(struct loader *l, struct tep_record *rec)
{
	return tep_data_pid(l->tep, rec);
}

static void print_event(struct loader *l, struct tep_record *rec)
{
	struct tep_format_field *f = l->print_buf;
	const char *buf, *nul;
	int len;

	if (!f || f->offset < 0 || f->offset >= rec->size)
		return;
	buf = (const char *)rec->data + f->offset;
	len = rec->size - f->offset;
	nul = memchr(buf, '\0', len);
	if (nul)
		len = nul - buf;
	l->err = vt_slices_marker(l->s, rec->ts, common_pid(l, rec), buf, len);
}

/* trace_printk: libtraceevent formats it as "function: text". */
static void printk_event(struct loader *l, struct tep_record *rec)
{
	const char *text, *colon;

	trace_seq_reset(&l->seq);
	tep_print_event(l->tep, &l->seq, rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&l->seq);
	text = l->seq.buffer;
	colon = strstr(text, ": ");
	if (colon)
		text = colon + 2;
	l->err = vt_slices_marker(l->s, rec->ts, common_pid(l, rec), text,
				  strlen(text));
}

static void funcgraph_event(struct loader *l, struct tep_record *rec,
			    struct tep_format_field *f, bool entry)
{
	unsigned long long addr;
	const char *func;
	char hex[32];

	if (!read_num(f, rec, &addr))
		return;
	func = tep_find_function(l->tep, addr);
	if (!func) {
		snprintf(hex, sizeof(hex), "0x%llx", addr);
		func = hex;
	}
	if (entry)
		l->err = vt_slices_begin(l->s, rec->ts, 0, common_pid(l, rec),
					 func, strlen(func), true);
	else
		l->err = vt_slices_end(l->s, rec->ts, common_pid(l, rec), func,
				       true);
}

static void switch_event(struct loader *l, struct tep_record *rec)
{
	unsigned long long prev, next;

	if (read_num(l->prev_pid, rec, &prev) &&
	    read_num(l->next_pid, rec, &next))
		l->err = vt_slices_sched_switch(l->s, rec->ts, (int)prev,
						(int)next);
}

static int one_record(struct tracecmd_input *handle, struct tep_record *rec,
		      int cpu, void *data)
{
	struct loader *l = data;
	int id;

	/* The common fields (type, pid) must be in the record. */
	if (rec->size < 8)
		return 0;
	id = tep_data_type(l->tep, rec);
	if (id == l->print_id)
		print_event(l, rec);
	else if (id == l->bprint_id || id == l->bputs_id)
		printk_event(l, rec);
	else if (id == l->fentry_id)
		funcgraph_event(l, rec, l->fentry_func, true);
	else if (id == l->fexit_id)
		funcgraph_event(l, rec, l->fexit_func, false);
	else if (id == l->switch_id)
		switch_event(l, rec);
	return l->err;
}

static int name_threads(struct loader *l)
{
	struct vt_slices *s = l->s;
	const char *comm;
	size_t i;

	for (i = 0; i < s->nr_threads; i++) {
		comm = tep_data_comm_from_pid(l->tep, s->threads[i].tid);
		if (!comm || !strcmp(comm, "<...>"))
			continue;
		free(s->threads[i].name);
		s->threads[i].name = strdup(comm);
		if (!s->threads[i].name)
			return -ENOMEM;
	}
	return 0;
}

/**
 * vt_slices_from_tracedat - build the slices of a trace.dat
 * @s: an initialized, empty set (vt_slices_init()); finished on success
 * @path: the trace.dat
 * @msg: set to why the file cannot be read, on failure
 * @msg_size: size of @msg
 *
 * The file's layout is checked first (vt_tracedat_check()).
 *
 * Return: 0, -EINVAL for a file that is not a usable trace.dat, or
 * another negative errno.
 */
int vt_slices_from_tracedat(struct vt_slices *s, const char *path, char *msg,
			    size_t msg_size)
{
	struct tracecmd_input *handle;
	struct tep_event *print, *fentry, *fexit, *sw;
	struct loader l = { .s = s };
	int ret;

	ret = vt_tracedat_check(path, msg, msg_size);
	if (ret == -ENODATA) {
		set_msg(msg, msg_size,
			"incomplete: the recording that wrote it stopped before finishing the file");
		return -EINVAL;
	}
	if (ret) {
		if (ret != -EINVAL)
			set_msg(msg, msg_size, "%s", strerror(-ret));
		return ret;
	}
	tracecmd_set_loglevel(TEP_LOG_NONE);
	handle = tracecmd_open(path, 0);
	if (!handle) {
		set_msg(msg, msg_size, "not a readable trace.dat");
		return -EINVAL;
	}
	l.tep = tracecmd_get_tep(handle);
	l.print_id = event_id(l.tep, "ftrace", "print", &print);
	l.bprint_id = event_id(l.tep, "ftrace", "bprint", NULL);
	l.bputs_id = event_id(l.tep, "ftrace", "bputs", NULL);
	l.fentry_id = event_id(l.tep, "ftrace", "funcgraph_entry", &fentry);
	l.fexit_id = event_id(l.tep, "ftrace", "funcgraph_exit", &fexit);
	l.switch_id = event_id(l.tep, "sched", "sched_switch", &sw);
	l.print_buf = field(print, "buf");
	l.fentry_func = field(fentry, "func");
	l.fexit_func = field(fexit, "func");
	l.prev_pid = field(sw, "prev_pid");
	l.next_pid = field(sw, "next_pid");
	trace_seq_init(&l.seq);
	ret = tracecmd_iterate_events(handle, NULL, 0, one_record, &l);
	trace_seq_destroy(&l.seq);
	if (!ret)
		ret = vt_slices_finish(s);
	if (!ret)
		ret = name_threads(&l);
	tracecmd_close(handle);
	if (ret)
		set_msg(msg, msg_size, "%s", strerror(-ret));
	return ret;
}
