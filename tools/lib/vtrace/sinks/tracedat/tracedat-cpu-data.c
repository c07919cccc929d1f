// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU data of a trace.dat being written.
 *
 * trace.dat v6 stores each CPU's sub-buffers as one contiguous run, but
 * they arrive from all CPUs at once, and how much each CPU will write is
 * known only at the end. Two layouts solve that:
 *
 * In place, where the file system has sparse files (it punches holes:
 * ext4, xfs, btrfs, f2fs, tmpfs): CPU k's sub-buffers go straight into
 * the output file at base + k * share, the shares far apart in a sparse
 * file. At the end the holes between the runs are collapsed
 * (FALLOC_FL_COLLAPSE_RANGE: ext4, xfs, f2fs), which moves extents and
 * no data; where that is not supported the runs are moved down a chunk
 * at a time.
 *
 * In temporary files everywhere else (vfat, exfat, ramfs): CPU k's
 * sub-buffers go to FILE.cpuk, moved into the output at the end.
 *
 * Every move keeps the file recoverable at each instant (see the
 * in-progress record in tracedat-format.h): a chunk is written at its
 * destination before its source is freed, in the room of a spare chunk
 * written at the start and freed when the moves begin, so finishing
 * needs no free space; the progress is recorded after each step
 * with a write within one page, which a signal cannot cut, or is
 * implied by the sizes (a collapse shrinks the file, a moved chunk is
 * cut off FILE.cpuN).
 *
 * Writes go through the page cache: a sub-buffer still in the splice
 * reader's pipe is spliced into the file (vt_cpu_data_splice()), which
 * copies it once, where reading it out and writing it back copies it
 * twice. O_DIRECT from the mapped ring buffer was tried: it saved no CPU
 * time worth having, and each synchronous write made the reader wait on
 * the disk, so a small ring buffer overflowed several times as often.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/test-phase.h"

#include <vtrace/file-io.h>
#include <vtrace/output-file.h>
#include "sinks/tracedat/tracedat-cpu-data.h"
#include "sinks/tracedat/tracedat-format.h"

/* Largest span of shares tried; halved until the file system takes it. */
#define SHARE_SPAN_MAX (1ULL << 42)
/* A smaller share than this per CPU: the temporary files instead. */
#define SHARE_MIN (256ULL << 20)
/* Alignment of the shares: a multiple of any block or page size. */
#define DATA_ALIGN (64 * 1024)
/*
 * Unit of the moves at the end, and so the free space they need (a
 * sub-buffer when larger): small, for small file systems.
 */
#define MOVE_CHUNK (64 * 1024)

struct cpu_run {
	int fd; /* the output (in place) or FILE.cpuN */
	char *path; /* FILE.cpuN; NULL in place */
	off_t start; /* where the run begins in its file */
	unsigned long long bytes;
};

struct vt_cpu_data {
	int fd;
	const char *path;
	int ncpus;
	size_t page_size;
	bool in_place;
	size_t chunk;
	off_t spare;
	unsigned long long share;
	void *zero_page;
	struct vt_tracedat_err *err;
	struct cpu_run cpu[];
};

/**
 * vt_tracedat_err_set - record a failure as "WHAT: strerror(-err)"
 * @e: the writer's failure record
 * @err: negative errno
 * @fmt: printf format of WHAT
 *
 * Return: @err, for "return vt_tracedat_err_set(...)".
 */
int vt_tracedat_err_set(struct vt_tracedat_err *e, int err, const char *fmt,
			...)
{
	va_list ap;
	size_t len;

	pthread_mutex_lock(&e->lock);
	va_start(ap, fmt);
	vsnprintf(e->text, sizeof(e->text), fmt, ap);
	va_end(ap);
	len = strlen(e->text);
	snprintf(e->text + len, sizeof(e->text) - len, ": %s", strerror(-err));
	pthread_mutex_unlock(&e->lock);
	return err;
}

static off_t align_up(off_t off, size_t align)
{
	return (off + align - 1) / align * align;
}

/*
 * Holes can be punched: the file system keeps sparse files sparse. (A
 * hole past the end changes nothing; where punching is unsupported the
 * call fails with EOPNOTSUPP.)
 */
static bool punches_holes(int fd, off_t end)
{
	return !fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, end,
			  DATA_ALIGN);
}

/*
 * The largest share per CPU that the file system's file size limit
 * allows (ext4 16 TiB, f2fs about 4 TiB), by growing the sparse file to
 * its full span once. Returns 0 when even SHARE_MIN does not fit.
 */
static unsigned long long choose_share(struct vt_cpu_data *d, off_t base)
{
	unsigned long long span, share;
	off_t size = lseek(d->fd, 0, SEEK_END);
	bool fits;

	for (span = SHARE_SPAN_MAX;; span /= 2) {
		share = span / d->ncpus / DATA_ALIGN * DATA_ALIGN;
		if (share < SHARE_MIN || size < 0)
			return 0;
		fits = !ftruncate(d->fd, base + share * d->ncpus);
		if (ftruncate(d->fd, size))
			return 0;
		if (fits)
			return share;
	}
}

static int open_in_place(struct vt_cpu_data *d, off_t base)
{
	int cpu;

	base = align_up(base, DATA_ALIGN);
	for (cpu = 0; cpu < d->ncpus; cpu++) {
		d->cpu[cpu].fd = d->fd;
		d->cpu[cpu].start = base + (off_t)(cpu * d->share);
	}
	return 0;
}

static int open_temporary_files(struct vt_cpu_data *d)
{
	struct cpu_run *c;
	int cpu;

	d->share = (unsigned long long)INT64_MAX;
	for (cpu = 0; cpu < d->ncpus; cpu++) {
		c = &d->cpu[cpu];
		if (asprintf(&c->path, "%s.cpu%d", d->path, cpu) < 0) {
			c->path = NULL;
			return -ENOMEM;
		}
		/* Never a file that was there: only our own is removed. */
		c->fd = open(c->path,
			     O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			     VT_OUTPUT_FILE_MODE);
		if (c->fd < 0)
			return vt_tracedat_err_set(d->err, -errno,
						   "creating %s", c->path);
	}
	return 0;
}

/*
 * A chunk of zeros after the header's reserve, freed when the moves
 * begin: the room for the one chunk each move writes before it frees
 * its source.
 */
static int write_spare(struct vt_cpu_data *d, off_t at)
{
	char *zero = calloc(1, d->chunk);
	int ret;

	if (!zero)
		return -ENOMEM;
	d->spare = at;
	ret = vtrace_pwrite_all(d->fd, zero, d->chunk, at);
	free(zero);
	if (ret)
		return vt_tracedat_err_set(d->err, ret, "reserving space in %s",
					   d->path);
	return 0;
}

/**
 * vt_cpu_data_open - choose the layout and prepare it
 * @out: set to the new store
 * @fd: the output file, open read-write; stays the caller's
 * @path: its name, kept (not copied) until vt_cpu_data_close()
 * @base: where CPU data may start in @fd (after the header's reserve)
 * @ncpus: number of CPUs
 * @page_size: size of every page vt_cpu_data_add() stores
 * @err: where failures are described
 *
 * Return: 0 or a negative errno.
 */
int vt_cpu_data_open(struct vt_cpu_data **out, int fd, const char *path,
		     off_t base, int ncpus, size_t page_size,
		     struct vt_tracedat_err *err)
{
	struct vt_cpu_data *d;
	int cpu, ret;

	d = calloc(1, sizeof(*d) + ncpus * sizeof(d->cpu[0]));
	if (!d)
		return -ENOMEM;
	d->fd = fd;
	d->path = path;
	d->ncpus = ncpus;
	d->page_size = page_size;
	d->chunk = page_size > MOVE_CHUNK ? page_size : MOVE_CHUNK;
	d->err = err;
	for (cpu = 0; cpu < ncpus; cpu++)
		d->cpu[cpu].fd = -1;
	d->zero_page = calloc(1, page_size);
	if (!d->zero_page) {
		vt_cpu_data_close(d, true);
		return -ENOMEM;
	}
	ret = write_spare(d, base);
	if (ret) {
		vt_cpu_data_close(d, true);
		return ret;
	}
	base += d->chunk;
	if (punches_holes(fd, align_up(base, DATA_ALIGN)))
		d->share = choose_share(d, align_up(base, DATA_ALIGN));
	d->in_place = d->share != 0;
	ret = d->in_place ? open_in_place(d, base) : open_temporary_files(d);
	if (ret) {
		vt_cpu_data_close(d, true);
		return ret;
	}
	*out = d;
	return 0;
}

/* -EFBIG, with the message, when @cpu's share has no room for a page. */
static int check_room(struct vt_cpu_data *d, int cpu, size_t len)
{
	if (d->cpu[cpu].bytes + len <= d->share)
		return 0;
	return vt_tracedat_err_set(d->err, -EFBIG,
				   "CPU %d filled its %llu MiB of %s", cpu,
				   d->share >> 20, d->path);
}

/**
 * vt_cpu_data_add - store one page of a CPU after its earlier ones
 * @d: the store
 * @cpu: the CPU
 * @page: the page
 * @len: bytes in @page, at most the page size; the rest is zero-filled
 *
 * Called concurrently for different CPUs, never for the same one.
 * Return: 0, -EFBIG when @cpu's share of the file is full, or an I/O
 * error; the pages stored before stay.
 */
int vt_cpu_data_add(struct vt_cpu_data *d, int cpu, const void *page,
		    size_t len)
{
	struct cpu_run *c = &d->cpu[cpu];
	off_t off = c->start + c->bytes;
	int ret = check_room(d, cpu, d->page_size);

	if (ret)
		return ret;
	ret = vtrace_pwrite_all(c->fd, page, len, off);
	if (!ret && len < d->page_size)
		ret = vtrace_pwrite_all(c->fd, d->zero_page, d->page_size - len,
					off + len);
	if (ret)
		return vt_tracedat_err_set(d->err, ret, "writing %s",
					   c->path ? c->path : d->path);
	c->bytes += d->page_size;
	return 0;
}

/**
 * vt_cpu_data_splice - store whole pages of a CPU from a pipe
 * @d: the store
 * @cpu: the CPU
 * @pipe: read end of a pipe holding exactly the pages
 * @len: their bytes, a whole number of pages
 * @spill: @len bytes of memory; on failure it gets the pages not stored
 * @stored: on failure, set to the bytes of the whole pages stored before it
 *
 * The pages go from the pipe into the file's page cache with splice(),
 * never through user memory, in as few calls as the kernel allows. Called
 * as vt_cpu_data_add() is. On failure the pipe is left empty; the whole
 * pages the file took before it (a disk that fills up takes part of a
 * batch) are stored, and the others are in @spill at their offsets in
 * the batch (a page taken in part is read back from the file): the
 * caller accounts for those as it would for pages it never offered.
 *
 * Return: 0, -EFBIG when @cpu's share of the file cannot take them, or an
 * I/O error; the pages stored before stay.
 */
int vt_cpu_data_splice(struct vt_cpu_data *d, int cpu, int pipe, size_t len,
		       void *spill, size_t *stored)
{
	struct cpu_run *c = &d->cpu[cpu];
	const off_t start = c->start + c->bytes;
	loff_t off = start;
	size_t done = 0, kept;
	ssize_t n;
	int ret = len % d->page_size ? -EINVAL : check_room(d, cpu, len);

	while (!ret && done < len) {
		n = splice(pipe, NULL, c->fd, &off, len - done, SPLICE_F_MOVE);
		if (n > 0)
			done += n;
		else
			ret = vt_tracedat_err_set(d->err, n ? -errno : -EIO,
						  "writing %s",
						  c->path ? c->path : d->path);
	}
	if (!ret) {
		c->bytes += len;
		return 0;
	}
	kept = done / d->page_size * d->page_size;
	c->bytes += kept;
	*stored = kept;
	if (vtrace_pread_all(c->fd, (char *)spill + kept, done - kept,
			     start + kept) ||
	    vtrace_read_all(pipe, (char *)spill + done, len - done))
		memset((char *)spill + kept, 0, len - kept);
	return ret;
}

/**
 * vt_cpu_data_layout - where the runs are, for the in-progress record
 * @d: the store
 * @start: set to CPU 0's offset in the output, 0 with FILE.cpuN
 * @share: set to the distance between two CPUs' runs, 0 with FILE.cpuN
 */
void vt_cpu_data_layout(const struct vt_cpu_data *d, off_t *start,
			unsigned long long *share)
{
	*start = d->in_place ? d->cpu[0].start : 0;
	*share = d->in_place ? d->share : 0;
}

/**
 * vt_cpu_data_bytes - bytes stored for a CPU
 * @d: the store
 * @cpu: the CPU
 *
 * Return: the bytes of sub-buffers stored for @cpu so far.
 */
unsigned long long vt_cpu_data_bytes(const struct vt_cpu_data *d, int cpu)
{
	return d->cpu[cpu].bytes;
}

/* The moves' state: their progress and where it is recorded. */
struct layout {
	struct tracedat_layout_progress p;
	off_t at;
	char *chunk;
};

static int record_progress(struct vt_cpu_data *d, struct layout *l)
{
	int ret = vtrace_pwrite_all(d->fd, &l->p, sizeof(l->p), l->at);

	if (ret)
		return vt_tracedat_err_set(
			d->err, ret, "recording the layout's progress in %s",
			d->path);
	return 0;
}

/*
 * Moves CPU @cpu's run, now at @src in the output, down to @dst, first
 * chunk first; a chunk no larger than the distance never overwrites
 * data not moved yet. Each chunk is written, recorded as moved, and only
 * then punched out at its source.
 */
static int move_down(struct vt_cpu_data *d, int cpu, off_t src, off_t dst,
		     struct layout *l)
{
	unsigned long long bytes = d->cpu[cpu].bytes;
	size_t len, max = (size_t)(src - dst) < d->chunk ? (size_t)(src - dst) :
							   d->chunk;
	off_t from;
	int ret;

	for (l->p.done = 0; l->p.done < bytes;) {
		len = bytes - l->p.done < max ? bytes - l->p.done : max;
		from = src + l->p.done;
		ret = vtrace_pread_all(d->fd, l->chunk, len, from);
		if (ret)
			return vt_tracedat_err_set(d->err, ret,
						   "reading CPU %d data of %s",
						   cpu, d->path);
		ret = vtrace_pwrite_all(d->fd, l->chunk, len, dst + l->p.done);
		if (ret)
			return vt_tracedat_err_set(d->err, ret,
						   "moving CPU %d data in %s",
						   cpu, d->path);
		l->p.done += len;
		ret = record_progress(d, l);
		if (ret)
			return ret;
		if (fallocate(d->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
			      from, len) &&
		    errno != EOPNOTSUPP)
			return vt_tracedat_err_set(
				d->err, -errno, "freeing space in %s", d->path);
		if (l->p.done < bytes)
			vt_test_phase("layout-step");
	}
	return 0;
}

/*
 * Brings each run down to its offset: by collapsing the hole before it
 * where the file system can, which shifts everything after it too, else
 * by moving it.
 */
static int assemble_in_place(struct vt_cpu_data *d, const off_t *offs,
			     struct layout *l)
{
	bool collapse = true;
	off_t src;
	int cpu, ret;

	for (cpu = 0; cpu < d->ncpus; cpu++) {
		src = d->cpu[cpu].start - l->p.shift;
		if (!d->cpu[cpu].bytes || src == offs[cpu])
			continue;
		if (collapse && !fallocate(d->fd, FALLOC_FL_COLLAPSE_RANGE,
					   offs[cpu], src - offs[cpu])) {
			vt_test_phase("layout-step");
			l->p.shift += src - offs[cpu];
			l->p.size -= src - offs[cpu];
		} else if (collapse && errno != EOPNOTSUPP && errno != EINVAL) {
			return vt_tracedat_err_set(d->err, -errno,
						   "collapsing the gaps in %s",
						   d->path);
		} else {
			collapse = false;
			ret = move_down(d, cpu, src, offs[cpu], l);
			if (ret)
				return ret;
		}
		l->p.moved = cpu + 1;
		l->p.done = 0;
		ret = record_progress(d, l);
		if (ret)
			return ret;
		vt_test_phase("layout-moved");
	}
	l->p.moved = d->ncpus;
	return record_progress(d, l);
}

/*
 * Moves FILE.cpuN into the output at @off, last chunk first: each chunk
 * is written to the output, then cut off the temporary file, whose size
 * tells how much is still to move.
 */
static int move_in(struct vt_cpu_data *d, int cpu, off_t off, char *chunk)
{
	struct cpu_run *c = &d->cpu[cpu];
	off_t pos = c->bytes;
	size_t len;
	int ret;

	while (pos > 0) {
		len = pos < (off_t)d->chunk ? (size_t)pos : d->chunk;
		pos -= len;
		ret = vtrace_pread_all(c->fd, chunk, len, pos);
		if (ret)
			return vt_tracedat_err_set(d->err, ret, "reading %s",
						   c->path);
		ret = vtrace_pwrite_all(d->fd, chunk, len, off + pos);
		if (ret)
			return vt_tracedat_err_set(d->err, ret,
						   "moving %s into %s", c->path,
						   d->path);
		vt_test_phase("layout-step");
		if (ftruncate(c->fd, pos) < 0)
			return vt_tracedat_err_set(d->err, -errno,
						   "truncating %s", c->path);
	}
	unlink(c->path);
	if (c->bytes)
		vt_test_phase("layout-moved");
	return 0;
}

/**
 * vt_cpu_data_assemble - put every CPU's run at its place in the output
 * @d: the store; nothing can be added afterwards
 * @offs: where each CPU's run must begin, in CPU order, each the end of
 *	the run before it; past everything the output holds besides
 * @progress_at: where the output's in-progress record keeps the
 *	progress, which must say that nothing moved yet
 *
 * The output then ends with the last run. The progress of the moves in
 * place is recorded there (those of FILE.cpuN show in their sizes).
 *
 * Return: 0 or a negative errno; on failure, the progress tells where
 * every run's data is.
 */
int vt_cpu_data_assemble(struct vt_cpu_data *d, const off_t *offs,
			 off_t progress_at)
{
	struct layout l = { .at = progress_at };
	int last = d->ncpus - 1;
	struct stat st;
	int cpu, ret = 0;

	if (fstat(d->fd, &st))
		return vt_tracedat_err_set(d->err, -errno, "reading %s",
					   d->path);
	l.p.size = st.st_size;
	/* The spare is zeros, and no data is where it is. */
	if (d->in_place ?
		    fallocate(d->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
			      d->spare, d->chunk) :
		    ftruncate(d->fd, d->spare))
		return vt_tracedat_err_set(d->err, -errno,
					   "freeing space in %s", d->path);
	l.chunk = malloc(d->chunk);
	if (!l.chunk)
		return -ENOMEM;
	if (d->in_place)
		ret = assemble_in_place(d, offs, &l);
	for (cpu = 0; !d->in_place && !ret && cpu < d->ncpus; cpu++)
		ret = move_in(d, cpu, offs[cpu], l.chunk);
	free(l.chunk);
	if (!ret && ftruncate(d->fd, offs[last] + d->cpu[last].bytes) < 0)
		ret = vt_tracedat_err_set(d->err, -errno, "truncating %s",
					  d->path);
	return ret;
}

/**
 * vt_cpu_data_close - free the store
 * @d: the store, may be NULL
 * @remove_files: remove FILE.cpuN too (the output stays the caller's)
 */
void vt_cpu_data_close(struct vt_cpu_data *d, bool remove_files)
{
	struct cpu_run *c;
	int cpu;

	if (!d)
		return;
	for (cpu = 0; cpu < d->ncpus; cpu++) {
		c = &d->cpu[cpu];
		if (!c->path)
			continue;
		/* A file we failed to create is someone else's. */
		if (c->fd >= 0 && remove_files)
			unlink(c->path);
		if (c->fd >= 0)
			close(c->fd);
		free(c->path);
	}
	free(d->zero_page);
	free(d);
}
