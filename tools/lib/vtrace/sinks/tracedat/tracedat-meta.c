// SPDX-License-Identifier: GPL-2.0
/*
 * The metadata of a trace.dat (trace-cmd.dat.v6(5)): header page and
 * event headers, ftrace and event formats, kallsyms, printk formats,
 * saved cmdlines and the options, gathered from tracefs and /proc.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <tracefs.h>

#include <vtrace/file-io.h>

#include "sinks/tracedat/tracedat-local.h"

void vt_td_buf_add(struct out_buf *b, const void *data, size_t len)
{
	size_t size;
	char *p;

	if (b->err || !len)
		return;
	if (b->len + len > b->size) {
		size = b->size ? b->size : 4096;
		while (size < b->len + len)
			size *= 2;
		p = realloc(b->data, size);
		if (!p) {
			b->err = -ENOMEM;
			return;
		}
		b->data = p;
		b->size = size;
	}
	memcpy(b->data + b->len, data, len);
	b->len += len;
}

static void buf_add_u16(struct out_buf *b, uint16_t v)
{
	vt_td_buf_add(b, &v, sizeof(v));
}

void vt_td_buf_add_u32(struct out_buf *b, uint32_t v)
{
	vt_td_buf_add(b, &v, sizeof(v));
}

void vt_td_buf_add_u64(struct out_buf *b, uint64_t v)
{
	vt_td_buf_add(b, &v, sizeof(v));
}

static void buf_add_str(struct out_buf *b, const char *s)
{
	vt_td_buf_add(b, s, strlen(s) + 1);
}

static void buf_add_option(struct out_buf *b, uint16_t id, const void *data,
			   uint32_t len)
{
	buf_add_u16(b, id);
	vt_td_buf_add_u32(b, len);
	vt_td_buf_add(b, data, len);
}

/* Appends @b at the file's current end of header and empties it. */
int vt_td_buf_flush(struct vt_tracedat *td, struct out_buf *b, off_t *off,
		    const char *what)
{
	int ret = b->err;

	if (!ret)
		ret = vtrace_pwrite_all(td->fd, b->data, b->len, *off);
	if (ret)
		return set_error(td, ret, "writing %s of %s", what, td->path);
	*off += b->len;
	b->len = 0;
	return 0;
}

int vt_td_add_header_file(struct vt_tracedat *td, struct out_buf *b,
			  const char *name)
{
	char file[64];
	char *data;
	int size;

	snprintf(file, sizeof(file), "events/%s", name);
	data = tracefs_instance_file_read(NULL, file, &size);
	if (!data)
		return set_error(td, errno ? -errno : -EIO, "reading %s", file);
	buf_add_str(b, name);
	vt_td_buf_add_u64(b, size);
	vt_td_buf_add(b, data, size);
	free(data);
	return 0;
}

static int add_format(struct vt_tracedat *td, struct out_buf *b,
		      const char *system, const char *event)
{
	char *data;
	int size;

	errno = 0;
	data = tracefs_event_file_read(NULL, system, event, "format", &size);
	if (!data)
		return set_error(td, errno ? -errno : -ENOENT,
				 "reading the format of %s/%s", system, event);
	vt_td_buf_add_u64(b, size);
	vt_td_buf_add(b, data, size);
	free(data);
	return 0;
}

/* Count, then the formats of @events (all of @system's when NULL). */
static int add_system_formats(struct vt_tracedat *td, struct out_buf *b,
			      const char *system, char **events)
{
	char **all = NULL;
	int i, ret = 0;

	if (!events) {
		all = tracefs_system_events(NULL, system);
		if (!all)
			return set_error(td, -ENOENT, "listing events of %s",
					 system);
		events = all;
	}
	for (i = 0; events[i]; i++)
		;
	vt_td_buf_add_u32(b, i);
	for (i = 0; events[i] && !ret; i++)
		ret = add_format(td, b, system, events[i]);
	tracefs_list_free(all);
	return ret;
}

/* Events of @system named in @list ("system/event"), in list order. */
static char **events_of_system(const char *const *list, const char *system)
{
	size_t slen = strlen(system);
	char **events = NULL, **grown;
	int i;

	for (i = 0; list[i]; i++) {
		if (strncmp(list[i], system, slen) || list[i][slen] != '/')
			continue;
		grown = tracefs_list_add(events, list[i] + slen + 1);
		if (!grown) {
			tracefs_list_free(events);
			return NULL;
		}
		events = grown;
	}
	return events;
}

static bool list_has(char **list, const char *s)
{
	for (; list && *list; list++)
		if (!strcmp(*list, s))
			return true;
	return false;
}

/* Distinct systems of @list other than ftrace, in first-seen order. */
static int systems_of_list(struct vt_tracedat *td, const char *const *list,
			   char ***systems)
{
	const char *slash;
	char *system, **grown;
	int i;

	for (i = 0; list[i]; i++) {
		slash = strchr(list[i], '/');
		if (!slash || slash == list[i] || !slash[1] ||
		    strchr(slash + 1, '/'))
			return set_error(td, -EINVAL, "bad event name '%s'",
					 list[i]);
		system = strndup(list[i], slash - list[i]);
		if (!system)
			return -ENOMEM;
		if (strcmp(system, "ftrace") && !list_has(*systems, system)) {
			grown = tracefs_list_add(*systems, system);
			if (!grown) {
				free(system);
				return -ENOMEM;
			}
			*systems = grown;
		}
		free(system);
	}
	return 0;
}

/* The ftrace system's formats, then every other system's (or @list's). */
int vt_td_add_event_formats(struct vt_tracedat *td, struct out_buf *b,
			    const char *const *list)
{
	char **systems = NULL, **events = NULL;
	int i, n, ret;

	if (list)
		ret = systems_of_list(td, list, &systems);
	else
		ret = (systems = tracefs_event_systems(NULL)) ? 0 : -ENOENT;
	if (ret)
		goto out;

	ret = add_system_formats(td, b, "ftrace", NULL);
	if (ret)
		goto out;

	for (i = 0, n = 0; systems && systems[i]; i++)
		n += !!strcmp(systems[i], "ftrace");
	vt_td_buf_add_u32(b, n);
	for (i = 0; systems && systems[i] && !ret; i++) {
		if (!strcmp(systems[i], "ftrace"))
			continue;
		if (list) {
			events = events_of_system(list, systems[i]);
			if (!events) {
				ret = -ENOMEM;
				break;
			}
		}
		buf_add_str(b, systems[i]);
		ret = add_system_formats(td, b, systems[i], events);
		tracefs_list_free(events);
		events = NULL;
	}
out:
	tracefs_list_free(systems);
	if (ret)
		return set_error(td, ret, "gathering event formats");
	return 0;
}

void vt_td_add_file_header(struct vt_tracedat *td, struct out_buf *b)
{
	uint16_t endian = 1;
	char byte;

	vt_td_buf_add(b, TRACEDAT_MAGIC, TRACEDAT_MAGIC_LEN);
	b->data[0] = TRACEDAT_INCOMPLETE_BYTE;
	buf_add_str(b, TRACEDAT_VERSION);
	byte = *(char *)&endian ? 0 : 1;
	vt_td_buf_add(b, &byte, 1);
	byte = sizeof(long);
	vt_td_buf_add(b, &byte, 1);
	vt_td_buf_add_u32(b, td->page_size);
}

/* /proc/kallsyms, or an empty section where it cannot be read. */
void vt_td_add_kallsyms(struct out_buf *b)
{
	size_t len = 0;
	char *data;

	data = vtrace_read_file("/proc/kallsyms", &len);
	if (!data || len > UINT32_MAX)
		len = 0;
	vt_td_buf_add_u32(b, len);
	vt_td_buf_add(b, data, len);
	free(data);
}

/*
 * The same section written straight from what was read: /proc/kallsyms
 * is megabytes, and copying it into the header buffer (grown by doubling)
 * cost a recording more CPU than trace-cmd's whole set-up.
 */
int vt_td_write_kallsyms(struct vt_tracedat *td, off_t *off)
{
	size_t len = 0;
	uint32_t len32;
	char *data;
	int ret;

	data = vtrace_read_file("/proc/kallsyms", &len);
	if (!data || len > UINT32_MAX)
		len = 0;
	len32 = len;
	ret = vtrace_pwrite_all(td->fd, &len32, sizeof(len32), *off);
	if (!ret)
		ret = vtrace_pwrite_all(td->fd, data, len,
					*off + sizeof(len32));
	free(data);
	if (ret)
		return set_error(td, ret, "writing kallsyms of %s", td->path);
	*off += sizeof(len32) + len;
	return 0;
}

void vt_td_add_printk_formats(struct out_buf *b)
{
	char *data;
	int size = 0;

	data = tracefs_instance_file_read(NULL, "printk_formats", &size);
	if (!data)
		size = 0;
	vt_td_buf_add_u32(b, size);
	vt_td_buf_add(b, data, size);
	free(data);
}

/* A recovered file has none: today's saved_cmdlines are not its own. */
void vt_td_add_cmdlines(struct vt_tracedat *td, struct out_buf *b)
{
	char *data = NULL;
	int size = 0;

	if (!td->recovered)
		data = tracefs_instance_file_read(NULL, "saved_cmdlines",
						  &size);
	if (!data)
		size = 0;
	vt_td_buf_add_u64(b, size);
	vt_td_buf_add(b, data, size);
	free(data);
}

/* "CPU: N" and the buffer's own counters, which report --stat shows. */
static void add_cpu_stats(struct vt_tracedat *td, struct out_buf *b)
{
	char file[64];
	char *stats, *text;
	int cpu, len;

	for (cpu = 0; cpu < td->ncpus && !td->recovered; cpu++) {
		snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
		stats = tracefs_instance_file_read(td->instance, file, NULL);
		if (!stats)
			continue;
		len = asprintf(&text, "CPU: %d\n%s", cpu, stats);
		free(stats);
		if (len < 0) {
			b->err = -ENOMEM;
			return;
		}
		buf_add_option(b, TRACEDAT_OPTION_CPUSTAT, text, len + 1);
		free(text);
	}
}

void vt_td_add_options(struct vt_tracedat *td, struct out_buf *b,
		       bool cpu_stats)
{
	struct utsname u;
	char *text;
	int len;

	vt_td_buf_add(b, "options  ", 10);
	/*
	 * In v6 the clock follows the flyrecord offsets, and the option only
	 * says so; but libtracecmd 1.3 also parses the option's bytes as a
	 * trace_clock text (v7 keeps the clock there), unterminated: an
	 * empty option had it read uninitialised memory, and now and then
	 * trace-cmd report printed raw timestamps. So it names the clock too.
	 */
	len = asprintf(&text, "[%s]", td->clock);
	if (len < 0) {
		b->err = -ENOMEM;
		return;
	}
	buf_add_option(b, TRACEDAT_OPTION_TRACECLOCK, text, len + 1);
	free(text);
	if (cpu_stats)
		add_cpu_stats(td, b);
	/* A recovered file's machine is not necessarily this one. */
	if (!td->recovered && !uname(&u)) {
		len = asprintf(&text, "%s %s %s %s", u.sysname, u.nodename,
			       u.release, u.machine);
		if (len >= 0) {
			buf_add_option(b, TRACEDAT_OPTION_UNAME, text, len + 1);
			free(text);
		}
	}
	buf_add_option(b, TRACEDAT_OPTION_VERSION, TRACEDAT_WRITER,
		       sizeof(TRACEDAT_WRITER));
	buf_add_u16(b, TRACEDAT_OPTION_DONE);
}
