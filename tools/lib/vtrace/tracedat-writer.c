// SPDX-License-Identifier: GPL-2.0
/*
 * trace-cmd trace.dat version 6 writer; see tracedat-writer.h for why it
 * exists and how it survives faults, trace-cmd.dat.v6(5) for the layout.
 *
 * File layout, in write order:
 *
 *	create():  magic (first byte held back), header_page, header_event,
 *		   ftrace formats, event formats, kallsyms, printk_formats,
 *		   then a zero-filled reserve for the rest of the header
 *	finish():  saved_cmdlines, CPU count, options, flyrecord offsets,
 *		   trace clock, page-aligned per-CPU data, first magic byte
 *
 * All numbers are in host byte order, which the file header declares.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <tracefs.h>

#include "file-io.h"
#include "output-file.h"
#include "tracedat-cpu-data.h"
#include "tracedat-format.h"
#include "tracedat-writer.h"

/*
 * Bounds of the header parts only finish() writes, for the space create()
 * reserves: a saved_cmdlines line is "PID COMM\n" (7 digits, 15 chars),
 * a CPU's stats option is well under 512 bytes, the rest under 16 KiB.
 */
#define CMDLINE_MAX_LEN 24
#define CPU_STATS_MAX_LEN 512
#define TAIL_FIXED_MAX_LEN (16 * 1024)

struct vt_tracedat {
	char *path;
	int fd;
	int ncpus;
	size_t page_size;
	struct tracefs_instance *instance;
	char *clock;
	off_t tail_offset;
	off_t data_base;
	struct vt_cpu_data *data;
	bool finished;
	struct vt_tracedat_err err;
};

/* Every failure of the writer is described in td->err. */
#define set_error(td, ...) vt_tracedat_err_set(&(td)->err, __VA_ARGS__)

/*
 * The header is built in memory section by section and written with one
 * pwrite per section; struct out_buf is that growing buffer.
 */
struct out_buf {
	char *data;
	size_t len;
	size_t size;
	int err;
};

static void buf_add(struct out_buf *b, const void *data, size_t len)
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
	buf_add(b, &v, sizeof(v));
}

static void buf_add_u32(struct out_buf *b, uint32_t v)
{
	buf_add(b, &v, sizeof(v));
}

static void buf_add_u64(struct out_buf *b, uint64_t v)
{
	buf_add(b, &v, sizeof(v));
}

static void buf_add_str(struct out_buf *b, const char *s)
{
	buf_add(b, s, strlen(s) + 1);
}

static void buf_add_option(struct out_buf *b, uint16_t id, const void *data,
			   uint32_t len)
{
	buf_add_u16(b, id);
	buf_add_u32(b, len);
	buf_add(b, data, len);
}

/* Appends @b at the file's current end of header and empties it. */
static int buf_flush(struct vt_tracedat *td, struct out_buf *b, off_t *off,
		     const char *what)
{
	int ret = b->err;

	if (!ret)
		ret = vt_pwrite_all(td->fd, b->data, b->len, *off);
	if (ret)
		return set_error(td, ret, "writing %s of %s", what, td->path);
	*off += b->len;
	b->len = 0;
	return 0;
}

static char *read_whole_file(const char *path, size_t *lenp)
{
	size_t len = 0, size = 1 << 20;
	char *data, *p;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	data = malloc(size);
	while (data) {
		if (len == size) {
			size *= 2;
			p = realloc(data, size);
			if (!p) {
				free(data);
				data = NULL;
				errno = ENOMEM;
				break;
			}
			data = p;
		}
		n = read(fd, data + len, size - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			free(data);
			data = NULL;
			break;
		}
		if (n == 0)
			break;
		len += n;
	}
	close(fd);
	*lenp = len;
	return data;
}

static int add_header_file(struct vt_tracedat *td, struct out_buf *b,
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
	buf_add_u64(b, size);
	buf_add(b, data, size);
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
	buf_add_u64(b, size);
	buf_add(b, data, size);
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
	buf_add_u32(b, i);
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
static int add_event_formats(struct vt_tracedat *td, struct out_buf *b,
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
	buf_add_u32(b, n);
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

static void add_file_header(struct vt_tracedat *td, struct out_buf *b)
{
	uint16_t endian = 1;
	char byte;

	buf_add(b, TRACEDAT_MAGIC, TRACEDAT_MAGIC_LEN);
	b->data[0] = TRACEDAT_INCOMPLETE_BYTE;
	buf_add_str(b, TRACEDAT_VERSION);
	byte = *(char *)&endian ? 0 : 1;
	buf_add(b, &byte, 1);
	byte = sizeof(long);
	buf_add(b, &byte, 1);
	buf_add_u32(b, td->page_size);
}

/* /proc/kallsyms, or an empty section where it cannot be read. */
static void add_kallsyms(struct out_buf *b)
{
	size_t len = 0;
	char *data;

	data = read_whole_file("/proc/kallsyms", &len);
	if (!data || len > UINT32_MAX)
		len = 0;
	buf_add_u32(b, len);
	buf_add(b, data, len);
	free(data);
}

static void add_printk_formats(struct out_buf *b)
{
	char *data;
	int size = 0;

	data = tracefs_instance_file_read(NULL, "printk_formats", &size);
	if (!data)
		size = 0;
	buf_add_u32(b, size);
	buf_add(b, data, size);
	free(data);
}

/*
 * Space for the rest of the header and the padding after it, so that
 * finish() needs no new disk space before the data moves free some.
 */
static size_t tail_reserve(struct vt_tracedat *td)
{
	long long entries = 0;

	if (tracefs_instance_file_read_number(NULL, "saved_cmdlines_size",
					      &entries) ||
	    entries < 0 || entries > 1 << 20)
		entries = 1 << 20;
	return TAIL_FIXED_MAX_LEN + entries * CMDLINE_MAX_LEN +
	       td->ncpus * CPU_STATS_MAX_LEN + td->page_size;
}

static int write_metadata(struct vt_tracedat *td,
			  const struct vt_tracedat_opts *opts)
{
	struct out_buf b = { 0 };
	size_t reserve;
	char *zero;
	off_t off = 0;
	int ret;

	add_file_header(td, &b);
	ret = add_header_file(td, &b, "header_page");
	if (!ret)
		ret = add_header_file(td, &b, "header_event");
	if (!ret)
		ret = buf_flush(td, &b, &off, "the header");
	if (!ret)
		ret = add_event_formats(td, &b, opts->events);
	if (!ret)
		ret = buf_flush(td, &b, &off, "the event formats");
	if (!ret) {
		add_kallsyms(&b);
		add_printk_formats(&b);
		ret = buf_flush(td, &b, &off, "kallsyms and printk formats");
	}
	free(b.data);
	if (ret)
		return ret;

	td->tail_offset = off;
	reserve = tail_reserve(td);
	zero = calloc(1, reserve);
	if (!zero)
		return -ENOMEM;
	ret = vt_pwrite_all(td->fd, zero, reserve, off);
	free(zero);
	if (ret)
		return set_error(td, ret, "reserving space in %s", td->path);
	td->data_base = off + reserve;
	return 0;
}

static void free_tracedat(struct vt_tracedat *td, bool remove_files)
{
	if (td->fd >= 0)
		close(td->fd);
	if (remove_files && td->fd >= 0)
		unlink(td->path);
	vt_cpu_data_close(td->data, remove_files);
	free(td->clock);
	free(td->path);
	pthread_mutex_destroy(&td->err.lock);
	free(td);
}

static bool valid_opts(const struct vt_tracedat_opts *opts)
{
	size_t ps = opts->page_size;

	return opts->ncpus > 0 && ps >= 256 && ps <= UINT32_MAX &&
	       !(ps & (ps - 1));
}

int vt_tracedat_create(struct vt_tracedat **tdp, const char *path,
		       const struct vt_tracedat_opts *opts)
{
	struct vt_tracedat *td;
	int ret;

	*tdp = NULL;
	if (!path || !opts || !valid_opts(opts))
		return -EINVAL;
	td = calloc(1, sizeof(*td));
	if (!td)
		return -ENOMEM;
	pthread_mutex_init(&td->err.lock, NULL);
	td->fd = -1;
	td->ncpus = opts->ncpus;
	td->page_size = opts->page_size;
	td->instance = opts->instance;
	td->path = strdup(path);
	td->clock = tracefs_get_clock(opts->instance);
	if (!td->path || !td->clock) {
		free_tracedat(td, false);
		return -ENOMEM;
	}

	td->fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC,
		      VT_OUTPUT_FILE_MODE);
	if (td->fd < 0) {
		ret = -errno;
		free_tracedat(td, false);
		return ret;
	}
	ret = write_metadata(td, opts);
	if (!ret)
		ret = vt_cpu_data_open(&td->data, td->fd, td->path,
				       td->data_base, td->ncpus, td->page_size,
				       &td->err);
	if (ret) {
		free_tracedat(td, true);
		return ret;
	}
	*tdp = td;
	return 0;
}

int vt_tracedat_add_page(struct vt_tracedat *td, int cpu, const void *page,
			 size_t len)
{
	if (td->finished || cpu < 0 || cpu >= td->ncpus || len > td->page_size)
		return -EINVAL;
	return vt_cpu_data_add(td->data, cpu, page, len);
}

static void add_cmdlines(struct out_buf *b)
{
	char *data;
	int size = 0;

	data = tracefs_instance_file_read(NULL, "saved_cmdlines", &size);
	if (!data)
		size = 0;
	buf_add_u64(b, size);
	buf_add(b, data, size);
	free(data);
}

/* "CPU: N" and the buffer's own counters, which report --stat shows. */
static void add_cpu_stats(struct vt_tracedat *td, struct out_buf *b)
{
	char file[64];
	char *stats, *text;
	int cpu, len;

	for (cpu = 0; cpu < td->ncpus; cpu++) {
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

static void add_options(struct vt_tracedat *td, struct out_buf *b)
{
	struct utsname u;
	char *text;
	int len;

	buf_add(b, "options  ", 10);
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
	add_cpu_stats(td, b);
	if (!uname(&u)) {
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

static off_t page_align(struct vt_tracedat *td, off_t off)
{
	return (off + td->page_size - 1) & ~(off_t)(td->page_size - 1);
}

/*
 * Everything from saved_cmdlines to the trace clock; sets each CPU's
 * data offset in @offs.
 */
static void add_tail(struct vt_tracedat *td, struct out_buf *b, off_t *offs)
{
	char *clock = NULL;
	size_t pos;
	off_t data;
	int cpu, len;

	add_cmdlines(b);
	buf_add_u32(b, td->ncpus);
	add_options(td, b);
	buf_add(b, "flyrecord", 10);
	pos = b->len;
	for (cpu = 0; cpu < td->ncpus; cpu++) {
		buf_add_u64(b, 0);
		buf_add_u64(b, vt_cpu_data_bytes(td->data, cpu));
	}
	len = asprintf(&clock, "[%s]", td->clock);
	if (len < 0) {
		b->err = -ENOMEM;
		return;
	}
	buf_add_u64(b, len);
	buf_add(b, clock, len);
	free(clock);
	if (b->err)
		return;

	data = page_align(td, td->tail_offset + b->len);
	for (cpu = 0; cpu < td->ncpus; cpu++) {
		offs[cpu] = data;
		memcpy(b->data + pos + cpu * 16, &data, sizeof(uint64_t));
		data += vt_cpu_data_bytes(td->data, cpu);
	}
}

/* Writes the header's remainder, puts the data after it, then the magic. */
static int finish_file(struct vt_tracedat *td)
{
	struct out_buf b = { 0 };
	char magic = TRACEDAT_MAGIC[0];
	off_t *offs;
	int ret;

	offs = calloc(td->ncpus, sizeof(*offs));
	if (!offs)
		return -ENOMEM;
	add_tail(td, &b, offs);
	ret = buf_flush(td, &b, &td->tail_offset, "the header");
	free(b.data);
	if (!ret)
		ret = vt_cpu_data_assemble(td->data, offs);
	free(offs);
	if (ret)
		return ret;

	if (fdatasync(td->fd) < 0)
		return set_error(td, -errno, "completing %s", td->path);
	/* The file is whole on disk: only now make it a trace.dat. */
	ret = vt_pwrite_all(td->fd, &magic, 1, 0);
	if (!ret && fdatasync(td->fd) < 0)
		ret = -errno;
	if (ret)
		set_error(td, ret, "completing %s", td->path);
	return ret;
}

int vt_tracedat_finish(struct vt_tracedat *td)
{
	if (td->finished)
		return -EINVAL;
	td->finished = true;
	return finish_file(td);
}

void vt_tracedat_close(struct vt_tracedat *td)
{
	if (td)
		free_tracedat(td, false);
}

void vt_tracedat_abort(struct vt_tracedat *td)
{
	if (td)
		free_tracedat(td, true);
}

const char *vt_tracedat_strerror(const struct vt_tracedat *td)
{
	return td->err.text;
}

int vt_tracedat_check_incomplete(const char *path)
{
	char head[TRACEDAT_MAGIC_LEN];
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = vt_pread_all(fd, head, sizeof(head), 0);
	close(fd);
	if (ret == -ENODATA)
		return 0;
	if (ret)
		return ret;
	return head[0] == TRACEDAT_INCOMPLETE_BYTE &&
	       !memcmp(head + 1, &TRACEDAT_MAGIC[1], TRACEDAT_MAGIC_LEN - 1);
}
