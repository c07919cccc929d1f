/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The Perfetto writer's row of the formats' table, for conversions.
 */
#ifndef _VTRACE_PERFETTO_CONVERT_H
#define _VTRACE_PERFETTO_CONVERT_H

#include <vtrace/sink.h>

extern const struct vtrace_convert_ops vt_perfetto_convert_ops;

#endif /* _VTRACE_PERFETTO_CONVERT_H */
