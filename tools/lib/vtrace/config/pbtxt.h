/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Protocol buffer text format ("perfetto --txt -c config.pbtx"), read
 * against a vtrace schema.
 */
#ifndef _VTRACE_PBTXT_H
#define _VTRACE_PBTXT_H

#include <stddef.h>

#include <vtrace/diag.h>
#include <vtrace/proto-msg.h>

int vt_pbtxt_parse(const struct vtrace_pb_message *type, const char *file,
		   const char *buf, size_t len, struct vtrace_pb_msg **out,
		   struct vtrace_diags *diags);

#endif /* _VTRACE_PBTXT_H */
