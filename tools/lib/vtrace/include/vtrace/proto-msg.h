/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Protocol buffer messages as vtrace reads them: a schema (the fields of
 * the messages vtrace knows, with their numbers and types) and the tree a
 * parsed message becomes, whether it came in text format (<vtrace/pbtxt.h>)
 * or in binary form (<vtrace/proto-decode.h>).
 */
#ifndef _VTRACE_PROTO_MSG_H
#define _VTRACE_PROTO_MSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum vtrace_pb_type {
	VTRACE_PB_BOOL,
	VTRACE_PB_INT32,
	VTRACE_PB_INT64,
	VTRACE_PB_UINT32,
	VTRACE_PB_UINT64,
	VTRACE_PB_STRING,
	VTRACE_PB_ENUM,
	VTRACE_PB_MESSAGE,
};

/**
 * struct vtrace_pb_enum_value - one value of an enum
 * @name: the value's name
 * @number: its number
 */
struct vtrace_pb_enum_value {
	const char *name;
	int32_t number;
};

struct vtrace_pb_message;

/**
 * struct vtrace_pb_field - one field of a message
 * @name: field name
 * @number: field number
 * @type: value type
 * @repeated: whether the field may be given more than once
 * @message: for VTRACE_PB_MESSAGE, the message type; NULL for a message
 *	vtrace does not look into (its contents are checked for syntax only)
 * @values: for VTRACE_PB_ENUM, the enum's values; NULL for an enum vtrace
 *	does not interpret (any name or number is taken)
 * @nr_values: number of @values
 */
struct vtrace_pb_field {
	const char *name;
	uint32_t number;
	enum vtrace_pb_type type;
	bool repeated;
	const struct vtrace_pb_message *message;
	const struct vtrace_pb_enum_value *values;
	size_t nr_values;
};

/**
 * struct vtrace_pb_message - a message type
 * @name: full name without the package, e.g. "TraceConfig.BufferConfig"
 * @fields: its fields
 * @nr_fields: number of @fields
 */
struct vtrace_pb_message {
	const char *name;
	const struct vtrace_pb_field *fields;
	size_t nr_fields;
};

const struct vtrace_pb_field *
vtrace_pb_field_by_name(const struct vtrace_pb_message *msg, const char *name,
			size_t len);
const struct vtrace_pb_field *
vtrace_pb_field_by_number(const struct vtrace_pb_message *msg, uint32_t number);
const char *vtrace_pb_type_name(enum vtrace_pb_type type);

struct vtrace_pb_msg;

/**
 * struct vtrace_pb_value - one field occurrence in a parsed message
 * @field: its schema entry
 * @line: line of the field's name in the text, 0 for binary input
 * @column: its column; for binary input the byte offset of its tag plus 1
 * @u: BOOL (0 or 1), UINT32 and UINT64 values
 * @i: INT32, INT64 and ENUM values
 * @str: STRING value (NUL-terminated; may contain NUL bytes, see @len)
 * @len: length of @str
 * @msg: MESSAGE value, NULL for a message vtrace does not look into
 */
struct vtrace_pb_value {
	const struct vtrace_pb_field *field;
	unsigned int line;
	unsigned int column;
	union {
		uint64_t u;
		int64_t i;
		struct {
			char *str;
			size_t len;
		};
		struct vtrace_pb_msg *msg;
	};
};

/**
 * struct vtrace_pb_msg - a parsed message
 * @type: its schema
 * @values: the fields in input order
 * @nr: number of @values
 * @alloc: allocated @values
 */
struct vtrace_pb_msg {
	const struct vtrace_pb_message *type;
	struct vtrace_pb_value *values;
	size_t nr;
	size_t alloc;
};

struct vtrace_pb_msg *vtrace_pb_msg_new(const struct vtrace_pb_message *type);
void vtrace_pb_msg_free(struct vtrace_pb_msg *msg);
struct vtrace_pb_value *vtrace_pb_msg_add(struct vtrace_pb_msg *msg,
					  const struct vtrace_pb_field *field,
					  unsigned int line,
					  unsigned int column);
const struct vtrace_pb_value *
vtrace_pb_msg_find(const struct vtrace_pb_msg *msg,
		   const struct vtrace_pb_field *field);

/* Deepest nesting of messages accepted in either form. */
#define VTRACE_PB_MAX_DEPTH 64

#endif /* _VTRACE_PROTO_MSG_H */
