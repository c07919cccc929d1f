/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A control-file write in a child process, for tests of what other tasks
 * can do while a write is still running.
 */
#ifndef VTRACE_WRITER_H
#define VTRACE_WRITER_H

#include <sys/types.h>

pid_t vt_writer_start(const char *file, const char *val);
int vt_writer_wait(pid_t pid, int timeout_ms);

#endif /* VTRACE_WRITER_H */
