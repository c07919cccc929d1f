/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Whole positioned reads and writes, for the library's file formats.
 * Internal to the library.
 */
#ifndef VTRACE_FILE_IO_H
#define VTRACE_FILE_IO_H

#include <stddef.h>
#include <sys/types.h>

int vt_pwrite_all(int fd, const void *buf, size_t len, off_t off);
int vt_pread_all(int fd, void *buf, size_t len, off_t off);

#endif /* VTRACE_FILE_IO_H */
