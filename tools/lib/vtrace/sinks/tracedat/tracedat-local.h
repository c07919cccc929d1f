/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the trace.dat writer's files share:
 *
 *	tracedat-writer.c	create, the CPU data, the layout step, finish
 *	tracedat-meta.c		the metadata: headers, formats, kallsyms,
 *				printk formats, cmdlines, options
 *	tracedat-head.c		the metadata alone, for trace-cmd listen
 *	tracedat-recover.c	a killed recording's file made whole
 */
#ifndef _VTRACE_TRACEDAT_LOCAL_H
#define _VTRACE_TRACEDAT_LOCAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <vtrace/output-file.h>
#include <vtrace/tracedat-writer.h>

#include "sinks/tracedat/tracedat-cpu-data.h"
#include "sinks/tracedat/tracedat-format.h"

/*
 * Bounds of the header parts only finish() writes, for the space create()
 * reserves: a saved_cmdlines line is "PID COMM\n" (7 digits, 15 chars),
 * a CPU's stats option is well under 512 bytes, the rest under 16 KiB.
 */
#define CMDLINE_MAX_LEN 24
#define CPU_STATS_MAX_LEN 512
#define TAIL_FIXED_MAX_LEN (16 * 1024)
/* Chunk of the copies of recovered runs. */
#define RECOVER_CHUNK (1024 * 1024)

/*
 * Where a CPU's run of a killed recording is: in one piece, or in two
 * when the layout step was moving it (the part moved, the rest); how
 * many sub-buffers each piece may hold and how many it does.
 */
struct recovery_run {
	int fd[2];
	off_t start[2];
	unsigned long long max[2];
	unsigned long long n[2];
};

struct vt_tracedat {
	char *path;
	struct vt_output_file out;
	int fd;
	int ncpus;
	size_t page_size;
	struct tracefs_instance *instance;
	char *clock;
	off_t tail_offset;
	off_t data_base;
	struct vt_cpu_data *data;
	unsigned long long *recovered;
	struct recovery_run *runs;
	bool finished;
	struct vt_tracedat_err err;
};

/* Every failure of the writer is described in td->err. */
#define set_error(td, ...) vt_tracedat_err_set(&(td)->err, __VA_ARGS__)

/*
 * The header is built in memory section by section and written with one
 * pwrite per section; struct out_buf is that growing buffer.
 */
struct out_buf {
	char *data;
	size_t len;
	size_t size;
	int err;
};

void vt_td_add_cmdlines(struct vt_tracedat *td, struct out_buf *b);
int vt_td_add_event_formats(struct vt_tracedat *td, struct out_buf *b,
			    const char *const *list);
void vt_td_add_file_header(struct vt_tracedat *td, struct out_buf *b);
int vt_td_add_header_file(struct vt_tracedat *td, struct out_buf *b,
			  const char *name);
void vt_td_add_kallsyms(struct out_buf *b);
void vt_td_add_options(struct vt_tracedat *td, struct out_buf *b,
		       bool cpu_stats);
void vt_td_add_printk_formats(struct out_buf *b);
void vt_td_buf_add(struct out_buf *b, const void *data, size_t len);
void vt_td_buf_add_u32(struct out_buf *b, uint32_t v);
void vt_td_buf_add_u64(struct out_buf *b, uint64_t v);
int vt_td_buf_flush(struct vt_tracedat *td, struct out_buf *b, off_t *off,
		    const char *what);
int vt_td_copy_range(struct vt_tracedat *td, int src, off_t from, off_t to,
		     unsigned long long len, char *chunk);
int vt_td_finish_file(struct vt_tracedat *td);
void vt_td_free_tracedat(struct vt_tracedat *td, bool remove_files);
off_t vt_td_partial_offset(off_t tail);
size_t vt_td_partial_size(int ncpus);
bool vt_td_valid_opts(const struct vt_tracedat_opts *opts);
int vt_td_write_kallsyms(struct vt_tracedat *td, off_t *off);

#endif /* _VTRACE_TRACEDAT_LOCAL_H */
