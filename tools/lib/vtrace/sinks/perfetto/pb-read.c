// SPDX-License-Identifier: LGPL-2.1
/*
 * Protocol buffer wire format, field by field; see pb-read.h.
 */
#include "sinks/perfetto/pb-read.h"

/**
 * vt_pb_read_varint - read one varint
 * @c: the cursor, advanced past it
 * @v: the value
 *
 * Return: true, or false (and @c marked bad) for a varint cut off by the
 * end of the message or longer than 64 bits.
 */
bool vt_pb_read_varint(struct vt_pb_cursor *c, uint64_t *v)
{
	unsigned int shift = 0;
	uint64_t b;

	*v = 0;
	while (c->p < c->end && shift < 64) {
		b = *c->p++;
		*v |= (b & 0x7f) << shift;
		if (!(b & 0x80))
			return true;
		shift += 7;
	}
	c->bad = true;
	return false;
}

/**
 * vt_pb_next - read the next field of a message
 * @c: the cursor
 * @f: the field read
 *
 * Groups (wire types 3 and 4, unused by Perfetto) and unknown wire types
 * end the message as bad.
 *
 * Return: true for a field; false at the end of the message or on a field
 * that does not parse (then @c->bad is set).
 */
bool vt_pb_next(struct vt_pb_cursor *c, struct vt_pb_field_view *f)
{
	uint64_t tag, len;
	int i;

	if (c->bad || c->p >= c->end || !vt_pb_read_varint(c, &tag))
		return false;
	f->number = tag >> 3;
	f->wire = tag & 7;
	f->data = NULL;
	f->len = 0;
	f->u = 0;
	if (!f->number || tag >> 32)
		goto bad;
	switch (f->wire) {
	case VT_PB_WIRE_VARINT:
		return vt_pb_read_varint(c, &f->u);
	case VT_PB_WIRE_FIXED64:
	case VT_PB_WIRE_FIXED32:
		len = f->wire == VT_PB_WIRE_FIXED64 ? 8 : 4;
		if ((size_t)(c->end - c->p) < len)
			goto bad;
		for (i = len - 1; i >= 0; i--)
			f->u = f->u << 8 | c->p[i];
		c->p += len;
		return true;
	case VT_PB_WIRE_LEN:
		if (!vt_pb_read_varint(c, &len))
			return false;
		if (len > (uint64_t)(c->end - c->p))
			goto bad;
		f->data = c->p;
		f->len = len;
		c->p += len;
		return true;
	}
bad:
	c->bad = true;
	return false;
}
