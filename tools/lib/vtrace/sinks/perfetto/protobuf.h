/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Protocol buffers wire-format writer.
 *
 * Why this exists: no C library writes Perfetto traces (Perfetto's own
 * protozero is C++ and not packaged in Debian), and protobuf-c needs
 * generated code and a whole message in memory before encoding. vtrace
 * streams traces of any size, so it encodes the wire format directly:
 * varints, zigzag, fixed 32/64-bit and length-delimited fields, with
 * nested messages opened and closed in place. Memory is what the caller
 * lets the buffer grow to: it writes a message out (and resets the
 * buffer) once it is complete.
 *
 * A nested message gets VT_PB_LEN_RESERVE bytes for its length when it
 * is opened, or one byte when it is expected to be short (an event);
 * closing it writes the shortest varint of its length and moves the
 * body over the difference, so the output is the canonical encoding
 * (what protoc --encode would write).
 *
 * Errors (allocation, a message too long) stick in @err; check it once
 * at the end of a message.
 */
#ifndef _VTRACE_PROTOBUF_H
#define _VTRACE_PROTOBUF_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Nesting depth of messages that may be open at once. */
#define VT_PB_MAX_DEPTH 8
/* Bytes kept for a nested message's length: up to 2^28 - 1 bytes. */
#define VT_PB_LEN_RESERVE 4
#define VT_PB_LEN_MAX ((1u << (7 * VT_PB_LEN_RESERVE)) - 1)

enum vt_pb_wire_type {
	VT_PB_VARINT = 0,
	VT_PB_FIXED64 = 1,
	VT_PB_LEN = 2,
	VT_PB_FIXED32 = 5,
};

/**
 * struct vt_pb - an output buffer being filled with protobuf fields
 * @buf: the encoded bytes
 * @len: bytes used in @buf
 * @cap: bytes allocated for @buf
 * @open: offset in @buf of each open message's body
 * @reserve: bytes kept in front of each open message's body for its length
 * @depth: number of open messages
 * @err: 0, or the first negative errno met
 */
struct vt_pb {
	unsigned char *buf;
	size_t len;
	size_t cap;
	size_t open[VT_PB_MAX_DEPTH];
	unsigned char reserve[VT_PB_MAX_DEPTH];
	int depth;
	int err;
};

void vt_pb_init(struct vt_pb *pb);
void vt_pb_free(struct vt_pb *pb);
void vt_pb_reset(struct vt_pb *pb);
int vt_pb_grow(struct vt_pb *pb, size_t need);
void vt_pb_open(struct vt_pb *pb, uint32_t field, unsigned int reserve);
void vt_pb_close(struct vt_pb *pb);

/* The most bytes one varint takes. */
#define VT_PB_VARINT_MAX 10

/*
 * Room for @n more bytes; 0 or -errno (also left in @pb->err). Kept
 * inline: every field writer calls it.
 */
static inline int vt_pb_room(struct vt_pb *pb, size_t n)
{
	if (pb->len + n <= pb->cap)
		return 0;
	return vt_pb_grow(pb, n);
}

static inline unsigned char *vt_pb_put_varint(unsigned char *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (unsigned char)v | 0x80;
		v >>= 7;
	}
	*p++ = (unsigned char)v;
	return p;
}

static inline void vt_pb_raw_varint(struct vt_pb *pb, uint64_t v)
{
	if (vt_pb_room(pb, VT_PB_VARINT_MAX))
		return;
	pb->len = vt_pb_put_varint(pb->buf + pb->len, v) - pb->buf;
}

static inline void vt_pb_tag(struct vt_pb *pb, uint32_t field,
			     enum vt_pb_wire_type type)
{
	vt_pb_raw_varint(pb, (uint64_t)field << 3 | type);
}

/**
 * vt_pb_begin - open a nested message field
 * @pb: the buffer
 * @field: the field number of the message in its parent
 *
 * Fields written until the matching vt_pb_end() belong to the message.
 * Room for the longest length is kept in front: the body moves back
 * once, at the end, by what the length did not need.
 */
static inline void vt_pb_begin(struct vt_pb *pb, uint32_t field)
{
	vt_pb_open(pb, field, VT_PB_LEN_RESERVE);
}

/**
 * vt_pb_begin_short - open a nested message that is usually short
 * @pb: the buffer
 * @field: the field number of the message in its parent
 *
 * As vt_pb_begin(), for messages of at most 127 bytes as a rule (one
 * event, one field): one byte is kept for the length, so that such a
 * message never moves; a longer one moves forward at its end. In line,
 * as it is opened for every event.
 */
static inline void vt_pb_begin_short(struct vt_pb *pb, uint32_t field)
{
	if (pb->err || pb->depth == VT_PB_MAX_DEPTH ||
	    pb->len + VT_PB_VARINT_MAX + 1 > pb->cap) {
		vt_pb_open(pb, field, 1);
		return;
	}
	pb->len = vt_pb_put_varint(pb->buf + pb->len,
				   (uint64_t)field << 3 | VT_PB_LEN) -
		  pb->buf + 1;
	pb->reserve[pb->depth] = 1;
	pb->open[pb->depth++] = pb->len;
}

/**
 * vt_pb_end - close the innermost open message
 * @pb: the buffer
 *
 * Writes the message's length in front of it, as the shortest varint;
 * in line where that is the one byte kept for it.
 */
static inline void vt_pb_end(struct vt_pb *pb)
{
	int d = pb->depth - 1;
	size_t len;

	if (!pb->err && d >= 0 && pb->reserve[d] == 1) {
		len = pb->len - pb->open[d];
		if (len < 0x80) {
			pb->buf[pb->open[d] - 1] = (unsigned char)len;
			pb->depth = d;
			return;
		}
	}
	vt_pb_close(pb);
}

/* uint32, uint64, bool and enum fields; int32/int64 pass (uint64_t)v. */
static inline void vt_pb_varint(struct vt_pb *pb, uint32_t field, uint64_t v)
{
	unsigned char *p;

	if (vt_pb_room(pb, 2 * VT_PB_VARINT_MAX))
		return;
	p = vt_pb_put_varint(pb->buf + pb->len, (uint64_t)field << 3);
	pb->len = vt_pb_put_varint(p, v) - pb->buf;
}

/* int32 and int64 fields: negative values take ten bytes. */
static inline void vt_pb_int(struct vt_pb *pb, uint32_t field, int64_t v)
{
	vt_pb_varint(pb, field, (uint64_t)v);
}

/* sint32 and sint64 fields. */
static inline void vt_pb_sint(struct vt_pb *pb, uint32_t field, int64_t v)
{
	vt_pb_varint(pb, field, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

static inline void vt_pb_fixed64(struct vt_pb *pb, uint32_t field, uint64_t v)
{
	int i;

	vt_pb_tag(pb, field, VT_PB_FIXED64);
	if (vt_pb_room(pb, 8))
		return;
	for (i = 0; i < 8; i++)
		pb->buf[pb->len++] = v >> (8 * i);
}

static inline void vt_pb_fixed32(struct vt_pb *pb, uint32_t field, uint32_t v)
{
	int i;

	vt_pb_tag(pb, field, VT_PB_FIXED32);
	if (vt_pb_room(pb, 4))
		return;
	for (i = 0; i < 4; i++)
		pb->buf[pb->len++] = v >> (8 * i);
}

static inline void vt_pb_double(struct vt_pb *pb, uint32_t field, double d)
{
	uint64_t v;

	memcpy(&v, &d, sizeof(v));
	vt_pb_fixed64(pb, field, v);
}

/* bytes and string fields. */
static inline void vt_pb_bytes(struct vt_pb *pb, uint32_t field,
			       const void *data, size_t len)
{
	if (len > VT_PB_LEN_MAX) {
		if (!pb->err)
			pb->err = -EFBIG;
		return;
	}
	vt_pb_tag(pb, field, VT_PB_LEN);
	vt_pb_raw_varint(pb, len);
	if (vt_pb_room(pb, len))
		return;
	memcpy(pb->buf + pb->len, data, len);
	pb->len += len;
}

static inline void vt_pb_string(struct vt_pb *pb, uint32_t field, const char *s)
{
	vt_pb_bytes(pb, field, s, strlen(s));
}

#endif /* _VTRACE_PROTOBUF_H */
