/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the trace.dat writer keeps each CPU's sub-buffers until the file
 * is finished. Internal to the writer (tracedat-writer.c); see
 * tracedat-cpu-data.c for the layouts and why.
 *
 * Functions return 0 or a negative errno and never print; failures are
 * described in the writer's struct vt_tracedat_err.
 */
#ifndef VTRACE_TRACEDAT_CPU_DATA_H
#define VTRACE_TRACEDAT_CPU_DATA_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/**
 * struct vt_tracedat_err - the text of a writer's last failure
 * @lock: taken while @text is written (recorder threads fail concurrently)
 * @text: "what failed: strerror", or "" while nothing failed
 */
struct vt_tracedat_err {
	pthread_mutex_t lock;
	char text[512];
};

int vt_tracedat_err_set(struct vt_tracedat_err *e, int err, const char *fmt,
			...) __attribute__((format(printf, 3, 4)));

struct vt_cpu_data;

int vt_cpu_data_open(struct vt_cpu_data **out, int fd, const char *path,
		     off_t base, int ncpus, size_t page_size,
		     struct vt_tracedat_err *err);
int vt_cpu_data_add(struct vt_cpu_data *d, int cpu, const void *page,
		    size_t len);
int vt_cpu_data_splice(struct vt_cpu_data *d, int cpu, int pipe, size_t len,
		       void *spill, size_t *stored);
void vt_cpu_data_layout(const struct vt_cpu_data *d, off_t *start,
			unsigned long long *share);
unsigned long long vt_cpu_data_bytes(const struct vt_cpu_data *d, int cpu);
int vt_cpu_data_assemble(struct vt_cpu_data *d, const off_t *offs,
			 off_t progress_at);
void vt_cpu_data_close(struct vt_cpu_data *d, bool remove_files);

#endif /* VTRACE_TRACEDAT_CPU_DATA_H */
