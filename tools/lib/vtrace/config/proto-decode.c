// SPDX-License-Identifier: LGPL-2.1
/*
 * Reader of the protocol buffer binary form ("perfetto -c config.pb").
 *
 * Small and schema-driven like the text reader, so that both produce the
 * same tree and the same checks apply: protobuf-c would need generated code
 * for Perfetto's whole config and would keep unknown fields silently.
 *
 * Packed repeated integers are accepted as protobuf requires. Stricter than
 * protobuf, and reported as errors: unknown field numbers, a wire type that
 * does not match the field, a non-repeated field given twice (protobuf
 * keeps the last), groups, and values out of their type's range.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/proto-decode.h"
#include "sinks/perfetto/protobuf.h"

struct decoder {
	const char *file;
	const unsigned char *buf;
	struct vtrace_diags *diags;
	int err;
};

static int error_at(struct decoder *d, size_t offset, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int error_at(struct decoder *d, size_t offset, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	if (d->err)
		return d->err;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	d->err = vtrace_diag_add(d->diags, d->file, 0, 0, VTRACE_ERROR,
				 "byte %zu: %s", offset, msg) ?
			 -ENOMEM :
			 -EINVAL;
	return d->err;
}

/**
 * vt_proto_is_binary - whether a config file is in binary form
 * @buf: file contents
 * @len: their length
 *
 * Text format is printable text; a binary message starts with a field tag
 * and carries lengths and varints, bytes that text never has.
 *
 * Return: true when @buf contains a NUL or a control character other than
 * tab, newline, vertical tab, form feed and carriage return.
 */
bool vt_proto_is_binary(const char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = buf[i];

		if ((c < 0x20 && !strchr("\t\n\v\f\r", c)) || c == 0x7f)
			return true;
	}
	return false;
}

static int read_varint(struct decoder *d, size_t *pos, size_t end, uint64_t *v)
{
	size_t start = *pos;
	unsigned int shift = 0;

	*v = 0;
	while (1) {
		unsigned char b;

		if (*pos >= end)
			return error_at(d, start, "truncated varint");
		b = d->buf[(*pos)++];
		if (shift == 63 && b > 1)
			return error_at(d, start, "varint longer than 64 bits");
		*v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return 0;
		shift += 7;
		if (shift > 63)
			return error_at(d, start, "varint longer than 64 bits");
	}
}

static int check_integer(struct decoder *d, const struct vtrace_pb_field *f,
			 size_t offset, uint64_t v, struct vtrace_pb_value *val)
{
	int64_t s = (int64_t)v;
	size_t i;

	switch (f->type) {
	case VTRACE_PB_BOOL:
		if (v > 1)
			goto range;
		val->u = v;
		return 0;
	case VTRACE_PB_UINT32:
		if (v > UINT32_MAX)
			goto range;
		val->u = v;
		return 0;
	case VTRACE_PB_UINT64:
		val->u = v;
		return 0;
	case VTRACE_PB_INT32:
		if (s < INT32_MIN || s > INT32_MAX)
			goto range;
		val->i = s;
		return 0;
	case VTRACE_PB_INT64:
		val->i = s;
		return 0;
	case VTRACE_PB_ENUM:
		if (s < 0 || s > INT32_MAX)
			goto range;
		val->i = s;
		if (!f->values)
			return 0;
		for (i = 0; i < f->nr_values; i++)
			if (f->values[i].number == s)
				return 0;
		return error_at(d, offset, "unknown value %lld for field '%s'",
				(long long)s, f->name);
	default:
		break;
	}
range:
	return error_at(d, offset,
			"value %llu out of range for field '%s' (%s)",
			(unsigned long long)v, f->name,
			vtrace_pb_type_name(f->type));
}

static int decode_message(struct decoder *d, struct vtrace_pb_msg *msg,
			  size_t pos, size_t end, unsigned int depth);

static int decode_len_field(struct decoder *d, struct vtrace_pb_msg *msg,
			    const struct vtrace_pb_field *f, size_t tag_at,
			    size_t pos, size_t end, unsigned int depth)
{
	struct vtrace_pb_value *val;
	uint64_t v;

	if (f->type != VTRACE_PB_STRING && f->type != VTRACE_PB_MESSAGE) {
		/* Packed repeated integers. */
		if (!f->repeated)
			return error_at(
				d, tag_at,
				"field '%s' (%s) has a length-delimited value",
				f->name, vtrace_pb_type_name(f->type));
		while (pos < end) {
			size_t at = pos;

			if (read_varint(d, &pos, end, &v))
				return d->err;
			val = vtrace_pb_msg_add(msg, f, 0, at + 1);
			if (!val)
				return d->err = -ENOMEM;
			if (check_integer(d, f, at, v, val))
				return d->err;
		}
		return 0;
	}
	val = vtrace_pb_msg_add(msg, f, 0, tag_at + 1);
	if (!val)
		return d->err = -ENOMEM;
	if (f->type == VTRACE_PB_STRING) {
		val->str = malloc(end - pos + 1);
		if (!val->str)
			return d->err = -ENOMEM;
		memcpy(val->str, d->buf + pos, end - pos);
		val->str[end - pos] = '\0';
		val->len = end - pos;
		return 0;
	}
	if (!f->message)
		return 0; /* a message vtrace does not look into */
	if (depth + 1 > VTRACE_PB_MAX_DEPTH)
		return error_at(d, tag_at, "messages nested deeper than %d",
				VTRACE_PB_MAX_DEPTH);
	val->msg = vtrace_pb_msg_new(f->message);
	if (!val->msg)
		return d->err = -ENOMEM;
	return decode_message(d, val->msg, pos, end, depth + 1);
}

static int decode_field(struct decoder *d, struct vtrace_pb_msg *msg,
			size_t *pos, size_t end, unsigned int depth)
{
	const struct vtrace_pb_field *f;
	struct vtrace_pb_value *val;
	size_t tag_at = *pos;
	uint64_t tag, v;
	unsigned int wire;

	if (read_varint(d, pos, end, &tag))
		return d->err;
	wire = tag & 7;
	if (tag >> 3 == 0 || tag >> 3 > 536870911)
		return error_at(d, tag_at, "bad field number %llu",
				(unsigned long long)(tag >> 3));
	f = vtrace_pb_field_by_number(msg->type, tag >> 3);
	if (!f)
		return error_at(d, tag_at, "unknown field number %llu in %s",
				(unsigned long long)(tag >> 3),
				msg->type->name);
	if (!f->repeated && vtrace_pb_msg_find(msg, f))
		return error_at(
			d, tag_at,
			"field '%s' given twice, but it is not repeated",
			f->name);
	switch (wire) {
	case VT_PB_VARINT:
		if (f->type == VTRACE_PB_STRING || f->type == VTRACE_PB_MESSAGE)
			break;
		if (read_varint(d, pos, end, &v))
			return d->err;
		val = vtrace_pb_msg_add(msg, f, 0, tag_at + 1);
		if (!val)
			return d->err = -ENOMEM;
		return check_integer(d, f, tag_at, v, val);
	case VT_PB_LEN:
		if (read_varint(d, pos, end, &v))
			return d->err;
		if (v > end - *pos)
			return error_at(d, tag_at,
					"field '%s' is longer than its message",
					f->name);
		*pos += v;
		return decode_len_field(d, msg, f, tag_at, *pos - v, *pos,
					depth);
	default:
		break;
	}
	return error_at(d, tag_at, "field '%s' (%s) has wire type %u", f->name,
			vtrace_pb_type_name(f->type), wire);
}

static int decode_message(struct decoder *d, struct vtrace_pb_msg *msg,
			  size_t pos, size_t end, unsigned int depth)
{
	while (pos < end)
		if (decode_field(d, msg, &pos, end, depth))
			return d->err;
	return 0;
}

/**
 * vt_proto_decode - read a message in binary form
 * @type: schema of the top-level message
 * @file: file name for diagnostics
 * @buf: the encoded message
 * @len: its length
 * @out: set to the parsed message on success (free it with
 *	vtrace_pb_msg_free())
 * @diags: the first error is appended here, with its byte offset
 *
 * Values get line 0 and their tag's byte offset plus 1 as column.
 *
 * Return: 0, -EINVAL after an error in the input, or -ENOMEM.
 */
int vt_proto_decode(const struct vtrace_pb_message *type, const char *file,
		    const char *buf, size_t len, struct vtrace_pb_msg **out,
		    struct vtrace_diags *diags)
{
	struct decoder d = {
		.file = file,
		.buf = (const unsigned char *)buf,
		.diags = diags,
	};
	struct vtrace_pb_msg *msg;

	*out = NULL;
	msg = vtrace_pb_msg_new(type);
	if (!msg)
		return -ENOMEM;
	if (decode_message(&d, msg, 0, len, 0)) {
		vtrace_pb_msg_free(msg);
		return d.err;
	}
	*out = msg;
	return 0;
}
