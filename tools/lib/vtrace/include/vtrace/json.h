/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * A small streaming JSON writer for vtrace's --json output.
 */
#ifndef _VTRACE_JSON_H
#define _VTRACE_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define VTRACE_JSON_MAX_DEPTH 16

/**
 * struct vtrace_json - writer state
 * @out: stream written to
 * @depth: current nesting depth
 * @has_members: per depth, whether a member was written (comma needed)
 * @err: first error (-errno), sticky
 */
struct vtrace_json {
	FILE *out;
	int depth;
	bool has_members[VTRACE_JSON_MAX_DEPTH];
	int err;
};

void vtrace_json_init(struct vtrace_json *j, FILE *out);
void vtrace_json_object_begin(struct vtrace_json *j, const char *key);
void vtrace_json_object_end(struct vtrace_json *j);
void vtrace_json_array_begin(struct vtrace_json *j, const char *key);
void vtrace_json_array_end(struct vtrace_json *j);
void vtrace_json_string(struct vtrace_json *j, const char *key,
			const char *value);
void vtrace_json_int(struct vtrace_json *j, const char *key, int64_t value);
void vtrace_json_uint(struct vtrace_json *j, const char *key, uint64_t value);
void vtrace_json_bool(struct vtrace_json *j, const char *key, bool value);
int vtrace_json_finish(struct vtrace_json *j);

#endif /* _VTRACE_JSON_H */
