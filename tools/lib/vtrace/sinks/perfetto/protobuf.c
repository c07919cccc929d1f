// SPDX-License-Identifier: LGPL-2.1
/*
 * Protocol buffers wire-format writer: buffer growth and nested
 * messages (the field writers are inline in protobuf.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sinks/perfetto/protobuf.h"

/**
 * vt_pb_init - start an empty buffer
 * @pb: the buffer
 */
void vt_pb_init(struct vt_pb *pb)
{
	memset(pb, 0, sizeof(*pb));
}

/**
 * vt_pb_free - release a buffer's memory
 * @pb: the buffer, left empty and usable
 */
void vt_pb_free(struct vt_pb *pb)
{
	free(pb->buf);
	vt_pb_init(pb);
}

/**
 * vt_pb_reset - forget the bytes written, keep the memory
 * @pb: the buffer; must have no message open
 */
void vt_pb_reset(struct vt_pb *pb)
{
	pb->len = 0;
	pb->depth = 0;
	pb->err = 0;
}

/**
 * vt_pb_grow - make room for @need more bytes
 * @pb: the buffer
 * @need: bytes the next write takes
 *
 * Return: 0, or -ENOMEM (also stored in @pb->err, and then every later
 * write is dropped).
 */
int vt_pb_grow(struct vt_pb *pb, size_t need)
{
	size_t cap = pb->cap ? pb->cap : 4096;
	unsigned char *buf;

	if (pb->err)
		return pb->err;
	while (cap < pb->len + need)
		cap *= 2;
	buf = realloc(pb->buf, cap);
	if (!buf) {
		pb->err = -ENOMEM;
		return pb->err;
	}
	pb->buf = buf;
	pb->cap = cap;
	return 0;
}

/**
 * vt_pb_open - open a nested message field, keeping room for its length
 * @pb: the buffer
 * @field: the field number of the message in its parent
 * @reserve: bytes kept for the length, 1 to %VT_PB_LEN_RESERVE
 *
 * What vt_pb_begin() and vt_pb_begin_short() do.
 */
void vt_pb_open(struct vt_pb *pb, uint32_t field, unsigned int reserve)
{
	if (pb->depth == VT_PB_MAX_DEPTH) {
		if (!pb->err)
			pb->err = -E2BIG;
		return;
	}
	vt_pb_tag(pb, field, VT_PB_LEN);
	if (vt_pb_room(pb, reserve))
		return;
	pb->len += reserve;
	pb->reserve[pb->depth] = reserve;
	pb->open[pb->depth++] = pb->len;
}

/**
 * vt_pb_close - close the innermost open message
 * @pb: the buffer
 *
 * What vt_pb_end() does where the length does not fit the room kept.
 */
void vt_pb_close(struct vt_pb *pb)
{
	unsigned char len_bytes[VT_PB_LEN_RESERVE + 1];
	size_t body, len, n, reserve;
	unsigned char *start;

	if (pb->err || !pb->depth)
		return;
	body = pb->open[--pb->depth];
	reserve = pb->reserve[pb->depth];
	len = pb->len - body;
	if (len > VT_PB_LEN_MAX) {
		pb->err = -EFBIG;
		return;
	}
	n = vt_pb_put_varint(len_bytes, len) - len_bytes;
	if (n > reserve && vt_pb_room(pb, n - reserve))
		return;
	start = pb->buf + body - reserve;
	if (n != reserve)
		memmove(start + n, pb->buf + body, len);
	memcpy(start, len_bytes, n);
	pb->len = pb->len + n - reserve;
}
