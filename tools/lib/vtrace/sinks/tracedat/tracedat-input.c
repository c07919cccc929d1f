// SPDX-License-Identifier: LGPL-2.1
/*
 * Opening a trace.dat for reading, and the per-record checks (see
 * tracedat-input.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <trace-cmd.h>

#include <vtrace/file-io.h>
#include "sinks/tracedat/tracedat-check.h"
#include <vtrace/tracedat-input.h>

/*
 * Whether an unfinished recording kept its data in FILE.cpuN (on a file
 * system without sparse files) rather than in FILE itself.
 */
static bool cpu_files_left(const char *file)
{
	char *cpu0;
	bool left;

	if (asprintf(&cpu0, "%s.cpu0", file) < 0)
		return false;
	left = !access(cpu0, F_OK);
	free(cpu0);
	return left;
}

int vtrace_tracedat_open(const char *path, struct tracecmd_input **handlep,
			 char *msg, size_t msg_size)
{
	char why[256];
	int ret;

	*handlep = NULL;
	ret = vt_tracedat_check(path, why, sizeof(why));
	if (ret == -ENODATA && cpu_files_left(path))
		snprintf(
			msg, msg_size,
			"%s is incomplete: the recording that wrote it stopped before finishing the file (killed or crashed); the captured pages are still in %s.cpuN: 'vtrace recover %s' makes a trace.dat of them",
			path, path, path);
	else if (ret == -ENODATA)
		snprintf(
			msg, msg_size,
			"%s is incomplete: the recording that wrote it stopped before finishing the file (killed or crashed); the captured pages are still in it: 'vtrace recover %s' makes a trace.dat of them",
			path, path);
	else if (ret == -EINVAL)
		snprintf(msg, msg_size, "%s: %s", path, why);
	else if (ret)
		snprintf(msg, msg_size, "%s: %s", path,
			 vtrace_input_strerror(ret));
	if (ret)
		return ret;

	/* We explain failures ourselves; the library's own words go. */
	tracecmd_set_loglevel(TEP_LOG_NONE);
	*handlep = tracecmd_open(path, 0);
	if (!*handlep) {
		snprintf(msg, msg_size,
			 "%s: not a readable trace.dat (corrupt header)", path);
		return -EINVAL;
	}
	return 0;
}

/*
 * The bytes @field takes in @record: its own, and for a __data_loc or
 * __rel_loc field the data its location word points at.
 */
static unsigned long long field_end(struct tep_format_field *field,
				    struct tep_record *record)
{
	unsigned long long loc, start;

	if (!(field->flags & TEP_FIELD_IS_DYNAMIC))
		return field->offset + field->size;
	if (tep_read_number_field(field, record->data, &loc))
		return ULLONG_MAX;
	/* Location word: data offset in the low 16 bits, length above. */
	start = loc & 0xffff;
	if (field->flags & TEP_FIELD_IS_RELATIVE)
		start += field->offset + field->size;
	return start + (loc >> 16 & 0xffff);
}

/* The first field of @fields not inside @record, with its *end. */
static struct tep_format_field *
field_past_record(struct tep_format_field *fields, struct tep_record *record,
		  unsigned long long *end)
{
	struct tep_format_field *field;

	for (field = fields; field; field = field->next) {
		/* The location word itself must be in the record first. */
		*end = field->offset + field->size;
		if (*end <= (unsigned int)record->size)
			*end = field_end(field, record);
		if (*end > (unsigned int)record->size)
			return field;
	}
	return NULL;
}

/*
 * The nested calls of one kernel stack (16 or 32 KiB) are far fewer
 * than this. libtracecmd 1.3 prints ftrace/funcgraph_entry and _exit
 * records indented by two spaces per level, unbounded: a garbled depth
 * makes a line of gigabytes.
 */
#define FGRAPH_DEPTH_MAX 4096

static bool fgraph_depth_ok(struct tep_event *event, struct tep_record *record,
			    char *msg, size_t msg_size)
{
	struct tep_format_field *field;
	unsigned long long depth;

	if (strcmp(event->system, "ftrace") ||
	    strncmp(event->name, "funcgraph_", 10))
		return true;
	field = tep_find_field(event, "depth");
	if (!field || tep_read_number_field(field, record->data, &depth) ||
	    depth <= FGRAPH_DEPTH_MAX)
		return true;
	snprintf(
		msg, msg_size,
		"corrupt CPU %d data: the %s record at offset %llu has depth %llu",
		record->cpu, event->name, record->offset, depth);
	return false;
}

bool vtrace_tracedat_record_ok(struct tep_event *event,
			       struct tep_record *record, char *msg,
			       size_t msg_size)
{
	struct tep_format_field *field;
	unsigned long long end;

	field = field_past_record(event->format.common_fields, record, &end);
	if (!field)
		field = field_past_record(event->format.fields, record, &end);
	if (field) {
		snprintf(
			msg, msg_size,
			"corrupt CPU %d data: the %s record at offset %llu has %d bytes, its field %s needs %llu",
			record->cpu, event->name, record->offset, record->size,
			field->name, end);
		return false;
	}
	return fgraph_depth_ok(event, record, msg, msg_size);
}
