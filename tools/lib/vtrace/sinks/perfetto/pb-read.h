/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Protocol buffer wire format, read field by field without a schema: the
 * Perfetto reader's view of a trace, where unknown fields are the rule
 * (a phone's trace carries hundreds of messages vtrace never looks into)
 * and are skipped. The config reader (config/proto-decode.c) is strict
 * instead and keeps its own decoder.
 */
#ifndef _VTRACE_PB_READ_H
#define _VTRACE_PB_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum vt_pb_wire {
	VT_PB_WIRE_VARINT = 0,
	VT_PB_WIRE_FIXED64 = 1,
	VT_PB_WIRE_LEN = 2,
	VT_PB_WIRE_FIXED32 = 5,
};

/**
 * struct vt_pb_cursor - the unread part of one message
 * @p: next byte
 * @end: one past the message's last byte
 * @bad: a field did not parse (truncated, bad wire type, length past @end)
 */
struct vt_pb_cursor {
	const unsigned char *p;
	const unsigned char *end;
	bool bad;
};

/**
 * struct vt_pb_field_view - one field as read
 * @number: field number
 * @wire: wire type
 * @u: the value of a varint or fixed field
 * @data: a length-delimited field's bytes (inside the buffer read)
 * @len: their length
 */
struct vt_pb_field_view {
	uint32_t number;
	enum vt_pb_wire wire;
	uint64_t u;
	const unsigned char *data;
	size_t len;
};

/* A cursor over @len bytes at @data (which may be NULL when @len is 0). */
static inline struct vt_pb_cursor vt_pb_cursor(const void *data, size_t len)
{
	struct vt_pb_cursor c = { data, data, false };

	if (len)
		c.end += len;
	return c;
}

bool vt_pb_read_varint(struct vt_pb_cursor *c, uint64_t *v);
bool vt_pb_next(struct vt_pb_cursor *c, struct vt_pb_field_view *f);

#endif /* _VTRACE_PB_READ_H */
