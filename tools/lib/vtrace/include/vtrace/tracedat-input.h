/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Opening a trace.dat for reading through libtracecmd, with the checks
 * that libtracecmd and libtraceevent lack: the file's layout before it
 * is opened (tracedat-check.h) and each record's fields against its
 * length. vtrace report and vtrace convert read files through here, so
 * a bad file gets the same message from either.
 *
 * libtracecmd is shared only in Debian: this unit is not in a static
 * build of the library.
 */
#ifndef _VTRACE_TRACEDAT_INPUT_H
#define _VTRACE_TRACEDAT_INPUT_H

#include <stdbool.h>
#include <stddef.h>

struct tep_event;
struct tep_record;
struct tracecmd_input;

/**
 * vtrace_tracedat_open - check and open a trace.dat
 * @path: the file
 * @handlep: set to the open file on success, NULL on failure
 * @msg: set to why the file cannot be read, on failure
 * @msg_size: size of @msg
 *
 * @msg names @path and the cause: an unfinished recording, a truncated
 * or corrupt section, a corrupt header.
 *
 * Return: 0, -ENODATA for an unfinished recording, -EINVAL for a file
 * that is truncated, corrupt or not a trace.dat, or another negative
 * errno when it cannot be read.
 */
int vtrace_tracedat_open(const char *path, struct tracecmd_input **handlep,
			 char *msg, size_t msg_size);

/**
 * vtrace_tracedat_record_ok - whether a record can be decoded safely
 * @event: the record's event
 * @record: the record
 * @msg: set to what is wrong (without the file's name), when it is not
 * @msg_size: size of @msg
 *
 * libtraceevent 1.7 reads fields where the format puts them, unbounded;
 * a record made shorter than its event by a corrupt length, or a
 * function graph record of a garbled depth, would be read (or printed)
 * out of bounds.
 *
 * Return: true when every field of @event lies inside @record and its
 * contents are sane.
 */
bool vtrace_tracedat_record_ok(struct tep_event *event,
			       struct tep_record *record, char *msg,
			       size_t msg_size);

#endif /* _VTRACE_TRACEDAT_INPUT_H */
