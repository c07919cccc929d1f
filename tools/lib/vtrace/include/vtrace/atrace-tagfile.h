/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The atrace tag file, vtrace's counterpart of Android's
 * debug.atrace.tags.enableflags property: which userspace tags
 * (ATRACE_TAG_* bits) are enabled and which trace_marker the markers go
 * to. vtrace writes it (<vtrace/atrace-tags.h>); libvtrace-atrace maps it
 * read-only into every process that marks. This header is the one
 * definition of its layout.
 *
 * The library tests a tag with one load of @tags through its mapping, so
 * the file, once made, is never shrunk, replaced or removed (a reader
 * would fault on a shrunk one, and keep reading a replaced one). Writers
 * serialise with flock() on it and update it through a shared mapping.
 */
#ifndef _VTRACE_ATRACE_TAGFILE_H
#define _VTRACE_ATRACE_TAGFILE_H

#include <stdint.h>

/* The file's name in the state directory. */
#define VTRACE_ATRACE_TAGFILE_NAME "atrace-tags"

#define VTRACE_ATRACE_TAGFILE_MAGIC 0x7367617461727476ULL /* "vtratags" */
#define VTRACE_ATRACE_TAGFILE_VERSION 1
#define VTRACE_ATRACE_TAGFILE_SIZE 4096

/*
 * The library maps the file over a page-aligned block of its own data: as
 * large as the largest page size it supports.
 */
#define VTRACE_ATRACE_PAGE_MAX 65536

#define VTRACE_ATRACE_HOLDERS 32
/* Instance names are at most this long (with the NUL). */
#define VTRACE_ATRACE_INSTANCE_LEN 64

/* The pid of the holder that stands for "vtrace enable" on a buffer. */
#define VTRACE_ATRACE_HOLDER_ENABLE (-1)

/**
 * struct vtrace_atrace_holder - who wants which tags, in which buffer
 * @pid: the recording's pid, %VTRACE_ATRACE_HOLDER_ENABLE for what
 *	"vtrace enable" turned on, 0 for a free slot
 * @reserved: zero
 * @start_time: the recording's start time (field 22 of /proc/PID/stat),
 *	so that "vtrace reset" never takes a reused pid for a live recording
 * @tags: the ATRACE_TAG_* bits it wants
 * @instance: its tracefs instance, "" for the top level buffer
 */
struct vtrace_atrace_holder {
	int32_t pid;
	uint32_t reserved;
	uint64_t start_time;
	uint64_t tags;
	char instance[VTRACE_ATRACE_INSTANCE_LEN];
};

/**
 * struct vtrace_atrace_tagfile - the file's layout
 * @tags: union of the holders' tags; what the library loads. First, so
 *	that it is the first word of the library's page.
 * @seq: odd while a writer changes @instance, bumped again after; a
 *	reader that saw another value re-reads @instance and reopens
 * @version: %VTRACE_ATRACE_TAGFILE_VERSION
 * @magic: %VTRACE_ATRACE_TAGFILE_MAGIC
 * @instance: the instance whose trace_marker markers go to, "" for the
 *	top level buffer
 * @holders: the enables and recordings that make up @tags
 */
struct vtrace_atrace_tagfile {
	uint64_t tags;
	uint32_t seq;
	uint32_t version;
	uint64_t magic;
	char instance[VTRACE_ATRACE_INSTANCE_LEN];
	struct vtrace_atrace_holder holders[VTRACE_ATRACE_HOLDERS];
};

_Static_assert(sizeof(struct vtrace_atrace_tagfile) <=
		       VTRACE_ATRACE_TAGFILE_SIZE,
	       "the tag file's layout outgrew its size");

#endif /* _VTRACE_ATRACE_TAGFILE_H */
