// SPDX-License-Identifier: GPL-2.0
/*
 * Layout check of a trace.dat; see tracedat-check.h for why.
 */
#include <byteswap.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <event-parse.h>

#include <vtrace/file-io.h>
#include "sinks/tracedat/tracedat-check.h"
#include "sinks/tracedat/tracedat-format.h"
#include <vtrace/tracedat-writer.h>

/* Longest system name and version string we accept. */
#define NAME_MAX_LEN 256
/* header_page is a few hundred bytes of text; more is corruption. */
#define HEADER_PAGE_MAX_LEN 4096
/* An event format is a few KiB of text, the longest some tens. */
#define FORMAT_MAX_LEN (1 << 20)

struct walk {
	int fd;
	uint64_t pos;
	uint64_t size;
	bool swap;
	bool big_endian;
	uint32_t page_size;
	unsigned int commit_size;
	unsigned int data_offset; /* of a sub-buffer's events: 8 + commit */
	char *msg;
	size_t msg_size;
};

static int fail(struct walk *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->msg, w->msg_size, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static int truncated(struct walk *w, const char *section, uint64_t need)
{
	return fail(w, "truncated in %s: needs %llu bytes, the file has %llu",
		    section, (unsigned long long)need,
		    (unsigned long long)w->size);
}

static int read_bytes(struct walk *w, void *buf, size_t len,
		      const char *section)
{
	int ret;

	if (len > w->size - w->pos)
		return truncated(w, section, w->pos + len);
	ret = vtrace_pread_all(w->fd, buf, len, w->pos);
	if (ret == -ENODATA)
		return truncated(w, section, w->pos + len);
	if (ret)
		return ret;
	w->pos += len;
	return 0;
}

static int read_u16(struct walk *w, uint16_t *v, const char *section)
{
	int ret = read_bytes(w, v, sizeof(*v), section);

	if (!ret && w->swap)
		*v = bswap_16(*v);
	return ret;
}

static int read_u32(struct walk *w, uint32_t *v, const char *section)
{
	int ret = read_bytes(w, v, sizeof(*v), section);

	if (!ret && w->swap)
		*v = bswap_32(*v);
	return ret;
}

static int read_u64(struct walk *w, uint64_t *v, const char *section)
{
	int ret = read_bytes(w, v, sizeof(*v), section);

	if (!ret && w->swap)
		*v = bswap_64(*v);
	return ret;
}

static int skip(struct walk *w, uint64_t len, const char *section)
{
	if (len > w->size - w->pos)
		return truncated(w, section, w->pos + len);
	w->pos += len;
	return 0;
}

/* A NUL-terminated string of at most NAME_MAX_LEN bytes. */
static int read_name(struct walk *w, char *name, const char *section)
{
	int i, ret;

	for (i = 0; i < NAME_MAX_LEN; i++) {
		ret = read_bytes(w, &name[i], 1, section);
		if (ret)
			return ret;
		if (!name[i])
			return 0;
	}
	return fail(w, "corrupt %s: name longer than %d bytes", section,
		    NAME_MAX_LEN);
}

static int expect(struct walk *w, const char *tag, size_t len,
		  const char *section)
{
	char buf[16];
	int ret;

	ret = read_bytes(w, buf, len, section);
	if (!ret && memcmp(buf, tag, len))
		ret = fail(w, "corrupt file: no %s section", section);
	return ret;
}

/* A 64-bit size followed by that many bytes. */
static int skip_sized64(struct walk *w, const char *section)
{
	uint64_t len;
	int ret;

	ret = read_u64(w, &len, section);
	return ret ? ret : skip(w, len, section);
}

static int skip_sized32(struct walk *w, const char *section)
{
	uint32_t len;
	int ret;

	ret = read_u32(w, &len, section);
	return ret ? ret : skip(w, len, section);
}

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

static const char *skip_space(const char *p)
{
	while (isspace((unsigned char)*p))
		p++;
	return p;
}

/* Whether the field line at @decl ("TYPE NAME[N];") declares @name. */
static bool declares(const char *decl, const char *name, size_t len)
{
	const char *end = strchr(decl, ';'), *start;

	if (!end)
		return false;
	while (end > decl && isspace((unsigned char)end[-1]))
		end--;
	if (end > decl && end[-1] == ']')
		while (end > decl && *--end != '[')
			;
	while (end > decl && isspace((unsigned char)end[-1]))
		end--;
	for (start = end; start > decl && ident_char(start[-1]);)
		start--;
	return end - start == (ptrdiff_t)len && !memcmp(start, name, len);
}

/* Whether @fields ("field:DECL" or "field special:DECL" lines) has @name. */
static bool has_field(const char *fields, const char *name, size_t len)
{
	const char *p = fields;

	while ((p = strstr(p, "field"))) {
		p = skip_space(p + 5);
		if (!strncmp(p, "special", 7))
			p = skip_space(p + 7);
		if (*p == ':' && declares(p + 1, name, len))
			return true;
	}
	return false;
}

/*
 * REC->ent.NAME: the common header, which some formats of 6.19 and later
 * print from (mm_vmscan_node_reclaim_end's REC->ent.pid), as the field
 * common_NAME the format lists.
 */
static bool common_field(const char *fields, const char *name, size_t len)
{
	char common[64];
	size_t n;

	if (len != 3 || strncmp(name, "ent", 3) || name[3] != '.')
		return false;
	name += 4;
	for (n = 0; ident_char(name[n]); n++)
		;
	if (!n || n > sizeof(common) - sizeof("common_"))
		return false;
	snprintf(common, sizeof(common), "common_%.*s", (int)n, name);
	return has_field(fields, common, strlen(common));
}

/*
 * Text as libtraceevent's tokenizer takes it: it makes no token of other
 * bytes, which its format parser then dereferences.
 */
static bool text_char(char c)
{
	return (c >= ' ' && c <= '~') || (c >= '\t' && c <= '\r');
}

/*
 * One event format, which must be text (as the kernel's are). And
 * libtraceevent 1.7 dereferences the field that a print fmt names as
 * REC->NAME in __print_flags() or __print_symbolic() without checking
 * that the event has one; refuse any REC->NAME that is not a field of the
 * event (in the kernel's formats they all are).
 */
static int walk_format(struct walk *w, const char *section)
{
	char event[64] = "?";
	const char *rec, *name;
	char *text, *fmt;
	uint64_t len, i;
	size_t n;
	int ret;

	ret = read_u64(w, &len, section);
	if (ret)
		return ret;
	if (len > w->size - w->pos)
		return truncated(w, section, w->pos + len);
	if (len > FORMAT_MAX_LEN)
		return fail(w, "corrupt %s: a format of %llu bytes", section,
			    (unsigned long long)len);
	text = malloc(len + 1);
	if (!text)
		return -ENOMEM;
	ret = read_bytes(w, text, len, section);
	text[ret ? 0 : len] = '\0';
	if (sscanf(text, "name: %63s", event) != 1)
		strcpy(event, "?");
	for (i = 0; !ret && i < len; i++)
		if (!text_char(text[i]))
			ret = fail(w, "corrupt %s: %s has byte 0x%02x at %llu",
				   section, event, (unsigned char)text[i],
				   (unsigned long long)i);
	fmt = strstr(text, "print fmt:");
	if (fmt)
		*fmt++ = '\0'; /* the fields before, the print fmt after */
	for (rec = fmt; !ret && rec && (rec = strstr(rec, "REC")); rec += 3) {
		name = skip_space(rec + 3);
		if (ident_char(rec[-1]) || strncmp(name, "->", 2))
			continue;
		name = skip_space(name + 2);
		for (n = 0; ident_char(name[n]); n++)
			;
		if (n && !has_field(text, name, n) &&
		    !common_field(text, name, n))
			ret = fail(
				w,
				"corrupt %s: %s prints REC->%.*s, which is not one of its fields",
				section, event, (int)n, name);
	}
	free(text);
	return ret;
}

static int walk_formats(struct walk *w)
{
	char system[NAME_MAX_LEN];
	uint32_t n, systems, i, j;
	int ret;

	ret = read_u32(w, &n, "the ftrace formats");
	for (i = 0; !ret && i < n; i++)
		ret = walk_format(w, "the ftrace formats");
	if (!ret)
		ret = read_u32(w, &systems, "the event formats");
	for (i = 0; !ret && i < systems; i++) {
		ret = read_name(w, system, "the event formats");
		if (!ret)
			ret = read_u32(w, &n, "the event formats");
		for (j = 0; !ret && j < n; j++)
			ret = walk_format(w, "the event formats");
	}
	return ret;
}

static uint32_t get_u32(struct walk *w, const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return w->swap ? bswap_32(v) : v;
}

/*
 * Time shift option (host and guest clocks): trace id (8), flags (4), CPU
 * count (4), per CPU a sample count (4) and 3 x 8 bytes a sample, ... A
 * CPU of no samples makes libtracecmd read samples [0] and [-1].
 */
static int check_time_shift(struct walk *w, const unsigned char *buf,
			    uint32_t len)
{
	uint32_t cpus, cpu, samples, pos = 16;

	if (len < pos)
		return 0; /* ignored */
	cpus = get_u32(w, buf + 12);
	for (cpu = 0; cpu < cpus && len - pos >= 4; cpu++) {
		samples = get_u32(w, buf + pos);
		pos += 4;
		if (!samples)
			return fail(
				w,
				"corrupt options: the time shift of CPU %u has no samples",
				cpu);
		if ((len - pos) / 24 < samples)
			break; /* refused by libtracecmd */
		pos += 24 * samples;
	}
	return 0;
}

/*
 * Guest option: name, trace id (8), CPU count (4), per CPU its id (4) and
 * host PID (4). libtracecmd bounds a CPU id by the count, not by 0.
 */
static int check_guest(struct walk *w, const unsigned char *buf, uint32_t len)
{
	uint32_t pos = strlen((const char *)buf) + 1 + 12, cpu;
	int32_t cpus, id;

	if (len < pos)
		return 0; /* refused by libtracecmd */
	cpus = get_u32(w, buf + pos - 4);
	for (cpu = 0; (int32_t)cpu < cpus && len - pos >= 8; cpu++, pos += 8) {
		id = get_u32(w, buf + pos);
		if (id < 0)
			return fail(w,
				    "corrupt options: guest CPU %u has id %d",
				    cpu, id);
	}
	return 0;
}

/*
 * What libtracecmd 1.3 trusts in an option: it reads these as text
 * (strdup, strtoll, strtok_r) without ending them itself; it writes the
 * last byte of CPU stats and reads that of proc maps, even of none; it
 * reads 4 bytes of a CPU count whatever the size.
 */
static int check_option(struct walk *w, uint16_t id, const unsigned char *buf,
			uint32_t len, uint32_t *cpus)
{
	uint32_t text = 0;

	switch (id) {
	case TRACEDAT_OPTION_HOOK:
		return fail(
			w,
			"a trace-cmd hook option: libtracecmd 1.3 crashes on a malformed one and prints others on stdout");
	case TRACEDAT_OPTION_CPUSTAT:
		if (!len)
			return fail(w, "corrupt options: empty CPU stats");
		return 0;
	case TRACEDAT_OPTION_CPUCOUNT:
		if (len < 4)
			return fail(w,
				    "corrupt options: a CPU count of %u bytes",
				    len);
		*cpus = get_u32(w, buf);
		return 0;
	case TRACEDAT_OPTION_TIME_SHIFT:
		return check_time_shift(w, buf, len);
	case TRACEDAT_OPTION_TRACECLOCK:
		/*
		 * Empty in trace-cmd's v6 files (the clock follows the CPU
		 * data), which libtracecmd then reads past: too common to
		 * refuse.
		 */
		if (!len)
			return 0;
		break;
	case TRACEDAT_OPTION_BUFFER:
	case TRACEDAT_OPTION_BUFFER_TEXT:
		text = 8; /* the name follows the offset */
		if (len <= text)
			return 0; /* refused by libtracecmd */
		break;
	case TRACEDAT_OPTION_DATE:
	case TRACEDAT_OPTION_UNAME:
	case TRACEDAT_OPTION_OFFSET:
	case TRACEDAT_OPTION_VERSION:
	case TRACEDAT_OPTION_PROCMAPS:
	case TRACEDAT_OPTION_GUEST:
		break;
	default:
		return 0;
	}
	if (!memchr(buf + text, '\0', len - text))
		return fail(
			w,
			"corrupt options: option %u (%u bytes) has no NUL to end its text",
			id, len);
	return id == TRACEDAT_OPTION_GUEST ? check_guest(w, buf, len) : 0;
}

/*
 * The options; sets *clock when the trace clock follows the CPU data, and
 * *cpus to a CPU count option's: libtracecmd reads that many CPU data
 * offsets, not the header's count.
 */
static int walk_options(struct walk *w, bool *clock, uint32_t *cpus)
{
	unsigned char *buf;
	uint16_t id;
	uint32_t len;
	int ret;

	for (;;) {
		ret = read_u16(w, &id, "the options");
		if (ret || id == TRACEDAT_OPTION_DONE)
			return ret;
		ret = read_u32(w, &len, "the options");
		if (ret)
			return ret;
		if (len > w->size - w->pos)
			return truncated(w, "the options", w->pos + len);
		buf = malloc(len + 1);
		if (!buf)
			return -ENOMEM;
		ret = read_bytes(w, buf, len, "the options");
		if (!ret)
			ret = check_option(w, id, buf, len, cpus);
		free(buf);
		if (ret)
			return ret;
		if (id == TRACEDAT_OPTION_TRACECLOCK)
			*clock = true;
	}
}

/*
 * The events of one sub-buffer, @data with @commit bytes of them: each
 * must end inside them. libtraceevent's kbuffer takes an event's length
 * from its header as it is (a length word, for type 0, may even be less
 * than its own size), and libtracecmd hands the record to libtraceevent,
 * which reads the fields from it: an event running past the commit of a
 * CPU's last sub-buffer is read past the end of libtracecmd's mapping of
 * the file, which faults or not by where the mapping happens to be.
 */
static int walk_events(struct walk *w, uint32_t cpu, uint64_t page,
		       const unsigned char *data, uint64_t commit)
{
	uint64_t pos, next;
	uint32_t word, type_len = 0;

	for (pos = 0; pos < commit; pos = next) {
		next = pos + 4;
		if (next <= commit) {
			word = get_u32(w, data + pos);
			type_len = w->big_endian ? word >> 27 : word & 0x1f;
			if (type_len && type_len < SUBBUF_EVENT_PADDING)
				next += type_len * 4;
			else
				next += 4; /* a length or a time extension */
		}
		/* The length word as kbuffer takes it (0: this event's). */
		if (next <= commit && type_len == 0)
			next += (get_u32(w, data + pos + 4) - 4ULL + 3) & ~3ULL;
		else if (next <= commit && type_len == SUBBUF_EVENT_PADDING)
			next += get_u32(w, data + pos + 4) - 4ULL;
		if (next > commit || next <= pos)
			return fail(
				w,
				"corrupt CPU %u data: the event at offset %llu runs past its sub-buffer's %llu bytes",
				cpu,
				(unsigned long long)(page + w->data_offset +
						     pos),
				(unsigned long long)commit);
	}
	return 0;
}

/*
 * Every sub-buffer: its data length (commit) must fit the page, with the
 * count of missed events libtraceevent reads after the data when the
 * commit says it is stored, and so must each of its events.
 */
static int walk_pages(struct walk *w, uint32_t cpu, uint64_t offset,
		      uint64_t len)
{
	uint64_t page, commit, max = w->page_size - w->data_offset;
	unsigned char *buf;
	int ret = 0;

	buf = malloc(w->page_size);
	if (!buf)
		return -ENOMEM;
	for (page = offset; !ret && page < offset + len; page += w->page_size) {
		ret = vtrace_pread_all(w->fd, buf, w->page_size, page);
		if (ret == -ENODATA)
			ret = truncated(w, "the CPU data", page + w->page_size);
		if (ret)
			break;
		if (w->commit_size == 8) {
			memcpy(&commit, buf + 8, 8);
			if (w->swap)
				commit = bswap_64(commit);
		} else {
			commit = get_u32(w, buf + 8);
		}
		if ((commit & SUBBUF_COMMIT_SIGN_EXTENDED) ==
		    SUBBUF_COMMIT_SIGN_EXTENDED)
			commit &= ~SUBBUF_COMMIT_SIGN_EXTENDED |
				  SUBBUF_COMMIT_FLAGS;
		if ((commit & ~SUBBUF_COMMIT_FLAGS) >
		    max - (commit & SUBBUF_MISSED_STORED ? w->commit_size : 0))
			ret = fail(
				w,
				"corrupt CPU %u data: the sub-buffer at offset %llu claims %llu bytes",
				cpu, (unsigned long long)page,
				(unsigned long long)(commit &
						     ~SUBBUF_COMMIT_FLAGS));
		else
			ret = walk_events(w, cpu, page, buf + w->data_offset,
					  commit & ~SUBBUF_COMMIT_FLAGS);
	}
	free(buf);
	return ret;
}

static int walk_flyrecord(struct walk *w, uint32_t cpus, bool clock)
{
	uint64_t offset, len;
	uint32_t cpu;
	int ret = 0;

	for (cpu = 0; !ret && cpu < cpus; cpu++) {
		ret = read_u64(w, &offset, "the CPU data offsets");
		if (!ret)
			ret = read_u64(w, &len, "the CPU data offsets");
		if (ret)
			return ret;
		if (len && (offset > w->size || len > w->size - offset))
			return fail(
				w,
				"truncated: CPU %u data needs %llu bytes, the file has %llu",
				cpu, (unsigned long long)offset + len,
				(unsigned long long)w->size);
		if (offset % w->page_size || len % w->page_size)
			return fail(
				w,
				"corrupt CPU %u data: offset %llu size %llu are not in whole pages",
				cpu, (unsigned long long)offset,
				(unsigned long long)len);
		ret = walk_pages(w, cpu, offset, len);
	}
	if (!ret && clock)
		ret = skip_sized64(w, "the trace clock");
	return ret;
}

/*
 * The size of the sub-buffer header's commit field, from header_page.
 * libtracecmd takes it (as the file's long size) and the timestamp's size
 * from libtraceevent's parse of the text, which is strict (timestamp
 * first, then commit, token by token) and leaves 0 where it fails; on a
 * timestamp of other than 8 bytes it gives up on the CPU data and crashes
 * cleaning up. So ask libtraceevent instead of parsing the text here.
 */
static int walk_header_page(struct walk *w)
{
	char text[HEADER_PAGE_MAX_LEN];
	struct tep_handle *tep;
	int ts_size, size;
	uint64_t len;
	int ret;

	ret = read_u64(w, &len, "header_page");
	if (ret)
		return ret;
	/* None: libtracecmd would read the pages in an old kernel's layout. */
	if (!len || len > HEADER_PAGE_MAX_LEN)
		return fail(w, "corrupt header_page: %llu bytes",
			    (unsigned long long)len);
	ret = read_bytes(w, text, len, "header_page");
	if (ret)
		return ret;
	tep = tep_alloc();
	if (!tep)
		return -ENOMEM;
	tep_parse_header_page(tep, text, len, 8);
	ts_size = tep_get_header_timestamp_size(tep);
	size = tep_get_header_page_size(tep);
	tep_free(tep);
	if (ts_size != 8)
		return fail(w,
			    "corrupt header_page: no 8-byte timestamp field");
	if (size != 4 && size != 8)
		return fail(w, "corrupt header_page: no commit field");
	w->commit_size = size;
	w->data_offset = 8 + size;
	return 0;
}

/*
 * printk_formats lines are ADDR : "FORMAT"; libtraceevent 1.7 reads past
 * its buffer on a line without the quotes, so check them here.
 */
static int walk_printk(struct walk *w)
{
	char *text, *line, *end, *save = NULL;
	uint32_t len;
	int ret;

	ret = read_u32(w, &len, "printk formats");
	if (ret || !len)
		return ret;
	if (len > w->size - w->pos)
		return truncated(w, "printk formats", w->pos + len);
	text = malloc(len + 1);
	if (!text)
		return -ENOMEM;
	ret = vtrace_pread_all(w->fd, text, len, w->pos);
	text[len] = '\0';
	for (line = strtok_r(text, "\n", &save); !ret && line;
	     line = strtok_r(NULL, "\n", &save)) {
		end = line + strlen(line);
		if (!strstr(line, " : \"") || end[-1] != '"' ||
		    strstr(line, " : \"") + 4 >= end)
			ret = fail(w, "corrupt printk formats: '%.40s'", line);
	}
	free(text);
	w->pos += len;
	return ret;
}

static int walk_v6(struct walk *w)
{
	char type[10];
	uint32_t cpus;
	bool clock = false;
	int ret;

	ret = expect(w, "header_page", 12, "header_page");
	if (!ret)
		ret = walk_header_page(w);
	if (!ret)
		ret = expect(w, "header_event", 13, "header_event");
	if (!ret)
		ret = skip_sized64(w, "header_event");
	if (!ret)
		ret = walk_formats(w);
	if (!ret)
		ret = skip_sized32(w, "kallsyms");
	if (!ret)
		ret = walk_printk(w);
	if (!ret)
		ret = skip_sized64(w, "saved cmdlines");
	if (!ret)
		ret = read_u32(w, &cpus, "the CPU count");
	if (!ret)
		ret = read_bytes(w, type, sizeof(type), "the options");
	if (!ret && !memcmp(type, "options  ", 10)) {
		ret = walk_options(w, &clock, &cpus);
		if (!ret)
			ret = read_bytes(w, type, sizeof(type), "flyrecord");
	}
	if (ret)
		return ret;
	/* libtracecmd 1.3 iterates the CPU data it never set up: NULL. */
	if (!memcmp(type, "latency  ", 10))
		return fail(
			w,
			"a latency tracer's text file: it has no per-CPU event data to report");
	if (memcmp(type, "flyrecord", 10))
		return fail(w, "corrupt file: no flyrecord section");
	return walk_flyrecord(w, cpus, clock);
}

/* Magic, version, endianness, long size, page size. */
static int walk_initial(struct walk *w, bool *v6)
{
	char head[TRACEDAT_MAGIC_LEN], version[NAME_MAX_LEN];
	uint8_t endian, long_size;
	uint16_t one = 1;
	uint32_t page_size;
	int ret;

	ret = read_bytes(w, head, sizeof(head), "the file header");
	if (ret)
		return ret;
	if (memcmp(head, TRACEDAT_MAGIC, sizeof(head)))
		return fail(w, "not a trace.dat file (bad magic)");
	ret = read_name(w, version, "the file header");
	if (ret)
		return ret;
	/*
	 * libtracecmd takes the version as strtol() does ("6abc" is 6, "x"
	 * is 0) and reads any below 7 as version 6: only "6" is walked here,
	 * so refuse the others instead of leaving them to it unchecked.
	 */
	if (strcmp(version, TRACEDAT_VERSION) &&
	    strcmp(version, TRACEDAT_VERSION_NEXT) &&
	    (unsigned int)strtol(version, NULL, 10) <= 7)
		return fail(w,
			    "corrupt file header: version is neither 6 nor 7");
	if (strcmp(version, TRACEDAT_VERSION))
		return 0;
	ret = read_bytes(w, &endian, 1, "the file header");
	if (!ret)
		ret = read_bytes(w, &long_size, 1, "the file header");
	if (ret)
		return ret;
	if (endian > 1 || (long_size != 4 && long_size != 8))
		return fail(w, "corrupt file header");
	w->swap = endian != !*(uint8_t *)&one;
	w->big_endian = endian;
	ret = read_u32(w, &page_size, "the file header");
	if (!ret && (page_size < 256 || (page_size & (page_size - 1))))
		ret = fail(w, "corrupt file header: page size %u", page_size);
	w->page_size = page_size;
	*v6 = !ret;
	return ret;
}

int vt_tracedat_check(const char *path, char *msg, size_t msg_size)
{
	struct walk w = { .msg = msg, .msg_size = msg_size };
	struct stat st;
	bool v6 = false;
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
		ret = walk_initial(&w, &v6);
		if (!ret && v6)
			ret = walk_v6(&w);
	}
	close(w.fd);
	return ret;
}
