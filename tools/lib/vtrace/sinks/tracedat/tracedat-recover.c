// SPDX-License-Identifier: GPL-2.0
/*
 * Recovery of a killed recording: its file holds the metadata, the
 * in-progress record after it, and each CPU's sub-buffers from the
 * record's offsets (or in FILE.cpuN), or, killed in the layout step,
 * where the record's plan and progress say. The header is parsed to find
 * the record, each run is read up to its first sub-buffer that is not
 * one (the zeros of a hole, or a write cut short), and a new file is
 * written as finish() would have.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <vtrace/diag.h>
#include <vtrace/file-io.h>

#include "sinks/tracedat/tracedat-local.h"

/* Longest system name the header parser accepts. */
#define SYSTEM_NAME_MAX 256

struct header_cursor {
	int fd;
	off_t off;
	off_t size;
	int err;
};

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
	ret = vt_td_copy_range(td, in_fd, 0, 0, td->tail_offset, chunk);
	free(chunk);
	return ret;
}

/* The layout step's plan: sane sizes, after the record. */
static bool valid_plan(const struct tracedat_partial *p, const uint64_t *bytes,
		       off_t at)
{
	uint32_t cpu;

	if (p->dest < at + vt_td_partial_size(p->ncpus) ||
	    p->dest > 1ULL << 60 || p->dest % p->page_size ||
	    p->progress.moved > p->ncpus)
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
	ret = off < 0 ? (int)off :
			vtrace_pread_all(fd, p, sizeof(*p),
					 vt_td_partial_offset(off));
	if (!ret && memcmp(p->magic, TRACEDAT_PARTIAL_MAGIC,
			   TRACEDAT_PARTIAL_MAGIC_LEN))
		ret = -EINVAL;
	if (!ret && (!p->ncpus || p->ncpus > 65536 || p->page_size < 256 ||
		     p->page_size & (p->page_size - 1) ||
		     !memchr(p->clock, 0, sizeof(p->clock)) ||
		     !memchr(p->name, 0, sizeof(p->name))))
		ret = -EINVAL;
	if (!ret && p->dest) {
		*bytes = calloc(p->ncpus, sizeof(**bytes));
		if (!*bytes)
			return -ENOMEM;
		ret = vtrace_pread_all(fd, *bytes, p->ncpus * sizeof(**bytes),
				       vt_td_partial_offset(off) + sizeof(*p));
		if (!ret && !valid_plan(p, *bytes, vt_td_partial_offset(off)))
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

/*
 * The name a partial file records for its output is read from the file:
 * it must be one the recording could have given (a plain file name, no
 * control character), else the caller names the output.
 */
static bool usable_name(const char *name)
{
	const unsigned char *c;

	if (!*name || !strcmp(name, ".") || !strcmp(name, ".."))
		return false;
	for (c = (const unsigned char *)name; *c; c++)
		if (*c < 0x20 || *c == 0x7f || *c == '/')
			return false;
	return true;
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
		ret = vt_td_finish_file(td);
	return ret;
}

int vtrace_tracedat_recover(const char *in, const char *out,
			    struct vt_tracedat_recovery *r, char *msg,
			    size_t msg_size)
{
	char name[TRACEDAT_PARTIAL_NAME_LEN * 4 + 1];
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
	if (!out && !usable_name(p.name)) {
		vtrace_escape(p.name, strlen(p.name), name, sizeof(name));
		ret = set_error(
			td, -EINVAL,
			"%s: the name it records for its output ('%s') is not a file name vtrace gives; name the output with -o",
			in, name);
	} else {
		td->path = out ? strdup(out) : default_output(in, p.name);
	}
	if (!ret && (!td->clock || !td->path))
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
	vt_td_free_tracedat(td, true);
	return ret;
}
