// SPDX-License-Identifier: GPL-2.0
/*
 * trace-cmd trace.dat version 6 writer; see tracedat-writer.h for why it
 * exists and how it survives faults, trace-cmd.dat.v6(5) for the layout.
 *
 * File layout, in write order:
 *
 *	create():  magic (first byte held back), header_page, header_event,
 *		   ftrace formats, event formats, kallsyms, printk_formats,
 *		   then a zero-filled reserve for the rest of the header,
 *		   the in-progress record in it
 *	finish():  the layout plan in the record, page-aligned per-CPU
 *		   data moved in place, saved_cmdlines, CPU count, options,
 *		   flyrecord offsets and trace clock around the record,
 *		   first magic byte, then the header's bytes over the record
 *
 * All numbers are in host byte order, which the file header declares.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <tracefs.h>

#include "base/test-phase.h"

#include <vtrace/file-io.h>
#include <vtrace/output-file.h>
#include "sinks/tracedat/tracedat-cpu-data.h"
#include "sinks/tracedat/tracedat-format.h"
#include <vtrace/tracedat-writer.h>

/*
 * Bounds of the header parts only finish() writes, for the space create()
 * reserves: a saved_cmdlines line is "PID COMM\n" (7 digits, 15 chars),
 * a CPU's stats option is well under 512 bytes, the rest under 16 KiB.
 */
#define CMDLINE_MAX_LEN 24
#define CPU_STATS_MAX_LEN 512
#define TAIL_FIXED_MAX_LEN (16 * 1024)

/*
 * Where a CPU's run of a killed recording is: in one piece, or in two
 * when the layout step was moving it (the part moved, the rest); how
 * many sub-buffers each piece may hold and how many it does.
 */
struct recovery_run {
	int fd[2];
	off_t start[2];
	unsigned long long max[2];
	unsigned long long n[2];
};

struct vt_tracedat {
	char *path;
	struct vt_output_file out;
	int fd;
	int ncpus;
	size_t page_size;
	struct tracefs_instance *instance;
	char *clock;
	off_t tail_offset;
	off_t data_base;
	struct vt_cpu_data *data;
	unsigned long long *recovered;
	struct recovery_run *runs;
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
		ret = vtrace_pwrite_all(td->fd, b->data, b->len, *off);
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

/*
 * The same section written straight from what was read: /proc/kallsyms
 * is megabytes, and copying it into the header buffer (grown by doubling)
 * cost a recording more CPU than trace-cmd's whole set-up.
 */
static int write_kallsyms(struct vt_tracedat *td, off_t *off)
{
	size_t len = 0;
	uint32_t len32;
	char *data;
	int ret;

	data = read_whole_file("/proc/kallsyms", &len);
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
	if (!ret)
		ret = write_kallsyms(td, &off);
	if (!ret) {
		add_printk_formats(&b);
		ret = buf_flush(td, &b, &off, "printk formats");
	}
	free(b.data);
	if (ret)
		return ret;

	td->tail_offset = off;
	reserve = tail_reserve(td);
	zero = calloc(1, reserve);
	if (!zero)
		return -ENOMEM;
	ret = vtrace_pwrite_all(td->fd, zero, reserve, off);
	free(zero);
	if (ret)
		return set_error(td, ret, "reserving space in %s", td->path);
	td->data_base = off + reserve;
	return 0;
}

static void free_tracedat(struct vt_tracedat *td, bool remove_files)
{
	if (remove_files)
		vtrace_output_file_discard(&td->out);
	else
		vtrace_output_file_keep(&td->out);
	vt_cpu_data_close(td->data, remove_files);
	free(td->recovered);
	free(td->runs);
	free(td->clock);
	free(td->path);
	pthread_mutex_destroy(&td->err.lock);
	free(td);
}

/* Where the in-progress record is, for a header ending at @tail. */
static off_t partial_offset(off_t tail)
{
	return (tail + TRACEDAT_PARTIAL_ALIGN - 1) &
	       ~(off_t)(TRACEDAT_PARTIAL_ALIGN - 1);
}

/* Bytes of the record with the layout step's run sizes after it. */
static size_t partial_size(int ncpus)
{
	return sizeof(struct tracedat_partial) + ncpus * sizeof(uint64_t);
}

static void fill_partial(struct vt_tracedat *td, struct tracedat_partial *p)
{
	const char *base = strrchr(td->path, '/');
	unsigned long long share;
	off_t start;

	memcpy(p->magic, TRACEDAT_PARTIAL_MAGIC, TRACEDAT_PARTIAL_MAGIC_LEN);
	p->ncpus = td->ncpus;
	p->page_size = td->page_size;
	vt_cpu_data_layout(td->data, &start, &share);
	p->data_start = start;
	p->share = share;
	snprintf(p->clock, sizeof(p->clock), "%s", td->clock);
	snprintf(p->name, sizeof(p->name), "%s", base ? base + 1 : td->path);
}

/*
 * The in-progress record, in the reserve that finish() overwrites, made
 * durable with the metadata before any data comes.
 */
static int write_partial(struct vt_tracedat *td)
{
	struct tracedat_partial p = { 0 };
	int ret;

	fill_partial(td, &p);
	ret = vtrace_pwrite_all(td->fd, &p, sizeof(p),
				partial_offset(td->tail_offset));
	if (!ret && fdatasync(td->fd) < 0)
		ret = -errno;
	if (ret)
		return set_error(td, ret, "writing %s", td->out.tmp);
	return 0;
}

static bool valid_opts(const struct vt_tracedat_opts *opts)
{
	size_t ps = opts->page_size;

	return opts->ncpus > 0 && ps >= 256 && ps <= UINT32_MAX &&
	       !(ps & (ps - 1));
}

int vtrace_tracedat_create(struct vt_tracedat **tdp, const char *path,
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
	td->out.fd = -1;
	td->ncpus = opts->ncpus;
	td->page_size = opts->page_size;
	td->instance = opts->instance;
	td->path = strdup(path);
	td->clock = tracefs_get_clock(opts->instance);
	if (!td->path || !td->clock) {
		free_tracedat(td, false);
		return -ENOMEM;
	}

	ret = vtrace_output_file_create(&td->out, td->path);
	if (ret) {
		free_tracedat(td, false);
		return ret;
	}
	td->fd = td->out.fd;
	ret = write_metadata(td, opts);
	if (!ret)
		ret = vt_cpu_data_open(&td->data, td->fd, td->out.tmp,
				       td->data_base, td->ncpus, td->page_size,
				       &td->err);
	if (!ret)
		ret = write_partial(td);
	if (ret) {
		free_tracedat(td, true);
		return ret;
	}
	*tdp = td;
	return 0;
}

int vtrace_tracedat_add_page(struct vt_tracedat *td, int cpu, const void *page,
			     size_t len)
{
	if (td->finished || cpu < 0 || cpu >= td->ncpus || len > td->page_size)
		return -EINVAL;
	return vt_cpu_data_add(td->data, cpu, page, len);
}

/**
 * vtrace_tracedat_splice_page - append one whole sub-buffer of a CPU from a pipe
 * @td: writer
 * @cpu: CPU the sub-buffer was read from, 0 .. ncpus-1
 * @pipe: read end of a pipe holding exactly the sub-buffer, page_size bytes
 * @spill: page_size bytes of memory; on failure it gets the sub-buffer
 *
 * As vtrace_tracedat_add_page(), but the sub-buffer goes from the pipe into
 * the file without being copied to memory. The pipe is left empty.
 *
 * Return: 0 or a negative errno, as vtrace_tracedat_add_page().
 */
int vtrace_tracedat_splice_page(struct vt_tracedat *td, int cpu, int pipe,
				void *spill)
{
	if (td->finished || cpu < 0 || cpu >= td->ncpus)
		return -EINVAL;
	return vt_cpu_data_splice(td->data, cpu, pipe, spill);
}

/* A recovered file has none: today's saved_cmdlines are not its own. */
static void add_cmdlines(struct vt_tracedat *td, struct out_buf *b)
{
	char *data = NULL;
	int size = 0;

	if (!td->recovered)
		data = tracefs_instance_file_read(NULL, "saved_cmdlines",
						  &size);
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

static void add_options(struct vt_tracedat *td, struct out_buf *b,
			bool cpu_stats)
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

static off_t page_align(struct vt_tracedat *td, off_t off)
{
	return (off + td->page_size - 1) & ~(off_t)(td->page_size - 1);
}

static unsigned long long cpu_bytes(struct vt_tracedat *td, int cpu)
{
	return td->recovered ? td->recovered[cpu] :
			       vt_cpu_data_bytes(td->data, cpu);
}

/*
 * Everything from saved_cmdlines to the trace clock; sets each CPU's
 * data offset in @offs.
 */
static void add_tail(struct vt_tracedat *td, struct out_buf *b, off_t *offs)
{
	char *clock = NULL;
	size_t pos;
	off_t data, record_end;
	int cpu, len;

	add_cmdlines(td, b);
	buf_add_u32(b, td->ncpus);
	add_options(td, b, true);
	buf_add(b, "flyrecord", 10);
	pos = b->len;
	for (cpu = 0; cpu < td->ncpus; cpu++) {
		buf_add_u64(b, 0);
		buf_add_u64(b, cpu_bytes(td, cpu));
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

	data = td->tail_offset + b->len;
	/* A recording's in-progress record stays until the moves are done. */
	record_end = partial_offset(td->tail_offset) + partial_size(td->ncpus);
	if (!td->recovered && data < record_end)
		data = record_end;
	data = page_align(td, data);
	for (cpu = 0; cpu < td->ncpus; cpu++) {
		offs[cpu] = data;
		memcpy(b->data + pos + cpu * 16, &data, sizeof(uint64_t));
		data += cpu_bytes(td, cpu);
	}
}

static int copy_runs(struct vt_tracedat *td, const off_t *offs);

/* The data is whole on disk: only now make the file a trace.dat. */
static int complete(struct vt_tracedat *td)
{
	char magic = TRACEDAT_MAGIC[0];
	int ret = 0;

	if (fdatasync(td->fd) < 0)
		ret = -errno;
	if (!ret)
		ret = vtrace_pwrite_all(td->fd, &magic, 1, 0);
	if (!ret && fdatasync(td->fd) < 0)
		ret = -errno;
	if (ret)
		return set_error(td, ret, "completing %s", td->path);
	return 0;
}

/* A recovered file: the header's remainder, the runs copied, the magic. */
static int write_recovered(struct vt_tracedat *td, struct out_buf *b,
			   const off_t *offs)
{
	int ret = buf_flush(td, b, &td->tail_offset, "the header");

	if (!ret)
		ret = copy_runs(td, offs);
	if (!ret)
		ret = complete(td);
	return ret;
}

/*
 * The plan of the moves, over the in-progress record: where the runs go,
 * their sizes and that nothing moved yet; durable before the first move.
 */
static int write_plan(struct vt_tracedat *td, const off_t *offs)
{
	size_t len = partial_size(td->ncpus);
	struct tracedat_partial *p;
	uint64_t *bytes;
	struct stat st;
	int cpu, ret;

	if (fstat(td->fd, &st))
		return set_error(td, -errno, "reading %s", td->out.tmp);
	p = calloc(1, len);
	if (!p)
		return -ENOMEM;
	fill_partial(td, p);
	p->dest = offs[0];
	p->progress.size = st.st_size;
	bytes = (uint64_t *)(p + 1);
	for (cpu = 0; cpu < td->ncpus; cpu++)
		bytes[cpu] = vt_cpu_data_bytes(td->data, cpu);
	ret = vtrace_pwrite_all(td->fd, p, len,
				partial_offset(td->tail_offset));
	free(p);
	if (!ret && fdatasync(td->fd) < 0)
		ret = -errno;
	if (ret)
		return set_error(td, ret, "writing %s", td->out.tmp);
	return 0;
}

/* @b's bytes that fall in [@from, @to) of the file. */
static int write_tail_part(struct vt_tracedat *td, const struct out_buf *b,
			   off_t from, off_t to)
{
	off_t end = td->tail_offset + b->len;
	int ret;

	if (to > end)
		to = end;
	if (from >= to)
		return 0;
	ret = vtrace_pwrite_all(td->fd, b->data + (from - td->tail_offset),
				to - from, from);
	if (ret)
		return set_error(td, ret, "writing the header of %s", td->path);
	return 0;
}

/*
 * A recording's file: the plan, the moves, the header's remainder but
 * where the record is, the magic, and last the record's place in one
 * write, so that the record tells where the data is until the file is
 * complete.
 */
static int lay_out(struct vt_tracedat *td, const struct out_buf *b,
		   const off_t *offs)
{
	off_t at = partial_offset(td->tail_offset);
	size_t len = partial_size(td->ncpus);
	char *last;
	int ret;

	ret = write_plan(td, offs);
	if (!ret)
		ret = vt_cpu_data_assemble(
			td->data, offs,
			at + offsetof(struct tracedat_partial, progress));
	if (!ret)
		ret = write_tail_part(td, b, td->tail_offset, at);
	if (!ret)
		ret = write_tail_part(td, b, at + len, offs[0]);
	if (!ret)
		ret = complete(td);
	if (ret)
		return ret;
	vt_test_phase("layout-header");
	last = calloc(1, len);
	if (!last)
		return -ENOMEM;
	if (td->tail_offset + (off_t)b->len > at)
		memcpy(last, b->data + (at - td->tail_offset),
		       td->tail_offset + b->len - at < len ?
			       td->tail_offset + b->len - at :
			       len);
	ret = vtrace_pwrite_all(td->fd, last, len, at);
	free(last);
	if (ret)
		return set_error(td, ret, "writing the header of %s", td->path);
	return 0;
}

/* Writes the header's remainder and puts the data after it. */
static int finish_file(struct vt_tracedat *td)
{
	struct out_buf b = { 0 };
	off_t *offs;
	int ret;

	vt_test_phase("layout");
	offs = calloc(td->ncpus, sizeof(*offs));
	if (!offs)
		return -ENOMEM;
	add_tail(td, &b, offs);
	ret = b.err;
	if (ret)
		set_error(td, ret, "building the header of %s", td->path);
	else if (td->recovered)
		ret = write_recovered(td, &b, offs);
	else
		ret = lay_out(td, &b, offs);
	free(b.data);
	free(offs);
	if (ret)
		return ret;
	/* A recording's file stays where it is when it cannot be renamed. */
	ret = vtrace_output_file_commit(&td->out, !td->recovered);
	td->fd = -1;
	if (ret)
		set_error(td, ret, "giving the finished file its name %s",
			  td->path);
	return ret;
}

int vtrace_tracedat_finish(struct vt_tracedat *td)
{
	if (td->finished)
		return -EINVAL;
	td->finished = true;
	return finish_file(td);
}

void vtrace_tracedat_close(struct vt_tracedat *td)
{
	if (td)
		free_tracedat(td, false);
}

void vtrace_tracedat_abort(struct vt_tracedat *td)
{
	if (td)
		free_tracedat(td, true);
}

const char *vtrace_tracedat_partial_path(const struct vt_tracedat *td)
{
	return td ? td->out.tmp : NULL;
}

const char *vtrace_tracedat_strerror(const struct vt_tracedat *td)
{
	return td->err.text;
}

/*
 * The whole header in one buffer: a collector puts the data section
 * after it. Nothing is written to a file, so td has no fd.
 */
static int build_head(struct vt_tracedat *td, struct out_buf *b,
		      const char *const *events)
{
	int ret;

	add_file_header(td, b);
	if (b->err)
		return b->err;
	b->data[0] = TRACEDAT_MAGIC[0];
	ret = add_header_file(td, b, "header_page");
	if (!ret)
		ret = add_header_file(td, b, "header_event");
	if (!ret)
		ret = add_event_formats(td, b, events);
	if (ret)
		return ret;
	add_kallsyms(b);
	add_printk_formats(b);
	add_cmdlines(td, b);
	buf_add_u32(b, td->ncpus);
	add_options(td, b, false);
	if (b->err)
		return set_error(td, b->err, "building the header");
	return 0;
}

int vtrace_tracedat_head(const struct vt_tracedat_opts *opts, char **data,
			 size_t *len, char *err, size_t err_len)
{
	struct out_buf b = { 0 };
	struct vt_tracedat td = {
		.fd = -1,
		.ncpus = opts->ncpus,
		.page_size = opts->page_size,
		.instance = opts->instance,
	};
	int ret;

	*data = NULL;
	*len = 0;
	if (!valid_opts(opts))
		return -EINVAL;
	pthread_mutex_init(&td.err.lock, NULL);
	td.clock = tracefs_get_clock(opts->instance);
	ret = td.clock ? build_head(&td, &b, opts->events) : -ENOMEM;
	if (ret) {
		snprintf(err, err_len, "%s",
			 td.err.text[0] ? td.err.text : strerror(-ret));
		free(b.data);
	} else {
		*data = b.data;
		*len = b.len;
	}
	free(td.clock);
	pthread_mutex_destroy(&td.err.lock);
	return ret;
}

int vtrace_tracedat_check_incomplete(const char *path)
{
	char head[TRACEDAT_MAGIC_LEN];
	int fd, ret;

	ret = vtrace_input_open(path, &fd);
	if (ret)
		return ret;
	ret = vtrace_pread_all(fd, head, sizeof(head), 0);
	close(fd);
	if (ret == -ENODATA)
		return 0;
	if (ret)
		return ret;
	return head[0] == TRACEDAT_INCOMPLETE_BYTE &&
	       !memcmp(head + 1, &TRACEDAT_MAGIC[1], TRACEDAT_MAGIC_LEN - 1);
}

/*
 * Recovery of a killed recording: its file holds the metadata, the
 * in-progress record after it, and each CPU's sub-buffers from the
 * record's offsets (or in FILE.cpuN), or, killed in the layout step,
 * where the record's plan and progress say. The header is parsed to find
 * the record, each run is read up to its first sub-buffer that is not
 * one (the zeros of a hole, or a write cut short), and a new file is
 * written as finish() would have.
 */

/* Chunk of the copies. */
#define RECOVER_CHUNK (1024 * 1024)
/* Longest system name the header parser accepts. */
#define SYSTEM_NAME_MAX 256

struct header_cursor {
	int fd;
	off_t off;
	off_t size;
	int err;
};

static void cur_read(struct header_cursor *c, void *buf, size_t len)
{
	if (c->err)
		return;
	if (c->off + (off_t)len > c->size)
		c->err = -ENODATA;
	else
		c->err = vtrace_pread_all(c->fd, buf, len, c->off);
	c->off += len;
}

static void cur_skip(struct header_cursor *c, unsigned long long len)
{
	if (!c->err && len > (unsigned long long)(c->size - c->off))
		c->err = -ENODATA;
	c->off += c->err ? 0 : len;
}

static uint64_t cur_u64(struct header_cursor *c)
{
	uint64_t v = 0;

	cur_read(c, &v, sizeof(v));
	return v;
}

static uint32_t cur_u32(struct header_cursor *c)
{
	uint32_t v = 0;

	cur_read(c, &v, sizeof(v));
	return v;
}

/* Skips a NUL-terminated string, which must equal @want when given. */
static void cur_string(struct header_cursor *c, const char *want)
{
	char buf[SYSTEM_NAME_MAX + 1] = "";
	size_t avail = c->size - c->off, len;

	if (c->err)
		return;
	len = avail < sizeof(buf) - 1 ? avail : sizeof(buf) - 1;
	c->err = vtrace_pread_all(c->fd, buf, len, c->off);
	if (!c->err &&
	    (strnlen(buf, len) == len || (want && strcmp(buf, want))))
		c->err = -EINVAL;
	c->off += strlen(buf) + 1;
}

/* Sections of "u64 size, data", @n of them; u32 or u64 counts. */
static void cur_skip_formats(struct header_cursor *c, uint32_t n)
{
	while (n-- && !c->err)
		cur_skip(c, cur_u64(c));
}

/* The offset of the in-progress record, or a negative errno. */
static off_t find_partial(struct header_cursor *c, int *long_size)
{
	char head[TRACEDAT_MAGIC_LEN + 2];
	uint32_t n;
	uint8_t ls;

	cur_read(c, head, sizeof(head));
	/* The magic is complete just before the record's place is cleared. */
	if (!c->err &&
	    ((head[0] != TRACEDAT_INCOMPLETE_BYTE &&
	      head[0] != TRACEDAT_MAGIC[0]) ||
	     memcmp(head + 1, &TRACEDAT_MAGIC[1], TRACEDAT_MAGIC_LEN - 1) ||
	     strcmp(head + TRACEDAT_MAGIC_LEN, TRACEDAT_VERSION)))
		c->err = -EINVAL;
	cur_skip(c, 1); /* endianness: the host's, as the writer's */
	cur_read(c, &ls, 1);
	cur_skip(c, 4); /* page size, also in the record */
	*long_size = ls;
	if (!c->err && ls != 4 && ls != 8)
		c->err = -EINVAL;
	cur_string(c, "header_page");
	cur_skip(c, cur_u64(c));
	cur_string(c, "header_event");
	cur_skip(c, cur_u64(c));
	cur_skip_formats(c, cur_u32(c));
	for (n = cur_u32(c); n-- && !c->err;) {
		cur_string(c, NULL);
		cur_skip_formats(c, cur_u32(c));
	}
	cur_skip(c, cur_u32(c)); /* kallsyms */
	cur_skip(c, cur_u32(c)); /* printk formats */
	return c->err ?: c->off;
}

/*
 * Whether @hdr starts a sub-buffer: a commit that fits in it, and not the
 * zeros of a hole (an empty sub-buffer still has its time stamp).
 */
static bool is_subbuf(const unsigned char *hdr, int long_size, size_t page_size)
{
	uint64_t ts, commit = 0;
	uint32_t c32;
	size_t room = page_size - 8 - long_size;

	memcpy(&ts, hdr, 8);
	if (long_size == 8) {
		memcpy(&commit, hdr + 8, 8);
	} else {
		memcpy(&c32, hdr + 8, 4);
		commit = c32;
	}
	if ((commit & SUBBUF_COMMIT_SIGN_EXTENDED) ==
	    SUBBUF_COMMIT_SIGN_EXTENDED)
		commit &= ~SUBBUF_COMMIT_SIGN_EXTENDED | SUBBUF_COMMIT_FLAGS;
	if (commit & SUBBUF_MISSED_STORED)
		room -= long_size;
	if (!ts && !commit)
		return false;
	commit &= ~SUBBUF_COMMIT_FLAGS;
	return commit <= room;
}

/* Sub-buffers of a run, up to the first one that is not. */
static unsigned long long count_subbufs(int fd, off_t start, int long_size,
					size_t page_size,
					unsigned long long max)
{
	unsigned char hdr[16];
	unsigned long long n;

	for (n = 0; n < max; n++)
		if (vtrace_pread_all(fd, hdr, 8 + long_size,
				     start + (off_t)(n * page_size)) ||
		    !is_subbuf(hdr, long_size, page_size))
			break;
	return n;
}

static int copy_range(struct vt_tracedat *td, int src, off_t from, off_t to,
		      unsigned long long len, char *chunk)
{
	size_t n;
	int ret;

	for (; len; len -= n, from += n, to += n) {
		n = len < RECOVER_CHUNK ? len : RECOVER_CHUNK;
		ret = vtrace_pread_all(src, chunk, n, from);
		if (!ret)
			ret = vtrace_pwrite_all(td->fd, chunk, n, to);
		if (ret)
			return set_error(td, ret, "copying into %s", td->path);
	}
	return 0;
}

static int copy_runs(struct vt_tracedat *td, const off_t *offs)
{
	char *chunk = malloc(RECOVER_CHUNK);
	struct recovery_run *r;
	int cpu, ret = 0;

	if (!chunk)
		return -ENOMEM;
	for (cpu = 0; cpu < td->ncpus && !ret; cpu++) {
		r = &td->runs[cpu];
		ret = copy_range(td, r->fd[0], r->start[0], offs[cpu],
				 r->n[0] * td->page_size, chunk);
		if (!ret && r->n[1])
			ret = copy_range(td, r->fd[1], r->start[1],
					 offs[cpu] + r->n[0] * td->page_size,
					 r->n[1] * td->page_size, chunk);
	}
	free(chunk);
	if (!ret && ftruncate(td->fd, offs[td->ncpus - 1] +
					      td->recovered[td->ncpus - 1]))
		ret = set_error(td, -errno, "truncating %s", td->path);
	return ret;
}

/* FILE.cpuN, or -1 when it is not there; a negative errno on failure. */
static int open_cpu_file(struct vt_tracedat *td, const char *in, int cpu)
{
	char *name;
	int fd;

	if (asprintf(&name, "%s.cpu%d", in, cpu) < 0)
		return -ENOMEM;
	fd = open(name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	free(name);
	if (fd < 0 && errno != ENOENT)
		return set_error(td, -errno, "opening %s.cpu%d", in, cpu);
	return fd < 0 ? -1 : fd;
}

/* A killed recording's runs, each whole from its start in the share. */
static int runs_recording(struct vt_tracedat *td, int in_fd, const char *in,
			  const struct tracedat_partial *p)
{
	struct recovery_run *r;
	int cpu, fd;

	for (cpu = 0; cpu < td->ncpus; cpu++) {
		r = &td->runs[cpu];
		r->fd[0] = in_fd;
		r->start[0] = p->data_start + cpu * p->share;
		r->max[0] = p->share / td->page_size;
		if (p->share)
			continue;
		fd = open_cpu_file(td, in, cpu);
		if (fd < -1)
			return fd;
		/* Without FILE.cpuN no data of that CPU reached it. */
		r->fd[0] = fd;
		r->start[0] = 0;
		r->max[0] = fd < 0 ? 0 : ULLONG_MAX;
	}
	return 0;
}

static void set_piece(struct recovery_run *r, int i, int fd, off_t start,
		      unsigned long long bytes, size_t page_size)
{
	r->fd[i] = fd;
	r->start[i] = start;
	r->max[i] = bytes / page_size;
}

/*
 * A recording killed in the layout step, runs in place: CPUs before
 * @moved are at their places, CPU @moved's first @done bytes too and the
 * rest at its start less @shift, as the later CPUs' runs. A collapse
 * done but not recorded shows in the file's size.
 */
static void runs_in_place(struct vt_tracedat *td, int in_fd, off_t size,
			  const struct tracedat_partial *p,
			  const uint64_t *bytes, const off_t *offs,
			  struct vt_tracedat_recovery *rec)
{
	struct tracedat_layout_progress pr = p->progress;
	size_t ps = td->page_size;
	off_t start, gap;
	int cpu;

	/* Runs that had nothing to move are not recorded as moved. */
	for (gap = 0; pr.moved < p->ncpus && !pr.done && !gap; pr.moved++) {
		gap = p->data_start + pr.moved * p->share - pr.shift -
		      offs[pr.moved];
		if (!bytes[pr.moved])
			gap = 0;
		else if (gap && size != (off_t)pr.size - gap)
			break;
		pr.shift += gap;
	}
	for (cpu = 0; cpu < td->ncpus; cpu++) {
		start = p->data_start + cpu * p->share - pr.shift;
		if (cpu < (int)pr.moved) {
			set_piece(&td->runs[cpu], 0, in_fd, offs[cpu],
				  bytes[cpu], ps);
		} else if (cpu == (int)pr.moved && pr.done <= bytes[cpu]) {
			set_piece(&td->runs[cpu], 0, in_fd, offs[cpu], pr.done,
				  ps);
			set_piece(&td->runs[cpu], 1, in_fd, start + pr.done,
				  bytes[cpu] - pr.done, ps);
		} else {
			set_piece(&td->runs[cpu], 0, in_fd, start, bytes[cpu],
				  ps);
		}
	}
	rec->layout_moved = pr.moved;
	if (pr.moved < p->ncpus && pr.done) {
		rec->layout_done = pr.done;
		rec->layout_bytes = bytes[pr.moved];
	}
}

/*
 * A recording killed in the layout step, runs in FILE.cpuN: each one's
 * size is what is still to move (its end is moved first); a CPU without
 * its file is in place.
 */
static int runs_in_files(struct vt_tracedat *td, int in_fd, const char *in,
			 const uint64_t *bytes, const off_t *offs,
			 struct vt_tracedat_recovery *rec)
{
	struct recovery_run *r;
	unsigned long long left;
	struct stat st;
	int cpu, fd;

	rec->layout_moved = td->ncpus;
	for (cpu = 0; cpu < td->ncpus; cpu++) {
		r = &td->runs[cpu];
		fd = open_cpu_file(td, in, cpu);
		if (fd < -1)
			return fd;
		left = 0;
		if (fd >= 0 && fstat(fd, &st) == 0 && st.st_size > 0)
			left = st.st_size;
		if (left > bytes[cpu])
			left = bytes[cpu];
		set_piece(r, 0, fd, 0, left, td->page_size);
		set_piece(r, 1, in_fd, offs[cpu] + left, bytes[cpu] - left,
			  td->page_size);
		if (fd < 0)
			r->fd[0] = in_fd;
		if (left && rec->layout_moved == td->ncpus) {
			rec->layout_moved = cpu;
			if (left < bytes[cpu]) {
				rec->layout_done = bytes[cpu] - left;
				rec->layout_bytes = bytes[cpu];
			}
		}
	}
	return 0;
}

static int runs_layout(struct vt_tracedat *td, int in_fd, const char *in,
		       off_t size, const struct tracedat_partial *p,
		       const uint64_t *bytes, struct vt_tracedat_recovery *rec)
{
	off_t *offs = calloc(td->ncpus, sizeof(*offs));
	int cpu, ret = 0;

	if (!offs)
		return -ENOMEM;
	offs[0] = p->dest;
	for (cpu = 1; cpu < td->ncpus; cpu++)
		offs[cpu] = offs[cpu - 1] + bytes[cpu - 1];
	if (p->share)
		runs_in_place(td, in_fd, size, p, bytes, offs, rec);
	else
		ret = runs_in_files(td, in_fd, in, bytes, offs, rec);
	free(offs);
	return ret;
}

/* Each CPU's run: where it is and how many sub-buffers it holds. */
static int find_runs(struct vt_tracedat *td, int in_fd, const char *in,
		     off_t size, const struct tracedat_partial *p,
		     const uint64_t *bytes, int long_size,
		     struct vt_tracedat_recovery *rec)
{
	struct recovery_run *r;
	int cpu, ret;

	td->runs = calloc(td->ncpus, sizeof(*td->runs));
	td->recovered = calloc(td->ncpus, sizeof(*td->recovered));
	if (!td->runs || !td->recovered)
		return -ENOMEM;
	for (cpu = 0; cpu < td->ncpus; cpu++) {
		td->runs[cpu].fd[0] = -1;
		td->runs[cpu].fd[1] = -1;
	}
	rec->layout_moved = -1;
	if (p->dest)
		ret = runs_layout(td, in_fd, in, size, p, bytes, rec);
	else
		ret = runs_recording(td, in_fd, in, p);
	if (ret)
		return ret;
	for (cpu = 0; cpu < td->ncpus; cpu++) {
		r = &td->runs[cpu];
		if (r->fd[0] >= 0)
			r->n[0] = count_subbufs(r->fd[0], r->start[0],
						long_size, td->page_size,
						r->max[0]);
		if (r->fd[1] >= 0 && r->n[0] == r->max[0])
			r->n[1] = count_subbufs(r->fd[1], r->start[1],
						long_size, td->page_size,
						r->max[1]);
		td->recovered[cpu] = (r->n[0] + r->n[1]) * td->page_size;
	}
	return 0;
}

static void close_runs(struct vt_tracedat *td, int in_fd)
{
	int cpu;

	for (cpu = 0; td->runs && cpu < td->ncpus; cpu++)
		if (td->runs[cpu].fd[0] >= 0 && td->runs[cpu].fd[0] != in_fd)
			close(td->runs[cpu].fd[0]);
}

/* The header up to the record, as the new file's start. */
static int copy_header(struct vt_tracedat *td, int in_fd)
{
	char *chunk = malloc(RECOVER_CHUNK);
	int ret;

	if (!chunk)
		return -ENOMEM;
	ret = copy_range(td, in_fd, 0, 0, td->tail_offset, chunk);
	free(chunk);
	return ret;
}

/* The layout step's plan: sane sizes, after the record. */
static bool valid_plan(const struct tracedat_partial *p, const uint64_t *bytes,
		       off_t at)
{
	uint32_t cpu;

	if (p->dest < at + partial_size(p->ncpus) || p->dest > 1ULL << 60 ||
	    p->dest % p->page_size || p->progress.moved > p->ncpus)
		return false;
	for (cpu = 0; cpu < p->ncpus; cpu++)
		if (bytes[cpu] % p->page_size || bytes[cpu] > 1ULL << 50)
			return false;
	return true;
}

static int read_partial(int fd, const char *in, struct tracedat_partial *p,
			uint64_t **bytes, off_t *at, off_t *size,
			int *long_size, char *msg, size_t msg_size)
{
	struct header_cursor c = { .fd = fd };
	struct stat st;
	off_t off;
	int ret;

	if (fstat(fd, &st))
		return -errno;
	if (!S_ISREG(st.st_mode)) {
		snprintf(msg, msg_size, "%s: not a regular file", in);
		return -EINVAL;
	}
	c.size = st.st_size;
	off = find_partial(&c, long_size);
	ret = off < 0 ?
		      (int)off :
		      vtrace_pread_all(fd, p, sizeof(*p), partial_offset(off));
	if (!ret && memcmp(p->magic, TRACEDAT_PARTIAL_MAGIC,
			   TRACEDAT_PARTIAL_MAGIC_LEN))
		ret = -EINVAL;
	if (!ret &&
	    (!p->ncpus || p->ncpus > 65536 || p->page_size < 256 ||
	     p->page_size & (p->page_size - 1) ||
	     !memchr(p->clock, 0, sizeof(p->clock)) ||
	     !memchr(p->name, 0, sizeof(p->name)) || strchr(p->name, '/')))
		ret = -EINVAL;
	if (!ret && p->dest) {
		*bytes = calloc(p->ncpus, sizeof(**bytes));
		if (!*bytes)
			return -ENOMEM;
		ret = vtrace_pread_all(fd, *bytes, p->ncpus * sizeof(**bytes),
				       partial_offset(off) + sizeof(*p));
		if (!ret && !valid_plan(p, *bytes, partial_offset(off)))
			ret = -EINVAL;
	}
	if (ret == -EINVAL || ret == -ENODATA) {
		if (vtrace_tracedat_check_incomplete(in) == 1)
			snprintf(
				msg, msg_size,
				"%s: an unfinished trace.dat without vtrace's in-progress record: not a file vtrace can recover",
				in);
		else
			snprintf(
				msg, msg_size,
				"%s: not a recording vtrace record left unfinished (a complete trace.dat, or another file)",
				in);
		return -EINVAL;
	}
	*at = off;
	*size = st.st_size;
	return ret;
}

/* Next to @in, the name the recording was to give its file. */
static char *default_output(const char *in, const char *name)
{
	const char *slash = strrchr(in, '/');
	char *out;

	if (asprintf(&out, "%.*s%s", slash ? (int)(slash - in + 1) : 0, in,
		     name) < 0)
		return NULL;
	return out;
}

static int recover_into(struct vt_tracedat *td, int in_fd, const char *in,
			off_t size, const struct tracedat_partial *p,
			const uint64_t *bytes, int long_size,
			struct vt_tracedat_recovery *r)
{
	int ret;

	ret = find_runs(td, in_fd, in, size, p, bytes, long_size, r);
	if (!ret)
		ret = vtrace_output_file_create(&td->out, td->path);
	if (ret == -EINVAL || ret == -EISDIR)
		return set_error(td, ret, "%s is not a regular file", td->path);
	if (ret)
		return set_error(td, ret, "creating %s", td->path);
	td->fd = td->out.fd;
	ret = copy_header(td, in_fd);
	if (!ret)
		ret = finish_file(td);
	return ret;
}

int vtrace_tracedat_recover(const char *in, const char *out,
			    struct vt_tracedat_recovery *r, char *msg,
			    size_t msg_size)
{
	struct tracedat_partial p;
	struct vt_tracedat *td;
	uint64_t *bytes = NULL;
	int in_fd, long_size = 8, cpu, ret;
	off_t at = 0, size = 0;

	memset(r, 0, sizeof(*r));
	msg[0] = 0;
	in_fd = open(in, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (in_fd < 0) {
		ret = -errno;
		snprintf(msg, msg_size, "%s: %s", in, strerror(errno));
		return ret;
	}
	ret = read_partial(in_fd, in, &p, &bytes, &at, &size, &long_size, msg,
			   msg_size);
	td = ret ? NULL : calloc(1, sizeof(*td));
	if (!ret && !td)
		ret = -ENOMEM;
	if (ret) {
		free(bytes);
		close(in_fd);
		if (!msg[0])
			snprintf(msg, msg_size, "%s: %s", in, strerror(-ret));
		return ret;
	}
	pthread_mutex_init(&td->err.lock, NULL);
	td->out.fd = -1;
	td->ncpus = p.ncpus;
	td->page_size = p.page_size;
	td->tail_offset = at;
	td->clock = strdup(p.clock);
	td->path = out ? strdup(out) : default_output(in, p.name);
	if (!td->clock || !td->path)
		ret = -ENOMEM;
	else if (!out && !access(td->path, F_OK))
		ret = set_error(td, -EEXIST,
				"%s exists (choose another name with -o)",
				td->path);
	if (!ret)
		ret = recover_into(td, in_fd, in, size, &p, bytes, long_size,
				   r);
	free(bytes);
	close_runs(td, in_fd);
	close(in_fd);
	if (ret) {
		snprintf(msg, msg_size, "%s",
			 td->err.text[0] ? td->err.text : strerror(-ret));
	} else {
		r->ncpus = td->ncpus;
		r->page_size = td->page_size;
		r->output = td->path;
		td->path = NULL;
		r->subbufs = calloc(td->ncpus, sizeof(*r->subbufs));
		for (cpu = 0; r->subbufs && cpu < td->ncpus; cpu++)
			r->subbufs[cpu] = td->recovered[cpu] / td->page_size;
		if (!r->subbufs)
			ret = -ENOMEM;
	}
	free_tracedat(td, true);
	return ret;
}
