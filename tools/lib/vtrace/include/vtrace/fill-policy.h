/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Perfetto's buffer fill policies, which a trace config names and the
 * recorder carries out: apart from both, so that the config model does
 * not depend on the engine.
 */
#ifndef _VTRACE_FILL_POLICY_H
#define _VTRACE_FILL_POLICY_H

/**
 * enum vtrace_fill_policy - what a recording keeps when data outgrows it
 * @VTRACE_FILL_STREAM: read all along and keep everything (the default)
 * @VTRACE_FILL_RING_BUFFER: keep only the newest
 *	vtrace_recorder_opts.max_file_size bytes, as of the stop: the kernel's
 *	ring buffers, in overwrite mode and sized to it, are read at the stop
 *	(Perfetto's RING_BUFFER)
 * @VTRACE_FILL_DISCARD: stop taking data once
 *	vtrace_recorder_opts.max_file_size bytes are taken, and stop
 *	(%VTRACE_STOP_FULL; Perfetto's DISCARD)
 */
enum vtrace_fill_policy {
	VTRACE_FILL_STREAM,
	VTRACE_FILL_RING_BUFFER,
	VTRACE_FILL_DISCARD,
};

#endif /* _VTRACE_FILL_POLICY_H */
