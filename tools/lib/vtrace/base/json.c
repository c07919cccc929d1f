// SPDX-License-Identifier: LGPL-2.1
/*
 * Streaming JSON writer: compact output, one document per vtrace_json_init()
 * and vtrace_json_finish() pair. Nesting mistakes are programming errors and
 * are caught by the depth checks; I/O errors are kept and returned at the end.
 */
#include <errno.h>
#include <inttypes.h>

#include <vtrace/json.h>

/**
 * vtrace_json_init - start a document
 * @j: writer state
 * @out: stream to write to
 */
void vtrace_json_init(struct vtrace_json *j, FILE *out)
{
	j->out = out;
	j->depth = 0;
	j->has_members[0] = false;
	j->err = 0;
}

static void json_string_body(struct vtrace_json *j, const char *s)
{
	const unsigned char *c;

	fputc('"', j->out);
	for (c = (const unsigned char *)s; *c; c++) {
		switch (*c) {
		case '"':
			fputs("\\\"", j->out);
			break;
		case '\\':
			fputs("\\\\", j->out);
			break;
		case '\n':
			fputs("\\n", j->out);
			break;
		case '\r':
			fputs("\\r", j->out);
			break;
		case '\t':
			fputs("\\t", j->out);
			break;
		default:
			/* Input is valid UTF-8: only control bytes need escaping. */
			if (*c < 0x20 || *c == 0x7f)
				fprintf(j->out, "\\u%04x", *c);
			else
				fputc(*c, j->out);
		}
	}
	fputc('"', j->out);
}

/* Comma and key before a value; @key is NULL inside arrays. */
static void json_member(struct vtrace_json *j, const char *key)
{
	if (j->has_members[j->depth])
		fputc(',', j->out);
	j->has_members[j->depth] = true;
	if (key) {
		json_string_body(j, key);
		fputc(':', j->out);
	}
}

static void json_open(struct vtrace_json *j, const char *key, char bracket)
{
	if (j->depth + 1 >= VTRACE_JSON_MAX_DEPTH) {
		j->err = -E2BIG;
		return;
	}
	json_member(j, key);
	fputc(bracket, j->out);
	j->has_members[++j->depth] = false;
}

static void json_close(struct vtrace_json *j, char bracket)
{
	if (!j->depth) {
		j->err = -EINVAL;
		return;
	}
	j->depth--;
	fputc(bracket, j->out);
}

/**
 * vtrace_json_object_begin - open an object
 * @j: writer state
 * @key: member name in the enclosing object, NULL in an array or at the top
 */
void vtrace_json_object_begin(struct vtrace_json *j, const char *key)
{
	json_open(j, key, '{');
}

/**
 * vtrace_json_object_end - close the innermost object
 * @j: writer state
 */
void vtrace_json_object_end(struct vtrace_json *j)
{
	json_close(j, '}');
}

/**
 * vtrace_json_array_begin - open an array
 * @j: writer state
 * @key: member name in the enclosing object, NULL in an array or at the top
 */
void vtrace_json_array_begin(struct vtrace_json *j, const char *key)
{
	json_open(j, key, '[');
}

/**
 * vtrace_json_array_end - close the innermost array
 * @j: writer state
 */
void vtrace_json_array_end(struct vtrace_json *j)
{
	json_close(j, ']');
}

/**
 * vtrace_json_string - write a string member or element
 * @j: writer state
 * @key: member name, or NULL in an array
 * @value: UTF-8 string
 */
void vtrace_json_string(struct vtrace_json *j, const char *key,
			const char *value)
{
	json_member(j, key);
	json_string_body(j, value);
}

/**
 * vtrace_json_int - write a signed number member or element
 * @j: writer state
 * @key: member name, or NULL in an array
 * @value: number
 */
void vtrace_json_int(struct vtrace_json *j, const char *key, int64_t value)
{
	json_member(j, key);
	fprintf(j->out, "%" PRId64, value);
}

/**
 * vtrace_json_uint - write an unsigned number member or element
 * @j: writer state
 * @key: member name, or NULL in an array
 * @value: number
 */
void vtrace_json_uint(struct vtrace_json *j, const char *key, uint64_t value)
{
	json_member(j, key);
	fprintf(j->out, "%" PRIu64, value);
}

/**
 * vtrace_json_bool - write a boolean member or element
 * @j: writer state
 * @key: member name, or NULL in an array
 * @value: boolean
 */
void vtrace_json_bool(struct vtrace_json *j, const char *key, bool value)
{
	json_member(j, key);
	fputs(value ? "true" : "false", j->out);
}

/**
 * vtrace_json_finish - end the document with a newline and flush it
 * @j: writer state
 *
 * Return: 0, -EINVAL when objects or arrays were left open, or the -errno of
 * a failed write.
 */
int vtrace_json_finish(struct vtrace_json *j)
{
	if (!j->err && j->depth)
		j->err = -EINVAL;
	fputc('\n', j->out);
	if (fflush(j->out) || ferror(j->out))
		return j->err ? j->err : -EIO;
	return j->err;
}
