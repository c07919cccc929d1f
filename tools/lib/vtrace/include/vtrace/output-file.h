/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * An output file that appears only when complete: written as a temporary
 * file in the same directory and renamed over the final name at the end,
 * so a failure leaves no partial file and never destroys a file that was
 * there before. Only regular files are ever replaced: a device, FIFO,
 * directory or socket at the final name is refused before anything is
 * written.
 */
#ifndef _VTRACE_OUTPUT_FILE_H
#define _VTRACE_OUTPUT_FILE_H

#include <stdbool.h>
#include <stdio.h>

/*
 * Every file vtrace writes a trace into: a trace holds kernel addresses
 * (kallsyms) and every saved command line, which tracefs itself shows
 * root alone. The user may chmod it.
 */
#define VT_OUTPUT_FILE_MODE 0600

/**
 * struct vt_output_file - an output being written
 * @path: the final name
 * @tmp: the temporary file's name, NULL when none is open
 * @fd: the temporary file, -1 when none is open
 */
struct vt_output_file {
	const char *path;
	char *tmp;
	int fd;
};

/**
 * vtrace_output_file_check - whether @path may be written as an output
 * @path: the final name
 *
 * Return: 0 when nothing is at @path or it is a regular file (or a
 * symbolic link to one), -EISDIR for a directory, -EINVAL for any other
 * file (device, FIFO, socket), or the -errno of stat().
 */
int vtrace_output_file_check(const char *path);

/**
 * vtrace_output_file_strerror - an error of vtrace_output_file_create(), for messages
 * @err: the negative errno
 *
 * Return: "not a regular file" for -EINVAL (what is at the final name
 * is a device, FIFO or socket), else strerror()'s text.
 */
const char *vtrace_output_file_strerror(int err);

/**
 * vtrace_output_file_create - start writing @path
 * @out: the output; @out->fd is the file to write
 * @path: the final name, borrowed until vtrace_output_file_commit() or
 *	vtrace_output_file_discard()
 *
 * Return: 0, an error of vtrace_output_file_check(), or a negative errno
 * (e.g. -ENOENT for a missing directory).
 */
int vtrace_output_file_create(struct vt_output_file *out, const char *path);

/**
 * vtrace_output_file_commit - close the file and give it its final name
 * @out: the output
 * @durable: fsync the data first (a recording, which exists nowhere
 *	else), or not (a conversion, whose source is still there)
 *
 * The file gets mode %VT_OUTPUT_FILE_MODE, whatever the umask. On failure
 * the temporary file is removed, unless @durable: a recording's data
 * exists nowhere else, so its file stays, named by @out->tmp, for
 * vtrace_output_file_discard() or vtrace_output_file_keep().
 *
 * Return: 0 or a negative errno.
 */
int vtrace_output_file_commit(struct vt_output_file *out, bool durable);

/**
 * vtrace_output_file_discard - close and remove the temporary file
 * @out: the output; nothing happens when none is open
 */
void vtrace_output_file_discard(struct vt_output_file *out);

/**
 * vtrace_output_file_keep - close the temporary file and leave it there
 * @out: the output; nothing happens when none is open
 *
 * For data that must not be lost although the output is not complete
 * (a recording whose end failed): the file keeps its temporary name.
 */
void vtrace_output_file_keep(struct vt_output_file *out);

/**
 * vtrace_output_file_write - write a file whole through stdio
 * @path: the final name
 * @fill: writes the content to its stream; returns 0 or a negative errno
 * @arg: for @fill
 *
 * Creates the temporary file, hands it to @fill as a stream and commits
 * it (not durably: for files made from others, which still exist). On
 * any failure the temporary file is removed and what was at @path stays.
 *
 * Return: 0; what @fill returned; -EIO for a stream error @fill did not
 * report; or an error of vtrace_output_file_create() or _commit(), which
 * vtrace_output_file_strerror() describes.
 */
int vtrace_output_file_write(const char *path, int (*fill)(FILE *f, void *arg),
			     void *arg);

#endif /* _VTRACE_OUTPUT_FILE_H */
