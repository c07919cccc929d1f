/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the vtrace kselftests: tracefs and debugfs file access,
 * tracefs instances, event formats, a trace_pipe_raw decoder and module
 * load/unload.  Functions return 0 (or a count) on success and -errno on
 * failure; none of them prints.
 */
#ifndef VTRACE_TEST_H
#define VTRACE_TEST_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define VT_DEBUGFS "/sys/kernel/debug/vtrace"
#define VT_MODULE_NAME "vtrace"
#define VT_MAX_CPUS 256
#define VT_MAX_FIELDS 24

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/* Generic file access. */
ssize_t vt_write(const char *path, const void *buf, size_t len);
int vt_write_str(const char *path, const char *str);
ssize_t vt_read(const char *path, char *buf, size_t size);
int vt_read_u64(const char *path, uint64_t *val);
char *vtrace_read_all(const char *path, size_t *len);
bool vt_exists(const char *path);

/* tracefs root ("/sys/kernel/tracing"), vtrace presence, debugfs files. */
const char *vt_tracefs(void);
const char *vt_skip_reason(void);
ssize_t vt_emit(const char *cmd);
int vt_ctl_write(const char *file, const char *val);
int vt_ctl_read_u64(const char *file, uint64_t *val);
int vt_ctl_status(const char *file, const char *key, char *val, size_t size);

/* The simulator's settings a test changes, read before and put back after. */
struct vt_sim_saved {
	uint64_t running;
	uint64_t period_ms;
	uint64_t seed;
};

int vt_sim_save(struct vt_sim_saved *saved);
int vt_sim_restore(const struct vt_sim_saved *saved);

/* CPUs, from /sys/devices/system/cpu/{online,possible}. */
int vt_cpus(const char *which, bool *mask);
int vt_nr_cpus(const char *which);
int vt_pin_cpu(int cpu);

/**
 * struct vt_tracing - a tracing directory: an instance or the top level.
 * @dir: absolute path of the directory
 * @owned: true for an instance vt_instance_create() made (removed on destroy)
 */
struct vt_tracing {
	char dir[PATH_MAX];
	bool owned;
};

int vt_instance_create(struct vt_tracing *t, const char *tag);
int vt_instance_destroy(struct vt_tracing *t);
void vt_tracing_top(struct vt_tracing *t);
int vt_tracing_file(const struct vt_tracing *t, const char *rel, char *path,
		    size_t size);
int vt_tracing_write(const struct vt_tracing *t, const char *rel,
		     const char *val);
int vt_tracing_enable(const struct vt_tracing *t, const char *event, bool on);
int vt_tracing_filter(const struct vt_tracing *t, const char *event,
		      const char *filter);
int vt_tracing_clear(const struct vt_tracing *t);

/**
 * struct vt_cpu_stats - per_cpu/cpuN/stats of a tracing buffer.
 * @entries: events in the buffer, not yet consumed
 * @overrun: events lost to overwrite
 * @commit_overrun: events lost while the writer wrapped
 * @dropped: events dropped (buffer full in non-overwrite mode)
 */
struct vt_cpu_stats {
	uint64_t entries;
	uint64_t overrun;
	uint64_t commit_overrun;
	uint64_t dropped;
};

int vt_cpu_stats(const struct vt_tracing *t, int cpu, struct vt_cpu_stats *st);
int vt_total_stats(const struct vt_tracing *t, struct vt_cpu_stats *sum);

/* Event formats, parsed from events/SYSTEM/EVENT/format. */
struct vt_field {
	char type[96];
	char name[64];
	int offset;
	int size;
	int is_signed;
};

struct vt_format {
	int id;
	int nr_fields;
	struct vt_field field[VT_MAX_FIELDS];
	char print_fmt[4096];
};

int vt_format_load(const char *system, const char *event, struct vt_format *f);
int vt_format_load_file(const char *path, struct vt_format *f);
const struct vt_field *vt_field(const struct vt_format *f, const char *name);
uint64_t vt_get_u64(const struct vt_field *fld, const void *data);
int64_t vt_get_s64(const struct vt_field *fld, const void *data);
int vt_get_str(const struct vt_field *fld, const void *data, size_t size,
	       char *buf, size_t bufsz);

/**
 * struct vt_record - one event decoded from trace_pipe_raw.
 * @cpu: buffer it came from
 * @type: common_type (the event's format ID)
 * @data: event payload, starting with the common fields
 * @size: payload size in bytes
 */
struct vt_record {
	int cpu;
	unsigned int type;
	const void *data;
	size_t size;
};

typedef void (*vt_record_fn)(const struct vt_record *rec, void *arg);

/**
 * struct vt_consumed - what vt_consume_cpu() saw.
 * @records: data records handed to the callback
 * @missed_pages: sub-buffers flagged with lost events
 */
struct vt_consumed {
	uint64_t records;
	uint64_t missed_pages;
};

int vt_consume_cpu(const struct vt_tracing *t, int cpu, vt_record_fn fn,
		   void *arg, struct vt_consumed *out);
int vt_consume_all(const struct vt_tracing *t, vt_record_fn fn, void *arg,
		   struct vt_consumed *out);

/* Module handling (finit_module/delete_module). */
bool vt_module_loaded(void);
const char *vt_ko(bool debug);
int vt_module_load(const char *ko, const char *params);
int vt_module_unload(void);
int vt_module_restore_default(void);

/* /proc/meminfo field in kB, /proc/sys/kernel/tainted. */
int vt_meminfo_kb(const char *key, uint64_t *kb);
int vt_tainted(uint64_t *mask);

#endif /* VTRACE_TEST_H */
