// SPDX-License-Identifier: LGPL-2.1
/*
 * atrace marker text. A marker is one line: a kind letter, then '|'
 * separated fields. A name may itself hold '|' (older writers did not
 * escape it), so the name runs to the last '|' of markers that have a
 * field after it (S, F, C) and to the end of the line otherwise (B).
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <string.h>

#include "analysis/marker-parse.h"

/* A decimal integer filling [s, s + len), optionally signed. */
static bool parse_int(const char *s, size_t len, bool sign, int64_t min,
		      int64_t max, int64_t *out)
{
	bool neg = false;
	uint64_t v = 0, limit;
	size_t i = 0;

	if (sign && len && (s[0] == '-' || s[0] == '+')) {
		neg = s[0] == '-';
		i = 1;
	}
	if (i == len)
		return false;
	/* |min| as unsigned, without negating INT64_MIN. */
	limit = neg ? (uint64_t)(-(min + 1)) + 1 : (uint64_t)max;
	for (; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		if (v > (limit - (s[i] - '0')) / 10)
			return false;
		v = v * 10 + (s[i] - '0');
	}
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return true;
}

static bool parse_pid(const char *s, size_t len, int *pid)
{
	int64_t v;

	if (!parse_int(s, len, false, 0, INT_MAX, &v))
		return false;
	*pid = v;
	return true;
}

/**
 * vt_marker_parse - parse one atrace marker
 * @text: the marker text (a trace_marker write, a trace_printk line); it
 *	ends at its first NUL byte, and a trailing newline is ignored
 * @len: bytes of @text
 * @m: filled in on success; @m->name points into @text
 *
 * Return: 0 for a marker, -ENOMSG when @text is not an atrace marker at
 * all (any other text written to trace_marker), -EINVAL when it starts
 * like one (a kind letter and '|') but its fields are malformed: a pid
 * that is not a number, an empty name, a missing or non-numeric cookie
 * or value.
 */
int vt_marker_parse(const char *text, size_t len, struct vt_marker *m)
{
	const char *pid, *name, *bar, *last;
	size_t rest;

	len = strnlen(text, len);
	while (len && text[len - 1] == '\n')
		len--;
	if (!len || !strchr("BESFC", text[0]))
		return -ENOMSG;
	memset(m, 0, sizeof(*m));
	if (len == 1 && text[0] == 'E') {
		m->kind = VT_MARKER_END;
		return 0;
	}
	if (len < 2 || text[1] != '|')
		return -ENOMSG;

	pid = text + 2;
	rest = len - 2;
	bar = memchr(pid, '|', rest);
	if (text[0] == 'E') {
		/* E|pid, and E|pid|... from writers that repeat the name. */
		m->kind = VT_MARKER_END;
		return parse_pid(pid, bar ? (size_t)(bar - pid) : rest,
				 &m->pid) ?
			       0 :
			       -EINVAL;
	}
	if (!bar || !parse_pid(pid, bar - pid, &m->pid))
		return -EINVAL;
	name = bar + 1;
	rest = text + len - name;
	if (text[0] == 'B') {
		m->kind = VT_MARKER_BEGIN;
		m->name = name;
		m->name_len = rest;
		return rest ? 0 : -EINVAL;
	}

	m->kind = text[0] == 'S' ? VT_MARKER_ASYNC_BEGIN :
		  text[0] == 'F' ? VT_MARKER_ASYNC_END :
				   VT_MARKER_COUNTER;
	last = memrchr(name, '|', rest);
	if (!last || last == name)
		return -EINVAL;
	m->name = name;
	m->name_len = last - name;
	if (!parse_int(last + 1, text + len - last - 1, true, INT64_MIN,
		       INT64_MAX, &m->value))
		return -EINVAL;
	return 0;
}
