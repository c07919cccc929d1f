// SPDX-License-Identifier: GPL-2.0
/*
 * The offline pages: the template (view/view.html) with its style and
 * script in place of its markers, and the data as JSON in a script
 * element the page parses. Written through output-file.h: a page is
 * complete or absent.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vtrace/output-file.h>
#include <vtrace/slices.h>

#include "builtin.h"
#include "cli.h"
#include "view-page.h"

/* The template's markers, each replaced by what it names. */
#define MARK_OPEN "/*@"
#define MARK_CLOSE "@*/"

/* JSON inside a script element: "<" never reaches the HTML parser. */
static int write_data(FILE *f, const char *data, size_t len)
{
	size_t i, from = 0;

	for (i = 0; i < len; i++) {
		if (data[i] != '<')
			continue;
		if (fwrite(data + from, 1, i - from, f) != i - from ||
		    fputs("\\u003c", f) < 0)
			return -EIO;
		from = i + 1;
	}
	if (fwrite(data + from, 1, len - from, f) != len - from)
		return -EIO;
	return 0;
}

static int write_template(FILE *f, const char *data, size_t len)
{
	const char *t = vt_view_html, *mark, *end;
	size_t nlen;
	int ret = 0;

	while (!ret && (mark = strstr(t, MARK_OPEN))) {
		end = strstr(mark, MARK_CLOSE);
		if (!end)
			break;
		if (fwrite(t, 1, mark - t, f) != (size_t)(mark - t))
			return -EIO;
		mark += strlen(MARK_OPEN);
		nlen = end - mark;
		if (nlen == 3 && !strncmp(mark, "CSS", 3))
			ret = fputs(vt_view_css, f) < 0 ? -EIO : 0;
		else if (nlen == 2 && !strncmp(mark, "JS", 2))
			ret = fputs(vt_view_js, f) < 0 ? -EIO : 0;
		else if (nlen == 4 && !strncmp(mark, "DATA", 4))
			ret = write_data(f, data, len);
		t = end + strlen(MARK_CLOSE);
	}
	if (!ret && fputs(t, f) < 0)
		ret = -EIO;
	return ret;
}

/* The data object, in memory: nothing is written when it fails. */
static int build_data(view_page_data_fn fn, void *arg, char **buf, size_t *len)
{
	struct vtrace_json j;
	FILE *mem;
	int ret;

	*buf = NULL;
	mem = open_memstream(buf, len);
	if (!mem)
		return -errno;
	vtrace_json_init(&j, mem);
	vtrace_json_object_begin(&j, NULL);
	fn(&j, arg);
	vtrace_json_object_end(&j);
	ret = vtrace_json_finish(&j);
	if (fclose(mem) && !ret)
		ret = -ENOMEM;
	if (ret) {
		free(*buf);
		*buf = NULL;
	}
	return ret;
}

struct page {
	const char *data;
	size_t len;
};

static int fill_page(FILE *f, void *arg)
{
	const struct page *pg = arg;

	return write_template(f, pg->data, pg->len);
}

/**
 * view_page_write - write a page, whole or not at all
 * @cmd: the subcommand, for messages
 * @path: the page's name
 * @fn: writes the members of the page's data object
 * @arg: for @fn
 *
 * Prints why on failure; a file that was at @path stays as it was.
 *
 * Return: 0 or a negative errno.
 */
int view_page_write(const char *cmd, const char *path, view_page_data_fn fn,
		    void *arg)
{
	struct page pg;
	size_t len = 0;
	char *data;
	int ret;

	ret = build_data(fn, arg, &data, &len);
	if (!ret) {
		pg.data = data;
		pg.len = len;
		ret = vtrace_output_file_write(path, fill_page, &pg);
		free(data);
	}
	if (ret)
		vtrace_err("%s: %s: %s", cmd, path,
			   vtrace_output_file_strerror(ret));
	return ret;
}

static void json_edges(struct vtrace_json *j, const struct vt_profile *p,
		       const char *key, const struct vt_profile_edge *edges,
		       size_t n)
{
	size_t i;

	vtrace_json_array_begin(j, key);
	for (i = 0; i < n; i++) {
		vtrace_json_object_begin(j, NULL);
		vtrace_json_string(j, "name",
				   vtrace_profile_name(p, edges[i].name));
		vtrace_json_uint(j, "inclusive", edges[i].inclusive);
		vtrace_json_uint(j, "calls", edges[i].calls);
		vtrace_json_object_end(j);
	}
	vtrace_json_array_end(j);
}

/**
 * view_json_profile - a profile as vtrace profile --json prints it
 * @j: the writer
 * @key: the member's name, or NULL for a document or an array element
 * @p: the profile
 */
void view_json_profile(struct vtrace_json *j, const char *key,
		       const struct vt_profile *p)
{
	const struct vt_profile_entry *e;
	size_t i;

	vtrace_json_object_begin(j, key);
	vtrace_json_uint(j, "total", p->total);
	vtrace_json_array_begin(j, "methods");
	for (i = 0; i < p->nr_entries; i++) {
		e = &p->entries[i];
		vtrace_json_object_begin(j, NULL);
		vtrace_json_string(j, "name", vtrace_profile_name(p, e->name));
		vtrace_json_uint(j, "inclusive", e->inclusive);
		vtrace_json_uint(j, "exclusive", e->exclusive);
		vtrace_json_uint(j, "calls", e->calls);
		vtrace_json_uint(j, "recursive", e->recursive);
		json_edges(j, p, "parents", e->parents, e->nr_parents);
		json_edges(j, p, "children", e->children, e->nr_children);
		vtrace_json_object_end(j);
	}
	vtrace_json_array_end(j);
	vtrace_json_object_end(j);
}

/* The earliest timestamp of anything the timeline draws. */
static uint64_t first_ts(const struct vt_slices *s)
{
	uint64_t t = UINT64_MAX;
	size_t i;

	if (s->nr_slices)
		t = s->slices[0].ts;
	if (s->nr_async && s->async[0].ts < t)
		t = s->async[0].ts;
	if (s->nr_runs && s->runs[0].ts < t)
		t = s->runs[0].ts;
	for (i = 0; i < s->nr_counters; i++)
		if (s->counters[i].ts < t)
			t = s->counters[i].ts;
	return t == UINT64_MAX ? 0 : t;
}

static uint64_t last_ts(const struct vt_slices *s)
{
	uint64_t t = 0;
	size_t i;

	for (i = 0; i < s->nr_slices; i++)
		if (s->slices[i].ts + s->slices[i].dur > t)
			t = s->slices[i].ts + s->slices[i].dur;
	for (i = 0; i < s->nr_async; i++)
		if (s->async[i].ts + s->async[i].dur > t)
			t = s->async[i].ts + s->async[i].dur;
	for (i = 0; i < s->nr_runs; i++)
		if (s->runs[i].ts + s->runs[i].dur > t)
			t = s->runs[i].ts + s->runs[i].dur;
	for (i = 0; i < s->nr_counters; i++)
		if (s->counters[i].ts > t)
			t = s->counters[i].ts;
	return t;
}

/*
 * A counter sample's place: its track (pid, name), then its time (a
 * sample may carry its own, counter-events.h), then the order fed.
 */
struct counter_ref {
	int pid;
	uint32_t name;
	uint64_t ts;
	size_t index;
};

static int cmp_counter_ref(const void *a, const void *b)
{
	const struct counter_ref *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->name != y->name)
		return x->name < y->name ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* The end of the track that begins at @refs[@i]. */
static size_t track_end(const struct counter_ref *refs, size_t n, size_t i)
{
	size_t k = i;

	while (k < n && refs[k].pid == refs[i].pid &&
	       refs[k].name == refs[i].name)
		k++;
	return k;
}

/*
 * One track per pid and name: {"pid","name","ts":[],"value":[]}; pid -1
 * (%VT_COUNTER_SYSTEM) for a vendor or kernel event's counter.
 */
static void json_counters(struct vtrace_json *j, const struct vt_slices *s,
			  uint64_t base)
{
	struct counter_ref *refs;
	size_t i, k, end;

	refs = calloc(s->nr_counters ? s->nr_counters : 1, sizeof(*refs));
	if (!refs) {
		j->err = -ENOMEM;
		return;
	}
	for (i = 0; i < s->nr_counters; i++) {
		refs[i].pid = s->counters[i].pid;
		refs[i].name = s->counters[i].name;
		refs[i].ts = s->counters[i].ts;
		refs[i].index = i;
	}
	qsort(refs, s->nr_counters, sizeof(*refs), cmp_counter_ref);
	vtrace_json_array_begin(j, "counters");
	for (i = 0; i < s->nr_counters; i = end) {
		end = track_end(refs, s->nr_counters, i);
		vtrace_json_object_begin(j, NULL);
		vtrace_json_int(j, "pid", refs[i].pid);
		vtrace_json_uint(j, "name", refs[i].name);
		vtrace_json_array_begin(j, "ts");
		for (k = i; k < end; k++)
			vtrace_json_uint(j, NULL,
					 s->counters[refs[k].index].ts - base);
		vtrace_json_array_end(j);
		vtrace_json_array_begin(j, "value");
		for (k = i; k < end; k++)
			vtrace_json_int(j, NULL,
					s->counters[refs[k].index].value);
		vtrace_json_array_end(j);
		vtrace_json_object_end(j);
	}
	vtrace_json_array_end(j);
	free(refs);
}

/* The index of @tid in @s->threads. */
static size_t thread_index(const struct vt_slices *s, int tid)
{
	const struct vt_thread *t = vtrace_slices_find_thread(s, tid);

	return t ? (size_t)(t - s->threads) : 0;
}

static void json_slices(struct vtrace_json *j, const struct vt_slices *s,
			uint64_t base)
{
	size_t i;

	/* Columns, not objects: a million slices stay a few bytes each. */
	vtrace_json_object_begin(j, "slices");
	vtrace_json_array_begin(j, "thread");
	for (i = 0; i < s->nr_slices; i++)
		vtrace_json_uint(j, NULL, thread_index(s, s->slices[i].tid));
	vtrace_json_array_end(j);
	vtrace_json_array_begin(j, "ts");
	for (i = 0; i < s->nr_slices; i++)
		vtrace_json_uint(j, NULL, s->slices[i].ts - base);
	vtrace_json_array_end(j);
	vtrace_json_array_begin(j, "dur");
	for (i = 0; i < s->nr_slices; i++)
		vtrace_json_uint(j, NULL, s->slices[i].dur);
	vtrace_json_array_end(j);
	vtrace_json_array_begin(j, "depth");
	for (i = 0; i < s->nr_slices; i++)
		vtrace_json_int(j, NULL, s->slices[i].depth);
	vtrace_json_array_end(j);
	vtrace_json_array_begin(j, "name");
	for (i = 0; i < s->nr_slices; i++)
		vtrace_json_uint(j, NULL, s->slices[i].name);
	vtrace_json_array_end(j);
	/* Indices of the kernel (function graph) slices: usually few. */
	vtrace_json_array_begin(j, "kernel");
	for (i = 0; i < s->nr_slices; i++)
		if (s->slices[i].kernel)
			vtrace_json_uint(j, NULL, i);
	vtrace_json_array_end(j);
	/* Sparse too: the slices that have arguments, and theirs. */
	vtrace_json_object_begin(j, "args");
	vtrace_json_array_begin(j, "slice");
	for (i = 0; i < s->nr_slices; i++)
		if (s->slices[i].args != VT_SLICE_NO_ARGS)
			vtrace_json_uint(j, NULL, i);
	vtrace_json_array_end(j);
	vtrace_json_array_begin(j, "text");
	for (i = 0; i < s->nr_slices; i++)
		if (s->slices[i].args != VT_SLICE_NO_ARGS)
			vtrace_json_uint(j, NULL, s->slices[i].args);
	vtrace_json_array_end(j);
	vtrace_json_object_end(j);
	if (s->has_cpu_time) {
		vtrace_json_array_begin(j, "cpu");
		for (i = 0; i < s->nr_slices; i++)
			vtrace_json_uint(j, NULL, s->slices[i].cpu_dur);
		vtrace_json_array_end(j);
	}
	vtrace_json_object_end(j);
}

static void json_async(struct vtrace_json *j, const struct vt_slices *s,
		       uint64_t base)
{
	size_t i;

	vtrace_json_array_begin(j, "async");
	for (i = 0; i < s->nr_async; i++) {
		vtrace_json_object_begin(j, NULL);
		vtrace_json_int(j, "pid", s->async[i].pid);
		vtrace_json_uint(j, "name", s->async[i].name);
		vtrace_json_int(j, "cookie", s->async[i].cookie);
		vtrace_json_uint(j, "ts", s->async[i].ts - base);
		vtrace_json_uint(j, "dur", s->async[i].dur);
		vtrace_json_object_end(j);
	}
	vtrace_json_array_end(j);
}

static void json_runs(struct vtrace_json *j, const struct vt_slices *s,
		      uint64_t base)
{
	size_t i;

	vtrace_json_object_begin(j, "cpus");
	vtrace_json_array_begin(j, "cpu");
	for (i = 0; i < s->nr_runs; i++)
		vtrace_json_int(j, NULL, s->runs[i].cpu);
	vtrace_json_array_end(j);
	vtrace_json_array_begin(j, "ts");
	for (i = 0; i < s->nr_runs; i++)
		vtrace_json_uint(j, NULL, s->runs[i].ts - base);
	vtrace_json_array_end(j);
	vtrace_json_array_begin(j, "dur");
	for (i = 0; i < s->nr_runs; i++)
		vtrace_json_uint(j, NULL, s->runs[i].dur);
	vtrace_json_array_end(j);
	vtrace_json_array_begin(j, "tid");
	for (i = 0; i < s->nr_runs; i++)
		vtrace_json_int(j, NULL, s->runs[i].tid);
	vtrace_json_array_end(j);
	vtrace_json_array_begin(j, "comm");
	for (i = 0; i < s->nr_runs; i++)
		vtrace_json_string(j, NULL, s->runs[i].comm);
	vtrace_json_array_end(j);
	vtrace_json_object_end(j);
}

/**
 * view_json_timeline - the timeline's members of a page's data object
 * @j: the writer, inside the data object
 * @s: the slices
 *
 * Times are ns from "start" (the trace clock's value of the earliest
 * thing drawn); names are indices in "names".
 */
void view_json_timeline(struct vtrace_json *j, const struct vt_slices *s)
{
	uint64_t base = first_ts(s);
	size_t i;

	vtrace_json_uint(j, "start", base);
	vtrace_json_uint(j, "end", last_ts(s) - base);
	vtrace_json_array_begin(j, "names");
	for (i = 0; i < s->nr_names; i++)
		vtrace_json_string(j, NULL, s->names[i]);
	vtrace_json_array_end(j);
	vtrace_json_array_begin(j, "threads");
	for (i = 0; i < s->nr_threads; i++) {
		vtrace_json_object_begin(j, NULL);
		vtrace_json_int(j, "tid", s->threads[i].tid);
		vtrace_json_int(j, "pid", s->threads[i].pid);
		vtrace_json_string(j, "name",
				   s->threads[i].name ? s->threads[i].name :
							"");
		vtrace_json_object_end(j);
	}
	vtrace_json_array_end(j);
	json_slices(j, s, base);
	json_async(j, s, base);
	json_counters(j, s, base);
	json_runs(j, s, base);
	vtrace_json_object_begin(j, "faults");
	vtrace_json_uint(j, "unmatched", s->unmatched);
	vtrace_json_uint(j, "open", s->open);
	vtrace_json_uint(j, "malformed", s->malformed);
	vtrace_json_object_end(j);
}
