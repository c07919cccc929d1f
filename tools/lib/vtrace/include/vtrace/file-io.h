/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Whole positioned reads and writes, for the library's file formats, a
 * whole read of what a pipe holds, a whole proc or tracefs file, and
 * the one way the library opens a file it is given to read.
 * Internal to the library.
 */
#ifndef VTRACE_FILE_IO_H
#define VTRACE_FILE_IO_H

#include <stddef.h>
#include <sys/types.h>

int vtrace_pwrite_all(int fd, const void *buf, size_t len, off_t off);
int vtrace_pread_all(int fd, void *buf, size_t len, off_t off);
int vtrace_read_all(int fd, void *buf, size_t len);
char *vtrace_read_file(const char *path, size_t *lenp);

/*
 * vtrace_input_open()'s error for an input that is not a regular file (a FIFO,
 * a device, a socket): no such errno exists, and this one's text ("Wrong
 * medium type") is never shown, see vtrace_input_strerror().
 */
#define VT_ENOTREG EMEDIUMTYPE

int vtrace_input_open(const char *path, int *fd);
const char *vtrace_input_strerror(int err);

#endif /* VTRACE_FILE_IO_H */
