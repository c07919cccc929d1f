// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers shared by the vtrace kselftests.
 *
 * The trace_pipe_raw decoder below is written out by hand because the tests
 * run in static busybox guests of two architectures where Debian's
 * libtraceevent is not available; it only walks sub-buffer pages and the ring
 * buffer's event headers, and takes every field layout from tracefs.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "vtrace_test.h"

/* Ring buffer event header types (kernel/trace/ring_buffer.c). */
#define RB_TYPE_PADDING 29
#define RB_TYPE_TIME_EXTEND 30
#define RB_TYPE_TIME_STAMP 31
/* Flags the kernel stores in the high bits of a sub-buffer's commit. */
#define RB_COMMIT_FLAGS (3UL << 30)

ssize_t vt_write(const char *path, const void *buf, size_t len)
{
	ssize_t ret;
	int fd;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = write(fd, buf, len);
	if (ret < 0)
		ret = -errno;
	close(fd);
	return ret;
}

int vt_write_str(const char *path, const char *str)
{
	size_t len = strlen(str);
	ssize_t ret = vt_write(path, str, len);

	if (ret < 0)
		return ret;
	return (size_t)ret == len ? 0 : -EIO;
}

ssize_t vt_read(const char *path, char *buf, size_t size)
{
	ssize_t ret, total = 0;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while ((size_t)total < size - 1) {
		ret = read(fd, buf + total, size - 1 - total);
		if (ret < 0) {
			total = -errno;
			break;
		}
		if (!ret)
			break;
		total += ret;
	}
	close(fd);
	if (total >= 0)
		buf[total] = '\0';
	return total;
}

int vt_read_u64(const char *path, uint64_t *val)
{
	char buf[64], *end;
	ssize_t ret;

	ret = vt_read(path, buf, sizeof(buf));
	if (ret < 0)
		return ret;
	errno = 0;
	*val = strtoull(buf, &end, 0);
	if (errno || end == buf)
		return -EINVAL;
	return 0;
}

/**
 * vtrace_read_all() - read a whole file of unknown size
 * @path: file to read
 * @len: set to the number of bytes read (a NUL follows them)
 *
 * Return: malloc'ed buffer to free(), or NULL with errno set.
 */
char *vtrace_read_all(const char *path, size_t *len)
{
	size_t cap = 65536, used = 0;
	char *buf = malloc(cap), *bigger;
	ssize_t ret;
	int fd;

	if (!buf)
		return NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		goto fail;
	for (;;) {
		if (cap - used < 4096) {
			bigger = realloc(buf, cap * 2);
			if (!bigger)
				goto fail_fd;
			buf = bigger;
			cap *= 2;
		}
		ret = read(fd, buf + used, cap - used - 1);
		if (ret < 0)
			goto fail_fd;
		if (!ret)
			break;
		used += ret;
	}
	close(fd);
	buf[used] = '\0';
	*len = used;
	return buf;
fail_fd:
	close(fd);
fail:
	free(buf);
	return NULL;
}

bool vt_exists(const char *path)
{
	return access(path, F_OK) == 0;
}

const char *vt_tracefs(void)
{
	static const char *const roots[] = { "/sys/kernel/tracing",
					     "/sys/kernel/debug/tracing" };
	static const char *found;
	char path[PATH_MAX];
	size_t i;

	if (found)
		return found;
	for (i = 0; i < ARRAY_SIZE(roots); i++) {
		snprintf(path, sizeof(path), "%s/trace", roots[i]);
		if (vt_exists(path))
			return found = roots[i];
	}
	return found = roots[0];
}

static bool vt_events_present(void)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/events/mali", vt_tracefs());
	return vt_exists(path);
}

/**
 * vt_skip_reason() - why the vtrace tests cannot run here
 *
 * Return: NULL when vtrace.ko's events and debugfs files are there, else a
 * message for SKIP() (the host has tracefs but cannot load modules).
 */
const char *vt_skip_reason(void)
{
	if (!vt_events_present())
		return "no events/mali in tracefs: vtrace.ko is not loaded";
	if (!vt_exists(VT_DEBUGFS "/emit"))
		return "no " VT_DEBUGFS "/emit: debugfs not mounted";
	return NULL;
}

/**
 * vt_emit() - send one command to debugfs vtrace/emit in a single write
 * @cmd: the command, written as is (no newline added)
 *
 * Return: bytes written, or -errno of the write.
 */
ssize_t vt_emit(const char *cmd)
{
	return vt_write(VT_DEBUGFS "/emit", cmd, strlen(cmd));
}

static void vt_ctl_path(const char *file, char *path, size_t size)
{
	snprintf(path, size, "%s/%s", VT_DEBUGFS, file);
}

int vt_ctl_write(const char *file, const char *val)
{
	char path[PATH_MAX];

	vt_ctl_path(file, path, sizeof(path));
	return vt_write_str(path, val);
}

int vt_ctl_read_u64(const char *file, uint64_t *val)
{
	char path[PATH_MAX];

	vt_ctl_path(file, path, sizeof(path));
	return vt_read_u64(path, val);
}

/**
 * vt_sim_save() - read the simulator's settings a test is about to change
 * @saved: filled with sim/running, sim/period_ms and sim/seed
 *
 * Return: 0, or -errno of the first read that failed.
 */
int vt_sim_save(struct vt_sim_saved *saved)
{
	int ret;

	ret = vt_ctl_read_u64("sim/running", &saved->running);
	if (!ret)
		ret = vt_ctl_read_u64("sim/period_ms", &saved->period_ms);
	if (!ret)
		ret = vt_ctl_read_u64("sim/seed", &saved->seed);
	return ret;
}

static int vt_ctl_write_u64(const char *file, uint64_t val)
{
	char str[24];

	snprintf(str, sizeof(str), "%llu", (unsigned long long)val);
	return vt_ctl_write(file, str);
}

/**
 * vt_sim_restore() - put back what vt_sim_save() read
 * @saved: the settings from before the test
 *
 * The period and the seed first, so that a simulator that was running
 * starts again as it was.
 *
 * Return: 0, or -errno of the first write that failed (the others are
 * still tried).
 */
int vt_sim_restore(const struct vt_sim_saved *saved)
{
	int ret, err;

	ret = vt_ctl_write_u64("sim/period_ms", saved->period_ms);
	err = vt_ctl_write_u64("sim/seed", saved->seed);
	if (!ret)
		ret = err;
	err = vt_ctl_write_u64("sim/running", saved->running);
	if (!ret)
		ret = err;
	return ret;
}

/**
 * vt_ctl_status() - look up "key: value" in a debugfs status file
 * @file: path below vtrace/, e.g. "burst/status"
 * @key: key to find
 * @val: value, without the trailing newline
 * @size: size of @val
 *
 * Return: 0, -ENOENT when the key is missing, or -errno of the read.
 */
int vt_ctl_status(const char *file, const char *key, char *val, size_t size)
{
	char path[PATH_MAX], buf[1024], *line, *save;
	size_t klen = strlen(key);
	ssize_t ret;

	vt_ctl_path(file, path, sizeof(path));
	ret = vt_read(path, buf, sizeof(buf));
	if (ret < 0)
		return ret;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, key, klen) || line[klen] != ':')
			continue;
		line += klen + 1;
		line += strspn(line, " \t");
		snprintf(val, size, "%s", line);
		return 0;
	}
	return -ENOENT;
}

/**
 * vt_cpus() - parse a sysfs CPU list ("0-3,5")
 * @which: "online" or "possible"
 * @mask: VT_MAX_CPUS entries, set to true for each listed CPU
 *
 * Return: number of CPUs listed, or -errno.
 */
int vt_cpus(const char *which, bool *mask)
{
	char path[PATH_MAX], buf[1024], *p = buf, *end;
	unsigned long lo, hi;
	int n = 0;
	ssize_t ret;

	memset(mask, 0, VT_MAX_CPUS * sizeof(*mask));
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/%s", which);
	ret = vt_read(path, buf, sizeof(buf));
	if (ret < 0)
		return ret;
	while (*p && *p != '\n') {
		lo = strtoul(p, &end, 10);
		if (end == p)
			return -EINVAL;
		hi = lo;
		p = end;
		if (*p == '-') {
			hi = strtoul(p + 1, &end, 10);
			p = end;
		}
		if (hi >= VT_MAX_CPUS || hi < lo)
			return -ERANGE;
		for (; lo <= hi; lo++, n++)
			mask[lo] = true;
		if (*p == ',')
			p++;
	}
	return n;
}

int vt_nr_cpus(const char *which)
{
	bool mask[VT_MAX_CPUS];

	return vt_cpus(which, mask);
}

int vt_pin_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -errno : 0;
}

/**
 * vt_instance_create() - make a fresh tracefs instance for one test
 * @t: filled in
 * @tag: part of the instance name, which also carries the pid
 *
 * A new instance has its own buffers, no events enabled and tracing on, so a
 * test changes nothing that other tracing users see.
 *
 * Return: 0 or -errno.
 */
int vt_instance_create(struct vt_tracing *t, const char *tag)
{
	snprintf(t->dir, sizeof(t->dir), "%s/instances/vtrace_%s_%d",
		 vt_tracefs(), tag, (int)getpid());
	t->owned = false;
	if (mkdir(t->dir, 0700))
		return -errno;
	t->owned = true;
	return 0;
}

/**
 * vt_instance_destroy() - remove an instance made by vt_instance_create()
 * @t: the instance; a top-level handle is left alone
 *
 * Return: 0 or -errno (-EBUSY while one of its files is still open).
 */
int vt_instance_destroy(struct vt_tracing *t)
{
	if (!t->owned)
		return 0;
	if (rmdir(t->dir))
		return -errno;
	t->owned = false;
	return 0;
}

void vt_tracing_top(struct vt_tracing *t)
{
	snprintf(t->dir, sizeof(t->dir), "%s", vt_tracefs());
	t->owned = false;
}

int vt_tracing_file(const struct vt_tracing *t, const char *rel, char *path,
		    size_t size)
{
	int n = snprintf(path, size, "%s/%s", t->dir, rel);

	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

int vt_tracing_write(const struct vt_tracing *t, const char *rel,
		     const char *val)
{
	char path[PATH_MAX];
	int ret = vt_tracing_file(t, rel, path, sizeof(path));

	return ret ? ret : vt_write_str(path, val);
}

/**
 * vt_tracing_enable() - enable or disable an event or a whole system
 * @t: tracing directory
 * @event: "system/event" or "system"
 * @on: enable when true
 *
 * Return: 0 or -errno.
 */
int vt_tracing_enable(const struct vt_tracing *t, const char *event, bool on)
{
	char rel[256];

	snprintf(rel, sizeof(rel), "events/%s/enable", event);
	return vt_tracing_write(t, rel, on ? "1" : "0");
}

int vt_tracing_filter(const struct vt_tracing *t, const char *event,
		      const char *filter)
{
	char rel[256];

	snprintf(rel, sizeof(rel), "events/%s/filter", event);
	return vt_tracing_write(t, rel, filter);
}

/* Opening "trace" for writing with O_TRUNC empties every CPU's buffer. */
int vt_tracing_clear(const struct vt_tracing *t)
{
	char path[PATH_MAX];
	int fd, ret = vt_tracing_file(t, "trace", path, sizeof(path));

	if (ret)
		return ret;
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

int vt_cpu_stats(const struct vt_tracing *t, int cpu, struct vt_cpu_stats *st)
{
	static const struct {
		const char *key;
		size_t offset;
	} keys[] = {
		{ "entries:", offsetof(struct vt_cpu_stats, entries) },
		{ "overrun:", offsetof(struct vt_cpu_stats, overrun) },
		{ "commit overrun:",
		  offsetof(struct vt_cpu_stats, commit_overrun) },
		{ "dropped events:", offsetof(struct vt_cpu_stats, dropped) },
	};
	char rel[64], path[PATH_MAX], buf[1024], *line, *save;
	ssize_t ret;
	size_t i;

	snprintf(rel, sizeof(rel), "per_cpu/cpu%d/stats", cpu);
	ret = vt_tracing_file(t, rel, path, sizeof(path));
	if (!ret)
		ret = vt_read(path, buf, sizeof(buf));
	if (ret < 0)
		return ret;
	memset(st, 0, sizeof(*st));
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		for (i = 0; i < ARRAY_SIZE(keys); i++) {
			size_t klen = strlen(keys[i].key);

			if (strncmp(line, keys[i].key, klen))
				continue;
			*(uint64_t *)((char *)st + keys[i].offset) =
				strtoull(line + klen, NULL, 10);
		}
	}
	return 0;
}

/* Sum of the stats of every possible CPU's buffer. */
int vt_total_stats(const struct vt_tracing *t, struct vt_cpu_stats *sum)
{
	bool possible[VT_MAX_CPUS];
	struct vt_cpu_stats st;
	int cpu, ret = vt_cpus("possible", possible);

	if (ret < 0)
		return ret;
	memset(sum, 0, sizeof(*sum));
	for (cpu = 0; cpu < VT_MAX_CPUS; cpu++) {
		if (!possible[cpu])
			continue;
		ret = vt_cpu_stats(t, cpu, &st);
		if (ret)
			return ret;
		sum->entries += st.entries;
		sum->overrun += st.overrun;
		sum->commit_overrun += st.commit_overrun;
		sum->dropped += st.dropped;
	}
	return 0;
}

/* Parse one "field:TYPE NAME;\toffset:N;\tsize:N;\tsigned:N;" line. */
static int vt_parse_field(const char *line, struct vt_field *fld)
{
	const char *decl = strstr(line, "field:"), *semi, *sp;
	size_t len;

	if (!decl)
		return -EINVAL;
	decl += strlen("field:");
	decl += strspn(decl, " \t");
	semi = strchr(decl, ';');
	if (!semi)
		return -EINVAL;
	for (sp = semi; sp > decl && sp[-1] != ' '; sp--)
		;
	if (sp == decl)
		return -EINVAL;
	len = sp - 1 - decl;
	if (len >= sizeof(fld->type) ||
	    (size_t)(semi - sp) >= sizeof(fld->name))
		return -EINVAL;
	memcpy(fld->type, decl, len);
	fld->type[len] = '\0';
	memcpy(fld->name, sp, semi - sp);
	fld->name[semi - sp] = '\0';
	if (sscanf(semi, "; offset:%d; size:%d; signed:%d;", &fld->offset,
		   &fld->size, &fld->is_signed) != 3)
		return -EINVAL;
	return 0;
}

static int vt_parse_format(const char *path, struct vt_format *f)
{
	char *text, *line, *save;
	size_t len;
	int ret = 0;

	text = vtrace_read_all(path, &len);
	if (!text)
		return -errno;
	memset(f, 0, sizeof(*f));
	f->id = -1;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "ID:", 3)) {
			f->id = atoi(line + 3);
		} else if (!strncmp(line, "print fmt: ", 11)) {
			snprintf(f->print_fmt, sizeof(f->print_fmt), "%s",
				 line + 11);
		} else if (strstr(line, "field:")) {
			if (f->nr_fields == VT_MAX_FIELDS) {
				ret = -E2BIG;
				break;
			}
			ret = vt_parse_field(line, &f->field[f->nr_fields++]);
			if (ret)
				break;
		}
	}
	free(text);
	return ret;
}

/**
 * vt_format_load() - parse an event's format file
 * @system: e.g. "mali"
 * @event: e.g. "gpu_power_state"
 * @f: filled with the ID, every field (common ones first) and the print fmt
 *
 * Return: 0 or -errno.
 */
int vt_format_load(const char *system, const char *event, struct vt_format *f)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/events/%s/%s/format", vt_tracefs(),
		 system, event);
	return vt_parse_format(path, f);
}

/**
 * vt_format_load_file() - parse a format file at any path
 * @path: e.g. a reference device's events/SYSTEM/EVENT/format
 * @f: filled as by vt_format_load()
 *
 * Return: 0 or -errno.
 */
int vt_format_load_file(const char *path, struct vt_format *f)
{
	return vt_parse_format(path, f);
}

const struct vt_field *vt_field(const struct vt_format *f, const char *name)
{
	int i;

	for (i = 0; i < f->nr_fields; i++)
		if (!strcmp(f->field[i].name, name))
			return &f->field[i];
	return NULL;
}

uint64_t vt_get_u64(const struct vt_field *fld, const void *data)
{
	const unsigned char *p = (const unsigned char *)data + fld->offset;
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;
	uint64_t u64;

	switch (fld->size) {
	case 1:
		memcpy(&u8, p, 1);
		return u8;
	case 2:
		memcpy(&u16, p, 2);
		return u16;
	case 4:
		memcpy(&u32, p, 4);
		return u32;
	default:
		memcpy(&u64, p, 8);
		return u64;
	}
}

int64_t vt_get_s64(const struct vt_field *fld, const void *data)
{
	uint64_t v = vt_get_u64(fld, data);
	int shift = 64 - 8 * fld->size;

	if (fld->size >= 8)
		return (int64_t)v;
	return (int64_t)(v << shift) >> shift;
}

/**
 * vt_get_str() - copy a __data_loc string field out of a record
 * @fld: the field (its 32-bit value holds the length << 16 | offset)
 * @data: record payload
 * @size: payload size, for bounds checking
 * @buf: destination
 * @bufsz: size of @buf
 *
 * Return: string length, or -EINVAL if the location is outside the record.
 */
int vt_get_str(const struct vt_field *fld, const void *data, size_t size,
	       char *buf, size_t bufsz)
{
	uint32_t loc = (uint32_t)vt_get_u64(fld, data);
	size_t off = loc & 0xffff, len = loc >> 16;

	if (!len || off + len > size || len > bufsz)
		return -EINVAL;
	memcpy(buf, (const char *)data + off, len);
	if (buf[len - 1] != '\0')
		return -EINVAL;
	return (int)strlen(buf);
}

/* Sub-buffer page layout, from events/header_page. */
struct vt_page_layout {
	int commit_offset;
	int commit_size;
	int data_offset;
};

static int vt_page_layout(struct vt_page_layout *pl)
{
	char path[PATH_MAX];
	struct vt_format hp;
	const struct vt_field *commit, *data;
	int ret;

	snprintf(path, sizeof(path), "%s/events/header_page", vt_tracefs());
	ret = vt_parse_format(path, &hp);
	if (ret)
		return ret;
	commit = vt_field(&hp, "commit");
	data = vt_field(&hp, "data");
	if (!commit || !data)
		return -EINVAL;
	pl->commit_offset = commit->offset;
	pl->commit_size = commit->size;
	pl->data_offset = data->offset;
	return 0;
}

/* Walk the events of one sub-buffer; returns -EINVAL on a corrupt page. */
static int vt_walk_page(const unsigned char *page, size_t page_len,
			const struct vt_page_layout *pl, int cpu,
			vt_record_fn fn, void *arg, struct vt_consumed *out)
{
	const unsigned char *data = page + pl->data_offset;
	struct vt_field commit_fld = { .offset = pl->commit_offset,
				       .size = pl->commit_size };
	uint64_t commit = vt_get_u64(&commit_fld, page);
	size_t len = commit & ~RB_COMMIT_FLAGS & 0xffffffffUL, off = 0;
	uint32_t hdr, array0;
	struct vt_record rec = { .cpu = cpu };

	if (commit & RB_COMMIT_FLAGS)
		out->missed_pages++;
	if (pl->data_offset + len > page_len)
		return -EINVAL;
	while (off + 4 <= len) {
		memcpy(&hdr, data + off, 4);
		array0 = 0;
		if (off + 8 <= len)
			memcpy(&array0, data + off + 4, 4);
		switch (hdr & 0x1f) {
		case RB_TYPE_PADDING:
			if (!(hdr >> 5))
				return 0; /* the rest of the page is empty */
			off += 4 + array0;
			continue;
		case RB_TYPE_TIME_EXTEND:
		case RB_TYPE_TIME_STAMP:
			off += 8;
			continue;
		case 0:
			if (array0 < 4)
				return -EINVAL;
			rec.data = data + off + 8;
			rec.size = array0 - 4;
			off += 4 + array0;
			break;
		default:
			rec.data = data + off + 4;
			rec.size = (hdr & 0x1f) * 4;
			off += 4 + rec.size;
			break;
		}
		if (off > len || rec.size < 2)
			return -EINVAL;
		rec.type = *(const uint16_t *)rec.data;
		out->records++;
		if (fn)
			fn(&rec, arg);
	}
	return 0;
}

/**
 * vt_consume_cpu() - read one CPU's buffer empty through trace_pipe_raw
 * @t: tracing directory
 * @cpu: CPU whose buffer to read
 * @fn: called for every data record (may be NULL to just count)
 * @arg: passed to @fn
 * @out: counts, added to
 *
 * Reads non-blocking until the buffer is empty, so call it once the writers
 * are done.  Each read() returns one whole sub-buffer.
 *
 * Return: 0 or -errno.
 */
int vt_consume_cpu(const struct vt_tracing *t, int cpu, vt_record_fn fn,
		   void *arg, struct vt_consumed *out)
{
	const size_t bufsz = 1 << 20;
	struct vt_page_layout pl;
	char rel[64], path[PATH_MAX];
	unsigned char *buf;
	ssize_t n;
	int fd, ret;

	ret = vt_page_layout(&pl);
	if (ret)
		return ret;
	snprintf(rel, sizeof(rel), "per_cpu/cpu%d/trace_pipe_raw", cpu);
	ret = vt_tracing_file(t, rel, path, sizeof(path));
	if (ret)
		return ret;
	buf = malloc(bufsz);
	if (!buf)
		return -ENOMEM;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		goto out_free;
	}
	for (;;) {
		n = read(fd, buf, bufsz);
		if (n < 0) {
			if (errno != EAGAIN)
				ret = -errno;
			break;
		}
		if (!n)
			break;
		ret = vt_walk_page(buf, n, &pl, cpu, fn, arg, out);
		if (ret)
			break;
	}
	close(fd);
out_free:
	free(buf);
	return ret;
}

int vt_consume_all(const struct vt_tracing *t, vt_record_fn fn, void *arg,
		   struct vt_consumed *out)
{
	bool possible[VT_MAX_CPUS];
	int cpu, ret = vt_cpus("possible", possible);

	if (ret < 0)
		return ret;
	memset(out, 0, sizeof(*out));
	for (cpu = 0; cpu < VT_MAX_CPUS; cpu++) {
		if (!possible[cpu])
			continue;
		ret = vt_consume_cpu(t, cpu, fn, arg, out);
		if (ret)
			return ret;
	}
	return 0;
}

bool vt_module_loaded(void)
{
	return vt_exists("/sys/module/" VT_MODULE_NAME "/initstate");
}

/**
 * vt_ko() - path of a vtrace.ko build, as the rig exports it
 * @debug: the VTRACE_DEBUG=1 build instead of the default one
 *
 * Return: the path, or NULL when the environment does not name one.
 */
const char *vt_ko(bool debug)
{
	const char *ko = getenv(debug ? "VTRACE_DEBUG_KO" : "VTRACE_KO");

	return ko && *ko ? ko : NULL;
}

int vt_module_load(const char *ko, const char *params)
{
	int fd, ret = 0;

	fd = open(ko, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (syscall(SYS_finit_module, fd, params, 0))
		ret = -errno;
	close(fd);
	return ret;
}

/*
 * delete_module() fails with EAGAIN while something holds a reference (an
 * open debugfs file); retry for a second before giving up.
 */
int vt_module_unload(void)
{
	int i;

	for (i = 0; i < 100; i++) {
		if (!syscall(SYS_delete_module, VT_MODULE_NAME, O_NONBLOCK))
			return 0;
		if (errno != EAGAIN && errno != EBUSY)
			return -errno;
		usleep(10000);
	}
	return -errno;
}

/* Leave the default build loaded with default parameters (the contract). */
int vt_module_restore_default(void)
{
	const char *ko = vt_ko(false);
	int ret;

	if (vt_module_loaded()) {
		ret = vt_module_unload();
		if (ret)
			return ret;
	}
	if (!ko)
		return -ENOENT;
	return vt_module_load(ko, "");
}

int vt_meminfo_kb(const char *key, uint64_t *kb)
{
	size_t klen = strlen(key), len;
	char *text = vtrace_read_all("/proc/meminfo", &len), *p;
	int ret = -ENOENT;

	if (!text)
		return -errno;
	for (p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (!strncmp(p, key, klen) && p[klen] == ':') {
			*kb = strtoull(p + klen + 1, NULL, 10);
			ret = 0;
			break;
		}
	}
	free(text);
	return ret;
}

int vt_tainted(uint64_t *mask)
{
	return vt_read_u64("/proc/sys/kernel/tainted", mask);
}
