// SPDX-License-Identifier: GPL-2.0
/*
 * Layout check of a trace.dat; see tracedat-check.h for why.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <vtrace/file-io.h>
#include "sinks/tracedat/tracedat-check.h"
#include "sinks/tracedat/tracedat-check-v7.h"
#include "sinks/tracedat/tracedat-format.h"
#include "sinks/tracedat/tracedat-walk.h"
#include <vtrace/tracedat-writer.h>

/*
 * The options; sets *clock when the trace clock follows the CPU data, and
 * *cpus to a CPU count option's: libtracecmd reads that many CPU data
 * offsets, not the header's count.
 */
static int walk_options(struct vt_walk *w, bool *clock, uint32_t *cpus)
{
	unsigned char *buf;
	uint16_t id;
	uint32_t len;
	int ret;

	for (;;) {
		ret = vt_walk_u16(w, &id, "the options");
		if (ret || id == TRACEDAT_OPTION_DONE)
			return ret;
		ret = vt_walk_u32(w, &len, "the options");
		if (ret)
			return ret;
		if (len > w->size - w->pos)
			return vt_walk_truncated(w, "the options",
						 w->pos + len);
		buf = malloc(len + 1);
		if (!buf)
			return -ENOMEM;
		ret = vt_walk_read(w, buf, len, "the options");
		if (!ret)
			ret = vt_walk_option(w, id, buf, len, cpus);
		free(buf);
		if (ret)
			return ret;
		if (id == TRACEDAT_OPTION_TRACECLOCK)
			*clock = true;
	}
}

static int walk_flyrecord(struct vt_walk *w, uint32_t cpus, bool clock)
{
	uint64_t offset, len;
	uint32_t cpu;
	int ret = 0;

	for (cpu = 0; !ret && cpu < cpus; cpu++) {
		ret = vt_walk_u64(w, &offset, "the CPU data offsets");
		if (!ret)
			ret = vt_walk_u64(w, &len, "the CPU data offsets");
		if (ret)
			return ret;
		if (len && (offset > w->size || len > w->size - offset))
			return vt_walk_fail(
				w,
				"truncated: CPU %u data needs %llu bytes, the file has %llu",
				cpu, (unsigned long long)offset + len,
				(unsigned long long)w->size);
		if (offset % w->page_size || len % w->page_size)
			return vt_walk_fail(
				w,
				"corrupt CPU %u data: offset %llu size %llu are not in whole pages",
				cpu, (unsigned long long)offset,
				(unsigned long long)len);
		ret = vt_walk_pages(w, cpu, offset, len);
	}
	if (!ret && clock)
		ret = vt_walk_skip_sized64(w, "the trace clock");
	return ret;
}

static int walk_v6(struct vt_walk *w)
{
	char type[10];
	uint32_t cpus;
	bool clock = false;
	int ret;

	ret = vt_walk_header_sections(w);
	if (!ret)
		ret = vt_walk_ftrace_formats(w);
	if (!ret)
		ret = vt_walk_event_formats(w);
	if (!ret)
		ret = vt_walk_skip_sized32(w, "kallsyms");
	if (!ret)
		ret = vt_walk_printk(w);
	if (!ret)
		ret = vt_walk_skip_sized64(w, "saved cmdlines");
	if (!ret)
		ret = vt_walk_u32(w, &cpus, "the CPU count");
	if (!ret)
		ret = vt_walk_read(w, type, sizeof(type), "the options");
	if (!ret && !memcmp(type, "options  ", 10)) {
		ret = walk_options(w, &clock, &cpus);
		if (!ret)
			ret = vt_walk_read(w, type, sizeof(type), "flyrecord");
	}
	if (ret)
		return ret;
	/* libtracecmd 1.3 iterates the CPU data it never set up: NULL. */
	if (!memcmp(type, "latency  ", 10))
		return vt_walk_fail(
			w,
			"a latency tracer's text file: it has no per-CPU event data to report");
	if (memcmp(type, "flyrecord", 10))
		return vt_walk_fail(w, "corrupt file: no flyrecord section");
	return walk_flyrecord(w, cpus, clock);
}

/*
 * Magic, version, endianness, long size, page size; sets *version to 6
 * or 7, or leaves it 0 for a version above 7, which libtracecmd refuses.
 */
static int walk_initial(struct vt_walk *w, int *version)
{
	char head[TRACEDAT_MAGIC_LEN], name[VT_WALK_NAME_MAX];
	uint8_t endian, long_size;
	uint16_t one = 1;
	uint32_t page_size;
	int ret;

	ret = vt_walk_read(w, head, sizeof(head), "the file header");
	if (ret)
		return ret;
	if (memcmp(head, TRACEDAT_MAGIC, sizeof(head)))
		return vt_walk_fail(w, "not a trace.dat file (bad magic)");
	ret = vt_walk_name(w, name, "the file header");
	if (ret)
		return ret;
	/*
	 * libtracecmd takes the version as strtol() does ("6abc" is 6, "x"
	 * is 0) and reads any below 7 as version 6: only "6" and "7" are
	 * walked here, so refuse the others instead of leaving them to it
	 * unchecked.
	 */
	if (strcmp(name, TRACEDAT_VERSION) &&
	    strcmp(name, TRACEDAT_VERSION_NEXT) &&
	    (unsigned int)strtol(name, NULL, 10) <= 7)
		return vt_walk_fail(
			w, "corrupt file header: version is neither 6 nor 7");
	if (strcmp(name, TRACEDAT_VERSION) &&
	    strcmp(name, TRACEDAT_VERSION_NEXT))
		return 0;
	ret = vt_walk_read(w, &endian, 1, "the file header");
	if (!ret)
		ret = vt_walk_read(w, &long_size, 1, "the file header");
	if (ret)
		return ret;
	if (endian > 1 || (long_size != 4 && long_size != 8))
		return vt_walk_fail(w, "corrupt file header");
	w->swap = endian != !*(uint8_t *)&one;
	w->big_endian = endian;
	ret = vt_walk_u32(w, &page_size, "the file header");
	if (!ret && (page_size < 256 || (page_size & (page_size - 1))))
		ret = vt_walk_fail(w, "corrupt file header: page size %u",
				   page_size);
	w->page_size = page_size;
	if (!ret)
		*version = strcmp(name, TRACEDAT_VERSION) ? 7 : 6;
	return ret;
}

int vt_tracedat_check(const char *path, char *msg, size_t msg_size)
{
	struct vt_walk w = { .msg = msg, .msg_size = msg_size };
	struct stat st;
	int version = 0;
	int ret;

	snprintf(msg, msg_size, "%s", "");
	ret = vtrace_tracedat_check_incomplete(path);
	if (ret)
		return ret > 0 ? -ENODATA : ret;
	ret = vtrace_input_open(path, &w.fd);
	if (ret)
		return ret;
	if (fstat(w.fd, &st)) {
		ret = -errno;
	} else {
		w.size = st.st_size;
		ret = walk_initial(&w, &version);
		if (!ret && version == 6)
			ret = walk_v6(&w);
		else if (!ret && version == 7)
			ret = vt_tracedat_check_v7(&w);
	}
	close(w.fd);
	return ret;
}
