// SPDX-License-Identifier: GPL-2.0
/*
 * The walk of a trace.dat that the version 6 and 7 checks share; see
 * tracedat-walk.h.
 */
#include <byteswap.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include <vtrace/file-io.h>
#include "sinks/tracedat/tracedat-format.h"
#include "sinks/tracedat/tracedat-walk.h"

/* header_page is a few hundred bytes of text; more is corruption. */
#define HEADER_PAGE_MAX_LEN 4096
/* An event format is a few KiB of text, the longest some tens. */
#define FORMAT_MAX_LEN (1 << 20)

/**
 * vt_walk_fail - refuse the file, saying why
 * @w: the walk
 * @fmt: printf format of the reason
 *
 * Return: -EINVAL, with the reason in @w's message.
 */
int vt_walk_fail(struct vt_walk *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->msg, w->msg_size, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/**
 * vt_walk_truncated - refuse a section that does not fit
 * @w: the walk
 * @section: the section's name
 * @need: the end the section needs
 *
 * Return: -EINVAL, with the reason in @w's message.
 */
int vt_walk_truncated(struct vt_walk *w, const char *section, uint64_t need)
{
	return vt_walk_fail(w, "truncated in %s: needs %llu bytes, %s has %llu",
			    section, (unsigned long long)need,
			    w->within ? w->within : "the file",
			    (unsigned long long)w->size);
}

/**
 * vt_walk_read - read the next bytes
 * @w: the walk
 * @buf: where they go
 * @len: how many
 * @section: the section's name, for messages
 *
 * Return: 0, -EINVAL when they are not all there, or a read's -errno.
 */
int vt_walk_read(struct vt_walk *w, void *buf, size_t len, const char *section)
{
	int ret;

	if (w->pos > w->size || len > w->size - w->pos)
		return vt_walk_truncated(w, section, w->pos + len);
	if (w->mem) {
		memcpy(buf, w->mem + w->pos, len);
	} else {
		ret = vtrace_pread_all(w->fd, buf, len, w->pos);
		if (ret == -ENODATA)
			return vt_walk_truncated(w, section, w->pos + len);
		if (ret)
			return ret;
	}
	w->pos += len;
	return 0;
}

/**
 * vt_walk_u16 - read a 16-bit number in the file's byte order
 * @w: the walk
 * @v: the number
 * @section: the section's name, for messages
 *
 * Return: as vt_walk_read().
 */
int vt_walk_u16(struct vt_walk *w, uint16_t *v, const char *section)
{
	int ret = vt_walk_read(w, v, sizeof(*v), section);

	if (!ret && w->swap)
		*v = bswap_16(*v);
	return ret;
}

/**
 * vt_walk_u32 - read a 32-bit number in the file's byte order
 * @w: the walk
 * @v: the number
 * @section: the section's name, for messages
 *
 * Return: as vt_walk_read().
 */
int vt_walk_u32(struct vt_walk *w, uint32_t *v, const char *section)
{
	int ret = vt_walk_read(w, v, sizeof(*v), section);

	if (!ret && w->swap)
		*v = bswap_32(*v);
	return ret;
}

/**
 * vt_walk_u64 - read a 64-bit number in the file's byte order
 * @w: the walk
 * @v: the number
 * @section: the section's name, for messages
 *
 * Return: as vt_walk_read().
 */
int vt_walk_u64(struct vt_walk *w, uint64_t *v, const char *section)
{
	int ret = vt_walk_read(w, v, sizeof(*v), section);

	if (!ret && w->swap)
		*v = bswap_64(*v);
	return ret;
}

/**
 * vt_walk_skip - step over bytes that must be there
 * @w: the walk
 * @len: how many
 * @section: the section's name, for messages
 *
 * Return: 0, or -EINVAL when they are not all there.
 */
int vt_walk_skip(struct vt_walk *w, uint64_t len, const char *section)
{
	if (w->pos > w->size || len > w->size - w->pos)
		return vt_walk_truncated(w, section, w->pos + len);
	w->pos += len;
	return 0;
}

/**
 * vt_walk_name - read a NUL-terminated string of at most VT_WALK_NAME_MAX
 * bytes
 * @w: the walk
 * @name: VT_WALK_NAME_MAX bytes for it
 * @section: the section's name, for messages
 *
 * Return: 0, -EINVAL when it is cut or too long, or a read's -errno.
 */
int vt_walk_name(struct vt_walk *w, char *name, const char *section)
{
	int i, ret;

	for (i = 0; i < VT_WALK_NAME_MAX; i++) {
		ret = vt_walk_read(w, &name[i], 1, section);
		if (ret)
			return ret;
		if (!name[i])
			return 0;
	}
	return vt_walk_fail(w, "corrupt %s: name longer than %d bytes", section,
			    VT_WALK_NAME_MAX);
}

/**
 * vt_walk_expect - read a section's tag
 * @w: the walk
 * @tag: the tag, NUL included when the file has it
 * @len: its length, at most 16
 * @section: the section's name, for messages
 *
 * Return: 0, -EINVAL when the bytes are not @tag, or as vt_walk_read().
 */
int vt_walk_expect(struct vt_walk *w, const char *tag, size_t len,
		   const char *section)
{
	char buf[16];
	int ret;

	if (len > sizeof(buf))
		return -EINVAL;
	ret = vt_walk_read(w, buf, len, section);
	if (!ret && memcmp(buf, tag, len))
		ret = vt_walk_fail(w, "corrupt file: no %s section", section);
	return ret;
}

/**
 * vt_walk_skip_sized64 - step over a 64-bit size and that many bytes
 * @w: the walk
 * @section: the section's name, for messages
 *
 * Return: as vt_walk_skip().
 */
int vt_walk_skip_sized64(struct vt_walk *w, const char *section)
{
	uint64_t len;
	int ret;

	ret = vt_walk_u64(w, &len, section);
	return ret ? ret : vt_walk_skip(w, len, section);
}

/**
 * vt_walk_skip_sized32 - step over a 32-bit size and that many bytes
 * @w: the walk
 * @section: the section's name, for messages
 *
 * Return: as vt_walk_skip().
 */
int vt_walk_skip_sized32(struct vt_walk *w, const char *section)
{
	uint32_t len;
	int ret;

	ret = vt_walk_u32(w, &len, section);
	return ret ? ret : vt_walk_skip(w, len, section);
}

/**
 * vt_walk_get_u32 - a 32-bit number in the file's byte order from memory
 * @w: the walk
 * @p: where it is
 *
 * Return: the number.
 */
uint32_t vt_walk_get_u32(const struct vt_walk *w, const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return w->swap ? bswap_32(v) : v;
}

/**
 * vt_walk_get_u64 - a 64-bit number in the file's byte order from memory
 * @w: the walk
 * @p: where it is
 *
 * Return: the number.
 */
uint64_t vt_walk_get_u64(const struct vt_walk *w, const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return w->swap ? bswap_64(v) : v;
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
static int walk_format(struct vt_walk *w, const char *section)
{
	char event[64] = "?";
	const char *rec, *name;
	char *text, *fmt;
	uint64_t len, i;
	size_t n;
	int ret;

	ret = vt_walk_u64(w, &len, section);
	if (ret)
		return ret;
	if (w->pos > w->size || len > w->size - w->pos)
		return vt_walk_truncated(w, section, w->pos + len);
	if (len > FORMAT_MAX_LEN)
		return vt_walk_fail(w, "corrupt %s: a format of %llu bytes",
				    section, (unsigned long long)len);
	text = malloc(len + 1);
	if (!text)
		return -ENOMEM;
	ret = vt_walk_read(w, text, len, section);
	text[ret ? 0 : len] = '\0';
	if (sscanf(text, "name: %63s", event) != 1)
		strcpy(event, "?");
	for (i = 0; !ret && i < len; i++)
		if (!text_char(text[i]))
			ret = vt_walk_fail(
				w, "corrupt %s: %s has byte 0x%02x at %llu",
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
			ret = vt_walk_fail(
				w,
				"corrupt %s: %s prints REC->%.*s, which is not one of its fields",
				section, event, (int)n, name);
	}
	free(text);
	return ret;
}

/**
 * vt_walk_ftrace_formats - check the ftrace formats: a count, then each
 * format as a 64-bit size and its text
 * @w: the walk, at the count
 *
 * Return: 0, -EINVAL when one is cut or refused, -ENOMEM, or a read's
 * -errno.
 */
int vt_walk_ftrace_formats(struct vt_walk *w)
{
	uint32_t n, i;
	int ret;

	ret = vt_walk_u32(w, &n, "the ftrace formats");
	for (i = 0; !ret && i < n; i++)
		ret = walk_format(w, "the ftrace formats");
	return ret;
}

/**
 * vt_walk_event_formats - check the event formats: a count of systems,
 * then each system's name, its count of formats and the formats
 * @w: the walk, at the count
 *
 * Return: as vt_walk_ftrace_formats().
 */
int vt_walk_event_formats(struct vt_walk *w)
{
	char system[VT_WALK_NAME_MAX];
	uint32_t n, systems, i, j;
	int ret;

	ret = vt_walk_u32(w, &systems, "the event formats");
	for (i = 0; !ret && i < systems; i++) {
		ret = vt_walk_name(w, system, "the event formats");
		if (!ret)
			ret = vt_walk_u32(w, &n, "the event formats");
		for (j = 0; !ret && j < n; j++)
			ret = walk_format(w, "the event formats");
	}
	return ret;
}

/*
 * Time shift option (host and guest clocks): trace id (8), flags (4), CPU
 * count (4), per CPU a sample count (4) and 3 x 8 bytes a sample, ... A
 * CPU of no samples makes libtracecmd read samples [0] and [-1].
 */
static int check_time_shift(struct vt_walk *w, const unsigned char *buf,
			    uint32_t len)
{
	uint32_t cpus, cpu, samples, pos = 16;

	if (len < pos)
		return 0; /* ignored */
	cpus = vt_walk_get_u32(w, buf + 12);
	for (cpu = 0; cpu < cpus && len - pos >= 4; cpu++) {
		samples = vt_walk_get_u32(w, buf + pos);
		pos += 4;
		if (!samples)
			return vt_walk_fail(
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
static int check_guest(struct vt_walk *w, const unsigned char *buf,
		       uint32_t len)
{
	uint32_t pos = strlen((const char *)buf) + 1 + 12, cpu;
	int32_t cpus, id;

	if (len < pos)
		return 0; /* refused by libtracecmd */
	cpus = vt_walk_get_u32(w, buf + pos - 4);
	for (cpu = 0; (int32_t)cpu < cpus && len - pos >= 8; cpu++, pos += 8) {
		id = vt_walk_get_u32(w, buf + pos);
		if (id < 0)
			return vt_walk_fail(
				w, "corrupt options: guest CPU %u has id %d",
				cpu, id);
	}
	return 0;
}

/**
 * vt_walk_option - check an option that both versions store alike
 * @w: the walk
 * @id: the option's id
 * @buf: its data
 * @len: bytes of @buf
 * @cpus: set to a CPU count option's count
 *
 * What libtracecmd 1.3 trusts in an option: it reads these as text
 * (strdup, strtoll, strtok_r) without ending them itself; it writes the
 * last byte of CPU stats and reads that of proc maps, even of none; it
 * reads 4 bytes of a CPU count whatever the size.
 *
 * Return: 0, or -EINVAL when the option is refused.
 */
int vt_walk_option(struct vt_walk *w, uint16_t id, const unsigned char *buf,
		   uint32_t len, uint32_t *cpus)
{
	uint32_t text = 0;

	switch (id) {
	case TRACEDAT_OPTION_HOOK:
		return vt_walk_fail(
			w,
			"a trace-cmd hook option: libtracecmd 1.3 crashes on a malformed one and prints others on stdout");
	case TRACEDAT_OPTION_CPUSTAT:
		if (!len)
			return vt_walk_fail(w,
					    "corrupt options: empty CPU stats");
		return 0;
	case TRACEDAT_OPTION_CPUCOUNT:
		if (len < 4)
			return vt_walk_fail(
				w, "corrupt options: a CPU count of %u bytes",
				len);
		*cpus = vt_walk_get_u32(w, buf);
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
		return vt_walk_fail(
			w,
			"corrupt options: option %u (%u bytes) has no NUL to end its text",
			id, len);
	return id == TRACEDAT_OPTION_GUEST ? check_guest(w, buf, len) : 0;
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
static int walk_events(struct vt_walk *w, uint32_t cpu, uint64_t page,
		       const unsigned char *data, uint64_t commit)
{
	uint64_t pos, next;
	uint32_t word, type_len = 0;

	for (pos = 0; pos < commit; pos = next) {
		next = pos + 4;
		if (next <= commit) {
			word = vt_walk_get_u32(w, data + pos);
			type_len = w->big_endian ? word >> 27 : word & 0x1f;
			if (type_len && type_len < SUBBUF_EVENT_PADDING)
				next += type_len * 4;
			else
				next += 4; /* a length or a time extension */
		}
		/* The length word as kbuffer takes it (0: this event's). */
		if (next <= commit && type_len == 0)
			next += (vt_walk_get_u32(w, data + pos + 4) - 4ULL +
				 3) &
				~3ULL;
		else if (next <= commit && type_len == SUBBUF_EVENT_PADDING)
			next += vt_walk_get_u32(w, data + pos + 4) - 4ULL;
		if (next > commit || next <= pos)
			return vt_walk_fail(
				w,
				"corrupt CPU %u data: the event at offset %llu runs past its sub-buffer's %llu bytes",
				cpu,
				(unsigned long long)(page + w->data_offset +
						     pos),
				(unsigned long long)commit);
	}
	return 0;
}

/**
 * vt_walk_subbuf - check one sub-buffer
 * @w: the walk (its page and commit sizes)
 * @cpu: whose it is, for messages
 * @offset: where it is in the file, for messages
 * @page: its @w->page_size bytes
 *
 * Its data length (commit) must fit the page, with the count of missed
 * events libtraceevent reads after the data when the commit says it is
 * stored, and so must each of its events.
 *
 * Return: 0, or -EINVAL when it is refused.
 */
int vt_walk_subbuf(struct vt_walk *w, uint32_t cpu, uint64_t offset,
		   const unsigned char *page)
{
	uint64_t commit, max = w->page_size - w->data_offset;

	if (w->commit_size == 8)
		commit = vt_walk_get_u64(w, page + 8);
	else
		commit = vt_walk_get_u32(w, page + 8);
	if ((commit & SUBBUF_COMMIT_SIGN_EXTENDED) ==
	    SUBBUF_COMMIT_SIGN_EXTENDED)
		commit &= ~SUBBUF_COMMIT_SIGN_EXTENDED | SUBBUF_COMMIT_FLAGS;
	if ((commit & ~SUBBUF_COMMIT_FLAGS) >
	    max - (commit & SUBBUF_MISSED_STORED ? w->commit_size : 0))
		return vt_walk_fail(
			w,
			"corrupt CPU %u data: the sub-buffer at offset %llu claims %llu bytes",
			cpu, (unsigned long long)offset,
			(unsigned long long)(commit & ~SUBBUF_COMMIT_FLAGS));
	return walk_events(w, cpu, offset, page + w->data_offset,
			   commit & ~SUBBUF_COMMIT_FLAGS);
}

/**
 * vt_walk_pages - check every sub-buffer of a CPU's data in the file
 * @w: the walk
 * @cpu: whose data it is, for messages
 * @offset: where it starts in the file
 * @len: its bytes, whole pages that the caller checked are in the file
 *
 * Return: 0, -EINVAL when a sub-buffer is refused, -ENOMEM, or a read's
 * -errno.
 */
int vt_walk_pages(struct vt_walk *w, uint32_t cpu, uint64_t offset,
		  uint64_t len)
{
	unsigned char *buf;
	uint64_t page;
	int ret = 0;

	buf = malloc(w->page_size);
	if (!buf)
		return -ENOMEM;
	for (page = offset; !ret && page < offset + len; page += w->page_size) {
		ret = vtrace_pread_all(w->fd, buf, w->page_size, page);
		if (ret == -ENODATA)
			ret = vt_walk_truncated(w, "the CPU data",
						page + w->page_size);
		if (!ret)
			ret = vt_walk_subbuf(w, cpu, page, buf);
	}
	free(buf);
	return ret;
}

/**
 * vt_walk_header_page - check header_page, and take the size of the
 * sub-buffer header's commit field from it
 * @w: the walk, at header_page's 64-bit size
 *
 * libtracecmd takes it (as the file's long size) and the timestamp's size
 * from libtraceevent's parse of the text, which is strict (timestamp
 * first, then commit, token by token) and leaves 0 where it fails; on a
 * timestamp of other than 8 bytes it gives up on the CPU data and crashes
 * cleaning up. So ask libtraceevent instead of parsing the text here.
 *
 * Return: 0, -EINVAL when it is refused, -ENOMEM, or a read's -errno.
 */
int vt_walk_header_page(struct vt_walk *w)
{
	char text[HEADER_PAGE_MAX_LEN];
	struct tep_handle *tep;
	int ts_size, size;
	uint64_t len;
	int ret;

	ret = vt_walk_u64(w, &len, "header_page");
	if (ret)
		return ret;
	/* None: libtracecmd would read the pages in an old kernel's layout. */
	if (!len || len > HEADER_PAGE_MAX_LEN)
		return vt_walk_fail(w, "corrupt header_page: %llu bytes",
				    (unsigned long long)len);
	ret = vt_walk_read(w, text, len, "header_page");
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
		return vt_walk_fail(
			w, "corrupt header_page: no 8-byte timestamp field");
	if (size != 4 && size != 8)
		return vt_walk_fail(w, "corrupt header_page: no commit field");
	w->commit_size = size;
	w->data_offset = 8 + size;
	return 0;
}

/**
 * vt_walk_printk - check the printk formats: a 32-bit size, then lines
 * ADDR : "FORMAT"
 * @w: the walk, at the size
 *
 * libtraceevent 1.7 reads past its buffer on a line without the quotes,
 * so they are checked here.
 *
 * Return: 0, -EINVAL when a line is refused or the text is cut, -ENOMEM,
 * or a read's -errno.
 */
int vt_walk_printk(struct vt_walk *w)
{
	char *text, *line, *end, *save = NULL;
	uint32_t len;
	int ret;

	ret = vt_walk_u32(w, &len, "printk formats");
	if (ret || !len)
		return ret;
	if (w->pos > w->size || len > w->size - w->pos)
		return vt_walk_truncated(w, "printk formats", w->pos + len);
	text = malloc((size_t)len + 1);
	if (!text)
		return -ENOMEM;
	ret = vt_walk_read(w, text, len, "printk formats");
	text[ret ? 0 : len] = '\0';
	for (line = strtok_r(text, "\n", &save); !ret && line;
	     line = strtok_r(NULL, "\n", &save)) {
		end = line + strlen(line);
		if (!strstr(line, " : \"") || end[-1] != '"' ||
		    strstr(line, " : \"") + 4 >= end)
			ret = vt_walk_fail(w, "corrupt printk formats: '%.40s'",
					   line);
	}
	free(text);
	return ret;
}

/**
 * vt_walk_header_sections - the header_page and header_event sections,
 * in the order both versions store them
 * @w: the walk, at the "header_page" name
 *
 * Return: 0, -EINVAL when one is refused (the reason in @w), -ENOMEM,
 * or a read's -errno.
 */
int vt_walk_header_sections(struct vt_walk *w)
{
	int ret;

	ret = vt_walk_expect(w, "header_page", 12, "header_page");
	if (!ret)
		ret = vt_walk_header_page(w);
	if (!ret)
		ret = vt_walk_expect(w, "header_event", 13, "header_event");
	if (!ret)
		ret = vt_walk_skip_sized64(w, "header_event");
	return ret;
}
