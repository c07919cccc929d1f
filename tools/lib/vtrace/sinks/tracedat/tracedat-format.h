/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace-cmd's trace.dat format (trace-cmd.dat.v6(5), and what
 * trace-cmd.dat.v7(5) adds) as the writer (tracedat-writer.c) and the
 * checks (tracedat-check.c, tracedat-check-v7.c) share it, and the
 * kernel's sub-buffer header flags stored in it. Internal to the library.
 */
#ifndef VTRACE_TRACEDAT_FORMAT_H
#define VTRACE_TRACEDAT_FORMAT_H

#include <stdint.h>

#include <vtrace/version.h>

/* The sub-buffers of its CPUs' data are the kernel's, as they come. */
#include "ring/subbuf-format.h"

#define TRACEDAT_MAGIC "\x17\x08\x44tracing"
#define TRACEDAT_MAGIC_LEN 10
/* vtrace's writer: stands in for the first magic byte until finished. */
#define TRACEDAT_INCOMPLETE_BYTE 0x00
/* The version written, and the one after it (trace-cmd 3.x's default). */
#define TRACEDAT_VERSION "6"
#define TRACEDAT_VERSION_NEXT "7"
/* The writer named in the version option. */
#define TRACEDAT_WRITER "vtrace " VTRACE_VERSION

/*
 * The in-progress record, written where the header's remainder will go
 * (at the first TRACEDAT_PARTIAL_ALIGN boundary from the end of
 * printk_formats) while a recording runs and while its file is laid
 * out, so that a killed one can be finished by vtrace_tracedat_recover():
 * where each CPU's run starts, the clock, and during the layout step the
 * plan and the progress of the moves. All numbers in host byte order,
 * like the rest. Aligned so that a record within one page is replaced by
 * a single write that a signal cannot cut.
 */
#define TRACEDAT_PARTIAL_MAGIC "vtrace-partial-2"
#define TRACEDAT_PARTIAL_MAGIC_LEN 16
#define TRACEDAT_PARTIAL_CLOCK_LEN 32
#define TRACEDAT_PARTIAL_NAME_LEN 256
#define TRACEDAT_PARTIAL_ALIGN 4096

/**
 * struct tracedat_layout_progress - how far the layout step's moves went
 * @moved: CPUs whose runs are at their places (in CPU order)
 * @pad: zero
 * @size: the file's size when this was written; one smaller by CPU
 *	@moved's gap means that its collapse was done, not recorded
 * @shift: how far the runs of CPUs from @moved are below their starts
 * @done: bytes of CPU @moved's run already at its place (chunked moves)
 */
struct tracedat_layout_progress {
	uint32_t moved;
	uint32_t pad;
	uint64_t size;
	uint64_t shift;
	uint64_t done;
};

/**
 * struct tracedat_partial - the in-progress record
 * @magic: %TRACEDAT_PARTIAL_MAGIC, unterminated
 * @ncpus: CPUs with a run
 * @page_size: sub-buffer size
 * @data_start: offset of CPU 0's run in the file (in place), or 0 when
 *	the runs are in FILE.cpuN
 * @share: distance between two CPUs' runs in the file; 0 with FILE.cpuN
 * @clock: the trace clock, NUL-terminated
 * @name: the base name the finished file was to get, NUL-terminated
 * @dest: 0 while recording; in the layout step, where CPU 0's run goes,
 *	and the record is followed by @ncpus uint64_t: each run's bytes
 *	(the runs go one after the other from @dest)
 * @progress: the layout step's moves
 */
struct tracedat_partial {
	char magic[TRACEDAT_PARTIAL_MAGIC_LEN];
	uint32_t ncpus;
	uint32_t page_size;
	uint64_t data_start;
	uint64_t share;
	char clock[TRACEDAT_PARTIAL_CLOCK_LEN];
	char name[TRACEDAT_PARTIAL_NAME_LEN];
	uint64_t dest;
	struct tracedat_layout_progress progress;
};

/* Option ids; readers skip ids they do not know. */
#define TRACEDAT_OPTION_DONE 0
#define TRACEDAT_OPTION_DATE 1
#define TRACEDAT_OPTION_CPUSTAT 2
#define TRACEDAT_OPTION_BUFFER 3
#define TRACEDAT_OPTION_TRACECLOCK 4
#define TRACEDAT_OPTION_UNAME 5
#define TRACEDAT_OPTION_HOOK 6
#define TRACEDAT_OPTION_OFFSET 7
#define TRACEDAT_OPTION_CPUCOUNT 8
#define TRACEDAT_OPTION_VERSION 9
#define TRACEDAT_OPTION_PROCMAPS 10
#define TRACEDAT_OPTION_TIME_SHIFT 12
#define TRACEDAT_OPTION_GUEST 13
#define TRACEDAT_OPTION_BUFFER_TEXT 22
/* Version 7: the options that give where a section is (its id too). */
#define TRACEDAT_OPTION_HEADER_INFO 16
#define TRACEDAT_OPTION_FTRACE_EVENTS 17
#define TRACEDAT_OPTION_EVENT_FORMATS 18
#define TRACEDAT_OPTION_KALLSYMS 19
#define TRACEDAT_OPTION_PRINTK 20
#define TRACEDAT_OPTION_CMDLINES 21
/* Version 7 section header flags: the section is compressed. */
#define TRACEDAT_SECTION_COMPRESSED 1

#endif /* VTRACE_TRACEDAT_FORMAT_H */
