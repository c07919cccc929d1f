// SPDX-License-Identifier: LGPL-2.1
/*
 * Schema look-ups and the parsed-message tree shared by the text and binary
 * readers of protocol buffer messages.
 */
#include <stdlib.h>
#include <string.h>

#include <vtrace/proto-msg.h>

/**
 * vtrace_pb_field_by_name - find a field of a message by name
 * @msg: message type
 * @name: name, not necessarily NUL-terminated
 * @len: length of @name
 *
 * Return: the field, or NULL when @msg has none of that name.
 */
const struct vtrace_pb_field *
vtrace_pb_field_by_name(const struct vtrace_pb_message *msg, const char *name,
			size_t len)
{
	size_t i;

	for (i = 0; i < msg->nr_fields; i++)
		if (strlen(msg->fields[i].name) == len &&
		    !memcmp(msg->fields[i].name, name, len))
			return &msg->fields[i];
	return NULL;
}

/**
 * vtrace_pb_field_by_number - find a field of a message by number
 * @msg: message type
 * @number: field number
 *
 * Return: the field, or NULL when @msg has none of that number.
 */
const struct vtrace_pb_field *
vtrace_pb_field_by_number(const struct vtrace_pb_message *msg, uint32_t number)
{
	size_t i;

	for (i = 0; i < msg->nr_fields; i++)
		if (msg->fields[i].number == number)
			return &msg->fields[i];
	return NULL;
}

/**
 * vtrace_pb_type_name - the .proto spelling of a type
 * @type: type
 *
 * Return: "bool", "uint32", ..., "enum" or "message".
 */
const char *vtrace_pb_type_name(enum vtrace_pb_type type)
{
	static const char *const names[] = {
		[VTRACE_PB_BOOL] = "bool",     [VTRACE_PB_INT32] = "int32",
		[VTRACE_PB_INT64] = "int64",   [VTRACE_PB_UINT32] = "uint32",
		[VTRACE_PB_UINT64] = "uint64", [VTRACE_PB_STRING] = "string",
		[VTRACE_PB_ENUM] = "enum",     [VTRACE_PB_MESSAGE] = "message",
	};

	return names[type];
}

/**
 * vtrace_pb_msg_new - start an empty parsed message
 * @type: its schema
 *
 * Return: the message, or NULL when out of memory.
 */
struct vtrace_pb_msg *vtrace_pb_msg_new(const struct vtrace_pb_message *type)
{
	struct vtrace_pb_msg *msg = calloc(1, sizeof(*msg));

	if (msg)
		msg->type = type;
	return msg;
}

/**
 * vtrace_pb_msg_free - free a parsed message and everything in it
 * @msg: message, may be NULL
 */
void vtrace_pb_msg_free(struct vtrace_pb_msg *msg)
{
	size_t i;

	if (!msg)
		return;
	for (i = 0; i < msg->nr; i++) {
		if (msg->values[i].field->type == VTRACE_PB_STRING)
			free(msg->values[i].str);
		else if (msg->values[i].field->type == VTRACE_PB_MESSAGE)
			vtrace_pb_msg_free(msg->values[i].msg);
	}
	free(msg->values);
	free(msg);
}

/**
 * vtrace_pb_msg_add - append a field occurrence
 * @msg: message
 * @field: its schema entry (a field of @msg->type)
 * @line: position of the field in the input
 * @column: see struct vtrace_pb_value
 *
 * Return: the new value, zeroed but for @field and the position, or NULL
 * when out of memory.
 */
struct vtrace_pb_value *vtrace_pb_msg_add(struct vtrace_pb_msg *msg,
					  const struct vtrace_pb_field *field,
					  unsigned int line,
					  unsigned int column)
{
	struct vtrace_pb_value *v;

	if (msg->nr == msg->alloc) {
		size_t alloc = msg->alloc ? 2 * msg->alloc : 8;

		v = realloc(msg->values, alloc * sizeof(*v));
		if (!v)
			return NULL;
		msg->values = v;
		msg->alloc = alloc;
	}
	v = &msg->values[msg->nr++];
	memset(v, 0, sizeof(*v));
	v->field = field;
	v->line = line;
	v->column = column;
	return v;
}

/**
 * vtrace_pb_msg_find - the first occurrence of a field
 * @msg: message
 * @field: schema entry
 *
 * Return: the value, or NULL when @field is absent.
 */
const struct vtrace_pb_value *
vtrace_pb_msg_find(const struct vtrace_pb_msg *msg,
		   const struct vtrace_pb_field *field)
{
	size_t i;

	for (i = 0; i < msg->nr; i++)
		if (msg->values[i].field == field)
			return &msg->values[i];
	return NULL;
}
