/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace-cmd trace.dat version 6 writer.
 *
 * Why this exists: Debian bookworm's libtracecmd 1.3 can only read
 * trace.dat files, and trace-cmd's own writer is not a public library
 * API. vtrace records the ring buffer itself (mmap/splice/read of
 * per_cpu/cpuN/trace_pipe_raw), so it needs a writer of its own. It is
 * kept to this one unit; everything it stores is read through
 * libtracefs, and the file layout follows trace-cmd.dat.v6(5).
 *
 * Usage:
 *
 *	td = NULL;
 *	ret = vtrace_tracedat_create(&td, "trace.dat", &opts);  // metadata now
 *	while (recording)
 *		ret = vtrace_tracedat_add_page(td, cpu, page, len); // raw sub-buffers
 *	ret = vtrace_tracedat_finish(td);                       // or _abort()
 *	if (ret)
 *		warn(vtrace_tracedat_strerror(td));
 *	vtrace_tracedat_close(td);
 *
 * Faults. Until vtrace_tracedat_finish() completes, the file is written
 * under a temporary name next to the output (a file already at the
 * output's name stays until the new one replaces it), carries a marker
 * in place of the trace.dat magic, so neither trace-cmd nor vtrace
 * report mistakes it for a finished trace, and holds an in-progress
 * record from which vtrace_tracedat_recover() finishes it after a SIGKILL. Per-CPU data is
 * written straight into FILE, each CPU into its own far-apart share of a
 * sparse file, and the gaps are closed by vtrace_tracedat_finish(); on file
 * systems without sparse files it goes to FILE.cpuN next to the output
 * and is moved in (tracedat-cpu-data.c). Either way, finishing frees
 * each chunk at its source before writing it, so it needs no free disk
 * space beyond what create() reserved. When a write
 * fails (disk full, I/O error) vtrace_tracedat_add_page() returns the error
 * and keeps what it had; vtrace_tracedat_finish() then still produces a
 * valid trace.dat with every page written before the failure.
 *
 * Functions return 0 or a negative errno and never print; the text of
 * the last failure is in vtrace_tracedat_strerror().
 */
#ifndef VTRACE_TRACEDAT_WRITER_H
#define VTRACE_TRACEDAT_WRITER_H

#include <stddef.h>

struct tracefs_instance;
struct vt_tracedat;

/**
 * struct vt_tracedat_opts - what to record into a new trace.dat
 * @instance: tracefs instance being recorded; NULL for the top instance.
 *	Its trace_clock is stored as the file's clock, its per-CPU stats as
 *	the file's CPU statistics. Must stay valid until vtrace_tracedat_finish().
 * @ncpus: number of per-CPU buffers (CPUs 0..@ncpus-1) that will be added.
 * @page_size: size of one ring-buffer sub-buffer, in bytes (the system
 *	page size unless buffer_subbuf_size_kb was changed); a power of two.
 * @events: NULL-terminated list of "system/event" whose formats to store,
 *	or NULL to store the format of every event tracefs knows. The ftrace
 *	system's formats (print, bprint, ...) are always stored.
 */
struct vt_tracedat_opts {
	struct tracefs_instance *instance;
	int ncpus;
	size_t page_size;
	const char *const *events;
};

/**
 * vtrace_tracedat_create - start a trace.dat file and gather its metadata
 * @tdp: set to the new writer on success, left NULL on failure
 * @path: output file (FILE.cpu0 .. FILE.cpuN-1 too, without sparse files)
 * @opts: see struct vt_tracedat_opts
 *
 * Reads header_page, header_event, event formats, /proc/kallsyms,
 * printk_formats and trace_clock now (before recording starts, so events
 * of a module unloaded mid-record keep their formats) and writes them.
 * saved_cmdlines and per-CPU stats are read by vtrace_tracedat_finish().
 *
 * Return: 0, or a negative errno (-EINVAL for bad @opts, -ENOENT for an
 * event in @opts->events that tracefs does not have, I/O errors).
 */
int vtrace_tracedat_create(struct vt_tracedat **tdp, const char *path,
			   const struct vt_tracedat_opts *opts);

/**
 * vtrace_tracedat_add_page - append one raw ring-buffer sub-buffer of a CPU
 * @td: writer
 * @cpu: CPU the page was read from, 0 .. ncpus-1
 * @page: the sub-buffer as the kernel lays it out (timestamp, commit, data)
 * @len: bytes in @page, at most page_size; shorter pages are zero-padded
 *
 * May be called concurrently for different CPUs, not for the same CPU.
 * Return: 0 or a negative errno (-ENOSPC when the disk is full, -EFBIG
 * when the CPU's share of the file is full). After an error the pages
 * added before it are kept; finish the file as usual.
 */
int vtrace_tracedat_add_page(struct vt_tracedat *td, int cpu, const void *page,
			     size_t len);
int vtrace_tracedat_splice_pages(struct vt_tracedat *td, int cpu, int pipe,
				 size_t len, void *spill, size_t *stored);

/**
 * vtrace_tracedat_finish - complete the file
 * @td: writer; no pages can be added afterwards
 *
 * Writes saved_cmdlines, the options (clock, CPU count, per-CPU stats,
 * uname, version) and the flyrecord section, puts the per-CPU data in
 * place after it, and only then writes the trace.dat magic.
 *
 * Return: 0, or a negative errno; then the file stays marked incomplete
 * and the data not yet in place is still where it was written.
 */
int vtrace_tracedat_finish(struct vt_tracedat *td);

/**
 * vtrace_tracedat_close - free @td, keeping the files as they are
 * @td: writer, may be NULL
 *
 * After a failed or missing vtrace_tracedat_finish() the output stays marked
 * incomplete and keeps its data (or FILE.cpuN do).
 */
void vtrace_tracedat_close(struct vt_tracedat *td);

/**
 * vtrace_tracedat_abort - drop an unfinished file, its temporary files and @td
 * @td: writer, may be NULL
 */
void vtrace_tracedat_abort(struct vt_tracedat *td);

/**
 * vtrace_tracedat_strerror - describe the last failure of @td
 * @td: writer
 *
 * Return: a message such as "writing trace.dat.cpu1: No space left on
 * device", or "" if nothing failed. Valid until @td is freed.
 */
const char *vtrace_tracedat_strerror(const struct vt_tracedat *td);

/**
 * vtrace_tracedat_head - the metadata of a trace.dat, for a collector
 * @opts: see struct vt_tracedat_opts
 * @data: set to the bytes, malloc()ed; free() them
 * @len: set to their number
 * @err: the text of a failure
 * @err_len: room in @err
 *
 * Everything vtrace_tracedat_create() and vtrace_tracedat_finish() write before
 * the flyrecord section, read now: the magic, header_page, header_event,
 * event formats, kallsyms, printk_formats, saved_cmdlines, the CPU count
 * and the options (clock, uname, version; no per-CPU stats, which exist
 * only at the end). "trace-cmd listen" appends the per-CPU data to them.
 *
 * Return: 0, or a negative errno as vtrace_tracedat_create()'s.
 */
int vtrace_tracedat_head(const struct vt_tracedat_opts *opts, char **data,
			 size_t *len, char *err, size_t err_len);

/**
 * vtrace_tracedat_check_incomplete - tell whether @path is an unfinished file
 * @path: a file given to vtrace report
 *
 * Return: 1 when @path carries the in-progress marker of this writer
 * (the recording was killed or crashed before vtrace_tracedat_finish()),
 * 0 when it does not, or a negative errno when it cannot be read.
 */
int vtrace_tracedat_check_incomplete(const char *path);

/**
 * vtrace_tracedat_partial_path - the file being written until it is finished
 * @td: writer, may be NULL
 *
 * The output is written under a temporary name in its directory and
 * renamed when vtrace_tracedat_finish() completes. A recording killed before
 * leaves this file (and FILE.cpuN next to it, without sparse files),
 * which vtrace_tracedat_recover() turns into a trace.dat.
 *
 * Return: the temporary file's path, or NULL once it has its name.
 */
const char *vtrace_tracedat_partial_path(const struct vt_tracedat *td);

/**
 * struct vt_tracedat_recovery - what vtrace_tracedat_recover() made
 * @output: the file written; free()
 * @ncpus: CPUs of the recording
 * @page_size: size of a sub-buffer
 * @subbufs: sub-buffers recovered, per CPU (@ncpus entries); free()
 * @layout_moved: -1 when the recording was killed before its layout
 *	step; else how many CPUs' runs the step had put in place
 * @layout_done: bytes of CPU @layout_moved's run the step had put in
 *	place, when it was killed in the middle of moving it; else 0
 * @layout_bytes: the bytes of that run, when @layout_done is not 0
 */
struct vt_tracedat_recovery {
	char *output;
	int ncpus;
	size_t page_size;
	unsigned long long *subbufs;
	int layout_moved;
	unsigned long long layout_done;
	unsigned long long layout_bytes;
};

/**
 * vtrace_tracedat_recover - finish the file of a killed recording
 * @in: the unfinished file (vtrace_tracedat_partial_path() of the writer)
 * @out: the trace.dat to write; NULL: the name the recording was to give
 *	it, next to @in, which must not exist yet
 * @r: filled in on success
 * @msg: set to a message on failure
 * @msg_size: its size
 *
 * Every sub-buffer that reached @in (or its FILE.cpuN) is kept, up to
 * the first one that did not reach it whole. @in is only read; @out
 * appears only when complete. The file has no saved command lines and
 * no CPU statistics: they were to be read at the end.
 *
 * Return: 0; -EINVAL when @in is not an unfinished file of this writer,
 * -EEXIST when @out is NULL and the default name exists, or another
 * negative errno.
 */
int vtrace_tracedat_recover(const char *in, const char *out,
			    struct vt_tracedat_recovery *r, char *msg,
			    size_t msg_size);

#endif /* VTRACE_TRACEDAT_WRITER_H */
