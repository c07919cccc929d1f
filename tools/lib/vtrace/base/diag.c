// SPDX-License-Identifier: LGPL-2.1
/*
 * Diagnostics list: FILE:LINE:COL findings, collected for the caller.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vtrace/diag.h>

/**
 * vtrace_diags_init - start an empty list
 * @diags: list to initialise
 */
void vtrace_diags_init(struct vtrace_diags *diags)
{
	memset(diags, 0, sizeof(*diags));
}

/**
 * vtrace_diags_free - release a list and every finding in it
 * @diags: list to free; it is left empty and reusable
 */
void vtrace_diags_free(struct vtrace_diags *diags)
{
	size_t i;

	for (i = 0; i < diags->nr; i++) {
		free(diags->items[i].file);
		free(diags->items[i].message);
	}
	free(diags->items);
	vtrace_diags_init(diags);
}

/**
 * vtrace_diag_vadd - append a finding, va_list version
 * @diags: list to append to
 * @file: file the finding is about
 * @line: 1-based line, or 0 for the whole file
 * @column: 1-based byte column, or 0 for the whole line
 * @severity: %VTRACE_WARNING or %VTRACE_ERROR
 * @fmt: printf format of the message
 * @ap: its arguments
 *
 * Return: 0, or -ENOMEM.
 */
int vtrace_diag_vadd(struct vtrace_diags *diags, const char *file,
		     unsigned int line, unsigned int column,
		     enum vtrace_severity severity, const char *fmt, va_list ap)
{
	struct vtrace_diag *diag;

	if (diags->nr == diags->alloc) {
		size_t alloc = diags->alloc ? diags->alloc * 2 : 16;
		struct vtrace_diag *items;

		items = realloc(diags->items, alloc * sizeof(*items));
		if (!items)
			return -ENOMEM;
		diags->items = items;
		diags->alloc = alloc;
	}

	diag = &diags->items[diags->nr];
	if (vasprintf(&diag->message, fmt, ap) < 0)
		return -ENOMEM;
	diag->file = strdup(file);
	if (!diag->file) {
		free(diag->message);
		return -ENOMEM;
	}
	diag->line = line;
	diag->column = column;
	diag->severity = severity;
	diags->nr++;
	if (severity == VTRACE_ERROR)
		diags->nr_errors++;
	return 0;
}

/**
 * vtrace_diag_add - append a finding
 * @diags: list to append to
 * @file: file the finding is about
 * @line: 1-based line, or 0 for the whole file
 * @column: 1-based byte column, or 0 for the whole line
 * @severity: %VTRACE_WARNING or %VTRACE_ERROR
 * @fmt: printf format of the message
 *
 * Return: 0, or -ENOMEM.
 */
int vtrace_diag_add(struct vtrace_diags *diags, const char *file,
		    unsigned int line, unsigned int column,
		    enum vtrace_severity severity, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vtrace_diag_vadd(diags, file, line, column, severity, fmt, ap);
	va_end(ap);
	return ret;
}

/**
 * vtrace_severity_name - the word used for a severity in output
 * @severity: severity to name
 *
 * Return: "error" or "warning".
 */
const char *vtrace_severity_name(enum vtrace_severity severity)
{
	return severity == VTRACE_ERROR ? "error" : "warning";
}

/**
 * vtrace_escape - bytes from outside, printable in a message
 * @buf: the bytes (a file's, a peer's), not trusted
 * @len: their number
 * @out: where the text goes, always NUL-terminated
 * @size: room in @out, at least 5
 *
 * Printable ASCII stays as it is; every other byte, and the backslash,
 * becomes \xNN, so that no terminal control sequence reaches the user.
 * What does not fit is left out.
 *
 * Return: @out.
 */
const char *vtrace_escape(const void *buf, size_t len, char *out, size_t size)
{
	const unsigned char *p = buf;
	size_t i, o = 0;

	for (i = 0; i < len && o + 5 < size; i++) {
		if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '\\')
			out[o++] = p[i];
		else
			o += snprintf(out + o, size - o, "\\x%02x", p[i]);
	}
	out[o] = '\0';
	return out;
}
