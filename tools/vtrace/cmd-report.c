// SPDX-License-Identifier: GPL-2.0
/*
 * vtrace report - print the events of a trace.dat.
 *
 * Decoding is libtracecmd's (file, pages, CPU merge by timestamp) and
 * libtraceevent's (fields, print formats with __print_symbolic); this
 * file only selects events and formats lines. Text lines are laid out
 * as trace-cmd report lays them out, so the two can be compared.
 */
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <trace-cmd.h>
#include <trace-seq.h>

#include <vtrace/dmtrace.h>
#include <vtrace/json.h>
#include <vtrace/perfetto-input.h>
#include <vtrace/tracedat-input.h>
#include <vtrace/tracedat-stream.h>

#include "builtin.h"
#include "cli.h"
#include "report-dmtrace.h"
#include "report-perfetto.h"

struct report {
	const char *file;
	struct tep_handle *tep;
	int *event_ids; /* NULL: every event */
	int nr_event_ids;
	bool json;
	struct vtrace_json j;
	struct trace_seq s;
	unsigned long long count;
};

static void report_usage(FILE *out)
{
	fprintf(out,
		"usage: vtrace report FILE [--events LIST] [--cpu N] [--json]\n"
		"\n"
		"Print the events of a trace.dat in timestamp order, as trace-cmd\n"
		"report does (of a Perfetto trace: its ftrace events, with their\n"
		"fields as the info); or the records of a dmtrace method trace\n"
		"(.trace, .key/.data), as dmtracedump -o does.\n"
		"\n"
		"  --events LIST  only these events: comma-separated, each\n"
		"                 SYSTEM/EVENT or EVENT\n"
		"  --cpu N        only events recorded on CPU N\n"
		"  --json         {\"events\":[...],\"count\":N} on stdout: per event\n"
		"                 cpu, ts (ns), pid, comm, system, event, its\n"
		"                 fields and the formatted info line\n");
}

/* Resolves each name of @list to an event id of the file. */
static int parse_event_list(struct report *r, const char *list)
{
	char *copy, *name, *save = NULL, *slash;
	struct tep_event *event;
	int ret = 0;

	copy = strdup(list);
	if (!copy)
		return -ENOMEM;
	for (name = strtok_r(copy, ",", &save); name && !ret;
	     name = strtok_r(NULL, ",", &save)) {
		slash = strchr(name, '/');
		if (slash)
			*slash = '\0';
		event = slash ? tep_find_event_by_name(r->tep, name,
						       slash + 1) :
				tep_find_event_by_name(r->tep, NULL, name);
		if (slash)
			*slash = '/';
		if (!event) {
			vtrace_err("report: %s: no event '%s' in this file",
				   r->file, name);
			ret = -ENOENT;
			break;
		}
		r->event_ids = reallocarray(r->event_ids, r->nr_event_ids + 1,
					    sizeof(*r->event_ids));
		if (!r->event_ids)
			ret = -ENOMEM;
		else
			r->event_ids[r->nr_event_ids++] = event->id;
	}
	free(copy);
	if (!ret && !r->nr_event_ids) {
		vtrace_err("report: --events needs at least one event");
		ret = -EINVAL;
	}
	return ret;
}

/* @v in decimal, right-aligned in @width with @pad; returns the end. */
static char *put_number(char *p, unsigned long long v, int width, char pad)
{
	char digits[24];
	int n = 0;

	do {
		digits[n++] = '0' + v % 10;
		v /= 10;
	} while (v);
	while (width-- > n)
		*p++ = pad;
	while (n)
		*p++ = digits[--n];
	return p;
}

/*
 * "%16s-%-5d [%03d] %5llu.%06llu: NAME: " padded to trace-cmd report's
 * columns: the line start tep_print_event() would make from
 * "%16s-%-5d [%03d] %6.1000d:" (microseconds rounded to nearest, or the
 * raw count below a second), without parsing that format per record:
 * this is most of vtrace report's time otherwise.
 */
static char *put_line_start(struct report *r, struct tep_event *event,
			    struct tep_record *record, char *p)
{
	const char *name = event ? event->name : "(NULL)";
	int pid = tep_data_pid(r->tep, record);
	const char *comm = tep_data_comm_from_pid(r->tep, pid);
	unsigned long long usecs = (record->ts + 500) / 1000;
	size_t len = strlen(comm), i;
	char *start;

	/* comm: at most 64 bytes of it, so the line fits its buffer. */
	len = len > 64 ? 64 : len;
	for (i = len; i < 16; i++)
		*p++ = ' ';
	memcpy(p, comm, len);
	p += len;
	*p++ = '-';
	start = p;
	if (pid < 0) {
		*p++ = '-';
		p = put_number(p, -(long long)pid, 0, ' ');
	} else {
		p = put_number(p, pid, 0, ' ');
	}
	while (p - start < 5)
		*p++ = ' ';
	*p++ = ' ';
	*p++ = '[';
	p = put_number(p, record->cpu, 3, '0');
	*p++ = ']';
	*p++ = ' ';
	if (usecs > 1000000) {
		p = put_number(p, usecs / 1000000, 5, ' ');
		*p++ = '.';
		p = put_number(p, usecs % 1000000, 6, '0');
	} else {
		p = put_number(p, usecs, 12, ' ');
	}
	*p++ = ':';
	*p++ = ' ';
	len = strlen(name);
	len = len > 64 ? 64 : len;
	memcpy(p, name, len);
	p += len;
	*p++ = ':';
	*p++ = ' ';
	for (i = len; i < 20; i++)
		*p++ = ' ';
	return p;
}

/* trace-cmd report's layout: comm-pid [cpu] secs.usecs: name: info */
static void print_text(struct report *r, struct tep_event *event,
		       struct tep_record *record)
{
	char start[256], *end;

	if (record->missed_events > 0)
		printf("CPU:%d [%lld EVENTS DROPPED]\n", record->cpu,
		       record->missed_events);
	else if (record->missed_events < 0)
		printf("CPU:%d [EVENTS DROPPED]\n", record->cpu);
	end = put_line_start(r, event, record, start);
	tep_print_event(r->tep, &r->s, record, "%s", TEP_PRINT_INFO);
	if (r->s.len && r->s.buffer[r->s.len - 1] == '\n')
		r->s.len--;
	fwrite(start, 1, end - start, stdout);
	fwrite(r->s.buffer, 1, r->s.len, stdout);
	fputc('\n', stdout);
}

/* A string field: fixed char array or __string, cut at its NUL. */
static void json_string_field(struct report *r, struct tep_event *event,
			      struct tep_format_field *field,
			      struct tep_record *record)
{
	char *data, *text;
	int len;

	data = tep_get_field_raw(NULL, event, field->name, record, &len, 0);
	/* A trailing char buf[] (ftrace/print) runs to the record's end. */
	if (data && !field->size && !(field->flags & TEP_FIELD_IS_DYNAMIC))
		len = record->size - field->offset;
	if (!data || len < 0)
		len = 0;
	text = strndup(data ? data : "", len);
	if (!text) {
		r->j.err = -ENOMEM;
		return;
	}
	vtrace_json_string(&r->j, field->name, text);
	free(text);
}

static void json_fields(struct report *r, struct tep_event *event,
			struct tep_record *record)
{
	struct tep_format_field *field;
	unsigned long long val;

	vtrace_json_object_begin(&r->j, "fields");
	for (field = event->format.fields; field; field = field->next) {
		if (field->flags & TEP_FIELD_IS_STRING) {
			json_string_field(r, event, field, record);
			continue;
		}
		/* Non-string arrays have no one value; info shows them. */
		if (field->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC))
			continue;
		if (tep_read_number_field(field, record->data, &val))
			continue;
		if (!(field->flags & TEP_FIELD_IS_SIGNED))
			vtrace_json_uint(&r->j, field->name, val);
		else if (field->size == 1)
			vtrace_json_int(&r->j, field->name, (int8_t)val);
		else if (field->size == 2)
			vtrace_json_int(&r->j, field->name, (int16_t)val);
		else if (field->size == 4)
			vtrace_json_int(&r->j, field->name, (int32_t)val);
		else
			vtrace_json_int(&r->j, field->name, (int64_t)val);
	}
	vtrace_json_object_end(&r->j);
}

static void print_json(struct report *r, struct tep_event *event,
		       struct tep_record *record)
{
	vtrace_json_object_begin(&r->j, NULL);
	vtrace_json_int(&r->j, "cpu", record->cpu);
	vtrace_json_uint(&r->j, "ts", record->ts);
	trace_seq_reset(&r->s);
	tep_print_event(r->tep, &r->s, record, "%d", TEP_PRINT_PID);
	trace_seq_terminate(&r->s);
	vtrace_json_int(&r->j, "pid", strtol(r->s.buffer, NULL, 10));
	trace_seq_reset(&r->s);
	tep_print_event(r->tep, &r->s, record, "%s", TEP_PRINT_COMM);
	trace_seq_terminate(&r->s);
	vtrace_json_string(&r->j, "comm", r->s.buffer);
	if (record->missed_events)
		vtrace_json_int(&r->j, "missed_events", record->missed_events);
	if (event) {
		vtrace_json_string(&r->j, "system", event->system);
		vtrace_json_string(&r->j, "event", event->name);
		json_fields(r, event, record);
		trace_seq_reset(&r->s);
		tep_print_event(r->tep, &r->s, record, "%s", TEP_PRINT_INFO);
		if (r->s.len && r->s.buffer[r->s.len - 1] == '\n')
			r->s.len--;
		trace_seq_terminate(&r->s);
		vtrace_json_string(&r->j, "info", r->s.buffer);
	}
	vtrace_json_object_end(&r->j);
}

static void show_record(struct report *r, struct tep_event *event,
			struct tep_record *record)
{
	r->count++;
	trace_seq_reset(&r->s);
	if (r->json)
		print_json(r, event, record);
	else
		print_text(r, event, record);
}

static bool event_selected(struct report *r, struct tep_event *event)
{
	int i;

	if (!r->event_ids)
		return true;
	for (i = 0; event && i < r->nr_event_ids; i++)
		if (r->event_ids[i] == event->id)
			return true;
	return false;
}

static int show_iterated(struct tracecmd_input *handle,
			 struct tep_record *record, int cpu, void *data)
{
	struct report *r = data;
	struct tep_event *event;
	char msg[256];

	event = tep_find_event_by_record(r->tep, record);
	if (!event_selected(r, event))
		return 0;
	/* Non-zero ends tracecmd_iterate_events(), which returns it. */
	if (event &&
	    !vtrace_tracedat_record_ok(event, record, msg, sizeof(msg))) {
		vtrace_err("report: %s: %s", r->file, msg);
		return -EINVAL;
	}
	show_record(r, event, record);
	return 0;
}

/*
 * libtracecmd's function graph plugin formats an entry by peeking at the
 * next record through the input handle, and consumes a leaf's return
 * record itself: such files are read by libtracecmd's own iterator, in
 * the thread that formats.
 */
static int show_records_in_order(struct report *r,
				 struct tracecmd_input *handle, int cpu)
{
	cpu_set_t *set = NULL;
	size_t size = 0;
	int ret;

	if (cpu >= 0) {
		set = CPU_ALLOC(cpu + 1);
		if (!set)
			return -ENOMEM;
		size = CPU_ALLOC_SIZE(cpu + 1);
		CPU_ZERO_S(size, set);
		CPU_SET_S(cpu, size, set);
	}
	ret = tracecmd_iterate_events(handle, set, size, show_iterated, r);
	CPU_FREE(set);
	return ret;
}

/*
 * Otherwise libtracecmd reads ahead in a thread of its own
 * (vt_tracedat_stream) while this one formats: libtraceevent's formatting
 * keeps state (the sched_switch plugin's comms) and stays in one thread,
 * in order.
 */
static int show_records(struct report *r, struct tracecmd_input *handle,
			int cpu)
{
	struct vt_tracedat_stream *stream;
	struct tep_record *record;
	struct tep_event *event;
	char msg[256];
	int ret;

	if (tep_find_event_by_name(r->tep, "ftrace", "funcgraph_entry"))
		return show_records_in_order(r, handle, cpu);
	ret = vtrace_tracedat_stream_start(handle, cpu, r->event_ids,
					   r->nr_event_ids, &stream);
	if (ret)
		return ret;
	while ((record = vtrace_tracedat_stream_next(stream, &event)))
		show_record(r, event, record);
	ret = vtrace_tracedat_stream_error(stream, msg, sizeof(msg));
	if (ret == -EINVAL)
		vtrace_err("report: %s: %s", r->file, msg);
	vtrace_tracedat_stream_free(stream);
	return ret;
}

static int parse_cpu(const char *arg, int *cpu)
{
	long long v;

	if (cli_parse_number("report --cpu", arg, 0, CPU_SETSIZE - 1, &v))
		return -EINVAL;
	*cpu = v;
	return 0;
}

static int iterate(struct report *r, struct tracecmd_input *handle, int cpu)
{
	int ret;

	if (cpu >= tep_get_cpus(r->tep)) {
		vtrace_err("report: %s: --cpu %d: the file has CPUs 0-%d",
			   r->file, cpu, tep_get_cpus(r->tep) - 1);
		return -EINVAL;
	}
	if (r->json) {
		vtrace_json_init(&r->j, stdout);
		vtrace_json_object_begin(&r->j, NULL);
		vtrace_json_string(&r->j, "file", r->file);
		vtrace_json_array_begin(&r->j, "events");
	}
	ret = show_records(r, handle, cpu);
	if (r->json) {
		vtrace_json_array_end(&r->j);
		vtrace_json_uint(&r->j, "count", r->count);
		vtrace_json_object_end(&r->j);
		if (vtrace_json_finish(&r->j) && !ret)
			ret = -EIO;
	}
	return ret < 0 ? ret : 0;
}

int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "events", required_argument, NULL, 'e' },
		{ "cpu", required_argument, NULL, 'C' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct report r = { 0 };
	struct tracecmd_input *handle;
	const char *events = NULL;
	int opt, cpu = -1, ret;
	char msg[512];

	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'e':
			events = optarg;
			break;
		case 'C':
			if (parse_cpu(optarg, &cpu))
				return VTRACE_EXIT_USAGE;
			break;
		case 'j':
			r.json = true;
			break;
		case 'h':
			report_usage(stdout);
			return VTRACE_EXIT_OK;
		default:
			report_usage(stderr);
			return VTRACE_EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		report_usage(stderr);
		return VTRACE_EXIT_USAGE;
	}
	r.file = argv[optind];
	if (cli_check_input("report", r.file))
		return VTRACE_EXIT_USAGE;
	if (vtrace_dmtrace_probe(r.file))
		return report_dmtrace(r.file, r.json, events || cpu >= 0);
	if (vtrace_perfetto_probe(r.file))
		return report_perfetto(r.file, r.json, events, cpu);

	if (vtrace_tracedat_open(r.file, &handle, msg, sizeof(msg))) {
		vtrace_err("report: %s", msg);
		return VTRACE_EXIT_FAIL;
	}
	r.tep = tracecmd_get_tep(handle);
	trace_seq_init(&r.s);
	/* Lines go out in large writes: a report is often megabytes. */
	setvbuf(stdout, NULL, _IOFBF, 1 << 20);
	ret = events ? parse_event_list(&r, events) : 0;
	if (!ret)
		ret = iterate(&r, handle, cpu);
	if (ret && ret != -ENOENT && ret != -EINVAL)
		vtrace_err("report: %s: %s", r.file, strerror(-ret));
	trace_seq_destroy(&r.s);
	free(r.event_ids);
	tracecmd_close(handle);
	return ret ? VTRACE_EXIT_FAIL : VTRACE_EXIT_OK;
}
