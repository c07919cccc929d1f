/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Whole positioned reads and writes, for the library's file formats, a
 * whole read of what a pipe holds, and
 * the one way the library opens a file it is given to read.
 * Internal to the library.
 */
#ifndef VTRACE_FILE_IO_H
#define VTRACE_FILE_IO_H

#include <stddef.h>
#include <sys/types.h>

int vt_pwrite_all(int fd, const void *buf, size_t len, off_t off);
int vt_pread_all(int fd, void *buf, size_t len, off_t off);
int vt_read_all(int fd, void *buf, size_t len);

/*
 * vt_input_open()'s error for an input that is not a regular file (a FIFO,
 * a device, a socket): no such errno exists, and this one's text ("Wrong
 * medium type") is never shown, see vt_input_strerror().
 */
#define VT_ENOTREG EMEDIUMTYPE

int vt_input_open(const char *path, int *fd);
const char *vt_input_strerror(int err);

#endif /* VTRACE_FILE_IO_H */
