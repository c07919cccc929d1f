// SPDX-License-Identifier: GPL-2.0
/*
 * vtrace report FILE.pftrace: a Perfetto trace's ftrace events, one line
 * each in trace-cmd report's columns, or as JSON. A Perfetto trace keeps
 * no print formats: the info is the print event's text, and the fields
 * as NAME=VALUE for every other event.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vtrace/json.h>
#include <vtrace/perfetto-input.h>

#include "builtin.h"
#include "cli.h"
#include "report-perfetto.h"
#include "slices-load.h"

struct pf_report {
	const struct vt_perfetto_input *in;
	const char **names; /* --events: event names, NULL: every event */
	size_t nr_names;
	int cpu;
	bool json;
	struct vtrace_json j;
	char *info;
	size_t info_size;
};

static bool selected(const struct pf_report *r, const struct vt_pf_event *e)
{
	size_t i;

	if (r->cpu >= 0 && e->cpu != r->cpu)
		return false;
	if (!r->names)
		return true;
	for (i = 0; i < r->nr_names; i++)
		if (!strcmp(r->names[i], e->name))
			return true;
	return false;
}

static const struct vt_pf_value *value(const struct pf_report *r,
				       const struct vt_pf_event *e, size_t i)
{
	return &r->in->values[e->first_value + i];
}

/* The info column, in r->info; NULL when out of memory. */
static const char *info(struct pf_report *r, const struct vt_pf_event *e)
{
	const struct vt_pf_value *v;
	FILE *f;
	size_t i;

	free(r->info);
	r->info = NULL;
	f = open_memstream(&r->info, &r->info_size);
	if (!f)
		return NULL;
	if (e->system && !strcmp(e->name, "print")) {
		/* The kernel's "%ps: %s", with no symbols to resolve @ip. */
		for (i = 0; i < e->nr_values; i++) {
			v = value(r, e, i);
			if (!strcmp(v->name, "ip"))
				fprintf(f, "0x%" PRIx64 ": ", v->u);
			else if (!strcmp(v->name, "buf"))
				fprintf(f, "%.*s", (int)v->len, v->str);
		}
	}
	for (i = 0;
	     i < e->nr_values && !(e->system && !strcmp(e->name, "print"));
	     i++) {
		v = value(r, e, i);
		fprintf(f, "%s%s=", i ? " " : "", v->name);
		if (v->kind == VT_PF_VALUE_STR)
			fprintf(f, "%.*s", (int)v->len, v->str);
		else if (v->kind == VT_PF_VALUE_INT)
			fprintf(f, "%" PRId64, v->i);
		else
			fprintf(f, "%" PRIu64, v->u);
	}
	if (fclose(f))
		return NULL;
	/* A print's text ends with the writer's newline. */
	if (r->info_size && r->info[r->info_size - 1] == '\n')
		r->info[--r->info_size] = '\0';
	return r->info;
}

static const char *comm_of(const struct pf_report *r, int pid)
{
	const char *comm = pid > 0 ? vtrace_perfetto_comm(r->in, pid) : NULL;

	return comm ? comm : pid == 0 ? "<idle>" : "<...>";
}

static void print_text(struct pf_report *r, const struct vt_pf_event *e,
		       const char *text)
{
	unsigned long long usecs = (e->ts + 500) / 1000;
	char pid[24];

	snprintf(pid, sizeof(pid), "%d", e->pid);
	printf("%16s-%-5s [%03d] ", comm_of(r, e->pid), pid, e->cpu);
	if (usecs > 1000000)
		printf("%5llu.%06llu", usecs / 1000000, usecs % 1000000);
	else
		printf("%12llu", usecs);
	printf(": %s: %*s%s\n", e->name,
	       strlen(e->name) < 20 ? (int)(20 - strlen(e->name)) : 0, "",
	       text);
}

static int print_json(struct pf_report *r, const struct vt_pf_event *e,
		      const char *text)
{
	const struct vt_pf_value *v;
	char *s;
	size_t i;

	vtrace_json_object_begin(&r->j, NULL);
	vtrace_json_int(&r->j, "cpu", e->cpu);
	vtrace_json_uint(&r->j, "ts", e->ts);
	vtrace_json_int(&r->j, "pid", e->pid);
	vtrace_json_string(&r->j, "comm", comm_of(r, e->pid));
	if (e->system)
		vtrace_json_string(&r->j, "system", e->system);
	vtrace_json_string(&r->j, "event", e->name);
	vtrace_json_object_begin(&r->j, "fields");
	for (i = 0; i < e->nr_values; i++) {
		v = value(r, e, i);
		if (v->kind == VT_PF_VALUE_INT) {
			vtrace_json_int(&r->j, v->name, v->i);
		} else if (v->kind == VT_PF_VALUE_UINT) {
			vtrace_json_uint(&r->j, v->name, v->u);
		} else {
			s = strndup(v->str, v->len);
			if (!s)
				return -ENOMEM;
			vtrace_json_string(&r->j, v->name, s);
			free(s);
		}
	}
	vtrace_json_object_end(&r->j);
	vtrace_json_string(&r->j, "info", text);
	vtrace_json_object_end(&r->j);
	return 0;
}

static int parse_names(struct pf_report *r, const char *file, char *list)
{
	char *name, *save = NULL, *slash;
	size_t i;
	bool found;

	for (name = strtok_r(list, ",", &save); name;
	     name = strtok_r(NULL, ",", &save)) {
		slash = strchr(name, '/');
		found = false;
		for (i = 0; i < r->in->nr_events && !found; i++)
			found = !strcmp(r->in->events[i].name,
					slash ? slash + 1 : name) &&
				(!slash || !r->in->events[i].system ||
				 !strncmp(r->in->events[i].system, name,
					  slash - name));
		if (!found) {
			vtrace_err("report: %s: no event '%s' in this file",
				   file, name);
			return -ENOENT;
		}
		r->names = reallocarray(r->names, r->nr_names + 1,
					sizeof(*r->names));
		if (!r->names)
			return -ENOMEM;
		r->names[r->nr_names++] = slash ? slash + 1 : name;
	}
	if (!r->nr_names) {
		vtrace_err("report: --events needs at least one event");
		return -EINVAL;
	}
	return 0;
}

static int show(struct pf_report *r)
{
	const struct vt_pf_event *e;
	unsigned long long count = 0;
	const char *text;
	size_t i;
	int ret = 0;

	if (r->json) {
		vtrace_json_init(&r->j, stdout);
		vtrace_json_object_begin(&r->j, NULL);
		vtrace_json_array_begin(&r->j, "events");
	}
	for (i = 0; i < r->in->nr_events && !ret; i++) {
		e = &r->in->events[i];
		if (!selected(r, e))
			continue;
		text = info(r, e);
		if (!text)
			return -ENOMEM;
		count++;
		if (r->json)
			ret = print_json(r, e, text);
		else
			print_text(r, e, text);
	}
	if (ret)
		return ret;
	if (!r->json)
		return cli_finish_stdout();
	vtrace_json_array_end(&r->j);
	vtrace_json_uint(&r->j, "count", count);
	vtrace_json_object_end(&r->j);
	return cli_finish_json(&r->j);
}

/**
 * report_perfetto - vtrace report of a Perfetto trace
 * @file: the trace
 * @json: print JSON
 * @events: --events, or NULL
 * @cpu: --cpu, or -1
 *
 * Return: the exit status.
 */
int report_perfetto(const char *file, bool json, const char *events, int cpu)
{
	struct pf_report r = { .json = json, .cpu = cpu };
	struct vt_perfetto_input in;
	char msg[512] = "", *list = NULL;
	int ret;

	ret = vtrace_perfetto_load(&in, file, msg, sizeof(msg));
	r.in = &in;
	if (ret) {
		vtrace_err("report: %s", msg);
		goto out;
	}
	if (events) {
		list = strdup(events);
		ret = list ? parse_names(&r, file, list) : -ENOMEM;
	}
	if (!ret)
		ret = show(&r);
	if (ret < 0 && ret != -ENOENT && ret != -EINVAL)
		vtrace_err("report: %s: %s", file, strerror(-ret));
out:
	free(r.names);
	free(r.info);
	free(list);
	vtrace_perfetto_input_free(&in);
	if (ret < 0)
		return VTRACE_EXIT_FAIL;
	return ret;
}
