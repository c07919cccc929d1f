/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Parser of atrace marker text: the lines Android's atrace writers (and
 * libvtrace-atrace) write to trace_marker, and trace_printk text in the
 * same form.
 */
#ifndef _VTRACE_MARKER_PARSE_H
#define _VTRACE_MARKER_PARSE_H

#include <stddef.h>
#include <stdint.h>

enum vt_marker_kind {
	VT_MARKER_BEGIN, /* B|pid|name */
	VT_MARKER_END, /* E|pid, or E alone */
	VT_MARKER_ASYNC_BEGIN, /* S|pid|name|cookie */
	VT_MARKER_ASYNC_END, /* F|pid|name|cookie */
	VT_MARKER_COUNTER, /* C|pid|name|value */
};

/**
 * struct vt_marker - one parsed marker
 * @kind: which marker
 * @pid: the writer's process id (0 for a bare "E")
 * @name: the slice, async slice or counter name, in the parsed text (not
 *	NUL-terminated); NULL for an end
 * @name_len: bytes of @name
 * @value: the cookie of an async marker, the value of a counter
 */
struct vt_marker {
	enum vt_marker_kind kind;
	int pid;
	const char *name;
	size_t name_len;
	int64_t value;
};

int vt_marker_parse(const char *text, size_t len, struct vt_marker *m);

#endif /* _VTRACE_MARKER_PARSE_H */
