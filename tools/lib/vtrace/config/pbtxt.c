// SPDX-License-Identifier: LGPL-2.1
/*
 * Reader of the protocol buffer text format.
 *
 * Written here because no C library in Debian reads it: protobuf-c has no
 * text format, and libprotobuf's TextFormat is C++ and needs descriptors
 * generated from the .proto at build time.
 *
 * The grammar is protobuf's: "name: value" for scalars, "name { ... }" or
 * "name < ... >" (the colon optional) for messages, "name: [v, v]" for
 * repeated fields, ';' or ',' after a field optional, '#' comments to the
 * end of the line. Strings are double- or single-quoted, adjacent ones
 * joined, with C escapes (\n \t \\ \" \' \? \a \b \f \v \r, octal \NNN, hex
 * \xHH, \uXXXX and \UXXXXXXXX as UTF-8). Integers are decimal, hex (0x) or
 * octal (leading 0); bools are true/True/t/false/False/f/1/0; enums are
 * given by name or number. Extensions and Any ("[type.googleapis.com/...]")
 * are not supported.
 *
 * Reading stops at the first error, which is reported at the line and
 * column of the token that caused it; nothing is returned then.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config/pbtxt.h"

enum token_kind {
	TOK_EOF,
	TOK_IDENT,
	TOK_NUMBER,
	TOK_STRING,
	TOK_PUNCT,
};

struct token {
	enum token_kind kind;
	const char *start;
	size_t len;
	unsigned int line;
	unsigned int column;
};

struct parser {
	const char *file;
	const char *buf;
	size_t len;
	size_t pos;
	unsigned int line;
	size_t line_start;
	struct token tok; /* the current, not yet consumed token */
	struct vtrace_diags *diags;
	int err;
};

static int error_at(struct parser *p, unsigned int line, unsigned int column,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int error_at(struct parser *p, unsigned int line, unsigned int column,
		    const char *fmt, ...)
{
	va_list ap;

	if (p->err)
		return p->err;
	va_start(ap, fmt);
	if (vtrace_diag_vadd(p->diags, p->file, line, column, VTRACE_ERROR, fmt,
			     ap))
		p->err = -ENOMEM;
	else
		p->err = -EINVAL;
	va_end(ap);
	return p->err;
}

/* Printable form of a token for messages. */
#define TOK_FMT "'%.*s'"

/* How much of a token messages show. */
static int tok_width(const struct token *t)
{
	return t->len > 40 ? 40 : (int)t->len;
}

static bool is_ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_ident_char(char c)
{
	return is_ident_start(c) || is_digit(c);
}

static void skip_space(struct parser *p)
{
	while (p->pos < p->len) {
		char c = p->buf[p->pos];

		if (c == '\n') {
			p->pos++;
			p->line++;
			p->line_start = p->pos;
		} else if (c == ' ' || c == '\t' || c == '\r' || c == '\v' ||
			   c == '\f') {
			p->pos++;
		} else if (c == '#') {
			while (p->pos < p->len && p->buf[p->pos] != '\n')
				p->pos++;
		} else {
			break;
		}
	}
}

/* Read the next token into p->tok. */
static int advance(struct parser *p)
{
	struct token *t = &p->tok;
	const char *s;
	char c;

	skip_space(p);
	t->start = p->buf + p->pos;
	t->line = p->line;
	t->column = p->pos - p->line_start + 1;
	t->len = 0;
	if (p->pos >= p->len) {
		t->kind = TOK_EOF;
		return 0;
	}
	s = t->start;
	c = s[0];
	if (is_ident_start(c)) {
		t->kind = TOK_IDENT;
		while (p->pos + t->len < p->len && is_ident_char(s[t->len]))
			t->len++;
	} else if (is_digit(c) ||
		   (c == '.' && p->pos + 1 < p->len && is_digit(s[1]))) {
		/* Digits, letters, '.', and a sign after an exponent. */
		t->kind = TOK_NUMBER;
		t->len = 1;
		while (p->pos + t->len < p->len) {
			char d = s[t->len], prev = s[t->len - 1];

			if (is_ident_char(d) || d == '.' ||
			    ((d == '+' || d == '-') &&
			     (prev == 'e' || prev == 'E') &&
			     !(s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))))
				t->len++;
			else
				break;
		}
	} else if (c == '"' || c == '\'') {
		t->kind = TOK_STRING;
		t->len = 1;
		while (1) {
			if (p->pos + t->len >= p->len || s[t->len] == '\n')
				return error_at(
					p, t->line, t->column,
					"string not closed on its line");
			if (s[t->len] == '\\') {
				t->len++;
				if (p->pos + t->len < p->len &&
				    s[t->len] != '\n')
					t->len++;
				continue;
			}
			if (s[t->len++] == c)
				break;
		}
	} else if (strchr(":{}<>[],;-", c)) {
		t->kind = TOK_PUNCT;
		t->len = 1;
	} else {
		return error_at(p, t->line, t->column,
				"unexpected character '%s%c' (0x%02x)",
				c == '\\' ? "\\" : "",
				c >= 0x20 && c < 0x7f ? c : '?',
				(unsigned char)c);
	}
	p->pos += t->len;
	return 0;
}

static bool at_punct(const struct parser *p, char c)
{
	return p->tok.kind == TOK_PUNCT && p->tok.start[0] == c;
}

static const char *describe(const struct token *t)
{
	switch (t->kind) {
	case TOK_EOF:
		return "end of file";
	case TOK_IDENT:
		return "name";
	case TOK_NUMBER:
		return "number";
	case TOK_STRING:
		return "string";
	default:
		return "punctuation";
	}
}

static int unexpected(struct parser *p, const char *expected)
{
	if (p->tok.kind == TOK_EOF)
		return error_at(p, p->tok.line, p->tok.column,
				"expected %s, found the end of the file",
				expected);
	return error_at(p, p->tok.line, p->tok.column,
			"expected %s, found %s " TOK_FMT, expected,
			describe(&p->tok), tok_width(&p->tok), p->tok.start);
}

/* UTF-8 for a \u or \U escape; 0 when @cp is no Unicode scalar value. */
static size_t utf8_encode(uint32_t cp, char *out)
{
	if (cp < 0x80) {
		out[0] = cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = 0xc0 | (cp >> 6);
		out[1] = 0x80 | (cp & 0x3f);
		return 2;
	}
	if ((cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	if (cp < 0x10000) {
		out[0] = 0xe0 | (cp >> 12);
		out[1] = 0x80 | ((cp >> 6) & 0x3f);
		out[2] = 0x80 | (cp & 0x3f);
		return 3;
	}
	out[0] = 0xf0 | (cp >> 18);
	out[1] = 0x80 | ((cp >> 12) & 0x3f);
	out[2] = 0x80 | ((cp >> 6) & 0x3f);
	out[3] = 0x80 | (cp & 0x3f);
	return 4;
}

static int hex_value(char c)
{
	if (is_digit(c))
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Escape letter, then the byte it stands for. */
static const char simple_escapes[] = "n\nt\tr\ra\ab\bf\fv\v\\\\''\"\"??";

/*
 * Append the unescaped contents of the string token @t to @out (which has
 * room for t->len bytes more: unescaping never grows a string).
 */
static int unescape(struct parser *p, const struct token *t, char *out,
		    size_t *out_len)
{
	const char *s = t->start + 1, *end = t->start + t->len - 1;
	size_t n = *out_len;

	while (s < end) {
		const char *esc = s, *simple;
		size_t len;
		uint32_t v;
		int i, d, max;

		if (*s != '\\') {
			out[n++] = *s++;
			continue;
		}
		s++;
		simple = *s ? strchr(simple_escapes, *s) : NULL;
		if (simple && (simple - simple_escapes) % 2 == 0) {
			out[n++] = simple[1];
			s++;
			continue;
		}
		if (*s == 'x' || *s == 'X') {
			v = 0;
			for (i = 0, s++;
			     i < 2 && s < end && (d = hex_value(*s)) >= 0;
			     i++, s++)
				v = v * 16 + d;
			if (!i)
				goto bad;
			out[n++] = v;
			continue;
		}
		if (*s == 'u' || *s == 'U') {
			max = *s == 'u' ? 4 : 8;
			v = 0;
			for (i = 0, s++;
			     i < max && s < end && (d = hex_value(*s)) >= 0;
			     i++, s++)
				v = v * 16 + d;
			if (i != max)
				goto bad;
			len = utf8_encode(v, out + n);
			if (!len)
				goto bad;
			n += len;
			continue;
		}
		if (*s >= '0' && *s <= '7') {
			v = 0;
			for (i = 0; i < 3 && s < end && *s >= '0' && *s <= '7';
			     i++, s++)
				v = v * 8 + (*s - '0');
			if (v > 0xff)
				goto bad;
			out[n++] = v;
			continue;
		}
bad:
		return error_at(p, t->line,
				t->column + (unsigned int)(esc - t->start),
				"bad escape sequence in string");
	}
	*out_len = n;
	return 0;
}

/* One or more adjacent string tokens, joined; the caller owns *str. */
static int parse_string(struct parser *p, char **str, size_t *len)
{
	size_t total = 0, n = 0;
	struct parser save;
	char *buf;
	int ret;

	if (p->tok.kind != TOK_STRING)
		return unexpected(p, "a string");
	/* First pass: the total length of the tokens bounds the result. */
	save = *p;
	while (p->tok.kind == TOK_STRING) {
		total += p->tok.len;
		ret = advance(p);
		if (ret)
			return ret;
	}
	*p = save;
	buf = malloc(total + 1);
	if (!buf)
		return p->err = -ENOMEM;
	while (p->tok.kind == TOK_STRING) {
		ret = unescape(p, &p->tok, buf, &n);
		if (!ret)
			ret = advance(p);
		if (ret) {
			free(buf);
			return ret;
		}
	}
	buf[n] = '\0';
	*str = buf;
	*len = n;
	return 0;
}

/*
 * An integer: optional '-', then decimal, 0x hex or 0 octal digits. Sets
 * *neg and *mag (the magnitude); a number that does not fit 64 bits is
 * out of range for every field.
 */
static int parse_integer(struct parser *p, const struct vtrace_pb_field *f,
			 bool *neg, uint64_t *mag, struct token *where)
{
	const char *s, *end;
	unsigned int base = 10;
	uint64_t v = 0;

	*neg = false;
	*where = p->tok;
	if (at_punct(p, '-')) {
		*neg = true;
		if (advance(p))
			return p->err;
	}
	if (p->tok.kind != TOK_NUMBER)
		return error_at(
			p, where->line, where->column,
			"field '%s' takes an integer (%s), found %s " TOK_FMT,
			f->name, vtrace_pb_type_name(f->type),
			describe(&p->tok), tok_width(&p->tok), p->tok.start);
	s = p->tok.start;
	end = s + p->tok.len;
	if (end - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	} else if (end - s > 1 && s[0] == '0') {
		base = 8;
		s++;
	}
	for (; s < end; s++) {
		int d = hex_value(*s);

		if (d < 0 || (unsigned int)d >= base)
			return error_at(
				p, p->tok.line, p->tok.column,
				"field '%s' takes an integer (%s), found " TOK_FMT,
				f->name, vtrace_pb_type_name(f->type),
				tok_width(&p->tok), p->tok.start);
		if (v > (UINT64_MAX - d) / base)
			return error_at(
				p, where->line, where->column,
				"value out of range for field '%s' (%s)",
				f->name, vtrace_pb_type_name(f->type));
		v = v * base + d;
	}
	where->len = p->tok.start + p->tok.len - where->start;
	*mag = v;
	return advance(p);
}

static int parse_int_value(struct parser *p, const struct vtrace_pb_field *f,
			   struct vtrace_pb_value *val)
{
	struct token where;
	uint64_t mag, max;
	bool neg;
	int ret;

	ret = parse_integer(p, f, &neg, &mag, &where);
	if (ret)
		return ret;
	switch (f->type) {
	case VTRACE_PB_UINT32:
		max = UINT32_MAX;
		break;
	case VTRACE_PB_UINT64:
		max = UINT64_MAX;
		break;
	case VTRACE_PB_INT32:
		max = neg ? (uint64_t)INT32_MAX + 1 : INT32_MAX;
		break;
	default:
		max = neg ? (uint64_t)INT64_MAX + 1 : INT64_MAX;
		break;
	}
	if ((neg && mag &&
	     (f->type == VTRACE_PB_UINT32 || f->type == VTRACE_PB_UINT64)) ||
	    mag > max)
		return error_at(p, where.line, where.column,
				"value " TOK_FMT
				" out of range for field '%s' (%s)",
				tok_width(&where), where.start, f->name,
				vtrace_pb_type_name(f->type));
	if (f->type == VTRACE_PB_UINT32 || f->type == VTRACE_PB_UINT64)
		val->u = mag;
	else
		val->i = neg ? (int64_t)(0 - mag) : (int64_t)mag;
	return 0;
}

static int parse_bool_value(struct parser *p, const struct vtrace_pb_field *f,
			    struct vtrace_pb_value *val)
{
	static const char *const words[] = { "false", "False", "f", "0",
					     "true",  "True",  "t", "1" };
	size_t i;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		if ((p->tok.kind == TOK_IDENT || p->tok.kind == TOK_NUMBER) &&
		    p->tok.len == strlen(words[i]) &&
		    !memcmp(p->tok.start, words[i], p->tok.len)) {
			val->u = i >= 4;
			return advance(p);
		}
	}
	return error_at(p, p->tok.line, p->tok.column,
			"field '%s' takes true or false, found %s " TOK_FMT,
			f->name, describe(&p->tok), tok_width(&p->tok),
			p->tok.start);
}

static int parse_enum_value(struct parser *p, const struct vtrace_pb_field *f,
			    struct vtrace_pb_value *val)
{
	struct token where = p->tok;
	uint64_t number;
	bool neg;
	size_t i;
	int ret;

	if (p->tok.kind == TOK_IDENT) {
		for (i = 0; i < f->nr_values; i++) {
			if (strlen(f->values[i].name) == p->tok.len &&
			    !memcmp(f->values[i].name, p->tok.start,
				    p->tok.len)) {
				val->i = f->values[i].number;
				return advance(p);
			}
		}
		if (f->values)
			return error_at(p, where.line, where.column,
					"unknown value " TOK_FMT
					" for field '%s'",
					tok_width(&where), where.start,
					f->name);
		val->i = -1; /* a name vtrace does not interpret */
		return advance(p);
	}
	ret = parse_integer(p, f, &neg, &number, &where);
	if (ret)
		return ret;
	val->i = number;
	if (neg || number > INT32_MAX)
		return error_at(p, where.line, where.column,
				"value " TOK_FMT
				" out of range for field '%s' (enum)",
				tok_width(&where), where.start, f->name);
	for (i = 0; i < f->nr_values; i++)
		if (f->values[i].number == val->i)
			return 0;
	if (f->values)
		return error_at(p, where.line, where.column,
				"unknown value " TOK_FMT " for field '%s'",
				tok_width(&where), where.start, f->name);
	return 0;
}

static int parse_body(struct parser *p, struct vtrace_pb_msg *msg, char close,
		      unsigned int depth, const struct token *open);
static int skip_body(struct parser *p, char close, unsigned int depth,
		     const struct token *open);

static char closing(char open)
{
	return open == '{' ? '}' : '>';
}

static int check_depth(struct parser *p, unsigned int depth)
{
	if (depth > VTRACE_PB_MAX_DEPTH)
		return error_at(p, p->tok.line, p->tok.column,
				"messages nested deeper than %d",
				VTRACE_PB_MAX_DEPTH);
	return 0;
}

/* A message value at '{' or '<': parsed into a new message or skipped. */
static int parse_message_value(struct parser *p,
			       const struct vtrace_pb_field *f,
			       struct vtrace_pb_value *val, unsigned int depth)
{
	struct token open = p->tok;
	char close;

	if (!at_punct(p, '{') && !at_punct(p, '<'))
		return error_at(
			p, p->tok.line, p->tok.column,
			"field '%s' is a message: expected '{', found %s " TOK_FMT,
			f->name, describe(&p->tok), tok_width(&p->tok),
			p->tok.start);
	close = closing(*open.start);
	if (check_depth(p, depth + 1) || advance(p))
		return p->err;
	if (!f->message)
		return skip_body(p, close, depth + 1, &open);
	val->msg = vtrace_pb_msg_new(f->message);
	if (!val->msg)
		return p->err = -ENOMEM;
	return parse_body(p, val->msg, close, depth + 1, &open);
}

static int parse_value(struct parser *p, struct vtrace_pb_msg *msg,
		       const struct vtrace_pb_field *f,
		       const struct token *name, unsigned int depth)
{
	struct vtrace_pb_value *val;

	val = vtrace_pb_msg_add(msg, f, name->line, name->column);
	if (!val)
		return p->err = -ENOMEM;
	switch (f->type) {
	case VTRACE_PB_BOOL:
		return parse_bool_value(p, f, val);
	case VTRACE_PB_INT32:
	case VTRACE_PB_INT64:
	case VTRACE_PB_UINT32:
	case VTRACE_PB_UINT64:
		return parse_int_value(p, f, val);
	case VTRACE_PB_STRING:
		if (p->tok.kind != TOK_STRING)
			return error_at(
				p, p->tok.line, p->tok.column,
				"field '%s' takes a string, found %s " TOK_FMT,
				f->name, describe(&p->tok), tok_width(&p->tok),
				p->tok.start);
		return parse_string(p, &val->str, &val->len);
	case VTRACE_PB_ENUM:
		return parse_enum_value(p, f, val);
	case VTRACE_PB_MESSAGE:
		return parse_message_value(p, f, val, depth);
	}
	return 0;
}

/* "[v, v, ...]" after "name:", for a repeated field. */
static int parse_list(struct parser *p, struct vtrace_pb_msg *msg,
		      const struct vtrace_pb_field *f, const struct token *name,
		      unsigned int depth)
{
	if (!f->repeated)
		return error_at(
			p, p->tok.line, p->tok.column,
			"field '%s' is not repeated: a list is not allowed",
			f->name);
	if (advance(p))
		return p->err;
	if (at_punct(p, ']'))
		return advance(p);
	while (1) {
		if (parse_value(p, msg, f, name, depth))
			return p->err;
		if (at_punct(p, ']'))
			return advance(p);
		if (!at_punct(p, ','))
			return unexpected(p, "',' or ']'");
		if (advance(p))
			return p->err;
	}
}

static int parse_field(struct parser *p, struct vtrace_pb_msg *msg,
		       unsigned int depth)
{
	const struct vtrace_pb_value *first;
	const struct vtrace_pb_field *f;
	struct token name = p->tok;
	bool colon = false;

	if (at_punct(p, '['))
		return error_at(p, name.line, name.column,
				"extensions and Any fields are not supported");
	if (p->tok.kind != TOK_IDENT)
		return unexpected(p, "a field name");
	f = vtrace_pb_field_by_name(msg->type, name.start, name.len);
	if (!f)
		return error_at(p, name.line, name.column,
				"unknown field " TOK_FMT " in %s",
				tok_width(&name), name.start, msg->type->name);
	first = f->repeated ? NULL : vtrace_pb_msg_find(msg, f);
	if (first)
		return error_at(
			p, name.line, name.column,
			"field '%s' given twice (first at line %u), but it is not repeated",
			f->name, first->line);
	if (advance(p))
		return p->err;
	if (at_punct(p, ':')) {
		colon = true;
		if (advance(p))
			return p->err;
	}
	if (colon && at_punct(p, '['))
		return parse_list(p, msg, f, &name, depth);
	if (!colon && f->type != VTRACE_PB_MESSAGE)
		return unexpected(p, "':'");
	if (parse_value(p, msg, f, &name, depth))
		return p->err;
	if (at_punct(p, ';') || at_punct(p, ','))
		return advance(p);
	return 0;
}

static int end_of_body(struct parser *p, char close, const struct token *open,
		       bool *done)
{
	*done = false;
	if (close && at_punct(p, close)) {
		*done = true;
		return advance(p);
	}
	if (p->tok.kind == TOK_EOF) {
		if (!close) {
			*done = true;
			return 0;
		}
		return error_at(p, open->line, open->column,
				"'%c' opened here is never closed",
				*open->start);
	}
	if (!close && (at_punct(p, '}') || at_punct(p, '>')))
		return error_at(p, p->tok.line, p->tok.column,
				"'%c' without a matching opening bracket",
				*p->tok.start);
	return 0;
}

static int parse_body(struct parser *p, struct vtrace_pb_msg *msg, char close,
		      unsigned int depth, const struct token *open)
{
	bool done;

	while (1) {
		if (end_of_body(p, close, open, &done) || done)
			return p->err;
		if (parse_field(p, msg, depth))
			return p->err;
	}
}

/* A scalar, or a list of them, in a message vtrace does not look into. */
static int skip_scalar(struct parser *p)
{
	if (p->tok.kind == TOK_STRING) {
		while (p->tok.kind == TOK_STRING)
			if (advance(p))
				return p->err;
		return 0;
	}
	if (at_punct(p, '-') && advance(p))
		return p->err;
	if (p->tok.kind != TOK_IDENT && p->tok.kind != TOK_NUMBER)
		return unexpected(p, "a value");
	return advance(p);
}

static int skip_value(struct parser *p, unsigned int depth, bool colon)
{
	struct token open = p->tok;

	if (at_punct(p, '{') || at_punct(p, '<')) {
		if (check_depth(p, depth + 1) || advance(p))
			return p->err;
		return skip_body(p, closing(*open.start), depth + 1, &open);
	}
	if (!colon)
		return unexpected(p, "':' or '{'");
	return skip_scalar(p);
}

static int skip_body(struct parser *p, char close, unsigned int depth,
		     const struct token *open)
{
	bool done, colon;

	while (1) {
		if (end_of_body(p, close, open, &done) || done)
			return p->err;
		if (at_punct(p, '['))
			return error_at(
				p, p->tok.line, p->tok.column,
				"extensions and Any fields are not supported");
		if (p->tok.kind != TOK_IDENT)
			return unexpected(p, "a field name");
		if (advance(p))
			return p->err;
		colon = at_punct(p, ':');
		if (colon && advance(p))
			return p->err;
		if (colon && at_punct(p, '[')) {
			if (advance(p))
				return p->err;
			while (!at_punct(p, ']')) {
				if (skip_value(p, depth, true))
					return p->err;
				if (at_punct(p, ','))
					advance(p);
				else if (!at_punct(p, ']'))
					return unexpected(p, "',' or ']'");
				if (p->err)
					return p->err;
			}
			if (advance(p))
				return p->err;
		} else if (skip_value(p, depth, colon)) {
			return p->err;
		}
		if ((at_punct(p, ';') || at_punct(p, ',')) && advance(p))
			return p->err;
	}
}

/**
 * vt_pbtxt_parse - read a message in protobuf text format
 * @type: schema of the top-level message
 * @file: file name for diagnostics
 * @buf: the text, not necessarily NUL-terminated
 * @len: its length
 * @out: set to the parsed message on success (free it with
 *	vtrace_pb_msg_free())
 * @diags: the first error is appended here, at its line and column
 *
 * Fields not in @type's schema, values of the wrong type and values out of
 * their type's range are errors, and so is a non-repeated field given
 * twice.
 *
 * Return: 0, -EINVAL after an error in the text, or -ENOMEM.
 */
int vt_pbtxt_parse(const struct vtrace_pb_message *type, const char *file,
		   const char *buf, size_t len, struct vtrace_pb_msg **out,
		   struct vtrace_diags *diags)
{
	struct parser p = {
		.file = file,
		.buf = buf,
		.len = len,
		.line = 1,
		.diags = diags,
	};
	struct vtrace_pb_msg *msg;

	*out = NULL;
	msg = vtrace_pb_msg_new(type);
	if (!msg)
		return -ENOMEM;
	if (!advance(&p))
		parse_body(&p, msg, 0, 0, NULL);
	if (p.err) {
		vtrace_pb_msg_free(msg);
		return p.err;
	}
	*out = msg;
	return 0;
}
