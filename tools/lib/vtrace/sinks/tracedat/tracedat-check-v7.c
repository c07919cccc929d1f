// SPDX-License-Identifier: GPL-2.0
/*
 * Layout check of a trace.dat version 7 (trace-cmd.dat.v7(5)), what
 * trace-cmd 3.x writes by default; see tracedat-check-v7.h.
 *
 * After the file header's page size come the compression algorithm's
 * name and version and the offset of the first options section. Every
 * section starts with a header: id (2), flags (2), a string id (4) and
 * its size in the file (8); a compressed section's data is the
 * compressed size (4), the decompressed size (4) and the block. Options
 * sections chain through their DONE option's offset of the next one;
 * options 16 to 21 give the offsets of the sections holding what version
 * 6 stores in line (header_page, formats, kallsyms, printk formats,
 * saved cmdlines), and a BUFFER option a flyrecord section's offset with
 * each CPU's data in the file, compressed in chunks (count (4), then per
 * chunk its compressed and decompressed sizes (4 + 4) and the block) when
 * the section's flag says so; the size a BUFFER option gives for such
 * data is that of the chunks, without their count.
 *
 * libtracecmd 1.3 trusts all of it: it follows the options chain by
 * recursion (a loop never ends), reads a section's contents past its
 * size, allocates what a size inside a section says (a kallsyms size of
 * 0xffffffff overflows its buffer) and hands the formats to
 * libtraceevent. So every section and option is walked here first, its
 * contents decompressed and checked as the version 6 check does.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sinks/tracedat/tracedat-check-v7.h"
#include "sinks/tracedat/tracedat-decompress.h"
#include "sinks/tracedat/tracedat-format.h"
#include "sinks/tracedat/tracedat-walk.h"

/* Options sections a file may chain; trace-cmd writes one or two. */
#define OPTION_SECTIONS_MAX 64
/* Sections, and flyrecord buffers (instances), a file may name. */
#define SECTIONS_MAX 256
#define BUFFERS_MAX 256
/* CPU ids: libtracecmd allocates an entry for each id up to the largest. */
#define CPUS_MAX 4096
/* A decompressed section, kallsyms the largest (some MiB). */
#define SECTION_MAX (256U << 20)
/* A decompressed chunk of CPU data (trace-cmd's are some pages). */
#define CHUNK_MAX (64U << 20)
/* The section header: id, flags, string id, size. */
#define SECTION_HEADER_LEN 16

struct option_ref {
	uint16_t id;
	uint64_t offset;
};

struct buffer_opt {
	unsigned char *data;
	uint32_t len;
};

struct v7 {
	struct vt_walk *w;
	char algo[VT_WALK_NAME_MAX];
	uint64_t options[OPTION_SECTIONS_MAX];
	unsigned int noptions;
	struct option_ref sections[SECTIONS_MAX];
	unsigned int nsections;
	struct buffer_opt buffers[BUFFERS_MAX];
	unsigned int nbuffers;
	bool top;
};

static const char *section_name(uint16_t id)
{
	switch (id) {
	case TRACEDAT_OPTION_DONE:
		return "the options";
	case TRACEDAT_OPTION_BUFFER:
		return "a flyrecord section";
	case TRACEDAT_OPTION_HEADER_INFO:
		return "header_page";
	case TRACEDAT_OPTION_FTRACE_EVENTS:
		return "the ftrace formats";
	case TRACEDAT_OPTION_EVENT_FORMATS:
		return "the event formats";
	case TRACEDAT_OPTION_KALLSYMS:
		return "kallsyms";
	case TRACEDAT_OPTION_PRINTK:
		return "printk formats";
	case TRACEDAT_OPTION_CMDLINES:
		return "saved cmdlines";
	default:
		return "a section";
	}
}

/*
 * The section header at @offset, which must be of section @id; sets
 * *flags, and *start and *len to where its data is in the file.
 */
static int section_header(struct v7 *v, uint16_t id, uint64_t offset,
			  uint16_t *flags, uint64_t *start, uint64_t *len)
{
	struct vt_walk *w = v->w;
	const char *name = section_name(id);
	uint16_t sec_id;
	uint32_t desc;
	int ret;

	if (offset > w->size || w->size - offset < SECTION_HEADER_LEN)
		return vt_walk_fail(
			w,
			"truncated or corrupt: the section of %s at offset %llu is past the file's %llu bytes",
			name, (unsigned long long)offset,
			(unsigned long long)w->size);
	w->pos = offset;
	ret = vt_walk_u16(w, &sec_id, name);
	if (!ret)
		ret = vt_walk_u16(w, flags, name);
	if (!ret)
		ret = vt_walk_u32(w, &desc, name);
	if (!ret)
		ret = vt_walk_u64(w, len, name);
	if (ret)
		return ret;
	if (sec_id != id)
		return vt_walk_fail(
			w,
			"corrupt file: the section at offset %llu is not %s (id %u, not %u)",
			(unsigned long long)offset, name, sec_id, id);
	if (*len > w->size - w->pos)
		return vt_walk_truncated(w, name, w->pos + *len);
	if ((*flags & TRACEDAT_SECTION_COMPRESSED) && !strcmp(v->algo, "none"))
		return vt_walk_fail(
			w, "corrupt %s: compressed in a file of no compression",
			name);
	*start = w->pos;
	return 0;
}

/*
 * Section @id at @offset into memory, decompressed, and *s set up as a
 * cursor over it; the caller frees *data.
 */
static int section_load(struct v7 *v, uint16_t id, uint64_t offset,
			struct vt_walk *s, unsigned char **data)
{
	struct vt_walk *w = v->w;
	const char *name = section_name(id);
	uint32_t clen, ulen;
	unsigned char *in;
	uint64_t start, len;
	uint16_t flags;
	int ret;

	*data = NULL;
	ret = section_header(v, id, offset, &flags, &start, &len);
	if (ret)
		return ret;
	if (flags & TRACEDAT_SECTION_COMPRESSED) {
		ret = vt_walk_u32(w, &clen, name);
		if (!ret)
			ret = vt_walk_u32(w, &ulen, name);
		if (ret)
			return ret;
		if (len < 8 || clen > len - 8)
			return vt_walk_fail(
				w,
				"corrupt %s: %u compressed bytes in a section of %llu",
				name, clen, (unsigned long long)len);
		if (ulen > SECTION_MAX)
			return vt_walk_fail(
				w, "corrupt %s: %u bytes when decompressed",
				name, ulen);
		len = ulen;
	}
	/* One more byte: an empty section is no NULL. */
	*data = malloc(len + 1);
	if (!*data)
		return -ENOMEM;
	if (flags & TRACEDAT_SECTION_COMPRESSED) {
		in = malloc(clen + 1);
		if (!in)
			return -ENOMEM;
		ret = vt_walk_read(w, in, clen, name);
		if (!ret)
			ret = vt_tracedat_decompress(v->algo, in, clen, *data,
						     len);
		free(in);
		if (ret == -EINVAL)
			return vt_walk_fail(
				w,
				"corrupt %s: its data does not decompress into the %llu bytes it claims",
				name, (unsigned long long)len);
	} else {
		ret = vt_walk_read(w, *data, len, name);
	}
	if (ret)
		return ret;
	*s = *w;
	s->mem = *data;
	s->pos = 0;
	s->size = len;
	s->within = "the section";
	return 0;
}

static int add_section(struct v7 *v, uint16_t id, const unsigned char *buf,
		       uint32_t len)
{
	if (len < 8)
		return 0; /* ignored by libtracecmd */
	if (v->nsections == SECTIONS_MAX)
		return vt_walk_fail(v->w, "corrupt options: over %d sections",
				    SECTIONS_MAX);
	v->sections[v->nsections].id = id;
	v->sections[v->nsections++].offset = vt_walk_get_u64(v->w, buf);
	return 0;
}

static int add_buffer(struct v7 *v, uint16_t id, const unsigned char *buf,
		      uint32_t len)
{
	const unsigned char *name;

	/* The offset, then the instance's name and clock. */
	if (len < 8 || !memchr(buf + 8, '\0', len - 8))
		return vt_walk_fail(
			v->w, "corrupt options: a buffer option of %u bytes",
			len);
	name = buf + 8;
	if (id == TRACEDAT_OPTION_BUFFER_TEXT)
		return vt_walk_fail(
			v->w,
			"a latency tracer's text file: it has no per-CPU event data to report");
	if (v->nbuffers == BUFFERS_MAX)
		return vt_walk_fail(v->w, "corrupt options: over %d buffers",
				    BUFFERS_MAX);
	v->buffers[v->nbuffers].data = malloc(len);
	if (!v->buffers[v->nbuffers].data)
		return -ENOMEM;
	memcpy(v->buffers[v->nbuffers].data, buf, len);
	v->buffers[v->nbuffers++].len = len;
	if (!*name)
		v->top = true;
	return 0;
}

static int check_option(struct v7 *v, struct vt_walk *s, uint16_t id,
			const unsigned char *buf, uint32_t len, uint64_t *next)
{
	uint32_t cpus = 0;

	switch (id) {
	case TRACEDAT_OPTION_DONE:
		if (len < 8)
			return vt_walk_fail(
				s, "corrupt options: a DONE option of %u bytes",
				len);
		*next = vt_walk_get_u64(s, buf);
		return 0;
	case TRACEDAT_OPTION_BUFFER:
	case TRACEDAT_OPTION_BUFFER_TEXT:
		return add_buffer(v, id, buf, len);
	case TRACEDAT_OPTION_HEADER_INFO:
	case TRACEDAT_OPTION_FTRACE_EVENTS:
	case TRACEDAT_OPTION_EVENT_FORMATS:
	case TRACEDAT_OPTION_KALLSYMS:
	case TRACEDAT_OPTION_PRINTK:
	case TRACEDAT_OPTION_CMDLINES:
		return add_section(v, id, buf, len);
	default:
		return vt_walk_option(s, id, buf, len, &cpus);
	}
}

/* One options section; sets *next to the next one's offset (0: none). */
static int walk_options(struct v7 *v, uint64_t offset, uint64_t *next)
{
	const unsigned char *buf;
	unsigned char *data;
	struct vt_walk s;
	uint16_t id;
	uint32_t len;
	int ret;

	ret = section_load(v, TRACEDAT_OPTION_DONE, offset, &s, &data);
	while (!ret) {
		ret = vt_walk_u16(&s, &id, "the options");
		if (!ret)
			ret = vt_walk_u32(&s, &len, "the options");
		if (ret)
			break;
		if (len > s.size - s.pos) {
			ret = vt_walk_truncated(&s, "the options", s.pos + len);
			break;
		}
		buf = s.mem + s.pos;
		s.pos += len;
		ret = check_option(v, &s, id, buf, len, next);
		if (id == TRACEDAT_OPTION_DONE)
			break;
	}
	free(data);
	return ret;
}

/* The options sections, following the chain, each at most once. */
static int walk_option_chain(struct v7 *v, uint64_t offset)
{
	uint64_t next;
	unsigned int i;
	int ret;

	while (offset) {
		for (i = 0; i < v->noptions; i++)
			if (v->options[i] == offset)
				return vt_walk_fail(
					v->w,
					"corrupt options: the options section at offset %llu comes again",
					(unsigned long long)offset);
		if (v->noptions == OPTION_SECTIONS_MAX)
			return vt_walk_fail(
				v->w,
				"corrupt options: over %d options sections",
				OPTION_SECTIONS_MAX);
		v->options[v->noptions++] = offset;
		next = 0;
		ret = walk_options(v, offset, &next);
		if (ret)
			return ret;
		offset = next;
	}
	return 0;
}

static int walk_header_info(struct vt_walk *s, struct vt_walk *w)
{
	int ret;

	ret = vt_walk_header_sections(s);
	w->commit_size = s->commit_size;
	w->data_offset = s->data_offset;
	return ret;
}

static int walk_section(struct v7 *v, const struct option_ref *ref)
{
	unsigned char *data;
	struct vt_walk s;
	int ret;

	ret = section_load(v, ref->id, ref->offset, &s, &data);
	if (ret)
		goto out;
	switch (ref->id) {
	case TRACEDAT_OPTION_HEADER_INFO:
		ret = walk_header_info(&s, v->w);
		break;
	case TRACEDAT_OPTION_FTRACE_EVENTS:
		ret = vt_walk_ftrace_formats(&s);
		break;
	case TRACEDAT_OPTION_EVENT_FORMATS:
		ret = vt_walk_event_formats(&s);
		break;
	case TRACEDAT_OPTION_KALLSYMS:
		ret = vt_walk_skip_sized32(&s, "kallsyms");
		break;
	case TRACEDAT_OPTION_PRINTK:
		ret = vt_walk_printk(&s);
		break;
	default:
		ret = vt_walk_skip_sized64(&s, "saved cmdlines");
		break;
	}
out:
	free(data);
	return ret;
}

/* A CPU's compressed data: chunks of whole sub-buffers. */
static int walk_chunks(struct v7 *v, uint32_t cpu, uint64_t offset,
		       uint64_t len)
{
	struct vt_walk *w = v->w;
	unsigned char *in = NULL, *out = NULL;
	uint32_t count, i, clen, ulen, page;
	uint64_t done = 0;
	int ret;

	/* The size trace-cmd gives is the chunks', after their count. */
	if (w->size - offset - len < 4)
		return vt_walk_truncated(w, "the CPU data", offset + len + 4);
	w->pos = offset;
	w->size = offset + len + 4; /* the chunks stay in the CPU's data */
	ret = vt_walk_u32(w, &count, "the CPU data");
	for (i = 0; !ret && i < count; i++) {
		ret = vt_walk_u32(w, &clen, "the CPU data");
		if (!ret)
			ret = vt_walk_u32(w, &ulen, "the CPU data");
		if (ret)
			break;
		if (!ulen || ulen % w->page_size || ulen > CHUNK_MAX) {
			ret = vt_walk_fail(
				w,
				"corrupt CPU %u data: a chunk of %u bytes when decompressed, not whole pages",
				cpu, ulen);
			break;
		}
		free(in);
		free(out);
		in = malloc(clen + 1);
		out = malloc(ulen);
		if (!in || !out) {
			ret = -ENOMEM;
			break;
		}
		ret = vt_walk_read(w, in, clen, "the CPU data");
		if (!ret &&
		    vt_tracedat_decompress(v->algo, in, clen, out, ulen))
			ret = vt_walk_fail(
				w,
				"corrupt CPU %u data: chunk %u does not decompress into the %u bytes it claims",
				cpu, i, ulen);
		for (page = 0; !ret && page < ulen; page += w->page_size)
			ret = vt_walk_subbuf(w, cpu, done + page, out + page);
		done += ulen;
	}
	free(in);
	free(out);
	return ret;
}

static int walk_cpu(struct v7 *v, bool compressed, uint32_t cpu,
		    uint64_t offset, uint64_t len)
{
	struct vt_walk *w = v->w;
	uint64_t size = w->size;
	int ret;

	if (!len)
		return 0;
	if (offset > w->size || len > w->size - offset)
		return vt_walk_fail(
			w,
			"truncated: CPU %u data needs %llu bytes, the file has %llu",
			cpu, (unsigned long long)offset + len,
			(unsigned long long)w->size);
	if (compressed) {
		ret = walk_chunks(v, cpu, offset, len);
		w->size = size;
		return ret;
	}
	if (offset % w->page_size || len % w->page_size)
		return vt_walk_fail(
			w,
			"corrupt CPU %u data: offset %llu size %llu are not in whole pages",
			cpu, (unsigned long long)offset,
			(unsigned long long)len);
	return vt_walk_pages(w, cpu, offset, len);
}

/*
 * A BUFFER option: the flyrecord section's offset, the instance's name
 * and clock, the page size, the CPU count, and per CPU its id, data
 * offset and size.
 */
static int walk_buffer(struct v7 *v, const unsigned char *buf, uint32_t len)
{
	unsigned char seen[CPUS_MAX / 8] = { 0 };
	struct vt_walk *w = v->w;
	uint64_t offset, start, size, cpu_off, cpu_len;
	uint32_t pos, page_size, cpus, i, cpu;
	uint16_t flags;
	int ret;

	offset = vt_walk_get_u64(w, buf);
	pos = 8 + strlen((const char *)buf + 8) + 1;
	if (pos >= len || !memchr(buf + pos, '\0', len - pos))
		return vt_walk_fail(w, "corrupt options: a buffer of no clock");
	pos += strlen((const char *)buf + pos) + 1;
	if (len - pos < 8)
		return vt_walk_fail(
			w, "corrupt options: a buffer of no CPU count");
	page_size = vt_walk_get_u32(w, buf + pos);
	cpus = vt_walk_get_u32(w, buf + pos + 4);
	pos += 8;
	if (page_size != w->page_size)
		return vt_walk_fail(
			w,
			"corrupt options: a buffer of %u-byte pages in a file of %u",
			page_size, w->page_size);
	if ((len - pos) / 20 < cpus)
		return vt_walk_fail(
			w, "corrupt options: a buffer of %u CPUs in %u bytes",
			cpus, len);
	ret = section_header(v, TRACEDAT_OPTION_BUFFER, offset, &flags, &start,
			     &size);
	for (i = 0; !ret && i < cpus; i++, pos += 20) {
		cpu = vt_walk_get_u32(w, buf + pos);
		cpu_off = vt_walk_get_u64(w, buf + pos + 4);
		cpu_len = vt_walk_get_u64(w, buf + pos + 12);
		if (cpu >= CPUS_MAX || seen[cpu / 8] & (1 << cpu % 8))
			return vt_walk_fail(
				w, "corrupt options: a buffer's CPU %u", cpu);
		seen[cpu / 8] |= 1 << cpu % 8;
		ret = walk_cpu(v, flags & TRACEDAT_SECTION_COMPRESSED, cpu,
			       cpu_off, cpu_len);
	}
	return ret;
}

/**
 * vt_tracedat_check_v7 - check a version 7 trace.dat after its page size
 * @w: the walk, just past the file header's page size
 *
 * Return: 0 when the file is sound, -EINVAL (with @w's message) when it
 * is truncated, corrupt, compressed with an algorithm not read here or a
 * latency file, -ENOMEM, or a read's -errno.
 */
int vt_tracedat_check_v7(struct vt_walk *w)
{
	struct v7 *v;
	char version[VT_WALK_NAME_MAX];
	uint64_t offset;
	unsigned int i;
	int ret;

	v = calloc(1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	v->w = w;
	ret = vt_walk_name(w, v->algo, "the compression header");
	if (!ret)
		ret = vt_walk_name(w, version, "the compression header");
	if (!ret)
		ret = vt_walk_u64(w, &offset, "the file header");
	if (!ret && strcmp(v->algo, "none") &&
	    !vt_tracedat_can_decompress(v->algo))
		ret = vt_walk_fail(
			w,
			"compressed with '%.32s', which vtrace does not read (only zstd or none)",
			v->algo);
	if (!ret && !offset)
		ret = vt_walk_fail(w,
				   "corrupt file header: no options section");
	if (!ret)
		ret = walk_option_chain(v, offset);
	/* header_page first: the sub-buffers' layout comes from it. */
	for (i = 0; !ret && i < v->nsections; i++)
		if (v->sections[i].id == TRACEDAT_OPTION_HEADER_INFO)
			ret = walk_section(v, &v->sections[i]);
	if (!ret && !w->commit_size)
		ret = vt_walk_fail(w, "corrupt file: no header_page section");
	for (i = 0; !ret && i < v->nsections; i++)
		if (v->sections[i].id != TRACEDAT_OPTION_HEADER_INFO)
			ret = walk_section(v, &v->sections[i]);
	if (!ret && !v->top)
		ret = vt_walk_fail(
			w,
			"corrupt file: no flyrecord section of the top instance");
	for (i = 0; !ret && i < v->nbuffers; i++)
		ret = walk_buffer(v, v->buffers[i].data, v->buffers[i].len);
	for (i = 0; i < v->nbuffers; i++)
		free(v->buffers[i].data);
	free(v);
	return ret;
}
