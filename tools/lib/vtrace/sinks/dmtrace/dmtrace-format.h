/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * dmtrace (Android's method trace, read by Traceview and dmtracedump): the
 * format's constants, private to dmtrace-reader.c and dmtrace-writer.c.
 *
 * A trace is a key text (sections "*version", "*threads", "*methods",
 * "*end", each line ending in '\n') and binary data: a little-endian
 * header (magic "SLOW", u2 version, u2 offset to the records, u8 start
 * time in us, and in version 3 a u2 record size), then fixed-size
 * records: thread id (u1 in version 1, u2 after), u4 method id whose low
 * two bits are the action, and one u4 time delta in us per clock
 * ("clock=dual": the thread's CPU time, then the wall time). A combined
 * .trace file is the key text followed directly by the data.
 */
#ifndef _VTRACE_DMTRACE_FORMAT_H
#define _VTRACE_DMTRACE_FORMAT_H

#define DMTRACE_MAGIC 0x574f4c53u /* "SLOW", little-endian */
#define DMTRACE_MAGIC_LEN 4
#define DMTRACE_VERSION_MIN 1
#define DMTRACE_VERSION_MAX 3
/* Header: magic, version, data offset, start time, [v3] record size. */
#define DMTRACE_HEADER_LEN 32
#define DMTRACE_HEADER_V1_LEN 16
#define DMTRACE_OFF_VERSION 4
#define DMTRACE_OFF_DATA_OFFSET 6
#define DMTRACE_OFF_START 8
#define DMTRACE_OFF_RECORD_SIZE 16

#define DMTRACE_RECORD_V1_LEN 9 /* u1 tid, u4 method, u4 time */
#define DMTRACE_RECORD_V2_LEN 10 /* u2 tid, u4 method, u4 time */
#define DMTRACE_RECORD_DUAL_LEN 14 /* u2 tid, u4 method, u4 cpu, u4 wall */

/* The action in a method id's low bits. */
#define DMTRACE_ACTION_MASK 0x3u
#define DMTRACE_ACTION_ENTER 0
#define DMTRACE_ACTION_EXIT 1
#define DMTRACE_ACTION_UNWIND 2 /* exit by exception unwinding */

/* Key sections and the clock line of "*version". */
#define DMTRACE_KEY_VERSION "*version"
#define DMTRACE_KEY_THREADS "*threads"
#define DMTRACE_KEY_METHODS "*methods"
#define DMTRACE_KEY_END "*end"
#define DMTRACE_CLOCK_KEY "clock="
#define DMTRACE_CLOCK_DUAL "dual"
#define DMTRACE_CLOCK_WALL "wall"
#define DMTRACE_CLOCK_THREAD_CPU "thread-cpu"
#define DMTRACE_CLOCK_GLOBAL "global"

/*
 * vtrace's own "*version" line for each thread: "vtrace-thread=ID PID TID".
 * It keeps the pid and the real tid of a thread whose id had to be mapped
 * into the 16 bits of a version 2-3 record; dmtracedump and Traceview
 * ignore key=value lines they do not know.
 */
#define DMTRACE_VTRACE_THREAD_KEY "vtrace-thread="
/* Thread ids dmtracedump reads as a signed short must not exceed this. */
#define DMTRACE_TID_MAX 32767

#endif /* _VTRACE_DMTRACE_FORMAT_H */
