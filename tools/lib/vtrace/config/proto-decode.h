/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Protocol buffer binary form, read against a vtrace schema.
 */
#ifndef _VTRACE_PROTO_DECODE_H
#define _VTRACE_PROTO_DECODE_H

#include <stdbool.h>
#include <stddef.h>

#include <vtrace/diag.h>
#include <vtrace/proto-msg.h>

bool vt_proto_is_binary(const char *buf, size_t len);
int vt_proto_decode(const struct vtrace_pb_message *type, const char *file,
		    const char *buf, size_t len, struct vtrace_pb_msg **out,
		    struct vtrace_diags *diags);

#endif /* _VTRACE_PROTO_DECODE_H */
