/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Diagnostics collected while reading category files.
 *
 * Library code never prints: it appends FILE:LINE:COL findings to a list
 * that the caller renders as text or JSON.
 */
#ifndef _VTRACE_DIAG_H
#define _VTRACE_DIAG_H

#include <stdarg.h>
#include <stddef.h>

enum vtrace_severity {
	VTRACE_WARNING,
	VTRACE_ERROR,
};

/**
 * struct vtrace_diag - one finding
 * @file: file name as given by the caller
 * @line: 1-based line, 0 when the finding is about the whole file
 * @column: 1-based byte column, 0 when the finding is about the whole line
 * @severity: warning or error
 * @message: human readable text, no trailing newline
 */
struct vtrace_diag {
	char *file;
	unsigned int line;
	unsigned int column;
	enum vtrace_severity severity;
	char *message;
};

/**
 * struct vtrace_diags - growable list of findings
 * @items: the findings in the order they were found
 * @nr: number of entries in @items
 * @alloc: allocated entries
 * @nr_errors: how many of @items are errors
 */
struct vtrace_diags {
	struct vtrace_diag *items;
	size_t nr;
	size_t alloc;
	size_t nr_errors;
};

void vtrace_diags_init(struct vtrace_diags *diags);
void vtrace_diags_free(struct vtrace_diags *diags);
int vtrace_diag_add(struct vtrace_diags *diags, const char *file,
		    unsigned int line, unsigned int column,
		    enum vtrace_severity severity, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
int vtrace_diag_vadd(struct vtrace_diags *diags, const char *file,
		     unsigned int line, unsigned int column,
		     enum vtrace_severity severity, const char *fmt, va_list ap)
	__attribute__((format(printf, 6, 0)));
const char *vtrace_severity_name(enum vtrace_severity severity);
const char *vtrace_escape(const void *buf, size_t len, char *out, size_t size);

#endif /* _VTRACE_DIAG_H */
