// SPDX-License-Identifier: GPL-2.0
/*
 * trace-cmd trace.dat version 6 writer; see tracedat-writer.h for why it
 * exists and how it survives faults, trace-cmd.dat.v6(5) for the layout.
 * The metadata, the network head and the recovery are apart
 * (tracedat-local.h).
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
#include "sinks/tracedat/tracedat-local.h"

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

	vt_td_add_file_header(td, &b);
	ret = vt_td_add_header_file(td, &b, "header_page");
	if (!ret)
		ret = vt_td_add_header_file(td, &b, "header_event");
	if (!ret)
		ret = vt_td_buf_flush(td, &b, &off, "the header");
	if (!ret)
		ret = vt_td_add_event_formats(td, &b, opts->events);
	if (!ret)
		ret = vt_td_buf_flush(td, &b, &off, "the event formats");
	if (!ret)
		ret = vt_td_write_kallsyms(td, &off);
	if (!ret) {
		vt_td_add_printk_formats(&b);
		ret = vt_td_buf_flush(td, &b, &off, "printk formats");
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

void vt_td_free_tracedat(struct vt_tracedat *td, bool remove_files)
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
off_t vt_td_partial_offset(off_t tail)
{
	return (tail + TRACEDAT_PARTIAL_ALIGN - 1) &
	       ~(off_t)(TRACEDAT_PARTIAL_ALIGN - 1);
}

/* Bytes of the record with the layout step's run sizes after it. */
size_t vt_td_partial_size(int ncpus)
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
				vt_td_partial_offset(td->tail_offset));
	if (!ret && fdatasync(td->fd) < 0)
		ret = -errno;
	if (ret)
		return set_error(td, ret, "writing %s", td->out.tmp);
	return 0;
}

bool vt_td_valid_opts(const struct vt_tracedat_opts *opts)
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
	if (!path || !opts || !vt_td_valid_opts(opts))
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
		vt_td_free_tracedat(td, false);
		return -ENOMEM;
	}

	ret = vtrace_output_file_create(&td->out, td->path);
	if (ret) {
		vt_td_free_tracedat(td, false);
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
		vt_td_free_tracedat(td, true);
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
 * vtrace_tracedat_splice_pages - append whole sub-buffers of a CPU from a pipe
 * @td: writer
 * @cpu: CPU they were read from, 0 .. ncpus-1
 * @pipe: read end of a pipe holding exactly the sub-buffers
 * @len: their bytes, a whole number of page_size
 * @spill: @len bytes of memory; on failure it gets those not stored
 * @stored: on failure, set to the bytes of the leading sub-buffers stored
 *
 * As vtrace_tracedat_add_page() for each, but they go from the pipe into
 * the file without being copied to memory. The pipe is left empty. On
 * failure (a full disk) the whole sub-buffers the file took before it are
 * stored, and the rest are in @spill, each at its offset in the batch.
 *
 * Return: 0 or a negative errno, as vtrace_tracedat_add_page(); -EINVAL
 * when @len is not a whole number of pages.
 */
int vtrace_tracedat_splice_pages(struct vt_tracedat *td, int cpu, int pipe,
				 size_t len, void *spill, size_t *stored)
{
	*stored = 0;
	if (td->finished || cpu < 0 || cpu >= td->ncpus)
		return -EINVAL;
	return vt_cpu_data_splice(td->data, cpu, pipe, len, spill, stored);
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

	vt_td_add_cmdlines(td, b);
	vt_td_buf_add_u32(b, td->ncpus);
	vt_td_add_options(td, b, true);
	vt_td_buf_add(b, "flyrecord", 10);
	pos = b->len;
	for (cpu = 0; cpu < td->ncpus; cpu++) {
		vt_td_buf_add_u64(b, 0);
		vt_td_buf_add_u64(b, cpu_bytes(td, cpu));
	}
	len = asprintf(&clock, "[%s]", td->clock);
	if (len < 0) {
		b->err = -ENOMEM;
		return;
	}
	vt_td_buf_add_u64(b, len);
	vt_td_buf_add(b, clock, len);
	free(clock);
	if (b->err)
		return;

	data = td->tail_offset + b->len;
	/* A recording's in-progress record stays until the moves are done. */
	record_end = vt_td_partial_offset(td->tail_offset) +
		     vt_td_partial_size(td->ncpus);
	if (!td->recovered && data < record_end)
		data = record_end;
	data = page_align(td, data);
	for (cpu = 0; cpu < td->ncpus; cpu++) {
		offs[cpu] = data;
		memcpy(b->data + pos + cpu * 16, &data, sizeof(uint64_t));
		data += cpu_bytes(td, cpu);
	}
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
		ret = vt_td_copy_range(td, r->fd[0], r->start[0], offs[cpu],
				       r->n[0] * td->page_size, chunk);
		if (!ret && r->n[1])
			ret = vt_td_copy_range(td, r->fd[1], r->start[1],
					       offs[cpu] +
						       r->n[0] * td->page_size,
					       r->n[1] * td->page_size, chunk);
	}
	free(chunk);
	if (!ret && ftruncate(td->fd, offs[td->ncpus - 1] +
					      td->recovered[td->ncpus - 1]))
		ret = set_error(td, -errno, "truncating %s", td->path);
	return ret;
}

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
	int ret = vt_td_buf_flush(td, b, &td->tail_offset, "the header");

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
	size_t len = vt_td_partial_size(td->ncpus);
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
				vt_td_partial_offset(td->tail_offset));
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
	off_t at = vt_td_partial_offset(td->tail_offset);
	size_t len = vt_td_partial_size(td->ncpus);
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
int vt_td_finish_file(struct vt_tracedat *td)
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
	return vt_td_finish_file(td);
}

void vtrace_tracedat_close(struct vt_tracedat *td)
{
	if (td)
		vt_td_free_tracedat(td, false);
}

void vtrace_tracedat_abort(struct vt_tracedat *td)
{
	if (td)
		vt_td_free_tracedat(td, true);
}

const char *vtrace_tracedat_partial_path(const struct vt_tracedat *td)
{
	return td ? td->out.tmp : NULL;
}

const char *vtrace_tracedat_strerror(const struct vt_tracedat *td)
{
	return td->err.text;
}

int vt_td_copy_range(struct vt_tracedat *td, int src, off_t from, off_t to,
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
