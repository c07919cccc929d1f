/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The walk of a trace.dat's bytes that both versions' checks share
 * (tracedat-check.c for version 6, tracedat-check-v7.c for version 7): a
 * cursor over the file or over a section decompressed into memory, and
 * the checks of the contents both versions store alike (header_page, the
 * event formats, printk formats, the options libtracecmd trusts, the
 * sub-buffers). Internal to the library.
 */
#ifndef VTRACE_TRACEDAT_WALK_H
#define VTRACE_TRACEDAT_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Longest system name, version or compression name we accept. */
#define VT_WALK_NAME_MAX 256

/**
 * struct vt_walk - a cursor over a trace.dat, or over one of its sections
 * @fd: the file, read when @mem is NULL
 * @mem: a section's bytes in memory (decompressed), or NULL
 * @pos: where the next read starts (in the file, or in @mem)
 * @size: the end of what may be read (the file's size, a section's end)
 * @within: what @size bounds, for messages ("the file", "the section")
 * @swap: the file's byte order is not the host's
 * @big_endian: the file's byte order is big endian
 * @page_size: the sub-buffer size from the file header
 * @commit_size: bytes of a sub-buffer's commit field (header_page)
 * @data_offset: offset of a sub-buffer's events: 8 + @commit_size
 * @msg: set to why the file is refused
 * @msg_size: size of @msg
 */
struct vt_walk {
	int fd;
	const unsigned char *mem;
	uint64_t pos;
	uint64_t size;
	const char *within;
	bool swap;
	bool big_endian;
	uint32_t page_size;
	unsigned int commit_size;
	unsigned int data_offset;
	char *msg;
	size_t msg_size;
};

int vt_walk_fail(struct vt_walk *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int vt_walk_truncated(struct vt_walk *w, const char *section, uint64_t need);
int vt_walk_read(struct vt_walk *w, void *buf, size_t len, const char *section);
int vt_walk_u16(struct vt_walk *w, uint16_t *v, const char *section);
int vt_walk_u32(struct vt_walk *w, uint32_t *v, const char *section);
int vt_walk_u64(struct vt_walk *w, uint64_t *v, const char *section);
int vt_walk_skip(struct vt_walk *w, uint64_t len, const char *section);
int vt_walk_name(struct vt_walk *w, char *name, const char *section);
int vt_walk_expect(struct vt_walk *w, const char *tag, size_t len,
		   const char *section);
int vt_walk_skip_sized64(struct vt_walk *w, const char *section);
int vt_walk_skip_sized32(struct vt_walk *w, const char *section);
uint32_t vt_walk_get_u32(const struct vt_walk *w, const unsigned char *p);
uint64_t vt_walk_get_u64(const struct vt_walk *w, const unsigned char *p);

int vt_walk_header_page(struct vt_walk *w);
int vt_walk_header_sections(struct vt_walk *w);
int vt_walk_ftrace_formats(struct vt_walk *w);
int vt_walk_event_formats(struct vt_walk *w);
int vt_walk_printk(struct vt_walk *w);
int vt_walk_option(struct vt_walk *w, uint16_t id, const unsigned char *buf,
		   uint32_t len, uint32_t *cpus);
int vt_walk_subbuf(struct vt_walk *w, uint32_t cpu, uint64_t offset,
		   const unsigned char *page);
int vt_walk_pages(struct vt_walk *w, uint32_t cpu, uint64_t offset,
		  uint64_t len);

#endif /* VTRACE_TRACEDAT_WALK_H */
